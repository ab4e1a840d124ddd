"""The ``binmetrics`` command line, run in-process through ``main(argv)``.

Expected values always come from ``bm.evaluate`` on the same data, never from
hard-coded numbers: these tests check the CLI, not the measures.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import math
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.cli import main
from binmetrics.data import EXAMPLES, example_path

REPO = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def quiet_evaluate(*args: Any, **kwargs: Any) -> bm.Evaluation:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = bm.evaluate(*args, **kwargs)
        ev.to_dict()  # fill the cache while warnings are silenced
    return ev


def expected_dict(ev: bm.Evaluation, ids: list[str] | None = None) -> dict[str, Any]:
    """What the JSON output should hold: NaN as None."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        values = ev.to_dict() if ids is None else {i: ev[i] for i in ids}
    return {k: None if math.isnan(v) else v for k, v in values.items()}


@pytest.fixture
def berrar() -> pd.DataFrame:
    return pd.read_csv(example_path("berrar"))


@pytest.fixture
def berrar_ev(berrar: pd.DataFrame) -> bm.Evaluation:
    return quiet_evaluate(berrar["label"], berrar["score"])


# --- bundled data ------------------------------------------------------------------
def test_bundled_berrar_matches_reference() -> None:
    ref_path = Path(__file__).resolve().parents[1] / "data" / "berrar_worked_example.json"
    df = pd.read_csv(example_path("berrar"))
    assert list(df.columns) == ["case", "label", "score"]
    cases = json.loads(ref_path.read_text())["cases"]
    assert df.to_dict(orient="list") == cases


def test_bundled_screening_data() -> None:
    df = pd.read_csv(example_path("screening"))
    assert list(df.columns) == ["id", "y", "p", "w"]
    assert len(df) == 5000
    assert df["id"].tolist() == list(range(1, 5001))
    assert set(df["y"].unique()) == {0, 1}
    assert 0.08 < df["y"].mean() < 0.12
    assert df["p"].between(0, 1).all()
    assert df["p"].duplicated().any()  # rounded to 3 decimals: ties
    assert np.allclose(df["p"], df["p"].round(3))
    assert set(df["w"].unique()) == {1, 2}


