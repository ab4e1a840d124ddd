"""Accumulator(window=...): the last N rows, or the rows of the last span of time, kept
by adding and subtracting tables; equal to a fresh evaluation of those rows."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.engines import Accumulator

MEASURES = ["auc", "average_precision", "tpr", "fpr", "ppv", "f1", "mcc", "brier", "log_loss"]


def _same(ev: bm.Evaluation, y: np.ndarray, s: np.ndarray) -> None:
    fresh = bm.evaluate(y, s)
    assert ev.table.equals(fresh.table)
    assert ev.table.pos.dtype == fresh.table.pos.dtype
    got, want = ev.to_dict(measures=MEASURES), fresh.to_dict(measures=MEASURES)
    for i in MEASURES:
        assert got[i] == want[i] or (math.isnan(got[i]) and math.isnan(want[i])), i


def test_the_last_n_rows_equal_a_fresh_evaluation() -> None:
    rng = np.random.default_rng(0)
    acc = Accumulator(window=500)
    ys, ss = [], []
    for _ in range(30):
        n = int(rng.integers(0, 300))
        y = rng.random(n) < 0.3
        s = np.clip(rng.random(n) + 0.3 * y, 0, 1).round(2)  # ties across batches
        acc.update(y, s)
        ys.append(y)
        ss.append(s)
        y_all, s_all = np.concatenate(ys)[-500:], np.concatenate(ss)[-500:]
        assert acc.n_rows == y_all.size
        assert acc.n_positive_rows == y_all.sum()
        if 0 < y_all.sum() < y_all.size:
            _same(acc.evaluate(), y_all, s_all)


def test_a_time_window_keeps_the_rows_of_the_last_span() -> None:
    rng = np.random.default_rng(1)
    acc = Accumulator(window="3D")
    ys, ss, ts = [], [], []
    start = pd.Timestamp("2026-01-01")
    for day in range(12):
        n = int(rng.integers(50, 150))
        # times within the day, unsorted; some rows come late (a day old)
        t = start + pd.to_timedelta(day + rng.uniform(-1, 1, n), "D")
        y = rng.random(n) < 0.3
        s = np.clip(rng.random(n) + 0.3 * y, 0, 1).round(3)
        acc.update(y, s, time=t)
        ys.append(y)
        ss.append(s)
        ts.append(np.asarray(t, dtype="datetime64[ns]"))
        t_all = np.concatenate(ts)
        keep = t_all > t_all.max() - np.timedelta64(3, "D")
        y_all, s_all = np.concatenate(ys)[keep], np.concatenate(ss)[keep]
        assert acc.n_rows == keep.sum()
        _same(acc.evaluate(), y_all, s_all)
    assert "window='3D'" in repr(acc)


def test_window_errors_are_one_line() -> None:
    with pytest.raises(ValueError, match="neither a number of rows nor a duration"):
        Accumulator(window="a week")
    with pytest.raises(ValueError, match="positive number of rows"):
        Accumulator(window=0)
    with pytest.raises(ValueError, match="pass each row's time"):
        Accumulator(window="7D").update([0, 1], [0.1, 0.9])
    with pytest.raises(ValueError, match="sample_weight is not supported"):
        Accumulator(window=10).update([0, 1], [0.1, 0.9], [1.0, 2.0])
    with pytest.raises(ValueError, match="time= is read only with a time window"):
        Accumulator().update([0, 1], [0.1, 0.9], time=["2026-01-01"] * 2)
    with pytest.raises(ValueError, match="batch 0: time has 1 values for 2 rows"):
        Accumulator(window="1D").update([0, 1], [0.1, 0.9], time=["2026-01-01"])
    with pytest.raises(TypeError, match="windowed accumulators do not merge"):
        Accumulator(window=3) + Accumulator()
    with pytest.raises(ValueError, match="the window is empty"):
        _ = Accumulator(window=3).table


def test_nan_rows_omitted_keep_their_times_aligned() -> None:
    acc = Accumulator(window="1D", nan_policy="omit")
    t = pd.to_datetime(["2026-01-01 01:00", "2026-01-01 02:00", "2026-01-02 12:00",
                        "2026-01-02 13:00"])
    with pytest.warns(UserWarning, match="dropped 1 row"):
        acc.update([1, 0, 1, 0], [0.9, np.nan, 0.8, 0.3], time=t)
    assert acc.n_omitted == 1 and acc.n_rows == 2  # the 01:00 row left the window
    _same(acc.evaluate(), np.array([1, 0]), np.array([0.8, 0.3]))
