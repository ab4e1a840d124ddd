"""``evaluate_spark``: a pyspark DataFrame, grouped on the cluster.

Spark (``pip install 'binmetrics[spark]'``) computes the statistics per (group,
label) and the counts per (group, score or bin) where the data lives; only those
aggregates are collected to the driver, as Arrow (docs/architecture.md, "Where users
outgrow one machine"). With continuous scores the count table has one row per
distinct score: for billions of rows pass ``decimals=`` or ``bins=``.

Spark sums doubles in plain floating point, in an order that depends on the
partitions, so a weight of 1e16 swallows the unit weights added after it. The
engine sums weights without that loss:

* the statistics' weight totals (which give the prevalence at which the
  information score is summed) exactly: each weight w in [2^e, 2^(e+1)) is the
  integer m = w 2^(52-e) < 2^53 times 2^(e-52); m is split into three 18-bit
  integers summed as longs per (group, label, e), and the driver adds them in
  integer arithmetic (exact while a group holds fewer than 2^45 rows);
* the counts and the probabilistic sums with Rump, Ogita and Oishi's error-free
  extraction ("Accurate floating-point summation part I", SIAM J. Sci. Comput.
  31 (2008), Algorithm 3.2, applied twice): with sigma = 2^k >= 2^M max|v|,
  2^M >= n + 2 (n: the group's rows; max|v| bounded from the statistics), each
  value splits exactly as v = q1 + q2 + r, q1 = fl((sigma + v) - sigma) and q2
  alike from v - q1 at sigma 2^(M-53); the sums of the q's are exact in any
  order, and only the r's, below max|v| 2^(2M-106), are rounded.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from binmetrics.engines._common import (
    STAT_COLUMNS,
    AggregateJob,
    Group,
    check_names,
    missing_engine,
)
from binmetrics.engines.registry import EngineOption, FileEngine, register_engine
from binmetrics.engines.where import check_where_spark
from binmetrics.evaluation.binary import Evaluation
from binmetrics.evaluation.by import ByResult
from binmetrics.evaluation.options import EvalOptions
from binmetrics.exceptions import EngineError, UndefinedPolicy, one_line
from binmetrics.io import check_has_rows
from binmetrics.measures.sums import raw_sum_names, raw_sum_sql, sql_double, term_bound
from binmetrics.table.binning import BinSpec
from binmetrics.validation import NanPolicy, plural

__all__ = ["SparkJob", "evaluate_spark"]

#: the 18-bit parts of a weight's 53-bit integer mantissa, summed as longs
_PART_BITS = 18


def _pyspark() -> tuple[Any, Any]:
    try:
        from pyspark.sql import functions as F
        from pyspark.sql import types as T
    except ImportError:
        raise missing_engine("pyspark", "spark", "evaluate_spark") from None
    return F, T


def pyspark_sql() -> tuple[Any, Any]:
    """``pyspark.sql.functions`` and ``pyspark.sql.types`` (a one-line error naming the
    extra when pyspark is missing)."""
    return _pyspark()


def spark_errors() -> tuple[type[BaseException], ...]:
    """The exception classes Spark raises for bad input (an unreadable file, an
    unknown column...), those of the installed pyspark and py4j."""
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
    """The Spark engine behind :func:`evaluate_spark`; ``source`` names the data in
    messages (default "the Spark DataFrame", the command line gives the file)."""

    source = "the Spark DataFrame"
    # no distinct-count estimate (it would cost a pass): the count table of unweighted
    # exact scores is always streamed to the Collector, whatever its size
    collect_unsorted = True

    def __init__(self, df: Any, *, label: str, score: str, weight: str | None = None,
                 by: str | Sequence[str] | None = None, where: str | None = None,
                 source: str | None = None, case_cost_fp: str | None = None,
                 case_cost_fn: str | None = None) -> None:
        super().__init__(label=label, score=score, weight=weight, by=by, where=where,
                         case_cost_fp=case_cost_fp, case_cost_fn=case_cost_fn)
        if source is not None:
            self.source = source
        _, T = _pyspark()
        if not (hasattr(df, "schema") and hasattr(df, "groupBy")):
            raise TypeError(f"df must be a pyspark DataFrame, got {type(df).__name__}")
        self._errors = spark_errors()
        fields = {f.name: f.dataType for f in df.schema.fields}
        wanted = [("label", label), ("score", score)]
        if weight is not None:
            wanted.append(("weight", weight))
        costs = [(r, c) for r, c in zip(("case_cost_fp", "case_cost_fn"), self.case_costs,
                                        strict=True) if c is not None]
        wanted += [("group", b) for b in self.by] + costs
        check_names(list(fields), wanted, self.source)
        for role, col in (("score", score), ("weight", weight), *costs):
            if col is not None and not isinstance(fields[col], (T.NumericType, T.BooleanType)):
                raise TypeError(f"{role} column {col!r} of {self.source} must be numeric; its "
                                f"type is {fields[col].simpleString()}")
        for role, col in (("label", label), *(("group", b) for b in self.by)):
            if isinstance(fields[col], (T.ArrayType, T.MapType, T.StructType)):
                raise TypeError(f"{role} column {col!r} of {self.source} must hold scalar "
                                f"values; its type is {fields[col].simpleString()}")
        self._key_types = [fields[b] for b in self.by]
        self._spark = df.sparkSession
        if where is not None:
            check_where_spark(self._spark, where, list(fields))
            try:
                df = df.where(where)
            except self._errors as exc:
                text = " ".join(str(exc).split())[:2000]
                raise ValueError(f"where={where!r} is not a valid condition on "
                                 f"{self.source}: {text}") from None
        self._filtered = df
        self._src = self._select()

    def _select(self) -> Any:
        """The rows as (x, y[, w], k...), the weights times 2**w_exponent (two factors,
        each a normal double: exact)."""
        F, _ = _pyspark()
        try:
            cols = [F.col(self.score).cast("double").alias("x"), F.col(self.label).alias("y")]
            if self.weight is not None:
                w = F.col(self.weight).cast("double")
                if self.w_exponent:
                    half = self.w_exponent // 2
                    w = w * F.lit(2.0**half) * F.lit(2.0**(self.w_exponent - half))
                cols.append(w.alias("w"))
            cols += [F.col(b).alias(f"k{i}") for i, b in enumerate(self.by)]
            if self.costed:  # per-case costs (0 where a side has none)
                cols += [(F.lit(0.0) if c is None else F.col(c).cast("double")).alias(n)
                         for c, n in zip(self.case_costs, ("cfp", "cfn"), strict=True)]
            return self._filtered.select(*cols)
        except self._errors as exc:
            raise self._wrap(exc) from None

    def _check_case_costs(self) -> None:
        F, _ = _pyspark()
        x = F.col("x")
        finite = x.isNotNull() & ~F.isnan(x) & (F.abs(x) != float("inf"))
        aggs = []
        for n in ("cfp", "cfn"):
            c = F.col(n)
            bad = c.isNull() | F.isnan(c) | (F.abs(c) == float("inf")) | (c < 0)
            aggs += [F.sum(F.when(bad, 1).otherwise(0)).cast("long"), F.min(c)]
        try:
            row = tuple(self._src.where(finite).agg(*aggs).collect()[0])
        except self._errors as exc:
            raise self._wrap(exc) from None
        for col, n, low in ((self.case_costs[0], *row[:2]), (self.case_costs[1], *row[2:])):
            if n:
                raise ValueError(f"cost column {col!r} has {plural(int(n), 'value')} that are "
                                 f"NULL, NaN, infinite or negative (smallest {low}) in "
                                 f"{self.source}; costs must be finite and >= 0")

    def _rescale_weights(self, exponent: int) -> bool:
        self.w_exponent = exponent
        self._src = self._select()
        return True

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

        aggs = [
            F.count(F.lit(1)).alias("n"),
            count_if(x.isNull()).alias("n_null"),
            count_if(F.isnan(x)).alias("n_nan"),
            count_if(F.abs(x) == float("inf")).alias("n_inf"),
            F.min(F.when(finite, x)).alias("s_min"),
            F.max(F.when(finite, x)).alias("s_max"),
        ]
        keys = [*self._keys(), "y"]
        src = self._src
        if self.weight is not None:
            w = F.col("w")
            aggs += [
                F.lit(None).cast("double").alias("w_all"),  # exact, from the parts below
                F.lit(None).cast("double").alias("w_fin"),
                count_if(w.isNull() | F.isnan(w) | (F.abs(w) == float("inf"))).alias("n_wbad"),
                count_if(w < 0).alias("n_wneg"),
                F.min(w).alias("w_min"),
                F.max(w).alias("w_max"),
            ]
            src, parts = _weight_parts(src, finite)
            aggs += parts
            keys.append("bm_e")
        else:
            aggs += [F.lit(None).alias("w_all"), F.lit(None).alias("w_fin"),
                     F.lit(0).alias("n_wbad"), F.lit(0).alias("n_wneg"),
                     F.lit(None).alias("w_min"), F.lit(None).alias("w_max")]
        try:
            rows = (src.groupBy(*keys).agg(*aggs)
                    .orderBy(*[F.col(k).asc_nulls_last() for k in keys]).collect())
        except self._errors as exc:
            raise self._wrap(exc) from None
        rows = [tuple(r) for r in rows]
        if self.weight is None:
            return rows
        return _combine_exponents(rows, len(self.by))

    def _with_groups(self, src: Any, groups: list[Group], spec: BinSpec | None) -> Any:
        """Add gid, the group's prior (pi, ln pi, ln(1 - pi)) and the extraction constants
        of its sums (sc1, sc2 for the counts, ss1, ss2 for the losses) to every row."""
        F, T = _pyspark()
        consts = []
        for g in groups:
            pi = g.prior if math.isfinite(g.prior) else 0.5
            count_bound = g.w_max if self.weight is not None else 0.0  # longs: exact
            loss_bound = g.w_max * term_bound(g.s_min, g.s_max) if spec is not None else 0.0
            consts.append((pi, math.log(pi), math.log1p(-pi),
                           *_sigmas(count_bound, g.n_fin), *_sigmas(loss_bound, g.n_fin)))
        names = ("pi", "lpi", "l1pi", "sc1", "sc2", "ss1", "ss2")
        n = len(self.by)
        schema = T.StructType(
            [T.StructField("gid", T.IntegerType())]
            + [T.StructField(f"g{i}", t) for i, t in enumerate(self._key_types)]
            + [T.StructField(c, T.DoubleType()) for c in names])
        raw_keys = self._raw_keys(n)
        rows = [(i, *k, *c) for i, (k, c) in enumerate(zip(raw_keys, consts, strict=True))]
        gdf = self._spark.createDataFrame(rows, schema=schema)
        if not n:
            return src.crossJoin(F.broadcast(gdf))
        cond = [src[f"k{i}"].eqNullSafe(gdf[f"g{i}"]) for i in range(n)]
        return src.join(F.broadcast(gdf), on=cond, how="inner")

    def _raw_keys(self, n: int) -> list[tuple[Any, ...]]:
        """The distinct group keys as Spark has them, in the statistics' order."""
        if not n:
            return [()]
        assert self._stats_cache is not None
        keys: list[tuple[Any, ...]] = []
        for r in self._stats_cache.rows:
            if not keys or not _same(keys[-1], tuple(r[:n])):
                keys.append(tuple(r[:n]))
        return keys

    def _counts(self, pos_values: list[Any], spec: BinSpec | None, groups: list[Group],
                sort: bool, ordered: bool = True) -> Iterator[dict[str, np.ndarray]]:
        F, _ = _pyspark()
        x = F.col("x")
        finite = x.isNotNull() & ~F.isnan(x) & (F.abs(x) != float("inf"))
        is_pos = F.col("y").isin(*pos_values) if len(pos_values) > 1 else \
            F.col("y") == F.lit(pos_values[0])
        src = self._src.where(finite).withColumn("pos", is_pos)
        if self.weight is None:
            src = src.withColumn("w", F.lit(1.0))
        src = self._with_groups(src, groups, spec)
        src = self._bin(spec, src)
        pos, w = F.col("pos"), F.col("w")
        aggs: list[Any] = []
        if self.weight is None:
            # int (4 bytes, not 8) when every count fits: less to send to the driver
            count = "int" if max(g.n_fin for g in groups) < 2**31 else "long"
            aggs = [F.sum(F.when(pos, 1).otherwise(0)).cast(count).alias("c_pos"),
                    F.sum(F.when(pos, 0).otherwise(1)).cast(count).alias("c_neg")]
        else:
            aggs += _exact_sum(F.when(pos, w), "c_pos", "sc")
            aggs += _exact_sum(F.when(~pos, w), "c_neg", "sc")
        if self.costed:  # the weighted sums of the costs per score (Spark's sums)
            aggs += [F.coalesce(F.sum(F.when(~pos, w * F.col("cfp"))), F.lit(0.0)
                                ).alias("cost_fp"),
                     F.coalesce(F.sum(F.when(pos, w * F.col("cfn"))), F.lit(0.0)
                                ).alias("cost_fn")]
        if spec is not None:
            for name, (rows, term) in raw_sum_sql().items():
                value = w * F.expr(term)
                aggs += _exact_sum(F.when(F.expr(rows), value) if rows else value, name, "ss")
        agg = src.groupBy("gid", "s").agg(*aggs)
        if not ordered:  # unweighted exact: the Collector sorts, batch by batch
            try:
                for batch in _arrow_batches(agg):
                    yield {"gid": batch.column("gid").to_numpy(zero_copy_only=False),
                           "s": batch.column("s").to_numpy(zero_copy_only=False),
                           "pos": batch.column("c_pos").to_numpy(zero_copy_only=False),
                           "neg": batch.column("c_neg").to_numpy(zero_copy_only=False)}
            except self._errors as exc:
                raise self._wrap(exc) from None
            except ValueError as exc:
                raise ValueError(f"{exc} (on {self.source})") from None
            return
        try:
            import pyarrow as pa

            table = pa.Table.from_batches(list(_collected_batches(agg)))
            cols = {c: table.column(c).to_numpy() for c in table.column_names}
        except self._errors as exc:
            raise self._wrap(exc) from None
        order = np.lexsort((-cols["s"], cols["gid"]))
        chunk = {"gid": cols["gid"][order], "s": cols["s"][order].astype(np.float64)}
        for name in ("c_pos", "c_neg", *(raw_sum_names() if spec is not None else ())):
            total = cols[name] if name in cols else _add_parts(
                cols[f"{name}_1"], cols[f"{name}_2"], cols[f"{name}_3"])
            chunk[{"c_pos": "pos", "c_neg": "neg"}.get(name, name)] = total[order]
        for name in ("cost_fp", "cost_fn") if self.costed else ():
            chunk[name] = cols[name][order].astype(np.float64)
        yield chunk

    def _bin(self, spec: BinSpec | None, src: Any) -> Any:
        """Add ``s``, each score's bin representative (BinSpec's SQL, shared with DuckDB;
        given edges by a Bucketizer), with the threshold as an extra edge."""
        F, _ = _pyspark()
        if spec is None:
            return src.withColumn("s", F.col("x"))

        def lit(name: str, value: float) -> str:
            return sql_double(value)

        grid = spec.grid_sql(lit)
        if grid is not None:
            src = src.withColumn("bm_grid", F.expr(grid))
        else:
            from pyspark.ml.feature import Bucketizer

            e = spec.edges
            assert e is not None
            src = Bucketizer(splits=[float(v) for v in e], inputCol="x",
                             outputCol="bm_bucket").transform(src)
            lows = F.array(*[F.lit(float(v)) for v in e[:-1]])
            src = src.withColumn("bm_grid",
                                 F.element_at(lows, F.col("bm_bucket").cast("int") + 1))
        return src.withColumn("s", F.expr(spec.threshold_sql("bm_grid", lit)))


