"""Every measure's ``prevalence_dependent`` declaration against the property it names.

A measure is prevalence-dependent when its value changes with the class prior while the
class-conditional score distributions stay fixed: multiplying every negative's weight by
one constant c (the reweighting of Siblini et al.'s calibration) changes it. The test
reweights the negatives of random tables (ties, weights, several prevalences and
thresholds) and holds each registered measure to its declaration: dependent iff some
reweighting changes its value, independent iff none does. Measures are never listed
here: a newly registered measure is tested automatically.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.table.counts import CountTable


def _scenarios() -> list[tuple[bm.Evaluation, bm.Evaluation]]:
    """(evaluation, the same with negatives reweighted) pairs on random data."""
    rng = np.random.default_rng(20261128)
    out = []
    for prevalence, threshold, c in [(0.4, 0.5, 3.0), (0.2, 0.3, 0.25), (0.6, 0.7, 5.0),
                                     (0.3, 0.6, 2.0), (0.5, 0.45, 0.5)]:
        n = 300
        y = rng.random(n) < prevalence
        s = np.clip(0.3 * y + 0.7 * rng.random(n), 0.0, 1.0).round(2)  # ties
        w = rng.integers(1, 4, n).astype(float)
        t = CountTable.from_arrays(y, s, sample_weight=w)
        scaled = CountTable(t.scores, t.pos, t.neg * c, weighted=True)
        out.append((bm.Evaluation(t, threshold=threshold),
                    bm.Evaluation(scaled, threshold=threshold)))
    return out


@pytest.fixture(scope="module")
def changes() -> dict[str, list[bool]]:
    """measure id -> whether reweighting the negatives changed its value, per scenario."""
    out: dict[str, list[bool]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined values are compared as NaN below
        for ev, scaled in _scenarios():
            for m in bm.iter_measures():
                a, b = ev.value(m.id), scaled.value(m.id)
                same = bool(np.isclose(a, b, rtol=1e-9, atol=1e-12, equal_nan=True))
                out.setdefault(m.id, []).append(not same)
    return out


def test_every_builtin_measure_declares_it() -> None:
    missing = [m.id for m in bm.iter_measures() if m.prevalence_dependent is None]
    assert missing == []


@pytest.mark.parametrize("measure", [m.id for m in bm.iter_measures()])
def test_declaration_matches_invariance_under_reweighting_negatives(
        measure: str, changes: dict[str, list[bool]]) -> None:
    m = bm.get_measure(measure)
    changed = changes[measure]
    if m.prevalence_dependent:
        assert any(changed), f"{measure} is declared dependent but never changed"
    else:
        assert not any(changed), f"{measure} is declared independent but changed: {changed}"


def test_wikipedia_rows_and_columns() -> None:
    """The Wikipedia table: its row statistics are prevalence-independent, its column
    statistics (and accuracy, F1, MCC) dependent."""
    dep = {m.id: m.prevalence_dependent for m in bm.iter_measures()}
    for row in ("tpr", "fnr", "fpr", "tnr", "lr_plus", "lr_minus", "dor", "informedness",
                "balanced_accuracy", "prevalence_threshold"):
        assert dep[row] is False, row
    for col in ("ppv", "fdr", "npv", "for", "markedness", "accuracy", "f1", "mcc",
                "threat_score", "prevalence"):
        assert dep[col] is True, col


def test_shown_in_catalogue() -> None:
    frame = bm.measure_catalogue().set_index("id")
    assert frame.loc["auc", "prevalence_dependent"] == False  # noqa: E712
    assert frame.loc["average_precision", "prevalence_dependent"] == True  # noqa: E712


def test_user_measure_may_leave_it_undeclared() -> None:
    from binmetrics.measures.registry import register, unregister

    @register("seeds_tmp_measure", name="tmp", family="confusion", direction=1,
              range=(0.0, 1.0), source="test", formula="tp / total")
    def tmp(c: Any) -> Any:
        return c.tp / c.total

    try:
        frame = bm.measure_catalogue()
        assert frame.set_index("id").loc["seeds_tmp_measure", "prevalence_dependent"] is None
    finally:
        unregister("seeds_tmp_measure")
