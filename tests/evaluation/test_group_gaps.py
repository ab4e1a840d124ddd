"""Between-group gaps of evaluate_by: fairlearn's MetricFrame numbers, bad input, and the
bootstrap of the gaps (same replicates for every group, test of no gap, coverage)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from fairlearn.metrics import MetricFrame, selection_rate
from sklearn.metrics import accuracy_score, precision_score, recall_score, roc_auc_score

import binmetrics as bm
from binmetrics.evaluation.group_gaps import gap_statistic
from binmetrics.exceptions import UndefinedMeasureWarning
from binmetrics.inference import bootstrap
from binmetrics.inference._replicates import replicate_streams

PREDICTED = {"tpr": recall_score, "ppv": precision_score, "selection_rate": selection_rate,
             "accuracy": accuracy_score}


def _data(seed: int, n: int = 4000, weights: bool = False) -> pd.DataFrame:
    """Two sensitive columns (intersections of unequal size), tied scores, a group effect."""
    rng = np.random.default_rng(seed)
    a = rng.choice(["f", "m", "x"], n, p=[0.5, 0.4, 0.1])
    b = rng.choice([1, 2, 3], n)
    y = rng.random(n) < np.where(a == "f", 0.3, 0.5)
    p = np.round(np.clip(0.35 * y + rng.random(n) * 0.7 + 0.05 * (b == 2), 0, 1), 2)
    df = pd.DataFrame({"a": a, "b": b, "y": y.astype(int), "p": p})
    if weights:
        df["w"] = rng.integers(1, 5, n).astype(float) * rng.choice([0.5, 1.0, 1.7], n)
    return df


def _frames(df: pd.DataFrame, by: list[str], weighted: bool) -> tuple[bm.ByResult, MetricFrame,
                                                                       MetricFrame]:
    g = bm.evaluate_by(df, label="y", score="p", by=by, weight="w" if weighted else None,
                       measures=[*PREDICTED, "auc"])
    pred = (df["p"] >= 0.5).astype(int)
    sw = df["w"].to_numpy() if weighted else None
    params = None if sw is None else {k: {"sample_weight": sw} for k in PREDICTED}
    mf = MetricFrame(metrics=PREDICTED, y_true=df["y"], y_pred=pred,
                     sensitive_features=df[by], sample_params=params)
    auc = MetricFrame(metrics={"auc": roc_auc_score}, y_true=df["y"], y_pred=df["p"],
                      sensitive_features=df[by],
                      sample_params=None if sw is None else {"auc": {"sample_weight": sw}})
    return g, mf, auc


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("by", [["a"], ["a", "b"]])
@pytest.mark.parametrize("seed", [0, 1])
def test_agrees_with_fairlearn_metric_frame(seed: int, by: list[str], weighted: bool) -> None:
    df = _data(seed, weights=weighted)
    g, mf, auc = _frames(df, by, weighted)
    for frame, ids in ((mf, list(PREDICTED)), (auc, ["auc"])):
        for m in ids:
            theirs = frame.by_group[m]
            ours = g.by_group(m)
            assert list(ours.index) == list(theirs.index)
            np.testing.assert_allclose(ours.to_numpy(), theirs.to_numpy(), rtol=0, atol=1e-12)
            assert g.overall[m] == pytest.approx(frame.overall[m], abs=1e-12)
            assert g.group_min(m) == pytest.approx(frame.group_min()[m], abs=1e-12)
            assert g.group_max(m) == pytest.approx(frame.group_max()[m], abs=1e-12)
            for method in ("between_groups", "to_overall"):
                assert g.difference(m, method=method) == pytest.approx(
                    frame.difference(method=method)[m], abs=1e-12)
                assert g.ratio(m, method=method) == pytest.approx(
                    frame.ratio(method=method)[m], abs=1e-12)


def test_empty_intersection_is_absent() -> None:
    """An intersection with no rows is no group of ours; fairlearn's by_group has no row
    for it either, and the gaps agree."""
    df = _data(3)
    df = df[~((df["a"] == "x") & (df["b"] == 3))]
    g, mf, _ = _frames(df, ["a", "b"], False)
    assert ("x", 3) not in g.keys
    assert g.difference("tpr") == pytest.approx(mf.difference()["tpr"], abs=1e-12)


def test_gap_statistic_formulas() -> None:
    v = np.array([0.2, 0.5, 0.4])
    assert gap_statistic("difference", "between_groups", v) == pytest.approx(0.3)
    assert gap_statistic("difference", "to_overall", v, 0.45) == pytest.approx(0.25)
    assert gap_statistic("ratio", "between_groups", v) == pytest.approx(0.4)
    assert gap_statistic("ratio", "to_overall", v, 0.45) == pytest.approx(0.2 / 0.45)
    assert math.isnan(gap_statistic("ratio", "between_groups", np.zeros(3)))


# --- bad input -----------------------------------------------------------------------------
def _small() -> pd.DataFrame:
    return pd.DataFrame({
        "g": ["a"] * 6 + ["b"] * 6 + ["c"],
        "y": [1, 1, 1, 0, 0, 0] * 2 + [1],
        "p": [.9, .8, .3, .6, .2, .1, .9, .4, .3, .2, .2, .1, .9]})


def test_small_group_left_out_with_a_warning_naming_it() -> None:
    g = bm.evaluate_by(_small(), label="y", score="p", by="g", measures=["tpr"])
    with pytest.warns(UndefinedMeasureWarning, match=r"left out .*tpr: c \(1 row, fewer than "
                                                     r"min_cases=2\)"):
        d = g.difference("tpr")
    assert d == pytest.approx(2 / 3 - 1 / 3)


def test_nan_key_is_a_named_group() -> None:
    df = _small()
    df["g"] = df["g"].replace({"c": None}).astype(object)
    df.loc[12, "g"] = float("nan")
    df = pd.concat([df, pd.DataFrame({"g": [float("nan")] * 3, "y": [0, 1, 0],
                                      "p": [.8, .7, .1]})], ignore_index=True)
    g = bm.evaluate_by(df, label="y", score="p", by="g", measures=["tpr"])
    s = g.by_group("tpr")
    assert len(s) == 3 and pd.isna(s.index[-1]) and s.iloc[-1] == 1.0
    g2 = bm.evaluate_by(df.iloc[:13], label="y", score="p", by="g", measures=["tpr"])
    with pytest.warns(UndefinedMeasureWarning, match=r": nan \(1 row, fewer"):
        g2.difference("tpr")


def test_undefined_group_value_is_left_out() -> None:
    df = _small().iloc[:12].copy()
    df.loc[6:11, "p"] = 0.1  # group b predicts nothing positive: its PPV is undefined
    with pytest.warns(UndefinedMeasureWarning, match="nothing is predicted positive"):
        g = bm.evaluate_by(df, label="y", score="p", by="g", measures=["ppv"])
    with pytest.warns(UndefinedMeasureWarning, match=r"b \(ppv is undefined\)"), \
            pytest.raises(ValueError, match="needs at least 2 groups where it is defined"):
        g.difference("ppv")


def test_ratio_with_zero_denominator_is_nan_with_reason() -> None:
    df = _small().iloc[:12].copy()
    df["p"] = 0.1  # nothing predicted positive anywhere: every TPR is 0
    g = bm.evaluate_by(df, label="y", score="p", by="g", measures=["tpr"])
    with pytest.warns(UndefinedMeasureWarning, match="largest group value is 0"):
        assert math.isnan(g.ratio("tpr"))
    with pytest.warns(UndefinedMeasureWarning, match="overall value is 0"):
        assert math.isnan(g.ratio("tpr", method="to_overall"))


def test_one_group_and_bad_method_are_errors() -> None:
    df = _small().iloc[:6]
    g = bm.evaluate_by(df, label="y", score="p", by="g", measures=["tpr"])
    with pytest.raises(ValueError, match=r"g has one group \(a\)"):
        g.difference("tpr")
    g = bm.evaluate_by(_small().iloc[:12], label="y", score="p", by="g", measures=["tpr"])
    with pytest.raises(ValueError, match="method must be"):
        g.difference("tpr", method="pairwise")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"to_overall.*confusion"):
        g.difference("auc", method="to_overall", ci=True, n_resamples=10)


# --- the bootstrap of the gaps ------------------------------------------------------------
def test_gap_replicates_are_the_gaps_of_the_group_replicates() -> None:
    df = _data(5, n=6000)  # every group holds > 40 positives: multinomial draws
    g = bm.evaluate_by(df, label="y", score="p", by=["a", "b"], measures=["tpr"])
    r = g.difference("tpr", ci=True, n_resamples=300, random_state=1)
    streams = g._streams(1)  # the stream of each group
    groups = []
    for key in g.keys:  # a group's replicates redrawn by hand on its own rows
        ev = g.evaluations[key]
        c = ev.confusion
        (rng, _), = replicate_streams(streams[key], 300, 300)  # one stream: 300 replicates
        tp = rng.multinomial(c.tp + c.fn, [c.tp / (c.tp + c.fn), c.fn / (c.tp + c.fn)], 300)
        groups.append(tp[:, 0] / (c.tp + c.fn))
    groups = np.array(groups)
    np.testing.assert_allclose(r.replicates, groups.max(axis=0) - groups.min(axis=0),
                               atol=1e-15)
    # the per-group intervals come from the same replicates
    lo = np.quantile(groups, 0.025, axis=1)
    np.testing.assert_allclose(r.by_group["low"], lo, atol=1e-15)
    assert r.ci.low == pytest.approx(np.quantile(r.replicates, 0.025))
    # same seed, same result; the group streams do not depend on the measure
    again = g.difference("tpr", ci=True, n_resamples=300, random_state=1)
    np.testing.assert_array_equal(again.replicates, r.replicates)


def test_ranking_measure_uses_the_table_bootstrap_of_each_group() -> None:
    df = _data(6, n=800)
    g = bm.evaluate_by(df, label="y", score="p", by="a", measures=["auc"])
    r = g.difference("auc", ci=True, n_resamples=200, random_state=3)
    streams = g._streams(3)
    reps = np.array([bootstrap(g.tables[k], "auc", n_resamples=200,
                               random_state=streams[k]).replicates["auc"] for k in g.keys])
    np.testing.assert_allclose(r.replicates, reps.max(axis=0) - reps.min(axis=0), atol=1e-15)


def test_to_overall_replicates_sum_the_groups_counts() -> None:
    df = _data(7, n=1200, weights=True)
    g = bm.evaluate_by(df, label="y", score="p", by="a", weight="w", measures=["ppv"])
    reps, overall = g._replicates(bm.get_measure("ppv"), list(g.keys), None, 50, 4,
                                  need_overall=True)
    assert overall is not None and reps.shape == (3, 50)
    # each replicate's overall PPV lies between the groups' (a weighted mean of them)
    assert np.all(overall >= reps.min(axis=0) - 1e-12)
    assert np.all(overall <= reps.max(axis=0) + 1e-12)
    r = g.difference("ppv", method="to_overall", ci=True, n_resamples=200, random_state=0)
    assert r.ci.low <= r.estimate <= r.ci.high and r.n_undefined == 0


def test_pvalue_small_for_a_real_gap_and_not_for_none() -> None:
    rng = np.random.default_rng(11)
    n = 2000
    g_col = rng.choice(["a", "b"], n)
    y = rng.integers(0, 2, n)
    shift = np.where(g_col == "a", 0.25, 0.0)
    p = np.clip(0.3 * y + 0.6 * rng.random(n) + shift * y, 0, 1)
    df = pd.DataFrame({"g": g_col, "y": y, "p": p})
    g = bm.evaluate_by(df, label="y", score="p", by="g", measures=["tpr"])
    assert g.difference("tpr", ci=True, n_resamples=500, random_state=0).pvalue < 0.01
    df["p"] = np.clip(0.3 * y + 0.6 * rng.random(n), 0, 1)
    g = bm.evaluate_by(df, label="y", score="p", by="g", measures=["tpr"])
    assert g.difference("tpr", ci=True, n_resamples=500, random_state=0).pvalue > 0.05


def test_gap_result_shows_and_tabulates() -> None:
    g = bm.evaluate_by(_data(8, n=600), label="y", score="p", by="a", measures=["tpr"])
    r = g.ratio("tpr", ci=True, n_resamples=100, random_state=0)
    assert isinstance(r, bm.HypothesisTest)
    row = r.to_frame().iloc[0]
    assert row["kind"] == "ratio" and row["pvalue"] == r.pvalue and row["low"] == r.ci.low
    assert "GapResult(ratio of tpr" in repr(r)
    assert list(r.by_group.columns) == ["a", "value", "low", "high"]


# --- a common prevalence (Siblini et al.) ---------------------------------------------------
def test_pi0_compares_calibrated_values() -> None:
    df = _data(9, n=3000)
    g = bm.evaluate_by(df, label="y", score="p", by="a", measures=["ppv", "tpr"], pi0="mean")
    # the same values as evaluate_by's own calibrated columns
    frame = g.to_frame().set_index("a")
    np.testing.assert_allclose(g.by_group("ppv", pi0="mean").to_numpy(),
                               frame["ppv_cal"].to_numpy(), atol=1e-15)
    assert g.difference("ppv", pi0="mean") == pytest.approx(
        frame["ppv_cal"].max() - frame["ppv_cal"].min(), abs=1e-15)
    # a prevalence-independent measure does not move
    assert g.difference("tpr", pi0=0.2) == pytest.approx(g.difference("tpr"), abs=1e-15)
    # calibrated replicates: c_g fixed per group (stratified), PPV = TP / (TP + c FP)
    r = g.difference("ppv", pi0=0.3, ci=True, n_resamples=200, random_state=0)
    assert r.pi0 == 0.3 and r.ci.low <= r.estimate <= r.ci.high


def test_pi0_on_ranking_measure_bootstraps_calibrated_tables() -> None:
    df = _data(10, n=900)
    g = bm.evaluate_by(df, label="y", score="p", by="a", measures=["ap"])
    r = g.difference("ap", pi0=0.5, ci=True, n_resamples=60, random_state=0)
    assert r.estimate == pytest.approx(g.difference("ap", pi0=0.5))
    assert r.estimate != pytest.approx(g.difference("ap"))
    assert r.n_undefined == 0


# --- coverage ------------------------------------------------------------------------------
@pytest.mark.slow
def test_interval_of_the_gap_covers_at_the_nominal_rate() -> None:
    """1000 data sets of two groups (400 positives each, TPR 0.6 and 0.75): the 95%
    percentile interval of the TPR difference covers the true 0.15 in 0.95 +- 0.02."""
    rng = np.random.default_rng(2024)
    covered = 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for i in range(1000):
            y = np.r_[np.ones(400), np.zeros(400), np.ones(400), np.zeros(400)].astype(int)
            hit = np.r_[rng.random(400) < 0.6, rng.random(400) < 0.3,
                        rng.random(400) < 0.75, rng.random(400) < 0.3]
            df = pd.DataFrame({"g": np.repeat(["a", "b"], 800), "y": y,
                               "p": np.where(hit, 0.9, 0.1)})
            g = bm.evaluate_by(df, label="y", score="p", by="g", measures=["tpr"])
            r = g.difference("tpr", ci=True, n_resamples=1000, random_state=i)
            covered += r.ci.low <= 0.15 <= r.ci.high
    assert abs(covered / 1000 - 0.95) <= 0.02


def test_chart_of_the_groups() -> None:
    g = bm.evaluate_by(_data(12, n=900), label="y", score="p", by=["a", "b"],
                       measures=["tpr"])
    cd = g.chart("tpr", n_resamples=100, random_state=0)
    r = g.difference("tpr", ci=True, n_resamples=100, random_state=0)
    seg, marks, overall = cd.series
    np.testing.assert_array_equal(marks.y, r.by_group["value"].to_numpy())
    np.testing.assert_array_equal(seg.y[0::3], r.by_group["low"].to_numpy())
    np.testing.assert_array_equal(seg.y[1::3], r.by_group["high"].to_numpy())
    assert overall.y[0] == pytest.approx(g.overall["tpr"])
    assert cd.xticks is not None and cd.xticks[1][0] == "f, 1"
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    ax = g.plot_groups("tpr", n_resamples=50, random_state=0)
    assert ax.get_xticklabels()[0].get_text() == "f, 1"
