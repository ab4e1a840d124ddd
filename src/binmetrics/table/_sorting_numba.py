"""The compiled loops of a weighted table's sort (numba, the ``fast`` extra): each case's
weight carried to its score's place in the descending order without an argsort.

NumPy's argsort of float64 is several times slower than its sort (0.6 s against 0.09 s
at 1e7 on an AVX-512 Xeon, whose sort kernels it uses for the values but not for the
permutation). So the order is taken from a sort of 64-bit integers instead, each
holding a case's row number in its low bits and the top bits of its score's rank key
above them (:func:`packed_order`; NumPy sorts them as fast as floats). The weights and
labels are then read in that order (:func:`weights_in_order`), and where two cases
share the packed key's score bits but not their scores (the key keeps about 40 bits of
the scores' span) their weights are put in the scores' order by a stable sort of that
run alone. Within a tied score the cases stay in row order, so a tied group adds its
weights in the order the rows came.

Reached only through :func:`binmetrics.table.sorting.weighted_rows`, for at least
:data:`~binmetrics.backends.COMPILED_TABLE_ROWS` rows.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from binmetrics.backends import inline, jit

__all__ = ["index_bits", "packed_order", "weights_in_order"]

_SIGN = np.uint64(1) << np.uint64(63)
_ALL = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
#: runs of at most this many cases are sorted again in place (scores chosen to make
#: every run need it took 4x an argsort with a sort and copies per run)
_SMALL_RUN = 32


def index_bits(n: int) -> int:
    """The low bits of a packed key that hold a row number below ``n``."""
    return max(1, (n - 1).bit_length())


@inline
def _descending_key(x: float, u: Any) -> Any:  # pragma: no cover - compiled
    """An unsigned key that sorts ascending as the scores sort descending (``u`` the bits
    of ``x``; +0.0 and -0.0 one key)."""
    if x == 0.0:
        return ~_SIGN
    if u & _SIGN:
        return u
    return ~(u | _SIGN)


@jit
def packed_order(s: Any, bits: int, out: Any) -> int:  # pragma: no cover - compiled
    """``out[i]``: the top ``64 - bits`` bits of row i's key above the scores' lowest
    key, shifted left by ``bits``, with i in the low ``bits`` bits. Returns the number
    of the key's low bits left out (0 when the scores' span fits)."""
    n = s.shape[0]
    u = s.view(np.uint64)
    lo = _ALL
    hi = np.uint64(0)
    for i in range(n):
        k = _descending_key(s[i], u[i])
        out[i] = k
        lo = min(lo, k)
        hi = max(hi, k)
    span = hi - lo if n else np.uint64(0)
    dropped = 0
    room = np.uint64(64 - bits)
    while dropped < 64 and (span >> np.uint64(dropped)) >> room:
        dropped += 1
    shift = np.uint64(dropped)
    b = np.uint64(bits)
    for i in range(n):
        out[i] = (((out[i] - lo) >> shift) << b) | np.uint64(i)
    return dropped


@jit
def weights_in_order(packed: Any, bits: int, s: Any, y: Any, w: Any, keys: Any,
                     wy: Any, wn: Any) -> int:  # pragma: no cover - compiled
    """Each case's weight at its place in the sorted ``packed`` keys: ``wy`` the
    positives' (0 for a negative), ``wn`` the negatives'. ``keys`` are the negated
    scores sorted ascending (np.sort, the table's scores). A run of packed keys with
    equal score bits whose ``keys`` differ has its weights sorted by score, stably.
    Returns the number of runs so sorted."""
    n = packed.shape[0]
    b = np.uint64(bits)
    mask = (np.uint64(1) << b) - np.uint64(1)
    for j in range(n):
        i = packed[j] & mask
        v = w[i] + 0.0  # a weight of -0.0 counts as 0.0, with no sign
        if y[i]:
            wy[j] = v
            wn[j] = 0.0
        else:
            wy[j] = 0.0
            wn[j] = v
    fixed = 0
    own = np.empty(_SMALL_RUN)
    a = 0
    while a < n:
        top = packed[a] >> b
        e = a + 1
        while e < n and packed[e] >> b == top:
            e += 1
        if keys[a] != keys[e - 1]:
            m = e - a
            if m > own.shape[0]:
                own = np.empty(m)
            for t in range(m):
                own[t] = -s[packed[a + t] & mask]
            if m <= _SMALL_RUN:  # in place, no allocation: adversarial scores make many
                _insertion_sort(own, m, wy[a:e], wn[a:e])
            else:
                order = np.argsort(own[:m], kind="mergesort")
                py = wy[a:e].copy()
                pn = wn[a:e].copy()
                for t in range(m):
                    wy[a + t] = py[order[t]]
                    wn[a + t] = pn[order[t]]
            fixed += 1
        a = e
    return fixed


@inline
def _insertion_sort(k: Any, m: int, u: Any, v: Any) -> None:  # pragma: no cover - compiled
    """Sort ``k[:m]`` ascending, stably, moving ``u`` and ``v`` with it."""
    for t in range(1, m):
        x, xu, xv = k[t], u[t], v[t]
        j = t - 1
        while j >= 0 and k[j] > x:
            k[j + 1], u[j + 1], v[j + 1] = k[j], u[j], v[j]
            j -= 1
        k[j + 1], u[j + 1], v[j + 1] = x, xu, xv
