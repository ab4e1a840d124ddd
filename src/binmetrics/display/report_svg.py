"""A :class:`~binmetrics.chart.ChartData` as inline SVG, for the report's sections that
need no script (the "Chosen thresholds" section): the same series that
:func:`binmetrics.chart.render` draws with matplotlib, in the same colours (model i in
matplotlib's colour ``C{i}``, shared lines in their fixed colour or black).

Bands are polygons (each with its extent along x in data units in ``data-x0`` and
``data-x1``), markers circles, vertical lines lines across the plot, every other series
a polyline broken at NaN, thinned to ``max_points`` points per curve
(:func:`~binmetrics.display.thinning.thin_curve`, an error bounded as in the rest of the
report). The legend is the figure's caption.
"""

from __future__ import annotations

import html
from typing import Any

import numpy as np

from binmetrics.chart import ChartData, Series
from binmetrics.display.report_html import fmt, num_attr
from binmetrics.display.thinning import thin_curve

__all__ = ["chart_svg"]

#: matplotlib's default colour cycle (tab10), which ``C0``...``C9`` name
TAB10 = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
         "#7f7f7f", "#bcbd22", "#17becf")
_W, _H = 640, 280
_LEFT, _RIGHT, _TOP, _BOTTOM = 56, 12, 12, 40
_DASH = {"dashed": "6,4", "dotted": "2,3", "dashdot": "6,3,2,3"}


def _e(s: Any) -> str:
    return html.escape(str(s), quote=True)


def _colour(c: str | None, index: int) -> str:
    """A matplotlib colour as SVG: ``C3``, a grey level ``"0.5"``, or a name as given."""
    if c is None:
        return TAB10[index % 10]
    if len(c) == 2 and c[0] == "C" and c[1].isdigit():
        return TAB10[int(c[1])]
    try:
        g = round(255 * float(c))
    except ValueError:
        return _e(c)
    return f"#{g:02x}{g:02x}{g:02x}"


def _range(lim: tuple[float | None, float | None], values: list[Any], pad: float
           ) -> tuple[float, float]:
    lo, hi = lim
    finite = np.concatenate([v[np.isfinite(v)] for v in values]) if values else np.empty(0)
    if lo is None:
        lo = float(finite.min()) if finite.size else 0.0
    if hi is None:
        hi = float(finite.max()) if finite.size else lo + 1.0
    if hi <= lo:
        lo, hi = lo - 0.5, lo + 0.5
    d = pad * (hi - lo)
    return lo - d, hi + d


def chart_svg(chart: ChartData, *, max_points: int = 1000, css: str = "bm-chart") -> str:
    """``chart`` as a ``<figure>`` holding inline SVG and a caption naming its series.

    Examples
    --------
    >>> from binmetrics.chart import ChartData, series
    >>> cd = ChartData("line", "A line", "x", "y",
    ...                (series([0, 1], [0, 2], "y = 2x"),
    ...                 series([0.2, 0.4, 0.4, 0.2], [0, 0, 2, 2], "band", style="band")))
    >>> page = chart_svg(cd)
    >>> "<polyline" in page, "data-x0='0.2' data-x1='0.4'" in page
    (True, True)
    """
    series = list(chart.series)
    x0, x1 = _range(chart.xlim, [np.asarray(s.x, float) for s in series], chart.pad)
    y0, y1 = _range(chart.ylim, [np.asarray(s.y, float) for s in series], chart.pad)
    pw, ph = _W - _LEFT - _RIGHT, _H - _TOP - _BOTTOM

    def px(x: Any) -> Any:
        return _LEFT + (np.asarray(x, float) - x0) / (x1 - x0) * pw

    def py(y: Any) -> Any:
        return _TOP + (y1 - np.asarray(y, float)) / (y1 - y0) * ph

    def points(x: Any, y: Any) -> str:
        return " ".join(f"{a:.2f},{b:.2f}" for a, b in zip(px(x), py(y), strict=True))

    index = {m: i for i, m in enumerate(chart.models)}
    out = [f"<svg viewBox='0 0 {_W} {_H}' width='{_W}' height='{_H}' role='img' "
           f"aria-label='{_e(chart.title)}' class='{_e(css)}'>",
           f"<rect x='{_LEFT}' y='{_TOP}' width='{pw}' height='{ph}' fill='none' "
           "stroke='#999'/>"]
    for t in np.linspace(y0, y1, 5):
        out.append(f"<text x='{_LEFT - 4}' y='{py(t) + 4:.2f}' font-size='10' "
                   f"text-anchor='end'>{_e(fmt(float(t), 3))}</text>")
    for t in np.linspace(x0, x1, 5):
        out.append(f"<text x='{px(t):.2f}' y='{_TOP + ph + 14}' font-size='10' "
                   f"text-anchor='middle'>{_e(fmt(float(t), 3))}</text>")
    out.append(f"<text x='{_LEFT + pw / 2:.1f}' y='{_H - 6}' font-size='11' "
               f"text-anchor='middle'>{_e(chart.xlabel)}</text>")
    out.append(f"<text x='12' y='{_TOP + ph / 2:.1f}' font-size='11' text-anchor='middle' "
               f"transform='rotate(-90 12 {_TOP + ph / 2:.1f})'>{_e(chart.ylabel)}</text>")
    legend = []
    for s in series:
        colour = _colour(s.color, index.get(s.model, 0)) if not s.shared else \
            _colour(s.color or "0", 0)
        out.extend(_series_svg(s, colour, px, py, points, (x0, x1, y0, y1), max_points))
        if s.label and s.legend:
            name = f"{s.model}: {s.label}" if s.model and len(index) > 1 else s.label
            legend.append(f"<span class='bm-key'><span style='color:{colour}'>&#9632;</span> "
                          f"{_e(name)}</span>")
    out.append("</svg>")
    return (f"<figure class='{_e(css)}-figure'>{''.join(out)}<figcaption>{_e(chart.title)}"
            f": {' &#183; '.join(legend)}</figcaption></figure>")


