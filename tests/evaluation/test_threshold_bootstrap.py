"""best_threshold(ci=True): each replicate's choice equals best_threshold on that
replicate's table (the same draws, from bootstrap_tables), the intervals are the
percentiles of those choices, the optimism is Efron's; same seed, same result."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import binmetrics as bm
from binmetrics import backends
from binmetrics.evaluation import threshold_ci
from binmetrics.exceptions import UndefinedMeasureWarning
from binmetrics.inference import _replicates as replicates
from binmetrics.inference.resampling import bootstrap_tables, quantiles


def _rows(seed: int, n: int = 200, weighted: bool = False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    s = np.round(rng.normal(y * 1.0, 1.0), 1)
    w = rng.integers(1, 4, n).astype(float) if weighted else None
    return y, s, w


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize(("measure", "subject_to", "params"), [
    ("f1", None, {}),
    ("tpr", {"ppv": (">=", 0.6)}, {}),
    ("expected_cost", None, {"cost_fp": 1.0, "cost_fn": 4.0}),
])
def test_replicate_choices_equal_best_threshold_on_each_replicate(measure, subject_to, params,
                                                                 weighted):
    y, s, w = _rows(1, weighted=weighted)
    ev = bm.evaluate(y, s, sample_weight=w)
    B = 60
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        best = ev.best_threshold(measure, subject_to=subject_to, ci=True, n_resamples=B,
                                 random_state=3, **params)
        expected_th, expected_v, opt = [], [], []
        for t in bootstrap_tables(ev.table, B, random_state=3):
            rep = bm.Evaluation(t).best_threshold(measure, subject_to=subject_to, **params)
            expected_th.append(rep.threshold)
            expected_v.append(rep.value)
            if rep.feasible:
                on_data = ev.at_threshold(rep.threshold).value(measure, **params)
                opt.append(rep.value - on_data)
    assert best.threshold_replicates is not None
    np.testing.assert_array_equal(best.threshold_replicates, np.array(expected_th))
    ok = ~np.isnan(expected_th)
    lo, hi = quantiles(np.array(expected_th)[ok], [0.025, 0.975])
    assert best.threshold_ci.low == pytest.approx(lo)
    assert best.threshold_ci.high == pytest.approx(hi)
    vlo, vhi = quantiles(np.array(expected_v)[ok], [0.025, 0.975])
    assert best.value_ci.low == pytest.approx(vlo) and best.value_ci.high == pytest.approx(vhi)
    assert best.optimism == pytest.approx(np.mean(opt), abs=1e-12)
    assert best.corrected_value == pytest.approx(best.value - np.mean(opt))
    assert best.n_resamples == B and best.n_undefined == int((~ok).sum())


@pytest.mark.parametrize("subject_to", [None, {"fpr": ("<=", 0.4)}])  # positive cuts, every cut
def test_replicate_choices_do_not_depend_on_the_threads(monkeypatch, subject_to):
    y, s, _ = _rows(6, n=3000)
    ev = bm.evaluate(y, s + np.random.default_rng(6).normal(0, 1e-3, s.size))  # distinct
    monkeypatch.setattr(threshold_ci, "THREAD_ROWS", 1)
    monkeypatch.setattr(replicates, "_BLOCK_ELEMENTS", 4 * 3000)  # streams of 16: five
    monkeypatch.setattr(backends, "threads", lambda: 2)
    kw = {"subject_to": subject_to, "ci": True, "n_resamples": 70, "random_state": 4}
    threaded = ev.best_threshold("f1", **kw)
    monkeypatch.setattr(backends, "threads", lambda: 1)
    alone = ev.best_threshold("f1", **kw)
    np.testing.assert_array_equal(threaded.threshold_replicates, alone.threshold_replicates)
    assert threaded.optimism == alone.optimism
    # and they are the choices on the replicates of bootstrap_tables
    tables = bootstrap_tables(ev.table, 70, random_state=4)
    expected = [bm.Evaluation(t).best_threshold("f1", subject_to=subject_to).threshold
                for t in tables]
    np.testing.assert_array_equal(alone.threshold_replicates, expected)


def test_same_seed_same_intervals_and_a_frame():
    y, s, _ = _rows(2)
    ev = bm.evaluate(y, s)
    a = ev.best_threshold("f1", ci=True, n_resamples=100, random_state=0)
    b = ev.best_threshold("f1", ci=True, n_resamples=100, random_state=0)
    assert (a.threshold_ci.low, a.threshold_ci.high, a.optimism) == (
        b.threshold_ci.low, b.threshold_ci.high, b.optimism)
    frame = a.to_frame()
    for col in ("threshold_ci_low", "threshold_ci_high", "value_ci_low", "optimism",
                "corrected_value"):
        assert col in frame.columns
    assert a.optimism >= 0 or math.isclose(a.optimism, 0, abs_tol=0.05)  # choosing flatters


def test_lower_is_positive_intervals_are_in_the_scores_units():
    y, s, _ = _rows(4)
    a = bm.evaluate(y, s).best_threshold("f1", ci=True, n_resamples=80, random_state=1)
    b = bm.evaluate(y, -s, higher_is_positive=False).best_threshold(
        "f1", ci=True, n_resamples=80, random_state=1)
    assert (b.threshold_ci.low, b.threshold_ci.high) == (-a.threshold_ci.high,
                                                         -a.threshold_ci.low)
    assert b.optimism == a.optimism


def test_replicates_without_a_feasible_cut_are_counted_and_warned():
    y, s, _ = _rows(5, n=60)
    ev = bm.evaluate(y, s)
    top = float(np.nanmax(ev.threshold_curves().measure("ppv")[1:]))
    with pytest.warns(UndefinedMeasureWarning, match="bootstrap replicates"):
        # about 1 % of the replicates lose the only cut with precision 1: 1000 of them
        # hold some whatever the draws
        best = ev.best_threshold("tpr", subject_to={"ppv": (">=", top)}, ci=True,
                                 n_resamples=1000, random_state=0)
    assert best.feasible and best.n_undefined > 0
