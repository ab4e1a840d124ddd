"""DeLong's tests of AUCs: per-row placements, the paired and the unpaired test of two
AUCs, and the chi-square test of a contrast of K >= 2 correlated AUCs.

DeLong, DeLong & Clarke-Pearson 1988, by the algorithm of Sun & Xu 2014, with pROC's
conventions (docs/methods.md §3):

* :func:`delong_placements`: the structural components of every row (pROC's ``X``
  and ``Y``), the per-row form that pairs models scored on the same subjects;
* :func:`delong_test`: two AUCs on the same subjects (= pROC
  ``roc.test(paired=TRUE)``);
* :func:`delong_test_unpaired`: two AUCs on independent samples (Welch, =
  ``roc.test(paired=FALSE)``);
* :func:`delong_contrast`: K >= 2 correlated AUCs, chi-square test of a contrast.

One AUC's variance and interval (:func:`~binmetrics.inference.intervals.auc_variance`,
:func:`~binmetrics.inference.intervals.auc_ci`) and the placements of a count table
(:func:`~binmetrics.inference.intervals.table_placements`) are in
:mod:`binmetrics.inference.intervals`. Scores are "higher = more positive" (pROC's
``direction="<"``). Fewer than two positives or negatives give NaN with an
:class:`~binmetrics.exceptions.UndefinedMeasureWarning` (or an error under
``undefined_policy("raise")``); invalid arguments are errors.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from scipy import special, stats

from binmetrics.backends import THREAD_ROWS, thread_map
from binmetrics.exceptions import report_caveat, report_undefined
from binmetrics.formatting import HypothesisTest
from binmetrics.inference.intervals import (
    Interval,
    Placements,
    delong_defined,
    normal_pvalue,
    table_placements,
)
from binmetrics.table.counts import CountTable
from binmetrics.validation import (
    Alternative,
    NanPolicy,
    check_alternative,
    check_binary_inputs,
    check_level,
    check_models,
    check_paired_inputs,
)

__all__ = [
    "DeLongContrast",
    "DeLongTest",
    "delong_contrast",
    "delong_pairs",
    "delong_placements",
    "delong_test",
    "delong_test_unpaired",
]

FloatArray = npt.NDArray[np.float64]


# --- placements of every row ------------------------------------------------------------
def _group_placements(
    y: npt.NDArray[np.bool_], s: FloatArray, w: FloatArray | None
) -> tuple[FloatArray, FloatArray, float, float]:
    """Per-row placements: V10 of each positive row and V01 of each negative row (in
    row order), with P and N. One argsort; the group formula of
    :func:`~binmetrics.inference.intervals.table_placements` on the sorted rows, whose
    values go back to the rows in one scatter (not np.unique's inverse, per-class
    bincounts and gathers, each a random memory access: 0.10 s against 0.13-0.15 s at
    1e6 rows)."""
    order = np.argsort(s)  # ascending; the order inside a tie does not matter
    ss = s[order]
    ys = y[order]
    new = np.empty(s.size, dtype=bool)  # the first row of each group of equal scores
    new[:1] = True
    np.not_equal(ss[1:], ss[:-1], out=new[1:])
    del ss
    starts = np.flatnonzero(new)
    if w is None:
        wp = ys.astype(np.float64)  # 1 for a positive: the groups' sums are exact counts
        wn = 1.0 - wp
    else:
        wn = w[order]
        wp = wn * ys  # per row exact: w or 0
        wn -= wp
    distinct = starts.size == s.size  # every score distinct: each row its own group
    pos_g = wp if distinct else np.add.reduceat(wp, starts)
    neg_g = wn if distinct else np.add.reduceat(wn, starts)
    del wp, wn
    P, N = float(pos_g.sum()), float(neg_g.sum())
    neg_below = np.concatenate(([0.0], np.cumsum(neg_g)[:-1]))
    pos_above = np.concatenate((np.cumsum(pos_g[::-1])[::-1][1:], [0.0]))
    v10_g = (neg_below + 0.5 * neg_g) / N if N > 0 else np.full(starts.size, np.nan)
    v01_g = (pos_above + 0.5 * pos_g) / P if P > 0 else np.full(starts.size, np.nan)
    if not distinct:  # each sorted row's group, ascending: gathers in order
        gid = np.cumsum(new) - 1
        v10_g, v01_g = v10_g[gid], v01_g[gid]
    out = np.empty(s.size)
    out[order] = np.where(ys, v10_g, v01_g)
    return out[y], out[~y], P, N


def delong_placements(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
) -> Placements:
    """DeLong's placements of every row: V10 of each positive, V01 of each negative.

    With the m positives X_i and the n negatives Y_j, ψ(a, b) = 1 if a > b,
    1/2 if a = b, 0 otherwise:

        V10_i = (1/n) Σ_j ψ(X_i, Y_j),   V01_j = (1/m) Σ_i ψ(X_i, Y_j),
        θ = mean(V10) = mean(V01) = AUC.

    Computed in O(n log n) by Sun & Xu's midranks, V10_i = (T_Z(X_i) - T_X(X_i))/n and
    V01_j = 1 - (T_Z(Y_j) - T_Y(Y_j))/m, i.e. the counts of the other class below /
    above plus half the tied ones, from one sort (see
    :func:`~binmetrics.inference.intervals.table_placements`). Rows are in input order
    within each class, as pROC's ``X`` and ``Y``; weights are multiplicities (``w10``,
    ``w01``), so integer weights equal repeated rows.

    Use this per-row form to pair models on the same subjects (:func:`delong_test`);
    for one model, :func:`~binmetrics.inference.intervals.table_placements` of its
    count table gives the same variance in O(distinct scores).

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, nan_policy
        As :func:`binmetrics.evaluate`. Scores: higher = more positive.

    Returns
    -------
    Placements
        Its ``auc`` and ``variance`` give θ and DeLong's variance.

    References
    ----------
    E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, Biometrics 44 (1988) 837-845.
    X. Sun and W. Xu, IEEE Signal Process. Lett. 21 (2014) 1389-1393.

    Examples
    --------
    The first model of docs/methods.md §3:

    >>> y = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    >>> s1 = [.9, .8, .7, .55, .4, .7, .5, .3, .2, .1, .4]
    >>> pl = delong_placements(y, s1)
    >>> pl.v10.round(6).tolist()
    [1.0, 1.0, 0.916667, 0.833333, 0.583333]
    >>> pl.v01.round(6).tolist(), round(pl.auc, 12), round(pl.variance, 12)
    ([0.5, 0.8, 1.0, 1.0, 1.0, 0.9], 0.866666666667, 0.012416666667)
    """
    inp = check_binary_inputs(y_true, y_score, sample_weight, pos_label=pos_label,
                              nan_policy=nan_policy)
    v10, v01, P, N = _group_placements(inp.y, inp.score, inp.weight)
    if not (P > 0 and N > 0):
        raise ValueError("DeLong's placements need positives and negatives in y_true")
    if inp.weight is None:
        w10, w01 = np.ones(v10.size), np.ones(v01.size)
    else:
        w10, w01 = inp.weight[inp.y], inp.weight[~inp.y]
    return Placements(v10=v10, v01=v01, w10=w10, w01=w01, m=P, n=N)


# --- several AUCs on the same subjects ----------------------------------------------------
@dataclass(frozen=True)
class _Paired:
    aucs: FloatArray  # (K,)
    cov: FloatArray  # (K, K): S = S10/m + S01/n
    m: float
    n: float


def _paired(y: npt.NDArray[np.bool_], arrays: Sequence[FloatArray],
            w: FloatArray | None) -> _Paired:
    """AUCs and DeLong's covariance matrix of K models scored on the same rows."""
    # one sort per model, in threads (the sorts release the GIL; each model's placements
    # are computed alone, so they are the same bits either way). On a quiet 2-core
    # machine at n = 1e6, 8 models: 0.92 s one after another, 0.54 s in threads; under
    # load the threads gain nothing (0.64x was seen), but results never differ.
    placed = thread_map(lambda s: _group_placements(y, s, w), arrays,
                        parallel=len(arrays) > 1 and y.size >= THREAD_ROWS)
    rows10, rows01 = [p[0] for p in placed], [p[1] for p in placed]
    P, N = (placed[-1][2], placed[-1][3]) if placed else (0.0, 0.0)
    V10, V01 = np.vstack(rows10), np.vstack(rows01)
    if w is None:
        w10, w01 = np.ones(V10.shape[1]), np.ones(V01.shape[1])
    else:
        w10, w01 = w[y], w[~y]
    aucs = np.einsum("ij,j->i", V10, w10) / P  # einsum: no BLAS threads
    if not (P > 1 and N > 1):
        return _Paired(aucs, np.full((len(arrays),) * 2, np.nan), P, N)
    D10 = V10 - aucs[:, None]
    D01 = V01 - (np.einsum("ij,j->i", V01, w01) / N)[:, None]
    S10 = np.einsum("ij,kj->ik", D10 * w10, D10) / (P - 1.0)
    S01 = np.einsum("ij,kj->ik", D01 * w01, D01) / (N - 1.0)
    return _Paired(aucs, S10 / P + S01 / N, P, N)


