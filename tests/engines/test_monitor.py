"""bm.monitor: windows equal fresh evaluations, the change tests agree with their
references, the drift statistics with scipy, and bad input is a one-line error."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.comparison.ranks import holm_adjust
from binmetrics.engines import _windows as win
from binmetrics.inference import delong_test_unpaired, two_proportion_test


def _data(n: int = 3000, days: int = 30, seed: int = 0, shuffle: bool = True) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    t = pd.Timestamp("2026-01-01") + pd.to_timedelta(rng.integers(0, days * 24, n), "h")
    y = rng.random(n) < 0.3
    late = np.asarray(t >= pd.Timestamp("2026-01-20"))
    signal = np.where(late, 0.05, 0.3)
    p = np.clip(0.35 + signal * (2 * y - 1) + rng.normal(0, 0.2, n), 0, 1).round(2)  # ties
    df = pd.DataFrame({"ts": t, "y": y.astype(int), "p": p})
    if not shuffle:
        df = df.sort_values("ts", kind="stable").reset_index(drop=True)
    return df


REF = ("2026-01-01", "2026-01-10")


@pytest.mark.parametrize("shuffle", [True, False])
def test_every_window_equals_a_fresh_evaluation_of_its_rows(shuffle: bool) -> None:
    df = _data(shuffle=shuffle)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mon = bm.monitor(df, label="y", score="p", time="ts", window="7D", step="1D",
                         reference=REF, measures=[m.id for m in bm.iter_measures()],
                         threshold=0.4)
        frame = mon.to_frame()
        assert len(frame) == 30 - 7 + 1
        for k, row in frame.iterrows():
            rows = (df["ts"] >= row["start"]) & (df["ts"] < row["end"])
            fresh = bm.evaluate(df.loc[rows, "y"], df.loc[rows, "p"], threshold=0.4)
            ev = mon.evaluations[k]
            assert ev.table.equals(fresh.table)
            assert ev.table.pos.dtype == fresh.table.pos.dtype
            want, got = fresh.to_dict(), ev.to_dict()
            assert got.keys() == want.keys()
            for i in want:  # bit for bit, NaN where undefined
                assert got[i] == want[i] or (math.isnan(got[i]) and math.isnan(want[i])), i
            for i in mon.measures:
                v = row[i]
                assert v == want[i] or (math.isnan(v) and math.isnan(want[i])), i
            assert row["n"] == rows.sum() and row["positives"] == df.loc[rows, "y"].sum()


def test_sliding_is_subtraction_and_addition_and_exact() -> None:
    rng = np.random.default_rng(1)
    batches, raw = [], []
    for k in range(40):
        n = int(rng.integers(0, 30)) if k % 7 else 0  # empty batches too
        y = rng.random(n) < 0.4
        s = rng.integers(0, 12, n) / 10.0
        batches.append(win.batch_of(y, s))
        raw.append((y, s))
    for width in (1, 3, 7):
        n_windows = len(batches) - width + 1
        for k, b in enumerate(win.slide(batches, width, n_windows)):
            y = np.concatenate([r[0] for r in raw[k:k + width]])
            s = np.concatenate([r[1] for r in raw[k:k + width]])
            fresh = win.batch_of(y, s)
            np.testing.assert_array_equal(b.keys, fresh.keys)
            np.testing.assert_array_equal(b.pos, fresh.pos)
            np.testing.assert_array_equal(b.neg, fresh.neg)


def test_the_auc_change_is_pROCs_unpaired_delong_and_rates_a_two_proportion_test() -> None:
    df = _data(seed=3)
    mon = bm.monitor(df, label="y", score="p", time="ts", window="7D", step="7D",
                     reference=REF, measures=["auc", "tpr", "precision", "f1"])
    frame = mon.to_frame()
    ref_rows = (df["ts"] >= "2026-01-01") & (df["ts"] < "2026-01-11")
    ref_ev = bm.evaluate(df.loc[ref_rows, "y"], df.loc[ref_rows, "p"])
    tested = frame[~frame["in_reference"]]
    assert len(tested) >= 2
    for _, row in tested.iterrows():
        rows = (df["ts"] >= row["start"]) & (df["ts"] < row["end"])
        # pROC: roc.test(roc(y_w, p_w), roc(y_r, p_r), method="delong", paired=FALSE)
        t = delong_test_unpaired(df.loc[rows, "y"], df.loc[rows, "p"],
                                 df.loc[ref_rows, "y"], df.loc[ref_rows, "p"])
        assert row["auc_pvalue"] == pytest.approx(t.pvalue, rel=1e-12)
        ev = bm.evaluate(df.loc[rows, "y"], df.loc[rows, "p"])
        c, r = ev.confusion, ref_ev.confusion
        want = two_proportion_test((c.tp, c.tp + c.fn), (r.tp, r.tp + r.fn)).pvalue
        assert row["tpr_pvalue"] == pytest.approx(want, rel=1e-12)
        want = two_proportion_test((c.tp, c.tp + c.fp), (r.tp, r.tp + r.fp)).pvalue
        assert row["ppv_pvalue"] == pytest.approx(want, rel=1e-12)
        assert math.isnan(row["f1_pvalue"])  # no test for a non-proportion
        assert row["auc_change"] == pytest.approx(ev["auc"] - ref_ev["auc"], abs=1e-15)
    assert frame.loc[frame["in_reference"], "auc_pvalue"].isna().all()
    p = tested["auc_pvalue"].to_numpy()
    np.testing.assert_allclose(tested["auc_pvalue_adjusted"], holm_adjust(p), rtol=1e-15)
    assert (tested["auc_flagged"] == (tested["auc_pvalue_adjusted"] < 0.05)).all()
    assert tested["auc_flagged"].iloc[-1]  # the signal is gone after 2026-01-20


def test_the_change_tests_agree_with_statsmodels() -> None:
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    df = _data(seed=4)
    mon = bm.monitor(df, label="y", score="p", time="ts", window="5D", step="5D",
                     reference=REF, measures=["tpr", "fpr"])
    frame = mon.to_frame()
    ref = df[(df["ts"] >= "2026-01-01") & (df["ts"] < "2026-01-11")]
    tested = frame[~frame["in_reference"]]
    for _, row in tested.iterrows():
        w = df[(df["ts"] >= row["start"]) & (df["ts"] < row["end"])]
        k = [((w.p >= .5) & (w.y == 1)).sum(), ((ref.p >= .5) & (ref.y == 1)).sum()]
        n = [(w.y == 1).sum(), (ref.y == 1).sum()]
        assert row["tpr_pvalue"] == pytest.approx(proportion.proportions_ztest(k, n)[1],
                                                  rel=1e-10)
    p = tested["fpr_pvalue"].to_numpy()
    holm = multitest.multipletests(p, method="holm")[1]
    np.testing.assert_allclose(tested["fpr_pvalue_adjusted"], holm, rtol=1e-12)


def test_drift_is_scipys_ks_statistic_and_the_decile_psi() -> None:
    stats = pytest.importorskip("scipy.stats")
    df = _data(seed=5)
    mon = bm.monitor(df, label="y", score="p", time="ts", window="6D", step="3D",
                     reference=REF, measures=["auc"])
    drift = mon.drift()
    ref = df.loc[(df["ts"] >= "2026-01-01") & (df["ts"] < "2026-01-11"), "p"].to_numpy()
    edges = np.unique(np.quantile(ref, np.linspace(0.1, 0.9, 9)))
    r = np.histogram(ref, np.concatenate([[-np.inf], edges, [np.inf]]))[0] / ref.size
    for _, row in drift.iterrows():
        w = df.loc[(df["ts"] >= row["start"]) & (df["ts"] < row["end"]), "p"].to_numpy()
        assert row["ks"] == pytest.approx(stats.ks_2samp(w, ref).statistic, abs=1e-14)
        # right-closed bins (-inf, e1], ..., (e9, inf): counted by hand
        cuts = np.concatenate([[-np.inf], edges, [np.inf]])
        c = np.array([((w > lo) & (w <= hi)).sum() for lo, hi in itertools.pairwise(cuts)])
        rr = np.array([((ref > lo) & (ref <= hi)).sum() for lo, hi in itertools.pairwise(cuts)])
        wf, rf = np.maximum(c / w.size, 1e-4), np.maximum(rr / ref.size, 1e-4)
        assert row["psi"] == pytest.approx(np.sum((wf - rf) * np.log(wf / rf)), rel=1e-12)
    assert r.sum() == pytest.approx(1.0)
    assert drift["psi"].iloc[-1] > drift["psi"].iloc[0]


def test_ks_of_continuous_scores_with_interleaving() -> None:
    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(6)
    for _ in range(20):
        a = rng.normal(size=int(rng.integers(1, 40))).round(1)
        b = rng.normal(0.3, size=int(rng.integers(1, 40))).round(1)
        ba = win.batch_of(np.zeros(a.size, bool), a)
        bb = win.batch_of(np.zeros(b.size, bool), b)
        assert win.ks_statistic(ba, bb) == pytest.approx(stats.ks_2samp(a, b).statistic,
                                                         abs=1e-14)


def test_empty_and_one_class_windows_are_nan_with_a_reason() -> None:
    df = _data(days=20, seed=7)
    gap = (df["ts"] >= "2026-01-14") & (df["ts"] < "2026-01-16")
    df = df[~gap]
    one = (df["ts"] >= "2026-01-18")
    df.loc[one, "y"] = 0
    mon = bm.monitor(df, label="y", score="p", time="ts", window="1D", step="1D",
                     reference=REF, measures=["auc", "tpr"])
    f = mon.to_frame().set_index("start")
    assert f.loc["2026-01-14", "reason"] == "no rows"
    assert f.loc["2026-01-14", "n"] == 0 and math.isnan(f.loc["2026-01-14", "auc"])
    assert f.loc["2026-01-19", "reason"] == "no positives"
    assert math.isnan(f.loc["2026-01-19", "auc_pvalue"])
    assert f.loc["2026-01-12", "reason"] == ""


def test_duplicate_timestamps_are_kept_and_order_does_not_matter() -> None:
    df = _data(n=500, days=12, seed=8)
    df = pd.concat([df, df.iloc[:100]], ignore_index=True)  # exact duplicates
    a = bm.monitor(df, label="y", score="p", time="ts", reference=REF, measures=["auc"])
    b = bm.monitor(df.iloc[::-1], label="y", score="p", time="ts", reference=REF,
                   measures=["auc"])
    pd.testing.assert_frame_equal(a.to_frame(), b.to_frame())
    assert a.to_frame()["n"].iloc[0] == (df["ts"] < "2026-01-08").sum()


def test_intervals_are_each_windows_ci_table() -> None:
    df = _data(n=800, days=14, seed=9)
    mon = bm.monitor(df, label="y", score="p", time="ts", window="7D", step="7D",
                     reference=REF, measures=["auc", "tpr"], ci=True)
    f = mon.to_frame()
    t = mon.evaluations[1].ci_table(["auc", "tpr"]).set_index("id")
    assert f.loc[1, "auc_low"] == t.loc["auc", "low"]
    assert f.loc[1, "tpr_high"] == t.loc["tpr", "high"]


def test_result_repr_chart_and_time_strings() -> None:
    df = _data(n=600, days=14, seed=10)
    df["ts"] = df["ts"].dt.strftime("%Y-%m-%d %H:%M:%S")
    mon = bm.monitor(df, label="y", score="p", time="ts", reference=REF, measures=["auc"],
                     ci=True)
    text = repr(mon)
    assert text.startswith("MonitorResult(windows=8, window=7D, step=1D")
    assert "<table" in mon._repr_html_()
    chart = mon.chart("auc")
    labels = [s.label for s in chart.series]
    assert labels[:3] == ["reference 95% interval", "auc 95% interval", "auc"]
    assert labels[3].startswith("reference (")
    np.testing.assert_array_equal(chart.series[0].y, np.repeat(mon.reference_ci["auc"], 2))
    want = mon.reference_evaluation.ci_table(["auc"], level=0.95)
    assert mon.reference_ci["auc"] == (want["low"].iloc[0], want["high"].iloc[0])
    np.testing.assert_array_equal(chart.series[2].y, mon.to_frame()["auc"])
    with pytest.raises(ValueError, match="not among the measures monitored"):
        mon.chart("tpr")


def test_plot_draws_with_matplotlib() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    mon = bm.monitor(_data(seed=11), label="y", score="p", time="ts", reference=REF,
                     measures=["auc"])
    ax = mon.plot("auc")
    assert ax.get_title() == "auc over time"
    ys = ax.lines[0].get_ydata()
    np.testing.assert_array_equal(ys, mon.to_frame()["auc"])


@pytest.mark.parametrize("kwargs, message", [
    ({"window": "1M"}, "window='1M' is not a duration"),
    ({"window": "fortnight"}, "window='fortnight' is not a duration"),
    ({"step": "-1D"}, "step='-1D' must be a positive duration"),
    ({"window": "7D", "step": "2D"}, "not a whole number of steps"),
    ({"reference": ("2027-01-01", "2027-02-01")}, "holds no rows"),
    ({"reference": ("2026-01-05", "2026-01-01")}, "ends"),
    ({"reference": "2026-01-01"}, "reference must be a"),
    ({"time": "tss"}, "time column 'tss' not found in data (did you mean 'ts'?)"),
    ({"alpha": 1.5}, "alpha must be between 0 and 1"),
])
def test_bad_input_is_a_one_line_error(kwargs: dict, message: str) -> None:
    args = {"label": "y", "score": "p", "time": "ts", "reference": REF, **kwargs}
    with pytest.raises((ValueError, TypeError)) as info:
        bm.monitor(_data(n=300, days=10, seed=12), **args)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_bad_times_and_a_one_class_reference() -> None:
    df = _data(n=300, days=10, seed=13)
    bad = df.assign(ts=df["ts"].astype(object))
    bad.loc[3, "ts"] = None
    with pytest.raises(ValueError, match="time column 'ts' has 1 missing values"):
        bm.monitor(bad, label="y", score="p", time="ts", reference=REF)
    with pytest.raises(ValueError, match="not dates or times"):
        bm.monitor(df.assign(ts="soon"), label="y", score="p", time="ts", reference=REF)
    ref = df.assign(y=np.where(df["ts"] < "2026-01-03", 0, df["y"]))
    with pytest.raises(ValueError, match="has no positives: choose a period"):
        bm.monitor(ref, label="y", score="p", time="ts", reference=("2026-01-01", "2026-01-02"))


def test_bootstrap_changes_for_measures_without_a_closed_test() -> None:
    df = _data(n=4000, days=28, seed=14)
    args = {"label": "y", "score": "p", "time": "ts", "window": "7D", "step": "7D",
            "reference": REF, "measures": ["f1", "brier", "auc"], "n_resamples": 300}
    off = bm.monitor(df, **args).to_frame()
    assert off["f1_pvalue"].isna().all()
    on = bm.monitor(df, bootstrap_changes=True, random_state=5, **args).to_frame()
    again = bm.monitor(df, bootstrap_changes=True, random_state=5, **args).to_frame()
    pd.testing.assert_frame_equal(on, again)  # seeded: the same replicates
    tested = on[~on["in_reference"]]
    late = tested["start"] >= pd.Timestamp("2026-01-20")  # the signal is gone
    assert (tested.loc[late, "f1_pvalue"] < 0.01).all()
    assert (tested.loc[late, "brier_pvalue"] < 0.01).all()
    assert (tested["auc_pvalue"] == off.loc[tested.index, "auc_pvalue"]).all()  # DeLong
    # p-values are (k + 1) / (B + 1) multiples, at least 2 / (B + 1)
    p = tested["f1_pvalue"].to_numpy()
    assert (p >= 2 / 301 - 1e-12).all() and (p <= 1).all()


def test_the_bootstrap_pvalue_formula() -> None:
    from binmetrics.engines.monitoring import _bootstrap_pvalue

    w = np.array([0.1, 0.2, 0.3, 0.4])
    r = np.array([0.25, 0.25, 0.25, 0.25])
    # d* = -.15, -.05, .05, .15: two of four at or below 0 -> 2 * 3/5, capped at 1
    assert _bootstrap_pvalue(w, r) == 1.0
    assert _bootstrap_pvalue(w + 1, r) == pytest.approx(2 * 1 / 5)
    assert math.isnan(_bootstrap_pvalue(np.array([np.nan]), np.array([0.0])))


def test_nan_scores_omitted_keep_their_times_aligned() -> None:
    df = _data(n=1500, days=14, seed=15)
    df.loc[::7, "p"] = np.nan
    with pytest.warns(UserWarning, match="dropped"):
        mon = bm.monitor(df, label="y", score="p", time="ts", reference=REF,
                         measures=["auc", "tpr"], nan_policy="omit")
    kept = df.dropna(subset=["p"])
    for k, row in mon.to_frame().iterrows():
        rows = (kept["ts"] >= row["start"]) & (kept["ts"] < row["end"])
        assert row["n"] == rows.sum()
        assert mon.evaluations[k].table.equals(
            bm.evaluate(kept.loc[rows, "y"], kept.loc[rows, "p"]).table)
    with pytest.raises(ValueError, match="NaN"):
        bm.monitor(df, label="y", score="p", time="ts", reference=REF)


def test_a_polars_frame_gives_the_pandas_result() -> None:
    pl = pytest.importorskip("polars")
    df = _data(n=800, days=12, seed=16)
    args = {"label": "y", "score": "p", "time": "ts", "reference": REF, "measures": ["auc"]}
    want = bm.monitor(df, **args).to_frame()
    got = bm.monitor(pl.from_pandas(df), **args).to_frame()
    pd.testing.assert_frame_equal(got, want, check_dtype=False)
