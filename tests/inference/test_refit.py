"""Refit procedures (binmetrics.refit): Berrar's permutation test with retraining
(section 5.1) and the out-of-bag bootstrap interval (section 5.4, Def. 38)."""

from __future__ import annotations

import io
import math
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

import binmetrics as bm
from binmetrics import progress
from binmetrics.exceptions import UndefinedMeasureWarning
from binmetrics.inference import refit


def blobs(n: int, seed: int, shift: float = 3.0, noise_only: bool = False,
          n_features: int = 2) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2
    X = rng.normal(size=(n, n_features))
    if not noise_only:
        X[:, 0] += shift * y
    return X, y


class PredictOnly:
    """A minimal scikit-learn-compatible classifier with only fit and predict."""

    def __init__(self, cut: float = 0.0) -> None:
        self.cut = cut

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        return {"cut": self.cut}

    def set_params(self, **params: Any) -> PredictOnly:
        self.cut = params.get("cut", self.cut)
        return self

    def fit(self, X: Any, y: Any) -> PredictOnly:
        y = np.asarray(y)
        self.classes_ = np.unique(y)
        X = np.asarray(X)
        self.mid_ = (X[y == self.classes_[1], 0].mean() + X[y == self.classes_[0], 0].mean()) / 2
        return self

    def predict(self, X: Any) -> np.ndarray:
        return np.where(np.asarray(X)[:, 0] >= self.mid_, self.classes_[1], self.classes_[0])


# --- the refit permutation test ------------------------------------------------------------
def test_separable_data_reaches_the_minimum_pvalue() -> None:
    # one informative feature among ten: a model fitted to permuted labels points in a
    # random direction (with two features, any chance tilt towards the first one
    # separates the test set as well as the real model does)
    X, y = blobs(80, 0, shift=6.0, n_features=10)
    res = bm.refit_permutation_test(LogisticRegression(), X[:40], y[:40], X[40:], y[40:],
                                    n_resamples=39, random_state=0, alternative="greater")
    assert res.estimate == 1.0 and res.alternative == "greater"
    assert res.pvalue == 1 / 40
    assert res.null_distribution.shape == (39,) and res.n_undefined == 0
    assert res.response_method == "predict_proba"
    plain = bm.refit_permutation_test(LogisticRegression(), X[:40], y[:40], X[40:], y[40:],
                                      n_resamples=39, random_state=0, plus_one=False,
                                      alternative="greater")
    assert plain.pvalue == 0.0
    np.testing.assert_array_equal(plain.null_distribution, res.null_distribution)


def test_same_seed_same_result_for_any_n_jobs() -> None:
    X, y = blobs(60, 1, shift=1.0)
    kw = dict(measure="auc", n_resamples=20, random_state=123)
    r1 = bm.refit_permutation_test(LogisticRegression(), X[:30], y[:30], X[30:], y[30:],
                                   n_jobs=1, **kw)  # type: ignore[arg-type]
    r2 = bm.refit_permutation_test(LogisticRegression(), X[:30], y[:30], X[30:], y[30:],
                                   n_jobs=2, **kw)  # type: ignore[arg-type]
    np.testing.assert_array_equal(r1.null_distribution, r2.null_distribution)
    assert r1.pvalue == r2.pvalue and r1.estimate == r2.estimate
    o1 = bm.oob_bootstrap(DecisionTreeClassifier(random_state=0), X, y, n_resamples=16,
                          random_state=7, n_jobs=1)
    o2 = bm.oob_bootstrap(DecisionTreeClassifier(random_state=0), X, y, n_resamples=16,
                          random_state=7, n_jobs=2)
    np.testing.assert_array_equal(o1.replicates, o2.replicates)
    np.testing.assert_array_equal(o1.oob_sizes, o2.oob_sizes)
    assert tuple(o1.ci) == tuple(o2.ci)
    # a Generator or SeedSequence seeds it too, reproducibly
    g1 = bm.oob_bootstrap(DecisionTreeClassifier(random_state=0), X, y, n_resamples=5,
                          random_state=np.random.default_rng(3))
    g2 = bm.oob_bootstrap(DecisionTreeClassifier(random_state=0), X, y, n_resamples=5,
                          random_state=np.random.default_rng(3))
    np.testing.assert_array_equal(g1.replicates, g2.replicates)
    s1 = bm.oob_bootstrap(DecisionTreeClassifier(random_state=0), X, y, n_resamples=5,
                          random_state=np.random.SeedSequence(9))
    s2 = bm.oob_bootstrap(DecisionTreeClassifier(random_state=0), X, y, n_resamples=5,
                          random_state=9)
    np.testing.assert_array_equal(s1.replicates, s2.replicates)


