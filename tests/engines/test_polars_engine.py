"""The Polars engine: bm.evaluate / evaluate_by on a LazyFrame equal the in-memory
evaluation (ties, weights, NaN policy, groups, binning as DuckDB bins), and bad input
gets the other engines' messages."""

from __future__ import annotations

import itertools
import math
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pytest

import binmetrics as bm
from binmetrics.engines import Accumulator, evaluate_file, evaluate_polars
from binmetrics.engines.polars_engine import PolarsJob


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
    return frame(3, 20_000)


def parts(df: pd.DataFrame, k: int) -> pl.LazyFrame:
    """The rows as a LazyFrame concatenated from k pieces (some may be empty)."""
    cuts = np.linspace(0, len(df), k + 1).astype(int)
    return pl.concat([pl.from_pandas(df.iloc[a:b]).lazy()
                      for a, b in itertools.pairwise(cuts)])


@pytest.mark.parametrize("score", ["p", "q"])
def test_unweighted_equals_in_memory_to_the_last_bit(data: pd.DataFrame, score: str) -> None:
    ev = bm.evaluate(parts(data, 7), label="y", score=score, threshold=0.45)
    exact = bm.evaluate(data.y, data[score], threshold=0.45)
    assert ev.table.equals(exact.table)
    assert_same(ev, exact)
    assert (ev.n_rows, ev.n_positive_rows) == (exact.n_rows, exact.n_positive_rows)


def test_weighted_equals_in_memory(data: pd.DataFrame) -> None:
    ev = bm.evaluate(parts(data, 3), label="y", score="p", weight="w")
    exact = bm.evaluate(data.y, data.p, sample_weight=data.w)
    np.testing.assert_array_equal(ev.table.scores, exact.table.scores)
    np.testing.assert_allclose(ev.table.pos, exact.table.pos, rtol=1e-12)
    assert_same(ev, exact, rel=1e-12)


def test_a_polars_dataframe_in_memory_and_binned(data: pd.DataFrame) -> None:
    df = pl.from_pandas(data)
    assert_same(bm.evaluate(df, label="y", score="p"), bm.evaluate(data.y, data.p))
    # decimals= sends it to the engine: the same table and bounds as DuckDB's
    ev = bm.evaluate(df, label="y", score="q", decimals=2, threshold=0.555)
    assert ev.table.binning is not None and ev.table.n_distinct <= 102