def _arrow_batches(df: Any) -> Iterator[Any]:
    """The Arrow record batches of ``df``, in the order they reach the driver.

    ``DataFrame.toArrow()`` holds every batch before returning one table (and
    pyspark's collect serializer holds them all to put them in partition order):
    for a count table of 1e8 rows that is gigabytes in the driver's Python process.
    The batches are read here from the same socket as they arrive, so Python holds
    one at a time (the JVM driver still gathers each partition's batches before
    sending them). This uses pyspark's internals (those of ``toArrow``); where they
    are not there (Spark Connect, pyspark < 4) it falls back to ``toArrow()``.
    """
    try:
        from pyspark.errors.exceptions.captured import unwrap_spark_exception
        from pyspark.serializers import UTF8Deserializer, read_int
        from pyspark.sql.pandas.serializers import ArrowStreamSerializer
        from pyspark.traceback_utils import SCCallSiteSync
        from pyspark.util import _load_from_socket

        jdf, sc = df._jdf, df._sc
    except (ImportError, AttributeError):
        yield from _collected_batches(df)
        return
    failure: list[str] = []

    class Unordered(ArrowStreamSerializer):
        """The batches as sent, then the trailer: their order, or the JVM's error."""

        def load_stream(self, stream: Any) -> Iterator[Any]:
            yield from super().load_stream(stream)
            num = read_int(stream)
            if num == -1:
                failure.append(UTF8Deserializer().loads(stream))
                return
            for _ in range(num):
                read_int(stream)

    with SCCallSiteSync(sc):
        port, secret, server = jdf.collectAsArrowToPython()
    opened: Any = _load_from_socket((port, secret), Unordered())
    if hasattr(opened, "__enter__"):  # pyspark >= 4.1: a context manager
        with opened as stream:
            yield from stream
    else:  # pyspark 4.0: the generator itself
        yield from opened
    # all read (an error of the consumer's leaves above: closing the socket ends the
    # JVM's sending thread): the JVM's own exception, else its message
    with unwrap_spark_exception():
        server.getResult()
    if failure:
        raise ValueError(f"Spark failed while sending the counts: {failure[0]}")