def test_the_permutations_are_of_the_training_labels() -> None:
    X, y = blobs(40, 2, shift=1.5)
    res = bm.refit_permutation_test(LogisticRegression(), X[:20], y[:20], X[20:], y[20:],
                                    measure="auc", n_resamples=5, random_state=4)
    seeds = np.random.SeedSequence(4).spawn(5)
    for i, seed in enumerate(seeds):
        perm = np.random.default_rng(seed).permutation(20)
        model = LogisticRegression().fit(X[:20], y[:20][perm])
        want = bm.evaluate(y[20:], model.predict_proba(X[20:])[:, 1])["auc"]
        assert res.null_distribution[i] == pytest.approx(want, abs=1e-12)


def test_a_model_that_ignores_the_labels_gets_p_one() -> None:
    X, y = blobs(60, 3)
    res = bm.refit_permutation_test(DummyClassifier(strategy="prior"), X[:30], y[:30], X[30:],
                                    y[30:], measure="auc", n_resamples=10, random_state=0)
    assert res.estimate == 0.5 and res.pvalue == 1.0


def test_pvalues_under_the_null_are_roughly_uniform() -> None:
    ps = []
    for seed in range(25):
        X, y = blobs(40, 100 + seed, noise_only=True)
        res = bm.refit_permutation_test(LogisticRegression(), X[:20], y[:20], X[20:], y[20:],
                                        measure="auc", n_resamples=19, random_state=seed,
                                        alternative="greater")
        ps.append(res.pvalue)
    ps_arr = np.array(ps)
    assert 0.3 < ps_arr.mean() < 0.7
    assert np.mean(ps_arr <= 0.1) < 0.3
    assert np.mean(ps_arr > 0.5) > 0.2


def test_loss_measures_better_than_chance_is_the_lower_tail() -> None:
    X, y = blobs(60, 5, shift=4.0)
    res = bm.refit_permutation_test(LogisticRegression(), X[:30], y[:30], X[30:], y[30:],
                                    measure="brier", n_resamples=19, random_state=0,
                                    alternative="less")
    assert res.alternative == "less" and res.pvalue == 1 / 20
    f2 = bm.refit_permutation_test(LogisticRegression(), X[:30], y[:30], X[30:], y[30:],
                                   measure="fbeta", params={"beta": 2}, n_resamples=5,
                                   random_state=0)
    model = LogisticRegression().fit(X[:30], y[:30])
    assert f2.estimate == pytest.approx(
        bm.evaluate(y[30:], model.predict_proba(X[30:])[:, 1]).value("fbeta", beta=2))


