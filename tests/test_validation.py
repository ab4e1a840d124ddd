"""Bad input: every error names the problem and the offending count or values.

The same checks guard every entry point, so each bad input is tried through
``bm.evaluate``, ``bm.score`` and ``bm.CountTable.from_arrays``.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm

Y = [1, 0, 1, 0, 1, 0]
S = [0.9, 0.2, 0.6, 0.4, 0.35, 0.7]

EntryPoint = Callable[..., Any]
ENTRY_POINTS: dict[str, EntryPoint] = {
    "evaluate": bm.evaluate,
    "score": lambda y, s, **kw: bm.score("auc", y, s, **kw),
    "count_table": bm.CountTable.from_arrays,
}


@pytest.fixture(params=list(ENTRY_POINTS), ids=list(ENTRY_POINTS))
def entry(request: pytest.FixtureRequest) -> EntryPoint:
    return ENTRY_POINTS[request.param]


def quiet_dict(ev: bm.Evaluation) -> dict[str, float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", bm.UndefinedMeasureWarning)
        warnings.simplefilter("ignore", bm.MeasureCaveatWarning)
        return ev.to_dict()


def assert_same(got: dict[str, float], expected: dict[str, float]) -> None:
    assert list(got) == list(expected)
    for k in expected:
        np.testing.assert_allclose(got[k], expected[k], rtol=1e-12, equal_nan=True, err_msg=k)


# --- shapes and sizes --------------------------------------------------------------------
def test_lengths_that_differ_name_both_lengths(entry: EntryPoint) -> None:
    with pytest.raises(ValueError, match=r"different lengths: 3 and 4"):
        entry([1, 0, 1], [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(ValueError, match=r"different lengths: 4 and 2"):
        entry([1, 0, 1, 0], [0.1, 0.2])


@pytest.mark.parametrize("empty", [[], np.array([]), pd.Series([], dtype=float)],
                         ids=["list", "array", "series"])
def test_empty_input(entry: EntryPoint, empty: Any) -> None:
    with pytest.raises(ValueError, match=r"empty"):
        entry(empty, empty)


def test_score_matrix_for_a_count_table_points_to_multiclass() -> None:
    # evaluate and score accept a probability matrix: see tests/evaluation/test_multiclass.py
    with pytest.raises(ValueError, match=r"shape \(6, 3\).*multiclass.*evaluate_multiclass"):
        bm.CountTable.from_arrays(Y, np.full((6, 3), 1 / 3))
    assert isinstance(bm.evaluate([0, 1, 2, 0, 1, 2], np.full((6, 3), 1 / 3)),
                      bm.MulticlassEvaluation)


def test_a_score_column_vector_is_accepted() -> None:
    col = np.asarray(S).reshape(-1, 1)
    assert_same(quiet_dict(bm.evaluate(Y, col)), quiet_dict(bm.evaluate(Y, S)))


def test_a_label_matrix_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"y_true must be 1-D.*\(3, 2\)"):
        bm.evaluate(np.zeros((3, 2)), [0.1, 0.2, 0.3])


# --- scores --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ([np.nan, 0.2, 0.6, 0.4, 0.35, 0.7], r"1 non-finite value.*1 NaN, 0 infinite.*\[0\]"),
        ([0.9, np.inf, 0.6, -np.inf, 0.35, 0.7], r"2 non-finite values.*0 NaN, 2 infinite"),
        ([np.nan, np.inf, np.nan, 0.4, 0.35, 0.7], r"3 non-finite values.*2 NaN, 1 infinite"),
    ],
    ids=["one_nan", "two_inf", "nan_and_inf"],
)
def test_non_finite_scores_raise_with_their_count(
    entry: EntryPoint, bad: list[float], message: str
) -> None:
    with pytest.raises(ValueError, match=message) as err:
        entry(Y, bad)
    assert "nan_policy='omit'" in str(err.value)  # says how to drop them


def test_non_finite_scores_list_the_rows() -> None:
    s = np.linspace(0, 1, 20)
    s[[2, 5, 7, 11, 13, 17, 19]] = np.nan
    with pytest.raises(ValueError, match=r"7 non-finite values.*rows \[2, 5, 7, 11, 13, \.\.\.\]"):
        bm.evaluate(np.arange(20) % 2, s)


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_nan_policy_omit_drops_rows_with_a_warning(weighted: bool) -> None:
    y = np.array([1, 0, 1, 0, 1, 0, 1, 0])
    s = np.array([0.9, np.nan, 0.6, 0.4, np.inf, 0.7, 0.3, -np.inf])
    w = np.array([1.0, 2.0, 0.5, 3.0, 1.5, 1.0, 2.5, 0.25]) if weighted else None
    with pytest.warns(UserWarning, match=r"dropped 3 rows with non-finite scores"):
        ev = bm.evaluate(y, s, sample_weight=w, nan_policy="omit")
    assert ev.n_omitted == 3
    keep = np.isfinite(s)
    clean = bm.evaluate(y[keep], s[keep], sample_weight=None if w is None else w[keep])
    assert clean.n_omitted == 0
    assert ev.table.equals(clean.table)
    assert_same(quiet_dict(ev), quiet_dict(clean))
    with pytest.warns(UserWarning, match=r"dropped 3 rows"):
        table = bm.CountTable.from_arrays(y, s, sample_weight=w, nan_policy="omit")
    assert table.equals(clean.table)
    with pytest.warns(UserWarning, match=r"dropped 3 rows"):
        auc = bm.score("auc", y, s, sample_weight=w, nan_policy="omit")
    assert auc == clean["auc"]


def test_nan_policy_omit_with_nothing_left() -> None:
    with pytest.raises(ValueError, match=r"all 3 scores are NaN or infinite"):
        bm.evaluate([1, 0, 1], [np.nan, np.inf, np.nan], nan_policy="omit")


def test_unknown_nan_policy() -> None:
    with pytest.raises(ValueError, match=r"nan_policy must be 'raise' or 'omit', got 'drop'"):
        bm.evaluate(Y, S, nan_policy="drop")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "bad", [["a", "b", "c", "d", "e", "f"], [object()] * 6, [0.1, "x", 0.3, 0.4, 0.5, 0.6]],
    ids=["strings", "objects", "mixed"],
)
def test_non_numeric_scores(entry: EntryPoint, bad: list[Any]) -> None:
    with pytest.raises(TypeError, match=r"y_score must be numeric"):
        entry(Y, bad)


def test_none_scores_are_missing_scores() -> None:
    with pytest.raises(ValueError, match=r"2 non-finite values \(2 NaN, 0 infinite\)"):
        bm.evaluate(Y, [0.9, None, 0.6, None, 0.35, 0.7])


def test_non_numeric_scores_show_the_values() -> None:
    with pytest.raises(TypeError, match=r"such as \['a', 'b', 'c'\]"):
        bm.evaluate(Y, ["a", "b", "c", "d", "e", "f"])


def test_probabilities_outside_unit_interval() -> None:
    scores = [3.0, -1.0, 2.0, 0.5, 0.4, 0.1]  # margins, not probabilities
    ev = bm.evaluate(Y, scores)
    with pytest.raises(ValueError, match=r"brier needs probabilities in \[0, 1\].*3 cases"):
        ev["brier"]
    probabilistic = [m for m in bm.iter_measures("probabilistic") if m.needs_probabilities]
    assert probabilistic
    for m in probabilistic:
        with pytest.raises(ValueError, match=rf"^{re.escape(m.id)} needs probabilities"):
            bm.score(m.id, Y, scores)

    with pytest.warns(bm.UndefinedMeasureWarning) as record, warnings.catch_warnings():
        warnings.simplefilter("ignore", bm.MeasureCaveatWarning)  # BEDROC, alpha Ra > 1
        values = ev.to_dict()
    named = [w.message.measures for w in record
             if issubclass(w.category, bm.UndefinedMeasureWarning)]
    for m in bm.iter_measures():
        if m.needs_probabilities:
            assert np.isnan(values[m.id]), m.id
            assert any(m.id in ids for ids in named), m.id
        elif m.family == "probabilistic":
            assert np.isfinite(values[m.id]), m.id  # e.g. the hinge loss takes margins
    # the ranking measures do not care
    assert values["auc"] == bm.score("auc", Y, scores)
    assert np.isfinite(values["auc"])


def test_probabilities_outside_unit_interval_under_undefined_raise() -> None:
    ev = bm.evaluate(Y, [3.0, -1.0, 2.0, 0.5, 0.4, 0.1], undefined="raise")
    with pytest.raises(ValueError, match=r"needs probabilities"):
        ev.to_dict()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", bm.MeasureCaveatWarning)
        assert np.isfinite(ev.to_dict("ranking")["auc"])


# --- labels --------------------------------------------------------------------------------
def test_three_classes_list_the_values(entry: EntryPoint) -> None:
    message = r"exactly two classes; found 3 distinct values: \[0, 1, 2\]"
    with pytest.raises(ValueError, match=message):
        entry([0, 1, 2, 1, 0, 2], S)


def test_three_string_classes_list_the_values() -> None:
    with pytest.raises(ValueError, match=r"found 3 distinct values: \['a', 'b', 'c'\]"):
        bm.evaluate(["a", "b", "c", "a", "b", "c"], S, pos_label="a")


def test_many_classes_are_listed_with_an_ellipsis() -> None:
    with pytest.raises(ValueError, match=r"found 12 distinct values: \[0, 1, .*9, '\.\.\.'\]"):
        bm.evaluate(np.arange(12), np.linspace(0, 1, 12))


def test_string_labels_need_pos_label(entry: EntryPoint) -> None:
    with pytest.raises(ValueError, match=r"labels \['no', 'yes'\].*pass pos_label="):
        entry(["yes", "no", "yes", "no", "yes", "no"], S)


@pytest.mark.parametrize(
    ("labels", "pos_label", "message"),
    [
        (["yes", "no"] * 3, "maybe", r"pos_label='maybe' does not occur.*\['no', 'yes'\]"),
        ([1, 0] * 3, 2, r"pos_label=2 does not occur.*\[0, 1\]"),
        ([True, False] * 3, "yes", r"pos_label='yes' does not occur"),
    ],
    ids=["strings", "ints", "bools"],
)
def test_pos_label_that_does_not_occur(
    entry: EntryPoint, labels: list[Any], pos_label: Any, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        entry(labels, S, pos_label=pos_label)


@pytest.mark.parametrize(
    "labels",
    [
        [1.0, np.nan, 1.0, 0.0, np.nan, 0.0],
        [1, None, 1, 0, None, 0],
        pd.Series([1, None, 1, 0, None, 0]),
        ["a", None, "a", "b", np.nan, "b"],
    ],
    ids=["float_nan", "list_none", "series_none", "strings_none"],
)
def test_missing_labels(entry: EntryPoint, labels: Any) -> None:
    with pytest.raises(ValueError, match=r"2 missing labels \(NaN/None\) at rows \[1, 4\]"):
        entry(labels, S, pos_label="a" if "a" in list(labels) else None)


# --- weights -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ([1, -1, 2, -3, 1, 1], r"2 negative values at rows \[1, 3\].*smallest -3"),
        ([1, np.nan, 2, 3, 1, 1], r"1 non-finite value.*rows \[1\]"),
        ([1, np.inf, 2, np.nan, 1, 1], r"2 non-finite values.*rows \[1, 3\]"),
        ([0, 0, 0, 0, 0, 0], r"sums to 0"),
        ([1, 2], r"sample_weight has 2 values but y_true has 6 rows"),
        ([1, 2, 3, 4, 5, 6, 7], r"sample_weight has 7 values but y_true has 6 rows"),
    ],
    ids=["negative", "nan", "inf_and_nan", "all_zero", "too_short", "too_long"],
)
def test_bad_weights(entry: EntryPoint, weights: list[float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        entry(Y, S, sample_weight=weights)


def test_non_numeric_weights(entry: EntryPoint) -> None:
    with pytest.raises(TypeError, match=r"sample_weight must be numeric"):
        entry(Y, S, sample_weight=["a"] * 6)


def test_zero_weights_on_some_rows_drop_them() -> None:
    w = np.array([1.0, 0.0, 1.0, 1.0, 0.0, 1.0])
    keep = w > 0
    got = quiet_dict(bm.evaluate(Y, S, sample_weight=w))
    expected = quiet_dict(bm.evaluate(np.asarray(Y)[keep], np.asarray(S)[keep]))
    assert_same(got, expected)


# --- measure names and parameters ----------------------------------------------------------
def test_unknown_measure_suggests_the_closest_name() -> None:
    ev = bm.evaluate(Y, S)
    with pytest.raises(KeyError, match=r"unknown measure 'sensitivty'.*did you mean 'sensitivity'"):
        ev["sensitivty"]
    with pytest.raises(KeyError, match=r"did you mean 'sensitivity'"):
        ev.value("sensitivty")
    with pytest.raises(KeyError, match=r"did you mean 'sensitivity'"):
        bm.score("sensitivty", Y, S)
    with pytest.raises(KeyError, match=r"did you mean 'precision'"):
        bm.get_measure("precison")
    assert "sensitivty" not in ev
    assert "sensitivity" in ev


def test_unknown_measure_without_a_close_name() -> None:
    with pytest.raises(KeyError,
                       match=r"unknown measure 'qqqqqq' \(bm.measure_catalogue\(\) lists"):
        bm.evaluate(Y, S)["qqqqqq"]


def test_misspelt_measure_fails_before_the_data_are_checked() -> None:
    with pytest.raises(KeyError, match=r"sensitivty"):
        bm.score("sensitivty", [1, 0, 2], [0.1])


def test_every_registered_name_resolves() -> None:
    ev = bm.evaluate(Y, S)
    for m in bm.iter_measures():
        for name in (m.id, *m.aliases):
            assert bm.get_measure(name) is m
            assert bm.get_measure(name.upper()) is m
            assert name in ev


def test_measure_name_must_be_a_string() -> None:
    with pytest.raises(TypeError, match=r"must be a string, got 3"):
        bm.get_measure(3)  # type: ignore[arg-type]


def test_unknown_parameter_is_a_type_error() -> None:
    ev = bm.evaluate(Y, S)
    with pytest.raises(TypeError, match=r"auc takes no parameter beta; its parameters: none"):
        ev.value("auc", beta=2)
    with pytest.raises(TypeError, match=r"fbeta takes no parameter alpha; its parameters: beta"):
        ev.value("fbeta", alpha=2)
    with pytest.raises(TypeError, match=r"bedroc takes no parameter gamma"):
        bm.score("bedroc", Y, S, gamma=1)


def test_every_measure_rejects_an_unknown_parameter() -> None:
    ev = bm.evaluate(Y, S)
    for m in bm.iter_measures():
        with pytest.raises(TypeError, match=rf"{re.escape(m.id)} takes no parameter no_such"):
            ev.value(m.id, no_such=1)


@pytest.mark.parametrize(
    ("measure", "params", "message"),
    [
        ("fbeta", {"beta": 0}, r"beta must lie in \(0.0, inf\); got 0"),
        ("fbeta", {"beta": -1.5}, r"beta must lie in .*got -1.5"),
        ("fbeta", {"beta": float("nan")}, r"beta must lie in"),
        ("enrichment_factor", {"fraction": 0}, r"fraction must lie in \(0.0, 1.0\]; got 0"),
        ("enrichment_factor", {"fraction": 1.5}, r"fraction must lie in .*got 1.5"),
        ("bedroc", {"alpha": 0}, r"alpha must lie in \(0.0, inf\); got 0"),
        ("bedroc", {"alpha": -20}, r"alpha must lie in .*got -20"),
        ("rie", {"alpha": 0}, r"alpha must lie in"),
        ("focal_loss", {"gamma": -1}, r"gamma must lie in \[0.0, inf\); got -1"),
        ("log_loss", {"base": 1}, r"base must be positive, finite and not 1; got 1"),
        ("log_loss", {"base": 0}, r"base must be positive.*got 0"),
        ("log_loss", {"eps": 0}, r"eps must lie in"),
        ("information_score", {"base": 1}, r"base must be .*not 1"),
        ("balanced_log_loss", {"alpha": 1.5}, r"alpha must lie in \[0.0, 1.0\]; got 1.5"),
        ("lift", {"prior": 0}, r"prior must lie in \(0.0, 1.0\]; got 0"),
        ("roc_enrichment", {"fpr": 0}, r"fpr must lie in"),
        ("roc_enrichment", {"at": "middle"}, r"at must be 'top' or 'bottom', got 'middle'"),
        ("auac", {"kind": "simpson"}, r"kind must be 'trapezoid' or 'step', got 'simpson'"),
    ],
)
def test_bad_parameter_values(measure: str, params: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        bm.evaluate(Y, S).value(measure, **params)
    with pytest.raises(ValueError, match=message):
        bm.score(measure, Y, S, **params)


def test_non_numeric_parameter_is_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"beta must be a number, got 'x'"):
        bm.score("fbeta", Y, S, beta="x")
    with pytest.raises(TypeError, match=r"base must be a number"):
        bm.score("log_loss", Y, S, base="two")


def test_bad_parameters_are_checked_on_a_single_class() -> None:
    # parameter errors are not hidden behind an undefined value
    with pytest.raises(ValueError, match=r"alpha must lie in"):
        bm.score("bedroc", [1, 1, 1], [0.1, 0.2, 0.3], alpha=0, undefined="ignore")
    with pytest.raises(ValueError, match=r"fraction must lie in"):
        bm.score("enrichment_factor", [0, 0], [0.1, 0.2], fraction=2, undefined="ignore")


# --- other arguments -----------------------------------------------------------------------
def test_bad_threshold() -> None:
    with pytest.raises(ValueError, match=r"threshold is NaN"):
        bm.evaluate(Y, S, threshold=float("nan"))
    with pytest.raises(TypeError, match=r"threshold must be a number, got 'high'"):
        bm.evaluate(Y, S, threshold="high")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"threshold is NaN"):
        bm.evaluate(Y, S).at_threshold(float("nan"))


def test_bad_undefined_policy() -> None:
    with pytest.raises(ValueError, match=r"undefined must be 'warn', 'raise' or 'ignore', got 'x'"):
        bm.evaluate(Y, S, undefined="x")  # type: ignore[arg-type]


def test_bad_family() -> None:
    with pytest.raises(ValueError, match=r"family must be one of .*got 'threshold'"):
        list(bm.iter_measures("threshold"))  # type: ignore[arg-type]


def test_best_threshold_needs_a_confusion_measure_with_a_direction() -> None:
    ev = bm.evaluate(Y, S)
    with pytest.raises(ValueError, match=r"auc is a ranking measure"):
        ev.best_threshold("auc")
    with pytest.raises(ValueError, match=r"prevalence has no direction"):
        ev.best_threshold("prevalence")
    with pytest.raises(ValueError, match=r"brier is a probabilistic measure"):
        ev.threshold_curves().measure("brier")


def test_unknown_pr_area_method() -> None:
    with pytest.raises(ValueError, match=r"unknown PR area method 'simpson'"):
        bm.evaluate(Y, S).pr().area("simpson")


# --- accepted label encodings ----------------------------------------------------------------
REFERENCE_Y = np.array([1, 0, 1, 0, 1, 0])


@pytest.mark.parametrize(
    ("labels", "pos_label"),
    [
        ([1, 0, 1, 0, 1, 0], None),
        (np.array([1, 0, 1, 0, 1, 0]), None),
        (np.array([1.0, 0.0, 1.0, 0.0, 1.0, 0.0]), None),
        (np.array([True, False, True, False, True, False]), None),
        ([True, False, True, False, True, False], True),
        (np.array([False, True, False, True, False, True]), False),
        ([1, -1, 1, -1, 1, -1], None),
        (np.array([1, -1, 1, -1, 1, -1], dtype=np.int8), None),
        (pd.Series([1, 0, 1, 0, 1, 0], index=[10, 11, 12, 13, 14, 15]), None),
        (pd.Series([True, False, True, False, True, False]), None),
        (pd.Series(["spam", "ham", "spam", "ham", "spam", "ham"]), "spam"),
        (pd.Categorical(["spam", "ham", "spam", "ham", "spam", "ham"]), "spam"),
        (["spam", "ham", "spam", "ham", "spam", "ham"], "spam"),
        (np.array(["ham", "spam", "ham", "spam", "ham", "spam"]), "ham"),
        ([0, 1, 0, 1, 0, 1], 0),
        ([2, 1, 2, 1, 2, 1], 2),
        (np.array([[1], [0], [1], [0], [1], [0]]), None),
    ],
    ids=[
        "list", "int_array", "float_array", "bool_array", "bool_list_pos_true",
        "bool_pos_false", "minus_one_one", "int8_minus_one_one", "series_odd_index",
        "bool_series", "string_series", "categorical", "string_list", "string_array",
        "pos_label_zero", "ints_with_pos_label", "column_vector",
    ],
)
def test_label_encodings_that_work(labels: Any, pos_label: Any) -> None:
    expected = quiet_dict(bm.evaluate(REFERENCE_Y, S))
    ev = bm.evaluate(labels, S, pos_label=pos_label)
    assert_same(quiet_dict(ev), expected)
    assert ev.table.equals(bm.CountTable.from_arrays(labels, S, pos_label=pos_label))


def test_scores_as_series_and_ints_work() -> None:
    expected = quiet_dict(bm.evaluate(Y, [1, 0, 1, 0, 0, 1]))
    assert_same(quiet_dict(bm.evaluate(Y, pd.Series([1, 0, 1, 0, 0, 1]))), expected)
    assert_same(quiet_dict(bm.evaluate(Y, [True, False, True, False, False, True])), expected)


def test_pos_label_is_reported() -> None:
    ev = bm.evaluate(["spam", "ham"] * 3, S, pos_label="spam")
    assert ev.pos_label == "spam"
    assert bm.evaluate(Y, S).pos_label == 1


def test_single_class_with_a_standard_encoding_needs_no_pos_label() -> None:
    ev = bm.evaluate([0, 0, 0], [0.1, 0.5, 0.9], undefined="ignore")
    assert ev.table.P == 0 and ev.table.N == 3
    ev = bm.evaluate([0, 0, 0], [0.1, 0.5, 0.9], pos_label=1, undefined="ignore")
    assert ev.table.P == 0


def test_pandas_inputs_with_different_indexes_are_refused() -> None:
    """evaluate(Series, Series) paired rows by position with no word (AUC 0.84 against
    0.36 aligned); the indexes must agree, or the user says how rows pair."""
    y = pd.Series([1, 0, 1, 0, 1, 0])
    p = pd.Series([.9, .2, .6, .4, .7, .3], index=[5, 4, 3, 2, 1, 0])
    with pytest.raises(ValueError, match=r"^y_true and y_score are pandas objects with "
                                         r"different indexes \(\[0, 1, 2, \.\.\.\] and "
                                         r"\[5, 4, 3, \.\.\.\]\).*reset_index"):
        bm.evaluate(y, p)
    with pytest.raises(ValueError, match=r"^y_true and scores\['a'\] are pandas objects"):
        bm.compare(y, {"a": p, "b": p.to_numpy()})
    with pytest.raises(ValueError, match=r"^y_true and sample_weight are pandas objects"):
        bm.evaluate(y, p.to_numpy(), sample_weight=pd.Series(1.0, index=p.index))
    # the same index in another order is refused too; aligned, or NumPy, pairs as given
    assert bm.evaluate(y, p.sort_index())["auc"] == bm.evaluate(y.to_numpy(), p.sort_index()
                                                               .to_numpy())["auc"]
    assert bm.evaluate(y, p.to_numpy())["auc"] == 1.0
