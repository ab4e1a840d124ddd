"""Bootstrap intervals from a vector of replicates: the percentile, basic and BCa
intervals of :meth:`binmetrics.inference.resampling.BootstrapResult.ci`, for statistics
whose replicates are drawn elsewhere (the multiclass and multilabel row bootstrap, the
points of a precision-recall curve).

Conventions as in :mod:`binmetrics.inference.resampling`: quantiles interpolate linearly
(numpy's default, as ``scipy.stats.bootstrap``); undefined (NaN) replicates are left out
and counted; BCa takes the bias correction from the replicates and the acceleration from
a jackknife the caller supplies (Efron & Tibshirani 1993, section 14.3).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from binmetrics.inference._jackknife import _acceleration
from binmetrics.inference._replicates import _replicate_table
from binmetrics.inference.resampling import (  # the one interval formula
    INTERVAL_KINDS,
    check_kind,
    interval_from_replicates,
)

__all__ = [
    "INTERVAL_KINDS",
    "check_kind",
    "interval_from_replicates",
    "jackknife_acceleration",
    "replicate_table",
]

def jackknife_acceleration(samples: list[tuple[Any, Any]]) -> float:
    """Efron's BCa acceleration from jackknife values: ``samples`` is one
    ``(leave-one-out values, cases each value stands for)`` pair per independently
    resampled sample (per class of a stratified bootstrap), as
    :meth:`binmetrics.inference.resampling.BootstrapResult.acceleration` uses.

    Examples
    --------
    >>> import numpy as np
    >>> jackknife_acceleration([(np.array([1.0, 2.0, 3.0]), np.ones(3))])
    0.0
    """
    return _acceleration([(np.asarray(v, dtype=np.float64), np.asarray(m, dtype=np.float64))
                          for v, m in samples])


def replicate_table(table: Any, pos: Any, neg: Any) -> Any:
    """A replicate's :class:`~binmetrics.table.CountTable`: ``table``'s scores with new
    positive and negative counts ``pos``, ``neg`` (one per distinct score; scores
    without cases are dropped, the order kept: no sort).

    Examples
    --------
    >>> import numpy as np
    >>> from binmetrics import CountTable
    >>> t = CountTable.from_arrays([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.2])
    >>> replicate_table(t, np.array([2, 0, 0, 0]), np.array([0, 1, 0, 1])).scores.tolist()
    [0.9, 0.7, 0.2]
    """
    return _replicate_table(table, np.asarray(pos), np.asarray(neg))
