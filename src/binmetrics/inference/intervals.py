"""Confidence intervals and significance tests with closed forms: binomial intervals
for the measures that are proportions, and DeLong's variance, interval and tests
for the AUC.

Everything here is a pure function of counts, a count table or labelled scores;
the resampling methods (bootstrap, permutation) live in :mod:`binmetrics.resampling`.

Proportions
    :func:`proportion_ci` gives the Wald (Berrar Def. 36), exact Clopper-Pearson
    (Berrar Def. 37), Wilson, Agresti-Coull and Jeffreys intervals of
    ``successes / trials``; :func:`measure_ci` applies them to any registered
    measure that declares :attr:`Measure.proportion` (sensitivity = TP / (TP + FN),
    precision, accuracy...), and DeLong's interval to the AUC.

AUC (DeLong, DeLong & Clarke-Pearson 1988, by the algorithm of Sun & Xu 2014, with
pROC's conventions; spec/METHODS.md section 3)
    :func:`delong_placements` (the structural components), :func:`auc_variance`,
    :func:`auc_ci` (= pROC ``ci.auc(method="delong")``), :func:`delong_test` (paired,
    = pROC ``roc.test(paired=TRUE)``), :func:`delong_test_unpaired` (Welch, =
    ``roc.test(paired=FALSE)``) and :func:`delong_contrast` (K >= 2 correlated AUCs,
    chi-square test of a contrast).

Scores are "higher = more positive" (pROC's ``direction="<"``); pROC's
``direction="auto"`` is not imitated: negate the scores for the other direction.

Undefined values follow DESIGN.md: no cases (``trials = 0``), or DeLong with fewer
than two positives or negatives, give NaN with an
:class:`~binmetrics.exceptions.UndefinedMeasureWarning` (or an error under
``undefined_policy("raise")``); invalid arguments are errors.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from scipy import special, stats

from binmetrics.exceptions import UndefinedPolicy, report_caveat, report_undefined, undefined_policy
from binmetrics.measures import Measure, get_measure
from binmetrics.table.counts import Confusion, CountTable
from binmetrics.validation import (
    Alternative,
    NanPolicy,
    as_1d,
    as_float,
    check_alternative,
    check_binary_inputs,
    check_level,
)

if TYPE_CHECKING:
    from binmetrics.evaluation.binary import Evaluation

__all__ = [
    "PROPORTION_METHODS",
    "DeLongContrast",
    "DeLongTest",
    "Interval",
    "Placements",
    "auc_ci",
    "auc_variance",
    "ci_methods",
    "delong_contrast",
    "delong_placements",
    "delong_test",
    "delong_test_unpaired",
    "measure_ci",
    "proportion_ci",
    "table_placements",
]

FloatArray = npt.NDArray[np.float64]

#: The binomial interval methods, in the order :func:`ci_methods` lists them.
PROPORTION_METHODS: tuple[str, ...] = (
    "clopper-pearson", "wald", "wilson", "agresti-coull", "jeffreys",
)
#: Other spellings accepted for a method (after lower-casing; "_" and " " read as "-").
_METHOD_ALIASES = {
    "exact": "clopper-pearson", "beta": "clopper-pearson", "clopperpearson": "clopper-pearson",
    "normal": "wald", "asymptotic": "wald", "agresticoull": "agresti-coull",
}
_RESAMPLING_METHODS = ("bootstrap",)


# --- the result type ------------------------------------------------------------------
@dataclass(frozen=True)
class Interval:
    """A confidence interval with its point estimate.

    It unpacks as its bounds, ``low, high = interval`` (``tuple(interval)`` gives
    them too); the other fields are read by name.

    Attributes
    ----------
    estimate : float
        The point estimate (the sample proportion, the AUC, the difference of AUCs).
    low, high : float
        The bounds; NaN when the interval is undefined.
    level : float
        The confidence level, e.g. 0.95.
    method : str
        How the interval was computed ("clopper-pearson", "delong", ...).

    Examples
    --------
    >>> ci = Interval(estimate=0.6, low=0.1466, high=0.9473, level=0.95,
    ...               method="clopper-pearson")
    >>> low, high = ci
    >>> low, high, round(ci.width, 4)
    (0.1466, 0.9473, 0.8007)
    >>> print(ci)
    0.6 [0.1466, 0.9473] (95% clopper-pearson)
    """

    estimate: float
    low: float
    high: float
    level: float
    method: str

    def __iter__(self) -> Iterator[float]:
        yield self.low
        yield self.high

    @property
    def width(self) -> float:
        """``high - low``."""
        return self.high - self.low

    def contains(self, value: float) -> bool:
        """``low <= value <= high`` (False when the interval is undefined)."""
        return bool(self.low <= value <= self.high)

    def __str__(self) -> str:
        return (f"{self.estimate:.6g} [{self.low:.6g}, {self.high:.6g}] "
                f"({self.level * 100:g}% {self.method})")


def _normal_quantiles(level: float) -> tuple[float, float]:
    """Phi^-1((1 - c)/2) and Phi^-1(1 - (1 - c)/2), as R's qnorm computes them."""
    alpha = 1.0 - level
    return float(special.ndtri(alpha / 2.0)), float(special.ndtri(1.0 - alpha / 2.0))


# --- proportions ----------------------------------------------------------------------
def method_name(method: Any) -> str:
    """A method name in its canonical spelling ("Clopper_Pearson" -> "clopper-pearson")."""
    if not isinstance(method, str):
        raise TypeError(f"method must be a string, got {method!r}")
    key = method.strip().lower().replace("_", "-").replace(" ", "-")
    return _METHOD_ALIASES.get(key.replace("-", ""), _METHOD_ALIASES.get(key, key))


