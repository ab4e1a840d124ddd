"""Every measure declared ``monotone_in_fp`` never gets worse (in its direction) as the
false positives fall at fixed TP, P and N, nor undefined when TP > 0: a scan over every
(TP, FP) of small tables, with the declared parameters' defaults and other values."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from binmetrics.measures.registry import iter_measures
from binmetrics.table.counts import Confusion

DECLARED = [m for m in iter_measures("confusion") if m.monotone_in_fp]
OTHER_PARAMS = {"beta": [0.5, 3.0], "cost_fp": [0.0, 4.0], "cost_fn": [0.0, 4.0]}


def test_some_measures_are_declared():
    assert {"f1", "mcc", "ppv", "expected_cost"} <= {m.id for m in DECLARED}


@pytest.mark.parametrize("m", DECLARED, ids=lambda m: m.id)
@pytest.mark.parametrize(("P", "N"), [(7, 30), (40, 9), (25, 25)])
def test_declared_monotone_in_fp(m, P, N):
    tp, fp = np.meshgrid(np.arange(P + 1.0), np.arange(N + 1.0), indexing="ij")
    c = Confusion(tp=tp, fp=fp, fn=P - tp, tn=N - fp)
    settings = [{}] + [{k: v} for k in m.params if k in OTHER_PARAMS
                       for v in OTHER_PARAMS[k]]
    for params in settings:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            v = np.asarray(m.func(c, **params), dtype=np.float64)
        worse = np.diff(v, axis=1) * m.direction  # > 0: more FP is better
        both = np.isfinite(v[:, 1:]) & np.isfinite(v[:, :-1])
        assert not np.any(worse[both] > 1e-12 * np.abs(v[:, 1:][both]).clip(1)), params
        # with a true positive, fewer false positives never make the value undefined
        # (the bootstrap of a cut relies on it; with none, cut 0 may be: it keeps those)
        lost = np.isnan(v[1:, :-1]) & ~np.isnan(v[1:, 1:])
        assert not lost.any(), params
