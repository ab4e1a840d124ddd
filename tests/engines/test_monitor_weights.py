"""bm.monitor with a weight column: every window equals a fresh weighted evaluation of
its rows, the change tests are the project's tests of the weighted tables, the drift
statistics are weighted, and bad weights are the project's one-line errors."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import binmetrics as bm
from binmetrics.inference.delong import delong_unpaired_tables
from binmetrics.inference.proportions import two_proportion_test

REF = ("2026-01-01", "2026-01-07")
MEASURES = [m.id for m in bm.iter_measures()]


def _data(n: int = 3000, days: int = 30, seed: int = 0, integer: bool = False
          ) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    t = pd.Timestamp("2026-01-01") + pd.to_timedelta(rng.uniform(0, days, n), "D")
    y = rng.random(n) < 0.3
    late = np.asarray(t >= pd.Timestamp("2026-01-20"))
    p = np.clip(0.35 + np.where(late, 0.05, 0.3) * (2 * y - 1) + rng.normal(0, 0.2, n),
                0, 1).round(2)  # ties
    w = rng.integers(0, 4, n).astype(float) if integer else rng.exponential(1.0, n)
    if not integer:
        w[rng.random(n) < 0.05] = 0.0  # rows of weight 0 count as absent
    return pd.DataFrame({"ts": t, "y": y.astype(int), "p": p, "w": w})


def _monitor(df: pd.DataFrame, **kw: Any) -> bm.MonitorResult:
    kw = {"label": "y", "score": "p", "time": "ts", "window": "7D", "step": "1D",
          "reference": REF, **kw}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return bm.monitor(df, **kw)


def _close(got: float, want: float, rel: float = 1e-12) -> bool:
    if math.isnan(want):
        return math.isnan(got)
    return got == pytest.approx(want, rel=rel, abs=rel)


def test_every_weighted_window_equals_a_fresh_weighted_evaluation() -> None:
    df = _data()
    mon = _monitor(df, weight="w", measures=MEASURES, threshold=0.4)
    frame = mon.to_frame()
    assert len(frame) == 30 - 7 + 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k, row in frame.iterrows():
            rows = (df["ts"] >= row["start"]) & (df["ts"] < row["end"])
            part = df[rows]
            fresh = bm.evaluate(part["y"], part["p"], sample_weight=part["w"], threshold=0.4)
            ev = mon.evaluations[k]
            assert ev.table.weighted
            # the same distinct scores (a score whose rows all left is gone, exactly)
            np.testing.assert_array_equal(ev.table.scores, fresh.table.scores)
            np.testing.assert_allclose(ev.table.pos, fresh.table.pos, rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(ev.table.neg, fresh.table.neg, rtol=1e-12, atol=1e-12)
            want, got = fresh.to_dict(), ev.to_dict()
            assert got.keys() == want.keys()
            for i in want:
                assert _close(got[i], want[i]), i
            for i in mon.measures:
                assert _close(row[i], want[i]), i
            # n and positives are the total weights (the vocabulary's "n": the number,
            # or total weight, of cases); the prevalence the weighted one
            assert row["n"] == pytest.approx(part["w"].sum(), rel=1e-12)
            assert row["positives"] == pytest.approx(part["w"][part["y"] == 1].sum(), rel=1e-12)
            assert row["prevalence"] == pytest.approx(want["prevalence"], rel=1e-12)


def test_weights_change_the_result_and_unit_weights_do_not() -> None:
    df = _data(seed=1)
    plain = _monitor(df, measures=["auc", "tpr", "f1"]).to_frame()
    ones = _monitor(df.assign(w=1.0), weight="w", measures=["auc", "tpr", "f1"]).to_frame()
    weighted = _monitor(df, weight="w", measures=["auc", "tpr", "f1"]).to_frame()
    for c in ("auc", "tpr", "f1", "auc_pvalue", "tpr_pvalue", "prevalence", "n"):
        np.testing.assert_allclose(ones[c].astype(float), plain[c].astype(float), rtol=1e-12)
    assert not np.allclose(weighted["auc"], plain["auc"])  # not silently unweighted


def test_integer_weights_are_repeated_rows() -> None:
    df = _data(n=1500, seed=2, integer=True)
    rep = df.loc[df.index.repeat(df["w"].astype(int))].drop(columns="w")
    kw = {"measures": ["auc", "tpr", "fpr", "ppv", "mcc", "brier"]}
    a, b = _monitor(df, weight="w", **kw), _monitor(rep, **kw)
    fa, fb = a.to_frame(), b.to_frame()
    for c in fb.columns:
        if fb[c].dtype.kind == "f" or c in ("n", "positives"):
            np.testing.assert_allclose(fa[c].astype(float), fb[c].astype(float), rtol=1e-12,
                                       err_msg=c)
        else:
            assert list(fa[c]) == list(fb[c]), c
    np.testing.assert_allclose(a.drift()["ks"], b.drift()["ks"], rtol=1e-12)


def test_change_tests_are_the_projects_tests_of_the_weighted_tables() -> None:
    df = _data(seed=3)
    mon = _monitor(df, weight="w", measures=["auc", "tpr"])
    frame = mon.to_frame()
    ref_rows = (df["ts"] >= "2026-01-01") & (df["ts"] < "2026-01-08")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = bm.evaluate(df.y[ref_rows], df.p[ref_rows], sample_weight=df.w[ref_rows])
        tested = frame[~frame["in_reference"]]
        assert len(tested) > 10
        for _, row in tested.iterrows():
            rows = (df["ts"] >= row["start"]) & (df["ts"] < row["end"])
            ev = bm.evaluate(df.y[rows], df.p[rows], sample_weight=df.w[rows])
            d = delong_unpaired_tables(ev.table, ref.table, "two-sided", 0.95)
            assert row["auc_pvalue"] == pytest.approx(d.pvalue, rel=1e-9)
            c, r = ev.confusion, ref.confusion
            tp = two_proportion_test((c.tp, c.tp + c.fn), (r.tp, r.tp + r.fn))
            assert row["tpr_pvalue"] == pytest.approx(tp.pvalue, rel=1e-9)


def _weighted_cdf(s: np.ndarray, w: np.ndarray, x: np.ndarray) -> np.ndarray:
    order = np.argsort(s)
    s, c = s[order], np.cumsum(w[order]) / w.sum()
    i = np.searchsorted(s, x, side="right")
    return np.where(i > 0, c[np.maximum(i - 1, 0)], 0.0)


def test_weighted_drift_is_the_weighted_ks_and_the_weighted_decile_psi() -> None:
    df = _data(seed=4)
    mon = _monitor(df, weight="w", measures=["auc"])
    drift = mon.drift()
    keep = df["w"] > 0
    ref = df[keep & (df["ts"] >= "2026-01-01") & (df["ts"] < "2026-01-08")]
    rs, rw = ref["p"].to_numpy(), ref["w"].to_numpy()
    # the deciles by the inverted CDF: the smallest score whose weight share reaches q
    order = np.argsort(rs, kind="stable")
    cum = np.cumsum(rw[order]) / rw.sum()
    edges = np.unique([rs[order][np.searchsorted(cum, q)] for q in np.linspace(0.1, 0.9, 9)])
    if np.lib.NumpyVersion(np.__version__) >= "2.0.0":
        want_edges = np.quantile(rs, np.linspace(0.1, 0.9, 9), weights=rw,
                                 method="inverted_cdf")
        np.testing.assert_allclose(edges, np.unique(want_edges))
    for _, row in drift.iterrows():
        part = df[keep & (df["ts"] >= row["start"]) & (df["ts"] < row["end"])]
        ws, ww = part["p"].to_numpy(), part["w"].to_numpy()
        grid = np.unique(np.concatenate([ws, rs]))
        ks = np.abs(_weighted_cdf(ws, ww, grid) - _weighted_cdf(rs, rw, grid)).max()
        assert row["ks"] == pytest.approx(ks, abs=1e-12)
        bins = np.searchsorted(edges, ws, side="left")  # (-inf, e1], (e1, e2], ...
        rbins = np.searchsorted(edges, rs, side="left")
        k = edges.size + 1
        wsh = np.maximum(np.bincount(bins, ww, k) / ww.sum(), 1e-4)
        rsh = np.maximum(np.bincount(rbins, rw, k) / rw.sum(), 1e-4)
        assert row["psi"] == pytest.approx(float(np.sum((wsh - rsh) * np.log(wsh / rsh))),
                                           abs=1e-12)
        assert row["n"] == pytest.approx(ww.sum(), rel=1e-12)


def test_unweighted_ks_still_scipys() -> None:
    df = _data(n=800, seed=5)
    mon = _monitor(df, measures=["auc"])
    row = mon.drift().iloc[-1]
    part = df[(df["ts"] >= row["start"]) & (df["ts"] < row["end"])]
    ref = df[(df["ts"] >= "2026-01-01") & (df["ts"] < "2026-01-08")]
    assert row["ks"] == stats.ks_2samp(part["p"], ref["p"]).statistic


@pytest.mark.parametrize("value, message", [
    (-1.0, "sample_weight has 1 negative value at rows [5] (0-based) (smallest -1.0); "
           "weights must be >= 0"),
    (np.nan, "sample_weight has 1 non-finite value (NaN or inf) at rows [5]"),
    (np.inf, "sample_weight has 1 non-finite value (NaN or inf) at rows [5]"),
])
def test_bad_weights_are_the_projects_one_line_errors(value: float, message: str) -> None:
    df = _data(n=300, days=10, seed=6)
    df.loc[5, "w"] = value
    with pytest.raises(ValueError) as info:
        bm.monitor(df, label="y", score="p", time="ts", weight="w", reference=REF)
    assert message in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(ValueError) as fresh:  # the message of evaluate, word for word
        bm.evaluate(df["y"], df["p"], sample_weight=df["w"])
    assert str(fresh.value) == str(info.value)


def test_a_missing_weight_column_and_a_reference_of_zero_weights() -> None:
    df = _data(n=300, days=10, seed=7)
    with pytest.raises(ValueError, match=r"weight column 'wt' not found in data \(did you "
                                         r"mean 'w'\?\)"):
        bm.monitor(df, label="y", score="p", time="ts", weight="wt", reference=REF)
    zero = df.assign(w=np.where(df["ts"] < "2026-01-03", 0.0, df["w"]))
    with pytest.raises(ValueError, match="has no rows: choose a period with both classes"):
        bm.monitor(zero, label="y", score="p", time="ts", weight="w",
                   reference=("2026-01-01", "2026-01-02"))


def test_a_window_of_zero_weights_is_nan_with_a_reason() -> None:
    df = _data(n=600, days=20, seed=8)
    df.loc[(df["ts"] >= "2026-01-12") & (df["ts"] < "2026-01-15"), "w"] = 0.0
    frame = _monitor(df, weight="w", window="2D", step="1D", measures=["auc"]).to_frame()
    empty = frame[frame["start"] == pd.Timestamp("2026-01-12")].iloc[0]
    assert empty["reason"] == "no rows" and math.isnan(empty["auc"]) and empty["n"] == 0


def test_the_bootstrap_with_non_integer_weights_warns_once() -> None:
    df = _data(n=1500, seed=9)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        bm.monitor(df, label="y", score="p", time="ts", weight="w", reference=REF,
                   measures=["auc", "f1"], ci=True, bootstrap_changes=True, n_resamples=30,
                   random_state=1)
    said = [str(w.message) for w in caught
            if issubclass(w.category, bm.inference.ResamplingWarning)]
    assert said == ["the weights are not whole numbers: the bootstrap of the windows' "
                    "intervals and change tests treats them as frequencies, drawing "
                    "round(total weight) cases of each class per window"]
    with warnings.catch_warnings(record=True) as caught:  # whole weights: nothing to say
        warnings.simplefilter("always")
        bm.monitor(_data(n=1500, seed=9, integer=True), label="y", score="p", time="ts",
                   weight="w", reference=REF, measures=["auc", "f1"], ci=True,
                   n_resamples=30, random_state=1)
    assert not [w for w in caught if issubclass(w.category, bm.inference.ResamplingWarning)]
