"""binmetrics: every performance measure for binary classifiers, exactly as the
source papers define them, from one mergeable count table.

>>> import binmetrics as bm
>>> ev = bm.evaluate([1, 0, 1, 0], [0.9, 0.4, 0.6, 0.5])
>>> ev["auc"], ev["sensitivity"]
(1.0, 1.0)
"""

from binmetrics.comparison.anova import AnovaResult, anova
from binmetrics.comparison.srd import (
    COVATResult,
    SRDCrossValidation,
    SRDRandomization,
    SRDResult,
    covat,
    srd,
)
from binmetrics.comparison.study import Study, StudySRD, benchmark
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
from binmetrics.evaluation.multiclass import MulticlassEvaluation, evaluate_multiclass
from binmetrics.evaluation.options import EvalOptions
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
    "BestThreshold",
    "ByResult",
    "COVATResult",
    "Comparison",
    "Confusion",
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
    "MulticlassEvaluation",
    "OOBBootstrapResult",
    "PRCurve",
    "PRGCurve",
    "PairedResult",
    "PowerResult",
    "ProportionTest",
    "ROCCurve",
    "ROCHull",
    "ROCTest",
    "RefitPermutationResult",
    "SRDCrossValidation",
    "SRDRandomization",
    "SRDResult",
    "Study",
    "StudySRD",
    "ThresholdCurves",
    "UndefinedMeasureError",
    "UndefinedMeasureWarning",
    "UndersampledEvaluation",
    "__version__",
    "anova",
    "auc_ci",
    "benchmark",
    "bootstrap",
    "compare",
    "covat",
    "delong_test",
    "evaluate",
    "evaluate_by",
    "evaluate_file",
    "evaluate_multiclass",
    "evaluate_spark",
    "get_measure",
    "iter_measures",
    "mcnemar_test",
    "measures",
    "oob_bootstrap",
    "plot",
    "power_roc_test",
    "proportion_ci",
    "proportion_test",
    "refit_permutation_test",
    "report",
    "roc_test",
    "score",
    "srd",
    "triplet_loss",
    "two_proportion_test",
    "undefined_policy",
]