@dataclass(frozen=True, repr=False)
class DeLongTest(HypothesisTest):
    """DeLong's test of the difference of two AUCs, d = value_a - value_b.

    Attributes
    ----------
    value_a, value_b : float
        The two AUCs.
    estimate : float
        d = value_a - value_b.
    sigma : float
        The standard error of d.
    statistic : float
        Z = d / sigma (paired) or Welch's t (unpaired); 0 when d = 0 and sigma = 0.
    pvalue : float
        For ``alternative``: "two-sided", "greater" (value_a > value_b) or "less".
    ci : Interval
        The interval of the difference, always two-sided: d ± q·sigma, with q the
        normal quantile (paired, as pROC) or the t quantile with ``df`` degrees of
        freedom (unpaired; pROC gives none).
    alternative : str
    paired : bool
    df : float or None
        Welch's degrees of freedom (unpaired), None for the paired z-test.
    covariance : ndarray of shape (2, 2)
        DeLong's covariance matrix of (value_a, value_b); the off-diagonal is 0 unpaired.
    """

    value_a: float
    value_b: float
    estimate: float
    sigma: float
    statistic: float
    pvalue: float
    ci: Interval
    alternative: str
    paired: bool
    df: float | None
    covariance: FloatArray

    @property
    def method(self) -> str:
        """"delong" (paired z-test) or "delong-welch" (unpaired, Welch's t)."""
        return "delong" if self.paired else "delong-welch"


