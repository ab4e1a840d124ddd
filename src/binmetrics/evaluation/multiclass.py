"""Multiclass evaluation: one-vs-rest tables of the binary measures, and the native
multiclass measures (GitHub issue 5).

A classifier gives a probability matrix ``y_proba`` of shape (n, k): row i holds the
predicted probabilities of the k classes. Following the multi-level comparison paper
(section 3.3):

* the predicted class of a row is the class with the highest probability (argmax; a
  tie goes to the first such column, i.e. the first class in ``labels`` order);
* every binary measure is evaluated k times, "each time labelling one of the classes
  as the positive class, while labelling the rest as the negative class", and the k
  values are averaged, weighted by class support (the paper's choice and the default),
  or as a plain mean ("macro"), or "micro" (pooled);
* the measures the paper's Table 5 marks "readily generalized to multiple classes"
  (accuracy, balanced accuracy, MCC, Cohen's kappa, Brier score) are computed natively,
  as are the error rate, the cross-entropy and the Kononenko-Bratko information score
  (docs/methods.md §5.1).

For class c the one-vs-rest data are: positive = (y == c), score = ``y_proba[:, c]``
(ranking and probabilistic measures, from the class's :class:`CountTable`) and
predicted positive = (argmax == c) (confusion measures). The mean average precision
(Berrar) is the macro mean of the per-class average precisions.
"""

from __future__ import annotations

import contextlib
import os
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pandas as pd

from binmetrics.evaluation.multiclass_ci import MulticlassInferenceMethods
from binmetrics.evaluation.multiclass_report import MulticlassViews
from binmetrics.exceptions import (
    BinmetricsWarning,
    UndefinedMeasureError,
    UndefinedMeasureWarning,
    UndefinedPolicy,
    asked_for,
    undefined_message,
    undefined_policy,
)
from binmetrics.measures import Measure, get_measure
from binmetrics.measures.multiclass import ROW_SUM_TOL, MulticlassData
from binmetrics.measures.ovo import OVO_AVERAGES, one_vs_one_auc
from binmetrics.measures.registry import Family, iter_measures, select_measures
from binmetrics.table.counts import Confusion, CountTable
from binmetrics.validation import (
    NanPolicy,
    as_1d,
    as_float,
    check_nan_policy,
    check_weights,
    label_key,
    plural,
    python_scalar,
    row_list,
)

__all__ = ["NATIVE_MEASURES", "MulticlassEvaluation", "evaluate_multiclass"]

Average = Literal["weighted", "macro", "micro", "none", "native", "hand_till", "ovo_weighted"]
_AVERAGES = ("weighted", "macro", "micro", "none", "native", *OVO_AVERAGES)
#: how far from 1 a row of probabilities may sum


# --- input ---------------------------------------------------------------------------------
def _as_matrix(y_proba: Any) -> npt.NDArray[np.float64]:
    if isinstance(y_proba, pd.DataFrame):
        arr = y_proba.to_numpy()
    else:
        try:
            arr = np.asarray(y_proba)
        except ValueError:
            raise ValueError("y_proba must be a 2-D array of shape (n, k); its rows have "
                             "different lengths") from None
    if arr.ndim != 2:
        raise ValueError(f"y_proba must be 2-D of shape (n, k), one column per class; got an "
                         f"array of shape {arr.shape}")
    if arr.shape[1] < 2:
        raise ValueError(f"y_proba has {arr.shape[1]} column(s); a multiclass probability "
                         "matrix needs at least 2 (for a binary score give a 1-D array)")
    return as_float(arr, "y_proba")


