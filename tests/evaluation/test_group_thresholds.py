"""ByResult.best_thresholds against an exhaustive search over every pair of cuts."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm


def _data(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = 300
    g = rng.choice(["a", "b", "c"], n, p=[0.5, 0.3, 0.2])
    y = (rng.random(n) < np.where(g == "a", 0.3, 0.5)).astype(int)
    p = np.round(np.clip(0.35 * y + 0.65 * rng.random(n) + 0.1 * (g == "b"), 0, 1), 1)
    return pd.DataFrame({"g": g, "y": y, "p": p})


def _brute(df: pd.DataFrame, measure: str, rate: str, tol: float) -> float:
    groups = sorted(df["g"].unique())
    cands = {k: np.r_[np.inf, np.sort(df.loc[df["g"] == k, "p"].unique())[::-1]]
             for k in groups}
    best = -np.inf
    for combo in itertools.product(*(cands[k] for k in groups)):
        th = dict(zip(groups, combo, strict=True))
        pred = df["p"].to_numpy() >= df["g"].map(th).to_numpy()
        rates = []
        for k in groups:
            sel = (df["g"] == k).to_numpy()
            y, pr = df["y"].to_numpy()[sel], pred[sel]
            rates.append({"tpr": pr[y == 1].mean(), "selection_rate": pr.mean()}[rate])
        if max(rates) - min(rates) > tol + 1e-12:
            continue
        y = df["y"].to_numpy()
        tp, fp = np.sum(pred & (y == 1)), np.sum(pred & (y == 0))
        fn = np.sum(~pred & (y == 1))
        v = 2 * tp / (2 * tp + fp + fn) if measure == "f1" else (
            tp + np.sum(~pred & (y == 0))) / y.size
        best = max(best, v)
    return float(best)


@pytest.mark.parametrize(("constraint", "rate"), [("equal_opportunity", "tpr"),
                                                  ("demographic_parity", "selection_rate")])
@pytest.mark.parametrize("measure", ["f1", "accuracy"])
def test_meets_the_constraint_and_matches_exhaustive_search(constraint: str, rate: str,
                                                            measure: str) -> None:
    df = _data(0)
    g = bm.evaluate_by(df, label="y", score="p", by="g", measures=["tpr"])
    res = g.best_thresholds(measure, constraint=constraint, tolerance=0.05)
    frame = res.to_frame()
    assert frame["rate"].max() - frame["rate"].min() <= 0.05 + 1e-12
    # the thresholds give that rate and value when applied to the rows
    th = dict(zip(frame["g"], frame["threshold"], strict=True))
    pred = df["p"].to_numpy() >= df["g"].map(th).to_numpy()
    y = df["y"].to_numpy()
    for k, r in zip(frame["g"], frame["rate"], strict=True):
        sel = (df["g"] == k).to_numpy()
        want = pred[sel][y[sel] == 1].mean() if rate == "tpr" else pred[sel].mean()
        assert r == pytest.approx(want, abs=1e-12)
    assert res.value == pytest.approx(bm.evaluate(y, pred.astype(float))[measure], abs=1e-12)
    assert res.value == pytest.approx(_brute(df, measure, rate, 0.05), abs=1e-12)
    assert res.single_value >= bm.evaluate(y, df["p"])[measure] - 1e-12  # 0.5 is one cut
    assert "GroupThresholds(" in repr(res)


def test_bad_arguments() -> None:
    g = bm.evaluate_by(_data(1), label="y", score="p", by="g", measures=["tpr"])
    with pytest.raises(ValueError, match="constraint must be one of"):
        g.best_thresholds("f1", constraint="equalized_odds")
    with pytest.raises(ValueError, match="confusion measure; auc"):
        g.best_thresholds("auc")
    with pytest.raises(ValueError, match="tolerance must be"):
        g.best_thresholds("f1", tolerance=-1)
