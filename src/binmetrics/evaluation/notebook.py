"""Rich HTML rendering of results in Jupyter (``_repr_html_``)."""

from __future__ import annotations

import html
import math
import warnings
from typing import Any

from binmetrics.exceptions import MeasureCaveatWarning, UndefinedMeasureWarning
from binmetrics.measures import get_measure

_ARROW = {1: "↑", -1: "↓", 0: ""}
#: A measure's direction in words (the HTML report's column).
DIRECTION_TEXT = {1: "\u2191 higher", -1: "\u2193 lower", 0: "\u2013 none"}


def measure_title(m: Any) -> str:
    """The hover text of a measure in every HTML table (Jupyter and the report): its
    name, source, formula and parameters, from the registry."""
    params = ", ".join(f"{k}={v!r}" for k, v in m.params.items())
    return (f"{m.name} \u2014 {m.source}\n{m.formula}"
            + (f"\nparameters: {params}" if params else ""))


def _cell(v: Any) -> str:
    if isinstance(v, float):
        if math.isnan(v):
            return '<span title="undefined">NaN</span>'
        return f"{v:.6g}"
    return html.escape(str(v))


def measures_table(values: dict[str, float], caption: str) -> str:
    """An HTML table of measure values, one row per measure, grouped by family, with
    the measure's formula and source in each row's tooltip (from the registry)."""
    rows = []
    family = None
    for mid, v in values.items():
        m = get_measure(mid)
        if m.family != family:
            family = m.family
            rows.append(f'<tr><th colspan="3" style="text-align:left">{family}</th></tr>')
        tip = html.escape(measure_title(m), quote=True)
        rows.append(f'<tr title="{tip}"><td style="text-align:left">{m.id}</td>'
                    f"<td>{_cell(v)}</td><td>{_ARROW[m.direction]}</td></tr>")
    return (f'<table><caption style="text-align:left">{html.escape(caption)}</caption>'
            '<thead><tr><th style="text-align:left">measure</th><th>value</th>'
            f'<th title="better when higher (↑) or lower (↓)"></th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


def quiet_values(obj: Any) -> dict[str, float]:
    """``obj.to_dict()`` without warnings: undefined values show as NaN with a tooltip."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        warnings.simplefilter("ignore", MeasureCaveatWarning)
        return dict(obj.to_dict())
