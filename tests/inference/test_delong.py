"""DeLong's AUC variance, interval and tests (binmetrics.intervals) against
docs/methods.md §3 (pROC's numbers) and naive O(m n) computations.

The worked example's numbers are printed there with 12 decimals (checked to 1e-10)
or 8 decimals (checked to 1e-8, their own rounding); every one of them is also checked
to 1e-12 against an exact rational computation of the same formulas.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats
from scipy.stats import rankdata

import binmetrics as bm
from binmetrics.exceptions import MeasureCaveatWarning, UndefinedMeasureWarning
from binmetrics.inference.delong import (
    delong_contrast,
    delong_placements,
    delong_test,
    delong_test_unpaired,
)
from binmetrics.inference.intervals import auc_ci, auc_variance, table_placements

Y = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
S1 = [.9, .8, .7, .55, .4, .7, .5, .3, .2, .1, .4]
S2 = [.6, .9, .4, .5, .5, .5, .8, .2, .3, .1, .35]
Z975 = float(special.ndtri(0.975))


# --- references -------------------------------------------------------------------------
def naive_placements(y, s, w=None):
    """V10, V01 by the O(m n) definition, with weights as multiplicities."""
    y = np.asarray(y, dtype=bool)
    s = np.asarray(s, dtype=np.float64)
    w = np.ones(y.size) if w is None else np.asarray(w, dtype=np.float64)
    X, Yc, wx, wy = s[y], s[~y], w[y], w[~y]
    psi = (X[:, None] > Yc[None, :]) + 0.5 * (X[:, None] == Yc[None, :])
    v10 = psi @ wy / wy.sum()
    v01 = wx @ psi / wx.sum()
    return v10, v01


def naive_cov(y, scores, w=None):
    """AUCs and DeLong's S from naive placements (ddof = 1, weights as multiplicities)."""
    y = np.asarray(y, dtype=bool)
    w = np.ones(y.size) if w is None else np.asarray(w, dtype=np.float64)
    pl = [naive_placements(y, s, w) for s in scores]
    V10 = np.vstack([p[0] for p in pl])
    V01 = np.vstack([p[1] for p in pl])
    m, n = w[y].sum(), w[~y].sum()
    aucs = V10 @ w[y] / m
    return aucs, _wcov(V10, w[y]) / m + _wcov(V01, w[~y]) / n


def _wcov(V, w):
    d = V - (V @ w / w.sum())[:, None]
    return (d * w) @ d.T / (w.sum() - 1)


def exact_example():
    """The worked example's placements, variances and covariance as fractions."""
    def psi(a, b):
        return Fraction(1) if a > b else Fraction(1, 2) if a == b else Fraction(0)

    out = {}
    for key, s in (("s1", S1), ("s2", S2)):
        sx = [Fraction(str(v)) for v, t in zip(s, Y, strict=True) if t == 1]
        sy = [Fraction(str(v)) for v, t in zip(s, Y, strict=True) if t == 0]
        v10 = [sum(psi(x, yy) for yy in sy) / len(sy) for x in sx]
        v01 = [sum(psi(x, yy) for x in sx) / len(sx) for yy in sy]
        out[key] = (v10, v01)
    return out


def _var(v):
    mean = sum(v) / len(v)
    return sum((x - mean) ** 2 for x in v) / (len(v) - 1)


def _cov(a, b):
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    return sum((x - ma) * (y - mb) for x, y in zip(a, b, strict=True)) / (len(a) - 1)


EXACT = exact_example()


def exact_var(key):
    v10, v01 = EXACT[key]
    return _var(v10) / len(v10) + _var(v01) / len(v01)


def exact_cov():
    (a10, a01), (b10, b01) = EXACT["s1"], EXACT["s2"]
    return _cov(a10, b10) / len(a10) + _cov(a01, b01) / len(a01)


