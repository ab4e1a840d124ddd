"""``evaluate_file`` on an empty file, or on one holding only its header, says so; of
several files, only when none has a row."""

from __future__ import annotations

import pytest

import binmetrics as bm


def test_evaluate_file_on_an_empty_file_says_so(tmp_path):
    pytest.importorskip("duckdb")
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    header = tmp_path / "header.csv"
    header.write_text("y,p\n")
    with pytest.raises(ValueError, match=r"empty\.csv is empty: the file has no header and no "
                                         r"rows"):
        bm.evaluate_file(empty, label="y", score="p")
    with pytest.raises(ValueError, match=r"header.csv has no rows: the file holds only its "
                                         r"header \(y, p\)"):
        bm.evaluate_file(header, label="y", score="p")
    part = tmp_path / "part.csv"  # of several files, only when none has a row
    part.write_text("y,p\n1,0.8\n0,0.3\n")
    assert bm.evaluate_file([header, part], label="y", score="p").table.total == 2

