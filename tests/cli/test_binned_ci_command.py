"""Issue 33, point 2: ``evaluate --decimals D --ci`` (DuckDB) gives the intervals it
can, names once the measures left without one and why, and exits 0."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import duckdb  # noqa: F401  (the engine of --decimals)
import numpy as np
import pandas as pd


def test_binned_ci_exits_0(tmp_path: Path,
                           cli: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    rng = np.random.default_rng(0)
    n = 5000
    y = (rng.random(n) < 0.3).astype(int)
    path = tmp_path / "big.parquet"
    pd.DataFrame({"y": y, "p": np.clip(rng.random(n) * 0.6 + 0.3 * y, 0, 1)}).to_parquet(path)
    res = cli("evaluate", str(path), "--label", "y", "--score", "p", "--engine", "duckdb",
              "--decimals", "4", "--ci", "--resamples", "100", "--seed", "0",
              "--format", "json")
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    iv = doc["intervals"]
    assert iv["auc"]["method"] == "delong" and iv["auc"]["low"] < iv["auc"]["high"]
    assert iv["mcc"]["method"].startswith("bootstrap")
    assert iv["brier"]["method"] == "none" and iv["brier"]["low"] is None
    warns = [line for line in res.stderr.splitlines() if "no interval" in line]
    assert len(warns) == 1, res.stderr  # listed once
    assert warns[0].startswith("warning: mae, brier, ")
    assert "resampling binned scores (decimals=4)" in warns[0]
    undefined = [line for line in res.stderr.splitlines() if "are undefined" in line
                 or "is undefined" in line]
    assert len(undefined) <= 1, res.stderr  # ece ... emax: one warning, one reason
