"""The compiled walks of the ranking kernels and of a replicate's ROC hull
(binmetrics.measures._kernels_numba) against NumPy's way: the same floats for the AUC, the
Gini index, KS, the maximum Youden index, the enrichment factor and the hull; to rounding
for the kernels in COMPILED_TO_ROUNDING (average precision, RIE, BEDROC). Random
whole-number count matrices with empty groups, rows without a class and ties; each
comparison counts the compiled loop's calls, so that it cannot pass on NumPy twice."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.backends import use_compiled
from binmetrics.inference import _counting
from binmetrics.inference._counting import run_counts
from binmetrics.inference.resampling import bootstrap
from binmetrics.measures import kernels, ranking
from binmetrics.table import PositiveGroups

pytest.importorskip("numba")

KERNELS: dict[str, Callable[..., Any]] = {
    "auc": kernels.auc_kernel,
    "gini": kernels.gini_kernel,
    "ks": kernels.ks_kernel,
    "youden_j_max": kernels.youden_j_max_kernel,
    "average_precision": kernels.average_precision_kernel,
    "rie": kernels.rie_kernel,
    "bedroc": kernels.bedroc_kernel,
    "bedroc_alpha_1": lambda p, n: kernels.bedroc_kernel(p, n, alpha=1.0),
    "enrichment_factor": kernels.enrichment_factor_kernel,
    "enrichment_factor_near_1": lambda p, n: kernels.enrichment_factor_kernel(
        p, n, fraction=1.0 - 1e-9),
    "enrichment_factor_all": lambda p, n: kernels.enrichment_factor_kernel(p, n, fraction=1.0),
    "enrichment_factor_30": lambda p, n: kernels.enrichment_factor_kernel(p, n, fraction=0.3),
}
ROUNDING = {"average_precision": kernels.average_precision_kernel,
            "rie": kernels.rie_kernel, "bedroc": kernels.bedroc_kernel,
            "bedroc_alpha_1": kernels.bedroc_kernel}


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Counts each compiled walk's calls (wrapping the module's loops)."""
    walks = kernels.compiled_walks(10**9)
    assert walks is not None
    seen: Counter[str] = Counter()
    for name in walks.__all__:
        loop = getattr(walks, name)

        def spy(*args: Any, _loop: Any = loop, _name: str = name) -> Any:
            seen[_name] += 1
            return _loop(*args)

        monkeypatch.setattr(walks, name, spy)
    yield seen


