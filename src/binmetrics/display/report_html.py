"""The HTML of the report (:mod:`binmetrics.display.report`): the page around the
data, the measures table, the confusion matrices, the paired tests, the notes and the
footer. The charts are drawn in the browser by ``report_assets/report.js`` from the
embedded data (:mod:`~binmetrics.display.report_data`).
"""

from __future__ import annotations

import html
import math
import warnings
from collections.abc import Collection, Iterable
from importlib import resources
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from binmetrics.display.plot import PLOT_KINDS
from binmetrics.display.report_data import MAX_SLIDER_VALUES, SIG_DIGITS, ModelData, script_json
from binmetrics.evaluation.notebook import DIRECTION_TEXT, measure_title
from binmetrics.formatting import HTML, format_number
from binmetrics.measures.registry import Family, Measure, iter_measures

if TYPE_CHECKING:
    from binmetrics.inference.paired import Comparison

__all__ = ["asset", "fmt", "num_attr", "page_head", "paired_mismatch", "render_page"]

_FAMILY_TITLE: dict[Family, str] = {
    "confusion": "Confusion measures (at the slider's threshold)",
    "probabilistic": "Probabilistic measures", "ranking": "Ranking measures"}


# --- HTML ----------------------------------------------------------------------------------
def fmt(v: float, digits: int = 6) -> str:
    """The report's number format; report.js's ``fmt`` gives the same strings."""
    return format_number(v, HTML, digits=digits)


def num_attr(v: float) -> str:
    """A float as the data-value attribute: repr round-trips exactly (JS: String(v))."""
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return repr(float(v))


def _e(s: Any) -> str:
    return html.escape(str(s), quote=True)


def page_head(title: str, version: str) -> str:
    """The start of a self-contained report page, up to and including ``<body>``: the
    document head with the report's style sheet inlined (shared by every report)."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="binmetrics {_e(version)}">
<title>{_e(title)}</title>
<style>
{asset("report.css")}
</style>
</head>
<body>
"""


def _short(name: str, width: int = 40) -> str:
    """A model name for a button: at most ``width`` characters (the full one in titles)."""
    return name if len(name) <= width else name[:width - 1] + "\u2026"


def asset(name: str) -> str:
    return resources.files("binmetrics.display").joinpath("report_assets", name).read_text("utf-8")


def _chart_of(m: Measure, charts: Collection[str]) -> str:
    """The kind of the page's chart that shows the measure (its ``plot``), or ""."""
    return m.plot if m.plot is not None and m.plot in charts else ""


