"""``binmetrics evaluate``: every measure of a scored CSV or Parquet file (or a bundled
example), in memory or with the DuckDB and Spark engines, overall or ``--by`` groups,
as a table, JSON or CSV.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from pathlib import Path
from typing import Any

import pandas as pd

from binmetrics.cli._evaluate_output import (
    by_csv,
    by_json,
    by_table,
    evaluate_csv,
    evaluate_json,
    evaluate_table,
)
from binmetrics.cli.commands import command_help
from binmetrics.cli.common import (
    MEASURE_SYNTAX,
    PROG,
    CLIError,
    Columns,
    MeasuresOption,
    add_case_options,
    add_format_and_output,
    add_interval_options,
    convert_pos_label,
    help_formatter,
    json_value,
    measure_list,
    one_line,
    read_columns,
)
from binmetrics.cli.groups import (
    add_group_options,
    check_group_options,
    cluster_intervals,
    gaps_output,
)
from binmetrics.cli.progress import add_progress_option, progress_for
from binmetrics.data import EXAMPLES, example_path
from binmetrics.engines.registry import file_engines, get_engine
from binmetrics.engines.where import WHERE_RULES
from binmetrics.evaluation.api import evaluate
from binmetrics.evaluation.binary import Evaluation
from binmetrics.evaluation.by import ByResult, evaluate_by
from binmetrics.evaluation.options import EvalOptions, check_pi0
from binmetrics.exceptions import EngineError
from binmetrics.measures.registry import Measure, iter_measures, select_measures

__all__ = ["add_evaluate_parser", "check_evaluate", "prepare_evaluate", "run_evaluate"]

#: the --engine choices: auto, the in-memory path, and every declared file engine
ENGINES = ("auto", "numpy", *(e.name for e in file_engines()))
#: --engine auto reads files at least this large with DuckDB (when installed)
AUTO_DUCKDB_MB = 64

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
pandas in memory otherwise; numpy forces the in-memory path, duckdb, spark
(Spark on --master, default local[*]), polars (its streaming engine) and dask
(on --scheduler, default Dask's local threads) the engines. --where is a SQL condition
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

--by COL[,COL...] evaluates each group of rows separately (groups in the order
of their keys: dates in time order, missing keys last). Groups with fewer than 2
rows or one class are reported with NaN values and the reason. json and csv
give one record/row per group (csv: the group columns, n, positives,
prevalence, the measures, ID_cal with --pi0, ID_low/ID_high with --ci,
reason); the table format lists the groups and then
the values in long format, one line per group and measure (group, id, value,
low, high, value_cal).
"""


