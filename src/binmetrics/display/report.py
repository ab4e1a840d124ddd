"""The self-contained interactive HTML report: :func:`report` and ``Evaluation.to_html``.

One HTML file with the measures table (family, direction, interval where computed,
source and formula on hover), the confusion matrix, every chart of
:data:`binmetrics.plot.KINDS` (see ``binmetrics.plot.kinds()``: the report draws, in
that order, each kind with data in :data:`binmetrics.plot.CHART_DATA`, from
:func:`binmetrics.plot.chart_data`, and a chart of any confusion measure against the
threshold), the paired tests of several models, and a threshold slider. Opening it
needs no network: the CSS, the script and the data are inline, and the charts are
SVG drawn by that script.

One measure, one definition: the browser computes no measure. For every slider
position (a threshold) the confusion matrix and the value of every confusion
measure of the registry are computed here, by the registry's own vectorised
functions on the count table's cumulative counts, and embedded (to
:data:`SIG_DIGITS` significant digits); the script only looks them up. Every number
in the tables is computed on the full data; only the curves are thinned for
display, with the error bound of :func:`thin_curve` shown in the report's footer.
"""

from __future__ import annotations

import heapq
import html
import json
import math
import os
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from binmetrics.evaluation.notebook import DIRECTION_TEXT, measure_title
from binmetrics.exceptions import UndefinedMeasureWarning, undefined_policy
from binmetrics.formatting import HTML, format_number
from binmetrics.io import check_writable, write_text
from binmetrics.measures.registry import Family, Measure, iter_measures
from binmetrics.table.counts import Confusion, chunks

if TYPE_CHECKING:
    from binmetrics.evaluation.binary import Evaluation
    from binmetrics.inference.paired import Comparison

__all__ = ["DEFAULT_MAX_POINTS", "DEFAULT_THRESHOLDS", "MAX_SLIDER_VALUES", "SIG_DIGITS",
           "Thinned", "report", "thin_curve"]

FloatArray = npt.NDArray[np.float64]

#: Points per curve above which a curve is thinned for display.
DEFAULT_MAX_POINTS = 1000
#: Slider positions (thresholds) at most.
DEFAULT_THRESHOLDS = 1000
#: Slider positions times models at most: the page embeds every confusion measure of
#: every model at every position, so this bounds its size (12 models: 500 positions).
MAX_SLIDER_VALUES = 6000
#: Significant digits of the embedded values (the page shows at most 10).
SIG_DIGITS = 10
#: Decimals of the drawn coordinates, in units of the axis range.
DECIMALS = 6
#: The first pass of :func:`thin_curve` keeps at most this many times ``max_points``.
_FIRST_PASS = 8
_FAMILY_TITLE: dict[Family, str] = {
    "confusion": "Confusion measures (at the slider's threshold)",
    "probabilistic": "Probabilistic measures", "ranking": "Ranking measures"}


# --- thinning ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Thinned:
    """A curve thinned for display.

    Attributes
    ----------
    x, y : ndarray
        The drawn points (rounded to ``decimals``).
    index : ndarray of int
        Which input points they are (the first and the last always are).
    error : float
        How far a point of the exact polyline can be from the drawn one (Euclidean,
        in the units of the input coordinates): measured exactly when there is no
        first pass (at most ``8 max_points`` points), else the first pass's bound
        h / 2 plus the measured distance of its points to the drawn line.
    bound : float
        The guarantee known before thinning: ``L / (max_points - 2)`` plus the
        rounding (``sqrt(2) / 2 * 10**-decimals``), L being the length of the curve;
        ``error <= bound`` always. 0-length curves and curves that need no thinning
        have only the rounding term.
    """

    x: FloatArray
    y: FloatArray
    index: npt.NDArray[np.intp]
    error: float
    bound: float


def _segment_distance(px: Any, py: Any, ax: Any, ay: Any, bx: Any, by: Any) -> Any:
    """Euclidean distance from points (px, py) to the segments [(ax, ay), (bx, by)]."""
    dx, dy = bx - ax, by - ay
    den = dx * dx + dy * dy
    rx, ry = px - ax, py - ay
    with np.errstate(invalid="ignore", divide="ignore"):
        t = (rx * dx + ry * dy) / den  # NaN where a segment has length 0: then t = 0
    t = np.nan_to_num(np.clip(t, 0.0, 1.0), nan=0.0)
    rx -= t * dx
    ry -= t * dy
    return np.hypot(rx, ry)


