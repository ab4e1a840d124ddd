"""The documentation's examples run as written: every ``pycon`` block of README.md and of
every page under docs/ is a doctest (blocks of one page share their names, and a
``python`` block just before a ``pycon`` one is run first, as its set-up), and every
``$ binmetrics ...`` line of a ``console`` block prints what the page shows.

A page runs in a fresh working directory holding a link to docs/ (so
``docs/data/two_models.csv`` is found and the files a page writes land there, not in
the repository); its console commands run there after its examples, so they may read
what the examples wrote. A block preceded by ``<!-- skip: reason -->`` (a set-up block's
mark covers the block it sets up) is not run, and the test reports a skip with that
reason: for examples that need an optional peer (Spark, Java) or a file of the reader's."""

from __future__ import annotations

import contextlib
import doctest
import os
import re
import shlex
import subprocess
import sys
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import pytest

# the pages' examples use the optional extras (matplotlib, DuckDB, Polars, scikit-learn)
# that a plain install lacks: the whole file is a peer test
pytestmark = pytest.mark.peer

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# the pages a reader starts from must keep runnable examples
MUST_HAVE_EXAMPLES = [ROOT / "README.md", ROOT / "docs" / "getting-started.md"]
# a fence, with the <!-- skip: ... --> comment just before it if there is one
FENCE = re.compile(r"(?:^<!--\s*skip:\s*(?P<skip>.*?)\s*-->\n\s*)?"
                   r"^```(?P<lang>\w+)\n(?P<text>.*?)^```", re.M | re.S)