def test_screening_script_reproduces_bundled_file(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location(
        "make_screening_data", REPO / "examples" / "make_screening_data.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "screening.csv"
    assert module.main([str(out)]) == 0
    assert out.read_bytes() == example_path("screening").read_bytes()


def test_example_path_unknown() -> None:
    with pytest.raises(KeyError, match="berrar"):
        example_path("nope")


# --- evaluate: output formats ------------------------------------------------------
def test_evaluate_table(capsys: pytest.CaptureFixture[str], berrar_ev: bm.Evaluation) -> None:
    code, out, err = run(capsys, "evaluate", "--example", "berrar")
    assert code == 0
    head, _, table = out.partition("\n\n")
    c = berrar_ev.confusion
    assert str(example_path("berrar")) in head
    assert "rows:       10" in head
    assert "positives:  5" in head
    assert "threshold:  0.5" in head
    assert f"tp={c.tp}  fp={c.fp}  fn={c.fn}  tn={c.tn}" in head
    lines = table.splitlines()
    assert lines[0].split() == ["id", "value", "family", "direction", "source"]
    rows = [line.split(maxsplit=4) for line in lines[2:]]
    assert [r[0] for r in rows] == [m.id for m in bm.iter_measures()]
    expected = berrar_ev.to_dict()
    for mid, value, family, _direction, source in rows:
        m = bm.get_measure(mid)
        assert (family, source) == (m.family, m.source)
        if math.isnan(expected[mid]):
            assert value == "NaN"
        else:
            assert float(value) == pytest.approx(expected[mid], rel=1e-5, abs=1e-12)
    assert "Traceback" not in err


def test_evaluate_json(capsys: pytest.CaptureFixture[str], berrar_ev: bm.Evaluation) -> None:
    code, out, _ = run(capsys, "evaluate", "--example", "berrar", "--format", "json")
    assert code == 0
    obj = json.loads(out)
    assert obj["n"] == 10
    assert obj["positives"] == 5
    assert obj["threshold"] == 0.5
    assert obj["confusion"] == berrar_ev.confusion.as_dict()
    assert obj["measures"] == expected_dict(berrar_ev)
    assert list(obj["measures"]) == [m.id for m in bm.iter_measures()]


def test_evaluate_csv(capsys: pytest.CaptureFixture[str], berrar_ev: bm.Evaluation) -> None:
    code, out, _ = run(capsys, "evaluate", "--example", "berrar", "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == ["id", "value", "family", "direction", "source"]
    expected = berrar_ev.to_dict()
    assert [r["id"] for r in rows] == list(expected)
    for r in rows:
        m = bm.get_measure(r["id"])
        assert (r["family"], int(r["direction"]), r["source"]) == (m.family, m.direction, m.source)
        v = float(r["value"])
        assert v == expected[r["id"]] or (math.isnan(v) and math.isnan(expected[r["id"]]))


def test_evaluate_file_equals_example(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(example_path("berrar"))
    _, by_example, _ = run(capsys, "evaluate", "--example", "berrar", "--format", "json")
    _, by_file, _ = run(capsys, "evaluate", path, "--label", "label", "--score", "score",
                        "--format", "json")
    assert by_example == by_file


def test_output_file_matches_stdout(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_path = tmp_path / "metrics.csv"
    code, out, _ = run(capsys, "evaluate", "--example", "berrar", "--format", "csv",
                       "-o", str(out_path))
    assert code == 0
    assert out == ""
    _, printed, _ = run(capsys, "evaluate", "--example", "berrar", "--format", "csv")
    assert out_path.read_text() == printed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["metrics.csv"]  # no temp files


# --- evaluate: inputs --------------------------------------------------------------
def test_parquet_input(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                       berrar: pd.DataFrame) -> None:
    df = berrar.rename(columns={"label": "truth", "score": "prob"})
    path = tmp_path / "scores.parquet"
    df.to_parquet(path)
    code, out, _ = run(capsys, "evaluate", str(path), "--label", "truth", "--score", "prob",
                       "--threshold", "0.55", "--format", "json")
    assert code == 0
    ev = quiet_evaluate(df["truth"], df["prob"], threshold=0.55)
    obj = json.loads(out)
    assert obj["threshold"] == 0.55
    assert obj["confusion"] == ev.confusion.as_dict()
    assert obj["measures"] == expected_dict(ev)


def test_tsv_input_sniffed(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                           berrar: pd.DataFrame) -> None:
    path = tmp_path / "scores.txt"
    berrar.to_csv(path, sep=";", index=False)
    code, out, _ = run(capsys, "evaluate", str(path), "--label", "label", "--score", "score",
                       "--measures", "auc", "--format", "json")
    assert code == 0
    assert json.loads(out)["measures"] == {"auc": bm.score("auc", berrar.label, berrar.score)}


def test_weights(capsys: pytest.CaptureFixture[str]) -> None:
    df = pd.read_csv(example_path("screening"))
    code, out, _ = run(capsys, "evaluate", "--example", "screening", "--weight", "w",
                       "--format", "json")
    assert code == 0
    ev = quiet_evaluate(df["y"], df["p"], sample_weight=df["w"])
    obj = json.loads(out)
    assert obj["n"] == 5000
    assert obj["positives"] == int(df["y"].sum())
    assert obj["weight_total"] == df["w"].sum()
    assert obj["weight_positives"] == df.loc[df.y == 1, "w"].sum()
    assert obj["confusion"] == ev.confusion.as_dict()
    assert obj["measures"] == expected_dict(ev)
    unweighted = quiet_evaluate(df["y"], df["p"])
    assert obj["measures"]["auc"] != unweighted["auc"]


def test_pos_label_strings(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                           berrar: pd.DataFrame) -> None:
    labels = berrar["label"].map({1: "disease", 0: "healthy"})
    path = tmp_path / "strings.csv"
    pd.DataFrame({"status": labels, "p": berrar["score"]}).to_csv(path, index=False)
    for pos in ("disease", "healthy"):
        code, out, _ = run(capsys, "evaluate", str(path), "--label", "status", "--score", "p",
                           "--pos-label", pos, "--format", "json")
        assert code == 0
        ev = quiet_evaluate(labels, berrar["score"], pos_label=pos)
        obj = json.loads(out)
        assert obj["pos_label"] == pos
        assert obj["positives"] == int((labels == pos).sum())
        assert obj["measures"] == expected_dict(ev)


def test_pos_label_converted_to_int(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                    berrar: pd.DataFrame) -> None:
    labels = berrar["label"].map({1: 2, 0: 1})  # 1/2 coding: "2" must become the int 2
    path = tmp_path / "coded.csv"
    pd.DataFrame({"grp": labels, "p": berrar["score"]}).to_csv(path, index=False)
    code, out, err = run(capsys, "evaluate", str(path), "--label", "grp", "--score", "p",
                         "--pos-label", "2", "--format", "json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["pos_label"] == 2
    assert obj["measures"] == expected_dict(quiet_evaluate(labels, berrar["score"], pos_label=2))


def test_measures_subset(capsys: pytest.CaptureFixture[str], berrar_ev: bm.Evaluation) -> None:
    code, out, _ = run(capsys, "evaluate", "--example", "berrar", "--format", "json",
                       "--measures", "auc, sensitivity,mcc,brier,tpr")
    assert code == 0
    measures = json.loads(out)["measures"]
    assert list(measures) == ["auc", "tpr", "mcc", "brier"]  # canonical ids, no duplicates
    assert measures == expected_dict(berrar_ev, ["auc", "tpr", "mcc", "brier"])


def test_nan_policy_omit_and_undefined_warnings(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    path = tmp_path / "nan.csv"
    pd.DataFrame({"y": [1, 0, 1, 0, 1], "s": [0.9, np.nan, 0.4, 0.1, 0.3]}).to_csv(
        path, index=False)
    code, out, err = run(capsys, "evaluate", str(path), "--label", "y", "--score", "s",
                         "--nan-policy", "omit", "--threshold", "2", "--format", "json")
    assert code == 0
    obj = json.loads(out)
    assert obj["n"] == 4 and obj["n_omitted"] == 1 and obj["positives"] == 3
    assert obj["measures"]["ppv"] is None  # nothing predicted positive
    lines = err.splitlines()
    assert all(line.startswith("warning: ") for line in lines)
    assert len(lines) == len(set(lines))
    # to_dict gives one warning per reason, naming every measure it concerns
    undefined = [re.match(r"warning: (.+?) (?:is|are) undefined: ", line) for line in lines]
    named = [m.group(1).split(", ") for m in undefined if m]
    assert sum("ppv" in ids for ids in named) == 1
    assert any("dropped 1 row " in line for line in lines)
    assert "Traceback" not in err and "UndefinedMeasureWarning" not in err


# --- measures command ----------------------------------------------------------------
def test_measures_command_lists_registry(capsys: pytest.CaptureFixture[str]) -> None:
    ids = bm.measure_catalogue()["id"].tolist()
    code, out, _ = run(capsys, "measures", "--format", "json")
    assert code == 0
    assert [r["id"] for r in json.loads(out)] == ids
    code, out, _ = run(capsys, "measures", "--format", "csv")
    assert code == 0
    assert pd.read_csv(io.StringIO(out))["id"].tolist() == ids
    code, out, _ = run(capsys, "measures")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()[2:]] == ids


def test_measures_command_family(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "measures", "--family", "ranking", "--format", "json")
    assert code == 0
    assert [r["id"] for r in json.loads(out)] == [m.id for m in bm.iter_measures("ranking")]


# --- help and version ----------------------------------------------------------------
@pytest.mark.parametrize("argv", [["--help"], ["evaluate", "--help"], ["measures", "--help"]])
def test_help_shows_examples(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert "examples:" in out and "binmetrics " in out.split("examples:")[1]


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert out.strip() == f"binmetrics {bm.__version__}"


# --- errors ----------------------------------------------------------------------------
def _garbage_parquet(d: Path) -> list[str]:
    (d / "x.parquet").write_bytes(b"this is not parquet \x00\x01\x02" * 10)
    return [str(d / "x.parquet"), "--label", "label", "--score", "score"]


def _nan_csv(d: Path) -> list[str]:
    pd.DataFrame({"label": [1, 0, 1], "score": [0.2, np.nan, 0.7]}).to_csv(
        d / "nan.csv", index=False)
    return [str(d / "nan.csv"), "--label", "label", "--score", "score"]


ERROR_CASES = {
    "missing file": (lambda d: [str(d / "nope.csv"), "--label", "y", "--score", "p"],
                     "no such file"),
    "corrupt parquet": (_garbage_parquet, "cannot read"),
    "missing column": (lambda d: [str(example_path("berrar")), "--label", "label",
                                  "--score", "prob"],
                       "column 'prob' not found",),
    "nan score": (_nan_csv, "--nan-policy omit"),
    "unknown measure": (lambda d: ["--example", "berrar", "--measures", "auc,aucc_x"],
                        "unknown measure 'aucc_x'"),
    "bad pos label": (lambda d: ["--example", "berrar", "--pos-label", "yes"],
                      "is not an integer"),
}


@pytest.mark.parametrize("fmt", ["table", "json"])
@pytest.mark.parametrize("case", list(ERROR_CASES))
def test_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str,
                fmt: str) -> None:
    make_args, message = ERROR_CASES[case]
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    args = make_args(data_dir)
    out_path = out_dir / "result.txt"
    code, out, err = run(capsys, "evaluate", *args, "--format", fmt, "-o", str(out_path))
    assert code == 2
    assert out == ""
    assert err.splitlines()[-1].startswith("binmetrics: error: ")
    assert message in err
    assert "Traceback" not in err
    assert list(out_dir.iterdir()) == []  # neither the output nor a temporary file
    # the same without --output: nothing on stdout
    code, out, err = run(capsys, "evaluate", *args, "--format", fmt)
    assert (code, out) == (2, "")


def test_missing_column_lists_available(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "evaluate", str(example_path("berrar")),
                       "--label", "label", "--score", "prob")
    assert code == 2
    assert "available columns: case, label, score" in err


def test_unknown_measure_suggests(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "evaluate", "--example", "berrar", "--measures", "aucc")
    assert (code, out) == (2, "")
    assert "did you mean 'auc'" in err


def test_error_names_columns_not_arguments(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    path = tmp_path / "odd.csv"
    pd.DataFrame({"outcome": [1, 0, 1], "y_true": [0.9, np.inf, 0.1]}).to_csv(path, index=False)
    code, _, err = run(capsys, "evaluate", str(path), "--label", "outcome", "--score", "y_true")
    assert code == 2
    assert "binmetrics: error: score column 'y_true' has 1 non-finite value " in err
    code, _, err = run(capsys, "evaluate", str(path), "--label", "outcome", "--score", "y_tru")
    assert "column 'y_tru' not found" in err and "did you mean 'y_true'?" in err


def test_error_keeps_existing_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_path = tmp_path / "result.json"
    out_path.write_text("previous\n")
    code, _, _ = run(capsys, "evaluate", str(tmp_path / "nope.csv"), "--label", "y",
                     "--score", "p", "-o", str(out_path))
    assert code == 2
    assert out_path.read_text() == "previous\n"
    assert [p.name for p in tmp_path.iterdir()] == ["result.json"]


@pytest.mark.parametrize("argv", [
    ["evaluate"],                                                   # no FILE, no --example
    ["evaluate", "x.csv", "--example", "berrar"],                   # both
    ["evaluate", "x.csv", "--label", "y"],                          # no --score
    ["evaluate", "--example", "berrar", "--format", "xml"],
    ["measures", "--family", "lossy"],
    [],
])
def test_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert "usage:" in err


# --- python -m binmetrics ---------------------------------------------------------------
def test_python_m_binmetrics() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "binmetrics", "evaluate", "--example", "berrar",
         "--format", "json"],
        capture_output=True, text=True, check=False, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    obj = json.loads(proc.stdout)
    df = pd.read_csv(example_path("berrar"))
    assert obj["measures"] == expected_dict(quiet_evaluate(df["label"], df["score"]))
    assert set(EXAMPLES) == {"berrar", "screening"}
