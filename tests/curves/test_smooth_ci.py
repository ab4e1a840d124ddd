"""Issue 33, point 8: the smoothed ROC curve's area has a bootstrap interval (pROC's
``ci(smooth(roc))``), and the decision curve names the model as the user did."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm


def _data(seed: int, n: int = 300) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    return y, np.round(y + rng.normal(0, 1, n), 1)  # ties


@pytest.mark.parametrize("method", ["binormal", "density"])
def test_interval_around_the_area(method: str) -> None:
    y, s = _data(0)
    sm = bm.evaluate(y, s).roc().smooth(method)
    ci = sm.ci(n_resamples=300, random_state=0)
    assert ci.estimate == sm.area()
    assert ci.low < sm.area() < ci.high and ci.level == 0.95
    assert ci.method == "bootstrap-percentile"
    again = sm.ci(n_resamples=300, random_state=0)
    assert (again.low, again.high) == (ci.low, ci.high)  # same seed, same interval
    narrow = sm.ci(n_resamples=300, random_state=0, level=0.5)
    assert ci.low < narrow.low < narrow.high < ci.high


@pytest.mark.parametrize("method", ["binormal", "density"])
def test_replicates_agree_with_a_brute_force_bootstrap(method: str) -> None:
    """An independent bootstrap: resample the rows (stratified, as pROC), rebuild and
    smooth the ROC curve of each sample. The two replicate distributions agree."""
    y, s = _data(1, n=200)
    sm = bm.evaluate(y, s).roc().smooth(method)
    ours = sm.ci(n_resamples=400, random_state=0, level=0.9)
    rng = np.random.default_rng(12)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    brute = []
    for _ in range(400):
        idx = np.concatenate([rng.choice(pos, pos.size), rng.choice(neg, neg.size)])
        brute.append(bm.evaluate(y[idx], s[idx]).roc().smooth(method).area())
    lo, hi = np.quantile(brute, [0.05, 0.95])
    width = hi - lo
    assert abs(ours.low - lo) < 0.25 * width and abs(ours.high - hi) < 0.25 * width


def test_weighted_is_the_repeated_rows() -> None:
    y, s = _data(2, n=120)
    w = np.random.default_rng(3).integers(1, 4, y.size)
    a = bm.evaluate(y, s, sample_weight=w).roc().smooth("binormal")
    b = bm.evaluate(np.repeat(y, w), np.repeat(s, w)).roc().smooth("binormal")
    assert a.area() == pytest.approx(b.area(), rel=1e-12)
    assert a.ci(n_resamples=100, random_state=0).estimate == pytest.approx(b.area())


def test_decision_curve_uses_the_users_names() -> None:
    y, s = _data(4)
    p = 1 / (1 + np.exp(-s))
    df = pd.DataFrame({"y": y, "p_lr": p, "p_gb": p ** 2})
    ev = bm.evaluate(df, label="y", score="p_lr")
    other = bm.evaluate(df, label="y", score="p_gb")
    models = ev.decision_curve([0.2, 0.5], others={"p_gb": other}).to_frame()["model"]
    assert list(dict.fromkeys(models)) == ["p_lr", "p_gb", "treat all", "treat none"] or \
        {"p_lr", "p_gb"} <= set(models)
    assert "model" not in set(models)
    series = bm.evaluate(df["y"], df["p_gb"]).decision_curve([0.5]).to_frame()["model"]
    assert "p_gb" in set(series)
    plain = bm.evaluate(y, p).decision_curve([0.5]).to_frame()["model"]
    assert "model" in set(plain)  # no name given: "model"
    named = ev.decision_curve([0.5], name="logistic").to_frame()["model"]
    assert "logistic" in set(named)
