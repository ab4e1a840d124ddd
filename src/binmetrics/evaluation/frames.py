"""Frames that do not live in memory (a Polars LazyFrame, a Dask DataFrame), handed by
:func:`binmetrics.evaluate` and :func:`binmetrics.evaluate_by` to the engine that builds
their count table where the data is.

The engines sit above this layer (:mod:`binmetrics.engines`); they declare themselves
here with :func:`register_frame_engine` when that package is imported, and the package's
root makes sure it is imported the first time a frame of a library with an engine
arrives (:func:`set_engine_loader`), so that ``bm.evaluate(lazy_frame, ...)`` works in a
fresh session without importing the engines (and pandas) for in-memory data.

Examples
--------
>>> from binmetrics.evaluation.frames import frame_engine
>>> frame_engine([1, 0]) is None   # in memory: no engine
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["FrameEngine", "frame_engine", "register_frame_engine", "set_engine_loader"]


@dataclass(frozen=True)
class FrameEngine:
    """An engine evaluating one library's frames where they are.

    Attributes
    ----------
    name : the engine ("polars", "dask"); also the top-level module of its frames.
    matches : ``matches(data, engine_options)``: whether it takes this frame (a Polars
        DataFrame stays in memory unless it needs ``decimals=`` / ``bins=``).
    evaluate : ``evaluate(data, *, label, score, weight, by, **options)``, as
        :func:`binmetrics.engines.evaluate_file`.
    """

    name: str
    matches: Callable[[Any, dict[str, Any]], bool]
    evaluate: Callable[..., Any]


_ENGINES: dict[str, FrameEngine] = {}
_LOADER: list[Callable[[], None]] = []
#: the libraries whose frames may need an engine (their type's top-level module)
LIBRARIES = ("polars", "dask")


def register_frame_engine(engine: FrameEngine) -> FrameEngine:
    """Declare the engine of one library's frames (its name must be new)."""
    if engine.name in _ENGINES:
        raise RuntimeError(f"frame engine {engine.name!r} is declared twice")
    _ENGINES[engine.name] = engine
    return engine


def set_engine_loader(load: Callable[[], None]) -> None:
    """``load()`` declares the engines (imports :mod:`binmetrics.engines`): called the
    first time a frame of one of :data:`LIBRARIES` is given."""
    _LOADER[:] = [load]


def frame_engine(data: Any, engine_options: dict[str, Any] | None = None
                 ) -> FrameEngine | None:
    """The engine that evaluates ``data``, or None (in memory)."""
    library = type(data).__module__.split(".")[0]
    if library not in LIBRARIES:
        return None
    if library not in _ENGINES and _LOADER:
        _LOADER[0]()
    engine = _ENGINES.get(library)
    if engine is None or not engine.matches(data, dict(engine_options or {})):
        return None
    return engine


def no_engine_options(engine_options: dict[str, Any], what: str) -> None:
    """In-memory data takes no engine option: a TypeError naming them."""
    if engine_options:
        names = ", ".join(f"{k}=" for k in sorted(engine_options))
        raise TypeError(f"{what} got {names}: these options are for a Polars LazyFrame or a "
                        "Dask DataFrame (the engines); for in-memory arrays bin the scores "
                        "with binmetrics.engines.binned_table")
