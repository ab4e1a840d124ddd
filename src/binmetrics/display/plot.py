"""Performance plots: every chart of Berrar's paper, and a few more, on matplotlib Axes.

Berrar (discussion): "whenever possible, performance plots are preferable to
scalars". Each plot function takes an :class:`~binmetrics.Evaluation`, or a
mapping ``name -> Evaluation`` to overlay several models on one Axes (one colour
per model, named in the legend), draws on ``ax=`` (default a new figure) and
returns the Axes. Every number drawn comes from the evaluation's curves
(:mod:`binmetrics.curves`), so a chart and the measures in a report cannot
disagree.

This module is ``bm.plot``, the namespace of the plots. Each plot kind is one
declaration (:class:`PlotKind`, in :data:`PLOT_KINDS`): a data producer registered
with :func:`register_plot_kind`, whose :class:`ChartData` the one renderer
:func:`binmetrics.chart.render` draws. The kinds declared by binmetrics:

KINDS_TABLE

:func:`kinds` lists those that apply to an evaluation; :func:`draw` (behind
``ev.plot(...)``) takes a kind, or the id or alias of a measure whose chart is declared
in the registry (``Measure.plot``: ``ev.plot("auc")`` draws the ROC curve);
:func:`chart_data` gives the numbers a kind draws (lines in data units, step functions
expanded by :func:`step_vertices`). The HTML report (:mod:`binmetrics.display.report`)
draws its charts from the same producers, in :data:`PLOT_KINDS` order, so the report
and these plots show the same lines; a kind declared with :func:`register_plot_kind`
appears in all three. The named functions (:func:`roc`, :func:`pr`...) draw the
built-in kinds with their options spelled out. :func:`srd`, :func:`covat` and
:func:`anova_means` draw the results of the comparison tools, and
:func:`critical_difference` and :func:`bayesian_posterior` those of the rank and
Bayesian comparisons (:mod:`~binmetrics.comparison.comparison_plots`).

The registry is :mod:`~binmetrics.evaluation.plot_kinds`, the built-in producers
:mod:`~binmetrics.evaluation.chart_data` (both in the evaluation layer, so that
``ev.plot(kind)`` imports them, not this module), the named functions
:mod:`~binmetrics.display.plot_curves` (roc, threshold, pr, prg, gain, lift) and
:mod:`~binmetrics.display.plot_cases` (loss, reliability, decision_curve, measure,
confusion_matrix), and :mod:`~binmetrics.display.plot_compare` (srd, covat,
anova_means).

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

from binmetrics.chart import ChartData, Series, render, step_vertices
from binmetrics.comparison.comparison_plots import bayesian_posterior, critical_difference
from binmetrics.display.plot_cases import (
    confusion_matrix,
    decision_curve,
    loss,
    measure,
    reliability,
)
from binmetrics.display.plot_compare import anova_means, covat, srd
from binmetrics.display.plot_curves import gain, lift, pr, prg, roc, threshold
from binmetrics.evaluation.chart_data import mean_losses, reliability_table
from binmetrics.evaluation.plot_kinds import (
    CHART_DATA,
    KINDS,
    PLOT_KINDS,
    PlotKind,
    chart_data,
    draw,
    kinds,
    register_plot_kind,
    unregister_plot_kind,
)

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
    "register_plot_kind",
    "reliability",
    "reliability_table",
    "render",
    "roc",
    "srd",
    "step_vertices",
    "threshold",
    "unregister_plot_kind",
]



# --- the table of the kinds in this module's docstring ------------------------------------------
def _kinds_table() -> str:
    width = max(len(name) for name in PLOT_KINDS) + 4
    rule = "=" * width + "  " + "=" * max(len(k.description) for k in PLOT_KINDS.values())
    rows = [f"{'``' + name + '``':<{width}}  {k.description}" for name, k in PLOT_KINDS.items()]
    return "\n".join([rule, f"{'kind':<{width}}  chart", rule, *rows, rule])


if __doc__:  # None under python -OO
    __doc__ = __doc__.replace("KINDS_TABLE", _kinds_table(), 1)
