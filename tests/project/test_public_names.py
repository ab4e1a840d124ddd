"""The public names (issue 26, requirement 6): one list, nothing else in ``dir``, no
module shadowed by a function, and every type a public function returns exported.

The list is ``binmetrics/__init__.pyi`` (and ``evaluation/__init__.pyi``), read by type
checkers and, through :mod:`binmetrics.package`, by the package at import.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import subprocess
import sys
import textwrap
import types
import typing
from pathlib import Path
from typing import Any

import pytest

import binmetrics as bm
from binmetrics.package import stub_names

ROOT = Path(__file__).resolve().parents[2]
PKG_DIR = ROOT / "src" / "binmetrics"
#: packages whose names are served from a stub
STUBBED = [p.parent for p in PKG_DIR.rglob("__init__.pyi")]


def _all_modules() -> list[types.ModuleType]:
    """Every module of binmetrics, imported (so that a submodule that would shadow a
    name, or be shadowed by one, has been set on its package)."""
    mods = [bm]
    for info in pkgutil.walk_packages(bm.__path__, "binmetrics."):
        if info.name.endswith("__main__"):
            continue
        mods.append(importlib.import_module(info.name))
    return mods


MODULES = _all_modules()
PACKAGES = [m for m in MODULES if hasattr(m, "__path__")]


# --- one list ---------------------------------------------------------------------------

def test_the_stubs_are_the_lists_the_packages_serve() -> None:
    assert STUBBED, "no __init__.pyi found"
    for directory in STUBBED:
        name = ".".join(directory.relative_to(PKG_DIR.parent).parts)
        package = importlib.import_module(name)
        listed = stub_names(name, str(directory / "__init__.pyi"))
        assert package.__all__ == sorted(listed), name
        for public, module in listed.items():
            # each name is the object its module defines, reached through the package
            assert getattr(package, public) is getattr(importlib.import_module(module),
                                                       public), f"{name}.{public}"
        init = (directory / "__init__.py").read_text(encoding="utf-8")
        assert "_attach_stub(__name__, __file__)" in init, name
        assert "__all__ = [" not in init, f"{name}: a second list of names"


def test_the_stubs_are_packaged() -> None:
    import tomllib

    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data = conf["tool"]["setuptools"]["package-data"]["binmetrics"]
    for directory in STUBBED:
        rel = (directory / "__init__.pyi").relative_to(PKG_DIR).as_posix()
        assert any(Path(rel).match(pattern) for pattern in data), rel


def test_type_checkers_read_the_stub(tmp_path: Path) -> None:
    # mypy types the package from __init__.pyi: listed names exist, others are errors
    # (with the module-level __getattr__ of __init__.py alone, any name would be Any)
    pytest.importorskip("mypy")
    (tmp_path / "use.py").write_text("import binmetrics as bm\n"
                                     "bm.evaluate, bm.DeLongTest, bm.plot, bm.__version__\n"
                                     "bm.EvalOptions\n")
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--follow-imports=skip",
         "--cache-dir", str(tmp_path / "cache"), str(tmp_path / "use.py")],
        capture_output=True, text=True, cwd=tmp_path, env={"MYPYPATH": str(PKG_DIR.parent),
                                                           "PATH": ""})
    errors = [line for line in out.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and 'no attribute "EvalOptions"' in errors[0], out.stdout


def _package_with_stub(tmp_path: Path, stub: str) -> str:
    pkg = tmp_path / "stubbed_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from binmetrics.package import attach_stub\n"
                                     "__getattr__, __dir__, __all__ = "
                                     "attach_stub(__name__, __file__)\n")
    (pkg / "__init__.pyi").write_text(textwrap.dedent(stub))
    return f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import stubbed_pkg as p\n"


@pytest.mark.parametrize(("stub", "error"), [
    ("from math import pi\n", "write 'pi as pi'"),
    ("from math import pi as pi\nx = 1\n", "public names only"),
    ("from math import pi as pi\nfrom cmath import pi as pi\n", "listed twice"),
])
def test_a_stub_that_is_not_a_plain_list_is_refused(tmp_path: Path, stub: str,
                                                     error: str) -> None:
    code = _package_with_stub(tmp_path, stub)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode != 0 and error in out.stderr


def test_a_stubbed_name_loads_on_first_use(tmp_path: Path) -> None:
    code = _package_with_stub(tmp_path, '"""doc"""\nfrom fractions import Fraction as '
                                        'Fraction\n')
    code += ("import sys\nassert 'fractions' not in sys.modules\n"
             "assert p.__all__ == ['Fraction'] and 'Fraction' in dir(p)\n"
             "assert p.Fraction(1, 2) == 0.5 and 'fractions' in sys.modules\n"
             "assert 'attach_stub' not in dir(p)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


# --- dir --------------------------------------------------------------------------------

def _is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


@pytest.mark.parametrize("name", ["binmetrics", "binmetrics.evaluation"])
def test_dir_shows_public_names_only(name: str) -> None:
    package = importlib.import_module(name)
    shown = dir(package)
    assert [n for n in shown if not _is_dunder(n)] == [
        n for n in package.__all__ if not _is_dunder(n)]
    assert set(package.__all__) <= set(shown)
    for helper in ("Any", "TYPE_CHECKING", "annotations", "importlib", "sys", "types",
                   "_attach_stub", "package"):
        assert helper not in shown
    assert "__doc__" in shown and "__getattr__" not in shown


def test_dir_in_a_fresh_process() -> None:
    out = subprocess.run([sys.executable, "-c", "import binmetrics as bm; "
                          "print(' '.join(n for n in dir(bm) if not n.startswith('__')))"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.split() == [n for n in bm.__all__ if not _is_dunder(n)]


# --- no module shadowed -----------------------------------------------------------------

def _shadowed(packages: list[types.ModuleType]) -> list[str]:
    found = []
    for package in packages:
        submodules = {info.name for info in pkgutil.iter_modules(package.__path__)}
        public = set(getattr(package, "__all__", [])) | {
            n for n in vars(package) if not n.startswith("_")}
        for name in sorted(public & submodules):
            value = getattr(package, name)
            real = sys.modules.get(f"{package.__name__}.{name}")
            if value is not real:
                found.append(f"{package.__name__}.{name} is {value!r}, not the module")
    return found


def test_no_module_is_shadowed_by_a_name_of_its_package() -> None:
    assert [p.__name__ for p in PACKAGES if p.__name__ == "binmetrics.study"]
    assert _shadowed(PACKAGES) == []


def test_the_shadow_finder_finds_a_shadow() -> None:
    pkg = types.ModuleType("fake_pkg")
    pkg.__path__ = [str(PKG_DIR / "comparison")]  # has a module ranks.py
    pkg.ranks = lambda: None  # type: ignore[attr-defined]
    assert _shadowed([pkg]) and "fake_pkg.ranks" in _shadowed([pkg])[0]


def test_importing_a_subpackage_gives_the_subpackage() -> None:
    code = ("import binmetrics.measures as m, binmetrics.comparison.srd_ranking as s\n"
            "import binmetrics.evaluation.undersampling as u, types\n"
            "assert all(isinstance(x, types.ModuleType) for x in (m, s, u))\n"
            "import binmetrics as bm\nassert callable(bm.measure_catalogue)\n")
    subprocess.run([sys.executable, "-c", code], check=True)


# --- every returned type is exported ----------------------------------------------------

def _defined_classes() -> dict[str, type]:
    out: dict[str, type] = {}
    for mod in MODULES:
        for value in vars(mod).values():
            if inspect.isclass(value) and value.__module__.startswith("binmetrics."):
                out.setdefault(value.__name__, value)
    return out


CLASSES = _defined_classes()


def _namespace() -> dict[str, Any]:
    import numpy as np
    import numpy.typing as npt
    import pandas as pd

    ns: dict[str, Any] = {"np": np, "npt": npt, "pd": pd, **vars(typing)}
    try:
        from matplotlib.axes import Axes
        from matplotlib.figure import Figure

        ns.update(Axes=Axes, Figure=Figure, plt=importlib.import_module("matplotlib.pyplot"))
    except ImportError:
        pass
    for mod in MODULES:  # the type aliases and TYPE_CHECKING names of every module
        ns.update({k: v for k, v in vars(mod).items() if not k.startswith("__")})
    ns.update(CLASSES)
    return ns


NAMESPACE = _namespace()


def _classes_in(hint: Any) -> set[type]:
    found: set[type] = set()
    if inspect.isclass(hint) and hint.__module__.startswith("binmetrics."):
        found.add(hint)
    for arg in typing.get_args(hint):
        found |= _classes_in(arg)
    return found


def _returned(func: Any) -> set[type]:
    """The binmetrics classes in a callable's return annotation."""
    func = inspect.unwrap(func)
    raw = getattr(func, "__annotations__", {}).get("return")
    if raw is None:
        return set()
    module = sys.modules.get(getattr(func, "__module__", ""), None)
    ns = {**NAMESPACE, **(vars(module) if module else {})}
    try:
        return _classes_in(typing.get_type_hints(func, globalns=ns)["return"])
    except Exception:  # an annotation typing cannot evaluate on this Python: read its words
        text = raw if isinstance(raw, str) else repr(raw)
        words = {w.rsplit(".", 1)[-1] for w in re.findall(r"[A-Za-z_][\w.]*", text)}
        return {CLASSES[w] for w in words if w in CLASSES}


