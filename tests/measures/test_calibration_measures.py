"""Probability calibration and decision-analytic measures (issue 14) against their
peers: rms::val.prob (recorded, with the R call), scikit-learn's calibration_curve,
dcurves and hmeasure, on data with ties and weights.

Not the prior calibration of Siblini et al. (tests/evaluation/test_prior_calibrated.py)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.exceptions import MeasureCaveatWarning, UndefinedMeasureWarning

# R 4.2.2, rms 6.x: p, y, w below as R vectors (p <- c(...); y <- c(...); w <- c(...)).
P_R = np.array([
    0.82, 0.37, 0.69, 0.85, 0.64, 0.55, 0.75, 0.71, 0.47, 0.57, 0.74, 0.08, 0.64, 0.73,
    0.4, 0.51, 0.24, 0.64, 0.95, 0.31, 0.46, 0.88, 0.55, 0.42, 0.66, 0.05, 0.17, 0.86,
    0.17, 0.05, 0.91, 0.74, 0.96, 0.75, 0.91, 0.35, 0.74, 0.18, 0.81, 0.72, 0.2, 0.2,
    0.18, 0.81, 0.66, 0.29, 0.65, 0.68, 0.68, 0.98, 0.83, 0.43, 0.07, 0.24, 0.09, 0.77,
    0.78, 0.23, 0.93, 0.33, 0.47, 0.58, 0.98, 0.88, 0.16, 0.88, 0.22, 0.79, 0.66, 0.17,
    0.07, 0.91, 0.02, 0.16, 0.96, 0.69, 0.56, 0.46, 0.57, 0.46])
Y_R = np.array([
    1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1,
    0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 1,
    0, 0, 1, 0, 0, 1, 1, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 1, 1, 1, 0, 0])
W_R = np.array([
    3, 1, 1, 2, 1, 3, 2, 3, 3, 1, 1, 2, 1, 3, 2, 2, 2, 1, 3, 3, 1, 3, 1, 2, 1, 3, 3, 3,
    1, 1, 1, 1, 3, 2, 1, 1, 2, 3, 3, 3, 3, 2, 1, 3, 2, 3, 2, 3, 1, 1, 3, 2, 2, 1, 1, 2,
    1, 1, 3, 1, 2, 1, 1, 1, 1, 3, 1, 1, 2, 1, 3, 1, 1, 3, 1, 1, 2, 3, 2, 3])

# library(rms); options(digits = 15)
# val.prob(p, y, pl = FALSE)[c("Intercept", "Slope", "S:z", "Brier", "Eavg", "E90", "Emax")]
VALPROB = {"Intercept": 0.2464561395112372, "Slope": 1.0999396937112953,
           "S:z": -0.2957054480843638, "Brier": 0.16098,
           "Eavg": 0.0517187139127335, "E90": 0.1223048241762085, "Emax": 0.1599206308198773}
# The same with the weights as repeated rows: val.prob(rep(p, w), rep(y, w), pl = FALSE)
VALPROB_W = {"Intercept": 0.215929822563825424, "Slope": 1.146910566202356874,
             "S:z": -0.666187682693393235, "Brier": 0.156088741721854302,
             "Eavg": 0.043287926564297911, "E90": 0.087137289732289847,
             "Emax": 0.102429425760824477}
# coef(glm(y ~ offset(qlogis(p)), family = binomial, control = glm.control(epsilon = 1e-14)))
CITL, CITL_W = 0.25103808243757, 0.227646294053678


@pytest.mark.parametrize("weighted", [False, True])
def test_logistic_calibration_and_spiegelhalter_agree_with_val_prob(weighted: bool) -> None:
    ref = VALPROB_W if weighted else VALPROB
    ev = bm.evaluate(Y_R, P_R, sample_weight=W_R if weighted else None)
    assert ev["calibration_intercept"] == pytest.approx(ref["Intercept"], abs=1e-6)
    assert ev["calibration_slope"] == pytest.approx(ref["Slope"], abs=1e-6)
    assert ev["spiegelhalter_z"] == pytest.approx(ref["S:z"], abs=1e-9)
    assert ev["brier"] == pytest.approx(ref["Brier"], abs=1e-12)
    assert ev["calibration_in_the_large"] == pytest.approx(CITL_W if weighted else CITL,
                                                           abs=1e-6)


def test_weights_act_as_repeated_rows() -> None:
    ew = bm.evaluate(Y_R, P_R, sample_weight=W_R)
    er = bm.evaluate(np.repeat(Y_R, W_R), np.repeat(P_R, W_R))
    for m in ("ece", "mce", "calibration_slope", "calibration_intercept",
              "calibration_in_the_large", "spiegelhalter_z", "brier_skill", "h_measure"):
        assert ew[m] == pytest.approx(er[m], rel=1e-10, abs=1e-12), m
    for kw in ({"strategy": "quantile"}, {"n_bins": 7, "norm": "l2"}):
        assert ew.value("ece", **kw) == pytest.approx(er.value("ece", **kw), rel=1e-12)


def test_p_of_exactly_0_or_1_leave_the_fit_with_a_warning() -> None:
    y = np.concatenate([Y_R, [0, 1]])
    p = np.concatenate([P_R, [0.0, 1.0]])
    ev = bm.evaluate(y, p)
    with pytest.warns(MeasureCaveatWarning, match="2 cases with p exactly 0 or 1"):
        slope = ev["calibration_slope"]
    assert slope == pytest.approx(VALPROB["Slope"], abs=1e-6)


# --- ECE against scikit-learn's calibration_curve ---------------------------------------
def _ece_reference(y, p, n_bins, strategy, norm="l1"):
    """ECE from sklearn's calibration_curve, the bin counts recomputed as it assigns them."""
    from sklearn.calibration import calibration_curve

    prob_true, prob_pred = calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    if strategy == "quantile":
        edges = np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100)
    else:
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    counts = np.bincount(np.searchsorted(edges[1:-1], p), minlength=n_bins)
    share = counts[counts > 0] / len(p)
    gap = np.abs(prob_true - prob_pred)
    return {"l1": share @ gap, "l2": np.sqrt(share @ gap**2), "max": gap.max()}[norm]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("n_bins", [1, 5, 10, 15])
