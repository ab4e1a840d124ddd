"""Issue 33, point 4: ``compare --lower-is-positive`` (and ``report``'s, which refused
it), as ``bm.compare(higher_is_positive=False)``."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.cli import main


def _docking(seed: int, n: int = 400) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.2).astype(int)
    a = np.round(-7.0 - 1.5 * y + rng.normal(0, 1.2, n), 1)
    b = np.round(-7.0 - 0.7 * y + rng.normal(0, 1.2, n), 1)
    return y, {"A": a, "B": b}


def test_cli_compare_lower_is_positive(tmp_path: Path,
                                       cli: Callable[..., subprocess.CompletedProcess[str]]
                                       ) -> None:
    y, scores = _docking(6)
    path = tmp_path / "dock.csv"
    pd.DataFrame({"y": y, **scores}).to_csv(path, index=False)
    res = cli("compare", str(path), "--label", "y", "--score", "A,B", "--lower-is-positive",
              "--threshold", "-8", "--measures", "auc,accuracy", "--format", "json")
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["higher_is_positive"] is False
    want = bm.compare(y, scores, threshold=-8.0, higher_is_positive=False)
    got = {r["measure"]: r for r in doc["comparisons"]}
    for m in ("auc", "accuracy"):
        assert got[m]["value_a"] == pytest.approx(want.values["A"][m], rel=1e-12)
        assert got[m]["pvalue"] == pytest.approx(want.result("A", "B", m).pvalue, rel=1e-9)
    table = cli("compare", str(path), "--label", "y", "--score", "A,B", "--lower-is-positive")
    assert table.returncode == 0, table.stderr
    assert "score <= threshold is predicted positive" in table.stdout
    assert "A: threshold 0.5 (the default) is outside the scores' range" in table.stderr


def test_cli_report_and_roc_test_lower_is_positive(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    y, scores = _docking(7)
    path = tmp_path / "dock.csv"
    pd.DataFrame({"y": y, **scores}).to_csv(path, index=False)
    out = tmp_path / "r.html"
    assert main(["report", str(path), "--label", "y", "--score", "A,B", "--lower-is-positive",
                 "--threshold", "-8", "--resamples", "50", "-o", str(out)]) == 0
    assert out.exists()
    capsys.readouterr()
    assert main(["compare", str(path), "--label", "y", "--score", "A,B",
                 "--lower-is-positive", "--test", "delong", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    auc_a = bm.evaluate(y, scores["A"], threshold=-8.0, higher_is_positive=False)["auc"]
    assert doc["comparisons"][0]["value_a"] == pytest.approx(auc_a, rel=1e-12)


def test_cli_evaluate_engines_agree_lower_is_positive(
        tmp_path: Path, cli: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    pytest.importorskip("duckdb")
    y, scores = _docking(8)
    path = tmp_path / "dock.csv"
    pd.DataFrame({"y": y, "A": scores["A"]}).to_csv(path, index=False)
    docs = {}
    for engine in ("numpy", "duckdb"):
        res = cli("evaluate", str(path), "--label", "y", "--score", "A", "--engine", engine,
                  "--lower-is-positive", "--threshold", "-8", "--measures", "auc,mcc,tpr",
                  "--format", "json")
        assert res.returncode == 0, res.stderr
        docs[engine] = json.loads(res.stdout)
    assert docs["duckdb"]["confusion"] == docs["numpy"]["confusion"]
    assert docs["duckdb"]["measures"] == pytest.approx(docs["numpy"]["measures"], rel=1e-12)
