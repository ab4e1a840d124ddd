"""Multilabel bootstrap intervals (issue 31): rows redrawn with all their labels; every
replicate equals scikit-learn on the resampled rows, on the same draws, to 1e-12."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from sklearn import metrics as skm

import binmetrics as bm
from binmetrics.inference.resampling import quantiles

B = 40


def case(seed: int, weighted: bool = False, n: int = 150, L: int = 4) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    Y = rng.random((n, L)) < 0.35
    S = np.round(np.clip(0.35 * Y + 0.65 * rng.random((n, L)), 0, 1), 1)  # ties
    w = rng.uniform(0.2, 3.0, n) if weighted else None
    return {"Y": Y, "S": S, "w": w, "lev": bm.evaluate_multilabel(Y, S, sample_weight=w)}


def sk_value(mid: str, avg: str, Y: Any, S: Any, w: Any) -> float:
    pred = S >= 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if mid == "f1":
            return float(skm.f1_score(Y, pred, average=avg, sample_weight=w,
                                      zero_division=np.nan))
        if mid == "precision":
            return float(skm.precision_score(Y, pred, average=avg, sample_weight=w,
                                             zero_division=np.nan))
        if mid == "recall":
            return float(skm.recall_score(Y, pred, average=avg, sample_weight=w,
                                          zero_division=np.nan))
        if mid == "auc":
            return float(skm.roc_auc_score(Y, S, average=avg, sample_weight=w))
        return float(skm.average_precision_score(Y, S, average=avg, sample_weight=w))


KEYS = [("f1", a) for a in ("macro", "weighted", "micro", "samples")] + [
    ("precision", "macro"), ("recall", "micro"),
    ("auc", "macro"), ("auc", "weighted"), ("auc", "micro"),
    ("average_precision", "macro"), ("average_precision", "micro")]


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_replicates_equal_sklearn_on_the_same_draws(weighted: bool) -> None:
    c = case(1, weighted)
    lev = c["lev"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", bm.UndefinedMeasureWarning)
        res = lev.bootstrap(KEYS, n_resamples=B, random_state=0)
    draws = list(lev.bootstrap_indices(B, random_state=0))
    for mid, avg in KEYS:
        key = f"{bm.get_measure(mid).id} ({avg})"
        want = [sk_value(mid, avg, c["Y"][r], c["S"][r], None if c["w"] is None else c["w"][r])
                for r in draws]
        np.testing.assert_allclose(res.replicates[key], want, rtol=1e-12, atol=1e-12,
                                   err_msg=key)
        assert np.unique(res.replicates[key]).size > 5, key


def test_interval_is_the_quantiles_of_the_brute_force_replicates() -> None:
    c = case(2)
    lev = c["lev"]
    ci = lev.ci("f1", average="micro", n_resamples=300, random_state=4, level=0.9)
    want = [sk_value("f1", "micro", c["Y"][r], c["S"][r], None)
            for r in lev.bootstrap_indices(300, random_state=4)]
    assert (ci.low, ci.high) == pytest.approx(quantiles(want, [0.05, 0.95]), rel=1e-12)
    assert ci.estimate == pytest.approx(sk_value("f1", "micro", c["Y"], c["S"], None))
    bca = lev.ci("auc", average="macro", n_resamples=300, random_state=4, kind="bca")
    assert bca.method == "bootstrap-bca" and bca.low < bca.estimate < bca.high


def test_ci_table_and_bad_average() -> None:
    lev = case(3)["lev"]
    t = lev.ci_table(["f1", "auc"], average="micro", n_resamples=50, random_state=0)
    assert t.measure.tolist() == ["f1", "auc"] and set(t.average) == {"micro"}
    with pytest.raises(ValueError, match="average must be one of 'macro', 'weighted', "
                                         "'micro', 'samples'"):
        lev.ci("f1", average="hand_till", n_resamples=10)
