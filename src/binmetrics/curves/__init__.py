"""Curves of one count table: ROC (+ convex hull), PR, PR-gain, threshold curves,
gain, lift and accumulation; the calibration and decision-analytic results (reliability,
calibration tests, Brier decomposition, decision and cost curves). Every curve is read
from the sorted table; no curve sorts."""

from binmetrics.curves.calibration import (
    BrierDecomposition,
    CalibrationTest,
    CostCurve,
    DecisionCurve,
    Reliability,
)
from binmetrics.curves.core import (
    AccumulationCurve,
    GainCurve,
    LiftCurve,
    PRCurve,
    PRGCurve,
    ROCCurve,
    ROCHull,
    ThresholdCurves,
)

__all__ = [
    "AccumulationCurve",
    "BrierDecomposition",
    "CalibrationTest",
    "CostCurve",
    "DecisionCurve",
    "GainCurve",
    "LiftCurve",
    "PRCurve",
    "PRGCurve",
    "ROCCurve",
    "ROCHull",
    "Reliability",
    "ThresholdCurves",
]
