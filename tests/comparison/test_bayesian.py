"""bayesian_signed_rank and correlated_t_test against baycomp (and the Nadeau-Bengio
formula); the plots of the rank and Bayesian comparisons."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import binmetrics as bm
from binmetrics.data import demsar_table
from binmetrics.exceptions import UndefinedMeasureWarning

baycomp = pytest.importorskip("baycomp")


def scores(seed: int, n: int = 12, shift: float = 0.01) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.6, 0.9, n).round(2)
    b = (a - shift + rng.normal(0, 0.02, n)).round(2)  # rounded: ties and zero differences
    return a, b


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_signed_rank_against_baycomp(seed, rope):
    a, b = scores(seed)
    ours = bm.bayesian_signed_rank(a, b, rope=rope, random_state=seed, n_resamples=20000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = baycomp.SignedRankTest.probs(a, b, rope=rope, nsamples=20000,
                                           random_state=seed + 100)
    if rope == 0:
        ref = (ref[0], 0.0, ref[1])
    # two independent Monte Carlo estimates of a proportion from 20000 draws each: the
    # standard error of their difference is at most sqrt(2 * 0.25 / 20000) = 0.005
    assert ours.probabilities == pytest.approx(ref, abs=0.02)
    assert sum(ours.probabilities) == pytest.approx(1.0)
    assert np.allclose(ours.samples.sum(axis=1), 1.0)


def test_signed_rank_same_draws_as_baycomp():
    # baycomp with the same Dirichlet draws gives the same samples exactly
    a, b = scores(3)
    rope = 0.01
    ours = bm.bayesian_signed_rank(a, b, rope=rope, n_resamples=500, random_state=7)
    d = np.concatenate([[0.0], b - a])  # baycomp's differences are y - x
    w = np.random.default_rng(7).dirichlet(np.r_[0.5, np.ones(len(a))], 500)
    sums = d[:, None] + d[None, :]
    below = (-sums > 2 * rope) + 0.5 * (-sums == 2 * rope)  # baycomp's "left": x better
    theta_a = np.einsum("si,ij,sj->s", w, below, w)
    np.testing.assert_allclose(ours.samples[:, 0], theta_a, rtol=1e-12)


def test_signed_rank_direction_and_seed():
    a, b = scores(1, shift=0.05)
    res = bm.bayesian_signed_rank(a, b, rope=0.01, random_state=0)
    flipped = bm.bayesian_signed_rank(b, a, rope=0.01, random_state=0)
    assert res.probabilities[0] > 0.9
    assert flipped.probabilities == pytest.approx(res.probabilities[::-1])
    again = bm.bayesian_signed_rank(a - b, rope=0.01, random_state=0)
    assert again.probabilities == res.probabilities
    assert res.to_frame().index.tolist() == ["A better", "equivalent", "B better"]
    assert repr(res).startswith("BayesianSignedRank(P(A better)=")


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(("runs", "folds"), [(1, 10), (10, 10), (3, 5)])
def test_correlated_t_against_baycomp(seed, runs, folds):
    rng = np.random.default_rng(seed)
    a = rng.normal(0.8, 0.03, runs * folds).round(3)
    b = rng.normal(0.79, 0.03, runs * folds).round(3)
    ours = bm.correlated_t_test(a, b, test_fraction=1 / folds, rope=0.01)
    ref = baycomp.CorrelatedTTest.probs(a, b, rope=0.01, runs=runs)
    assert ours.probabilities == pytest.approx(ref, rel=1e-10, abs=1e-14)
    # Nadeau-Bengio: t = mean / sqrt((1/n + rho/(1-rho)) s^2), df = n - 1
    d = a - b
    n = d.size
    t = d.mean() / math.sqrt((1 / n + 1 / (folds - 1)) * d.var(ddof=1))
    assert ours.statistic == pytest.approx(t, rel=1e-12)
    assert ours.pvalue == pytest.approx(2 * stats.t.sf(abs(t), n - 1), rel=1e-12)
    m, v, df = baycomp.CorrelatedTTest.compute_statistics(b, a, runs)  # its diff is y - x
    assert (ours.estimate, ours.posterior_variance, ours.df) == pytest.approx((m, v, df))


def test_correlated_t_bad_input_and_degenerate():
    with pytest.raises(ValueError, match="test_fraction must be"):
        bm.correlated_t_test([0.1, 0.2], test_fraction=1.0)
    with pytest.raises(ValueError, match="rope must be a finite number >= 0"):
        bm.correlated_t_test([0.1, 0.2], test_fraction=0.1, rope=-0.01)
    with pytest.raises(ValueError, match="at least 2 folds"):
        bm.correlated_t_test([0.1], test_fraction=0.1)
    with pytest.raises(ValueError, match="one score per fold"):
        bm.correlated_t_test([0.1, 0.2], [0.1], test_fraction=0.1)
    with pytest.raises(ValueError,
                       match=r"a has 1 missing or infinite value\(s\) \(at \[1\], 0-based\)"):
        bm.correlated_t_test([0.1, np.nan], test_fraction=0.1)
    with pytest.warns(UndefinedMeasureWarning, match="variance is 0"):
        res = bm.correlated_t_test([0.02] * 5, test_fraction=0.2, rope=0.01)
    assert math.isnan(res.pvalue) and res.probabilities == (1.0, 0.0, 0.0)


def test_signed_rank_bad_input():
    with pytest.raises(ValueError, match="rope must be"):
        bm.bayesian_signed_rank([0.1, 0.2], [0.2, 0.1], rope=-1)
    with pytest.raises(ValueError, match="at least 2 data sets"):
        bm.bayesian_signed_rank([0.1], [0.2])
    with pytest.raises(ValueError, match="missing or infinite"):
        bm.bayesian_signed_rank([0.1, np.nan], [0.2, 0.3])
    for rope in (None, "0.01", True, np.nan, np.inf, -0.0 - 1e-9):
        with pytest.raises(ValueError, match="rope must be a finite number >= 0"):
            bm.bayesian_signed_rank([0.1, 0.2], [0.2, 0.1], rope=rope)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="prior must be > 0"):
        bm.bayesian_signed_rank([0.1, 0.2], [0.2, 0.3], prior=0)
    # all differences zero: every draw puts all mass in the ROPE
    res = bm.bayesian_signed_rank([0.5, 0.6, 0.7], [0.5, 0.6, 0.7], rope=0.01,
                                  random_state=0)
    assert res.probabilities == (0.0, 1.0, 0.0)


# --- plots --------------------------------------------------------------------------------
plt = pytest.importorskip("matplotlib.pyplot")


def _overlaps(ax) -> int:
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in ax.texts if t.get_text()]
    return sum(boxes[i].overlaps(boxes[j]) for i in range(len(boxes))
               for j in range(i + 1, len(boxes)))


def test_cd_diagram_demsar():
    res = bm.rank_comparison(demsar_table())
    ax = res.plot(alpha=0.10)
    labels = [t.get_text() for t in ax.texts]
    assert "C4.5 (3.143)" in labels and "C4.5+m+cf (1.964)" in labels
    assert "CD = 1.118" in labels  # Demšar: 2.291 * 0.488 = 1.12
    assert ax.get_xlim()[0] > ax.get_xlim()[1]  # rank 1, the best, on the right
    # two group bars: (C4.5+m+cf, C4.5+m, C4.5+cf) and (C4.5+cf, C4.5)
    bars = [ln for ln in ax.lines if ln.get_linewidth() == 3]
    assert len(bars) == 2
    assert _overlaps(ax) == 0
    plt.close("all")
    ax = bm.plot.critical_difference(res, test="bonferroni_dunn", control="C4.5")
    assert any("control ± CD (1.168)" in t.get_text() for t in ax.texts)
    plt.close("all")


@pytest.mark.parametrize("k", [25, 45])
def test_cd_diagram_many_models_is_legible(k):
    rng = np.random.default_rng(k)
    t = pd.DataFrame(rng.normal(size=(30, k)) + np.linspace(0, 2, k),
                     columns=[f"model number {j}" for j in range(k)])
    ax = bm.rank_comparison(t).plot()
    assert sum(t.get_text().startswith("model number") for t in ax.texts) == k
    assert _overlaps(ax) == 0
    plt.close("all")


def test_cd_diagram_refuses_too_many_models():
    t = pd.DataFrame(np.random.default_rng(0).normal(size=(10, 70)))
    res = bm.rank_comparison(t)
    with pytest.raises(ValueError, match=r"70 models would not be legible.*max_models=70"):
        res.plot()
    ax = res.plot(max_models=70)
    assert len(ax.texts) > 70
    plt.close("all")
    with pytest.raises(TypeError, match="takes a RankComparison"):
        bm.plot.critical_difference(t)
    with pytest.raises(ValueError, match="max_models must be an integer >= 2"):
        res.plot(max_models=0)


def test_bayesian_plots():
    a, b = scores(0, shift=0.03)
    ax = bm.bayesian_signed_rank(a, b, rope=0.01, random_state=0,
                                 names=("new", "old")).plot()
    assert any(t.get_text().startswith("new better") for t in ax.texts)
    plt.close("all")
    ax = bm.correlated_t_test(a, b, test_fraction=0.1, rope=0.01).plot()
    assert "P(A better)" in ax.get_title()
    plt.close("all")
    with pytest.raises(TypeError, match="bayesian_posterior takes"):
        bm.plot.bayesian_posterior(bm.rank_comparison(demsar_table()))
