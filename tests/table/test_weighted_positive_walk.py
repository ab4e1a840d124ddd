"""Weighted tables read their running sums at the groups holding positives only.

``CountTable.positive_groups`` of a weighted table sums TP over the positive groups
alone (the groups between add exact zeros) and FP block by block, and records the
default blocks' carries on the way; ``average_lift`` sums the negative-only runs
between positive groups as one telescoped harmonic gap each; ``ppv_at_tpr`` reads the
cuts that end at a positive group. Each is compared with the walk over every cut it
replaced: the running sums exactly (==), the lift against the per-group formula with
SciPy's digamma (an independent harmonic number), the precision exactly.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import digamma

import binmetrics as bm
from binmetrics.measures.early_recognition import _group_lift
from binmetrics.table import counts


def _data(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(50, 4000))
    y = rng.random(n) < rng.uniform(0.05, 0.8)
    y[:2] = (True, False)
    s = np.round(rng.random(n), int(rng.integers(1, 6)))  # ties from 10 to 1e5 levels
    w = rng.uniform(0.01, 3.0, n) if seed % 2 else rng.integers(1, 5, n).astype(float)
    w[rng.random(n) < 0.05] = 0.0
    return y, s, w


@pytest.mark.parametrize("chunk", [7, 64, 1 << 16])
@pytest.mark.parametrize("seed", range(8))
def test_positive_groups_and_carries_are_the_running_sums(
        seed: int, chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counts, "CHUNK", chunk)
    y, s, w = _data(seed)
    t = bm.evaluate(y, s, sample_weight=w).table
    g = t.positive_groups()
    carries = t.block_carries()
    tp, fp = t.tp, t.fp  # the whole cumulative arrays, built after
    np.testing.assert_array_equal(g.idx, np.flatnonzero(t.pos))
    np.testing.assert_array_equal(g.tp0, tp[g.idx])
    np.testing.assert_array_equal(g.fp0, fp[g.idx])
    at = np.append(np.arange(0, t.n_distinct, chunk), t.n_distinct)
    np.testing.assert_array_equal(carries[0], tp[at])
    np.testing.assert_array_equal(carries[1], fp[at])


def _lift_every_group(t: bm.CountTable) -> float:
    """sum_j g(j)/j walked over every group: g rises by the group's positives across
    its cases (c0, c1], harmonic numbers from SciPy's digamma."""
    tp, fp = t.tp, t.fp
    c = tp + fp
    c0, c1 = c[:-1], c[1:]
    tp0 = tp[:-1]
    q = np.divide(t.pos, c1 - c0, out=np.zeros(t.n_distinct), where=c1 > c0)
    return float(np.sum((tp0 - c0 * q) * (digamma(c1 + 1.0) - digamma(c0 + 1.0))
                        + np.asarray(t.pos, dtype=float)))


@pytest.mark.parametrize("chunk", [5, 1 << 16])  # the lift sums pieces of the groups
@pytest.mark.parametrize("seed", range(10))
def test_average_lift_telescoped_equals_the_walk_of_every_group(
        seed: int, chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counts, "CHUNK", chunk)
    y, s, w = _data(seed)
    for weights in (w, None):
        ev = bm.evaluate(y, s, sample_weight=weights)
        t = ev.table
        want = _lift_every_group(t) / t.P
        assert ev["average_lift"] == pytest.approx(want, rel=1e-12)
    # the same per-group formula of the module, summed group by group
    t = bm.evaluate(y, s, sample_weight=w).table
    tp, fp = t.tp, t.fp
    c = tp + fp
    per_group = _group_lift(tp[:-1], c[:-1], c[1:], np.asarray(t.pos, dtype=float))
    assert bm.evaluate(y, s, sample_weight=w)["average_lift"] == pytest.approx(
        float(np.sum(per_group)) / t.P, rel=1e-13)


def test_average_lift_with_integer_weights_is_that_of_repeated_rows() -> None:
    y, s, w = _data(3)
    w = w.astype(int)  # seed 3: real weights; as whole numbers 0..2
    keep = w > 0
    rows = np.repeat(np.arange(y.size), w)
    a = bm.evaluate(y[keep], s[keep], sample_weight=w[keep].astype(float))["average_lift"]
    b = bm.evaluate(y[rows], s[rows])["average_lift"]
    assert a == pytest.approx(b, rel=1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_ppv_at_tpr_weighted_is_the_best_cut_of_every_cut(seed: int) -> None:
    y, s, w = _data(seed)
    ev = bm.evaluate(y, s, sample_weight=w)
    t = ev.table
    tp, fp = t.tp[1:], t.fp[1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = tp / (tp + fp)
    for floor in (0.0, 0.3, 0.9, 1.0):
        ok = (tp / t.P >= floor) & ~np.isnan(precision)
        assert ev.value("ppv_at_tpr", tpr=floor) == np.max(precision[ok])
