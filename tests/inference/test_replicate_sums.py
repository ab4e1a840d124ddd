"""The bootstrap's shared replicates: the probabilistic measures read replicate sums
(binmetrics.inference._replicate_sums) and agree with the measure on each replicate's
table; the replicates do not depend on which measures are asked."""

from __future__ import annotations

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.exceptions import undefined_policy
from binmetrics.inference._counting import compiled_kernels, use_compiled
from binmetrics.inference.resampling import bootstrap, bootstrap_tables
from binmetrics.measures.registry import iter_measures

SUMS = [m.id for m in iter_measures("probabilistic") if any(g.terms for g in m.sums)]
MIXED = ["tpr", "mcc", "auc", "average_precision", "brier", "log_loss", "spiegelhalter_z",
         "information_score", "taks", "top_k_accuracy", "ece"]


def _table(kind: str) -> bm.CountTable:
    rng = np.random.default_rng(7)
    n = 600
    y = rng.random(n) < 0.3
    s = rng.random(n)
    w = None
    if kind == "tied":
        s = np.round(s, 1)
    elif kind == "weighted":
        w = rng.integers(1, 5, n).astype(np.float64)
    elif kind == "extreme":  # scores at 0 and 1 exactly, and within 1e-300 of them
        s[:20], s[20:40], s[40:60], s[60:80] = 0.0, 1.0, 1e-300, 1.0 - 1e-16
    return bm.CountTable.from_arrays(y, s, sample_weight=w)


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("kind", ["tied", "weighted", "extreme", "continuous"])
@pytest.mark.parametrize("stratified", [True, False])
def test_replicate_sums_equal_the_measure_on_each_replicate_table(kind: str, stratified: bool,
                                                                  compiled: bool) -> None:
    """Compiled (the pass over the terms, inference._counting.term_sums) and with NumPy."""
    t = _table(kind)
    with use_compiled(compiled):
        if compiled and compiled_kernels(1) is None:
            pytest.skip("numba is not installed (the fast extra)")
        res = bootstrap(t, SUMS, n_resamples=40, random_state=3, stratified=stratified)
    tables = list(bootstrap_tables(t, 40, random_state=3, stratified=stratified))
    for m in SUMS:
        with undefined_policy("ignore"):
            ref = np.array([bm.get_measure(m).func(tab) for tab in tables])
        np.testing.assert_allclose(res.replicates[m], ref, rtol=1e-12, atol=1e-300,
                                   err_msg=m)


def test_sum_measures_take_no_replicate_table(tables_built: list[int]) -> None:
    """The probabilistic measures that declare sums never build a replicate table
    (top_k_accuracy, read at two cuts of a table, memoises them as its sums); one that
    reads more falls back to tables."""
    built = tables_built
    t = _table("continuous")
    assert "top_k_accuracy" in SUMS
    bootstrap(t, SUMS, n_resamples=20, random_state=0)
    assert built == []
    bootstrap(t, ["brier", "mean_precision"], n_resamples=20, random_state=0)
    assert sum(built) == 20


@pytest.mark.parametrize("kind", ["tied", "weighted", "continuous"])
def test_same_seed_same_replicates_whatever_measures_are_asked(kind: str) -> None:
    t = _table(kind)
    every = bootstrap(t, MIXED, n_resamples=30, random_state=11)
    for m in MIXED:
        alone = bootstrap(t, m, n_resamples=30, random_state=11)
        np.testing.assert_array_equal(alone.replicates[m], every.replicates[m], err_msg=m)
    pair = bootstrap(t, ["log_loss", "auc"], n_resamples=30, random_state=11)
    np.testing.assert_array_equal(pair.replicates["log_loss"], every.replicates["log_loss"])


def test_evaluation_ci_and_ci_table_agree() -> None:
    rng = np.random.default_rng(2)
    y = rng.random(500) < 0.4
    ev = bm.evaluate(y, rng.random(500))
    table = ev.ci_table(["brier", "log_loss", "auc", "mcc"], method="bootstrap",
                        n_resamples=50, random_state=5, progress=False)
    for row in table.itertuples():
        low, high = ev.ci(row.id, method="bootstrap", n_resamples=50, random_state=5)
        assert (low, high) == (row.low, row.high), row.id
