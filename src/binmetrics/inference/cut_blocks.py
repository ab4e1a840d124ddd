"""Bootstrap replicates as the confusion matrices of the cuts that end at a score holding
positives, for choosing a cut on each replicate (``best_threshold(..., ci=True)``).

For a measure declared ``monotone_in_fp`` (:class:`~binmetrics.measures.Measure`), a cut
whose last score holds negatives only is never better than the stricter cut without it
(the same TP, fewer or as many FP), so the strictest best cut of every replicate is cut
0 or a cut ``g + 1`` with ``g`` a score of the table holding positives. Only those
``m + 1`` cuts (m the number of such scores; a tenth of all cuts at a prevalence of 0.1
with distinct scores) are summed here, straight from the replicates' cell counts
(:mod:`binmetrics.inference._replicates`): the positives' counts cumulated, the
negatives' counts summed per run between two such scores and cumulated. The draws are
those of :func:`~binmetrics.inference.resampling.bootstrap_count_blocks` with the same
arguments (stratified), so the choices equal those of the full scan.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.inference._replicates import _BootstrapSampler
from binmetrics.table.counts import Confusion, CountTable
from binmetrics.validation import check_random_state, check_resamples

__all__ = ["bootstrap_positive_cuts", "positive_cuts"]


def positive_cuts(table: CountTable) -> npt.NDArray[np.intp]:
    """Cut 0, then the cut just below each score holding positives, ascending.

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 0, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.5])
    >>> positive_cuts(t).tolist()
    [0, 1, 4]
    """
    return np.concatenate(([0], np.flatnonzero(table.pos) + 1)).astype(np.intp)


def bootstrap_positive_cuts(table: CountTable, n_resamples: int, *,
                            random_state: Any = None) -> Iterator[Confusion]:
    """Blocks of stratified bootstrap replicates of an unweighted table with both
    classes, as :class:`Confusion` arrays of shape (replicates in the block, m + 1) at
    :func:`positive_cuts`: the same draws as
    :func:`~binmetrics.inference.resampling.bootstrap_count_blocks`.

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 0, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.5])
    >>> c = next(bootstrap_positive_cuts(t, 2, random_state=0))
    >>> c.tp.shape, bool((c.tp + c.fn == 2).all()), bool((c.fp + c.tn == 3).all())
    ((2, 3), True, True)
    """
    if table.weighted or table.case_costs is not None or not (table.P > 0 and table.N > 0):
        raise ValueError("the cuts of positive scores need an unweighted table with both "
                         "classes and no per-case costs")
    B = check_resamples(n_resamples)
    sampler = _BootstrapSampler(table, True)
    rng = np.random.default_rng(check_random_state(random_state))
    ipos = np.flatnonzero(table.pos)
    m = ipos.size
    # the run of each negative cell: how many positive scores lie strictly above it, + 1
    run = np.searchsorted(ipos, np.flatnonzero(table.neg), side="left") + 1
    starts = np.flatnonzero(np.r_[True, run[1:] != run[:-1]])
    run_of_start = run[starts]
    for block in sampler.blocks(rng, B):
        c_pos, c_neg = block.cell_counts()
        b = c_pos.shape[0]
        tp = np.zeros((b, m + 1), dtype=np.int64)
        np.cumsum(c_pos, axis=1, out=tp[:, 1:])
        runs = np.zeros((b, m + 2), dtype=np.int64)
        runs[:, run_of_start] = np.add.reduceat(c_neg, starts, axis=1)
        fp_all = np.cumsum(runs, axis=1)
        fp = fp_all[:, : m + 1]
        yield Confusion(tp=tp.astype(np.float64), fp=fp.astype(np.float64),
                        fn=(tp[:, -1:] - tp).astype(np.float64),
                        tn=(fp_all[:, -1:] - fp).astype(np.float64))