def _ratio_stat(d: float, sigma: float) -> float:
    if sigma > 0:
        return d / sigma
    return 0.0 if d == 0 else math.copysign(math.inf, d)


def _nan_test(c: float, alternative: str, paired: bool, aucs: Sequence[float]) -> DeLongTest:
    nan = math.nan
    d = aucs[0] - aucs[1]
    return DeLongTest(aucs[0], aucs[1], d, nan, nan, nan,
                      Interval(d, nan, nan, c, "delong"), alternative, paired,
                      None if paired else nan, np.full((2, 2), nan))


def delong_test(
    y_true: Any,
    score_a: Any,
    score_b: Any,
    *,
    alternative: Alternative = "two-sided",
    level: float = 0.95,
    sample_weight: Any = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
) -> DeLongTest:
    """DeLong's paired test of two AUCs on the same subjects (pROC ``roc.test(...,
    method="delong", paired=TRUE)``).

    With the per-subject placements of both models (:func:`delong_placements`),
    S10 and S01 the 2×2 covariance matrices (ddof = 1) of the positives' and the
    negatives' placements, and S = S10/m + S01/n:

        d = θ_a - θ_b,  σ = √([1, -1] S [1, -1]ᵀ),  Z = d/σ  (Z = 0 when d = σ = 0),
        p = 2Φ(-|Z|) (two-sided), Φ(-Z) ("greater"), Φ(Z) ("less"),
        CI = d ± Φ⁻¹(1 - (1 - c)/2) σ.

    Parameters
    ----------
    y_true : array-like
        Labels of the subjects.
    score_a, score_b : array-like
        The two models' scores for the same subjects (higher = more positive).
    alternative : {"two-sided", "greater", "less"}
        "greater": the alternative value_a > value_b.
    level : float in (0, 1), default 0.95
        Level of the interval of the difference (two-sided whatever ``alternative``).
    sample_weight, pos_label
        As :func:`binmetrics.evaluate`; weights are multiplicities, and a row of
        weight 0 is dropped (:func:`~binmetrics.validation.check_paired_inputs`).
    nan_policy : {"raise", "omit"}
        "omit" drops a row whose score is NaN/inf in either model (pairwise, as pROC).

    Returns
    -------
    DeLongTest
        All NaN, with an :class:`~binmetrics.exceptions.UndefinedMeasureWarning`, when
        there are fewer than 2 positives or negatives. When both AUCs are 1 it warns
        (a :class:`~binmetrics.exceptions.MeasureCaveatWarning`, as pROC) and p = 1.

    Examples
    --------
    The paired test of docs/methods.md §3:

    >>> y = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    >>> s1 = [.9, .8, .7, .55, .4, .7, .5, .3, .2, .1, .4]
    >>> s2 = [.6, .9, .4, .5, .5, .5, .8, .2, .3, .1, .35]
    >>> t = delong_test(y, s1, s2)
    >>> round(t.statistic, 12), round(t.pvalue, 12)
    (0.512567829626, 0.608253661495)
    >>> low, high = t.ci
    >>> round(low, 12), round(high, 12)
    (-0.18825425908, 0.321587592413)
    """
    alt = check_alternative(alternative)
    c = check_level(level)
    inp = check_paired_inputs(y_true, [score_a, score_b], ["score_a", "score_b"],
                              sample_weight, pos_label=pos_label, nan_policy=nan_policy)
    y, arrays, w = inp.y, inp.scores, inp.weight
    n_pos = float(w[y].sum()) if w is not None else float(np.count_nonzero(y))
    n_neg = float(w[~y].sum()) if w is not None else float(y.size - np.count_nonzero(y))
    if not (n_pos > 0 and n_neg > 0):
        which = "positives" if n_pos == 0 else "negatives"
        report_undefined("delong test", f"y_true has no {which}")
        return _nan_test(c, alt, True, [math.nan, math.nan])
    return _pair_test(_paired(y, arrays, w), 0, 1, c, alt)


