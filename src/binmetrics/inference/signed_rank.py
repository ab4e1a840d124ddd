"""The Wilcoxon signed-rank test: the one implementation every part of binmetrics uses.

:func:`signed_rank_test` tests paired differences d; :func:`binmetrics.wilcoxon_test`
(two models over data sets), the ``"wilcoxon_holm"`` post-hoc test of
:meth:`binmetrics.comparison.ranks.RankComparison.posthoc` and SRD's cross-validation
(:func:`binmetrics.comparison.srd_crossvalidation.wilcoxon_matched_pairs`) all call it,
so the same pair gets the same p-value everywhere.

The null distribution is the sign-flip (permutation) law: given the |d| and their
midranks, each non-zero difference is positive or negative with probability 1/2,
independently; zero differences stay zero. Midranks are multiples of 1/2, so twice the
rank sum R+ is an integer and its law is built exactly by adding one difference at a
time to the distribution of the sum (:func:`signed_rank_distribution`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy import stats

from binmetrics.exceptions import report_undefined
from binmetrics.formatting import HypothesisTest
from binmetrics.validation import check_alternative

__all__ = [
    "EXACT_MAX_N",
    "SIGNED_RANK_METHODS",
    "WilcoxonTest",
    "signed_rank_distribution",
    "signed_rank_test",
]

ZeroMethod = Literal["zsplit", "wilcox", "pratt"]
SignedRankMethod = Literal["auto", "exact", "normal"]
_ZERO_METHODS = ("zsplit", "wilcox", "pratt")
#: the values of ``method`` :func:`signed_rank_test` takes
SIGNED_RANK_METHODS: tuple[str, ...] = ("auto", "exact", "normal")
#: ``method="auto"`` is exact up to this many non-zero differences (scipy's cut)
EXACT_MAX_N = 50
# method="exact" refuses a distribution whose construction would take more than this
# many additions (about a second): n non-zero differences cost about n^3 / 2
_EXACT_MAX_COST = 1_000_000_000


@dataclass(frozen=True, repr=False)
class WilcoxonTest(HypothesisTest):
    """The Wilcoxon signed-rank test (:func:`signed_rank_test`,
    :func:`binmetrics.wilcoxon_test`).

    ``statistic`` is scipy's: min(R+, R-) two-sided, R+ (the rank sum of the positive
    differences) for one-sided alternatives, zero differences counted as ``zero_method``
    says. ``method`` says how the p-value was computed: "exact" (the classical
    distribution of R+ over the ranks 1..n: no ties, no zero ranked), "exact-ties" (the
    exact sign-flip distribution given the tied |d| and the zeros) or "normal" (the
    normal approximation with the variance of that same distribution, no continuity
    correction). ``estimate`` is the median of the differences, ``n`` the number of
    pairs and ``n_zero`` how many of them have a zero difference.
    """

    statistic: float
    pvalue: float
    method: str
    zero_method: str
    alternative: str
    n: int
    n_zero: int
    estimate: float

    def to_frame(self) -> pd.DataFrame:
        """The result as a one-row table."""
        return pd.DataFrame([self.__dict__])


def signed_rank_distribution(weights: Any) -> npt.NDArray[np.float64]:
    """P(S = s) for s = 0, 1, ..., sum(weights), where S = sum_i w_i B_i and the B_i
    are independent fair coins: the null law of the (integer-scaled) rank sum R+.

    One weight at a time, the law of the partial sum is halved and added to itself
    shifted by the weight, so n weights summing to W cost about n W additions (for n
    untied ranks 1..n, n^3 / 2) and no rounding beyond float addition.

    Parameters
    ----------
    weights : array-like of non-negative int
        The ranks of the differences that can change sign, scaled to integers (twice the
        midranks, divided by their common divisor).

    Examples
    --------
    >>> signed_rank_distribution([1, 2, 3]) * 8  # ranks 1..3: R+ = 0, 1, ..., 6
    array([1., 1., 1., 2., 1., 1., 1.])
    >>> signed_rank_distribution([3, 3]) * 4      # two tied |d| with midrank 1.5
    array([1., 0., 0., 2., 0., 0., 1.])
    """
    w = np.asarray(weights)
    if w.ndim != 1 or (w.size and (not np.issubdtype(w.dtype, np.integer) or w.min() < 0)):
        raise ValueError("weights must be a 1-d array of non-negative integers")
    dist = np.zeros(int(w.sum()) + 1)
    dist[0] = 1.0
    top = 0  # the largest sum reached so far
    for v in np.sort(w).tolist():  # small weights first keeps the early arrays short
        shifted = dist[:top + 1].copy()
        dist[:top + 1] *= 0.5
        dist[v:top + v + 1] += 0.5 * shifted
        top += v
    return dist


def _ranks(d: npt.NDArray[np.float64], zero_method: str
           ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], float]:
    """(midranks of the non-zero differences, their differences, the rank sum that
    ``zsplit`` adds to both R+ and R-)."""
    zero = d == 0
    if zero_method == "wilcox":
        nonzero = d[~zero]
        return stats.rankdata(np.abs(nonzero)), nonzero, 0.0
    r = stats.rankdata(np.abs(d))
    half_zero = float(r[zero].sum()) / 2.0 if zero_method == "zsplit" else 0.0
    return r[~zero], d[~zero], half_zero


def signed_rank_test(differences: Any, *, zero_method: ZeroMethod = "zsplit",
                     alternative: str = "two-sided",
                     method: SignedRankMethod = "auto") -> WilcoxonTest:
    """The Wilcoxon signed-rank test of paired differences d (is their distribution
    symmetric about 0?).

    The |d| are ranked, ties sharing their average rank (midranks); R+ and R- are the
    rank sums of the positive and the negative differences. Zero differences are
    handled as scipy's ``zero_method`` names them: "zsplit" (default; Demšar 2006)
    ranks them with the others and adds half their ranks to R+ and half to R-;
    "wilcox" drops them before ranking; "pratt" ranks them and then drops their ranks.

    The p-value comes from the sign-flip (permutation) distribution of R+: each
    non-zero difference keeps its rank and takes either sign with probability 1/2;
    zeros keep theirs. ``method`` chooses how it is evaluated:

    * "exact": the distribution itself, built by dynamic programming over twice the
      ranks (midranks are multiples of 1/2). Without ties and zeros this is the
      classical Wilcoxon distribution and the result's ``method`` is "exact"; with
      tied |d| or ranked zeros it is the exact conditional distribution given them and
      the result says "exact-ties". It costs about n^3 / 2 additions for n non-zero
      differences (a millisecond at n = 50); beyond about a second it is refused.
    * "normal": z = (R+ - E R+) / sd R+ with the mean and variance of that same
      distribution, E R+ = c + sum(r_i) / 2 and Var R+ = sum(r_i^2) / 4 over the
      non-zero differences' ranks r_i (c: the zeros' share under "zsplit"). The
      variance is the usual one with the tie correction. No continuity correction:
      with midranks R+ moves in steps of 1/2, not 1, and beyond 50 differences the
      correction changes z by less than 1%.
    * "auto" (default): "exact" when there are at most ``EXACT_MAX_N`` = 50 non-zero
      differences, with or without ties and zeros, "normal" beyond (the cut scipy uses
      without ties).

    The two-sided p-value is twice the smaller tail, at most 1 (the distribution is
    symmetric, so this is also P(|R+ - E R+| >= |r+ - E R+|)).

    Where it differs from :func:`scipy.stats.wilcoxon`: with no tie and no zero the
    p-values are the same. With ties or zeros, scipy's default is an exact permutation
    test only up to 13 differences and the normal approximation from 14 on; binmetrics
    stays exact up to 50. scipy's normal approximation under "zsplit" also counts the
    zeros' ranks in the variance, as if a zero could change sign; binmetrics holds them
    fixed, as both its exact distribution and scipy's permutation test do, so the
    normal approximation approximates the exact law it replaces (the two agree for
    "wilcox", "pratt", and "zsplit" without zeros).

    Parameters
    ----------
    d : array-like of float
        The paired differences (a - b), finite.
    zero_method : {"zsplit", "wilcox", "pratt"}, default "zsplit"
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater": the differences tend to be positive.
    method : {"auto", "exact", "normal"}, default "auto"

    Returns
    -------
    WilcoxonTest
        NaN statistic and p-value (with an ``UndefinedMeasureWarning``) when every
        difference is zero.

    Examples
    --------
    Ten differences with tied |d| and one zero: the exact sign-flip p-value, and what
    the normal approximation would have said.

    >>> from binmetrics.inference.signed_rank import signed_rank_test
    >>> d = [0.02, 0.03, -0.01, 0.02, 0.0, 0.04, 0.01, 0.03, -0.02, 0.05]
    >>> res = signed_rank_test(d)
    >>> res.statistic, res.method, res.n_zero
    (8.0, 'exact-ties', 1)
    >>> round(res.pvalue, 4), round(signed_rank_test(d, method="normal").pvalue, 4)
    (0.0586, 0.0457)
    """
    x = np.asarray(differences, dtype=float)
    if x.ndim != 1:
        raise ValueError(f"differences must be a 1-d array; got shape {x.shape}")
    if not np.isfinite(x).all():
        raise ValueError("differences has missing or infinite values; drop those pairs first")
    if zero_method not in _ZERO_METHODS:
        raise ValueError(f"zero_method must be one of {', '.join(_ZERO_METHODS)}; got "
                         f"{zero_method!r}")
    alternative = check_alternative(alternative)
    if method not in SIGNED_RANK_METHODS:
        raise ValueError(f"method must be 'auto', 'exact' or 'normal'; got {method!r}")
    n_zero = int(np.count_nonzero(x == 0))
    if n_zero == x.size:
        report_undefined("Wilcoxon signed-rank test", "every difference a - b is zero")
        return WilcoxonTest(math.nan, math.nan, "exact" if method == "auto" else method,
                            zero_method, alternative, int(x.size), n_zero,
                            float(np.median(x)) if x.size else math.nan)
    r, nonzero, half_zero = _ranks(x, zero_method)
    positive = nonzero > 0
    r_plus = float(r[positive].sum()) + half_zero
    r_minus = float(r[~positive].sum()) + half_zero
    m = r.size
    if method == "auto":
        method = "exact" if m <= EXACT_MAX_N else "normal"
    if method == "exact":
        pvalue, label = _exact_pvalue(r, positive, alternative)
    else:
        pvalue, label = _normal_pvalue(r, r_plus - half_zero, alternative), "normal"
    statistic = min(r_plus, r_minus) if alternative == "two-sided" else r_plus
    return WilcoxonTest(statistic, pvalue, label, zero_method, alternative, int(x.size),
                        n_zero, float(np.median(x)))


def _exact_pvalue(r: npt.NDArray[np.float64], positive: npt.NDArray[np.bool_],
                  alternative: str) -> tuple[float, str]:
    doubled = np.rint(2.0 * r).astype(np.int64)  # midranks are multiples of 1/2
    step = int(np.gcd.reduce(doubled))
    w = doubled // step
    if w.size * int(w.sum()) > _EXACT_MAX_COST:
        raise ValueError(f"the exact distribution of {w.size} non-zero differences is too "
                         "costly to build; use method='normal' (or 'auto')")
    dist = signed_rank_distribution(w)
    s = int(w[positive].sum())
    upper = float(dist[s:].sum())  # P(R+ >= r+)
    lower = float(dist[:s + 1].sum())  # P(R+ <= r+)
    if alternative == "greater":
        p = upper
    elif alternative == "less":
        p = lower
    else:
        p = 2.0 * min(upper, lower)
    classical = np.array_equal(np.sort(doubled), 2 * np.arange(1, r.size + 1))
    return min(1.0, p), "exact" if classical else "exact-ties"


def _normal_pvalue(r: npt.NDArray[np.float64], r_plus_nonzero: float,
                   alternative: str) -> float:
    mean = float(r.sum()) / 2.0
    sd = math.sqrt(float(np.sum(r * r)) / 4.0)
    z = (r_plus_nonzero - mean) / sd
    if alternative == "greater":
        return float(stats.norm.sf(z))
    if alternative == "less":
        return float(stats.norm.cdf(z))
    return float(min(1.0, 2.0 * stats.norm.sf(abs(z))))
