"""Drawing and counting the cases of bootstrap replicates, compiled when numba is there:
the loops of resampling that NumPy runs holding the GIL or a function call per value.

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

NumPy's bounded integers call the bit generator once per 32-bit word (4.4 ms per 1e6
values here); compiled, :func:`integers` runs PCG64 and Lemire's method in its own loop
as NumPy runs them, giving its values and leaving the generator as it would;
:func:`draw_counts` and :func:`draw_cumulative` count them as they are drawn, never
stored (1e6 draws counted: 4.3 ms, against 10 drawn then counted).

Counting is whole-number arithmetic and the draws are NumPy's own: the compiled loops
and their NumPy fallbacks give the same integers, so intervals do not depend on whether
numba is installed (tested). The exceptions are in floating point: the replicate sums'
dot products (:func:`term_sums`), the calibration bins' sums (:func:`run_dots`), the
fits' moments (:func:`bin_moments`) and the fits' Newton sums over the bins
(``logistic_fit.compiled_bin_sums``) are summed in another order compiled than by NumPy, so the
probabilistic measures' replicates (and their intervals) agree to rounding, 1e-12
relative (tested), not bit for bit; so does average lift's, whose compiled sum over the
groups (:mod:`._replicate_groups`) is taken from gaps of a table of harmonic numbers.
``BINMETRICS_COMPILED=0`` in the environment, or :func:`use_compiled` (tests), keeps
NumPy.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.backends import COMPILED_ENV, THREAD_ROWS, compiled, use_compiled

__all__ = ["bin_moments", "compiled_kernels", "count_rows",
           "cumulative_counts", "draw_counts", "draw_cumulative", "integers",
           "nonempty_groups", "run_counts", "run_dots", "term_sums", "use_compiled"]

#: the environment variable that, set to "0", keeps NumPy
ENV = COMPILED_ENV

#: below this many draws the compiled kernels are not used (nor numba imported, 0.4 s):
#: the counting is then a small part of a bootstrap, and runs in one thread anyway
#: (:data:`binmetrics.backends.THREAD_ROWS`)
COMPILED_ROWS = THREAD_ROWS

#: the highest moment the compiled :func:`bin_moments` sums (its loop keeps that many
#: scalar sums, seven: the replicate fits' order, ``logistic_fit.REPLICATE_BINS``, which
#: a test holds to it; another order takes NumPy)
MOMENT_ORDER = 6

#: count elements per piece of :func:`term_sums` without numba: a piece's float copy of
#: the counts (256 kB) stays in cache while every term's product reads it
_TERM_PIECE = 1 << 15


def compiled_kernels(rows: int) -> Any:
    """The compiled kernels (:mod:`._counting_numba`) for counting ``rows`` draws, when
    numba is importable, not switched off, and ``rows`` reaches :data:`COMPILED_ROWS`
    (:func:`binmetrics.backends.compiled`); else None. Call it in the thread that
    starts the work: the first call imports numba."""
    return compiled("binmetrics.inference._counting_numba", rows, COMPILED_ROWS)


def count_rows(keys: npt.NDArray[Any], width: int,
               lookup: npt.NDArray[Any] | None = None, *,
               draws: int | None = None) -> npt.NDArray[np.int64]:
    """Row-wise counts of a (b, d) matrix of keys in [0, width) (of ``lookup[keys]``):
    ``out[i] = np.bincount(keys[i], minlength=width)``. Compiled when a replicate draws
    ``draws`` (default ``d``) cases or more (:func:`compiled_kernels`): the size of one
    replicate, not of a block of them.

    Examples
    --------
    >>> count_rows(np.array([[0, 2, 2], [1, 1, 0]]), 3).tolist()
    [[1, 0, 2], [1, 2, 0]]
    >>> count_rows(np.array([[0, 1, 1]]), 2, lookup=np.array([1, 0])).tolist()
    [[2, 1]]
    """
    keys = np.asarray(keys)
    out = np.zeros((keys.shape[0], width), dtype=np.int64)
    k = compiled_kernels(keys.shape[1] if draws is None else draws)
    if k is not None and keys.size:
        if lookup is None:
            k.count(keys, np.zeros(width, dtype=np.uint8), out)
        else:
            lookup = np.asarray(lookup)
            k.count_lookup(keys, lookup, np.zeros(lookup.shape[0], dtype=np.uint8), out)
        return out
    # one row at a time: a row's counts stay in cache, which a single bincount of the
    # offset keys of all rows does not (it is about twice as slow)
    for i in range(keys.shape[0]):
        out[i] = np.bincount(keys[i] if lookup is None else lookup[keys[i]], minlength=width)
    return out


def cumulative_counts(keys: npt.NDArray[Any], n_units: int,
                      ends: npt.NDArray[Any] | None = None,
                      out: npt.NDArray[Any] | None = None, *,
                      draws: int | None = None) -> npt.NDArray[Any]:
    """Row-wise cumulative counts at given ends: ``out[i, k]`` is the number of keys of
    row ``i`` (units in [0, n_units)) below ``ends[k]`` (non-decreasing; default every
    unit, ``ends = 1, 2, ..., n_units``): ``np.cumsum(count_rows(keys, n_units),
    axis=1)`` read at ``ends - 1``. Written into ``out`` (a (b, len(ends)) array of any
    numeric dtype, possibly a strided view); compiled (from ``draws`` per replicate, as
    :func:`count_rows`): a running sum over the units' counts, read at the ends.

    Examples
    --------
    >>> cumulative_counts(np.array([[0, 2, 2]]), 3).tolist()
    [[1, 1, 3]]
    >>> cumulative_counts(np.array([[0, 2, 2]]), 3, ends=np.array([1, 1, 3, 3])).tolist()
    [[1, 1, 3, 3]]
    """
    keys = np.asarray(keys)
    if ends is None:
        ends = np.arange(1, n_units + 1)
    if out is None:
        out = np.empty((keys.shape[0], len(ends)), dtype=np.int64)
    k = compiled_kernels(keys.shape[1] if draws is None else draws)
    if k is not None and keys.size:
        sums = np.zeros(n_units + 1, dtype=np.int32 if keys.shape[1] < 2**31 else np.int64)
        k.cumulate(keys, np.asarray(ends), np.zeros(n_units, dtype=np.uint8), sums, out)
        return out
    total = np.zeros((keys.shape[0], n_units + 1), dtype=np.int64)
    np.cumsum(count_rows(keys, n_units), axis=1, out=total[:, 1:])
    out[...] = total[:, ends]
    return out


def nonempty_groups(c_pos: npt.NDArray[Any], c_neg: npt.NDArray[Any],
                    pos_cell: npt.NDArray[Any], neg_cell: npt.NDArray[Any], *,
                    draws: int | None = None
                    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[Any], npt.NDArray[Any]]:
    """One replicate's groups that hold cases: their indices and their positive and
    negative counts, from the counts of its positive cells ``c_pos`` and negative cells
    ``c_neg`` and each group's cell in them (-1: none). The replicate's count table in one
    pass, without the two group-wide count arrays (compiled from ``draws`` per replicate,
    default the number of groups, as :func:`count_rows`).

    Examples
    --------
    >>> keep, p, n = nonempty_groups(np.array([2, 0]), np.array([1, 0]),
    ...                              np.array([0, -1, 1]), np.array([-1, 0, 1]))
    >>> keep.tolist(), p.tolist(), n.tolist()
    ([0, 1], [2, 0], [0, 1])
    """
    k = compiled_kernels(pos_cell.shape[0] if draws is None else draws)
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


def term_sums(counts: npt.NDArray[Any], values: npt.NDArray[np.float64], lo: int = 0,
              hi: int | None = None, *, draws: int | None = None
              ) -> tuple[npt.NDArray[np.float64], npt.NDArray[Any]]:
    """Per replicate (row of ``counts``), the dot product of its counts at the cells
    [lo, hi) with each term's values (``values``, (terms, hi - lo), C-contiguous
    float64), and the total of those counts: ``einsum("ij,kj->ik", counts[:, lo:hi],
    values)`` and ``counts[:, lo:hi].sum(axis=1)``, in one pass over the counts and
    without a float copy of them all.

    Compiled (whole-number counts, from ``draws`` per replicate, default ``hi - lo``, as
    :func:`count_rows`): per tile of cells each replicate's counts become floats once
    and every term's product reads them (:func:`._counting_numba.term_sums`); else
    NumPy's ``einsum`` (never BLAS: see benchmarks/README.md, "No BLAS in the kernels")
    over pieces of the cells whose float copy stays in cache. The two sum in other
    orders, so they agree to rounding (1e-12 relative, tested), not bit for bit; each
    term's sum does not depend on which other terms are summed with it.

    Examples
    --------
    >>> sums, totals = term_sums(np.array([[1, 0, 2], [0, 3, 0]]),
    ...                          np.array([[1.0, 2.0, 3.0], [0.5, 0.5, 0.5]]))
    >>> sums.tolist(), totals.tolist()
    ([[7.0, 1.5], [6.0, 1.5]], [3, 3])
    """
    hi = counts.shape[1] if hi is None else hi
    b, K = counts.shape[0], values.shape[0]
    out = np.zeros((b, K))
    whole = counts.dtype.kind in "iu"
    totals = np.zeros(b, dtype=np.int64 if whole else np.float64)
    k = compiled_kernels(hi - lo if draws is None else draws)
    if k is not None and whole and b and hi > lo:
        k.term_sums(counts, lo, hi, values, out, totals)
        return out, totals
    step = max(256, _TERM_PIECE // max(b, 1))
    for c0 in range(lo, hi, step):
        c1 = min(c0 + step, hi)
        piece = counts[:, c0:c1]
        totals += piece.sum(axis=1)
        out += np.einsum("ij,kj->ik", piece.astype(np.float64), values[:, c0 - lo:c1 - lo])
    return out, totals


def run_counts(counts: npt.NDArray[Any], starts: npt.NDArray[np.intp], *,
               draws: int | None = None) -> npt.NDArray[np.int64]:
    """``np.add.reduceat(counts, starts, axis=1, dtype=np.int64)`` of whole-number counts:
    per row, the sums over the runs of cells that begin at ``starts`` (increasing).
    Compiled from ``draws`` per replicate (default the number of cells), as
    :func:`count_rows`: one running sum per row, read at the runs' ends
    (:func:`._counting_numba.run_sums`), where ``reduceat`` casts 8-bit counts one by one
    (ECE's bins at 1e6 cells: 1.4 ms a replicate); the same integers.

    Examples
    --------
    >>> c = np.array([[1, 2, 0, 3], [0, 0, 5, 1]], dtype=np.uint8)
    >>> run_counts(c, np.array([0, 2])).tolist()
    [[3, 3], [0, 6]]
    """
    k = compiled_kernels(counts.shape[1] if draws is None else draws)
    if k is None or counts.dtype.kind not in "iu" or not starts.size:
        return np.add.reduceat(counts, starts, axis=1, dtype=np.int64)
    out = np.empty((counts.shape[0], starts.size), dtype=np.int64)
    k.run_sums(counts, starts, np.arange(starts.size, dtype=np.intp), out)
    return out


def bin_moments(counts: npt.NDArray[Any], unit: float, d: npt.NDArray[np.float64],
                starts: npt.NDArray[np.intp], chunks: tuple[tuple[int, int, int, int], ...],
                order: int, *, draws: int | None = None) -> npt.NDArray[np.float64]:
    """The (order + 1, runs) moments of runs of cells: ``out[k, b]`` sums
    ``counts[i] * unit * d[i]**k`` over the cells i of run b (runs start at ``starts``;
    ``chunks`` groups whole runs in cache-sized pieces, as (first cell, end cell, first
    run, end run), for NumPy).

    Compiled for the replicate fits' seven moments (:data:`MOMENT_ORDER`; whole-number counts, from
    ``draws`` per replicate, default the number of cells, as :func:`count_rows`): one
    pass over the cells for every moment; else a product and a ``reduceat`` per moment,
    per piece. The two sum (and raise d to its powers) in other orders, so they agree to
    rounding, not bit for bit.

    Examples
    --------
    >>> bin_moments(np.array([1, 2, 0, 3]), 1.0, np.array([0.5, 0.25, 0.0, 0.5]),
    ...             np.array([0, 2]), ((0, 4, 0, 2),), 2).tolist()  # NumPy: order 2
    [[3.0, 3.0], [1.0, 1.5], [0.375, 0.75]]
    """
    out = np.empty((order + 1, starts.size))
    k = compiled_kernels(counts.size if draws is None else draws)
    if k is not None and order == MOMENT_ORDER and counts.dtype.kind in "iu" and starts.size:
        k.bin_moments(counts, float(unit), d, starts, out)
        return out
    buf = np.empty(max((a1 - a0 for a0, a1, _, _ in chunks), default=0))
    for a0, a1, b0, b1 in chunks:  # in the cache: counts x unit x d^k, k = 0..order
        c = buf[:a1 - a0]
        np.multiply(counts[a0:a1], unit, out=c)
        st = starts[b0:b1] - a0
        np.add.reduceat(c, st, out=out[0, b0:b1])
        for j in range(1, order + 1):
            c *= d[a0:a1]
            np.add.reduceat(c, st, out=out[j, b0:b1])
    return out


def run_dots(counts: npt.NDArray[Any], lo: int, values: npt.NDArray[np.float64],
             starts: npt.NDArray[np.intp], stops: npt.NDArray[np.intp], *,
             draws: int | None = None) -> npt.NDArray[np.float64]:
    """``out[k, i, r] = counts[i, lo + starts[r]:lo + stops[r]] @ values[k,
    starts[r]:stops[r]]``:
    per replicate (row of ``counts``, whole numbers) and run of cells, the dot products
    of its counts with each row of ``values`` (the calibration bins' sums of p and p^2).

    Compiled (from ``draws`` per replicate, as :func:`count_rows`): one pass over the
    cells for every row of values, reassociated as :func:`term_sums` is (1.2 against 4.6
    ms at 1e6 cells and two rows, where NumPy's ``einsum`` casts each run's counts
    first); else ``einsum`` per run. The two agree to rounding, not bit for bit.

    Examples
    --------
    >>> run_dots(np.array([[1, 2, 0, 3]]), 0, np.array([[0.5, 0.25, 1.0, 0.5]]),
    ...          np.array([0, 2]), np.array([2, 4])).tolist()
    [[[1.0, 1.5]]]
    """
    b = counts.shape[0]
    out = np.empty((values.shape[0], b, starts.size))
    k = compiled_kernels(counts.shape[1] if draws is None else draws)
    if k is not None and counts.dtype.kind in "iu" and b and counts.flags.c_contiguous:
        k.run_dots(counts, lo, values, starts, stops, out)
        return out
    for j, (s0, s1) in enumerate(zip(starts.tolist(), stops.tolist(), strict=True)):
        for r in range(values.shape[0]):
            out[r, :, j] = np.einsum("ij,j->i", counts[:, lo + s0:lo + s1], values[r, s0:s1])
    return out


def integers(rng: np.random.Generator, n: int, shape: tuple[int, ...]) -> npt.NDArray[np.intp]:
    """``rng.integers(0, n, size=shape, dtype=np.intp)``: the same values, and the same
    state of ``rng`` after, faster when compiled.

    NumPy draws each value through a function call per 32-bit word (4.4 ms per 1e6
    values here, the largest cost of a bootstrap replicate); compiled, PCG64 and
    Lemire's method run in the loop that stores the values, as NumPy runs them
    (:func:`._counting_numba.pcg_bounded`). Only for PCG64 (the generator of every
    replicate stream) and 1 < n < 2**31; else NumPy's call.
    tests/inference/test_counting.py holds it to ``rng.integers``, values and state.

    Examples
    --------
    >>> a, b = np.random.default_rng(0), np.random.default_rng(0)
    >>> bool((integers(a, 10, (2, 3)) == b.integers(0, 10, (2, 3))).all())
    True
    """
    k = _drawing_kernels(rng, n, shape[-1] if shape else 1)
    if k is None:
        return rng.integers(0, n, size=shape, dtype=np.intp)
    out = np.empty(int(np.prod(shape)), dtype=np.intp)
    with _pcg_state(rng) as st:
        k.pcg_integers(st, n, (2**32 - n) % n, out)
    return out.reshape(shape)


def draw_counts(rng: np.random.Generator, n: int, shape: tuple[int, int],
                lookup: npt.NDArray[Any] | None = None,
                width: int | None = None) -> npt.NDArray[np.integer[Any]]:
    """``count_rows(integers(rng, n, shape), width, lookup)``: per replicate (row), how
    many of its ``shape[1]`` draws below ``n`` fell on each key (``lookup[unit]``, or the
    unit itself; ``width`` keys, default ``n``). Compiled, the draws are counted as they
    are made, never stored, and without a lookup the counts stay in 8 bits (uint8:
    every count under 256, or else the rows are drawn again and counted in 64 bits):
    the same counts, and ``rng`` left where that call leaves it; else that call. 1e6
    draws a replicate: 4.5 ms, where drawing a matrix of indices (8 MB) then counting
    it took 10.

    Examples
    --------
    >>> draw_counts(np.random.default_rng(0), 3, (2, 4)).sum(axis=1).tolist()
    [4, 4]
    """
    b, d = shape
    width = n if width is None else width
    k = _drawing_kernels(rng, n, d)
    if k is not None:
        out: npt.NDArray[Any]
        if lookup is None:  # each row's 8-bit counts are its counts
            out = np.empty((b, n), dtype=np.uint8)
            if _count_as_drawn(rng, k, n, d, (out[i] for i in range(b))):
                return out
        else:
            out = np.zeros((b, width), dtype=np.int64)
            small = np.zeros(n, dtype=np.uint8)
            rows = (small for _ in range(b))
            if _count_as_drawn(rng, k, n, d, rows, lambda i: k.fold8(small, lookup, out[i])):
                return out
    return count_rows(integers(rng, n, shape), width, lookup, draws=d)


def draw_cumulative(rng: np.random.Generator, n: int, shape: tuple[int, int],
                    ends: npt.NDArray[Any], out: npt.NDArray[Any]) -> None:
    """``cumulative_counts(rng.integers(0, n, size=shape), n, ends, out=out)``, the draws
    counted as they are made, never stored (compiled; the same counts, and ``rng`` left
    where that call leaves it; else that call).

    Examples
    --------
    >>> out = np.zeros((2, 2), dtype=np.int64)
    >>> draw_cumulative(np.random.default_rng(0), 4, (2, 5), np.array([2, 4]), out)
    >>> out[:, -1].tolist()
    [5, 5]
    """
    b, d = shape
    k = _drawing_kernels(rng, n, d)
    if k is not None:
        small = np.zeros(n, dtype=np.uint8)
        sums = np.zeros(n + 1, dtype=np.int32 if d < 2**31 else np.int64)
        if _count_as_drawn(rng, k, n, d, (small for _ in range(b)),
                           lambda i: k.read_ends(small, ends, sums, out[i])):
            return
    cumulative_counts(integers(rng, n, shape), n, ends, out=out)


def _count_as_drawn(rng: np.random.Generator, k: Any, n: int, d: int,
                    rows: Iterable[npt.NDArray[np.uint8]],
                    after: Callable[[int], Any] | None = None) -> bool:
    """Each replicate's ``d`` draws below ``n`` counted into its 8-bit counts (the next
    of ``rows``) as they are made (:func:`._counting_numba.pcg_count8`), then
    ``after(i)``; False, with ``rng`` put back where it was, when a count would pass
    255: the caller then draws the rows again, kept, and counts them in 64 bits."""
    saved = rng.bit_generator.state
    with _pcg_state(rng) as st:
        for i, small in enumerate(rows):
            if not k.pcg_count8(st, n, (2**32 - n) % n, small, d):
                break
            if after is not None:
                after(i)
        else:
            return True
    rng.bit_generator.state = saved
    return False


def _drawing_kernels(rng: np.random.Generator, n: int, draws: int) -> Any:
    """The compiled kernels if they may draw values below ``n`` for ``rng``, ``draws`` per
    replicate (:func:`compiled_kernels`): a PCG64 generator (that of every replicate
    stream; the kernels step its state as integers, whatever the byte order) and
    1 < n < 2**31."""
    k = compiled_kernels(draws)
    if k is None or not 1 < n < 2**31 or type(rng.bit_generator) is not np.random.PCG64:
        return None
    return k


@contextlib.contextmanager
def _pcg_state(rng: np.random.Generator) -> Iterator[npt.NDArray[np.uint64]]:
    """The state of ``rng``'s PCG64 as the compiled kernels read and step it (uint64:
    state high and low halves, increment high and low, ``has_uint32``, ``uinteger``),
    put back into ``rng`` after the block."""
    bg = rng.bit_generator
    state = dict(bg.state)
    state["state"] = dict(state["state"])
    mask = 2**64 - 1
    s, inc = state["state"]["state"], state["state"]["inc"]
    st = np.array([s >> 64, s & mask, inc >> 64, inc & mask, state["has_uint32"],
                   state["uinteger"]], dtype=np.uint64)
    yield st
    state["state"]["state"] = (int(st[0]) << 64) | int(st[1])
    state["has_uint32"], state["uinteger"] = int(st[4]), int(st[5])
    bg.state = state
