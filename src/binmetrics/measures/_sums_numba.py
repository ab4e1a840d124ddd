"""The compiled loops of the probabilistic measures' blocked pass (numba, the ``fast``
extra): the whole family's pass over one block of a large table (:func:`family_block`:
the sums of ``sums.POLY``, ``sums.LOG_PASS`` and ``calibration.SPIEGELHALTER`` and the
logistic fits' compression into bins of logit(p), every logarithm taken in registers),
the log losses at another clip (:func:`log_sums`, from NumPy's logarithms), the sums of
a calibration bin (:func:`run_moments`), and the mean precision's chain over the cuts
(:func:`precision_sum`, the NumPy walk's floats).

Reached only through :func:`binmetrics.measures.block_pass.compiled_sums`, for tables of at
least :data:`~binmetrics.backends.COMPILED_TABLE_ROWS` distinct scores. NumPy
computes the same sums from a temporary per term and a dot product per sum, several
reads of the block; here every term is formed in registers, in one read.

The sums are reassociated (``fastmath`` "reassoc": the compiler keeps several partial
sums in vector lanes), so they agree with NumPy's to rounding, not bit for bit; the order
is fixed by the compiled loop, and every group of the family reads the one loop's
output, so a measure asked alone and asked with the others reads the same floats. Each
loop reads whichever integer or float type the table's counts have (numba compiles one
version per type).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from binmetrics.backends import inline, jit

__all__ = ["FAMILY_SUMS", "FAMILY_WIDTHS", "MOMENT_ORDER", "family_block", "log_sums",
           "precision_sum", "run_moments", "touch"]

#: partial sums may be reassociated (kept in vector lanes) and a * b + c fused: nothing
#: that assumes the values finite, or changes what a single term rounds to beyond that
_FAST = {"reassoc", "contract"}

#: the sums :func:`family_block` writes, by group and in this order: the terms of
#: ``sums.POLY``, ``sums.LOG_PASS`` and ``calibration.SPIEGELHALTER`` (a test holds them
#: to the groups' declarations)
FAMILY_WIDTHS = (4, 5, 4)
FAMILY_SUMS = sum(FAMILY_WIDTHS)

#: :func:`family_block`'s anchors: below _TINY a bin's scores are scaled by _SCALE
#: (a power of two) before the first one's inverse is taken
_TINY, _SCALE = 2.0**-900, 2.0**900

#: the highest moment :func:`family_block` sums per bin of logit(p) (with
#: ``block_pass.FAMILY_BIN_WIDTH``, the bins of ``logistic_fit.REPLICATE_BINS``)
MOMENT_ORDER = 6


@jit(fastmath=_FAST)
def log_sums(s: Any, pos: Any, neg: Any, ls: Any, l1: Any, pi: float, lpi: float,
             l1pi: float, with_info: bool
             ) -> tuple[float, float, float, float, float]:  # pragma: no cover - compiled
    """The sums of ``sums.LOG_PASS`` from the block's logarithms ``ls`` = ln max(s, eps)
    and ``l1`` = ln max(1 - s, eps) (NumPy's, at an eps other than the family pass's):
    -sum pos ln p, -sum neg ln(1-p), the focal terms at gamma = 2, and the information
    score (nats) at prior pi (0 unless ``with_info``), each row's terms as
    :func:`_row_sums` takes them."""
    a0 = a1 = a2 = a3 = a4 = 0.0
    for i in range(s.shape[0]):
        t = _row_sums(s[i], float(pos[i]), float(neg[i]), ls[i], l1[i], pi, lpi, l1pi,
                      with_info)
        a0 += t[4]
        a1 += t[5]
        a2 += t[6]
        a3 += t[7]
        a4 += t[8]
    return a0, a1, a2, a3, a4


@jit(fastmath=_FAST)
def run_moments(s: Any, pos: Any, neg: Any, lo: int, hi: int, chunk: int
                ) -> tuple[float, float, float, float, float]:  # pragma: no cover - compiled
    """Over the rows [lo, hi): sum w, sum pos, sum w p, sum w p^2 and sum pos p, w the
    row's cases and p its score (a calibration bin, ``calibration._bin_sums``). Each
    piece of ``chunk`` rows is summed on its own (in vector lanes) and the pieces'
    sums added in order, as the NumPy branch adds its pieces: a bin of millions of rows
    summed in one run of lanes would lose 20 times more to rounding."""
    w = sp = wx = wx2 = px = 0.0
    for a in range(lo, hi, chunk):
        b = min(a + chunk, hi)
        xs, ps, ns = s[a:b], pos[a:b], neg[a:b]  # a loop from 0 vectorises, from a not
        w0 = sp0 = wx0 = wx20 = px0 = 0.0
        for i in range(xs.shape[0]):
            x = xs[i]
            p = float(ps[i])
            t = p + float(ns[i])
            tx = t * x
            w0 += t
            sp0 += p
            wx0 += tx
            wx20 += tx * x
            px0 += p * x
        w += w0
        sp += sp0
        wx += wx0
        wx2 += wx20
        px += px0
    return w, sp, wx, wx2, px


@inline
def _ln1p_small(u: float) -> float:  # pragma: no cover - compiled
    """ln(1 + u) for the small u of :func:`family_block`, to a rounding of the
    logarithm it serves: the series to u^5 in Estrin's order (short chains of
    multiply-adds). In a bin 2^-9 wide in logit(p), ln p moves by at most 2^-9 (1 - p),
    so |u| <= 2^-9 (1 - p), and the first term left out, u^6 / 6, stays below 3e-18 of
    |ln p| over (0, 1) (the same for 1 - p); to u^4 it would reach 1e-15."""
    u2 = u * u
    return u + u2 * ((u * (1.0 / 3.0) - 0.5) + u2 * (u * 0.2 - 0.25))


@jit
def _inverse(v: float) -> float:  # pragma: no cover - compiled
    """1 / v, compiled without fastmath: a multiplication by it in a loop that may
    reassociate stays a multiplication (the compiler would otherwise divide every row
    by v again: the same time on this AVX-512 machine, 28.8 against 28.1 ms over 1e7
    rows, but a vector division costs many multiplications on older CPUs)."""
    return 1.0 / v


@inline
def _in_bin(p: float, upper: bool, edge: float) -> bool:  # pragma: no cover - compiled
    """Whether score p lies at or above a bin's lower edge (see :func:`family_block`)."""
    return (1.0 - p) <= edge if upper else p >= edge


