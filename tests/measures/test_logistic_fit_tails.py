"""The fast logistic calibration fits (measures/logistic_fit.py) on extreme data: scores
all near 1 (where expit(a + b x) is near 1 for every row, so that sum(y - mu) cancels),
near 0, negative and steep slopes, extreme intercepts, huge and tiny weights; each
against the reference iteration on the full arrays to 1e-12 relative (issue 32)."""

from __future__ import annotations

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.measures import logistic_fit as lf


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    from binmetrics.table import counts

    monkeypatch.setattr(lf, "SMALL_TABLE", 1000)
    monkeypatch.setattr(counts, "CHUNK", 4099)


def _check(t: bm.CountTable) -> None:
    x, pos, tot, _ = lf.logit_rows(t)
    ref_slope, ref_citl = lf.newton_fit(x, pos, tot, True), lf.newton_fit(x, pos, tot, False)
    slope, citl, _ = lf.fit_table(t)
    for got, want in ((slope, ref_slope), (citl, ref_citl)):
        assert (got is None) == (want is None)
        if want is not None:
            assert got == pytest.approx(want, rel=1e-12)


def _upper_tail(seed: int, n: int, lo: float, hi: float) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.uniform(lo, hi, n)
    y = rng.random(n) < 1.0 / (1.0 + np.exp(-(0.8 * x + 1.0)))
    y[:5] = False
    return y, 1.0 / (1.0 + np.exp(-x))


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize(("lo", "hi"), [(5.0, 15.0), (20.0, 36.0)])
def test_scores_all_near_one(lo: float, hi: float, weighted: bool, small_blocks: None) -> None:
    y, p = _upper_tail(0, 60_000, lo, hi)
    w = np.random.default_rng(1).uniform(0.5, 2.0, p.size) if weighted else None
    _check(bm.CountTable.from_arrays(y, p, sample_weight=w))


@pytest.mark.parametrize("weighted", [False, True])
def test_scores_all_near_zero(weighted: bool, small_blocks: None) -> None:
    y, p = _upper_tail(2, 60_000, 5.0, 15.0)
    w = np.random.default_rng(1).uniform(0.5, 2.0, p.size) if weighted else None
    _check(bm.CountTable.from_arrays(~y, 1.0 - p, sample_weight=w))


@pytest.mark.parametrize("b", [-6.0, -1.5, 0.3, 5.5, 6.0, 9.0])
def test_slopes_either_side_of_the_bins_limit(b: float, small_blocks: None) -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(0, 0.5, 20_000)
    y = rng.random(x.size) < 1.0 / (1.0 + np.exp(-b * x))
    _check(bm.CountTable.from_arrays(y, 1.0 / (1.0 + np.exp(-x))))


@pytest.mark.parametrize("scale", [1e-200, 1.0, 1e200])
def test_huge_and_tiny_weights(scale: float, small_blocks: None) -> None:
    rng = np.random.default_rng(4)
    x = rng.normal(0, 1, 5000)
    y = rng.random(x.size) < 1.0 / (1.0 + np.exp(-x))
    w = rng.uniform(0, 1, x.size) * scale
    _check(bm.CountTable.from_arrays(y, 1.0 / (1.0 + np.exp(-x)), sample_weight=w))


def test_an_extreme_intercept_and_p_within_1e_300_of_0(small_blocks: None) -> None:
    rng = np.random.default_rng(5)
    x = rng.normal(0, 1, 5000)
    y = rng.random(x.size) < 1.0 / (1.0 + np.exp(-(0.5 * x - 8.0)))
    y[:3] = True
    p = 1.0 / (1.0 + np.exp(-x))
    p[100:400] = 1e-300
    p[400:500] = 1.0 - 2.0**-53
    _check(bm.CountTable.from_arrays(y, p))


@pytest.mark.parametrize("seed", [2, 4])
def test_a_steep_slope_from_the_bins_means_to_1e_12(seed: int, small_blocks: None) -> None:
    """A slope too steep for the bins takes exact passes from the bins' means (about
    1e-6 off); a last step of 1e-6 left the slope 1.2e-12 relative off here."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 0.5, 20_000)
    y = rng.random(x.size) < 1.0 / (1.0 + np.exp(-8.0 * x))
    t = bm.CountTable.from_arrays(y, 1.0 / (1.0 + np.exp(-x)))
    xr, pos, tot, _ = lf.logit_rows(t)
    want = lf.newton_fit(xr, pos, tot, True)
    got = lf.fit_table(t)[0]
    assert want is not None and got is not None
    assert got[1] == pytest.approx(want[1], rel=1e-13)
    assert got[0] == pytest.approx(want[0], rel=1e-12, abs=1e-15)  # an intercept near 0
