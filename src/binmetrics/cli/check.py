"""``binmetrics check``: a gate for CI pipelines. Exit 0 when every requirement holds,
1 when one fails (saying which and by how much), 2 on a usage or input error."""

from __future__ import annotations

import argparse
import difflib
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from binmetrics.cli.commands import command_help
from binmetrics.cli.common import (
    PROG,
    CLIError,
    Columns,
    add_case_options,
    add_format_and_output,
    align,
    convert_pos_label,
    json_value,
    read_columns,
    resample_count,
)

__all__ = ["add_check_parser", "parse_requirement", "run_check"]

CHECK_EPILOG = f"""\
examples:
  {PROG} check preds.csv --label y --score p --require "auc>=0.80"
  {PROG} check preds.csv --label y --score p --require "auc>=0.80" --require "recall>=0.6" \\
      --on lower-bound
  {PROG} check new.csv --label y --score p --require auc --baseline old.csv --non-inferior 0.02

exit status: 0 every requirement holds, 1 one fails (the output says which and by how
much), 2 a usage or input error (never 0 when something went wrong).
"""

_OPS = (">=", "<=", ">", "<")
_REQUIREMENT = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(>=|<=|=>|=<|>|<|==|=|!=)?\s*(.*)$")


@dataclass(frozen=True)
class Requirement:
    measure: str  # the registry id
    op: str | None  # None: only named (for --non-inferior)
    bound: float
    text: str


def parse_requirement(text: str) -> Requirement:
    """``"auc>=0.80"`` -> Requirement; a bare measure name (``"auc"``) names a measure
    for ``--non-inferior``. A one-line usage error (exit 2) for an unknown measure or operator."""
    from binmetrics.measures.registry import get_measure, iter_measures

    m = _REQUIREMENT.match(text)
    if m is None:
        raise argparse.ArgumentTypeError(
            f"--require {text!r}: write MEASURE OP NUMBER, e.g. 'auc>=0.80' "
            f"(operators: {', '.join(_OPS)})")
    name, op, rest = m.group(1), m.group(2), m.group(3).strip()
    try:
        measure = get_measure(name).id
    except (KeyError, ValueError):
        names = [x.id for x in iter_measures()] + [a for x in iter_measures() for a in x.aliases]
        close = difflib.get_close_matches(name, names, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise argparse.ArgumentTypeError(f"--require {text!r}: unknown measure {name!r}{hint}; "
                       f"`{PROG} measures` lists them") from None
    if op is None:
        if rest:
            raise argparse.ArgumentTypeError(
                f"--require {text!r}: unknown operator in {text!r}; use one of "
                f"{', '.join(_OPS)}, e.g. '{name}>=0.8'")
        return Requirement(measure, None, math.nan, text)
    if op not in _OPS:
        raise argparse.ArgumentTypeError(f"--require {text!r}: unknown operator {op!r}; use one of "
                       f"{', '.join(_OPS)}")
    try:
        bound = float(rest)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--require {text!r}: {rest!r} is not a number") from None
    if not math.isfinite(bound):
        raise argparse.ArgumentTypeError(f"--require {text!r}: the bound must be a finite number")
    return Requirement(measure, op, bound, text)


def add_check_parser(sub: Any) -> None:
    """Register the ``check`` subcommand on the ``binmetrics`` parser."""
    p = sub.add_parser(
        "check", help=command_help("check"),
        description="Check requirements on a scored file, for a CI gate: each --require "
                    "'MEASURE OP NUMBER' is tested on the estimate or, with --on "
                    "lower-bound, on the conservative end of its confidence interval "
                    "(the lower bound for >= and >, the upper bound for <= and <). With "
                    "--baseline and --non-inferior MARGIN, each required measure of the new "
                    "scores must also be non-inferior to the baseline's on the same cases: "
                    "the one-sided paired test of the difference against the margin "
                    "(DeLong for the AUC, the paired bootstrap otherwise) must reject "
                    "inferiority at --alpha.",
        epilog=CHECK_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="FILE", help="CSV/TSV/TXT or Parquet file of scored cases")
    p.add_argument("--label", required=True, metavar="COL", help="column of true labels")
    p.add_argument("--score", required=True, metavar="COL", help="column of scores")
    p.add_argument("--require", action="append", required=True, metavar="REQ",
                   type=parse_requirement,
                   help="a requirement such as 'auc>=0.80' (repeat for several); a bare "
                        "measure name only names it for --non-inferior")
    p.add_argument("--on", choices=("estimate", "lower-bound"), default="estimate",
                   help="test the estimate, or the conservative end of its interval "
                        "(default: %(default)s)")
    p.add_argument("--baseline", metavar="FILE", type=Path,
                   help="the baseline model's scores on the same cases (same rows, order "
                        "and labels)")
    p.add_argument("--baseline-score", metavar="COL",
                   help="the score column of --baseline (default: --score)")
    p.add_argument("--non-inferior", type=float, metavar="MARGIN",
                   help="with --baseline: the margin by which the new model may be worse")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="significance level of the non-inferiority test (default: "
                        "%(default)s)")
    p.add_argument("--ci-level", type=float, default=0.95, metavar="L",
                   help="confidence level of --on lower-bound (default: %(default)s)")
    p.add_argument("--resamples", type=resample_count, default=2000, metavar="N",
                   help="bootstrap replicates, where a bootstrap is used (default: "
                        "%(default)s)")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="random seed of the bootstrap (default: none)")
    add_case_options(p, weight=False, orientation=False)
    p.set_defaults(handler=run_check, subparser=p, check=_check_options)
    add_format_and_output(p)


