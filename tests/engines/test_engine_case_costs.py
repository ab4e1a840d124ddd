"""Per-case costs on the engines: the streaming Accumulator (cost arrays per batch) and
the DuckDB and Spark engines (cost columns summed per distinct score): expected cost and the
cheapest cut equal a direct sum over the rows and the in-memory evaluation."""

from __future__ import annotations

import math

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.engines import Accumulator


def _rows(seed: int, n: int = 600, ties: bool = True):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    s = rng.normal(y, 1.0)
    s = np.round(s, 1) if ties else s
    a, b = rng.exponential(30.0, n), rng.exponential(60.0, n)
    w = rng.uniform(0.2, 3.0, n)
    return y, s, a, b, w


def _direct(y, s, a, b, w, th):
    pred = s >= th
    return (np.sum((w * a)[pred & (y == 0)]) + np.sum((w * b)[~pred & (y == 1)])) / w.sum()


def _check(ev, y, s, a, b, w, weighted):
    """ev's cheapest cut and its cost: those of a scan of direct row sums, and of
    bm.evaluate on the same rows."""
    w = w if weighted else np.ones(y.size)
    ths = [math.inf, *sorted(set(s.tolist()), reverse=True)]
    costs = [_direct(y, s, a, b, w, t) for t in ths]
    k = int(np.argmin(costs))
    assert 0 < k < len(ths) - 1  # an interior cut: the test can tell cuts apart
    best = ev.best_threshold("expected_cost")
    assert best.threshold == ths[k]
    assert best.value == pytest.approx(costs[k], rel=1e-12)
    assert ev.at_threshold(0.4).value("expected_cost") == pytest.approx(
        _direct(y, s, a, b, w, 0.4), rel=1e-12)
    mem = bm.evaluate(y, s, sample_weight=w if weighted else None, case_cost_fp=a,
                      case_cost_fn=b).best_threshold("expected_cost")
    assert (mem.threshold, mem.value) == (best.threshold, pytest.approx(best.value, rel=1e-12))


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ties", [True, False])
def test_accumulator_costs_equal_row_sums(weighted, ties):
    y, s, a, b, w = _rows(3, ties=ties)
    parts = np.array_split(np.arange(y.size), 7)
    one, two = Accumulator(), Accumulator()  # two workers, merged
    for i, sl in enumerate(parts):
        (one if i % 2 else two).update(y[sl], s[sl], w[sl] if weighted else None,
                                       case_cost_fp=a[sl], case_cost_fn=b[sl])
    _check((one + two).evaluate(), y, s, a, b, w, weighted)


def test_accumulator_costs_with_omitted_rows():
    y, s, a, b, _ = _rows(4)
    s_bad = s.copy()
    s_bad[::50] = np.nan
    acc = Accumulator(nan_policy="omit")
    for sl in np.array_split(np.arange(y.size), 3):
        with pytest.warns(UserWarning, match="dropped 4 rows"):
            acc.update(y[sl], s_bad[sl], case_cost_fp=a[sl], case_cost_fn=b[sl])
    keep = np.isfinite(s_bad)
    ref = bm.evaluate(y[keep], s[keep], case_cost_fp=a[keep], case_cost_fn=b[keep])
    got, want = acc.evaluate().best_threshold("expected_cost"), ref.best_threshold(
        "expected_cost")
    assert (got.threshold, got.value) == (want.threshold, pytest.approx(want.value, rel=1e-12))


