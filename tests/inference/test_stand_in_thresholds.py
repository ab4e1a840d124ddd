"""Edge cases of the bootstrap's groups stand-in (binmetrics.inference._replicate_groups):
net benefit at thresholds that are exact scores, 0, 1 and beyond; mean_precision and
taKS (the compiled walk) and top_k_accuracy on tables with one distinct score, one
class, margins; each against the replicate table's own value, bit for bit, compiled and
not, stratified and not."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.exceptions import undefined_policy
from binmetrics.inference import _replicates as rs
from binmetrics.inference._counting import use_compiled
from binmetrics.inference._replicate_sums import _NeedsTable
from binmetrics.measures.registry import get_measure


def _blocks(t: bm.CountTable, stratified: bool, seed: int) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sampler = rs._BootstrapSampler(t, stratified=stratified)
    return sampler.blocks(np.random.default_rng(seed), 6)


def _same(got: float, want: float) -> bool:
    return got == want or (np.isnan(got) and np.isnan(want))


def _pairs(t: bm.CountTable, stratified: bool, compiled: bool) -> Any:
    with use_compiled(compiled):
        for seed in range(2):
            for block in _blocks(t, stratified, seed):
                stand_ins = block.group_tables()
                if stand_ins is None:
                    continue
                yield from zip(stand_ins, block.tables(), strict=True)


def _tied(seed: int, n: int = 300) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    y[:2] = (True, False)
    return y, np.round(rng.random(n), 1)


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("stratified", [True, False])
def test_net_benefit_at_exact_scores_and_the_ends(compiled: bool, stratified: bool) -> None:
    y, s = _tied(0)
    s[:5], s[5:9] = 0.0, 1.0
    t = bm.CountTable.from_arrays(y, s)
    nb = get_measure("net_benefit").func
    thresholds = [-0.5, 1.5, 0.0, 1e-300, 0.1, 0.3, float(np.nextafter(0.3, 1.0)), 0.5, 0.9,
                  float(np.nextafter(1.0, 0.0)), 1.0]
    read = 0
    for stand_in, table in _pairs(t, stratified, compiled):
        for th in thresholds:
            with undefined_policy("ignore"):
                try:
                    got = nb(stand_in, threshold=th)
                except _NeedsTable:
                    continue
                except ValueError as e:  # the same error as the table's
                    with pytest.raises(type(e)):
                        nb(table, threshold=th)
                    continue
                want = nb(table, threshold=th)
            read += 1
            assert _same(got, want), th
    assert read > 0


@pytest.mark.parametrize("compiled", [True, False])
def test_walked_sums_on_one_score_and_one_class(compiled: bool) -> None:
    rng = np.random.default_rng(3)
    ids = ["mean_precision", "taks", "top_k_accuracy", "net_benefit"]
    cases = {
        "one score": (rng.random(200) < 0.4, np.full(200, 0.7)),
        "two scores": (rng.random(200) < 0.4, np.where(rng.random(200) < 0.5, 0.2, 0.8)),
        "margins": (rng.random(200) < 0.4, rng.normal(0, 3, 200)),
        "all positive": (np.ones(50, dtype=bool), rng.random(50)),
    }
    for name, (y, s) in cases.items():
        t = bm.CountTable.from_arrays(y, s)
        for stand_in, table in _pairs(t, True, compiled):
            for m in ids:
                func = get_measure(m).func
                with undefined_policy("ignore"):
                    try:
                        got = func(stand_in)
                    except _NeedsTable:
                        continue
                    except ValueError as e:
                        with pytest.raises(type(e)):
                            func(table)
                        continue
                    want = func(table)
                assert _same(got, want), (name, m)
