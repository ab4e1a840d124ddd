"""The registry of plot kinds: :func:`register_plot_kind`, :data:`PLOT_KINDS`, and the one
path every chart of an evaluation takes: :func:`chart_data` (the numbers, from the
kind's data producer) and :func:`draw` (those numbers on matplotlib Axes, by
:func:`binmetrics.chart.render`).

A plot kind is one declaration: a producer ``data(models, **options) -> ChartData``
(``models`` a list of ``(name or None, Evaluation)``) registered with
:func:`register_plot_kind`. ``ev.plot(kind)``, ``bm.plot.draw(kind, ...)``,
``bm.plot.chart_data(kind, ...)`` and the HTML report all call that producer; nothing
else computes the series. The built-in kinds are declared so in
:mod:`binmetrics.evaluation.chart_data`.

Examples
--------
>>> import binmetrics as bm
>>> from binmetrics.chart import ChartData, series
>>> @bm.plot.register_plot_kind("score_histogram", title="score histogram",
...                             description="the scores of each class")
... def score_histogram(models, *, bins=5):
...     out = []
...     for name, ev in models:
...         t = ev.table
...         for cls, w in (("positives", t.pos), ("negatives", t.neg)):
...             h, edges = np.histogram(t.scores, bins=bins, range=(0, 1), weights=w)
...             out.append(series(edges[:-1], h, cls, name, style="markers"))
...     return ChartData("score_histogram", "Scores", "score", "cases", tuple(out))
>>> ev = bm.evaluate([1, 1, 0, 1, 0], [.9, .7, .6, .4, .1])
>>> cd = bm.plot.chart_data("score_histogram", ev, bins=2)
>>> [(s.label, s.y.tolist()) for s in cd.series]
[('positives', [1.0, 2.0]), ('negatives', [1.0, 1.0])]
>>> ax = ev.plot("score_histogram")  # doctest: +SKIP
>>> bm.plot.unregister_plot_kind("score_histogram")
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from binmetrics.chart import ChartData, render, series
from binmetrics.evaluation.chart_inputs import (
    Models,
    models_of,
    need_both,
    operating_threshold,
    table_cut,
)
from binmetrics.exceptions import undefined_policy
from binmetrics.measures import REGISTRY, get_measure

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = [
    "CHART_DATA",
    "KINDS",
    "PLOT_KINDS",
    "PlotKind",
    "chart_data",
    "draw",
    "kinds",
    "register_plot_kind",
    "unregister_plot_kind",
]

#: ``report_options(models, max_points) -> options``: what the HTML report passes a
#: kind's producer, given its models and its points per curve
ReportOptions = Callable[[Sequence[tuple[str | None, Any]], int], Mapping[str, Any]]


@dataclass(frozen=True)
class PlotKind:
    """One kind of plot of an evaluation, declared once by :func:`register_plot_kind`;
    :data:`PLOT_KINDS`, :data:`KINDS`, :data:`CHART_DATA` and :func:`kinds` read it.

    Attributes
    ----------
    name : str
        ``draw(name, ev)``, ``ev.plot(name)``; also what a measure's ``plot`` names
        (:class:`~binmetrics.measures.registry.Measure`).
    data : callable
        The producer: ``data(models, **options) -> ChartData`` (``models`` a list of
        ``(name or None, Evaluation)`` the kind applies to).
    title : str
        What the chart is called ("ROC curve"); the HTML report names it next to the
        measures it shows.
    description : str
        What the chart shows, and where in Berrar's paper (the table of kinds of
        :mod:`binmetrics.plot` is made of them).
    needs_both_classes : bool
        Draws only evaluations with positives and negatives.
    needs_probabilities : bool
        Draws only scores in [0, 1] (the report shows it in its calibration section).
    multiclass : bool
        Also draws a :class:`~binmetrics.MulticlassEvaluation`.
    in_report : bool
        The HTML report draws it from its chart data (the measure chart and the
        confusion matrix are shown there from the slider's values instead).
    report_options : callable or None
        ``report_options(models, max_points) -> options`` for the report's call of
        the producer (None: its defaults).
    draw : callable
        ``draw(ev_or_models, *, ax=None, **options) -> Axes``: the producer's chart
        drawn by :func:`binmetrics.chart.render`.
    """

    name: str
    data: Callable[..., ChartData]
    title: str
    description: str
    needs_both_classes: bool = False
    needs_probabilities: bool = False
    multiclass: bool = False
    in_report: bool = True
    report_options: ReportOptions | None = None
    draw: Callable[..., Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        def draw_kind(ev_or_models: Any, *, ax: Any = None, **options: Any) -> Axes:
            cd = _chart(self, ev_or_models, options, strict=True)
            return render(cd, ax, feature=f"plot.{self.name}")

        draw_kind.__name__ = draw_kind.__qualname__ = self.name
        draw_kind.__doc__ = f"Draw the {self.title}: {self.description}."
        object.__setattr__(self, "draw", draw_kind)

    def applies_to(self, ev: Any) -> bool:
        """Whether this kind can draw the evaluation ``ev``."""
        from binmetrics.evaluation.chart_inputs import MulticlassSource

        if isinstance(ev, MulticlassSource):
            return self.multiclass
        t = ev.table
        return ((not self.needs_both_classes or (t.P > 0 and t.N > 0))
                and (not self.needs_probabilities or t.probabilities_ok))

    def options_for_report(self, models: Sequence[tuple[str | None, Any]], max_points: int
                           ) -> dict[str, Any]:
        """The options the HTML report passes the producer for these models."""
        if self.report_options is None:
            return {}
        return dict(self.report_options(models, max_points))


_KINDS: dict[str, PlotKind] = {}
_DRAW: dict[str, Callable[..., Any]] = {}
_DATA: dict[str, Callable[..., ChartData]] = {}

#: The plot kinds of an evaluation, in their order of declaration: name ->
#: :class:`PlotKind`. ``Evaluation.plot``, the HTML report and the CLI read this;
#: :func:`register_plot_kind` adds to it.
PLOT_KINDS: Mapping[str, PlotKind] = MappingProxyType(_KINDS)
#: name -> ``draw(ev_or_models, *, ax=None, **options)``, in :data:`PLOT_KINDS` order.
KINDS: Mapping[str, Callable[..., Any]] = MappingProxyType(_DRAW)
#: name -> the producer ``data(models, **options) -> ChartData``, in the same order.
CHART_DATA: Mapping[str, Callable[..., ChartData]] = MappingProxyType(_DATA)

_NAME = re.compile(r"[a-z][a-z0-9_]*\Z")


def register_plot_kind(
    name: str,
    *,
    title: str,
    description: str,
    needs_both_classes: bool = False,
    needs_probabilities: bool = False,
    multiclass: bool = False,
    in_report: bool = True,
    report_options: ReportOptions | None = None,
) -> Callable[[Callable[..., ChartData]], Callable[..., ChartData]]:
    """Declare a plot kind: decorate its data producer, as measures are declared
    (:func:`binmetrics.measures.registry.register`).

    The producer takes ``models``, a list of ``(name or None, Evaluation)`` (only those
    the kind applies to), and keyword options, and returns the chart's numbers as a
    :class:`~binmetrics.chart.ChartData` (a curve's ``chart()`` gives one; several
    models' charts join with :func:`binmetrics.chart.combine`). Once declared, the kind
    is drawn by ``ev.plot(name)`` and ``bm.plot.draw(name, ...)`` (the generic
    renderer :func:`binmetrics.chart.render`), its numbers are
    ``bm.plot.chart_data(name, ...)``, it is listed by ``bm.plot.kinds()``, a measure
    can name it as its ``plot``, and the HTML report draws it (``in_report``).
    ``operating_point=`` marks a threshold on any kind whose chart has an ``operating``
    function or a threshold axis.

    Parameters
    ----------
    name : str
        Lower case letters, digits and underscores; not a kind already declared.
    title, description : str
        What the chart is called, and what it shows.
    needs_both_classes, needs_probabilities, multiclass, in_report : bool
        See :class:`PlotKind`.
    report_options : callable, optional
        ``report_options(models, max_points) -> options`` for the report's call.

    Returns
    -------
    callable
        The decorator; it returns the producer unchanged.

    Examples
    --------
    >>> import binmetrics as bm
    >>> from binmetrics.chart import combine
    >>> @bm.plot.register_plot_kind("roc_only", title="ROC curve alone",
    ...                             description="the ROC curve without its hull",
    ...                             needs_both_classes=True)
    ... def roc_only(models):
    ...     return combine([(n, ev.roc().chart(hull=False)) for n, ev in models])
    >>> ev = bm.evaluate([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.2])
    >>> [s.label for s in bm.plot.chart_data("roc_only", ev).series]
    ['ROC, AUC = 0.750', 'random']
    >>> "roc_only" in bm.plot.kinds(ev)
    True
    >>> bm.plot.unregister_plot_kind("roc_only")
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"a plot kind's name is lower case letters, digits and underscores, "
                         f"starting with a letter; got {name!r}")
    if name in _KINDS:
        raise RuntimeError(f"plot kind {name!r} is declared twice (unregister_plot_kind "
                           "removes the first)")

    def deco(data: Callable[..., ChartData]) -> Callable[..., ChartData]:
        if not callable(data):
            raise TypeError(f"plot kind {name!r}: the producer must be callable; got "
                            f"{type(data).__name__}")
        kind = PlotKind(name, data, title, description, needs_both_classes,
                        needs_probabilities, multiclass, in_report, report_options)
        _KINDS[name] = kind
        _DRAW[name] = kind.draw
        _DATA[name] = data
        return data

    return deco


def unregister_plot_kind(name: str) -> None:
    """Remove a plot kind (for tests and sessions that declare a throwaway kind).

    Examples
    --------
    >>> import binmetrics as bm
    >>> bm.plot.unregister_plot_kind("no_such_kind")
    Traceback (most recent call last):
    ...
    KeyError: "no plot kind 'no_such_kind' is declared"
    """
    if name not in _KINDS:
        raise KeyError(f"no plot kind {name!r} is declared")
    del _KINDS[name], _DRAW[name], _DATA[name]


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def kinds(ev: Any = None) -> list[str]:
    """The plot kinds, in :data:`PLOT_KINDS` order; given an evaluation, those that can draw
    it (the curves need both classes, the reliability diagram and the decision curve
    probabilities; a :class:`~binmetrics.MulticlassEvaluation` has its confusion matrix).

    Examples
    --------
    >>> import binmetrics as bm
    >>> bm.plot.kinds()[:4]
    ['roc', 'threshold', 'pr', 'prg']
    >>> "reliability" in bm.plot.kinds(bm.evaluate([1, 0, 1], [2.5, -1.0, 0.3]))
    False
    """
    if ev is None:
        return list(_KINDS)
    return [name for name, k in _KINDS.items() if k.applies_to(ev)]


def _charted_measure_names() -> list[str]:
    """The ids and aliases of the measures whose chart is declared (``Measure.plot``)."""
    return [_key(n) for m in REGISTRY.values() if m.plot is not None for n in (m.id, *m.aliases)]


def _resolve(name: Any) -> tuple[PlotKind, dict[str, Any]]:
    """The plot kind named ``name`` (a kind, or a measure whose ``plot`` is declared)
    and the options it implies (``measure=<id>`` for the kind "measure")."""
    key = _key(name) if isinstance(name, str) else None
    if key is not None and key in _KINDS:
        return _KINDS[key], {}
    m = None
    if key:
        try:
            m = get_measure(name)
        except KeyError:
            m = None
    listing = ", ".join(_KINDS)
    if m is not None and m.plot is not None:
        if m.plot not in _KINDS:  # pragma: no cover - a guard on the registry
            raise ValueError(f"the measure {m.id} declares plot={m.plot!r}, which is not a "
                             f"plot kind; the kinds: {listing}")
        return _KINDS[m.plot], ({"measure": m.id} if m.plot == "measure" else {})
    if m is not None:
        alias = f" ({m.id})" if key != m.id else ""
        raise ValueError(f"no plot kind draws the measure {name!r}{alias}; the kinds: "
                         f"{listing}")
    close = (difflib.get_close_matches(str(key or name), list(_KINDS), n=1)
             or difflib.get_close_matches(str(key or name), _charted_measure_names(), n=1))
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(f"unknown plot kind {name!r}{hint}; the kinds: {listing}")


def draw(kind: str, ev_or_models: Any, *, ax: Any = None, **kwargs: Any) -> Axes:
    """Draw the plot ``kind`` of :data:`PLOT_KINDS`: ``draw("roc", ev)`` is ``roc(ev)``.

    Kind names ignore case, and spaces or hyphens stand for underscores
    ("confusion matrix"). A name that is no kind but the id or alias of a measure
    whose chart the registry declares (its ``plot``) draws that chart:
    ``draw("auc", ev)`` is ``roc(ev)``, and a confusion measure's is
    ``measure(ev, measure=<id>)`` (``draw("f1", ev)``; parameters such as ``beta=2``
    pass through). ``operating_point=`` (a threshold, or True for each evaluation's
    own) marks the point at that threshold, or a vertical line on a chart against the
    threshold.

    Examples
    --------
    >>> import binmetrics as bm
    >>> bm.plot.draw("rco", bm.evaluate([1, 0], [0.8, 0.3]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown plot kind 'rco' (did you mean 'roc'?); the kinds: roc, threshold, ...
    >>> ax = bm.plot.draw("gini", bm.evaluate([1, 0], [0.8, 0.3]))  # doctest: +SKIP
    """
    plot_kind, implied = _resolve(kind)
    clash = set(implied) & set(kwargs)
    if clash:
        raise TypeError(f"plot {kind!r} draws the measure {implied['measure']}; "
                        f"draw('measure', ..., measure=...) draws others")
    return plot_kind.draw(ev_or_models, ax=ax, **implied, **kwargs)


# --- the numbers of each chart ----------------------------------------------------------------
class _AtCut(Mapping[str, Any]):
    """The registry's confusion measures of one confusion matrix, computed when read."""

    def __init__(self, confusion: Any) -> None:
        self._c = confusion

    def __getitem__(self, key: str) -> Any:
        m = get_measure(key)
        with undefined_policy("ignore"), np.errstate(all="ignore"):
            return m.func(self._c, **m.resolve_params())

    def __iter__(self) -> Iterator[str]:
        return iter(m.id for m in REGISTRY.values() if m.family == "confusion")

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _operating_points(kind: PlotKind, cd: ChartData, models: Models, at: Any) -> ChartData:
    """``cd`` with each model's point at the threshold ``at`` (True: its own), by the
    chart's ``operating`` function; a vertical line on a threshold axis."""
    if cd.operating is None and not cd.threshold_axis:
        raise TypeError(f"plot.{kind.name} marks no operating point (operating_point= is "
                        "for charts with an operating point or a threshold axis)")
    marks = []
    for name, ev in models:
        th = operating_threshold(ev, at)
        if th is None:
            continue
        text = f"threshold {th:g}"
        if cd.threshold_axis:
            marks.append(series([th], [np.nan], text, name, style="vline"))
            continue
        assert cd.operating is not None
        c = ev.table.confusion(table_cut(ev, th))
        x, y = (float(np.asarray(v)) for v in cd.operating(ev, c, _AtCut(c)))
        if np.isfinite(x) and np.isfinite(y):  # e.g. no precision with nothing positive
            marks.append(series([x], [y], text, name, style="markers", marker="o",
                                extra={"markersize": 8, "markerfacecolor": "white"}))
    own = [s for s in cd.series if not s.shared]
    rest = [s for s in cd.series if s.shared]
    return replace(cd, series=(*own, *marks, *rest))


def _left_out(kind: PlotKind, name: str | None, ev: Any) -> str:
    who = f"model {name!r}" if name else "the evaluation"
    t = ev.table
    if kind.needs_probabilities and not t.probabilities_ok:
        why = (f"its scores range over [{t.scores[-1]:g}, {t.scores[0]:g}], not probabilities "
               "in [0, 1]")
    else:
        why = f"it has no {'positives' if t.P == 0 else 'negatives'}"
    return f"{kind.name} chart: {who} is left out: {why}"


def _require(kind: PlotKind, name: str | None, ev: Any, feature: str) -> None:
    """An error unless the kind can draw ``ev``."""
    if kind.applies_to(ev):
        return
    if kind.needs_both_classes:
        need_both(name, ev, feature)
    t = ev.table
    who = f" (model {name!r})" if name else ""
    raise ValueError(f"{feature}{who}: the {kind.title} needs probabilities in [0, 1]; the "
                     f"scores range over [{t.scores[-1]:g}, {t.scores[0]:g}]")


def _chart(kind: PlotKind, ev_or_models: Any, options: dict[str, Any], *, strict: bool
           ) -> ChartData:
    """The kind's chart of the models: an error for a model it cannot draw (``strict``),
    else that model left out with a note."""
    feature = f"plot.{kind.name}" if strict else f"chart_data({kind.name!r})"
    models = models_of(ev_or_models, feature, multiclass=kind.multiclass)
    at = options.pop("operating_point", None)
    notes: tuple[str, ...] = ()
    if strict:
        for name, ev in models:
            _require(kind, name, ev, feature)
        fit = models
    else:
        fit = [(name, ev) for name, ev in models if kind.applies_to(ev)]
        notes = tuple(_left_out(kind, name, ev) for name, ev in models
                      if not kind.applies_to(ev))
    if not fit:
        return ChartData(kind.name, kind.name, "", "", (), notes=notes)
    cd = kind.data(fit, **options)
    if at is not None and at is not False:
        cd = _operating_points(kind, cd, fit, at)
    return replace(cd, notes=cd.notes + notes)


def chart_data(kind: str, ev_or_models: Any, **options: Any) -> ChartData:
    """The numbers the chart ``kind`` draws, in data units, for any renderer: what
    ``draw(kind, ...)`` draws, from the kind's producer.

    Models the kind cannot draw (one class only; scores that are not probabilities
    for "reliability") are left out with a note instead of an error.

    Parameters
    ----------
    kind : str
        A kind of :data:`PLOT_KINDS`.
    ev_or_models : Evaluation or mapping name -> Evaluation
    **options
        The kind's options (``normalize`` for gain and lift, ``n_bins`` for the
        reliability diagram, ``interpolation`` for pr...), and ``operating_point``.

    Returns
    -------
    ChartData

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> tpr = bm.plot.chart_data("threshold", ev).series[0]
    >>> tpr.label, tpr.x[1:5].tolist(), tpr.y[:5].tolist()  # steps: 0 above .95, then .2
    ('TPR', [0.95, 0.95, 0.8, 0.8], [0.0, 0.0, 0.2, 0.2, 0.4])
    >>> tpr.points[1][:3].tolist()  # the step function's corners
    [0.0, 0.2, 0.4]
    """
    key = _key(kind) if isinstance(kind, str) else None
    plot_kind = _KINDS.get(key) if key is not None else None
    if plot_kind is None:
        raise ValueError(f"chart_data: no chart data for kind {kind!r}; the kinds: "
                         f"{', '.join(_KINDS)}")
    return _chart(plot_kind, ev_or_models, dict(options), strict=False)
