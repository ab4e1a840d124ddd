"""Progress bars for long resampling, refitting and studies: tqdm when it is
installed, rich's otherwise, on stderr."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO


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


def progress_bar(total: int, desc: str, enabled: bool) -> Any:
    if not enabled:
        return _NoBar()
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return _RichBar(total, desc)
    return tqdm(total=total, desc=desc, file=sys.stderr)



def as_callback(progress: Any, desc: str) -> Callable[[int, int], None] | None:
    """A ``progress(done, total)`` callback from what a user passed: a callable is used
    as it is, True draws a bar (opened at the first call, closed at the last), and
    False or None draw nothing."""
    if progress is None or progress is False:
        return None
    if callable(progress):
        return progress
    if progress is not True:
        raise TypeError(f"progress must be True, False, None or a callable(done, total); "
                        f"got {progress!r}")
    state: dict[str, Any] = {}

    def draw(done: int, total: int) -> None:
        bar = state.get("bar")
        if bar is None:
            bar = state["bar"] = progress_bar(total, desc, True)
            state["done"] = 0
        bar.update(done - state["done"])
        state["done"] = done
        if done >= total:
            bar.close()

    return draw
