"""What binning the scores can have changed in each measure: exact bounds.

* **Ranking measures** see each bin as one tied group. Binning keeps the order
  between bins and forgets it inside them, so the exact value is one of those of
  the data sets that refine each bin into some order. :func:`value_bounds` gives
  the interval of all of them: for the AUC, +-(sum_b pos_b neg_b) / (2 P N), the
  within-bin pairs getting half credit where the truth gives each 0 or 1.

Derivations (P, N: total positive and negative weight; bin b holds pos_b and neg_b
after TP0_b positives and FP0_b negatives; "best"/"worst" are the refinements that
put every bin's positives before / after its negatives):

* AUC, Gini, AUAC, mean rank of the positives, average gain, average lift, RIE,
  BEDROC, enrichment factor, ROC enrichment: each is monotone in g(j), the
  (interpolated) number of positives among the top j cases (or, for ROC
  enrichment, in the ROC curve), and every refinement keeps g(j) between that of
  "worst" and that of "best" (inside bin b the curve stays in the rectangle
  [TP0_b, TP0_b + pos_b] x [FP0_b, FP0_b + neg_b]). So the bound is
  [min, max] of the measure on those two tables, and both are reached. For the AUC
  this is +-(sum_b pos_b neg_b)/(2 P N) (Mann-Whitney half credit; Berrar eq. 32),
  for the Gini twice that.
* KS: every cut of the binned table is a cut of the raw data, so KS >= the binned
  KS (reached when each bin holds one score); inside bin b |TPR - FPR| is largest
  at a corner of its rectangle, i.e. at a cut of "best" or "worst". Bound:
  [KS_binned, max(KS_best, KS_worst)]. The same for J_max = max(TPR - FPR):
  [J_binned, J_best].
* AUCH: the hull of the raw ROC curve contains the bin corners (binned hull) and
  lies under the hull of the corners plus each rectangle's top-left corner
  ("best"): [AUCH_binned, AUCH_best].
* Average precision (step-wise, Berrar eq. 38): the i-th positive of bin b has
  precision at most (TP0 + pos_b)/(TP0 + FP0 + pos_b) (all the bin's positives tied
  above its negatives, "best") and at least (TP0 + i)/(TP0 + FP0 + neg_b + i)
  (every negative first, positives distinct). The lower bound sums that over i
  (unweighted counts: pos_b - (FP0 + neg_b)(H(c + pos_b) - H(c)), c = TP0 + FP0 +
  neg_b); for weighted counts it is the integral, pos_b - (FP0 + neg_b)
  ln(1 + pos_b / c), reached as the weights become small.
* taKS, AUCPR by trapezoids (min, max, minmax) and AUPRG depend on how many
  distinct scores each bin holds, which binning discards: "no bound" (None).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
from scipy.special import digamma

from binmetrics.exceptions import SumsUnavailable, undefined_policy
from binmetrics.measures import Measure, get_measure
from binmetrics.table.counts import CountTable, HasTable

if TYPE_CHECKING:
    import pandas as pd


class Evaluated(HasTable, Protocol):
    """What the bounds read of an evaluation: its table, threshold and values."""

    @property
    def cut(self) -> float: ...

    def value(self, measure: str | Measure, **params: Any) -> float: ...

    def to_dict(self, family: Any = None, *,
                measures: Iterable[str | Measure] | None = None) -> dict[str, float]: ...

__all__ = ["Evaluated", "error_bounds", "value_bounds"]


def _refinement(t: CountTable, positives_first: bool) -> CountTable:
    """Each bin split in two tied groups: its positives above its negatives ("best")
    or below them ("worst"). Ranking measures read only the order, so the scores are
    any descending values."""
    pos, neg = t.pos.astype(np.float64), t.neg.astype(np.float64)
    zeros = np.zeros_like(pos)
    if positives_first:
        p, n = np.column_stack((pos, zeros)).ravel(), np.column_stack((zeros, neg)).ravel()
    else:
        p, n = np.column_stack((zeros, pos)).ravel(), np.column_stack((neg, zeros)).ravel()
    scores = np.arange(p.size, 0, -1, dtype=np.float64)
    return CountTable(scores, p, n, weighted=t.weighted)


def _ap_lower(t: CountTable) -> float:
    """Average precision with every bin's negatives first and its positives distinct."""
    g = t.positive_groups()
    a, f0, m, k = g.tp0, g.fp0, g.pos, g.neg
    c = a + f0 + k
    if t.weighted:  # the integral: the weights may split into many small cases
        with np.errstate(divide="ignore", invalid="ignore"):
            part = np.where(c > 0, m - (f0 + k) * np.log1p(m / np.where(c > 0, c, 1.0)), m)
    else:  # sum_{i=1}^{m} (a + i)/(c + i) = m - (c - a)(H(c + m) - H(c))
        part = m - (f0 + k) * (digamma(c + m + 1.0) - digamma(c + 1.0))
    return float(np.sum(part) / t.P)


