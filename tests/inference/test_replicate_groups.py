"""The bootstrap's ranking measures read each replicate's groups with positives
(binmetrics.inference._replicate_groups) instead of its table: the stand-in's groups,
totals and size equal the replicate table's, so every ranking measure that reads only
them gives the table's value bit for bit (compiled or not, weighted or not); the
others fall back to tables; the intervals do not change."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.exceptions import MeasureCaveatWarning, undefined_policy
from binmetrics.inference import _replicates as rs
from binmetrics.inference._counting import compiled_kernels, use_compiled
from binmetrics.inference._replicate_sums import _NeedsTable
from binmetrics.inference.resampling import bootstrap
from binmetrics.measures.early_recognition import LIFT_SUM
from binmetrics.measures.registry import iter_measures

RANKING = [m for m in iter_measures("ranking") if m.resampling_kernel is None]
WALKED = ("mean_precision", "taks")


def _table(seed: int, kind: str) -> bm.CountTable:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(40, 2500))
    y = rng.random(n) < rng.uniform(0.1, 0.7)
    y[:2] = (True, False)
    s = rng.random(n) if kind == "continuous" else np.round(rng.random(n), int(rng.integers(1, 4)))
    w = {"weighted": rng.uniform(0.2, 3.0, n),
         "frequencies": rng.integers(1, 4, n).astype(np.float64)}.get(kind)
    return bm.CountTable.from_arrays(y, s, sample_weight=w)


def _blocks(t: bm.CountTable, stratified: bool, seed: int) -> Any:
    with warnings.catch_warnings():  # non-integer weights: drawn as round(total) cases
        warnings.simplefilter("ignore")
        sampler = rs._BootstrapSampler(t, stratified=stratified)
    return sampler.blocks(np.random.default_rng(seed), 8)


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("kind", ["continuous", "tied", "weighted", "frequencies"])
@pytest.mark.parametrize("stratified", [True, False])
def test_stand_in_groups_and_values_are_the_replicate_tables(
        compiled: bool, kind: str, stratified: bool) -> None:
    read: set[str] = set()
    with use_compiled(compiled):
        for seed in range(3):
            t = _table(seed, kind)
            for block in _blocks(t, stratified, seed):
                for stand_in, table in zip(block.group_tables(), block.tables(), strict=True):
                    g, h = stand_in.positive_groups(), table.positive_groups()
                    for field in ("idx", "pos", "neg", "tp0", "fp0"):
                        np.testing.assert_array_equal(getattr(g, field), getattr(h, field),
                                                      err_msg=field)
                    assert (stand_in.P, stand_in.N) == (table.P, table.N)
                    assert stand_in.n_distinct == table.n_distinct
                    for m in RANKING:
                        fresh = LIFT_SUM not in stand_in._memo
                        with undefined_policy("ignore"):
                            try:
                                got = m.func(stand_in)
                            except _NeedsTable:
                                continue
                            want = m.func(table)
                        read.add(m.id)
                        # average lift's sum, answered by the stand-in's compiled kernel in
                        # another order than the table's series
                        if fresh and LIFT_SUM in stand_in._memo and LIFT_SUM in stand_in._answers:
                            assert got == pytest.approx(want, rel=1e-13, nan_ok=True), m.id
                            continue
                        assert got == want or (np.isnan(got) and np.isnan(want)), m.id
    # most ranking measures read no more than the groups (the test would pass vacuously
    # if every one fell back)
    assert {"mean_rank_positives", "auac", "best_f1", "aucpr_min", "ppv_at_tpr",
            "partial_auc", "auch", "h_measure", "tpr_at_fpr", "tnr_at_tpr",
            "tpr_at_tnr", "tnr_at_min_tpr", "roc_enrichment", "roc_ef5"} <= read
    # the two that sum over every group: from the compiled walk of an unweighted
    # replicate's cells (compiled only where numba is installed: the fast extra)
    with use_compiled(True):
        walks = compiled_kernels(1) is not None
    assert (set(WALKED) <= read) == (compiled and walks and kind in ("continuous", "tied"))


def test_intervals_are_those_of_the_replicate_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    t = _table(4, "tied")
    ids = [m.id for m in RANKING]
    with warnings.catch_warnings():  # BEDROC's caveat on this prevalence, not tested here
        warnings.simplefilter("ignore", MeasureCaveatWarning)
        fast = bootstrap(t, ids, n_resamples=30, random_state=5)
        monkeypatch.setattr(rs._BootstrapBlock, "group_tables", lambda self: None)
        slow = bootstrap(t, ids, n_resamples=30, random_state=5)
    for m in ids:
        np.testing.assert_array_equal(fast.replicates[m], slow.replicates[m], err_msg=m)


def test_a_measure_that_reads_more_falls_back_to_tables(tables_built: list[int]) -> None:
    """mean_precision reads every cut of a replicate (whose cases are not one per
    score): tables, unless compiled (a walk of the cells); mean_rank_positives reads its
    groups only: none."""
    built = tables_built
    t = _table(1, "continuous")
    bootstrap(t, ["mean_rank_positives", "auac"], n_resamples=20, random_state=0)
    assert built == []
    with use_compiled(False):
        bootstrap(t, ["mean_rank_positives", "mean_precision"], n_resamples=20, random_state=0)
    assert sum(built) == 20
    with use_compiled(True):
        walked = bootstrap(t, list(WALKED), n_resamples=20, random_state=0)
        walks = compiled_kernels(1) is not None  # numba installed (the fast extra)
    assert sum(built) == (20 if walks else 40)  # none more where the cells are walked
    with use_compiled(False):
        tables = bootstrap(t, list(WALKED), n_resamples=20, random_state=0)
    for m in WALKED:  # the same sums in the same order
        np.testing.assert_array_equal(walked.replicates[m], tables.replicates[m], err_msg=m)


def test_per_case_costs_take_the_tables() -> None:
    """A table with per-case costs has no class-split cells: its replicates are tables."""
    table = _table(2, "tied")
    costs = table.with_case_costs(np.asarray(table.neg, dtype=float) * 2.0,
                                  np.asarray(table.pos, dtype=float))
    assert next(_blocks(costs, True, 0)).group_tables() is None
    res = bootstrap(costs, ["mean_rank_positives"], n_resamples=10, random_state=1)
    ref = bootstrap(table, ["mean_rank_positives"], n_resamples=10, random_state=1)
    np.testing.assert_array_equal(res.replicates["mean_rank_positives"],
                                  ref.replicates["mean_rank_positives"])


@pytest.mark.parametrize("kind", ["continuous", "tied", "weighted"])
def test_net_benefit_reads_the_cells_above_its_threshold(
        kind: str, tables_built: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Net benefit's confusion matrix at its own threshold comes from the cells' counts
    above it (unweighted: no replicate table, the table path's values bit for bit);
    weighted replicates take the tables."""
    t = _table(3, "frequencies" if kind == "weighted" else kind)
    params = {"net_benefit": {"threshold": 0.3}}
    fast = bootstrap(t, ["net_benefit"], n_resamples=30, random_state=2, params=params)
    assert (tables_built == []) == (kind != "weighted")
    monkeypatch.setattr(rs._BootstrapBlock, "group_tables", lambda self: None)
    slow = bootstrap(t, ["net_benefit"], n_resamples=30, random_state=2, params=params)
    np.testing.assert_array_equal(fast.replicates["net_benefit"],
                                  slow.replicates["net_benefit"])


