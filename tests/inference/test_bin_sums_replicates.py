"""The bootstrap of ECE and MCE from per-bin sums (binmetrics.inference._replicate_bins):
each replicate equals the measure on the replicate's table (its bins' counts bit for
bit), on tied, weighted and extreme scores (0, 1 and bin edges), stratified or not, in
parallel streams; no replicate table is built for uniform bins, quantile bins keep the
table path; intervals equal the table path's."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.exceptions import undefined_policy
from binmetrics.inference import _replicates as rs
from binmetrics.inference._replicate_bins import _BinsPlan
from binmetrics.inference.resampling import bootstrap, bootstrap_tables
from binmetrics.measures import registry
from binmetrics.measures.calibration import calibration_bins

CASES = [("ece", {}), ("ece", {"norm": "l2", "n_bins": 7}), ("ece", {"norm": "max"}),
         ("mce", {"n_bins": 15}), ("ece", {"n_bins": 1}), ("mce", {})]


def _data(kind: str, seed: int = 7, n: int = 500) -> tuple[Any, Any, Any, Any]:
    """Labels, scores and weights of ``kind``, and the n_cases the bootstrap draws."""
    rng = np.random.default_rng(seed)
    s = rng.random(n)
    y = rng.random(n) < 0.8 * s + 0.1
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
    elif kind == "extreme":  # 0, 1, bin edges (0.1, 0.5 of ten bins) and next to them
        s[:30], s[30:60], s[60:90], s[90:110] = 0.0, 1.0, 0.5, 0.1
        s[110:120], s[120:130] = np.nextafter(0.1, 1.0), 1e-300
    return y, s, w, n_cases


def _table(kind: str, **kw: Any) -> tuple[bm.CountTable, Any]:
    y, s, w, n_cases = _data(kind, **kw)
    return bm.CountTable.from_arrays(y, s, sample_weight=w), n_cases


def _draws(n_cases: Any, stratified: bool) -> dict[str, Any]:
    if n_cases is None:
        return {}
    return {"n_cases": n_cases if stratified else sum(n_cases)}


@pytest.mark.parametrize("kind", ["continuous", "tied", "heavy_ties", "weighted",
                                  "fractional", "extreme"])
@pytest.mark.parametrize("stratified", [True, False])
def test_replicates_equal_the_measure_on_each_replicate_table(kind: str,
                                                              stratified: bool) -> None:
    t, n_cases = _table(kind)
    kw = {"n_resamples": 30, "random_state": 3, "stratified": stratified,
          **_draws(n_cases, stratified)}
    tables = list(bootstrap_tables(t, **kw))
    for m, p in CASES:
        res = bootstrap(t, m, params={m: p}, **kw)
        with undefined_policy("ignore"):
            ref = np.array([bm.get_measure(m).func(tab, **p) for tab in tables])
        assert np.isfinite(ref).all()
        np.testing.assert_allclose(res.replicates[m], ref, rtol=1e-12, atol=0,
                                   err_msg=f"{m} {p}")


@pytest.mark.parametrize("kind", ["tied", "weighted", "extreme", "continuous"])
@pytest.mark.parametrize("stratified", [True, False])
def test_the_bins_counts_are_the_replicate_tables_bit_for_bit(kind: str,
                                                              stratified: bool) -> None:
    t, _ = _table(kind)
    sampler = rs._BootstrapSampler(t, stratified)
    rng = np.random.default_rng(5)
    block = next(sampler.blocks(rng, 12))
    edges = np.linspace(0.0, 1.0, 11)
    sums = _BinsPlan(sampler, edges).sums(block.cell_counts(),
                                          tuple(s.unit_weight for s in sampler.strata),
                                          t.weighted)
    for i, tab in enumerate(block.tables()):
        ref = calibration_bins(tab, 10)
        names = ("weight", "positives", "sum_p", "sum_p2", "sum_py")
        for k, name in enumerate(names):
            if name in ("weight", "positives") and not t.weighted:
                np.testing.assert_array_equal(sums[k][i], getattr(ref, name), err_msg=name)
            else:
                np.testing.assert_allclose(sums[k][i], getattr(ref, name), rtol=1e-13,
                                           atol=0, err_msg=name)


def test_replicates_in_parallel_streams_equal_the_tables() -> None:
    """30,000 cases: the streams run in threads; each replicate is still its table's."""
    y, s, _, _ = _data("continuous", n=30_000)
    t = bm.CountTable.from_arrays(y, np.round(s, 4))
    res = bootstrap(t, ["ece", "mce"], n_resamples=48, random_state=9)
    tables = list(bootstrap_tables(t, 48, random_state=9))
    for m in ("ece", "mce"):
        ref = np.array([bm.get_measure(m).func(tab) for tab in tables])
        np.testing.assert_allclose(res.replicates[m], ref, rtol=1e-12, atol=0)