def _arc_keep(x: FloatArray, y: FloatArray, budget: int) -> tuple[npt.NDArray[np.intp], float]:
    """At most ``budget`` points such that consecutive kept points are neighbours or
    less than ``h = 2 L / (budget - 2)`` apart along the curve (L its length); returns
    them and h / 2, the bound on the distance of a skipped point to its chord.

    Arc length s is cut into buckets of width h; a point is kept when its bucket
    differs from a neighbour's, so each bucket keeps at most its first and last point
    and skipped points lie in one bucket with the kept points around them.
    """
    s = np.empty(x.size)
    s[0] = 0.0
    np.cumsum(np.hypot(np.diff(x), np.diff(y)), out=s[1:])
    length = float(s[-1])
    if length == 0.0:
        return np.array([0, x.size - 1], dtype=np.intp), 0.0
    h = 2.0 * length / (budget - 2) * (1.0 + 1e-12)
    b = np.floor(s / h)
    keep = np.ones(x.size, dtype=bool)
    keep[1:-1] = (b[1:-1] != b[:-2]) | (b[1:-1] != b[2:])
    return np.flatnonzero(keep), h / 2.0


def _dp_keep(x: FloatArray, y: FloatArray, budget: int, tol: float) -> npt.NDArray[np.intp]:
    """Douglas-Peucker, greedy: split the chord with the farthest point first, until
    ``budget`` points are kept or every point is within ``tol`` of its chord."""
    n = x.size
    keep = [0, n - 1]
    heap: list[tuple[float, int, int, int]] = []
    xl, yl = x.tolist(), y.tolist()  # Python floats: cheap scalar access
    tol2 = tol * tol

    def push(i: int, j: int) -> None:
        if j - i < 2:
            return
        ax, ay = xl[i], yl[i]
        dx, dy = xl[j] - ax, yl[j] - ay
        den = dx * dx + dy * dy
        rx, ry = x[i + 1:j] - ax, y[i + 1:j] - ay
        if den > 0.0:  # squared distance to the segment (t clipped to [0, 1])
            t = (rx * dx + ry * dy) / den
            np.maximum(t, 0.0, out=t)
            np.minimum(t, 1.0, out=t)
            rx -= t * dx
            ry -= t * dy
        d2 = rx * rx + ry * ry
        k = int(d2.argmax())
        if d2[k] > tol2:
            heapq.heappush(heap, (-float(d2[k]), i, j, i + 1 + k))

    push(0, n - 1)
    while heap and len(keep) < budget:
        _, i, j, k = heapq.heappop(heap)
        keep.append(k)
        push(i, k)
        push(k, j)
    return np.array(sorted(keep), dtype=np.intp)


def _deviation(x: FloatArray, y: FloatArray, idx: npt.NDArray[np.intp], xr: FloatArray,
               yr: FloatArray) -> float:
    """Largest distance from the polyline (x, y) to the drawn polyline (xr, yr) through
    the points ``idx``: each input point against the drawn chord spanning it (the
    distance to a segment is convex, so the points between vertices are no farther)."""
    if idx.size == 1:
        return float(np.max(np.hypot(x - xr[0], y - yr[0])))
    seg = np.repeat(np.arange(idx.size - 1), np.diff(idx))  # chord of each point
    seg = np.append(seg, idx.size - 2)  # the last point ends the last chord
    worst = 0.0
    for sl in chunks(x.size):  # blocks that stay in cache
        a = seg[sl]
        d = _segment_distance(x[sl], y[sl], xr[a], yr[a], xr[a + 1], yr[a + 1])
        worst = max(worst, float(d.max()))
    return worst


