"""``bm.evaluate(y, p, clusters=...)``: the evaluation's intervals resample clusters
(binmetrics.evaluation.clustered_ci), equal to cluster_bootstrap on the same draws and to
a brute-force resampling of the drawn clusters' rows; Obuchowski's interval for the AUC."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import binmetrics as bm
from binmetrics import CountTable
from binmetrics.exceptions import UndefinedMeasureWarning
from binmetrics.inference import cluster_bootstrap
from binmetrics.inference.clustered import (
    ClusteredTable,
    cluster_draws,
    clustered_auc_ci,
    clustered_auc_variance,
)
from binmetrics.measures import get_measure


def _data(seed: int, k: int = 30, weights: bool = False):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 5, k)
    patient = np.repeat(np.array([f"p{i}" for i in range(k)]), sizes)
    rng.shuffle(patient)  # a patient's rows need not be contiguous
    n = patient.size
    y = rng.integers(0, 2, n)
    base = dict(zip(np.unique(patient), rng.random(k), strict=True))
    p = np.round(np.clip(0.35 * y + 0.5 * np.array([base[c] for c in patient])
                         + 0.2 * rng.random(n), 0, 1), 1)  # ties
    w = rng.integers(1, 4, n).astype(float) if weights else None
    return y, p, patient, w


def _replicates(ev: bm.Evaluation, measures: list[str], B: int, seed: int):
    ms = [get_measure(m) for m in measures]
    return ev._bootstrap(ms, {}, B, True, seed, None, ev._clustered).replicates


@pytest.mark.parametrize("weights", [False, True])
def test_ci_equals_cluster_bootstrap_and_brute_force(weights: bool) -> None:
    y, p, patient, w = _data(0, weights=weights)
    measures = ["auc", "tpr", "mcc", "ap", "brier"]
    ev = bm.evaluate(y, p, sample_weight=w, clusters=patient)
    assert ev.n_clusters == 30
    res = cluster_bootstrap(y, p, measures, clusters=patient, n_resamples=80,
                            random_state=3, sample_weight=w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        reps = _replicates(ev, measures, 80, 3)
        for m in measures:
            got = ev.ci(m, method="bootstrap", n_resamples=80, random_state=3)
            assert (got.low, got.high) == tuple(res.ci(get_measure(m).id))
    ct = ClusteredTable.of(y, p, patient, sample_weight=w)
    rows_of = {name: np.flatnonzero(patient == name) for name in ct.names}
    for b, drawn in enumerate(cluster_draws(ct, 80, random_state=3)):
        rows = np.concatenate([rows_of[ct.names[c]] for c in drawn])
        table = CountTable.from_arrays(y[rows], p[rows],
                                       sample_weight=None if w is None else w[rows])
        for m in measures:
            meas = get_measure(m)
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", UndefinedMeasureWarning)
                try:
                    want = float(meas.func(table.confusion(0.5) if meas.family == "confusion"
                                           else table))
                except Exception:  # a replicate of one class
                    want = math.nan
            got = reps[meas.id][b]
            assert (math.isnan(got) and math.isnan(want)) or got == pytest.approx(
                want, abs=1e-12), (b, m)


def test_auc_gets_obuchowskis_interval() -> None:
    y, p, patient, _ = _data(1)
    ev = bm.evaluate(y, p, clusters=patient)
    want = clustered_auc_ci(y, p, clusters=patient, level=0.9)
    for method in ("auto", "delong", "obuchowski"):
        got = ev.ci("auc", method=method, level=0.9)
        assert got.method == "obuchowski"
        assert (got.low, got.high) == pytest.approx((want.low, want.high), abs=1e-12)
    _, var = ev._clustered.auc_variance()
    assert var == pytest.approx(clustered_auc_variance(y, p, clusters=patient), rel=1e-12)
    table = ev.ci_table(["auc", "sensitivity"], n_resamples=50, random_state=0)
    assert table.method.tolist() == ["obuchowski", "bootstrap-percentile"]
    assert (table.low[0], table.high[0]) == tuple(ev.ci("auc"))
    # the proportion's closed form assumes independent cases: not offered
    with pytest.raises(ValueError, match="does not apply"):
        ev.ci("sensitivity", method="wilson")
    with pytest.raises(ValueError, match="does not apply to tpr on clustered"):
        ev.ci_table(["sensitivity"], method="wilson")
    # lower scores positive, and omitted rows: the same clusters' interval
    with pytest.warns(bm.BinmetricsWarning, match=r"threshold 0\.5 \(the default\) is outside"):
        neg_ev = bm.evaluate(y, -p, clusters=patient, higher_is_positive=False)
    neg = neg_ev.ci("auc", level=0.9)
    assert (neg.low, neg.high) == pytest.approx((want.low, want.high), abs=1e-12)
    q = p.astype(float).copy()
    q[:3] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        om = bm.evaluate(y, q, clusters=patient, nan_policy="omit").ci("auc")
    ref = clustered_auc_ci(y[3:], p[3:], clusters=patient[3:])
    assert (om.low, om.high) == pytest.approx((ref.low, ref.high), abs=1e-12)


def test_default_uses_the_clusters_and_false_ignores_them() -> None:
    y, p, patient, _ = _data(2)
    plain = bm.evaluate(y, p)
    ev = bm.evaluate(y, p, clusters=patient)
    kw = {"n_resamples": 60, "random_state": 0}
    assert ev.ci("mcc", clusters=False, **kw) == plain.ci("mcc", **kw)
    assert ev.ci("auc", clusters=False).method == "delong"
    assert ev.ci("mcc", **kw) == ev.ci("mcc", clusters=True, **kw) != plain.ci("mcc", **kw)
    # derived evaluations keep them
    assert ev.at_threshold(0.3).n_clusters == ev.calibrated(0.2).n_clusters == 30
    assert plain.n_clusters is None
    cal = bm.evaluate(y, p, clusters=patient, pi0=0.2)
    assert cal.ci("precision", **kw).method == "bootstrap-percentile"


def test_bad_clusters_are_one_line_errors() -> None:
    y, p, patient, _ = _data(3)
    with pytest.raises(ValueError, match=r"one cluster per case: 5 values for \d+ cases"):
        bm.evaluate(y, p, clusters=patient[:5])
    with pytest.raises(ValueError, match="missing value"):
        bm.evaluate(y, p, clusters=np.where(np.arange(y.size) == 0, None, patient))
    ev = bm.evaluate(y, p, clusters=patient)
    with pytest.raises(TypeError, match="keeps its count table, not its rows"):
        ev.ci("auc", clusters=patient)
    with pytest.raises(ValueError, match="clusters=True needs an evaluation built"):
        bm.evaluate(y, p).ci("auc", clusters=True)
    with pytest.raises(ValueError, match="jackknife over clusters"):
        ev.ci("mcc", kind="bca", n_resamples=50, random_state=0)
    with pytest.raises(ValueError, match="binary classifier"):
        bm.evaluate([0, 1, 2], [[.5, .3, .2], [.1, .8, .1], [.2, .2, .6]], clusters=[1, 2, 3])
    with pytest.raises(ValueError) as err:
        bm.evaluate(y, p, clusters=patient[:5])
    assert "\n" not in str(err.value)


def test_too_few_clusters_is_nan_with_a_warning() -> None:
    ev = bm.evaluate([1, 0, 1, 0], [.9, .2, .8, .3], clusters=["a", "a", "a", "b"])
    with pytest.warns(UndefinedMeasureWarning, match="Obuchowski"):
        ci = ev.ci("auc")
    assert math.isnan(ci.low) and math.isnan(ci.high)
