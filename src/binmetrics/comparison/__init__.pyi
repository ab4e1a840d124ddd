"""The public names of binmetrics.comparison (read at import: binmetrics.package)."""

from binmetrics.comparison.bayesian import (
    bayesian_signed_rank as bayesian_signed_rank,
    BayesianSignedRank as BayesianSignedRank,
    correlated_t_test as correlated_t_test,
    CorrelatedTTest as CorrelatedTTest,
)
from binmetrics.comparison.factorial_anova import anova as anova, AnovaResult as AnovaResult
from binmetrics.comparison.multiclass_compare import compare_multiclass as compare_multiclass
from binmetrics.comparison.ranks import (
    PosthocResult as PosthocResult,
    rank_comparison as rank_comparison,
    RankComparison as RankComparison,
)
from binmetrics.comparison.srd_covat import covat as covat, COVATResult as COVATResult
from binmetrics.comparison.srd_crossvalidation import SRDCrossValidation as SRDCrossValidation
from binmetrics.comparison.srd_randomization import SRDRandomization as SRDRandomization
from binmetrics.comparison.srd_ranking import srd as srd, SRDResult as SRDResult
from binmetrics.comparison.two_model_tests import (
    CV5x2Test as CV5x2Test,
    cv_5x2_test as cv_5x2_test,
    wilcoxon_test as wilcoxon_test,
    WilcoxonTest as WilcoxonTest,
)
