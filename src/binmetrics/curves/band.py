r"""Confidence bands of a ROC curve: pROC's ``ci.se`` and ``ci.sp``, pointwise or
simultaneous.

At each fixed FPR (``ci.se``: sensitivity at fixed specificities) or fixed TPR
(``ci.sp``), the other rate is read off every stratified bootstrap replicate of the
count table with pROC's ``coords`` rules (:mod:`binmetrics.measures.roc_points`), and
the band is the percentile interval of those values, with their median, as pROC
reports them (R's default quantile, type 7 = NumPy's "linear"). The replicates are
count vectors of the table built once: nothing is re-sorted. They are read a block at a
time (:func:`~binmetrics.inference.resampling.bootstrap_count_blocks`): the cumulative
counts and rates of every replicate of a block in one pass, one binary search per
replicate, and the hits and interpolations of the whole block at once.

Pointwise (``kind="pointwise"``, the default, as pROC)
    Each interval holds at its own rate: with a 95% band at 50 FPRs, the chance that
    the true curve leaves the band somewhere is far above 5%.
Simultaneous (``kind="simultaneous"``)
    A bootstrap sup-t band (Montiel Olea & Plagborg-Moller 2019; the max-deviation band
    of Campbell 1994 scaled by each point's spread): with :math:`\hat y(x)` the curve's
    value at grid point x, :math:`s(x)` the standard deviation of the replicates there
    and :math:`c` the ``level`` quantile of :math:`\max_x |y^*_b(x) - \hat y(x)| / s(x)`
    over the replicates b (points where nothing varies, s = 0, left out of the max), the
    band is :math:`\hat y(x) \pm c\, s(x)`, clipped to [0, 1]. It is meant to hold the
    whole curve (at the grid) with the stated level; docs/howto/intervals.md records its
    coverage in simulation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pandas as pd

from binmetrics.chart import ChartData, Drawable, series
from binmetrics.formatting import Tabular
from binmetrics.inference.resampling import bootstrap_count_blocks
from binmetrics.measures.roc_points import check_rates, read_curve
from binmetrics.table.counts import CountTable, FloatArray
from binmetrics.validation import check_level, check_resamples

if TYPE_CHECKING:
    pass

__all__ = ["ROCBand", "roc_band"]


@dataclass(frozen=True)
class ROCBand(Drawable, Tabular):
    """Bootstrap intervals of one rate of the ROC curve at fixed values of the other.

    ``along`` is "fpr" (the band bounds the TPR at the FPRs in ``at``; pROC ``ci.se``
    at specificities 1 - at) or "tpr" (the band bounds the specificity, 1 - FPR, at the
    TPRs in ``at``; pROC ``ci.sp``). ``estimate`` is the curve's own value, ``median``,
    ``low`` and ``high`` the bootstrap median and percentile interval.
    """

    along: str
    at: FloatArray
    estimate: FloatArray
    low: FloatArray
    median: FloatArray
    high: FloatArray
    level: float
    n_resamples: int
    kind: str = "pointwise"

    def to_frame(self) -> pd.DataFrame:
        """One row per fixed rate."""
        other = "tpr" if self.along == "fpr" else "tnr"
        return pd.DataFrame({self.along: self.at, other: self.estimate, "low": self.low,
                             "median": self.median, "high": self.high})

    def __repr__(self) -> str:
        what = "sensitivity at fixed FPR" if self.along == "fpr" else "specificity at fixed TPR"
        how = "percentile" if self.kind == "pointwise" else "sup-t"
        return (f"ROCBand({what}, {self.kind}, {self.at.size} points, {self.level:g} {how}, "
                f"n_resamples={self.n_resamples})\n{self.to_frame()}")

    def chart(self) -> ChartData:
        """The band as a region of ROC space (FPR across, TPR up); ``.plot()`` shades it.

        Examples
        --------
        >>> import binmetrics as bm
        >>> band = bm.evaluate([0, 1, 0, 1, 1, 0], [.1, .9, .3, .6, .4, .5]).roc().ci_band(
        ...     fpr=[0.0, 0.5, 1.0], n_resamples=20, random_state=0)
        >>> band.chart().series[0].x.tolist()  # out along the FPRs, back along them
        [0.0, 0.5, 1.0, 1.0, 0.5, 0.0]
        """
        if self.along == "fpr":
            x = np.concatenate((self.at, self.at[::-1]))
            y = np.concatenate((self.high, self.low[::-1]))
        else:
            x = np.concatenate((1.0 - self.high, (1.0 - self.low)[::-1]))
            y = np.concatenate((self.at, self.at[::-1]))
        what = "TPR" if self.along == "fpr" else "specificity"
        kind = "" if self.kind == "pointwise" else f"{self.kind} "
        band = series(x, y, f"{100 * self.level:g}% {kind}band of the {what} (bootstrap, "
                      f"{self.n_resamples} resamples)", style="band")
        return ChartData("roc_band", "ROC confidence band", "False positive rate",
                         "True positive rate", (band,), (0.0, 1.0), (0.0, 1.0), legend=None)


def _read(t: CountTable, along: str, at: FloatArray) -> FloatArray:
    if along == "fpr":
        return read_curve(t.fp / t.N, t.tp / t.P, at, last=True)[0]
    return 1.0 - read_curve(t.tp / t.P, t.fp / t.N, at, last=False)[0]


def _read_rows(cx: FloatArray, cy: FloatArray, x: FloatArray, last: bool) -> FloatArray:
    """:func:`~binmetrics.measures.roc_points.read_curve` of every replicate of a block,
    from its cumulative counts (rows of ``cx``, ``cy``; the rates are ``cx / cx[:, -1]``
    and ``cy / cy[:, -1]``), at the rates ``x``: the same rules and the same arithmetic,
    but only the rates next to ``x`` are ever divided out."""
    b, k1 = cx.shape
    X, Y = cx[:, -1:], cy[:, -1:]
    side: Literal["left", "right"] = "right" if last else "left"
    raw = np.empty((b, x.size), dtype=np.intp)
    target = x * X  # compared in counts: no division of the whole block
    for r in range(b):  # one binary search per replicate; the rest is the block at once
        raw[r] = np.searchsorted(cx[r], target[r], side=side)
    rows = np.arange(b)[:, None]

    def rate(idx: Any) -> FloatArray:
        out: FloatArray = cx[rows, idx] / X
        return out

    # counts and rates can round differently where x * X is (nearly) a count: fix those
    # few to the search on the rates themselves, which read_curve does
    after, before = rate(np.minimum(raw, k1 - 1)), rate(np.maximum(raw - 1, 0))
    if last:
        wrong = ((raw < k1) & (after <= x)) | ((raw > 0) & (before > x))
    else:
        wrong = ((raw < k1) & (after < x)) | ((raw > 0) & (before >= x))
    for r, j in zip(*np.nonzero(wrong), strict=True):
        raw[r, j] = np.searchsorted(cx[r] / X[r], x[j], side=side)
    idx = np.maximum(raw - 1, 0) if last else np.minimum(raw, k1 - 1)
    hit = rate(idx) == x
    # a miss means x is not a vertex: the vertices on either side are raw - 1 and raw
    hi = np.clip(raw, 1, k1 - 1)
    lo = hi - 1
    x_lo, x_hi = rate(lo), rate(hi)
    y_lo, y_hi = cy[rows, lo] / Y, cy[rows, hi] / Y
    with np.errstate(invalid="ignore", divide="ignore"):
        interp = y_lo + (x - x_lo) / (x_hi - x_lo) * (y_hi - y_lo)
    return np.where(hit, cy[rows, idx] / Y, interp)


def _read_block(pos: Any, neg: Any, along: str, at: FloatArray) -> FloatArray:
    """The other rate at ``at`` on every replicate of a block (NaN without a class)."""
    b, k = pos.shape
    tp, fp = np.zeros((b, k + 1)), np.zeros((b, k + 1))
    np.cumsum(pos, axis=1, out=tp[:, 1:])
    np.cumsum(neg, axis=1, out=fp[:, 1:])
    ok = (tp[:, -1] > 0) & (fp[:, -1] > 0)
    out = np.full((b, at.size), np.nan)
    if ok.all():
        tp_ok, fp_ok = tp, fp
    elif ok.any():
        tp_ok, fp_ok = tp[ok], fp[ok]
    else:
        return out
    if along == "fpr":
        out[ok] = _read_rows(fp_ok, tp_ok, at, last=True)
    else:
        out[ok] = 1.0 - _read_rows(tp_ok, fp_ok, at, last=False)
    return out


def roc_band(table: CountTable, *, fpr: Any = None, tpr: Any = None,
             n_resamples: int = 2000, level: float = 0.95, random_state: Any = None,
             stratified: bool = True, kind: str = "pointwise") -> ROCBand:
    """The band of :meth:`binmetrics.curves.ROCCurve.ci_band`."""
    if kind not in ("pointwise", "simultaneous"):
        raise ValueError(f"kind must be 'pointwise' or 'simultaneous'; got {kind!r}")
    if (fpr is None) == (tpr is None):
        raise ValueError("pass exactly one of fpr= (sensitivity intervals at those FPRs, "
                         "pROC ci.se) or tpr= (specificity intervals, pROC ci.sp)")
    along = "fpr" if fpr is not None else "tpr"
    at = check_rates(fpr if fpr is not None else tpr, along).ravel()
    B = check_resamples(n_resamples, per_resample=at.size,
                        what=f"one per {along.upper()} of the band")
    c = check_level(level)
    if not (table.P > 0 and table.N > 0):
        raise ValueError("a ROC band needs both classes")
    reps = np.concatenate([_read_block(pos, neg, along, at) for pos, neg in
                           bootstrap_count_blocks(table, B, stratified=stratified,
                                                  random_state=random_state)])
    alpha = (1.0 - c) / 2.0
    low, median, high = np.nanquantile(reps, [alpha, 0.5, 1.0 - alpha], axis=0)
    estimate = _read(table, along, at)
    if kind == "simultaneous":
        low, high = _sup_t(reps, estimate, c)
    return ROCBand(along=along, at=at, estimate=estimate, low=low, median=median, high=high,
                   level=c, n_resamples=B, kind=kind)


def _sup_t(reps: FloatArray, estimate: FloatArray, level: float) -> tuple[FloatArray, FloatArray]:
    """The simultaneous band (module docstring) from (replicates, points) values."""
    sd = np.nanstd(reps, axis=0, ddof=1)
    varies = sd > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.abs(reps[:, varies] - estimate[varies]) / sd[varies]
    worst = np.nanmax(t, axis=1) if varies.any() else np.zeros(reps.shape[0])
    crit = float(np.nanquantile(worst, level))
    return (np.clip(estimate - crit * sd, 0.0, 1.0), np.clip(estimate + crit * sd, 0.0, 1.0))
