"""The Collector (engines/_common.py): unweighted count tables from chunks in any
order, of one case per row (DuckDB) or of count-table rows (Spark), equal to
CountTable.from_arrays on the same cases."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.engines._common import Collector, Group


def cases(seed: int, n: int, prevalence: float, decimals: int | None) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    s = rng.random(n)
    if decimals is not None:
        s = np.round(s, decimals)
    return pd.DataFrame({"gid": rng.integers(0, 3, n).astype(np.int32),
                         "y": rng.random(n) < prevalence, "s": s})


def groups_of(df: pd.DataFrame) -> list[Group]:
    out = []
    for g in range(3):
        part = df[df.gid == g]
        out.append(Group(key=(g,), n_fin=len(part), n_pos=int(part.y.sum())))
    return out


def chunked(df: pd.DataFrame, rng: np.random.Generator, count_rows: bool,
            dtype: type = np.int64) -> list[dict]:
    """The rows shuffled into chunks of random sizes; with ``count_rows`` first
    grouped into (gid, s) rows with their positive and negative counts, some rows
    split in two (a score may come in several rows) and some empty rows added."""
    if count_rows:
        rows = (df.assign(pos=df.y.astype(np.int64), neg=(~df.y).astype(np.int64))
                .groupby(["gid", "s"], as_index=False)[["pos", "neg"]].sum())
        split = rows.sample(frac=0.2, random_state=1)
        half = split.assign(pos=split.pos // 2, neg=split.neg // 2)
        rows.loc[split.index, ["pos", "neg"]] -= half[["pos", "neg"]].to_numpy()
        empty = rows.sample(n=min(5, len(rows)), random_state=2).assign(pos=0, neg=0)
        rows = pd.concat([rows, half, empty], ignore_index=True)
    else:
        rows = df
    rows = rows.sample(frac=1.0, random_state=int(rng.integers(1 << 30)))
    cuts = np.sort(rng.choice(np.arange(1, len(rows)), size=4, replace=False))
    out = []
    for part in np.split(np.arange(len(rows)), cuts):
        r = rows.iloc[part]
        chunk = {"gid": r.gid.to_numpy(), "s": r.s.to_numpy()}
        if count_rows:
            chunk.update(pos=r.pos.to_numpy().astype(dtype), neg=r.neg.to_numpy().astype(dtype))
        else:
            chunk["is_pos"] = r.y.to_numpy()
        out.append(chunk)
    return out


@pytest.mark.parametrize("count_rows", [False, True])
@pytest.mark.parametrize("decimals", [None, 3, 1])
@pytest.mark.parametrize("prevalence", [0.05, 0.5, 0.9])
def test_tables_equal_from_arrays(count_rows: bool, decimals: int | None,
                                  prevalence: float) -> None:
    # decimals=1 with 12000 rows: about 400 cases a score, counts past one byte
    df = cases(7, 12000 if decimals == 1 else 3000, prevalence, decimals)
    rng = np.random.default_rng(3)
    for dtype in (np.int64, np.int32, np.uint16):  # Spark's long or int, a state's uint
        col = Collector(groups_of(df))
        for chunk in chunked(df, rng, count_rows, dtype):
            col.add(chunk)
        for g, table in enumerate(col.tables()):
            part = df[df.gid == g]
            want = bm.CountTable.from_arrays(part.y, part.s)
            assert table is not None and table.equals(want), (g, count_rows)
            assert table.pos.dtype == want.pos.dtype and table.neg.dtype == want.neg.dtype
            assert (table.P, table.N) == (want.P, want.N)


def test_a_group_without_rows_and_one_class_groups() -> None:
    col = Collector([Group(key=("a",), n_fin=3, n_pos=3), Group(key=("b",)),
                     Group(key=("c",), n_fin=2, n_pos=0)])
    col.add({"gid": np.array([2, 0, 0, 2, 0], np.int32), "s": np.array([.2, .9, .9, .1, .3]),
             "is_pos": np.array([False, True, True, False, True])})
    a, b, c = col.tables()
    assert b is None
    assert a is not None and a.scores.tolist() == [.9, .3] and a.pos.tolist() == [2, 1]
    assert c is not None and c.neg.tolist() == [1, 1] and c.pos.tolist() == [0, 0]


def test_more_rows_than_the_statistics_say_is_an_error() -> None:
    col = Collector([Group(key=(), n_fin=2, n_pos=1)])
    with pytest.raises(RuntimeError, match="more rows than the statistics"):
        col.add({"gid": np.zeros(3, np.int32), "s": np.array([.1, .2, .3]),
                 "is_pos": np.array([True, False, False])})


def test_many_groups_scattered_from_each_chunk() -> None:
    rng = np.random.default_rng(8)
    n, k = 5000, 60
    df = pd.DataFrame({"gid": rng.integers(0, k, n).astype(np.int32), "y": rng.random(n) < 0.4,
                       "s": np.round(rng.random(n), 3)})
    groups = [Group(key=(g,), n_fin=int((df.gid == g).sum()), n_pos=int(df.y[df.gid == g].sum()))
              for g in range(k)]
    for count_rows in (False, True):
        col = Collector(groups)
        for chunk in chunked(df, rng, count_rows):
            col.add(chunk)
        for g, table in enumerate(col.tables()):
            part = df[df.gid == g]
            assert table is not None and table.equals(bm.CountTable.from_arrays(part.y, part.s))


def test_fewer_cases_than_the_statistics_is_an_error() -> None:
    # the data changed between the statistics and the counting pass
    col = Collector([Group(key=("x",), n_fin=4, n_pos=1)])
    col.add({"s": np.array([.1, .2, .3]), "is_pos": np.array([True, False, False])})
    with pytest.raises(RuntimeError, match=r"group \('x',\): the counting pass found 3 cases "
                                           r"\(1 of the minority class\) where the statistics "
                                           r"counted 4 \(1\)"):
        col.tables()
