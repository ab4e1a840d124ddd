"""The resampling kernels of BEDROC, RIE and the enrichment factor
(binmetrics.measures.kernels): each replicate equals the measure on the replicate's
table (ties averaged or split pro rata, weights as frequencies, non-default alpha and
fraction), at the group and the condensed slot level; the bootstrap builds no replicate
table for them; intervals equal those of the table path; undefined replicates stay NaN
and are reported as before."""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.exceptions import UndefinedMeasureWarning, undefined_policy
from binmetrics.inference import _replicates as rs
from binmetrics.inference.resampling import bootstrap, bootstrap_tables, permutation_tables
from binmetrics.measures import registry
from binmetrics.measures.kernels import bedroc_kernel, enrichment_factor_kernel, rie_kernel

# alpha * Ra > 1 draws a caveat on the estimate (not comparable across prevalences)
pytestmark = pytest.mark.filterwarnings("ignore::binmetrics.exceptions.MeasureCaveatWarning")

KERNELS = {"bedroc": bedroc_kernel, "rie": rie_kernel}
ALPHAS = [20.0, 1.0, 80.5, 321.9]


def _data(kind: str, seed: int = 7, n: int = 500) -> tuple[Any, Any, Any, Any]:
    """Labels, scores, weights of ``kind`` and the n_cases the bootstrap draws
    (fractional weights)."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.25
    s = rng.random(n)
    w = None
    n_cases: Any = None
    if kind == "tied":
        s = np.round(s, 1)
    elif kind == "heavy_ties":  # few cells, many cases: the multinomial route
        s = np.round(s * 3) / 3
    elif kind == "weighted":
        s, w = np.round(s, 2), rng.integers(1, 5, n).astype(np.float64)
    elif kind == "fractional":
        s, w = np.round(s, 2), rng.uniform(0.2, 3.0, n)
        n_cases = (int(y.sum()), int((~y).sum()))
    return y, s, w, n_cases


def _table(kind: str, seed: int = 7, n: int = 500) -> tuple[bm.CountTable, Any]:
    y, s, w, n_cases = _data(kind, seed, n)
    return bm.CountTable.from_arrays(y, s, sample_weight=w), n_cases


def _on_tables(measure: str, tables: list[bm.CountTable], **params: Any) -> np.ndarray:
    with undefined_policy("ignore"):
        return np.array([bm.get_measure(measure).func(t, **params) for t in tables])


@pytest.mark.parametrize("kind", ["continuous", "tied", "heavy_ties", "weighted", "fractional"])
@pytest.mark.parametrize("stratified", [True, False])
@pytest.mark.parametrize("alpha", ALPHAS)
def test_kernel_replicates_equal_the_measure_on_each_replicate_table(
        kind: str, stratified: bool, alpha: float) -> None:
    t, n_cases = _table(kind)
    kw = {"n_resamples": 30, "random_state": 3, "stratified": stratified}
    ncase = {} if n_cases is None else {"n_cases": n_cases if stratified else sum(n_cases)}
    res = bootstrap(t, list(KERNELS), params={m: {"alpha": alpha} for m in KERNELS},
                    **kw, **ncase)
    tables = list(bootstrap_tables(t, **kw, **ncase))
    for m in KERNELS:
        ref = _on_tables(m, tables, alpha=alpha)
        assert np.isfinite(ref).all()
        np.testing.assert_allclose(res.replicates[m], ref, rtol=1e-12, atol=0, err_msg=m)


def _slots(pos: np.ndarray, neg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows condensed as the bootstrap condenses them: each run of groups without
    positives (in the whole matrix) merged into one slot."""
    has = pos.sum(axis=0) > 0
    slot = 2 * np.searchsorted(np.flatnonzero(has), np.arange(pos.shape[1])) + has
    width = 2 * int(has.sum()) + 1
    out = [np.zeros((pos.shape[0], width)) for _ in range(2)]
    for j, k in enumerate(slot):
        out[0][:, k] += pos[:, j]
        out[1][:, k] += neg[:, j]
    return out[0], out[1]