# --- the worked example of docs/methods.md §3 ------------------------------------
def test_example_s1_placements_and_auc() -> None:
    pl = delong_placements(Y, S1)
    np.testing.assert_allclose(pl.v10, [1, 1, .916667, .833333, .583333], rtol=0, atol=5e-7)
    np.testing.assert_allclose(pl.v10, [1, 1, 11 / 12, 10 / 12, 7 / 12], rtol=0, atol=1e-15)
    np.testing.assert_allclose(pl.v01, [.5, .8, 1, 1, 1, .9], rtol=0, atol=1e-15)
    assert pl.auc == pytest.approx(0.866666666667, abs=1e-10)
    assert pl.auc == pytest.approx(13 / 15, abs=1e-15)
    exact_v10, exact_v01 = EXACT["s1"]
    np.testing.assert_allclose(pl.v10, [float(v) for v in exact_v10], rtol=0, atol=1e-15)
    np.testing.assert_allclose(pl.v01, [float(v) for v in exact_v01], rtol=0, atol=1e-15)


def test_example_variances() -> None:
    assert auc_variance(Y, S1) == pytest.approx(0.012416666667, abs=1e-10)
    assert auc_variance(Y, S2) == pytest.approx(0.021861111111, abs=1e-10)
    assert auc_variance(Y, S1) == pytest.approx(float(exact_var("s1")), abs=1e-15)
    assert auc_variance(Y, S2) == pytest.approx(float(exact_var("s2")), abs=1e-15)
    assert delong_placements(Y, S1).variance == pytest.approx(auc_variance(Y, S1), abs=1e-16)


def test_example_s2_placements() -> None:
    pl = delong_placements(Y, S2)
    exact_v10, exact_v01 = EXACT["s2"]
    np.testing.assert_allclose(pl.v10, [float(v) for v in exact_v10], rtol=0, atol=1e-15)
    np.testing.assert_allclose(pl.v01, [float(v) for v in exact_v01], rtol=0, atol=1e-15)
    assert pl.auc == pytest.approx(0.8, abs=1e-15)


def test_example_confidence_intervals() -> None:
    ci1 = auc_ci(Y, S1)
    assert (ci1.low, ci1.estimate, ci1.high) == pytest.approx((0.64826769, 0.86666667, 1.0),
                                                              abs=1e-8)
    assert ci1.high == 1.0  # the raw 1.0851 is clipped
    theta, sd = 13 / 15, math.sqrt(float(exact_var("s1")))
    assert ci1.low == pytest.approx(theta - Z975 * sd, abs=1e-12)
    assert theta + Z975 * sd == pytest.approx(1.0851, abs=1e-4)
    ci2 = auc_ci(Y, S2)
    assert (ci2.low, ci2.estimate, ci2.high) == pytest.approx((0.51020946, 0.8, 1.0), abs=1e-8)
    assert ci2.low == pytest.approx(0.8 - Z975 * math.sqrt(float(exact_var("s2"))), abs=1e-12)
    assert ci1.method == "delong" and ci1.level == 0.95


def test_example_paired_test() -> None:
    t = delong_test(Y, S1, S2)
    assert t.covariance[0, 1] == pytest.approx(0.00868056, abs=1e-8)
    assert t.covariance[0, 1] == pytest.approx(float(exact_cov()), abs=1e-15)
    assert t.covariance[1, 0] == t.covariance[0, 1]
    assert t.covariance[0, 0] == pytest.approx(0.012416666667, abs=1e-10)
    assert t.covariance[1, 1] == pytest.approx(0.021861111111, abs=1e-10)
    assert t.sigma == pytest.approx(0.130064086768, abs=1e-10)
    sigma_exact = math.sqrt(float(exact_var("s1") + exact_var("s2") - 2 * exact_cov()))
    assert t.sigma == pytest.approx(sigma_exact, abs=1e-14)
    assert (t.value_a, t.value_b) == pytest.approx((13 / 15, 0.8), abs=1e-15)
    assert t.estimate == pytest.approx(13 / 15 - 0.8, abs=1e-15)
    assert t.statistic == pytest.approx(0.512567829626, abs=1e-10)
    assert t.pvalue == pytest.approx(0.608253661495, abs=1e-10)
    assert math.log10(t.pvalue) == pytest.approx(-0.21591527, abs=1e-8)  # yandex
    assert tuple(t.ci) == pytest.approx((-0.188254259080, 0.321587592413), abs=1e-10)
    assert t.ci.estimate == t.estimate and t.ci.level == 0.95
    assert t.paired and t.df is None and t.alternative == "two-sided"