def test_response_methods_and_labels() -> None:
    X, y = blobs(60, 6, shift=2.0)
    lab = np.where(y == 1, "case", "control")
    # decision_function when there is no predict_proba, with threshold 0
    r = bm.refit_permutation_test(LinearSVC(), X[:30], lab[:30], X[30:], lab[30:],
                                  pos_label="case", measure="accuracy", threshold=0.0,
                                  n_resamples=5, random_state=0)
    svc = LinearSVC().fit(X[:30], lab[:30])
    assert r.response_method == "decision_function"
    assert r.estimate == pytest.approx(np.mean(svc.predict(X[30:]) == lab[30:]))
    # the positive label may be classes_[0]: its scores are the other column / negated
    lr = LogisticRegression().fit(X[:30], y[:30])
    for method in ("predict_proba", "decision_function"):
        s = refit._scores(lr, X[30:], 0, method)
        s1 = refit._scores(lr, X[30:], 1, method)
        assert bm.evaluate(y[30:] == 0, s)["auc"] == pytest.approx(
            bm.evaluate(y[30:], s1)["auc"])
    # predict only: 0/1 scores
    p = bm.refit_permutation_test(PredictOnly(), X[:30], y[:30], X[30:], y[30:],
                                  n_resamples=5, random_state=0)
    assert p.response_method == "predict"
    forced = bm.refit_permutation_test(LogisticRegression(), X[:30], y[:30], X[30:], y[30:],
                                       response_method="predict", n_resamples=5,
                                       random_state=0)
    assert forced.estimate == pytest.approx(np.mean(lr.predict(X[30:]) == y[30:]))
    # DataFrames go through
    df = pd.DataFrame(X, columns=["a", "b"])
    o = bm.oob_bootstrap(LogisticRegression(), df, pd.Series(y), n_resamples=5, random_state=0)
    assert o.n_undefined == 0


def test_progress_bar_on_stderr(monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    X, y = blobs(40, 7)
    bm.refit_permutation_test(LogisticRegression(), X[:20], y[:20], X[20:], y[20:],
                              n_resamples=4, random_state=0, progress=True)
    err = capsys.readouterr().err
    assert "4/4" in err
    buf = io.StringIO()
    bar = progress._RichBar(3, "work", file=buf)
    for _ in range(3):
        bar.update()
    bar.close()
    assert "work" in buf.getvalue() and "3/3" in buf.getvalue()
    bm.oob_bootstrap(LogisticRegression(), X, y, n_resamples=3, random_state=0)
    assert capsys.readouterr().err == ""  # silent by default


# --- the out-of-bag bootstrap ----------------------------------------------------------------
def test_oob_interval_contains_the_apparent_value_on_an_easy_problem() -> None:
    X, y = blobs(80, 8, shift=3.5)
    res = bm.oob_bootstrap(LogisticRegression(), X, y, measure="auc", n_resamples=40,
                           random_state=0)
    assert res.ci.contains(res.resubstitution)
    assert 0.9 < res.ci.low <= res.ci.high <= 1.0
    assert res.ci.method == "oob-bootstrap-percentile"
    ok = res.replicates
    assert res.ci.estimate == pytest.approx(ok.mean())
    assert (res.low, res.high) == pytest.approx(tuple(np.quantile(ok, [0.025, 0.975])))
    assert res.interval(0.5).width <= res.ci.width
    # out-of-bag sets hold about 36.8% of the cases
    assert 0.3 < res.oob_sizes.mean() / 80 < 0.45


def test_oob_replicates_recomputed_by_hand() -> None:
    X, y = blobs(30, 9, shift=1.5)
    res = bm.oob_bootstrap(LogisticRegression(), X, y, measure="mcc", n_resamples=6,
                           random_state=21)
    for i, seed in enumerate(np.random.SeedSequence(21).spawn(6)):
        idx = np.random.default_rng(seed).integers(0, 30, size=30)
        oob = np.setdiff1d(np.arange(30), idx)
        model = LogisticRegression().fit(X[idx], y[idx])
        want = bm.evaluate(y[oob], model.predict_proba(X[oob])[:, 1])["mcc"]
        assert res.replicates[i] == pytest.approx(want, abs=1e-12)
        assert res.oob_sizes[i] == oob.size


def test_oob_sets_missing_a_class_are_counted() -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(9, 2))
    y = np.array([1, 1, 0, 0, 0, 0, 0, 0, 0])
    X[:2, 0] += 3
    with pytest.warns(UndefinedMeasureWarning, match="out-of-bag replicates"):
        res = bm.oob_bootstrap(DecisionTreeClassifier(random_state=0), X, y, measure="auc",
                               n_resamples=60, random_state=1)
    assert res.n_oob_one_class > 0 and res.n_train_one_class > 0
    assert res.n_undefined == int(np.isnan(res.replicates).sum())
    assert res.n_undefined == res.n_oob_one_class + res.n_train_one_class
    assert math.isfinite(res.ci.low)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        acc = bm.oob_bootstrap(DecisionTreeClassifier(random_state=0), X, y,
                               measure="accuracy", n_resamples=60, random_state=1)
    # accuracy is defined on a one-class out-of-bag set; only one-class training sets are NaN
    assert acc.n_undefined == acc.n_train_one_class == res.n_train_one_class
    assert acc.n_oob_one_class == res.n_oob_one_class


