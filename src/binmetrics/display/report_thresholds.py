"""The report's "Chosen thresholds" section: the cuts chosen by
:meth:`Evaluation.best_threshold` (``bm.report(..., best_thresholds=...)``), with their
constraints, bootstrap intervals and optimism, as the results hold them; then, for each,
the chart of the ``"best_threshold"`` plot kind
(:mod:`binmetrics.evaluation.chart_thresholds`): the measure and the constrained
measures against the threshold, the thresholds whose cut meets every constraint shaded
and the chosen cut marked, as inline SVG (:mod:`binmetrics.display.report_svg`; the
numbers ``ev.plot("best_threshold", ...)`` draws with matplotlib)."""

from __future__ import annotations

import html
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from binmetrics.display.report_svg import chart_svg
from binmetrics.evaluation.cut_choice import BestThreshold, feasible_cuts, parse_constraints
from binmetrics.evaluation.plot_kinds import chart_data
from binmetrics.exceptions import UndefinedMeasureWarning
from binmetrics.formatting import HTML, format_number

__all__ = ["check_best_thresholds", "thresholds_section"]


def check_best_thresholds(best_thresholds: Any,
                          names: Sequence[str]) -> list[tuple[str, BestThreshold]]:
    """(model name, result) pairs from ``best_thresholds``: a mapping of a model name to
    one :class:`~binmetrics.BestThreshold` or a list of them; with one model, the result
    or the list alone. A one-line error otherwise."""
    if best_thresholds is None:
        return []
    if not isinstance(best_thresholds, Mapping):
        if len(names) != 1:
            raise TypeError("with several models, best_thresholds maps a model name to its "
                            "best_threshold(...) results, e.g. {'model a': [best]}")
        best_thresholds = {names[0]: best_thresholds}
    out: list[tuple[str, BestThreshold]] = []
    for name, given in best_thresholds.items():
        if name not in names:
            raise ValueError(f"best_thresholds names model {name!r}, which the report does "
                             f"not have; its models: {', '.join(map(repr, names))}")
        items = [given] if isinstance(given, BestThreshold) else given
        if not isinstance(items, Sequence) or not all(
                isinstance(b, BestThreshold) for b in items):
            raise TypeError(f"best_thresholds[{name!r}] must be the result of "
                            "ev.best_threshold(...) or a list of them; got "
                            f"{type(given).__name__}")
        out += [(str(name), b) for b in items]
    return out


def _num(v: float) -> str:
    return format_number(v, HTML, digits=6)


def _interval(iv: Any) -> str:
    if iv is None:
        return ""
    return f"[{_num(iv.low)}, {_num(iv.high)}] ({iv.level:.0%})"


def _region_figure(name: str, b: BestThreshold, ev: Any, max_points: int) -> str:
    """The chart of one chosen cut and its constraint region, with a sentence saying
    where the constraints hold ("" for pROC's criteria, which have no registry curve)."""
    if b.params is None or ev is None:
        return ""
    constraints = parse_constraints(list(b.subject_to))
    with warnings.catch_warnings():  # an infeasible choice has said so already
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        cd = chart_data("best_threshold", ev, measure=b.measure,
                        subject_to=constraints or None, **b.params)
        mine = ev.best_threshold(b.measure, subject_to=constraints or None, **b.params)
    e = html.escape
    if not constraints:
        where = "No constraints: every cut is allowed (nothing is shaded)."
    else:
        ok = feasible_cuts(ev.table, constraints)
        n_ok = int(ok.sum())
        runs = int(np.count_nonzero(np.diff(np.concatenate(([0], ok.astype(np.int8)))) == 1))
        where = (f"The constraints ({e(', '.join(b.subject_to))}) hold at {n_ok} of "
                 f"{ok.size} cuts, in {runs} run{'s' if runs != 1 else ''} of consecutive "
                 "cuts (shaded)." if n_ok else
                 f"No cut meets the constraints ({e(', '.join(b.subject_to))}): there is no "
                 "region to shade.")
    if b.feasible and mine.threshold != b.threshold:
        where += (" This result was not chosen on this model's evaluation: the line marks "
                  "the cut chosen on it.")
    return (f"<div class='bm-threshold-region' data-model='{e(name)}' "
            f"data-measure='{e(b.measure)}'><p>{e(name)}, {e(b.measure)}: {where}</p>"
            f"{chart_svg(cd, max_points=max_points, css='bm-threshold-chart')}</div>")


def thresholds_section(rows: list[tuple[str, BestThreshold]],
                       evaluations: Mapping[str, Any] | None = None, *,
                       max_points: int = 1000) -> str:
    """The section's HTML ("" without rows): one row per chosen cut, then the chart of
    each (the model's evaluation from ``evaluations``, by name) with its constraint
    region."""
    if not rows:
        return ""
    evaluations = evaluations or {}
    e = html.escape
    head = ("<tr><th>model</th><th>measure</th><th>subject to</th><th>threshold</th>"
            "<th>threshold interval</th><th>value</th><th>value interval</th>"
            "<th>optimism</th><th>corrected value</th><th>note</th></tr>")
    body = []
    for name, b in rows:
        boot = b.threshold_ci is not None
        op = "\u2265" if b.higher_is_positive else "\u2264"
        note = b.reason if not b.feasible else (
            f"score {op} threshold is positive; {b.n_resamples} bootstrap replicates"
            + (f", {b.n_undefined} without a feasible cut" if b.n_undefined else "")
            if boot else f"score {op} threshold is positive")
        body.append(
            f"<tr><td>{e(name)}</td><td>{e(b.measure)}</td>"
            f"<td>{e(', '.join(b.subject_to))}</td>"
            f"<td data-value='{b.threshold!r}'>{_num(b.threshold)}</td>"
            f"<td>{_interval(b.threshold_ci)}</td><td>{_num(b.value)}</td>"
            f"<td>{_interval(b.value_ci)}</td>"
            f"<td>{_num(b.optimism) if boot else ''}</td>"
            f"<td>{_num(b.corrected_value) if boot else ''}</td><td>{e(note)}</td></tr>")
    return ("<section id='bm-thresholds'><h2>Chosen thresholds</h2>"
            "<p>Cuts chosen with <code>best_threshold</code>: intervals are bootstrap "
            "percentiles of the cut chosen on each replicate and of its value there; the "
            "optimism is how much choosing on the same data flatters the value (Efron), "
            "and the corrected value is the value less it.</p>"
            f"<table class='measures'><thead>{head}</thead><tbody>{''.join(body)}"
            "</tbody></table>"
            + "".join(_region_figure(name, b, evaluations.get(name), max_points)
                      for name, b in rows) + "</section>")
