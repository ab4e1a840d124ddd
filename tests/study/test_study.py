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
from sklearn.metrics import accuracy_score, brier_score_loss, log_loss, roc_auc_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

import binmetrics as bm
from binmetrics.exceptions import UndefinedMeasureWarning
from binmetrics.measures.registry import select_measures
from binmetrics.study import Study, benchmark

ROOT = Path(__file__).resolve().parents[2]
_ID_COLS = ["dataset", "balance", "classes", "model"]


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
        y = DATASETS[str(ds)][1]
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
    """SRD% of every column against the reference, written out (docs/methods.md §1.5)."""
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
    from binmetrics.study._matrices import _prepare_measures

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
    from binmetrics.comparison.srd_covat import covat

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
                     "srd_measures.csv", "srd_models.csv", "failures.csv", "cd_auc.png",
                     "ranks_auc.txt", "ranks_brier_nemenyi.csv", "corrected_t_auc.txt",
                     "study_report.html"):
        assert expected in names
    assert any(n.startswith("covat_") and n.endswith(".png") for n in names)
    assert any(n.startswith("srd_measures_") and n.endswith(".png") for n in names)
    table = pd.read_csv(out / "results.csv")
    assert table["model"].nunique() >= 8
    page = (out / "study_report.html").read_text(encoding="utf-8")
    for part in ("bm-ranks-auc-cd", "bm-ranks-brier-cd", "bm-srd-measures-table",
                 "bm-srd-models-table", "bm-anova-measures-table", "bm-anova-models-table"):
        assert f"id='{part}'" in page
    assert "CorrelatedTTest(" in (out / "corrected_t_auc.txt").read_text(encoding="utf-8")


