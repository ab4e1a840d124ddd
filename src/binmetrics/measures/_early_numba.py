"""The compiled loops of two early-recognition measures on a large weighted table
(numba, the ``fast`` extra), reached only through ``early_recognition`` for tables of at
least :data:`~binmetrics.backends.COMPILED_TABLE_ROWS` distinct scores.

**Average gain** (:func:`gain_sum_bins`). NumPy's way (``_gain_sum``) splits every
negative weight into three parts, takes their cumulative sums a block at a time, the
exact products of the positives with the three differences (Dekker), and
:func:`~binmetrics.measures._util.exact_sum` of those six arrays: about ten passes over
the table and 0.32 s at 1e7 rows. Here one loop takes the same parts and partial sums,
row by row in the same order (no reassociation, no fused multiply-add: the same floats),
and adds the six exact product terms of each group with positives into a
superaccumulator: integer bins of 32 bits of the binary expansion (Neal, "Fast exact
summation using small and large superaccumulators", 2015), exact for up to 2^31 terms
per bin. The caller rounds the bins' total once, as ``math.fsum`` rounds: the same
correctly rounded sum of the same terms, so the same float as NumPy's way, bit for bit.

**Average lift** (:func:`lift_sum`). sum_j g(j)/j over the cases, from the groups with
positives as ``_lift_sum`` takes it (each group's own cases, then the negative-only run
after it), with the same harmonic gaps, digamma and series per group, in one loop
instead of some forty array operations per piece (0.16 s at 1e7 weighted rows). The
logarithms are libm's, not NumPy's, and the sum runs in another order: the two agree
to rounding (1e-13 relative, tested), not bit for bit.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from binmetrics.backends import inline, jit

__all__ = ["ACC_BINS", "ACC_SHIFT", "gain_sum_bins", "lift_sum"]

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


# --- average lift ------------------------------------------------------------------------
#: B_2k / (2k) of psi's asymptotic series (``_special._SERIES``, which a test holds equal)
_S1, _S2, _S3, _S4, _S5, _S6 = (1.0 / 12.0, -1.0 / 120.0, 1.0 / 252.0, -1.0 / 240.0,
                                1.0 / 132.0, -691.0 / 32760.0)


@inline
def _digamma(x: float) -> float:  # pragma: no cover - compiled
    # psi(x), x >= 1, as _special.digamma: the recurrence up to x >= 10, then the series
    acc = 0.0
    while x < 10.0:
        acc += 1.0 / x
        x += 1.0
    inv2 = 1.0 / (x * x)
    series = (((((_S6 * inv2 + _S5) * inv2 + _S4) * inv2 + _S3) * inv2 + _S2) * inv2
              + _S1) * inv2
    return -acc + (math.log(x) - 0.5 / x - series)


@inline
def _harmonic_gap(c0: float, c1: float) -> float:  # pragma: no cover - compiled
    # H(c1) - H(c0), as early_recognition._harmonic_gap
    a = c0 + 1.0
    b = c1 + 1.0
    if a < 1000.0:
        return _digamma(b) - _digamma(a)
    m = b - a
    ab = a * b
    rest = math.log1p(m / a) + m / (2.0 * ab) + m * (a + b) / (12.0 * ab * ab)
    if a < 1e4:
        ab2 = ab * ab
        rest -= m * (a + b) * (a * a + b * b) / (120.0 * (ab2 * ab2))
    return rest


@inline
def _rise_series(a: float, m: float, terms: int) -> float:  # pragma: no cover - compiled
    # early_recognition._rise_series for one group
    u = 1.0 / a
    v = 1.0 / (a + m)
    x = m / a
    lx = math.log1p(x) / x if x > 0.0 else 1.0
    one_less = 1.0 - lx
    if x < 0.1:  # (x - log1p x)/x = x/2 - x^2/3 + ..., as many terms as x^k > 1e-17 needs
        n = 1
        xk = x
        while n < 17 and xk > 1e-17:  # the least n with x^n <= 1e-17 (17 from x = 0.1)
            xk *= x
            n += 1
        acc = 0.0
        for k in range(n, 0, -1):
            acc = x * ((1.0 if k % 2 else -1.0) / (k + 1) + acc)
        one_less = acc
    series = 0.5 + _S1 * (u + v)
    p = u + v
    vn = v
    for k in range(1, terms):
        vn = vn * v
        p = u * (u * p + vn)
        vn = vn * v
        p += vn
        if k == 1:
            series += _S2 * p
        elif k == 2:
            series += _S3 * p
        elif k == 3:
            series += _S4 * p
        elif k == 4:
            series += _S5 * p
        else:
            series += _S6 * p
    return one_less + lx * u - (a - 1.0) * u * v * series


@inline
def _mean_rise(c0: float, c1: float) -> float:  # pragma: no cover - compiled
    # early_recognition._mean_rise for one group
    a = c0 + 1.0
    m = c1 - c0
    if a >= 1000.0:
        return _rise_series(a, m, 2)
    if a >= 10.0:
        return _rise_series(a, m, 6)
    shift = math.ceil(10.0 - a)
    head = 0.0
    ak = a - 1.0
    for k in range(int(shift)):
        ratio = ak / (ak + k) if k else 1.0
        head += ratio / ((ak + 1.0 + k) * (ak + 1.0 + k + m))
    return (m + 1.0) * head + _rise_series(a + shift, m, 6) * ak / (ak + shift)


@jit(error_model="numpy")
def lift_sum(pos: Any, neg: Any, tp0: Any, fp0: Any, total: float) -> float:  # pragma: no cover
    """sum_j g(j)/j over every case of a table from its groups with positives (their
    positives, negatives and the running sums before them), as ``_lift_sum``: each
    group's cases, g rising by its positives, and the negative-only cases after it up
    to the next group (``total`` cases after the last)."""
    g = pos.shape[0]
    out = 0.0
    for j in range(g):
        c0 = tp0[j] + fp0[j]
        tp1 = tp0[j] + pos[j]
        c1 = tp1 + (fp0[j] + neg[j])
        end = tp0[j + 1] + fp0[j + 1] if j + 1 < g else total
        out += (tp0[j] * _harmonic_gap(c0, c1) + pos[j] * _mean_rise(c0, c1)
                + tp1 * _harmonic_gap(c1, end))
    return out
