"""Everything the code and the docs cite is in the repository.

* every ``binmetrics.<dotted.path>`` named in a docstring, comment or message of
  ``src/binmetrics``, in ``docs/`` or in the README resolves by import + getattr, and so
  does every Sphinx role (``:func:``, ``:class:``, ...) of a docstring, qualified or
  named relative to the module or class it is written in;
* every markdown file the code and the docs cite (``docs/methods.md``, ...) exists, and no
  text names a file outside the repository (the project's private spec and design notes);
* every registered measure names a paper or an in-repo page as its ``source``, and every
  shorthand for a source paper ("Berrar Def. 15") is listed in ``docs/references.md``.
"""

from __future__ import annotations

import ast
import builtins
import functools
import importlib
import inspect
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "binmetrics"
DOCS = ROOT / "docs"

# The texts users and contributors read: the package source (docstrings, comments and the
# strings it shows), the docs pages, the README and the other markdown of the repository.
SOURCE_FILES = sorted(SRC.rglob("*.py"))
MARKDOWN_FILES = sorted([ROOT / "README.md", *DOCS.rglob("*.md"),
                         *(ROOT / "benchmarks").rglob("*.md"),
                         *(ROOT / "examples").rglob("*.md")])
OTHER_TEXT_FILES = sorted([*(ROOT / "tests").rglob("*.py"), *(ROOT / "examples").rglob("*.py"),
                           *(ROOT / "benchmarks").rglob("*.py"), *DOCS.glob("*.py"),
                           ROOT / "pyproject.toml", ROOT / "mkdocs.yml"])

DOTTED = re.compile(r"(?<![\w./-])binmetrics(?:\.[A-Za-z_]\w*)+")
ROLE = re.compile(r":(?:py:)?(func|class|meth|attr|data|mod|obj|exc|const):"
                  r"`([^`<]+?)(?:\s*<([^>]+)>)?`")


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# --- resolving a dotted name -----------------------------------------------------------------

@functools.cache
def _resolve(dotted: str) -> bool:
    """Import the longest importable module prefix of ``dotted``, then getattr the rest."""
    parts = dotted.split(".")
    if not all(p.isidentifier() for p in parts):
        return False
    for cut in range(len(parts), 0, -1):
        try:
            module = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        return cut == len(parts) or _getattr_path(module, ".".join(parts[cut:]))
    return False


def _getattr_path(obj: Any, dotted: str) -> bool:
    names = dotted.split(".")
    for i, name in enumerate(names):
        try:
            obj = getattr(obj, name)
        except AttributeError:
            # an attribute a class sets on its instances (a dataclass field, an annotated
            # or ``self.name = ...`` attribute), which numpydoc's Attributes section lists
            return i == len(names) - 1 and _instance_attribute(obj, name)
    return True


def _instance_attribute(cls: Any, name: str) -> bool:
    if not isinstance(cls, type):
        return False
    for klass in cls.__mro__:
        if name in getattr(klass, "__annotations__", {}) or name in getattr(
                klass, "__slots__", ()):
            return True
        try:
            source = inspect.getsource(klass)
        except (OSError, TypeError):
            continue
        if re.search(rf"\bself\.{re.escape(name)}\s*(?::[^=]+)?=(?!=)", source):
            return True
    return False


@functools.cache
def _resolve_in_context(target: str, module: str, owner: str | None) -> bool:
    """A role's target as Sphinx would look it up: the class it is written in, the module,
    the module's package, the package root, then a fully qualified name."""
    target = target.strip().lstrip("~!").lstrip(".").rstrip("()")
    if _resolve(target):
        return True
    mod = importlib.import_module(module)
    scopes: list[Any] = []
    if owner is not None:
        scopes.append(_class_in(mod, owner))
    scopes.append(mod)
    package = module.rsplit(".", 1)[0]
    scopes.append(importlib.import_module(package))
    scopes.append(importlib.import_module("binmetrics"))
    scopes.append(builtins)
    if any(s is not None and _getattr_path(s, target) for s in scopes):
        return True
    # a sibling module of the same package (":mod:`chart_data`")
    return _resolve(f"{package}.{target}")


def _class_in(mod: Any, qualname: str) -> Any:
    obj: Any = mod
    for name in qualname.split("."):
        obj = getattr(obj, name, None)
        if obj is None:
            return None
    return obj


# --- collecting what the texts cite ----------------------------------------------------------

