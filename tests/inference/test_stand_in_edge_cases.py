"""The bootstrap's stand-in replicates (inference/_replicate_groups.py) on
the edge cases the first tests do not reach: tiny tables, every negative above or below
the positives, one class missing from a replicate (unstratified), zero weights,
non-integer weights drawn as ``n_cases``, multinomial draws (few cells, many cases),
blocks of 1 group, and every ranking measure without a kernel at several parameters
(not only its defaults). The stand-in's groups, totals and size, and each measure's
value where it does not fall back, are the replicate table's bit for bit (average
lift's compiled sum on unweighted replicates: to 1e-13, closer to the exact sum than the
table's series); the intervals through ``Evaluation.ci`` are those of the tables.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.exceptions import undefined_policy
from binmetrics.inference import _replicates as rs
from binmetrics.inference._counting import compiled_kernels, use_compiled
from binmetrics.inference._replicate_sums import _NeedsTable
from binmetrics.measures.early_recognition import LIFT_SUM
from binmetrics.measures.registry import iter_measures
from binmetrics.table import counts

RANKING = [m for m in iter_measures("ranking") if m.resampling_kernel is None]
PARAMS: dict[str, list[dict[str, Any]]] = {
    "tpr_at_fpr": [{"fpr": 0.0}, {"fpr": 0.5}, {"fpr": 1.0}],
    "tnr_at_tpr": [{"tpr": 0.0}, {"tpr": 1.0}],
    "rie": [{"alpha": 0.5}, {"alpha": 321.9}],
    "bedroc": [{"alpha": 1000.0}],
    "enrichment_factor": [{"fraction": 0.1}, {"fraction": 1.0}],
    "roc_enrichment": [{"fpr": 0.2, "at": a} for a in ("top", "interpolated", "bottom")],
    "auac": [{"kind": "step"}, {"kind": "exact"}],
    "mean_rank_positives": [{"normalized": True}],
    "roc_ef5": [{"at": "bottom"}],
    "auprg": [{"compat": "prg"}],
    "h_measure": [{"severity_ratio": 0.5}],
    "partial_auc": [{"fpr": (0.1, 0.5), "correct": True}, {"tpr": (0.8, 1.0)}],
    "tpr_at_ppv": [{"ppv": 0.0}, {"ppv": 1.0}],
    "ppv_at_tpr": [{"tpr": 0.0}, {"tpr": 1.0}],
    "tpr_at_tnr": [{"tnr": 0.0}, {"tnr": 1.0}],
    "tnr_at_min_tpr": [{"tpr": 0.0}, {"tpr": 1.0}],
}

CASES: dict[str, tuple[list[int], list[float], list[float] | None]] = {
    "tiny": ([1, 0], [0.5, 0.4], None),
    "tiny_tie": ([1, 0], [0.5, 0.5], None),
    "negatives_above": ([0, 0, 0, 0, 0, 1, 1, 1], [.9, .8, .8, .7, .6, .5, .4, .4], None),
    "negatives_below": ([1, 1, 1, 0, 0, 0, 0, 0], [.9, .8, .8, .7, .6, .5, .4, .4],
                        [1, 2, 0, 3, 1, .5, .25, 1]),
    "one_positive": ([1] + [0] * 30, list(np.linspace(1, 0, 31)), None),
    "all_tied": ([1, 0, 1, 0, 0, 1], [.5] * 6, [1.5, 2, 0, 3, 1, 0.1]),
    "many_cases": ([1, 0, 1, 0, 1, 0], [.9, .9, .7, .6, .6, .4], [1000, 2000, 500, 3000, 700, 100]),
}


def _value(m: Any, t: bm.CountTable, p: dict[str, Any]) -> Any:
    with undefined_policy("ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return m.func(t, **p)
        except _NeedsTable:
            raise
        except (ValueError, TypeError) as e:  # the same refusal on both
            return type(e).__name__


def _check_stand_in(si: Any, tab: bm.CountTable) -> None:
    g, h = si.positive_groups(), tab.positive_groups()
    for f in ("idx", "pos", "neg", "tp0", "fp0"):
        np.testing.assert_array_equal(getattr(g, f), getattr(h, f), err_msg=f)
    assert (si.P, si.N, si.n_distinct) == (tab.P, tab.N, tab.n_distinct)
    for m in RANKING:
        for p in [{}, *PARAMS.get(m.id, [])]:
            fresh = LIFT_SUM not in si._memo
            try:
                got = _value(m, si, p)
            except _NeedsTable:
                continue
            want = _value(m, tab, p)
            # average lift's sum, answered by the stand-in's compiled kernel in another
            # order than the table's series
            if fresh and LIFT_SUM in si._memo and LIFT_SUM in si._answers:
                assert got == pytest.approx(want, rel=1e-13, nan_ok=True), (m.id, p)
                continue
            assert got == want or (np.isnan(got) and np.isnan(want)), (m.id, p)


@pytest.mark.parametrize("chunk", [1 << 16, 1])
@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("stratified", [True, False])
@pytest.mark.parametrize("case", sorted(CASES))
def test_stand_in_is_the_replicate_table_on_edge_cases(
        case: str, stratified: bool, compiled: bool, chunk: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counts, "CHUNK", chunk)
    y, s, w = CASES[case]
    t = bm.CountTable.from_arrays(y, s, sample_weight=w)
    n_cases: Any = None
    if w is not None and case != "many_cases":
        n_cases = (3, 4) if stratified else 7  # weights as n_cases: unit weights not 1
    with use_compiled(compiled):  # the plan takes its kernels when first asked
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sampler = rs._BootstrapSampler(t, stratified=stratified, n_cases=n_cases)
        missing = 0
        for block in sampler.blocks(np.random.default_rng(3), 12):
            stand_ins = block.group_tables()
            assert stand_ins is not None
            for si, tab in zip(stand_ins, block.tables(), strict=True):
                missing += si.P == 0 or si.N == 0
                _check_stand_in(si, tab)
        # compiled only where numba is installed (the fast extra; a plain install has none)
        assert (sampler.groups_plan().kernels is not None) == (compiled_kernels(1) is not None)
    if case == "one_positive" and not stratified:
        assert missing > 0  # some replicates drew no positive: the test reaches them


def test_evaluation_ci_is_that_of_the_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(2)
    n = 400
    y = rng.random(n) < 0.2
    s = np.round(rng.random(n), 2)
    ev = bm.evaluate(y, s, sample_weight=rng.integers(1, 3, n).astype(float))
    ids = ["average_lift", "mean_rank_positives", "ppv_at_tpr", "best_f1"]

    def cis() -> list[tuple[float, float]]:
        out = []
        for m in ids:
            ci = ev.ci(m, method="bootstrap", n_resamples=40, random_state=3)
            out.append((ci.low, ci.high))
        return out

    fast = cis()
    monkeypatch.setattr(rs._BootstrapBlock, "group_tables", lambda self: None)
    assert cis() == fast
