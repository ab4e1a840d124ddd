r"""The lowess family of calibration measures (ici, e50, e90, emax): the absolute gap
between p and the observed rate smoothed by R's ``lowess(p, y, iter = 0)``, as
rms::val.prob computes ``Eavg``, ``E90`` and ``Emax`` (Austin & Steyerberg 2019).

The smoother is R's ``clowess`` (f = 2/3, delta = 1% of the range of p, no robustness
iterations), evaluated at every case and interpolated as ``approx(..., ties = mean)``.
It works on rows: integer weights act as repeated rows; within tied p the rows are taken
negatives first (R's ``lowess`` keeps the input order of ties, so R agrees on data sorted
by ``order(p, y)``). Each local fit spans two thirds of the rows and there are about
1/delta = 100 of them, so the cost grows with the number of rows: measured (one core of a
2-core machine shared with other jobs) 6.3 s at 1e6 rows and 126 s (1.1 GB) at 1e7 rows.
So that ``to_dict()`` of every measure keeps its speed (benchmarks/README.md), the
measures are computed up to ``max_rows`` (default 100,000); beyond it they are NaN with a
warning that says how to ask for them at any size (``ev.value("ici", max_rows=None)``, on
the command line ``--measures "ici(max_rows=none)"``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from binmetrics.exceptions import SumsUnavailable, report_undefined
from binmetrics.measures.calibration import BINNED_RAW_P
from binmetrics.measures.probabilistic import require_probabilities
from binmetrics.measures.registry import register
from binmetrics.table.counts import CountTable, FloatArray

__all__ = ["LOWESS_MAX_ROWS", "clowess", "e50", "e90", "emax", "ici", "lowess_gaps"]

#: the default size limit of the lowess family, in rows (total weight)
LOWESS_MAX_ROWS = 100_000


def clowess(x: FloatArray, y: FloatArray, f: float = 2 / 3,
            delta: float | None = None) -> FloatArray:
    """R's ``lowess(x, y, f, iter = 0, delta)$y`` for x sorted ascending (C ``clowess``).

    Examples
    --------
    >>> clowess(np.array([1.0, 2.0, 3.0, 4.0]), np.array([0.0, 1.0, 0.0, 1.0]))  # R: 0 1 0 1
    array([0., 1., 0., 1.])
    """
    n = x.size
    if n < 2:
        return y.astype(np.float64).copy()
    if delta is None:
        delta = 0.01 * (x[-1] - x[0])
    ns = max(2, min(n, int(f * n + 1e-7)))
    ys = np.empty(n)
    rng = x[-1] - x[0]
    nleft, nright, last, i = 0, ns - 1, -1, 0  # 0-based
    while True:
        if nright < n - 1:
            # move the window right while that shrinks its radius: the first k where
            # x[i] - x[nleft + k] <= x[nright + 1 + k] - x[i] (monotone in k)
            lo, hi = 0, n - 1 - nright
            while lo < hi:
                k = (lo + hi) // 2
                if x[i] - x[nleft + k] > x[nright + 1 + k] - x[i]:
                    lo = k + 1
                else:
                    hi = k
            nleft += lo
            nright += lo
        ys[i] = _lowest(x, y, x[i], nleft, nright, rng, y[i])
        if last < i - 1:
            denom = x[i] - x[last]
            alpha = (x[last + 1:i] - x[last]) / denom
            ys[last + 1:i] = alpha * ys[i] + (1.0 - alpha) * ys[last]
        last = i
        cut = x[last] + delta
        brk = int(np.searchsorted(x, cut, side="right"))  # first index with x > cut
        tie_end = int(np.searchsorted(x, x[last], side="right")) - 1
        if tie_end > last:
            ys[last + 1:tie_end + 1] = ys[last]
            last = tie_end
        i = max(last + 1, brk - 1)
        if last >= n - 1:
            break
    return ys


def _lowest(x: FloatArray, y: FloatArray, xs: float, nleft: int, nright: int, rng: float,
            fallback: float) -> float:
    """The local linear fit at xs of R's C ``lowest`` (no robustness weights)."""
    h = max(xs - x[nleft], x[nright] - xs)
    h9, h1 = 0.999 * h, 0.001 * h
    end = int(np.searchsorted(x, xs + h, side="right")) + 1
    xw = x[nleft:end]
    r = np.abs(xw - xs)
    beyond = np.flatnonzero((r > h9) & (xw > xs))
    nrt = nleft + (int(beyond[0]) if beyond.size else xw.size)
    xw, r = x[nleft:nrt], r[: nrt - nleft]
    u = r / h if h > 0 else np.zeros_like(r)
    u *= u * u
    np.subtract(1.0, u, out=u)
    w = u * u
    w *= u  # fcube(1 - fcube(r / h)), as R
    w[r <= h1] = 1.0
    w[r > h9] = 0.0
    a = float(w.sum())
    if a <= 0.0:
        return float(fallback)
    w = w / a
    if h > 0.0:
        a = float(np.sum(w * xw))  # no BLAS: its threads cost more than the sum
        b = xs - a
        d = xw - a
        c = float(np.sum(w * d * d))
        if math.sqrt(c) > 0.001 * rng:
            w = w * (b / c * d + 1.0)
    return float(np.sum(w * y[nleft:nrt]))


