"""Per-case costs of the errors (``bm.evaluate(y, p, case_cost_fp=..., case_cost_fn=...)``),
carried in the count table as sums per distinct score.

A negative at score s costs ``case_cost_fp`` when predicted positive, a positive
``case_cost_fn`` when predicted negative (scikit-learn's cost-sensitive learning example:
the amount of a transaction). The table keeps, for each distinct score g, the weighted
sums :math:`A_g = \\sum_{i \\in g, y_i = 0} w_i a_i` and :math:`B_g = \\sum_{i \\in g,
y_i = 1} w_i b_i`; the cut that predicts the top k scores positive costs
:math:`\\sum_{g < k} A_g + \\sum_{g \\ge k} B_g`, the sum over its errors' rows. Sums
merge (the table of a union of batches is the sum of their tables); a bootstrap
replicate gives each drawn case its group's mean cost (exact when a score's cases of a
class share a cost, as with distinct scores).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from binmetrics.table.counts import CountTable, FloatArray
from binmetrics.validation import BinaryInputs, as_1d

__all__ = ["attach_case_costs", "case_cost_sums", "check_case_costs"]


def check_case_costs(values: Any, name: str, n: int) -> FloatArray:
    """One finite cost >= 0 per case, as float64, or a one-line error."""
    raw = as_1d(values, name)
    if raw.size != n:
        raise ValueError(f"{name} has {raw.size} values for {n} cases; pass one cost per case")
    try:
        v = raw.astype(np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must hold numbers (costs); got {raw.dtype} values") from None
    bad = ~np.isfinite(v) | (v < 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name} must be finite and >= 0; row {i} is {v[i]!r} "
                         f"({int(bad.sum())} such rows)")
    return v


def attach_case_costs(table: CountTable, inp: BinaryInputs, oriented_scores: FloatArray,
                      case_cost_fp: Any, case_cost_fn: Any) -> CountTable:
    """``table`` carrying the per-score sums of the validated cases' costs."""
    if inp.n_omitted:
        raise ValueError("per-case costs cannot be aligned after nan_policy='omit' dropped "
                         f"{inp.n_omitted} rows; drop those rows (and their costs) first")
    return table.with_case_costs(*case_cost_sums(table.scores, inp.y, oriented_scores,
                                                 inp.weight, case_cost_fp, case_cost_fn))


def case_cost_sums(table_scores: FloatArray, y: Any, scores: FloatArray,
                   weight: FloatArray | None, case_cost_fp: Any,
                   case_cost_fn: Any) -> tuple[FloatArray, FloatArray]:
    """The weighted sums, per distinct score of ``table_scores`` (descending), of the
    false-positive costs of the negatives and the false-negative costs of the positives
    (``y`` boolean, ``scores`` finite, as validated); a cost given as None is 0."""
    n = y.size
    zeros = np.zeros(n)
    a = zeros if case_cost_fp is None else check_case_costs(case_cost_fp, "case_cost_fp", n)
    b = zeros if case_cost_fn is None else check_case_costs(case_cost_fn, "case_cost_fn", n)
    w = np.ones(n) if weight is None else weight
    m = table_scores.size
    # the group of each row: the table's scores descend, so search their negation
    group = np.searchsorted(-table_scores, -scores)
    group = np.minimum(group, m - 1)  # rows of weight 0 may have no group
    neg, pos = ~y, y
    fp = np.bincount(group[neg], weights=(w * a)[neg], minlength=m).astype(np.float64, copy=False)
    fn = np.bincount(group[pos], weights=(w * b)[pos], minlength=m).astype(np.float64, copy=False)
    return fp, fn
