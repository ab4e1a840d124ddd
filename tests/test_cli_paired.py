"""``binmetrics compare`` is ``bm.compare`` (issue 20, point 1): subprocess tests of the
paired comparison from the command line, the pointer of an old-style call to ``srd``,
and SRD's errors in the CLI's words."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm

SRC = str(Path(__file__).resolve().parents[1] / "src")


def cli(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "binmetrics", *argv], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=300)


@pytest.fixture(scope="module")
def preds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame]:
    rng = np.random.default_rng(1)
    n = 600
    y = (rng.random(n) < 0.35).astype(int)
    frame = pd.DataFrame({"y": y,
                          "p_lr": 1 / (1 + np.exp(-(1.2 * y + rng.normal(0, 1, n) - 0.8))),
                          "p_gb": 1 / (1 + np.exp(-(2.0 * y + rng.normal(0, 1, n) - 1.0))),
                          "p_nb": rng.random(n)})
    path = tmp_path_factory.mktemp("cmp") / "preds.csv"
    frame.to_csv(path, index=False)
    return path, frame


def test_compare_matches_bm_compare(preds):
    path, frame = preds
    p = cli("compare", str(path), "--label", "y", "--score", "p_lr,p_gb",
            "--format", "json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    ref = bm.compare(frame["y"], {"p_lr": frame["p_lr"], "p_gb": frame["p_gb"]})
    got = {(c["measure"]): c for c in doc["comparisons"]}
    for r in ref:
        assert got[r.measure]["difference"] == pytest.approx(r.difference)
        assert got[r.measure]["pvalue"] == pytest.approx(r.pvalue)
    assert got["auc"]["method"] == "delong" and got["accuracy"]["method"] == "mcnemar-exact"
    assert doc["rows"] == len(frame)


def test_compare_bootstrap_ci_seed_three_models(preds):
    path, frame = preds
    argv = ("compare", str(path), "--label", "y", "--score", "p_lr,p_gb,p_nb",
            "--measures", "auc,mcc", "--ci", "--seed", "3", "--resamples", "200")
    p = cli(*argv)
    assert p.returncode == 0, p.stderr
    assert "95% low" in p.stdout and "p-value" in p.stdout and "paired-bootstrap" in p.stdout
    assert "read with pandas" in p.stdout
    assert p.stdout.count("mcc") >= 3  # three pairs
    assert cli(*argv).stdout == p.stdout  # same seed, same output
    csv_out = cli(*argv, "--format", "csv")
    table = pd.read_csv(io.StringIO(csv_out.stdout))
    ref = bm.compare(frame["y"], {c: frame[c] for c in ("p_lr", "p_gb", "p_nb")},
                     measures=["auc", "mcc"], n_resamples=200, random_state=3).to_frame()
    np.testing.assert_allclose(table["pvalue"], ref["pvalue"])
    np.testing.assert_allclose(table["low"], ref["low"])


def test_old_style_compare_points_at_srd(preds):
    path, _ = preds
    for argv in (("compare", str(path)), ("compare", str(path), "--reference", "best")):
        p = cli(*argv)
        assert p.returncode == 2 and p.stdout == ""
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and "binmetrics srd" in lines[0], p.stderr


def test_compare_needs_two_scores(preds):
    path, _ = preds
    p = cli("compare", str(path), "--label", "y", "--score", "p_lr")
    assert p.returncode == 2 and "at least two" in p.stderr


def test_srd_runs_and_text_column_names_index_col(tmp_path):
    table = tmp_path / "t.csv"
    pd.DataFrame({"obj": ["a", "b", "c", "d"], "kind": ["x", "y", "x", "y"],
                  "m1": [1.0, 2, 3, 4], "m2": [2.0, 1, 4, 3]}).to_csv(table, index=False)
    p = cli("srd", str(table))
    assert p.returncode == 2
    assert "--index-col" in p.stderr and "set_index" not in p.stderr, p.stderr
    ok = tmp_path / "ok.csv"
    pd.DataFrame({"obj": ["a", "b", "c", "d"], "m1": [1.0, 2, 3, 4],
                  "m2": [2.0, 1, 4, 3]}).to_csv(ok, index=False)
    p = cli("srd", str(ok))
    assert p.returncode == 0 and "SRD of 2 columns" in p.stdout, p.stderr


def test_compare_progress_off_a_terminal(preds):
    path, _ = preds
    argv = ("compare", str(path), "--label", "y", "--score", "p_lr,p_gb", "--measures",
            "mcc", "--resamples", "300", "--seed", "0")
    p = cli(*argv, "--progress", "always")
    assert p.returncode == 0 and "paired bootstrap: 300/300 (100%) done in" in p.stderr
    assert cli(*argv, "--progress", "never").stderr == ""
