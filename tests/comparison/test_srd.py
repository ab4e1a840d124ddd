"""SRD, its randomization test, cross-validation and COVAT against docs/methods.md §1.

The worked numbers come from docs/methods.md §1.9 (rSRD's 5×5 example, srdpy's
14×11 example, both computed independently of this code), the footrule law from
brute-force enumeration, and the Wilcoxon test from scipy and enumeration.
"""

from __future__ import annotations

import io
import itertools
import math

import matplotlib
import numpy as np
import pandas as pd
import pytest
from scipy import stats

from binmetrics.comparison.srd_covat import covat
from binmetrics.comparison.srd_crossvalidation import sign_test, wilcoxon_matched_pairs
from binmetrics.comparison.srd_randomization import footrule_null
from binmetrics.comparison.srd_ranking import pretreat_table, srd, srd_max

matplotlib.use("Agg")

RSRD = pd.DataFrame({"A": [32, 52, 44, 44, 47], "B": [73, 75, 65, 76, 70],
                     "C": [60, 59, 57, 55, 60], "D": [35, 24, 44, 83, 47],
                     "E": [41, 52, 46, 50, 65]})

# srdpy's srd_example.csv (davidbajusz/srdpy), the 14×11 example of docs/methods.md §1.9
SRDPY_CSV = """,V1,V2,V3,V4,V5,V6,V7,V8,V9,V10,V11
O1,5.5,9,6,6,6,7,0,9,9,1,6.6
O2,2,4,2,2,2,3,1,3,3,0,2.3
O3,8,13,9,9,9,10,3,13,10,0,10.0
O4,11.5,20,18,17,16,24,0,24,24,0,17.9
O5,4,6,2,4,6,5,0,6,6,1.5,4.4
O6,7,1,8,8,8,4,1,1,4,0,4.0
O7,4,5,4,4,5,6,0,6,6,0,4.4
O8,12,1,15,15,12,1,2,1,1,1,7.0
O9,5,8,6,5,7,8,0,8,7,0,5.8
O10,11,18,15,17,15,15,5,20,20,1,15.7
O11,7,12,8,5,8,9,0,12,11,0,8.8
O12,5,7,6,6,6,7,4,9,9,2,7.0
O13,3,4,2,3,2,4,2,4,3,0,3.0
O14,8.5,13,10,9,10,12,1,14,14,1,10.6
"""


@pytest.fixture(scope="module")
def srdpy() -> pd.DataFrame:
    return pd.read_csv(io.StringIO(SRDPY_CSV), index_col=0)


