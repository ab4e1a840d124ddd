"""``binmetrics compare``: the paired comparison of models scored on the same cases.

The command line of :func:`binmetrics.compare`: every pair of the ``--score`` columns,
every ``--measures`` measure, by DeLong's test for the AUC, McNemar's for accuracy and
the paired bootstrap for any other measure, as a table, JSON or CSV; with ``--test``,
every pair's ROC curves by one of pROC's ``roc.test`` methods
(:func:`binmetrics.roc_test`). Sum of Ranking
Differences of a table, which this command ran before, is ``binmetrics srd``; an
old-style call gets a one-line pointer there.
"""

from __future__ import annotations

import argparse
import csv
import io
import itertools
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from binmetrics.cli.commands import command_help
from binmetrics.cli.common import (
    MEASURE_SYNTAX,
    PROG,
    CLIError,
    MeasuresOption,
    add_case_options,
    add_format_and_output,
    add_interval_options,
    align,
    convert_pos_label,
    csv_value,
    help_formatter,
    json_value,
    measure_list,
    read_columns,
)
from binmetrics.cli.progress import add_progress_option, progress_for
from binmetrics.formatting import format_number
from binmetrics.inference.paired import Comparison, compare
from binmetrics.inference.roc_tests import ROC_TEST_METHODS, ROCTest, roc_test
from binmetrics.measures.registry import select_measures
from binmetrics.validation import check_paired_inputs

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["add_compare_parser", "check_compare", "run_compare"]

COMPARE_EPILOG = f"""\
examples:
  {PROG} compare preds.csv --label y --score p_lr,p_gb
  {PROG} compare preds.parquet --label y --score a,b,c --measures auc,accuracy,mcc --ci
  {PROG} compare preds.csv --label y --score p_lr,p_gb --measures brier --seed 0 \\
      --format json -o comparison.json
  {PROG} compare preds.csv --label y --score p_lr,p_gb --test venkatraman --seed 0
  {PROG} compare preds.csv --label y --score p_lr,p_gb --test bootstrap --fpr 0,0.2
  {PROG} compare preds.csv --label y --score p_lr,p_gb --test specificity --fpr 0.1

Every pair of the --score columns is compared on every measure of --measures
(default auc,accuracy), on the same rows: the AUC by DeLong's paired test,
accuracy by McNemar's exact test, any other measure by the paired bootstrap
(--resamples replicates drawn with --seed; --method bootstrap bootstraps every
measure). Each line gives both values, the difference A - B and its p-value;
--ci adds the interval of the difference at --ci-level (json and csv always
have it). Scores at or above --threshold are predicted positive.

--test compares the ROC curves of every pair instead, as pROC's roc.test:
delong (the AUCs), bootstrap (the AUCs, or the partial AUCs over --fpr A,B or
--tpr A,B), venkatraman (the whole curves, a permutation test), specificity
(the sensitivities at FPR --fpr X, pROC's specificity = 1 - X) or sensitivity
(the specificities at TPR --tpr X); --alternative, --resamples and --seed apply.

Sum of Ranking Differences of a table (objects in rows, methods in columns) is
'{PROG} srd'.
"""

#: the options of ``binmetrics srd`` that mark an old-style ``compare`` call
_SRD_OPTIONS = ("--index-col", "--reference", "--directions", "--pretreat", "--axis",
                "--decimals", "--null", "--cv", "--cv-method", "--repeats", "--plot",
                "--covat")


