"""``evaluate_file``: CSV and Parquet files (globs, larger than memory) through DuckDB.

DuckDB (embedded, ``pip install 'binmetrics[duckdb]'``) reads the files and does
the group-by; only the count table comes back, in Arrow batches
(docs/architecture.md, "Where users outgrow one machine"). Two passes over the files:

1. statistics per (group, label): validates the input (row counts, non-finite
   scores, labels, weights) before any expensive work;
2. the counts per (group, score): a hash group-by, sorted by descending score,
   when scores repeat (few distinct scores, or ``decimals=`` / ``bins=``). When they
   are mostly distinct (DuckDB's estimate of the distinct count, on a sample of
   about a million rows, is at least half of them) hashing every row into its own
   group is the most expensive way to get a table of one row per case, so the
   cases are streamed instead: unweighted, as they are read, to the
   :class:`~binmetrics.engines._common.Collector`, which sorts the scores in NumPy
   (1e8 rows: 7-9 s and 1.4 GB, benchmarks/README.md); weighted, sorted by DuckDB
   (which spills to disk past ``memory_limit``).

DuckDB runs under a memory limit (default 1 GB) and spills to a temporary
directory (default: a fresh one under the system's temp directory, removed
afterwards), so a Parquet file of 1e8 rows is evaluated in a few GB.
"""

from __future__ import annotations

import glob
import os
import shutil
import tempfile
import threading
import uuid
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from binmetrics.engines._common import (
    STAT_COLUMNS,
    AggregateJob,
    Group,
    Stats,
    check_names,
    missing_engine,
    pandas_labels,
)
from binmetrics.engines.read_options import check_read_options
from binmetrics.engines.registry import FileEngine, register_engine
from binmetrics.engines.where import (
    WHERE_MAX_SECONDS,
    check_where_duckdb,
    check_where_type,
    where_failure,
    where_limit_error,
)
from binmetrics.evaluation.binary import Evaluation
from binmetrics.evaluation.by import ByResult
from binmetrics.evaluation.options import DEFAULTS, EvalOptions
from binmetrics.exceptions import UndefinedPolicy
from binmetrics.io import check_has_rows
from binmetrics.measures.sums import raw_sum_names, raw_sum_sql
from binmetrics.table.binning import BinSpec
from binmetrics.validation import NanPolicy, plural

__all__ = ["FileJob", "evaluate_file"]

PARQUET = (".parquet", ".pq", ".parq")
CSV = (".csv", ".tsv", ".txt", ".csv.gz", ".tsv.gz", ".txt.gz", ".csv.zst")
_NUMERIC = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT",
            "UINTEGER", "UBIGINT", "UHUGEINT", "FLOAT", "DOUBLE", "BOOLEAN"}
#: rows per Arrow batch fetched from DuckDB
BATCH_ROWS = 1 << 20
DEFAULT_MEMORY_LIMIT = "1GB"
#: rows sampled to estimate how many scores are distinct (sort or hash)
SAMPLE_ROWS = 1_000_000
def _duckdb() -> Any:
    try:
        import duckdb
    except ImportError:
        raise missing_engine("duckdb", "duckdb", "evaluate_file") from None
    return duckdb


def q(name: str) -> str:
    """A quoted SQL identifier (str's own replace: a subclass cannot change it)."""
    return '"' + str.replace(name, '"', '""') + '"'


def _literal(v: str) -> str:
    """A quoted SQL string."""
    return "'" + str.replace(v, "'", "''") + "'"


def _is_numeric(duck_type: str) -> bool:
    return duck_type in _NUMERIC or duck_type.startswith("DECIMAL")


def _paths(path: Any) -> list[str]:
    """The files or glob patterns, checked: an empty glob or a missing file is an error."""
    items = [path] if isinstance(path, (str, os.PathLike)) else list(path)
    if not items:
        raise ValueError("no file given")
    out = []
    for p in items:
        if not isinstance(p, (str, os.PathLike)):
            raise TypeError(f"a file path must be a str or os.PathLike, got {p!r}")
        s = os.fspath(p)
        if "://" not in s:  # local: check here, with a clear message
            if glob.has_magic(s):
                if not glob.glob(s, recursive=True):
                    raise FileNotFoundError(f"no file matches {s!r}")
            elif not os.path.exists(s):
                raise FileNotFoundError(f"{s}: no such file")
            elif os.path.isdir(s):
                raise ValueError(f"{s} is a directory; give a file or a glob such as "
                                 f"'{os.path.join(s, '*.parquet')}'")
        out.append(s)
    return out


