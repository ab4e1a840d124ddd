"""Berrar's introductory example (ten cases, Figures 1-6) against the reference JSON.

Every value under ``expected`` in ``tests/data/berrar_worked_example.json`` is
reproduced through the public API with the JSON's own tolerance, plus the ranking
table of Figure 2, the ROC convex hull of Figure 5a and the confusion matrix of
Figure 3b.

The two confidence intervals of the sensitivity (``wald_ci_sensitivity_95``,
``clopper_pearson_ci_sensitivity_95``, Defs 36-37) come from ``Evaluation.ci``.

Threshold convention: binmetrics predicts positive when ``score >= threshold``. The
paper's confusion matrix (TP=3, FP=1, FN=2, TN=4) is its cut t5, which lies between
the scores 0.6 and 0.5 (the four top-ranked cases are positive), so the confusion
measures are evaluated at ``threshold=0.55``.
"""

from __future__ import annotations

import json
import math
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import binmetrics as bm

REF_PATH = Path(__file__).resolve().parents[1] / "data" / "berrar_worked_example.json"

REF = json.loads(REF_PATH.read_text())
LABELS = np.asarray(REF["cases"]["label"])
SCORES = np.asarray(REF["cases"]["score"])
EXPECTED = REF["expected"]
TABLE = REF["ranking_table"]

#: The paper's t5: between 0.6 (4th case) and 0.5 (5th case).
T5 = 0.55

#: JSON key -> (binmetrics id or alias, parameters). Keys not listed map to themselves.
KEY_TO_MEASURE: dict[str, tuple[str, dict[str, float]]] = {
    "mse_brier": ("brier", {}),
    "log_loss_base2": ("log_loss", {"base": 2.0}),
    "information_score_mean": ("information_score", {}),
    "cohen_kappa": ("kappa", {}),
    # the paper's null model predicts positive at the training prior, taken as 1/2
    "lift": ("lift", {"prior": 0.5}),
}
#: Keys that are not a single registered measure and have their own test below.
SPECIAL: set[str] = set()
#: Interval keys -> the interval method of Evaluation.ci for the sensitivity.
INTERVALS = {"wald_ci_sensitivity_95": "wald",
             "clopper_pearson_ci_sensitivity_95": "clopper-pearson"}
DEFERRED: set[str] = set(INTERVALS)  # not single measure values: tested below

MEASURE_KEYS = sorted(set(EXPECTED) - SPECIAL - DEFERRED)


@pytest.fixture(scope="module")
def ev() -> bm.Evaluation:
    return bm.evaluate(LABELS, SCORES, threshold=T5)


def _close(got: float, key: str) -> None:
    spec = EXPECTED[key]
    assert math.isfinite(got), f"{key}: got {got!r}"
    assert abs(got - spec["value"]) <= spec["tol"], (
        f"{key}: got {got!r}, the reference gives {spec['value']!r} (tol {spec['tol']})"
    )


def test_every_expected_key_is_covered() -> None:
    # a new key in the JSON must get a mapping or an explicit decision here
    assert set(EXPECTED) == set(MEASURE_KEYS) | SPECIAL | DEFERRED
    assert DEFERRED <= set(EXPECTED)


@pytest.mark.parametrize("key", sorted(INTERVALS))
def test_sensitivity_intervals(ev: bm.Evaluation, key: str) -> None:
    spec = EXPECTED[key]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        low, high = ev.ci("sensitivity", method=INTERVALS[key], level=0.95)
    assert abs(low - spec["value"][0]) <= spec["tol"]
    assert abs(high - spec["value"][1]) <= spec["tol"]
    # Berrar Def. 36: the Wald interval needs n p > 5 and n (1 - p) > 5; here it warns
    warned = any(issubclass(w.category, bm.MeasureCaveatWarning) for w in caught)
    assert warned == (INTERVALS[key] == "wald")


def test_paper_confusion_matrix_at_t5(ev: bm.Evaluation) -> None:
    c = REF["crisp_threshold"]["confusion"]
    assert ev.confusion == bm.Confusion(3, 1, 2, 4)
    assert ev.confusion == bm.Confusion(c["tp"], c["fp"], c["fn"], c["tn"])


def test_threshold_half_with_ge_rule_predicts_five_positive() -> None:
    # The JSON's "crisp_threshold.rule" text says "score >= 0.5, the five top-ranked
    # cases", but its own confusion numbers (TP=3, FP=1, FN=2, TN=4: four predicted
    # positive) and the paper's Figure 3b are the cut t5 between 0.6 and 0.5. Under
    # binmetrics' ">=" rule, threshold 0.5 puts case 6 (score 0.5, a positive) on the
    # positive side: five predicted positives, TP=4, FP=1 -- the paper's cut t6, where
    # its text places J_max (sensitivity = specificity = 0.8).
    ev5 = bm.evaluate(LABELS, SCORES, threshold=0.5)
    assert ev5.confusion == bm.Confusion(tp=4, fp=1, fn=1, tn=4)
    assert ev5["sensitivity"] == pytest.approx(0.8, abs=1e-12)
    assert ev5["specificity"] == pytest.approx(0.8, abs=1e-12)
    assert ev5["informedness"] == pytest.approx(EXPECTED["youden_j_max"]["value"], abs=1e-12)


@pytest.mark.parametrize("key", MEASURE_KEYS)
def test_expected_value(ev: bm.Evaluation, key: str) -> None:
    measure, params = KEY_TO_MEASURE.get(key, (key, {}))
    _close(ev.value(measure, **params), key)


