"""Cluster bootstrap (sums of cluster count tables) against a brute-force resampling of the
rows on the same draws; Obuchowski's clustered AUC variance against the formula written
out pair by pair."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from binmetrics import CountTable
from binmetrics.exceptions import UndefinedMeasureWarning
from binmetrics.inference import auc_variance
from binmetrics.inference.clustered import (
    ClusteredTable,
    cluster_bootstrap,
    cluster_draws,
    clustered_auc_ci,
    clustered_auc_variance,
)
from binmetrics.measures import get_measure


def _data(seed: int, k: int = 30, weights: bool = False):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 5, k)
    patient = np.repeat(np.array([f"p{i}" for i in range(k)]), sizes)
    n = patient.size
    y = rng.integers(0, 2, n)
    base = rng.random(k)[np.repeat(np.arange(k), sizes)]
    p = np.round(np.clip(0.35 * y + 0.5 * base + 0.2 * rng.random(n), 0, 1), 1)  # ties
    w = rng.integers(1, 4, n).astype(float) if weights else None
    return y, p, patient, w


@pytest.mark.parametrize("weights", [False, True])
def test_equals_brute_force_cluster_resampling_of_rows(weights: bool) -> None:
    y, p, patient, w = _data(0, weights=weights)
    measures = ["auc", "tpr", "mcc", "ap"]
    res = cluster_bootstrap(y, p, measures, clusters=patient, n_resamples=60,
                            random_state=7, sample_weight=w, threshold=0.5)
    ct = ClusteredTable.of(y, p, patient, sample_weight=w)
    draws = cluster_draws(ct, 60, random_state=7)
    rows_of = {name: np.flatnonzero(patient == name) for name in ct.names}
    for b, drawn in enumerate(draws):
        rows = np.concatenate([rows_of[ct.names[c]] for c in drawn])
        table = CountTable.from_arrays(y[rows], p[rows],
                                       sample_weight=None if w is None else w[rows])
        for m in measures:
            meas = get_measure(m)
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", UndefinedMeasureWarning)
                try:
                    arg = table.confusion(0.5) if meas.family == "confusion" else table
                    want = float(meas.func(arg))
                except Exception:  # a replicate of one class
                    want = math.nan
            got = res.replicates[meas.id][b]
            if math.isnan(want):
                assert math.isnan(got)
            else:
                assert got == pytest.approx(want, abs=1e-12), (b, m)


def _obuchowski_direct(y, s, clusters) -> float:
    """The formula with psi over every (positive, negative) pair (Obuchowski 1997)."""
    y = np.asarray(y).astype(bool)
    s = np.asarray(s, dtype=float)
    x, z = s[y], s[~y]
    M, N = x.size, z.size
    psi = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
    theta = psi.mean()
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    names = list(dict.fromkeys(clusters))
    cl = np.asarray(clusters)
    cx, cz = cl[y], cl[~y]
    V10 = np.array([v10[cx == c].sum() for c in names])
    V01 = np.array([v01[cz == c].sum() for c in names])
    m = np.array([(cx == c).sum() for c in names])
    n = np.array([(cz == c).sum() for c in names])
    k, I10, I01 = len(names), int((m > 0).sum()), int((n > 0).sum())
    s10 = I10 / ((I10 - 1) * M) * np.sum((V10 - m * theta) ** 2)
    s01 = I01 / ((I01 - 1) * N) * np.sum((V01 - n * theta) ** 2)
    s11 = k / (k - 1) * np.sum((V10 - m * theta) * (V01 - n * theta))
    return float(s10 / M + s01 / N + 2 * s11 / (M * N))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_obuchowski_variance_equals_the_formula(seed: int) -> None:
    y, p, patient, _ = _data(seed, k=25)
    assert clustered_auc_variance(y, p, clusters=patient) == pytest.approx(
        _obuchowski_direct(y, p, patient), rel=1e-12)


def test_one_case_per_cluster_is_delong() -> None:
    y, p, _, _ = _data(3)
    assert clustered_auc_variance(y, p, clusters=np.arange(y.size)) == pytest.approx(
        auc_variance(y, p), rel=1e-12)


def test_worked_example_and_interval() -> None:
    y = [1, 0, 1, 0, 1, 0, 0, 1]
    s = [.9, .8, .7, .3, .6, .2, .4, .5]
    c = [1, 1, 2, 2, 3, 3, 4, 4]
    assert clustered_auc_variance(y, s, clusters=c) == pytest.approx(
        _obuchowski_direct(y, s, c), rel=1e-12)
    iv = clustered_auc_ci(y, s, clusters=c)
    half = 1.959963984540054 * math.sqrt(_obuchowski_direct(y, s, c))
    assert iv.method == "obuchowski" and iv.estimate == 0.8125
    assert iv.low == pytest.approx(0.8125 - half) and iv.high == min(1.0, 0.8125 + half)


def test_clusters_of_the_wrong_length_and_missing() -> None:
    y, p, patient, _ = _data(4)
    with pytest.raises(ValueError, match=r"one cluster per case: \d+ values for \d+ cases"):
        cluster_bootstrap(y, p, "auc", clusters=patient[:-1])
    bad = patient.astype(object)
    bad[0] = None
    with pytest.raises(ValueError, match="1 missing value"):
        clustered_auc_variance(y, p, clusters=bad)
    res = cluster_bootstrap(y, p, "auc", clusters=patient, n_resamples=20, random_state=0)
    with pytest.raises(ValueError, match="jackknife over clusters"):
        res.ci("auc", kind="bca")


def test_one_class_replicates_are_undefined() -> None:
    y = np.array([1, 1, 0, 0])
    p = np.array([.9, .8, .3, .2])
    res = cluster_bootstrap(y, p, "auc", clusters=["a", "a", "b", "b"], n_resamples=200,
                            random_state=0)
    assert 0 < res.n_undefined["auc"] < 200  # a replicate drawing "a" twice has no negative
    with pytest.warns(UndefinedMeasureWarning, match="undefined"):
        res.ci("auc")


# --- compare(..., clusters=) ------------------------------------------------------------------
def test_compare_cluster_bootstrap_equals_rows_of_the_drawn_clusters() -> None:
    import binmetrics as bm

    y, p, patient, _ = _data(5, k=40)
    rng = np.random.default_rng(9)
    q = np.round(np.clip(p + 0.2 * rng.standard_normal(p.size), 0, 1), 2)
    cmp = bm.compare(y, {"A": p, "B": q}, measures=["auc", "accuracy", "mcc"],
                     clusters=patient, n_resamples=40, random_state=3)
    assert cmp.methods["accuracy"] == "bootstrap"  # McNemar gives way to the clusters
    assert cmp.result("A", "B", "auc").method == "obuchowski"
    codes = {name: i for i, name in enumerate(dict.fromkeys(patient))}
    members = [np.flatnonzero(patient == name) for name in codes]
    draw = np.random.default_rng(3)
    for b in range(40):
        rows = np.concatenate([members[c] for c in draw.integers(0, len(members),
                                                                  len(members))])
        for name, s in (("A", p), ("B", q)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = bm.evaluate(y[rows], s[rows])["mcc"]
            assert cmp.replicates[name]["mcc"][b] == pytest.approx(want, abs=1e-12)


def _obuchowski_cov_direct(y, s1, s2, clusters) -> float:
    """The two-model covariance term of Obuchowski (1997), pair by pair."""
    y = np.asarray(y).astype(bool)
    cl = np.asarray(clusters)
    names = list(dict.fromkeys(clusters))
    M, N = int(y.sum()), int((~y).sum())
    comps = []
    for s in (s1, s2):
        x, z = s[y], s[~y]
        psi = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
        th = psi.mean()
        V10 = np.array([psi.mean(axis=1)[cl[y] == c].sum() for c in names])
        V01 = np.array([psi.mean(axis=0)[cl[~y] == c].sum() for c in names])
        m = np.array([(cl[y] == c).sum() for c in names])
        n = np.array([(cl[~y] == c).sum() for c in names])
        comps.append((V10 - m * th, V01 - n * th))
    k, I10, I01 = len(names), int((m > 0).sum()), int((n > 0).sum())
    s10 = I10 / ((I10 - 1) * M) * np.sum(comps[0][0] * comps[1][0])
    s01 = I01 / ((I01 - 1) * N) * np.sum(comps[0][1] * comps[1][1])
    s11_12 = k / (k - 1) * np.sum(comps[0][0] * comps[1][1])
    s11_21 = k / (k - 1) * np.sum(comps[1][0] * comps[0][1])
    return float(s10 / M + s01 / N + (s11_12 + s11_21) / (M * N))


def test_clustered_delong_pair_uses_obuchowskis_covariance() -> None:
    import binmetrics as bm

    y, p, patient, _ = _data(6, k=30)
    q = np.round(np.clip(p[::-1] * 0.5 + 0.5 * p, 0, 1), 2)
    t = bm.compare(y, {"A": p, "B": q}, measures=["auc"], clusters=patient).results[0]
    var = (_obuchowski_direct(y, p, patient) + _obuchowski_direct(y, q, patient)
           - 2 * _obuchowski_cov_direct(y, p, q, patient))
    assert t.detail.sigma == pytest.approx(math.sqrt(var), rel=1e-10)
    # one case per cluster: DeLong's paired test
    single = bm.compare(y, {"A": p, "B": q}, measures=["auc"],
                        clusters=np.arange(y.size)).results[0]
    plain = bm.delong_test(y, p, q)
    assert single.pvalue == pytest.approx(plain.pvalue, rel=1e-9)
    assert single.detail.sigma == pytest.approx(plain.sigma, rel=1e-9)


def test_compare_clusters_bad_input() -> None:
    import binmetrics as bm

    y, p, patient, w = _data(7, weights=True)
    with pytest.raises(ValueError, match="one cluster per case"):
        bm.compare(y, {"A": p, "B": p[::-1]}, clusters=patient[1:])
    with pytest.raises(ValueError, match="unweighted"):
        bm.compare(y, {"A": p, "B": p[::-1]}, clusters=patient, sample_weight=w)
    with pytest.raises(ValueError, match="McNemar's test of accuracy assumes independent"):
        bm.compare(y, {"A": p, "B": p[::-1]}, clusters=patient,
                   method={"accuracy": "mcnemar"})
