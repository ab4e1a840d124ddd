"""Early-recognition ranking measures: how well the top of the ranking is enriched in
positives (the multi-level paper's Table 6, docs/methods.md §2; Berrar's gain and lift).

Average gain and lift, RIE and BEDROC (Truchon & Bayly), the enrichment factor, ROC
enrichment, AUAC and the mean rank of the positives. Measures at a fixed number of top
cases take the expected value over the orders of a tied group (linear interpolation
inside it), as :mod:`binmetrics.measures.ranking` explains.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from binmetrics.backends import compiled_table
from binmetrics.exceptions import report_caveat
from binmetrics.measures._special import _SERIES, digamma
from binmetrics.measures._util import dot, exact_sum
from binmetrics.measures.kernels import bedroc_kernel, enrichment_factor_kernel, rie_kernel
from binmetrics.measures.ranking import NAN, UNIT, both_classes, ranks_sum, tp_over_cases
from binmetrics.measures.registry import register
from binmetrics.measures.roc_points import find_block
from binmetrics.table.counts import CountTable, FloatArray, block_size, chunks
from binmetrics.validation import check_in_range


# --- gain and lift --------------------------------------------------------------------
@register("average_gain", binning_bound="refinements",
          prevalence_dependent=True,
          weight_unit=True,
          name="Average gain", family="ranking", plot="gain", direction=1,
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
        return NAN
    # sum_j [g(j) - j P/n] = P N (AUC - 1/2) = (1/2) sum over the positive groups of
    # pos (negatives below - negatives above): a sum of per-group differences, taken
    # without cancellation between large totals (see _gain_sum)
    return float(t.memo("average_gain", lambda: _gain_sum(t)) / (2.0 * t.total))


def _gain_sum(t: CountTable) -> float:
    """sum over the groups holding positives of pos (N - 2 fp0 - neg), nearly exactly.

    Unweighted counts: in int64, exact. Weighted: the cumulative negatives fp0 are
    split exactly into three parts (Rump, Ogita & Oishi's extraction, as the Spark
    engine sums), the first two summed without rounding; each product pos * part is
    taken exactly (Dekker) and :func:`~binmetrics.measures._util.exact_sum` adds them all
    with one rounding, as math.fsum would. A table of at least
    :data:`~binmetrics.backends.COMPILED_TABLE_ROWS` distinct scores takes the same terms
    in two compiled loops and adds them exactly into integer bins: the same float.
    """
    g = t.positive_groups()
    if not t.weighted and t.total < 2.0**32:  # |terms| sum to at most P N < 2^63
        exact = np.int64(round(t.N)) - 2 * g.fp0.astype(np.int64) - g.neg.astype(np.int64)
        return dot(g.pos.astype(np.int64), exact)
    neg_all = t.neg.astype(np.float64, copy=False)
    bound = float(neg_all.max())
    k = (t.n_distinct + 2).bit_length() + 2  # 2^k > 4 (groups + 2): the sums stay exact
    if not (bound > 0.0 and math.frexp(bound)[1] + k < 1000
            and float(g.pos.max()) < 2.0**996):
        return dot(g.pos, t.N - 2.0 * g.fp0 - g.neg)  # out of range: plain
    s1 = math.ldexp(1.0, math.frexp(bound)[1] + k)
    s2 = math.ldexp(s1, k - 53)
    loops = compiled_table("binmetrics.measures._early_numba", t.n_distinct)
    if loops is not None and g.idx.size < _ACCUMULATED_GROUPS:  # a large table
        return _compiled_gain_sum(loops, neg_all, g, s1, s2)
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
    return exact_sum(term for diff in diffs for term in _two_product(g.pos, diff))


#: groups the compiled gain sum takes: each adds six terms, three numbers below 2^32
#: each, to the accumulator's int64 bins, which hold 2^31 of them exactly
_ACCUMULATED_GROUPS = 1 << 28


def _compiled_gain_sum(loops: Any, neg_all: FloatArray, g: Any, s1: float,
                       s2: float) -> float:
    """:func:`_gain_sum`'s weighted sum in two compiled loops
    (:func:`binmetrics.measures._early_numba.gain_sum_bins`): the same terms, summed
    exactly into integer bins, rounded once here, so the same float."""
    acc = np.zeros(loops.ACC_BINS, dtype=np.int64)
    loops.gain_sum_bins(neg_all, g.idx, g.pos, s1, s2, block_size(), acc)
    total = sum(int(v) << (32 * i) for i, v in enumerate(acc.tolist()))
    return float(Fraction(total, 1 << loops.ACC_SHIFT))  # correctly rounded, as fsum


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
    taken from the asymptotic series, written in differences that keep them. ``c0``
    ascends (cumulative cases), so the small arguments are a prefix: slices, not masks.
    """
    a, b = c0 + 1.0, c1 + 1.0
    k = int(np.searchsorted(a, 1000.0))  # a < 1000 on [:k]
    out = np.empty_like(a)
    out[:k] = digamma(b[:k]) - digamma(a[:k])
    a, b = a[k:], b[k:]
    m, ab = b - a, a * b
    rest = m / a
    np.log1p(rest, out=rest)
    rest += m / (2.0 * ab)
    rest += m * (a + b) / (12.0 * ab * ab)
    # the last term, about m / (30 a^5), is under 0.03 of an ulp of the sum (about m / a)
    # from a = 1e4 on: taken only below (the weighted tables' groups are mostly there)
    j = int(np.searchsorted(a, 1e4))
    a, b, m, ab = a[:j], b[:j], m[:j], ab[:j]
    rest[:j] -= m * (a + b) * (a * a + b * b) / (120.0 * ab**4)
    out[k:] = rest
    return out


