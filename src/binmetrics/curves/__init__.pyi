"""The public names of binmetrics.curves (read at import: binmetrics.package)."""

from binmetrics.curves.band import ROCBand as ROCBand
from binmetrics.curves.calibration import (
    BrierDecomposition as BrierDecomposition,
    CalibrationTest as CalibrationTest,
    CostCurve as CostCurve,
    DecisionCurve as DecisionCurve,
    Reliability as Reliability,
)
from binmetrics.curves.pr_points import PRBand as PRBand
from binmetrics.curves.core import (
    AccumulationCurve as AccumulationCurve,
    DETCurve as DETCurve,
    GainCurve as GainCurve,
    LiftCurve as LiftCurve,
    PRCurve as PRCurve,
    PRGCurve as PRGCurve,
    ROCCurve as ROCCurve,
    ROCHull as ROCHull,
    ThresholdCurves as ThresholdCurves,
)
from binmetrics.curves.roc_tools import ROCCoords as ROCCoords
from binmetrics.curves.smooth import SmoothROC as SmoothROC
