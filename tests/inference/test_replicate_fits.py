"""The bootstrap of the logistic calibration fits from the cells' counts
(binmetrics.inference._replicate_fits): each replicate's fits agree with fit_table on the
replicate's table and with the reference iteration on its rows (1e-12 relative), with
ties, weights, p of exactly 0 and 1, stratified or not; no replicate table is built
except for unusual replicates, which take the table path (NaN where it gives NaN); the
intervals are the table path's; the replicates do not depend on the measures asked nor
on the threads."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import binmetrics as bm
from binmetrics import backends
from binmetrics.exceptions import MeasureCaveatWarning, UndefinedMeasureWarning, undefined_policy
from binmetrics.inference import _replicate_fits as rf
from binmetrics.inference import _replicates as rs
from binmetrics.inference.resampling import bootstrap, bootstrap_tables
from binmetrics.measures import logistic_fit as lf
from binmetrics.measures.registry import iter_measures

FITS = [m.id for m in iter_measures("probabilistic") if lf.FITS in m.passes]


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> None:
    # the compressed fits at test sizes: beyond 1000 rows, blocks of about 7 rows (as
    # at n = 1e6 by default), passes over several chunks
    from binmetrics.table import counts

    monkeypatch.setattr(lf, "SMALL_TABLE", 1000)
    monkeypatch.setattr(lf, "N_BLOCKS", 4096)
    monkeypatch.setattr(counts, "CHUNK", 4099)


def _table(kind: str, n: int = 30_000, seed: int = 0) -> bm.CountTable:
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.02, 0.98, n)
    y = rng.random(n) < 1.0 / (1.0 + np.exp(-(0.4 + 0.7 * np.log(p / (1 - p)))))
    w = None
    if kind == "tied":
        p = np.round(p, 4)  # about 9,600 distinct scores, several cases a cell
    elif kind == "weighted":
        w = rng.integers(1, 5, n).astype(np.float64)
    elif kind == "fractional":
        w = rng.uniform(0.5, 3.0, n)
    elif kind == "extreme":  # left out of the fits
        p[:60], p[60:120] = 0.0, 1.0
    return bm.CountTable.from_arrays(y, p, sample_weight=w)


def _reference(tables: list[bm.CountTable]) -> dict[str, np.ndarray]:
    with undefined_policy("ignore"):
        return {m: np.array([bm.get_measure(m).func(t) for t in tables]) for m in FITS}


def _bootstrap(t: bm.CountTable, measures: Any, **kw: Any) -> Any:
    with warnings.catch_warnings():  # non-integer weights read as frequencies; the
        warnings.simplefilter("ignore", rs.ResamplingWarning)  # cases at p = 0 or 1
        warnings.simplefilter("ignore", MeasureCaveatWarning)
        return bootstrap(t, measures, **kw)


def _tables(t: bm.CountTable, n: int, **kw: Any) -> list[bm.CountTable]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rs.ResamplingWarning)
        return list(bootstrap_tables(t, n, **kw))


@pytest.fixture
def no_tables(tables_built: list[int]) -> list[int]:
    """The replicates for which a block's tables were built (there should be none)."""
    return tables_built


