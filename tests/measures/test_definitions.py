"""Each measure against an independent, row-by-row transcription of its definition.

binmetrics computes everything from the count table with tied groups as segments.
Here the definitions are applied to the raw rows instead, and ties are resolved
by brute force: the expected value over every order of the tied cases (the
library's convention), enumerated explicitly on small inputs.
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from scipy.spatial import ConvexHull

import binmetrics as bm


def _data(seed: int, n: int, *, decimals: int = 1, weights: bool = False):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    y[:2] = [True, False]
    s = np.round(rng.random(n), decimals)
    w = rng.uniform(0.1, 3.0, n) if weights else None
    return y, s, w


# --- probabilistic measures, row by row -------------------------------------------------
def _rowwise(y, p, w, eps=1e-15, base=2.0):
    w = np.ones_like(p) if w is None else w
    lb = math.log(base)
    pt = np.where(y, p, 1 - p)
    lp = -np.log(np.maximum(p, eps)) / lb
    ln = -np.log(np.maximum(1 - p, eps)) / lb
    ce = np.where(y, lp, ln)
    prior = np.average(y, weights=w)
    alpha = 1 - prior

    def info(yi, pi):
        p_true, prior_true = (pi, prior) if yi else (1 - pi, 1 - prior)
        if p_true >= prior_true:
            return math.log2(p_true) - math.log2(prior_true)
        return math.log2(1 - prior_true) - math.log2(1 - p_true)

    info_rows = np.array([info(a, b) for a, b in zip(y, p, strict=True)])
    entropy = -(prior * math.log2(prior) + (1 - prior) * math.log2(1 - prior))
    ysign = np.where(y, 1.0, -1.0)
    return {
        "mae": np.average(np.abs(y - p), weights=w),
        "brier": np.average((y - p) ** 2, weights=w),
        "rmse": math.sqrt(np.average((y - p) ** 2, weights=w)),
        "log_loss": np.average(ce, weights=w),
        "balanced_log_loss": np.average(np.where(y, alpha * lp, (1 - alpha) * ln), weights=w),
        "focal_loss": np.average((1 - pt) ** 2 * ce, weights=w),
        "information_score": np.average(info_rows, weights=w),
        "relative_information_score": np.average(info_rows, weights=w) / entropy,
        "hinge_loss": np.average(np.maximum(0, 1 - ysign * p), weights=w),
        "top_k_accuracy": np.average((p > 0.5) == y, weights=w),  # scikit-learn's k = 1
    }


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weights", [False, True])
def test_probabilistic_measures_match_their_definitions(seed, weights):
    y, s, w = _data(seed, 60, decimals=2, weights=weights)
    s[:3] = [0.0, 1.0, 0.5]  # exact 0 and 1: the logarithms are clipped at eps
    ev = bm.evaluate(y, s, sample_weight=w)
    expected = _rowwise(y, s, w)
    for measure in bm.iter_measures("probabilistic"):
        if measure.id not in expected:
            continue  # the calibration measures: tests/measures/test_calibration_measures.py
        assert ev[measure.id] == pytest.approx(expected[measure.id], rel=1e-11, abs=1e-12), \
            measure.id


def test_focal_loss_parameters_and_log_base():
    y, s, _ = _data(1, 40, decimals=2)
    s = np.clip(s, 0.01, 0.99)
    ev = bm.evaluate(y, s)
    pt = np.where(y, s, 1 - s)
    at = np.where(y, 0.25, 0.75)
    assert ev.value("focal_loss", gamma=0.0) == pytest.approx(ev["log_loss"], rel=1e-12)
    direct = np.mean(-at * (1 - pt) ** 3 * np.log(pt))
    got = ev.value("focal_loss", gamma=3, alpha=0.25, base=np.e)
    assert got == pytest.approx(direct, rel=1e-12)
    assert ev.value("log_loss", base=10) == pytest.approx(
        np.mean(-np.log10(pt)), rel=1e-12)
    assert ev.value("balanced_log_loss", alpha=0.5) == pytest.approx(ev["log_loss"] / 2, rel=1e-12)


def test_information_score_with_a_training_prior():
    y, s, _ = _data(2, 50, decimals=2)
    ev = bm.evaluate(y, s)
    prior = 0.3
    rows = []
    for yi, pi in zip(y, s, strict=True):
        pt, prt = (pi, prior) if yi else (1 - pi, 1 - prior)
        rows.append(math.log(pt / prt) if pt >= prt else math.log((1 - prt) / (1 - pt)))
    assert ev.value("information_score", prior=prior, base=np.e) == pytest.approx(
        np.mean(rows), rel=1e-12)


# --- ranking measures: expected values over every order of the tied cases ---------------
def _tie_orders(y, s, limit=5000):
    """All orders of y by descending score that differ only inside tied groups."""
    order = np.argsort(-s, kind="stable")
    groups = [list(g) for _, g in itertools.groupby(order, key=lambda i: s[i])]
    perms = [list(itertools.permutations(g)) for g in groups]
    total = math.prod(len(p) for p in perms)
    assert total <= limit, total
    for combo in itertools.product(*perms):
        yield np.array([y[i] for g in combo for i in g], dtype=float)


def _ranked_definitions(ys):
    """Measures of one fully ordered list of labels (no ties), straight from the papers."""
    n, npos = len(ys), ys.sum()
    g = np.cumsum(ys)  # positives among the top j
    j = np.arange(1, n + 1)
    ranks = j[ys == 1]
    return {
        "average_gain": np.mean(g - j * npos / n),  # Berrar eq. 29
        "average_lift": np.mean((g / j) / (npos / n)),  # Berrar eq. 30
        "mean_rank_positives": ranks.mean(),
        "auac": 1 - np.sum(ranks - 0.5) / (npos * n),
        "rie": np.sum(np.exp(-20 * ranks / n))
        / ((npos / n) * (1 - np.exp(-20)) / (np.exp(20 / n) - 1)),
    }


@pytest.mark.parametrize("seed", range(8))
def test_tied_groups_are_the_expected_value_over_tie_orders(seed):
    rng = np.random.default_rng(seed)
    n = 9
    y = rng.random(n) < 0.45
    y[:2] = [True, False]
    s = rng.integers(0, 4, n) / 4.0
    ev = bm.evaluate(y, s)
    runs = [_ranked_definitions(ys) for ys in _tie_orders(y, s)]
    for key in runs[0]:
        expected = np.mean([r[key] for r in runs])
        assert ev[key] == pytest.approx(expected, rel=1e-12), key


@pytest.mark.parametrize("seed", range(8))
def test_enrichment_factor_is_the_expected_value_over_tie_orders(seed):
    rng = np.random.default_rng(seed)
    y = rng.random(10) < 0.4
    y[:2] = [True, False]
    s = rng.integers(0, 4, 10) / 4.0
    ev = bm.evaluate(y, s)
    for k in (1, 2, 3, 5, 7):
        f = k / 10  # an integer number of cases: the top k of each order
        expected = np.mean([ys[:k].mean() / y.mean() for ys in _tie_orders(y, s)])
        assert ev.value("enrichment_factor", fraction=f) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_integer_weights_match_repeated_rows_for_rank_measures(seed):
    y, s, _ = _data(seed, 30)
    w = np.random.default_rng(seed).integers(0, 4, y.size)
    w[:2] = 1
    ev_w = bm.evaluate(y, s, sample_weight=w)
    ev_r = bm.evaluate(np.repeat(y, w), np.repeat(s, w))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for m in bm.iter_measures("ranking"):
            assert ev_w[m.id] == pytest.approx(ev_r[m.id], rel=1e-10, nan_ok=True), m.id


# --- curves ------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_roc_hull_is_scipys_convex_hull(seed):
    y, s, w = _data(seed, 80, weights=seed % 2 == 1)
    roc = bm.evaluate(y, s, sample_weight=w).roc()
    hull = roc.hull()
    pts = np.column_stack([np.r_[roc.fpr, 1.0], np.r_[roc.tpr, 0.0]])  # close below
    qh = ConvexHull(pts)
    assert hull.area() == pytest.approx(qh.volume, rel=1e-12)
    # every vertex lies on the curve and the hull is concave
    with np.errstate(divide="ignore"):  # a first vertical edge has slope +inf
        slopes = np.diff(hull.tpr) / np.diff(hull.fpr)
    assert np.all(np.diff(slopes) < 0)


def _dg_numeric(tp, fp, big_p):
    """Davis-Goadrich interpolation by the trapezoid rule on a fine grid of TP."""
    area = 0.0
    for k in range(1, len(tp)):
        dtp = tp[k] - tp[k - 1]
        if dtp == 0:
            continue
        x = np.linspace(0.0, dtp, 20001)
        slope = (fp[k] - fp[k - 1]) / dtp
        with np.errstate(invalid="ignore"):  # 0/0 at x = 0 on the first step
            prec = (tp[k - 1] + x) / (tp[k - 1] + x + fp[k - 1] + slope * x)
        prec[np.isnan(prec)] = 1.0 / (1.0 + slope)
        area += np.trapezoid(prec, x) / big_p
    return area


@pytest.mark.parametrize("seed", range(4))
def test_pr_areas(seed):
    y, s, w = _data(seed, 40, weights=seed % 2 == 1)
    ev = bm.evaluate(y, s, sample_weight=w)
    pr = ev.pr()
    t = ev.table
    assert pr.area() == ev["average_precision"]
    assert pr.area("min") == ev["aucpr_min"]
    assert pr.area("davis_goadrich") == pytest.approx(_dg_numeric(t.tp, t.fp, t.P), rel=1e-8)
    r = np.r_[0.0, pr.recall]
    p = np.r_[pr.precision[0], pr.precision]
    assert pr.area("linear") == pytest.approx(np.trapezoid(p, r), rel=1e-12)
    with pytest.raises(ValueError, match="davis_goadrich"):
        pr.area("simpson")


@pytest.mark.parametrize("seed", range(10))
def test_auprg_fast_area_equals_the_area_of_the_curve_points(seed):
    y, s, w = _data(seed, 50 + 30 * seed, decimals=1 + seed % 2, weights=seed % 3 == 0)
    ev = bm.evaluate(y, s, sample_weight=w)
    prg = ev.prg()
    with np.errstate(invalid="ignore"):  # -inf - -inf before recall gain 0
        use = prg.recall_gain[:-1] >= 0
        width = np.diff(prg.recall_gain)[use]
        height = (prg.precision_gain[1:] + prg.precision_gain[:-1])[use] / 2
    direct = np.sum(width * height)
    assert ev["auprg"] == pytest.approx(direct, rel=1e-10, abs=1e-12)


def test_gain_lift_accumulation_and_threshold_curves_agree_with_the_measures():
    y, s, _ = _data(3, 30)
    ev = bm.evaluate(y, s)
    assert ev.gain().average() == ev["average_gain"]
    assert ev.lift().average() == ev["average_lift"]
    assert ev.accumulation().area() == ev["auac"]
    acc = ev.accumulation()
    assert np.trapezoid(acc.fraction_found, acc.fraction_screened) == pytest.approx(
        ev["auac"], rel=1e-12)
    _, ks = ev.threshold_curves().ks()
    assert ks == ev["ks"]
    assert ev.roc().area() == ev["auc"]
    assert ev.prg().area() == ev["auprg"]


def test_haldane_anscombe_correction_of_likelihood_ratios() -> None:
    """correction= adds 0.5 to every cell of a matrix with an empty cell, and only then."""
    full = bm.Confusion(tp=30, fp=5, fn=10, tn=55)
    for mid in ("dor", "lr_plus", "lr_minus"):
        m = bm.get_measure(mid)
        assert m.func(full, correction=0.5) == m.func(full)
    empty = bm.Confusion(tp=12, fp=0, fn=3, tn=20)
    tp, fp, fn, tn = 12.5, 0.5, 3.5, 20.5
    assert bm.get_measure("dor").func(empty, correction=0.5) == pytest.approx(tp * tn / (fp * fn))
    assert bm.get_measure("lr_plus").func(empty, correction=0.5) == pytest.approx(
        (tp / (tp + fn)) / (fp / (fp + tn)))
    assert bm.get_measure("lr_minus").func(empty, correction=0.5) == pytest.approx(
        (fn / (tp + fn)) / (tn / (fp + tn)))
    assert math.isinf(bm.get_measure("dor").func(empty))
    # along the cuts of a table: only the cuts with an empty cell change
    ev = bm.evaluate([1, 0, 1, 1, 0, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2])
    cuts = ev.table.cuts()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", bm.UndefinedMeasureWarning)
        plain = np.asarray(bm.get_measure("dor").func(cuts))
        fixed = np.asarray(bm.get_measure("dor").func(cuts, correction=0.5))
    assert np.isfinite(fixed).all()
    ok = np.isfinite(plain) & (plain > 0)
    np.testing.assert_allclose(fixed[ok], plain[ok])
    with pytest.raises(ValueError, match="correction"):
        bm.get_measure("dor").func(full, correction=-1)


@pytest.mark.parametrize("seed", range(6))
def test_roc_hull_by_pruning_equals_quickhull_and_scipy(seed, monkeypatch):
    """The hull from pruning to convergence (no quickhull) has the vertices quickhull
    finds from every point, and the area of scipy's convex hull; so does the path
    where the pruning rounds run out and quickhull finishes."""
    from binmetrics.measures import ranking
    from binmetrics.table.counts import CountTable

    rng = np.random.default_rng(seed)
    n = int(rng.integers(50, 30000))
    y = rng.random(n) < rng.uniform(0.05, 0.7)
    y[:2] = [True, False]
    s = y * rng.uniform(0, 2) + rng.normal(0, 1, n)
    if seed % 3 == 2:
        s = np.round(s, 1)  # ties: diagonal segments
    w = rng.uniform(0.1, 2, n) if seed % 2 else None
    t = CountTable.from_arrays(y, s, sample_weight=w)
    fx, fy = ranking.roc_hull(t)
    # one pruning round: quickhull finishes (the pruning converges only on tiny tables)
    monkeypatch.setattr(ranking._prune_below_neighbours, "__defaults__", (1,))
    t2 = CountTable.from_arrays(y, s, sample_weight=w)
    qx, qy = ranking.roc_hull(t2)
    np.testing.assert_array_equal(fx, qx)
    np.testing.assert_array_equal(fy, qy)
    every = np.arange(t.n_distinct + 1)
    ax, ay = t.fp[every] / t.N, t.tp[every] / t.P
    v = ranking.upper_hull(ax, ay)  # quickhull on every ROC point
    assert np.trapezoid(ay[v], ax[v]) == pytest.approx(np.trapezoid(fy, fx), rel=1e-12)
    qh = ConvexHull(np.column_stack([np.r_[ax, 1.0], np.r_[ay, 0.0]]))
    assert np.trapezoid(fy, fx) == pytest.approx(qh.volume, rel=1e-12)
