"""Ranking measures (Berrar Defs 25-33, the multi-level paper's Table 6, PR-gain).

All are computed from the count table's cumulative counts: TP and FP at cut k
are the (weighted) positives and negatives among the top k distinct scores.
Sums over the positives use only the groups that hold positives
(:meth:`CountTable.positive_groups`); the rest walk the table in blocks
(:meth:`CountTable.iter_cuts`), so no measure builds arrays of the table's size.

The early-recognition measures (gain, lift, RIE, BEDROC, enrichment, AUAC, mean rank)
are in :mod:`binmetrics.measures.early_recognition`, the precision-recall-gain area in
:mod:`binmetrics.measures.prg`.

Ties are segments: a tied group moves TP and FP together, AUC gives it the
Mann-Whitney half credit, ranks are average ranks, and measures that look at a
fixed number of top cases take the expected value over random orders of the
tied group (linear interpolation inside it). Nothing depends on row order.

A ranking measure needs both classes; on a single class it is NaN with an
:class:`~binmetrics.exceptions.UndefinedMeasureWarning`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from binmetrics.exceptions import report_undefined
from binmetrics.measures._special import digamma
from binmetrics.measures._util import dot, trapezoid
from binmetrics.measures.block_pass import compiled_sums
from binmetrics.measures.kernels import (
    auc_kernel,
    average_precision_kernel,
    gini_kernel,
    ks_kernel,
    youden_j_max_kernel,
)
from binmetrics.measures.registry import register
from binmetrics.table.counts import CountTable, FloatArray, PositiveGroups, chunks

NAN = float("nan")
UNIT = (0.0, 1.0)
#: Memo keys of two sums over every group of a table (a bootstrap replicate known by its
#: cells gets them from a walk of the cells, :mod:`binmetrics.inference._replicate_groups`):
#: sum over the cuts of TP / (TP + FP) (mean_precision), and sum over the groups of
#: their row times their negatives (taKS).
PRECISION_SUM = "precision_sum"
NEGATIVES_BY_RANK = "negatives_by_rank"


def both_classes(t: CountTable, measure: str) -> bool:
    """True if the table has positives and negatives; otherwise report and return False."""
    if t.P > 0 and t.N > 0:
        return True
    which = "positives" if t.P == 0 else "negatives"
    report_undefined(measure, f"y_true has no {which}; a ranking measure needs both classes")
    return False


def ranks_sum(t: CountTable) -> float:
    """Sum over positives of their average rank (rank 1 = highest score).

    A group of m cases after c0 others holds ranks c0+1..c0+m, mean c0 + (m+1)/2.
    """
    g = t.positive_groups()
    return dot(g.pos, g.tp0 + g.fp0 + (g.pos + g.neg + 1.0) / 2.0)


# --- ROC --------------------------------------------------------------------------
@register("auc", binning_bound="refinements",
          prevalence_dependent=False,
          resampling_kernel=auc_kernel,
          name="Area under the ROC curve", family="ranking", plot="roc", direction=1, range=UNIT,
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
        return NAN
    # each positive beats the negatives below its group and ties half of its own group's
    g = t.positive_groups()
    pos, neg, fp1, big_p, big_n = g.pos, g.neg, g.fp1, t.P, t.N
    if extreme_weights(t):  # as fractions of the total, so that P N cannot under- or overflow
        pos, neg, fp1 = pos / t.total, neg / t.total, fp1 / t.total
        big_p, big_n = big_p / t.total, big_n / t.total
    return dot(pos, big_n - fp1 + 0.5 * neg) / big_n / big_p


def extreme_weights(t: CountTable) -> bool:
    """True for weights so large or small that products of two totals leave float range:
    those measures then work on fractions of the total (other tables keep their exact
    integer arithmetic)."""
    prod = t.P * t.N
    return t.weighted and not (1e-150 < prod < 1e150)


@register("gini", binning_bound="refinements",
          prevalence_dependent=False,
          resampling_kernel=gini_kernel,
          name="Gini index", family="ranking", plot="roc", direction=1, range=(-1.0, 1.0),
          aliases=("gini_coefficient", "somers_d"), source="Berrar Def. 28 (eq. 33)",
          formula="2 AUC - 1")
def gini(t: CountTable) -> float:
    """Area between the ROC curve and the diagonal over the area above it, 2 AUC - 1."""
    return 2.0 * auc(t) - 1.0 if both_classes(t, "gini") else NAN


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


#: Pruning rounds before the hull is left to quickhull: ROC points of real scores
#: converge in 7-19 rounds (tested up to 8e5 points); the cap bounds contrived inputs.
PRUNE_ROUNDS = 64


def _prune_below_neighbours(x: FloatArray, y: FloatArray,
                            rounds: int = PRUNE_ROUNDS) -> tuple[npt.NDArray[np.intp], bool]:
    """Indices left after dropping, round after round, every point that is not strictly
    above the chord between its neighbours (such a point is no hull vertex), and
    whether that converged. Points sorted by x, each strictly above its neighbours'
    chord, make a concave chain, i.e. the upper hull itself: converged, no quickhull
    is needed (its loop runs once per vertex in Python); otherwise quickhull finishes
    from far fewer points."""
    idx = None  # first round on x and y themselves: no gathered copies
    for _ in range(rounds):
        xi, yi = (x, y) if idx is None else (x[idx], y[idx])
        # above the chord from its left to its right neighbour: (x1 - x0)(y2 - y0) <
        # (y1 - y0)(x2 - x0), the sign of their difference (exact for distinct floats)
        left = yi[2:] - yi[:-2]
        left *= xi[1:-1] - xi[:-2]
        right = xi[2:] - xi[:-2]
        right *= yi[1:-1] - yi[:-2]
        keep = np.ones(xi.size, dtype=bool)
        np.less(left, right, out=keep[1:-1])
        if keep.all():
            return (np.arange(x.size) if idx is None else idx), True
        idx = np.flatnonzero(keep) if idx is None else idx[keep]
    return (np.arange(x.size) if idx is None else idx), False


#: The memo key of a table's ROC convex hull (:func:`roc_hull`): a bootstrap's stand-in
#: replicates answer it from their groups with positives (:func:`roc_hull_of`).
ROC_HULL = "roc_hull"


def roc_hull_of(g: PositiveGroups, n_distinct: int, P: float, N: float,
                hull: Callable[..., tuple[int, bool]] | None = None
                ) -> tuple[FloatArray, FloatArray]:
    """FPR and TPR of the vertices of the ROC convex hull of a table with groups with
    positives ``g``, ``n_distinct`` groups and totals ``P``, ``N``: its candidate
    vertices, then pruning and quickhull. ``hull``: the candidates and the pruning
    rounds in one compiled call
    (:func:`binmetrics.measures._kernels_numba.roc_hull_points`, for a bootstrap's
    replicates: the same floats and tests, so the same hull)."""
    if hull is not None:
        n = g.idx.size + 2
        x, y, out = np.empty(n), np.empty(n), np.empty(n, dtype=np.intp)
        k, converged = hull(g.idx, g.pos, g.neg, g.tp0, g.fp0, n_distinct, float(P),
                            float(N), PRUNE_ROUNDS, x, y, out)
        keep = out[:k]
    else:
        # An inner vertex of the upper hull is reached by a step holding positives and
        # left by a step holding negatives: after a horizontal step the point before
        # it is as high, before a vertical step the point after it is higher.
        after = g.idx + 1  # the cut after each group with positives
        # the group after it holds negatives unless it is the next group with positives
        # and that has none (a group without positives holds negatives: none is empty)
        inner = after < n_distinct
        inner[:-1] &= (g.idx[1:] != after[:-1]) | (g.neg[1:] > 0)
        # in ROC space (rates), so that the cross products neither under- nor overflow
        x = np.concatenate(([0.0], g.fp1[inner] / N, [1.0]))
        y = np.concatenate(([0.0], g.tp1[inner] / P, [1.0]))
        keep, converged = _prune_below_neighbours(x, y)
    v = keep if converged else keep[upper_hull(x[keep], y[keep])]
    return x[v], y[v]


def roc_hull(t: CountTable) -> tuple[FloatArray, FloatArray]:
    """FPR and TPR of the vertices of the ROC convex hull, from (0, 0) to (1, 1)."""
    return t.memo(ROC_HULL, lambda: roc_hull_of(t.positive_groups(), t.n_distinct, t.P, t.N))


@register("auch", binning_bound="above_binned",
          prevalence_dependent=False,
          name="Area under the ROC convex hull", family="ranking", plot="roc", direction=1,
          range=UNIT, aliases=("roc_convex_hull_area",), source="Berrar Def. 29 (eq. 34)",
          formula="trapezoid area under the ROC convex hull")
def auch(t: CountTable) -> float:
    """Area under the ROC convex hull (Berrar eq. 34): the ROC curve with its
    concavities spanned, i.e. the best AUC reachable by interpolating classifiers."""
    if not both_classes(t, "auch"):
        return NAN
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
            return max(hi, -lo), hi, NAN
        # sums over the inner cuts 1..d-1 (cut d holds every case)
        sum_tp = dot(g.pos, d - g.idx) - t.P
        if not t.weighted and t.total == d:  # one case per group: g negatives are all but g pos
            neg_rank = d * (d - 1) / 2.0 - dot(g.pos, g.idx)
        else:
            def by_rank() -> float:  # sum over groups of g * negatives
                out = 0.0
                for sl in chunks(d):
                    out += dot(t.neg[sl], np.arange(sl.start, sl.stop, dtype=np.float64))
                return out

            # memoised: a bootstrap replicate known by its cells walks them for it
            neg_rank = t.memo(NEGATIVES_BY_RANK, by_rank)
        sum_fp = d * t.N - neg_rank - t.N
        return max(hi, -lo), hi, (sum_tp / t.P - sum_fp / t.N) / (d - 1)

    return t.memo("gap", compute)


@register("ks", binning_bound="above_binned",
          prevalence_dependent=False,
          resampling_kernel=ks_kernel,
          name="Kolmogorov-Smirnov statistic", family="ranking", plot="threshold", direction=1,
          range=UNIT, aliases=("kolmogorov_smirnov",),
          source="Berrar Def. 30 (eq. 35; the paper's 0.2 is an erratum, KS = 0.6)",
          formula="max over thresholds |TPR - FPR|")
def ks(t: CountTable) -> float:
    """Largest distance between the TPR and FPR curves over all thresholds (Berrar eq. 35)."""
    if not both_classes(t, "ks"):
        return NAN
    return _gap_stats(t)[0]


@register("taks", name="Truncated average Kolmogorov-Smirnov statistic", family="ranking",
          prevalence_dependent=False,
          plot="threshold",
          direction=1, range=(-1.0, 1.0), aliases=("truncated_average_ks",),
          source="Berrar Def. 31 (eq. 36); docs/methods.md §5.2",
          formula="mean of TPR - FPR over the thresholds between the end points")
def taks(t: CountTable) -> float:
    """Mean signed gap TPR - FPR over all thresholds except the end points (0,0), (1,1)
    (Berrar eq. 36). With ties the thresholds are the distinct scores."""
    if not both_classes(t, "taks"):
        return NAN
    if t.n_distinct < 2:
        report_undefined("taks", "all scores are equal: there is no threshold between the ends")
        return NAN
    return _gap_stats(t)[2]


@register("youden_j_max", binning_bound="above_binned",
          prevalence_dependent=False,
          resampling_kernel=youden_j_max_kernel,
          name="Maximum Youden index", family="ranking", plot="threshold", direction=1,
          range=UNIT, aliases=("max_informedness", "j_max"),
          source="Berrar Def. 8 (J_max)", formula="max over thresholds TPR + TNR - 1")
def youden_j_max(t: CountTable) -> float:
    """Largest sensitivity + specificity - 1 over all thresholds (Berrar Def. 8)."""
    if not both_classes(t, "youden_j_max"):
        return NAN
    return _gap_stats(t)[1]


@register("best_f1", binning_bound="above_binned",
          prevalence_dependent=True,
          name="Best F1 score over thresholds", family="ranking", plot="pr", direction=1,
          range=UNIT, aliases=("max_f1", "f1_max"),
          source="Siblini et al. sec. 4.3 and Fig. 7 (\"the best F1-score over all possible "
                 "thresholds\"); Berrar Def. 13 at each cut",
          formula="max over cuts k of 2 TP_k / (P + TP_k + FP_k)")
def best_f1(t: CountTable) -> float:
    """Largest F1 score over all thresholds: the F1 of the best cut of the ranking.

    F1 = 2 TP / (2 TP + FP + FN) = 2 TP / (P + TP + FP) at each cut of the count table
    (ties are never split: a cut lies between distinct scores); the cut above every
    score gives 0. Siblini et al. rank models by it in their Figure 7, raw and
    prior-calibrated: ``ev.calibrated(pi0)["best_f1"]`` is its calibrated version (the
    negatives reweighted to the prevalence ``pi0``). Undefined (NaN with a warning) with
    one class, as every ranking measure.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> ev["best_f1"]  # at 0.5: TP = 4, FP = 1, FN = 1 (Berrar's ten cases)
    0.8
    >>> round(ev.calibrated(0.1)["best_f1"], 4)  # 4 / (5 + 4 + 1/9) x 2 at the same cut
    0.5714
    """
    if not both_classes(t, "best_f1"):
        return NAN

    def compute() -> float:
        # F1 never rises with more FP at the same TP (in floats too: a larger
        # denominator rounds no lower), so the best cut is cut 0 (F1 = 0) or one ending
        # at a score holding positives: the same maximum as over every cut, read from
        # the positive groups (a tenth of the table at a prevalence of 0.1)
        g = t.positive_groups()
        tp, fp = g.tp1, g.fp1
        return max(0.0, float(np.max(2.0 * tp / (t.P + tp + fp)))) if tp.size else 0.0

    return float(t.memo("best_f1", compute))


# --- precision-recall ---------------------------------------------------------------
@register("average_precision", binning_bound="average_precision",
          prevalence_dependent=True,
          resampling_kernel=average_precision_kernel,
          name="Average precision", family="ranking", plot="pr", direction=1,
          range=UNIT, aliases=("ap", "aucpr"),
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
        return NAN
    g = t.positive_groups()
    return dot(g.pos, g.precision) / t.P


@register("mean_precision", name="Mean of precisions (Berrar's plain mean)", family="ranking",
          prevalence_dependent=True,
          plot="pr", direction=1, range=UNIT,
          aliases=("mean_of_precisions", "plain_mean_precision"),
          source="Berrar Def. 32 (the plain mean the paper contrasts with AP)",
          formula="(1/m) sum_k TP_k / (TP_k + FP_k) over the m distinct thresholds")
def mean_precision(t: CountTable) -> float:
    """The plain mean of the precisions at every distinct threshold (each cut
    ``score >= s`` for s a distinct score; tied cases form one cut).

    Berrar (Def. 32) shows it as the "misleading" average: unlike the average
    precision it weighs the cuts that add negatives as much as those that add
    positives. Kept as a named variant to reproduce the paper.

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...     [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> round(mean_precision(t), 12)  # Berrar's 0.7135
    0.713531746032
    """
    if not both_classes(t, "mean_precision"):
        return NAN
    if not t.weighted and t.total == t.n_distinct:  # precision at cut k is TP_k / k
        return tp_over_cases(t) / t.n_distinct

    def compute() -> float:
        # block by block (no table-sized temporaries), in one sequential chain over the
        # cuts: the order of the walk that gives it for a bootstrap replicate from its
        # cells, so that both give the same floats; a large table's in one compiled
        # loop, the same chain
        loops = compiled_sums(t)
        if loops is not None:
            return float(loops.precision_sum(t.pos, t.neg))
        total = 0.0
        for _, tp, fp, _, _ in t.iter_cuts():
            v = tp / (tp + fp)  # a new array: iter_cuts carries fp[-1]
            if v.size:
                v[0] += total
                total = float(np.cumsum(v)[-1])
        return total

    # memoised: a bootstrap replicate known by its cells walks them for it instead
    return t.memo(PRECISION_SUM, compute) / t.n_distinct


def tp_over_cases(t: CountTable) -> float:
    """sum over the cuts k = 1..n of TP_k / k, for a table with one case per score
    (unweighted, all scores distinct: cut k holds k cases). Each positive at 0-based
    row j adds 1/k for k = j+1..n, i.e. H(n) - H(j) = digamma(n + 1) - digamma(j + 1):
    a sum over the positives, not a pass over the table (rounding ~1e-15 a term).
    Mean precision is it over n, average lift over P (memoised once for both)."""

    def compute() -> float:
        g = t.positive_groups()
        return float(t.P * digamma(t.total + 1.0) - np.sum(digamma(g.idx + 1.0)))

    return t.memo("tp_over_cases", compute)


def recall_levels(t: CountTable) -> tuple[FloatArray, FloatArray, FloatArray]:
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
                np.concatenate((zero, g.precision)))

    return t.memo("recall_levels", compute)


def _aucpr(t: CountTable, which: str) -> float:
    if not both_classes(t, f"aucpr_{which}"):
        return NAN
    r, pmin, pmax = recall_levels(t)
    left, right = {"min": (pmin, pmin), "max": (pmax, pmax), "minmax": (pmin, pmax)}[which]
    return float(np.sum((left[:-1] + right[1:]) / 2.0 * np.diff(r)))


@register("aucpr_min", name="AUCPR, lower trapezoid", family="ranking", plot="pr", direction=1,
          prevalence_dependent=True,
          range=UNIT, source="Berrar Def. 33 (eq. 39)",
          formula="sum (p_min(r_i) + p_min(r_i+1))/2 (r_i+1 - r_i)")
def aucpr_min(t: CountTable) -> float:
    """Trapezoidal area under the PR curve through the lowest precision at each recall
    (Berrar eq. 39; precision 0 at recall 0)."""
    return _aucpr(t, "min")


@register("aucpr_max", name="AUCPR, upper trapezoid", family="ranking", plot="pr", direction=1,
          prevalence_dependent=True,
          range=UNIT, source="Berrar Def. 33 (eq. 41)",
          formula="sum (p_max(r_i) + p_max(r_i+1))/2 (r_i+1 - r_i)")
def aucpr_max(t: CountTable) -> float:
    """Trapezoidal area through the highest precision at each recall (Berrar eq. 41)."""
    return _aucpr(t, "max")


@register("aucpr_minmax", name="AUCPR, min-max trapezoid", family="ranking", plot="pr", direction=1,
          prevalence_dependent=True,
          range=UNIT, source="Berrar Def. 33 (eq. 40)",
          formula="sum (p_min(r_i) + p_max(r_i+1))/2 (r_i+1 - r_i)")
def aucpr_minmax(t: CountTable) -> float:
    """Trapezoids from the lowest precision at one recall to the highest at the next
    (Berrar eq. 40)."""
    return _aucpr(t, "minmax")
