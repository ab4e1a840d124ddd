"""Bootstrap replicates as the confusion matrices of the cuts that end at a score holding
positives, for choosing a cut on each replicate (``best_threshold(..., ci=True)``).

For a measure declared ``monotone_in_fp`` (:class:`~binmetrics.measures.Measure`), a cut
whose last score holds negatives only is never better than the stricter cut without it
(the same TP, fewer or as many FP), so the strictest best cut of every replicate is a
cut ``g + 1`` with ``g`` a score of the table holding positives, or a cut above the
first such score. The exception is why the latter are all kept: with no true positive,
the stricter cut may have no predicted positive at all (cut 0: precision and MCC are
undefined there) where the cut has some; with a true positive every denominator of the
cut's stricter one is positive. Only those cuts (a tenth of all cuts and a few at a
prevalence of 0.1 with distinct scores) are summed here, straight from the replicates'
cell counts
(:mod:`binmetrics.inference._replicates`): the positives' counts cumulated, the
negatives' counts summed per run between two such scores and cumulated. The draws are
those of :func:`~binmetrics.inference.resampling.bootstrap_count_blocks` with the same
arguments (stratified), so the choices equal those of the full scan.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.inference._counting import compiled_kernels, draw_cumulative
from binmetrics.inference._replicates import _BootstrapSampler
from binmetrics.table.counts import Confusion, CountTable
from binmetrics.validation import check_random_state, check_resamples

__all__ = ["bootstrap_positive_cuts", "positive_cut_streams", "positive_cuts"]


def positive_cuts(table: CountTable) -> npt.NDArray[np.intp]:
    """Every cut down to the first score holding positives, then the cut just below each
    further score holding positives, ascending (a table with positives).

    Examples
    --------
    >>> t = CountTable.from_arrays([0, 1, 0, 0, 1, 0], [0.95, 0.9, 0.8, 0.7, 0.6, 0.5])
    >>> positive_cuts(t).tolist()
    [0, 1, 2, 5]
    """
    ipos = np.flatnonzero(table.pos)
    return np.concatenate((np.arange(ipos[0] + 1), ipos + 1)).astype(np.intp)


def bootstrap_positive_cuts(table: CountTable, n_resamples: int, *,
                            random_state: Any = None) -> Iterator[Confusion]:
    """Blocks of stratified bootstrap replicates of an unweighted table with both
    classes, as :class:`Confusion` arrays of shape (replicates in the block, number of
    :func:`positive_cuts`) at those cuts: the same draws as
    :func:`~binmetrics.inference.resampling.bootstrap_count_blocks`.

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 0, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.5])
    >>> c = next(bootstrap_positive_cuts(t, 2, random_state=0))
    >>> c.tp.shape, bool((c.tp + c.fn == 2).all()), bool((c.fp + c.tn == 3).all())
    ((2, 3), True, True)
    """
    for _, stream in positive_cut_streams(table, n_resamples, random_state=random_state):
        yield from stream()


def positive_cut_streams(table: CountTable, n_resamples: int, *, random_state: Any = None
                         ) -> list[tuple[int, Callable[[], Iterator[Confusion]]]]:
    """The blocks of :func:`bootstrap_positive_cuts` as streams ``(replicates, blocks)``,
    each drawn by its own generator (as
    :func:`~binmetrics.inference.resampling.bootstrap_count_streams`): the same blocks
    whichever thread draws them."""
    if table.weighted or table.case_costs is not None or not (table.P > 0 and table.N > 0):
        raise ValueError("the cuts of positive scores need an unweighted table with both "
                         "classes and no per-case costs")
    B = check_resamples(n_resamples)
    sampler = _BootstrapSampler(table, True)
    rng = np.random.default_rng(check_random_state(random_state))
    ipos = np.flatnonzero(table.pos)
    g0, m = int(ipos[0]), ipos.size
    # the first of the cuts that count each negative cell: its own score's lower cut
    # above the first positive score, else the one below the next score with positives
    neg = np.flatnonzero(table.neg)
    run = np.minimum(neg, g0) + 1 + np.searchsorted(ipos, neg, side="left")
    width = g0 + 1 + m  # the number of cuts
    starts = np.flatnonzero(np.r_[True, run[1:] != run[:-1]])
    run_of_start = run[starts]

    st_pos, st_neg = sampler.strata
    # equally likely index draws: counted straight into the cumulative TP and FP (each
    # negative cell through its run), with no table of cell counts (:mod:`._counting`)
    direct = (st_pos.method == st_neg.method == "index" and st_pos.cum_weight is None
              and st_neg.cum_weight is None)
    # each unit (a case, or a cell when each holds one case) drawn counts at every cut
    # from its cell's first one: the cumulative counts are read where each cut's units end
    pos_unit_cut = (np.arange(m) if st_pos.unit_cell is None else st_pos.unit_cell)
    pos_ends = np.searchsorted(pos_unit_cut, np.arange(m), side="right")
    neg_unit_cut = run if st_neg.unit_cell is None else run[st_neg.unit_cell]
    neg_ends = np.searchsorted(neg_unit_cut, np.arange(width + 1), side="right")
    compiled_kernels(sampler.n_draws)  # imports numba, if any, before the threads start

    def blocks(child: np.random.Generator, n: int) -> Iterator[Confusion]:
        if direct:  # the blocks of sampler.stream_blocks, each stratum's draws counted
            done = 0  # as they are made (the same counts: _counting.draw_cumulative)
            while done < n:
                b = min(sampler.block, n - done)
                tp = np.zeros((b, width))
                fp_all = np.empty((b, width + 1))
                draw_cumulative(child, st_pos.n_units, (b, st_pos.draws), pos_ends,
                                tp[:, g0 + 1:])
                draw_cumulative(child, st_neg.n_units, (b, st_neg.draws), neg_ends, fp_all)
                done += b
                yield _confusion(tp, fp_all)
            return
        for block in sampler.stream_blocks(child, n):
            c_pos, c_neg = block.cell_counts()
            tp = np.zeros((block.size, width))
            np.cumsum(c_pos, axis=1, out=tp[:, g0 + 1:])
            runs = np.zeros((block.size, width + 1), dtype=np.int64)
            runs[:, run_of_start] = np.add.reduceat(c_neg, starts, axis=1)
            yield _confusion(tp, np.cumsum(runs, axis=1).astype(np.float64))

    def _confusion(tp: Any, fp_all: Any) -> Confusion:
        fp = fp_all[:, :width]
        return Confusion(tp=tp, fp=fp, fn=tp[:, -1:] - tp, tn=fp_all[:, -1:] - fp)

    return [(b, functools.partial(blocks, child, b)) for child, b in sampler.streams(rng, B)]
