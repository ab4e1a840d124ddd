"""Measures that read only the blocks they need give what walking from block 0 gave.

``CountTable.block_carries`` holds the running sums at each block boundary, so
``iter_cuts(first_block=k)`` starts at block k with the sums a walk from the top
would carry there; tpr_at_fpr, tnr_at_tpr, roc_enrichment and the
enrichment factor find their block by a binary search on the rates at the block
ends. The block size is shrunk (7 and 64 groups) so that the tables span many
blocks, and the values are compared exactly (==) with the walks from block 0 that
these measures made before (kept here) and with the whole cumulative arrays.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.measures import early_recognition as er
from binmetrics.measures import roc_points as rp
from binmetrics.table import counts
from binmetrics.table.counts import CountTable, FloatArray


# --- the walks from block 0, as the measures made them before the carries -------------
def _walk_cut_counts(t: CountTable, on: str, values: list[float]) -> tuple[list[int], list[int]]:
    if on == "tpr":
        g = t.positive_groups()
        rate = g.tp1 / t.P
        out = []
        for side in ("left", "right"):
            j = np.searchsorted(rate, values, side=side)  # type: ignore[call-overload]
            out.append([0 if side == "left" and v <= 0.0
                        else int(g.idx[k]) + 1 if k < rate.size else t.n_distinct + 1
                        for k, v in zip(j.tolist(), values, strict=True)])
        return out[0], out[1]
    below = [int(0.0 < v) for v in values]
    upto = [int(0.0 <= v) for v in values]
    for _, _, fp, _, _ in t.iter_cuts():
        rate = fp / t.N
        for i, v in enumerate(values):
            below[i] += int(np.searchsorted(rate, v, side="left"))
            upto[i] += int(np.searchsorted(rate, v, side="right"))
        if rate[-1] > max(values):
            break
    return below, upto


def _walk_cut_rates(t: CountTable, a: int, b: int) -> tuple[FloatArray, FloatArray]:
    tp, fp = np.zeros(b - a), np.zeros(b - a)
    for start, btp, bfp, _, _ in t.iter_cuts():
        lo, hi = max(a, start + 1), min(b, start + 1 + btp.size)
        if lo < hi:
            tp[lo - a:hi - a] = btp[lo - start - 1:hi - start - 1]
            fp[lo - a:hi - a] = bfp[lo - start - 1:hi - start - 1]
        if start + 1 + btp.size >= b:
            break
    return tp / t.P, fp / t.N


def _walk_read_rate(t: CountTable, on: str, x: float, *, last: bool) -> float:
    below, upto = _walk_cut_counts(t, on, [x])
    size = t.n_distinct + 1
    spans = sorted((max(k - 2, 0), min(k + 2, size)) for k in (below[0], upto[0]))
    if spans[1][0] <= spans[0][1]:
        spans = [(spans[0][0], max(spans[0][1], spans[1][1]))]
    tpr = np.concatenate([_walk_cut_rates(t, a, b)[0] for a, b in spans])
    fpr = np.concatenate([_walk_cut_rates(t, a, b)[1] for a, b in spans])
    xs, ys = (fpr, tpr) if on == "fpr" else (tpr, fpr)
    return float(rp.read_curve(xs, ys, np.array([x]), last=last)[0][0])


def _walk_positives_in_top(t: CountTable, x: float) -> float:
    tp_before = c_before = 0.0
    for _, tp, fp, p, _ in t.iter_cuts():
        c = tp + fp
        if c[-1] >= x:
            i = int(np.searchsorted(c, x, side="left"))
            c0 = c_before if i == 0 else float(c[i - 1])
            tp0 = tp_before if i == 0 else float(tp[i - 1])
            return tp0 + (x - c0) * (float(p[i]) / (float(c[i]) - c0))
        tp_before, c_before = float(tp[-1]), float(c[-1])
    return t.P


def _walk_roc_enrichment(t: CountTable, x: float, at: str) -> float:
    f0 = t0 = 0.0
    first_at_x: float | None = None
    f1 = t1 = float("nan")
    for _, tp, fp, _, _ in t.iter_cuts():
        f, r = fp / t.N, tp / t.P
        if first_at_x is None:
            j = int(np.searchsorted(f, x, side="left"))
            if j < f.size and f[j] == x:
                first_at_x = float(r[j])
        i = int(np.searchsorted(f, x, side="right"))
        if i > 0:
            f0, t0 = float(f[i - 1]), float(r[i - 1])
        if i < f.size:
            f1, t1 = float(f[i]), float(r[i])
            break
    if f0 == x:
        top = t0 if at == "top" or first_at_x is None else first_at_x
        return top / x
    return (t0 + (x - f0) * (t1 - t0) / (f1 - f0)) / x


# --- the tables --------------------------------------------------------------------------
def _tables(seed: int) -> Iterator[tuple[str, np.ndarray, np.ndarray, np.ndarray | None]]:
    """(kind, y, s, w): distinct scores, weighted, heavily tied, and labels in long runs
    (vertical and horizontal runs of the ROC curve that cross many blocks)."""
    rng = np.random.default_rng(seed)
    n = 700
    y = rng.random(n) < 0.3
    s = y * 0.4 + rng.random(n)
    yield "distinct", y, s, None
    yield "weighted", y, s, rng.uniform(0.1, 3.0, n)
    tied = np.round(s, 2)
    yield "tied", y, tied, None
    yield "tied weighted", y, tied, rng.uniform(0.1, 3.0, n)
    runs = np.repeat(rng.random(n // 35) < 0.4, 35)
    runs[:3] = [False, True, False]
    yield "runs", runs, -np.arange(runs.size, dtype=float), None
    yield "runs weighted", runs, -np.arange(runs.size, dtype=float), rng.uniform(0.1, 3.0,
                                                                                  runs.size)


def _some_edges(t: CountTable, size: int, rng: np.random.Generator) -> np.ndarray:
    """Cuts at block boundaries: the first blocks', the last ones' and a few between."""
    edges = np.arange(0, t.n_distinct + 1, size)
    return np.unique(np.concatenate((edges[:3], edges[-3:], rng.choice(edges, 6))))


def _probes(t: CountTable, rate: np.ndarray, size: int, rng: np.random.Generator) -> list[float]:
    """Rates to ask for: those at and next to block boundaries (cuts k * size and
    k * size +- 1, for some k), some other cuts' rates, random rates, 0 and 1."""
    edges = _some_edges(t, size, rng)
    near = np.clip(np.concatenate((edges - 1, edges, edges + 1)), 0, t.n_distinct)
    some = rng.choice(rate, 10)
    return sorted({0.0, 1.0, *rate[near].tolist(), *some.tolist(), *rng.random(5).tolist()})