def _class_codes(y: np.ndarray, labels: Any, k: int) -> tuple[list[Any], npt.NDArray[np.intp]]:
    """The classes (column order) and each row's column index."""
    if labels is None:
        found = sorted(pd.unique(pd.Series(y)).tolist(), key=label_key)
        if len(found) != k:
            listed = [python_scalar(v) for v in found[:10]] + (["..."] if len(found) > 10 else [])
            raise ValueError(
                f"y_true has {len(found)} distinct classes {listed} but y_proba has {k} columns; "
                "pass labels= to give the class of each column (in column order)")
        classes = [python_scalar(v) for v in found]
    else:
        lab = as_1d(labels, "labels")
        classes = [python_scalar(v) for v in lab.tolist()]
        if len(classes) != k:
            raise ValueError(f"labels has {len(classes)} values but y_proba has {k} columns; "
                             "give one label per column, in column order")
        dup = pd.Index(classes)
        if dup.has_duplicates:
            raise ValueError(f"labels must be distinct; repeated: "
                             f"{sorted(set(dup[dup.duplicated()].tolist()), key=label_key)}")
    codes = pd.Index(classes).get_indexer(pd.Index(y))
    unknown = codes < 0
    if unknown.any():
        vals = sorted(pd.unique(pd.Series(y[unknown])).tolist(), key=label_key)
        shown = [python_scalar(v) for v in vals[:10]] + (["..."] if len(vals) > 10 else [])
        raise ValueError(f"y_true has {plural(unknown.sum(), 'row')} whose class is not in labels "
                         f"{classes}: {shown} at rows {row_list(unknown)}")
    return classes, np.asarray(codes, dtype=np.intp)


def _check_inputs(y_true: Any, y_proba: Any, labels: Any, sample_weight: Any,
                  nan_policy: NanPolicy) -> tuple[list[Any], npt.NDArray[np.intp],
                                                  npt.NDArray[np.float64],
                                                  npt.NDArray[np.float64] | None, int]:
    check_nan_policy(nan_policy)
    y = as_1d(y_true, "y_true")
    proba = _as_matrix(y_proba)
    n, k = proba.shape
    if y.size != n:
        raise ValueError(f"y_true and y_proba have different numbers of rows: {y.size} and {n}")
    if n == 0:
        raise ValueError("y_true and y_proba are empty: there is nothing to evaluate")
    w = check_weights(sample_weight, n)
    missing = np.asarray(pd.isna(y) if y.dtype.kind in "fOUS" else np.zeros(n), dtype=bool)
    if missing.any():
        raise ValueError(f"y_true has {plural(missing.sum(), 'missing label')} (NaN/None) "
                         f"at rows {row_list(missing)}")
    bad = np.asarray(~np.isfinite(proba).all(axis=1), dtype=bool)
    n_omitted = 0
    if bad.any():
        n_bad = int(bad.sum())
        if nan_policy == "raise":
            raise ValueError(f"y_proba has {plural(n_bad, 'row')} with NaN or infinite values "
                             "at rows "
                             f"{row_list(bad)}; pass nan_policy='omit' to drop those rows")
        if n_bad == n:
            raise ValueError(f"all {n} rows of y_proba hold NaN or infinite values: nothing "
                             "left to evaluate")
        keep = ~bad
        y, proba = y[keep], proba[keep]
        if w is not None:
            w = w[keep]
            if not w.sum() > 0:
                raise ValueError("the rows left after nan_policy='omit' carry no weight")
        n_omitted = n_bad
        warnings.warn(f"nan_policy='omit': dropped {plural(n_bad, 'row')} with non-finite "
                      "probabilities", BinmetricsWarning, stacklevel=4)
    outside = (proba < 0.0) | (proba > 1.0)
    if outside.any():
        out_rows = np.asarray(outside.any(axis=1), dtype=bool)
        raise ValueError(f"y_proba must hold probabilities in [0, 1]; "
                         f"{plural(outside.sum(), 'value')} in {plural(out_rows.sum(), 'row')}"
                         f" lie outside it (min {proba.min():g}, max {proba.max():g}; rows "
                         f"{row_list(out_rows)})")
    dev = np.abs(proba.sum(axis=1) - 1.0)
    off = dev > ROW_SUM_TOL
    if off.any():
        worst = int(np.argmax(dev))
        raise ValueError(
            f"each row of y_proba must sum to 1 (within {ROW_SUM_TOL:g}); "
            f"{plural(off.sum(), 'row')} do not, at rows {row_list(off)}; the worst, row "
            f"{worst}, sums to {proba[worst].sum():.10g}; "
            "normalise the rows, e.g. y_proba / y_proba.sum(axis=1, keepdims=True)")
    classes, codes = _class_codes(y, labels, k)
    return classes, codes, proba, w, n_omitted


