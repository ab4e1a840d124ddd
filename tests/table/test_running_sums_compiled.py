"""A large weighted table's running sums in compiled loops (table/_running_numba.py,
issue 32): the groups with positives, the running sums before them and the blocks'
carries are NumPy's floats, bit for bit, so every ranking measure of a weighted table is
the same float with numba as without; so is mean precision's chain over the cuts
(measures/_sums_numba.precision_sum), weighted or not."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.backends import use_compiled
from binmetrics.exceptions import undefined_policy
from binmetrics.table import counts

pytest.importorskip("numba")
#: one table for both ways (the packed sort adds tied weights in row order)
pytestmark = pytest.mark.usefixtures("argsort_build")

RANKING = [m.id for m in bm.iter_measures("ranking")]


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counts, "CHUNK", 997)


def _data(kind: str, n: int = 12_000) -> tuple[Any, Any, Any]:
    rng = np.random.default_rng(sum(map(ord, kind)))
    y = rng.random(n) < 0.2
    s = np.round(rng.normal(np.where(y, 1.0, 0.0), 1.0), 6)
    w = rng.uniform(0.1, 4.0, n)
    if kind == "tied":
        s, w = np.round(s, 1), rng.integers(1, 6, n) * 0.37
    elif kind == "zero_weights":
        w[rng.random(n) < 0.3] = 0.0
    elif kind == "wide":
        w = rng.uniform(0.5, 1.0, n) * 10.0 ** rng.integers(-100, 100, n).astype(float)
    elif kind == "unweighted_tied":  # integer counts, several per row
        s, w = np.round(s, 2), None
    return y, s, w


def _table(y: Any, s: Any, w: Any, compiled: bool) -> Any:
    with use_compiled(compiled):
        t = bm.evaluate(y, s, sample_weight=w).table
        g = t.positive_groups()
        carries = t.block_carries()
    return t, g, carries


@pytest.mark.parametrize("kind", ["uniform", "tied", "zero_weights", "wide"])
def test_positive_groups_and_carries_are_numpys(kind: str, small_blocks: None) -> None:
    y, s, w = _data(kind)
    _, g0, c0 = _table(y, s, w, False)
    _, g1, c1 = _table(y, s, w, True)
    for name in ("idx", "pos", "neg", "tp0", "fp0"):
        np.testing.assert_array_equal(getattr(g1, name), getattr(g0, name), err_msg=name)
    for a, b in zip(c0, c1, strict=True):
        np.testing.assert_array_equal(b, a)


@pytest.mark.parametrize("kind", ["uniform", "tied", "zero_weights"])
def test_block_carries_alone_are_numpys(kind: str, small_blocks: None) -> None:
    """Carries asked before the groups (the totals P and N first), and a table's carries
    extended from a partial memo, compiled as NumPy sums them."""
    y, s, w = _data(kind)
    out = []
    for compiled in (False, True):
        with use_compiled(compiled):
            t = bm.evaluate(y, s, sample_weight=w).table
            part = t.block_carries(blocks=3)
            whole = t.block_carries()
            out.append((part, whole, t.P, t.N))
    for a, b in zip(out[0][0] + out[0][1], out[1][0] + out[1][1], strict=True):
        np.testing.assert_array_equal(b, a)
    assert out[0][2:] == out[1][2:]


@pytest.mark.parametrize("kind", ["uniform", "tied", "zero_weights", "wide", "unweighted_tied"])
def test_ranking_measures_are_the_same_floats(kind: str, small_blocks: None,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """With the early-recognition measures' own loops off (average lift's agrees to
    rounding only: tests/measures/test_compiled_sums.py), every ranking measure reads
    the running sums, compiled or not, and is the same float."""
    from binmetrics.measures import early_recognition

    monkeypatch.setattr(early_recognition, "compiled_table", lambda *_: None)
    y, s, w = _data(kind)
    values = []
    for compiled in (False, True):
        with use_compiled(compiled), undefined_policy("ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            values.append(bm.evaluate(y, s, sample_weight=w, undefined="ignore")
                          .to_dict(measures=RANKING))
    wrong = [f"{m}: {values[0][m]!r} NumPy, {values[1][m]!r} compiled" for m in RANKING
             if not (values[0][m] == values[1][m]
                     or (math.isnan(values[0][m]) and math.isnan(values[1][m])))]
    assert not wrong, "\n".join(wrong)
    assert math.isfinite(values[1]["mean_precision"])


@pytest.mark.parametrize("kind", ["members", "strangers", "ties_at_ends"])
def test_positions_by_a_merge_are_searchsorted(kind: str) -> None:
    """The unweighted build places its minority class by one compiled merge on a large
    table (sorting.positions): np.searchsorted's positions, also for queries that are
    not among the keys, below and above them all, and repeated."""
    from binmetrics.table.sorting import positions

    rng = np.random.default_rng(len(kind))
    keys = np.sort(rng.normal(size=200_000))
    if kind == "members":
        queries = np.sort(rng.choice(keys, 20_000, replace=False))
    elif kind == "strangers":
        queries = np.sort(rng.normal(size=20_000) * 2.0)
    else:
        queries = np.sort(np.concatenate([np.full(5, keys[0] - 1), keys[:3], keys[-3:],
                                          np.full(5, keys[-1] + 1), keys[100:110]]))
    with use_compiled(True):
        got = positions(keys, queries)
    np.testing.assert_array_equal(got, np.searchsorted(keys, queries))
    assert got.dtype == np.intp


@pytest.mark.parametrize("threshold", [-3.0, 0.0, 0.5, 1.5, 4.0])
def test_weighted_confusion_below_the_cut_is_numpys(threshold: float) -> None:
    """A weighted confusion matrix's FN and TN are summed from the bottom up, compiled
    on a large table as np.cumsum adds them (the same floats), at cuts near the top, in
    the middle and near the bottom of the scores."""
    y, s, w = _data("uniform")
    got = []
    for compiled in (False, True):
        with use_compiled(compiled):
            got.append(bm.evaluate(y, s, sample_weight=w, threshold=threshold).confusion)
    assert got[0] == got[1]
    assert got[1].fn + got[1].tn > 0.0