def _measures_table(models: list[ModelData], j0: int, charts: Collection[str]) -> str:
    """Every measure of the registry, by family: a row each with its name (source and
    formula on hover, and the chart of ``charts`` that shows it, from its ``plot``), its
    family, direction and each model's value (and interval)."""
    head = "".join(f"<th scope='col' class='model m{i % 8}' title='{_e(md.name)}'>"
                   f"{_e(_short(md.name))}</th>" for i, md in enumerate(models))
    rows = []
    for family, title in _FAMILY_TITLE.items():
        rows.append(f"<tr class='family'><th colspan='{3 + len(models)}' scope='rowgroup'>"
                    f"{_e(title)}</th></tr>")
        for m in iter_measures(family):
            cells = []
            for i, md in enumerate(models):
                own = md.payload["own"]
                if family == "confusion":
                    v = float(md.grid_values[m.id][j0])
                else:
                    v = md.values[m.id]
                why = md.reasons.get(m.id, "") if math.isnan(v) else ""
                iv = md.intervals.get(m.id)
                ci = ""
                if iv is not None and not (math.isnan(iv[0]) and math.isnan(iv[1])):
                    hidden = " hidden" if family == "confusion" and own != j0 else ""
                    ci = (f"<span class='ci' title='{_e(iv[2])} interval'{hidden}>"
                          f"[{_e(fmt(iv[0]))}, {_e(fmt(iv[1]))}]</span>")
                title = f" title='{_e(why)}'" if why else ""
                cells.append(f"<td class='v'><span id='bm-v-{i}-{_e(m.id)}' "
                             f"data-value='{num_attr(v)}'{title}>{_e(fmt(v))}</span>{ci}</td>")
            chart = _chart_of(m, charts)
            hover = measure_title(m)
            if chart:
                hover += f"\nshown in: {PLOT_KINDS[chart].title}"
            rows.append(
                f"<tr data-family='{family}'"
                + (f" data-chart='{_e(chart)}'" if chart else "")
                + f"><th scope='row' title='{_e(hover)}'>"
                f"{_e(m.name)} <code>{_e(m.id)}</code></th><td>{family}</td>"
                f"<td>{DIRECTION_TEXT[m.direction]}</td>{''.join(cells)}</tr>")
    return (f"<table id='bm-measures' class='measures'><thead><tr><th scope='col'>measure</th>"
            f"<th scope='col'>family</th><th scope='col'>direction</th>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def _calibration_section(models: list[ModelData], charts: Collection[str]) -> str:
    """The models' calibration and clinical usefulness, for those whose scores are
    probabilities: the charts of the kinds that need probabilities (the reliability
    diagram with each bin's share of the cases, the decision curve; the script draws
    them here) and the measures those charts show (their registry ``plot``), with the
    intervals computed for the measures table. Models with other scores are named in
    a note, and the section says so when no model has probabilities."""
    kinds = {k for k, pk in PLOT_KINDS.items() if pk.needs_probabilities}
    fit = [(i, md) for i, md in enumerate(models) if md.ev.table.probabilities_ok]
    skipped = [md.name for md in models if not md.ev.table.probabilities_ok]
    note = ("" if not skipped else
            f"<p class='note'>Left out (scores are not probabilities in [0, 1], so they "
            f"cannot be read as risks): {_e(', '.join(map(repr, skipped)))}.</p>")
    head = ("<section id='bm-calibration'><h2>Calibration and clinical usefulness</h2>"
            "<p>Can the scores be read as probabilities, and is acting on them worth it? "
            "Not the prior calibration of Siblini et al.; see the docs page “Two "
            "meanings of calibration”.</p>")
    if not fit:
        return head + note + "</section>"
    ms = [m for m in iter_measures() if m.plot in kinds]
    with_ci = any(md.intervals for _, md in fit)
    th = "".join(f"<th scope='col' class='model m{i % 8}' title='{_e(md.name)}'>"
                 f"{_e(_short(md.name))}</th>" for i, md in fit)
    rows = []
    for m in ms:
        cells = []
        for _, md in fit:
            v = md.values[m.id]
            iv = md.intervals.get(m.id)
            ci = ""
            if iv is not None and not (math.isnan(iv[0]) and math.isnan(iv[1])):
                ci = (f"<span class='ci' title='{_e(iv[2])} interval'>"
                      f"[{_e(fmt(iv[0]))}, {_e(fmt(iv[1]))}]</span>")
            why = md.reasons.get(m.id, "") if math.isnan(v) else ""
            title = f" title='{_e(why)}'" if why else ""
            cells.append(f"<td class='v'><span data-value='{num_attr(v)}'{title}>"
                         f"{_e(fmt(v))}</span>{ci}</td>")
        shown = m.plot if m.plot in charts else ""
        rows.append(f"<tr data-measure='{_e(m.id)}'"
                    + (f" data-chart='{_e(shown)}'" if shown else "")
                    + f"><th scope='row' title='{_e(measure_title(m))}'>{_e(m.name)} "
                    f"<code>{_e(m.id)}</code></th>"
                    f"{''.join(cells)}</tr>")
    hint = ("" if with_ci else
            "<p class='note'>Intervals: <code>report(..., ci=True)</code> or "
            "<code>binmetrics report --ci</code> (bootstrap).</p>")
    return (head + note + "<div class='charts' id='bm-calibration-charts'></div>" + hint
            + "<table id='bm-calibration-measures' class='measures'><thead><tr>"
            f"<th scope='col'>measure</th>{th}</tr></thead><tbody>{''.join(rows)}</tbody>"
            "</table></section>")


def _confusion_tables(models: list[ModelData], j0: int) -> str:
    out = []
    for i, md in enumerate(models):
        c = {k: float(np.asarray(v)[j0]) for k, v in md.confusion.as_dict().items()}

        def cell(k: str, c: dict[str, float] = c, i: int = i) -> str:
            return (f"<td id='bm-cm-{i}-{k}' data-value='{num_attr(c[k])}'>"
                    f"{_e(fmt(c[k], 10))}</td>")

        out.append(  # rows = actual, columns = predicted, as plot.confusion_matrix
            f"<table class='cm' id='bm-cm-{i}'><caption class='m{i % 8}' title='{_e(md.name)}'>"
            f"{_e(_short(md.name))}</caption>"
            "<tr><td></td><th scope='col'>predicted positive</th>"
            "<th scope='col'>predicted negative</th></tr>"
            f"<tr><th scope='row'>actual positive</th>{cell('tp')}{cell('fn')}</tr>"
            f"<tr><th scope='row'>actual negative</th>{cell('fp')}{cell('tn')}</tr>"
            "</table>")
    return "".join(out)


def paired_mismatch(paired: Comparison, models: list[ModelData]) -> str:
    """A note when the paired tests cut at another threshold than a model they compare."""
    other = [f"{md.name!r} ({fmt(md.ev.threshold, 10)})" for md in models
             if md.name in paired.names and md.ev.threshold != paired.threshold]
    if not other:
        return ""
    return (f"the paired tests cut at threshold {fmt(paired.threshold, 10)}, but the rest of "
            f"the report cuts {', '.join(other)} at its own threshold: the confusion measures "
            "of the paired table are not those of the measures table")


def _paired_table(paired: Comparison, mismatch: str = "") -> str:
    frame = paired.to_frame()
    rows: Iterable[Any] = frame.itertuples()  # the fields of pandas rows are untyped
    body = []
    for r in rows:
        body.append(
            f"<tr><td>{_e(r.model_a)}</td><td>{_e(r.model_b)}</td><td>{_e(r.measure)}</td>"
            f"<td>{_e(fmt(r.value_a))}</td><td>{_e(fmt(r.value_b))}</td>"
            f"<td>{_e(fmt(r.estimate))}</td><td>[{_e(fmt(r.low))}, {_e(fmt(r.high))}]</td>"
            f"<td>{_e(fmt(r.pvalue, 4))}</td><td>{_e(r.method)}</td></tr>")
    warn = f"<p class='warn' id='bm-paired-note'>Note: {_e(mismatch)}.</p>" if mismatch else ""
    return (f"{warn}<table id='bm-paired' class='paired'><caption>Paired tests on the same "
            f"cases: threshold {_e(fmt(paired.threshold))}, {_e(fmt(paired.level * 100))}% "
            f"intervals of A \u2212 B, {_e(paired.alternative)}</caption><thead><tr>"
            "<th>model A</th><th>model B</th><th>measure</th><th>A</th><th>B</th>"
            "<th>A \u2212 B</th><th>interval</th><th>p-value</th><th>method</th></tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>")


def _summary(models: list[ModelData]) -> str:
    rows = []
    for i, md in enumerate(models):
        ev = md.ev
        t = ev.table
        n = ev.n_rows if ev.n_rows is not None else t.total
        pos = ev.n_positive_rows if ev.n_positive_rows is not None else t.P
        weighted = (f"; weighted: total {fmt(t.total, 10)}, positives {fmt(t.P, 10)}"
                    if t.weighted else "")
        omitted = f"; {ev.n_omitted} rows omitted (non-finite score)" if ev.n_omitted else ""
        rows.append(f"<li><b class='m{i % 8}'>{_e(md.name)}</b>: {_e(fmt(n, 12))} cases, "
                    f"{_e(fmt(pos, 12))} positive (label {_e(repr(ev.pos_label))}), prevalence "
                    f"{_e(fmt(t.prevalence))}, {t.n_distinct} distinct scores, threshold "
                    f"{_e(fmt(ev.threshold, 10))}{_e(weighted)}{_e(omitted)}</li>")
    return f"<ul class='summary'>{''.join(rows)}</ul>"


def _footer(models: list[ModelData], max_points: int, version: str, exact_slider: bool,
            positions: int) -> str:
    worst = max(((th.error, md.name, key) for md in models for key, th in md.thinning.items()),
                default=(0.0, "", ""))
    rows = "".join(
        f"<tr><td>{_e(md.name)}</td><td>{_e(key)}</td><td>{th.points}</td>"
        f"<td>{th.drawn}</td><td>{th.error:.2e}</td><td>{th.bound:.2e}</td></tr>"
        for md in models for key, th in md.thinning.items())
    sampled = ("Every distinct score is a slider position, so the measure chart's steps are "
               "exact." if exact_slider else
               "The slider holds a sample of the distinct scores, so the measure chart shows "
               "the measure at those positions only (steps between them), not every step.")
    return (
        "<footer><p>Every number in the tables is computed on the full data. Step functions "
        "(the rates against the threshold, the AP step line of the precision-recall chart) "
        "are drawn through their vertices, so the drawn line is the step function itself. "
        f"Curves of more than {max_points} points are thinned for display (an arc-length "
        "pass, then a greedy Douglas-Peucker; "
        "<code>binmetrics.display.thinning.thin_curve</code>): "
        "every point of an exact curve lies within \u03b5 of the drawn line, in both "
        "coordinates, \u03b5 being a fraction of the chart's axis range; guaranteed \u03b5 "
        "\u2264 L/(max_points \u2212 2) + 7.1e-7 (L the curve's length in those units, 7.1e-7 "
        "the rounding of the drawn coordinates). Largest here: "
        f"<b id='bm-eps'>\u03b5 = {worst[0]:.2e}</b>"
        + (f" ({_e(worst[2])}, {_e(worst[1])})" if worst[1] else "") + ".</p>"
        "<details><summary>\u03b5 of each curve</summary><table class='eps'><thead><tr>"
        "<th>model</th><th>curve</th><th>points</th><th>drawn</th><th>\u03b5 measured</th>"
        f"<th>\u03b5 guaranteed</th></tr></thead><tbody>{rows}</tbody></table></details>"
        f"<p>The slider moves through {positions} thresholds chosen among the scores (evenly "
        "over the cases, with every model's own threshold; at most "
        f"{MAX_SLIDER_VALUES} positions times models in all, which bounds the file's size); "
        "the confusion matrix and the confusion measures at each of them were computed by "
        f"binmetrics, not in the browser, and embedded to {SIG_DIGITS} significant digits "
        f"(the page shows at most {SIG_DIGITS}). {sampled} Intervals of confusion measures "
        "hold at the model's own threshold only. Hover a measure for its source and formula, "
        f"a line for what it is. binmetrics {_e(version)}; no network is needed to open this "
        "file.</p></footer>")


def _notes(caught: list[warnings.WarningMessage], extra: list[str]) -> str:
    seen = list(dict.fromkeys([*extra,
                               *(" ".join(str(w.message).split()) for w in caught)]))
    if not seen:
        return ""
    items = "".join(f"<li>{_e(s)}</li>" for s in seen)
    return f"<section id='bm-notes'><h2>Notes</h2><ul>{items}</ul></section>"


# --- the page --------------------------------------------------------------------------------
def render_page(*, title: str, models: list[ModelData], grid: npt.NDArray[np.float64], j0: int,
                payload: dict[str, Any], charts: Collection[str], paired: Comparison | None,
                mismatch: str, caught: list[warnings.WarningMessage], notes: list[str],
                max_points: int, exact_slider: bool, version: str, groups: str = "",
                sections: str = "") -> str:
    """The HTML document: the models' summary, the threshold slider at position ``j0``
    of ``grid``, the confusion matrices, the charts (drawn by the script from
    ``payload``; ``charts`` are the kinds drawn), the measures, ``groups`` (the HTML of
    the Groups section, :mod:`~binmetrics.display.report_groups`, or ""), ``sections``
    (further sections' HTML: the Over time section, the chosen thresholds), the paired
    tests, the notes (``notes`` and the ``caught`` warnings) and the footer."""
    data = models
    script = asset("report.js")
    if "</script" in script.lower():  # pragma: no cover - a guard on the asset
        raise RuntimeError("report.js must not contain '</script'")
    paired_html = ("<section id='bm-paired-tests'><h2>Paired tests</h2>"
                   f"{_paired_table(paired, mismatch)}</section>" if paired is not None else "")
    own = ", ".join(f"{md.name}: {fmt(md.ev.threshold, 10)}" for md in data)
    page = f"""{page_head(title, version)}<header><h1>{_e(title)}</h1>{_summary(data)}</header>
<main>
<section id="bm-threshold-box" aria-label="threshold">
<label for="bm-slider">Threshold (score &#8805; t is predicted positive)</label>
<input type="range" id="bm-slider" min="0" max="{grid.size - 1}" step="1" value="{j0}">
<output id="bm-threshold" for="bm-slider" data-value="{num_attr(grid[j0])}">\
{_e(fmt(float(grid[j0]), 10))}</output>
<button type="button" id="bm-reset" title="own thresholds: {_e(own)}">back to \
{_e(_short(data[0].name))}'s threshold</button>
<span id="bm-position">position {j0 + 1} of {grid.size}</span>
</section>
<section id="bm-confusion"><h2>Confusion matrix</h2><div class="cms">\
{_confusion_tables(data, j0)}</div></section>
<section id="bm-charts"><h2>Charts</h2><div class="legend" id="bm-legend"></div>
<div class="charts" id="bm-chart-grid"><noscript>The charts need JavaScript.</noscript></div>
</section>
{_calibration_section(data, charts)}
<section id="bm-measures-box"><h2>Measures</h2>{_measures_table(data, j0, charts)}</section>
{groups}
{sections}
{paired_html}
{_notes(caught, notes)}
</main>
{_footer(data, max_points, version, exact_slider, grid.size)}
<script type="application/json" id="bm-data">{script_json(payload)}</script>
<script>
{script}
</script>
</body>
</html>
"""
    return page