def thin_curve(x: Any, y: Any, *, max_points: int = DEFAULT_MAX_POINTS,
               decimals: int = DECIMALS) -> Thinned:
    """Thin a polyline to at most ``max_points`` points with a bounded, measured error.

    Coordinates are in units of the axis range (the report thins each curve in the
    box its chart draws, [0, 1] on both axes), so the error is a fraction of the
    axis in both coordinates.

    Rule: a curve of at most ``max_points`` points is only rounded. A longer one is
    first cut by arc length (keep a point where the arc length crosses a multiple
    of h, see below) to at most ``8 max_points`` points, then reduced to
    ``max_points`` by a greedy Douglas-Peucker (split the chord that is farthest from
    a point first). If the result strays farther than the guarantee, the plain arc
    length rule at ``max_points`` is used instead.

    Guarantee: with the arc-length rule at budget m, two consecutive drawn points
    are either neighbours on the exact curve or less than h = 2 L / (m - 2) apart
    along it (L the curve's length), so every exact point between them is within
    h / 2 = L / (m - 2) of the chord joining them (its distances to the two ends
    add up to less than h). Rounding to ``decimals`` adds at most
    sqrt(2) / 2 * 10**-decimals. The error actually reached is returned too (measured
    from the points, see :class:`Thinned`); it is what the report shows.

    Parameters
    ----------
    x, y : array-like of float
        The points, in drawing order, all finite.
    max_points : int, default 1000
        At least 10.
    decimals : int, default 6
        Rounding of the drawn coordinates.

    Returns
    -------
    Thinned

    Examples
    --------
    >>> import numpy as np
    >>> t = np.linspace(0, np.pi / 2, 100_001)
    >>> th = thin_curve(1 - np.cos(t), np.sin(t), max_points=200)
    >>> th.x.size <= 200, th.index[0], th.index[-1]
    (True, np.int64(0), np.int64(100000))
    >>> bool(th.error <= th.bound), th.bound < 1e-2
    (True, True)
    """
    xs = np.asarray(x, dtype=np.float64)
    ys = np.asarray(y, dtype=np.float64)
    if xs.ndim != 1 or xs.shape != ys.shape:
        raise ValueError(f"x and y must be 1-D of equal length; got {xs.shape} and {ys.shape}")
    if xs.size == 0:
        raise ValueError("a curve needs at least one point")
    if not (np.isfinite(xs).all() and np.isfinite(ys).all()):
        raise ValueError("curve coordinates must be finite")
    if isinstance(max_points, bool) or not isinstance(max_points, (int, np.integer)) \
            or max_points < 10:
        raise ValueError(f"max_points must be an integer >= 10, got {max_points!r}")
    rounding = math.sqrt(2.0) / 2.0 * 10.0 ** -decimals

    def rounded(idx: npt.NDArray[np.intp]) -> tuple[FloatArray, FloatArray]:
        return np.round(xs[idx], decimals), np.round(ys[idx], decimals)

    n = xs.size
    if n <= max_points:
        idx = np.arange(n, dtype=np.intp)
        xr, yr = rounded(idx)
        return Thinned(xr, yr, idx, _deviation(xs, ys, idx, xr, yr), rounding)
    length = float(np.sum(np.hypot(np.diff(xs), np.diff(ys))))
    bound = length / (max_points - 2) + rounding
    first, half_h = np.arange(n, dtype=np.intp), 0.0
    if n > _FIRST_PASS * max_points:
        first, half_h = _arc_keep(xs, ys, _FIRST_PASS * max_points)
    # refining below the first pass's error, or below the rounding, would not show
    sub = _dp_keep(xs[first], ys[first], max_points, max(half_h, 0.5 * 10.0 ** -decimals))
    idx = first[sub]
    xr, yr = rounded(idx)
    # exact points -> first pass: within half_h; first pass -> drawn: measured
    err = half_h + _deviation(xs[first], ys[first], sub, xr, yr)
    if err > bound:  # the greedy split did worse than the plain rule guarantees
        idx, _ = _arc_keep(xs, ys, max_points)
        xr, yr = rounded(idx)
        err = _deviation(xs, ys, idx, xr, yr)
    return Thinned(xr, yr, idx, err, bound)


# --- the data behind the report ------------------------------------------------------------
def _jsonable(values: Any, shown: int | None = None, digits: int | None = SIG_DIGITS
              ) -> list[Any]:
    """Floats for JSON, rounded to ``digits`` significant digits (None: exact): NaN ->
    null, +-inf -> "Infinity"/"-Infinity" (the script reads them), whole numbers as
    ints when all are. With ``shown``, a value whose rounding would change its display
    at ``shown`` digits (one within 10**-digits of a rounding boundary) is kept exact,
    so the page shows what ``_fmt(v, shown)`` shows."""
    a = np.asarray(values, dtype=np.float64).ravel()
    finite = np.isfinite(a)
    if finite.all() and np.all(a == np.round(a)) and np.all(np.abs(a) < 2.0 ** 53):
        return a.astype(np.int64).tolist()  # exact counts: short JSON
    vals: list[Any] = a.tolist()
    out: list[Any]
    if digits is not None:
        spec = f".{digits}g"
        out = [float(format(v, spec)) for v in vals]  # "nan", "inf" parse back
        if shown is not None:
            show = f".{shown}g"
            out = [q if q == v or format(q, show) == format(v, show) else v
                   for q, v in zip(out, vals, strict=True)]
    else:
        out = vals
    if not finite.all():
        out = [v if math.isfinite(v) else (None if math.isnan(v) else
                                           ("Infinity" if v > 0 else "-Infinity"))
               for v in out]
    return out


def _coords(values: Any) -> list[Any]:
    """Drawn coordinates (axis units): rounded to DECIMALS, null where not finite."""
    a = np.round(np.asarray(values, dtype=np.float64), DECIMALS)
    out: list[Any] = a.tolist()
    if not np.isfinite(a).all():
        out = [v if math.isfinite(v) else None for v in out]
    return out


