"""The data behind the HTML report (:mod:`binmetrics.display.report`): the slider's
thresholds, every model's measures and confusion matrices at them, the charts'
series in axis units (thinned by :mod:`~binmetrics.display.thinning`), and the JSON
the page's script reads.

One measure, one definition: the values at each slider position are computed here by
the registry's vectorised functions, and the charts' lines come from
:func:`binmetrics.plot.chart_data`; the browser only looks them up.
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from binmetrics.chart import ChartData
from binmetrics.curves.core import threshold_axis
from binmetrics.display.thinning import DECIMALS, thin_curve
from binmetrics.evaluation.plot_kinds import PLOT_KINDS, chart_data
from binmetrics.exceptions import UndefinedMeasureWarning, undefined_policy
from binmetrics.measures.partial_auc import partial_auc_range
from binmetrics.measures.registry import Measure
from binmetrics.table.counts import Confusion

if TYPE_CHECKING:
    from binmetrics.evaluation.binary import Evaluation

__all__ = [
    "DEFAULT_THRESHOLDS",
    "MAX_SLIDER_VALUES",
    "SIG_DIGITS",
    "Chart",
    "LineThinning",
    "ModelData",
    "chart_payloads",
    "coords",
    "jsonable",
    "model_data",
    "roc_extras",
    "script_json",
    "slider_grid",
    "slider_positions",
    "threshold_range",
    "to_axis_units",
]

FloatArray = npt.NDArray[np.float64]

#: Slider positions (thresholds) at most.
DEFAULT_THRESHOLDS = 1000
#: Slider positions times models at most: the page embeds every confusion measure of
#: every model at every position, so this bounds its size (12 models: 400 positions; it
#: was 6000 before issue 17 added 21 confusion measures: the page stays under 5 MB).
MAX_SLIDER_VALUES = 4800
#: Significant digits of the embedded values (the page shows at most 10).
SIG_DIGITS = 10


# --- JSON ----------------------------------------------------------------------------------
def jsonable(values: Any, shown: int | None = None, digits: int | None = SIG_DIGITS
             ) -> list[Any]:
    """Floats for JSON, rounded to ``digits`` significant digits (None: exact): NaN ->
    null, +-inf -> "Infinity"/"-Infinity" (the script reads them), whole numbers as
    ints when all are. With ``shown``, a value whose rounding would change its display
    at ``shown`` digits (one within 10**-digits of a rounding boundary) is kept exact,
    so the page shows what ``report_html.fmt(v, shown)`` shows."""
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


def coords(values: Any) -> list[Any]:
    """Drawn coordinates (axis units): rounded to DECIMALS, null where not finite."""
    a = np.round(np.asarray(values, dtype=np.float64), DECIMALS)
    out: list[Any] = a.tolist()
    if not np.isfinite(a).all():
        out = [v if math.isfinite(v) else None for v in out]
    return out


def to_axis_units(v: Any, lo: float, hi: float) -> FloatArray:
    """Values of an axis spanning [lo, hi] in units of that range (lo -> 0, hi -> 1)."""
    return (np.asarray(v, dtype=np.float64) - lo) / (hi - lo)


# --- the slider ----------------------------------------------------------------------------
def slider_positions(thresholds: int, evs: list[Evaluation]) -> int:
    """Slider positions: ``thresholds``, at most MAX_SLIDER_VALUES / models (the page
    embeds every confusion measure of every model at every position), and never fewer
    than the positions every report has (+inf, the lowest score, each own threshold)."""
    needed = 2 + len({ev.threshold for ev in evs})
    return max(min(thresholds, needed), min(thresholds, MAX_SLIDER_VALUES // len(evs)))


def slider_grid(evs: list[Evaluation], budget: int) -> FloatArray:
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


def threshold_range(evs: list[Evaluation]) -> tuple[float, float]:
    """The x range of the charts against the threshold: from the lowest score to the
    point where ``plot.threshold`` draws the cut "nothing positive" (right of the
    highest score), as the threshold chart's data span."""
    lo = min(float(ev.table.scores[-1]) for ev in evs)
    hi = max(float(threshold_axis(ev.table.thresholds())[0]) for ev in evs)
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


# --- each model's data ----------------------------------------------------------------------
@dataclass(frozen=True)
class LineThinning:
    """The footer's row of one drawn line: exact and drawn points, error and bound."""

    points: int
    drawn: int
    error: float
    bound: float


@dataclass
class ModelData:
    """One model of the report: its measures, intervals and undefined reasons at its own
    threshold, its confusion matrices and confusion measures at the slider positions,
    the payload the script reads, and the thinning of each of its drawn lines."""

    name: str
    ev: Evaluation
    values: dict[str, float]
    reasons: dict[str, str]
    intervals: dict[str, tuple[float, float, str]]
    confusion: Confusion
    grid_values: dict[str, FloatArray]
    payload: dict[str, Any]
    thinning: dict[str, LineThinning] = field(default_factory=dict)


