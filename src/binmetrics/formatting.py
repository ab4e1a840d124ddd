"""Numbers as text: the one formatter behind the CLI's tables, the HTML report and the
plots' legends, so the same value reads the same everywhere it is shown."""

from __future__ import annotations

import functools
import html
import math
from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["CLI", "HTML", "PLOT", "HypothesisTest", "NumberStyle", "Tabular", "format_number",
           "frame_html", "frame_text", "record_frame"]


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


def with_labels(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with its row labels as its first column(s), unless they are plain
    positions 0..n-1: a repr must not lose them (the models of a rank comparison, the
    regions of a Bayesian test).

    Examples
    --------
    >>> import pandas as pd
    >>> with_labels(pd.DataFrame({"wins": [2, 1]}, index=pd.Index(["gb", "lr"], name="model")))
      model  wins
    0    gb     2
    1    lr     1
    """
    import pandas as pd

    index = frame.index
    if isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1 \
            and index.name is None:
        return frame
    names = [n if n is not None else ("" if index.nlevels == 1 else f"level_{i}")
             for i, n in enumerate(index.names)]
    if any(n in frame.columns for n in names):  # a label already shown as a column
        return frame.reset_index(drop=True)
    return frame.reset_index(names=names)


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
    frame = with_labels(frame)
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
    table = with_labels(frame).to_html(index=False, max_rows=max_rows, na_rep="NaN",
                          float_format=lambda v: format_number(v), border=0)
    return f"<p><b>{html.escape(title)}</b></p>{table}"


def _scalar(v: Any) -> bool:
    return v is None or isinstance(v, (bool, int, float, str)) or (
        hasattr(v, "dtype") and getattr(v, "ndim", 1) == 0)


def record_frame(obj: Any) -> pd.DataFrame:
    """One row of a result's numbers: the scalar fields of a dataclass, an interval field
    (anything with ``low``, ``high``, ``level`` and ``method``) as its bounds, a tuple of
    scalars as one column per item, a nested dataclass (a Confusion) as its scalar
    fields; arrays and fields declared ``repr=False`` are left out.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class R:
    ...     n: int
    ...     p: tuple[float, float]
    >>> record_frame(R(3, (0.25, 0.5))).columns.tolist()
    ['n', 'p_1', 'p_2']
    """
    import pandas as pd

    row: dict[str, Any] = {}
    for f in fields(obj):
        if not f.repr:  # a field its class keeps out of sight (a nested full result)
            continue
        v = getattr(obj, f.name)
        if all(hasattr(v, a) for a in ("low", "high", "level", "method")):
            pre = "" if f.name == "ci" else f.name + "_"
            row.update({pre + "low": v.low, pre + "high": v.high, pre + "level": v.level,
                        pre + "ci_method": v.method})
        elif isinstance(v, tuple) and all(_scalar(x) for x in v):
            if len(v) == 1:
                row[f.name] = v[0]
            elif all(isinstance(x, str) for x in v):
                row[f.name] = ", ".join(v)
            else:
                row.update({f"{f.name}_{i}": x for i, x in enumerate(v, 1)})
        elif is_dataclass(v) and not isinstance(v, type):  # e.g. a Confusion: its counts
            for sub in fields(v):
                x = getattr(v, sub.name)
                if not sub.repr and not x:  # a detail shown only when it says something
                    continue
                if _scalar(x):
                    row[sub.name if sub.name not in row else f"{f.name}_{sub.name}"] = x
        elif _scalar(v):
            row[f.name] = v
    return pd.DataFrame([row])


def _upright(frame: pd.DataFrame) -> pd.DataFrame:
    """A wide one-row table as two columns, field and value (it reads down, not across)."""
    if len(frame) != 1 or frame.shape[1] <= 8:
        return frame
    import pandas as pd

    values = [format_number(v) if isinstance(v, float) else str(v) for v in frame.iloc[0]]
    return pd.DataFrame({"field": [str(c) for c in frame.columns], "value": values})


class Tabular:
    """A result that prints its numbers: ``repr`` is a title line over a compact table,
    ``_repr_html_`` the same table for notebooks, both built from ``to_frame()``.

    A result class inherits this and defines ``to_frame()`` (a dataclass of scalars
    can keep the default, :func:`record_frame`); ``_title()`` names it and ``_shown()``
    picks the columns shown (default: the whole frame). A dataclass that inherits it is
    declared with ``repr=False``, so the generated ``repr`` does not replace this one.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(repr=False)
    ... class Result(Tabular):
    ...     estimate: float
    ...     pvalue: float
    >>> Result(2 / 3, 0.01)
    Result
    estimate pvalue
    0.666667   0.01
    >>> Result(0.5, 0.2)._repr_html_().count("<table")
    1
    """

    _repr_rows: ClassVar[int] = 12

    def to_frame(self) -> pd.DataFrame:
        """The result's numbers as a pandas DataFrame (one row)."""
        if not is_dataclass(self):
            raise NotImplementedError(f"{type(self).__name__} defines no to_frame()")
        return record_frame(self)

    def _title(self) -> str:
        return type(self).__name__

    def _shown(self) -> pd.DataFrame:
        return self.to_frame()

    def __repr__(self) -> str:
        frame = self._shown()
        shown = _upright(frame)  # a record reads whole, a long table cut in the middle
        rows = self._repr_rows if shown is frame else len(shown)
        return frame_text(self._title(), shown, max_rows=rows)

    def _repr_html_(self) -> str:
        return frame_html(self._title(), self._shown())


class HypothesisTest(Tabular):
    """The result of a hypothesis test: one protocol for every test binmetrics runs.

    Every subclass carries ``statistic`` (the test statistic), ``pvalue``,
    ``alternative`` ("two-sided", "greater" or "less"; a test whose null is only
    rejected in one tail, such as a chi-square, says "two-sided" when it answers
    "is there any difference") and ``method`` (the test's name as the result computed
    it), and where the test has one, ``estimate`` (the tested quantity: a value, or
    for two models the difference ``value_a - value_b``) with ``ci`` (an
    :class:`~binmetrics.Interval` carrying ``low``, ``high`` and ``level``).
    ``to_frame()``, a readable ``repr`` and ``_repr_html_`` come from
    :class:`Tabular`. The names follow scipy.stats' result objects (``statistic``,
    ``pvalue``) and R's ``htest`` (``estimate``, ``conf.int``); docs/api-conventions.md
    lists them.

    Examples
    --------
    >>> import binmetrics as bm
    >>> t = bm.mcnemar_test([1, 0, 1, 1, 0, 1], [1, 0, 0, 1, 0, 1], [0, 0, 1, 1, 1, 0])
    >>> isinstance(t, bm.HypothesisTest), t.alternative, t.method
    (True, 'two-sided', 'exact')
    >>> round(t.pvalue, 4), round(t.estimate, 4)   # value_a - value_b
    (0.625, 0.3333)
    """

    #: the fields every test carries
    protocol_fields: ClassVar[tuple[str, ...]] = ("statistic", "pvalue", "alternative",
                                                  "method")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("to_frame")
        if own is not None:  # a result's own table still carries the protocol's columns
            @functools.wraps(own)
            def to_frame(self: HypothesisTest) -> pd.DataFrame:
                return self._with_protocol(own(self))

            cls.to_frame = to_frame  # type: ignore[method-assign]

    def to_frame(self) -> pd.DataFrame:
        """The result's numbers as a pandas DataFrame, with the protocol's fields
        (``statistic``, ``pvalue``, ``alternative``, ``method``) among its columns."""
        return self._with_protocol(super().to_frame())

    def _with_protocol(self, frame: pd.DataFrame) -> pd.DataFrame:
        for name in self.protocol_fields:
            if name not in frame.columns:
                frame[name] = getattr(self, name)
        return frame
