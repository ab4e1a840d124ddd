"""The test suite's own options and markers.

``peer``: a test that needs a package binmetrics itself does not install (the peers it
is cross-checked against, hypothesis, matplotlib, the engines' backends, the docs
and lint tools). Tests are marked automatically, so that ``pytest -m "not peer"`` in an
environment with only ``pip install -e .`` and pytest runs exactly the tests that need
nothing else (.ci/run's second job). A test is a peer test when

- its module imports a peer, or calls ``pytest.importorskip`` on one, at module level
  (it cannot be collected without it);
- its function, the fixtures it uses, or the helper functions they call (followed
  through the globals of their modules) import a peer, call ``pytest.importorskip`` on
  one, or name one in a string constant (``engine="duckdb"``);
- a binmetrics function that it calls (by a global name, as ``bm.<name>``, after
  ``from binmetrics... import``; for a class its ``__init__``/``__enter__``) imports a
  peer on every call (a doctest of src/binmetrics likewise);
- it carries ``@pytest.mark.peer`` (for a need none of the above shows).

A module whose import fails for want of a peer is collected as one skipped ``peer``
item, so that the run without peers deselects it instead of failing to collect it. A
test not marked that fails for want of a peer says so in its report.

binmetrics' own warnings (:class:`binmetrics.exceptions.BinmetricsWarning` and its
subclasses: a measure undefined, a caveat, rows left out, a threshold outside the scores'
range) fail a test unless it expects them (``pytest.warns``): pyproject.toml's
``filterwarnings`` says so for every run (issue 33, point 9).
``--binmetrics-warnings-as-errors``, which used to turn this on, is kept as a no-op.

``--own-warnings-as-errors``: a DeprecationWarning, PendingDeprecationWarning or
FutureWarning that a binmetrics module's call raises (pandas, NumPy and SciPy attribute
them to their caller) fails the test. The CLI keeps filters that raise (see
``binmetrics.cli.app``), so a warning that it would print fails the test too.
"""

from __future__ import annotations

import ast
import dis
import doctest
import importlib.util
import inspect
import re
import textwrap
import types
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

#: import names of the packages that only the tests (or optional extras) install
PEERS = frozenset({
    "sklearn", "statsmodels", "rdkit", "pycm", "dcurves", "hmeasure", "autorank",
    "scikit_posthocs", "baycomp", "mlxtend", "hypothesis", "matplotlib", "polars",
    "duckdb", "pyspark", "playwright", "mkdocs", "material", "mkdocs_gen_files", "ruff",
    "mypy", "importlinter", "fairlearn", "mapie", "dask", "distributed", "mlflow", "wandb",
})
TESTS = Path(__file__).resolve().parent / "tests"
OWN_WARNINGS = ("DeprecationWarning", "PendingDeprecationWarning", "FutureWarning")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--own-warnings-as-errors", action="store_true",
                     help="fail on a Deprecation/PendingDeprecation/FutureWarning "
                          "that a binmetrics module's call raises")
    parser.addoption("--binmetrics-warnings-as-errors", action="store_true",
                     help="no-op, kept for compatibility: binmetrics' own warnings "
                          "(BinmetricsWarning) fail a test that does not expect them in "
                          "every run (pyproject.toml's filterwarnings)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "peer: needs a package that `pip install -e .` does not install "
                   "(set automatically by conftest.py)")
    if config.getoption("--own-warnings-as-errors"):
        for category in OWN_WARNINGS:  # last in the list: these take precedence
            config.addinivalue_line("filterwarnings", rf"error::{category}:binmetrics(\.|$)")


def _root(name: str) -> str:
    return name.split(".", 1)[0]


def _is_peer_name(name: object) -> bool:
    return isinstance(name, str) and _root(name) in PEERS


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    """A code object and those nested in it (inner functions, lambdas, comprehensions)."""
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


_GLOBAL_OPS = frozenset({"LOAD_GLOBAL", "LOAD_NAME"})


class _Names(NamedTuple):
    imports: frozenset[str]  # modules imported
    globals: frozenset[str]  # global names read
    attrs: frozenset[str]  # attribute names read
    from_imports: frozenset[tuple[str, str]]  # (module, name) of ``from module import name``


_NAME_CACHE: dict[types.CodeType, _Names] = {}


