"""The precision-recall-gain curve and its area (Flach & Kull 2015; Siblini et al.;
docs/methods.md §4)."""

from __future__ import annotations

from typing import Any

import numpy as np

from binmetrics.exceptions import report_undefined
from binmetrics.measures._util import dot
from binmetrics.measures.ranking import NAN, both_classes, extreme_weights
from binmetrics.measures.registry import register
from binmetrics.table.counts import CountTable, FloatArray


# --- precision-recall-gain (Flach & Kull 2015; docs/methods.md §4) -------------------
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


@register("auprg", name="Area under the precision-recall-gain curve", family="ranking", plot="prg",
          prevalence_dependent=True,
          direction=1, range=(-np.inf, 1.0), aliases=("prg_auc", "au_prg"),
          source="Siblini et al. sec. 2 (Flach & Kull 2015); docs/methods.md §4",
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
        et al. sec. 3.1; docs/methods.md §4). Precision gain is invariant to the
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
        return NAN
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
    if extreme_weights(t):  # as fractions of the total, so that P^2 cannot under- or overflow
        tp0, fp0, tp1, fp1, d_tp, d_fp = (a / t.total for a in (tp0, fp0, tp1, fp1, d_tp, d_fp))
        big_p, big_n, root_n = big_p / t.total, big_n / t.total, root_n / t.total
    # each array is as long as the groups holding positives (a tenth of the table at a
    # prevalence of 0.1): the gains are taken in place, and the area sums masked
    # arrays, not gathered copies, so that this measure does not set to_dict()'s peak
    # memory (issue 18: 3x the score bytes)
    with np.errstate(divide="ignore", invalid="ignore"):
        pg0, pg1 = _gain(fp0, tp0, r), _gain(fp1, tp1, r)
        rg0, rg1 = _gain(big_p - tp0, tp0, r), _gain(big_p - tp1, tp1, r)
    if g.idx[-1] == t.n_distinct - 1:  # the last cut: everything predicted positive
        pg1[-1], rg1[-1] = 0.0, 1.0
    with np.errstate(invalid="ignore"):  # -inf gains at TP = 0
        use = rg0 >= 0
        cross = pg0 * pg1 < 0
        cross &= use
    area = 0.0
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
    del tp1, fp1
    rg1 -= rg0  # the widths and heights of the pairs, in place; 0 x 0 where unused
    pg1 += pg0
    np.logical_not(use, out=use)
    rg1[use] = 0.0
    pg1[use] = 0.0
    return dot(rg1, pg1) / 2.0 + area


def _gain(num: FloatArray, tp: FloatArray, r: float) -> FloatArray:
    """1 - r num / tp (precision gain for num = FP, recall gain for num = P - TP) as one
    new array, the operations in the order of that expression."""
    out = np.multiply(num, r)
    out /= tp
    return np.subtract(1.0, out, out=out)


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
