"""bm.monitor on CSV/Parquet files (DuckDB groups the rows by step): the same windows,
changes, tests and drift as bm.monitor of the same rows in memory, bit for bit."""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm

pytest.importorskip("duckdb")

REF = ("2026-01-01", "2026-01-10")


def _data(n: int = 3000, days: int = 30, seed: int = 0, ties: bool = True) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    t = pd.Timestamp("2026-01-01") + pd.to_timedelta(rng.uniform(0, days, n), "D")
    y = rng.random(n) < 0.3
    late = np.asarray(t >= pd.Timestamp("2026-01-20"))
    p = np.clip(0.35 + np.where(late, 0.05, 0.3) * (2 * y - 1) + rng.normal(0, 0.2, n), 0, 1)
    if ties:
        p = p.round(2)
    return pd.DataFrame({"ts": t, "y": y.astype(int), "p": p, "split": rng.integers(0, 3, n)})


def _both(df: pd.DataFrame, path: Any, file: dict[str, Any] | None = None,
          **kw: Any) -> tuple[bm.MonitorResult, bm.MonitorResult]:
    kw = {"label": "y", "score": "p", "time": "ts", "window": "7D", "step": "1D",
          "reference": REF, **kw}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return bm.monitor(df, **kw), bm.monitor(path, **kw, **(file or {}))


def _same(a: bm.MonitorResult, b: bm.MonitorResult) -> None:
    pd.testing.assert_frame_equal(a.to_frame(), b.to_frame(), check_exact=True)
    pd.testing.assert_frame_equal(a.drift(), b.drift(), check_exact=True)
    assert a.reference == b.reference
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for ea, eb in zip([a.reference_evaluation, *a.evaluations],
                          [b.reference_evaluation, *b.evaluations], strict=True):
            assert (ea is None) == (eb is None)
            if ea is None or eb is None:
                continue
            assert ea.table.equals(eb.table)
            want, got = ea.to_dict(), eb.to_dict()  # every measure, bit for bit
            assert got.keys() == want.keys()
            for i in want:
                assert got[i] == want[i] or (math.isnan(got[i]) and math.isnan(want[i])), i


@pytest.mark.parametrize("ties", [True, False])  # hash group-by, and sorted distinct scores
def test_parquet_windows_equal_the_in_memory_monitor(tmp_path: Path, ties: bool) -> None:
    df = _data(ties=ties)
    path = tmp_path / "scores.parquet"
    df.sample(frac=1, random_state=1).to_parquet(path)  # rows out of time order
    a, b = _both(df, path, measures=[m.id for m in bm.iter_measures()], threshold=0.4)
    assert len(b) == 30 - 7 + 1
    assert b.to_frame()["auc_flagged"].any()  # the drift on the 20th is found
    _same(a, b)


def test_csv_glob_with_where_text_labels_and_options(tmp_path: Path) -> None:
    df = _data(seed=2)
    df["y"] = np.where(df["y"] == 1, "fraud", "ok")
    df["ts"] = df["ts"].dt.floor("s")  # CSV text: whole seconds, as DuckDB and pandas read it
    half = len(df) // 2
    df[:half].to_csv(tmp_path / "a.csv", sep=";", index=False)
    df[half:].to_csv(tmp_path / "b.csv", sep=";", index=False)
    kw = {"pos_label": "fraud", "measures": ["auc", "tpr", "ppv", "f1", "mcc"],
          "window": "4D", "step": "2D", "ci": True, "higher_is_positive": False,
          "bootstrap_changes": True, "n_resamples": 50, "random_state": 3}
    kept = df[df["split"] != 1]
    a, b = _both(kept, str(tmp_path / "*.csv"),
                 {"where": "split <> 1", "read_options": {"delim": ";"}}, **kw)
    _same(a, b)
    first = b.to_frame().iloc[0]
    ts = pd.to_datetime(kept["ts"])
    assert first["n"] == ((ts >= first["start"]) & (ts < first["end"])).sum()  # where applied


