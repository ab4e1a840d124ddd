"""The sorts that build a count table: runs of equal scores, placing one sorted array
in another, and the weighted build's choice of sort.

A weighted table needs each case's weight carried to its score's place in the
descending order. Three ways do it; which is fastest depends on numba and on the NumPy
sort kernels of the CPU:

- with numba (the ``fast`` extra) and at least
  :data:`~binmetrics.backends.COMPILED_TABLE_ROWS` rows, one sort of 64-bit integers
  packing each row's number under the top bits of its score's rank key, the weights
  read in that order, and the scores sorted on their own
  (:mod:`binmetrics.table._sorting_numba`): NumPy sorts integers with the same SIMD
  kernels as floats, which its argsort does not reach;
- one sort of complex numbers ``-score + i (+-weight)`` (the sign of the imaginary part
  the label), which orders by score and carries the weights in one scalar sort;
- an argsort of the negated scores (NumPy's SIMD argsort, x86-simd-sort), the weights
  and labels gathered by it, and the scores sorted again on their own (np.sort of the
  same values gives ``keys[order]`` without a third gather).

Measured at n = 1e7: on a 2-core AMD EPYC with AVX2, the argsort took 2.2x np.sort and
the gathers 1.8x, the complex sort 1.8x (with 0.4x after it); on a 2-core Intel Xeon
with AVX-512, the argsort path 1.3-1.4 s and the complex sort path 2.2 s when first
measured; later, on a faster Xeon, the argsort path 0.9 s and the packed sort 0.4 s
(its integer sort 0.09 s, reading the weights in its order 0.2 s).
:func:`weighted_rows` takes the packed sort where it can, else the argsort where NumPy
sorts with AVX-512, else the complex sort. Within a tied score the three add the
weights in different orders (the packed sort in row order), so a tied group's sum may
differ in its last bit between them; distinct scores give equal tables (tested).
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import numpy.typing as npt

from binmetrics.backends import COMPILED_ENV, compiled, compiled_table

FloatArray = npt.NDArray[np.float64]

__all__ = ["argsort_is_fast", "group_starts", "positions", "runs", "weighted_rows"]


def _avx512() -> bool:
    try:  # NumPy's table of the CPU features its kernels dispatch on
        from numpy._core._multiarray_umath import __cpu_features__ as feats
    except ImportError:  # pragma: no cover - NumPy moved it: take the portable sort
        return False
    return bool(feats.get("AVX512_SKX"))


#: True where NumPy argsorts float64 with AVX-512: the weighted build then argsorts
argsort_is_fast: bool = _avx512()


def group_starts(sorted_keys: FloatArray) -> npt.NDArray[np.intp] | None:
    """Start index of each run of equal values, or None when all values differ."""
    if sorted_keys.size < 2:
        return None
    new = sorted_keys[1:] != sorted_keys[:-1]
    if new.all():
        return None
    starts = np.flatnonzero(new)
    starts += 1
    return np.concatenate((np.zeros(1, dtype=starts.dtype), starts))


def runs(sorted_keys: FloatArray) -> tuple[FloatArray, npt.NDArray[np.intp] | None]:
    """Distinct values of a sorted array and their counts (None: every count is 1)."""
    starts = group_starts(sorted_keys)
    if starts is None:
        return sorted_keys, None
    return sorted_keys[starts], np.diff(starts, append=sorted_keys.size)


def positions(keys: FloatArray, queries: FloatArray, block: int = 1 << 15) -> npt.NDArray[np.intp]:
    """np.searchsorted(keys, queries) for sorted queries, one cache-sized block of keys
    at a time (the binary searches then stay in cache); for a table of
    :data:`~binmetrics.backends.COMPILED_TABLE_ROWS` keys or more, with numba, one merge
    of the two (:func:`binmetrics.table._running_numba.merged_positions`: the same
    positions)."""
    if keys.size <= block:
        return np.searchsorted(keys, queries)
    loops = compiled_table("binmetrics.table._running_numba", keys.size)
    if loops is not None:
        out = np.empty(queries.size, dtype=np.intp)
        loops.merged_positions(keys, queries, out)
        return out
    out = np.empty(queries.size, dtype=np.intp)
    starts = np.arange(0, keys.size, block)
    bounds = np.append(np.searchsorted(queries, keys[starts]), queries.size)
    out[:bounds[0]] = 0  # queries below every key
    for i, a in enumerate(starts.tolist()):
        lo, hi = int(bounds[i]), int(bounds[i + 1])
        if hi > lo:
            out[lo:hi] = np.searchsorted(keys[a:a + block], queries[lo:hi]) + a
    return out


#: the ways :func:`weighted_rows` can sort
Way = Literal["packed", "argsort", "complex"]
_SORTING_LOOPS = "binmetrics.table._sorting_numba"


def weighted_rows(y: npt.NDArray[np.bool_], s: FloatArray, w: FloatArray, *,
                  way: Way | None = None) -> tuple[FloatArray, FloatArray, FloatArray]:
    """(distinct scores descending, positive weight, negative weight per score) of
    validated arrays; ``way`` picks the sort (default: ``"packed"`` where numba's loops
    are taken at this size, else ``"argsort"`` where :data:`argsort_is_fast`, else
    ``"complex"``; see the module's notes). ``"packed"`` needs numba."""
    if way not in (None, "packed", "argsort", "complex"):
        raise ValueError(f"way must be 'packed', 'argsort' or 'complex', got {way!r}")
    loops = None
    if way is None:
        loops = compiled_table(_SORTING_LOOPS, s.size)
        way = "packed" if loops is not None else "argsort" if argsort_is_fast else "complex"
    elif way == "packed":
        loops = compiled(_SORTING_LOOPS, 1, 1)
        if loops is None:
            raise RuntimeError(f"weighted_rows(way='packed') needs numba (pip install "
                               f"'binmetrics[fast]') and {COMPILED_ENV} not set to 0")
    if way == "packed":
        assert loops is not None
        keys = np.negative(s)
        keys.sort()
        bits = loops.index_bits(s.size)
        packed = np.empty(s.size, dtype=np.uint64)
        loops.packed_order(s, bits, packed)
        packed.sort()
        wy = np.empty(s.size)
        wn = np.empty(s.size)
        loops.weights_in_order(packed, bits, s, y, w, keys, wy, wn)
        del packed
    elif way == "argsort":
        keys = np.negative(s)
        order = np.argsort(keys)
        wy = w[order]  # becomes the positives' weights
        yo = y[order]
        del order
        keys.sort()  # the same values as keys[order]
        wn = np.multiply(wy, ~yo)  # per row exact: w or 0
        np.multiply(wy, yo, out=wy)
    else:
        # In a tied group the negatives (imaginary part < 0) come first, each class by
        # weight. The class weights overwrite the sorted array in place (keys are
        # copied out): the build then needs the complex array and the scores, no
        # further copies. The negatives' weights are summed directly: (total -
        # positives) cancels digits when a tied group's positive weight dwarfs its
        # negative weight
        c = np.empty(s.size, dtype=np.complex128)
        c.real = s
        np.negative(c.real, out=c.real)
        c.imag = w
        np.negative(c.imag, out=c.imag, where=~y)
        c.sort()
        keys, signed = c.real, c.imag
        wy, wn = keys, signed
    starts = group_starts(keys)
    scores = np.negative(keys if starts is None else keys[starts])
    if way == "complex":
        np.maximum(signed, 0.0, out=wy)
        np.negative(wn, out=wn)
        np.maximum(wn, 0.0, out=wn)
    if starts is None:
        if way != "complex":
            return scores, wy, wn
        # one row per score: contiguous copies (strided views of the complex array
        # would slow every later pass over the table)
        return scores, wy.copy(), wn.copy()
    return scores, np.add.reduceat(wy, starts), np.add.reduceat(wn, starts)
