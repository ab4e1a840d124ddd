"""The fast logistic calibration fits (measures/logistic_fit.py, issues 18 and 32): the
fits on the moments of narrow bins of logit(p) (or, for steep slopes, exact full-data
Newton steps) agree with the reference iteration on the full arrays (to 1e-12
relative), with ties, weights and p of exactly 0 or 1, and fall back to it on separated
data; the bins' expansion gives the sums of an exact pass."""

from __future__ import annotations

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.measures import logistic_fit as lf


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    # the fast path at test sizes (bins of logit(p) beyond 1000 rows), passes over
    # several chunks (each carrying its sums into the next)
    from binmetrics.table import counts

    monkeypatch.setattr(lf, "SMALL_TABLE", 1000)
    monkeypatch.setattr(counts, "CHUNK", 4099)


def _data(seed: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < (0.1, 0.5, 0.03)[seed % 3]
    z = rng.normal(np.where(y, rng.uniform(0.2, 3), 0.0), rng.uniform(0.3, 2))
    p = 1.0 / (1.0 + np.exp(-(z * rng.uniform(0.3, 3) - 1.5)))
    if seed % 4 == 1:
        p = np.round(p, 3)  # ties
    if seed % 4 == 2:
        p[:20], p[20:35] = 0.0, 1.0  # left out of the fit
    w = rng.uniform(0, 3, n) if seed % 2 else None
    return y, p, w


@pytest.mark.parametrize("seed", range(8))
def test_fast_fits_agree_with_the_reference_iteration(seed: int, small_blocks: None) -> None:
    y, p, w = _data(seed, 50_000)
    t = bm.CountTable.from_arrays(y, p, sample_weight=w)
    x, pos, tot, dropped = lf.logit_rows(t)
    ref_slope = lf.newton_fit(x, pos, tot, True)
    ref_citl = lf.newton_fit(x, pos, tot, False)
    assert ref_slope is not None and ref_citl is not None
    got_slope, got_citl, got_dropped = lf.fit_table(t)
    assert got_slope == pytest.approx(ref_slope, rel=1e-12)
    assert got_citl == pytest.approx(ref_citl, rel=1e-12)
    assert got_dropped == pytest.approx(dropped, rel=1e-12)
    if seed % 4 == 2 and w is None:
        assert got_dropped == 35


def test_statsmodels_agrees_on_a_large_table(small_blocks: None) -> None:
    sm = pytest.importorskip("statsmodels.api")
    y, p, _ = _data(0, 20_000)
    x = np.log(p) - np.log1p(-p)
    want = sm.GLM(y.astype(float), sm.add_constant(x), family=sm.families.Binomial()).fit(
        tol=1e-14).params
    want_citl = sm.GLM(y.astype(float), np.ones((y.size, 1)), offset=x,
                       family=sm.families.Binomial()).fit(tol=1e-14).params
    ev = bm.evaluate(y, p)
    assert ev["calibration_intercept"] == pytest.approx(want[0], rel=1e-9)
    assert ev["calibration_slope"] == pytest.approx(want[1], rel=1e-9)
    assert ev["calibration_in_the_large"] == pytest.approx(want_citl[0], rel=1e-9)


def test_separated_data_fall_back_and_do_not_converge(small_blocks: None) -> None:
    rng = np.random.default_rng(1)
    p = rng.uniform(0.01, 0.99, 5000)
    y = p > 0.5
    slope, citl, _ = lf.fit_table(bm.CountTable.from_arrays(y, p))
    assert slope is None  # the outcome is a step function of logit(p)
    assert citl is not None  # slope 1 fixed: a finite intercept exists
    x, pos, tot, _ = lf.logit_rows(bm.CountTable.from_arrays(y, p))
    assert citl == pytest.approx(lf.newton_fit(x, pos, tot, False), rel=1e-10)


def _bins(t: bm.CountTable) -> lf._Bins:
    from binmetrics.measures.block_pass import table_blocks

    part = lf._compressed_part(t)
    assert part is not None
    return lf._combine([q for q in map(part, table_blocks(t)) if q is not None])


@pytest.mark.parametrize("seed", [0, 2, 3, 6])  # continuous; p at 0 and 1; weights
def test_the_bins_moments_give_the_sums_of_an_exact_pass(seed: int, small_blocks: None) -> None:
    """_bin_sums (Taylor expansion of expit around each bin's edge) against _pass (every
    row, exactly) at points around the fit, up to the steepest slope the bins serve."""
    y, p, w = _data(seed, 50_000)
    t = bm.CountTable.from_arrays(y, p, sample_weight=w)
    bins = _bins(t)
    i0, i1 = lf.inside(t)
    cases = float(np.sum(t.pos[i0:i1]) + np.sum(t.neg[i0:i1]))
    steepest = lf.max_spread(lf.TABLE_BINS[1]) / lf.TABLE_BINS[0]
    rng = np.random.default_rng(seed)
    mid = float(np.median(np.log(t.scores[i0:i1]) - np.log1p(-t.scores[i0:i1])))
    steep = [(-b * mid, b) for b in (steepest * 0.99, -steepest * 0.5)]  # eta near 0
    for a, b in [(0.0, 1.0), (-1.3, 0.4), (2.0, -0.7), *steep,
                 *zip(rng.normal(0, 2, 4), rng.uniform(-3, 3, 4), strict=True)]:
        for slope in (True, False):
            bb = b if slope else 1.0
            want = lf._pass(t, i0, i1, [(a, bb)], [slope])[0]
            got = lf._bin_sums(bins, a, bb, slope)
            # sums of r = pos - tot mu: errors measured against the cases they sum over
            scale = cases * np.array([1.0, 40.0, 1.0, 40.0, 1600.0])
            np.testing.assert_array_less(np.abs(got - want), 2e-14 * scale + 1e-300)


def test_the_expansion_derivatives_are_expits() -> None:
    """The m-th derivatives of expit (s u R_m(s)) reproduce expit(eta + h) as a Taylor
    series to 3e-14 relative, in the tails too (the terms left out: below 3e-16); an
    error in any of them would show (the sixth's term alone is 9e-14 at h = 0.02)."""
    import math

    from binmetrics.measures._special import expit

    eta = np.concatenate([np.linspace(-30, 30, 121), [-700.0, 700.0]])
    for h in (0.02, -0.02):
        d = lf._expit_derivatives(eta, 6)
        series = sum(d[m] * h**m / math.factorial(m) for m in range(7))
        np.testing.assert_allclose(series, expit(eta + h), rtol=3e-14, atol=0)
    assert lf._derivative_polynomials(3) == [[1.0], [1.0, -2.0], [1.0, -6.0, 6.0]]


def test_a_slope_too_steep_for_the_bins_takes_full_passes(
        small_blocks: None, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(5)
    x = rng.normal(0, 0.05, 60_000)
    y = rng.random(x.size) < 1.0 / (1.0 + np.exp(-12.0 * x))  # slope about 12
    p = 1.0 / (1.0 + np.exp(-x))
    t = bm.CountTable.from_arrays(y, p)
    passes: list[int] = []
    real = lf.refine
    monkeypatch.setattr(lf, "refine", lambda *a: passes.append(1) or real(*a))
    slope, citl, _ = lf.fit_table(t)
    assert passes == [1]  # the slope fit only: calibration-in-the-large has b = 1
    assert slope is not None and slope[1] > lf.max_spread(3) / lf.TABLE_BINS[0]
    xr, pos, tot, _ = lf.logit_rows(t)
    assert slope == pytest.approx(lf.newton_fit(xr, pos, tot, True), rel=1e-12)
    assert citl == pytest.approx(lf.newton_fit(xr, pos, tot, False), rel=1e-12)
