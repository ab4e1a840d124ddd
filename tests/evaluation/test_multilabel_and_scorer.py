"""evaluate_multilabel against scikit-learn's multilabel averages, and make_scorer in
cross_val_score and GridSearchCV."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.svm import LinearSVC

import binmetrics as bm


def multilabel_case(seed: int, n: int = 300, k: int = 5) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, k)) < rng.uniform(0.2, 0.6, k)).astype(int)
    S = np.clip(np.round(0.4 * Y + 0.6 * rng.random((n, k)), 1), 0, 1)  # ties
    Y[:2] = [[1] * k, [0] * k]  # every label has both classes
    return Y, S


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("average", ["macro", "micro", "weighted", "samples"])
def test_prf_equal_sklearn(average: str, weighted: bool) -> None:
    Y, S = multilabel_case(0)
    w = np.random.default_rng(1).uniform(0.2, 3, len(Y)) if weighted else None
    P = (S >= 0.5).astype(int)
    lev = bm.evaluate_multilabel(Y, S, sample_weight=w)
    for mid, fn in (("precision", skm.precision_score), ("recall", skm.recall_score),
                    ("f1", skm.f1_score)):
        want = fn(Y, P, average=average, sample_weight=w, zero_division=np.nan)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", bm.UndefinedMeasureWarning)
            got = lev.value(mid, average=average)
        assert got == pytest.approx(want, rel=1e-12), (mid, average)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("average", ["macro", "micro", "weighted", "samples"])
def test_auc_and_ap_equal_sklearn(average: str, weighted: bool) -> None:
    Y, S = multilabel_case(2)
    w = np.random.default_rng(3).uniform(0.2, 3, len(Y)) if weighted else None
    lev = bm.evaluate_multilabel(Y, S, sample_weight=w)
    keep = (Y.sum(axis=1) > 0) & (Y.sum(axis=1) < Y.shape[1])
    if average == "samples":  # sklearn needs both classes in every row
        Y, S = Y[keep], S[keep]
        w = None if w is None else w[keep]
        lev = bm.evaluate_multilabel(Y, S, sample_weight=w)
    want = skm.roc_auc_score(Y, S, average=average, sample_weight=w)
    assert lev.value("auc", average=average) == pytest.approx(want, rel=1e-12)
    want = skm.average_precision_score(Y, S, average=average, sample_weight=w)
    assert lev.value("average_precision", average=average) == pytest.approx(want, rel=1e-12)


def test_single_class_label_is_nan_with_the_reason() -> None:
    Y, S = multilabel_case(4)
    Y[:, 2] = 0
    lev = bm.evaluate_multilabel(Y, S)
    with pytest.warns(bm.UndefinedMeasureWarning,
                      match=r"auc is undefined: y_true has no positives.*\(label 2; the macro"):
        per = lev.per_label("auc")
    assert np.isnan(per[2]) and np.isfinite(per.drop(2)).all()
    with pytest.warns(bm.UndefinedMeasureWarning):
        fresh = bm.evaluate_multilabel(Y, S)
        assert fresh.value("auc") == pytest.approx(per.drop(2).mean())
    assert "MultilabelEvaluation(n=300, labels=5" in repr(lev)
    with pytest.raises(ValueError, match="0/1"):
        bm.evaluate_multilabel(Y * 2, S)
    with pytest.raises(ValueError, match="same shape"):
        bm.evaluate_multilabel(Y, S[:, :3])


def data() -> tuple[np.ndarray, np.ndarray]:
    return make_classification(n_samples=300, n_features=8, random_state=0, weights=[0.7])


@pytest.mark.parametrize(("ours", "theirs"), [
    (bm.make_scorer("mcc"), skm.make_scorer(skm.matthews_corrcoef)),
    (bm.make_scorer("auc"), "roc_auc"),
    (bm.make_scorer("f1"), "f1"),
    (bm.make_scorer("fbeta", beta=2), skm.make_scorer(skm.fbeta_score, beta=2)),
    (bm.make_scorer("log_loss", base=np.e), "neg_log_loss"),
    (bm.make_scorer("brier"), "neg_brier_score"),
    (bm.make_scorer("average_precision"), "average_precision"),
])
def test_scorers_equal_sklearn_in_cross_val_score(ours: object, theirs: object) -> None:
    X, y = data()
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    a = cross_val_score(LogisticRegression(), X, y, cv=cv, scoring=ours)
    b = cross_val_score(LogisticRegression(), X, y, cv=cv, scoring=theirs)
    np.testing.assert_allclose(a, b, rtol=1e-10)


def test_threshold_scorer() -> None:
    X, y = data()
    model = LogisticRegression().fit(X, y)
    p = model.predict_proba(X)[:, 1]
    want = skm.matthews_corrcoef(y, p >= 0.3)
    assert bm.make_scorer("mcc", threshold=0.3)(model, X, y) == pytest.approx(want, rel=1e-12)
    svc = LinearSVC().fit(X, y)  # no predict_proba: the decision function
    want = skm.roc_auc_score(y, svc.decision_function(X))
    assert bm.make_scorer("auc")(svc, X, y) == pytest.approx(want, rel=1e-12)
    with pytest.raises(ValueError, match="probabilities"):
        bm.make_scorer("brier")(svc, X, y)
    with pytest.raises(ValueError, match="confusion measures"):
        bm.make_scorer("auc", threshold=0.5)


def test_scorer_in_grid_search_picks_as_sklearn() -> None:
    X, y = data()
    grid = {"C": [0.001, 0.01, 0.1, 1.0]}
    cv = StratifiedKFold(4, shuffle=True, random_state=1)
    ours = GridSearchCV(LogisticRegression(), grid, cv=cv, scoring=bm.make_scorer("auc")).fit(X, y)
    theirs = GridSearchCV(LogisticRegression(), grid, cv=cv, scoring="roc_auc").fit(X, y)
    assert ours.best_params_ == theirs.best_params_
    np.testing.assert_allclose(ours.cv_results_["mean_test_score"],
                               theirs.cv_results_["mean_test_score"], rtol=1e-10)


def test_multiclass_scorer() -> None:
    X, y = make_classification(n_samples=300, n_features=8, n_informative=5, n_classes=3,
                               random_state=0)
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    a = cross_val_score(LogisticRegression(), X, y, cv=cv, scoring=bm.make_scorer("accuracy"))
    b = cross_val_score(LogisticRegression(), X, y, cv=cv, scoring="accuracy")
    np.testing.assert_allclose(a, b, rtol=1e-12)


def test_multilabel_to_frame_and_multiclass_interpret() -> None:
    Y, S = multilabel_case(6, n=40, k=3)
    lev = bm.evaluate_multilabel(Y, S, labels=["a", "b", "c"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = lev.to_frame("confusion")
        per = lev.per_label("f1")
    assert list(frame.columns) == ["id", "name", "macro", "micro", "weighted", "samples"]
    assert frame.set_index("id").loc["f1", "macro"] == pytest.approx(per.mean(), rel=1e-12)
    assert per.index.tolist() == ["a", "b", "c"]
    rng = np.random.default_rng(0)
    proba = rng.dirichlet(np.ones(3), size=200)
    y = np.argmax(proba + rng.normal(0, 0.1, proba.shape), axis=1)
    mev = bm.evaluate_multiclass(y, proba)
    from binmetrics.measures.interpretation import interpret

    assert mev.interpret("kappa") == interpret("kappa", mev["kappa"])
    assert mev.interpret("cramer_v").endswith("(Cramér)")