def _times_power_of_two(exponent: int) -> str:
    """SQL multiplying by 2**exponent exactly: two factors, each a normal double."""
    if not exponent:
        return ""
    half = exponent // 2
    return f" * {float(2.0**half)!r} * {float(2.0**(exponent - half))!r}"


def _expand(paths: list[str]) -> list[str]:
    """The files DuckDB reads: each local glob expanded (sorted, as DuckDB orders a
    glob's matches), other paths as given."""
    out: list[str] = []
    for p in paths:
        if "://" not in p and glob.has_magic(p):
            out += sorted(glob.glob(p, recursive=True))
        else:
            out.append(p)
    return out


def format_of(paths: list[str], fmt: str | None) -> str:
    """The format of ``paths``: ``fmt`` when given (parquet or csv), else read from the
    extensions, which must agree; a ValueError otherwise."""
    if fmt is not None:
        if fmt not in ("parquet", "csv"):
            raise ValueError(f"format must be 'parquet', 'csv' or None; got {fmt!r}")
        return fmt
    kinds = set()
    for p in paths:
        low = p.lower()
        if low.endswith(PARQUET):
            kinds.add("parquet")
        elif low.endswith(CSV):
            kinds.add("csv")
        else:
            raise ValueError(f"cannot tell the format of {p!r} from its extension; pass "
                             f"format='parquet' or 'csv' (Parquet: {', '.join(PARQUET)}; "
                             f"CSV: {', '.join(CSV)})")
    if len(kinds) > 1:
        raise ValueError("the files mix Parquet and CSV; evaluate them separately or merge "
                         "their tables")
    return kinds.pop()


