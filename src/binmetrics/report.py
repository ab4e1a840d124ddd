"""The self-contained interactive HTML report: :func:`report` and ``Evaluation.to_html``.

One HTML file with the measures table (family, direction, interval where computed,
source and formula on hover), the charts (ROC with its convex hull and the random
line, precision-recall, precision-recall-gain, gain and lift with their random
baselines, TPR and FPR against the threshold with the KS gap, any confusion measure
against the threshold; Berrar Figs. 4-5), the confusion matrix, the paired tests of
several models, and a threshold slider. Opening it needs no network: the CSS, the
script and the data are inline, and the charts are SVG drawn by that script.

One measure, one definition: the browser computes no measure. For every slider
position (a threshold) the confusion matrix and the value of every confusion
measure of the registry are computed here, by the registry's own vectorised
functions on the count table's cumulative counts, and embedded; the script only
looks them up. Every number in the tables is computed on the full data; only the
curves are thinned for display, with the error bound of :func:`thin_curve` shown
in the report's footer.
"""

from __future__ import annotations

import contextlib
import heapq
import html
import json
import math
import os
import tempfile
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .counts import Confusion, chunks
from .exceptions import UndefinedMeasureWarning, undefined_policy
from .measures.registry import Family, Measure, iter_measures

if TYPE_CHECKING:
    from .evaluation import Evaluation
    from .paired import Comparison

__all__ = ["DEFAULT_MAX_POINTS", "DEFAULT_THRESHOLDS", "Thinned", "report", "thin_curve"]

FloatArray = npt.NDArray[np.float64]

#: Points per curve above which a curve is thinned for display.
DEFAULT_MAX_POINTS = 1000
#: Slider positions (thresholds) at most.
DEFAULT_THRESHOLDS = 1000
#: Decimals of the drawn coordinates, in units of the axis range.
DECIMALS = 6
#: The first pass of :func:`thin_curve` keeps at most this many times ``max_points``.
_FIRST_PASS = 8
_DIRECTION = {1: "\u2191 higher", -1: "\u2193 lower", 0: "\u2013 none"}
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

    def push(i: int, j: int) -> None:
        if j - i < 2:
            return
        d = _segment_distance(x[i + 1:j], y[i + 1:j], x[i], y[i], x[j], y[j])
        k = int(d.argmax())
        if d[k] > tol:
            heapq.heappush(heap, (-float(d[k]), i, j, i + 1 + k))

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
def _jsonable(values: Any) -> list[Any]:
    """Floats for JSON: NaN -> null, +-inf -> "Infinity"/"-Infinity" (the script reads them)."""
    a = np.asarray(values, dtype=np.float64)
    out: list[Any] = a.tolist()
    if not np.isfinite(a).all():
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


@dataclass
class _Axes:
    """The data ranges of the charts whose axes depend on the data."""

    counts: bool  # gain/lift in cases and positives (one data set) or in fractions
    total: float
    positives: float
    lift_max: float
    t_lo: float
    t_hi: float


def _axes(evs: list[Evaluation]) -> _Axes:
    same = len({(ev.table.total, ev.table.P) for ev in evs}) == 1
    lifts = []
    for ev in evs:
        t = ev.table
        if t.P > 0:
            with np.errstate(invalid="ignore", divide="ignore"):
                lift = (t.tp[1:] / t.cum[1:]) / t.prevalence
            lifts.append(float(np.nanmax(lift)))
    lo = min(float(ev.table.scores[-1]) for ev in evs)
    hi = max(float(ev.table.scores[0]) for ev in evs)
    if hi == lo:
        lo, hi = lo - 0.5, hi + 0.5
    return _Axes(counts=same, total=float(evs[0].table.total), positives=float(evs[0].table.P),
                 lift_max=max([*lifts, 1.0]), t_lo=lo, t_hi=hi)


def _cases_xy(ax: _Axes, ev: Evaluation, cases: Any, positives: Any) -> tuple[FloatArray,
                                                                              FloatArray]:
    """Cases selected and positives found, in units of the gain chart's axes."""
    t = ev.table
    if ax.counts:
        return _norm(cases, 0.0, ax.total), _norm(positives, 0.0, ax.positives or 1.0)
    return _norm(cases, 0.0, t.total), _norm(positives, 0.0, t.P or 1.0)


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
    thinning: dict[str, Thinned]