def test_ece_agrees_with_calibration_curve(seed: int, strategy: str, n_bins: int,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from binmetrics.table import counts

    if seed % 2:  # the bins' runs summed over several chunks
        monkeypatch.setattr(counts, "CHUNK", 7)
    rng = np.random.default_rng(seed)
    n = 300
    p = np.round(rng.beta(2, 3, n), 1 + seed % 2)  # ties, and points on the bin edges
    y = (rng.uniform(size=n) < p ** 1.2).astype(int)
    ev = bm.evaluate(y, p)
    for norm in ("l1", "l2", "max"):
        got = ev.value("ece", n_bins=n_bins, strategy=strategy, norm=norm)
        assert got == pytest.approx(_ece_reference(y, p, n_bins, strategy, norm),
                                    abs=1e-12), norm
    assert ev.value("mce", n_bins=n_bins, strategy=strategy) == ev.value(
        "ece", n_bins=n_bins, strategy=strategy, norm="max")


def test_quantile_edges_are_numpys_percentiles() -> None:
    from binmetrics.measures.calibration import weighted_percentile

    rng = np.random.default_rng(3)
    for n in (1, 2, 7, 100, 1001):
        p = np.round(rng.uniform(size=n), 2)
        t = bm.CountTable.from_arrays(np.ones(n, int) * (rng.uniform(size=n) < .5), p)
        for k in (1, 3, 10, 17):
            q = np.linspace(0, 1, k + 1) * 100
            assert np.array_equal(weighted_percentile(t, q), np.percentile(p, q))


def test_ece_of_calibrated_probabilities_shrinks_with_n() -> None:
    rng = np.random.default_rng(0)
    values = []
    for n in (1_000, 10_000, 100_000, 1_000_000):
        p = rng.uniform(size=n)
        y = rng.uniform(size=n) < p
        values.append(bm.evaluate(y, p)["ece"])
    assert values == sorted(values, reverse=True)
    assert values[-1] < 0.005


# --- net benefit against dcurves, H-measure against hmeasure ----------------------------
@pytest.mark.parametrize("seed", range(3))
def test_net_benefit_agrees_with_dcurves(seed: int) -> None:
    dcurves = pytest.importorskip("dcurves")
    rng = np.random.default_rng(seed)
    n = 400
    p = np.round(rng.beta(1, 3, n), 2)  # ties, and scores equal to the thresholds
    y = (rng.uniform(size=n) < p).astype(int)
    thresholds = np.arange(0.01, 1, 0.01)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = dcurves.dca(data=pd.DataFrame({"y": y, "p": p}), outcome="y",
                          modelnames=["p"], thresholds=thresholds)
    ev = bm.evaluate(y, p)
    model = ref[ref.model == "p"]
    for thr, nb in zip(model.threshold, model.net_benefit, strict=True):
        assert ev.value("net_benefit", threshold=thr) == pytest.approx(nb, abs=1e-9), thr
    # treat all: the net benefit of p = 1 for everyone
    with pytest.warns(bm.BinmetricsWarning, match=r"threshold 0\.5 \(the default\) is outside"):
        treat_all = bm.evaluate(y, np.ones(n))
    every = ref[ref.model == "all"]
    for thr, nb in zip(every.threshold, every.net_benefit, strict=True):
        assert treat_all.value("net_benefit", threshold=thr) == pytest.approx(nb, abs=1e-9)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("severity_ratio", [None, 0.5, 2.0, 0.1])
def test_h_measure_agrees_with_hmeasure(seed: int, severity_ratio: float | None) -> None:
    hmeasure = pytest.importorskip("hmeasure")
    rng = np.random.default_rng(seed)
    n = 200 + 100 * seed
    y = (rng.uniform(size=n) < 0.3 + 0.1 * seed).astype(int)
    s = np.round(1 / (1 + np.exp(-rng.normal(size=n) - 1.2 * y)), 2)  # ties (hmeasure
    # wants scores in [0, 1])
    got = bm.evaluate(y, s).value("h_measure", severity_ratio=severity_ratio)
    assert got == pytest.approx(hmeasure.h_score(y, s, severity_ratio=severity_ratio),
                                abs=1e-6)


def test_h_measure_of_a_perfect_and_a_useless_ranking() -> None:
    assert bm.evaluate([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9])["h_measure"] == pytest.approx(1.0)
    assert bm.evaluate([0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5])["h_measure"] == pytest.approx(0.0)


def test_expected_cost_and_its_best_threshold() -> None:
    y = np.array([1, 0, 1, 0, 0, 1, 0, 0])
    p = np.array([.9, .8, .7, .6, .4, .3, .2, .1])
    ev = bm.evaluate(y, p)
    c = ev.confusion
    assert ev.value("expected_cost", cost_fp=1, cost_fn=5) == pytest.approx(
        (c.fp + 5 * c.fn) / 8)
    assert ev["expected_cost"] == pytest.approx(1 - ev["accuracy"])
    best = ev.best_threshold("expected_cost", cost_fp=1, cost_fn=5)
    cuts = {th: (sum((p >= th) & (y == 0)) + 5 * sum((p < th) & (y == 1))) / 8
            for th in [*p, np.inf]}
    assert best.value == pytest.approx(min(cuts.values()))
    assert cuts[best.threshold] == pytest.approx(best.value)


def test_brier_skill_and_spiegelhalter_by_hand() -> None:
    y, p = Y_R, P_R
    pi = y.mean()
    ev = bm.evaluate(y, p)
    assert ev["brier_skill"] == pytest.approx(1 - np.mean((y - p) ** 2) / (pi * (1 - pi)))
    z = np.sum((y - p) * (1 - 2 * p)) / np.sqrt(np.sum((1 - 2 * p) ** 2 * p * (1 - p)))
    assert ev["spiegelhalter_z"] == pytest.approx(z, rel=1e-12)


# --- bad input, undefined values ----------------------------------------------------------
def test_scores_outside_0_1_are_an_error() -> None:
    ev = bm.evaluate([0, 1, 1], [-0.5, 0.3, 1.7])
    for m in ("ece", "calibration_slope", "spiegelhalter_z", "brier_skill", "net_benefit"):
        with pytest.raises(ValueError, match=f"{m} needs probabilities in \\[0, 1\\]"):
            ev.value(m)
    assert not np.isnan(ev["h_measure"])  # a ranking measure: any scores


def test_undefined_values_warn_and_name_the_measure() -> None:
    one_class = bm.evaluate([1, 1, 1], [0.2, 0.5, 0.9])
    for m in ("calibration_slope", "calibration_in_the_large", "brier_skill", "h_measure"):
        with pytest.warns(UndefinedMeasureWarning, match=m):
            assert np.isnan(one_class[m])
    ev = bm.evaluate(Y_R, P_R)
    for thr in (0.0, 1.0):
        with pytest.warns(UndefinedMeasureWarning, match="net_benefit is undefined"):
            assert np.isnan(ev.value("net_benefit", threshold=thr))
    with pytest.raises(ValueError, match="n_bins must be an integer >= 1"):
        ev.value("ece", n_bins=0)
    with pytest.raises(ValueError, match="strategy must be one of"):
        ev.value("ece", strategy="kmeans")
    separated = bm.evaluate([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9])
    with pytest.warns(UndefinedMeasureWarning, match="perfectly separated"):
        assert np.isnan(separated["calibration_slope"])
    # one distinct p inside (0, 1) (the cases at 0 left out): no slope to fit, and the
    # warning says so rather than calling it separation; the intercept with the slope
    # fixed at 1 is still defined (glm(y ~ offset(qlogis(p))): qlogis(3/5) - qlogis(0.3))
    one_score = bm.evaluate([0, 1, 1, 0, 1, 0], [0.3, 0.3, 0.3, 0.3, 0.3, 0.0],
                            threshold=0.3)
    for m in ("calibration_slope", "calibration_intercept"):
        with pytest.warns(UndefinedMeasureWarning, match=f"{m} is undefined: the logistic "
                          "calibration fit's slope is not identifiable: every case with "
                          "0 < p < 1 has the same p"), \
                pytest.warns(MeasureCaveatWarning, match="p exactly 0 or 1"):
            assert np.isnan(one_score[m])
    with pytest.warns(MeasureCaveatWarning, match="p exactly 0 or 1"):
        citl = one_score["calibration_in_the_large"]
    assert citl == pytest.approx(np.log(1.5) - np.log(0.3 / 0.7), rel=1e-9)
    # weighted, and with a second p inside (0, 1) that holds no weight: Newton's matrix
    # is singular only to rounding, and the fit used to stop at an arbitrary point of
    # the line of equal likelihood (slope 0.43 or 1.54 by the order of the sums)
    y = [0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 1]
    s = [0.0] * 9 + [0.1, 0.1, 0.0, 0.1, 0.1, 0.0, 0.7]
    w = [1.0] * 10 + [13.239197241020339, 1.0, 3.1, 11.05824377669438, 1.0, 0.0]
    weighted = bm.evaluate(y, s, sample_weight=w, threshold=0.1)
    for m in ("calibration_slope", "calibration_intercept"):
        with pytest.warns(UndefinedMeasureWarning, match="slope is not identifiable"), \
                pytest.warns(MeasureCaveatWarning, match="p exactly 0 or 1"):
            assert np.isnan(weighted[m])
    with pytest.warns(UndefinedMeasureWarning, match="variance"):
        assert np.isnan(bm.evaluate([0, 1], [0.5, 0.5])["spiegelhalter_z"])


@pytest.mark.parametrize("binning", [{"decimals": 2}, {"bins": 7}])
@pytest.mark.parametrize("weighted", [False, True])
def test_binned_scores_keep_the_exact_sums_and_refuse_the_rest(binning: dict[str, int],
                                                               weighted: bool) -> None:
    """Spiegelhalter's z and the Brier skill score read sums the engines take over the
    raw scores: exact. ECE and MCE need each calibration bin's sum of p (and the cases
    on its edges), the fits and the lowess family each case's p: NaN with one warning
    that says so; the reliability diagram and the decomposition: an error."""
    from binmetrics.engines import binned_table

    rng = np.random.default_rng(5)
    n = 2000
    p = np.round(rng.uniform(size=n), 3)
    y = rng.uniform(size=n) < p
    w = rng.integers(1, 4, n) * 0.5 if weighted else None
    exact = bm.evaluate(y, p, sample_weight=w)
    binned = bm.Evaluation(binned_table(y, p, sample_weight=w, threshold=0.5, **binning))
    for m in ("spiegelhalter_z", "brier_skill"):
        assert binned[m] == pytest.approx(exact[m], rel=1e-12), m
    why = "needs each case's raw probability"  # one reason: one warning names them all
    for m in ("ece", "mce", "calibration_slope", "calibration_in_the_large", "ici"):
        with pytest.warns(UndefinedMeasureWarning, match=why) as rec:
            assert np.isnan(binned[m])
        assert len([r for r in rec if issubclass(r.category, UndefinedMeasureWarning)]) == 1
    fresh = bm.Evaluation(binned_table(y, p, sample_weight=w, threshold=0.5, **binning))
    with pytest.warns(UndefinedMeasureWarning, match="ece, mce, .*emax are undefined: "
                                                     "binned scores: needs each case's raw"):
        assert np.isnan(fresh.to_dict()["ece"])
    for make in (binned.reliability, binned.brier_decomposition, binned.calibration_test):
        with pytest.raises(ValueError, match="needs each case's predicted probability"):
            make()
    sp, raw_sp = binned.calibration_test("spiegelhalter"), exact.calibration_test("spiegelhalter")
    assert (sp.statistic, sp.pvalue) == pytest.approx((raw_sp.statistic, raw_sp.pvalue),
                                                      rel=1e-12)


def test_binned_net_benefit_and_decision_curve() -> None:
    """Net benefit reads the confusion matrix at its threshold: exact on the bin grid;
    inside an occupied bin a warning (a value), and NaN on a decision curve (one
    warning for the curve). Expected cost at the evaluation's threshold, which the
    engines make a bin edge, is exact."""
    from binmetrics.engines import binned_table

    rng = np.random.default_rng(8)
    n = 2000
    p = rng.uniform(size=n)
    y = rng.uniform(size=n) < p
    exact = bm.evaluate(y, p, threshold=0.37)
    binned = bm.Evaluation(binned_table(y, p, decimals=2, threshold=0.37), threshold=0.37)
    for thr in (0.05, 0.2, 0.37, 0.5, 0.83):
        assert binned.value("net_benefit", threshold=thr) == pytest.approx(
            exact.value("net_benefit", threshold=thr), abs=1e-15), thr
    assert binned.value("expected_cost", cost_fp=1, cost_fn=5) == pytest.approx(
        exact.value("expected_cost", cost_fp=1, cost_fn=5), abs=1e-15)
    with pytest.warns(UserWarning, match="cuts the bin"):
        binned.value("net_benefit", threshold=0.205)
    # default thresholds k/100 lie on the decimals=2 grid: the whole curve is exact
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        dc = binned.decision_curve()
    (got,) = dc.net_benefit.values()
    (want,) = exact.decision_curve().net_benefit.values()
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-15)
    coarse = bm.Evaluation(binned_table(y, p, decimals=1))
    with pytest.warns(UndefinedMeasureWarning, match="90 of 99 thresholds") as rec:
        dc = coarse.decision_curve()
    assert len(rec) == 1
    (nb,) = dc.net_benefit.values()
    on_grid = np.isclose(dc.thresholds * 10, np.round(dc.thresholds * 10))
    assert np.isnan(nb[~on_grid]).all() and not np.isnan(nb[on_grid]).any()
    np.testing.assert_allclose(nb[on_grid], want[on_grid], rtol=0, atol=1e-15)


