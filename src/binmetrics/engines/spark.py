"""``evaluate_spark``: a pyspark DataFrame, grouped on the cluster.

Spark (``pip install 'binmetrics[spark]'``) computes the statistics per (group,
label) and the counts per (group, score or bin) where the data lives; only those
aggregates are collected to the driver, as Arrow (DESIGN.md, "Where users
outgrow one machine"). With continuous scores the count table has one row per
distinct score: for billions of rows pass ``decimals=`` or ``bins=``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from ..by import ByResult
from ..evaluation import Evaluation
from ..exceptions import UndefinedPolicy
from ..validation import NanPolicy
from ._common import AggregateJob, check_names, missing_engine
from .binning import BinSpec, RawSums

__all__ = ["SparkJob", "evaluate_spark"]

_EPS = 1e-15
_TINY = 1e-300


def _pyspark() -> tuple[Any, Any]:
    try:
        from pyspark.sql import functions as F
        from pyspark.sql import types as T
    except ImportError:
        raise missing_engine("pyspark", "spark", "evaluate_spark") from None
    return F, T


def _spark_errors() -> tuple[type[BaseException], ...]:
    errors: list[type[BaseException]] = []
    try:
        from pyspark.errors import PySparkException

        errors.append(PySparkException)
    except ImportError:  # pragma: no cover - old pyspark
        pass
    try:
        from py4j.protocol import Py4JJavaError

        errors.append(Py4JJavaError)
    except ImportError:  # pragma: no cover
        pass
    return tuple(errors)


class SparkJob(AggregateJob):
    """The Spark engine behind :func:`evaluate_spark`."""

    source = "the Spark DataFrame"

    def __init__(self, df: Any, *, label: str, score: str, weight: str | None = None,
                 by: str | Sequence[str] | None = None, where: str | None = None) -> None:
        super().__init__(label=label, score=score, weight=weight, by=by, where=where)
        F, T = _pyspark()
        if not (hasattr(df, "schema") and hasattr(df, "groupBy")):
            raise TypeError(f"df must be a pyspark DataFrame, got {type(df).__name__}")
        self._errors = _spark_errors()
        fields = {f.name: f.dataType for f in df.schema.fields}
        wanted = [("label", label), ("score", score)]
        if weight is not None:
            wanted.append(("weight", weight))
        wanted += [("group", b) for b in self.by]
        check_names(list(fields), wanted, self.source)
        for role, col in (("score", score), ("weight", weight)):
            if col is not None and not isinstance(fields[col], (T.NumericType, T.BooleanType)):
                raise TypeError(f"{role} column {col!r} of {self.source} must be numeric; its "
                                f"type is {fields[col].simpleString()}")
        for role, col in (("label", label), *(("group", b) for b in self.by)):
            if isinstance(fields[col], (T.ArrayType, T.MapType, T.StructType)):
                raise TypeError(f"{role} column {col!r} of {self.source} must hold scalar "
                                f"values; its type is {fields[col].simpleString()}")
        self._key_types = [fields[b] for b in self.by]
        self._spark = df.sparkSession
        if where:
            try:
                df = df.where(where)
            except self._errors as exc:
                text = " ".join(str(exc).split())[:2000]
                raise ValueError(f"where={where!r} is not a valid condition on "
                                 f"{self.source}: {text}") from None
        try:
            src = df
            cols = [F.col(score).cast("double").alias("x"), F.col(label).alias("y")]
            if weight is not None:
                cols.append(F.col(weight).cast("double").alias("w"))
            cols += [F.col(b).alias(f"k{i}") for i, b in enumerate(self.by)]
            self._src = src.select(*cols)
        except self._errors as exc:
            raise self._wrap(exc) from None

    def _wrap(self, exc: BaseException) -> Exception:
        text = " ".join(str(exc).split())[:2000]
        return ValueError(f"Spark failed on {self.source}: {text}")

    def _keys(self) -> list[str]:
        return [f"k{i}" for i in range(len(self.by))]

    def _stats(self) -> list[tuple[Any, ...]]:
        F, _ = _pyspark()
        x = F.col("x")
        finite = x.isNotNull() & ~F.isnan(x) & (F.abs(x) != float("inf"))

        def count_if(cond: Any) -> Any:
            return F.sum(F.when(cond, 1).otherwise(0)).cast("long")

        w = F.col("w") if self.weight is not None else None
        aggs = [
            F.count(F.lit(1)).alias("n"),
            count_if(x.isNull()).alias("n_null"),
            count_if(F.isnan(x)).alias("n_nan"),
            count_if(F.abs(x) == float("inf")).alias("n_inf"),
            F.min(F.when(finite, x)).alias("s_min"),
            F.max(F.when(finite, x)).alias("s_max"),
            F.lit(0).alias("ndv"),
        ]
        if w is not None:
            aggs += [
                F.sum(w).alias("w_all"),
                F.sum(F.when(finite, w)).alias("w_fin"),
                count_if(w.isNull() | F.isnan(w) | (F.abs(w) == float("inf"))).alias("n_wbad"),
                count_if(w < 0).alias("n_wneg"),
                F.min(w).alias("w_min"),
            ]
        else:
            aggs += [F.lit(None).alias("w_all"), F.lit(None).alias("w_fin"),
                     F.lit(0).alias("n_wbad"), F.lit(0).alias("n_wneg"),
                     F.lit(None).alias("w_min")]
        keys = [*self._keys(), "y"]
        try:
            rows = (self._src.groupBy(*keys).agg(*aggs)
                    .orderBy(*[F.col(k).asc_nulls_last() for k in keys]).collect())
        except self._errors as exc:
            raise self._wrap(exc) from None
        return [tuple(r) for r in rows]

    def _with_groups(self, src: Any, priors: list[float]) -> Any:
        """Add gid and the group's prior (pi, ln pi, ln(1 - pi)) to every row."""
        F, T = _pyspark()
        pi = [p if math.isfinite(p) else 0.5 for p in priors]
        if not self.by:
            return (src.withColumn("gid", F.lit(0)).withColumn("pi", F.lit(pi[0]))
                    .withColumn("lpi", F.lit(math.log(pi[0])))
                    .withColumn("l1pi", F.lit(math.log1p(-pi[0]))))
        assert self._stats_cache is not None
        keys: list[tuple[Any, ...]] = []
        n = len(self.by)
        for r in self._stats_cache.rows:  # distinct keys in the statistics' order
            if not keys or not _same(keys[-1], tuple(r[:n])):
                keys.append(tuple(r[:n]))
        schema = T.StructType(
            [T.StructField("gid", T.IntegerType())]
            + [T.StructField(f"g{i}", t) for i, t in enumerate(self._key_types)]
            + [T.StructField(c, T.DoubleType()) for c in ("pi", "lpi", "l1pi")])
        rows = [(i, *k, p, math.log(p), math.log1p(-p))
                for i, (k, p) in enumerate(zip(keys, pi, strict=True))]
        gdf = self._spark.createDataFrame(rows, schema=schema)
        cond = [src[f"k{i}"].eqNullSafe(gdf[f"g{i}"]) for i in range(n)]
        return src.join(F.broadcast(gdf), on=cond, how="inner")

    def _counts(self, pos_label: Any, spec: BinSpec | None, priors: list[float],
                sort: bool) -> Iterator[dict[str, np.ndarray]]:
        F, _ = _pyspark()
        x = F.col("x")
        finite = x.isNotNull() & ~F.isnan(x) & (F.abs(x) != float("inf"))
        src = self._src.where(finite).withColumn("pos", F.col("y") == F.lit(pos_label))
        if self.weight is None:
            src = src.withColumn("w", F.lit(1.0))
        src = self._with_groups(src, priors)
        src = src.withColumn("s", self._bin(spec, src))
        if spec is not None and spec.decimals is None and spec.step is None:
            src = self._bucketize(src, spec)
        pos, w = F.col("pos"), F.col("w")
        if self.weight is None:
            cnt = [F.sum(F.when(pos, 1).otherwise(0)).cast("long").alias("c_pos"),
                   F.sum(F.when(pos, 0).otherwise(1)).cast("long").alias("c_neg")]
        else:
            cnt = [F.sum(F.when(pos, w).otherwise(0.0)).alias("c_pos"),
                   F.sum(F.when(pos, 0.0).otherwise(w)).alias("c_neg")]
        sums = [F.coalesce(e, F.lit(0.0)).alias(k) for k, e in _raw_sum_exprs().items()] \
            if spec is not None else []
        agg = src.groupBy("gid", "s").agg(*cnt, *sums)
        try:
            if hasattr(agg, "toArrow"):
                table = agg.toArrow()
                cols = {c: table.column(c).to_numpy() for c in table.column_names}
            else:  # pragma: no cover - pyspark < 4
                frame = agg.toPandas()
                cols = {c: frame[c].to_numpy() for c in frame.columns}
        except self._errors as exc:
            raise self._wrap(exc) from None
        order = np.lexsort((-cols["s"], cols["gid"]))
        chunk = {"gid": cols["gid"][order], "s": cols["s"][order].astype(np.float64),
                 "pos": cols["c_pos"][order], "neg": cols["c_neg"][order]}
        if spec is not None:
            chunk.update({k: cols[k][order] for k in RawSums.names()})
        yield chunk

    def _bin(self, spec: BinSpec | None, src: Any) -> Any:
        """A column with each score's bin representative (BinSpec.assign's arithmetic)."""
        F, _ = _pyspark()
        x = F.col("x")
        if spec is None:
            return x
        if spec.decimals is not None:
            scale = F.lit(10.0 ** spec.decimals)
            k0 = F.floor(x * scale).cast("double")
            k1 = k0 - F.when(k0 / scale > x, 1.0).otherwise(0.0)
            k2 = k1 + F.when((k1 + 1.0) / scale <= x, 1.0).otherwise(0.0)
            return k2 / scale
        e = spec.edges
        assert e is not None
        if spec.step is not None:
            lo, step, last = F.lit(float(e[0])), F.lit(float(spec.step)), F.lit(float(e.size - 2))
            k0 = F.least(F.greatest(F.floor((x - lo) / step).cast("double"), F.lit(0.0)), last)
            k1 = k0 - F.when(k0 * step + lo > x, 1.0).otherwise(0.0)
            k2 = k1 + F.when((k1 + 1.0 <= last) & ((k1 + 1.0) * step + lo <= x), 1.0
                             ).otherwise(0.0)
            return k2 * step + lo
        return x  # replaced by _bucketize

    def _bucketize(self, src: Any, spec: BinSpec) -> Any:
        from pyspark.ml.feature import Bucketizer

        F, _ = _pyspark()
        e = spec.edges
        assert e is not None
        out = Bucketizer(splits=[float(v) for v in e], inputCol="x",
                         outputCol="bm_bucket").transform(src.drop("s"))
        lows = F.array(*[F.lit(float(v)) for v in e[:-1]])
        return out.withColumn("s", F.element_at(lows, F.col("bm_bucket").cast("int") + 1))


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return all(u == v or (isinstance(u, float) and isinstance(v, float) and math.isnan(u)
                          and math.isnan(v)) for u, v in zip(a, b, strict=True))