class FileJob(AggregateJob):
    """The DuckDB engine behind :func:`evaluate_file` (open: a connection and a temporary
    directory; use it as a context manager or call :meth:`close`).

    The command line uses it in two steps: :meth:`labels` (to convert ``--pos-label``
    to the label column's type), then :meth:`evaluate`.
    """

    def __init__(
        self,
        path: Any,
        *,
        label: str,
        score: str,
        weight: str | None = None,
        by: str | Sequence[str] | None = None,
        where: str | None = None,
        format: str | None = None,
        read_options: Mapping[str, Any] | None = None,
        memory_limit: str | None = DEFAULT_MEMORY_LIMIT,
        temp_directory: str | os.PathLike[str] | None = None,
        threads: int | None = None,
        connection: Any = None,
        case_cost_fp: str | None = None,
        case_cost_fn: str | None = None,
    ) -> None:
        super().__init__(label=label, score=score, weight=weight, by=by, where=where,
                         case_cost_fp=case_cost_fp, case_cost_fn=case_cost_fn)
        duckdb = _duckdb()
        self.paths = _paths(path)
        #: what DuckDB reads: local globs expanded here (so only these files need be
        #: readable once external access is off), remote URLs as given
        self._files = _expand(self.paths)
        self.format = format_of(self.paths, format)
        self.source = repr(self.paths[0]) if len(self.paths) == 1 else \
            f"{self.paths[0]!r} (and {len(self.paths) - 1} more)"
        self._opts = check_read_options(read_options, self.format)
        #: the option values as query parameters ($opt0x...: no name a prefix of another)
        self._opt_params = {f"opt{i}x": v for i, v in enumerate(self._opts.values())}
        self._tmp: str | None = None
        self._own = connection is None
        # temporary tables and views, named apart from the user's (connection=) and
        # from other jobs on that connection; dropped by close()
        tag = uuid.uuid4().hex[:12]
        self._names = {k: f"bm_{k}_{tag}" for k in ("stats", "groups", "priors", "edges")}
        self._made: list[tuple[str, str]] = []  # (kind, name) to drop: table or view
        #: CSV labels are read as text and typed as pandas types them (DuckDB would read
        #: yes/no or T/F as BOOLEAN, where evaluate() sees the strings)
        self._text_labels = self.format == "csv"
        remote = any("://" in f for f in self._files)
        if connection is None:
            config: dict[str, Any] = {"preserve_insertion_order": False}
            if not remote:  # nothing is fetched or installed from the network
                config.update(autoinstall_known_extensions=False,
                              autoload_known_extensions=False)
            if memory_limit is not None:
                config["memory_limit"] = str(memory_limit)
            if threads is not None:
                config["threads"] = int(threads)
            if temp_directory is None:
                self._tmp = tempfile.mkdtemp(prefix="binmetrics-duckdb-")
                temp_directory = self._tmp
            config["temp_directory"] = os.fspath(temp_directory)
            try:
                self.con = duckdb.connect(":memory:", config=config)
            except duckdb.Error as exc:
                self.close()
                raise ValueError(f"cannot start DuckDB with memory_limit={memory_limit!r}, "
                                 f"threads={threads!r}: {exc}") from None
        else:
            self.con = connection
        self._error = duckdb.Error
        try:
            if self._own:  # before any statement that reads the input or the filter
                self._lock(temp_directory, remote)
            self._check_columns()
        except BaseException:
            self.close()
            raise

    def _lock(self, temp_directory: Any, remote: bool) -> None:
        """Before anything runs: only the input's files (and the spill directory) may be
        read, nothing else on the disk or the network, no extension is installed or
        loaded, and no setting may change again. Remote inputs keep network access
        (the where filter is still checked)."""
        try:
            if not remote:
                files = [os.path.abspath(f) for f in self._files]
                dirs = [os.path.abspath(os.fspath(temp_directory))] if temp_directory else []
                self.con.execute("SET allowed_paths = $1", [files])
                if dirs:
                    self.con.execute("SET allowed_directories = $1", [dirs])
                self.con.execute("SET enable_external_access = false")
            self.con.execute("SET lock_configuration = true")
        except self._error as exc:
            raise self._wrap(exc) from None

    # --- SQL pieces ------------------------------------------------------------------------
    def _reader(self, extra: str = "") -> str:
        fn = "read_parquet" if self.format == "parquet" else "read_csv"
        opts = "".join(f", {q(k)} = ${p}"
                       for k, p in zip(self._opts, self._opt_params, strict=True))
        if getattr(self, "_text_labels", False):
            opts += f", types = {{{_literal(self.label)}: 'VARCHAR'}}"
        return f"{fn}($files{opts}{extra})"

    def _src(self, finite_only: bool = False, sample: str = "") -> str:
        cols = [f"CAST({q(self.score)} AS DOUBLE) AS x", f"{q(self.label)} AS y"]
        if self.weight is not None:
            cols.append(f"CAST({q(self.weight)} AS DOUBLE){_times_power_of_two(self.w_exponent)}"
                        " AS w")
        cols += [f"{q(b)} AS k{i}" for i, b in enumerate(self.by)]
        if self.costed:  # per-case costs (0 where a side has none)
            cols += [f"CAST({'0.0' if c is None else q(c)} AS DOUBLE) AS {n}"
                     for c, n in zip(self.case_costs, ("cfp", "cfn"), strict=True)]
        # the newline ends a trailing "--" comment inside the checked condition
        conds = [f"({self.where}\n)"] if self.where else []
        sql = f"SELECT {', '.join(cols)} FROM {self._reader()}{sample}"
        if conds:
            sql += " WHERE " + " AND ".join(conds)
        if finite_only:
            sql = f"SELECT * FROM ({sql}) WHERE isfinite(x)"
        return sql

    def _rescale_weights(self, exponent: int) -> bool:
        return True

    def _keys(self) -> list[str]:
        return [f"k{i}" for i in range(len(self.by))]

    def _params(self, sql: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """The query parameters ``sql`` uses: the files, the read options' values and
        ``params``."""
        p = {"files": self._files, **self._opt_params, **(params or {})}
        return {k: v for k, v in p.items() if f"${k}" in sql}

    def _sql(self, sql: str, params: dict[str, Any] | None = None) -> Any:
        try:
            return self.con.sql(sql, params=self._params(sql, params))
        except self._error as exc:
            raise self._wrap(exc) from None

    def _wrap(self, exc: BaseException) -> Exception:
        text = " ".join(str(exc).split())
        if self.where and type(exc).__name__ in ("BinderException", "ParserException"):
            return ValueError(f"where={self.where!r} is not a valid condition on "
                              f"{self.source}: {text}")
        if type(exc).__name__ == "OutOfMemoryException":
            return MemoryError(f"DuckDB ran out of memory on {self.source}: {text}; raise "
                               "memory_limit= or pass decimals= / bins=")
        failed = where_failure(self.where, self.source, exc)
        if failed is not None:
            return failed
        return ValueError(f"cannot read {self.source}: {text}")

    def _exec(self, sql: str, params: dict[str, Any] | None = None) -> None:
        """Run a statement (DDL) at once."""
        try:
            self.con.execute(sql, self._params(sql, params))
        except self._error as exc:
            raise self._wrap(exc) from None

    def _fetchall(self, sql: str, params: dict[str, Any] | None = None) -> list[Any]:
        rel = self._sql(sql, params)
        try:
            return list(rel.fetchall())
        except self._error as exc:
            raise self._wrap(exc) from None

    def _check_columns(self) -> None:
        local = [f for f in self._files if "://" not in f]
        if local and len(local) == len(self._files):  # the same words as every reader's
            delim = [v for k, v in self._opts.items() if k in ("delim", "sep", "delimiter",
                                                               "separator")]
            check_has_rows(local, str(delim[0]) if delim else ",")
        described = self._fetchall(f"DESCRIBE SELECT * FROM {self._reader()}")
        types = {row[0]: str(row[1]) for row in described}
        self._types = types
        available = list(types)
        wanted = [("label", self.label), ("score", self.score)]
        if self.weight is not None:
            wanted.append(("weight", self.weight))
        costs = [(r, c) for r, c in zip(("case_cost_fp", "case_cost_fn"), self.case_costs,
                                        strict=True) if c is not None]
        wanted += [("group", b) for b in self.by] + costs
        check_names(available, wanted, self.source)
        for role, col in (("score", self.score), ("weight", self.weight), *costs):
            if col is not None and not _is_numeric(types[col]):
                raise TypeError(f"{role} column {col!r} of {self.source} must be numeric; its "
                                f"type is {types[col]}")
        for role, col in (("label", self.label), *(("group", b) for b in self.by)):
            if types[col].endswith("]") or types[col].startswith(("STRUCT", "MAP", "UNION")):
                raise TypeError(f"{role} column {col!r} of {self.source} must hold scalar "
                                f"values; its type is {types[col]}")
        if self.where is not None:
            check_where_duckdb(self.con, self.where, available)
            self._fetchall(f"DESCRIBE {self._src()}")
            check_where_type(self.where, str(self._fetchall(
                f"DESCRIBE SELECT ({self.where}\n) AS c FROM {self._reader()}")[0][1]))
            self._time_filter()

    def _time_filter(self) -> None:
        """Run the filter on the input's first rows (one vector) within
        WHERE_MAX_SECONDS, interrupted past it: a filter too costly to run on 2048 rows
        is refused before it runs on all of them."""
        sql = (f"SELECT count(*) FROM (SELECT * FROM {self._reader()} LIMIT 2048) "
               f"WHERE ({self.where}\n)")
        timer = threading.Timer(WHERE_MAX_SECONDS, self.con.interrupt)
        timer.daemon = True
        timer.start()
        try:
            self._fetchall(sql)
        except ValueError as exc:
            if "INTERRUPT" in str(exc) and not timer.is_alive():
                raise where_limit_error(
                    self.where or "", f"it ran over {WHERE_MAX_SECONDS:g} s on the first "
                    f"2048 rows (the limit of a filter's time)") from None
            raise
        finally:
            timer.cancel()

    # --- the two queries --------------------------------------------------------------------
    def _stats(self) -> list[tuple[Any, ...]]:
        keys = self._keys()
        w = self.weight is not None
        # count_if and CASE rather than FILTER clauses: half the time on 1e8 rows
        fin = "CASE WHEN isfinite(x) THEN {} END"
        aggs = [
            "count(*) AS n",
            "count_if(x IS NULL) AS n_null",
            "count_if(isnan(x)) AS n_nan",
            "count_if(isinf(x)) AS n_inf",
            f"min({fin.format('x')}) AS s_min",
            f"max({fin.format('x')}) AS s_max",
            "fsum(w) AS w_all" if w else "NULL AS w_all",
            f"fsum({fin.format('w')}) AS w_fin" if w else "NULL AS w_fin",
            "count_if(w IS NULL OR NOT isfinite(w)) AS n_wbad" if w else "0 AS n_wbad",
            "count_if(w < 0) AS n_wneg" if w else "0 AS n_wneg",
            "min(w) AS w_min" if w else "NULL AS w_min",
            "max(w) AS w_max" if w else "NULL AS w_max",
        ]
        assert len(aggs) == len(STAT_COLUMNS)
        group = ", ".join([*keys, "y"])
        order = ", ".join(f"{c} NULLS LAST" for c in [*keys, "y"])
        stats = self._temp_table("stats", f"SELECT {group}, {', '.join(aggs)} "
                                          f"FROM ({self._src()}) GROUP BY {group}")
        return [tuple(r) for r in self._fetchall(f"SELECT * FROM {stats} ORDER BY {order}")]

    def _check_case_costs(self) -> None:
        bad = "({0} IS NULL OR NOT isfinite({0}) OR {0} < 0)"
        row = self._fetchall(
            f"SELECT count_if({bad.format('cfp')}), min(cfp), count_if({bad.format('cfn')}), "
            f"min(cfn) FROM ({self._src(finite_only=True)})")[0]
        for col, n, low in ((self.case_costs[0], *row[:2]), (self.case_costs[1], *row[2:])):
            if n:
                raise ValueError(f"cost column {col!r} has {plural(int(n), 'value')} that are "
                                 f"NULL, NaN, infinite or negative (smallest {low}) in "
                                 f"{self.source}; costs must be finite and >= 0")

    def _distinct_fraction(self, st: Stats, n_fin: int) -> float:
        """DuckDB's estimate of the distinct scores' share of the rows, on a sample of
        about SAMPLE_ROWS rows (whole vectors; on all rows when few): a third of
        the statistics' time when it was counted there on every row. A sample sees
        fewer repeats than the whole, so it errs towards sorting, which is cheap
        whenever the table is long."""
        sample = ""
        if n_fin > 2 * SAMPLE_ROWS:
            sample = f" TABLESAMPLE {100.0 * SAMPLE_ROWS / n_fin:.9f}% (system)"
        for tablesample in ([sample, ""] if sample else [""]):
            n, d = self._fetchall("SELECT count(*), approx_count_distinct(x) FROM "
                                  f"({self._src(finite_only=True, sample=tablesample)})")[0]
            if n >= min(n_fin, 1000):  # else too few rows sampled: count them all
                return float(d or 0) / max(int(n), 1)
        return 1.0

    def _temp_table(self, kind: str, select: str) -> str:
        """CREATE a temporary table of this job (dropped by close()); its name."""
        name = self._names[kind]
        self._exec(f"CREATE OR REPLACE TEMP TABLE {name} AS {select}")
        if ("table", name) not in self._made:
            self._made.append(("table", name))
        return name

    def _register(self, kind: str, table: Any) -> str:
        """Register an Arrow table as a view of this job (unregistered by close())."""
        name = self._names[kind]
        self.con.register(name, table)
        if ("view", name) not in self._made:
            self._made.append(("view", name))
        return name

    def _convert_labels(self, raw: list[Any]) -> dict[Any, Any] | None:
        return pandas_labels([str(v) for v in raw]) if self._text_labels else None

    def _groups_table(self, groups: list[Group]) -> None:
        """The groups (gid, k...): one row per group key, gid in the statistics' order;
        the priors (gid, pi, lpi, l1pi) of the information score."""
        keys = self._keys()
        if keys:
            order = ", ".join(f"{k} NULLS LAST" for k in keys)
            sql = (f"SELECT CAST(row_number() OVER (ORDER BY {order}) - 1 AS INTEGER) AS gid, "
                   f"{', '.join(keys)} FROM (SELECT DISTINCT {', '.join(keys)} "
                   f"FROM {self._names['stats']})")
        else:
            sql = "SELECT CAST(0 AS INTEGER) AS gid"
        self._temp_table("groups", sql)
        import pyarrow as pa

        pi = np.array([g.prior if np.isfinite(g.prior) else 0.5 for g in groups])
        self._register("priors", pa.table({
            "gid": pa.array(np.arange(len(groups), dtype=np.int32)),
            "pi": pa.array(pi), "lpi": pa.array(np.log(pi)), "l1pi": pa.array(np.log1p(-pi)),
        }))

    def _join(self) -> str:
        keys = self._keys()
        cond = " AND ".join(f"s.{k} IS NOT DISTINCT FROM g.{k}" for k in keys) or "true"
        return (f"JOIN {self._names['groups']} g ON {cond} "
                f"JOIN {self._names['priors']} r ON r.gid = g.gid")

    def _counts(self, pos_values: list[Any], spec: BinSpec | None, groups: list[Group],
                sort: bool, ordered: bool = True) -> Iterator[dict[str, np.ndarray]]:
        w = "w" if self.weight is not None else "1.0"
        params: dict[str, Any] = {}
        if len(pos_values) == 1:
            params["pos"] = pos_values[0]
            is_pos = "(s.y = $pos)"
        else:  # several spellings of the positive label in a CSV ("1", "1.0")
            is_pos = f"(s.y IN ({', '.join(_literal(str(v)) for v in pos_values)}))"
        names = list(raw_sum_names()) if spec is not None else []
        cost_names = ("cost_fp", "cost_fn") if self.costed else ()
        grouped = bool(self.by)
        cost = ", s.cfp AS cfp, s.cfn AS cfn" if self.costed else ""
        if grouped or spec is not None:  # the group id, and the prior of the info score
            self._groups_table(groups)
            base = (f"SELECT g.gid AS gid, s.x AS x, {is_pos} AS pos, {w} AS w{cost}, "
                    f"r.pi AS pi, r.lpi AS lpi, r.l1pi AS l1pi "
                    f"FROM ({self._src(finite_only=True)}) s {self._join()}")
        else:
            base = (f"SELECT s.x AS x, {is_pos} AS pos, {w} AS w{cost} "
                    f"FROM ({self._src(finite_only=True)}) s")
        gid = "gid, " if grouped else ""
        if spec is None and sort:  # one row per case: only what the table needs
            weight = ", w" if self.weight is not None else ""
            sql = f"SELECT {gid}x AS s, CAST(pos AS UTINYINT) AS p{weight} FROM ({base})"
            if ordered:  # else as read: the Collector sorts faster than DuckDB
                sql += f" ORDER BY {gid}s DESC"
        else:
            bin_expr, extra = self._bin_expr(spec, params)
            if self.weight is None:  # count_if, CASE: faster than FILTER clauses
                cnt = ["count_if(pos) AS c_pos", "count_if(NOT pos) AS c_neg"]
            else:
                cnt = ["coalesce(fsum(CASE WHEN pos THEN w END), 0) AS c_pos",
                       "coalesce(fsum(CASE WHEN NOT pos THEN w END), 0) AS c_neg"]
            if self.costed:  # the weighted sums of the costs per score, as in memory
                cnt += ["coalesce(fsum(CASE WHEN NOT pos THEN w * cfp END), 0) AS cost_fp",
                        "coalesce(fsum(CASE WHEN pos THEN w * cfn END), 0) AS cost_fn"]
            sums = [f"coalesce({e}, 0) AS {n}" for n, e in _raw_sum_sql().items()] \
                if spec is not None else []
            sql = (f"SELECT {gid}{bin_expr} AS s, {', '.join(cnt + sums)} FROM ({base}) b "
                   f"{extra} GROUP BY {gid}s ORDER BY {gid}s DESC")
        rel = self._sql(sql, params)
        reader = rel.to_arrow_reader(BATCH_ROWS) if hasattr(rel, "to_arrow_reader") \
            else rel.fetch_record_batch(BATCH_ROWS)
        try:
            for batch in reader:
                cols = {n: batch.column(n).to_numpy(zero_copy_only=False)
                        for n in batch.schema.names}
                if spec is None and sort:
                    p = cols["p"]
                    if not ordered:  # cases: the Collector needs only their class
                        chunk = {"is_pos": p.view(np.bool_)}
                    elif self.weight is None:
                        chunk = {"pos": p, "neg": 1 - p}
                    else:
                        chunk = {"pos": np.where(p == 1, cols["w"], 0.0),
                                 "neg": np.where(p == 1, 0.0, cols["w"])}
                else:
                    chunk = {"pos": cols["c_pos"], "neg": cols["c_neg"]}
                    chunk.update({n: cols[n] for n in names + list(cost_names)})
                chunk["s"] = cols["s"]
                chunk["gid"] = cols["gid"] if grouped else np.zeros(cols["s"].size, np.int32)
                yield chunk
        except self._error as exc:
            raise self._wrap(exc) from None
        finally:
            if hasattr(reader, "close"):
                reader.close()

    def _bin_expr(self, spec: BinSpec | None, params: dict[str, Any]) -> tuple[str, str]:
        """SQL of a score's bin representative (the same arithmetic as BinSpec.assign,
        from BinSpec's SQL shared with Spark) and the join it needs."""
        if spec is None:
            return "x", ""

        def lit(name: str, value: float) -> str:
            params[name] = float(value)
            return f"${name}"

        grid = spec.grid_sql(lit)
        extra = ""
        if grid is None:  # given edges: the lower edge below each score, by an ASOF join
            import pyarrow as pa

            e = spec.edges
            assert e is not None
            edges = self._register("edges", pa.table({"lo": pa.array(e[:-1])}))
            grid, extra = "e.lo", f"ASOF JOIN {edges} e ON b.x >= e.lo"
        return spec.threshold_sql(grid, lit), extra

    def _locate(self, what: str) -> str:
        """The first files (Parquet: and rows) holding a problem, for the message."""
        cond = {
            "score_bad": f"NOT isfinite(CAST({q(self.score)} AS DOUBLE)) "
                         f"OR {q(self.score)} IS NULL",
            "label_missing": f"{q(self.label)} IS NULL" + (
                f" OR isnan({q(self.label)})" if self._types[self.label] in ("FLOAT", "DOUBLE")
                else "") + self._missing_text(),
            "weight_bad": f"{q(self.weight or '')} IS NULL OR NOT isfinite(CAST("
                          f"{q(self.weight or '')} AS DOUBLE))",
            "weight_neg": f"CAST({q(self.weight or '')} AS DOUBLE) < 0",
        }[what]
        if self.where:
            cond = f"({cond}) AND ({self.where}\n)"
        extra = ", filename = true" + (", file_row_number = true" if self.format == "parquet"
                                        else "")
        cols = "filename" + (", file_row_number" if self.format == "parquet" else "")
        try:
            sql = f"SELECT {cols} FROM {self._reader(extra)} WHERE {cond} LIMIT 5"
            found = self.con.sql(sql, params=self._params(sql)).fetchall()
        except self._error:
            return ""
        if not found:
            return ""
        if self.format == "parquet":
            shown = ", ".join(f"{Path(f).name} data row {r + 1}" for f, r in found)
            return f" (first at {shown}; the first data row is 1)"
        return f" (first in {', '.join(sorted({Path(f).name for (f,) in found}))})"

    def _missing_text(self) -> str:
        """SQL matching the CSV label spellings that pandas reads as missing ("NA")."""
        missing = self._missing_raw
        if not missing:
            return ""
        return f" OR {q(self.label)} IN ({', '.join(_literal(str(v)) for v in missing)})"

    def close(self) -> None:
        """Drop this job's temporary tables and views; close the connection it opened."""
        con = getattr(self, "con", None)
        if con is not None and not getattr(self, "_own", True):
            for kind, name in reversed(getattr(self, "_made", [])):
                try:
                    if kind == "table":
                        con.execute(f"DROP TABLE IF EXISTS {name}")
                    else:
                        con.unregister(name)
                except Exception:  # best effort: the user's connection
                    pass
            self._made = []
        if getattr(self, "_own", False) and con is not None:
            con.close()
            self.con = None
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None


def _raw_sum_sql() -> dict[str, str]:
    """DuckDB aggregates of each raw sum over the rows of a bin: the terms of
    :func:`binmetrics.measures.sums.raw_sum_sql` (shared with Spark), weighted by
    ``w``, in Kahan sums (fsum)."""
    out = {}
    for name, (rows, term) in raw_sum_sql().items():
        out[name] = f"fsum(CASE WHEN {rows} THEN w * {term} END)" if rows else \
            f"fsum(w * {term})"
    return out


def evaluate_file(
    path: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    label: str,
    score: str,
    weight: str | None = None,
    by: str | Sequence[str] | None = None,
    where: str | None = None,
    pos_label: Any = None,
    threshold: float = DEFAULTS.threshold,
    nan_policy: NanPolicy = "raise",
    decimals: int | None = None,
    bins: Any = None,
    undefined: UndefinedPolicy = "warn",
    pi0: Any = None,
    format: str | None = None,
    read_options: Mapping[str, Any] | None = None,
    memory_limit: str | None = DEFAULT_MEMORY_LIMIT,
    temp_directory: str | os.PathLike[str] | None = None,
    threads: int | None = None,
    connection: Any = None,
    case_cost_fp: str | None = None,
    case_cost_fn: str | None = None,
    **by_options: Any,
) -> Evaluation | ByResult:
    """Evaluate the scores in CSV or Parquet files, out of core, with DuckDB.

    DuckDB groups the rows by score (and ``by``) where they lie; only the count
    table comes back. The result equals :func:`binmetrics.evaluate` (or
    :func:`binmetrics.evaluate_by`) on the same rows: counts exactly, weighted sums
    to rounding (Kahan sums).

    Parameters
    ----------
    path : str, path or list of them
        Files or glob patterns (``"preds/*.parquet"``, ``"**"`` recursive), all
        Parquet (.parquet, .pq) or all CSV (.csv, .tsv, .txt, optionally .gz);
        remote URLs as DuckDB reads them.
    label, score : str
        Columns of the labels and of the (numeric) scores. CSV labels are read as
        text and typed as :func:`pandas.read_csv` types them (so ``yes``/``no`` or
        ``T``/``F`` stay strings, ``0``/``1`` are integers, ``NA`` is missing), as the
        in-memory path reads the file; in ``where`` a CSV's label column is text.
    weight : str, optional
        Column of non-negative case weights.
    case_cost_fp, case_cost_fn : str, optional
        Columns of per-case costs (finite, >= 0) of a false positive, a false negative
        (as :func:`binmetrics.evaluate`'s arrays): their weighted sums per distinct score
        are computed in the same group-by as the counts, and ``expected_cost`` and
        ``best_threshold("expected_cost")`` read them.
    by : str or list of str, optional
        Evaluate each group of these columns separately: the result is a
        :class:`~binmetrics.ByResult` as from :func:`~binmetrics.evaluate_by`, with
        the groups in the order of their keys (missing keys last) instead of first
        appearance. ``by_options`` (``measures``, ``ci``, ``ci_method``, ``level``,
        ``n_resamples``, ``random_state``, ``min_cases``) are passed on.
    where : str, optional
        A condition on the files' columns selecting the rows (``"split = 'test'"``):
        one boolean expression of columns, constants, comparisons, AND/OR/NOT,
        arithmetic, CAST, CASE and the scalar functions of
        :data:`binmetrics.engines.where.WHERE_FUNCTIONS`; subqueries, table
        functions, other functions and ``;`` are refused (a ValueError). The
        connection opened here can read only the input files once they are open,
        and its configuration is locked.
    pos_label, threshold, nan_policy, undefined, pi0 :
        As in :func:`binmetrics.evaluate` (``pi0`` with ``by``: as in evaluate_by).
    decimals, bins :
        Bin the scores (see :func:`binmetrics.engines.binned_table`): the table has
        at most one row per bin (plus one where ``threshold`` cuts a bin: it is made
        an edge, so the confusion measures at it are exact), the probabilistic
        measures stay exact and :meth:`Evaluation.error_bounds` bounds the ranking
        measures.
    format : {"parquet", "csv"}, optional
        Default: from the extension.
    read_options : mapping, optional
        Options of DuckDB's ``read_parquet`` / ``read_csv`` (e.g. ``{"delim": ";"}``):
        those named in :data:`binmetrics.engines.read_options.READ_OPTIONS`, with
        str, int, finite float or bool values (another key is a ValueError).
    memory_limit : str, default "1GB"
        DuckDB's memory limit (it spills to ``temp_directory`` beyond it); None
        leaves DuckDB's default (80% of RAM).
    temp_directory : path, optional
        Where DuckDB spills; default a new temporary directory, removed afterwards.
    threads : int, optional
        DuckDB's threads (default: all cores).
    connection : duckdb connection, optional
        Use this connection (e.g. with credentials for remote files) instead of a
        new one; ``memory_limit``, ``temp_directory`` and ``threads`` are then
        its own. The temporary tables and views made on it have unique names
        (``bm_stats_<random>``...) and are dropped afterwards; it stays open.

    Returns
    -------
    Evaluation or ByResult

    Raises
    ------
    FileNotFoundError
        A file does not exist or a glob matches nothing.
    ValueError
        An unreadable or corrupt file (the message names it), a missing column (the
        message lists those available), NaN/NULL/inf scores (unless
        ``nan_policy="omit"``), missing labels, labels that are not two classes,
        negative or missing weights, an invalid ``where``.
    TypeError
        A non-numeric score or weight column.
    ImportError
        duckdb is not installed (``pip install 'binmetrics[duckdb]'``).

    Examples
    --------
    >>> import os, tempfile
    >>> import pandas as pd
    >>> import binmetrics as bm
    >>> from binmetrics.engines import evaluate_file
    >>> d = tempfile.mkdtemp()
    >>> df = pd.DataFrame({"y": [1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                    "p": [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]})
    >>> df[:6].to_parquet(os.path.join(d, "a.parquet"))
    >>> df[6:].to_parquet(os.path.join(d, "b.parquet"))
    >>> ev = evaluate_file(os.path.join(d, "*.parquet"), label="y", score="p",
    ...                    threshold=0.55)
    >>> ev["auc"], ev.confusion
    (0.8, Confusion(tp=3, fp=1, fn=2, tn=4))
    >>> ev = evaluate_file(os.path.join(d, "*.parquet"), label="y", score="p",
    ...                    where="p > 0.15", decimals=1)
    >>> ev.n_rows, round(ev["brier"], 6) == round(bm.evaluate(df.y[:9], df.p[:9])["brier"], 6)
    (9, True)
    """
    options = EvalOptions(threshold=threshold, pos_label=pos_label, nan_policy=nan_policy,
                          undefined=undefined, pi0=pi0, decimals=decimals, bins=bins)
    with FileJob(path, label=label, score=score, weight=weight, by=by, where=where,
                 format=format, read_options=read_options, memory_limit=memory_limit,
                 temp_directory=temp_directory, threads=threads, connection=connection,
                 case_cost_fp=case_cost_fp, case_cost_fn=case_cost_fn) as job:
        return job.evaluate(options, **by_options)


DUCKDB = register_engine(FileEngine(
    "duckdb", "DuckDB", "duckdb", "duckdb", "CSV/Parquet files and globs, out of core",
    open=FileJob, auto=True))
