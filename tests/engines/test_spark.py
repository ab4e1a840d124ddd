"""evaluate_spark on a local[2] session: the same results as evaluate / evaluate_by
(ties, weights, groups, binning) and clear errors. Few tests: a Spark job costs
seconds even on small data."""

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
from binmetrics.engines import binned_table, evaluate_spark

pytest.importorskip("pyspark")
pytestmark = pytest.mark.slow  # a local session starts in ~15 s; the file takes ~40 s
if shutil.which("java") is None:
    pytest.skip("Spark needs Java, which is not installed (no 'java' on PATH)",
                allow_module_level=True)




def values(ev: bm.Evaluation) -> dict[str, float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ev.to_dict()


def assert_same(a: bm.Evaluation, b: bm.Evaluation) -> None:
    va, vb = values(a), values(b)
    for k in vb:
        if math.isnan(vb[k]):
            assert math.isnan(va[k]), k
        else:
            assert va[k] == pytest.approx(vb[k], rel=1e-12, abs=1e-12), k


@pytest.fixture(scope="module")
def data() -> pd.DataFrame:
    rng = np.random.default_rng(11)
    n = 1500
    y = rng.random(n) < 0.3
    return pd.DataFrame({
        "y": y.astype(np.int64),
        "p": np.round(np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0.001, 0.999), 2),
        "w": rng.exponential(1.0, n),
        "site": rng.choice(["north", "south"], n),
    })


def test_agrees_with_evaluate(spark: Any, data: pd.DataFrame) -> None:
    sdf = spark.createDataFrame(data)
    ev = evaluate_spark(sdf, label="y", score="p", threshold=0.45)
    exact = bm.evaluate(data.y, data.p, threshold=0.45)
    assert ev.table.equals(exact.table)
    assert_same(ev, exact)
    ev = evaluate_spark(sdf, label="y", score="p", weight="w")
    exact = bm.evaluate(data.y, data.p, sample_weight=data.w)
    assert ev.table.equals(exact.table, rtol=1e-13)
    assert_same(ev, exact)


def test_groups_and_binning(spark: Any, data: pd.DataFrame) -> None:
    sdf = spark.createDataFrame(data)
    res = evaluate_spark(sdf, label="y", score="p", weight="w", by="site", where="p > 0.05",
                         measures=["auc", "brier", "ks"])
    part = data[data.p > 0.05]
    ref = bm.evaluate_by(part, label="y", score="p", weight="w", by="site",
                         measures=["auc", "brier", "ks"]).to_frame().set_index("site")
    got = res.to_frame().set_index("site")
    assert res.keys == ["north", "south"]
    for site in ref.index:
        for col in ("n", "positives", "auc", "brier", "ks"):
            assert got.loc[site, col] == pytest.approx(ref.loc[site, col], rel=1e-12)
    ev = evaluate_spark(sdf, label="y", score="p", weight="w", bins=6)
    binned = bm.Evaluation(binned_table(data.y, data.p, sample_weight=data.w, bins=6,
                                        threshold=0.5))
    assert ev.table.equals(binned.table, rtol=1e-12)
    assert_same(ev, binned)
    assert ev.binning_error("auc") == pytest.approx(binned.binning_error("auc"), rel=1e-12)


def test_errors(spark: Any, data: pd.DataFrame) -> None:
    sdf = spark.createDataFrame(data.assign(text=data.site))
    with pytest.raises(ValueError, match=r"score column 'pp' not found in the Spark DataFrame "
                                         r"\(did you mean 'p'\?\); available columns: y, p, w"):
        evaluate_spark(sdf, label="y", score="pp")
    with pytest.raises(TypeError, match="score column 'text' of the Spark DataFrame must be "
                                        "numeric; its type is string"):
        evaluate_spark(sdf, label="y", score="text")
    bad = spark.createDataFrame(data.assign(p=np.where(np.arange(len(data)) < 3, np.nan, data.p)))
    with pytest.raises(ValueError, match=r"score column 'p' has 3 non-finite values \(3 NaN or "
                                         r"NULL, 0 infinite\) in the Spark DataFrame"):
        evaluate_spark(bad, label="y", score="p")
    with pytest.raises(ValueError, match="exactly two classes; found 3"):
        evaluate_spark(spark.createDataFrame(data.assign(y=data.y + (data.index == 0))),
                       label="y", score="p")


def test_cli_spark(spark: Any, data: pd.DataFrame, tmp_path: Path,
                   capsys: pytest.CaptureFixture[str]) -> None:
    data.to_parquet(tmp_path / "scores.parquet")
    code = main(["evaluate", str(tmp_path / "scores.parquet"), "--label", "y", "--score", "p",
                 "--engine", "spark", "--master", "local[2]", "--format", "json",
                 "--measures", "auc,brier,mcc"])
    out, err = capsys.readouterr()
    assert code == 0, err
    obj = json.loads(out)
    exact = bm.evaluate(data.y, data.p)
    for k in ("auc", "brier", "mcc"):
        assert obj["measures"][k] == pytest.approx(exact[k], rel=1e-12)
    assert spark.sparkContext._jsc is not None  # the running session was not stopped


