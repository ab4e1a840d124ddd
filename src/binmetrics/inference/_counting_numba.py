"""The compiled loops of :mod:`binmetrics.inference._counting` (numba, the ``fast`` extra).

Used only by :func:`binmetrics.inference._counting.compiled_kernels`, and only when
numba can be imported (without it the module still imports, its loops plain Python).
The functions are at module level so that numba's on-disk cache finds them again in a
new process (a function built inside another one, calling a third, is compiled again in
every process).
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import numba
except ImportError:  # every module of the package imports without its extras; with no
    numba = None  # type: ignore[assignment]  # numba: the loops stay plain Python, unused


def _jit(f: Any = None, *, fastmath: Any = False) -> Any:
    """``numba.njit(nogil=True, cache=True)``, or without the on-disk cache when numba
    finds nowhere to write it (a read-only install and home directory): each process then
    compiles the kernels once. ``@_jit(fastmath=...)`` passes numba's flags on."""
    if f is None:
        return lambda g: _jit(g, fastmath=fastmath)
    if numba is None:
        return f
    try:
        return numba.njit(nogil=True, cache=True, fastmath=fastmath)(f)
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return numba.njit(nogil=True, fastmath=fastmath)(f)


__all__ = ["bin_moments", "count", "count8", "count_lookup", "counts_above", "cumulate",
           "group_walk",
           "lemire", "lemire_count8", "nonempty_groups", "read_ends", "term_sums"]

#: cells per tile of :func:`term_sums`: a tile of counts as floats (16 kB) stays in the
#: core's first-level cache while every term reads it
TERM_TILE = 2048



@_jit
def count8(keys: Any, small: Any) -> bool:  # pragma: no cover - compiled
    # counts per unit in 8 bits stay in the core's cache where wider ones do not (9e5
    # units: 0.9 MB; 16 bits took 1.2x the time, 64 bits 1.6x): a unit is a case drawn
    # with probability 1 / (cases) per draw, so it is drawn once on average and 255
    # times (almost) never; if it is, True: the caller counts the row again in 64 bits
    small[:] = 0
    for j in range(keys.shape[0]):
        u = keys[j]
        v = small[u]
        if v == 255:
            return True
        small[u] = v + 1
    return False


@_jit
def count(keys: Any, small: Any, out: Any) -> None:  # pragma: no cover - compiled
    for i in range(keys.shape[0]):
        row = out[i]
        if count8(keys[i], small):
            for j in range(keys.shape[1]):
                row[keys[i, j]] += 1
        else:
            for u in range(row.shape[0]):
                row[u] = small[u]


@_jit
def count_lookup(keys: Any, lookup: Any, small: Any, out: Any) -> None:  # pragma: no cover
    # per unit in 8 bits first, as count does, then unit by unit into its cell: a
    # random increment of the 64-bit row per draw misses the cache (8 MB at 1e6
    # cells: 11 ms per replicate of 1e6 draws, against 4 ms this way)
    for i in range(keys.shape[0]):
        row = out[i]
        if count8(keys[i], small):
            for j in range(keys.shape[1]):
                row[lookup[keys[i, j]]] += 1
        else:
            for u in range(small.shape[0]):
                row[lookup[u]] += small[u]


@_jit
def read_ends(small: Any, ends: Any, cs: Any, out: Any) -> None:  # pragma: no cover
    # out[k]: the counts of units [0, ends[k]), from the running sum cs[u] of the first
    # u units' counts (a plain prefix sum, then one read per end: a walk that stops at
    # each end mispredicts its exit, 4x slower); cs[0] = 0
    acc = 0
    for u in range(small.shape[0]):
        acc += small[u]
        cs[u + 1] = acc
    for k in range(out.shape[0]):
        out[k] = cs[ends[k]]


@_jit
def cumulate(keys: Any, ends: Any, small: Any, cs: Any,
             out: Any) -> None:  # pragma: no cover - compiled
    # out[i, k]: the draws of row i among units [0, ends[k])
    for i in range(keys.shape[0]):
        if count8(keys[i], small):
            large = np.zeros(small.shape[0], dtype=np.int64)
            for j in range(keys.shape[1]):
                large[keys[i, j]] += 1
            read_ends(large, ends, cs, out[i])
        else:
            read_ends(small, ends, cs, out[i])


