"""Ranking measures (Berrar Defs 25-33, the multi-level paper's Table 6, PR-gain).

All are computed from the count table's cumulative counts: ``tp[k]`` and
``fp[k]`` are the (weighted) positives and negatives among the top k distinct
scores. Ties are segments: a tied group moves TP and FP together, AUC gives it
the Mann-Whitney half credit, ranks are average ranks, and measures that look at
a fixed number of top cases take the expected value over random orders of the
tied group (linear interpolation inside it). Nothing depends on row order.

A ranking measure needs both classes; on a single class it is NaN with an
:class:`~binmetrics.exceptions.UndefinedMeasureWarning`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.special import digamma

from ..counts import CountTable, FloatArray
from ..exceptions import report_caveat, report_undefined
from ..validation import check_in_range
from .registry import register

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
    """Sum over positives of their average rank (rank 1 = highest score)."""
    m = t.pos + t.neg
    return float(np.dot(t.pos, t.cum[:-1] + (m + 1.0) / 2.0))


# --- ROC --------------------------------------------------------------------------
@register("auc", name="Area under the ROC curve", family="ranking", direction=1, range=_UNIT,
          aliases=("roc_auc", "auroc", "c_statistic"),
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
    # trapezoid over tied groups = sum over negatives of (positives above + half the tied)
    return float(np.dot(t.neg, t.tp[:-1] + 0.5 * t.pos) / (t.P * t.N))


@register("gini", name="Gini index", family="ranking", direction=1, range=(-1.0, 1.0),
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
    stack = [(0, n - 1, np.arange(1, n - 1))]
    while stack:
        a, b, cand = stack.pop()
        if cand.size == 0:
            continue
        dx, dy = x[b] - x[a], y[b] - y[a]
        cross = dx * (y[cand] - y[a]) - dy * (x[cand] - x[a])
        k = int(np.argmax(cross))
        if cross[k] <= 0:
            continue
        m = int(cand[k])
        vertices.append(m)
        above = cand[cross > 0]
        stack.append((a, m, above[above < m]))
        stack.append((m, b, above[above > m]))
    return np.sort(np.asarray(vertices, dtype=np.intp))


def roc_hull(t: CountTable) -> tuple[FloatArray, FloatArray]:
    """FPR and TPR of the vertices of the ROC convex hull, from (0, 0) to (1, 1)."""
    idx = upper_hull(t.fp, t.tp)
    return t.fp[idx] / t.N, t.tp[idx] / t.P


@register("auch", name="Area under the ROC convex hull", family="ranking", direction=1,
          range=_UNIT, aliases=("roc_convex_hull_area",), source="Berrar Def. 29 (eq. 34)",
          formula="trapezoid area under the ROC convex hull")
def auch(t: CountTable) -> float:
    """Area under the ROC convex hull (Berrar eq. 34): the ROC curve with its
    concavities spanned, i.e. the best AUC reachable by interpolating classifiers."""
    if not both_classes(t, "auch"):
        return _NAN
    fx, ty = roc_hull(t)
    return float(np.sum(np.diff(fx) * (ty[1:] + ty[:-1]) / 2.0))


def _tpr_minus_fpr(t: CountTable) -> FloatArray:
    return t.tp / t.P - t.fp / t.N


@register("ks", name="Kolmogorov-Smirnov statistic", family="ranking", direction=1,
          range=_UNIT, aliases=("kolmogorov_smirnov",),
          source="Berrar Def. 30 (eq. 35; the paper's 0.2 is an erratum, KS = 0.6)",
          formula="max over thresholds |TPR - FPR|")
def ks(t: CountTable) -> float:
    """Largest distance between the TPR and FPR curves over all thresholds (Berrar eq. 35)."""
    if not both_classes(t, "ks"):
        return _NAN
    return float(np.max(np.abs(_tpr_minus_fpr(t))))


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
    return float(np.mean(_tpr_minus_fpr(t)[1:-1]))


@register("youden_j_max", name="Maximum Youden index", family="ranking", direction=1,
          range=_UNIT, aliases=("max_informedness", "j_max"),
          source="Berrar Def. 8 (J_max)", formula="max over thresholds TPR + TNR - 1")
def youden_j_max(t: CountTable) -> float:
    """Largest sensitivity + specificity - 1 over all thresholds (Berrar Def. 8)."""
    if not both_classes(t, "youden_j_max"):
        return _NAN
    return float(np.max(_tpr_minus_fpr(t)))


# --- precision-recall ---------------------------------------------------------------
def _precision_at_cuts(t: CountTable) -> FloatArray:
    """Precision of every cut, 0 at cut 0 (Berrar Def. 32: p(t_1) = 0)."""
    out = np.zeros(t.tp.size)
    np.divide(t.tp[1:], t.cum[1:], out=out[1:])
    return out


@register("average_precision", name="Average precision", family="ranking", direction=1,
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
    return float(np.dot(t.pos, t.tp[1:] / t.cum[1:]) / t.P)


def _recall_levels(t: CountTable) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Distinct recall levels with the min and max precision reached at each."""
    prec = _precision_at_cuts(t)
    starts = np.concatenate(([0], np.flatnonzero(t.pos > 0) + 1))
    return (t.tp[starts] / t.P, np.minimum.reduceat(prec, starts),
            np.maximum.reduceat(prec, starts))


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
@register("average_gain", name="Average gain", family="ranking", direction=1,
          range=(-np.inf, np.inf), source="Berrar Def. 25 (eqs. 28-29)",
          formula="(1/n) sum_j [g(j) - j P/n]")