def _count_matrices(seed: int, b: int, g: int, rate: float,
                    weighted: bool) -> tuple[Any, Any, list[bm.CountTable]]:
    """(b, g) positive and negative count matrices with empty groups, a row without
    positives and one without negatives, and each row's table (its non-empty groups)."""
    rng = np.random.default_rng(seed)
    pos = rng.poisson(rate, (b, g)) * (rng.random((b, g)) < 0.5)
    neg = rng.poisson(1.5, (b, g))
    pos[0], neg[1] = 0, 0
    if weighted:
        pos, neg = pos * 0.37, neg * 1.9
    scores = np.linspace(1.0, 0.0, g)
    tables = []
    for p, n in zip(pos, neg, strict=True):
        keep = (p + n) > 0
        tables.append(bm.CountTable(scores[keep], p[keep], n[keep], weighted=weighted))
    return pos, neg, tables


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("m", list(KERNELS))
def test_kernel_on_count_matrices_with_empty_groups_and_one_class_rows(weighted: bool,
                                                                        m: str) -> None:
    pos, neg, tables = _count_matrices(11, 25, 60, 0.4, weighted)
    for alpha in ALPHAS:
        ref = _on_tables(m, tables, alpha=alpha)
        assert np.isnan(ref[:2]).all() and np.isfinite(ref[2:]).all()
        np.testing.assert_allclose(KERNELS[m](pos, neg, alpha=alpha), ref, rtol=1e-12, atol=0)
        np.testing.assert_allclose(KERNELS[m](*_slots(pos, neg), alpha=alpha), ref,
                                   rtol=1e-12, atol=0)


def test_kernel_checks_alpha() -> None:
    with pytest.raises(ValueError, match="alpha"):
        bedroc_kernel(np.ones((1, 2)), np.ones((1, 2)), alpha=0.0)


def test_bootstrap_builds_no_replicate_table(tables_built: list[int]) -> None:
    built = tables_built
    t, _ = _table("tied")
    bootstrap(t, ["bedroc", "rie", "enrichment_factor"], n_resamples=20, random_state=0,
              params={"bedroc": {"alpha": 50.0}, "enrichment_factor": {"fraction": 0.2}})
    assert built == []


def _without_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table path: the measures' registry entries without their kernel."""
    for m in KERNELS:
        monkeypatch.setitem(registry._REGISTRY, m,
                            replace(registry._REGISTRY[m], resampling_kernel=None))


