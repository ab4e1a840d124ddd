"""``binmetrics monitor``: a scored file's measures over sliding time windows, each
tested against a reference period (:func:`binmetrics.monitor`), as a table, JSON, CSV or
an HTML page (``-o report.html``)."""

from __future__ import annotations

import argparse
import glob
import html
import json
import os
from pathlib import Path
from typing import Any

from binmetrics.cli.commands import command_help
from binmetrics.cli.common import (
    PROG,
    CLIError,
    Columns,
    add_case_options,
    add_format_and_output,
    convert_pos_label,
    json_value,
    read_columns,
)
from binmetrics.engines.registry import get_engine
from binmetrics.engines.where import WHERE_RULES
from binmetrics.exceptions import EngineError

__all__ = ["add_monitor_parser", "parse_reference", "run_monitor"]

#: the --engine choices: auto, in memory, DuckDB, Spark (never chosen by auto)
ENGINES = ("auto", "numpy", "duckdb", "spark")
#: --engine auto reads files at least this large with DuckDB (as evaluate does)
AUTO_DUCKDB_MB = 64

MONITOR_EPILOG = f"""\
examples:
  {PROG} monitor scored.csv --label y --score p --time ts --reference 2026-01-01:2026-03-31
  {PROG} monitor scored.csv --label y --score p --time ts --window 7D --step 1D \\
      --reference 2026-01-01:2026-03-31 --measures auc,recall -o report.html
  {PROG} monitor 'scored/*.parquet' --label y --score p --time ts --engine duckdb \
      --where "split = 'live'" --reference 2026-01-01:2026-03-31
  {PROG} monitor 'scored/*.parquet' --label y --score p --time ts --weight w \
      --engine spark --master 'local[*]' --reference 2026-01-01:2026-03-31

--engine auto (default) reads FILE with DuckDB (out of core; 'pip install
'binmetrics[duckdb]'') when FILE is a glob, --where is given or the file is at least
{AUTO_DUCKDB_MB} MB, else in memory with pandas; --engine spark groups the rows in Spark
('pip install 'binmetrics[spark]'', Java; --where is then Spark SQL). All give the
same windows (exactly; with --weight to the rounding of the weights' sums).
"""


def add_monitor_parser(sub: Any) -> None:
    """Register the ``monitor`` subcommand on the ``binmetrics`` parser."""
    p = sub.add_parser(
        "monitor", help=command_help("monitor"),
        description="The measures of every sliding time window of a scored file, each "
                    "window's change from the reference period tested (DeLong's unpaired "
                    "test for the AUC, the two-proportion z-test for proportions) with "
                    "Holm-adjusted p-values over the windows, and the score drift (KS, "
                    "PSI). -o FILE.html writes an HTML page.",
        epilog=MONITOR_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="FILE", help="CSV/TSV/TXT or Parquet file of scored cases")
    p.add_argument("--label", required=True, metavar="COL", help="column of true labels")
    p.add_argument("--score", required=True, metavar="COL", help="column of scores")
    p.add_argument("--time", required=True, metavar="COL", help="column of times (dates)")
    p.add_argument("--reference", required=True, metavar="START:END",
                   help="the reference period, both days included, e.g. "
                        "2026-01-01:2026-03-31")
    p.add_argument("--window", default="7D", help="window length (default: %(default)s)")
    p.add_argument("--step", default="1D", help="step between windows (default: %(default)s)")
    p.add_argument("--measures", metavar="IDS",
                   help="comma-separated measure ids (default: the summary measures)")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="family-wise level that flags a window (default: %(default)s)")
    p.add_argument("--engine", choices=ENGINES, default="auto",
                   help="how FILE is read and counted (default: %(default)s; see below)")
    p.add_argument("--where", metavar="SQL",
                   help=f"only the rows meeting this condition (duckdb, spark): {WHERE_RULES}")
    p.add_argument("--master", metavar="URL",
                   help="Spark master for --engine spark (default: local[*])")
    add_case_options(p)
    add_format_and_output(p)
    p.set_defaults(handler=run_monitor, subparser=p, check=_check_options)


def parse_reference(text: str) -> tuple[str, str]:
    parts = text.split(":")
    if len(parts) != 2 or not all(x.strip() for x in parts):
        # a time of day has colons too: START and END are split at the one colon between
        # two dates, "2026-01-01:2026-03-31"; use dates here
        raise CLIError(f"--reference {text!r}: write START:END as two dates, e.g. "
                       "2026-01-01:2026-03-31")
    return parts[0].strip(), parts[1].strip()


def _check_options(args: argparse.Namespace) -> None:
    parse_reference(args.reference)
    if not 0 < args.alpha < 1:
        raise CLIError(f"--alpha must be strictly between 0 and 1; got {args.alpha}")


