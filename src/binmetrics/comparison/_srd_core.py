"""The shared core of the SRD modules: input checks, pretreatment, references and ranks.

Everything that :mod:`binmetrics.comparison.srd_ranking` (the SRD itself),
:mod:`binmetrics.comparison.srd_randomization` (the randomization test),
:mod:`binmetrics.comparison.srd_crossvalidation` (the cross-validation) and
:mod:`binmetrics.comparison.srd_covat` (SRD-COVAT) compute alike: the table checked and
made float (``_as_frame``), its pretreatment (docs/methods.md §1.2), the reference of a run
(``_Spec``, ``_compute``: a fused row statistic, a column or an external vector),
average ranks (§1.4) and the SRD of every column, SRDmax (§1.5), and the discrete null
law ``_Null`` whose quantile rule (rSRD's) the randomization test and the
cross-validation share. The public names here (:func:`srd_max`,
:func:`pretreat_table`) are published by :mod:`binmetrics.comparison.srd_ranking`.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy import stats

from binmetrics.exceptions import BinmetricsWarning
from binmetrics.measures import get_measure
from binmetrics.validation import check_nan_policy, weight_exponent

FloatArray = npt.NDArray[Any]  # float arrays (pandas gives floating[Any])
Pretreat = Literal["none", "range", "standardize", "unit_length", "scale_to_max", "rank"]
Axis = Literal["columns", "rows"]

#: rSRD's names of the pretreatments (``utilsPreprocessDF``), accepted as aliases
_PRETREAT_ALIASES = {"range_scale": "range", "scale_to_unit": "unit_length",
                     "autoscale": "standardize", None: "none"}
_PRETREATMENTS = ("none", "range", "standardize", "unit_length", "scale_to_max", "rank")
_FUSED = ("mean", "median", "min", "max", "best", "mixed")
_TOL = 1e-9  # SRD values are multiples of 0.5: anything closer is equal


def srd_max(n: int) -> int:
    """The largest SRD of a column of ``n`` tie-free ranks: floor(n^2/2) (docs/methods.md §1.5).

    Examples
    --------
    >>> [srd_max(n) for n in range(1, 9)]
    [0, 2, 4, 8, 12, 18, 24, 32]
    """
    return n * n // 2


# --- input ----------------------------------------------------------------------------
def _as_frame(table: Any, nan_policy: str,
              rescale: bool = True) -> tuple[pd.DataFrame, npt.NDArray[np.bool_] | None]:
    """The table as a float DataFrame, and the rows kept (None: all of them); with
    ``rescale`` (not with ``decimals``, which rounds in the table's own unit) an extreme
    table is multiplied by a power of two (:func:`_rescaled`)."""
    if isinstance(table, pd.DataFrame):
        frame = table.copy()
    elif type(table).__name__ == "LazyFrame":
        raise TypeError("SRD needs the data: call .collect() on the polars LazyFrame first")
    elif hasattr(table, "to_pandas"):  # polars
        frame = table.to_pandas()
    else:
        arr = np.asarray(table)
        if arr.ndim != 2:
            raise ValueError(f"SRD needs a 2-D table (objects in rows, methods in columns); "
                             f"got an array of shape {arr.shape}")
        frame = pd.DataFrame(arr)
    if frame.columns.has_duplicates:
        dup = sorted({str(c) for c in frame.columns[frame.columns.duplicated()]})
        raise ValueError(f"column names must be unique; repeated: {dup}")
    for c in frame.columns:  # object columns of numbers (as evaluate accepts them)
        if frame[c].dtype == object and _real_numbers(frame[c]):
            frame[c] = frame[c].astype(float)
    non_numeric = [c for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])
                   or pd.api.types.is_bool_dtype(frame[c])]
    if non_numeric:
        raise ValueError(f"SRD needs numeric columns; {non_numeric} are not numeric "
                         "(put row labels in the index, e.g. DataFrame.set_index)")
    frame = frame.astype(float)
    values = frame.to_numpy()
    if np.isinf(values).any():
        r, c = np.argwhere(np.isinf(values))[0]
        raise ValueError(f"the table has infinite values, e.g. row {frame.index[r]!r}, "
                         f"column {frame.columns[c]!r}")
    kept = None
    bad = np.isnan(values)
    check_nan_policy(nan_policy)
    if bad.any():
        if nan_policy == "omit":
            kept = ~bad.any(axis=1)
            dropped = list(frame.index[~kept])
            warnings.warn(f"SRD: dropped {len(dropped)} rows with missing values: "
                          f"{dropped[:10]}{' ...' if len(dropped) > 10 else ''}", BinmetricsWarning,
                          stacklevel=3)
            frame = frame.loc[kept]
        else:
            cells = [(frame.index[r], frame.columns[c]) for r, c in np.argwhere(bad)]
            raise ValueError(f"the table has {len(cells)} missing (NaN) cells (row, column): "
                             f"{cells[:10]}{' ...' if len(cells) > 10 else ''}; fill them or "
                             "pass nan_policy='omit' to drop those rows")
    if rescale:
        frame = _rescaled(frame)
    n, m = frame.shape
    if n < 3 or m < 2:
        raise ValueError(f"SRD needs at least 3 rows (objects) and 2 columns (methods) to "
                         f"compare rankings; the table has {n} rows and {m} columns")
    return frame, kept


def _real_numbers(column: pd.Series) -> bool:
    """Whether an object column holds only real numbers (or missing values)."""
    return all(v is None or (isinstance(v, numbers.Real) and not isinstance(v, bool))
               for v in column.tolist())


def _rescaled(frame: pd.DataFrame) -> pd.DataFrame:
    """The table multiplied by a power of two (exact) when its largest magnitude is
    outside [2**-100, 2**100], so that the row means, sums and pretreatments neither
    overflow nor underflow: SRD reads ranks, which do not change."""
    values = frame.to_numpy()
    finite = np.abs(values[np.isfinite(values)])
    top = float(finite.max()) if finite.size else 0.0
    exponent = weight_exponent(top)
    if not exponent:
        return frame
    return pd.DataFrame(np.ldexp(values, exponent), index=frame.index, columns=frame.columns)


def _check_decimals(decimals: Any) -> int | None:
    if decimals is None:
        return None
    if isinstance(decimals, bool) or not isinstance(decimals, (int, np.integer)) or decimals < 0:
        raise ValueError(f"decimals must be a non-negative integer, got {decimals!r}")
    return int(decimals)


def _per_row(value: Any, kept: npt.NDArray[np.bool_] | None, n_before: int) -> Any:
    """A per-row vector (not a Series, which aligns by label) restricted to kept rows."""
    if kept is None or isinstance(value, (str, pd.Series, Mapping)) or value is None:
        return value
    arr = np.asarray(value)
    return arr[kept] if arr.ndim == 1 and arr.size == n_before else value


def _pretreat_name(pretreat: Any) -> str:
    name = _PRETREAT_ALIASES.get(pretreat, pretreat)
    if name not in _PRETREATMENTS:
        raise ValueError(f"pretreat must be one of {list(_PRETREATMENTS)} (or rSRD's "
                         f"'range_scale', 'scale_to_unit'); got {pretreat!r}")
    return str(name)


def pretreat_table(frame: pd.DataFrame, pretreat: str = "none",
                   axis: Axis = "columns") -> pd.DataFrame:
    """Apply an SRD data pretreatment per column (default) or per row (docs/methods.md §1.2).

    A strictly increasing per-column transform leaves that column's ranks unchanged;
    it matters only for a reference fused from several columns (mean, median, ...).
    Row-wise pretreatment is for rows that hold different quantities (performance
    measures), and changes the column ranks.

    Examples
    --------
    >>> import pandas as pd
    >>> pretreat_table(pd.DataFrame({"a": [1.0, 2.0, 3.0]}), "range")["a"].tolist()
    [0.0, 0.5, 1.0]
    """
    return _pretreat(frame, _pretreat_name(pretreat), axis, tie_degenerate=False)[0]


def _pretreat(frame: pd.DataFrame, name: str, axis: Axis,
              tie_degenerate: bool) -> tuple[pd.DataFrame, list[Any]]:
    """Pretreated data, and the columns (rows) whose scale is 0. Those are an error, or
    with ``tie_degenerate`` (a resample of cross-validation in which a column happens to
    be constant) set to 0: constant, all ranks tied, as their limit would be."""
    if axis not in ("columns", "rows"):
        raise ValueError(f"axis must be 'columns' or 'rows', got {axis!r}")
    if name == "none":
        return frame, []
    data = frame if axis == "columns" else frame.T
    x = data.to_numpy(dtype=float)
    what = "column" if axis == "columns" else "row"
    with np.errstate(divide="ignore", invalid="ignore"):
        if name == "range":
            lo, hi = x.min(axis=0), x.max(axis=0)
            scale, why, out = hi - lo, "range", (x - lo) / (hi - lo)
        elif name == "standardize":
            sd = x.std(axis=0, ddof=1)
            scale, why, out = sd, "standard deviation", (x - x.mean(axis=0)) / sd
        elif name == "unit_length":
            norm = np.sqrt((x * x).sum(axis=0))
            scale, why, out = norm, "length", x / norm
        elif name == "scale_to_max":
            mx = x.max(axis=0)
            scale, why, out = mx, "maximum", x / mx
        else:  # rank: Borda-style fusion
            scale, why, out = np.ones(x.shape[1]), "", stats.rankdata(x, axis=0)
    bad = scale == 0
    names = list(data.columns[bad])
    if names and not tie_degenerate:
        raise ValueError(f"pretreat={name!r} divides by each {what}'s {why}, which is 0 "
                         f"for {what}s {names} (constant or all zero); drop them or choose "
                         "another pretreatment")
    out[:, bad] = 0.0
    result = pd.DataFrame(out, index=data.index, columns=data.columns)
    return (result if axis == "columns" else result.T), names


_ROW_STATS = ("max", "min", "mean", "median")


def _row_rules(directions: Any, index: pd.Index, mixed: bool) -> npt.NDArray[np.str_]:
    """The statistic of each row for reference "best" (+1 -> max, -1 -> min) or rSRD's
    "mixed" (any of max, min, mean, median)."""
    n = len(index)
    what = "reference='mixed'" if mixed else "reference='best'"
    if directions is None:
        if mixed:
            raise ValueError("reference='mixed' needs directions=: one of 'max', 'min', "
                             "'mean', 'median' per row")
        found, unknown, neutral = [], [], []
        for label in index:  # rows are measures: each one's direction from the registry
            try:
                d = get_measure(str(label)).direction
            except KeyError:
                unknown.append(label)
                continue
            if d == 0:
                neutral.append(label)
            found.append(d)
        if unknown or neutral:
            parts = []
            if unknown:
                parts.append(f"rows {unknown[:10]} are not measures of the registry")
            if neutral:
                parts.append(f"rows {neutral} have no better direction (e.g. prevalence)")
            raise ValueError(f"{what} takes each row's direction from the measure "
                             f"registry, but {'; '.join(parts)}; drop those rows or pass "
                             "directions= (+1 larger is better, -1 smaller is better)")
        raw = np.asarray(found, dtype=object)
    elif isinstance(directions, pd.Series):
        if directions.index.has_duplicates:
            raise ValueError("the directions Series has repeated labels")
        missing = [lab for lab in index if lab not in directions.index]
        if missing:
            raise ValueError(f"directions has no entry for rows {missing[:10]}")
        raw = directions.reindex(index).to_numpy(dtype=object)
    elif isinstance(directions, Mapping):
        missing = [lab for lab in index if lab not in directions]
        if missing:
            raise ValueError(f"directions has no entry for rows {missing[:10]}")
        raw = np.asarray([directions[lab] for lab in index], dtype=object)
    else:
        raw = np.asarray(directions, dtype=object)
        if raw.ndim == 0:
            raw = np.full(n, raw.item(), dtype=object)
        if raw.shape != (n,):
            raise ValueError(f"directions must be a scalar or have one entry per row: the "
                             f"table has {n} rows, directions has shape {raw.shape}")
    named = {1: "max", -1: "min"}  # 1.0 and -1.0 hash alike
    rules = np.asarray([named.get(v, v) if not isinstance(v, str) else v.lower()
                        for v in raw.tolist()], dtype=object)
    allowed = _ROW_STATS if mixed else ("max", "min")
    bad = sorted({str(v) for v in rules.tolist() if v not in allowed})
    if bad:
        hint = ("'max', 'min', 'mean' or 'median'" if mixed else
                "+1 (larger is better) or -1 (smaller is better), or 'max'/'min'")
        raise ValueError(f"directions of {what} must be {hint}; got {bad}")
    return rules.astype(str)


# --- the computation --------------------------------------------------------------------
@dataclass(frozen=True)
class _Spec:
    """Everything that defines an SRD run, so that a resample can run it again."""

    reference: Any
    directions: Any
    pretreat: str
    axis: Axis
    decimals: int | None
    keep_reference: bool


def _rank(x: FloatArray, decimals: int | None) -> FloatArray:
    if decimals is not None:  # rSRD's `precision`: near-equal values become ties
        x = np.floor(x * 10.0 ** decimals)
    return stats.rankdata(x, axis=0)


def _compute(frame: pd.DataFrame, spec: _Spec, *, tie_degenerate: bool = False,
             degenerate: list[Any] | None = None) -> tuple[pd.DataFrame, pd.Series, str | None]:
    """(pretreated data of the compared columns, reference values, reference column).

    ``degenerate`` collects the columns whose scale was 0 (with ``tie_degenerate``)."""
    data, flat = _pretreat(frame, spec.pretreat, spec.axis, tie_degenerate)
    if degenerate is not None:
        degenerate.extend(flat)
    ref, ref_col = spec.reference, None
    if isinstance(ref, str) and ref in _FUSED:
        x = data.to_numpy()
        if ref in ("best", "mixed"):
            rules = _row_rules(spec.directions, data.index, mixed=ref == "mixed")
            by_rule = {"max": x.max(axis=1), "min": x.min(axis=1), "mean": x.mean(axis=1),
                       "median": np.median(x, axis=1)}
            values = np.select([rules == k for k in by_rule], list(by_rule.values()))
        else:
            values = getattr(np, ref)(x, axis=1)
        return data, pd.Series(values, index=data.index, name=ref), None
    if not isinstance(ref, (list, tuple, np.ndarray, pd.Series)):
        if ref in data.columns:
            ref_col = ref
        elif isinstance(ref, (int, np.integer)) and 0 <= ref < data.shape[1]:
            ref_col = data.columns[int(ref)]
        else:
            raise ValueError(f"reference must be one of {list(_FUSED)}, a column name or "
                             f"position, or a vector with one value per row; got {ref!r} "
                             f"(columns: {list(data.columns)[:20]})")
        values = data[ref_col]
        if not spec.keep_reference:
            data = data.drop(columns=[ref_col])
        return data, values.rename(str(ref_col)), str(ref_col)
    if isinstance(ref, pd.Series):
        if ref.index.has_duplicates:
            raise ValueError("the reference Series has repeated index labels; it is aligned "
                             "with the table's rows by label")
        vec = ref.reindex(frame.index)
        if vec.isna().any():
            raise ValueError("the reference Series must have a value for every row; it "
                             f"misses {list(frame.index[vec.isna().to_numpy()])[:10]}")
        vec_values = vec.to_numpy(dtype=float)
    else:
        vec_values = np.asarray(ref, dtype=float)
    if vec_values.shape != (len(frame),):
        raise ValueError(f"a reference vector needs one value per row: the table has "
                         f"{len(frame)} rows, the reference has shape {vec_values.shape}")
    if not np.isfinite(vec_values).all():
        raise ValueError("the reference vector has NaN or infinite values")
    return data, pd.Series(vec_values, index=data.index, name="reference"), None


def _srd_values(data: pd.DataFrame, reference: pd.Series,
                decimals: int | None) -> tuple[FloatArray, FloatArray, FloatArray]:
    ranks = _rank(data.to_numpy(), decimals)
    ref_ranks = _rank(reference.to_numpy(dtype=float)[:, None], decimals)[:, 0]
    return np.abs(ranks - ref_ranks[:, None]).sum(axis=0), ranks, ref_ranks


# --- null laws ----------------------------------------------------------------------------
@dataclass(frozen=True)
class _Null:
    """A discrete null law of SRD (support ascending) or a normal one."""

    support: FloatArray
    pmf: FloatArray
    normal: tuple[float, float] | None = None  # (mean, sd) when approximated
    exact: bool = True

    def pvalue_lower(self, obs: float) -> float:
        if self.normal is not None:  # continuity: D lives on even integers
            return float(stats.norm.cdf(obs + 1.0, *self.normal))
        return float(min(1.0, self.pmf[self.support <= obs + _TOL].sum()))

    def pvalue_upper(self, obs: float) -> float:
        if self.normal is not None:
            return float(stats.norm.sf(obs - 1.0, *self.normal))
        return float(min(1.0, self.pmf[self.support >= obs - _TOL].sum()))

    def quantile(self, q: float) -> float:
        """The smallest support value v with F(v) ≥ q (rSRD's rule)."""
        if self.normal is not None:
            return float(stats.norm.ppf(q, *self.normal))
        cdf = np.cumsum(self.pmf)
        return float(self.support[min(int(np.searchsorted(cdf, q - 1e-12)),
                                      len(cdf) - 1)])


class _SRDFit(Protocol):
    """What the randomization test and the cross-validation read of an
    :class:`~binmetrics.comparison.srd_ranking.SRDResult` (a protocol, so that their modules need
    not import :mod:`binmetrics.comparison.srd_ranking`, which imports them)."""

    @property
    def n(self) -> int: ...
    @property
    def srd_max(self) -> int: ...
    @property
    def values(self) -> pd.Series: ...
    @property
    def ranks(self) -> pd.DataFrame: ...
    @property
    def reference_ranks(self) -> pd.Series: ...
    @property
    def reference_column(self) -> str | None: ...
    @property
    def compared(self) -> list[Any]: ...
    @property
    def _frame(self) -> pd.DataFrame: ...
    @property
    def _spec(self) -> _Spec: ...

    def to_frame(self) -> pd.DataFrame: ...