def _page_id(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


class Block(NamedTuple):
    lang: str
    text: str
    skip: str | None  # the reason of its <!-- skip: ... --> mark
    line: int  # of the opening fence, from 0


def _blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    return [Block(m["lang"], m["text"], m["skip"], text.count("\n", 0, m.start("lang")))
            for m in FENCE.finditer(text)]


PYCON_PAGES = [p for p in PAGES if any(b.lang == "pycon" for b in _blocks(p))]


@dataclass
class PageRun:
    """What running a page's examples gave: where, how many, the failures' report."""

    workdir: Path
    ran: int = 0
    failures: int = 0
    report: list[str] = field(default_factory=list)


_RUNS: dict[Path, PageRun] = {}


def _one_blas_thread() -> contextlib.AbstractContextManager[object]:
    """The examples fit small models (the refit tests, a benchmark study): more BLAS
    threads than that only make them wait for each other on a shared machine."""
    try:
        from threadpoolctl import threadpool_limits  # comes with scikit-learn
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(limits=1)


def _run_page(page: Path, factory: pytest.TempPathFactory) -> PageRun:
    """Run the page's examples once (the pycon and the console tests share the run)."""
    if page in _RUNS:
        return _RUNS[page]
    run = _RUNS[page] = PageRun(factory.mktemp(page.stem))
    (run.workdir / "docs").symlink_to(ROOT / "docs", target_is_directory=True)
    blocks = _blocks(page)
    globs: dict[str, object] = {}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    cwd, backend = Path.cwd(), os.environ.get("MPLBACKEND")
    os.chdir(run.workdir)
    os.environ["MPLBACKEND"] = "Agg"
    try:
        with warnings.catch_warnings(), _one_blas_thread():
            warnings.simplefilter("ignore")
            for i, (lang, text, skip, line) in enumerate(blocks):
                is_setup = (lang == "python" and i + 1 < len(blocks)
                            and blocks[i + 1].lang == "pycon")
                name = f"{page.name} block {i}"
                if skip and (is_setup or lang == "pycon"):
                    if is_setup:  # the set-up's mark covers the block it sets up
                        blocks[i + 1] = blocks[i + 1]._replace(skip=skip)
                elif is_setup:
                    try:
                        exec(compile(text, name, "exec"), globs)
                    except Exception:  # the blocks after it would fail for this reason
                        run.failures += 1
                        run.report.append(f"set-up {name} raised:\n{traceback.format_exc()}")
                        break
                elif lang == "pycon":  # a blank line inside printed output is part of it
                    text = re.sub(r"\n\n(?!>>>|\Z)", "\n<BLANKLINE>\n", text)
                    test = parser.get_doctest(text, globs, name, str(page), line + 1)
                    result = runner.run(test, out=run.report.append, clear_globs=False)
                    run.failures += result.failed
                    globs.update(test.globs)  # the next block sees this one's names
                    run.ran += 1
    finally:
        os.chdir(cwd)
        if backend is None:
            os.environ.pop("MPLBACKEND", None)
        else:
            os.environ["MPLBACKEND"] = backend
    return run


def test_every_page_is_walked() -> None:
    assert set(MUST_HAVE_EXAMPLES) <= set(PYCON_PAGES), "README/getting-started lost examples"
    assert ROOT / "docs" / "howto" / "evaluate.md" in PYCON_PAGES
    assert len(PAGES) > len(PYCON_PAGES) > 2


@pytest.mark.parametrize("page", PYCON_PAGES, ids=_page_id)
def test_pycon_blocks_run(page: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    run = _run_page(page, tmp_path_factory)
    assert run.failures == 0, \
        f"{run.failures} example(s) of {_page_id(page)} failed:\n" + "".join(run.report)
    if page in MUST_HAVE_EXAMPLES:
        assert run.ran > 0, f"{_page_id(page)} has no example that runs"


def _marked(page: Path) -> list[tuple[int, str, str]]:
    """(line, language, reason) of the page's example blocks marked ``<!-- skip: ... -->``
    (a marked console block's commands are skipped one by one below)."""
    return [(b.line + 1, b.lang, b.skip) for b in _blocks(page)
            if b.skip and b.lang != "console"]


MARKED = [pytest.param(p, lang, id=f"{_page_id(p)}:{line}", marks=pytest.mark.skip(reason=why))
          for p in PAGES for line, lang, why in _marked(p)]


@pytest.mark.parametrize(("page", "lang"), MARKED)
def test_marked_blocks_are_reported_as_skipped(page: Path, lang: str) -> None:
    """One skip per marked block, with its reason (the body never runs)."""


def test_skip_marks_are_on_blocks_the_test_runs() -> None:
    for page in PAGES:
        blocks = _blocks(page)
        for i, b in enumerate(blocks):
            if b.skip:
                setup = b.lang == "python" and i + 1 < len(blocks) \
                    and blocks[i + 1].lang == "pycon"
                assert setup or b.lang in ("pycon", "console"), \
                    f"{_page_id(page)}:{b.line + 1}: a skip mark on a block that is never run"


def _console(page: Path) -> list[tuple[str, str, str | None]]:
    """(command, expected output, skip reason) of every ``$ binmetrics`` line of the page."""
    found = []
    for lang, text, skip, _ in _blocks(page):
        if lang != "console":
            continue
        parts = re.split(r"^\$ ", text, flags=re.M)
        for part in parts[1:]:
            command, _, output = part.partition("\n")
            if command.startswith("binmetrics "):
                found.append((command, output, skip))
    return found


CONSOLE = [pytest.param(p, c, o, id=f"{_page_id(p)}: {c[:50]}",
                        marks=[pytest.mark.skip(reason=s)] if s else [])
           for p in PAGES for c, o, s in _console(p)]


@pytest.mark.parametrize(("page", "command", "output"), CONSOLE)
def test_console_commands_print_what_the_page_shows(
        page: Path, command: str, output: str, tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # the page's examples run first: a command may read a file they wrote
    workdir = _run_page(page, tmp_path_factory).workdir
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": str(ROOT / "src") + os.pathsep
           + os.environ.get("PYTHONPATH", "")}
    argv = shlex.split(command)[1:]
    p = subprocess.run([sys.executable, "-m", "binmetrics", *argv], capture_output=True,
                       text=True, cwd=workdir, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    got = p.stdout.replace(str(workdir) + os.sep, "")
    assert [line.rstrip() for line in got.splitlines()] == \
        [line.rstrip() for line in output.splitlines()]
