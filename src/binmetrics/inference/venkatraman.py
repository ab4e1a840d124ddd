r"""Venkatraman's (2000) permutation test of two ROC curves, paired or unpaired, as pROC's.

With the two models' scores turned into ranks :math:`R_i, S_i` (1..n), and at every
integer :math:`x = 1, \dots, n` the false negatives :math:`\#\{\text{cases}: R_i \le x\}`
and false positives :math:`\#\{\text{controls}: R_i > x\}` of each model, the statistic
is the area between the two curves of total errors,

.. math::  E = \sum_{x=1}^{n} \left| \big(\mathrm{FN}_S(x) + \mathrm{FP}_S(x)\big)
                                  - \big(\mathrm{FN}_R(x) + \mathrm{FP}_R(x)\big) \right| .

Under the null hypothesis the two curves are the same, so the two models' ranks are
exchangeable within a case. Each permutation jitters the ranks by
:math:`U(-\tfrac12, \tfrac12)`, swaps the two models' ranks of each case with probability
1/2 (pROC's ``venkatraman.paired.permutation``, which swaps the *unjittered* rank in, as
here), re-ranks and recomputes E; the p-value is the share of permutations with a
statistic at least the observed one, :math:`\#\{E^* \ge E\} / B` (pROC's; two-sided only).

**Unpaired** (two samples of sizes :math:`n_1, n_2`; Venkatraman 2000, sect. 3). Each
model's scores are ranked within its own sample. With :math:`F(x)` and :math:`G(x)` the
shares of cases and of controls ranked at most :math:`x` and the pooled share of cases
:math:`\pi = (m_1 + m_2) / (n_1 + n_2)`, each curve becomes the polyline of
:math:`p(x) = \pi F(x) + (1 - \pi) G(x)` against the expected error
:math:`\pi F(x) + (1 - \pi)(1 - G(x))` at :math:`x = 1, \dots, n`; E is the trapezoid
integral of the absolute difference of the two interpolated polylines over the sorted
union of their :math:`p` values (where both are defined). A permutation jitters the ranks
by :math:`U(-\tfrac12, \tfrac12)`, pools the cases of both samples and shuffles them back
into the case slots, the same for the controls, re-ranks within each sample and
recomputes E; the p-value is :math:`\#\{E^* \ge E\} / B`. pROC 1.18 computes
:math:`\pi` as :math:`(m_1 + m_2) / (2 n_1)` (``length(D1)`` twice), a slip that only
matters when the sample sizes differ; binmetrics uses the pooled share.

**Ties.** pROC ranks tied scores by their position in the data (``ties.method =
"first"``), so its E depends on the row order. binmetrics gives tied scores their average
rank (pROC's ``ties.method = "average"``), so the result does not; with continuous scores
both agree.

References
----------
Venkatraman, E. S. and Begg, C. B. (1996). A distribution-free procedure for comparing
receiver operating characteristic curves from a paired experiment. *Biometrika* 83,
835-848.

Venkatraman, E. S. (2000). A permutation test to compare receiver operating
characteristic curves. *Biometrics* 56, 1134-1138.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.stats import rankdata

__all__ = ["venkatraman_paired", "venkatraman_unpaired"]


def _errors(rank: npt.NDArray[np.float64], y: npt.NDArray[np.bool_],
            grid: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """FN(x) + FP(x) at every x of the grid for one model's ranks."""
    cases = np.sort(rank[y])
    controls = np.sort(rank[~y])
    fn = np.searchsorted(cases, grid, side="right")
    fp = controls.size - np.searchsorted(controls, grid, side="right")
    return (fn + fp).astype(np.float64)


def _stat(r: npt.NDArray[np.float64], s: npt.NDArray[np.float64], y: npt.NDArray[np.bool_],
          grid: npt.NDArray[np.float64]) -> float:
    return float(np.abs(_errors(s, y, grid) - _errors(r, y, grid)).sum())