def add_evaluate_parser(sub: Any) -> None:
    """Register the ``evaluate`` subcommand on the ``binmetrics`` parser."""
    ev = sub.add_parser(
        "evaluate",
        help=command_help("evaluate"),
        description="Evaluate a binary classifier's scores: every measure of the registry "
                    "(or those of --measures).",
        epilog=EVALUATE_EPILOG,
        formatter_class=help_formatter,
    )
    ev.add_argument("file", nargs="?", metavar="FILE", help="CSV/TSV/TXT or Parquet file")
    ev.add_argument("--example", choices=list(EXAMPLES),
                    help="evaluate a bundled example data set instead of FILE")
    ev.add_argument("--label", metavar="COL", help="column of true labels")
    ev.add_argument("--score", metavar="COL",
                    help="column of scores (higher = more likely positive)")
    add_case_options(ev)
    ev.add_argument("--measures", metavar="ID,ID,...", action=MeasuresOption,
                    help=f"{MEASURE_SYNTAX} (default: all)")
    ev.add_argument("--by", metavar="COL[,COL...]",
                    help="evaluate each group of these column(s) separately")
    ev.add_argument("--pi0", metavar="VALUE|mean|min",
                    help="add the measures calibrated to this reference prevalence")
    add_interval_options(ev)
    add_group_options(ev)
    ev.add_argument("--ci-method", default="auto", metavar="METHOD",
                    help="interval method where it applies: clopper-pearson, wald, wilson, "
                         "agresti-coull, jeffreys, delong, bootstrap (default: %(default)s)")
    ev.add_argument("--engine", choices=ENGINES, default="auto",
                    help="how FILE is read and counted (default: %(default)s; see below)")
    for engine in file_engines():  # each engine's own options (Spark's --master)
        for opt in engine.options:
            ev.add_argument(opt.flag, dest=opt.dest, metavar=opt.metavar, help=opt.help)
    ev.add_argument("--where", metavar="SQL",
                    help="only the rows meeting this condition (duckdb, spark): "
                         f"{WHERE_RULES}")
    ev.add_argument("--decimals", type=int, metavar="D",
                    help="bin the scores to D decimals (floor; the engines)")
    ev.add_argument("--bins", metavar="B|E1,E2,...",
                    help="bin the scores into B equal-width bins or at these edges")
    ev.add_argument("--summary", action="store_true",
                    help="a classification-report style summary instead of every measure: "
                         "counts, per-class precision/recall/F1, the main measures (with "
                         "intervals when --ci is given)")
    add_progress_option(ev)
    add_format_and_output(ev)
    ev.set_defaults(handler=run_evaluate, subparser=ev, prepare=prepare_evaluate,
                    check=check_evaluate)


def prepare_evaluate(args: argparse.Namespace) -> Columns:
    """Check the argument combinations argparse cannot express (exits 2 with the usage
    line), fill --label and --score from --example, and return the columns the
    library's messages are translated to."""
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
    return Columns(args.label, args.score, args.weight)


def check_evaluate(args: argparse.Namespace) -> None:
    """The values of evaluate's options, before any data is read: the measures, --pi0,
    --by, --bins and --decimals, --threshold and --ci-method (a bootstrap must not run
    before a misspelt method is found)."""
    selected = _parse_measure_list(args.measures) if args.measures else None
    pi0 = _parse_pi0(args.pi0)
    by = _parse_by(args.by)
    if args.summary and (by or selected or pi0 is not None):
        raise CLIError("--summary shows the main measures of one evaluation; leave out "
                       "--by, --measures and --pi0 (or --summary)")
    check_group_options(args, by)
    try:
        EvalOptions(threshold=args.threshold, decimals=args.decimals,
                    bins=_parse_bins(args.bins))
    except (TypeError, ValueError) as exc:  # the library's words -> the options'
        raise CLIError(re.sub(r"^(threshold|decimals|bins)\b", r"--\1", one_line(exc))) \
            from None
    chosen = list(iter_measures()) if selected is None else selected
    if args.ci and not args.summary:
        _ci_plan(chosen, args)
    else:
        _ci_method(args)


# --- evaluate ------------------------------------------------------------------------
def _parse_measure_list(spec: str) -> list[Measure]:
    names = measure_list(spec)
    # a preset ("multilevel28") names several; an unknown name: KeyError with a suggestion
    found = [m for n in names for m in select_measures(None, n)]
    return list({m.id: m for m in found}.values())


def _count(x: float | str) -> float | int | str:
    """A count as an int where whole; a string (a weighted count past the floats' range,
    :meth:`CountTable.in_user_units`) as it is."""
    if isinstance(x, str):
        return x
    return int(x) if float(x).is_integer() and abs(x) < 2**53 else float(x)