def _members(cls: type) -> list[tuple[str, Any]]:
    out = []
    for klass in cls.__mro__:
        if not klass.__module__.startswith("binmetrics"):
            continue
        for name, value in vars(klass).items():
            if name.startswith("_") and name not in ("__call__",):
                continue
            if isinstance(value, property):
                value = value.fget
            elif isinstance(value, (classmethod, staticmethod)):
                value = value.__func__
            if callable(value):
                out.append((f"{cls.__name__}.{name}", value))
    return out


def _unexported_returns() -> dict[str, list[str]]:
    """Returned binmetrics class -> the public callables that return it, for classes
    binmetrics does not export; the walk follows the methods of every class reached."""
    exported = {getattr(bm, n) for n in bm.__all__}
    # the plot namespace (bm.plot) publishes the types of its chart data
    exported |= {v for n, v in vars(bm.plot).items() if not n.startswith("_")
                 and inspect.isclass(v)}
    todo: list[tuple[str, Any]] = []
    for name in bm.__all__:
        obj = getattr(bm, name)
        if inspect.isclass(obj):
            todo += _members(obj)
        elif callable(obj):
            todo.append((name, obj))
        elif isinstance(obj, types.ModuleType):  # bm.plot: its public functions
            todo += [(f"{name}.{n}", f) for n, f in vars(obj).items()
                     if not n.startswith("_") and inspect.isfunction(f)
                     and f.__module__.startswith("binmetrics")]
    seen_classes: set[type] = set()
    missing: dict[str, list[str]] = {}
    while todo:
        where, func = todo.pop()
        for cls in _returned(func):
            if cls not in exported:
                missing.setdefault(f"{cls.__module__}.{cls.__qualname__}", []).append(where)
            if cls not in seen_classes:
                seen_classes.add(cls)
                todo += _members(cls)
    return missing


