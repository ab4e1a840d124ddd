"""The bootstrap of a chosen cut scans only the cuts ending at a score holding positives
when the measure and the constraints are declared ``monotone_in_fp``: the same replicate
choices, values and optimism as the scan of every cut, from the same draws."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.evaluation import threshold_ci
from binmetrics.exceptions import UndefinedMeasureWarning
from binmetrics.inference.cut_blocks import bootstrap_positive_cuts, positive_cuts


def _ev(ties: bool, seed: int = 0, n: int = 300) -> bm.Evaluation:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    s = rng.normal(y * 1.2, 1.0)
    return bm.evaluate(y, np.round(s, 1) if ties else s)


def _choose(ev, measure, subject_to, params, monkeypatch, *, fast: bool):
    """best_threshold(ci=True), through the scan of positive cuts or of every cut; and
    whether the positive cuts were used."""
    used = []
    orig_blocks, orig_cuts = threshold_ci._replicate_streams, threshold_ci.positive_cut_streams

    def blocks(table, m, constraints, n, random_state):
        m = m if fast else dataclasses.replace(m, monotone_in_fp=False)
        return orig_blocks(table, m, constraints, n, random_state)

    def cuts(*a, **k):
        used.append(True)
        return orig_cuts(*a, **k)

    with monkeypatch.context() as mp:
        mp.setattr(threshold_ci, "_replicate_streams", blocks)
        mp.setattr(threshold_ci, "positive_cut_streams", cuts)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMeasureWarning)
            best = ev.best_threshold(measure, subject_to=subject_to, ci=True, n_resamples=80,
                                     random_state=11, **params)
    return best, bool(used)


@pytest.mark.parametrize("ties", [True, False])
@pytest.mark.parametrize(("measure", "subject_to", "params"), [
    ("f1", None, {}),
    ("mcc", None, {}),
    ("balanced_accuracy", None, {}),
    ("fbeta", None, {"beta": 2.0}),
    ("accuracy", {"fpr": ("<=", 0.3)}, {}),
    ("tpr", {"ppv": (">=", 0.6), "tnr": (">", 0.5)}, {}),
    ("expected_cost", None, {"cost_fp": 1.0, "cost_fn": 6.0}),
    ("f1", {"tpr": ("<=", 0.8), "fnr": (">=", 0.1)}, {}),  # the same at every cut of a TP
])
def test_positive_cuts_choose_as_every_cut(measure, subject_to, params, ties, monkeypatch):
    ev = _ev(ties)
    fast, used = _choose(ev, measure, subject_to, params, monkeypatch, fast=True)
    full, used_full = _choose(ev, measure, subject_to, params, monkeypatch, fast=False)
    assert used and not used_full
    np.testing.assert_array_equal(fast.threshold_replicates, full.threshold_replicates)
    assert fast.threshold_ci == full.threshold_ci and fast.value_ci == full.value_ci
    assert fast.optimism == full.optimism and fast.n_undefined == full.n_undefined


@pytest.mark.parametrize(("measure", "subject_to"), [
    ("f1", {"tnr": ("<=", 0.8)}),  # fewer false positives do not keep tnr <= 0.8 met
    ("optimized_precision", None),  # not declared
])
def test_other_choices_scan_every_cut(measure, subject_to, monkeypatch):
    _, used = _choose(_ev(True), measure, subject_to, {}, monkeypatch, fast=True)
    assert not used
    weighted = bm.evaluate([1, 0, 1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4],
                           sample_weight=[1.0, 2.0, 1.0, 1.0, 3.0, 1.0])
    _, used = _choose(weighted, "f1", None, {}, monkeypatch, fast=True)
    assert not used


def test_positive_cut_counts_equal_the_replicate_tables():
    ev = _ev(True, seed=4, n=120)
    cuts = positive_cuts(ev.table)
    c = next(bootstrap_positive_cuts(ev.table, 5, random_state=2))
    tables = list(bm.inference.resampling.bootstrap_tables(ev.table, 5, random_state=2))
    for i, t in enumerate(tables):
        full = t.cuts()
        # the replicate table keeps only drawn scores: compare at the original cuts'
        # thresholds
        ths = ev.table.thresholds()[cuts]
        idx = [t.cut_index(th) if np.isfinite(th) else 0 for th in ths]
        np.testing.assert_array_equal(c.tp[i], full.tp[idx])
        np.testing.assert_array_equal(c.fp[i], full.fp[idx])
        np.testing.assert_array_equal(c.tn[i], np.asarray(full.tn)[idx])


@pytest.mark.parametrize(("measure", "subject_to"), [
    ("tnr", {"ppv": (">=", 0.0)}),  # ppv is NaN at cut 0, 0 below the top negatives
    ("mcc", None),
])
def test_cuts_above_the_first_positive_score(measure, subject_to, monkeypatch):
    """Cut 0 has no predicted positives (precision, MCC undefined) while the cuts through
    negatives above the first positive score have them: those cuts are scanned too."""
    rng = np.random.default_rng(5)
    y = np.r_[np.zeros(6, int), (rng.random(40) < 0.5).astype(int)]
    s = np.r_[np.linspace(2.0, 1.5, 6), rng.normal(0.0, 1.0, 40)]  # negatives on top
    ev = bm.evaluate(y, s)
    fast, used = _choose(ev, measure, subject_to, {}, monkeypatch, fast=True)
    full, _ = _choose(ev, measure, subject_to, {}, monkeypatch, fast=False)
    assert used
    np.testing.assert_array_equal(fast.threshold_replicates, full.threshold_replicates)
    assert fast.optimism == full.optimism