def _pair_test(pr: _Paired, i: int, j: int, c: float, alt: str) -> DeLongTest:
    """DeLong's test of models i and j from the placements of K models."""
    aucs = [float(pr.aucs[i]), float(pr.aucs[j])]
    if not delong_defined(pr.m, pr.n, "delong test"):
        return _nan_test(c, alt, True, aucs)
    S = pr.cov[np.ix_([i, j], [i, j])]
    d = aucs[0] - aucs[1]
    sigma = math.sqrt(max(float((S[0, 0] - S[1, 0]) - (S[0, 1] - S[1, 1])), 0.0))  # L S L
    if aucs[0] == 1.0 and aucs[1] == 1.0:
        report_caveat("delong test", "both AUCs are 1: the test cannot tell the models apart")
    z = _ratio_stat(d, sigma)
    p = normal_pvalue(z, alt)
    q = float(special.ndtri(1.0 - (1.0 - c) / 2.0))
    ci = Interval(d, d - q * sigma, d + q * sigma, c, "delong")
    return DeLongTest(aucs[0], aucs[1], d, sigma, z, p, ci, alt, True, None, S)


def delong_pairs(y: npt.NDArray[np.bool_], arrays: Sequence[FloatArray], w: FloatArray | None,
                 *, alternative: Alternative = "two-sided",
                 level: float = 0.95) -> dict[tuple[int, int], DeLongTest]:
    """:func:`delong_test` of every pair (i < j) of K models scored on the same rows,
    already validated (``y`` boolean, finite float scores, weights or None): each
    model's placements are computed once (K sorts, not K (K - 1)).

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([True, False, True, False, True])
    >>> s = [np.array([.9, .1, .8, .3, .4]), np.array([.2, .1, .9, .5, .7]),
    ...      np.array([.6, .5, .4, .3, .2])]
    >>> sorted(delong_pairs(y, s, None))
    [(0, 1), (0, 2), (1, 2)]
    """
    alt = check_alternative(alternative)
    c = check_level(level)
    pairs = [(i, j) for i in range(len(arrays)) for j in range(i + 1, len(arrays))]
    n_pos = float(w[y].sum()) if w is not None else float(np.count_nonzero(y))
    n_neg = float(w[~y].sum()) if w is not None else float(y.size - np.count_nonzero(y))
    if not (n_pos > 0 and n_neg > 0):
        which = "positives" if n_pos == 0 else "negatives"
        out = {}
        for ij in pairs:
            report_undefined("delong test", f"y_true has no {which}")
            out[ij] = _nan_test(c, alt, True, [math.nan, math.nan])
        return out
    pr = _paired(y, arrays, w)
    return {(i, j): _pair_test(pr, i, j, c, alt) for i, j in pairs}


