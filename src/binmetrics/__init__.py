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
from .measures import REGISTRY, Measure, get_measure, iter_measures, measures, triplet_loss

__version__ = "0.1.0"

__all__ = [
    "REGISTRY",
    "AccumulationCurve",
    "BestThreshold",
    "Confusion",
    "CountTable",
    "Evaluation",
    "GainCurve",
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
    "evaluate",
    "get_measure",
    "iter_measures",
    "measures",
    "score",
    "triplet_loss",
    "undefined_policy",
]
