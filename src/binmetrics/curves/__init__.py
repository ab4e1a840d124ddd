"""Curves of one count table: ROC (+ convex hull), PR, PR-gain, threshold curves,
gain, lift and accumulation. Every curve is read from the sorted table; no curve sorts."""

from binmetrics.curves.band import ROCBand
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
    "DETCurve",
    "GainCurve",
    "LiftCurve",
    "PRCurve",
    "PRGCurve",
    "ROCBand",
    "ROCCoords",
    "ROCCurve",
    "ROCHull",
    "SmoothROC",
    "ThresholdCurves",
]
