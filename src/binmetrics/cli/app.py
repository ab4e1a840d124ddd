"""The ``binmetrics`` command line: the entry point that wires the subcommands.

Each subcommand lives in its own module (:mod:`~binmetrics.cli.evaluate`,
:mod:`~binmetrics.cli.measures`, :mod:`~binmetrics.cli.compare`, :mod:`~binmetrics.cli.srd`,
:mod:`~binmetrics.cli.ranks`, :mod:`~binmetrics.cli.report`) over the shared helpers of
:mod:`binmetrics.cli.common`, and registers itself with one
``add_<name>_parser(subparsers)``. Every measure, its family, direction and source
come from the registry; the CLI keeps no list of its own. Errors print
``binmetrics: error: <message>`` on stderr and exit with status 2, writing nothing
to stdout or to ``--output``.
"""

from __future__ import annotations

import _thread
import argparse
import importlib
import os
import signal
import sys
import threading
import warnings
from collections.abc import Callable
from typing import Any

from binmetrics.cli.commands import COMMANDS
from binmetrics.cli.common import (
    PROG,
    CLIError,
    Columns,
    check_options,
    check_outputs,
    check_text_inputs,
    cli_message,
    help_formatter,
    missing_package,
    one_line,
    text_problem,
)
from binmetrics.exceptions import BinmetricsWarning, MeasureCaveatWarning
from binmetrics.io import write_text
from binmetrics.package import __version__

__all__ = ["build_parser", "main"]

MAIN_EPILOG = f"""\
examples:
  {PROG} evaluate --example screening
  {PROG} evaluate scores.csv --label y --score p --threshold 0.3
  {PROG} measures --family ranking
  {PROG} compare preds.csv --label y --score p_lr,p_gb
  {PROG} srd table.csv --reference best --cv 7 --plot srd.png
  {PROG} ranks auc_by_dataset.csv --posthoc nemenyi --plot cd.png
  {PROG} report preds.csv --label y --score p1,p2 -o report.html

Run '{PROG} COMMAND --help' for the options of a command.
"""


#: build_parser(): every subcommand complete
ALL = "all"


def build_parser(command: str | None = ALL) -> argparse.ArgumentParser:
    """The argument parser of the ``binmetrics`` command.

    ``command``: the subcommand to build completely (default: all of them); the others
    are listed (name and one-line help) without their options, so that
    ``binmetrics --help`` and a command line import only what they run.

    Each subcommand sets the defaults ``handler`` (``handler(args, cols) -> str``, the
    text to print or write) and ``subparser``, and optionally ``prepare``
    (``prepare(args) -> Columns | None``: checks argparse cannot express, and the
    columns that the library's messages are translated to) and ``check``
    (``check(args) -> None``: the command's own option values, checked with the shared
    ones by :func:`~binmetrics.cli.common.check_options` before any data is read).
    """
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Evaluate binary classifiers: every performance measure from one "
                    "count table.",
        epilog=MAIN_EPILOG,
        formatter_class=help_formatter,
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for c in COMMANDS:
        if command in (ALL, c.name):
            add = getattr(importlib.import_module(c.module), f"add_{c.name}_parser")
            add(sub)
        else:
            sub.add_parser(c.name, help=c.help)
    return parser


_BUILD_PARSER = build_parser


def _parser_for(argv: list[str] | None) -> argparse.ArgumentParser:
    """The parser with only the subcommand of ``argv`` complete (the top-level options
    take no values, so the command is the first word that is not an option)."""
    if build_parser is not _BUILD_PARSER:  # replaced (the tests of a new command)
        return build_parser()
    words = sys.argv[1:] if argv is None else argv
    names = {c.name for c in COMMANDS}
    first = next((w for w in words if not w.startswith("-")), None)
    return build_parser(first if first in names else None)


def _show_warnings(caught: list[warnings.WarningMessage], cols: Columns | None) -> None:
    """Each warning once; a measure's caveat once, however many evaluations it came from
    (the overall and the calibrated values, each group)."""
    seen: set[str] = set()
    for w in caught:
        msg = cli_message(" ".join(str(w.message).split()), cols)
        key = (msg.split(":", 1)[0] if issubclass(w.category, MeasureCaveatWarning)
               else msg)
        if key not in seen:
            seen.add(key)
            print(f"warning: {msg}", file=sys.stderr)


#: binmetrics' own warnings: the CLI prints them ("warning: ..."), whatever the filters
OWN_WARNINGS = (BinmetricsWarning,)


def _keep_errors(filters: list[Any]) -> None:
    """Put back, ahead of "always", the filters of the caller that turn warnings into
    errors (``python -W error::DeprecationWarning``, a test run's): the CLI prints the
    warnings it records, and would otherwise print those too. Filters after a catch-all
    one (``warnings.simplefilter("ignore")`` of a caller silencing everything) never
    apply, so they are not put back; nor are those of binmetrics' own warnings (an
    undefined measure, a caveat), which the CLI reports as part of its output."""
    live = []
    for f in filters:  # the first match wins: past a catch-all filter, none applies
        live.append(f)
        action, message, category, module, lineno = f
        if (category is Warning and message is None and module is None and not lineno
                and action != "error"):
            break
    for action, message, category, module, lineno in reversed(live):
        if action == "error" and not issubclass(category, OWN_WARNINGS):
            warnings.filterwarnings("error", message.pattern if message else "", category,
                                    module.pattern if module else "", lineno)