@_jit
def nonempty_groups(c_pos: Any, c_neg: Any, pos_cell: Any, neg_cell: Any, keep: Any,
                    p_out: Any, n_out: Any) -> int:  # pragma: no cover - compiled
    # without branches: which groups are empty is random, and mispredicted branches
    # cost 14 ms per 1e6 groups against 3 ms; every group is written, kept or not
    k = 0
    for g in range(pos_cell.shape[0]):
        i, j = pos_cell[g], neg_cell[g]
        a = c_pos[max(i, 0)] * (i >= 0)
        b = c_neg[max(j, 0)] * (j >= 0)
        keep[k] = g
        p_out[k] = a
        n_out[k] = b
        k += (a + b) > 0
    return k


@_jit
def lemire(words: Any, n: int, threshold: int, out: Any,
           filled: int) -> tuple[int, int]:  # pragma: no cover - compiled
    # NumPy's bounded integers (Lemire's method, as Generator.integers draws them below
    # 2**32): each 32-bit word w gives floor(w n / 2**32) unless the low half of w n is
    # under 2**32 mod n (a chance of n / 2**32 per word), when the next word is used
    # instead. Stretches of 256 words without a rejection (most of them) run as one
    # loop without a branch per word.
    size = out.shape[0]
    i = 0
    while filled < size and i < words.shape[0]:
        take = min(size - filled, words.shape[0] - i, 256)
        rejected = False
        for j in range(take):
            m = np.uint64(words[i + j]) * np.uint64(n)
            out[filled + j] = m >> np.uint64(32)
            rejected |= bool((m & np.uint64(0xFFFFFFFF)) < threshold)
        if not rejected:
            filled += take
            i += take
            continue
        for _ in range(take):  # the stretch again, a word at a time
            m = np.uint64(words[i]) * np.uint64(n)
            i += 1
            if (m & np.uint64(0xFFFFFFFF)) >= threshold:
                out[filled] = m >> np.uint64(32)
                filled += 1
                if filled == size:
                    break
    return filled, i


@_jit
def lemire_count8(words: Any, n: int, threshold: int, small: Any, filled: int,
                  size: int) -> tuple[int, int, bool]:  # pragma: no cover - compiled
    # lemire's values counted into 8-bit counts as they are drawn (never stored); True
    # when a count would pass 255: the caller draws the row again, kept, from the state
    # it saved
    i = 0
    while filled < size and i < words.shape[0]:
        m = np.uint64(words[i]) * np.uint64(n)
        i += 1
        if (m & np.uint64(0xFFFFFFFF)) >= threshold:
            u = m >> np.uint64(32)
            v = small[u]
            if v == 255:
                return filled, i, True
            small[u] = v + 1
            filled += 1
    return filled, i, False


@_jit
def counts_above(counts: Any, ends: Any, sums: Any,
                 drawn: Any) -> tuple[int, int]:  # pragma: no cover - compiled
    # sums[k], drawn[k]: the total of counts[:ends[k]] and how many of those are not 0
    # (ends non-decreasing), and both over every count. One walk, run by run between
    # the ends (about one end in 15 counts here: prefix arrays of every count, written
    # and read back, took longer)
    a = 0
    z = 0
    j = 0
    for k in range(ends.shape[0]):
        e = ends[k]
        for i in range(j, e):
            c = counts[i]
            a += c
            z += c > 0
        j = max(j, e)
        sums[k] = a
        drawn[k] = z
    for i in range(j, counts.shape[0]):
        c = counts[i]
        a += c
        z += c > 0
    return a, z


