"""Fixtures shared across the test packages."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest


@pytest.fixture(scope="module")
def scored_frame() -> pd.DataFrame:
    """2000 cases, 30 % positive: ``p`` an informative score, ``q`` noise, ``g`` one of
    8 groups."""
    rng = np.random.default_rng(0)
    n = 2000
    y = rng.random(n) < 0.3
    s = 1 / (1 + np.exp(-(y + rng.normal(0, 1, n))))
    return pd.DataFrame({"y": y.astype(int), "p": s, "q": rng.random(n),
                         "g": rng.integers(0, 8, n)})


@pytest.fixture(scope="session")
def whole_scan():
    """``whole_scan(table, measure, constraints, params) -> (cut, value)``: best_threshold's
    choice by ``choose_cuts`` over every cut's whole cumulative arrays (the path of
    weighted tables), the reference of the block and candidate scans."""
    import math
    import warnings

    import binmetrics as bm
    from binmetrics.evaluation.cut_choice import all_cuts, choose_cuts, parse_constraints

    def scan(t, measure, constraints, params):
        m = bm.get_measure(measure)
        cuts = all_cuts(t)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            v = np.asarray(m.func(cuts, **params), dtype=np.float64)
            ok = np.ones(v.shape, dtype=bool)
            for c in parse_constraints(constraints):
                ok &= c.holds(np.asarray(bm.get_measure(c.measure).func(cuts),
                                         dtype=np.float64))
        k = int(choose_cuts(v, ok, m.direction))
        return k, (float(v[k]) if k >= 0 else math.nan)

    return scan


@pytest.fixture
def argsort_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """Weighted tables built by the argsort with numba's loops on or off: the packed
    sort, which ``use_compiled(True)`` would take, adds a tied group's weights in
    another order (tests/table/test_blocks.py), and tests that compare a table's
    compiled passes with NumPy's need one table."""
    import functools

    from binmetrics.table import counts, sorting

    monkeypatch.setattr(counts, "weighted_rows",
                        functools.partial(sorting.weighted_rows, way="argsort"))