def _raw_sum_exprs() -> dict[str, Any]:
    """Spark columns of each RawSums field (as binmetrics.engines.files._raw_sum_sql)."""
    F, _ = _pyspark()
    x, w, pos = F.col("x"), F.col("w"), F.col("pos")
    pi, lpi, l1pi = F.col("pi"), F.col("lpi"), F.col("l1pi")
    lx = F.log(F.greatest(x, F.lit(_EPS)))
    l1x = F.log(F.greatest(1.0 - x, F.lit(_EPS)))
    miss = 1.0 - x

    def on_pos(e: Any) -> Any:
        return F.sum(F.when(pos, w * e))

    def on_neg(e: Any) -> Any:
        return F.sum(F.when(~pos, w * e))

    lxt = F.log(F.greatest(x, F.lit(_TINY)))
    l1xt = F.log(F.greatest(1.0 - x, F.lit(_TINY)))
    info = F.when(pos, F.when(x >= pi, lxt - lpi).otherwise(l1pi - l1xt)).otherwise(
        F.when(x > pi, lpi - lxt).otherwise(l1xt - l1pi))
    return {
        "pos_miss": on_pos(miss), "neg_p": on_neg(x),
        "pos_miss2": on_pos(miss * miss), "neg_p2": on_neg(x * x),
        "pos_log": on_pos(lx), "neg_log": on_neg(l1x),
        "pos_focal": on_pos(miss * miss * lx), "neg_focal": on_neg(x * x * l1x),
        "pos_hinge": on_pos(F.greatest(F.lit(0.0), miss)),
        "neg_hinge": on_neg(F.greatest(F.lit(0.0), 1.0 + x)),
        "info": F.sum(w * info),
    }


