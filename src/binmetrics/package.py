"""The package itself: its version (the CLI, the reports and ``binmetrics.__version__``
read it here) and its public names, written once in each ``__init__.pyi`` and loaded
on first use.

The stub is the one list: type checkers and IDEs read it as the package's interface
(each name imported ``as`` itself, the typing spec's mark of a re-export), and
:func:`attach_stub` reads the same file at import to build the package's
``__getattr__`` (the module-level hook of PEP 562), ``__dir__`` and ``__all__``.
This is the scientific-Python lazy-loading convention (SPEC 1) without the
``lazy_loader`` dependency, whose ``attach_stub`` does the same with :mod:`ast`.

Why the stub is parsed at import rather than a Python dict imported beside a
generated stub: a dict needs the stub kept in step with it (two lists and a check),
and parsing costs little. The stub is compiled to a syntax tree by the built-in
:func:`compile` with the ``_ast`` flags, which, unlike ``import ast`` (about 2 ms,
it pulls in ``enum`` and ``contextlib``), imports nothing: reading and walking the
root's stub of about 100 names takes about 0.3 ms (``benchmarks/bench_startup.py``
times the whole import).

>>> import binmetrics as bm
>>> "evaluate" in bm.__all__ and "annotations" not in dir(bm)
True
"""

from __future__ import annotations

import importlib
import sys
from _ast import Expr, ImportFrom, Module, PyCF_ONLY_AST

# typing is not imported at run time: ``import binmetrics`` then loads neither it nor
# the re and enum modules it pulls in (about half of the package's import time)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["__version__", "attach_stub", "stub_names"]

__version__ = "0.1.0"


def stub_names(package: str, stub_path: str) -> dict[str, str]:
    """Public name -> the module it is imported from, read from a package's stub.

    The stub may hold a docstring and absolute ``from module import name as name``
    statements, nothing else: it is a list of names, and anything more would be read
    by type checkers but not by the loader.
    """
    spec = sys.modules[package].__spec__
    loader = getattr(spec, "loader", None)
    if loader is not None and hasattr(loader, "get_data"):
        source = loader.get_data(stub_path)  # a zip import reads inside its archive too
    else:
        with open(stub_path, "rb") as f:
            source = f.read()
    tree = compile(source, stub_path, "exec", flags=PyCF_ONLY_AST, dont_inherit=True)
    assert isinstance(tree, Module)
    names: dict[str, str] = {}
    for node in tree.body:
        where = f"{stub_path}:{node.lineno}"
        if isinstance(node, Expr) and node is tree.body[0]:
            continue  # the docstring
        if not isinstance(node, ImportFrom) or node.level or not node.module:
            raise ImportError(f"{where}: the stub lists public names only, as "
                              "'from package.module import name as name'")
        for alias in node.names:
            if alias.asname != alias.name:
                raise ImportError(f"{where}: write '{alias.name} as {alias.name}', the "
                                  "form that marks a public name for type checkers")
            if alias.name in names:
                raise ImportError(f"{where}: {alias.name!r} is listed twice")
            names[alias.name] = node.module
    return names


def attach_stub(package: str, init_path: str
                ) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """``__getattr__``, ``__dir__`` and ``__all__`` for ``package`` from the stub next to
    its ``__init__.py`` (``init_path``, the package's ``__file__``).

    ``__getattr__`` imports a name's module on first use and keeps the value in the
    package, so later lookups are plain attribute reads. ``__dir__`` lists the public
    names and the module's dunder attributes (``__version__``, ``__file__``, ...), not
    the helpers the ``__init__`` imports for itself nor the subpackages loaded so far.
    """
    names = stub_names(package, init_path + "i")  # __init__.py -> __init__.pyi
    public = sorted(names)
    module_globals = vars(sys.modules[package])

    def __getattr__(name: str) -> Any:
        source = names.get(name)
        if source is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(source), name)
        module_globals[name] = value
        return value

    def __dir__() -> list[str]:
        dunders = [n for n in module_globals if n.startswith("__") and n.endswith("__")
                   and n not in ("__getattr__", "__dir__", "__builtins__")]
        return sorted(set(public) | set(dunders))

    return __getattr__, __dir__, public
