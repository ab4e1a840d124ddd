"""What every command checks before it reads data or does any work: its outputs can be
written, are none of its inputs (the bundled ``--example`` files included) and none of
each other, no output is a symlink loop, and its option values can work. A check that
came after the work (a bootstrap, a figure) would waste it, or write one output over
another."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import binmetrics.cli.app as app
from binmetrics.cli import main
from binmetrics.data import example_path
from binmetrics.io import OutputError, write_text

COMMANDS = ("evaluate", "compare", "report", "srd", "ranks", "power", "threshold")


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any command that gets as far as reading its input or running fails the test."""
    def work(*args: Any, **kwargs: Any) -> str:
        raise AssertionError("the command read its input or ran before its checks")

    import importlib

    for name in COMMANDS:
        module = importlib.import_module(f"binmetrics.cli.{name}")
        monkeypatch.setattr(module, f"run_{name}", work)
    monkeypatch.setattr(app, "check_text_inputs", work)


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 200)
    path = tmp_path_factory.mktemp("scored") / "scored.csv"
    pd.DataFrame({"y": y, "p": rng.random(200) + 0.3 * y, "q": rng.random(200)}).to_csv(
        path, index=False)
    return path


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("table") / "t.csv"
    path.write_text("model,a,b,c\nm1,0.9,0.8,0.7\nm2,0.7,0.9,0.8\nm3,0.6,0.7,0.9\n"
                    "m4,0.8,0.6,0.6\n")
    return path


def _error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, (argv, err)
    assert err.count("\n") == 1 and err.startswith("binmetrics: error: "), err
    return err


# --- the bundled examples are inputs ----------------------------------------------------
@contextlib.contextmanager
def _kept(path: Path) -> Iterator[bytes]:
    """The file's bytes, put back whatever happens (the test must not damage the data
    set it checks)."""
    before = path.read_bytes()
    try:
        yield before
    finally:
        if path.read_bytes() != before or path.is_symlink():
            path.unlink()
            path.write_bytes(before)


