"""best_threshold's candidate cuts inside the run where the monotone constraints hold
(cut_choice._best_run_cut): a measure that never gets worse with fewer false positives,
under a bound that fewer false positives may break (``fpr >= x``, ``tnr <= x``), is
scored only at the run's first cut, the cuts with no true positive and the cuts ending
at a score holding positives. Checked against an exhaustive scan of every cut over the
rows, and bit for bit against the scan of the whole cumulative arrays, on random tables
with ties, weights, lower scores meaning positive and several prevalences."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.evaluation import cut_choice
from binmetrics.evaluation.cut_choice import best_cut, parse_constraints
from binmetrics.exceptions import UndefinedMeasureWarning
from binmetrics.measures.registry import iter_measures
from binmetrics.table import counts
from binmetrics.table.counts import Confusion, CountTable

MEASURES = [
    ("f1", {}),
    ("mcc", {}),
    ("tpr", {}),
    ("ppv", {}),
    ("balanced_accuracy", {}),
    ("expected_cost", {"cost_fp": 1.0, "cost_fn": 5.0}),
    ("fbeta", {"beta": 2.0}),
]
CONSTRAINTS = [
    ["fpr>=0.05"],
    ["fpr>0.2"],
    ["tnr<=0.9"],
    ["tnr<0.6", "ppv>=0.35"],
    ["fpr>=0.1", "fpr<=0.5"],
    ["fpr>=0.15", "tpr<=0.8"],
    ["tnr<=0.7", "tpr>=0.6"],
    ["fpr>=0.3", "tnr>=0.4", "ppv>=0.3"],
    ["fpr>=0.4"],
    ["tnr<=0.5", "ppv>=0.2"],
    ["fpr>=0.9", "ppv>=0.9"],  # infeasible or nearly
]


def _rows(seed: int, ties: bool, weighted: bool, prevalence: float, n: int = 160):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prevalence).astype(int)
    s = rng.normal(y * 0.9, 1.0)
    s = np.round(s, 1) if ties else s
    w = rng.uniform(0.2, 3.0, n) if weighted else None
    return y, s, w


def _holds(v: float, op: str, b: float) -> bool:
    return False if math.isnan(v) else {">=": v >= b, "<=": v <= b, ">": v > b,
                                        "<": v < b}[op]


def _exhaustive(y, s, w, measure, constraints, params, higher_is_positive):
    """Every cut from the strictest (nothing positive) to the most lenient, over the rows;
    the first strictly better value wins (the strictest among equal ones)."""
    m = bm.get_measure(measure)
    w = np.ones(y.size) if w is None else w
    cons = parse_constraints(constraints)
    ths = sorted(set(s.tolist()), reverse=higher_is_positive)
    best = (math.nan, math.nan, None)
    for th in [math.inf if higher_is_positive else -math.inf, *ths]:
        pred = s >= th if higher_is_positive else s <= th
        c = Confusion(tp=w[pred & (y == 1)].sum(), fp=w[pred & (y == 0)].sum(),
                      fn=w[~pred & (y == 1)].sum(), tn=w[~pred & (y == 0)].sum())
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            v = float(m.func(c, **params))
            ok = all(_holds(float(bm.get_measure(k.measure).func(c)), k.op, k.bound)
                     for k in cons)
        if not ok or math.isnan(v):
            continue
        if math.isnan(best[1]) or (v > best[1] if m.direction > 0 else v < best[1]):
            best = (th, v, c)
    return best


def _lo_only(t: CountTable, k: int) -> bool:
    """Whether cut k > 0 ends at a score holding negatives only, below the first positive
    score: a cut only the run's first cut ``lo`` brings into the candidates."""
    ipos = np.flatnonzero(t.pos)
    return bool(k > 0 and ipos.size and k - 1 > ipos[0] and t.pos[k - 1] == 0)


