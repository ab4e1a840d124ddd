"""The at-fixed measures (torchmetrics' RecallAtFixedPrecision and friends) against a
brute-force scan of the rows' thresholds, weighted and unweighted, with ties; and as
registry measures they work in to_dict, ci, compare and evaluate_by."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.exceptions import UndefinedMeasureWarning


def _rows(seed: int, n: int = 250, weighted: bool = False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    s = np.round(rng.normal(y * 0.9, 1.0), 1)  # heavy ties
    w = rng.uniform(0.1, 4.0, n) if weighted else np.ones(n)
    return y, s, w


def _cut_rates(y, s, w, th):
    pred = s >= th
    tp, fp = w[pred & (y == 1)].sum(), w[pred & (y == 0)].sum()
    P, N = w[y == 1].sum(), w[y == 0].sum()
    return tp / P, fp / N, (tp / (tp + fp) if tp + fp > 0 else math.nan)


def _brute(y, s, w, first, second, floor):
    """torchmetrics' rule: the largest `first` among thresholds whose `second` >= floor;
    the PR pair over thresholds at the scores, the ROC pair with +inf too; 0 if none."""
    ths = sorted(set(s.tolist()), reverse=True)
    if first in ("tpr_roc", "tnr"):
        ths = [math.inf, *ths]
    best = -1.0
    for th in ths:
        tpr, fpr, ppv = _cut_rates(y, s, w, th)
        rate = {"tpr": tpr, "tpr_roc": tpr, "tnr": 1 - fpr, "ppv": ppv}
        if rate[second] >= floor:
            best = max(best, rate[first])
    return max(best, 0.0)


CASES = [("tpr_at_ppv", "ppv", "tpr", "ppv"), ("ppv_at_tpr", "tpr", "ppv", "tpr"),
         ("tpr_at_tnr", "tnr", "tpr_roc", "tnr"), ("tnr_at_min_tpr", "tpr", "tnr", "tpr")]


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(("measure", "param", "first", "second"), CASES)
def test_at_fixed_measures_equal_a_brute_force_scan(measure, param, first, second, seed,
                                                   weighted):
    y, s, w = _rows(seed, weighted=weighted)
    ev = bm.evaluate(y, s, sample_weight=w if weighted else None)
    for floor in (0.0, 0.3, 0.5, 0.62, 0.8, 0.95, 1.0):
        got = ev.value(measure, **{param: floor})
        assert got == pytest.approx(_brute(y, s, w, first, second, floor), abs=1e-12), floor


def test_an_unreachable_precision_floor_gives_zero_as_torchmetrics():
    ev = bm.evaluate([0, 1, 0, 1], [0.9, 0.8, 0.7, 0.1])
    assert ev.value("tpr_at_ppv", ppv=0.9) == 0.0
    assert ev.value("recall_at_fixed_precision", ppv=0.5) == 1.0


def test_tnr_at_min_tpr_equals_procs_tnr_at_tpr_on_a_vertex():
    y, s, _ = _rows(9)
    ev = bm.evaluate(y, s)
    tpr = ev.roc().tpr
    for x in (tpr[5], tpr[12], tpr[-3]):
        assert ev.value("tnr_at_min_tpr", tpr=x) == pytest.approx(ev.value("tnr_at_tpr", tpr=x))


def test_one_class_is_nan_with_one_warning():
    ev = bm.evaluate([1, 1, 1], [0.9, 0.5, 0.1])
    with pytest.warns(UndefinedMeasureWarning, match="tpr_at_ppv is undefined"):
        assert math.isnan(ev.value("tpr_at_ppv", ppv=0.5))


@pytest.mark.parametrize("measure", ["tpr_at_ppv", "ppv_at_tpr", "tpr_at_tnr", "tnr_at_min_tpr"])
def test_floor_outside_zero_one_is_an_error(measure):
    ev = bm.evaluate([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.2])
    param = bm.get_measure(measure).params
    name = next(iter(param))
    with pytest.raises(ValueError, match=f"{name} must lie in"):
        ev.value(measure, **{name: 1.2})


def test_registry_measures_work_everywhere():
    y, s, _ = _rows(3, n=400)
    ev = bm.evaluate(y, s)
    d = ev.to_dict(measures=["tpr_at_ppv", "ppv_at_tpr", "tpr_at_tnr", "tnr_at_min_tpr"])
    assert d["tpr_at_ppv"] == ev.value("tpr_at_ppv")
    a = ev.ci("tpr_at_ppv", ppv=0.6, n_resamples=200, random_state=0)
    b = ev.ci("tpr_at_ppv", ppv=0.6, n_resamples=200, random_state=0)
    assert (a.low, a.high) == (b.low, b.high) and a.low <= ev.value("tpr_at_ppv", ppv=0.6)
    rng = np.random.default_rng(0)
    other = s + rng.normal(0, 1, s.size)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = bm.compare(y, {"a": s, "b": other}, measures=["tpr_at_tnr"],
                         n_resamples=100, random_state=0)
    assert "tpr_at_tnr" in cmp.to_frame().to_string()
    frame = pd.DataFrame({"y": y, "s": s, "g": np.arange(y.size) % 2})
    by = bm.evaluate_by(frame, label="y", score="s", by="g", measures=["ppv_at_tpr"])
    assert len(by.to_frame()) == 2
    assert "tpr_at_ppv" in bm.measure_catalogue()["id"].tolist()
