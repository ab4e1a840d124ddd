"""The front doors of an in-memory evaluation: :func:`evaluate` (binary or multiclass,
by the shape of the scores) and :func:`score` (one measure in functional form)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, overload

import numpy as np

from binmetrics.evaluation.binary import Evaluation
from binmetrics.evaluation.multiclass import MulticlassEvaluation, evaluate_multiclass
from binmetrics.evaluation.options import DEFAULTS, EvalOptions
from binmetrics.exceptions import UndefinedPolicy
from binmetrics.measures import get_measure
from binmetrics.table.counts import CountTable
from binmetrics.validation import NanPolicy, check_binary_inputs, is_score_matrix

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["evaluate", "score"]

#: scores of a binary classifier: one per case
ScoreVector: TypeAlias = "Sequence[float] | pd.Series[Any]"
#: a probability matrix, one column per class (two columns: a binary predict_proba)
ScoreMatrix: TypeAlias = "Sequence[Sequence[float]] | pd.DataFrame"


def _larger_label(y_true: Any) -> Any:
    """The positive label that goes with the second column of a predict_proba matrix:
    None (the default rule) for the standard encodings, else the larger label."""
    values = np.unique(np.asarray(y_true))
    if values.dtype == bool or (values.dtype.kind in "iuf"
                                and set(values.tolist()) <= {-1, 0, 1}):
        return None  # {0, 1}, {-1, 1}, {False, True}: the default rule says the same
    return values[-1] if values.size == 2 else None


@overload
def evaluate(y_true: Any, y_score: ScoreVector, *, threshold: float = ...,
             sample_weight: Any = ..., pos_label: Any = ..., nan_policy: NanPolicy = ...,
             undefined: UndefinedPolicy = ..., pi0: float | None = ...) -> Evaluation: ...


@overload
def evaluate(y_true: Any, y_score: ScoreMatrix, *, threshold: float = ...,
             sample_weight: Any = ..., pos_label: Any = ..., nan_policy: NanPolicy = ...,
             undefined: UndefinedPolicy = ..., pi0: float | None = ...
             ) -> Evaluation | MulticlassEvaluation: ...


@overload
def evaluate(y_true: Any, y_score: Any, *, threshold: float = ...,
             sample_weight: Any = ..., pos_label: Any = ..., nan_policy: NanPolicy = ...,
             undefined: UndefinedPolicy = ..., pi0: float | None = ...
             ) -> Evaluation | MulticlassEvaluation: ...


def evaluate(
    y_true: Any,
    y_score: Any,
    *,
    threshold: float = DEFAULTS.threshold,
    sample_weight: Any = None,
    pos_label: Any = DEFAULTS.pos_label,
    nan_policy: NanPolicy = DEFAULTS.nan_policy,
    undefined: UndefinedPolicy = DEFAULTS.undefined,
    pi0: float | None = None,
) -> Evaluation | MulticlassEvaluation:
    """Evaluate a binary classifier: every measure of the registry from one sort.

    A binary classifier's ``predict_proba`` matrix (shape (n, 2)) is evaluated on its
    second column, the probability of the larger label (scikit-learn's column order).
    Given a probability matrix of k >= 3 classes it evaluates a multiclass classifier
    instead and returns a
    :class:`~binmetrics.multiclass.MulticlassEvaluation` (see
    :func:`~binmetrics.multiclass.evaluate_multiclass`, which also takes ``labels=``
    and ``average=``).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels: {0, 1}, {-1, 1}, {False, True}, or any two values with ``pos_label``.
    y_score : array-like of shape (n,)
        Scores, higher meaning more likely positive: probabilities for the
        probabilistic measures, any real numbers otherwise. Predicted labels (0/1)
        work too, with the default threshold.
    threshold : float, default 0.5
        Cut for the confusion measures: ``score >= threshold`` is predicted positive.
    sample_weight : array-like of shape (n,), optional
        Non-negative case weights; counts become weighted sums.
    pos_label : optional
        The label of the positive class when the labels are not a standard encoding.
    nan_policy : {"raise", "omit"}, default "raise"
        What NaN/inf scores do: an error, or the rows are dropped (reported in a
        warning and in ``Evaluation.n_omitted``).
    undefined : {"warn", "raise", "ignore"}, default "warn"
        What an undefined value (e.g. precision with nothing predicted positive)
        does: NaN with an :class:`UndefinedMeasureWarning`, an
        :class:`UndefinedMeasureError`, or NaN silently.
    pi0 : float in (0, 1), optional
        Calibrate to this reference prevalence (:meth:`Evaluation.calibrated`,
        Siblini et al.); default None, no calibration.

    Returns
    -------
    Evaluation
        Or a :class:`~binmetrics.MulticlassEvaluation` for a probability matrix of three
        or more columns (``threshold``, ``pos_label`` and ``pi0`` do not apply to it).
        The type hints say so: 1-D scores give an Evaluation; a matrix (a nested list, a
        DataFrame) or an array of unknown shape gives either.

    Examples
    --------
    Berrar's ten cases, cut between 0.6 and 0.5 as in the paper's Figure 3:

    >>> import binmetrics as bm
    >>> y = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
    >>> s = [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]
    >>> ev = bm.evaluate(y, s, threshold=0.55)
    >>> ev.confusion
    Confusion(tp=3, fp=1, fn=2, tn=4)
    >>> round(ev["mcc"], 6), ev["auc"], round(ev["average_precision"], 12)
    (0.408248, 0.8, 0.835)

    A probability matrix gives the multiclass evaluation (argmax predictions):

    >>> mev = bm.evaluate([0, 1, 2, 1], [[.6, .3, .1], [.2, .7, .1], [.2, .5, .3], [.3, .4, .3]])
    >>> type(mev).__name__, mev["accuracy"]
    ('MulticlassEvaluation', 0.75)
    """
    if is_score_matrix(y_score) and np.shape(y_score)[1] == 2:
        # a binary classifier's predict_proba: columns in sorted label order, so the
        # second is the probability of the larger label, the positive one
        y_score = np.asarray(y_score)[:, 1]
        if pos_label is None:
            pos_label = _larger_label(y_true)
    elif is_score_matrix(y_score):
        unused = [name for name, given in (("threshold", threshold != 0.5),
                                           ("pos_label", pos_label is not None),
                                           ("pi0", pi0 is not None)) if given]
        if unused:
            raise ValueError(f"{', '.join(unused)} cannot be used with a probability matrix "
                             f"(y_score of shape {np.shape(y_score)}): the multiclass "
                             "prediction is the argmax of each row")
        return evaluate_multiclass(y_true, y_score, sample_weight=sample_weight,
                                   nan_policy=nan_policy, undefined=undefined)
    opts = EvalOptions(threshold=threshold, pos_label=pos_label, nan_policy=nan_policy,
                       undefined=undefined, pi0=pi0)
    inp = check_binary_inputs(y_true, y_score, sample_weight, pos_label=pos_label,
                              nan_policy=nan_policy)
    table = CountTable.from_validated(inp.y, inp.score, inp.weight)
    return opts.evaluation(table, pos_label=inp.pos_label, n_omitted=inp.n_omitted,
                           n_rows=int(inp.y.size), n_positive_rows=int(np.count_nonzero(inp.y)))


def score(
    measure: str,
    y_true: Any,
    y_score: Any,
    *,
    threshold: float = DEFAULTS.threshold,
    sample_weight: Any = None,
    pos_label: Any = DEFAULTS.pos_label,
    nan_policy: NanPolicy = DEFAULTS.nan_policy,
    undefined: UndefinedPolicy = DEFAULTS.undefined,
    **params: Any,
) -> float:
    """One measure in functional form: ``score("auc", y_true, y_score)``.

    Parameters are those of :func:`evaluate`, plus the measure's own (``beta=``,
    ``alpha=``, ``fraction=``...).

    Examples
    --------
    >>> import binmetrics as bm
    >>> bm.score("auc", [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    m = get_measure(measure)  # fail on a misspelt name before validating the data
    m.resolve_params(**params)
    ev = evaluate(y_true, y_score, threshold=threshold, sample_weight=sample_weight,
                  pos_label=pos_label, nan_policy=nan_policy, undefined=undefined)
    return ev.value(m, **params)
