"""The public names of binmetrics.evaluation (read at import: binmetrics.package)."""

from binmetrics.evaluation.api import evaluate as evaluate, score as score
from binmetrics.evaluation.binary import Evaluation as Evaluation
from binmetrics.evaluation.guarantee import GuaranteedThreshold as GuaranteedThreshold
from binmetrics.evaluation.cut_choice import BestThreshold as BestThreshold
from binmetrics.evaluation.by import ByResult as ByResult, evaluate_by as evaluate_by
from binmetrics.evaluation.fairness_criteria import (
    fairness as fairness,
    FairnessResult as FairnessResult,
)
from binmetrics.evaluation.group_gaps import GapResult as GapResult
from binmetrics.evaluation.group_thresholds import GroupThresholds as GroupThresholds
from binmetrics.evaluation.multiclass import (
    evaluate_multiclass as evaluate_multiclass,
    MulticlassEvaluation as MulticlassEvaluation,
)
from binmetrics.evaluation.multiclass_report import MulticlassSummary as MulticlassSummary
from binmetrics.evaluation.per_case import per_case_scores as per_case_scores
from binmetrics.evaluation.row_bootstrap import MulticlassBootstrap as MulticlassBootstrap
from binmetrics.evaluation.undersampling import (
    undersample as undersample,
    UndersampledEvaluation as UndersampledEvaluation,
)
