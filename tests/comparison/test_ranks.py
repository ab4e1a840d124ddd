"""rank_comparison: Demšar's (2006) worked example, and scipy, statsmodels,
scikit-posthocs and autorank on random tables with ties."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import binmetrics as bm
from binmetrics.comparison.ranks import holm_adjust, nemenyi_q
from binmetrics.data import demsar_table
from binmetrics.exceptions import UndefinedMeasureWarning


def random_table(seed: int, n: int = 12, k: int = 5, levels: int = 6) -> pd.DataFrame:
    """Scores on a coarse grid, so that ties within a data set are common."""
    rng = np.random.default_rng(seed)
    values = rng.integers(0, levels, size=(n, k)) / levels + rng.normal(0, 0.05, k).round(1)
    return pd.DataFrame(values, index=[f"d{i}" for i in range(n)],
                        columns=[f"m{j}" for j in range(k)])


SEEDS = range(8)


# --- Demšar (2006), section 3.2.2-3.2.4 and Table 6 --------------------------------------
def test_demsar_average_ranks_friedman_iman_davenport():
    res = bm.rank_comparison(demsar_table())
    # his printed average ranks, and the ranks in the parentheses of Table 6
    assert res.average_ranks.round(3).to_dict() == {
        "C4.5+m+cf": 1.964, "C4.5+m": 2.0, "C4.5+cf": 2.893, "C4.5": 3.143}
    assert res.ranks.loc["iris"].tolist() == [1, 2.5, 4, 2.5]
    assert res.ranks.loc["mushroom"].tolist() == [2.5] * 4
    assert res.ranks.loc["voting"].tolist() == [4, 1, 2, 3]
    assert round(res.friedman.statistic, 2) == 9.28
    assert res.friedman.df == 3
    assert round(res.iman_davenport.statistic, 2) == 3.69
    assert res.iman_davenport.df == (3, 39)
    # "the critical value of F(3, 39) for alpha = 0.05 is 2.85, so we reject"
    assert res.iman_davenport.pvalue < 0.05 < stats.f.sf(2.85, 3, 39) + 1e-3


def test_demsar_critical_differences():
    res = bm.rank_comparison(demsar_table())
    assert round(nemenyi_q(4, 0.05), 3) == 2.569  # Table 5(a)
    assert round(nemenyi_q(4, 0.10), 3) == 2.291
    assert round(res.standard_error, 3) == 0.488
    assert round(res.critical_difference(0.05), 2) == 1.25
    assert round(res.critical_difference(0.10), 2) == 1.12
    # Table 5(b): q_0.05 = 2.394 for Bonferroni-Dunn with 4 classifiers; the paper prints
    # CD = 1.16 for 2.394 * 0.488 = 1.168
    assert round(stats.norm.isf(0.05 / 6), 3) == 2.394
    assert res.critical_difference(0.05, "bonferroni_dunn") == pytest.approx(1.168, abs=5e-4)
    # no pair differs at 0.05 (the largest gap 1.179 < 1.25); at 0.10 C4.5 is worse than
    # C4.5+m and C4.5+m+cf and C4.5+cf belongs to neither group
    assert not res.posthoc("nemenyi").table["significant"].any()
    at10 = res.posthoc("nemenyi", alpha=0.10)
    sig = {frozenset(p) for p in at10.table.loc[at10.table["significant"],
                                                ["model_a", "model_b"]].to_numpy()}
    assert sig == {frozenset(("C4.5", "C4.5+m")), frozenset(("C4.5", "C4.5+m+cf"))}
    assert at10.groups() == [["C4.5+m+cf", "C4.5+m", "C4.5+cf"], ["C4.5+cf", "C4.5"]]
    # Bonferroni-Dunn with control C4.5: only C4.5+m+cf (1.179 > 1.16)
    bd = res.posthoc("bonferroni_dunn", control="C4.5")
    assert bd.table.set_index("model_b")["significant"].to_dict() == {
        "C4.5+m+cf": True, "C4.5+m": False, "C4.5+cf": False}


def test_demsar_holm_against_control():
    holm = bm.rank_comparison(demsar_table()).posthoc("holm", control="C4.5")
    t = holm.table.set_index("model_b")
    # his table: z = 2.416, 2.342, 0.512 and p = 0.016, 0.019, 0.607 (from ranks rounded
    # to three decimals and SE = 0.488; unrounded, z = 2.415 and p = 0.608)
    assert t["statistic"].tolist() == pytest.approx([2.416, 2.342, 0.512], abs=2e-3)
    assert t["pvalue"].tolist() == pytest.approx([0.016, 0.019, 0.607], abs=1.5e-3)
    assert t["significant"].tolist() == [True, True, False]


def test_demsar_printed_values_tie_on_voting():
    # the printed 0.975 and 0.975 tie: ranks 2.5 and 2.5 instead of the paper's 2 and 3
    res = bm.rank_comparison(demsar_table(printed=True))
    assert res.ranks.loc["voting"].tolist() == [4, 1, 2.5, 2.5]
    assert res.average_ranks.round(3).to_dict() == {
        "C4.5+m+cf": 1.929, "C4.5+m": 2.0, "C4.5+cf": 2.929, "C4.5": 3.143}


# --- peers on random tables with ties ----------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
def test_friedman_against_scipy(seed):
    t = random_table(seed)
    tied = bm.rank_comparison(t, tie_correction=True).friedman
    ref = stats.friedmanchisquare(*t.T.to_numpy())
    assert tied.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert tied.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    # Demšar's statistic: from the rank sums, 12/(Nk(k+1)) sum S_j^2 - 3N(k+1)
    n, k = t.shape
    s = stats.rankdata(-t.to_numpy(), axis=1).sum(axis=0)
    plain = bm.rank_comparison(t).friedman
    assert plain.statistic == pytest.approx(12 / (n * k * (k + 1)) * np.sum(s**2)
                                            - 3 * n * (k + 1), rel=1e-12)
    assert plain.statistic <= tied.statistic
    f = bm.rank_comparison(t).iman_davenport
    assert f.statistic == pytest.approx((n - 1) * plain.statistic / (n * (k - 1)
                                                                     - plain.statistic))
    assert f.pvalue == pytest.approx(stats.f.sf(f.statistic, k - 1, (k - 1) * (n - 1)))


@pytest.mark.parametrize("seed", SEEDS)
def test_direction_and_ranks(seed):
    t = random_table(seed)
    hi = bm.rank_comparison(t)
    lo = bm.rank_comparison(-t, higher_is_better=False)
    pd.testing.assert_frame_equal(hi.ranks, lo.ranks)
    assert np.allclose(hi.ranks.sum(axis=1), t.shape[1] * (t.shape[1] + 1) / 2)
    assert hi.friedman == lo.friedman


@pytest.mark.parametrize("seed", SEEDS)
def test_nemenyi_against_scikit_posthocs(seed):
    sp = pytest.importorskip("scikit_posthocs")
    t = random_table(seed)
    ours = bm.rank_comparison(t).posthoc("nemenyi").matrix()
    ref = sp.posthoc_nemenyi_friedman(t.to_numpy())
    ref.index = ref.columns = t.columns
    pd.testing.assert_frame_equal(ours.loc[t.columns, t.columns], ref, check_names=False,
                                  rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_wilcoxon_holm_against_scikit_posthocs(seed):
    # continuous scores: no tie, no zero difference, so scipy's default is its exact
    # distribution too (with ties it switches to the normal approximation from 14 data
    # sets on; binmetrics stays exact, tests/inference/test_signed_rank.py)
    sp = pytest.importorskip("scikit_posthocs")
    t = random_table(seed, n=15, k=4) + np.random.default_rng(seed).normal(0, 1e-3, (15, 4))
    ours = bm.rank_comparison(t).posthoc("wilcoxon_holm").matrix()
    long = t.melt(var_name="model", value_name="score")
    ref = sp.posthoc_wilcoxon(long, val_col="score", group_col="model",
                              zero_method="zsplit", p_adjust="holm")
    pd.testing.assert_frame_equal(ours.loc[ref.index, ref.columns], ref, check_names=False,
                                  rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("seed", range(2))
def test_wilcoxon_holm_with_ties_against_scikit_posthocs_exact_permutation(seed):
    # tied scores: scikit-posthocs with scipy's permutation test over every sign pattern
    sp = pytest.importorskip("scikit_posthocs")
    t = random_table(seed, n=8, k=4)
    ours = bm.rank_comparison(t).posthoc("wilcoxon_holm").matrix()
    long = t.melt(var_name="model", value_name="score")
    ref = sp.posthoc_wilcoxon(long, val_col="score", group_col="model",
                              zero_method="zsplit", p_adjust="holm",
                              method=stats.PermutationMethod(n_resamples=np.inf))
    pd.testing.assert_frame_equal(ours.loc[ref.index, ref.columns], ref, check_names=False,
                                  rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_holm_and_bonferroni_against_statsmodels(seed):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    t = random_table(seed, k=6)
    res = bm.rank_comparison(t)
    for method, control, sm in [("holm", "m2", "holm"), ("holm", None, "holm"),
                                ("bonferroni_dunn", "m0", "bonferroni")]:
        post = res.posthoc(method, control=control).table
        ref = multitest.multipletests(post["pvalue"].to_numpy(), method=sm)[1]
        np.testing.assert_allclose(post["pvalue_adjusted"], ref, rtol=1e-12)
        # the unadjusted p-values are the two-sided normal tail of the rank z
        ranks = res.ranks.mean()
        z = (ranks[post["model_a"]].to_numpy() - ranks[post["model_b"]].to_numpy()) \
            / math.sqrt(6 * 7 / (6 * len(t)))
        np.testing.assert_allclose(post["pvalue"], 2 * stats.norm.sf(np.abs(z)), rtol=1e-12)
    assert len(res.posthoc("holm").table) == 15


def test_holm_adjust_against_statsmodels():
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    rng = np.random.default_rng(3)
    p = rng.uniform(0, 0.2, 30).round(3)  # ties among the p-values
    np.testing.assert_allclose(holm_adjust(p), multitest.multipletests(p, method="holm")[1])


@pytest.mark.parametrize("seed", SEEDS)
def test_critical_difference_against_autorank(seed):
    autorank = pytest.importorskip("autorank")
    t = random_table(seed, n=20, k=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = autorank.autorank(t, alpha=0.05, verbose=False, force_mode="nonparametric")
    res = bm.rank_comparison(t)
    # autorank's q comes from statsmodels' qsturng approximation: off by about 1e-5
    assert res.critical_difference() == pytest.approx(ref.cd, abs=5e-5)
    assert res.critical_difference() != ref.cd
    ours = res.ranks.mean()
    for model, r in ref.rankdf["meanrank"].items():
        assert ours[model] == pytest.approx(r, rel=1e-12)  # 1 = best in both
    assert bm.rank_comparison(t, tie_correction=True).friedman.pvalue == pytest.approx(
        ref.pvalue, rel=1e-10)


def test_nemenyi_significance_is_the_critical_difference():
    for seed in SEEDS:
        res = bm.rank_comparison(random_table(seed, n=30, k=6))
        for alpha in (0.05, 0.10):
            post = res.posthoc("nemenyi", alpha=alpha)
            expect = post.table["rank_difference"].abs() > res.critical_difference(alpha)
            assert post.table["significant"].tolist() == expect.tolist()


def test_groups_are_maximal_runs():
    # c and d share the first two places, a and b the last two, each pair alternating
    swap = np.tile([0.5, -0.5], 10)
    t = pd.DataFrame({"a": np.zeros(20), "b": swap, "c": 10 + np.zeros(20), "d": 10 - swap})
    post = bm.rank_comparison(t).posthoc()
    assert post.groups() == [["c", "d"], ["a", "b"]]
    assert [sorted(g) for g in bm.rank_comparison(t.iloc[:3]).posthoc().groups()] == [list("abcd")]
    holm = bm.rank_comparison(t).posthoc("holm", control="a")
    assert holm.groups() == [["a", "b"]]


# --- bad input ----------------------------------------------------------------------------
def test_too_small():
    with pytest.raises(ValueError, match="at least 2 models"):
        bm.rank_comparison(pd.DataFrame({"a": [1.0, 2.0]}))
    with pytest.raises(ValueError, match="at least 2 data sets"):
        bm.rank_comparison(pd.DataFrame({"a": [1.0], "b": [2.0]}))
    with pytest.raises(ValueError, match="table"):
        bm.rank_comparison([1.0, 2.0, 3.0])


def test_missing_cells():
    t = random_table(0)
    t.iloc[3, 1] = np.nan
    with pytest.raises(ValueError, match=r"1 data set \(d3\) miss a score.*nan_policy='omit'"):
        bm.rank_comparison(t)
    with pytest.warns(UserWarning, match=r"dropped 1 data set with a missing score \(d3\)"):
        res = bm.rank_comparison(t, nan_policy="omit")
    assert res.dropped == ["d3"] and res.n_datasets == len(t) - 1
    assert "1 data set with missing values dropped" in res.summary()
    with pytest.raises(ValueError, match="nan_policy must be 'raise' or 'omit'"):
        bm.rank_comparison(t, nan_policy="drop")  # type: ignore[arg-type]


def test_infinite_scores_are_refused_like_missing_ones():
    # an infinite score (a log loss of a model sure of the wrong class) would give the
    # Wilcoxon post-hoc test inf - inf = NaN differences
    t = random_table(1)
    t.iloc[2, 0] = np.inf
    t.iloc[2, 1] = np.inf
    t.iloc[5, 2] = -np.inf
    with pytest.raises(ValueError, match=r"2 data sets \(d2, d5\) miss a score or hold an "
                                         r"infinite one.*one finite value"):
        bm.rank_comparison(t)
    with pytest.warns(UserWarning, match=r"dropped 2 data sets with a missing or infinite "
                                         r"score \(d2, d5\)"):
        res = bm.rank_comparison(t, nan_policy="omit")
    assert res.dropped == ["d2", "d5"]
    kept = t.drop(index=["d2", "d5"])
    assert res.friedman.statistic == bm.rank_comparison(kept).friedman.statistic
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning from inf - inf
        res.posthoc("wilcoxon_holm")


def test_flags_must_be_booleans():
    t = random_table(2)
    with pytest.raises(TypeError, match="tie_correction must be True or False; got 'no'"):
        bm.rank_comparison(t, tie_correction="no")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="higher_is_better must be True or False"):
        bm.rank_comparison(t, higher_is_better="yes")  # type: ignore[arg-type]
    assert bm.rank_comparison(t, higher_is_better=np.bool_(False)).higher_is_better is False


def test_non_numeric_and_duplicates():
    with pytest.raises(ValueError, match=r"numbers; the columns \['name'\]"):
        bm.rank_comparison(pd.DataFrame({"name": ["x", "y"], "a": [1, 2], "b": [2, 1]}))
    t = pd.DataFrame([[1, 2], [2, 1]], columns=["a", "a"])
    with pytest.raises(ValueError, match="duplicated"):
        bm.rank_comparison(t)


def test_all_equal():
    t = pd.DataFrame(np.full((5, 3), 0.7), columns=list("abc"))
    res = bm.rank_comparison(t)
    assert res.friedman.statistic == 0.0 and res.friedman.pvalue == 1.0
    assert res.iman_davenport.statistic == 0.0
    assert (res.posthoc().table["pvalue_adjusted"] == 1.0).all()
    assert (res.posthoc("wilcoxon_holm").table["pvalue"] == 1.0).all()
    with pytest.warns(UndefinedMeasureWarning, match="Friedman test is undefined: every data"):
        f = bm.rank_comparison(t, tie_correction=True).friedman
    assert math.isnan(f.statistic) and math.isnan(f.pvalue)


def test_perfect_agreement():
    t = pd.DataFrame({"a": np.arange(6.0), "b": np.arange(6.0) + 1, "c": np.arange(6.0) + 2})
    res = bm.rank_comparison(t)
    assert res.friedman.statistic == pytest.approx(12.0)  # N(k-1)
    assert res.iman_davenport.statistic == math.inf and res.iman_davenport.pvalue == 0.0


def test_posthoc_arguments():
    res = bm.rank_comparison(demsar_table())
    with pytest.raises(ValueError, match="unknown post-hoc method 'tukey'"):
        res.posthoc("tukey")
    with pytest.raises(ValueError, match="control 'C5' is not a model"):
        res.posthoc("holm", control="C5")
    with pytest.raises(ValueError, match="Nemenyi test compares all pairs"):
        res.posthoc("nemenyi", control="C4.5")
    with pytest.raises(ValueError, match=r"name one \(control=<model>"):
        res.posthoc("bonferroni_dunn")
    with pytest.raises(ValueError, match="alpha must be between 0 and 1"):
        res.posthoc(alpha=1.5)
    with pytest.raises(ValueError, match="critical difference is defined"):
        res.critical_difference(test="holm")


def test_repr_and_frames():
    res = bm.rank_comparison(demsar_table())
    assert repr(res).startswith("RankComparison(models=4, datasets=14, friedman=9.279")
    assert "Iman-Davenport F = 3.686" in str(res)
    frame = res.to_frame()
    assert frame.index.tolist() == ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]
    assert list(frame.columns) == ["average_rank", "mean_score", "median_score", "wins"]
    post = res.posthoc()
    assert "critical_difference=1.254" in repr(post)
    assert "nemenyi post-hoc test (all pairs)" in str(post)
    m = post.matrix()
    assert np.allclose(m.to_numpy(), m.to_numpy().T) and (np.diag(m) == 1).all()
    assert len(list(itertools.combinations(range(4), 2))) == len(post.to_frame())


# --- the benchmark study -------------------------------------------------------------------
@pytest.fixture(scope="module")
def study():
    pytest.importorskip("sklearn")
    from binmetrics.study import example_study

    return example_study()


def test_study_rank_comparison_reads_the_direction(study):
    for measure, higher in (("auc", True), ("brier", False), ("log_loss", False)):
        res = study.rank_comparison(measure)
        assert res.higher_is_better is higher
        t = study.table.query("measure == @measure and validation == 'test'")
        wide = t.pivot_table(index=["dataset", "balance", "classes"], columns="model",
                             values="value")
        ref = bm.rank_comparison(wide, higher_is_better=higher)
        assert res.ranks.mean().to_dict() == pytest.approx(ref.ranks.mean().to_dict())
        assert res.friedman.statistic == pytest.approx(ref.friedman.statistic)
    assert bm.rank_comparison(study, "brier").higher_is_better is False
    assert study.rank_comparison("auc", validation="cv").n_datasets == 4
    assert study.rank_comparison("auc", blocks=["balance"], classes="2-class").n_datasets == 2


def test_study_rank_comparison_refusals(study):
    with pytest.raises(ValueError, match="lower-is-better in the measure registry"):
        study.rank_comparison("brier", higher_is_better=True)
    with pytest.raises(ValueError, match="did not compute"):
        study.rank_comparison("sensitivity")
    with pytest.raises(ValueError, match="name the measure"):
        bm.rank_comparison(study)
    with pytest.raises(ValueError, match="blocks must be among"):
        study.rank_comparison("auc", blocks=["model"])
    with pytest.raises(ValueError, match="unknown filter"):
        study.rank_comparison("auc", validation="test", fold=1)
    with pytest.raises(ValueError, match="at least 2 data sets"):
        study.rank_comparison("auc", dataset="toy", balance="balanced", classes="2-class")
    with pytest.raises(ValueError, match="at least 2 models"):
        study.rank_comparison("auc", model="knn")
    with pytest.raises(ValueError, match="rope must be a finite number >= 0"):
        study.bayesian_signed_rank("auc", "knn", "tree", rope=-0.01)
    with pytest.raises(ValueError, match="no direction"):  # prevalence: nothing to rank by
        study.rank_comparison("prevalence")


def test_docs_page_examples_run():
    """The pycon examples of docs/howto/ranks.md give the numbers they show."""
    import doctest
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "howto" / "ranks.md").read_text(
        encoding="utf-8")
    blocks = re.findall(r"```pycon\n(.*?)```", page, flags=re.S)
    assert blocks
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(verbose=False)
    for i, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"ranks.md[{i}]", "ranks.md", 0))
    assert runner.summarize(verbose=False).failed == 0


def test_study_bayesian_signed_rank_orients_by_direction(study):
    wide = study.scores_table("brier")
    res = study.bayesian_signed_rank("brier", "NaiB", "tree", rope=0.01, random_state=1,
                                     n_resamples=2000)
    # lower Brier is better: A better means b - a > rope
    ref = bm.bayesian_signed_rank(wide["tree"] - wide["NaiB"], rope=0.01, random_state=1,
                                  n_resamples=2000)
    np.testing.assert_array_equal(res.samples, ref.samples)
    assert res.names == ("NaiB", "tree")
    auc = study.bayesian_signed_rank("auc", "NaiB", "tree", random_state=1, n_resamples=2000)
    np.testing.assert_array_equal(auc.differences, (study.scores_table("auc")["NaiB"]
                                                    - study.scores_table("auc")["tree"]))
    with pytest.raises(ValueError, match="no 'test' values of svm"):
        study.bayesian_signed_rank("auc", "NaiB", "svm")
