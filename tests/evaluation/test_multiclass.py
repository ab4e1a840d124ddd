"""Multiclass evaluation (issue 5): one-vs-rest averages and the native multiclass measures.

Checked against scikit-learn on random data with many ties (probabilities are
multiples of 1/20, so argmax ties occur too) and with sample weights, against the
worked numbers of docs/methods.md §5.1, and against the binary evaluation for two
classes.
"""

from __future__ import annotations

import contextlib
import math
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm
from sklearn.preprocessing import label_binarize

import binmetrics as bm
from binmetrics.evaluation.multiclass import (
    NATIVE_MEASURES,
    MulticlassEvaluation,
    evaluate_multiclass,
)

#: the warning of the default threshold 0.5 outside the scores (issue 33)
DEFAULT_CUT = r"threshold 0.5 \(the default\) is outside"


def random_case(seed: int, n: int = 300, k: int = 4, *, zero_free: bool = False,
                labels: Any = None) -> tuple[np.ndarray, np.ndarray, list[Any]]:
    """Labels and an (n, k) probability matrix of multiples of 1/20 (ties in every
    column and in the argmax), informative about the labels; every class occurs."""
    rng = np.random.default_rng(seed)
    classes = list(range(k)) if labels is None else list(labels)
    counts = rng.multinomial(20 - (k if zero_free else 0), rng.dirichlet(np.ones(k), size=n))
    if zero_free:
        counts += 1
    proba = counts / 20.0
    truth = np.array([rng.choice(k, p=0.5 * row + 0.5 / k) for row in proba])
    truth[:k] = np.arange(k)  # every class present
    return np.array(classes)[truth], proba, classes


def quiet(mev: MulticlassEvaluation, *args: Any, **kw: Any) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", bm.UndefinedMeasureWarning)
        warnings.simplefilter("ignore", bm.MeasureCaveatWarning)
        return mev.value(*args, **kw)


def argmax_labels(proba: np.ndarray, classes: list[Any]) -> np.ndarray:
    # the paper's rule, section 3.3: the class with the highest probability (first on ties)
    return np.array(classes)[np.argmax(proba, axis=1)]


CASES = [(seed, weighted) for seed in (0, 1, 2) for weighted in (False, True)]
CASE_IDS = [f"seed{s}-{'weighted' if w else 'unweighted'}" for s, w in CASES]


@pytest.fixture(params=CASES, ids=CASE_IDS)
def case(request: pytest.FixtureRequest) -> dict[str, Any]:
    seed, weighted = request.param
    labels = ["ant", "bee", "cat", "dog"] if seed == 1 else None
    y, proba, classes = random_case(seed, labels=labels)
    w = np.random.default_rng(100 + seed).uniform(0.1, 3.0, y.size) if weighted else None
    mev = evaluate_multiclass(y, proba, sample_weight=w)
    return {"y": y, "proba": proba, "classes": classes, "w": w, "mev": mev,
            "pred": argmax_labels(proba, classes)}


# --- native multiclass measures -------------------------------------------------------------
def test_the_data_has_argmax_ties() -> None:
    _, proba, _ = random_case(0)
    top = proba.max(axis=1, keepdims=True)
    assert ((proba == top).sum(axis=1) > 1).sum() > 10


def test_native_confusion_measures_match_sklearn(case: dict[str, Any]) -> None:
    y, pred, w, mev = case["y"], case["pred"], case["w"], case["mev"]
    want = {
        "accuracy": skm.accuracy_score(y, pred, sample_weight=w),
        "error_rate": 1.0 - skm.accuracy_score(y, pred, sample_weight=w),
        "balanced_accuracy": skm.balanced_accuracy_score(y, pred, sample_weight=w),
        "mcc": skm.matthews_corrcoef(y, pred, sample_weight=w),
        "kappa": skm.cohen_kappa_score(y, pred, sample_weight=w),
    }
    for mid, expected in want.items():
        assert mev[mid] == pytest.approx(expected, rel=1e-12, abs=1e-12), mid
    assert mev["mcc"] not in (0.0, 1.0) and 0 < mev["kappa"] < 1  # a real test


