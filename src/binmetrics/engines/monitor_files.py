"""The batches of :func:`~binmetrics.monitor` from CSV or Parquet files, through DuckDB.

DuckDB reads the files and groups their rows by (batch, in the reference period,
score): one exact count table per step and the reference's, nothing else comes back.
The job is :class:`~binmetrics.engines.files.FileJob` with two computed group keys (a
row's batch index and whether it lies in the reference period), so the files are read
under the same rules as :func:`~binmetrics.engines.evaluate_file`: a connection that
reads only the input files with its configuration locked, the ``read_options``
allow-list, the checked and time-bounded ``where`` filter, the same checks of labels
and scores and the same reading of CSV labels. The windows are then slid in memory by
the same code as for a DataFrame, so they equal :func:`~binmetrics.monitor` of the
same rows exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from binmetrics.engines import _windows as win
from binmetrics.engines._common import Group, check_names
from binmetrics.engines.files import FileJob
from binmetrics.evaluation.options import EvalOptions
from binmetrics.table.counts import CountTable

__all__ = ["file_batches", "gather"]

_TIMESTAMP_TZ = ("TIMESTAMP WITH TIME ZONE", "TIMESTAMPTZ")


class TimeJob(FileJob):
    """A :class:`FileJob` whose groups are (batch index, in the reference) of a time
    column: :meth:`set_batches` turns them on once the first time is known."""

    def __init__(self, path: Any, *, time: str, **options: Any) -> None:
        if not isinstance(time, str):
            raise TypeError(f"time must be a column name, got {time!r}")
        self.time = time
        self._keys_sql: tuple[str, str] | None = None
        super().__init__(path, **options)
        try:
            self._check_time()
        except BaseException:
            self.close()
            raise

    def _check_time(self) -> None:
        check_names(list(self._types), [("time", self.time)], self.source)
        if self.time in (self.label, self.score, self.weight):
            raise ValueError(f"column {self.time!r} cannot be the time column and the "
                             "label/score/weight column too")
        kind = self._types[self.time]
        #: UTC for a column with a time zone (DuckDB holds the instant), else naive
        self.tz: str | None = "UTC" if kind.startswith(_TIMESTAMP_TZ) else None
        if kind.startswith(("TIMESTAMP", "DATE")):
            self._ns = "epoch_ns(k0)"
        elif kind == "VARCHAR":
            self._ns = "epoch_ns(TRY_CAST(k0 AS TIMESTAMP))"
        else:
            raise TypeError(f"time column {self.time!r} of {self.source} must hold dates or "
                            f"times (a timestamp, date or ISO text column); its type is {kind}")

    def time_range(self) -> tuple[int, int | None, int | None]:
        """(rows whose time is missing or not a date, the first and the last time in
        nanoseconds of the rows with a finite score)."""
        bad, first, last = self._fetchall(
            f"SELECT count_if(t IS NULL), min(CASE WHEN isfinite(x) THEN t END), "
            f"max(CASE WHEN isfinite(x) THEN t END) FROM (SELECT x, {self._ns} AS t "
            f"FROM ({self._timed_src()}))")[0]
        return int(bad), first, last

    def _timed_src(self, finite_only: bool = False, sample: str = "") -> str:
        """The rows' x, y (, w) and their time as ``k0``, as the file job selects them."""
        by, self.by = self.by, [self.time]
        try:
            return super()._src(finite_only, sample)
        finally:
            self.by = by

    def set_batches(self, origin: int, step: int, low: int, high: int) -> None:
        """Group the rows by batch ``(t - origin) // step`` and by ``low <= t < high``
        (all in nanoseconds)."""
        t = self._ns
        self._keys_sql = (f"CAST(({t} - {int(origin)}) // {int(step)} AS BIGINT)",
                          f"({t} >= {int(low)} AND {t} < {int(high)})")
        self.by = ["batch", "reference"]
        self._stats_cache = None

    def _src(self, finite_only: bool = False, sample: str = "") -> str:
        if self._keys_sql is None:
            return super()._src(finite_only, sample)
        batch, in_ref = self._keys_sql
        inner = self._timed_src(finite_only, sample)
        w = ", w" if self.weight is not None else ""
        return f"SELECT x, y{w}, {batch} AS k0, {in_ref} AS k1 FROM ({inner})"