@pytest.mark.parametrize("kind", ["continuous", "tied", "weighted", "fractional", "extreme"])
@pytest.mark.parametrize("stratified", [True, False])
def test_each_replicate_agrees_with_fit_table_on_its_table(
        kind: str, stratified: bool, small: None, no_tables: list[int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    t = _table(kind)
    res = _bootstrap(t, FITS, n_resamples=12, random_state=3, stratified=stratified)
    assert no_tables == []  # every replicate from its cell counts
    tables = _tables(t, 12, random_state=3, stratified=stratified)
    # fit_table's compressed path stops within about 1e-12 of the maximum (its last
    # step below FINAL_STEP = 1e-6 leaves an error near 0.3 step^2) ...
    ref = _reference(tables)
    for m in FITS:
        np.testing.assert_allclose(res.replicates[m], ref[m], rtol=1e-11, atol=0, err_msg=m)
    # ... and on tables of at most SMALL_TABLE rows it is the reference iteration, run
    # to steps of 1e-11: the maximum to rounding
    monkeypatch.undo()
    ref = _reference(_tables(t, 12, random_state=3, stratified=stratified))
    for m in FITS:
        np.testing.assert_allclose(res.replicates[m], ref[m], rtol=1e-12, atol=0, err_msg=m)


def _table_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rf._FitsPlan, "of", classmethod(lambda cls, sampler: None))


@pytest.mark.parametrize("interval", ["percentile", "bca", "basic"])
def test_the_intervals_are_the_table_paths(interval: str, small: None,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # coefficients away from 0 (the fits' precision is absolute: about 1e-13)
    rng = np.random.default_rng(4)
    p = np.clip(rng.beta(2, 5, 20_000), 1e-6, 1 - 1e-6)
    y = rng.random(p.size) < 1.0 / (1.0 + np.exp(-(0.5 + 0.6 * np.log(p / (1 - p)))))
    kw: dict[str, Any] = dict(method="bootstrap", n_resamples=40, random_state=9,
                              progress=False, kind=interval)
    fast = {m: np.array(tuple(bm.evaluate(y, p).ci(m, **kw))) for m in FITS}
    # the table path with the default sizes: 20,000 rows take the reference iteration
    monkeypatch.undo()
    _table_path(monkeypatch)
    slow = {m: np.array(tuple(bm.evaluate(y, p).ci(m, **kw))) for m in FITS}
    for m in FITS:
        assert np.isfinite(fast[m]).all()
        np.testing.assert_allclose(fast[m], slow[m], rtol=1e-12, atol=0, err_msg=m)


def _degenerate() -> bm.CountTable:
    """Positives: 3 strictly inside (0, 1), one of them among the negatives' scores,
    and 297 at p = 1 exactly. A replicate that does not draw that one separates the
    classes (the slope fit diverges: NaN); one that draws none of the three has one
    class inside (0, 1) (undefined: NaN); the full data are neither."""
    rng = np.random.default_rng(5)
    p_neg = rng.uniform(0.01, 0.5, 3000)
    p = np.concatenate([[0.2, 0.8, 0.9], np.ones(297), p_neg])
    y = np.concatenate([np.ones(300, bool), np.zeros(3000, bool)])
    return bm.CountTable.from_arrays(y, p)


def test_separated_and_undefined_replicates_are_nan_as_on_tables(
        small: None, monkeypatch: pytest.MonkeyPatch, no_tables: list[int]) -> None:
    t = _degenerate()
    B = 60
    monkeypatch.setattr(rs, "_BLOCK_ELEMENTS", 1)  # one replicate a block
    res = _bootstrap(t, FITS, n_resamples=B, random_state=2)
    slope = res.replicates["calibration_slope"]
    assert np.isfinite(lf.fit_table(t)[0]).all()  # type: ignore[arg-type]
    undefined = np.isnan(res.replicates["calibration_in_the_large"])
    assert 0 < undefined.sum() and 0 < (np.isnan(slope) & ~undefined).sum()
    assert np.isfinite(slope).sum() > 10
    # only the unusual replicates (separated) take the table path
    assert 0 < sum(no_tables) < B
    ref = _reference(_tables(t, B, random_state=2))
    for m in FITS:
        np.testing.assert_array_equal(np.isnan(res.replicates[m]), np.isnan(ref[m]), m)
        ok = ~np.isnan(ref[m])
        np.testing.assert_allclose(res.replicates[m][ok], ref[m][ok], rtol=1e-12, atol=0)
    # the usual handling: the interval from the defined replicates, one warning
    with pytest.warns(UndefinedMeasureWarning, match=r"calibration_slope is undefined \(NaN\) "
                      r"in \d+ of 60 bootstrap"):
        low, high = res.ci("calibration_slope")
    assert low == pytest.approx(np.quantile(slope[~np.isnan(slope)], 0.025), rel=1e-12)
    assert high == pytest.approx(np.quantile(slope[~np.isnan(slope)], 0.975), rel=1e-12)


def test_same_replicates_whatever_the_measures_and_threads(
        small: None, monkeypatch: pytest.MonkeyPatch) -> None:
    t = _table("weighted", seed=8)
    mixed = [*FITS, "brier", "auc", "mcc", "ece"]
    monkeypatch.setattr(rs, "_BLOCK_ELEMENTS", 4 * 30_000)  # several replicates a block
    monkeypatch.setattr(rs, "THREAD_ROWS", 1)
    monkeypatch.setattr(backends, "threads", lambda: 2)
    every = _bootstrap(t, mixed, n_resamples=40, random_state=11)
    monkeypatch.setattr(backends, "threads", lambda: 1)
    alone = {m: _bootstrap(t, m, n_resamples=40, random_state=11) for m in FITS}
    for m in FITS:
        np.testing.assert_array_equal(alone[m].replicates[m], every.replicates[m], m)
    # the path is taken at this size (the values differ from the table path's in the
    # last digits)
    _table_path(monkeypatch)
    tables = _bootstrap(t, FITS, n_resamples=40, random_state=11)
    assert not np.array_equal(tables.replicates["calibration_slope"],
                              every.replicates["calibration_slope"])


@pytest.mark.slow
@pytest.mark.parametrize("stratified", [True, False])
def test_default_sizes(stratified: bool, no_tables: list[int]) -> None:
    """At the library's own sizes (the compressed fits beyond 65,536 rows)."""
    t = _table("continuous", n=150_000, seed=1)
    res = _bootstrap(t, FITS, n_resamples=6, random_state=0, stratified=stratified)
    assert no_tables == []
    tables = _tables(t, 6, random_state=0, stratified=stratified)
    ref = _reference(tables)
    for m in FITS:
        np.testing.assert_allclose(res.replicates[m], ref[m], rtol=1e-11, atol=0, err_msg=m)
    for i, tab in enumerate(tables):  # the reference iteration to convergence
        x, pos, tot, _ = lf.logit_rows(tab)
        a, b = lf.newton_fit(x, pos, tot, True)  # type: ignore[misc]
        citl, _ = lf.newton_fit(x, pos, tot, False)  # type: ignore[misc]
        got = [res.replicates[m][i] for m in
               ("calibration_intercept", "calibration_slope", "calibration_in_the_large")]
        np.testing.assert_allclose(got, [a, b, citl], rtol=1e-12, atol=0)


@pytest.mark.parametrize("kind", ["continuous", "fractional"])
def test_the_bins_serve_and_the_steep_slope_path_agrees(
        kind: str, small: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Replicates are fitted on the moments of their bins of logit(p), not by the
    compressed-blocks-and-full-passes path; forced onto that path (as a slope too steep
    for the bins is), they give the same fits to 1e-12."""
    t = _table(kind)
    calls: list[int] = []
    real = rf._FitsPlan._fits
    monkeypatch.setattr(rf._FitsPlan, "_fits",
                        lambda self, rows: calls.append(1) or real(self, rows))
    on_bins = _bootstrap(t, FITS, n_resamples=8, random_state=4)
    assert calls == []
    monkeypatch.setattr(lf, "max_spread", lambda order: 0.0)
    steep = _bootstrap(t, FITS, n_resamples=8, random_state=4)
    assert len(calls) == 8
    for m in FITS:
        np.testing.assert_allclose(on_bins.replicates[m], steep.replicates[m], rtol=1e-12,
                                   atol=0, err_msg=m)