@inline
def _row_sums(x: float, p: float, q: float, lx: float, lm: float, pi: float, lpi: float,
              l1pi: float, with_info: bool) -> tuple[float, ...]:  # pragma: no cover
    """One row's terms of the sums :func:`family_block` returns (lx = ln max(x, eps),
    lm = ln max(1 - x, eps)), as the NumPy blocks of ``sums.POLY``, ``sums.LOG_PASS``
    (its losses negated) and ``calibration.SPIEGELHALTER`` round them. A case's
    information (nats, at prior pi) is ln p - ln pi (positive, p >= pi) or
    ln(1-pi) - ln(1-p) (positive below), and ln pi - ln p (negative, p > pi) or
    ln(1-p) - ln(1-pi)."""
    m = 1.0 - x
    ip = iq = 0.0
    if with_info:  # a case's information (nats) at prior pi
        ip = (lx - lpi) if x >= pi else (l1pi - lm)
        iq = (lpi - lx) if x > pi else (lm - l1pi)
    r = 1.0 - 2.0 * x  # exact doubling, one rounding
    sq = x * r
    rq = r - sq
    v = sq * rq
    return (p * m, q * x, p * (m * m), q * (x * x),
            -(p * lx), -(q * lm), -(p * ((m * m) * lx)), -(q * ((x * x) * lm)),
            p * ip + q * iq, p * rq, q * sq, p * v, q * v)


