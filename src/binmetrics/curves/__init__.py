"""Curves of one count table: ROC (+ convex hull), PR, PR-gain, threshold curves,
gain, lift and accumulation; the calibration and decision-analytic results (reliability,
calibration tests, Brier decomposition, decision and cost curves). Every curve is read
from the sorted table; no curve sorts."""

from binmetrics.curves.band import ROCBand
from binmetrics.curves.calibration import (
    BrierDecomposition,
    CalibrationTest,
    CostCurve,
    DecisionCurve,
    Reliability,
)
from binmetrics.curves.core import (
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
from binmetrics.curves.roc_tools import ROCCoords
from binmetrics.curves.smooth import SmoothROC

__all__ = [
    "AccumulationCurve",
    "BrierDecomposition",
    "CalibrationTest",
    "CostCurve",
    "DETCurve",
    "DecisionCurve",
    "GainCurve",
    "LiftCurve",
    "PRCurve",
    "PRGCurve",
    "ROCBand",
    "ROCCoords",
    "ROCCurve",
    "ROCHull",
    "Reliability",
    "SmoothROC",
    "ThresholdCurves",
]
