"""What the DuckDB and Spark engines share: one aggregation contract.

Every engine answers two queries and this module does the rest:

1. **Statistics** per (group key, label value): row counts, non-finite scores
   (NULL, NaN, inf), the range of the finite scores, and for weights their sums
   and the rows with bad weights. From these alone the input is validated (what
   is wrong, how many rows, in which file) and the positive label is resolved,
   before the expensive pass.
2. **Counts** per (group, score or bin), sorted by group and descending score
   (or, unweighted exact counts, in any order for the :class:`Collector`):
   positive and negative weight (row counts when unweighted) and, for binned
   scores, the sums over the raw scores of the probabilistic losses
   (:mod:`binmetrics.measures.sums`). They arrive in chunks (Arrow
   batches) and are assembled into one :class:`~binmetrics.CountTable` per group.

The result is an :class:`~binmetrics.Evaluation`, or with ``by`` the
:class:`~binmetrics.ByResult` of :func:`binmetrics.evaluate_by` (built by
:func:`binmetrics.evaluation.by.by_tables`).
"""

from __future__ import annotations

import difflib
import itertools
import math
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from binmetrics.evaluation.binary import Evaluation
from binmetrics.evaluation.by import ByResult, by_tables
from binmetrics.evaluation.options import DEFAULTS, EvalOptions
from binmetrics.exceptions import BinmetricsWarning
from binmetrics.measures import EPS
from binmetrics.measures.sums import raw_sum_names, raw_sums_from_columns
from binmetrics.table.binning import Binning, BinSpec
from binmetrics.table.counts import CountTable, FloatArray, count_dtype
from binmetrics.validation import (
    NanPolicy,
    check_labels,
    check_nan_policy,
    label_key,
    plural,
    weight_exponent,
)

#: statistics columns after the group keys and the label, in this order
STAT_COLUMNS = ("n", "n_null", "n_nan", "n_inf", "s_min", "s_max", "w_all", "w_fin",
                "n_wbad", "n_wneg", "w_min", "w_max")
#: chunk columns of the counts query (plus the raw sums, raw_sum_names(), when binned)
CHUNK_COLUMNS = ("gid", "s", "pos", "neg")
#: exact scores go through a sort (not a hash group-by) when at least this fraction
#: of the rows have distinct scores
SORT_FRACTION = 0.5


def missing_engine(package: str, extra: str, what: str) -> ImportError:
    return ImportError(f"{what} needs {package}, which is not installed; install it with "
                       f"pip install 'binmetrics[{extra}]'")