def venkatraman_paired(y: npt.NDArray[np.bool_], score_a: npt.NDArray[np.float64],
                       score_b: npt.NDArray[np.float64], n_resamples: int,
                       random_state: Any = None) -> tuple[float, float, npt.NDArray[np.float64]]:
    """(E, p-value, the permutation statistics) of Venkatraman's paired test."""
    n = y.size
    grid = np.arange(1, n + 1, dtype=np.float64)
    r = rankdata(score_a, method="average")
    s = rankdata(score_b, method="average")
    observed = _stat(r, s, y, grid)
    rng = np.random.default_rng(random_state)
    null = np.empty(n_resamples)
    for k in range(n_resamples):
        r2 = r + rng.random(n) - 0.5
        s2 = s + rng.random(n) - 0.5
        keep = rng.random(n) < 0.5  # pROC: q = 1 - round(runif(n))
        r3 = np.where(keep, r2, s)
        s3 = np.where(keep, s2, r)
        null[k] = _stat(rankdata(r3, method="average"), rankdata(s3, method="average"), y,
                        grid)
    return observed, float(np.count_nonzero(null >= observed) / n_resamples), null


def _unpaired_curve(rank: npt.NDArray[np.float64], y: npt.NDArray[np.bool_],
                    mp: float) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(p(x), expected error(x)) at x = 1..n of one sample's ranks."""
    grid = np.arange(1, y.size + 1, dtype=np.float64)
    cases, controls = np.sort(rank[y]), np.sort(rank[~y])
    f = np.searchsorted(cases, grid, side="right") / cases.size
    g = np.searchsorted(controls, grid, side="right") / controls.size
    return mp * f + (1.0 - mp) * g, mp * f + (1.0 - mp) * (1.0 - g)


def _unpaired_stat(r: npt.NDArray[np.float64], s: npt.NDArray[np.float64],
                   y1: npt.NDArray[np.bool_], y2: npt.NDArray[np.bool_], mp: float) -> float:
    rp, rexp = _unpaired_curve(r, y1, mp)
    sp, sexp = _unpaired_curve(s, y2, mp)
    x = np.sort(np.concatenate((rp, sp)))
    # R's approxfun: linear, NA outside the knots (p is non-decreasing; repeated p values
    # carry the same expected error, so which one interp picks does not matter)
    nan = np.nan
    y = np.abs(np.interp(x, rp, rexp, left=nan, right=nan)
               - np.interp(x, sp, sexp, left=nan, right=nan))
    return float(np.nansum((y[1:] + y[:-1]) * np.diff(x) / 2.0))


def venkatraman_unpaired(y1: npt.NDArray[np.bool_], score_1: npt.NDArray[np.float64],
                         y2: npt.NDArray[np.bool_], score_2: npt.NDArray[np.float64],
                         n_resamples: int, random_state: Any = None,
                         ) -> tuple[float, float, npt.NDArray[np.float64]]:
    """(E, p-value, the permutation statistics) of Venkatraman's unpaired test."""
    for y in (y1, y2):
        if y.all() or not y.any():
            raise ValueError("each sample of the unpaired Venkatraman test needs cases and "
                             "controls")
    n1 = y1.size
    mp = float(y1.sum() + y2.sum()) / (n1 + y2.size)
    r = rankdata(score_1, method="average")
    s = rankdata(score_2, method="average")
    observed = _unpaired_stat(r, s, y1, y2, mp)
    rng = np.random.default_rng(random_state)
    y = np.concatenate((y1, y2))
    rs = np.concatenate((r, s))
    case_idx, control_idx = np.flatnonzero(y), np.flatnonzero(~y)
    null = np.empty(n_resamples)
    for k in range(n_resamples):
        jittered = rs + rng.random(rs.size) - 0.5
        perm = np.empty_like(jittered)
        perm[case_idx] = rng.permutation(jittered[case_idx])
        perm[control_idx] = rng.permutation(jittered[control_idx])
        null[k] = _unpaired_stat(rankdata(perm[:n1]), rankdata(perm[n1:]), y1, y2, mp)
    return observed, float(np.count_nonzero(null >= observed) / n_resamples), null
