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

SRC = str(Path(__file__).resolve().parents[2] / "src")


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
        assert got[r.measure]["estimate"] == pytest.approx(r.estimate)
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


# --- --test: pROC's roc.test methods for every pair ---------------------------------
def test_compare_test_delong_and_venkatraman_are_roc_test(preds):
    path, frame = preds
    p = cli("compare", str(path), "--label", "y", "--score", "p_lr,p_gb,p_nb", "--test",
            "delong", "--alternative", "greater", "--format", "json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["test"] == "delong" and len(doc["comparisons"]) == 3
    for c in doc["comparisons"]:
        ref = bm.roc_test(frame["y"], frame[c["model_a"]], frame[c["model_b"]],
                          alternative="greater")
        assert (c["statistic"], c["pvalue"], c["value_a"]) == pytest.approx(
            (ref.statistic, ref.pvalue, ref.value_a), rel=1e-12)
        assert c["paired"] and c["alternative"] == "greater" and c["measure"] == "auc"
    argv = ("compare", str(path), "--label", "y", "--score", "p_lr,p_gb", "--test",
            "venkatraman", "--resamples", "50", "--seed", "4")
    p = cli(*argv)
    assert p.returncode == 0, p.stderr
    assert "test:       venkatraman, paired, alternative two-sided, 50 resamples" in p.stdout
    ref = bm.roc_test(frame["y"], frame["p_lr"], frame["p_gb"], method="venkatraman",
                      n_resamples=50, random_state=4)
    row = p.stdout.strip().splitlines()[-1].split()
    assert row[:2] == ["p_lr", "p_gb"] and float(row[-2]) == pytest.approx(ref.statistic)
    assert float(row[-1]) == pytest.approx(ref.pvalue, abs=1e-6)
    assert cli(*argv).stdout == p.stdout  # same seed, same output


def test_compare_test_bootstrap_partial_and_specificity_csv(preds):
    path, frame = preds
    p = cli("compare", str(path), "--label", "y", "--score", "p_lr,p_gb", "--test",
            "bootstrap", "--fpr", "0,0.2", "--resamples", "200", "--seed", "1", "--format",
            "csv")
    assert p.returncode == 0, p.stderr
    row = pd.read_csv(io.StringIO(p.stdout)).iloc[0]
    ref = bm.roc_test(frame["y"], frame["p_lr"], frame["p_gb"], method="bootstrap",
                      fpr=(0, .2), n_resamples=200, random_state=1)
    assert row["measure"] == "partial_auc" and row["params"] == "fpr=(0.0, 0.2)"
    assert (row["statistic"], row["pvalue"], row["value_b"]) == pytest.approx(
        (ref.statistic, ref.pvalue, ref.value_b), rel=1e-12)
    p = cli("compare", str(path), "--label", "y", "--score", "p_lr,p_gb", "--test",
            "specificity", "--fpr", "0.1", "--resamples", "100", "--seed", "2",
            "--format", "csv")
    row = pd.read_csv(io.StringIO(p.stdout)).iloc[0]
    ref = bm.roc_test(frame["y"], frame["p_lr"], frame["p_gb"], method="specificity",
                      fpr=0.1, n_resamples=100, random_state=2)
    assert row["measure"] == "tpr_at_fpr" and row["n_resamples"] == 100
    assert row["statistic"] == pytest.approx(ref.statistic, rel=1e-12)


@pytest.mark.parametrize(("extra", "message"), [
    (("--test", "sensitivity"), "give --tpr X only"),
    (("--test", "specificity", "--fpr", "0,0.2"), "give --fpr X only"),
    (("--test", "bootstrap", "--fpr", "0.1"), "over a range"),
    (("--test", "delong", "--tpr", "0.5,1"), "do not apply to --test delong"),
    (("--test", "delong", "--ci"), "--ci applies to the measure comparison"),
    (("--test", "delong", "--measures", "auc"), "--measures applies"),
    (("--test", "venkatraman", "--weight", "p_nb"), "takes no --weight"),
    (("--test", "bootstrap", "--fpr", "x,y"), "--fpr takes a rate"),
    (("--fpr", "0.1",), "--fpr applies to --test"),
])
def test_compare_test_errors(preds, extra, message):
    path, _ = preds
    p = cli("compare", str(path), "--label", "y", "--score", "p_lr,p_gb", *extra)
    assert p.returncode == 2 and p.stdout == "", p.stdout
    assert message in p.stderr and len(p.stderr.strip().splitlines()) <= 2, p.stderr