def test_duckdb_engine_on_binned_scores(tmp_path) -> None:
    """evaluate_file(decimals=/bins=): net benefit on the bin grid, the expected cost at
    the threshold (an edge), Spiegelhalter's z and the Brier skill score as on the raw
    scores; ECE NaN with its warning."""
    pytest.importorskip("duckdb")
    from binmetrics.engines import evaluate_file

    rng = np.random.default_rng(13)
    n = 5000
    p = np.round(rng.beta(1.2, 2.5, n), 3)
    y = (rng.uniform(size=n) < p).astype(int)
    w = rng.integers(1, 5, n).astype(float)
    path = tmp_path / "cal.parquet"
    pd.DataFrame({"y": y, "p": p, "w": w}).to_parquet(path)
    raw = bm.evaluate(y, p, sample_weight=w, threshold=0.3)
    for kw in ({"decimals": 1}, {"bins": 13}):
        ev = evaluate_file(path, label="y", score="p", weight="w", threshold=0.3, **kw)
        assert ev.table.binning is not None
        for m in ("brier_skill", "spiegelhalter_z"):
            assert ev[m] == pytest.approx(raw[m], rel=1e-12), (kw, m)
        assert ev.value("expected_cost", cost_fp=1, cost_fn=4) == pytest.approx(
            raw.value("expected_cost", cost_fp=1, cost_fn=4), rel=1e-12)
        assert ev.value("net_benefit", threshold=0.3) == pytest.approx(
            raw.value("net_benefit", threshold=0.3), rel=1e-12)
        with pytest.warns(UndefinedMeasureWarning, match="needs each case's raw probability"):
            assert np.isnan(ev["ece"])
    ev = evaluate_file(path, label="y", score="p", weight="w", decimals=1)
    for thr in (0.1, 0.2, 0.7):
        assert ev.value("net_benefit", threshold=thr) == pytest.approx(
            raw.value("net_benefit", threshold=thr), rel=1e-12)