def add_compare_parser(sub: Any) -> None:
    """Register the ``compare`` subcommand on the ``binmetrics`` parser."""
    cp = sub.add_parser(
        "compare",
        help=command_help("compare"),
        description="Compare models scored on the same cases: every pair of --score "
                    "columns on every measure, with a paired test (bm.compare).",
        epilog=COMPARE_EPILOG,
        formatter_class=help_formatter,
    )
    cp.add_argument("file", metavar="FILE", help="CSV/TSV/TXT or Parquet file")
    cp.add_argument("--label", metavar="COL", help="column of true labels")
    cp.add_argument("--score", metavar="A,B[,C...]",
                    help="comma-separated score columns, one per model (at least two)")
    cp.add_argument("--measures", default=None, metavar="ID,ID,...", action=MeasuresOption,
                    help=f"{MEASURE_SYNTAX} (default: auc,accuracy)")
    add_case_options(cp,
                     nan_help="NaN/inf scores: an error, or drop those rows for every model")
    cp.add_argument("--method", choices=("auto", "bootstrap"), default="auto",
                    help="auto: DeLong for auc, McNemar for accuracy, bootstrap otherwise; "
                         "bootstrap: every measure (default: %(default)s)")
    add_interval_options(cp, ci_help="show the interval of each difference",
                         level_help="level of the intervals",
                         resamples_help="paired-bootstrap replicates")
    cp.add_argument("--test", choices=ROC_TEST_METHODS, default=None,
                    help="compare the ROC curves of every pair by this roc.test method "
                         "instead of the measures (bm.roc_test)")
    cp.add_argument("--fpr", metavar="X|A,B", default=None,
                    help="with --test specificity: the FPR X; with --test bootstrap: the "
                         "FPR range A,B of the partial AUCs")
    cp.add_argument("--tpr", metavar="X|A,B", default=None,
                    help="with --test sensitivity: the TPR X; with --test bootstrap: the "
                         "TPR range A,B of the partial AUCs")
    cp.add_argument("--alternative", choices=("two-sided", "greater", "less"),
                    default="two-sided",
                    help="with --test: greater means A's curve above B's "
                         "(default: %(default)s)")
    for opt in _SRD_OPTIONS:  # accepted only to point an old-style call at `srd`
        cp.add_argument(opt, dest="srd_" + opt[2:].replace("-", "_"), metavar="X",
                        help=argparse.SUPPRESS)
    add_progress_option(cp)
    add_format_and_output(cp)
    cp.set_defaults(handler=run_compare, subparser=cp, check=check_compare)


def _old_style(args: argparse.Namespace) -> str | None:
    """The SRD options given, or "" when --label/--score are missing; None for a paired
    comparison."""
    given = [o for o in _SRD_OPTIONS if getattr(args, "srd_" + o[2:].replace("-", "_"))
             is not None]
    if given:
        return ", ".join(given)
    if args.label is None and args.score is None:
        return ""
    return None


def _score_columns(spec: str) -> list[str]:
    names = [s.strip() for s in spec.split(",") if s.strip()]
    if len(names) < 2:
        raise CLIError(f"--score needs at least two comma-separated columns, one per model "
                       f"(e.g. --score p_lr,p_gb); got {spec!r}")
    if len(set(names)) != len(names):
        raise CLIError(f"--score names a column twice: {spec}")
    return names