def _names(code: types.CodeType) -> _Names:
    """The names that ``code`` and the code nested in it import and read."""
    if code not in _NAME_CACHE:
        imports: set[str] = set()
        globs: set[str] = set()
        attrs: set[str] = set()
        froms: set[tuple[str, str]] = set()
        for c in _codes(code):
            module = ""
            for ins in dis.get_instructions(c):
                if ins.opname == "IMPORT_NAME":
                    module = str(ins.argval)
                    imports.add(module)
                elif ins.opname == "IMPORT_FROM":
                    froms.add((module, str(ins.argval)))
                elif ins.opname in _GLOBAL_OPS:
                    globs.add(str(ins.argval))
                elif ins.opname in ("LOAD_ATTR", "LOAD_METHOD"):
                    attrs.add(str(ins.argval))
        _NAME_CACHE[code] = _Names(frozenset(imports), frozenset(globs), frozenset(attrs),
                                   frozenset(froms))
    return _NAME_CACHE[code]


def _strings(code: types.CodeType) -> Iterator[object]:
    for c in _codes(code):
        yield from c.co_consts


_ALWAYS_CACHE: dict[types.CodeType, bool] = {}


def _imports_peer_always(func: Any) -> bool:
    """Whether a library function imports a peer on every call: an import statement in
    its body outside any ``if``/loop (a lazy import of an optional dependency, not the
    branch that handles a polars input)."""
    code = func.__code__
    if code in _ALWAYS_CACHE:
        return _ALWAYS_CACHE[code]
    _ALWAYS_CACHE[code] = False
    if not any(_is_peer_name(n) for n in _names(code).imports):
        return False
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    except (OSError, TypeError, SyntaxError):
        return False
    todo = list(getattr(tree.body[0], "body", [])) if tree.body else []
    while todo:
        node = todo.pop()
        if ((isinstance(node, ast.Import) and any(_is_peer_name(a.name) for a in node.names))
                or (isinstance(node, ast.ImportFrom) and not node.level
                    and _is_peer_name(node.module))):
            _ALWAYS_CACHE[code] = True
            break
        if isinstance(node, (ast.Try, ast.With)):
            todo.extend(node.body)
    return _ALWAYS_CACHE[code]


def _package_function(name: str) -> Any:
    """``binmetrics.<name>`` (``bm.benchmark(...)``)."""
    import binmetrics

    try:
        return getattr(binmetrics, name, None)
    except Exception:  # a lazily loaded name whose module needs a missing peer
        return None


def _imported(module: str, name: str) -> Any:
    """``name`` of ``from module import name``, for a binmetrics module."""
    if not module.startswith("binmetrics"):
        return None
    try:
        return getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None


def _called(value: Any) -> list[Any]:
    """The functions that calling ``value`` runs for sure: a function itself; for a
    binmetrics class, its ``__init__`` and ``__enter__`` (``with FileJob(...)``)."""
    if inspect.isfunction(value):
        return [value]
    if inspect.isclass(value) and value.__module__.startswith("binmetrics"):
        return [f for f in (vars(value).get("__init__"), vars(value).get("__enter__"))
                if inspect.isfunction(f)]
    return []


def _needs_peer(func: Any, seen: set[int]) -> bool:
    """Whether ``func``, or what it calls by a global name, as ``bm.<name>`` or after
    ``from binmetrics... import name`` (followed through each function's module),
    needs a peer. A test's function: any import of a peer, or a peer's name as a string
    (``importorskip("x")``, ``engine="duckdb"``); a binmetrics function: an import of a
    peer on every call."""
    func = inspect.unwrap(getattr(func, "__func__", func))
    code = getattr(func, "__code__", None)
    if code is None or id(code) in seen:
        return False
    seen.add(id(code))
    glob: dict[str, Any] = getattr(func, "__globals__", {})
    names = _names(code)
    if code.co_filename == "<doctest>" or Path(code.co_filename).is_relative_to(TESTS):
        if (any(_is_peer_name(n) for n in names.imports)
                or any(map(_is_peer_name, _strings(code)))):
            return True
    elif str(glob.get("__name__", "")).startswith("binmetrics"):
        if _imports_peer_always(func):
            return True
    else:  # another library's function: not followed
        return False
    values = ([glob.get(n) for n in names.globals]
              + [_package_function(n) for n in names.attrs]
              + [_imported(m, n) for m, n in names.from_imports])
    return any(_needs_peer(f, seen) for v in values for f in _called(v))


_MODULE_CACHE: dict[str, bool] = {}


