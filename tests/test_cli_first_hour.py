"""Issue 20 in the command line, as a newcomer runs it (subprocess, ``python -m
binmetrics``): no noise (2), progress off a terminal (3), ``--summary`` (4), honest
messages (6). The paired ``compare`` and ``srd`` (1) are in tests/cli/test_compare_command.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

SRC = str(Path(__file__).resolve().parents[1] / "src")


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "binmetrics", *argv], capture_output=True,
                          text=True, env=env, timeout=300)


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


# --- 2. noise ------------------------------------------------------------------------
def test_caveat_only_when_shown_and_once(preds):
    p = cli("evaluate", str(preds), "--label", "y", "--score", "p", "--measures", "auc,mcc")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    p = cli("evaluate", str(preds), "--label", "y", "--score", "p", "--by", "g", "--pi0", "0.5")
    assert p.returncode == 0, p.stderr
    assert "bedroc" not in p.stderr, p.stderr  # a judgement: for those who ask for it
    p = cli("evaluate", str(preds), "--label", "y", "--score", "p", "--by", "g", "--pi0", "0.5",
            "--measures", "auc,bedroc")
    assert p.returncode == 0, p.stderr
    assert p.stderr.count("bedroc") == 1, p.stderr


# --- 3. progress ---------------------------------------------------------------------
def test_progress_lines_off_a_terminal(preds):
    argv = ("evaluate", str(preds), "--label", "y", "--score", "p", "--measures", "mcc",
            "--ci", "--resamples", "500", "--seed", "0")
    p = cli(*argv, "--progress", "always")
    assert p.returncode == 0
    assert "bootstrap: 500/500 (100%) done in" in p.stderr, p.stderr
    quiet = cli(*argv, "--progress", "never")
    assert quiet.stderr == "" and quiet.stdout == p.stdout


def test_srd_reports_progress(tmp_path):
    path = tmp_path / "t.csv"
    rng = np.random.default_rng(0)
    pd.DataFrame(rng.normal(size=(12, 4)).round(3), columns=list("abcd")).to_csv(path,
                                                                               index=False)
    argv = ("srd", str(path), "--cv", "4", "--seed", "0")
    p = cli(*argv, "--progress", "always")
    assert p.returncode == 0, p.stderr
    assert "srd randomization: 4/4 (100%) done in" in p.stderr, p.stderr
    assert "srd cross-validation: 4/4 (100%) done in" in p.stderr, p.stderr
    quiet = cli(*argv, "--progress", "never")
    assert quiet.stderr == "" and quiet.stdout == p.stdout


# --- 4. --summary --------------------------------------------------------------------
def test_summary(preds):
    p = cli("evaluate", str(preds), "--label", "y", "--score", "p", "--summary")
    assert p.returncode == 0, p.stderr
    for word in ("engine:", "per class:", "precision", "recall", "support", "threshold 0.5"):
        assert word in p.stdout
    p = cli("evaluate", str(preds), "--label", "y", "--score", "p", "--summary", "--ci",
            "--seed", "0", "--resamples", "200", "--format", "json")
    doc = json.loads(p.stdout)
    assert {m["id"] for m in doc["measures"]} >= {"tpr", "ppv", "mcc", "auc"}
    assert all(m["low"] <= m["value"] <= m["high"] for m in doc["measures"])


# --- 6. honest messages ----------------------------------------------------------------
def test_report_counts_rows_not_models_times_rows(preds, tmp_path):
    p = cli("report", str(preds), "--label", "y", "--score", "p,q", "-o",
            str(tmp_path / "r.html"))
    assert p.returncode == 0, p.stderr
    assert "the same 3000 rows" in p.stdout and "6000" not in p.stdout


def test_nan_rows_are_data_rows_counted_from_1(tmp_path):
    path = tmp_path / "nan.csv"
    path.write_text("y,p\n1,0.5\n0,\n1,0.3\n")
    p = cli("evaluate", str(path), "--label", "y", "--score", "p")
    assert p.returncode == 2
    assert "data rows [2] (the first data row is 1)" in p.stderr, p.stderr


@pytest.mark.parametrize("engine", ["numpy", "duckdb"])
def test_row_positions_are_data_rows_on_every_engine(tmp_path, engine):
    pytest.importorskip("duckdb")
    path = tmp_path / "nan.parquet"
    pd.DataFrame({"y": [1, 0, 1, 0], "p": [0.5, np.nan, 0.3, 0.1]}).to_parquet(path)
    p = cli("evaluate", str(path), "--label", "y", "--score", "p", "--engine", engine)
    assert p.returncode == 2
    assert "data row" in p.stderr and "2" in p.stderr, p.stderr
    assert "(the first data row is 1)" in p.stderr or "the first data row is 1)" in p.stderr
    assert "0-based" not in p.stderr


def test_a_short_line_is_named_by_line_and_data_row(tmp_path):
    path = tmp_path / "short.csv"
    path.write_text("y,p\n1,0.5\n0\n1,0.3\n")
    p = cli("evaluate", str(path), "--label", "y", "--score", "p")
    assert p.returncode == 2
    assert f"line 3 of {path} (data row 2; the first data row is 1) has 1 field" in p.stderr


def test_threshold_outside_the_scores_range_warns(preds):
    p = cli("evaluate", str(preds), "--label", "y", "--score", "p", "--threshold", "1.5",
            "--measures", "tpr")
    assert p.returncode == 0
    assert "--threshold 1.5 is outside the scores' range" in p.stderr
    assert "predicted negative" in p.stderr


def test_empty_file_and_header_only(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    header = tmp_path / "header.csv"
    header.write_text("y,p\n")
    for cmd in ("evaluate", "compare"):
        argv = ["--label", "y", "--score", "p" if cmd == "evaluate" else "p,p2"]
        p = cli(cmd, str(empty), *argv)
        assert p.returncode == 2 and "the file has no header and no rows" in p.stderr
    p = cli("evaluate", str(header), "--label", "y", "--score", "p")
    assert p.returncode == 2 and "has no rows" in p.stderr, p.stderr
    p = cli("srd", str(empty))
    assert p.returncode == 2 and "no header and no rows" in p.stderr


@pytest.mark.parametrize("engine", ["numpy", "duckdb", "spark"])
def test_empty_inputs_say_so_on_every_engine(tmp_path, engine):
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    header = tmp_path / "header.csv"
    header.write_text("y,p\n")
    zero = tmp_path / "zero.parquet"
    pd.DataFrame({"y": pd.Series([], dtype=int), "p": pd.Series([], dtype=float)}).to_parquet(zero)
    expected = {empty: f"{empty} is empty: the file has no header and no rows",
                header: f"{header} has no rows: the file holds only its header (y, p)",
                zero: f"{zero} has no rows: the file holds only its schema (y, p)"}
    for path, message in expected.items():
        p = cli("evaluate", str(path), "--label", "y", "--score", "p", "--engine", engine)
        assert p.returncode == 2 and p.stderr.strip() == f"binmetrics: error: {message}", (
            p.stderr)


def test_header_names_the_engine_and_why(preds):
    p = cli("evaluate", str(preds), "--label", "y", "--score", "p", "--measures", "auc")
    assert "engine:     numpy (in memory with pandas: the file is" in p.stdout
    p = cli("evaluate", str(preds), "--label", "y", "--score", "p", "--measures", "auc",
            "--engine", "numpy", "--format", "json")
    assert json.loads(p.stdout)["engine"] == "numpy (--engine numpy)"
