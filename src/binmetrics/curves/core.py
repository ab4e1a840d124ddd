"""The curves behind the ranking measures, as arrays read off the count table.

Each curve holds its points (one per distinct threshold, ties as segments) and,
where one applies, an ``area()`` that is the registered measure of the same
name, so a curve's area and the scalar in a report can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

import numpy as np

from binmetrics.curves.band import ROCBand, roc_band
from binmetrics.curves.roc_tools import DETCurve, ROCCoords, roc_at
from binmetrics.curves.smooth import SMOOTH_METHODS, SmoothROC, binormal_smooth, density_smooth
from binmetrics.exceptions import undefined_policy
from binmetrics.formatting import Tabular, format_number
from binmetrics.measures import early_recognition as er
from binmetrics.measures import get_measure
from binmetrics.measures import prg as prg_measures
from binmetrics.measures import ranking as rk
from binmetrics.measures._util import trapezoid
from binmetrics.measures.partial_auc import partial_auc
from binmetrics.table.counts import CountTable, FloatArray

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "AccumulationCurve",
    "DETCurve",
    "GainCurve",
    "LiftCurve",
    "PRCurve",
    "PRGCurve",
    "ROCCurve",
    "ROCHull",
    "ThresholdCurves",
]


def _rates(t: CountTable, what: str) -> tuple[FloatArray, FloatArray]:
    """TPR and FPR at every cut (NaN arrays, reported, when a class is missing)."""
    if not rk.both_classes(t, what):
        nan = np.full(t.tp.size, np.nan)
        return nan, nan.copy()
    return t.tp / t.P, t.fp / t.N


class _Points(Tabular):
    """What every curve shares: ``to_frame()`` (one row per point, a column per array),
    a ``repr`` with its size and area over its first and last points, and a notebook
    table (:class:`~binmetrics.formatting.Tabular`)."""

    _repr_rows = 8

    def to_frame(self) -> pd.DataFrame:
        """The curve's points as a DataFrame, one column per array (in the order of the
        attributes).

        Examples
        --------
        >>> import binmetrics as bm
        >>> bm.evaluate([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.2]).roc().to_frame().columns.tolist()
        ['fpr', 'tpr', 'thresholds']
        """
        import pandas as pd

        names = [f.name for f in fields(self) if f.name != "table"]  # type: ignore[arg-type]
        cols = {name: np.asarray(getattr(self, name)) for name in names}
        return pd.DataFrame(cols)

    def _title(self) -> str:
        first = next(iter(fields(self)))  # type: ignore[arg-type]
        n = np.size(getattr(self, first.name))
        title = f"{type(self).__name__}: {n} points"
        how = "area" if hasattr(self, "area") else "average" if hasattr(self, "average") else ""
        if how:
            with undefined_policy("ignore"):
                title += f"; {how} {format_number(getattr(self, how)())}"
        return title


@dataclass(frozen=True, repr=False)
class ROCHull(_Points):
    """Vertices of the ROC convex hull (Berrar Def. 29), from (0, 0) to (1, 1)."""

    fpr: FloatArray
    tpr: FloatArray

    def area(self) -> float:
        """AUCH by the trapezoid rule (Berrar eq. 34)."""
        return trapezoid(self.fpr, self.tpr)


@dataclass(frozen=True, repr=False)
class ROCCurve(_Points):
    """ROC curve: FPR and TPR at every distinct threshold, from (0, 0) to (1, 1).

    ``thresholds[k]`` is the cut of point k (``score >= threshold`` is positive;
    +inf for the first point, where nothing is predicted positive).

    Examples
    --------
    >>> import binmetrics as bm
    >>> roc = bm.evaluate([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.2]).roc()
    >>> roc.fpr.tolist(), roc.tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    >>> roc.area(), roc.hull().area()  # the hull spans (0, .5) to (.5, 1)
    (0.75, 0.875)
    """

    fpr: FloatArray
    tpr: FloatArray
    thresholds: FloatArray
    table: CountTable = field(repr=False)

    @classmethod
    def from_table(cls, t: CountTable) -> ROCCurve:
        tpr, fpr = _rates(t, "roc curve")
        return cls(fpr=fpr, tpr=tpr, thresholds=t.thresholds(), table=t)

    def area(self) -> float:
        """AUC (Berrar Def. 27)."""
        return float(rk.auc(self.table))

    def hull(self) -> ROCHull:
        """The ROC convex hull (Berrar Def. 29)."""
        if not rk.both_classes(self.table, "roc hull"):
            return ROCHull(fpr=np.array([np.nan]), tpr=np.array([np.nan]))
        f, t = rk.roc_hull(self.table)
        return ROCHull(fpr=f, tpr=t)

    def partial_area(self, *, fpr: tuple[float, float] | None = None,
                     tpr: tuple[float, float] | None = None, correct: bool = False) -> float:
        """The partial AUC over an FPR or TPR range (the ``partial_auc`` measure;
        pROC's ``auc(roc, partial.auc=)``)."""
        return float(partial_auc(self.table, fpr=fpr, tpr=tpr, correct=correct))

    def smooth(self, method: str = "binormal", *, n: int = 512,
               bandwidth: float | str = "nrd0", adjust: float = 1.0) -> SmoothROC:
        """The smoothed curve (pROC ``smooth(roc, method, n, bw, adjust)``); ``.area()``,
        ``.plot()``, ``.to_frame()``.

        ``"binormal"``: least squares of probit(TNR) on probit(TPR) over the points
        strictly inside the unit square. ``"density"``: Gaussian kernel densities of the
        two classes' scores as R's ``density`` computes them (``bandwidth`` a number or
        "nrd0", R's ``bw.nrd0`` of the pooled scores, times ``adjust``), read at ``n``
        points (:mod:`binmetrics.curves.smooth`). pROC's ``"fitdistr"`` and
        ``"logcondens"`` are not implemented.

        Examples
        --------
        >>> import binmetrics as bm
        >>> roc = bm.evaluate([0, 0, 1, 0, 1, 1], [.1, .3, .35, .4, .7, .8]).roc()
        >>> round(roc.smooth("density").area(), 6)  # pROC auc(smooth(r, "density"))
        0.860641
        """
        if method not in SMOOTH_METHODS:
            raise NotImplementedError(f"smoothing method {method!r} is not implemented; the "
                                      f"methods: {', '.join(SMOOTH_METHODS)}")
        if not rk.both_classes(self.table, "smoothed roc curve"):
            raise ValueError("a ROC curve needs both classes to be smoothed")
        if method == "density":
            return density_smooth(self.table, n, bandwidth, adjust)
        if not (isinstance(bandwidth, str) and bandwidth == "nrd0" and adjust == 1.0):
            raise ValueError("bandwidth= and adjust= apply to method='density' only")
        return binormal_smooth(self.fpr, self.tpr, n)

    def ci_band(self, *, fpr: Any = None, tpr: Any = None, n_resamples: int = 2000,
                level: float = 0.95, random_state: Any = None) -> ROCBand:
        """Bootstrap intervals of the sensitivity at fixed FPRs (``fpr=``; pROC ``ci.se``
        at specificities 1 - fpr) or of the specificity at fixed TPRs (``tpr=``; pROC
        ``ci.sp``): stratified replicates of the count table, percentile intervals and
        medians (:mod:`binmetrics.curves.band`); ``.plot()`` shades the band."""
        return roc_band(self.table, fpr=fpr, tpr=tpr, n_resamples=n_resamples, level=level,
                        random_state=random_state)

    def at(self, *, fpr: Any = None, tpr: Any = None) -> ROCCoords:
        """The curve read at given FPR(s) or TPR(s), as pROC's ``coords(roc, x, input =
        "specificity" | "sensitivity")`` with ``x = 1 - fpr`` or ``x = tpr``.

        An exact hit on several vertices gives the highest TPR (asked by FPR) or the
        lowest FPR (asked by TPR), with that vertex's threshold (``score >= threshold``
        is positive; pROC's thresholds lie halfway between scores); otherwise the other
        rate is interpolated linearly and the threshold is NaN.

        Examples
        --------
        >>> import binmetrics as bm
        >>> roc = bm.evaluate([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.2]).roc()
        >>> roc.at(fpr=0.5)  # vertices (.5, .5) and (.5, 1): the higher TPR
        ROCCoords(fpr=0.5, tpr=1, threshold=0.6)
        >>> roc.at(fpr=0.25).tpr  # between the vertices (0, .5) and (.5, .5)
        0.5
        >>> roc.at(tpr=[0.5, 0.75]).to_frame()  # (0, .5) is a vertex; .75 is on a vertical
           fpr   tpr  threshold
        0  0.0  0.50        0.9
        1  0.5  0.75        NaN
        """
        return roc_at(self.fpr, self.tpr, self.thresholds, fpr=fpr, tpr=tpr)


_PR_AREAS = ("step", "min", "max", "minmax", "linear", "davis_goadrich")


@dataclass(frozen=True, repr=False)
class PRCurve(_Points):
    """Precision-recall curve at every distinct threshold (cuts 1..n_distinct).

    The point "nothing predicted positive" has no precision and is not listed;
    Berrar's trapezoidal estimators give it precision 0 at recall 0 (Def. 32).

    Examples
    --------
    >>> import binmetrics as bm
    >>> pr = bm.evaluate([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.2]).pr()
    >>> pr.recall.tolist(), [round(float(p), 3) for p in pr.precision]
    ([0.5, 0.5, 1.0, 1.0], [1.0, 0.5, 0.667, 0.5])
    >>> round(pr.area(), 4)  # AP: 0.5 * 1 + 0.5 * 2/3
    0.8333
    >>> pr.area("min")  # lowest precision per recall: 0 at 0, then 0.5 and 0.5
    0.375
    """

    recall: FloatArray
    precision: FloatArray
    thresholds: FloatArray
    table: CountTable = field(repr=False)

    @classmethod
    def from_table(cls, t: CountTable) -> PRCurve:
        with np.errstate(invalid="ignore", divide="ignore"):
            recall = t.tp[1:] / t.P if t.P > 0 else np.full(t.n_distinct, np.nan)
        rk.both_classes(t, "precision-recall curve")
        return cls(recall=recall, precision=t.tp[1:] / t.cum[1:], thresholds=t.scores, table=t)

    def area(self, method: str = "step") -> float:
        """Area under the PR curve.

        Parameters
        ----------
        method :
            ``"step"`` average precision, Berrar eq. 38 (= scikit-learn);
            ``"min"``, ``"max"``, ``"minmax"`` Berrar's trapezoidal estimators (Def. 33);
            ``"linear"`` straight lines between the points, starting at
            (0, precision of the first point) — optimistic, see Davis & Goadrich;
            ``"davis_goadrich"`` the curve interpolated in count space between
            neighbouring points (Davis & Goadrich 2006), integrated exactly as in
            Keilwagen et al. 2014.
        """
        t = self.table
        if method == "step":
            return float(rk.average_precision(t))
        if method in ("min", "max", "minmax"):
            return float(get_measure(f"aucpr_{method}").func(t))
        if method not in _PR_AREAS:
            raise ValueError(f"unknown PR area method {method!r}; choose one of {_PR_AREAS}")
        if not rk.both_classes(t, f"PR area ({method})"):
            return float("nan")
        if method == "linear":
            r = np.concatenate(([0.0], self.recall))
            p = np.concatenate(([self.precision[0]], self.precision))
            return trapezoid(r, p)
        return _davis_goadrich(t)


def _davis_goadrich(t: CountTable) -> float:
    # between cuts k-1 and k, TP rises by pos_k and the predicted positives by m_k:
    # precision(x) = (a + x) / (b + s x), s = m_k / pos_k, for x in [0, pos_k]
    use = t.pos > 0
    a, b = t.tp[:-1][use], t.cum[:-1][use]
    d, s = t.pos[use], (t.pos + t.neg)[use] / t.pos[use]
    with np.errstate(divide="ignore", invalid="ignore"):
        log_term = np.where(b > 0, np.log1p(s * d / np.where(b > 0, b, 1.0)), 0.0)
    integral = d / s + (a - b / s) / s * log_term
    return float(np.sum(integral) / t.P)


@dataclass(frozen=True, repr=False)
class PRGCurve(_Points):
    """Precision-recall-gain curve (Flach & Kull 2015) with the axis crossing points
    inserted as prg.py does (docs/methods.md §4)."""

    recall_gain: FloatArray
    precision_gain: FloatArray
    is_crossing: Any
    table: CountTable = field(repr=False)

    @classmethod
    def from_table(cls, t: CountTable) -> PRGCurve:
        if not rk.both_classes(t, "precision-recall-gain curve"):
            nan = np.array([np.nan])
            return cls(recall_gain=nan, precision_gain=nan, is_crossing=np.array([False]),
                       table=t)
        p = prg_measures.prg_points(t)
        return cls(recall_gain=p["recall_gain"], precision_gain=p["precision_gain"],
                   is_crossing=p["is_crossing"], table=t)

    def area(self) -> float:
        """AUPRG (the ``auprg`` measure)."""
        return float(prg_measures.auprg(self.table))


@dataclass(frozen=True, repr=False)
class ThresholdCurves(_Points):
    """TPR and FPR against the threshold (Berrar Fig. 5b), and any confusion measure.

    ``thresholds[0]`` is +inf (nothing positive); then the distinct scores, descending.
    """

    thresholds: FloatArray
    tpr: FloatArray
    fpr: FloatArray
    table: CountTable = field(repr=False)

    @classmethod
    def from_table(cls, t: CountTable) -> ThresholdCurves:
        tpr, fpr = _rates(t, "threshold curves")
        return cls(thresholds=t.thresholds(), tpr=tpr, fpr=fpr, table=t)

    def measure(self, name: str, **params: Any) -> FloatArray:
        """Any confusion measure at every threshold (NaN where it is undefined).

        Examples
        --------
        >>> import binmetrics as bm
        >>> ev = bm.evaluate([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.2])
        >>> ev.threshold_curves().measure("f1").round(3).tolist()
        [0.0, 0.667, 0.5, 0.8, 0.667]
        """
        m = get_measure(name)
        if m.family != "confusion":
            raise ValueError(
                f"{m.id} is a {m.family} measure; only confusion measures vary with the threshold"
            )
        with undefined_policy("ignore"):
            return np.asarray(m.func(self.table.cuts(), **m.resolve_params(**params)))

    def ks(self) -> tuple[float, float]:
        """(threshold, KS): where |TPR - FPR| is largest (Berrar Def. 30), and its value."""
        gap = np.abs(self.tpr - self.fpr)
        if np.all(np.isnan(gap)):
            return float("nan"), float("nan")
        k = int(np.nanargmax(gap))
        return float(self.thresholds[k]), float(gap[k])


@dataclass(frozen=True, repr=False)
class GainCurve(_Points):
    """Gain chart (Berrar Fig. 4a): positives found among the top j cases, against j.

    ``baseline`` is the random line j P / n.
    """

    n_selected: FloatArray
    positives: FloatArray
    baseline: FloatArray
    table: CountTable = field(repr=False)

    @classmethod
    def from_table(cls, t: CountTable) -> GainCurve:
        return cls(n_selected=np.asarray(t.cum), positives=np.asarray(t.tp),
                   baseline=t.cum * t.prevalence, table=t)

    def average(self) -> float:
        """Average gain (Berrar Def. 25)."""
        return float(er.average_gain(self.table))


@dataclass(frozen=True, repr=False)
class LiftCurve(_Points):
    """Lift chart (Berrar Fig. 4b): lift when the top j cases are predicted positive.

    Points at the distinct thresholds; the random baseline is 1.
    """

    n_selected: FloatArray
    lift: FloatArray
    table: CountTable = field(repr=False)

    @classmethod
    def from_table(cls, t: CountTable) -> LiftCurve:
        with np.errstate(invalid="ignore", divide="ignore"):
            lift = (t.tp[1:] / t.cum[1:]) / t.prevalence
        rk.both_classes(t, "lift curve")
        return cls(n_selected=np.asarray(t.cum[1:]), lift=lift, table=t)

    def average(self) -> float:
        """Average lift (Berrar Def. 26)."""
        return float(er.average_lift(self.table))


@dataclass(frozen=True, repr=False)
class AccumulationCurve(_Points):
    """Fraction of positives found against the fraction of cases screened."""

    fraction_screened: FloatArray
    fraction_found: FloatArray
    table: CountTable = field(repr=False)

    @classmethod
    def from_table(cls, t: CountTable) -> AccumulationCurve:
        found, _ = _rates(t, "accumulation curve")
        return cls(fraction_screened=t.cum / t.total, fraction_found=found, table=t)

    def area(self, kind: str = "trapezoid") -> float:
        """AUAC (the ``auac`` measure)."""
        return float(er.auac(self.table, kind=kind))
