"""The plot kind of a chosen cut: the measure ``best_threshold`` optimises and the measures
it is constrained by, against the threshold, with the cuts where every constraint holds
shaded and the chosen cut marked. Registered after the built-in kinds by
:mod:`~binmetrics.evaluation.chart_data` (from :data:`KIND`); the HTML report's
"Chosen thresholds" section draws the same numbers
(:mod:`binmetrics.display.report_thresholds`).

On a chart against the threshold, cut k (``score >= thresholds[k]`` positive) holds for
every threshold between the next lower distinct score (excluded) and its own, and its
value is drawn over that stretch (the step functions of
:meth:`~binmetrics.curves.ThresholdCurves.chart`); the last cut (everything positive)
holds for every threshold at or below the lowest score, drawn over a margin of 2 % of
the axis beyond it. The shaded region is the union of the stretches of the feasible
cuts (:func:`~binmetrics.evaluation.cut_choice.feasible_cuts`), one band per run of
consecutive feasible cuts.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.chart import ChartData, Series, fmt, series
from binmetrics.curves import ThresholdCurves
from binmetrics.curves.core import threshold_axis
from binmetrics.evaluation.chart_inputs import FloatArray, Models, rule_label
from binmetrics.evaluation.cut_choice import feasible_cuts, parse_constraints
from binmetrics.exceptions import undefined_policy
from binmetrics.measures import get_measure

__all__ = ["KIND", "REGION_LABEL", "best_threshold_data", "cut_spans"]

#: the legend entry of the shaded region
REGION_LABEL = "where the constraints hold"
#: the last cut's stretch beyond the lowest score, as a fraction of the axis
_MARGIN = 0.02
_STYLES: tuple[Any, ...] = ("dashed", "dotted", "dashdot")


def cut_spans(x: FloatArray, feasible: npt.NDArray[np.bool_]) -> list[tuple[float, float]]:
    """The stretches of the threshold axis ``x`` (:func:`threshold_axis` of the cuts)
    over which runs of consecutive ``feasible`` cuts are drawn: ``(start, stop)`` from
    the run's strictest cut to the next cut (the last cut: to 2 % of the axis beyond it).

    Examples
    --------
    >>> x = np.array([1.05, 1.0, 0.5, 0.0])
    >>> cut_spans(x, np.array([False, True, False, True]))
    [(1.0, 0.5), (0.0, -0.021)]
    """
    n = x.size
    edges = np.flatnonzero(np.diff(np.concatenate(([0], feasible.astype(np.int8), [0]))))
    beyond = float(x[-1] + _MARGIN * (x[-1] - x[0]))
    return [(float(x[a]), float(x[b]) if b < n else round(beyond, 12))
            for a, b in zip(edges[0::2].tolist(), edges[1::2].tolist(), strict=True)]


def _band(start: float, stop: float, low: float, high: float, label: str,
          model: str | None) -> Series:
    return series([start, stop, stop, start], [low, low, high, high], label, model,
                  "band", extra={"alpha": 0.15, "zorder": 0})


#: the declaration of the plot kind ``"best_threshold"``, which
#: :mod:`~binmetrics.evaluation.chart_data` registers after the built-in kinds (so the
#: kinds keep their order whichever module is imported first)
KIND: dict[str, Any] = {
    "title": "the chosen cut and where the constraints hold",
    "description": "the measure best_threshold optimises and its constraints' measures "
                   "against the threshold, the cuts meeting every constraint shaded and "
                   "the chosen cut marked",
    "needs_both_classes": True, "in_report": False}


def best_threshold_data(models: Models, *, measure: str = "informedness",
                        subject_to: Any = None, **params: Any) -> ChartData:
    """Each model's ``measure`` (solid) and each constrained measure (dashed, with its
    bound as a grey line) against the threshold, the thresholds whose cut meets every
    constraint shaded (one band per run of such cuts, none when no cut does), and the cut
    ``ev.best_threshold(measure, subject_to=subject_to, **params)`` chooses as a vertical
    line with a star at its value.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 0, 0], [.9, .8, .7, .6, .5, .4])
    >>> cd = bm.plot.chart_data("best_threshold", ev, measure="tpr",
    ...                         subject_to="ppv>=0.7")
    >>> [(s.label, s.x[:2].tolist()) for s in cd.series if s.style == "band"]
    [('where the constraints hold', [0.9, 0.7]), ('', [0.6, 0.5])]
    >>> [s.label for s in cd.series if s.style == "segment"]
    ['chosen: tpr = 1.000 at 0.6']
    """
    m = get_measure(measure)
    if m.family != "confusion" or m.direction == 0:
        raise ValueError(f"plot.best_threshold: {m.id} is not a confusion measure with a "
                         "direction; it draws what best_threshold optimises (e.g. f1, tpr)")
    constraints = parse_constraints(subject_to)
    own = m.resolve_params(**params)
    out: list[Series] = []
    bounds: dict[tuple[str, float], Series] = {}
    lows, highs = [0.0], [1.0]
    drawn: list[tuple[str | None, FloatArray, FloatArray, Any, list[tuple[float, float]]]] = []
    for name, ev in models:
        best = ev.best_threshold(m.id, subject_to=constraints or None, **own)
        with undefined_policy("ignore"):
            curves = ev.in_user_units(ThresholdCurves.from_table(ev.table))
            x = threshold_axis(curves.thresholds)
            y = curves.measure(m.id, **own)
            tail = "" if best.feasible else " (no cut meets the constraints)"
            out.append(series(x, y, m.id + tail, name, steps="post"))
            for j, c in enumerate(constraints):
                out.append(series(x, curves.measure(c.measure), c.measure, name,
                                  _STYLES[j % 3], steps="post"))
                bounds.setdefault((c.measure, c.bound), series(
                    [x[0], x[-1]], [c.bound, c.bound], str(c), style="dotted",
                    shared=True, color="0.5", width=1.0))
        for v in [y, *(curves.measure(c.measure) for c in constraints)]:
            finite = v[np.isfinite(v)]
            if finite.size:
                lows.append(float(finite.min()))
                highs.append(float(finite.max()))
        spans = cut_spans(x, feasible_cuts(ev.table, constraints)) if constraints else []
        drawn.append((name, x, curves.thresholds, best, spans))
    low, high = min(lows), max(highs)
    bands: list[Series] = []
    for name, x, thresholds, best, spans in drawn:
        for i, (a, b) in enumerate(spans):
            bands.append(_band(a, b, low, high, REGION_LABEL if i == 0 else "", name))
        if best.feasible:
            k = int(np.flatnonzero(thresholds == best.threshold)[0])
            at = float(x[k])
            out.append(series([at, at], [low, high],
                              f"chosen: {m.id} = {fmt(best.value)} at {best.threshold:g}",
                              name, "segment", width=1.5, extra={"alpha": 0.8}))
            out.append(series([at], [best.value], "", name, "markers", marker="*",
                              legend=False, extra={"markersize": 12}))
    title = m.id + (" subject to " + ", ".join(map(str, constraints)) if constraints else
                    "") + " against the threshold"
    return ChartData("best_threshold", title, rule_label(models), "value",
                     tuple(bands + out + list(bounds.values())), ylim=(low, high),
                     threshold_axis=True, legend="best", pad=0.02)

