"""The one Wilcoxon signed-rank test (binmetrics.inference.signed_rank) against independent
references: scipy's exact distribution (no ties), an enumeration of all 2^n sign patterns
(ties and zeros), scipy's permutation test and its normal approximation; and the
agreement of its three users (wilcoxon_test, the wilcoxon_holm post-hoc test, SRD's
cross-validation) on tied data."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import binmetrics as bm
from binmetrics.comparison import srd_crossvalidation
from binmetrics.comparison.ranks import holm_adjust
from binmetrics.comparison.srd_ranking import srd
from binmetrics.data import demsar_table
from binmetrics.exceptions import UndefinedMeasureWarning
from binmetrics.inference.signed_rank import (
    EXACT_MAX_N,
    signed_rank_distribution,
    signed_rank_test,
)

ZERO_METHODS = ("zsplit", "wilcox", "pratt")
ALTERNATIVES = ("two-sided", "greater", "less")


# --- an independent reference: every sign pattern ----------------------------------------
def midranks(v: np.ndarray) -> np.ndarray:
    """Average ranks by their definition: values below, plus the middle of the ties."""
    return np.array([np.sum(v < x) + (np.sum(v == x) + 1) / 2 for x in v])


def null_r_plus(d: np.ndarray, zero_method: str) -> tuple[float, np.ndarray]:
    """R+ of d, and R+ of each of the 2^n sign patterns of d (flipping a zero leaves it
    zero; the |d|, hence their ranks, do not change)."""
    d = np.asarray(d, dtype=float)
    if zero_method == "wilcox":
        d = d[d != 0]
    r = midranks(np.abs(d))
    split = r[d == 0].sum() / 2 if zero_method == "zsplit" else 0.0
    signs = np.array(list(itertools.product([1.0, -1.0], repeat=d.size)))
    flipped = signs * d
    null = ((flipped > 0) * r).sum(axis=1) + split
    return float(r[d > 0].sum() + split), null


def enumerated_pvalue(d: np.ndarray, zero_method: str, alternative: str) -> float:
    obs, null = null_r_plus(d, zero_method)
    # R+ is a multiple of 1/4, exact in binary floating point: no tolerance needed
    ge, le, total = np.sum(null >= obs), np.sum(null <= obs), null.size
    if alternative == "greater":
        return ge / total
    if alternative == "less":
        return le / total
    return min(1.0, 2 * min(ge, le) / total)


def tied_differences(rng: np.random.Generator, n: int) -> np.ndarray:
    """Differences on a grid of quarters: ties and zeros are common."""
    return rng.integers(-4, 5, size=n) / 4


# --- the exact distribution --------------------------------------------------------------
def test_exact_without_ties_equals_scipy_exact():
    rng = np.random.default_rng(0)
    for n in (1, 2, 5, 9, 17, 30, 50):
        d = rng.normal(0.3, 1, size=n)
        for alternative in ALTERNATIVES:
            res = signed_rank_test(d, alternative=alternative)
            ref = stats.wilcoxon(d, alternative=alternative, method="exact")
            assert res.method == "exact"
            assert res.statistic == ref.statistic
            assert abs(res.pvalue - ref.pvalue) <= 1e-12


@pytest.mark.parametrize("zero_method", ZERO_METHODS)
def test_exact_with_ties_and_zeros_equals_enumeration(zero_method):
    rng = np.random.default_rng(1)
    labels = set()
    for _ in range(25):
        n = int(rng.integers(2, 15))  # up to 2^14 sign patterns
        d = tied_differences(rng, n)
        if np.all(d == 0):
            continue
        for alternative in ALTERNATIVES:
            res = signed_rank_test(d, zero_method=zero_method, alternative=alternative)
            ref = enumerated_pvalue(d, zero_method, alternative)
            assert abs(res.pvalue - ref) <= 1e-12, (d, alternative)
            labels.add(res.method)
        kept = d[d != 0] if zero_method == "wilcox" else d
        classical = np.unique(np.abs(kept)).size == kept.size and kept.all()
        assert res.method == ("exact" if classical else "exact-ties")
    assert "exact-ties" in labels


def test_exact_with_ties_equals_scipy_permutation_test():
    # scipy's permutation test with every sign pattern (n_resamples=inf) recomputes the
    # statistic, zero handling included, on each pattern: an independent exact p
    rng = np.random.default_rng(2)
    for zero_method in ZERO_METHODS:
        d = tied_differences(rng, 8)
        d[:2] = [0.0, 0.5]  # a zero and a tie with certainty
        d[2] = -0.5
        res = signed_rank_test(d, zero_method=zero_method)
        ref = stats.wilcoxon(d, zero_method=zero_method,
                             method=stats.PermutationMethod(n_resamples=np.inf))
        assert res.method == "exact-ties"
        assert res.statistic == ref.statistic
        assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


def test_demsar_example_by_enumeration():
    t = demsar_table()
    d = (t["C4.5+m"] - t["C4.5"]).to_numpy()
    res = signed_rank_test(d)
    assert res.statistic == 12.0 and res.n_zero == 2
    assert abs(res.pvalue - enumerated_pvalue(d, "zsplit", "two-sided")) <= 1e-12
    assert res.pvalue == 1 / 128


def test_wilcox_zeros_without_ties_use_the_classical_distribution():
    d = np.array([0.0, 0.0, 1.5, -2.5, 3.5, 4.5, -5.5, 6.5, 7.5])
    res = signed_rank_test(d, zero_method="wilcox")
    assert res.method == "exact" and res.n_zero == 2 and res.n == 9
    assert res.pvalue == pytest.approx(stats.wilcoxon(d[d != 0], method="exact").pvalue,
                                       rel=1e-12)


def test_distribution():
    dist = signed_rank_distribution([2, 3, 3, 5])
    assert dist.sum() == pytest.approx(1.0, abs=1e-15)
    np.testing.assert_array_equal(dist, dist[::-1])  # symmetric
    sums = [sum(c) for k in range(5) for c in itertools.combinations([2, 3, 3, 5], k)]
    np.testing.assert_array_equal(dist * 16, np.bincount(sums, minlength=14))
    np.testing.assert_array_equal(signed_rank_distribution(np.array([], dtype=int)), [1.0])
    with pytest.raises(ValueError, match="non-negative integers"):
        signed_rank_distribution([1.5, 2])
    with pytest.raises(ValueError, match="non-negative integers"):
        signed_rank_distribution([-1, 2])


# --- the normal approximation ------------------------------------------------------------
@pytest.mark.parametrize("zero_method", ZERO_METHODS)
def test_normal_equals_scipy_asymptotic(zero_method):
    rng = np.random.default_rng(3)
    for n in (20, 60, 120):
        d = tied_differences(rng, n)
        if zero_method == "zsplit":
            d[d == 0] = 0.25  # scipy's zsplit variance counts zeros (see below)
        for alternative in ALTERNATIVES:
            res = signed_rank_test(d, zero_method=zero_method, alternative=alternative,
                                   method="normal")
            ref = stats.wilcoxon(d, zero_method=zero_method, alternative=alternative,
                                 method="asymptotic", correction=False)
            assert res.method == "normal"
            assert res.statistic == pytest.approx(ref.statistic, rel=1e-14)
            assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10, abs=1e-300)


@pytest.mark.parametrize("zero_method", ZERO_METHODS)
def test_normal_uses_the_moments_of_the_exact_distribution(zero_method):
    # with zeros too: under zsplit the zeros' split ranks are constant in every sign
    # pattern, so they add nothing to the variance (scipy's zsplit variance counts them)
    rng = np.random.default_rng(4)
    for _ in range(10):
        d = tied_differences(rng, 12)
        d[0] = 0.0
        if np.all(d == 0):
            continue
        obs, null = null_r_plus(d, zero_method)
        z = (obs - null.mean()) / null.std()
        res = signed_rank_test(d, zero_method=zero_method, method="normal")
        assert res.pvalue == pytest.approx(min(1.0, 2 * stats.norm.sf(abs(z))), rel=1e-12)
        greater = signed_rank_test(d, zero_method=zero_method, alternative="greater",
                                   method="normal")
        assert greater.pvalue == pytest.approx(stats.norm.sf(z), rel=1e-12)


def test_auto_is_exact_up_to_50_non_zero_differences():
    rng = np.random.default_rng(5)
    d = rng.normal(0.2, 1, size=EXACT_MAX_N + 1)
    assert signed_rank_test(d[:EXACT_MAX_N]).method == "exact"
    res = signed_rank_test(d)
    assert res.method == "normal"  # scipy's default too: the same p
    assert res.pvalue == pytest.approx(stats.wilcoxon(d).pvalue, rel=1e-12)
    tied = np.round(d, 1)
    nonzero = np.where(tied == 0, 0.05, tied)
    assert signed_rank_test(nonzero[:EXACT_MAX_N]).method == "exact-ties"
    assert signed_rank_test(nonzero).method == "normal"
    # "wilcox" drops zeros before counting; "zsplit" holds them fixed: neither adds a
    # sign to flip, so 50 non-zero differences among 55 are still exact
    for m, method in ((EXACT_MAX_N, "exact-ties"), (EXACT_MAX_N + 1, "normal")):
        with_zeros = np.concatenate([nonzero[:m], np.zeros(5)])
        for zero_method in ZERO_METHODS:
            assert signed_rank_test(with_zeros, zero_method=zero_method).method == method


def test_exact_on_request_beyond_auto_and_its_limit():
    rng = np.random.default_rng(6)
    d = tied_differences(rng, 300)
    exact = signed_rank_test(d, method="exact")
    normal = signed_rank_test(d, method="normal")
    assert exact.method == "exact-ties" and normal.method == "normal"
    assert exact.pvalue == pytest.approx(normal.pvalue, abs=2e-3)
    assert signed_rank_test(d).pvalue == normal.pvalue
    with pytest.raises(ValueError, match="too costly to build; use method='normal'"):
        signed_rank_test(rng.normal(size=3000), method="exact")


# --- bad and degenerate input ------------------------------------------------------------
def test_bad_and_degenerate_input():
    with pytest.raises(ValueError, match="method must be 'auto', 'exact' or 'normal'"):
        signed_rank_test([1.0, 2.0], method="approx")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="zero_method must be one of"):
        signed_rank_test([1.0, 2.0], zero_method="drop")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="alternative must be"):
        signed_rank_test([1.0, 2.0], alternative="larger")
    with pytest.raises(ValueError, match="missing or infinite"):
        signed_rank_test([1.0, np.inf])
    with pytest.raises(ValueError, match="1-d array"):
        signed_rank_test([[1.0, 2.0]])
    with pytest.warns(UndefinedMeasureWarning, match="every difference a - b is zero"):
        res = signed_rank_test([0.0, 0.0, 0.0])
    assert math.isnan(res.pvalue) and math.isnan(res.statistic) and res.n_zero == 3
    one = signed_rank_test([0.0, 0.0, 0.3])  # one sign to flip: nothing is significant
    assert one.pvalue == 1.0 and one.method == "exact-ties"


# --- its three users agree ---------------------------------------------------------------
def tied_scores(seed: int, n: int = 12, k: int = 4) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 6, size=(n, k)) / 6
    return pd.DataFrame(values, index=[f"d{i}" for i in range(n)],
                        columns=[f"m{j}" for j in range(k)])


@pytest.mark.parametrize("zero_method", ZERO_METHODS)
def test_wilcoxon_holm_pvalues_are_wilcoxon_test(zero_method):
    for seed in range(4):
        t = tied_scores(seed)
        post = bm.rank_comparison(t).posthoc("wilcoxon_holm", zero_method=zero_method)
        for row in post.table.itertuples():
            a, b = t[row.model_a], t[row.model_b]
            if np.all(a == b):
                continue  # the table's p = 1 where wilcoxon_test is undefined
            res = bm.wilcoxon_test(a, b, zero_method=zero_method)
            assert (row.statistic, row.pvalue) == (res.statistic, res.pvalue)
            assert abs(row.pvalue - enumerated_pvalue((a - b).to_numpy(), zero_method,
                                                      "two-sided")) <= 1e-12
        assert post.table["pvalue_adjusted"].tolist() == pytest.approx(
            holm_adjust(post.table["pvalue"]).tolist(), rel=1e-15)


def test_srd_cross_validation_runs_the_same_test(monkeypatch):
    rng = np.random.default_rng(7)
    x = pd.DataFrame(rng.integers(0, 5, size=(12, 4)).astype(float), columns=list("abcd"))
    calls = []

    def spy(d, **kwargs):
        calls.append(kwargs)
        return signed_rank_test(d, **kwargs)

    monkeypatch.setattr(srd_crossvalidation, "signed_rank_test", spy)
    cv = srd(x).cross_validate("loo")
    assert len(calls) == int((cv.tests["n_nonzero"] > 0).sum()) > 0
    assert all(c == {"zero_method": "wilcox"} for c in calls)
    tied = 0
    for row in cv.tests.itertuples():
        d = np.round(cv.folds[row.column] - cv.folds[row.next], 9).to_numpy()
        d = d[np.abs(d) > 1e-9]
        if d.size == 0:
            continue
        res = bm.wilcoxon_test(d, np.zeros_like(d), zero_method="wilcox")
        assert row.wilcoxon_pvalue == res.pvalue
        assert row.wilcoxon_statistic == d.size * (d.size + 1) / 2 - 2 * res.statistic
        assert abs(row.wilcoxon_pvalue - enumerated_pvalue(d, "wilcox", "two-sided")) <= 1e-12
        tied += res.method == "exact-ties"
    assert tied > 0  # the case the three copies used to disagree on