def _collected_batches(df: Any) -> Iterator[Any]:
    """The Arrow record batches of ``df``, collected at once."""
    if hasattr(df, "toArrow"):
        yield from df.toArrow().to_batches()
    else:  # pragma: no cover - pyspark < 4
        import pyarrow as pa

        yield from pa.Table.from_pandas(df.toPandas(), preserve_index=False).to_batches()


def _sigmas(bound: float, n: int) -> tuple[float, float]:
    """The extraction constants sigma1 = 2^k >= 2^M bound and sigma2 = sigma1 2^(M-53),
    2^M >= n + 2 with a factor 2 to spare; (0, 0), a plain sum, when there is nothing
    to sum or the constants would leave the range of doubles."""
    if not (bound > 0.0 and math.isfinite(bound)):
        return 0.0, 0.0
    m = (n + 2).bit_length() + 1
    k1 = math.frexp(bound)[1] + m  # bound < 2^frexp
    if k1 > 1000:
        return 0.0, 0.0
    k2 = k1 + m - 53
    return math.ldexp(1.0, k1), (math.ldexp(1.0, k2) if k2 > -1000 else 0.0)


def _exact_sum(value: Any, name: str, sigma: str) -> list[Any]:
    """Three Spark sums whose total is that of ``value`` (NULL rows skipped): the two
    extracted parts, each summed exactly, and the remainder (see the module text)."""
    F, _ = _pyspark()
    s1, s2 = F.col(f"{sigma}1"), F.col(f"{sigma}2")
    q1 = (s1 + value) - s1
    r1 = value - q1
    q2 = (s2 + r1) - s2
    r2 = r1 - q2
    return [F.coalesce(F.sum(q1), F.lit(0.0)).alias(f"{name}_1"),
            F.coalesce(F.sum(q2), F.lit(0.0)).alias(f"{name}_2"),
            F.coalesce(F.sum(r2), F.lit(0.0)).alias(f"{name}_3")]


