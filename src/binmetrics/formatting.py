"""Numbers as text: the one formatter behind the CLI's tables, the HTML report and the
plots' legends, so the same value reads the same everywhere it is shown."""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["CLI", "HTML", "PLOT", "NumberStyle", "format_number", "frame_html", "frame_text"]


@dataclass(frozen=True)
class NumberStyle:
    """How :func:`format_number` writes a value.

    Attributes
    ----------
    digits : significant digits (``"g"`` format), or decimals when ``fixed``.
    fixed : write ``digits`` decimals (``"f"`` format) instead of significant digits.
    nan, inf, neg_inf : the text of NaN and the infinities.
    """

    digits: int = 6
    fixed: bool = False
    nan: str = "NaN"
    inf: str = "inf"
    neg_inf: str = "-inf"


#: the command line's tables and CSV
CLI = NumberStyle()
#: the HTML report (its report.js writes the same strings)
HTML = NumberStyle(nan="undefined", inf="\u221e", neg_inf="\u2212\u221e")
#: plot legends and annotations
PLOT = NumberStyle(digits=3, fixed=True, nan="nan")


def format_number(value: float, style: NumberStyle = CLI, *, digits: int | None = None) -> str:
    """``value`` as text in ``style`` (``digits`` overrides the style's).

    Examples
    --------
    >>> format_number(2 / 3), format_number(float("nan")), format_number(-float("inf"))
    ('0.666667', 'NaN', '-inf')
    >>> format_number(2 / 3, HTML, digits=10), format_number(float("nan"), HTML)
    ('0.6666666667', 'undefined')
    >>> format_number(0.8, PLOT)
    '0.800'
    """
    v = float(value)
    if math.isnan(v):
        return style.nan
    if math.isinf(v):
        return style.inf if v > 0 else style.neg_inf
    d = style.digits if digits is None else digits
    return f"{v:.{d}f}" if style.fixed else f"{v:.{d}g}"


def _left(width: int) -> Callable[[Any], str]:
    def fmt(v: Any) -> str:
        return f"{v!s:<{width}}"

    return fmt


def frame_text(title: str, frame: pd.DataFrame, max_rows: int = 12) -> str:
    """A result's ``repr``: a title line over its table (the first and last rows of a
    long one), numbers in the CLI's style.

    Examples
    --------
    >>> import pandas as pd
    >>> print(frame_text("Two rows", pd.DataFrame({"id": ["a", "b"], "value": [2 / 3, 1]})))
    Two rows
    id    value
    a  0.666667
    b         1
    """
    formatters: dict[Any, Callable[[Any], str]] = {}
    names: dict[Any, str] = {}
    for c in frame.columns:
        if frame[c].dtype.kind == "f":
            formatters[c] = format_number
        elif frame[c].dtype.kind == "O":  # text reads left-aligned, its header too
            width = max([len(str(c)), *(len(str(v)) for v in frame[c])])
            names[c] = f"{c!s:<{width}}"
            formatters[names[c]] = _left(width)
    body = frame.rename(columns=names).to_string(index=False, max_rows=max_rows,
                                                 formatters=formatters)
    return title + "\n" + "\n".join(line.rstrip() for line in body.splitlines())


def frame_html(title: str, frame: pd.DataFrame, max_rows: int = 30) -> str:
    """A result's ``_repr_html_``: the title over its table as HTML (long tables cut in
    the middle).

    Examples
    --------
    >>> import pandas as pd
    >>> frame_html("x < y", pd.DataFrame({"v": [0.5]})).startswith("<p><b>x &lt; y</b></p>")
    True
    """
    table = frame.to_html(index=False, max_rows=max_rows, na_rep="NaN",
                          float_format=lambda v: format_number(v), border=0)
    return f"<p><b>{html.escape(title)}</b></p>{table}"
