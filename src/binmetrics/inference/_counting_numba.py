"""The compiled loops of :mod:`binmetrics.inference._counting` (numba, the ``fast`` extra).

Imported only by :func:`binmetrics.inference._counting.compiled_kernels`, and only when
numba can be imported: importing this module imports numba. The functions are at module
level so that numba's on-disk cache finds them again in a new process (a function built
inside another one, calling a third, is compiled again in every process).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

__all__ = ["count", "count16", "count_lookup", "cumulate", "nonempty_groups"]



@numba.njit(nogil=True, cache=True)
def count16(keys: Any, small: Any) -> bool:  # pragma: no cover - compiled
    # counts per unit in 16 bits stay in the core's cache where 64 bits do not (1e6
    # units: 2 MB against 8 MB); True when a unit is drawn 65,535 times: the caller
    # counts that row again in 64 bits
    small[:] = 0
    for j in range(keys.shape[0]):
        u = keys[j]
        v = small[u]
        if v == 65535:
            return True
        small[u] = v + 1
    return False


@numba.njit(nogil=True, cache=True)
def count(keys: Any, small: Any, out: Any) -> None:  # pragma: no cover - compiled
    for i in range(keys.shape[0]):
        row = out[i]
        if count16(keys[i], small):
            for j in range(keys.shape[1]):
                row[keys[i, j]] += 1
        else:
            for u in range(row.shape[0]):
                row[u] = small[u]


@numba.njit(nogil=True, cache=True)
def count_lookup(keys: Any, lookup: Any, out: Any) -> None:  # pragma: no cover
    for i in range(keys.shape[0]):
        row = out[i]
        for j in range(keys.shape[1]):
            row[lookup[keys[i, j]]] += 1


@numba.njit(nogil=True, cache=True)
def cumulate(keys: Any, run: Any, small: Any, per_run: Any,
             out: Any) -> None:  # pragma: no cover - compiled
    for i in range(keys.shape[0]):
        per_run[:] = 0
        if count16(keys[i], small):
            large = np.zeros(run.shape[0], dtype=np.int64)
            for j in range(keys.shape[1]):
                large[keys[i, j]] += 1
            for u in range(run.shape[0]):
                per_run[run[u]] += large[u]
        else:
            for u in range(run.shape[0]):  # the runs never decrease: a forward walk
                per_run[run[u]] += small[u]
        acc = 0
        for k in range(out.shape[1]):
            acc += per_run[k]
            out[i, k] = acc


@numba.njit(nogil=True, cache=True)
def nonempty_groups(c_pos: Any, c_neg: Any, pos_cell: Any, neg_cell: Any, keep: Any,
                    p_out: Any, n_out: Any) -> int:  # pragma: no cover - compiled
    # without branches: which groups are empty is random, and mispredicted branches
    # cost 14 ms per 1e6 groups against 3 ms; every group is written, kept or not
    k = 0
    for g in range(pos_cell.shape[0]):
        i, j = pos_cell[g], neg_cell[g]
        a = c_pos[max(i, 0)] * (i >= 0)
        b = c_neg[max(j, 0)] * (j >= 0)
        keep[k] = g
        p_out[k] = a
        n_out[k] = b
        k += (a + b) > 0
    return k