def evaluate_spark(
    df: Any,
    *,
    label: str,
    score: str,
    weight: str | None = None,
    by: str | Sequence[str] | None = None,
    where: str | None = None,
    pos_label: Any = None,
    threshold: float = 0.5,
    nan_policy: NanPolicy = "raise",
    decimals: int | None = None,
    bins: Any = None,
    undefined: UndefinedPolicy = "warn",
    pi0: Any = None,
    **by_options: Any,
) -> Evaluation | ByResult:
    """Evaluate the scores of a pyspark DataFrame: group-by on the cluster, only the
    count table comes back.

    The parameters and the result are those of
    :func:`binmetrics.engines.evaluate_file` (``where`` is a Spark SQL condition),
    and so are the checks: missing columns, non-numeric scores, NaN/NULL/inf
    scores, labels that are not two classes, negative or missing weights are errors
    naming the column and the count, raised before the counting pass. Spark sums
    doubles without compensation, so weighted results agree with
    :func:`binmetrics.evaluate` to rounding (about 1e-15 relative per row summed).

    Examples
    --------
    >>> from binmetrics.engines import evaluate_spark
    >>> evaluate_spark([1, 0], label="y", score="p")
    Traceback (most recent call last):
    ...
    TypeError: df must be a pyspark DataFrame, got list
    """
    job = SparkJob(df, label=label, score=score, weight=weight, by=by, where=where)
    return job.evaluate(pos_label=pos_label, threshold=threshold, nan_policy=nan_policy,
                        decimals=decimals, bins=bins, undefined=undefined, pi0=pi0,
                        **by_options)