def average_gain(t: CountTable) -> float:
    """Mean distance between the gain chart and the random line (Berrar eq. 29).

    g(j) is the number of positives among the j top-ranked cases; inside a tied
    group it is the expected value over the group's orders.
    """
    if not both_classes(t, "average_gain"):
        return _NAN
    m = t.pos + t.neg
    model = np.dot(m, t.tp[:-1]) + np.dot(t.pos, (m + 1.0) / 2.0)
    return float((model - t.P * (t.total + 1.0) / 2.0) / t.total)


def _harmonic_gap(c0: FloatArray, c1: FloatArray, m: FloatArray) -> FloatArray:
    """sum_{j=c0+1}^{c1} 1/j (digamma for real counts; exact 1/c1 for single cases)."""
    out = 1.0 / c1
    multi = m != 1.0
    if np.any(multi):
        out[multi] = digamma(c1[multi] + 1.0) - digamma(c0[multi] + 1.0)
    return out


@register("average_lift", name="Average lift", family="ranking", direction=1,
          range=(0.0, np.inf), source="Berrar Def. 26 (eq. 30)",
          formula="(1/n) sum_j lift(j), lift(j) = (g(j)/j) / (P/n)")
def average_lift(t: CountTable) -> float:
    """Mean of the lift chart over j = 1..n top-ranked cases (Berrar eq. 30)."""
    if not both_classes(t, "average_lift"):
        return _NAN
    m = t.pos + t.neg
    c0, c1 = t.cum[:-1], t.cum[1:]
    slope = t.pos / m
    # inside group g, g(j) = tp0 + (j - c0) slope, so sum g(j)/j = (tp0 - c0 slope) H + m slope
    total = np.dot(t.tp[:-1] - c0 * slope, _harmonic_gap(c0, c1, m)) + t.P
    return float(total / t.P)


# --- early recognition (METHODS.md section 2) ------------------------------------------
def _check_alpha(alpha: float) -> float:
    return check_in_range(alpha, "alpha", 0.0, np.inf, low_open=True, high_open=True)


def _rie_parts(t: CountTable, a: float) -> tuple[float, float]:
    """(RIE, Ra) with ties averaged: each positive gets the mean of exp(-a r/N) over
    the ranks its tied group occupies."""
    big_n = t.total
    m = t.pos + t.neg
    c0 = t.cum[:-1]
    # sum_{r=c0+1}^{c0+m} exp(-a r/N) = exp(-a (c0+1)/N) (1 - exp(-a m/N)) / (1 - exp(-a/N))
    group_sum = np.exp(-a * (c0 + 1.0) / big_n) * np.expm1(-a * m / big_n) / np.expm1(-a / big_n)
    observed = float(np.dot(t.pos / m, group_sum))
    ra = t.P / big_n
    random = ra * -np.expm1(-a) / np.expm1(a / big_n)
    return observed / random, ra


@register("rie", name="Robust initial enhancement", family="ranking", direction=1,
          range=(0.0, np.inf), aliases=("robust_initial_enhancement",),
          source="multi-level paper Table 5; Sheridan 2001; METHODS.md section 2",
          formula="sum_i exp(-a r_i/N) / [(n/N)(1 - e^-a)/(e^(a/N) - 1)]")
