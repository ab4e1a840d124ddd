"""Binned scores (``decimals=`` / ``bins=``) and the exact bounds on the error they cause.

At billions of rows with continuous scores the count table has as many rows as
there are distinct scores. Binning the scores caps its size (DESIGN.md, "Where
users outgrow one machine"); the price is known exactly:

* **Confusion measures** are exact at the evaluation's threshold and at any other
  threshold on the bin grid: each bin is represented by its *lower* edge
  (``decimals=d``: floor(score * 10^d) / 10^d), so ``score >= t`` and
  ``bin(score) >= t`` select the same rows whenever ``t`` is an edge, and the
  engines (and :func:`binned_table` given ``threshold=``) make the evaluation's
  threshold one more edge: a score s >= t whose bin starts below t is represented
  by t itself. At another threshold inside an occupied bin the confusion matrix is
  not the raw one: :class:`~binmetrics.Evaluation` warns, and ``value_bounds``
  gives None.
* **Probabilistic measures** are exact: the engine sums every loss over the raw
  scores (squared and absolute error, log loss with its clip at 1e-15, focal loss at
  gamma = 2, hinge loss, the information score at the data's prevalence), split by
  class, and the measures read those sums (:class:`Binning`). Other parameters
  (``eps``, ``gamma``, ``prior``), and the information score of a table calibrated
  by reweighting, would need the raw scores again: they are NaN with an
  :class:`~binmetrics.exceptions.UndefinedMeasureWarning`, never approximated.
* **Ranking measures** see each bin as one tied group. Binning keeps the order
  between bins and forgets it inside them, so the exact value is one of those of
  the data sets that refine each bin into some order. :func:`value_bounds` gives
  the interval of all of them: for the AUC, +-(sum_b pos_b neg_b) / (2 P N), the
  within-bin pairs getting half credit where the truth gives each 0 or 1.

Derivations (P, N: total positive and negative weight; bin b holds pos_b and neg_b
after TP0_b positives and FP0_b negatives; "best"/"worst" are the refinements that
put every bin's positives before / after its negatives):

* AUC, Gini, AUAC, mean rank of the positives, average gain, average lift, RIE,
  BEDROC, enrichment factor, ROC enrichment: each is monotone in g(j), the
  (interpolated) number of positives among the top j cases (or, for ROC
  enrichment, in the ROC curve), and every refinement keeps g(j) between that of
  "worst" and that of "best" (inside bin b the curve stays in the rectangle
  [TP0_b, TP0_b + pos_b] x [FP0_b, FP0_b + neg_b]). So the bound is
  [min, max] of the measure on those two tables, and both are reached. For the AUC
  this is +-(sum_b pos_b neg_b)/(2 P N) (Mann-Whitney half credit; Berrar eq. 32),
  for the Gini twice that.
* KS: every cut of the binned table is a cut of the raw data, so KS >= the binned
  KS (reached when each bin holds one score); inside bin b |TPR - FPR| is largest
  at a corner of its rectangle, i.e. at a cut of "best" or "worst". Bound:
  [KS_binned, max(KS_best, KS_worst)]. The same for J_max = max(TPR - FPR):
  [J_binned, J_best].
* AUCH: the hull of the raw ROC curve contains the bin corners (binned hull) and
  lies under the hull of the corners plus each rectangle's top-left corner
  ("best"): [AUCH_binned, AUCH_best].
* Average precision (step-wise, Berrar eq. 38): the i-th positive of bin b has
  precision at most (TP0 + pos_b)/(TP0 + FP0 + pos_b) (all the bin's positives tied
  above its negatives, "best") and at least (TP0 + i)/(TP0 + FP0 + neg_b + i)
  (every negative first, positives distinct). The lower bound sums that over i
  (unweighted counts: pos_b - (FP0 + neg_b)(H(c + pos_b) - H(c)), c = TP0 + FP0 +
  neg_b); for weighted counts it is the integral, pos_b - (FP0 + neg_b)
  ln(1 + pos_b / c), reached as the weights become small.
* taKS, AUCPR by trapezoids (min, max, minmax) and AUPRG depend on how many
  distinct scores each bin holds, which binning discards: "no bound" (None).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from scipy.special import digamma

from binmetrics.exceptions import undefined_policy
from binmetrics.measures import Measure, get_measure
from binmetrics.measures.probabilistic import _EPS, SumsUnavailable
from binmetrics.table.counts import CountTable, FloatArray
from binmetrics.validation import NanPolicy, check_binary_inputs, check_threshold

if TYPE_CHECKING:
    from binmetrics.evaluation.binary import Evaluation

__all__ = ["BinSpec", "Binning", "RawSums", "binned_table", "error_bounds", "value_bounds"]

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


@dataclass(frozen=True)
class RawSums:
    """Weighted sums over the raw scores, by class, behind every probabilistic measure.

    pos_*: over the positives, neg_*: over the negatives; ``miss`` = 1 - p, logs
    clipped at 1e-15 as the log losses are; ``info`` is the information score sum
    in nats at the prior :attr:`Binning.prior` (Kononenko & Bratko, METHODS.md 5.1).
    """

    pos_miss: float = 0.0  # sum w (1 - p)
    neg_p: float = 0.0  # sum w p
    pos_miss2: float = 0.0  # sum w (1 - p)^2
    neg_p2: float = 0.0  # sum w p^2
    pos_log: float = 0.0  # sum w ln max(p, eps)
    neg_log: float = 0.0  # sum w ln max(1 - p, eps)
    pos_focal: float = 0.0  # sum w (1 - p)^2 ln max(p, eps)
    neg_focal: float = 0.0  # sum w p^2 ln max(1 - p, eps)
    pos_hinge: float = 0.0  # sum w max(0, 1 - p)
    neg_hinge: float = 0.0  # sum w max(0, 1 + p)
    info: float = 0.0

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_columns(cls, columns: dict[str, Any]) -> RawSums:
        """Totals of per-bin columns (NULL/NaN-free arrays, one entry per bin)."""
        return cls(**{k: float(np.sum(np.asarray(columns[k], dtype=np.float64)))
                      for k in cls.names()})

    @classmethod
    def of_rows(cls, y: npt.NDArray[np.bool_], s: FloatArray, w: FloatArray | None,
                prior: float) -> RawSums:
        """The sums of in-memory rows (the numpy engine; the others do it in SQL)."""
        wp = np.ones(int(y.sum())) if w is None else w[y]
        wn = np.ones(int((~y).sum())) if w is None else w[~y]
        sp, sn = s[y], s[~y]
        mp, mn = 1.0 - sp, 1.0 - sn
        lp = np.log(np.maximum(sp, _EPS))
        ln = np.log(np.maximum(mn, _EPS))
        return cls(
            pos_miss=float(wp @ mp), neg_p=float(wn @ sn), pos_miss2=float(wp @ (mp * mp)),
            neg_p2=float(wn @ (sn * sn)), pos_log=float(wp @ lp), neg_log=float(wn @ ln),
            pos_focal=float(wp @ (mp * mp * lp)), neg_focal=float(wn @ (sn * sn * ln)),
            pos_hinge=float(wp @ np.maximum(0.0, mp)),
            neg_hinge=float(wn @ np.maximum(0.0, 1.0 + sn)),
            info=_information(sp, wp, sn, wn, prior))


def _information(sp: FloatArray, wp: FloatArray, sn: FloatArray, wn: FloatArray,
                 pi: float) -> float:
    """Information score sum (nats) at prior pi; NaN unless eps <= pi <= 1 - eps."""
    if not _EPS <= pi <= 1.0 - _EPS:
        return math.nan
    lpi, l1pi = math.log(pi), math.log1p(-pi)
    tiny = _TINY  # the clip never touches the terms used: see the module text
    up = sp >= pi
    ip = np.where(up, np.log(np.maximum(sp, tiny)) - lpi,
                  l1pi - np.log(np.maximum(1.0 - sp, tiny)))
    down = sn > pi
    i_n = np.where(down, lpi - np.log(np.maximum(sn, tiny)),
                   np.log(np.maximum(1.0 - sn, tiny)) - l1pi)
    return float(wp @ ip + wn @ i_n)


#: the information score's logarithms are clipped here only to keep them finite: the
#: terms it takes never reach the clip (see :func:`_information`)
_TINY = 1e-300


def sql_double(v: float) -> str:
    """A DOUBLE literal that DuckDB and Spark SQL both read as exactly ``v`` (a plain
    ``0.1`` is a DECIMAL in both, which need not convert to the nearest double)."""
    return f"CAST('{float(v)!r}' AS DOUBLE)"


def raw_sum_sql() -> dict[str, tuple[str | None, str]]:
    """Each :class:`RawSums` field as (rows summed, term), SQL that DuckDB and Spark both
    read, so that the engines sum the same formulas as :meth:`RawSums.of_rows`.

    The rows are ``"pos"`` (the positives), ``"NOT pos"`` or None (all); the term is an
    expression of the score ``x`` and, for ``info``, of the group's prior ``pi``, ``lpi``
    = ln pi and ``l1pi`` = ln(1 - pi). Each engine sums ``w * (term)`` over those rows.

    Examples
    --------
    >>> raw_sum_sql()["pos_miss"]
    ('pos', '(1.0 - x)')
    """
    eps, tiny = sql_double(_EPS), sql_double(_TINY)
    one = "1.0"
    miss = f"({one} - x)"
    lx, l1x = f"ln(greatest(x, {eps}))", f"ln(greatest({one} - x, {eps}))"
    lxt, l1xt = f"ln(greatest(x, {tiny}))", f"ln(greatest({one} - x, {tiny}))"
    info = (f"CASE WHEN pos THEN (CASE WHEN x >= pi THEN {lxt} - lpi ELSE l1pi - {l1xt} END) "
            f"ELSE (CASE WHEN x > pi THEN lpi - {lxt} ELSE {l1xt} - l1pi END) END")
    return {
        "pos_miss": ("pos", miss),
        "neg_p": ("NOT pos", "x"),
        "pos_miss2": ("pos", f"({miss} * {miss})"),
        "neg_p2": ("NOT pos", "(x * x)"),
        "pos_log": ("pos", lx),
        "neg_log": ("NOT pos", l1x),
        "pos_focal": ("pos", f"({miss} * {miss} * {lx})"),
        "neg_focal": ("NOT pos", f"(x * x * {l1x})"),
        "pos_hinge": ("pos", f"greatest(0.0, {miss})"),
        "neg_hinge": ("NOT pos", f"greatest(0.0, {one} + x)"),
        "info": (None, f"({info})"),
    }


def term_bound(low: float, high: float) -> float:
    """An upper bound on |term| of :func:`raw_sum_sql` for scores in [low, high] (any
    prior in [eps, 1 - eps]); inf when it overflows."""
    a = max(abs(low), abs(high))
    log_max = -math.log(_EPS) + 1.0  # |ln max(p, eps)| for p <= 1; ln a <= a beyond
    info_max = -math.log(_TINY) + 2.0 * (log_max + 1.0)
    return (1.0 + a) * (1.0 + a) * (log_max + a) + info_max + a  # inf on overflow


@dataclass(frozen=True, eq=False)
class Binning:
    """What a table of binned scores knows about its raw scores (``CountTable.binning``).

    Attributes
    ----------
    spec : the :class:`BinSpec` used.
    score_range : (min, max) of the raw finite scores: ``probabilities_ok`` reads it.
    raw : the :class:`RawSums` over the raw scores, or None if not summed.
    prior : the prevalence at which ``raw.info`` was summed (the data's own).
    """

    spec: BinSpec
    score_range: tuple[float, float]
    raw: RawSums | None
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
                      "binned_table(threshold=) make a bin edge", UserWarning,
                      stacklevel=stacklevel + 1)

    def sums(self, key: Any, table: CountTable) -> tuple[float, ...]:
        """The sums that ``measures.probabilistic`` asks for under ``key``, from the raw
        scores; negatives scaled by c for a table calibrated by reweighting."""
        r = self.raw
        if r is None:
            raise SumsUnavailable("binned scores: the engine did not sum the probabilistic "
                                  "losses over the raw scores")
        c = 1.0 if table.calibration is None else table.calibration[0]
        kind = key if isinstance(key, str) else key[0]
        if kind == "poly":
            return (r.pos_miss, c * r.neg_p, r.pos_miss2, c * r.neg_p2)
        if kind == "hinge":
            return (r.pos_hinge + c * r.neg_hinge,)
        if kind == "log_pass":
            if key[1] != _EPS:
                raise SumsUnavailable(f"binned scores: the log losses were summed over the raw "
                                      f"scores with eps={_EPS:g} only, not eps={key[1]!r}")
            same = math.isclose(table.prevalence, self.prior, rel_tol=1e-12, abs_tol=0.0)
            info = r.info if table.calibration is None and same else math.nan
            return (-r.pos_log, -c * r.neg_log, -r.pos_focal, -c * r.neg_focal, info)
        if kind == "focal":
            raise SumsUnavailable(f"binned scores: the focal loss was summed over the raw "
                                  f"scores with gamma=2 and eps={_EPS:g} only, not "
                                  f"gamma={key[1]!r}, eps={key[2]!r}")
        if kind == "information":
            if table.calibration is not None:
                raise SumsUnavailable("binned scores calibrated by reweighting: the "
                                      "information score at the prior pi0 needs the raw scores")
            if math.isclose(key[1], self.prior, rel_tol=1e-12, abs_tol=0.0):
                return (r.info,)
            raise SumsUnavailable(f"binned scores: the information score was summed over the "
                                  f"raw scores at the data's prevalence {self.prior:.6g} only, "
                                  f"not prior={key[1]!r}")
        raise SumsUnavailable(f"binned scores: no sum over the raw scores for {key!r}")


def binned_table(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    decimals: int | None = None,
    bins: Any = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
    threshold: float | None = None,
) -> CountTable:
    """The count table of binned scores, from in-memory arrays (what the file and Spark
    engines build with a group-by).

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, nan_policy :
        As in :func:`binmetrics.evaluate`.
    decimals : int in [0, 15], optional
        Bin k is [k / 10^d, (k + 1) / 10^d), represented by its lower edge
        floor(score * 10^d) / 10^d: a threshold on that grid cuts exactly.
    bins : int or array of edges, optional
        ``B``: B equal-width bins on [min, max] of the scores; an array: the bin
        edges (the last bin is closed; scores outside are an error).
    threshold : float, optional
        The threshold the table will be evaluated at, made one more bin edge (as the
        engines do with theirs) so that the confusion matrix there is exact.

    Returns
    -------
    CountTable
        Its ``binning`` (:class:`Binning`) holds the probabilistic sums of the raw
        scores; ``Evaluation(table).error_bounds()`` bounds the ranking measures. An
        Evaluation at a threshold inside an occupied bin warns that its confusion
        matrix is not the raw one.

    Examples
    --------
    >>> import binmetrics as bm
    >>> y, s = [1, 0, 1, 1, 0, 0], [0.93, 0.91, 0.42, 0.47, 0.44, 0.08]
    >>> t = binned_table(y, s, decimals=1)
    >>> t.scores.tolist(), t.pos.tolist(), t.neg.tolist()
    ([0.9, 0.4, 0.0], [1, 2, 0], [1, 1, 1])
    >>> ev = bm.Evaluation(t)
    >>> ev["brier"] == bm.evaluate(y, s)["brier"]  # summed over the raw scores
    True
    >>> round(ev["auc"], 4), round(ev.binning_error("auc"), 4)  # pairs in bins: (1 + 2)/(2 P N)
    (0.6111, 0.1667)
    >>> lo, hi = value_bounds(ev, "auc")
    >>> bool(lo <= bm.evaluate(y, s)["auc"] <= hi)
    True
    >>> t = binned_table(y, s, decimals=1, threshold=0.45)  # 0.47 is represented by 0.45
    >>> t.scores.tolist(), bm.Evaluation(t, threshold=0.45).confusion.tp
    ([0.9, 0.45, 0.4, 0.0], 2)
    """
    check_bin_args(decimals, bins)
    if threshold is not None:
        threshold = check_threshold(threshold)
    if decimals is None and bins is None:
        raise ValueError("binned_table needs decimals= or bins=")
    inp = check_binary_inputs(y_true, y_score, sample_weight, pos_label=pos_label,
                              nan_policy=nan_policy)
    low, high = float(inp.score.min()), float(inp.score.max())
    spec = BinSpec.resolve(decimals, bins, low, high, threshold=threshold)
    assert spec is not None
    table = CountTable._build(inp.y, spec.assign(inp.score), inp.weight)
    prior = table.prevalence
    table.binning = Binning(spec=spec, score_range=(low, high),
                            raw=RawSums.of_rows(inp.y, inp.score, inp.weight, prior),
                            prior=prior)
    return table


# --- error bounds ------------------------------------------------------------------------
def _refinement(t: CountTable, positives_first: bool) -> CountTable:
    """Each bin split in two tied groups: its positives above its negatives ("best")
    or below them ("worst"). Ranking measures read only the order, so the scores are
    any descending values."""
    pos, neg = t.pos.astype(np.float64), t.neg.astype(np.float64)
    zeros = np.zeros_like(pos)
    if positives_first:
        p, n = np.column_stack((pos, zeros)).ravel(), np.column_stack((zeros, neg)).ravel()
    else:
        p, n = np.column_stack((zeros, pos)).ravel(), np.column_stack((neg, zeros)).ravel()
    scores = np.arange(p.size, 0, -1, dtype=np.float64)
    return CountTable(scores, p, n, weighted=t.weighted)


def _ap_lower(t: CountTable) -> float:
    """Average precision with every bin's negatives first and its positives distinct."""
    g = t.positive_groups()
    a, f0, m, k = g.tp0, g.fp0, g.pos, g.neg
    c = a + f0 + k
    if t.weighted:  # the integral: the weights may split into many small cases
        with np.errstate(divide="ignore", invalid="ignore"):
            part = np.where(c > 0, m - (f0 + k) * np.log1p(m / np.where(c > 0, c, 1.0)), m)
    else:  # sum_{i=1}^{m} (a + i)/(c + i) = m - (c - a)(H(c + m) - H(c))
        part = m - (f0 + k) * (digamma(c + m + 1.0) - digamma(c + 1.0))
    return float(np.sum(part) / t.P)


def value_bounds(ev: Evaluation, measure: str | Measure,
                 **params: Any) -> tuple[float, float] | None:
    """The interval that holds the measure's value on the raw (unbinned) scores.

    ``(value, value)`` when binning cannot have changed it (exact scores, the
    probabilistic measures, confusion measures at a threshold the bins cut exactly),
    None where no exact bound is derived (taKS, trapezoidal AUCPR, AUPRG; confusion
    measures at a threshold inside an occupied bin). A NaN value is ``(nan, nan)``
    only where the raw value is provably NaN too: exact scores, a confusion measure at
    a threshold cut exactly, a probabilistic measure whose sum the engine took (NaN
    because of the data, e.g. one class); else None. See the module text for the
    derivations; every bound is reached by some data set with this binned table.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.Evaluation(binned_table([1, 0, 1, 0], [.93, .91, .5, .1], decimals=1),
    ...                    undefined="ignore")
    >>> value_bounds(ev, "auc"), value_bounds(ev, "taks")
    ((0.5, 0.75), None)
    >>> value_bounds(ev, "log_loss", eps=1e-5) is None  # NaN: summed at eps=1e-15 only
    True
    """
    m = get_measure(measure)
    return _bounds(ev, m, m.resolve_params(**params), ev.value(m, **params))


def _bounds(ev: Evaluation, m: Measure, p: dict[str, Any],
            value: float) -> tuple[float, float] | None:
    t = ev.table
    b = t.binning
    if b is None:
        return (value, value)
    if m.family == "probabilistic":
        return (value, value) if not math.isnan(value) or _sum_taken(t, m, p) else None
    if m.family == "confusion":
        return (value, value) if b.exact_at(ev.threshold, t) else None
    kind = m.binning_bound  # declared in the registry
    if math.isnan(value) or kind is None:
        return None

    def on(table: CountTable) -> float:
        return float(m.func(table, **p))

    with warnings.catch_warnings(), undefined_policy("ignore"):
        warnings.simplefilter("ignore")
        best = on(_refinement(t, True))
        if kind == "average_precision":
            return (min(_ap_lower(t), value), max(best, value))
        # both refinements are orders the raw scores may have had: within the bounds
        worst = on(_refinement(t, False))
    if kind == "above_binned":
        return (value, max(best, worst, value))
    return (min(best, worst, value), max(best, worst, value))


def _sum_taken(t: CountTable, m: Measure, p: dict[str, Any]) -> bool:
    """Whether the engine summed what a probabilistic measure reads over the raw scores
    (then a NaN is the raw scores' own: one class, scores outside [0, 1])."""
    with warnings.catch_warnings(), undefined_policy("ignore"):
        warnings.simplefilter("ignore")
        try:
            m.func(t, **p)
        except SumsUnavailable:
            return False
        except (ValueError, ArithmeticError):  # e.g. the raw scores are not probabilities
            return True
    return True


def error_bounds(ev: Evaluation, measures: Iterable[Measure]) -> Any:
    """A DataFrame of every measure with its bounds: id, value, low, high, max_error,
    bound ("exact": binning cannot have changed it; "bounded"; "none": no bound).

    A NaN value is "exact" only where the raw value is provably NaN too (see
    :func:`value_bounds`).

    Examples
    --------
    >>> import binmetrics as bm
    >>> t = binned_table([1, 0, 1, 0], [.93, .91, .56, .1], decimals=1)
    >>> ev = bm.Evaluation(t, threshold=0.5)
    >>> error_bounds(ev, [get_measure(i) for i in ("tpr", "auc", "brier")])[
    ...     ["id", "max_error", "bound"]]
          id  max_error    bound
    0    tpr      0.000    exact
    1    auc      0.125  bounded
    2  brier      0.000    exact
    """
    import pandas as pd

    rows = []
    chosen = list(measures)
    values = ev._values(chosen)
    for m in chosen:
        v = values[m.id]
        bounds = _bounds(ev, m, m.resolve_params(), v)
        if bounds is None:
            low = high = err = math.nan
            kind = "none"
        else:
            low, high = bounds
            if low == high == v:  # also an infinite value (the DOR of an empty cell)
                err = 0.0
            else:
                err = max(v - low, high - v) if not math.isnan(v) else math.nan
            kind = "exact" if err == 0.0 or math.isnan(v) else "bounded"
        rows.append({"id": m.id, "value": v, "low": low, "high": high, "max_error": err,
                     "bound": kind})
    return pd.DataFrame(rows)
