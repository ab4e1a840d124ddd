"""Curves of one count table: ROC (+ convex hull), PR, PR-gain, threshold curves,
gain, lift and accumulation. Every curve is read from the sorted table; no curve sorts."""

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
    "GainCurve",
    "LiftCurve",
    "PRCurve",
    "PRGCurve",
    "ROCCurve",
    "ROCHull",
    "ThresholdCurves",
]
