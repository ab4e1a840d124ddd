"""Evaluations: every measure of one classifier from its count table.

* :func:`evaluate` / :class:`Evaluation`: a binary classifier (``binary``).
* :func:`evaluate_multiclass` / :class:`MulticlassEvaluation` (``multiclass``).
* :func:`evaluate_by` / :class:`ByResult`: one evaluation per group (``by``).
* :class:`UndersampledEvaluation`: Siblini et al.'s undersampling heuristic.
* ``bounds``: what binned scores can have changed in each measure.
"""

from binmetrics.evaluation.api import evaluate, score
from binmetrics.evaluation.binary import BestThreshold, Evaluation
from binmetrics.evaluation.by import ByResult, evaluate_by
from binmetrics.evaluation.multiclass import MulticlassEvaluation, evaluate_multiclass
from binmetrics.evaluation.options import EvalOptions
from binmetrics.evaluation.undersample import UndersampledEvaluation, undersample

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
