"""Uncertainty and significance: intervals, DeLong, resampling, paired tests, refits.

The building blocks take a :class:`~binmetrics.table.CountTable` (or anything that has
one, :class:`~binmetrics.table.HasTable`), never an evaluation object, so this layer
sits below :mod:`binmetrics.evaluation`.

* :mod:`~binmetrics.inference.intervals`: binomial intervals, DeLong's interval of one
  AUC, and :func:`measure_ci` for any registered measure.
* :mod:`~binmetrics.inference.delong`: DeLong's tests of two or more AUCs (pROC's
  method).
* :mod:`~binmetrics.inference.resampling`: bootstrap and permutation replicates of the
  count table (no re-sort); the samplers are in
  :mod:`~binmetrics.inference._replicates`.
* :mod:`~binmetrics.inference.paired`: paired comparisons of models on the same cases.
* :mod:`~binmetrics.inference.power`: power and sample size of ROC studies
  (Obuchowski; pROC's ``power.roc.test``).
* :mod:`~binmetrics.inference.roc_tests`: pROC's ``roc.test`` (DeLong, bootstrap,
  sensitivity at a fixed specificity and the reverse).
* :mod:`~binmetrics.inference.proportions`: McNemar's test and the proportion z-tests.
* :mod:`~binmetrics.inference.refit`: Berrar's procedures that refit an estimator.
* :mod:`~binmetrics.inference.signed_rank`: the Wilcoxon signed-rank test (exact with
  ties and zeros), shared by ``wilcoxon_test``, the Wilcoxon-Holm post-hoc test and SRD.
"""

from binmetrics.inference.delong import (
    DeLongContrast,
    DeLongTest,
    delong_contrast,
    delong_placements,
    delong_test,
    delong_test_unpaired,
)
from binmetrics.inference.intervals import (
    PROPORTION_METHODS,
    Interval,
    Placements,
    auc_ci,
    auc_variance,
    ci_methods,
    measure_ci,
    proportion_ci,
    table_placements,
)
from binmetrics.inference.paired import (
    Comparison,
    PairedResult,
    compare,
    compare_methods,
    paired_bootstrap_indices,
)
from binmetrics.inference.power import PowerResult, obuchowski_variance, power_roc_test
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
from binmetrics.inference.resampling import (
    BootstrapInterval,
    BootstrapResult,
    PermutationResult,
    ResamplingWarning,
    bootstrap,
    bootstrap_tables,
    permutation_pvalue,
    permutation_tables,
    permutation_test,
)
from binmetrics.inference.roc_tests import ROC_TEST_METHODS, ROCTest, roc_test
from binmetrics.inference.signed_rank import WilcoxonTest, signed_rank_test

__all__ = [
    "PROPORTION_METHODS",
    "ROC_TEST_METHODS",
    "BootstrapInterval",
    "BootstrapResult",
    "Comparison",
    "DeLongContrast",
    "DeLongTest",
    "Interval",
    "McNemarTest",
    "OOBBootstrapResult",
    "PairedResult",
    "PermutationResult",
    "Placements",
    "PowerResult",
    "ProportionTest",
    "ROCTest",
    "RefitPermutationResult",
    "ResamplingWarning",
    "WilcoxonTest",
    "auc_ci",
    "auc_variance",
    "bootstrap",
    "bootstrap_tables",
    "ci_methods",
    "compare",
    "compare_methods",
    "delong_contrast",
    "delong_placements",
    "delong_test",
    "delong_test_unpaired",
    "mcnemar_test",
    "measure_ci",
    "obuchowski_variance",
    "oob_bootstrap",
    "paired_bootstrap_indices",
    "permutation_pvalue",
    "permutation_tables",
    "permutation_test",
    "power_roc_test",
    "proportion_ci",
    "proportion_test",
    "refit_permutation_test",
    "roc_test",
    "signed_rank_test",
    "table_placements",
    "two_proportion_test",
]
