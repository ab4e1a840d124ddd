r"""Smoothed ROC curves, as pROC's ``smooth(roc, method = "binormal")``.

**Binormal.** The binormal model says that some monotone transform of the scores is
normal in both classes; then the ROC curve is a straight line on normal-deviate axes.
pROC fits it by ordinary least squares of :math:`\Phi^{-1}(\mathrm{TNR})` on
:math:`\Phi^{-1}(\mathrm{TPR})` over the empirical points strictly inside
:math:`(0, 1)^2`,

.. math::  \Phi^{-1}(\mathrm{TNR}) = c_0 + c_1\, \Phi^{-1}(\mathrm{TPR}),

draws the curve at ``n`` sensitivities equally spaced on [0, 1], and gives it the area

.. math::  \mathrm{AUC} = \Phi\!\left(c_0 / \sqrt{1 + c_1^2}\right).

References
----------
Dorfman, D. D. and Alf, E. (1969). Maximum-likelihood estimation of parameters of signal
detection theory and determination of confidence intervals: rating-method data. *Journal
of Mathematical Psychology* 6, 487-496.

Robin, X. et al. (2011). pROC. *BMC Bioinformatics* 12, 77.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from scipy import special

from binmetrics.backends import axes
from binmetrics.formatting import Tabular
from binmetrics.table.counts import FloatArray

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["SMOOTH_METHODS", "SmoothROC", "binormal_smooth"]

#: the methods of ``ROCCurve.smooth``
SMOOTH_METHODS = ("binormal",)


@dataclass(frozen=True, repr=False)
class SmoothROC(Tabular):
    """A smoothed ROC curve: points ``fpr``, ``tpr`` (from (0, 0) to (1, 1)) and the
    fitted model (``intercept`` c0 and ``slope`` c1 of the binormal line)."""

    fpr: FloatArray
    tpr: FloatArray
    method: str
    intercept: float
    slope: float

    def area(self) -> float:
        """The area under the smoothed curve, Phi(c0 / sqrt(1 + c1^2)) (pROC ``auc``)."""
        return float(special.ndtr(self.intercept / np.sqrt(1.0 + self.slope**2)))

    def to_frame(self) -> pd.DataFrame:
        """The points (columns fpr, tpr)."""
        return pd.DataFrame({"fpr": self.fpr, "tpr": self.tpr})

    def _title(self) -> str:
        return (f"SmoothROC({self.method}, {self.fpr.size} points, intercept="
                f"{self.intercept:.6g}, slope={self.slope:.6g}, area={self.area():.6g})")

    def plot(self, ax: Any = None, **kwargs: Any) -> Axes:
        """Draw the smoothed curve (needs matplotlib; ``kwargs`` go to ``ax.plot``)."""
        ax = axes(ax, "SmoothROC.plot")
        ax.plot(self.fpr, self.tpr, **{"label": f"{self.method} smoothing", **kwargs})
        ax.plot([0, 1], [0, 1], color="grey", linestyle=":", linewidth=1)
        ax.set_xlabel("False positive rate")
        ax.set_ylabel("True positive rate")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        return ax


def binormal_smooth(fpr: FloatArray, tpr: FloatArray, n: int = 512) -> SmoothROC:
    """pROC's binormal smoothing of the empirical points (fpr, tpr)."""
    if int(n) < 2:
        raise ValueError(f"n must be at least 2 points; got {n!r}")
    with np.errstate(divide="ignore"):
        x = special.ndtri(tpr)
        y = special.ndtri(1.0 - fpr)
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    if x.size <= 1 or np.all(x == x[0]):
        raise ValueError(f"the ROC curve cannot be smoothed: {x.size} point(s) strictly inside "
                         "(0, 1) with distinct sensitivities, and the fit needs two")
    slope, intercept = np.polyfit(x, y, 1)
    # R's seq(0, 1, 1/(n - 1)): from + (0:n) * by, capped at 1
    se = special.ndtri(np.minimum(np.arange(int(n)) * (1.0 / (int(n) - 1)), 1.0))
    sp = special.ndtr(intercept + slope * se)
    order = np.argsort(1.0 - sp, kind="stable")
    return SmoothROC(fpr=(1.0 - sp)[order], tpr=special.ndtr(se)[order], method="binormal",
                     intercept=float(intercept), slope=float(slope))
