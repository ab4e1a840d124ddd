"""The ``binmetrics`` command line: ``evaluate`` a scored data file, list the ``measures``.

Every measure, its family, direction and source come from the registry; the
CLI keeps no list of its own. Errors print ``binmetrics: error: <message>`` on
stderr and exit with status 2, writing nothing to stdout or to ``--output``.
"""

from __future__ import annotations

import argparse
import csv
import difflib
import io
import json
import math
import os
import re
import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from binmetrics.data import EXAMPLES, example_path
from binmetrics.evaluation.binary import Evaluation, evaluate
from binmetrics.evaluation.by import ByResult, check_pi0, evaluate_by
from binmetrics.formatting import format_number
from binmetrics.io import check_output, write_text
from binmetrics.measures.registry import FAMILIES, Measure, get_measure, iter_measures, measures
from binmetrics.version import __version__

__all__ = ["main"]

PROG = "binmetrics"
FORMATS = ("table", "json", "csv")
#: Delimited-text extensions and the delimiter used when sniffing cannot tell.
TEXT_SUFFIXES = {".csv": ",", ".tsv": "\t", ".txt": ","}
PARQUET_SUFFIXES = (".parquet", ".pq")
ENGINES = ("auto", "numpy", "duckdb", "spark")
#: --engine auto reads files at least this large with DuckDB (when installed)
AUTO_DUCKDB_MB = 64
_SNIFF_BYTES = 1 << 16
_DIRECTION = {1: "higher", -1: "lower", 0: "none"}

MAIN_EPILOG = f"""\
examples:
  {PROG} evaluate --example screening
  {PROG} evaluate scores.csv --label y --score p --threshold 0.3
  {PROG} measures --family ranking
  {PROG} compare table.csv --reference best --cv 7 --plot srd.png
  {PROG} report preds.csv --label y --score p1,p2 -o report.html

Run '{PROG} COMMAND --help' for the options of a command.
"""

EVALUATE_EPILOG = f"""\
examples:
  {PROG} evaluate --example berrar
  {PROG} evaluate --example screening --weight w --measures auc,brier,mcc
  {PROG} evaluate scores.parquet --label outcome --score prob --pos-label yes \\
      --format json --output metrics.json
  {PROG} evaluate --example screening --measures tpr,auc,mcc --ci --resamples 2000 --seed 0
  {PROG} evaluate preds.parquet --label y --score p --by month --pi0 mean
  {PROG} evaluate "preds/*.parquet" --label y --score p --where "split = 'test'"
  {PROG} evaluate big.parquet --label y --score p --decimals 4 --engine spark \\
      --master "local[4]"

FILE is read by its extension: .csv, .tsv, .txt (delimiter sniffed) or
.parquet, .pq. --example {"|".join(EXAMPLES)} evaluates bundled data instead
(--label and --score then default to its columns). Scores at or above
--threshold are predicted positive.

--engine auto (default) reads FILE with DuckDB (out of core, 'pip install
binmetrics[duckdb]') when it is a glob ("preds/*.parquet"), larger than
{AUTO_DUCKDB_MB} MB, or when --where, --decimals or --bins is given, and with
pandas in memory otherwise; numpy forces the in-memory path, duckdb and spark
(Spark on --master, default local[*]) the engines. --where is a SQL condition
selecting rows. --decimals D bins the scores at floor(score * 10^D) / 10^D,
--bins B into B equal-width bins (or at the comma-separated edges): the
probabilistic measures stay exact and max_error gives the largest error binning
can cause in each measure (blank where no bound is known). With duckdb and
spark, --by groups come in the order of their keys (missing keys last).

--ci adds a confidence interval to every measure: the exact (Clopper-Pearson)
interval for proportions, DeLong's for the AUC, a bootstrap of --resamples
replicates for the others; --ci-method picks another where it applies.

--pi0 adds every measure calibrated to that reference prevalence (Siblini et
al.): a number in (0, 1), "mean" (the average prevalence of the groups) or "min"
(the smallest); without --by, "mean" and "min" are the data's own prevalence.

--by COL[,COL...] evaluates each group of rows separately (groups in order of
first appearance). Groups with fewer than 2 rows or one class are reported with
NaN values and the reason. json and csv give one record/row per group (csv:
the group columns, n, positives, prevalence, the measures, ID_cal with --pi0,
ID_low/ID_high with --ci, reason); the table format lists the groups and then
the values in long format, one line per group and measure (group, id, value,
low, high, value_cal).
"""

MEASURES_EPILOG = f"""\
examples:
  {PROG} measures
  {PROG} measures --family probabilistic --format csv
"""


class CLIError(Exception):
    """A user error reported as ``binmetrics: error: <message>`` with exit status 2."""


