"""binmetrics: every performance measure for binary classifiers, exactly as the
source papers define them, from one mergeable count table.

>>> import binmetrics as bm
>>> ev = bm.evaluate([1, 0, 1, 0], [0.9, 0.4, 0.6, 0.5])
>>> ev["auc"], ev["sensitivity"]
(1.0, 1.0)
"""

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
from .evaluation import BestThreshold, Evaluation, evaluate, score
from .exceptions import (
    MeasureCaveatWarning,
    UndefinedMeasureError,
    UndefinedMeasureWarning,
    undefined_policy,
)
from .intervals import Interval, auc_ci, delong_test, proportion_ci
from .measures import REGISTRY, Measure, get_measure, iter_measures, measures, triplet_loss
from .resampling import bootstrap

__version__ = "0.1.0"

__all__ = [
    "REGISTRY",
    "AccumulationCurve",
    "BestThreshold",
    "Confusion",
    "CountTable",
    "Evaluation",
    "GainCurve",
    "Interval",
    "LiftCurve",
    "Measure",
    "MeasureCaveatWarning",
    "PRCurve",
    "PRGCurve",
    "ROCCurve",
    "ROCHull",
    "ThresholdCurves",
    "UndefinedMeasureError",
    "UndefinedMeasureWarning",
    "__version__",
    "auc_ci",
    "bootstrap",
    "delong_test",
    "evaluate",
    "get_measure",
    "iter_measures",
    "measures",
    "proportion_ci",
    "score",
    "triplet_loss",
    "undefined_policy",
]
