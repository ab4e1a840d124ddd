"""The ranked probability score (Epstein 1969; Berrar, after Def. 18) of a multiclass
evaluation, against a direct implementation and known values."""

from __future__ import annotations

import numpy as np
import pytest

import binmetrics as bm


def _direct(codes: np.ndarray, proba: np.ndarray, w: np.ndarray | None) -> float:
    """1/(K-1) sum_k (cumulative forecast - cumulative observation)^2, averaged."""
    n, k = proba.shape
    per = []
    for i in range(n):
        obs = np.zeros(k)
        obs[codes[i]] = 1.0
        total = 0.0
        for j in range(k - 1):
            total += (proba[i, : j + 1].sum() - obs[: j + 1].sum()) ** 2
        per.append(total / (k - 1))
    return float(np.average(per, weights=w))


@pytest.mark.parametrize("k", [3, 4, 6])
def test_equals_direct_implementation(k: int) -> None:
    rng = np.random.default_rng(k)
    n = 150
    proba = rng.dirichlet(np.ones(k), n)
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    w = rng.uniform(0.2, 2.0, n)
    mev = bm.evaluate_multiclass(y, proba, sample_weight=w)
    assert mev.value("rps") == pytest.approx(_direct(y, proba, w), rel=1e-12)


def test_constantinou_fenton_values() -> None:
    """Home win observed: forecasts (1, 0, 0), (.9, .1, 0), (.8, .1, .1) score 0,
    0.005, 0.025 (Constantinou & Fenton 2012, Table 2)."""
    labels = ["home", "draw", "away"]
    for proba, want in [([1, 0, 0], 0.0), ([.9, .1, 0], 0.005), ([.8, .1, .1], 0.025)]:
        other = [0.0, 0.0, 1.0]  # a second case so that two classes occur
        mev = bm.evaluate_multiclass(["home", "away"], [proba, other], labels=labels)
        assert mev["rps"] * 2 == pytest.approx(want, abs=1e-12)


def test_order_matters_unlike_brier() -> None:
    y = np.array([0, 1, 2, 0])
    near = np.array([[.1, .9, 0], [.1, .8, .1], [0, .2, .8], [.7, .2, .1]])
    far = near[:, [0, 2, 1]]  # the same probabilities, the wrong class order
    a = bm.evaluate_multiclass(y, near)
    b = bm.evaluate_multiclass(y, far, labels=[0, 2, 1])
    assert a["brier"] == pytest.approx(b["brier"])
    assert a["rps"] != pytest.approx(b["rps"])
    assert a["rps"] == pytest.approx(_direct(y, near, None))


def test_two_classes_is_the_brier_score() -> None:
    rng = np.random.default_rng(3)
    y = (rng.random(100) < 0.4).astype(int)
    p = rng.random(100)
    mev = bm.evaluate_multiclass(y, np.column_stack([1 - p, p]))
    ev = bm.evaluate(y, p)
    assert mev["rps"] == pytest.approx(ev["brier"], rel=1e-12)
    assert ev["rps"] == pytest.approx(ev["brier"], rel=1e-12)
