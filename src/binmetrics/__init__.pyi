"""The public names of binmetrics: the one list (see binmetrics.package).

Type checkers and IDEs read this stub as the package's interface; at import the package
reads it too, to load each name from its module on first use and to build ``__all__``
and ``dir(binmetrics)``. Add a public name here and nowhere else, as ``name as name``.
"""

from binmetrics.comparison.bayesian import (
    bayesian_signed_rank as bayesian_signed_rank,
    BayesianSignedRank as BayesianSignedRank,
    correlated_t_test as correlated_t_test,
    CorrelatedTTest as CorrelatedTTest,
)
from binmetrics.comparison.correlation import (
    mean_measure_correlation as mean_measure_correlation,
    MeanMeasureCorrelation as MeanMeasureCorrelation,
    measure_correlation as measure_correlation,
    MeasureCorrelation as MeasureCorrelation,
)
from binmetrics.comparison.factorial_anova import anova as anova, AnovaResult as AnovaResult
from binmetrics.comparison.multiclass_compare import (
    compare as compare,
    compare_multiclass as compare_multiclass,
)
from binmetrics.comparison.ranks import (
    FriedmanTest as FriedmanTest,
    ImanDavenportTest as ImanDavenportTest,
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
)
from binmetrics.inference.signed_rank import WilcoxonTest as WilcoxonTest
from binmetrics.curves import (
    AccumulationCurve as AccumulationCurve,
    BrierDecomposition as BrierDecomposition,
    CalibrationTest as CalibrationTest,
    CostCurve as CostCurve,
    DecisionCurve as DecisionCurve,
    DETCurve as DETCurve,
    GainCurve as GainCurve,
    LiftCurve as LiftCurve,
    PRBand as PRBand,
    PRCurve as PRCurve,
    PRGCurve as PRGCurve,
    Reliability as Reliability,
    ROCBand as ROCBand,
    ROCCoords as ROCCoords,
    ROCCurve as ROCCurve,
    ROCHull as ROCHull,
    SmoothROC as SmoothROC,
    ThresholdCurves as ThresholdCurves,
)
from binmetrics.display import plot as plot
from binmetrics.display.report import report as report
from binmetrics.engines import (
    Accumulator as Accumulator,
    evaluate_dask as evaluate_dask,
    evaluate_file as evaluate_file,
    evaluate_polars as evaluate_polars,
    evaluate_spark as evaluate_spark,
    estimate_performance as estimate_performance,
    monitor as monitor,
    MonitorResult as MonitorResult,
    PerformanceEstimate as PerformanceEstimate,
)
from binmetrics.evaluation.api import evaluate as evaluate, score as score
from binmetrics.evaluation.binary import Evaluation as Evaluation
from binmetrics.evaluation.guarantee import GuaranteedThreshold as GuaranteedThreshold
from binmetrics.evaluation.cut_choice import BestThreshold as BestThreshold
from binmetrics.evaluation.by import ByResult as ByResult, evaluate_by as evaluate_by
from binmetrics.evaluation.fairness_criteria import (
    fairness as fairness,
    FairnessResult as FairnessResult,
)
from binmetrics.evaluation.group_gaps import GapResult as GapResult
from binmetrics.evaluation.group_thresholds import GroupThresholds as GroupThresholds
from binmetrics.evaluation.counts import (
    from_counts as from_counts,
    predictive_values as predictive_values,
    PredictiveValues as PredictiveValues,
)
from binmetrics.evaluation.multiclass import (
    evaluate_multiclass as evaluate_multiclass,
    MulticlassEvaluation as MulticlassEvaluation,
)
from binmetrics.evaluation.multiclass_report import MulticlassSummary as MulticlassSummary
from binmetrics.evaluation.multilabel import (
    evaluate_multilabel as evaluate_multilabel,
    MultilabelEvaluation as MultilabelEvaluation,
)
from binmetrics.evaluation.per_case import per_case_scores as per_case_scores
from binmetrics.evaluation.row_bootstrap import MulticlassBootstrap as MulticlassBootstrap
from binmetrics.evaluation.scorer import make_scorer as make_scorer, Scorer as Scorer
from binmetrics.evaluation.summary import Summary as Summary
from binmetrics.evaluation.undersampling import UndersampledEvaluation as UndersampledEvaluation
from binmetrics.exceptions import (
    BinmetricsWarning as BinmetricsWarning,
    MeasureCaveatWarning as MeasureCaveatWarning,
    undefined_policy as undefined_policy,
    UndefinedMeasureError as UndefinedMeasureError,
    UndefinedMeasureWarning as UndefinedMeasureWarning,
)
from binmetrics.formatting import HypothesisTest as HypothesisTest
from binmetrics.inference.delong import DeLongTest as DeLongTest, delong_test as delong_test
from binmetrics.inference.intervals import (
    auc_ci as auc_ci,
    Interval as Interval,
    proportion_ci as proportion_ci,
)
from binmetrics.inference.paired import (
    Comparison as Comparison,
    PairedResult as PairedResult,
)
from binmetrics.inference.power import power_roc_test as power_roc_test, PowerResult as PowerResult
from binmetrics.inference.proportions import (
    mcnemar_test as mcnemar_test,
    McNemarTest as McNemarTest,
    proportion_test as proportion_test,
    ProportionTest as ProportionTest,
    two_proportion_test as two_proportion_test,
)
from binmetrics.inference.refit import (
    oob_bootstrap as oob_bootstrap,
    OOBBootstrapResult as OOBBootstrapResult,
    refit_permutation_test as refit_permutation_test,
    RefitPermutationResult as RefitPermutationResult,
)
from binmetrics.inference.resampling import (
    bootstrap as bootstrap,
    BootstrapInterval as BootstrapInterval,
    BootstrapResult as BootstrapResult,
    PermutationResult as PermutationResult,
)
from binmetrics.inference.roc_tests import roc_test as roc_test, ROCTest as ROCTest
from binmetrics.measures import (
    get_measure as get_measure,
    iter_measures as iter_measures,
    Measure as Measure,
    measure_catalogue as measure_catalogue,
    triplet_loss as triplet_loss,
)
from binmetrics.study import benchmark as benchmark, Study as Study, StudySRD as StudySRD
from binmetrics.table.binning import Binning as Binning
from binmetrics.table.counts import (
    Confusion as Confusion,
    CountTable as CountTable,
    PositiveGroups as PositiveGroups,
)
from binmetrics.package import __version__ as __version__