def _settings(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """The score columns and the measures (none with --test), every option checked
    (before any data is read)."""
    old = _old_style(args)
    if old is not None:
        what = ""
        if old:
            what = f" ({old} {'is an option' if ',' not in old else 'are options'} of srd)"
        raise CLIError(f"'{PROG} compare' now compares models scored on the same cases "
                       f"(--label COL --score A,B); Sum of Ranking Differences of a table "
                       f"is '{PROG} srd {args.file}'{what}")
    if args.label is None or args.score is None:
        missing = "--label" if args.label is None else "--score"
        raise CLIError(f"compare needs {missing}: e.g. {PROG} compare {args.file} "
                       "--label y --score p_lr,p_gb")
    scores = _score_columns(args.score)
    if args.label in scores:
        raise CLIError(f"--label {args.label!r} is also a --score column")
    if args.test is not None:
        _test_rates(args)
        return scores, []
    for opt in ("fpr", "tpr"):
        if getattr(args, opt) is not None:
            raise CLIError(f"--{opt} applies to --test (e.g. --test specificity --fpr 0.1); "
                           "the measure comparison takes measure parameters in --measures")
    if args.alternative != "two-sided":
        raise CLIError("--alternative applies to --test; the measure comparison is "
                       "two-sided")
    spec = "auc,accuracy" if args.measures is None else args.measures  # '' is empty
    measures = [m.id for s in measure_list(spec)
                for m in select_measures(None, s)]  # a preset names several
    return scores, measures


def check_compare(args: argparse.Namespace) -> None:
    """The values of compare's options, before any data is read."""
    _settings(args)


def run_compare(args: argparse.Namespace, cols: Any = None) -> str:
    """Run ``binmetrics compare``; returns the text to print or write."""
    scores, measures = _settings(args)
    if args.test is not None:
        return _run_roc_tests(args, scores)
    path, df, labels, pos_label = _read_models(args, scores)
    cmp = compare(labels.to_numpy(), {s: df[s].to_numpy() for s in scores},
                  threshold=args.threshold, measures=measures, method=args.method,
                  sample_weight=None if args.weight is None else df[args.weight].to_numpy(),
                  pos_label=pos_label, n_resamples=args.resamples, level=args.ci_level,
                  nan_policy=args.nan_policy, random_state=args.seed,
                  progress=progress_for(args), higher_is_positive=not args.lower_is_positive)
    info = {"file": str(path), "label": args.label, "rows": len(df),
            "engine": "pandas, in memory"}
    render = {"table": _table, "json": _json, "csv": _csv}
    return render[args.format](info, cmp, args.ci)


def _header(info: dict[str, Any], cmp: Comparison) -> list[str]:
    boot = [m for m, how in cmp.methods.items() if how == "bootstrap"]
    lines = [f"file:       {info['file']} (read with {info['engine']})",
             f"rows:       {info['rows']}; label {info['label']!r}; models: "
             f"{', '.join(cmp.names)}",
             f"threshold:  {cmp.threshold!r} ("
             f"{'score >= threshold' if cmp.higher_is_positive else 'score <= threshold'}"
             " is predicted positive)"]
    if boot:
        lines.append(f"bootstrap:  {cmp.n_resamples} paired replicates "
                     f"({', '.join(boot)})")
    return lines


def _table(info: dict[str, Any], cmp: Comparison, ci: bool) -> str:
    """The comparison as text: a header, then one line per pair and measure."""
    header = ["model_a", "model_b", "measure", "value_a", "value_b", "estimate"]
    right = [3, 4, 5]
    if ci:
        pct = f"{100 * cmp.level:g}%"
        header += [f"{pct} low", f"{pct} high"]
        right += [6, 7]
    header += ["p-value", "method"]
    right.append(len(header) - 2)
    body = []
    for r in cmp.results:
        row = [r.model_a, r.model_b, r.measure, format_number(r.value_a),
               format_number(r.value_b), format_number(r.estimate)]
        if ci:
            row += [format_number(r.ci.low), format_number(r.ci.high)]
        body.append([*row, format_number(r.pvalue), r.method])
    return "\n".join(_header(info, cmp)) + "\n\n" + align(header, body, right=right)


def _json(info: dict[str, Any], cmp: Comparison, ci: bool) -> str:
    """The comparison as a JSON object (NaN as null)."""
    doc = {
        "file": info["file"], "label": info["label"], "rows": info["rows"],
        "engine": info["engine"], "models": list(cmp.names),
        "threshold": json_value(cmp.threshold), "level": cmp.level,
        "higher_is_positive": cmp.higher_is_positive,
        "n_resamples": cmp.n_resamples, "methods": dict(cmp.methods),
        "comparisons": [
            {"model_a": r.model_a, "model_b": r.model_b, "measure": r.measure,
             "value_a": json_value(r.value_a), "value_b": json_value(r.value_b),
             "estimate": json_value(r.estimate), "low": json_value(r.ci.low),
             "high": json_value(r.ci.high), "pvalue": json_value(r.pvalue),
             "statistic": json_value(r.statistic), "method": r.method,
             "n_undefined": r.n_undefined}
            for r in cmp.results],
    }
    return json.dumps(doc, indent=2, allow_nan=False) + "\n"


def _csv(info: dict[str, Any], cmp: Comparison, ci: bool) -> str:
    """The comparison as CSV, one row per pair and measure."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["model_a", "model_b", "measure", "value_a", "value_b", "estimate", "low",
                "high", "level", "pvalue", "statistic", "method", "n_undefined"])
    for r in cmp.results:
        w.writerow([r.model_a, r.model_b, r.measure, csv_value(r.value_a),
                    csv_value(r.value_b), csv_value(r.estimate), csv_value(r.ci.low),
                    csv_value(r.ci.high), repr(cmp.level), csv_value(r.pvalue),
                    csv_value(r.statistic), r.method, r.n_undefined])
    return buf.getvalue()


# --- --test: pROC's roc.test for every pair ------------------------------------------
def _rates(text: str | None, opt: str) -> float | tuple[float, float] | None:
    """One rate "X" or a range "A,B" of --fpr / --tpr."""
    if text is None:
        return None
    parts = [p.strip() for p in text.split(",")]
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise CLIError(f"--{opt} takes a rate X or a range A,B of numbers in [0, 1]; got "
                       f"{text!r}") from None
    if len(values) == 1:
        return values[0]
    if len(values) == 2:
        return values[0], values[1]
    raise CLIError(f"--{opt} takes a rate X or a range A,B; got {len(values)} numbers")


def _check_test_rates(test: str, fpr: Any, tpr: Any) -> None:
    """The --fpr / --tpr each --test needs, in the command line's words."""
    if test in ("specificity", "sensitivity"):
        opt, other, name = (("--fpr", tpr, fpr) if test == "specificity"
                            else ("--tpr", fpr, tpr))
        if other is not None or name is None or isinstance(name, tuple):
            what = ("the sensitivities at one FPR X (pROC's specificity = 1 - X), e.g. "
                    "--fpr 0.1" if test == "specificity"
                    else "the specificities at one TPR X, e.g. --tpr 0.9")
            raise CLIError(f"--test {test} compares {what}: give {opt} X only")
    elif test == "bootstrap":
        if fpr is not None and tpr is not None:
            raise CLIError("--test bootstrap takes --fpr A,B or --tpr A,B (the range of the "
                           "partial AUCs), not both")
        if isinstance(fpr, float) or isinstance(tpr, float):
            raise CLIError("--test bootstrap compares partial AUCs over a range: give "
                           "--fpr A,B or --tpr A,B (e.g. --fpr 0,0.2)")
    elif fpr is not None or tpr is not None:
        what = "full AUCs" if test == "delong" else "whole curves"
        raise CLIError(f"--fpr and --tpr do not apply to --test {test}, which compares "
                       f"{what}; --test bootstrap --fpr A,B compares partial AUCs")


def _read_models(args: argparse.Namespace,
                 scores: list[str]) -> tuple[Path, pd.DataFrame, pd.Series, Any]:
    """The file's label, score and weight columns, the labels and the positive label."""
    path = Path(args.file)
    df = read_columns(path, [c for c in (args.label, *scores, args.weight) if c])
    labels = df[args.label]
    pos_label = None if args.pos_label is None else convert_pos_label(args.pos_label, labels)
    return path, df, labels, pos_label


def _test_rates(args: argparse.Namespace) -> tuple[Any, Any]:
    """--fpr and --tpr of --test, checked with the options --test does not take."""
    for opt, given in (("--measures", args.measures is not None),
                       ("--method", args.method != "auto"), ("--ci", args.ci)):
        if given:
            raise CLIError(f"{opt} applies to the measure comparison, not to --test "
                           f"{args.test} (which reports the statistic and p-value of "
                           "pROC's roc.test)")
    fpr, tpr = _rates(args.fpr, "fpr"), _rates(args.tpr, "tpr")
    _check_test_rates(args.test, fpr, tpr)
    if args.test == "venkatraman" and args.weight is not None:
        raise CLIError("--test venkatraman takes no --weight (a permutation test of the "
                       "cases); repeat the rows instead")
    return fpr, tpr


def _run_roc_tests(args: argparse.Namespace, scores: list[str]) -> str:
    fpr, tpr = _test_rates(args)
    path, df, labels, pos_label = _read_models(args, scores)
    inp = check_paired_inputs(labels.to_numpy(), [df[s].to_numpy() for s in scores],
                              [f"score column {s!r}" for s in scores],
                              None if args.weight is None else df[args.weight].to_numpy(),
                              pos_label=pos_label, nan_policy=args.nan_policy)
    y, arrays, w = inp.y, inp.scores, inp.weight
    if args.lower_is_positive:  # the tests read the order: higher = more positive
        arrays = tuple(-a for a in arrays)
    cols = dict(zip(scores, arrays, strict=True))
    tests = [(a, b, roc_test(y, cols[a], cols[b], method=args.test,
                             alternative=args.alternative, fpr=fpr, tpr=tpr,
                             n_resamples=args.resamples, random_state=args.seed,
                             sample_weight=w))
             for a, b in itertools.combinations(scores, 2)]
    info = {"file": str(path), "label": args.label, "rows": int(y.size),
            "engine": "pandas, in memory", "models": scores}
    render = {"table": _tests_table, "json": _tests_json, "csv": _tests_csv}
    return render[args.format](info, tests)


_TestRows = list[tuple[str, str, ROCTest]]


def _params(t: ROCTest) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in t.params.items())


