"""bm.compare for multiclass models (issue 31): the paired row bootstrap, each model's
replicates equal to scikit-learn on the same redrawn rows, the binary result type."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import ndtr
from sklearn import metrics as skm

import binmetrics as bm
from binmetrics.inference.resampling import quantiles


def data(seed: int = 0, n: int = 150, k: int = 3) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)

    def model(noise: float) -> np.ndarray:
        z = np.eye(k)[y] + rng.normal(0, noise, (n, k))
        p = np.round(np.exp(2 * z), 1) + 0.1  # ties
        return p / p.sum(axis=1, keepdims=True)

    return y, {"A": model(0.6), "B": model(1.0), "C": model(1.5)}


def test_paired_replicates_and_results_equal_brute_force() -> None:
    y, models = data()
    B = 60
    cmp = bm.compare(y, models, measures=["auc", "accuracy", "f1"], average="macro",
                     n_resamples=B, random_state=3)
    assert isinstance(cmp, bm.Comparison) and cmp.names == ("A", "B", "C")
    draws = list(bm.evaluate(y, models["A"]).bootstrap_indices(B, random_state=3))

    def sk(name: str, mid: str, rows: np.ndarray) -> float:
        yy, p = y[rows], models[name][rows]
        if mid == "auc":
            return float(skm.roc_auc_score(yy, p, multi_class="ovr", average="macro"))
        pred = np.argmax(p, axis=1)
        if mid == "accuracy":
            return float(skm.accuracy_score(yy, pred))
        return float(skm.f1_score(yy, pred, average="macro"))

    full = np.arange(y.size)
    for name in models:
        for mid in ("auc", "accuracy", "f1"):
            want = [sk(name, mid, r) for r in draws]
            np.testing.assert_allclose(cmp.replicates[name][mid], want, rtol=1e-12,
                                       err_msg=f"{name} {mid}")
            assert cmp.values[name][mid] == pytest.approx(sk(name, mid, full), rel=1e-12)
    r = cmp.result("A", "C", "f1")
    d = np.array([sk("A", "f1", x) - sk("C", "f1", x) for x in draws])
    assert r.method == "paired-bootstrap" and r.estimate == pytest.approx(
        sk("A", "f1", full) - sk("C", "f1", full), rel=1e-12)
    assert (r.ci.low, r.ci.high) == pytest.approx(quantiles(d, [0.025, 0.975]), rel=1e-12)
    z = r.estimate / np.std(d, ddof=1)
    assert r.statistic == pytest.approx(z, rel=1e-10)
    assert r.pvalue == pytest.approx(2 * ndtr(-abs(z)), rel=1e-10)
    assert len(cmp.results) == 3 * 3  # three pairs, three measures
    assert set(cmp.to_frame().method) == {"paired-bootstrap"}


def test_hand_till_and_bad_options() -> None:
    y, models = data(1)
    cmp = bm.compare(y, {"A": models["A"], "B": models["B"]}, measures="auc",
                     average="hand_till", n_resamples=40, random_state=0)
    want = skm.roc_auc_score(y, models["A"], multi_class="ovo")
    assert cmp.values["A"]["auc"] == pytest.approx(want, rel=1e-12)
    with pytest.raises(TypeError, match="threshold: binary options"):
        bm.compare(y, models, threshold=0.3)
    with pytest.raises(ValueError, match=r"scores\['B'\] must be an \(n, k\) probability"):
        bm.compare(y, {"A": models["A"], "B": models["B"][:, 0]})
    with pytest.raises(ValueError, match="average must be one of"):
        bm.compare(y, models, average="samples", n_resamples=10)


def test_binary_models_still_go_to_the_binary_compare() -> None:
    rng = np.random.default_rng(0)
    y = rng.random(100) < 0.4
    cmp = bm.compare(y, {"a": y + rng.normal(0, 1, 100), "b": rng.random(100)},
                     n_resamples=50, random_state=0)
    assert cmp.methods["auc"] == "delong" and not math.isnan(cmp.threshold)
