"""Logging an evaluation to an experiment tracker (MLflow, Weights & Biases): the
measures as metrics, the table of measures as an artifact, the curves with all their
points, and their figures. The trackers are optional extras, imported when called."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from binmetrics.measures import Measure

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["TrackingMethods"]

#: the curves logged with ``curves=True``: the evaluation's method and its plot kind
_CURVES = ("roc", "pr")


def _tracker(module: str, extra: str, feature: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(f"{feature} needs {extra}; install it with "
                          f"pip install 'binmetrics[{extra}]'") from None


def _figures(ev: Any) -> dict[str, Any]:
    """The curves' figures, when matplotlib is installed ({} otherwise)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return {}
    return {kind: ev.plot(kind).figure for kind in _CURVES}


class TrackingMethods:
    """:meth:`log_to_mlflow` and :meth:`log_to_wandb` of an
    :class:`~binmetrics.Evaluation`."""

    def _tracked(self, measures: Iterable[str | Measure] | None
                 ) -> tuple[dict[str, float], pd.DataFrame]:
        ev: Any = self  # an Evaluation (the class this mixes into)
        frame = ev.to_frame(measures=measures)
        values = {str(i): float(v) for i, v in zip(frame["id"], frame["value"], strict=True)}
        return values, frame

    def log_to_mlflow(self, *, prefix: str = "", measures: Iterable[str | Measure] | None
                      = None, curves: bool = True) -> str:
        """Log the evaluation to the active MLflow run (one is started if none is).

        - metrics: ``<prefix><id>`` for each measure (default: every registered
          measure; name a subset with ``measures``); undefined (NaN) values are not
          logged as metrics, and are listed in the tag ``undefined_measures``;
        - artifact ``<prefix>measures.csv``: the table of measures (id, name, family,
          value, direction, range, source);
        - with ``curves=True``: ``<prefix>roc.csv`` and ``<prefix>pr.csv`` with every
          point of the curves (not a fixed number of points), and their figures
          ``<prefix>roc.png``, ``<prefix>pr.png`` when matplotlib is installed.

        Needs mlflow (``pip install 'binmetrics[mlflow]'``; mlflow-skinny suffices).

        Returns
        -------
        str
            The run id.

        Examples
        --------
        >>> import binmetrics as bm
        >>> ev = bm.evaluate([1, 0, 1, 0, 1], [.9, .4, .7, .5, .3])
        >>> run_id = ev.log_to_mlflow(prefix="val_", measures=["auc", "f1"])  # doctest: +SKIP
        """
        mlflow = _tracker("mlflow", "mlflow", "log_to_mlflow")
        ev: Any = self  # an Evaluation (the class this mixes into)
        values, frame = self._tracked(measures)
        run = mlflow.active_run() or mlflow.start_run()
        defined = {f"{prefix}{k}": v for k, v in values.items() if math.isfinite(v)}
        mlflow.log_metrics(defined)
        undefined = sorted(k for k, v in values.items() if not math.isfinite(v))
        if undefined:
            mlflow.set_tag("undefined_measures", ",".join(undefined))
        mlflow.log_text(frame.to_csv(index=False), f"{prefix}measures.csv")
        if curves:
            for kind in _CURVES:
                mlflow.log_text(getattr(ev, kind)().to_frame().to_csv(index=False),
                                f"{prefix}{kind}.csv")
            for kind, fig in _figures(ev).items():
                mlflow.log_figure(fig, f"{prefix}{kind}.png")
                _close(fig)
        return str(run.info.run_id)

    def log_to_wandb(self, *, prefix: str = "", measures: Iterable[str | Measure] | None
                     = None, curves: bool = True) -> None:
        """Log the evaluation to the active Weights & Biases run (``wandb.init()`` first).

        The measures as ``<prefix><id>`` (undefined ones left out), the table of measures
        as ``<prefix>measures`` (a ``wandb.Table``), and with ``curves=True`` the ROC
        and precision-recall curves with **every** point (``<prefix>roc``,
        ``<prefix>pr``: a table and a line plot; W&B's own ``wandb.plot.roc_curve``
        keeps 20 thresholds) and their figures when matplotlib is installed.

        Needs wandb (``pip install 'binmetrics[wandb]'``); tested in offline mode.
        """
        wandb = _tracker("wandb", "wandb", "log_to_wandb")
        if wandb.run is None:
            raise ValueError("log_to_wandb needs an active run: call wandb.init() first")
        ev: Any = self  # an Evaluation (the class this mixes into)
        values, frame = self._tracked(measures)
        row: dict[str, Any] = {f"{prefix}{k}": v for k, v in values.items()
                               if math.isfinite(v)}
        row[f"{prefix}measures"] = wandb.Table(dataframe=frame.astype({"value": float}))
        if curves:
            axes = {"roc": ("fpr", "tpr"), "pr": ("recall", "precision")}
            for kind in _CURVES:
                points = getattr(ev, kind)().to_frame()
                x, y = axes[kind]
                table = wandb.Table(dataframe=points[[x, y]])
                row[f"{prefix}{kind}"] = wandb.plot.line(table, x, y, title=kind)
            for kind, fig in _figures(ev).items():
                row[f"{prefix}{kind}_figure"] = wandb.Image(fig)
                _close(fig)
        wandb.log(row)


def _close(fig: Any) -> None:
    import matplotlib.pyplot as plt

    plt.close(fig)