def value_bounds(ev: Evaluated, measure: str | Measure,
                 **params: Any) -> tuple[float, float] | None:
    """The interval that holds the measure's value on the raw (unbinned) scores.

    ``(value, value)`` when binning cannot have changed it (exact scores, the
    probabilistic measures, confusion measures at a threshold the bins cut exactly),
    None where no exact bound is derived (taKS, trapezoidal AUCPR, AUPRG; confusion
    measures at a threshold inside an occupied bin). A NaN value is ``(nan, nan)``
    only where the raw value is provably NaN too: exact scores, a confusion measure at
    a threshold cut exactly, a probabilistic measure whose sum the engine took (NaN
    because of the data, e.g. one class); else None. See the module text for the
    derivations; every bound is reached by some data set with this binned table.

    Examples
    --------
    >>> import binmetrics as bm
    >>> from binmetrics.engines import binned_table
    >>> ev = bm.Evaluation(binned_table([1, 0, 1, 0], [.93, .91, .5, .1], decimals=1),
    ...                    undefined="ignore")
    >>> value_bounds(ev, "auc"), value_bounds(ev, "taks")
    ((0.5, 0.75), None)
    >>> value_bounds(ev, "log_loss", eps=1e-5) is None  # NaN: summed at eps=1e-15 only
    True
    """
    m = get_measure(measure)
    return _bounds(ev, m, m.resolve_params(**params), ev.value(m, **params))


def _bounds(ev: Evaluated, m: Measure, p: dict[str, Any],
            value: float) -> tuple[float, float] | None:
    t = ev.table
    b = t.binning
    if b is None:
        return (value, value)
    if m.family == "probabilistic":
        return (value, value) if not math.isnan(value) or _sum_taken(t, m, p) else None
    if m.family == "confusion":
        return (value, value) if b.exact_at(ev.cut, t) else None
    kind = m.binning_bound  # declared in the registry
    if math.isnan(value) or kind is None:
        return None

    def on(table: CountTable) -> float:
        return float(m.func(table, **p))

    with warnings.catch_warnings(), undefined_policy("ignore"):
        warnings.simplefilter("ignore")
        best = on(_refinement(t, True))
        if kind == "average_precision":
            return (min(_ap_lower(t), value), max(best, value))
        # both refinements are orders the raw scores may have had: within the bounds
        worst = on(_refinement(t, False))
    if kind == "above_binned":
        return (value, max(best, worst, value))
    return (min(best, worst, value), max(best, worst, value))


def _sum_taken(t: CountTable, m: Measure, p: dict[str, Any]) -> bool:
    """Whether the engine summed what a probabilistic measure reads over the raw scores
    (then a NaN is the raw scores' own: one class, scores outside [0, 1])."""
    with warnings.catch_warnings(), undefined_policy("ignore"):
        warnings.simplefilter("ignore")
        try:
            m.func(t, **p)
        except SumsUnavailable:
            return False
        except (ValueError, ArithmeticError):  # e.g. the raw scores are not probabilities
            return True
    return True


def error_bounds(ev: Evaluated, measures: Iterable[Measure]) -> pd.DataFrame:
    """A DataFrame of every measure with its bounds: id, value, low, high, max_error,
    bound ("exact": binning cannot have changed it; "bounded"; "none": no bound).

    A NaN value is "exact" only where the raw value is provably NaN too (see
    :func:`value_bounds`).

    Examples
    --------
    >>> import binmetrics as bm
    >>> from binmetrics.engines import binned_table
    >>> t = binned_table([1, 0, 1, 0], [.93, .91, .56, .1], decimals=1)
    >>> ev = bm.Evaluation(t, threshold=0.5)
    >>> error_bounds(ev, [get_measure(i) for i in ("tpr", "auc", "brier")])[
    ...     ["id", "max_error", "bound"]]
          id  max_error    bound
    0    tpr      0.000    exact
    1    auc      0.125  bounded
    2  brier      0.000    exact
    """
    import pandas as pd

    rows = []
    chosen = list(measures)
    values = ev.to_dict(measures=chosen)
    for m in chosen:
        v = values[m.id]
        bounds = _bounds(ev, m, m.resolve_params(), v)
        if bounds is None:
            low = high = err = math.nan
            kind = "none"
        else:
            low, high = bounds
            if low == high == v:  # also an infinite value (the DOR of an empty cell)
                err = 0.0
            else:
                err = max(v - low, high - v) if not math.isnan(v) else math.nan
            kind = "exact" if err == 0.0 or math.isnan(v) else "bounded"
        rows.append({"id": m.id, "value": v, "low": low, "high": high, "max_error": err,
                     "bound": kind})
    return pd.DataFrame(rows)
