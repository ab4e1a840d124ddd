"""The measures PyCM reports (its class and overall statistics) against PyCM 4.x, on
random 2 x 2 tables and on random multiclass data with argmax ties and weights."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.table.counts import Confusion

pycm = pytest.importorskip("pycm")

#: PyCM class statistic (of the positive class) -> binmetrics id or alias
CLASS_STATS = {"GM": "gm", "AGM": "agm", "OP": "op", "OC": "oc", "OOC": "ooc", "BB": "bb",
               "AGF": "agf", "ICSI": "icsi", "Q": "q"}
#: PyCM overall statistic -> binmetrics id or alias (same value on a 2 x 2 table)
OVERALL_STATS = {"Scott PI": "scott_pi", "Gwet AC1": "ac1", "Bennett S": "bennett_s",
                 "Krippendorff Alpha": "krippendorff_alpha", "Kappa No Prevalence": "pabak",
                 "Chi-Squared": "chi_squared", "Cramer V": "cramer_v",
                 "Mutual Information": "mutual_information", "Joint Entropy": "joint_entropy",
                 "Conditional Entropy": "conditional_entropy", "Kappa": "kappa",
                 "Overall MCC": "mcc", "Overall ACC": "accuracy"}


def tables(seed: int = 0, n: int = 200) -> list[tuple[int, int, int, int]]:
    rng = np.random.default_rng(seed)
    return [tuple(int(x) for x in rng.integers(1, 80, 4)) for _ in range(n)]


def pycm_binary(tp: int, fp: int, fn: int, tn: int) -> Any:
    return pycm.ConfusionMatrix(matrix={1: {1: tp, 0: fn}, 0: {1: fp, 0: tn}})


def value(mid: str, c: Confusion, **params: Any) -> float:
    return float(bm.get_measure(mid).func(c, **params))


@pytest.mark.parametrize("stat", sorted(CLASS_STATS))
def test_class_statistics_equal_pycm(stat: str) -> None:
    for tp, fp, fn, tn in tables():
        want = pycm_binary(tp, fp, fn, tn).class_stat[stat][1]
        got = value(CLASS_STATS[stat], Confusion(tp=tp, fp=fp, fn=fn, tn=tn))
        assert got == pytest.approx(want, rel=1e-12, abs=1e-12), (stat, tp, fp, fn, tn)


@pytest.mark.parametrize("stat", sorted(OVERALL_STATS))
def test_overall_statistics_equal_pycm_on_2x2(stat: str) -> None:
    for tp, fp, fn, tn in tables(1):
        want = pycm_binary(tp, fp, fn, tn).overall_stat[stat]
        got = value(OVERALL_STATS[stat], Confusion(tp=tp, fp=fp, fn=fn, tn=tn))
        assert got == pytest.approx(want, rel=1e-12, abs=1e-12), (stat, tp, fp, fn, tn)


def test_iba_is_pycm_with_alpha_1_and_imblearn_default_alpha() -> None:
    for tp, fp, fn, tn in tables(2):
        c = Confusion(tp=tp, fp=fp, fn=fn, tn=tn)
        want = pycm_binary(tp, fp, fn, tn).class_stat["IBA"][1]
        assert value("iba", c, alpha=1) == pytest.approx(want, rel=1e-12, abs=1e-12)
        tpr, tnr = tp / (tp + fn), tn / (tn + fp)
        assert value("iba", c) == pytest.approx((1 + 0.1 * (tpr - tnr)) * tpr * tnr, rel=1e-12)


def test_discriminant_power_is_pycm_in_natural_logarithms() -> None:
    # documented difference: PyCM takes base-10 logarithms (docs/pycm.md)
    for tp, fp, fn, tn in tables(3):
        want = pycm_binary(tp, fp, fn, tn).class_stat["DP"][1] * math.log(10)
        got = value("discriminant_power", Confusion(tp=tp, fp=fp, fn=fn, tn=tn))
        assert got == pytest.approx(want, rel=1e-12, abs=1e-12)
        dor = tp * tn / (fp * fn)
        assert got == pytest.approx(math.sqrt(3) / math.pi * math.log(dor), rel=1e-12)


def test_yule_q_is_defined_where_pycm_is_not() -> None:
    c = Confusion(tp=5, fp=0, fn=3, tn=4)
    assert pycm_binary(5, 0, 3, 4).class_stat["Q"][1] == "None"
    assert value("yule_q", c) == 1.0 and value("yule_y", c) == 1.0


def test_yule_y_from_the_odds_ratio() -> None:
    for tp, fp, fn, tn in tables(4, 50):
        r = math.sqrt(tp * tn / (fp * fn))
        assert value("yule_y", Confusion(tp=tp, fp=fp, fn=fn, tn=tn)) == pytest.approx(
            (r - 1) / (r + 1), rel=1e-12, abs=1e-12)


def test_vectorised_over_thresholds_equals_pointwise() -> None:
    rng = np.random.default_rng(5)
    y, s = rng.integers(0, 2, 300), rng.integers(0, 12, 300) / 11.0
    w = rng.uniform(0.2, 3.0, 300)
    t = bm.CountTable.from_arrays(y, s, sample_weight=w)
    cuts = t.cuts()
    new = ["g_mean", "adjusted_g_mean", "iba", "discriminant_power", "optimized_precision",
           "overlap_coefficient", "braun_blanquet", "adjusted_f_score", "icsi", "yule_q",
           "yule_y", "scott_pi", "gwet_ac1", "krippendorff_alpha", "bennett_s", "chi_square",
           "cramer_v", "mutual_information", "normalized_mutual_information", "joint_entropy",
           "conditional_entropy"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", bm.UndefinedMeasureWarning)
        for mid in new:
            f = bm.get_measure(mid).func
            curve = np.asarray(f(cuts))
            point = [f(Confusion(tp=float(a), fp=float(b), fn=float(c), tn=float(d)))
                     for a, b, c, d in zip(cuts.tp, cuts.fp, cuts.fn, cuts.tn, strict=True)]
            np.testing.assert_allclose(curve, point, rtol=1e-12, atol=1e-12, err_msg=mid)


def test_evaluation_reads_them_by_pycm_names() -> None:
    ev = bm.evaluate([1, 0, 1, 1, 0, 0, 1, 0], [.9, .8, .7, .3, .2, .6, .55, .1])
    c = ev.confusion
    pc = pycm_binary(c.tp, c.fp, c.fn, c.tn)
    assert ev["GM"] == pytest.approx(pc.class_stat["GM"][1], rel=1e-12)
    assert ev["Scott's pi"] == pytest.approx(pc.overall_stat["Scott PI"], rel=1e-12)
    assert ev.value("IBA", alpha=1) == pytest.approx(pc.class_stat["IBA"][1], rel=1e-12)


def test_undefined_values_warn_once_with_the_reason() -> None:
    c = Confusion(tp=0, fp=0, fn=0, tn=10)  # no positives, nothing predicted positive
    for mid in ("g_mean", "scott_pi", "chi_square", "normalized_mutual_information"):
        with pytest.warns(bm.UndefinedMeasureWarning) as rec:
            assert math.isnan(value(mid, c))
        assert len(rec) == 1 and mid in str(rec[0].message)


# --- multiclass: the overall statistics of the k x k matrix ---------------------------------
MULTICLASS = {"Scott PI": "scott_pi", "Gwet AC1": "gwet_ac1", "Bennett S": "bennett_s",
              "Krippendorff Alpha": "krippendorff_alpha", "Chi-Squared": "chi_square",
              "Cramer V": "cramer_v", "Mutual Information": "mutual_information",
              "Joint Entropy": "joint_entropy", "Conditional Entropy": "conditional_entropy"}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_multiclass_overall_statistics_equal_pycm(seed: int) -> None:
    rng = np.random.default_rng(seed)
    k, n = 4, 400
    proba = rng.multinomial(20, rng.dirichlet(np.ones(k), size=n)) / 20.0  # argmax ties
    y = np.array([rng.choice(k, p=0.5 * row + 0.5 / k) for row in proba])
    y[:k] = np.arange(k)
    pred = np.argmax(proba, axis=1)
    pred[:k] = np.arange(k)
    proba[np.arange(k), np.arange(k)] = 2.0  # make the first rows' argmax their class
    proba /= proba.sum(axis=1, keepdims=True)
    mev = bm.evaluate_multiclass(y, proba)
    pc = pycm.ConfusionMatrix(actual_vector=y.tolist(), predict_vector=pred.tolist())
    for stat, mid in MULTICLASS.items():
        assert mev[mid] == pytest.approx(pc.overall_stat[stat], rel=1e-12, abs=1e-12), stat
    assert mev["pabak"] == pytest.approx((k * mev["accuracy"] - 1) / (k - 1), rel=1e-12)
    # documented difference: PyCM's multiclass Kappa No Prevalence is 2 ACC - 1 for every k
    assert pc.overall_stat["Kappa No Prevalence"] == pytest.approx(2 * mev["accuracy"] - 1)


def test_multiclass_nmi_equals_sklearn_with_weights() -> None:
    from sklearn.metrics import normalized_mutual_info_score

    rng = np.random.default_rng(7)
    k, n = 3, 300
    proba = rng.dirichlet(np.ones(k), size=n)
    y = np.array([rng.choice(k, p=row) for row in proba])
    mev = bm.evaluate_multiclass(y, proba)
    pred = np.argmax(proba, axis=1)
    assert mev["nmi"] == pytest.approx(normalized_mutual_info_score(y, pred), rel=1e-12)
    w = rng.integers(1, 4, n)  # integer weights: the same as repeated rows
    mev_w = bm.evaluate_multiclass(y, proba, sample_weight=w)
    yr, pr = np.repeat(y, w), np.repeat(pred, w)
    assert mev_w["nmi"] == pytest.approx(normalized_mutual_info_score(yr, pr), rel=1e-12)
    pc = pycm.ConfusionMatrix(actual_vector=yr.tolist(), predict_vector=pr.tolist())
    assert mev_w["gwet_ac1"] == pytest.approx(pc.overall_stat["Gwet AC1"], rel=1e-12)


@pytest.mark.parametrize(("name", "suggested"), [
    ("Scot PI", "scott_pi"), ("Krippendorf Alpha", "krippendorff_alpha"),
    ("Gwet AC-1", "gwet_ac1"), ("Kappa No Prevalance", "kappa_no_prevalence"),
    ("top_k_acuracy", "top_k_accuracy")])
def test_unknown_names_suggest_pycm_spellings(name: str, suggested: str) -> None:
    with pytest.raises(KeyError, match=f"did you mean '{suggested}'"):
        bm.get_measure(name)


@pytest.mark.parametrize(("pycm_name", "mid"), [
    ("Scott PI", "scott_pi"), ("Gwet AC1", "gwet_ac1"),
    ("Krippendorff Alpha", "krippendorff_alpha"),
    ("Bennett S", "bennett_s"), ("Kappa No Prevalence", "bennett_s"), ("Chi-Squared", "chi_square"),
    ("Cramer V", "cramer_v"), ("Mutual Information", "mutual_information"),
    ("Joint Entropy", "joint_entropy"), ("Conditional Entropy", "conditional_entropy"),
    ("GM", "g_mean"), ("AGM", "adjusted_g_mean"), ("IBA", "iba"), ("DP", "discriminant_power"),
    ("OP", "optimized_precision"), ("OC", "overlap_coefficient"), ("OOC", "g_measure"),
    ("BB", "braun_blanquet"), ("AGF", "adjusted_f_score"), ("ICSI", "icsi"), ("Q", "yule_q")])
def test_pycm_spellings_resolve(pycm_name: str, mid: str) -> None:
    assert bm.get_measure(pycm_name).id == mid
