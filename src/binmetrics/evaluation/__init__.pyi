"""The public names of binmetrics.evaluation (read at import: binmetrics.lazy_names)."""

from binmetrics.evaluation.api import evaluate as evaluate, score as score
from binmetrics.evaluation.binary import BestThreshold as BestThreshold, Evaluation as Evaluation
from binmetrics.evaluation.by import ByResult as ByResult, evaluate_by as evaluate_by
from binmetrics.evaluation.multiclass import (
    evaluate_multiclass as evaluate_multiclass,
    MulticlassEvaluation as MulticlassEvaluation,
)
from binmetrics.evaluation.multiclass_report import MulticlassSummary as MulticlassSummary
from binmetrics.evaluation.undersampling import (
    undersample as undersample,
    UndersampledEvaluation as UndersampledEvaluation,
)