@pytest.mark.parametrize("command", ["evaluate", "report"])
@pytest.mark.parametrize("name", ["screening", "berrar"])
def test_example_data_is_never_overwritten(command: str, name: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    data = example_path(name)
    link = tmp_path / "link.csv"
    link.symlink_to(data)
    with _kept(data) as before:
        for out in (data, link, data.parent / "." / data.name):
            err = _error(capsys, [command, "--example", name, "-o", str(out)])
            assert "is the input" in err and data.name in err
            assert data.read_bytes() == before and not data.is_symlink()
        assert link.is_symlink()


def test_example_data_can_still_be_evaluated_to_a_file(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    out = tmp_path / "berrar.json"
    assert main(["evaluate", "--example", "berrar", "--measures", "auc", "--format",
                 "json", "-o", str(out)]) == 0
    assert '"auc"' in out.read_text()


# --- outputs against each other ----------------------------------------------------------
def test_two_outputs_that_are_one_file_are_refused(table: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    (tmp_path / "old.png").write_bytes(b"old")
    (tmp_path / "alias.png").symlink_to(tmp_path / "old.png")
    os.link(tmp_path / "old.png", tmp_path / "hard.png")
    cases = [
        ["srd", str(table), "--plot", "same.png", "-o", "same.png"],
        ["srd", str(table), "--plot", "x.png", "--covat", "x.png"],
        ["srd", str(table), "--plot", "x.png", "--covat", "sub/../x.png"],
        ["srd", str(table), "--plot", str(tmp_path / "x.png"), "--covat", "./x.png"],
        ["srd", str(table), "--plot", "alias.png", "--covat", "old.png"],
        ["srd", str(table), "--plot", "hard.png", "-o", "old.png"],
        ["ranks", str(table), "--plot", "cd.png", "-o", "cd.png"],
    ]
    for argv in cases:
        err = _error(capsys, argv)
        assert "are the same file" in err and "its own file" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alias.png", "hard.png",
                                                          "old.png", "sub"]
    assert (tmp_path / "old.png").read_bytes() == b"old"


def test_distinct_outputs_are_all_written(table: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    paths = [tmp_path / n for n in ("srd.png", "covat.png", "srd.txt")]
    assert main(["srd", str(table), "--plot", str(paths[0]), "--covat", str(paths[1]),
                 "-o", str(paths[2])]) == 0
    assert all(p.stat().st_size > 0 for p in paths)


def test_a_symlink_loop_is_refused_not_replaced(scored: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.symlink_to(b)
    b.symlink_to(a)
    self_loop = tmp_path / "self.json"
    self_loop.symlink_to(self_loop)
    for out in (a, b, self_loop):
        err = _error(capsys, ["evaluate", str(scored), "--label", "y", "--score", "p",
                              "-o", str(out)])
        assert "symlink loop" in err
        with pytest.raises(OutputError, match="symlink loop"):
            write_text(out, "text")
    assert a.is_symlink() and b.is_symlink() and self_loop.is_symlink()
    assert os.readlink(a) == str(b) and os.readlink(b) == str(a)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json", "self.json"]


# --- every check before any work ----------------------------------------------------------
def _unwritable_folder(tmp_path: Path) -> Path:
    """A folder this process cannot create files in (root writes in a read-only folder:
    then a kernel folder that takes no files)."""
    folder = tmp_path / "read_only"
    folder.mkdir()
    folder.chmod(0o500)
    for candidate in (folder, Path("/sys")):
        try:
            fd, probe = tempfile.mkstemp(dir=candidate)
        except OSError:
            return candidate
        os.close(fd)
        os.unlink(probe)
    pytest.skip("no folder here refuses new files")


def test_an_unwritable_output_folder_is_found_before_any_work(
        scored: Path, table: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        no_work: None) -> None:
    folder = _unwritable_folder(tmp_path)
    data = ["--label", "y", "--score", "p"]
    cases = [
        ["evaluate", str(scored), *data, "--ci", "-o", str(folder / "out.json")],
        ["evaluate", "--example", "screening", "--ci", "-o", str(folder / "out.json")],
        ["compare", str(scored), "--label", "y", "--score", "p,q", "--ci",
         "-o", str(folder / "out.txt")],
        ["report", str(scored), *data, "--ci", "-o", str(folder / "r.html")],
        ["srd", str(table), "--plot", str(folder / "srd.png")],
        ["ranks", str(table), "-o", str(folder / "ranks.txt")],
        ["power", "--auc", "0.8", "--power", "0.9", "-o", str(folder / "power.txt")],
    ]
    for argv in cases:
        err = _error(capsys, argv)
        assert "cannot write" in err, err
    folder.chmod(0o700)


@pytest.mark.parametrize("options, words", [
    (["--ci-level", "1.5"], "--ci-level must be strictly between 0 and 1"),
    (["--ci-level", "nan"], "--ci-level must be strictly between 0 and 1"),
    (["--ci-level", "0"], "--ci-level must be strictly between 0 and 1"),
    (["--ci-level", "inf"], "--ci-level must be strictly between 0 and 1"),
    (["--resamples", "0"], "--resamples must be a positive whole number"),
])
@pytest.mark.parametrize("command", ["evaluate", "compare", "report"])
def test_interval_options_are_checked_before_any_work(
        command: str, options: list[str], words: str, scored: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str], no_work: None) -> None:
    score = "p,q" if command == "compare" else "p"
    err = _error(capsys, [command, str(scored), "--label", "y", "--score", score, "--ci",
                          *options, "-o", str(tmp_path / "out")])
    assert words in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv, words", [
    (["evaluate", "--example", "screening", "--ci", "--ci-method", "bogus"],
     "unknown --ci-method 'bogus'"),
    (["evaluate", "--example", "screening", "--ci-method", "bogus"],
     "unknown --ci-method 'bogus'"),
    (["evaluate", "--example", "berrar", "--ci", "--ci-method", "wilson",
      "--measures", "auc"], "--ci-method wilson applies to none of the measures"),
    (["evaluate", "--example", "berrar", "--measures", "auc,nosuchmeasure"],
     "nosuchmeasure"),
    (["evaluate", "--example", "berrar", "--pi0", "2"], "--pi0 must be a number"),
    (["evaluate", "--example", "berrar", "--threshold", "nan"], "--threshold"),
    (["evaluate", "--example", "berrar", "--bins", "x"], "--bins must be"),
    (["evaluate", "--example", "berrar", "--decimals", "-1"], "--decimals"),
    (["evaluate", "--example", "berrar", "--summary", "--by", "g"], "--summary"),
    (["compare", "--example-free", "--test", "delong", "--fpr", "0.1"],
     "--fpr and --tpr do not apply to --test delong"),
    (["compare", "--example-free", "--test", "specificity"], "give --fpr X only"),
    (["compare", "--example-free", "--test", "delong", "--ci"], "--ci applies to the"),
    (["compare", "--example-free", "--alternative", "less"], "--alternative applies to"),
    (["compare", "--example-free", "--measures", "nosuchmeasure"], "nosuchmeasure"),
    (["report", "--example", "berrar", "--max-points", "2"], "--max-points"),
    (["report", "--example", "berrar", "--partial-fpr", "0.5,0.1"], "--partial-fpr"),
])
def test_command_options_are_checked_before_any_work(
        argv: list[str], words: str, scored: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str], no_work: None) -> None:
    if "--example-free" in argv:  # compare: the scored file, two models
        argv = [argv[0], str(scored), "--label", "y", "--score", "p,q", *argv[2:]]
    err = _error(capsys, [*argv, "-o", str(tmp_path / "out")])
    assert words in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("options, words", [
    (["--cv", "1"], "--cv K needs at least 2 folds"),
    (["--cv", "3", "--cv-method", "loo"], "--cv K sets the number of folds"),
    (["--repeats", "0"], "--repeats must be at least 1"),
    (["--directions", "up"], "--directions must be numbers"),
    (["--plot", "srd.jpg"], "use .png, .svg or .pdf"),
])
def test_srd_options_are_checked_before_any_work(
        options: list[str], words: str, table: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        no_work: None) -> None:
    monkeypatch.chdir(tmp_path)
    assert words in _error(capsys, ["srd", str(table), *options])


@pytest.mark.parametrize("alpha", ["0", "1", "2", "nan"])
def test_ranks_alpha_is_checked_before_any_work(alpha: str, table: Path,
                                                capsys: pytest.CaptureFixture[str],
                                                no_work: None) -> None:
    err = _error(capsys, ["ranks", str(table), "--alpha", alpha])
    assert "--alpha must be strictly between 0 and 1" in err