def brute_footrule(n: int) -> np.ndarray:
    counts = np.zeros(srd_max(n) // 2 + 1, dtype=np.int64)
    for p in itertools.permutations(range(n)):
        counts[sum(abs(a - b) for a, b in enumerate(p)) // 2] += 1
    return counts


# --- SRD values ----------------------------------------------------------------------
class TestRSRDExample:
    def test_reference_column_e(self):
        res = srd(RSRD, "E")
        assert res.values.to_dict() == {"A": 3, "B": 8, "C": 7, "D": 8, "E": 0}
        assert res.reference_column == "E"
        assert res.ranks["A"].tolist() == [1, 5, 2.5, 2.5, 4]
        assert res.ranks["C"].tolist() == [4.5, 3, 2, 1, 4.5]
        assert res.reference_ranks.tolist() == [1, 4, 2, 3, 5]
        # rSRD drops the reference and returns SRD/SRDmax
        rsrd_like = srd(RSRD, "E", keep_reference=False)
        assert list(rsrd_like.values.index) == ["A", "B", "C", "D"]
        np.testing.assert_allclose(rsrd_like.normalized / 100, [0.25, 8 / 12, 7 / 12, 8 / 12])
        assert srd(RSRD, 4).values.equals(res.values)  # position works as a column name

    def test_mean_reference(self):
        res = srd(RSRD)
        np.testing.assert_allclose(res.reference, [48.2, 52.4, 51.2, 61.6, 57.8])
        assert res.reference_ranks.tolist() == [1, 3, 2, 5, 4]
        assert res.values.tolist() == [5, 6, 8, 4, 4]
        np.testing.assert_allclose(res.normalized, [41.666667, 50, 66.666667, 33.333333,
                                                    33.333333], atol=1e-6)

    @pytest.mark.parametrize("pretreat", ["range", "standardize", "rank", "range_scale"])
    def test_pretreatments_that_change_the_fused_reference(self, pretreat):
        res = srd(RSRD, pretreat=pretreat)
        assert res.reference_ranks.tolist() == [2, 4, 1, 3, 5]
        assert res.values.tolist() == [5, 6, 7, 8, 2]

    def test_unit_length_and_increasing_transforms(self):
        assert srd(RSRD, pretreat="unit_length").values.tolist() == [5, 6, 8, 4, 4]
        # a pretreatment never changes the ranks against a fixed column or vector
        for p in ("range", "standardize", "unit_length", "scale_to_max", "rank"):
            assert srd(RSRD, "E", pretreat=p).values.equals(srd(RSRD, "E").values)

    def test_external_vector_and_series(self):
        vec = RSRD["E"].to_numpy()
        assert srd(RSRD.drop(columns="E"), vec).values.tolist() == [3, 8, 7, 8]
        shuffled = RSRD["E"].iloc[::-1]  # a Series is aligned on the index
        assert srd(RSRD.drop(columns="E"), shuffled).values.tolist() == [3, 8, 7, 8]

    def test_fused_statistics(self):
        x = RSRD.to_numpy(float)
        for stat in ("median", "min", "max"):
            ref = getattr(np, stat)(x, axis=1)
            rr = stats.rankdata(ref)
            want = [np.abs(stats.rankdata(x[:, j]) - rr).sum() for j in range(5)]
            assert srd(RSRD, stat).values.tolist() == want


class TestSrdpyExample:
    def test_values_and_percent(self, srdpy):
        res = srd(srdpy)
        assert res.srd_max == 98
        assert res.values.tolist() == [19, 25, 19, 18, 19, 20, 55, 21, 19, 55, 4]
        np.testing.assert_allclose(
            res.normalized, [19.387755, 25.510204, 19.387755, 18.367347, 19.387755,
                             20.408163, 56.122449, 21.428571, 19.387755, 56.122449,
                             4.081633], atol=1e-6)

    def test_exact_p_values(self, srdpy):
        with pytest.warns(UserWarning, match="the reference has ties"):
            rt = srd(srdpy).randomization(null="exact")
        assert rt.pvalue_lower["V11"] == pytest.approx(1.33e-9, rel=5e-3)
        assert rt.pvalue_lower["V4"] == pytest.approx(1.72e-5, rel=5e-3)
        assert rt.pvalue_lower["V7"] == pytest.approx(0.196, abs=5e-4)
        assert not rt.better_than_random["V7"] and rt.better_than_random["V11"]
        assert rt.quantiles["XX1"] == pytest.approx(100 * 46 / 98)

    def test_leave_one_out(self, srdpy):
        cv = srd(srdpy).cross_validate("loo")
        assert cv.folds.shape == (14, 11)
        assert cv.folds.loc[0, "V1"] == pytest.approx(20.238095, abs=1e-6)
        assert cv.folds.loc[0, "V11"] == pytest.approx(4.761905, abs=1e-6)
        # the fold recomputes the fused reference on the 13 rows it keeps
        assert cv.folds.loc[0].tolist() == pytest.approx(
            srd(srdpy.iloc[1:]).normalized.tolist())
        stat, p, nz = wilcoxon_matched_pairs(cv.folds["V11"], cv.folds["V4"])
        assert (stat, nz) == (105.0, 14)
        assert p == pytest.approx(2 / 2 ** 14)
        k, p_sign = sign_test(cv.folds["V11"], cv.folds["V4"])
        assert k == 0 and p_sign == pytest.approx(1.22e-4, rel=1e-2)
        # scipy's normal approximation with tied |d|, as docs/methods.md §1.9 quotes
        assert stats.wilcoxon(cv.folds["V11"], cv.folds["V4"]).pvalue == pytest.approx(
            9.6e-4, rel=2e-2)

    def test_unshuffled_kfold(self, srdpy):
        cv = srd(srdpy).cross_validate("kfold", k=5, shuffle=False)
        np.testing.assert_allclose(cv.folds["V1"], [25.0, 20.0, 8.333333, 18.333333,
                                                    23.611111], atol=1e-5)

    def test_neighbour_tests_follow_rsrd_order(self, srdpy):
        cv = srd(srdpy).cross_validate("kfold", k=7, random_state=1)
        assert cv.order[0] == "V11"
        assert len(cv.tests) == 10
        assert list(cv.tests["column"]) == cv.order[:-1]
        assert list(cv.tests["next"]) == cv.order[1:]
        med = cv.folds[cv.order].median().to_numpy()
        assert (np.diff(med) >= 0).all()
        long = cv.long()
        assert list(long.columns) == ["fold", "column", "srd_pct"] and len(long) == 77


# --- the null law --------------------------------------------------------------------
class TestFootrule:
    @pytest.mark.parametrize("n,counts", [(3, [1, 2, 3]), (4, [1, 3, 7, 9, 4]),
                                          (5, [1, 4, 12, 24, 35, 24, 20]),
                                          (6, [1, 5, 18, 46, 93, 137, 148, 136, 100, 36])])
    def test_spec_counts(self, n, counts):
        law = footrule_null(n)
        np.testing.assert_allclose(law.pmf * math.factorial(n), counts, rtol=1e-12)

    @pytest.mark.parametrize("n", [1, 2, 7, 8])
    def test_brute_force(self, n):
        np.testing.assert_allclose(footrule_null(n).pmf * math.factorial(n),
                                   brute_footrule(n), rtol=1e-10)

    @pytest.mark.parametrize("n,xx1,xx19,extra", [
        (5, 4, 12, {"Med": 8}), (7, 8, 22, {"Q1": 14, "Med": 16, "Q3": 20}),
        (10, 20, 44, {}), (14, 46, 84, {"Q1": 58, "Med": 66, "Q3": 74}), (20, 100, 164, {})])
    def test_spec_quantiles(self, n, xx1, xx19, extra):
        law = footrule_null(n)
        assert law.quantile(0.05) == xx1 and law.quantile(0.95) == xx19
        for name, v in extra.items():
            assert law.quantile({"Q1": 0.25, "Med": 0.5, "Q3": 0.75}[name]) == v

    @pytest.mark.parametrize("n", [14, 37, 120])
    def test_exact_moments(self, n):
        law = footrule_null(n)
        mean = (law.support * law.pmf).sum()
        var = ((law.support - mean) ** 2 * law.pmf).sum()
        assert mean == pytest.approx((n * n - 1) / 3, rel=1e-10)
        assert var == pytest.approx((n + 1) * (2 * n * n + 7) / 45, rel=1e-9)
        if n == 14:
            assert (mean, var) == pytest.approx((65, 133))

    def test_normal_above_exact_max(self):
        law = footrule_null(301)
        assert law.normal is not None and not law.exact
        assert law.normal[0] == pytest.approx((301 ** 2 - 1) / 3)
        # the exact law and its normal approximation agree closely at n = 300
        exact, approx = footrule_null(300), footrule_null(300, exact_max_n=0)
        for obs in (50000.0, 58000.0, 60000.0):
            assert exact.pvalue_lower(obs) == pytest.approx(approx.pvalue_lower(obs), abs=2e-3)


class TestRandomization:
    def test_tie_preserving_null_of_rsrd_example(self):
        rt = srd(RSRD, "E").randomization()
        assert rt.pvalue_lower["A"] == pytest.approx(8 / 120)
        assert rt.null_kind["A"] == "permutation"
        assert rt.null_kind["B"] == "exact"  # no ties on either side
        assert rt.pvalue_lower["B"] == pytest.approx(footrule_null(5).pvalue_lower(8))
        with pytest.warns(UserWarning, match=r"columns \['A', 'C'\] have ties"):
            exact = srd(RSRD, "E").randomization(null="exact")
        assert exact.pvalue_lower["A"] == pytest.approx(5 / 120)

    def test_tie_preserving_null_counts(self):
        # docs/methods.md §1.9: A's null puts mass on {1,3,...,12} with these counts
        from binmetrics.comparison.srd_randomization import _permutation_null
        res = srd(RSRD, "E")
        law = _permutation_null(res.ranks["A"].to_numpy(), res.reference_ranks.to_numpy(),
                                10, np.random.default_rng(0))
        assert law.exact
        assert law.support.tolist() == [1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
        np.testing.assert_allclose(law.pmf * 120, [2, 6, 4, 10, 12, 14, 16, 24, 4, 16, 12])
        assert res.randomization().pvalue_upper["A"] == pytest.approx(118 / 120)

    def test_monte_carlo_permutation_matches_exact_law_without_ties(self):
        rng = np.random.default_rng(3)
        x = pd.DataFrame(rng.normal(size=(12, 3)), columns=list("abc"))
        x["ref"] = x["a"] + rng.normal(scale=0.7, size=12)
        res = srd(x, "ref", keep_reference=False)
        exact = res.randomization(null="exact")
        mc = res.randomization(null="permutation", n_resamples=200_000, random_state=0)
        np.testing.assert_allclose(mc.pvalue_lower, exact.pvalue_lower, atol=4e-3)
        again = res.randomization(null="permutation", n_resamples=2000, random_state=5)
        assert again.pvalue_lower.equals(
            res.randomization(null="permutation", n_resamples=2000, random_state=5).pvalue_lower)

    def test_rsrd_simulation(self):
        rng = np.random.default_rng(0)
        x = pd.DataFrame(rng.normal(size=(10, 3)), columns=list("abc"))
        res = srd(x)
        sim = res.randomization(null="rsrd", tie_mode="n", n_resamples=200_000, random_state=1)
        law = footrule_null(10)
        assert sim.quantiles["XX1"] == pytest.approx(100 * law.quantile(0.05) / 50)
        assert sim.quantiles["XX19"] == pytest.approx(100 * law.quantile(0.95) / 50)
        for mode, p in (("f", None), ("t", 0.3), ("p", 0.3), ("d", None), ("r", None)):
            out = res.randomization(null="rsrd", tie_mode=mode, tie_prob=p, n_resamples=5000,
                                    random_state=2)
            assert out.pvalue_lower.between(0, 1).all()
        with pytest.raises(ValueError, match="tie_prob"):
            res.randomization(null="rsrd", tie_mode="t")
        with pytest.raises(ValueError, match="tie_mode"):
            res.randomization(null="rsrd", tie_mode="x")

    def test_random_tied_ranks_are_average_ranks(self):
        from binmetrics.comparison.srd_randomization import _random_tied_ranks
        r = _random_tied_ranks(2000, 9, np.full(2000, 0.4), np.random.default_rng(0))
        np.testing.assert_allclose(r.sum(axis=1), 45.0)
        for row in r[:200]:
            np.testing.assert_allclose(np.sort(row), np.sort(stats.rankdata(row)))
        assert (np.diff(np.sort(r, axis=1), axis=1) == 0).any()

    def test_small_n_warns(self):
        x = pd.DataFrame({"a": [1, 2, 3], "b": [3, 1, 2]})
        with pytest.warns(UserWarning, match="no column can be shown better than random"):
            srd(x).randomization()

    def test_to_frame(self):
        out = srd(RSRD, "E").randomization().to_frame()
        assert list(out.columns) == ["srd", "srd_pct", "reference", "pvalue_lower", "pvalue_upper",
                                     "better_than_random", "null"]
        # the kept reference column is flagged and not tested
        assert out.index[0] == "E" and out.loc["E", "reference"]
        assert np.isnan(out.loc["E", "pvalue_lower"]) and not out.loc["E", "better_than_random"]
        assert out.loc["E", "null"] == "reference"


# --- tests between columns -------------------------------------------------------------
class TestPairTests:
    def test_wilcoxon_against_scipy_exact_without_ties(self):
        rng = np.random.default_rng(0)
        for _ in range(30):
            n = int(rng.integers(5, 20))
            a, b = rng.normal(size=n), rng.normal(0.5, size=n)
            stat, p, _nz = wilcoxon_matched_pairs(a, b)
            ref = stats.wilcoxon(a, b, method="exact")
            assert p == pytest.approx(ref.pvalue, rel=1e-10)
            w_plus = stats.rankdata(np.abs(a - b))[(a - b) > 0].sum()
            assert stat == pytest.approx(abs(2 * w_plus - n * (n + 1) / 2))

    def test_wilcoxon_with_tied_differences_by_enumeration(self):
        rng = np.random.default_rng(1)
        for _ in range(10):
            d = rng.integers(-3, 4, size=10).astype(float)
            d[d == 0] = 1.0
            _, p, _nz = wilcoxon_matched_pairs(d, np.zeros(10))
            r = stats.rankdata(np.abs(d))
            obs = abs(2 * r[d > 0].sum() - r.sum())
            null = [abs(2 * (r * np.array(s)).sum() - r.sum())
                    for s in itertools.product([0, 1], repeat=10)]
            assert p == pytest.approx(np.mean(np.array(null) >= obs - 1e-9))

    def test_wilcoxon_exact_up_to_50_pairs_then_normal_approximation(self):
        rng = np.random.default_rng(2)
        a, b = rng.normal(size=60), rng.normal(0.3, size=60)
        _, p, nz = wilcoxon_matched_pairs(a[:40], b[:40])
        assert nz == 40  # no ties: scipy's exact distribution
        assert p == pytest.approx(stats.wilcoxon(a[:40], b[:40], method="exact").pvalue,
                                  rel=1e-12)
        _, p, nz = wilcoxon_matched_pairs(a, b)
        assert nz == 60
        assert p == pytest.approx(stats.wilcoxon(a, b, correction=False,
                                                 method="asymptotic").pvalue, rel=1e-12)

    def test_sign_test(self):
        assert sign_test([1, 2, 3], [1, 2, 3]) == (0, 1.0)
        k, p = sign_test([3, 2, 5, 1, 7], [1, 1, 1, 2, 1])
        assert k == 4 and p == pytest.approx(stats.binomtest(4, 5).pvalue)

    def test_rsrd_critical_values(self):
        # docs/methods.md §1.7: exact two-sided p of rSRD's 5% critical values for k = 6..10
        for k, crit, p_want in ((6, 21, 0.031), (7, 24, 0.047), (8, 30, 0.039),
                                (9, 35, 0.039), (10, 39, 0.049)):
            r = np.arange(1, k + 1, dtype=float)
            null = [abs(2 * (r * np.array(s)).sum() - r.sum())
                    for s in itertools.product([0, 1], repeat=k)]
            assert np.mean(np.array(null) >= crit) == pytest.approx(p_want, abs=1e-3)


# --- cross-validation variants ------------------------------------------------------------
class TestCrossValidation:
    def test_variants_and_reproducibility(self, srdpy):
        res = srd(srdpy)
        assert len(res.cross_validate("kfold", k=5, repeats=10, random_state=0).folds) == 50
        boot = res.cross_validate("bootstrap", n_resamples=30, random_state=0)
        assert len(boot.folds) == 30
        assert boot.folds.equals(res.cross_validate("bootstrap", n_resamples=30,
                                                    random_state=0).folds)
        rs = res.cross_validate("rsrd_wilcoxon", random_state=0)
        assert len(rs.folds) == 8
        summary = boot.summary()
        assert list(summary.index) == boot.order

    def test_best_reference_with_vector_directions_is_resampled(self):
        rng = np.random.default_rng(4)
        x = pd.DataFrame(rng.normal(size=(9, 4)), columns=list("abcd"))
        d = np.array([1, -1, 1, 1, -1, 1, 1, -1, 1])
        cv = srd(x, "best", directions=d).cross_validate("loo")
        kept = np.delete(np.arange(9), 3)
        want = srd(x.iloc[kept], "best", directions=d[kept]).normalized
        np.testing.assert_allclose(cv.folds.loc[3], want)

    def test_bad_cv(self, srdpy):
        res = srd(srdpy)
        with pytest.raises(ValueError, match="cv must be"):
            res.cross_validate("holdout")
        with pytest.raises(ValueError, match="k must be"):
            res.cross_validate(k=1)
        with pytest.raises(ValueError, match="at least k rows"):
            res.cross_validate(k=20)
        with pytest.raises(ValueError, match="shuffle"):
            res.cross_validate(k=5, repeats=2, shuffle=False)


# --- the "best" reference and the registry ---------------------------------------------------
def test_best_reads_directions_from_registry():
    t = pd.DataFrame({"m1": [0.9, 0.1, 0.8], "m2": [0.7, 0.3, 0.6], "m3": [0.8, 0.2, 0.9]},
                     index=["auc", "brier", "sensitivity"])
    res = srd(t, "best")
    assert res.reference.tolist() == [0.9, 0.1, 0.9]
    explicit = srd(t, "best", directions={"auc": 1, "brier": -1, "sensitivity": 1})
    assert explicit.values.equals(res.values)
    with pytest.raises(ValueError, match="not measures of the registry"):
        srd(t.rename(index={"auc": "foo"}), "best")
    with pytest.raises(ValueError, match="no better direction"):
        srd(t.rename(index={"auc": "prevalence"}), "best")
    with pytest.raises(ValueError, match="one entry per row"):
        srd(t, "best", directions=[1, -1])
    with pytest.raises(ValueError, match=r"\+1 \(larger"):
        srd(t, "best", directions=[1, 0, 1])
    assert srd(t, "best", directions=1).reference.tolist() == [0.9, 0.3, 0.9]


def test_random_tables_match_a_direct_computation():
    rng = np.random.default_rng(7)
    for _ in range(20):
        n, m = int(rng.integers(3, 30)), int(rng.integers(2, 8))
        x = np.round(rng.normal(size=(n, m)), 1)  # ties
        ref = x.mean(axis=1)
        want = np.abs(stats.rankdata(x, axis=0) - stats.rankdata(ref)[:, None]).sum(axis=0)
        res = srd(x)
        np.testing.assert_allclose(res.values, want)
        np.testing.assert_allclose(res.normalized, 100 * want / (n * n // 2))
        # the ranking direction does not matter
        np.testing.assert_allclose(srd(-x).values, want)


def test_decimals_makes_near_ties():
    x = pd.DataFrame({"a": [1.0001, 1.0002, 3.0], "b": [1.0, 2.0, 3.0]})
    assert srd(x, "b", decimals=2).ranks["a"].tolist() == [1.5, 1.5, 3]
    with pytest.raises(ValueError, match="decimals"):
        srd(x, decimals=-1)


# --- COVAT -----------------------------------------------------------------------------
def test_covat_spec_matrix_and_orders():
    raw = [[0, 9, 8, 8, 3], [9, 0, 10, 8, 8], [8, 10, 0, 10, 7], [8, 8, 10, 0, 8],
           [3, 8, 7, 8, 0]]
    cv = covat(RSRD)
    np.testing.assert_array_equal(cv.raw.loc[list("ABCDE"), list("ABCDE")], raw)
    assert cv.order == ["E", "A", "D", "B", "C"]
    np.testing.assert_allclose(cv.matrix, cv.raw * 100 / 12)
    assert covat(RSRD, order="vat").order == ["B", "D", "A", "E", "C"]
    assert sorted(covat(RSRD, order="hclust").order) == list("ABCDE")
    # each entry is the SRD with that column as reference
    for ref in "ABCDE":
        assert srd(RSRD, ref).values.to_dict() == cv.raw.loc[ref].to_dict()
    with pytest.raises(ValueError, match="order must be"):
        covat(RSRD, order="alphabetical")


# --- bad input ---------------------------------------------------------------------------
class TestBadInput:
    def test_shape(self):
        with pytest.raises(ValueError, match="at least 3 rows"):
            srd(RSRD.iloc[:2])
        with pytest.raises(ValueError, match="2 columns"):
            srd(RSRD[["A"]])
        with pytest.raises(ValueError, match="2-D"):
            srd(np.arange(5))

    def test_nan_cells_are_named(self):
        x = RSRD.astype(float)
        x.loc[2, "C"] = np.nan
        with pytest.raises(ValueError, match=r"1 missing \(NaN\) cells.*\(2, 'C'\)"):
            srd(x)
        with pytest.warns(UserWarning, match="dropped 1 rows"):
            res = srd(x, nan_policy="omit")
        assert res.n == 4

    def test_constant_column_under_range(self):
        x = RSRD.assign(F=5.0)
        with pytest.raises(ValueError, match=r"range, which is 0 for columns \['F'\]"):
            srd(x, pretreat="range")
        with pytest.raises(ValueError, match="standard deviation"):
            srd(x, pretreat="standardize")
        assert srd(x).values["F"] >= 0  # without pretreatment a constant column is fine
        with pytest.raises(ValueError, match="length"):
            srd(RSRD.assign(F=0.0), pretreat="unit_length")

    def test_other_errors(self):
        with pytest.raises(ValueError, match="not numeric"):
            srd(RSRD.assign(name=list("vwxyz")))
        with pytest.raises(ValueError, match="pretreat must be"):
            srd(RSRD, pretreat="log")
        with pytest.raises(ValueError, match="reference must be"):
            srd(RSRD, "Z")
        with pytest.raises(ValueError, match="one value per row"):
            srd(RSRD, [1, 2, 3])
        with pytest.raises(ValueError, match="axis"):
            pretreat_table(RSRD, "range", "diagonal")  # type: ignore[arg-type]


# --- plots ----------------------------------------------------------------------------------
def test_plots_render():
    import matplotlib.pyplot as plt
    res = srd(RSRD)
    ax = res.plot()
    assert len(ax.lines) == 5  # one line per column
    twin = next(a for a in ax.figure.axes if a is not ax)
    assert len(twin.lines) == 1 + 3  # the null's CDF and XX1, Med, XX19
    cv_ax = res.cross_validate("loo").plot()
    assert len(cv_ax.get_xticklabels()) == 5
    hm = covat(RSRD).plot()
    assert len(hm.images) == 1 and len(hm.texts) == 25
    plt.close("all")


# --- review fixes -------------------------------------------------------------------------
def test_wilcoxon_ties_equal_differences_despite_float_noise():
    a = 100 * np.array([6, 5, 7, 1, 4]) / 12
    b = 100 * np.array([7, 9, 4, 0, 8]) / 12
    assert wilcoxon_matched_pairs(a, b)[:2] == (6.0, 0.5625)


def test_cross_validation_survives_a_column_constant_in_a_resample():
    x = pd.DataFrame({"a": [1, 1, 1, 1, 1, 1, 2], "b": [3, 1, 2, 5, 4, 7, 6],
                      "c": [2, 1, 3, 4, 6, 5, 7]})
    with pytest.warns(UserWarning, match=r"'a' in resamples \[6\]"):
        cv = srd(x, pretreat="range").cross_validate("loo")
    # dropping row 6 leaves "a" constant: all its ranks tie, as a constant column's do
    kept = x.drop(index=6)
    want = srd(kept.assign(a=0.0), pretreat="none").values
    ranged = srd(pd.concat([kept[["b", "c"]].apply(lambda c: (c - c.min()) / (c.max() - c.min())),
                            kept[["a"]] * 0.0], axis=1)[["a", "b", "c"]]).values
    np.testing.assert_allclose(cv.folds.loc[6], 100 * ranged / srd_max(6))
    assert want["a"] == ranged["a"]


def test_kept_reference_column_is_left_out_of_cross_validation():
    cv = srd(RSRD, "E").cross_validate("loo")
    assert "E" not in cv.folds.columns and "E" not in cv.order
    assert list(cv.folds.columns) == list("ABCD")


def test_nan_omit_subsets_vector_reference_and_directions():
    x = RSRD.astype(float)
    x.loc[1, "B"] = np.nan
    vec = RSRD["E"].to_numpy()
    with pytest.warns(UserWarning, match="dropped 1 rows"):
        res = srd(x.drop(columns="E"), vec, nan_policy="omit")
    want = srd(RSRD.drop(index=1).drop(columns="E"), np.delete(vec, 1))
    assert res.values.equals(want.values)
    d = np.array([1, -1, 1, 1, -1])
    with pytest.warns(UserWarning):
        res = srd(x, "best", directions=d, nan_policy="omit")
    assert res.values.equals(srd(RSRD.drop(index=1), "best", directions=np.delete(d, 1)).values)


def test_mixed_reference_is_rsrd_per_row_statistic():
    rules = ["max", "min", "mean", "median", "max"]
    res = srd(RSRD, "mixed", directions=rules)
    x = RSRD.to_numpy(float)
    want = [x[0].max(), x[1].min(), x[2].mean(), np.median(x[3]), x[4].max()]
    np.testing.assert_allclose(res.reference, want)
    # "best" is "mixed" with max/min only, and accepts the names too
    best = srd(RSRD, "best", directions=[1, -1, 1, -1, 1])
    assert best.values.equals(srd(RSRD, "mixed", directions=["max", "min", "max", "min",
                                                             "max"]).values)
    with pytest.raises(ValueError, match="needs directions"):
        srd(RSRD, "mixed")
    with pytest.raises(ValueError, match="'max', 'min', 'mean' or 'median'"):
        srd(RSRD, "mixed", directions=["max", "min", "mode", "max", "max"])
    with pytest.raises(ValueError, match="'best' or 'mixed' only"):
        srd(RSRD, "mean", directions=1)


def test_more_input_checks():
    dup = pd.DataFrame(np.arange(15.0).reshape(5, 3), columns=["a", "a", "b"])
    with pytest.raises(ValueError, match="unique"):
        srd(dup)
    ref = pd.Series([1.0, 2, 3, 4, 5], index=[0, 0, 1, 2, 3])
    with pytest.raises(ValueError, match="repeated index labels"):
        srd(RSRD, ref)
    with pytest.raises(ValueError, match="decimals"):
        covat(RSRD, decimals=-1)
    with pytest.raises(ValueError, match="null='rsrd' only"):
        srd(RSRD).randomization(tie_prob=0.2)


def test_rsrd_tie_mode_d_ignores_the_kept_reference_column():
    from binmetrics.comparison.srd_randomization import _rsrd_null
    res = srd(RSRD, "E")
    a = _rsrd_null(res, "d", None, 4000, np.random.default_rng(0))
    b = _rsrd_null(srd(RSRD, "E", keep_reference=False), "d", None, 4000,
                   np.random.default_rng(0))
    np.testing.assert_array_equal(a.support, b.support)
    np.testing.assert_array_equal(a.pmf, b.pmf)


def test_summary_quantiles_follow_the_order_rule(srdpy):
    cv = srd(srdpy).cross_validate("kfold", k=4, random_state=0)
    s = cv.summary()
    assert list(s.index) == cv.order
    for c in cv.order:
        col = np.sort(cv.folds[c].to_numpy())
        assert s.loc[c, "median"] in col  # a sample value, not an interpolation
