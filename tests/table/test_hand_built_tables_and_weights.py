"""Regressions found in review: hand-built tables, caller's arrays, weight scales,
and small weights beside large ones."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import binmetrics as bm

Y = np.array([1, 1, 0, 1, 1, 0, 0, 1, 0, 0])
S = np.array([.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])


def test_unweighted_table_needs_whole_counts():
    with pytest.raises(ValueError, match="whole-number counts"):
        bm.CountTable([.9, .8, .7], [.5, .5, 1], [0, 1, 0], weighted=False)
    # the same counts as a weighted table give the exact AUC: 0.375
    t = bm.CountTable([.9, .8, .7], [.5, .5, 1], [0, 1, 0])
    assert bm.Evaluation(t)["auc"] == pytest.approx((0.5 * 1 + 0.5 * 0.5) / 2)


@pytest.mark.filterwarnings("ignore::binmetrics.MeasureCaveatWarning")
def test_hand_built_unweighted_table_equals_the_rows():
    t = bm.CountTable([.9, .8, .7], [1, 0, 2], [0, 1, 3], weighted=False)
    rows = bm.CountTable.from_arrays([1, 0, 1, 1, 0, 0, 0], [.9, .8, .7, .7, .7, .7, .7])
    assert t.equals(rows)
    assert bm.Evaluation(t).to_dict(family="ranking") == pytest.approx(
        bm.Evaluation(rows).to_dict(family="ranking"), nan_ok=True)


def test_the_table_does_not_freeze_the_callers_arrays():
    s, p, n = np.array([.9, .8]), np.array([1.0, 0.0]), np.array([0.0, 1.0])
    bm.CountTable(s, p, n)
    s[0], p[0], n[0] = 0.95, 2.0, 1.0  # still writeable


@pytest.mark.parametrize("scale", [1e-170, 1e-30, 1.0, 1e30, 1e160])
def test_scale_free_measures_do_not_depend_on_the_weight_scale(scale):
    w = np.linspace(0.5, 2.0, Y.size)
    ref = bm.evaluate(Y, S, sample_weight=w, threshold=0.55)
    ev = bm.evaluate(Y, S, sample_weight=w * scale, threshold=0.55)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for m in bm.iter_measures():
            if m.weight_unit:
                continue  # they read weights as numbers of cases (declared in the registry)
            if m.id in ("auac", "rie", "bedroc"):
                continue  # positions count in units of weight (documented)
            assert ev[m.id] == pytest.approx(ref[m.id], rel=1e-9, abs=1e-12, nan_ok=True), m.id


def test_rank_position_measures_count_weight_units():
    # documented: weights are frequencies, so halving every weight halves the positions
    ev1 = bm.evaluate(Y, S, sample_weight=np.ones(Y.size))
    ev2 = bm.evaluate(Y, S, sample_weight=np.full(Y.size, 2.0))
    assert ev1["mean_rank_positives"] == pytest.approx(4.0)
    assert ev2["mean_rank_positives"] == pytest.approx(2 * 4.0 - 0.5)  # ranks 2r-1 and 2r
    assert ev2["mean_rank_positives"] == bm.evaluate(np.repeat(Y, 2),
                                                     np.repeat(S, 2))["mean_rank_positives"]


def test_small_weights_beside_large_ones_keep_their_digits():
    y = np.array([1, 1, 0, 0])
    s = np.array([0.9, 0.1, 0.8, 0.2])
    w = np.array([1e20, 1e-5, 1.0, 1.0])
    ev = bm.evaluate(y, s, sample_weight=w, threshold=0.5)
    c = ev.confusion
    assert c.fn == 1e-5 and c.tn == 1.0
    assert ev["for"] == pytest.approx(1e-5 / (1 + 1e-5), rel=1e-12)
    assert ev["fnr"] == pytest.approx(1e-5 / (1e20 + 1e-5), rel=1e-12)
    cuts = ev.table.cuts()
    np.testing.assert_allclose(cuts.fn, [1e20 + 1e-5, 1e-5, 1e-5, 1e-5, 0.0], rtol=1e-15)


def test_auc_of_the_worked_example_is_exact():
    assert bm.evaluate(Y, S)["auc"] == 0.8
