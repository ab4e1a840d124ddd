"""The benchmark workflow (binmetrics.study): the multi-level comparison paper's design,
Figure 1 and sections 2-3 (GitHub issue 5).

Expected values are recomputed independently here: scikit-learn's own
StratifiedKFold + cross_val_predict and fits, scikit-learn's metrics
(roc_auc_score, brier_score_loss, accuracy_score, the weighted one-vs-rest AUC) and
the SRD formula written out with scipy.stats.rankdata.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import accuracy_score, brier_score_loss, roc_auc_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

import binmetrics as bm
from binmetrics.exceptions import UndefinedMeasureWarning
from binmetrics.measures.registry import select_measures
from binmetrics.study import Study, benchmark

ROOT = Path(__file__).resolve().parents[1]


def data(n: int, k: int, seed: int, weights: list[float] | None = None,
         sep: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    X, y = make_classification(n, n_features=5, n_informative=3, n_redundant=0,
                               n_classes=k, n_clusters_per_class=1, weights=weights,
                               class_sep=sep, flip_y=0.05, random_state=seed)
    return X, y


DATASETS = {
    "three": data(150, 3, 0, [0.5, 0.3, 0.2]),
    "four": data(160, 4, 1, [0.4, 0.3, 0.2, 0.1]),
}
MODELS = {"NaiB": GaussianNB(), "tree": DecisionTreeClassifier(max_depth=2)}
FEW = ["accuracy", "auc", "brier", "mcc", "tpr", "prevalence", "log_loss", "f1"]
MORE = [*FEW, "tnr", "informedness", "kappa", "balanced_accuracy", "average_precision",
        "error_rate", "rmse"]


def quiet(**kw: Any) -> Study:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(**kw)


@pytest.fixture(scope="module")
def study() -> Study:
    return quiet(estimators=MODELS, datasets=DATASETS, measures="all")


def rows_of(st: Study, **where: Any) -> pd.DataFrame:
    t = st.table
    for k, v in where.items():
        t = t[t[k] == v]
    return t


def value(st: Study, measure: str, **where: Any) -> float:
    t = rows_of(st, measure=measure, **where)
    assert len(t) == 1, t
    return float(t["value"].iloc[0])


def design_row(st: Study, **where: Any) -> pd.Series:
    d = st.design
    for k, v in where.items():
        d = d[d[k] == v]
    assert len(d) == 1
    return d.iloc[0]


# --- the table ------------------------------------------------------------------------------
def test_table_has_one_row_per_dataset_setting_model_validation_measure(study: Study) -> None:
    n_measures = len(select_measures())
    assert list(study.table.columns) == ["dataset", "balance", "classes", "model",
                                         "validation", "measure", "value"]
    assert len(study.table) == 2 * 4 * 2 * 2 * n_measures
    assert study.failures.empty
    counts = study.table.groupby(["dataset", "balance", "classes", "model", "validation"]).size()
    assert (counts == n_measures).all() and len(counts) == 2 * 4 * 2 * 2
    assert set(study.table["balance"]) == {"imbalanced", "balanced"}
    assert set(study.table["classes"]) == {"multiclass", "2-class"}
    assert set(study.table["validation"]) == {"cv", "test"}
    wide = study.wide()
    assert wide.shape == (2 * 4 * 2 * 2, n_measures)


def test_a_two_class_dataset_has_no_separate_multiclass_setting() -> None:
    st = quiet(estimators={"NaiB": GaussianNB()}, datasets={"bin": data(80, 2, 3)},
               measures=FEW)
    assert set(st.table["classes"]) == {"2-class"}
    assert len(st.table) == 2 * 1 * 2 * len(FEW)
    assert st.skipped[["dataset", "classes"]].values.tolist() == [["bin", "multiclass"]]


def test_either_validation_can_be_left_out() -> None:
    sets = {"three": DATASETS["three"]}
    only_test = quiet(estimators=MODELS, datasets=sets, cv=None, measures=FEW)
    only_cv = quiet(estimators=MODELS, datasets=sets, test_size=None, measures=FEW)
    assert set(only_test.table["validation"]) == {"test"}
    assert set(only_cv.table["validation"]) == {"cv"}
    assert len(only_cv.table) == len(only_test.table) == 4 * 2 * len(FEW)
    # without a test split the whole data set is the (imbalanced) training part
    row = design_row(only_cv, balance="imbalanced", classes="multiclass")
    assert row["n_train"] == 150 and row["n_test"] == 0
    with pytest.raises(ValueError, match="no validation to run"):
        benchmark(MODELS, sets, cv=None, test_size=None)


def test_balanced_training_parts_are_undersampled_to_the_smallest_class(study: Study) -> None:
    for (ds, _), g in study.design.groupby(["dataset", "classes"]):
        y = DATASETS[ds][1]
        imb = g[g["balance"] == "imbalanced"].iloc[0]
        bal = g[g["balance"] == "balanced"].iloc[0]
        labels = sorted(imb["labels"])
        n_imb = [int(np.sum(y[imb["train_index"]] == c)) for c in labels]
        n_bal = [int(np.sum(y[bal["train_index"]] == c)) for c in labels]
        assert n_bal == [min(n_imb)] * len(labels)
        # a subset of the imbalanced training part, and the same test part (paper Table 1)
        assert set(bal["train_index"]) <= set(imb["train_index"])
        np.testing.assert_array_equal(bal["test_index"], imb["test_index"])
        assert not set(imb["train_index"]) & set(imb["test_index"])
        # the test split is stratified: class proportions within one case of the data's
        test_y = y[imb["test_index"]]
        for c in labels:
            assert abs(np.sum(test_y == c) - 0.2 * np.sum(np.isin(y, labels)) *
                       np.mean(y[np.isin(y, labels)] == c)) <= 1


def test_two_class_setting_keeps_the_extreme_classes(study: Study) -> None:
    for ds, (_, y) in DATASETS.items():
        row = design_row(study, dataset=ds, balance="imbalanced", classes="2-class")
        lo, hi = min(y), max(y)
        assert row["labels"] == [lo, hi] and row["positive"] == hi
        assert set(y[row["train_index"]]) == {lo, hi} and set(y[row["test_index"]]) == {lo, hi}
        # the 2-class test part is the multiclass test part restricted to the two classes
        multi = design_row(study, dataset=ds, balance="imbalanced", classes="multiclass")
        kept = multi["test_index"][np.isin(y[multi["test_index"]], [lo, hi])]
        np.testing.assert_array_equal(row["test_index"], kept)


def test_a_given_pair_of_classes_and_a_mapping_per_dataset() -> None:
    st = quiet(estimators={"NaiB": GaussianNB()}, datasets=DATASETS, classes="2-class",
               balance="imbalanced", two_class={"three": (2, 1), "four": "extremes"},
               measures=["auc"])
    assert design_row(st, dataset="three")["labels"] == [2, 1]
    assert design_row(st, dataset="three")["positive"] == 1
    assert design_row(st, dataset="four")["labels"] == [0, 3]
    with pytest.raises(ValueError, match="two different labels"):
        benchmark({"NaiB": GaussianNB()}, DATASETS, two_class=(0, 7))


# --- the validations against scikit-learn run by hand -----------------------------------------
def test_cv_validation_is_pooled_stratified_kfold_predictions(study: Study) -> None:
    for ds, (X, y) in DATASETS.items():
        for bal in ("imbalanced", "balanced"):
            # binary: the positive (highest) class's probability, cut at 0.5
            row = design_row(study, dataset=ds, balance=bal, classes="2-class")
            idx = row["train_index"]
            folds = StratifiedKFold(5, shuffle=True, random_state=row["cv_seed"])
            p = cross_val_predict(GaussianNB(), X[idx], y[idx], cv=folds,
                                  method="predict_proba")[:, 1]
            yt = y[idx] == row["positive"]
            where = {"dataset": ds, "balance": bal, "classes": "2-class", "model": "NaiB",
                     "validation": "cv"}
            assert value(study, "auc", **where) == pytest.approx(roc_auc_score(yt, p), abs=1e-12)
            assert value(study, "brier", **where) == pytest.approx(brier_score_loss(yt, p),
                                                                   abs=1e-12)
            assert value(study, "accuracy", **where) == pytest.approx(
                accuracy_score(yt, p >= 0.5), abs=1e-12)
            # multiclass: argmax accuracy and the support-weighted one-vs-rest AUC
            row = design_row(study, dataset=ds, balance=bal, classes="multiclass")
            idx = row["train_index"]
            folds = StratifiedKFold(5, shuffle=True, random_state=row["cv_seed"])
            P = cross_val_predict(GaussianNB(), X[idx], y[idx], cv=folds,
                                  method="predict_proba")
            where["classes"] = "multiclass"
            assert value(study, "accuracy", **where) == pytest.approx(
                accuracy_score(y[idx], P.argmax(axis=1)), abs=1e-12)
            assert value(study, "auc", **where) == pytest.approx(
                roc_auc_score(y[idx], P, multi_class="ovr", average="weighted"), abs=1e-12)


def test_test_validation_is_a_fit_on_the_whole_training_part(study: Study) -> None:
    for ds, (X, y) in DATASETS.items():
        row = design_row(study, dataset=ds, balance="balanced", classes="2-class")
        tr, te = row["train_index"], row["test_index"]
        p = GaussianNB().fit(X[tr], y[tr]).predict_proba(X[te])[:, 1]
        yt = y[te] == row["positive"]
        where = {"dataset": ds, "balance": "balanced", "classes": "2-class", "model": "NaiB",
                 "validation": "test"}
        assert value(study, "auc", **where) == pytest.approx(roc_auc_score(yt, p), abs=1e-12)
        assert value(study, "brier", **where) == pytest.approx(brier_score_loss(yt, p),
                                                               abs=1e-12)
        row = design_row(study, dataset=ds, balance="imbalanced", classes="multiclass")
        tr, te = row["train_index"], row["test_index"]
        P = GaussianNB().fit(X[tr], y[tr]).predict_proba(X[te])
        where.update(balance="imbalanced", classes="multiclass")
        assert value(study, "accuracy", **where) == pytest.approx(
            accuracy_score(y[te], P.argmax(axis=1)), abs=1e-12)


def test_decision_function_scores_for_a_binary_model_without_probabilities() -> None:
    X, y = DATASETS["three"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        st = benchmark({"svm": LinearSVC()}, {"three": (X, y)}, balance="imbalanced",
                       measures=["auc", "brier", "accuracy"])
    messages = [str(w.message) for w in caught]
    assert any("1 model run(s) failed" in m for m in messages)
    assert any("NaN: the scores are not probabilities" in m for m in messages)
    # multiclass needs probabilities: a clear per-model failure, the 2-class setting runs
    fail = st.failures
    assert fail[["classes", "stage"]].values.tolist() == [["multiclass", "setup"]]
    assert "predict_proba" in fail["error"].iloc[0]
    row = design_row(st, classes="2-class")
    tr, te = row["train_index"], row["test_index"]
    d = LinearSVC().fit(X[tr], y[tr]).decision_function(X[te])
    yt = y[te] == row["positive"]
    where = {"classes": "2-class", "validation": "test"}
    assert value(st, "auc", **where) == pytest.approx(roc_auc_score(yt, d), abs=1e-12)
    assert value(st, "accuracy", **where) == pytest.approx(accuracy_score(yt, d >= 0), abs=1e-12)
    assert np.isnan(value(st, "brier", **where))
    assert "probabilities" in st.undefined.query("measure == 'brier'")["reason"].iloc[0]


# --- reproducibility ------------------------------------------------------------------------
def test_same_random_state_same_table_whatever_n_jobs() -> None:
    models = {"RF": RandomForestClassifier(n_estimators=5), "NaiB": GaussianNB()}
    sets = {"three": DATASETS["three"]}
    a = quiet(estimators=models, datasets=sets, measures=FEW, random_state=3, n_jobs=1)
    b = quiet(estimators=models, datasets=sets, measures=FEW, random_state=3, n_jobs=2)
    pd.testing.assert_frame_equal(a.table, b.table)
    c = quiet(estimators=models, datasets=sets, measures=FEW, random_state=4)
    assert not a.table["value"].equals(c.table["value"])
    assert models["RF"].random_state is None  # the user's estimator is left alone


def test_progress_callback_counts_the_tasks() -> None:
    seen: list[tuple[int, int]] = []
    quiet(estimators=MODELS, datasets={"three": DATASETS["three"]}, measures=["auc"],
          progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (0, 8) and seen[-1] == (8, 8) and len(seen) == 9


# --- bad input and failures ----------------------------------------------------------------
class Broken(GaussianNB):
    """Fails in fit."""

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> Broken:
        raise RuntimeError("this model cannot be fitted")


def test_a_failing_model_is_recorded_and_the_others_kept() -> None:
    with pytest.warns(UserWarning, match=r"8 model run\(s\) failed.*bad: 8"):
        st = benchmark({"NaiB": GaussianNB(), "bad": Broken()},
                       {"three": DATASETS["three"]}, measures=FEW)
    assert set(st.table["model"]) == {"NaiB"}
    assert len(st.table) == 4 * 2 * len(FEW)
    assert len(st.failures) == 4 * 2  # 4 settings x (cv, test)
    assert set(st.failures["stage"]) == {"cv", "test"}
    assert st.failures["error"].str.contains("RuntimeError: this model cannot be fitted").all()


def test_a_one_class_test_part_gives_nan_with_reasons_and_one_warning() -> None:
    # class 2 has two members: the stratified 20% test part gets none of them, so the
    # 2-class test part (classes 0 and 2) holds negatives only
    rng = np.random.default_rng(0)
    y = np.array([0] * 60 + [1] * 38 + [2] * 2)
    X = rng.normal(size=(100, 3)) + y[:, None]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        st = benchmark({"knn": KNeighborsClassifier(1)}, {"rare": (X, y)}, cv=2,
                       classes="2-class", balance="imbalanced", measures=FEW)
    row = design_row(st, classes="2-class")
    assert set(y[row["test_index"]]) == {0}
    assert np.isnan(value(st, "auc", validation="test"))
    assert np.isnan(value(st, "tpr", validation="test"))
    assert value(st, "accuracy", validation="test") >= 0  # still defined
    reasons = st.undefined.query("validation == 'test' and measure == 'auc'")["reason"]
    assert len(reasons) == 1 and "positives" in reasons.iloc[0]
    undefined = [w for w in caught if issubclass(w.category, UndefinedMeasureWarning)]
    assert len(undefined) == 1 and "study.undefined" in str(undefined[0].message)


def test_bad_arguments_are_clear_errors() -> None:
    X, y = DATASETS["three"]
    with pytest.raises(TypeError, match="estimators must be a non-empty mapping"):
        benchmark([GaussianNB()], {"a": (X, y)})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="balance must be one or more of"):
        benchmark(MODELS, {"a": (X, y)}, balance="even")
    with pytest.raises(ValueError, match="cv must be an integer >= 2"):
        benchmark(MODELS, {"a": (X, y)}, cv=1)
    with pytest.raises(ValueError, match=r"datasets\['a'\]: X has 149 rows but y has 150"):
        benchmark(MODELS, {"a": (X[:-1], y)})
    with pytest.raises(ValueError, match=r"datasets\['a'\]: y holds a single class"):
        benchmark(MODELS, {"a": (X, np.zeros_like(y))})
    lonely = y.copy()
    lonely[0] = 9
    with pytest.raises(ValueError, match=r"datasets\['a'\]: the stratified test split failed"):
        benchmark(MODELS, {"a": (X, lonely)})
    with pytest.raises(KeyError, match="unknown measure"):
        benchmark(MODELS, {"a": (X, y)}, measures=["acuracy"])


# --- the SRD analyses -----------------------------------------------------------------------
def srd_pct(matrix: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """SRD% of every column against the reference, written out (METHODS §1.5)."""
    ref = rankdata(reference)
    n = len(reference)
    return np.array([np.abs(rankdata(c) - ref).sum() for c in matrix.T]) * 100 / (n * n // 2)


@pytest.fixture(scope="module")
def small() -> Study:
    models = {"NaiB": GaussianNB(), "tree": DecisionTreeClassifier(max_depth=2),
              "knn": KNeighborsClassifier(1)}
    sets = {"three": DATASETS["three"], "four": DATASETS["four"],
            "hard": data(150, 3, 5, [0.6, 0.25, 0.15], sep=0.5)}
    return quiet(estimators=models, datasets=sets, measures=MORE)


def test_srd_measures_orients_losses_and_fuses_the_mean(small: Study) -> None:
    with pytest.warns(UserWarning, match="prevalence"):
        res = small.srd_measures(repeats=2)
    key = ("imbalanced", "2-class")
    m = res.matrices[key]
    assert "prevalence" not in m.columns  # direction 0
    assert res.negated == ["brier", "error_rate", "log_loss", "rmse"]
    # the matrix by hand: rows model x validation x data set, losses negated
    t = small.table.query("balance == 'imbalanced' and classes == '2-class'")
    hand = t.pivot_table(index=["dataset", "model", "validation"], columns="measure",
                         values="value")
    for loss in ("brier", "log_loss", "error_rate", "rmse"):
        hand[loss] *= -1
    hand = hand[list(m.columns)]
    assert len(hand) == len(m) == 3 * 3 * 2
    ordered = hand.loc[[tuple(r.split(" | ")) for r in m.index]]
    np.testing.assert_allclose(m.to_numpy(), ordered.to_numpy())
    # unit length per column, mean reference, SRD% written out
    unit = ordered.to_numpy() / np.sqrt((ordered.to_numpy() ** 2).sum(axis=0))
    expected = srd_pct(unit, unit.mean(axis=1))
    np.testing.assert_allclose(res[key].normalized[list(m.columns)].to_numpy(), expected)
    # an unoriented loss ranks reversed against the consensus
    with pytest.warns(UserWarning):
        raw = small.srd_measures(orient=False, cv=None)
    assert raw[key].normalized["brier"] > res[key].normalized["brier"]
    long = res.long()
    assert list(long.columns) == ["balance", "classes", "fold", "measure", "srd_pct"]
    assert len(long) == 4 * 5 * 2 * len(m.columns)  # settings x folds x repeats x measures


def test_measure_columns_without_direction_finite_values_or_variation_are_dropped() -> None:
    from binmetrics.study import _prepare_measures

    m = pd.DataFrame({"accuracy": [0.9, 0.8, 0.7, 0.6], "auc": [0.5] * 4,
                      "brier": [0.1, 0.2, 0.3, 0.25], "dor": [3.0, np.inf, 2.0, 1.0],
                      "prevalence": [0.3, 0.3, 0.4, 0.4], "tpr": [0.5, np.nan, 0.4, 0.3]},
                     index=["a", "b", "c", "d"])
    out = _prepare_measures(m, orient=True, clean=True)
    assert list(out.columns) == ["accuracy", "brier"]
    np.testing.assert_array_equal(out["brier"], [-0.1, -0.2, -0.3, -0.25])
    reasons = out.attrs["dropped"]
    assert set(reasons) == {"auc", "dor", "prevalence", "tpr"}
    assert reasons["auc"].startswith("constant") and "infinite" in reasons["dor"]
    # a row undefined for most measures goes instead of the measures
    m.loc["e"] = [np.nan, np.nan, np.nan, np.nan, 0.3, 0.2]
    out = _prepare_measures(m, orient=False, clean=True)
    assert list(out.index) == ["a", "b", "c", "d"] and "row e" in out.attrs["dropped"]
    np.testing.assert_array_equal(out["brier"], [0.1, 0.2, 0.3, 0.25])


def test_srd_models_uses_the_best_classifier_as_reference(small: Study) -> None:
    with pytest.warns(UserWarning, match="prevalence"):
        res = small.srd_models()
    key = ("hard", "balanced", "multiclass")
    m = res.matrices[key]
    assert list(m.columns) == ["NaiB", "NaiB T", "tree", "tree T", "knn", "knn T"]
    t = small.table.query("dataset == 'hard' and balance == 'balanced' and "
                          "classes == 'multiclass'")
    hand = t.pivot_table(index="measure", columns=["model", "validation"], values="value")
    hand = hand.loc[list(m.index), [(c.removesuffix(" T"), "test" if c.endswith(" T") else "cv")
                                    for c in m.columns]]
    x = hand.to_numpy()
    np.testing.assert_allclose(m.to_numpy(), x)
    # rows scaled to their range; reference: row max for higher-is-better, min for losses
    lo, hi = x.min(axis=1, keepdims=True), x.max(axis=1, keepdims=True)
    scaled = (x - lo) / (hi - lo)
    lower = np.array([bm.get_measure(i).direction < 0 for i in m.index])
    ref = np.where(lower, scaled.min(axis=1), scaled.max(axis=1))
    np.testing.assert_allclose(res[key].normalized.to_numpy(), srd_pct(scaled, ref))
    long = res.long()
    assert list(long.columns) == ["dataset", "balance", "classes", "fold", "model",
                                  "validation", "column", "srd_pct"]
    assert set(long["model"]) == {"NaiB", "tree", "knn"}
    assert (long["validation"] == np.where(long["column"].str.endswith(" T"), "test",
                                           "cv")).all()


def test_anova_and_covat_are_wired_to_the_srd_tables(small: Study) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        srd_m = small.srd_measures(repeats=2)
        a = small.anova(srd=srd_m)
        srd_x = small.srd_models()
        b = small.anova("models", srd=srd_x)
        cov = small.covat(balance="balanced", classes="2-class")
    assert a.factors == ["balance", "classes", "measure"]
    assert a.n == len(srd_m.long())
    assert b.factors == ["balance", "classes", "model"]
    assert set(b.levels["model"]) == {"NaiB", "tree", "knn"}
    assert b.n == len(srd_x.long())
    from binmetrics.srd import covat

    m = srd_m.matrices[("balanced", "2-class")]
    expected = covat(m, pretreat="unit_length")
    pd.testing.assert_frame_equal(cov.matrix, expected.matrix)
    with pytest.raises(ValueError, match="pick one setting"):
        small.covat()


def test_anova_leaves_out_a_factor_with_one_level() -> None:
    st = quiet(estimators={"NaiB": GaussianNB(), "knn": KNeighborsClassifier(1)},
               datasets=DATASETS, balance="imbalanced", measures=FEW)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = st.anova(repeats=2)
    assert res.factors == ["classes", "measure"]
    assert any("single level" in str(w.message) for w in caught)


def test_a_model_failing_in_some_settings_is_left_out_of_the_models_anova() -> None:
    # LinearSVC has no predict_proba: it fails in the multiclass settings only
    st = quiet(estimators={"NaiB": GaussianNB(), "knn": KNeighborsClassifier(1),
                           "svm": LinearSVC()}, datasets=DATASETS, measures=MORE)
    assert set(st.failures["classes"]) == {"multiclass"}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = st.anova("models")
    assert set(res.levels["model"]) == {"NaiB", "knn"}
    assert any("['svm'] are missing from some" in str(w.message) for w in caught)


# --- the example ---------------------------------------------------------------------------
@pytest.mark.slow
def test_example_quick_run_writes_its_outputs(tmp_path: Path) -> None:
    out = tmp_path / "study"
    subprocess.run([sys.executable, str(ROOT / "examples" / "multilevel_study.py"),
                    "--quick", "--out", str(out)], check=True, timeout=600)
    names = {p.name for p in out.iterdir()}
    for expected in ("results.csv", "anova_measures.csv", "anova_models.csv",
                     "srd_measures.csv", "srd_models.csv", "failures.csv"):
        assert expected in names
    assert any(n.startswith("covat_") and n.endswith(".png") for n in names)
    assert any(n.startswith("srd_measures_") and n.endswith(".png") for n in names)
    table = pd.read_csv(out / "results.csv")
    assert table["model"].nunique() >= 8


def test_measure_params_reach_every_value():
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    import binmetrics as bm

    rng = np.random.default_rng(0)
    X = rng.normal(size=(90, 3))
    y = (X[:, 0] > 0).astype(int)  # a stump separates it: empty confusion cells
    y[:4] = 1 - y[:4]  # and a few errors, so that some cells are not empty
    kw = dict(cv=3, test_size=0.3, balance="imbalanced", classes="2-class",
              measures=["dor", "auc"], random_state=0)
    models = {"nb": GaussianNB(), "stump": DecisionTreeClassifier(max_depth=1)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = bm.benchmark(models, {"d": (X, y)}, **kw).table
        fixed = bm.benchmark(models, {"d": (X, y)}, measure_params={"dor": {"correction": 0.5}},
                             **kw).table
    assert plain["measure"].tolist() == fixed["measure"].tolist()
    d_plain = plain[plain["measure"] == "dor"]["value"].to_numpy()
    d_fixed = fixed[fixed["measure"] == "dor"]["value"].to_numpy()
    assert np.isfinite(d_fixed).all()
    full = np.isfinite(d_plain) & (d_plain > 0)  # no empty cell: the correction changes nothing
    np.testing.assert_allclose(d_plain[full], d_fixed[full])
    assert (~full).any() and (d_fixed[~full] != d_plain[~full]).all()
    auc = plain["measure"] == "auc"
    np.testing.assert_array_equal(plain[auc]["value"], fixed[auc]["value"])
    with pytest.raises(ValueError, match="not among the measures"):
        bm.benchmark(models, {"d": (X, y)}, measure_params={"mcc": {}}, **kw)
    with pytest.raises(TypeError):
        bm.benchmark(models, {"d": (X, y)}, measure_params={"dor": {"beta": 2}}, **kw)
