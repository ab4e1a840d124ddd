"""The fast logistic calibration fits (measures/logistic_fit.py, issue 18): compressed
start plus exact full-data Newton steps agree with the reference iteration on the full
arrays (to 1e-10 relative), with ties, weights and p of exactly 0 or 1, and fall back
to it on separated data."""

from __future__ import annotations

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.measures import logistic_fit as lf


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    # the fast path at test sizes: blocks of about 12 rows, as at n = 1e6 by default,
    # and passes over several chunks (each carrying its sums into the next)
    from binmetrics.table import counts

    monkeypatch.setattr(lf, "SMALL_TABLE", 1000)
    monkeypatch.setattr(lf, "N_BLOCKS", 4096)
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
    assert got_slope == pytest.approx(ref_slope, rel=1e-10)
    assert got_citl == pytest.approx(ref_citl, rel=1e-10)
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
