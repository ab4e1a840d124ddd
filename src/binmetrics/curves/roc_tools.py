"""Reading a ROC curve as pROC's ``coords`` does, and the DET curve.

:func:`roc_at` gives the other rate at a given FPR or TPR (pROC
``coords(roc, x, input = "specificity" | "sensitivity")``); :class:`DETCurve` is the
detection error tradeoff curve of Martin et al. (1997), as scikit-learn's
``det_curve`` returns it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from binmetrics.chart import ChartData, Drawable, series
from binmetrics.formatting import Tabular
from binmetrics.measures import ranking as rk
from binmetrics.measures.roc_points import check_rates, read_curve
from binmetrics.table.counts import CountTable, FloatArray

if TYPE_CHECKING:
    pass

__all__ = ["ROC_CRITERIA", "DETCurve", "ROCCoords", "roc_at", "roc_criterion"]


@dataclass(frozen=True)
class ROCCoords(Tabular):
    """Points of a ROC curve read at given rates (one row per rate asked).

    ``threshold`` is the cut where the point is a vertex of the curve (``score >=
    threshold`` is positive), NaN where the point was interpolated between two vertices.
    Scalars for one rate asked, arrays for several.
    """

    fpr: Any
    tpr: Any
    threshold: Any

    def to_frame(self) -> pd.DataFrame:
        """The points as a DataFrame (columns fpr, tpr, threshold)."""
        return pd.DataFrame({"fpr": np.atleast_1d(self.fpr), "tpr": np.atleast_1d(self.tpr),
                             "threshold": np.atleast_1d(self.threshold)})

    def __repr__(self) -> str:
        if np.ndim(self.fpr) == 0:
            return (f"ROCCoords(fpr={float(self.fpr):.6g}, tpr={float(self.tpr):.6g}, "
                    f"threshold={float(self.threshold):.6g})")
        return f"ROCCoords({np.size(self.fpr)} points)\n{self.to_frame()}"


def roc_at(fpr_curve: FloatArray, tpr_curve: FloatArray, thresholds: FloatArray, *,
           fpr: Any = None, tpr: Any = None) -> ROCCoords:
    """The points of the curve at the given FPR (or TPR), pROC's ``coords`` rules.

    Given ``fpr``: where the curve has vertices at exactly that rate (a vertical run of
    them), the one with the highest TPR; otherwise the TPR interpolated linearly between
    the vertices on either side (tied scores are diagonal segments, so this is also the
    value on a tie). Given ``tpr``: where several vertices hit it (a horizontal run), the
    one with the lowest FPR; otherwise interpolated. pROC asks by specificity; rates are
    compared exactly as given, so ask ``fpr=0.2``, not ``1 - 0.8``
    (:mod:`binmetrics.measures.roc_points`).
    """
    if (fpr is None) == (tpr is None):
        raise ValueError("pass exactly one of fpr= or tpr= (a rate or an array of rates)")
    scalar = np.ndim(fpr if tpr is None else tpr) == 0
    if fpr is not None:
        x = check_rates(fpr, "fpr").ravel()
        other, idx, hit = read_curve(fpr_curve, tpr_curve, x, last=True)
        out_f, out_t = x, other
    else:
        x = check_rates(tpr, "tpr").ravel()
        other, idx, hit = read_curve(tpr_curve, fpr_curve, x, last=False)
        out_f, out_t = other, x
    th = np.where(hit, thresholds[idx], np.nan)
    if scalar:
        return ROCCoords(fpr=float(out_f[0]), tpr=float(out_t[0]), threshold=float(th[0]))
    return ROCCoords(fpr=out_f, tpr=out_t, threshold=th)


@dataclass(frozen=True, repr=False)
class DETCurve(Drawable, Tabular):
    """Detection error tradeoff curve: FPR and FNR at every threshold (Martin et al. 1997).

    The arrays are those of scikit-learn's ``det_curve`` (with its default
    ``drop_intermediate=False``): rates, not normal deviates, one point per distinct
    score (``score >= threshold`` is positive), in increasing threshold order, so FPR
    falls and FNR rises. As in scikit-learn, the curve starts at the highest threshold
    where FNR is already 0 and ends at the lowest where FPR is still 0 (the points
    beyond those repeat a zero rate). :meth:`plot` draws it on normal-deviate axes.

    Examples
    --------
    >>> import binmetrics as bm
    >>> det = bm.evaluate([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).det()
    >>> det.fpr.tolist(), det.fnr.tolist(), det.thresholds.tolist()
    ([0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.35, 0.4, 0.8])
    """

    fpr: FloatArray
    fnr: FloatArray
    thresholds: FloatArray
    table: CountTable = field(repr=False)

    @classmethod
    def from_table(cls, t: CountTable) -> DETCurve:
        if not rk.both_classes(t, "det curve"):
            nan = np.array([np.nan])
            return cls(fpr=nan, fnr=nan.copy(), thresholds=nan.copy(), table=t)
        fps, tps = np.asarray(t.fp[1:], dtype=float), np.asarray(t.tp[1:], dtype=float)
        first = int(np.searchsorted(fps, fps[0], side="right")) - 1
        last = int(np.searchsorted(tps, tps[-1])) + 1
        sl = slice(first, last)
        return cls(fpr=(fps[sl] / t.N)[::-1], fnr=((t.P - tps[sl]) / t.P)[::-1],
                   thresholds=np.asarray(t.scores, dtype=float)[sl][::-1], table=t)

    def to_frame(self) -> pd.DataFrame:
        """The points as a DataFrame (columns threshold, fpr, fnr)."""
        return pd.DataFrame({"threshold": self.thresholds, "fpr": self.fpr, "fnr": self.fnr})

    def _title(self) -> str:
        return f"DETCurve: {self.fpr.size} points"

    def chart(self) -> ChartData:
        """The curve on normal-deviate axes (probit of FPR and FNR; the points with both
        rates strictly inside (0, 1)), ticks labelled in rates; ``.plot()`` draws it.

        Examples
        --------
        >>> import binmetrics as bm
        >>> cd = bm.evaluate([0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .6, .7]).det().chart()
        >>> cd.series[0].x.round(3).tolist(), cd.xticks[1][:2]  # probit of FPR 2/3, 1/3
        ([0.431, -0.431], ['0.1%', '1%'])
        """
        from scipy.stats import norm

        keep = (self.fpr > 0) & (self.fpr < 1) & (self.fnr > 0) & (self.fnr < 1)
        curve = series(norm.ppf(self.fpr[keep]), norm.ppf(self.fnr[keep]), "DET curve")
        ticks = np.array([0.001, 0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.99, 0.999])
        marks = (norm.ppf(ticks).tolist(), [f"{100 * v:g}%" for v in ticks])
        lo, hi = (float(v) for v in norm.ppf([0.0005, 0.9995]))
        return ChartData("det", "DET curve", "False positive rate", "False negative rate",
                         (curve,), (lo, hi), (lo, hi), legend=None, xticks=marks, yticks=marks)


#: the ``best_threshold`` criteria read off the ROC curve (pROC's ``best.method``)
ROC_CRITERIA = ("youden", "closest_topleft")


def roc_criterion(tpr: FloatArray, fpr: FloatArray, method: str,
                  weights: tuple[float, float] | None = None) -> FloatArray:
    r"""pROC's optimality criterion at every point of the ROC curve (``best.method``,
    ``best.weights = c(cost, prevalence)``).

    With :math:`r = (1 - \pi) / (c\,\pi)` (``weights = (c, pi)``: the relative cost of a
    false negative and the prevalence; default (1, 0.5), r = 1), Youden's criterion is
    :math:`\mathrm{TPR} + r\,\mathrm{TNR}` and the closest-to-top-left one
    :math:`-\left[(1 - \mathrm{TPR})^2 + r\,(1 - \mathrm{TNR})^2\right]`; higher is better.
    """
    cost, prevalence = (1.0, 0.5) if weights is None else (float(v) for v in weights)
    if not 0.0 < prevalence < 1.0:
        raise ValueError(f"weights=(cost, prevalence) needs 0 < prevalence < 1; got "
                         f"{prevalence!r}")
    if not cost > 0.0:
        raise ValueError(f"weights=(cost, prevalence) needs cost > 0; got {cost!r}")
    r = (1.0 - prevalence) / (cost * prevalence)
    tnr = 1.0 - fpr
    if method == "youden":
        return tpr + r * tnr
    if method == "closest_topleft":
        return -((1.0 - tpr) ** 2 + r * (1.0 - tnr) ** 2)
    raise ValueError(f"method must be one of {', '.join(ROC_CRITERIA)}; got {method!r}")