def _add_parts(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a + b + c with one rounding of the large part (TwoSum of a and b)."""
    a, b, c = (np.asarray(v, dtype=np.float64) for v in (a, b, c))
    s = a + b
    bb = s - a
    err = (a - (s - bb)) + (b - bb)
    return s + (err + c)


def _weight_parts(src: Any, finite: Any) -> tuple[Any, list[Any]]:
    """Add ``bm_e``, the binary exponent of each positive finite weight, and the long
    sums of its mantissa's 18-bit parts (all rows, finite scores)."""
    F, _ = _pyspark()
    w = F.col("w")
    ok = w.isNotNull() & ~F.isnan(w) & (w > 0) & (w != float("inf"))
    e0 = F.floor(F.log2(w)).cast("double")
    e1 = (F.when(F.pow(F.lit(2.0), e0) > w, e0 - 1.0)
          .when(F.pow(F.lit(2.0), e0 + 1.0) <= w, e0 + 1.0).otherwise(e0))
    e = F.when(ok, F.greatest(e1, F.lit(-1022.0)))
    src = src.withColumn("bm_e", e)
    shift = F.lit(52.0) - F.col("bm_e")  # w 2^shift: the integer mantissa, exact
    half = F.floor(shift / 2.0).cast("double")
    m = (w * F.pow(F.lit(2.0), half)) * F.pow(F.lit(2.0), shift - half)
    unit = float(1 << _PART_BITS)
    a = F.floor(m / (unit * unit))
    b = F.floor((m - a * unit * unit) / unit)
    c = m - a * unit * unit - b * unit
    aggs = []
    for tag, cond in (("all", F.lit(True)), ("fin", finite)):
        for i, part in enumerate((a, b, c)):
            aggs.append(F.sum(F.when(cond & F.col("bm_e").isNotNull(), part.cast("long")))
                        .alias(f"bm_{tag}{i}"))
    return src, aggs


def _combine_exponents(rows: list[tuple[Any, ...]], n_keys: int) -> list[tuple[Any, ...]]:
    """The statistics rows per (keys, label), from those per (keys, label, exponent),
    with the weight totals added exactly."""
    k = n_keys + 1  # keys and label
    col = {name: k + 1 + i for i, name in enumerate(STAT_COLUMNS)}
    out: list[list[Any]] = []
    totals: list[dict[str, Fraction]] = []
    for r in rows:  # ordered by keys, label, exponent: one run per (keys, label)
        head, e = r[:k], r[k]
        body = list(r[:k]) + list(r[k + 1:k + 1 + len(STAT_COLUMNS)])
        parts = r[k + 1 + len(STAT_COLUMNS):]
        if not out or not _same(tuple(out[-1][:k]), tuple(head)):
            out.append(body)
            totals.append({"all": Fraction(0), "fin": Fraction(0)})
        else:
            cur = out[-1]
            for name in ("n", "n_null", "n_nan", "n_inf", "n_wbad", "n_wneg"):
                cur[col[name] - 1] += body[col[name] - 1]
            for name, pick in (("s_min", min), ("s_max", max), ("w_min", min),
                               ("w_max", max)):
                vals = [v for v in (cur[col[name] - 1], body[col[name] - 1]) if v is not None]
                cur[col[name] - 1] = pick(vals) if vals else None
        if e is not None:
            scale = Fraction(2) ** (int(e) - 52)
            for i, tag in enumerate(("all", "fin")):
                a, b, c = (int(v or 0) for v in parts[3 * i:3 * i + 3])
                totals[-1][tag] += ((a << (2 * _PART_BITS)) + (b << _PART_BITS) + c) * scale
    for cur, tot in zip(out, totals, strict=True):
        cur[col["w_all"] - 1] = float(tot["all"])
        cur[col["w_fin"] - 1] = float(tot["fin"])
    return [tuple(r) for r in out]


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return all(u == v or (isinstance(u, float) and isinstance(v, float) and math.isnan(u)
                          and math.isnan(v)) for u, v in zip(a, b, strict=True))


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
    case_cost_fp: str | None = None,
    case_cost_fn: str | None = None,
    **by_options: Any,
) -> Evaluation | ByResult:
    """Evaluate the scores of a pyspark DataFrame: group-by on the cluster, only the
    count table comes back.

    The parameters and the result are those of
    :func:`binmetrics.engines.evaluate_file` (``where`` is a Spark SQL condition),
    and so are the checks: missing columns, non-numeric scores, NaN/NULL/inf
    scores, labels that are not two classes, negative or missing weights are errors
    naming the column and the count, raised before the counting pass. Weights are
    summed without the losses of Spark's plain floating-point sums (see
    :mod:`binmetrics.engines.spark`): weighted results agree with
    :func:`binmetrics.evaluate` to about 1e-15 relative, also with weights of very
    different magnitudes. Per-case cost columns (``case_cost_fp``, ``case_cost_fn``)
    are summed per score, weighted, with Spark's plain sums (to their rounding).

    Examples
    --------
    >>> from binmetrics.engines import evaluate_spark
    >>> evaluate_spark([1, 0], label="y", score="p")
    Traceback (most recent call last):
    ...
    TypeError: df must be a pyspark DataFrame, got list
    """
    options = EvalOptions(threshold=threshold, pos_label=pos_label, nan_policy=nan_policy,
                          undefined=undefined, pi0=pi0, decimals=decimals, bins=bins)
    job = SparkJob(df, label=label, score=score, weight=weight, by=by, where=where,
                   case_cost_fp=case_cost_fp, case_cost_fn=case_cost_fn)
    return job.evaluate(options, **by_options)


