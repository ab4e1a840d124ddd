"""``binmetrics threshold``: the cut to deploy for a scored file: the best cut of a measure
under constraints (``Evaluation.best_threshold``), optionally its bootstrap, and a cut with
a guarantee (``Evaluation.threshold_with_guarantee``), as a table, JSON or CSV."""

from __future__ import annotations

import argparse
import json
import math
import re
from pathlib import Path
from typing import Any

from binmetrics.cli.commands import command_help
from binmetrics.cli.common import (
    PROG,
    CLIError,
    add_format_and_output,
    add_interval_options,
    align,
    convert_pos_label,
    help_formatter,
    json_value,
    read_columns,
)

__all__ = ["add_threshold_parser", "check_threshold_options", "run_threshold"]

THRESHOLD_EPILOG = f"""\
examples:
  {PROG} threshold preds.csv --label y --score p --maximize f1
  {PROG} threshold preds.csv --label y --score p --maximize tpr --subject-to "ppv>=0.9"
  {PROG} threshold preds.csv --label y --score p --minimize expected_cost \\
      --cost-fp 1 --cost-fn 5 --ci --resamples 2000 --seed 0
  {PROG} threshold preds.csv --label y --score p --case-cost-fn amount --case-cost-fp fee
  {PROG} threshold preds.csv --label y --score p --guarantee "ppv>=0.9" --ci-level 0.95

--subject-to takes 'measure>=bound' (also <=, >, <); repeat it, or separate
constraints with commas. --guarantee takes 'measure>=floor' or 'measure<=ceiling'
for a proportion measure (ppv, tpr, tnr, npv, accuracy, fpr, ...): the cut whose
one-sided exact bound meets it with confidence --ci-level (fixed-sequence scan).
--case-cost-fp/--case-cost-fn name columns of per-case costs (a false positive
costs its row's value, e.g. a fee; a false negative, e.g. the amount lost), which
expected_cost sums exactly; --cost-fp/--cost-fn then multiply them. Scores at or
above the threshold reported are predicted positive.
"""

_GUARANTEE = re.compile(r"^\s*([A-Za-z_][\w ]*?)\s*(>=|<=)\s*([-+0-9.eE]+)\s*$")


def add_threshold_parser(sub: Any) -> None:
    """Register the ``threshold`` subcommand on the ``binmetrics`` parser."""
    p = sub.add_parser(
        "threshold",
        help=command_help("threshold"),
        description="Choose the threshold to deploy: the cut that maximises (or "
                    "minimises) a confusion measure, under constraints on others, exact "
                    "over every distinct score; optionally its bootstrap and a cut with "
                    "a finite-sample guarantee.",
        epilog=THRESHOLD_EPILOG,
        formatter_class=help_formatter,
    )
    p.add_argument("file", metavar="FILE", help="CSV/TSV/TXT or Parquet file")
    p.add_argument("--label", metavar="COL", required=True, help="column of true labels")
    p.add_argument("--score", metavar="COL", required=True, help="column of scores")
    goal = p.add_mutually_exclusive_group()
    goal.add_argument("--maximize", metavar="MEASURE",
                      help="the confusion measure to maximise (higher is better)")
    goal.add_argument("--minimize", metavar="MEASURE",
                      help="the confusion measure to minimise (lower is better, e.g. "
                           "expected_cost)")
    p.add_argument("--subject-to", action="append", default=[], metavar="'M>=B'",
                   help="a constraint the cut must meet, e.g. 'ppv>=0.9' (repeatable)")
    p.add_argument("--cost-fp", type=float, default=None, metavar="C",
                   help="cost of a false positive (expected_cost; default 1)")
    p.add_argument("--cost-fn", type=float, default=None, metavar="C",
                   help="cost of a false negative (expected_cost; default 1)")
    p.add_argument("--case-cost-fp", metavar="COL", default=None,
                   help="column of per-case costs of a false positive (expected_cost)")
    p.add_argument("--case-cost-fn", metavar="COL", default=None,
                   help="column of per-case costs of a false negative (expected_cost)")
    p.add_argument("--guarantee", metavar="'M>=F'", default=None,
                   help="also find the cut whose measure is at least F (or at most, "
                        "with <=) with confidence --ci-level")
    p.add_argument("--lower-is-positive", action="store_true",
                   help="lower scores mean more likely positive")
    p.add_argument("--weight", metavar="COL", help="column of non-negative case weights")
    p.add_argument("--pos-label", metavar="VALUE",
                   help="label of the positive class (needed unless labels are 0/1, -1/1 "
                        "or true/false)")
    p.add_argument("--nan-policy", choices=("raise", "omit"), default="raise",
                   help="NaN/inf scores: an error, or drop those rows (default: %(default)s)")
    add_interval_options(p, ci_help="bootstrap the chosen cut and its value, with the "
                                     "optimism of choosing on the same data",
                         level_help="level of the intervals and of --guarantee")
    add_format_and_output(p)
    p.set_defaults(handler=run_threshold, subparser=p, check=check_threshold_options)


def _guarantee(text: str) -> tuple[str, str, float]:
    found = _GUARANTEE.match(text)
    if found is None:
        raise CLIError(f"cannot read --guarantee {text!r}: write it as 'measure>=floor' "
                       "or 'measure<=ceiling', e.g. 'ppv>=0.9'")
    return found.group(1), found.group(2), float(found.group(3))