def _check_options(args: argparse.Namespace) -> None:
    if (args.baseline is None) != (args.non_inferior is None):
        raise CLIError("--baseline and --non-inferior go together: the baseline's scores "
                       "and the margin of the non-inferiority test")
    if args.non_inferior is not None and not (math.isfinite(args.non_inferior)
                                              and args.non_inferior >= 0):
        raise CLIError(f"--non-inferior must be a margin >= 0; got {args.non_inferior}")
    if not 0 < args.alpha < 1:
        raise CLIError(f"--alpha must be strictly between 0 and 1; got {args.alpha}")
    if args.baseline is None and any(r.op is None for r in args.require):
        bare = next(r.text for r in args.require if r.op is None)
        raise CLIError(f"--require {bare!r} names no bound; write e.g. '{bare}>=0.8'")


def _holds(value: float, op: str, bound: float) -> bool:
    return bool({">=": value >= bound, ">": value > bound, "<=": value <= bound,
                 "<": value < bound}[op]) if math.isfinite(value) else False


def run_check(args: argparse.Namespace, cols: Columns | None = None) -> str:
    """Run ``binmetrics check``; sets ``args.exit_status`` to 1 when a requirement fails."""
    import numpy as np

    from binmetrics.evaluation.api import evaluate

    frame = read_columns(Path(args.file), [args.label, args.score],
                         {args.label: "label", args.score: "score"})
    pos_label = (None if args.pos_label is None
                 else convert_pos_label(args.pos_label, frame[args.label]))
    y, s = frame[args.label].to_numpy(), frame[args.score].to_numpy()
    ev = evaluate(y, s, threshold=args.threshold, pos_label=pos_label,
                  nan_policy=args.nan_policy)
    ids = list(dict.fromkeys(r.measure for r in args.require))
    bounds = {}
    if args.on == "lower-bound":
        t = ev.ci_table(ids, level=args.ci_level, n_resamples=args.resamples,
                        random_state=args.seed)
        bounds = {i: (lo, hi, m) for i, lo, hi, m in
                  zip(t["id"], t["low"], t["high"], t["method"], strict=True)}
    rows: list[dict[str, Any]] = []
    for r in args.require:
        if r.op is None:
            continue
        value = float(ev.value(r.measure))
        tested, what = value, "estimate"
        if args.on == "lower-bound":
            lo, hi, method = bounds[r.measure]
            upper = r.op in ("<=", "<")
            tested = float(hi if upper else lo)
            what = (f"{'upper' if upper else 'lower'} {args.ci_level:g} bound ({method})")
        ok = _holds(tested, r.op, r.bound)
        rows.append({"requirement": f"{r.measure} {r.op} {r.bound:g}", "measure": r.measure,
                     "value": value, "tested": tested, "on": what,
                     "by": tested - r.bound, "holds": ok})
    if args.baseline is not None:
        base_col = args.baseline_score or args.score
        base = read_columns(args.baseline, [args.label, base_col],
                            {args.label: "label", base_col: "score"})
        yb = base[args.label].to_numpy()
        if yb.shape != y.shape or not np.array_equal(yb, y):
            raise CLIError(f"--baseline {args.baseline}: its labels must be those of "
                           f"{args.file}, row for row (the same cases in the same order) "
                           "for a paired test")
        for mid in ids:
            rows.append(_non_inferiority(y, s, base[base_col].to_numpy(), mid, args,
                                         pos_label))
    failed = [r for r in rows if not r["holds"]]
    args.exit_status = 1 if failed else 0
    if args.format == "json":
        return json.dumps({"holds": not failed,
                           "checks": [{k: json_value(v) for k, v in r.items()} for r in rows]},
                          indent=2) + "\n"
    if args.format == "csv":
        import pandas as pd

        return str(pd.DataFrame(rows).to_csv(index=False, lineterminator="\n"))
    table = align(["requirement", "value", "tested on", "tested", "by", "result"],
                  [[r["requirement"], f"{r['value']:.6g}", r["on"], f"{r['tested']:.6g}",
                    f"{r['by']:+.6g}", "ok" if r["holds"] else "FAILED"] for r in rows],
                  right=[1, 3, 4])
    lines = [table.rstrip("\n")]
    for r in failed:
        lines.append(f"FAILED: {r['requirement']}: {r['on']} is {r['tested']:.6g}, "
                     f"{'short' if r['by'] < 0 else 'over'} by {abs(r['by']):.6g}"
                     + (f" ({r['detail']})" if r.get("detail") else ""))
    lines.append(f"{len(rows) - len(failed)} of {len(rows)} checks hold"
                 + ("" if not failed else "; exit status 1"))
    return "\n".join(lines) + "\n"