def run_evaluate(args: argparse.Namespace, cols: Columns) -> str:
    """Run ``binmetrics evaluate``; returns the text to print or write."""
    selected = _parse_measure_list(args.measures) if args.measures is not None else None
    pi0 = _parse_pi0(args.pi0)
    by = _parse_by(args.by)
    if args.summary and (by or selected or pi0 is not None):
        raise CLIError("--summary shows the main measures of one evaluation; leave out "
                       "--by, --measures and --pi0 (or --summary)")
    engine = _engine_for(args)
    args.engine_used = f"{engine} ({_engine_reason(args, engine)})"
    if engine != "numpy":
        if args.clusters is not None:
            raise CLIError(f"--clusters needs the rows: use --engine numpy (not {engine})")
        return _run_engine(args, cols, engine, by, pi0, selected)
    path = Path(args.file) if args.file is not None else example_path(args.example)
    roles = {**{b: "group" for b in by}, **({cols.weight: "weight"} if cols.weight else {}),
             cols.score: "score", cols.label: "label"}
    if args.clusters is not None:
        roles[args.clusters] = "group"
    df = read_columns(path, [c for c in (cols.label, cols.score, cols.weight, *by,
                                         args.clusters) if c], roles)
    labels = df[cols.label]
    pos_label = None if args.pos_label is None else convert_pos_label(args.pos_label, labels)
    if by:
        return _run_evaluate_by(args, cols, path, df, by, pi0, pos_label, selected)
    if args.clusters is not None:  # the rows, for the clustered intervals
        args.cluster_rows = (labels.to_numpy(), df[cols.score].to_numpy(),
                             None if cols.weight is None else df[cols.weight].to_numpy(),
                             df[args.clusters].to_numpy(), pos_label)
    ev = evaluate(
        labels, df[cols.score], threshold=args.threshold,
        sample_weight=None if cols.weight is None else df[cols.weight],
        pos_label=pos_label, nan_policy=args.nan_policy,
        higher_is_positive=not args.lower_is_positive,
    )
    return _report(args, cols, str(path), ev, selected, pi0)


def _report(args: argparse.Namespace, cols: Columns, path: str, ev: Evaluation,
            selected: list[Measure] | None, pi0: float | str | None) -> str:
    """The output of one evaluation (every engine)."""
    if args.summary:
        return _summary(args, path, ev)
    chosen = list(iter_measures()) if selected is None else selected
    # measures=None, not every measure by name: the caveats that need a judgement
    # (BEDROC's) are for the measures named with --measures
    values = ev.to_dict(measures=selected)

    c = ev.confusion
    info: dict[str, Any] = {
        "file": path,
        "engine": getattr(args, "engine_used", None),
        "label": cols.label,
        "score": cols.score,
        "weight": cols.weight,
        "pos_label": ev.pos_label,
        "n": ev.n_rows,
        "n_omitted": ev.n_omitted,
        "positives": ev.n_positive_rows,
        "threshold": ev.threshold,
        # counts and totals in the weights' own unit, though rescaled inside
        "confusion": {k: _count(ev.table.in_user_units(v)) for k, v in c.as_dict().items()},
    }
    if not ev.higher_is_positive:
        info["higher_is_positive"] = False
    if ev.table.weighted:
        info["weight_total"] = _count(ev.table.in_user_units(ev.table.total))
        info["weight_positives"] = _count(ev.table.in_user_units(ev.table.P))
    rows = [(m, values[m.id]) for m in chosen]
    if pi0 is not None:
        p0 = ev.table.prevalence if isinstance(pi0, str) else pi0  # one group: its own
        info["pi0"] = p0
        info["calibrated"] = ev.calibrated(p0).to_dict(measures=selected)
    if args.ci:
        info["intervals"] = _intervals(ev, chosen, args)
    if ev.binning is not None:
        info["binning"] = {"describe": ev.binning.describe(),
                           "max_error": {m.id: ev.binning_error(m) for m in chosen}}
    render = {"table": evaluate_table, "json": evaluate_json, "csv": evaluate_csv}
    return render[args.format](info, rows)