class _NativeMeasures(Mapping[str, Callable[..., float]]):
    """The registry's natively multiclass forms, id -> form: a live, read-only view."""

    def _forms(self) -> dict[str, Callable[..., float]]:
        return {m.id: m.multiclass for m in iter_measures() if m.multiclass is not None}

    def __getitem__(self, key: str) -> Callable[..., float]:
        return self._forms()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._forms())

    def __len__(self) -> int:
        return len(self._forms())


#: The natively multiclass measures (registry id -> form; declared with
#: :func:`binmetrics.measures.multiclass.multiclass_form`). Every other registered
#: measure is evaluated one-vs-rest and averaged.
NATIVE_MEASURES: Mapping[str, Callable[..., float]] = _NativeMeasures()


def _native_params(measure: str, **params: Any) -> dict[str, Any]:
    defaults = dict(get_measure(measure).multiclass_params)
    unknown = set(params) - set(defaults)
    if unknown:
        raise TypeError(f"multiclass {measure} takes no parameter {', '.join(sorted(unknown))}; "
                        f"its parameters: {', '.join(defaults) or 'none'} (pass average= for "
                        "the one-vs-rest binary measure and its parameters)")
    return {**defaults, **params}


def _params_key(params: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, repr(v)) for k, v in params.items()))


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _user_stacklevel() -> int:
    """The ``stacklevel`` (for a warning issued by the caller of this function) that
    points at the first frame outside binmetrics and contextlib: the user's call."""
    frame = sys._getframe(1)
    level = 1
    while frame.f_back is not None:
        name = os.path.abspath(frame.f_code.co_filename)
        if not (name.startswith(_PACKAGE_DIR) or name == contextlib.__file__):
            break
        frame = frame.f_back
        level += 1
    return level