# --- the result objects -----------------------------------------------------------------
# ResourceSelection 0.3-6's hoslem.test (binary branch), run in R 4.2 on p, y, w above:
#   qq <- unique(quantile(yhat, probs = seq(0, 1, 1/g)))
#   cutyhat <- cut(yhat, breaks = qq, include.lowest = TRUE)
#   observed <- xtabs(cbind(y0 = 1 - y, y1 = y) ~ cutyhat)
#   expected <- xtabs(cbind(yhat0 = 1 - yhat, yhat1 = yhat) ~ cutyhat)
#   chisq <- sum((observed - expected)^2/expected); G <- length(unique(cutyhat))
#   c(chisq, G - 2, 1 - pchisq(chisq, G - 2))
# for hoslem.test(y, p, 10), hoslem.test(y, p, 5), hoslem.test(rep(y, w), rep(p, w), 10)
HOSLEM = [(False, 10, 11.687062704261345, 8, 0.165721973474206),
          (False, 5, 3.445134708218382, 3, 0.327947990264392),
          (True, 10, 9.981289743940891, 8, 0.266341588885495)]


@pytest.mark.parametrize(("weighted", "g", "chi2", "df", "pvalue"), HOSLEM)
def test_hosmer_lemeshow_agrees_with_resourceselection(weighted, g, chi2, df, pvalue) -> None:
    ev = bm.evaluate(Y_R, P_R, sample_weight=W_R if weighted else None)
    r = ev.calibration_test("hosmer_lemeshow", n_groups=g)
    assert r.statistic == pytest.approx(chi2, abs=1e-9)
    assert r.df == df and r.n_groups == df + 2
    assert r.pvalue == pytest.approx(pvalue, abs=1e-9)
    assert r.groups["n"].sum() == pytest.approx(ev.table.total)
    assert "hosmer_lemeshow" in repr(r) and len(r.to_frame()) == 1