def model_data(name: str, ev: Evaluation, grid: FloatArray, conf_measures: list[Measure],
               ci: bool | Mapping[str, Any]) -> ModelData:
    """Every measure at the model's threshold, its intervals, and the confusion matrix
    and confusion measures at the slider positions (warnings go to the caller)."""
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        values = ev.to_dict()
        intervals: dict[str, tuple[float, float, str]] = {}
        if ci is not False:
            kwargs = dict(ci) if isinstance(ci, Mapping) else {}
            frame = ev.ci_table(**kwargs)
            rows: Iterable[Any] = frame.itertuples()  # the fields of pandas rows are untyped
            intervals = {r.id: (float(r.low), float(r.high), str(r.method)) for r in rows}
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
        "counts": {k: jsonable(v) for k, v in c.as_dict().items()},  # shown with 10 digits
        "values": {k: jsonable(v, shown=6) for k, v in gv.items()},
        "reasons": {k: reasons[k] for k in gv if k in reasons and math.isnan(gv[k][own])},
        "markers": {},
        "charts": {},
    }
    return ModelData(name, ev, values, reasons, intervals, c, gv, payload)


# --- the charts ----------------------------------------------------------------------------
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
               ) -> tuple[list[Any], list[Any], LineThinning]:
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
    return xs, ys, LineThinning(int(ok.sum()), drawn, error, bound)


#: The report's line styles (its script's) for the styles of :class:`~binmetrics.chart.Series`
_STYLES = {"dashdot": "dashed", "bars": "dotted", "markers": "points"}


def _series_payload(s: Any, xr: list[float], yr: list[float], max_points: int
                    ) -> tuple[list[Any], LineThinning | None]:
    """``[xs, ys, style, label, class]`` of one series in axis units, and its thinning;
    a sixth element 1 asks for a dot at each drawn point (a line with a point marker,
    drawn exactly)."""
    x, y = to_axis_units(s.x, *xr), to_axis_units(s.y, *yr)
    cls = "ref random" if s.shared and s.label.startswith("random") else \
        "ref" if s.shared else "line"
    style = _STYLES.get(s.style, s.style)
    if style in ("points", "segment") or s.shared:
        return [coords(x), coords(y), style, s.label, cls], None
    xs, ys, th = _thin_line(x, y, max_points)
    out = [xs, ys, style, s.label, cls]
    if s.marker not in ("", ",") and s.steps is None and th.drawn == th.points:
        out.append(1)
    return out, th


@dataclass
class Chart:
    """One chart of the page: the spec the script draws it from, and its data."""

    spec: dict[str, Any]
    data: ChartData


def chart_payloads(data: list[ModelData], grid: FloatArray, t_range: tuple[float, float],
                   max_points: int, notes: list[str]) -> list[Chart]:
    """The charts of the plot kinds the report draws (``PlotKind.in_report``), in
    ``plot.PLOT_KINDS`` order, from :func:`binmetrics.plot.chart_data` with each kind's
    report options: their specs and each model's series and operating points (in the
    models' payloads), thinned; notes on models left out."""
    index: dict[str | None, int] = {md.name: i for i, md in enumerate(data)}
    models = {md.name: md.ev for md in data}
    out = []
    for kind, plot_kind in PLOT_KINDS.items():
        if not plot_kind.in_report:  # shown from the slider's values: the measure chart
            continue  # and the confusion matrix
        fit = [(md.name, md.ev) for md in data if plot_kind.applies_to(md.ev)]
        cd = chart_data(kind, models, **plot_kind.options_for_report(fit, max_points))
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
                md.payload["markers"][kind] = [coords(to_axis_units(px, *xr)),
                                               coords(to_axis_units(py, *yr))]
        # the kinds that need probabilities are drawn in the calibration section
        section = "calibration" if plot_kind.needs_probabilities else "charts"
        out.append(Chart({"id": kind, "title": cd.title, "x": xr, "y": yr,
                          "section": section, "xlabel": cd.xlabel, "ylabel": cd.ylabel,
                          "marker": cd.operating is not None, "vline": cd.threshold_axis,
                          "shared": shared}, cd))
    return out


# --- the ROC chart's band and partial-AUC region ------------------------------------------
#: FPRs at which the report reads the ROC confidence band
BAND_POINTS = 101