def test_every_returned_type_is_exported() -> None:
    missing = _unexported_returns()
    assert not missing, "returned but not exported (add to binmetrics/__init__.pyi):\n" + \
        "\n".join(f"{k}: {sorted(set(v))[:3]}" for k, v in sorted(missing.items()))


def test_the_return_walk_reads_the_annotations() -> None:
    # the walk is only as good as its reading of annotations: known answers
    assert _returned(bm.evaluate) >= {bm.Evaluation}
    assert bm.ROCCurve in _returned(bm.Evaluation.roc)
    assert _returned(bm.delong_test) and _returned(bm.bootstrap)


# --- the API reference ------------------------------------------------------------------

def _api_generator() -> types.ModuleType:
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_api", ROOT / "docs" / "gen_api.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_api_reference_lists_every_public_name() -> None:
    page = _api_generator().page()
    entries = re.findall(r"^### `(\w+)`$", page, flags=re.M)
    assert sorted(entries) == sorted(n for n in bm.__all__ if not _is_dunder(n))
    assert "bm.__version__" in page
    for cls in (bm.DeLongTest, bm.BootstrapResult, bm.PermutationResult):
        assert f"### `{cls.__name__}`" in page
    mkdocs = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "docs/gen_api.py" in mkdocs and "API reference: api.md" in mkdocs
