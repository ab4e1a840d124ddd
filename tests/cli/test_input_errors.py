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



def _bad_text_files(d):
    """Files under a text extension that are not UTF-8 text, and the message of each."""
    latin = d / "latin.csv"
    latin.write_bytes(b"y,p,name\n1,0.5,caf\xe9\n0,0.2,x\n1,0.9,x\n0,0.1,x\n")
    late = d / "late.csv"  # the bad byte past what the sniffing reads
    late.write_bytes(b"y,p\n" + b"1,0.5\n0,0.2\n" * 20000 + b"1,0.9\xe9\n")
    binary = d / "binary.csv"
    binary.write_bytes(bytes(range(256)) * 8)
    parquet = d / "parquet.csv"
    pd.DataFrame({"y": [1, 0, 1, 0], "p": [0.5, 0.2, 0.9, 0.1]}).to_parquet(parquet)
    return {latin: f"{latin} is not UTF-8 text: byte 0xe9 on line 2 cannot be decoded; "
                   "save the file as UTF-8",
            late: f"{late} is not UTF-8 text: byte 0xe9 on line 40002 cannot be decoded",
            binary: f"{binary} is not a text table: it holds binary data (a NUL byte at "
                    "offset 0)",
            parquet: f"{parquet} is a Parquet file, not delimited text: name it "
                     "'parquet.parquet'"}


@pytest.mark.parametrize("engine", ["numpy", "duckdb"])
def test_files_that_are_not_utf8_text_are_named_as_such(cli, tmp_path, engine):
    """The error handler's own sniffing crashed (UnicodeDecodeError, exit 1) on each."""
    pytest.importorskip("duckdb")
    for path, message in _bad_text_files(tmp_path).items():
        p = cli("evaluate", str(path), "--label", "y", "--score", "p", "--engine", engine)
        assert p.returncode == 2, p.stderr
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"binmetrics: error: {message}"), (
            p.stderr)


@pytest.mark.parametrize("engine", ["numpy", "duckdb"])
def test_a_field_over_the_csv_modules_limit_is_an_error_of_one_line(cli, tmp_path, engine):
    """The ragged-line scan crashed with `_csv.Error: field larger than field limit`."""
    pytest.importorskip("duckdb")
    path = tmp_path / "big.csv"
    path.write_text("y,p\n1,0.5\n0," + "1" * 200_000 + "\n1,0.9\n0,0.1\n")
    p = cli("evaluate", str(path), "--label", "y", "--score", "p", "--engine", engine)
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and "score column 'p'" in p.stderr


@pytest.mark.parametrize("engine", ["numpy", "duckdb"])
def test_a_long_line_is_named_on_every_engine(cli, tmp_path, engine):
    """The numpy engine dropped the extra field (or took the first column as an index),
    DuckDB said `COLUMN_TYPES error: Columns with names: "y" do not exist`."""
    pytest.importorskip("duckdb")
    later = tmp_path / "later.csv"
    later.write_text("y,p\n1,0.5\n0,0.2,7\n1,0.9\n0,0.1\n")
    every = tmp_path / "every.csv"
    every.write_text("y,p\n1,0.5,3\n0,0.2,7\n1,0.9,1\n0,0.1,1\n")
    for path, line in ((later, 3), (every, 2)):
        p = cli("evaluate", str(path), "--label", "y", "--score", "p", "--engine", engine)
        assert p.returncode == 2, p.stderr
        assert p.stderr.strip() == (
            f"binmetrics: error: line {line} of {path} (data row {line - 1}; the first data "
            f"row is 1) has 3 fields where the header has 2: the file is ragged (a value has "
            "no column, or holds an unquoted delimiter); fix that line"), p.stderr


@pytest.mark.parametrize("engine", ["numpy", "duckdb"])
def test_a_header_name_with_spaces_is_named_on_every_engine(cli, tmp_path, engine):
    """DuckDB trims header names and pandas keeps them: `--label ' y '` failed on DuckDB
    with a COLUMN_TYPES error, `--label y` on numpy with "not found"."""
    pytest.importorskip("duckdb")
    path = tmp_path / "spaces.csv"
    path.write_text(" y ,p\n1,0.5\n0,0.2\n1,0.9\n0,0.1\n")
    for label in ("y", " y "):
        p = cli("evaluate", str(path), "--label", label, "--score", "p", "--engine", engine)
        assert p.returncode == 2, p.stderr
        assert p.stderr.strip() == (
            f"binmetrics: error: the header of {path} names the column ' y ', with spaces "
            "around 'y' (--label y): remove the spaces from the header"), p.stderr
