"""The study's per-fold values and the corrected resampled t-test on them (issue 16).

The fold values are recomputed here with scikit-learn alone (StratifiedKFold with the
setting's cv_seed, cross_val_predict, roc_auc_score / brier_score_loss on each fold's
cases), and the test against baycomp's CorrelatedTTest (runs=1, so rho = 1/K) and the
Nadeau-Bengio statistic written out.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.metrics import brier_score_loss, roc_auc_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import binmetrics as bm
from binmetrics.study import Study, benchmark

baycomp = pytest.importorskip("baycomp")

X, Y = make_classification(230, n_features=5, n_informative=3, n_redundant=0, n_classes=3,
                           weights=[0.5, 0.3, 0.2], flip_y=0.05, random_state=3)
MODELS = {"NaiB": GaussianNB(), "tree": DecisionTreeClassifier(max_depth=2)}


def quiet(**kw: Any) -> Study:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(**kw)


@pytest.fixture(scope="module")
def study() -> Study:
    return quiet(estimators=MODELS, datasets={"toy": (X, Y)}, cv=7, classes="2-class",
                 measures=["auc", "brier", "accuracy", "prevalence"])


def sklearn_folds(st: Study, balance: str, model: Any) -> tuple[list[float], list[float],
                                                                 list[int], list[int]]:
    row = st.design.query(f"balance == '{balance}' and classes == '2-class'").iloc[0]
    idx = row["train_index"]
    Xt, yt = X[idx], Y[idx]
    folds = list(StratifiedKFold(7, shuffle=True, random_state=row["cv_seed"]).split(Xt, yt))
    p = cross_val_predict(model, Xt, yt, cv=folds, method="predict_proba")[:, 1]
    pos = yt == row["positive"]
    auc = [roc_auc_score(pos[te], p[te]) for _, te in folds]
    brier = [brier_score_loss(pos[te], p[te]) for _, te in folds]
    return auc, brier, [len(tr) for tr, _ in folds], [len(te) for _, te in folds]


@pytest.mark.parametrize("balance", ["imbalanced", "balanced"])
def test_fold_values_are_each_folds_own_predictions(study: Study, balance: str) -> None:
    auc, brier, n_train, n_test = sklearn_folds(study, balance, GaussianNB())
    t = study.fold_table("auc", balance=balance)
    assert t["NaiB"].to_numpy() == pytest.approx(auc, abs=1e-12)
    assert t["n_train"].tolist() == n_train and t["n_test"].tolist() == n_test
    assert study.fold_table("brier", balance=balance)["NaiB"].to_numpy() == pytest.approx(
        brier, abs=1e-12)
    # the folds are not the pooled value: the pooled AUC ranks across folds
    pooled = study.table.query(f"balance == '{balance}' and model == 'NaiB' and "
                               "validation == 'cv' and measure == 'auc'")["value"].item()
    assert pooled != pytest.approx(np.mean(auc), abs=1e-12)


@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_correlated_t_test_on_the_folds(study: Study, rope: float) -> None:
    a, _, n_train, n_test = sklearn_folds(study, "imbalanced", GaussianNB())
    # the tree is seeded by the study: its fold values come from the study (the NaiB ones
    # are recomputed independently above)
    b = study.fold_table("auc", balance="imbalanced")["tree"].to_numpy()
    res = study.correlated_t_test("auc", "NaiB", "tree", rope=rope, balance="imbalanced")
    rho = np.mean(np.array(n_test) / (np.array(n_train) + np.array(n_test)))
    assert rho == pytest.approx(1 / 7, abs=1e-15)  # K-fold: the test fractions average 1/K
    same = bm.correlated_t_test(np.array(a), b, test_fraction=rho, rope=rope)
    assert (res.statistic, res.pvalue, *res.probabilities) == pytest.approx(
        (same.statistic, same.pvalue, *same.probabilities), rel=1e-12, abs=1e-15)
    ref = baycomp.CorrelatedTTest.probs(np.array(a), b, rope=rope, runs=1)
    ours = res.probabilities if rope else res.probabilities[::2]  # baycomp: no middle
    assert ours == pytest.approx(ref, rel=1e-10, abs=1e-14)
    d = np.array(a) - b
    t = d.mean() / math.sqrt((1 / 7 + 1 / 6) * d.var(ddof=1))
    assert res.statistic == pytest.approx(t, rel=1e-12)
    assert res.pvalue == pytest.approx(2 * stats.t.sf(abs(t), 6), rel=1e-12)


def test_a_loss_measure_counts_the_smaller_loss_for_a(study: Study) -> None:
    t = study.fold_table("brier", balance="balanced")
    res = study.correlated_t_test("brier", "NaiB", "tree", balance="balanced")
    assert res.differences == pytest.approx((t["tree"] - t["NaiB"]).to_numpy())
    flipped = study.correlated_t_test("brier", "tree", "NaiB", balance="balanced")
    assert flipped.probabilities == pytest.approx(res.probabilities[::-1])


def test_misuse_is_refused(study: Study) -> None:
    with pytest.raises(ValueError, match="pick one setting"):
        study.correlated_t_test("auc", "NaiB", "tree")  # two balances
    with pytest.raises(ValueError, match="no direction"):
        study.correlated_t_test("prevalence", "NaiB", "tree", balance="balanced")
    with pytest.raises(ValueError, match="no fold values of SVM"):
        study.correlated_t_test("auc", "NaiB", "SVM", balance="balanced")
    with pytest.raises(ValueError, match="did not compute mcc"):
        study.fold_table("mcc", balance="balanced")
    with pytest.raises(ValueError, match="rope must be"):
        study.correlated_t_test("auc", "NaiB", "tree", balance="balanced", rope=-0.1)
    test_only = quiet(estimators=MODELS, datasets={"toy": (X, Y)}, cv=None,
                      classes="2-class", balance="balanced", measures=["auc"])
    assert test_only.folds.empty
    with pytest.raises(ValueError, match=r"no per-fold values.*cv=None"):
        test_only.correlated_t_test("auc", "NaiB", "tree")


def test_a_fold_holding_one_class_is_nan_with_its_reason_and_refused() -> None:
    # 3 positive cases in 4 stratified folds: one fold holds no positive, its AUC is NaN
    Xs, ys2 = X[:60], np.r_[np.zeros(57, int), np.ones(3, int)]
    st3 = quiet(estimators=MODELS, datasets={"rare": (Xs, ys2)}, cv=4, test_size=None,
                balance="imbalanced", measures=["auc", "accuracy"])
    nan = st3.folds[st3.folds["value"].isna()]
    assert len(nan) and (nan["measure"] == "auc").all() and nan["reason"].str.len().gt(0).all()
    assert st3.folds.loc[st3.folds["value"].notna(), "reason"].eq("").all()
    with pytest.raises(ValueError, match=r"no auc value on fold \d \(.+\); the corrected"):
        st3.correlated_t_test("auc", "NaiB", "tree")


def test_scores_table_holds_only_the_blocks_the_study_ran() -> None:
    # a 2-class data set has no multiclass setting: no phantom (two, *, multiclass) block
    X2, y2 = make_classification(120, n_features=4, n_informative=3, n_redundant=0,
                                 random_state=4)
    st = quiet(estimators=MODELS, datasets={"three": (X, Y), "two": (X2, y2)}, cv=3,
               measures=["auc"])
    wide = st.scores_table("auc")
    ran = st.design[["dataset", "balance", "classes"]].agg(" | ".join, axis=1).tolist()
    assert sorted(wide.index) == sorted(ran) and len(wide) == 6
    assert not wide.isna().to_numpy().any()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing to drop
        assert st.rank_comparison("auc", nan_policy="omit").n_datasets == 6
