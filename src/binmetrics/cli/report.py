"""``binmetrics report``: the self-contained interactive HTML report of a scored data file.

Wide format (``--score p1,p2``): the models scored the same cases, so they are also
compared by paired tests (:func:`binmetrics.compare`). Long format (``--model-col
m``): one model per value of column m, each evaluated on its own rows.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from binmetrics.cli.commands import command_help
from binmetrics.cli.common import (
    PROG,
    CLIError,
    Columns,
    MeasuresOption,
    add_case_options,
    add_interval_options,
    cli_message,
    convert_pos_label,
    help_formatter,
    input_files,
    one_line,
    read_columns,
)
from binmetrics.cli.groups import add_report_group_options, report_by_columns, report_grouped
from binmetrics.cli.progress import add_progress_option, progress_for
from binmetrics.cli.report_time import add_time_options, monitor_for_report, time_columns
from binmetrics.data import EXAMPLES, example_path
from binmetrics.display.report import DEFAULT_MAX_POINTS, DEFAULT_THRESHOLDS, report
from binmetrics.evaluation.api import evaluate
from binmetrics.evaluation.binary import Evaluation
from binmetrics.io import check_writable
from binmetrics.measures import get_measure
from binmetrics.measures.partial_auc import partial_auc_range

__all__ = ["add_report_parser", "check_report", "run_report"]

REPORT_EPILOG = f"""\
examples:
  {PROG} report --example berrar -o berrar.html
  {PROG} report preds.csv --label y --score p -o report.html
  {PROG} report preds.parquet --label y --score p_lr,p_rf --ci --seed 0 -o models.html
  {PROG} report preds.parquet --label y --score p --model-col model --threshold 0.3
  {PROG} report --example screening --weight w --title "Screening, weighted"
  {PROG} report preds.csv --label y --score p --roc-band --seed 0 --partial-fpr 0,0.2
  {PROG} report scored.csv --label y --score p --time ts --reference 2026-01-01:2026-03-31 \\
      --time-measures auc,recall -o report.html

FILE is read by its extension: .csv, .tsv, .txt (delimiter sniffed) or .parquet,
.pq. The report is one HTML file that opens without network: every measure
(source and formula on hover), the confusion matrix, every chart of
binmetrics.plot.kinds() that applies, and a threshold slider that moves the
operating point and updates the confusion measures. It is written atomically; an
unwritable -o fails before any work.

