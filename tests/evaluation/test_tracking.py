"""Evaluation.log_to_mlflow against a real MLflow file store, log_to_wandb offline."""

from __future__ import annotations

import math
from io import StringIO
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm

mlflow = pytest.importorskip("mlflow")


def _evaluation() -> bm.Evaluation:
    rng = np.random.default_rng(0)
    y = rng.random(400) < 0.3
    return bm.evaluate(y, np.clip(0.3 + 0.3 * y + rng.normal(0, 0.2, 400), 0, 1))


def test_log_to_mlflow_is_read_back_from_the_store(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")  # a file store, as a test needs
    mlflow.set_tracking_uri((tmp_path / "mlruns").as_uri())
    experiment = mlflow.create_experiment("binmetrics")
    ev = _evaluation()
    with mlflow.start_run(experiment_id=experiment) as run:
        run_id = ev.log_to_mlflow(prefix="val_", measures=["auc", "f1", "brier", "mcc"])
    assert run_id == run.info.run_id
    client = mlflow.tracking.MlflowClient()
    logged = client.get_run(run_id).data.metrics
    assert logged == {f"val_{i}": pytest.approx(ev[i], rel=1e-15)
                      for i in ("auc", "f1", "brier", "mcc")}
    paths = {a.path for a in client.list_artifacts(run_id)}
    assert {"val_measures.csv", "val_roc.csv", "val_pr.csv", "val_roc.png",
            "val_pr.png"} <= paths
    folder = Path(client.download_artifacts(run_id, "", str(tmp_path / "out")))
    table = pd.read_csv(folder / "val_measures.csv")
    assert list(table["id"]) == ["auc", "f1", "brier", "mcc"]
    roc = pd.read_csv(folder / "val_roc.csv")
    pd.testing.assert_frame_equal(roc, pd.read_csv(StringIO(ev.roc().to_frame().to_csv(
        index=False))))
    assert len(roc) > 20  # every point of the curve


def test_undefined_values_are_a_tag_not_a_metric(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    mlflow.set_tracking_uri((tmp_path / "mlruns").as_uri())
    experiment = mlflow.create_experiment("undefined")
    with pytest.warns(UserWarning, match="every case is predicted negative"):
        ev = bm.evaluate([1, 0, 1, 0], [0.2, 0.1, 0.3, 0.15], threshold=0.9)
    with pytest.warns(bm.UndefinedMeasureWarning):
        assert math.isnan(ev["ppv"])
    with mlflow.start_run(experiment_id=experiment) as run:
        ev.log_to_mlflow(measures=["auc", "ppv"], curves=False)
    data = mlflow.tracking.MlflowClient().get_run(run.info.run_id).data
    assert set(data.metrics) == {"auc"}
    assert data.tags["undefined_measures"] == "ppv"


def test_a_missing_tracker_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "mlflow", None)  # import mlflow now fails
    with pytest.raises(ImportError, match=r"pip install 'binmetrics\[mlflow\]'"):
        _evaluation().log_to_mlflow()


def test_log_to_wandb_offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wandb = pytest.importorskip("wandb")
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.setenv("WANDB_MODE", "offline")
    monkeypatch.setenv("WANDB_SILENT", "true")
    ev = _evaluation()
    with pytest.raises(ValueError, match=r"call wandb.init\(\) first"):
        ev.log_to_wandb()
    run = wandb.init(mode="offline", dir=str(tmp_path), project="binmetrics")
    try:
        ev.log_to_wandb(prefix="val_", measures=["auc", "f1"])
        assert run.summary["val_auc"] == pytest.approx(ev["auc"], rel=1e-15)
        assert run.summary["val_f1"] == pytest.approx(ev["f1"], rel=1e-15)
        assert "val_measures" in run.summary.keys()
    finally:
        run.finish()
    assert list(tmp_path.glob("wandb/offline-run-*/run-*.wandb"))
