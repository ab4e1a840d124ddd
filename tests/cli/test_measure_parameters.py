"""Issue 33, point 3: ``--measures "bedroc(alpha=80.5)"`` passes a measure's parameters
from the shell (evaluate, compare, report's --paired-measures); ``--measures help``
lists each measure's parameters."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

import binmetrics as bm

Run = Callable[..., subprocess.CompletedProcess[str]]


def test_evaluate_takes_parameters(cli: Run, preds: Path) -> None:
    spec = ("auc,bedroc(alpha=80.5),enrichment_factor(fraction=0.05),"
            "partial_auc(fpr=(0, 0.1)),ici(max_rows=none)")
    res = cli("evaluate", str(preds), "--label", "y", "--score", "p", "--measures", spec,
              "--format", "json")
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)["measures"]
    df = pd.read_csv(preds)
    ev = bm.evaluate(df["y"], df["p"], undefined="ignore")  # BEDROC's caveat
    want = {"auc": ev.value("auc"),
            "bedroc(alpha=80.5)": ev.value("bedroc", alpha=80.5),
            "enrichment_factor(fraction=0.05)": ev.value("enrichment_factor", fraction=0.05),
            "partial_auc(fpr=(0, 0.1))": ev.value("partial_auc", fpr=(0, 0.1)),
            "ici(max_rows=None)": ev.value("ici", max_rows=None)}
    assert got == pytest.approx(want, rel=1e-12)


def test_compare_takes_parameters(cli: Run, preds: Path) -> None:
    res = cli("compare", str(preds), "--label", "y", "--score", "p,q", "--measures",
              "fbeta(beta=2)", "--resamples", "50", "--seed", "0", "--format", "json")
    assert res.returncode == 0, res.stderr
    rows = json.loads(res.stdout)["comparisons"]
    df = pd.read_csv(preds)
    assert rows[0]["measure"] == "fbeta(beta=2)"
    assert rows[0]["value_a"] == pytest.approx(bm.evaluate(df["y"], df["p"]).value(
        "fbeta", beta=2), rel=1e-12)


@pytest.mark.parametrize("command", ["evaluate", "compare"])
def test_measures_help(cli: Run, command: str) -> None:
    res = cli(command, "--measures", "help")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert "bedroc(alpha=80.5)" in res.stdout
    for m in bm.iter_measures():  # every measure with parameters, with its defaults
        if m.params:
            row = next(line for line in lines if line.split()[:1] == [m.id])
            for k, v in m.params.items():
                assert f"{k}={v!r}" in row, (m.id, row)


@pytest.mark.parametrize(("spec", "message"), [
    ("bedroc(alpha=__import__('os').getcwd())", "is not a value"),
    ("bedroc(beta=2)", "bedroc takes no parameter beta; its parameters: alpha"),
    ("bedroc(80)", "give the parameters by name"),
])
def test_bad_parameters(cli: Run, preds: Path, spec: str, message: str) -> None:
    res = cli("evaluate", str(preds), "--label", "y", "--score", "p", "--measures", spec)
    assert res.returncode == 2
    assert res.stdout == ""
    assert message in res.stderr.strip().splitlines()[-1]