def _curves(ev: Evaluation, ax: _Axes, max_points: int
            ) -> tuple[dict[str, Any], dict[str, Thinned], dict[str, Any]]:
    """The thinned curves of one model (in axis units), their errors, and extras."""
    t = ev.table
    raw: dict[str, tuple[Any, Any]] = {}
    extra: dict[str, Any] = {}
    if t.P > 0 and t.N > 0:
        roc = ev.roc()
        raw["roc"] = (roc.fpr, roc.tpr)
        hull = roc.hull()
        raw["hull"] = (hull.fpr, hull.tpr)
        pr = ev.pr()
        raw["pr"] = (pr.recall, pr.precision)
        prg = ev.prg()
        shown = prg.recall_gain >= 0
        raw["prg"] = (prg.recall_gain[shown], prg.precision_gain[shown])
        tc = ev.threshold_curves()
        tx = _norm(tc.thresholds[1:], ax.t_lo, ax.t_hi)
        raw["tpr"] = (tx, tc.tpr[1:])
        raw["fpr"] = (tx, tc.fpr[1:])
        k_thr, ks = tc.ks()
        if math.isfinite(ks) and math.isfinite(k_thr):
            k = int(np.flatnonzero(tc.thresholds == k_thr)[0])
            extra["ks"] = {"x": _coords([_norm(k_thr, ax.t_lo, ax.t_hi)])[0],
                           "y0": float(np.round(tc.fpr[k], DECIMALS)),
                           "y1": float(np.round(tc.tpr[k], DECIMALS)), "value": ks,
                           "threshold": k_thr}
        lift = ev.lift()
        lx, _ = _cases_xy(ax, ev, lift.n_selected, lift.n_selected)
        raw["lift"] = (lx, np.asarray(lift.lift) / ax.lift_max)
        extra["prevalence"] = t.prevalence
        extra["lift1"] = 1.0 / ax.lift_max
    gain = ev.gain()
    raw["gain"] = _cases_xy(ax, ev, gain.n_selected, gain.positives)
    bx, by = _cases_xy(ax, ev, [0.0, t.total], [0.0, t.P])
    extra["random_gain"] = [_coords(bx), _coords(by)]
    curves: dict[str, Any] = {}
    thinning: dict[str, Thinned] = {}
    for key, (x, y) in raw.items():
        x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
        ok = np.isfinite(x) & np.isfinite(y)
        if not ok.any():
            continue
        th = thin_curve(x[ok], y[ok], max_points=max_points)
        thinning[key] = th
        curves[key] = [th.x.tolist(), th.y.tolist()]
    return curves, thinning, extra


def _model_data(name: str, ev: Evaluation, grid: FloatArray, ax: _Axes,
                conf_measures: list[Measure], ci: bool | Mapping[str, Any],
                max_points: int, caught: list[warnings.WarningMessage]) -> _ModelData:
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        values = ev.to_dict()
        intervals: dict[str, tuple[float, float, str]] = {}
        if ci is not False:
            kwargs = dict(ci) if isinstance(ci, Mapping) else {}
            frame = ev.ci_table(**kwargs)
            intervals = {r.id: (float(r.low), float(r.high), str(r.method))
                         for r in frame.itertuples()}
        curves, thinning, extra = _curves(ev, ax, max_points)
    reasons: dict[str, str] = {}
    for w in rec:
        if isinstance(w.message, UndefinedMeasureWarning):
            for mid in w.message.measures:
                reasons.setdefault(mid, w.message.reason)
    caught.extend(rec)
    c, gv = _confusion_values(ev, grid, conf_measures)
    gx, gy = _cases_xy(ax, ev, c.tp + c.fp, c.tp)
    markers = {  # the operating point on each chart, at each slider position
        "roc": [_coords(gv["fpr"]), _coords(gv["tpr"])],
        "pr": [_coords(gv["tpr"]), _coords(gv["ppv"])],
        "gain": [_coords(gx), _coords(gy)],
        "lift": [_coords(gx), _coords(gv["lift"] / ax.lift_max)],
    }
    payload = {
        "name": name,
        "own": int(np.searchsorted(grid, ev.threshold)),
        "counts": {k: _jsonable(v) for k, v in c.as_dict().items()},
        "values": {k: _jsonable(v) for k, v in gv.items()},
        "markers": markers,
        "curves": curves,
        "extra": extra,
    }
    return _ModelData(name, ev, values, reasons, intervals, c, gv, payload, thinning)


