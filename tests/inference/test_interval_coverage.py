"""Coverage of the intervals by simulation (marked slow: ``python -m pytest -m slow``),
and the exact binomial coverage at the same design (fast, always run).

Fixed seeds: each simulation gives the same count on every run.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from binmetrics.inference.delong import delong_test
from binmetrics.inference.intervals import auc_ci, proportion_ci

P_TRUE, N_TRIALS = 0.3, 50


@pytest.mark.parametrize(("method", "at_least"), [("clopper-pearson", 0.95),
                                                  ("wilson", 0.95), ("jeffreys", 0.95)])
def test_exact_binomial_coverage(method: str, at_least: float) -> None:
    # the probability that the interval covers p = 0.3 when k ~ Binomial(50, 0.3)
    coverage = sum(stats.binom.pmf(k, N_TRIALS, P_TRUE) for k in range(N_TRIALS + 1)
                   if proportion_ci(k, N_TRIALS, method=method).contains(P_TRUE))
    assert coverage >= at_least


@pytest.mark.slow
@pytest.mark.parametrize("method", ["clopper-pearson", "wilson"])
def test_proportion_interval_coverage_by_simulation(method: str) -> None:
    rng = np.random.default_rng(20240603)
    ks = rng.binomial(N_TRIALS, P_TRUE, size=2000)
    covered = sum(proportion_ci(int(k), N_TRIALS, method=method).contains(P_TRUE) for k in ks)
    assert covered / ks.size >= 0.94, f"{method}: {covered} of {ks.size}"


def binormal(rng: np.random.Generator, m: int, n: int, mu: float) -> tuple[np.ndarray,
                                                                            np.ndarray]:
    y = np.r_[np.ones(m, dtype=int), np.zeros(n, dtype=int)]
    return y, np.r_[rng.normal(mu, 1.0, m), rng.normal(0.0, 1.0, n)]


@pytest.mark.slow
def test_delong_interval_covers_the_binormal_auc() -> None:
    # positives N(1, 1), negatives N(0, 1): AUC = Phi(1 / sqrt(2)) = 0.7602...
    # DeLong is slightly liberal at this size (94.3% in 50,000 runs, seeds 1 and 7-10);
    # 4,000 runs (standard error 0.37%) keep the 93% bound 3.5 standard errors away.
    # This seed covers 3,743 times (93.6%).
    mu, m, n, runs = 1.0, 50, 150, 4000
    true_auc = float(stats.norm.cdf(mu / np.sqrt(2.0)))
    rng = np.random.default_rng(7)
    covered = 0
    for _ in range(runs):
        y, s = binormal(rng, m, n, mu)
        covered += auc_ci(y, s).contains(true_auc)
    assert 0.93 <= covered / runs <= 0.97, covered


@pytest.mark.slow
def test_paired_delong_test_holds_its_size() -> None:
    # two models with the same population AUC, correlated through a shared signal
    rng = np.random.default_rng(11)
    m, n, rejected = 60, 140, 0
    for _ in range(1000):
        y = np.r_[np.ones(m, dtype=int), np.zeros(n, dtype=int)]
        signal = rng.normal(0.0, 1.0, m + n) + 0.8 * y
        a = signal + rng.normal(0.0, 0.7, m + n)
        b = signal + rng.normal(0.0, 0.7, m + n)
        rejected += delong_test(y, a, b).pvalue < 0.05
    assert 0.03 <= rejected / 1000 <= 0.07, rejected
