"""The bootstrap's logistic calibration fits from bins of the cells
(binmetrics.inference._replicate_fits) on scores all near 1, where each replicate's
sum(y - mu) is a small difference of large totals: each replicate agrees with the
reference iteration on its own table (tables of at most SMALL_TABLE rows inside (0, 1)
take it) to 1e-12 relative, stratified or not, weighted or not."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.exceptions import MeasureCaveatWarning, undefined_policy
from binmetrics.inference import _replicates as rs
from binmetrics.inference.resampling import bootstrap, bootstrap_tables
from binmetrics.measures import logistic_fit as lf
from binmetrics.measures.registry import iter_measures

FITS = [m.id for m in iter_measures("probabilistic") if lf.FITS in m.passes]


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("stratified", [True, False])
def test_replicates_of_scores_near_one(weighted: bool, stratified: bool,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(7)
    x = rng.uniform(8.0, 30.0, 30_000)
    y = rng.random(x.size) < 1.0 / (1.0 + np.exp(-(0.8 * x + 1.0)))
    y[:40] = False
    w = rng.integers(1, 4, x.size).astype(np.float64) if weighted else None
    t = bm.CountTable.from_arrays(y, 1.0 / (1.0 + np.exp(-x)), sample_weight=w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rs.ResamplingWarning)
        warnings.simplefilter("ignore", MeasureCaveatWarning)
        with monkeypatch.context() as m:  # the bins' path at this size
            m.setattr(lf, "SMALL_TABLE", 1000)
            res = bootstrap(t, FITS, n_resamples=8, random_state=3, stratified=stratified)
        tables = list(bootstrap_tables(t, 8, random_state=3, stratified=stratified))
    with undefined_policy("ignore"):  # the reference iteration on each replicate table
        ref = {m: np.array([bm.get_measure(m).func(r) for r in tables]) for m in FITS}
    for m in FITS:
        assert np.isfinite(ref[m]).all()
        np.testing.assert_allclose(res.replicates[m], ref[m], rtol=1e-12, atol=0, err_msg=m)