@_jit
def group_walk(c_pos: Any, c_neg: Any, below: Any,
               same: Any) -> tuple[float, float]:  # pragma: no cover - compiled
    # one replicate's non-empty groups in table order, merged from its positive and
    # negative cells' counts (positive cell i's group comes after the negative cells
    # [0, below[i]) and shares the cell below[i]'s group where same[i]): the sum over
    # the cuts after each group of TP / (TP + FP), and of each group's row times its
    # negatives (whole numbers: exact in floats below 2^53)
    tp = 0
    fp = 0
    rows = 0
    precision = 0.0
    by_rank = 0.0
    j = 0
    n_pos = c_pos.shape[0]
    for i in range(n_pos + 1):
        end = below[i] if i < n_pos else c_neg.shape[0]
        while j < end:  # without branches (a third of the cells are not drawn, at
            c = c_neg[j]  # random: a branch on it mispredicts; 9.7 -> 6 ms at 1e6)
            j += 1
            drawn = 1 if c > 0 else 0
            fp += c
            by_rank += rows * c
            rows += drawn
            precision += drawn * (tp / max(tp + fp, 1))
        if i == n_pos:
            break
        cp = c_pos[i]
        cn = 0
        if same[i]:
            cn = c_neg[j]
            j += 1
        if cp + cn > 0:
            tp += cp
            fp += cn
            by_rank += rows * cn
            rows += 1
            precision += tp / (tp + fp)
    return precision, by_rank


# reassociation lets LLVM vectorize the dot products (several partial sums per term), and
# contraction fuse their multiply-adds; NaN and infinities keep their meaning (no "nnan",
# "ninf": a term may be NaN, as the information score's at a prior outside [eps, 1 - eps])
@_jit(fastmath={"reassoc", "contract"})
def term_sums(counts: Any, lo: int, hi: int, values: Any, out: Any,
              totals: Any) -> None:  # pragma: no cover - compiled
    # out[i, k] += sum_j counts[i, lo + j] * values[k, j] and totals[i] += sum_j
    # counts[i, lo + j] over the cells j of [lo, hi). One pass over the counts, read as
    # integers: per tile of cells, each replicate's counts become floats once (16 kB,
    # in cache) and every term's dot product reads them; the tile of values is read by
    # every replicate of the block while it is in cache. values is term-major: a term's
    # tile is contiguous. Each term's sum comes out the same whatever other terms are
    # summed beside it (the loops per term do not depend on them)
    b = counts.shape[0]
    K = values.shape[0]
    buf = np.empty(TERM_TILE)
    acc = np.zeros((b, K))
    for t0 in range(0, hi - lo, TERM_TILE):
        m = min(TERM_TILE, hi - lo - t0)
        for i in range(b):
            row = counts[i, lo + t0:lo + t0 + m]
            s = 0
            for j in range(m):
                c = row[j]
                s += c
                buf[j] = c
            totals[i] += s
            for k in range(K):
                v = values[k, t0:t0 + m]
                d = 0.0
                for j in range(m):
                    d += buf[j] * v[j]
                acc[i, k] += d
    for i in range(b):
        for k in range(K):
            out[i, k] += acc[i, k]


@_jit
def bin_moments(counts: Any, unit: float, d: Any, starts: Any,
                out: Any) -> None:  # pragma: no cover - compiled
    # out[k, b] = sum over the cells i of run b of counts[i] unit d[i]^k, k = 0..6 (run
    # b: cells starts[b] up to the next start): one pass over the cells for every
    # moment, where NumPy takes two per moment (a product and a reduceat). Seven scalar
    # sums and the powers by squaring (depth three): a chain p *= d per moment, or sums
    # kept in an array, made each cell wait on the last (as slow as NumPy)
    n_runs = starts.shape[0]
    for b in range(n_runs):
        end = starts[b + 1] if b + 1 < n_runs else counts.shape[0]
        s0 = s1 = s2 = s3 = s4 = s5 = s6 = 0.0
        for i in range(starts[b], end):
            c = counts[i] * unit
            x = d[i]
            x2 = x * x
            x3 = x2 * x
            x4 = x2 * x2
            s0 += c
            s1 += c * x
            s2 += c * x2
            s3 += c * x3
            s4 += c * x4
            s5 += c * (x4 * x)
            s6 += c * (x3 * x3)
        out[0, b] = s0
        out[1, b] = s1
        out[2, b] = s2
        out[3, b] = s3
        out[4, b] = s4
        out[5, b] = s5
        out[6, b] = s6
