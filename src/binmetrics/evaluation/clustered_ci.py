"""Clustered intervals of an :class:`~binmetrics.Evaluation` (a mixin, so that
``evaluation/binary.py`` stays small).

An evaluation keeps its count table, not its rows, so the clusters (patients) are given
when the table is built: ``bm.evaluate(y, p, clusters=df["patient"])`` keeps, next to
the table, each cluster's counts at each distinct score (a
:class:`~binmetrics.inference.clustered.ClusteredTable`, one sparse row per cluster).
Its intervals then resample clusters, not cases (Rutter 2000; Obuchowski 1997):

* the bootstrap draws K clusters with replacement out of the K and sums their counts
  (:meth:`~binmetrics.inference.clustered.ClusteredTable.bootstrap`, the same replicates
  as :func:`~binmetrics.inference.cluster_bootstrap` for the same seed; no new sort);
* the AUC's DeLong interval becomes Obuchowski's: AUC +- z sqrt(Var), Var of
  :mod:`binmetrics.inference.clustered` (method "obuchowski", unweighted tables);
* the closed forms of proportions (Clopper-Pearson...) assume independent cases, so a
  clustered evaluation gives them bootstrap intervals.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from binmetrics.exceptions import report_undefined
from binmetrics.validation import check_level

if TYPE_CHECKING:  # imported when used: a binary evaluation loads no scipy.stats
    from binmetrics.inference.clustered import ClusteredTable
    from binmetrics.inference.intervals import Interval
    from binmetrics.measures import Measure

__all__ = ["ClusteredMethods", "clustered_methods", "obuchowski_interval", "resolve_clusters"]


class ClusteredMethods:
    """``n_clusters`` of an evaluation built with ``clusters=``."""

    #: each cluster's counts on the table, or None (set by ``evaluate(clusters=...)``)
    _clustered: ClusteredTable | None = None

    @property
    def n_clusters(self) -> int | None:
        """The number of clusters the intervals resample, None without clusters.

        Examples
        --------
        >>> import binmetrics as bm
        >>> ev = bm.evaluate([1, 0, 1, 0], [.9, .8, .4, .2], clusters=["a", "a", "b", "c"])
        >>> ev.n_clusters
        3
        """
        return None if self._clustered is None else self._clustered.n_clusters


def resolve_clusters(ev: Any, clusters: Any) -> ClusteredTable | None:
    """The clustered table an interval resamples: the evaluation's by default (None) or
    with ``True``, none with ``False``; an array is a one-line error (the evaluation has
    no rows to align it with)."""
    if clusters is None or clusters is False:
        return ev._clustered if clusters is None else None
    if clusters is True:
        if ev._clustered is None:
            raise ValueError("clusters=True needs an evaluation built with its clusters: "
                             "bm.evaluate(y, p, clusters=df['patient'])")
        return ev._clustered
    raise TypeError("an Evaluation keeps its count table, not its rows, so it cannot align "
                    "a clusters array: give it when evaluating, bm.evaluate(y, p, "
                    "clusters=df['patient']), then ci(measure) or ci(measure, clusters=True)")


def clustered_methods(m: Measure, ct: ClusteredTable) -> tuple[str, ...]:
    """The interval methods of a measure on clustered cases: Obuchowski's for the AUC
    (unweighted), the cluster bootstrap for every measure."""
    if m.id == "auc" and not ct.table.weighted:
        return ("obuchowski", "bootstrap")
    return ("bootstrap",)


def obuchowski_interval(ct: ClusteredTable, level: float) -> Interval:
    """AUC +- z sqrt(Obuchowski's variance), clipped to [0, 1] (as
    :func:`~binmetrics.inference.clustered_auc_ci`)."""
    from scipy.special import ndtri

    from binmetrics.inference.intervals import Interval

    lv = check_level(level)
    auc, var = ct.auc_variance()
    half = float(ndtri(0.5 + lv / 2.0)) * math.sqrt(var) if var >= 0 else math.nan
    if np.isnan(half):
        report_undefined("the Obuchowski interval of auc", "it needs at least 2 clusters "
                         "holding positives and 2 holding negatives")
        return Interval(estimate=auc, low=math.nan, high=math.nan, level=lv,
                        method="obuchowski")
    return Interval(estimate=auc, low=max(0.0, auc - half), high=min(1.0, auc + half),
                    level=lv, method="obuchowski")
