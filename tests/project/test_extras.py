"""The optional packages that binmetrics.backends.EXTRAS names are those of
pyproject.toml's extras (issue 33, point 1: the CLI's error names the right extra)."""

from __future__ import annotations

import re
from pathlib import Path

from binmetrics.backends import EXTRAS

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_extras_match_pyproject() -> None:
    import tomllib

    extras = tomllib.loads(PYPROJECT.read_text())["project"]["optional-dependencies"]
    for module, (package, extra) in EXTRAS.items():
        names = {re.split(r"[<>=\[ ;]", r)[0] for r in extras[extra]}
        assert package in names, (module, package, extra, names)
