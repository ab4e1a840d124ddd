"""Evaluations: every measure of one classifier from its count table.

* :func:`evaluate` / :class:`Evaluation`: a binary classifier (``binary``).
* :func:`evaluate_multiclass` / :class:`MulticlassEvaluation` (``multiclass``).
* :func:`evaluate_by` / :class:`ByResult`: one evaluation per group (``by``).
* :class:`UndersampledEvaluation`: Siblini et al.'s undersampling heuristic
  (``undersampling``).
* ``bounds``: what binned scores can have changed in each measure.

The names are listed in ``__init__.pyi`` and load their module on first use (as the
package's top level does, :mod:`binmetrics.package`): a binary evaluation then
imports neither pandas nor scipy.stats, which the per-group, multiclass and inference
parts need, and which take a second or more to import.
"""

from binmetrics.package import attach_stub as _attach_stub

__getattr__, __dir__, __all__ = _attach_stub(__name__, __file__)