def delong_test_unpaired(
    y_true: Any,
    score_a: Any,
    y_b: Any,
    score_b: Any,
    *,
    alternative: Alternative = "two-sided",
    level: float = 0.95,
    sample_weight: Any = None,
    sample_weight_b: Any = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
) -> DeLongTest:
    """DeLong's test of two AUCs on independent samples (pROC ``roc.test(...,
    method="delong", paired=FALSE)``).

    With each sample's DeLong variance S_R = S10/m_R + S01/n_R and S_S (as
    :func:`~binmetrics.inference.intervals.auc_variance`) and N_R = m_R + n_R,
    N_S = m_S + n_S cases:

        t = (θ_R - θ_S) / √(S_R + S_S)     (t = 0 when both are 0),
        df = (S_R + S_S)² / (S_R²/(N_R - 1) + S_S²/(N_S - 1))   (Welch),

    p from Student's t with df degrees of freedom (two-sided 2 F(-|t|), "greater"
    F(-t), "less" F(t)). The interval of the difference, d ± t_df(1 - (1-c)/2)
    √(S_R + S_S), is binmetrics' addition (pROC reports none unpaired).

    Each sample is reduced to its count table, so the cost is the two sorts.

    Parameters
    ----------
    y_true, score_a : array-like
        Labels and scores of the first sample (R).
    y_b, score_b : array-like
        Labels and scores of the second sample (S).
    alternative, level
        As :func:`delong_test`.
    sample_weight, sample_weight_b, pos_label, nan_policy
        As :func:`binmetrics.evaluate`, for each sample.

    Returns
    -------
    DeLongTest
        With ``paired=False`` and ``df`` set; ``covariance`` is diag(S_R, S_S).

    Examples
    --------
    >>> y = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    >>> s1 = [.9, .8, .7, .55, .4, .7, .5, .3, .2, .1, .4]
    >>> s2 = [.6, .9, .4, .5, .5, .5, .8, .2, .3, .1, .35]
    >>> t = delong_test_unpaired(y, s1, y, s2)
    >>> round(t.statistic, 6), round(t.df, 4), round(t.pvalue, 6)
    (0.360083, 18.5888, 0.722844)
    """
    alt = check_alternative(alternative)
    c = check_level(level)
    ta = CountTable.from_arrays(y_true, score_a, sample_weight=sample_weight,
                                pos_label=pos_label, nan_policy=nan_policy)
    tb = CountTable.from_arrays(y_b, score_b, sample_weight=sample_weight_b,
                                pos_label=pos_label, nan_policy=nan_policy)
    return delong_unpaired_tables(ta, tb, alt, c)


