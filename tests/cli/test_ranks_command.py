"""``binmetrics ranks``: the command line gives rank_comparison's numbers."""

from __future__ import annotations

import io
import json
from pathlib import Path

import matplotlib
import numpy as np
import pytest

import binmetrics as bm
from binmetrics.cli import main
from binmetrics.data import demsar_table
from binmetrics.io import read_csv

matplotlib.use("Agg")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def table_csv(tmp_path: Path) -> Path:
    path = tmp_path / "demsar.csv"
    demsar_table().to_csv(path)
    return path


def test_table_output(capsys, table_csv):
    code, out, err = run(capsys, "ranks", str(table_csv), "--alpha", "0.1")
    assert code == 0, err
    assert "4 models on 14 data sets (higher is better)" in out
    assert "Friedman chi2 = 9.27857, df = 3" in out
    assert "Iman-Davenport F = 3.68631, df = (3, 39)" in out
    assert "critical difference = 1.11806" in out
    assert "not significantly different: C4.5+m+cf, C4.5+m, C4.5+cf; C4.5+cf, C4.5" in out


def test_json_and_csv_equal_the_library(capsys, table_csv):
    res = bm.rank_comparison(demsar_table())
    code, out, err = run(capsys, "ranks", str(table_csv), "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["friedman"]["statistic"] == res.friedman.statistic
    assert doc["iman_davenport"]["pvalue"] == res.iman_davenport.pvalue
    assert doc["average_ranks"] == res.average_ranks.to_dict()
    assert doc["posthoc"]["critical_difference"] == res.critical_difference()
    code, out, err = run(capsys, "ranks", str(table_csv), "--posthoc", "holm", "--control",
                         "C4.5", "--format", "csv")
    assert code == 0, err
    got = read_csv(io.StringIO(out))  # exactly as the CLI wrote it
    ref = res.posthoc("holm", control="C4.5").table
    np.testing.assert_array_equal(got["pvalue_adjusted"], ref["pvalue_adjusted"])
    assert got["significant"].tolist() == [True, True, False]


def test_lower_is_better_and_plot(capsys, tmp_path):
    errors = 1 - demsar_table()
    path = tmp_path / "errors.csv"
    errors.to_csv(path)
    png = tmp_path / "cd.png"
    code, out, err = run(capsys, "ranks", str(path), "--lower-is-better", "--plot", str(png),
                         "--format", "json")
    assert code == 0, err
    assert json.loads(out)["average_ranks"] == pytest.approx(
        bm.rank_comparison(demsar_table()).average_ranks.to_dict())
    assert png.stat().st_size > 1000


def test_errors(capsys, table_csv, tmp_path):
    code, _, err = run(capsys, "ranks", str(table_csv), "--posthoc", "bonferroni_dunn")
    assert code == 2 and "--control on the command line" in err
    code, _, err = run(capsys, "ranks", str(table_csv), "--plot", str(tmp_path / "cd.gif"))
    assert code == 2 and "use .png, .svg or .pdf" in err
    t = demsar_table()
    t.iloc[2, 1] = np.nan
    path = tmp_path / "missing.csv"
    t.to_csv(path)
    code, _, err = run(capsys, "ranks", str(path))
    assert code == 2 and "breast cancer wisconsin" in err and "--nan-policy omit" in err
    code, out, err = run(capsys, "ranks", str(path), "--nan-policy", "omit")
    assert code == 0 and "13 data sets" in out and "warning: rank_comparison: dropped" in err
    code, _, err = run(capsys, "ranks", str(tmp_path / "nope.csv"))
    assert code == 2 and "no such file" in err