def test_omitted_scores_and_a_time_zone(tmp_path: Path) -> None:
    df = _data(seed=4)
    df.loc[::97, "p"] = np.nan
    df["ts"] = df["ts"].dt.tz_localize("UTC")
    path = tmp_path / "scores.parquet"
    df.to_parquet(path)
    a, b = _both(df, path, nan_policy="omit", window="3D", step="12h")
    assert str(b.to_frame()["start"].dt.tz) == "UTC"
    _same(a, b)


def test_empty_steps_and_dates_as_text(tmp_path: Path) -> None:
    df = _data(n=400, days=40, seed=5)
    df = df[(df["ts"] < "2026-01-15") | (df["ts"] >= "2026-01-25")]  # ten days without rows
    df = df.assign(ts=df["ts"].dt.strftime("%Y-%m-%d %H:%M:%S"))
    path = tmp_path / "scores.parquet"
    df.to_parquet(path)  # the times are text: DuckDB casts them, pandas parses them
    a, b = _both(df, path, measures=["auc", "accuracy"])
    assert (b.to_frame()["reason"] == "no rows").any()
    _same(a, b)


def test_bad_input_is_a_one_line_error(tmp_path: Path) -> None:
    df = _data(n=300)
    path = tmp_path / "scores.parquet"
    df.to_parquet(path)
    kw: dict[str, Any] = {"label": "y", "score": "p", "reference": REF}
    with pytest.raises(ValueError, match=r"time column 'tss' not found.*did you mean 'ts'"):
        bm.monitor(path, time="tss", **kw)
    with pytest.raises(TypeError, match=r"time column 'split' .* must hold dates or times"):
        bm.monitor(path, time="split", **kw)
    with pytest.raises(ValueError, match="reference period 2025-01-01 to 2025-02-01 holds no "
                                         "rows; the data runs from 2026-01-01"):
        bm.monitor(path, time="ts", label="y", score="p", reference=("2025-01-01", "2025-02-01"))
    with pytest.raises(ValueError, match="read_options"):
        bm.monitor(path, time="ts", read_options={"filename": True}, **kw)
    with pytest.raises(ValueError, match="where="):
        bm.monitor(path, time="ts", where="p > (SELECT 0.5)", **kw)
    with pytest.raises(TypeError, match="where: only when data is a file path"):
        bm.monitor(df, time="ts", where="p > 0.5", **kw)
    with pytest.raises(ValueError, match="window=5D is not a whole number of steps"):
        bm.monitor(path, time="ts", window="5D", step="2D", **kw)
    missing = df.assign(ts=df["ts"].where(df.index % 50 != 0))
    missing.to_parquet(tmp_path / "missing.parquet")
    with pytest.raises(ValueError, match="time column 'ts' has 6 missing values"):
        bm.monitor(tmp_path / "missing.parquet", time="ts", **kw)


def test_weights_equal_the_weighted_in_memory_monitor(tmp_path: Path, frames_close) -> None:
    df = _data(seed=6)
    rng = np.random.default_rng(6)
    df["w"] = rng.exponential(1.0, len(df)) * 1e6  # a weight unit of a million
    df.loc[::23, "w"] = 0.0  # rows of weight 0 count as absent
    path = tmp_path / "scores.parquet"
    df.sample(frac=1, random_state=2).to_parquet(path)
    a, b = _both(df, path, weight="w", measures=["auc", "tpr", "ppv", "f1", "brier"])
    fa, fb = a.to_frame(), b.to_frame()
    assert len(fa) == 24
    frames_close(fb, fa)  # the weights summed in another order: to rounding
    np.testing.assert_allclose(b.drift()[["ks", "psi"]], a.drift()[["ks", "psi"]],
                               rtol=1e-12, atol=1e-12)
    assert fb["n"].iloc[0] == pytest.approx(
        df.loc[(df["ts"] >= fb["start"].iloc[0]) & (df["ts"] < fb["end"].iloc[0]), "w"].sum(),
        rel=1e-12)
    df.loc[7, "w"] = -2.0
    df.to_parquet(path)
    with pytest.raises(ValueError, match=r"weight column 'w' has 1 negative"):
        bm.monitor(path, label="y", score="p", time="ts", weight="w", reference=REF)
