"""Bayesian comparisons of two models with a region of practical equivalence (ROPE):
the Bayesian signed-rank test over data sets and the correlated t-test over the folds of
cross-validation on one data set (Benavoli, Corani, Demšar and Zaffalon 2017), whose
frequentist side is Nadeau and Bengio's (2003) corrected resampled t-test.

Both report three probabilities, always in the order (A better, practically equivalent,
B better), where "A better" means that the difference a - b exceeds the ROPE, "B
better" that it is below -ROPE, and "equivalent" that it lies within ±ROPE.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy import stats

from binmetrics.comparison.comparison_plots import bayesian_posterior as draw_posterior
from binmetrics.exceptions import report_undefined
from binmetrics.formatting import HypothesisTest, Tabular
from binmetrics.validation import check_paired_values, check_resamples

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["BayesianSignedRank", "CorrelatedTTest", "bayesian_signed_rank",
           "correlated_t_test"]

_REGIONS = ("A better", "equivalent", "B better")
_CHUNK = 4096  # posterior samples per block: bounds the memory of the (samples x n) block


def _check_rope(rope: Any) -> float:
    try:
        r = float(rope) if not isinstance(rope, (bool, str)) else math.nan
    except (TypeError, ValueError):
        r = math.nan
    if not r >= 0.0 or math.isinf(r):
        raise ValueError(f"rope must be a finite number >= 0 (the half-width of the region "
                         f"of practical equivalence, in the units of the scores); got {rope!r}")
    return r


class BayesianSignedRank(Tabular):
    """The Bayesian signed-rank test (:func:`bayesian_signed_rank`).

    Attributes
    ----------
    probabilities : tuple of float
        (A better, equivalent, B better): the share of the posterior samples in which
        that region holds the most probability, as baycomp reports.
    samples : numpy.ndarray
        (n_resamples, 3) posterior samples of the probability of each region.
    differences : numpy.ndarray
        a - b on each data set.
    rope, prior : float
    names : tuple of str
    """

    def __init__(self, *, samples: npt.NDArray[np.float64], differences: npt.NDArray[np.float64],
                 rope: float, prior: float, names: tuple[str, str]) -> None:
        self.samples = samples
        self.differences = differences
        self.rope = rope
        self.prior = prior
        self.names = names
        winners = np.argmax(samples, axis=1)
        counts = np.bincount(winners, minlength=3) / len(winners)
        self.probabilities: tuple[float, float, float] = (
            float(counts[0]), float(counts[1]), float(counts[2]))

    @property
    def expected(self) -> tuple[float, float, float]:
        """The posterior means of the three region probabilities."""
        m = self.samples.mean(axis=0)
        return float(m[0]), float(m[1]), float(m[2])

    def to_frame(self) -> pd.DataFrame:
        """One row per region: ``probability`` (share of samples where it is the largest)
        and ``expected`` (posterior mean of its probability)."""
        a, b = self.names
        return pd.DataFrame({"probability": self.probabilities, "expected": self.expected},
                            index=pd.Index([f"{a} better", "equivalent", f"{b} better"],
                                           name="region"))

    def _title(self) -> str:
        a, b = self.names
        p = self.probabilities
        return (f"BayesianSignedRank(P({a} better)={p[0]:.4f}, P(equivalent)={p[1]:.4f}, "
                f"P({b} better)={p[2]:.4f}, rope={self.rope:g}, n={self.differences.size}, "
                f"samples={len(self.samples)})")

    def plot(self, *, ax: Any = None, **kwargs: Any) -> Axes:
        """The posterior samples in the probability simplex (needs matplotlib)."""
        return draw_posterior(self, ax=ax, **kwargs)


def bayesian_signed_rank(a: Any, b: Any = None, *, rope: float = 0.0, prior: float = 0.5,
                         n_resamples: int = 50_000, random_state: Any = None,
                         names: tuple[str, str] = ("A", "B")) -> BayesianSignedRank:
    """The Bayesian signed-rank test of two models over data sets (Benavoli et al. 2014,
    2017).

    The differences d_i = a_i - b_i over n data sets, plus one pseudo-observation
    d_0 = 0 of weight ``prior``, get Dirichlet process weights
    w ~ Dirichlet(prior, 1, ..., 1); each draw gives the probability that A is better,
    theta_A = sum_{i,j} w_i w_j H(d_i + d_j - 2 rope), that B is better, theta_B =
    sum w_i w_j H(-d_i - d_j - 2 rope) (H the Heaviside step, 1/2 at 0), and that they
    are equivalent, 1 - theta_A - theta_B. The reported probability of a region is the
    share of the ``n_resamples`` draws in which it is the largest (baycomp's
    ``two_on_multiple``).

    Parameters
    ----------
    a, b : array-like
        The scores of A and B on the same data sets; or ``a`` alone, the differences.
    rope : float, default 0
        Half-width of the region of practical equivalence, in score units (>= 0).
    prior : float, default 0.5
        The weight of the pseudo-observation at 0.
    n_resamples : int, default 50000
    random_state : int or numpy Generator, optional
        Seeds the Monte Carlo draws (``numpy.random.default_rng``).
    names : (str, str)
        The names of A and B in the output.

    References
    ----------
    Benavoli A., Corani G., Mangili F., Zaffalon M., Ruggeri F. (2014) A Bayesian
    Wilcoxon signed-rank test based on the Dirichlet process. ICML. Benavoli A., Corani
    G., Demšar J., Zaffalon M. (2017) Time for a change: a tutorial for comparing
    multiple classifiers through Bayesian analysis. JMLR 18(77):1-36.

    Examples
    --------
    >>> import binmetrics as bm
    >>> a = [0.81, 0.74, 0.92, 0.66, 0.85, 0.79, 0.70, 0.88]
    >>> b = [0.78, 0.74, 0.90, 0.60, 0.86, 0.75, 0.69, 0.85]
    >>> res = bm.bayesian_signed_rank(a, b, rope=0.01, random_state=0)
    >>> [round(p, 2) for p in res.probabilities]  # A better, equivalent, B better
    [0.98, 0.02, 0.0]
    """
    d = check_paired_values(a, b, what="data set")
    rope = _check_rope(rope)
    if d.size < 2:
        raise ValueError(f"the signed-rank test needs at least 2 data sets; got {d.size}")
    if not float(prior) > 0:
        raise ValueError(f"prior must be > 0 (the weight of the pseudo-observation at 0); "
                         f"got {prior!r}")
    n_resamples = check_resamples(n_resamples, per_resample=3, what="the three probabilities")
    full = np.concatenate([[0.0], d])
    sums = full[:, None] + full[None, :]
    above = np.where(sums > 2 * rope, 1.0, np.where(sums == 2 * rope, 0.5, 0.0))
    below = np.where(-sums > 2 * rope, 1.0, np.where(-sums == 2 * rope, 0.5, 0.0))
    weights = np.ones(full.size)
    weights[0] = float(prior)
    rng = np.random.default_rng(random_state)
    samples = np.empty((n_resamples, 3))
    for start in range(0, n_resamples, _CHUNK):
        w = rng.dirichlet(weights, min(_CHUNK, n_resamples - start))
        stop = start + len(w)
        samples[start:stop, 0] = np.einsum("si,ij,sj->s", w, above, w)
        samples[start:stop, 2] = np.einsum("si,ij,sj->s", w, below, w)
    samples[:, 1] = np.clip(1.0 - samples[:, 0] - samples[:, 2], 0.0, 1.0)
    return BayesianSignedRank(samples=samples, differences=d, rope=rope, prior=float(prior),
                              names=(str(names[0]), str(names[1])))


class CorrelatedTTest(HypothesisTest):
    """The correlated t-test (:func:`correlated_t_test`): Nadeau and Bengio's corrected
    resampled t and its Bayesian posterior.

    Attributes
    ----------
    estimate : float
        The mean of the fold differences a - b.
    variance : float
        Their sample variance (ddof = 1).
    posterior_variance : float
        variance (1/n + rho/(1 - rho)): the squared scale of the posterior Student t and
        of the corrected t statistic.
    df : int
        n - 1.
    statistic, pvalue : float
        The corrected t = estimate / sqrt(posterior_variance) and its two-sided p-value.
    probabilities : tuple of float
        (A better, equivalent, B better) under the posterior Student t(df, mean, scale).
    test_fraction, rope : float
    differences : numpy.ndarray
    names : tuple of str
    alternative, method : "two-sided", "corrected-resampled-t".
    """

    alternative: ClassVar[str] = "two-sided"
    method: ClassVar[str] = "corrected-resampled-t"

    def __init__(self, *, differences: npt.NDArray[np.float64], test_fraction: float,
                 rope: float, names: tuple[str, str]) -> None:
        n = differences.size
        self.differences = differences
        self.test_fraction = test_fraction
        self.rope = rope
        self.names = names
        self.df = n - 1
        self.estimate = float(np.mean(differences))
        self.variance = float(np.var(differences, ddof=1))
        rho = test_fraction
        self.posterior_variance = self.variance * (1.0 / n + rho / (1.0 - rho))
        if self.posterior_variance > 0:
            scale = math.sqrt(self.posterior_variance)
            self.statistic = self.estimate / scale
            self.pvalue = float(2.0 * stats.t.sf(abs(self.statistic), self.df))
            post = stats.t(self.df, loc=self.estimate, scale=scale)
            pa = float(post.sf(rope))
            pb = float(post.cdf(-rope))
        else:
            report_undefined("corrected resampled t-test", "every fold difference is the "
                             "same, so their variance is 0; the posterior is a point mass")
            self.statistic = math.nan
            self.pvalue = math.nan
            pa = float(self.estimate > rope) if rope > 0 or self.estimate != 0 else 0.5
            pb = float(self.estimate < -rope) if rope > 0 or self.estimate != 0 else 0.5
        self.probabilities: tuple[float, float, float] = (pa, max(0.0, 1.0 - pa - pb), pb)

    def to_frame(self) -> pd.DataFrame:
        """One row: estimate, variance, posterior_variance, df, statistic, pvalue and the three
        probabilities."""
        a, b = self.names
        p = self.probabilities
        return pd.DataFrame([{
            "estimate": self.estimate, "variance": self.variance,
            "posterior_variance": self.posterior_variance, "df": self.df,
            "statistic": self.statistic, "pvalue": self.pvalue,
            f"P({a} better)": p[0], "P(equivalent)": p[1], f"P({b} better)": p[2]}])

    def __repr__(self) -> str:
        a, b = self.names
        p = self.probabilities
        return (f"CorrelatedTTest(estimate={self.estimate:.4g}, t={self.statistic:.4g}, "
                f"df={self.df}, pvalue={self.pvalue:.4g}, P({a} better)={p[0]:.4f}, "
                f"P(equivalent)={p[1]:.4f}, P({b} better)={p[2]:.4f})")

    def plot(self, *, ax: Any = None, **kwargs: Any) -> Axes:
        """The posterior density of the mean difference with the ROPE (needs matplotlib)."""
        return draw_posterior(self, ax=ax, **kwargs)


def correlated_t_test(a: Any, b: Any = None, *, test_fraction: float, rope: float = 0.0,
                      names: tuple[str, str] = ("A", "B")) -> CorrelatedTTest:
    """The correlated t-test of two models on the folds of (repeated) cross-validation of
    one data set: Nadeau and Bengio's (2003) corrected resampled t-test and its Bayesian
    form (Corani and Benavoli 2015).

    The n fold differences d = a - b overlap in their training sets, so their variance
    understates that of the mean; with rho = n_test / (n_train + n_test) per fold (1/K for
    K-fold cross-validation, repeated or not),

        t = mean(d) / sqrt((1/n + rho/(1 - rho)) s^2),  df = n - 1,

    and the posterior of the mean difference (under the prior of Corani and Benavoli) is
    the Student t with n - 1 degrees of freedom, location mean(d) and that same scale,
    from which the three probabilities follow in closed form (no sampling).

    Parameters
    ----------
    a, b : array-like
        The scores of A and B on the same folds; or ``a`` alone, the differences a - b.
    test_fraction : float
        rho = n_test / (n_train + n_test), in (0, 1).
    rope : float, default 0
        Half-width of the region of practical equivalence (>= 0).
    names : (str, str)

    References
    ----------
    Nadeau C., Bengio Y. (2003) Inference for the generalization error. Machine
    Learning 52:239-281. Corani G., Benavoli A. (2015) A Bayesian approach for comparing
    cross-validated algorithms on multiple data sets. Machine Learning 100:285-304.

    Examples
    --------
    >>> import binmetrics as bm
    >>> diffs = [0.02, 0.01, 0.03, -0.01, 0.02, 0.00, 0.04, 0.01, 0.02, 0.03]
    >>> res = bm.correlated_t_test(diffs, test_fraction=0.1, rope=0.01)
    >>> round(res.statistic, 3), round(res.pvalue, 4)
    (2.476, 0.0352)
    >>> [round(p, 3) for p in res.probabilities]
    [0.833, 0.166, 0.002]
    """
    d = check_paired_values(a, b, what="fold")
    rope = _check_rope(rope)
    rho = float(test_fraction)
    if not 0.0 < rho < 1.0:
        raise ValueError(f"test_fraction must be n_test / (n_train + n_test), between 0 and "
                         f"1; got {test_fraction!r}")
    if d.size < 2:
        raise ValueError(f"the correlated t-test needs at least 2 folds; got {d.size}")
    return CorrelatedTTest(differences=d, test_fraction=rho, rope=rope,
                           names=(str(names[0]), str(names[1])))