def file_batches(path: Any, *, label: str, score: str, time: str, reference: Any,
                 win_len: pd.Timedelta, step_len: pd.Timedelta, opts: EvalOptions,
                 weight: str | None = None,
                 where: str | None = None, format: str | None = None,
                 read_options: Mapping[str, Any] | None = None) -> win.Prepared:
    """The batches' tables and the reference's of the rows of files (see the module)."""
    width = win.whole_steps(win_len, step_len)
    job = TimeJob(path, time=time, label=label, score=score, weight=weight, where=where,
                  format=format,
                  read_options=read_options)
    try:
        first, last = time_span(job, time, opts.nan_policy, 1)
        low, high = win.reference_bounds(reference, job.tz)
        origin = win.floor_origin(first, step_len)
        job.set_batches(origin.value, step_len.value, low.value, high.value)
        st = job.stats(opts.nan_policy)
        pos = job.resolve_pos_label(st, opts.pos_label)
        groups = job.groups(st, pos)
        tables = job.tables(opts.replace(decimals=None, bins=None), st, pos, groups)
    finally:
        job.close()
    return prepared(groups, tables, first=first, last=last, origin=origin, step=step_len,
                    width=width, bounds=(low, high), reference=reference, pos=pos)



def time_span(job: Any, time: str, nan_policy: str,
              ns_per_unit: int) -> tuple[pd.Timestamp, pd.Timestamp]:
    """The first and last time of an engine job's rows (``job.time_range()``, in units of
    ``ns_per_unit`` nanoseconds, in ``job.tz``), or the one-line error for a time column
    with missing or non-time values, or for no row to monitor; shared by the DuckDB and
    Spark windows."""
    bad, first, last = job.time_range()
    if bad:
        raise ValueError(f"time column {time!r} has {bad} missing values or values that "
                         f"are not dates or times in {job.source}; drop or fill them")
    if first is None or last is None:  # no finite score: the checks below say so
        st = job.stats(nan_policy)
        raise ValueError(f"{job.source} has no rows to monitor ({st.total('n'):.0f} read)")
    return (pd.Timestamp(int(first) * ns_per_unit, tz=job.tz),
            pd.Timestamp(int(last) * ns_per_unit, tz=job.tz))

def prepared(groups: list[Group], tables: list[CountTable | None], *, first: pd.Timestamp,
             last: pd.Timestamp, origin: pd.Timestamp, step: pd.Timedelta, width: int,
             bounds: tuple[pd.Timestamp, pd.Timestamp], reference: Any,
             pos: Any) -> win.Prepared:
    """The windows' input from an engine's per-batch tables (DuckDB's or Spark's)."""
    n_batches = (last - origin) // step + 1
    batches, ref = gather(groups, tables, n_batches)
    if ref.n == 0:
        raise win.no_reference_rows(reference, first, last)
    return win.Prepared(batches, ref, win.scores_of(ref), origin, width,
                        max(n_batches - width + 1, 1), *bounds,
                        pos.item() if isinstance(pos, np.generic) else pos)


def gather(groups: list[Group], tables: list[CountTable | None], n_batches: int
           ) -> tuple[list[win.Batch], win.Batch]:
    """The batches' tables and the reference's from the tables of the groups (batch
    index, in the reference period) that an engine counted."""
    batches = [win.EMPTY] * n_batches
    ref = win.EMPTY
    for g, t in zip(groups, tables, strict=True):
        code, in_ref = g.key
        b = win.from_table(t)  # of -score when lower is positive, as in memory
        batches[int(code)] = win.add(batches[int(code)], b)
        if in_ref:
            ref = win.add(ref, b)
    return batches, ref