@pytest.mark.parametrize("seed", range(8))
def test_lift_sum_is_the_sum_over_every_case(seed: int) -> None:
    """The compiled sum of g(j)/j over the cases j (average lift's) from a replicate's
    groups with positives: equal to that sum taken case by case (g rising linearly
    through a tied group, math.fsum) within 2e-16 relative, on groups of every size
    (one case, the 16 of the direct sum and beyond it) and long runs of negatives."""
    import math

    from binmetrics.inference._counting import compiled_kernels

    with use_compiled(True):
        k = compiled_kernels(1)
    if k is None:
        pytest.skip("numba (the fast extra) is not installed")
    rng = np.random.default_rng(seed)
    g = int(rng.integers(1, 300))
    pos = rng.integers(1, [3, 20, 60][seed % 3], g).astype(np.float64)
    neg = np.where(rng.random(g) < 0.5, rng.integers(0, 40, g), 0).astype(np.float64)
    gap = rng.integers(0, [2, 50, 5000][seed % 3], g)  # negatives between the groups
    fp0 = np.cumsum(gap) + np.r_[0.0, np.cumsum(neg)[:-1]]
    tp0 = np.r_[0.0, np.cumsum(pos)[:-1]]
    total = int(tp0[-1] + pos[-1] + fp0[-1] + neg[-1] + rng.integers(0, 1000))
    terms, tp, j = [], 0.0, 0
    for i in range(g):
        c0 = int(tp0[i] + fp0[i])
        terms += [tp / c for c in range(j + 1, c0 + 1)]  # negatives above the group
        m = int(pos[i] + neg[i])
        terms += [(tp + pos[i] * t / m) / (c0 + t) for t in range(1, m + 1)]
        tp += pos[i]
        j = c0 + m
    terms += [tp / c for c in range(j + 1, total + 1)]
    hi, lo = np.empty(total + 1), np.empty(total + 1)
    k.harmonic_table(hi, lo)
    got = k.lift_sum(pos, neg, tp0, fp0, total, hi, lo)
    assert got == pytest.approx(math.fsum(terms), rel=5e-16, abs=0)