@jit
def touch(s: Any, pos: Any, neg: Any) -> float:  # pragma: no cover - compiled
    """Read one element of each cache line of a block (a sum nobody needs), so that
    the lines arrive together before :func:`family_block` reads them: its arithmetic
    per row leaves the memory idle between its loads, and from memory it ran 2.4x
    slower than from cache (at 1e7 rows: 40 ms, 17 ms; 27 ms with this first)."""
    t = 0.0
    for i in range(0, s.shape[0], 8):
        t += s[i]
    step = 64 // pos.itemsize
    for i in range(0, pos.shape[0], step):
        t += pos[i] + neg[i]
    return t


@jit(fastmath=_FAST)
def family_block(s: Any, pos: Any, neg: Any, pi: float, lpi: float, l1pi: float,
                 with_info: bool, eps: float, inv_width: float, lower: Any, moments: Any,
                 positives: Any, first: Any, out: Any) -> int:  # pragma: no cover
    """The probabilistic family's pass over one block of descending scores ``s``, in
    one read of the block, with no array of logarithms.

    Writes to ``out`` the 13 sums of ``sums.POLY`` (4), ``sums.LOG_PASS`` at ``eps``
    (5; the information score at prior pi, 0 unless ``with_info``) and
    ``calibration.SPIEGELHALTER`` (4), and compresses the rows strictly inside (0, 1)
    into bins of x = logit(p), floor(x / width), as ``logistic_fit`` does (per bin: its
    index k in ``lower``, sum tot d^m for m = 0..:data:`MOMENT_ORDER` in ``moments``'
    rows, the positives and sum pos d; d = x / width - k). Returns the number of bins,
    or -1 when ``lower`` holds too few (nothing is then complete).

    The bins also give the logarithms. A bin's first row (p0, 1 - p0) takes libm's
    ln p0 and ln(1 - p0); every row of the bin lies within x of it by at most the width
    (2^-9), so p / p0 and (1 - p) / (1 - p0) lie within 2^-9 of 1 and
    ln p = ln p0 + ln(1 + u), u = (p - p0) / p0 (p - p0 exact), is a short series
    (:func:`_ln1p_small`) formed in registers with every sum; the same for 1 - p. Both
    are within about a rounding of the logarithm (tested: within 2 ulp of NumPy's, at
    every magnitude).
    Vectorised logarithms in numba's loops would need an SVML-patched llvmlite; this
    needs none. A bin ends at the first row below its lower edge expit(k width) (the
    scores descend), found from the last bin's length by galloping and bisection;
    a bin's first row whose logarithms put it a rounding above the last bin's index
    takes the next index down, so the indices descend and d is a rounding beyond
    [0, 1) there, as the fits' expansion allows. Rows with p at 0 or 1 take libm's
    logarithms of their clipped scores, and no bin."""
    n = s.shape[0]
    ln_eps = math.log(eps)
    a0 = a1 = a2 = a3 = b0 = b1 = b2 = b3 = b4 = c0 = c1 = c2 = c3 = 0.0
    lo = 0
    while lo < n and s[lo] >= 1.0:
        lo += 1
    hi = n
    while hi > lo and s[hi - 1] <= 0.0:
        hi -= 1
    out[:] = 0.0
    for j in range(lo + n - hi):  # p at 0 or 1: a table's first and last rows
        i = j if j < lo else hi + j - lo
        x = s[i]
        t = _row_sums(x, float(pos[i]), float(neg[i]), math.log(max(x, eps)),
                      math.log(max(1.0 - x, eps)), pi, lpi, l1pi, with_info)
        for r in range(FAMILY_SUMS):
            out[r] += t[r]
    cap = lower.shape[0]
    nb = 0
    k_last = np.inf
    guess = 1
    a = lo
    while a < hi:
        s0 = s[a]
        m0 = 1.0 - s0
        la = math.log(s0)
        lb = math.log(m0)
        # p and p0 are scaled by a power of two (exactly) before p - p0 is taken and
        # 1 / p0 multiplies it: 1 / p0 overflows for a subnormal p0 (and a reassociated
        # (p - p0) scale / (p0 scale) would overflow on the way)
        scale = _SCALE if s0 < _TINY else 1.0
        s0s = s0 * scale
        ia = _inverse(s0s)
        ib = _inverse(m0)
        k = np.floor((la - lb) * inv_width)
        if k >= k_last:
            k = k_last - 1.0
        # the bin's rows, x >= k width: p >= expit(k width) below x = 0, and above it
        # 1 - p <= expit(-k width) (1 - p exact there; a rounded expit near 1 would
        # merge bins); both edges are expit(-|k| width), taken without overflow (a
        # subnormal edge is rounded to within half its ulp, so a row that joins the
        # bin by it lies within 2^-8 of p0 still)
        upper = k >= 0.0
        e = math.exp(-abs(k) / inv_width)
        edge = e / (1.0 + e)
        g = a + guess
        if g < hi and _in_bin(s[g], upper, edge):  # the end lies beyond the guess
            e_lo = g + 1
            step = guess
            e_hi = g + step
            while e_hi < hi and _in_bin(s[e_hi], upper, edge):
                e_lo = e_hi + 1
                step *= 2
                e_hi = g + step
            e_hi = min(e_hi, hi)
        else:
            e_lo = a + 1
            e_hi = min(g, hi)
        while e_lo < e_hi:  # the first row below the edge in [e_lo, e_hi), or e_hi
            mid = (e_lo + e_hi) >> 1
            if _in_bin(s[mid], upper, edge):
                e_lo = mid + 1
            else:
                e_hi = mid
        e = e_lo
        if nb == cap:
            return -1
        t0 = t1 = t2 = t3 = t4 = t5 = t6 = tp = td = 0.0
        # slices indexed from 0: numba vectorises that loop, not one from a
        xs, ps, ns = s[a:e], pos[a:e], neg[a:e]
        for i in range(xs.shape[0]):
            x = xs[i]
            p = float(ps[i])
            q = float(ns[i])
            lx = la + _ln1p_small((x * scale - s0s) * ia)
            lm = lb + _ln1p_small(((1.0 - x) - m0) * ib)
            d = (lx - lm) * inv_width - k
            d2 = d * d
            d3 = d2 * d
            w = p + q
            wd3 = w * d3
            t0 += w
            t1 += w * d
            t2 += w * d2
            t3 += wd3
            t4 += wd3 * d
            t5 += wd3 * d2
            t6 += wd3 * d3
            tp += p
            td += p * d
            t = _row_sums(x, p, q, max(lx, ln_eps), max(lm, ln_eps), pi, lpi, l1pi,
                          with_info)
            # thirteen scalars, not an array: the compiler keeps them in vector lanes
            a0 += t[0]
            a1 += t[1]
            a2 += t[2]
            a3 += t[3]
            b0 += t[4]
            b1 += t[5]
            b2 += t[6]
            b3 += t[7]
            b4 += t[8]
            c0 += t[9]
            c1 += t[10]
            c2 += t[11]
            c3 += t[12]
        lower[nb] = k
        bin_moments = (t0, t1, t2, t3, t4, t5, t6)
        for r in range(MOMENT_ORDER + 1):
            moments[r, nb] = bin_moments[r]
        positives[nb] = tp
        first[nb] = td
        nb += 1
        k_last = k
        guess = e - a
        a = e
    binned = (a0, a1, a2, a3, b0, b1, b2, b3, b4, c0, c1, c2, c3)
    for r in range(FAMILY_SUMS):
        out[r] += binned[r]
    return nb


@jit(error_model="numpy")
def precision_sum(pos: Any, neg: Any) -> float:  # pragma: no cover - compiled
    """sum over the cuts of TP / (TP + FP) (``ranking.mean_precision``), TP and FP the
    running sums in table order and the quotients added in one sequential chain: the
    order of ``iter_cuts`` and of the NumPy walk, so the same float. Not reassociated
    (a chain of divisions and additions: 2 ns a row)."""
    tp = 0.0
    fp = 0.0
    total = 0.0
    for i in range(pos.shape[0]):
        tp += pos[i]
        fp += neg[i]
        total += tp / (tp + fp)
    return total