def _clip(x: FloatArray, y: FloatArray, low: float, high: float
          ) -> tuple[FloatArray, FloatArray]:
    """The polyline through (x, y) (x nondecreasing) between x = low and x = high: its
    vertices there, and the interpolated points at low and high where it has none."""
    def at(v: float) -> float:
        k = min(max(int(np.searchsorted(x, v, side="right")) - 1, 0), x.size - 2)
        return float(y[k] + (v - x[k]) / (x[k + 1] - x[k]) * (y[k + 1] - y[k]))

    keep = (x >= low) & (x <= high)
    xs, ys = list(x[keep]), list(y[keep])
    if not np.any(x == low):
        xs.insert(0, low)
        ys.insert(0, at(low))
    if not np.any(x == high):
        xs.append(high)
        ys.append(at(high))
    return np.asarray(xs, dtype=np.float64), np.asarray(ys, dtype=np.float64)


def check_partial(partial_auc: Any) -> tuple[str, float, float] | None:
    """``partial_auc`` of :func:`~binmetrics.display.report.report`: None, or a mapping
    ``{"fpr": (a, b)}`` or ``{"tpr": (a, b)}``; its focus and checked range."""
    if partial_auc is None:
        return None
    if not isinstance(partial_auc, Mapping) or len(partial_auc) != 1 or \
            next(iter(partial_auc)) not in ("fpr", "tpr"):
        raise TypeError("partial_auc must be a mapping with one key, fpr or tpr, and a range, "
                        f"e.g. {{'fpr': (0, 0.2)}}; got {partial_auc!r}")
    return partial_auc_range(**dict(partial_auc))


def roc_extras(data: list[ModelData], charts: list[Chart], band: bool | Mapping[str, Any],
               partial: tuple[str, float, float] | None, max_points: int,
               notes: list[str]) -> None:
    """Add each model's ROC confidence band (``ROCCurve.ci_band`` along the FPR, pROC's
    ``ci.se``; ``band`` True or its keywords) and the region of its partial AUC
    (``partial``: focus, low, high) to the ROC chart, beneath the model's lines."""
    roc = next((c for c in charts if c.spec["id"] == "roc"), None)
    if roc is None or (band is False and partial is None):
        return
    xr, yr = roc.spec["x"], roc.spec["y"]
    opts = dict(band) if isinstance(band, Mapping) else {}
    for md in data:
        curve = md.ev.roc()
        if not (md.ev.table.P > 0 and md.ev.table.N > 0):
            continue  # the ROC chart has said so already
        extra = []
        if band is not False:
            # the region ROCBand.plot() shades: its chart's one series
            (region,) = curve.ci_band(fpr=np.linspace(0.0, 1.0, BAND_POINTS),
                                      **opts).chart().series
            extra.append([coords(to_axis_units(region.x, *xr)),
                          coords(to_axis_units(region.y, *yr)), "band", region.label, "band"])
        if partial is not None:
            focus, low, high = partial
            if focus == "fpr":
                value = curve.partial_area(fpr=(low, high))
                cx, cy = _clip(curve.fpr, curve.tpr, low, high)
                x = np.concatenate(([low], cx, [high]))
                y = np.concatenate(([0.0], cy, [0.0]))
            else:
                value = curve.partial_area(tpr=(low, high))
                ct, cf = _clip(curve.tpr, curve.fpr, low, high)
                x = np.concatenate(([1.0], cf, [1.0]))
                y = np.concatenate(([low], ct, [high]))
            xs, ys, th = _thin_line(to_axis_units(x, *xr), to_axis_units(y, *yr), max_points)
            label = f"partial AUC, {focus.upper()} {low:g} to {high:g} = {value:.4g}"
            extra.append([xs, ys, "area", label, "area"])
            md.thinning[f"roc: {label}"] = th
        md.payload["charts"]["roc"] = extra + md.payload["charts"].get("roc", [])
    if band is not False:
        notes.append("The ROC chart's bands are pointwise bootstrap intervals of the TPR at "
                     f"{BAND_POINTS} FPRs (pROC's ci.se), not a simultaneous band.")


# --- the page's JSON --------------------------------------------------------------------------
def _finite_json(obj: Any) -> Any:
    """``obj`` with every non-finite float as JSON can hold it (null, "Infinity")."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None if math.isnan(obj) else ("Infinity" if obj > 0 else "-Infinity")
    if isinstance(obj, dict):
        return {k: _finite_json(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_finite_json(v) for v in obj]
    return obj


def script_json(obj: Any) -> str:
    """``obj`` as JSON to embed in a ``<script>`` element (no ``<``, ``>`` or ``&``)."""
    try:  # the embedded arrays hold no NaN or inf already: skip the walk
        text = json.dumps(obj, separators=(",", ":"), allow_nan=False)
    except ValueError:
        text = json.dumps(_finite_json(obj), separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