def _series_svg(s: Series, colour: str, px: Any, py: Any, points: Any,
                box: tuple[float, float, float, float], max_points: int) -> list[str]:
    x, y = np.asarray(s.x, float), np.asarray(s.y, float)
    label = _e(s.label)
    x0, x1, y0, y1 = box
    if s.style == "band":
        alpha = float(s.extra.get("alpha", 0.3))
        return [f"<polygon class='bm-band' data-series='{label}' data-x0='"
                f"{num_attr(float(np.nanmin(x)))}' data-x1='{num_attr(float(np.nanmax(x)))}' "
                f"points='{points(np.clip(x, x0, x1), np.clip(y, y0, y1))}' fill='{colour}' "
                f"fill-opacity='{alpha:g}' stroke='none'/>"]
    if s.style in ("markers", "points"):
        return [f"<circle class='bm-marker' data-series='{label}' data-x='{num_attr(a)}' "
                f"data-y='{num_attr(b)}' cx='{px(a):.2f}' cy='{py(b):.2f}' r='4' "
                f"fill='{colour}' stroke='{colour}'/>"
                for a, b in zip(x.tolist(), y.tolist(), strict=True)
                if np.isfinite(a) and np.isfinite(b)]
    if s.style == "vline":
        return [f"<line class='bm-vline' data-series='{label}' data-x='{num_attr(x[0])}' "
                f"x1='{px(x[0]):.2f}' x2='{px(x[0]):.2f}' y1='{py(y1):.2f}' "
                f"y2='{py(y0):.2f}' stroke='{colour}' stroke-dasharray='2,3'/>"]
    dash = _DASH.get(s.style)
    extra = f" stroke-dasharray='{dash}'" if dash else ""
    width = s.width if s.width is not None else 1.5
    ok = np.isfinite(x) & np.isfinite(y)
    edges = np.flatnonzero(np.diff(np.concatenate([[0], ok.astype(int), [0]])))
    lines = []
    for a, b in zip(edges[0::2].tolist(), edges[1::2].tolist(), strict=True):
        xs, ys = x[a:b], y[a:b]
        if xs.size > max_points:  # thinned in axis units, as the report's other charts
            th = thin_curve((xs - x0) / (x1 - x0), (ys - y0) / (y1 - y0),
                            max_points=max_points)
            xs, ys = x0 + th.x * (x1 - x0), y0 + th.y * (y1 - y0)
        lines.append(f"<polyline class='bm-line' data-series='{label}' points='"
                     f"{points(xs, ys)}' fill='none' stroke='{colour}' "
                     f"stroke-width='{width:g}'{extra}/>")
    return lines
