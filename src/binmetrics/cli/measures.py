"""``binmetrics measures``: the measures of the registry, with their family, direction,
prevalence dependence, parameters and source (the CLI keeps no list of its own)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from binmetrics.cli.commands import command_help
from binmetrics.cli.common import (
    DIRECTION,
    PROG,
    add_format_and_output,
    align,
    help_formatter,
)
from binmetrics.measures.registry import FAMILIES, measure_catalogue

__all__ = ["add_measures_parser", "run_measures"]

MEASURES_EPILOG = f"""\
examples:
  {PROG} measures
  {PROG} measures --family probabilistic --format csv
"""


def add_measures_parser(sub: Any) -> None:
    """Register the ``measures`` subcommand on the ``binmetrics`` parser."""
    ms = sub.add_parser(
        "measures",
        help=command_help("measures"),
        description="List the measures of the registry with their family, direction, "
                    "prevalence dependence (whether the value changes with the class "
                    "prior), parameters and source.",
        epilog=MEASURES_EPILOG,
        formatter_class=help_formatter,
    )
    ms.add_argument("--family", choices=FAMILIES, help="only the measures of one family")
    add_format_and_output(ms)
    ms.set_defaults(handler=run_measures, subparser=ms)


def run_measures(args: argparse.Namespace, cols: Any = None) -> str:
    """Run ``binmetrics measures``; returns the text to print or write."""
    frame = measure_catalogue(args.family)
    if args.format == "json":
        records = frame.to_dict(orient="records")
        return json.dumps(records, indent=2, allow_nan=False, default=str) + "\n"
    if args.format == "csv":
        return str(frame.to_csv(index=False, lineterminator="\n"))
    shown = ["id", "family", "direction", "prevalence", "parameters", "aliases"]
    body = [
        [str(r["id"]), str(r["family"]), DIRECTION.get(int(r["direction"]), ""),
         _PREVALENCE[r["prevalence_dependent"]], str(r["parameters"]), str(r["aliases"])]
        for r in frame.to_dict(orient="records")
    ]
    return align(shown, body, right=[])


#: the ``prevalence`` column: whether the measure changes with the class prior
_PREVALENCE = {True: "dependent", False: "independent", None: ""}