def rie(t: CountTable, *, alpha: float = 20.0) -> float:
    """Robust initial enhancement: exponentially weighted ranks of the positives over
    their expectation under a random order (Truchon & Bayly eq. 18).

    Ties are averaged (the expected value over random orders of a tied group).

    Parameters
    ----------
    alpha : float > 0, default 20 (80% of the weight in the top 8%); 80.5 and 321.9
        put it in the top 2% and 0.5%.
    """
    a = _check_alpha(alpha)
    if not both_classes(t, "rie"):
        return _NAN
    return _rie_parts(t, a)[0]


@register("bedroc", name="Boltzmann-enhanced discrimination of ROC", family="ranking",
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
    c = t.cum
    g = int(np.searchsorted(c, x, side="left"))  # first cut with cum >= x
    g = min(max(g, 1), c.size - 1)
    m = c[g] - c[g - 1]
    return float(t.tp[g - 1] + (x - c[g - 1]) * (t.pos[g - 1] / m))


@register("enrichment_factor", name="Enrichment factor", family="ranking", direction=1,
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


@register("roc_enrichment", name="ROC enrichment", family="ranking", direction=1,
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
    f = t.fp / t.N
    tp = t.tp / t.P
    hi = int(np.searchsorted(f, x, side="right"))  # points with fpr <= x: [0, hi)
    if f[hi - 1] == x:
        k = hi - 1 if at == "top" else int(np.searchsorted(f, x, side="left"))
        return float(tp[k] / x)
    f0, f1, t0, t1 = f[hi - 1], f[hi], tp[hi - 1], tp[hi]
    return float((t0 + (x - f0) * (t1 - t0) / (f1 - f0)) / x)


@register("auac", name="Area under the accumulation curve", family="ranking", direction=1,
          range=_UNIT, source="multi-level paper Table 6; METHODS.md section 2",
          formula="1 - sum_i (r_i - 1/2) / (n N)")
def auac(t: CountTable, *, kind: str = "trapezoid") -> float:
    """Area under the curve of the fraction of positives found against the fraction
    screened (enrichvs ``auac``); AUC = (AUAC - Ra/2) / (1 - Ra).

    Parameters
    ----------
    kind : "trapezoid" (default) or "step" (1 - mean(r_i)/N).
    """
    if kind not in ("trapezoid", "step"):
        raise ValueError(f"kind must be 'trapezoid' or 'step', got {kind!r}")
    if not both_classes(t, "auac"):
        return _NAN
    shift = t.P / 2.0 if kind == "trapezoid" else 0.0
    return 1.0 - (_ranks_sum(t) - shift) / (t.P * t.total)


@register("mean_rank_positives", name="Average rank of the positives", family="ranking",
          direction=-1, range=(0.0, np.inf), aliases=("average_rank", "mean_rank"),
          source="multi-level paper Table 6; METHODS.md section 2",
          formula="(1/P) sum_i r_i (average ranks, rank 1 = highest score)")
def mean_rank_positives(t: CountTable, *, normalized: bool = False) -> float:
    """Mean rank of the positives, rank 1 being the highest score, ties averaged.

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
    tp, fp = np.array(t.tp), np.array(t.fp)
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
        order = np.lexsort((-pg, rg))
        tp, fp, pg, rg, crossing = tp[order], fp[order], pg[order], rg[order], crossing[order]
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


def prg_area(rg: FloatArray, pg: FloatArray) -> float:
    """Trapezoids over consecutive points whose left recall gain is >= 0 (prg.py calc_auprg)."""
    with np.errstate(invalid="ignore"):
        use = rg[:-1] >= 0  # False for NaN and -inf
    width = np.diff(rg)[use]
    height = (pg[1:] + pg[:-1])[use] / 2.0
    return float(np.sum(width * height))


@register("auprg", name="Area under the precision-recall-gain curve", family="ranking",
          direction=1, range=(-np.inf, 1.0), aliases=("prg_auc", "au_prg"),
          source="Siblini et al. sec. 2 (Flach & Kull 2015); METHODS.md section 4",
          formula="area under precision gain against recall gain, recall gain in [0, 1]")
def auprg(t: CountTable) -> float:
    """Area under the precision-recall-gain curve (Flach & Kull; prg.py conventions).

    Precision gain = 1 - (P/N) FP/TP and recall gain = 1 - (P/N) FN/TP; the area
    runs over recall gain in [0, 1] with the axis crossings inserted, and negative
    precision gains there count as negative area.
    """
    if not both_classes(t, "auprg"):
        return _NAN
    pts = prg_points(t)
    return prg_area(pts["recall_gain"], pts["precision_gain"])