def _summary(args: argparse.Namespace, path: str, ev: Evaluation) -> str:
    """``--summary``: the classification-report style view of :meth:`Evaluation.summary`."""
    sm = ev.summary(ci=args.ci, level=args.ci_level, n_resamples=args.resamples,
                    random_state=args.seed, progress=progress_for(args))
    frame = sm.to_frame()
    if args.format == "json":
        doc = {"file": path, "engine": args.engine_used, "n": sm.n,
               "positives": sm.positives, "pos_label": sm.pos_label,
               "threshold": sm.threshold, "confusion": sm.confusion.as_dict(),
               "per_class": sm.per_class.to_dict(orient="records"),
               "measures": [{k: json_value(v) for k, v in r.items()}
                            for r in frame.to_dict(orient="records")]}
        return json.dumps(doc, indent=2, default=str) + "\n"
    if args.format == "csv":
        return str(frame.to_csv(index=False, lineterminator="\n"))
    return f"file:       {path}\nengine:     {args.engine_used}\n{sm}\n"


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


def _engine_reason(args: argparse.Namespace, engine: str) -> str:
    """Why ``engine`` reads FILE, for the output's header."""
    import glob

    if args.engine != "auto":
        return f"--engine {args.engine}"
    for e in file_engines():
        given = [o.flag for o in e.options if getattr(args, o.dest, None) is not None]
        if e.name == engine and given:
            return f"{given[0]} given"
    file = args.file if args.file is not None else str(example_path(args.example))
    if glob.has_magic(file):
        return "FILE is a glob"
    sql = [f for f, v in (("--where", args.where), ("--decimals", args.decimals),
                          ("--bins", args.bins)) if v is not None]
    if sql and engine != "numpy":
        return f"{sql[0]} given"
    size = os.path.getsize(file) / 2**20 if os.path.isfile(file) else 0.0
    shown = "under 0.1 MB" if size < 0.1 else f"{size:.3g} MB"
    if engine == "numpy":
        return f"in memory with pandas: the file is {shown}, under {AUTO_DUCKDB_MB} MB"
    return f"the file is {shown}, at least {AUTO_DUCKDB_MB} MB"


def _engine_for(args: argparse.Namespace) -> str:
    """The engine --engine names; for auto, the first installed auto engine (DuckDB)
    where it pays (see the epilog), or the engine whose own option was given."""
    import glob

    needs_sql = any(v is not None for v in (args.where, args.decimals, args.bins))
    if args.engine == "numpy":
        if needs_sql:
            raise CLIError("--where, --decimals and --bins need --engine "
                           f"{' or '.join(e.name for e in file_engines())}")
        return "numpy"
    if args.engine != "auto":
        return str(args.engine)
    for engine in file_engines():
        if any(getattr(args, o.dest, None) is not None for o in engine.options):
            return engine.name
    file = args.file
    is_glob = file is not None and glob.has_magic(file)
    large = (file is not None and not is_glob and os.path.isfile(file)
             and os.path.getsize(file) >= AUTO_DUCKDB_MB * 2**20)
    if not (is_glob or large or needs_sql):
        return "numpy"
    auto = [e for e in file_engines() if e.auto]
    for engine in auto:
        if engine.installed:
            return engine.name
    if auto and (is_glob or needs_sql):
        what = "a glob FILE" if is_glob else "--where, --decimals or --bins"
        others = " or ".join(e.name for e in file_engines() if not e.auto)
        raise CLIError(f"{what} needs {auto[0].title}: pip install "
                       f"'binmetrics[{auto[0].extra}]'" + (f" (or --engine {others})"
                                                           if others else ""))
    return "numpy"


