"""The logistic calibration fits of many bootstrap replicates from their cell counts.

The fit measures (calibration slope, intercept, in-the-large) declare the pass
:data:`~binmetrics.measures.logistic_fit.FITS` in the registry; on a table they read its
value, memoised under ``("logistic_fits",)``, from
:func:`~binmetrics.measures.logistic_fit.fit_table`. A bootstrap replicate draws each
(score, label) cell of the table some number of times, so its fits are those of the
cells weighted by their counts, and need no replicate table:

1. the logit of each cell's score is taken once per call (per sampler), as the
   replicate sums take their terms once (:mod:`~binmetrics.inference._replicate_sums`);
2. per replicate, the cells strictly inside (0, 1) are compressed into bins of
   logit(p) (:data:`~binmetrics.measures.logistic_fit.REPLICATE_BINS`: 2^-9 wide,
   moments up to the sixth; a bin never mixes classes, so sum(y) is exact): each
   bin's moments of its cells' places within it, weighted by the counts (multiply-adds
   of counts, no logarithm);
3. both fits are run to convergence by Newton's method on the sums the moments give
   (:func:`~binmetrics.measures.logistic_fit._bin_sums`, exact to about 1e-14),
   started from the fits of the full data (memoised on the table by the point
   estimate). The moments are one compiled pass over the cells where numba is there
   (:func:`~binmetrics.inference._counting.bin_moments`: 3.6 ms at 1e6 cells against
   8.2 with NumPy), and so are Newton's sums from them
   (:func:`~binmetrics.measures.logistic_fit.compiled_bin_sums`, passed to ``_bin_fits``:
   one loop over the bins, about 0.1 ms a step against 0.6 for NumPy's 60-odd calls;
   5.5 -> 0.9 ms a replicate). Both sum in another order than NumPy: compiled and NumPy
   replicates agree to rounding. At 1e6 distinct scores a replicate takes about 11 ms
   (one thread, its draws included), where the exact Newton pass over the cells it
   replaced took about 30.

A replicate whose slope is too steep for the bins, or whose steps are unusual, takes
the path this replaced: its cells compressed into one class within each of about
:data:`~binmetrics.measures.logistic_fit.N_BLOCKS` blocks of the table's rows (each
block's cases and sum of cases x logit(p)), Newton's method on the blocks until a step
is below :data:`COMPRESSED_STEP`, then exact full Newton steps over the replicate's
cells, their counts as case weights, in cache-sized chunks, with the convergence rule
of ``fit_table`` (:func:`~binmetrics.measures.logistic_fit.refine`: a last step below
``FINAL_STEP``, at most ``MAX_PASSES`` passes). A cell the replicate did not draw adds
exact zeros to the sums: in NumPy, selecting the drawn cells (about 63 % of them) costs
more than their terms.

A replicate whose compressed fit does not converge or whose full steps are unusual
(separation, a large step, no convergence) is handed to the measure as its own count
table, so edge cases take the table path exactly (``fit_table``, with its fall-back to
the reference iteration). The measure's function runs unchanged on a stand-in replicate
(:class:`~binmetrics.inference._replicate_sums._SumsTable`) whose memo answers the fits
and the counts of the cases inside (0, 1) and at p exactly 0 or 1; cells at p exactly 0
or 1 are left out of the fits, as on a table. The values agree with ``fit_table`` on
each replicate's table to the fits' own precision (1e-12 relative in the tests), not bit
for bit; they depend on the replicate's counts only, so not on the measures asked nor
on the number of threads.

Tables with at most :data:`~binmetrics.measures.logistic_fit.SMALL_TABLE` rows inside
(0, 1), binned scores, scores outside [0, 1] and data on which the full-data fits are
undefined or do not converge keep the table path.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.inference._counting import COMPILED_ROWS, bin_moments
from binmetrics.inference._replicate_sums import _SumsTable, class_ranges
from binmetrics.measures import logistic_fit as lf
from binmetrics.measures._util import dot
from binmetrics.table.counts import CountTable, FloatArray, block_size

__all__: list[str] = []

_UNSET = object()


#: One class of cells or of compressed blocks: (positive, counts, unit weight (a
#: count's cases), x = logit(p), p or None, x^2, p (1 - p) or None).
_Group = tuple[bool, npt.NDArray[Any], float, FloatArray, "FloatArray | None", FloatArray,
               "FloatArray | None"]


def _chunks(starts: npt.NDArray[np.intp], n: int) -> tuple[tuple[int, int, int, int], ...]:
    """Cache-sized chunks of whole runs (runs starting at ``starts`` among ``n`` cells):
    (first cell, end cell, first run, end run)."""
    m = starts.size
    cuts = np.unique(np.searchsorted(starts, np.arange(0, n, block_size())))
    ends = [*cuts[1:].tolist(), m]
    return tuple((int(starts[b0]), int(starts[b1]) if b1 < m else n, int(b0), b1)
                 for b0, b1 in zip(cuts.tolist(), ends, strict=True))


@dataclass(frozen=True)
class _Segment:
    """The cells of one class within one stratum, strictly inside (0, 1): local cells
    [lo, hi) of stratum ``stratum``, in descending score order, with their bins of
    logit(p) (:data:`~binmetrics.measures.logistic_fit.REPLICATE_BINS`
    wide) and their compressed blocks (the fall-back path)."""

    stratum: int
    lo: int
    hi: int
    positive: bool
    x: FloatArray  # logit(p) of the cells
    s: FloatArray  # p of the cells
    x2: FloatArray  # x^2
    u: FloatArray  # p (1 - p)
    starts: npt.NDArray[np.intp]  # the compressed blocks' first cells, from lo
    chunks: tuple[tuple[int, int, int, int], ...]  # of whole blocks
    edge: FloatArray  # each bin's lower edge
    d: FloatArray  # each cell's place in its bin: x = edge + width d, d in [0, 1)
    bins: npt.NDArray[np.intp]  # the bins' first cells, from lo
    bin_chunks: tuple[tuple[int, int, int, int], ...]  # of whole bins

    @classmethod
    def of(cls, stratum: int, lo: int, hi: int, positive: bool, x: FloatArray,
           s: FloatArray, starts: npt.NDArray[np.intp]) -> _Segment:
        d, bins, edges = lf.logit_bins(x, lf.REPLICATE_BINS[0])
        return cls(stratum, lo, hi, positive, x, s, x * x, s * (1.0 - s), starts,
                   _chunks(starts, hi - lo), edges, d, bins, _chunks(bins, hi - lo))


class _FitsPlan:
    """What the fits of every replicate of a sampler share: the cells' logits, the
    compressed blocks and the full-data fits (see the module docstring)."""

    def __init__(self, sampler: Any, segments: list[_Segment],
                 outside: list[tuple[int, int, int, bool]], start: tuple[Any, Any]) -> None:
        self.weighted = bool(sampler.table.weighted)
        self.draws = sampler.n_draws
        self.strata = sampler.strata
        self.segments = segments
        self.outside = outside  # (stratum, lo, hi, positive): cells at p exactly 0 or 1
        self.start = start

    @classmethod
    def of(cls, sampler: Any) -> _FitsPlan | None:
        """The plan of a bootstrap sampler, or None where the table path is kept."""
        t: CountTable = sampler.table
        if t.binning is not None or not t.probabilities_ok or not sampler.strata:
            return None
        i0, i1 = lf.inside(t)
        total, npos = lf.cases_inside(t)
        if i1 - i0 <= lf.SMALL_TABLE or not 0 < npos < total:
            return None
        slope, citl, _ = t.memo(("logistic_fits",), lambda: lf.fit_table(t))
        if slope is None or citl is None:  # separated data: the replicates' tables decide
            return None
        cells = sampler.cells
        scores = t.scores[cells.group]
        # the compressed blocks: the cells of one class within one of the table's blocks
        # of rows (about N_BLOCKS of them, as fit_table's), so that a block spans the
        # scores of a few rows whatever the class's share of the cells
        blocks = lf.N_BLOCKS * (2 if i1 - i0 > 64 * lf.N_BLOCKS else 1)
        size = -(-(i1 - i0) // blocks)  # rows per block
        segments: list[_Segment] = []
        outside: list[tuple[int, int, int, bool]] = []
        with np.errstate(all="ignore"):
            for k, st in enumerate(sampler.strata):
                for lo, hi, positive in class_ranges(st, cells.n_pos):
                    g = cells.group[lo:hi]  # ascending: p = 1 first, p = 0 last
                    j0 = lo + int(np.searchsorted(g, i0))
                    j1 = lo + int(np.searchsorted(g, i1))
                    outside += [(k, a - st.lo, b - st.lo, positive)
                                for a, b in ((lo, j0), (j1, hi)) if b > a]
                    if j1 <= j0:
                        continue
                    key = (cells.group[j0:j1] - i0) // size
                    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]]).astype(np.intp)
                    s = scores[j0:j1]
                    segments.append(_Segment.of(k, j0 - st.lo, j1 - st.lo, positive,
                                                lf._logit(s), s, starts))
        return cls(sampler, segments, outside, (slope, citl))

    def tables(self, block: Any) -> list[CountTable]:
        """Per replicate of the block, a stand-in answering its fits, or its own table
        where the fits need the table path."""
        counts = block.counts_as_drawn()  # read by bin_moments and float sums only
        out: list[CountTable] = []
        for i in range(block.size):
            rep = self._replicate([c[i] for c in counts])
            out.append(rep if rep is not None else block.tables()[i])
        return out

    def _unit(self, k: int) -> float:
        return float(self.strata[k].unit_weight) if self.weighted else 1.0

    def _replicate(self, rows: list[npt.NDArray[Any]]) -> CountTable | None:
        """The stand-in of one replicate from its cells' counts (one row per stratum),
        or None when its fits need the table path."""
        P = N = dropped = 0.0  # the cases at p exactly 0 or 1, positive and negative
        for k, lo, hi, positive in self.outside:
            d = float(np.sum(rows[k][lo:hi], dtype=np.float64)) * self._unit(k)
            dropped += d
            if positive:
                P += d
            else:
                N += d
        npos = nneg = 0.0
        width, order = lf.REPLICATE_BINS
        edges, moments, pos, pos1 = [], [], [], []
        for g in self.segments:
            counts = rows[g.stratum][g.lo:g.hi]
            S = bin_moments(counts, self._unit(g.stratum), g.d, g.bins, g.bin_chunks, order,
                            draws=self.draws)
            cases = float(S[0].sum())
            edges.append(g.edge)
            moments.append(S)
            if g.positive:
                npos += cases
                pos.append(S[0])
                pos1.append(S[1])
            else:
                nneg += cases
                pos.append(np.zeros(g.bins.size))
                pos1.append(pos[-1])
        memo: dict[Hashable, Any] = {("cases_strictly_inside_0_1",): (npos + nneg, npos),
                                     ("cases_at_p_0_or_1",): dropped > 0}
        if npos > 0 and nneg > 0:  # else undefined: the measure does not read the fits
            bins = (np.concatenate(edges), np.concatenate(moments, axis=1),
                    np.concatenate(pos), np.concatenate(pos1), width)
            with np.errstate(all="ignore"):
                got = lf._bin_fits(bins, list(self.start), [True, False],
                                   sums=lf.compiled_bin_sums(self.draws, COMPILED_ROWS))
            fits = (self._fits([r.astype(np.int64) if r.dtype == np.uint8 else r
                                for r in rows])
                    if any(f is False for f in got) else (got[0], got[1]))
            if fits is None:
                return None
            memo[("logistic_fits",)] = (*fits, dropped)
        return _SumsTable(P + npos, N + nneg, self.weighted, True, memo)

    def _blocks(self, rows: list[npt.NDArray[Any]]
                ) -> tuple[FloatArray, FloatArray, FloatArray, list[_Group]]:
        """The replicate's compressed blocks (mean logit, positives, cases) and its
        classes of cells, for :meth:`_fits`."""
        cells: list[_Group] = []
        xs, ps, ts = [], [], []
        buf = np.empty(max((a1 - a0 for g in self.segments for a0, a1, _, _ in g.chunks),
                           default=0))
        for g in self.segments:
            counts = rows[g.stratum][g.lo:g.hi]
            w = self._unit(g.stratum)
            cells.append((g.positive, counts, w, g.x, g.s, g.x2, g.u))
            tot, sx = np.empty(g.starts.size), np.empty(g.starts.size)
            for a0, a1, b0, b1 in g.chunks:  # in the cache: cases, then cases x logit(p)
                c = buf[:a1 - a0]
                np.multiply(counts[a0:a1], w, out=c)
                starts = g.starts[b0:b1] - a0
                np.add.reduceat(c, starts, out=tot[b0:b1])
                np.multiply(c, g.x[a0:a1], out=c)
                np.add.reduceat(c, starts, out=sx[b0:b1])
            keep = tot > 0
            tot = tot[keep]
            xs.append(sx[keep] / tot)
            ts.append(tot)
            ps.append(tot if g.positive else np.zeros_like(tot))
        return np.concatenate(xs), np.concatenate(ps), np.concatenate(ts), cells

    def _fits(self, rows: list[npt.NDArray[Any]]) -> tuple[lf.Fit, lf.Fit] | None:
        """Both fits of one replicate the bins could not finish (a steep slope, a large
        step): on its compressed blocks from the full-data fits, then exact Newton steps
        over its cells; None for the table path."""
        x, pos, tot, cells = self._blocks(rows)
        slopes = [True, False]
        with np.errstate(all="ignore"):
            blocks: list[_Group] = [
                (cls, tot[k], 1.0, x[k], None, x[k] * x[k], None)
                for cls, k in ((True, pos > 0), (False, pos == 0))]
            starts = _newton(lambda points: _sums(blocks, points, slopes), self.start, slopes)
            if starts is None:
                return None
            fits = lf.refine(lambda points, sl: _sums(cells, points, sl), starts, slopes)
        if any(f is False for f in fits):
            return None
        return fits[0], fits[1]  # type: ignore[return-value]


#: A Newton step on the compressed blocks this small (relative to 1 + |coefficient|)
#: ends their fit: its error, of the order of the step's square, is then far below the
#: compression's own (about 5e-7), which the full step removes.
COMPRESSED_STEP = 1e-4
#: Newton steps on the compressed blocks before the table path decides.
COMPRESSED_ITERATIONS = 8

#: One class of cells or of blocks: (positive, case weights, logit(p), p or None).
_Cells = tuple[bool, FloatArray, FloatArray, "FloatArray | None"]


def _newton(sums: Any, start: tuple[Any, Any], slopes: list[bool]) -> list[lf.Fit] | None:
    """Newton's method for both fits from ``start`` until every step is below
    :data:`COMPRESSED_STEP`; None (the table path) for a step that is not finite or
    larger than 1, or no convergence."""
    cur = [tuple(s) for s in start]
    for _ in range(COMPRESSED_ITERATIONS):
        done = True
        for i, (acc, slope) in enumerate(zip(sums(cur), slopes, strict=True)):
            step = lf._step(acc, slope)
            if step is None or not all(map(math.isfinite, step)) or max(map(abs, step)) > 1:
                return None
            a, b = cur[i]
            cur[i] = (a + step[0], b + step[1])
            done = done and abs(step[0]) <= COMPRESSED_STEP * (1 + abs(a)) and \
                abs(step[1]) <= COMPRESSED_STEP * (1 + abs(b))
        if done:
            return cur  # type: ignore[return-value]
    return None


def _sums(groups: list[_Group], points: list[tuple[float, float]],
          slopes: list[bool]) -> list[FloatArray]:
    """The sums of ``logistic_fit._pass`` (r, r x, v, v x, v x^2 per point) over the
    groups of cells (or of compressed blocks), their weights c as cases: r = c (y - mu),
    v = c mu (1 - mu), mu = expit(a + b x), in cache-sized chunks. A cell a replicate did
    not draw adds exact zeros (selecting the drawn cells costs more than their terms).

    Each is a full pass over a chunk, so the pass takes as few as it can: with
    t = exp(-a - b x) and d = 1 + t, c mu = c / d and v = (c / d^2) t; with slope 1 and
    p known (calibration-in-the-large), d = 1 + (e^a - 1) p, c mu = e^a p (c / d) and
    v = e^a p (1 - p) (c / d^2), with no exponential; sums of products are dot products,
    x^2 and p (1 - p) taken once per call."""
    acc = [np.zeros(5) for _ in points]
    chunk = block_size()  # read now: tests shrink it
    n = min(chunk, max((g[1].size for g in groups), default=0))
    c_buf, t_buf, d_buf, q_buf = np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    for positive, counts, w, xw, sw, x2w, uw in groups:
        for a0 in range(0, counts.size, chunk):
            sl = slice(a0, a0 + chunk)
            x = xw[sl]
            c, t, d, q = c_buf[:x.size], t_buf[:x.size], d_buf[:x.size], q_buf[:x.size]
            np.multiply(counts[sl], w, out=c)  # the cells' cases
            cases = float(c.sum()) if positive else 0.0
            cx = dot(c, x) if positive and any(slopes) else 0.0
            for out, (a, b), slope in zip(acc, points, slopes, strict=True):
                if slope or sw is None:
                    np.multiply(x, -b, out=t)
                    t -= a
                    np.exp(t, out=t)
                    np.add(t, 1.0, out=d)
                    np.divide(c, d, out=q)  # c mu
                    smu = float(q.sum())
                    smx = dot(q, x) if slope else 0.0
                    np.divide(q, d, out=q)
                    q *= t  # v
                    sv = float(q.sum())
                    if not slope:
                        out += (cases - smu, 0.0, sv, 0.0, 0.0)
                        continue
                    out += (cases - smu, cx - smx, sv, dot(q, x), dot(q, x2w[sl]))
                else:  # mu = expit(a + logit(p)) = e^a p / (1 + (e^a - 1) p)
                    assert uw is not None  # given with p
                    e = math.exp(a)
                    s = sw[sl]
                    np.multiply(s, e - 1.0, out=d)
                    d += 1.0
                    np.divide(c, d, out=q)
                    smu = e * dot(q, s)
                    np.divide(q, d, out=q)
                    sv = e * dot(q, uw[sl])
                    out += (cases - smu, 0.0, sv, 0.0, 0.0)
    return acc


def passes_tables(block: Any, passes: tuple[Any, ...]) -> list[CountTable] | None:
    """Stand-in replicates of a bootstrap block answering the logistic fits, for a
    measure that declares the pass ``FITS`` in the registry; None where the measure
    takes the table path (another pass, another kind of block, or a table the plan does
    not serve, see the module docstring). The plan is made once per sampler (kept in
    its ``extras``) and the stand-ins once per block."""
    if lf.FITS not in passes or not hasattr(block, "cell_counts"):
        return None
    extras = getattr(block.s, "extras", None)
    if extras is None:
        return None
    plan = extras.get("fits", _UNSET)
    if plan is _UNSET:
        plan = extras["fits"] = _FitsPlan.of(block.s)
    if plan is None:
        return None
    tables: list[CountTable] = block.kept("fits", lambda: plan.tables(block))
    return tables
