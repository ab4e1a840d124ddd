"""Confidence intervals with closed forms: binomial intervals for the measures that are
proportions, DeLong's variance and interval of one AUC, and :func:`measure_ci`, which
picks the one that fits a registered measure.

Everything here is a pure function of counts, a count table or labelled scores. The
resampling methods (bootstrap, permutation) live in
:mod:`binmetrics.inference.resampling`; DeLong's tests comparing AUCs in
:mod:`binmetrics.inference.delong`.

Proportions
    :func:`proportion_ci` gives the Wald (Berrar Def. 36), exact Clopper-Pearson
    (Berrar Def. 37), Wilson, Agresti-Coull and Jeffreys intervals of
    ``successes / trials``; :func:`measure_ci` applies them to any registered
    measure that declares :attr:`Measure.proportion` (sensitivity = TP / (TP + FN),
    precision, accuracy...), and DeLong's interval to the AUC.

AUC (DeLong, DeLong & Clarke-Pearson 1988, by the algorithm of Sun & Xu 2014, with
pROC's conventions; docs/methods.md §3)
    :func:`table_placements` (the structural components, one per group of tied
    cases), :func:`auc_variance` and :func:`auc_ci` (= pROC
    ``ci.auc(method="delong")``). The per-row placements and the tests of two or more
    AUCs (:func:`~binmetrics.inference.delong.delong_test`,
    :func:`~binmetrics.inference.delong.delong_test_unpaired`,
    :func:`~binmetrics.inference.delong.delong_contrast`) are in
    :mod:`binmetrics.inference.delong`.

Scores are "higher = more positive" (pROC's ``direction="<"``); pROC's
``direction="auto"`` is not imitated: negate the scores for the other direction.

Undefined values follow docs/conventions.md: no cases (``trials = 0``), or DeLong with fewer
than two positives or negatives, give NaN with an
:class:`~binmetrics.exceptions.UndefinedMeasureWarning` (or an error under
``undefined_policy("raise")``); invalid arguments are errors.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from scipy import special, stats

from binmetrics.exceptions import UndefinedPolicy, report_caveat, report_undefined, undefined_policy
from binmetrics.formatting import Tabular
from binmetrics.measures import Measure, get_measure
from binmetrics.measures._util import dot
from binmetrics.table.counts import Confusion, CountTable, HasTable
from binmetrics.validation import NanPolicy, check_level

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "PROPORTION_METHODS",
    "Interval",
    "Placements",
    "auc_ci",
    "auc_variance",
    "ci_methods",
    "log_ratio_ci",
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
@dataclass(frozen=True, repr=False)
class Interval(Tabular):
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

    def _title(self) -> str:
        return f"{type(self).__name__} ({self.level * 100:g}% {self.method})"


def _normal_quantiles(level: float) -> tuple[float, float]:
    """Phi^-1((1 - c)/2) and Phi^-1(1 - (1 - c)/2), as R's qnorm computes them."""
    alpha = 1.0 - level
    return float(special.ndtri(alpha / 2.0)), float(special.ndtri(1.0 - alpha / 2.0))


def normal_pvalue(z: float, alternative: str) -> float:
    """The p-value of a z statistic from the standard normal tails: two-sided
    2 Phi(-|z|), "greater" Phi(-z), "less" Phi(z); NaN for a NaN statistic."""
    if math.isnan(z):
        return math.nan
    if alternative == "two-sided":
        return float(2.0 * special.ndtr(-abs(z)))
    if alternative == "greater":
        return float(special.ndtr(-z))
    return float(special.ndtr(z))


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
    ``"bootstrap"`` (:mod:`binmetrics.inference.resampling`) for every measure.

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
    evaluation: HasTable | Confusion,
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
    :class:`~binmetrics.evaluation.Evaluation` (or any other
    :class:`~binmetrics.table.HasTable`: an object with a count table, a threshold and
    the confusion matrix there).

    Parameters
    ----------
    evaluation : Evaluation (any HasTable) or Confusion
        An evaluation (its confusion matrix at its threshold, its count table, and
        its ``undefined`` policy, if it has one, are used) or a confusion matrix of
        scalars.
    measure : str or Measure
        Any id or alias of the registry.
    method : str, default "auto"
        One of :func:`ci_methods` of the measure; "auto" is the first of them
        ("clopper-pearson" for proportions, "delong" for the AUC). "bootstrap" is not
        computed here: use :mod:`binmetrics.inference.resampling`.
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
                f"{', '.join(applicable)} (binmetrics.inference.resampling)"
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
    obj: Any = evaluation
    policy: UndefinedPolicy
    if isinstance(obj, Confusion):
        conf, table, policy = obj, None, "warn"
    elif isinstance(obj, HasTable):
        conf, table = obj.confusion, obj.table
        policy = getattr(obj, "undefined", "warn")
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
        if name == "log":
            return log_ratio_ci(m, conf, level=c)
        assert m.proportion is not None  # the method is a binomial one
        k, n = m.proportion(conf)
        return proportion_ci(k, n, method=name, level=c)


