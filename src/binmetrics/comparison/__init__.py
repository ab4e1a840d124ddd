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

# The names are listed once, in __init__.pyi (type checkers read it), and each loads
# its module on first use (binmetrics.package): importing one module of this
# package does not import the others.
from binmetrics.package import attach_stub as _attach_stub

__getattr__, __dir__, __all__ = _attach_stub(__name__, __file__)