def test_example_one_sided_p_values() -> None:
    z = 0.512567829626
    greater = delong_test(Y, S1, S2, alternative="greater")
    less = delong_test(Y, S1, S2, alternative="less")
    assert greater.pvalue == pytest.approx(stats.norm.sf(z), abs=1e-10)
    assert less.pvalue == pytest.approx(stats.norm.cdf(z), abs=1e-10)
    assert greater.pvalue + less.pvalue == pytest.approx(1.0, abs=1e-15)
    assert tuple(greater.ci) == tuple(delong_test(Y, S1, S2).ci)  # always two-sided
    with pytest.raises(ValueError, match=r"got 'two.sided' \(write 'two-sided'\)"):
        delong_test(Y, S1, S2, alternative="two.sided")


def test_example_unpaired_welch() -> None:
    t = delong_test_unpaired(Y, S1, Y, S2)
    va, vb = float(exact_var("s1")), float(exact_var("s2"))
    d = 13 / 15 - 0.8
    t_stat = d / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / 10 + vb ** 2 / 10)
    assert t.statistic == pytest.approx(t_stat, abs=1e-12)
    assert t.df == pytest.approx(df, abs=1e-9)
    assert t.pvalue == pytest.approx(2 * stats.t.sf(t_stat, df), abs=1e-12)
    q = stats.t.ppf(0.975, df)
    assert tuple(t.ci) == pytest.approx((d - q * math.sqrt(va + vb), d + q * math.sqrt(va + vb)),
                                        abs=1e-12)
    assert not t.paired and t.covariance[0, 1] == 0.0
    assert delong_test_unpaired(Y, S1, Y, S2, alternative="greater").pvalue == \
        pytest.approx(stats.t.sf(t_stat, df), abs=1e-12)


def test_example_contrast_two_models_is_z_squared() -> None:
    res = delong_contrast(Y, [S1, S2])
    z = delong_test(Y, S1, S2)
    assert res.statistic == pytest.approx(z.statistic ** 2, rel=1e-12)
    assert res.pvalue == pytest.approx(z.pvalue, abs=1e-12)
    assert res.df == 1
    np.testing.assert_allclose(res.covariance, z.covariance, rtol=0, atol=1e-16)


# --- O(n log n) placements against the naive O(m n) definition ------------------------------
def random_tied(rng, n, levels, prevalence=0.3):
    y = rng.random(n) < prevalence
    y[:2], y[2:4] = True, False
    s = rng.integers(0, levels, n) / levels
    return y.astype(int), s


@pytest.mark.parametrize("seed", range(40))
def test_placements_equal_the_naive_definition(seed: int) -> None:
    rng = np.random.default_rng(seed)
    y, s = random_tied(rng, int(rng.integers(5, 300)), int(rng.integers(2, 40)))
    v10, v01 = naive_placements(y, s)
    pl = delong_placements(y, s)
    np.testing.assert_allclose(pl.v10, v10, rtol=0, atol=1e-14)
    np.testing.assert_allclose(pl.v01, v01, rtol=0, atol=1e-14)
    # Sun & Xu's midranks, literally (scipy.stats.rankdata)
    yb = np.asarray(y, dtype=bool)
    tz = rankdata(s)
    m, n = yb.sum(), (~yb).sum()
    np.testing.assert_allclose(pl.v10, (tz[yb] - rankdata(s[yb])) / n, rtol=0, atol=1e-14)
    np.testing.assert_allclose(pl.v01, 1 - (tz[~yb] - rankdata(s[~yb])) / m, rtol=0, atol=1e-14)
    # the table form: one value per group, the same variance
    table = bm.CountTable.from_arrays(y, s)
    tp = table_placements(table)
    assert tp.w10.sum() == m and tp.w01.sum() == n
    assert tp.variance == pytest.approx(pl.variance, rel=1e-12, abs=1e-16)
    _, S = naive_cov(y, [s])
    assert pl.variance == pytest.approx(S[0, 0], rel=1e-12, abs=1e-16)
    assert auc_variance(y, s) == pytest.approx(S[0, 0], rel=1e-12, abs=1e-16)


