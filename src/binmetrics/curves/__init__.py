"""Curves of one count table: ROC (+ convex hull), PR, PR-gain, threshold curves,
gain, lift and accumulation; the calibration and decision-analytic results (reliability,
calibration tests, Brier decomposition, decision and cost curves). Every curve is read
from the sorted table; no curve sorts."""

# The names are listed once, in __init__.pyi (type checkers read it), and each loads
# its module on first use (binmetrics.package): importing one module of this
# package does not import the others.
from binmetrics.package import attach_stub as _attach_stub

__getattr__, __dir__, __all__ = _attach_stub(__name__, __file__)
