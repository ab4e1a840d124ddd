"""One door for models scored on the same rows: every paired function checks its input
with ``validation.check_paired_inputs``, so the same bad input gives the same error
(type and words) from each, ``nan_policy="omit"`` keeps the same rows in each, and a
row of weight 0 is the same as no row in each (docs/conventions.md, "Models scored on
the same rows")."""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.inference import delong_contrast
from binmetrics.validation import check_models, check_nan_policy, check_paired_inputs

rng = np.random.default_rng(26)
N = 40
Y = np.r_[np.ones(N // 2, int), np.zeros(N // 2, int)]
A = Y + rng.normal(0, 0.8, N)
B = Y + rng.normal(0, 1.5, N)
W = rng.integers(1, 4, N).astype(float)  # whole numbers: McNemar's exact test takes them


def _quiet(f: Callable[[], Any]) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f()


# Every public function that takes two models' scores on the same rows, called as
# f(y, score_a, score_b, **options), and the numbers of its result. "names" are what
# messages call score_b; "weights" is False for a test that takes none.
PairedFn = Callable[..., Any]
FUNCTIONS: dict[str, dict[str, Any]] = {
    "compare": dict(
        call=lambda y, a, b, **kw: bm.compare(y, {"a": a, "b": b}, **kw),
        numbers=lambda r: [(x.estimate, x.pvalue, x.statistic) for x in r.results],
        name="scores['b']"),
    "compare_bootstrap": dict(
        call=lambda y, a, b, **kw: bm.compare(y, [a, b], measures=["mcc", "auc"],
                                              method="bootstrap", n_resamples=60,
                                              random_state=1, **kw),
        numbers=lambda r: [(x.estimate, x.pvalue, x.ci.low, x.ci.high) for x in r.results],
        name="scores[1]"),
    "delong_test": dict(
        call=lambda y, a, b, **kw: bm.delong_test(y, a, b, **kw),
        numbers=lambda r: (r.value_a, r.value_b, r.statistic, r.pvalue),
        name="score_b"),
    "delong_contrast": dict(
        call=lambda y, a, b, **kw: delong_contrast(y, {"a": a, "b": b}, **kw),
        numbers=lambda r: (*r.values.tolist(), r.statistic, r.pvalue),
        name="scores['b']"),
    "mcnemar_test": dict(
        call=lambda y, a, b, **kw: bm.mcnemar_test(y, a, b, threshold=0.5, **kw),
        numbers=lambda r: (r.b, r.c, r.n, r.statistic, r.pvalue),
        name="score_b"),
    "roc_test_delong": dict(
        call=lambda y, a, b, **kw: bm.roc_test(y, a, b, **kw),
        numbers=lambda r: (r.value_a, r.value_b, r.statistic, r.pvalue),
        name="score_b"),
    "roc_test_bootstrap": dict(
        call=lambda y, a, b, **kw: bm.roc_test(y, a, b, method="bootstrap", n_resamples=60,
                                               random_state=2, **kw),
        numbers=lambda r: (r.value_a, r.value_b, r.statistic, r.pvalue),
        name="score_b"),
    "roc_test_venkatraman": dict(
        call=lambda y, a, b, **kw: bm.roc_test(y, a, b, method="venkatraman", n_resamples=40,
                                               random_state=3, **kw),
        numbers=lambda r: (r.value_a, r.value_b, r.statistic, r.pvalue),
        name="score_b", weights=False),
    "power_roc_test": dict(
        call=lambda y, a, b, **kw: bm.power_roc_test(y, a, b, power=0.9, **kw),
        numbers=lambda r: (r.n_cases, r.n_controls, *r.auc),
        name="score_b"),
}
WEIGHTED = [k for k, v in FUNCTIONS.items() if v.get("weights", True)]


def _with(row: int, value: float, x: Any = B) -> np.ndarray:
    out = np.array(x, dtype=float)
    out[row] = value
    return out


# bad input -> (arguments, error type, words every function's message holds)
BAD: dict[str, tuple[dict[str, Any], type[Exception], str]] = {
    "lengths differ": (dict(b=B[:-1]), ValueError,
                       rf"y_true and {{name}} have different lengths: {N} and {N - 1}; "
                       "every model must score the same rows"),
    "NaN score": (dict(b=_with(2, math.nan)), ValueError,
                  r"{name} has 1 non-finite value \(1 NaN, 0 infinite\) at rows \[2\] "
                  r"\(0-based\); pass nan_policy='omit' to drop those rows from every model"),
    "inf score": (dict(b=_with(5, -math.inf)), ValueError,
                  r"{name} has 1 non-finite value \(0 NaN, 1 infinite\) at rows \[5\]"),
    "NaN label": (dict(y=_with(3, math.nan, Y)), ValueError,
                  r"y_true has 1 missing label \(NaN/None\) at rows \[3\] \(0-based\); drop"),
    "three labels": (dict(y=_with(3, 2.0, Y)), ValueError,
                     r"y_true must hold exactly two classes; found 3 distinct values: "
                     r"\[0\.0, 1\.0, 2\.0\]"),
    "empty": (dict(y=[], a=[], b=[]), ValueError, "y_true is empty"),
    "text scores": (dict(b=np.array(["x"] * N)), TypeError, "{name} must be numeric"),
    "nan_policy": (dict(nan_policy="drop"), ValueError,
                   "nan_policy must be 'raise' or 'omit', got 'drop'"),
    "pos_label": (dict(pos_label=7), ValueError, r"pos_label=7 does not occur in y_true"),
}
BAD_WEIGHTS: dict[str, tuple[Any, str]] = {
    "negative weight": (_with(4, -1.0, W), r"sample_weight has 1 negative value at rows \[4\]"
                        r" \(0-based\) \(smallest -1\.0\); weights must be >= 0"),
    "NaN weight": (_with(6, math.nan, W), r"sample_weight has 1 non-finite value \(NaN or "
                   r"inf\) at rows \[6\] \(0-based\); give every row a finite weight"),
    "weights of another length": (W[:-2], rf"sample_weight has {N - 2} values but y_true "
                                  rf"has {N} rows"),
    "zero weights only": (np.zeros(N), "sample_weight sums to 0"),
}


def _call(fn: str, y: Any = Y, a: Any = A, b: Any = B, **kw: Any) -> Any:
    return FUNCTIONS[fn]["call"](y, a, b, **kw)


def _error(fn: str, **args: Any) -> BaseException:
    with pytest.raises(Exception) as info:
        _call(fn, **args)
    return info.value


@pytest.mark.parametrize("case", list(BAD))
@pytest.mark.parametrize("fn", list(FUNCTIONS))
def test_the_same_bad_input_gives_the_same_error(fn: str, case: str) -> None:
    args, exc, words = BAD[case]
    err = _error(fn, **args)
    assert type(err) is exc
    msg = str(err)
    assert "\n" not in msg
    assert re.search(words.format(name=re.escape(FUNCTIONS[fn]["name"])), msg), msg


@pytest.mark.parametrize("case", list(BAD_WEIGHTS))
@pytest.mark.parametrize("fn", WEIGHTED)
def test_the_same_bad_weights_give_the_same_error(fn: str, case: str) -> None:
    w, words = BAD_WEIGHTS[case]
    err = _error(fn, sample_weight=w)
    assert type(err) is ValueError
    assert "\n" not in str(err)
    assert re.search(words, str(err)), str(err)


def test_venkatraman_takes_no_weights() -> None:
    with pytest.raises(ValueError, match="takes no sample weights; repeat the rows"):
        _call("roc_test_venkatraman", sample_weight=W)


def test_every_message_is_the_same_across_functions() -> None:
    """Beyond the words checked above: apart from the model's name, the messages are
    identical, character for character."""
    for case, (args, _, _) in BAD.items():
        texts = {str(_error(fn, **args)).replace(FUNCTIONS[fn]["name"], "<b>")
                 for fn in FUNCTIONS}
        assert len(texts) == 1, (case, texts)
    for case, (w, _) in BAD_WEIGHTS.items():
        texts = {str(_error(fn, sample_weight=w)) for fn in WEIGHTED}
        assert len(texts) == 1, (case, texts)


@pytest.mark.parametrize("fn", list(FUNCTIONS))
def test_omit_drops_a_row_from_every_model(fn: str) -> None:
    # a NaN in B's row 2 and an infinite score in A's row 7: both rows go, for both
    a, b = _with(7, math.inf, A), _with(2, math.nan, B)
    with pytest.warns(UserWarning, match=r"nan_policy='omit': dropped 2 rows with a "
                                         r"non-finite score in some model \(from every model\)"):
        got = _quiet_after_omit(fn, a, b)
    keep = np.ones(N, bool)
    keep[[2, 7]] = False
    want = _quiet(lambda: _call(fn, Y[keep], A[keep], B[keep]))
    assert FUNCTIONS[fn]["numbers"](got) == FUNCTIONS[fn]["numbers"](want)


def _quiet_after_omit(fn: str, a: np.ndarray, b: np.ndarray) -> Any:
    """The omit call, letting only the omit warning through."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warnings.filterwarnings("always", message="nan_policy='omit'", category=UserWarning)
        return _call(fn, a=a, b=b, nan_policy="omit")


def test_omit_leaves_the_labels_of_dropped_rows_unchecked() -> None:
    """As for one model (``bm.evaluate``): rows dropped for their score are gone before
    the labels are checked."""
    y = _with(2, math.nan, Y)
    b = _with(2, math.nan, B)
    for fn in FUNCTIONS:
        with pytest.warns(UserWarning, match="dropped 1 row "):
            _quiet_after_omit_y(fn, y, b)
    with pytest.warns(UserWarning, match="dropped 1 row "):
        bm.evaluate(y, b, nan_policy="omit")


def _quiet_after_omit_y(fn: str, y: np.ndarray, b: np.ndarray) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warnings.filterwarnings("always", message="nan_policy='omit'", category=UserWarning)
        return _call(fn, y=y, b=b, nan_policy="omit")


def test_omit_with_nothing_left() -> None:
    for fn in FUNCTIONS:
        err = _error(fn, a=np.full(N, np.nan), nan_policy="omit")
        assert "every row has a NaN or infinite score in some model" in str(err)


@pytest.mark.parametrize("fn", WEIGHTED)
def test_a_row_of_weight_zero_is_a_row_that_is_not_there(fn: str) -> None:
    w = W.copy()
    zero = np.array([0, 5, 21, 22, 39])
    w[zero] = 0.0
    keep = np.ones(N, bool)
    keep[zero] = False
    got = _quiet(lambda: _call(fn, sample_weight=w))
    want = _quiet(lambda: _call(fn, Y[keep], A[keep], B[keep], sample_weight=W[keep]))
    assert FUNCTIONS[fn]["numbers"](got) == FUNCTIONS[fn]["numbers"](want)


def test_zero_weights_against_an_independent_count() -> None:
    """McNemar's discordant counts by hand, the zero-weight rows left out."""
    w = W.copy()
    w[:6] = 0.0
    ok_a, ok_b = (A >= 0.5) == Y.astype(bool), (B >= 0.5) == Y.astype(bool)
    t = bm.mcnemar_test(Y, A, B, sample_weight=w)
    assert t.b == w[ok_a & ~ok_b].sum() and t.c == w[~ok_a & ok_b].sum()
    assert t.n == w.sum()


@pytest.mark.parametrize("fn", list(FUNCTIONS))
def test_pos_label_names_the_positive_class(fn: str) -> None:
    text = np.where(Y == 1, "sick", "well")
    got = _quiet(lambda: _call(fn, text, pos_label="sick"))
    want = _quiet(lambda: _call(fn))
    assert FUNCTIONS[fn]["numbers"](got) == FUNCTIONS[fn]["numbers"](want)
    err = _error(fn, y=text)
    assert "pass pos_label= to say which value is the positive class" in str(err)


@pytest.mark.parametrize("fn", ["mcnemar_test", "roc_test_venkatraman"])
def test_the_functions_that_let_bad_scores_through_before(fn: str) -> None:
    # mcnemar_test took inf as a score, the paired Venkatraman test a NaN in score_b
    with pytest.raises(ValueError, match=r"score_b has 1 non-finite value"):
        _call(fn, b=_with(0, math.inf))
    with pytest.raises(ValueError, match=r"score_b has 1 non-finite value"):
        _call(fn, b=_with(0, math.nan))


def test_check_paired_inputs_directly() -> None:
    w = np.array([1.0, 0.0, 2.0, 1.0])
    with pytest.warns(UserWarning, match="dropped 1 row "):
        inp = check_paired_inputs(["n", "p", "p", "n"],
                                  [[.1, .9, .8, np.nan], [.2, .3, .7, .4]],
                                  ["score_a", "score_b"], w, pos_label="p", nan_policy="omit")
    assert inp.y.tolist() == [False, True]  # row 3 omitted (NaN), row 1 weightless
    assert [s.tolist() for s in inp.scores] == [[.1, .8], [.2, .7]]
    assert inp.weight is not None and inp.weight.tolist() == [1.0, 2.0]
    assert (inp.pos_label, inp.n_omitted, inp.n_zero_weight) == ("p", 1, 1)
    # a label is checked even in a row of weight 0 (the row is wrong data, weight or not)
    with pytest.raises(ValueError, match="missing label"):
        check_paired_inputs([1, np.nan, 0], [[.1, .2, .3]] * 2, ["a", "b"], [1, 0, 1])
    # the rows left after omit must carry weight
    with pytest.raises(ValueError, match="the rows left after nan_policy='omit' carry no"):
        check_paired_inputs([1, 0, 1], [[np.nan, .2, np.nan], [.1, .2, .3]], ["a", "b"],
                            [1, 0, 1], nan_policy="omit")


def test_check_models_accepts_every_form_and_names_them() -> None:
    df = pd.DataFrame({"first": A, "second": B})
    names, arrays, labels = check_models(df, "f")
    assert names == ("first", "second") and labels == ["scores['first']", "scores['second']"]
    assert np.array_equal(arrays[1], B)
    names, arrays, labels = check_models(np.column_stack([A, B, A]), "f")
    assert names == ("model_0", "model_1", "model_2") and labels[2] == "scores[:, 2]"
    assert np.array_equal(arrays[1], B)
    names, arrays, labels = check_models([A, B, A], "f")
    assert labels[2] == "scores[2]"
    with pytest.raises(TypeError, match="a single model's scores"):
        check_models(A.tolist(), "f")
    with pytest.raises(ValueError, match=r"^f needs at least 2 models; got 1$"):
        check_models({"a": A}, "f")
    # delong_contrast reads a DataFrame as compare does (it read its column names before)
    t = delong_contrast(Y, df)
    assert t.names == ("first", "second")
    assert t.pvalue == bm.delong_test(Y, A, B).pvalue


def test_check_nan_policy() -> None:
    assert check_nan_policy("omit") == "omit"
    with pytest.raises(ValueError, match="nan_policy must be 'raise' or 'omit', got 'ignore'"):
        check_nan_policy("ignore")
    # the functions that had their own copy of the check now share this one
    with pytest.raises(ValueError, match="got 'ignore'"):
        bm.evaluate_multiclass([0, 1, 2], np.eye(3), nan_policy="ignore")
    with pytest.raises(ValueError, match="got 'ignore'"):
        bm.evaluate(Y, A, nan_policy="ignore")


def test_roc_test_paired_refuses_weights_of_a_second_sample() -> None:
    with pytest.raises(ValueError, match="paired curves share sample_weight"):
        bm.roc_test(Y, A, B, sample_weight_b=W)


def test_unpaired_roc_tests_take_nan_policy_and_pos_label() -> None:
    text = np.where(Y == 1, "sick", "well")
    b = _with(4, math.nan)
    with pytest.raises(ValueError, match="non-finite"):
        bm.roc_test(Y, A, b, paired=False)
    keep = np.arange(N) != 4
    for method in ("delong", "bootstrap", "venkatraman"):
        kw: dict[str, Any] = dict(method=method, paired=False, n_resamples=40, random_state=0)
        with pytest.warns(UserWarning, match="dropped 1 row"):
            got = _quiet_omit_unpaired(text, b, kw)
        want = _quiet(lambda kw=kw: bm.roc_test(Y, A, B[keep], y_b=Y[keep], **kw))
        assert (got.statistic, got.pvalue) == (want.statistic, want.pvalue)


def _quiet_omit_unpaired(text: np.ndarray, b: np.ndarray, kw: dict[str, Any]) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warnings.filterwarnings("always", message="nan_policy='omit'", category=UserWarning)
        return bm.roc_test(text, A, b, pos_label="sick", nan_policy="omit", **kw)


def test_a_2d_array_holds_one_model_per_column() -> None:
    """Read as one model per row, np.column_stack([a, b]) of 10 cases was 10 models of 2
    values."""
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 10)
    a, b = rng.random(10), rng.random(10)
    by_columns = bm.compare(y, np.column_stack([a, b]), measures="auc")
    by_dict = bm.compare(y, {"model_0": a, "model_1": b}, measures="auc")
    assert by_columns.names == ("model_0", "model_1")
    assert by_columns.results[0].pvalue == by_dict.results[0].pvalue
    with pytest.raises(ValueError, match=r"y_true and scores\[:, 0\] have different lengths: "
                                         r"10 and 2"):
        bm.compare(y, np.vstack([a, b]))  # one model per row: the transpose


def test_duplicate_model_names_are_named_as_such() -> None:
    """A DataFrame whose columns repeat a name said "compare needs at least 2 models; got 1"."""
    y = [1, 0, 1, 0, 1, 0]
    frame = pd.DataFrame([[.9, .8], [.2, .3], [.6, .7], [.4, .1], [.7, .6], [.3, .2]],
                         columns=["m", "m"])
    with pytest.raises(ValueError, match=r"^model names must be distinct; repeated: 'm'; "
                                         "rename the models"):
        bm.compare(y, frame)