# --- the evaluation ------------------------------------------------------------------------
class MulticlassEvaluation(MulticlassInferenceMethods, MulticlassViews):
    """All measures of one multiclass classifier on one data set.

    Create it with :func:`evaluate_multiclass` (or :func:`binmetrics.evaluate` with a
    probability matrix). ``mev[id]`` gives the natively multiclass value of accuracy,
    error rate, balanced accuracy, MCC, kappa, Brier score, log loss and information
    scores (:data:`NATIVE_MEASURES`), and for every other registered measure the
    one-vs-rest values averaged by :attr:`average` (default "weighted" by class support,
    as the multi-level comparison paper, section 3.3). :meth:`value` takes ``average=``
    and the measure's parameters; :meth:`per_class` gives the k one-vs-rest values.

    Examples
    --------
    >>> import binmetrics as bm
    >>> y = ["a", "b", "c", "a", "b", "c"]
    >>> proba = [[.7, .2, .1], [.2, .5, .3], [.1, .3, .6],
    ...          [.3, .4, .3], [.2, .6, .2], [.5, .1, .4]]
    >>> mev = bm.evaluate(y, proba)
    >>> mev  # the main measures; mev.summary() is scikit-learn's classification_report
    MulticlassEvaluation(n=6, classes=['a', 'b', 'c'], average='weighted')
    id                   value
    accuracy          0.666667
    balanced_accuracy 0.666667
    mcc               0.522233
    kappa                  0.5
    brier             0.396667
    log_loss            1.0079
    auc               0.958333
    >>> mev["accuracy"], round(mev["mcc"], 4), round(mev["kappa"], 4)
    (0.6666666666666666, 0.5222, 0.5)
    >>> round(mev["recall"], 4), round(mev.value("recall", average="macro"), 4)
    (0.6667, 0.6667)
    >>> mev.per_class("auc").round(4).tolist()
    [0.875, 1.0, 1.0]
    >>> mev.confusion_matrix  # doctest: +NORMALIZE_WHITESPACE
    predicted  a  b  c
    actual
    a          1  1  0
    b          0  2  0
    c          1  0  1
    """

    def __init__(
        self,
        classes: Sequence[Any],
        codes: npt.NDArray[np.intp],
        proba: npt.NDArray[np.float64],
        *,
        sample_weight: npt.NDArray[np.float64] | None = None,
        average: Average = "weighted",
        undefined: UndefinedPolicy = "warn",
        n_omitted: int = 0,
    ) -> None:
        with undefined_policy(undefined):
            pass  # validates the policy name
        if average not in ("weighted", "macro", "micro"):
            raise ValueError(f"average must be 'weighted', 'macro' or 'micro'; got {average!r}")
        self._classes = list(classes)
        self._codes = codes
        self._proba = proba
        self._weight = sample_weight
        k = len(self._classes)
        #: the default average of the one-vs-rest measures
        self.average: Average = average
        self.undefined: UndefinedPolicy = undefined
        self.n_omitted = int(n_omitted)
        #: rows evaluated (after nan_policy="omit")
        self.n_rows = int(codes.size)
        self.weighted = sample_weight is not None
        # argmax: a tie goes to the first column with the largest probability
        self._pred = np.argmax(proba, axis=1)
        flat = codes * k + self._pred
        cm = np.bincount(flat, weights=sample_weight, minlength=k * k).reshape(k, k)
        self._cm = cm.astype(np.float64)
        self._support = self._cm.sum(axis=1)
        self._data = MulticlassData(self._classes, codes, proba, sample_weight, self._cm,
                                    report=self._report)
        self._tables: list[CountTable | None] = [None] * k
        self._micro_table: CountTable | None = None
        self._cache: dict[Any, Any] = {}
        self._events: list[tuple[str, str, Any]] | None = None
        self._others: list[tuple[type[Warning], str]] = []

    # --- description -----------------------------------------------------------------------
    @property
    def classes(self) -> list[Any]:
        """The classes, in the order of the probability columns."""
        return list(self._classes)

    @property
    def n_classes(self) -> int:
        return len(self._classes)

    @property
    def support(self) -> pd.Series:
        """The (weighted) number of cases of each class: the weights of ``average="weighted"``."""
        s = pd.Series(self._support if self.weighted else self._support.astype(np.int64),
                      index=pd.Index(self._classes, name="class"), name="support")
        return s

    @property
    def confusion_matrix(self) -> pd.DataFrame:
        """The k x k confusion matrix: rows actual, columns predicted (argmax) classes;
        weighted counts when sample weights were given."""
        cm = self._cm if self.weighted else self._cm.astype(np.int64)
        return pd.DataFrame(cm, index=pd.Index(self._classes, name="actual"),
                            columns=pd.Index(self._classes, name="predicted"))

    def one_vs_rest_confusion(self, cls: Any) -> Confusion:
        """The one-vs-rest confusion of class ``cls``: positive = actual ``cls``,
        predicted positive = argmax ``cls``."""
        return self._confusion(self._index(cls))

    def table(self, cls: Any) -> CountTable:
        """The one-vs-rest count table of class ``cls`` (score = its probability column)."""
        return self._table(self._index(cls))

    def _index(self, cls: Any) -> int:
        try:
            return self._classes.index(cls)
        except ValueError:
            raise KeyError(f"unknown class {cls!r}; the classes are {self._classes}") from None

    def _confusion(self, c: int) -> Confusion:
        cm = self._cm
        rest = np.arange(self.n_classes) != c  # summed directly: no cancellation
        return Confusion(tp=float(cm[c, c]), fp=float(cm[rest, c].sum()),
                         fn=float(cm[c, rest].sum()), tn=float(cm[np.ix_(rest, rest)].sum()))

    def _table(self, c: int) -> CountTable:
        t = self._tables[c]
        if t is None:
            score = np.ascontiguousarray(self._proba[:, c])
            t = CountTable.from_validated(self._codes == c, score, self._weight)
            self._tables[c] = t
        return t

    def _micro(self, m: Measure) -> Confusion | CountTable:
        if m.family == "confusion":
            cs = [self._confusion(c) for c in range(self.n_classes)]
            return Confusion(tp=sum(x.tp for x in cs), fp=sum(x.fp for x in cs),
                             fn=sum(x.fn for x in cs), tn=sum(x.tn for x in cs))
        if self._micro_table is None:
            k = self.n_classes
            onehot = np.zeros(self._proba.shape, dtype=bool)
            onehot[np.arange(self.n_rows), self._codes] = True
            w = None if self._weight is None else np.repeat(self._weight, k)
            self._micro_table = CountTable.from_validated(onehot.ravel(), self._proba.ravel(), w)
        return self._micro_table

    # --- undefined values: one warning per reason and set of classes ----------------------
    @contextlib.contextmanager
    def _collecting(self) -> Iterator[None]:
        """Gather the undefined values (and other warnings) of a public call and emit
        them once at its end, grouped by reason."""
        outer = self._events is None
        if outer:
            self._events, self._others = [], []
        try:
            yield
            if outer:
                self._emit(self._events or [], self._others)
        finally:
            if outer:
                self._events, self._others = None, []

    def _report(self, measure: str, reason: str, cls: Any = None) -> None:
        policy = self.undefined
        if policy == "ignore":
            return
        if policy == "raise":
            where = "" if cls is None else f" for class {cls!r}"
            raise UndefinedMeasureError(f"{measure} is undefined{where}: {reason}")
        if self._events is None:
            warnings.warn(UndefinedMeasureWarning(undefined_message((measure,), reason),
                                                  (measure,), reason),
                          stacklevel=_user_stacklevel())
        else:
            self._events.append((reason, measure, cls))

    def _run(self, func: Callable[[], float], cls: Any = None) -> float:
        """``func()`` under the undefined policy, its undefined-value warnings kept as
        events (naming the class) instead of emitted one by one."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                with undefined_policy(self.undefined):
                    value = float(func())
            except UndefinedMeasureError as exc:
                if cls is None:
                    raise
                raise UndefinedMeasureError(f"{exc} (one-vs-rest, class {cls!r})") from exc
        for w in caught:
            if isinstance(w.message, UndefinedMeasureWarning) and w.message.measures:
                for mid in w.message.measures:
                    self._report(mid, w.message.reason, cls)
            else:  # e.g. a MeasureCaveatWarning: kept, naming the class
                text = str(w.message) if cls is None else f"class {cls!r}: {w.message}"
                self._others.append((w.category, text))
        return value

    def _emit(self, events: list[tuple[str, str, Any]],
              others: list[tuple[type[Warning], str]]) -> None:
        level = _user_stacklevel()
        for category, text in dict.fromkeys(others):
            warnings.warn(text, category, stacklevel=level)
        per: dict[tuple[str, str], list[Any]] = {}  # (reason, measure) -> classes
        for reason, measure, cls in events:
            got = per.setdefault((reason, measure), [])
            if cls not in got:
                got.append(cls)
        groups: dict[tuple[str, tuple[Any, ...]], list[str]] = {}
        for (reason, measure), found in per.items():
            key = (reason, tuple(c for c in found if c is not None))
            ids = groups.setdefault(key, [])
            if measure not in ids:
                ids.append(measure)
        for (reason, classes), ids in groups.items():
            if classes:
                verb = "is" if len(ids) == 1 else "are"
                which = (f"class {classes[0]!r}" if len(classes) == 1 else
                         f"classes {', '.join(repr(c) for c in classes)}")
                msg = (f"{', '.join(ids)} {verb} undefined for {which}: "
                       f"{reason}; NaN for {'that class' if len(classes) == 1 else 'those'}, "
                       "left out of the averages")
            else:
                msg = undefined_message(tuple(ids), reason)
            warnings.warn(UndefinedMeasureWarning(msg, tuple(ids), reason), stacklevel=level)

    # --- values ----------------------------------------------------------------------------
    def _per_class_values(self, m: Measure, p: dict[str, Any]) -> npt.NDArray[np.float64]:
        key = ("per_class", m.id, _params_key(p))
        if key not in self._cache:
            out = np.empty(self.n_classes)
            for c, cls in enumerate(self._classes):
                arg = self._confusion(c) if m.family == "confusion" else self._table(c)
                out[c] = self._run(lambda arg=arg: m.func(arg, **p), cls)  # type: ignore[misc]
            out.flags.writeable = False
            self._cache[key] = out
        return self._cache[key]

    def _averaged(self, m: Measure, average: str, p: dict[str, Any]) -> float:
        if average == "micro":
            key = ("micro", m.id, _params_key(p))
            if key not in self._cache:
                arg = self._micro(m)
                self._cache[key] = self._run(lambda: m.func(arg, **p))
            return float(self._cache[key])
        values = self._per_class_values(m, p)
        keep = ~np.isnan(values)
        if average == "macro":
            return float(np.mean(values[keep])) if keep.any() else float("nan")
        w = self._support
        keep &= w > 0  # a class without cases weighs nothing (and may be NaN or inf)
        if not keep.any():
            return float("nan")
        return float(np.average(values[keep], weights=w[keep]))

    def _native(self, mid: str, params: dict[str, Any]) -> float:
        p = _native_params(mid, **params)
        key = ("native", mid, _params_key(p))
        if key not in self._cache:
            func = get_measure(mid).multiclass
            assert func is not None
            self._cache[key] = self._run(lambda: func(self._data, **p))
        return float(self._cache[key])

    def value(self, measure: str | Measure, average: Average | None = None,
              **params: Any) -> float:
        """The value of one measure.

        Parameters
        ----------
        measure : any id or alias of the registry.
        average : {None, "weighted", "macro", "micro", "native"}, optional
            None: the native multiclass value for the measures of
            :data:`NATIVE_MEASURES`, else the one-vs-rest values averaged by
            :attr:`average`. "weighted": weighted by class support (the paper's
            choice); "macro": plain mean over the classes (for ``"average_precision"``
            Berrar's mean average precision); "micro": the measure of the pooled
            one-vs-rest data (the summed confusion for confusion measures, all (class
            indicator, probability) pairs for the others, as scikit-learn's
            ``average="micro"``). Classes where the value is undefined (NaN, with one
            warning) are left out of the weighted and macro averages, as
            scikit-learn's ``zero_division=np.nan``. An explicit average applies to the
            natively multiclass measures too (their binary one-vs-rest versions);
            "native" asks for the native value. For per-class values use
            :meth:`per_class`. For the AUC, "hand_till" is Hand & Till's one-vs-one
            M (scikit-learn ``multi_class="ovo"``, pROC ``multiclass.roc``) and
            "ovo_weighted" its pair-prevalence-weighted form
            (:func:`binmetrics.measures.ovo.one_vs_one_auc`).
        **params : the measure's parameters: for the native value those of the native
            function (``base``/``eps`` of the log loss; ``prior``, ``priors``,
            ``prior_counts``, ``base`` of the information scores), otherwise those of
            the binary measure (``beta=``, ``alpha=``...).

        Examples
        --------
        >>> from binmetrics.evaluation.multiclass import evaluate_multiclass
        >>> y = [0, 1, 2, 0, 1]  # docs/methods.md §5.1: priors (.5, .3, .2)
        >>> proba = [[.7, .2, .1], [.6, .3, .1], [.1, .2, .7], [.2, .5, .3], [.1, .9, 0]]
        >>> mev = evaluate_multiclass(y, proba)
        >>> round(mev.value("information_score", prior="train", priors=[.5, .3, .2]), 6)
        0.639934
        >>> round(mev.value("f1", average="micro"), 4) == mev["accuracy"]
        True
        """
        m = get_measure(measure)
        if average is not None and average not in _AVERAGES:
            raise ValueError(f"average must be one of {_AVERAGES} or None; got {average!r}")
        if average == "none":
            raise ValueError("average='none' gives one value per class: use per_class()")
        if average in OVO_AVERAGES:
            if m.id != "auc" or params:
                raise ValueError(f"average={average!r} is a one-vs-one AUC: pass it with "
                                 f"measure 'auc' and no parameters (got {m.id!r})")
            key = ("ovo", average)
            if key not in self._cache:
                with self._collecting():
                    self._cache[key] = self._run(lambda: one_vs_one_auc(
                        self._data, weighted=average == "ovo_weighted"))
            return float(self._cache[key])
        with self._collecting():
            if average == "native" or (average is None and m.id in NATIVE_MEASURES):
                if m.id not in NATIVE_MEASURES:
                    raise ValueError(f"{m.id} has no native multiclass form (those that do: "
                                     f"{', '.join(NATIVE_MEASURES)}); pass average='weighted',"
                                     " 'macro' or 'micro'")
                return self._native(m.id, params)
            avg = self.average if average is None else average
            return self._averaged(m, avg, m.resolve_params(**params))

    def __getitem__(self, measure: str) -> float:
        return self.value(measure)

    def interpret(self, measure: str | Measure, *, scale: str | None = None,
                  **params: Any) -> str:
        """The value's reading on a benchmark scale, as PyCM's SOA lines
        (:func:`binmetrics.measures.interpretation.interpret`)."""
        from binmetrics.measures.interpretation import interpret

        return interpret(get_measure(measure).id, self.value(measure, **params), scale)

    def __contains__(self, measure: object) -> bool:
        try:
            get_measure(measure)  # type: ignore[arg-type]
        except (KeyError, TypeError):
            return False
        return True

    def per_class(self, measure: str | Measure, **params: Any) -> pd.Series:
        """The k one-vs-rest values of a binary measure, indexed by class.

        Examples
        --------
        >>> from binmetrics.evaluation.multiclass import evaluate_multiclass
        >>> mev = evaluate_multiclass([0, 1, 2, 2], [[.8, .1, .1], [.3, .6, .1],
        ...                               [.2, .2, .6], [.5, .1, .4]])
        >>> mev.per_class("recall").tolist()
        [1.0, 1.0, 0.5]
        """
        m = get_measure(measure)
        with self._collecting():
            values = self._per_class_values(m, m.resolve_params(**params))
        return pd.Series(np.array(values), index=pd.Index(self._classes, name="class"),
                         name=m.id)

    @property
    def mean_average_precision(self) -> float:
        """Berrar's mean average precision: the macro mean of the per-class average
        precisions, ``value("average_precision", average="macro")``."""
        return self.value("average_precision", average="macro")

    def _values(self, chosen: list[Measure], average: Average | None,
                native: bool) -> tuple[dict[str, float], dict[str, str]]:
        if average is not None and average not in ("weighted", "macro", "micro"):
            raise ValueError(f"average must be 'weighted', 'macro', 'micro' or None; got "
                             f"{average!r} (per-class values: per_class_frame())")
        avg = self.average if average is None else average
        values: dict[str, float] = {}
        used: dict[str, str] = {}
        with self._collecting():
            for m in chosen:
                if native and m.id in NATIVE_MEASURES:
                    values[m.id], used[m.id] = self._native(m.id, {}), "native"
                else:
                    values[m.id], used[m.id] = self._averaged(m, avg, m.resolve_params()), avg
        return values, used

    def to_dict(self, family: Family | None = None, *,
                measures: Iterable[str | Measure] | None = None,
                average: Average | None = None, native: bool = True) -> dict[str, float]:
        """Every registered measure (default parameters) as ``{id: value}``.

        ``family`` keeps one family, ``measures`` names the measures. The natively
        multiclass measures are native (``native=False``: one-vs-rest and averaged
        like the rest); the others are averaged by ``average`` (default
        :attr:`average`). Undefined values come with one warning per reason.
        """
        return self._values(select_measures(family, measures), average, native)[0]

    def to_frame(self, family: Family | None = None, *,
                 measures: Iterable[str | Measure] | None = None,
                 average: Average | None = None, native: bool = True) -> pd.DataFrame:
        """Every measure as a DataFrame: id, name, family, direction, value, average
        ("native" or the average used). Parameters as :meth:`to_dict`.

        Examples
        --------
        >>> from binmetrics.evaluation.multiclass import evaluate_multiclass
        >>> mev = evaluate_multiclass([0, 1, 2, 2], [[.8, .1, .1], [.3, .6, .1],
        ...                               [.2, .2, .6], [.5, .1, .4]])
        >>> mev.to_frame(measures=["accuracy", "auc"], average="macro")[["id", "average"]]
                 id average
        0  accuracy  native
        1       auc   macro
        """
        chosen = select_measures(family, measures)
        values, used = self._values(chosen, average, native)
        rows = [{"id": m.id, "name": m.name, "family": m.family, "direction": m.direction,
                 "value": values[m.id], "average": used[m.id]} for m in chosen]
        return pd.DataFrame(rows, columns=["id", "name", "family", "direction", "value",
                                           "average"])

    def per_class_frame(self, family: Family | None = None, *,
                        measures: Iterable[str | Measure] | None = None) -> pd.DataFrame:
        """One-vs-rest values of every measure (rows) for every class (columns)."""
        chosen = select_measures(family, measures)
        # as to_dict: the caveats that need a judgement (BEDROC's) for the measures named
        with asked_for(() if measures is None else [m.id for m in chosen]), \
                self._collecting():
            data = {m.id: np.array(self._per_class_values(m, m.resolve_params()))
                    for m in chosen}
        return pd.DataFrame.from_dict(data, orient="index",
                                      columns=pd.Index(self._classes, name="class"))

    def _repr_html_(self) -> str:
        """Jupyter: every measure as a table (native or averaged, as ``to_dict``)."""
        from binmetrics.evaluation.notebook import measures_table, quiet_values

        return measures_table(quiet_values(self), repr(self))



def evaluate_multiclass(
    y_true: Any,
    y_proba: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    average: Average = "weighted",
    nan_policy: NanPolicy = "raise",
    undefined: UndefinedPolicy = "warn",
) -> MulticlassEvaluation:
    """Evaluate a multiclass classifier from its probability matrix.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        The true classes (any hashable labels).
    y_proba : array-like of shape (n, k), k >= 2
        Predicted class probabilities: each row in [0, 1] and summing to 1 (within
        1e-6; other rows are an error naming how many and the worst sum, so normalise
        scores first). The predicted class is the argmax of the row (multi-level
        comparison paper, section 3.3); a tie goes to the first of the tied columns.
    labels : array-like of shape (k,), optional
        The class of each column, in column order. Default: the sorted distinct values
        of ``y_true``, which must then number k. With explicit labels a class may be
        absent from ``y_true``: its one-vs-rest measures that need positives are NaN
        with a warning (and weigh nothing in the weighted average).
    sample_weight : array-like of shape (n,), optional
        Non-negative case weights; counts become weighted sums, and the class support
        of the weighted average is the weighted count of each class.
    average : {"weighted", "macro", "micro"}, default "weighted"
        The default average of the one-vs-rest measures (see
        :meth:`MulticlassEvaluation.value`).
    nan_policy : {"raise", "omit"}, default "raise"
        Rows of ``y_proba`` with NaN/inf: an error, or they are dropped (with a warning,
        counted in ``n_omitted``).
    undefined : {"warn", "raise", "ignore"}, default "warn"
        What an undefined value does: NaN with one
        :class:`~binmetrics.exceptions.UndefinedMeasureWarning` per reason, an error,
        or NaN silently.

    Returns
    -------
    MulticlassEvaluation

    Examples
    --------
    >>> from binmetrics.evaluation.multiclass import evaluate_multiclass
    >>> mev = evaluate_multiclass(["x", "y", "z", "x"],
    ...                              [[.6, .3, .1], [.2, .7, .1], [.3, .3, .4], [.3, .4, .3]])
    >>> mev.classes, mev.support.tolist()
    (['x', 'y', 'z'], [2, 1, 1])
    >>> mev["accuracy"], mev["balanced_accuracy"]
    (0.75, 0.8333333333333334)
    >>> round(mev["brier"], 4)  # paper Table 5: mean of sum_j (f_ij - o_ij)^2
    0.42
    """
    classes, codes, proba, w, n_omitted = _check_inputs(y_true, y_proba, labels,
                                                        sample_weight, nan_policy)
    return MulticlassEvaluation(classes, codes, proba, sample_weight=w, average=average,
                                undefined=undefined, n_omitted=n_omitted)
