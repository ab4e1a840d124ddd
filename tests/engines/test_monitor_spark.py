"""bm.monitor of a pyspark DataFrame (Spark groups the rows by step and score): every
window equals a fresh evaluation of its rows and the in-memory monitor of the same rows,
with and without weights; bad input gives the other engines' one-line errors; the
command line's --engine spark."""

from __future__ import annotations

import json
import math
import shutil
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.cli import main

pytest.importorskip("pyspark")
pytestmark = pytest.mark.slow  # a local session starts in ~15 s (a minute under load)
if shutil.which("java") is None:
    pytest.skip("Spark needs Java, which is not installed (no 'java' on PATH)",
                allow_module_level=True)

REF = ("2026-01-01", "2026-01-07")
MEASURES = [m.id for m in bm.iter_measures()]


SPARK_CONF = {"spark.sql.session.timeZone": "UTC"}  # times read as UTC


def _data(n: int = 3000, days: int = 30, seed: int = 0) -> pd.DataFrame:
    """Times in UTC to the second (Spark keeps microseconds), tied scores, a drift on
    the 20th, weights with some zeros."""
    rng = np.random.default_rng(seed)
    t = (pd.Timestamp("2026-01-01", tz="UTC")
         + pd.to_timedelta(rng.uniform(0, days, n), "D")).floor("s")
    y = rng.random(n) < 0.3
    late = np.asarray(t >= pd.Timestamp("2026-01-20", tz="UTC"))
    p = np.clip(0.35 + np.where(late, 0.05, 0.3) * (2 * y - 1) + rng.normal(0, 0.2, n),
                0, 1).round(2)
    w = rng.exponential(1.0, n)
    w[rng.random(n) < 0.05] = 0.0
    return pd.DataFrame({"ts": t, "y": y.astype(int), "p": p, "w": w})


def _monitor(data: Any, **kw: Any) -> bm.MonitorResult:
    kw = {"label": "y", "score": "p", "time": "ts", "window": "7D", "step": "1D",
          "reference": REF, **kw}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return bm.monitor(data, **kw)


def _same_as_fresh(mon: bm.MonitorResult, df: pd.DataFrame, weight: str | None,
                   threshold: float) -> None:
    """Every window's every measure equals bm.evaluate of the window's rows (exactly
    unweighted; to the weights' rounding weighted)."""
    frame = mon.to_frame()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k, row in frame.iterrows():
            rows = (df["ts"] >= row["start"]) & (df["ts"] < row["end"])
            part = df[rows]
            fresh = bm.evaluate(part["y"], part["p"], threshold=threshold,
                                sample_weight=None if weight is None else part[weight])
            ev = mon.evaluations[k]
            if weight is None:
                assert ev.table.equals(fresh.table)
            else:
                np.testing.assert_array_equal(ev.table.scores, fresh.table.scores)
            want, got = fresh.to_dict(), ev.to_dict()
            assert got.keys() == want.keys()
            for i in want:
                if math.isnan(want[i]):
                    assert math.isnan(got[i]), i
                elif weight is None:
                    assert got[i] == want[i], i
                else:
                    assert got[i] == pytest.approx(want[i], rel=1e-12, abs=1e-12), i


def test_windows_equal_fresh_evaluations_and_the_in_memory_monitor(spark: Any) -> None:
    df = _data()
    sdf = spark.createDataFrame(df.sample(frac=1, random_state=1))  # out of time order
    assert sdf.schema["ts"].dataType.typeName() == "timestamp"
    kw = {"measures": MEASURES, "threshold": 0.4}
    got = _monitor(sdf, **kw)
    frame = got.to_frame()
    assert len(frame) == 30 - 7 + 1 and str(frame["start"].dt.tz) == "UTC"
    assert frame["auc_flagged"].any()  # the drift on the 20th is found
    _same_as_fresh(got, df, None, 0.4)
    want = _monitor(df, **kw)  # the same rows in memory: bit for bit
    pd.testing.assert_frame_equal(got.to_frame(), want.to_frame(), check_exact=True)
    pd.testing.assert_frame_equal(got.drift(), want.drift(), check_exact=True)
    assert got.reference == want.reference


def test_weighted_windows_equal_fresh_weighted_evaluations(spark: Any, frames_close) -> None:
    df = _data(seed=1)
    df["w"] *= 1e6  # weights in another unit: the same measures
    sdf = spark.createDataFrame(df)
    got = _monitor(sdf, weight="w", measures=MEASURES, threshold=0.4)
    _same_as_fresh(got, df, "w", 0.4)
    want = _monitor(df, weight="w", measures=MEASURES, threshold=0.4)
    fa, fb = want.to_frame(), got.to_frame()
    frames_close(fb, fa)
    np.testing.assert_allclose(got.drift()[["ks", "psi"]], want.drift()[["ks", "psi"]],
                               rtol=1e-12, atol=1e-12)
    plain = _monitor(sdf, measures=["auc"]).to_frame()
    assert not np.allclose(plain["auc"], fb["auc"])  # not silently unweighted


