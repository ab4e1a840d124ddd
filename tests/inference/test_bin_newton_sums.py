"""The fits' Newton sums compiled (binmetrics.measures.logistic_fit.compiled_bin_sums, the
kernel ``measures._fits_numba.bin_newton_sums``) against NumPy's ``logistic_fit._bin_sums``:
each bin's terms the same floats (a bin alone: the same sums), many bins' sums within
1e-13 of their scale (scores near 0 and 1, steep and negative slopes, with and without
slope), one-class bins in the tails to 1e-13 relative (where the residual's side
matters); replicates and intervals of the three fits compiled and with NumPy alone
within 1e-12, and each replicate within 1e-12 of the reference iteration."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.exceptions import MeasureCaveatWarning, undefined_policy
from binmetrics.inference import _replicates as rs
from binmetrics.inference._counting import COMPILED_ROWS, MOMENT_ORDER, use_compiled
from binmetrics.inference.resampling import bootstrap, bootstrap_tables
from binmetrics.measures import logistic_fit as lf
from binmetrics.measures.registry import iter_measures

numba = pytest.importorskip("numba")

FITS = [m.id for m in iter_measures("probabilistic") if lf.FITS in m.passes]
WIDTH, ORDER = lf.REPLICATE_BINS
#: the steepest slope the replicate bins serve (steeper: full passes, not these sums)
STEEPEST = lf.max_spread(ORDER) / WIDTH


def _compiled() -> Any:
    with use_compiled(True):
        sums = lf.compiled_bin_sums(1, COMPILED_ROWS)
    assert sums is not None
    return sums


def _bins(rng: np.random.Generator, n_bins: int, lo: float, hi: float,
          positive: Any = None, near_one: bool = False) -> lf._Bins:
    """Random replicate bins (of one class each, as a replicate's: pos = S_0 or 0):
    edges on the grid of WIDTH between lo and hi, each bin's moments from 1 to 40 cells
    with counts 0 to 3 (places d near 1 when ``near_one``: the high moments large)."""
    k = np.sort(rng.choice(np.arange(int(lo / WIDTH), int(hi / WIDTH)), n_bins, replace=False))
    c = k * WIDTH
    S = np.zeros((ORDER + 1, n_bins))
    for j in range(n_bins):
        m = int(rng.integers(1, 41))
        d = rng.uniform(0.9 if near_one else 0.0, 1.0, m)
        counts = rng.integers(0, 4, m).astype(np.float64)
        counts[0] = max(counts[0], 1.0)
        for q in range(ORDER + 1):
            S[q, j] = math.fsum(counts * d**q)
    if positive is None:
        positive = rng.random(n_bins) < 0.4
    pos = np.where(positive, S[0], 0.0)
    pos1 = np.where(positive, S[1], 0.0)
    return c, S, pos, pos1, WIDTH


def _points(rng: np.random.Generator, c: np.ndarray) -> list[tuple[float, float]]:
    """(a, b) around and away from the data: eta = a + b c crossing 0 (the residual's
    side switching), steep slopes of both signs up to the bins' limit, slopes near 0."""
    mid = float(np.median(c))
    steep = [STEEPEST * 0.99, -STEEPEST * 0.99, STEEPEST * 0.5]
    return [(0.0, 1.0), (-1.3, 0.4), (2.0, -0.7), (0.3, 1e-3),
            *[(-b * mid + float(rng.normal(0, 1)), b) for b in steep],
            *zip(rng.normal(0, 2, 4).tolist(), rng.uniform(-3, 3, 4).tolist(), strict=True)]


def test_a_bin_alone_gives_numpys_floats() -> None:
    """Each bin's terms are _bin_sums', operation for operation: one bin's sums are the
    same floats (to an ulp or two of each: the exponentials are NumPy's in both, the
    expansion, the residual's side and the products the same), so any derivative term,
    moment or side taken otherwise shows, in the tails too."""
    sums = _compiled()
    rng = np.random.default_rng(0)
    for trial in range(400):
        lo = float(rng.uniform(-40.0, 39.0))
        bins = _bins(rng, 1, lo, lo + 1.0, positive=np.array([trial % 2 == 0]),
                     near_one=trial % 3 == 0)
        b = float(rng.uniform(-STEEPEST, STEEPEST)) * 0.99
        a = float(rng.normal(0.0, 3.0)) - b * float(bins[0][0]) * rng.uniform(0.0, 1.2)
        for slope in (True, False):
            bb = b if slope else 1.0
            want = lf._bin_sums(bins, a, bb, slope)
            got = sums(bins, a, bb, slope)
            np.testing.assert_allclose(got, want, rtol=5e-16, atol=0,
                                       err_msg=f"{trial} {a} {bb} {slope}")


@pytest.mark.parametrize("seed", range(6))
def test_many_bins_sums_agree_with_numpy(seed: int) -> None:
    """Sums over 50 to 3000 bins (tiles of 128 and their remainders): compiled and NumPy
    sum the same terms in other orders, each within a few ulp of the terms' scale per
    term summed: within 1e-13 of it (r sums at most the cases, times |x| for r x; v
    sums at most sum v times |x|^k)."""
    sums = _compiled()
    rng = np.random.default_rng(seed)
    n_bins = (50, 128, 129, 3000, 1000, 777)[seed]
    lo, hi = ((-4.0, 3.0), (-36.0, 36.0), (5.0, 30.0), (-30.0, -8.0), (-8.0, 8.0),
              (-1.0, 1.0))[seed]
    bins = _bins(rng, n_bins, lo, hi, near_one=seed % 2 == 1)
    c, S = bins[0], bins[1]
    cases = float(S[0].sum())
    X = float(np.abs(c).max()) + WIDTH
    for a, b in _points(rng, c):
        for slope in (True, False):
            bb = b if slope else 1.0
            want = lf._bin_sums(bins, a, bb, slope)
            got = sums(bins, a, bb, slope)
            sv = want[2]
            scale = np.array([cases, cases * X, sv, sv * X, sv * X * X])
            np.testing.assert_array_less(np.abs(got - want), 1e-13 * scale + 1e-300,
                                         err_msg=f"{a} {bb} {slope}")


@pytest.mark.parametrize("positive", [True, False])
@pytest.mark.parametrize("side", [1.0, -1.0])
def test_one_class_in_the_tails_to_relative_precision(positive: bool, side: float) -> None:
    """Bins of one class with scores near 1 (side 1) or near 0 (side -1): no sum
    cancels, so each is held to 1e-13 relative. A positive bin near 1 (a negative one
    near 0) has a residual of tot (1 - mu) (tot mu): taken as pos - tot mu it would be
    1e-6 relative off here, where its scale is 1e-10 of the cases."""
    sums = _compiled()
    rng = np.random.default_rng(11 if positive else 12)
    lo, hi = (20.0, 30.0) if side > 0 else (-30.0, -20.0)
    bins = _bins(rng, 600, lo, hi, positive=np.full(600, positive), near_one=True)
    for a, b in [(0.0, 1.0), (0.5, 0.9), (-0.4, 1.2), (0.2, STEEPEST * 0.9)]:
        for slope in (True, False):
            bb = b if slope else 1.0
            want = lf._bin_sums(bins, a, bb, slope)
            got = sums(bins, a, bb, slope)
            if positive and side > 0:  # the residuals tot (1 - mu), far below the cases
                assert 0 < want[0] < 1e-8 * bins[1][0].sum()
            np.testing.assert_allclose(got, want, rtol=1e-13, atol=0,
                                       err_msg=f"{a} {bb} {slope}")


def test_numpy_where_not_compiled() -> None:
    with use_compiled(False):
        assert lf.compiled_bin_sums(10**7, COMPILED_ROWS) is None
    with use_compiled(None):
        assert lf.compiled_bin_sums(COMPILED_ROWS - 1, COMPILED_ROWS) is None
        assert lf.compiled_bin_sums(COMPILED_ROWS, COMPILED_ROWS) is not None
    assert ORDER == MOMENT_ORDER == lf.COMPILED_ORDER


def test_a_lower_order_reads_zeros_above_it() -> None:
    """The table fits' bins (order 3) through the loop written for order 6: their higher
    moments read as zeros, the sums within rounding of NumPy's at order 3, and a step
    after the first reuses the padded moments."""
    sums = _compiled()
    rng = np.random.default_rng(3)
    c, S, pos, pos1, w = _bins(rng, 3000, -4.0, 3.0)
    bins = (c, S[:4].copy(), pos, pos1, w)
    scale = S[0].sum()
    for a, bb in _points(rng, c)[:6]:
        for slope in (True, False):
            want = lf._bin_sums(bins, a, bb, slope)
            np.testing.assert_allclose(sums(bins, a, bb, slope), want, rtol=1e-13,
                                       atol=1e-13 * scale)
    assert not np.allclose(lf._bin_sums(bins, 0.3, 1.1, True),
                           lf._bin_sums((c, S, pos, pos1, w), 0.3, 1.1, True),
                           rtol=1e-15, atol=0)  # order 3 and 6 differ: the test can fail


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> None:
    # the replicate fits from bins at test sizes (beyond 1000 rows inside (0, 1))
    monkeypatch.setattr(lf, "SMALL_TABLE", 1000)


def _data(kind: str, n: int = 30_000, seed: int = 4) -> tuple[np.ndarray, np.ndarray, Any]:
    rng = np.random.default_rng(seed)
    if kind == "near_one":  # scores all near 1: the residuals' side matters
        x = rng.uniform(8.0, 30.0, n)
        y = rng.random(n) < 1.0 / (1.0 + np.exp(-(0.8 * x + 1.0)))
        y[:40] = False
        return y, 1.0 / (1.0 + np.exp(-x)), None
    p = np.clip(rng.beta(2, 5, n), 1e-6, 1 - 1e-6)
    y = rng.random(n) < 1.0 / (1.0 + np.exp(-(0.5 + 0.6 * np.log(p / (1 - p)))))
    w = rng.integers(1, 4, n).astype(np.float64) if kind == "weighted" else None
    return y, p, w


@pytest.mark.parametrize("kind", ["continuous", "weighted", "near_one"])
def test_intervals_compiled_and_numpy_agree(kind: str, small: None,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The three fits' replicates and intervals with the compiled kernels and with NumPy
    alone (draws, counts and moments then NumPy's too) within 1e-12 relative; the
    compiled Newton sums are what the replicates ran on."""
    y, p, w = _data(kind)
    ev = bm.evaluate(y, p, sample_weight=w, threshold=float(np.median(p)))
    kw: dict[str, Any] = dict(method="bootstrap", n_resamples=40, random_state=9,
                              progress=False)
    made: list[bool] = []
    real = lf.compiled_bin_sums

    def spy(*args: Any, **kwargs: Any) -> Any:
        got = real(*args, **kwargs)
        made.append(got is not None)
        return got

    monkeypatch.setattr(lf, "compiled_bin_sums", spy)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MeasureCaveatWarning)
        with use_compiled(True):
            fast = {m: np.array(tuple(ev.ci(m, **kw))) for m in FITS}
        assert made and all(made)
        made.clear()
        with use_compiled(False):
            slow = {m: np.array(tuple(ev.ci(m, **kw))) for m in FITS}
        assert made and not any(made)
    for m in FITS:
        assert np.isfinite(fast[m]).all()
        np.testing.assert_allclose(fast[m], slow[m], rtol=1e-12, atol=0, err_msg=m)


@pytest.mark.parametrize("kind", ["continuous", "near_one"])
def test_compiled_replicates_are_the_reference_iterations(kind: str, small: None) -> None:
    """Each replicate's fits from the compiled sums, against NumPy's and against the
    reference iteration (newton_fit) on the replicate's own rows: 1e-12 relative."""
    y, p, _ = _data(kind, seed=6)
    t = bm.CountTable.from_arrays(y, p)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rs.ResamplingWarning)
        warnings.simplefilter("ignore", MeasureCaveatWarning)
        with use_compiled(True):
            res = bootstrap(t, FITS, n_resamples=10, random_state=1)
        with use_compiled(False):
            ref_numpy = bootstrap(t, FITS, n_resamples=10, random_state=1)
        tables = list(bootstrap_tables(t, 10, random_state=1))
    for m in FITS:
        np.testing.assert_allclose(res.replicates[m], ref_numpy.replicates[m], rtol=1e-12,
                                   atol=0, err_msg=m)
    with undefined_policy("ignore"):
        for i, tab in enumerate(tables):
            x, pos, tot, _ = lf.logit_rows(tab)
            a, b = lf.newton_fit(x, pos, tot, True)  # type: ignore[misc]
            citl, _ = lf.newton_fit(x, pos, tot, False)  # type: ignore[misc]
            got = [res.replicates[m][i] for m in
                   ("calibration_intercept", "calibration_slope", "calibration_in_the_large")]
            np.testing.assert_allclose(got, [a, b, citl], rtol=1e-12, atol=0, err_msg=str(i))
