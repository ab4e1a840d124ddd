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

# The names are listed once, in __init__.pyi (type checkers read it), and each loads
# its module on first use (binmetrics.package): importing one module of this
# package does not import the others.
from binmetrics.package import attach_stub as _attach_stub

__getattr__, __dir__, __all__ = _attach_stub(__name__, __file__)
