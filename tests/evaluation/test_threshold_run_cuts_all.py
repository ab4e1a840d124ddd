"""best_threshold's candidate cuts (cut_choice._best_run_cut) for EVERY measure declared
``monotone_in_fp`` (not only the seven of test_threshold_run_cuts.py), under bounds
mixing the monotone measures from both sides with bounds on other declared measures
that fewer false positives keep: the same cut and value as choose_cuts over every cut,
bit for bit, on small random tables with ties, skewed classes and a class-free end."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.evaluation.cut_choice import all_cuts, best_cut, choose_cuts, parse_constraints
from binmetrics.measures.registry import iter_measures
from binmetrics.table.counts import CountTable

DECLARED = [m for m in iter_measures("confusion") if m.monotone_in_fp]

CONSTRAINTS = [
    [],
    ["fpr>=0"],
    ["fpr>0"],
    ["fpr>=0.1"],
    ["tnr<=0.95"],
    ["fpr>=0.2", "npv>=0.5"],
    ["tnr<1", "accuracy>=0.4"],
    ["fpr>=0.05", "f1>=0.2", "fdr<=0.9"],
    ["fpr>=0.1", "mcc>0", "tpr<=0.9"],
    ["tnr<=0.9", "informedness>=0.05", "lr_minus<=1"],
    ["fpr>=0.1", "lr_plus>=1.2"],
    ["fnr<=0.5", "fpr>=0.02", "kappa>=0"],
]


def _whole_scan(t: CountTable, m, constraints) -> tuple[int, float]:
    cuts = all_cuts(t)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        v = np.asarray(m.func(cuts, **m.resolve_params()), dtype=np.float64)
        ok = np.ones(v.shape, dtype=bool)
        for c in parse_constraints(constraints):
            ok &= c.holds(np.asarray(bm.get_measure(c.measure).func(cuts), dtype=np.float64))
    k = int(choose_cuts(v, ok, m.direction))
    return k, (float(v[k]) if k >= 0 else math.nan)


def _tables():
    for seed in range(6):
        rng = np.random.default_rng(100 + seed)
        n = int(rng.integers(8, 90))
        prevalence = [0.1, 0.3, 0.6, 0.9][seed % 4]
        y = (rng.random(n) < prevalence).astype(int)
        y[0] = 1
        y[-1] = 0
        s = np.round(rng.normal(y * 0.8, 1.0), 1 if seed % 2 else 3)
        if seed == 5:  # a block of negatives above every positive
            s[np.flatnonzero(y == 0)[:3]] += 10
        yield CountTable.from_arrays(y, s)
    rng = np.random.default_rng(7)
    s = np.round(rng.random(30), 1)
    yield CountTable.from_arrays(np.ones(30, dtype=int), s)  # no negatives
    yield CountTable.from_arrays(np.zeros(30, dtype=int), s)  # no positives
    yield CountTable.from_arrays(np.r_[np.zeros(5, int), np.ones(5, int)],
                                 np.r_[np.ones(5), np.zeros(5)])  # every negative on top


@pytest.mark.parametrize("m", DECLARED, ids=lambda m: m.id)
def test_every_declared_measure_is_the_whole_scan(m):
    for t in _tables():
        for constraints in CONSTRAINTS:
            want = _whole_scan(t, m, constraints)
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                got = best_cut(t, m, m.resolve_params(), parse_constraints(constraints))
            where = (m.id, constraints, t.n_distinct)
            assert got[0] == want[0], where
            assert got[1] == want[1] or (math.isnan(got[1]) and math.isnan(want[1])), where
