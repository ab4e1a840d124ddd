"""The "Over time" section of the HTML report (``report(..., over_time=mon)``, the CLI's
``report --time``): each monitored measure over the windows of a
:func:`~binmetrics.monitor` result, with its interval band, the reference value and
its interval band, and the flagged windows; then every window's numbers.

The chart is the one :meth:`MonitorResult.chart` gives (the numbers
``MonitorResult.plot`` draws), written here as inline SVG: the section needs no script
and no network. The values in the tables are the monitor's own, each with its exact
value in ``data-value``.
"""

from __future__ import annotations

import html
import math
from typing import Any

import numpy as np

from binmetrics.chart import ChartData
from binmetrics.display.report_html import fmt, num_attr
from binmetrics.engines._windows import span
from binmetrics.engines.monitoring import MonitorResult

__all__ = ["over_time_section"]

#: the chart's size and margins in SVG units
_W, _H = 640, 220
_LEFT, _RIGHT, _TOP, _BOTTOM = 56, 12, 12, 34
#: the colours of matplotlib's cycle that the charts' series name ("C3", "0.4")
_COLOURS = {"C0": "#1f77b4", "C3": "#d62728"}


def _e(s: Any) -> str:
    return html.escape(str(s), quote=True)


def _colour(c: str | None) -> str:
    if c is None:
        return _COLOURS["C0"]
    if c in _COLOURS:
        return _COLOURS[c]
    try:  # a grey level, as matplotlib reads "0.4"
        g = round(255 * float(c))
    except ValueError:
        return _COLOURS["C0"]
    return f"#{g:02x}{g:02x}{g:02x}"


def _svg(chart: ChartData) -> str:
    """The chart as inline SVG: bands as polygons, lines as polylines (broken at NaN),
    markers as circles (each with its x and y in ``data-x``, ``data-y``)."""
    xs = np.concatenate([np.asarray(s.x, float) for s in chart.series])
    ys = np.concatenate([np.asarray(s.y, float) for s in chart.series])
    xs, ys = xs[np.isfinite(xs)], ys[np.isfinite(ys)]
    x0, x1 = (float(xs.min()), float(xs.max())) if xs.size else (0.0, 1.0)
    y0, y1 = (float(ys.min()), float(ys.max())) if ys.size else (0.0, 1.0)
    if x1 == x0:
        x0, x1 = x0 - 1.0, x1 + 1.0
    pad = 0.05 * (y1 - y0) if y1 > y0 else 0.05 * max(abs(y0), 1.0)
    y0, y1 = y0 - pad, y1 + pad

    def px(x: Any) -> Any:
        return _LEFT + (np.asarray(x, float) - x0) / (x1 - x0) * (_W - _LEFT - _RIGHT)

    def py(y: Any) -> Any:
        return _TOP + (y1 - np.asarray(y, float)) / (y1 - y0) * (_H - _TOP - _BOTTOM)

    def points(x: Any, y: Any) -> str:
        return " ".join(f"{a:.2f},{b:.2f}" for a, b in zip(px(x), py(y), strict=True))

    out = [f"<svg viewBox='0 0 {_W} {_H}' width='{_W}' height='{_H}' role='img' "
           f"aria-label='{_e(chart.title)}' class='bm-over-time-chart'>",
           f"<rect x='{_LEFT}' y='{_TOP}' width='{_W - _LEFT - _RIGHT}' "
           f"height='{_H - _TOP - _BOTTOM}' fill='none' stroke='#999'/>"]
    for t in np.linspace(y0 + pad, y1 - pad, 5) if y1 - y0 > 2 * pad else []:
        out.append(f"<text x='{_LEFT - 4}' y='{py(t) + 4:.2f}' font-size='10' "
                   f"text-anchor='end'>{_e(fmt(float(t), 3))}</text>")
    if chart.xticks is not None:
        for t, label in zip(*chart.xticks, strict=True):
            out.append(f"<text x='{px(t):.2f}' y='{_H - _BOTTOM + 14}' font-size='10' "
                       f"text-anchor='middle'>{_e(label)}</text>")
    for s in chart.series:
        x, y = np.asarray(s.x, float), np.asarray(s.y, float)
        colour, label = _colour(s.color), _e(s.label)
        if s.style == "band":
            out.append(f"<polygon class='bm-band' data-series='{label}' points='"
                       f"{points(x, y)}' fill='{colour}' fill-opacity='0.25' stroke='none'/>")
        elif s.style == "markers":
            out += [f"<circle class='bm-flagged' data-series='{label}' data-x='{num_attr(a)}' "
                    f"data-y='{num_attr(b)}' cx='{px(a):.2f}' cy='{py(b):.2f}' r='4' "
                    f"fill='none' stroke='{colour}' stroke-width='2'/>"
                    for a, b in zip(x, y, strict=True)]
        else:
            dash = " stroke-dasharray='5,4'" if s.style == "dashed" else ""
            ok = np.isfinite(x) & np.isfinite(y)
            # one polyline per run of finite points (NaN breaks the line)
            edges = np.flatnonzero(np.diff(np.concatenate([[0], ok.astype(int), [0]])))
            for a, b in zip(edges[::2], edges[1::2], strict=True):
                out.append(f"<polyline class='bm-line' data-series='{label}' points='"
                           f"{points(x[a:b], y[a:b])}' fill='none' stroke='{colour}' "
                           f"stroke-width='1.5'{dash}/>")
    legend = " &#183; ".join(_e(s.label) for s in chart.series)
    out.append("</svg>")
    return (f"<figure class='bm-over-time-figure'>{''.join(out)}<figcaption>"
            f"{_e(chart.title)}: {legend}</figcaption></figure>")


