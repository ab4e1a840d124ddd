"""Partial AUC (+ McClish), ROC coords, DET and one-vs-one AUC against pROC 1.18 and
scikit-learn.

The pROC values were recorded with R 4.2.2 / pROC 1.18.0 on the data below
(``PROC_DATA``), with

    library(pROC)
    y <- c(<Y>); s <- c(<S>)        # the lists below
    r <- roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE)
    sprintf("%.17g", auc(r, partial.auc = ..., partial.auc.focus = ..., partial.auc.correct = ...))
    coords(r, x = ..., input = "specificity" | "sensitivity",
           ret = c("specificity", "sensitivity", "threshold"))

CI has no R: the numbers are constants here, each next to its call.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sklearn.metrics import det_curve, roc_auc_score

import binmetrics as bm
from binmetrics.exceptions import UndefinedMeasureWarning
from binmetrics.measures import partial_auc as pa

Y = [1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1,
     0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1]
S = [1.4, 0.6, -0.7, -0.8, 0.2, 0.7, 1.4, -0.6, 0.1, -0, 0.4, -2.3, 1.5, 0.1, -0.1, 0.4, 1.1,
     -1.3, 1.5, 1.6, 0.5, 0.1, -1.6, -0.8, -0.2, 1, 0.1, 2.6, 1.1, 1, 1.7, -0.3, 1, 0.5, -1.3,
     0.7, 1.1, 1.8, 1.9, -0.6]

# (binmetrics parameters, pROC auc(r, ...) arguments, pROC's value)
PROC_PARTIAL = [
    (dict(fpr=(0, .2)), 'partial.auc = c(1, .8), partial.auc.focus = "specificity"',
     0.068571428571428533),
    (dict(fpr=(0, .2), correct=True),
     'partial.auc = c(1, .8), partial.auc.focus = "specificity", partial.auc.correct = TRUE',
     0.63492063492063489),
    (dict(fpr=(.1, .4)), 'partial.auc = c(.9, .6), partial.auc.focus = "specificity"',
     0.13607769423558899),
    (dict(fpr=(.1, .4), correct=True),
     'partial.auc = c(.9, .6), partial.auc.focus = "specificity", partial.auc.correct = TRUE',
     0.63572820941241992),
    # no vertex inside the range: one interpolated trapezoid
    (dict(fpr=(.01, .02)), 'partial.auc = c(.99, .98), partial.auc.focus = "specificity"',
     0.0025166666666666688),
    (dict(tpr=(.9, 1)), 'partial.auc = c(1, .9), partial.auc.focus = "sensitivity"',
     0.021052631578947364),
    (dict(tpr=(.9, 1), correct=True),
     'partial.auc = c(1, .9), partial.auc.focus = "sensitivity", partial.auc.correct = TRUE',
     0.58448753462603875),
    (dict(tpr=(.3, .7), correct=True),
     'partial.auc = c(.7, .3), partial.auc.focus = "sensitivity", partial.auc.correct = TRUE',
     0.63928571428571423),
    (dict(tpr=(.5, .51)), 'partial.auc = c(.51, .5), partial.auc.focus = "sensitivity"',
     0.0063157894736842156),
]


@pytest.mark.parametrize("params, r_call, expected", PROC_PARTIAL)
def test_partial_auc_matches_proc(params, r_call, expected):
    ev = bm.evaluate(Y, S)
    assert ev.value("partial_auc", **params) == pytest.approx(expected, abs=1e-12), r_call
    assert ev.roc().partial_area(**params) == pytest.approx(expected, abs=1e-12)


def test_corrected_partial_auc_below_the_diagonal_is_nan_with_a_reason():
    # r2 <- roc(y, -s, levels = c(0, 1), direction = "<"); auc(r2, partial.auc = c(1, .8),
    #   partial.auc.correct = TRUE) -> NA, "Partial AUC correction not defined for ROC
    #   curves below the diagonal."
    ev = bm.evaluate(Y, [-v for v in S])
    with pytest.warns(UndefinedMeasureWarning, match="below the diagonal"):
        assert np.isnan(ev.value("partial_auc", fpr=(0, .2), correct=True))


def test_partial_auc_full_range_is_the_auc_and_the_default_range():
    ev = bm.evaluate(Y, S)
    assert ev.value("partial_auc", fpr=(0, 1)) == pytest.approx(ev["auc"], abs=1e-15)
    assert ev.value("partial_auc", tpr=(0, 1)) == pytest.approx(ev["auc"], abs=1e-15)
    assert ev.value("partial_auc", fpr=(0, 1), correct=True) == pytest.approx(ev["auc"])
    assert ev.value("partial_auc") == ev.value("partial_auc", fpr=(0, 0.2))
    assert ev.value("pauc", fpr=(0, .2)) == ev.value("partial_auc", fpr=(0, .2))


def _random(seed, n=500, weights=False):
    r = np.random.default_rng(seed)
    y = r.integers(0, 2, n)
    s = np.round(r.normal(size=n) + y, 1)  # ties
    w = r.integers(1, 4, n) if weights else None
    return y, s, w


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("params", [dict(fpr=(0, .1)), dict(fpr=(.05, .33), correct=True),
                                    dict(tpr=(.8, 1)), dict(tpr=(.25, .6), correct=True)])
def test_integer_weights_equal_repeated_rows(seed, params):
    y, s, w = _random(seed, weights=True)
    weighted = bm.evaluate(y, s, sample_weight=w).value("partial_auc", **params)
    repeated = bm.evaluate(np.repeat(y, w), np.repeat(s, w)).value("partial_auc", **params)
    assert weighted == pytest.approx(repeated, abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_partial_areas_add_up(seed):
    y, s, _ = _random(seed)
    ev = bm.evaluate(y, s)
    cuts = [0, .13, .5, .77, 1]
    for focus in ("fpr", "tpr"):
        parts = sum(ev.value("partial_auc", **{focus: (a, b)}) for a, b in itertools.pairwise(cuts))
        assert parts == pytest.approx(ev["auc"], abs=1e-12)


def _area_under_polyline(x, y, low, high):
    """The reference: segment by segment along the cuts (x nondecreasing), the trapezoid
    of the part of each segment inside [low, high], its ends interpolated linearly."""
    total = 0.0
    for (x0, y0), (x1, y1) in itertools.pairwise(zip(x.tolist(), y.tolist(), strict=True)):
        a, b = max(x0, low), min(x1, high)
        if b > a:  # (vertical segments have no width)
            ya = y0 + (a - x0) * (y1 - y0) / (x1 - x0)
            yb = y0 + (b - x0) * (y1 - y0) / (x1 - x0)
            total += (b - a) * (ya + yb) / 2.0
    return total


@pytest.mark.parametrize("chunk", [3, 1 << 16])
@pytest.mark.parametrize("seed", range(6))
def test_partial_auc_equals_trapezoids_under_the_whole_curve(monkeypatch, chunk, seed):
    """partial_auc sums ramps over the groups holding positives; the trapezoids under
    every cut of t.tp, t.fp must give the same area, with ties, weights, ranges on
    vertices and first cuts without positives."""
    from binmetrics.table import counts

    monkeypatch.setattr(counts, "CHUNK", chunk)
    r = np.random.default_rng(seed)
    n = 400
    y = r.random(n) < 0.3
    s = np.round(y * 0.3 + r.random(n), 1 if seed % 2 else 3)
    s[np.flatnonzero(~y)[:5]] = 2.0 + np.arange(5)  # the first cuts hold no positive
    w = r.uniform(0.2, 2, n) if seed > 2 else None
    t = bm.CountTable.from_arrays(y, s, sample_weight=w)
    fpr, tpr = np.concatenate(([0.0], t.fp / t.N)), np.concatenate(([0.0], t.tp / t.P))
    inner = np.unique(fpr[(fpr > 0) & (fpr < 1)])
    inner_t = np.unique(tpr[(tpr > 0) & (tpr < 1)])
    ranges = [(0.0, 0.2), (0.0, 1.0), (0.1, 0.35), (0.5, 0.9), (0.999, 1.0),
              (float(inner[1]), float(inner[-2])), (float(inner_t[2]), float(inner_t[-3]))]
    for lo, hi in ranges:
        want = _area_under_polyline(fpr, tpr, lo, hi)
        assert pa.partial_auc(t, fpr=(lo, hi)) == pytest.approx(want, rel=1e-12, abs=1e-15)
        # TPR focus: the area between the curve and the right edge, x = TPR
        want = _area_under_polyline(tpr, 1.0 - fpr, lo, hi)
        assert pa.partial_auc(t, tpr=(lo, hi)) == pytest.approx(want, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("params, match", [
    (dict(fpr=(0, .2), tpr=(.8, 1)), "not both"),
    (dict(fpr=(.3, .2)), "low < high"),
    (dict(fpr=(.2, .2)), "low < high"),
    (dict(fpr=(-.1, .2)), "outside"),
    (dict(tpr=(.5, 1.5)), "outside"),
])
def test_partial_auc_bad_ranges(params, match):
    with pytest.raises(ValueError, match=match):
        bm.evaluate(Y, S).value("partial_auc", **params)
    with pytest.raises(TypeError, match="pair"):
        bm.evaluate(Y, S).value("partial_auc", fpr=0.2)


# pROC: coords(r, x = c(1, 15/19, 0.9, 0.5, 4/19, 0), input = "specificity",
#              ret = c("specificity", "sensitivity", "threshold"))
#   sensitivity 0.23809523809523808 0.45238095238095233 0.32857142857142851
#               0.54761904761904756 1 1;  threshold 1.55 NA NA NA -1.05 -Inf
COORDS_SP = ([0, 4 / 19, .1, .5, 15 / 19, 1],
             [0.23809523809523808, 0.45238095238095233, 0.32857142857142851,
              0.54761904761904756, 1, 1],
             [1.6, np.nan, np.nan, np.nan, -0.8, -2.3])
# pROC: coords(r, x = c(1, 16/21, 0.95, 0.5, 12/21, 0), input = "sensitivity", ...)
#   specificity 0.21052631578947367 0.36842105263157893 0.21052631578947367
#               0.63157894736842102 0.47368421052631576 1; threshold -1.05 -0.05 NA NA 0.3 Inf
COORDS_SE = ([1, 16 / 21, .95, .5, 12 / 21, 0],
             [0.21052631578947367, 0.36842105263157893, 0.21052631578947367,
              0.63157894736842102, 0.47368421052631576, 1],
             [-0.8, 0.0, np.nan, np.nan, 0.4, np.inf])


def test_coords_match_proc():
    roc = bm.evaluate(Y, S).roc()
    fpr, se, thr = COORDS_SP
    got = roc.at(fpr=fpr)
    np.testing.assert_allclose(got.tpr, se, atol=1e-12)
    # our thresholds are the scores themselves (score >= threshold); pROC's lie halfway
    np.testing.assert_array_equal(got.threshold, thr)
    tpr, sp, thr = COORDS_SE
    got = roc.at(tpr=tpr)
    np.testing.assert_allclose(1 - got.fpr, sp, atol=1e-12)
    np.testing.assert_array_equal(got.threshold, thr)
    one = roc.at(fpr=.1)
    assert isinstance(one.tpr, float) and one.tpr == pytest.approx(0.32857142857142851)
    assert list(roc.at(tpr=[.5, .95]).to_frame().columns) == ["fpr", "tpr", "threshold"]


def test_coords_ties_and_errors():
    roc = bm.evaluate([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.2]).roc()
    assert roc.at(fpr=.5).tpr == 1.0  # vertical run at FPR .5: the highest TPR
    assert roc.at(tpr=.5).fpr == 0.0  # horizontal run at TPR .5: the lowest FPR
    with pytest.raises(ValueError, match="exactly one"):
        roc.at(fpr=.1, tpr=.2)
    with pytest.raises(ValueError, match="exactly one"):
        roc.at()
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        roc.at(fpr=1.2)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weighted", [False, True])
def test_det_matches_sklearn(seed, weighted):
    r = np.random.default_rng(seed)
    y, s, _ = _random(seed, n=300)
    w = r.uniform(.1, 3, y.size) if weighted else None
    det = bm.evaluate(y, s, sample_weight=w).det()
    fpr, fnr, thr = det_curve(y, s, sample_weight=w)
    np.testing.assert_allclose(det.fpr, fpr, atol=1e-12)
    np.testing.assert_allclose(det.fnr, fnr, atol=1e-12)
    np.testing.assert_array_equal(det.thresholds, thr)
    assert list(det.to_frame().columns) == ["threshold", "fpr", "fnr"]


def test_det_plot():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    ax = bm.evaluate(Y, S).det().plot()
    assert ax.get_xlabel() == "False positive rate"


@pytest.mark.parametrize("k", [3, 4, 6])
@pytest.mark.parametrize("seed", range(3))
def test_hand_till_matches_sklearn_ovo(k, seed):
    r = np.random.default_rng(seed)
    n = 400
    y = r.integers(0, k, n)
    p = np.round(r.dirichlet(np.ones(k), n) + np.eye(k)[y] * .2, 2)  # ties
    p = p / p.sum(axis=1, keepdims=True)
    mev = bm.evaluate(y, p)
    for ours, theirs in (("hand_till", "macro"), ("ovo_weighted", "weighted")):
        expected = roc_auc_score(y, p, multi_class="ovo", average=theirs)
        assert mev.value("auc", average=ours) == pytest.approx(expected, abs=1e-12)


def test_hand_till_weights_equal_repeated_rows_and_errors():
    r = np.random.default_rng(3)
    y = r.integers(0, 3, 200)
    p = r.dirichlet(np.ones(3), 200)
    w = r.integers(1, 4, 200)
    a = bm.evaluate(y, p, sample_weight=w).value("auc", average="hand_till")
    b = bm.evaluate(np.repeat(y, w), np.repeat(p, w, axis=0)).value("auc", average="hand_till")
    assert a == pytest.approx(b, abs=1e-12)
    with pytest.raises(ValueError, match="one-vs-one AUC"):
        bm.evaluate(y, p).value("f1", average="hand_till")


# pROC: coords(r, "best", best.method = ..., best.weights = ...,
#              ret = c("threshold", "specificity", "sensitivity", <criterion>))
# threshold is pROC's midpoint between two scores; ours is the upper score (>=)
BEST = [
    (dict(measure="youden"), 'best.method = "youden"', 1.05, 1.1, 0.84210526315789469,
     0.42857142857142855, None),
    (dict(measure="youden", weights=(2, .3)), 'best.method = "youden", best.weights = c(2, 0.3)',
     1.05, 1.1, 0.84210526315789469, 0.42857142857142855, 1.4110275689223057),
    (dict(measure="youden", weights=(.5, .7)),
     'best.method = "youden", best.weights = c(0.5, 0.7)', -1.05, -0.8, 0.21052631578947367,
     1.0, 1.1804511278195489),
    (dict(measure="closest_topleft"), 'best.method = "closest.topleft"', 0.85, 1.0,
     0.73684210526315785, 0.47619047619047616, 0.34362849479588697),
    (dict(measure="closest_topleft", weights=(3, .2)),
     'best.method = "closest.topleft", best.weights = c(3, 0.2)', 1.05, 1.1,
     0.84210526315789469, 0.42857142857142855, 0.35977160947481485),
]


@pytest.mark.parametrize("kwargs, r_call, proc_threshold, threshold, sp, se, crit", BEST)
def test_best_thresholds_match_proc(kwargs, r_call, proc_threshold, threshold, sp, se, crit):
    b = bm.evaluate(Y, S).best_threshold(**kwargs)
    c = b.confusion
    assert (c.tn / (c.tn + c.fp), c.tp / (c.tp + c.fn)) == pytest.approx((sp, se), abs=1e-12)
    assert b.threshold == threshold
    if crit is not None:
        assert b.value == pytest.approx(crit, abs=1e-12), r_call


def test_best_threshold_weights_errors():
    ev = bm.evaluate(Y, S)
    with pytest.raises(ValueError, match="prevalence"):
        ev.best_threshold("youden", weights=(1, 1.2))
    with pytest.raises(ValueError, match="apply to 'youden'"):
        ev.best_threshold("f1", weights=(1, .5))


def test_tpr_at_fpr_measures_match_coords():
    ev = bm.evaluate(Y, S)
    assert ev.value("tpr_at_fpr", fpr=.1) == pytest.approx(0.32857142857142851, abs=1e-12)
    assert ev.value("se_at_sp", fpr=4 / 19) == pytest.approx(0.45238095238095233, abs=1e-12)
    assert ev.value("tnr_at_tpr", tpr=.95) == pytest.approx(0.21052631578947367, abs=1e-12)
    with pytest.raises(TypeError, match="one fpr= rate"):
        ev.value("tpr_at_fpr", fpr=[.1, .2])


def test_binormal_smoothing_matches_proc():
    # sm <- smooth(r, method = "binormal"); coefficients(sm$model); auc(sm)
    sm = bm.evaluate(Y, S).roc().smooth("binormal")
    assert (sm.intercept, sm.slope, sm.area()) == pytest.approx(
        (0.47390868882495563, -1.289805617635144, 0.61423558873776707), abs=1e-12)
    # sm$sensitivities / sm$specificities [c(100, 256, 400, 511)] (pROC lists them from
    # sensitivity 1 down, after one added point (1, 0))
    se = [0.80821917808219157, 0.50293542074363984, 0.2211350293542074, 0.0039138943248532305]
    sp = [0.25785682588885861, 0.67882592428914268, 0.92853283655664565, 0.99995269783629392]
    idx = [98, 254, 398, 509]
    np.testing.assert_allclose(sm.tpr[::-1][idx], se, atol=1e-12)
    np.testing.assert_allclose(1 - sm.fpr[::-1][idx], sp, atol=1e-12)
    # smooth(r, method = "binormal", n = 20)$specificities, without pROC's added end points
    sp20 = [0, 0.053113022565718683, 0.12691787923033176, 0.2061202547284007,
            0.28642326340131724, 0.36566241582721559, 0.44252898384403211, 0.51614669056805007,
            0.58588713852894969, 0.65127547734445601, 0.71193657523445042, 0.76756145721107782,
            0.81788452219696728, 0.86266645598277969, 0.90167956010074968, 0.93469256170744452,
            0.9614507013190603, 0.98164161366390523, 0.99481451100741713, 1]
    sm20 = bm.evaluate(Y, S).roc().smooth(n=20)
    np.testing.assert_allclose((1 - sm20.fpr)[::-1], sp20, atol=1e-12)
    assert "binormal" in repr(sm) and list(sm.to_frame().columns) == ["fpr", "tpr"]


def test_density_smoothing_matches_proc():
    """R 4.2.2 / pROC 1.18.0, r as in the module docstring (ties in S):
    sm <- smooth(r, method = "density"); sprintf("%.17g", auc(sm)); bw.nrd0(s)
    i <- c(2, 101, 257, 401, 512, 513); sm$sensitivities[i]; sm$specificities[i]
    (pROC's 514 points run from specificity 0 to 1; ours from FPR 0 to 1, reversed)."""
    sm = bm.evaluate(Y, S).roc().smooth("density")
    assert sm.area() == pytest.approx(0.62353367858683983, abs=1e-12)
    assert sm.bandwidth == pytest.approx(0.42554117761179816, abs=1e-14)
    i = [1, 100, 256, 400, 511, 512]
    se = [1, 0.99989587215416709, 0.64626852920537503, 0.067615767786973466,
          1.5451458749285167e-05, 7.3293605012549013e-06]
    sp = [0, 0.041924782649830447, 0.43812901097649676, 0.99605403534619164,
          0.99999999964681274, 0.99999999984048371]
    assert sm.fpr.size == sm.tpr.size == 514
    np.testing.assert_allclose(sm.tpr[::-1][i], se, atol=1e-12)
    np.testing.assert_allclose(1 - sm.fpr[::-1][i], sp, atol=1e-12)
    assert (sm.fpr[0], sm.tpr[0], sm.fpr[-1], sm.tpr[-1]) == (0, 0, 1, 1)
    assert np.all(np.diff(sm.fpr) >= 0) and np.all(np.diff(sm.tpr) >= 0)
    assert "density" in repr(sm) and "bandwidth=0.425541" in repr(sm)
    assert list(sm.to_frame().columns) == ["fpr", "tpr"]
    # sm <- smooth(r, method = "density", n = 50, bw = 0.3, adjust = 2)
    # auc(sm); sm$sensitivities[c(2, 20, 40)]
    sm = bm.evaluate(Y, S).roc().smooth("density", n=50, bandwidth=0.3, adjust=2)
    assert sm.area() == pytest.approx(0.61750017306754901, abs=1e-12)
    assert sm.bandwidth == 0.6
    np.testing.assert_allclose(sm.tpr[::-1][[1, 19, 39]],
                               [1, 0.93446395630714507, 0.063981216447046713], atol=1e-12)
    # n > 512: R's density bins on 1024 points; auc(smooth(r, "density", n = 1000))
    assert bm.evaluate(Y, S).roc().smooth("density", n=1000).area() == pytest.approx(
        0.62354403329519426, abs=1e-12)


def test_density_smoothing_weights_are_repeated_rows():
    """Whole-number weights give the curve of the repeated rows: in R,
    w <- rep(c(1, 2, 3), length.out = 40)
    r2 <- roc(rep(y, w), rep(s, w), levels = c(0, 1), direction = "<")
    auc(smooth(r2, method = "density")); bw.nrd0(rep(s, w))"""
    w = np.resize([1, 2, 3], 40)
    sm = bm.evaluate(Y, S, sample_weight=w).roc().smooth("density")
    assert sm.area() == pytest.approx(0.6314318759785521, abs=1e-12)
    assert sm.bandwidth == pytest.approx(0.40113794723751095, abs=1e-14)
    rep = bm.evaluate(np.repeat(Y, w), np.repeat(S, w)).roc().smooth("density")
    np.testing.assert_allclose(sm.tpr, rep.tpr, atol=1e-12)
    np.testing.assert_allclose(sm.fpr, rep.fpr, atol=1e-12)
    # one score for all: bw.nrd0 falls back to |x|; auc(smooth(roc(c(0,0,1,1), c(1,1,1,1),
    # levels = c(0, 1), direction = "<"), "density")) = 0.49999999999999994
    with pytest.warns(bm.BinmetricsWarning, match=r"threshold 0\.5 \(the default\) is outside"):
        tied = bm.evaluate([0, 0, 1, 1], [1, 1, 1, 1])
    assert tied.roc().smooth("density").area() == pytest.approx(0.5, abs=1e-12)


def test_smoothing_errors():
    roc = bm.evaluate(Y, S).roc()
    with pytest.raises(NotImplementedError, match="fitdistr"):
        roc.smooth("fitdistr")
    with pytest.raises(ValueError, match="bandwidth must be"):
        roc.smooth("density", bandwidth="sj")
    with pytest.raises(ValueError, match="positive and finite"):
        roc.smooth("density", bandwidth=0.0)
    with pytest.raises(ValueError, match="at least 2 points"):
        roc.smooth("density", n=1)
    with pytest.raises(ValueError, match="apply to method='density' only"):
        roc.smooth("binormal", adjust=2)
    with pytest.raises(ValueError, match="cannot be smoothed"):
        bm.evaluate([0, 1], [0.1, 0.9]).roc().smooth()


def test_ci_band_within_monte_carlo_error_of_proc():
    """pROC (R 4.2.2, pROC 1.18.0) on the data of tests/inference/test_roc_test.py (rt.csv):
    r1 <- roc(d$y, d$a, levels = c(0, 1), direction = "<"); set.seed(1)
    ci.se(r1, specificities = c(0.95, 0.9, 0.8, 0.5, 0.2), boot.n = 2000)
    set.seed(1); ci.sp(r1, sensitivities = c(0.95, 0.9, 0.8, 0.5), boot.n = 2000)
    The draws differ (R's generator, NumPy's): the 2.5 % and 97.5 % quantiles of 2000
    replicates agree within about 0.01-0.02; we allow 0.03."""
    r = np.random.default_rng(2015)
    y = r.integers(0, 2, 300)
    a = np.round(r.normal(size=300) + 1.0 * y, 1)
    roc = bm.evaluate(y, a).roc()
    se = roc.ci_band(fpr=[.05, .1, .2, .5, .8], n_resamples=2000, random_state=0)
    proc_se = [[0.09866541, 0.2394737, 0.3650170], [0.24901151, 0.3341009, 0.4552919],
               [0.37631579, 0.4903070, 0.6390695], [0.75836947, 0.8539004, 0.9246501],
               [0.94736842, 0.9776316, 1.0000000]]
    np.testing.assert_allclose(np.c_[se.low, se.median, se.high], proc_se, atol=0.03)
    sp = roc.ci_band(tpr=[.95, .9, .8, .5], n_resamples=2000, random_state=0)
    proc_sp = [[0.1878153, 0.3369369, 0.4452703], [0.3236402, 0.4297297, 0.5440444],
               [0.4567483, 0.5635135, 0.6912218], [0.7184685, 0.7937890, 0.8793758]]
    np.testing.assert_allclose(np.c_[sp.low, sp.median, sp.high], proc_sp, atol=0.03)
    again = roc.ci_band(fpr=[.05, .1, .2, .5, .8], n_resamples=2000, random_state=0)
    np.testing.assert_array_equal(again.low, se.low)
    assert list(se.to_frame().columns) == ["fpr", "tpr", "low", "median", "high"]
    with pytest.raises(ValueError, match="exactly one"):
        roc.ci_band(fpr=[.1], tpr=[.9])


def test_band_and_smooth_plots():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    roc = bm.evaluate(Y, S).roc()
    ax = roc.ci_band(fpr=np.linspace(0, 1, 11), n_resamples=50, random_state=0).plot()
    roc.smooth().plot(ax=ax)
    roc.smooth("density").plot(ax=ax)
    assert len(ax.lines) == 4  # two curves, each with its diagonal
    assert ax.get_xlabel() == "False positive rate"


def test_partial_auc_bootstrap_interval_within_monte_carlo_error_of_proc():
    """r <- roc(d$y, d$a, levels = c(0, 1), direction = "<", partial.auc = c(1, .8)
    [, partial.auc.correct = TRUE]); set.seed(1); ci.auc(r, method = "bootstrap",
    boot.n = 2000) -> 0.04477993 0.06276954 0.08418857 and (corrected) 0.5688332
    0.6188043 0.6783016, on the data of tests/inference/test_roc_test.py (pROC's middle value is
    the bootstrap median; the estimate, auc(r), is 0.06257267959)."""
    r = np.random.default_rng(2015)
    y = r.integers(0, 2, 300)
    a = np.round(r.normal(size=300) + 1.0 * y, 1)
    ev = bm.evaluate(y, a)
    ci = ev.ci("partial_auc", fpr=(0, .2), n_resamples=2000, random_state=0)
    assert ci.estimate == pytest.approx(0.06257267959, abs=1e-10)
    assert (ci.low, ci.high) == pytest.approx((0.04477993, 0.08418857), abs=0.004)
    ci = ev.ci("partial_auc", fpr=(0, .2), correct=True, n_resamples=2000, random_state=0)
    assert (ci.low, ci.high) == pytest.approx((0.5688332, 0.6783016), abs=0.01)


def test_hand_till_matches_proc_multiclass_roc():
    """The data below, written to mc.csv with pandas (17 significant digits) and read in
    R: d <- read.csv("mc.csv", check.names = FALSE); p <- as.matrix(d[, c("0", "1", "2")]);
    multiclass.roc(factor(d$y), p)$auc -> 0.8249642123437364 (pROC 1.18.0)."""
    r = np.random.default_rng(5)
    y = r.integers(0, 3, 120)
    p = np.round(r.dirichlet(np.ones(3), 120) + np.eye(3)[y] * .3, 2)
    p = p / p.sum(axis=1, keepdims=True)
    assert bm.evaluate(y, p).value("auc", average="hand_till") == pytest.approx(
        0.8249642123437364, abs=1e-12)


@pytest.mark.parametrize("case", ["ties", "half_weights", "real_weights", "tiny"])
@pytest.mark.parametrize("stratified", [True, False])
def test_ci_band_reads_every_replicate_as_coords_does(case, stratified):
    """The band reads a block of replicates at once (cumulative counts, one search per
    replicate); each replicate's value is still read_curve's on that replicate's table,
    as bootstrap_tables gives it, exactly (to 1e-12 with real-valued weights)."""
    import warnings

    from binmetrics.curves import band as band_module
    from binmetrics.inference.resampling import bootstrap_tables
    from binmetrics.measures.roc_points import read_curve

    rng = np.random.default_rng(len(case))
    n = 12 if case == "tiny" else 800
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(size=n) + y, 1)
    w = {"half_weights": rng.integers(1, 4, n) * 0.5, "real_weights": rng.random(n) * 3}.get(case)
    t = bm.evaluate(y, s, sample_weight=w).table
    fpr_at = np.r_[np.linspace(0, 1, 21), 0.1, 1 / 3, 0.7]
    tpr_at = np.r_[np.linspace(0, 1, 17), 0.3, 0.9]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the bootstrap's note on non-integer weights
        for along, at in (("fpr", fpr_at), ("tpr", tpr_at)):
            got = np.concatenate([band_module._read_block(p, q, along, at) for p, q in
                                  band_module.bootstrap_count_blocks(
                                      t, 300, stratified=stratified, random_state=5)])
            want = np.full_like(got, np.nan)
            for i, rep in enumerate(bootstrap_tables(t, 300, stratified=stratified,
                                                     random_state=5)):
                if rep.P > 0 and rep.N > 0:
                    if along == "fpr":
                        want[i] = read_curve(rep.fp / rep.N, rep.tp / rep.P, at, last=True)[0]
                    else:
                        want[i] = 1 - read_curve(rep.tp / rep.P, rep.fp / rep.N, at,
                                                 last=False)[0]
            if case == "real_weights":
                np.testing.assert_allclose(got, want, atol=1e-12)
            else:
                np.testing.assert_array_equal(got, want)
            assert case != "tiny" or stratified or np.isnan(got).any()  # a class drawn out


def test_density_smoothing_with_weights_summing_below_two_says_what_to_do():
    # weights normalized to sum to 1 count as one case: bw.nrd0 cannot be chosen
    w = np.full(len(Y), 1.0 / len(Y))
    roc = bm.evaluate(Y, S, sample_weight=w).roc()
    with pytest.raises(ValueError, match=r"sum to 1\b.*give bandwidth= a number"):
        roc.smooth("density")
    assert 0 < roc.smooth("density", bandwidth=0.4).area() < 1
