r"""The lowess family of calibration measures (ici, e50, e90, emax): the absolute gap
between p and the observed rate smoothed by R's ``lowess(p, y, iter = 0)``, as
rms::val.prob computes ``Eavg``, ``E90`` and ``Emax`` (Austin & Steyerberg 2019).

The smoother is R's ``clowess`` (f = 2/3, delta = 1% of the range of p, no robustness
iterations), evaluated at every case and interpolated as ``approx(..., ties = mean)``.
It is defined on rows: integer weights act as repeated rows; within tied p the rows are
taken negatives first (R's ``lowess`` keeps the input order of ties, so R agrees on data
sorted by ``order(p, y)``). It runs on the count table's distinct scores instead
(``clowess_counts``): R's window bounds and fit points are row positions, mapped to
cumulative counts (a window may start inside a tie: its last rows, positives first),
and each of the about 1/delta = 100 local fits sums over the distinct scores in its
window, each weighted by its rows there. Its result equals R's row-by-row algorithm
(tests/measures/test_lowess_groups.py keeps that as the reference: 1e-12, ties and
integer weights included; on scores a few ulps apart, where R's own float sums lose
every digit, it follows R's algorithm in exact arithmetic).

A window spans two thirds of the scores, so summing term by term costs about 67 passes
over them; with many distinct scores the fits read instead precomputed power sums of
blocks of scores (``_LocalFit._taylor``: on each side of the fit point the tricube
weight is a polynomial, so a block's weighted sums are exact combinations of its power
sums) and sum term by term only the few blocks cut by the window's edges. Measured on
2 cores shared with other jobs (benchmarks/README.md, "issue 33, lowess at scale"):
0.06 s at 1e5 distinct scores, 0.16 s at 1e6 and 1.9 s (250 MB) at 1e7 (on rows,
before: 2.9 s at 1e6 and 73 s with 800 MB at 1e7, at a lower load); scores with 3
decimals 0.03 s at any size. At 1e6 distinct scores that would still add about 40% to
``to_dict()`` of every measure, so by default the measures are computed up to
``max_rows`` rows (100,000); beyond it they are NaN with a warning that says how to ask
for them at any size (``ev.value("ici", max_rows=None)``, on the command line
``--measures "ici(max_rows=none)"``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.exceptions import SumsUnavailable, report_undefined
from binmetrics.measures.calibration import BINNED_RAW_P
from binmetrics.measures.probabilistic import require_probabilities
from binmetrics.measures.registry import register
from binmetrics.table.counts import CountTable, FloatArray

IntArray = npt.NDArray[np.int64]

__all__ = ["LOWESS_MAX_ROWS", "clowess_counts", "e50", "e90", "emax", "ici", "lowess_gaps"]

#: the default size limit of the lowess family, in rows (total weight)
LOWESS_MAX_ROWS = 100_000


def clowess_counts(x: FloatArray, neg: IntArray, pos: IntArray, f: float = 2 / 3,
                   delta: float | None = None) -> FloatArray:
    """R's ``lowess(p, y, f, iter = 0, delta)$y`` of the rows that the counts stand for,
    one value per distinct x (all the rows of a tied x get the same value).

    ``x`` is sorted ascending and distinct; ``neg[g]`` and ``pos[g]`` rows have score
    ``x[g]`` (counts > 0), taken negatives first within a tie. This is R's C ``clowess``
    (iter = 0) step for step, on groups of tied rows instead of rows: its window bounds
    and fit points are row positions, mapped to cumulative counts, and each local fit's
    weighted sums run over the distinct x, each weighted by its number of rows in the
    window (a window's left edge may take only the last rows of a tied x: its positives
    first). So the cost grows with the number of distinct scores, not of rows.

    Examples
    --------
    >>> x = np.array([1.0, 2.0, 3.0, 4.0])
    >>> clowess_counts(x, np.array([1, 0, 1, 0]), np.array([0, 1, 0, 1]))  # R: 0 1 0 1
    array([0., 1., 0., 1.])
    """
    x = np.ascontiguousarray(x, dtype=np.float64)
    counts = None if _one_row_each(neg, pos) else np.add(neg, pos, dtype=np.int64)
    ends = None if counts is None else np.cumsum(counts)  # one past each x's last row
    n, ng = (x.size if ends is None else int(ends[-1])), x.size
    if n < 2:
        return np.asarray(pos, dtype=np.float64).copy()
    rng = float(x[-1] - x[0])
    if delta is None:
        delta = 0.01 * rng
    ns = max(2, min(n, int(f * n + 1e-7)))
    fit = _LocalFit(x, counts, pos, rng)
    ys = np.empty(ng)

    def group(r: int) -> int:  # the x of row r
        return r if ends is None else int(np.searchsorted(ends, r, side="right"))

    def xrow(r: int) -> float:
        return float(x[group(r)])

    nleft, nright, gi, i_first, last = 0, ns - 1, 0, True, -1  # rows 0-based; gi: x[i]
    while True:
        xs = float(x[gi])
        if nright < n - 1:
            # move the window right while that shrinks its radius: the first k where
            # x[i] - x[nleft + k] <= x[nright + 1 + k] - x[i] (monotone in k)
            lo, hi = 0, n - 1 - nright
            while lo < hi:
                k = (lo + hi) // 2
                if xs - xrow(nleft + k) > xrow(nright + 1 + k) - xs:
                    lo = k + 1
                else:
                    hi = k
            nleft += lo
            nright += lo
        h = max(xs - xrow(nleft), xrow(nright) - xs)
        gl = group(nleft)  # the window starts with the last rows of x[gl]
        value = fit(gi, xs, h, gl, (gl + 1 if ends is None else int(ends[gl])) - nleft)
        if value is None:  # no weight at all (R: ys[i] = y[i]); x[i] itself weighs 1
            value = float((neg[gi] == 0) if i_first else (pos[gi] > 0))
        ys[gi] = value
        if last < gi - 1:  # the skipped x between two fits: interpolated, as R
            denom = x[gi] - x[last]
            alpha = (x[last + 1:gi] - x[last]) / denom
            ys[last + 1:gi] = alpha * ys[gi] + (1.0 - alpha) * ys[last]
        last = gi  # R copies the fit to the tied rows after i
        if last >= ng - 1:
            break
        brk = int(np.searchsorted(x, x[last] + delta, side="right"))  # first x > cut
        # R: i = max(last + 1, brk - 1) in rows: the first row of the next x, or the
        # last row of the x before the first one beyond the cut
        gi, i_first = (last + 1, True) if brk - 1 <= last else (brk - 1, False)
    return ys


def _one_row_each(neg: npt.NDArray[Any], pos: npt.NDArray[Any]) -> bool:
    """Whether every x holds one row (continuous scores: the rows are the x), given
    that each holds at least one."""
    return bool(neg.max() <= 1 and pos.max() <= 1 and not np.logical_and(neg, pos).any())


class _LocalFit:
    """The local linear fit of R's C ``lowest`` (no robustness weights) over tied groups.

    R's fit at ``xs`` with half-width ``h`` gives each row ``j`` of the window (row
    ``nleft`` up to the last row with ``|x_j - xs| <= 0.999 h`` right of ``xs``) the
    tricube weight ``w_j = (1 - (|x_j - xs| / h)^3)^3`` (1 within ``0.001 h``, 0 beyond
    ``0.999 h``), normalises them, and returns ``sum w_j y_j`` with the weights times
    ``1 + b (x_j - a) / c``, ``a`` the weighted mean of x, ``b = xs - a``, ``c`` the
    weighted variance, when ``sqrt(c) > 0.001 * range(x)``. Here the sums are over
    distinct x: ``A = sum m w``, ``S1 = sum m w d``, ``S2 = sum m w d^2``,
    ``Sy = sum q w``, ``S1y = sum q w d`` with ``m`` (``q``) the rows (positives) of each
    x in the window and ``d = x - shift``; then ``a = shift + S1 / A``,
    ``c = S2 / A - (S1 / A)^2`` and ``ys = Sy / A + b / c (S1y - (a - shift) Sy) / A``.
    The shift is ``xs``; where the mean lies so far from it that the variance would lose
    digits to cancellation (``(a - xs)^2 > 100 c``), the sums are taken again about
    ``a``. Whole blocks of x on one side of xs within (0.001 h, 0.999 h] are summed from
    their power sums (``_taylor``); the rest (the x within 0.001 h, and the blocks cut by
    the window's edges or by xs) term by term (``_direct``), in slices that stay in
    cache, with preallocated buffers, and without BLAS (its threads cost more than these
    sums).
    """

    BLOCK = 1 << 13
    #: distinct x per block of precomputed power sums: about 1/256 of them, a power of
    #: two from 256 (``TAYLOR_MIN``) to 4096 (``TAYLOR``); below 8 blocks of
    #: ``TAYLOR_MIN`` every fit sums term by term
    TAYLOR, TAYLOR_MIN = 1 << 12, 1 << 8
    DEGREE = 12  # w d^2 is a polynomial of degree 11 in x on each side of xs

    def __init__(self, x: FloatArray, counts: IntArray | None, pos: npt.NDArray[Any],
                 rng: float) -> None:
        self.x, self.rng = x, rng
        self.unit = counts is None  # every x one row (continuous scores)
        self.m = self.x if counts is None else counts.astype(np.float64)  # (unit: unused)
        self.q = pos.astype(np.float64)
        size = min(self.BLOCK, x.size)
        self.buf = [np.empty(size) for _ in range(5)]
        self.moments: tuple[FloatArray, ...] | None = None
        near = 1 << max(0, (x.size >> 8).bit_length() - 1)  # the power of two <= size/256
        self.tb = min(self.TAYLOR, max(self.TAYLOR_MIN, near))
        if x.size >= 8 * self.tb:
            self.moments = self._block_moments()

    def _block_moments(self) -> tuple[FloatArray, ...]:
        """Per block of ``tb`` x: its centre ``c``, half-width ``r`` and the power
        sums ``sum m z^j``, ``sum q z^j`` of ``z = (x - c) / r`` (j < DEGREE; rows j),
        computed over a few blocks at a time (their temporaries stay in cache)."""
        tb, deg = self.tb, self.DEGREE
        nb = self.x.size // tb
        xb = self.x[: nb * tb].reshape(nb, tb)
        c = 0.5 * (xb[:, 0] + xb[:, -1])
        r = 0.5 * (xb[:, -1] - xb[:, 0])
        r[r <= 0.0] = 1.0
        mom_m, mom_q = np.empty((deg, nb)), np.empty((deg, nb))
        mb = self.m[: nb * tb].reshape(nb, tb)
        qb = self.q[: nb * tb].reshape(nb, tb)
        step = max(1, (1 << 15) // tb)
        for s in range(0, nb, step):
            e = min(s + step, nb)
            z = xb[s:e] - c[s:e, None]
            z /= r[s:e, None]
            pw = np.ones_like(z) if self.unit else mb[s:e].copy()
            pq = qb[s:e].copy()
            for j in range(deg):
                mom_m[j, s:e] = pw.sum(axis=1)
                mom_q[j, s:e] = pq.sum(axis=1)
                if j < deg - 1:
                    pw *= z
                    pq *= z
        return c, r, mom_m, mom_q

    def __call__(self, gi: int, xs: float, h: float, gl: int, kl: int) -> float | None:
        """The fit at ``xs = x[gi]``, the window starting with the last ``kl`` rows of
        ``x[gl]``; None when no row has weight (R then keeps the row's y)."""
        x = self.x
        h9, h1 = 0.999 * h, 0.001 * h
        # the x with a weight: from x[gl] (the left ones beyond 0.999 h weigh 0) to the
        # last one right of xs within 0.999 h; within 0.001 h the weight is 1
        lo, hi = _left_edge(x, xs, h9, gl, gi), _right_edge(x, xs, h9, gi)
        core = (_left_edge(x, xs, h1, lo, gi), _right_edge(x, xs, h1, gi))
        first = None
        if lo == gl:  # x[gl] has weight: only its last kl rows are in the window, and
            # those are its positives first (negatives come first within a tie)
            first = (kl, min(kl, int(self.q[gl])))
        A, S1, S2, Sy, S1y = self._sums(gi, xs, xs, h, lo, hi, core, first)
        if A <= 0.0:  # as R (a NaN goes on, to the caller's check)
            return None
        if not h > 0.0:
            return Sy / A
        off = S1 / A
        c = S2 / A - off * off
        shift = xs
        if not c > 0.01 * off * off:  # the variance would lose digits: again about a
            shift = xs + off
            A, S1, S2, Sy, S1y = self._sums(gi, xs, shift, h, lo, hi, core, first)
            off = S1 / A
            c = S2 / A - off * off
        if math.sqrt(max(c, 0.0)) > 0.001 * self.rng:
            b = (xs - shift) - off  # xs - a
            return Sy / A + b / c * ((S1y - off * Sy) / A)
        return Sy / A

    def _sums(self, gi: int, xs: float, shift: float, h: float, lo: int, hi: int,
              core: tuple[int, int], first: tuple[int, int] | None,
              ) -> tuple[float, float, float, float, float]:
        """(A, S1, S2, Sy, S1y) over x[lo:hi] about ``shift`` (xs = x[gi]); ``first``: the
        rows and positives of x[lo] in the window (else all of them)."""
        x = self.x
        acc = [0.0] * 5
        if first is not None:  # x[lo] alone, with part of its rows
            w = self._weight(float(x[lo]), xs, h, lo, core)
            d = float(x[lo]) - shift
            mw, qw = first[0] * w, first[1] * w
            acc = [mw, mw * d, mw * d * d, qw, qw * d]
            lo += 1
        c0, c1 = max(core[0], lo), max(core[1], lo)
        ranges, blocks, signs = [], [], []  # term by term; from power sums
        start = lo
        if self.moments is not None and h > 0.0:
            tb = self.tb
            # whole blocks left of the x within 0.001 h, and right of them
            for p0, p1, sign in ((lo, c0, -1.0), (c1, hi, 1.0)):
                b0, b1 = -(-p0 // tb), p1 // tb
                if b0 < b1:
                    ranges.append((start, b0 * tb))
                    blocks.append(np.arange(b0, b1))
                    signs.append(np.full(b1 - b0, sign))
                    start = b1 * tb
        ranges.append((start, hi))
        parts = [self._direct(ranges, xs, shift, h)]
        if blocks:
            parts.append(self._taylor(np.concatenate(blocks), np.concatenate(signs), xs,
                                      shift, h))
        for part in parts:
            for i in range(5):
                acc[i] += part[i]
        return acc[0], acc[1], acc[2], acc[3], acc[4]

    def _taylor(self, blocks: npt.NDArray[np.intp], sign: FloatArray, xs: float,
                shift: float, h: float) -> list[float]:
        r"""The sums over the whole blocks ``blocks``, each on one side of xs
        (``sign``: +1 right, -1 left) within (0.001 h, 0.999 h], from their power sums.

        On that side the weight is a polynomial in x: with ``x = c + h beta`` (``c`` the
        block's centre, ``a = (c - xs) / h``, ``a' = (c - shift) / h``),

        .. math:: w\,d^k = h^k \left(1 - \mathrm{sign}\,(a + \beta)^3\right)^3
                  (a' + \beta)^k = h^k \sum_{j \le 9 + k} P_{kj}\, \beta^j,

        so the block's ``sum m w d^k`` is ``h^k sum_j P_kj (r/h)^j sum m z^j`` with its
        precomputed power sums of ``z = (x - c) / r`` (r its half-width): exact algebra,
        not an approximation. ``|beta| <= r / h`` is small for all but sparse blocks, so
        the terms fall off fast and the rounding is that of a few sums. Polynomial
        coefficients are rows, one column per block."""
        c, r, mom_m, mom_q = self.moments  # type: ignore[misc]
        c, r = c[blocks], r[blocks]
        nb = c.size
        a = (c - xs) / h  # the centre in units of h; x = c + h beta, |beta| <= r / h
        t = np.empty((4, nb))  # 1 - sign (a + beta)^3, in powers of beta
        np.multiply(a, a, out=t[2])
        np.multiply(t[2], a, out=t[0])
        t[0] *= sign
        np.subtract(1.0, t[0], out=t[0])
        t[1] = t[2]
        t[1] *= sign
        t[1] *= -3.0
        np.multiply(a, sign, out=t[2])
        t[2] *= -3.0
        np.negative(sign, out=t[3])
        w = _poly_mul(_poly_mul(t, t), t)  # degree 9
        dd = np.empty((2, nb))  # d / h = (c - shift) / h + beta
        np.subtract(c, shift, out=dd[0])
        dd[0] /= h
        dd[1] = 1.0
        wd = _poly_mul(w, dd)
        wdd = _poly_mul(wd, dd)
        scale = np.empty((self.DEGREE, nb))  # (r / h)^j: sum beta^j = that * power sum
        scale[0] = 1.0
        np.divide(r, h, out=scale[1])
        for j in range(2, self.DEGREE):
            np.multiply(scale[j - 1], scale[1], out=scale[j])
        mm = mom_m[:, blocks] * scale
        mq = mom_q[:, blocks] * scale
        return [float(np.einsum("jb,jb->", w, mm[:10])),  # einsum: no BLAS
                h * float(np.einsum("jb,jb->", wd, mm[:11])),
                h * h * float(np.einsum("jb,jb->", wdd, mm)),
                float(np.einsum("jb,jb->", w, mq[:10])),
                h * float(np.einsum("jb,jb->", wd, mq[:11]))]

    def _direct(self, ranges: list[tuple[int, int]], xs: float, shift: float,
                h: float) -> list[float]:
        """The sums over the x of ``ranges`` (index ranges within the window), term by
        term, weights as R: 1 within 0.001 h of xs, else ``(1 - (|x - xs| / h)^3)^3``."""
        ranges = [(p0, p1) for p0, p1 in ranges if p0 < p1]
        if not ranges:
            return [0.0] * 5
        if len(ranges) == 1:
            sl = slice(*ranges[0])
            x, m, q = self.x[sl], self.m[sl], self.q[sl]
        else:  # a few short ranges: gathered, one pass
            idx = np.concatenate([np.arange(p0, p1) for p0, p1 in ranges])
            x, q = self.x[idx], self.q[idx]
            m = q if self.unit else self.m[idx]
        h1 = 0.001 * h
        inv = 1.0 / h if h > 0.0 else 0.0
        A = S1 = S2 = Sy = S1y = 0.0
        bd, bu, bt, bw, bq = self.buf
        for s in range(0, x.size, self.BLOCK):
            e = min(s + self.BLOCK, x.size)
            k = e - s
            xb = x[s:e]
            d, w, t, r = bd[:k], bw[:k], bt[:k], bq[:k]
            np.subtract(xb, xs, out=d)
            np.abs(d, out=r)
            np.multiply(r, inv, out=t)  # r / h
            np.multiply(t, t, out=w)
            w *= t
            np.subtract(1.0, w, out=w)  # 1 - (r/h)^3
            np.multiply(w, w, out=t)
            t *= w
            w = t  # fcube(1 - fcube(r / h)), as R
            w[r <= h1] = 1.0
            if shift != xs:
                np.subtract(xb, shift, out=d)
            qb = q[s:e]
            wd = bu[:k]
            if self.unit:  # one row each: m = 1
                np.multiply(w, d, out=wd)
                A += float(w.sum())
                Sy += float(np.einsum("i,i->", w, qb))  # einsum: no BLAS
                S1y += float(np.einsum("i,i->", wd, qb))
            else:
                wq = bw[:k]
                np.multiply(w, qb, out=wq)
                Sy += float(wq.sum())
                S1y += float(np.einsum("i,i->", wq, d))
                w *= m[s:e]
                np.multiply(w, d, out=wd)
                A += float(w.sum())
            S1 += float(wd.sum())
            S2 += float(np.einsum("i,i->", wd, d))
        return [A, S1, S2, Sy, S1y]

    @staticmethod
    def _weight(xj: float, xs: float, h: float, j: int, core: tuple[int, int]) -> float:
        """R's weight of one x inside the window."""
        if core[0] <= j < core[1]:
            return 1.0
        u = abs(xj - xs) / h
        t = 1.0 - u * u * u
        return t * t * t


def _poly_mul(p: FloatArray, q: FloatArray) -> FloatArray:
    """Column by column, the product of polynomials whose coefficients (lowest first)
    are the rows of ``p`` and ``q``."""
    out = np.zeros((p.shape[0] + q.shape[0] - 1, p.shape[1]))
    for j in range(q.shape[0]):
        out[j:j + p.shape[0]] += p * q[j]
    return out


def _left_edge(x: FloatArray, xs: float, lim: float, lo: int, gi: int) -> int:
    """The first g in [lo, gi] with |x[g] - xs| <= lim (x sorted, x[gi] = xs), by R's
    own comparison of the rounded difference (a search, then checked at the edge)."""
    g = min(gi, max(lo, int(np.searchsorted(x, xs - lim, side="left"))))
    while g > lo and abs(float(x[g - 1]) - xs) <= lim:
        g -= 1
    while g < gi and abs(float(x[g]) - xs) > lim:
        g += 1
    return g


def _right_edge(x: FloatArray, xs: float, lim: float, gi: int) -> int:
    """One past the last g >= gi with |x[g] - xs| <= lim (x sorted, x[gi] = xs)."""
    g = max(gi + 1, int(np.searchsorted(x, xs + lim, side="right")))
    g = min(g, x.size)
    while g > gi + 1 and abs(float(x[g - 1]) - xs) > lim:
        g -= 1
    while g < x.size and abs(float(x[g]) - xs) <= lim:
        g += 1
    return g


def _groups(t: CountTable, measure: str, max_rows: float | None,
            ) -> tuple[FloatArray, npt.NDArray[Any], npt.NDArray[Any]] | None:
    """(distinct p ascending, negatives, positives) of the table's rows, or None
    (reported): x with no rows left out."""
    require_probabilities(t, measure)
    if t.binning is not None:
        raise SumsUnavailable(BINNED_RAW_P)
    pos, neg = t.pos[::-1], t.neg[::-1]
    # the size first: it is known, where the check of whole-number weights reads every
    # row (50 ms at 1e7 rows, for a table the limit refuses anyway)
    if max_rows is not None and t.total > max_rows:
        report_undefined(measure, f"the lowess smoother of {t.total:g} rows exceeds "
                         f"max_rows={max_rows:g} (a limit that keeps every measure at once "
                         "fast; about 2 s at 1e7 distinct scores); ask ev.value("
                         f"{measure!r}, max_rows=None), or on the command line --measures "
                         f"'{measure}(max_rows=none)', to compute it anyway")
        return None
    if t.weighted and not (np.all(pos == np.round(pos)) and np.all(neg == np.round(neg))):
        report_undefined(measure, "the lowess smoother takes integer weights only (they act "
                         "as repeated rows)")
        return None
    if t.total > 2.0 ** 53:
        report_undefined(measure, f"the lowess smoother counts rows exactly up to 2^53, "
                         f"and the weights add up to {t.total:g}")
        return None
    if t.weighted:  # whole numbers (checked above); a zero weight leaves its x out
        neg, pos = neg.astype(np.int64), pos.astype(np.int64)
    x = np.ascontiguousarray(t.scores[::-1], dtype=np.float64)
    keep = np.logical_or(neg, pos)
    if not keep.all():
        x, neg, pos = x[keep], neg[keep], pos[keep]
    return x, neg, pos


def lowess_gaps(t: CountTable, measure: str = "ici", max_rows: float | None = LOWESS_MAX_ROWS,
                ) -> tuple[FloatArray, IntArray | None] | None:
    """|p - lowess-smoothed observed rate| of each distinct p (ascending) and its number
    of rows (None: one each), as val.prob's
    ``approx(lowess(p, y, iter = 0), xout = p, ties = mean)``."""
    def compute() -> tuple[FloatArray, IntArray | None] | None:
        groups = _groups(t, measure, max_rows)
        if groups is None:
            return None
        x, neg, pos = groups
        if x.size == 0:
            return None
        with np.errstate(all="ignore"):  # scores within a few ulps overflow the weights
            ys = clowess_counts(x, neg, pos)
        if not np.all(np.isfinite(ys)):
            report_undefined(measure, "the lowess fit is numerically undefined (local fits "
                             "over scores that differ by a few ulps)")
            return None
        # every row of a tied x has the same fitted value, so ties = mean keeps it
        ys -= x
        np.abs(ys, out=ys)
        return ys, (None if _one_row_each(neg, pos) else np.add(neg, pos, dtype=np.int64))

    key = ("lowess_gaps", max_rows)
    return t.memo(key, compute)


def _summary(t: CountTable, measure: str, max_rows: Any, stat: str) -> float:
    found = lowess_gaps(t, measure, max_rows)
    if found is None:
        return float("nan")
    gaps, rows = found
    if stat == "max":
        return float(gaps.max())
    if rows is None:  # one row each
        return float(gaps.mean() if stat == "mean" else
                     np.quantile(gaps, 0.5 if stat == "median" else 0.9))
    if stat == "mean":
        return float(np.einsum("i,i->", gaps, rows.astype(np.float64)) / rows.sum())
    return _row_quantile(gaps, rows, 0.5 if stat == "median" else 0.9)


def _row_quantile(values: FloatArray, rows: IntArray, q: float) -> float:
    """``np.quantile`` (type 7) of ``values`` each repeated ``rows`` times.

    Examples
    --------
    >>> _row_quantile(np.array([3.0, 1.0, 2.0]), np.array([1, 2, 1]), 0.9)  # 1 1 2 3
    2.7
    """
    order = np.argsort(values, kind="stable")
    v, cum = values[order], np.cumsum(rows[order])
    pos = (int(cum[-1]) - 1) * q
    k = math.floor(pos)
    below = float(v[int(np.searchsorted(cum, k, side="right"))])
    above = float(v[int(np.searchsorted(cum, k + 1, side="right"))]) if pos > k else below
    frac = pos - k
    # np.quantile's linear interpolation (numpy's _lerp)
    return above - (above - below) * (1.0 - frac) if frac >= 0.5 else \
        below + (above - below) * frac


# the smoothed rate may leave [0, 1] (a local linear fit), so a gap may exceed 1
_COMMON: dict[str, Any] = {"family": "probabilistic", "direction": -1, "range": (0.0, np.inf),
                           "plot": "reliability", "needs_probabilities": True}


@register("ici", name="Integrated calibration index", aliases=("eavg",),
          prevalence_dependent=True,
          weight_unit=True,
          source="Austin & Steyerberg 2019; rms::val.prob (Eavg)",
          formula="mean |p - lowess(p, y)(p)|", **_COMMON)
def ici(t: CountTable, *, max_rows: float | None = LOWESS_MAX_ROWS) -> float:
    r"""Integrated calibration index: the mean over the cases of :math:`|p - \hat y(p)|`,
    :math:`\hat y` R's ``lowess(p, y, iter = 0)`` (val.prob's ``Eavg``).

    Parameters
    ----------
    max_rows : beyond this many rows the value is NaN with a warning (None: no limit).

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([0, 1, 0, 1, 1, 0, 1, 1], [.1, .2, .3, .4, .6, .7, .8, .9])
    >>> round(ev["ici"], 6)  # R: val.prob(p, y)["Eavg"] 0.146915079456268
    0.146915
    """
    return _summary(t, "ici", max_rows, "mean")


@register("e50", name="Median calibration error (lowess)",
          prevalence_dependent=True,
          weight_unit=True,
          source="Austin & Steyerberg 2019", formula="median |p - lowess(p, y)(p)|",
          **_COMMON)
def e50(t: CountTable, *, max_rows: float | None = LOWESS_MAX_ROWS) -> float:
    """Median over the cases of the lowess calibration gap (see ``ici``)."""
    return _summary(t, "e50", max_rows, "median")


@register("e90", name="90th centile calibration error (lowess)",
          prevalence_dependent=True,
          weight_unit=True,
          source="Austin & Steyerberg 2019; rms::val.prob (E90)",
          formula="quantile(|p - lowess(p, y)(p)|, 0.9)", **_COMMON)
def e90(t: CountTable, *, max_rows: float | None = LOWESS_MAX_ROWS) -> float:
    """90th centile (type 7) of the lowess calibration gap (val.prob's ``E90``)."""
    return _summary(t, "e90", max_rows, "p90")


@register("emax", name="Maximum calibration error (lowess)",
          prevalence_dependent=True,
          weight_unit=True,
          source="Austin & Steyerberg 2019; rms::val.prob (Emax)",
          formula="max |p - lowess(p, y)(p)|", **_COMMON)
def emax(t: CountTable, *, max_rows: float | None = LOWESS_MAX_ROWS) -> float:
    """Largest lowess calibration gap (val.prob's ``Emax``)."""
    return _summary(t, "emax", max_rows, "max")
