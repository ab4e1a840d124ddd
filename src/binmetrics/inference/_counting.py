"""Counting the draws of bootstrap replicates: the one loop of resampling that NumPy runs
holding the GIL.

A replicate of a table with distinct scores draws as many cases as the table has rows
(:class:`~binmetrics.inference._replicates._BootstrapSampler`) and counts them per cell.
``np.random.Generator.integers`` releases the GIL, so replicate streams draw in
parallel threads; ``np.bincount`` does not, so with NumPy alone the counting runs one
thread at a time (measured at 1e6 rows: 4.9 ms per replicate in one thread, 9.9 ms for
two replicates in two). With the optional ``numba`` package (``pip install
'binmetrics[fast]'``) the same loops are compiled once, cached on disk, and run without
the GIL, so both cores count. They count replicates of 20,000 draws or more
(:data:`COMPILED_ROWS`, where the streams start running in threads); below that numba
is not even imported.

Counting is whole-number arithmetic: the compiled loops and their NumPy fallbacks give
the same integers, so intervals do not depend on whether numba is installed (tested).
``BINMETRICS_COMPILED=0`` in the environment, or :func:`use_compiled` (tests), keeps
NumPy.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.backends import THREAD_ROWS

__all__ = ["compiled_kernels", "count_rows", "cumulative_counts", "nonempty_groups",
           "use_compiled"]

#: the environment variable that, set to "0", keeps NumPy
ENV = "BINMETRICS_COMPILED"

#: below this many draws the compiled kernels are not used (nor numba imported, 0.4 s):
#: the counting is then a small part of a bootstrap, and runs in one thread anyway
#: (:data:`binmetrics.backends.THREAD_ROWS`)
COMPILED_ROWS = THREAD_ROWS

# enabled: None: by size (COMPILED_ROWS), True: always (tests), False: never
_state: dict[str, Any] = {"enabled": None, "kernels": None, "tried": False}


def _build() -> Any:
    """The compiled kernels (:mod:`._counting_numba`), or None when numba cannot be
    imported (not installed, or built for another NumPy)."""
    try:
        from binmetrics.inference import _counting_numba
    except Exception:  # any failure to import (absent, built for another NumPy): NumPy
        return None
    return _counting_numba


def compiled_kernels(rows: int) -> Any:
    """The compiled kernels for counting ``rows`` draws, when numba is importable, not
    switched off, and ``rows`` reaches :data:`COMPILED_ROWS`; else None. Call it in the
    thread that starts the work: the first call imports numba."""
    enabled = _state["enabled"]
    if enabled is False or os.environ.get(ENV, "1") == "0":
        return None
    if enabled is None and rows < COMPILED_ROWS:
        return None
    if not _state["tried"]:
        _state["kernels"] = _build()
        _state["tried"] = True
    return _state["kernels"]


@contextlib.contextmanager
def use_compiled(enabled: bool | None) -> Iterator[None]:
    """Switch the compiled kernels on (whatever the size) or off inside the block, or
    back to choosing by size with None (for tests and benchmarks).

    Examples
    --------
    >>> with use_compiled(False):
    ...     count_rows(np.array([[0, 2, 2]]), 3).tolist()
    [[1, 0, 2]]
    """
    before = _state["enabled"]
    _state["enabled"] = enabled
    try:
        yield
    finally:
        _state["enabled"] = before


def count_rows(keys: npt.NDArray[Any], width: int,
               lookup: npt.NDArray[Any] | None = None) -> npt.NDArray[np.int64]:
    """Row-wise counts of a (b, d) matrix of keys in [0, width) (of ``lookup[keys]``):
    ``out[i] = np.bincount(keys[i], minlength=width)``.

    Examples
    --------
    >>> count_rows(np.array([[0, 2, 2], [1, 1, 0]]), 3).tolist()
    [[1, 0, 2], [1, 2, 0]]
    >>> count_rows(np.array([[0, 1, 1]]), 2, lookup=np.array([1, 0])).tolist()
    [[2, 1]]
    """
    keys = np.asarray(keys)
    out = np.zeros((keys.shape[0], width), dtype=np.int64)
    k = compiled_kernels(keys.size)
    if k is not None and keys.size:
        if lookup is None:
            k.count(keys, np.zeros(width, dtype=np.uint16), out)
        else:
            k.count_lookup(keys, np.asarray(lookup), out)
        return out
    # one row at a time: a row's counts stay in cache, which a single bincount of the
    # offset keys of all rows does not (it is about twice as slow)
    for i in range(keys.shape[0]):
        out[i] = np.bincount(keys[i] if lookup is None else lookup[keys[i]], minlength=width)
    return out


def cumulative_counts(keys: npt.NDArray[Any], n_units: int,
                      run: npt.NDArray[Any] | None = None, width: int | None = None,
                      out: npt.NDArray[Any] | None = None) -> npt.NDArray[Any]:
    """Row-wise cumulative counts over runs of units: ``out[i, k]`` is the number of
    keys of row ``i`` (units in [0, n_units)) whose unit's run ``run[u]`` is at most
    ``k``, for ``k < width`` (default: each unit its own run, ``width = n_units``); that
    is ``np.cumsum(count_rows(keys, width, run), axis=1)``. ``run`` never decreases along
    the units. Written into ``out`` (a (b, width) array of any numeric dtype, possibly a
    strided view); compiled, no table of counts per run is built.

    Examples
    --------
    >>> cumulative_counts(np.array([[0, 2, 2]]), 3).tolist()
    [[1, 1, 3]]
    >>> cumulative_counts(np.array([[0, 2, 2]]), 3, run=np.array([0, 2, 2]), width=4).tolist()
    [[1, 1, 3, 3]]
    """
    keys = np.asarray(keys)
    if run is None:
        run = np.arange(n_units, dtype=np.int32 if n_units < 2**31 else np.intp)
    width = n_units if width is None else width
    if out is None:
        out = np.empty((keys.shape[0], width), dtype=np.int64)
    k = compiled_kernels(keys.size)
    if k is not None and keys.size:
        k.cumulate(keys, np.asarray(run), np.zeros(n_units, dtype=np.uint16),
                   np.zeros(width, dtype=np.int64), out)
        return out
    np.cumsum(count_rows(keys, width, run), axis=1, out=out)
    return out


def nonempty_groups(c_pos: npt.NDArray[Any], c_neg: npt.NDArray[Any],
                    pos_cell: npt.NDArray[Any], neg_cell: npt.NDArray[Any]
                    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[Any], npt.NDArray[Any]]:
    """One replicate's groups that hold cases: their indices and their positive and
    negative counts, from the counts of its positive cells ``c_pos`` and negative cells
    ``c_neg`` and each group's cell in them (-1: none). The replicate's count table in one
    pass, without the two group-wide count arrays.

    Examples
    --------
    >>> keep, p, n = nonempty_groups(np.array([2, 0]), np.array([1, 0]),
    ...                              np.array([0, -1, 1]), np.array([-1, 0, 1]))
    >>> keep.tolist(), p.tolist(), n.tolist()
    ([0, 1], [2, 0], [0, 1])
    """
    k = compiled_kernels(pos_cell.shape[0])
    if k is not None:
        size = pos_cell.shape[0]
        # a class without cells: one zero to read (every group's cell index is -1)
        c_pos = c_pos if c_pos.size else np.zeros(1, dtype=c_pos.dtype)
        c_neg = c_neg if c_neg.size else np.zeros(1, dtype=c_neg.dtype)
        keep = np.empty(size, dtype=np.intp)
        p_out = np.empty(size, dtype=c_pos.dtype)
        n_out = np.empty(size, dtype=c_neg.dtype)
        m = k.nonempty_groups(c_pos, c_neg, pos_cell, neg_cell, keep, p_out, n_out)
        return keep[:m], p_out[:m], n_out[:m]
    p = np.where(pos_cell >= 0, c_pos[np.maximum(pos_cell, 0)], 0) if c_pos.size else \
        np.zeros(pos_cell.shape[0], dtype=c_pos.dtype)
    n = np.where(neg_cell >= 0, c_neg[np.maximum(neg_cell, 0)], 0) if c_neg.size else \
        np.zeros(neg_cell.shape[0], dtype=c_neg.dtype)
    keep = np.flatnonzero((p + n) > 0)
    return keep, p.take(keep), n.take(keep)