def test_hosmer_lemeshow_with_too_few_groups_says_how_many_formed() -> None:
    ev = bm.evaluate([0, 1, 0, 1, 1, 0], [0.2, 0.2, 0.2, 0.8, 0.8, 0.8])
    with pytest.warns(UndefinedMeasureWarning, match="only 2 groups formed"):
        r = ev.calibration_test("hosmer_lemeshow")
    assert np.isnan(r.pvalue)


def test_spiegelhalter_test_is_val_probs() -> None:
    r = bm.evaluate(Y_R, P_R).calibration_test("spiegelhalter")
    assert r.statistic == pytest.approx(VALPROB["S:z"], abs=1e-9)
    assert r.pvalue == pytest.approx(0.7674550361973920, abs=1e-9)  # val.prob's S:p


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("weighted", [False, True])
def test_murphy_decomposition_sums_to_the_brier_score(strategy: str, weighted: bool) -> None:
    ev = bm.evaluate(Y_R, P_R, sample_weight=W_R if weighted else None)
    for n_bins in (1, 3, 10, 40):
        d = ev.brier_decomposition(n_bins=n_bins, strategy=strategy)
        assert d.total == pytest.approx(ev["brier"], abs=1e-14)
        o = np.average(Y_R, weights=W_R if weighted else None)
        assert d.uncertainty == pytest.approx(o * (1 - o))
        assert d.reliability >= 0 and d.resolution >= 0 and d.within_bin_variance >= 0
    # one value per bin: the within-bin terms vanish and REL - RES + UNC is the Brier score
    y, p = np.array([0, 1, 1, 0, 1, 1]), np.array([.1, .1, .5, .5, .9, .9])
    d = bm.evaluate(y, p).brier_decomposition(n_bins=10)
    assert d.within_bin_variance == pytest.approx(0) and d.within_bin_covariance == 0
    assert d.reliability - d.resolution + d.uncertainty == pytest.approx(np.mean((y - p) ** 2))
    assert list(d.to_frame().term)[-1] == "brier"