@pytest.mark.parametrize("prevalence", [0.15, 0.5, 0.8])
@pytest.mark.parametrize(("ties", "weighted", "higher_is_positive"), [
    (True, False, True), (False, False, True), (True, True, True), (True, False, False),
    (False, True, False)])
@pytest.mark.parametrize(("measure", "params"), MEASURES, ids=[m for m, _ in MEASURES])
def test_best_threshold_is_the_exhaustive_scan(measure, params, ties, weighted,
                                               higher_is_positive, prevalence):
    for seed in range(3):
        y, s, w = _rows(seed, ties, weighted, prevalence)
        s_in = s if higher_is_positive else -s  # the same ranking either way
        for constraints in CONSTRAINTS:
            ev = bm.evaluate(y, s_in, sample_weight=w, higher_is_positive=higher_is_positive)
            th, v, c = _exhaustive(y, s_in, w, measure, constraints, params,
                                   higher_is_positive)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UndefinedMeasureWarning)
                best = ev.best_threshold(measure, subject_to=constraints, **params)
            where = (seed, constraints)
            if math.isnan(v):
                assert not best.feasible and math.isnan(best.threshold), where
                assert math.isnan(best.value) and "no cut meets" in best.reason, where
                continue
            assert best.feasible, where
            assert best.threshold == th, where
            if weighted:
                assert best.value == pytest.approx(v, rel=1e-12, abs=1e-12), where
                assert best.confusion.tp == pytest.approx(c.tp), where
            else:  # whole numbers: the same floats as the rows' sums
                assert best.value == v, where
                assert (best.confusion.tp, best.confusion.fp) == (c.tp, c.fp), where
            if not weighted:  # the arrays of every cut were never built
                assert "tp" not in ev.table.__dict__ and "fp" not in ev.table.__dict__


@pytest.mark.parametrize("chunk", [7, 1 << 16])
@pytest.mark.parametrize(("measure", "params"), MEASURES, ids=[m for m, _ in MEASURES])
def test_run_cut_is_the_whole_scan_bit_for_bit(measure, params, chunk, monkeypatch,
                                               whole_scan):
    """best_cut against choose_cuts over every cut, the candidates scored in blocks of
    ``chunk``; some choices are cuts that only the run's first cut brings in (so
    dropping ``lo`` from the candidates fails here)."""
    monkeypatch.setattr(counts, "CHUNK", chunk)
    only_lo = 0
    m = bm.get_measure(measure)
    for ties in (True, False):
        for seed in range(4):
            for prevalence in (0.15, 0.5):
                y, s, _ = _rows(seed, ties, False, prevalence, n=300)
                t = CountTable.from_arrays(y, s)
                for constraints in CONSTRAINTS:
                    want = whole_scan(t, measure, constraints, params)
                    got = best_cut(t, m, m.resolve_params(**params),
                                   parse_constraints(constraints))
                    assert got[0] == want[0], (ties, seed, prevalence, constraints)
                    assert got[1] == want[1] or (math.isnan(got[1]) and math.isnan(want[1]))
                    only_lo += _lo_only(t, got[0])
    if measure != "tpr":  # the TPR is best at a cut ending at a positive (or past the last)
        assert only_lo > 0


def test_the_run_first_cut_can_be_the_best():
    # MCC is best at cut 2 (0.8); fpr >= 0.2 needs a false positive: the run starts at
    # cut 3 (0.7, a negative), which beats the next cut ending at a positive (0.4)
    y = [1, 1, 0, 0, 0, 1, 0, 0]
    s = [.9, .8, .7, .6, .5, .4, .3, .2]
    ev = bm.evaluate(y, s)
    assert ev.best_threshold("mcc").threshold == 0.8
    best = ev.best_threshold("mcc", subject_to={"fpr": (">=", 0.2)})
    assert (best.threshold, best.value) == (0.7, 7 / 15)
    assert (best.confusion.tp, best.confusion.fp) == (2, 1)
    low = bm.evaluate(y, [-x for x in s], higher_is_positive=False, threshold=-0.5)
    same = low.best_threshold("mcc", subject_to={"tnr": ("<=", 0.8)})
    assert (same.threshold, same.value) == (-0.7, 7 / 15)