# --- argument parsing ----------------------------------------------------------------
def _formatter(prog: str) -> argparse.RawDescriptionHelpFormatter:
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=32)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``binmetrics`` command."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Evaluate binary classifiers: every performance measure from one "
                    "count table.",
        epilog=MAIN_EPILOG,
        formatter_class=_formatter,
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    ev = sub.add_parser(
        "evaluate",
        help="evaluate the scores in a CSV or Parquet file",
        description="Evaluate a binary classifier's scores: every measure of the registry "
                    "(or those of --measures).",
        epilog=EVALUATE_EPILOG,
        formatter_class=_formatter,
    )
    ev.add_argument("file", nargs="?", metavar="FILE", help="CSV/TSV/TXT or Parquet file")
    ev.add_argument("--example", choices=list(EXAMPLES),
                    help="evaluate a bundled example data set instead of FILE")
    ev.add_argument("--label", metavar="COL", help="column of true labels")
    ev.add_argument("--score", metavar="COL",
                    help="column of scores (higher = more likely positive)")
    ev.add_argument("--threshold", type=float, default=0.5, metavar="T",
                    help="score >= T is predicted positive (default: %(default)s)")
    ev.add_argument("--weight", metavar="COL", help="column of non-negative case weights")
    ev.add_argument("--pos-label", metavar="VALUE",
                    help="label of the positive class (needed unless labels are 0/1, "
                         "-1/1 or true/false)")
    ev.add_argument("--nan-policy", choices=("raise", "omit"), default="raise",
                    help="NaN/inf scores: an error, or drop those rows (default: %(default)s)")
    ev.add_argument("--measures", metavar="ID,ID,...",
                    help="comma-separated measure ids or aliases (default: all)")
    ev.add_argument("--by", metavar="COL[,COL...]",
                    help="evaluate each group of these column(s) separately")
    ev.add_argument("--pi0", metavar="VALUE|mean|min",
                    help="add the measures calibrated to this reference prevalence")
    ev.add_argument("--ci", action="store_true", help="add confidence intervals")
    ev.add_argument("--ci-method", default="auto", metavar="METHOD",
                    help="interval method where it applies: clopper-pearson, wald, wilson, "
                         "agresti-coull, jeffreys, delong, bootstrap (default: %(default)s)")
    ev.add_argument("--ci-level", type=float, default=0.95, metavar="L",
                    help="confidence level (default: %(default)s)")
    ev.add_argument("--resamples", type=int, default=2000, metavar="N",
                    help="bootstrap replicates (default: %(default)s)")
    ev.add_argument("--seed", type=int, default=None, metavar="S",
                    help="random seed of the bootstrap (default: none)")
    ev.add_argument("--engine", choices=ENGINES, default="auto",
                    help="how FILE is read and counted (default: %(default)s; see below)")
    ev.add_argument("--master", metavar="URL",
                    help="Spark master for --engine spark (default: local[*])")
    ev.add_argument("--where", metavar="SQL",
                    help="only the rows meeting this SQL condition (duckdb, spark)")
    ev.add_argument("--decimals", type=int, metavar="D",
                    help="bin the scores to D decimals (floor; duckdb, spark)")
    ev.add_argument("--bins", metavar="B|E1,E2,...",
                    help="bin the scores into B equal-width bins or at these edges")
    _add_format_and_output(ev)
    ev.set_defaults(handler=_run_evaluate, subparser=ev)

    ms = sub.add_parser(
        "measures",
        help="list the registered measures",
        description="List the measures of the registry with their family, direction, "
                    "parameters and source.",
        epilog=MEASURES_EPILOG,
        formatter_class=_formatter,
    )
    ms.add_argument("--family", choices=FAMILIES, help="only the measures of one family")
    _add_format_and_output(ms)
    ms.set_defaults(handler=_run_measures, subparser=ms)

    from binmetrics.cli.compare import add_compare_parser  # it builds on this module's helpers

    add_compare_parser(sub)

    from binmetrics.cli.report import add_report_parser  # it builds on this module's helpers

    add_report_parser(sub)
    return parser


def _add_format_and_output(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=FORMATS, default="table",
                   help="output format (default: %(default)s)")
    p.add_argument("-o", "--output", metavar="PATH", type=Path,
                   help="write to PATH (atomically) instead of stdout")


def _check_evaluate_args(args: argparse.Namespace) -> None:
    """Argument combinations argparse cannot express (exits 2 with the usage line)."""
    sp: argparse.ArgumentParser = args.subparser
    if args.file is None and args.example is None:
        sp.error("give a FILE or --example NAME")
    if args.file is not None and args.example is not None:
        sp.error("give either FILE or --example, not both")
    if args.example is not None:
        ex = EXAMPLES[args.example]
        args.label = args.label or ex.label
        args.score = args.score or ex.score
    missing = [opt for opt, v in (("--label", args.label), ("--score", args.score)) if not v]
    if missing:
        sp.error(f"the following arguments are required: {', '.join(missing)}")


