r"""One-vs-one multiclass AUC: Hand & Till's M and its prevalence-weighted form.

For classes :math:`i \ne j`, :math:`\hat A(i \mid j)` is the AUC of the probability of
class *i* as a score separating the cases of class *i* (positives) from those of class
*j* (negatives), on those cases alone (ties count one half). Hand and Till (2001) average
the two directions and then the pairs,

.. math::  \hat A(i, j) = \frac{\hat A(i \mid j) + \hat A(j \mid i)}{2}, \qquad
           M = \frac{2}{c (c - 1)} \sum_{i < j} \hat A(i, j),

over the *c* classes that have cases. This is scikit-learn's
``roc_auc_score(y, proba, multi_class="ovo", average="macro")`` and pROC's
``multiclass.roc(y, proba)`` (the multivariate form). ``average="weighted"`` in
scikit-learn weights each pair by the share of the cases that belong to it,
:math:`(n_i + n_j)/n`; binmetrics calls that ``"ovo_weighted"``. With sample weights the
AUCs and the shares are weighted (scikit-learn takes no weights here).

References
----------
Hand, D. J. and Till, R. J. (2001). A simple generalisation of the area under the ROC
curve for multiple class classification problems. *Machine Learning* 45, 171-186.
"""

from __future__ import annotations

import numpy as np

from binmetrics.measures.multiclass import MulticlassData
from binmetrics.measures.ranking import auc
from binmetrics.table.counts import CountTable

__all__ = ["OVO_AVERAGES", "one_vs_one_auc"]

#: the ``average=`` values of a multiclass AUC that this module computes
OVO_AVERAGES = ("hand_till", "ovo_weighted")


def _pair_auc(data: MulticlassData, a: int, b: int, col: int) -> float:
    mask = (data.codes == a) | (data.codes == b)
    w = None if data.weight is None else data.weight[mask]
    # the multiclass door checked labels, probabilities and weights: no second check
    t = CountTable.from_validated(data.codes[mask] == col, data.proba[mask, col], w)
    return float(auc(t))


def one_vs_one_auc(data: MulticlassData, *, weighted: bool = False) -> float:
    r"""Hand & Till's M (``weighted=False``) or the pair-prevalence-weighted mean of the
    pairwise AUCs :math:`\hat A(i, j)` (``weighted=True``).

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([0, 0, 1, 1, 2, 2])
    >>> proba = np.array([[.8, .1, .1], [.4, .5, .1], [.3, .6, .1],
    ...                   [.2, .3, .5], [.1, .2, .7], [.2, .1, .7]])
    >>> cm = np.zeros((3, 3))
    >>> data = MulticlassData(classes=[0, 1, 2], codes=y, proba=proba, weight=None, cm=cm)
    >>> round(one_vs_one_auc(data), 12)
    0.958333333333
    """
    w = np.ones(data.codes.size) if data.weight is None else data.weight
    share = np.bincount(data.codes, weights=w, minlength=data.n_classes)
    present = [int(c) for c in np.flatnonzero(share > 0)]
    if len(present) < 2:
        data.report("auc", "one-vs-one AUC needs cases of at least two classes")
        return float("nan")
    values, weights = [], []
    for i, a in enumerate(present):
        for b in present[i + 1:]:
            values.append((_pair_auc(data, a, b, a) + _pair_auc(data, a, b, b)) / 2.0)
            weights.append((share[a] + share[b]) / share.sum())
    return float(np.average(values, weights=weights if weighted else None))
