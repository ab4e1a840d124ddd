"""Paired model comparison and proportion z-tests (binmetrics.paired).

McNemar against statsmodels and scipy's binomial test; DeLong through compare()
against intervals.delong_test; the paired bootstrap replicate by replicate against
the naive computation on expanded rows; the z-tests against statsmodels'
proportions_ztest.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.proportion import proportions_ztest

import binmetrics as bm
from binmetrics.exceptions import UndefinedMeasureError, UndefinedMeasureWarning
from binmetrics.inference.delong import DeLongTest, delong_test
from binmetrics.inference.paired import compare_methods, paired_bootstrap_indices

Y = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
S1 = [.9, .8, .7, .55, .4, .7, .5, .3, .2, .1, .4]
S2 = [.6, .9, .4, .5, .5, .5, .8, .2, .3, .1, .35]


def make(n: int, seed: int, k: int = 3, decimals: int | None = 1,
         prevalence: float = 0.35) -> tuple[np.ndarray, list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prevalence).astype(int)
    out = []
    for j in range(k):
        z = rng.normal(y * (0.5 + 0.5 * j), 1.0)
        s = 1.0 / (1.0 + np.exp(-z))
        out.append(np.round(s, decimals) if decimals is not None else s)
    return y, out


def sm_table(y: np.ndarray, a: np.ndarray, b: np.ndarray, th: float = 0.5) -> np.ndarray:
    ok_a = (a >= th) == (y == 1)
    ok_b = (b >= th) == (y == 1)
    return np.array([[np.sum(ok_a & ok_b), np.sum(ok_a & ~ok_b)],
                     [np.sum(~ok_a & ok_b), np.sum(~ok_a & ~ok_b)]])


# --- McNemar ------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(12))
def test_mcnemar_matches_statsmodels(seed: int) -> None:
    y, (a, b, _) = make(int(np.random.default_rng(seed).integers(15, 120)), seed)
    table = sm_table(y, a, b)
    bb, cc = int(table[0, 1]), int(table[1, 0])
    ex = bm.mcnemar_test(y, a, b)
    ref = sm_mcnemar(table, exact=True)
    assert (ex.b, ex.c) == (bb, cc)
    assert ex.pvalue == pytest.approx(ref.pvalue, rel=1e-12, abs=1e-15)
    unc = bm.mcnemar_test(y, a, b, method="chi2-uncorrected")
    if bb + cc:
        ref_u = sm_mcnemar(table, exact=False, correction=False)
        assert unc.statistic == pytest.approx(ref_u.statistic, rel=1e-12)
        assert unc.pvalue == pytest.approx(ref_u.pvalue, rel=1e-12)
    chi = bm.mcnemar_test(y, a, b, method="chi2")
    if bb != cc:
        ref_c = sm_mcnemar(table, exact=False, correction=True)
        assert chi.statistic == pytest.approx(ref_c.statistic, rel=1e-12)
        assert chi.pvalue == pytest.approx(ref_c.pvalue, rel=1e-12)
    # one-sided exact = the binomial test of b successes in b + c trials
    if bb + cc:
        for alt in ("greater", "less"):
            t = bm.mcnemar_test(y, a, b, alternative=alt)
            assert t.pvalue == pytest.approx(
                stats.binomtest(bb, bb + cc, 0.5, alternative=alt).pvalue, rel=1e-12)
    assert ex.estimate == pytest.approx(ex.value_a - ex.value_b, abs=1e-15)
    assert ex.value_a == pytest.approx(bm.evaluate(y, a)["accuracy"], abs=1e-15)


def test_mcnemar_ties_and_no_discordance() -> None:
    y = np.array([1, 1, 0, 0, 1, 0])
    a = np.array([1, 0, 0, 1, 1, 0.0])
    b = np.array([0, 1, 1, 0, 1, 0.0])  # b = c = 2
    chi = bm.mcnemar_test(y, a, b, method="chi2")
    assert chi.statistic == 0.0 and chi.pvalue == 1.0  # R's mcnemar.test: no correction at b = c
    assert bm.mcnemar_test(y, a, b).pvalue == 1.0
    same = bm.mcnemar_test(y, a, a)
    assert (same.b, same.c, same.pvalue, same.estimate) == (0.0, 0.0, 1.0, 0.0)
    assert tuple(same.ci) == (0.0, 0.0)
    assert bm.mcnemar_test(y, a, a, method="chi2").pvalue == 1.0


def test_mcnemar_wald_paired_interval() -> None:
    y, (a, b, _) = make(200, 3)
    t = bm.mcnemar_test(y, a, b, level=0.9)
    n = 200.0
    se = math.sqrt(t.b + t.c - (t.b - t.c) ** 2 / n) / n
    z = stats.norm.ppf(0.95)
    assert t.ci.low == pytest.approx(t.estimate - z * se, rel=1e-12)
    assert t.ci.high == pytest.approx(t.estimate + z * se, rel=1e-12)
    assert t.ci.method == "wald-paired" and t.ci.level == 0.9


def test_mcnemar_weights_are_multiplicities() -> None:
    y, (a, b, _) = make(40, 4)
    w = np.random.default_rng(0).integers(1, 4, size=40)
    rep = np.repeat(np.arange(40), w)
    for method in ("exact", "chi2"):
        tw = bm.mcnemar_test(y, a, b, sample_weight=w, method=method)
        tr = bm.mcnemar_test(y[rep], a[rep], b[rep], method=method)
        assert tw.pvalue == pytest.approx(tr.pvalue, rel=1e-12)
        assert (tw.b, tw.c) == (tr.b, tr.c)
    with pytest.raises(ValueError, match="whole-number"):
        bm.mcnemar_test(y, a, b, sample_weight=w + 0.5)
    assert np.isfinite(bm.mcnemar_test(y, a, b, sample_weight=w + 0.5, method="chi2").pvalue)


# --- compare: the closed forms -------------------------------------------------------------
def test_compare_delong_equals_delong_test() -> None:
    cmp = bm.compare(Y, {"s1": S1, "s2": S2}, measures="auc")
    r = cmp.result("s1", "s2", "auc")
    t = delong_test(Y, S1, S2)
    assert r.method == "delong" and isinstance(r.detail, DeLongTest)
    np.testing.assert_array_equal(r.detail.covariance, t.covariance)
    assert (r.statistic, r.pvalue, tuple(r.ci)) == (t.statistic, t.pvalue, tuple(t.ci))
    assert r.statistic == pytest.approx(0.512567829626, abs=1e-10)  # docs/methods.md §3
    assert r.pvalue == pytest.approx(0.608253661495, abs=1e-10)
    assert (r.value_a, r.value_b) == (t.value_a, t.value_b)
    assert r.value_a == pytest.approx(bm.evaluate(Y, S1)["auc"], abs=1e-15)
    g = bm.compare(Y, {"s1": S1, "s2": S2}, measures="auc", alternative="greater", level=0.9)
    tg = delong_test(Y, S1, S2, alternative="greater", level=0.9)
    assert g.results[0].pvalue == tg.pvalue and tuple(g.results[0].ci) == tuple(tg.ci)


def test_compare_every_pair_closed_forms() -> None:
    y, ss = make(150, 5)
    names = ["a", "b", "c"]
    cmp = bm.compare(y, dict(zip(names, ss, strict=True)), threshold=0.45, mcnemar="chi2")
    df = cmp.to_frame()
    assert len(df) == 6 and len(cmp) == 6
    assert df[["model_a", "model_b"]].drop_duplicates().values.tolist() == [
        ["a", "b"], ["a", "c"], ["b", "c"]]
    assert list(df.columns) == ["model_a", "model_b", "measure", "value_a", "value_b",
                                "estimate", "low", "high", "level", "pvalue", "statistic",
                                "method", "ci_method", "alternative", "n_undefined"]
    for (i, j) in [(0, 1), (0, 2), (1, 2)]:
        t = delong_test(y, ss[i], ss[j])
        r = cmp.result(names[i], names[j], "auc")
        assert (r.pvalue, r.estimate) == (t.pvalue, t.estimate)
        m = bm.mcnemar_test(y, ss[i], ss[j], threshold=0.45, method="chi2")
        r = cmp.result(names[i], names[j], "accuracy")
        assert (r.pvalue, r.statistic, r.method) == (m.pvalue, m.statistic, "mcnemar-chi2")
        assert r.value_a == pytest.approx(
            bm.evaluate(y, ss[i], threshold=0.45)["accuracy"], abs=1e-15)
    assert cmp.values["b"]["auc"] == pytest.approx(bm.evaluate(y, ss[1])["auc"], abs=1e-15)
    assert cmp.replicates["a"] == {}  # nothing bootstrapped
    with pytest.raises(KeyError, match="pairs"):
        cmp.result("b", "a", "auc")


def test_compare_weights_as_repeated_rows() -> None:
    y, ss = make(60, 6, k=2)
    w = np.random.default_rng(1).integers(1, 4, size=60)
    rep = np.repeat(np.arange(60), w)
    cw = bm.compare(y, {"a": ss[0], "b": ss[1]}, sample_weight=w)
    cr = bm.compare(y[rep], {"a": ss[0][rep], "b": ss[1][rep]})
    for rw, rr in zip(cw, cr, strict=True):
        assert rw.pvalue == pytest.approx(rr.pvalue, rel=1e-10)
        assert rw.estimate == pytest.approx(rr.estimate, abs=1e-12)


# --- the paired bootstrap ----------------------------------------------------------------
BOOT_MEASURES = ["auc", "mcc", "average_precision", "f1", "brier", "taks", "ks"]


@pytest.mark.parametrize("stratified", [True, False])
def test_paired_bootstrap_equals_naive_expansion(stratified: bool) -> None:
    y, ss = make(30, 7, k=2)
    B = 40
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        cmp = bm.compare(y, {"A": ss[0], "B": ss[1]}, measures=BOOT_MEASURES,
                         method="bootstrap", n_resamples=B, threshold=0.55,
                         stratified=stratified, random_state=11)
        rows_list = list(paired_bootstrap_indices(y, B, stratified=stratified, random_state=11))
        assert len(rows_list) == B
        for i, rows in enumerate(rows_list):
            if stratified:
                assert int(y[rows].sum()) == int(y.sum())
            ea = bm.evaluate(y[rows], ss[0][rows], threshold=0.55, undefined="ignore")
            eb = bm.evaluate(y[rows], ss[1][rows], threshold=0.55, undefined="ignore")
            for m in BOOT_MEASURES:
                for name, ev in (("A", ea), ("B", eb)):
                    got = cmp.replicates[name][m][i]
                    want = ev[m]
                    assert (np.isnan(got) and np.isnan(want)) or got == pytest.approx(
                        want, abs=1e-12), (i, m, name)
                d = cmp.differences("A", "B", m)[i]
                want_d = ea[m] - eb[m]
                assert (np.isnan(d) and np.isnan(want_d)) or d == pytest.approx(want_d, abs=1e-12)
    for m in BOOT_MEASURES:
        r = cmp.result("A", "B", m)
        d = cmp.differences("A", "B", m)
        ok = d[~np.isnan(d)]
        assert r.method == "paired-bootstrap" and r.n_undefined == int(np.isnan(d).sum())
        assert r.estimate == pytest.approx(r.value_a - r.value_b, abs=1e-15)
        assert (r.ci.low, r.ci.high) == pytest.approx(tuple(np.quantile(ok, [0.025, 0.975])))
        z = r.estimate / np.std(ok, ddof=1)
        assert r.statistic == pytest.approx(z, rel=1e-12)
        assert r.pvalue == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-9)


def test_paired_bootstrap_weighted_rows_carry_their_weights() -> None:
    y, ss = make(25, 8, k=2)
    w = np.random.default_rng(2).uniform(0.5, 2.0, size=25)
    cmp = bm.compare(y, [ss[0], ss[1]], sample_weight=w, measures=["auc", "mcc"],
                     method="bootstrap", n_resamples=15, random_state=3)
    for i, rows in enumerate(paired_bootstrap_indices(y, 15, random_state=3)):
        for k, name in enumerate(cmp.names):
            ev = bm.evaluate(y[rows], ss[k][rows], sample_weight=w[rows])
            for m in ("auc", "mcc"):
                assert cmp.replicates[name][m][i] == pytest.approx(ev[m], rel=1e-10)


def test_paired_bootstrap_counts_undefined_replicates() -> None:
    y = np.array([1, 1, 0, 0, 0, 0, 0, 0])
    a = np.array([.9, .6, .7, .2, .3, .1, .4, .5])
    b = np.array([.5, .8, .3, .2, .6, .1, .4, .7])
    B = 200
    with pytest.warns(UndefinedMeasureWarning, match=r"undefined \(NaN\) in \d+ of 200"):
        cmp = bm.compare(y, {"a": a, "b": b}, measures="auc", method={"auc": "bootstrap"},
                         stratified=False, n_resamples=B, random_state=0)
    one_class = sum(int(y[r].all() or not y[r].any())
                    for r in paired_bootstrap_indices(y, B, stratified=False, random_state=0))
    r = cmp.results[0]
    assert one_class > 0 and r.n_undefined == one_class
    assert cmp.to_frame().loc[0, "n_undefined"] == one_class
    assert np.isfinite(r.ci.low) and np.isfinite(r.pvalue)
    with bm.undefined_policy("raise"), pytest.raises(UndefinedMeasureError):
        bm.compare(y, {"a": a, "b": b}, measures="auc", method="bootstrap", stratified=False,
                   n_resamples=B, random_state=0)


def test_same_seed_same_comparison_and_identical_models() -> None:
    y, ss = make(80, 9)
    kw = dict(measures=["mcc", "f1"], n_resamples=100, random_state=5)
    c1 = bm.compare(y, ss, **kw)  # type: ignore[arg-type]
    c2 = bm.compare(y, ss, **kw)  # type: ignore[arg-type]
    pd.testing.assert_frame_equal(c1.to_frame(), c2.to_frame())
    assert c1.names == ("model_0", "model_1", "model_2")
    same = bm.compare(y, {"x": ss[0], "y": ss[0].copy()}, measures=["mcc", "auc", "accuracy"],
                      n_resamples=50, random_state=0)
    for r in same:
        assert r.estimate == 0.0 and r.pvalue == 1.0


def test_dataframe_and_2d_array_inputs() -> None:
    y, ss = make(50, 10, k=2)
    df = pd.DataFrame({"first": ss[0], "second": ss[1]})
    c = bm.compare(y, df, measures="auc")
    assert c.names == ("first", "second")
    c2 = bm.compare(y, np.column_stack(ss), measures="auc")
    assert c2.results[0].pvalue == c.results[0].pvalue


def test_nan_policy_omit_drops_rows_for_every_model() -> None:
    y, ss = make(60, 11, k=2)
    a, b = ss[0].copy(), ss[1].copy()
    a[3] = np.nan
    b[7] = np.inf
    with pytest.raises(ValueError, match=r"scores\['a'\] has 1 non-finite.*rows \[3\]"):
        bm.compare(y, {"a": a, "b": b})
    with pytest.warns(UserWarning, match="dropped 2 rows"):
        c = bm.compare(y, {"a": a, "b": b}, nan_policy="omit")
    keep = np.ones(60, bool)
    keep[[3, 7]] = False
    t = delong_test(y[keep], a[keep], b[keep])
    assert c.result("a", "b", "auc").pvalue == t.pvalue


def test_compare_methods_and_plan_errors() -> None:
    assert compare_methods("sensitivity") == ("bootstrap",)
    y, ss = make(40, 12, k=2)
    with pytest.raises(ValueError, match="methods that apply to it: bootstrap"):
        bm.compare(y, ss, measures=["mcc"], method={"mcc": "delong"})
    with pytest.raises(ValueError, match="methods that apply to it: delong, bootstrap"):
        bm.compare(y, ss, measures=["auc"], method="mcnemar")
    with pytest.raises(ValueError, match="not compared"):
        bm.compare(y, ss, measures=["auc"], method={"mcc": "bootstrap"})
    with pytest.raises(ValueError, match="params apply to bootstrapped"):
        bm.compare(y, ss, measures=["auc"], params={"auc": {}})
    c = bm.compare(y, ss, measures=["fbeta"], params={"fbeta": {"beta": 2}}, n_resamples=20,
                   random_state=0)
    assert c.values["model_0"]["fbeta"] == pytest.approx(
        bm.evaluate(y, ss[0]).value("fbeta", beta=2))


@pytest.mark.parametrize(("kwargs", "exc", "match"), [
    (dict(scores={"a": S1}), ValueError, "at least 2 models"),
    (dict(scores=S1), TypeError, "one array per model"),
    (dict(scores="ab"), TypeError, "must map model names"),
    (dict(scores={"a": S1, "b": S2[:-1]}), ValueError,
     r"y_true and scores\['b'\] have different lengths: 11 and 10"),
    (dict(scores={1: S1, "1": S2}), ValueError, "distinct"),
    (dict(scores={"": S1, "b": S2}), ValueError, "non-empty"),
    (dict(scores={True: S1, "b": S2}), TypeError, "strings"),
    (dict(measures=["nope"]), KeyError, "unknown measure"),
    (dict(measures=["auc", "AUC"]), ValueError, "given twice"),
    (dict(measures=[]), ValueError, "no measures"),
    (dict(level=1.0), ValueError, "level"),
    (dict(n_resamples=0), ValueError, "n_resamples"),
    (dict(mcnemar="fisher"), ValueError, "mcnemar must be"),
    (dict(alternative="bigger"), ValueError, "alternative"),
    (dict(threshold="x"), TypeError, "threshold"),
    (dict(method=3), TypeError, "method must be"),
    (dict(y_true=[1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2]), ValueError, "two classes"),
    (dict(y_true=[]), ValueError, "empty"),
])
def test_compare_bad_input(kwargs: dict, exc: type, match: str) -> None:
    args = dict(y_true=Y, scores={"a": S1, "b": S2})
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        bm.compare(args.pop("y_true"), args.pop("scores"), **args)


def test_mcnemar_bad_input() -> None:
    with pytest.raises(ValueError, match="score_b have different lengths: 11 and 10"):
        bm.mcnemar_test(Y, S1, S2[:-1])
    with pytest.raises(ValueError, match="NaN"):
        bm.mcnemar_test(Y, S1, [np.nan, *S2[1:]])
    with pytest.raises(ValueError, match="method must be one of"):
        bm.mcnemar_test(Y, S1, S2, method="exactly")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="mcnemar must be one of"):
        bm.compare(Y, [S1, S2], mcnemar="exactly")  # type: ignore[arg-type]


# --- proportion z-tests ------------------------------------------------------------------------
SM_ALT = {"greater": "larger", "less": "smaller", "two-sided": "two-sided"}


@pytest.mark.parametrize(("k", "n", "p0"), [(460, 500, 0.9), (30, 50, 0.7), (81, 90, 0.5),
                                            (12, 40, 0.25)])
@pytest.mark.parametrize("alt", ["greater", "less", "two-sided"])
def test_one_proportion_matches_statsmodels(k: int, n: int, p0: float, alt: str) -> None:
    t = bm.proportion_test(k, n, p0=p0, alternative=alt)  # type: ignore[arg-type]
    z, p = proportions_ztest(k, n, value=p0, alternative=SM_ALT[alt], prop_var=p0)
    assert t.statistic == pytest.approx(z, rel=1e-12)
    assert t.pvalue == pytest.approx(p, rel=1e-10)
    assert t.standard_error == pytest.approx(math.sqrt(p0 * (1 - p0) / n), rel=1e-15)


@pytest.mark.parametrize(("a", "b"), [((90, 100), (80, 100)), ((45, 60), (70, 80)),
                                      ((3, 10), (9, 12))])
@pytest.mark.parametrize("alt", ["greater", "less", "two-sided"])
def test_two_proportion_matches_statsmodels(a: tuple, b: tuple, alt: str) -> None:
    t = bm.two_proportion_test(a, b, alternative=alt)  # type: ignore[arg-type]
    z, p = proportions_ztest([a[0], b[0]], [a[1], b[1]], alternative=SM_ALT[alt])
    assert t.statistic == pytest.approx(z, rel=1e-12)
    assert t.pvalue == pytest.approx(p, rel=1e-10)
    assert t.estimate == pytest.approx(a[0] / a[1] - b[0] / b[1])


def test_proportion_tests_from_evaluations() -> None:
    y, ss = make(300, 13, k=2, prevalence=0.2)
    ev = bm.evaluate(y, ss[1])
    c = ev.confusion
    t = bm.proportion_test(ev, alternative="greater")
    prev = y.mean()
    assert t.null_value == pytest.approx(max(prev, 1 - prev))
    assert t.estimate == pytest.approx(ev["accuracy"])
    z, p = proportions_ztest(c.tp + c.tn, 300, value=t.null_value, alternative="larger",
                             prop_var=t.null_value)
    assert (t.statistic, t.pvalue) == pytest.approx((z, p), rel=1e-10)
    assert bm.proportion_test(c, alternative="greater").pvalue == t.pvalue
    assert bm.proportion_test(ev, p0=0.5).null_value == 0.5
    ev2 = bm.evaluate(y[:150], ss[0][:150])
    t2 = bm.two_proportion_test(ev, ev2)
    c2 = ev2.confusion
    assert t2.pvalue == pytest.approx(bm.two_proportion_test(
        (c.tp + c.tn, 300), (c2.tp + c2.tn, 150)).pvalue, rel=1e-15)


def test_proportion_tests_degenerate_and_bad_input() -> None:
    with pytest.warns(UndefinedMeasureWarning, match="standard error"):
        t = bm.proportion_test(5, 5, p0=1.0)
    assert math.isnan(t.statistic) and math.isnan(t.pvalue)
    with pytest.warns(UndefinedMeasureWarning, match="pooled"):
        t = bm.two_proportion_test((0, 5), (0, 7))
    assert math.isnan(t.pvalue)
    with pytest.raises(ValueError, match="p0 is required"):
        bm.proportion_test(3, 10)
    with pytest.raises(ValueError, match="p0"):
        bm.proportion_test(3, 10, p0=1.5)
    with pytest.raises(ValueError, match="successes must lie"):
        bm.proportion_test(11, 10, p0=0.5)
    with pytest.raises(ValueError, match="trials must be > 0"):
        bm.proportion_test(0, 0, p0=0.5)
    with pytest.raises(TypeError, match="successes and trials"):
        bm.proportion_test(3)
    with pytest.raises(TypeError, match="trials only"):
        bm.proportion_test(bm.evaluate(Y, S1), 10)
    with pytest.raises(TypeError, match="pair"):
        bm.two_proportion_test((1, 2, 3), (1, 2))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="alternative"):
        bm.two_proportion_test((1, 2), (1, 2), alternative="up")  # type: ignore[arg-type]
