"""``binmetrics evaluate FILES --engine polars|dask [--scheduler URL]``: the same numbers
as DuckDB (the default engine for globs, which ``--engine auto`` keeps), the same
messages on bad input, and no output file when the run fails."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm

pytest.importorskip("polars")
pytest.importorskip("distributed")

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, pd.DataFrame]:
    rng = np.random.default_rng(8)
    d = tmp_path_factory.mktemp("frames")
    parts = []
    for i in range(3):
        n = 1500
        y = (rng.random(n) < 0.3).astype(int)
        part = pd.DataFrame({"y": y, "p": np.round(rng.random(n) * 0.5 + 0.3 * y, 3),
                             "w": rng.exponential(1.0, n), "g": rng.integers(0, 3, n)})
        part.to_parquet(d / f"part{i}.parquet")
        parts.append(part)
    return str(d / "*.parquet"), pd.concat(parts, ignore_index=True)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                      dashboard_address=":0", memory_limit="1GB") as cluster:
        yield cluster.scheduler_address


def _json(run: Run, *argv: str) -> dict:
    out = run("evaluate", *argv, "--label", "y", "--score", "p", "--format", "json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize("engine", ["polars", pytest.param("dask", marks=pytest.mark.slow)])
def test_engine_agrees_with_duckdb_and_memory(cli: Run, files: tuple[str, pd.DataFrame],
                                              engine: str) -> None:
    glob, df = files
    got = _json(cli, glob, "--engine", engine, "--weight", "w")
    duck = _json(cli, glob, "--engine", "duckdb", "--weight", "w")
    assert got["engine"] == f"{engine} (--engine {engine})"
    assert duck["engine"].startswith("duckdb")
    exact = bm.evaluate(df.y, df.p, sample_weight=df.w)
    assert got["measures"]["auc"] == pytest.approx(exact["auc"], rel=1e-12)
    for k, v in duck["measures"].items():
        if isinstance(v, float) and np.isfinite(v):
            assert got["measures"][k] == pytest.approx(v, rel=1e-12, abs=1e-12), k


@pytest.mark.slow  # a subprocess per engine, ~10 s each under load
def test_auto_keeps_duckdb_and_scheduler_picks_dask(cli: Run, files: tuple[str, pd.DataFrame],
                                                    scheduler: str) -> None:
    glob, df = files
    assert _json(cli, glob)["engine"].startswith("duckdb")
    got = _json(cli, glob, "--scheduler", scheduler, "--decimals", "2")
    assert got["engine"].startswith("dask")
    exact = bm.evaluate(df.y, df.p)
    assert got["measures"]["brier"] == pytest.approx(exact["brier"], rel=1e-12)


@pytest.mark.slow  # a subprocess per engine, ~10 s each under load
def test_by_groups_on_the_cluster(cli: Run, files: tuple[str, pd.DataFrame],
                                  scheduler: str) -> None:
    glob, _ = files
    out = cli("evaluate", glob, "--label", "y", "--score", "p", "--by", "g", "--engine",
              "dask", "--scheduler", scheduler, "--format", "csv")
    assert out.returncode == 0, out.stderr
    polars = cli("evaluate", glob, "--label", "y", "--score", "p", "--by", "g", "--engine",
                 "polars", "--format", "csv")
    assert polars.returncode == 0, polars.stderr
    assert out.stdout == polars.stdout


@pytest.mark.parametrize("engine", ["polars", pytest.param("dask", marks=pytest.mark.slow)])
def test_bad_input_same_message_nothing_written(cli: Run, files: tuple[str, pd.DataFrame],
                                                tmp_path: Path, engine: str) -> None:
    glob, _ = files
    target = tmp_path / "out.json"
    out = cli("evaluate", glob, "--label", "y", "--score", "pp", "--engine", engine,
              "-o", str(target))
    assert out.returncode != 0
    assert f"score column 'pp' not found in {glob!r} (did you mean 'p'?)" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and not target.exists()
    out = cli("evaluate", glob, "--label", "g", "--score", "p", "--engine", engine)
    assert out.returncode != 0 and "found 3 distinct values: [0, 1, 2]" in out.stderr


@pytest.mark.slow  # a subprocess per engine, ~10 s each under load
def test_unreachable_scheduler(cli: Run, files: tuple[str, pd.DataFrame],
                               tmp_path: Path) -> None:
    glob, _ = files
    target = tmp_path / "out.json"
    out = cli("evaluate", glob, "--label", "y", "--score", "p", "--engine", "dask",
              "--scheduler", "tcp://127.0.0.1:9", "-o", str(target))
    assert out.returncode != 0 and not target.exists()
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in out.stderr
