"""Binned scores (``decimals=`` / ``bins=``): the bin grid and what a binned table knows.

At billions of rows with continuous scores the count table has as many rows as
there are distinct scores. Binning the scores caps its size (docs/architecture.md, "Where
users outgrow one machine"); the price is known exactly:

* **Confusion measures** are exact at the evaluation's threshold and at any other
  threshold on the bin grid: each bin is represented by its *lower* edge
  (``decimals=d``: floor(score * 10^d) / 10^d), so ``score >= t`` and
  ``bin(score) >= t`` select the same rows whenever ``t`` is an edge, and the
  engines (and :func:`~binmetrics.engines.binning.binned_table` given ``threshold=``)
  make the evaluation's threshold one more edge: a score s >= t whose bin starts below
  t is represented by t itself. At another threshold inside an occupied bin the
  confusion matrix is not the raw one: :class:`~binmetrics.Evaluation` warns, and the bounds
  give None.
* **Probabilistic measures** are exact: the engine sums every loss over the raw
  scores (squared and absolute error, log loss with its clip at 1e-15, focal loss at
  gamma = 2, hinge loss, the information score at the data's prevalence), split by
  class, and the measures read those sums (:class:`Binning`,
  :mod:`binmetrics.measures.sums`). Other parameters
  (``eps``, ``gamma``, ``prior``), and the information score of a table calibrated
  by reweighting, would need the raw scores again: they are NaN with an
  :class:`~binmetrics.exceptions.UndefinedMeasureWarning`, never approximated.

The bounds on the ranking measures are in :mod:`binmetrics.evaluation.bounds`;
:func:`binmetrics.engines.binned_table` bins in-memory arrays.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.exceptions import BinmetricsWarning
from binmetrics.table.counts import CountTable

FloatArray = npt.NDArray[np.float64]

__all__ = ["MAX_DECIMALS", "BinSpec", "Binning", "check_bin_args"]

#: The largest ``decimals``: beyond it floor(score * 10^d) leaves the exact integers
#: of float64 for scores of order 1.
MAX_DECIMALS = 15


def check_bin_args(decimals: Any, bins: Any) -> None:
    """Fail early (before any data is read) on a bad ``decimals`` / ``bins``."""
    if decimals is not None and bins is not None:
        raise ValueError("give decimals= or bins=, not both")
    if decimals is not None:
        if isinstance(decimals, bool) or not isinstance(decimals, (int, np.integer)):
            raise TypeError(f"decimals must be an integer, got {decimals!r}")
        if not 0 <= decimals <= MAX_DECIMALS:
            raise ValueError(f"decimals must lie in [0, {MAX_DECIMALS}]; got {decimals}")
    if bins is not None:
        if isinstance(bins, bool):
            raise TypeError(f"bins must be an integer or an array of edges, got {bins!r}")
        if isinstance(bins, (int, np.integer)):
            if bins < 1:
                raise ValueError(f"bins must be at least 1, got {bins}")
        else:
            _check_edges(bins)


def _check_edges(bins: Any) -> FloatArray:
    try:
        e = np.array(bins, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"bins must be an integer or an array of edges, got {bins!r}") from None
    if e.ndim != 1 or e.size < 2:
        raise ValueError(f"bin edges must be a 1-D array of at least 2 values; got shape {e.shape}")
    if not np.isfinite(e).all():
        raise ValueError("bin edges must be finite")
    if not (np.diff(e) > 0).all():
        raise ValueError("bin edges must be strictly increasing")
    return e


@dataclass(frozen=True, eq=False)
class BinSpec:
    """How scores are binned; every bin is represented by its lower edge.

    ``decimals=d``: bin k = [k / 10^d, (k + 1) / 10^d), found with floor(s * 10^d)
    and corrected by comparing with the representatives themselves, so that
    ``s >= k / 10^d`` exactly when the bin is at least k (the float product can
    round across an integer). ``edges`` (given, or ``bins=B`` equal-width edges
    lo + k (hi - lo)/B on the data's range): bin k = [e_k, e_k+1), the last one
    closed, as numpy.histogram. ``threshold``: one more edge, the evaluation's
    threshold, so that the confusion matrix there is that of the raw scores: a
    score s >= threshold whose bin starts below it is represented by the threshold
    (SQL: ``CASE WHEN x >= t AND rep < t THEN t ELSE rep END``).

    Examples
    --------
    >>> spec = BinSpec(decimals=1, threshold=0.55)
    >>> spec.assign([0.51, 0.55, 0.58, 0.61]).tolist()
    [0.5, 0.55, 0.55, 0.6]
    >>> spec.describe()
    'decimals=1, threshold 0.55 as an edge'
    """

    decimals: int | None = None
    edges: FloatArray | None = None
    #: the edges are lo + k * step (bins=B): the engines find bins by arithmetic
    step: float | None = None
    #: an extra edge (the evaluation's threshold), None when it is an edge already
    threshold: float | None = None

    @classmethod
    def resolve(cls, decimals: Any, bins: Any, low: float, high: float,
                threshold: float | None = None) -> BinSpec | None:
        """The spec for data whose finite scores range over [low, high] (None: no binning),
        with ``threshold`` as an extra edge where it cuts a bin that may hold scores."""
        check_bin_args(decimals, bins)
        if decimals is not None:
            if max(abs(low), abs(high)) * 10.0 ** decimals >= 2.0 ** 53:
                raise ValueError(f"decimals={decimals} is too fine for scores as large as "
                                 f"{max(abs(low), abs(high)):g}: the bin numbers leave the "
                                 "exact integers of float64")
            spec = cls(decimals=int(decimals))
        elif bins is None:
            return None
        elif isinstance(bins, (int, np.integer)):
            b = int(bins)
            step = (high - low) / b
            if step == 0.0 or not np.isfinite(step):  # one distinct score: one bin
                spec = cls(edges=np.array([low, low + 1.0 if low == high else high]),
                           step=None)
            else:
                e = np.arange(b, dtype=np.float64) * step + low
                spec = cls(edges=np.append(e, high), step=step)
        else:
            e = _check_edges(bins)
            if low < e[0] or high > e[-1]:
                raise ValueError(f"the scores range from {low:g} to {high:g}, outside the bin "
                                 f"edges [{e[0]:g}, {e[-1]:g}]")
            spec = cls(edges=e)
        return spec._with_threshold(threshold, low, high)

    def _with_threshold(self, threshold: float | None, low: float, high: float) -> BinSpec:
        """This spec with ``threshold`` as an extra edge, where that changes anything: a
        threshold above every score, at or below the lowest bin's edge, or on an edge
        cuts the binned scores as it cuts the raw ones already."""
        if threshold is None or self.threshold is not None:
            return self
        t = float(threshold)
        if not (math.isfinite(t) and t <= high and self._covers(t)):
            return self
        lowest = float(self.assign(np.array([low]))[0])
        if t <= lowest or float(self.assign(np.array([t]))[0]) == t:
            return self
        return BinSpec(decimals=self.decimals, edges=self.edges, step=self.step, threshold=t)

    def describe(self) -> str:
        extra = "" if self.threshold is None else f", threshold {self.threshold:.6g} as an edge"
        if self.decimals is not None:
            return f"decimals={self.decimals}{extra}"
        assert self.edges is not None
        kind = "equal-width " if self.step is not None else ""
        return (f"{self.edges.size - 1} {kind}bin{'s' if self.edges.size > 2 else ''} "
                f"on [{self.edges[0]:.6g}, {self.edges[-1]:.6g}]{extra}")

    def assign(self, s: Any) -> FloatArray:
        """The representative (lower edge) of each score's bin."""
        s = np.asarray(s, dtype=np.float64)
        rep = self._grid(s)
        t = self.threshold
        if t is not None:
            rep = np.where((s >= t) & (rep < t), t, rep)
        return rep

    def _grid(self, s: FloatArray) -> FloatArray:
        """The representative on the grid of ``decimals`` / ``edges`` alone."""
        if self.decimals is not None:
            scale = 10.0 ** self.decimals
            k = np.floor(s * scale)
            k -= k / scale > s
            k += (k + 1.0) / scale <= s
            return k / scale
        e = self.edges
        assert e is not None
        if self.step is not None:  # the engines' arithmetic, same operations
            last = e.size - 2
            k = np.clip(np.floor((s - e[0]) / self.step), 0, last)
            k -= (k * self.step + e[0]) > s
            k += (k + 1 < e.size - 1) & ((k + 1.0) * self.step + e[0] <= s)
            return k * self.step + e[0]
        idx = np.searchsorted(e, s, side="right") - 1
        outside = (idx < 0) | (s > e[-1])
        if outside.any():
            raise ValueError(f"{int(outside.sum())} scores lie outside the bin edges "
                             f"[{e[0]:g}, {e[-1]:g}]")
        return e[np.minimum(idx, e.size - 2)]

    def grid_sql(self, lit: Any) -> str | None:
        """SQL (DuckDB and Spark) of the representative of score ``x`` on the grid, with
        ``assign``'s arithmetic; ``lit(name, value)`` spells a parameter. None for given
        edges, which each engine looks up its own way."""
        if self.decimals is not None:
            scale = lit("scale", 10.0 ** self.decimals)
            k0 = f"CAST(floor(x * {scale}) AS DOUBLE)"
            k1 = f"({k0} - CASE WHEN {k0} / {scale} > x THEN 1.0 ELSE 0.0 END)"
            k2 = f"({k1} + CASE WHEN ({k1} + 1.0) / {scale} <= x THEN 1.0 ELSE 0.0 END)"
            return f"({k2} / {scale})"
        e = self.edges
        assert e is not None
        if self.step is None:
            return None
        lo, step = lit("lo", float(e[0])), lit("step", float(self.step))
        last = lit("last", float(e.size - 2))
        k0 = f"least(greatest(CAST(floor((x - {lo}) / {step}) AS DOUBLE), 0.0), {last})"
        k1 = f"({k0} - CASE WHEN {k0} * {step} + {lo} > x THEN 1.0 ELSE 0.0 END)"
        k2 = (f"({k1} + CASE WHEN {k1} + 1.0 <= {last} AND ({k1} + 1.0) * {step} + {lo} <= x "
              "THEN 1.0 ELSE 0.0 END)")
        return f"({k2} * {step} + {lo})"

    def threshold_sql(self, rep: str, lit: Any) -> str:
        """SQL of the representative with the threshold edge, from that on the grid."""
        if self.threshold is None:
            return rep
        t = lit("bin_t", self.threshold)
        return f"(CASE WHEN x >= {t} AND {rep} < {t} THEN {t} ELSE {rep} END)"

    def _covers(self, t: float) -> bool:
        if self.edges is None:
            return bool(np.isfinite(t))
        return bool(self.edges[0] <= t <= self.edges[-1])


@dataclass(frozen=True, eq=False)
class Binning:
    """What a table of binned scores knows about its raw scores (``CountTable.binning``).

    Attributes
    ----------
    spec : the :class:`BinSpec` used.
    score_range : (min, max) of the raw finite scores: ``probabilities_ok`` reads it.
    raw : the raw sums over the raw scores that the probabilistic measures read
        (:mod:`binmetrics.measures.sums`), by name; None if not summed.
    prior : the prevalence at which ``raw.info`` was summed (the data's own).
    """

    spec: BinSpec
    score_range: tuple[float, float]
    raw: Mapping[str, float] | None
    prior: float

    def describe(self) -> str:
        return self.spec.describe()

    def exact_at(self, threshold: float, table: CountTable) -> bool:
        """Whether the confusion matrix at ``threshold`` is that of the raw scores: the
        threshold is a bin edge, outside the data, or in a bin that holds no case."""
        t = float(threshold)
        if t > self.score_range[1] or t <= table.scores[-1]:
            return True
        if self.spec.edges is not None and not self.spec._covers(t):
            return True
        rep = float(self.spec.assign(np.array([t]))[0])
        if rep == t:
            return True
        k = np.searchsorted(-table.scores, -rep)
        return not (k < table.n_distinct and table.scores[k] == rep)

    def warn_inexact(self, threshold: float, table: CountTable, stacklevel: int = 2) -> None:
        """Warn when the confusion matrix at ``threshold`` is not that of the raw scores
        (the threshold cuts an occupied bin: its cases all count as below it).

        Examples
        --------
        >>> import warnings
        >>> from binmetrics.engines import binned_table
        >>> t = binned_table([1, 0, 1, 0], [.93, .91, .56, .1], decimals=1)
        >>> with warnings.catch_warnings(record=True) as w:
        ...     warnings.simplefilter("always")
        ...     t.binning.warn_inexact(0.55, t)
        >>> print(w[0].message)  # doctest: +ELLIPSIS
        threshold 0.55 cuts the bin of the binned scores (decimals=1) represented by 0.5, ...
        """
        if self.exact_at(threshold, table):
            return
        rep = float(self.spec.assign(np.array([float(threshold)]))[0])
        warnings.warn(f"threshold {threshold:g} cuts the bin of the binned scores "
                      f"({self.describe()}) represented by {rep:g}, which holds cases: the "
                      "confusion matrix counts them all as below the threshold, so it is not "
                      "that of the raw scores (error_bounds gives no bound); evaluate again "
                      f"with threshold={threshold:g}, which the engines and "
                      "binned_table(threshold=) make a bin edge", BinmetricsWarning,
                      stacklevel=stacklevel + 1)