def check_names(available: Sequence[str], wanted: Sequence[tuple[str, str]], where: str) -> None:
    """Each (role, column) must exist: name it, suggest, list the available columns."""
    for role, col in wanted:
        if col not in available:
            close = difflib.get_close_matches(col, list(available), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            shown = ", ".join(available[:30]) + (
                f", ... ({len(available)} in all)" if len(available) > 30 else "")
            raise ValueError(f"{role} column {col!r} not found in {where}{hint}; "
                             f"available columns: {shown or '(none)'}")


def by_names(by: Any) -> list[str]:
    if by is None:
        return []
    if isinstance(by, str):
        return [by]
    if isinstance(by, (list, tuple)) and by and all(isinstance(b, str) for b in by):
        if len(set(by)) != len(by):
            raise ValueError(f"by names a column twice: {list(by)}")
        return list(by)
    raise TypeError(f"by must be a column name or a non-empty list of column names; got {by!r}")


@dataclass
class Group:
    """One group's statistics (over its finite-score rows unless said otherwise)."""

    key: tuple[Any, ...]
    n_fin: int = 0
    n_pos: int = 0
    n_omitted: int = 0
    w_pos: float = 0.0
    w_neg: float = 0.0
    w_max: float = 1.0  # the largest weight of a row (1 when unweighted)
    s_min: float = math.inf
    s_max: float = -math.inf

    @property
    def prior(self) -> float:
        """The prevalence, at which the information score is summed; NaN outside
        [eps, 1 - eps] (the score is then summed at no prior)."""
        total = self.w_pos + self.w_neg
        pi = self.w_pos / total if total > 0 else math.nan
        return pi if EPS <= pi <= 1.0 - EPS else math.nan


@dataclass
class Stats:
    """The statistics query's rows, checked."""

    rows: list[tuple[Any, ...]]
    n_keys: int
    weighted: bool
    labels: list[Any] = field(default_factory=list)  # distinct labels of the rows evaluated

    def column(self, name: str) -> list[Any]:
        i = self.n_keys + 1 + STAT_COLUMNS.index(name)
        return [r[i] for r in self.rows]

    def total(self, name: str, rows: Sequence[tuple[Any, ...]] | None = None) -> float:
        i = self.n_keys + 1 + STAT_COLUMNS.index(name)
        return sum((r[i] or 0) for r in (self.rows if rows is None else rows))


def _is_missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def _hashable(v: Any) -> Any:
    """A dict key for a label value: 1 and 1.0 alike (both the positive label of {0, 1})."""
    if isinstance(v, (int, float, np.number)) and not isinstance(v, (bool, np.bool_)):
        return ("", float(v))
    return (type(v).__name__, v)


def pandas_labels(raw: Sequence[str]) -> dict[str, Any]:
    """Text labels typed as :func:`pandas.read_csv` types a column holding them: int,
    float, bool (True/False/true/...), else str; pandas' missing-value spellings
    ("NA", "nan", "NULL"...) give None.

    Examples
    --------
    >>> pandas_labels(["1", "0"]), pandas_labels(["yes", "no"])
    ({'1': 1, '0': 0}, {'yes': 'yes', 'no': 'no'})
    >>> pandas_labels(["True", "False"]), pandas_labels(["1", "NA"])
    ({'True': True, 'False': False}, {'1': 1.0, 'NA': None})
    """
    import csv
    import io

    if not raw:
        return {}
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["label"])
    writer.writerows([v] for v in raw)
    col = pd.read_csv(io.StringIO(buf.getvalue()), dtype=None, keep_default_na=True)["label"]
    values = [None if _is_missing(v) else v for v in col.tolist()]
    return dict(zip(raw, values, strict=True))


