"""Measures that walk the table in blocks give the same values for any block size.

The default block (binmetrics.counts.CHUNK) is far larger than the tables of the
other tests, so here the block size is shrunk to a few groups to put block
boundaries everywhere: inside tied runs, at the first positive, at the end.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.table import counts, sorting


def _all_values(y, s, w, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = bm.evaluate(y, s, sample_weight=w, **kw)
        values = ev.to_dict()
        for m in bm.iter_measures("ranking"):  # parameterised variants too
            for params in ({"fraction": 0.05}, {"fraction": 0.37}, {"fpr": 0.1},
                           {"fpr": 0.5, "at": "bottom"}, {"alpha": 80.5},
                           {"fpr": (0.05, 0.3)}, {"tpr": (0.6, 0.95), "correct": True}):
                if set(params) <= set(m.params):
                    try:  # "fpr" is one rate for some measures, a range for partial_auc
                        values[f"{m.id}{params}"] = ev.value(m, **params)
                    except TypeError:
                        continue
    return values


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("block", [1, 2, 3, 7])
def test_block_size_does_not_change_any_measure(monkeypatch, seed, block):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 60))
    y = rng.random(n) < rng.uniform(0.1, 0.9)
    y[:2] = [True, False]
    s = np.round(rng.random(n), int(rng.integers(1, 3)))
    w = rng.uniform(0.2, 3.0, n) if seed % 3 == 0 else None
    whole = _all_values(y, s, w)
    monkeypatch.setattr(counts, "CHUNK", block)
    blocked = _all_values(y, s, w)
    assert blocked.keys() == whole.keys()
    for key, value in whole.items():
        assert blocked[key] == pytest.approx(value, rel=1e-12, abs=1e-14, nan_ok=True), key


def test_positive_groups_match_the_cumulative_arrays(monkeypatch):
    monkeypatch.setattr(counts, "CHUNK", 4)
    rng = np.random.default_rng(7)
    y = rng.random(50) < 0.3
    s = np.round(rng.random(50), 1)
    w = rng.uniform(0.1, 2.0, 50)
    t = bm.CountTable.from_arrays(y, s, sample_weight=w)
    g = t.positive_groups()
    np.testing.assert_array_equal(g.idx, np.flatnonzero(t.pos > 0))
    np.testing.assert_array_equal(g.tp0, t.tp[g.idx])
    np.testing.assert_array_equal(g.fp0, t.fp[g.idx])
    np.testing.assert_array_equal(g.tp1, t.tp[g.idx + 1])
    blocks = list(t.iter_cuts())
    np.testing.assert_array_equal(np.concatenate([b[1] for b in blocks]), t.tp[1:])
    np.testing.assert_array_equal(np.concatenate([b[2] for b in blocks]), t.fp[1:])


def test_unweighted_counts_are_compact_integers():
    rng = np.random.default_rng(0)
    y = rng.random(1000) < 0.1
    t = bm.CountTable.from_arrays(y, rng.random(1000))
    assert t.pos.dtype == np.uint8 and t.neg.dtype == np.uint8
    t3 = bm.CountTable.from_arrays(np.r_[y, y, y], np.zeros(3000))
    assert t3.pos.dtype == np.uint16 and int(t3.pos[0] + t3.neg[0]) == 3000
    merged = t + t
    assert merged.pos.dtype == np.uint8 and merged.P == 2 * t.P
    tw = bm.CountTable.from_arrays(y, rng.random(1000), sample_weight=np.ones(1000))
    assert tw.pos.dtype == np.float64


@pytest.mark.parametrize("block", [1, 3, 16])
def test_blocked_binary_search_equals_searchsorted(block):
    rng = np.random.default_rng(block)
    keys = np.unique(rng.integers(0, 500, 200).astype(float))
    queries = np.sort(rng.choice(keys, 60))
    np.testing.assert_array_equal(sorting.positions(keys, queries, block=block),
                                  np.searchsorted(keys, queries))


def test_large_table_crosses_blocks_in_the_build():
    # more distinct scores than one block of _positions (1 << 15)
    rng = np.random.default_rng(3)
    n = 70_000
    y = rng.random(n) < 0.2
    s = rng.random(n)
    t = bm.CountTable.from_arrays(y, s)
    order = np.argsort(-s)
    np.testing.assert_array_equal(t.pos, y[order].astype(int))
    np.testing.assert_array_equal(t.scores, s[order])


def _ways() -> list[str]:
    try:
        import numba  # noqa: F401
    except ImportError:
        return ["argsort", "complex"]
    return ["packed", "argsort", "complex"]


@pytest.mark.parametrize("seed", range(10))
def test_every_weighted_sort_builds_the_same_table(seed: int) -> None:
    """sorting.weighted_rows: the packed integer sort (numba), the complex sort and the
    argsort (the CPU and numba decide which runs) give equal tables: bit for bit on
    distinct scores, and within the last bits of a tied group's sums (they add its
    weights in different orders). The negatives' weights are summed as such, not as
    total - positives. Seeds 4-5 put scores 1e-15 apart (the packed key cannot tell
    them apart, so its runs are sorted again) and seeds 6-9 signed zeros, infinities,
    subnormals and scores of every magnitude."""
    rng = np.random.default_rng(seed)
    n = 3000
    y = rng.random(n) < 0.3
    s = rng.random(n)
    if seed % 2:
        s = np.round(s, 2)  # tied groups
    if seed in (4, 5):  # scores of every magnitude widen the key's span 2^11-fold
        s = 0.5 + rng.integers(0, 400 if seed == 4 else 40, n) * 1e-15
        s[:100] = rng.normal(size=100) * 10.0 ** rng.integers(-300, 300, 100)
    if seed in (6, 7):
        s = rng.choice([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, 5e-324, -5e-324, 0.3], n)
    if seed in (8, 9):
        s = rng.normal(size=n) * 10.0 ** rng.integers(-300, 300, n)
    w = rng.uniform(0.1, 3.0, n) * 10.0 ** rng.integers(-3, 4, n)
    w[rng.random(n) < 0.05] = 0.0
    if seed >= 6:  # the packed sort reads -0.0 as 0.0 (NumPy's ways keep its sign)
        w[rng.random(n) < 0.02] = -0.0
    tied = np.unique(s).size < n
    got = [sorting.weighted_rows(y, s, w, way=way) for way in _ways()]  # type: ignore[arg-type]
    a = got[0]
    for b in got[1:]:
        np.testing.assert_array_equal(a[0], b[0])
        if tied:
            np.testing.assert_allclose(a[1], b[1], rtol=1e-13, atol=0)
            np.testing.assert_allclose(a[2], b[2], rtol=1e-13, atol=0)
        else:
            np.testing.assert_array_equal(a[1], b[1])
            np.testing.assert_array_equal(a[2], b[2])
    want_pos = np.array([w[y & (s == v)].sum() for v in a[0]])
    want_neg = np.array([w[~y & (s == v)].sum() for v in a[0]])
    np.testing.assert_allclose(a[1], want_pos, rtol=1e-13, atol=0)
    np.testing.assert_allclose(a[2], want_neg, rtol=1e-13, atol=0)
    assert np.all(np.diff(a[0]) < 0)
    for arr in (x for r in got for x in r):
        assert arr.flags.c_contiguous and arr.dtype == np.float64
    for way, r in zip(_ways(), got, strict=True):
        if seed < 6 or way == "packed":  # NumPy's ways keep a weight of -0.0 as such
            for arr in r[1:]:
                assert not np.signbit(arr).any()  # no -0.0 from a zero weight's sign


def test_the_packed_sort_adds_a_tied_score_in_row_order() -> None:
    """The packed sort keeps a tied score's cases in row order (the row number is the
    key's low bits), so its table is bit for bit that of a stable argsort; and a run of
    scores its key cannot tell apart is sorted again (counted)."""
    pytest.importorskip("numba")
    from binmetrics.table import _sorting_numba as loops

    rng = np.random.default_rng(3)
    n = 5000
    s = 0.25 + rng.integers(0, 60, n) * 2e-16  # 60 scores 4 ulps apart
    s[:500] = rng.random(500)  # a span of 2^62 keys: the last 11 bits are left out
    s[500:530] = np.where(rng.random(30) < 0.5, 0.0, -0.0)  # one key: ties in row order
    s[530:562] = 0.75 + (np.arange(32) % 2) * 2.3e-16  # a run of 32: 2 scores, 16 each
    y = rng.random(n) < 0.4
    y[530:562] = True
    w = rng.uniform(0.1, 1.0, n) * 10.0 ** rng.integers(-8, 8, n)
    _same_as_a_stable_argsort(y, s, w)
    zeros = rng.choice([0.0, -0.0, 5e-324], n)  # the two zeros one key (no bits left out)
    _same_as_a_stable_argsort(y, zeros, w)
    keys = np.sort(-s)
    bits = loops.index_bits(n)
    packed = np.empty(n, dtype=np.uint64)
    dropped = loops.packed_order(s, bits, packed)
    packed.sort()
    wy, wn = np.empty(n), np.empty(n)
    tiny = np.array([0.0, -0.0, 5e-324, -5e-324, -0.0])  # +-0.0 one key, the rest apart
    top = np.empty(5, dtype=np.uint64)
    assert loops.packed_order(tiny, 3, top) == 0
    assert [int(v) >> 3 for v in top] == [1, 1, 0, 3, 1]  # -0.0 not at its bits (2)
    # the 4,470 cases near 0.25 sorted by a merge sort, the 32 near 0.75 in place
    assert dropped > 0 and loops.weights_in_order(packed, bits, s, y, w, keys, wy, wn) == 2


def _same_as_a_stable_argsort(y: np.ndarray, s: np.ndarray, w: np.ndarray) -> None:
    got = sorting.weighted_rows(y, s, w, way="packed")
    order = np.argsort(-s, kind="stable")  # ties in row order
    starts = sorting.group_starts(-s[order])
    assert starts is not None
    want = (s[order][starts], np.add.reduceat(np.where(y, w, 0.0)[order], starts),
            np.add.reduceat(np.where(y, 0.0, w)[order], starts))
    for a, b in zip(got, want, strict=True):
        np.testing.assert_array_equal(a, b)  # bit for bit


def test_an_unknown_sort_is_refused() -> None:
    with pytest.raises(ValueError, match="way must be 'packed', 'argsort' or 'complex'"):
        sorting.weighted_rows(np.array([True]), np.array([0.5]), np.array([1.0]),
                              way="radix")  # type: ignore[arg-type]


def test_the_packed_sort_needs_numba(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BINMETRICS_COMPILED", "0")
    with pytest.raises(RuntimeError, match="needs numba"):
        sorting.weighted_rows(np.array([True]), np.array([0.5]), np.array([1.0]),
                              way="packed")
