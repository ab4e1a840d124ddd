"""Shared by the command-line tests: ``cli`` runs ``python -m binmetrics`` in a
subprocess (as a newcomer runs it) with this checkout's source first on the path, and
``preds`` is a CSV of predictions for it to read."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

SRC = str(Path(__file__).resolve().parents[2] / "src")


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "binmetrics", *argv], capture_output=True,
                          text=True, env=env, timeout=300)


@pytest.fixture(scope="session")
def cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    """``cli("evaluate", path, ...)``: the finished subprocess (returncode, stdout, stderr)."""
    return _run


@pytest.fixture(scope="module")
def preds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = np.random.default_rng(2)
    n = 3000
    y = (rng.random(n) < 0.3).astype(int)
    frame = pd.DataFrame({"y": y, "p": 1 / (1 + np.exp(-(1.5 * y + rng.normal(0, 1, n) - 1))),
                          "q": rng.random(n), "g": rng.integers(0, 8, n)})
    path = tmp_path_factory.mktemp("fh") / "preds.csv"
    frame.to_csv(path, index=False)
    return path
