"""The compiled loops of :mod:`binmetrics.inference._counting` (numba, the ``fast`` extra).

Used only by :func:`binmetrics.inference._counting.compiled_kernels`, and only when
numba can be imported (without it the module still imports, its loops plain Python).
The loops are built by :func:`binmetrics.backends.jit`, at module level so that numba's
on-disk cache finds them again in a new process (a function built inside another one,
calling a third, is compiled again in every process).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from binmetrics.backends import inline, jit

try:
    import numba
except ImportError:  # every module of the package imports without its extras; with no
    numba = None  # type: ignore[assignment]  # numba: the loops stay plain Python, unused


__all__ = ["bin_moments", "count", "count8", "count_lookup", "cumulate", "fold8",
           "harmonic_table", "lift_sum", "nonempty_groups", "pcg_bounded", "pcg_count8",
           "pcg_integers", "positive_groups", "read_ends", "run_dots", "run_sums",
           "term_sums"]

#: cells per tile of :func:`term_sums`: a tile of counts as floats (16 kB) stays in the
#: core's first-level cache while every term reads it
TERM_TILE = 2048
#: cells per chunk of :func:`run_sums`' running sum (16 kB, in L1)
_CHUNK = 2048


@jit
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


@jit
def count(keys: Any, small: Any, out: Any) -> None:  # pragma: no cover - compiled
    for i in range(keys.shape[0]):
        row = out[i]
        if count8(keys[i], small):
            for j in range(keys.shape[1]):
                row[keys[i, j]] += 1
        else:
            for u in range(row.shape[0]):
                row[u] = small[u]


@jit
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
            fold8(small, lookup, row)


@jit
def fold8(small: Any, lookup: Any, row: Any) -> None:  # pragma: no cover - compiled
    # row[lookup[u]] += small[u]: the units' counts into their cells (lookup never
    # decreases, the row is written in order)
    for u in range(small.shape[0]):
        row[lookup[u]] += small[u]


@jit
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


@jit
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


@jit
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


@jit
def _groups_by_running_sums(c_pos: Any, c_neg: Any, below: Any, same: Any, idx: Any, pos: Any,
                            neg: Any, tp0: Any, fp0: Any) -> tuple[Any, ...]:  # pragma: no cover
    # positive_groups without the walk's sums, the same integers from two running sums
    # over the negative cells, their cases F and the cells drawn D, kept a chunk at a
    # time (in L1) and read at each positive cell's below[i]: the cases above group i
    # are F(below[i]); its row, D(below[i]) less the drawn negative cells of the groups
    # with positives above it (theirs, not rows of their own) plus those groups that
    # hold cases. A loop over each run of negative cells (nine at 1e6 distinct scores)
    # took 1.7 ms a replicate. Also taKS's sum over the groups of their row times their
    # negatives, in integers (the walk's value): each negative cell's row is D before it
    # less the drawn cells of the groups above plus those groups that hold cases: a
    # difference that only a group with positives and no negative cell of its own
    # raises, by one for every cell from below[i] on, so the sum is sum c D plus, over
    # those groups, F(n) - F(below[i])
    n_pos = c_pos.shape[0]
    n_neg = c_neg.shape[0]
    f_buf = np.empty(_CHUNK + 1, dtype=np.int64)
    d_buf = np.empty(_CHUNK + 1, dtype=np.int64)
    f = 0
    d = 0
    by_rank = 0
    i = 0
    for c0 in range(0, n_neg, _CHUNK):  # F and D at below[i], to fp0[i] and idx[i]
        c1 = min(c0 + _CHUNK, n_neg)
        f_buf[0] = f
        d_buf[0] = d
        for j in range(c0, c1):
            c = c_neg[j]
            f += c
            by_rank += c * d
            d += 1 if c > 0 else 0
            f_buf[j - c0 + 1] = f
            d_buf[j - c0 + 1] = d
        while i < n_pos and below[i] <= c1:
            fp0[i] = f_buf[below[i] - c0]
            idx[i] = d_buf[below[i] - c0]
            i += 1
    while i < n_pos:  # (no negative cells: every group's F and D are 0)
        fp0[i] = f
        idx[i] = d
        i += 1
    k = 0
    tp = 0
    shared = 0  # drawn negative cells of the groups with positives so far
    filled = 0  # groups with positives so far that hold cases
    for i in range(n_pos):  # entry i read before entry k <= i is written
        f_at = fp0[i]
        d_at = idx[i]
        cp = c_pos[i]
        cn = c_neg[below[i]] if same[i] else 0
        idx[k] = d_at - shared + filled
        pos[k] = cp
        neg[k] = cn
        tp0[k] = tp
        fp0[k] = f_at
        k += 1 if cp > 0 else 0
        if cn == 0:  # (a group with its own negatives leaves the difference as it is)
            by_rank += (1 if cp > 0 else 0) * (f - int(f_at))
        shared += 1 if cn > 0 else 0
        filled += 1 if cp + cn > 0 else 0
        tp += cp
    return k, tp, f, d - shared + filled, 0.0, float(by_rank)


@jit
def positive_groups(c_pos: Any, c_neg: Any, below: Any, same: Any, idx: Any, pos: Any, neg: Any,
                    tp0: Any, fp0: Any, walk: bool) -> tuple[Any, ...]:  # pragma: no cover
    # one replicate's groups with positives (positive cell i's group after the negative
    # cells [0, below[i]), sharing the cell below[i] where same[i]), in one walk of its
    # cells' counts in table order: per group its row in the replicate's table (the
    # non-empty groups above it), positives, own negatives and the cases above it,
    # written for every positive cell and kept (k advanced) where it was drawn. No branch
    # on the random counts (a third of the cells are not drawn: a branch on it
    # mispredicts; 9.7 -> 6 ms at 1e6). With walk, also the sum over the cuts after each
    # group of TP / (TP + FP) and of each group's row times its negatives (mean_precision's
    # and taKS's), in the order the table sums them. Returns the groups kept, the
    # positives, the negatives, the non-empty groups, and the two sums (without walk,
    # the first 0 and the second from _groups_by_running_sums)
    if not walk:
        return _groups_by_running_sums(c_pos, c_neg, below, same, idx, pos, neg, tp0, fp0)
    k = 0
    tp = 0
    fp = 0
    rows = 0
    precision = 0.0
    by_rank = 0  # whole numbers: exact in 64 bits, as the table's float sums under 2^53
    j = 0
    n_pos = c_pos.shape[0]
    n_neg = c_neg.shape[0]
    for i in range(n_pos + 1):
        end = below[i] if i < n_pos else n_neg
        while j < end:
            c = c_neg[j]
            j += 1
            drawn = 1 if c > 0 else 0
            fp += c
            by_rank += rows * c
            precision += drawn * (tp / max(tp + fp, 1))
            rows += drawn
        if i == n_pos:
            break
        cp = c_pos[i]
        cn = 0
        if same[i]:
            cn = c_neg[j]
            j += 1
        idx[k] = rows
        pos[k] = cp
        neg[k] = cn
        tp0[k] = tp
        fp0[k] = fp
        k += 1 if cp > 0 else 0
        filled = 1 if cp + cn > 0 else 0
        tp += cp
        fp += cn
        by_rank += rows * cn
        precision += filled * (tp / max(tp + fp, 1))
        rows += filled
    return k, tp, fp, rows, precision, float(by_rank)


@jit
def harmonic_table(hi: Any, lo: Any) -> None:  # pragma: no cover - compiled
    # H(k) = sum_{j<=k} fl(1/j), k = 0..len - 1, as an unevaluated sum hi[k] + lo[k]
    # (double-double: the running sum loses nothing), so that H(b) - H(a), taken as
    # (hi[b] - hi[a]) + (lo[b] - lo[a]), is sum_{a<j<=b} fl(1/j) within an ulp of it:
    # each term within half an ulp of 1/j, so the gap within 1.1e-16 relative, where a
    # difference of two rounded H loses digits (1e-9 of the gap at 1e6)
    s_hi = 0.0
    s_lo = 0.0
    hi[0] = 0.0
    lo[0] = 0.0
    for k in range(1, hi.shape[0]):
        q = 1.0 / k
        t = s_hi + q  # TwoSum(s_hi, q): t + e exactly
        z = t - s_hi
        e = (s_hi - (t - z)) + (q - z)
        s_lo += e
        s_hi = t + s_lo  # renormalised (FastTwoSum: |t| >= |s_lo|)
        s_lo = s_lo - (s_hi - t)
        hi[k] = s_hi
        lo[k] = s_lo


@inline
def _gap(hi: Any, lo: Any, a: int, b: int) -> float:  # pragma: no cover - compiled
    return (hi[b] - hi[a]) + (lo[b] - lo[a])


@jit
def lift_sum(pos: Any, neg: Any, tp0: Any, fp0: Any, total: int, hi: Any,
             lo: Any) -> float:  # pragma: no cover - compiled
    # sum over the cases j of g(j)/j (average lift's, Berrar eq. 30) from an unweighted
    # table's groups with positives (whole numbers), as measures.early_recognition's
    # _lift_sum takes it: per group tp0 (H(c1) - H(c0)) + pos R, R = (1/m) sum_{t<=m}
    # t/(c0 + t), then tp1 (H(end) - H(c1)) through the negatives up to the next group
    # with positives; the gaps from harmonic_table, the terms summed with Neumaier's
    # compensation (each within about 2e-16 of its value, the sum as well)
    total_sum = 0.0
    comp = 0.0
    K = pos.shape[0]
    for k in range(K):
        p = pos[k]
        c0 = np.int64(tp0[k] + fp0[k])
        m = np.int64(p + neg[k])
        c1 = c0 + m
        end = np.int64(tp0[k + 1] + fp0[k + 1]) if k + 1 < K else np.int64(total)
        inside = _gap(hi, lo, c0, c1)
        if m <= 16:  # directly: 1 - c0 (H(c1) - H(c0)) / m cancels where c0 >> m
            r = 0.0
            for t in range(1, m + 1):
                r += t / (c0 + t)
            r /= m
        else:
            r = 1.0 - c0 * inside / m
        x = tp0[k] * inside + p * r + (tp0[k] + p) * _gap(hi, lo, c1, end)
        t2 = total_sum + x
        if abs(total_sum) >= abs(x):
            comp += (total_sum - t2) + x
        else:
            comp += (x - t2) + total_sum
        total_sum = t2
    return total_sum + comp


# reassociation lets LLVM vectorize the dot products (several partial sums per term), and
# contraction fuse their multiply-adds; NaN and infinities keep their meaning (no "nnan",
# "ninf": a term may be NaN, as the information score's at a prior outside [eps, 1 - eps])
@jit(fastmath={"reassoc", "contract"})
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


@jit
def run_sums(counts: Any, starts: Any, keys: Any, out: Any) -> None:  # pragma: no cover
    # out[i, keys[r]] = the sum of counts[i] over run r (cells starts[r] up to the next
    # start, the last to the end; np.add.reduceat's runs): a level's counts from the
    # cells' (whole numbers), as differences of a running sum read at the runs' ends. The
    # running sum is kept a chunk of cells at a time (in L1), its ends read after each
    # chunk: a loop per run (nine cells each at 1e6 distinct scores) took 1.5 ms a
    # replicate, this 0.55
    n = counts.shape[1]
    runs = starts.shape[0]
    first = starts[0] if runs else n
    buf = np.empty(_CHUNK + 1, dtype=np.int64)
    for i in range(counts.shape[0]):
        row = counts[i]
        acc = 0
        prev = 0
        r = 0
        for c0 in range(first, n, _CHUNK):
            c1 = min(c0 + _CHUNK, n)
            buf[0] = acc
            for j in range(c0, c1):
                acc += row[j]
                buf[j - c0 + 1] = acc
            while r < runs:
                end = starts[r + 1] if r + 1 < runs else n
                if end > c1:
                    break
                out[i, keys[r]] = buf[end - c0] - prev
                prev = buf[end - c0]
                r += 1


@jit(fastmath={"reassoc", "contract"})
def run_dots(counts: Any, lo: int, values: Any, starts: Any, stops: Any,
             out: Any) -> None:  # pragma: no cover - compiled
    # out[k, i, r] = sum over the cells j of run r of counts[i, lo + j] values[k, j] (the
    # calibration bins' sums of p and p^2); reassociated as term_sums. counts whole (C
    # order) and an offset: a column slice of it is not contiguous to numba, and its
    # loops then run a value at a time (4x slower)
    for i in range(counts.shape[0]):
        for r in range(starts.shape[0]):
            row = counts[i, lo + starts[r]:lo + stops[r]]
            for k in range(values.shape[0]):
                v = values[k, starts[r]:stops[r]]
                acc = 0.0
                for j in range(row.shape[0]):
                    acc += row[j] * v[j]
                out[k, i, r] = acc


@jit(fastmath={"reassoc", "contract"})
def bin_moments(counts: Any, unit: float, d: Any, starts: Any,
                out: Any) -> None:  # pragma: no cover - compiled
    # out[k, b] = sum over the cells i of run b of counts[i] unit d[i]^k, k = 0..6 (run
    # b: cells starts[b] up to the next start): one pass over the cells for every
    # moment, where NumPy takes two per moment (a product and a reduceat). Seven scalar
    # sums and the powers by squaring (depth three): a chain p *= d per moment, or sums
    # kept in an array, made each cell wait on the last (as slow as NumPy). Reassociated
    # (term_sums' flags), LLVM keeps several partial sums per moment in vectors: 4.8 ->
    # 2.2 ms per 9e5 cells
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


# --- NumPy's PCG64 and bounded integers, run in the loop that uses them -----------------
# PCG64 (XSL-RR 128/64) steps its 128-bit state as state * MULTIPLIER + increment and
# outputs the rotated xor of the new state's halves. Generator.integers(0, n) below 2**32
# takes 32-bit words from next_uint32 (an output's low half, then its high half, kept as
# the spare "uinteger" meanwhile) and runs Lemire's method on each: floor(w n / 2**32)
# unless the low half of w n is under 2**32 mod n (chance n / 2**32), when the next word
# is used instead. Run here, an output costs 2.6 ns where random_raw's call per output
# took 5 ns and a trip through memory; tests/inference/test_counting.py holds every
# kernel below to Generator.integers, values and the generator's state after
_PCG_MUL_HI = 2549297995355413924
_PCG_MUL_LO = 4865540595714422341
#: the multiplier squared (mod 2**128): two steps at once, for the two chains below
_PCG_MUL2_HI = (((_PCG_MUL_HI << 64) | _PCG_MUL_LO) ** 2 >> 64) % 2**64
_PCG_MUL2_LO = (((_PCG_MUL_HI << 64) | _PCG_MUL_LO) ** 2) % 2**64
#: 64-bit outputs per batch: a batch's values stay in the first-level cache
PCG_BATCH = 128

def _mulhi_python(a: Any, b: Any) -> Any:
    return np.uint64((int(a) * int(b)) >> 64)


_mulhi: Any = _mulhi_python

if numba is not None:
    from llvmlite import ir as _ir

    @numba.extending.intrinsic
    def _mulhi_ir(typingctx: Any, a: Any, b: Any) -> Any:  # pragma: no cover - compiled
        # the high half of a 64 x 64-bit product (one instruction; numba has no
        # operator for it)
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            wide = _ir.IntType(128)
            p = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
            return builder.trunc(builder.lshr(p, _ir.Constant(wide, 64)), _ir.IntType(64))

        return numba.types.uint64(numba.types.uint64, numba.types.uint64), codegen

    _mulhi = _mulhi_ir


@inline
def _mul_add(x_hi: Any, x_lo: Any, m_hi: Any, m_lo: Any, c_hi: Any,
             c_lo: Any) -> tuple[Any, Any]:  # pragma: no cover - compiled
    # x m + c mod 2**128, in 64-bit halves
    lo = x_lo * m_lo
    hi = _mulhi(x_lo, m_lo) + x_hi * m_lo + x_lo * m_hi
    s_lo = lo + c_lo
    return hi + c_hi + (np.uint64(1) if s_lo < lo else np.uint64(0)), s_lo


@inline
def _output(s_hi: Any, s_lo: Any) -> Any:  # pragma: no cover - compiled
    x = s_hi ^ s_lo
    r = s_hi >> np.uint64(58)
    return (x >> r) | (x << ((np.uint64(64) - r) & np.uint64(63)))


@jit
def pcg_outputs(st: Any, buf: Any, k: int) -> None:  # pragma: no cover - compiled
    # the next k outputs into buf, st[0:2] (state high, low; st[2:4] the increment)
    # stepped past them. Two chains, the odd and the even outputs, each stepped two at
    # a time (multiplier a^2, increment c (a + 1)): one chain waits on its own multiply
    # (2.6 against 3.4 ns an output)
    m_hi, m_lo = np.uint64(_PCG_MUL_HI), np.uint64(_PCG_MUL_LO)
    a2_hi, a2_lo = np.uint64(_PCG_MUL2_HI), np.uint64(_PCG_MUL2_LO)
    i_hi, i_lo = st[2], st[3]
    zero = np.uint64(0)
    c2_hi, c2_lo = _mul_add(i_hi, i_lo, m_hi, m_lo + np.uint64(1), zero, zero)
    a_hi, a_lo = _mul_add(st[0], st[1], m_hi, m_lo, i_hi, i_lo)
    if k == 0:
        return
    b_hi, b_lo = _mul_add(a_hi, a_lo, m_hi, m_lo, i_hi, i_lo)
    f_hi, f_lo = a_hi, a_lo
    for j in range(k // 2):
        buf[2 * j] = _output(a_hi, a_lo)
        buf[2 * j + 1] = _output(b_hi, b_lo)
        f_hi, f_lo = b_hi, b_lo
        a_hi, a_lo = _mul_add(a_hi, a_lo, a2_hi, a2_lo, c2_hi, c2_lo)
        b_hi, b_lo = _mul_add(b_hi, b_lo, a2_hi, a2_lo, c2_hi, c2_lo)
    if k % 2:
        buf[k - 1] = _output(a_hi, a_lo)
        f_hi, f_lo = a_hi, a_lo
    st[0], st[1] = f_hi, f_lo


@inline
def _pcg_batch(st: Any, nn: Any, thr: Any, buf: Any, k: int) -> bool:  # pragma: no cover
    # the next k outputs into buf (k >= 1; uinteger: the last one's high half, spent
    # or spare); True when none of their words is rejected (one loop, vectorized)
    low, s32 = np.uint64(0xFFFFFFFF), np.uint64(32)
    pcg_outputs(st, buf, k)
    st[5] = buf[k - 1] >> s32
    rejected = False
    for j in range(k):
        rejected |= ((((buf[j] & low) * nn) & low) < thr) | ((((buf[j] >> s32) * nn) & low) < thr)
    return not rejected


@jit
def _pcg_take(st: Any, nn: Any, thr: Any, buf: Any, k: int, out: Any, got: int,
              need: int) -> int:  # pragma: no cover - compiled
    # a batch of k outputs with rejected words, a word at a time: its values into
    # out[got:], up to need in all; has_uint32 set when the last output's high half
    # is left over
    low, s32 = np.uint64(0xFFFFFFFF), np.uint64(32)
    for j in range(2 * k):
        w = (buf[j >> 1] & low) if j % 2 == 0 else (buf[j >> 1] >> s32)
        m = w * nn
        if (m & low) >= thr:
            out[got] = m >> s32
            got += 1
            if got == need:
                st[4] = np.uint64(j % 2 == 0)
                break
    return got


@jit
def pcg_bounded(st: Any, n: int, threshold: int, buf: Any, out: Any,
                need: int) -> int:  # pragma: no cover - compiled
    # up to need (1 <= need <= 2 len(buf)) values below n into out (room for need + 1)
    # from the generator st (uint64: state high, low, increment high, low, has_uint32,
    # uinteger), left as next_uint32 leaves it; returns how many (fewer when words
    # were rejected). The spare half first, then a batch of outputs, whose words are
    # taken without a branch per word when none is rejected (most batches)
    nn, thr = np.uint64(n), np.uint64(threshold)
    low, s32 = np.uint64(0xFFFFFFFF), np.uint64(32)
    got = 0
    if st[4]:
        st[4] = np.uint64(0)
        m = st[5] * nn
        if (m & low) >= thr:
            out[0] = m >> s32
            got = 1
    if got == need:
        return got
    k = min(buf.shape[0], (need - got + 1) // 2)
    if not _pcg_batch(st, nn, thr, buf, k):
        return _pcg_take(st, nn, thr, buf, k, out, got, need)
    for j in range(k):
        out[got + 2 * j] = ((buf[j] & low) * nn) >> s32
        out[got + 2 * j + 1] = ((buf[j] >> s32) * nn) >> s32
    take = min(2 * k, need - got)
    st[4] = np.uint64(take < 2 * k)
    return got + take


@jit
def pcg_integers(st: Any, n: int, threshold: int, out: Any) -> None:  # pragma: no cover
    # out[:] = Generator.integers(0, n, out.size) from the generator st (pcg_bounded)
    buf = np.empty(PCG_BATCH, dtype=np.uint64)
    vals = np.empty(2 * PCG_BATCH + 1, dtype=np.intp)
    filled = 0
    while filled < out.shape[0]:
        got = pcg_bounded(st, n, threshold, buf, vals, min(2 * PCG_BATCH, out.shape[0] - filled))
        out[filled:filled + got] = vals[:got]
        filled += got


@jit
def pcg_count8(st: Any, n: int, threshold: int, small: Any,
               size: int) -> bool:  # pragma: no cover - compiled
    # the counts of size values of pcg_integers, counted into the 8-bit counts small
    # (zeroed first) as they are drawn, never stored (count8's reasons); False when a
    # count would pass 255, st then part-way (the caller restores it). A batch is
    # counted straight from its outputs, checked for rejected words and for a count at
    # 255 once at its end (a branch per value mispredicts, and a check before it costs
    # a pass); the rare batch with a rejected word (6 % at 1e6) is counted off again
    # and taken a word at a time
    small[:] = 0
    nn, thr = np.uint64(n), np.uint64(threshold)
    low, s32 = np.uint64(0xFFFFFFFF), np.uint64(32)
    buf = np.empty(PCG_BATCH, dtype=np.uint64)
    vals = np.empty(2 * PCG_BATCH + 1, dtype=np.intp)
    filled = 0
    while filled < size:
        need = min(2 * PCG_BATCH, size - filled)
        over = False
        if st[4]:  # a spare half first
            got = pcg_bounded(st, n, threshold, buf, vals, 1)
            for j in range(got):
                v = small[vals[j]]
                over |= v == 255
                small[vals[j]] = v + 1
            if over:
                return False
            filled += got
            continue
        k = (need + 1) // 2
        pcg_outputs(st, buf, k)
        st[5] = buf[k - 1] >> s32
        rejected = False
        for j in range(need // 2):
            m1 = (buf[j] & low) * nn
            m2 = (buf[j] >> s32) * nn
            rejected |= ((m1 & low) < thr) | ((m2 & low) < thr)
            u = np.intp(m1 >> s32)
            v = small[u]
            over |= v == 255
            small[u] = v + 1
            u = np.intp(m2 >> s32)
            v = small[u]
            over |= v == 255
            small[u] = v + 1
        if need % 2:
            m1 = (buf[k - 1] & low) * nn
            rejected |= (m1 & low) < thr
            u = np.intp(m1 >> s32)
            v = small[u]
            over |= v == 255
            small[u] = v + 1
        if rejected:  # counted off again, then a word at a time
            for j in range(need):
                small[np.intp((((buf[j >> 1] >> (s32 * np.uint64(j & 1))) & low) * nn) >> s32)] -= 1
            got = _pcg_take(st, nn, thr, buf, k, vals, 0, need)
            over = False
            for j in range(got):
                v = small[vals[j]]
                over |= v == 255
                small[vals[j]] = v + 1
        else:
            got = need
            st[4] = np.uint64(need % 2)
        if over:
            return False
        filled += got
    return True