def test_reliability_agrees_with_calibration_curve() -> None:
    from sklearn.calibration import calibration_curve

    rng = np.random.default_rng(8)
    p = np.round(rng.uniform(size=500), 2)
    y = (rng.uniform(size=500) < p).astype(int)
    ev = bm.evaluate(y, p)
    for strategy in ("uniform", "quantile"):
        r = ev.reliability(n_bins=8, strategy=strategy)
        true, pred = calibration_curve(y, p, n_bins=8, strategy=strategy)
        assert np.allclose(r.fraction_positive, true, rtol=0, atol=1e-14)
        assert np.allclose(r.mean_predicted, pred, rtol=0, atol=1e-14)
        assert r.ece == pytest.approx(ev.value("ece", n_bins=8, strategy=strategy))
        assert np.all((r.ci_low <= r.fraction_positive) & (r.fraction_positive <= r.ci_high))
    frame = r.to_frame()
    assert list(frame.columns) == ["low", "high", "mean_predicted", "fraction_positive", "weight",
                                   "ci_low", "ci_high"]
    assert frame.equals(bm.plot.reliability_table(ev, n_bins=8, strategy="quantile")
                        .join(frame[["ci_low", "ci_high"]]))
    # Wilson interval of 3 successes in 10 trials, 95%: statsmodels'
    # proportion_confint(3, 10, method="wilson")
    lo, hi = bm.evaluate([1] * 3 + [0] * 7, [0.5] * 10).reliability().to_frame().iloc[0][
        ["ci_low", "ci_high"]]
    assert (lo, hi) == pytest.approx((0.10779126740630, 0.60322185253885), abs=1e-9)


