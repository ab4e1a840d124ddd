"""The README's and Getting started's examples run as written (issue 20: the first
hour): every ``pycon`` block is a doctest (blocks of one page share their names, and a
``python`` block just before a ``pycon`` one is run first, as its set-up), and every
``$ binmetrics ...`` line of a ``console`` block prints what the page shows."""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "docs" / "getting-started.md"]
FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.M | re.S)


def _blocks(page: Path) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in FENCE.finditer(page.read_text())]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_pycon_blocks_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    blocks = _blocks(page)
    globs: dict[str, object] = {}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    ran = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i, (lang, text) in enumerate(blocks):
            if lang == "python" and i + 1 < len(blocks) and blocks[i + 1][0] == "pycon":
                exec(compile(text, f"{page.name} block {i}", "exec"), globs)
            elif lang == "pycon":  # a blank line inside printed output is part of it
                text = re.sub(r"\n\n(?!>>>|\Z)", "\n<BLANKLINE>\n", text)
                test = parser.get_doctest(text, globs, f"{page.name} block {i}", str(page), 0)
                runner.run(test, clear_globs=False)
                globs.update(test.globs)  # the next block sees this one's names
                ran += 1
    assert ran > 0
    assert runner.failures == 0, f"{runner.failures} example(s) of {page.name} failed (above)"


def _console(page: Path) -> list[tuple[str, str]]:
    """(command, expected output) of every ``$ binmetrics`` line of the page."""
    found = []
    for lang, text in _blocks(page):
        if lang != "console":
            continue
        parts = re.split(r"^\$ ", text, flags=re.M)
        for part in parts[1:]:
            command, _, output = part.partition("\n")
            if command.startswith("binmetrics "):
                found.append((command, output))
    return found


CONSOLE = [(p.name, c, o) for p in PAGES for c, o in _console(p)]


@pytest.mark.parametrize(("page", "command", "output"), CONSOLE,
                         ids=[f"{p}: {c[:50]}" for p, c, _ in CONSOLE])
def test_console_commands_print_what_the_page_shows(page: str, command: str,
                                                    output: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep
           + os.environ.get("PYTHONPATH", "")}
    argv = shlex.split(command)[1:]
    p = subprocess.run([sys.executable, "-m", "binmetrics", *argv], capture_output=True,
                       text=True, cwd=ROOT, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    got = p.stdout.replace(str(ROOT) + os.sep, "")
    assert [line.rstrip() for line in got.splitlines()] == \
        [line.rstrip() for line in output.splitlines()]