def test_confusion_matrix_matches_sklearn(case: dict[str, Any]) -> None:
    y, pred, w, mev, classes = case["y"], case["pred"], case["w"], case["mev"], case["classes"]
    want = skm.confusion_matrix(y, pred, labels=classes, sample_weight=w)
    cm = mev.confusion_matrix
    assert cm.index.tolist() == classes and cm.columns.tolist() == classes
    np.testing.assert_allclose(cm.to_numpy(), want, rtol=1e-12)
    assert (cm.to_numpy().dtype.kind == "f") == (w is not None)
    np.testing.assert_allclose(mev.support.to_numpy(), want.sum(axis=1), rtol=1e-12)


def test_brier_matches_numpy_and_sklearn(case: dict[str, Any]) -> None:
    y, proba, w, mev, classes = case["y"], case["proba"], case["w"], case["mev"], case["classes"]
    onehot = label_binarize(y, classes=classes)
    manual = np.average(((proba - onehot) ** 2).sum(axis=1), weights=w)  # paper Table 5
    assert mev["brier"] == pytest.approx(manual, rel=1e-12)
    sk = skm.brier_score_loss(y, proba, labels=classes, sample_weight=w)
    assert mev["brier"] == pytest.approx(sk, rel=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
def test_log_loss_matches_sklearn_in_bits(weighted: bool) -> None:
    y, proba, classes = random_case(5, zero_free=True)
    w = np.random.default_rng(7).uniform(0.2, 2.0, y.size) if weighted else None
    mev = evaluate_multiclass(y, proba, sample_weight=w)
    nats = skm.log_loss(y, proba, labels=classes, sample_weight=w)
    assert mev["log_loss"] == pytest.approx(nats / math.log(2), rel=1e-12)  # base 2
    assert mev.value("log_loss", base=math.e) == pytest.approx(nats, rel=1e-12)


def test_log_loss_clips_as_the_binary_log_loss() -> None:
    # a true-class probability of 0: log(max(0, eps)), eps = 1e-15 as in the binary measure
    mev = evaluate_multiclass([0, 1], [[0.0, 1.0], [0.0, 1.0]])
    assert mev["log_loss"] == pytest.approx(-math.log2(1e-15) / 2, rel=1e-12)
    with pytest.warns(UserWarning, match=DEFAULT_CUT):  # both scores 1.0
        binary = bm.evaluate([0, 1], [1.0, 1.0])
    assert mev["log_loss"] == pytest.approx(binary["log_loss"], rel=1e-12)


# --- one-vs-rest averages ------------------------------------------------------------------
@pytest.mark.parametrize("average", ["macro", "weighted", "micro"])
def test_precision_recall_f1_match_sklearn(case: dict[str, Any], average: str) -> None:
    y, pred, w, mev = case["y"], case["pred"], case["w"], case["mev"]
    for mid, func in (("precision", skm.precision_score), ("recall", skm.recall_score),
                      ("f1", skm.f1_score)):
        want = func(y, pred, average=average, sample_weight=w)
        assert mev.value(mid, average=average) == pytest.approx(want, rel=1e-12), mid
    want_b2 = skm.fbeta_score(y, pred, beta=2, average=average, sample_weight=w)
    assert mev.value("fbeta", average=average, beta=2) == pytest.approx(want_b2, rel=1e-12)


def test_default_average_is_weighted_and_settable(case: dict[str, Any]) -> None:
    y, pred, w, mev, proba = case["y"], case["pred"], case["w"], case["mev"], case["proba"]
    assert mev.average == "weighted"
    assert mev["f1"] == pytest.approx(skm.f1_score(y, pred, average="weighted", sample_weight=w),
                                      rel=1e-12)
    macro = evaluate_multiclass(y, proba, sample_weight=w, average="macro")
    assert macro["f1"] == pytest.approx(skm.f1_score(y, pred, average="macro", sample_weight=w),
                                        rel=1e-12)


@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_ovr_auc_matches_sklearn(case: dict[str, Any], average: str) -> None:
    y, proba, w, mev = case["y"], case["proba"], case["w"], case["mev"]
    want = skm.roc_auc_score(y, proba, multi_class="ovr", average=average, sample_weight=w,
                             labels=case["classes"])
    assert mev.value("auc", average=average) == pytest.approx(want, rel=1e-12)


def test_per_class_auc_matches_sklearn(case: dict[str, Any]) -> None:
    y, proba, w, mev, classes = case["y"], case["proba"], case["w"], case["mev"], case["classes"]
    got = mev.per_class("auc")
    assert got.index.tolist() == classes and got.name == "auc"
    for c, cls in enumerate(classes):
        want = skm.roc_auc_score(y == cls, proba[:, c], sample_weight=w)
        assert got[cls] == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("average", ["macro", "weighted", "micro"])
def test_average_precision_matches_sklearn(case: dict[str, Any], average: str) -> None:
    y, proba, w, mev = case["y"], case["proba"], case["w"], case["mev"]
    onehot = label_binarize(y, classes=case["classes"])
    want = skm.average_precision_score(onehot, proba, average=average, sample_weight=w)
    assert mev.value("average_precision", average=average) == pytest.approx(want, rel=1e-12)
    if average == "macro":  # Berrar's mean average precision
        assert mev.mean_average_precision == pytest.approx(want, rel=1e-12)


def test_micro_auc_and_brier_use_the_pooled_pairs(case: dict[str, Any]) -> None:
    y, proba, w, mev = case["y"], case["proba"], case["w"], case["mev"]
    onehot = label_binarize(y, classes=case["classes"])
    ww = None if w is None else np.repeat(w, proba.shape[1])
    want = skm.roc_auc_score(onehot.ravel(), proba.ravel(), sample_weight=ww)
    assert mev.value("auc", average="micro") == pytest.approx(want, rel=1e-12)
    # the pooled Brier score is the native one divided by k
    assert mev.value("brier", average="micro") == pytest.approx(mev["brier"] / proba.shape[1],
                                                                 rel=1e-12)


def test_micro_confusion_measures_are_the_accuracy(case: dict[str, Any]) -> None:
    mev = case["mev"]
    for mid in ("precision", "recall", "f1"):
        assert mev.value(mid, average="micro") == pytest.approx(mev["accuracy"], rel=1e-12)


def test_weighted_average_weights_by_support(case: dict[str, Any]) -> None:
    mev = case["mev"]
    per = mev.per_class("mcc")  # the binary MCC of each class
    want = np.average(per.to_numpy(), weights=mev.support.to_numpy())
    assert mev.value("mcc", average="weighted") == pytest.approx(want, rel=1e-12)
    assert mev.value("mcc", average="macro") == pytest.approx(per.mean(), rel=1e-12)
    assert mev["mcc"] != pytest.approx(want)  # the native MCC is something else


def test_every_registered_measure_is_available() -> None:
    y, proba, _ = random_case(3, zero_free=True)
    mev = evaluate_multiclass(y, proba)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", bm.MeasureCaveatWarning)
        d = mev.to_dict()
        frame = mev.to_frame(average="macro")
        pcf = mev.per_class_frame()
    ids = [m.id for m in bm.iter_measures()]
    assert list(d) == ids and frame.id.tolist() == ids and pcf.index.tolist() == ids
    assert set(frame.loc[frame.average == "native", "id"]) == set(NATIVE_MEASURES)
    assert set(frame.loc[frame.average != "native", "average"]) == {"macro"}
    assert np.isfinite(list(d.values())).all()
    assert pcf.shape == (len(ids), 4)
    for mid in ("auc", "ppv", "log_loss"):
        np.testing.assert_array_equal(pcf.loc[mid].to_numpy(), mev.per_class(mid).to_numpy())
    direction = dict(zip(frame.id, frame.direction, strict=True))
    assert direction["brier"] == -1 and direction["auc"] == 1


def test_native_values_on_request_and_ovr_on_explicit_average(case: dict[str, Any]) -> None:
    mev = case["mev"]
    ovr_acc = mev.per_class("accuracy")  # one-vs-rest binary accuracies
    assert mev.value("accuracy", average="macro") == pytest.approx(ovr_acc.mean(), rel=1e-12)
    assert mev.value("accuracy", average="native") == mev["accuracy"]
    assert mev.to_dict(measures=["accuracy"], native=False)["accuracy"] == pytest.approx(
        np.average(ovr_acc, weights=mev.support), rel=1e-12)
    with pytest.raises(ValueError, match=r"auc has no native multiclass form"):
        mev.value("auc", average="native")
    with pytest.raises(ValueError, match=r"per_class"):
        mev.value("auc", average="none")
    with pytest.raises(ValueError, match=r"average must be one of"):
        mev.value("auc", average="samples")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"multiclass log_loss takes no parameter beta"):
        mev.value("log_loss", beta=2)