@pytest.mark.parametrize("seed", range(12))
def test_placements_of_distinct_and_weighted_scores_equal_the_naive_definition(seed: int) -> None:
    """The per-row placements take a shortcut when every score is distinct (each row its
    own group) and sum weights per group: both against the O(m n) definition, with
    zero weights and -0.0 == 0.0 among the scores."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 300))
    y = rng.random(n) < 0.4
    y[:2], y[2:4] = True, False
    s = rng.normal(size=n) if seed % 2 else np.round(rng.normal(size=n), 1)
    s[4:6] = [0.0, -0.0]
    w = rng.uniform(0, 3, n) * (rng.random(n) > 0.1) if seed % 3 else None
    if w is not None:
        w[:4] = 1.0  # both classes keep some weight
    v10, v01 = naive_placements(y, s, w)
    pl = delong_placements(y, s, sample_weight=w)
    np.testing.assert_allclose(pl.v10, v10, rtol=0, atol=1e-13)
    np.testing.assert_allclose(pl.v01, v01, rtol=0, atol=1e-13)


@pytest.mark.parametrize("seed", range(20))
def test_table_placements_map_back_to_rows(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    y, s = random_tied(rng, 120, 15)
    table = bm.CountTable.from_arrays(y, s)
    tp = table_placements(table)
    v10, v01 = naive_placements(y, s)
    yb = np.asarray(y, dtype=bool)
    # each row's group: the positive groups hold the positives' values
    pos_scores = table.scores[table.pos > 0]
    neg_scores = table.scores[table.neg > 0]
    row10 = tp.v10[np.searchsorted(-pos_scores, -s[yb])]
    row01 = tp.v01[np.searchsorted(-neg_scores, -s[~yb])]
    np.testing.assert_allclose(row10, v10, rtol=0, atol=1e-14)
    np.testing.assert_allclose(row01, v01, rtol=0, atol=1e-14)


@pytest.mark.parametrize("seed", range(30))
def test_auc_from_placements_equals_evaluate(seed: int) -> None:
    rng = np.random.default_rng(200 + seed)
    y, s = random_tied(rng, int(rng.integers(4, 500)), int(rng.integers(2, 1000)))
    w = rng.random(y.size) * 3 if seed % 2 else None
    ev = bm.evaluate(y, s, sample_weight=w)
    assert table_placements(ev.table).auc == pytest.approx(ev["auc"], rel=1e-13)
    assert delong_placements(y, s, sample_weight=w).auc == pytest.approx(ev["auc"], rel=1e-13)
    assert auc_ci(y, s, sample_weight=w).estimate == pytest.approx(ev["auc"], rel=1e-13)
    assert auc_ci(ev).estimate == auc_ci(ev.table).estimate


@pytest.mark.parametrize("seed", range(20))
def test_integer_weights_equal_repeated_rows(seed: int) -> None:
    rng = np.random.default_rng(300 + seed)
    y, s = random_tied(rng, 60, 8)
    w = rng.integers(0, 4, y.size)
    w[:4] = 2  # keep both classes
    s2 = s + rng.integers(0, 3, y.size) / 7
    yr, sr, s2r = np.repeat(y, w), np.repeat(s, w), np.repeat(s2, w)
    assert auc_variance(y, s, sample_weight=w) == pytest.approx(auc_variance(yr, sr), rel=1e-12)
    assert tuple(auc_ci(y, s, sample_weight=w)) == pytest.approx(tuple(auc_ci(yr, sr)),
                                                                 rel=1e-12)
    pw, pr = delong_placements(y, s, sample_weight=w), delong_placements(yr, sr)
    assert pw.variance == pytest.approx(pr.variance, rel=1e-12)
    # against the naive weighted placements
    v10, v01 = naive_placements(y, s, w)
    np.testing.assert_allclose(pw.v10, v10, rtol=0, atol=1e-14)
    np.testing.assert_allclose(pw.v01, v01, rtol=0, atol=1e-14)
    tw, tr = delong_test(y, s, s2, sample_weight=w), delong_test(yr, sr, s2r)
    assert (tw.statistic, tw.pvalue, tw.sigma) == pytest.approx(
        (tr.statistic, tr.pvalue, tr.sigma), rel=1e-10, abs=1e-14)
    np.testing.assert_allclose(tw.covariance, tr.covariance, rtol=1e-10, atol=1e-16)


@pytest.mark.parametrize("seed", range(15))
def test_paired_covariance_against_naive(seed: int) -> None:
    rng = np.random.default_rng(400 + seed)
    y, s = random_tied(rng, 150, 20)
    others = [s + rng.normal(0, 0.2, y.size).round(1) for _ in range(3)]
    scores = [s, *others]
    w = rng.random(y.size) + 1.0 if seed % 3 == 0 else None
    aucs, S = naive_cov(y, scores, w)
    t = delong_test(y, scores[0], scores[1], sample_weight=w)
    np.testing.assert_allclose(t.covariance, S[:2, :2], rtol=1e-12, atol=1e-16)
    lvec = np.array([1.0, -1.0])
    sigma = math.sqrt(lvec @ S[:2, :2] @ lvec)
    assert t.sigma == pytest.approx(sigma, rel=1e-10)
    assert t.statistic == pytest.approx((aucs[0] - aucs[1]) / sigma, rel=1e-10, abs=1e-14)
    res = delong_contrast(y, scores, sample_weight=w)
    np.testing.assert_allclose(res.covariance, S, rtol=1e-12, atol=1e-16)
    np.testing.assert_allclose(res.values, aucs, rtol=1e-13)
    L = res.contrast
    chi2 = (L @ aucs) @ np.linalg.solve(L @ S @ L.T, L @ aucs)
    assert res.statistic == pytest.approx(chi2, rel=1e-9)
    assert res.df == 3
    assert res.pvalue == pytest.approx(stats.chi2.sf(chi2, 3), rel=1e-8, abs=1e-15)


def test_contrast_is_invariant_to_the_choice_of_contrast_rows() -> None:
    rng = np.random.default_rng(7)
    y, s = random_tied(rng, 200, 30)
    scores = [s, s + rng.normal(0, .3, y.size), s + rng.normal(0, .5, y.size)]
    a = delong_contrast(y, scores)
    b = delong_contrast(y, scores, contrast=[[1, 0, -1], [0, 1, -1]])
    c = delong_contrast(y, scores, contrast=[[2, -1, -1], [0, 3, -3]])
    assert a.statistic == pytest.approx(b.statistic, rel=1e-10)
    assert a.statistic == pytest.approx(c.statistic, rel=1e-10)
    one = delong_contrast(y, scores, contrast=[1, -1, 0])
    pair = delong_test(y, scores[0], scores[1])
    assert one.statistic == pytest.approx(pair.statistic ** 2, rel=1e-10)
    assert one.df == 1


def test_contrast_names_and_errors() -> None:
    res = delong_contrast(Y, {"a": S1, "b": S2})
    assert res.names == ("a", "b")
    assert delong_contrast(Y, [S1, S2]).names == ("model_0", "model_1")
    with pytest.raises(ValueError, match="at least 2 models"):
        delong_contrast(Y, [S1])
    with pytest.raises(ValueError, match="sum to 0"):
        delong_contrast(Y, [S1, S2], contrast=[1, 1])
    with pytest.raises(ValueError, match="shape"):
        delong_contrast(Y, [S1, S2], contrast=[[1, -1, 0]])
    with pytest.raises(ValueError, match="all zeros"):
        delong_contrast(Y, [S1, S2], contrast=[0, 0])


def test_contrast_singular_covariance_uses_the_pseudo_inverse() -> None:
    # models 1 and 3 rank the subjects identically: L S L^T is singular
    s3 = [2 * v + 1 for v in S1]
    with pytest.warns(MeasureCaveatWarning, match="singular"):
        res = delong_contrast(Y, [S1, S2, s3])
    assert res.df == 1
    assert res.statistic == pytest.approx(delong_test(Y, S1, S2).statistic ** 2, rel=1e-9)


# --- properties ----------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 6)), min_size=4, max_size=40),
       st.integers(0, 2**31 - 1))
def test_row_order_and_monotone_transforms_do_not_matter(rows, seed) -> None:
    y = np.array([r[0] for r in rows], dtype=int)
    s = np.array([r[1] for r in rows], dtype=float)
    if y.sum() < 2 or (1 - y).sum() < 2:
        return
    perm = np.random.default_rng(seed).permutation(y.size)
    v = auc_variance(y, s)
    assert auc_variance(y[perm], s[perm]) == pytest.approx(v, rel=1e-12, abs=1e-17)
    assert auc_variance(y, np.exp(s) * 3 - 1) == pytest.approx(v, rel=1e-12, abs=1e-17)
    # the other direction: negated scores give 1 - AUC with the same variance
    assert auc_variance(y, -s) == pytest.approx(v, rel=1e-12, abs=1e-17)
    assert auc_ci(y, -s).estimate == pytest.approx(1 - auc_ci(y, s).estimate, abs=1e-14)


def test_swapping_the_models_flips_the_sign() -> None:
    a, b = delong_test(Y, S1, S2), delong_test(Y, S2, S1)
    assert b.statistic == -a.statistic and b.pvalue == a.pvalue
    assert (b.ci.low, b.ci.high) == pytest.approx((-a.ci.high, -a.ci.low), abs=1e-15)


def test_interval_is_clipped_to_the_unit_interval() -> None:
    ci = auc_ci([1, 1, 1, 0, 0, 0], [0.9, 0.8, 0.2, 0.3, 0.1, 0.05])
    assert ci.high == 1.0 and 0 <= ci.low
    low = auc_ci([1, 1, 1, 0, 0, 0], [0.1, 0.2, 0.8, 0.7, 0.9, 0.95])
    assert low.low == 0.0


def test_level_changes_the_quantile() -> None:
    rng = np.random.default_rng(3)
    y, s = random_tied(rng, 400, 50)
    ci90, ci99 = auc_ci(y, s, level=0.9), auc_ci(y, s, level=0.99)
    sd = math.sqrt(auc_variance(y, s))
    assert ci90.high - ci90.estimate == pytest.approx(stats.norm.ppf(0.95) * sd, rel=1e-12)
    assert ci99.estimate - ci99.low == pytest.approx(stats.norm.ppf(0.995) * sd, rel=1e-12)


# --- special cases and bad input -----------------------------------------------------------
def test_identical_models_give_z_zero() -> None:
    t = delong_test(Y, S1, S1)
    assert t.estimate == 0 and t.sigma == 0 and t.statistic == 0 and t.pvalue == 1.0
    t = delong_test(Y, S1, [10 * v for v in S1], alternative="greater")
    assert t.statistic == 0 and t.pvalue == 0.5


def test_both_perfect_warns_and_p_is_one() -> None:
    s = [1.0, .9, .8, .7, .6, .5, .4, .3, .2, .1, .0]
    with pytest.warns(MeasureCaveatWarning, match="both AUCs are 1"):
        t = delong_test(Y, s, [2 * v for v in s])
    assert t.statistic == 0 and t.pvalue == 1.0


def test_zero_sigma_with_a_difference_is_infinite() -> None:
    perfect = [1.0, .9, .8, .7, .6, .5, .4, .3, .2, .1, .0]
    constant = [0.5] * 11
    t = delong_test(Y, perfect, constant)
    assert t.sigma == 0 and t.estimate == 0.5
    assert t.statistic == math.inf and t.pvalue == 0.0
    assert tuple(t.ci) == (0.5, 0.5)


@pytest.mark.parametrize(("y", "s"), [
    ([1, 0, 0, 0], [.9, .1, .2, .3]),  # one positive
    ([1, 1, 1, 0], [.9, .8, .7, .3]),  # one negative
])
def test_fewer_than_two_in_a_class_is_nan(y, s) -> None:
    with pytest.warns(UndefinedMeasureWarning, match="at least 2 positives and 2 negatives"):
        ci = auc_ci(y, s)
    assert math.isnan(ci.low) and math.isnan(ci.high)
    assert ci.estimate == bm.score("auc", y, s)  # the AUC itself is defined
    with pytest.warns(UndefinedMeasureWarning):
        assert math.isnan(auc_variance(y, s))
    with pytest.warns(UndefinedMeasureWarning):
        t = delong_test(y, s, s[::-1])
    assert math.isnan(t.statistic) and math.isnan(t.pvalue) and math.isnan(t.ci.low)
    with pytest.warns(UndefinedMeasureWarning):
        t = delong_test_unpaired(y, s, Y, S1)
    assert math.isnan(t.pvalue)
    with pytest.warns(UndefinedMeasureWarning):
        assert math.isnan(delong_contrast(y, [s, s[::-1]]).pvalue)
    with bm.undefined_policy("raise"), pytest.raises(bm.UndefinedMeasureError):
        auc_ci(y, s)


def test_a_single_class_is_nan() -> None:
    with pytest.warns(UndefinedMeasureWarning, match="no negatives"):
        ci = auc_ci([1, 1, 1], [.1, .2, .3])
    assert math.isnan(ci.estimate)
    with pytest.warns(UndefinedMeasureWarning, match="no positives"):
        t = delong_test([0, 0, 0], [.1, .2, .3], [.3, .2, .1])
    assert math.isnan(t.value_a)
    with pytest.raises(ValueError, match="positives and negatives"):
        delong_placements([0, 0, 0], [.1, .2, .3])


def test_weights_summing_to_at_most_one_per_class_have_no_variance() -> None:
    with pytest.warns(UndefinedMeasureWarning):
        v = auc_variance([1, 1, 0, 0], [.9, .2, .5, .1], sample_weight=[.5, .5, .5, .5])
    assert math.isnan(v)


@pytest.mark.parametrize("level", [0.0, 1.0, 2.0])
def test_bad_level(level: float) -> None:
    with pytest.raises(ValueError, match="level"):
        auc_ci(Y, S1, level=level)
    with pytest.raises(ValueError, match="level"):
        delong_test(Y, S1, S2, level=level)
    with pytest.raises(ValueError, match="level"):
        delong_test_unpaired(Y, S1, Y, S2, level=level)


def test_bad_alternative_and_lengths() -> None:
    with pytest.raises(ValueError, match="alternative"):
        delong_test(Y, S1, S2, alternative="bigger")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="score_b"):
        delong_test(Y, S1, S2[:-1])
    with pytest.raises(ValueError, match="exactly two classes"):
        delong_test([0, 1, 2, 1], [.1, .2, .3, .4], [.1, .2, .3, .4])


def test_nan_scores_raise_or_are_dropped_pairwise() -> None:
    s2 = list(S2)
    s2[3] = float("nan")
    with pytest.raises(ValueError, match=r"score_b.*nan_policy='omit'"):
        delong_test(Y, S1, s2)
    with pytest.warns(UserWarning, match="dropped 1 row "):
        t = delong_test(Y, S1, s2, nan_policy="omit")
    keep = [i for i in range(len(Y)) if i != 3]
    ref = delong_test([Y[i] for i in keep], [S1[i] for i in keep], [S2[i] for i in keep])
    assert (t.statistic, t.pvalue) == (ref.statistic, ref.pvalue)
    with pytest.raises(ValueError, match="non-finite"):
        auc_ci(Y, s2)


def test_table_and_evaluation_inputs() -> None:
    ev = bm.evaluate(Y, S1)
    ref = auc_ci(Y, S1)
    assert tuple(auc_ci(ev)) == tuple(ref) == tuple(auc_ci(ev.table))
    assert auc_variance(ev) == auc_variance(Y, S1)
    with pytest.raises(TypeError, match="CountTable or Evaluation"):
        auc_ci(Y)
    with pytest.raises(TypeError, match="sample_weight"):
        auc_ci(ev.table, sample_weight=[1] * 11)


def test_merged_tables_give_the_interval_of_the_union() -> None:
    rng = np.random.default_rng(11)
    y, s = random_tied(rng, 300, 25)
    t = bm.CountTable.from_arrays(y[:100], s[:100]) + bm.CountTable.from_arrays(y[100:], s[100:])
    assert tuple(auc_ci(t)) == pytest.approx(tuple(auc_ci(y, s)), rel=1e-13)


def test_no_runtime_warnings_on_degenerate_but_valid_input() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        auc_ci([1, 1, 0, 0], [0.5, 0.5, 0.5, 0.5])
        delong_test([1, 1, 0, 0], [0.5] * 4, [0.5] * 4)
        delong_test_unpaired([1, 1, 0, 0], [0.5] * 4, [1, 1, 0, 0], [0.5] * 4)
