"""The batches of :func:`~binmetrics.monitor` from a pyspark DataFrame.

As for files read by DuckDB (:mod:`binmetrics.engines.monitor_files`), Spark groups the
rows by (batch index, in the reference period, score) where the data lives: one exact
count table per step comes back to the driver, nothing else. The job is the Spark
engine's own (:class:`~binmetrics.engines.spark.SparkJob`: the same checks of labels,
scores and weights, the same checked ``where``, weights summed without Spark's
floating-point losses) with two computed group keys; the windows are then slid on the
driver by the same code as for a DataFrame in memory, so they equal
:func:`~binmetrics.monitor` of the same rows.

Times are read as microseconds since 1970-01-01 (Spark's precision): a ``timestamp``
column holds instants and is taken in UTC (as DuckDB's ``TIMESTAMPTZ``); a
``timestamp_ntz``, a ``date`` or ISO text (cast to ``timestamp_ntz``; text that is not
a time is an error) is naive. A row's batch is ``(t - origin) div step`` in integer
arithmetic; the reference period's bounds are rounded up to whole microseconds.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from binmetrics.engines import _windows as win
from binmetrics.engines._common import check_names
from binmetrics.engines.monitor_files import prepared, time_span
from binmetrics.engines.spark import SparkJob, pyspark_sql
from binmetrics.evaluation.options import EvalOptions

__all__ = ["is_spark_frame", "spark_batches"]

_EPOCH_NTZ = "TIMESTAMP_NTZ '1970-01-01 00:00:00'"


def is_spark_frame(data: Any) -> bool:
    """True for a pyspark DataFrame (classic or Spark Connect), without importing
    pyspark."""
    return type(data).__module__.startswith("pyspark.") and hasattr(data, "groupBy")


class SparkTimeJob(SparkJob):
    """A :class:`SparkJob` whose groups are (batch index, in the reference) of a time
    column: :meth:`set_batches` turns them on once the first time is known."""

    def __init__(self, df: Any, *, time: str, label: str, score: str,
                 weight: str | None = None, where: str | None = None) -> None:
        _, T = pyspark_sql()
        if not isinstance(time, str):
            raise TypeError(f"time must be a column name, got {time!r}")
        if not (hasattr(df, "schema") and hasattr(df, "groupBy")):
            raise TypeError(f"df must be a pyspark DataFrame, got {type(df).__name__}")
        fields = {f.name: f.dataType for f in df.schema.fields}
        check_names(list(fields), [("time", time)], self.source)
        if time in (label, score, weight):
            raise ValueError(f"column {time!r} cannot be the time column and the "
                             "label/score/weight column too")
        kind = fields[time]
        #: UTC for instants (Spark's timestamp), else naive
        self.tz: str | None = None
        if isinstance(kind, T.TimestampNTZType):
            micros = f"timestampdiff(MICROSECOND, {_EPOCH_NTZ}, k0)"
        elif isinstance(kind, T.TimestampType):
            micros, self.tz = "unix_micros(k0)", "UTC"
        elif isinstance(kind, T.DateType):
            micros = "CAST(unix_date(k0) AS BIGINT) * 86400000000"
        elif isinstance(kind, T.StringType):
            micros = f"timestampdiff(MICROSECOND, {_EPOCH_NTZ}, try_cast(k0 AS TIMESTAMP_NTZ))"
        else:
            raise TypeError(f"time column {time!r} of {self.source} must hold dates or times "
                            "(a timestamp, date or ISO text column); its type is "
                            f"{kind.simpleString()}")
        self.time = time
        self._micros = micros
        self._batch_keys: tuple[int, int, int, int] | None = None
        super().__init__(df, label=label, score=score, weight=weight, where=where,
                         by=[time])
        self._key_types = [T.LongType()]

    def _select(self) -> Any:
        """The rows as (x, y[, w]) with their time in microseconds as ``k0``, or once
        :meth:`set_batches` ran, their batch index ``k0`` and ``k1``, in the reference."""
        F, _ = pyspark_sql()
        by, self.by = self.by, [self.time]
        try:
            src = super()._select()
        finally:
            self.by = by
        src = src.withColumn("k0", F.expr(self._micros))
        if self._batch_keys is None:
            return src
        origin, step, low, high = self._batch_keys
        t = F.col("k0")
        return src.select(
            "x", "y", *(["w"] if self.weight is not None else []),
            F.expr(f"(k0 - {origin}) div {step}").cast("long").alias("k0"),
            ((t >= F.lit(low)) & (t < F.lit(high))).alias("k1"))

    def time_range(self) -> tuple[int, int | None, int | None]:
        """(rows whose time is missing or not a date, the first and the last time in
        microseconds of the rows with a finite score)."""
        F, _ = pyspark_sql()
        x, t = F.col("x"), F.col("k0")
        finite = x.isNotNull() & ~F.isnan(x) & (F.abs(x) != float("inf"))
        try:
            row = self._src.agg(F.sum(F.when(t.isNull(), 1).otherwise(0)).cast("long"),
                                F.min(F.when(finite, t)), F.max(F.when(finite, t))
                                ).collect()[0]
        except self._errors as exc:
            raise self._wrap(exc) from None
        return int(row[0] or 0), row[1], row[2]

    def set_batches(self, origin: int, step: int, low: int, high: int) -> None:
        """Group the rows by batch ``(t - origin) div step`` and by ``low <= t < high``
        (all in microseconds)."""
        _, T = pyspark_sql()
        self._batch_keys = (int(origin), int(step), int(low), int(high))
        self.by = ["batch", "reference"]
        self._key_types = [T.LongType(), T.BooleanType()]
        self._src = self._select()
        self._stats_cache = None


def _to_micros(t: pd.Timestamp | pd.Timedelta, name: str, up: bool = False) -> int:
    ns = int(t.value)
    if ns % 1000 and not up:
        raise ValueError(f"{name} must be a whole number of microseconds with Spark "
                         "(its times' precision)")
    return -(-ns // 1000)


def spark_batches(df: Any, *, label: str, score: str, time: str, reference: Any,
                  win_len: pd.Timedelta, step_len: pd.Timedelta, opts: EvalOptions,
                  weight: str | None = None, where: str | None = None) -> win.Prepared:
    """The batches' tables and the reference's of a Spark DataFrame (see the module)."""
    width = win.whole_steps(win_len, step_len)
    step_us = _to_micros(step_len, "step")
    job = SparkTimeJob(df, time=time, label=label, score=score, weight=weight, where=where)
    first, last = time_span(job, time, opts.nan_policy, 1000)  # Spark's microseconds
    low, high = win.reference_bounds(reference, job.tz)
    origin = win.floor_origin(first, step_len)
    job.set_batches(_to_micros(origin, "the first batch's start"), step_us,
                    _to_micros(low, "reference", up=True), _to_micros(high, "reference", up=True))
    st = job.stats(opts.nan_policy)
    pos = job.resolve_pos_label(st, opts.pos_label)
    groups = job.groups(st, pos)
    tables = job.tables(opts.replace(decimals=None, bins=None), st, pos, groups)
    return prepared(groups, tables, first=first, last=last, origin=origin, step=step_len,
                    width=width, bounds=(low, high), reference=reference, pos=pos)
