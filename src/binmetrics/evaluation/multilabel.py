"""Multilabel evaluation: an (n, L) indicator matrix and an (n, L) score matrix, each
label a binary problem, averaged per label, micro, macro, weighted or per sample (the
averages of scikit-learn's multilabel metrics)."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from binmetrics.evaluation.binary import Evaluation
from binmetrics.evaluation.multilabel_ci import MultilabelInferenceMethods
from binmetrics.exceptions import (
    UndefinedMeasureWarning,
    UndefinedPolicy,
    undefined_message,
    undefined_policy,
)
from binmetrics.formatting import Tabular
from binmetrics.measures import Measure, get_measure
from binmetrics.measures.registry import Family, select_measures
from binmetrics.table.counts import Confusion, CountTable
from binmetrics.validation import check_threshold, check_weights

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["MultilabelEvaluation", "evaluate_multilabel"]

MultilabelAverage = Literal["macro", "micro", "weighted", "samples"]
_AVERAGES = ("macro", "micro", "weighted", "samples")


def _matrix(x: Any, name: str) -> npt.NDArray[np.float64]:
    a = np.asarray(x)
    if a.ndim != 2:
        raise ValueError(f"{name} must be 2-D (cases x labels), got shape {a.shape}")
    if a.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be numeric")
    a = a.astype(np.float64)
    if not np.isfinite(a).all():
        raise ValueError(f"{name} holds NaN or inf")
    return a


class MultilabelEvaluation(MultilabelInferenceMethods, Tabular):
    """Every registered measure of a multilabel classifier (:func:`evaluate_multilabel`).

    ``lev.value(id, average=...)``: ``"macro"`` (mean over the labels), ``"weighted"``
    (by each label's positives), ``"micro"`` (the measure of all (label, case) pairs
    pooled), ``"samples"`` (the measure of each case over its labels, averaged over the
    cases). Undefined values (a label with one class, a case without positives) are
    NaN with one warning, and left out of the averages (scikit-learn's
    ``zero_division=np.nan``). :meth:`per_label` gives one value per label.
    """

    def __init__(self, Y: Any, S: Any, *, threshold: float = 0.5, sample_weight: Any = None,
                 labels: Any = None, average: MultilabelAverage = "macro",
                 undefined: UndefinedPolicy = "warn") -> None:
        y, s = _matrix(Y, "Y"), _matrix(S, "S")
        if y.shape != s.shape:
            raise ValueError(f"Y and S must have the same shape, got {y.shape} and {s.shape}")
        if not np.isin(y, (0.0, 1.0)).all():
            raise ValueError("Y must hold 0/1 indicators")
        if average not in _AVERAGES:
            raise ValueError(f"average must be one of {_AVERAGES}, got {average!r}")
        n, n_labels = y.shape
        self.labels = list(range(n_labels)) if labels is None else list(labels)
        if len(self.labels) != n_labels:
            raise ValueError(f"{len(self.labels)} labels for {n_labels} columns")
        self.weight = check_weights(sample_weight, n)
        self.threshold = check_threshold(threshold)
        self.average: MultilabelAverage = average
        self.undefined: UndefinedPolicy = undefined
        self._y, self._s = y.astype(bool), s
        #: one binary Evaluation per label
        self.evaluations = [
            Evaluation(CountTable.from_validated(self._y[:, j], s[:, j], self.weight),
                       threshold=self.threshold, undefined=undefined)
            for j in range(n_labels)]

    def _title(self) -> str:
        n, k = self._y.shape
        return (f"MultilabelEvaluation(n={n}, labels={k}, threshold={self.threshold:g}, "
                f"average={self.average!r})")

    def per_label(self, measure: str | Measure, **params: Any) -> pd.Series:
        """The measure of each label's binary evaluation, indexed by label.

        A label where it is undefined (e.g. a column with one class for the AUC) is NaN,
        with one warning naming the labels and the reason; the macro and weighted
        averages leave those labels out."""
        import pandas as pd

        m = get_measure(measure)
        values: list[float] = []
        undefined_at: list[Any] = []
        reasons: dict[str, Any] = {}
        with self._warnings():
            for label, ev in zip(self.labels, self.evaluations, strict=True):
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    values.append(ev.value(m, **params))
                for w in caught:
                    if isinstance(w.message, UndefinedMeasureWarning):
                        undefined_at.append(label)
                        reasons.setdefault(w.message.reason or str(w.message), label)
                    else:
                        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        if undefined_at:
            labels = ", ".join(map(repr, dict.fromkeys(undefined_at)))
            why = "; ".join(reasons)
            warnings.warn(UndefinedMeasureWarning(
                undefined_message((m.id,), f"{why} (label {labels}; the macro and weighted "
                                  "averages leave it out)"), (m.id,), why), stacklevel=2)
        return pd.Series(values, index=pd.Index(self.labels, name="label"), name=m.id)

    def value(self, measure: str | Measure, average: MultilabelAverage | None = None,
              **params: Any) -> float:
        """The measure averaged over labels or cases (default: :attr:`average`)."""
        m = get_measure(measure)
        avg = self.average if average is None else average
        if avg not in _AVERAGES:
            raise ValueError(f"average must be one of {_AVERAGES}, got {avg!r}")
        if avg == "micro":
            return self._micro(m, params)
        if avg == "samples":
            return self._samples(m, params)
        values = self.per_label(m, **params).to_numpy()
        keep = ~np.isnan(values)
        if avg == "weighted":
            support = np.array([ev.table.P for ev in self.evaluations])
            keep &= support > 0
            return float(np.average(values[keep], weights=support[keep])) if keep.any() \
                else float("nan")
        return float(np.mean(values[keep])) if keep.any() else float("nan")

    def __getitem__(self, measure: str) -> float:
        return self.value(measure)

    def _micro(self, m: Measure, params: dict[str, Any]) -> float:
        k = self._y.shape[1]
        w = None if self.weight is None else np.repeat(self.weight, k)
        table = CountTable.from_validated(self._y.ravel(), self._s.ravel(), w)
        with self._warnings():
            return Evaluation(table, threshold=self.threshold,
                              undefined=self.undefined).value(m, **params)

    def _samples(self, m: Measure, params: dict[str, Any]) -> float:
        y, s = self._y, self._s
        p = m.resolve_params(**params)
        with self._warnings():
            if m.family == "confusion":  # vectorised over the cases
                pred = s >= self.threshold
                c = Confusion(tp=(y & pred).sum(axis=1).astype(np.float64),
                              fp=(~y & pred).sum(axis=1).astype(np.float64),
                              fn=(y & ~pred).sum(axis=1).astype(np.float64),
                              tn=(~y & ~pred).sum(axis=1).astype(np.float64))
                with undefined_policy(self.undefined):
                    values = np.asarray(m.func(c, **p), dtype=np.float64)
            else:
                values = np.array([
                    Evaluation(CountTable.from_validated(y[i], s[i], None),
                               threshold=self.threshold, undefined=self.undefined).value(m, **p)
                    for i in range(y.shape[0])])
        keep = ~np.isnan(values)
        if not keep.any():
            return float("nan")
        w = None if self.weight is None else self.weight[keep]
        return float(np.average(values[keep], weights=w))

    def _warnings(self) -> Any:
        """One warning per reason for a block of computations."""
        return _OnceWarnings()

    def to_frame(self, family: Family | None = None) -> pd.DataFrame:
        """One row per measure: id, name, and its macro, weighted, micro and samples
        averages."""
        return self._frame(select_measures(family))

    def _shown(self) -> pd.DataFrame:
        """The main measures (those of a binary summary), quietly: a repr never warns."""
        from binmetrics.evaluation.summary import SUMMARY_MEASURES

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return self._frame([get_measure(i) for i in SUMMARY_MEASURES])

    def _frame(self, measures: list[Measure]) -> pd.DataFrame:
        import pandas as pd

        rows = []
        for m in measures:
            row: dict[str, Any] = {"id": m.id, "name": m.name}
            for avg in _AVERAGES:
                try:
                    row[avg] = self.value(m, avg)  # type: ignore[arg-type]
                except ValueError:  # e.g. scores that are not probabilities
                    row[avg] = float("nan")
            rows.append(row)
        return pd.DataFrame(rows)


class _OnceWarnings:
    """Collect warnings and re-issue each distinct message once."""

    def __enter__(self) -> None:
        self._ctx = warnings.catch_warnings(record=True)
        self._caught = self._ctx.__enter__()
        warnings.simplefilter("always")

    def __exit__(self, *exc: Any) -> None:
        self._ctx.__exit__(*exc)
        seen: set[str] = set()
        for w in self._caught:
            key = f"{w.category.__name__}:{w.message}"
            if key not in seen:
                seen.add(key)
                warnings.warn(w.message, stacklevel=3)


def evaluate_multilabel(Y: Any, S: Any, *, threshold: float = 0.5, sample_weight: Any = None,
                        labels: Any = None, average: MultilabelAverage = "macro",
                        undefined: UndefinedPolicy = "warn") -> MultilabelEvaluation:
    """Evaluate a multilabel classifier: (n, L) 0/1 indicators ``Y`` and scores ``S``.

    Each label is a binary problem (scores cut at ``score >= threshold`` for the
    confusion measures); ``lev.value(id, average=...)`` averages them as scikit-learn's
    multilabel metrics do ("macro", "weighted", "micro", "samples"), ``lev.per_label(id)``
    gives one value per label.

    Examples
    --------
    >>> import binmetrics as bm
    >>> Y = [[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]]
    >>> S = [[.9, .2, .6], [.3, .7, .4], [.8, .6, .1], [.2, .4, .9]]
    >>> lev = bm.evaluate_multilabel(Y, S)
    >>> round(lev.value("f1", average="micro"), 4), lev.value("recall", average="samples")
    (0.9231, 0.875)
    """
    return MultilabelEvaluation(Y, S, threshold=threshold, sample_weight=sample_weight,
                                labels=labels, average=average, undefined=undefined)
