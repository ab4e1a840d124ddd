"""Issue 33, point 1: an optional package missing gives the CLI's one-line error naming
the extra (exit 2), in every command with a path that needs one. The subprocess runs
with an import blocker: a ``sitecustomize`` that puts ``None`` in ``sys.modules`` for the
blocked packages, so ``import matplotlib`` fails there as in a plain install."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from binmetrics.backends import EXTRAS

BLOCKER = """\
import os, sys
for _name in os.environ.get("BINMETRICS_TEST_BLOCK", "").split(","):
    if _name:
        sys.modules[_name] = None
"""

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def cli_without(cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Run]:
    """``cli_without("matplotlib")(command, ...)``: the ``cli`` fixture with those
    packages impossible to import."""
    (tmp_path / "sitecustomize.py").write_text(BLOCKER)

    def without(*modules: str) -> Run:
        monkeypatch.setenv("PYTHONPATH", str(tmp_path))
        monkeypatch.setenv("BINMETRICS_TEST_BLOCK", ",".join(modules))
        return cli
    return without


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = np.random.default_rng(0)
    path = tmp_path_factory.mktemp("extras") / "table.csv"
    pd.DataFrame(rng.random((8, 4)), columns=list("abcd")).to_csv(path, index=False)
    return path


def _one_line_error(res: subprocess.CompletedProcess[str], extra: str) -> str:
    assert res.returncode == 2, res.stderr
    assert res.stdout == ""
    assert "Traceback" not in res.stderr
    last = res.stderr.strip().splitlines()[-1]
    assert last.startswith("binmetrics: error: "), res.stderr
    assert f"pip install 'binmetrics[{extra}]'" in last, last
    return last


def test_blocker_blocks(cli_without: Callable[..., Run], table: Path) -> None:
    """The blocker works: without it the same command draws the figure."""
    res = cli_without("matplotlib")("ranks", str(table), "--format", "json")
    assert res.returncode == 0, res.stderr  # no figure asked: matplotlib not needed


@pytest.mark.parametrize("argv", [
    ("ranks", "{table}", "--plot", "{out}"),
    ("srd", "{table}", "--plot", "{out}"),
    ("srd", "{table}", "--covat", "{out}"),
])
def test_plots_without_matplotlib(cli_without: Callable[..., Run], table: Path,
                                  tmp_path: Path, argv: tuple[str, ...]) -> None:
    out = tmp_path / "figure.png"
    args = [a.format(table=table, out=out) for a in argv]
    last = _one_line_error(cli_without("matplotlib")(*args), "plot")
    assert "matplotlib" in last and argv[2] in last
    assert not out.exists()


@pytest.mark.parametrize(("argv", "module", "extra"), [
    (("evaluate", "{preds}", "--label", "y", "--score", "p", "--engine", "duckdb"),
     "duckdb", "duckdb"),
    (("evaluate", "{preds}", "--label", "y", "--score", "p", "--decimals", "2"),
     "duckdb,pyspark", "duckdb"),
    (("evaluate", "{preds}", "--label", "y", "--score", "p", "--engine", "spark"),
     "pyspark", "spark"),
])
def test_engines_without_their_package(cli_without: Callable[..., Run], preds: Path,
                                       argv: tuple[str, ...], module: str,
                                       extra: str) -> None:
    args = [a.format(preds=preds) for a in argv]
    _one_line_error(cli_without(*module.split(","))(*args), extra)


@pytest.mark.slow
def test_commands_that_need_no_extra(cli_without: Callable[..., Run], preds: Path,
                                     tmp_path: Path) -> None:
    """The plain install (no extra at all) runs evaluate, compare, report, measures
    and power."""
    run = cli_without(*EXTRAS)
    for argv in (("evaluate", str(preds), "--label", "y", "--score", "p"),
                 ("compare", str(preds), "--label", "y", "--score", "p,q"),
                 ("report", str(preds), "--label", "y", "--score", "p,q", "-o",
                  str(tmp_path / "r.html")),
                 ("measures",),
                 ("power", "--auc", "0.7", "--n-cases", "50", "--n-controls", "50")):
        res = run(*argv)
        assert res.returncode == 0, (argv, res.stderr)


def test_any_missing_module_names_its_extra(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str],
                                            table: Path) -> None:
    """A path that imports an optional package without checking first still ends in
    the one-line error naming the extra, not a traceback."""
    from binmetrics.cli import app, ranks

    def needs_statsmodels(*args: object, **kwargs: object) -> None:
        raise ModuleNotFoundError("No module named 'statsmodels'", name="statsmodels.api")

    monkeypatch.setattr(ranks, "rank_comparison", needs_statsmodels)
    assert app.main(["ranks", str(table)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("binmetrics: error: binmetrics ranks needs statsmodels, which is not "
                   "installed; install it with pip install 'binmetrics[compare]'")
