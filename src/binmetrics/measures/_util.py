"""Arithmetic helpers shared by the measure functions."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from binmetrics.exceptions import report_undefined

#: what a measure of a Confusion gives: a float for one threshold, an array for a curve
FloatOrArray: TypeAlias = float | npt.NDArray[np.float64]


def as_result(x: Any) -> FloatOrArray:
    """A 0-d array as a Python float; arrays unchanged."""
    a = np.asarray(x, dtype=np.float64)
    return float(a) if a.ndim == 0 else a


def dot(a: Any, b: Any) -> float:
    """``sum(a * b)`` of two 1-D arrays in NumPy's own einsum loop, not BLAS: a BLAS dot
    product hands large vectors to a pool of threads, which spin and wait on a loaded
    machine (issue 18: 8 ms instead of 0.2 ms at n = 1e6 with the cores busy), and an
    integer count array would first be copied to floats; einsum casts in small
    buffers."""
    return float(np.einsum("i,i->", a, b))


#: extraction levels per block before the rest goes to math.fsum as it is
_LEVELS = 64


def exact_sum(arrays: Iterable[npt.NDArray[np.float64]], block: int = 1 << 16) -> float:
    """The sum of every element, rounded once: ``math.fsum`` of them all, bit for bit,
    without a Python float per element.

    Rump, Ogita & Oishi's error-free extraction ("Accurate floating-point summation
    part I", SIAM J. Sci. Comput. 31, 2008), block by block: with sigma a power of two
    at least 2^(K+1) max|r| for 2^K >= the block's size, ``q = (sigma + r) - sigma``
    and ``r - q`` are exact, every q is a multiple of 2^-53 sigma and their sum stays
    below sigma, so ``sum(q)`` is exact in any order. Each level leaves remainders
    2^(52-K) times smaller; a few levels leave none, and fsum rounds the exact level
    sums once. Blocks whose sigma would overflow, or remainders left after
    :data:`_LEVELS` levels, go to fsum element by element (still exact).

    >>> exact_sum([np.array([1e16, 1.0, -1e16, 1e-16])]) == math.fsum([1e16, 1.0, -1e16, 1e-16])
    True
    """
    parts: list[float] = []
    for a in arrays:
        for start in range(0, a.size, block):
            r = np.array(a[start:start + block], dtype=np.float64)  # a copy: reduced below
            k = (r.size + 2).bit_length() + 1  # 2^(k-1) >= size + 2
            for _ in range(_LEVELS):
                m = max(float(r.max()), -float(r.min()))
                if not 0.0 < m < math.inf:  # done, or NaN or inf: fsum says what it gives
                    break
                e = math.frexp(m)[1] + k  # m < 2^(e - k)
                if e > 1023:  # sigma would overflow
                    break
                sigma = math.ldexp(1.0, e)
                q = r + sigma
                q -= sigma
                r -= q
                parts.append(float(q.sum()))
            parts.extend(r[r != 0.0].tolist())
    return math.fsum(parts)


def ratio(num: Any, den: Any, measure: str, reason: str) -> FloatOrArray:
    """``num / den``; 0/0 is NaN (reported with ``reason``), x/0 for x != 0 is +-inf."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = num / den
    if np.all(den):  # no zero denominator (NaN counts as non-zero, as below): one pass
        return as_result(out)
    undefined = (den == 0) & (num == 0)
    if np.any(undefined):
        out = np.where(undefined, np.nan, out)
        report_undefined(measure, reason)
    return as_result(out)


def flag_nan(value: Any, measure: str, reason: str) -> FloatOrArray:
    """Report ``reason`` if ``value`` holds NaN (for measures composed of others)."""
    if np.any(np.isnan(value)):
        report_undefined(measure, reason)
    return as_result(value)


def trapezoid(x: Any, y: Any) -> float:
    """Area under the polyline through (x, y) by the trapezoid rule (x ascending)."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    return float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2.0))


def log(x: Any, base: float) -> FloatOrArray:
    """Logarithm in ``base`` (checked: positive and not 1)."""
    return np.log(x) / log_base(base)


def log_base(base: float) -> float:
    try:
        b = float(base)
    except (TypeError, ValueError):
        raise TypeError(f"base must be a number, got {base!r}") from None
    if not (b > 0 and b != 1 and np.isfinite(b)):
        raise ValueError(f"base must be positive, finite and not 1; got {base!r}")
    return float(np.log(b))


#: the default clip of the log losses: log(max(p, EPS))
EPS = 1e-15
