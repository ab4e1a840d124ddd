"""Measures based on a probabilistic interpretation of error (Berrar Defs 17-23, 35).

Each loss is a function of (label, score) per case, so it is a weighted sum over
the count table: a distinct score s with positive weight w+ and negative weight
w- contributes w+ loss(1, s) + w- loss(0, s). No raw rows are needed, and the
sums merge like the table does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from binmetrics.exceptions import report_undefined
from binmetrics.measures._util import EPS, dot, log_base
from binmetrics.measures.registry import register
from binmetrics.measures.sums import FOCAL, HINGE, INFORMATION, LOG_PASS, POLY, table_sums
from binmetrics.table.counts import CountTable, FloatArray
from binmetrics.validation import check_in_range

_LOSS = (0.0, float("inf"))


def require_probabilities(t: CountTable, measure: str) -> None:
    """Raise if any score lies outside [0, 1], naming the measure and how many."""
    if t.probabilities_ok:
        return
    if t.binning is not None:  # the table holds bin representatives, not the raw scores
        low, high = t.binning.score_range
        raise ValueError(f"{measure} needs probabilities in [0, 1], but the raw scores range "
                         f"from {low:g} to {high:g}")
    rows = t.memo("rows_outside_unit", lambda: _rows_outside_unit(t))  # asked per measure
    raise ValueError(
        f"{measure} needs probabilities in [0, 1], but {rows:g} cases have scores outside it "
        f"(min {t.scores[-1]:g}, max {t.scores[0]:g})"
    )


def _rows_outside_unit(t: CountTable) -> float:
    outside = (t.scores < 0) | (t.scores > 1)
    return float(t.pos[outside].sum() + t.neg[outside].sum())


def _poly_sums(t: CountTable) -> tuple[float, ...]:
    """sum pos (1-p), sum neg p, sum pos (1-p)^2, sum neg p^2
    (:data:`~binmetrics.measures.sums.POLY`)."""
    return table_sums(t, POLY)


def _log_pass(t: CountTable, eps: float) -> tuple[float, ...]:
    """The sums behind every log-based loss, from one pass that takes each logarithm once
    (:data:`~binmetrics.measures.sums.LOG_PASS`): -sum pos ln p, -sum neg ln(1-p), the
    same weighted by (1-p_t)^2, and the information in nats at the data's prevalence
    (NaN when eps > min(pi, 1 - pi))."""
    eps = check_in_range(eps, "eps", 0.0, 0.5, low_open=True)
    pi = t.prevalence
    sums = table_sums(t, LOG_PASS, eps=eps)
    return sums if eps <= pi <= 1.0 - eps else (*sums[:4], float("nan"))


def _clipped_logs(s: FloatArray, p: FloatArray, n: FloatArray,
                  eps: float) -> tuple[FloatArray, FloatArray]:
    """ln max(s, eps) and ln max(1 - s, eps) of every row (read where there are
    positives, and negatives: all rows, vectorised, beat a masked logarithm)."""
    return np.log(np.maximum(s, eps)), np.log(np.maximum(1.0 - s, eps))


@register("mae", name="Mean absolute error", family="probabilistic", direction=-1,
          prevalence_dependent=True,
          plot="reliability",
          sums=(POLY,),
          range=(0.0, 1.0), aliases=("mean_absolute_error",), source="Berrar Def. 17",
          formula="(1/n) sum |y - p|", needs_probabilities=True)
def mae(t: CountTable) -> float:
    """Mean absolute difference between label (0/1) and predicted probability (Berrar eq. 17)."""
    require_probabilities(t, "mae")
    pos_miss, neg_p = _poly_sums(t)[:2]  # |1 - p| = 1 - p and |0 - p| = p on [0, 1]
    return (pos_miss + neg_p) / t.total


@register("brier", name="Brier score (mean squared error)", family="probabilistic",
          prevalence_dependent=True,
          plot="reliability",
          sums=(POLY,),
          direction=-1, range=(0.0, 1.0), aliases=("mse", "brier_score", "mean_squared_error"),
          source="Berrar Def. 18; multi-level paper Table 5", formula="(1/n) sum (y - p)^2",
          needs_probabilities=True)
def brier(t: CountTable) -> float:
    """Mean squared difference between label and predicted probability (Berrar eq. 18)."""
    require_probabilities(t, "brier")
    sums = _poly_sums(t)
    return (sums[2] + sums[3]) / t.total


@register("rps", name="Ranked probability score", family="probabilistic",
          prevalence_dependent=True,
          plot="reliability",
          sums=(POLY,),
          direction=-1, range=(0.0, 1.0), aliases=("ranked_probability_score",),
          source="Epstein 1969; Murphy 1971; named by Berrar (after Def. 18, ref. 44) for "
                 "ordered classes",
          formula="(1/n) sum_i 1/(K-1) sum_{k<K} (sum_{j<=k} p_ij - sum_{j<=k} o_ij)^2",
          needs_probabilities=True)
def rps(t: CountTable) -> float:
    """Ranked probability score: the squared distance between the cumulative predicted
    and observed distributions over ordered classes (Epstein 1969, in Murphy's 1971 form
    scaled by 1/(K - 1), as Berrar, Lopes & Dubitzky 2019 use it).

    For two classes ordered (negative, positive) it is the Brier score (Berrar eq. 18):
    the one cumulative term is (1 - p) - (1 - y). A multiclass evaluation computes it
    over the classes in the order of its probability columns
    (:func:`binmetrics.measures.multiclass.rps`).
    """
    require_probabilities(t, "rps")
    sums = _poly_sums(t)
    return (sums[2] + sums[3]) / t.total


@register("rmse", name="Root mean square error", family="probabilistic", direction=-1,
          prevalence_dependent=True,
          plot="reliability",
          sums=(POLY,),
          range=(0.0, 1.0), aliases=("root_mean_squared_error",), source="Berrar Def. 19",
          formula="sqrt((1/n) sum (y - p)^2)", needs_probabilities=True)
def rmse(t: CountTable) -> float:
    """Square root of the Brier score (Berrar eq. 19)."""
    require_probabilities(t, "rmse")
    return float(np.sqrt(brier(t)))


@register("log_loss", name="Log loss (cross-entropy)", family="probabilistic", direction=-1,
          prevalence_dependent=True,
          plot="reliability",
          sums=(LOG_PASS,),
          range=_LOSS, aliases=("logloss", "cross_entropy"), source="Berrar Def. 20",
          formula="-(1/n) sum [y log_b(p) + (1 - y) log_b(1 - p)]", needs_probabilities=True)
def log_loss(t: CountTable, *, base: float = 2.0, eps: float = EPS) -> float:
    """Cross-entropy of the labels under the predicted probabilities (Berrar eq. 20).

    Parameters
    ----------
    base : logarithm base, default 2 as in Berrar (use ``np.e`` for nats, as scikit-learn).
    eps : p and 1 - p are replaced by max(., eps) inside the logarithm (Berrar: "a small
        positive constant"; Ferri et al. suggest 1e-5).
    """
    require_probabilities(t, "log_loss")
    lp, ln = _log_pass(t, eps)[:2]
    return (lp + ln) / t.total / log_base(base)


def _class_weight(t: CountTable, alpha: float | None) -> float:
    if alpha is None:
        return t.N / t.total  # inverse class frequency, as Berrar describes
    return check_in_range(alpha, "alpha", 0.0, 1.0)


@register("balanced_log_loss", name="Balanced cross-entropy", family="probabilistic",
          prevalence_dependent=True,
          plot="reliability",
          sums=(LOG_PASS,),
          direction=-1, range=_LOSS, aliases=("balanced_cross_entropy", "bce"),
          source="Berrar Def. 21",
          formula="-(1/n) sum [a y log_b(p) + (1 - a)(1 - y) log_b(1 - p)]",
          needs_probabilities=True)
def balanced_log_loss(
    t: CountTable, *, alpha: float | None = None, base: float = 2.0, eps: float = EPS
) -> float:
    """Cross-entropy with weight alpha on positives and 1 - alpha on negatives (Berrar eq. 21).

    Parameters
    ----------
    alpha : float in [0, 1], optional. Default: the inverse class frequency
        N / (P + N), so that the minority class gets the larger weight (Berrar's
        example: 10 positives among 1000 give alpha = 990/1000).
    base, eps : as for :func:`log_loss`.
    """
    require_probabilities(t, "balanced_log_loss")
    a = _class_weight(t, alpha)
    lp, ln = _log_pass(t, eps)[:2]
    return (a * lp + (1.0 - a) * ln) / t.total / log_base(base)


@register("focal_loss", name="Average focal loss", family="probabilistic", direction=-1,
          prevalence_dependent=True,
          plot="reliability",
          sums=(LOG_PASS, FOCAL),
          range=_LOSS, source="Berrar Def. 22 (eq. 23)",
          formula="-(1/n) sum a_t (1 - p_t)^gamma log_b(p_t)", needs_probabilities=True)
def focal_loss(
    t: CountTable,
    *,
    gamma: float = 2.0,
    alpha: float | None = None,
    base: float = 2.0,
    eps: float = EPS,
) -> float:
    """Average focal loss: cross-entropy down-weighting easy cases (Berrar eqs. 22-23).

    Parameters
    ----------
    gamma : focusing parameter >= 0, default 2; gamma = 0 gives the log loss.
    alpha : optional weight of the positive class (1 - alpha for negatives), the
        alpha-balanced variant; default None (no class weights).
    base, eps : as for :func:`log_loss`.
    """
    require_probabilities(t, "focal_loss")
    g = check_in_range(gamma, "gamma", 0.0, np.inf, high_open=True)
    eps = check_in_range(eps, "eps", 0.0, 0.5, low_open=True)
    a_pos, a_neg = 1.0, 1.0
    if alpha is not None:
        a_pos = check_in_range(alpha, "alpha", 0.0, 1.0)
        a_neg = 1.0 - a_pos

    def block(s: FloatArray, p: FloatArray, n: FloatArray) -> list[Any]:
        # (1 - p_t)^gamma is (1 - p)^gamma for a positive and p^gamma for a negative;
        # only the logarithm is clipped at eps
        lp, ln = _clipped_logs(s, p, n, eps)
        return [-dot(p, _power(1.0 - s, g) * lp), -dot(n, _power(s, g) * ln)]

    lp, ln = _log_pass(t, eps)[2:4] if g == 2.0 else table_sums(t, FOCAL, block, gamma=g, eps=eps)
    return (a_pos * lp + a_neg * ln) / t.total / log_base(base)


def _power(x: FloatArray, g: float) -> FloatArray:
    return x * x if g == 2.0 else np.power(x, g)


def _prior(t: CountTable, prior: float | None, measure: str) -> float | None:
    if prior is not None:
        return check_in_range(prior, "prior", 0.0, 1.0, low_open=True, high_open=True)
    pi = t.prevalence
    if pi in (0.0, 1.0):
        report_undefined(measure, "the class prior is 0 or 1 (y_true has one class); pass prior=")
        return None
    return pi


def _information_sum(t: CountTable, pi: float) -> float:
    """Sum over all cases of the information score in nats (Kononenko & Bratko).

    Its logarithms are of p >= pi and of 1 - p >= 1 - pi (or of p > pi for a
    negative, 1 - p > 1 - pi for a positive), so clipping at eps <= min(pi, 1 - pi)
    would leave them unchanged: the shared pass of the log losses serves the
    default prior.
    """
    if pi == t.prevalence and EPS <= pi <= 1.0 - EPS:
        info = _log_pass(t, EPS)[4]
        if not np.isnan(info):  # NaN only for binned scores calibrated by reweighting,
            return info  # whose engine has no such sum: asked below, it says so

    lpi, l1pi = float(np.log(pi)), float(np.log1p(-pi))

    def block(s: FloatArray, p: FloatArray, n: FloatArray) -> list[Any]:
        # a positive (prior pi, predicted s): s >= pi gains log s - log pi, else
        # log(1 - pi) - log(1 - s); a negative (prior 1 - pi, predicted 1 - s):
        # s <= pi gains log(1 - s) - log(1 - pi), else log pi - log s
        up = s >= pi
        down = s > pi
        log_s = np.zeros_like(s)
        np.log(s, out=log_s, where=(up & (p > 0)) | (down & (n > 0)))
        log_1ms = np.zeros_like(s)
        np.log(1.0 - s, out=log_1ms, where=(~up & (p > 0)) | (~down & (n > 0)))
        info_pos = np.where(up, log_s - lpi, l1pi - log_1ms)
        info_neg = np.where(down, lpi - log_s, log_1ms - l1pi)
        return [dot(p, info_pos) + dot(n, info_neg)]

    return table_sums(t, INFORMATION, block, prior=pi)[0]


@register("information_score", name="Information score (Kononenko-Bratko), mean",
          prevalence_dependent=True,
          sums=(LOG_PASS, INFORMATION),
          family="probabilistic", direction=1, range=(-np.inf, np.inf),
          aliases=("kb_information", "mean_information_score"),
          source="Berrar Def. 23 (eq. 24); Kononenko & Bratko 1991; docs/methods.md §5.1",
          formula="mean of I = log p - log P if p >= P else log(1-P) - log(1-p)",
          needs_probabilities=True)
def information_score(t: CountTable, *, prior: float | None = None, base: float = 2.0) -> float:
    """Mean Kononenko-Bratko information score in bits per case (Berrar eq. 24).

    For each case with true-class prior P and predicted probability p of its true
    class: I = log p - log P if p >= P, else log(1 - P) - log(1 - p).

    Parameters
    ----------
    prior : probability of the positive class before seeing the case. Default: the
        prevalence of the evaluated data (Orange's "test" priors); pass the training
        set's prior where it differs. A prior of 0 or 1 (data with one class) gives
        NaN with a warning; Weka instead clamps it at 4.9e-324, which turns the score
        into an artefact of that constant.
    base : logarithm base, default 2 (bits).
    """
    require_probabilities(t, "information_score")
    pi = _prior(t, prior, "information_score")
    if pi is None:
        return float("nan")
    return _information_sum(t, pi) / t.total / log_base(base)


@register("relative_information_score", name="Relative information score",
          prevalence_dependent=True,
          sums=(LOG_PASS, INFORMATION),
          family="probabilistic", direction=1, range=(-np.inf, np.inf),
          aliases=("kb_relative_information",),
          source="Berrar Def. 23 (eq. 25); docs/methods.md §5.1",
          formula="mean information score / entropy of the prior",
          needs_probabilities=True)
def relative_information_score(t: CountTable, *, prior: float | None = None) -> float:
    """Mean information score divided by the entropy of the prior (Berrar eq. 25).

    A fraction (0.2846 in Berrar's example); Orange reports 100 times this.
    """
    require_probabilities(t, "relative_information_score")
    pi = _prior(t, prior, "relative_information_score")
    if pi is None:
        return float("nan")
    entropy = -(pi * np.log(pi) + (1 - pi) * np.log1p(-pi))  # nats, like the sum
    return _information_sum(t, pi) / t.total / float(entropy)


@register("hinge_loss", name="Average hinge loss", family="probabilistic", direction=-1,
          prevalence_dependent=True,
          plot="loss",
          sums=(POLY, HINGE),
          range=_LOSS, aliases=("hinge",), source="Berrar Def. 35 (eq. 44)",
          formula="(1/n) sum max(0, 1 - y s), y in {-1, +1}")
def hinge_loss(t: CountTable) -> float:
    """Average hinge loss of scores read as signed distances, labels as -1/+1 (Berrar eq. 44)."""
    if t.probabilities_ok:  # 0 <= s <= 1: max(0, 1 - s) = 1 - s and max(0, 1 + s) = 1 + s
        pos_miss, neg_s = _poly_sums(t)[:2]
        return (pos_miss + t.N + neg_s) / t.total

    return table_sums(t, HINGE)[0] / t.total


def triplet_loss(
    anchor: Any, positive: Any, negative: Any, *, margin: float = 0.2,
    reduction: str = "sum",
) -> float:
    """Triplet loss of embeddings (Berrar Def. 34, eq. 42).

    L = sum_i max(0, ||f(a_i) - f(p_i)||^2 - ||f(a_i) - f(n_i)||^2 + margin)

    Parameters
    ----------
    anchor, positive, negative : arrays of shape (N, d): the embeddings of the
        anchors, of images of the same identity, and of images of another one.
    margin : the margin alpha between positive and negative pairs (>= 0).
    reduction : "sum" (Berrar's definition) or "mean".

    Berrar's example is face recognition: the anchor and the positive are two pictures
    of one person, the negative a picture of someone else, each embedded with unit norm.
    PyTorch's ``TripletMarginLoss`` uses the distances, not their squares, and averages
    by default (docs/methods.md, "Triplet loss").

    Examples
    --------
    >>> triplet_loss([[1.0, 0.0]], [[1.0, 0.0]], [[0.0, 1.0]], margin=0.2)
    0.0

    An easy triplet (the negative far away) and a hard one (the negative nearer than the
    positive: 2.0 - 0.8 + 0.2):

    >>> anchor, positive, negative = [[1, 0], [1, 0]], [[.8, .6], [0, 1]], [[0, 1], [.6, .8]]
    >>> round(triplet_loss(anchor, positive, negative, margin=0.2), 12)
    1.4
    """
    arrays = []
    for name, x in (("anchor", anchor), ("positive", positive), ("negative", negative)):
        a = np.asarray(x, dtype=np.float64)
        if a.ndim == 1:
            a = a[None, :]
        if a.ndim != 2:
            raise ValueError(f"{name} must have shape (N, d); got {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} has non-finite values")
        arrays.append(a)
    a, p, n = arrays
    if not (a.shape == p.shape == n.shape):
        raise ValueError(
            f"anchor, positive and negative must have the same shape; got {a.shape}, "
            f"{p.shape}, {n.shape}"
        )
    m = check_in_range(margin, "margin", 0.0, np.inf, high_open=True)
    per = np.maximum(0.0, ((a - p) ** 2).sum(axis=1) - ((a - n) ** 2).sum(axis=1) + m)
    if reduction == "sum":
        return float(per.sum())
    if reduction == "mean":
        return float(per.mean())
    raise ValueError(f"reduction must be 'sum' or 'mean', got {reduction!r}")
