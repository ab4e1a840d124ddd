"""Undefined values: NaN with an UndefinedMeasureWarning naming the measure and the
reason, never a silent 0; ``undefined="raise"`` and ``undefined="ignore"``.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import binmetrics as bm

# the edge cases cut outside the scores' range on purpose: that warning (asserted in
# test_f1_without_true_positives_is_zero) is expected here, the subject is the measures'
pytestmark = pytest.mark.filterwarnings(
    "ignore:threshold .* is outside the scores' range:binmetrics.exceptions.BinmetricsWarning")

Y = [1, 1, 0, 1, 0, 0]
S = [0.9, 0.8, 0.7, 0.4, 0.3, 0.1]


@pytest.fixture
def no_warnings() -> Iterator[None]:
    """Any warning inside the test is an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def undefined_messages(record: Any) -> list[str]:
    return [str(w.message) for w in record if issubclass(w.category, bm.UndefinedMeasureWarning)]


# --- the warning names the measure and the reason -------------------------------------------
def test_precision_above_every_score() -> None:
    ev = bm.evaluate(Y, S, threshold=2.0)
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"^ppv is undefined: .*TP \+ FP = 0"):
        value = ev["ppv"]
    assert np.isnan(value)
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"^ppv is undefined"):
        assert np.isnan(bm.score("precision", Y, S, threshold=2.0))  # an alias names the id


def test_npv_below_every_score() -> None:
    ev = bm.evaluate(Y, S, threshold=-1.0)
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"^npv is undefined: .*FN \+ TN = 0"):
        assert np.isnan(ev["npv"])


def test_undefined_raise() -> None:
    ev = bm.evaluate(Y, S, threshold=2.0, undefined="raise")
    with pytest.raises(bm.UndefinedMeasureError, match=r"ppv is undefined: .*TP \+ FP = 0"):
        ev["ppv"]
    with pytest.raises(bm.UndefinedMeasureError, match=r"mcc is undefined"):
        bm.score("mcc", Y, S, threshold=2.0, undefined="raise")
    assert issubclass(bm.UndefinedMeasureError, ValueError)
    # defined values are unaffected
    assert ev["tpr"] == 0.0
    assert ev["auc"] == bm.score("auc", Y, S)


def test_undefined_ignore_is_silent(no_warnings: None) -> None:
    ev = bm.evaluate(Y, S, threshold=2.0, undefined="ignore")
    assert np.isnan(ev["ppv"])
    values = ev.to_dict()  # BEDROC's caveat (alpha Ra > 1) is silenced too
    assert np.isnan(values["mcc"])
    for y in ([1, 1, 1], [0, 0, 0]):
        values = bm.evaluate(y, [0.2, 0.5, 0.9], undefined="ignore").to_dict()
        for m in bm.iter_measures("ranking"):
            assert np.isnan(values[m.id]), m.id


def test_undefined_policy_context_for_measure_functions() -> None:
    ppv = bm.get_measure("ppv").func
    empty_prediction = bm.Confusion(tp=0.0, fp=0.0, fn=3.0, tn=3.0)
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"ppv"):
        assert np.isnan(ppv(empty_prediction))
    with bm.undefined_policy("raise"), pytest.raises(bm.UndefinedMeasureError, match=r"ppv"):
        ppv(empty_prediction)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with bm.undefined_policy("ignore"):
            assert np.isnan(ppv(empty_prediction))
    with pytest.raises(ValueError, match=r"undefined must be .*got 'loud'"):
        with bm.undefined_policy("loud"):  # type: ignore[arg-type]
            pass


# --- NaN if and only if a warning names the measure ---------------------------------------------
EDGE_CASES: dict[str, tuple[list[int], list[float], list[float] | None, float]] = {
    "ordinary": (Y, S, None, 0.5),
    "above_every_score": (Y, S, None, 2.0),
    "below_every_score": (Y, S, None, -1.0),
    "only_positives": ([1, 1, 1], [0.2, 0.5, 0.9], None, 0.5),
    "only_positives_none_predicted": ([1, 1, 1], [0.2, 0.5, 0.9], None, 2.0),
    "only_positives_all_predicted": ([1, 1, 1], [0.2, 0.5, 0.9], None, 0.0),
    "only_negatives": ([0, 0, 0], [0.2, 0.5, 0.9], None, 0.5),
    "only_negatives_none_predicted": ([0, 0, 0], [0.2, 0.5, 0.9], None, 2.0),
    "only_negatives_all_predicted": ([0, 0, 0], [0.2, 0.5, 0.9], None, 0.0),
    "one_row": ([1], [0.7], None, 0.5),
    "all_tied": ([1, 0, 1, 0], [0.5, 0.5, 0.5, 0.5], None, 0.5),
    "all_tied_none_predicted": ([1, 0, 1, 0], [0.5, 0.5, 0.5, 0.5], None, 0.6),
    "weighted_single_class": ([0, 0], [0.3, 0.6], [0.5, 2.0], 0.5),
    "perfect": ([1, 1, 0, 0], [1.0, 1.0, 0.0, 0.0], None, 0.5),
    "reversed": ([0, 0, 1, 1], [1.0, 1.0, 0.0, 0.0], None, 0.5),
}