def test_naive_dates_and_text_times_where_and_lower_is_positive(spark: Any) -> None:
    from pyspark.sql import functions as F

    df = _data(n=1500, days=20, seed=2)
    naive = df.assign(ts=df["ts"].dt.tz_localize(None))
    sdf = spark.createDataFrame(df)
    kw = {"measures": ["auc", "tpr", "f1"], "window": "4D", "step": "2D",
          "higher_is_positive": False, "threshold": 0.5}
    want = _monitor(naive, **kw).to_frame()
    for col in (F.col("ts").cast("timestamp_ntz"),
                F.date_format("ts", "yyyy-MM-dd HH:mm:ss")):  # naive: no time zone
        got = _monitor(sdf.withColumn("ts", col), **kw).to_frame()
        assert got["start"].dt.tz is None
        pd.testing.assert_frame_equal(got, want, check_exact=True)
    days = _monitor(sdf.withColumn("ts", F.to_date("ts")), **kw).to_frame()
    want_days = _monitor(naive.assign(ts=naive["ts"].dt.floor("D")), **kw).to_frame()
    pd.testing.assert_frame_equal(days, want_days, check_exact=True)
    kept = _monitor(sdf, where="w > 0.5", measures=["auc"]).to_frame()
    mem = _monitor(df[df["w"] > 0.5], measures=["auc"]).to_frame()
    pd.testing.assert_frame_equal(kept, mem, check_exact=True)


def test_bad_input_is_the_other_engines_one_line_error(spark: Any) -> None:
    from pyspark.sql import functions as F

    df = _data(n=300, days=10, seed=3)
    sdf = spark.createDataFrame(df)
    kw: dict[str, Any] = {"label": "y", "score": "p", "reference": REF}

    def error(data: Any, exc: type[Exception] = ValueError, **more: Any) -> str:
        with pytest.raises(exc) as info:
            bm.monitor(data, **{**kw, **more})
        text = str(info.value)
        assert "\n" not in text
        return text

    assert "time column 'tss' not found" in error(sdf, time="tss")
    assert "did you mean 'ts'" in error(sdf, time="tss")
    for window, message in (("1M", "window='1M' is not a duration"),
                            ("fortnight", "window='fortnight' is not a duration")):
        assert message in error(sdf, time="ts", window=window)
        assert message in error(df, time="ts", window=window)  # the same as in memory
    assert "window=5D is not a whole number of steps" in error(sdf, time="ts", window="5D",
                                                               step="2D")
    assert "time column 'p' of the Spark DataFrame must hold dates or times" in error(
        sdf, TypeError, time="p", score="w")
    text = sdf.withColumn("ts", F.when(F.col("p") > 0.9, F.lit("soon"))
                          .otherwise(F.date_format("ts", "yyyy-MM-dd HH:mm:ss")))
    n_bad = int((df["p"] > 0.9).sum())
    assert f"time column 'ts' has {n_bad} missing values or values that are not dates" in \
        error(text, time="ts")
    assert ("reference period 2025-01-01 to 2025-02-01 holds no rows; the data runs from "
            "2026-01-01") in error(sdf, time="ts", reference=("2025-01-01", "2025-02-01"))
    assert "format: only when data is a file path" in error(sdf, TypeError, time="ts",
                                                             format="csv")
    negative = spark.createDataFrame(df.assign(w=np.where(df.index == 5, -1.0, df["w"])))
    assert "weight column 'w' has 1 negative" in error(negative, time="ts", weight="w")
    nan = spark.createDataFrame(df.assign(w=np.where(df.index == 5, np.nan, df["w"])))
    assert "weight column 'w'" in error(nan, time="ts", weight="w")


def test_cli_engine_spark_with_weights(spark: Any, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    df = _data(n=1500, days=20, seed=4)
    df["ts"] = df["ts"].dt.tz_localize(None)
    df.to_parquet(tmp_path / "scored.parquet", coerce_timestamps="us")  # Spark's unit
    argv = ["monitor", str(tmp_path / "scored.parquet"), "--label", "y", "--score", "p",
            "--time", "ts", "--weight", "w", "--reference", ":".join(REF),
            "--measures", "auc,recall", "--format", "json"]
    code = main([*argv, "--engine", "spark", "--master", "local[2]"])
    out, err = capsys.readouterr()
    assert code == 0, err
    got = pd.DataFrame(json.loads(out))
    want = _monitor(df, weight="w", measures=["auc", "recall"]).to_frame()
    assert len(got) == len(want)
    for c in ("n", "auc", "tpr", "auc_pvalue_adjusted", "prevalence"):
        np.testing.assert_allclose(got[c].astype(float), want[c], rtol=1e-12, err_msg=c)
    assert spark.sparkContext._jsc is not None  # the running session was not stopped
    assert main([*argv, "--engine", "numpy", "--master", "local[2]"]) == 2
    assert "--master needs --engine spark" in capsys.readouterr().err
