"""top_k_accuracy and weighted kappa against scikit-learn, with ties and weights."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn import metrics as skm

import binmetrics as bm


def case(seed: int, k: int = 5, n: int = 400) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    proba = rng.multinomial(10, rng.dirichlet(np.ones(k), size=n)) / 10.0  # many ties
    y = np.array([rng.choice(k, p=0.5 * r + 0.5 / k) for r in proba])
    y[:k] = np.arange(k)
    return y, proba


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("weighted", [False, True])
def test_top_k_accuracy_equals_sklearn(seed: int, weighted: bool) -> None:
    y, proba = case(seed)
    w = np.random.default_rng(9).uniform(0.1, 3, y.size) if weighted else None
    mev = bm.evaluate_multiclass(y, proba, sample_weight=w)
    for k in range(1, 6):
        with warnings.catch_warnings(record=True) as caught:  # k = 5 classes: sklearn warns
            warnings.simplefilter("always")
            want = skm.top_k_accuracy_score(y, proba, k=k, sample_weight=w, labels=range(5))
        assert [c.category.__name__ for c in caught] == (
            [] if k < 5 else ["UndefinedMetricWarning"])  # "will result in a perfect score"
        assert mev.value("top_k_accuracy", k=k) == pytest.approx(want, rel=1e-12)
    assert mev["top_k_accuracy"] == pytest.approx(
        skm.top_k_accuracy_score(y, proba, k=1, sample_weight=w), rel=1e-12)
    with pytest.raises(ValueError, match="larger than the number of classes"):
        mev.value("top_k_accuracy", k=6)


def test_binary_top_k_accuracy_equals_sklearn() -> None:
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    s = rng.integers(0, 11, 300) / 10.0  # ties, and scores at 0.5
    w = rng.uniform(0.1, 2, 300)
    ev = bm.evaluate(y, s, sample_weight=w)
    assert ev["top_k_accuracy"] == pytest.approx(
        skm.top_k_accuracy_score(y, s, k=1, sample_weight=w), rel=1e-12)
    assert ev.value("top_k_accuracy", k=2) == 1.0
    margins = s * 4 - 2
    assert bm.evaluate(y, margins)["top_k_accuracy"] == pytest.approx(
        skm.top_k_accuracy_score(y, margins, k=1), rel=1e-12)
    with pytest.raises(ValueError, match="larger than the number of classes"):
        ev.value("top_k_accuracy", k=3)


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
@pytest.mark.parametrize("weighted", [False, True])
def test_weighted_kappa_equals_sklearn(weights: str | None, weighted: bool) -> None:
    y, proba = case(4)
    w = np.random.default_rng(2).uniform(0.1, 3, y.size) if weighted else None
    pred = np.argmax(proba, axis=1)  # first column on ties, as binmetrics' argmax
    mev = bm.evaluate_multiclass(y, proba, sample_weight=w)
    want = skm.cohen_kappa_score(y, pred, weights=weights, sample_weight=w)
    assert mev.value("kappa", weights=weights) == pytest.approx(want, rel=1e-12)


def test_weighted_kappa_needs_ordered_classes() -> None:
    y, proba = case(5, k=3)
    labels = np.array(["a", "b", "c"])
    mev = bm.evaluate_multiclass(labels[y], proba, labels=list(labels))
    assert np.isfinite(mev["kappa"])
    with pytest.raises(ValueError, match="ordered classes"):
        mev.value("kappa", weights="quadratic")
    with pytest.raises(ValueError, match="linear"):
        bm.evaluate_multiclass(y, proba).value("kappa", weights="cubic")
