"""Ranking measures (Berrar Defs 25-33, the multi-level paper's Table 6, PR-gain).

All are computed from the count table's cumulative counts: TP and FP at cut k
are the (weighted) positives and negatives among the top k distinct scores.
Sums over the positives use only the groups that hold positives
(:meth:`CountTable.positive_groups`); the rest walk the table in blocks
(:meth:`CountTable.iter_cuts`), so no measure builds arrays of the table's size.

Ties are segments: a tied group moves TP and FP together, AUC gives it the
Mann-Whitney half credit, ranks are average ranks, and measures that look at a
fixed number of top cases take the expected value over random orders of the
tied group (linear interpolation inside it). Nothing depends on row order.

A ranking measure needs both classes; on a single class it is NaN with an
:class:`~binmetrics.exceptions.UndefinedMeasureWarning`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.special import digamma

from binmetrics.exceptions import report_caveat, report_undefined
from binmetrics.measures._util import trapezoid
from binmetrics.measures.registry import register
from binmetrics.table.counts import CountTable, FloatArray, chunks
from binmetrics.validation import check_in_range

_NAN = float("nan")
_UNIT = (0.0, 1.0)


def both_classes(t: CountTable, measure: str) -> bool:
    """True if the table has positives and negatives; otherwise report and return False."""
    if t.P > 0 and t.N > 0:
        return True
    which = "positives" if t.P == 0 else "negatives"
    report_undefined(measure, f"y_true has no {which}; a ranking measure needs both classes")
    return False


def _ranks_sum(t: CountTable) -> float:
    """Sum over positives of their average rank (rank 1 = highest score).

    A group of m cases after c0 others holds ranks c0+1..c0+m, mean c0 + (m+1)/2.
    """
    g = t.positive_groups()
    return float(np.dot(g.pos, g.tp0 + g.fp0 + (g.pos + g.neg + 1.0) / 2.0))


# --- ROC --------------------------------------------------------------------------
@register("auc", binning_bound="refinements",
          name="Area under the ROC curve", family="ranking", direction=1, range=_UNIT,
          aliases=("roc_auc", "auroc", "c_statistic"),
          interval_methods=("delong",), paired_tests=("delong",),
          source="Berrar Def. 27 (eqs. 31-32); multi-level paper Table 6",
          formula="P(score+ > score-) + P(score+ = score-)/2")
def auc(t: CountTable) -> float:
    """Area under the ROC curve: the Mann-Whitney probability that a random positive
    scores above a random negative, ties counting one half (Berrar eqs. 31-32).

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...     [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> auc(t)
    0.8
    """
    if not both_classes(t, "auc"):
        return _NAN
    # each positive beats the negatives below its group and ties half of its own group's
    g = t.positive_groups()
    pos, neg, fp1, big_p, big_n = g.pos, g.neg, g.fp1, t.P, t.N
    if _extreme(t):  # as fractions of the total, so that P N cannot under- or overflow
        pos, neg, fp1 = pos / t.total, neg / t.total, fp1 / t.total
        big_p, big_n = big_p / t.total, big_n / t.total
    return float(np.dot(pos, big_n - fp1 + 0.5 * neg) / big_n / big_p)


def _extreme(t: CountTable) -> bool:
    """True for weights so large or small that products of two totals leave float range:
    those measures then work on fractions of the total (other tables keep their exact
    integer arithmetic)."""
    prod = t.P * t.N
    return t.weighted and not (1e-150 < prod < 1e150)


@register("gini", binning_bound="refinements",
          name="Gini index", family="ranking", direction=1, range=(-1.0, 1.0),
          aliases=("gini_coefficient", "somers_d"), source="Berrar Def. 28 (eq. 33)",
          formula="2 AUC - 1")
def gini(t: CountTable) -> float:
    """Area between the ROC curve and the diagonal over the area above it, 2 AUC - 1."""
    return 2.0 * auc(t) - 1.0 if both_classes(t, "gini") else _NAN


def upper_hull(x: FloatArray, y: FloatArray) -> npt.NDArray[np.intp]:
    """Indices of the vertices of the upper convex hull of points sorted by x.

    Quickhull on index sets: each chord keeps only the points strictly above it,
    so after the first split almost every point of a ROC curve is discarded.
    Collinear points are not vertices.
    """
    n = x.size
    if n <= 2:
        return np.arange(n)
    vertices = [0, n - 1]
    stack: list[tuple[int, int, npt.NDArray[np.intp] | None]] = [(0, n - 1, None)]
    while stack:
        a, b, cand = stack.pop()
        dx, dy = x[b] - x[a], y[b] - y[a]
        if cand is None:  # the first chord: every inner point, read as slices
            cross = dx * (y[1:-1] - y[a]) - dy * (x[1:-1] - x[a])
            above = np.flatnonzero(cross > 0) + 1
            cross = cross[above - 1]
        elif cand.size == 0:
            continue
        else:
            cross = dx * (y[cand] - y[a]) - dy * (x[cand] - x[a])
            above = cand[cross > 0]
            cross = cross[cross > 0]
        if above.size == 0:
            continue
        m = int(above[int(np.argmax(cross))])
        vertices.append(m)
        stack.append((a, m, above[above < m]))
        stack.append((m, b, above[above > m]))
    return np.sort(np.asarray(vertices, dtype=np.intp))


def _prune_below_neighbours(x: FloatArray, y: FloatArray, rounds: int = 4) -> npt.NDArray[np.intp]:
    """Indices left after dropping, a few times over, every point that is not strictly
    above the chord between its neighbours: such a point is no hull vertex, so the
    hull is unchanged, and quickhull then starts from far fewer points."""
    idx = np.arange(x.size)
    for _ in range(rounds):
        xi, yi = x[idx], y[idx]
        turn = ((xi[1:-1] - xi[:-2]) * (yi[2:] - yi[:-2])
                - (yi[1:-1] - yi[:-2]) * (xi[2:] - xi[:-2]))
        keep = np.ones(idx.size, dtype=bool)
        keep[1:-1] = turn < 0
        if keep.all():
            break
        idx = idx[keep]
    return idx


def roc_hull(t: CountTable) -> tuple[FloatArray, FloatArray]:
    """FPR and TPR of the vertices of the ROC convex hull, from (0, 0) to (1, 1)."""

    def compute() -> tuple[FloatArray, FloatArray]:
        # An inner vertex of the upper hull is reached by a step holding positives and
        # left by a step holding negatives: after a horizontal step the point before
        # it is as high, before a vertical step the point after it is higher.
        g = t.positive_groups()
        after = g.idx + 1  # the cut after each group with positives
        inner = after < t.n_distinct
        inner[inner] = t.neg[after[inner]] > 0
        # in ROC space (rates), so that the cross products neither under- nor overflow
        x = np.concatenate(([0.0], g.fp1[inner] / t.N, [1.0]))
        y = np.concatenate(([0.0], g.tp1[inner] / t.P, [1.0]))
        keep = _prune_below_neighbours(x, y)
        v = keep[upper_hull(x[keep], y[keep])]
        return x[v], y[v]

    return t.memo("roc_hull", compute)


@register("auch", binning_bound="above_binned",
          name="Area under the ROC convex hull", family="ranking", direction=1,
          range=_UNIT, aliases=("roc_convex_hull_area",), source="Berrar Def. 29 (eq. 34)",
          formula="trapezoid area under the ROC convex hull")
def auch(t: CountTable) -> float:
    """Area under the ROC convex hull (Berrar eq. 34): the ROC curve with its
    concavities spanned, i.e. the best AUC reachable by interpolating classifiers."""
    if not both_classes(t, "auch"):
        return _NAN
    return trapezoid(*roc_hull(t))


def _gap_stats(t: CountTable) -> tuple[float, float, float]:
    """(max |TPR - FPR|, max (TPR - FPR), mean of TPR - FPR over the inner cuts).

    TPR - FPR rises across groups with positives and falls across the others, so its
    maxima sit right after groups with positives and its minima right before them
    (or at the ends, where it is 0). Its sum over the cuts counts each group's cases
    once for every cut at or below it: group g adds to cuts g+1..d.
    """

    def compute() -> tuple[float, float, float]:
        g = t.positive_groups()
        hi = max(0.0, float(np.max(g.tp1 / t.P - g.fp1 / t.N)))
        lo = min(0.0, float(np.min(g.tp0 / t.P - g.fp0 / t.N)))
        d = t.n_distinct
        if d < 2:
            return max(hi, -lo), hi, _NAN
        # sums over the inner cuts 1..d-1 (cut d holds every case)
        sum_tp = float(np.dot(g.pos, d - g.idx)) - t.P
        if not t.weighted and t.total == d:  # one case per group: g negatives are all but g pos
            neg_rank = d * (d - 1) / 2.0 - float(np.dot(g.pos, g.idx))
        else:
            neg_rank = 0.0  # sum over groups of g * negatives
            for sl in chunks(d):
                neg_rank += float(np.dot(t.neg[sl], np.arange(sl.start, sl.stop,
                                                              dtype=np.float64)))
        sum_fp = d * t.N - neg_rank - t.N
        return max(hi, -lo), hi, (sum_tp / t.P - sum_fp / t.N) / (d - 1)

    return t.memo("gap", compute)


@register("ks", binning_bound="above_binned",
          name="Kolmogorov-Smirnov statistic", family="ranking", direction=1,
          range=_UNIT, aliases=("kolmogorov_smirnov",),
          source="Berrar Def. 30 (eq. 35; the paper's 0.2 is an erratum, KS = 0.6)",
          formula="max over thresholds |TPR - FPR|")
def ks(t: CountTable) -> float:
    """Largest distance between the TPR and FPR curves over all thresholds (Berrar eq. 35)."""
    if not both_classes(t, "ks"):
        return _NAN
    return _gap_stats(t)[0]


@register("taks", name="Truncated average Kolmogorov-Smirnov statistic", family="ranking",
          direction=1, range=(-1.0, 1.0), aliases=("truncated_average_ks",),
          source="Berrar Def. 31 (eq. 36); METHODS.md 5.2",
          formula="mean of TPR - FPR over the thresholds between the end points")
def taks(t: CountTable) -> float:
    """Mean signed gap TPR - FPR over all thresholds except the end points (0,0), (1,1)
    (Berrar eq. 36). With ties the thresholds are the distinct scores."""
    if not both_classes(t, "taks"):
        return _NAN
    if t.n_distinct < 2:
        report_undefined("taks", "all scores are equal: there is no threshold between the ends")
        return _NAN
    return _gap_stats(t)[2]


@register("youden_j_max", binning_bound="above_binned",
          name="Maximum Youden index", family="ranking", direction=1,
          range=_UNIT, aliases=("max_informedness", "j_max"),
          source="Berrar Def. 8 (J_max)", formula="max over thresholds TPR + TNR - 1")
def youden_j_max(t: CountTable) -> float:
    """Largest sensitivity + specificity - 1 over all thresholds (Berrar Def. 8)."""
    if not both_classes(t, "youden_j_max"):
        return _NAN
    return _gap_stats(t)[1]


# --- precision-recall ---------------------------------------------------------------
@register("average_precision", binning_bound="average_precision",
          name="Average precision", family="ranking", direction=1,
          range=_UNIT, aliases=("ap", "aucpr"),
          source="Berrar Def. 32 (eq. 38); multi-level paper Table 6",
          formula="sum_k (R_k - R_(k-1)) P_k over distinct thresholds")
def average_precision(t: CountTable) -> float:
    """Step-wise area under the precision-recall curve (Berrar eq. 38, = scikit-learn).

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...     [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> round(average_precision(t), 12)
    0.835
    """
    if not both_classes(t, "average_precision"):
        return _NAN
    g = t.positive_groups()
    tp1 = g.tp1
    return float(np.dot(g.pos, tp1 / (tp1 + g.fp1)) / t.P)


def _recall_levels(t: CountTable) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Distinct recall levels with the min and max precision reached at each.

    A level starts at the cut after a group with positives and runs through the
    negative-only groups that follow, so its precision falls from its first cut
    to its last; recall 0 has precision 0 (Berrar Def. 32).
    """

    def compute() -> tuple[FloatArray, FloatArray, FloatArray]:
        g = t.positive_groups()
        tp1 = g.tp1
        end = np.concatenate((g.tp0[1:] + g.fp0[1:], [t.total]))  # cases at the level's end
        zero = np.zeros(1)
        return (np.concatenate((zero, tp1 / t.P)),
                np.concatenate((zero, tp1 / end)),
                np.concatenate((zero, tp1 / (tp1 + g.fp1))))

    return t.memo("recall_levels", compute)


def _aucpr(t: CountTable, which: str) -> float:
    if not both_classes(t, f"aucpr_{which}"):
        return _NAN
    r, pmin, pmax = _recall_levels(t)
    left, right = {"min": (pmin, pmin), "max": (pmax, pmax), "minmax": (pmin, pmax)}[which]
    return float(np.sum((left[:-1] + right[1:]) / 2.0 * np.diff(r)))


@register("aucpr_min", name="AUCPR, lower trapezoid", family="ranking", direction=1,
          range=_UNIT, source="Berrar Def. 33 (eq. 39)",
          formula="sum (p_min(r_i) + p_min(r_i+1))/2 (r_i+1 - r_i)")
def aucpr_min(t: CountTable) -> float:
    """Trapezoidal area under the PR curve through the lowest precision at each recall
    (Berrar eq. 39; precision 0 at recall 0)."""
    return _aucpr(t, "min")


@register("aucpr_max", name="AUCPR, upper trapezoid", family="ranking", direction=1,
          range=_UNIT, source="Berrar Def. 33 (eq. 41)",
          formula="sum (p_max(r_i) + p_max(r_i+1))/2 (r_i+1 - r_i)")
def aucpr_max(t: CountTable) -> float:
    """Trapezoidal area through the highest precision at each recall (Berrar eq. 41)."""
    return _aucpr(t, "max")


@register("aucpr_minmax", name="AUCPR, min-max trapezoid", family="ranking", direction=1,
          range=_UNIT, source="Berrar Def. 33 (eq. 40)",
          formula="sum (p_min(r_i) + p_max(r_i+1))/2 (r_i+1 - r_i)")
def aucpr_minmax(t: CountTable) -> float:
    """Trapezoids from the lowest precision at one recall to the highest at the next
    (Berrar eq. 40)."""
    return _aucpr(t, "minmax")


# --- gain and lift --------------------------------------------------------------------
@register("average_gain", binning_bound="refinements",
          name="Average gain", family="ranking", direction=1,
          range=(-np.inf, np.inf), source="Berrar Def. 25 (eqs. 28-29)",
          formula="(1/n) sum_j [g(j) - j P/n]")
def average_gain(t: CountTable) -> float:
    """Mean distance between the gain chart and the random line (Berrar eq. 29).

    g(j) is the number of positives among the j top-ranked cases; inside a tied
    group it is the expected value over the group's orders.

    With sample weights, positions are counted in units of weight (weights are case
    frequencies): integer weights give exactly the result of repeated rows, and
    rescaling every weight changes the value. Normalised weights (summing to 1) are
    rarely what is meant here; scale them to a mean of 1 or use frequencies.
    """
    if not both_classes(t, "average_gain"):
        return _NAN
    # sum_j [g(j) - j P/n] = P N (AUC - 1/2) = (1/2) sum over the positive groups of
    # pos (negatives below - negatives above): a sum of per-group differences, taken
    # without cancellation between large totals (see _gain_sum)
    return float(t.memo("average_gain", lambda: _gain_sum(t)) / (2.0 * t.total))


def _gain_sum(t: CountTable) -> float:
    """sum over the groups holding positives of pos (N - 2 fp0 - neg), nearly exactly.

    Unweighted counts: in int64, exact. Weighted: the cumulative negatives fp0 are
    split exactly into three parts (Rump, Ogita & Oishi's extraction, as the Spark
    engine sums), the first two summed without rounding; each product pos * part is
    taken exactly (Dekker) and math.fsum adds them all with one rounding.
    """
    g = t.positive_groups()
    if not t.weighted and t.total < 2.0**32:  # |terms| sum to at most P N < 2^63
        exact = np.int64(round(t.N)) - 2 * g.fp0.astype(np.int64) - g.neg.astype(np.int64)
        return float(np.dot(g.pos.astype(np.int64), exact))
    neg_all = t.neg.astype(np.float64, copy=False)
    bound = float(neg_all.max())
    k = (t.n_distinct + 2).bit_length() + 2  # 2^k > 4 (groups + 2): the sums stay exact
    if not (bound > 0.0 and math.frexp(bound)[1] + k < 1000
            and float(g.pos.max()) < 2.0**996):
        return float(np.dot(g.pos, t.N - 2.0 * g.fp0 - g.neg))  # out of range: plain
    s1 = math.ldexp(1.0, math.frexp(bound)[1] + k)
    s2 = math.ldexp(s1, k - 53)
    fp0 = [np.empty(g.idx.size) for _ in range(3)]
    carry = [0.0, 0.0, 0.0]
    for sl in chunks(t.n_distinct):
        v = neg_all[sl]
        q1 = (s1 + v) - s1
        r = v - q1
        q2 = (s2 + r) - s2
        parts = (q1, q2, r - q2)
        lo, hi = np.searchsorted(g.idx, [sl.start, sl.stop])
        at = g.idx[lo:hi] - sl.start
        for i, part in enumerate(parts):
            inclusive = np.cumsum(part) + carry[i]  # exact for the first two parts
            fp0[i][lo:hi] = inclusive[at] - part[at]
            carry[i] = float(inclusive[-1]) if inclusive.size else carry[i]
    diffs = (carry[0] - 2.0 * fp0[0], carry[1] - 2.0 * fp0[1],  # exact
             carry[2] - 2.0 * fp0[2] - g.neg)
    terms: list[Any] = []
    for diff in diffs:
        terms.extend(_two_product(g.pos, diff))
    return math.fsum(np.concatenate(terms).tolist())


def _two_product(a: FloatArray, b: FloatArray) -> tuple[FloatArray, FloatArray]:
    """a * b = p + e exactly (Dekker's product with Veltkamp's split; |a|, |b| < 2^996)."""
    p = a * b

    def split(x: FloatArray) -> tuple[FloatArray, FloatArray]:
        c = 134217729.0 * x  # 2^27 + 1
        hi = c - (c - x)
        return hi, x - hi

    ah, al = split(a)
    bh, bl = split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _harmonic_gap(c0: FloatArray, c1: FloatArray) -> FloatArray:
    """H(c1) - H(c0) = sum_{j=c0+1}^{c1} 1/j, also for real c (digamma(c+1) + Euler gamma).

    For large arguments the difference of two digammas loses digits, so there it is
    taken from the asymptotic series, written in differences that keep them.
    """
    a, b = c0 + 1.0, c1 + 1.0
    out = np.empty_like(a)
    small = a < 1000.0
    out[small] = digamma(b[small]) - digamma(a[small])
    a, b = a[~small], b[~small]
    m, ab = b - a, a * b
    out[~small] = (np.log1p(m / a) + m / (2.0 * ab) + m * (a + b) / (12.0 * ab * ab)
                   - m * (a + b) * (a * a + b * b) / (120.0 * ab**4))
    return out


@register("average_lift", binning_bound="refinements",
          name="Average lift", family="ranking", direction=1,
          range=(0.0, np.inf), source="Berrar Def. 26 (eq. 30)",
          formula="(1/n) sum_j lift(j), lift(j) = (g(j)/j) / (P/n)")
def average_lift(t: CountTable) -> float:
    """Mean of the lift chart over j = 1..n top-ranked cases (Berrar eq. 30).

    With sample weights, positions are counted in units of weight (weights are case
    frequencies): integer weights give exactly the result of repeated rows, and
    rescaling every weight changes the value. Normalised weights (summing to 1) are
    rarely what is meant here; scale them to a mean of 1 or use frequencies.
    """
    if not both_classes(t, "average_lift"):
        return _NAN

    def compute() -> float:
        if not t.weighted and t.total == t.n_distinct:  # one case per score
            # g(j)/j summed over j: each positive at rank r adds 1/j for j = r..n, i.e.
            # H(n) - H(r - 1) = digamma(n + 1) - digamma(r) (rounding of ~1e-15 a term)
            g = t.positive_groups()
            return float(t.P * digamma(t.total + 1.0) - np.sum(digamma(g.idx + 1.0)))
        total = 0.0
        tp_before = c_before = 0.0
        for _, tp, fp, p, n in t.iter_cuts():
            c = tp + fp
            total += _lift_block(tp, c, p, n, tp_before, c_before)
            tp_before, c_before = float(tp[-1]), float(c[-1])
        return total

    return float(t.memo("lift", compute)) / t.P


def _lift_block(tp: FloatArray, c: FloatArray, p: Any, n: Any, tp_before: float,
                c_before: float) -> float:
    """Sum of g(j)/j over the cases j of one block of groups (c: cases up to each group)."""
    # a single case j contributes g(j)/j = tp_g/c_g; sum that over every group, then
    # correct the groups of several cases: inside group g, g(j) = tp0 + (j - c0) q with
    # q = pos/m, so sum_j g(j)/j = (tp0 - c0 q)(H(c1) - H(c0)) + pos_g
    total = float(np.sum(tp / c))
    multi = np.flatnonzero((p + n) != 1)
    if multi.size:
        c0 = np.concatenate(([c_before], c[:-1]))[multi]
        tp0 = np.concatenate(([tp_before], tp[:-1]))[multi]
        c1, pm = c[multi], p[multi].astype(np.float64)
        q = pm / (c1 - c0)
        exact = (tp0 - c0 * q) * _harmonic_gap(c0, c1) + pm
        total += float(np.sum(exact) - np.sum(tp[multi] / c1))
    return total


# --- early recognition (METHODS.md section 2) ------------------------------------------
def _check_alpha(alpha: float) -> float:
    return check_in_range(alpha, "alpha", 0.0, np.inf, low_open=True, high_open=True)


def _rie_parts(t: CountTable, a: float) -> tuple[float, float]:
    """(RIE, Ra) with ties averaged: each positive gets the mean of exp(-a r/N) over
    the ranks its tied group occupies."""

    def compute() -> tuple[float, float]:
        big_n = t.total
        g = t.positive_groups()
        m = g.pos + g.neg
        # sum_{r=c0+1}^{c0+m} exp(-a r/N) = exp(-a (c0+1)/N) (1 - exp(-a m/N)) / (1 - exp(-a/N));
        # observed and random share the factor exp(-a/N) / (1 - exp(-a/N)), cancelled here
        # (it overflows when the total weight N is small)
        group = np.exp(-a * (g.tp0 + g.fp0) / big_n) * -np.expm1(-a * m / big_n)
        observed = float(np.dot(g.pos / m, group))
        ra = t.P / big_n
        return observed / (ra * -np.expm1(-a)), ra

    return t.memo(("rie", a), compute)


@register("rie", binning_bound="refinements",
          name="Robust initial enhancement", family="ranking", direction=1,
          range=(0.0, np.inf), aliases=("robust_initial_enhancement",),
          source="multi-level paper Table 5; Sheridan 2001; METHODS.md section 2",
          formula="sum_i exp(-a r_i/N) / [(n/N)(1 - e^-a)/(e^(a/N) - 1)]")
def rie(t: CountTable, *, alpha: float = 20.0) -> float:
    """Robust initial enhancement: exponentially weighted ranks of the positives over
    their expectation under a random order (Truchon & Bayly eq. 18).

    Ties are averaged (the expected value over random orders of a tied group).

    With sample weights, positions are counted in units of weight (weights are case
    frequencies): integer weights give exactly the result of repeated rows, and
    rescaling every weight changes the value. Normalised weights (summing to 1) are
    rarely what is meant here; scale them to a mean of 1 or use frequencies.

    Parameters
    ----------
    alpha : float > 0, default 20 (80% of the weight in the top 8%); 80.5 and 321.9
        put it in the top 2% and 0.5%.
    """
    a = _check_alpha(alpha)
    if not both_classes(t, "rie"):
        return _NAN
    return _rie_parts(t, a)[0]


@register("bedroc", binning_bound="refinements",
          name="Boltzmann-enhanced discrimination of ROC", family="ranking",
          direction=1, range=_UNIT,
          source="multi-level paper Table 6; Truchon & Bayly 2007; METHODS.md section 2",
          formula="(RIE - RIEmin) / (RIEmax - RIEmin)")
def bedroc(t: CountTable, *, alpha: float = 20.0) -> float:
    """BEDROC: RIE rescaled to [0, 1] between the worst and best orders (Truchon & Bayly).

    Computed in the stable form (RIE/RIEmax - e^(-a(1-Ra))) / (1 - e^(-a(1-Ra))),
    which gives 1.0 at alpha = 1000 where RDKit overflows. Warns
    (MeasureCaveatWarning) when alpha Ra > 1: values are then not comparable
    across data sets of different prevalence.

    Parameters
    ----------
    alpha : float > 0, default 20.
    """
    a = _check_alpha(alpha)
    if not both_classes(t, "bedroc"):
        return _NAN
    r, ra = _rie_parts(t, a)
    if a * ra > 1.0:
        report_caveat("bedroc", f"alpha * Ra = {a * ra:.3g} > 1, so BEDROC is not comparable "
                      "across data sets with different fractions of positives")
    rie_max = np.expm1(-a * ra) / (ra * np.expm1(-a))
    low = np.exp(-a * (1.0 - ra))
    return float((r / rie_max - low) / (1.0 - low))


def _positives_in_top(t: CountTable, x: float) -> float:
    """Expected positives among the top x cases (x may be fractional; ties interpolated)."""
    tp_before = c_before = 0.0
    for _, tp, fp, p, _ in t.iter_cuts():
        c = tp + fp
        if c[-1] >= x:  # the group that reaches x is in this block
            i = int(np.searchsorted(c, x, side="left"))
            c0 = c_before if i == 0 else float(c[i - 1])
            tp0 = tp_before if i == 0 else float(tp[i - 1])
            return tp0 + (x - c0) * (float(p[i]) / (float(c[i]) - c0))
        tp_before, c_before = float(tp[-1]), float(c[-1])
    return t.P  # x rounds above the total: everything


@register("enrichment_factor", binning_bound="refinements",
          name="Enrichment factor", family="ranking", direction=1,
          range=(0.0, np.inf), aliases=("ef",),
          source="multi-level paper Table 5; METHODS.md section 2 (interpolate mode)",
          formula="(a(f)/(f N)) / (n/N), a(f) = positives in the top f N")
def enrichment_factor(t: CountTable, *, fraction: float = 0.01) -> float:
    """Rate of positives in the top ``fraction`` of the ranking over the overall rate.

    The cutoff x = fraction * N may fall inside a tied group or between cases; the
    group straddling it contributes its positives pro rata (the expected value over
    random tie orders, as enrichvs does).

    Parameters
    ----------
    fraction : float in (0, 1], default 0.01 (the top 1%).
    """
    f = check_in_range(fraction, "fraction", 0.0, 1.0, low_open=True)
    if not both_classes(t, "enrichment_factor"):
        return _NAN
    x = f * t.total
    return (_positives_in_top(t, x) / x) / t.prevalence


@register("roc_enrichment", binning_bound="refinements",
          name="ROC enrichment", family="ranking", direction=1,
          range=(0.0, np.inf), aliases=("roce", "roc_ef"),
          source="multi-level paper Table 5; Jain & Nicholls 2008; METHODS.md section 2",
          formula="TPR(x) / x at FPR = x")
def roc_enrichment(t: CountTable, *, fpr: float = 0.01, at: str = "top") -> float:
    """TPR at a fixed false positive rate x, divided by x (Jain & Nicholls).

    TPR(x) is read from the ROC curve with tied groups as diagonal segments; where
    a vertical segment sits exactly at x, ``at="top"`` (default) takes its top and
    ``at="bottom"`` its bottom.

    Parameters
    ----------
    fpr : float in (0, 1], default 0.01.
    at : "top" or "bottom".
    """
    x = check_in_range(fpr, "fpr", 0.0, 1.0, low_open=True)
    if at not in ("top", "bottom"):
        raise ValueError(f"at must be 'top' or 'bottom', got {at!r}")
    if not both_classes(t, "roc_enrichment"):
        return _NAN
    # walk the ROC points (FPR, TPR) in blocks to the first with FPR > x
    f0 = t0 = 0.0  # the last point with FPR <= x so far
    first_at_x: float | None = None  # TPR at the first point with FPR == x
    f1 = t1 = _NAN
    for _, tp, fp, _, _ in t.iter_cuts():
        f, r = fp / t.N, tp / t.P
        if first_at_x is None:
            j = int(np.searchsorted(f, x, side="left"))
            if j < f.size and f[j] == x:
                first_at_x = float(r[j])
        i = int(np.searchsorted(f, x, side="right"))
        if i > 0:
            f0, t0 = float(f[i - 1]), float(r[i - 1])
        if i < f.size:
            f1, t1 = float(f[i]), float(r[i])
            break
    if f0 == x:
        top = t0 if at == "top" or first_at_x is None else first_at_x
        return top / x
    return (t0 + (x - f0) * (t1 - t0) / (f1 - f0)) / x


@register("auac", binning_bound="refinements",
          name="Area under the accumulation curve", family="ranking", direction=1,
          range=_UNIT, source="multi-level paper Table 6; METHODS.md section 2",
          formula="1 - sum_i (r_i - 1/2) / (n N)")
def auac(t: CountTable, *, kind: str = "trapezoid") -> float:
    """Area under the curve of the fraction of positives found against the fraction
    screened (enrichvs ``auac``); AUC = (AUAC - Ra/2) / (1 - Ra).

    With sample weights, positions are counted in units of weight (weights are case
    frequencies): integer weights give exactly the result of repeated rows, and
    rescaling every weight changes the value. Normalised weights (summing to 1) are
    rarely what is meant here; scale them to a mean of 1 or use frequencies.

    Parameters
    ----------
    kind : "trapezoid" (default) or "step" (1 - mean(r_i)/N).
    """
    if kind not in ("trapezoid", "step"):
        raise ValueError(f"kind must be 'trapezoid' or 'step', got {kind!r}")
    if not both_classes(t, "auac"):
        return _NAN
    shift = t.P / 2.0 if kind == "trapezoid" else 0.0
    return 1.0 - (_ranks_sum(t) - shift) / t.P / t.total


@register("mean_rank_positives", binning_bound="refinements",
          name="Average rank of the positives", family="ranking",
          direction=-1, range=(0.0, np.inf), aliases=("average_rank", "mean_rank"),
          source="multi-level paper Table 6; METHODS.md section 2",
          formula="(1/P) sum_i r_i (average ranks, rank 1 = highest score)")
def mean_rank_positives(t: CountTable, *, normalized: bool = False) -> float:
    """Mean rank of the positives, rank 1 being the highest score, ties averaged.

    With sample weights, positions are counted in units of weight (weights are case
    frequencies): integer weights give exactly the result of repeated rows, and
    rescaling every weight changes the value. Normalised weights (summing to 1) are
    rarely what is meant here; scale them to a mean of 1 or use frequencies.

    Parameters
    ----------
    normalized : divide by the number of cases, as the multi-level paper's Table 6
        does (its r = sum r_i / (P (P + N))). Default False.
    """
    if not both_classes(t, "mean_rank_positives"):
        return _NAN
    mean = _ranks_sum(t) / t.P
    return mean / t.total if normalized else mean


# --- precision-recall-gain (Flach & Kull 2015; METHODS.md section 4) -------------------
def prg_points(t: CountTable) -> dict[str, FloatArray]:
    """Points of the precision-recall-gain curve with the crossing points of prg.py.

    Returns a dict with arrays ``recall_gain``, ``precision_gain``, ``tp``, ``fp``
    and ``is_crossing``, ordered by recall gain (ascending), then precision gain
    (descending).
    """
    big_p, big_n = t.P, t.N
    tp, fp = t.tp, t.fp
    ratio_pn = big_p / big_n

    def gains(tp_: Any, fp_: Any) -> tuple[Any, Any]:
        with np.errstate(divide="ignore", invalid="ignore"):
            pg = 1.0 - ratio_pn * fp_ / tp_
            rg = 1.0 - ratio_pn * (big_p - tp_) / tp_
        done = (big_n - fp_) + (big_p - tp_) == 0  # everything predicted positive
        return np.where(done, 0.0, pg), np.where(done, 1.0, rg)

    pg, rg = gains(tp, fp)
    crossing = np.zeros(tp.size, dtype=bool)
    # the crossing of the y-axis (recall gain 0), interpolated in count space
    j = int(np.argmax(rg >= 0))
    if rg[j] > 0:
        d_tp, d_fp = tp[j] - tp[j - 1], fp[j] - fp[j - 1]
        alpha = (big_p * big_p / (big_p + big_n) - tp[j - 1]) / d_tp if d_tp > 0 else 0.5
        ntp, nfp = tp[j - 1] + alpha * d_tp, fp[j - 1] + alpha * d_fp
        npg, _ = gains(np.array([ntp]), np.array([nfp]))
        tp, fp = np.insert(tp, j, ntp), np.insert(fp, j, nfp)
        pg, rg = np.insert(pg, j, npg[0]), np.insert(rg, j, 0.0)
        crossing = np.insert(crossing, j, True)
        # prg.py re-sorts by (recall gain, -precision gain) here. Recall gain grows with
        # TP and, at equal TP, precision gain falls as FP grows, so the points are in
        # that order already; only the first point (PG = 0/0 = NaN, sorted last among
        # the TP = 0 points) moves behind the other TP = 0 points.
        k0 = int(np.searchsorted(tp, 0.0, side="right"))
        if k0 > 1:
            order = np.r_[1:k0, 0, k0:tp.size]
            tp, fp, pg, rg = tp[order], fp[order], pg[order], rg[order]
            crossing = crossing[order]
    # crossings of the non-negative x-axis (precision gain 0)
    with np.errstate(invalid="ignore"):
        i = np.flatnonzero((pg[1:] * pg[:-1] < 0) & (rg[:-1] >= 0)) + 1
    if i.size:
        x = rg[i - 1] + (-pg[i - 1]) / (pg[i] - pg[i - 1]) * (rg[i] - rg[i - 1])
        d_tp, d_fp = tp[i] - tp[i - 1], fp[i] - fp[i - 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            alpha = np.where(
                d_tp > 0,
                (big_p * big_p / (big_p + big_n - big_n * x) - tp[i - 1]) / d_tp,
                (big_n / big_p * tp[i - 1] - fp[i - 1]) / d_fp,
            )
        ntp, nfp = tp[i - 1] + alpha * d_tp, fp[i - 1] + alpha * d_fp
        _, nrg = gains(ntp, nfp)
        tp, fp = np.insert(tp, i, ntp), np.insert(fp, i, nfp)
        pg, rg = np.insert(pg, i, 0.0), np.insert(rg, i, nrg)
        crossing = np.insert(crossing, i, True)
    return {"recall_gain": rg, "precision_gain": pg, "tp": tp, "fp": fp,
            "is_crossing": crossing}


@register("auprg", name="Area under the precision-recall-gain curve", family="ranking",
          direction=1, range=(-np.inf, 1.0), aliases=("prg_auc", "au_prg"),
          source="Siblini et al. sec. 2 (Flach & Kull 2015); METHODS.md section 4",
          formula="area under precision gain against recall gain, recall gain in [0, 1]")
def auprg(t: CountTable, *, compat: str = "exact") -> float:
    """Area under the precision-recall-gain curve (Flach & Kull; prg.py conventions).

    Precision gain = 1 - (P/N) FP/TP and recall gain = 1 - (P/N) FN/TP; the area
    runs over recall gain in [0, 1] with the axis crossings inserted, and negative
    precision gains there count as negative area.

    Parameters
    ----------
    compat : {"exact", "prgc"}, default "exact"
        Matters only for a calibrated table (:meth:`CountTable.calibrated`, Siblini
        et al. sec. 3.1; METHODS.md section 4). Precision gain is invariant to the
        calibration and recall gain becomes 1 - (pi0/(1 - pi0)) FN/TP. "exact" places
        the axis crossings where the calibrated gains cross (the y-axis one at
        TP = pi0 P). "prgc" reproduces the reference code (prgc.py), which still
        places them at the uncalibrated roots (the y-axis one at TP = P^2/(P + N)):
        on large data with distinct scores that extrapolates far outside the curve
        and gives values far above 1 (about 3.8 at pi = 0.16 and 2.7e5 at
        pi = 0.001 on the paper's synthetic data), so it is not the default.
    """
    if compat not in ("prgc", "exact"):
        raise ValueError(f"compat must be 'prgc' or 'exact', got {compat!r}")
    if not both_classes(t, "auprg"):
        return _NAN
    if t.calibration is not None and compat == "prgc":
        return t.memo(("auprg", compat), lambda: _prgc_area(t))
    return t.memo(("auprg", compat), lambda: _auprg_area(t, t.N))


def _prgc_area(t: CountTable) -> float:
    """AUPRG of a calibrated table as the reference code (prgc.py) computes it.

    Its crossings sit at the uncalibrated roots (TP = P^2/(P + N) for the y-axis,
    TP = P^2/(P + N - N x) for an x-axis crossing at recall gain x, N the
    negatives before calibration), so a new point can fall outside the pair it was
    made for; like the reference, every insertion re-sorts the points by recall
    gain, then precision gain descending, and the later crossings are found at their
    shifted positions. Quadratic in the number of crossings: a compatibility path.
    """
    # the uncalibrated counts, as the reference keeps them: precision gain is the
    # same as calibrated, recall gain takes pi0 (Siblini et al. sec. 3.1)
    raw = t.uncalibrated
    assert raw is not None and t.calibration is not None
    pi0 = t.calibration[2]
    big_p, raw_n = raw.P, raw.N
    tp, fp = np.array(raw.tp), np.array(raw.fp)

    def gains(tp_: Any, fp_: Any) -> tuple[Any, Any]:
        with np.errstate(divide="ignore", invalid="ignore"):  # in the reference's order
            pg = 1.0 - (big_p / raw_n) * (fp_ / tp_)
            rg = 1.0 - (pi0 / (1.0 - pi0)) * ((big_p - tp_) / tp_)
        done = (raw_n - fp_) + (big_p - tp_) == 0
        return np.where(done, 0.0, pg), np.where(done, 1.0, rg)

    pg, rg = gains(tp, fp)

    def insert(k: int, ntp: float, nfp: float, npg: float, nrg: float) -> None:
        nonlocal tp, fp, pg, rg
        tp, fp = np.insert(tp, k, ntp), np.insert(fp, k, nfp)
        pg, rg = np.insert(pg, k, npg), np.insert(rg, k, nrg)
        order = np.lexsort((-pg, rg))
        tp, fp, pg, rg = tp[order], fp[order], pg[order], rg[order]

    j = int(np.argmax(rg >= 0))
    if rg[j] > 0:
        d_tp, d_fp = tp[j] - tp[j - 1], fp[j] - fp[j - 1]
        alpha = (big_p * big_p / (big_p + raw_n) - tp[j - 1]) / d_tp if d_tp > 0 else 0.5
        ntp, nfp = tp[j - 1] + alpha * d_tp, fp[j - 1] + alpha * d_fp
        insert(0, ntp, nfp, float(gains(np.array([ntp]), np.array([nfp]))[0][0]), 0.0)
    with np.errstate(invalid="ignore"):
        found = np.flatnonzero((pg[1:] * pg[:-1] < 0) & (rg[:-1] >= 0)) + 1
    for shift, i0 in enumerate(found.tolist()):
        i = i0 + shift  # each insertion moves the later pairs one place on
        with np.errstate(divide="ignore", invalid="ignore"):  # moved points can give NaN
            x = rg[i - 1] + (-pg[i - 1]) / (pg[i] - pg[i - 1]) * (rg[i] - rg[i - 1])
        d_tp, d_fp = tp[i] - tp[i - 1], fp[i] - fp[i - 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            if d_tp > 0:
                alpha = (big_p * big_p / (big_p + raw_n - raw_n * x) - tp[i - 1]) / d_tp
            else:
                alpha = (raw_n / big_p * tp[i - 1] - fp[i - 1]) / d_fp
            ntp, nfp = tp[i - 1] + alpha * d_tp, fp[i - 1] + alpha * d_fp
        insert(0, ntp, nfp, 0.0, float(gains(np.array([ntp]), np.array([nfp]))[1][0]))
    with np.errstate(invalid="ignore"):
        use = rg[:-1] >= 0
        width = np.diff(rg)[use]
        height = (pg[1:] + pg[:-1])[use] / 2.0
    area = float(np.sum(width * height))
    if np.isnan(area):
        report_undefined("auprg", "the reference code's crossings (compat='prgc') fall on "
                         "points it cannot place here; compat='exact' is defined")
    return area


def _auprg_area(t: CountTable, root_n: float) -> float:
    """AUPRG as prg.py computes it, without materialising the curve.

    Same result as ``prg_area`` over ``prg_points`` (tested). Recall gain changes
    only across groups holding positives, so only their pairs of cuts have width:
    the area sums those pairs whose left recall gain is >= 0; the y-axis crossing
    adds a first point, and each x-axis crossing splits its pair into two
    trapezoids through a point with precision gain 0 (placed in count space, so
    off the straight line). Pairs across negative-only groups are vertical and
    add nothing, crossing or not. ``root_n`` is the N of the crossing formulas
    (t.N, or the uncalibrated N for prgc's convention on a calibrated table).
    """
    big_p, big_n = t.P, t.N
    r = big_p / big_n
    g = t.positive_groups()
    tp0, fp0, tp1, fp1, d_tp, d_fp = g.tp0, g.fp0, g.tp1, g.fp1, g.pos, g.neg
    if _extreme(t):  # as fractions of the total, so that P^2 cannot under- or overflow
        tp0, fp0, tp1, fp1, d_tp, d_fp = (a / t.total for a in (tp0, fp0, tp1, fp1, d_tp, d_fp))
        big_p, big_n, root_n = big_p / t.total, big_n / t.total, root_n / t.total
    with np.errstate(divide="ignore", invalid="ignore"):
        pg0, pg1 = 1.0 - r * fp0 / tp0, 1.0 - r * fp1 / tp1
        rg0, rg1 = 1.0 - r * (big_p - tp0) / tp0, 1.0 - r * (big_p - tp1) / tp1
    if g.idx[-1] == t.n_distinct - 1:  # the last cut: everything predicted positive
        pg1[-1], rg1[-1] = 0.0, 1.0
    with np.errstate(invalid="ignore"):  # -inf gains at TP = 0
        use = rg0 >= 0
        cross = use & (pg0 * pg1 < 0)
    area = float(np.dot(rg1[use] - rg0[use], pg1[use] + pg0[use])) / 2.0
    if cross.any():
        area += _split_pairs(rg0[cross], pg0[cross], rg1[cross], pg1[cross],
                             tp0[cross], fp0[cross], tp1[cross], fp1[cross], big_p, big_n,
                             root_n)
    j = int(np.argmax(rg1 >= 0))  # the first cut with recall gain >= 0
    if rg1[j] > 0:  # the y-axis crossing, interpolated in count space
        alpha = (big_p * big_p / (big_p + root_n) - tp0[j]) / d_tp[j]
        ntp, nfp = tp0[j] + alpha * d_tp[j], fp0[j] + alpha * d_fp[j]
        npg = 1.0 - r * nfp / ntp
        area += rg1[j] * (pg1[j] + npg) / 2.0
        if npg * pg1[j] < 0:
            area += _split_pairs(np.array([0.0]), np.array([npg]), rg1[j:j + 1], pg1[j:j + 1],
                                 np.array([ntp]), np.array([nfp]), tp1[j:j + 1], fp1[j:j + 1],
                                 big_p, big_n, root_n)
    return area


def _split_pairs(r0: Any, g0: Any, r1: Any, g1: Any, tp0: Any, fp0: Any, tp1: Any, fp1: Any,
                 big_p: float, big_n: float, root_n: float) -> float:
    """Area change when each pair (0 -> 1) crossing PG = 0 gets prg.py's crossing point
    (placed with ``root_n`` negatives; its recall gain with the table's own N)."""
    x = r0 + (-g0) / (g1 - g0) * (r1 - r0)
    d_tp, d_fp = tp1 - tp0, fp1 - fp0
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = np.where(d_tp > 0, (big_p * big_p / (big_p + root_n - root_n * x) - tp0) / d_tp,
                         (root_n / big_p * tp0 - fp0) / d_fp)
    ntp = tp0 + alpha * d_tp
    nrg = 1.0 - (big_p / big_n) * (big_p - ntp) / ntp
    old = (r1 - r0) * (g1 + g0) / 2.0
    new = (nrg - r0) * g0 / 2.0 + (r1 - nrg) * g1 / 2.0
    return float(np.sum(new - old))
