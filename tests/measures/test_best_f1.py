"""``best_f1`` (Siblini et al. Fig. 7: the best F1 over thresholds) against scikit-learn's
F1 at every threshold, brute force, and its calibrated version."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import binmetrics as bm


def _brute(y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> float:
    """max over the cuts 'score >= t' (t each distinct score, and above all) of F1."""
    w = np.ones(y.size) if w is None else w
    best = 0.0
    for t in np.unique(s):
        pred = s >= t
        tp = w[pred & y].sum()
        fp = w[pred & ~y].sum()
        fn = w[~pred & y].sum()
        best = max(best, 2 * tp / (2 * tp + fp + fn))
    return best


@pytest.mark.parametrize("seed", range(5))
def test_equals_brute_force_with_ties_and_weights(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 200
    y = rng.random(n) < rng.uniform(0.05, 0.6)
    y[:1] = True
    s = np.round(0.4 * y + rng.random(n), 1)  # many ties
    w = None if seed % 2 else rng.uniform(0.1, 3, n)
    assert bm.evaluate(y, s, sample_weight=w)["best_f1"] == pytest.approx(_brute(y, s, w),
                                                                         rel=1e-12)


def test_sklearn_f1_at_the_best_threshold() -> None:
    skm = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(7)
    y = rng.random(300) < 0.3
    s = 0.5 * y + rng.random(300)
    best = max(skm.f1_score(y, s >= t) for t in np.unique(s))
    assert bm.evaluate(y, s)["best_f1"] == pytest.approx(best, rel=1e-12)
    assert bm.evaluate(y, s)["max_f1"] == bm.evaluate(y, s)["best_f1"]


def test_calibrated_is_the_f1_of_reweighted_negatives() -> None:
    rng = np.random.default_rng(8)
    y = rng.random(400) < 0.2
    s = 0.5 * y + rng.random(400)
    ev = bm.evaluate(y, s)
    pi, pi0 = y.mean(), 0.5
    c = pi * (1 - pi0) / (pi0 * (1 - pi))  # Siblini et al. eq. 5
    w = np.where(y, 1.0, c)
    assert ev.calibrated(pi0)["best_f1"] == pytest.approx(_brute(y, s, w), rel=1e-12)
    assert ev.calibrated(pi)["best_f1"] == pytest.approx(ev["best_f1"], rel=1e-12)


def test_one_class_is_undefined() -> None:
    for y in ([0, 0, 0], [1, 1, 1]):
        with pytest.warns(bm.UndefinedMeasureWarning, match="best_f1"):
            assert np.isnan(bm.evaluate(y, [0.2, 0.5, 0.9])["best_f1"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert bm.evaluate([1, 0], [0.5, 0.2])["best_f1"] == 1.0