# --- docs/methods.md §5.1 -------------------------------------------------------------------
KB_Y = ["a", "b", "c", "a", "b"]
KB_P = [[.7, .2, .1], [.6, .3, .1], [.1, .2, .7], [.2, .5, .3], [.1, .9, 0.0]]


def test_information_score_worked_example() -> None:
    mev = evaluate_multiclass(KB_Y, KB_P)
    pr = {"prior": "train", "priors": [.5, .3, .2]}
    ia = mev.value("information_score", **pr)
    assert ia == pytest.approx(0.639934, abs=5e-7)
    assert 5 * ia == pytest.approx(3.199672, abs=5e-6)  # sum of I
    ir = mev.value("relative_information_score", **pr)
    assert round(100 * ir, 2) == 43.08
    assert ia / ir == pytest.approx(1.485475, abs=5e-7)  # E
    assert 100 * 5 * ia / (ia / ir) == pytest.approx(215.40, abs=5e-3)  # Weka-style
    # training counts give the same priors
    same = mev.value("information_score", prior="train", prior_counts=[5, 3, 2])
    assert same == pytest.approx(ia, rel=1e-12)
    # the per-case values of docs/methods.md §5.1
    per_case = np.array([0.485427, 0.0, 1.807355, -0.678072, 1.584963])
    assert per_case.mean() == pytest.approx(ia, abs=1e-6)


