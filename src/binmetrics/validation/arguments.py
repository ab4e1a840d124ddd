"""Checks of a call's options, as distinct from its data: thresholds, levels, counts of
resamples and bins, seeds, ``nan_policy`` and ``alternative``. Each raises a one-line
error that names the option, the value given and what would do.
"""

from __future__ import annotations

import numbers
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

NanPolicy = Literal["raise", "omit"]

def check_random_state(random_state: Any, name: str = "random_state") -> Any:
    """``random_state`` as given when it is None, an integer (>= 0), a NumPy Generator,
    RandomState, SeedSequence or BitGenerator; a TypeError naming the parameter
    otherwise (NumPy's own message comes from deep inside).

    Examples
    --------
    >>> check_random_state(7)
    7
    >>> check_random_state("abc")
    Traceback (most recent call last):
    ...
    TypeError: random_state must be None, an integer, a numpy Generator, ... got 'abc'
    """
    if random_state is None or isinstance(random_state, (
            np.random.Generator, np.random.RandomState, np.random.SeedSequence,
            np.random.BitGenerator)):
        return random_state
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        if int(random_state) < 0:
            raise ValueError(f"{name} must be a non-negative integer; got {random_state!r}")
        return random_state
    raise TypeError(f"{name} must be None, an integer, a numpy Generator, RandomState or "
                    f"SeedSequence; got {random_state!r}")


def check_threshold(threshold: Any) -> float:
    """A real threshold (inf allowed: +inf predicts nothing positive, -inf everything)."""
    try:
        t = float(threshold)
    except (TypeError, ValueError):
        raise TypeError(f"threshold must be a number, got {threshold!r}") from None
    if np.isnan(t):
        raise ValueError("threshold is NaN")
    return t


Alternative = Literal["two-sided", "greater", "less"]
def check_level(level: Any) -> float:
    """A confidence level strictly between 0 and 1."""
    return check_in_range(level, "level", 0.0, 1.0, low_open=True, high_open=True)


