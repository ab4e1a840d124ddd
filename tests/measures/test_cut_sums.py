"""The run-based sums that spare the table-sized temporaries (issue 14's speed targets):
counts at many cuts without the cumulative arrays, and the reliability histogram by
runs of the sorted table, each against the direct computation on random data with ties,
weights and scores on or one ulp beside the bin edges."""

from __future__ import annotations

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.curves.calibration import _histogram
from binmetrics.table.counts import CountTable


def _scores(rng: np.random.Generator, n: int, kind: int) -> np.ndarray:
    if kind == 0:
        return rng.random(n)
    if kind == 1:
        return np.round(rng.random(n), 2)
    edges = rng.integers(0, 21, n) / 20
    if kind == 2:
        return edges
    return np.clip(np.nextafter(edges, rng.choice([0.0, 1.0], n)), 0, 1)


@pytest.mark.parametrize("seed", range(40))
def test_prefix_sums_at_equal_the_cumulative_arrays(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    y, s = rng.integers(0, 2, n), _scores(rng, n, seed % 4)
    w = rng.random(n) if seed % 3 == 0 else None
    k = rng.integers(0, np.unique(s).size + 1, size=int(rng.integers(1, 30)))
    fresh = CountTable.from_arrays(y, s, sample_weight=w)
    tp, fp = fresh.prefix_sums_at(k)
    ref = CountTable.from_arrays(y, s, sample_weight=w)
    np.testing.assert_array_equal(tp, ref.tp[k])
    np.testing.assert_array_equal(fp, ref.fp[k])


@pytest.mark.parametrize("seed", range(40))
def test_reliability_histogram_equals_bincount(seed: int) -> None:
    """Bin min(floor(20 p), 19), as np.bincount of the rows assigns it."""
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(1, 300))
    y, s = rng.integers(0, 2, n), _scores(rng, n, seed % 4)
    w = rng.random(n) if seed % 2 else None
    ref = np.bincount(np.minimum((s * 20).astype(np.intp), 19), w, 20)
    got = _histogram(CountTable.from_arrays(y, s, sample_weight=w), 20)
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12)
    if w is None:
        np.testing.assert_array_equal(got, ref)
    if np.unique(y).size == 2:
        ev = bm.evaluate(y, s, sample_weight=w, threshold=float(np.median(s)))  # any inside
        np.testing.assert_allclose(ev.reliability().histogram,
                                   ref, rtol=1e-12, atol=1e-12)