def test_accumulator_costs_must_be_given_by_every_batch():
    acc = Accumulator().update([1, 0], [0.9, 0.2], case_cost_fn=[5.0, 0.0])
    with pytest.raises(ValueError, match="batch 1: the earlier batches carry per-case costs"):
        acc.update([1, 0], [0.5, 0.4])
    plain = Accumulator().update([1, 0], [0.9, 0.2])
    with pytest.raises(ValueError, match="carry no per-case costs"):
        plain.update([1, 0], [0.5, 0.4], case_cost_fp=[1.0, 1.0])
    with pytest.raises(ValueError, match="some accumulators carry per-case costs"):
        acc + plain
    with pytest.raises(ValueError, match="batch 1: case_cost_fn must be finite and >= 0"):
        acc.update([1, 0], [0.5, 0.4], case_cost_fn=[1.0, -1.0])
    with pytest.raises(ValueError, match="windowed Accumulator does not carry"):
        Accumulator(window=10).update([1, 0], [0.5, 0.4], case_cost_fn=[1.0, 1.0])
    assert acc.n_batches == 1  # a bad batch changes nothing


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ties", [True, False])
def test_duckdb_cost_columns_equal_row_sums(tmp_path, weighted, ties):
    pytest.importorskip("duckdb")
    pd = pytest.importorskip("pandas")
    from binmetrics.engines import evaluate_file

    y, s, a, b, w = _rows(5, ties=ties)
    df = pd.DataFrame({"y": y, "p": s, "amount": b, "fee": a, "w": w})
    df[:250].to_parquet(tmp_path / "a.parquet")
    df[250:].to_parquet(tmp_path / "b.parquet")
    ev = evaluate_file(str(tmp_path / "*.parquet"), label="y", score="p",
                       weight="w" if weighted else None, case_cost_fp="fee",
                       case_cost_fn="amount")
    _check(ev, y, s, a, b, w, weighted)


def test_duckdb_cost_columns_by_group_and_bad_costs(tmp_path):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("duckdb")
    from binmetrics.engines import evaluate_file

    y, s, _, b, _ = _rows(6)
    s = np.round(1 / (1 + np.exp(-s)), 2)  # probabilities (with ties)
    g = np.arange(y.size) % 2
    df = pd.DataFrame({"y": y, "p": s, "amount": b, "g": g})
    df.to_csv(tmp_path / "d.csv", index=False)
    res = evaluate_file(str(tmp_path / "d.csv"), label="y", score="p", by="g",
                        case_cost_fn="amount")
    for key in (0, 1):
        m = g == key
        want = bm.evaluate(y[m], s[m], case_cost_fn=b[m]).best_threshold("expected_cost")
        got = res.evaluations[key].best_threshold("expected_cost")
        assert (got.threshold, got.value) == (want.threshold,
                                              pytest.approx(want.value, rel=1e-12))
    df.loc[3, "amount"] = -1.0
    df.to_csv(tmp_path / "e.csv", index=False)
    with pytest.raises(ValueError, match="cost column 'amount' has 1 value that are NULL"):
        evaluate_file(str(tmp_path / "e.csv"), label="y", score="p", case_cost_fn="amount")
    with pytest.raises(ValueError, match="amou"):
        evaluate_file(str(tmp_path / "e.csv"), label="y", score="p", case_cost_fn="amou")


@pytest.mark.slow  # a local Spark session starts in ~15 s
def test_spark_cost_columns_equal_row_sums():
    pytest.importorskip("pyspark")
    import shutil

    if shutil.which("java") is None:
        pytest.skip("Spark needs Java")
    pd = pytest.importorskip("pandas")
    from pyspark.sql import SparkSession

    from binmetrics.engines import evaluate_spark

    spark = (SparkSession.builder.master("local[1]").appName("binmetrics-costs")
             .config("spark.sql.shuffle.partitions", "1")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    try:
        y, s, a, b, w = _rows(7)
        df = spark.createDataFrame(pd.DataFrame({"y": y, "p": s, "fee": a, "amount": b,
                                                 "w": w}))
        for weighted in (False, True):
            ev = evaluate_spark(df, label="y", score="p", weight="w" if weighted else None,
                                case_cost_fp="fee", case_cost_fn="amount")
            _check(ev, y, s, a, b, w, weighted)
        bad = spark.createDataFrame(pd.DataFrame({"y": [1, 0], "p": [0.2, 0.4],
                                                  "amount": [1.0, float("nan")]}))
        with pytest.raises(ValueError, match="cost column 'amount' has 1 value"):
            evaluate_spark(bad, label="y", score="p", case_cost_fn="amount")
    finally:
        spark.stop()
