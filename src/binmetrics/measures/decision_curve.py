"""The decision curve (:class:`DecisionCurve`): the ``net_benefit`` measure at every
threshold probability, for one or several models, with "treat all" and "treat none"
(Vickers & Elkin 2006).

It is read from count tables only, so the layers that keep tables reach it directly:
``Evaluation.decision_curve`` and ``Comparison.decision_curve`` (several models on the
same cases) both build it here. ``binmetrics.curves.DecisionCurve`` is this class.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from binmetrics.chart import ChartData, Drawable, fmt, series
from binmetrics.exceptions import report_undefined
from binmetrics.formatting import Tabular
from binmetrics.measures.probabilistic import require_probabilities
from binmetrics.table.counts import CountTable, FloatArray

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["DecisionCurve"]


def _net_benefits(t: CountTable, thresholds: FloatArray, name: str) -> FloatArray:
    """Net benefit at each threshold (one bisection each, the counts summed between cuts).

    On binned scores a threshold inside an occupied bin does not give the raw scores'
    confusion matrix: NaN there, with one warning for the curve."""
    n = t.total
    k = np.array([t.cut_index(float(th)) for th in thresholds], dtype=np.intp)
    tp, fp = t.prefix_sums_at(k)
    nb = np.asarray(tp / n - fp / n * (thresholds / (1 - thresholds)), dtype=np.float64)
    if t.binning is not None:
        bad = np.array([not t.binning.exact_at(float(th), t) for th in thresholds])
        if bad.any():
            nb[bad] = np.nan
            report_undefined("net_benefit", f"decision curve of {name!r}: {int(bad.sum())} of "
                             f"{bad.size} thresholds (the first {thresholds[bad][0]:g}) cut "
                             f"occupied bins of the binned scores ({t.binning.describe()}), "
                             "where the confusion matrix is not that of the raw scores; take "
                             "thresholds on the bin grid or evaluate the raw scores")
    return nb


@dataclass(frozen=True)
class DecisionCurve(Drawable, Tabular):
    """Net benefit against the threshold probability (Vickers & Elkin 2006), for one or
    several models, with "treat all" and "treat none" (0), as the dcurves packages.

    ``net_benefit[name]``; ``treat_all`` = prevalence - (1 - prevalence) t/(1-t);
    standardized net benefit = net benefit / prevalence; interventions avoided per 100
    = (NB - NB_all) / (t/(1-t)) * 100.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 0, 1, 0, 0], [0.9, 0.6, 0.4, 0.3, 0.1])
    >>> dc = ev.decision_curve(thresholds=[0.25, 0.5])
    >>> dc.to_frame()[["threshold", "net_benefit", "treat_all"]].round(4).values.tolist()
    [[0.25, 0.2667, 0.2], [0.5, 0.0, -0.2]]
    """

    thresholds: FloatArray
    net_benefit: Mapping[str, FloatArray]
    treat_all: FloatArray
    prevalence: float

    @classmethod
    def from_tables(cls, tables: Mapping[str, CountTable],
                    thresholds: Any = None) -> DecisionCurve:
        # k / 100 exactly (not np.arange's sums): on the grid of binned scores (decimals=2)
        th = np.arange(1, 100) / 100 if thresholds is None else np.asarray(
            thresholds, dtype=np.float64).ravel()
        if th.size == 0 or not np.all((th > 0) & (th < 1)):
            raise ValueError("thresholds must lie strictly between 0 and 1")
        first = next(iter(tables.values()))
        prev = first.prevalence
        for name, t in tables.items():
            require_probabilities(t, "decision_curve")
            if t.total != first.total or t.P != first.P:
                raise ValueError(f"model {name!r} is not evaluated on the same cases")
        odds = th / (1 - th)
        return cls(th, {k: _net_benefits(t, th, k) for k, t in tables.items()},
                   prev - (1 - prev) * odds, prev)

    def to_frame(self) -> pd.DataFrame:
        """One row per model and threshold: model, threshold, net_benefit, treat_all,
        standardized_net_benefit, interventions_avoided (per 100)."""
        import pandas as pd

        odds = self.thresholds / (1 - self.thresholds)
        parts = []
        for name, nb in self.net_benefit.items():
            with np.errstate(divide="ignore", invalid="ignore"):
                snb = nb / self.prevalence
            parts.append(pd.DataFrame({
                "model": name, "threshold": self.thresholds, "net_benefit": nb,
                "treat_all": self.treat_all, "treat_none": 0.0,
                "standardized_net_benefit": snb,
                "interventions_avoided": (nb - self.treat_all) / odds * 100}))
        return pd.concat(parts, ignore_index=True)

    def chart(self) -> ChartData:
        """Each model's net benefit, treat all (dashed) and treat none (dotted); the y
        axis from a little below 0 to a little above the highest net benefit, as dcurves
        draws it (lines leaving it are clipped).

        Examples
        --------
        >>> import binmetrics as bm
        >>> ev = bm.evaluate([1, 0, 1, 0, 0], [0.9, 0.6, 0.4, 0.3, 0.1])
        >>> [s.label for s in ev.decision_curve([0.25, 0.5]).chart().series]
        ['net benefit', 'treat all (prevalence 0.400)', 'treat none']
        """
        several = len(self.net_benefit) > 1
        top = max(1e-9, self.prevalence)
        out = []
        for name, nb in self.net_benefit.items():
            finite = nb[np.isfinite(nb)]  # NaN where a binned table cannot say
            top = max(top, float(finite.max()) if finite.size else 0.0)
            own = DecisionCurve(self.thresholds, {name: nb}, self.treat_all, self.prevalence)
            out.append(series(self.thresholds, nb, "net benefit", name if several else None,
                              source=(own, "threshold", "net_benefit")))
        lo, hi = float(self.thresholds[0]), float(self.thresholds[-1])
        out.append(series(self.thresholds, self.treat_all,
                          f"treat all (prevalence {fmt(self.prevalence)})", style="dashed",
                          shared=True, color="grey", width=1.0))
        out.append(series([lo, hi], [0.0, 0.0], "treat none", style="dotted", shared=True,
                          width=1.0))
        return ChartData("decision_curve", "Decision curve", "threshold probability",
                         "net benefit", tuple(out), (lo, hi), (-0.1 * top, 1.05 * top),
                         legend="upper right")

    def __repr__(self) -> str:
        return (f"DecisionCurve(models={list(self.net_benefit)}, thresholds="
                f"{self.thresholds.size} from {self.thresholds[0]:g} to "
                f"{self.thresholds[-1]:g}, prevalence={self.prevalence:.4g})")
