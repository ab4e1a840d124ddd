"""Performance plots: every chart of Berrar's paper, and a few more, on matplotlib Axes.

Berrar (discussion): "whenever possible, performance plots are preferable to
scalars". Each plot function takes an :class:`~binmetrics.Evaluation`, or a
mapping ``name -> Evaluation`` to overlay several models on one Axes (one colour
per model, named in the legend), draws on ``ax=`` (default a new figure) and
returns the Axes. Every number drawn comes from the evaluation's curves
(:mod:`binmetrics.curves`), so a chart and the measures in a report cannot
disagree.

This module is ``bm.plot``, the namespace of the plots; it declares each plot kind
once (:class:`PlotKind`, in :data:`PLOT_KINDS`):

KINDS_TABLE

:data:`KINDS` maps these names to the functions and :func:`kinds` lists those that
apply to an evaluation; :func:`draw` (behind ``ev.plot(...)``) takes a kind, or the
id or alias of a measure whose chart is declared in the registry (``Measure.plot``:
``ev.plot("auc")`` draws the ROC curve). :data:`CHART_DATA` gives, for the same
kinds, the numbers of each chart for other renderers (:func:`chart_data`: lines in
data units, step functions expanded by :func:`step_vertices`); the HTML report
(:mod:`binmetrics.display.report`) draws its charts from it, in :data:`KINDS` order,
so the report and these plots show the same lines. :func:`srd`, :func:`covat` and
:func:`anova_means` draw the results of the comparison tools, and
:func:`critical_difference` and :func:`bayesian_posterior` those of the rank and Bayesian
comparisons (:mod:`~binmetrics.display.plot_ranks`).

The functions live in :mod:`~binmetrics.display.plot_curves` (roc, threshold, pr,
prg, gain, lift), :mod:`~binmetrics.display.plot_cases` (loss, reliability,
decision_curve, measure, confusion_matrix), :mod:`~binmetrics.display.plot_compare` (srd, covat,
anova_means) and :mod:`~binmetrics.display.chart_data` (the numbers of the charts).

Needs matplotlib (``pip install 'binmetrics[plot]'``).

Examples
--------
>>> import binmetrics as bm
>>> kinds = bm.plot.kinds()
>>> kinds[:4]
['roc', 'threshold', 'pr', 'prg']
>>> y = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
>>> ev = bm.evaluate(y, [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
>>> ax = bm.plot.roc(ev, operating_point=0.55)  # doctest: +SKIP
>>> ax = ev.plot("auc")  # doctest: +SKIP
>>> other = bm.evaluate(y, [.9, .3, .6, .8, .4, .2, .7, .55, .1, .35])
>>> ax = bm.plot.pr({"A": ev, "B": other})  # doctest: +SKIP
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from binmetrics.display import chart_data as _data
from binmetrics.display._plotting import models_of
from binmetrics.display.chart_data import (
    ChartData,
    Series,
    decision_curve_data,
    gain_data,
    lift_data,
    loss_data,
    mean_losses,
    pr_data,
    prg_data,
    reliability_data,
    reliability_table,
    roc_data,
    step_vertices,
    threshold_data,
)
from binmetrics.display.plot_cases import (
    confusion_matrix,
    decision_curve,
    loss,
    measure,
    reliability,
)
from binmetrics.display.plot_compare import anova_means, covat, srd
from binmetrics.display.plot_curves import gain, lift, pr, prg, roc, threshold
from binmetrics.display.plot_ranks import bayesian_posterior, critical_difference
from binmetrics.measures import REGISTRY, get_measure

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = [
    "CHART_DATA",
    "KINDS",
    "PLOT_KINDS",
    "ChartData",
    "PlotKind",
    "Series",
    "anova_means",
    "bayesian_posterior",
    "chart_data",
    "confusion_matrix",
    "covat",
    "critical_difference",
    "decision_curve",
    "draw",
    "gain",
    "kinds",
    "lift",
    "loss",
    "mean_losses",
    "measure",
    "pr",
    "prg",
    "reliability",
    "reliability_table",
    "roc",
    "srd",
    "step_vertices",
    "threshold",
]

#: the former names of two helpers, now in :mod:`~binmetrics.display.chart_data`
_threshold_axis = _data.threshold_axis
_pr_line = _data.pr_line


# --- the declaration of a plot kind ---------------------------------------------------------
@dataclass(frozen=True)
class PlotKind:
    """One kind of plot of an evaluation, declared once in :data:`PLOT_KINDS`;
    :data:`KINDS`, :data:`CHART_DATA` and :func:`kinds` are read from it.

    Attributes
    ----------
    name : str
        ``draw(name, ev)``, ``ev.plot(name)``; also what a measure's ``plot`` names
        (:class:`~binmetrics.measures.registry.Measure`).
    draw : callable
        ``draw(ev_or_models, *, ax=None, **options) -> Axes``.
    title : str
        What the chart is called ("ROC curve"); the HTML report names it next to
        the measures it shows.
    description : str
        What the chart shows, and where in Berrar's paper (the table of kinds in this
        module's docstring is made of them).
    data : callable or None
        ``data(models, **options) -> ChartData``: its numbers for other renderers
        (:func:`chart_data`; ``models`` is a list of ``(name or None, Evaluation)``).
        None for the kinds the HTML report shows from its slider's values:
        "measure" (its measure chart) and "confusion_matrix" (its table).
    needs_both_classes : bool
        Draws only evaluations with positives and negatives.
    needs_probabilities : bool
        Draws only scores in [0, 1].
    multiclass : bool
        Also draws a :class:`~binmetrics.MulticlassEvaluation`.
    """

    name: str
    draw: Callable[..., Any]
    title: str
    description: str
    data: Callable[..., ChartData] | None = None
    needs_both_classes: bool = False
    needs_probabilities: bool = False
    multiclass: bool = False

    def applies_to(self, ev: Any) -> bool:
        """Whether this kind can draw the evaluation ``ev``."""
        from binmetrics.evaluation.multiclass import MulticlassEvaluation

        if isinstance(ev, MulticlassEvaluation):
            return self.multiclass
        t = ev.table
        return ((not self.needs_both_classes or (t.P > 0 and t.N > 0))
                and (not self.needs_probabilities or t.probabilities_ok))


#: The plot kinds of an evaluation, in their order: name -> :class:`PlotKind`.
#: ``Evaluation.plot``, the HTML report and the CLI read this (through :data:`KINDS`,
#: :data:`CHART_DATA` and :func:`kinds`); nothing else lists them.
PLOT_KINDS: Mapping[str, PlotKind] = MappingProxyType({k.name: k for k in (
    PlotKind("roc", roc, "ROC curve",
             "ROC curve, convex hull, random line (Berrar Fig. 5a, 6a, 6c)",
             data=roc_data, needs_both_classes=True),
    PlotKind("threshold", threshold, "TPR and FPR against the threshold",
             "TPR and FPR against the threshold, KS gap marked (Fig. 5b)",
             data=threshold_data, needs_both_classes=True),
    PlotKind("pr", pr, "precision-recall curve",
             "precision-recall: AP step and trapezoid estimators (Fig. 5c, 6d)",
             data=pr_data, needs_both_classes=True),
    PlotKind("prg", prg, "precision-recall-gain curve",
             "precision-recall-gain curve (Flach & Kull 2015)",
             data=prg_data, needs_both_classes=True),
    PlotKind("gain", gain, "gain chart", "gain chart with the random line (Fig. 4a)",
             data=gain_data),
    PlotKind("lift", lift, "lift chart", "lift chart with the random line at 1 (Fig. 4b)",
             data=lift_data, needs_both_classes=True),
    PlotKind("loss", loss, "hinge and 0-1 loss",
             "hinge and 0-1 loss of each case against its margin (Fig. 7, 8b)",
             data=loss_data),
    PlotKind("reliability", reliability, "reliability diagram",
             "calibration diagram (binned mean prediction vs. observed rate)",
             data=reliability_data, needs_probabilities=True),
    PlotKind("decision_curve", decision_curve, "decision curve",
             "net benefit against the threshold probability, treat all and treat none",
             data=decision_curve_data, needs_both_classes=True, needs_probabilities=True),
    PlotKind("measure", measure, "measure against the threshold",
             "any confusion measure against the threshold"),
    PlotKind("confusion_matrix", confusion_matrix, "confusion matrix",
             "the confusion matrix as a heatmap (k x k for a multiclass model)",
             multiclass=True),
)})

#: The plot kinds: name -> function(ev_or_models, *, ax=None, ...), in
#: :data:`PLOT_KINDS` order (``ev.plot("roc")`` reads it).
KINDS: Mapping[str, Callable[..., Any]] = MappingProxyType(
    {name: k.draw for name, k in PLOT_KINDS.items()})

#: The numbers of each kind of :data:`KINDS` for other renderers: kind -> function
#: ``(models, **options) -> ChartData`` (:func:`chart_data` calls it), in the same
#: order. None for the kinds the HTML report shows from its slider's values:
#: "measure" (its measure chart) and "confusion_matrix" (its table).
CHART_DATA: Mapping[str, Callable[..., ChartData] | None] = MappingProxyType(
    {name: k.data for name, k in PLOT_KINDS.items()})


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def kinds(ev: Any = None) -> list[str]:
    """The plot kinds, in :data:`KINDS` order; given an evaluation, those that can draw it
    (the curves need both classes, the reliability diagram and the decision curve
    probabilities; a
    :class:`~binmetrics.MulticlassEvaluation` has its confusion matrix).

    Examples
    --------
    >>> import binmetrics as bm
    >>> bm.plot.kinds()  # doctest: +NORMALIZE_WHITESPACE
    ['roc', 'threshold', 'pr', 'prg', 'gain', 'lift', 'loss', 'reliability',
     'decision_curve', 'measure', 'confusion_matrix']
    >>> "reliability" in bm.plot.kinds(bm.evaluate([1, 0, 1], [2.5, -1.0, 0.3]))
    False
    """
    if ev is None:
        return list(PLOT_KINDS)
    return [name for name, k in PLOT_KINDS.items() if k.applies_to(ev)]


def _charted_measure_names() -> list[str]:
    """The ids and aliases of the measures whose chart is declared (``Measure.plot``)."""
    return [_key(n) for m in REGISTRY.values() if m.plot is not None for n in (m.id, *m.aliases)]


def _resolve(name: Any) -> tuple[PlotKind, dict[str, Any]]:
    """The plot kind named ``name`` (a kind, or a measure whose ``plot`` is declared)
    and the options it implies (``measure=<id>`` for the kind "measure")."""
    key = _key(name) if isinstance(name, str) else None
    if key is not None and key in PLOT_KINDS:
        return PLOT_KINDS[key], {}
    m = None
    if key:
        try:
            m = get_measure(name)
        except KeyError:
            m = None
    listing = ", ".join(PLOT_KINDS)
    if m is not None and m.plot is not None:
        if m.plot not in PLOT_KINDS:  # pragma: no cover - a guard on the registry
            raise ValueError(f"the measure {m.id} declares plot={m.plot!r}, which is not a "
                             f"plot kind; the kinds: {listing}")
        return PLOT_KINDS[m.plot], ({"measure": m.id} if m.plot == "measure" else {})
    if m is not None:
        alias = f" ({m.id})" if key != m.id else ""
        raise ValueError(f"no plot kind draws the measure {name!r}{alias}; the kinds: "
                         f"{listing}")
    close = (difflib.get_close_matches(str(key or name), list(PLOT_KINDS), n=1)
             or difflib.get_close_matches(str(key or name), _charted_measure_names(), n=1))
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(f"unknown plot kind {name!r}{hint}; the kinds: {listing}")


def draw(kind: str, ev_or_models: Any, *, ax: Any = None, **kwargs: Any) -> Axes:
    """Draw the plot ``kind`` of :data:`KINDS`: ``draw("roc", ev)`` is ``roc(ev)``.

    Kind names ignore case, and spaces or hyphens stand for underscores
    ("confusion matrix"). A name that is no kind but the id or alias of a measure
    whose chart the registry declares (its ``plot``) draws that chart:
    ``draw("auc", ev)`` is ``roc(ev)``, and a confusion measure's is
    ``measure(ev, measure=<id>)`` (``draw("f1", ev)``; parameters such as ``beta=2``
    pass through).

    Examples
    --------
    >>> import binmetrics as bm
    >>> bm.plot.draw("rco", bm.evaluate([1, 0], [0.8, 0.3]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown plot kind 'rco' (did you mean 'roc'?); the kinds: roc, threshold, ...
    >>> ax = bm.plot.draw("gini", bm.evaluate([1, 0], [0.8, 0.3]))  # doctest: +SKIP
    """
    plot_kind, implied = _resolve(kind)
    clash = set(implied) & set(kwargs)
    if clash:
        raise TypeError(f"plot {kind!r} draws the measure {implied['measure']}; "
                        f"draw('measure', ..., measure=...) draws others")
    return plot_kind.draw(ev_or_models, ax=ax, **implied, **kwargs)


# --- the numbers of each chart, for other renderers ----------------------------------------
def _left_out(kind: PlotKind, name: str | None, ev: Any) -> str:
    who = f"model {name!r}" if name else "the evaluation"
    t = ev.table
    if kind.needs_probabilities and not t.probabilities_ok:
        why = (f"its scores range over [{t.scores[-1]:g}, {t.scores[0]:g}], not probabilities "
               "in [0, 1]")
    else:
        why = f"it has no {'positives' if t.P == 0 else 'negatives'}"
    return f"{kind.name} chart: {who} is left out: {why}"


def chart_data(kind: str, ev_or_models: Any, **options: Any) -> ChartData:
    """The numbers the chart ``kind`` draws, in data units, for another renderer.

    The same curves as the plot functions (step functions expanded by
    :func:`step_vertices`; only the AP step line of the precision-recall chart);
    models the kind cannot draw (one class only; scores that are not
    probabilities for "reliability") are left out with a note instead of an error.

    Parameters
    ----------
    kind : str
        A kind of :data:`KINDS` whose :data:`CHART_DATA` entry is not None.
    ev_or_models : Evaluation or mapping name -> Evaluation
    **options
        ``normalize`` (gain, lift), ``center`` and ``max_points`` (loss),
        ``n_bins`` and ``strategy`` (reliability), ``thresholds`` (decision_curve).

    Returns
    -------
    ChartData

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> tpr = bm.plot.chart_data("threshold", ev).series[0]
    >>> tpr.label, tpr.x[1:5].tolist(), tpr.y[:5].tolist()  # steps: 0 above .95, then .2
    ('TPR', [0.95, 0.95, 0.8, 0.8], [0.0, 0.0, 0.2, 0.2, 0.4])
    """
    key = _key(kind) if isinstance(kind, str) else None
    plot_kind = PLOT_KINDS.get(key) if key is not None else None
    if plot_kind is None or plot_kind.data is None:
        has = [k for k, f in CHART_DATA.items() if f is not None]
        raise ValueError(f"chart_data: no chart data for kind {kind!r}; the kinds with data: "
                         f"{', '.join(has)}")
    models = models_of(ev_or_models, f"chart_data({plot_kind.name!r})")
    fit = [(name, ev) for name, ev in models if plot_kind.applies_to(ev)]
    notes = tuple(_left_out(plot_kind, name, ev) for name, ev in models
                  if not plot_kind.applies_to(ev))
    if not fit:
        return ChartData(plot_kind.name, plot_kind.name, "", "", (), notes=notes)
    data: ChartData = plot_kind.data(fit, **options)
    return replace(data, notes=notes)


# --- the table of the kinds in this module's docstring ------------------------------------------
def _kinds_table() -> str:
    width = max(len(name) for name in PLOT_KINDS) + 4
    rule = "=" * width + "  " + "=" * max(len(k.description) for k in PLOT_KINDS.values())
    rows = [f"{'``' + name + '``':<{width}}  {k.description}" for name, k in PLOT_KINDS.items()]
    return "\n".join([rule, f"{'kind':<{width}}  chart", rule, *rows, rule])


if __doc__:  # None under python -OO
    __doc__ = __doc__.replace("KINDS_TABLE", _kinds_table(), 1)
