"""Points of a precision-recall curve and their bootstrap intervals: ``pr.at``,
``pr.ci_at`` (pROC 1.19's ``ci.coords`` on precision and recall) and ``pr.ci_band``.

The reading follows the curve's own convention, the step line that average precision
integrates (:meth:`binmetrics.curves.PRCurve.line`, "step"; Berrar eq. 38, scikit-learn's
``average_precision_score``): each precision is held back to the previous recall, so

* the **precision at recall r** is the precision of the highest threshold whose recall
  is at least r (:math:`\\min\\{i : R_i \\ge r\\}`; at r = 0 the first point's);
* the **recall at precision p** is the largest recall among the thresholds whose
  precision is at least p (NaN, with a warning, if none reaches p).

The thresholds are the table's distinct scores, so tied cases are never split. The
intervals bootstrap the count table (stratified by default; the same draws as
:func:`binmetrics.inference.resampling.bootstrap`): every replicate is a count vector on
the same sorted scores, its cumulative counts are the replicate's curve, and the point
is read off it with the same rule, a block of replicates at a time; nothing is
re-sorted. The band is pointwise: at each recall of the grid, the percentile interval
of the replicates' precision (the level holds at each recall separately, not for the
whole curve at once; see the ROC curve's ``kind="simultaneous"`` band).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from binmetrics.chart import ChartData, Drawable, series
from binmetrics.exceptions import UndefinedMeasureWarning, warn_at_user
from binmetrics.formatting import Tabular
from binmetrics.inference.replicate_intervals import interval_from_replicates
from binmetrics.inference.resampling import BootstrapInterval, bootstrap_count_blocks
from binmetrics.measures.roc_points import check_rates
from binmetrics.table.counts import CountTable, FloatArray
from binmetrics.validation import check_level, check_resamples

__all__ = ["PRBand", "PRPointMethods"]


def _one_of(recall: Any, precision: Any) -> tuple[str, FloatArray]:
    if (recall is None) == (precision is None):
        raise ValueError("pass exactly one of recall= (the precision there) or precision= "
                         "(the recall there)")
    name = "recall" if recall is not None else "precision"
    return name, check_rates(recall if recall is not None else precision, name)


def _read(tp: FloatArray, fp: FloatArray, along: str, at: FloatArray) -> FloatArray:
    """The curves of a block (rows of cumulative counts ``tp``, ``fp`` over the distinct
    scores, highest first) read at ``at`` (recalls or precisions): (rows, points)."""
    b = tp.shape[0]
    P = tp[:, -1:]
    cum = tp + fp
    out = np.full((b, at.size), np.nan)
    ok = P[:, 0] > 0
    if not ok.any():
        return out
    with np.errstate(invalid="ignore", divide="ignore"):
        recall = tp / P
        precision = tp / cum
    if along == "recall":
        first = np.argmax(cum > 0, axis=1)  # the replicate's first point (it holds cases)
        for j, r in enumerate(at):
            idx = np.maximum((recall < r).sum(axis=1), first)
            idx = np.minimum(idx, tp.shape[1] - 1)
            out[:, j] = precision[np.arange(b), idx]
    else:
        for j, p in enumerate(at):
            reach = precision >= p
            best = np.where(reach, recall, -np.inf).max(axis=1)
            out[:, j] = np.where(reach.any(axis=1), best, np.nan)
    out[~ok] = np.nan
    return out


def _estimate(table: CountTable, along: str, at: FloatArray) -> FloatArray:
    tp = np.asarray(table.tp[1:], dtype=np.float64)[None, :]
    fp = np.asarray(table.fp[1:], dtype=np.float64)[None, :]
    return _read(tp, fp, along, at)[0]


def _replicates(table: CountTable, along: str, at: FloatArray, n_resamples: int,
                stratified: bool, random_state: Any) -> FloatArray:
    parts = []
    for pos, neg in bootstrap_count_blocks(table, n_resamples, stratified=stratified,
                                           random_state=random_state):
        parts.append(_read(np.cumsum(pos, axis=1, dtype=np.float64),
                           np.cumsum(neg, axis=1, dtype=np.float64), along, at))
    return np.concatenate(parts)


def _warn_unreached(at: FloatArray, values: FloatArray) -> None:
    miss = at[np.isnan(values)]
    if miss.size:
        shown = ", ".join(f"{p:g}" for p in miss[:5]) + (" ..." if miss.size > 5 else "")
        warn_at_user(UndefinedMeasureWarning(
            f"no threshold reaches precision {shown}: the recall there is NaN",
            ("recall",), "no threshold reaches that precision"), UndefinedMeasureWarning)


@dataclass(frozen=True, repr=False)
class PRBand(Drawable, Tabular):
    """Pointwise bootstrap intervals of the precision at fixed recalls.

    ``recall`` is the grid, ``estimate`` the curve's own precision there, ``low`` and
    ``high`` the percentile interval of the replicates at each recall; ``kind`` is
    "pointwise" (each interval holds at its recall alone), ``n_undefined`` counts the
    replicates without a value at each recall.
    """

    recall: FloatArray
    estimate: FloatArray
    low: FloatArray
    high: FloatArray
    level: float
    n_resamples: int
    n_undefined: FloatArray
    kind: str = "pointwise"

    def to_frame(self) -> pd.DataFrame:
        """One row per recall of the grid: recall, precision, low, high, n_undefined."""
        return pd.DataFrame({"recall": self.recall, "precision": self.estimate,
                             "low": self.low, "high": self.high,
                             "n_undefined": self.n_undefined})

    def _title(self) -> str:
        return (f"PRBand({self.kind}, {self.recall.size} recalls, {self.level:g} percentile, "
                f"n_resamples={self.n_resamples})")

    def chart(self) -> ChartData:
        """The band as a region of precision-recall space and the curve's precision at
        the grid; ``.plot()`` draws them.

        Examples
        --------
        >>> import binmetrics as bm
        >>> band = bm.evaluate([0, 1, 0, 1, 1, 0], [.1, .9, .3, .6, .4, .5]).pr().ci_band(
        ...     recall=[0.0, 0.5, 1.0], n_resamples=20, random_state=0)
        >>> band.chart().series[0].x.tolist()  # out along the recalls, back along them
        [0.0, 0.5, 1.0, 1.0, 0.5, 0.0]
        """
        x = np.concatenate((self.recall, self.recall[::-1]))
        y = np.concatenate((self.high, self.low[::-1]))
        band = series(x, y, f"{100 * self.level:g}% {self.kind} band of the precision "
                      f"(bootstrap, {self.n_resamples} resamples)", style="band")
        line = series(self.recall, self.estimate, "precision at the recalls")
        return ChartData("pr_band", "Precision-recall confidence band", "Recall",
                         "Precision", (band, line), (0.0, 1.0), (0.0, 1.05), legend=None)


class PRPointMethods:
    """``at``, ``ci_at`` and ``ci_band`` of a :class:`~binmetrics.curves.PRCurve`."""

    table: CountTable

    def at(self, *, recall: Any = None, precision: Any = None) -> Any:
        """The precision at ``recall`` (or the recall at ``precision``), by the curve's
        step convention (module docstring): a float for one value, an array for many.

        Examples
        --------
        >>> import binmetrics as bm
        >>> pr = bm.evaluate([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.2]).pr()
        >>> pr.at(recall=0.5), pr.at(recall=0.8), pr.at(precision=0.6)
        (1.0, 0.6666666666666666, 1.0)
        """
        along, at = _one_of(recall, precision)
        values = _estimate(self.table, along, at.ravel())
        if along == "precision":
            _warn_unreached(at.ravel(), values)
        return float(values[0]) if np.ndim(at) == 0 else values.reshape(at.shape)

    def ci_at(self, *, recall: Any = None, precision: Any = None, level: float = 0.95,
              n_resamples: int = 2000, kind: str = "percentile", stratified: bool = True,
              random_state: Any = None) -> BootstrapInterval:
        """Bootstrap interval of the precision at one recall (or of the recall at one
        precision), pROC's ``ci.coords``: the point read off every replicate of the count
        table by the same rule. ``kind`` "percentile" or "basic".

        Examples
        --------
        >>> import binmetrics as bm
        >>> y = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
        >>> s = [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]
        >>> ci = bm.evaluate(y, s).pr().ci_at(recall=0.8, n_resamples=500, random_state=0)
        >>> ci.estimate, ci.method, bool(ci.low <= ci.estimate <= ci.high)
        (0.8, 'bootstrap-percentile', True)
        """
        along, at = _one_of(recall, precision)
        if at.size != 1:
            raise TypeError(f"ci_at takes one {along}= value; for a grid of recalls use "
                            "ci_band(recall=[...])")
        if kind not in ("percentile", "basic"):
            raise ValueError(f"kind must be 'percentile' or 'basic' for a point of the "
                             f"curve (BCa needs a jackknife of the point); got {kind!r}")
        B = check_resamples(n_resamples)
        point = at.reshape(1)
        est = float(_estimate(self.table, along, point)[0])
        reps = _replicates(self.table, along, point, B, stratified, random_state)[:, 0]
        other = "precision" if along == "recall" else "recall"
        return interval_from_replicates(reps, est, measure=f"{other} at {along} {point[0]:g}",
                                        kind=kind, level=level, bounds=(0.0, 1.0))

    def ci_band(self, *, recall: Any, level: float = 0.95, n_resamples: int = 2000,
                stratified: bool = True, random_state: Any = None) -> PRBand:
        """Pointwise bootstrap band of the precision over a grid of recalls (a percentile
        interval at each; all from the same replicates). ``.plot()`` draws it,
        ``.to_frame()`` tabulates it.

        Examples
        --------
        >>> import numpy as np
        >>> import binmetrics as bm
        >>> y = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
        >>> s = [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]
        >>> band = bm.evaluate(y, s).pr().ci_band(recall=np.linspace(0, 1, 5),
        ...                                       n_resamples=200, random_state=0)
        >>> band.kind, band.to_frame().columns.tolist()
        ('pointwise', ['recall', 'precision', 'low', 'high', 'n_undefined'])
        """
        grid = check_rates(recall, "recall").ravel()
        lv = check_level(level)
        B = check_resamples(n_resamples, per_resample=grid.size,
                            what="one per recall of the band")
        reps = _replicates(self.table, "recall", grid, B, stratified, random_state)
        alpha = (1.0 - lv) / 2.0
        undefined = np.isnan(reps).sum(axis=0)
        low = np.full(grid.size, math.nan)
        high = np.full(grid.size, math.nan)
        defined = undefined < B
        if defined.any():
            low[defined], high[defined] = np.nanquantile(reps[:, defined],
                                                         [alpha, 1.0 - alpha], axis=0)
        return PRBand(recall=grid, estimate=_estimate(self.table, "recall", grid), low=low,
                      high=high, level=lv, n_resamples=B, n_undefined=undefined)

