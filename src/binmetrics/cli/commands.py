"""The subcommands of the ``binmetrics`` command: name, module, one-line help.

Kept apart from the command modules, which import the library (pandas, scipy...):
``binmetrics --help`` lists the commands from here and imports none of them, and a
command line imports only the module of its command (issue 18: start-up).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["COMMANDS", "Command", "command_help"]


@dataclass(frozen=True)
class Command:
    name: str
    module: str  # binmetrics.cli.<module> defines add_<name>_parser(subparsers)
    help: str


#: in the order of the top-level help
COMMANDS: tuple[Command, ...] = (
    Command("evaluate", "binmetrics.cli.evaluate",
            "evaluate the scores in a CSV or Parquet file"),
    Command("measures", "binmetrics.cli.measures", "list the registered measures"),
    Command("compare", "binmetrics.cli.compare",
            "compare models scored on the same cases (DeLong, McNemar, paired bootstrap)"),
    Command("srd", "binmetrics.cli.srd",
            "rank the columns of a table by Sum of Ranking Differences (SRD)"),
    Command("ranks", "binmetrics.cli.ranks",
            "compare models over data sets: Friedman, post-hoc tests, CD diagram"),
    Command("report", "binmetrics.cli.report", "write a self-contained interactive HTML report"),
    Command("threshold", "binmetrics.cli.threshold",
            "choose the threshold to deploy: constraints, bootstrap, guarantee"),
    Command("power", "binmetrics.cli.power",
            "power and sample size of a ROC study (pROC's power.roc.test)"),
    Command("monitor", "binmetrics.cli.monitor",
            "measures over sliding time windows, tested against a reference period"),
    Command("check", "binmetrics.cli.check",
            "a CI gate: exit 1 when a requirement ('auc>=0.80') or non-inferiority fails"),
)


def command_help(name: str) -> str:
    """The one-line help of the subcommand ``name``."""
    return next(c.help for c in COMMANDS if c.name == name)
