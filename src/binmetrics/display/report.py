"""The self-contained interactive HTML report: :func:`report` (``bm.report``).

One HTML file with the measures table (family, direction, interval where computed,
source and formula on hover, and the chart that shows the measure where the registry
names one: its ``Measure.plot``), the confusion matrix, every chart of
:data:`binmetrics.plot.PLOT_KINDS` (see ``binmetrics.plot.kinds()``: the report draws,
in that order, each kind it shows (``PlotKind.in_report``, a registered kind too) from
:func:`binmetrics.plot.chart_data`, the numbers ``ev.plot(kind)`` draws, and a chart
of any confusion measure against the threshold), the paired tests of several models,
and a threshold slider. Opening it needs no network: the CSS, the script and the data
are inline, and the charts are SVG drawn by that script.

One measure, one definition: the browser computes no measure. For every slider
position (a threshold) the confusion matrix and the value of every confusion
measure of the registry are computed here, by the registry's own vectorised
functions on the count table's cumulative counts, and embedded (to
:data:`SIG_DIGITS` significant digits); the script only looks them up. Every number
in the tables is computed on the full data; only the curves are thinned for
display, with the error bound of :func:`thin_curve` shown in the report's footer.

This module checks the arguments and puts the report together; the numbers it embeds
come from :mod:`~binmetrics.display.report_data`, the curves are thinned by
:mod:`~binmetrics.display.thinning` and the HTML is written by
:mod:`~binmetrics.display.report_html`.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from binmetrics.display.report_bands import pr_band_extras
from binmetrics.display.report_data import (
    DEFAULT_THRESHOLDS,
    MAX_SLIDER_VALUES,
    SIG_DIGITS,
    chart_payloads,
    check_partial,
    coords,
    jsonable,
    model_data,
    roc_extras,
    slider_positions,
    threshold_range,
    to_axis_units,
)
from binmetrics.display.report_data import slider_grid as _grid  # the first work done
from binmetrics.display.report_groups import check_grouped, groups_section
from binmetrics.display.report_html import paired_mismatch, render_page
from binmetrics.display.report_thresholds import check_best_thresholds, thresholds_section
from binmetrics.display.thinning import DEFAULT_MAX_POINTS, Thinned, thin_curve
from binmetrics.exceptions import BinmetricsWarning
from binmetrics.io import check_writable, write_text
from binmetrics.measures.registry import iter_measures

if TYPE_CHECKING:
    from binmetrics.engines.monitoring import MonitorResult
    from binmetrics.evaluation.binary import Evaluation
    from binmetrics.evaluation.by import ByResult
    from binmetrics.evaluation.multiclass import MulticlassEvaluation
    from binmetrics.inference.paired import Comparison

__all__ = ["DEFAULT_MAX_POINTS", "DEFAULT_THRESHOLDS", "MAX_SLIDER_VALUES", "SIG_DIGITS",
           "Thinned", "report", "thin_curve"]


# --- the report ------------------------------------------------------------------------------
def _check_models(models: Any) -> list[tuple[str, Evaluation]]:
    from binmetrics.evaluation.binary import Evaluation

    if isinstance(models, Evaluation):
        return [("model", models)]
    if not isinstance(models, Mapping):
        raise TypeError("models must be an Evaluation or a mapping name -> Evaluation, e.g. "
                        f"{{'A': ev_a, 'B': ev_b}}; got {type(models).__name__}")
    if not models:
        raise ValueError("models is empty: give at least one Evaluation")
    out = []
    for name, ev in models.items():
        if not isinstance(name, str) or not name.strip():
            raise TypeError(f"model names must be non-empty strings; got {name!r}")
        if not isinstance(ev, Evaluation):
            raise TypeError(f"models[{name!r}] must be an Evaluation (bm.evaluate(...)); got "
                            f"{type(ev).__name__}")
        out.append((name, ev))
    return out


def _check_count(value: Any, name: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return int(value)


def report(
    models: Evaluation | Mapping[str, Evaluation] | ByResult | MulticlassEvaluation,
    path: str | os.PathLike[str] | None = None,
    *,
    title: str | None = None,
    ci: bool | Mapping[str, Any] = False,
    paired: Comparison | None = None,
    max_points: int = DEFAULT_MAX_POINTS,
    thresholds: int = DEFAULT_THRESHOLDS,
    notes: Sequence[str] = (),
    roc_band: bool | Mapping[str, Any] = False,
    partial_auc: Mapping[str, Any] | None = None,
    grouped: ByResult | None = None,
    gaps: Sequence[str] | None = None,
    best_thresholds: Any = None,
    over_time: MonitorResult | None = None,
) -> str:
    """A self-contained interactive HTML report of one or several evaluations.

    The file holds every measure of the registry (family, direction, source and
    formula on hover with the chart that shows it, an interval where asked), the
    confusion matrix (rows actual, columns predicted, as
    :func:`binmetrics.plot.confusion_matrix`), the charts of
    ``binmetrics.plot.kinds()`` from :func:`binmetrics.plot.chart_data` (Berrar
    Figs. 4, 5, 7 and the reliability diagram; a kind that does not apply to a model,
    e.g. the reliability diagram of scores outside [0, 1], leaves it out with a
    note), a chart of any confusion measure against the threshold, and a threshold
    slider: moving it moves the operating point on the charts and updates the
    confusion matrix and every confusion measure. Nothing is computed in the
    browser: the values at each slider position come from the registry's functions
    (docs/architecture.md, "One measure, one definition"). It needs no network to open.

    Parameters
    ----------
    models : Evaluation, mapping of name to Evaluation, ByResult or MulticlassEvaluation
        Several models are overlaid in the charts and get one column each. An
        :func:`~binmetrics.evaluate_by` result is the model "overall" (all its rows) and
        the ``grouped`` of the Groups section. A multiclass evaluation gives the page of
        :meth:`~binmetrics.evaluation.multiclass.MulticlassEvaluation.to_html` (its
        classification report, confusion matrix and measures, and with ``ci`` the
        intervals of its ``ci_table``, averaged and per class; the other options do
        not apply).
    path : path, optional
        Also write the HTML there, atomically (a temporary file in the same folder,
        then a rename). The folder is checked before any work.
    title : str, optional
        Default: "binmetrics report" and the model names.
    ci : bool or mapping, default False
        Add intervals from :meth:`Evaluation.ci_table` (exact for proportions, DeLong
        for the AUC, the bootstrap for the rest); a mapping is passed to it as
        keywords, e.g. ``{"n_resamples": 500, "random_state": 0}``. The
        precision-recall chart then shades each model's pointwise band of the
        precision at 101 recalls (:meth:`binmetrics.curves.PRCurve.ci_band`, with the
        mapping's ``level``, ``n_resamples``, ``random_state`` and ``stratified``).
    paired : Comparison, optional
        A :func:`binmetrics.compare` result of these models on the same cases; its
        table (difference, interval, p-value, method) is shown. Its model names must
        be among the report's. When it cuts at another threshold than a model's own,
        a UserWarning and a note in the report say so.
    max_points : int, default 1000
        Curves with more points are thinned for display (:func:`thin_curve`; the
        largest error is shown in the footer). Tables always use exact values.
    thresholds : int, default 1000
        Slider positions at most: cut points of the tables, spread evenly over the
        cases, always including each model's own threshold, +inf (nothing positive)
        and the lowest score (everything positive). All cut points when fewer.
        Capped at ``MAX_SLIDER_VALUES // len(models)`` (4800 positions times models
        in all: 400 for 12 models), which keeps the file's size bounded.
    notes : sequence of str, optional
        Shown in the report's Notes (e.g. how the paired tests were chosen).
    roc_band : bool or mapping, default False
        Shade each model's confidence band of the TPR on the ROC chart:
        :meth:`binmetrics.curves.ROCCurve.ci_band` at 101 FPRs from 0 to 1 (pROC's
        ``ci.se``); a mapping is passed to it as keywords, e.g. ``{"n_resamples": 500,
        "random_state": 0, "level": 0.9}``.
    partial_auc : mapping, optional
        ``{"fpr": (a, b)}`` or ``{"tpr": (a, b)}``: shade each model's partial-AUC region
        on the ROC chart (under the curve for FPR in [a, b]; right of it for TPR in
        [a, b], as pROC's ``partial.auc.focus = "sensitivity"``), its value in the label.
    grouped : ByResult, optional
        An :func:`~binmetrics.evaluate_by` result of the model: adds a "Groups" section
        (:mod:`~binmetrics.display.report_groups`) with each group's values, the
        between-group gaps and the calibration (ECE) by group; with ``ci``, their
        intervals from the stratified bootstrap of
        :meth:`~binmetrics.ByResult.difference` (the mapping's ``level``,
        ``n_resamples`` and ``random_state``).
    gaps : sequence of str, optional
        The measures of the Groups section (default "auc", "tpr", "fpr", "ppv").
    best_thresholds : BestThreshold, list or mapping, optional
        Cuts chosen with :meth:`Evaluation.best_threshold` (with ``ci=True``, their
        intervals and optimism), shown in a "Chosen thresholds" section: a mapping of a
        model name to one result or a list of them; with one model, the result or the
        list alone.
    over_time : MonitorResult, optional
        A :func:`binmetrics.monitor` result: an "Over time" section shows each of its
        measures over the windows with its interval band (``ci=True``), the reference
        value and its interval band, and the flagged windows, then every window's
        numbers (:mod:`binmetrics.display.report_time`).

    Returns
    -------
    str
        The HTML document.

    Examples
    --------
    Berrar's ten cases (all ten cut points fit on the slider):

    >>> import binmetrics as bm
    >>> from binmetrics.display.report import report
    >>> y = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
    >>> s = [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]
    >>> page = report(bm.evaluate(y, s, threshold=0.55), title="Berrar's example")
    >>> page.startswith("<!DOCTYPE html>"), "http://" in page, "https://" in page
    (True, False, False)
    >>> "id='bm-v-0-mcc' data-value='0.40824829046386296'" in page  # MCC, as ev["mcc"]
    True
    """
    from binmetrics.evaluation.multiclass import MulticlassEvaluation

    if isinstance(models, MulticlassEvaluation):  # its classification report and measures
        page = models.to_html(title, ci=ci)
        if path is not None:
            write_text(check_writable(path), page)
        return page
    models, grouped, gap_ids = check_grouped(models, grouped, gaps)
    entries = _check_models(models)
    max_points = _check_count(max_points, "max_points", 10)
    thresholds = _check_count(thresholds, "thresholds", 3)
    if not (ci is True or ci is False or isinstance(ci, Mapping)):
        raise TypeError(f"ci must be True, False or a mapping of ci_table options; got {ci!r}")
    if not (roc_band is True or roc_band is False or isinstance(roc_band, Mapping)):
        raise TypeError("roc_band must be True, False or a mapping of ROCCurve.ci_band "
                        f"options; got {roc_band!r}")
    partial = check_partial(partial_auc)
    time_html = ""
    if over_time is not None:
        from binmetrics.display.report_time import over_time_section

        time_html = over_time_section(over_time)
    if isinstance(notes, str) or not all(isinstance(n, str) for n in notes):
        raise TypeError(f"notes must be a sequence of strings; got {notes!r}")
    names = [n for n, _ in entries]
    chosen = check_best_thresholds(best_thresholds, names)
    if paired is not None:
        from binmetrics.inference.paired import Comparison

        if not isinstance(paired, Comparison):
            raise TypeError("paired must be the result of binmetrics.compare(...); got "
                            f"{type(paired).__name__}")
        stray = [n for n in paired.names if n not in names]
        if stray:
            raise ValueError(f"paired compares {', '.join(map(repr, paired.names))}, but the "
                             f"report has no model {', '.join(map(repr, stray))}; its models: "
                             f"{', '.join(map(repr, names))}")
    out_path = check_writable(path) if path is not None else None
    flipped = [n for n, ev in entries if not ev.higher_is_positive]
    given = dict(entries)  # in the scores' own units, for the chosen cuts' charts
    entries = [(n, ev.negated()) for n, ev in entries]
    evs = [ev for _, ev in entries]
    grid = _grid(evs, slider_positions(thresholds, evs))
    t_range = threshold_range(evs)
    conf = list(iter_measures("confusion"))
    chart_notes: list[str] = list(notes)
    if flipped:
        chart_notes.append(f"Lower scores mean positive for {', '.join(map(repr, flipped))}: "
                           "the charts and the threshold slider show the negated scores "
                           "(-score >= -threshold is positive); the values are the same.")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        data = [model_data(n, ev, grid, conf, ci) for n, ev in entries]
        charts = chart_payloads(data, grid, t_range, max_points, chart_notes)
        roc_extras(data, charts, roc_band, partial, max_points, chart_notes)
        pr_band_extras(data, charts, ci, chart_notes)
        groups_html = groups_section(grouped, gap_ids, ci)
    mismatch = paired_mismatch(paired, data) if paired is not None else ""
    if mismatch:
        chart_notes.append(mismatch[0].upper() + mismatch[1:])
    for w in {str(w.message): w for w in caught}.values():  # each message once
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if mismatch:
        warnings.warn(mismatch, BinmetricsWarning, stacklevel=2)
    j0 = data[0].payload["own"]
    from binmetrics.package import __version__

    gx = to_axis_units(grid, *t_range)
    gx[np.isposinf(grid)] = 1.0  # +inf (nothing positive): where plot.threshold draws it
    payload = {
        "grid": {"threshold": jsonable(grid, digits=None), "start": j0, "x": coords(gx)},
        "confusion": [m.id for m in conf],
        "names": {m.id: m.name for m in conf},
        "charts": [c.spec for c in charts],
        "measureChart": {"x": list(t_range)},
        "models": [md.payload for md in data],
    }
    exact_slider = all(md.ev.table.n_distinct < grid.size
                       and np.isin(md.ev.table.scores, grid).all() for md in data)
    # the charts in the page: those with chart data drawn, and the measure chart
    drawn = [c.spec["id"] for c in charts] + ["measure"]
    page = render_page(title=title or "binmetrics report: " + ", ".join(names), models=data,
                       grid=grid, j0=j0, payload=payload, charts=drawn, paired=paired,
                       mismatch=mismatch, caught=caught, notes=chart_notes,
                       max_points=max_points, exact_slider=exact_slider, version=__version__,
                       groups=groups_html,
                       sections="\n".join((time_html, thresholds_section(
                           chosen, given, max_points=max_points))))
    if out_path is not None:
        write_text(out_path, page)
    return page
