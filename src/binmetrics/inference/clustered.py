"""Clustered data: the bootstrap that resamples clusters (patients), and Obuchowski's
clustered variance of the AUC.

When one patient contributes several cases (two eyes, several lesions, repeated visits)
the cases are not independent, and resampling or DeLong's variance on the cases
understates the uncertainty (Rutter, 2000; Obuchowski, 1997).

Cluster bootstrap (:func:`cluster_bootstrap`)
    Each replicate draws K clusters with replacement out of the K clusters and stacks
    their cases. With the count table built once, each cluster is a sparse count table
    over the same sorted scores (its positives and negatives at each distinct score),
    and a replicate's table is the sum of its drawn clusters' tables, multiplicity
    included: a (replicates x clusters) matrix of multiplicities times the
    (clusters x 2 distinct scores) matrix of counts. No new sort; the measures are then
    evaluated on the blocks of replicates as in :func:`~binmetrics.inference.bootstrap`
    (confusion measures vectorised, ranking measures through their resampling kernels).
    Replicates are unstratified: a replicate may lack a class (its values are NaN,
    counted in ``n_undefined``).

Obuchowski's variance (:func:`clustered_auc_variance`)
    With I clusters, m_i positives and n_i negatives in cluster i (M, N in all), the
    placements V10(x) = (#negatives below x + 1/2 #tied) / N of each positive and
    V01(y) = (#positives above y + 1/2 #tied) / M of each negative, summed per cluster
    (V10_i, V01_i), and theta the AUC (Obuchowski 1997, eqs. 3-5):

        S10 = I10 / ((I10 - 1) M) sum_i (V10_i - m_i theta)^2
        S01 = I01 / ((I01 - 1) N) sum_i (V01_i - n_i theta)^2
        S11 = I / (I - 1) sum_i (V10_i - m_i theta) (V01_i - n_i theta)
        Var(theta) = S10 / M + S01 / N + 2 S11 / (M N)

    where I10 and I01 count the clusters holding positives and negatives. With one case
    per cluster it is DeLong's variance.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy import sparse
from scipy.special import ndtri

from binmetrics.inference._counting import count_rows
from binmetrics.inference._replicates import (
    _evaluate_blocks,
    _replicate_table,
    _targets,
)
from binmetrics.inference.delong import DeLongTest
from binmetrics.inference.intervals import Interval, normal_pvalue
from binmetrics.inference.resampling import BootstrapResult, MeasureLike
from binmetrics.table.counts import Confusion, CountTable, FloatArray
from binmetrics.validation import (
    NanPolicy,
    check_binary_inputs,
    check_level,
    check_random_state,
    check_resamples,
    check_threshold,
)

__all__ = ["ClusterBootstrapResult", "ClusteredTable", "cluster_bootstrap", "cluster_draws",
           "clustered_auc_ci", "clustered_auc_covariance", "clustered_auc_variance",
           "clustered_delong_pairs"]

_BLOCK_ELEMENTS = 1 << 20


@dataclass(frozen=True)
class ClusteredTable:
    """A count table with each cluster's share: ``counts`` is a sparse (clusters x
    2 n_distinct) matrix, positives then negatives at each of ``table``'s scores.

    Build it with :meth:`of`; ``names`` are the cluster labels in the rows' order.
    """

    table: CountTable
    counts: sparse.csr_matrix
    names: npt.NDArray[Any]

    @classmethod
    def of(cls, y_true: Any, y_score: Any, clusters: Any, *, sample_weight: Any = None,
           pos_label: Any = None, nan_policy: NanPolicy = "raise") -> ClusteredTable:
        """The table of the rows and each cluster's counts (one-line errors for
        clusters of the wrong length, or missing cluster labels)."""
        c = check_cluster_length(clusters, y_true)
        inp = check_binary_inputs(y_true, y_score, sample_weight, pos_label=pos_label,
                                  nan_policy=nan_policy, rescale_weights=False)
        if inp.n_omitted:
            c = c[np.isfinite(np.asarray(y_score, dtype=np.float64))]
        table = CountTable.from_validated(inp.y, inp.score, inp.weight)
        return cls.on(table, inp.y, inp.score, inp.weight, c)

    @classmethod
    def on(cls, table: CountTable, y: npt.NDArray[np.bool_], score: FloatArray,
           weight: FloatArray | None, clusters: Any) -> ClusteredTable:
        """Each cluster's counts on ``table``, the count table of the validated rows
        (``y``, ``score`` in the table's orientation, ``weight``); ``clusters`` gives one
        label per row, or a one-line error."""
        c = check_cluster_length(clusters, y)
        codes, names = _codes(c)
        # each row's distinct score: its index in the table (descending scores); rows of
        # weight 0 may have no distinct score of their own, and count nothing anyway
        group = np.minimum(np.searchsorted(-table.scores, -score),
                           max(table.n_distinct - 1, 0))
        column = group + table.n_distinct * (~y)
        w = np.ones(y.size) if weight is None else weight
        counts = sparse.csr_matrix((w, (codes, column)),
                                   shape=(names.size, 2 * table.n_distinct))
        counts.sum_duplicates()
        return cls(table=table, counts=counts, names=names)

    def auc_variance(self) -> tuple[float, float]:
        """The AUC and Obuchowski's variance of it (module docstring) from the clusters'
        counts: a cluster's placement sums are its counts times the placements at each
        distinct score. NaN variance where a class has fewer than 2 clusters."""
        t, g = self.table, self.table.n_distinct
        pos, neg = t.pos.astype(np.float64), t.neg.astype(np.float64)
        M, N = float(pos.sum()), float(neg.sum())
        if M == 0 or N == 0:
            return math.nan, math.nan
        v10 = (N - np.cumsum(neg) + 0.5 * neg) / N
        v01 = (np.cumsum(pos) - 0.5 * pos) / M
        theta = float(pos @ v10) / M
        cp, cn = self.counts[:, :g], self.counts[:, g:]
        m_i = np.asarray(cp.sum(axis=1)).ravel()
        n_i = np.asarray(cn.sum(axis=1)).ravel()
        d10 = cp @ v10 - m_i * theta
        d01 = cn @ v01 - n_i * theta
        k = self.n_clusters
        i10, i01 = int(np.count_nonzero(m_i)), int(np.count_nonzero(n_i))
        if i10 < 2 or i01 < 2 or k < 2:
            return theta, math.nan
        s10 = i10 / ((i10 - 1) * M) * float(d10 @ d10)
        s01 = i01 / ((i01 - 1) * N) * float(d01 @ d01)
        s11 = k / (k - 1) * float(d10 @ d01)
        return theta, s10 / M + s01 / N + 2 * s11 / (M * N)

    def bootstrap(self, measures: MeasureLike | Iterable[MeasureLike], *, n_resamples: int,
                  threshold: float, random_state: Any = None,
                  params: Mapping[str, Mapping[str, Any]] | None = None
                  ) -> ClusterBootstrapResult:
        """The cluster bootstrap of ``measures`` (as :func:`cluster_bootstrap`) on these
        counts: each replicate's table is the sum of its drawn clusters' tables (no new
        sort)."""
        th = check_threshold(threshold)
        targets = _targets(measures, params)
        B = check_resamples(n_resamples, per_resample=len(targets), what="one per measure")
        t = self.table
        estimate = {tg.key: tg.value(t, th) for tg in targets}
        rng = np.random.default_rng(check_random_state(random_state))
        blocks = (_ClusterBlock(self, d) for d in _draw_blocks(self, rng, B))
        reps = _evaluate_blocks(blocks, targets, th, t.cut_index(th), B)
        for r in reps.values():
            r.flags.writeable = False
        return ClusterBootstrapResult(
            measures=tuple(tg.key for tg in targets),
            estimate=MappingProxyType(estimate),
            replicates=MappingProxyType(reps),
            n_undefined=MappingProxyType({k: int(np.isnan(v).sum()) for k, v in reps.items()}),
            n_resamples=B, stratified=False, threshold=th, _table=t,
            _targets=MappingProxyType({tg.key: tg for tg in targets}), _units=(1.0, 1.0),
            n_clusters=self.n_clusters)

    @property
    def n_clusters(self) -> int:
        return int(self.names.size)


def _codes(c: npt.NDArray[Any]) -> tuple[npt.NDArray[np.intp], npt.NDArray[Any]]:
    import pandas as pd

    codes, uniques = pd.factorize(c, use_na_sentinel=True)
    if (codes < 0).any():
        raise ValueError(f"clusters has {int((codes < 0).sum())} missing value(s); give "
                         "every case a cluster")
    return codes.astype(np.intp), np.asarray(uniques)


class _ClusterBlock:
    """A block of cluster-bootstrap replicates: the views the measures read."""

    def __init__(self, ct: ClusteredTable, draws: npt.NDArray[np.intp]) -> None:
        self.ct = ct
        self.size = int(draws.shape[0])
        self.draws = draws
        mult = count_rows(draws, ct.n_clusters).astype(np.float64)
        both = np.asarray((sparse.csr_matrix(mult) @ ct.counts).toarray())
        g = ct.table.n_distinct
        if not ct.table.weighted:
            both = np.rint(both).astype(np.int64)
        self.pos, self.neg = both[:, :g], both[:, g:]
        self._tables: list[CountTable] | None = None

    def confusion(self, cut: int) -> Confusion:
        tp = self.pos[:, :cut].sum(axis=1).astype(np.float64)
        fp = self.neg[:, :cut].sum(axis=1).astype(np.float64)
        fn = self.pos[:, cut:].sum(axis=1).astype(np.float64)
        tn = self.neg[:, cut:].sum(axis=1).astype(np.float64)
        return Confusion(tp=tp, fp=fp, fn=fn, tn=tn)

    def kernel(self, kernel: Any) -> FloatArray:
        out: FloatArray = kernel(self.pos, self.neg)
        return out

    def tables(self) -> list[CountTable]:
        if self._tables is None:
            self._tables = [_replicate_table(self.ct.table, p, n)
                            for p, n in zip(self.pos, self.neg, strict=True)]
        return self._tables


def _draw_blocks(ct: ClusteredTable, rng: np.random.Generator,
                 n: int) -> Iterator[npt.NDArray[np.intp]]:
    """Blocks of replicates' drawn clusters: row b holds the K cluster codes drawn."""
    k = ct.n_clusters
    step = max(1, _BLOCK_ELEMENTS // max(k, 2 * ct.table.n_distinct, 1))
    done = 0
    while done < n:
        b = min(step, n - done)
        yield rng.integers(0, k, size=(b, k), dtype=np.intp)
        done += b


def cluster_draws(table: ClusteredTable, n_resamples: int,
                  random_state: Any = None) -> npt.NDArray[np.intp]:
    """The clusters each replicate of :func:`cluster_bootstrap` draws (row b: the codes
    of the K clusters drawn with replacement, codes indexing ``ct.names``): the same
    draws for the same arguments, to check a replicate against its rows. ``table`` is
    the :class:`ClusteredTable` of the data."""
    rng = np.random.default_rng(check_random_state(random_state))
    return np.vstack(list(_draw_blocks(table, rng, check_resamples(n_resamples))))


@dataclass(frozen=True, eq=False, repr=False)
class ClusterBootstrapResult(BootstrapResult):
    """A :class:`~binmetrics.inference.resampling.BootstrapResult` of the cluster
    bootstrap; ``n_clusters`` clusters were resampled. Its intervals are "percentile" or
    "basic": BCa's acceleration would need a jackknife over clusters."""

    n_clusters: int = 0

    def acceleration(self, measure: Any) -> float:
        raise ValueError("kind='bca' needs a jackknife over clusters, which the cluster "
                         "bootstrap does not compute; use kind='percentile' or 'basic'")


def cluster_bootstrap(
    y_true: Any,
    y_score: Any,
    measures: MeasureLike | Iterable[MeasureLike],
    *,
    clusters: Any,
    n_resamples: int = 2000,
    threshold: float = 0.5,
    random_state: Any = None,
    sample_weight: Any = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
    params: Mapping[str, Mapping[str, Any]] | None = None,
) -> ClusterBootstrapResult:
    """Bootstrap distributions of measures resampling clusters, not cases.

    Parameters
    ----------
    y_true, y_score : array-like
        Labels and scores, one per case.
    measures : measure name, Measure, callable, or a list of them
        As in :func:`~binmetrics.inference.bootstrap`.
    clusters : array-like
        The cluster (patient) of each case, any hashable labels; no missing values.
    n_resamples, threshold, random_state, params :
        As in :func:`~binmetrics.inference.bootstrap`.
    sample_weight, pos_label, nan_policy :
        As in :func:`binmetrics.evaluate`; weights are carried with their cluster.

    Returns
    -------
    ClusterBootstrapResult
        ``ci(measure, kind="percentile")``; replicates lacking a class are NaN for the
        measures that need both (``n_undefined``).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> patient = np.repeat(np.arange(40), 3)
    >>> y = rng.integers(0, 2, 120)
    >>> p = np.clip(0.4 * y + 0.5 * rng.random(40)[patient] + 0.1 * rng.random(120), 0, 1)
    >>> res = cluster_bootstrap(y, p, "auc", clusters=patient, n_resamples=300,
    ...                         random_state=0)
    >>> low, high = res.ci("auc")
    >>> bool(low < res.estimate["auc"] < high), res.n_clusters
    (True, 40)
    """
    ct = ClusteredTable.of(y_true, y_score, clusters, sample_weight=sample_weight,
                           pos_label=pos_label, nan_policy=nan_policy)
    return ct.bootstrap(measures, n_resamples=n_resamples, threshold=threshold,
                        random_state=random_state, params=params)


def clustered_auc_covariance(y: npt.NDArray[np.bool_], arrays: list[FloatArray],
                             codes: npt.NDArray[np.intp]) -> tuple[FloatArray, FloatArray]:
    """The AUCs of K models scored on the same validated rows and Obuchowski's (1997)
    covariance matrix of them for clustered rows (``codes``: each row's cluster, 0..I-1):
    cov_kl = S10_kl / M + S01_kl / N + (S11_kl + S11_lk) / (M N), with S10_kl =
    I10 / ((I10 - 1) M) sum_i d10_ik d10_il, S01_kl likewise over negatives and
    S11_kl = I / (I - 1) sum_i d10_ik d01_il, where d10_ik = V10_ik - m_i theta_k and
    d01_ik = V01_ik - n_i theta_k (module docstring). Each model's placements come from
    its count table (one sort per model). NaN where a class has fewer than 2 clusters.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([True, False, True, False, True, False])
    >>> s = [np.array([.9, .1, .8, .3, .4, .5]), np.array([.2, .1, .9, .5, .7, .3])]
    >>> aucs, cov = clustered_auc_covariance(y, s, np.array([0, 0, 1, 1, 2, 2]))
    >>> aucs.round(4).tolist(), cov.shape
    ([0.8889, 0.7778], (2, 2))
    """
    k = int(codes.max(initial=-1)) + 1
    m_i = np.bincount(codes[y], minlength=k).astype(np.float64)
    n_i = np.bincount(codes[~y], minlength=k).astype(np.float64)
    M, N = float(m_i.sum()), float(n_i.sum())
    K = len(arrays)
    thetas = np.full(K, np.nan)
    d10 = np.zeros((K, k))
    d01 = np.zeros((K, k))
    for j, s in enumerate(arrays):
        t = CountTable.from_validated(y, s, None)
        pos, neg = t.pos.astype(np.float64), t.neg.astype(np.float64)
        if M == 0 or N == 0:
            continue
        g = np.searchsorted(-t.scores, -s)
        v10 = (N - np.cumsum(neg) + 0.5 * neg) / N
        v01 = (np.cumsum(pos) - 0.5 * pos) / M
        thetas[j] = float(pos @ v10) / M
        d10[j] = np.bincount(codes[y], weights=v10[g[y]], minlength=k) - m_i * thetas[j]
        d01[j] = np.bincount(codes[~y], weights=v01[g[~y]], minlength=k) - n_i * thetas[j]
    i10, i01 = int(np.count_nonzero(m_i)), int(np.count_nonzero(n_i))
    if i10 < 2 or i01 < 2 or k < 2:
        return thetas, np.full((K, K), np.nan)
    s10 = i10 / ((i10 - 1) * M) * (d10 @ d10.T)
    s01 = i01 / ((i01 - 1) * N) * (d01 @ d01.T)
    s11 = k / (k - 1) * (d10 @ d01.T)
    return thetas, s10 / M + s01 / N + (s11 + s11.T) / (M * N)


def clustered_auc_variance(y_true: Any, y_score: Any, *, clusters: Any,
                           pos_label: Any = None, nan_policy: NanPolicy = "raise") -> float:
    """Obuchowski's (1997) variance of the AUC of clustered data (module docstring).

    From the count table's placements summed per cluster; with one case per cluster it
    equals DeLong's variance (:func:`~binmetrics.inference.auc_variance`).

    Examples
    --------
    >>> y = [1, 0, 1, 0, 1, 0, 0, 1]
    >>> s = [.9, .8, .7, .3, .6, .2, .4, .5]
    >>> round(clustered_auc_variance(y, s, clusters=[1, 1, 2, 2, 3, 3, 4, 4]), 6)
    0.015625
    """
    y, s, codes = _validated(y_true, y_score, clusters, pos_label, nan_policy)
    return float(clustered_auc_covariance(y, [s], codes)[1][0, 0])


def _validated(y_true: Any, y_score: Any, clusters: Any, pos_label: Any,
               nan_policy: NanPolicy) -> tuple[npt.NDArray[np.bool_], FloatArray,
                                               npt.NDArray[np.intp]]:
    c = check_cluster_length(clusters, y_true)
    inp = check_binary_inputs(y_true, y_score, None, pos_label=pos_label,
                              nan_policy=nan_policy)
    if inp.n_omitted:
        c = c[np.isfinite(np.asarray(y_score, dtype=np.float64))]
    codes, _ = _codes(c)
    return inp.y, inp.score, codes


def check_cluster_length(clusters: Any, y_true: Any) -> npt.NDArray[Any]:
    """``clusters`` as an array of one label per case of ``y_true``, or a one-line error."""
    c = np.asarray(clusters)
    n = np.asarray(y_true).shape[0] if np.ndim(y_true) else 0
    if c.ndim != 1 or c.shape[0] != n:
        given = c.shape[0] if c.ndim else 0
        raise ValueError(f"clusters must give one cluster per case: {given} values for "
                         f"{n} cases")
    return c


def clustered_delong_pairs(y: npt.NDArray[np.bool_], arrays: list[FloatArray],
                           clusters: Any, *, alternative: str = "two-sided",
                           level: float = 0.95) -> dict[tuple[int, int], DeLongTest]:
    """DeLong's paired test of every pair of models with Obuchowski's clustered
    covariance in place of DeLong's (validated rows; ``clusters`` one per row):
    z = (theta_a - theta_b) / sqrt(var_a + var_b - 2 cov_ab)."""
    codes, _ = _codes(check_cluster_length(clusters, y))
    aucs, cov = clustered_auc_covariance(y, arrays, codes)
    q = float(ndtri(0.5 + level / 2.0))
    out = {}
    for i in range(len(arrays)):
        for j in range(i + 1, len(arrays)):
            S = cov[np.ix_([i, j], [i, j])]
            d = float(aucs[i] - aucs[j])
            var = float(S[0, 0] + S[1, 1] - 2 * S[0, 1])
            sigma = math.sqrt(max(var, 0.0)) if not math.isnan(var) else math.nan
            z = (d / sigma if sigma > 0 else (0.0 if d == 0 else math.copysign(math.inf, d))) \
                if not math.isnan(sigma) else math.nan
            ci = Interval(d, d - q * sigma, d + q * sigma, level, "obuchowski")
            out[(i, j)] = DeLongTest(float(aucs[i]), float(aucs[j]), d, sigma, z,
                                     normal_pvalue(z, alternative), ci, alternative, True,
                                     None, S)
    return out


def clustered_auc_ci(y_true: Any, y_score: Any, *, clusters: Any, level: float = 0.95,
                     pos_label: Any = None, nan_policy: NanPolicy = "raise") -> Interval:
    """The normal interval AUC +- z sqrt(Obuchowski's variance), clipped to [0, 1]
    (method "obuchowski")."""
    lv = check_level(level)
    ct = ClusteredTable.of(y_true, y_score, clusters, pos_label=pos_label,
                           nan_policy=nan_policy)
    from binmetrics.measures import get_measure

    auc = float(get_measure("auc").func(ct.table))
    var = clustered_auc_variance(y_true, y_score, clusters=clusters, pos_label=pos_label,
                                 nan_policy=nan_policy)
    z = float(ndtri(0.5 + lv / 2.0))
    half = z * math.sqrt(var) if var >= 0 else math.nan
    return Interval(estimate=auc, low=max(0.0, auc - half), high=min(1.0, auc + half),
                    level=lv, method="obuchowski")
