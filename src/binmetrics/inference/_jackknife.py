"""The jackknife of the BCa interval
(:meth:`binmetrics.inference.resampling.BootstrapResult.acceleration`): leave-one-case-out
values of a statistic, one evaluation per (score, label) cell, and Efron's acceleration
from them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from binmetrics.exceptions import undefined_policy
from binmetrics.inference._replicates import _Target
from binmetrics.measures._util import dot
from binmetrics.measures.kernels import auc_transform
from binmetrics.table.counts import Confusion, CountTable, FloatArray

#: The BCa jackknife is exact (one evaluation per (score, label) cell) up to this
#: many cells; beyond, about this many runs of adjacent cells of a class are each
#: represented by one cell (see
#: :meth:`binmetrics.inference.resampling.BootstrapResult.acceleration`).
_JACKKNIFE_CELLS = 2000


_Sample = tuple[FloatArray, FloatArray]  # (leave-one-out values, cases each stands for)


def _jackknife(table: CountTable, target: _Target, threshold: float,
               units: tuple[float, float]) -> list[_Sample]:
    """Leave-one-case-out values of a statistic per class: [positives, negatives].

    All cases of one (score, label) cell give the same value, so one evaluation per
    cell suffices (returned with the cell's number of cases). ``units`` is the weight
    of one case of each class (1 for unweighted tables).
    """
    with undefined_policy("ignore"):
        if target.family == "confusion":
            return _jackknife_confusion(table, target, threshold, units)
        from_auc = None if target.kernel is None else auc_transform(target.kernel)
        if from_auc is not None:
            return _jackknife_auc(table, from_auc, units)
        return _jackknife_cells(table, target, threshold, units)


def _jackknife_confusion(table: CountTable, target: _Target, threshold: float,
                         units: tuple[float, float]) -> list[_Sample]:
    c = table.confusion(threshold)
    cells = np.array([c.tp, c.fn, c.fp, c.tn], dtype=np.float64)
    unit = np.array([units[0], units[0], units[1], units[1]])
    r = np.minimum(unit, cells)
    base = np.tile(cells, (4, 1))
    base[np.arange(4), np.arange(4)] -= r
    values = target.on_confusion(Confusion(tp=base[:, 0], fn=base[:, 1], fp=base[:, 2],
                                           tn=base[:, 3]), 4)
    mult = np.divide(cells, unit, out=np.zeros(4), where=unit > 0)
    keep = cells > 0
    return [(values[:2][keep[:2]], mult[:2][keep[:2]]), (values[2:][keep[2:]], mult[2:][keep[2:]])]


def _jackknife_auc(table: CountTable, from_auc: Callable[[Any], Any],
                   units: tuple[float, float]) -> list[_Sample]:
    """The closed-form jackknife of a function ``from_auc`` of the AUC (see
    :func:`binmetrics.measures.kernels.auc_transform`): each left-out case changes the
    Mann-Whitney count by the pairs it wins (a positive) or loses (a negative)."""
    pos = table.pos.astype(np.float64)
    neg = table.neg.astype(np.float64)
    P, N = table.P, table.N
    tp1, fp1 = np.cumsum(pos), np.cumsum(neg)
    beats = N - fp1 + 0.5 * neg  # pairs won by one positive of each group
    beaten = (tp1 - pos) + 0.5 * pos  # pairs won against one negative of each group
    U = dot(pos, beats)
    ip, ineg = pos > 0, neg > 0
    rp = np.minimum(units[0], pos[ip])
    rn = np.minimum(units[1], neg[ineg])
    with np.errstate(divide="ignore", invalid="ignore"):
        vp = (U - rp * beats[ip]) / ((P - rp) * N)
        vn = (U - rn * beaten[ineg]) / (P * (N - rn))
    vp[(P - rp) <= 0] = np.nan
    vn[(N - rn) <= 0] = np.nan
    vp, vn = from_auc(vp), from_auc(vn)
    return [(vp, pos[ip] / units[0]), (vn, neg[ineg] / units[1])]


def _jackknife_cells(table: CountTable, target: _Target, threshold: float,
                     units: tuple[float, float]) -> list[_Sample]:
    """One evaluation per (score, label) cell: one case of the cell left out.

    Beyond :data:`_JACKKNIFE_CELLS` cells, each class's cells (in score order) are cut
    into about that many runs of adjacent cells, and the middle cell of a run stands
    for every case of the run.
    """
    idx = [np.flatnonzero(table.pos), np.flatnonzero(table.neg)]
    n_cells = idx[0].size + idx[1].size
    out: list[_Sample] = []
    for j in (0, 1):
        cells = idx[j]
        w = (table.pos if j == 0 else table.neg)[cells].astype(np.float64)
        if n_cells <= _JACKKNIFE_CELLS:
            reps, cases = np.arange(cells.size), w
        else:
            k = max(1, min(cells.size, round(_JACKKNIFE_CELLS * cells.size / n_cells)))
            bounds = np.linspace(0, cells.size, k + 1).astype(np.intp)
            reps = (bounds[:-1] + bounds[1:]) // 2
            cases = np.add.reduceat(w, bounds[:-1])
        values = np.array([
            target.value(_leave_one_out(table, j, int(cells[r]), units[j]), threshold)
            for r in reps.tolist()
        ], dtype=np.float64)
        out.append((values, cases / units[j]))
    return out


def _leave_one_out(table: CountTable, label: int, group: int, unit: float) -> CountTable:
    """The table without one case (weight ``unit``, at most the cell's) of a cell."""
    pos, neg = table.pos.copy(), table.neg.copy()
    arr = pos if label == 0 else neg
    if table.weighted:
        arr[group] -= min(unit, float(arr[group]))
        return CountTable(table.scores, pos, neg, weighted=True, _trusted=True)
    arr[group] -= 1
    totals = (table.P - (label == 0), table.N - (label == 1))
    scores = table.scores
    if pos[group] == 0 and neg[group] == 0:  # the group is gone
        scores, pos, neg = (np.delete(a, group) for a in (scores, pos, neg))
    return CountTable(scores, pos, neg, weighted=False, _trusted=True, _totals=totals)


def _acceleration(samples: list[_Sample]) -> float:
    """Efron's acceleration from jackknife values (scipy.stats.bootstrap's formula; with
    several samples, as for a stratified bootstrap, their sums are pooled)."""
    num = den = 0.0
    for values, mult in samples:
        n = float(mult.sum())
        if n <= 0:
            continue
        if np.isnan(values).any():
            return float("nan")
        mean = dot(mult, values) / n
        u = (n - 1.0) * (mean - values)
        num += dot(mult, u**3) / n**3
        den += dot(mult, u**2) / n**2
    if den == 0.0:  # the statistic does not move when a case is left out
        return 0.0
    return num / (6.0 * den**1.5)