def test_measure_params_reach_every_value() -> None:
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    import binmetrics as bm

    rng = np.random.default_rng(0)
    X = rng.normal(size=(90, 3))
    y = (X[:, 0] > 0).astype(int)  # a stump separates it: empty confusion cells
    y[:4] = 1 - y[:4]  # and a few errors, so that some cells are not empty
    kw: dict[str, Any] = dict(cv=3, test_size=0.3, balance="imbalanced", classes="2-class",
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


# --- review fixes: measure_params in both class settings -------------------------------------
def kb_information(p_true: np.ndarray, prior_true: np.ndarray) -> float:
    """Mean Kononenko-Bratko information score in bits, written out (Berrar eq. 24):
    log p - log P if p >= P, else log(1 - P) - log(1 - p)."""
    with np.errstate(divide="ignore"):
        gain = np.log2(p_true) - np.log2(prior_true)
        loss = np.log2(1 - prior_true) - np.log2(1 - p_true)
    return float(np.mean(np.where(p_true >= prior_true, gain, loss)))


class CountingNB(GaussianNB):
    """GaussianNB that counts its fits (in this process: n_jobs=1)."""

    fits = 0

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> CountingNB:
        CountingNB.fits += 1
        return super().fit(X, y, sample_weight=sample_weight)


def test_measure_params_are_checked_in_each_class_setting_before_any_fit() -> None:
    CountingNB.fits = 0
    models = {"nb": CountingNB()}
    # a probability for the binary information score, not a multiclass prior kind
    with pytest.raises(ValueError, match=r"information_score.*multiclass setting.*native "
                                         r"multiclass.*prior must be 'test', 'train'"):
        benchmark(models, DATASETS, measures=[*FEW, "information_score"],
                  measure_params={"information_score": {"prior": 0.3}})
    # priors= exists only in the multiclass form
    with pytest.raises(TypeError, match=r"information_score.*2-class setting.*priors"):
        benchmark(models, DATASETS, measures=["information_score"],
                  measure_params={"information_score": {"priors": [0.5, 0.3, 0.2]}})
    # tried with each data set's number of classes: 3 counts do not suit "four"
    with pytest.raises(ValueError, match=r"multiclass setting.*4 classes.*prior_counts"):
        benchmark(models, DATASETS, measures=["information_score"],
                  measure_params={"information_score": {"multiclass": {
                      "prior": "train", "prior_counts": [5, 3, 2]}}})
    with pytest.raises(ValueError, match="mixes class settings"):
        benchmark(models, DATASETS, measures=["information_score"],
                  measure_params={"information_score": {"2-class": {}, "prior": 0.3}})
    assert CountingNB.fits == 0
    # the binary-only study takes the binary prior
    st = quiet(estimators=models, datasets={"three": DATASETS["three"]}, classes="2-class",
               balance="imbalanced", measures=["information_score", "auc"],
               measure_params={"information_score": {"prior": 0.3}})
    assert st.failures.empty and CountingNB.fits > 0
    X, y = DATASETS["three"]
    row = design_row(st, classes="2-class")
    tr, te = row["train_index"], row["test_index"]
    p = GaussianNB().fit(X[tr], y[tr]).predict_proba(X[te])[:, 1]
    pos = y[te] == row["positive"]
    expected = kb_information(np.where(pos, p, 1 - p), np.where(pos, 0.3, 0.7))
    assert value(st, "information_score", validation="test") == pytest.approx(expected,
                                                                              abs=1e-12)


def test_measure_params_per_class_setting() -> None:
    X, y = DATASETS["three"]
    st = quiet(estimators={"nb": GaussianNB()}, datasets={"three": (X, y)},
               balance="imbalanced", measures=["information_score", "accuracy"],
               measure_params={"information_score": {"2-class": {"prior": 0.3},
                                                     "multiclass": {"prior": "laplace"}}})
    assert st.failures.empty and st.undefined.empty
    row = design_row(st, classes="multiclass")
    tr, te = row["train_index"], row["test_index"]
    P = GaussianNB().fit(X[tr], y[tr]).predict_proba(X[te])
    counts = np.bincount(y[te], minlength=3)
    laplace = (counts + 1) / (counts.sum() + 3)  # Weka's (count + 1) / (N + k)
    expected = kb_information(P[np.arange(te.size), y[te]], laplace[y[te]])
    where = {"classes": "multiclass", "validation": "test"}
    assert value(st, "information_score", **where) == pytest.approx(expected, abs=1e-12)
    row = design_row(st, classes="2-class")
    tr, te = row["train_index"], row["test_index"]
    p = GaussianNB().fit(X[tr], y[tr]).predict_proba(X[te])[:, 1]
    pos = y[te] == row["positive"]
    expected = kb_information(np.where(pos, p, 1 - p), np.where(pos, 0.3, 0.7))
    assert value(st, "information_score", classes="2-class", validation="test") == \
        pytest.approx(expected, abs=1e-12)
    assert st.config["measure_params"]["multiclass"] == {"information_score":
                                                         {"prior": "laplace"}}


def test_a_parametrised_measure_failing_on_the_data_loses_that_measure_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import binmetrics.study.runner as study_mod

    # the check before the fits cannot see everything the data reveal: without it, a
    # parameter that does not suit the multiclass form fails at evaluation time
    monkeypatch.setattr(study_mod, "_check_params", lambda *args: None, raising=False)
    X, y = DATASETS["three"]
    kw = dict(estimators={"nb": GaussianNB()}, datasets={"three": (X, y)},
              balance="imbalanced", measures=["information_score", "log_loss", "accuracy",
                                              "auc"])
    st = quiet(**kw, measure_params={"information_score": {"prior": 0.3},
                                     "log_loss": {"base": np.e}})
    assert st.failures.empty
    multi = rows_of(st, classes="multiclass")
    assert len(multi) == 2 * 4  # every measure of both validations is there
    assert multi.query("measure == 'information_score'")["value"].isna().all()
    assert multi.query("measure != 'information_score'")["value"].notna().all()
    why = st.undefined.query("measure == 'information_score'")
    assert set(why["classes"]) == {"multiclass"} and len(why) == 2
    assert why["reason"].str.contains("prior must be 'test', 'train' or 'laplace'").all()
    # the other parametrised measure and the plain ones are right
    row = design_row(st, classes="multiclass")
    tr, te = row["train_index"], row["test_index"]
    P = GaussianNB().fit(X[tr], y[tr]).predict_proba(X[te])
    where = {"classes": "multiclass", "validation": "test"}
    assert value(st, "log_loss", **where) == pytest.approx(log_loss(y[te], P), abs=1e-12)
    assert value(st, "accuracy", **where) == pytest.approx(
        accuracy_score(y[te], P.argmax(axis=1)), abs=1e-12)
    # the 2-class information score takes the binary prior
    assert rows_of(st, classes="2-class")["value"].notna().all()


# --- review fixes: groups too small for the models' cross-validation ---------------------------
def test_a_group_too_small_to_cross_validate_is_left_out_with_a_warning_naming_it() -> None:
    # LinearSVC: no probabilities, so Brier is NaN in the 2-class settings (dropped, 3
    # measures left: too few for leave-one-out) and the model fails in multiclass ones
    st = quiet(estimators={"NaiB": GaussianNB(), "knn": KNeighborsClassifier(3),
                           "svm": LinearSVC()}, datasets=DATASETS,
               measures=["auc", "accuracy", "brier", "mcc"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = st.srd_models()
    msgs = [str(w.message) for w in caught]
    small = {(d, b, "2-class") for d in DATASETS for b in ("imbalanced", "balanced")}
    # 3 measures left: an SRD but no cross-validation (fewer than 3: no SRD at all;
    # here where NaiB's test MCC is NaN too)
    assert set(res.not_cross_validated) | set(res.skipped) == small
    assert len(res.not_cross_validated) == 3 and len(res.skipped) == 1
    text = next(m for m in msgs if "could not be cross-validated" in m)
    for d, b, c in res.not_cross_validated:
        assert f"dataset={d}, balance={b}, classes={c}: 3 rows" in text
        assert res.matrices[d, b, c].shape[0] == 3 and (d, b, c) in res.results
    (d, b, c), = res.skipped
    assert any(f"dataset={d}, balance={b}, classes={c}: 2 rows" in m for m in msgs)
    long = res.long()
    assert set(long["classes"]) == {"multiclass"}
    # leave-one-out of the 4 measures of each multiclass group
    assert len(long) == 4 * 4 * 4  # groups x folds x columns (NaiB, knn, both validated)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = st.anova("models", srd=res)
    assert a.factors == ["balance", "model"] and a.n == len(long)


def test_a_study_with_no_group_large_enough_names_the_groups() -> None:
    st = quiet(estimators={"svm": LinearSVC(), "NaiB": GaussianNB()},
               datasets={"three": DATASETS["three"]}, measures=["auc", "accuracy", "brier"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = st.srd_models()
    # 2-class: 2 measures left (no SRD); multiclass: 3 (an SRD, no cross-validation)
    assert set(res.skipped) == {("three", b, "2-class") for b in ("imbalanced", "balanced")}
    assert set(res.not_cross_validated) == {("three", b, "multiclass")
                                            for b in ("imbalanced", "balanced")}
    assert any("group(s) left out" in str(w.message) and "classes=2-class" in str(w.message)
               for w in caught)
    with pytest.raises(ValueError, match=r"no group could be cross-validated.*'three', "
                                         r"'imbalanced', 'multiclass'"), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")
        st.anova("models")


# --- review fixes: the registry is the one list of measure names -------------------------------
def test_correction_measures_come_from_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses
    import importlib.util

    from binmetrics.measures import registry
    from binmetrics.study._matrices import _prepare_measures

    # a new measure with a correction parameter is picked up with no other change
    new = dataclasses.replace(registry.get_measure("dor"), id="dor_twin", aliases=())
    monkeypatch.setitem(registry._REGISTRY, "dor_twin", new)
    monkeypatch.setitem(registry._NAMES, "dor_twin", "dor_twin")
    with_correction = {m.id for m in bm.iter_measures() if "correction" in m.params}
    assert with_correction == {"dor", "lr_plus", "lr_minus", "dor_twin"}
    m = pd.DataFrame({"dor_twin": [1.0, np.inf, 2.0, 3.0], "lr_plus": [1.0, 2.0, np.inf, 3.0],
                      "log_loss": [0.1, 0.2, 0.3, np.inf],
                      "accuracy": [0.9, 0.8, 0.7, 0.6]}, index=list("abcd"))
    dropped = _prepare_measures(m, orient=True, clean=True).attrs["dropped"]
    assert "{'dor_twin': {'correction': 0.5}}" in dropped["dor_twin"]
    assert "{'lr_plus': {'correction': 0.5}}" in dropped["lr_plus"]
    assert "correction" not in dropped["log_loss"]  # infinite, but no correction to offer
    spec = importlib.util.spec_from_file_location("multilevel_study",
                                                  ROOT / "examples" / "multilevel_study.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    assert example.corrected_measures() == {i: {"correction": 0.5} for i in with_correction}


# --- review fixes: which classes are "the extremes" --------------------------------------------
def test_extremes_follow_an_ordered_categorical_and_warn_for_alphabetical_strings() -> None:
    X, y_int = DATASETS["three"]
    names = np.array(["lo", "mid", "hi"])[y_int]
    ordered = pd.Categorical(names, categories=["lo", "mid", "hi"], ordered=True)
    kw: dict[str, Any] = dict(estimators={"nb": GaussianNB()}, balance="imbalanced",
                              measures=["auc"])
    for y in (ordered, pd.Series(ordered)):
        with warnings.catch_warnings():
            warnings.simplefilter("error", UserWarning)  # no warning about the order
            st = benchmark(datasets={"d": (X, y)}, classes="2-class", **kw)
        row = design_row(st, classes="2-class")
        assert row["labels"] == ["lo", "hi"] and row["positive"] == "hi"
        te = row["test_index"]
        p = GaussianNB().fit(X[row["train_index"]], names[row["train_index"]]).predict_proba(
            X[te])[:, 0]  # sorted classes ['hi', 'lo']: column 0 is "hi"
        assert value(st, "auc", validation="test") == pytest.approx(
            roc_auc_score(names[te] == "hi", p), abs=1e-12)
    st = quiet(datasets={"d": (X, ordered)}, classes="multiclass", **kw)
    assert design_row(st, classes="multiclass")["labels"] == ["lo", "mid", "hi"]
    # plain strings (and an unordered Categorical): sorted order, with a warning
    for y in (names, pd.Categorical(names, categories=["lo", "mid", "hi"])):
        with pytest.warns(UserWarning, match=r"'hi' and 'mid' \(positive\).*ordered pandas "
                                             "Categorical"):
            st = benchmark(datasets={"d": (X, y)}, classes="2-class", **kw)
        assert design_row(st, classes="2-class")["labels"] == ["hi", "mid"]


# --- review fixes: a broken parallel run keeps what finished -----------------------------------
class BreakingParallel:
    """Stands for joblib.Parallel whose workers die after ``n_ok`` tasks."""

    n_ok = 3

    def __init__(self, n_jobs: Any = None, return_as: str = "list", **kw: Any) -> None:
        self.return_as = return_as

    def __call__(self, iterable: Any) -> Any:
        from joblib.externals.loky.process_executor import TerminatedWorkerError

        def gen() -> Any:
            for i, (func, args, kwargs) in enumerate(iterable):
                if i == self.n_ok:
                    raise TerminatedWorkerError("A worker process managed by the executor "
                                                "was unexpectedly terminated.")
                yield func(*args, **kwargs)
        return gen()


def test_a_broken_parallel_run_keeps_the_finished_tasks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import joblib

    kw: dict[str, Any] = dict(estimators=MODELS, datasets={"three": DATASETS["three"]},
                              measures=FEW, random_state=5)
    full = quiet(**kw)  # 4 settings x 2 models = 8 tasks
    monkeypatch.setattr(joblib, "Parallel", BreakingParallel)
    seen: list[tuple[int, int]] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        st = benchmark(**kw, n_jobs=2, progress=lambda d, t: seen.append((d, t)))
    mine = [w for w in caught if "lost" in str(w.message)]
    assert len(mine) == 1 and "5 of 8 task(s) were lost" in str(mine[0].message)
    assert seen[-1] == (8, 8)
    # the first three tasks (setting-major, model-minor) are kept, equal to the full run
    tasks = full.table[_ID_COLS].drop_duplicates(["dataset", "balance", "classes", "model"])
    kept = tasks.iloc[:3]
    merged = st.table.merge(kept, on=list(kept.columns))
    assert len(merged) == len(st.table) == 3 * 2 * len(FEW)
    expected = full.table.merge(kept, on=list(kept.columns))
    pd.testing.assert_frame_equal(merged.reset_index(drop=True),
                                  expected.reset_index(drop=True))
    lost = st.failures
    assert len(lost) == 5 and set(lost["stage"]) == {"worker"}
    assert lost["error"].str.startswith("TerminatedWorkerError").all()
    lost_keys = set(map(tuple, lost[["dataset", "balance", "classes", "model"]].values))
    kept_keys = set(map(tuple, kept.values))
    assert not lost_keys & kept_keys and len(lost_keys | kept_keys) == 8


def test_a_task_that_raises_in_a_sequential_run_is_recorded(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import binmetrics.study._tasks as study_mod

    real = study_mod._run_task

    def flaky(estimator: Any, s: Any, j: int, *args: Any) -> Any:
        if s.balance == "balanced" and s.classes == "2-class" and j == 1:
            raise MemoryError("out of memory")
        return real(estimator, s, j, *args)

    monkeypatch.setattr(study_mod, "_run_task", flaky)
    with pytest.warns(UserWarning, match=r"1 of 8 task\(s\) were lost.*MemoryError"):
        st = benchmark(MODELS, {"three": DATASETS["three"]}, measures=FEW)
    assert st.failures[["balance", "classes", "model", "stage"]].values.tolist() == [
        ["balanced", "2-class", "tree", "worker"]]
    assert len(st.table) == 7 * 2 * len(FEW)


class WorkerKiller(GaussianNB):
    """Ends the process that fits it, unless that is the test's own process."""

    def __init__(self, parent: int | None = None) -> None:
        super().__init__()
        self.parent = parent

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> WorkerKiller:
        import os

        if self.parent is not None and os.getpid() != self.parent:
            os._exit(1)
        raise RuntimeError("WorkerKiller fitted in the main process")


@pytest.mark.slow
def test_a_worker_that_really_dies_is_recorded_not_raised() -> None:
    import os

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        st = benchmark({"nb": GaussianNB(), "killer": WorkerKiller(parent=os.getpid())},
                       {"three": DATASETS["three"]}, measures=FEW, n_jobs=2)
    assert any("were lost" in str(w.message) for w in caught)
    worker = st.failures[st.failures["stage"] == "worker"]
    assert worker["error"].str.startswith("TerminatedWorkerError").all()
    assert "killer" not in set(st.table["model"])
    assert (worker["model"] == "killer").sum() == 4  # none of its tasks can finish
    finished = st.table[["balance", "classes", "model"]].drop_duplicates()
    assert len(finished) + len(worker) == 8  # every task kept or recorded as lost
