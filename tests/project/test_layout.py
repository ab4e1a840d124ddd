"""The tests mirror the package: each folder of tests/ is named after a subpackage of
binmetrics (its tests), or is ``project`` (the repository as a whole) or ``data``; a
test file directly in tests/ tests a top-level module (validation, progress). Files
are named by what they test, never by the work that added them."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
PKG = ROOT / "src" / "binmetrics"


def test_every_test_folder_mirrors_a_subpackage() -> None:
    packages = {p.parent.name for p in PKG.glob("*/__init__.py")}
    folders = {p.name for p in TESTS.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))}
    assert folders - packages - {"project", "data"} == set()
    for folder in folders - {"data"}:
        assert list((TESTS / folder).glob("test_*.py")), f"tests/{folder} holds no test"


def test_no_test_is_named_after_past_work() -> None:
    history = re.compile(r"first_hour|review|fixes|issue\d*|regression|round\d*|misc")
    named = [str(p.relative_to(TESTS)) for p in TESTS.rglob("test_*.py")
             if history.search(p.stem)]
    assert named == []


def test_test_file_names_are_unique() -> None:
    # pytest imports test files by their base name (no __init__.py in the folders)
    names = [p.name for p in TESTS.rglob("test_*.py")]
    assert sorted(n for n in set(names) if names.count(n) > 1) == []