def _run_engine(args: argparse.Namespace, cols: Columns, name: str, by: list[str],
                pi0: float | str | None, selected: list[Measure] | None) -> str:
    """Evaluate FILE with a file engine: the group-by runs there, the table comes back."""
    file = args.file if args.file is not None else str(example_path(args.example))
    engine = get_engine(name)
    own = {o.dest: getattr(args, o.dest, None) for o in engine.options}
    try:
        with engine.open(file, label=cols.label, score=cols.score, weight=cols.weight,
                         by=by or None, where=args.where, **own) as job:
            labels = job.labels()
            pos_label = (None if args.pos_label is None
                         else convert_pos_label(args.pos_label, labels))
            options = EvalOptions(threshold=args.threshold, pos_label=pos_label,
                                  nan_policy=args.nan_policy, decimals=args.decimals,
                                  bins=_parse_bins(args.bins),
                                  higher_is_positive=not args.lower_is_positive)
            if by:
                chosen = list(iter_measures()) if selected is None else selected
                plan = _ci_plan(chosen, args) if args.ci else "auto"
                res = job.evaluate(options.replace(pi0=pi0), measures=selected, ci=args.ci,
                                   ci_method=plan, level=args.ci_level,
                                   n_resamples=args.resamples, random_state=args.seed)
                return gaps_output(args, res, _report_by(args, cols, file, res, by, chosen))
            ev = job.evaluate(options)
        return _report(args, cols, file, ev, selected, pi0)
    except (ImportError, MemoryError, EngineError) as exc:
        raise CLIError(one_line(exc)) from None


def _run_evaluate_by(args: argparse.Namespace, cols: Columns, path: Path, df: pd.DataFrame,
                     by: list[str], pi0: float | str | None, pos_label: Any,
                     selected: list[Measure] | None) -> str:
    chosen = list(iter_measures()) if selected is None else selected
    plan = _ci_plan(chosen, args) if args.ci else "auto"
    res = evaluate_by(df, label=cols.label, score=cols.score, by=by, pi0=pi0,
                      measures=selected, weight=cols.weight, threshold=args.threshold,
                      pos_label=pos_label, nan_policy=args.nan_policy, ci=args.ci,
                      ci_method=plan, level=args.ci_level, n_resamples=args.resamples,
                      random_state=args.seed, higher_is_positive=not args.lower_is_positive)
    return gaps_output(args, res, _report_by(args, cols, str(path), res, by, chosen))


def _report_by(args: argparse.Namespace, cols: Columns, path: str, res: ByResult,
               by: list[str], chosen: list[Measure]) -> str:
    info: dict[str, Any] = {
        "file": path, "engine": getattr(args, "engine_used", None), "label": cols.label,
        "score": cols.score, "weight": cols.weight,
        "by": by, "pos_label": res.pos_label, "threshold": args.threshold, "pi0": res.pi0,
        "ci": args.ci,
    }
    if args.lower_is_positive:
        info["higher_is_positive"] = False
    render = {"table": by_table, "json": by_json, "csv": by_csv}
    return render[args.format](info, res, chosen)


def _ci_method(args: argparse.Namespace) -> str:
    """--ci-method in its canonical spelling; unknown: an error."""
    from binmetrics.inference.intervals import ci_methods, method_name

    method = method_name(args.ci_method)
    known = {x for m in iter_measures() for x in ci_methods(m)}
    if method != "auto" and method not in known:
        raise CLIError(f"unknown --ci-method {args.ci_method!r}; choose auto or one of "
                       f"{', '.join(sorted(known))}")
    return method


def _ci_plan(chosen: list[Measure], args: argparse.Namespace) -> dict[str, str]:
    """The interval method of each measure: --ci-method where it applies, else auto."""
    from binmetrics.inference.intervals import ci_methods

    method = _ci_method(args)
    if method != "auto" and not any(method in ci_methods(m) for m in chosen):
        raise CLIError(f"--ci-method {method} applies to none of the measures")
    return {m.id: method if method in ci_methods(m) else "auto" for m in chosen}


def _intervals(ev: Evaluation, chosen: list[Measure],
               args: argparse.Namespace) -> dict[str, tuple[float, float, str]]:
    if getattr(args, "cluster_rows", None) is not None:
        return cluster_intervals(args, args.cluster_rows, chosen)
    plan = _ci_plan(chosen, args)
    table: Any = ev.ci_table(chosen, method=plan, level=args.ci_level,
                             n_resamples=args.resamples, random_state=args.seed,
                             progress=progress_for(args))
    return {r.id: (r.low, r.high, r.method) for r in table.itertuples()}