def run_monitor(args: argparse.Namespace, cols: Columns | None = None) -> str:
    """Run ``binmetrics monitor``; returns the text (or HTML page) to print or write."""
    from binmetrics.engines.monitoring import monitor

    engine = _engine_for(args)
    if args.master is not None and engine != "spark":
        raise CLIError("--master needs --engine spark")
    data: Any
    started = None
    if engine == "numpy":
        roles = {args.label: "label", args.score: "score", args.time: "time"}
        if args.weight is not None:
            roles[args.weight] = "weight"
        data = read_columns(Path(args.file), list(roles), roles)
        pos_label = (None if args.pos_label is None
                     else convert_pos_label(args.pos_label, data[args.label]))
        file_options: dict[str, Any] = {}
    elif engine == "spark":
        from binmetrics.engines.spark import read_spark_file

        try:
            data, started = read_spark_file(args.file, master=args.master)
        except (ImportError, EngineError) as exc:
            raise CLIError(" ".join(str(exc).split())) from None
        file_options = {"where": args.where}
        try:
            pos_label = None if args.pos_label is None else _spark_pos_label(args, data)
        except BaseException:
            if started is not None:
                started.stop()
            raise
    else:
        data, file_options = args.file, {"where": args.where}
        pos_label = None if args.pos_label is None else _file_pos_label(args)
    measures = None if args.measures is None else [
        m.strip() for m in args.measures.split(",") if m.strip()]
    if measures == []:
        raise CLIError("--measures is empty; give measure ids, e.g. auc,recall")
    try:
        mon = monitor(data, label=args.label, score=args.score, time=args.time,
                      weight=args.weight, window=args.window, step=args.step,
                      reference=parse_reference(args.reference), measures=measures,
                      threshold=args.threshold, pos_label=pos_label,
                      nan_policy=args.nan_policy, alpha=args.alpha,
                      higher_is_positive=not args.lower_is_positive, **file_options)
    except (ImportError, MemoryError, EngineError) as exc:
        raise CLIError(" ".join(str(exc).split())) from None
    finally:
        if started is not None:
            started.stop()
    out = mon.to_frame()
    drift = mon.drift()
    out["ks"], out["psi"] = drift["ks"].to_numpy(), drift["psi"].to_numpy()
    html_out = args.output is not None and Path(args.output).suffix.lower() in (".html",
                                                                                ".htm")
    if html_out:
        return _page(mon, out, args)
    if args.format == "json":
        return json.dumps([{k: json_value(v) if not hasattr(v, "isoformat") else
                            v.isoformat() for k, v in r.items()}
                           for r in out.to_dict(orient="records")], indent=2) + "\n"
    if args.format == "csv":
        return str(out.to_csv(index=False, lineterminator="\n"))
    flagged = [c for c in out.columns if c.endswith("_flagged")]
    lines = [repr(mon)]
    for c in flagged:
        k = int(out[c].sum())
        if k:
            first = out.loc[out[c], "start"].iloc[0]
            lines.append(f"{c[:-len('_flagged')]}: {k} window(s) changed from the reference "
                         f"(Holm, alpha={args.alpha:g}), the first starting {first}")
    return "\n".join(lines) + "\n"


def _engine_for(args: argparse.Namespace) -> str:
    """The engine --engine names; for auto, DuckDB for a glob, --where or a large file
    (when installed), else pandas in memory."""
    if args.engine == "numpy":
        if args.where is not None:
            raise CLIError("--where needs --engine duckdb")
        return "numpy"
    if args.engine in ("duckdb", "spark"):
        return str(args.engine)
    is_glob = glob.has_magic(args.file)
    large = (not is_glob and os.path.isfile(args.file)
             and os.path.getsize(args.file) >= AUTO_DUCKDB_MB * 2**20)
    if not (is_glob or large or args.where is not None):
        return "numpy"
    if get_engine("duckdb").installed:
        return "duckdb"
    if is_glob or args.where is not None:
        what = "a glob FILE" if is_glob else "--where"
        raise CLIError(f"{what} needs DuckDB: pip install 'binmetrics[duckdb]'")
    return "numpy"


def _file_pos_label(args: argparse.Namespace) -> Any:
    """--pos-label converted to the label column's type as DuckDB reads the files."""
    from binmetrics.engines.files import FileJob

    try:
        with FileJob(args.file, label=args.label, score=args.score, where=args.where) as job:
            return convert_pos_label(args.pos_label, job.labels())
    except (ImportError, MemoryError, EngineError) as exc:
        raise CLIError(" ".join(str(exc).split())) from None


def _spark_pos_label(args: argparse.Namespace, df: Any) -> Any:
    """--pos-label converted to the label column's type as Spark reads the file."""
    from binmetrics.engines.spark import SparkJob

    job = SparkJob(df, label=args.label, score=args.score, where=args.where,
                   source=repr(args.file))
    return convert_pos_label(args.pos_label, job.labels())


def _page(mon: Any, out: Any, args: argparse.Namespace) -> str:
    """A self-contained HTML page: the summary, the flagged windows, every window."""
    from binmetrics.formatting import frame_html

    flagged = [c for c in out.columns if c.endswith("_flagged")]
    notes = []
    for c in flagged:
        k = int(out[c].sum())
        notes.append(f"<li>{html.escape(c[:-len('_flagged')])}: {k} of {len(out)} windows "
                     "changed from the reference</li>")
    body = (f"<h1>Monitoring: {html.escape(Path(args.file).name)}</h1>"
            f"<p>{html.escape(repr(mon).splitlines()[0])}</p>"
            f"<p>Change tests: DeLong's unpaired test (AUC), the pooled two-proportion "
            f"z-test (proportions); p-values Holm-adjusted over the windows, flagged below "
            f"alpha = {args.alpha:g}. Drift: KS statistic and PSI over the reference "
            f"deciles.</p><ul>{''.join(notes)}</ul>"
            + frame_html("Every window", out, max_rows=len(out) + 1))
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>binmetrics monitor"
            "</title><style>body{font-family:sans-serif;margin:2em}td,th{padding:2px 8px;"
            "text-align:right}</style></head><body>" + body + "</body></html>\n")
