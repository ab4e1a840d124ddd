"""Per-case scores (Berrar Defs. 22, 23 and 35, Fig. 8b): :func:`per_case_scores` for the
rows of the data, and :meth:`PerCaseMethods.per_case` for an evaluation's count table
(a mixin of :class:`~binmetrics.Evaluation`, so that ``evaluation/binary.py`` stays
small).

The columns are the terms of the registry's probabilistic measures
(:func:`binmetrics.measures.per_case.case_scores`): their weighted means are
``information_score``, ``focal_loss``, ``hinge_loss``, ``log_loss`` and ``brier``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from binmetrics.exceptions import UndefinedPolicy, report_undefined, undefined_policy
from binmetrics.measures._util import EPS
from binmetrics.measures.per_case import CASE_SCORES, case_scores, undefined_prior
from binmetrics.validation import NanPolicy, as_1d, as_float, check_binary_inputs

if TYPE_CHECKING:
    import pandas as pd

    from binmetrics.table.counts import CountTable

__all__ = ["PerCaseMethods", "per_case_scores"]

_OUTSIDE = ("the scores are not probabilities in [0, 1], so only the hinge loss (of "
            "signed distances) is defined per case")


def _scores(y: Any, s: Any, prior: float | None, prevalence: float, **params: Any
            ) -> dict[str, Any]:
    pi = undefined_prior(prior, prevalence, "information_score")
    out = case_scores(y, s, prior=pi, **params)
    if np.asarray(s).size and np.isnan(out["log_loss"]).all():
        probability = ", ".join(c for c in CASE_SCORES if c != "hinge_loss")
        report_undefined(f"each probability column of the per-case scores ({probability})",
                         _OUTSIDE)
    return out


def per_case_scores(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
    prior: float | None = None,
    gamma: float = 2.0,
    alpha: float | None = None,
    base: float = 2.0,
    eps: float = EPS,
) -> pd.DataFrame:
    """Each case's information score, focal loss, hinge loss, log loss and squared error
    (Berrar Defs. 23, 22, 35, 20 and 18), aligned with the input.

    The registry's measures are the (weighted) means of these columns:
    ``information_score``, ``focal_loss``, ``hinge_loss``, ``log_loss`` and ``brier``
    of ``bm.evaluate(y_true, y_score, sample_weight=...)`` with the same parameters.
    Berrar lists the information score of each of his ten cases under Def. 23 and
    draws their hinge losses in Fig. 8b (``ev.plot("case_losses")``).

    Parameters
    ----------
    y_true, y_score : array-like
        Labels and scores, one per case. The information score, focal loss, log loss
        and squared error read the scores as probabilities of the positive class in
        [0, 1]; the hinge loss reads them as signed distances from the decision
        boundary (labels as -1/+1), so scores outside [0, 1] give it alone (the other
        columns are NaN, with one warning).
    sample_weight : array-like, optional
        Case weights: the ``sample_weight`` column, and the weights of the means.
    pos_label : optional
        The positive class (needed unless labels are 0/1, -1/1 or booleans).
    nan_policy : {"raise", "omit"}
        "omit": rows with a NaN or infinite score keep their place with NaN scores.
    prior : float in (0, 1), optional
        The prior probability of the positive class for the information score; default
        the (weighted) prevalence of the data, as the ``information_score`` measure.
    gamma, alpha : the focal loss's parameters (default 2 and no class weight).
    base, eps : the logarithm base (default 2, bits) and the clipping of p and 1 - p
        inside the logarithms (as ``log_loss``).

    Returns
    -------
    pandas.DataFrame
        One row per input row, with the index of ``y_score`` (or ``y_true``) when it is
        a pandas object: ``y_true`` (True for a positive), ``y_score``,
        ``sample_weight``, then ``information_score``, ``focal_loss``, ``hinge_loss``,
        ``log_loss``, ``squared_error``.

    Examples
    --------
    >>> import binmetrics as bm
    >>> y = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
    >>> p = [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]
    >>> cases = bm.per_case_scores(y, p)
    >>> cases["information_score"].round(3).tolist()  # Berrar, under Def. 23
    [0.926, 0.678, -0.585, 0.263, 0.0, 0.138, 0.485, -0.585, 0.678, 0.848]
    >>> mean = float(cases["information_score"].mean())  # I_r = 0.2846: the prior's entropy is 1
    >>> round(mean, 4), round(bm.evaluate(y, p)["information_score"], 4)
    (0.2846, 0.2846)
    >>> round(float(cases["squared_error"].mean()), 3)  # Berrar eq. 18: MSE = 0.192
    0.192
    """
    import pandas as pd

    inputs = check_binary_inputs(y_true, y_score, sample_weight, pos_label=pos_label,
                                 nan_policy=nan_policy, rescale_weights=False)
    raw = as_float(as_1d(y_score, "y_score"), "y_score")
    keep = np.isfinite(raw)
    w = np.ones(inputs.score.size) if inputs.weight is None else inputs.weight
    total = float(w.sum())
    prevalence = float(w[inputs.y].sum()) / total if total > 0 else float("nan")
    cols = _scores(inputs.y, inputs.score, prior, prevalence, gamma=gamma, alpha=alpha,
                   base=base, eps=eps)
    index = next((x.index for x in (y_score, y_true) if isinstance(x, (pd.Series, pd.DataFrame))),
                 None)
    frame = pd.DataFrame(index=index if index is not None and len(index) == raw.size
                         else pd.RangeIndex(raw.size))
    y = np.zeros(raw.size, dtype=bool)
    y[keep] = inputs.y
    frame["y_true"] = y
    frame["y_score"] = raw
    weight = np.full(raw.size, np.nan)
    weight[keep] = w
    frame["sample_weight"] = weight
    for name, values in cols.items():
        full = np.full(raw.size, np.nan)
        full[keep] = values
        frame[name] = full
    return frame


class PerCaseMethods:
    """``ev.per_case()``: the per-case scores of an evaluation's count table."""

    table: CountTable
    undefined: UndefinedPolicy
    #: scores between the table's units and the user's (:meth:`Evaluation.oriented`)
    oriented: Callable[[Any], Any]

    def per_case(self, *, prior: float | None = None, gamma: float = 2.0,
                 alpha: float | None = None, base: float = 2.0,
                 eps: float = EPS) -> pd.DataFrame:
        """The per-case scores of the evaluation (Berrar Defs. 23, 22, 35, 20, 18), one
        row per distinct score and class of its count table.

        An evaluation keeps its count table, not its rows: the cases of one class with
        one score share every per-case score, so they are one row, with their number
        (or total weight) in ``weight``. For one row per input row, aligned with the
        input's index, use :func:`binmetrics.per_case_scores`. The weighted means of
        the columns are the evaluation's ``information_score``, ``focal_loss``,
        ``hinge_loss``, ``log_loss`` and ``brier`` (with the same parameters).

        Parameters
        ----------
        prior, gamma, alpha, base, eps
            As :func:`binmetrics.per_case_scores`.

        Returns
        -------
        pandas.DataFrame
            ``score`` (in the scores' own units), ``positive`` (the class), ``weight``,
            ``rank`` (the average rank of the cases by decreasing score, ties sharing
            it, as in Berrar's Fig. 8b), then ``information_score``, ``focal_loss``,
            ``hinge_loss``, ``log_loss``, ``squared_error``; rows by decreasing score,
            positives first within a score.

        Examples
        --------
        >>> import binmetrics as bm
        >>> ev = bm.evaluate([1, 1, 0, 1, 0], [.9, .6, .6, .3, .1])
        >>> cases = ev.per_case()
        >>> cases["rank"].tolist(), cases["positive"].tolist()
        ([1.0, 2.5, 2.5, 4.0, 5.0], [True, True, False, True, False])
        >>> w = cases["weight"]
        >>> bool(abs((cases["hinge_loss"] * w).sum() / w.sum() - ev["hinge_loss"]) < 1e-12)
        True
        """
        import pandas as pd

        t = self.table
        if t.binning is not None:
            raise ValueError("per_case needs the scores themselves; this evaluation holds "
                             "binned scores (their bin representatives): use "
                             "bm.per_case_scores(y_true, y_score) on the rows")
        has_p, has_n = t.pos > 0, t.neg > 0
        group = np.concatenate((np.flatnonzero(has_p), np.flatnonzero(has_n)))
        positive = np.concatenate((np.ones(int(has_p.sum()), bool),
                                   np.zeros(int(has_n.sum()), bool)))
        order = np.lexsort((~positive, group))  # by decreasing score, positives first
        group, positive = group[order], positive[order]
        s = t.scores[group]
        weight = np.where(positive, t.pos[group], t.neg[group]).astype(np.float64)
        before = np.concatenate(([0.0], np.cumsum(t.pos + t.neg, dtype=np.float64)[:-1]))
        rank = before[group] + ((t.pos + t.neg)[group] + 1.0) / 2.0
        with undefined_policy(self.undefined):
            cols = _scores(positive, s, prior, t.prevalence, gamma=gamma, alpha=alpha,
                           base=base, eps=eps)
        frame = pd.DataFrame({"score": self.oriented(s), "positive": positive,
                              "weight": weight, "rank": rank})
        for name, values in cols.items():
            frame[name] = values
        return frame