def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _docstrings(path: Path) -> Iterator[tuple[int, str, str | None]]:
    """(line, docstring, enclosing class) of the module, its classes and functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def walk(node: ast.AST, owner: str | None) -> Iterator[tuple[int, str, str | None]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                inner = f"{owner}.{child.name}" if owner else child.name
                doc = ast.get_docstring(child, clean=False)
                if doc:
                    yield child.body[0].lineno, doc, inner
                yield from walk(child, inner)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                doc = ast.get_docstring(child, clean=False)
                if doc:
                    yield child.body[0].lineno, doc, owner
                yield from walk(child, owner)

    doc = ast.get_docstring(tree, clean=False)
    if doc:
        yield 1, doc, None
    yield from walk(tree, None)


def _comments_and_strings(path: Path) -> Iterator[tuple[int, str]]:
    """Every comment and string literal (docstrings, messages users see); the names of
    import statements are code, which importing the package checks."""
    with io.StringIO(path.read_text(encoding="utf-8")) as fh:
        for tok in tokenize.generate_tokens(fh.readline):
            if tok.type in (tokenize.COMMENT, tokenize.STRING):
                yield tok.start[0], tok.string


@functools.cache
def _dotted_in_docs() -> list[tuple[str, str]]:
    found = []
    for path in SOURCE_FILES:
        for line, text in _comments_and_strings(path):
            found += [(f"{_rel(path)}:{line}", m.group()) for m in DOTTED.finditer(text)]
    for path in MARKDOWN_FILES:
        for line, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [(f"{_rel(path)}:{line}", m.group()) for m in DOTTED.finditer(text)]
    return found


@functools.cache
def _roles() -> list[tuple[str, str, str, str | None]]:
    found = []
    for path in SOURCE_FILES:
        module = _module_name(path)
        for line, doc, owner in _docstrings(path):
            for m in ROLE.finditer(doc):
                target = m.group(3) or m.group(2)
                found.append((f"{_rel(path)}:{line}", target, module, owner))
    return found


def test_the_collectors_see_the_references() -> None:
    # the test fails if it reads nothing: a collector that silently finds no
    # reference would pass any tree
    assert len(_dotted_in_docs()) > 100
    assert len(_roles()) > 300
    assert _resolve("binmetrics.table.counts.CountTable.from_arrays")
    assert not _resolve("binmetrics.table.counts.CountTable.no_such_name")
    assert not _resolve("binmetrics.no_such_module.thing")
    assert _resolve_in_context("CountTable.from_arrays", "binmetrics.table.counts", None)
    assert not _resolve_in_context("NoSuchClass", "binmetrics.table.counts", None)


def test_every_dotted_binmetrics_name_resolves() -> None:
    unresolved = sorted({f"{where}: {name}" for where, name in _dotted_in_docs()
                         if not _resolve(name)})
    assert not unresolved, "names that do not resolve:\n" + "\n".join(unresolved)


@pytest.mark.peer  # roles name scikit-learn's objects, which resolve only where it is
def test_every_docstring_role_resolves() -> None:
    unresolved = sorted({f"{where}: {target}" for where, target, module, owner in _roles()
                         if not _resolve_in_context(target, module, owner)})
    assert not unresolved, "roles that do not resolve:\n" + "\n".join(unresolved)


# --- files cited -----------------------------------------------------------------------------

# The project's private notes that are not shipped with the repository: a text that names
# them sends its reader to a file they do not have.
OUTSIDE = re.compile(r"(?<![\w/])(?:spec/)?(?:METHODS|DESIGN)(?:\.md)?\b(?! ?=)|\.\./shared"
                     r"|/work/|(?<![\w/])seeds/")
CITED_MD = re.compile(r"(?<![\w/.-])((?:docs|benchmarks|examples)/[\w./-]+\.md)\b")


def _all_texts() -> Iterator[tuple[Path, int, str]]:
    for path in [*SOURCE_FILES, *MARKDOWN_FILES, *OTHER_TEXT_FILES]:
        if path == Path(__file__).resolve():
            continue
        for line, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            yield path, line, text


def test_no_text_names_a_file_outside_the_repository() -> None:
    outside = [f"{_rel(p)}:{line}: {text.strip()}" for p, line, text in _all_texts()
               if _names_outside(text)]
    assert not outside, "texts naming files outside the repository:\n" + "\n".join(outside)


def _names_outside(text: str) -> bool:
    # upper-case constants such as SMOOTH_METHODS or _DESIGN are code, not citations
    return any(not _is_identifier_part(text, m) for m in OUTSIDE.finditer(text))


def _is_identifier_part(text: str, m: re.Match[str]) -> bool:
    before = text[m.start() - 1] if m.start() > 0 else " "
    after = text[m.end()] if m.end() < len(text) else " "
    return before == "_" or after == "_" or before.isalnum() or after.isalnum()


def test_every_cited_markdown_file_exists() -> None:
    missing = [f"{_rel(p)}:{line}: {m.group(1)}" for p, line, text in _all_texts()
               for m in CITED_MD.finditer(text) if not (ROOT / m.group(1)).is_file()]
    assert not missing, "cited pages that are not in the repository:\n" + "\n".join(missing)


def test_the_cited_sections_of_the_methods_page_exist() -> None:
    page = (DOCS / "methods.md").read_text(encoding="utf-8")
    sections = set(re.findall(r"^#{2,4} (\d+(?:\.\d+)*)\.? ", page, flags=re.M))
    cite = re.compile(r"docs/methods\.md,? (?:§|section |sections )(\d+(?:\.\d+)*)(?:[a-d])?")
    missing = [f"{_rel(p)}:{line}: §{m.group(1)}" for p, line, text in _all_texts()
               for m in cite.finditer(text) if m.group(1) not in sections]
    assert not missing, "sections of docs/methods.md that do not exist:\n" + "\n".join(missing)


def test_the_docs_pages_are_in_the_site_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in ("methods.md", "references.md", "architecture.md", "conventions.md"):
        assert (DOCS / page).is_file(), page
        assert re.search(rf":\s*{re.escape(page)}\s*$", nav, flags=re.M), page


# --- measure sources -------------------------------------------------------------------------

# "Author 1999", "Author & Other 1999", "Author et al. 1999", "A, B & C 1999"
AUTHOR_YEAR = re.compile(r"[A-Z][\w'-]+(?:(?:,| &| and)? [A-Z][\w'-]+)*(?: et al\.)?"
                         r" (?:1[89]|20)\d\d\b")
# the shorthands of the source papers the library is built from, as docs/references.md
# lists them
SEEDS = {"Berrar": re.compile(r"\bBerrar\b"),
         "multi-level paper": re.compile(r"\bmulti-level (?:comparison )?paper\b"),
         "Siblini et al.": re.compile(r"\bSiblini et al\."),
         "Wikipedia table": re.compile(r"\bWikipedia table\b")}
IN_REPO_PAGE = re.compile(r"\bdocs/[\w/.-]+\.md\b")


def _source_problem(source: str) -> str | None:
    if _names_outside(source):
        return "names a file outside the repository"
    for page in IN_REPO_PAGE.findall(source):
        if not (ROOT / page).is_file():
            return f"names {page}, which is not in the repository"
    if AUTHOR_YEAR.search(source) or IN_REPO_PAGE.search(source):
        return None
    if any(p.search(source) for p in SEEDS.values()):
        return None
    return "names neither a paper nor an in-repo page"


def test_the_source_rule_can_fail() -> None:
    assert _source_problem("Berrar Def. 31 (eq. 36); docs/methods.md §5.2") is None
    assert _source_problem("Jain & Nicholls 2008") is None
    assert _source_problem("García, Mollineda & Sánchez 2009; imbalanced-learn") is None
    assert _source_problem("scikit-learn top_k_accuracy_score") is not None
    assert _source_problem("multi-level paper Table 6; METHODS.md section 2") is not None
    assert _source_problem("see docs/no_such_page.md") is not None


def test_every_measure_names_a_paper_or_an_in_repo_page() -> None:
    from binmetrics.measures.registry import PRESETS, REGISTRY

    problems = [f"{mid}: {m.source!r} {why}" for mid, m in REGISTRY.items()
                if (why := _source_problem(m.source)) is not None]
    problems += [f"preset {pid}: {p.source!r} names a file outside the repository"
                 for pid, p in PRESETS.items() if _names_outside(p.source)]
    assert not problems, "\n".join(problems)


def test_every_source_paper_shorthand_is_in_the_references_page() -> None:
    from binmetrics.measures.registry import REGISTRY

    references = (DOCS / "references.md").read_text(encoding="utf-8")
    used = {name for m in REGISTRY.values() for name, p in SEEDS.items() if p.search(m.source)}
    assert used
    missing = [name for name in used if name not in references]
    assert not missing, f"source papers not listed in docs/references.md: {missing}"


@pytest.mark.parametrize("page", ["methods.md", "references.md"])
def test_the_new_pages_are_linked_from_the_conventions(page: str) -> None:
    assert f"]({page}" in (DOCS / "conventions.md").read_text(encoding="utf-8")