class AggregateJob:
    """The engine-independent steps; engines implement ``_stats``, ``_counts``, ``_locate``.

    Parameters are those of :func:`~binmetrics.engines.evaluate_file`; ``source``
    names the data in messages ("preds/*.parquet", "the Spark DataFrame").
    """

    source: str = "the data"
    #: unweighted exact counts always go to the :class:`Collector` unsorted (an engine
    #: without a distinct-count estimate); otherwise only when most scores are distinct
    collect_unsorted: bool = False

    def __init__(self, *, label: str, score: str, weight: str | None, by: Any,
                 where: str | None, case_cost_fp: str | None = None,
                 case_cost_fn: str | None = None) -> None:
        for name, v in (("label", label), ("score", score)):
            if not isinstance(v, str):
                raise TypeError(f"{name} must be a column name, got {v!r}")
        for role, col in (("weight", weight), ("case_cost_fp", case_cost_fp),
                          ("case_cost_fn", case_cost_fn)):
            if col is not None and not isinstance(col, str):
                raise TypeError(f"{role} must be a column name or None, got {col!r}")
        #: the per-case cost columns (None: no such cost)
        self.case_costs = (case_cost_fp, case_cost_fn)
        self.costed = case_cost_fp is not None or case_cost_fn is not None
        if where is not None and not isinstance(where, str):
            raise TypeError(f"where must be a SQL condition string, got {where!r}")
        self.label, self.score, self.weight, self.where = label, score, weight, where
        self.by = by_names(by)
        self._by_arg = by  # a name gives keys as values, a list as tuples (as evaluate_by)
        clash = [b for b in self.by if b in (label, score, weight, *self.case_costs)]
        if clash:
            raise ValueError(f"column {clash[0]!r} cannot be a group column and the "
                             "label/score/weight/cost column too")
        clash = [c for c in self.case_costs if c in (label, score)]
        if clash:
            raise ValueError(f"column {clash[0]!r} cannot be a cost column and the "
                             "label/score column too")
        self._stats_cache: Stats | None = None
        #: weights are multiplied by 2**this (see binmetrics.validation.weight_exponent)
        self.w_exponent = 0
        self._raw_labels: dict[Any, list[Any]] = {}  # label value -> the engine's values
        self._missing_raw: list[Any] = []  # the engine's values that are missing labels

    # --- engine hooks ----------------------------------------------------------------
    def _stats(self) -> list[tuple[Any, ...]]:
        """Rows (keys..., label, *STAT_COLUMNS), ordered by keys (NULLs last), label."""
        raise NotImplementedError

    def _counts(self, pos_values: list[Any], spec: BinSpec | None, groups: list[Group],
                sort: bool, ordered: bool = True) -> Iterator[dict[str, np.ndarray]]:
        """Chunks of CHUNK_COLUMNS (+ the raw sums when ``spec``), sorted by gid, -s.

        ``pos_values``: the label values, as the engine reads them, of the positive
        class; ``groups``: the groups in gid order (``prior``: for the information
        score; ``w_max``, ``n_fin``, ``s_min``, ``s_max``: bounds of the terms summed).
        ``sort``: most scores are distinct (:meth:`_distinct_fraction`), so one row per
        case is cheaper than a group-by. ``ordered=False`` (unweighted exact counts
        only): chunks for the :class:`Collector`, in any order, of ``gid``, ``s`` and
        ``pos``, ``neg`` or, one case per row, ``is_pos``.
        """
        raise NotImplementedError

    def _distinct_fraction(self, st: Stats, n_fin: int) -> float:
        """An estimate of the share of the ``n_fin`` finite-score rows that have a score
        of their own, which chooses between one row per case (``sort``) and a group-by
        in exact mode; 0 (group-by) for an engine that does not estimate it."""
        return 0.0

    def _convert_labels(self, raw: list[Any]) -> dict[Any, Any] | None:
        """The label values as :func:`binmetrics.evaluate` sees them, from those the engine
        reads (None: the same). CSV labels read as text are typed as pandas would."""
        return None

    def _locate(self, what: str) -> str:
        """Where the first rows with a problem are (" (first at ...)"), or ""."""
        return ""

    def _check_case_costs(self) -> None:
        """Raise a one-line error if a cost column has a NULL, non-finite or negative
        value among the rows evaluated (engines that take cost columns)."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the engine's resources."""

    def __enter__(self) -> AggregateJob:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # --- the steps ---------------------------------------------------------------------
    def stats(self, nan_policy: NanPolicy = "raise") -> Stats:
        """Run (once) and check the statistics query: rows, weights, scores, labels."""
        check_nan_policy(nan_policy)
        if self._stats_cache is None:
            rows = self._stats()
            if self.weight is not None:
                rows = self._rescaled(rows)
            k = len(self.by)
            mapping = self._convert_labels(sorted({r[k] for r in rows if r[k] is not None},
                                                  key=label_key))
            self._raw_labels = {}
            if mapping is not None:
                for raw, value in mapping.items():
                    if value is None:
                        self._missing_raw.append(raw)
                    else:
                        self._raw_labels.setdefault(_hashable(value), []).append(raw)
                rows = [(*r[:k], mapping.get(r[k]), *r[k + 1:]) for r in rows]
            st = Stats(rows, n_keys=k, weighted=self.weight is not None)
            self._check_rows_and_weights(st)
            self._stats_cache = st
        st = self._stats_cache
        self._check_scores(st, nan_policy)
        st.labels = self._check_labels(st, nan_policy)
        return st

    def _rescale_weights(self, exponent: int) -> bool:
        """Multiply the weights by ``2**exponent`` in the queries from now on; False when
        the engine cannot (its weights are then used as they are)."""
        return False

    def _rescaled(self, rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        """Weights whose largest value is extreme (1e308, 5e-324) are rescaled by a power
        of two, as :func:`binmetrics.validation.check_weights` does, and the statistics
        run again: the measures do not change and no sum overflows or underflows."""
        i = len(self.by) + 1 + STAT_COLUMNS.index("w_max")
        top = max((float(r[i]) for r in rows if r[i] is not None), default=0.0)
        exponent = weight_exponent(top) if math.isfinite(top) else 0
        if exponent and self._rescale_weights(exponent):
            self.w_exponent = exponent
            rows = self._stats()
        return rows

    def labels(self) -> pd.Series:
        """The distinct labels of the data (runs the statistics query)."""
        return pd.Series(self.stats("omit").labels, name=self.label)

    def _where(self) -> str:
        return f" matching where={self.where!r}" if self.where else ""

    def _check_rows_and_weights(self, st: Stats) -> None:
        n = st.total("n")
        if n == 0:
            raise ValueError(f"{self.source} has no rows{self._where()}: there is nothing "
                             "to evaluate")
        if not st.weighted:
            return
        w = self.weight
        bad = int(st.total("n_wbad"))
        if bad:
            what = plural(bad, "missing or non-finite value")
            raise ValueError(f"weight column {w!r} has {what} "
                             f"(NULL, NaN or inf) in {self.source}{self._locate('weight_bad')}")
        neg = int(st.total("n_wneg"))
        if neg:
            smallest = min(v for v in st.column("w_min") if v is not None)
            raise ValueError(f"weight column {w!r} has {plural(neg, 'negative value')} in "
                             f"{self.source}{self._locate('weight_neg')} (smallest {smallest})")
        if not st.total("w_all") > 0:
            raise ValueError(f"weight column {w!r} sums to 0: no row carries any weight")

    def _check_scores(self, st: Stats, nan_policy: NanPolicy) -> None:
        n_nan = int(st.total("n_null") + st.total("n_nan"))
        n_inf = int(st.total("n_inf"))
        bad = n_nan + n_inf
        if not bad:
            return
        if nan_policy == "raise":
            raise ValueError(f"score column {self.score!r} has {plural(bad, 'non-finite value')} "
                             f"({n_nan} NaN or NULL, {n_inf} infinite) in {self.source}"
                             f"{self._locate('score_bad')}; pass nan_policy='omit' to drop "
                             "those rows")
        if bad == st.total("n"):
            raise ValueError(f"all {bad} scores are NaN or infinite: nothing left to evaluate")

    def _check_labels(self, st: Stats, nan_policy: NanPolicy) -> list[Any]:
        k = st.n_keys
        kept = "n" if nan_policy == "raise" else "n_fin"
        counts: dict[Any, int] = {}
        missing = 0
        for r in st.rows:
            rows = int(r[k + 1] if kept == "n" else r[k + 1] - r[k + 2] - r[k + 3] - r[k + 4])
            if rows == 0:
                continue
            if _is_missing(r[k]):
                missing += rows
            else:
                counts[r[k]] = counts.get(r[k], 0) + rows
        if missing:
            raise ValueError(f"label column {self.label!r} has {plural(missing, 'missing value')} "
                             f"(NULL or NaN) in {self.source}{self._locate('label_missing')}")
        return sorted(counts, key=label_key)

    def resolve_pos_label(self, st: Stats, pos_label: Any) -> Any:
        """The positive label, as :func:`binmetrics.evaluate` finds it (same errors)."""
        try:
            _, pos = check_labels(np.array(st.labels), pos_label)
        except ValueError as exc:
            msg = str(exc).replace("y_true", f"label column {self.label!r}", 1)
            raise ValueError(f"{msg} (in {self.source})") from None
        return pos.item() if isinstance(pos, np.generic) else pos

    def groups(self, st: Stats, pos: Any) -> list[Group]:
        """One Group per key, in the order of the statistics (sorted keys)."""
        k = st.n_keys
        out: dict[tuple[Any, ...], Group] = {}
        w_max: dict[tuple[Any, ...], float] = {}
        c = {name: k + 1 + i for i, name in enumerate(STAT_COLUMNS)}
        for r in st.rows:
            key = tuple(math.nan if _is_missing(v) and v is not None else v for v in r[:k])
            g = out.setdefault(key, Group(key=key))
            n_fin = int(r[c["n"]] - r[c["n_null"]] - r[c["n_nan"]] - r[c["n_inf"]])
            is_pos = (not _is_missing(r[k])) and r[k] == pos
            g.n_fin += n_fin
            g.n_omitted += int(r[c["n"]]) - n_fin
            w = float(r[c["w_fin"]] or 0.0) if st.weighted else float(n_fin)
            if st.weighted:
                w_max[key] = max(w_max.get(key, 0.0), float(r[c["w_max"]] or 0.0))
            if is_pos:
                g.n_pos += n_fin
                g.w_pos += w
            else:
                g.w_neg += w
            if n_fin:
                g.s_min = min(g.s_min, float(r[c["s_min"]]))
                g.s_max = max(g.s_max, float(r[c["s_max"]]))
        for key, w in w_max.items():
            out[key].w_max = w
        return list(out.values())

    def evaluate(self, options: EvalOptions = DEFAULTS,
                 **by_options: Any) -> Evaluation | ByResult:
        """Both queries and the result (see :func:`~binmetrics.engines.evaluate_file`)."""
        if by_options and not self.by:
            raise TypeError(f"{', '.join(sorted(by_options))}: only with by= (the options of "
                            "evaluate_by)")
        if not options.higher_is_positive and options.binned:
            # the bins are cut on the scores as given; negated, they would be other bins
            raise ValueError("higher_is_positive=False with decimals= or bins= is not "
                             "supported by the file and Spark engines: negate the score "
                             "column (e.g. a view or where the file is written) and use the "
                             "negated threshold")
        st = self.stats(options.nan_policy)
        pos = self.resolve_pos_label(st, options.pos_label)
        groups = self.groups(st, pos)
        tables = self.tables(options, st, pos, groups)
        if not self.by:
            g, t = groups[0], tables[0]
            assert t is not None
            return options.evaluation(t, pos_label=pos, n_omitted=g.n_omitted,
                                      n_rows=g.n_fin, n_positive_rows=g.n_pos)
        return by_tables([(g.key, t, g.n_fin, g.n_pos, g.n_omitted)
                          for g, t in zip(groups, tables, strict=True)],
                         by=self._by_arg, options=options, pos_label=pos, **by_options)

    def tables(self, options: EvalOptions, st: Stats, pos: Any, groups: list[Group]
               ) -> list[CountTable | None]:
        """The count table of each group (the counts query; None for a group with no
        finite score), binned as ``options`` asks (exact scores: negated when lower
        scores mean positive)."""
        threshold = options.threshold
        n_bad = sum(g.n_omitted for g in groups)
        if n_bad:
            warnings.warn(f"nan_policy='omit': dropped {plural(n_bad, 'row')} with non-finite "
                          "scores", BinmetricsWarning, stacklevel=4)
        finite = [g for g in groups if g.n_fin]
        low = min(g.s_min for g in finite)
        high = max(g.s_max for g in finite)
        spec = BinSpec.resolve(options.decimals, options.bins, low, high, threshold=threshold)
        n_fin = sum(g.n_fin for g in groups)
        if self.costed:  # costs are summed per score in the group-by
            self._check_case_costs()
        sort = spec is None and not self.costed and \
            self._distinct_fraction(st, n_fin) >= SORT_FRACTION
        pos_values = self._raw_labels.get(_hashable(pos), [pos])
        if spec is None and not st.weighted and not self.costed and \
                (sort or self.collect_unsorted):
            collector = Collector(groups)
            for chunk in self._counts(pos_values, spec, groups, sort, ordered=False):
                collector.add(chunk)
            tables = collector.tables()
        else:
            asm = Assembler([g.n_fin for g in groups], weighted=st.weighted,
                            binned=spec is not None)
            for chunk in self._counts(pos_values, spec, groups, sort):
                asm.add(chunk)
            tables = asm.tables()
        for i, (g, t) in enumerate(zip(groups, tables, strict=True)):
            if t is not None:  # the unit the weights were rescaled to, for display
                t.weight_exponent = self.w_exponent
            if t is not None and spec is not None:
                t.binning = Binning(spec=spec, score_range=(g.s_min, g.s_max),
                                    raw=raw_sums_from_columns(asm.sums_of(i)), prior=g.prior)
        if not options.higher_is_positive:  # exact scores: the table of -score, as evaluate
            tables = [None if t is None else _negated(t) for t in tables]
        return tables


def _negated(t: CountTable) -> CountTable:
    """The count table of the negated scores (descending again), counts unchanged."""
    neg = CountTable(-t.scores[::-1], t.pos[::-1], t.neg[::-1], weighted=t.weighted)
    neg.weight_exponent = t.weight_exponent
    return neg


class Assembler:
    """Count tables from chunks sorted by (gid, descending score).

    Equal (gid, score) rows may repeat (the sort path sends one row per case) and may
    straddle chunks: they are summed, the last row of each chunk being held back
    until the next. Each group's arrays are allocated once at its row count (an
    upper bound on its distinct scores; the pages past the table's end are never
    touched, so they take no memory) and filled in place: the peak is one table,
    not the table plus its parts. Unweighted counts start as one byte each and
    widen only when a count needs it.
    """

    def __init__(self, capacities: Sequence[int], *, weighted: bool, binned: bool) -> None:
        self.capacity = [int(c) for c in capacities]
        self.n_groups = len(self.capacity)
        self.weighted = weighted
        self.binned = binned
        self.arrays: list[tuple[FloatArray, np.ndarray, np.ndarray] | None] = \
            [None] * self.n_groups
        self.size = [0] * self.n_groups
        self.sums: list[dict[str, list[float]]] = [
            {k: [] for k in raw_sum_names()} for _ in range(self.n_groups)]
        self.carry: dict[str, np.ndarray] | None = None
        #: per group, the per-case cost sums per score (chunks with cost_fp, cost_fn)
        self.costs: list[tuple[FloatArray, FloatArray] | None] = [None] * self.n_groups

    def add(self, chunk: dict[str, np.ndarray]) -> None:
        if chunk["s"].size == 0:
            return
        count = np.float64 if self.weighted else np.int64  # reduceat sums in this type
        chunk = {k: (v.astype(count, copy=False) if k in ("pos", "neg") else v)
                 for k, v in chunk.items()}
        if self.carry is not None:
            chunk = {k: np.concatenate((self.carry[k], v)) for k, v in chunk.items()}
        gid, s = chunk["gid"], chunk["s"]
        new = (gid[1:] != gid[:-1]) | (s[1:] != s[:-1])
        if not new.all():  # sum the repeats
            starts = np.concatenate(([0], np.flatnonzero(new) + 1))
            chunk = {k: (v[starts] if k in ("gid", "s") else np.add.reduceat(v, starts))
                     for k, v in chunk.items()}
        last = chunk["s"].size - 1
        self.carry = {k: v[last:] for k, v in chunk.items()}
        self._store({k: v[:last] for k, v in chunk.items()})

    def _store(self, chunk: dict[str, np.ndarray]) -> None:
        gid = chunk["gid"]
        if gid.size == 0:
            return
        cuts = np.flatnonzero(gid[1:] != gid[:-1]) + 1
        for a, b in zip(np.r_[0, cuts], np.r_[cuts, gid.size], strict=True):
            g = int(gid[a])
            p, n = chunk["pos"][a:b], chunk["neg"][a:b]
            at = self.size[g]
            if at + b - a > self.capacity[g]:  # cannot happen with correct statistics
                raise RuntimeError(f"group {g}: more distinct scores than rows")
            arrays = self.arrays[g]
            if arrays is None:
                dt = np.dtype(np.float64) if self.weighted else np.dtype(np.uint8)
                cap = self.capacity[g]
                arrays = (np.empty(cap), np.empty(cap, dt), np.empty(cap, dt))
            ts, tp, tn = arrays
            if not self.weighted:
                need = count_dtype(float((p + n).max()))  # as CountTable: p + n fits
                if need.itemsize > tp.dtype.itemsize:  # widen what is filled so far
                    tp, tn = _widen(tp, at, need), _widen(tn, at, need)
            ts[at:at + b - a] = chunk["s"][a:b]
            tp[at:at + b - a] = p
            tn[at:at + b - a] = n
            self.arrays[g] = (ts, tp, tn)
            if "cost_fp" in chunk:
                costs = self.costs[g] or (np.empty(tp.size), np.empty(tp.size))
                costs[0][at:at + b - a] = chunk["cost_fp"][a:b]
                costs[1][at:at + b - a] = chunk["cost_fn"][a:b]
                self.costs[g] = costs
            self.size[g] = at + b - a
            if self.binned:
                for k in raw_sum_names():
                    self.sums[g][k].append(float(np.sum(chunk[k][a:b])))

    def sums_of(self, g: int) -> dict[str, Any]:
        return {k: np.array(v) for k, v in self.sums[g].items()}

    def tables(self) -> list[CountTable | None]:
        if self.carry is not None:
            self._store(self.carry)
            self.carry = None
        out: list[CountTable | None] = []
        for g in range(self.n_groups):
            arrays, k = self.arrays[g], self.size[g]
            if arrays is None or k == 0:
                out.append(None)
                continue
            s, p, n = (a[:k] for a in arrays)
            t = CountTable(s, p, n, weighted=self.weighted, _trusted=True)
            costs = self.costs[g]
            out.append(t if costs is None else t.with_case_costs(costs[0][:k], costs[1][:k]))
        return out


def _widen(a: np.ndarray, filled: int, dtype: np.dtype) -> np.ndarray:
    out = np.empty(a.size, dtype)
    out[:filled] = a[:filled]
    return out


class Collector:
    """Unweighted count tables from chunks in any order, sorted here.

    When most scores are distinct, sorting the rows on the engine and streaming them
    back in order costs more than streaming them as they are read and sorting here:
    NumPy sorts the scores alone (no permutation carried along) and the minority
    class's scores apart, and places the minority counts by binary search, as
    :meth:`CountTable.from_arrays` does in memory. A chunk's rows may each be one
    case (``is_pos``: DuckDB's rows) or a count-table row (``pos``, ``neg``: Spark's
    group-by, or an accumulator's tables; a score may come in several rows): a row
    enters the sorted keys once, and its further cases are added by position.

    The keys of all groups share one buffer, each group a region of its capacity
    (default: its case count from the statistics; pages past what is filled are
    never touched), filled by one scatter per chunk whatever the number of groups.
    With one group the table's scores reuse the buffer, so the peak is about the
    table plus the minority class's scores; with several, each group's scores are
    copied out and the buffer is freed. At the end the cases received must add up
    to the statistics' (a mismatch means the data changed between the passes).

    Parameters
    ----------
    groups : the groups, in gid order (``n_fin``, ``n_pos``: their cases).
    capacity : optional (keys, minority keys) per group: at least the rows that will
        come (all rows; those holding a minority case); default the cases.
    """

    def __init__(self, groups: Sequence[Group],
                 capacity: Sequence[tuple[int, int]] | None = None) -> None:
        self.groups = list(groups)
        n = len(self.groups)
        self.minority_is_pos = np.array([2 * g.n_pos <= g.n_fin for g in self.groups])
        self.n_min = np.array([g.n_pos if mp else g.n_fin - g.n_pos
                               for g, mp in zip(self.groups, self.minority_is_pos, strict=True)],
                              dtype=np.int64)
        self.n_cases = np.array([g.n_fin for g in self.groups], dtype=np.int64)
        if capacity is None:
            capacity = list(zip(self.n_cases.tolist(), self.n_min.tolist(), strict=True))
        cap = np.array(capacity, dtype=np.int64).reshape(n, 2)
        self.cap = (cap[:, 0], cap[:, 1])
        self.off = tuple(np.concatenate(([0], np.cumsum(c)[:-1])) for c in self.cap)
        self.buf: tuple[np.ndarray, np.ndarray] | None = (np.empty(int(cap[:, 0].sum())),
                                                          np.empty(int(cap[:, 1].sum())))
        self.filled = (np.zeros(n, np.int64), np.zeros(n, np.int64))
        # rows standing for several cases: (gid, negated score, further cases)
        self.extra: tuple[list[tuple[np.ndarray, ...]], list[tuple[np.ndarray, ...]]] = ([], [])

    def add(self, chunk: dict[str, np.ndarray]) -> None:
        """Add a chunk: ``s``, ``gid`` (optional with one group) and either ``is_pos``
        (each row one case) or ``pos``, ``neg`` (the cases of each row)."""
        s = chunk["s"]
        if s.size == 0:
            return
        if len(self.groups) == 1:  # one group: a 0-d id (no per-row ids needed)
            gid, mp = np.array(0), self.minority_is_pos[0]
        else:
            gid = chunk["gid"]
            mp = self.minority_is_pos[gid]
        if "is_pos" in chunk:
            self._scatter(0, gid, s)
            self._scatter(1, *row_list(chunk["is_pos"] == mp, gid, s))
            return
        pos = np.asarray(chunk["pos"], dtype=np.int64)
        neg = np.asarray(chunk["neg"], dtype=np.int64)
        total = pos + neg
        keep = total > 0
        if not keep.all():
            gid, mp, s, pos, neg, total = row_list(keep, gid, mp, s, pos, neg, total)
        mc = np.where(mp, pos, neg) if len(self.groups) > 1 else (pos if mp else neg)
        self._scatter(0, gid, s)
        self._scatter(1, *row_list(mc > 0, gid, s))
        for i, counts in ((0, total), (1, mc)):
            more = counts > 1
            if more.any():
                g, ss, c = row_list(more, gid, s, counts)
                self.extra[i].append((np.broadcast_to(g, c.shape).copy(), -ss, c - 1))

    def _scatter(self, i: int, gid: np.ndarray, s: np.ndarray) -> None:
        """Append the negated scores ``s`` of groups ``gid`` to buffer ``i`` (0: every
        row's, 1: the minority rows')."""
        assert self.buf is not None
        buf, off, cap, filled = self.buf[i], self.off[i], self.cap[i], self.filled[i]
        k = s.size
        if k == 0:
            return
        if len(self.groups) == 1:
            at = int(filled[0])
            if at + k > cap[0]:
                raise RuntimeError("more rows than the statistics' cases")
            np.negative(s, out=buf[at:at + k])
            filled[0] += k
            return
        cnt = np.bincount(gid, minlength=len(self.groups))
        if np.any(filled + cnt > cap):
            g = int(np.flatnonzero(filled + cnt > cap)[0])
            raise RuntimeError(f"group {self.groups[g].key}: more rows than the "
                               "statistics' cases")
        order = np.argsort(gid, kind="stable")
        g_sorted = gid[order]
        first = np.cumsum(cnt) - cnt  # where each group starts in the sorted chunk
        dest = np.arange(k, dtype=np.int64)
        dest += (off + filled - first)[g_sorted]
        buf[dest] = np.negative(s[order])
        filled += cnt

    def tables(self) -> list[CountTable | None]:
        """One table per group (None for a group without cases); frees the buffers."""
        assert self.buf is not None, "tables() was called already"
        extra = [_by_group(parts, len(self.groups)) for parts in self.extra]
        self.extra = ([], [])
        out: list[CountTable | None] = []
        single = len(self.groups) == 1
        for g, group in enumerate(self.groups):
            views = []
            for i in (0, 1):
                a = int(self.off[i][g])
                views.append(self.buf[i][a:a + int(self.filled[i][g])])
            keys, mino = views
            cases = keys.size + int(extra[0][g][1].sum())
            min_cases = mino.size + int(extra[1][g][1].sum())
            if (cases, min_cases) != (int(self.n_cases[g]), int(self.n_min[g])):
                raise RuntimeError(
                    f"group {group.key}: the counting pass found {cases} cases "
                    f"({min_cases} of the minority class) where the statistics counted "
                    f"{int(self.n_cases[g])} ({int(self.n_min[g])}): did the data change "
                    "between the two passes?")
            if cases == 0:
                out.append(None)
                continue
            if not single:  # a group's table must not keep the shared buffer alive
                keys = keys.copy()
            keys.sort()
            mino.sort()
            out.append(CountTable.from_sorted_keys(
                keys, mino, minority_is_pos=bool(self.minority_is_pos[g]),
                totals=(group.n_pos, group.n_fin - group.n_pos),
                extra=extra[0][g], extra_minority=extra[1][g]))
        self.buf = None
        return out


def row_list(mask: np.ndarray, *arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """The rows selected by ``mask`` of each array (a 0-d array, one group's flag or
    id, is kept whole)."""
    return tuple(a[mask] if a.ndim else a for a in arrays)


def _by_group(parts: list[tuple[np.ndarray, ...]], n_groups: int
              ) -> list[tuple[np.ndarray, np.ndarray]]:
    """(negated scores, counts) per group, from (gid, negated scores, counts) parts."""
    if not parts:
        empty = (np.zeros(0), np.zeros(0, np.int64))
        return [empty] * n_groups
    gid = np.concatenate([p[0] for p in parts])
    keys = np.concatenate([p[1] for p in parts])
    counts = np.concatenate([p[2] for p in parts])
    order = np.argsort(gid, kind="stable")
    bounds = np.searchsorted(gid[order], np.arange(n_groups + 1))
    return [(keys[order[a:b]], counts[order[a:b]]) for a, b in itertools.pairwise(bounds)]
