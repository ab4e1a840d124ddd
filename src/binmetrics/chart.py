"""The numbers of a chart (:class:`ChartData`) and the one renderer that draws them
(:func:`render`), below every computing layer.

A curve (:mod:`binmetrics.curves`) says what it looks like as a :class:`ChartData`:
its lines in data units (:class:`Series`), texts (:class:`Note`), axis labels and
limits. Every drawing of binmetrics reads that one description: a curve's
``.plot()`` and the plot kinds of :mod:`binmetrics.plot` hand it to :func:`render`
(matplotlib, imported only when drawing), and the HTML report
(:mod:`binmetrics.display.report`) draws the same series as SVG. The plot kinds
combine the charts of several models (:func:`combine`).

A class that defines ``chart(**options) -> ChartData`` and inherits :class:`Drawable`
gets ``plot(ax=None, **kwargs)``.

Examples
--------
>>> import numpy as np
>>> from binmetrics.chart import ChartData, Series
>>> cd = ChartData("line", "A line", "x", "y",
...                (Series(np.array([0.0, 1.0]), np.array([0.0, 2.0]), "y = 2x"),))
>>> [s.label for s in cd.series], cd.legend
(['y = 2x'], 'best')
>>> ax = render(cd)  # doctest: +SKIP
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from binmetrics.backends import axes
from binmetrics.formatting import PLOT, format_number

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = [
    "ChartData",
    "Drawable",
    "Heatmap",
    "Note",
    "Operating",
    "Series",
    "SeriesStyle",
    "combine",
    "fmt",
    "histogram_outline",
    "point_marker",
    "render",
    "series",
    "step_vertices",
]

FloatArray = npt.NDArray[np.float64]

#: How a series is drawn. Lines: "solid", "dashed", "dotted", "dashdot"; "markers":
#: markers only (a Line2D); "points": a scatter of markers (a collection); "segment":
#: a mark such as the KS gap; "bars": bars given by their outline
#: (:func:`histogram_outline`); "band": a filled region; "vline": a vertical line at
#: ``x[0]``.
SeriesStyle = Literal["solid", "dashed", "dotted", "dashdot", "markers", "points", "segment",
                      "bars", "band", "vline"]
#: ``operating(ev, confusion, values)``: a chart's point at some thresholds, from their
#: confusion matrices and the registry's confusion measures there (``values[id]``)
Operating = Callable[[Any, Any, Mapping[str, Any]], tuple[Any, Any]]

_EMPTY: Mapping[str, Any] = MappingProxyType({})
_DASH = {"solid": "-", "dashed": "--", "dotted": ":", "dashdot": "-."}
#: curves with more points than this get no point markers
_MAX_MARKERS = 200


def fmt(v: float) -> str:
    """A number in a legend or title (3 decimals).

    Examples
    --------
    >>> fmt(0.8), fmt(float("nan"))
    ('0.800', 'nan')
    """
    return format_number(v, PLOT)


def point_marker(n_points: int) -> str:
    """The point marker of a curve of ``n_points`` points: none when they are too many
    to tell apart.

    Examples
    --------
    >>> point_marker(10), point_marker(5000)
    ('o', '')
    """
    return "o" if n_points <= _MAX_MARKERS else ""


def step_vertices(x: Any, y: Any, where: Literal["pre", "post"]) -> tuple[FloatArray,
                                                                        FloatArray]:
    """The vertices of the step function through (x, y), as matplotlib draws it with
    ``drawstyle="steps-post"`` (``y[i]`` holds from ``x[i]`` to ``x[i+1]``) or
    ``"steps-pre"`` (``y[i]`` holds from ``x[i-1]`` to ``x[i]``): joining them by
    straight lines draws the steps, so a polyline renderer (and the thinning of the
    HTML report) sees the step function itself. The points are the even vertices.

    Examples
    --------
    >>> x, y = step_vertices([0, 1, 2], [5, 6, 7], "post")
    >>> x.tolist(), y.tolist()
    ([0.0, 1.0, 1.0, 2.0, 2.0], [5.0, 5.0, 6.0, 6.0, 7.0])
    >>> step_vertices([0, 1, 2], [5, 6, 7], "pre")[1].tolist()
    [5.0, 6.0, 6.0, 7.0, 7.0]
    """
    xs = np.asarray(x, dtype=np.float64).ravel()
    ys = np.asarray(y, dtype=np.float64).ravel()
    if xs.shape != ys.shape:
        raise ValueError(f"x and y must have equal length; got {xs.size} and {ys.size}")
    if where not in ("pre", "post"):
        raise ValueError(f"where must be 'pre' or 'post', got {where!r}")
    n = xs.size
    if n < 2:
        return xs.copy(), ys.copy()
    vx, vy = np.empty(2 * n - 1), np.empty(2 * n - 1)
    vx[0::2], vy[0::2] = xs, ys
    if where == "post":
        vx[1::2], vy[1::2] = xs[1:], ys[:-1]
    else:
        vx[1::2], vy[1::2] = xs[:-1], ys[1:]
    return vx, vy


def histogram_outline(low: Any, high: Any, height: Any) -> tuple[FloatArray, FloatArray]:
    """The outline of bars from ``low`` to ``high`` of the given heights, as one line
    (down to 0 between bars): four vertices per bar, for renderers that draw lines
    only; :func:`render` draws the bars back from them.

    Examples
    --------
    >>> x, y = histogram_outline([0, .5], [.5, 1], [.25, .75])
    >>> x.tolist(), y.tolist()
    ([0.0, 0.0, 0.5, 0.5, 0.5, 0.5, 1.0, 1.0], [0.0, 0.25, 0.25, 0.0, 0.0, 0.75, 0.75, 0.0])
    """
    lo, hi, h = (np.asarray(v, dtype=np.float64).ravel() for v in (low, high, height))
    zero = np.zeros_like(h)
    return (np.column_stack([lo, lo, hi, hi]).ravel(),
            np.column_stack([zero, h, h, zero]).ravel())


@dataclass(frozen=True, eq=False)
class Series:
    """One line (or set of points) of a chart, in data units.

    Attributes
    ----------
    x, y : ndarray
        The vertices to join by straight lines (a step function comes as its vertices,
        :func:`step_vertices`, with ``steps`` set); NaN breaks the line.
    label : str
        What it is, with its area or mean where it has one ("ROC, AUC = 0.800"); ""
        keeps it out of the legend.
    model : str or None
        The model's name (None for a single evaluation, and for shared lines).
    style : SeriesStyle, default "solid"
    shared : bool
        A baseline drawn once for every model (random line, loss functions).
    steps : {"pre", "post"} or None
        ``x``, ``y`` are the vertices of a step function through :attr:`points`.
    marker : str
        A matplotlib marker at each point ("" none).
    color : str or None
        A fixed colour (None: the model's colour; black for a shared line).
    width : float or None
        The line width.
    legend : bool
        Named in the legend.
    extra : mapping
        Further matplotlib properties (``markersize``, ``alpha``, ``zorder``...);
        other renderers ignore them.
    source : (curve, x column, y column) or None
        The curve object whose ``to_frame()`` holds these points in those columns.
    """

    x: FloatArray
    y: FloatArray
    label: str
    model: str | None = None
    style: SeriesStyle = "solid"
    shared: bool = False
    steps: Literal["pre", "post"] | None = None
    marker: str = ""
    color: str | None = None
    width: float | None = None
    legend: bool = True
    extra: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    source: tuple[Any, str, str] | None = None

    @property
    def points(self) -> tuple[FloatArray, FloatArray]:
        """The points: ``(x, y)``, or for a step function its corners (the even vertices)."""
        if self.steps is None:
            return self.x, self.y
        return self.x[0::2], self.y[0::2]


def series(x: Any, y: Any, label: str, model: str | None = None, style: SeriesStyle = "solid",
           shared: bool = False, **kwargs: Any) -> Series:
    """A :class:`Series` from array-likes: ``x`` and ``y`` as float arrays, a step function
    (``steps="pre"`` or ``"post"``) given by its points and expanded into its vertices;
    ``kwargs`` are the other fields of :class:`Series`.

    Examples
    --------
    >>> s = series([0, 1, 2], [1, 3, 2], "counts", steps="post")
    >>> s.x.tolist(), [v.tolist() for v in s.points]
    ([0.0, 1.0, 1.0, 2.0, 2.0], [[0.0, 1.0, 2.0], [1.0, 3.0, 2.0]])
    """
    steps = kwargs.get("steps")
    if steps is not None:
        x, y = step_vertices(x, y, steps)
    if "extra" in kwargs:
        kwargs["extra"] = MappingProxyType(dict(kwargs["extra"]))
    return Series(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64), label,
                  model, style, shared, **kwargs)


@dataclass(frozen=True, eq=False)
class Note:
    """A text of a chart at (x, y) in data units, in its model's colour; ``offset``
    moves it by points (matplotlib's ``xytext`` in offset points); ``extra`` holds
    further matplotlib text properties."""

    x: float
    y: float
    text: str
    model: str | None = None
    offset: tuple[float, float] | None = None
    extra: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)


@dataclass(frozen=True, eq=False)
class Heatmap:
    """A matrix of cells: ``shade`` in [0, 1] colours them, ``texts`` are written in
    them (rows, then columns)."""

    shade: FloatArray
    texts: tuple[tuple[str, ...], ...]
    row_labels: tuple[str, ...]
    col_labels: tuple[str, ...]
    cmap: str = "Blues"


@dataclass(frozen=True, eq=False)
class ChartData:
    """The numbers a chart draws, for every renderer: :func:`render` (matplotlib) and the
    HTML report read them, so a plot and the report cannot disagree.

    Attributes
    ----------
    kind, title, xlabel, ylabel : str
    series : tuple of Series
    xlim, ylim : (low, high)
        Fixed axis limits; a None end is the data's.
    operating : callable or None
        ``operating(ev, confusion, values)``: the chart's point of ``ev`` at thresholds
        whose confusion matrices and registry confusion measures are given (None: the
        chart has none).
    threshold_axis : bool
        The x axis is the threshold (the current threshold is a vertical line).
    notes : tuple of str
        Models left out, and why.
    texts : tuple of Note
    heatmap : Heatmap or None
    legend : str or None
        Where matplotlib puts the legend (None: no legend).
    pad : float
        Matplotlib widens the fixed limits by this fraction of their range.
    aspect : str or None
        "equal": one unit is as long on both axes.
    xticks, yticks : (positions, labels) or None
    """

    kind: str
    title: str
    xlabel: str
    ylabel: str
    series: tuple[Series, ...]
    xlim: tuple[float | None, float | None] = (None, None)
    ylim: tuple[float | None, float | None] = (None, None)
    operating: Operating | None = None
    threshold_axis: bool = False
    notes: tuple[str, ...] = ()
    texts: tuple[Note, ...] = ()
    heatmap: Heatmap | None = None
    legend: str | None = "best"
    pad: float = 0.0
    aspect: str | None = None
    xticks: tuple[Sequence[float], Sequence[str]] | None = None
    yticks: tuple[Sequence[float], Sequence[str]] | None = None

    @property
    def models(self) -> list[str | None]:
        """The models drawn, in their order (colour i is model i)."""
        named = [s.model for s in self.series if not s.shared]
        named += [t.model for t in self.texts if t.model is not None]
        return list(dict.fromkeys(named))


# --- several models on one chart -----------------------------------------------------------
def _same(a: Series, b: Series) -> bool:
    return (a.label == b.label and a.x.shape == b.x.shape and a.y.shape == b.y.shape
            and bool(np.array_equal(a.x, b.x, equal_nan=True))
            and bool(np.array_equal(a.y, b.y, equal_nan=True)))


def _union(lims: list[tuple[float | None, float | None]]) -> tuple[float | None, float | None]:
    lows, highs = [lo for lo, _ in lims], [hi for _, hi in lims]
    lo = None if any(v is None for v in lows) else min(v for v in lows if v is not None)
    hi = None if any(v is None for v in highs) else max(v for v in highs if v is not None)
    return lo, hi


def combine(charts: Sequence[tuple[str | None, ChartData]], **changes: Any) -> ChartData:
    """The charts of several models as one: each model's own series and texts named by
    it; a shared series (a baseline) once when every chart has the same, else one per
    model (e.g. the random line of a PR chart at each prevalence); fixed limits that
    cover every chart. The first chart gives the title, labels and the rest;
    ``changes`` replace fields of the result.

    Examples
    --------
    >>> import binmetrics as bm
    >>> a = bm.evaluate([1, 0, 1, 0], [.9, .8, .3, .1]).roc().chart()
    >>> b = bm.evaluate([1, 0, 1, 0], [.9, .2, .7, .1]).roc().chart()
    >>> cd = combine([("A", a), ("B", b)])
    >>> [(s.model, s.label) for s in cd.series]  # doctest: +NORMALIZE_WHITESPACE
    [('A', 'ROC, AUC = 0.750'), ('A', 'convex hull, AUCH = 0.875'),
     ('B', 'ROC, AUC = 1.000'), ('B', 'convex hull, AUCH = 1.000'), (None, 'random')]
    """
    if not charts:
        raise ValueError("combine needs at least one chart")
    own: list[Series] = []
    texts: list[Note] = []
    shared: dict[int, list[tuple[str | None, Series]]] = {}
    for name, cd in charts:
        k = 0
        for s in cd.series:
            if s.shared:
                shared.setdefault(k, []).append((name, s))
                k += 1
            else:
                own.append(replace(s, model=name))
        texts.extend(replace(t, model=name) for t in cd.texts)
    common: list[Series] = []
    for group in shared.values():
        first = group[0][1]
        if len(group) == len(charts) and all(_same(first, s) for _, s in group[1:]):
            common.append(first)
        else:  # a baseline that differs between models: each model's own
            kept: list[Series] = []
            for name, s in group:
                if not any(_same(s, t) for t in kept):
                    kept.append(s)
                    common.append(replace(s, model=name, shared=False, color=None))
    first_cd = charts[0][1]
    notes = tuple(n for _, cd in charts for n in cd.notes)
    out = replace(first_cd, series=tuple(own + common), texts=tuple(texts), notes=notes,
                  xlim=_union([cd.xlim for _, cd in charts]),
                  ylim=_union([cd.ylim for _, cd in charts]))
    return replace(out, **changes) if changes else out


# --- the renderer ----------------------------------------------------------------------------
def _label(model: str | None, text: str) -> str:
    return f"{model}: {text}" if model else text


def _padded(lim: tuple[float | None, float | None], pad: float
            ) -> tuple[float | None, float | None]:
    lo, hi = lim
    if pad and lo is not None and hi is not None:
        d = pad * (hi - lo)
        return lo - d, hi + d
    return lo, hi


def _draw_series(ax: Any, s: Series, colour: str, props: Mapping[str, Any]) -> None:
    label = _label(s.model, s.label) if s.label and s.legend else "_nolegend_"
    kw: dict[str, Any] = {"color": colour, "label": label}
    if s.width is not None:
        kw["linewidth"] = s.width
    kw.update(s.extra)
    kw.update(props)
    x, y = s.points
    if s.style == "points":
        kw.pop("linewidth", None)
        ax.scatter(x, y, marker=s.marker or "o", **kw)
    elif s.style == "markers":
        ax.plot(x, y, linestyle="none", marker=s.marker or "o", **kw)
    elif s.style == "bars":  # four outline vertices per bar
        kw.pop("linewidth", None)
        ax.bar(s.x[0::4], s.y[1::4], width=s.x[2::4] - s.x[0::4], align="edge", **kw)
    elif s.style == "band":
        kw.pop("linewidth", None)
        ax.fill(s.x, s.y, **{"alpha": 0.3, "linewidth": 0, **kw})
    elif s.style == "vline":
        ax.axvline(float(s.x[0]), **{"linestyle": ":", "linewidth": 1.0, **kw})
    else:
        style = _DASH.get(s.style, "-")
        if s.marker:
            kw.setdefault("marker", s.marker)
        if s.steps is not None:
            kw["drawstyle"] = f"steps-{s.steps}"
        kw.setdefault("linestyle", style)
        ax.plot(x, y, **kw)


def _heatmap(ax: Any, h: Heatmap) -> None:
    shade = np.asarray(h.shade, dtype=np.float64)
    ax.imshow(np.nan_to_num(shade), cmap=h.cmap, vmin=0.0, vmax=1.0)
    k = shade.shape[0]
    for r in range(k):
        for c in range(shade.shape[1]):
            dark = not np.isnan(shade[r, c]) and shade[r, c] > 0.5
            ax.text(c, r, h.texts[r][c], ha="center", va="center",
                    color="white" if dark else "black", fontsize="medium" if k <= 6 else "x-small")
    ax.set_xticks(range(shade.shape[1]), list(h.col_labels), rotation=0 if k <= 6 else 90)
    ax.set_yticks(range(k), list(h.row_labels))


def render(chart: ChartData, ax: Any = None, *, feature: str | None = None,
           **props: Any) -> Axes:
    """Draw ``chart`` on matplotlib Axes: the one renderer of every plot of binmetrics.

    Model i's series and texts are drawn in colour ``C{i}``, named "model: label" in
    the legend when there are several; shared series in their fixed colour (black by
    default). Step functions are drawn through their points with matplotlib's
    ``drawstyle``, so the Axes hold the curve's own points.

    Parameters
    ----------
    chart : ChartData
    ax : matplotlib Axes, optional
        Where to draw; default a new figure.
    feature : str, optional
        What is drawing, for the error when matplotlib is missing.
    **props
        Matplotlib properties for the models' own lines (``color="k"``, ``alpha=.5``).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import binmetrics as bm
    >>> roc_chart = bm.evaluate([1, 0, 1, 0], [.9, .8, .3, .1]).roc().chart()
    >>> ax = render(roc_chart)  # doctest: +SKIP
    """
    ax = axes(ax, feature or f"the {chart.kind} chart")
    index = {m: i for i, m in enumerate(chart.models)}
    if chart.heatmap is not None:
        _heatmap(ax, chart.heatmap)
    for s in chart.series:
        if s.shared:
            _draw_series(ax, s, s.color or "black", {})
        else:
            own = {} if s.style in ("bars", "band", "points", "markers") else props
            _draw_series(ax, s, s.color or f"C{index[s.model] % 10}", own)
    for t in chart.texts:
        kw: dict[str, Any] = {"color": f"C{index.get(t.model, 0) % 10}"}
        if t.offset is not None:
            kw.update(textcoords="offset points", xytext=t.offset)
        kw.update(t.extra)
        ax.annotate(t.text, (t.x, t.y), **kw)
    xlo, xhi = _padded(chart.xlim, chart.pad)
    ylo, yhi = _padded(chart.ylim, chart.pad)
    if xlo is not None or xhi is not None:
        ax.set_xlim(left=xlo, right=xhi)
    if ylo is not None or yhi is not None:
        ax.set_ylim(bottom=ylo, top=yhi)
    if chart.aspect is not None:
        ax.set_aspect(chart.aspect)
    if chart.xticks is not None:
        ax.set_xticks(list(chart.xticks[0]), list(chart.xticks[1]))
    if chart.yticks is not None:
        ax.set_yticks(list(chart.yticks[0]), list(chart.yticks[1]))
    ax.set_xlabel(chart.xlabel)
    ax.set_ylabel(chart.ylabel)
    ax.set_title(chart.title)
    if chart.legend is not None and any(s.label and s.legend for s in chart.series):
        ax.legend(loc=chart.legend, fontsize="small")
    return ax


class Drawable:
    """``plot(ax=None, **kwargs)`` for a result that defines ``chart(**options) ->
    ChartData``: the keywords ``chart`` takes choose what is drawn, the others are
    matplotlib properties of its own lines.

    Examples
    --------
    >>> import binmetrics as bm
    >>> roc = bm.evaluate([1, 0, 1, 0], [.9, .8, .3, .1]).roc()
    >>> [s.label for s in roc.chart(hull=False).series]
    ['ROC, AUC = 0.750', 'random']
    >>> ax = roc.plot(hull=False, color="k")  # doctest: +SKIP
    """

    #: ``chart(**options) -> ChartData``: the numbers of the chart, defined by the class
    chart: Callable[..., ChartData]

    def plot(self, ax: Any = None, **kwargs: Any) -> Axes:
        """Draw the chart on matplotlib Axes (default a new figure) and return them.

        Keywords that :meth:`chart` takes choose what is drawn; the others are
        matplotlib properties of the curve's own lines (``color``, ``linewidth``...).
        Needs matplotlib (``pip install 'binmetrics[plot]'``).
        """
        accepted = inspect.signature(self.chart).parameters
        options = {k: kwargs.pop(k) for k in list(kwargs) if k in accepted}
        return render(self.chart(**options), ax, feature=f"{type(self).__name__}.plot",
                      **kwargs)
