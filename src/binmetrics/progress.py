"""Progress bars for long resampling and refitting: tqdm when it is installed, a
small text bar on stderr otherwise; never a hard dependency."""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO


class _TextBar:
    """A minimal progress bar on a text stream, redrawn at most ten times a second."""

    def __init__(self, total: int, desc: str, file: TextIO | None = None,
                 width: int = 30) -> None:
        self.total, self.desc, self.width = total, desc, width
        self.file = file if file is not None else sys.stderr
        self.n = 0
        self._start = time.monotonic()
        self._last = -math.inf
        self._draw()

    def _draw(self) -> None:
        frac = self.n / self.total if self.total else 1.0
        done = round(frac * self.width)
        elapsed = time.monotonic() - self._start
        self.file.write(f"\r{self.desc}: [{'#' * done}{'.' * (self.width - done)}] "
                        f"{self.n}/{self.total} ({elapsed:.1f} s)")
        self.file.flush()
        self._last = time.monotonic()

    def update(self, n: int = 1) -> None:
        self.n += n
        if self.n >= self.total or time.monotonic() - self._last >= 0.1:
            self._draw()

    def close(self) -> None:
        self._draw()
        self.file.write("\n")
        self.file.flush()


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
        return _TextBar(total, desc)
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
