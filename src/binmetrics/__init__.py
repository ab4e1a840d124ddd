"""binmetrics: every performance measure for binary classifiers, exactly as the
source papers define them, from one mergeable count table.

>>> import binmetrics as bm
>>> ev = bm.evaluate([1, 0, 1, 0], [0.9, 0.4, 0.6, 0.5])
>>> ev["auc"], ev["sensitivity"]
(1.0, 1.0)
"""

from binmetrics.comparison.anova import AnovaResult, anova
from binmetrics.comparison.bayesian import (
    BayesianSignedRank,
    CorrelatedTTest,
    bayesian_signed_rank,
    correlated_t_test,
)
from binmetrics.comparison.correlation import MeasureCorrelation, measure_correlation
from binmetrics.comparison.ranks import PosthocResult, RankComparison, rank_comparison
from binmetrics.comparison.srd import (
    COVATResult,
    SRDCrossValidation,
    SRDRandomization,
    SRDResult,
    covat,
    srd,
)
from binmetrics.comparison.study import Study, StudySRD, benchmark
from binmetrics.comparison.two_model_tests import (
    CV5x2Test,
    WilcoxonTest,
    cv_5x2_test,
    wilcoxon_test,
)
from binmetrics.curves import (
    AccumulationCurve,
    DETCurve,
    GainCurve,
    LiftCurve,
    PRCurve,
    PRGCurve,
    ROCCurve,
    ROCHull,
    ThresholdCurves,
)
from binmetrics.display import plot
from binmetrics.display.report import report
from binmetrics.engines import Accumulator, evaluate_file, evaluate_spark
from binmetrics.evaluation.api import evaluate, score
from binmetrics.evaluation.binary import BestThreshold, Evaluation
from binmetrics.evaluation.by import ByResult, evaluate_by
from binmetrics.evaluation.counts import PredictiveValues, from_counts, predictive_values
from binmetrics.evaluation.multiclass import MulticlassEvaluation, evaluate_multiclass
from binmetrics.evaluation.multilabel import MultilabelEvaluation, evaluate_multilabel
from binmetrics.evaluation.options import EvalOptions
from binmetrics.evaluation.scorer import Scorer, make_scorer
from binmetrics.evaluation.undersample import UndersampledEvaluation
from binmetrics.exceptions import (
    MeasureCaveatWarning,
    UndefinedMeasureError,
    UndefinedMeasureWarning,
    undefined_policy,
)
from binmetrics.inference.delong import delong_test
from binmetrics.inference.intervals import Interval, auc_ci, proportion_ci
from binmetrics.inference.paired import Comparison, PairedResult, compare
from binmetrics.inference.power import PowerResult, power_roc_test
from binmetrics.inference.proportions import (
    McNemarTest,
    ProportionTest,
    mcnemar_test,
    proportion_test,
    two_proportion_test,
)
from binmetrics.inference.refit import (
    OOBBootstrapResult,
    RefitPermutationResult,
    oob_bootstrap,
    refit_permutation_test,
)
from binmetrics.inference.resampling import bootstrap
from binmetrics.inference.roc_tests import ROCTest, roc_test
from binmetrics.measures import (
    REGISTRY,
    Measure,
    get_measure,
    iter_measures,
    measures,
    triplet_loss,
)
from binmetrics.table.counts import Confusion, CountTable
from binmetrics.version import __version__

__all__ = [
    "REGISTRY",
    "AccumulationCurve",
    "Accumulator",
    "AnovaResult",
    "BayesianSignedRank",
    "BestThreshold",
    "ByResult",
    "COVATResult",
    "CV5x2Test",
    "Comparison",
    "Confusion",
    "CorrelatedTTest",
    "CountTable",
    "DETCurve",
    "EvalOptions",
    "Evaluation",
    "GainCurve",
    "Interval",
    "LiftCurve",
    "McNemarTest",
    "Measure",
    "MeasureCaveatWarning",
    "MeasureCorrelation",
    "MulticlassEvaluation",
    "MultilabelEvaluation",
    "OOBBootstrapResult",
    "PRCurve",
    "PRGCurve",
    "PairedResult",
    "PosthocResult",
    "PowerResult",
    "PredictiveValues",
    "ProportionTest",
    "ROCCurve",
    "ROCHull",
    "ROCTest",
    "RankComparison",
    "RefitPermutationResult",
    "SRDCrossValidation",
    "SRDRandomization",
    "SRDResult",
    "Scorer",
    "Study",
    "StudySRD",
    "ThresholdCurves",
    "UndefinedMeasureError",
    "UndefinedMeasureWarning",
    "UndersampledEvaluation",
    "WilcoxonTest",
    "__version__",
    "anova",
    "auc_ci",
    "bayesian_signed_rank",
    "benchmark",
    "bootstrap",
    "compare",
    "correlated_t_test",
    "covat",
    "cv_5x2_test",
    "delong_test",
    "evaluate",
    "evaluate_by",
    "evaluate_file",
    "evaluate_multiclass",
    "evaluate_multilabel",
    "evaluate_spark",
    "from_counts",
    "get_measure",
    "iter_measures",
    "make_scorer",
    "mcnemar_test",
    "measure_correlation",
    "measures",
    "oob_bootstrap",
    "plot",
    "power_roc_test",
    "predictive_values",
    "proportion_ci",
    "proportion_test",
    "rank_comparison",
    "refit_permutation_test",
    "report",
    "roc_test",
    "score",
    "srd",
    "triplet_loss",
    "two_proportion_test",
    "undefined_policy",
    "wilcoxon_test",
]
