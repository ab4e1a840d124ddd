"""Prior-calibrated measures (Siblini et al.; docs/methods.md §4): the worked numbers
of that section, and the invariances the paper claims."""

from __future__ import annotations

import contextlib
import warnings

import numpy as np
import pytest

import binmetrics as bm

# docs/methods.md §4, "Ties": pi = 0.4
Y = np.array([1, 1, 0, 1, 0, 0, 1, 0, 0, 0])
S = np.array([.9, .8, .8, .7, .7, .5, .4, .3, .3, .1])

#: the warning of the default threshold 0.5 outside the scores (issue 33)
DEFAULT_CUT = r"threshold 0.5 \(the default\) is outside"


@pytest.mark.parametrize(("pi0", "prgc", "exact"), [(0.5, 0.5462962963, None),
                                                    (0.2, 0.8032407407, None),
                                                    (0.3, 0.6388888889, 0.6785714286)])
def test_calibrated_prg_of_the_spec(pi0, prgc, exact):
    cal = bm.evaluate(Y, S, pi0=pi0)
    assert cal.value("auprg", compat="prgc") == pytest.approx(prgc, abs=1e-10)
    assert cal["auprg"] == cal.value("auprg", compat="exact")  # the default
    if exact is not None:
        assert cal["auprg"] == pytest.approx(exact, abs=1e-10)


@pytest.mark.parametrize(("pi0", "ap"), [(0.5, 0.7772435897), (0.1, 0.4079545455)])
def test_calibrated_average_precision_of_the_spec(pi0, ap):
    assert bm.evaluate(Y, S, pi0=pi0)["average_precision"] == pytest.approx(ap, abs=1e-10)


def test_calibrated_f1_of_the_spec():
    assert bm.evaluate(Y, S, threshold=0.7)["f1"] == pytest.approx(2 / 3)
    assert bm.evaluate(Y, S, threshold=0.7, pi0=0.5)["f1"] == pytest.approx(0.72, abs=1e-12)
    assert bm.evaluate(Y, S, threshold=0.7, pi0=0.1)["f1"] == pytest.approx(0.3157894737,
                                                                           abs=1e-10)
    assert bm.evaluate(Y, S, pi0=0.5).best_threshold("f1").value == pytest.approx(0.8)


def test_calibrated_precision_is_eq_5():
    ev = bm.evaluate(Y, S, threshold=0.7)
    c = ev.confusion
    for pi0 in (0.05, 0.3, 0.5, 0.9):
        pi = 0.4
        k = pi * (1 - pi0) / (pi0 * (1 - pi))
        assert ev.calibrated(pi0)["precision"] == pytest.approx(c.tp / (c.tp + k * c.fp),
                                                                rel=1e-12)


