"""Confidence bands of a ROC curve: pROC's ``ci.se`` and ``ci.sp``.

At each fixed FPR (``ci.se``: sensitivity at fixed specificities) or fixed TPR
(``ci.sp``), the other rate is read off every stratified bootstrap replicate of the
count table with pROC's ``coords`` rules (:mod:`binmetrics.measures.roc_points`), and
the band is the percentile interval of those values, with their median, as pROC
reports them (R's default quantile, type 7 = NumPy's "linear"). The replicates are
count vectors of the table built once: nothing is re-sorted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from binmetrics.backends import axes
from binmetrics.formatting import Tabular
from binmetrics.inference.resampling import bootstrap_tables
from binmetrics.measures.roc_points import check_rates, read_curve
from binmetrics.table.counts import CountTable, FloatArray
from binmetrics.validation import check_count, check_level

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["ROCBand", "roc_band"]


@dataclass(frozen=True)
class ROCBand(Tabular):
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

    def to_frame(self) -> pd.DataFrame:
        """One row per fixed rate."""
        other = "tpr" if self.along == "fpr" else "tnr"
        return pd.DataFrame({self.along: self.at, other: self.estimate, "low": self.low,
                             "median": self.median, "high": self.high})

    def __repr__(self) -> str:
        what = "sensitivity at fixed FPR" if self.along == "fpr" else "specificity at fixed TPR"
        return (f"ROCBand({what}, {self.at.size} points, {self.level:g} percentile, "
                f"n_resamples={self.n_resamples})\n{self.to_frame()}")

    def plot(self, ax: Any = None, **kwargs: Any) -> Axes:
        """Shade the band in ROC space (FPR across, TPR up); needs matplotlib."""
        ax = axes(ax, "ROCBand.plot")
        if self.along == "fpr":
            ax.fill_between(self.at, self.low, self.high, **{"alpha": 0.3, **kwargs})
        else:
            ax.fill_betweenx(self.at, 1.0 - self.high, 1.0 - self.low,
                             **{"alpha": 0.3, **kwargs})
        ax.set_xlabel("False positive rate")
        ax.set_ylabel("True positive rate")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        return ax


def _read(t: CountTable, along: str, at: FloatArray) -> FloatArray:
    if along == "fpr":
        return read_curve(t.fp / t.N, t.tp / t.P, at, last=True)[0]
    return 1.0 - read_curve(t.tp / t.P, t.fp / t.N, at, last=False)[0]


def roc_band(table: CountTable, *, fpr: Any = None, tpr: Any = None,
             n_resamples: int = 2000, level: float = 0.95, random_state: Any = None,
             stratified: bool = True) -> ROCBand:
    """The band of :meth:`binmetrics.curves.ROCCurve.ci_band`."""
    if (fpr is None) == (tpr is None):
        raise ValueError("pass exactly one of fpr= (sensitivity intervals at those FPRs, "
                         "pROC ci.se) or tpr= (specificity intervals, pROC ci.sp)")
    along = "fpr" if fpr is not None else "tpr"
    at = check_rates(fpr if fpr is not None else tpr, along).ravel()
    B = check_count(n_resamples, "n_resamples")
    c = check_level(level)
    if not (table.P > 0 and table.N > 0):
        raise ValueError("a ROC band needs both classes")
    reps = np.empty((B, at.size))
    for i, rep in enumerate(bootstrap_tables(table, B, stratified=stratified,
                                             random_state=random_state)):
        reps[i] = _read(rep, along, at)
    alpha = (1.0 - c) / 2.0
    low, median, high = np.nanquantile(reps, [alpha, 0.5, 1.0 - alpha], axis=0)
    return ROCBand(along=along, at=at, estimate=_read(table, along, at), low=low,
                   median=median, high=high, level=c, n_resamples=B)
