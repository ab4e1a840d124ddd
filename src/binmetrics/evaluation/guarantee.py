r"""A threshold with a finite-sample guarantee: the cut whose measure is at least (at most)
a target with a stated confidence, by one-sided exact binomial bounds and fixed-sequence
testing (Learn then Test: Angelopoulos, Bates, Candès, Jordan & Lei 2021, §3.3).

A measure has a guarantee when it is a proportion of cases (the registry's
:attr:`~binmetrics.measures.Measure.proportion`: precision TP / (TP + FP), recall, the
specificity, the NPV, the accuracy, and the error rates). At cut k with ``x``
successes among ``n`` trials, the one-sided Clopper-Pearson bounds at level 1 - a are

.. math::

    L_k = B^{-1}(a;\ x, n - x + 1), \qquad U_k = B^{-1}(1 - a;\ x + 1, n - x)

(:math:`L = 0` when x = 0, :math:`U = 1` when x = n). ``at_least=t`` tests
:math:`H_k: m_k < t` at each cut and rejects it when :math:`L_k \ge t`, that is when the
exact binomial p-value :math:`P(\mathrm{Bin}(n, t) \ge x)` is at most a; ``at_most``
likewise with :math:`U_k \le t`. The cuts are tested in a fixed order, from the end where
the measure is best (the strictest cut for precision and specificity, the most lenient
for recall and the NPV) towards the other, and the scan stops at the first cut that
fails: the family-wise error of every cut passed is at most a with no multiplicity
correction (fixed-sequence testing). The result is the last cut passed. Cuts with too
few trials for even a perfect record to meet the target (:math:`a^{1/n} < t` for
``at_least``; no trials at all, such as precision where nothing is predicted positive)
carry no evidence and are not tested: their number of trials never depends on the labels
(the predicted positives, or the class totals), so skipping them keeps the guarantee.

Where MAPIE's ``BinaryClassificationController`` (1.6) meets this: the same test order
(``fwer_method="fixed_sequence"``, ``list_predict_params`` the distinct scores, a
positive prediction at ``score >= threshold``) and MAPIE's fixed-sequence procedure fed
these exact p-values give the same cut. MAPIE's own p-values are Hoeffding-Bentkus
bounds on them (larger), so its cut is never more lenient than this one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from binmetrics.evaluation.cut_choice import all_cuts, cut_threshold
from binmetrics.formatting import Tabular
from binmetrics.measures import get_measure
from binmetrics.table.counts import Confusion
from binmetrics.validation import check_in_range, check_level

__all__ = ["GuaranteedThreshold", "threshold_with_guarantee"]


@dataclass(frozen=True, repr=False)
class GuaranteedThreshold(Tabular):
    """A cut whose measure is guaranteed, with confidence ``level``, to be at least
    ``at_least`` (or at most ``at_most``).

    Attributes
    ----------
    measure : the measure guaranteed.
    threshold : the cut (``score >= threshold`` is positive); NaN when no cut is
        guaranteed (``feasible`` False, ``reason`` says why).
    value : the measure at the cut.
    bound : its one-sided exact (Clopper-Pearson) bound at ``level``: the lower bound
        for ``at_least``, the upper for ``at_most``.
    at_least, at_most, level : the guarantee asked for (one of the first two is NaN).
    confusion : the counts at the cut.
    n_tested : the cuts tested before the scan stopped (the failing one included).
    method : "clopper-pearson fixed-sequence".
    """

    measure: str
    threshold: float
    value: float
    bound: float
    at_least: float
    at_most: float
    level: float
    confusion: Confusion
    feasible: bool
    reason: str
    n_tested: int
    method: str = "clopper-pearson fixed-sequence"

    def _title(self) -> str:
        goal = (f"{self.measure} >= {self.at_least:g}" if not math.isnan(self.at_least)
                else f"{self.measure} <= {self.at_most:g}")
        return (f"GuaranteedThreshold ({goal} with {self.level * 100:g}% confidence"
                f"{'' if self.feasible else ': infeasible'})")


def _starts_strict(func: Any, higher_is_better: bool) -> bool:
    """True when the measure is better at the strict end of the cuts (precision, the
    false positive rate), False at the lenient end (recall): read from the measure at
    the two ends of an ideal ranking of 100 positives over 100 negatives. Equal ends
    start strict."""
    strict = Confusion(tp=1.0, fp=0.0, fn=99.0, tn=100.0)
    lenient = Confusion(tp=100.0, fp=99.0, fn=0.0, tn=1.0)
    a, b = (float(np.divide(*func(c))) for c in (strict, lenient))
    return a >= b if higher_is_better else a <= b


def threshold_with_guarantee(ev: Any, measure: str, *,
                             at_least: float | None = None, at_most: float | None = None,
                             level: float = 0.95) -> GuaranteedThreshold:
    """The last cut of the fixed-sequence scan whose exact one-sided bound meets the
    target (see the module docstring).

    Parameters
    ----------
    ev : an evaluation (its count table; unweighted, or weighted by whole numbers).
    measure : a proportion measure (``ppv``, ``tpr``, ``tnr``, ``npv``, ``accuracy``,
        ``fpr``, ``fdr``...).
    at_least, at_most : the target; exactly one. ``at_least`` for a measure where higher
        is better, ``at_most`` for an error rate.
    level : the confidence of the guarantee, default 0.95.

    Examples
    --------
    >>> import binmetrics as bm
    >>> y = [1] * 40 + [0] * 2 + [1] * 10 + [0] * 48
    >>> s = [1 - i / 100 for i in range(100)]
    >>> g = bm.evaluate(y, s).threshold_with_guarantee("ppv", at_least=0.8, level=0.95)
    >>> round(g.threshold, 2), round(g.bound, 4), g.n_tested
    (0.46, 0.8183, 43)
    >>> bm.evaluate(y, s).threshold_with_guarantee("fpr", at_most=0.1).confusion.fp
    1
    """
    from scipy.stats import beta

    m = get_measure(measure)
    if m.proportion is None or m.family != "confusion":
        raise ValueError(f"{m.id} has no exact guarantee: it is not a proportion of cases; "
                         "pass one such as ppv, tpr, tnr, npv, accuracy or fpr")
    if (at_least is None) == (at_most is None):
        raise ValueError("pass exactly one of at_least= (a floor) or at_most= (a ceiling)")
    lv = check_level(level)
    lower = at_least is not None
    target = check_in_range(at_least if lower else at_most, "at_least" if lower else "at_most",
                            0.0, 1.0)
    if (lower and m.direction < 0) or (not lower and m.direction > 0):
        word = "at_most" if lower else "at_least"
        raise ValueError(f"{m.id} is {'an error' if m.direction < 0 else 'a score'} "
                         f"(lower is {'better' if m.direction < 0 else 'worse'}): pass "
                         f"{word}= for it")
    t = ev.table
    if t.weighted and not (np.all(np.mod(t.pos, 1) == 0) and np.all(np.mod(t.neg, 1) == 0)):
        raise ValueError("an exact guarantee counts cases: the weights must be whole numbers "
                         "(frequencies); evaluate without sample_weight")
    cuts = all_cuts(t)
    x, n = (np.asarray(a, dtype=np.float64) * 2.0 ** -t.weight_exponent
            for a in np.broadcast_arrays(*m.proportion(cuts)))
    a = 1.0 - lv
    with np.errstate(invalid="ignore"):
        if lower:
            bound = np.where(x > 0, beta.ppf(a, np.maximum(x, 1), n - x + 1), 0.0)
            passes = bound >= target
        else:
            bound = np.where(x < n, beta.ppf(1 - a, x + 1, np.maximum(n - x, 1)), 1.0)
            passes = bound <= target
    order = np.arange(x.size) if _starts_strict(m.proportion, lower) else np.arange(x.size)[::-1]
    # too few trials for even a perfect record to meet the target (no trials at all
    # included): no evidence either way, so not tested. Where the trials vary by cut
    # (precision: the predicted positives) they do not depend on the labels.
    with np.errstate(divide="ignore"):
        best_case = a ** (1.0 / n) if lower else 1.0 - a ** (1.0 / n)
    order = order[(n[order] > 0) & (best_case[order] >= target if lower
                                     else best_case[order] <= target)]
    fails = np.flatnonzero(~passes[order])
    stop = int(fails[0]) if fails.size else order.size
    n_tested = min(stop + 1, order.size)
    goal = f"{m.id} {'>=' if lower else '<='} {target:g}"
    nan = float("nan")
    common: dict[str, Any] = {"at_least": target if lower else nan,
                              "at_most": nan if lower else target,
                              "level": lv, "n_tested": n_tested}
    if stop == 0:
        first = int(order[0]) if order.size else 0
        reason = (f"the first cut tested already fails: its {m.id} is "
                  f"{float(x[first] / n[first]) if n[first] else nan:.6g} with a one-sided "
                  f"{lv * 100:g}% bound of {float(bound[first]):.6g}; no cut guarantees "
                  f"{goal}")
        if not order.size:
            reason = (f"no cut has enough cases for a {lv * 100:g}% guarantee of {goal} "
                      "even if every case were right")
        return GuaranteedThreshold(m.id, nan, nan, nan, confusion=Confusion(nan, nan, nan, nan),
                                   feasible=False, reason=reason, **common)
    k = int(order[stop - 1])
    th = cut_threshold(t, k)
    c = t.confusion(th)
    shown = c if t.weighted else Confusion(int(c.tp), int(c.fp), int(c.fn), int(c.tn))
    return GuaranteedThreshold(m.id, float(ev.oriented(th)),
                               float(m.func(c)), float(bound[k]), confusion=shown,
                               feasible=True, reason="", **common)
