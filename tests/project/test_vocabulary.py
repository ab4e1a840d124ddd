"""The API speaks one vocabulary (docs/api-conventions.md).

Every argument of every public callable, and every field of every exported result,
is a name the conventions page defines, a registered measure id, or private. The
synonyms the library used before (``p_value``, ``n_permutations``, ``sig_level``...)
are named in the page's table of retired names, and the test says which name
replaces one that comes back. Every hypothesis-test result carries the protocol's
fields, and the shared arguments have the same defaults everywhere.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import binmetrics as bm
from binmetrics.formatting import HypothesisTest, Tabular

PAGE = Path(__file__).resolve().parents[2] / "docs" / "api-conventions.md"
_ROW = re.compile(r"^\|\s*((?:`[^`]+`(?:,\s*)?)+)\s*\|", re.M)


def _page_tables() -> tuple[set[str], dict[str, str]]:
    """(the names the page defines, retired name -> its replacement)."""
    text = PAGE.read_text()
    retired_at = text.index("## Retired names")
    defined: set[str] = set()
    for m in _ROW.finditer(text[:retired_at]):
        defined.update(re.findall(r"`([^`]+)`", m.group(1)))
    retired: dict[str, str] = {}
    for line in text[retired_at:].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].startswith("`"):
            new = re.findall(r"`([^`]+)`", cells[1])
            for old in re.findall(r"`([^`]+)`", cells[0]):
                retired[old] = new[0] if new else cells[1]
    return defined, retired


DEFINED, RETIRED = _page_tables()
MEASURE_NAMES = {m.id for m in bm.iter_measures()} | {
    a for m in bm.iter_measures() for a in m.aliases}


#: the subpackages whose own public names are API too (``bm.inference.delong_contrast``)
SUBPACKAGES = ("inference", "comparison", "curves", "evaluation", "study", "measures",
               "engines", "display", "table")


def _public_objects() -> Iterator[tuple[str, Any]]:
    """(name, object) of the root's public names and of each subpackage's."""
    import importlib

    for name in bm.__all__:
        yield name, getattr(bm, name)
    for sub in SUBPACKAGES:
        module = importlib.import_module(f"binmetrics.{sub}")
        for name in getattr(module, "__all__", ()):
            yield f"{sub}.{name}", getattr(module, name)


def _public_classes() -> Iterator[type]:
    seen: set[type] = set()
    for _, obj in _public_objects():
        if not inspect.isclass(obj):
            continue
        for cls in obj.__mro__:
            if cls.__module__.startswith("binmetrics") and cls not in seen:
                seen.add(cls)
                yield cls


def _parameters(where: str, func: Callable[..., Any]) -> Iterator[tuple[str, str, Any]]:
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return
    for p in sig.parameters.values():
        if p.name in ("self", "cls") or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        yield where, p.name, p


def _api_parameters() -> Iterator[tuple[str, str, Any]]:
    """(where, name, inspect.Parameter) of every public function and method."""
    for name, obj in _public_objects():
        if callable(obj) and not inspect.isclass(obj):
            yield from _parameters(name, obj)
    for cls in _public_classes():
        for attr, value in vars(cls).items():
            if attr == "__init__":
                # a result is built by the function that returns it: its fields are
                # checked below; a class users construct is checked by its __init__
                if issubclass(cls, Tabular) or dataclasses.is_dataclass(cls):
                    continue
            elif attr.startswith("_"):
                continue
            func = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
            if inspect.isfunction(func):
                yield from _parameters(f"{cls.__name__}.{attr}", func)


def _api_fields() -> Iterator[tuple[str, str]]:
    """(class, name) of every field and property of the exported classes."""
    for cls in _public_classes():
        if dataclasses.is_dataclass(cls):
            for f in dataclasses.fields(cls):
                yield cls.__name__, f.name
        for attr, value in vars(cls).items():
            if isinstance(value, property) and not attr.startswith("_"):
                yield cls.__name__, attr


def _allowed(name: str) -> bool:
    return name.startswith("_") or name in DEFINED or name in MEASURE_NAMES


def test_the_page_defines_the_protocol_and_retires_the_old_names() -> None:
    for name in ("statistic", "pvalue", "alternative", "method", "estimate", "ci", "low",
                 "high", "level", "n_resamples", "alpha", "nan_policy", "random_state",
                 "sample_weight"):
        assert name in DEFINED, name
    for old in ("p_value", "n_permutations", "n_perm", "n_sim", "n_boot", "nsamples",
                "n_repeats", "sig_level", "missing", "observed", "apparent",
                "median_difference", "estimate_a"):
        assert old in RETIRED and old not in DEFINED, old


def test_every_argument_is_in_the_vocabulary() -> None:
    wrong = sorted({f"{where}({name}=): use {RETIRED[name]!r}" if name in RETIRED
                    else f"{where}({name}=)"
                    for where, name, _ in _api_parameters() if not _allowed(name)})
    assert not wrong, ("arguments outside docs/api-conventions.md (define them there, or "
                       "use the name it gives):\n  " + "\n  ".join(wrong))


#: fields of result classes exported since every returned type is exported (issue 26,
#: requirement 2) whose name is still to be chosen; remove an entry when it is renamed
PENDING: set[tuple[str, str]] = set()  # (class, field) on its way to a defined name


def test_every_result_field_is_in_the_vocabulary() -> None:
    wrong = sorted({f"{cls}.{name}: use {RETIRED[name]!r}" if name in RETIRED
                    else f"{cls}.{name}" for cls, name in _api_fields()
                    if not _allowed(name) and (cls, name) not in PENDING})
    assert PENDING <= set(_api_fields()), "a pending name is gone: drop it from PENDING"
    assert not wrong, ("result fields outside docs/api-conventions.md:\n  "
                       + "\n  ".join(wrong))


def test_the_walk_sees_the_api() -> None:
    # the two walks above must reach far enough to be worth passing
    params = {name for _, name, _ in _api_parameters()}
    fields = {name for _, name in _api_fields()}
    assert {"n_resamples", "alternative", "nan_policy", "sample_weight", "level"} <= params
    assert {"pvalue", "statistic", "estimate", "value_a"} <= fields
    assert len(params) > 150 and len(fields) > 80


#: the defaults that differ on purpose, as docs/api-conventions.md says
OWN_DEFAULTS = {
    # a scorer looks the positive class up in estimator.classes_, as scikit-learn's do
    ("make_scorer", "pos_label"),
    # a benchmark study is reproducible as written
    ("benchmark", "random_state"), ("study.benchmark", "random_state"),
    ("Study.srd_measures", "random_state"),
    ("Study.srd_models", "random_state"),
}


@pytest.mark.parametrize("name, default", [
    ("alternative", "two-sided"), ("nan_policy", "raise"), ("level", 0.95),
    ("random_state", None), ("sample_weight", None), ("pos_label", None),
])
def test_shared_arguments_have_one_default(name: str, default: Any) -> None:
    wrong = sorted({f"{where}: {p.default!r}" for where, n, p in _api_parameters()
                    if n == name and p.default is not inspect.Parameter.empty
                    and p.default != default and (where, name) not in OWN_DEFAULTS
                    and not where.endswith("__init__")})  # a result's own constructor
    assert not wrong, f"{name} defaults to {default!r} everywhere else:\n  " + "\n  ".join(wrong)


# --- the hypothesis-test protocol ----------------------------------------------------------
Y = [1, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0]
A = [.9, .8, .7, .6, .4, .3, .85, .2, .55, .45, .65, .1]
B = [.7, .9, .4, .5, .5, .35, .6, .3, .5, .6, .75, .2]
TABLE = [[0.81, 0.79, 0.80], [0.72, 0.70, 0.74], [0.66, 0.69, 0.61], [0.90, 0.85, 0.88],
         [0.77, 0.78, 0.70], [0.59, 0.60, 0.55]]


def _examples() -> dict[str, Callable[[], Any]]:
    """One instance of every hypothesis-test result, from the function that returns it."""
    import pandas as pd

    ev = bm.evaluate(Y, A)
    ranks = bm.rank_comparison(pd.DataFrame(TABLE, columns=["p", "q", "r"]))
    return {
        "DeLongTest": lambda: bm.delong_test(Y, A, B),
        "DeLongContrast": lambda: bm.inference.delong.delong_contrast(Y, [A, B, A[::-1]]),
        "PairedResult": lambda: bm.compare(Y, {"a": A, "b": B}, measures=["auc"]).results[0],
        "PermutationResult": lambda: ev.permutation_test("auc", n_resamples=99,
                                                         random_state=0),
        "ROCTest": lambda: bm.roc_test(Y, A, B),
        "McNemarTest": lambda: bm.mcnemar_test(Y, A, B),
        "ProportionTest": lambda: bm.proportion_test(ev, p0=0.5),
        "WilcoxonTest": lambda: bm.wilcoxon_test([.8, .7, .9, .6, .75], [.7, .72, .8, .5, .7]),
        "CorrelatedTTest": lambda: bm.correlated_t_test([.8, .7, .9, .6, .75],
                                                        [.7, .72, .8, .5, .7],
                                                        test_fraction=0.2),
        "FriedmanTest": lambda: ranks.friedman,
        "ImanDavenportTest": lambda: ranks.iman_davenport,
        "CalibrationTest": lambda: ev.calibration_test("spiegelhalter"),
        "GapResult": lambda: bm.evaluate_by(
            pd.DataFrame({"g": [0, 1] * 6, "y": Y, "p": A}), label="y", score="p", by="g",
            measures=["tpr"]).difference("tpr", ci=True, n_resamples=50, random_state=0),
    }


def _subclasses(cls: type) -> set[type]:
    out = set()
    for sub in cls.__subclasses__():
        out |= {sub} | _subclasses(sub)
    return out


def test_every_hypothesis_test_result_has_an_example_here() -> None:
    # a new test result must join the protocol check below
    names = {c.__name__ for c in _subclasses(HypothesisTest)}
    names -= {"RefitPermutationResult", "CV5x2Test"}  # they need scikit-learn models
    assert names == set(_examples())


@pytest.mark.parametrize("name", sorted(_examples()))
def test_hypothesis_test_protocol(name: str) -> None:
    res = _examples()[name]()
    assert type(res).__name__ == name and isinstance(res, HypothesisTest)
    assert isinstance(res.statistic, float) and isinstance(res.pvalue, float)
    assert res.alternative in ("two-sided", "greater", "less")
    assert isinstance(res.method, str) and res.method
    if hasattr(res, "ci"):
        assert {"low", "high", "level"} <= set(dir(res.ci))
    frame = res.to_frame()
    assert {"statistic", "pvalue", "alternative", "method"} <= set(frame.columns), name
    assert repr(res).strip() and "<table" in res._repr_html_()


@pytest.mark.parametrize("name", sorted(_examples()))
def test_a_test_results_attributes_and_columns_are_in_the_vocabulary(name: str) -> None:
    # what a dataclass walk cannot see: attributes set in __init__, and the frame's columns
    res = _examples()[name]()
    names = {n for n in vars(res) if not n.startswith("_")} | set(res.to_frame().columns)
    names = {n.split("_", 1)[0] if re.fullmatch(r"[a-z_]+_\d+", n) else n for n in names}
    wrong = sorted(n for n in names if isinstance(n, str) and not _allowed(n)
                   and not n.startswith("P("))  # a Bayesian result's P(A better) columns
    assert not wrong, f"{name}: " + ", ".join(
        f"{n} (use {RETIRED[n]!r})" if n in RETIRED else n for n in wrong)
