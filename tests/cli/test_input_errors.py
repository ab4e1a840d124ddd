"""The command line's messages about its input: data rows counted from 1, a ragged line named
by line and data row, empty and header-only files, on every engine; the report counts
rows, not models times rows."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest


def test_report_counts_rows_not_models_times_rows(cli, preds, tmp_path):
    p = cli("report", str(preds), "--label", "y", "--score", "p,q", "-o",
            str(tmp_path / "r.html"))
    assert p.returncode == 0, p.stderr
    assert "the same 3000 rows" in p.stdout and "6000" not in p.stdout


def test_nan_rows_are_data_rows_counted_from_1(cli, tmp_path):
    path = tmp_path / "nan.csv"
    path.write_text("y,p\n1,0.5\n0,\n1,0.3\n")
    p = cli("evaluate", str(path), "--label", "y", "--score", "p")
    assert p.returncode == 2
    assert "data rows [2] (the first data row is 1)" in p.stderr, p.stderr


@pytest.mark.parametrize("engine", ["numpy", "duckdb"])
def test_row_positions_are_data_rows_on_every_engine(cli, tmp_path, engine):
    pytest.importorskip("duckdb")
    path = tmp_path / "nan.parquet"
    pd.DataFrame({"y": [1, 0, 1, 0], "p": [0.5, np.nan, 0.3, 0.1]}).to_parquet(path)
    p = cli("evaluate", str(path), "--label", "y", "--score", "p", "--engine", engine)
    assert p.returncode == 2
    assert "data row" in p.stderr and "2" in p.stderr, p.stderr
    assert "(the first data row is 1)" in p.stderr or "the first data row is 1)" in p.stderr
    assert "0-based" not in p.stderr


def test_a_short_line_is_named_by_line_and_data_row(cli, tmp_path):
    path = tmp_path / "short.csv"
    path.write_text("y,p\n1,0.5\n0\n1,0.3\n")
    p = cli("evaluate", str(path), "--label", "y", "--score", "p")
    assert p.returncode == 2
    assert f"line 3 of {path} (data row 2; the first data row is 1) has 1 field" in p.stderr


def test_empty_file_and_header_only(cli, tmp_path):
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
def test_empty_inputs_say_so_on_every_engine(cli, tmp_path, engine):
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