@pytest.mark.parametrize("kind", ["continuous", "weighted"])
def test_intervals_equal_the_table_paths(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    y, s, w, _ = _data(kind, n=400)
    ev = bm.evaluate(y, s, sample_weight=w)
    got = {(m, a): ev.ci(m, method="bootstrap", n_resamples=200, random_state=5, alpha=a)
           for m in KERNELS for a in (20.0, 80.5)}
    table = ev.ci_table(list(KERNELS), method="bootstrap", n_resamples=200, random_state=5)
    _without_kernels(monkeypatch)
    assert registry.get_measure("bedroc").resampling_kernel is None
    for (m, a), ci in got.items():
        ref = ev.ci(m, method="bootstrap", n_resamples=200, random_state=5, alpha=a)
        assert ci.estimate == ref.estimate
        np.testing.assert_allclose([ci.low, ci.high], [ref.low, ref.high], rtol=1e-12)
    ref_table = ev.ci_table(list(KERNELS), method="bootstrap", n_resamples=200,
                            random_state=5)
    np.testing.assert_allclose(table[["low", "high"]].to_numpy(dtype=float),
                               ref_table[["low", "high"]].to_numpy(dtype=float), rtol=1e-12)


def test_undefined_replicates_stay_nan_and_are_reported_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # 3 positives in 40 cases: an unstratified replicate often draws none
    y = np.zeros(40, dtype=bool)
    y[[0, 5, 9]] = True
    t = bm.CountTable.from_arrays(y, np.linspace(1.0, 0.0, 40))
    res = bootstrap(t, list(KERNELS), n_resamples=200, random_state=1, stratified=False)
    tables = list(bootstrap_tables(t, 200, random_state=1, stratified=False))
    for m in KERNELS:
        ref = _on_tables(m, tables)
        assert np.isnan(ref).sum() > 0
        np.testing.assert_array_equal(np.isnan(res.replicates[m]), np.isnan(ref))
        np.testing.assert_allclose(res.replicates[m], ref, rtol=1e-12, atol=0)
    ev = bm.evaluate(y, np.linspace(1.0, 0.0, 40))
    with pytest.warns(UndefinedMeasureWarning, match="bedroc is undefined") as rec:
        ci = ev.ci("bedroc", method="bootstrap", n_resamples=200, random_state=1,
                   stratified=False)
    assert sum(issubclass(w.category, UndefinedMeasureWarning) for w in rec) == 1
    _without_kernels(monkeypatch)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref_ci = ev.ci("bedroc", method="bootstrap", n_resamples=200, random_state=1,
                       stratified=False)
    assert ci.n_undefined == ref_ci.n_undefined > 0
    np.testing.assert_allclose([ci.low, ci.high], [ref_ci.low, ref_ci.high], rtol=1e-12)


def test_permutation_replicates_use_the_kernel() -> None:
    t, _ = _table("tied", n=200)
    s = rs._PermutationSampler(t)
    block = next(s.blocks(np.random.default_rng(4), 20))
    tables = list(permutation_tables(t, 20, random_state=4))
    assert len(tables) == 20
    pos, neg = block.counts()
    for m, kern in KERNELS.items():
        np.testing.assert_allclose(kern(pos, neg, alpha=30.0),
                                   _on_tables(m, block.tables(), alpha=30.0), rtol=1e-12, atol=0)


def test_multiclass_per_class_intervals_pass_alpha(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(2)
    k, n = 3, 150
    proba = rng.multinomial(20, rng.dirichlet(np.ones(k), size=n)) / 20.0  # ties
    y = np.array([rng.choice(k, p=row / row.sum()) for row in proba])
    y[:k] = np.arange(k)
    mev = bm.evaluate(y, proba)
    got = mev.ci("bedroc", per_class=True, n_resamples=60, random_state=0, alpha=50.0)
    _without_kernels(monkeypatch)
    ref = mev.ci("bedroc", per_class=True, n_resamples=60, random_state=0, alpha=50.0)
    np.testing.assert_allclose(got.low.to_numpy(), ref.low.to_numpy(), rtol=1e-12)
    np.testing.assert_allclose(got.high.to_numpy(), ref.high.to_numpy(), rtol=1e-12)


def test_a_bound_measure_keeps_its_kernel_at_its_parameters() -> None:
    """``bedroc(alpha=80.5)`` (a measure with other defaults) resamples through the
    kernel at alpha = 80.5, also where the kernel is called with the counts alone."""
    rng = np.random.default_rng(3)
    pos, neg = rng.poisson(0.5, (6, 40)), rng.poisson(2.0, (6, 40))
    for m, kern in KERNELS.items():
        bound = bm.get_measure(f"{m}(alpha=80.5)")
        assert bound.resampling_kernel is not None
        np.testing.assert_array_equal(bound.resampling_kernel(pos, neg),
                                      kern(pos, neg, alpha=80.5))
    t, _ = _table("weighted")
    a = bootstrap(t, ["bedroc(alpha=80.5)"], n_resamples=40, random_state=0)
    tables = list(bootstrap_tables(t, 40, random_state=0))
    np.testing.assert_allclose(a.replicates["bedroc(alpha=80.5)"],
                               _on_tables("bedroc", tables, alpha=80.5), rtol=1e-12, atol=0)


FRACTIONS = [0.01, 0.1, 0.37, 1.0]


@pytest.mark.parametrize("kind", ["continuous", "tied", "heavy_ties", "weighted", "fractional"])
@pytest.mark.parametrize("stratified", [True, False])
def test_enrichment_factor_replicates_equal_the_measure_on_each_table(kind: str,
                                                                      stratified: bool) -> None:
    t, n_cases = _table(kind)
    kw = {"n_resamples": 30, "random_state": 3, "stratified": stratified}
    ncase = {} if n_cases is None else {"n_cases": n_cases if stratified else sum(n_cases)}
    tables = list(bootstrap_tables(t, **kw, **ncase))
    for f in FRACTIONS:
        res = bootstrap(t, "enrichment_factor", params={"enrichment_factor": {"fraction": f}},
                        **kw, **ncase)
        ref = _on_tables("enrichment_factor", tables, fraction=f)
        assert np.isfinite(ref).all()
        np.testing.assert_allclose(res.replicates["enrichment_factor"], ref, rtol=1e-12,
                                   atol=0, err_msg=str(f))


@pytest.mark.parametrize("weighted", [False, True])
def test_enrichment_factor_kernel_on_count_matrices(weighted: bool) -> None:
    """Cut-offs inside tied groups, on group ends, inside merged negative runs, and at the
    total; empty groups; rows lacking a class."""
    pos, neg, tables = _count_matrices(12, 40, 30, 0.5, weighted)
    # fractions that put x on a group's end in some rows (whole cases over the totals)
    ends = [float(k) / float(pos[5].sum() + neg[5].sum()) for k in (1, 4, 9)]
    for f in [*FRACTIONS, 0.5, *ends]:
        ref = _on_tables("enrichment_factor", tables, fraction=f)
        assert np.isnan(ref[:2]).all() and np.isfinite(ref[2:]).all()
        got = enrichment_factor_kernel(pos, neg, fraction=f)
        np.testing.assert_allclose(got, ref, rtol=1e-12, atol=0, err_msg=str(f))
        np.testing.assert_allclose(enrichment_factor_kernel(*_slots(pos, neg), fraction=f),
                                   ref, rtol=1e-12, atol=0, err_msg=str(f))
    with pytest.raises(ValueError, match="fraction"):
        enrichment_factor_kernel(pos, neg, fraction=0.0)


def test_kernel_replicates_in_parallel_streams_equal_the_tables() -> None:
    """30,000 cases: the streams run in threads; each replicate is still its table's,
    and the same whatever else is asked."""
    rng = np.random.default_rng(8)
    y, s = rng.random(30_000) < 0.05, np.round(rng.random(30_000), 4)
    t = bm.CountTable.from_arrays(y, s)
    asked = ["bedroc", "rie", "enrichment_factor"]
    res = bootstrap(t, asked, n_resamples=48, random_state=9)
    tables = list(bootstrap_tables(t, 48, random_state=9))
    for m in asked:
        np.testing.assert_allclose(res.replicates[m], _on_tables(m, tables), rtol=1e-12,
                                   atol=0, err_msg=m)
    more = bootstrap(t, [*asked, "auc", "ece", "h_measure"], n_resamples=48, random_state=9)
    for m in asked:
        np.testing.assert_array_equal(more.replicates[m], res.replicates[m])


def test_kernels_of_one_block_share_their_cumulative_sums() -> None:
    """Inside sharing(), AP, KS and the maximum Youden index of the same count matrices
    take the cumulative sums once (kept for the last pair of arrays the thread passed),
    and give what each gives alone; other arrays (even equal ones) are computed afresh;
    outside it nothing is kept."""
    from binmetrics.measures import kernels

    rng = np.random.default_rng(4)
    pos, neg = rng.integers(0, 3, (5, 300)), rng.integers(0, 3, (5, 300))
    alone = {k: k(pos.copy(), neg.copy()) for k in (kernels.ks_kernel,
                                                     kernels.youden_j_max_kernel,
                                                     kernels.average_precision_kernel)}
    calls: list[int] = []
    real = np.cumsum

    def counting(*a: Any, **kw: Any) -> Any:
        calls.append(1)
        return real(*a, **kw)

    with pytest.MonkeyPatch.context() as mp, kernels.sharing():
        mp.setattr(kernels.np, "cumsum", counting)
        for k, want in alone.items():
            np.testing.assert_array_equal(k(pos, neg), want)
        assert len(calls) == 2  # TP and FP, once for the three
        other = pos.copy()
        np.testing.assert_array_equal(kernels.ks_kernel(other, neg), alone[kernels.ks_kernel])
        assert len(calls) == 4
        auc = kernels.auc_kernel(pos, neg)
        gini = kernels.gini_kernel(pos, neg)
        assert len(calls) == 5  # the AUC's FP, once for both
        auc[:] = 0.0  # the caller's copy: the shared values stay
        rie = kernels.rie_kernel(pos, neg, alpha=20.0)
        kernels.bedroc_kernel(pos, neg, alpha=20.0)
        assert len(calls) == 6  # the cases above each group, once for both
        kernels.bedroc_kernel(pos, neg, alpha=5.0)
        assert len(calls) == 7  # another alpha: computed afresh
        rie[:] = 0.0
    np.testing.assert_array_equal(kernels.rie_kernel(pos, neg, alpha=20.0),
                                  kernels.rie_kernel(pos.copy(), neg.copy(), alpha=20.0))
    np.testing.assert_array_equal(gini, 2.0 * kernels.auc_kernel(pos.copy(), neg) - 1.0)
    np.testing.assert_array_equal(kernels.auc_kernel(pos, neg),
                                  kernels.auc_kernel(pos.copy(), neg.copy()))
    calls.clear()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(kernels.np, "cumsum", counting)
        kernels.ks_kernel(pos, neg)
        kernels.youden_j_max_kernel(pos, neg)
    assert len(calls) == 4
