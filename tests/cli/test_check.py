"""``binmetrics check``: the exit codes of a CI gate, through a subprocess."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import binmetrics as bm


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    rng = np.random.default_rng(0)
    n = 1500
    y = (rng.random(n) < 0.3).astype(int)
    noise = rng.normal(0, 1, n)
    new = 1 / (1 + np.exp(-(2.0 * y + noise - 1)))
    old = 1 / (1 + np.exp(-(1.9 * y + noise + rng.normal(0, 0.3, n) - 1)))
    d = tmp_path_factory.mktemp("check")
    pd.DataFrame({"y": y, "p": new}).to_csv(d / "new.csv", index=False)
    pd.DataFrame({"y": y, "p": old}).to_csv(d / "old.csv", index=False)
    pd.DataFrame({"y": 1 - y, "p": old}).to_csv(d / "other.csv", index=False)
    return d / "new.csv", d / "old.csv", d / "other.csv"


def test_exit_0_when_every_requirement_holds(cli, files) -> None:
    r = cli("check", files[0], "--label", "y", "--score", "p", "--require", "auc>=0.80",
            "--require", "fpr<=0.3", "--on", "lower-bound")
    assert r.returncode == 0, r.stderr
    assert "2 of 2 checks hold" in r.stdout
    assert "lower 0.95 bound (delong)" in r.stdout and "upper 0.95 bound" in r.stdout


def test_exit_1_names_the_failure_and_by_how_much(cli, files) -> None:
    ev = bm.evaluate(pd.read_csv(files[0])["y"], pd.read_csv(files[0])["p"])
    r = cli("check", files[0], "--label", "y", "--score", "p", "--require", "auc>=0.99",
            "--require", "recall>=0.1", "--format", "table")
    assert r.returncode == 1
    assert f"FAILED: auc >= 0.99: estimate is {ev['auc']:.6g}, short by " \
           f"{0.99 - ev['auc']:.6g}" in r.stdout
    assert "1 of 2 checks hold; exit status 1" in r.stdout
    out = json.loads(cli("check", files[0], "--label", "y", "--score", "p", "--require",
                         "auc>=0.99", "--format", "json").stdout)
    assert out["holds"] is False and out["checks"][0]["by"] == pytest.approx(ev["auc"] - 0.99)


def test_the_lower_bound_is_the_evaluations_interval(cli, files) -> None:
    df = pd.read_csv(files[0])
    low = bm.evaluate(df["y"], df["p"]).ci_table(["auc"]).loc[0, "low"]
    r = cli("check", files[0], "--label", "y", "--score", "p", "--require",
            f"auc>={low + 1e-4}", "--on", "lower-bound", "--format", "json")
    assert r.returncode == 1
    assert json.loads(r.stdout)["checks"][0]["tested"] == pytest.approx(low, rel=1e-12)


def test_non_inferiority_is_the_one_sided_paired_test_against_the_margin(cli, files) -> None:
    new, old = pd.read_csv(files[0]), pd.read_csv(files[1])
    r = cli("check", files[0], "--label", "y", "--score", "p", "--require", "auc",
            "--require", "f1", "--baseline", files[1], "--non-inferior", "0.02",
            "--seed", "3", "--resamples", "500", "--format", "json")
    assert r.returncode in (0, 1), r.stderr
    checks = {c["measure"]: c for c in json.loads(r.stdout)["checks"]}
    t = bm.delong_test(new["y"], new["p"], old["p"])
    want = stats.norm.sf((t.estimate + 0.02) / t.sigma)  # H0: AUC_new - AUC_old <= -0.02
    assert checks["auc"]["tested"] == pytest.approx(want, rel=1e-10)
    assert checks["auc"]["on"] == "pvalue, DeLong paired z, one-sided"
    assert checks["auc"]["holds"] == (want < 0.05)
    assert "paired bootstrap (500 replicates), one-sided" in checks["f1"]["on"]
    assert 0 < checks["f1"]["tested"] <= 1
    # a margin of 0 makes non-inferiority superiority: harder to pass
    strict = json.loads(cli("check", files[0], "--label", "y", "--score", "p", "--require",
                            "auc", "--baseline", files[1], "--non-inferior", "0",
                            "--format", "json").stdout)
    assert strict["checks"][0]["tested"] > checks["auc"]["tested"]


@pytest.mark.parametrize("argv, message", [
    (["--require", "auk>=0.8"], "unknown measure 'auk' (did you mean 'auc'?)"),
    (["--require", "auc~0.8"], "unknown operator"),
    (["--require", "auc>=high"], "'high' is not a number"),
    (["--require", "auc"], "names no bound"),
    (["--require", "auc>=0.8", "--non-inferior", "0.02"], "go together"),
    (["--require", "auc>=0.8", "--label", "yy"], "label column 'yy' not found"),
])
def test_usage_errors_exit_2(cli, files, argv: list[str], message: str) -> None:
    r = cli("check", files[0], "--label", "y", "--score", "p", *argv)
    assert r.returncode == 2
    assert message in r.stderr and "Traceback" not in r.stderr


def test_a_baseline_of_other_cases_is_an_error_not_a_pass(cli, files) -> None:
    r = cli("check", files[0], "--label", "y", "--score", "p", "--require", "auc>=0.5",
            "--baseline", files[2], "--non-inferior", "0.02")
    assert r.returncode == 2 and "row for row" in r.stderr
    r = cli("check", str(files[0]) + ".missing", "--label", "y", "--score", "p",
            "--require", "auc>=0.5")
    assert r.returncode == 2 and "no such file" in r.stderr
