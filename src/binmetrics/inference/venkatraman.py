r"""Venkatraman's (2000) permutation test of two paired ROC curves, as pROC's.

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

__all__ = ["venkatraman_paired"]


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