def _rows(t: CountTable, measure: str,
          max_rows: float | None) -> tuple[FloatArray, FloatArray, Any] | None:
    """(sorted p, y, per-row counts) of the table's rows, or None (reported)."""
    require_probabilities(t, measure)
    if t.binning is not None:
        raise SumsUnavailable(BINNED_RAW_P)
    pos, neg = t.pos[::-1], t.neg[::-1]
    if t.weighted and not (np.all(pos == np.round(pos)) and np.all(neg == np.round(neg))):
        report_undefined(measure, "the lowess smoother takes integer weights only (they act "
                         "as repeated rows)")
        return None
    if max_rows is not None and t.total > max_rows:
        report_undefined(measure, f"the lowess smoother of {t.total:g} rows exceeds "
                         f"max_rows={max_rows:g} (each local fit spans 2/3 of the rows; about "
                         "2 minutes at 1e7 rows); ask ev.value("
                         f"{measure!r}, max_rows=None), or on the command line --measures "
                         f"'{measure}(max_rows=none)', to compute it anyway")
        return None
    s = t.scores[::-1]
    counts = np.column_stack([neg, pos]).astype(np.int64).ravel()  # negatives first
    x = np.repeat(np.repeat(s, 2), counts)
    y = np.repeat(np.tile([0.0, 1.0], s.size), counts)
    return x.astype(np.float64), y.astype(np.float64), counts


def lowess_gaps(t: CountTable, measure: str = "ici",
                max_rows: float | None = LOWESS_MAX_ROWS) -> FloatArray | None:
    """|p - lowess-smoothed observed rate| of every row (sorted by p), as val.prob."""
    def compute() -> FloatArray | None:
        rows = _rows(t, measure, max_rows)
        if rows is None:
            return None
        x, y, _ = rows
        if x.size == 0:
            return None
        with np.errstate(all="ignore"):  # scores within a few ulps overflow the weights
            ys = clowess(x, y)
        if not np.all(np.isfinite(ys)):
            report_undefined(measure, "the lowess fit is numerically undefined (local fits "
                             "over scores that differ by a few ulps)")
            return None
        # approx(Sm, xout = p, ties = mean): the mean fitted value of each tied x
        starts = np.flatnonzero(np.r_[True, x[1:] != x[:-1]])
        means = np.add.reduceat(ys, starts) / np.diff(np.r_[starts, x.size])
        fitted = np.repeat(means, np.diff(np.r_[starts, x.size]))
        return np.asarray(np.abs(x - fitted), dtype=np.float64)

    key = ("lowess_gaps", max_rows)
    return t.memo(key, compute)


def _summary(t: CountTable, measure: str, max_rows: Any, stat: str) -> float:
    gaps = lowess_gaps(t, measure, max_rows)
    if gaps is None:
        return float("nan")
    if stat == "mean":
        return float(gaps.mean())
    if stat == "max":
        return float(gaps.max())
    return float(np.quantile(gaps, 0.5 if stat == "median" else 0.9))


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
