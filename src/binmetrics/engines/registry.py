"""The engines that read files, declared once: the command line lists and runs them from
here, so adding an engine touches :mod:`binmetrics.engines` and nothing in the CLI.

An engine is opened on a file (or glob) with the columns to read and returns a job:
``job.labels()`` gives the label column's distinct values (to convert a ``--pos-label``
typed on the command line), ``job.evaluate(options, **by_options)`` the result, and
closing the job frees what it holds (a DuckDB connection, a Spark session it started).

Examples
--------
>>> from binmetrics.engines.registry import file_engines
>>> [e.name for e in file_engines()]
['dask', 'duckdb', 'polars', 'spark']
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

__all__ = ["EngineOption", "FileEngine", "file_engines", "get_engine", "register_engine"]


@dataclass(frozen=True)
class EngineOption:
    """A command-line option of one engine (``--master`` for Spark): the CLI adds it to
    ``binmetrics evaluate`` and passes its value to :attr:`FileEngine.open` as ``dest``.
    Giving it on the command line chooses the engine under ``--engine auto``."""

    flag: str
    dest: str
    help: str
    metavar: str | None = None


@dataclass(frozen=True)
class FileEngine:
    """An engine that evaluates files out of memory.

    Attributes
    ----------
    name : the ``--engine`` value; ``title`` its name in messages.
    package : the module it needs; ``extra`` the pip extra that installs it.
    summary : one line for the CLI's help.
    open : ``open(path, *, label, score, weight, by, where, **options) -> job``.
    auto : whether ``--engine auto`` picks it for globs, large files and ``--where``,
        ``--decimals``, ``--bins`` (the first installed such engine wins).
    options : its own command-line options.
    """

    name: str
    title: str
    package: str
    extra: str
    summary: str
    open: Callable[..., Any]
    auto: bool = False
    options: tuple[EngineOption, ...] = ()

    @property
    def installed(self) -> bool:
        return importlib.util.find_spec(self.package) is not None

    def missing(self, what: str) -> ImportError:
        """The error for using the engine without its package."""
        return ImportError(f"{what} needs {self.package}: pip install "
                           f"'binmetrics[{self.extra}]'")


_ENGINES: dict[str, FileEngine] = {}
ENGINES = MappingProxyType(_ENGINES)


def register_engine(engine: FileEngine) -> FileEngine:
    """Declare a file engine (its name must be new)."""
    if engine.name in _ENGINES or engine.name in ("auto", "numpy"):
        raise RuntimeError(f"engine {engine.name!r} is declared twice")
    _ENGINES[engine.name] = engine
    return engine


def file_engines() -> list[FileEngine]:
    """The declared file engines by name (the built-in ones are declared when
    :mod:`binmetrics.engines` is imported; the order of their imports varies, so the
    command line's lists and its choice under ``--engine auto`` do not follow it)."""
    return [_ENGINES[name] for name in sorted(_ENGINES)]


def get_engine(name: str) -> FileEngine:
    try:
        return _ENGINES[name]
    except KeyError:
        raise KeyError(f"unknown engine {name!r}; the engines: auto, numpy, "
                       f"{', '.join(_ENGINES)}") from None
