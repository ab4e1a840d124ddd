"""What the plot kinds (:mod:`~binmetrics.evaluation.plot_kinds`,
:mod:`~binmetrics.evaluation.chart_data`) read from their arguments: the models argument,
the evaluations' thresholds and rules, labels. Colours, markers and limits are the
renderer's (:func:`binmetrics.chart.render`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.validation import check_threshold

__all__ = ["FloatArray", "Models", "MulticlassSource", "PlotSource", "label", "models_of",
           "need_both", "operating_threshold", "rule_label", "table_cut"]

FloatArray = npt.NDArray[np.float64]
#: ``[(name or None, Evaluation)]``: an Evaluation is typed ``Any`` here, as this module
#: cannot import its class (see :class:`PlotSource`)
Models = list[tuple[str | None, Any]]


class MulticlassSource:
    """What the multiclass plot kinds draw (a
    :class:`~binmetrics.evaluation.multiclass.MulticlassEvaluation`): a base class here,
    so that the drawing modules need not import the multiclass module (which draws
    through them)."""

    weighted: bool

    @property
    def classes(self) -> list[Any]:
        raise NotImplementedError

    @property
    def confusion_matrix(self) -> Any:
        raise NotImplementedError


class PlotSource:
    """A base of :class:`~binmetrics.Evaluation`: what the plot kinds draw.

    ``Evaluation.plot`` imports the plot kinds, so they cannot import the evaluation's
    module back (no import cycles, docs/architecture.md); they recognise an evaluation
    by this base, declared below both.
    """

    __slots__ = ()


def models_of(ev_or_models: Any, feature: str, *, multiclass: bool = False) -> Models:
    """``[(name or None, Evaluation)]`` from an Evaluation or a mapping of them (also
    MulticlassEvaluation with ``multiclass``)."""
    kinds: tuple[type, ...] = (PlotSource, MulticlassSource) if multiclass else (PlotSource,)
    if isinstance(ev_or_models, kinds):
        return [(None, ev_or_models)]
    if isinstance(ev_or_models, Mapping):
        if not ev_or_models:
            raise ValueError(f"{feature}: the mapping of models is empty")
        out: Models = []
        for name, ev in ev_or_models.items():
            if not isinstance(ev, kinds):
                raise TypeError(f"{feature}: model {name!r} is a {type(ev).__name__}, not an "
                                f"Evaluation{_multiclass_hint(ev)}")
            out.append((str(name), ev))
        return out
    raise TypeError(f"{feature} takes an Evaluation or a mapping name -> Evaluation; got "
                    f"{type(ev_or_models).__name__}{_multiclass_hint(ev_or_models)}")


def _multiclass_hint(obj: Any) -> str:
    if isinstance(obj, MulticlassSource):
        return (" (for one class of a multiclass model, plot its one-vs-rest evaluation "
                "bm.Evaluation(mev.table(cls)))")
    return ""


def need_both(name: str | None, ev: Any, feature: str) -> None:
    """A ValueError unless the evaluation has positives and negatives."""
    t = ev.table
    if t.P == 0 or t.N == 0:
        who = f"model {name!r}" if name else "the evaluation"
        missing = "positives" if t.P == 0 else "negatives"
        raise ValueError(f"{feature}: {who} has no {missing}; the curve needs both classes")


def label(name: str | None, text: str) -> str:
    """A legend entry: the model's name first when there are several."""
    return f"{name}: {text}" if name else text


def operating_threshold(ev: Any, operating_point: Any) -> float | None:
    """None (no marker), the evaluation's own threshold (True) or the given one."""
    if operating_point is None or operating_point is False:
        return None
    if operating_point is True:
        return ev.threshold
    return check_threshold(operating_point)


def table_cut(ev: Any, threshold: float) -> float:
    """A threshold in the scores' units as a cut of the evaluation's table."""
    return float(ev.oriented(threshold))


def rule_label(models: Models) -> str:
    """The threshold axis' label: the prediction rule of the models."""
    rules = {ev.rule for _, ev in models}
    rule = rules.pop() if len(rules) == 1 else "score >= or <= threshold"
    return f"threshold ({rule} is positive)"