def test_replicating_negatives_leaves_calibrated_values_unchanged():
    y3 = np.concatenate([Y, np.repeat(Y[Y == 0], 2)])
    s3 = np.concatenate([S, np.repeat(S[Y == 0], 2)])
    assert bm.evaluate(y3, s3)["average_precision"] == pytest.approx(0.5103, abs=1e-4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = bm.evaluate(Y, S, pi0=0.5).to_dict()
        b = bm.evaluate(y3, s3, pi0=0.5).to_dict()
    for m in ("precision", "f1", "average_precision", "auprg", "mcc", "tpr", "fpr", "auc"):
        assert b[bm.get_measure(m).id] == pytest.approx(a[bm.get_measure(m).id], rel=1e-12), m


def test_recall_fpr_auc_unchanged_and_pi0_equal_to_pi_changes_nothing():
    ev = bm.evaluate(Y, S, threshold=0.7)
    cal = ev.calibrated(0.2)
    for m in ("tpr", "fpr", "tnr", "fnr", "auc", "gini", "ks", "auch"):
        assert cal[m] == pytest.approx(ev[m], rel=1e-12), m
    same = ev.calibrated(0.4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        raw, cal_d = ev.to_dict(), same.to_dict()
    for m in bm.iter_measures():
        if m.needs_probabilities or m.family == "probabilistic":
            continue  # losses weigh cases; calibration reweights them (c = 1 here anyway)
        assert cal_d[m.id] == pytest.approx(raw[m.id], rel=1e-9, nan_ok=True), m.id
    assert same.pi0 == 0.4 and ev.pi0 is None


def test_bad_pi0_and_double_calibration():
    with pytest.raises(ValueError, match=r"pi0 must lie in \(0.0, 1.0\)"):
        bm.evaluate(Y, S, pi0=1.0)
    with pytest.raises(ValueError, match="both classes"), \
            pytest.warns(UserWarning, match=DEFAULT_CUT):
        bm.evaluate(np.ones(4), S[:4], pi0=0.5)
    with pytest.raises(ValueError, match="calibrated already"):
        bm.evaluate(Y, S, pi0=0.5).calibrated(0.3)
    with pytest.raises(ValueError, match="compat"):
        bm.evaluate(Y, S, pi0=0.5).value("auprg", compat="reference")


# compat="prgc" against an independent transcription of the reference prgc.py, run during
# review (it re-sorts the points after each crossing it inserts, which moves crossings
# that the uncalibrated roots place outside their pair); 3999 of 4000 random data sets
# agreed there. Values below are that transcription's output.
PRGC_CASES = [
    ([1, 0, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0],
     [.38, .28, .97, .06, .41, .17, .24, .78, .2, .55, .37, .51, .33],
     {0.05: 0.9619344413665742, 0.3: 0.6954081632653062, 0.8: 0.1309523809523811}),
    ([1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1],
     [.52, .01, .42, .88, .09, .48, .48, .78, .96, .71, .27, .67, .35, .77, .68],
     {0.05: 0.46418489833606574, 0.8: 0.2806122448979593}),
    ([1, 1, 1, 0, 0], [14, 5, 10, 1, 13], {0.05: 0.888389}),
]


@pytest.mark.parametrize(("y", "s", "expected"), PRGC_CASES)
def test_prgc_compat_matches_the_reference_code(y, s, expected):
    for pi0, value in expected.items():
        outside = min(s) > 0.5 or max(s) < 0.5  # the default cut 0.5 warns
        with (pytest.warns(UserWarning, match=r"\(the default\)") if outside
              else contextlib.nullcontext()):
            got = bm.evaluate(y, s, pi0=pi0).value("auprg", compat="prgc")
        assert got == pytest.approx(value, rel=1e-9, abs=1e-6 if value == 0.888389 else 1e-12)


def test_prgc_nan_is_reported():
    y = [1, 0, 1, 0, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1, 1, 0]
    s = [.21, .5, .25, .84, .18, .86, .18, .75, .61, .21, .76, .25, .09, .62, .54, .63]
    with pytest.warns(bm.UndefinedMeasureWarning, match="compat='prgc'"):
        assert np.isnan(bm.evaluate(y, s, pi0=0.3).value("auprg", compat="prgc"))
    assert np.isfinite(bm.evaluate(y, s, pi0=0.3)["auprg"])  # the exact crossings


def test_calibrated_intervals_resample_the_real_cases():
    from binmetrics.inference import resampling

    ev = bm.evaluate(Y, S, threshold=0.7)
    cal = ev.calibrated(0.5)
    c = cal.table.calibration[0]

    def calibrated_precision(t):  # written out: eq. (5) on the replicate's counts
        k = t.confusion(0.7)
        return k.tp / (k.tp + c * k.fp) if k.tp + k.fp > 0 else float("nan")

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = cal.ci("precision", n_resamples=500, random_state=4)
        exp = resampling.bootstrap(ev.table, [calibrated_precision], n_resamples=500,
                                   threshold=0.7, random_state=4)
    assert got.method == "bootstrap-percentile"
    assert (got.low, got.high) == tuple(exp.ci("calibrated_precision"))
    assert got.estimate == cal["precision"]
    table = cal.ci_table(["precision", "auc"], n_resamples=200, random_state=0)
    assert table.method.tolist() == ["bootstrap-percentile"] * 2
    with pytest.raises(ValueError, match=r"does not apply to tpr \(calibrated\)"):
        cal.ci("tpr", method="clopper-pearson")
    res = cal.permutation_test("average_precision", n_resamples=99, random_state=0)
    assert res.estimate == cal["average_precision"] and 0 < res.pvalue <= 1
