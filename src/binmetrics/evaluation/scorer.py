"""Any registered measure as a scikit-learn scorer: ``cross_val_score(model, X, y,
scoring=bm.make_scorer("mcc"))``, ``GridSearchCV(..., scoring=bm.make_scorer("auc"))``."""

from __future__ import annotations

from typing import Any

import numpy as np

from binmetrics.evaluation.binary import Evaluation
from binmetrics.evaluation.multiclass import evaluate_multiclass
from binmetrics.exceptions import UndefinedPolicy
from binmetrics.measures import Measure, get_measure
from binmetrics.table.counts import CountTable

__all__ = ["Scorer", "make_scorer"]


class Scorer:
    """A scikit-learn scorer, ``scorer(estimator, X, y, sample_weight=None)``, of one
    registered measure; made by :func:`make_scorer`.

    Attributes
    ----------
    measure : the registry entry.
    threshold : the cut of the positive-class scores for a confusion measure, or None
        (the estimator's own ``predict``).
    sign : +1, or -1 for a measure where lower is better (scikit-learn maximises:
        the scorer returns minus the log loss, as its ``neg_log_loss``).
    """

    def __init__(self, measure: Measure, threshold: float | None, pos_label: Any,
                 params: dict[str, Any], sign: int, undefined: UndefinedPolicy) -> None:
        self.measure, self.threshold, self.pos_label = measure, threshold, pos_label
        self.params, self.sign, self.undefined = params, sign, undefined

    def __call__(self, estimator: Any, X: Any, y: Any, sample_weight: Any = None) -> float:
        m = self.measure
        classes = list(getattr(estimator, "classes_", []))
        if len(classes) > 2:
            proba = np.asarray(estimator.predict_proba(X), dtype=np.float64)
            mev = evaluate_multiclass(y, proba, labels=classes, sample_weight=sample_weight,
                                      undefined=self.undefined)
            return self.sign * mev.value(m.id, **self.params)
        if m.family == "confusion" and self.threshold is None:
            score = (np.asarray(estimator.predict(X)) == self.pos_label).astype(np.float64)
            threshold = 0.5
        else:
            score = self._positive_scores(estimator, X, classes)
            threshold = 0.5 if self.threshold is None else self.threshold
        table = CountTable.from_arrays(y, score, sample_weight=sample_weight,
                                       pos_label=self.pos_label)
        ev = Evaluation(table, threshold=threshold, pos_label=self.pos_label,
                        undefined=self.undefined)
        return self.sign * ev.value(m.id, **self.params)

    def _positive_scores(self, estimator: Any, X: Any, classes: list[Any]) -> np.ndarray:
        if hasattr(estimator, "predict_proba"):
            proba = np.asarray(estimator.predict_proba(X), dtype=np.float64)
            col = classes.index(self.pos_label) if classes else proba.shape[1] - 1
            return proba[:, col]
        if self.measure.needs_probabilities:
            raise ValueError(f"{self.measure.id} needs probabilities, and "
                             f"{type(estimator).__name__} has no predict_proba")
        margin = np.asarray(estimator.decision_function(X), dtype=np.float64)
        # decision_function is positive for classes_[1]
        return margin if not classes or classes[1] == self.pos_label else -margin

    def __repr__(self) -> str:
        extra = "" if self.threshold is None else f", threshold={self.threshold:g}"
        params = "".join(f", {k}={v!r}" for k, v in self.params.items())
        sign = "" if self.sign > 0 else ", greater_is_better=False"
        return f"make_scorer({self.measure.id!r}{extra}{params}{sign})"


def make_scorer(measure: str | Measure, *, threshold: float | None = None,
                pos_label: Any = 1, undefined: UndefinedPolicy = "warn",
                **params: Any) -> Scorer:
    """A scikit-learn scorer of any registered measure.

    Parameters
    ----------
    measure : any id or alias of the registry (``"mcc"``, ``"auc"``, ``"brier"``...).
    threshold : float, optional
        For a confusion measure: cut the estimator's positive-class probability
        (``predict_proba``, else ``decision_function``) at ``score >= threshold``.
        Default: the estimator's ``predict``. Ranking and probabilistic measures read
        ``predict_proba`` (ranking measures also ``decision_function``).
    pos_label : the positive class, default 1.
    undefined : what an undefined value does ("warn": NaN with a warning, which
        scikit-learn reports as a failed fit score; "raise"; "ignore").
    **params : the measure's parameters (``beta=2``...).

    Returns
    -------
    Scorer
        ``scorer(estimator, X, y, sample_weight=None)``: the value for a measure where
        higher is better, minus the value where lower is better (scikit-learn
        maximises). With more than two classes it scores ``predict_proba`` as
        :func:`~binmetrics.evaluation.multiclass.evaluate_multiclass` does.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> X, y = make_classification(n_samples=200, random_state=0)
    >>> scores = cross_val_score(LogisticRegression(), X, y, cv=3,
    ...                          scoring=make_scorer("mcc", threshold=0.3))
    >>> scores.shape
    (3,)
    >>> make_scorer("brier")
    make_scorer('brier', greater_is_better=False)
    """
    m = get_measure(measure)
    p = m.resolve_params(**params)
    given = {k: p[k] for k in params}
    if threshold is not None and m.family != "confusion":
        raise ValueError(f"threshold= applies to confusion measures; {m.id} is a "
                         f"{m.family} measure")
    sign = -1 if m.direction < 0 else 1
    return Scorer(m, threshold, pos_label, given, sign, undefined)