def test_uniform_bins_build_no_replicate_table_quantile_bins_do(
        tables_built: list[int]) -> None:
    built = tables_built
    t, _ = _table("tied")
    bootstrap(t, ["ece", "mce"], n_resamples=20, random_state=0,
              params={"ece": {"n_bins": 20, "norm": "l2"}})
    assert built == []
    res = bootstrap(t, "ece", n_resamples=20, random_state=0,
                    params={"ece": {"strategy": "quantile"}})
    assert sum(built) == 20
    tables = list(bootstrap_tables(t, 20, random_state=0))
    ref = [bm.get_measure("ece").func(tab, strategy="quantile") for tab in tables]
    np.testing.assert_array_equal(res.replicates["ece"], ref)


def test_same_replicates_whatever_measures_are_asked() -> None:
    t, _ = _table("weighted")
    every = bootstrap(t, ["ece", "mce", "auc", "brier", "rie", "h_measure"],
                      n_resamples=30, random_state=11)
    for m in ("ece", "mce"):
        alone = bootstrap(t, m, n_resamples=30, random_state=11)
        np.testing.assert_array_equal(alone.replicates[m], every.replicates[m])


def _without_bin_sums(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table path: the measures' registry entries without their bin sums."""
    for m in ("ece", "mce"):
        monkeypatch.setitem(registry._REGISTRY, m,
                            replace(registry._REGISTRY[m], bin_sums=None))


@pytest.mark.parametrize("kind", ["continuous", "weighted", "extreme"])
def test_intervals_equal_the_table_paths(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    y, s, w, _ = _data(kind, n=400)
    ev = bm.evaluate(y, s, sample_weight=w)
    asked = [("ece", {}), ("ece", {"norm": "l2", "n_bins": 5}), ("mce", {})]
    got = [ev.ci(m, method="bootstrap", n_resamples=200, random_state=5, **p)
           for m, p in asked]
    table = ev.ci_table(["ece", "mce", "auc"], method="bootstrap", n_resamples=200,
                        random_state=5)
    _without_bin_sums(monkeypatch)
    assert registry.get_measure("ece").bin_sums is None
    for (m, p), ci in zip(asked, got, strict=True):
        ref = ev.ci(m, method="bootstrap", n_resamples=200, random_state=5, **p)
        assert ci.estimate == ref.estimate
        np.testing.assert_allclose([ci.low, ci.high], [ref.low, ref.high], rtol=1e-12)
    ref_table = ev.ci_table(["ece", "mce", "auc"], method="bootstrap", n_resamples=200,
                            random_state=5)
    np.testing.assert_allclose(table[["low", "high"]].to_numpy(dtype=float),
                               ref_table[["low", "high"]].to_numpy(dtype=float), rtol=1e-12)


def test_scores_outside_the_unit_interval_keep_the_tables_error() -> None:
    t = bm.CountTable.from_arrays([0, 1, 0, 1], [0.2, 1.5, 0.4, 0.9])
    with pytest.raises(ValueError, match="probabilit") as info:
        bootstrap(t, "ece", n_resamples=5, random_state=0)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("params, message", [
    ({"norm": "bogus"}, "norm must be one of"),
    ({"n_bins": 0}, "n_bins must be"),
    ({"strategy": "even"}, "strategy must be one of"),
])
def test_bad_parameters_raise_as_on_the_table(params: dict[str, Any], message: str) -> None:
    t, _ = _table("tied")
    with pytest.raises(ValueError, match=message):
        bootstrap(t, "ece", n_resamples=5, random_state=0, params={"ece": params})


def test_ece_and_mce_at_the_same_bins_share_a_blocks_sums(
        monkeypatch: pytest.MonkeyPatch) -> None:
    t, _ = _table("continuous")
    calls: list[int] = []
    real = _BinsPlan.sums
    monkeypatch.setattr(_BinsPlan, "sums", lambda self, *a: calls.append(1) or real(self, *a))
    both = bootstrap(t, ["ece", "mce"], n_resamples=12, random_state=1)
    shared = len(calls)
    alone = bootstrap(t, ["mce"], n_resamples=12, random_state=1)
    assert len(calls) == 2 * shared  # one set of sums per block, whether one reads it or two
    np.testing.assert_array_equal(both.replicates["mce"], alone.replicates["mce"])
