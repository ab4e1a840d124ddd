"""threshold_with_guarantee: the fixed-sequence scan of exact one-sided bounds against a
brute-force scan with statsmodels' Clopper-Pearson bounds, and against MAPIE's
BinaryClassificationController where the definitions meet."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy.stats import binom
from statsmodels.stats.proportion import proportion_confint

import binmetrics as bm


def _rows(seed: int, n: int = 3000):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    s = np.clip(np.round(1 / (1 + np.exp(-rng.normal(2.2 * y - 1.1, 1.0))), 2), 0.0, 1.0)
    return y, s


def _counts(y, s, th):
    pred = s >= th
    tp, fp = int(np.sum(pred & (y == 1))), int(np.sum(pred & (y == 0)))
    return tp, fp, int(np.sum(y == 1)) - tp, int(np.sum(y == 0)) - fp


PROPORTIONS = {  # (successes, trials), higher is better, scan starts strict
    "ppv": (lambda tp, fp, fn, tn: (tp, tp + fp), True, True),
    "tpr": (lambda tp, fp, fn, tn: (tp, tp + fn), True, False),
    "tnr": (lambda tp, fp, fn, tn: (tn, tn + fp), True, True),
    "npv": (lambda tp, fp, fn, tn: (tn, tn + fn), True, False),
    "accuracy": (lambda tp, fp, fn, tn: (tp + tn, tp + fp + fn + tn), True, True),
    "fpr": (lambda tp, fp, fn, tn: (fp, fp + tn), False, True),
    "fnr": (lambda tp, fp, fn, tn: (fn, fn + tp), False, False),
}


def _brute(y, s, measure, target, level):
    frac, lower, strict_first = PROPORTIONS[measure]
    ths = [math.inf, *sorted(set(s.tolist()), reverse=True)]
    if not strict_first:
        ths = ths[::-1]
    a = 1 - level
    last = None
    for th in ths:
        x, n = frac(*_counts(y, s, th))
        if n == 0:
            continue
        best_case = a ** (1 / n) if lower else 1 - a ** (1 / n)
        if best_case < target if lower else best_case > target:
            continue  # too few trials to ever pass: not tested
        lo, hi = proportion_confint(x, n, alpha=2 * a, method="beta")
        bound = (lo if x > 0 else 0.0) if lower else (hi if x < n else 1.0)
        if (bound >= target) if lower else (bound <= target):
            last = (th, bound)
        else:
            break
    return last


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize(("measure", "kw"), [
    ("ppv", {"at_least": 0.8}), ("ppv", {"at_least": 0.9}), ("tpr", {"at_least": 0.7}),
    ("tnr", {"at_least": 0.9}), ("npv", {"at_least": 0.85}), ("accuracy", {"at_least": 0.5}),
    ("fpr", {"at_most": 0.1}), ("fnr", {"at_most": 0.2})])
def test_guarantee_equals_a_brute_force_scan(measure, kw, seed):
    y, s = _rows(seed)
    level = 0.9 if seed else 0.95
    g = bm.evaluate(y, s).threshold_with_guarantee(measure, level=level, **kw)
    expected = _brute(y, s, measure, next(iter(kw.values())), level)
    if expected is None:
        assert not g.feasible and math.isnan(g.threshold) and g.reason
        return
    assert g.feasible and g.threshold == expected[0]
    assert g.bound == pytest.approx(expected[1], rel=1e-9)
    assert g.value == bm.evaluate(y, s, threshold=g.threshold).value(measure)


def test_infeasible_guarantee_is_a_result_that_says_why():
    y, s = _rows(3, n=200)
    g = bm.evaluate(y, s).threshold_with_guarantee("ppv", at_least=0.999)
    assert not g.feasible and math.isnan(g.threshold)
    assert "ppv >= 0.999" in g.reason and "infeasible" in repr(g)


@pytest.mark.parametrize(("measure", "kw", "match"), [
    ("auc", {"at_least": 0.8}, "auc has no exact guarantee"),
    ("f1", {"at_least": 0.8}, "f1 has no exact guarantee"),
    ("ppv", {}, "exactly one of at_least"),
    ("ppv", {"at_least": 0.8, "at_most": 0.9}, "exactly one of at_least"),
    ("ppv", {"at_least": 1.2}, r"at_least must lie in \[0.0, 1.0\]"),
    ("fpr", {"at_least": 0.1}, "pass at_most= for it"),
    ("ppv", {"at_most": 0.1}, "pass at_least= for it"),
])
def test_bad_guarantees_are_one_line_errors(measure, kw, match):
    ev = bm.evaluate([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.2])
    with pytest.raises(ValueError, match=match) as info:
        ev.threshold_with_guarantee(measure, **kw)
    assert "\n" not in str(info.value)


def test_fractional_weights_have_no_exact_guarantee():
    ev = bm.evaluate([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.2], sample_weight=[0.5, 1, 1, 1])
    with pytest.raises(ValueError, match="whole numbers"):
        ev.threshold_with_guarantee("ppv", at_least=0.5)


# --- MAPIE's BinaryClassificationController (Learn then Test) ------------------------------
mapie_rc = pytest.importorskip("mapie.risk_control")


def _mapie_setup(seed: int):
    y, s = _rows(seed, n=4000)
    ths = np.array(sorted(set(s.tolist()), reverse=True))  # strict -> lenient
    counts = np.array([np.sum(s >= t) for t in ths])
    keep = counts >= 60  # every tested cut holds enough cases: no cut is skipped
    return y, s, ths[keep]


def test_mapie_fixed_sequence_on_exact_pvalues_gives_the_same_cut():
    from mapie.risk_control.fwer_control import control_fwer

    y, s, ths = _mapie_setup(0)
    target, level = 0.8, 0.95
    # the exact binomial p-value of H: precision < target at each cut, strict first
    pvals = []
    for t in ths:
        tp, fp, _, _ = _counts(y, s, t)
        pvals.append(binom.sf(tp - 1, tp + fp, target))
    valid = control_fwer(np.array(pvals), 1 - level, fwer_method="fixed_sequence")
    ours = bm.evaluate(y[s >= ths[-1]], s[s >= ths[-1]]).threshold_with_guarantee(
        "ppv", at_least=target, level=level)
    assert len(valid) and ours.threshold == ths[max(valid)]


def test_mapie_controller_is_never_more_lenient():
    y, s, ths = _mapie_setup(1)
    target, level = 0.8, 0.9
    sub = s >= ths[-1]

    def proba(x):
        x = np.asarray(x, dtype=float).ravel()
        return np.column_stack([1 - x, x])

    ctl = mapie_rc.BinaryClassificationController(
        proba, "precision", target_level=target, confidence_level=level,
        list_predict_params=np.sort(ths), fwer_method="fixed_sequence")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ctl.calibrate(s[sub].reshape(-1, 1), y[sub])
    ours = bm.evaluate(y[sub], s[sub]).threshold_with_guarantee(
        "ppv", at_least=target, level=level)
    assert ours.feasible
    if ctl.best_predict_param is not None:
        assert float(ctl.best_predict_param) >= ours.threshold
