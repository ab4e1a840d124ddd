"""best_threshold agrees with scikit-learn's TunedThresholdClassifierCV on a frozen model
(thresholds = every distinct score, one split scoring every row), and to_sklearn gives a
FixedThresholdClassifier that predicts with the chosen cut."""

from __future__ import annotations

import numpy as np
import pytest

sklearn = pytest.importorskip("sklearn")

from sklearn.datasets import make_classification  # noqa: E402
from sklearn.frozen import FrozenEstimator  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import confusion_matrix, make_scorer  # noqa: E402
from sklearn.model_selection import FixedThresholdClassifier, TunedThresholdClassifierCV  # noqa: E402

import binmetrics as bm  # noqa: E402


def _cost(y, pred):  # a cost matrix: a false negative costs 5, a false positive 1
    _tn, fp, fn, _tp = confusion_matrix(y, pred, labels=[0, 1]).ravel()
    return -(1.0 * fp + 5.0 * fn)


@pytest.fixture(scope="module")
def fitted():
    X, y = make_classification(n_samples=600, n_features=5, weights=[0.7], flip_y=0.1,
                               random_state=0)
    model = LogisticRegression().fit(X[:300], y[:300])
    return model, X[300:], y[300:]


@pytest.mark.parametrize(("scoring", "measure", "params"), [
    ("f1", "f1", {}),
    ("balanced_accuracy", "balanced_accuracy", {}),
    (make_scorer(_cost), "expected_cost", {"cost_fp": 1.0, "cost_fn": 5.0}),
])
def test_same_cut_as_tuned_threshold_classifier(fitted, scoring, measure, params):
    model, X, y = fitted
    p = model.predict_proba(X)[:, 1]
    everyone = np.arange(y.size)
    tuned = TunedThresholdClassifierCV(
        FrozenEstimator(model), scoring=scoring, response_method="predict_proba",
        thresholds=np.unique(p), cv=[(everyone, everyone)], refit=False).fit(X, y)
    best = bm.evaluate(y, p).best_threshold(measure, **params)
    assert best.threshold == tuned.best_threshold_
    clf = best.to_sklearn(model, response_method="predict_proba")
    assert isinstance(clf, FixedThresholdClassifier)
    np.testing.assert_array_equal(clf.predict(X), tuned.predict(X))
    np.testing.assert_array_equal(clf.predict(X), (p >= best.threshold).astype(int))


def test_decision_function_scores_and_string_labels(fitted):
    _, X, y = fitted
    labels = np.where(y == 1, "fraud", "ok")
    m2 = LogisticRegression().fit(X, labels)
    d = -m2.decision_function(X)  # "fraud" is classes_[0]: scikit-learn scores it so
    best = bm.evaluate(labels, d, pos_label="fraud").best_threshold(
        "tpr", subject_to={"ppv": (">=", 0.6)})
    clf = best.to_sklearn(m2, response_method="decision_function")
    np.testing.assert_array_equal(clf.predict(X), np.where(d >= best.threshold, "fraud", "ok"))


def test_no_cut_or_lower_is_positive_cannot_be_deployed(fitted):
    model, X, y = fitted
    p = model.predict_proba(X)[:, 1]
    with pytest.warns(bm.UndefinedMeasureWarning):
        none = bm.evaluate(y, p).best_threshold("tpr", subject_to={"ppv": (">", 1 - 1e-15),
                                                                   "fpr": (">=", 0.5)})
    with pytest.raises(ValueError, match="no finite cut"):
        none.to_sklearn(model)
    low = bm.evaluate(y, 1 - p, higher_is_positive=False).best_threshold("f1")
    with pytest.raises(ValueError, match="evaluate -score instead"):
        low.to_sklearn(model)
    with pytest.raises(ValueError, match="response_method must be"):
        bm.evaluate(y, p).best_threshold("f1").to_sklearn(model, response_method="predict")
