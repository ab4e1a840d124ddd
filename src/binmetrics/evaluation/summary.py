"""A classification-report style view of one binary evaluation: :meth:`Evaluation.summary`.

The counts, the threshold and the confusion matrix, each class's precision, recall, F1
and support (as scikit-learn's ``classification_report``), and the main measures with
their intervals. ``binmetrics evaluate --summary`` prints the same text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from binmetrics.formatting import format_number, frame_html, frame_text
from binmetrics.measures import get_measure
from binmetrics.measures.presets import SUMMARY
from binmetrics.table.counts import Confusion

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["SUMMARY_MEASURES", "Summary", "main_measures", "summarize"]

#: the measures of a summary, in order: the registry's ``summary`` set
SUMMARY_MEASURES = SUMMARY.ids


def main_measures(table: Any) -> list[str]:
    """The ids of the main measures of a count table: :data:`SUMMARY_MEASURES`, those
    that need probabilities only when the scores are probabilities (what a summary and
    an Evaluation's ``repr`` show)."""
    return [i for i in SUMMARY_MEASURES
            if table.probabilities_ok or not get_measure(i).needs_probabilities]


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r > 0 else math.nan


def _count(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else format_number(x)


@dataclass(frozen=True)
class Summary:
    """A binary evaluation at a glance (see :meth:`Evaluation.summary`).

    Attributes
    ----------
    n, positives : float
        Cases (weighted sums when weighted) and positive cases.
    pos_label : object
        The label of the positive class.
    threshold : float
    confusion : Confusion
    per_class : pandas.DataFrame
        One row per class (positive, negative): precision, recall, f1, support.
    measures : pandas.DataFrame
        The main measures: id, name, value, low, high, method (NaN bounds without
        intervals).
    level : float or None
        The level of the intervals; None when they were not computed.
    rule : str
        The prediction rule: "score >= threshold", or "score <= threshold" when lower
        scores mean positive.
    """

    n: float
    positives: float
    pos_label: Any
    threshold: float
    confusion: Confusion
    per_class: pd.DataFrame
    measures: pd.DataFrame
    level: float | None
    rule: str = "score >= threshold"

    def to_frame(self) -> pd.DataFrame:
        """The main measures with their intervals (a copy of ``measures``)."""
        return self.measures.copy()

    def _head(self) -> str:
        c = self.confusion
        label = "" if self.pos_label is None else f" (label {self.pos_label!r})"
        return (f"{_count(self.n)} cases: {_count(self.positives)} positive{label}, "
                f"{_count(self.n - self.positives)} negative; threshold "
                f"{format_number(self.threshold)} ({self.rule} is positive)\n"
                f"confusion: tp={_count(c.tp)} fp={_count(c.fp)} fn={_count(c.fn)} "
                f"tn={_count(c.tn)}")

    def _measures_shown(self) -> pd.DataFrame:
        m = self.measures
        if self.level is None:
            return m[["id", "name", "value"]]
        return m[["id", "name", "value", "low", "high", "method"]]

    def __str__(self) -> str:
        ci = "" if self.level is None else f" ({100 * self.level:g}% intervals)"
        return (f"{self._head()}\n\n{frame_text('per class:', self.per_class)}\n\n"
                f"{frame_text('measures' + ci + ':', self._measures_shown(), max_rows=30)}")

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        head = self._head().replace("\n", "; ")
        return (frame_html(head, self.per_class)
                + frame_html("measures", self._measures_shown()))


def summarize(ev: Any, *, ci: bool = True, level: float = 0.95,
              n_resamples: int = 2000, random_state: Any = None,
              progress: Any = "interactive") -> Summary:
    """The :class:`Summary` of ``ev``, an :class:`~binmetrics.Evaluation` (what
    :meth:`Evaluation.summary` returns; this module does not import the Evaluation,
    which imports it)."""
    import pandas as pd

    t = ev.table
    ids = main_measures(t)
    if ci:
        table = ev.ci_table(ids, level=level, n_resamples=n_resamples,
                            random_state=random_state, progress=progress)
        frame = table[["id", "value", "low", "high", "method"]].copy()
    else:
        values = ev.to_dict(measures=ids)
        frame = pd.DataFrame({"id": ids, "value": [values[i] for i in ids],
                              "low": math.nan, "high": math.nan, "method": ""})
    frame.insert(1, "name", [get_measure(i).name for i in frame["id"]])
    v = dict(zip(frame["id"], frame["value"], strict=True))
    pos = "positive" if ev.pos_label is None else f"positive ({ev.pos_label!r})"
    per_class = pd.DataFrame({
        "class": [pos, "negative"],
        "precision": [v["ppv"], v["npv"]],
        "recall": [v["tpr"], v["tnr"]],
        "f1": [v["f1"], _f1(v["npv"], v["tnr"])],
        "support": [t.P, t.N],
    })
    return Summary(n=float(t.total), positives=float(t.P), pos_label=ev.pos_label,
                   threshold=ev.threshold, confusion=ev.confusion, per_class=per_class,
                   measures=frame.reset_index(drop=True), level=level if ci else None,
                   rule=ev.rule)