# --- review 7 -------------------------------------------------------------------------------
def test_binned_confusion_exact_off_the_grid(spark: Any, data: pd.DataFrame) -> None:
    rng = np.random.default_rng(5)
    frame = data.assign(p=np.clip(data.p + rng.normal(0, 0.003, len(data)), 0.0005, 0.9995))
    sdf = spark.createDataFrame(frame)
    for kw in ({"decimals": 1}, {"bins": 7}, {"bins": [0, 0.3, 0.6, 1.0]}):
        ev = evaluate_spark(sdf, label="y", score="p", weight="w", threshold=0.4321,
                            undefined="ignore", **kw)
        exact = bm.evaluate(frame.y, frame.p, sample_weight=frame.w, threshold=0.4321)
        for k, v in exact.confusion.as_dict().items():
            assert ev.confusion.as_dict()[k] == pytest.approx(v, rel=1e-12), (kw, k)
        ref = binned_table(frame.y, frame.p, sample_weight=frame.w, threshold=0.4321, **kw)
        assert ev.table.equals(ref, rtol=1e-12), kw
        assert ev.binning_error("mcc") == 0.0


def test_huge_weights_are_summed_exactly(spark: Any) -> None:
    from fractions import Fraction

    rng = np.random.default_rng(8)
    n = 20000
    y = (np.arange(n) % 2).astype(np.int64)
    s = np.round(rng.random(n), 1)
    w = rng.integers(1, 4, n).astype(np.float64)
    w[::997] = 1e16  # plain sums lose the unit weights added after one of these
    df = pd.DataFrame({"y": y, "p": s, "w": w})
    sdf = spark.createDataFrame(df).repartition(3)
    ev = evaluate_spark(sdf, label="y", score="p", weight="w", undefined="ignore")
    for i, score in enumerate(ev.table.scores):
        at = s == score
        for cls, got in ((1, ev.table.pos[i]), (0, ev.table.neg[i])):
            want = float(sum(Fraction(float(v)) for v in w[at & (y == cls)]))
            assert got == want, (score, cls)  # correctly rounded, as the exact sum
    exact = bm.evaluate(y, s, sample_weight=w, undefined="ignore")
    # the total adds the rounded per-score sums: within an ulp of the exact total
    assert ev.table.P == pytest.approx(float(sum(Fraction(float(v)) for v in w[y == 1])),
                                       rel=2.3e-16, abs=0)
    assert_same(ev, exact)
    # binned: the prevalence of the statistics (exact sums) is the table's, so the
    # information score summed on the cluster is there
    cont = df.assign(p=np.clip(s + rng.normal(0, 0.01, n), 0.001, 0.999))
    ev = evaluate_spark(spark.createDataFrame(cont), label="y", score="p", weight="w",
                        decimals=2, undefined="ignore")
    raw = bm.evaluate(cont.y, cont.p, sample_weight=cont.w)
    for m in (m for m in bm.iter_measures("probabilistic") if m.sums):
        assert ev[m.id] == pytest.approx(raw[m.id], rel=1e-12), m.id


def test_unweighted_counts_streamed_to_the_driver(spark: Any, monkeypatch: pytest.MonkeyPatch,
                                                 ) -> None:
    # unweighted exact counts come back batch by batch, unsorted (the Collector sorts
    # them): distinct scores with some repeats, several partitions, a group where
    # positives are the majority; and the same through toArrow() where pyspark's
    # internals are missing
    from binmetrics.engines import spark as engine

    rng = np.random.default_rng(5)
    n = 2000
    s = rng.random(n)
    s[rng.choice(n, 300)] = s[rng.choice(n, 300)]
    site = rng.choice(["a", "b"], n)
    y = np.where(site == "b", rng.random(n) < 0.8, rng.random(n) < 0.1).astype(np.int64)
    df = pd.DataFrame({"y": y, "p": s, "site": site})
    sdf = spark.createDataFrame(df).repartition(4)

    def collect_at_once(self: Any) -> None:
        raise AssertionError("toArrow() called: the batches were not streamed")

    with monkeypatch.context() as m:
        m.setattr(type(sdf), "toArrow", collect_at_once)
        streamed = list(engine._arrow_batches(sdf.select("p")))
        assert len(streamed) >= 2
        assert sorted(np.concatenate([b.column("p").to_numpy() for b in streamed])) == sorted(s)
        res = evaluate_spark(sdf, label="y", score="p", by="site", threshold=0.3)
    for fallback in (False, True):
        if fallback:  # pyspark's internals missing: toArrow()
            monkeypatch.delattr("pyspark.util._load_from_socket")
            assert len(list(engine._arrow_batches(sdf.select("p")))) >= 1
            res = evaluate_spark(sdf, label="y", score="p", by="site", threshold=0.3)
        for key in ("a", "b"):
            part = df[df.site == key]
            want = bm.evaluate(part.y, part.p, threshold=0.3)
            got = res.evaluations[key]
            assert got.table.equals(want.table) and got.table.pos.dtype == want.table.pos.dtype
            assert_same(got, want)


def test_group_gaps_from_spark_tables(spark: Any, data: pd.DataFrame) -> None:
    # issue 28: the gaps and their replicates come from the per-group tables Spark builds
    got = evaluate_spark(spark.createDataFrame(data), label="y", score="p", weight="w",
                         by="site", measures=["tpr", "ppv"])
    want = bm.evaluate_by(data, label="y", score="p", weight="w", by="site",
                          measures=["tpr", "ppv"])
    assert got.keys == want.keys
    for m in ("tpr", "ppv"):
        for method in ("between_groups", "to_overall"):
            assert got.difference(m, method=method) == pytest.approx(
                want.difference(m, method=method), abs=1e-12)
            assert got.ratio(m, method=method) == pytest.approx(
                want.ratio(m, method=method), abs=1e-12)
        a = got.difference(m, ci=True, n_resamples=200, random_state=3)
        b = want.difference(m, ci=True, n_resamples=200, random_state=3)
        np.testing.assert_allclose(a.replicates, b.replicates, atol=1e-12)
        assert a.pvalue == pytest.approx(b.pvalue, abs=1e-12)