def _chart_specs(ax: _Axes) -> list[dict[str, Any]]:
    cases = "cases selected" if ax.counts else "fraction of cases selected"
    found = "positives found" if ax.counts else "fraction of positives found"
    xr = [0.0, ax.total] if ax.counts else [0.0, 1.0]
    yr = [0.0, ax.positives] if ax.counts else [0.0, 1.0]
    unit = [0.0, 1.0]
    return [
        {"id": "roc", "title": "ROC curve and convex hull", "x": unit, "y": unit,
         "xlabel": "false positive rate", "ylabel": "true positive rate",
         "lines": [["roc", ""], ["hull", "4 3"]], "marker": "roc", "ref": "diagonal"},
        {"id": "pr", "title": "Precision-recall", "x": unit, "y": unit,
         "xlabel": "recall (TPR)", "ylabel": "precision (PPV)", "lines": [["pr", ""]],
         "marker": "pr", "ref": "prevalence"},
        {"id": "prg", "title": "Precision-recall-gain", "x": unit, "y": unit,
         "xlabel": "recall gain", "ylabel": "precision gain", "lines": [["prg", ""]],
         "marker": None, "ref": None},
        {"id": "gain", "title": "Gain chart", "x": xr, "y": yr, "xlabel": cases,
         "ylabel": found, "lines": [["gain", ""]], "marker": "gain", "ref": "random_gain"},
        {"id": "lift", "title": "Lift chart", "x": xr, "y": [0.0, ax.lift_max],
         "xlabel": cases, "ylabel": "lift", "lines": [["lift", ""]], "marker": "lift",
         "ref": "lift1"},
        {"id": "rates", "title": "TPR and FPR against the threshold (KS gap)",
         "x": [ax.t_lo, ax.t_hi], "y": unit, "xlabel": "threshold",
         "ylabel": "TPR (solid), FPR (dashed)", "lines": [["tpr", ""], ["fpr", "4 3"]],
         "marker": "rates", "ref": "ks"},
    ]


# --- HTML ----------------------------------------------------------------------------------
def _fmt(v: float, digits: int = 6) -> str:
    """The report's number format; report.js's ``fmt`` gives the same strings."""
    if math.isnan(v):
        return "undefined"
    if math.isinf(v):
        return "\u221e" if v > 0 else "\u2212\u221e"
    return f"{v:.{digits}g}"


def _num_attr(v: float) -> str:
    """A float as the data-value attribute: repr round-trips exactly (JS: String(v))."""
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return repr(float(v))


def _e(s: Any) -> str:
    return html.escape(str(s), quote=True)


def _asset(name: str) -> str:
    return resources.files("binmetrics").joinpath("report_assets", name).read_text("utf-8")


def _measure_title(m: Measure) -> str:
    params = ", ".join(f"{k}={v!r}" for k, v in m.params.items())
    return (f"{m.name} \u2014 {m.source}\n{m.formula}" + (f"\nparameters: {params}"
                                                          if params else ""))


def _measures_table(models: list[_ModelData], j0: int) -> str:
    head = "".join(f"<th scope='col' class='model m{i % 8}'>{_e(md.name)}</th>"
                   for i, md in enumerate(models))
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
                f"<tr data-family='{family}'><th scope='row' title='{_e(_measure_title(m))}'>"
                f"{_e(m.name)} <code>{_e(m.id)}</code></th><td>{family}</td>"
                f"<td>{_DIRECTION.get(m.direction, str(m.direction))}</td>{''.join(cells)}</tr>")
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

        out.append(
            f"<table class='cm' id='bm-cm-{i}'><caption class='m{i % 8}'>{_e(md.name)}</caption>"
            "<tr><td></td><th scope='col'>actual positive</th>"
            "<th scope='col'>actual negative</th></tr>"
            f"<tr><th scope='row'>predicted positive</th>{cell('tp')}{cell('fp')}</tr>"
            f"<tr><th scope='row'>predicted negative</th>{cell('fn')}{cell('tn')}</tr>"
            "</table>")
    return "".join(out)


