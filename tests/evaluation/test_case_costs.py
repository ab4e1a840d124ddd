"""Per-case costs: the count table carries their sums per distinct score; expected_cost
and its cheapest cut equal direct sums over the rows (weighted, unweighted, with ties),
merged tables and bootstrap replicates keep them, bad costs are one-line errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.inference.resampling import bootstrap_tables


def _rows(seed: int, n: int = 400, weighted: bool = False, ties: bool = True):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    s = rng.normal(y, 1.0)
    s = np.round(s, 1) if ties else s
    a, b = rng.exponential(100.0, n), rng.exponential(40.0, n)
    w = rng.uniform(0.2, 3.0, n) if weighted else np.ones(n)
    return y, s, a, b, w


def _direct(y, s, a, b, w, th, cfp=1.0, cfn=1.0):
    pred = s >= th
    return (cfp * np.sum((w * a)[pred & (y == 0)]) + cfn * np.sum((w * b)[~pred & (y == 1)])) \
        / w.sum()


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_expected_cost_and_cheapest_cut_equal_row_sums(seed, weighted):
    y, s, a, b, w = _rows(seed, weighted=weighted)
    ev = bm.evaluate(y, s, sample_weight=w if weighted else None, case_cost_fp=a,
                     case_cost_fn=b)
    for th in (-1.0, 0.3, 0.5, 1.5):
        assert ev.at_threshold(th).value("expected_cost") == pytest.approx(
            _direct(y, s, a, b, w, th), rel=1e-12)
    assert ev.at_threshold(0.3).value("expected_cost", cost_fp=2, cost_fn=0.5) == \
        pytest.approx(_direct(y, s, a, b, w, 0.3, 2.0, 0.5), rel=1e-12)
    ths = [math.inf, *sorted(set(s.tolist()), reverse=True)]
    costs = [_direct(y, s, a, b, w, t) for t in ths]
    k = int(np.argmin(costs))  # the first (strictest) of equal minima
    best = ev.best_threshold("expected_cost")
    assert best.threshold == ths[k] and best.value == pytest.approx(costs[k], rel=1e-12)


def test_one_side_of_costs_only_and_the_constant_factors():
    y, s, a, _, w = _rows(3)
    ev = bm.evaluate(y, s, case_cost_fp=a)  # false negatives cost 0
    assert ev.value("expected_cost") == pytest.approx(_direct(y, s, a, 0 * a, w, 0.5))


def test_merged_tables_keep_the_costs():
    y, s, a, b, _ = _rows(4)
    whole = bm.evaluate(y, s, case_cost_fp=a, case_cost_fn=b)
    h = y.size // 2
    first = bm.evaluate(y[:h], s[:h], case_cost_fp=a[:h], case_cost_fn=b[:h]).table
    second = bm.evaluate(y[h:], s[h:], case_cost_fp=a[h:], case_cost_fn=b[h:]).table
    merged = bm.Evaluation(first + second)
    assert merged.value("expected_cost") == pytest.approx(whole.value("expected_cost"))
    assert merged.best_threshold("expected_cost").threshold == \
        whole.best_threshold("expected_cost").threshold
    with pytest.raises(ValueError, match="some tables carry per-case costs"):
        first + bm.evaluate(y[h:], s[h:]).table


def test_bootstrap_replicates_carry_the_costs_of_the_cases_they_draw():
    y, s, a, b, _ = _rows(5, n=150, ties=False)  # distinct scores: each case its own cost
    ev = bm.evaluate(y, s, case_cost_fp=a, case_cost_fn=b)
    best = ev.best_threshold("expected_cost", ci=True, n_resamples=40, random_state=1)
    expected = [bm.Evaluation(t).best_threshold("expected_cost").threshold
                for t in bootstrap_tables(ev.table, 40, random_state=1)]
    np.testing.assert_array_equal(best.threshold_replicates, expected)
    # each replicate table's expected cost is the direct sum over the cases drawn
    t = next(iter(bootstrap_tables(ev.table, 1, random_state=2)))
    pos = dict(zip(t.scores.tolist(), t.pos.tolist(), strict=True))
    neg = dict(zip(t.scores.tolist(), t.neg.tolist(), strict=True))
    m = np.array([(pos if yy else neg).get(v, 0) for v, yy in zip(s.tolist(), y, strict=True)])
    th = 0.4
    pred = s >= th
    direct = (np.sum((m * a)[pred & (y == 0)]) + np.sum((m * b)[~pred & (y == 1)])) / m.sum()
    assert bm.Evaluation(t, threshold=th).value("expected_cost") == pytest.approx(direct)
    a1 = ev.ci("expected_cost", n_resamples=100, random_state=0)
    a2 = ev.ci("expected_cost", n_resamples=100, random_state=0)
    assert (a1.low, a1.high) == (a2.low, a2.high) and a1.low < ev.value("expected_cost")


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"case_cost_fp": [1.0, -2.0, 3.0, 4.0]}, ValueError, "case_cost_fp must be finite and >= 0"),
    ({"case_cost_fn": [1.0, np.nan, 3.0, 4.0]}, ValueError, "case_cost_fn must be finite"),
    ({"case_cost_fn": [1.0, 2.0]}, ValueError, "case_cost_fn has 2 values for 4 cases"),
    ({"case_cost_fp": ["a", "b", "c", "d"]}, TypeError, "case_cost_fp must hold numbers"),
])
def test_bad_costs_are_one_line_errors(kwargs, error, match):
    with pytest.raises(error, match=match) as info:
        bm.evaluate([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1], **kwargs)
    assert "\n" not in str(info.value)


def test_omitted_rows_and_permutations_say_what_to_do():
    with pytest.raises(ValueError, match="drop those rows"), \
            pytest.warns(UserWarning, match="dropped 1 row"):
        bm.evaluate([1, 0, 1, 0], [0.9, np.nan, 0.3, 0.1], nan_policy="omit",
                    case_cost_fp=[1, 2, 3, 4])
    ev = bm.evaluate([1, 0, 1, 0, 1, 0], [0.9, 0.8, 0.7, 0.3, 0.2, 0.1],
                     case_cost_fp=[1, 2, 3, 4, 5, 6])
    with pytest.raises(ValueError, match="permutation test"):
        ev.permutation_test("expected_cost", n_resamples=10, random_state=0)


def test_calibration_reweights_the_negatives_costs():
    y, s, a, b, _ = _rows(6)
    ev = bm.evaluate(y, s, case_cost_fp=a, case_cost_fn=b)
    cal = ev.calibrated(0.5)
    c = cal.table.calibration[0]
    w = np.where(y == 0, c, 1.0)  # each negative weighs c
    assert cal.value("expected_cost") == pytest.approx(_direct(y, s, a, b, w, 0.5), rel=1e-12)
