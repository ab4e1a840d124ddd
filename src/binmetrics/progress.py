"""Progress of long resampling, refitting and studies, on stderr: on a terminal a bar
(tqdm when it is installed, rich's otherwise); anywhere else (a notebook, a log file, CI,
``nohup``) a line every few seconds with the share done and the time left.

``progress=`` takes True (always report), ``"auto"`` (report work that lasts more than
a couple of seconds), ``"interactive"`` (as "auto" on a terminal or in a notebook, nothing
elsewhere: the default of the Python methods that resample), False/None/``"never"``
(nothing) or a ``callable(done, total)``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

__all__ = ["LogLines", "as_callback", "interactive", "progress_bar"]

#: seconds between two progress lines off a terminal
EVERY = 5.0
#: with "auto", work shorter than this stays silent
QUIET_FOR = 2.0


def _duration(seconds: float) -> str:
    """A duration as 0.4s, 42s, 3m05s or 1h02m."""
    if seconds < 10:
        return f"{seconds:.1f}s"
    s = round(seconds)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


class LogLines:
    """Progress as lines, for a stderr that is not a terminal: the share done, the time
    spent and the time left, every ``every`` seconds (after ``quiet_for`` seconds), and
    a last line when the work ends (if any line was written).

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> bar = LogLines(4, "bootstrap", file=out, every=0.0)
    >>> for _ in range(4):
    ...     bar.update()
    >>> bar.close()
    >>> out.getvalue().splitlines()[-1].startswith("bootstrap: 4/4 (100%) done in")
    True
    """

    def __init__(self, total: int, desc: str, file: TextIO | None = None, *,
                 every: float = EVERY, quiet_for: float = 0.0) -> None:
        self.total, self.desc = max(int(total), 0), desc
        self.file = file if file is not None else sys.stderr
        self.every, self.quiet_for = every, quiet_for
        self.done = 0
        self.start = time.monotonic()
        self.last = self.start - every if quiet_for == 0.0 else self.start
        self.wrote = False

    def _line(self, text: str) -> None:
        print(text, file=self.file, flush=True)
        self.wrote = True

    def update(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if now - self.start < self.quiet_for or now - self.last < self.every:
            return
        self.last = now
        spent = now - self.start
        share = self.done / self.total if self.total else 1.0
        left = spent * (1 - share) / share if share > 0 else float("nan")
        eta = "unknown" if left != left or share < 0.01 else f"~{_duration(left)}"
        self._line(f"{self.desc}: {self.done}/{self.total} ({100 * share:.0f}%), "
                   f"{_duration(spent)} elapsed, {eta} left")

    def close(self) -> None:
        if self.wrote:
            self._line(f"{self.desc}: {self.done}/{self.total} "
                       f"({100 * self.done / max(self.total, 1):.0f}%) done in "
                       f"{_duration(time.monotonic() - self.start)}")


class _RichBar:
    """A rich progress bar on stderr (a terminal gets it animated; a log or a pipe
    gets the final line): description, bar, done/total, elapsed and remaining time."""

    def __init__(self, total: int, desc: str, file: TextIO | None = None) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        console = Console(file=file if file is not None else sys.stderr)
        self._progress = Progress(TextColumn("{task.description}"), BarColumn(),
                                  MofNCompleteColumn(), TimeElapsedColumn(),
                                  TimeRemainingColumn(), console=console)
        self._task = self._progress.add_task(desc, total=total)
        self._progress.start()

    def update(self, n: int = 1) -> None:
        self._progress.advance(self._task, n)

    def close(self) -> None:
        self._progress.stop()


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def _in_notebook() -> bool:
    """True inside a Jupyter (IPython kernel) session."""
    shell = sys.modules.get("IPython")
    get = getattr(shell, "get_ipython", None)
    ip = get() if callable(get) else None
    return ip is not None and type(ip).__name__ == "ZMQInteractiveShell"


def interactive() -> bool:
    """True when someone watches: stderr is a terminal, or this is a notebook."""
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(callable(isatty) and isatty()) or _in_notebook()


def _mode(progress: Any) -> str:
    """"always", "auto" or "never" from what a user passed."""
    if progress is None or progress is False or progress == "never":
        return "never"
    if progress is True or progress == "always":
        return "always"
    if progress == "auto":
        return "auto"
    if isinstance(progress, str) and progress == "interactive":
        return "auto" if interactive() else "never"
    raise TypeError(f"progress must be True, False, None, 'auto', 'interactive', 'always', "
                    f"'never' or a callable(done, total); got {progress!r}")


def progress_bar(total: int, desc: str, enabled: Any) -> Any:
    """A progress reporter with ``update(n)`` and ``close()``: nothing when ``enabled`` is
    False/None/"never"; on a terminal a bar; elsewhere :class:`LogLines` ("auto" stays
    silent for work shorter than a couple of seconds)."""
    mode = _mode(enabled)
    if mode == "never":
        return _NoBar()
    if not sys.stderr.isatty() and not _in_notebook():
        return LogLines(total, desc, quiet_for=QUIET_FOR if mode == "auto" else 0.0)
    try:
        from tqdm.auto import tqdm  # a widget in a notebook
    except ImportError:
        return _RichBar(total, desc)
    return tqdm(total=total, desc=desc, file=sys.stderr)



def as_callback(progress: Any, desc: str) -> Callable[[int, int], None] | None:
    """A ``progress(done, total)`` callback from what a user passed: a callable is used
    as it is; True (or "always", "auto") reports progress (:func:`progress_bar`, opened
    at the first call, closed at the last); False, None or "never" report nothing."""
    if callable(progress):
        return progress
    if _mode(progress) == "never":
        return None
    state: dict[str, Any] = {}

    def draw(done: int, total: int) -> None:
        bar = state.get("bar")
        if bar is None:
            bar = state["bar"] = progress_bar(total, desc, progress)
            state["done"] = 0
        bar.update(done - state["done"])
        state["done"] = done
        if done >= total:
            bar.close()

    return draw
