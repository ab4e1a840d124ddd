"""``binmetrics srd``: the SRD command line gives the library's numbers."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.cli import main

matplotlib.use("Agg")

RSRD = pd.DataFrame({"A": [32, 52, 44, 44, 47], "B": [73, 75, 65, 76, 70],
                     "C": [60, 59, 57, 55, 60], "D": [35, 24, 44, 83, 47],
                     "E": [41, 52, 46, 50, 65]},
                    index=pd.Index([f"o{i}" for i in range(5)], name="object"))

MEASURES = pd.DataFrame({"rf": [0.91, 0.85, 0.12, 0.80, 0.60],
                         "nb": [0.84, 0.80, 0.20, 0.71, 0.52],
                         "knn": [0.88, 0.70, 0.15, 0.75, 0.50],
                         "svm": [0.86, 0.83, 0.14, 0.72, 0.58]},
                        index=pd.Index(["auc", "accuracy", "brier", "f1", "mcc"], name="measure"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def table_csv(tmp_path: Path) -> Path:
    path = tmp_path / "table.csv"
    RSRD.to_csv(path)
    return path


def test_table_output(capsys, table_csv):
    code, out, err = run(capsys, "srd", str(table_csv), "--reference", "E")
    assert code == 0, err
    assert "reference: E; SRDmax = 12" in out
    row_a = next(line for line in out.splitlines() if line.startswith("A "))
    assert row_a.split()[:3] == ["A", "3", "25.00"]
    assert "permutation" in row_a  # A has a tie


def test_json_matches_library(capsys, table_csv):
    code, out, _ = run(capsys, "srd", str(table_csv), "--format", "json",
                       "--cv-method", "loo")
    assert code == 0
    doc = json.loads(out)
    res = bm.srd(RSRD)
    rt = res.randomization()
    got = {c["column"]: c for c in doc["columns"]}
    for col in RSRD.columns:
        assert got[col]["srd"] == res.values[col]
        assert got[col]["pvalue_lower"] == pytest.approx(rt.pvalue_lower[col])
    cv = res.cross_validate("loo")
    assert doc["cross_validation"]["order"] == cv.order
    assert len(doc["cross_validation"]["folds"]) == 5


def test_best_reference_from_registry_and_plots(capsys, tmp_path):
    path = tmp_path / "m.parquet"
    MEASURES.to_parquet(path)
    plot, heat = tmp_path / "srd.png", tmp_path / "covat.svg"
    code, out, err = run(capsys, "srd", str(path), "--reference", "best", "--pretreat",
                         "range", "--axis", "rows", "--format", "csv", "--plot", str(plot),
                         "--covat", str(heat), "--seed", "0")
    assert code == 0, err
    frame = pd.read_csv(__import__("io").StringIO(out), index_col=0)
    want = bm.srd(MEASURES, "best", pretreat="range", axis="rows").values
    np.testing.assert_allclose(frame.loc[want.index, "srd"], want)
    assert plot.stat().st_size > 1000 and heat.read_text().startswith("<?xml")


def test_cv_table(capsys, table_csv):
    code, out, _ = run(capsys, "srd", str(table_csv), "--cv", "5", "--seed", "1")
    assert code == 0
    assert "cross-validation (kfold, 5 resamples)" in out
    assert "neighbouring columns:" in out


@pytest.mark.parametrize("argv,message", [
    (["--reference", "Z"], "reference must be one of"),
    (["--reference", "best"], "not measures of the registry"),
    (["--pretreat", "range", "--index-col", "nope"], "--index-col 'nope' is not a column"),
    (["--directions", "up"], "--directions must be numbers"),
    (["--reference", "mean", "--directions", "1"], "--directions"),
    (["--cv", "3", "--cv-method", "loo"], "leave out --cv"),
    (["--plot", "/nonexistent/dir/x.png"], "does not exist"),
])
def test_errors_write_nothing(capsys, table_csv, tmp_path, argv, message):
    out_file = tmp_path / "out.json"
    code, out, err = run(capsys, "srd", str(table_csv), *argv, "-o", str(out_file))
    assert code == 2
    assert message in err and out == ""
    assert not out_file.exists()


def test_bad_files(capsys, tmp_path):
    code, _, err = run(capsys, "srd", str(tmp_path / "missing.csv"))
    assert code == 2 and "no such file" in err
    small = tmp_path / "small.csv"
    RSRD.iloc[:2].to_csv(small)
    code, _, err = run(capsys, "srd", str(small))
    assert code == 2 and "at least 3 rows" in err
    nan = tmp_path / "nan.csv"
    RSRD.astype(float).assign(B=[1, np.nan, 2, 3, 4]).to_csv(nan)
    code, _, err = run(capsys, "srd", str(nan))
    assert code == 2 and "missing (NaN) cells" in err and "'o1', 'B'" in err
    assert "--nan-policy omit" in err
    code, out, err = run(capsys, "srd", str(nan), "--nan-policy", "omit", "--format", "csv")
    assert code == 0 and "dropped 1 rows" in err and len(out.splitlines()) == 6
    good = tmp_path / "good.csv"
    RSRD.to_csv(good)
    code, _, err = run(capsys, "srd", str(good), "--plot", str(tmp_path / "x.gif"))
    assert code == 2 and "use .png, .svg or .pdf" in err
    assert not (tmp_path / "x.gif").exists()


def test_help_has_examples(capsys):
    code, out, _ = run(capsys, "srd", "--help")
    assert code == 0 and "examples:" in out and "--reference best" in out