def _matrices(seed: int, rows: int, cols: int, dtype: Any) -> tuple[Any, Any]:
    rng = np.random.default_rng(seed)
    pos = rng.poisson(rng.uniform(0.05, 2.0), (rows, cols)).astype(dtype)
    neg = rng.poisson(rng.uniform(0.2, 3.0), (rows, cols)).astype(dtype)
    pos[0] = 0  # a replicate without positives
    neg[1] = 0  # ... without negatives
    neg[2, : cols // 2] = 0  # long runs of positive-only groups
    return pos, neg


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("dtype", [np.int64, np.int32])  # the bootstrap's: int64
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_compiled_kernels_agree_with_numpy(name: str, dtype: Any, seed: int,
                                           calls: Counter[str]) -> None:
    pos, neg = _matrices(seed, 6, [7, 300, 9001, 20000][seed], dtype)
    with use_compiled(False):
        numpy_way = KERNELS[name](pos, neg)
    assert not calls
    with use_compiled(True):
        compiled_way = KERNELS[name](pos, neg)
    assert sum(calls.values()) >= 1
    assert np.isnan(numpy_way[:2]).all() and np.isnan(compiled_way[:2]).all()
    if name in ROUNDING:
        assert ROUNDING[name] in kernels.COMPILED_TO_ROUNDING
        np.testing.assert_allclose(compiled_way, numpy_way, rtol=1e-13, atol=0.0)
    else:
        np.testing.assert_array_equal(compiled_way, numpy_way)


def test_kernels_stay_numpy_for_small_or_weighted_matrices(calls: Counter[str]) -> None:
    small = _matrices(0, 4, kernels.COMPILED_COLUMNS - 1, np.int64)
    big = _matrices(1, 3, kernels.COMPILED_COLUMNS, np.int64)
    with use_compiled(None):
        kernels.auc_kernel(*small)
        kernels.auc_kernel(*(m.astype(np.float64) for m in big))  # weights: NumPy's sums
        assert not calls
        kernels.auc_kernel(*big)
    assert calls["auc_sums"] == 1


@pytest.mark.parametrize("ties", [None, 1, 2, 3])
def test_compiled_roc_hull_is_numpys(ties: int | None, calls: Counter[str]) -> None:
    """The same hull from random tables (with ties, weights) and from tables whose
    candidate vertices are collinear (alternating groups of a positives and b negatives:
    rounding decides which middle points a chord test keeps)."""
    rng = np.random.default_rng(5 if ties is None else ties)
    walks = kernels.compiled_walks(10**9)
    for _ in range(150):  # collinear candidates
        n = int(rng.integers(3, 300))
        a, b = rng.integers(1, 50, 2)
        m = rng.integers(1, 4, n) if ties else np.ones(n, dtype=np.int64)
        pos = (np.tile([a, 0], n)[:n] * m).astype(float)
        neg = (np.tile([0, b], n)[:n] * np.roll(m, 1)).astype(float)
        idx = np.flatnonzero(pos > 0)
        tp0, fp0 = np.r_[0, np.cumsum(pos)][:-1], np.r_[0, np.cumsum(neg)][:-1]
        g = PositiveGroups(idx=idx, pos=pos[idx], neg=neg[idx], tp0=tp0[idx], fp0=fp0[idx])
        want = ranking.roc_hull_of(g, n, pos.sum(), neg.sum())
        got = ranking.roc_hull_of(g, n, pos.sum(), neg.sum(), walks.roc_hull_points)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
    for _ in range(60):
        n = int(rng.integers(3, 4000))
        y = rng.random(n) < rng.uniform(0.02, 0.95)
        s = rng.random(n) if ties is None else np.round(rng.random(n), ties)
        w = rng.integers(1, 5, n).astype(float) if n % 3 == 0 else None
        t = bm.CountTable.from_arrays(y, s, sample_weight=w)
        if t.P == 0 or t.N == 0:
            continue
        g = t.positive_groups()
        x0, y0 = ranking.roc_hull_of(g, t.n_distinct, t.P, t.N)
        x1, y1 = ranking.roc_hull_of(g, t.n_distinct, t.P, t.N, walks.roc_hull_points)
        np.testing.assert_array_equal(x1, x0)
        np.testing.assert_array_equal(y1, y0)
    assert calls["roc_hull_points"] >= 190


@pytest.mark.parametrize("layout", ["random", "alternating"])
def test_bootstrap_stand_ins_take_the_compiled_hull(layout: str, calls: Counter[str]) -> None:
    rng = np.random.default_rng(2)
    if layout == "random":
        y = rng.random(3000) < 0.3
        s = np.round(rng.random(3000), 3)
    else:  # groups of 2 positives and 2 negatives, alternating: collinear hull points
        y = np.tile([True, True, False, False], 100)
        s = np.repeat(np.linspace(1.0, 0.0, 200), 2)
    t = bm.CountTable.from_arrays(y, s)
    got = {}
    for on in (False, True):
        with use_compiled(on):
            got[on] = bootstrap(t, ["auch", "h_measure"], n_resamples=200,
                                random_state=5).replicates
    assert calls["roc_hull_points"] >= 200
    for m in ("auch", "h_measure"):
        np.testing.assert_array_equal(got[True][m], got[False][m])


@pytest.mark.parametrize("first", [0, 3, 2048])
def test_run_counts_are_reduceats(first: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(first)
    counts = rng.integers(0, 6, (3, 20000)).astype(np.uint8)
    starts = np.unique(np.r_[first, rng.integers(first + 1, 20000, 900), 4096, 4097])
    starts = starts.astype(np.intp)
    with use_compiled(True):
        loops = _counting.compiled_kernels(1)
        seen = []
        monkeypatch.setattr(loops, "run_sums", lambda *a, _f=loops.run_sums: (
            seen.append(1), _f(*a))[1])
        got = run_counts(counts, starts)
    assert seen
    np.testing.assert_array_equal(got, np.add.reduceat(counts, starts, axis=1, dtype=np.int64))
    with use_compiled(False):
        np.testing.assert_array_equal(run_counts(counts, starts), got)
