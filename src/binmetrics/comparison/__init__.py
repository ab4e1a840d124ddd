"""Comparing measures and models: SRD (+ randomization, cross-validation, COVAT),
factorial ANOVA of SRD%, rank comparisons over data sets, Bayesian and two-model tests.
The benchmark study that runs them (the multi-level comparison paper) is
:mod:`binmetrics.study`, a layer above.

Modules: :mod:`~binmetrics.comparison.srd_ranking` (the SRD and :class:`SRDResult`),
:mod:`~binmetrics.comparison.srd_randomization` (its randomization test),
:mod:`~binmetrics.comparison.srd_crossvalidation` (its cross-validation, Wilcoxon and
sign tests), :mod:`~binmetrics.comparison.srd_covat` (SRD-COVAT),
:mod:`~binmetrics.comparison.factorial_anova` (the factorial ANOVA),
:mod:`~binmetrics.comparison.ranks` (Friedman, post-hoc tests, critical differences);
the modules whose names start with an underscore are their private helpers.
"""

from binmetrics.comparison.bayesian import (
    BayesianSignedRank,
    CorrelatedTTest,
    bayesian_signed_rank,
    correlated_t_test,
)
from binmetrics.comparison.factorial_anova import AnovaResult, anova
from binmetrics.comparison.ranks import PosthocResult, RankComparison, rank_comparison
from binmetrics.comparison.srd_covat import COVATResult, covat
from binmetrics.comparison.srd_crossvalidation import SRDCrossValidation
from binmetrics.comparison.srd_randomization import SRDRandomization
from binmetrics.comparison.srd_ranking import SRDResult, srd
from binmetrics.comparison.two_model_tests import (
    CV5x2Test,
    WilcoxonTest,
    cv_5x2_test,
    wilcoxon_test,
)

__all__ = [
    "AnovaResult",
    "BayesianSignedRank",
    "COVATResult",
    "CV5x2Test",
    "CorrelatedTTest",
    "PosthocResult",
    "RankComparison",
    "SRDCrossValidation",
    "SRDRandomization",
    "SRDResult",
    "WilcoxonTest",
    "anova",
    "bayesian_signed_rank",
    "correlated_t_test",
    "covat",
    "cv_5x2_test",
    "rank_comparison",
    "srd",
    "wilcoxon_test",
]