@pytest.mark.parametrize("binning", [{"decimals": 2}, {"bins": 25}, {"bins": [0, .3, .5, 1]}])
def test_binned_as_duckdb(data: pd.DataFrame, tmp_path: Path, binning: dict) -> None:
    path = tmp_path / "d.parquet"
    data.to_parquet(path)
    ev = bm.evaluate(pl.scan_parquet(path), label="y", score="q", weight="w",
                     threshold=0.42, **binning)
    duck = evaluate_file(path, label="y", score="q", weight="w", threshold=0.42, **binning)
    np.testing.assert_array_equal(ev.table.scores, duck.table.scores)
    np.testing.assert_allclose(ev.table.pos, duck.table.pos, rtol=1e-12)
    np.testing.assert_allclose(ev.table.neg, duck.table.neg, rtol=1e-12)
    assert_same(ev, duck, rel=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the measures' caveats
        pd.testing.assert_frame_equal(ev.error_bounds(), duck.error_bounds(), rtol=1e-12)
        bounds = ev.error_bounds().set_index("id")
    exact = bm.evaluate(data.y, data.q, sample_weight=data.w, threshold=0.42)
    low, high = bounds.loc["auc", "low"], bounds.loc["auc", "high"]
    assert low - 1e-12 <= exact["auc"] <= high + 1e-12


def test_nan_policy(data: pd.DataFrame) -> None:
    df = data.copy()
    df.loc[[3, 9, 12], "p"] = np.nan
    df.loc[20, "p"] = np.inf
    lf = pl.from_pandas(df, nan_to_null=False).lazy()
    with pytest.raises(ValueError, match=r"score column 'p' has 4 non-finite values \(3 NaN or "
                                         r"NULL, 1 infinite\) in the Polars LazyFrame; pass "
                                         r"nan_policy='omit'"):
        bm.evaluate(lf, label="y", score="p")
    with pytest.warns(UserWarning, match="dropped 4 rows"):
        ev = bm.evaluate(lf, label="y", score="p", nan_policy="omit")
    with pytest.warns(UserWarning, match="4 rows"):
        exact = bm.evaluate(df.y, df.p, nan_policy="omit")
    assert ev.table.equals(exact.table) and ev.n_omitted == 4
    assert_same(ev, exact)


def test_by_groups_equal_evaluate_by(data: pd.DataFrame) -> None:
    df = data.copy()
    df.loc[df.index[:40], "site"] = None  # a missing key: its own group, last
    lazy = bm.evaluate_by(parts(df, 4), label="y", score="p", by="site", weight="w",
                          pi0=0.2, measures=["auc", "brier", "f1"])
    mem = bm.evaluate_by(df, label="y", score="p", by="site", weight="w", pi0=0.2,
                         measures=["auc", "brier", "f1"])
    pd.testing.assert_frame_equal(lazy.to_frame(), mem.to_frame(), rtol=1e-12)
    df["band"] = (df.q * 3).astype(int)
    two = bm.evaluate_by(parts(df, 2), label="y", score="p", by=["site", "band"],
                         measures=["auc"])
    pd.testing.assert_frame_equal(two.to_frame(), bm.evaluate_by(
        df, label="y", score="p", by=["site", "band"], measures=["auc"]).to_frame())


def test_streamed_cases_and_grouped_counts_agree(data: pd.DataFrame) -> None:
    """Distinct scores go to the Collector as cases, repeated ones through the group-by:
    the same table either way."""
    lf = pl.from_pandas(data).lazy()
    with PolarsJob(lf, label="y", score="q") as job:
        st = job.stats()
        assert job._distinct_fraction(st, len(data)) > 0.9
    ev = bm.evaluate(lf, label="y", score="q")
    assert ev.table.equals(bm.evaluate(data.y, data.q).table)
    in_memory_engine = evaluate_polars(lf, label="y", score="q", streaming=False)
    assert in_memory_engine.table.equals(ev.table)


def test_accumulator_takes_polars_columns(data: pd.DataFrame) -> None:
    df = pl.from_pandas(data)
    acc = Accumulator()
    for piece in df.iter_slices(5_000):
        acc.update(piece["y"], piece["p"], piece["w"])
    exact = bm.evaluate(data.y, data.p, sample_weight=data.w)
    np.testing.assert_allclose(acc.table.pos, exact.table.pos, rtol=1e-13)
    assert_same(acc.evaluate(), exact, rel=1e-12)


# --- bad input: the messages of the other engines -----------------------------------------
def test_missing_column_did_you_mean(data: pd.DataFrame) -> None:
    lf = pl.from_pandas(data).lazy()
    with pytest.raises(ValueError, match=r"score column 'pp' not found in the Polars "
                                         r"LazyFrame \(did you mean 'p'\?\); available "
                                         r"columns: y, p, q, w, site"):
        bm.evaluate(lf, label="y", score="pp")
    with pytest.raises(ValueError, match=r"group column 'sites' not found .*did you mean "
                                         r"'site'"):
        bm.evaluate_by(lf, label="y", score="p", by="sites")


def test_non_numeric_score_and_three_labels(data: pd.DataFrame) -> None:
    lf = pl.from_pandas(data).lazy()
    with pytest.raises(TypeError, match=r"score column 'site' of the Polars LazyFrame must be "
                                        r"numeric; its type is String"):
        bm.evaluate(lf, label="y", score="site")
    three = lf.with_columns(pl.when(pl.col("q") < 0.1).then(2).otherwise(pl.col("y"))
                            .alias("y"))
    with pytest.raises(ValueError, match=r"label column 'y' must hold exactly two classes; "
                                         r"found 3 distinct values: \[0, 1, 2\].*Polars"):
        bm.evaluate(three, label="y", score="p")


def test_empty_pieces_are_harmless(data: pd.DataFrame) -> None:
    empty = pl.from_pandas(data.iloc[:0]).lazy()
    lf = pl.concat([empty, pl.from_pandas(data).lazy(), empty])
    assert bm.evaluate(lf, label="y", score="p").table.equals(
        bm.evaluate(data.y, data.p).table)
    with pytest.raises(ValueError, match="has no rows"):
        bm.evaluate(empty, label="y", score="p")


def test_options_and_missing_polars(monkeypatch: pytest.MonkeyPatch,
                                    data: pd.DataFrame) -> None:
    lf = pl.from_pandas(data).lazy()
    low = bm.evaluate(lf, label="y", score="p", higher_is_positive=False, threshold=0.4)
    assert_same(low, bm.evaluate(data.y, data.p, higher_is_positive=False, threshold=0.4))
    with pytest.raises(ValueError, match="higher_is_positive=False with decimals= or bins="):
        bm.evaluate(lf, label="y", score="p", higher_is_positive=False, decimals=2)
    with pytest.raises(TypeError, match="evaluated by its columns"):
        bm.evaluate(lf, np.zeros(3), label="y", score="p")
    with pytest.raises(TypeError, match=r"decimals=: these options are for a Polars LazyFrame"):
        bm.evaluate([0, 1], [0.2, 0.7], decimals=2)
    monkeypatch.setitem(sys.modules, "polars", None)
    with pytest.raises(ImportError, match=r"pip install 'binmetrics\[polars\]'"):
        evaluate_polars(data, label="y", score="p")


@pytest.mark.slow
@pytest.mark.parametrize("k", [1, 7, 64])
def test_a_million_rows_in_k_files(tmp_path: Path, k: int) -> None:
    df = frame(5, 1_000_000)
    cuts = np.linspace(0, len(df), k + 1).astype(int)
    for i, piece in enumerate(df.iloc[a:b] for a, b in itertools.pairwise(cuts)):
        piece.to_parquet(tmp_path / f"part{i:02d}.parquet")
    lf = pl.scan_parquet(tmp_path / "*.parquet")
    for score in ("p", "q"):
        ev = bm.evaluate(lf, label="y", score=score)
        exact = bm.evaluate(df.y, df[score])
        assert ev.table.equals(exact.table)
        assert_same(ev, exact)
    assert_same(bm.evaluate(lf, label="y", score="p", weight="w"),
                bm.evaluate(df.y, df.p, sample_weight=df.w), rel=1e-12)


def test_where_is_refused_with_what_to_do(data: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"where= \(--where\) is not supported by the Polars "
                                         r"engine: filter the LazyFrame first"):
        PolarsJob(pl.from_pandas(data).lazy(), label="y", score="p", where="p > 1")


def test_accumulator_takes_polars_frames(data: pd.DataFrame, tmp_path: Path) -> None:
    path = tmp_path / "d.parquet"
    data.to_parquet(path, row_group_size=4_000)
    exact = bm.evaluate(data.y, data.p, sample_weight=data.w)
    lazy = Accumulator().update(pl.scan_parquet(path), label="y", score="p", weight="w")
    assert lazy.n_rows == len(data)
    eager = Accumulator().update(pl.read_parquet(path), label="y", score="p", weight="w")
    for acc in (lazy, eager):
        np.testing.assert_allclose(acc.table.pos, exact.table.pos, rtol=1e-13)
        assert_same(acc.evaluate(), exact, rel=1e-12)
    with pytest.raises(ValueError, match=r"score column 'pp' not found in the LazyFrame "
                                         r"\(did you mean 'p'\?\)"):
        Accumulator().update(pl.scan_parquet(path), label="y", score="pp")
    with pytest.raises(TypeError, match="not both"):
        Accumulator().update(pl.read_parquet(path), data.p, label="y", score="p")
