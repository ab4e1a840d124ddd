"""Comparing measures and models: SRD (+ randomization, cross-validation, COVAT),
factorial ANOVA of SRD%, and the benchmark study (the multi-level comparison paper)."""

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

__all__ = [
    "AnovaResult",
    "COVATResult",
    "SRDCrossValidation",
    "SRDRandomization",
    "SRDResult",
    "Study",
    "StudySRD",
    "anova",
    "benchmark",
    "covat",
    "srd",
]