def delong_unpaired_tables(ta: CountTable, tb: CountTable, alt: Alternative,
                           c: float, *, placements_b: Placements | None = None) -> DeLongTest:
    """:func:`delong_test_unpaired` of the two samples' count tables (built from checked
    input), with a checked ``alternative`` and level ``c``; ``placements_b``, when
    given, are ``tb``'s placements, computed once by a caller that tests many
    samples against the same second one (``bm.monitor``'s reference)."""
    for t, name in ((ta, "first"), (tb, "second")):
        if not (t.P > 0 and t.N > 0):
            which = "positives" if t.P == 0 else "negatives"
            report_undefined("delong test", f"the {name} sample has no {which}")
            return _nan_test(c, alt, False, [math.nan, math.nan])
    pa = table_placements(ta)
    pb = table_placements(tb) if placements_b is None else placements_b
    aucs = [pa.auc, pb.auc]
    if not (delong_defined(ta.P, ta.N, "delong test")
            and delong_defined(tb.P, tb.N, "delong test")):
        return _nan_test(c, alt, False, aucs)
    sr, ss = pa.variance, pb.variance
    d = aucs[0] - aucs[1]
    total = sr + ss
    sigma = math.sqrt(total)
    t_stat = _ratio_stat(d, sigma)
    if total > 0:
        df = total * total / (sr * sr / (ta.total - 1.0) + ss * ss / (tb.total - 1.0))
    else:
        df = math.inf
    # the distribution's functions, not a frozen one: freezing costs ~3 ms a call
    if alt == "two-sided":
        p = float(2.0 * stats.t.cdf(-abs(t_stat), df))
    elif alt == "greater":
        p = float(stats.t.cdf(-t_stat, df))
    else:
        p = float(stats.t.cdf(t_stat, df))
    q = float(stats.t.ppf(1.0 - (1.0 - c) / 2.0, df))
    ci = Interval(d, d - q * sigma, d + q * sigma, c, "delong")
    return DeLongTest(aucs[0], aucs[1], d, sigma, t_stat, p, ci, alt, False, df,
                      np.diag([sr, ss]))


@dataclass(frozen=True, repr=False)
class DeLongContrast(HypothesisTest):
    """DeLong's chi-square test that a contrast of K correlated AUCs is zero.

    Attributes
    ----------
    names : tuple of str
        The models, in the order of ``values``.
    values : ndarray of shape (K,)
        Their AUCs.
    covariance : ndarray of shape (K, K)
        DeLong's S = S10/m + S01/n.
    contrast : ndarray of shape (q, K)
        L, whose rows sum to 0.
    statistic : float
        χ² = (Lθ)ᵀ (L S Lᵀ)⁻¹ (Lθ).
    df : int
        rank(L) (the rank of L S Lᵀ when that is singular; see :func:`delong_contrast`).
    pvalue : float
        The upper tail of χ²(df) at the statistic.
    """

    names: tuple[str, ...]
    values: FloatArray
    covariance: FloatArray
    contrast: FloatArray
    statistic: float
    df: int
    pvalue: float

    #: the chi-square test rejects any nonzero contrast, in whichever direction
    alternative: ClassVar[str] = "two-sided"
    method: ClassVar[str] = "delong-contrast"


