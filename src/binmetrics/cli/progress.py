"""``--progress auto|always|never``: how the subcommands that run long work (intervals,
bootstraps, reports) report it on stderr (see :mod:`binmetrics.progress`)."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["add_progress_option", "progress_for"]


def add_progress_option(p: argparse.ArgumentParser) -> None:
    """Add ``--progress auto|always|never`` to a subcommand."""
    p.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                   help="progress of long work on stderr: a bar on a terminal, else a line "
                        "every few seconds with the share done and the time left; auto "
                        "stays silent for work of a couple of seconds (default: "
                        "%(default)s)")


def progress_for(args: argparse.Namespace) -> Any:
    """The library's ``progress=`` for the subcommand's ``--progress``."""
    return getattr(args, "progress", "auto")
