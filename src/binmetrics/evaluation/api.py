"""The front doors of an in-memory evaluation: :func:`evaluate` (binary or multiclass,
by the shape of the scores) and :func:`score` (one measure in functional form)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any, TypeAlias, overload

import numpy as np

from binmetrics.evaluation.binary import Evaluation
from binmetrics.evaluation.frames import frame_engine, no_engine_options
from binmetrics.evaluation.options import DEFAULTS, EvalOptions
from binmetrics.exceptions import UndefinedPolicy
from binmetrics.measures import get_measure
from binmetrics.table.counts import CountTable
from binmetrics.table.threshold_range import threshold_unread
from binmetrics.validation import NanPolicy, check_binary_inputs, is_score_matrix

if TYPE_CHECKING:
    import pandas as pd

    from binmetrics.evaluation.multiclass import MulticlassEvaluation

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
             undefined: UndefinedPolicy = ..., pi0: float | None = ..., data: Any = ...,
             label: str | None = ..., score: str | None = ..., weight: str | None = ...,
             labels: Any = ..., higher_is_positive: bool = ...,
             case_cost_fp: Any = ..., case_cost_fn: Any = ...,
             clusters: Any = ..., **engine_options: Any) -> Evaluation: ...


@overload
def evaluate(y_true: Any, y_score: ScoreMatrix, *, threshold: float = ...,
             sample_weight: Any = ..., pos_label: Any = ..., nan_policy: NanPolicy = ...,
             undefined: UndefinedPolicy = ..., pi0: float | None = ..., data: Any = ...,
             label: str | None = ..., score: str | Sequence[str] | None = ...,
             weight: str | None = ..., labels: Any = ..., higher_is_positive: bool = ...,
             case_cost_fp: Any = ..., case_cost_fn: Any = ..., clusters: Any = ...,
             **engine_options: Any) -> Evaluation | MulticlassEvaluation: ...


@overload
def evaluate(y_true: Any = ..., y_score: Any = ..., *, threshold: float = ...,
             sample_weight: Any = ..., pos_label: Any = ..., nan_policy: NanPolicy = ...,
             undefined: UndefinedPolicy = ..., pi0: float | None = ..., data: Any = ...,
             label: str | None = ..., score: str | Sequence[str] | None = ...,
             weight: str | None = ..., labels: Any = ..., higher_is_positive: bool = ...,
             case_cost_fp: Any = ..., case_cost_fn: Any = ..., clusters: Any = ...,
             **engine_options: Any) -> Evaluation | MulticlassEvaluation: ...


def evaluate(
    y_true: Any = None,
    y_score: Any = None,
    *,
    threshold: float = DEFAULTS.threshold,
    sample_weight: Any = None,
    pos_label: Any = DEFAULTS.pos_label,
    nan_policy: NanPolicy = DEFAULTS.nan_policy,
    undefined: UndefinedPolicy = DEFAULTS.undefined,
    pi0: float | None = None,
    data: Any = None,
    label: str | None = None,
    score: str | Sequence[str] | None = None,
    weight: str | None = None,
    labels: Any = None,
    higher_is_positive: bool = DEFAULTS.higher_is_positive,
    case_cost_fp: Any = None,
    case_cost_fn: Any = None,
    clusters: Any = None,
    **engine_options: Any,
) -> Evaluation | MulticlassEvaluation:
    """Evaluate a binary classifier: every measure of the registry from one sort.

    A binary classifier's ``predict_proba`` matrix (shape (n, 2)) is evaluated on its
    second column, the probability of the larger label (scikit-learn's column order).
    Given a probability matrix of k >= 3 classes it evaluates a multiclass classifier
    instead and returns a
    :class:`~binmetrics.evaluation.multiclass.MulticlassEvaluation` (see
    :func:`~binmetrics.evaluation.multiclass.evaluate_multiclass`, which also takes ``labels=``
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
    data, label, score, weight : optional
        A table (pandas, polars or PyArrow; also the first positional argument) and the
        names of its label, score and weight columns, as :func:`evaluate_by` and
        :func:`evaluate_file` take them: ``bm.evaluate(df, label="y", score="p")``.
        ``score`` may list one column per class for a multiclass classifier.
    labels : sequence, optional
        Multiclass: the class of each column of the probability matrix (as
        :func:`~binmetrics.evaluation.multiclass.evaluate_multiclass`).
    higher_is_positive : bool, default True
        False for scores where lower means more likely positive (the docking scores of
        the multi-level virtual-screening paper, distances, p-values). Every measure
        is then that of ``-y_score``; ``threshold`` and every threshold reported
        (:attr:`Evaluation.confusion`, :meth:`~Evaluation.best_threshold`, the curves'
        ``thresholds``, ``roc().at``) are in the scores' own units, with the rule
        ``score <= threshold`` is predicted positive.
    case_cost_fp, case_cost_fn : array-like, optional
        Per-case costs (one non-negative finite number per case, e.g. a transaction
        amount): what each case costs when it is a false positive (read for the
        negatives) and a false negative (read for the positives); a missing one costs
        0. The count table carries their weighted sums per distinct score, so
        ``expected_cost`` and ``best_threshold("expected_cost")`` sum them exactly
        (:mod:`binmetrics.evaluation.case_costs`).
    clusters : array-like, optional
        The cluster (patient) of each case, any labels, no missing values: the
        evaluation keeps each cluster's counts beside the table (not the rows), and its
        intervals (:meth:`Evaluation.ci`, :meth:`Evaluation.ci_table`) resample
        clusters, with Obuchowski's variance for the AUC
        (:mod:`binmetrics.evaluation.clustered_ci`). Binary scores only.
    **engine_options :
        For a Polars LazyFrame or a Dask DataFrame (``data``, with ``label``, ``score``
        and ``weight`` naming its columns), which are counted where they are by the
        Polars or the Dask engine (:func:`binmetrics.engines.evaluate_polars`,
        :func:`binmetrics.engines.evaluate_dask`): their options, e.g. ``decimals=`` or
        ``bins=`` (binned scores with exact error bounds). The result is the same
        Evaluation as in memory. A Polars DataFrame is evaluated in memory unless
        ``decimals=`` or ``bins=`` is given.

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

    A table and its columns, as ``evaluate_by`` takes them:

    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": y, "p": s})
    >>> bm.evaluate(df, label="y", score="p", threshold=0.55).confusion
    Confusion(tp=3, fp=1, fn=2, tn=4)

    Docking scores (kcal/mol), lower meaning a better binder; ``score <= -8`` is
    predicted active:

    >>> dock = bm.evaluate([1, 1, 0, 1, 0], [-9.5, -8.7, -8.1, -7.9, -6.0], threshold=-8,
    ...                    higher_is_positive=False)
    >>> dock.confusion, round(dock["auc"], 4), dock.best_threshold("informedness").threshold
    (Confusion(tp=2, fp=1, fn=1, tn=1), 0.8333, -8.7)
    """
    engine = frame_engine(data if data is not None else y_true, engine_options)
    if engine is not None:  # a Polars LazyFrame, a Dask DataFrame: counted where it is
        if y_score is not None or sample_weight is not None or labels is not None or \
                case_cost_fp is not None or case_cost_fn is not None:
            raise TypeError(f"a {engine.name} frame is evaluated by its columns: "
                            "evaluate(frame, label='y', score='p', weight='w'), without "
                            "case costs")
        return engine.evaluate(
            data if data is not None else y_true, label=label, score=score, weight=weight,
            threshold=threshold, pos_label=pos_label, nan_policy=nan_policy,
            undefined=undefined, pi0=pi0, higher_is_positive=higher_is_positive,
            **engine_options)
    no_engine_options(engine_options, "evaluate")
    # the model's name where the user gave one: the score column, or the Series' name
    model_name = score if isinstance(score, str) else getattr(y_score, "name", None)
    if data is not None or label is not None or score is not None or weight is not None:
        y_true, y_score, sample_weight = _from_table(
            data if data is not None else y_true, y_score if data is not None else None,
            label, score, weight, sample_weight)
    if y_true is None or y_score is None:
        raise TypeError("evaluate needs the labels and the scores: evaluate(y_true, y_score) "
                        "or evaluate(data, label='y', score='p')")
    if clusters is not None and (labels is not None or (is_score_matrix(y_score)
                                                       and np.shape(y_score)[1] != 2)):
        raise ValueError("clusters= applies to a binary classifier's scores; for a "
                         "multiclass probability matrix it is not supported")
    if labels is not None:
        if not is_score_matrix(y_score):
            raise ValueError("labels= names the columns of a probability matrix (multiclass); "
                             "for binary scores give pos_label= instead")
        if higher_is_positive is not True:
            raise ValueError("higher_is_positive=False applies to the scores of a binary "
                             "classifier, not to a multiclass probability matrix")
        from binmetrics.evaluation.multiclass import evaluate_multiclass  # pandas: lazy

        return evaluate_multiclass(y_true, y_score, labels=labels, sample_weight=sample_weight,
                                   nan_policy=nan_policy, undefined=undefined)
    if is_score_matrix(y_score) and np.shape(y_score)[1] == 2:
        # a binary classifier's predict_proba: columns in sorted label order, so the
        # second is the probability of the larger label, the positive one
        y_score = np.asarray(y_score)[:, 1]
        if pos_label is None:
            pos_label = _larger_label(y_true)
    elif is_score_matrix(y_score):
        unused = [name for name, given in (("threshold", threshold != 0.5),
                                           ("pos_label", pos_label is not None),
                                           ("pi0", pi0 is not None),
                                           ("higher_is_positive",
                                            higher_is_positive is not True)) if given]
        if unused:
            raise ValueError(f"{', '.join(unused)} cannot be used with a probability matrix "
                             f"(y_score of shape {np.shape(y_score)}): the multiclass "
                             "prediction is the argmax of each row")
        from binmetrics.evaluation.multiclass import evaluate_multiclass

        return evaluate_multiclass(y_true, y_score, sample_weight=sample_weight,
                                   nan_policy=nan_policy, undefined=undefined)
    opts = EvalOptions(threshold=threshold, pos_label=pos_label, nan_policy=nan_policy,
                       undefined=undefined, pi0=pi0, higher_is_positive=higher_is_positive)
    try:
        inp = check_binary_inputs(y_true, y_score, sample_weight, pos_label=pos_label,
                                  nan_policy=nan_policy)
    except ValueError as exc:
        if "exactly two classes" in str(exc) and pos_label is None:
            raise ValueError(f"{exc}; for a multiclass classifier pass its probability "
                             "matrix, one column per class (shape (n, k)), e.g. "
                             "bm.evaluate(y, model.predict_proba(X)), with labels=[...] "
                             "naming the columns if they are not in sorted order") from None
        raise
    table = CountTable.from_validated(inp.y, opts.oriented(inp.score), inp.weight)
    table.weight_exponent = inp.weight_exponent
    if case_cost_fp is not None or case_cost_fn is not None:
        from binmetrics.evaluation.case_costs import attach_case_costs

        table = attach_case_costs(table, inp, opts.oriented(inp.score), case_cost_fp,
                                  case_cost_fn)
    ev = opts.evaluation(table, pos_label=inp.pos_label, n_omitted=inp.n_omitted,
                         n_rows=int(inp.y.size), n_positive_rows=int(np.count_nonzero(inp.y)))
    if isinstance(model_name, str) and model_name:  # decision_curve's default name
        ev._model_name = model_name  # type: ignore[attr-defined]
    if clusters is not None:
        from binmetrics.inference.clustered import ClusteredTable, check_cluster_length

        c = check_cluster_length(clusters, y_true)
        if inp.n_omitted:  # the rows nan_policy="omit" kept
            c = c[np.isfinite(np.asarray(y_score, dtype=np.float64))]
        ev._clustered = ClusteredTable.on(table, inp.y, opts.oriented(inp.score),
                                          inp.weight, c)
    return ev


def _column(data: Any, name: str, role: str) -> Any:
    """One column of a pandas, polars or PyArrow table, as a NumPy array."""
    names = getattr(data, "column_names", None)  # PyArrow; pandas and polars: columns
    columns = [str(c) for c in (names if names is not None else getattr(data, "columns", []))]
    if not columns:
        raise TypeError(f"data must be a table (pandas, polars or PyArrow) with columns; got "
                        f"{type(data).__name__}")
    if name not in columns:
        shown = ", ".join(columns[:20]) + (", ..." if len(columns) > 20 else "")
        raise KeyError(f"{role} column {name!r} is not a column of data; columns: {shown}")
    col = data.column(name) if hasattr(data, "column_names") else data[name]
    return col.to_numpy() if hasattr(col, "to_numpy") else np.asarray(col)


def _from_table(data: Any, y_score: Any, label: str | None, score: str | Sequence[str] | None,
                weight: str | None, sample_weight: Any) -> tuple[Any, Any, Any]:
    """(labels, scores, weights) from ``data`` and its column names."""
    if data is None or label is None or score is None:
        raise TypeError("a table needs its columns: evaluate(data, label='y', score='p')")
    if y_score is not None:
        raise TypeError("give the scores as a column (score='p') or as an array, not both")
    if weight is not None and sample_weight is not None:
        raise TypeError("give the weights as a column (weight='w') or sample_weight=, not "
                        "both")
    y = _column(data, label, "label")
    if isinstance(score, str):
        s = _column(data, score, "score")
    else:
        s = np.column_stack([_column(data, c, "score") for c in score])
    w = _column(data, weight, "weight") if weight is not None else sample_weight
    return y, s, w


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
    higher_is_positive: bool = DEFAULTS.higher_is_positive,
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
    # only the confusion family reads the threshold (Measure.compute): for the others
    # a warning about its range would speak of a cut that nothing uses
    with nullcontext() if m.family == "confusion" else threshold_unread():
        ev = evaluate(y_true, y_score, threshold=threshold, sample_weight=sample_weight,
                      pos_label=pos_label, nan_policy=nan_policy, undefined=undefined,
                      higher_is_positive=higher_is_positive)
    return ev.value(m, **params)
