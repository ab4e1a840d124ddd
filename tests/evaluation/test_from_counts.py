"""Counts-only use: bm.from_counts, bm.predictive_values, ev.interpret and the log
intervals of LR+, LR- and the DOR."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import stats

import binmetrics as bm
from binmetrics.measures.interpretation import SCALES, interpret

pycm = pytest.importorskip("pycm")


def test_from_counts_equals_the_evaluation_of_the_rows() -> None:
    ev = bm.from_counts(tp=30, fp=10, fn=5, tn=55)
    y = [1] * 30 + [0] * 10 + [1] * 5 + [0] * 55
    s = [1.0] * 40 + [0.0] * 60
    ref = bm.evaluate(y, s)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a, b = ev.to_dict("confusion"), ref.to_dict("confusion")
    assert a.keys() == b.keys()
    np.testing.assert_allclose(list(a.values()), list(b.values()), rtol=1e-15)
    assert ev.ci("sensitivity") == ref.ci("sensitivity")


@pytest.mark.parametrize(("mid", "plus", "minus"), [
    ("lr_plus", ("tp", "fp"), ("p", "n")), ("lr_minus", ("fn", "tn"), ("p", "n")),
    ("dor", ("tp", "fp", "fn", "tn"), ())])
def test_log_intervals(mid: str, plus: tuple[str, ...], minus: tuple[str, ...]) -> None:
    rng = np.random.default_rng(0)
    for _ in range(50):
        tp, fp, fn, tn = (int(x) for x in rng.integers(1, 100, 4))
        ev = bm.from_counts(tp=tp, fp=fp, fn=fn, tn=tn)
        cells = {"tp": tp, "fp": fp, "fn": fn, "tn": tn, "p": tp + fn, "n": fp + tn}
        se = math.sqrt(sum(1 / cells[k] for k in plus) - sum(1 / cells[k] for k in minus))
        z = stats.norm.ppf(0.975)
        ci = ev.ci(mid)
        assert ci.method == "log"
        assert ci.low == pytest.approx(ev[mid] * math.exp(-z * se), rel=1e-12)
        assert ci.high == pytest.approx(ev[mid] * math.exp(z * se), rel=1e-12)


def test_log_interval_with_an_empty_cell_warns() -> None:
    ev = bm.from_counts(tp=30, fp=0, fn=5, tn=55)
    with pytest.warns(bm.UndefinedMeasureWarning, match="bootstrap"):
        ci = ev.ci("lr_plus")
    assert math.isnan(ci.low) and math.isnan(ci.high)


@pytest.mark.parametrize("bad", [-1, 2.5, float("nan"), "x"])
def test_from_counts_rejects_bad_counts(bad: object) -> None:
    with pytest.raises((ValueError, TypeError)):
        bm.from_counts(tp=bad, fp=1, fn=1, tn=1)  # type: ignore[arg-type]


def test_from_counts_weighted_and_empty() -> None:
    ev = bm.from_counts(tp=2.5, fp=1, fn=0.5, tn=3, weighted=True)
    assert ev["tpr"] == pytest.approx(2.5 / 3)
    with pytest.raises(ValueError, match="all 0"):
        bm.from_counts(tp=0, fp=0, fn=0, tn=0)


def test_predictive_values_by_bayes() -> None:
    pv = bm.predictive_values(sensitivity=0.99, specificity=0.99, prevalence=0.05)
    assert pv.ppv == pytest.approx(0.99 * 0.05 / (0.99 * 0.05 + 0.01 * 0.95), rel=1e-14)
    assert pv.npv == pytest.approx(0.99 * 0.95 / (0.99 * 0.95 + 0.01 * 0.05), rel=1e-14)
    assert pv["precision"] == pv.ppv and pv["lr+"] == pytest.approx(99.0)
    assert pv["fdr"] == pytest.approx(1 - pv.ppv) and pv["prevalence"] == pytest.approx(0.05)
    assert "chi_square" not in pv and "krippendorff_alpha" not in pv  # depend on n
    assert "PredictiveValues(" in repr(pv)
    frame = pv.to_frame()
    assert frame.set_index("id").loc["npv", "value"] == pv.npv
    with pytest.raises(ValueError):
        bm.predictive_values(sensitivity=1.2, specificity=0.9, prevalence=0.1)


def test_interpret_matches_pycm_scales() -> None:
    from pycm import interpret as pi

    fns = {("kappa", "landis_koch"): pi.kappa_analysis_koch,
           ("kappa", "fleiss"): pi.kappa_analysis_fleiss,
           ("kappa", "altman"): pi.kappa_analysis_altman,
           ("kappa", "cicchetti"): pi.kappa_analysis_cicchetti,
           ("cramer_v", None): pi.V_analysis, ("mcc", None): pi.MCC_analysis,
           ("yule_q", None): pi.Q_analysis, ("lr_plus", None): pi.PLR_analysis,
           ("lr_minus", None): pi.NLR_analysis, ("auc", None): pi.AUC_analysis,
           ("krippendorff_alpha", None): pi.alpha_analysis}
    grid = np.round(np.arange(-0.2, 12.0, 0.005), 3)
    for (mid, scale), fn in fns.items():
        for v in grid:
            want = fn(float(v))
            if want == "None":  # PyCM: outside the scale (kappa > 1)
                continue
            got = interpret(mid, float(v), scale)
            assert got.split(" (")[0] == want.lower(), (mid, scale, v)
    assert set(SCALES) == {m for m, _ in fns}


def test_ev_interpret() -> None:
    ev = bm.from_counts(tp=30, fp=10, fn=5, tn=55)
    k = ev["kappa"]
    assert 0.6 <= k < 0.8 and ev.interpret("kappa") == "substantial (Landis & Koch)"
    assert ev.interpret("cohen_kappa", scale="fleiss") == "intermediate to good (Fleiss)"
    with pytest.raises(ValueError, match="no benchmark scale"):
        ev.interpret("accuracy")
    with pytest.raises(ValueError, match="its scales"):
        ev.interpret("kappa", scale="nope")
