"""The block-by-block scans of the cuts (binmetrics.measures.cut_scan) and what reads them:
best_threshold's choice and the at-fixed measures equal the scan of the whole cumulative
arrays bit for bit, for blocks of every size (tiny blocks put block edges everywhere),
with ties, weights, and the cumulative arrays built or not."""

from __future__ import annotations

import math

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.evaluation.cut_choice import all_cuts, best_cut, parse_constraints
from binmetrics.measures import at_fixed
from binmetrics.measures.cut_scan import cut_blocks, first_change, monotone_along_cuts
from binmetrics.table import counts
from binmetrics.table.counts import CountTable


def _table(seed: int, weighted: bool = False, n: int = 400, ties: int | None = 1
           ) -> CountTable:
    """Scores rounded to ``ties`` decimals (None: one case per score)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    s = rng.normal(y * 1.0, 1.0)
    s = np.round(s, ties) if ties is not None else s
    w = rng.uniform(0.2, 3.0, n) if weighted else None
    return CountTable.from_arrays(y, s, sample_weight=w)


@pytest.fixture(params=[1, 2, 7, 64, 1 << 16])
def chunk(request, monkeypatch):
    monkeypatch.setattr(counts, "CHUNK", request.param)
    return request.param


@pytest.mark.parametrize("ties", [1, None])
@pytest.mark.parametrize("built", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_cut_blocks_are_the_cumulative_counts(chunk, weighted, built, ties):
    t = _table(0, weighted, ties=ties)
    if not weighted:  # one case per score: the stepped reader
        assert (t.total == t.n_distinct) == (ties is None)
    ref_tp, ref_fp = _table(0, weighted, ties=ties).tp, _table(0, weighted, ties=ties).fp
    if built:
        _ = t.tp, t.fp
    n = t.n_distinct
    rng = np.random.default_rng(chunk)
    for first, stop in [(0, n + 1), (1, n + 1), (0, 1), (n, n + 1), (5, 6),
                        *rng.integers(0, n + 2, (20, 2)).tolist()]:
        for reverse in (False, True):
            got = list(cut_blocks(t, first, stop, reverse=reverse))
            if reverse:
                got = got[::-1]
            ks = [k0 + i for k0, tp, _ in got for i in range(tp.size)]
            assert ks == list(range(first, min(stop, n + 1)))
            if ks:
                tp = np.concatenate([b[1] for b in got])
                fp = np.concatenate([b[2] for b in got])
                assert np.array_equal(tp, ref_tp[ks]) and np.array_equal(fp, ref_fp[ks])


@pytest.mark.parametrize("ties", [1, None])
@pytest.mark.parametrize("weighted", [False, True])
def test_first_change_is_the_scan(chunk, weighted, ties):
    t = _table(1, weighted, ties=ties)
    tp, fp = t.tp, t.fp
    fresh = _table(1, weighted, ties=ties)
    for floor in [0.0, 0.01, 0.3, 0.5, 0.77, 0.999, 1.0]:
        for pred in (lambda a, b, f=floor: a / t.P >= f,
                     lambda a, b, f=floor: 1.0 - b / t.N >= f,
                     lambda a, b, f=floor: b / t.N < f):
            v = pred(tp, fp)
            changed = np.flatnonzero(v != v[0])
            want = int(changed[0]) if changed.size else t.n_distinct + 1
            assert first_change(fresh, pred) == want


def test_the_monotone_measures_are_monotone():
    ids = [m.id for m in bm.iter_measures("confusion") if monotone_along_cuts(m)]
    assert {"tpr", "tnr", "fpr", "fnr"} <= set(ids)
    assert monotone_along_cuts(bm.get_measure("ppv")) == 0
    assert monotone_along_cuts(bm.get_measure("accuracy")) == 0
    for seed in range(3):
        cuts = all_cuts(_table(seed))
        for mid in ids:
            m = bm.get_measure(mid)
            v = np.asarray(m.func(cuts, **m.params))
            d = np.diff(v) * monotone_along_cuts(m)
            assert (d >= 0).all(), mid


CASES = [
    ("tpr", {"ppv": (">=", 0.5)}, {}),
    ("tpr", {"ppv": (">=", 0.45), "tnr": (">=", 0.6)}, {}),
    ("tnr", {"tpr": (">=", 0.8)}, {}),
    ("fpr", {"tpr": (">", 0.7)}, {}),
    ("fnr", {"fpr": ("<=", 0.2)}, {}),
    ("tpr", {"fpr": ("<", 0.1), "tnr": (">=", 0.3)}, {}),
    ("ppv", {"tpr": (">=", 0.6), "fnr": ("<=", 0.5)}, {}),
    ("f1", {"fpr": ("<=", 0.3)}, {}),
    ("fbeta", {"npv": (">=", 0.8)}, {"beta": 2.0}),
    ("expected_cost", {"tpr": (">=", 0.5)}, {"cost_fp": 1.0, "cost_fn": 5.0}),
    ("mcc", {}, {}),
    ("tpr", {}, {}),
    ("fpr", {}, {}),
    ("tnr", {"tnr": ("<=", 0.4)}, {}),
    ("tpr", {"tpr": (">=", 0.9), "tnr": (">=", 0.9)}, {}),  # infeasible
    ("ppv", {"tpr": (">=", 1.0)}, {}),
    ("mcc", {"fpr": (">=", 0.05)}, {}),  # the run from the binary search on the FPR
    ("optimized_precision", {"ppv": ("<=", 0.7)}, {}),  # the block scan: not monotone_in_fp
]


@pytest.mark.parametrize("built", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(("measure", "constraints", "params"), CASES)
def test_best_cut_is_the_full_scan(chunk, measure, constraints, params, seed, built,
                                   whole_scan):
    for ties in (1, None):
        t = _table(seed, ties=ties)
        want = whole_scan(t, measure, constraints, params)
        if built:
            _ = t.tp, t.fp
        m = bm.get_measure(measure)
        got = best_cut(t, m, m.resolve_params(**params), parse_constraints(constraints))
        assert got[0] == want[0]
        assert got[1] == want[1] or (math.isnan(got[1]) and math.isnan(want[1]))


def _at_fixed_full(t: CountTable, mid: str, floor: float) -> float:
    """The at-fixed measures as torchmetrics defines them, over whole arrays."""
    tp, fp = t.tp, t.fp
    tpr, tnr = tp / t.P, 1.0 - fp / t.N
    with np.errstate(divide="ignore", invalid="ignore"):
        ppv = tp / (tp + fp)
    if mid == "tpr_at_ppv":
        ok = ppv[1:] >= floor
        return float(tpr[1:][ok].max()) if ok.any() else 0.0
    if mid == "ppv_at_tpr":
        return float(ppv[1:][tpr[1:] >= floor].max())
    if mid == "tpr_at_tnr":
        return float(tpr[tnr >= floor].max())
    return float(tnr[tpr >= floor].max())


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", [0, 3])
def test_at_fixed_measures_are_the_full_scan(chunk, weighted, seed):
    for ties in (1, None):
        for floor in [0.0, 0.05, 0.3, 0.5, 0.62, 0.9, 0.97, 1.0]:
            for mid, key in [("tpr_at_ppv", "ppv"), ("ppv_at_tpr", "tpr"),
                             ("tpr_at_tnr", "tnr"), ("tnr_at_min_tpr", "tpr")]:
                t = _table(seed, weighted, ties=ties)
                want = _at_fixed_full(_table(seed, weighted, ties=ties), mid, floor)
                got = getattr(at_fixed, mid)(t, **{key: floor})
                assert got == want, (mid, floor)


@pytest.mark.parametrize("weighted", [False, True])
def test_best_f1_is_the_scan_of_every_cut(weighted):
    """best_f1 reads the cuts ending at positive scores only: the maximum over every cut."""
    from binmetrics.measures.ranking import best_f1

    for seed in range(4):
        for ties in (0, 1, None):
            t = _table(seed, weighted, ties=ties)
            tp, fp = _table(seed, weighted, ties=ties).tp, _table(seed, weighted, ties=ties).fp
            assert best_f1(t) == float(np.max(2.0 * tp / (t.P + tp + fp)))
            calibrated = t.calibrated(0.05)
            ctp, cfp = calibrated.tp, calibrated.fp
            assert best_f1(t.calibrated(0.05)) == float(
                np.max(2.0 * ctp / (calibrated.P + ctp + cfp)))