def check_count(value: Any, name: str) -> int:
    """A whole number of at least 1 (replicates, permutations...)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return int(value)


# --- sizes (docs/conventions.md, "Limits") ---------------------------------------------------
#: the most replicates (bootstrap, permutation, simulation) one call draws: each is kept in
#: memory, and beyond this the Monte-Carlo error of a p-value or an interval end (at most
#: 0.5 / sqrt(10**7) < 0.0002) is below any digit a result reports
MAX_RESAMPLES = 10_000_000
#: the memory one call may fill with replicate values (float64), 1 GiB as DuckDB's
#: ``memory_limit``: n_resamples times the values kept per replicate must fit in it
MAX_REPLICATE_BYTES = 2**30
#: ``n_bins`` and ``n_groups`` may always be this large; beyond it, no larger than the
#: number of distinct scores (bins or groups past that are empty or split nothing)
MIN_BIN_LIMIT = 1_000


def _gib(n_bytes: float) -> str:
    return f"{n_bytes / 2**30:.3g} GiB"


def check_resamples(value: Any, name: str = "n_resamples", *, per_resample: int = 1,
                    what: str = "") -> int:
    """:func:`check_count` bounded by what memory allows, checked before anything is drawn:
    at most :data:`MAX_RESAMPLES`, and ``value * per_resample`` float64 values (the
    values each replicate keeps, ``what`` says which) within :data:`MAX_REPLICATE_BYTES`.
    The one check of every resampling entry point's count.

    Examples
    --------
    >>> check_resamples(2000, per_resample=3)
    2000
    >>> check_resamples(10**12)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: n_resamples must be at most 10,000,000, got 1,000,000,000,000: every ...
    """
    n = check_count(value, name)
    if n > MAX_RESAMPLES:
        raise ValueError(f"{name} must be at most {MAX_RESAMPLES:,}, got {n:,}: every "
                         "replicate is kept in memory, and more would not change a reported "
                         "digit (the Monte-Carlo error is already below 0.0002)")
    k = max(int(per_resample), 1)
    if n * k * 8 > MAX_REPLICATE_BYTES:
        most = MAX_REPLICATE_BYTES // (8 * k)
        kept = f" ({what})" if what else ""
        raise ValueError(f"{name}={n:,} would hold {k:,} values per replicate{kept}, "
                         f"{_gib(n * k * 8)}; at most {most:,} fit in the "
                         f"{_gib(MAX_REPLICATE_BYTES)} allowed for replicates: pass fewer")
    return n


def check_bin_count(value: Any, name: str, *, n_distinct: int, least: int = 1) -> int:
    """A count of bins or groups of scores (``n_bins``, ``n_groups``), at least ``least``
    and at most the larger of :data:`MIN_BIN_LIMIT` and the ``n_distinct`` distinct scores
    the data has: more bins than distinct scores are empty (or split nothing), while
    each costs memory and time.

    Examples
    --------
    >>> check_bin_count(10, "n_bins", n_distinct=4)
    10
    >>> check_bin_count(10**8, "n_bins", n_distinct=4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: n_bins must be at most 1,000 for these data (the larger of 1,000 and ...
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value < least:
        raise ValueError(f"{name} must be at least {least}, got {value!r}")
    most = max(MIN_BIN_LIMIT, int(n_distinct))
    if value > most:
        raise ValueError(f"{name} must be at most {most:,} for these data (the larger of "
                         f"{MIN_BIN_LIMIT:,} and their {int(n_distinct):,} distinct scores: "
                         f"no more bins or groups can hold cases), got {int(value):,}")
    return int(value)


def check_nan_policy(nan_policy: Any) -> NanPolicy:
    """``nan_policy`` if it is "raise" or "omit" (scipy's spellings); otherwise a
    one-line ValueError. The one check of every function's ``nan_policy``."""
    if nan_policy not in ("raise", "omit"):
        raise ValueError(f"nan_policy must be 'raise' or 'omit', got {nan_policy!r}")
    return nan_policy


def check_paired_values(a: Any, b: Any = None, *, what: str = "data set"
                        ) -> npt.NDArray[np.float64]:
    """The differences ``a - b`` of two models' paired values, one per ``what`` (a data
    set or a fold), or ``a`` itself when ``b`` is None (already differences): 1-d, the
    same length, finite. The one check of the Wilcoxon, Bayesian and correlated t-tests'
    inputs.

    >>> check_paired_values([0.8, 0.7], [0.75, 0.7]).round(2).tolist()
    [0.05, 0.0]
    """
    def finite(x: Any, name: str) -> npt.NDArray[np.float64]:
        arr = np.asarray(x, dtype=float)
        if arr.ndim != 1:
            raise ValueError(f"{name} must hold one score per {what}; got shape {arr.shape}")
        bad = ~np.isfinite(arr)
        if bad.any():
            raise ValueError(f"{name} has {int(bad.sum())} missing or infinite value(s) (at "
                             f"{np.flatnonzero(bad)[:5].tolist()}, 0-based); drop those "
                             f"{what}s from both models first")
        return arr

    xa = finite(a, "a")
    if b is None:
        return xa
    xb = finite(b, "b")
    if xa.shape != xb.shape:
        raise ValueError(f"a and b must hold one score per {what} each; got {xa.size} and "
                         f"{xb.size}")
    return xa - xb


def check_alternative(alternative: Any) -> Alternative:
    """'two-sided', 'greater' or 'less', the one spelling of every test's ``alternative``
    (docs/api-conventions.md); another spelling is an error that names the right one."""
    if alternative in ("two-sided", "greater", "less"):
        return alternative
    hint = {"two.sided": "two-sided", "two_sided": "two-sided", "larger": "greater",
            "smaller": "less", "one-sided": "greater", "one.sided": "greater"}.get(
        str(alternative).strip().lower())
    said = (f" (write {hint!r})" if hint else
            " ('auto' is gone: pass 'greater' where higher is better, 'less' for losses)"
            if alternative == "auto" else "")
    raise ValueError(f"alternative must be 'two-sided', 'greater' or 'less'; got "
                     f"{alternative!r}{said}")


def check_in_range(
    value: Any,
    name: str,
    low: float,
    high: float,
    *,
    low_open: bool = False,
    high_open: bool = False,
) -> float:
    """``value`` as a float inside the interval, or a ValueError naming the parameter."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number, got {value!r}") from None
    lo_ok = v > low if low_open else v >= low
    hi_ok = v < high if high_open else v <= high
    if not (lo_ok and hi_ok) or np.isnan(v):
        lb = "(" if low_open else "["
        rb = ")" if high_open else "]"
        raise ValueError(f"{name} must lie in {lb}{low}, {high}{rb}; got {value!r}")
    return v


