"""Named sets of measures (``measures="multilevel28"``), the multi-level paper's ROC_EF5
and its normalized mean rank of the positives."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata
from sklearn.metrics import roc_curve

import binmetrics as bm
from binmetrics.cli import main
from binmetrics.measures import PRESETS
from binmetrics.measures.registry import register_preset, select_measures

ML28 = PRESETS["multilevel28"]


def _data(seed: int, n: int = 400) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = np.round(np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0, 1), 2)  # ties
    return y.astype(int), s, rng.uniform(0.5, 2.0, n)


def test_the_preset_is_the_papers_28_measures() -> None:
    assert len(ML28.ids) == len(set(ML28.ids)) == 28
    for i in ML28.ids:  # every member is declared from the paper's Tables 4-6
        assert "multi-level paper" in bm.get_measure(i).source, i
    # the recommended ROC_EF5 and the paper's r are members, reachable by name
    assert bm.get_measure("ROC_EF5").id in ML28.ids
    assert bm.get_measure("roc_ef5%").id == "roc_ef5"
    assert bm.get_measure("normalized mean rank").id in ML28.ids
    assert [m.id for m in select_measures(measures="multilevel28")] == list(ML28.ids)
    assert [m.id for m in select_measures(measures="Multilevel28")] == list(ML28.ids)


def test_roc_ef5_is_tpr_at_fpr_5_percent_over_5_percent() -> None:
    for seed in range(5):
        y, s, w = _data(seed)
        ev = bm.evaluate(y, s, sample_weight=w)
        # scikit-learn's ROC vertices with ties as diagonal segments; no vertex lies at
        # exactly FPR 0.05 with these random weights, so linear interpolation is TPR(x)
        fpr, tpr, _ = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
        assert not np.any(fpr == 0.05)
        expected = np.interp(0.05, fpr, tpr) / 0.05
        assert ev["roc_ef5"] == pytest.approx(expected, rel=1e-12)
        assert ev["roc_ef5"] == ev.value("roc_enrichment", fpr=0.05)


def test_mean_rank_normalized_as_the_paper_writes_it() -> None:
    for seed in range(5):
        y, s, _ = _data(seed)
        ranks = rankdata(-s, method="average")  # rank 1 = highest score, ties averaged
        expected = ranks[y == 1].sum() / (y.sum() * y.size)  # r = sum r_i / (P (P + N))
        ev = bm.evaluate(y, s)
        assert ev["mean_rank_normalized"] == pytest.approx(expected, rel=1e-12)
        assert ev["mean_rank_normalized"] == ev.value("mean_rank_positives", normalized=True)


def test_every_measures_argument_takes_the_preset() -> None:
    y, s, _ = _data(7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # BEDROC's caveat
        ev = bm.evaluate(y, s)
        assert list(ev.to_dict(measures="multilevel28")) == list(ML28.ids)
        assert ev.to_frame(measures="multilevel28")["id"].tolist() == list(ML28.ids)
        df = pd.DataFrame({"y": y, "s": s, "g": np.repeat([1, 2], y.size // 2)})
        res = bm.evaluate_by(df, label="y", score="s", by="g", measures="multilevel28")
        assert res.measures == list(ML28.ids)
        evs = {i: bm.evaluate(*_data(i)[:2]) for i in range(4)}
        corr = bm.measure_correlation(evs, "multilevel28")
        assert list(corr.matrix.columns) == list(ML28.ids)


def test_cli_measures_takes_the_preset(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    y, s, _ = _data(8)
    path = tmp_path / "d.csv"
    pd.DataFrame({"y": y, "s": s}).to_csv(path, index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["evaluate", str(path), "--label", "y", "--score", "s",
                     "--measures", "multilevel28,log_loss", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out["measures"]) == [*ML28.ids, "log_loss"]


def test_study_and_srd_on_the_preset() -> None:
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    X, y = make_classification(200, n_features=5, n_informative=3, random_state=0)
    models = {"lr": LogisticRegression(), "nb": GaussianNB(),
              "tree": DecisionTreeClassifier(max_depth=3, random_state=0)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        study = bm.benchmark(models, {"toy": (X, y)}, cv=3, measures="multilevel28",
                             balance="imbalanced", classes="2-class")
        assert study.measures == list(ML28.ids)
        res = study.srd_measures(measures="multilevel28", cv=None, by=("balance",))
    mats = study.measures_matrix(measures="multilevel28", by=("balance",), clean=False)
    assert list(next(iter(mats.values())).columns) == list(ML28.ids)
    assert set(res.summary()["measure"]) <= set(ML28.ids)
    with pytest.raises(ValueError, match="the study did not compute"):
        bm.study.example_study().srd_measures(measures="multilevel28")


def test_bad_names() -> None:
    with pytest.raises(KeyError, match="is a set of measures"):
        bm.get_measure("multilevel28")
    with pytest.raises(KeyError, match="did you mean"):
        bm.evaluate([0, 1], [0.2, 0.8]).to_dict(measures="multilevel82")
    with pytest.raises(RuntimeError, match="already taken"):
        register_preset("auc", ["auc"], source="x", description="x")


def test_the_named_forms_warn_under_their_own_names() -> None:
    ev = bm.evaluate([1, 1, 1], [0.2, 0.5, 0.9])
    for i in ("roc_ef5", "mean_rank_normalized"):
        with pytest.warns(bm.UndefinedMeasureWarning, match=f"^{i} is undefined"):
            assert np.isnan(ev[i])


def test_the_summary_set_is_what_summary_and_repr_show() -> None:
    """ev.summary(), the Evaluation's repr and measures="summary" read one registry set;
    a measure of it that needs probabilities drops out for scores outside [0, 1]."""
    from binmetrics.evaluation.summary import main_measures

    ids = PRESETS["summary"].ids
    assert "brier" in ids and "auc" in ids
    probs = bm.evaluate([1, 0, 1, 0, 1], [0.9, 0.2, 0.6, 0.7, 0.4])
    assert list(probs.to_dict(measures="summary")) == list(ids)
    assert main_measures(probs.table) == list(ids)
    margins = bm.evaluate([1, 0, 1, 0, 1], [2.0, -1.0, 0.5, 0.7, -0.2], threshold=0)
    needs = {i for i in ids if bm.get_measure(i).needs_probabilities}
    assert needs == {"brier"}
    assert main_measures(margins.table) == [i for i in ids if i not in needs]
    text = repr(margins)
    assert "brier" not in text and all(i in text for i in ids if i not in needs)