@pytest.mark.parametrize("key", ["log_loss_base2", "lift", "information_score_mean"])
def test_defaults_match_the_paper(ev: bm.Evaluation, key: str) -> None:
    # log base 2 and the prevalence (here 1/2) as prior are the defaults
    measure, _ = KEY_TO_MEASURE[key]
    _close(ev[measure], key)


@pytest.mark.parametrize("key", ["accuracy", "mcc", "auc", "average_precision", "mse_brier"])
def test_functional_form(key: str) -> None:
    measure, params = KEY_TO_MEASURE.get(key, (key, {}))
    _close(bm.score(measure, LABELS, SCORES, threshold=T5, **params), key)


def test_mean_of_precisions(ev: bm.Evaluation) -> None:
    precision = ev.pr().precision
    assert precision.size == 10  # ten distinct thresholds
    _close(float(np.mean(precision)), "mean_of_precisions")


def test_curve_areas_agree_with_the_reference(ev: bm.Evaluation) -> None:
    _close(ev.roc().area(), "auc")
    _close(ev.roc().hull().area(), "auch")
    _close(ev.pr().area("step"), "average_precision")
    _close(ev.pr().area("min"), "aucpr_min")
    _close(ev.gain().average(), "average_gain")
    _close(ev.lift().average(), "average_lift")


def test_youden_max_is_reached_at_sensitivity_and_specificity_08(ev: bm.Evaluation) -> None:
    best = ev.best_threshold("informedness")
    _close(best.value, "youden_j_max")
    assert best.confusion.tp / best.confusion.p == pytest.approx(0.8, abs=1e-12)
    assert best.confusion.tn / best.confusion.n == pytest.approx(0.8, abs=1e-12)


def test_ks_location(ev: bm.Evaluation) -> None:
    # the JSON's erratum: KS = 0.8 - 0.2, reached where TPR = 0.8 and FPR = 0.2
    threshold, value = ev.threshold_curves().ks()
    _close(value, "ks")
    c = ev.at_threshold(threshold).confusion
    assert (c.tp / c.p, c.fp / c.n) == pytest.approx((0.8, 0.2), abs=1e-12)


# --- Figure 2, the ranking table ------------------------------------------------------
def test_ranking_table_tpr_fpr(ev: bm.Evaluation) -> None:
    roc = ev.roc()
    assert (roc.fpr[0], roc.tpr[0]) == (0.0, 0.0)
    np.testing.assert_allclose(roc.tpr[1:], TABLE["tpr"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(roc.fpr[1:], TABLE["fpr"], rtol=0, atol=1e-12)
    curves = ev.threshold_curves()
    np.testing.assert_allclose(curves.tpr[1:], TABLE["tpr"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(curves.fpr[1:], TABLE["fpr"], rtol=0, atol=1e-12)


def test_ranking_table_precision(ev: bm.Evaluation) -> None:
    pr = ev.pr()
    np.testing.assert_allclose(pr.precision, TABLE["precision"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(pr.recall, TABLE["tpr"], rtol=0, atol=1e-12)


def test_ranking_table_cumulative_positives(ev: bm.Evaluation) -> None:
    gain = ev.gain()
    assert gain.positives[0] == 0
    np.testing.assert_allclose(gain.positives[1:], TABLE["cumulative_positives"], rtol=0,
                               atol=1e-12)
    np.testing.assert_allclose(gain.n_selected[1:], np.arange(1, 11), rtol=0, atol=1e-12)


def test_ranking_table_lift(ev: bm.Evaluation) -> None:
    np.testing.assert_allclose(ev.lift().lift, TABLE["lift"], rtol=0, atol=1e-12)


def test_ranking_table_in_one_call(ev: bm.Evaluation) -> None:
    table = ev.ranking_table()
    np.testing.assert_array_equal(table.score, SCORES)
    for key in ("tpr", "fpr", "precision", "cumulative_positives", "lift"):
        np.testing.assert_allclose(table[key], TABLE[key], rtol=0, atol=1e-12, err_msg=key)
    np.testing.assert_array_equal(table.n_selected, np.arange(1, 11))


def test_mean_of_precisions_is_a_named_measure(ev: bm.Evaluation) -> None:
    _close(ev["mean_precision"], "mean_of_precisions")
    _close(ev["mean_of_precisions"], "mean_of_precisions")


def test_roc_hull_vertices(ev: bm.Evaluation) -> None:
    # "hull vertices (0,0) (0,0.4) (0.2,0.8) (0.6,1) (1,1)", parsed from the JSON note
    note = EXPECTED["auch"]["note"]
    pairs = re.findall(r"\(([-\d.]+),\s*([-\d.]+)\)", note)
    assert len(pairs) == 5
    fpr = [float(x) for x, _ in pairs]
    tpr = [float(y) for _, y in pairs]
    hull = ev.roc().hull()
    np.testing.assert_allclose(hull.fpr, fpr, rtol=0, atol=1e-12)
    np.testing.assert_allclose(hull.tpr, tpr, rtol=0, atol=1e-12)


def test_count_table_built_from_figure_2() -> None:
    # the same data entered as a count table (one case per distinct score)
    table = bm.CountTable(SCORES, LABELS, 1 - LABELS, weighted=False)
    assert table.P == 5 and table.N == 5
    np.testing.assert_allclose(table.tp[1:], TABLE["cumulative_positives"], rtol=0, atol=0)
    ev = bm.Evaluation(table, threshold=T5)
    assert ev.confusion == bm.Confusion(3, 1, 2, 4)
    for key in ("mcc", "auc", "auch", "average_precision", "taks"):
        measure, params = KEY_TO_MEASURE.get(key, (key, {}))
        _close(ev.value(measure, **params), key)
