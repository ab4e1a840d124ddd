"""``monitor()``: a classifier's measures over sliding time windows, each compared with a
reference period.

The rows are cut into batches of one ``step`` (e.g. a day); each batch gets its count
table (one sort of its rows), and a window of ``window / step`` batches is slid along
them by subtracting the table of the batch that leaves and adding the one that enters
(docs/architecture.md, "The one idea": the table of a union is the sum of the tables). The
counts are exact integers, so every window's evaluation equals a fresh
:func:`binmetrics.evaluate` of its rows.
"""

from __future__ import annotations

import contextlib
import difflib
import itertools
import math
import os
import warnings
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from binmetrics.backends import THREAD_ROWS, thread_imap
from binmetrics.chart import ChartData, render, series
from binmetrics.comparison.ranks import holm_adjust
from binmetrics.engines import _windows as win
from binmetrics.engines.monitor_files import file_batches
from binmetrics.engines.monitor_spark import is_spark_frame, spark_batches
from binmetrics.evaluation.binary import Evaluation
from binmetrics.evaluation.options import EvalOptions
from binmetrics.exceptions import UndefinedPolicy, asked_for, caveats_once, warn_at_user
from binmetrics.formatting import Tabular
from binmetrics.inference import ResamplingWarning
from binmetrics.inference.delong import delong_unpaired_tables
from binmetrics.inference.intervals import Placements, table_placements
from binmetrics.inference.proportions import two_proportion_test
from binmetrics.inference.resampling import bootstrap
from binmetrics.measures import Measure, get_measure
from binmetrics.measures.registry import select_measures
from binmetrics.validation import (
    NanPolicy,
    as_1d,
    as_float,
    check_binary_inputs,
    check_level,
    check_random_state,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["MonitorResult", "monitor"]

_DAY = pd.Timedelta("1D")


class MonitorResult(Tabular):
    """The result of :func:`monitor`: one row per window.

    Attributes
    ----------
    window, step : pandas.Timedelta
        The windows' length and the step between their starts.
    reference : tuple of pandas.Timestamp
        The reference period as [low, high): its rows have low <= time < high.
    reference_evaluation : Evaluation
        The evaluation of the reference rows.
    evaluations : list
        Each window's :class:`~binmetrics.Evaluation` (None where not evaluated).
    measures : list of str
        The ids of the measures.
    alpha : float
        The significance level of the ``<id>_flagged`` columns.
    reference_ci : dict or None
        With ``ci=True``: each measure's interval on the reference rows, ``id -> (low,
        high)``, by the windows' method (None otherwise).
    """

    def __init__(self, frame: pd.DataFrame, *, window: pd.Timedelta, step: pd.Timedelta,
                 reference: tuple[pd.Timestamp, pd.Timestamp], reference_evaluation: Evaluation,
                 evaluations: list[Evaluation | None], measures: list[str], alpha: float,
                 batches: list[win.Batch], width: int, reference_batch: win.Batch,
                 reference_scores: np.ndarray, ci_level: float | None = None,
                 reference_ci: dict[str, tuple[float, float]] | None = None) -> None:
        self._frame = frame
        self.reference_ci = reference_ci
        self._ci_level = ci_level
        self.window = window
        self.step = step
        self.reference = reference
        self.reference_evaluation = reference_evaluation
        self.evaluations = evaluations
        self.measures = measures
        self.alpha = alpha
        self._batches = batches
        self._width = width
        self._reference_batch = reference_batch
        self._reference_scores = reference_scores

    def to_frame(self) -> pd.DataFrame:
        """The windows as a DataFrame (a copy): ``start``, ``end`` (the window is
        ``start <= time < end``), ``n``, ``positives``, ``prevalence``, ``in_reference``
        (the window overlaps the reference period: not tested), each measure ``<id>``
        (with ``<id>_low``, ``<id>_high`` when ``ci=True``), its ``<id>_change`` (window
        minus reference), ``<id>_pvalue`` of the change test, ``<id>_pvalue_adjusted``
        (Holm over the tested windows) and ``<id>_flagged`` (adjusted p-value below
        ``alpha``); and ``reason`` ("" for an evaluated window)."""
        return self._frame.copy()

    def __len__(self) -> int:
        return len(self._frame)

    def _title(self) -> str:
        return (f"MonitorResult(windows={len(self)}, window={win.span(self.window)}, "
                f"step={win.span(self.step)}, reference=[{self.reference[0]}, "
                f"{self.reference[1]}), measures={len(self.measures)})")

    def _shown(self) -> pd.DataFrame:
        f = self._frame
        keep = ["end", "n", "prevalence"]
        for i in self.measures[:3]:
            keep += [i, f"{i}_change", f"{i}_pvalue_adjusted"]
        return f[[*keep, "reason"]]

    # --- drawing --------------------------------------------------------------------
    def chart(self, measure: str = "auc") -> ChartData:
        """The numbers of :meth:`plot`: the measure at each window's end (x in days
        since 1970-01-01, matplotlib's date numbers), its interval band and the
        reference's interval as a band when computed (``ci=True``), the reference
        value, and the flagged windows as markers."""
        mid = get_measure(measure).id
        if mid not in self.measures:
            raise ValueError(f"{measure!r} is not among the measures monitored: "
                             f"{', '.join(self.measures)}")
        f = self._frame
        x = ((f["end"] - pd.Timestamp(0, tz=f["end"].dt.tz)) / _DAY).to_numpy(float)
        y = f[mid].to_numpy(float)
        ref = float(self.reference_evaluation.value(mid))
        out = []
        band = (self.reference_ci or {}).get(mid)
        if band is not None and all(np.isfinite(band)):  # beneath the rest
            lo_r, hi_r = band
            out.append(series(x[[0, -1, -1, 0]], [lo_r, lo_r, hi_r, hi_r],
                              f"reference {self._level_text()}interval", style="band",
                              shared=True, color="0.6"))
        if f"{mid}_low" in f:
            lo, hi = f[f"{mid}_low"].to_numpy(float), f[f"{mid}_high"].to_numpy(float)
            ok = np.isfinite(lo) & np.isfinite(hi)
            out.append(series(np.concatenate([x[ok], x[ok][::-1]]),
                              np.concatenate([lo[ok], hi[ok][::-1]]),
                              f"{mid} {self._level_text()}interval", style="band"))
        out.append(series(x, y, mid, marker="."))
        out.append(series(x[[0, -1]], [ref, ref], f"reference ({ref:.3f})", style="dashed",
                          shared=True, color="0.4"))
        flagged = f[f"{mid}_flagged"].to_numpy(bool)
        if flagged.any():
            out.append(series(x[flagged], y[flagged], f"changed (Holm, alpha={self.alpha:g})",
                              style="markers", marker="o", color="C3"))
        ticks = np.linspace(x[0], x[-1], min(6, x.size))
        labels = [str((pd.Timestamp(0) + pd.Timedelta(days=float(t))).date()) for t in ticks]
        return ChartData(kind="monitor", title=f"{mid} over time", xlabel="window end",
                         ylabel=mid, series=tuple(out), xticks=(ticks.tolist(), labels))

    def _level_text(self) -> str:
        return "" if self._ci_level is None else f"{self._ci_level:.0%} "

    def plot(self, measure: str = "auc", ax: Any = None, **kwargs: Any) -> Axes:
        """Draw the measure over time (:meth:`chart`); keywords are matplotlib properties
        of its line. Needs matplotlib (``pip install 'binmetrics[plot]'``)."""
        return render(self.chart(measure), ax, feature="MonitorResult.plot", **kwargs)

    # --- the scores' distribution -----------------------------------------------------
    def drift(self) -> pd.DataFrame:
        """The scores' distribution in each window against the reference's, both classes
        together (labels are not needed).

        ``ks``: the two-sample Kolmogorov-Smirnov statistic sup |F_w - F_r| of the
        window's and the reference's scores (scipy's ``ks_2samp`` statistic). ``psi``:
        the population stability index sum (w_i - r_i) ln(w_i / r_i) over ten bins cut
        at the reference scores' deciles (``numpy.quantile``, linear interpolation;
        bins (-inf, q1], (q1, q2], ..., (q9, inf); a decile repeated by tied scores
        leaves fewer bins), each share floored at 1e-4 so that an empty bin stays
        finite. A common reading of PSI: below 0.1 stable, 0.1 to 0.25 a moderate
        shift, above 0.25 a large one.

        Returns
        -------
        pandas.DataFrame
            ``start``, ``end``, ``n``, ``ks``, ``psi`` per window (NaN for an empty one).
        """
        ref = self._reference_batch
        edges = win.reference_edges(ref, self._reference_scores)
        ref_shares = win.bin_shares(ref, edges)
        rows = []
        for b in win.slide(self._batches, self._width, len(self._frame)):
            n = _totals(b)[0] if b.n else 0
            rows.append((n, win.ks_statistic(b, ref) if n else math.nan,
                         win.psi(win.bin_shares(b, edges), ref_shares) if n else math.nan))
        out = self._frame[["start", "end"]].copy()
        out["n"] = [r[0] for r in rows]
        out["ks"] = [r[1] for r in rows]
        out["psi"] = [r[2] for r in rows]
        return out


# --- input ---------------------------------------------------------------------------
def _frame_columns(data: Any, names: dict[str, str]) -> dict[str, pd.Series]:
    """The named columns of a pandas or polars DataFrame (role -> column)."""
    if type(data).__module__.split(".")[0] == "polars" and hasattr(data, "to_pandas"):
        data = data.select(list(dict.fromkeys(names.values()))).to_pandas()
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a pandas or polars DataFrame, got {type(data).__name__}")
    available = [str(c) for c in data.columns]
    out = {}
    for role, col in names.items():
        if col not in available:
            close = difflib.get_close_matches(col, available, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(f"{role} column {col!r} not found in data{hint}; available "
                             f"columns: {', '.join(available[:30]) or '(none)'}")
        out[role] = data[col]
    return out


def _times(column: pd.Series) -> pd.Series:
    if not pd.api.types.is_datetime64_any_dtype(column):
        try:
            column = pd.to_datetime(column)
        except (ValueError, TypeError):
            raise ValueError(f"time column {column.name!r} holds values that are not dates or "
                             "times; pass a datetime column (or ISO date strings)") from None
    missing = column.isna().to_numpy()
    if missing.any():
        raise ValueError(f"time column {column.name!r} has {int(missing.sum())} missing values "
                         f"(first at row {int(np.flatnonzero(missing)[0])}); drop or fill them")
    return column.reset_index(drop=True)


# --- the windows ---------------------------------------------------------------------
def _batches(y: np.ndarray, s: np.ndarray, codes: np.ndarray, n_batches: int,
             w: np.ndarray | None = None) -> list[win.Batch]:
    """Each batch's table; the rows are grouped by one stable sort of their batch
    index (none when they are in time order already)."""
    if codes.size > 1 and bool((codes[1:] < codes[:-1]).any()):
        order = np.argsort(codes.astype(np.min_scalar_type(n_batches)), kind="stable")
        codes, y, s = codes[order], y[order], s[order]
        w = None if w is None else w[order]
    bounds = np.searchsorted(codes, np.arange(n_batches + 1))
    return [win.batch_of(y[a:b], s[a:b], None if w is None else w[a:b])
            for a, b in itertools.pairwise(bounds)]


def _totals(b: win.Batch) -> tuple[Any, Any]:
    """A window's cases and positives: rows, or with weights their total weights."""
    if b.weights is None:
        return b.n, b.n_pos
    pos = float(b.weights[0].sum())
    return pos + float(b.weights[1].sum()), pos


def _reason(n: int, n_pos: int) -> str:
    if n == 0:
        return "no rows"
    if n_pos == 0:
        return "no positives"
    if n_pos == n:
        return "no negatives"
    return ""


def _has_closed_test(m: Measure) -> bool:
    return "delong" in m.interval_methods or m.proportion is not None


def _bootstrap_pvalue(window: np.ndarray, reference: np.ndarray) -> float:
    """Two-sided p-value of "no change" from independent bootstrap replicates of the
    window's and the reference's values: d* = w* - r*, p = 2 min(#(d* <= 0) + 1,
    #(d* >= 0) + 1) / (B + 1), capped at 1 (the percentile interval of the difference
    inverted); NaN replicates are left out."""
    d = window - reference
    d = d[np.isfinite(d)]
    if d.size == 0:
        return math.nan
    low = (np.count_nonzero(d <= 0) + 1) / (d.size + 1)
    high = (np.count_nonzero(d >= 0) + 1) / (d.size + 1)
    return float(min(1.0, 2.0 * min(low, high)))


def _change_test(m: Measure, ev: Evaluation, ref: Evaluation,
                 ref_placements: Placements | None,
                 boot: dict[str, np.ndarray] | None = None,
                 ref_boot: dict[str, np.ndarray] | None = None) -> float:
    """The p-value of the window's change from the reference: DeLong's test for
    independent samples for a measure with a DeLong interval (the AUC), the pooled
    two-proportion z-test for a proportion, the unpaired bootstrap for the other
    measures when asked (``boot``: the window's replicates), else NaN."""
    if "delong" in m.interval_methods:
        return float(delong_unpaired_tables(ev.table, ref.table, "two-sided", 0.95,
                                            placements_b=ref_placements).pvalue)
    if m.proportion is not None:
        k1, n1 = (float(v) for v in m.proportion(ev.confusion))
        k2, n2 = (float(v) for v in m.proportion(ref.confusion))
        if n1 == 0 or n2 == 0:
            return math.nan
        return float(two_proportion_test((k1, n1), (k2, n2)).pvalue)
    if boot is not None and ref_boot is not None and m.id in boot:
        return _bootstrap_pvalue(boot[m.id], ref_boot[m.id])
    return math.nan


def _reference_mask(times: pd.Series, reference: Any) -> tuple[np.ndarray, pd.Timestamp,
                                                                  pd.Timestamp]:
    """The reference rows (start <= time <= end; an end given as a date alone covers
    that whole day) and the period's bounds as [low, high)."""
    low, high = win.reference_bounds(reference, times.dt.tz)
    mask = ((times >= low) & (times < high)).to_numpy()
    if not mask.any():
        raise win.no_reference_rows(reference, times.min(), times.max())
    return mask, low, high


def _frame_batches(data: Any, *, label: str, score: str, time: str, reference: Any,
                   win_len: pd.Timedelta, step_len: pd.Timedelta, opts: EvalOptions,
                   weight: str | None = None) -> win.Prepared:
    """The batches of a DataFrame's rows (in memory); with a weight column, weighted
    (rows of weight 0 left out, as :func:`binmetrics.evaluate` does)."""
    names = {"label": label, "score": score, "time": time}
    if weight is not None:
        names["weight"] = weight
    cols = _frame_columns(data, names)
    times = _times(cols["time"])
    s_raw = as_1d(cols["score"].to_numpy(), "y_score")
    w_raw = None if weight is None else cols["weight"].to_numpy()
    inp = check_binary_inputs(as_1d(cols["label"].to_numpy(), "y_true"), s_raw, w_raw,
                              pos_label=opts.pos_label, nan_policy=opts.nan_policy,
                              rescale_weights=False)
    if inp.n_omitted:
        times = times[np.isfinite(as_float(s_raw, "y_score"))].reset_index(drop=True)
    y, scores, w = inp.y, opts.oriented(inp.score), inp.weight
    ref_mask, ref_low, ref_high = _reference_mask(times, reference)
    origin, codes, width, n_windows = win.plan(times, win_len, step_len)
    n_batches = int(codes.max()) + 1
    if w is not None and not bool((w > 0).all()):  # the windows as those of the files
        keep = w > 0
        y, scores, w, codes, ref_mask = y[keep], scores[keep], w[keep], codes[keep], \
            ref_mask[keep]
    ref_batch = win.batch_of(y[ref_mask], scores[ref_mask],
                             None if w is None else w[ref_mask])
    batches = _batches(y, scores, codes, n_batches, w)
    return win.Prepared(batches, ref_batch, scores[ref_mask], origin, width, n_windows,
                        ref_low, ref_high, inp.pos_label)


def _is_path(data: Any) -> bool:
    return isinstance(data, (str, os.PathLike)) or (
        isinstance(data, (list, tuple)) and bool(data)
        and all(isinstance(d, (str, os.PathLike)) for d in data))


def monitor(
    data: Any,
    *,
    label: str,
    score: str,
    time: str,
    reference: tuple[Any, Any],
    weight: str | None = None,
    window: Any = "7D",
    step: Any = "1D",
    measures: str | Iterable[str | Measure] | None = None,
    threshold: float = 0.5,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
    ci: bool = False,
    ci_method: str | Mapping[str, str] = "auto",
    level: float = 0.95,
    n_resamples: int = 2000,
    random_state: Any = None,
    alpha: float = 0.05,
    bootstrap_changes: bool = False,
    undefined: UndefinedPolicy = "warn",
    higher_is_positive: bool = True,
    where: str | None = None,
    format: str | None = None,
    read_options: Mapping[str, Any] | None = None,
) -> MonitorResult:
    """A classifier's measures over sliding time windows, each tested against a
    reference period.

    The rows are cut into batches of one ``step`` from the first time floored to the
    step (midnight for "1D"); window k holds batches k to k + ``window``/``step`` - 1,
    i.e. the rows with ``start <= time < end``. Each batch's count table is built once
    and the window slides by subtracting the table of the batch that leaves and adding
    the one that enters; the counts are exact integers, so every window's values equal a
    fresh :func:`binmetrics.evaluate` of its rows. Rows need not be sorted by time;
    rows sharing a timestamp are all kept.

    Every window that does not overlap the reference period is compared with it, the
    two being independent samples:

    - a measure with a DeLong interval (the AUC): DeLong's test for two independent
      ROC curves, pROC's ``roc.test(roc1, roc2, method="delong", paired=FALSE)``
      (Welch's t on (A_w - A_r) / sqrt(S_w + S_r), S being each AUC's DeLong variance;
      :func:`binmetrics.inference.delong_test_unpaired`);
    - a proportion (recall, FPR, precision, accuracy, ...): the pooled two-proportion
      z-test of its successes over trials in the window and in the reference
      (statsmodels' ``proportions_ztest``; :func:`binmetrics.inference.two_proportion_test`);
    - other measures (F1, MCC, ECE, calibration in the large, ...): with
      ``bootstrap_changes=True``, the unpaired bootstrap: ``n_resamples`` stratified
      replicates of the window's table and of the reference's, d* = w* - r*, and
      p = 2 min(#(d* <= 0) + 1, #(d* >= 0) + 1) / (B + 1) (the percentile interval of
      the difference inverted); by default no test (NaN p-value): it costs
      ``n_resamples`` replicates per window.

    The p-values of a measure are adjusted over the tested windows by Holm's step-down
    method (family-wise error rate ``alpha`` over the windows); ``<id>_flagged`` marks
    the windows whose adjusted p-value is below ``alpha``. Sliding windows overlap, so
    neighbouring tests are positively correlated: Holm's adjustment stays valid (it
    assumes nothing about the dependence) and is conservative.

    Parameters
    ----------
    data : pandas.DataFrame, polars.DataFrame, or a file path or glob (list of them)
        One row per case. CSV or Parquet files are read by DuckDB (``pip install
        'binmetrics[duckdb]'``), out of core: DuckDB groups the rows by step and score,
        one exact count table per step comes back, and the windows are slid from them
        as in memory, so the result equals ``monitor`` of the same rows in a DataFrame.
        The files are read as by :func:`binmetrics.engines.evaluate_file` (a connection
        that reads only them, its configuration locked; the same label and score
        checks). Their time column is a timestamp, a date or ISO text (a timestamp
        with a time zone is taken in UTC); ``higher_is_positive=False`` is allowed.
        A pyspark DataFrame is grouped by Spark alike (the job of
        :func:`binmetrics.engines.evaluate_spark`; a ``timestamp`` column is taken in
        UTC, a ``timestamp_ntz``, ``date`` or ISO text column is naive; ``where`` is a
        Spark SQL condition).
    label, score, time : str
        Columns of the labels, the scores and the times (datetimes, or strings pandas
        reads as dates).
    weight : str, optional
        Column of case weights (finite, >= 0; a row of weight 0 is absent). Each window
        is then the weighted evaluation of its rows, equal to a fresh one to the
        rounding of the weights' sums (slid in floating point; a score leaves a window
        exactly with its last row); ``n`` and ``positives`` are total weights, the
        change tests treat weights as frequencies (as the project's tests of weighted
        tables do) and ``drift()`` is weighted.
    reference : (start, end)
        The reference period: rows with start <= time <= end; an end given as a date
        alone ("2026-03-31") covers that whole day.
    window, step : str or timedelta, default "7D" and "1D"
        Fixed durations pandas reads ("7D", "12h", "30min"); the window must be a whole
        number of steps.
    measures : list of ids or aliases, or a preset name, optional
        Default: the summary measures (``bm.measures.SUMMARY``).
    threshold, pos_label, nan_policy, undefined, higher_is_positive
        As in :func:`binmetrics.evaluate`.
    ci : bool, default False
        Add each window's interval of every measure as ``<id>_low``, ``<id>_high``
        (:meth:`Evaluation.ci_table` with ``ci_method``, ``level``, ``n_resamples``,
        ``random_state``).
    alpha : float, default 0.05
        The family-wise significance level that flags a window.
    bootstrap_changes : bool, default False
        Test the change of the measures without a closed-form test by the unpaired
        bootstrap (``n_resamples`` replicates per window, seeded from ``random_state``).
    where, format, read_options
        For files (and ``where`` for a Spark DataFrame), as in
        :func:`binmetrics.engines.evaluate_file`: a SQL condition
        selecting the rows (checked, time-bounded), "parquet" or "csv" (default: from
        the extension), and the reader's options from its allow-list.

    Returns
    -------
    MonitorResult
        ``to_frame()`` has one row per window; a window with no rows, or one class only,
        is a row of NaN values whose ``reason`` says why.

    Raises
    ------
    TypeError
        ``where``, ``format`` or ``read_options`` with a DataFrame (``format`` or
        ``read_options`` with a Spark DataFrame); a file's or Spark DataFrame's time
        column that is not dates or times.
    ValueError
        A column is missing, the time column is not dates or has missing values, a
        window or step is not a duration or the window not a whole number of steps,
        the reference period holds no rows or one class only, or the labels/scores
        are invalid.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> import binmetrics as bm
    >>> rng = np.random.default_rng(0)
    >>> ts = pd.Timestamp("2026-01-01") + pd.to_timedelta(rng.uniform(0, 20, 2000), "D")
    >>> y = rng.random(2000) < 0.3
    >>> p = np.clip(0.3 + 0.25 * (2 * y - 1) * (ts < "2026-01-15") + rng.normal(0, .2, 2000),
    ...             0, 1)
    >>> df = pd.DataFrame({"ts": ts, "y": y, "p": p})
    >>> mon = bm.monitor(df, label="y", score="p", time="ts", window="5D", step="5D",
    ...                  reference=("2026-01-01", "2026-01-10"), measures=["auc", "tpr"])
    >>> mon.to_frame()[["start", "n", "auc", "auc_pvalue_adjusted", "auc_flagged"]].round(3)
           start    n    auc  auc_pvalue_adjusted  auc_flagged
    0 2026-01-01  508  0.962                  NaN        False
    1 2026-01-06  499  0.962                  NaN        False
    2 2026-01-11  481  0.908                0.001         True
    3 2026-01-16  512  0.497                0.000         True
    """
    opts = EvalOptions(threshold=threshold, pos_label=pos_label, nan_policy=nan_policy,
                       undefined=undefined, higher_is_positive=higher_is_positive)
    win_len, step_len = win.duration(window, "window"), win.duration(step, "step")
    chosen = select_measures(None, "summary" if measures is None else measures)
    if not chosen:
        raise ValueError("measures is empty; give measure ids, or None for the summary ones")
    ids = [m.id for m in chosen if m.id != "prevalence"]
    chosen = [m for m in chosen if m.id != "prevalence"]
    c = check_level(level)
    a = float(alpha)
    if not 0.0 < a < 1.0:
        raise ValueError(f"alpha must be between 0 and 1 (exclusive); got {alpha!r}")

    if _is_path(data):
        prep = file_batches(data, label=label, score=score, time=time, reference=reference,
                            weight=weight, win_len=win_len, step_len=step_len, opts=opts,
                            where=where,
                            format=format, read_options=read_options)
    elif is_spark_frame(data):
        given = [k for k, v in (("format", format), ("read_options", read_options))
                 if v is not None]
        if given:
            raise TypeError(f"{', '.join(given)}: only when data is a file path (CSV or "
                            "Parquet, read by DuckDB); Spark has read the DataFrame")
        prep = spark_batches(data, label=label, score=score, time=time, reference=reference,
                             weight=weight, win_len=win_len, step_len=step_len, opts=opts,
                             where=where)
    else:
        given = [k for k, v in (("where", where), ("format", format),
                                ("read_options", read_options)) if v is not None]
        if given:
            raise TypeError(f"{', '.join(given)}: only when data is a file path (CSV or "
                            "Parquet, read by DuckDB) or a Spark DataFrame; filter a "
                            "DataFrame before passing it")
        prep = _frame_batches(data, label=label, score=score, time=time,
                              reference=reference, win_len=win_len, step_len=step_len,
                              opts=opts, weight=weight)
    batches, ref_batch, ref_scores, origin, width, n_windows, ref_low, ref_high, pos = prep
    why = _reason(ref_batch.n, ref_batch.n_pos)
    if why:
        raise ValueError(f"the reference period {reference[0]} to {reference[1]} has {why}: "
                         "choose a period with both classes")

    resampled = ci or bootstrap_changes
    with asked_for([m.id for m in chosen]), caveats_once(), _frequency_note(
            batches if resampled else []):
        weighted = ref_batch.weights is not None
        ref_ev = opts.evaluation(win.to_count_table(ref_batch), pos_label=pos,
                                 n_rows=None if weighted else ref_batch.n,
                                 n_positive_rows=None if weighted else ref_batch.n_pos,
                                 calibrate=False, check_range=False)
        ref_values = ref_ev.to_dict(measures=chosen)
        # the reference's DeLong placements, once for every window's test
        ref_placements = (table_placements(ref_ev.table) if any(
            "delong" in m.interval_methods for m in chosen) else None)
        # the unpaired bootstrap of the measures without a closed-form test: the
        # reference's replicates once, each window's own (a seed per window)
        others = [m for m in chosen if not _has_closed_test(m)] if bootstrap_changes else []
        seeds = np.random.default_rng(check_random_state(random_state)).integers(
            2**63, size=n_windows + 1) if others else None
        ref_boot = (bootstrap(ref_ev.table, others, n_resamples=n_resamples,
                              threshold=ref_ev.cut, random_state=seeds[-1]).replicates
                    if seeds is not None else None)

        def one(item: tuple[int, win.Batch]) -> tuple[dict[str, Any], Evaluation | None]:
            k, b = item
            start = origin + k * step_len
            end = start + win_len
            n, n_pos = b.n, b.n_pos  # rows, or with weights batches holding the class
            reason = _reason(n, n_pos)
            total, positives = _totals(b)
            row: dict[str, Any] = {"start": start, "end": end, "n": total,
                                   "positives": positives,
                                   "prevalence": positives / total if n else math.nan,
                                   "in_reference": bool(start < ref_high and end > ref_low)}
            ev = None
            if not reason:
                rows = (None, None) if b.weights is not None else (n, n_pos)
                ev = opts.evaluation(win.to_count_table(b), pos_label=pos,
                                     n_rows=rows[0], n_positive_rows=rows[1], calibrate=False,
                                     check_range=False)
            boot = None
            if ev is not None and seeds is not None and not row["in_reference"]:
                boot = dict(bootstrap(ev.table, others, n_resamples=n_resamples,
                                      threshold=ev.cut, random_state=seeds[k]).replicates)
            row.update(_window_values(ev, ref_values, chosen, ids, ref_ev, ref_placements,
                                      (boot, None if ref_boot is None else dict(ref_boot)),
                                      tested=not row["in_reference"], ci=ci,
                                      ci_method=ci_method, level=c, n_resamples=n_resamples,
                                      random_state=random_state))
            row["reason"] = reason
            return row, ev

        # the windows slide here, in order, while threads evaluate the ones already slid
        # (the passes over large tables release the GIL; the same values and warnings)
        records, evaluations = [], []
        big = sum(b.keys.size for b in batches) >= THREAD_ROWS * max(1, n_windows // width)
        for row, ev in thread_imap(one, enumerate(win.slide(batches, width, n_windows)),
                                   parallel=big):
            records.append(row)
            evaluations.append(ev)
    frame = pd.DataFrame.from_records(records)
    for i in ids:
        p = frame[f"{i}_pvalue"].to_numpy(float)
        tested = np.isfinite(p)
        adjusted = np.full(p.size, math.nan)
        adjusted[tested] = holm_adjust(p[tested])
        frame[f"{i}_pvalue_adjusted"] = adjusted
        frame[f"{i}_flagged"] = adjusted < a
    order = ["start", "end", "n", "positives", "prevalence", "in_reference"]
    for i in ids:
        order += [i] + ([f"{i}_low", f"{i}_high"] if ci else []) + [
            f"{i}_change", f"{i}_pvalue", f"{i}_pvalue_adjusted", f"{i}_flagged"]
    frame = frame[[*order, "reason"]]
    result = MonitorResult(frame, window=win_len, step=step_len, reference=(ref_low, ref_high),
                           reference_evaluation=ref_ev, evaluations=evaluations,
                           measures=ids, alpha=a, batches=batches, width=width,
                           reference_batch=ref_batch, reference_scores=ref_scores,
                           ci_level=c if ci else None,
                           reference_ci=None)
    if ci:
        with _frequency_note([]):  # said above
            result.reference_ci = _reference_ci(ref_ev, chosen, ci_method, c, n_resamples,
                                                random_state)
    return result


@contextlib.contextmanager
def _frequency_note(batches: list[win.Batch]) -> Iterator[None]:
    """Within it, the bootstrap's warning that non-integer weights are drawn as
    frequencies is said once for the call (before it, when ``batches`` hold such
    weights), not once per window."""
    if any(b.weights is not None and bool((b.weights % 1).any()) for b in batches):
        warn_at_user("the weights are not whole numbers: the bootstrap of the windows' "
                     "intervals and change tests treats them as frequencies, drawing "
                     "round(total weight) cases of each class per window",
                     ResamplingWarning)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "the table is weighted with non-integer weights",
                                ResamplingWarning)
        yield


def _reference_ci(ref_ev: Evaluation, chosen: list[Measure],
                  ci_method: str | Mapping[str, str], level: float, n_resamples: int,
                  random_state: Any) -> dict[str, tuple[float, float]]:
    """Each measure's interval on the reference rows, as the windows' (ci_table)."""
    with caveats_once():
        t = ref_ev.ci_table(chosen, method=ci_method, level=level, n_resamples=n_resamples,
                            random_state=random_state)
    return {i: (float(lo), float(hi)) for i, lo, hi in zip(t["id"], t["low"], t["high"],
                                                           strict=True)}


def _window_values(ev: Evaluation | None, ref_values: dict[str, float], chosen: list[Measure],
                   ids: list[str], ref_ev: Evaluation, ref_placements: Placements | None,
                   boots: tuple[dict[str, np.ndarray] | None, dict[str, np.ndarray] | None],
                   *, tested: bool, ci: bool,
                   ci_method: str | Mapping[str, str], level: float, n_resamples: int,
                   random_state: Any) -> dict[str, Any]:
    """One window's measures, intervals, changes and p-values (NaN when not evaluated)."""
    values = dict.fromkeys(ids, math.nan) if ev is None else ev.to_dict(measures=chosen)
    bounds = {i: (math.nan, math.nan) for i in ids}
    if ci and ev is not None:
        t = ev.ci_table(chosen, method=ci_method, level=level, n_resamples=n_resamples,
                        random_state=random_state)
        bounds = {i: (float(lo), float(hi))
                  for i, lo, hi in zip(t["id"], t["low"], t["high"], strict=True)}
    out: dict[str, Any] = {}
    for m in chosen:
        i = m.id
        out[i] = values[i]
        if ci:
            out[f"{i}_low"], out[f"{i}_high"] = bounds[i]
        out[f"{i}_change"] = values[i] - ref_values[i]
        out[f"{i}_pvalue"] = (_change_test(m, ev, ref_ev, ref_placements, *boots)
                              if ev is not None and tested
                              else math.nan)
    return out