def test_information_score_laplace_priors() -> None:
    mev = evaluate_multiclass(KB_Y, KB_P)
    ia = mev.value("information_score", prior="laplace", prior_counts=[5, 3, 2])
    ir = mev.value("relative_information_score", prior="laplace", prior_counts=[5, 3, 2])
    assert 5 * ia == pytest.approx(3.163146, abs=5e-6)
    assert ia / ir == pytest.approx(1.526235, abs=5e-7)
    assert 100 * 5 * ia / (ia / ir) == pytest.approx(207.25, abs=5e-3)


def test_information_score_test_priors_and_base() -> None:
    mev = evaluate_multiclass(KB_Y, KB_P)
    # test priors: the data's class frequencies (.4, .4, .2)
    explicit = mev.value("information_score", prior="train", priors=[.4, .4, .2])
    assert mev["information_score"] == pytest.approx(explicit, rel=1e-12)
    nats = mev.value("information_score", base=math.e)
    assert nats == pytest.approx(mev["information_score"] * math.log(2), rel=1e-12)
    # laplace without counts uses the data's counts (2, 2, 1): (3, 3, 2) / 8
    lap = mev.value("information_score", prior="laplace")
    assert lap == pytest.approx(
        mev.value("information_score", prior="train", priors=[3 / 8, 3 / 8, 2 / 8]), rel=1e-12)