def _what(t: ROCTest) -> str:
    return f"{t.measure}({_params(t)})" if t.params else t.measure


def _tests_table(info: dict[str, Any], tests: _TestRows) -> str:
    t0 = tests[0][2]
    how = f"{t0.method}, paired, alternative {t0.alternative}"
    if t0.n_resamples:
        how += f", {t0.n_resamples} resamples"
    lines = [f"file:       {info['file']} (read with {info['engine']})",
             f"rows:       {info['rows']}; label {info['label']!r}; models: "
             f"{', '.join(info['models'])}",
             f"test:       {how} (pROC roc.test)"]
    header = ["model_a", "model_b", "compared", "value_a", "value_b", "estimate",
              "statistic", "p-value"]
    body = [[a, b, _what(t), format_number(t.value_a), format_number(t.value_b),
             format_number(t.estimate), format_number(t.statistic), format_number(t.pvalue)]
            for a, b, t in tests]
    return "\n".join(lines) + "\n\n" + align(header, body, right=[3, 4, 5, 6, 7])


def _tests_json(info: dict[str, Any], tests: _TestRows) -> str:
    doc = {
        "file": info["file"], "label": info["label"], "rows": info["rows"],
        "engine": info["engine"], "models": info["models"], "test": tests[0][2].method,
        "comparisons": [
            {"model_a": a, "model_b": b, "measure": t.measure,
             "params": {k: json_value(v) if not isinstance(v, tuple) else list(v)
                        for k, v in t.params.items()},
             "value_a": json_value(t.value_a), "value_b": json_value(t.value_b),
             "estimate": json_value(t.estimate), "statistic": json_value(t.statistic),
             "pvalue": json_value(t.pvalue), "alternative": t.alternative,
             "paired": t.paired, "df": json_value(t.df), "n_resamples": t.n_resamples,
             "n_undefined": t.n_undefined, "method": t.method}
            for a, b, t in tests],
    }
    return json.dumps(doc, indent=2, allow_nan=False) + "\n"


def _tests_csv(info: dict[str, Any], tests: _TestRows) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["model_a", "model_b", "measure", "params", "value_a", "value_b",
                "estimate", "statistic", "pvalue", "alternative", "n_resamples",
                "n_undefined", "method"])
    for a, b, t in tests:
        w.writerow([a, b, t.measure, _params(t), csv_value(t.value_a),
                    csv_value(t.value_b), csv_value(t.estimate), csv_value(t.statistic),
                    csv_value(t.pvalue), t.alternative, t.n_resamples or "", t.n_undefined,
                    t.method])
    return buf.getvalue()