@pytest.mark.parametrize("case", list(EDGE_CASES))
def test_nan_if_and_only_if_a_warning_names_the_measure(case: str) -> None:
    y, s, w, t = EDGE_CASES[case]
    for m in bm.iter_measures():
        ev = bm.evaluate(y, s, sample_weight=w, threshold=t)  # fresh: values are cached
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            warnings.simplefilter("error", RuntimeWarning)
            value = ev[m.id]
        messages = undefined_messages(record)
        if np.isnan(value):
            assert messages, f"{m.id} is NaN without a warning ({case})"
            assert all(msg.startswith(f"{m.id} is undefined: ") for msg in messages), messages
        else:
            assert not messages, f"{m.id} = {value} but warned {messages} ({case})"


@pytest.mark.parametrize("case", list(EDGE_CASES))
def test_raise_and_ignore_agree_with_warn(case: str) -> None:
    y, s, w, t = EDGE_CASES[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", bm.UndefinedMeasureWarning)
        warnings.simplefilter("ignore", bm.MeasureCaveatWarning)
        warned = bm.evaluate(y, s, sample_weight=w, threshold=t).to_dict()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ignored = bm.evaluate(y, s, sample_weight=w, threshold=t, undefined="ignore").to_dict()
    assert list(ignored) == list(warned)
    for m in bm.iter_measures():
        np.testing.assert_array_equal(ignored[m.id], warned[m.id], err_msg=m.id)
        strict = bm.evaluate(y, s, sample_weight=w, threshold=t, undefined="raise")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", bm.MeasureCaveatWarning)
            if np.isnan(warned[m.id]):
                with pytest.raises(bm.UndefinedMeasureError, match=rf"^{re.escape(m.id)} "):
                    strict[m.id]
            else:
                assert strict[m.id] == warned[m.id], m.id


# --- single class ---------------------------------------------------------------------------
def test_single_class_confusion_measures() -> None:
    ev = bm.evaluate([1, 1, 1], [0.2, 0.5, 0.9], threshold=0.4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ev["tpr"] == pytest.approx(2 / 3)
        assert ev["fnr"] == pytest.approx(1 / 3)
        assert ev["ppv"] == 1.0
        assert ev["accuracy"] == pytest.approx(2 / 3)
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"^tnr is undefined: .*no negatives"):
        assert np.isnan(ev["tnr"])
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"^fpr is undefined: .*no negatives"):
        assert np.isnan(ev["fpr"])
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"^informedness is undefined"):
        assert np.isnan(ev["informedness"])

    ev = bm.evaluate([0, 0, 0], [0.2, 0.5, 0.9], threshold=0.4)
    assert ev["tnr"] == pytest.approx(1 / 3)
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"^tpr is undefined: .*no positives"):
        assert np.isnan(ev["tpr"])


@pytest.mark.parametrize(
    ("y", "missing"), [([1, 1, 1], "negatives"), ([0, 0, 0], "positives")],
    ids=["only_positives", "only_negatives"],
)
def test_single_class_every_ranking_measure_is_nan_with_a_warning(
    y: list[int], missing: str
) -> None:
    ranking = list(bm.iter_measures("ranking"))
    assert ranking
    for m in ranking:
        ev = bm.evaluate(y, [0.2, 0.5, 0.9])
        pattern = rf"^{re.escape(m.id)} is undefined: y_true has no {missing}.*both classes"
        with pytest.warns(bm.UndefinedMeasureWarning, match=pattern):
            assert np.isnan(ev[m.id]), m.id
        with pytest.raises(bm.UndefinedMeasureError, match=rf"^{re.escape(m.id)} "):
            bm.score(m.id, y, [0.2, 0.5, 0.9], undefined="raise")


def test_single_class_to_dict_warns_for_every_ranking_measure() -> None:
    with pytest.warns(bm.UndefinedMeasureWarning) as record:
        values = bm.evaluate([1, 1, 1, 1], [0.1, 0.4, 0.4, 0.8]).to_dict()
    named = [w.message.measures for w in record
             if issubclass(w.category, bm.UndefinedMeasureWarning)]
    assert len(named) == len({w.message.reason for w in record
                              if issubclass(w.category, bm.UndefinedMeasureWarning)})
    for m in bm.iter_measures("ranking"):
        assert np.isnan(values[m.id]), m.id
        assert sum(m.id in ids for ids in named) == 1, m.id  # one warning per reason


def test_single_class_information_score_needs_a_prior() -> None:
    ev = bm.evaluate([1, 1, 1], [0.2, 0.5, 0.9])
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"information_score.*pass prior="):
        assert np.isnan(ev["information_score"])
    assert np.isfinite(ev.value("information_score", prior=0.5))


