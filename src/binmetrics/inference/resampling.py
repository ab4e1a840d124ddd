"""Bootstrap intervals and permutation tests on the count table, without re-sorting.

A resample of the evaluation set changes how many cases each distinct score holds,
never the order of the scores. So a bootstrap replicate or a label permutation is
the same sorted table with new counts (docs/architecture.md, "Resampling reuses it"): B
replicates cost B count vectors and their cumulative sums, and no sort.

Bootstrap (:func:`bootstrap`)
    *Stratified* (the default) draws P positives with replacement from the
    positive cases and N negatives from the negative cases, so every replicate
    keeps P and N: the positive counts are multinomial over the groups holding
    positives (probabilities pos_g / P), and likewise the negatives.
    *Unstratified* draws n cases from all cases (multinomial over every
    (score, label) cell), so P and N vary and a replicate may lack a class.
    Draws are made by sampling case indices and counting them per group, or with
    ``Generator.multinomial`` when a class has far fewer groups than cases (heavy
    ties): index draws cost a few ns per case, multinomial draws about 100 ns per
    group, and the cheaper one is used. Either way a replicate's counts have the
    exact multinomial distribution.

Permutation test (:func:`permutation_test`)
    The null hypothesis "labels are unrelated to scores" permutes the labels over
    the fixed sorted scores: each permutation is a uniformly random choice of
    which P of the n cases are positive, i.e. a multivariate hypergeometric split
    of the group sizes m_g = pos_g + neg_g. The smaller class is drawn without
    replacement (``Generator.choice``, O(min(P, N)) per permutation) or, with few
    groups, with ``Generator.multivariate_hypergeometric``.

Replicates are :class:`~binmetrics.table.CountTable` objects on the original
scores (the groups a replicate leaves empty are dropped by a mask, which keeps the
order), so every registered measure applies unchanged. Confusion measures are
computed for a whole block of replicates at once (one :class:`Confusion` of
arrays), and a measure whose registry entry declares a resampling kernel
(:attr:`~binmetrics.measures.Measure.resampling_kernel`, such as the AUC's; see
:mod:`binmetrics.measures.kernels`) from block matrices of counts by cumulative sums;
a probabilistic measure that declares its sums (:attr:`~binmetrics.measures.Measure.sums`,
such as the Brier score's and the log losses') from each replicate's sums, its cell
counts times the sums' terms taken once per call (:mod:`binmetrics.inference._replicate_sums`);
the other measures are evaluated table by table. Every measure reads the same
replicates, drawn once per call: the same seed gives a measure the same replicates
whatever other measures are asked. The samplers and blocks are in
:mod:`binmetrics.inference._replicates`.

Weighted tables
    A weighted table has no cases to resample, only weights. The convention here
    is that weights are frequencies: the table stands for ``n_cases`` cases drawn
    with probabilities proportional to weight, by default ``round(total weight)``
    (per class when stratified). Each drawn case carries the weight
    ``total / n_cases`` so a stratified replicate keeps the class totals. With
    integer weights this is exactly the bootstrap of the data set in which each
    row is repeated ``weight`` times. For other weights (importance, balancing or
    calibration weights) pass ``n_cases`` = the number of rows behind the table
    (a warning says so otherwise). Permutation tests need integer counts.

Undefined values
    A replicate in which a measure is undefined (e.g. precision when nothing is
    predicted positive) is NaN. They are counted in ``n_undefined`` and the
    intervals use the defined replicates, with an
    :class:`~binmetrics.exceptions.UndefinedMeasureWarning` that names the count
    (or an error under ``undefined_policy("raise")``).

Randomness
    ``random_state`` is anything :func:`numpy.random.default_rng` accepts; the
    same seed gives the same replicates, intervals and p-values.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeAlias

import numpy as np
import numpy.typing as npt
from scipy.special import ndtr, ndtri

from binmetrics.formatting import HypothesisTest, Tabular
from binmetrics.inference._counting import compiled_kernels
from binmetrics.inference._jackknife import _acceleration, _jackknife
from binmetrics.inference._replicates import (
    Progress,
    ResamplingWarning,
    _BootstrapSampler,
    _evaluate_blocks,
    _evaluate_streams,
    _PermutationSampler,
    _report_undefined_replicates,
    _Target,
    _targets,
    replicate_streams,
)
from binmetrics.inference.intervals import Interval
from binmetrics.measures import Measure, get_measure
from binmetrics.table.counts import CountTable, FloatArray
from binmetrics.validation import (
    Alternative,
    check_alternative,
    check_level,
    check_random_state,
    check_resamples,
    check_threshold,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "BootstrapInterval",
    "BootstrapResult",
    "PermutationResult",
    "ResamplingWarning",
    "bootstrap",
    "bootstrap_count_blocks",
    "bootstrap_count_streams",
    "bootstrap_tables",
    "permutation_pvalue",
    "permutation_tables",
    "permutation_test",
    "replicate_streams",
]

IntervalKind = Literal["percentile", "basic", "bca"]
MeasureLike: TypeAlias = "str | Measure | Callable[[CountTable], float]"

_KINDS = ("percentile", "basic", "bca")


# --- argument checks -------------------------------------------------------------------
def _check_table(table: Any) -> CountTable:
    if not isinstance(table, CountTable):
        raise TypeError(
            "table must be a CountTable (e.g. Evaluation.table or "
            f"CountTable.from_arrays(y_true, y_score)); got {type(table).__name__}"
        )
    return table


def _check_choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}")
    return str(value)


# --- quantiles ---------------------------------------------------------------------------
def quantiles(values: Any, probs: Any) -> list[float]:
    """Quantiles by linear interpolation (numpy's default), also where the neighbours
    are infinite: np.quantile computes inf - inf there and returns NaN, which a
    likelihood ratio or an odds ratio with infinite replicates would hit."""
    v = np.sort(np.asarray(values, dtype=np.float64))
    out = []
    for q in np.atleast_1d(probs):
        h = (v.size - 1) * float(q)
        lo = math.floor(h)
        hi = min(lo + 1, v.size - 1)
        a, b, frac = float(v[lo]), float(v[hi]), h - lo
        if a == b or frac == 0.0 or math.isinf(a):
            out.append(a)
        elif math.isinf(b):
            out.append(b)
        else:  # as numpy lerps, from the nearer end
            out.append(a + (b - a) * frac if frac < 0.5 else b - (b - a) * (1.0 - frac))
    return out


# --- results ------------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class BootstrapInterval(Interval):
    """A bootstrap confidence interval: an :class:`~binmetrics.inference.intervals.Interval`
    (``low, high = interval``; ``method`` is "bootstrap-percentile", "bootstrap-basic"
    or "bootstrap-bca") that also says which measure, and how many replicates it used.
    """

    measure: str
    kind: str
    n_used: int  # replicates with a defined value
    n_undefined: int


@dataclass(frozen=True, eq=False, repr=False)
class BootstrapResult(Tabular):
    """Bootstrap distributions of one or more measures on one table.

    Attributes
    ----------
    measures : the measure ids (or callables' names), in the order requested.
    estimate : the value of each measure on the table itself.
    replicates : the bootstrap distribution of each measure (length ``n_resamples``),
        NaN where the measure is undefined on a replicate.
    n_undefined : the number of NaN replicates of each measure.
    n_resamples, stratified, threshold : how the replicates were drawn.
    """

    measures: tuple[str, ...]
    estimate: Mapping[str, float]
    replicates: Mapping[str, FloatArray]
    n_undefined: Mapping[str, int]
    n_resamples: int
    stratified: bool
    threshold: float
    _table: CountTable = field(repr=False)
    _targets: Mapping[str, _Target] = field(repr=False)
    _units: tuple[float, float] = field(repr=False)
    _memo: dict[str, float] = field(default_factory=dict, repr=False)

    def _key(self, measure: Any) -> str:
        if isinstance(measure, str) and measure in self.replicates:
            return measure
        if callable(measure) and getattr(measure, "__name__", None) in self.replicates:
            return str(measure.__name__)
        try:
            key = get_measure(measure).id
        except (KeyError, TypeError):
            key = None
        if key is None or key not in self.replicates:
            raise KeyError(f"{measure!r} was not bootstrapped; this result holds "
                           f"{', '.join(self.measures)}")
        return key

    def _defined(self, key: str) -> FloatArray:
        r = self.replicates[key]
        return r[~np.isnan(r)]

    def standard_error(self, measure: Any) -> float:
        """Standard deviation (ddof=1) of the defined replicates."""
        d = self._defined(self._key(measure))
        return float(np.std(d, ddof=1)) if d.size > 1 else float("nan")

    def bias(self, measure: Any) -> float:
        """Mean of the defined replicates minus the estimate."""
        key = self._key(measure)
        d = self._defined(key)
        return float(d.mean() - self.estimate[key]) if d.size else float("nan")

    def acceleration(self, measure: Any) -> float:
        """The BCa acceleration constant, from the jackknife on the count table.

        Leaving out one case of a (score, label) cell gives the same value for every
        case of that cell, so the jackknife costs one evaluation per cell, and for
        confusion measures (4 cells) and AUC/Gini (closed form) it is exact and
        vectorised. For other measures it is exact up to 2000 cells; beyond, each
        class's cells are cut into runs of adjacent scores (about 2000 runs in all)
        and the middle cell of each run stands for all the run's cases. That is an
        approximation which assumes a case's influence varies little between
        neighbouring scores of its class: within a few percent of the exact value
        for AUC-like and KS-like statistics in our checks, rougher for average
        precision when runs are long. It costs about 2000 evaluations of the
        measure (seconds at 1e5 distinct scores). The acceleration is of order
        skewness / (6 sqrt(n)), small for tables that large, so its error moves
        the BCa bounds little. With a stratified bootstrap the classes are separate samples (the
        multi-sample formula of scipy.stats.bootstrap), otherwise one sample.
        """
        key = self._key(measure)
        if key not in self._memo:
            samples = _jackknife(self._table, self._targets[key], self.threshold, self._units)
            if not self.stratified:
                samples = [(np.concatenate([s[0] for s in samples]),
                            np.concatenate([s[1] for s in samples]))]
            self._memo[key] = _acceleration(samples)
        return self._memo[key]

    def ci(self, measure: Any, kind: IntervalKind = "percentile",
           level: float = 0.95) -> BootstrapInterval:
        """A two-sided confidence interval from the bootstrap distribution.

        ``kind``: "percentile" (the alpha/2 and 1 - alpha/2 quantiles of the
        replicates, Berrar Def. 38), "basic" (2 estimate - those quantiles, reversed)
        or "bca" (bias-corrected and accelerated; see :meth:`acceleration`).
        Quantiles interpolate linearly (numpy's default), as scipy.stats.bootstrap
        does. Undefined replicates are left out, with a warning naming how many.
        """
        kind = _check_choice(kind, "kind", _KINDS)  # type: ignore[assignment]
        key = self._key(measure)
        # the measure's range clips the basic interval only (a statistic such as a
        # smoothed AUC has no registry range)
        bounds = self._range(key) if kind == "basic" else (-math.inf, math.inf)
        return interval_from_replicates(
            self.replicates[key], float(self.estimate[key]), measure=key, kind=kind,
            level=level, acceleration=lambda: self.acceleration(key), bounds=bounds)

    def _range(self, key: str) -> tuple[float, float]:
        try:
            return get_measure(key).range
        except KeyError:  # a callable statistic: no declared range
            return (-math.inf, math.inf)

    def to_frame(self, kind: IntervalKind = "percentile", level: float = 0.95) -> pd.DataFrame:
        """One row per measure: estimate, interval, standard error, undefined replicates."""
        import pandas as pd

        rows = []
        for key in self.measures:
            iv = self.ci(key, kind=kind, level=level)
            rows.append({"measure": key, "estimate": iv.estimate, "low": iv.low,
                         "high": iv.high, "standard_error": self.standard_error(key),
                         "n_undefined": iv.n_undefined})
        return pd.DataFrame(rows)

    def _title(self) -> str:
        return (f"BootstrapResult(measures={list(self.measures)}, n_resamples={self.n_resamples}, "
                f"stratified={self.stratified})")


@dataclass(frozen=True, eq=False, repr=False)
class PermutationResult(HypothesisTest):
    """A label-permutation test of one measure on one table.

    Attributes
    ----------
    measure, estimate : the measure id and its value on the table; the measure is
        the test's statistic, so ``statistic`` is ``estimate`` (scipy's
        ``permutation_test`` calls it the statistic).
    null_distribution : its value under each permutation (NaN where undefined).
    pvalue : see :func:`permutation_pvalue`; computed from the defined null values.
    alternative, plus_one, n_resamples, n_undefined, threshold.
    method : "label-permutation".
    """

    measure: str
    estimate: float
    null_distribution: FloatArray
    pvalue: float
    alternative: str
    plus_one: bool
    n_resamples: int
    n_undefined: int
    threshold: float

    method: ClassVar[str] = "label-permutation"

    @property
    def statistic(self) -> float:
        """The measure's value on the table (``estimate``), the test statistic."""
        return self.estimate


# --- public functions ------------------------------------------------------------------------
def bootstrap(
    table: CountTable,
    measures: MeasureLike | Iterable[MeasureLike],
    *,
    n_resamples: int = 2000,
    threshold: float = 0.5,
    stratified: bool = True,
    random_state: Any = None,
    params: Mapping[str, Mapping[str, Any]] | None = None,
    n_cases: int | tuple[int, int] | None = None,
    progress: Progress | None = None,
) -> BootstrapResult:
    """Bootstrap distributions of measures, resampling the count table without sorting.

    Parameters
    ----------
    table : CountTable
        The evaluation set's table (``Evaluation.table``).
    measures : measure name, :class:`Measure`, callable, or a list of them
        Registered measures (ids or aliases) and/or callables ``f(table) -> float``.
        All are computed on the same replicates.
    n_resamples : int, default 2000
        Number of bootstrap replicates B (at least 1).
    threshold : float, default 0.5
        Cut of the confusion measures (``score >= threshold`` is positive).
    stratified : bool, default True
        Resample positives and negatives separately (each replicate keeps P and N);
        False resamples n cases from all cases.
    random_state : seed, Generator or None
        Same seed, same replicates.
    params : mapping, optional
        Parameters per measure, e.g. ``{"fbeta": {"beta": 2}}``.
    n_cases : int or (int, int), optional
        Weighted tables only: the number of cases the weights stand for (a pair
        (positives, negatives) when stratified). Default: the rounded total weight
        (see the module docstring).
    progress : callable, optional
        Called as ``progress(done, n_resamples)`` after each block of replicates
        (the CLI draws its progress bar with it).

    Returns
    -------
    BootstrapResult
        With ``ci(measure, kind, level)``; ``n_undefined`` counts the replicates in
        which a measure was undefined.

    Examples
    --------
    >>> from binmetrics import CountTable
    >>> t = CountTable.from_arrays([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                            [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> res = bootstrap(t, ["auc", "mcc"], n_resamples=500, random_state=0)
    >>> res.estimate["auc"]
    0.8
    >>> low, high = res.ci("auc", kind="percentile")
    >>> bool(0.4 < low < 0.8 < high <= 1.0)
    True
    """
    t = _check_table(table)
    th = check_threshold(threshold)
    targets = _targets(measures, params)
    B = check_resamples(n_resamples, per_resample=len(targets), what="one per measure")
    estimate = {tg.key: tg.value(t, th) for tg in targets}  # ambient undefined policy
    sampler = _BootstrapSampler(t, bool(stratified), n_cases)
    rng = np.random.default_rng(check_random_state(random_state))
    reps = _evaluate_streams(sampler, rng, targets, th, t.cut_index(th), B, progress)
    for r in reps.values():
        r.flags.writeable = False
    units = sampler.units if stratified else (sampler.units[0], sampler.units[0])
    return BootstrapResult(
        measures=tuple(tg.key for tg in targets),
        estimate=MappingProxyType(estimate),
        replicates=MappingProxyType(reps),
        n_undefined=MappingProxyType({k: int(np.isnan(v).sum()) for k, v in reps.items()}),
        n_resamples=B,
        stratified=bool(stratified),
        threshold=th,
        _table=t,
        _targets=MappingProxyType({tg.key: tg for tg in targets}),
        _units=(float(units[0]), float(units[-1])),
    )


def bootstrap_tables(
    table: CountTable,
    n_resamples: int,
    *,
    stratified: bool = True,
    random_state: Any = None,
    n_cases: int | tuple[int, int] | None = None,
) -> Iterator[CountTable]:
    """The bootstrap replicates as count tables: the same draws as :func:`bootstrap`
    with the same arguments, for statistics of your own or for checking.

    Each table holds the original scores that the replicate drew at least once, in
    the original order (no sort).
    """
    t = _check_table(table)
    B = check_resamples(n_resamples)
    sampler = _BootstrapSampler(t, bool(stratified), n_cases)
    rng = np.random.default_rng(check_random_state(random_state))
    for block in sampler.blocks(rng, B):
        yield from block.tables()


def bootstrap_count_blocks(
    table: CountTable,
    n_resamples: int,
    *,
    stratified: bool = True,
    random_state: Any = None,
    n_cases: int | tuple[int, int] | None = None,
) -> Iterator[tuple[npt.NDArray[Any], npt.NDArray[Any]]]:
    """The bootstrap replicates as blocks of count matrices, for statistics computed on
    many replicates at once: ``(pos, neg)`` of shape ``(replicates in the block,
    table.n_distinct)``, the (weighted) positives and negatives each replicate drew at
    each of the table's distinct scores (columns in the table's order; a score the
    replicate did not draw counts 0). The same draws as :func:`bootstrap_tables` (and
    :func:`bootstrap`) with the same arguments; blocks hold about a million counts.
    ``n_cases``: weighted tables only, as in :func:`bootstrap`.

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.2])
    >>> [pos.shape for pos, neg in bootstrap_count_blocks(t, 3, random_state=0)]
    [(3, 4)]
    >>> pos, neg = next(bootstrap_count_blocks(t, 3, random_state=0))
    >>> (pos.sum(axis=1) == 2).all() and (neg.sum(axis=1) == 2).all()  # stratified
    np.True_
    """
    for _, stream in bootstrap_count_streams(table, n_resamples, stratified=stratified,
                                             random_state=random_state, n_cases=n_cases):
        yield from stream()


def bootstrap_count_streams(
    table: CountTable,
    n_resamples: int,
    *,
    stratified: bool = True,
    random_state: Any = None,
    n_cases: int | tuple[int, int] | None = None,
) -> list[tuple[int, Callable[[], Iterator[tuple[npt.NDArray[Any], npt.NDArray[Any]]]]]]:
    """The blocks of :func:`bootstrap_count_blocks` as streams, for statistics computed in
    parallel threads: ``(replicates, blocks)`` per stream, in order, where ``blocks()``
    draws the stream's blocks with its own generator (:func:`replicate_streams`), so the
    streams give the same counts whichever thread draws them and in whatever order.

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.2])
    >>> streams = bootstrap_count_streams(t, 3, random_state=0)
    >>> [(b, [pos.shape for pos, _ in blocks()]) for b, blocks in streams]
    [(3, [(3, 4)])]
    """
    t = _check_table(table)
    B = check_resamples(n_resamples)
    sampler = _BootstrapSampler(t, bool(stratified), n_cases)
    rng = np.random.default_rng(check_random_state(random_state))
    for i in range(len(sampler.strata)):  # found once, before threads share the sampler
        sampler.runs("group", i)
    compiled_kernels(sampler.n_draws)  # imports numba, if any, before the threads count

    def blocks(child: np.random.Generator,
               b: int) -> Iterator[tuple[npt.NDArray[Any], npt.NDArray[Any]]]:
        for block in sampler.stream_blocks(child, b):
            yield block.counts("group")

    return [(b, functools.partial(blocks, child, b)) for child, b in sampler.streams(rng, B)]


def permutation_pvalue(
    null_distribution: Any,
    statistic: float,
    *,
    alternative: Alternative = "two-sided",
    plus_one: bool = True,
) -> float:
    """Monte-Carlo p-value of the observed ``statistic`` against a null distribution.

    With ``plus_one`` (the default), "greater" gives
    ``(1 + #{null >= observed}) / (1 + n)``: the observed labelling counts as one of
    the permutations, so the p-value is never 0 and the test keeps its level
    (Phipson & Smyth 2010; scipy.stats.permutation_test does the same). With
    ``plus_one=False`` it is the plain ratio ``#{null >= observed} / n`` of Berrar
    section 5.1. "less" counts ``null <= observed``; "two-sided" is twice the
    smaller one-sided p-value, capped at 1. NaN null values are left out. Values
    within 100 machine epsilons (relative) of ``observed`` count as equal to it, so
    rounding cannot decide a tie.

    Examples
    --------
    Berrar's example: 300 of 10,000 permutations reach the observed 0.80.

    >>> null = [0.85] * 300 + [0.5] * 9700
    >>> permutation_pvalue(null, 0.80, alternative="greater", plus_one=False)
    0.03
    >>> round(permutation_pvalue(null, 0.80, alternative="greater"), 6)  # 301 / 10001
    0.030097
    """
    alt = check_alternative(alternative)
    null = np.asarray(null_distribution, dtype=np.float64).ravel()
    null = null[~np.isnan(null)]
    obs = float(statistic)
    if np.isnan(obs) or null.size == 0:
        return float("nan")
    gamma = abs(obs) * 100.0 * np.finfo(np.float64).eps if np.isfinite(obs) else 0.0
    adj = 1 if plus_one else 0
    n = null.size + adj
    p_greater = (np.count_nonzero(null >= obs - gamma) + adj) / n
    p_less = (np.count_nonzero(null <= obs + gamma) + adj) / n
    if alt == "greater":
        return float(p_greater)
    if alt == "less":
        return float(p_less)
    return float(min(1.0, 2.0 * min(p_greater, p_less)))


def permutation_test(
    table: CountTable,
    measure: MeasureLike,
    *,
    n_resamples: int = 10_000,
    threshold: float = 0.5,
    alternative: Alternative | str = "two-sided",
    random_state: Any = None,
    plus_one: bool = True,
    params: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
) -> PermutationResult:
    """Label-permutation test of a measure on the evaluation set.

    The null hypothesis is that labels and scores are unrelated. Each permutation
    assigns the P positive labels to a uniformly random P of the n cases over the
    fixed sorted scores (a multivariate hypergeometric split of each score's cases),
    so nothing is re-sorted. This tests the scores on this evaluation set; Berrar's
    section 5.1 procedure (retrain on permuted training labels) is a different test.

    Parameters
    ----------
    table : CountTable
        Unweighted, or weighted with integer (frequency) weights.
    measure : measure name, :class:`Measure` or callable ``f(table) -> float``
    n_resamples : int, default 10000
    threshold : float, default 0.5
        Cut of a confusion measure.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater" tests "better than chance" for a measure where higher is better,
        "less" for a loss.
    random_state : seed, Generator or None
    plus_one : bool, default True
        Count the observed labelling among the permutations (see
        :func:`permutation_pvalue`); False gives Berrar's plain ratio.
    params : mapping, optional
        The measure's parameters, e.g. ``{"beta": 2}``.

    Examples
    --------
    >>> from binmetrics import CountTable
    >>> t = CountTable.from_arrays([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                            [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> res = permutation_test(t, "auc", n_resamples=2000, alternative="greater",
    ...                        random_state=0)
    >>> res.estimate, bool(0.0 < res.pvalue < 0.1)
    (0.8, True)
    """
    t = _check_table(table)
    B = check_resamples(n_resamples)
    alt = check_alternative(alternative)
    th = check_threshold(threshold)
    if isinstance(measure, (str, Measure)):
        name = get_measure(measure).id
        (target,) = _targets([measure], {name: params} if params else None)
    else:
        if params:
            raise ValueError("params apply to registered measures, not to callables")
        (target,) = _targets([measure], None)
    sampler = _PermutationSampler(t)
    observed = target.value(t, th)
    rng = np.random.default_rng(check_random_state(random_state))
    null = _evaluate_blocks(sampler.blocks(rng, B), [target], th, t.cut_index(th), B,
                            progress)[target.key]
    null.flags.writeable = False
    k = int(np.isnan(null).sum())
    if k:
        _report_undefined_replicates(target.key, k, B, "permutations")
    p = permutation_pvalue(null, observed, alternative=alt,
                           plus_one=plus_one)
    return PermutationResult(measure=target.key, estimate=observed, null_distribution=null,
                             pvalue=p, alternative=alt, plus_one=bool(plus_one),
                             n_resamples=B, n_undefined=k, threshold=th)


def permutation_tables(
    table: CountTable,
    n_resamples: int,
    *,
    random_state: Any = None,
) -> Iterator[CountTable]:
    """The permuted tables: the same permutations as :func:`permutation_test` with the
    same seed (same scores as ``table``, positives and negatives redistributed)."""
    t = _check_table(table)
    B = check_resamples(n_resamples)
    sampler = _PermutationSampler(t)
    rng = np.random.default_rng(check_random_state(random_state))
    for block in sampler.blocks(rng, B):
        yield from block.tables()


# --- the interval formula, shared with the replicates drawn elsewhere ---------------
#: The bootstrap interval kinds.
INTERVAL_KINDS = ("percentile", "basic", "bca")


def check_kind(kind: Any) -> str:
    """``kind`` if it is one of :data:`INTERVAL_KINDS`, else a one-line error listing them."""
    if kind not in INTERVAL_KINDS:
        raise ValueError(f"kind must be one of {', '.join(map(repr, INTERVAL_KINDS))}; "
                         f"got {kind!r}")
    return str(kind)


def interval_from_replicates(
    replicates: Any,
    estimate: float,
    *,
    measure: str,
    kind: str = "percentile",
    level: float = 0.95,
    acceleration: Callable[[], float] | None = None,
    bounds: tuple[float, float] = (-math.inf, math.inf),
    report: bool = True,
) -> BootstrapInterval:
    r"""A two-sided bootstrap interval of ``estimate`` from its replicates.

    "percentile": the :math:`\alpha/2` and :math:`1 - \alpha/2` quantiles of the
    defined replicates (Berrar Def. 38); "basic": :math:`2\hat\theta` minus them,
    reversed, clipped to ``bounds``; "bca": the quantiles at
    :math:`\Phi(z_0 + (z_0 \pm z_{\alpha/2}) / (1 - a (z_0 \pm z_{\alpha/2})))` with
    :math:`z_0 = \Phi^{-1}` (share of replicates below the estimate, ties half) and
    ``a = acceleration()``. NaN replicates are left out and counted in
    ``n_undefined``, with one :class:`~binmetrics.exceptions.UndefinedMeasureWarning`
    naming the count (``report=False``: the caller reports).

    Examples
    --------
    >>> import numpy as np
    >>> iv = interval_from_replicates(np.arange(101.0), 50.0, measure="x", level=0.9)
    >>> round(iv.low, 9), round(iv.high, 9), iv.n_used
    (5.0, 95.0, 101)
    """
    kind = check_kind(kind)
    lv = check_level(level)
    r = np.asarray(replicates, dtype=np.float64).ravel()
    d = r[~np.isnan(r)]
    k = int(r.size - d.size)
    est = float(estimate)
    if k and report:
        _report_undefined_replicates(measure, k, int(r.size), "bootstrap replicates")

    def interval(lo: float, hi: float) -> BootstrapInterval:
        return BootstrapInterval(estimate=est, low=lo, high=hi, level=lv,
                                 method=f"bootstrap-{kind}", measure=measure, kind=kind,
                                 n_used=int(d.size), n_undefined=k)

    nan = float("nan")
    if d.size == 0 or math.isnan(est):
        return interval(nan, nan)
    alpha = (1.0 - lv) / 2.0
    if kind == "bca":
        p0 = (np.count_nonzero(d < est) + np.count_nonzero(d <= est)) / (2.0 * d.size)
        z0 = float(ndtri(p0))
        a = 0.0 if acceleration is None else float(acceleration())
        za = float(ndtri(alpha))
        with np.errstate(invalid="ignore", divide="ignore"):
            n1, n2 = z0 + za, z0 - za
            qs = np.array([ndtr(z0 + n1 / (1 - a * n1)), ndtr(z0 + n2 / (1 - a * n2))])
        if not np.isfinite(qs).all():
            warnings.warn(
                f"the BCa interval of {measure} cannot be computed (bias correction z0 = "
                f"{z0:g}, acceleration {a:g}): the bootstrap distribution is degenerate "
                "or the jackknife undefined; use kind='percentile'",
                ResamplingWarning, stacklevel=3)
            return interval(nan, nan)
    else:
        qs = np.array([alpha, 1.0 - alpha])
    lo, hi = quantiles(d, qs)
    if kind == "basic":
        lo, hi = 2.0 * est - hi, 2.0 * est - lo
        lo, hi = min(max(lo, bounds[0]), bounds[1]), min(max(hi, bounds[0]), bounds[1])
    return interval(lo, hi)
