"""Binning in-memory arrays (:func:`binned_table`): the count table the file and Spark
engines build with a group-by, for tests, streams and small data.

The bin grid is :class:`binmetrics.table.binning.BinSpec`; the raw sums kept for the
probabilistic measures are :mod:`binmetrics.measures.sums`; the bounds on what binning
can have changed are :mod:`binmetrics.evaluation.bounds`.
"""

from __future__ import annotations

from typing import Any

from binmetrics.measures.sums import raw_sums_of_rows
from binmetrics.table.binning import Binning, BinSpec, check_bin_args
from binmetrics.table.counts import CountTable
from binmetrics.validation import NanPolicy, check_binary_inputs, check_threshold

__all__ = ["binned_table"]


def binned_table(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    decimals: int | None = None,
    bins: Any = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
    threshold: float | None = None,
) -> CountTable:
    """The count table of binned scores, from in-memory arrays (what the file and Spark
    engines build with a group-by).

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, nan_policy :
        As in :func:`binmetrics.evaluate`.
    decimals : int in [0, 15], optional
        Bin k is [k / 10^d, (k + 1) / 10^d), represented by its lower edge
        floor(score * 10^d) / 10^d: a threshold on that grid cuts exactly.
    bins : int or array of edges, optional
        ``B``: B equal-width bins on [min, max] of the scores; an array: the bin
        edges (the last bin is closed; scores outside are an error).
    threshold : float, optional
        The threshold the table will be evaluated at, made one more bin edge (as the
        engines do with theirs) so that the confusion matrix there is exact.

    Returns
    -------
    CountTable
        Its ``binning`` (:class:`Binning`) holds the probabilistic sums of the raw
        scores; ``Evaluation(table).error_bounds()`` bounds the ranking measures. An
        Evaluation at a threshold inside an occupied bin warns that its confusion
        matrix is not the raw one.

    Examples
    --------
    >>> import binmetrics as bm
    >>> y, s = [1, 0, 1, 1, 0, 0], [0.93, 0.91, 0.42, 0.47, 0.44, 0.08]
    >>> t = binned_table(y, s, decimals=1)
    >>> t.scores.tolist(), t.pos.tolist(), t.neg.tolist()
    ([0.9, 0.4, 0.0], [1, 2, 0], [1, 1, 1])
    >>> ev = bm.Evaluation(t)
    >>> ev["brier"] == bm.evaluate(y, s)["brier"]  # summed over the raw scores
    True
    >>> round(ev["auc"], 4), round(ev.binning_error("auc"), 4)  # pairs in bins: (1 + 2)/(2 P N)
    (0.6111, 0.1667)
    >>> from binmetrics.evaluation.bounds import value_bounds
    >>> lo, hi = value_bounds(ev, "auc")
    >>> bool(lo <= bm.evaluate(y, s)["auc"] <= hi)
    True
    >>> t = binned_table(y, s, decimals=1, threshold=0.45)  # 0.47 is represented by 0.45
    >>> t.scores.tolist(), bm.Evaluation(t, threshold=0.45).confusion.tp
    ([0.9, 0.45, 0.4, 0.0], 2)
    """
    check_bin_args(decimals, bins)
    if threshold is not None:
        threshold = check_threshold(threshold)
    if decimals is None and bins is None:
        raise ValueError("binned_table needs decimals= or bins=")
    inp = check_binary_inputs(y_true, y_score, sample_weight, pos_label=pos_label,
                              nan_policy=nan_policy)
    low, high = float(inp.score.min()), float(inp.score.max())
    spec = BinSpec.resolve(decimals, bins, low, high, threshold=threshold)
    assert spec is not None
    table = CountTable.from_validated(inp.y, spec.assign(inp.score), inp.weight)
    prior = table.prevalence
    table.binning = Binning(spec=spec, score_range=(low, high),
                            raw=raw_sums_of_rows(inp.y, inp.score, inp.weight, prior),
                            prior=prior)
    return table
