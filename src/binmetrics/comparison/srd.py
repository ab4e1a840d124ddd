"""Sum of Ranking Differences (SRD): which methods rank the objects like a reference.

SRD (Héberger 2010; Kollár-Hunek & Héberger 2013) compares the columns of a table
(methods, models, performance measures) through the rankings they give its rows
(objects): each column and a reference column are ranked, and a column's SRD is the
sum of the absolute differences between its ranks and the reference's. Small is
close to the reference. The multi-level comparison paper (Rácz, Bajusz & Héberger,
in ``seeds/``) uses it twice: performance measures compared with the mean of all
measures, and classifiers compared with a hypothetical best classifier.

Every convention here is pinned in ``spec/METHODS.md`` section 1: average ranks for
ties (§1.4), SRDmax = floor(n^2/2) (§1.5), the exact null distribution of Spearman's
footrule by dynamic programming (§1.6a), the tie-preserving permutation null (§1.6c),
the cross-validation variants and the Wilcoxon / sign tests (§1.7), and COVAT (§1.8).
Options that reproduce rSRD are named as such (``null="rsrd"``, ``cv="rsrd_wilcoxon"``,
``keep_reference=False``, ``decimals=``).

Examples
--------
The rSRD example of METHODS.md §1.9, compared with the row means:

>>> import pandas as pd
>>> from binmetrics.comparison.srd import srd
>>> X = pd.DataFrame({"A": [32, 52, 44, 44, 47], "B": [73, 75, 65, 76, 70],
...                   "C": [60, 59, 57, 55, 60], "D": [35, 24, 44, 83, 47],
...                   "E": [41, 52, 46, 50, 65]})
>>> res = srd(X)
>>> res.values.tolist()
[5.0, 6.0, 8.0, 4.0, 4.0]
>>> res.normalized.round(2).tolist()
[41.67, 50.0, 66.67, 33.33, 33.33]
"""

from __future__ import annotations

import functools
import itertools
import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy import stats
from scipy.cluster import hierarchy
from scipy.spatial.distance import pdist, squareform

from binmetrics.backends import axes
from binmetrics.measures import get_measure

FloatArray = npt.NDArray[Any]  # float arrays (pandas gives floating[Any])
Pretreat = Literal["none", "range", "standardize", "unit_length", "scale_to_max", "rank"]
Axis = Literal["columns", "rows"]
NullKind = Literal["auto", "exact", "permutation", "normal", "rsrd"]
CVKind = Literal["kfold", "loo", "bootstrap", "rsrd_wilcoxon"]

#: rSRD's names of the pretreatments (``utilsPreprocessDF``), accepted as aliases
_PRETREAT_ALIASES = {"range_scale": "range", "scale_to_unit": "unit_length",
                     "autoscale": "standardize", None: "none"}
_PRETREATMENTS = ("none", "range", "standardize", "unit_length", "scale_to_max", "rank")
_FUSED = ("mean", "median", "min", "max", "best", "mixed")
#: probabilities of the reported quantiles XX1, Q1, Med, Q3, XX19 (§1.6b)
QUANTILES = {"XX1": 0.05, "Q1": 0.25, "Med": 0.5, "Q3": 0.75, "XX19": 0.95}
#: beyond this n the exact footrule null gives way to its exact-moment normal law
EXACT_MAX_N = 300
#: tie-preserving nulls are enumerated exactly up to n! = 40320 permutations
ENUMERATE_MAX_N = 8
_TOL = 1e-9  # SRD values are multiples of 0.5: anything closer is equal


def srd_max(n: int) -> int:
    """The largest SRD of a column of ``n`` tie-free ranks: floor(n^2/2) (METHODS §1.5).

    Examples
    --------
    >>> [srd_max(n) for n in range(1, 9)]
    [0, 2, 4, 8, 12, 18, 24, 32]
    """
    return n * n // 2


