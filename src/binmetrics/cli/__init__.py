"""The ``binmetrics`` command: one module per subcommand over shared helpers."""

from binmetrics.cli.app import main

__all__ = ["main"]
