"""binmetrics against scikit-learn on random data with tied scores and case weights.

Scores are rounded to one or two decimals, so most distinct scores are shared by
several cases; weights are random positive numbers (and absent in the unweighted
variant, which builds the count table by another code path). Each confusion measure is
compared at several thresholds, with scikit-learn's prediction ``score >= t``
(binmetrics' rule), only where both libraries define the value (scikit-learn returns
0 or NaN where binmetrics returns NaN or inf).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from sklearn import metrics as skm

import binmetrics as bm

TOL = 1e-10


@dataclass(frozen=True)
class Case:
    y: np.ndarray
    s: np.ndarray
    w: np.ndarray | None
    decimals: int


def make_case(seed: int, n: int, weighted: bool) -> Case:
    rng = np.random.default_rng([seed, n, int(weighted)])
    y = (rng.random(n) < rng.uniform(0.2, 0.6)).astype(int)
    y[0], y[1] = 1, 0  # both classes, even for n = 5
    decimals = 1 + seed % 2
    raw = 0.65 * rng.random(n) + 0.35 * y * rng.random(n)
    step = 10.0**-decimals
    # probabilities strictly inside (0, 1), for the log loss
    s = np.clip(np.round(raw, decimals), step, 1.0 - step)
    w = rng.uniform(0.1, 3.0, n) if weighted else None
    return Case(y=y, s=s, w=w, decimals=decimals)


PARAMS = [
    pytest.param((seed, n, weighted), id=f"seed{seed}-n{n}-{'w' if weighted else 'u'}")
    for seed in (0, 1, 2)
    for n in (5, 37, 2000)
    for weighted in (True, False)
]


@pytest.fixture(scope="module", params=PARAMS)
def case(request: pytest.FixtureRequest) -> Case:
    c = make_case(*request.param)
    # the data really has ties (except possibly the smallest samples)
    if c.y.size >= 37:
        assert np.unique(c.s).size < c.s.size
    return c


def thresholds(c: Case, k: int = 4) -> np.ndarray:
    """Up to k distinct scores above the minimum (something predicted each way)."""
    u = np.unique(c.s)[1:]
    idx = np.unique(np.linspace(0, u.size - 1, min(k, u.size)).round().astype(int))
    return u[idx]


def close(got: float, want: float, what: str) -> None:
    assert np.isfinite(got) and abs(got - want) <= TOL, (
        f"{what}: binmetrics {got!r}, sklearn {want!r}"
    )


def test_confusion_measures(case: Case) -> None:
    y, s, w = case.y, case.s, case.w
    ev = bm.evaluate(y, s, sample_weight=w)
    ts = thresholds(case)
    assert ts.size >= 1
    n_lr = 0
    for t in ts:
        e = ev.at_threshold(float(t))
        pred = (s >= t).astype(int)
        tn, fp, fn, tp = skm.confusion_matrix(y, pred, labels=[0, 1], sample_weight=w).ravel()
        c = e.confusion
        np.testing.assert_allclose([c.tp, c.fp, c.fn, c.tn], [tp, fp, fn, tn], rtol=0, atol=TOL)
        kw = {"sample_weight": w}
        checks = {
            "accuracy": skm.accuracy_score(y, pred, **kw),
            "balanced_accuracy": skm.balanced_accuracy_score(y, pred, **kw),
            "precision": skm.precision_score(y, pred, **kw),
            "recall": skm.recall_score(y, pred, **kw),
            "f1": skm.f1_score(y, pred, **kw),
            "mcc": skm.matthews_corrcoef(y, pred, **kw),
            "kappa": skm.cohen_kappa_score(y, pred, **kw),
            "jaccard": skm.jaccard_score(y, pred, **kw),
            "threat_score": skm.jaccard_score(y, pred, **kw),
            "error_rate": skm.zero_one_loss(y, pred, **kw),
        }
        for name, want in checks.items():
            close(e[name], want, f"{name} at t={t}")
        for beta in (0.5, 2.0):
            close(e.value("fbeta", beta=beta), skm.fbeta_score(y, pred, beta=beta, **kw),
                  f"fbeta({beta}) at t={t}")
        if fp > 0 and tn > 0:  # both ratios defined for sklearn
            lr_plus, lr_minus = skm.class_likelihood_ratios(y, pred, **kw)
            close(e["lr_plus"], lr_plus, f"LR+ at t={t}")
            close(e["lr_minus"], lr_minus, f"LR- at t={t}")
            n_lr += 1
    if y.size >= 37:
        assert n_lr > 0, "no threshold had both likelihood ratios defined"


def test_threshold_curves_match_sklearn_per_threshold(case: Case) -> None:
    # the vectorised measure-vs-threshold curve equals sklearn at each cut
    y, s, w = case.y, case.s, case.w
    curves = bm.evaluate(y, s, sample_weight=w).threshold_curves()
    for k in range(1, curves.thresholds.size, max(1, curves.thresholds.size // 3)):
        t = curves.thresholds[k]
        pred = (s >= t).astype(int)
        close(curves.measure("f1")[k], skm.f1_score(y, pred, sample_weight=w), f"f1 curve t={t}")
        close(curves.measure("kappa")[k], skm.cohen_kappa_score(y, pred, sample_weight=w),
              f"kappa curve t={t}")


def test_probabilistic_losses(case: Case) -> None:
    y, s, w = case.y, case.s, case.w
    assert s.min() > 0 and s.max() < 1
    # the losses do not depend on the threshold; 0.5 may lie outside a small case's scores
    ev = bm.evaluate(y, s, sample_weight=w, threshold=float(np.median(s)))
    close(ev["brier"], skm.brier_score_loss(y, s, sample_weight=w), "brier")
    close(ev.value("log_loss", base=np.e), skm.log_loss(y, s, sample_weight=w), "log_loss")
    close(ev["mae"], skm.mean_absolute_error(y, s, sample_weight=w), "mae")
    close(ev["rmse"], np.sqrt(skm.mean_squared_error(y, s, sample_weight=w)), "rmse")
    close(ev["hinge_loss"], skm.hinge_loss(y, s, sample_weight=w), "hinge_loss")
    # signed margins, rounded like the scores (so they keep their ties)
    margin = np.round(4.0 * s - 2.0, case.decimals)
    close(bm.evaluate(y, margin, sample_weight=w, threshold=0.0)["hinge_loss"],
          skm.hinge_loss(y, margin, sample_weight=w), "hinge_loss (margins)")


def test_roc_curve(case: Case) -> None:
    y, s, w = case.y, case.s, case.w
    roc = bm.evaluate(y, s, sample_weight=w).roc()
    fpr, tpr, thr = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    assert roc.thresholds.size == thr.size
    assert np.isinf(roc.thresholds[0]) and roc.thresholds[0] > 0
    np.testing.assert_array_equal(roc.thresholds[1:], thr[1:])
    np.testing.assert_allclose(roc.fpr, fpr, rtol=0, atol=TOL)
    np.testing.assert_allclose(roc.tpr, tpr, rtol=0, atol=TOL)


def test_pr_curve(case: Case) -> None:
    y, s, w = case.y, case.s, case.w
    pr = bm.evaluate(y, s, sample_weight=w).pr()
    precision, recall, thr = skm.precision_recall_curve(y, s, sample_weight=w,
                                                        drop_intermediate=False)
    # sklearn: thresholds ascending, plus a final (precision 1, recall 0) point
    np.testing.assert_array_equal(pr.thresholds, thr[::-1])
    np.testing.assert_allclose(pr.precision, precision[:-1][::-1], rtol=0, atol=TOL)
    np.testing.assert_allclose(pr.recall, recall[:-1][::-1], rtol=0, atol=TOL)


def test_ranking_areas(case: Case) -> None:
    y, s, w = case.y, case.s, case.w
    ev = bm.evaluate(y, s, sample_weight=w)
    close(ev["auc"], skm.roc_auc_score(y, s, sample_weight=w), "auc")
    close(ev.roc().area(), skm.roc_auc_score(y, s, sample_weight=w), "roc area")
    close(ev["average_precision"], skm.average_precision_score(y, s, sample_weight=w), "ap")
    close(ev.pr().area("step"), skm.average_precision_score(y, s, sample_weight=w), "pr area")


def test_functional_score_matches(case: Case) -> None:
    y, s, w = case.y, case.s, case.w
    t = float(thresholds(case)[0])
    pred = (s >= t).astype(int)
    close(bm.score("mcc", y, s, threshold=t, sample_weight=w),
          skm.matthews_corrcoef(y, pred, sample_weight=w), "score(mcc)")
    close(bm.score("fbeta", y, s, threshold=t, sample_weight=w, beta=2.0),
          skm.fbeta_score(y, pred, beta=2.0, sample_weight=w), "score(fbeta)")
    close(bm.score("auc", y, s, sample_weight=w), skm.roc_auc_score(y, s, sample_weight=w),
          "score(auc)")


def test_merged_count_tables_match_sklearn() -> None:
    # the table of a union is the sum of the tables: merge three batches, compare to sklearn
    c = make_case(7, 900, True)
    parts = np.array_split(np.arange(c.y.size), 3)
    assert c.w is not None
    tables = [bm.CountTable.from_arrays(c.y[i], c.s[i], sample_weight=c.w[i]) for i in parts]
    merged = tables[0] + tables[1] + tables[2]
    ev = bm.Evaluation(merged, threshold=0.5)
    close(ev["auc"], skm.roc_auc_score(c.y, c.s, sample_weight=c.w), "merged auc")
    close(ev["average_precision"], skm.average_precision_score(c.y, c.s, sample_weight=c.w),
          "merged ap")
    close(ev["brier"], skm.brier_score_loss(c.y, c.s, sample_weight=c.w), "merged brier")
    pred = (c.s >= 0.5).astype(int)
    close(ev["mcc"], skm.matthews_corrcoef(c.y, pred, sample_weight=c.w), "merged mcc")