# --- input ----------------------------------------------------------------------------
def _as_frame(table: Any, nan_policy: str) -> tuple[pd.DataFrame, npt.NDArray[np.bool_] | None]:
    """The table as a float DataFrame, and the rows kept (None: all of them)."""
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
    if nan_policy not in ("raise", "omit"):
        raise ValueError(f"nan_policy must be 'raise' or 'omit', got {nan_policy!r}")
    if bad.any():
        if nan_policy == "omit":
            kept = ~bad.any(axis=1)
            dropped = list(frame.index[~kept])
            warnings.warn(f"SRD: dropped {len(dropped)} rows with missing values: "
                          f"{dropped[:10]}{' ...' if len(dropped) > 10 else ''}", stacklevel=3)
            frame = frame.loc[kept]
        else:
            cells = [(frame.index[r], frame.columns[c]) for r, c in np.argwhere(bad)]
            raise ValueError(f"the table has {len(cells)} missing (NaN) cells (row, column): "
                             f"{cells[:10]}{' ...' if len(cells) > 10 else ''}; fill them or "
                             "pass nan_policy='omit' to drop those rows")
    n, m = frame.shape
    if n < 3 or m < 2:
        raise ValueError(f"SRD needs at least 3 rows (objects) and 2 columns (methods) to "
                         f"compare rankings; the table has {n} rows and {m} columns")
    return frame, kept


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
    """Apply an SRD data pretreatment per column (default) or per row (METHODS §1.2).

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


def srd(
    table: Any,
    reference: Any = "mean",
    *,
    directions: Any = None,
    pretreat: Pretreat | str = "none",
    axis: Axis = "columns",
    decimals: int | None = None,
    keep_reference: bool = True,
    nan_policy: Literal["raise", "omit"] = "raise",
) -> SRDResult:
    """Sum of Ranking Differences of every column against a reference (METHODS §1).

    Each column and the reference are ranked in increasing order with average ranks
    for ties; a column's SRD is ``Σ_i |rank_ij − rank_ref,i|``, and SRD% is
    ``100·SRD / SRDmax`` with ``SRDmax = floor(n²/2)`` (no-tie maximum, as rSRD).

    Parameters
    ----------
    table : DataFrame or 2-D array
        Objects in rows (n ≥ 3), methods in columns (m ≥ 2). Row labels are the index.
    reference : str, column name or position, or array of shape (n,), default "mean"
        ``"mean"``, ``"median"``, ``"min"``, ``"max"``: the row-wise statistic over all
        columns after pretreatment (data fusion). ``"best"``: the row maximum where the
        row's direction is +1 and the row minimum where it is −1, the "hypothetical
        best" of the multi-level comparison paper (§2.2). ``"mixed"``: rSRD's per-row
        statistic given in ``directions``. A column name (or an int position): that
        column is the reference. A vector: an external gold standard.
    directions : scalar, array of shape (n,), dict or Series, optional
        For ``reference="best"``: +1 (or "max") where larger is better, −1 (or "min")
        where smaller is better. By default each row label is looked up in the measure
        registry, so a table with measures in rows needs no typing (``bm.measures()``
        lists them). For ``reference="mixed"``: "max", "min", "mean" or "median" per
        row.
    pretreat : {"none", "range", "standardize", "unit_length", "scale_to_max", "rank"}
        Data pretreatment (§1.2), per column or per row (``axis``). rSRD names
        ``"range_scale"`` and ``"scale_to_unit"`` are accepted.
    axis : {"columns", "rows"}, default "columns"
        Direction of the pretreatment.
    decimals : int, optional
        Round down to this many decimals before ranking (rSRD's ``precision``), so
        that values equal up to noise tie. Default: no rounding.
    keep_reference : bool, default True
        With a column as reference: keep it in the result with SRD 0 (srdpy) or drop
        it (``False``, as rSRD does).
    nan_policy : {"raise", "omit"}, default "raise"
        Missing cells are an error naming them, or their rows are dropped.

    Returns
    -------
    SRDResult

    References
    ----------
    Héberger K. (2010) Sum of ranking differences compares methods or models fairly.
    TrAC 29:101–109. Rácz A., Bajusz D., Héberger K. (2019) Multi-level comparison of
    machine learning classifiers and their performance metrics. Molecules 24:2811.

    Examples
    --------
    Classifiers in columns, measures in rows: the reference is the best value of
    each row, with the direction of each measure read from the registry.

    >>> import pandas as pd
    >>> from binmetrics.comparison.srd import srd
    >>> scores = pd.DataFrame({"rf": [0.91, 0.85, 0.12, 0.80],
    ...                        "nb": [0.84, 0.80, 0.20, 0.71],
    ...                        "knn": [0.88, 0.70, 0.15, 0.75]},
    ...                       index=["auc", "accuracy", "brier", "f1"])
    >>> res = srd(scores, "best", pretreat="range", axis="rows")
    >>> res.values.to_dict()
    {'rf': 0.0, 'nb': 6.0, 'knn': 4.0}
    """
    n_before = len(table) if hasattr(table, "__len__") else 0
    frame, kept = _as_frame(table, nan_policy)
    if directions is not None and not (isinstance(reference, str)
                                       and reference in ("best", "mixed")):
        raise ValueError("directions= applies to reference='best' or 'mixed' only; got "
                         f"reference={reference!r}")
    spec = _Spec(_per_row(reference, kept, n_before), _per_row(directions, kept, n_before),
                 _pretreat_name(pretreat), axis, _check_decimals(decimals),
                 bool(keep_reference))
    return SRDResult(frame, spec)


class SRDResult:
    """SRD and SRD% of each column, with the randomization test and cross-validation.

    Create it with :func:`srd`.

    Attributes
    ----------
    values : pandas.Series
        SRD of each column (can be non-integer with ties).
    normalized : pandas.Series
        SRD% = 100·SRD/SRDmax.
    ranks : pandas.DataFrame
        Average ranks of every compared column.
    reference, reference_ranks : pandas.Series
        The reference values (after pretreatment) and their ranks.
    reference_column : str or None
        The column used as reference, if any.
    n, srd_max : int
        Number of objects and the no-tie maximum floor(n²/2).
    """

    def __init__(self, frame: pd.DataFrame, spec: _Spec) -> None:
        self._frame, self._spec = frame, spec
        data, ref, self.reference_column = _compute(frame, spec)
        values, ranks, ref_ranks = _srd_values(data, ref, spec.decimals)
        self.n = len(frame)
        self.srd_max = srd_max(self.n)
        self.values = pd.Series(values, index=data.columns, name="srd")
        self.normalized = pd.Series(100.0 * values / self.srd_max, index=data.columns,
                                    name="srd_pct")
        self.ranks = pd.DataFrame(ranks, index=frame.index, columns=data.columns)
        self.reference = ref
        self.reference_ranks = pd.Series(ref_ranks, index=frame.index, name="reference_rank")
        self._randomization: SRDRandomization | None = None

    def to_frame(self) -> pd.DataFrame:
        """SRD and SRD% per column, smallest (closest to the reference) first."""
        out = pd.DataFrame({"srd": self.values, "srd_pct": self.normalized})
        out.index.name = "column"
        if self.reference_column is not None and self.reference_column in out.index:
            out["reference"] = out.index == self.reference_column  # kept, SRD 0 by design
        return out.sort_values("srd", kind="stable")

    @property
    def compared(self) -> list[Any]:
        """The columns compared with the reference (a kept reference column is not)."""
        return [c for c in self.values.index if c != self.reference_column]

    def _repr_html_(self) -> str:
        return str(self.to_frame().to_html(float_format=lambda v: f"{v:.4g}"))

    def __repr__(self) -> str:
        return (f"SRDResult(n={self.n}, columns={len(self.values)}, reference="
                f"{self.reference.name!r})\n{self.to_frame().to_string()}")

    def randomization(
        self,
        *,
        null: NullKind = "auto",
        n_perm: int = 100_000,
        random_state: Any = None,
        alpha: float = 0.05,
        tie_mode: str = "f",
        tie_prob: float | None = None,
        n_sim: int = 1_000_000,
    ) -> SRDRandomization:
        """Test each column against random ranking (CRRN, METHODS §1.6).

        Parameters
        ----------
        null : {"auto", "exact", "permutation", "normal", "rsrd"}, default "auto"
            ``"exact"``: the footrule law of a random permutation, exact by dynamic
            programming up to n = 300 and its exact-moment normal law above
            (``"normal"`` forces that law). ``"permutation"``: each column's own
            average ranks permuted against the fixed reference ranks, which keeps
            its ties (enumerated for n ≤ 8, Monte Carlo with ``n_perm`` draws
            otherwise). ``"auto"``: exact where neither the column nor the reference
            has ties, permutation otherwise. ``"rsrd"``: rSRD's simulation
            (``calculateSRDDistribution``) with its ``tie_mode`` ('n', 'r', 'f',
            't', 'p', 'd') and ``tie_prob``, ``n_sim`` draws.
        n_perm : int, default 100000
            Monte Carlo draws of the permutation null (n > 8).
        random_state : int or Generator, optional
            Seed for the Monte Carlo nulls.
        alpha : float, default 0.05
            Level of the ``better_than_random`` decision (p_lower ≤ alpha).

        Returns
        -------
        SRDRandomization

        Examples
        --------
        >>> import pandas as pd
        >>> from binmetrics.comparison.srd import srd
        >>> X = pd.DataFrame({"A": [32, 52, 44, 44, 47], "B": [73, 75, 65, 76, 70],
        ...                   "C": [60, 59, 57, 55, 60], "D": [35, 24, 44, 83, 47],
        ...                   "E": [41, 52, 46, 50, 65]})
        >>> rt = srd(X, "E").randomization()
        >>> round(float(rt.p_lower["A"]), 4)   # A has a tie: the tie-preserving null, 8/120
        0.0667
        >>> round(rt.quantiles["XX1"], 2)   # SRD% of the 5% quantile of random rankings
        33.33
        """
        if not 0 < alpha < 1:
            raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
        if null not in ("auto", "exact", "permutation", "normal", "rsrd"):
            raise ValueError("null must be 'auto', 'exact', 'permutation', 'normal' or "
                             f"'rsrd', got {null!r}")
        if int(n_perm) < 1 or int(n_sim) < 1:
            raise ValueError("n_perm and n_sim must be positive")
        if null != "rsrd" and (tie_prob is not None or tie_mode != "f"):
            raise ValueError("tie_mode and tie_prob apply to null='rsrd' only")
        rng = np.random.default_rng(random_state)
        return SRDRandomization(self, null, int(n_perm), rng, alpha, tie_mode, tie_prob,
                                int(n_sim))

    def cross_validate(
        self,
        cv: CVKind = "kfold",
        k: int = 7,
        *,
        repeats: int = 1,
        shuffle: bool = True,
        n_boot: int = 200,
        random_state: Any = None,
    ) -> SRDCrossValidation:
        """Validate the SRD ordering on resampled rows (METHODS §1.7).

        Each resample drops rows, re-fuses the reference on the rows kept and
        normalises by SRDmax of that many rows. Neighbouring columns (ordered by
        their median SRD%, ties broken by Q1, Q3, min, max as rSRD does) are then
        compared with the Wilcoxon matched-pairs signed-rank test and the sign test.

        Parameters
        ----------
        cv : {"kfold", "loo", "bootstrap", "rsrd_wilcoxon"}, default "kfold"
            ``"kfold"``: k folds, each left out once (7 is Héberger's default;
            ``shuffle=False`` gives contiguous folds, as srdpy's KFold). ``"loo"``:
            leave one row out (advised for n < 14). ``"bootstrap"``: ``n_boot`` draws
            of n rows with replacement. ``"rsrd_wilcoxon"``: rSRD's default,
            min(n, 8) random subsets each leaving out ceil(n/k) rows.
        k : int, default 7
            Number of folds.
        repeats : int, default 1
            Repetitions of shuffled k-fold ("Monte Carlo k-fold in ten iterations"
            of the multi-level comparison paper is ``k=5, repeats=10``).
        random_state : int or Generator, optional
            Seed for shuffling and drawing.

        Returns
        -------
        SRDCrossValidation

        Examples
        --------
        >>> import pandas as pd
        >>> from binmetrics.comparison.srd import srd
        >>> X = pd.DataFrame({"A": [32, 52, 44, 44, 47, 51], "B": [73, 75, 65, 76, 70, 60],
        ...                   "C": [60, 59, 57, 55, 60, 58]})
        >>> cv = srd(X).cross_validate("loo")
        >>> cv.folds.shape
        (6, 3)
        """
        rows = _resamples(self.n, cv, k, repeats, shuffle, n_boot,
                          np.random.default_rng(random_state))
        return SRDCrossValidation(self, rows, cv)

    def plot(self, *, ax: Any = None, null: SRDRandomization | None = None,
             annotate: bool = True) -> Any:
        """The SRD plot: each column drawn at its SRD% on both axes, and the
        cumulative distribution of random rankings on the right axis (with its
        XX1, median and XX19 marked), as Figures 3 and 7 of the multi-level paper.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Where to draw; default a new figure.
        null : SRDRandomization, optional
            The randomization test to overlay; default ``self.randomization()``.
        annotate : bool, default True
            Write each column's name on its line.

        Returns
        -------
        matplotlib.axes.Axes
        """
        ax = axes(ax, "SRDResult.plot")
        rt = null if null is not None else self.randomization(random_state=0)
        pct = self.normalized.sort_values(kind="stable")
        for label, v in pct.items():
            ax.plot([v, v], [0.0, v], color="C0", linewidth=1.5)
            if annotate:
                ax.text(v, v, f" {label}", rotation=90, va="bottom", ha="center",
                        fontsize="small")
        support, cdf = rt.distribution
        top = max(100.0, float(pct.max()) * 1.15)
        ax.set_xlim(0.0, top)
        ax.set_ylim(0.0, top)
        ax.set_xlabel("SRD [%]")
        ax.set_ylabel("SRD [%]")
        twin = ax.twinx()
        twin.step(support, 100.0 * cdf, where="post", color="k", linewidth=1.0,
                  label="random ranking")
        for name in ("XX1", "Med", "XX19"):
            twin.axvline(rt.quantiles[name], color="red", linestyle=":", linewidth=0.8)
        twin.set_ylim(0.0, 100.0)
        twin.set_ylabel("cumulative relative frequency [%]")
        ax.set_title(f"SRD, reference {self.reference.name}, n = {self.n}")
        return ax


# --- randomization test -----------------------------------------------------------------
@functools.lru_cache(maxsize=16)
def _footrule_pmf(n: int) -> FloatArray:
    """P(D = 2j), j = 0..floor(n²/4), of Spearman's footrule of a random permutation.

    The dynamic programme of METHODS §1.6a: walking the cut t|t+1 from left to right,
    the state m counts positions ≤ t mapped beyond t (equal to values ≤ t whose
    preimage lies beyond t); each such pair adds 2 to D per cut it straddles.
    Probabilities are kept normalised by dividing by t at each step.
    """
    width = n * n // 4 + 1
    p = np.ones((1, 1))  # rows: m; columns: D/2, only as many as can be reached yet
    for t in range(1, n + 1):
        rows, used = p.shape
        m = np.arange(rows, dtype=float)[:, None]
        top = min(t, n - t)  # states that can still close
        cols = min(width, used + top)  # D/2 grows by m <= top in this step
        new = np.zeros((rows + 1, cols))
        new[:rows, :used] += p * (2.0 * m + 1.0)     # stays at m
        new[:rows - 1, :used] += p[1:] * m[1:] ** 2  # closes one open pair
        new[1:, :used] += p                          # opens one more
        new = new[:top + 1]
        for mm in range(1, new.shape[0]):  # each open pair straddles the cut t|t+1
            k = min(used, cols - mm)
            new[mm, mm:mm + k] = new[mm, :k].copy()
            new[mm, :mm] = 0.0
        p = new / t
    out = np.zeros(width)
    out[:p.shape[1]] = p[0]
    return out


@dataclass(frozen=True)
class _Null:
    """A discrete null law of SRD (support ascending) or a normal one."""

    support: FloatArray
    pmf: FloatArray
    normal: tuple[float, float] | None = None  # (mean, sd) when approximated
    exact: bool = True

    def p_lower(self, obs: float) -> float:
        if self.normal is not None:  # continuity: D lives on even integers
            return float(stats.norm.cdf(obs + 1.0, *self.normal))
        return float(min(1.0, self.pmf[self.support <= obs + _TOL].sum()))

    def p_upper(self, obs: float) -> float:
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


def footrule_null(n: int, *, exact_max_n: int = EXACT_MAX_N) -> _Null:
    """The null law of SRD for tie-free rankings of ``n`` objects (METHODS §1.6a).

    Exact up to ``exact_max_n``; above it the normal law with the exact moments
    E = (n²−1)/3, Var = (n+1)(2n²+7)/45 (Diaconis & Graham 1977).

    Examples
    --------
    >>> law = footrule_null(5)
    >>> (law.pmf * 120).round().astype(int).tolist()   # OEIS A062869
    [1, 4, 12, 24, 35, 24, 20]
    """
    if n < 1:
        raise ValueError(f"n must be positive, got {n}")
    if n > exact_max_n:
        mean, var = (n * n - 1) / 3.0, (n + 1) * (2.0 * n * n + 7) / 45.0
        grid = np.arange(0.0, srd_max(n) + 1.0, 2.0)
        return _Null(grid, np.zeros_like(grid), normal=(mean, math.sqrt(var)), exact=False)
    pmf = _footrule_pmf(n)
    return _Null(2.0 * np.arange(pmf.size), pmf)


def _has_ties(x: FloatArray) -> bool:
    return bool(np.unique(x).size < x.size)


def _permutation_null(col_ranks: FloatArray, ref_ranks: FloatArray, n_perm: int,
                      rng: np.random.Generator) -> _Null:
    """SRD of the column's own ranks in random order against the fixed reference (§1.6c)."""
    n = col_ranks.size
    if n <= ENUMERATE_MAX_N:
        perms = np.array(list(itertools.permutations(range(n))), dtype=np.intp)
        draws = np.abs(col_ranks[perms] - ref_ranks).sum(axis=1)
        exact = True
    else:
        draws = np.empty(n_perm)
        step = max(1, 4_000_000 // n)
        for start in range(0, n_perm, step):
            b = min(step, n_perm - start)
            idx = np.argsort(rng.random((b, n)), axis=1)
            draws[start:start + b] = np.abs(col_ranks[idx] - ref_ranks).sum(axis=1)
        exact = False
    return _empirical(draws, exact)


def _empirical(draws: FloatArray, exact: bool) -> _Null:
    support, counts = np.unique(np.round(draws, 9), return_counts=True)
    return _Null(support, counts / counts.sum(), exact=exact)


def _tie_frequency(x: FloatArray) -> float:
    """rSRD: equal adjacent pairs of the sorted vector over n − 1."""
    s = np.sort(x)
    return float(np.count_nonzero(s[1:] == s[:-1]) / (s.size - 1))


def _random_tied_ranks(b: int, n: int, p: FloatArray, rng: np.random.Generator) -> FloatArray:
    """rSRD's random rankings: join each adjacent pair of sorted positions with
    probability p, give each joined block its average rank, then shuffle."""
    pos = np.arange(n)
    join = rng.random((b, n - 1)) < p[:, None]
    starts_block = np.concatenate([np.ones((b, 1), bool), ~join], axis=1)
    ends_block = np.concatenate([~join, np.ones((b, 1), bool)], axis=1)
    start = np.maximum.accumulate(np.where(starts_block, pos, 0), axis=1)
    end = np.minimum.accumulate(np.where(ends_block, pos, n)[:, ::-1], axis=1)[:, ::-1]
    ranks = (start + end) / 2.0 + 1.0
    order = np.argsort(rng.random((b, n)), axis=1)
    return np.take_along_axis(ranks, order, axis=1)


def _rsrd_null(res: SRDResult, tie_mode: str, tie_prob: float | None, n_sim: int,
               rng: np.random.Generator) -> _Null:
    """rSRD ``calculateSRDDistribution`` (METHODS §1.6c), SRD rounded to 4 decimals."""
    n, q = res.n, res.reference_ranks.to_numpy()
    if tie_mode not in ("n", "r", "f", "t", "p", "d"):
        raise ValueError(f"tie_mode must be one of 'n', 'r', 'f', 't', 'p', 'd'; got {tie_mode!r}")
    if tie_mode in ("t", "p"):
        if tie_prob is None or not 0 <= tie_prob <= 1:
            raise ValueError(f"tie_mode {tie_mode!r} needs tie_prob in [0, 1], got {tie_prob!r}")
    col_freqs = np.array([_tie_frequency(res.ranks[c].to_numpy()) for c in res.compared])
    draws = np.empty(n_sim)
    step = max(1, 2_000_000 // n)
    for start in range(0, n_sim, step):
        b = min(step, n_sim - start)
        if tie_mode == "d":
            p = col_freqs[(start + np.arange(b)) % col_freqs.size]
        else:
            p = np.full(b, {"n": 0.0, "r": 0.0, "f": _tie_frequency(q)}.get(
                tie_mode, float(tie_prob or 0.0)))
        sol = _random_tied_ranks(b, n, p, rng)
        if tie_mode in ("r", "t"):  # both sides random
            ref = _random_tied_ranks(b, n, p if tie_mode == "t" else np.zeros(b), rng)
        else:
            ref = np.broadcast_to(q, (b, n))
        draws[start:start + b] = np.round(np.abs(sol - ref).sum(axis=1), 4)
    return _empirical(draws, exact=False)


class SRDRandomization:
    """The randomization test (CRRN) of each column of an :class:`SRDResult`.

    Attributes
    ----------
    p_lower : pandas.Series
        P(SRD_null ≤ SRD_obs) per column: small means closer to the reference than
        random ranking. The decision is ``p_lower ≤ alpha`` (METHODS §1.6b warns
        against "SRD ≤ XX1", which does not hold the level).
    p_upper : pandas.Series
        P(SRD_null ≥ SRD_obs): small means a reversed ranking.
    better_than_random : pandas.Series of bool
    null_kind : pandas.Series
        Which null each column was tested against.
    quantiles : dict
        XX1 (5%), Q1, Med, Q3, XX19 (95%) of the random-ranking law in SRD%.
    distribution : (support, cdf)
        That law in SRD% with its cumulative distribution, for plotting.
    """

    def __init__(self, res: SRDResult, null: str, n_perm: int, rng: np.random.Generator,
                 alpha: float, tie_mode: str, tie_prob: float | None, n_sim: int) -> None:
        self.alpha = alpha
        n = res.n
        q = res.reference_ranks.to_numpy()
        if null == "rsrd":
            shared = _rsrd_null(res, tie_mode, tie_prob, n_sim, rng)
        elif null == "normal":
            shared = footrule_null(n, exact_max_n=0)
        else:
            shared = footrule_null(n)
        lower, upper, kinds = {}, {}, {}
        cache: dict[bytes, _Null] = {}
        ref_tied = _has_ties(q)
        observed = res.values.to_dict()
        if null == "exact":
            tied = [c for c in res.compared if ref_tied or _has_ties(res.ranks[c].to_numpy())]
            if tied:
                warnings.warn(f"null='exact' is the law of tie-free rankings, but "
                              f"{'the reference has' if ref_tied else f'columns {tied[:10]} have'}"
                              " ties; null='auto' tests those with the tie-preserving "
                              "permutation null", stacklevel=3)
        for label in res.compared:
            r = res.ranks[label].to_numpy()
            obs = float(observed[label])
            use_perm = null == "permutation" or (null == "auto" and (ref_tied or _has_ties(r)))
            if use_perm:
                key = np.sort(r).tobytes()
                if key not in cache:
                    cache[key] = _permutation_null(np.sort(r), q, n_perm, rng)
                law, kind = cache[key], ("permutation" if n <= ENUMERATE_MAX_N
                                         else "permutation (Monte Carlo)")
            else:
                law = shared
                kind = {"rsrd": f"rsrd ({tie_mode})"}.get(
                    null, "normal" if shared.normal is not None else "exact")
            lo, up = law.p_lower(obs), law.p_upper(obs)
            if not law.exact and law.normal is None and null != "rsrd":  # Monte Carlo
                # count the observed ranking among the draws (Phipson & Smyth 2010)
                lo, up = (lo * n_perm + 1) / (n_perm + 1), (up * n_perm + 1) / (n_perm + 1)
            lower[label], upper[label], kinds[label] = lo, up, kind
        if res.reference_column in res.values.index:  # the kept reference is not tested
            lower[res.reference_column] = upper[res.reference_column] = float("nan")
            kinds[res.reference_column] = "reference"
        self.p_lower = pd.Series(lower, name="p_lower", dtype=float)
        self.p_upper = pd.Series(upper, name="p_upper", dtype=float)
        self.null_kind = pd.Series(kinds, name="null")
        self.better_than_random = (self.p_lower <= alpha).rename("better_than_random")
        scale = 100.0 / res.srd_max
        self.quantiles = {k: shared.quantile(p) * scale for k, p in QUANTILES.items()}
        if shared.normal is not None:
            grid = np.linspace(0.0, float(res.srd_max), 401)
            self.distribution = (grid * scale, stats.norm.cdf(grid, *shared.normal))
        else:
            self.distribution = (shared.support * scale, np.cumsum(shared.pmf))
        self._res = res
        best = shared.p_lower(0.0)
        if best > alpha:
            warnings.warn(f"with n = {n} rows, even a ranking identical to the reference has "
                          f"p = {best:.3g} > alpha = {alpha}: no column can be shown better "
                          "than random; use more rows", stacklevel=3)

    def to_frame(self) -> pd.DataFrame:
        """SRD, SRD%, p-values and decision per column, closest to the reference first."""
        out = self._res.to_frame()
        return out.join([self.p_lower, self.p_upper, self.better_than_random,
                         self.null_kind])

    def __repr__(self) -> str:
        q = ", ".join(f"{k}={v:.2f}" for k, v in self.quantiles.items())
        return f"SRDRandomization({q})\n{self.to_frame().to_string()}"


# --- cross-validation -------------------------------------------------------------------
def _resamples(n: int, cv: str, k: int, repeats: int, shuffle: bool, n_boot: int,
               rng: np.random.Generator) -> list[npt.NDArray[np.intp]]:
    """Rows kept in each resample."""
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 2:
        raise ValueError(f"k must be an integer >= 2, got {k!r}")
    if not isinstance(repeats, (int, np.integer)) or repeats < 1:
        raise ValueError(f"repeats must be a positive integer, got {repeats!r}")
    idx = np.arange(n)
    if cv == "kfold":
        if k > n:
            raise ValueError(f"k = {k} folds need at least k rows; the table has {n}")
        if n - math.ceil(n / k) < 3:
            raise ValueError(f"with {n} rows and k = {k}, a fold keeps fewer than 3 rows")
        if repeats > 1 and not shuffle:
            raise ValueError("repeats > 1 needs shuffle=True (unshuffled folds repeat)")
        out = []
        for _ in range(repeats):
            order = rng.permutation(n) if shuffle else idx
            for fold in np.array_split(order, k):
                out.append(np.setdiff1d(idx, fold))
        return out
    if cv == "loo":
        if n < 4:
            raise ValueError(f"leave-one-out needs at least 4 rows; the table has {n}")
        return [np.delete(idx, i) for i in range(n)]
    if cv == "bootstrap":
        if n_boot < 1:
            raise ValueError(f"n_boot must be positive, got {n_boot!r}")
        return [np.sort(rng.integers(0, n, n)) for _ in range(n_boot)]
    if cv == "rsrd_wilcoxon":
        kk = min(n, 8)
        drop = math.ceil(n / kk)
        if n - drop < 3:
            raise ValueError(f"rSRD's cross-validation leaves fewer than 3 of {n} rows")
        seen: set[bytes] = set()
        out = []
        n_distinct = math.comb(n, drop)
        while len(out) < min(kk, n_distinct):
            gone = np.sort(rng.choice(n, drop, replace=False))
            if gone.tobytes() in seen:
                continue
            seen.add(gone.tobytes())
            out.append(np.setdiff1d(idx, gone))
        return out
    raise ValueError("cv must be 'kfold', 'loo', 'bootstrap' or 'rsrd_wilcoxon', got "
                     f"{cv!r}")


def _signed_rank_exact(d: FloatArray) -> tuple[float, float]:
    """rSRD's |W+ − W−| and its exact two-sided p-value over the 2^n sign patterns,
    with average ranks of |d| (midranks; a DP over half-rank sums)."""
    r2 = np.round(2 * stats.rankdata(np.abs(d))).astype(np.int64)  # integer half-ranks
    total = int(r2.sum())
    dist = np.zeros(total + 1)
    dist[0] = 1.0
    for v in r2:  # each pair adds its half-rank v to W+ with probability 1/2
        shifted = np.zeros_like(dist)
        shifted[v:] = dist[:dist.size - v]
        dist = 0.5 * (dist + shifted)
    w_plus2 = int(r2[d > 0].sum())
    stat2 = abs(2 * w_plus2 - total)
    sums = np.arange(total + 1)
    p = float(dist[np.abs(2 * sums - total) >= stat2 - 1e-9].sum())
    return stat2 / 2.0, min(1.0, p)


def _differences(a: Any, b: Any) -> FloatArray:
    """Non-zero paired differences, rounded so that differences equal in exact
    arithmetic (SRD% values are k·100/SRDmax) tie instead of ranking apart by float
    noise. NaN pairs (a column left out of a resample) are dropped."""
    d = np.round(np.asarray(a, float) - np.asarray(b, float), 9)
    return d[np.isfinite(d) & (np.abs(d) > _TOL)]


def wilcoxon_matched_pairs(a: Any, b: Any) -> tuple[float, float, int]:
    """Wilcoxon matched-pairs signed-rank test as METHODS §1.7 fixes it.

    Zero differences are dropped and |d| get average ranks; the statistic is rSRD's
    |W+ − W−|. The two-sided p-value is exact (all sign patterns) up to 25 non-zero
    pairs, and the tie-corrected normal approximation (scipy) above.

    Returns
    -------
    (statistic, p_value, n_nonzero)

    Examples
    --------
    >>> wilcoxon_matched_pairs([1, 2, 3, 4, 5, 6], [2, 3, 4, 5, 6, 7.5])
    (21.0, 0.03125, 6)
    """
    d = _differences(a, b)
    if d.size == 0:
        return 0.0, 1.0, 0
    if d.size <= 25:
        stat, p = _signed_rank_exact(d)
        return stat, p, int(d.size)
    r = stats.rankdata(np.abs(d))
    w_plus = float(r[d > 0].sum())
    res = stats.wilcoxon(d, zero_method="wilcox", correction=False, method="approx")
    return abs(2 * w_plus - r.sum()), float(res.pvalue), int(d.size)


def sign_test(a: Any, b: Any) -> tuple[int, float]:
    """Sign test (Dixon & Mood): #(a > b) among non-zero differences, Binomial(n, 1/2),
    two-sided p-value.

    Examples
    --------
    >>> sign_test([1, 2, 3, 4], [2, 3, 4, 5])
    (0, 0.125)
    """
    d = _differences(a, b)
    if d.size == 0:
        return 0, 1.0
    k = int(np.count_nonzero(d > 0))
    return k, float(stats.binomtest(k, int(d.size), 0.5).pvalue)


def _quantile(col: pd.Series, p: float) -> float:
    """rSRD's sample quantile: the smallest value v with F(v) >= p."""
    x = np.sort(col.to_numpy(dtype=float))
    return _Null(x, np.full(x.size, 1.0 / x.size)).quantile(p)


def _rsrd_order(folds: pd.DataFrame) -> list[Any]:
    """Columns sorted by median fold SRD, ties broken by Q1, Q3, min, max (rSRD)."""
    keys = {c: (_quantile(folds[c], 0.5), _quantile(folds[c], 0.25),
                _quantile(folds[c], 0.75), folds[c].min(), folds[c].max())
            for c in folds.columns}
    return sorted(folds.columns, key=lambda c: keys[c])


class SRDCrossValidation:
    """SRD% of every column on each resample, and tests between neighbouring columns.

    Attributes
    ----------
    folds : pandas.DataFrame
        One row per resample (index ``fold``), one column per method, SRD%.
    tests : pandas.DataFrame
        Neighbouring pairs in rSRD order (median, then Q1, Q3, min, max): the
        Wilcoxon matched-pairs statistic |W+ − W−| and p-value, and the sign test.
    order : list
        Columns from closest to farthest from the reference.
    """

    def __init__(self, res: SRDResult, rows: list[npt.NDArray[np.intp]], cv: str) -> None:
        self.cv = cv
        records = []
        spec, n = res._spec, res.n
        flat: dict[Any, list[int]] = {}
        for fold, kept in enumerate(rows):
            sub = res._frame.iloc[kept]
            ref = spec.reference
            if isinstance(ref, pd.Series):
                ref = ref.reindex(res._frame.index).iloc[kept].to_numpy()
            elif isinstance(ref, (list, tuple, np.ndarray)):
                ref = np.asarray(ref, dtype=float)[kept]
            directions = spec.directions
            if directions is not None and not isinstance(directions, (Mapping, pd.Series)):
                d = np.asarray(directions, dtype=object)
                if d.ndim == 1 and d.size == n:
                    directions = d[kept]
            sub_spec = _Spec(ref, directions, spec.pretreat, spec.axis, spec.decimals,
                             spec.keep_reference)
            degenerate: list[Any] = []
            data, reference, _ = _compute(sub, sub_spec, tie_degenerate=True,
                                          degenerate=degenerate)
            for c in degenerate:
                flat.setdefault(c, []).append(fold)
            values, _, _ = _srd_values(data, reference, spec.decimals)
            records.append(pd.Series(100.0 * values / srd_max(len(kept)), index=data.columns))
        if flat:
            shown = "; ".join(f"{c!r} in resamples {f[:5]}{' ...' if len(f) > 5 else ''}"
                              for c, f in list(flat.items())[:5])
            warnings.warn(f"pretreat={spec.pretreat!r}: some resamples leave a "
                          f"{'column' if spec.axis == 'columns' else 'row'} constant, so "
                          f"its scale is 0; it counts as all tied there: {shown}",
                          stacklevel=3)
        self.folds = pd.DataFrame(records)[res.compared].reset_index(drop=True)
        self.folds.index.name = "fold"
        self.order = _rsrd_order(self.folds)
        tests = []
        for a, b in itertools.pairwise(self.order):
            stat, p_w, nz = wilcoxon_matched_pairs(self.folds[a], self.folds[b])
            k_pos, p_s = sign_test(self.folds[a], self.folds[b])
            tests.append({"column": a, "next": b, "median": _quantile(self.folds[a], 0.5),
                          "median_next": _quantile(self.folds[b], 0.5), "n_nonzero": nz,
                          "wilcoxon_stat": stat, "wilcoxon_p": p_w, "sign_positive": k_pos,
                          "sign_p": p_s})
        self.tests = pd.DataFrame(tests)

    def long(self) -> pd.DataFrame:
        """Tidy table: fold, column, srd_pct (input of :func:`binmetrics.anova.anova`)."""
        out = self.folds.reset_index().melt(id_vars="fold", var_name="column",
                                            value_name="srd_pct")
        return out

    def summary(self) -> pd.DataFrame:
        """Per column, in order: mean, sd, min, Q1, median, Q3, max of the fold SRD%
        (quantiles by rSRD's rule, the smallest value v with F(v) >= p, as the order)."""
        d = self.folds[self.order]
        quart = {name: [_quantile(d[c], p) for c in d.columns]
                 for name, p in (("q1", 0.25), ("median", 0.5), ("q3", 0.75))}
        return pd.DataFrame({"mean": d.mean(), "sd": d.std(ddof=1), "min": d.min(),
                             **{k: pd.Series(v, index=d.columns) for k, v in quart.items()},
                             "max": d.max()})

    def plot(self, *, ax: Any = None) -> Any:
        """Box plot of each column's fold SRD%, in order. Returns the Axes."""
        ax = axes(ax, "SRDCrossValidation.plot")
        d = self.folds[self.order]
        ax.boxplot([d[c].to_numpy() for c in d.columns])
        ax.set_xticks(range(1, d.shape[1] + 1), [str(c) for c in d.columns])
        ax.set_ylabel("SRD [%]")
        ax.set_title(f"SRD cross-validation ({self.cv}, {len(d)} resamples)")
        ax.tick_params(axis="x", rotation=90)
        return ax

    def __repr__(self) -> str:
        return (f"SRDCrossValidation(cv={self.cv!r}, resamples={len(self.folds)})\n"
                f"{self.tests.to_string()}")


# --- COVAT --------------------------------------------------------------------------------
def covat(
    table: Any,
    *,
    pretreat: Pretreat | str = "none",
    axis: Axis = "columns",
    order: Literal["mean", "vat", "hclust"] = "mean",
    decimals: int | None = None,
    nan_policy: Literal["raise", "omit"] = "raise",
) -> COVATResult:
    """SRD-COVAT: every column as the reference in turn (METHODS §1.8).

    ``C[i, j]`` is the SRD% of column j with column i as the reference: a symmetric
    footrule distance matrix with a zero diagonal. Reordered so that similar
    columns cluster along the diagonal, it shows which methods (measures) agree.

    Parameters
    ----------
    table, pretreat, axis, decimals, nan_policy
        As for :func:`srd`.
    order : {"mean", "vat", "hclust"}, default "mean"
        Ascending mean SRD (srdpy's intent, the paper's Figure 6); Bezdek–Hathaway
        VAT; or the leaf order of complete-linkage clustering (scipy's
        ``leaves_list``; rSRD's ``heatmap.2`` further reorders the dendrogram by row
        means, which this does not).

    Returns
    -------
    COVATResult

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"A": [32, 52, 44, 44, 47], "B": [73, 75, 65, 76, 70],
    ...                   "C": [60, 59, 57, 55, 60], "D": [35, 24, 44, 83, 47],
    ...                   "E": [41, 52, 46, 50, 65]})
    >>> cv = covat(X)
    >>> cv.order
    ['E', 'A', 'D', 'B', 'C']
    >>> float(cv.raw.loc["A", "E"])
    3.0
    """
    frame, _ = _as_frame(table, nan_policy)
    data = pretreat_table(frame, _pretreat_name(pretreat), axis)
    ranks = _rank(data.to_numpy(), _check_decimals(decimals))
    raw = squareform(pdist(ranks.T, "cityblock"))
    labels = list(data.columns)
    if order == "mean":
        perm = np.argsort(raw.mean(axis=0), kind="stable")
    elif order == "vat":
        perm = _vat_order(raw)
    elif order == "hclust":
        perm = hierarchy.leaves_list(hierarchy.linkage(squareform(raw, checks=False),
                                                       "complete"))
    else:
        raise ValueError(f"order must be 'mean', 'vat' or 'hclust', got {order!r}")
    ordered = [labels[i] for i in perm]
    raw_frame = pd.DataFrame(raw, index=labels, columns=labels).loc[ordered, ordered]
    return COVATResult(raw_frame, len(frame), order)


def _vat_order(d: FloatArray) -> npt.NDArray[np.intp]:
    """Bezdek–Hathaway VAT: start at the row of the largest entry, then add the
    unselected item nearest to any selected one (lowest index on ties)."""
    m = d.shape[0]
    first = int(np.unravel_index(np.argmax(d), d.shape)[0])
    chosen = [first]
    nearest = d[first].copy()
    free = np.ones(m, bool)
    free[first] = False
    while free.any():
        cand = np.where(free, nearest, np.inf)
        nxt = int(np.argmin(cand))
        chosen.append(nxt)
        free[nxt] = False
        nearest = np.minimum(nearest, d[nxt])
    return np.asarray(chosen, dtype=np.intp)


class COVATResult:
    """The SRD-COVAT matrix, reordered.

    Attributes
    ----------
    raw : pandas.DataFrame
        SRD of each column (columns) with each column as reference (rows).
    matrix : pandas.DataFrame
        The same in SRD%.
    order : list
        Column labels in display order.
    """

    def __init__(self, raw: pd.DataFrame, n: int, how: str) -> None:
        self.raw = raw
        self.n, self.how = n, how
        self.matrix = raw * (100.0 / srd_max(n))
        self.order = list(raw.index)

    def __repr__(self) -> str:
        return f"COVATResult(order={self.how!r}, SRD%)\n{self.matrix.round(2).to_string()}"

    def plot(self, *, ax: Any = None, cmap: str = "viridis", annotate: bool | None = None,
             colorbar: bool = True) -> Any:
        """Heatmap of the SRD% matrix (the paper's Figure 6). Returns the Axes.

        Cells are annotated with their values when there are at most 15 columns
        (``annotate`` overrides).
        """
        ax = axes(ax, "COVATResult.plot")
        m = self.matrix.to_numpy()
        im = ax.imshow(m, cmap=cmap, vmin=0.0, vmax=max(100.0, float(m.max())))
        k = len(self.order)
        ax.set_xticks(range(k))
        ax.set_yticks(range(k))
        ax.set_xticklabels([str(c) for c in self.order], rotation=90)
        ax.set_yticklabels([str(c) for c in self.order])
        if annotate if annotate is not None else k <= 15:
            for i, j in itertools.product(range(k), range(k)):
                ax.text(j, i, f"{m[i, j]:.0f}", ha="center", va="center", fontsize="x-small",
                        color="w" if m[i, j] < 50 else "k")
        if colorbar:
            ax.figure.colorbar(im, ax=ax, label="SRD [%]")
        ax.set_title("SRD-COVAT")
        return ax


__all__ = [
    "COVATResult",
    "SRDCrossValidation",
    "SRDRandomization",
    "SRDResult",
    "covat",
    "footrule_null",
    "pretreat_table",
    "sign_test",
    "srd",
    "srd_max",
    "wilcoxon_matched_pairs",
]