def delong_contrast(
    y_true: Any,
    scores: Sequence[Any] | Mapping[str, Any],
    *,
    contrast: Any = None,
    sample_weight: Any = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
) -> DeLongContrast:
    """DeLong's test of K >= 2 correlated AUCs: is the contrast Lθ zero?

    With θ the K AUCs and S = S10/m + S01/n their DeLong covariance (the K×K form of
    :func:`delong_test`'s S; DeLong et al. 1988, Sun & Xu 2014):

        χ² = (Lθ)ᵀ (L S Lᵀ)⁻¹ (Lθ),  df = rank(L),  p = P(χ²_df >= χ²).

    The default L has the rows e_k - e_(k+1), k = 1..K-1: the test that all K AUCs are
    equal (any full-rank contrast of the differences gives the same χ²). For K = 2
    it is Z² of :func:`delong_test`, and p is its two-sided p-value. When L S Lᵀ is
    singular (e.g. two models rank the subjects identically) its pseudo-inverse is
    used and df is its rank, with a :class:`~binmetrics.exceptions.MeasureCaveatWarning`.

    Parameters
    ----------
    y_true : array-like
        Labels of the subjects.
    scores : mapping of name to array, DataFrame, or sequence of K arrays
        Every model's scores for the same subjects (higher = more positive); a
        sequence (or a 2-D array, one column per model) names them "model_0", ....
    contrast : array-like of shape (q, K) or (K,), optional
        L; each row must sum to 0.
    sample_weight, pos_label, nan_policy
        As :func:`delong_test`.

    Returns
    -------
    DeLongContrast
        NaN statistic and p-value, with an
        :class:`~binmetrics.exceptions.UndefinedMeasureWarning`, when there are fewer
        than 2 positives or negatives.

    Examples
    --------
    >>> y = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    >>> s1 = [.9, .8, .7, .55, .4, .7, .5, .3, .2, .1, .4]
    >>> s2 = [.6, .9, .4, .5, .5, .5, .8, .2, .3, .1, .35]
    >>> s3 = [.7, .6, .9, .3, .5, .2, .4, .1, .6, .2, .3]
    >>> res = delong_contrast(y, {"m1": s1, "m2": s2, "m3": s3})
    >>> res.names, res.df, res.values.round(4).tolist()
    (('m1', 'm2', 'm3'), 2, [0.8667, 0.8, 0.8667])
    >>> round(delong_contrast(y, [s1, s2]).statistic, 10) == round(0.512567829626 ** 2, 10)
    True
    """
    names, score_list, labels = check_models(scores, "delong_contrast")
    K = len(score_list)
    if contrast is None:
        L = np.zeros((K - 1, K))
        L[np.arange(K - 1), np.arange(K - 1)] = 1.0
        L[np.arange(K - 1), np.arange(1, K)] = -1.0
    else:
        L = np.atleast_2d(np.asarray(contrast, dtype=np.float64))
        if L.ndim != 2 or L.shape[1] != K or L.shape[0] < 1:
            raise ValueError(f"contrast must have shape (q, {K}) for {K} models; got "
                             f"{np.shape(contrast)}")
        if not np.isfinite(L).all():
            raise ValueError("contrast must be finite")
        if not np.allclose(L.sum(axis=1), 0.0, atol=1e-12 * max(1.0, float(np.abs(L).max()))):
            raise ValueError("every row of contrast must sum to 0 (a contrast of the AUCs)")
        if not np.any(L):
            raise ValueError("contrast is all zeros")
    inp = check_paired_inputs(y_true, score_list, labels, sample_weight,
                              pos_label=pos_label, nan_policy=nan_policy)
    y, arrays, w = inp.y, inp.scores, inp.weight
    df_l = int(np.linalg.matrix_rank(L))
    n_pos = float(w[y].sum()) if w is not None else float(np.count_nonzero(y))
    n_neg = float(w[~y].sum()) if w is not None else float(y.size - np.count_nonzero(y))
    if not (n_pos > 0 and n_neg > 0):
        which = "positives" if n_pos == 0 else "negatives"
        report_undefined("delong contrast", f"y_true has no {which}")
        return DeLongContrast(names, np.full(K, np.nan), np.full((K, K), np.nan), L,
                              math.nan, df_l, math.nan)
    pr = _paired(y, arrays, w)
    if not delong_defined(pr.m, pr.n, "delong contrast"):
        return DeLongContrast(names, pr.aucs, pr.cov, L, math.nan, df_l, math.nan)
    lt = L @ pr.aucs
    M = L @ pr.cov @ L.T
    rank = int(np.linalg.matrix_rank(M))
    if rank == L.shape[0]:
        stat = float(lt @ np.linalg.solve(M, lt))
        df = df_l
    else:
        report_caveat("delong contrast",
                      f"the covariance of the contrasts is singular (rank {rank} of "
                      f"{L.shape[0]}); using its pseudo-inverse and df = {rank}")
        df = rank
        if rank == 0:
            stat = 0.0 if np.allclose(lt, 0.0) else math.inf
        else:
            stat = float(lt @ np.linalg.pinv(M) @ lt)
    p = float(stats.chi2.sf(stat, df)) if df > 0 else (1.0 if stat == 0 else 0.0)
    return DeLongContrast(names, pr.aucs, pr.cov, L, stat, df, p)