# --- bad input --------------------------------------------------------------------------------
@pytest.mark.parametrize(("kwargs", "exc", "match"), [
    (dict(n_resamples=0), ValueError, "n_resamples must be at least 1"),
    (dict(n_resamples=2.5), TypeError, "n_resamples must be an integer"),
    (dict(measure="nope"), KeyError, "unknown measure"),
    (dict(alternative="auto"), ValueError, "'auto' is gone"),
    (dict(alternative="bigger"), ValueError, "alternative"),
    (dict(response_method="proba"), ValueError, "response_method"),
    (dict(random_state=-1), ValueError, "non-negative"),
    (dict(random_state="x"), TypeError, "random_state"),
    (dict(params={"beta": 2}), TypeError, "takes no parameter"),
    (dict(pos_label=5), ValueError, "pos_label"),
])
def test_refit_permutation_bad_arguments(kwargs: dict, exc: type, match: str) -> None:
    X, y = blobs(20, 10)
    with pytest.raises(exc, match=match):
        bm.refit_permutation_test(LogisticRegression(), X[:10], y[:10], X[10:], y[10:],
                                  **kwargs)


def test_refit_bad_data() -> None:
    X, y = blobs(20, 11)
    lr = LogisticRegression()
    with pytest.raises(ValueError, match="X_train has 10 rows but y_train has 9"):
        bm.refit_permutation_test(lr, X[:10], y[:9], X[10:], y[10:])
    with pytest.raises(ValueError, match="X_test has 10 rows but y_test has 8"):
        bm.refit_permutation_test(lr, X[:10], y[:10], X[10:], y[12:])
    with pytest.raises(ValueError, match="single class"):
        bm.refit_permutation_test(lr, X[:10], np.ones(10, int), X[10:], y[10:])
    with pytest.raises(ValueError, match="two classes"):
        bm.refit_permutation_test(lr, X[:10], y[:10], X[10:], np.arange(10))
    with pytest.raises(TypeError, match="fit method"):
        bm.refit_permutation_test(object(), X[:10], y[:10], X[10:], y[10:])
    with (pytest.raises(AttributeError, match="no decision_function"),
          pytest.warns(bm.BinmetricsWarning, match="random_state is None")):
        bm.refit_permutation_test(DecisionTreeClassifier(), X[:10], y[:10], X[10:], y[10:],
                                  response_method="decision_function")
    with pytest.raises(ValueError, match="X has 20 rows but y has 19"):
        bm.oob_bootstrap(lr, X, y[:19])
    with pytest.raises(ValueError, match="single class"):
        bm.oob_bootstrap(lr, X, np.zeros(20, int))
    with pytest.raises(ValueError, match="level"):
        bm.oob_bootstrap(lr, X, y, level=0.0)
    with pytest.raises(ValueError, match="n_resamples"):
        bm.oob_bootstrap(lr, X, y, n_resamples=0)
    with pytest.raises(ValueError, match="at least 3 cases"):
        bm.oob_bootstrap(lr, X[:2], y[:2])
