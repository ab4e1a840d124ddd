"""Measures based on a probabilistic interpretation of error (Berrar Defs 17-23, 35).

Each loss is a function of (label, score) per case, so it is a weighted sum over
the count table: a distinct score s with positive weight w+ and negative weight
w- contributes w+ loss(1, s) + w- loss(0, s). No raw rows are needed, and the
sums merge like the table does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..counts import CountTable
from ..exceptions import report_undefined
from ..validation import check_in_range
from ._util import log_base
from .registry import register

_LOSS = (0.0, float("inf"))


def require_probabilities(t: CountTable, measure: str) -> None:
    """Raise if any score lies outside [0, 1], naming the measure and how many."""
    if t.probabilities_ok:
        return
    outside = (t.scores < 0) | (t.scores > 1)
    rows = float(t.pos[outside].sum() + t.neg[outside].sum())
    raise ValueError(
        f"{measure} needs probabilities in [0, 1], but {rows:g} cases have scores outside it "
        f"(min {t.scores[-1]:g}, max {t.scores[0]:g})"
    )


def _mean(t: CountTable, loss_pos: Any, loss_neg: Any) -> float:
    return float((np.dot(t.pos, loss_pos) + np.dot(t.neg, loss_neg)) / t.total)


def _n_above(t: CountTable, x: float, *, strict: bool = False) -> int:
    """How many distinct scores are >= x (> x if strict): a prefix of the sorted table."""
    desc = t.scores
    return int(desc.size - np.searchsorted(desc[::-1], x, side="right" if strict else "left"))


def _log_sums(t: CountTable, eps: float) -> tuple[float, float]:
    """(sum over positives of -ln max(p, eps), sum over negatives of -ln max(1 - p, eps)).

    The table is sorted, so the clipped scores are a head (p > 1 - eps) and a tail
    (p < eps): each logarithm is taken once, only where it is needed.
    """
    eps = check_in_range(eps, "eps", 0.0, 0.5, low_open=True)

    def compute() -> tuple[float, float]:
        s, pos, neg = t.scores, t.pos, t.neg
        k = _n_above(t, eps)  # scores >= eps
        h = _n_above(t, 1.0 - eps, strict=True)  # scores > 1 - eps
        log_eps = float(np.log(eps))
        lp = -float(np.dot(pos[:k], np.log(s[:k]))) - log_eps * float(pos[k:].sum())
        ln = -float(np.dot(neg[h:], np.log1p(-s[h:]))) - log_eps * float(neg[:h].sum())
        return lp, ln

    return t.memo(("log_sums", eps), compute)


@register("mae", name="Mean absolute error", family="probabilistic", direction=-1,
          range=(0.0, 1.0), aliases=("mean_absolute_error",), source="Berrar Def. 17",
          formula="(1/n) sum |y - p|", needs_probabilities=True)
def mae(t: CountTable) -> float:
    """Mean absolute difference between label (0/1) and predicted probability (Berrar eq. 17)."""
    require_probabilities(t, "mae")
    # |1 - p| = 1 - p and |0 - p| = p on [0, 1]
    return float((t.P - np.dot(t.pos, t.scores) + np.dot(t.neg, t.scores)) / t.total)


@register("brier", name="Brier score (mean squared error)", family="probabilistic",
          direction=-1, range=(0.0, 1.0), aliases=("mse", "brier_score", "mean_squared_error"),
          source="Berrar Def. 18; multi-level paper Table 5", formula="(1/n) sum (y - p)^2",
          needs_probabilities=True)
def brier(t: CountTable) -> float:
    """Mean squared difference between label and predicted probability (Berrar eq. 18)."""
    require_probabilities(t, "brier")
    miss = np.subtract(1.0, t.scores)
    miss *= miss
    sq = np.multiply(t.scores, t.scores)
    return _mean(t, miss, sq)


@register("rmse", name="Root mean square error", family="probabilistic", direction=-1,
          range=(0.0, 1.0), aliases=("root_mean_squared_error",), source="Berrar Def. 19",
          formula="sqrt((1/n) sum (y - p)^2)", needs_probabilities=True)
def rmse(t: CountTable) -> float:
    """Square root of the Brier score (Berrar eq. 19)."""
    require_probabilities(t, "rmse")
    return float(np.sqrt(brier(t)))


@register("log_loss", name="Log loss (cross-entropy)", family="probabilistic", direction=-1,
          range=_LOSS, aliases=("logloss", "cross_entropy"), source="Berrar Def. 20",
          formula="-(1/n) sum [y log_b(p) + (1 - y) log_b(1 - p)]", needs_probabilities=True)
def log_loss(t: CountTable, *, base: float = 2.0, eps: float = 1e-15) -> float:
    """Cross-entropy of the labels under the predicted probabilities (Berrar eq. 20).

    Parameters
    ----------
    base : logarithm base, default 2 as in Berrar (use ``np.e`` for nats, as scikit-learn).
    eps : p and 1 - p are replaced by max(., eps) inside the logarithm (Berrar: "a small
        positive constant"; Ferri et al. suggest 1e-5).
    """
    require_probabilities(t, "log_loss")
    lp, ln = _log_sums(t, eps)
    return (lp + ln) / t.total / log_base(base)


def _class_weight(t: CountTable, alpha: float | None) -> float:
    if alpha is None:
        return t.N / t.total  # inverse class frequency, as Berrar describes
    return check_in_range(alpha, "alpha", 0.0, 1.0)


@register("balanced_log_loss", name="Balanced cross-entropy", family="probabilistic",
          direction=-1, range=_LOSS, aliases=("balanced_cross_entropy", "bce"),
          source="Berrar Def. 21",
          formula="-(1/n) sum [a y log_b(p) + (1 - a)(1 - y) log_b(1 - p)]",
          needs_probabilities=True)
def balanced_log_loss(
    t: CountTable, *, alpha: float | None = None, base: float = 2.0, eps: float = 1e-15
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
    lp, ln = _log_sums(t, eps)
    return (a * lp + (1.0 - a) * ln) / t.total / log_base(base)


@register("focal_loss", name="Average focal loss", family="probabilistic", direction=-1,
          range=_LOSS, source="Berrar Def. 22 (eq. 23)",
          formula="-(1/n) sum a_t (1 - p_t)^gamma log_b(p_t)", needs_probabilities=True)
def focal_loss(
    t: CountTable,
    *,
    gamma: float = 2.0,
    alpha: float | None = None,
    base: float = 2.0,
    eps: float = 1e-15,
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
    s, pos, neg = t.scores, t.pos, t.neg
    # (1 - p_t)^gamma is (1 - p)^gamma for a positive and p^gamma for a negative;
    # only the logarithm is clipped at eps. Positives: the scores >= eps take log p.
    k = _n_above(t, eps)
    h = _n_above(t, 1.0 - eps, strict=True)
    log_eps = float(np.log(eps))
    lp = -(np.dot(pos[:k], (1.0 - s[:k]) ** g * np.log(s[:k]))
           + log_eps * np.dot(pos[k:], (1.0 - s[k:]) ** g))
    ln = -(np.dot(neg[h:], s[h:] ** g * np.log1p(-s[h:])) + log_eps * np.dot(neg[:h], s[:h] ** g))
    return float(a_pos * lp + a_neg * ln) / t.total / log_base(base)


def _prior(t: CountTable, prior: float | None, measure: str) -> float | None:
    if prior is not None:
        return check_in_range(prior, "prior", 0.0, 1.0, low_open=True, high_open=True)
    pi = t.prevalence
    if pi in (0.0, 1.0):
        report_undefined(measure, "the class prior is 0 or 1 (y_true has one class); pass prior=")
        return None
    return pi


def _information_sum(t: CountTable, pi: float) -> float:
    """Sum over all cases of the information score in nats (Kononenko & Bratko)."""

    def compute() -> float:
        s, pos, neg = t.scores, t.pos, t.neg
        k = _n_above(t, pi)  # s >= pi: a positive gains log s - log pi
        k2 = _n_above(t, pi, strict=True)  # s > pi: a negative loses log pi - log s
        log_s = np.log(s[:k])  # s >= pi > 0
        log_1ms = np.log1p(-s[k2:])  # s <= pi < 1
        lpi, l1pi = np.log(pi), np.log1p(-pi)
        # positives: s >= pi -> log s - log pi; s < pi -> log(1 - pi) - log(1 - s)
        total = (np.dot(pos[:k], log_s) - lpi * pos[:k].sum()
                 + l1pi * pos[k:].sum() - np.dot(pos[k:], log_1ms[k - k2:]))
        # negatives (predicted 1 - s, prior 1 - pi): s <= pi -> log(1 - s) - log(1 - pi);
        # s > pi -> log pi - log s
        total += (np.dot(neg[k2:], log_1ms) - l1pi * neg[k2:].sum()
                  + lpi * neg[:k2].sum() - np.dot(neg[:k2], log_s[:k2]))
        return float(total)

    return t.memo(("information", pi), compute)


@register("information_score", name="Information score (Kononenko-Bratko), mean",
          family="probabilistic", direction=1, range=(-np.inf, np.inf),
          aliases=("kb_information", "mean_information_score"),
          source="Berrar Def. 23 (eq. 24); Kononenko & Bratko 1991; METHODS.md 5.1",
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
        set's prior where it differs.
    base : logarithm base, default 2 (bits).
    """
    require_probabilities(t, "information_score")
    pi = _prior(t, prior, "information_score")
    if pi is None:
        return float("nan")
    return _information_sum(t, pi) / t.total / log_base(base)


@register("relative_information_score", name="Relative information score",
          family="probabilistic", direction=1, range=(-np.inf, 1.0),
          aliases=("kb_relative_information",),
          source="Berrar Def. 23 (eq. 25); METHODS.md 5.1",
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
          range=_LOSS, aliases=("hinge",), source="Berrar Def. 35 (eq. 44)",
          formula="(1/n) sum max(0, 1 - y s), y in {-1, +1}")
def hinge_loss(t: CountTable) -> float:
    """Average hinge loss of scores read as signed distances, labels as -1/+1 (Berrar eq. 44)."""
    s, pos, neg = t.scores, t.pos, t.neg
    k = _n_above(t, 1.0)  # positives with s >= 1 lose nothing
    h = _n_above(t, -1.0, strict=True)  # negatives with s <= -1 lose nothing
    loss = pos[k:].sum() - np.dot(pos[k:], s[k:]) + neg[:h].sum() + np.dot(neg[:h], s[:h])
    return float(loss / t.total)


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

    Examples
    --------
    >>> triplet_loss([[1.0, 0.0]], [[1.0, 0.0]], [[0.0, 1.0]], margin=0.2)
    0.0
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
