"""The benchmark study of the multi-level comparison paper: :func:`benchmark` trains
classifiers on several data sets, evaluates every measure and returns a :class:`Study`,
whose analyses (SRD, ANOVA, COVAT, rank and Bayesian comparisons) are the tools of
:mod:`binmetrics.comparison`, the layer below.

Modules: :mod:`~binmetrics.study.runner` (:func:`benchmark`, :func:`example_study`),
:mod:`~binmetrics.study.results` (:class:`Study`),
:mod:`~binmetrics.study.srd_analyses` (:class:`StudySRD`) and
:mod:`~binmetrics.study.folds` (the per-fold scores); the modules whose names start with
an underscore are their private helpers.
"""

# The names are listed once, in __init__.pyi (type checkers read it), and each loads
# its module on first use (binmetrics.package): importing one module of this
# package does not import the others.
from binmetrics.package import attach_stub as _attach_stub

__getattr__, __dir__, __all__ = _attach_stub(__name__, __file__)