def _module_needs_peer(module: types.ModuleType) -> bool:
    """Whether a test module needs a peer to be imported at all: it imports one (a
    global that is, or comes from, a peer) or calls ``pytest.importorskip`` on one at
    module level (read from its source: such a call leaves no global behind)."""
    path = str(getattr(module, "__file__", ""))
    if path not in _MODULE_CACHE:
        found = False
        for value in vars(module).values():
            name = (value.__name__ if isinstance(value, types.ModuleType)
                    else getattr(value, "__module__", None))
            found = found or _is_peer_name(name)
        if not found and path.endswith(".py"):
            tree = ast.parse(Path(path).read_text(encoding="utf-8"))
            for stmt in tree.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    continue  # run by a test, not at import
                nodes = list(ast.walk(stmt))
                skips = any(isinstance(n, ast.Call) and (getattr(n.func, "attr", None)
                            or getattr(n.func, "id", None)) == "importorskip" for n in nodes)
                found = found or (skips and any(isinstance(n, ast.Constant)
                                                and _is_peer_name(n.value) for n in nodes))
        _MODULE_CACHE[path] = found
    return _MODULE_CACHE[path]


def _doctest_needs_peer(item: pytest.Item) -> bool:
    """A doctest of src/binmetrics: whether the examples that run import a peer or call
    a function (of the module's globals, or ``bm.<name>``) that needs one."""
    dtest = getattr(item, "dtest", None)
    if dtest is None:
        return False
    seen: set[int] = set()
    for example in dtest.examples:
        if example.options.get(doctest.SKIP):
            continue
        try:  # "<doctest>": read as a test's code (_needs_peer)
            code = compile(example.source, "<doctest>", "exec")
        except SyntaxError:
            continue
        if any(_is_peer_name(n) for n in _names(code).imports):
            return True
        if _needs_peer(types.FunctionType(code, dtest.globs), seen):
            return True
    return False


def _item_needs_peer(item: pytest.Item) -> bool:
    if item.get_closest_marker("peer") is not None:
        return True
    if _doctest_needs_peer(item):
        return True
    module = getattr(item, "module", None)
    if module is not None and _module_needs_peer(module):
        return True
    seen: set[int] = set()
    if _needs_peer(getattr(item, "obj", None), seen):
        return True
    callspec = getattr(item, "callspec", None)  # a function passed as a parameter
    for value in (callspec.params.values() if callspec is not None else ()):
        if inspect.isfunction(value) and _needs_peer(value, seen):
            return True
    info = getattr(item, "_fixtureinfo", None)
    for defs in (info.name2fixturedefs.values() if info is not None else ()):
        if any(_needs_peer(d.func, seen) for d in defs):
            return True
    return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _item_needs_peer(item):
            item.add_marker(pytest.mark.peer)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    exc = call.excinfo.value if call.excinfo is not None else None
    if (report.failed and item.get_closest_marker("peer") is None
            and isinstance(exc, ModuleNotFoundError) and _is_peer_name(exc.name)):
        report.sections.append((
            "peer", f"{item.nodeid} needs {exc.name}, which conftest.py did not see: "
                    "mark it @pytest.mark.peer"))
    return report


# --- modules that cannot be imported without a peer ---------------------------------------
class _MissingPeer(pytest.Item):
    """Stands for a test module whose import needs a missing peer: skipped, marked peer."""

    def __init__(self, *, reason: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.reason = reason
        self.add_marker(pytest.mark.peer)

    def runtest(self) -> None:
        pytest.skip(self.reason)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, self.name


def _missing_peer(exc: BaseException | None, message: str = "") -> str | None:
    """The missing peer that made a module's import fail, if that was the cause."""
    while exc is not None:
        if isinstance(exc, ModuleNotFoundError) and _is_peer_name(exc.name):
            return _root(exc.name or "")
        exc = exc.__cause__ or exc.__context__
    for peer in sorted(PEERS):  # a module-level importorskip's message names it
        if re.search(rf"\b{peer}\b", message) and not _installed(peer):
            return peer
    return None


class _PeerAwareModule(pytest.Module):
    def collect(self) -> Iterable[pytest.Item | pytest.Collector]:
        try:
            self.obj  # noqa: B018 (imports the module)
        except pytest.Collector.CollectError as exc:
            peer = _missing_peer(exc)
            if peer is None:
                raise
        except pytest.skip.Exception as exc:
            peer = _missing_peer(None, str(exc.msg))
            if peer is None:
                raise
        else:
            return super().collect()
        return [_MissingPeer.from_parent(self, name=f"[needs {peer}]",
                                         reason=f"{peer} is not installed")]


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> Any:
    """Test modules are collected by :class:`_PeerAwareModule`."""
    return _PeerAwareModule.from_parent(parent, path=module_path)


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Any:
    """No doctest collection of the test modules (``--doctest-modules`` is for
    src/binmetrics): it would import them a second time, failing where a peer is missing."""
    collectors = yield
    if file_path.is_relative_to(TESTS) and collectors:
        collectors = [c for c in collectors if type(c).__name__ != "DoctestModule"]
    return collectors
