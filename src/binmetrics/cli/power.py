"""``binmetrics power``: power and sample size of a ROC study (Obuchowski; pROC's
``power.roc.test``), solving for whichever of --n-cases, --power, --auc, --alpha is
left out."""

from __future__ import annotations

import argparse
import json
import re
from typing import Any

from binmetrics.cli.commands import command_help
from binmetrics.cli.common import PROG, CLIError, add_format_and_output, align, help_formatter
from binmetrics.inference.power import power_roc_test

__all__ = ["add_power_parser", "run_power"]

POWER_EPILOG = f"""\
examples:
  {PROG} power --auc 0.8 --power 0.9                  # cases needed (one control per case)
  {PROG} power --auc 0.75 --n-cases 40 --kappa 2      # power with 40 cases, 80 controls
  {PROG} power --n-cases 30 --power 0.8               # the smallest AUC detectable
  {PROG} power --auc 0.8 --n-cases 25 --power 0.9 --alpha none   # the level
"""

_OPTION_NAMES = {"n_cases": "--n-cases", "n_controls": "--n-controls", "alpha=None":
                 "--alpha none", "alpha": "--alpha", "kappa": "--kappa",
                 "power": "--power", "auc": "--auc"}


def _level(text: str) -> float | None:
    if text.strip().lower() in ("none", "null", "na"):
        return None
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a level such as 0.05, or 'none' to "
                                         f"compute it; got {text!r}") from None


def add_power_parser(sub: Any) -> None:
    """Register the ``power`` subcommand on the ``binmetrics`` parser."""
    p = sub.add_parser(
        "power",
        help=command_help("power"),
        description="Power, sample size, detectable AUC or significance level of a test "
                    "of one ROC curve against AUC 0.5 (Obuchowski's method, pROC's "
                    "constants). Give all but one of --n-cases (or --n-controls with "
                    "--kappa), --power, --auc and --alpha; '--alpha none' "
                    "computes the level.",
        epilog=POWER_EPILOG,
        formatter_class=help_formatter,
    )
    p.add_argument("--auc", type=float, help="the AUC under the alternative, in (0.5, 1)")
    p.add_argument("--n-cases", type=float, help="number of cases (positives)")
    p.add_argument("--n-controls", type=float, help="number of controls (negatives)")
    p.add_argument("--kappa", type=float, default=None,
                   help="controls per case (default 1)")
    p.add_argument("--power", type=float, help="the power, in (0, 1)")
    p.add_argument("--alpha", type=_level, default=0.05,
                   help="significance level (default: %(default)s); 'none' to compute it")
    p.add_argument("--alternative", choices=("two-sided", "greater"), default="two-sided",
                   help="two-sided halves alpha in each tail; greater tests AUC > 0.5 only "
                        "(default: %(default)s)")
    add_format_and_output(p)
    p.set_defaults(handler=run_power, subparser=p)


def _cli_words(message: str) -> str:
    pattern = re.compile("|".join(re.escape(k) for k in sorted(_OPTION_NAMES, key=len,
                                                               reverse=True)))
    return pattern.sub(lambda m: _OPTION_NAMES[m.group(0)], message)


def run_power(args: argparse.Namespace, cols: Any = None) -> str:
    """Run ``binmetrics power``; returns the text to print or write."""
    try:
        r = power_roc_test(auc=args.auc, n_cases=args.n_cases, n_controls=args.n_controls,
                           kappa=args.kappa, power=args.power, alpha=args.alpha,
                           alternative=args.alternative)
    except ValueError as exc:
        raise CLIError(_cli_words(str(exc))) from None
    frame = r.to_frame()
    if args.format == "json":
        return json.dumps(frame.to_dict(orient="records")[0], indent=2) + "\n"
    if args.format == "csv":
        return str(frame.to_csv(index=False, lineterminator="\n"))
    rows = [[str(name), f"{value:.6g}" if isinstance(value, float) else str(value),
             "<- computed" if name == r.solved_for else ""]
            for name, value in frame.iloc[0].items() if name != "solved_for"]
    return (f"{r.method} (Obuchowski; pROC power.roc.test)\n"
            + align(["quantity", "value", ""], rows, right=[1]))