def _paired_table(paired: Comparison) -> str:
    frame = paired.to_frame()
    body = []
    for r in frame.itertuples():
        body.append(
            f"<tr><td>{_e(r.model_a)}</td><td>{_e(r.model_b)}</td><td>{_e(r.measure)}</td>"
            f"<td>{_e(_fmt(r.value_a))}</td><td>{_e(_fmt(r.value_b))}</td>"
            f"<td>{_e(_fmt(r.difference))}</td><td>[{_e(_fmt(r.low))}, {_e(_fmt(r.high))}]</td>"
            f"<td>{_e(_fmt(r.pvalue, 4))}</td><td>{_e(r.method)}</td></tr>")
    return (f"<table id='bm-paired' class='paired'><caption>Paired tests on the same cases: "
            f"threshold {_e(_fmt(paired.threshold))}, {_e(_fmt(paired.level * 100))}% "
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


def _footer(models: list[_ModelData], max_points: int, version: str) -> str:
    worst = max(((th.error, md.name, key) for md in models for key, th in md.thinning.items()),
                default=(0.0, "", ""))
    rows = "".join(
        f"<tr><td>{_e(md.name)}</td><td>{_e(key)}</td><td>{th.index[-1] + 1}</td>"
        f"<td>{th.x.size}</td><td>{th.error:.2e}</td><td>{th.bound:.2e}</td></tr>"
        for md in models for key, th in md.thinning.items())
    return (
        "<footer><p>Every number in the tables is computed on the full data. Curves of more "
        f"than {max_points} points are thinned for display (an arc-length pass, then a greedy "
        "Douglas-Peucker; <code>binmetrics.report.thin_curve</code>): every point of an exact "
        "curve lies within \u03b5 of the drawn line, in both coordinates, \u03b5 being a "
        "fraction of the chart's axis range; guaranteed \u03b5 \u2264 L/(max_points \u2212 2) "
        "+ 7.1e-7 (L the curve's length in those units, 7.1e-7 the rounding of the drawn "
        f"coordinates). Largest here: <b id='bm-eps'>\u03b5 = {worst[0]:.2e}</b>"
        + (f" ({_e(worst[2])}, {_e(worst[1])})" if worst[1] else "") + ".</p>"
        "<details><summary>\u03b5 of each curve</summary><table class='eps'><thead><tr>"
        "<th>model</th><th>curve</th><th>points</th><th>drawn</th><th>\u03b5 measured</th>"
        f"<th>\u03b5 guaranteed</th></tr></thead><tbody>{rows}</tbody></table></details>"
        "<p>The slider moves through thresholds chosen among the scores (evenly over the "
        "cases, with every model's own threshold); the confusion matrix and the confusion "
        "measures at each of them were computed by binmetrics, not in the browser. "
        "Intervals of confusion measures hold at the model's own threshold only. Hover a "
        f"measure for its source and formula. binmetrics {_e(version)}; no network is "
        "needed to open this file.</p></footer>")


def _notes(caught: list[warnings.WarningMessage]) -> str:
    seen = list(dict.fromkeys(" ".join(str(w.message).split()) for w in caught))
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
    text = json.dumps(_finite_json(obj), separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# --- writing -------------------------------------------------------------------------------
def _check_path(path: str | os.PathLike[str]) -> Path:
    """The output path, checked before any work: its folder exists and takes a file."""
    from .cli import CLIError, check_output

    p = Path(path)
    try:
        check_output(p)
    except CLIError as exc:
        raise ValueError(str(exc)) from None
    try:
        fd, probe = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.", suffix=".tmp")
    except OSError as exc:
        raise ValueError(f"cannot write {p}: {exc.strerror or exc}") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
    return p


def _write(path: Path, text: str) -> None:
    from .cli import CLIError, write_atomic

    try:
        write_atomic(path, text)  # temporary file in the same folder, then os.replace
    except CLIError as exc:
        raise OSError(str(exc)) from None


# --- the report ------------------------------------------------------------------------------
def _check_models(models: Any) -> list[tuple[str, Evaluation]]:
    from .evaluation import Evaluation

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
) -> str:
    """A self-contained interactive HTML report of one or several evaluations.

    The file holds every measure of the registry (family, direction, source and
    formula on hover, an interval where asked), the confusion matrix, the ROC curve
    with its convex hull and the random diagonal, the precision-recall and PR-gain
    curves, the gain and lift charts with their random baselines (Berrar Figs. 4,
    5), TPR and FPR against the threshold with the KS gap (Fig. 5b), any confusion
    measure against the threshold, and a threshold slider: moving it moves the
    operating point on the charts and updates the confusion matrix and every
    confusion measure. Nothing is computed in the browser: the values at each
    slider position come from the registry's functions (DESIGN.md, "one measure,
    one definition"). It needs no network to open.

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
        be among the report's.
    max_points : int, default 1000
        Curves with more points are thinned for display (:func:`thin_curve`; the
        largest error is shown in the footer). Tables always use exact values.
    thresholds : int, default 1000
        Slider positions at most: cut points of the tables, spread evenly over the
        cases, always including each model's own threshold, +inf (nothing positive)
        and the lowest score (everything positive). All cut points when fewer.

    Returns
    -------
    str
        The HTML document.

    Examples
    --------
    Berrar's ten cases (all ten cut points fit on the slider):

    >>> import binmetrics as bm
    >>> from binmetrics.report import report
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
    names = [n for n, _ in entries]
    if paired is not None:
        from .paired import Comparison

        if not isinstance(paired, Comparison):
            raise TypeError("paired must be the result of binmetrics.compare(...); got "
                            f"{type(paired).__name__}")
        stray = [n for n in paired.names if n not in names]
        if stray:
            raise ValueError(f"paired compares {', '.join(map(repr, paired.names))}, but the "
                             f"report has no model {', '.join(map(repr, stray))}; its models: "
                             f"{', '.join(map(repr, names))}")
    out_path = _check_path(path) if path is not None else None
    evs = [ev for _, ev in entries]
    grid = _grid(evs, thresholds)
    ax = _axes(evs)
    conf = list(iter_measures("confusion"))
    caught: list[warnings.WarningMessage] = []
    data = [_model_data(n, ev, grid, ax, conf, ci, max_points, caught) for n, ev in entries]
    j0 = data[0].payload["own"]
    for w in {str(w.message): w for w in caught}.values():  # each message once
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    from . import __version__

    title = title or "binmetrics report: " + ", ".join(names)
    payload = {
        "grid": {"threshold": _jsonable(grid), "start": j0,
                 "x": _coords(_norm(grid, ax.t_lo, ax.t_hi))},
        "confusion": [m.id for m in conf],
        "names": {m.id: m.name for m in conf},
        "charts": _chart_specs(ax),
        "models": [md.payload for md in data],
    }
    script = _asset("report.js")
    if "</script" in script.lower():  # pragma: no cover - a guard on the asset
        raise RuntimeError("report.js must not contain '</script'")
    paired_html = ("<section id='bm-paired-tests'><h2>Paired tests</h2>"
                   f"{_paired_table(paired)}</section>" if paired is not None else "")
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
{_e(data[0].name)}'s threshold</button>
<span id="bm-position">position {j0 + 1} of {grid.size}</span>
</section>
<section id="bm-confusion"><h2>Confusion matrix</h2><div class="cms">\
{_confusion_tables(data, j0)}</div></section>
<section id="bm-charts"><h2>Charts</h2><div class="legend" id="bm-legend"></div>
<div class="charts" id="bm-chart-grid"><noscript>The charts need JavaScript.</noscript></div>
</section>
<section id="bm-measures-box"><h2>Measures</h2>{_measures_table(data, j0)}</section>
{paired_html}
{_notes(caught)}
</main>
{_footer(data, max_points, __version__)}
<script type="application/json" id="bm-data">{_script_json(payload)}</script>
<script>
{script}
</script>
</body>
</html>
"""
    if out_path is not None:
        _write(out_path, page)
    return page