@pytest.mark.parametrize("size", [7, 64])
@pytest.mark.parametrize("seed", range(2))
def test_targeted_reads_equal_the_walks_from_block_0(monkeypatch: pytest.MonkeyPatch,
                                                     size: int, seed: int) -> None:
    monkeypatch.setattr(counts, "CHUNK", size)
    rng = np.random.default_rng(100 + seed)
    for kind, y, s, w in _tables(seed):
        t = bm.CountTable.from_arrays(y, s, sample_weight=w)
        assert t.n_distinct > 8 * size or size == 64, kind  # many blocks
        whole = bm.CountTable.from_arrays(y, s, sample_weight=w)  # its t.tp / t.fp built
        fpr, tpr = whole.fp / whole.N, whole.tp / whole.P
        for x in _probes(t, fpr, size, rng):
            got = rp.tpr_at_fpr(t, fpr=x)
            assert got == _walk_read_rate(t, "fpr", x, last=True), (kind, x)
            assert got == float(rp.read_curve(fpr, tpr, np.array([x]), last=True)[0][0])
            if x > 0.0:
                for at in ("top", "bottom"):
                    assert er.roc_enrichment(t, fpr=x, at=at) == _walk_roc_enrichment(
                        t, x, at), (kind, x, at)
        for x in _probes(t, tpr, size, rng):
            got = rp.tnr_at_tpr(t, tpr=x)
            assert got == 1.0 - _walk_read_rate(t, "tpr", x, last=False), (kind, x)
            assert got == 1.0 - float(rp.read_curve(tpr, fpr, np.array([x]), last=False)[0][0])
        cases = whole.tp + whole.fp
        edges = _some_edges(t, size, rng)
        for c in [*cases[edges].tolist(), *cases[np.maximum(edges - 1, 0)].tolist(),
                  *(rng.random(10) * t.total).tolist()]:
            if c > 0.0:
                f = min(c / t.total, 1.0)
                want = (_walk_positives_in_top(t, f * t.total) / (f * t.total)) / t.prevalence
                assert er.enrichment_factor(t, fraction=f) == want, (kind, c)


@pytest.mark.parametrize("size", [1, 7, 64, 1 << 16])
@pytest.mark.parametrize("weighted", [False, True])
def test_block_carries_are_the_cumulative_sums_at_the_block_starts(
        monkeypatch: pytest.MonkeyPatch, size: int, weighted: bool) -> None:
    monkeypatch.setattr(counts, "CHUNK", size)
    rng = np.random.default_rng(size)
    n = 1000
    y = rng.random(n) < 0.3
    s = np.round(rng.random(n), 2 if size == 7 else 4)
    w = rng.uniform(0.1, 3.0, n) * 10.0 ** rng.integers(-3, 4, n) if weighted else None
    t = bm.CountTable.from_arrays(y, s, sample_weight=w)
    first, more = t.block_carries(blocks=2), t.block_carries(blocks=5)  # extended
    entries = -(-t.n_distinct // size) + 1
    assert first[0].size == min(3, entries) and more[0].size == min(6, entries)
    tps, fps = t.block_carries()  # summed over the blocks: no t.tp yet
    assert "tp" not in t.__dict__
    assert tps[:more[0].size].tobytes() == more[0].tobytes()
    assert fps[:first[1].size].tobytes() == first[1].tobytes()
    at = np.append(np.arange(0, t.n_distinct, size), t.n_distinct)
    assert tps.size == at.size and tps.tobytes() == t.tp[at].tobytes()
    assert fps.tobytes() == t.fp[at].tobytes()
    fresh = bm.CountTable.from_arrays(y, s, sample_weight=w)
    fresh.tp, fresh.fp  # noqa: B018  (built first: the carries are read from them)
    assert [a.tobytes() for a in fresh.block_carries()] == [tps.tobytes(), fps.tobytes()]
    # each block read alone equals the same block of the walk from block 0
    walk = list(t.iter_cuts())
    for k in range(len(walk)):
        start, tp, fp, p, neg = next(t.iter_cuts(first_block=k))
        assert p.tobytes() == walk[k][3].tobytes() and neg.tobytes() == walk[k][4].tobytes()
        assert start == walk[k][0] == k * size
        assert tp.tobytes() == walk[k][1].tobytes()
        assert tp.tobytes() == t.tp[start + 1:start + 1 + tp.size].tobytes()
        assert fp.tobytes() == walk[k][2].tobytes()
    assert list(t.iter_cuts(first_block=len(walk))) == []
    rng.shuffle(order := np.arange(len(walk)))
    fresh = bm.CountTable.from_arrays(y, s, sample_weight=w)  # the carries extended as
    for k in order[:10].tolist():  # the reads go, in any order
        assert next(fresh.iter_cuts(first_block=k))[1].tobytes() == walk[k][1].tobytes()
