"""best_threshold under constraints: exact over every distinct score against a brute-force
scan of the rows, with ties and weights; the tie rule; infeasible constraints; bad input."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.exceptions import UndefinedMeasureWarning


def _confusion_at(y, s, w, th):
    w = np.ones(y.size) if w is None else w
    pred = s >= th
    return bm.Confusion(tp=w[pred & (y == 1)].sum(), fp=w[pred & (y == 0)].sum(),
                        fn=w[~pred & (y == 1)].sum(), tn=w[~pred & (y == 0)].sum())


def _brute(y, s, w, measure, constraints, **params):
    """Every candidate threshold from the strictest (nothing positive) to the most
    lenient; keep the first strictly better value (the strictest among equal ones)."""
    m = bm.get_measure(measure)
    best = (math.nan, math.nan)
    for th in [np.inf, *sorted(set(s.tolist()), reverse=True)]:
        c = _confusion_at(y, s, w, th)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = float(m.func(c, **params))
            ok = all(_holds(float(bm.get_measure(k).func(c)), op, b)
                     for k, (op, b) in constraints.items())
        if not ok or math.isnan(v):
            continue
        if math.isnan(best[1]) or (v > best[1] if m.direction > 0 else v < best[1]):
            best = (th, v)
    return best


def _holds(v: float, op: str, b: float) -> bool:
    return {">=": v >= b, "<=": v <= b, ">": v > b, "<": v < b}[op] if not math.isnan(v) \
        else False


CASES = [
    ("tpr", {"ppv": (">=", 0.6)}, {}),
    ("tpr", {"ppv": (">=", 0.55), "tnr": (">=", 0.5)}, {}),
    ("ppv", {"tpr": (">=", 0.7)}, {}),
    ("tnr", {"tpr": (">", 0.8)}, {}),
    ("f1", {"fpr": ("<=", 0.3)}, {}),
    ("fbeta", {"npv": (">=", 0.7)}, {"beta": 2.0}),
    ("expected_cost", {"tpr": (">=", 0.5)}, {"cost_fp": 1.0, "cost_fn": 5.0}),
    ("mcc", {}, {}),
    ("balanced_accuracy", {}, {}),
]


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(("measure", "constraints", "params"), CASES)
def test_constrained_best_matches_brute_force(measure, constraints, params, seed, weighted,
                                              tied_scores):
    y, s, w = tied_scores(seed, weighted=weighted)
    ev = bm.evaluate(y, s, sample_weight=w)
    th, v = _brute(y, s, w, measure, constraints, **params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        best = ev.best_threshold(measure, subject_to=constraints or None, **params)
    if math.isnan(v):
        assert not best.feasible and math.isnan(best.threshold)
        return
    assert best.feasible
    assert best.threshold == th
    assert best.value == pytest.approx(v, rel=1e-12, abs=1e-12)
    c = _confusion_at(y, s, w, th)
    assert best.confusion.tp == pytest.approx(c.tp) and best.confusion.fp == pytest.approx(c.fp)


def test_lower_is_positive_uses_the_scores_own_units(tied_scores):
    y, s, _ = tied_scores(5)
    a = bm.evaluate(y, s).best_threshold("tpr", subject_to={"ppv": (">=", 0.6)})
    b = bm.evaluate(y, -s, higher_is_positive=False).best_threshold(
        "tpr", subject_to={"ppv": (">=", 0.6)})
    assert b.threshold == -a.threshold and b.value == a.value


def test_ties_are_never_split_and_the_strictest_optimum_wins():
    # tpr is 1 from the cut at 0.4 down: among the equal optima the strictest (0.4) wins;
    # the tied group at 0.4 (one positive, one negative) moves as one
    y = [1, 1, 0, 1, 0, 0]
    s = [0.9, 0.4, 0.4, 0.3, 0.2, 0.1]
    ev = bm.evaluate(y, s)
    best = ev.best_threshold("tpr", subject_to={"ppv": (">=", 0.6)})
    assert best.threshold == 0.3 and best.value == 1.0
    assert (best.confusion.tp, best.confusion.fp) == (3, 1)
    loose = ev.best_threshold("tpr", subject_to={"ppv": (">=", 0.5)})
    assert loose.threshold == 0.3  # 0.2 and 0.1 reach tpr 1 too, with more false positives


def test_infeasible_is_a_result_that_names_the_best_value_reached(tied_scores):
    y, s, _ = tied_scores(3)
    ev = bm.evaluate(y, s)
    top = max(float(np.nanmax(ev.threshold_curves().measure("ppv"))), 0.0)
    with pytest.warns(UndefinedMeasureWarning, match="no cut meets"):
        best = ev.best_threshold("tpr", subject_to={"ppv": (">=", 1.0)}) if top < 1 else \
            ev.best_threshold("tpr", subject_to={"ppv": (">", 1.0 - 1e-12), "tnr": ("<", 0.1)})
    assert not best.feasible and math.isnan(best.threshold) and math.isnan(best.value)
    assert f"{top:.6g}" in best.reason
    assert "infeasible" in repr(best)
    frame = best.to_frame()
    assert not frame.feasible[0] and "no cut meets" in frame.reason[0]


def test_jointly_infeasible_constraints_say_each_alone_is_met():
    ev = bm.evaluate([1, 1, 0, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    with pytest.warns(UndefinedMeasureWarning):
        best = ev.best_threshold("f1", subject_to={"tpr": (">=", 1.0), "fpr": ("<=", 0.0)})
    assert "together" in best.reason and "is met by some cuts" in best.reason


def test_constraints_as_text_equal_the_mapping(tied_scores):
    y, s, _ = tied_scores(4)
    ev = bm.evaluate(y, s)
    a = ev.best_threshold("tpr", subject_to={"ppv": (">=", 0.6), "tnr": (">=", 0.5)})
    b = ev.best_threshold("tpr", subject_to="precision >= 0.6, specificity>=0.5")
    assert (a.threshold, a.value, a.subject_to) == (b.threshold, b.value, b.subject_to)


@pytest.mark.parametrize(("subject_to", "error", "match"), [
    ({"ppv": ("=>", 0.9)}, ValueError, "unknown operator '=>'.*>="),
    ({"ppv": (">=", 1.5)}, ValueError, r"bound 1.5 on ppv is outside its range \[0, 1\]"),
    ({"auc": (">=", 0.5)}, ValueError, "confusion measure.*auc is a ranking"),
    ({"nosuch": (">=", 0.5)}, KeyError, "unknown measure 'nosuch'"),
    ({"ppv": 0.9}, ValueError, r"must be \(operator, bound\)"),
    ({"ppv": (">=", "high")}, TypeError, "must be a number"),
    ("ppv is high", ValueError, "write it as 'measure>=bound'"),
    (0.9, TypeError, "subject_to must map a measure"),
])
def test_bad_constraints_are_one_line_errors(subject_to, error, match):
    ev = bm.evaluate([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])
    with pytest.raises(error, match=match) as info:
        ev.best_threshold("tpr", subject_to=subject_to)
    assert "\n" not in str(info.value)


def test_unconstrained_result_keeps_its_compact_frame():
    ev = bm.evaluate([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])
    cols = ev.best_threshold("f1").to_frame().columns.tolist()
    assert cols == ["measure", "threshold", "value", "tp", "fp", "fn", "tn"]
