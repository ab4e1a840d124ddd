"""The package's layers, read from its source with ast: every import counts, including
those inside functions and under TYPE_CHECKING (docs/architecture.md).

- no import cycle between modules (a package's ``__init__`` re-exporting its own
  children is how names are published, not a cycle);
- no private name (``_x``) imported from another module, except from a private helper
  module of the same package (``inference/_replicates.py`` used by ``inference/paired.py``);
- nothing inside the package imports its root ``binmetrics/__init__`` (the curated
  public names sit on top of everything);
- the layer order of pyproject's import-linter contract holds (``lint-imports`` checks
  it too, with indirect imports; this test needs no extra tool and names the line);
- no module reaches a higher layer by a module name in a string
  (``importlib.import_module("binmetrics.display")``; issue 26: "No computing layer
  reaches a higher one through a string");
- modules stay under about 800 lines.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import tomllib

ROOT = Path(__file__).resolve().parents[2]
PKG_DIR = ROOT / "src" / "binmetrics"
PKG = "binmetrics"
MAX_LINES = 800


def _modules() -> dict[str, Path]:
    mods = {}
    for f in sorted(PKG_DIR.rglob("*.py")):
        parts = list(f.relative_to(PKG_DIR.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = f
    return mods


MODULES = _modules()


def _imports(module: str) -> Iterator[tuple[str, str | None, int]]:
    """(target module, imported name or None, line) of every import in ``module``."""
    path = MODULES[module]
    is_pkg = path.name == "__init__.py"
    here = module.split(".") if is_pkg else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == PKG or a.name.startswith(PKG + "."):
                    yield a.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not (target == PKG or target.startswith(PKG + ".")):
                continue
            for a in node.names:
                full = f"{target}.{a.name}"
                if full in MODULES:
                    yield full, None, node.lineno
                else:
                    yield target, a.name, node.lineno


def _edges() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for m in MODULES:
        for target, _, _ in _imports(m):
            if target in MODULES and target != m:
                graph[m].add(target)
    return graph


def _is_reexport(a: str, b: str) -> bool:
    return MODULES[a].name == "__init__.py" and b.startswith(a + ".")


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    g = {a: {b for b in bs if not _is_reexport(a, b)} for a, bs in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in g.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            strong(v)
    return out


def test_no_import_cycle() -> None:
    assert _cycles(_edges()) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    # the check above is only as good as the finder: a planted cycle must show
    graph = {m: set() for m in MODULES}
    a, b = "binmetrics.table.counts", "binmetrics.measures.registry"
    graph[a].add(b)
    graph[b].add(a)
    assert _cycles(graph) == [sorted([a, b])]


def _private_cross_imports() -> list[str]:
    found = []
    for m in MODULES:
        for target, name, line in _imports(m):
            if not name or not name.startswith("_") or name.startswith("__"):
                continue
            target_pkg, _, target_leaf = target.rpartition(".")
            helper_of_same_package = (target_leaf.startswith("_")
                                      and m.startswith(target_pkg + "."))
            if not helper_of_same_package:
                found.append(f"{MODULES[m].relative_to(ROOT)}:{line}: {name} from {target}")
    return found


def test_no_private_name_crosses_modules() -> None:
    assert _private_cross_imports() == []


def test_nothing_imports_the_package_root() -> None:
    bad = [f"{MODULES[m].relative_to(ROOT)}:{line}"
           for m in MODULES if m != PKG
           for target, _, line in _imports(m) if target == PKG]
    assert bad == []


def _layers() -> list[list[str]]:
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = conf["tool"]["importlinter"]["contracts"]
    (layers,) = [c["layers"] for c in contracts if c["type"] == "layers"]
    return [[x.strip() for x in layer.replace("|", ":").split(":")] for layer in layers]


def _layer_of(module: str, layers: list[list[str]]) -> int | None:
    for i, layer in enumerate(layers):
        if any(module == x or module.startswith(x + ".") for x in layer):
            return i
    return None


def test_every_module_has_a_layer() -> None:
    layers = _layers()
    assert [m for m in MODULES if m not in (PKG, f"{PKG}.__main__")
            and _layer_of(m, layers) is None] == []


def test_imports_point_down() -> None:
    layers = _layers()  # listed top first: an import may go to its layer or a later one
    upward = []
    for m in MODULES:
        mine = _layer_of(m, layers)
        if mine is None:
            continue
        for target, _, line in _imports(m):
            theirs = _layer_of(target, layers)
            if theirs is not None and theirs < mine:
                upward.append(f"{MODULES[m].relative_to(ROOT)}:{line}: {m} -> {target}")
    assert upward == []


def _imports_by_name(source: str) -> list[tuple[str, int]]:
    """(module, line) of each ``importlib.import_module("...")`` or ``__import__("...")``
    call in ``source`` with a literal module name."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        called = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) \
            else None
        arg = node.args[0] if node.args else None
        if called in ("import_module", "__import__") and isinstance(arg, ast.Constant) \
                and isinstance(arg.value, str):
            out.append((arg.value, node.lineno))
    return sorted(out, key=lambda found: found[1])


def _upward_by_name() -> list[str]:
    layers = _layers()
    found = []
    for m, path in MODULES.items():
        mine = _layer_of(m, layers)
        for target, line in _imports_by_name(path.read_text(encoding="utf-8")):
            theirs = _layer_of(target, layers)
            if mine is not None and theirs is not None and theirs < mine:
                found.append(f"{path.relative_to(ROOT)}:{line}: {m} -> {target!r}")
    return found


def test_no_layer_reaches_a_higher_one_by_name() -> None:
    """A computing layer calls only downward: what it draws or reports is computed in
    its own layer or below, never fetched from a higher one by a module name in a
    string (which the import checks above cannot see)."""
    assert _upward_by_name() == []


def test_the_finder_sees_an_import_by_name() -> None:
    planted = ("import importlib\n"
               "def plot(self):\n"
               "    return importlib.import_module('binmetrics.display').plot(self)\n"
               "def report(self):\n"
               "    return __import__('binmetrics.display.report')\n"
               "def fine(name):\n"
               "    return importlib.import_module(name)\n")
    assert _imports_by_name(planted) == [("binmetrics.display", 3),
                                         ("binmetrics.display.report", 5)]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_size(module: str) -> None:
    n = len(MODULES[module].read_text(encoding="utf-8").splitlines())
    assert n <= MAX_LINES, f"{module} has {n} lines; split it along its seams"
