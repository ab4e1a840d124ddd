"""The binned calibration measures of many bootstrap replicates from their per-bin sums.

ECE and MCE with uniform bins (the measures that declare
:attr:`~binmetrics.measures.Measure.bin_sums` in the registry) are functions of five
sums per bin: the weight of its cases, of its positives, and the sums of w p, w p^2
and of p over the positives (:class:`~binmetrics.measures.calibration.CalibrationBins`).
The parameters fix the bins' edges, so they are the same for every replicate, and the
cells a bootstrap resamples (per stratum, the positive cells then the negative cells,
each in descending score order) fall into contiguous runs per bin. A replicate's
per-bin sums are then its cell counts summed over those runs (``np.add.reduceat``,
whole numbers: exact) and its counts times p and p^2 over them (each run's values taken
once per call). The measure's own formula (``BinSums.value``, the one its function
applies) reads them; no replicate table is built. Quantile bins depend on the replicate
and stay on the table path.

A cell's bin is the number of inner edges below its score, as
:func:`~binmetrics.measures.calibration.calibration_bins` assigns it (a bin is closed on
the right, the first also holds 0). The counts and weights are exact, so each
replicate's bins equal those of its table bit for bit in them; the sums of p are taken in
another order (1e-12 relative in the tests).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.inference._counting import run_counts, run_dots
from binmetrics.inference._replicate_sums import class_ranges
from binmetrics.measures import Measure
from binmetrics.measures.calibration import CalibrationBins
from binmetrics.table.counts import FloatArray

__all__: list[str] = []

#: (measure's declaration, the edges its parameters fix)
BinsOf = tuple[Any, FloatArray]


def bins_of(m: Measure, params: Mapping[str, Any]) -> BinsOf | None:
    """The measure's bin-sums declaration with the edges ``params`` fix, or None when it
    declares none or its bins depend on the data."""
    decl = m.bin_sums
    if decl is None:
        return None
    edges = decl.edges(**params)
    return None if edges is None else (decl, np.asarray(edges, dtype=np.float64))


class _BinsPlan:
    """The runs of cells each bin holds, per stratum and class, for one set of edges.

    ``parts[i]`` lists, for stratum i, ``(lo, hi, positive, starts, stops, bins, p)``:
    the stratum's local columns [lo, hi) of one class, the runs' local starts and stops
    inside them, each run's bin, and the cells' p and p^2 (two rows).
    """

    def __init__(self, sampler: Any, edges: FloatArray) -> None:
        cells = sampler.cells
        self.edges = edges
        self.n_bins = int(edges.size - 1)
        self.strata = sampler.strata
        self.draws = sampler.n_draws
        scores = np.asarray(sampler.table.scores, dtype=np.float64)[cells.group]
        # bin k holds edges[k] < p <= edges[k+1] (the first also p = edges[0]): the
        # number of inner edges below p, as calibration_bins' bisection counts them
        bins = np.searchsorted(edges[1:-1], scores, side="left")
        self.parts: list[list[tuple[Any, ...]]] = []
        for st in sampler.strata:
            parts = []
            for lo, hi, positive in class_ranges(st, cells.n_pos):
                b = bins[lo:hi]  # scores descend, so bins never increase
                starts = np.flatnonzero(np.r_[True, b[1:] != b[:-1]]).astype(np.intp)
                stops = np.r_[starts[1:], hi - lo]
                p = scores[lo:hi]
                parts.append((lo - st.lo, hi - st.lo, positive, starts, stops, b[starts],
                              np.stack((p, p * p))))
            self.parts.append(parts)

    def sums(self, counts: list[npt.NDArray[Any]], units: tuple[float, ...],
             weighted: bool) -> FloatArray:
        """(5, b, n_bins): per replicate and bin, the weight, the positives' weight and
        the sums of w p, w p^2 and of p over the positives."""
        b = counts[0].shape[0] if counts else 0
        out = np.zeros((5, b, self.n_bins))
        for c, parts, unit in zip(counts, self.parts, units, strict=True):
            w = unit if weighted else 1.0
            for lo, hi, positive, starts, stops, keys, p in parts:
                n = run_counts(c[:, lo:hi], starts, draws=self.draws) * w
                out[0][:, keys] += n
                sum_p, sum_p2 = run_dots(c, lo, p, starts, stops, draws=self.draws) * w
                out[2][:, keys] += sum_p
                out[3][:, keys] += sum_p2
                if positive:
                    out[1][:, keys] += n
                    out[4][:, keys] += sum_p
        return out


def bin_values(block: Any, bins: BinsOf, params: Mapping[str, Any]) -> FloatArray | None:
    """The measure of each replicate of a bootstrap block from its per-bin sums, or None
    when the table takes the table path (binned scores, which the measure refuses, or
    scores outside [0, 1]). The plan of each set of edges is kept on the sampler, and
    the block's sums for it on the block (ECE and MCE at the same bins share them)."""
    sampler = block.s
    table = sampler.table
    if table.binning is not None or not table.probabilities_ok:
        return None
    decl, edges = bins
    key = tuple(edges.tolist())
    plan = sampler.bin_plans.get(key)
    if plan is None:
        plan = sampler.bin_plans[key] = _BinsPlan(sampler, edges)
    sums = block.kept(("bins", key), lambda: plan.sums(
        block.counts_as_drawn(), tuple(st.unit_weight for st in sampler.strata),
        table.weighted))
    out = np.empty(sums.shape[1])
    for i in range(out.size):
        got = CalibrationBins(edges, *(s[i] for s in sums))
        out[i] = decl.value(got, **params)
    return out
