"""The replicate sums' pass over the cells (binmetrics.inference._counting.term_sums and
inference._replicate_sums._SumsPlan): the compiled pass and NumPy's agree to rounding,
each agrees with exact sums of the terms, every distinct term is summed once and read by
each group that declares it, and a term's sum does not depend on the other terms asked."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.inference import _replicates as rs
from binmetrics.inference._counting import compiled_kernels, term_sums, use_compiled
from binmetrics.inference._replicate_sums import class_ranges
from binmetrics.measures.sums import INFORMATION, LOG_PASS, PRIOR

#: every measure: the plan gets every sum group the registry declares
GROUPS = rs._groups(rs._targets([m.id for m in bm.iter_measures()], None))
MODES = [pytest.param(True, id="compiled"), pytest.param(False, id="numpy")]
KINDS = ["continuous", "tied", "frequencies", "weights"]


def _compiled(on: bool) -> None:
    if on and compiled_kernels(1) is None:
        pytest.skip("numba is not installed (the fast extra)")


@pytest.mark.parametrize("compiled", MODES)
@pytest.mark.parametrize("seed", range(12))
def test_term_sums_are_the_exact_dot_products(seed: int, compiled: bool) -> None:
    """Random counts with many zeros, several replicates, a range of columns that starts
    and ends inside the tiles (2048 cells), terms of mixed sign and size: each sum is the
    exact one (math.fsum of the products) to rounding, the totals exactly."""
    rng = np.random.default_rng(seed)
    b, width, K = int(rng.integers(1, 6)), int(rng.integers(1, 7000)), int(rng.integers(0, 12))
    lo = int(rng.integers(0, 3000))
    hi = lo + width
    counts = rng.poisson(rng.uniform(0.2, 3.0), size=(b, hi + int(rng.integers(0, 50))))
    values = rng.standard_normal((K, width)) * 10.0 ** rng.uniform(-5, 5, (K, width))
    with use_compiled(compiled):
        _compiled(compiled)
        sums, totals = term_sums(counts, values, lo, hi)
    assert sums.shape == (b, K) and totals.dtype.kind == "i"
    np.testing.assert_array_equal(totals, counts[:, lo:hi].sum(axis=1))
    for i in range(b):
        for k in range(K):
            products = counts[i, lo:hi] * values[k]
            exact = math.fsum(products.tolist())
            bound = 1e-13 * math.fsum(np.abs(products).tolist())  # rounding of any order
            assert abs(sums[i, k] - exact) <= bound, (i, k)


def _sampler(kind: str, stratified: bool) -> Any:
    rng = np.random.default_rng([KINDS.index(kind), stratified])
    n = 3000
    y = rng.random(n) < 0.25
    s = rng.random(n)
    s[:30], s[30:60] = 0.0, 1.0  # clipped logarithms
    w, n_cases = None, None
    if kind == "tied":
        s = np.round(s, 2)
    elif kind == "frequencies":
        w = rng.integers(1, 5, n).astype(np.float64)
    elif kind == "weights":  # not whole numbers: each case weighs the stratum's unit weight
        w = rng.uniform(0.2, 3.0, n)
        n_cases = (700, 2000) if stratified else 2700
    t = bm.CountTable.from_arrays(y, s, sample_weight=w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return rs._BootstrapSampler(t, stratified=stratified, n_cases=n_cases)


def _exact_memo(sampler: Any, counts: list[Any], i: int, groups: list[Any]) -> dict[Any, Any]:
    """Replicate i's memo as the per-group computation gave it, with exact sums: each
    group's terms over each stratum's cells of each class, counts times the unit weight."""
    t, cells = sampler.table, sampler.cells
    scores = t.scores[cells.group]
    plan = sampler.sums_plan(groups)  # its prior (the table's or the replicates')
    weighted = t.weighted
    P = N = 0.0
    raw: dict[Any, list[float]] = {}
    for st, c in zip(sampler.strata, counts, strict=True):
        w = st.unit_weight if weighted else 1.0
        for lo, hi, positive in class_ranges(st, cells.n_pos):
            row = c[i, lo - st.lo:hi - st.lo]
            if positive:
                P += float(row.sum()) * w
            else:
                N += float(row.sum()) * w
            for g in plan.groups:
                for term in g.terms:
                    if term.rows in ("all", "pos" if positive else "neg"):
                        with np.errstate(all="ignore"):
                            v = term.numpy(scores[lo:hi], positive, plan.pi)
                        raw.setdefault((g.key, term.name), []).append(
                            math.fsum((row * v).tolist()) * w)
    pi = P / (P + N) if P + N > 0 else math.nan
    memo = {}
    for g in plan.groups:
        sums = tuple(math.fsum(raw.get((g.key, term.name), [])) for term in g.terms)
        key = (g.key, *(pi if d is PRIOR else d for d in g.params.values()))
        memo[key] = sums if g.from_raw is None else g.from_raw(sums)
    return {"P": P, "N": N, **memo}


def _memos(sampler: Any, groups: list[Any], blocks: list[Any]) -> list[dict[Any, Any]]:
    sampler._plan = None  # a new plan for these groups
    out = []
    for block in blocks:
        plan = sampler.sums_plan(groups)
        counts = block.cell_counts()
        units = tuple(st.unit_weight for st in sampler.strata)
        for tab in plan.tables(counts, units, sampler.table.weighted):
            out.append({"P": tab.P, "N": tab.N, **tab._memo})
    return out


def _close(a: Any, b: Any, rtol: float) -> bool:
    a, b = (np.atleast_1d(np.asarray(v, dtype=np.float64)) for v in (a, b))
    return bool(np.allclose(a, b, rtol=rtol, atol=0.0, equal_nan=True))


@pytest.mark.parametrize("stratified", [True, False])
@pytest.mark.parametrize("kind", KINDS)
def test_compiled_and_numpy_sums_agree_and_are_exact(kind: str, stratified: bool) -> None:
    """The stand-ins' sums, compiled and with NumPy, agree to 1e-12 relative with each
    other and with the exact sums of the per-group computation (each group's terms
    summed for it alone); the totals exactly. The compiled pass runs (numba installed)."""
    sampler = _sampler(kind, stratified)
    blocks = list(sampler.blocks(np.random.default_rng(4), 6))
    got = {}
    for on in (True, False):
        with use_compiled(on):
            _compiled(on)
            got[on] = _memos(sampler, GROUPS, blocks)
    i = 0
    for block in blocks:
        for r in range(block.size):
            exact = _exact_memo(sampler, block.cell_counts(), r, GROUPS)
            assert exact.keys() == got[True][i].keys() == got[False][i].keys()
            for key, want in exact.items():
                if key in ("P", "N"):
                    assert got[True][i][key] == got[False][i][key] == want
                    continue
                assert _close(got[True][i][key], got[False][i][key], 1e-12), key
                assert _close(got[False][i][key], want, 1e-12), key
            i += 1
    assert i == 6


def test_a_term_two_groups_declare_is_summed_once_and_read_by_both() -> None:
    """The information score's term is in log_pass and in information: one column of the
    plan, and both groups' memo entries hold the same float."""
    sampler = _sampler("continuous", True)
    plan = sampler.sums_plan(GROUPS)
    names = [t.name for t in plan.terms]
    assert len(names) == len(set(names))
    assert names.count("info") == 1
    assert len(names) < sum(len(g.terms) for g in plan.groups)
    block = next(iter(sampler.blocks(np.random.default_rng(1), 3)))
    for tab in block.sums_tables(GROUPS):
        memo = tab._memo
        (info,) = [v for k, v in memo.items() if k[0] == INFORMATION.key]
        (log_pass,) = [v for k, v in memo.items() if k[0] == LOG_PASS.key]
        assert info[0] == log_pass[4]


@pytest.mark.parametrize("compiled", MODES)
@pytest.mark.parametrize("kind", ["continuous", "weights"])
def test_a_groups_sums_do_not_depend_on_the_other_groups_asked(kind: str,
                                                               compiled: bool) -> None:
    """Same seed, same replicates whatever measures are asked: each group's memo entry
    is the same float whether it is asked alone or with every other group."""
    sampler = _sampler(kind, True)
    blocks = list(sampler.blocks(np.random.default_rng(2), 4))
    with use_compiled(compiled):
        _compiled(compiled)
        every = _memos(sampler, GROUPS, blocks)
        for g in GROUPS:
            alone = _memos(sampler, [g], blocks)
            for a, e in zip(alone, every, strict=True):
                for key, value in a.items():
                    assert value == e[key], (g.key, key)