def _norm(v: Any, lo: float, hi: float) -> FloatArray:
    return (np.asarray(v, dtype=np.float64) - lo) / (hi - lo)


def _positions(thresholds: int, evs: list[Evaluation]) -> int:
    """Slider positions: ``thresholds``, at most MAX_SLIDER_VALUES / models (the page
    embeds every confusion measure of every model at every position), and never fewer
    than the positions every report has (+inf, the lowest score, each own threshold)."""
    needed = 2 + len({ev.threshold for ev in evs})
    return max(min(thresholds, needed), min(thresholds, MAX_SLIDER_VALUES // len(evs)))


def _grid(evs: list[Evaluation], budget: int) -> FloatArray:
    """Slider thresholds, ascending: cut points of the tables, spread evenly over the
    cases of each model, with +inf (nothing positive), the lowest score (everything
    positive) and every model's own threshold."""
    own = sorted({ev.threshold for ev in evs})
    lowest = min(float(ev.table.scores[-1]) for ev in evs)
    extras = [math.inf, lowest, *own]
    if budget < len(set(extras)):
        raise ValueError(f"thresholds={budget} is too few slider positions: +inf, the lowest "
                         f"score and the models' thresholds need {len(set(extras))}")
    per_model = max(1, (budget - len(set(extras))) // len(evs))
    picked = []
    for ev in evs:
        t = ev.table
        if t.n_distinct <= per_model:
            picked.append(t.scores)
            continue
        cum = t.cum[1:]
        levels = np.linspace(0.0, float(cum[-1]), per_model + 1)[1:]
        k = np.unique(np.minimum(np.searchsorted(cum, levels, side="left"), t.n_distinct - 1))
        picked.append(t.scores[k])
    grid = np.unique(np.concatenate([*picked, np.array(extras)]))
    if grid.size > budget:  # several models' picks can overlap little: keep the extras
        keep = np.isin(grid, extras)
        rest = np.flatnonzero(~keep)
        take = rest[np.linspace(0, rest.size - 1, budget - int(keep.sum())).round().astype(int)]
        keep[take] = True
        grid = grid[keep]
    return grid


def _threshold_range(evs: list[Evaluation]) -> tuple[float, float]:
    """The x range of the charts against the threshold: from the lowest score to the
    point where ``plot.threshold`` draws the cut "nothing positive" (right of the
    highest score), as the threshold chart's data span."""
    from binmetrics.display.plot import _threshold_axis

    lo = min(float(ev.table.scores[-1]) for ev in evs)
    hi = max(float(_threshold_axis(ev.table.thresholds())[0]) for ev in evs)
    return lo, hi


def _confusion_values(ev: Evaluation, grid: FloatArray, measures: list[Measure]
                      ) -> tuple[Confusion, dict[str, FloatArray]]:
    """The confusion matrix and every confusion measure at each slider threshold, by
    the registry's vectorised functions on the table's cumulative counts."""
    t = ev.table
    k = np.searchsorted(-t.scores, -grid, side="right")  # scores >= threshold: t.cut_index
    cuts = t.cuts()
    c = Confusion(tp=cuts.tp[k], fp=cuts.fp[k], fn=cuts.fn[k], tn=cuts.tn[k])
    values = {}
    with undefined_policy("ignore"), np.errstate(all="ignore"):
        for m in measures:
            v = np.asarray(m.func(c, **m.resolve_params()), dtype=np.float64)
            values[m.id] = np.broadcast_to(v, grid.shape).copy()
    return c, values


@dataclass(frozen=True)
class _LineThinning:
    """The footer's row of one drawn line: exact and drawn points, error and bound."""

    points: int
    drawn: int
    error: float
    bound: float


@dataclass
class _ModelData:
    name: str
    ev: Evaluation
    values: dict[str, float]
    reasons: dict[str, str]
    intervals: dict[str, tuple[float, float, str]]
    confusion: Confusion
    grid_values: dict[str, FloatArray]
    payload: dict[str, Any]
    thinning: dict[str, _LineThinning] = field(default_factory=dict)


def _model_data(name: str, ev: Evaluation, grid: FloatArray, conf_measures: list[Measure],
                ci: bool | Mapping[str, Any]) -> _ModelData:
    """Every measure at the model's threshold, its intervals, and the confusion matrix
    and confusion measures at the slider positions (warnings go to the caller)."""
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        values = ev.to_dict()
        intervals: dict[str, tuple[float, float, str]] = {}
        if ci is not False:
            kwargs = dict(ci) if isinstance(ci, Mapping) else {}
            frame = ev.ci_table(**kwargs)
            intervals = {r.id: (float(r.low), float(r.high), str(r.method))
                         for r in frame.itertuples()}
    reasons: dict[str, str] = {}
    for w in rec:
        if isinstance(w.message, UndefinedMeasureWarning):
            for mid in w.message.measures:
                reasons.setdefault(mid, w.message.reason)
    for w in rec:  # to the caller's record
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    c, gv = _confusion_values(ev, grid, conf_measures)
    own = int(np.searchsorted(grid, ev.threshold))
    payload = {
        "name": name,
        "own": own,
        "counts": {k: _jsonable(v) for k, v in c.as_dict().items()},  # shown with 10 digits
        "values": {k: _jsonable(v, shown=6) for k, v in gv.items()},
        "reasons": {k: reasons[k] for k in gv if k in reasons and math.isnan(gv[k][own])},
        "markers": {},
        "charts": {},
    }
    return _ModelData(name, ev, values, reasons, intervals, c, gv, payload)


def _limits(lim: tuple[float | None, float | None], series: list[Any], axis: str
            ) -> list[float]:
    """An axis range: the chart's fixed ends, the data's extent for the others."""
    lo, hi = lim
    if lo is None or hi is None:
        vals = [getattr(s, axis) for s in series]
        finite = np.concatenate([v[np.isfinite(v)] for v in vals]) if vals else np.empty(0)
        if finite.size:
            lo = float(finite.min()) if lo is None else lo
            hi = float(finite.max()) if hi is None else hi
    lo = 0.0 if lo is None else lo
    hi = lo + 1.0 if hi is None else hi
    if hi <= lo:
        lo, hi = lo - 0.5, lo + 0.5
    return [lo, hi]


def _thin_line(x: FloatArray, y: FloatArray, max_points: int
               ) -> tuple[list[Any], list[Any], _LineThinning]:
    """A line in axis units thinned piece by piece (NaN/inf break it, as in matplotlib),
    the pieces joined by nulls (the script lifts the pen there)."""
    ok = np.isfinite(x) & np.isfinite(y)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], ok.astype(np.int8), [0]))))
    n_ok = max(int(ok.sum()), 1)
    xs: list[Any] = []
    ys: list[Any] = []
    error = bound = 0.0
    for a, b in zip(edges[0::2], edges[1::2], strict=True):
        th = thin_curve(x[a:b], y[a:b], max_points=max(10, max_points * int(b - a) // n_ok))
        if xs:
            xs.append(None)
            ys.append(None)
        xs.extend(th.x.tolist())
        ys.extend(th.y.tolist())
        error, bound = max(error, th.error), max(bound, th.bound)
    drawn = sum(v is not None for v in xs)
    return xs, ys, _LineThinning(int(ok.sum()), drawn, error, bound)


def _series_payload(s: Any, xr: list[float], yr: list[float], max_points: int
                    ) -> tuple[list[Any], _LineThinning | None]:
    """``[xs, ys, style, label, class]`` of one series in axis units, and its thinning."""
    x, y = _norm(s.x, *xr), _norm(s.y, *yr)
    cls = "ref random" if s.shared and s.label.startswith("random") else \
        "ref" if s.shared else "line"
    if s.style in ("points", "segment") or s.shared:
        return [_coords(x), _coords(y), s.style, s.label, cls], None
    xs, ys, th = _thin_line(x, y, max_points)
    return [xs, ys, s.style, s.label, cls], th


@dataclass
class _Chart:
    spec: dict[str, Any]
    data: Any  # plot.ChartData


def _charts(data: list[_ModelData], grid: FloatArray, t_range: tuple[float, float],
            max_points: int, notes: list[str]) -> list[_Chart]:
    """The charts of ``plot.KINDS`` that have chart data (``plot.CHART_DATA``), in that
    order, from :func:`binmetrics.plot.chart_data`: their specs and each model's series
    and operating points (in the models' payloads), thinned; notes on models left out."""
    from binmetrics.display import plot

    same = len({(md.ev.table.total, md.ev.table.P) for md in data}) == 1
    options: dict[str, dict[str, Any]] = {
        "gain": {"normalize": not same}, "lift": {"normalize": not same},
        "loss": {"center": "threshold", "max_points": max_points},
    }
    index: dict[str | None, int] = {md.name: i for i, md in enumerate(data)}
    models = {md.name: md.ev for md in data}
    out = []
    for kind in plot.KINDS:
        if plot.CHART_DATA[kind] is None:  # shown from the slider's values: the measure
            continue  # chart and the confusion matrix
        cd = plot.chart_data(kind, models, **options.get(kind, {}))
        notes.extend(cd.notes)
        if not cd.series:
            continue
        series = list(cd.series)
        xr = [*t_range] if cd.threshold_axis else _limits(cd.xlim, series, "x")
        yr = _limits(cd.ylim, series, "y")
        shared = []
        for s in series:
            payload, th = _series_payload(s, xr, yr, max_points)
            if s.shared:
                shared.append(payload)
                continue
            md = data[index[s.model]]
            md.payload["charts"].setdefault(kind, []).append(payload)
            if th is not None:
                md.thinning[f"{kind}: {s.label}"] = th
        if cd.operating is not None:
            for name in {s.model for s in series if not s.shared}:
                md = data[index[name]]
                px, py = cd.operating(md.ev, md.confusion, md.grid_values)
                md.payload["markers"][kind] = [_coords(_norm(px, *xr)), _coords(_norm(py, *yr))]
        out.append(_Chart({"id": kind, "title": cd.title, "x": xr, "y": yr,
                           "xlabel": cd.xlabel, "ylabel": cd.ylabel,
                           "marker": cd.operating is not None, "vline": cd.threshold_axis,
                           "shared": shared}, cd))
    return out


# --- HTML ----------------------------------------------------------------------------------
def _fmt(v: float, digits: int = 6) -> str:
    """The report's number format; report.js's ``fmt`` gives the same strings."""
    return format_number(v, HTML, digits=digits)


def _num_attr(v: float) -> str:
    """A float as the data-value attribute: repr round-trips exactly (JS: String(v))."""
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return repr(float(v))


def _e(s: Any) -> str:
    return html.escape(str(s), quote=True)


def _short(name: str, width: int = 40) -> str:
    """A model name for a button: at most ``width`` characters (the full one in titles)."""
    return name if len(name) <= width else name[:width - 1] + "\u2026"


def _asset(name: str) -> str:
    return resources.files("binmetrics.display").joinpath("report_assets", name).read_text("utf-8")


def _measures_table(models: list[_ModelData], j0: int) -> str:
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
                          f"[{_e(_fmt(iv[0]))}, {_e(_fmt(iv[1]))}]</span>")
                title = f" title='{_e(why)}'" if why else ""
                cells.append(f"<td class='v'><span id='bm-v-{i}-{_e(m.id)}' "
                             f"data-value='{_num_attr(v)}'{title}>{_e(_fmt(v))}</span>{ci}</td>")
            rows.append(
                f"<tr data-family='{family}'><th scope='row' title='{_e(measure_title(m))}'>"
                f"{_e(m.name)} <code>{_e(m.id)}</code></th><td>{family}</td>"
                f"<td>{DIRECTION_TEXT[m.direction]}</td>{''.join(cells)}</tr>")
    return (f"<table id='bm-measures' class='measures'><thead><tr><th scope='col'>measure</th>"
            f"<th scope='col'>family</th><th scope='col'>direction</th>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def _confusion_tables(models: list[_ModelData], j0: int) -> str:
    out = []
    for i, md in enumerate(models):
        c = {k: float(np.asarray(v)[j0]) for k, v in md.confusion.as_dict().items()}

        def cell(k: str, c: dict[str, float] = c, i: int = i) -> str:
            return (f"<td id='bm-cm-{i}-{k}' data-value='{_num_attr(c[k])}'>"
                    f"{_e(_fmt(c[k], 10))}</td>")

        out.append(  # rows = actual, columns = predicted, as plot.confusion_matrix
            f"<table class='cm' id='bm-cm-{i}'><caption class='m{i % 8}' title='{_e(md.name)}'>"
            f"{_e(_short(md.name))}</caption>"
            "<tr><td></td><th scope='col'>predicted positive</th>"
            "<th scope='col'>predicted negative</th></tr>"
            f"<tr><th scope='row'>actual positive</th>{cell('tp')}{cell('fn')}</tr>"
            f"<tr><th scope='row'>actual negative</th>{cell('fp')}{cell('tn')}</tr>"
            "</table>")
    return "".join(out)


def _paired_mismatch(paired: Comparison, models: list[_ModelData]) -> str:
    """A note when the paired tests cut at another threshold than a model they compare."""
    other = [f"{md.name!r} ({_fmt(md.ev.threshold, 10)})" for md in models
             if md.name in paired.names and md.ev.threshold != paired.threshold]
    if not other:
        return ""
    return (f"the paired tests cut at threshold {_fmt(paired.threshold, 10)}, but the rest of "
            f"the report cuts {', '.join(other)} at its own threshold: the confusion measures "
            "of the paired table are not those of the measures table")


def _paired_table(paired: Comparison, mismatch: str = "") -> str:
    frame = paired.to_frame()
    body = []
    for r in frame.itertuples():
        body.append(
            f"<tr><td>{_e(r.model_a)}</td><td>{_e(r.model_b)}</td><td>{_e(r.measure)}</td>"
            f"<td>{_e(_fmt(r.value_a))}</td><td>{_e(_fmt(r.value_b))}</td>"
            f"<td>{_e(_fmt(r.difference))}</td><td>[{_e(_fmt(r.low))}, {_e(_fmt(r.high))}]</td>"
            f"<td>{_e(_fmt(r.pvalue, 4))}</td><td>{_e(r.method)}</td></tr>")
    warn = f"<p class='warn' id='bm-paired-note'>Note: {_e(mismatch)}.</p>" if mismatch else ""
    return (f"{warn}<table id='bm-paired' class='paired'><caption>Paired tests on the same "
            f"cases: threshold {_e(_fmt(paired.threshold))}, {_e(_fmt(paired.level * 100))}% "
            f"intervals of A \u2212 B, {_e(paired.alternative)}</caption><thead><tr>"
            "<th>model A</th><th>model B</th><th>measure</th><th>A</th><th>B</th>"
            "<th>A \u2212 B</th><th>interval</th><th>p-value</th><th>method</th></tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>")


def _summary(models: list[_ModelData]) -> str:
    rows = []
    for i, md in enumerate(models):
        ev = md.ev
        t = ev.table
        n = ev.n_rows if ev.n_rows is not None else t.total
        pos = ev.n_positive_rows if ev.n_positive_rows is not None else t.P
        weighted = (f"; weighted: total {_fmt(t.total, 10)}, positives {_fmt(t.P, 10)}"
                    if t.weighted else "")
        omitted = f"; {ev.n_omitted} rows omitted (non-finite score)" if ev.n_omitted else ""
        rows.append(f"<li><b class='m{i % 8}'>{_e(md.name)}</b>: {_e(_fmt(n, 12))} cases, "
                    f"{_e(_fmt(pos, 12))} positive (label {_e(repr(ev.pos_label))}), prevalence "
                    f"{_e(_fmt(t.prevalence))}, {t.n_distinct} distinct scores, threshold "
                    f"{_e(_fmt(ev.threshold, 10))}{_e(weighted)}{_e(omitted)}</li>")
    return f"<ul class='summary'>{''.join(rows)}</ul>"


def _footer(models: list[_ModelData], max_points: int, version: str, exact_slider: bool,
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
        "pass, then a greedy Douglas-Peucker; <code>binmetrics.report.thin_curve</code>): "
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


def _finite_json(obj: Any) -> Any:
    """``obj`` with every non-finite float as JSON can hold it (null, "Infinity")."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None if math.isnan(obj) else ("Infinity" if obj > 0 else "-Infinity")
    if isinstance(obj, dict):
        return {k: _finite_json(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_finite_json(v) for v in obj]
    return obj


def _script_json(obj: Any) -> str:
    try:  # the embedded arrays hold no NaN or inf already: skip the walk
        text = json.dumps(obj, separators=(",", ":"), allow_nan=False)
    except ValueError:
        text = json.dumps(_finite_json(obj), separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# --- writing -------------------------------------------------------------------------------
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
    models: Evaluation | Mapping[str, Evaluation],
    path: str | os.PathLike[str] | None = None,
    *,
    title: str | None = None,
    ci: bool | Mapping[str, Any] = False,
    paired: Comparison | None = None,
    max_points: int = DEFAULT_MAX_POINTS,
    thresholds: int = DEFAULT_THRESHOLDS,
    notes: Sequence[str] = (),
) -> str:
    """A self-contained interactive HTML report of one or several evaluations.

    The file holds every measure of the registry (family, direction, source and
    formula on hover, an interval where asked), the confusion matrix (rows actual,
    columns predicted, as :func:`binmetrics.plot.confusion_matrix`), the charts of
    ``binmetrics.plot.kinds()`` from :func:`binmetrics.plot.chart_data` (Berrar
    Figs. 4, 5, 7 and the reliability diagram; a kind that does not apply to a model,
    e.g. the reliability diagram of scores outside [0, 1], leaves it out with a
    note), a chart of any confusion measure against the threshold, and a threshold
    slider: moving it moves the operating point on the charts and updates the
    confusion matrix and every confusion measure. Nothing is computed in the
    browser: the values at each slider position come from the registry's functions
    (DESIGN.md, "one measure, one definition"). It needs no network to open.

    Parameters
    ----------
    models : Evaluation or mapping of name to Evaluation
        Several models are overlaid in the charts and get one column each.
    path : path, optional
        Also write the HTML there, atomically (a temporary file in the same folder,
        then a rename). The folder is checked before any work.
    title : str, optional
        Default: "binmetrics report" and the model names.
    ci : bool or mapping, default False
        Add intervals from :meth:`Evaluation.ci_table` (exact for proportions, DeLong
        for the AUC, the bootstrap for the rest); a mapping is passed to it as
        keywords, e.g. ``{"n_resamples": 500, "random_state": 0}``.
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
        Capped at ``MAX_SLIDER_VALUES // len(models)`` (6000 positions times models
        in all: 500 for 12 models), which keeps the file's size bounded.
    notes : sequence of str, optional
        Shown in the report's Notes (e.g. how the paired tests were chosen).

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
    entries = _check_models(models)
    max_points = _check_count(max_points, "max_points", 10)
    thresholds = _check_count(thresholds, "thresholds", 3)
    if not (ci is True or ci is False or isinstance(ci, Mapping)):
        raise TypeError(f"ci must be True, False or a mapping of ci_table options; got {ci!r}")
    if isinstance(notes, str) or not all(isinstance(n, str) for n in notes):
        raise TypeError(f"notes must be a sequence of strings; got {notes!r}")
    names = [n for n, _ in entries]
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
    evs = [ev for _, ev in entries]
    positions = _positions(thresholds, evs)
    grid = _grid(evs, positions)
    t_range = _threshold_range(evs)
    conf = list(iter_measures("confusion"))
    chart_notes: list[str] = list(notes)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        data = [_model_data(n, ev, grid, conf, ci) for n, ev in entries]
        charts = _charts(data, grid, t_range, max_points, chart_notes)
    mismatch = _paired_mismatch(paired, data) if paired is not None else ""
    if mismatch:
        chart_notes.append(mismatch[0].upper() + mismatch[1:])
    for w in {str(w.message): w for w in caught}.values():  # each message once
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if mismatch:
        warnings.warn(mismatch, UserWarning, stacklevel=2)
    j0 = data[0].payload["own"]
    from binmetrics.version import __version__

    title = title or "binmetrics report: " + ", ".join(names)
    gx = _norm(grid, *t_range)
    gx[np.isposinf(grid)] = 1.0  # +inf (nothing positive): where plot.threshold draws it
    payload = {
        "grid": {"threshold": _jsonable(grid, digits=None), "start": j0, "x": _coords(gx)},
        "confusion": [m.id for m in conf],
        "names": {m.id: m.name for m in conf},
        "charts": [c.spec for c in charts],
        "measureChart": {"x": list(t_range)},
        "models": [md.payload for md in data],
    }
    exact_slider = all(md.ev.table.n_distinct < grid.size
                       and np.isin(md.ev.table.scores, grid).all() for md in data)
    script = _asset("report.js")
    if "</script" in script.lower():  # pragma: no cover - a guard on the asset
        raise RuntimeError("report.js must not contain '</script'")
    paired_html = ("<section id='bm-paired-tests'><h2>Paired tests</h2>"
                   f"{_paired_table(paired, mismatch)}</section>" if paired is not None else "")
    own = ", ".join(f"{md.name}: {_fmt(md.ev.threshold, 10)}" for md in data)
    page = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="binmetrics {_e(__version__)}">
<title>{_e(title)}</title>
<style>
{_asset("report.css")}
</style>
</head>
<body>
<header><h1>{_e(title)}</h1>{_summary(data)}</header>
<main>
<section id="bm-threshold-box" aria-label="threshold">
<label for="bm-slider">Threshold (score &#8805; t is predicted positive)</label>
<input type="range" id="bm-slider" min="0" max="{grid.size - 1}" step="1" value="{j0}">
<output id="bm-threshold" for="bm-slider" data-value="{_num_attr(grid[j0])}">\
{_e(_fmt(float(grid[j0]), 10))}</output>
<button type="button" id="bm-reset" title="own thresholds: {_e(own)}">back to \
{_e(_short(data[0].name))}'s threshold</button>
<span id="bm-position">position {j0 + 1} of {grid.size}</span>
</section>
<section id="bm-confusion"><h2>Confusion matrix</h2><div class="cms">\
{_confusion_tables(data, j0)}</div></section>
<section id="bm-charts"><h2>Charts</h2><div class="legend" id="bm-legend"></div>
<div class="charts" id="bm-chart-grid"><noscript>The charts need JavaScript.</noscript></div>
</section>
<section id="bm-measures-box"><h2>Measures</h2>{_measures_table(data, j0)}</section>
{paired_html}
{_notes(caught, chart_notes)}
</main>
{_footer(data, max_points, __version__, exact_slider, grid.size)}
<script type="application/json" id="bm-data">{_script_json(payload)}</script>
<script>
{script}
</script>
</body>
</html>
"""
    if out_path is not None:
        write_text(out_path, page)
    return page
