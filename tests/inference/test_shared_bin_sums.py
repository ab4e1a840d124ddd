"""ECE and MCE at the same bins share a bootstrap block's per-bin sums
(binmetrics.inference._replicate_bins): asked together, each measure's replicates are
those it has asked alone (neither alters the sums the other reads), at the same and at
different bins, and those of the replicate tables; weighted or not."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.exceptions import MeasureCaveatWarning, undefined_policy
from binmetrics.inference import _replicates as rs
from binmetrics.inference.resampling import bootstrap, bootstrap_tables


def _run(t: bm.CountTable, ids: list[str], params: dict | None = None) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rs.ResamplingWarning)
        warnings.simplefilter("ignore", MeasureCaveatWarning)
        res = bootstrap(t, ids, n_resamples=24, random_state=11, params=params)
    return {m: res.replicates[m] for m in ids}


@pytest.mark.parametrize("weighted", [False, True])
def test_ece_and_mce_together_are_each_alone(weighted: bool) -> None:
    rng = np.random.default_rng(2)
    p = np.round(rng.beta(2, 3, 3000), 3)
    y = rng.random(p.size) < p
    w = rng.integers(1, 4, p.size).astype(np.float64) if weighted else None
    t = bm.CountTable.from_arrays(y, p, sample_weight=w)
    both = _run(t, ["ece", "mce"])
    for m in ("ece", "mce"):
        np.testing.assert_array_equal(both[m], _run(t, [m])[m], err_msg=m)
    # different bins: separate sums
    params = {"ece": {"n_bins": 7}, "mce": {"n_bins": 12}}
    both = _run(t, ["ece", "mce"], params)
    for m in ("ece", "mce"):
        np.testing.assert_array_equal(both[m], _run(t, [m], {m: params[m]})[m], err_msg=m)
    # and the replicate tables' own values
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rs.ResamplingWarning)
        tables = list(bootstrap_tables(t, 24, random_state=11))
    with undefined_policy("ignore"):
        for m in ("ece", "mce"):
            want = [bm.get_measure(m).func(r, **params[m]) for r in tables]
            np.testing.assert_allclose(both[m], want, rtol=1e-12, atol=1e-15, err_msg=m)
