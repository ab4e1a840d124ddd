"""The simultaneous ROC band (issue 31): a bootstrap sup-t band, "pointwise" the
default, the band saying which; its whole-curve coverage in a binormal simulation."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm

import binmetrics as bm
from binmetrics.inference.resampling import bootstrap_count_blocks


def test_simultaneous_band_is_the_sup_t_band_of_the_replicates() -> None:
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(80, bool), np.zeros(80, bool)]
    s = np.r_[rng.normal(1, 1, 80), rng.normal(0, 1, 80)]
    roc = bm.evaluate(y, s).roc()
    grid = np.linspace(0.1, 0.7, 7)
    point = roc.ci_band(fpr=grid, n_resamples=300, random_state=1)
    simul = roc.ci_band(fpr=grid, n_resamples=300, random_state=1, kind="simultaneous")
    assert point.kind == "pointwise" and simul.kind == "simultaneous"
    assert "simultaneous" in repr(simul) and "sup-t" in repr(simul)
    assert "simultaneous band" in simul.chart().series[0].label
    # by hand: the replicates' TPR at the grid, read one replicate table at a time
    reps = []
    for pos, neg in bootstrap_count_blocks(roc.table, 300, random_state=1):
        for p, n in zip(pos, neg, strict=True):
            tp, fp = np.cumsum(p) / p.sum(), np.cumsum(n) / n.sum()
            reps.append(np.interp(grid, np.r_[0, fp], np.r_[0, tp]))
    reps = np.array(reps)
    est = simul.estimate
    sd = reps.std(axis=0, ddof=1)
    crit = np.quantile(np.max(np.abs(reps - est) / sd, axis=1), 0.95)
    np.testing.assert_allclose(simul.low, np.clip(est - crit * sd, 0, 1), rtol=1e-9)
    np.testing.assert_allclose(simul.high, np.clip(est + crit * sd, 0, 1), rtol=1e-9)
    assert (simul.high - simul.low > point.high - point.low).all()  # wider everywhere
    with pytest.raises(ValueError, match="kind must be 'pointwise' or 'simultaneous'"):
        roc.ci_band(fpr=grid, kind="uniform")


@pytest.mark.slow
def test_simultaneous_band_covers_the_whole_binormal_curve() -> None:
    # 500 data sets of 200 positives ~ N(1, 1) and 200 negatives ~ N(0, 1); the true
    # curve TPR(f) = Phi(1 + Phi^-1(f)) at 16 FPRs in [0.05, 0.80]; 500 replicates each
    grid = np.linspace(0.05, 0.80, 16) + 0.00123  # between the vertices k / 200
    true = norm.cdf(1.0 + norm.ppf(grid))
    rng = np.random.default_rng(12345)
    y = np.r_[np.ones(200, bool), np.zeros(200, bool)]
    covered = {"pointwise": 0, "simultaneous": 0}
    for r in range(500):
        roc = bm.evaluate(y, np.r_[rng.normal(1, 1, 200), rng.normal(0, 1, 200)]).roc()
        for kind in covered:
            band = roc.ci_band(fpr=grid, n_resamples=500, random_state=r, kind=kind)
            covered[kind] += bool(np.all((band.low <= true) & (true <= band.high)))
    simultaneous, pointwise = covered["simultaneous"] / 500, covered["pointwise"] / 500
    print(f"whole-curve coverage: simultaneous {simultaneous}, pointwise {pointwise}")
    assert 0.92 <= simultaneous <= 0.98
    assert pointwise < 0.85
