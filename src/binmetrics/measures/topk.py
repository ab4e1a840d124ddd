"""Top-k accuracy (scikit-learn's ``top_k_accuracy_score``): the share of cases whose
true class is among the k classes with the highest scores."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from binmetrics.measures.registry import register
from binmetrics.measures.sums import RawSum, SumGroup, table_sums
from binmetrics.table.counts import CountTable

if TYPE_CHECKING:
    from binmetrics.measures.multiclass import MulticlassData


def _one(_low: float, _high: float) -> float:
    return 1.0


#: the correct cases of the rules "score > 0.5" (probabilities) and "score > 0" (margins)
TOP1 = SumGroup("top1", "the top-1 hits", (
    RawSum("top1_pos_above_half", "pos", "(CASE WHEN x > 0.5 THEN 1.0 ELSE 0.0 END)",
           lambda x, _p, _pi: (x > 0.5).astype(np.float64), _one),
    RawSum("top1_neg_to_half", "neg", "(CASE WHEN x > 0.5 THEN 0.0 ELSE 1.0 END)",
           lambda x, _p, _pi: (x <= 0.5).astype(np.float64), _one),
    RawSum("top1_pos_above_zero", "pos", "(CASE WHEN x > 0.0 THEN 1.0 ELSE 0.0 END)",
           lambda x, _p, _pi: (x > 0.0).astype(np.float64), _one),
    RawSum("top1_neg_to_zero", "neg", "(CASE WHEN x > 0.0 THEN 0.0 ELSE 1.0 END)",
           lambda x, _p, _pi: (x <= 0.0).astype(np.float64), _one),
))


def _check_k(k: int, n_classes: int) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"k must be a whole number >= 1, got {k!r}")
    if k > n_classes:
        raise ValueError(f"k = {k} is larger than the number of classes ({n_classes})")
    return int(k)


def _top_k_multiclass(data: MulticlassData, *, k: int = 1) -> float:
    """Top-k accuracy of the (n, k) probability matrix, as scikit-learn's
    ``top_k_accuracy_score``: the classes ordered by a stable sort of the scores,
    reversed, so that among tied scores the class of the later column ranks first."""
    kk = _check_k(k, data.n_classes)
    order = np.argsort(data.proba, axis=1, kind="mergesort")[:, ::-1][:, :kk]
    hits = (order == data.codes[:, None]).any(axis=1)
    return float(np.average(hits, weights=data.weight))


@register("top_k_accuracy", name="Top-k accuracy", family="probabilistic", direction=1,
          prevalence_dependent=True,
          range=(0.0, 1.0), aliases=("top_k_accuracy_score", "topk_accuracy"),
          source="scikit-learn top_k_accuracy_score; docs/methods.md §6",
          multiclass=_top_k_multiclass, sums=(TOP1,),
          formula="(1/n) sum_i [y_i among the k highest-scored classes of case i]")
def top_k_accuracy(t: CountTable, *, k: int = 1) -> float:
    """Share of cases whose true class is among the k best-scored classes.

    For two classes (as scikit-learn): k = 1 is the accuracy of the rule
    ``score > 0.5`` when the scores lie in [0, 1] (``score > 0`` otherwise: margins),
    and k = 2 is 1. On a multiclass evaluation ``mev.value("top_k_accuracy", k=3)``
    reads the probability matrix. k larger than the number of classes is an error.

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 0, 1, 0], [0.9, 0.5, 0.4, 0.2])
    >>> top_k_accuracy(t), top_k_accuracy(t, k=2)
    (0.75, 1.0)
    """
    kk = _check_k(k, 2)
    if kk == 2:
        return 1.0
    pos_half, neg_half, pos_zero, neg_zero = _top1_sums(t)
    hits = pos_half + neg_half if t.probabilities_ok else pos_zero + neg_zero
    return hits / float(t.total)


def _top1_sums(t: CountTable) -> tuple[float, ...]:
    """The sums of :data:`TOP1`, memoised under its key (where a bootstrap replicate
    known by its sums holds them): on binned scores the engine's sums over the raw
    scores; on a table, read at two cuts, since the table is sorted: the rows with
    score > c are the cut at the next float above c, so the hits are its positives and
    the negatives after it (two prefix sums, not four passes)."""
    if t.binning is not None:
        return table_sums(t, TOP1)

    def compute() -> tuple[float, ...]:
        cuts = [t.cut_index(np.nextafter(c, np.inf)) for c in (0.5, 0.0)]
        tp, fp = t.prefix_sums_at(cuts)
        return float(tp[0]), t.N - float(fp[0]), float(tp[1]), t.N - float(fp[1])

    return t.memo((TOP1.key,), compute)
