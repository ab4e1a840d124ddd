"""binmetrics evaluate --by ... --gaps ... [--ci] and --clusters COL, in a subprocess."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.inference.clustered import cluster_bootstrap, clustered_auc_ci


@pytest.fixture(scope="module")
def clustered(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame]:
    rng = np.random.default_rng(0)
    n = 1200
    patient = np.repeat(np.arange(300), 4)
    y = rng.integers(0, 2, n)
    p = np.round(np.clip(0.3 * y + 0.5 * rng.random(300)[patient] + 0.2 * rng.random(n), 0, 1),
                 3)
    df = pd.DataFrame({"y": y, "p": p, "sex": rng.choice(["f", "m"], n),
                       "race": rng.choice(["a", "b", "c"], n), "patient": patient})
    path = tmp_path_factory.mktemp("groups") / "clustered.csv"
    df.to_csv(path, index=False)
    return path, df


def test_gaps_with_intervals_as_json(cli, clustered) -> None:
    path, df = clustered
    p = cli("evaluate", str(path), "--label", "y", "--score", "p", "--by", "sex,race",
            "--measures", "tpr,ppv", "--gaps", "tpr,ppv", "--ci", "--resamples", "200",
            "--seed", "0", "--format", "json")
    assert p.returncode == 0, p.stderr
    gaps = json.loads(p.stdout)["gaps"]
    g = bm.evaluate_by(df, label="y", score="p", by=["sex", "race"], measures=["tpr", "ppv"])
    want = g.difference("ppv", ci=True, n_resamples=200, random_state=0)
    row = next(r for r in gaps if r["measure"] == "ppv" and r["kind"] == "difference")
    assert row["estimate"] == pytest.approx(want.estimate, abs=1e-12)
    assert (row["low"], row["high"]) == pytest.approx((want.ci.low, want.ci.high), abs=1e-12)
    assert row["pvalue"] == pytest.approx(want.pvalue)
    assert [r["kind"] for r in gaps] == ["difference", "ratio"] * 2


def test_gaps_as_text(cli, clustered) -> None:
    path, _ = clustered
    p = cli("evaluate", str(path), "--label", "y", "--score", "p", "--by", "sex",
            "--measures", "tpr", "--gaps", "recall")
    assert p.returncode == 0, p.stderr
    assert "between-group gaps (difference: max - min; ratio: min / max)" in p.stdout
    assert "tpr difference" in p.stdout


def test_clustered_intervals(cli, clustered) -> None:
    path, df = clustered
    p = cli("evaluate", str(path), "--label", "y", "--score", "p", "--measures", "auc,tpr",
            "--ci", "--clusters", "patient", "--resamples", "200", "--seed", "1",
            "--format", "json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)["intervals"]
    iv = clustered_auc_ci(df["y"], df["p"], clusters=df["patient"])
    boot = cluster_bootstrap(df["y"], df["p"], ["auc", "tpr"], clusters=df["patient"],
                             n_resamples=200, random_state=1).ci("tpr")
    assert (out["auc"]["low"], out["auc"]["high"]) == pytest.approx((iv.low, iv.high),
                                                                    abs=1e-12)
    assert (out["tpr"]["low"], out["tpr"]["high"]) == pytest.approx((boot.low, boot.high),
                                                                    abs=1e-12)
    assert "obuchowski" in json.dumps(out["auc"])
    assert "cluster-bootstrap" in json.dumps(out["tpr"])


@pytest.mark.parametrize(("extra", "message"), [
    (["--gaps", "tpr"], "--gaps compares the groups of --by"),
    (["--by", "sex", "--gaps", ""], "--gaps is empty"),
    (["--by", "sex", "--gaps", "tprr"], "--gaps:"),
    (["--by", "sex", "--gaps", "tpr", "--format", "csv"], "--gaps prints with"),
    (["--clusters", "patient"], "give --ci too"),
    (["--clusters", "patient", "--ci", "--by", "sex"], "--clusters works without --by"),
    (["--clusters", "nope", "--ci"], "nope"),
])
def test_bad_options_are_one_line_errors(cli, clustered, extra, message) -> None:
    path, _ = clustered
    p = cli("evaluate", str(path), "--label", "y", "--score", "p", "--measures", "tpr", *extra)
    assert p.returncode == 2, p.stdout
    assert message in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr


def test_report_by_adds_the_groups_section(cli, clustered, tmp_path: Path) -> None:
    path, df = clustered
    out = tmp_path / "r.html"
    p = cli("report", str(path), "--label", "y", "--score", "p", "--by", "sex", "--gaps",
            "tpr", "--ci", "--resamples", "100", "--seed", "0", "--ci-level", "0.9",
            "-o", str(out))
    assert p.returncode == 0, p.stderr
    page = out.read_text("utf-8")
    g = bm.evaluate_by(df, label="y", score="p", by="sex", measures=["tpr"])
    d = g.difference("tpr", ci=True, n_resamples=100, random_state=0, level=0.9)
    assert "<section id='bm-groups'>" in page
    assert f"id='bm-gap-tpr-difference' data-value='{d.estimate!r}'" in page
    assert f"data-value='{d.pvalue!r}'" in page
    assert "id='bm-gap-ece-difference'" in page and "id='bm-gap-auc-difference'" not in page


@pytest.mark.parametrize(("extra", "message"), [
    (["--gaps", "tpr"], "--gaps names the measures of the Groups section"),
    (["--by", "sex", "--score", "p,patient"], "give one --score column"),
    (["--by", "sex", "--gaps", "nope"], "nope"),
])
def test_report_by_bad_options(cli, clustered, tmp_path: Path, extra: list[str],
                               message: str) -> None:
    path, _ = clustered
    args = ["report", str(path), "--label", "y", "-o", str(tmp_path / "r.html")]
    if "--score" not in extra:
        args += ["--score", "p"]
    p = cli(*args, *extra)
    assert p.returncode != 0 and message in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
