"""``evaluate_by()``: one classifier evaluated per group (subpopulation, period...).

Each group gets its own :class:`~binmetrics.Evaluation` and, with ``pi0``, its
version calibrated to a common reference prevalence (Siblini et al.), so that the
groups can be compared with their differing prevalences taken out.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from binmetrics.backends import THREAD_ROWS, axes, pyplot, thread_map
from binmetrics.evaluation.binary import Evaluation
from binmetrics.evaluation.frames import frame_engine, no_engine_options
from binmetrics.evaluation.group_gaps import GroupComparisons
from binmetrics.evaluation.options import DEFAULTS, EvalOptions
from binmetrics.exceptions import UndefinedPolicy, asked_for, caveats_once
from binmetrics.formatting import Tabular
from binmetrics.measures import Measure, get_measure, iter_measures
from binmetrics.measures.registry import select_measures
from binmetrics.table.counts import CountTable
from binmetrics.validation import (
    NanPolicy,
    as_1d,
    as_float,
    check_binary_inputs,
    check_count,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["ByResult", "by_tables", "evaluate_by"]

#: The columns every row of the result has before the measures.
_FIXED = ("n", "positives", "prevalence")


class ByResult(GroupComparisons, Tabular):
    """The result of :func:`evaluate_by`: one row per group, in the order of the keys.

    Attributes
    ----------
    by : list of str
        The group columns.
    keys : list
        The group keys (a value for one group column, a tuple for a list of them).
    evaluations : dict
        key -> :class:`~binmetrics.Evaluation` of the group's rows, None for a
        group that could not be evaluated (see the ``reason`` column).
    calibrated_evaluations : dict
        key -> the evaluation calibrated to :attr:`pi0` (None where not evaluated);
        empty when ``pi0`` was not given.
    pi0 : float or None
        The reference prevalence of the ``*_cal`` columns (NaN when "mean" or "min"
        found no group to average), None without calibration.
    measures : list of str
        The ids of the measures in the result.
    pos_label : the label of the positive class (found on all the rows).
    tables : dict
        key -> the group's count table (None when no row has a finite score), also
        for the groups not evaluated: :attr:`overall` merges them.
    options : EvalOptions
        The evaluation options shared by the groups.

    The between-group comparisons (:meth:`difference`, :meth:`ratio`,
    :meth:`group_min`, :meth:`group_max`, :meth:`by_group`, :attr:`overall`) come
    from :class:`~binmetrics.evaluation.group_gaps.GroupComparisons`.
    """

    def __init__(self, frame: pd.DataFrame, *, by: list[str], keys: list[Any],
                 evaluations: dict[Any, Evaluation | None],
                 calibrated_evaluations: dict[Any, Evaluation | None],
                 pi0: float | None, measures: list[str], pos_label: Any = None,
                 tables: dict[Any, CountTable | None] | None = None,
                 options: EvalOptions = DEFAULTS) -> None:
        self._frame = frame
        self.tables = {} if tables is None else tables
        self.options = options
        self.pos_label = pos_label
        self.by = by
        self.keys = keys
        self.evaluations = evaluations
        self.calibrated_evaluations = calibrated_evaluations
        self.pi0 = pi0
        self.measures = measures

    def to_frame(self) -> pd.DataFrame:
        """The result as a pandas DataFrame (a copy): the group columns, n, positives,
        prevalence, one column per measure, ``<id>_cal`` with ``pi0``, ``<id>_low`` and
        ``<id>_high`` with ``ci=True``, and ``reason`` ("" for evaluated groups).
        ``frame.attrs["pi0"]`` holds :attr:`pi0`."""
        out = self._frame.copy()
        out.attrs["pi0"] = self.pi0
        return out

    def __len__(self) -> int:
        return len(self.keys)

    def _title(self) -> str:
        shown = "" if self.pi0 is None else f", pi0={self.pi0:g}"
        return (f"ByResult(by={self.by}, groups={len(self.keys)}, "
                f"measures={len(self.measures)}{shown})")

    def _shown(self) -> pd.DataFrame:
        """The groups with their counts and the main measures (to_frame() has them all)."""
        from binmetrics.evaluation.summary import SUMMARY_MEASURES

        f = self.to_frame()
        keep = [*self.by, "n", "positives", *SUMMARY_MEASURES, "reason"]
        return f[[c for c in keep if c in f.columns]]

    def plot(self, measures: str | Sequence[str], calibrated: bool = True,
             ax: Any = None, *, prevalence: bool = False) -> Axes:
        """Each measure across the groups, in group order: raw values as solid lines,
        calibrated ones (with ``calibrated=True``) dashed in the same colour, and with
        ``prevalence=True`` each group's prevalence beside them (Siblini et al.'s
        Fig. 1 monitoring view: is a drop the model's or the class prior's?).

        Groups that could not be evaluated leave a gap. Needs matplotlib
        (``pip install 'binmetrics[plot]'``).

        Parameters
        ----------
        measures : str or list of str
            Ids or aliases of measures in the result.
        calibrated : bool, default True
            Also draw the calibrated values (needs ``evaluate_by(..., pi0=...)``).
        ax : matplotlib Axes, optional
            Where to draw; default a new figure.
        prevalence : bool, default False
            Also draw the prevalence of each group (grey, dotted) on a second y axis at
            the right (``ax.right_ax``), its scale starting at 0.

        Returns
        -------
        matplotlib.axes.Axes
            The measures' axes.

        Examples
        --------
        >>> import pandas as pd
        >>> import binmetrics as bm
        >>> df = pd.DataFrame({"day": pd.to_datetime(["2024-01-02"] * 4 + ["2024-01-01"] * 4),
        ...                    "y": [1, 0, 0, 0, 1, 1, 0, 0], "p": [.9, .2, .6, .1] * 2})
        >>> res = bm.evaluate_by(df, label="y", score="p", by="day", measures=["ap"],
        ...                      pi0=0.5)
        >>> ax = res.plot("ap", prevalence=True)  # doctest: +SKIP
        """
        pyplot("ByResult.plot")  # fail early when matplotlib is missing
        names = [measures] if isinstance(measures, str) else list(measures)
        if not names:
            raise ValueError("plot needs at least one measure")
        ids = [get_measure(n).id for n in names]
        absent = [i for i in ids if i not in self.measures]
        if absent:
            raise ValueError(f"measures {absent} are not in the result; it has "
                             f"{', '.join(self.measures)}")
        if calibrated and self.pi0 is None:
            raise ValueError("there are no calibrated values: call evaluate_by with pi0=, "
                             "or plot with calibrated=False")
        ax = axes(ax, "ByResult.plot")
        x = np.arange(len(self.keys))
        for i in ids:
            (line,) = ax.plot(x, self._frame[i].to_numpy(dtype=float), linestyle="-",
                              marker="o", label=i)
            if calibrated:
                ax.plot(x, self._frame[f"{i}_cal"].to_numpy(dtype=float), linestyle="--",
                        marker="o", color=line.get_color(),
                        label=f"{i} (calibrated, pi0={self.pi0:.3g})")
        ax.set_xticks(x)
        ax.set_xticklabels([_key_label(k) for k in self.keys])
        ax.set_xlabel(", ".join(self.by))
        ax.set_ylabel("value")
        handles, labels = ax.get_legend_handles_labels()
        if prevalence:
            right = ax.twinx()
            (line,) = right.plot(x, self._frame["prevalence"].to_numpy(dtype=float),
                                 linestyle=":", marker="s", color="0.45",
                                 label="prevalence (right axis)")
            right.set_ylim(0.0, None)
            right.set_ylabel("prevalence")
            ax.right_ax = right
            handles, labels = [*handles, line], [*labels, line.get_label()]
        ax.legend(handles, labels)
        return ax


def _key_label(key: Any) -> str:
    return ", ".join(str(k) for k in key) if isinstance(key, tuple) else str(key)


# --- input ---------------------------------------------------------------------------
def _columns_of(data: Any) -> tuple[list[str], str]:
    """The column names of a pandas or polars DataFrame and which library it is."""
    if isinstance(data, pd.DataFrame):
        return [str(c) for c in data.columns], "pandas"
    if type(data).__module__.split(".")[0] == "polars":
        import polars as pl

        if isinstance(data, pl.DataFrame):
            return list(data.columns), "polars"
        if isinstance(data, pl.LazyFrame):
            raise TypeError("data is a polars LazyFrame; collect() it into a DataFrame first")
    raise TypeError(f"data must be a pandas or polars DataFrame, got {type(data).__name__}")


def _column(data: Any, kind: str, name: str) -> np.ndarray:
    if kind == "pandas":
        return np.asarray(data[name].to_numpy())
    return np.asarray(data.get_column(name).to_numpy())


def _key_column(data: Any, kind: str, name: str) -> Any:
    """A group column: a pandas Categorical stays one (its categories give the order)."""
    if kind == "pandas" and isinstance(data[name].dtype, pd.CategoricalDtype):
        return data[name].array
    return as_1d(_column(data, kind, name), name)


def _check_names(available: list[str], wanted: list[tuple[str, str]]) -> None:
    for role, col in wanted:
        if available.count(col) > 1:
            at = [i + 1 for i, c in enumerate(available) if c == col]
            raise ValueError(f"{role} column {col!r} appears {len(at)} times in data "
                             f"(columns {', '.join(map(str, at))}); rename the duplicates")
        if col not in available:
            close = difflib.get_close_matches(col, available, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            shown = ", ".join(available[:30]) + (
                f", ... ({len(available)} in all)" if len(available) > 30 else "")
            raise ValueError(f"{role} column {col!r} not found in data{hint}; "
                             f"available columns: {shown or '(none)'}")


def _by_list(by: Any) -> tuple[list[str], bool]:
    """The group columns and whether the keys are tuples (a list was given)."""
    if isinstance(by, str):
        return [by], False
    if isinstance(by, (list, tuple)) and by and all(isinstance(b, str) for b in by):
        if len(set(by)) != len(by):
            raise ValueError(f"by names a column twice: {list(by)}")
        return list(by), True
    raise TypeError(f"by must be a column name or a non-empty list of column names; got {by!r}")


def _python(v: Any) -> Any:
    if isinstance(v, np.datetime64):  # .item() would give nanoseconds as an int
        return pd.Timestamp(v)
    if isinstance(v, np.timedelta64):
        return pd.Timedelta(v)
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float) and math.isnan(v):
        return float("nan")
    return v


def _groups(keys: list[np.ndarray]) -> tuple[list[Any], list[np.ndarray]]:
    """Group keys in the order of the keys (time order for dates, numeric or
    alphabetical order, the categories' order for a categorical; missing values form
    a group, last) and the row indices of each group. Keys that cannot be compared
    (mixed types) keep their order of first appearance."""
    frame = pd.DataFrame({str(i): k for i, k in enumerate(keys)})
    grouped = frame.groupby(list(frame.columns), sort=True, dropna=False, observed=True)
    try:
        codes = grouped.ngroup().to_numpy()
    except TypeError:  # e.g. numbers and strings in one column: no order to keep
        grouped = frame.groupby(list(frame.columns), sort=False, dropna=False, observed=True)
        codes = grouped.ngroup().to_numpy()
    # the smallest unsigned type that holds the codes: NumPy's stable sort is then a
    # radix sort, ~10x faster on 1e6 rows than on the int64 codes pandas gives
    order = np.argsort(codes.astype(np.min_scalar_type(max(int(codes.max(initial=0)), 0))),
                       kind="stable")
    bounds = np.flatnonzero(np.diff(codes[order])) + 1
    members = np.split(order, bounds) if codes.size else []
    found = [tuple(_python(k[idx[0]]) for k in keys) for idx in members]
    return found, members


# --- evaluation ----------------------------------------------------------------------
def evaluate_by(
    data: Any,
    *,
    label: str,
    score: str,
    by: str | Sequence[str],
    pi0: float | str | None = None,
    measures: Iterable[str | Measure] | None = None,
    weight: str | None = None,
    threshold: float = 0.5,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
    ci: bool = False,
    ci_method: str | Mapping[str, str] = "auto",
    level: float = 0.95,
    n_resamples: int = 2000,
    random_state: Any = None,
    min_cases: int = 2,
    undefined: UndefinedPolicy = "warn",
    higher_is_positive: bool = True,
    **engine_options: Any,
) -> ByResult:
    """Evaluate a classifier separately on each group of a data frame.

    Parameters
    ----------
    data : pandas.DataFrame or polars.DataFrame
        One row per case; only the named columns are read.
    label, score : str
        Columns of the true labels and of the scores (see :func:`binmetrics.evaluate`).
    by : str or list of str
        Group column(s). Groups are in the order of their keys: time order for dates,
        numeric or alphabetical order, the categories' order for a pandas
        Categorical (first appearance for keys of mixed types that do not compare);
        a missing value is a group of its own, last. The file and Spark engines
        order them so too. The keys are values for one column name and
        tuples for a list of names.
    pi0 : float in (0, 1), "mean", "min" or None
        Add each measure calibrated to this reference prevalence as ``<id>_cal``
        (Siblini et al.). "mean" is the average of the evaluated groups'
        prevalences (the paper's section 5 suggestion for comparing populations),
        "min" the smallest (the worst case). Default None: no calibration.
    measures : list of ids or aliases, optional
        Default: every measure of the registry.
    weight : str, optional
        Column of non-negative case weights; prevalences are then weighted.
    threshold, pos_label, nan_policy, undefined :
        As in :func:`binmetrics.evaluate`. The positive label is found once, on
        all the rows, so a group with one class is still read correctly.
    ci : bool, default False
        Add the confidence interval of every measure as ``<id>_low`` and
        ``<id>_high`` (:meth:`Evaluation.ci_table` of each group, with
        ``ci_method``, ``level``, ``n_resamples`` and ``random_state``; the same
        ``random_state`` is passed to every group). With ``pi0``, the calibrated
        values get ``<id>_cal_low`` and ``<id>_cal_high`` too: a bootstrap of the
        group's real cases with every replicate calibrated.
    min_cases : int, default 2
        Groups with fewer rows are not evaluated.
    higher_is_positive : bool, default True
        False when lower scores mean more likely positive (as in
        :func:`binmetrics.evaluate`).
    **engine_options :
        A Polars LazyFrame or a Dask DataFrame is counted where it is, by the Polars
        or Dask engine, with these options (``decimals=``, ``bins=``), as
        :func:`binmetrics.evaluate` does; the groups are then in the order of their
        keys, missing keys last.

    Returns
    -------
    ByResult
        ``.to_frame()`` has one row per group: the group column(s), ``n`` (rows
        evaluated), ``positives`` (positive rows), ``prevalence`` (weighted with
        ``weight``), the measures, and ``reason``. A group with fewer than
        ``min_cases`` rows, or with one class only, is kept as a row of NaN
        values whose ``reason`` says why (e.g. "no positives"); evaluated groups
        have reason "".

    Raises
    ------
    ValueError
        A named column is missing (the message lists the available ones), ``pi0``
        is outside (0, 1) or an unknown rule, or the labels/scores are invalid.
    TypeError
        ``data`` is not a pandas or polars DataFrame.

    Examples
    --------
    >>> import pandas as pd
    >>> import binmetrics as bm
    >>> df = pd.DataFrame({
    ...     "month": ["2024-01"] * 6 + ["2024-02"] * 6 + ["2024-03"] * 2,
    ...     "y": [1, 0, 1, 0, 0, 0,  1, 1, 0, 1, 0, 0,  0, 0],
    ...     "p": [.9, .2, .6, .7, .1, .3,  .8, .4, .5, .9, .2, .1,  .3, .6]})
    >>> res = bm.evaluate_by(df, label="y", score="p", by="month", pi0="mean",
    ...                      measures=["auc", "precision"])
    >>> res.pi0  # (2/6 + 3/6) / 2: the group "2024-03" has no positives
    0.41666666666666663
    >>> cols = ["month", "n", "prevalence", "auc", "ppv", "ppv_cal", "reason"]
    >>> res.to_frame()[cols].round(4)  # doctest: +NORMALIZE_WHITESPACE
         month  n  prevalence     auc     ppv  ppv_cal        reason
    0  2024-01  6      0.3333  0.8750  0.6667   0.7407
    1  2024-02  6      0.5000  0.8889  0.6667   0.5882
    2  2024-03  2      0.0000     NaN     NaN      NaN  no positives
    >>> res.evaluations["2024-03"] is None
    True
    """
    engine = frame_engine(data, engine_options)
    if engine is not None:  # a Polars LazyFrame, a Dask DataFrame: counted where it is
        return engine.evaluate(
            data, label=label, score=score, weight=weight, by=by, threshold=threshold,
            pos_label=pos_label, nan_policy=nan_policy, undefined=undefined, pi0=pi0,
            higher_is_positive=higher_is_positive, measures=measures, ci=ci,
            ci_method=ci_method, level=level, n_resamples=n_resamples,
            random_state=random_state, min_cases=min_cases, **engine_options)
    no_engine_options(engine_options, "evaluate_by")
    opts = EvalOptions(threshold=threshold, pos_label=pos_label, nan_policy=nan_policy,
                       undefined=undefined, pi0=pi0, higher_is_positive=higher_is_positive)
    names, tuple_keys = _by_list(by)
    min_cases, chosen, ids = _by_plan(min_cases, measures)

    available, kind = _columns_of(data)
    roles = [("label", label), ("score", score)]
    if weight is not None:
        roles.append(("weight", weight))
    roles += [("group", b) for b in names]
    _check_names(available, roles)
    _check_clash(names, ids)

    y_raw = _column(data, kind, label)
    s_raw = _column(data, kind, score)
    w_raw = None if weight is None else _column(data, kind, weight)
    key_cols = [_key_column(data, kind, b) for b in names]
    inp = check_binary_inputs(y_raw, s_raw, w_raw, pos_label=pos_label, nan_policy=nan_policy)
    scores = opts.oriented(inp.score)
    keys, members = _groups(key_cols)  # on every row: a group of NaN scores only stays
    keep = np.ones(y_raw.shape[0], dtype=bool)
    if inp.n_omitted:  # the rows check_binary_inputs kept
        keep = np.isfinite(as_float(as_1d(s_raw, "y_score"), "y_score"))
    position = np.cumsum(keep) - 1  # row -> its index in the validated arrays

    def group(item: tuple[Any, np.ndarray]) -> tuple[tuple[Any, ...], CountTable | None,
                                                   int, int, int]:
        key, rows_all = item
        idx = position[rows_all[keep[rows_all]]]
        y = inp.y[idx]
        n, n_pos = int(idx.size), int(np.count_nonzero(y))
        w = None if inp.weight is None else inp.weight[idx]
        table = None if n == 0 else CountTable.from_validated(y, scores[idx], w)
        if table is not None:  # the unit of rescaled weights, for display
            table.weight_exponent = inp.weight_exponent
        return key, table, n, n_pos, int(rows_all.size - n)

    # each group's table in threads (the sorts release the GIL; the same tables), when
    # the groups are large enough that the sorts, not the Python around them, dominate
    groups = thread_map(group, list(zip(keys, members, strict=True)),
                        parallel=inp.y.size >= THREAD_ROWS * max(1, len(keys)))
    with asked_for(_named(measures, chosen)):
        return _by_result(groups, names, tuple_keys, opts, min_cases, chosen, ids,
                          pos_label=inp.pos_label, ci=ci, ci_method=ci_method, level=level,
                          n_resamples=n_resamples, random_state=random_state)


def _named(measures: Any, chosen: list[Measure]) -> list[str]:
    """The measures the user named (none for the default, every measure): only these
    give the caveats that need a judgement (:func:`~binmetrics.exceptions.asked_for`)."""
    return [] if measures is None else [m.id for m in chosen]


def _by_plan(min_cases: Any, measures: Any) -> tuple[int, list[Measure], list[str]]:
    """The checked min_cases, chosen measures and result ids."""
    min_cases = check_count(min_cases, "min_cases")
    if measures is None:
        chosen = list(iter_measures())
    else:
        chosen = select_measures(None, measures)  # also a preset: "multilevel28"
        if not chosen:
            raise ValueError("measures is empty; give measure ids, or None for all")
    # the fixed "prevalence" column already holds that measure: no second column
    ids = [m.id for m in chosen if m.id not in _FIXED]
    return min_cases, chosen, ids


def _check_clash(names: list[str], ids: list[str]) -> None:
    out_cols = [*_FIXED, *ids, "reason"]
    clash = [b for b in names if b in out_cols or b.endswith(("_cal", "_low", "_high"))]
    if clash:
        raise ValueError(f"group column {clash[0]!r} has the name of a result column; "
                         "rename it")


def by_tables(
    groups: Iterable[tuple[tuple[Any, ...], CountTable | None, int, int, int]],
    *,
    by: str | Sequence[str],
    options: EvalOptions = DEFAULTS,
    pos_label: Any = None,
    measures: Iterable[str | Measure] | None = None,
    ci: bool = False,
    ci_method: str | Mapping[str, str] = "auto",
    level: float = 0.95,
    n_resamples: int = 2000,
    random_state: Any = None,
    min_cases: int = 2,
) -> ByResult:
    """:func:`evaluate_by`'s result from tables built elsewhere (the engines' group-by).

    ``groups`` holds, per group in the order wanted, ``(key, table, n, positives,
    n_omitted)``: the key as a tuple of the ``by`` values, the group's count table
    (None when no row has a finite score), its rows evaluated, its positive rows and
    the rows dropped by ``nan_policy="omit"``. ``options`` holds the shared evaluation
    options (threshold, undefined, pi0...), ``pos_label`` the positive label found; the
    other parameters are those of :func:`evaluate_by`.
    """
    names, tuple_keys = _by_list(by)
    min_cases, chosen, ids = _by_plan(min_cases, measures)
    _check_clash(names, ids)
    with asked_for(_named(measures, chosen)):
        return _by_result(list(groups), names, tuple_keys, options, min_cases, chosen, ids,
                          pos_label=pos_label, ci=ci, ci_method=ci_method, level=level,
                          n_resamples=n_resamples, random_state=random_state)


@caveats_once()
def _by_result(groups: list[tuple[tuple[Any, ...], CountTable | None, int, int, int]],
               names: list[str], tuple_keys: bool, opts: EvalOptions,
               min_cases: int, chosen: list[Measure], ids: list[str], *, pos_label: Any,
               ci: bool, ci_method: str | Mapping[str, str],
               level: float, n_resamples: int, random_state: Any) -> ByResult:
    rule = opts.pi0
    rows: list[dict[str, Any]] = []
    reasons: list[str] = []
    evaluations: dict[Any, Evaluation | None] = {}
    tables: dict[Any, CountTable | None] = {}
    for key, table, n, n_pos, n_omitted in groups:
        row: dict[str, Any] = dict(zip(names, key, strict=True))
        row.update(n=n, positives=n_pos,
                   prevalence=math.nan if table is None else float(table.prevalence))
        reason = _reason(n, n_pos, table, min_cases)
        ev = None
        if table is not None and not reason:
            ev = opts.evaluation(table, pos_label=pos_label, n_omitted=n_omitted, n_rows=n,
                                 n_positive_rows=n_pos, calibrate=False, check_range=False)
        evaluations[key if tuple_keys else key[0]] = ev
        tables[key if tuple_keys else key[0]] = table
        rows.append(row)
        reasons.append(reason)

    p0 = _resolve_pi0(rule, [r["prevalence"] for r, why in zip(rows, reasons, strict=True)
                             if not why])

    def measured(ev: Evaluation | None) -> tuple[dict[str, float], Evaluation | None]:
        out = dict.fromkeys(ids, math.nan) if ev is None else ev.to_dict(measures=chosen)
        cal = None
        if p0 is not None:
            cal = None if ev is None or math.isnan(p0) else ev.calibrated(p0)
            cv = dict.fromkeys(ids, math.nan) if cal is None else cal.to_dict(measures=chosen)
            out.update({f"{i}_cal": cv[i] for i in ids})
        if ci:
            out.update(_group_bounds(ev, ids, chosen, "", ci_method=ci_method, level=level,
                                     n_resamples=n_resamples, random_state=random_state))
            if p0 is not None:  # bootstrap of the real cases, each replicate calibrated
                out.update(_group_bounds(cal, ids, chosen, "_cal", ci_method="auto",
                                         level=level, n_resamples=n_resamples,
                                         random_state=random_state))
        return out, cal

    # each group's measures in threads, as its table was built: the sorts and passes
    # over large groups release the GIL (the same values and warnings as a loop)
    sizes = [ev.table.n_distinct for ev in evaluations.values() if ev is not None]
    done = thread_map(measured, list(evaluations.values()),
                      parallel=min(sizes, default=0) >= THREAD_ROWS)
    calibrated: dict[Any, Evaluation | None] = {}
    records = []
    for row, reason, key, (values, cal) in zip(rows, reasons, evaluations, done, strict=True):
        row.update(values)
        if p0 is not None:
            calibrated[key] = cal
        row["reason"] = reason
        records.append(row)

    columns = [*names, *_FIXED, *ids]
    if p0 is not None:
        columns += [f"{i}_cal" for i in ids]
    if ci:
        columns += [c for i in ids for c in (f"{i}_low", f"{i}_high")]
        if p0 is not None:
            columns += [c for i in ids for c in (f"{i}_cal_low", f"{i}_cal_high")]
    columns.append("reason")
    frame = pd.DataFrame.from_records(records, columns=columns)
    for c in columns[len(names) + len(_FIXED):-1]:
        frame[c] = frame[c].astype(float)
    frame.attrs["pi0"] = p0
    return ByResult(frame, by=names, keys=list(evaluations), evaluations=evaluations,
                    calibrated_evaluations=calibrated, pi0=p0, measures=ids,
                    pos_label=pos_label, tables=tables, options=opts)


def _group_bounds(ev: Evaluation | None, ids: list[str], chosen: list[Measure], suffix: str,
                  *, ci_method: str | Mapping[str, str], level: float, n_resamples: int,
                  random_state: Any) -> dict[str, float]:
    """The ``<id><suffix>_low`` and ``_high`` columns of one group (NaN when not evaluated)."""
    bounds = {i: (math.nan, math.nan) for i in ids}
    if ev is not None:
        t = ev.ci_table(chosen, method=ci_method, level=level, n_resamples=n_resamples,
                        random_state=random_state)
        bounds = {i: (float(lo), float(hi))
                  for i, lo, hi in zip(t["id"], t["low"], t["high"], strict=True)}
    return {f"{i}{suffix}_{side}": b for i in ids
            for side, b in zip(("low", "high"), bounds[i], strict=True)}


def _reason(n: int, n_pos: int, table: CountTable | None, min_cases: int) -> str:
    """Why a group is not evaluated ("" when it is)."""
    if n == 0:
        return "no rows with a finite score"
    if n < min_cases:
        return f"{n} row{'s' if n != 1 else ''}, fewer than min_cases={min_cases}"
    if n_pos == 0:
        return "no positives"
    if n_pos == n:
        return "no negatives"
    assert table is not None
    if table.P == 0:
        return "the positives have zero total weight"
    if table.N == 0:
        return "the negatives have zero total weight"
    return ""


def _resolve_pi0(rule: float | str | None, prevalences: list[float]) -> float | None:
    if rule is None or isinstance(rule, float):
        return rule
    if not prevalences:
        return math.nan
    return float(np.mean(prevalences)) if rule == "mean" else float(np.min(prevalences))