def _cell(v: Any, digits: int = 4) -> str:
    v = float(v)
    return f"<td data-value='{num_attr(v)}'>{_e(fmt(v, digits)) if math.isfinite(v) else ''}</td>"


def _table(mon: MonitorResult, mid: str) -> str:
    """Every window's value, interval, change, adjusted p-value and flag of ``mid``; the
    reference first."""
    f = mon.to_frame()
    has_ci = f"{mid}_low" in f
    ref = float(mon.reference_evaluation.value(mid))
    band = (mon.reference_ci or {}).get(mid, (math.nan, math.nan))
    head = ["start", "end", "n", mid] + (["low", "high"] if has_ci else []) + [
        "change", "p-value (Holm)", "flagged"]
    rows = [f"<tr class='bm-reference'><td colspan='2'>reference [{_e(mon.reference[0])}, "
            f"{_e(mon.reference[1])})</td><td>{mon.reference_evaluation.n_rows}</td>"
            + _cell(ref) + ("".join(_cell(b) for b in band) if has_ci else "")
            + "<td></td><td></td><td></td></tr>"]
    for _, r in f.iterrows():
        flagged = bool(r[f"{mid}_flagged"])
        cells = [f"<td>{_e(r['start'])}</td><td>{_e(r['end'])}</td><td>{int(r['n'])}</td>",
                 _cell(r[mid])]
        if has_ci:
            cells += [_cell(r[f"{mid}_low"]), _cell(r[f"{mid}_high"])]
        cells += [_cell(r[f"{mid}_change"]), _cell(r[f"{mid}_pvalue_adjusted"], 3),
                  f"<td>{'changed' if flagged else ''}</td>"]
        reason = f" title='{_e(r['reason'])}'" if r["reason"] else ""
        cls = " class='bm-flagged-row'" if flagged else ""
        rows.append(f"<tr{cls}{reason}>{''.join(cells)}</tr>")
    return (f"<details><summary>Every window ({len(f)})</summary><table class='bm-over-time-"
            f"table' data-measure='{_e(mid)}'><thead><tr>"
            + "".join(f"<th>{_e(h)}</th>" for h in head)
            + f"</tr></thead><tbody>{''.join(rows)}</tbody></table></details>")


def over_time_section(mon: MonitorResult) -> str:
    """The report's "Over time" section of a :func:`~binmetrics.monitor` result."""
    if not isinstance(mon, MonitorResult):
        raise TypeError("over_time must be the result of binmetrics.monitor(...); got "
                        f"{type(mon).__name__}")
    f = mon.to_frame()
    parts = [f"<section id='bm-over-time'><h2>Over time</h2><p>{len(f)} windows of "
             f"{_e(span(mon.window))}, one every {_e(span(mon.step))}; reference period "
             f"[{_e(mon.reference[0])}, {_e(mon.reference[1])}). Each window is compared "
             "with the reference (DeLong's unpaired test for the AUC, the two-proportion "
             "z-test for proportions, the unpaired bootstrap where asked); the p-values "
             f"are Holm-adjusted over the windows and a window is flagged below alpha = "
             f"{mon.alpha:g}.</p>"]
    for mid in mon.measures:
        k = int(f[f"{mid}_flagged"].sum())
        parts.append(f"<h3 data-measure='{_e(mid)}' data-flagged='{k}'>{_e(mid)}: {k} of "
                     f"{len(f)} windows changed</h3>")
        parts.append(_svg(mon.chart(mid)))
        parts.append(_table(mon, mid))
    parts.append("</section>")
    return "".join(parts)