def check_threshold_options(args: argparse.Namespace) -> None:
    """The values of threshold's options, before any data is read."""
    from binmetrics.evaluation.cut_choice import parse_constraints
    from binmetrics.measures import get_measure

    measure = args.maximize or args.minimize
    costs = any(v is not None for v in (args.cost_fp, args.cost_fn, args.case_cost_fp,
                                         args.case_cost_fn))
    if measure is None and costs:
        args.minimize = measure = "expected_cost"
    if measure is None and args.guarantee is None:
        raise CLIError("say what to choose: --maximize MEASURE, --minimize MEASURE, "
                       "costs (--cost-fp/--cost-fn) or --guarantee 'ppv>=0.9'")
    try:
        if measure is not None:
            m = get_measure(measure)
            want = 1 if args.maximize else -1
            if m.family == "confusion" and m.direction == -want:
                other = "--minimize" if want > 0 else "--maximize"
                raise CLIError(f"{m.id} is better {'lower' if want > 0 else 'higher'}: "
                               f"use {other} {m.id}")
            if costs and m.id != "expected_cost":
                raise CLIError("--cost-fp/--cost-fn and --case-cost-fp/--case-cost-fn are "
                               "the costs of expected_cost; use --minimize expected_cost "
                               "with them")
        parse_constraints(",".join(args.subject_to) or None)
    except KeyError as exc:
        raise CLIError(str(exc.args[0])) from None
    except (ValueError, TypeError) as exc:
        raise CLIError(str(exc).replace("subject_to", "--subject-to")) from None
    for opt, v in (("--cost-fp", args.cost_fp), ("--cost-fn", args.cost_fn)):
        if v is not None and not (math.isfinite(v) and v >= 0):
            raise CLIError(f"{opt} must be a finite cost >= 0; got {v}")
    if args.guarantee is not None:
        _guarantee(args.guarantee)


def _rows(args: argparse.Namespace) -> list[dict[str, Any]]:
    from binmetrics.evaluation.api import evaluate

    path = Path(args.file)
    wanted = (args.label, args.score, args.weight, args.case_cost_fp, args.case_cost_fn)
    df = read_columns(path, [c for c in wanted if c],
                      {args.label: "label", args.score: "score"})
    labels = df[args.label]
    pos_label = None if args.pos_label is None else convert_pos_label(args.pos_label, labels)
    ev = evaluate(labels.to_numpy(), df[args.score].to_numpy(),
                  sample_weight=None if args.weight is None else df[args.weight].to_numpy(),
                  pos_label=pos_label, nan_policy=args.nan_policy,
                  higher_is_positive=not args.lower_is_positive,
                  case_cost_fp=None if args.case_cost_fp is None
                  else df[args.case_cost_fp].to_numpy(),
                  case_cost_fn=None if args.case_cost_fn is None
                  else df[args.case_cost_fn].to_numpy())
    rows: list[dict[str, Any]] = []
    measure = args.maximize or args.minimize
    if measure is not None:
        params = {k: v for k, v in (("cost_fp", args.cost_fp), ("cost_fn", args.cost_fn))
                  if v is not None}
        best = ev.best_threshold(measure, subject_to=",".join(args.subject_to) or None,
                                 ci=args.ci, level=args.ci_level, n_resamples=args.resamples,
                                 random_state=args.seed, **params)
        row = {"result": "best", **best.to_frame().iloc[0].to_dict()}
        rows.append(row)
    if args.guarantee is not None:
        name, op, bound = _guarantee(args.guarantee)
        side = {"at_least": bound} if op == ">=" else {"at_most": bound}
        g = ev.threshold_with_guarantee(name, level=args.ci_level, **side)
        rows.append({"result": "guarantee", **g.to_frame().iloc[0].to_dict()})
    return rows


def run_threshold(args: argparse.Namespace, cols: Any = None) -> str:
    """Run ``binmetrics threshold``; returns the text to print or write."""
    try:
        rows = _rows(args)
    except ValueError as exc:
        raise CLIError(str(exc)) from None
    columns = list(dict.fromkeys(k for r in rows for k in r))
    if args.format == "json":
        return json.dumps([{k: json_value(_plain(r.get(k))) for k in columns} for r in rows],
                          indent=2) + "\n"
    if args.format == "csv":
        import pandas as pd

        frame = pd.DataFrame([[_plain(r.get(k)) for k in columns] for r in rows],
                             columns=columns, dtype=object)  # whole counts stay whole
        return str(frame.to_csv(index=False, lineterminator="\n"))
    out = []
    for r in rows:
        out.append(align(["field", "value"],
                         [[k, _text(v)] for k, v in r.items() if k != "result"],
                         right=[]))
    titles = {"best": "best cut", "guarantee": "cut with a guarantee"}
    return "\n".join(f"{titles[r['result']]}\n{t}" for r, t in zip(rows, out, strict=True))


def _plain(v: Any) -> Any:
    """numpy scalars as Python ones (for JSON)."""
    return v.item() if hasattr(v, "item") else v


def _text(v: Any) -> str:
    v = _plain(v)
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)