def _non_inferiority(y: Any, score_new: Any, score_old: Any, mid: str,
                     args: argparse.Namespace, pos_label: Any) -> dict[str, Any]:
    """The one-sided paired test of value(new) - value(old) against -margin (for a
    measure where higher is better; +margin where lower is better)."""
    import numpy as np
    from scipy import stats

    from binmetrics.inference.delong import delong_test
    from binmetrics.inference.paired import paired_bootstrap_differences
    from binmetrics.measures.registry import get_measure
    from binmetrics.validation import check_paired_inputs

    m = get_measure(mid)
    delta = float(args.non_inferior)
    sign = -1.0 if m.direction < 0 else 1.0  # lower is better: flip the difference
    if "delong" in m.paired_tests:
        t = delong_test(y, score_new, score_old, pos_label=pos_label,
                        nan_policy=args.nan_policy)
        d, va, vb = t.estimate, t.value_a, t.value_b
        z = (sign * d + delta) / t.sigma if t.sigma > 0 else math.copysign(
            math.inf, sign * d + delta)
        p = float(stats.norm.sf(z))
        method = "DeLong paired z, one-sided"
    else:
        inp = check_paired_inputs(y, [score_new, score_old], ["new", "baseline"],
                                  pos_label=pos_label, nan_policy=args.nan_policy)
        va, vb, diffs = paired_bootstrap_differences(
            inp.y, inp.scores[0], inp.scores[1], inp.weight, mid, None, args.resamples,
            args.seed, threshold=args.threshold)
        d = va - vb
        diffs = diffs[np.isfinite(diffs)]
        # H0: sign * d <= -margin; p = share of the replicates at or below it (+1 rule)
        p = float((1 + np.count_nonzero(sign * diffs <= -delta)) / (diffs.size + 1))
        method = f"paired bootstrap ({diffs.size} replicates), one-sided"
    ok = p < args.alpha
    word = "worse" if sign > 0 else "higher"
    return {"requirement": f"{mid} non-inferior to baseline (margin {delta:g})",
            "measure": mid, "value": d, "tested": p, "on": f"pvalue, {method}",
            "by": args.alpha - p, "holds": ok,
            "detail": f"new {va:.6g}, baseline {vb:.6g}: H0 new is {word} by {delta:g} or "
                      f"more, not rejected at alpha={args.alpha:g}"}