def test_decision_curve_agrees_with_dcurves() -> None:
    dcurves = pytest.importorskip("dcurves")
    rng = np.random.default_rng(11)
    n = 500
    a = np.round(rng.beta(1, 3, n), 2)
    y = (rng.uniform(size=n) < a).astype(int)
    b = np.round(np.clip(a + rng.normal(0, .15, n), 0, 1), 2)
    th = np.arange(0.01, 1, 0.01)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = dcurves.dca(data=pd.DataFrame({"y": y, "a": a, "b": b}), outcome="y",
                          modelnames=["a", "b"], thresholds=th)
    dc = bm.evaluate(y, a).decision_curve(th, name="a", others={"b": bm.evaluate(y, b)})
    got = dc.to_frame()
    for model in ("a", "b"):
        mine = got[got.model == model]
        theirs = ref[ref.model == model]
        assert np.allclose(mine.net_benefit, theirs.net_benefit, rtol=0, atol=1e-9)
        assert np.allclose(mine.interventions_avoided / 100,
                           theirs.net_intervention_avoided, rtol=0, atol=1e-9)
    assert np.allclose(dc.treat_all, ref[ref.model == "all"].net_benefit, rtol=0, atol=1e-9)
    assert np.allclose(got.standardized_net_benefit, got.net_benefit / y.mean())
    assert "DecisionCurve(models=['a', 'b']" in repr(dc)
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        bm.evaluate(y, a).decision_curve([0.0, 0.5])


def test_cost_curve_is_the_lower_envelope() -> None:
    rng = np.random.default_rng(2)
    y = rng.uniform(size=300) < 0.4
    s = np.round(rng.normal(size=300) + y, 1)
    ev = bm.evaluate(y, s)
    cc = ev.cost_curve()
    cuts = ev.table.cuts()
    fpr, tpr = cuts.fp / ev.table.N, cuts.tp / ev.table.P
    grid = np.linspace(0, 1, 20001)
    env = np.min((1 - tpr)[:, None] * grid + fpr[:, None] * (1 - grid), axis=0)
    assert np.allclose(np.interp(grid, cc.pc, cc.cost), env, atol=1e-12)
    assert cc.area == pytest.approx(np.trapezoid(env, grid), abs=1e-7)
    assert len(cc.to_frame()) == cc.pc.size and "area=" in repr(cc)


def test_result_objects_plot() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ev = bm.evaluate(Y_R, P_R)
    for obj in (ev.reliability(), ev.calibration_test(), ev.calibration_test("spiegelhalter"),
                ev.brier_decomposition(), ev.decision_curve(), ev.cost_curve()):
        ax = obj.plot()
        assert ax.get_title()
        plt.close("all")


# --- the lowess family against rms::val.prob ----------------------------------------------
@pytest.mark.parametrize("weighted", [False, True])
def test_lowess_family_agrees_with_val_prob(weighted: bool) -> None:
    ref = VALPROB_W if weighted else VALPROB
    ev = bm.evaluate(Y_R, P_R, sample_weight=W_R if weighted else None)
    assert ev["ici"] == pytest.approx(ref["Eavg"], abs=1e-9)
    assert ev["e90"] == pytest.approx(ref["E90"], abs=1e-9)
    assert ev["emax"] == pytest.approx(ref["Emax"], abs=1e-9)


# R: o <- order(p, y) (ties: negatives first, as binmetrics takes them); Sm <- lowess(p[o],
# y[o], iter = 0); cs <- approx(Sm, xout = p[o], ties = mean)$y; e <- abs(p[o] - cs)
# c(mean(e), quantile(e, 0.9), max(e), median(e)) on the data of this test, written to a
# csv with np.savetxt(fmt=["%.2f", "%d"]) (3000 rows, p with two decimals: heavy ties)
LOWESS_TIES = (0.0684163274177045, 0.0886524734666890, 0.0897033954062508,
               0.0745232114278752)


def test_lowess_family_with_heavy_ties() -> None:
    rng = np.random.default_rng(21)
    n = 3000
    p = np.round(rng.beta(2, 5, n), 2)
    y = (rng.uniform(size=n) < p ** 0.8).astype(int)
    ev = bm.evaluate(y, p)
    got = (ev["ici"], ev["e90"], ev["emax"], ev["e50"])
    assert got == pytest.approx(LOWESS_TIES, abs=1e-9)


def test_lowess_family_refuses_beyond_its_size_and_fractional_weights() -> None:
    ev = bm.evaluate(Y_R, P_R)
    with pytest.warns(UndefinedMeasureWarning, match="max_rows=50"):
        assert np.isnan(ev.value("ici", max_rows=50))
    assert ev.value("ici", max_rows=None) == pytest.approx(VALPROB["Eavg"], abs=1e-9)
    with pytest.warns(UndefinedMeasureWarning, match="integer weights"):
        assert np.isnan(bm.evaluate(Y_R, P_R, sample_weight=W_R / 3)["e90"])


