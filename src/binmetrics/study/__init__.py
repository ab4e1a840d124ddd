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

from binmetrics.study.results import Study
from binmetrics.study.runner import benchmark, example_study
from binmetrics.study.srd_analyses import StudySRD

__all__ = ["Study", "StudySRD", "benchmark", "example_study"]
