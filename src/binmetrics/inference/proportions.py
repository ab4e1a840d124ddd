"""Accuracies as proportions: McNemar's test of two models on the same cases, and the
one- and two-proportion z-tests.

McNemar's test (:func:`mcnemar_test`)
    Two models classify the same cases at a threshold; the cases on which exactly one
    of them is right decide: exact binomial by default, or the chi-square with or
    without continuity correction, and the Wald interval of the difference of the
    two (paired) accuracies. :func:`binmetrics.inference.paired.compare` uses it for
    the accuracy.

Proportion z-tests (:func:`proportion_test`, :func:`two_proportion_test`)
    The one-proportion z-test of an accuracy against the majority-class rate
    p0 = max(prevalence, 1 - prevalence) ("H0: p <= p0 vs Ha: p > p0", as the
    Wikipedia seed describes) or a given p0, and the pooled two-proportion z-test of
    two accuracies measured on independent samples. They take an
    :class:`~binmetrics.evaluation.Evaluation` (anything with a count table,
    :class:`~binmetrics.table.HasTable`), a :class:`~binmetrics.table.Confusion`, or
    counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt
from scipy import special, stats

from binmetrics.exceptions import report_undefined
from binmetrics.formatting import HypothesisTest
from binmetrics.inference.intervals import Interval, normal_pvalue
from binmetrics.table.counts import Confusion, FloatArray, HasTable
from binmetrics.validation import (
    Alternative,
    NanPolicy,
    check_alternative,
    check_in_range,
    check_level,
    check_paired_inputs,
    check_threshold,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "McNemarTest",
    "ProportionTest",
    "mcnemar_test",
    "proportion_test",
    "two_proportion_test",
]

McNemarMethod = Literal["exact", "chi2", "chi2-uncorrected"]

_MCNEMAR_METHODS = ("exact", "chi2", "chi2-uncorrected")


# --- McNemar ------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class McNemarTest(HypothesisTest):
    """McNemar's test of two accuracies on the same cases.

    Attributes
    ----------
    b : float
        Cases (weight) that model A classifies correctly and model B wrongly.
    c : float
        Cases that A classifies wrongly and B correctly.
    n : float
        All cases (weight).
    value_a, value_b : float
        The two accuracies; their difference is ``(b - c) / n``.
    estimate : float
        ``value_a - value_b``, the difference of the accuracies.
    statistic : float
        "exact": b, a Binomial(b + c, 1/2) count under H0; "chi2": the chi-square
        statistic with one degree of freedom.
    pvalue : float
    ci : Interval
        Wald interval of the difference of paired proportions (Agresti,
        *Categorical Data Analysis*, sec. 11.1): ``d ± z sqrt(b + c - (b - c)²/n) / n``,
        clipped to [-1, 1]; method "wald-paired".
    method : {"exact", "chi2", "chi2-uncorrected"}
    alternative : {"two-sided", "greater", "less"}
        "greater": A is more accurate than B.
    """

    b: float
    c: float
    n: float
    value_a: float
    value_b: float
    estimate: float
    statistic: float
    pvalue: float
    ci: Interval
    method: str
    alternative: str

    def _title(self) -> str:
        return (f"McNemarTest ({self.method}, {100 * self.ci.level:g}% interval, p-value "
                f"{self.alternative})")

    def _shown(self) -> pd.DataFrame:
        return self.to_frame()[["b", "c", "value_a", "value_b", "estimate", "low",
                                "high", "pvalue"]]


def _mcnemar(b: float, c: float, n: float, acc_a: float, acc_b: float, method: str,
             alternative: str, level: float) -> McNemarTest:
    m = b + c
    if method == "exact":
        if not (float(b).is_integer() and float(c).is_integer()):
            raise ValueError(
                f"McNemar's exact test needs whole-number discordant counts; got b = {b:g}, "
                f"c = {c:g} (non-integer sample weights). Use mcnemar='chi2', or the paired "
                "bootstrap (method={'accuracy': 'bootstrap'})")
        kb, km = int(b), int(m)
        if alternative == "two-sided":
            p = min(1.0, 2.0 * float(stats.binom.cdf(min(kb, km - kb), km, 0.5)))
        elif alternative == "greater":
            p = float(stats.binom.sf(kb - 1, km, 0.5))
        else:
            p = float(stats.binom.cdf(kb, km, 0.5))
        stat = float(b)
    else:
        diff = abs(b - c)
        if method == "chi2":
            diff = max(diff - 1.0, 0.0)  # continuity correction, never past 0 (R: none if b = c)
        stat = diff * diff / m if m > 0 else 0.0
        if alternative == "two-sided":
            p = float(stats.chi2.sf(stat, 1))
        else:
            z = math.copysign(math.sqrt(stat), b - c)
            p = normal_pvalue(z, alternative)
    d = (b - c) / n
    q = float(special.ndtri(1.0 - (1.0 - level) / 2.0))
    se = math.sqrt(max(m - (b - c) ** 2 / n, 0.0)) / n
    ci = Interval(d, max(-1.0, d - q * se), min(1.0, d + q * se), level, "wald-paired")
    return McNemarTest(b=float(b), c=float(c), n=float(n), value_a=acc_a, value_b=acc_b,
                       estimate=d, statistic=stat, pvalue=p, ci=ci, method=method,
                       alternative=alternative)


def check_mcnemar_method(method: Any, name: str) -> str:
    """``method`` if it names a variant of McNemar's test ("exact", "chi2",
    "chi2-uncorrected"); otherwise a ValueError that names the argument ``name``."""
    if method not in _MCNEMAR_METHODS:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, _MCNEMAR_METHODS))}; "
                         f"got {method!r}")
    return str(method)


def _discordant(y: npt.NDArray[np.bool_], sa: FloatArray, sb: FloatArray,
                w: FloatArray | None, threshold: float) -> tuple[float, float, float, float, float]:
    ok_a = (sa >= threshold) == y
    ok_b = (sb >= threshold) == y
    if w is None:
        n = float(y.size)
        b = float(np.count_nonzero(ok_a & ~ok_b))
        c = float(np.count_nonzero(~ok_a & ok_b))
        return b, c, n, float(np.count_nonzero(ok_a)) / n, float(np.count_nonzero(ok_b)) / n
    n = float(w.sum())
    b = float(w[ok_a & ~ok_b].sum())
    c = float(w[~ok_a & ok_b].sum())
    return b, c, n, float(w[ok_a].sum()) / n, float(w[ok_b].sum()) / n

def mcnemar_from_rows(y: npt.NDArray[np.bool_], score_a: FloatArray, score_b: FloatArray,
                      weight: FloatArray | None, threshold: float, method: str,
                      alternative: str, level: float) -> McNemarTest:
    """McNemar's test on checked arrays (boolean labels, finite scores of equal length,
    weights or None, and valid method, alternative and level): what
    :func:`mcnemar_test` computes once its arguments are checked, and what
    :func:`~binmetrics.inference.paired.compare` computes for each pair of models."""
    return _mcnemar(*_discordant(y, score_a, score_b, weight, threshold), method,
                    alternative, level)


def mcnemar_test(
    y_true: Any,
    score_a: Any,
    score_b: Any,
    *,
    threshold: float = 0.5,
    method: McNemarMethod = "exact",
    alternative: Alternative = "two-sided",
    level: float = 0.95,
    sample_weight: Any = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
) -> McNemarTest:
    """McNemar's test: do two models classify the same cases equally accurately?

    Each model predicts positive when ``score >= threshold``. With b the cases that
    A gets right and B wrong, and c the reverse, the null hypothesis (equal
    accuracies) makes b a Binomial(b + c, 1/2) count:

    ``"exact"`` (default)
        two-sided p = min(1, 2 P(X <= min(b, c))); "greater" (A more accurate)
        p = P(X >= b); "less" p = P(X <= b); X ~ Binomial(b + c, 1/2).
    ``"chi2"``
        Edwards' continuity-corrected statistic (max(|b - c| - 1, 0))² / (b + c)
        on one degree of freedom. This is statsmodels' ``mcnemar(exact=False)``
        when b != c; when b = c it is 0 (p = 1), as R's ``mcnemar.test``, where
        statsmodels subtracts the correction anyway. One-sided p-values use
        z = sign(b - c) sqrt(statistic) and the normal tail.
    ``"chi2-uncorrected"``
        (b - c)² / (b + c).

    With b + c = 0 there is no evidence either way: p = 1 (0.5 one-sided for the
    chi-square forms). Weights are frequencies: b, c and n become weighted sums
    (the exact test then needs whole numbers).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels (as :func:`binmetrics.evaluate`).
    score_a, score_b : array-like of shape (n,)
        The two models' scores (or 0/1 predictions) for the same cases.
    threshold : float, default 0.5
    method : {"exact", "chi2", "chi2-uncorrected"}, default "exact"
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater": the alternative that A is more accurate than B.
    level : float in (0, 1), default 0.95
        Level of the (two-sided) Wald interval of the difference of accuracies.
    sample_weight, pos_label
        As :func:`binmetrics.evaluate`; a row of weight 0 is dropped.
    nan_policy : {"raise", "omit"}, default "raise"
        A NaN or infinite score: an error naming the model and rows, or "omit" to drop
        the row for both models (with a warning), as every paired function
        (:func:`~binmetrics.validation.check_paired_inputs`).

    Returns
    -------
    McNemarTest

    Examples
    --------
    >>> y = [1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    >>> a = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1]
    >>> b = [1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0]
    >>> t = mcnemar_test(y, a, b)
    >>> t.b, t.c, round(t.pvalue, 6)   # 6 discordant cases, 5 of them favour A
    (5.0, 1.0, 0.21875)
    >>> round(mcnemar_test(y, a, b, method="chi2").statistic, 6)  # (|5 - 1| - 1)² / 6
    1.5
    """
    meth = check_mcnemar_method(method, "method")
    alt = check_alternative(alternative)
    lv = check_level(level)
    th = check_threshold(threshold)
    inp = check_paired_inputs(y_true, [score_a, score_b], ["score_a", "score_b"],
                              sample_weight, pos_label=pos_label, nan_policy=nan_policy)
    return mcnemar_from_rows(inp.y, inp.scores[0], inp.scores[1], inp.weight, th, meth, alt,
                             lv)


# --- proportion z-tests ---------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class ProportionTest(HypothesisTest):
    """A z-test of one proportion, or of the difference of two.

    Attributes
    ----------
    statistic : float
        z.
    pvalue : float
    estimate : float
        p̂ (one sample) or p̂1 - p̂2 (two samples).
    null_value : float
        p0 (one sample) or 0 (two samples).
    proportions : tuple of float
        p̂, or (p̂1, p̂2).
    successes, trials : tuple of float
    standard_error : float
        Under the null: sqrt(p0 (1 - p0) / n), or the pooled
        sqrt(p̄ (1 - p̄) (1/n1 + 1/n2)).
    alternative : str
    method : str
        "one-proportion z-test" or "two-proportion z-test (pooled)".
    """

    statistic: float
    pvalue: float
    estimate: float
    null_value: float
    proportions: tuple[float, ...]
    successes: tuple[float, ...]
    trials: tuple[float, ...]
    standard_error: float
    alternative: str
    method: str


def _counts_of(data: Any, trials: Any, what: str) -> tuple[float, float, float | None]:
    """(successes, trials, majority rate) of an Evaluation (anything with a count table,
    :class:`~binmetrics.table.HasTable`), a Confusion or numbers."""
    conf: Confusion | None = None
    if isinstance(data, Confusion):
        conf = data
    elif isinstance(data, HasTable):
        conf = data.confusion
    if conf is not None:
        if trials is not None:
            raise TypeError(f"{what}: pass trials only with a number of successes, not with "
                            "an Evaluation or Confusion")
        k, n = float(conf.tp + conf.tn), float(conf.total)
        prev = float(conf.tp + conf.fn) / n if n > 0 else math.nan
        return k, n, max(prev, 1.0 - prev)
    if trials is None:
        raise TypeError(f"{what}: pass an Evaluation, a Confusion, or successes and trials")
    k = _finite(data, "successes")
    n = _finite(trials, "trials")
    return k, n, None


def _finite(x: Any, name: str) -> float:
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number, got {x!r}") from None
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite, got {x!r}")
    return v


def _check_counts(k: float, n: float) -> None:
    if n <= 0:
        raise ValueError(f"trials must be > 0, got {n:g}")
    if not 0 <= k <= n:
        raise ValueError(f"successes must lie in [0, trials] = [0, {n:g}]; got {k:g}")


def proportion_test(
    data: Any,
    trials: float | None = None,
    *,
    p0: float | None = None,
    alternative: Alternative = "two-sided",
) -> ProportionTest:
    """One-proportion z-test, e.g. of an accuracy against the majority-class rate.

    With k successes in n trials, p̂ = k/n and the null value p0:

        z = (p̂ - p0) / sqrt(p0 (1 - p0) / n)

    The standard error uses the null p0, as the textbook z-test does (statsmodels'
    ``proportions_ztest(k, n, value=p0, prop_var=p0)``; its default uses p̂). The
    test is two-sided by default, as every test in binmetrics; ``alternative="greater"``
    tests H0: p <= p0 against Ha: p > p0 (p-value 1 - Φ(z)): does the classifier beat
    the rule that predicts the most frequent class, whose accuracy is
    p0 = max(prevalence, 1 - prevalence) (Wikipedia, "Evaluation of binary classifiers")?
    Another classifier's known accuracy can be given as p0.

    Parameters
    ----------
    data : Evaluation, Confusion, or number
        An evaluation or confusion matrix (its accuracy (TP + TN)/n is tested and p0
        defaults to its majority-class rate), or the number of successes k.
    trials : float, optional
        n, with a number of successes.
    p0 : float in [0, 1], optional
        The null proportion; required with numbers. p0 = 0 or 1 gives NaN with an
        :class:`~binmetrics.exceptions.UndefinedMeasureWarning` (zero standard error).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"

    Returns
    -------
    ProportionTest

    Notes
    -----
    The normal approximation wants n p0 and n (1 - p0) large; weighted counts (a
    weighted evaluation) are used as if they were frequencies.

    Examples
    --------
    90% of the cases are negative; the classifier is right on 460 of 500:

    >>> t = proportion_test(460, 500, p0=0.9, alternative="greater")
    >>> round(t.statistic, 4), round(t.pvalue, 4)
    (1.4907, 0.068)
    >>> import binmetrics as bm
    >>> y = [1, 0, 0, 0, 0, 0, 0, 0, 0, 1] * 10
    >>> ev = bm.evaluate(y, [.9, .1, .2, .1, .3, .2, .1, .6, .2, .8] * 10)
    >>> t = proportion_test(ev, alternative="greater")   # accuracy 0.9 against 0.8
    >>> t.estimate, t.null_value, round(t.pvalue, 4)
    (0.9, 0.8, 0.0062)
    """
    alt = check_alternative(alternative)
    k, n, majority = _counts_of(data, trials, "proportion_test")
    _check_counts(k, n)
    if p0 is None:
        if majority is None:
            raise ValueError("p0 is required with successes and trials (pass an Evaluation to "
                             "test against its majority-class rate)")
        null = majority
    else:
        null = check_in_range(p0, "p0", 0.0, 1.0)
    p = k / n
    nan = math.nan
    if null in (0.0, 1.0):
        report_undefined("proportion z-test", f"the null proportion p0 = {null:g} has a "
                                              "standard error of 0")
        z = se = nan
    else:
        se = math.sqrt(null * (1.0 - null) / n)
        z = (p - null) / se
    return ProportionTest(statistic=z, pvalue=normal_pvalue(z, alt), estimate=p,
                          null_value=null, proportions=(p,), successes=(k,), trials=(n,),
                          standard_error=se, alternative=alt, method="one-proportion z-test")


def _pair(x: Any, which: str) -> tuple[float, float]:
    # a pair first: the protocol check of HasTable is slow (monitor calls this per window)
    if isinstance(x, (tuple, list)) and len(x) == 2:
        k, n = _finite(x[0], f"{which} successes"), _finite(x[1], f"{which} trials")
    elif isinstance(x, (Confusion, HasTable)):
        k, n, _ = _counts_of(x, None, which)
    else:
        raise TypeError(f"{which} must be an Evaluation, a Confusion or a pair (successes, "
                        f"trials); got {x!r}")
    _check_counts(k, n)
    return k, n


def two_proportion_test(
    first: HasTable | Confusion | tuple[float, float],
    second: HasTable | Confusion | tuple[float, float],
    *,
    alternative: Alternative = "two-sided",
) -> ProportionTest:
    """Pooled two-proportion z-test: are two accuracies, on independent samples, equal?

    With p̂1 = k1/n1, p̂2 = k2/n2 and the pooled p̄ = (k1 + k2)/(n1 + n2):

        z = (p̂1 - p̂2) / sqrt(p̄ (1 - p̄) (1/n1 + 1/n2))

    (statsmodels' ``proportions_ztest([k1, k2], [n1, n2])``). For two models scored
    on the *same* cases the samples are not independent: use McNemar's test
    (:func:`mcnemar_test`, :func:`~binmetrics.inference.paired.compare`).

    Parameters
    ----------
    first, second : Evaluation, Confusion, or (successes, trials)
        Evaluations and confusion matrices contribute their accuracy (TP + TN)/n.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater": the alternative p1 > p2.

    Returns
    -------
    ProportionTest
        NaN statistic and p-value, with an
        :class:`~binmetrics.exceptions.UndefinedMeasureWarning`, when p̄ is 0 or 1.

    Examples
    --------
    >>> t = two_proportion_test((90, 100), (80, 100))
    >>> round(t.statistic, 4), round(t.pvalue, 4)
    (1.9803, 0.0477)
    """
    alt = check_alternative(alternative)
    k1, n1 = _pair(first, "first")
    k2, n2 = _pair(second, "second")
    p1, p2 = k1 / n1, k2 / n2
    pooled = (k1 + k2) / (n1 + n2)
    nan = math.nan
    if pooled in (0.0, 1.0):
        report_undefined("two-proportion z-test", f"the pooled proportion is {pooled:g}: "
                                                  "the standard error is 0")
        z = se = nan
    else:
        se = math.sqrt(pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2))
        z = (p1 - p2) / se
    return ProportionTest(statistic=z, pvalue=normal_pvalue(z, alt), estimate=p1 - p2,
                          null_value=0.0, proportions=(p1, p2), successes=(k1, k2),
                          trials=(n1, n2), standard_error=se, alternative=alt,
                          method="two-proportion z-test (pooled)")