def _count(value: Any, name: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number, got {value!r}") from None
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return v


def proportion_ci(
    successes: float,
    trials: float,
    *,
    method: str = "clopper-pearson",
    level: float = 0.95,
) -> Interval:
    r"""Confidence interval for a binomial proportion p = successes / trials.

    With k successes in n trials, p̂ = k/n, α = 1 - ``level`` and
    z = Φ⁻¹(1 - α/2) the normal quantile:

    ``"wald"`` (Berrar Def. 36, eq. 45)
        p̂ ± z √(p̂(1 - p̂)/n). Returned as computed, **not clipped** to [0, 1]
        (Berrar's worked example shows the raw [0.1706, 1.0294]). It warns with a
        :class:`~binmetrics.exceptions.MeasureCaveatWarning` when n p̂ <= 5 or
        n(1 - p̂) <= 5, the paper's condition for the approximation.
    ``"clopper-pearson"`` (Berrar Def. 37, eq. 47; the default)
        The exact interval [B(α/2; k, n - k + 1), B(1 - α/2; k + 1, n - k)], with
        B(q; a, b) the q-quantile of the Beta(a, b) distribution; lower bound 0 at
        k = 0 and upper bound 1 at k = n. This equals the paper's F-distribution form
        [k / (k + (n-k+1) F(1-α/2; 2(n-k+1), 2k)),
        (k+1) F(1-α/2; 2(k+1), 2(n-k)) / ((n-k) + (k+1) F(1-α/2; 2(k+1), 2(n-k)))].
    ``"wilson"`` (Wilson 1927)
        [p̂ + z²/(2n) ± z √(p̂(1 - p̂)/n + z²/(4n²))] / (1 + z²/n), clipped to
        [0, 1] (it lies inside up to rounding).
    ``"agresti-coull"`` (Agresti & Coull 1998)
        ñ = n + z², p̃ = (k + z²/2)/ñ, p̃ ± z √(p̃(1 - p̃)/ñ), clipped to [0, 1].
    ``"jeffreys"`` (Brown, Cai & DasGupta 2001)
        The equal-tailed interval of the Beta(k + 1/2, n - k + 1/2) posterior,
        [B(α/2; k+½, n-k+½), B(1-α/2; k+½, n-k+½)], with no special case at k = 0 or
        k = n (as statsmodels; Brown et al. set the lower bound to 0 at k = 0 and
        the upper to 1 at k = n).

    The values equal statsmodels' ``proportion_confint`` with methods "normal"
    (before its clipping), "beta", "wilson", "agresti_coull" and "jeffreys".

    Parameters
    ----------
    successes : float
        k, in [0, trials]. Weighted (non-integer) counts are accepted and used as if
        they were counts: the intervals then assume that the weights are frequencies.
    trials : float
        n >= 0. With n = 0 the proportion is undefined: the interval is NaN, with an
        :class:`~binmetrics.exceptions.UndefinedMeasureWarning`.
    method : {"clopper-pearson", "wald", "wilson", "agresti-coull", "jeffreys"}
        Also accepted: "exact" and "beta" (Clopper-Pearson), "normal" (Wald), and
        underscores for hyphens.
    level : float in (0, 1), default 0.95
        The confidence level 1 - α.

    Returns
    -------
    Interval
        ``estimate`` is p̂ = k/n whatever the method; unpack it as ``low, high``.

    Raises
    ------
    ValueError
        ``level`` outside (0, 1), ``trials < 0``, ``successes`` outside
        [0, trials], non-finite counts, or an unknown method (the message lists the
        methods).

    References
    ----------
    D. Berrar, "Performance measures for binary classification", Encyclopedia of
    Bioinformatics and Computational Biology 1 (2019) 546-560, Defs 36-37.
    C. J. Clopper and E. S. Pearson, Biometrika 26 (1934) 404-413.
    E. B. Wilson, J. Am. Stat. Assoc. 22 (1927) 209-212.
    A. Agresti and B. A. Coull, Am. Stat. 52 (1998) 119-126.
    L. D. Brown, T. T. Cai and A. DasGupta, Stat. Sci. 16 (2001) 101-133.

    Examples
    --------
    Berrar's worked example, the sensitivity 3/5:

    >>> ci = proportion_ci(3, 5)
    >>> round(ci.low, 4), round(ci.high, 4)
    (0.1466, 0.9473)
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")  # n p = 3 <= 5: the Wald caveat
    ...     low, high = proportion_ci(3, 5, method="wald")
    >>> round(low, 4), round(high, 4)
    (0.1706, 1.0294)
    >>> print(proportion_ci(45, 50, method="wilson", level=0.9))
    0.9 [0.808462, 0.950471] (90% wilson)
    """
    m = method_name(method)
    if m not in PROPORTION_METHODS:
        raise ValueError(
            f"unknown proportion interval method {method!r}; methods: "
            f"{', '.join(PROPORTION_METHODS)}"
        )
    c = check_level(level)
    k = _count(successes, "successes")
    n = _count(trials, "trials")
    if n < 0:
        raise ValueError(f"trials must be >= 0, got {trials!r}")
    if not 0 <= k <= n:
        raise ValueError(f"successes must lie in [0, trials] = [0, {n:g}]; got {successes!r}")
    if n == 0:
        report_undefined(f"{m} interval", "there are no trials (0/0)")
        return Interval(math.nan, math.nan, math.nan, c, m)
    p = k / n
    alpha = 1.0 - c
    z = -float(special.ndtri(alpha / 2.0))  # Phi^-1(1 - alpha/2)
    if m == "wald":
        if k <= 5 or n - k <= 5:
            report_caveat(
                "wald interval",
                f"n*p = {k:g} and n*(1-p) = {n - k:g}; the normal approximation needs "
                "both > 5 (Berrar Def. 36): use an exact (clopper-pearson) or wilson "
                "interval",
            )
        half = z * math.sqrt(p * (1.0 - p) / n)
        low, high = p - half, p + half
    elif m == "clopper-pearson":
        low = 0.0 if k == 0 else float(stats.beta.ppf(alpha / 2.0, k, n - k + 1.0))
        high = 1.0 if k == n else float(stats.beta.isf(alpha / 2.0, k + 1.0, n - k))
    elif m == "jeffreys":
        low = float(stats.beta.ppf(alpha / 2.0, k + 0.5, n - k + 0.5))
        high = float(stats.beta.isf(alpha / 2.0, k + 0.5, n - k + 0.5))
    elif m == "wilson":
        z2 = z * z
        den = 1.0 + z2 / n
        center = (p + z2 / (2.0 * n)) / den
        half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / den
        low, high = _clip01(center - half), _clip01(center + half)
    else:  # agresti-coull
        z2 = z * z
        n_t = n + z2
        p_t = (k + z2 / 2.0) / n_t
        half = z * math.sqrt(p_t * (1.0 - p_t) / n_t)
        low, high = _clip01(p_t - half), _clip01(p_t + half)
    return Interval(p, low, high, c, m)


def _clip01(x: float) -> float:
    return min(max(x, 0.0), 1.0)


# --- any registered measure -----------------------------------------------------------
def ci_methods(measure: str | Measure) -> tuple[str, ...]:
    """The interval methods that apply to a registered measure, preferred first.

    Read from the registry: the binomial methods (:data:`PROPORTION_METHODS`) for a
    measure that declares :attr:`Measure.proportion`, ``"delong"`` for the AUC, and
    ``"bootstrap"`` (:mod:`binmetrics.resampling`) for every measure.

    Examples
    --------
    >>> ci_methods("sensitivity")
    ('clopper-pearson', 'wald', 'wilson', 'agresti-coull', 'jeffreys', 'bootstrap')
    >>> ci_methods("auc"), ci_methods("mcc")
    (('delong', 'bootstrap'), ('bootstrap',))
    """
    m = get_measure(measure)
    methods: list[str] = []
    if m.proportion is not None:
        methods.extend(PROPORTION_METHODS)
    methods.extend(m.interval_methods)  # e.g. DeLong for the AUC, from the registry
    methods.extend(_RESAMPLING_METHODS)
    return tuple(methods)


def measure_ci(
    evaluation_or_confusion: Evaluation | Confusion,
    measure: str | Measure,
    *,
    method: str = "auto",
    level: float = 0.95,
) -> Interval:
    """The closed-form confidence interval of a registered measure.

    For a measure that is a proportion (its registry entry declares
    :attr:`Measure.proportion`, a function of the confusion matrix giving
    ``(successes, trials)``, e.g. ``(TP, TP + FN)`` for the sensitivity) this is
    :func:`proportion_ci` of those counts; for the AUC it is DeLong's interval
    (:func:`auc_ci`), which needs the count table, i.e. an
    :class:`~binmetrics.evaluation.Evaluation`.

    Parameters
    ----------
    evaluation_or_confusion : Evaluation or Confusion
        An evaluation (its confusion matrix at its threshold, its count table, and
        its ``undefined`` policy are used) or a confusion matrix of scalars.
    measure : str or Measure
        Any id or alias of the registry.
    method : str, default "auto"
        One of :func:`ci_methods` of the measure; "auto" is the first of them
        ("clopper-pearson" for proportions, "delong" for the AUC). "bootstrap" is not
        computed here: use :mod:`binmetrics.resampling`.
    level : float in (0, 1), default 0.95

    Returns
    -------
    Interval
        Its ``estimate`` is the measure's value.

    Raises
    ------
    ValueError
        The method does not apply to the measure (the message lists the methods that
        do), "auto" for a measure that only the bootstrap covers, or ``level``
        outside (0, 1).

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1], threshold=0.55)
    >>> ci = measure_ci(ev, "sensitivity")
    >>> ci.estimate, round(ci.low, 4), round(ci.high, 4)
    (0.6, 0.1466, 0.9473)
    >>> low, high = measure_ci(ev, "auc", method="delong")
    >>> round(low, 4), high
    (0.4964, 1.0)
    """
    m = get_measure(measure)
    applicable = ci_methods(m)
    name = method_name(method)
    if name == "auto":
        analytic = [x for x in applicable if x not in _RESAMPLING_METHODS]
        if not analytic:
            raise ValueError(
                f"{m.id} has no closed-form interval; methods that apply to it: "
                f"{', '.join(applicable)} (binmetrics.resampling)"
            )
        name = analytic[0]
    if name not in applicable:
        raise ValueError(
            f"method {method!r} does not apply to {m.id}; methods that apply to it: "
            f"{', '.join(applicable)}"
        )
    if name in _RESAMPLING_METHODS:
        raise ValueError(
            f"measure_ci computes the closed-form intervals; {name} intervals of {m.id} "
            "come from binmetrics.inference.resampling"
        )
    c = check_level(level)
    obj: Any = evaluation_or_confusion
    policy: UndefinedPolicy
    if isinstance(obj, Confusion):
        conf, table, policy = obj, None, "warn"
    elif isinstance(getattr(obj, "table", None), CountTable):
        conf, table, policy = obj.confusion, obj.table, obj.undefined
    else:
        raise TypeError(f"measure_ci needs an Evaluation or a Confusion; got "
                        f"{type(obj).__name__}")
    with undefined_policy(policy):
        if name == "delong":
            if table is None:
                raise ValueError(
                    f"DeLong's interval of {m.id} needs the count table: pass an "
                    "Evaluation (bm.evaluate(...)), not a confusion matrix"
                )
            return auc_ci(table, level=c)
        assert m.proportion is not None  # the method is a binomial one
        k, n = m.proportion(conf)
        return proportion_ci(k, n, method=name, level=c)


# --- DeLong placements ----------------------------------------------------------------
@dataclass(frozen=True)
class Placements:
    """DeLong's placements (structural components) of one model.

    ``v10[i]`` is the placement of a positive among the negatives, the fraction of
    negatives it outscores, ties counting one half (pROC's ``X``); ``v01[j]`` the
    placement of a negative among the positives, the fraction of positives scoring
    above it, ties counting one half (pROC's ``Y``). Each value comes with a
    multiplicity ``w10[i]`` / ``w01[j]``: 1 for a row, the weight of a weighted
    row, or the size of a group of tied cases in the count-table form
    (:func:`table_placements`).

    ``m = sum(w10)`` and ``n = sum(w01)`` are the numbers of positives and negatives.
    """

    v10: FloatArray
    v01: FloatArray
    w10: FloatArray
    w01: FloatArray
    m: float
    n: float

    @property
    def auc(self) -> float:
        """θ = mean(V10) = mean(V01), the Mann-Whitney AUC."""
        return float(np.dot(self.w10, self.v10) / self.m)

    @property
    def s10(self) -> float:
        """var(V10) with ddof = 1: Σ w (V10 - mean)² / (m - 1)."""
        return _wvar(self.v10, self.w10, self.m)

    @property
    def s01(self) -> float:
        """var(V01) with ddof = 1: Σ w (V01 - mean)² / (n - 1)."""
        return _wvar(self.v01, self.w01, self.n)

    @property
    def variance(self) -> float:
        """DeLong's variance of the AUC, S10/m + S01/n (pROC ``var(method="delong")``)."""
        return self.s10 / self.m + self.s01 / self.n


def _wvar(v: FloatArray, w: FloatArray, total: float) -> float:
    d = v - np.dot(w, v) / total
    return float(np.dot(w, d * d) / (total - 1.0))


def table_placements(table: CountTable) -> Placements:
    """DeLong's placements from a count table, one value per group of tied cases.

    The positives of a group share one placement and so do its negatives: with the
    table in descending order, a group with ``pos`` positives and ``neg`` negatives,
    ``tp0`` positives above it, ``fp1`` negatives at or above it, and P, N in all,

        V10 = (N - fp1 + neg/2) / N    (multiplicity pos)
        V01 = (tp0 + pos/2) / P        (multiplicity neg)

    This is Sun & Xu's midrank formula (spec/METHODS.md section 3): the midrank of a
    score in the pooled sample minus its midrank among the positives,
    T_Z - T_X, is the number of negatives below it plus half the tied ones. The cost
    is O(number of distinct scores): the one sort is the table's. Weights are
    multiplicities, so integer weights give exactly the placements of repeated rows.

    Parameters
    ----------
    table : CountTable
        Must hold positives and negatives (otherwise a ValueError).

    Examples
    --------
    >>> from binmetrics import CountTable
    >>> t = CountTable.from_arrays([1, 1, 0, 0], [0.9, 0.5, 0.5, 0.1])
    >>> pl = table_placements(t)
    >>> pl.v10.tolist(), pl.w10.tolist(), pl.v01.tolist(), pl.auc
    ([1.0, 0.75], [1.0, 1.0], [0.75, 1.0], 0.875)
    """
    P, N = float(table.P), float(table.N)
    if not (P > 0 and N > 0):
        raise ValueError("DeLong's placements need positives and negatives in the table")
    g = table.positive_groups()
    v10 = (N - g.fp1 + 0.5 * g.neg) / N
    neg = table.neg
    idx = np.flatnonzero(neg)
    w01 = neg[idx].astype(np.float64)
    v01 = (table.tp[idx] + 0.5 * table.pos[idx].astype(np.float64)) / P
    return Placements(v10=v10, v01=v01, w10=g.pos, w01=w01, m=P, n=N)


def _group_placements(
    y: npt.NDArray[np.bool_], s: FloatArray, w: FloatArray | None
) -> tuple[FloatArray, FloatArray, float, float]:
    """Per-row placements: V10 of each positive row and V01 of each negative row (in
    row order), with P and N. One sort (np.unique), then the group formula of
    :func:`table_placements` mapped back to the rows."""
    uniq, inv = np.unique(s, return_inverse=True)  # ascending
    inv = inv.reshape(-1)
    if w is None:
        pos_g = np.bincount(inv[y], minlength=uniq.size).astype(np.float64)
        neg_g = np.bincount(inv[~y], minlength=uniq.size).astype(np.float64)
    else:
        pos_g = np.bincount(inv[y], weights=w[y], minlength=uniq.size).astype(np.float64)
        neg_g = np.bincount(inv[~y], weights=w[~y], minlength=uniq.size).astype(np.float64)
    P, N = float(pos_g.sum()), float(neg_g.sum())
    neg_below = np.concatenate(([0.0], np.cumsum(neg_g)[:-1]))
    pos_above = np.concatenate((np.cumsum(pos_g[::-1])[::-1][1:], [0.0]))
    v10_g = (neg_below + 0.5 * neg_g) / N if N > 0 else np.full(uniq.size, np.nan)
    v01_g = (pos_above + 0.5 * pos_g) / P if P > 0 else np.full(uniq.size, np.nan)
    return v10_g[inv[y]], v01_g[inv[~y]], P, N


def delong_placements(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
) -> Placements:
    """DeLong's placements of every row: V10 of each positive, V01 of each negative.

    With the m positives X_i and the n negatives Y_j, ψ(a, b) = 1 if a > b,
    1/2 if a = b, 0 otherwise:

        V10_i = (1/n) Σ_j ψ(X_i, Y_j),   V01_j = (1/m) Σ_i ψ(X_i, Y_j),
        θ = mean(V10) = mean(V01) = AUC.

    Computed in O(n log n) by Sun & Xu's midranks, V10_i = (T_Z(X_i) - T_X(X_i))/n and
    V01_j = 1 - (T_Z(Y_j) - T_Y(Y_j))/m, i.e. the counts of the other class below /
    above plus half the tied ones, from one sort (see :func:`table_placements`).
    Rows are in input order within each class, as pROC's ``X`` and ``Y``; weights
    are multiplicities (``w10``, ``w01``), so integer weights equal repeated rows.

    Use this per-row form to pair models on the same subjects
    (:func:`delong_test`); for one model, :func:`table_placements` of its count
    table gives the same variance in O(distinct scores).

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, nan_policy
        As :func:`binmetrics.evaluate`. Scores: higher = more positive.

    Returns
    -------
    Placements
        Its ``auc`` and ``variance`` give θ and DeLong's variance.

    References
    ----------
    E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, Biometrics 44 (1988) 837-845.
    X. Sun and W. Xu, IEEE Signal Process. Lett. 21 (2014) 1389-1393.

    Examples
    --------
    The first model of spec/METHODS.md section 3:

    >>> y = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    >>> s1 = [.9, .8, .7, .55, .4, .7, .5, .3, .2, .1, .4]
    >>> pl = delong_placements(y, s1)
    >>> pl.v10.round(6).tolist()
    [1.0, 1.0, 0.916667, 0.833333, 0.583333]
    >>> pl.v01.round(6).tolist(), round(pl.auc, 12), round(pl.variance, 12)
    ([0.5, 0.8, 1.0, 1.0, 1.0, 0.9], 0.866666666667, 0.012416666667)
    """
    inp = check_binary_inputs(y_true, y_score, sample_weight, pos_label=pos_label,
                              nan_policy=nan_policy)
    v10, v01, P, N = _group_placements(inp.y, inp.score, inp.weight)
    if not (P > 0 and N > 0):
        raise ValueError("DeLong's placements need positives and negatives in y_true")
    if inp.weight is None:
        w10, w01 = np.ones(v10.size), np.ones(v01.size)
    else:
        w10, w01 = inp.weight[inp.y], inp.weight[~inp.y]
    return Placements(v10=v10, v01=v01, w10=w10, w01=w01, m=P, n=N)


# --- one AUC ----------------------------------------------------------------------------
def _as_table(data: Any, y_score: Any, sample_weight: Any, pos_label: Any,
              nan_policy: NanPolicy) -> CountTable:
    if y_score is None:
        table = data if isinstance(data, CountTable) else getattr(data, "table", None)
        if not isinstance(table, CountTable):
            raise TypeError(
                "pass y_true and y_score, or a CountTable or Evaluation as the only "
                f"positional argument; got {type(data).__name__} without y_score"
            )
        if sample_weight is not None or pos_label is not None:
            raise TypeError("sample_weight and pos_label go with y_true and y_score, "
                            "not with a count table")
        return table
    return CountTable.from_arrays(data, y_score, sample_weight=sample_weight,
                                  pos_label=pos_label, nan_policy=nan_policy)


def _class_sizes_ok(m: float, n: float, what: str) -> bool:
    """pROC: DeLong needs m > 1 and n > 1; otherwise report and return False."""
    if m > 1 and n > 1:
        return True
    report_undefined(what, f"DeLong's method needs at least 2 positives and 2 negatives; "
                           f"got {m:g} positives and {n:g} negatives")
    return False


def auc_variance(
    y_true: Any,
    y_score: Any = None,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
) -> float:
    """DeLong's variance of the AUC (pROC ``var(roc, method="delong")``).

        Var(θ) = S10/m + S01/n,  S10 = var(V10), S01 = var(V01)  (ddof = 1),

    from the placements of :func:`table_placements`, in O(distinct scores) after
    the one sort.

    Parameters
    ----------
    y_true, y_score : array-like
        Labels and scores (higher = more positive); or pass a
        :class:`~binmetrics.counts.CountTable` or an
        :class:`~binmetrics.evaluation.Evaluation` alone, whose table is used.
    sample_weight, pos_label, nan_policy
        As :func:`binmetrics.evaluate`. Weights are multiplicities (integer weights
        equal repeated rows), so they must be on the scale of counts: a class whose
        weights sum to 1 or less has no variance.

    Returns
    -------
    float
        NaN, with an :class:`~binmetrics.exceptions.UndefinedMeasureWarning`, when
        there are fewer than 2 positives or 2 negatives (as pROC).

    Examples
    --------
    >>> y = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    >>> s2 = [.6, .9, .4, .5, .5, .5, .8, .2, .3, .1, .35]
    >>> round(auc_variance(y, s2), 12)
    0.021861111111
    """
    table = _as_table(y_true, y_score, sample_weight, pos_label, nan_policy)
    if not _class_sizes_ok(table.P, table.N, "auc variance (DeLong)"):
        return math.nan
    return table_placements(table).variance


def auc_ci(
    y_true: Any,
    y_score: Any = None,
    *,
    level: float = 0.95,
    sample_weight: Any = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
) -> Interval:
    """DeLong's confidence interval of the AUC (pROC ``ci.auc(method="delong")``).

        θ + √Var(θ) · Φ⁻¹((1 - c)/2)  and  θ + √Var(θ) · Φ⁻¹(1 - (1 - c)/2),

    each bound clipped to [0, 1], with Var(θ) from :func:`auc_variance`.

    Parameters
    ----------
    y_true, y_score : array-like
        Labels and scores (higher = more positive), or a
        :class:`~binmetrics.counts.CountTable` or
        :class:`~binmetrics.evaluation.Evaluation` alone.
    level : float in (0, 1), default 0.95
    sample_weight, pos_label, nan_policy
        As :func:`auc_variance`.

    Returns
    -------
    Interval
        ``estimate`` is the AUC. With fewer than 2 positives or 2 negatives the
        bounds are NaN, with an :class:`~binmetrics.exceptions.UndefinedMeasureWarning`
        (pROC returns NA for the estimate too; binmetrics keeps the AUC when it is
        defined, i.e. when both classes occur).

    References
    ----------
    DeLong, DeLong & Clarke-Pearson (1988); Sun & Xu (2014); X. Robin et al., pROC,
    BMC Bioinformatics 12 (2011) 77.

    Examples
    --------
    >>> y = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    >>> s1 = [.9, .8, .7, .55, .4, .7, .5, .3, .2, .1, .4]
    >>> ci = auc_ci(y, s1)
    >>> round(ci.low, 8), round(ci.estimate, 8), ci.high  # the upper 1.0851 is clipped
    (0.64826769, 0.86666667, 1.0)
    """
    c = check_level(level)
    table = _as_table(y_true, y_score, sample_weight, pos_label, nan_policy)
    P, N = table.P, table.N
    if not (P > 0 and N > 0):
        which = "positives" if P == 0 else "negatives"
        report_undefined("auc interval (DeLong)", f"y_true has no {which}")
        return Interval(math.nan, math.nan, math.nan, c, "delong")
    pl = table_placements(table)
    theta = pl.auc
    if not _class_sizes_ok(P, N, "auc interval (DeLong)"):
        return Interval(theta, math.nan, math.nan, c, "delong")
    sd = math.sqrt(pl.variance)
    q_low, q_high = _normal_quantiles(c)
    return Interval(theta, _clip01(theta + sd * q_low), _clip01(theta + sd * q_high), c,
                    "delong")


# --- several AUCs on the same subjects ----------------------------------------------------
def _paired_inputs(
    y_true: Any, scores: Sequence[Any], names: Sequence[str], sample_weight: Any,
    pos_label: Any, nan_policy: NanPolicy,
) -> tuple[npt.NDArray[np.bool_], list[FloatArray], FloatArray | None]:
    if nan_policy not in ("raise", "omit"):
        raise ValueError(f"nan_policy must be 'raise' or 'omit', got {nan_policy!r}")
    y_raw = as_1d(y_true, "y_true")
    arrays = [as_float(as_1d(s, name), name) for s, name in zip(scores, names, strict=True)]
    for a, name in zip(arrays, names, strict=True):
        if a.size != y_raw.size:
            raise ValueError(f"y_true and {name} have different lengths: {y_raw.size} and "
                             f"{a.size}")
    bad = np.zeros(y_raw.size, dtype=bool)
    for a in arrays:
        bad |= ~np.isfinite(a)
    if bad.any():
        if nan_policy == "raise":
            which = [name for a, name in zip(arrays, names, strict=True)
                     if not np.isfinite(a).all()]
            raise ValueError(
                f"{', '.join(which)} hold non-finite values in {int(bad.sum())} rows; pass "
                "nan_policy='omit' to drop those rows from every model (pairwise, as pROC)"
            )
        keep = ~bad
        if not keep.any():
            raise ValueError("every row has a NaN or infinite score: nothing left to compare")
        y_raw = y_raw[keep]
        arrays = [a[keep] for a in arrays]
        if sample_weight is not None:
            w_raw = as_1d(sample_weight, "sample_weight")
            if w_raw.size != bad.size:
                raise ValueError(f"sample_weight has {w_raw.size} values but y_true has "
                                 f"{bad.size} rows")
            sample_weight = w_raw[keep]
        warnings.warn(f"nan_policy='omit': dropped {int(bad.sum())} rows with non-finite "
                      "scores", UserWarning, stacklevel=3)
    inp = check_binary_inputs(y_raw, arrays[0], sample_weight, pos_label=pos_label)
    return inp.y, arrays, inp.weight


@dataclass(frozen=True)
class _Paired:
    aucs: FloatArray  # (K,)
    cov: FloatArray  # (K, K): S = S10/m + S01/n
    m: float
    n: float


def _paired(y: npt.NDArray[np.bool_], arrays: Sequence[FloatArray],
            w: FloatArray | None) -> _Paired:
    """AUCs and DeLong's covariance matrix of K models scored on the same rows."""
    rows10, rows01 = [], []
    P = N = 0.0
    for s in arrays:
        v10, v01, P, N = _group_placements(y, s, w)
        rows10.append(v10)
        rows01.append(v01)
    V10, V01 = np.vstack(rows10), np.vstack(rows01)
    if w is None:
        w10, w01 = np.ones(V10.shape[1]), np.ones(V01.shape[1])
    else:
        w10, w01 = w[y], w[~y]
    aucs = V10 @ w10 / P
    if not (P > 1 and N > 1):
        return _Paired(aucs, np.full((len(arrays),) * 2, np.nan), P, N)
    D10 = V10 - aucs[:, None]
    D01 = V01 - (V01 @ w01 / N)[:, None]
    S10 = (D10 * w10) @ D10.T / (P - 1.0)
    S01 = (D01 * w01) @ D01.T / (N - 1.0)
    return _Paired(aucs, S10 / P + S01 / N, P, N)


@dataclass(frozen=True)
class DeLongTest:
    """DeLong's test of the difference of two AUCs, d = auc_a - auc_b.

    Attributes
    ----------
    auc_a, auc_b : float
        The two AUCs.
    difference : float
        d = auc_a - auc_b.
    sigma : float
        The standard error of d.
    statistic : float
        Z = d / sigma (paired) or Welch's t (unpaired); 0 when d = 0 and sigma = 0.
    pvalue : float
        For ``alternative``: "two-sided", "greater" (auc_a > auc_b) or "less".
    ci : Interval
        The interval of the difference, always two-sided: d ± q·sigma, with q the
        normal quantile (paired, as pROC) or the t quantile with ``df`` degrees of
        freedom (unpaired; pROC gives none).
    alternative : str
    paired : bool
    df : float or None
        Welch's degrees of freedom (unpaired), None for the paired z-test.
    covariance : ndarray of shape (2, 2)
        DeLong's covariance matrix of (auc_a, auc_b); the off-diagonal is 0 unpaired.
    """

    auc_a: float
    auc_b: float
    difference: float
    sigma: float
    statistic: float
    pvalue: float
    ci: Interval
    alternative: str
    paired: bool
    df: float | None
    covariance: FloatArray


def _ratio_stat(d: float, sigma: float) -> float:
    if sigma > 0:
        return d / sigma
    return 0.0 if d == 0 else math.copysign(math.inf, d)


def _nan_test(c: float, alternative: str, paired: bool, aucs: Sequence[float]) -> DeLongTest:
    nan = math.nan
    d = aucs[0] - aucs[1]
    return DeLongTest(aucs[0], aucs[1], d, nan, nan, nan,
                      Interval(d, nan, nan, c, "delong"), alternative, paired,
                      None if paired else nan, np.full((2, 2), nan))


def delong_test(
    y_true: Any,
    score_a: Any,
    score_b: Any,
    *,
    alternative: Alternative = "two-sided",
    level: float = 0.95,
    sample_weight: Any = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
) -> DeLongTest:
    """DeLong's paired test of two AUCs on the same subjects (pROC ``roc.test(...,
    method="delong", paired=TRUE)``).

    With the per-subject placements of both models (:func:`delong_placements`),
    S10 and S01 the 2×2 covariance matrices (ddof = 1) of the positives' and the
    negatives' placements, and S = S10/m + S01/n:

        d = θ_a - θ_b,  σ = √([1, -1] S [1, -1]ᵀ),  Z = d/σ  (Z = 0 when d = σ = 0),
        p = 2Φ(-|Z|) (two-sided), Φ(-Z) ("greater"), Φ(Z) ("less"),
        CI = d ± Φ⁻¹(1 - (1 - c)/2) σ.

    Parameters
    ----------
    y_true : array-like
        Labels of the subjects.
    score_a, score_b : array-like
        The two models' scores for the same subjects (higher = more positive).
    alternative : {"two-sided", "greater", "less"}
        "greater": the alternative auc_a > auc_b. ("two.sided" is accepted.)
    level : float in (0, 1), default 0.95
        Level of the interval of the difference (two-sided whatever ``alternative``).
    sample_weight, pos_label
        As :func:`binmetrics.evaluate`; weights are multiplicities.
    nan_policy : {"raise", "omit"}
        "omit" drops a row whose score is NaN/inf in either model (pairwise, as pROC).

    Returns
    -------
    DeLongTest
        All NaN, with an :class:`~binmetrics.exceptions.UndefinedMeasureWarning`, when
        there are fewer than 2 positives or negatives. When both AUCs are 1 it warns
        (a :class:`~binmetrics.exceptions.MeasureCaveatWarning`, as pROC) and p = 1.

    Examples
    --------
    The paired test of spec/METHODS.md section 3:

    >>> y = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    >>> s1 = [.9, .8, .7, .55, .4, .7, .5, .3, .2, .1, .4]
    >>> s2 = [.6, .9, .4, .5, .5, .5, .8, .2, .3, .1, .35]
    >>> t = delong_test(y, s1, s2)
    >>> round(t.statistic, 12), round(t.pvalue, 12)
    (0.512567829626, 0.608253661495)
    >>> low, high = t.ci
    >>> round(low, 12), round(high, 12)
    (-0.18825425908, 0.321587592413)
    """
    alt = check_alternative(alternative)
    c = check_level(level)
    y, arrays, w = _paired_inputs(y_true, [score_a, score_b], ["score_a", "score_b"],
                                  sample_weight, pos_label, nan_policy)
    n_pos = float(w[y].sum()) if w is not None else float(np.count_nonzero(y))
    n_neg = float(w[~y].sum()) if w is not None else float(y.size - np.count_nonzero(y))
    if not (n_pos > 0 and n_neg > 0):
        which = "positives" if n_pos == 0 else "negatives"
        report_undefined("delong test", f"y_true has no {which}")
        return _nan_test(c, alt, True, [math.nan, math.nan])
    pr = _paired(y, arrays, w)
    aucs = [float(pr.aucs[0]), float(pr.aucs[1])]
    if not _class_sizes_ok(pr.m, pr.n, "delong test"):
        return _nan_test(c, alt, True, aucs)
    S = pr.cov
    d = aucs[0] - aucs[1]
    L = np.array([1.0, -1.0])
    sigma = math.sqrt(max(float(L @ S @ L), 0.0))
    if aucs[0] == 1.0 and aucs[1] == 1.0:
        report_caveat("delong test", "both AUCs are 1: the test cannot tell the models apart")
    z = _ratio_stat(d, sigma)
    p = _normal_pvalue(z, alt)
    q = float(special.ndtri(1.0 - (1.0 - c) / 2.0))
    ci = Interval(d, d - q * sigma, d + q * sigma, c, "delong")
    return DeLongTest(aucs[0], aucs[1], d, sigma, z, p, ci, alt, True, None, S)


def _normal_pvalue(z: float, alternative: str) -> float:
    if math.isnan(z):
        return math.nan
    if alternative == "two-sided":
        return float(2.0 * special.ndtr(-abs(z)))
    if alternative == "greater":
        return float(special.ndtr(-z))
    return float(special.ndtr(z))


def delong_test_unpaired(
    y_a: Any,
    score_a: Any,
    y_b: Any,
    score_b: Any,
    *,
    alternative: Alternative = "two-sided",
    level: float = 0.95,
    sample_weight_a: Any = None,
    sample_weight_b: Any = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
) -> DeLongTest:
    """DeLong's test of two AUCs on independent samples (pROC ``roc.test(...,
    method="delong", paired=FALSE)``).

    With each sample's DeLong variance S_R = S10/m_R + S01/n_R and S_S (as
    :func:`auc_variance`) and N_R = m_R + n_R, N_S = m_S + n_S cases:

        t = (θ_R - θ_S) / √(S_R + S_S)     (t = 0 when both are 0),
        df = (S_R + S_S)² / (S_R²/(N_R - 1) + S_S²/(N_S - 1))   (Welch),

    p from Student's t with df degrees of freedom (two-sided 2 F(-|t|), "greater"
    F(-t), "less" F(t)). The interval of the difference, d ± t_df(1 - (1-c)/2)
    √(S_R + S_S), is binmetrics' addition (pROC reports none unpaired).

    Each sample is reduced to its count table, so the cost is the two sorts.

    Parameters
    ----------
    y_a, score_a : array-like
        Labels and scores of the first sample (R).
    y_b, score_b : array-like
        Labels and scores of the second sample (S).
    alternative, level
        As :func:`delong_test`.
    sample_weight_a, sample_weight_b, pos_label, nan_policy
        As :func:`binmetrics.evaluate`, for each sample.

    Returns
    -------
    DeLongTest
        With ``paired=False`` and ``df`` set; ``covariance`` is diag(S_R, S_S).

    Examples
    --------
    >>> y = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    >>> s1 = [.9, .8, .7, .55, .4, .7, .5, .3, .2, .1, .4]
    >>> s2 = [.6, .9, .4, .5, .5, .5, .8, .2, .3, .1, .35]
    >>> t = delong_test_unpaired(y, s1, y, s2)
    >>> round(t.statistic, 6), round(t.df, 4), round(t.pvalue, 6)
    (0.360083, 18.5888, 0.722844)
    """
    alt = check_alternative(alternative)
    c = check_level(level)
    ta = CountTable.from_arrays(y_a, score_a, sample_weight=sample_weight_a,
                                pos_label=pos_label, nan_policy=nan_policy)
    tb = CountTable.from_arrays(y_b, score_b, sample_weight=sample_weight_b,
                                pos_label=pos_label, nan_policy=nan_policy)
    for t, name in ((ta, "first"), (tb, "second")):
        if not (t.P > 0 and t.N > 0):
            which = "positives" if t.P == 0 else "negatives"
            report_undefined("delong test", f"the {name} sample has no {which}")
            return _nan_test(c, alt, False, [math.nan, math.nan])
    pa, pb = table_placements(ta), table_placements(tb)
    aucs = [pa.auc, pb.auc]
    if not (_class_sizes_ok(ta.P, ta.N, "delong test")
            and _class_sizes_ok(tb.P, tb.N, "delong test")):
        return _nan_test(c, alt, False, aucs)
    sr, ss = pa.variance, pb.variance
    d = aucs[0] - aucs[1]
    total = sr + ss
    sigma = math.sqrt(total)
    t_stat = _ratio_stat(d, sigma)
    if total > 0:
        df = total * total / (sr * sr / (ta.total - 1.0) + ss * ss / (tb.total - 1.0))
    else:
        df = math.inf
    dist = stats.t(df)
    if alt == "two-sided":
        p = float(2.0 * dist.cdf(-abs(t_stat)))
    elif alt == "greater":
        p = float(dist.cdf(-t_stat))
    else:
        p = float(dist.cdf(t_stat))
    q = float(dist.ppf(1.0 - (1.0 - c) / 2.0))
    ci = Interval(d, d - q * sigma, d + q * sigma, c, "delong")
    return DeLongTest(aucs[0], aucs[1], d, sigma, t_stat, p, ci, alt, False, df,
                      np.diag([sr, ss]))


@dataclass(frozen=True)
class DeLongContrast:
    """DeLong's chi-square test that a contrast of K correlated AUCs is zero.

    Attributes
    ----------
    names : tuple of str
        The models, in the order of ``aucs``.
    aucs : ndarray of shape (K,)
    covariance : ndarray of shape (K, K)
        DeLong's S = S10/m + S01/n.
    contrast : ndarray of shape (q, K)
        L, whose rows sum to 0.
    statistic : float
        χ² = (Lθ)ᵀ (L S Lᵀ)⁻¹ (Lθ).
    df : int
        rank(L) (the rank of L S Lᵀ when that is singular; see :func:`delong_contrast`).
    pvalue : float
        The upper tail of χ²(df) at the statistic.
    """

    names: tuple[str, ...]
    aucs: FloatArray
    covariance: FloatArray
    contrast: FloatArray
    statistic: float
    df: int
    pvalue: float


def delong_contrast(
    y_true: Any,
    scores: Sequence[Any] | Mapping[str, Any],
    *,
    contrast: Any = None,
    sample_weight: Any = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
) -> DeLongContrast:
    """DeLong's test of K >= 2 correlated AUCs: is the contrast Lθ zero?

    With θ the K AUCs and S = S10/m + S01/n their DeLong covariance (the K×K form of
    :func:`delong_test`'s S; DeLong et al. 1988, Sun & Xu 2014):

        χ² = (Lθ)ᵀ (L S Lᵀ)⁻¹ (Lθ),  df = rank(L),  p = P(χ²_df >= χ²).

    The default L has the rows e_k - e_(k+1), k = 1..K-1: the test that all K AUCs are
    equal (any full-rank contrast of the differences gives the same χ²). For K = 2
    it is Z² of :func:`delong_test`, and p is its two-sided p-value. When L S Lᵀ is
    singular (e.g. two models rank the subjects identically) its pseudo-inverse is
    used and df is its rank, with a :class:`~binmetrics.exceptions.MeasureCaveatWarning`.

    Parameters
    ----------
    y_true : array-like
        Labels of the subjects.
    scores : sequence of K arrays, or mapping of name to array
        Every model's scores for the same subjects (higher = more positive).
    contrast : array-like of shape (q, K) or (K,), optional
        L; each row must sum to 0.
    sample_weight, pos_label, nan_policy
        As :func:`delong_test`.

    Returns
    -------
    DeLongContrast
        NaN statistic and p-value, with an
        :class:`~binmetrics.exceptions.UndefinedMeasureWarning`, when there are fewer
        than 2 positives or negatives.

    Examples
    --------
    >>> y = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    >>> s1 = [.9, .8, .7, .55, .4, .7, .5, .3, .2, .1, .4]
    >>> s2 = [.6, .9, .4, .5, .5, .5, .8, .2, .3, .1, .35]
    >>> s3 = [.7, .6, .9, .3, .5, .2, .4, .1, .6, .2, .3]
    >>> res = delong_contrast(y, {"m1": s1, "m2": s2, "m3": s3})
    >>> res.names, res.df, res.aucs.round(4).tolist()
    (('m1', 'm2', 'm3'), 2, [0.8667, 0.8, 0.8667])
    >>> round(delong_contrast(y, [s1, s2]).statistic, 10) == round(0.512567829626 ** 2, 10)
    True
    """
    if isinstance(scores, Mapping):
        names = tuple(str(k) for k in scores)
        score_list = list(scores.values())
    else:
        score_list = list(scores)
        names = tuple(f"model_{i}" for i in range(len(score_list)))
    K = len(score_list)
    if K < 2:
        raise ValueError(f"delong_contrast needs at least 2 models; got {K}")
    if contrast is None:
        L = np.zeros((K - 1, K))
        L[np.arange(K - 1), np.arange(K - 1)] = 1.0
        L[np.arange(K - 1), np.arange(1, K)] = -1.0
    else:
        L = np.atleast_2d(np.asarray(contrast, dtype=np.float64))
        if L.ndim != 2 or L.shape[1] != K or L.shape[0] < 1:
            raise ValueError(f"contrast must have shape (q, {K}) for {K} models; got "
                             f"{np.shape(contrast)}")
        if not np.isfinite(L).all():
            raise ValueError("contrast must be finite")
        if not np.allclose(L.sum(axis=1), 0.0, atol=1e-12 * max(1.0, float(np.abs(L).max()))):
            raise ValueError("every row of contrast must sum to 0 (a contrast of the AUCs)")
        if not np.any(L):
            raise ValueError("contrast is all zeros")
    y, arrays, w = _paired_inputs(y_true, score_list, [f"scores[{n!r}]" for n in names],
                                  sample_weight, pos_label, nan_policy)
    df_l = int(np.linalg.matrix_rank(L))
    n_pos = float(w[y].sum()) if w is not None else float(np.count_nonzero(y))
    n_neg = float(w[~y].sum()) if w is not None else float(y.size - np.count_nonzero(y))
    if not (n_pos > 0 and n_neg > 0):
        which = "positives" if n_pos == 0 else "negatives"
        report_undefined("delong contrast", f"y_true has no {which}")
        return DeLongContrast(names, np.full(K, np.nan), np.full((K, K), np.nan), L,
                              math.nan, df_l, math.nan)
    pr = _paired(y, arrays, w)
    if not _class_sizes_ok(pr.m, pr.n, "delong contrast"):
        return DeLongContrast(names, pr.aucs, pr.cov, L, math.nan, df_l, math.nan)
    lt = L @ pr.aucs
    M = L @ pr.cov @ L.T
    rank = int(np.linalg.matrix_rank(M))
    if rank == L.shape[0]:
        stat = float(lt @ np.linalg.solve(M, lt))
        df = df_l
    else:
        report_caveat("delong contrast",
                      f"the covariance of the contrasts is singular (rank {rank} of "
                      f"{L.shape[0]}); using its pseudo-inverse and df = {rank}")
        df = rank
        if rank == 0:
            stat = 0.0 if np.allclose(lt, 0.0) else math.inf
        else:
            stat = float(lt @ np.linalg.pinv(M) @ lt)
    p = float(stats.chi2.sf(stat, df)) if df > 0 else (1.0 if stat == 0 else 0.0)
    return DeLongContrast(names, pr.aucs, pr.cov, L, stat, df, p)
