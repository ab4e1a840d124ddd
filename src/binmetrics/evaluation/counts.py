"""Evaluations without scores: :func:`from_counts` (a published 2 x 2 table) and
:func:`predictive_values` (sensitivity, specificity and prevalence: Bayes' theorem)."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from binmetrics.evaluation.binary import Evaluation
from binmetrics.exceptions import undefined_policy
from binmetrics.formatting import Tabular
from binmetrics.measures import get_measure, iter_measures
from binmetrics.table.counts import Confusion, CountTable
from binmetrics.validation import check_in_range

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["PredictiveValues", "from_counts", "predictive_values"]


def _count(x: Any, name: str, weighted: bool) -> float:
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number, got {x!r}") from None
    if not math.isfinite(v) or v < 0:
        raise ValueError(f"{name} must be a finite count >= 0, got {x!r}")
    if not weighted and v != int(v):
        raise ValueError(f"{name} = {x!r} is not a whole number; pass weighted=True for "
                         "weighted counts")
    return v


def from_counts(*, tp: float, fp: float, fn: float, tn: float,
                weighted: bool = False) -> Evaluation:
    """An :class:`Evaluation` of a 2 x 2 table given by its counts.

    Every confusion measure, with its intervals: ``ev.ci("sensitivity")`` (exact
    Clopper-Pearson), ``ev.ci("lr_plus")``, ``"lr_minus"`` and ``"dor"`` (the log
    method), the bootstrap for the rest. The table is that of a classifier whose
    scores are 1 (predicted positive) and 0 (predicted negative), cut at 0.5; its
    ranking measures are those of that two-valued score (the AUC is then the
    balanced accuracy).

    Parameters
    ----------
    tp, fp, fn, tn : counts >= 0 (keywords).
    weighted : bool, default False
        False: the counts must be whole numbers (cases); True: any non-negative
        weights (the binomial intervals then treat them as counts).

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.from_counts(tp=30, fp=10, fn=5, tn=55)
    >>> ev.confusion
    Confusion(tp=30, fp=10, fn=5, tn=55)
    >>> round(ev["sensitivity"], 4), round(ev["lr_plus"], 4)
    (0.8571, 5.5714)
    >>> ev.ci("lr_plus").method
    'log'
    """
    cells = {k: _count(v, k, weighted) for k, v in
             (("tp", tp), ("fp", fp), ("fn", fn), ("tn", tn))}
    if sum(cells.values()) <= 0:
        raise ValueError("the counts are all 0: there is nothing to evaluate")
    table = CountTable([1.0, 0.0], [cells["tp"], cells["fn"]], [cells["fp"], cells["tn"]],
                       weighted=weighted)
    return Evaluation(table, threshold=0.5)


class PredictiveValues(Tabular, Mapping[str, float]):
    """Every confusion measure of a test with given sensitivity and specificity at a
    given prevalence, from the expected confusion matrix (as fractions of the cases).

    Read it as a mapping of measure ids (``pv["ppv"]``, aliases too: ``pv["precision"]``),
    by attribute for the two headline values (``pv.ppv``, ``pv.npv``), or as a table
    (:meth:`to_frame`).
    """

    def __init__(self, sensitivity: float, specificity: float, prevalence: float) -> None:
        self.sensitivity, self.specificity, self.prevalence = sensitivity, specificity, prevalence
        p, se, sp = prevalence, sensitivity, specificity
        #: the expected fractions TP, FP, FN, TN (they sum to 1)
        self.confusion = Confusion(tp=se * p, fp=(1.0 - sp) * (1.0 - p),
                                   fn=(1.0 - se) * p, tn=sp * (1.0 - p))
        with undefined_policy("ignore"):
            self._values = {m.id: float(m.func(self.confusion)) for m in
                            iter_measures("confusion") if not _depends_on_n(m.id)}

    @property
    def ppv(self) -> float:
        """Positive predictive value: se p / (se p + (1 - sp)(1 - p))."""
        return self._values["ppv"]

    @property
    def npv(self) -> float:
        """Negative predictive value: sp (1 - p) / (sp (1 - p) + (1 - se) p)."""
        return self._values["npv"]

    def __getitem__(self, measure: str) -> float:
        mid = get_measure(measure).id
        if mid not in self._values:
            raise KeyError(f"{mid} is not a population quantity of the 2 x 2 table (a "
                           "confusion measure that depends on the number of cases, or not a "
                           "confusion measure)")
        return self._values[mid]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def to_frame(self) -> pd.DataFrame:
        """One row per measure: id, name, value."""
        import pandas as pd

        return pd.DataFrame([{"id": k, "name": get_measure(k).name, "value": v}
                             for k, v in self._values.items()])

    def __repr__(self) -> str:
        return (f"PredictiveValues(sensitivity={self.sensitivity:g}, "
                f"specificity={self.specificity:g}, prevalence={self.prevalence:g}, "
                f"ppv={self.ppv:.6g}, npv={self.npv:.6g})")


def _depends_on_n(measure: str) -> bool:
    """A measure that changes when every cell is multiplied by the same factor (the
    chi-square, Krippendorff's alpha) has no value for a table of fractions."""
    base = Confusion(tp=3.0, fp=1.0, fn=2.0, tn=4.0)
    scaled = Confusion(tp=30.0, fp=10.0, fn=20.0, tn=40.0)
    f = get_measure(measure).func
    with undefined_policy("ignore"):
        a, b = float(f(base)), float(f(scaled))
    return not (a == b or math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15))


def predictive_values(*, sensitivity: float, specificity: float,
                      prevalence: float) -> PredictiveValues:
    """PPV, NPV and the rest of the 2 x 2 table's measures of a test with known
    sensitivity and specificity, at a prevalence (Bayes' theorem).

    Parameters
    ----------
    sensitivity, specificity, prevalence : floats in [0, 1] (keywords).

    Examples
    --------
    >>> import binmetrics as bm
    >>> pv = bm.predictive_values(sensitivity=0.99, specificity=0.99, prevalence=0.05)
    >>> round(pv.ppv, 6), round(pv.npv, 6)  # .0495 / (.0495 + .0095)
    (0.838983, 0.999469)
    >>> round(pv["lr_plus"], 6), round(pv["accuracy"], 6)
    (99.0, 0.99)
    """
    se = check_in_range(sensitivity, "sensitivity", 0.0, 1.0)
    sp = check_in_range(specificity, "specificity", 0.0, 1.0)
    p = check_in_range(prevalence, "prevalence", 0.0, 1.0)
    return PredictiveValues(se, sp, p)