# --- reading data --------------------------------------------------------------------
def _unique(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _sniff_delimiter(path: Path, default: str) -> str:
    """The delimiter of a text table, from its first 64 KiB."""
    with open(path, encoding="utf-8", newline="") as f:
        sample = f.read(_SNIFF_BYTES)
    if len(sample) == _SNIFF_BYTES and "\n" in sample:
        sample = sample[: sample.rindex("\n")]  # no partial last line
    if not sample.strip():
        return default
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
    except csv.Error:
        pass
    first = sample.lstrip().splitlines()[0]
    if len(first.split()) > 1 and default not in first:
        return r"\s+"  # whitespace-aligned columns
    return default


def _check_columns(path: Path, available: Sequence[str], wanted: Sequence[str]) -> None:
    missing = [c for c in wanted if c not in available]
    if not missing:
        return
    col = missing[0]
    close = difflib.get_close_matches(col, list(available), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    shown = ", ".join(available[:30]) + (f", ... ({len(available)} in all)"
                                          if len(available) > 30 else "")
    raise CLIError(
        f"column {col!r} not found in {path}{hint}; available columns: {shown or '(none)'}"
    )


def check_input_file(path: Path) -> str:
    """Fail unless ``path`` is an existing file; returns its suffix in lower case."""
    if not path.exists():
        raise CLIError(f"{path}: no such file")
    if path.is_dir():
        raise CLIError(f"{path} is a directory, not a data file")
    return path.suffix.lower()


def unknown_type(path: Path) -> CLIError:
    """The error for a file whose extension says nothing readable."""
    return CLIError(f"cannot read {path}: unknown file type "
                    f"{path.suffix or '(no extension)'!r}; use "
                    f"{', '.join([*TEXT_SUFFIXES, *PARQUET_SUFFIXES])}")


def read_columns(path: Path, columns: Sequence[str]) -> pd.DataFrame:
    """Read ``columns`` of a CSV/TSV/TXT or Parquet file (by extension)."""
    columns = _unique(columns)
    suffix = check_input_file(path)
    try:
        if suffix in PARQUET_SUFFIXES:
            import pyarrow.parquet as pq

            names = pq.read_schema(path).names
            available = [n for n in names if not n.startswith("__index_level_")]
            _check_columns(path, available, columns)
            return pd.read_parquet(path, columns=columns)
        if suffix in TEXT_SUFFIXES:
            sep = _sniff_delimiter(path, TEXT_SUFFIXES[suffix])
            available = [str(c) for c in pd.read_csv(path, sep=sep, nrows=0).columns]
            _check_columns(path, available, columns)
            return pd.read_csv(path, sep=sep, usecols=columns)
    except CLIError:
        raise
    except Exception as exc:  # any reader failure means the file is unreadable
        raise CLIError(f"cannot read {path}: {_one_line(exc)}") from None
    raise unknown_type(path)


def _one_line(exc: BaseException) -> str:
    text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    text = " ".join(text.split())
    return text or type(exc).__name__


def convert_pos_label(value: str, column: pd.Series) -> Any:
    """``--pos-label`` as a value of the label column's type ("1" -> 1 for integers)."""
    dtype = column.dtype
    name = column.name
    if pd.api.types.is_bool_dtype(dtype):
        v = value.strip().lower()
        if v in ("true", "1", "yes", "t", "y"):
            return True
        if v in ("false", "0", "no", "f", "n"):
            return False
        raise CLIError(f"--pos-label {value!r} is not a boolean, but column {name!r} "
                       "holds true/false labels")
    if pd.api.types.is_integer_dtype(dtype):
        try:
            return int(value)
        except ValueError:
            pass
        try:
            f = float(value)
        except ValueError:
            f = math.nan
        if f.is_integer():
            return int(f)
        raise CLIError(f"--pos-label {value!r} is not an integer, but column {name!r} "
                       f"holds integer labels")
    if pd.api.types.is_float_dtype(dtype):
        try:
            return float(value)
        except ValueError:
            raise CLIError(f"--pos-label {value!r} is not a number, but column {name!r} "
                           "holds numeric labels") from None
    # strings, objects, categories: the distinct value that prints as VALUE
    for v in pd.unique(column.dropna()):
        if str(v) == value:
            return v.item() if isinstance(v, np.generic) else v
    return value


# --- messages ------------------------------------------------------------------------
@dataclass(frozen=True)
class _Columns:
    label: str
    score: str
    weight: str | None


def _cli_message(text: str, cols: _Columns | None = None) -> str:
    """A library message in the CLI's terms: option names, column names."""
    text = text.replace("nan_policy='omit'", "--nan-policy omit")
    text = text.replace("bm.measures() lists", f"'{PROG} measures' lists")
    text = text.replace("pos_label= ", "--pos-label ").replace("pos_label=", "--pos-label ")
    text = text.replace("directions=", "--directions")
    if cols is not None:
        names = {"y_true": f"label column {cols.label!r}",
                 "y_score": f"score column {cols.score!r}"}
        if cols.weight is not None:
            names["sample_weight"] = f"weight column {cols.weight!r}"
        pattern = r"\b(" + "|".join(names) + r")\b"
        text = re.sub(pattern, lambda m: names[m.group(1)], text)  # one pass
    return text


def _show_warnings(caught: list[warnings.WarningMessage], cols: _Columns | None) -> None:
    seen: set[str] = set()
    for w in caught:
        msg = _cli_message(" ".join(str(w.message).split()), cols)
        if msg not in seen:
            seen.add(msg)
            print(f"warning: {msg}", file=sys.stderr)


# --- evaluate ------------------------------------------------------------------------
def _parse_measure_list(spec: str) -> list[Measure]:
    names = [s.strip() for s in spec.split(",") if s.strip()]
    if not names:
        raise CLIError("--measures is empty; give comma-separated ids, e.g. auc,mcc")
    found = [get_measure(n) for n in names]  # KeyError with a suggestion
    return list({m.id: m for m in found}.values())


def _count(x: float) -> float | int:
    return int(x) if float(x).is_integer() else float(x)


def _run_evaluate(args: argparse.Namespace, cols: _Columns) -> str:
    selected = _parse_measure_list(args.measures) if args.measures else None
    pi0 = _parse_pi0(args.pi0)
    by = _parse_by(args.by)
    engine = _engine_for(args)
    if engine != "numpy":
        return _run_engine(args, cols, engine, by, pi0, selected)
    path = Path(args.file) if args.file is not None else example_path(args.example)
    df = read_columns(path, [c for c in (cols.label, cols.score, cols.weight, *by) if c])
    labels = df[cols.label]
    pos_label = None if args.pos_label is None else convert_pos_label(args.pos_label, labels)
    if by:
        return _run_evaluate_by(args, cols, path, df, by, pi0, pos_label, selected)
    ev = evaluate(
        labels, df[cols.score], threshold=args.threshold,
        sample_weight=None if cols.weight is None else df[cols.weight],
        pos_label=pos_label, nan_policy=args.nan_policy,
    )
    return _report(args, cols, str(path), ev, selected, pi0)


def _report(args: argparse.Namespace, cols: _Columns, path: str, ev: Evaluation,
            selected: list[Measure] | None, pi0: float | str | None) -> str:
    """The output of one evaluation (every engine)."""
    chosen = list(iter_measures()) if selected is None else selected
    values = ev.to_dict(measures=chosen)

    c = ev.confusion
    info: dict[str, Any] = {
        "file": path,
        "label": cols.label,
        "score": cols.score,
        "weight": cols.weight,
        "pos_label": ev.pos_label,
        "n": ev.n_rows,
        "n_omitted": ev.n_omitted,
        "positives": ev.n_positive_rows,
        "threshold": ev.threshold,
        "confusion": {k: _count(v) for k, v in c.as_dict().items()},
    }
    if ev.table.weighted:
        info["weight_total"] = _count(ev.table.total)
        info["weight_positives"] = _count(ev.table.P)
    rows = [(m, values[m.id]) for m in chosen]
    if pi0 is not None:
        p0 = ev.table.prevalence if isinstance(pi0, str) else pi0  # one group: its own
        info["pi0"] = p0
        info["calibrated"] = ev.calibrated(p0).to_dict(measures=chosen)
    if args.ci:
        info["intervals"] = _intervals(ev, chosen, args)
    if ev.binning is not None:
        info["binning"] = {"describe": ev.binning.describe(),
                           "max_error": {m.id: ev.binning_error(m) for m in chosen}}
    render = {"table": _evaluate_table, "json": _evaluate_json, "csv": _evaluate_csv}
    return render[args.format](info, rows)


def _parse_pi0(spec: str | None) -> float | str | None:
    if spec is None:
        return None
    try:
        return check_pi0(spec)
    except (TypeError, ValueError):
        raise CLIError(f"--pi0 must be a number strictly between 0 and 1, mean or min; "
                       f"got {spec!r}") from None


def _parse_by(spec: str | None) -> list[str]:
    if spec is None:
        return []
    names = [s.strip() for s in spec.split(",") if s.strip()]
    if not names:
        raise CLIError("--by is empty; give comma-separated column names, e.g. month,site")
    if len(set(names)) != len(names):
        raise CLIError(f"--by names a column twice: {spec}")
    return names


def _parse_bins(spec: str | None) -> Any:
    """--bins: a count, or comma-separated edges."""
    if spec is None:
        return None
    parts = [p.strip() for p in spec.split(",") if p.strip()]
    try:
        if len(parts) == 1:
            return int(parts[0])
        return [float(p) for p in parts]
    except ValueError:
        raise CLIError(f"--bins must be a whole number of bins or comma-separated edges; "
                       f"got {spec!r}") from None


def _engine_for(args: argparse.Namespace) -> str:
    """The engine --engine names; for auto, DuckDB where it pays (see the epilog)."""
    import glob

    needs_sql = any(v is not None for v in (args.where, args.decimals, args.bins))
    if args.engine == "numpy":
        if needs_sql:
            raise CLIError("--where, --decimals and --bins need --engine duckdb or spark")
        return "numpy"
    if args.engine != "auto":
        return str(args.engine)
    if args.master is not None:
        return "spark"
    file = args.file
    is_glob = file is not None and glob.has_magic(file)
    large = (file is not None and not is_glob and os.path.isfile(file)
             and os.path.getsize(file) >= AUTO_DUCKDB_MB * 2**20)
    if not (is_glob or large or needs_sql):
        return "numpy"
    import importlib.util

    if importlib.util.find_spec("duckdb") is not None:
        return "duckdb"
    if is_glob or needs_sql:
        what = "a glob FILE" if is_glob else "--where, --decimals or --bins"
        raise CLIError(f"{what} needs DuckDB: pip install 'binmetrics[duckdb]' "
                       "(or --engine spark)")
    return "numpy"


def _run_engine(args: argparse.Namespace, cols: _Columns, engine: str, by: list[str],
                pi0: float | str | None, selected: list[Measure] | None) -> str:
    """Evaluate FILE with DuckDB or Spark: the group-by runs there, the table comes back."""
    file = args.file if args.file is not None else str(example_path(args.example))
    bins = _parse_bins(args.bins)
    spark = None
    try:
        if engine == "duckdb":
            from binmetrics.engines.files import FileJob

            job: Any = FileJob(file, label=cols.label, score=cols.score, weight=cols.weight,
                               by=by or None, where=args.where)
        else:
            job, spark = _spark_job(args, file, cols, by)
        with job:
            labels = job.labels()
            pos_label = (None if args.pos_label is None
                         else convert_pos_label(args.pos_label, labels))
            common: dict[str, Any] = {
                "pos_label": pos_label, "threshold": args.threshold,
                "nan_policy": args.nan_policy, "decimals": args.decimals, "bins": bins}
            if by:
                chosen = list(iter_measures()) if selected is None else selected
                plan = _ci_plan(chosen, args) if args.ci else "auto"
                res = job.evaluate(**common, pi0=pi0, measures=chosen, ci=args.ci,
                                   ci_method=plan, level=args.ci_level,
                                   n_resamples=args.resamples, random_state=args.seed)
                return _report_by(args, cols, file, res, by, chosen)
            ev = job.evaluate(**common)
        return _report(args, cols, file, ev, selected, pi0)
    except (ImportError, MemoryError) as exc:
        raise CLIError(_one_line(exc)) from None
    finally:
        if spark is not None:
            spark.stop()


def _spark_job(args: argparse.Namespace, file: str, cols: _Columns,
               by: list[str]) -> tuple[Any, Any]:
    """A SparkJob on FILE read by Spark, and the session to stop afterwards (None when
    one was running already)."""
    from binmetrics.engines.files import _format_of
    from binmetrics.engines.spark import SparkJob, _spark_errors

    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise CLIError("--engine spark needs pyspark: pip install 'binmetrics[spark]'") from None
    running = SparkSession.getActiveSession()
    try:
        spark = running or (SparkSession.builder.master(args.master or "local[*]")
                            .appName(PROG).config("spark.ui.showConsoleProgress", "false")
                            .getOrCreate())
    except Exception as exc:  # no Java, a bad master URL...
        raise CLIError(f"Spark could not start (is Java installed?): {_one_line(exc)}") from None
    fmt = _format_of([file], None)
    try:
        reader = spark.read
        df = (reader.parquet(file) if fmt == "parquet"
              else reader.csv(file, header=True, inferSchema=True))
    except _spark_errors() as exc:
        if running is None:
            spark.stop()
        raise CLIError(f"cannot read {file}: {_one_line(exc)[:500]}") from None
    try:  # a missing column... is an error: stop the session started here
        job = SparkJob(df, label=cols.label, score=cols.score, weight=cols.weight,
                       by=by or None, where=args.where, source=repr(file))
    except BaseException:
        if running is None:
            spark.stop()
        raise
    return job, (spark if running is None else None)


def _run_evaluate_by(args: argparse.Namespace, cols: _Columns, path: Path, df: pd.DataFrame,
                     by: list[str], pi0: float | str | None, pos_label: Any,
                     selected: list[Measure] | None) -> str:
    chosen = list(iter_measures()) if selected is None else selected
    plan = _ci_plan(chosen, args) if args.ci else "auto"
    res = evaluate_by(df, label=cols.label, score=cols.score, by=by, pi0=pi0,
                      measures=chosen, weight=cols.weight, threshold=args.threshold,
                      pos_label=pos_label, nan_policy=args.nan_policy, ci=args.ci,
                      ci_method=plan, level=args.ci_level, n_resamples=args.resamples,
                      random_state=args.seed)
    return _report_by(args, cols, str(path), res, by, chosen)


def _report_by(args: argparse.Namespace, cols: _Columns, path: str, res: ByResult,
               by: list[str], chosen: list[Measure]) -> str:
    info: dict[str, Any] = {
        "file": path, "label": cols.label, "score": cols.score, "weight": cols.weight,
        "by": by, "pos_label": res.pos_label, "threshold": args.threshold, "pi0": res.pi0,
        "ci": args.ci,
    }
    render = {"table": _by_table, "json": _by_json, "csv": _by_csv}
    return render[args.format](info, res, chosen)


def _key_cell(v: Any) -> str:
    return "NaN" if isinstance(v, float) and math.isnan(v) else str(v)


def _by_table(info: dict[str, Any], res: ByResult, chosen: list[Measure]) -> str:
    frame = res.to_frame()
    by = info["by"]
    head = [
        f"file:       {info['file']}",
        f"label:      {info['label']!r} (positive {info['pos_label']!r}), "
        f"score {info['score']!r}" + (f", weight {info['weight']!r}" if info["weight"] else ""),
        f"groups:     {len(frame)} by {', '.join(repr(b) for b in by)}",
        f"threshold:  {info['threshold']!r} (score >= threshold is predicted positive)",
    ]
    if info["pi0"] is not None:
        head.append(f"pi0:        {_fmt(info['pi0'])} (the *_cal values are calibrated to it)")
    summary = [[*(_key_cell(r[b]) for b in by), str(r["n"]), str(r["positives"]),
                _fmt(r["prevalence"]), r["reason"]] for r in frame.to_dict(orient="records")]
    k = len(by)
    groups = _align([*by, "n", "positives", "prevalence", "reason"], summary,
                    right=[k, k + 1, k + 2])
    header = [*by, "id", "value"]
    right = [k + 1]
    if info["ci"]:
        header += ["low", "high"]
        right += [k + 2, k + 3]
    if info["pi0"] is not None:
        header.append("value_cal")
        right.append(len(header) - 1)
    body = []
    for r in frame.to_dict(orient="records"):
        for m in chosen:
            line = [*(_key_cell(r[b]) for b in by), m.id, _fmt(r[m.id])]
            if info["ci"]:
                line += [_fmt(r[f"{m.id}_low"]), _fmt(r[f"{m.id}_high"])]
            if info["pi0"] is not None:
                line.append(_fmt(r[f"{m.id}_cal"]))
            body.append(line)
    return "\n".join(head) + "\n\n" + groups + "\n" + _align(header, body, right=right)


def _json_key(v: Any) -> Any:
    if isinstance(v, float):
        return _json_value(v)
    if isinstance(v, (str, int, bool)) or v is None:
        return v
    return str(v)


def _by_json(info: dict[str, Any], res: ByResult, chosen: list[Measure]) -> str:
    frame = res.to_frame()
    groups = []
    for r in frame.to_dict(orient="records"):
        g: dict[str, Any] = {
            "group": {b: _json_key(r[b]) for b in info["by"]},
            "n": int(r["n"]), "positives": int(r["positives"]),
            "prevalence": _json_value(float(r["prevalence"])), "reason": r["reason"],
            "measures": {m.id: _json_value(float(r[m.id])) for m in chosen},
        }
        if info["pi0"] is not None:
            g["calibrated"] = {m.id: _json_value(float(r[f"{m.id}_cal"])) for m in chosen}
        if info["ci"]:
            g["intervals"] = {m.id: {"low": _json_value(float(r[f"{m.id}_low"])),
                                     "high": _json_value(float(r[f"{m.id}_high"]))}
                              for m in chosen}
        groups.append(g)
    obj: dict[str, Any] = {
        "file": info["file"], "label": info["label"], "score": info["score"],
        "weight": info["weight"], "by": info["by"], "pos_label": info["pos_label"],
        "threshold": _json_value(info["threshold"]),
        "pi0": None if info["pi0"] is None else _json_value(info["pi0"]),
        "groups": groups,
    }
    return json.dumps(obj, indent=2, allow_nan=False) + "\n"


def _by_csv(info: dict[str, Any], res: ByResult, chosen: list[Measure]) -> str:
    frame = res.to_frame()
    if info["pi0"] is not None:
        frame.insert(len(frame.columns) - 1, "pi0", info["pi0"])
    return str(frame.to_csv(index=False, na_rep="NaN", lineterminator="\n"))


def _ci_plan(chosen: list[Measure], args: argparse.Namespace) -> dict[str, str]:
    """The interval method of each measure: --ci-method where it applies, else auto."""
    from binmetrics.inference.intervals import ci_methods, method_name

    method = method_name(args.ci_method)
    known = {x for m in iter_measures() for x in ci_methods(m)}
    if method != "auto" and method not in known:
        raise CLIError(f"unknown --ci-method {args.ci_method!r}; choose auto or one of "
                       f"{', '.join(sorted(known))}")
    if method != "auto" and not any(method in ci_methods(m) for m in chosen):
        raise CLIError(f"--ci-method {method} applies to none of the measures")
    return {m.id: method if method in ci_methods(m) else "auto" for m in chosen}


def _intervals(ev: Evaluation, chosen: list[Measure],
               args: argparse.Namespace) -> dict[str, tuple[float, float, str]]:
    plan = _ci_plan(chosen, args)
    table = ev.ci_table(chosen, method=plan, level=args.ci_level, n_resamples=args.resamples,
                        random_state=args.seed, progress=sys.stderr.isatty())
    return {r.id: (r.low, r.high, r.method) for r in table.itertuples()}


def _num(v: float | int) -> str:
    """A count or total in full (an int as is, a weighted sum to 10 digits)."""
    return str(v) if isinstance(v, int) else f"{v:.10g}"


def _fmt(v: float) -> str:
    return format_number(v)


def _csv_value(v: float) -> str:
    return "NaN" if math.isnan(v) else repr(float(v))


def _json_value(v: Any) -> Any:
    if isinstance(v, float):
        if math.isnan(v):
            return None
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
    return v


def _align(header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[int]) -> str:
    """A table laid out by rich: a bold header over a rule, numbers right-aligned. Cells
    are plain text (no markup), and lines never wrap, so the output stays greppable."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                  header_style="bold", expand=False)
    for i, name in enumerate(header):
        table.add_column(Text(name), justify="right" if i in right else "left",
                         no_wrap=True)
    for r in rows:
        table.add_row(*(Text(cell) for cell in r))
    buf = io.StringIO()
    Console(file=buf, width=100_000, color_system=None, force_terminal=False,
            legacy_windows=False).print(table)
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines()) + "\n"


def _evaluate_table(info: dict[str, Any], rows: list[tuple[Measure, float]]) -> str:
    c = info["confusion"]
    n, pos = info["n"], info["positives"]
    omitted = f" ({info['n_omitted']} omitted: non-finite score)" if info["n_omitted"] else ""
    head = [
        f"file:       {info['file']}",
        f"rows:       {n}{omitted}; label {info['label']!r}, score {info['score']!r}",
        f"positives:  {pos} (label {info['pos_label']!r}), negatives: {n - pos}",
    ]
    if info["weight"] is not None:
        head.append(f"weights:    column {info['weight']!r}; total {_num(info['weight_total'])}, "
                    f"positives {_num(info['weight_positives'])}")
    head += [
        f"threshold:  {info['threshold']!r} (score >= threshold is predicted positive)",
        "confusion:  " + "  ".join(f"{k}={_num(v)}" for k, v in c.items()),
    ]
    iv = info.get("intervals")
    body = [[m.id, _fmt(v), m.family, _DIRECTION.get(m.direction, str(m.direction)), m.source]
            for m, v in rows]
    header = ["id", "value", "family", "direction", "source"]
    right = [1]
    if iv is not None:
        body = [[*r[:2], _fmt(iv[r[0]][0]), _fmt(iv[r[0]][1]), iv[r[0]][2], *r[2:]]
                for r in body]
        header = ["id", "value", "low", "high", "interval", *header[2:]]
        right = [1, 2, 3]
    cal = info.get("calibrated")
    if cal is not None:
        head.append(f"pi0:        {_fmt(info['pi0'])} (value_cal: calibrated to it)")
        body = [[*r[:2], _fmt(cal[r[0]]), *r[2:]] for r in body]
        header = [*header[:2], "value_cal", *header[2:]]
        right = [1, 2, 3, 4] if iv is not None else [1, 2]
    b = info.get("binning")
    if b is not None:
        head.append(f"binning:    {b['describe']} (max_error: the largest error binning can "
                    "cause; blank where no bound is known)")
        body = [[*r[:2], _fmt_error(b["max_error"][r[0]]), *r[2:]] for r in body]
        header = [*header[:2], "max_error", *header[2:]]
        right = [i if i < 2 else i + 1 for i in right] + [2]
    table = _align(header, body, right=right)
    return "\n".join(head) + "\n\n" + table


def _fmt_error(v: float | None) -> str:
    return "" if v is None else _fmt(v)


def _evaluate_json(info: dict[str, Any], rows: list[tuple[Measure, float]]) -> str:
    obj: dict[str, Any] = {
        "file": info["file"],
        "label": info["label"],
        "score": info["score"],
        "weight": info["weight"],
        "pos_label": info["pos_label"],
        "n": info["n"],
        "n_omitted": info["n_omitted"],
        "positives": info["positives"],
    }
    if info["weight"] is not None:
        obj["weight_total"] = info["weight_total"]
        obj["weight_positives"] = info["weight_positives"]
    obj["threshold"] = _json_value(info["threshold"])
    obj["confusion"] = info["confusion"]
    obj["measures"] = {m.id: _json_value(v) for m, v in rows}
    if "calibrated" in info:
        obj["pi0"] = _json_value(info["pi0"])
        obj["calibrated"] = {m.id: _json_value(info["calibrated"][m.id]) for m, _ in rows}
    if "intervals" in info:
        obj["intervals"] = {k: {"low": _json_value(lo), "high": _json_value(hi), "method": how}
                            for k, (lo, hi, how) in info["intervals"].items()}
    if "binning" in info:
        obj["binning"] = {"describe": info["binning"]["describe"],
                          "max_error": {k: _json_value(v) for k, v
                                        in info["binning"]["max_error"].items()}}
    return json.dumps(obj, indent=2, allow_nan=False) + "\n"


def _evaluate_csv(info: dict[str, Any], rows: list[tuple[Measure, float]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    iv = info.get("intervals")
    cal = info.get("calibrated")
    extra = ["low", "high", "interval"] if iv is not None else []
    cal_col = ["value_cal"] if cal is not None else []
    binned = info.get("binning")
    err_col = ["max_error"] if binned is not None else []
    w.writerow(["id", "value", *cal_col, *err_col, *extra, "family", "direction", "source"])
    for m, v in rows:
        bounds = ([_csv_value(iv[m.id][0]), _csv_value(iv[m.id][1]), iv[m.id][2]]
                  if iv is not None else [])
        cv = [_csv_value(cal[m.id])] if cal is not None else []
        err = ([] if binned is None else
               ["" if binned["max_error"][m.id] is None else _csv_value(binned["max_error"][m.id])])
        w.writerow([m.id, _csv_value(v), *cv, *err, *bounds, m.family, m.direction, m.source])
    return buf.getvalue()


# --- measures ------------------------------------------------------------------------
def _run_measures(args: argparse.Namespace, cols: _Columns | None) -> str:
    frame = measures(args.family)
    if args.format == "json":
        records = frame.to_dict(orient="records")
        return json.dumps(records, indent=2, allow_nan=False, default=str) + "\n"
    if args.format == "csv":
        return str(frame.to_csv(index=False, lineterminator="\n"))
    shown = ["id", "family", "direction", "parameters", "aliases"]
    body = [
        [str(r["id"]), str(r["family"]), _DIRECTION.get(int(r["direction"]), ""),
         str(r["parameters"]), str(r["aliases"])]
        for r in frame[shown].to_dict(orient="records")
    ]
    return _align(shown, body, right=[])


# --- entry point ---------------------------------------------------------------------
def _exit_code(code: Any) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    """Run the ``binmetrics`` command; returns the exit status (0 ok, 2 error)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command == "evaluate":
            _check_evaluate_args(args)
    except SystemExit as exc:  # --help, --version and usage errors
        return _exit_code(exc.code)

    cols = (_Columns(args.label, args.score, args.weight)
            if args.command == "evaluate" else None)
    handler: Callable[[argparse.Namespace, Any], str] = args.handler
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if args.output is not None:
                check_output(args.output)
            text = handler(args, cols)
            if args.output is not None:
                write_text(args.output, text)
            else:
                sys.stdout.write(text)
                sys.stdout.flush()
        except BrokenPipeError:  # e.g. `binmetrics measures | head`
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return 1
        except (CLIError, ValueError, TypeError, KeyError, OSError) as exc:
            _show_warnings(caught, cols)
            msg = _one_line(exc)
            if not isinstance(exc, CLIError):  # the library's words -> the CLI's
                msg = _cli_message(msg, cols)
            print(f"{PROG}: error: {msg}", file=sys.stderr)
            return 2
    _show_warnings(caught, cols)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