def log_ratio_ci(measure: str | Measure, c: Confusion, *, level: float = 0.95) -> Interval:
    """The log-method interval of LR+, LR- or the diagnostic odds ratio (Simel, Samsa &
    Matchar 1991; the measure's ``interval_methods=("log",)``): exp(ln r +- z SE),

    * LR+: SE^2 = 1/TP - 1/(TP + FN) + 1/FP - 1/(FP + TN),
    * LR-: SE^2 = 1/FN - 1/(TP + FN) + 1/TN - 1/(FP + TN),
    * DOR: SE^2 = 1/TP + 1/FP + 1/FN + 1/TN.

    A zero in a cell the SE divides by leaves the interval undefined (NaN, with an
    :class:`~binmetrics.exceptions.UndefinedMeasureWarning`): use the bootstrap, or
    the measure's ``correction=0.5`` in the bootstrap.

    Examples
    --------
    >>> ci = log_ratio_ci("lr_plus", Confusion(tp=30, fp=10, fn=5, tn=55))
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (5.5714, 3.1009, 10.0102)
    """
    m = get_measure(measure)
    tp, fp, fn, tn = (float(x) for x in (c.tp, c.fp, c.fn, c.tn))
    cells = {"lr_plus": ((tp, fp), (tp + fn, fp + tn)), "lr_minus": ((fn, tn), (tp + fn, fp + tn)),
             "dor": ((tp, fp, fn, tn), ())}
    if m.id not in cells:
        raise ValueError(f"the log method applies to lr_plus, lr_minus and dor, not {m.id}")
    c_level = check_level(level)
    plus, minus = cells[m.id]
    estimate = float(m.func(c))
    if min(plus) <= 0:
        report_undefined(f"{m.id} interval", "a cell of its log standard error is 0; use "
                         "method='bootstrap'")
        return Interval(estimate, math.nan, math.nan, c_level, "log")
    se = math.sqrt(sum(1.0 / x for x in plus) - sum(1.0 / x for x in minus))
    z = float(stats.norm.ppf(0.5 + c_level / 2.0))
    centre = math.log(estimate)
    return Interval(estimate, math.exp(centre - z * se), math.exp(centre + z * se), c_level, "log")


# --- DeLong placements ----------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class Placements(Tabular):
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

    def to_frame(self) -> pd.DataFrame:
        """The placements, tidy: class ("positive" for v10, "negative" for v01),
        placement, weight."""
        import pandas as pd

        return pd.DataFrame({
            "class": ["positive"] * self.v10.size + ["negative"] * self.v01.size,
            "placement": np.concatenate([self.v10, self.v01]),
            "weight": np.concatenate([self.w10, self.w01])})

    def _title(self) -> str:
        return f"Placements: m={self.m:g} positives, n={self.n:g} negatives; AUC {self.auc:.6g}"

    v10: FloatArray
    v01: FloatArray
    w10: FloatArray
    w01: FloatArray
    m: float
    n: float

    @property
    def auc(self) -> float:
        """θ = mean(V10) = mean(V01), the Mann-Whitney AUC."""
        return dot(self.w10, self.v10) / self.m

    @property
    def s10(self) -> float:
        """var(V10) with ddof = 1: Σ w (V10 - mean)² / (m - 1)."""
        return _wvar(self.v10, self.w10, self.m)

    @property
    def s01(self) -> float:
        """var(V01) with ddof = 1: Σ w (V01 - mean)² / (n - 1)."""
        return _wvar(self.v01, self.w01, self.n)

    @functools.cached_property
    def variance(self) -> float:
        """DeLong's variance of the AUC, S10/m + S01/n (pROC ``var(method="delong")``);
        computed once (a reference tested against many samples reads it each time)."""
        return self.s10 / self.m + self.s01 / self.n


def _wvar(v: FloatArray, w: FloatArray, total: float) -> float:
    d = v - dot(w, v) / total
    return dot(w, d * d) / (total - 1.0)


def table_placements(table: CountTable) -> Placements:
    """DeLong's placements from a count table, one value per group of tied cases.

    The positives of a group share one placement and so do its negatives: with the
    table in descending order, a group with ``pos`` positives and ``neg`` negatives,
    ``tp0`` positives above it, ``fp1`` negatives at or above it, and P, N in all,

        V10 = (N - fp1 + neg/2) / N    (multiplicity pos)
        V01 = (tp0 + pos/2) / P        (multiplicity neg)

    This is Sun & Xu's midrank formula (docs/methods.md §3): the midrank of a
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


def delong_defined(m: float, n: float, what: str) -> bool:
    """True if DeLong's variance is defined: more than 1 positive (m) and more than 1
    negative (n), as pROC requires. Otherwise ``what`` is reported undefined (an
    :class:`~binmetrics.exceptions.UndefinedMeasureWarning`, or an error under
    ``undefined_policy("raise")``) and the result is False."""
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
        :class:`~binmetrics.table.CountTable` or an
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
    if not delong_defined(table.P, table.N, "auc variance (DeLong)"):
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
        :class:`~binmetrics.table.CountTable` or
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
    if not delong_defined(P, N, "auc interval (DeLong)"):
        return Interval(theta, math.nan, math.nan, c, "delong")
    sd = math.sqrt(pl.variance)
    q_low, q_high = _normal_quantiles(c)
    return Interval(theta, _clip01(theta + sd * q_low), _clip01(theta + sd * q_high), c,
                    "delong")
