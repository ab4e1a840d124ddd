"""Generate the API reference (``api.md``) from the list of public names at build time.

mkdocs-gen-files runs this script (``plugins: gen-files: scripts:`` in mkdocs.yml). The
page lists every name of ``binmetrics.__all__``, which is read from
``src/binmetrics/__init__.pyi`` (the one list of public names): functions with their
signature, classes with their public methods and properties, each with the first
paragraph of its docstring and the module that defines it. Nothing here names a public
name by hand, so a name added to the stub appears here, and
``tests/project/test_public_names.py`` checks that every type a public function returns is one
of them.

``python docs/gen_api.py OUTDIR`` writes the same page into OUTDIR.
"""

from __future__ import annotations

import inspect
import re
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import binmetrics as bm

PAGE = "api.md"

SECTIONS = (
    ("functions", "Functions", "What a user calls: the front doors, tests and tools."),
    ("classes", "Results and other classes",
     "What the functions and methods return (every returned type is listed here), and the "
     "classes a user builds."),
    ("warnings", "Exceptions and warnings", ""),
    ("namespaces", "Namespaces", "Modules published under a short name."),
)


def _kind(obj: Any) -> str:
    if isinstance(obj, types.ModuleType):
        return "namespaces"
    if inspect.isclass(obj):
        return "warnings" if issubclass(obj, (BaseException, Warning)) else "classes"
    return "functions"


def _role(match: re.Match[str]) -> str:
    target = match.group(2)
    if target.startswith("~"):
        target = target[1:].rsplit(".", 1)[-1]
    return f"`{target.split(' <', 1)[0]}`"


def _summary(obj: Any) -> str:
    """The first paragraph of a docstring, on one line, its reST roles and literals as
    Markdown code."""
    doc = inspect.getdoc(obj) or ""
    first = " ".join(doc.strip().split("\n\n", 1)[0].split())
    first = re.sub(r":(\w+):`([^`]+)`", _role, first)
    return re.sub(r"``([^`]+)``", r"`\1`", first)


class _Text:
    """An annotation shown as written (they are strings: ``from __future__ import
    annotations``), without the quotes ``repr`` would add."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _signature(name: str, obj: Any) -> str:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return name
    empty = inspect.Parameter.empty

    def shown(ann: Any) -> Any:
        return _Text(ann) if isinstance(ann, str) else ann

    params = [p.replace(annotation=shown(p.annotation)) if p.annotation is not empty else p
              for p in sig.parameters.values()]
    ret = sig.return_annotation
    sig = sig.replace(parameters=params,
                      return_annotation=shown(ret) if ret is not empty else empty)
    return f"{name}{sig}"


def _members(cls: type) -> Iterator[tuple[str, str, str]]:
    """(name, kind, summary) of a class's public methods and properties, its own and
    those it inherits from binmetrics classes."""
    seen: set[str] = set()
    for klass in cls.__mro__:
        if not klass.__module__.startswith("binmetrics"):
            continue
        for name, value in vars(klass).items():
            if name.startswith("_") or name in seen:
                continue
            seen.add(name)
            if isinstance(value, property):
                yield name, "property", _summary(value)
            elif isinstance(value, (classmethod, staticmethod)):
                yield name, "method", _summary(value.__func__)
            elif inspect.isfunction(value):
                yield name, "method", _summary(value)


def _entry(name: str, obj: Any) -> list[str]:
    module = obj.__name__ if isinstance(obj, types.ModuleType) else obj.__module__
    lines = [f"### `{name}`", "", f"```python\nbm.{_signature(name, obj)}\n```"
             if not isinstance(obj, types.ModuleType) and _kind(obj) == "functions"
             else f"`bm.{name}`", "", f"Defined in `{module}`.", ""]
    summary = _summary(obj)
    if summary:
        lines += [summary, ""]
    if inspect.isclass(obj) and _kind(obj) == "classes":
        rows = sorted(_members(obj))
        if rows:
            lines += ["| member | | |", "|---|---|---|"]
            lines += [f"| `{n}` | {k} | {s.replace('|', '&#124;')} |" for n, k, s in rows]
            lines.append("")
    return lines


def page() -> str:
    names = [n for n in bm.__all__ if not n.startswith("__")]
    by_kind: dict[str, list[str]] = {key: [] for key, _, _ in SECTIONS}
    for name in names:
        by_kind[_kind(getattr(bm, name))].append(name)
    lines = [
        "# API reference",
        "",
        f"Every public name of binmetrics ({len(names)}), generated when the site is "
        "built from `binmetrics/__init__.pyi`, the one list that `import binmetrics` "
        "and type checkers read (`bm.__all__` and `dir(bm)` are the same list). "
        "`import binmetrics as bm` is assumed; each entry shows the module that "
        "defines it and the first paragraph of its docstring (`help(bm.name)` has the "
        "rest, with runnable examples).",
        "",
    ]
    for key, title, text in SECTIONS:
        if not by_kind[key]:
            continue
        lines += [f"## {title}", ""] + ([text, ""] if text else [])
        for name in sorted(by_kind[key], key=str.lower):
            lines += _entry(name, getattr(bm, name))
    lines += ["## Version", "", f"`bm.__version__`: the installed version "
              f"({bm.__version__} when this page was built).", ""]
    return "\n".join(lines)


def write_all(write: Callable[[str, str], None]) -> None:
    write(PAGE, page())


def _write_gen_files(path: str, text: str) -> None:
    import mkdocs_gen_files

    with mkdocs_gen_files.open(path, "w") as f:
        f.write(text)
    mkdocs_gen_files.set_edit_path(path, "gen_api.py")


if __name__ == "<run_path>":  # run by mkdocs-gen-files
    write_all(_write_gen_files)
elif __name__ == "__main__":  # python docs/gen_api.py OUTDIR
    if len(sys.argv) != 2:
        sys.exit("usage: python docs/gen_api.py OUTDIR")
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    write_all(lambda path, text: (out / path).write_text(text, encoding="utf-8"))