def _exit_code(code: Any) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Python can act on it (DuckDB polls for signals during a
    query and stops it, as for Ctrl-C), so that every cleanup runs."""


#: set by SIGTERM: whatever the exception it ends in (DuckDB turns it into its own
#: "Query interrupted" error), the command was terminated
_signalled: list[int] = []


def _on_sigterm(signum: int, frame: Any) -> None:
    _signalled.append(signum)
    raise _Terminated


class _RaiseAgain:
    """A ``sys.unraisablehook`` for the command's run: SIGTERM's or Ctrl-C's exception
    raised inside a finaliser (``__del__``, e.g. numba's while it loads its compiled
    loops) is ignored by Python, and the command would run on; the signal's Python
    handler is called again a moment later (``_thread.interrupt_main``, from a timer:
    called from the hook it would raise there, and be ignored again), once the
    finaliser has returned. No signal is sent: a handler set back to the default or to
    ignore by then is not called at all. :meth:`stop` cancels what is pending when the
    command ends first; ``interrupted`` holds the Ctrl-Cs so swallowed. Anything else
    goes to the hook before it."""

    def __init__(self, hook: Callable[[Any], None]) -> None:
        self.hook = hook
        self.interrupted: list[signal.Signals] = []
        self._pending: list[threading.Timer] = []
        self._lock = threading.Lock()

    def __call__(self, u: Any) -> None:
        if not isinstance(u.exc_value, KeyboardInterrupt):  # _Terminated is one too
            self.hook(u)
            return
        if isinstance(u.exc_value, _Terminated):
            sig = signal.SIGTERM  # _signalled has it already
        else:
            sig = signal.SIGINT
            self.interrupted.append(sig)
        timer = threading.Timer(0.01, self._again, (sig,))
        timer.daemon = True
        with self._lock:
            self._pending.append(timer)
        timer.start()

    def _again(self, sig: signal.Signals) -> None:
        with self._lock:  # stop() empties the list under the lock
            if self._pending:
                _thread.interrupt_main(sig)

    def stop(self) -> None:
        with self._lock:
            for timer in self._pending:
                timer.cancel()
            self._pending.clear()


def main(argv: list[str] | None = None) -> int:
    """Run the ``binmetrics`` command; returns the exit status (0 ok, 2 error, 130
    interrupted by Ctrl-C: ``binmetrics: interrupted``; 143 stopped by SIGTERM:
    ``binmetrics: terminated``; either way no output written and the temporary files,
    DuckDB's spill folder among them, removed)."""
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _on_sigterm) if main_thread else None
    hook = sys.unraisablehook
    ours = _RaiseAgain(hook)
    if main_thread:
        sys.unraisablehook = ours
    _signalled.clear()
    try:
        code = _main(argv)
        if _signalled:  # reported by the engine as its own error
            print(f"{PROG}: terminated", file=sys.stderr)
            return 128 + signal.SIGTERM
        if ours.interrupted:  # swallowed by a finaliser, and the command ended first
            print(f"{PROG}: interrupted", file=sys.stderr)
            return 130
        return code
    except BaseException as exc:
        if _signalled:  # the cleanups have run on the way out
            print(f"\n{PROG}: terminated", file=sys.stderr)
            return 128 + signal.SIGTERM
        if isinstance(exc, KeyboardInterrupt):
            print(f"\n{PROG}: interrupted", file=sys.stderr)
            return 130
        raise
    finally:
        ours.stop()  # nothing raised in the caller once the command is over
        if main_thread:  # None: a handler not set from Python, i.e. the default
            signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)
            sys.unraisablehook = hook


def _main(argv: list[str] | None) -> int:
    parser = _parser_for(argv)  # the module global build_parser: tests may replace it
    try:
        args = parser.parse_args(argv)
        prepare: Callable[[argparse.Namespace], Columns | None] | None = getattr(
            args, "prepare", None)
        cols = prepare(args) if prepare is not None else None
    except SystemExit as exc:  # --help, --version and usage errors
        return _exit_code(exc.code)

    handler: Callable[[argparse.Namespace, Any], str] = args.handler
    callers = list(warnings.filters)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _keep_errors(callers)
        try:
            inputs = check_outputs(args)  # before any work; never over an input or another
            check_options(args)  # before any data is read
            check_text_inputs(args)  # the same message for the same file, every engine
            text = handler(args, cols)
            if args.output is not None:
                write_text(args.output, text, inputs)
            else:
                sys.stdout.write(text)
                sys.stdout.flush()
        except BrokenPipeError:  # e.g. `binmetrics measures | head`
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return 1
        except RecursionError:  # an input nested past Python's stack: say so, on one line
            _show_warnings(caught, cols)
            print(f"{PROG}: error: an input is nested too deeply to be processed (past "
                  f"Python's recursion limit of {sys.getrecursionlimit()}); simplify it",
                  file=sys.stderr)
            return 2
        except ImportError as exc:  # an optional package missing: name its extra
            _show_warnings(caught, cols)
            print(f"{PROG}: error: {missing_package(exc, args.command)}", file=sys.stderr)
            return 2
        except (CLIError, ValueError, TypeError, KeyError, OSError, Warning) as exc:
            _show_warnings(caught, cols)
            msg = one_line(exc)
            if not isinstance(exc, CLIError):  # the library's words -> the CLI's
                msg = cli_message(msg, cols)
            if isinstance(exc, Warning):  # made an error by the caller (_keep_errors)
                msg = f"{msg} ({type(exc).__name__}, an error under the warning filters)"
            cause = text_problem(args) if not isinstance(exc, OSError) else None
            if cause is not None:  # the cause, whatever the engine made of it
                msg = cause
            print(f"{PROG}: error: {msg}", file=sys.stderr)
            return 2
    _show_warnings(caught, cols)
    return int(getattr(args, "exit_status", 0))  # `check`: 1 when a requirement fails


if __name__ == "__main__":
    raise SystemExit(main())
