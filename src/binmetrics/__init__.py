"""binmetrics: every performance measure for binary classifiers, exactly as the
source papers define them, from one mergeable count table.

>>> import binmetrics as bm
>>> ev = bm.evaluate([1, 0, 1, 0], [0.9, 0.4, 0.6, 0.5])
>>> ev["auc"], ev["sensitivity"]
(1.0, 1.0)
"""

from . import plot
from .anova import AnovaResult, anova
from .by import ByResult, evaluate_by
from .counts import Confusion, CountTable
from .curves import (
    AccumulationCurve,
    GainCurve,
    LiftCurve,
    PRCurve,
    PRGCurve,
    ROCCurve,
    ROCHull,
    ThresholdCurves,
)
from .engines import Accumulator, evaluate_file, evaluate_spark
from .evaluation import BestThreshold, Evaluation, evaluate, score
from .exceptions import (
    MeasureCaveatWarning,
    UndefinedMeasureError,
    UndefinedMeasureWarning,
    undefined_policy,
)
from .intervals import Interval, auc_ci, delong_test, proportion_ci
from .measures import REGISTRY, Measure, get_measure, iter_measures, measures, triplet_loss
from .multiclass import MulticlassEvaluation, evaluate_multiclass
from .paired import (
    Comparison,
    McNemarTest,
    PairedResult,
    ProportionTest,
    compare,
    mcnemar_test,
    proportion_test,
    two_proportion_test,
)
from .refit import (
    OOBBootstrapResult,
    RefitPermutationResult,
    oob_bootstrap,
    refit_permutation_test,
)
from .report import report
from .resampling import bootstrap
from .srd import (
    COVATResult,
    SRDCrossValidation,
    SRDRandomization,
    SRDResult,
    covat,
    srd,
)
from .study import Study, StudySRD, benchmark
from .undersample import UndersampledEvaluation

__version__ = "0.1.0"

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
    "ProportionTest",
    "ROCCurve",
    "ROCHull",
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
    "proportion_ci",
    "proportion_test",
    "refit_permutation_test",
    "report",
    "score",
    "srd",
    "triplet_loss",
    "two_proportion_test",
    "undefined_policy",
]
