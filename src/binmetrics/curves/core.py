"""The curves behind the ranking measures, as arrays read off the count table.

Each curve holds its points (one per distinct threshold, ties as segments) and,
where one applies, an ``area()`` that is the registered measure of the same
name, so a curve's area and the scalar in a report can never disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from binmetrics.chart import ChartData, Drawable, Note, Series, fmt, point_marker, series
from binmetrics.curves.band import ROCBand, roc_band
from binmetrics.curves.pr_points import PRPointMethods
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
    "case_axes",
    "threshold_axis",
]

_FPR = "false positive rate (1 - specificity)"
_TPR = "true positive rate (sensitivity)"
#: The estimators of the area under the precision-recall curve (:meth:`PRCurve.line`),
#: as the legends name them, and the line style of each
PR_NAMES = {"step": "AP (step)", "min": "AUCPR min", "max": "AUCPR max",
            "minmax": "AUCPR minmax", "linear": "linear", "davis_goadrich": "Davis-Goadrich"}
_PR_STYLES: dict[str, dict[str, Any]] = {
    "step": {"style": "solid"}, "min": {"style": "dotted"}, "max": {"style": "dashed"},
    "minmax": {"style": "dashdot"}, "linear": {"extra": {"linestyle": (0, (5, 1))}},
    "davis_goadrich": {"extra": {"linestyle": (0, (3, 1, 1, 1, 1, 1))}}}


def _random(x: Any, y: Any, label: str = "random") -> Series:
    """A baseline of random guessing: red, thin, drawn once for every model."""
    return series(x, y, label, shared=True, color="red", width=1.0)


def threshold_axis(thresholds: FloatArray) -> FloatArray:
    """The x values of every cut on a chart against the threshold: the distinct scores,
    and for cut 0 (threshold +inf, nothing positive) a point just right of the highest
    score; when lower scores mean positive (cut 0 at -inf, the scores ascending), just
    left of the lowest.

    Examples
    --------
    >>> threshold_axis(np.array([np.inf, 0.9, 0.5, 0.1])).round(3).tolist()
    [0.94, 0.9, 0.5, 0.1]
    >>> threshold_axis(np.array([-np.inf, -9.0, -8.0, -5.0])).round(3).tolist()
    [-9.2, -9.0, -8.0, -5.0]
    """
    s = thresholds[1:]
    span = abs(float(s[0] - s[-1]))
    pad = 0.05 * span if span > 0 else max(0.05 * abs(float(s[0])), 0.05)
    side = 1.0 if thresholds[0] > 0 else -1.0
    return np.concatenate(([s[0] + side * pad], s))


def case_axes(weighted: bool, normalize: bool) -> tuple[str, str]:
    """The axis labels of the gain and lift charts: cases or weight, counts or fractions.

    Examples
    --------
    >>> case_axes(False, True)
    ('fraction of cases selected', 'fraction of positives found')
    """
    if normalize:
        return (("fraction of the weight selected" if weighted else
                 "fraction of cases selected"),
                "fraction of the positive weight found" if weighted else
                "fraction of positives found")
    return (("weight of the cases selected" if weighted else "cases selected") + " (top-ranked)",
            "weight of the positives found" if weighted else "positives found")


def _roc_point(ev: Any, c: Any, v: Mapping[str, Any]) -> tuple[Any, Any]:
    return v["fpr"], v["tpr"]


def _pr_point(ev: Any, c: Any, v: Mapping[str, Any]) -> tuple[Any, Any]:
    return v["tpr"], v["ppv"]


def _rates(t: CountTable, what: str) -> tuple[FloatArray, FloatArray]:
    """TPR and FPR at every cut (NaN arrays, reported, when a class is missing)."""
    if not rk.both_classes(t, what):
        nan = np.full(t.tp.size, np.nan)
        return nan, nan.copy()
    return t.tp / t.P, t.fp / t.N


class _Points(Drawable, Tabular):
    """What every curve shares: ``to_frame()`` (one row per point, a column per array),
    a ``repr`` with its size and area over its first and last points, a notebook
    table (:class:`~binmetrics.formatting.Tabular`), and ``plot()`` drawing its
    ``chart()`` (:class:`~binmetrics.chart.Drawable`)."""

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

    def chart(self) -> ChartData:
        """The hull (dashed) and the random line (Berrar Fig. 6c).

        Examples
        --------
        >>> import binmetrics as bm
        >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
        ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
        >>> [s.label for s in ev.roc().hull().chart().series]  # Berrar: AUCH 0.88
        ['convex hull, AUCH = 0.880', 'random']
        """
        hull = series(self.fpr, self.tpr, f"convex hull, AUCH = {fmt(self.area())}",
                      style="dashed", source=(self, "fpr", "tpr"))
        return ChartData("roc_hull", "ROC convex hull", _FPR, _TPR,
                         (hull, _random([0.0, 1.0], [0.0, 1.0])), (0.0, 1.0), (0.0, 1.0),
                         operating=_roc_point, legend="lower right", pad=0.02, aspect="equal")


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

    def chart(self, *, hull: bool = True,
              shade: str | Sequence[str] | None = None) -> ChartData:
        """The curve (AUC in its label), its convex hull (dashed, AUCH) with ``hull=True``,
        and the random line (Berrar Figs. 5a, 6a, 6c); ``shade`` fills the areas of
        Fig. 6a-c: ``"auc"``, ``"gini"`` (between the curve and the diagonal, with the
        Gini index) and/or ``"auch"`` (:func:`~binmetrics.curves.roc_areas.roc_area_series`).

        Examples
        --------
        >>> import binmetrics as bm
        >>> roc = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
        ...                   [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]).roc()
        >>> [s.label for s in roc.chart().series]  # Berrar: AUC 0.8, AUCH 0.88
        ['ROC, AUC = 0.800', 'convex hull, AUCH = 0.880', 'random']
        """
        curve = series(self.fpr, self.tpr, f"ROC, AUC = {fmt(self.area())}",
                       marker=point_marker(self.table.n_distinct), extra={"markersize": 4},
                       source=(self, "fpr", "tpr"))
        from binmetrics.curves.roc_areas import roc_area_series

        lines = (*roc_area_series(self, shade), curve,
                 *((self.hull().chart().series[0],) if hull else ()))
        return ChartData("roc", "ROC curve and convex hull" if hull else "ROC curve", _FPR,
                         _TPR, (*lines, _random([0.0, 1.0], [0.0, 1.0])), (0.0, 1.0),
                         (0.0, 1.0), operating=_roc_point, legend="lower right", pad=0.02,
                         aspect="equal")

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
        ``.plot()``, ``.to_frame()``, and ``.ci()`` its area's bootstrap interval (pROC
        ``ci(smooth(roc))``).

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
        source = (self.table, n, bandwidth, adjust)  # for SmoothROC.ci
        if method == "density":
            return replace(density_smooth(self.table, n, bandwidth, adjust), _source=source)
        if not (isinstance(bandwidth, str) and bandwidth == "nrd0" and adjust == 1.0):
            raise ValueError("bandwidth= and adjust= apply to method='density' only")
        return replace(binormal_smooth(self.fpr, self.tpr, n), _source=source)

    def ci_band(self, *, fpr: Any = None, tpr: Any = None, n_resamples: int = 2000,
                level: float = 0.95, random_state: Any = None,
                kind: str = "pointwise") -> ROCBand:
        """Bootstrap intervals of the sensitivity at fixed FPRs (``fpr=``; pROC ``ci.se``
        at specificities 1 - fpr) or of the specificity at fixed TPRs (``tpr=``; pROC
        ``ci.sp``): stratified replicates of the count table, percentile intervals and
        medians (:mod:`binmetrics.curves.band`); ``.plot()`` shades the band.
        ``kind="simultaneous"``: a sup-t band that covers the whole curve at the grid
        with the stated level."""
        return roc_band(self.table, fpr=fpr, tpr=tpr, n_resamples=n_resamples, level=level,
                        random_state=random_state, kind=kind)

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
class PRCurve(PRPointMethods, _Points):
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

    def line(self, method: str = "step") -> tuple[FloatArray, FloatArray]:
        """The curve one area estimator integrates (``method`` as :meth:`area`): the
        trapezoid rule on it gives the area (for "step": steps-pre, each precision
        held back to the previous recall).

        Examples
        --------
        >>> import binmetrics as bm
        >>> pr = bm.evaluate([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.2]).pr()
        >>> [v.tolist() for v in pr.line("min")]
        [[0.0, 0.5, 1.0], [0.0, 0.5, 0.5]]
        """
        t = self.table
        if method in ("step", "linear"):  # from recall 0 at the first point's precision
            return (np.concatenate(([0.0], self.recall)),
                    np.concatenate(([self.precision[0]], self.precision)))
        if method == "davis_goadrich":
            return _davis_goadrich_line(t)
        if method not in _PR_AREAS:
            raise ValueError(f"unknown PR area method {method!r}; choose one of {_PR_AREAS}")
        r, pmin, pmax = rk.recall_levels(t)  # the levels the estimators integrate
        if method == "min":
            return r, pmin
        if method == "max":
            return r, pmax
        # minmax: from p_min at one recall to p_max at the next, then down to p_min there
        return np.repeat(r, 2), np.column_stack((pmax, pmin)).ravel()

    def chart(self, *, interpolation: str | Sequence[str] = ("step", "min", "max", "minmax")
              ) -> ChartData:
        """Each estimator's curve (:meth:`line`, its area in the label) and the random
        line at the prevalence (Berrar Figs. 5c, 6d).

        Examples
        --------
        >>> import binmetrics as bm
        >>> pr = bm.evaluate([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.2]).pr()
        >>> [s.label for s in pr.chart(interpolation=["step", "min"]).series]
        ['AP (step) = 0.833', 'AUCPR min = 0.375', 'random (prevalence 0.5)']
        """
        chosen = [interpolation] if isinstance(interpolation, str) else list(interpolation)
        if not chosen or any(m not in _PR_STYLES for m in chosen):
            raise ValueError(f"interpolation must name one or more of {list(_PR_STYLES)}; "
                             f"got {interpolation!r}")
        out = []
        for m in dict.fromkeys(chosen):
            x, y = self.line(m)
            label = f"{PR_NAMES[m]} = {fmt(self.area(m))}"
            if m == "step":
                out.append(series(x, y, label, steps="pre",
                                  marker=point_marker(self.table.n_distinct), width=1.8,
                                  extra={"markersize": 4, "markevery": slice(1, None)},
                                  source=(self, "recall", "precision")))
            else:
                out.append(series(x, y, label, width=1.0, **_PR_STYLES[m]))
        prev = float(self.table.prevalence)
        out.append(_random([0.0, 1.0], [prev, prev], f"random (prevalence {prev:.3g})"))
        return ChartData("pr", "Precision-recall curve", "recall (sensitivity)", "precision",
                         tuple(out), (0.0, 1.0), (0.0, 1.0), operating=_pr_point,
                         legend="lower left", pad=0.02, aspect="equal")


def _davis_goadrich_line(t: CountTable, max_points: int = 20_000) -> tuple[FloatArray,
                                                                          FloatArray]:
    """The PR curve interpolated in count space (Davis & Goadrich 2006): between
    neighbouring cuts TP grows by x and FP by x * neg/pos, so precision is
    (a + x) / (b + s x); sampled at a few points per step."""
    tp0, fp0 = t.tp[:-1], t.fp[:-1]
    pos, neg = t.pos.astype(np.float64), t.neg.astype(np.float64)
    m = int(max(2, min(16, max_points // max(t.n_distinct, 1))))
    u = np.linspace(0.0, 1.0, m)[1:]  # fraction of the step taken
    tp = tp0[:, None] + u[None, :] * pos[:, None]
    fp = fp0[:, None] + u[None, :] * neg[:, None]
    tp, fp = tp.ravel(), fp.ravel()
    keep = tp > 0  # precision is undefined before the first positive
    tp, fp = tp[keep], fp[keep]
    first = pos[0] / (pos[0] + neg[0]) if pos[0] > 0 else tp[0] / (tp[0] + fp[0])
    return (np.concatenate(([0.0], tp / t.P)),
            np.concatenate(([first], tp / (tp + fp))))


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

    def chart(self) -> ChartData:
        """The part of the curve with recall gain >= 0 (from the inserted y-axis crossing
        on), whose trapezoid area is AUPRG; dots at the points that are not inserted
        crossings (up to 200 points); the random line at precision gain 0. The view is
        the unit square, as prg.py's ``plot_prg``.

        Examples
        --------
        >>> import binmetrics as bm
        >>> ev = bm.evaluate([1, 0, 1, 1, 0, 0, 1, 0], [8, 7, 6, 5, 4, 3, 2, 1], threshold=4.5)
        >>> curve = ev.prg().chart().series[0]
        >>> curve.label, curve.x.round(4).tolist()  # from the crossing at recall gain 0
        ('PRG, AUPRG = 0.431', [0.0, 0.6667, 0.6667, 0.6667, 1.0, 1.0])
        """
        rg, pg = self.recall_gain, self.precision_gain
        with np.errstate(invalid="ignore"):
            start = int(np.argmax(rg >= 0))
        x, y = rg[start:], pg[start:]
        out = [series(x, y, f"PRG, AUPRG = {fmt(self.area())}",
                      source=(self, "recall_gain", "precision_gain"))]
        marker = point_marker(self.table.n_distinct)
        if marker:  # too many points to tell apart: none
            dots = ~np.asarray(self.is_crossing[start:], dtype=bool)
            out.append(series(x[dots], y[dots], "", style="markers", marker=marker,
                              extra={"markersize": 4}))
        out.append(_random([0.0, 1.0], [0.0, 0.0], "random (precision gain 0)"))
        return ChartData("prg", "Precision-recall-gain curve", "recall gain", "precision gain",
                         tuple(out), (0.0, 1.0), (0.0, 1.0), legend="lower left", pad=0.05,
                         aspect="equal")


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

    def chart(self) -> ChartData:
        """TPR (solid) and FPR (dashed) as step functions of the threshold, through the
        distinct scores with the cut that predicts nothing positive just beyond the
        highest (:func:`threshold_axis`), and the Kolmogorov-Smirnov gap as a segment
        from FPR to TPR where they are furthest apart (:meth:`ks`; Berrar Fig. 5b).

        Examples
        --------
        >>> import binmetrics as bm
        >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
        ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
        >>> cd = ev.threshold_curves().chart()
        >>> [s.label for s in cd.series], cd.texts[0].text  # the KS gap at 0.5
        (['TPR', 'FPR', 'KS = 0.600 at 0.5'], ' KS 0.60')
        """
        x = threshold_axis(self.thresholds)
        out = [series(x, self.tpr, "TPR", steps="post", source=(self, "thresholds", "tpr")),
               series(x, self.fpr, "FPR", style="dashed", steps="post",
                      source=(self, "thresholds", "fpr"))]
        texts = []
        t_ks, ks = self.ks()
        if np.isfinite(t_ks):
            k = int(np.nanargmax(np.abs(self.tpr - self.fpr)))  # where ks() found the gap
            lo, hi = sorted((float(self.fpr[k]), float(self.tpr[k])))
            out.append(series([t_ks, t_ks], [lo, hi], f"KS = {ks:.3f} at {t_ks:g}",
                              style="segment", width=2.5,
                              extra={"alpha": 0.6, "solid_capstyle": "butt"}))
            texts.append(Note(t_ks, (lo + hi) / 2, f" KS {ks:.2f}",
                              extra={"fontsize": "small", "va": "center"}))
        rule = ">=" if self.thresholds[0] > 0 else "<="
        return ChartData("threshold", "TPR and FPR against the threshold",
                         f"threshold (score {rule} threshold is positive)",
                         "TPR (solid), FPR (dashed)", tuple(out), ylim=(0.0, 1.0),
                         threshold_axis=True, texts=tuple(texts), legend="upper right",
                         pad=0.02)


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

    def chart(self, *, normalize: bool = False) -> ChartData:
        """The gain curve (average gain in its label) and the random line j P / n
        (Berrar Fig. 4a); ``normalize``: fractions of the cases and of the positives
        (the cumulative gains chart) instead of counts.

        Examples
        --------
        >>> import binmetrics as bm
        >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
        ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
        >>> curve, random = ev.gain().chart().series
        >>> curve.label, curve.y.tolist()[:5], random.label  # Berrar Fig. 4a
        ('gain, average gain = 0.750', [0.0, 1.0, 2.0, 2.0, 3.0], 'random (n = 10, P = 5)')
        """
        t = self.table
        sx, sy = _gain_scale(t, normalize)
        average = f", average gain = {fmt(self.average())}" if t.P > 0 and t.N > 0 else ""
        curve = series(self.n_selected * sx, self.positives * sy, f"gain{average}",
                       marker=point_marker(t.n_distinct), extra={"markersize": 4},
                       source=None if normalize else (self, "n_selected", "positives"))
        end = (1.0, 1.0) if normalize else (float(t.total), float(t.P))
        rnd = _random([0.0, end[0]], [0.0, end[1]], "random" if normalize else
                      f"random (n = {end[0]:g}, P = {end[1]:g})")
        xlabel, ylabel = case_axes(t.weighted, normalize)
        return ChartData("gain", "Gain chart", xlabel, ylabel, (curve, rnd), (0.0, None),
                         (0.0, None), operating=partial(_gain_point, normalize),
                         legend="lower right")


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

    def chart(self, *, normalize: bool = False) -> ChartData:
        """The lift curve (average lift in its label) and the random line at 1 (Berrar
        Fig. 4b); ``normalize``: the fraction of cases selected on the x axis. The y
        axis starts at 0: lift is a ratio.

        Examples
        --------
        >>> import binmetrics as bm
        >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
        ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
        >>> cd = ev.lift().chart(normalize=True)
        >>> cd.series[0].label, cd.series[0].x[:2].tolist(), cd.ylim  # Berrar Fig. 4b
        ('lift, average lift = 1.427', [0.1, 0.2], (0.0, None))
        """
        t = self.table
        sx = 1.0 / t.total if normalize else 1.0
        curve = series(self.n_selected * sx, self.lift,
                       f"lift, average lift = {fmt(self.average())}",
                       marker=point_marker(t.n_distinct), extra={"markersize": 4},
                       source=None if normalize else (self, "n_selected", "lift"))
        rnd = _random([0.0, float(t.total) * sx], [1.0, 1.0], "random (lift 1)")
        return ChartData("lift", "Lift chart", case_axes(t.weighted, normalize)[0], "lift",
                         (curve, rnd), (0.0, None), (0.0, None),
                         operating=partial(_lift_point, normalize), legend="upper right")


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

    def chart(self) -> ChartData:
        """The fraction of positives found against the fraction screened (AUAC in its
        label), and the random diagonal.

        Examples
        --------
        >>> import binmetrics as bm
        >>> cd = bm.evaluate([1, 0, 1, 0], [.9, .8, .3, .1]).accumulation().chart()
        >>> cd.series[0].x.tolist(), cd.series[0].y.tolist()
        ([0.0, 0.25, 0.5, 0.75, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
        """
        curve = series(self.fraction_screened, self.fraction_found,
                       f"accumulation, AUAC = {fmt(self.area())}",
                       marker=point_marker(self.table.n_distinct), extra={"markersize": 4},
                       source=(self, "fraction_screened", "fraction_found"))
        return ChartData("accumulation", "Accumulation curve", "fraction of cases screened",
                         "fraction of positives found",
                         (curve, _random([0.0, 1.0], [0.0, 1.0])), (0.0, 1.0), (0.0, 1.0),
                         legend="lower right", pad=0.02, aspect="equal")


def _gain_scale(t: CountTable, normalize: bool) -> tuple[float, float]:
    if not normalize:
        return 1.0, 1.0
    return 1.0 / t.total, (1.0 / t.P if t.P > 0 else 1.0)


def _gain_point(normalize: bool, ev: Any, c: Any, v: Mapping[str, Any]) -> tuple[Any, Any]:
    sx, sy = _gain_scale(ev.table, normalize)
    return np.asarray(c.tp + c.fp) * sx, np.asarray(c.tp) * sy


def _lift_point(normalize: bool, ev: Any, c: Any, v: Mapping[str, Any]) -> tuple[Any, Any]:
    sx = 1.0 / ev.table.total if normalize else 1.0
    return np.asarray(c.tp + c.fp) * sx, v["lift"]  # lift = PPV / prevalence
