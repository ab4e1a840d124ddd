"""MkDocs hook: fill the catalogue section of the navigation from the registry.

``mkdocs.yml`` names the section ``Measure catalogue`` with the index page only; this
hook replaces that entry with the index plus one page per registered measure, grouped
by family, using :func:`gen_catalogue.nav` (the same paths the generator writes), so
the navigation never holds a hand-written list of measures.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

SECTION = "Measure catalogue"


def _generator() -> Any:
    path = Path(__file__).with_name("gen_catalogue.py")
    spec = importlib.util.spec_from_file_location("gen_catalogue", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def on_config(config: Any) -> Any:
    nav = config.nav or []
    for i, entry in enumerate(nav):
        if isinstance(entry, dict) and SECTION in entry:
            nav[i] = {SECTION: _generator().nav()}
            break
    else:
        raise ValueError(f"mkdocs.yml: the nav has no {SECTION!r} entry for the catalogue")
    return config
