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

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.special import ndtr, ndtri

from binmetrics.inference._replicates import (
    ResamplingWarning,
    _acceleration,
    _replicate_table,
    _report_undefined_replicates,
)
from binmetrics.inference.resampling import BootstrapInterval, quantiles
from binmetrics.validation import check_level

__all__ = [
    "INTERVAL_KINDS",
    "check_kind",
    "interval_from_replicates",
    "jackknife_acceleration",
    "replicate_table",
]

#: The bootstrap interval kinds.
INTERVAL_KINDS = ("percentile", "basic", "bca")


def check_kind(kind: Any) -> str:
    """``kind`` if it is one of :data:`INTERVAL_KINDS`, else a one-line error listing them."""
    if kind not in INTERVAL_KINDS:
        raise ValueError(f"kind must be one of {', '.join(map(repr, INTERVAL_KINDS))}; "
                         f"got {kind!r}")
    return str(kind)


def interval_from_replicates(
    replicates: Any,
    estimate: float,
    *,
    measure: str,
    kind: str = "percentile",
    level: float = 0.95,
    acceleration: Callable[[], float] | None = None,
    bounds: tuple[float, float] = (-math.inf, math.inf),
    report: bool = True,
) -> BootstrapInterval:
    r"""A two-sided bootstrap interval of ``estimate`` from its replicates.

    "percentile": the :math:`\alpha/2` and :math:`1 - \alpha/2` quantiles of the
    defined replicates (Berrar Def. 38); "basic": :math:`2\hat\theta` minus them,
    reversed, clipped to ``bounds``; "bca": the quantiles at
    :math:`\Phi(z_0 + (z_0 \pm z_{\alpha/2}) / (1 - a (z_0 \pm z_{\alpha/2})))` with
    :math:`z_0 = \Phi^{-1}` (share of replicates below the estimate, ties half) and
    ``a = acceleration()``. NaN replicates are left out and counted in
    ``n_undefined``, with one :class:`~binmetrics.exceptions.UndefinedMeasureWarning`
    naming the count (``report=False``: the caller reports).

    Examples
    --------
    >>> import numpy as np
    >>> iv = interval_from_replicates(np.arange(101.0), 50.0, measure="x", level=0.9)
    >>> round(iv.low, 9), round(iv.high, 9), iv.n_used
    (5.0, 95.0, 101)
    """
    kind = check_kind(kind)
    lv = check_level(level)
    r = np.asarray(replicates, dtype=np.float64).ravel()
    d = r[~np.isnan(r)]
    k = int(r.size - d.size)
    est = float(estimate)
    if k and report:
        _report_undefined_replicates(measure, k, int(r.size), "bootstrap replicates")

    def interval(lo: float, hi: float) -> BootstrapInterval:
        return BootstrapInterval(estimate=est, low=lo, high=hi, level=lv,
                                 method=f"bootstrap-{kind}", measure=measure, kind=kind,
                                 n_used=int(d.size), n_undefined=k)

    nan = float("nan")
    if d.size == 0 or math.isnan(est):
        return interval(nan, nan)
    alpha = (1.0 - lv) / 2.0
    if kind == "bca":
        p0 = (np.count_nonzero(d < est) + np.count_nonzero(d <= est)) / (2.0 * d.size)
        z0 = float(ndtri(p0))
        a = 0.0 if acceleration is None else float(acceleration())
        za = float(ndtri(alpha))
        with np.errstate(invalid="ignore", divide="ignore"):
            n1, n2 = z0 + za, z0 - za
            qs = np.array([ndtr(z0 + n1 / (1 - a * n1)), ndtr(z0 + n2 / (1 - a * n2))])
        if not np.isfinite(qs).all():
            warnings.warn(
                f"the BCa interval of {measure} cannot be computed (bias correction z0 = "
                f"{z0:g}, acceleration {a:g}): the bootstrap distribution is degenerate "
                "or the jackknife undefined; use kind='percentile'",
                ResamplingWarning, stacklevel=3)
            return interval(nan, nan)
    else:
        qs = np.array([alpha, 1.0 - alpha])
    lo, hi = quantiles(d, qs)
    if kind == "basic":
        lo, hi = 2.0 * est - hi, 2.0 * est - lo
        lo, hi = min(max(lo, bounds[0]), bounds[1]), min(max(hi, bounds[0]), bounds[1])
    return interval(lo, hi)


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