#: The memo key of sum_j g(j)/j over every case j, average lift's numerator: a bootstrap
#: replicate's stand-in may answer it from a compiled walk (inference._replicate_groups)
LIFT_SUM = "lift"


@register("average_lift", binning_bound="refinements",
          prevalence_dependent=True,
          weight_unit=True,
          name="Average lift", family="ranking", plot="lift", direction=1,
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
        return NAN

    def compute() -> float:
        if not t.weighted and t.total == t.n_distinct:  # one case per score: g(j) = TP_j
            return tp_over_cases(t)
        return _lift_sum(t)

    return float(t.memo(LIFT_SUM, compute)) / t.P


def _lift_sum(t: CountTable) -> float:
    """Sum of g(j)/j over every case j, from the groups that hold positives alone.

    Inside a group with positives, g rises linearly by its positives
    (:func:`_group_lift`). Through the negative-only groups that follow it, up to the
    next group with positives (or the end), g stays at the group's TP, so their cases
    add TP (H(c_end) - H(c1)): one harmonic gap per run of negative groups, telescoped,
    instead of one per group (at a prevalence of 0.1 about a tenth of the work, and
    fewer roundings). The cumulative cases c are TP + FP at the group's cuts, as the
    table's own sums give them. In cache-sized pieces of the groups: each holds a
    score of temporaries (with the groups whole, 2.3x the score bytes at 1e6 weighted).
    """
    g = t.positive_groups()
    loops = compiled_table("binmetrics.measures._early_numba", t.n_distinct)
    if loops is not None:  # a large table: the same terms in one compiled loop
        return float(loops.lift_sum(g.pos, g.neg, g.tp0, g.fp0, t.total))
    size = g.idx.size
    total = 0.0
    for sl in chunks(size):
        tp0, fp0 = g.tp0[sl], g.fp0[sl]
        c0 = tp0 + fp0
        tp1 = tp0 + g.pos[sl]
        c1 = tp1 + (fp0 + g.neg[sl])
        # cases before the next group with positives (the first of the next piece)
        after = float(g.tp0[sl.stop] + g.fp0[sl.stop]) if sl.stop < size else t.total
        end = np.append(c0[1:], after)
        own = _group_lift(tp0, c0, c1, g.pos[sl])
        total += float(np.sum(own) + dot(tp1, _harmonic_gap(c1, end)))
    return total


def _group_lift(tp0: FloatArray, c0: FloatArray, c1: FloatArray, pos: Any) -> FloatArray:
    """sum_j g(j)/j over each group's cases j in (c0, c1] (g rising linearly by pos).

    With m = c1 - c0 and q = pos / m, g(j) = tp0 + (j - c0) q, so the sum is
    tp0 (H(c1) - H(c0)) + pos R, R = (1/m) sum_j (j - c0)/j (:func:`_mean_rise`, in
    [0, 1]). Written as (tp0 - c0 q)(H(c1) - H(c0)) + pos, the two terms cancel where
    m is small against c0 (positives tied below many cases: 5e-10 of the value lost
    below 915 cases, 1e-4 below 1e12), and a group whose weight is under half an ulp of
    c0 (m = 0 in floats) gave 0 * inf.
    """
    pm = pos.astype(np.float64, copy=False)
    return tp0 * _harmonic_gap(c0, c1) + pm * _mean_rise(c0, c1)


def _mean_rise(c0: FloatArray, c1: FloatArray) -> FloatArray:
    """R = (1/m) sum_{j in (c0, c1]} (j - c0)/j = 1 - c0 (psi(b) - psi(a)) / m, with
    a = c0 + 1, b = c1 + 1, m = c1 - c0, in terms that do not cancel.

    From a >= 10, with the asymptotic series psi(x) = ln x - 1/(2x) - sum_k S_k x^-2k
    of :mod:`binmetrics.measures._special` (error under 1e-15 there), u = 1/a, v = 1/b,
    x = m/a, l = log1p(x)/x, and (u^2k - v^2k)/m = u v P_{2k-1}, P_n = sum_i u^(n-i) v^i
    (positive terms):

    R = (1 - l) + l u - (a - 1) u v (1/2 + sum_k S_k P_{2k-1}).

    Below, shifted up by the recurrence of its terms (telescoping m = m (a - 1)
    sum_k 1/((a-1+k)(a+k)) against c0 (psi(b) - psi(a)) = (a - 1) sum_k m/((a+k)(b+k))):

    R(a) = (m + 1) sum_{k<K} (a-1)/((a-1+k)(a+k)(b+k)) + R(a+K) (a-1)/(a-1+K).

    At m = 0 (a weight under half an ulp of c0) it is the limit 1 - c0 psi'(a).

    Examples
    --------
    >>> r = _mean_rise(np.array([0.0, 1.0, 999.0, 1e12]), np.array([1.0, 3.0, 1000.0, 1e12 + 2]))
    >>> r.round(14).tolist()  # 1, (1/2 + 2/3)/2, 1/1000, (1/(1e12+1) + 2/(1e12+2))/2
    [1.0, 0.58333333333333, 0.001, 1.5e-12]
    """
    a, m = c0 + 1.0, c1 - c0
    out = np.empty_like(a)
    high = a >= 1000.0  # there two terms of the series are within 1e-19 (most groups)
    out[high] = _rise_series(a[high], m[high], 2)
    mid = np.flatnonzero((a >= 10.0) & ~high)
    out[mid] = _rise_series(a[mid], m[mid], len(_SERIES))
    low = np.flatnonzero(a < 10.0)
    if low.size:  # shifted up to a + K >= 10 by the recurrence
        a, m = a[low], m[low]
        shift = np.ceil(10.0 - a)
        head = np.zeros_like(a)  # the sum over k < K
        for k in range(int(shift.max())):
            on = k < shift
            ak = a[on] - 1.0
            ratio = ak / (ak + k) if k else 1.0  # (a-1)/(a-1+k): 1 at k = 0 (also c0 = 0)
            head[on] += ratio / ((ak + 1.0 + k) * (ak + 1.0 + k + m[on]))
        ak = a - 1.0
        out[low] = (m + 1.0) * head + _rise_series(a + shift, m, len(_SERIES)) * ak / (ak + shift)
    return out


def _rise_series(a: FloatArray, m: FloatArray, terms: int) -> FloatArray:
    """:func:`_mean_rise` at a >= 10 from ``terms`` terms S_k of psi's series."""
    u = 1.0 / a
    v = 1.0 / (a + m)
    x = m / a
    lx = np.ones_like(x)  # log1p(x) / x, 1 at x = 0
    big = x > 0
    lx[big] = np.log1p(x[big]) / x[big]
    one_less = 1.0 - lx  # (x - log1p x)/x; below x = 0.1 its series x/2 - x^2/3 + ...
    low = np.flatnonzero(x < 0.1)
    if low.size:
        xs = x[low]
        top = float(xs.max())  # as many terms as x^k > 1e-17 needs
        n = 17 if top >= 0.09 else max(1, math.ceil(-17.0 / math.log10(top))) if top > 0 else 1
        acc = np.zeros_like(xs)
        for k in range(n, 0, -1):
            acc = xs * ((-1.0) ** (k + 1) / (k + 1) + acc)
        one_less[low] = acc
    series = 0.5 + _SERIES[0] * (u + v)  # 1/2 + sum_k S_k P_(2k-1); P_1 = u + v
    p, vn = u + v, v
    for k in range(1, terms):  # P_(n+2) = u^2 P_n + u v^(n+1) + v^(n+2)
        vn = vn * v
        p = u * (u * p + vn)
        vn = vn * v
        p += vn
        series += _SERIES[k] * p
    return one_less + lx * u - (a - 1.0) * u * v * series


# --- early recognition (docs/methods.md §2) ------------------------------------------
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
        observed = dot(g.pos / m, group)
        ra = t.P / big_n
        return observed / (ra * -np.expm1(-a)), ra

    return t.memo(("rie", a), compute)


@register("rie", binning_bound="refinements",
          prevalence_dependent=True, resampling_kernel=rie_kernel,
          name="Robust initial enhancement", family="ranking", plot="gain", direction=1,
          range=(0.0, np.inf), aliases=("robust_initial_enhancement",),
          source="multi-level paper Table 5; Sheridan 2001; docs/methods.md §2",
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
        return NAN
    return _rie_parts(t, a)[0]


@register("bedroc", binning_bound="refinements",
          prevalence_dependent=True, resampling_kernel=bedroc_kernel,
          name="Boltzmann-enhanced discrimination of ROC", family="ranking", plot="gain",
          direction=1, range=UNIT,
          source="multi-level paper Table 6; Truchon & Bayly 2007; docs/methods.md §2",
          formula="(RIE - RIEmin) / (RIEmax - RIEmin)")
def bedroc(t: CountTable, *, alpha: float = 20.0) -> float:
    """BEDROC: RIE rescaled to [0, 1] between the worst and best orders (Truchon & Bayly).

    Computed in the stable form (RIE/RIEmax - e^(-a(1-Ra))) / (1 - e^(-a(1-Ra))),
    which gives 1.0 at alpha = 1000 where RDKit overflows. Warns
    (MeasureCaveatWarning) when alpha Ra > 1: values are then not comparable
    across data sets of different prevalence (when BEDROC is asked for by name, as
    ``ev["bedroc"]``, not in a table of every measure).

    Parameters
    ----------
    alpha : float > 0, default 20.
    """
    a = _check_alpha(alpha)
    if not both_classes(t, "bedroc"):
        return NAN
    r, ra = _rie_parts(t, a)
    if a * ra > 1.0:
        # a judgement on the value, for those who asked for BEDROC, not in every table
        report_caveat("bedroc", f"alpha * Ra = {a * ra:.3g} > 1, so BEDROC is not comparable "
                      "across data sets with different fractions of positives",
                      asked_only=True)
    rie_max = np.expm1(-a * ra) / (ra * np.expm1(-a))
    low = np.exp(-a * (1.0 - ra))
    return float((r / rie_max - low) / (1.0 - low))


def _positives_in_top(t: CountTable, x: float) -> float:
    """Expected positives among the top x cases (x may be fractional; ties interpolated)."""
    # the cases up to each cut (tp + fp, as the block adds them) never decrease: the
    # group that reaches x is in the first block whose last cut reaches it, the one read
    k, tps, fps = find_block(t, np.add, x, "left")
    if k == tps.size - 1:  # (the carries are then whole: k is the number of blocks)
        return t.P  # x rounds above the total: everything
    _, tp, fp, p, _ = next(t.iter_cuts(first_block=k))
    c = tp + fp
    i = int(np.searchsorted(c, x, side="left"))
    c0 = float(tps[k] + fps[k]) if i == 0 else float(c[i - 1])  # the carries: the cut
    tp0 = float(tps[k]) if i == 0 else float(tp[i - 1])  # before the block
    return tp0 + (x - c0) * (float(p[i]) / (float(c[i]) - c0))


@register("enrichment_factor", binning_bound="refinements",
          prevalence_dependent=True, resampling_kernel=enrichment_factor_kernel,
          name="Enrichment factor", family="ranking", plot="lift", direction=1,
          range=(0.0, np.inf), aliases=("ef",),
          source="multi-level paper Table 5; docs/methods.md §2",
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
        return NAN
    x = f * t.total
    return (_positives_in_top(t, x) / x) / t.prevalence


@register("roc_enrichment", binning_bound="refinements",
          prevalence_dependent=False,
          name="ROC enrichment", family="ranking", plot="roc", direction=1,
          range=(0.0, np.inf), aliases=("roce", "roc_ef"),
          source="multi-level paper Table 5; Jain & Nicholls 2008; docs/methods.md §2",
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
        return NAN
    # From the groups holding positives alone (the TPR steps only there): the last ROC
    # point with FPR <= x is before the first such group k whose point after it has FPR
    # above x, or in the negatives before it, with k's TP before; from there the curve
    # is flat unless x falls inside k's own diagonal (a tied group of both classes)
    g = t.positive_groups()
    size = g.idx.size
    k = int(np.searchsorted(g.fp1 / t.N, x, side="right"))
    t0 = float((g.tp0[k] if k < size else g.tp1[-1]) / t.P)
    if k < size and (f0 := float(g.fp0[k] / t.N)) < x:  # inside k's diagonal
        f1, t1 = float(g.fp1[k] / t.N), float(g.tp1[k] / t.P)
        return (t0 + (x - f0) * (t1 - t0) / (f1 - f0)) / x
    if at == "bottom":  # groups j..k-1 have points at FPR x before and after them: a
        j = int(np.searchsorted(g.fp0 / t.N, x, side="left"))  # vertical run at x
        if j < k:
            return float(g.tp0[j] / t.P) / x
    return t0 / x


@register("auac", binning_bound="refinements",
          prevalence_dependent=True,
          name="Area under the accumulation curve", family="ranking", plot="gain", direction=1,
          range=UNIT, source="multi-level paper Table 6; docs/methods.md §2",
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
        return NAN
    if kind == "step":
        return 1.0 - ranks_sum(t) / t.P / t.total
    # sum_i (r_i - 1/2) directly: subtracting P/2 from the rank sum cancels every digit
    # when the weights are small (the measure does not depend on their scale)
    g = t.positive_groups()
    below = dot(g.pos, g.tp0 + g.fp0 + (g.pos + g.neg) / 2.0)
    return 1.0 - below / t.P / t.total


@register("mean_rank_positives", binning_bound="refinements",
          prevalence_dependent=True,
          weight_unit=True,
          name="Average rank of the positives", family="ranking", plot="gain",
          direction=-1, range=(0.0, np.inf), aliases=("average_rank", "mean_rank"),
          source="multi-level paper Table 6; docs/methods.md §2",
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
        return NAN
    mean = ranks_sum(t) / t.P
    return mean / t.total if normalized else mean


# --- the multi-level paper's named forms ------------------------------------------------
@register("roc_ef5", binning_bound="refinements",
          prevalence_dependent=False,
          name="ROC enrichment at 5% FPR (ROC_EF5)", family="ranking", plot="roc",
          direction=1, range=(0.0, 20.0), aliases=("roc_ef5%", "roc_ef_5", "roce5"),
          source="multi-level paper Table 5 and section 2.1 (its recommended ROC_EF5%)",
          formula="TPR(0.05) / 0.05")
def roc_ef5(t: CountTable, *, at: str = "top") -> float:
    """ROC enrichment at a false positive rate of 5%: the multi-level paper's ROC_EF5,
    with DOR and markedness its most consistent measure (section 2.1, Figure 5).

    The same value as ``roc_enrichment`` with ``fpr=0.05``; named so that SRD, studies
    and the ``multilevel28`` preset carry it. At most 1 / 0.05 = 20.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 0, 1, 0, 0, 1, 0, 0], [.9, .8, .7, .6, .5, .4, .3, .2])
    >>> ev["roc_ef5"] == ev.value("roc_enrichment", fpr=0.05)
    True
    """
    if not both_classes(t, "roc_ef5"):  # the warning names this measure
        return NAN
    return roc_enrichment(t, fpr=0.05, at=at)


@register("mean_rank_normalized", binning_bound="refinements",
          prevalence_dependent=True,
          weight_unit=True,  # a tie's average rank adds 1/2 of a case: with fractional
          # weights (a total below one case per tie) it passes 1; whole cases stay in (0, 1]
          name="Average rank of the positives, normalized (the multi-level paper's r)",
          family="ranking", plot="gain", direction=-1, range=(0.0, np.inf),
          aliases=("normalized_mean_rank", "normalized_average_rank"),
          source="multi-level paper Table 6; docs/methods.md §2",
          formula="(1/(P (P + N))) sum_i r_i (average ranks, rank 1 = highest score)")
def mean_rank_normalized(t: CountTable) -> float:
    """Mean rank of the positives divided by the number of cases, as the multi-level
    paper's Table 6 writes r: ``sum r_i / (P (P + N))``, in (0, 1], lower is better.

    The same value as ``mean_rank_positives`` with ``normalized=True`` (a rank of 1
    is the highest score, ties averaged); named so that the ``multilevel28`` preset
    and SRD use the paper's form. Weights count as cases, as for the unnormalized form.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 0, 1, 0], [.9, .8, .7, .6], threshold=0.75)  # ranks 1, 3
    >>> ev["mean_rank_normalized"], ev["mean_rank_positives"] / 4
    (0.5, 0.5)
    """
    if not both_classes(t, "mean_rank_normalized"):
        return NAN
    return mean_rank_positives(t, normalized=True)
