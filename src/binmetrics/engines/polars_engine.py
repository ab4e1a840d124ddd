"""``evaluate_polars``: a Polars LazyFrame (or DataFrame), grouped by Polars' streaming
engine.

Polars (``pip install 'binmetrics[polars]'``) runs the two queries of every engine
(:mod:`binmetrics.engines._common`) as lazy group-bys on its streaming engine, which
reads Parquet and CSV scans in batches on all cores; only the statistics and the count
table come back (docs/architecture.md, "Where users outgrow one machine"):

1. the statistics per (group, label): row counts, non-finite scores, the score range,
   the weights' sums, and an estimate of the distinct scores (``approx_n_unique``);
2. the counts per (group, score or bin): a group-by summing the positives' and the
   negatives' weights (row counts when unweighted) and, for ``decimals=`` / ``bins=``,
   the probabilistic losses over the raw scores (the SQL terms of
   :func:`binmetrics.measures.sums.raw_sum_sql`, read by ``polars.sql_expr``). When
   most unweighted scores are distinct, the rows (group, score, class) are streamed in
   batches to the :class:`~binmetrics.engines._common.Collector` instead, which sorts
   the scores in NumPy, as the DuckDB engine does.

Counts are exact integers; weighted counts are Polars' float sums (to about 1e-15
relative of the in-memory result). Bins are those of
:class:`~binmetrics.table.binning.BinSpec` (its own arithmetic, applied to each batch),
so the error bounds are the DuckDB engine's.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from binmetrics.engines._common import (
    AggregateJob,
    Group,
    Stats,
    check_names,
    missing_engine,
)
from binmetrics.engines._frames import frame_evaluator, null_last_key
from binmetrics.engines.registry import FileEngine, register_engine
from binmetrics.evaluation.binary import Evaluation
from binmetrics.evaluation.by import ByResult
from binmetrics.evaluation.frames import FrameEngine, register_frame_engine
from binmetrics.evaluation.options import DEFAULTS, EvalOptions
from binmetrics.exceptions import EngineError, UndefinedPolicy, one_line
from binmetrics.measures.sums import raw_sum_names, raw_sum_sql
from binmetrics.table.binning import BinSpec
from binmetrics.validation import NanPolicy

__all__ = ["PolarsJob", "evaluate_polars"]

#: rows per batch streamed to the Collector, and per chunk of the count table
BATCH_ROWS = 1 << 20


def _polars() -> Any:
    try:
        import polars as pl
    except ImportError:
        raise missing_engine("polars", "polars", "evaluate_polars") from None
    return pl


class PolarsJob(AggregateJob):
    """The Polars engine behind :func:`evaluate_polars`; ``source`` names the data in
    messages (default "the Polars LazyFrame"; the command line gives the files)."""

    source = "the Polars LazyFrame"

    def __init__(self, data: Any, *, label: str, score: str, weight: str | None = None,
                 by: str | Sequence[str] | None = None, where: str | None = None,
                 source: str | None = None, streaming: bool = True) -> None:
        super().__init__(label=label, score=score, weight=weight, by=by, where=where)
        pl = _polars()
        if isinstance(data, pl.DataFrame):
            data = data.lazy()
            self.source = "the Polars DataFrame"
        elif not isinstance(data, pl.LazyFrame):
            raise TypeError(f"data must be a polars LazyFrame or DataFrame, got "
                            f"{type(data).__name__}")
        if source is not None:
            self.source = source
        if where is not None:
            raise ValueError("where= (--where) is not supported by the Polars engine: "
                             "filter the LazyFrame first (lf.filter(...)), or use the DuckDB or "
                             "Spark engine")
        self._engine = "streaming" if streaming else "in-memory"
        try:
            schema = data.collect_schema()
        except pl.exceptions.PolarsError as exc:
            raise self._wrap(exc) from None
        names = list(schema.names())
        wanted = [("label", label), ("score", score)]
        if weight is not None:
            wanted.append(("weight", weight))
        wanted += [("group", b) for b in self.by]
        check_names(names, wanted, self.source)
        for role, col in (("score", score), ("weight", weight)):
            if col is not None and not (schema[col].is_numeric()
                                        or schema[col] == pl.Boolean):
                raise TypeError(f"{role} column {col!r} of {self.source} must be numeric; its "
                                f"type is {schema[col]}")
        for role, col in (("label", label), *(("group", b) for b in self.by)):
            if schema[col].is_nested():
                raise TypeError(f"{role} column {col!r} of {self.source} must hold scalar "
                                f"values; its type is {schema[col]}")
        self._key_types = [schema[b] for b in self.by]
        self._data = data
        self._distinct = 0

    def _wrap(self, exc: BaseException) -> Exception:
        return EngineError(f"Polars failed on {self.source}: {type(exc).__name__}: "
                           f"{one_line(exc)[:2000]}")

    def _collect(self, lf: Any) -> Any:
        pl = _polars()
        try:
            return lf.collect(engine=self._engine)
        except (pl.exceptions.PolarsError, OSError) as exc:
            raise self._wrap(exc) from None

    def _rescale_weights(self, exponent: int) -> bool:
        self.w_exponent = exponent
        return True

    def _src(self) -> Any:
        """The rows as (x, y[, w], k0...): weights times 2**w_exponent (two factors)."""
        pl = _polars()
        cols = [pl.col(self.score).cast(pl.Float64).alias("x"), pl.col(self.label).alias("y")]
        if self.weight is not None:
            w = pl.col(self.weight).cast(pl.Float64)
            if self.w_exponent:
                half = self.w_exponent // 2
                w = w * (2.0 ** half) * (2.0 ** (self.w_exponent - half))
            cols.append(w.alias("w"))
        cols += [pl.col(b).alias(f"k{i}") for i, b in enumerate(self.by)]
        return self._data.select(cols)

    def _keys(self) -> list[str]:
        return [f"k{i}" for i in range(len(self.by))]

    def _stats(self) -> list[tuple[Any, ...]]:
        pl = _polars()
        x = pl.col("x")
        finite = x.is_finite().fill_null(False)
        aggs = [
            pl.len().cast(pl.Int64).alias("n"),
            x.is_null().sum().cast(pl.Int64).alias("n_null"),
            x.is_nan().sum().cast(pl.Int64).alias("n_nan"),
            x.is_infinite().sum().cast(pl.Int64).alias("n_inf"),
            x.filter(finite).min().alias("s_min"),
            x.filter(finite).max().alias("s_max"),
        ]
        if self.weight is not None:
            w = pl.col("w")
            bad = w.is_null() | ~w.is_finite().fill_null(False)
            aggs += [
                w.sum().alias("w_all"),
                w.filter(finite).sum().alias("w_fin"),
                bad.sum().cast(pl.Int64).alias("n_wbad"),
                (w < 0).sum().cast(pl.Int64).alias("n_wneg"),
                w.min().alias("w_min"),
                w.max().alias("w_max"),
            ]
        else:
            aggs += [pl.lit(None).alias(c) for c in ("w_all", "w_fin")]
            aggs += [pl.lit(0).alias(c) for c in ("n_wbad", "n_wneg")]
            aggs += [pl.lit(None).alias(c) for c in ("w_min", "w_max")]
        aggs.append(x.filter(finite).approx_n_unique().cast(pl.Int64).alias("bm_distinct"))
        keys = [*self._keys(), "y"]
        out = self._collect(self._src().group_by(keys).agg(aggs))
        self._distinct = int(out["bm_distinct"].sum() or 0)
        rows = out.drop("bm_distinct").rows()
        return sorted(rows, key=lambda r: null_last_key(r, len(keys)))

    def _distinct_fraction(self, st: Stats, n_fin: int) -> float:
        return self._distinct / n_fin if n_fin else 0.0

    def _with_groups(self, src: Any, groups: list[Group], pos_values: list[Any]) -> Any:
        """The finite rows with ``gid``, ``pos`` (the class) and their group's prior
        (``pi``, ``lpi``, ``l1pi``: for the information score)."""
        pl = _polars()
        pi = np.array([g.prior if np.isfinite(g.prior) else 0.5 for g in groups])
        y = pl.col("y")
        pos = (y == pos_values[0]) if len(pos_values) == 1 else y.is_in(pos_values)
        src = src.filter(pl.col("x").is_finite().fill_null(False)).with_columns(
            pos.fill_null(False).alias("pos"))
        table = {"gid": np.arange(len(groups), dtype=np.int32), "pi": pi, "lpi": np.log(pi),
                 "l1pi": np.log1p(-pi)}
        if not self.by:
            return src.with_columns(*(pl.lit(v[0]).alias(k) for k, v in table.items()))
        frame = pl.DataFrame({
            **{f"k{i}": pl.Series([g.key[i] for g in groups], dtype=t, strict=False)
               for i, t in enumerate(self._key_types)},
            **table})
        return src.join(frame.lazy(), on=self._keys(), how="inner", nulls_equal=True)

    def _counts(self, pos_values: list[Any], spec: BinSpec | None, groups: list[Group],
                sort: bool, ordered: bool = True) -> Iterator[dict[str, np.ndarray]]:
        pl = _polars()
        src = self._with_groups(self._src(), groups, pos_values)
        if spec is None and sort and not ordered:  # the cases, as read: the Collector sorts
            rows = src.select(pl.col("gid"), pl.col("x").alias("s"), pl.col("pos"))
            try:
                for batch in rows.collect_batches(chunk_size=BATCH_ROWS, maintain_order=False,
                                                  engine=self._engine):
                    yield {"gid": batch["gid"].to_numpy(), "s": batch["s"].to_numpy(),
                           "is_pos": batch["pos"].to_numpy()}
            except (pl.exceptions.PolarsError, OSError) as exc:
                raise self._wrap(exc) from None
            return
        s = pl.col("x")
        if spec is not None:
            s = s.map_batches(lambda v: pl.Series(spec.assign(v.to_numpy())),
                              return_dtype=pl.Float64, is_elementwise=True)
        w = pl.col("w") if self.weight is not None else pl.lit(1.0)
        p = pl.col("pos")
        if self.weight is None:
            aggs = [p.sum().cast(pl.Int64).alias("pos_n"), (~p).sum().cast(pl.Int64).alias("neg_n")]
        else:
            aggs = [w.filter(p).sum().alias("pos_n"), w.filter(~p).sum().alias("neg_n")]
        names = list(raw_sum_names()) if spec is not None else []
        for name, (rows, term) in (raw_sum_sql().items() if spec is not None else ()):
            value = w * pl.sql_expr(term).cast(pl.Float64)
            if rows is not None:
                value = value.filter(p if rows == "pos" else ~p)
            aggs.append(value.sum().alias(name))
        table = self._collect(src.with_columns(s.alias("s")).group_by(["gid", "s"]).agg(aggs)
                              .sort(["gid", "s"], descending=[False, True]))
        for part in table.iter_slices(BATCH_ROWS):
            chunk = {"gid": part["gid"].to_numpy(), "s": part["s"].to_numpy(),
                     "pos": part["pos_n"].to_numpy(), "neg": part["neg_n"].to_numpy()}
            chunk.update({n: part[n].to_numpy() for n in names})
            yield chunk


def evaluate_polars(
    data: Any,
    *,
    label: str,
    score: str,
    weight: str | None = None,
    by: str | Sequence[str] | None = None,
    pos_label: Any = None,
    threshold: float = DEFAULTS.threshold,
    nan_policy: NanPolicy = "raise",
    decimals: int | None = None,
    bins: Any = None,
    undefined: UndefinedPolicy = "warn",
    pi0: Any = None,
    streaming: bool = True,
    **by_options: Any,
) -> Evaluation | ByResult:
    """Evaluate the scores of a Polars LazyFrame (or DataFrame): Polars' streaming engine
    groups the rows by score, only the count table comes back.

    ``bm.evaluate(lf, label=..., score=...)`` and ``bm.evaluate_by(lf, ...)`` call this.
    The parameters and the result are those of :func:`binmetrics.engines.evaluate_file`
    (no ``where``: filter the LazyFrame), and so are the checks: a missing column (with
    "did you mean"), a non-numeric score, NaN/NULL/inf scores, labels that are not two
    classes, negative or missing weights are errors naming the column and the count,
    raised before the counting pass. ``streaming=False`` runs Polars' in-memory engine.

    Examples
    --------
    >>> import polars as pl
    >>> from binmetrics.engines import evaluate_polars
    >>> lf = pl.LazyFrame({"y": [1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                    "p": [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]})
    >>> ev = evaluate_polars(lf, label="y", score="p", threshold=0.55)
    >>> ev["auc"], ev.confusion
    (0.8, Confusion(tp=3, fp=1, fn=2, tn=4))
    >>> evaluate_polars(lf, label="y", score="score")
    Traceback (most recent call last):
    ...
    ValueError: score column 'score' not found in the Polars LazyFrame; available columns: y, p
    """
    options = EvalOptions(threshold=threshold, pos_label=pos_label, nan_policy=nan_policy,
                          undefined=undefined, pi0=pi0, decimals=decimals, bins=bins)
    with PolarsJob(data, label=label, score=score, weight=weight, by=by,
                   streaming=streaming) as job:
        return job.evaluate(options, **by_options)


def open_polars_file(path: str, *, label: str, score: str, weight: str | None = None,
                     by: str | Sequence[str] | None = None,
                     where: str | None = None) -> PolarsJob:
    """A Polars job on a CSV or Parquet file (or glob), scanned lazily."""
    from binmetrics.engines.files import format_of

    try:
        import polars as pl
    except ImportError:
        raise POLARS.missing("--engine polars") from None
    import glob

    if "://" not in path and not (glob.glob(path) if glob.has_magic(path)
                                  else os.path.exists(path)):
        raise FileNotFoundError(f"no file matches {path!r}")
    fmt = format_of([path], None)
    try:
        lf = pl.scan_parquet(path) if fmt == "parquet" else pl.scan_csv(path)
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise EngineError(f"cannot read {path}: {one_line(exc)[:500]}") from None
    return PolarsJob(lf, label=label, score=score, weight=weight, by=by, where=where,
                     source=repr(path))


def _takes(data: Any, engine_options: dict[str, Any]) -> bool:
    """LazyFrames always; DataFrames (in memory already) when they are to be binned."""
    import polars as pl

    if isinstance(data, pl.LazyFrame):
        return True
    return isinstance(data, pl.DataFrame) and any(
        engine_options.get(k) is not None for k in ("decimals", "bins"))


POLARS = register_engine(FileEngine(
    "polars", "Polars", "polars", "polars",
    "CSV/Parquet files and globs, grouped by Polars' streaming engine",
    open=open_polars_file))
register_frame_engine(FrameEngine("polars", _takes, frame_evaluator(PolarsJob)))
