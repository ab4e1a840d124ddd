"""The Dask engine on a LocalCluster of two worker processes: bm.evaluate / evaluate_by on
a Dask DataFrame equal the in-memory evaluation however the rows are partitioned (1, 7,
64 partitions, empty ones), with ties, weights, NaN policy, groups and binning (as
DuckDB bins), and bad input gets the other engines' messages."""

from __future__ import annotations

import itertools
import math
import os
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest
from distributed import Client, LocalCluster

import binmetrics as bm
from binmetrics.engines import evaluate_dask, evaluate_file
from binmetrics.exceptions import EngineError


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0", memory_limit="1GB") as cluster, \
            Client(cluster) as c:
        yield c


def values(ev: bm.Evaluation) -> dict[str, float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ev.to_dict()


def assert_same(a: bm.Evaluation, b: bm.Evaluation, rel: float = 0.0) -> None:
    """Every measure equal (NaN where NaN): bitwise when rel=0."""
    va, vb = values(a), values(b)
    assert va.keys() == vb.keys()
    for k, v in vb.items():
        if math.isnan(v):
            assert math.isnan(va[k]), k
        elif rel == 0.0:
            assert va[k] == v, k
        else:
            assert va[k] == pytest.approx(v, rel=rel, abs=rel), k


def frame(seed: int, n: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return pd.DataFrame({
        "y": y.astype(np.int64),
        "p": np.round(np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0.001, 0.999), 3),  # ties
        "q": rng.random(n),  # distinct scores
        "w": rng.exponential(1.0, n),
        "site": rng.choice(["north", "south", "east"], n),
    })


@pytest.fixture(scope="module")
def data() -> pd.DataFrame:
    return frame(4, 20_000)


@pytest.mark.parametrize("k", [1, 7, 64])
def test_unweighted_equals_in_memory_to_the_last_bit(client: Any, data: pd.DataFrame,
                                                     k: int) -> None:
    ddf = dd.from_pandas(data, npartitions=k, sort=False)
    for score in ("p", "q") if k < 64 else ("q",):
        ev = bm.evaluate(ddf, label="y", score=score, threshold=0.45)
        exact = bm.evaluate(data.y, data[score], threshold=0.45)
        assert ev.table.equals(exact.table)
        assert_same(ev, exact)


@pytest.mark.parametrize("k", [1, 7])
def test_weighted_equals_in_memory(client: Any, data: pd.DataFrame, k: int) -> None:
    ddf = dd.from_pandas(data, npartitions=k, sort=False)
    ev = bm.evaluate(ddf, label="y", score="p", weight="w")
    exact = bm.evaluate(data.y, data.p, sample_weight=data.w)
    np.testing.assert_array_equal(ev.table.scores, exact.table.scores)
    np.testing.assert_allclose(ev.table.pos, exact.table.pos, rtol=1e-12)
    assert_same(ev, exact, rel=1e-12)


@pytest.mark.parametrize("binning", [{"decimals": 2}, {"bins": 25}, {"bins": [0, .3, .5, 1]}])
def test_binned_as_duckdb(client: Any, data: pd.DataFrame, tmp_path: Path,
                          binning: dict) -> None:
    path = tmp_path / "d.parquet"
    data.to_parquet(path)
    ddf = dd.from_pandas(data, npartitions=7, sort=False)
    ev = bm.evaluate(ddf, label="y", score="q", weight="w", threshold=0.42, **binning)
    duck = evaluate_file(path, label="y", score="q", weight="w", threshold=0.42, **binning)
    np.testing.assert_array_equal(ev.table.scores, duck.table.scores)
    np.testing.assert_allclose(ev.table.pos, duck.table.pos, rtol=1e-12)
    assert_same(ev, duck, rel=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the measures' caveats
        pd.testing.assert_frame_equal(ev.error_bounds(), duck.error_bounds(), rtol=1e-12)


def test_nan_policy(client: Any, data: pd.DataFrame) -> None:
    df = data.copy()
    df.loc[[3, 9, 12], "p"] = np.nan
    df.loc[20, "p"] = -np.inf
    ddf = dd.from_pandas(df, npartitions=3, sort=False)
    with pytest.raises(ValueError, match=r"score column 'p' has 4 non-finite values \(3 NaN or "
                                         r"NULL, 1 infinite\) in the Dask DataFrame; pass "
                                         r"nan_policy='omit'"):
        bm.evaluate(ddf, label="y", score="p")
    with pytest.warns(UserWarning, match="dropped 4 rows"):
        ev = bm.evaluate(ddf, label="y", score="p", nan_policy="omit")
    with pytest.warns(UserWarning, match="4 rows"):
        exact = bm.evaluate(df.y, df.p, nan_policy="omit")
    assert ev.table.equals(exact.table) and ev.n_omitted == 4
    assert_same(ev, exact)


def test_by_groups_equal_evaluate_by(client: Any, data: pd.DataFrame) -> None:
    df = data.copy()
    df.loc[df.index[:40], "site"] = None  # a missing key: its own group, last
    df["band"] = (df.q * 3).astype(int)
    ddf = dd.from_pandas(df, npartitions=5, sort=False)
    for by in ("site", ["site", "band"]):
        lazy = bm.evaluate_by(ddf, label="y", score="p", by=by, weight="w", pi0=0.2,
                              measures=["auc", "brier", "f1"])
        mem = bm.evaluate_by(df, label="y", score="p", by=by, weight="w", pi0=0.2,
                             measures=["auc", "brier", "f1"])
        pd.testing.assert_frame_equal(lazy.to_frame(), mem.to_frame(), rtol=1e-12)


def test_empty_partitions_are_harmless(client: Any, data: pd.DataFrame) -> None:
    ddf = dd.from_pandas(data.sort_values("q"), npartitions=8, sort=False)
    some = ddf[ddf.q > 0.6]  # the first partitions are now empty
    lengths = some.map_partitions(len).compute().tolist()
    assert lengths.count(0) >= 3
    kept = data[data.q > 0.6]
    assert bm.evaluate(some, label="y", score="p").table.equals(
        bm.evaluate(kept.y, kept.p).table)
    with pytest.raises(ValueError, match="has no rows"):
        bm.evaluate(ddf[ddf.q > 2], label="y", score="p")


def test_the_threaded_scheduler_too(data: pd.DataFrame) -> None:
    ddf = dd.from_pandas(data, npartitions=4, sort=False)
    with dask.config.set(scheduler="threads"):
        ev = evaluate_dask(ddf, label="y", score="q", split_every=2)
    assert ev.table.equals(bm.evaluate(data.y, data.q).table)


# --- bad input: the messages of the other engines -----------------------------------------
def test_missing_column_non_numeric_score_three_labels(client: Any,
                                                       data: pd.DataFrame) -> None:
    ddf = dd.from_pandas(data, npartitions=3, sort=False)
    with pytest.raises(ValueError, match=r"score column 'pp' not found in the Dask DataFrame "
                                         r"\(did you mean 'p'\?\); available columns: y, p"):
        bm.evaluate(ddf, label="y", score="pp")
    with pytest.raises(ValueError, match=r"group column 'sites' not found .*did you mean"):
        bm.evaluate_by(ddf, label="y", score="p", by="sites")
    with pytest.raises(TypeError, match=r"score column 'site' of the Dask DataFrame must be "
                                        r"numeric; its type is"):
        bm.evaluate(ddf, label="y", score="site")
    three = data.assign(y=np.where(data.q < 0.1, 2, data.y))
    with pytest.raises(ValueError, match=r"label column 'y' must hold exactly two classes; "
                                         r"found 3 distinct values: \[0, 1, 2\].*Dask"):
        bm.evaluate(dd.from_pandas(three, npartitions=3), label="y", score="p")


def test_missing_dask(monkeypatch: pytest.MonkeyPatch, data: pd.DataFrame) -> None:
    monkeypatch.setitem(sys.modules, "dask", None)
    with pytest.raises(ImportError, match=r"pip install 'binmetrics\[dask\]'"):
        evaluate_dask(data, label="y", score="p")


def _die(pdf: pd.DataFrame) -> pd.DataFrame:
    os._exit(1)


@pytest.mark.slow  # a cluster of its own: ~20 s under load
def test_a_lost_worker_is_named(data: pd.DataFrame) -> None:
    """A worker that dies on every try: Dask's KilledWorker, named in one line."""
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                         dashboard_address=":0", memory_limit="1GB") as cluster, \
            Client(cluster):
        ddf = dd.from_pandas(data, npartitions=2, sort=False)
        doomed = ddf.map_partitions(_die, meta=ddf._meta)
        with pytest.raises(EngineError, match=r"Dask failed on the Dask DataFrame: "
                                              r"KilledWorker"):
            bm.evaluate(doomed, label="y", score="p")


@pytest.mark.slow
@pytest.mark.parametrize("k", [1, 7, 64])
def test_a_million_rows(client: Any, tmp_path: Path, k: int) -> None:
    df = frame(6, 1_000_000)
    cuts = np.linspace(0, len(df), k + 1).astype(int)
    # read by the workers, not shipped in the graph
    for i, piece in enumerate(df.iloc[a:b] for a, b in itertools.pairwise(cuts)):
        piece.to_parquet(tmp_path / f"part{i:02d}.parquet")
    ddf = dd.read_parquet(str(tmp_path / "*.parquet"))
    assert ddf.npartitions == k
    for score in ("p", "q"):
        ev = bm.evaluate(ddf, label="y", score=score)
        exact = bm.evaluate(df.y, df[score])
        assert ev.table.equals(exact.table)
        assert_same(ev, exact)
    assert_same(bm.evaluate(ddf, label="y", score="p", weight="w"),
                bm.evaluate(df.y, df.p, sample_weight=df.w), rel=1e-12)