def test_single_class_curves() -> None:
    ev = bm.evaluate([0, 0, 0], [0.2, 0.5, 0.9])
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"roc curve"):
        roc = ev.roc()
    assert np.all(np.isnan(roc.tpr))
    with pytest.warns(bm.UndefinedMeasureWarning) as record:
        best = ev.best_threshold("tpr")
    messages = undefined_messages(record)
    assert "tpr is undefined: it is undefined at every threshold; returning NaN" in messages
    assert np.isnan(best.value) and np.isnan(best.threshold)


# --- specific conventions -----------------------------------------------------------------------
def test_mcc_with_an_empty_row_is_nan_not_zero() -> None:
    # nothing predicted positive: the "predicted positive" row is empty
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"^mcc is undefined: .*empty"):
        value = bm.score("mcc", Y, S, threshold=2.0)
    assert np.isnan(value)
    # only one class in y_true: a column is empty
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"^mcc is undefined"):
        assert np.isnan(bm.score("mcc", [1, 1, 1], [0.2, 0.5, 0.9], threshold=0.4))


def test_f1_without_true_positives_is_zero(no_warnings: None) -> None:
    # TP = 0, FP = 0, FN = 3: precision is undefined, but F1 = 2TP / (2TP + FP + FN) = 0
    with pytest.warns(UserWarning, match=r"^threshold 2 is outside the scores' range"):
        ev = bm.evaluate(Y, S, threshold=2.0, undefined="raise")  # warned, not raised
    assert ev.confusion.tp == 0 and ev.confusion.fn == 3
    assert ev["f1"] == 0.0
    assert ev.value("fbeta", beta=2.0) == 0.0
    assert ev["threat_score"] == 0.0
    # TP = 0, FP = 1, FN = 1
    assert bm.score("f1", [1, 0], [0.2, 0.9]) == 0.0


def test_f1_with_nothing_positive_anywhere_is_undefined() -> None:
    # TP + FP + FN = 0: no positives and nothing predicted positive
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"^f1 is undefined: .*TP \+ FP \+ FN = 0"):
        assert np.isnan(bm.score("f1", [0, 0, 0], [0.2, 0.5, 0.9], threshold=2.0))


def test_likelihood_ratios_and_odds_ratio_are_infinite_where_the_denominator_vanishes(
    no_warnings: None,
) -> None:
    y, s = [1, 1, 0, 0], [0.9, 0.8, 0.3, 0.2]
    ev = bm.evaluate(y, s, threshold=0.85)  # TP = 1, FP = 0: FPR = 0 < TPR = 0.5
    assert ev["fpr"] == 0.0 and ev["tpr"] == 0.5
    assert ev["lr_plus"] == np.inf
    assert ev["dor"] == np.inf  # FP FN = 0 < TP TN
    # TNR = 0 < FNR: every negative and one positive predicted positive
    ev = bm.evaluate([1, 1, 0, 0], [0.9, 0.05, 0.3, 0.2], threshold=0.2)
    assert ev["tnr"] == 0.0 and ev["fnr"] == 0.5
    assert ev["lr_minus"] == np.inf


def test_likelihood_ratio_with_nothing_predicted_is_undefined() -> None:
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"^lr_plus is undefined: TPR = FPR = 0"):
        assert np.isnan(bm.score("lr_plus", Y, S, threshold=2.0))


def test_taks_with_all_scores_tied() -> None:
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"^taks is undefined: all scores"):
        assert np.isnan(bm.score("taks", [1, 0, 1], [0.5, 0.5, 0.5]))


def test_kappa_with_one_class_predicted_as_that_class() -> None:
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"^kappa is undefined: chance agreement"):
        assert np.isnan(bm.score("kappa", [1, 1, 1], [0.2, 0.5, 0.9], threshold=0.0))


# --- caveats ----------------------------------------------------------------------------------
def test_bedroc_caveat_when_alpha_ra_exceeds_one() -> None:
    y, s = [1, 0, 0, 0], [0.9, 0.5, 0.4, 0.3]  # Ra = 1/4, alpha = 20: alpha Ra = 5
    with pytest.warns(bm.MeasureCaveatWarning, match=r"^bedroc: alpha \* Ra = 5 > 1"):
        value = bm.score("bedroc", y, s)
    assert value == pytest.approx(1.0)  # defined: a caveat, not an undefined value
    with pytest.warns(bm.MeasureCaveatWarning, match=r"alpha \* Ra = 2 > 1"):
        bm.score("bedroc", y, s, alpha=8.0)
    # the caveat is not an error under undefined="raise", and silent under "ignore"
    with pytest.warns(bm.MeasureCaveatWarning):
        assert bm.score("bedroc", y, s, undefined="raise") == value
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert bm.score("bedroc", y, s, undefined="ignore") == value
    assert not issubclass(bm.MeasureCaveatWarning, bm.UndefinedMeasureWarning)


def test_bedroc_without_caveat(no_warnings: None) -> None:
    y = [1] + [0] * 99  # Ra = 0.01, alpha Ra = 0.2
    s = np.linspace(1.0, 0.0, 100)
    assert bm.score("bedroc", y, s) == pytest.approx(1.0)
    assert np.isfinite(bm.score("bedroc", [1, 0, 0, 0], [0.9, 0.5, 0.4, 0.3], alpha=4.0))