# --- files, for the command line --------------------------------------------------------------
class SparkFileJob(SparkJob):
    """A :class:`SparkJob` on a file Spark reads, stopping at :meth:`close` the Spark
    session it started (a session that was running already is left running)."""

    def __init__(self, df: Any, *, session: Any, **kwargs: Any) -> None:
        self._session = session
        try:
            super().__init__(df, **kwargs)
        except BaseException:  # a missing column...: stop the session started here
            self.close()
            raise

    def close(self) -> None:
        session, self._session = self._session, None
        if session is not None:
            session.stop()


def open_spark_file(path: str, *, label: str, score: str, weight: str | None = None,
                    by: str | Sequence[str] | None = None, where: str | None = None,
                    master: str | None = None) -> SparkFileJob:
    """A Spark job on a CSV or Parquet file (or glob): the running Spark session, or one
    started on ``master`` (default ``local[*]``) and stopped when the job closes."""
    df, started = read_spark_file(path, master=master)
    return SparkFileJob(df, session=started, label=label, score=score, weight=weight,
                        by=by, where=where, source=repr(path))


def read_spark_file(path: str, *, master: str | None = None) -> tuple[Any, Any]:
    """(the DataFrame of a CSV or Parquet file or glob, the Spark session started for it
    or None): the running session, or one started on ``master`` (default
    ``local[*]``) that the caller stops."""
    from binmetrics.engines.files import format_of

    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise SPARK.missing("--engine spark") from None
    running = SparkSession.getActiveSession()
    try:
        spark = running or (SparkSession.builder.master(master or "local[*]")
                            .appName("binmetrics")
                            .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    except Exception as exc:  # no Java, a bad master URL...
        raise EngineError(f"Spark could not start (is Java installed?): "
                          f"{one_line(exc)}") from None
    started = spark if running is None else None
    fmt = format_of([path], None)
    if "://" not in path:
        import glob

        try:
            check_has_rows(sorted(glob.glob(path)) if glob.has_magic(path) else [path])
        except ValueError:
            if started is not None:
                started.stop()
            raise
    try:
        reader = spark.read
        df = (reader.parquet(path) if fmt == "parquet"
              else reader.csv(path, header=True, inferSchema=True))
    except spark_errors() as exc:
        if started is not None:
            started.stop()
        raise EngineError(f"cannot read {path}: {one_line(exc)[:500]}") from None
    return df, started


SPARK = register_engine(FileEngine(
    "spark", "Spark", "pyspark", "spark", "the group-by runs on the cluster (--master)",
    open=open_spark_file,
    options=(EngineOption("--master", "master",
                          "Spark master for --engine spark (default: local[*])", "URL"),)))
