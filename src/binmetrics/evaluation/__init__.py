"""Evaluations: every measure of one classifier from its count table.

* :func:`evaluate` / :class:`Evaluation`: a binary classifier (``binary``).
* :func:`evaluate_multiclass` / :class:`MulticlassEvaluation` (``multiclass``).
* :func:`evaluate_by` / :class:`ByResult`: one evaluation per group (``by``).
* :class:`UndersampledEvaluation`: Siblini et al.'s undersampling heuristic.
* ``bounds``: what binned scores can have changed in each measure.

The names load their module on first use (as the package's top level does): a binary
evaluation then imports neither pandas nor scipy.stats, which the per-group, multiclass
and inference parts need, and which take a second or more to import.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from binmetrics.evaluation.api import evaluate, score
    from binmetrics.evaluation.binary import BestThreshold, Evaluation
    from binmetrics.evaluation.by import ByResult, evaluate_by
    from binmetrics.evaluation.multiclass import MulticlassEvaluation, evaluate_multiclass
    from binmetrics.evaluation.options import EvalOptions
    from binmetrics.evaluation.undersample import UndersampledEvaluation, undersample

_LAZY = {
    "BestThreshold": "binary",
    "ByResult": "by",
    "EvalOptions": "options",
    "Evaluation": "binary",
    "MulticlassEvaluation": "multiclass",
    "UndersampledEvaluation": "undersample",
    "evaluate": "api",
    "evaluate_by": "by",
    "evaluate_multiclass": "multiclass",
    "score": "api",
    "undersample": "undersample",
}

__all__ = [
    "BestThreshold",
    "ByResult",
    "EvalOptions",
    "Evaluation",
    "MulticlassEvaluation",
    "UndersampledEvaluation",
    "evaluate",
    "evaluate_by",
    "evaluate_multiclass",
    "score",
    "undersample",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
