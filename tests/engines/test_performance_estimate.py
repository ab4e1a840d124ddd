"""estimate_performance (CBPE): the expected counts in closed form, the estimates
against a Monte Carlo of labels drawn from the probabilities, the calibration check."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import binmetrics as bm

N_DRAWS = 10_000


def _reference(n: int = 4000, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    p = rng.beta(1, 3, n)
    return rng.random(n) < p, p  # calibrated by construction


def test_the_expected_confusion_matrix_is_sums_of_p_and_1_minus_p() -> None:
    rng = np.random.default_rng(1)
    p = rng.random(500).round(2)  # ties
    est = bm.estimate_performance(p, reference=_reference(), threshold=0.3, calibrate=False,
                                  n_resamples=10, random_state=0)
    row = est.to_frame().iloc[0]
    hi = p >= 0.3
    assert row["tp"] == pytest.approx(p[hi].sum(), rel=1e-12)
    assert row["fp"] == pytest.approx((1 - p[hi]).sum(), rel=1e-12)
    assert row["fn"] == pytest.approx(p[~hi].sum(), rel=1e-12)
    assert row["tn"] == pytest.approx((1 - p[~hi]).sum(), rel=1e-12)
    tp, fp, fn, tn = row[["tp", "fp", "fn", "tn"]]
    assert row["accuracy"] == pytest.approx((tp + tn) / 500, rel=1e-12)
    assert row["ppv"] == pytest.approx(tp / (tp + fp), rel=1e-12)
    assert row["tpr"] == pytest.approx(tp / (tp + fn), rel=1e-12)
    assert row["f1"] == pytest.approx(2 * tp / (2 * tp + fp + fn), rel=1e-12)


def _ratio(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """The ratio of means of draws and its delta-method standard error."""
    r = x.mean() / y.mean()
    c = np.cov(x, y)
    var = (c[0, 0] - 2 * r * c[0, 1] + r * r * c[1, 1]) / (x.size * y.mean() ** 2)
    return float(r), float(np.sqrt(var))


def test_estimates_agree_with_a_monte_carlo_of_the_labels() -> None:
    rng = np.random.default_rng(2)
    n = 2000
    p = rng.beta(2, 3, n).round(3)
    est = bm.estimate_performance(p, reference=_reference(), calibrate=False,
                                  n_resamples=10, random_state=0)
    row = est.to_frame().iloc[0]
    pred = p >= 0.5
    ranks = stats.rankdata(p)  # midranks: the Mann-Whitney count with ties as halves
    tp, big_p, u = (np.empty(N_DRAWS) for _ in range(3))
    for a in range(0, N_DRAWS, 500):
        y = rng.random((500, n)) < p  # labels drawn from the probabilities
        tp[a:a + 500] = (y & pred).sum(axis=1)
        big_p[a:a + 500] = y.sum(axis=1)
        u[a:a + 500] = (y * ranks).sum(axis=1) - big_p[a:a + 500] * (big_p[a:a + 500] + 1) / 2
    fp = pred.sum() - tp
    tn = n - pred.sum() - (big_p - tp)

    def close(value: float, draws: np.ndarray) -> None:  # an exact expectation
        se = draws.std(ddof=1) / np.sqrt(N_DRAWS)
        assert abs(value - draws.mean()) < 4 * se, (value, draws.mean(), se)

    close(row["tp"], tp)
    close(row["fp"], fp)
    close(row["accuracy"], (tp + tn) / n)
    close(row["ppv"], tp / pred.sum())
    # recall and F1: ratios of expectations (as NannyML defines them)
    for value, (r, se) in ((row["tpr"], _ratio(tp, big_p)),
                           (row["f1"], _ratio(2 * tp, pred.sum() + big_p))):
        assert abs(value - r) < 4 * se, (value, r, se)
    # the AUC of the expected table counts each case's tie with itself: with
    # S = sum p(1 - p), it is (E[U] + S/2) / (E[P N] + S)
    s = float((p * (1 - p)).sum())
    r, se = _ratio(u + s / 2, big_p * (n - big_p) + s)
    assert abs(row["auc"] - r) < 4 * se, (row["auc"], r, se)
    # and within Monte Carlo error of the mean AUC of the draws, plus that O(1/n) term
    auc = u / (big_p * (n - big_p))
    bias = abs(0.5 - row["auc"]) * s / (big_p.mean() * (n - big_p.mean()))
    assert abs(row["auc"] - auc.mean()) < 4 * auc.std(ddof=1) / np.sqrt(N_DRAWS) + 2 * bias


def test_sampling_intervals_are_the_spread_of_the_realized_measure() -> None:
    rng = np.random.default_rng(3)
    n = 1500
    p = rng.beta(2, 3, n)
    est = bm.estimate_performance(p, reference=_reference(), calibrate=False,
                                  n_resamples=4000, random_state=1, measures=["accuracy"])
    row = est.to_frame().iloc[0]
    y = rng.random((4000, n)) < p
    acc = ((y == (p >= 0.5)).sum(axis=1)) / n
    lo, hi = np.quantile(acc, [0.025, 0.975])
    assert row["accuracy_low"] == pytest.approx(lo, abs=0.003)
    assert row["accuracy_high"] == pytest.approx(hi, abs=0.003)


def test_a_miscalibrated_reference_is_detected_and_recalibrated() -> None:
    rng = np.random.default_rng(4)
    true_ref = rng.beta(1, 3, 5000)
    y_ref = rng.random(5000) < true_ref
    score_ref = true_ref ** 3  # the model's scores: far too low
    true_new = rng.beta(1, 2, 5000)
    y_new = rng.random(5000) < true_new
    score_new = true_new ** 3
    est = bm.estimate_performance(score_new, reference=(y_ref, score_ref), threshold=0.1,
                                  random_state=0, measures=["accuracy", "tpr", "auc"])
    assert est.calibrated and est.calibration["recalibrate"]
    assert est.calibration["ece_recalibrated"] < est.calibration["ece_raw"]
    assert "recalibrated on the reference (isotonic)" in repr(est)
    raw = bm.estimate_performance(score_new, reference=(y_ref, score_ref), threshold=0.1,
                                  random_state=0, calibrate=False, measures=["accuracy", "tpr"])
    real = bm.evaluate(y_new, score_new, threshold=0.1)
    got, bad = est.to_frame().iloc[0], raw.to_frame().iloc[0]
    for i in ("accuracy", "tpr"):
        assert abs(got[i] - real[i]) < 0.02, i  # recalibrated: close to the truth
        assert abs(bad[i] - real[i]) > 3 * abs(got[i] - real[i]), i  # raw: far off
    assert abs(bad["tpr"] - real["tpr"]) > 0.2
    ok = bm.estimate_performance(true_new, reference=(y_ref, true_ref), random_state=0)
    assert not ok.calibrated


def test_windows_over_time() -> None:
    rng = np.random.default_rng(5)
    p = rng.random(700)
    t = pd.Timestamp("2026-03-01") + pd.to_timedelta(np.arange(700) / 50, "D")
    est = bm.estimate_performance(p, reference=_reference(), time=t, window="7D",
                                  calibrate=False, n_resamples=20, random_state=0)
    f = est.to_frame()
    assert list(f["n"]) == [350, 350]
    assert f["start"].iloc[1] == pd.Timestamp("2026-03-08")
    assert f.loc[1, "tp"] == pytest.approx(p[350:][p[350:] >= 0.5].sum())


@pytest.mark.parametrize("scores, reference, message", [
    ([0.2, 1.2], None, "y_score must hold probabilities in [0, 1]"),
    ([0.2, np.nan], None, "y_score must hold probabilities in [0, 1]"),
    ([0.2, 0.4], ([0, 1], [0.1, -0.5]), "the reference's y_score must hold probabilities"),
    ([0.2, 0.4], ([1, 1], [0.1, 0.5]), "the reference must hold both classes"),
])
def test_bad_input(scores: list, reference: tuple | None, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)) as info:
        bm.estimate_performance(scores, reference=reference or _reference(200))
    assert "\n" not in str(info.value)


def test_measures_without_a_draw_kernel_get_an_estimate_and_no_interval() -> None:
    rng = np.random.default_rng(6)
    p = rng.random(300)
    est = bm.estimate_performance(p, reference=_reference(), calibrate=False,
                                  measures=["brier", "average_precision"], n_resamples=50,
                                  random_state=0)
    row = est.to_frame().iloc[0]
    # the expected Brier score of calibrated probabilities: mean p (1 - p)
    assert row["brier"] == pytest.approx(np.mean(p * (1 - p)), rel=1e-12)
    assert np.isnan(row["brier_low"]) and np.isnan(row["brier_high"])
    assert row["average_precision_low"] <= row["average_precision_high"]