Several --score columns (wide format) are models scored on the same rows: they are
overlaid and compared by paired tests (--paired-measures; DeLong for the AUC,
McNemar for the accuracy, the paired bootstrap otherwise). McNemar's exact test
needs whole-number counts: with non-integer --weight values, --mcnemar auto (the
default) takes the chi-square test and the report says so. --model-col COL (long
format) makes one model of each value of COL, evaluated on its own rows, without
paired tests; it needs at least two models.
"""


def add_report_parser(sub: Any) -> None:
    """Register the ``report`` sub-command on the ``binmetrics`` parser."""
    rp = sub.add_parser(
        "report",
        help=command_help("report"),
        description="Write one self-contained HTML file: every measure, the charts, the "
                    "confusion matrix and a threshold slider; several models overlaid and "
                    "compared.",
        epilog=REPORT_EPILOG,
        formatter_class=help_formatter,
    )
    rp.add_argument("file", nargs="?", metavar="FILE", help="CSV/TSV/TXT or Parquet file")
    rp.add_argument("--example", choices=list(EXAMPLES),
                    help="report on a bundled example data set instead of FILE")
    rp.add_argument("--label", metavar="COL", help="column of true labels")
    rp.add_argument("--score", metavar="COL[,COL...]",
                    help="score column(s); several are models scored on the same rows")
    rp.add_argument("--weight", metavar="COL", help="column of non-negative case weights")
    rp.add_argument("--model-col", metavar="COL",
                    help="column naming the model of each row (long format)")
    add_case_options(rp, weight=False)  # --weight is listed above, with the columns
    rp.add_argument("--title", metavar="TEXT", help="title of the report")
    add_interval_options(rp, ci_help="add confidence intervals (exact, DeLong, or bootstrap)",
                         level_help="confidence level of intervals and paired tests",
                         seed_help="random seed of the bootstraps")
    rp.add_argument("--roc-band", action="store_true",
                    help="shade each ROC curve's bootstrap band of the TPR (pROC ci.se; "
                         "--resamples, --seed and --ci-level apply)")
    rp.add_argument("--partial-fpr", metavar="A,B", default=None,
                    help="shade the partial-AUC region under each ROC curve for FPR in [A, B]")
    rp.add_argument("--partial-tpr", metavar="A,B", default=None,
                    help="shade the partial-AUC region for TPR in [A, B] (pROC's "
                         "sensitivity focus)")
    rp.add_argument("--paired-measures", default="auc,accuracy", metavar="ID,ID,...|none",
                    action=MeasuresOption,
                    help="measures compared between models of the same rows "
                         "(default: %(default)s)")
    rp.add_argument("--mcnemar", choices=("auto", "exact", "chi2", "chi2-uncorrected"),
                    default="auto",
                    help="McNemar's test of the accuracy: auto is exact, or chi2 when the "
                         "weights are not whole numbers (default: %(default)s)")
    rp.add_argument("--max-points", type=int, default=DEFAULT_MAX_POINTS, metavar="N",
                    help="curves with more points are thinned for display "
                         "(default: %(default)s)")
    rp.add_argument("--thresholds", type=int, default=DEFAULT_THRESHOLDS, metavar="N",
                    help="slider positions at most, and at most 4800 / the number of "
                         "models (default: %(default)s)")
    rp.add_argument("-o", "--output", dest="html", metavar="PATH", type=Path,
                    default=Path("report.html"),
                    help="the HTML file to write (default: %(default)s)")
    add_time_options(rp)
    # main() writes args.output itself; this command writes its HTML and prints a summary
    add_report_group_options(rp)
    add_progress_option(rp)
    rp.set_defaults(handler=run_report, subparser=rp, output=None, check=check_report)


def _names(spec: str, option: str) -> list[str]:
    """Comma-separated names (the commas inside a measure's ``id(...)`` kept)."""
    from binmetrics.measures.registry import split_measure_list

    names = split_measure_list(spec)
    if not names:
        raise CLIError(f"{option} is empty; give comma-separated names")
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise CLIError(f"{option} names {', '.join(dup)} twice")
    return names


def _evaluate(cols: Columns, labels: Any, scores: Any, weights: Any,
              args: argparse.Namespace, pos_label: Any) -> Evaluation:
    try:
        ev = evaluate(labels, scores, threshold=args.threshold, sample_weight=weights,
                      pos_label=pos_label, nan_policy=args.nan_policy,
                      higher_is_positive=not args.lower_is_positive)
    except (ValueError, TypeError) as exc:  # the library's words in the CLI's terms
        raise CLIError(cli_message(one_line(exc), cols)) from None
    assert isinstance(ev, Evaluation)  # one score column: never multiclass
    return ev


def _long(args: argparse.Namespace, path: Path, df: pd.DataFrame, cols: Columns,
          pos_label: Any) -> dict[str, Evaluation]:
    col = df[args.model_col]
    missing = int(col.isna().sum())
    if missing:
        raise CLIError(f"--model-col {args.model_col!r} is empty in {missing} rows of {path}; "
                       "every row needs its model")
    groups = pd.unique(col)
    if len(groups) < 2:
        only = f" ({groups[0]!r})" if len(groups) else ""
        raise CLIError(f"--model-col {args.model_col!r} holds a single model{only} in {path}; "
                       "a report by model needs at least two (leave out --model-col to "
                       "report on all rows as one model)")
    names = [str(g) for g in groups]
    if len(set(names)) < len(names):
        raise CLIError(f"--model-col {args.model_col!r} has values that print alike: "
                       f"{', '.join(names)}")
    models = {}
    for g, name in zip(groups, names, strict=True):
        rows = (col == g).to_numpy()
        part = df.loc[rows]
        models[name] = _evaluate(cols, part[cols.label], part[cols.score],
                                 None if cols.weight is None else part[cols.weight], args,
                                 pos_label)
    return models


def _whole(weights: Any) -> bool:
    w = np.asarray(weights, dtype=np.float64)
    w = w[np.isfinite(w)]
    return bool(np.all(w == np.round(w)))


def _compare(args: argparse.Namespace, labels: Any, scores: dict[str, Any], weights: Any,
             pos_label: Any, measures: list[str], notes: list[str]) -> Any:
    """The paired tests of the wide format; McNemar's variant chosen by --mcnemar (auto:
    exact, or chi-square with non-integer weights, with a note for the report)."""
    from binmetrics.inference.paired import compare

    mcnemar = args.mcnemar
    if mcnemar == "auto":
        mcnemar = "exact" if weights is None or _whole(weights) else "chi2"
        if mcnemar == "chi2" and any(get_measure(m).paired_tests[:1] == ("mcnemar",)
                                     for m in measures):
            notes.append(f"The weights in column {args.weight!r} are not whole numbers, so "
                         "McNemar's exact test does not apply: the accuracy is compared by "
                         "McNemar's chi-square test with continuity correction (--mcnemar "
                         "chi2; --mcnemar chi2-uncorrected drops the correction).")
    try:
        return compare(labels, scores, threshold=args.threshold, measures=measures,
                       sample_weight=weights, pos_label=pos_label, mcnemar=mcnemar,
                       n_resamples=args.resamples, level=args.ci_level,
                       nan_policy=args.nan_policy, random_state=args.seed,
                       higher_is_positive=not args.lower_is_positive)
    except (ValueError, TypeError) as exc:  # the library's words in the CLI's terms
        text = one_line(exc).replace("Use mcnemar='chi2'", "Use --mcnemar chi2")
        text = text.replace("or the paired bootstrap (method={'accuracy': 'bootstrap'})",
                            "or leave accuracy out of --paired-measures")
        raise CLIError(cli_message(text)) from None


def _partial(args: argparse.Namespace) -> dict[str, tuple[float, float]] | None:
    """--partial-fpr / --partial-tpr as report's ``partial_auc``, checked before any work."""
    given = [(o, v) for o, v in (("fpr", args.partial_fpr), ("tpr", args.partial_tpr))
             if v is not None]
    if not given:
        return None
    if len(given) == 2:
        raise CLIError("give --partial-fpr A,B or --partial-tpr A,B, not both: a partial "
                       "AUC integrates over one of the two rates")
    focus, text = given[0]
    usage = f"--partial-{focus} takes a range A,B with 0 <= A < B <= 1, e.g. 0,0.2"
    try:
        low, high = (float(v) for v in text.split(","))
    except ValueError:
        raise CLIError(f"{usage}; got {text!r}") from None
    try:
        partial_auc_range(**{focus: (low, high)})
    except ValueError:
        raise CLIError(f"{usage}; got {text!r}") from None
    return {focus: (low, high)}


_Settings = tuple[list[str], list[str], Any, list[str] | None]


def _settings(args: argparse.Namespace) -> _Settings:
    """The options of report, checked (before any data is read): the score columns, the
    columns read, the partial AUC range and the paired measures. Fills --label and
    --score from --example."""
    if args.max_points < 10:
        raise CLIError(f"--max-points must be at least 10, got {args.max_points}")
    if args.thresholds < 3:
        raise CLIError(f"--thresholds must be at least 3, got {args.thresholds}")
    if (args.file is None) == (args.example is None):
        raise CLIError("give a FILE or --example NAME" if args.file is None
                       else "give either FILE or --example, not both")
    if args.example is not None:
        ex = EXAMPLES[args.example]
        args.label = args.label or ex.label
        args.score = args.score or ex.score
    if not args.label or not args.score:
        missing = [o for o, v in (("--label", args.label), ("--score", args.score)) if not v]
        raise CLIError(f"the following arguments are required: {', '.join(missing)}")
    scores = _names(args.score, "--score")
    if args.model_col is not None and len(scores) > 1:
        raise CLIError("--model-col takes one --score column (long format: one row per case "
                       "and model); give several --score columns without --model-col")
    roles = [args.label, *scores, *(c for c in (args.weight, args.model_col) if c),
             *report_by_columns(args, len(scores))]
    if len(set(roles)) < len(roles):
        raise CLIError("--label, --score, --weight and --model-col must name different "
                       f"columns; got {', '.join(roles)}")
    roles += time_columns(args, scores)
    partial = _partial(args)
    paired_measures = (None if args.paired_measures.strip().lower() == "none"
                       else _names(args.paired_measures, "--paired-measures"))
    return scores, roles, partial, paired_measures


def check_report(args: argparse.Namespace) -> None:
    """The values of report's options, before any data is read (its output is checked
    with every command's, by :func:`~binmetrics.cli.common.check_outputs`)."""
    _settings(args)


def run_report(args: argparse.Namespace, cols: Any = None) -> str:
    """Run ``binmetrics report``: write the HTML; returns a one-line summary."""
    # checked again here for a caller that skipped main()'s checks
    out = check_writable(args.html, input_files(args))
    scores, roles, partial, paired_measures = _settings(args)
    path = Path(args.file) if args.file is not None else example_path(args.example)
    df = read_columns(path, roles)
    labels = df[args.label]
    pos_label = None if args.pos_label is None else convert_pos_label(args.pos_label, labels)
    weights = None if args.weight is None else df[args.weight]
    paired = None
    notes: list[str] = []
    if args.model_col is not None:
        cols1 = Columns(args.label, scores[0], args.weight)
        models = _long(args, path, df, cols1, pos_label)
    else:
        models = {s: _evaluate(Columns(args.label, s, args.weight), labels, df[s], weights,
                               args, pos_label) for s in scores}
        if len(scores) > 1 and paired_measures:
            paired = _compare(args, labels, {s: df[s] for s in scores}, weights, pos_label,
                              paired_measures, notes)
    ci: Any = False
    if args.ci:
        ci = {"level": args.ci_level, "n_resamples": args.resamples,
              "random_state": args.seed, "progress": progress_for(args)}
    band: Any = False
    if args.roc_band:
        band = {"level": args.ci_level, "n_resamples": args.resamples,
                "random_state": args.seed}
    title = args.title or f"{path.name}: {', '.join(models)}"
    grouped, gaps = report_grouped(args, df, args.label, scores[0], pos_label)
    over_time = monitor_for_report(args, df, scores[0], pos_label)
    page = report(models, out, title=title, ci=ci, paired=paired,
                  max_points=args.max_points, thresholds=args.thresholds, notes=notes,
                  roc_band=band, partial_auc=partial, grouped=grouped, gaps=gaps,
                  over_time=over_time)
    size = len(page.encode("utf-8"))
    if args.model_col is None and len(models) > 1:  # wide: every model scores each row
        what = f"{len(models)} models scored on the same {len(df)} rows"
    else:
        what = f"{len(models)} model(s), {len(df)} rows"
    return f"wrote {out} ({size / 1e6:.2f} MB): {what} of {path.name}\n"
