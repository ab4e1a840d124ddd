"""``binmetrics report --time COL --reference START:END``: the report's "Over time"
section (:func:`binmetrics.monitor` of the file's rows, shown by
:mod:`binmetrics.display.report_time`)."""

from __future__ import annotations

import argparse
from typing import Any

import pandas as pd

from binmetrics.cli.common import CLIError, cli_message, one_line
from binmetrics.cli.monitor import parse_reference

__all__ = ["add_time_options", "monitor_for_report", "time_columns"]


def add_time_options(p: argparse.ArgumentParser) -> None:
    """The options of the "Over time" section."""
    p.add_argument("--time", metavar="COL",
                   help="column of times (dates): add an 'Over time' section of sliding "
                        "windows compared with --reference (as 'binmetrics monitor')")
    p.add_argument("--reference", metavar="START:END",
                   help="with --time: the reference period, both days included")
    p.add_argument("--window", default="7D", help="with --time: the window length "
                                                  "(default: %(default)s)")
    p.add_argument("--step", default="1D", help="with --time: the step between windows "
                                                "(default: %(default)s)")
    p.add_argument("--time-measures", metavar="IDS", default="auc",
                   help="with --time: comma-separated measure ids shown over time "
                        "(default: %(default)s)")


def time_columns(args: argparse.Namespace, scores: list[str]) -> list[str]:
    """The time column to read (checked with the other options, before any data)."""
    if args.time is None:
        if args.reference is not None:
            raise CLIError("--reference needs --time COL (the column of times)")
        return []
    if args.reference is None:
        raise CLIError("--time needs --reference START:END, e.g. 2026-01-01:2026-03-31")
    parse_reference(args.reference)
    if len(scores) > 1 or args.model_col is not None:
        raise CLIError("--time shows one model over time: give one --score column and no "
                       "--model-col")
    return [args.time]


def monitor_for_report(args: argparse.Namespace, df: pd.DataFrame, score: str,
                       pos_label: Any) -> Any:
    """The monitor of the report's rows (None without --time)."""
    if args.time is None:
        return None
    from binmetrics.engines.monitoring import monitor

    measures = [m.strip() for m in args.time_measures.split(",") if m.strip()]
    if not measures:
        raise CLIError("--time-measures is empty; give measure ids, e.g. auc,recall")
    ci = bool(getattr(args, "ci", False))
    try:
        return monitor(df, label=args.label, score=score, time=args.time,
                       weight=getattr(args, "weight", None),
                       reference=parse_reference(args.reference), window=args.window,
                       step=args.step, measures=measures, threshold=args.threshold,
                       pos_label=pos_label, nan_policy=args.nan_policy, ci=ci,
                       level=args.ci_level, n_resamples=args.resamples,
                       random_state=args.seed,
                       higher_is_positive=not args.lower_is_positive)
    except (ValueError, TypeError) as exc:  # the library's words in the CLI's terms
        raise CLIError(cli_message(one_line(exc))) from None
