"""binmetrics: every performance measure for binary classifiers, exactly as the
source papers define them, from one mergeable count table.

>>> import binmetrics as bm
>>> ev = bm.evaluate([1, 0, 1, 0], [0.9, 0.4, 0.6, 0.5])
>>> ev["auc"], ev["sensitivity"]
(1.0, 1.0)
"""

# Every public name is loaded on first use (module-level __getattr__, the scientific
# Python lazy-loading convention, SPEC 1): ``import binmetrics`` then costs about as
# much as ``import numpy`` (issue 18), and pandas, scipy.stats, pyarrow, rich and
# matplotlib load only with the features that use them. The imports under
# TYPE_CHECKING tell type checkers and IDEs what each name is.

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

from binmetrics.version import __version__

if TYPE_CHECKING:
    from binmetrics.comparison.anova import AnovaResult, anova
    from binmetrics.comparison.bayesian import (
        BayesianSignedRank,
        CorrelatedTTest,
        bayesian_signed_rank,
        correlated_t_test,
    )
    from binmetrics.comparison.correlation import MeasureCorrelation, measure_correlation
    from binmetrics.comparison.ranks import PosthocResult, RankComparison, rank_comparison
    from binmetrics.comparison.srd import (
        COVATResult,
        SRDCrossValidation,
        SRDRandomization,
        SRDResult,
        covat,
        srd,
    )
    from binmetrics.comparison.two_model_tests import (
        CV5x2Test,
        WilcoxonTest,
        cv_5x2_test,
        wilcoxon_test,
    )
    from binmetrics.curves import (
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
    from binmetrics.display import plot
    from binmetrics.display.report import report
    from binmetrics.engines import Accumulator, evaluate_file, evaluate_spark
    from binmetrics.evaluation.api import evaluate, score
    from binmetrics.evaluation.binary import BestThreshold, Evaluation
    from binmetrics.evaluation.by import ByResult, evaluate_by
    from binmetrics.evaluation.counts import PredictiveValues, from_counts, predictive_values
    from binmetrics.evaluation.multiclass import MulticlassEvaluation, evaluate_multiclass
    from binmetrics.evaluation.multilabel import MultilabelEvaluation, evaluate_multilabel
    from binmetrics.evaluation.options import EvalOptions
    from binmetrics.evaluation.scorer import Scorer, make_scorer
    from binmetrics.evaluation.undersample import UndersampledEvaluation
    from binmetrics.exceptions import (
        MeasureCaveatWarning,
        UndefinedMeasureError,
        UndefinedMeasureWarning,
        undefined_policy,
    )
    from binmetrics.inference.delong import delong_test
    from binmetrics.inference.intervals import Interval, auc_ci, proportion_ci
    from binmetrics.inference.paired import Comparison, PairedResult, compare
    from binmetrics.inference.power import PowerResult, power_roc_test
    from binmetrics.inference.proportions import (
        McNemarTest,
        ProportionTest,
        mcnemar_test,
        proportion_test,
        two_proportion_test,
    )
    from binmetrics.inference.refit import (
        OOBBootstrapResult,
        RefitPermutationResult,
        oob_bootstrap,
        refit_permutation_test,
    )
    from binmetrics.inference.resampling import bootstrap
    from binmetrics.inference.roc_tests import ROCTest, roc_test
    from binmetrics.measures import (
        REGISTRY,
        Measure,
        get_measure,
        iter_measures,
        measures,
        triplet_loss,
    )
    from binmetrics.study.runner import Study, StudySRD, benchmark
    from binmetrics.table.counts import Confusion, CountTable
    from binmetrics.version import __version__

#: public name -> the module that defines it
_LAZY: dict[str, str] = {
    "AccumulationCurve": "binmetrics.curves",
    "Accumulator": "binmetrics.engines",
    "anova": "binmetrics.comparison.anova",
    "AnovaResult": "binmetrics.comparison.anova",
    "auc_ci": "binmetrics.inference.intervals",
    "bayesian_signed_rank": "binmetrics.comparison.bayesian",
    "BayesianSignedRank": "binmetrics.comparison.bayesian",
    "benchmark": "binmetrics.study",
    "BestThreshold": "binmetrics.evaluation.binary",
    "bootstrap": "binmetrics.inference.resampling",
    "ByResult": "binmetrics.evaluation.by",
    "compare": "binmetrics.inference.paired",
    "Comparison": "binmetrics.inference.paired",
    "Confusion": "binmetrics.table.counts",
    "correlated_t_test": "binmetrics.comparison.bayesian",
    "CorrelatedTTest": "binmetrics.comparison.bayesian",
    "CountTable": "binmetrics.table.counts",
    "covat": "binmetrics.comparison.srd",
    "COVATResult": "binmetrics.comparison.srd",
    "CV5x2Test": "binmetrics.comparison.two_model_tests",
    "cv_5x2_test": "binmetrics.comparison.two_model_tests",
    "delong_test": "binmetrics.inference.delong",
    "DETCurve": "binmetrics.curves",
    "EvalOptions": "binmetrics.evaluation.options",
    "evaluate": "binmetrics.evaluation.api",
    "evaluate_by": "binmetrics.evaluation.by",
    "evaluate_file": "binmetrics.engines",
    "evaluate_multiclass": "binmetrics.evaluation.multiclass",
    "evaluate_multilabel": "binmetrics.evaluation.multilabel",
    "evaluate_spark": "binmetrics.engines",
    "Evaluation": "binmetrics.evaluation.binary",
    "from_counts": "binmetrics.evaluation.counts",
    "GainCurve": "binmetrics.curves",
    "get_measure": "binmetrics.measures",
    "Interval": "binmetrics.inference.intervals",
    "iter_measures": "binmetrics.measures",
    "LiftCurve": "binmetrics.curves",
    "make_scorer": "binmetrics.evaluation.scorer",
    "mcnemar_test": "binmetrics.inference.proportions",
    "McNemarTest": "binmetrics.inference.proportions",
    "Measure": "binmetrics.measures",
    "measure_correlation": "binmetrics.comparison.correlation",
    "MeasureCaveatWarning": "binmetrics.exceptions",
    "MeasureCorrelation": "binmetrics.comparison.correlation",
    "measures": "binmetrics.measures",
    "MulticlassEvaluation": "binmetrics.evaluation.multiclass",
    "MultilabelEvaluation": "binmetrics.evaluation.multilabel",
    "oob_bootstrap": "binmetrics.inference.refit",
    "OOBBootstrapResult": "binmetrics.inference.refit",
    "PairedResult": "binmetrics.inference.paired",
    "plot": "binmetrics.display",
    "PosthocResult": "binmetrics.comparison.ranks",
    "power_roc_test": "binmetrics.inference.power",
    "PowerResult": "binmetrics.inference.power",
    "PRCurve": "binmetrics.curves",
    "predictive_values": "binmetrics.evaluation.counts",
    "PredictiveValues": "binmetrics.evaluation.counts",
    "PRGCurve": "binmetrics.curves",
    "proportion_ci": "binmetrics.inference.intervals",
    "proportion_test": "binmetrics.inference.proportions",
    "ProportionTest": "binmetrics.inference.proportions",
    "rank_comparison": "binmetrics.comparison.ranks",
    "RankComparison": "binmetrics.comparison.ranks",
    "refit_permutation_test": "binmetrics.inference.refit",
    "RefitPermutationResult": "binmetrics.inference.refit",
    "REGISTRY": "binmetrics.measures",
    "report": "binmetrics.display.report",
    "roc_test": "binmetrics.inference.roc_tests",
    "ROCCurve": "binmetrics.curves",
    "ROCHull": "binmetrics.curves",
    "ROCTest": "binmetrics.inference.roc_tests",
    "score": "binmetrics.evaluation.api",
    "Scorer": "binmetrics.evaluation.scorer",
    "srd": "binmetrics.comparison.srd",
    "SRDCrossValidation": "binmetrics.comparison.srd",
    "SRDRandomization": "binmetrics.comparison.srd",
    "SRDResult": "binmetrics.comparison.srd",
    "Study": "binmetrics.study",
    "StudySRD": "binmetrics.study",
    "ThresholdCurves": "binmetrics.curves",
    "triplet_loss": "binmetrics.measures",
    "two_proportion_test": "binmetrics.inference.proportions",
    "undefined_policy": "binmetrics.exceptions",
    "UndefinedMeasureError": "binmetrics.exceptions",
    "UndefinedMeasureWarning": "binmetrics.exceptions",
    "UndersampledEvaluation": "binmetrics.evaluation.undersample",
    "wilcoxon_test": "binmetrics.comparison.two_model_tests",
    "WilcoxonTest": "binmetrics.comparison.two_model_tests",
}

__all__ = [
    "REGISTRY",
    "AccumulationCurve",
    "Accumulator",
    "AnovaResult",
    "BayesianSignedRank",
    "BestThreshold",
    "ByResult",
    "COVATResult",
    "CV5x2Test",
    "Comparison",
    "Confusion",
    "CorrelatedTTest",
    "CountTable",
    "DETCurve",
    "EvalOptions",
    "Evaluation",
    "GainCurve",
    "Interval",
    "LiftCurve",
    "McNemarTest",
    "Measure",
    "MeasureCaveatWarning",
    "MeasureCorrelation",
    "MulticlassEvaluation",
    "MultilabelEvaluation",
    "OOBBootstrapResult",
    "PRCurve",
    "PRGCurve",
    "PairedResult",
    "PosthocResult",
    "PowerResult",
    "PredictiveValues",
    "ProportionTest",
    "ROCCurve",
    "ROCHull",
    "ROCTest",
    "RankComparison",
    "RefitPermutationResult",
    "SRDCrossValidation",
    "SRDRandomization",
    "SRDResult",
    "Scorer",
    "Study",
    "StudySRD",
    "ThresholdCurves",
    "UndefinedMeasureError",
    "UndefinedMeasureWarning",
    "UndersampledEvaluation",
    "WilcoxonTest",
    "__version__",
    "anova",
    "auc_ci",
    "bayesian_signed_rank",
    "benchmark",
    "bootstrap",
    "compare",
    "correlated_t_test",
    "covat",
    "cv_5x2_test",
    "delong_test",
    "evaluate",
    "evaluate_by",
    "evaluate_file",
    "evaluate_multiclass",
    "evaluate_multilabel",
    "evaluate_spark",
    "from_counts",
    "get_measure",
    "iter_measures",
    "make_scorer",
    "mcnemar_test",
    "measure_correlation",
    "measures",
    "oob_bootstrap",
    "plot",
    "power_roc_test",
    "predictive_values",
    "proportion_ci",
    "proportion_test",
    "rank_comparison",
    "refit_permutation_test",
    "report",
    "roc_test",
    "score",
    "srd",
    "triplet_loss",
    "two_proportion_test",
    "undefined_policy",
    "wilcoxon_test",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'binmetrics' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """The package module. ``binmetrics.measures`` is the function
    :func:`~binmetrics.measures.measures`, which shares its name with the subpackage;
    importing the subpackage must not replace the function (the import system sets
    the attribute on the parent package)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "measures" and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
