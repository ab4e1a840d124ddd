"""The compiled loop of average gain's exact sum on a large weighted table (numba, the
``fast`` extra): :func:`gain_sum_bins`, reached only through
``early_recognition._gain_sum`` for tables of at least
:data:`~binmetrics.backends.COMPILED_TABLE_ROWS` distinct scores.

NumPy's way (``_gain_sum``) splits every negative weight into three parts, takes their
cumulative sums a block at a time, the exact products of the positives with the three
differences (Dekker), and :func:`~binmetrics.measures._util.exact_sum` of those six
arrays: about ten passes over the table and 0.36 s at 1e7 rows. Here one loop takes the
same parts and partial sums, row by row in the same order (no reassociation, no fused
multiply-add: the same floats), and a second loop over the groups with positives adds
the six exact product terms of each into a superaccumulator: integer bins of 32 bits
of the binary expansion (Neal, "Fast exact summation using small and large
superaccumulators", 2015), exact for up to 2^31 terms per bin. The caller rounds the
bins' total once, as ``math.fsum`` rounds: the same correctly rounded sum of the same
terms, so the same float as NumPy's way, bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from binmetrics.backends import inline, jit

__all__ = ["ACC_BINS", "ACC_SHIFT", "gain_sum_bins"]

#: a term m 2^(e - 53) (m < 2^53 an integer) lands at bit e - 53 + ACC_SHIFT >= 0 of the
#: accumulator (e >= -1073 for every finite double)
ACC_SHIFT = 1126
#: 32-bit bins: bit 2097 (the largest finite double's top bit) + 85 bits of a shifted
#: mantissa, rounded up
ACC_BINS = 70


@inline
def _accumulate(acc: Any, at: int, bits: Any) -> None:  # pragma: no cover - compiled
    # the double with these bits is m 2^(E - 1075) exactly (E its biased exponent, m its
    # significand with the leading bit, or E = 1 for subnormals); its 53 bits, shifted
    # to their place, are spread over three bins of 32 bits (from acc[at]), each added
    # as a number below 2^32
    mag = bits & np.int64(0x7FFFFFFFFFFFFFFF)
    if mag == 0:
        return
    e = mag >> 52
    m = mag & np.int64(0xFFFFFFFFFFFFF)
    if e == 0:
        e = np.int64(1)
    else:
        m |= np.int64(1) << 52
    place = e - 1075 + ACC_SHIFT
    k = at + (place >> 5)
    r = place & 31
    lo = (m & np.int64(0xFFFFFFFF)) << r   # < 2^63
    hi = (m >> 32) << r                   # < 2^53
    sign = (bits >> 63) | np.int64(1)  # -1 or 1, without a branch to mispredict
    acc[k] += sign * (lo & np.int64(0xFFFFFFFF))
    acc[k + 1] += sign * ((lo >> 32) + (hi & np.int64(0xFFFFFFFF)))
    acc[k + 2] += sign * (hi >> 32)


@inline
def _two_product(a: float, b: float) -> tuple[float, float]:  # pragma: no cover
    # a b = p + e exactly (Dekker's product with Veltkamp's split, as
    # early_recognition._two_product; |a|, |b| < 2^996)
    p = a * b
    c = 134217729.0 * a
    ah = c - (c - a)
    al = a - ah
    c = 134217729.0 * b
    bh = c - (c - b)
    bl = b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


@jit
def gain_sum_bins(neg: Any, idx: Any, pos: Any, s1: float, s2: float, chunk: int,
                  acc: Any) -> None:  # pragma: no cover - compiled
    """Add sum over the groups with positives (rows ``idx``, positives ``pos``) of
    pos (N - 2 fp0 - neg) to the superaccumulator ``acc`` (int64, :data:`ACC_BINS`),
    with fp0 the negatives above each group split as ``_gain_sum`` splits them (the
    extraction constants ``s1``, ``s2``; blocks of ``chunk`` rows). Two passes over the
    rows, and no array of the groups: the first takes the three parts' totals, the
    second each group's differences from them, as soon as it reaches the group."""
    n = neg.shape[0]
    g = idx.shape[0]
    c1 = c2 = c3 = 0.0
    for a in range(0, n, chunk):
        l1 = l2 = l3 = 0.0  # the block's cumulative sums, as np.cumsum adds them
        for i in range(a, min(a + chunk, n)):
            v = neg[i]
            q1 = (s1 + v) - s1
            r = v - q1
            q2 = (s2 + r) - s2
            l1 += q1
            l2 += q2
            l3 += r - q2
        c1 = l1 + c1
        c2 = l2 + c2
        c3 = l3 + c3
    # four copies of the bins, each group's terms to the next: a group's additions then
    # do not wait on the previous group's to the same bins
    lanes = np.zeros(4 * ACC_BINS, dtype=np.int64)
    buf = np.empty(6)
    bits = buf.view(np.int64)
    t1 = t2 = t3 = 0.0
    j = 0
    for a in range(0, n, chunk):
        l1 = l2 = l3 = 0.0
        for i in range(a, min(a + chunk, n)):
            v = neg[i]
            q1 = (s1 + v) - s1
            r = v - q1
            q2 = (s2 + r) - s2
            q3 = r - q2
            l1 += q1
            l2 += q2
            l3 += q3
            if j < g and idx[j] == i:  # fp0: inclusive + carry, less the group's own part
                p = pos[j]
                buf[0], buf[1] = _two_product(p, c1 - 2.0 * ((l1 + t1) - q1))
                buf[2], buf[3] = _two_product(p, c2 - 2.0 * ((l2 + t2) - q2))
                buf[4], buf[5] = _two_product(p, (c3 - 2.0 * ((l3 + t3) - q3)) - v)
                at = (j & 3) * ACC_BINS
                for q in range(6):
                    _accumulate(lanes, at, bits[q])
                j += 1
        t1 = l1 + t1
        t2 = l2 + t2
        t3 = l3 + t3
    for q in range(4):
        for b in range(ACC_BINS):
            acc[b] += lanes[q * ACC_BINS + b]
