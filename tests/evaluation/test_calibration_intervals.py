"""Intervals of the calibration and decision measures (issue 14): ``ev.ci`` bootstraps
them, and the interval is the percentile interval of replicates recomputed here, row by
row, by independent code (scikit-learn's calibration_curve, statsmodels' logistic fit,
hmeasure, hand-written numpy) on the very replicates the bootstrap drew
(``bootstrap_tables`` with the same seed gives them as count tables; each is expanded
back into rows). ``bm.compare`` likewise, on ``paired_bootstrap_indices``."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.inference.paired import paired_bootstrap_indices
from binmetrics.inference.resampling import bootstrap_tables

B = 150
SEED = 20261125


def _data(seed: int, n: int = 240, weighted: bool = False
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    rng = np.random.default_rng(seed)
    p = np.round(rng.beta(1.5, 3, n), 2)  # ties, scores on the thresholds and bin edges
    y = (rng.uniform(size=n) < np.clip(1.3 * p - 0.05, 0, 1)).astype(int)  # miscalibrated
    w = rng.integers(1, 4, n).astype(float) if weighted else None
    return y, p, w


def _rows(t: bm.CountTable) -> tuple[np.ndarray, np.ndarray]:
    """A replicate table back as rows (its counts are whole numbers: weights as
    frequencies)."""
    pos = np.rint(np.asarray(t.pos, dtype=np.float64)).astype(int)
    neg = np.rint(np.asarray(t.neg, dtype=np.float64)).astype(int)
    assert np.array_equal(pos, t.pos) and np.array_equal(neg, t.neg)
    s = np.asarray(t.scores, dtype=np.float64)
    return (np.concatenate([np.ones(pos.sum(), int), np.zeros(neg.sum(), int)]),
            np.concatenate([np.repeat(s, pos), np.repeat(s, neg)]))


# --- the measures, written again from their definitions --------------------------------------
def _bins(p: np.ndarray, n_bins: int, strategy: str) -> np.ndarray:
    if strategy == "quantile":
        edges = np.percentile(p, np.linspace(0, 100, n_bins + 1))
    else:
        edges = np.linspace(0, 1, n_bins + 1)
    return np.searchsorted(edges[1:-1], p)  # as sklearn's calibration_curve assigns them


def ece_ref(y: np.ndarray, p: np.ndarray, n_bins: int = 10, strategy: str = "uniform",
            norm: str = "l1") -> float:
    from sklearn.calibration import calibration_curve

    observed, predicted = calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    counts = np.bincount(_bins(p, n_bins, strategy), minlength=n_bins)
    share = counts[counts > 0] / p.size
    gap = np.abs(observed - predicted)
    if norm == "max":
        return float(gap.max())
    if norm == "l2":
        return float(np.sqrt(share @ gap**2))
    return float(share @ gap)


def _logit_fit(y: np.ndarray, p: np.ndarray) -> np.ndarray:
    import statsmodels.api as sm

    keep = (p > 0) & (p < 1)
    x = np.log(p[keep] / (1 - p[keep]))
    res = sm.Logit(y[keep], sm.add_constant(x)).fit(disp=0, tol=1e-12, maxiter=100)
    return np.asarray(res.params)


def slope_ref(y: np.ndarray, p: np.ndarray) -> float:
    return float(_logit_fit(y, p)[1])


def intercept_ref(y: np.ndarray, p: np.ndarray) -> float:
    return float(_logit_fit(y, p)[0])


def net_benefit_ref(y: np.ndarray, p: np.ndarray, threshold: float) -> float:
    treat = p >= threshold
    n = y.size
    return float(np.sum(treat & (y == 1)) / n
                 - np.sum(treat & (y == 0)) / n * threshold / (1 - threshold))


def expected_cost_ref(y: np.ndarray, p: np.ndarray, threshold: float, cost_fp: float,
                      cost_fn: float) -> float:
    treat = p >= threshold
    return float((cost_fp * np.sum(treat & (y == 0)) + cost_fn * np.sum(~treat & (y == 1)))
                 / y.size)


def brier_skill_ref(y: np.ndarray, p: np.ndarray) -> float:
    pi = y.mean()
    return float(1 - np.mean((y - p) ** 2) / (pi * (1 - pi)))


def spiegelhalter_ref(y: np.ndarray, p: np.ndarray) -> float:
    return float(np.sum((y - p) * (1 - 2 * p))
                 / np.sqrt(np.sum((1 - 2 * p) ** 2 * p * (1 - p))))


def h_ref(y: np.ndarray, p: np.ndarray) -> float:
    hmeasure = pytest.importorskip("hmeasure")
    return float(hmeasure.h_score(y, p))


#: (measure id, its parameters, the reference function of (y, p))
CASES: list[tuple[str, dict[str, object], Callable[[np.ndarray, np.ndarray], float]]] = [
    ("ece", {}, ece_ref),
    ("ece", {"n_bins": 5, "strategy": "quantile", "norm": "l2"},
     lambda y, p: ece_ref(y, p, 5, "quantile", "l2")),
    ("mce", {}, lambda y, p: ece_ref(y, p, norm="max")),
    ("calibration_slope", {}, slope_ref),
    ("calibration_intercept", {}, intercept_ref),
    ("net_benefit", {"threshold": 0.2}, lambda y, p: net_benefit_ref(y, p, 0.2)),
    ("brier_skill", {}, brier_skill_ref),
    ("spiegelhalter_z", {}, spiegelhalter_ref),
    ("h_measure", {}, h_ref),
]


def _percentile(reps: list[float], level: float = 0.95) -> tuple[float, float]:
    a = (1 - level) / 2
    lo, hi = np.quantile(np.asarray(reps), [a, 1 - a])  # linear, numpy's default
    return float(lo), float(hi)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize(("mid", "params", "ref"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_bootstrap_interval_is_the_percentile_of_independent_replicates(
        mid: str, params: dict[str, object],
        ref: Callable[[np.ndarray, np.ndarray], float], weighted: bool) -> None:
    y, p, w = _data(7, weighted=weighted)
    ev = bm.evaluate(y, p, sample_weight=w)
    iv = ev.ci(mid, n_resamples=B, random_state=SEED, **params)
    assert iv.method == "bootstrap-percentile"
    rows_y = np.repeat(y, w.astype(int)) if w is not None else y
    rows_p = np.repeat(p, w.astype(int)) if w is not None else p
    assert iv.estimate == pytest.approx(ref(rows_y, rows_p), abs=1e-7)
    reps = [ref(*_rows(t)) for t in bootstrap_tables(ev.table, B, random_state=SEED)]
    assert len(reps) == B and len(set(np.round(reps, 9))) > 10  # they vary
    lo, hi = _percentile(reps)
    assert (iv.low, iv.high) == pytest.approx((lo, hi), abs=1e-7), mid
    assert iv.low < iv.high


def test_ci_table_and_other_levels_and_kinds() -> None:
    """ci_table draws every bootstrapped measure on the same replicates (so each equals
    ev.ci with that seed); a 90% interval is the 5th and 95th centile; "basic" is
    2 * estimate - the percentile interval, reversed."""
    y, p, _ = _data(3)
    ev = bm.evaluate(y, p)
    ids = ["ece", "calibration_slope", "calibration_in_the_large", "brier_skill",
           "net_benefit"]
    table = ev.ci_table(ids, n_resamples=B, random_state=SEED).set_index("id")
    for mid in ids:
        iv = ev.ci(mid, n_resamples=B, random_state=SEED)
        assert (table.loc[mid, "low"], table.loc[mid, "high"]) == pytest.approx(
            (iv.low, iv.high), abs=1e-12), mid
    reps = [net_benefit_ref(*_rows(t), 0.5) for t in bootstrap_tables(ev.table, B,
                                                                       random_state=SEED)]
    iv90 = ev.ci("net_benefit", level=0.9, n_resamples=B, random_state=SEED)
    assert (iv90.low, iv90.high) == pytest.approx(_percentile(reps, 0.9), abs=1e-12)
    basic = ev.ci("net_benefit", kind="basic", n_resamples=B, random_state=SEED)
    lo, hi = _percentile(reps)
    est = net_benefit_ref(y, p, 0.5)
    assert (basic.low, basic.high) == pytest.approx((2 * est - hi, 2 * est - lo), abs=1e-12)


def test_expected_cost_interval_at_the_evaluations_threshold() -> None:
    y, p, _ = _data(5)
    ev = bm.evaluate(y, p, threshold=0.3)
    iv = ev.ci("expected_cost", method="bootstrap", cost_fp=1, cost_fn=5, n_resamples=B,
               random_state=SEED)
    assert iv.estimate == pytest.approx(expected_cost_ref(y, p, 0.3, 1, 5), abs=1e-12)
    reps = [expected_cost_ref(*_rows(t), 0.3, 1, 5)
            for t in bootstrap_tables(ev.table, B, random_state=SEED)]
    assert (iv.low, iv.high) == pytest.approx(_percentile(reps), abs=1e-12)


@pytest.mark.parametrize("stratified", [True, False])
def test_paired_bootstrap_of_calibration_measures(stratified: bool) -> None:
    """bm.compare bootstraps the difference A - B on the same rows for both models:
    recomputed here from paired_bootstrap_indices."""
    y, a, _ = _data(11, n=200)
    rng = np.random.default_rng(2)
    b = np.round(np.clip(a + rng.normal(0, 0.1, a.size), 0, 1), 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # replicates where a fit is undefined
        cmp = bm.compare(y, {"A": a, "B": b}, measures=["ece", "calibration_slope",
                                                         "net_benefit"],
                         params={"net_benefit": {"threshold": 0.2}}, n_resamples=B,
                         stratified=stratified, random_state=SEED)
    refs = {"ece": ece_ref, "calibration_slope": slope_ref,
            "net_benefit": lambda y_, p_: net_benefit_ref(y_, p_, 0.2)}
    rows = list(paired_bootstrap_indices(y, B, stratified=stratified, random_state=SEED))
    for mid, ref in refs.items():
        r = cmp.result("A", "B", mid)
        assert r.method == "paired-bootstrap"
        assert r.estimate == pytest.approx(ref(y, a) - ref(y, b), abs=1e-7)
        diffs = np.array([ref(y[k], a[k]) - ref(y[k], b[k]) for k in rows])
        assert np.allclose(cmp.differences("A", "B", mid), diffs, atol=1e-7), mid
        assert (r.ci.low, r.ci.high) == pytest.approx(_percentile(list(diffs)), abs=1e-7)
