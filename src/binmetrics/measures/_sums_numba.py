"""The compiled loops of the probabilistic measures' blocked pass (numba, the ``fast``
extra): each sum group's sums over one block of a large table in one read of the block
(:func:`poly_sums`, :func:`log_sums`, :func:`spiegelhalter_sums`), the logistic fits'
compression of a block into bins of logit(p) (:func:`logit_moments`), and the sums of
a calibration bin (:func:`run_moments`), and the mean precision's chain over the cuts
(:func:`precision_sum`, the NumPy walk's floats).

Reached only through :func:`binmetrics.measures.sums.compiled_sums`, for tables of at
least :data:`~binmetrics.backends.COMPILED_TABLE_ROWS` distinct scores. NumPy
computes the same sums from a temporary per term and a dot product per sum, several
reads of the block; here every term is formed in registers. The logarithms are still
NumPy's (``Block.log_s``, ``Block.log_miss``): its vectorised logarithm is several times
faster than the one numba calls, and the log losses and the fits share them.

The sums are reassociated (``fastmath`` "reassoc": the compiler keeps several partial
sums in vector lanes), so they agree with NumPy's to rounding, not bit for bit; the order
is fixed by the compiled loop, and each group has its own loop, so a measure asked alone
and asked with the others reads the same floats. Each loop reads whichever integer or
float type the table's counts have (numba compiles one version per type).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from binmetrics.backends import jit

__all__ = ["MOMENT_ORDER", "log_sums", "logit_moments", "poly_sums", "precision_sum",
           "run_moments", "spiegelhalter_sums"]

#: partial sums may be reassociated (kept in vector lanes) and a * b + c fused: nothing
#: that assumes the values finite, or changes what a single term rounds to beyond that
_FAST = {"reassoc", "contract"}

#: the highest moment :func:`logit_moments` sums per bin (``logistic_fit.TABLE_BINS``;
#: a test holds them equal, and another order takes NumPy)
MOMENT_ORDER = 3


@jit(fastmath=_FAST)
def poly_sums(s: Any, pos: Any, neg: Any
              ) -> tuple[float, float, float, float]:  # pragma: no cover - compiled
    """sum pos (1-s), sum neg s, sum pos (1-s)^2, sum neg s^2 (``sums.POLY``)."""
    a0 = a1 = a2 = a3 = 0.0
    for i in range(s.shape[0]):
        x = s[i]
        p = float(pos[i])
        q = float(neg[i])
        m = 1.0 - x
        a0 += p * m
        a1 += q * x
        a2 += p * (m * m)
        a3 += q * (x * x)
    return a0, a1, a2, a3


@jit(fastmath=_FAST)
def log_sums(s: Any, pos: Any, neg: Any, ls: Any, l1: Any, pi: float, lpi: float,
             l1pi: float, with_info: bool
             ) -> tuple[float, float, float, float, float]:  # pragma: no cover - compiled
    """The sums of ``sums.LOG_PASS`` from the block's logarithms ``ls`` = ln max(s, eps)
    and ``l1`` = ln max(1 - s, eps): -sum pos ln p, -sum neg ln(1-p), the focal terms at
    gamma = 2, and the information score (nats) at prior pi (0 unless ``with_info``).
    A case's information is ln p - ln pi (positive, p >= pi) or ln(1-pi) - ln(1-p)
    (positive below), and ln pi - ln p (negative, p > pi) or ln(1-p) - ln(1-pi)."""
    a0 = a1 = a2 = a3 = a4 = 0.0
    for i in range(s.shape[0]):
        x = s[i]
        p = float(pos[i])
        q = float(neg[i])
        lx = ls[i]
        lm = l1[i]
        m = 1.0 - x
        a0 += p * lx
        a1 += q * lm
        a2 += p * ((m * m) * lx)
        a3 += q * ((x * x) * lm)
        if with_info:
            ip = (lx - lpi) if x >= pi else (l1pi - lm)
            iq = (lpi - lx) if x > pi else (lm - l1pi)
            a4 += p * ip + q * iq
    return -a0, -a1, -a2, -a3, a4


@jit(fastmath=_FAST)
def spiegelhalter_sums(s: Any, pos: Any, neg: Any
                       ) -> tuple[float, float, float, float]:  # pragma: no cover - compiled
    """sum pos (1-p)(1-2p), sum neg p(1-2p), and sum (1-2p)^2 p(1-p) over the positives
    and over the negatives (``calibration.SPIEGELHALTER``), each term rounded as the
    NumPy block rounds it."""
    a0 = a1 = a2 = a3 = 0.0
    for i in range(s.shape[0]):
        x = s[i]
        p = float(pos[i])
        q = float(neg[i])
        r = 1.0 - 2.0 * x  # exact doubling, one rounding
        sq = x * r
        rq = r - sq
        v = sq * rq
        a0 += p * rq
        a1 += q * sq
        a2 += p * v
        a3 += q * v
    return a0, a1, a2, a3


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


@jit(fastmath=_FAST)
def logit_moments(ln_p: Any, ln_q: Any, pos: Any, neg: Any, inv_width: float, lower: Any,
                  moments: Any, positives: Any, first: Any) -> int:  # pragma: no cover
    """Compress rows of descending logits x = ``ln_p - ln_q`` (ln p and ln(1 - p): the
    differences are taken here, with no array of them) into bins floor(x / width), as
    ``logistic_fit.logit_bins`` bins them: per bin, its index k (``lower``; the lower
    edge is k width), the moments sum tot d^m, m = 0..3 (``moments``' rows;
    d = x / width - k, the row's place in the bin, exact as the width is a power of
    two), its positives and their first moment sum pos d. Returns the number of bins.

    A bin is a run of rows, found by galloping from its first row and bisecting (each
    row is not floored on its own): a row whose logarithms rounded it across an edge of
    its neighbours' bin (x is monotone only to rounding) is kept in their bin, with
    d a rounding beyond [0, 1), which the fits' expansion takes as well."""
    n = ln_p.shape[0]
    nb = 0
    a = 0
    while a < n:
        k = np.floor((ln_p[a] - ln_q[a]) * inv_width)
        lo = a + 1   # rows before lo are in the bin
        hi = a + 1   # the row tested next
        step = 1
        while hi < n and (ln_p[hi] - ln_q[hi]) * inv_width >= k:
            lo = hi + 1
            step *= 2
            hi = a + step
        if hi > n:
            hi = n
        while lo < hi:  # the first row of [lo, hi) below the bin, or hi
            mid = (lo + hi) >> 1
            if (ln_p[mid] - ln_q[mid]) * inv_width >= k:
                lo = mid + 1
            else:
                hi = mid
        s0 = s1 = s2 = s3 = sp = sd = 0.0
        # slices indexed from 0: numba vectorises that loop, not one from a (3x faster)
        xp, xq, ps, ns = ln_p[a:lo], ln_q[a:lo], pos[a:lo], neg[a:lo]
        for i in range(xp.shape[0]):
            d = (xp[i] - xq[i]) * inv_width - k
            p = float(ps[i])
            t = p + float(ns[i])
            td = t * d
            td2 = td * d
            s0 += t
            s1 += td
            s2 += td2
            s3 += td2 * d
            sp += p
            sd += p * d
        lower[nb] = k
        moments[0, nb] = s0
        moments[1, nb] = s1
        moments[2, nb] = s2
        moments[3, nb] = s3
        positives[nb] = sp
        first[nb] = sd
        nb += 1
        a = lo
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