@pytest.mark.parametrize("walk_first", [False, True])
@pytest.mark.parametrize("kind", ["continuous", "tied"])
def test_walked_sums_taken_while_building_the_stand_ins(kind: str, walk_first: bool) -> None:
    """mean_precision's and taKS's sums over every group, taken by the walk that builds
    an unweighted replicate's stand-in (once the sampler was asked for them) or by a walk
    of their own (before): both the replicate table's values, bit for bit."""
    with use_compiled(True):
        if compiled_kernels(1) is None:
            pytest.skip("numba (the fast extra) is not installed")
        for seed in range(3):
            t = _table(seed, kind)
            sampler = rs._BootstrapSampler(t, stratified=bool(seed % 2))
            block = next(sampler.blocks(np.random.default_rng(seed), 8))
            sampler.groups_plan().walk_wanted = walk_first
            for stand_in, table in zip(block.group_tables(), block.tables(), strict=True):
                for m in WALKED:
                    with undefined_policy("ignore"):
                        got, want = bm.get_measure(m).func(stand_in), bm.get_measure(m).func(table)
                    assert got == want or (np.isnan(got) and np.isnan(want)), m
            assert sampler.groups_plan().walk_wanted  # asked: the next blocks walk once


@pytest.mark.parametrize("seed", range(3))
def test_groups_by_running_sums_are_the_walks(seed: int) -> None:
    """The compiled build of a stand-in without the walk (two running sums read at each
    positive cell) gives the walk's groups, rows, totals and taKS's sum, bit for bit:
    random cells with shared groups, undrawn cells, counts past a chunk, no negative
    cells."""
    with use_compiled(True):
        k = compiled_kernels(1)
    if k is None:
        pytest.skip("numba is not installed (the fast extra)")
    rng = np.random.default_rng(seed)
    for trial in range(150):
        n_pos = int(rng.integers(0, 70))
        n_neg = int(rng.integers(0, 5000)) if trial % 10 else 0
        lam = rng.uniform(0.1, 2.0)
        c_pos = rng.poisson(lam, n_pos).astype(np.uint8)
        c_neg = rng.poisson(lam, n_neg).astype(np.uint8)
        below = np.sort(rng.integers(0, n_neg + 1, n_pos)).astype(np.intp)
        same = rng.random(n_pos) < rng.uniform(0, 1)
        for i in range(n_pos):  # a shared negative cell belongs to one group only
            if i:
                below[i] = max(below[i], below[i - 1] + int(same[i - 1]))
            same[i] &= below[i] < n_neg
        if n_pos and below[-1] > n_neg:
            continue
        got = []
        for walk in (True, False):
            out = [np.zeros(n_pos, dtype=np.intp)] + [np.zeros(n_pos) for _ in range(4)]
            totals = k.positive_groups(c_pos, c_neg, below, same, *out, walk)
            got.append(((*totals[:4], totals[5]), [a[:totals[0]] for a in out]))
        assert got[0][0] == got[1][0]  # with taKS's sum, from the running sums
        for a, b in zip(got[0][1], got[1][1], strict=True):
            np.testing.assert_array_equal(a, b)