# --- multiclass ECE -------------------------------------------------------------------------
def test_multiclass_ece_top_label_and_classwise() -> None:
    rng = np.random.default_rng(0)
    n = 1500
    z = rng.normal(size=(n, 3))
    p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    y = (p.cumsum(axis=1) < rng.uniform(size=(n, 1))).sum(axis=1)  # y drawn from p
    mev = bm.evaluate(y, p)
    top = p.argmax(axis=1)
    conf = p.max(axis=1)
    for strategy in ("uniform", "quantile"):
        want = _ece_reference((top == y).astype(int), conf, 10, strategy)
        assert mev.value("ece", strategy=strategy) == pytest.approx(want, abs=1e-12)
        classwise = np.mean([_ece_reference((y == k).astype(int), p[:, k], 10, strategy)
                             for k in range(3)])
        assert mev.value("ece", strategy=strategy, kind="classwise") == pytest.approx(
            classwise, abs=1e-12)
    assert mev.value("mce", kind="classwise") == pytest.approx(np.mean(
        [_ece_reference((y == k).astype(int), p[:, k], 10, "uniform", "max")
         for k in range(3)]), abs=1e-12)
    with pytest.raises(ValueError, match="kind must be"):
        mev.value("ece", kind="toplabel")


def test_compare_decision_curve_agrees_with_dcurves() -> None:
    """bm.compare(...).decision_curve(): every model on one curve, as dcurves.dca with
    all of them; rows dropped by nan_policy="omit" are dropped for every model."""
    dcurves = pytest.importorskip("dcurves")
    rng = np.random.default_rng(5)
    n = 600
    a = np.round(rng.beta(1, 3, n), 2)  # ties, and scores equal to the thresholds
    y = (rng.uniform(size=n) < a).astype(int)
    b = np.round(np.clip(a + rng.normal(0, .15, n), 0, 1), 2)
    c = np.round(rng.uniform(size=n), 1)
    c[[3, 70, 400]] = np.nan
    keep = ~np.isnan(c)
    th = np.arange(0.02, 0.96, 0.03)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = dcurves.dca(data=pd.DataFrame({"y": y, "a": a, "b": b, "c": c})[keep],
                          outcome="y", modelnames=["a", "b", "c"], thresholds=th)
        cmp = bm.compare(y, {"a": a, "b": b, "c": c}, nan_policy="omit")
    dc = cmp.decision_curve(th)
    got = dc.to_frame()
    assert list(dc.net_benefit) == ["a", "b", "c"]
    for model in ("a", "b", "c"):
        mine, theirs = got[got.model == model], ref[ref.model == model]
        assert np.allclose(mine.threshold, theirs.threshold, rtol=0, atol=1e-12)
        assert np.allclose(mine.net_benefit, theirs.net_benefit, rtol=0, atol=1e-9), model
    assert np.allclose(dc.treat_all, ref[ref.model == "all"].net_benefit, rtol=0, atol=1e-9)
    assert dc.prevalence == pytest.approx(y[keep].mean())
    # the same curve as the evaluation-level one built from the kept rows
    one = bm.evaluate(y[keep], a[keep]).decision_curve(
        th, name="a", others={"b": bm.evaluate(y[keep], b[keep]),
                              "c": bm.evaluate(y[keep], c[keep])})
    assert got.equals(one.to_frame())
    # default thresholds 0.01 ... 0.99, and bad thresholds refused as for one model
    assert cmp.decision_curve().thresholds.size == 99
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        cmp.decision_curve([0.5, 1.0])
    with pytest.raises(ValueError, match="probabilities"):
        bm.compare(y, {"a": a, "z": 3 * a - 1}).decision_curve()


def test_docs_page_examples_run() -> None:
    """The examples of docs/howto/probability-calibration.md give the numbers they show
    (its python blocks set up the data, its pycon blocks are run as doctests)."""
    import doctest
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "howto"
            / "probability-calibration.md").read_text(encoding="utf-8")
    env: dict[str, object] = {}
    for code in re.findall(r"```python\n(.*?)```", page, flags=re.S):
        exec(code, env)  # the page's own set-up code
    blocks = re.findall(r"```pycon\n(.*?)```", page, flags=re.S)
    assert len(blocks) >= 3
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(verbose=False, optionflags=doctest.NORMALIZE_WHITESPACE)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i, block in enumerate(blocks):
            runner.run(parser.get_doctest(block, env, f"calibration.md[{i}]", "md", 0))
    assert runner.summarize(verbose=False).failed == 0