def test_the_run_path_is_taken_and_falls_back_where_it_must(monkeypatch):
    calls = []
    original = cut_choice._best_run_cut
    monkeypatch.setattr(cut_choice, "_best_run_cut",
                        lambda *a: calls.append(a[-2:]) or original(*a))
    y, s, _ = _rows(0, True, False, 0.3)
    t = CountTable.from_arrays(y, s)
    mcc = bm.get_measure("mcc")
    best_cut(t, mcc, {}, parse_constraints("fpr>=0.1"))
    assert calls and calls[-1][0] > 0 and calls[-1][1] == t.n_distinct  # lo from the FPR
    calls.clear()
    best_cut(t, mcc, {}, parse_constraints("ppv<=0.6"))  # may break with fewer FP
    best_cut(t, bm.get_measure("optimized_precision"), {}, parse_constraints("fpr>=0.1"))
    assert not calls


def test_infeasible_run_keeps_its_reason():
    y, s, _ = _rows(2, True, False, 0.3)
    ev = bm.evaluate(y, s)
    with pytest.warns(UndefinedMeasureWarning, match="no cut meets"):
        best = ev.best_threshold("mcc", subject_to=["fpr>=0.5", "fpr<=0.2"])
    assert not best.feasible and math.isnan(best.value)
    assert "no cut meets the constraints together" in best.reason
    assert "fpr >= 0.5 is met by some cuts" in best.reason


DECLARED = [m for m in iter_measures("confusion") if m.monotone_in_fp]


@pytest.mark.parametrize("m", DECLARED, ids=lambda m: m.id)
def test_declared_measures_never_get_worse_in_floats(m):
    """The candidates give the whole scan's choice only if the floats themselves never
    get worse with one fewer false positive (not just to a tolerance)."""
    for P, N in [(7, 30), (40, 9), (25, 25), (3, 200), (200, 3)]:
        tp, fp = np.meshgrid(np.arange(P + 1.0), np.arange(N + 1.0), indexing="ij")
        c = Confusion(tp=tp, fp=fp, fn=P - tp, tn=N - fp)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            v = np.asarray(m.func(c, **m.params), dtype=np.float64)
        worse = np.diff(v, axis=1) * m.direction
        both = np.isfinite(v[:, 1:]) & np.isfinite(v[:, :-1])
        assert not np.any(worse[both] > 0), (P, N)


@pytest.mark.parametrize(("P", "N"), [(10**6, 9 * 10**6), (9 * 10**6, 10**6),
                                      (5 * 10**6, 5 * 10**6), (3, 10**7)])
def test_mcc_falls_with_each_false_positive_at_scale(P, N):
    """MCC is monotone in FP where it is negative and where k > n / 2 too (the
    derivative -n (P k + TP (n - 2k)) / (2 sqrt(P N) (k (n - k))^1.5) < 0), and its
    floats follow at n = 1e7: every one more FP gives a strictly lower value."""
    rng = np.random.default_rng(P)
    tp = np.concatenate((rng.integers(0, P + 1, 200_000), [P] * 50, [0, 1, 2] * 50))
    fp = np.concatenate((rng.integers(0, N, 200_000), N - 1 - np.arange(50),
                         np.arange(150) % (N - 1)))
    tp, fp = tp.astype(np.float64), fp.astype(np.float64)
    mcc = bm.get_measure("mcc").func
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        a = np.asarray(mcc(Confusion(tp=tp, fp=fp, fn=P - tp, tn=N - fp)))
        b = np.asarray(mcc(Confusion(tp=tp, fp=fp + 1, fn=P - tp, tn=N - fp - 1)))
    both = np.isfinite(a) & np.isfinite(b)
    assert both.sum() > 199_000 and np.all(b[both] < a[both])
    assert (a[both] < 0).any() and (tp + fp > (P + N) / 2)[both].any()