def test_information_score_prior_errors() -> None:
    mev = evaluate_multiclass(KB_Y, KB_P)
    with pytest.raises(ValueError, match=r"prior='train' needs exactly one of"):
        mev.value("information_score", prior="train")
    with pytest.raises(ValueError, match=r"pass prior='train'"):
        mev.value("information_score", priors=[.5, .3, .2])
    with pytest.raises(ValueError, match=r"priors has 2 values but there are 3 classes"):
        mev.value("information_score", prior="train", priors=[.5, .5])
    with pytest.raises(ValueError, match=r"priors must sum to 1"):
        mev.value("information_score", prior="train", priors=[.5, .3, .3])
    with pytest.raises(ValueError, match=r"prior must be 'test', 'train' or 'laplace'"):
        mev.value("information_score", prior=0.3)
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"prior of a true class is 0 or 1"):
        v = mev.value("information_score", prior="train", priors=[.5, .5, 0.0])
    assert math.isnan(v)


# --- two classes: the binary evaluation of column 1 --------------------------------------------
def two_class_case(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    s = rng.integers(0, 21, 200) / 20.0
    y = (rng.uniform(size=200) < 0.2 + 0.6 * s).astype(int)
    return y, s, np.column_stack([1.0 - s, s])


@pytest.mark.parametrize("weighted", [False, True])
def test_two_columns_agree_with_the_binary_evaluation(weighted: bool) -> None:
    y, s, proba = two_class_case(11)
    w = np.random.default_rng(3).uniform(0.5, 2.0, y.size) if weighted else None
    mev = evaluate_multiclass(y, proba, sample_weight=w)
    # argmax gives class 1 iff s > 0.5 (a tie at 0.5 goes to column 0)
    ev = bm.evaluate(y, s, sample_weight=w, threshold=np.nextafter(0.5, 1.0))
    with warnings.catch_warnings(), contextlib.ExitStack() as expected:
        warnings.simplefilter("ignore", bm.MeasureCaveatWarning)
        if weighted:  # the lowess family takes integer weights only: NaN, said once each
            expected.enter_context(pytest.warns(bm.UndefinedMeasureWarning,
                                                match="lowess smoother takes integer"))
        binary = ev.to_dict()
        per_class = mev.per_class_frame()[1]
    for m in bm.iter_measures():  # NaN in both: the lowess family with fractional weights
        assert per_class[m.id] == pytest.approx(binary[m.id], rel=1e-9, abs=1e-12,
                                                nan_ok=True), m.id
    assert mev["log_loss"] == pytest.approx(ev["log_loss"], rel=1e-12)
    assert mev["information_score"] == pytest.approx(ev["information_score"], rel=1e-12)
    assert mev["relative_information_score"] == pytest.approx(
        ev["relative_information_score"], rel=1e-12)
    assert mev["brier"] == pytest.approx(2 * ev["brier"], rel=1e-12)  # summed over 2 columns
    for mid in ("accuracy", "mcc", "kappa", "balanced_accuracy"):
        assert mev[mid] == pytest.approx(ev[mid], rel=1e-12), mid
    # column 0 ranks in reverse: the same AUC
    assert mev.per_class("auc")[0] == pytest.approx(ev["auc"], rel=1e-12)


# --- bm.evaluate dispatches --------------------------------------------------------------------
def test_evaluate_dispatches_on_a_probability_matrix() -> None:
    y, proba, classes = random_case(4, n=60, k=3)
    direct = evaluate_multiclass(y, proba)
    import polars as pl

    for given in (proba, proba.tolist(), pd.DataFrame(proba), pl.DataFrame(proba)):
        mev = bm.evaluate(y, given)
        assert isinstance(mev, MulticlassEvaluation)
        assert mev.classes == classes
        assert mev["auc"] == direct["auc"] and mev["kappa"] == direct["kappa"]
    w = np.arange(1.0, 61.0)
    assert bm.evaluate(y, proba, sample_weight=w)["mcc"] == evaluate_multiclass(
        y, proba, sample_weight=w)["mcc"]


def test_evaluate_keeps_binary_input_binary() -> None:
    y = [1, 0, 1, 0, 1, 0]
    s = [0.9, 0.2, 0.6, 0.4, 0.35, 0.7]
    assert isinstance(bm.evaluate(y, s), bm.Evaluation)
    col = bm.evaluate(y, np.asarray(s).reshape(-1, 1))  # a column vector is a binary score
    assert isinstance(col, bm.Evaluation) and col["auc"] == bm.evaluate(y, s)["auc"]


def test_evaluate_refuses_binary_options_with_a_matrix() -> None:
    proba = np.full((4, 3), 1 / 3)
    with pytest.raises(ValueError, match=r"threshold, pi0 cannot be used with a probability "
                                         r"matrix \(y_score of shape \(4, 3\)\)"):
        bm.evaluate([0, 1, 2, 1], proba, threshold=0.3, pi0=0.2)
    with pytest.raises(ValueError, match=r"pos_label cannot be used"):
        bm.evaluate([0, 1, 2, 1], proba, pos_label=1)


def test_a_predict_proba_pair_is_a_binary_score() -> None:
    """scikit-learn's predict_proba of a binary classifier: the second column is the
    probability of the larger label, evaluated as binary (not two one-vs-rest classes)."""
    y, s, proba = two_class_case(5)
    ev = bm.evaluate(y, proba, threshold=0.3)
    assert isinstance(ev, bm.Evaluation)
    assert ev.table.equals(bm.evaluate(y, s).table) and ev.threshold == 0.3
    labels = np.where(y == 1, "yes", "no")
    named = bm.evaluate(labels, proba)
    assert named.pos_label == "yes" and named["brier"] == bm.evaluate(y, s)["brier"]
    assert isinstance(evaluate_multiclass(y, proba), MulticlassEvaluation)  # when asked


# --- bad input -----------------------------------------------------------------------------------
P3 = np.array([[.2, .3, .5], [.6, .2, .2], [.1, .8, .1], [.3, .3, .4]])
Y3 = [2, 0, 1, 1]


@pytest.mark.parametrize(("proba", "message"), [
    (np.array([[.2, .3, .6], [.6, .2, .2], [.1, .8, .3], [.3, .3, .4]]),
     r"2 rows do not, at rows \[0, 2\] \(0-based\); the worst, row 2, sums to 1\.2"),
    (np.array([[.2, .3, .5], [.6, .2, .2], [.1, .8, .1]]),
     r"different numbers of rows: 4 and 3"),
    (np.array([[1.0], [1.0], [1.0], [1.0]]), r"y_proba has 1 column\(s\)"),
    (np.array([.2, .3, .5, .4]), r"y_proba must be 2-D.*shape \(4,\)"),
    (np.array([[.2, .3, .5], [np.nan, .2, .2], [.1, .8, .1], [.3, np.inf, .4]]),
     r"2 rows with NaN or infinite values at rows \[1, 3\] \(0-based\); pass nan_policy='omit'"),
    (np.array([[.2, .3, .5], [1.2, -.2, 0.0], [.1, .8, .1], [.3, .3, .4]]),
     r"probabilities in \[0, 1\]; 2 values in 1 row lie outside it \(min -0\.2, max 1\.2"),
    (np.array([["a", "b", "c"]] * 4), r"y_proba must be numeric"),
], ids=["row_sums", "lengths", "one_column", "one_dim", "nan", "outside", "strings"])
def test_bad_probability_matrices(proba: np.ndarray, message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        evaluate_multiclass(Y3, proba)


def test_nan_rows_can_be_omitted() -> None:
    proba = np.vstack([P3, [np.nan, 0.5, 0.5]])
    with pytest.warns(UserWarning, match=r"dropped 1 row"):
        mev = evaluate_multiclass([*Y3, 0], proba, nan_policy="omit",
                                  sample_weight=[1, 2, 3, 4, 5])
    ref = evaluate_multiclass(Y3, P3, sample_weight=[1, 2, 3, 4])
    assert mev.n_omitted == 1 and mev.n_rows == 4
    assert mev["brier"] == ref["brier"] and mev["mcc"] == ref["mcc"]
    with pytest.raises(ValueError, match=r"nan_policy must be"):
        evaluate_multiclass(Y3, P3, nan_policy="drop")  # type: ignore[arg-type]


def test_labels_must_match_the_columns() -> None:
    with pytest.raises(ValueError, match=r"y_true has 2 distinct classes \[0, 1\] but y_proba "
                                         r"has 3 columns; pass labels="):
        evaluate_multiclass([0, 1, 0, 1], P3)
    with pytest.raises(ValueError, match=r"labels has 2 values but y_proba has 3 columns"):
        evaluate_multiclass(Y3, P3, labels=[0, 1])
    with pytest.raises(ValueError, match=r"1 row whose class is not in labels \[0, 1, 3\]: "
                                         r"\[2\] at rows \[0\] \(0-based\)"):
        evaluate_multiclass(Y3, P3, labels=[0, 1, 3])
    with pytest.raises(ValueError, match=r"labels must be distinct; repeated: \[1\]"):
        evaluate_multiclass(Y3, P3, labels=[0, 1, 1])
    with pytest.raises(ValueError, match=r"missing label"):
        evaluate_multiclass(["a", None, "b", "c"], P3)
    with pytest.raises(ValueError, match=r"sample_weight has 1 negative value at rows \[2\]"):
        evaluate_multiclass(Y3, P3, sample_weight=[1, 1, -1, 1])
    with pytest.raises(ValueError, match=r"average must be"):
        evaluate_multiclass(Y3, P3, average="none")  # type: ignore[arg-type]


def test_labels_give_the_column_order() -> None:
    mev = evaluate_multiclass(["z", "x", "y", "y"], P3, labels=["x", "y", "z"])
    same = evaluate_multiclass(Y3, P3)
    assert mev.classes == ["x", "y", "z"]
    assert mev["accuracy"] == same["accuracy"] and mev["auc"] == same["auc"]
    with pytest.raises(KeyError, match=r"unknown class 'w'"):
        mev.table("w")
    assert mev.one_vs_rest_confusion("y") == same.one_vs_rest_confusion(1)
    assert mev.table("z").P == 1


# --- undefined values ----------------------------------------------------------------------------
def test_a_class_never_predicted_warns_once_and_is_left_out() -> None:
    y, proba, classes = random_case(8, n=200, k=4)
    proba = proba.copy()
    proba[:, 0] = np.minimum(proba[:, 0], 0.0)  # class 0 never has the largest probability
    proba[:, 1] += 1.0 - proba.sum(axis=1)
    assert not (np.argmax(proba, axis=1) == 0).any()
    pred = argmax_labels(proba, classes)
    mev = evaluate_multiclass(y, proba)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        per = mev.per_class("precision")
        weighted = mev.value("precision", average="weighted")
        macro = mev.value("precision", average="macro")
    undefined = [w for w in caught if issubclass(w.category, bm.UndefinedMeasureWarning)]
    assert len(undefined) == 1
    assert "ppv is undefined for class 0" in str(undefined[0].message)
    assert undefined[0].filename == __file__  # points at the caller
    assert math.isnan(per[0]) and np.isfinite(per[1:]).all()
    sk = {a: skm.precision_score(y, pred, average=a, zero_division=np.nan)
          for a in ("weighted", "macro")}
    assert weighted == pytest.approx(sk["weighted"], rel=1e-12)
    assert macro == pytest.approx(sk["macro"], rel=1e-12)


def test_to_dict_gives_one_warning_per_reason() -> None:
    # class 2 is never predicted: ppv, fdr, markedness, ... are undefined for it
    y = [0, 1, 2, 0, 1, 2, 0, 1]
    proba = [[.6, .4, 0], [.3, .7, 0], [.5, .3, .2], [.8, .1, .1], [.2, .5, .3],
             [.1, .6, .3], [.4, .4, .2], [.3, .4, .3]]
    mev = evaluate_multiclass(y, proba)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", bm.MeasureCaveatWarning)
        d = mev.to_dict()
    msgs = [str(w.message) for w in caught if issubclass(w.category, bm.UndefinedMeasureWarning)]
    # one message per reason (the overlap coefficient and the chi-square have their own)
    assert 1 <= len(msgs) <= 5 and len(set(msgs)) == len(msgs)
    assert any("ppv" in m and "class 2" in m for m in msgs)
    assert np.isfinite(d["ppv"]) and np.isfinite(d["markedness"])
    # a second call reads the cache: no new warnings
    with warnings.catch_warnings(record=True) as again:
        warnings.simplefilter("always")
        mev.to_dict()
    assert not [w for w in again if issubclass(w.category, bm.UndefinedMeasureWarning)]


def test_undefined_raise_names_the_class() -> None:
    mev = evaluate_multiclass([0, 1, 2, 2], [[.6, .4, 0], [.3, .7, 0], [.5, .3, .2],
                                             [.2, .5, .3]], undefined="raise")
    with pytest.raises(bm.UndefinedMeasureError, match=r"ppv is undefined.*class 2"):
        mev.value("precision", average="macro")
    silent = evaluate_multiclass([0, 1, 2, 2], [[.6, .4, 0], [.3, .7, 0], [.5, .3, .2],
                                                [.2, .5, .3]], undefined="ignore")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isnan(silent.per_class("precision")[2])


def test_native_mcc_is_nan_when_one_class_is_predicted() -> None:
    # sklearn returns 0 here; binmetrics says undefined (as its binary MCC)
    mev = evaluate_multiclass([0, 1, 2], [[.5, .3, .2], [.4, .3, .3], [.6, .2, .2]])
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"mcc is undefined"):
        assert math.isnan(mev["mcc"])
    assert mev["kappa"] == pytest.approx(skm.cohen_kappa_score([0, 1, 2], [0, 0, 0]))


def test_a_class_absent_from_y_true_needs_labels() -> None:
    y = [0, 1, 0, 1, 1]
    proba = [[.5, .3, .2], [.2, .6, .2], [.3, .3, .4], [.1, .8, .1], [.2, .2, .6]]
    with pytest.raises(ValueError, match=r"2 distinct classes.*3 columns"):
        evaluate_multiclass(y, proba)
    mev = evaluate_multiclass(y, proba, labels=[0, 1, 2])
    assert mev.support.tolist() == [2, 3, 0]
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"auc is undefined for class 2.*no "
                                                        r"positives"):
        auc = mev["auc"]
    per = mev.per_class("auc")
    assert math.isnan(per[2])
    assert auc == pytest.approx((2 * per[0] + 3 * per[1]) / 5, rel=1e-12)
    with pytest.warns(bm.UndefinedMeasureWarning, match=r"balanced_accuracy is undefined for "
                                                        r"class 2"):
        bacc = mev["balanced_accuracy"]
    pred = np.argmax(np.asarray(proba), axis=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # sklearn: "y_pred contains classes not in y_true"
        assert bacc == pytest.approx(skm.balanced_accuracy_score(y, pred), rel=1e-12)


# --- weights, repr ------------------------------------------------------------------------------
def test_integer_weights_equal_repeated_rows() -> None:
    y, proba, _ = random_case(9, n=80, k=3, zero_free=True)
    w = np.random.default_rng(1).integers(1, 4, y.size)
    rows = np.repeat(np.arange(y.size), w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", bm.MeasureCaveatWarning)
        weighted = evaluate_multiclass(y, proba, sample_weight=w.astype(float)).to_dict()
        repeated = evaluate_multiclass(y[rows], proba[rows]).to_dict()
    for k in repeated:
        assert weighted[k] == pytest.approx(repeated[k], rel=1e-9, abs=1e-12), k


def test_repr_and_description() -> None:
    mev = evaluate_multiclass(["x", "y", "z", "x"],
                              [[.6, .3, .1], [.2, .7, .1], [.3, .3, .4], [.3, .4, .3]])
    assert repr(mev).splitlines()[0] == ("MulticlassEvaluation(n=4, classes=['x', 'y', "
                                         "'z'], average='weighted')")
    assert repr(mev).splitlines()[2].split() == ["accuracy", "0.75"]
    assert mev.n_classes == 3 and mev.n_rows == 4 and not mev.weighted
    assert "auc" in mev and "sensitivity" in mev and "nonsense" not in mev
    assert mev["sensitivity"] == mev["recall"]
