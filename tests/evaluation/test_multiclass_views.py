"""Issue 33, point 6: a multiclass evaluation prints a table, ``summary()`` equals
scikit-learn's ``classification_report``, ``plot()`` draws the multiclass kinds,
``bm.report`` writes its page, and ``per_class_frame()`` issues no BEDROC caveats."""

from __future__ import annotations

import warnings
from pathlib import Path

import matplotlib
import numpy as np
import pytest
from sklearn.metrics import classification_report

import binmetrics as bm
from binmetrics.evaluation.multiclass import evaluate_multiclass

matplotlib.use("Agg")


def _data(seed: int, n: int = 400, k: int = 4) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    logits = rng.normal(0, 1, (n, k)) + 1.2 * np.eye(k)[y]
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    return y, proba, rng.uniform(0.2, 3, n)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_summary_equals_classification_report(seed: int, weighted: bool) -> None:
    y, proba, w = _data(seed)
    labels = np.array(["cat", "dog", "eel", "fox"])
    sw = w if weighted else None
    mev = evaluate_multiclass(labels[y], proba, sample_weight=sw)
    got = mev.summary().to_frame()
    want = classification_report(labels[y], labels[np.argmax(proba, axis=1)],
                                 sample_weight=sw, output_dict=True, zero_division=0)
    for row in ("cat", "dog", "eel", "fox", "macro avg", "weighted avg"):
        for col in ("precision", "recall", "f1-score", "support"):
            assert got.loc[row, col] == pytest.approx(want[row][col], rel=1e-12), (row, col)
    assert got.loc["accuracy", "f1-score"] == pytest.approx(want["accuracy"], rel=1e-12)
    assert got.loc["accuracy", "f1-score"] == pytest.approx(mev["accuracy"], rel=1e-12)


def test_summary_of_a_class_never_predicted() -> None:
    y = np.array([0, 0, 1, 1, 2, 2])
    proba = np.array([[.8, .1, .1], [.6, .3, .1], [.2, .7, .1], [.5, .4, .1],
                      [.3, .6, .1], [.1, .8, .1]])  # class 2 never predicted
    mev = evaluate_multiclass(y, proba)
    with pytest.warns(bm.UndefinedMeasureWarning, match="precision of class 2"):
        frame = mev.summary().to_frame()
    assert np.isnan(frame.loc["2", "precision"])
    want = classification_report(y, proba.argmax(axis=1), output_dict=True, zero_division=0)
    # the averages leave the undefined precision out (scikit-learn counts it as 0)
    assert frame.loc["macro avg", "recall"] == pytest.approx(want["macro avg"]["recall"])
    assert frame.loc["macro avg", "precision"] == pytest.approx(
        np.mean([want["0"]["precision"], want["1"]["precision"]]))


def test_repr_is_a_table() -> None:
    y, proba, _ = _data(3)
    mev = evaluate_multiclass(y, proba)
    text = repr(mev)
    lines = text.splitlines()
    assert lines[0] == "MulticlassEvaluation(n=400, classes=[0, 1, 2, 3], average='weighted')"
    assert lines[1].split() == ["id", "value"]
    shown = {line.split()[0]: float(line.split()[1]) for line in lines[2:]}
    for m in ("accuracy", "mcc", "kappa", "brier", "auc"):
        assert shown[m] == pytest.approx(mev[m], rel=1e-5)


def test_plot_and_report(tmp_path: Path) -> None:
    y, proba, _ = _data(4)
    mev = evaluate_multiclass(y, proba)
    ax = mev.plot()
    assert ax.get_xlabel() == "predicted" and ax.get_ylabel() == "actual"
    with pytest.raises(ValueError, match="does not apply to a multiclass evaluation"):
        mev.plot("roc")
    out = tmp_path / "mc.html"
    page = bm.report(mev, out, title="Four classes")
    assert out.read_text(encoding="utf-8") == page
    assert "<h1>Four classes</h1>" in page and "Classification report" in page
    assert "weighted avg" in page and "Confusion matrix" in page


def test_per_class_frame_is_quiet() -> None:
    y, proba, _ = _data(5, n=3000, k=3)
    y[:2900] = 0  # rare classes: alpha * Ra > 1 for BEDROC
    mev = evaluate_multiclass(y, proba)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        frame = mev.per_class_frame()
    assert "bedroc" in frame.index
    with pytest.warns(bm.MeasureCaveatWarning, match="bedroc: alpha"):  # named: given
        evaluate_multiclass(y, proba).per_class_frame(measures=["bedroc"])
