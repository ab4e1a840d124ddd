"""``benchmark()``: the multi-level comparison study of classifiers and measures.

The multi-level comparison paper (Figure 1; sections 2-3) trains classifiers on
several data sets, in a 2-class and a multiclass version, each with its imbalanced
and balanced composition, validates every model by stratified k-fold
cross-validation and on an external test set, computes every performance measure,
then compares

* the **measures** (section 2.1): per (balance, class setting) an SRD of the matrix
  with one row per model × validation × data set (the data sets merged) and one
  column per measure, unit-length pretreatment, the row mean as the reference, and
  Monte Carlo five-fold cross-validation in ten iterations; COVAT heatmaps of the
  same matrices (Figure 6);
* the **models** (section 2.2): per (data set, balance, class setting) an SRD of the
  transposed matrix (rows = measures, columns = model, and model "T" for the test
  validation), the hypothetical best classifier as the reference (row max for
  higher-is-better measures, row min for lower-is-better ones) and seven-fold
  cross-validation;
* and decomposes the cross-validated SRD% values with the factorial ANOVA of eq. 1
  (balance × class setting × measure, or × classifier).

:func:`benchmark` runs the models and returns a :class:`Study`;
:meth:`Study.srd_measures`, :meth:`Study.srd_models`, :meth:`Study.anova` and
:meth:`Study.covat` are the analyses. Needs scikit-learn (``pip install
"binmetrics[compare]"``); the SRD is :mod:`binmetrics.srd`, the ANOVA
:mod:`binmetrics.anova`, multiclass evaluation :mod:`binmetrics.multiclass`.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from binmetrics.exceptions import UndefinedMeasureWarning
from binmetrics.measures import get_measure
from binmetrics.measures.registry import FAMILIES, iter_measures, select_measures
from binmetrics.progress import as_callback
from binmetrics.validation import n_rows, take_rows

__all__ = ["Study", "StudySRD", "benchmark"]

#: The tidy table's columns; the first five identify one evaluation.
TABLE_COLUMNS = ("dataset", "balance", "classes", "model", "validation", "measure", "value")
_IDS = ("dataset", "balance", "classes", "model", "validation")
_BALANCES = ("imbalanced", "balanced")
_CLASS_SETTINGS = ("multiclass", "2-class")
_VALIDATIONS = ("cv", "test")
#: The suffix of a test-validated model's column in the models SRD (the paper's Figure 7).
TEST_SUFFIX = " T"
#: The cross-validations of :meth:`binmetrics.srd.SRDResult.cross_validate`.
_SRD_CVS = ("kfold", "loo", "bootstrap", "rsrd_wilcoxon")
#: Leave-one-out needs this many rows (three left in every resample; METHODS §1.7).
_MIN_LOO_ROWS = 4


# --- planning: splits, class settings, balanced variants -----------------------------------
@dataclass
class _Setting:
    """One (data set, balance, class setting): the training and test parts."""

    dataset: str
    balance: str
    classes: str
    labels: list[Any]  # the classes of this setting in their order, or [negative, positive]
    X_train: Any
    y_train: npt.NDArray[Any]
    X_test: Any
    y_test: npt.NDArray[Any] | None
    train_index: npt.NDArray[np.intp]   # rows of the data set
    test_index: npt.NDArray[np.intp] | None
    cv_seed: int
    model_seeds: list[int]


@dataclass
class _Result:
    """What one (setting, model) task returns; never raises."""

    rows: list[tuple[str, str, float]] = field(default_factory=list)  # validation, measure, value
    failures: list[tuple[str, str]] = field(default_factory=list)     # stage, message
    undefined: list[tuple[str, str, str]] = field(default_factory=list)  # validation, measure, why
    warnings: list[tuple[str, str]] = field(default_factory=list)     # category, message


def _seed_int(ss: np.random.SeedSequence) -> int:
    return int(ss.generate_state(1, dtype=np.uint32)[0])






def _check_choices(values: Any, allowed: tuple[str, ...], name: str) -> list[str]:
    chosen = [values] if isinstance(values, str) else list(values)
    bad = [v for v in chosen if v not in allowed]
    if bad or not chosen:
        raise ValueError(f"{name} must be one or more of {allowed}; got {values!r}")
    if len(set(chosen)) != len(chosen):
        raise ValueError(f"{name} lists a value twice: {values!r}")
    return chosen


def _label_order(name: str, y_in: Any, y: npt.NDArray[Any]) -> tuple[list[Any], bool]:
    """The classes of data set ``name`` in their order, and whether that order is the
    user's: the categories' order for an ordered pandas Categorical ``y`` (the classes
    present only), otherwise sorted order."""
    present = np.unique(y).tolist()
    dtype = getattr(y_in, "dtype", None)
    if isinstance(dtype, pd.CategoricalDtype) and dtype.ordered:
        seen = set(present)
        return [c for c in dtype.categories.tolist() if c in seen], True
    try:
        return sorted(present), False
    except TypeError:
        raise TypeError(f"datasets[{name!r}]: the labels cannot be sorted ({present}); use "
                        "labels of one type") from None


def _two_classes(name: str, labels: list[Any], two_class: Any, *,
                 ordered: bool = False) -> list[Any]:
    """[negative, positive] of the 2-class setting of data set ``name``; ``labels`` in
    their order (see :func:`_label_order`)."""
    spec = two_class
    if isinstance(two_class, Mapping):
        if name not in two_class:
            raise ValueError(f"two_class is a mapping without data set {name!r}; it has "
                             f"{list(two_class)}")
        spec = two_class[name]
    if isinstance(spec, str) and spec == "extremes":
        if not ordered and not all(isinstance(c, (int, float, np.number)) for c in labels):
            warnings.warn(f"datasets[{name!r}]: two_class='extremes' takes the first and last "
                          f"label in sorted order, {labels[0]!r} and {labels[-1]!r} (positive) "
                          f"of {labels}; for labels with another order pass y as an ordered "
                          "pandas Categorical or two_class=(negative, positive)", UserWarning,
                          stacklevel=4)
        return [labels[0], labels[-1]]
    if isinstance(spec, (str, bytes)) or not isinstance(spec, Sequence) or len(spec) != 2:
        raise ValueError(f"two_class must be 'extremes', a pair of labels (negative, "
                         f"positive) or a mapping data set -> pair; got {spec!r} for {name!r}")
    pair = list(spec)
    missing = [p for p in pair if p not in labels]
    if missing or pair[0] == pair[1]:
        raise ValueError(f"two_class {spec!r} for data set {name!r} must name two different "
                         f"labels among its classes {labels}")
    return pair


def _class_counts(y: npt.NDArray[Any] | None, labels: list[Any]) -> str:
    if y is None:
        return ""
    return ", ".join(f"{lab}: {int(np.sum(y == lab))}" for lab in labels)


def _plan(datasets: Mapping[str, Any], *, balance: list[str], classes: list[str],
          two_class: Any, test_size: Any, n_models: int,
          root: np.random.SeedSequence) -> tuple[list[_Setting], list[dict[str, Any]]]:
    """Every setting's training and test parts (all randomness is drawn here, in the main
    process, so that the results do not depend on ``n_jobs``)."""
    from sklearn.model_selection import train_test_split

    settings: list[_Setting] = []
    skipped: list[dict[str, Any]] = []
    for (name, data), ss in zip(datasets.items(), root.spawn(len(datasets)), strict=True):
        if not isinstance(name, str):
            raise TypeError(f"dataset names must be strings; got {name!r}")
        if not isinstance(data, Sequence) or len(data) != 2:
            raise TypeError(f"datasets[{name!r}] must be a pair (X, y); got "
                            f"{type(data).__name__}")
        X, y_in = data
        y = np.asarray(y_in.to_numpy() if isinstance(y_in, pd.Series) else y_in)
        if y.ndim != 1:
            raise ValueError(f"datasets[{name!r}]: y must be 1-D; got shape {y.shape}")
        rows_x = n_rows(X, f"datasets[{name!r}] X")
        if rows_x != y.size:
            raise ValueError(f"datasets[{name!r}]: X has {rows_x} rows but y has "
                             f"{y.size} labels")
        if pd.isna(y).any():
            raise ValueError(f"datasets[{name!r}]: y has {int(pd.isna(y).sum())} missing labels")
        labels, ordered = _label_order(name, y_in, y)
        if len(labels) < 2:
            raise ValueError(f"datasets[{name!r}]: y holds a single class ({labels}); a "
                             "classifier needs at least two")
        split_ss, *class_ss = ss.spawn(1 + len(classes))
        idx = np.arange(y.size)
        if test_size is None:
            tr, te = idx, None
        else:
            try:
                tr, te = train_test_split(idx, test_size=test_size, stratify=y,
                                          random_state=_seed_int(split_ss))
            except ValueError as exc:
                raise ValueError(f"datasets[{name!r}]: the stratified test split failed: "
                                 f"{exc} (class counts {_class_counts(y, labels)})") from None
            tr, te = np.sort(tr), np.sort(te)
        for setting, css in zip(classes, class_ss, strict=True):
            if setting == "multiclass" and len(labels) == 2:
                skipped.append({"dataset": name, "classes": setting,
                                "reason": "the data set has 2 classes: its multiclass "
                                          "setting would repeat the 2-class one"})
                continue
            keep = labels if setting == "multiclass" else _two_classes(name, labels, two_class,
                                                                       ordered=ordered)
            sort_keep = sorted(keep)
            tr_s = tr[np.isin(y[tr], sort_keep)]
            te_s = None if te is None else te[np.isin(y[te], sort_keep)]
            bal_ss = css.spawn(len(balance))
            for b, bss in zip(balance, bal_ss, strict=True):
                under_ss, cv_ss, *model_ss = bss.spawn(2 + n_models)
                rows = tr_s
                if b == "balanced":  # every class undersampled to the smallest (section 3.1)
                    rng = np.random.default_rng(under_ss)
                    per = [tr_s[y[tr_s] == lab] for lab in sort_keep]
                    n_min = min(p.size for p in per)
                    rows = np.sort(np.concatenate(
                        [rng.choice(p, size=n_min, replace=False) for p in per]))
                settings.append(_Setting(
                    dataset=name, balance=b, classes=setting, labels=keep,
                    X_train=take_rows(X, rows), y_train=y[rows],
                    X_test=None if te_s is None else take_rows(X, te_s),
                    y_test=None if te_s is None else y[te_s], train_index=rows, test_index=te_s,
                    cv_seed=_seed_int(cv_ss), model_seeds=[_seed_int(m) for m in model_ss]))
    return settings, skipped


# --- one task: one model in one setting -----------------------------------------------------
def _seeded(estimator: Any, seed: int | None) -> Any:
    """A clone of the estimator, every ``random_state`` left at None set to ``seed``."""
    from sklearn.base import clone

    est = clone(estimator)
    if seed is not None and hasattr(est, "get_params"):
        params = est.get_params(deep=True)
        fix = {k: seed for k, v in params.items()
               if (k == "random_state" or k.endswith("__random_state")) and v is None}
        if fix:
            est.set_params(**fix)
    return est


def _response(est: Any, binary: bool) -> str:
    if hasattr(est, "predict_proba"):
        return "predict_proba"
    if binary and hasattr(est, "decision_function"):
        return "decision_function"
    need, what = (("predict_proba or decision_function", "a score per case") if binary else
                  ("predict_proba", "class probabilities in a multiclass setting"))
    raise TypeError(f"{type(est).__name__} has no {need}: the measures need {what}")


def _align(fitted: Any, out: npt.NDArray[Any], labels: list[Any], method: str) -> Any:
    """The test predictions with one column per label of the setting (in sorted order)."""
    if method != "predict_proba":
        return out
    cls = list(np.asarray(fitted.classes_).tolist())
    full = np.zeros((out.shape[0], len(labels)))
    order = sorted(labels)
    for j, c in enumerate(cls):
        full[:, order.index(c)] = out[:, j]
    return full


def _param_values(ev: Any, params: Mapping[str, Mapping[str, Any]]
                  ) -> tuple[dict[str, float], dict[str, str]]:
    """The measures of ``params`` one by one, so that one that fails (a parameter that
    does not suit these data) is NaN with its reason and the others are kept."""
    values: dict[str, float] = {}
    errors: dict[str, str] = {}
    for i, p in params.items():
        try:
            values[i] = float(ev.value(i, **p))
        except Exception as exc:
            values[i] = float("nan")
            errors[i] = f"measure_params {dict(p)!r} failed: {type(exc).__name__}: {exc}"
    return values, errors


def _scores_values(y: npt.NDArray[Any], out: npt.NDArray[Any], labels: list[Any],
                   method: str, threshold: float, ids: list[str],
                   params: Mapping[str, Mapping[str, Any]]
                   ) -> tuple[dict[str, float], dict[str, str]]:
    """Every chosen measure of one prediction vector (columns of ``out`` in sorted label
    order), and the reasons of the parametrised measures that failed (their value NaN)."""
    from binmetrics.evaluation.binary import evaluate

    order = sorted(labels)
    ev: Any
    if len(labels) == 2:
        pos = labels[1]
        if method == "predict_proba":
            s = np.asarray(out, dtype=np.float64)[:, order.index(pos)]
            th = threshold
        else:  # scikit-learn's binary decision function is positive for sorted classes [1]
            d = np.asarray(out, dtype=np.float64).reshape(-1)
            s, th = (d if pos == order[1] else -d), 0.0
        # 0/1 labels, so that a part holding one class gives NaN with reasons, not an error
        ev = evaluate((y == pos).astype(np.int8), s, threshold=th)
        values = ev.to_dict(measures=[i for i in ids if i not in params])
    else:
        from binmetrics.evaluation.multiclass import evaluate_multiclass

        ev = evaluate_multiclass(y, np.asarray(out, dtype=np.float64), labels=order)
        values = ev.to_dict(measures=[i for i in ids if i not in params], average="weighted")
    extra, errors = _param_values(ev, {i: params[i] for i in ids if i in params})
    values.update(extra)
    return {i: values[i] for i in ids}, errors


# --- measure_params: per class setting, checked before any fit ------------------------------
def _split_params(measure_params: Mapping[str, Any] | None, ids: list[str]
                  ) -> dict[str, dict[str, dict[str, Any]]]:
    """``measure_params`` as class setting -> measure id -> parameters."""
    out: dict[str, dict[str, dict[str, Any]]] = {k: {} for k in _CLASS_SETTINGS}
    if measure_params is None:
        return out
    if not isinstance(measure_params, Mapping):
        raise TypeError("measure_params must be a mapping measure -> {parameter: value}; got "
                        f"{type(measure_params).__name__}")
    seen: dict[str, str] = {}
    for name, p in measure_params.items():
        m = get_measure(name)
        if m.id not in ids:
            raise ValueError(f"measure_params names {name!r}, which is not among the "
                             "measures of the study")
        if m.id in seen:
            raise ValueError(f"measure_params names {m.id} twice ({seen[m.id]!r} and {name!r})")
        seen[m.id] = name
        if not isinstance(p, Mapping):
            raise TypeError(f"measure_params[{name!r}] must be a mapping parameter -> value "
                            f"(or class setting -> such a mapping); got {type(p).__name__}")
        per_setting = [k for k in p if k in _CLASS_SETTINGS]
        if not per_setting:
            for kind in _CLASS_SETTINGS:
                out[kind][m.id] = dict(p)
            continue
        if len(per_setting) != len(p):
            raise ValueError(f"measure_params[{name!r}] mixes class settings {per_setting} "
                             f"and parameters {[k for k in p if k not in _CLASS_SETTINGS]}; "
                             "give either {parameter: value} or {setting: {parameter: value}}")
        for kind, q in p.items():
            if not isinstance(q, Mapping):
                raise TypeError(f"measure_params[{name!r}][{kind!r}] must be a mapping "
                                f"parameter -> value; got {type(q).__name__}")
            out[kind][m.id] = dict(q)
    return out


def _trial_value(mid: str, p: Mapping[str, Any], k: int) -> None:
    """Compute measure ``mid`` with parameters ``p`` on a small k-class toy prediction:
    raises what the real evaluation would raise for parameters of the wrong kind."""
    y = np.repeat(np.arange(k), 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if k == 2:
            from binmetrics.evaluation.binary import evaluate

            evaluate(y, np.array([.1, .3, .6, .4, .7, .9])).value(mid, **p)
            return
        from binmetrics.evaluation.multiclass import evaluate_multiclass

        proba = np.full((y.size, k), 0.4 / (k - 1))
        right = np.arange(y.size) % 3 != 2  # two of three cases predicted right
        proba[np.arange(y.size), np.where(right, y, (y + 1) % k)] = 0.6
        evaluate_multiclass(y, proba).value(mid, **p)


def _check_params(params: Mapping[str, Mapping[str, Mapping[str, Any]]],
                  settings: list[_Setting], names: Mapping[str, str]) -> None:
    """Every parametrised measure tried in each class setting the study runs (the binary
    form in 2-class settings; the native multiclass form, or the binary one averaged one-vs-
    rest, in multiclass ones, with their numbers of classes), before any model is fitted."""
    from binmetrics.evaluation.multiclass import NATIVE_MEASURES

    n_classes: dict[str, set[int]] = {}
    for st in settings:
        n_classes.setdefault(st.classes, set()).add(len(st.labels))
    for kind in sorted(n_classes):  # "2-class" first
        ks = n_classes[kind]
        for mid, p in params[kind].items():
            if kind == "2-class":
                form = "the binary measure"
            elif mid in NATIVE_MEASURES:
                form = "the native multiclass measure (binmetrics.multiclass)"
            else:
                form = "the binary measure averaged one-vs-rest"
            for k in sorted(ks):
                try:
                    _trial_value(mid, p, k)
                except Exception as exc:
                    cls = TypeError if isinstance(exc, TypeError) else ValueError
                    raise cls(
                        f"measure_params[{names[mid]!r}] = {p!r} does not suit {mid} in the "
                        f"{kind} setting ({form}, {k} classes): {type(exc).__name__}: {exc}. "
                        "Parameters that differ between the settings go in one mapping per "
                        f"setting: measure_params={{{mid!r}: {{'2-class': {{...}}, "
                        "'multiclass': {...}}}") from None


def _run_task(estimator: Any, s: _Setting, model_index: int, validations: list[str],
              cv: int | None, threshold: float, ids: list[str], seed_estimators: bool,
              params: Mapping[str, Mapping[str, Any]]) -> _Result:
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    r = _Result()
    seed = s.model_seeds[model_index] if seed_estimators else None
    binary = len(s.labels) == 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            est = _seeded(estimator, seed)
            method = _response(est, binary)
        except Exception as exc:
            r.failures.append(("setup", f"{type(exc).__name__}: {exc}"))
            return r
        for validation in validations:
            stage = validation
            try:
                if validation == "cv":
                    folds = StratifiedKFold(n_splits=cv, shuffle=True, random_state=s.cv_seed)
                    out = cross_val_predict(est, s.X_train, s.y_train, cv=folds, method=method)
                    y_eval = s.y_train
                else:
                    fitted = _seeded(estimator, seed).fit(s.X_train, s.y_train)
                    out = _align(fitted, np.asarray(getattr(fitted, method)(s.X_test)),
                                 s.labels, method)
                    assert s.y_test is not None
                    y_eval = s.y_test
                stage = f"evaluate {validation}"
                with warnings.catch_warnings(record=True) as inner:
                    warnings.simplefilter("always")
                    values, errors = _scores_values(y_eval, out, s.labels, method, threshold,
                                                    ids, params)
            except Exception as exc:
                r.failures.append((stage, f"{type(exc).__name__}: {exc}"))
                continue
            r.undefined.extend((validation, m, why) for m, why in errors.items())
            for w in inner:
                msg = w.message
                if isinstance(msg, UndefinedMeasureWarning):
                    for m in msg.measures:
                        r.undefined.append((validation, m, msg.reason))
                else:
                    caught.append(w)
            r.rows.extend((validation, i, values[i]) for i in ids)
    seen: set[tuple[str, str]] = set()
    for w in caught:
        key = (w.category.__name__, str(w.message))
        if key not in seen:
            seen.add(key)
            r.warnings.append(key)
    return r


def _lost(exc: BaseException) -> _Result:
    """The result of a task lost with the parallel run (stage "worker")."""
    return _Result(failures=[("worker", f"{type(exc).__name__}: {exc}")])


def _indexed_task(i: int, *args: Any) -> tuple[int, _Result]:
    return i, _run_task(*args)


def _run(tasks: list[tuple[Any, ...]], n_jobs: int | None,
         progress: Callable[[int, int], None] | None) -> list[_Result]:
    """Every task's result, in task order. A task that does not return (an exception
    escaping :func:`_run_task`, or the parallel run broken off, e.g. joblib's
    ``TerminatedWorkerError`` when a worker process dies) gets a result with one
    failure of stage "worker"; the results of the tasks that finished are kept."""
    from joblib import Parallel, delayed, effective_n_jobs

    total = len(tasks)
    out: list[_Result | None] = [None] * total
    done = 0
    if progress is not None:
        progress(0, total)
    broken: BaseException | None = None
    if effective_n_jobs(n_jobs) == 1:
        for i, t in enumerate(tasks):
            try:
                out[i] = _run_task(*t)
            except Exception as exc:  # _run_task records the model's errors itself
                out[i] = _lost(exc)
            done += 1
            if progress is not None:
                progress(done, total)
    else:
        # unordered: every task that finishes is kept even if another breaks the run;
        # the results go back to their place, so the order of completion does not matter
        try:
            parallel = Parallel(n_jobs=n_jobs, return_as="generator_unordered")
        except ValueError:  # joblib < 1.4: in order, so a break also loses later results
            parallel = Parallel(n_jobs=n_jobs, return_as="generator")
        try:
            for i, res in parallel(delayed(_indexed_task)(i, *t) for i, t in enumerate(tasks)):
                out[i] = res
                done += 1
                if progress is not None:
                    progress(done, total)
        except Exception as exc:
            broken = exc
    if any(r is None for r in out):
        why = broken if broken is not None else RuntimeError("the task returned no result")
        if progress is not None:
            progress(total, total)
        return [_lost(why) if r is None else r for r in out]
    return [r for r in out if r is not None]


# --- the public entry point -----------------------------------------------------------------
def benchmark(
    estimators: Mapping[str, Any],
    datasets: Mapping[str, tuple[Any, Any]],
    *,
    cv: int | None = 5,
    test_size: float | int | None = 0.2,
    balance: str | Sequence[str] = _BALANCES,
    classes: str | Sequence[str] = _CLASS_SETTINGS,
    two_class: Any = "extremes",
    measures: str | Iterable[str] = "all",
    measure_params: Mapping[str, Mapping[str, Any]] | None = None,
    threshold: float = 0.5,
    random_state: int | None = 0,
    seed_estimators: bool = True,
    n_jobs: int | None = None,
    progress: Any = None,
) -> Study:
    """Run the multi-level comparison design: every estimator on every data set, class
    setting and composition, validated by cross-validation and on a test set.

    For each data set (multi-level comparison paper, Figure 1 and section 3):

    1. a stratified external test split (``test_size``; the paper used the splits of
       its sources);
    2. per class setting: ``"multiclass"`` keeps every class; ``"2-class"`` keeps
       two, by default the two extreme classes (the paper's non-toxic and most toxic),
       the last being the positive class. A data set with only two classes has no
       separate multiclass setting (it is listed in :attr:`Study.skipped`);
    3. per composition: ``"imbalanced"`` is the training part as it is;
       ``"balanced"`` undersamples every class of the training part at random to the
       size of the smallest (section 3.1). The test part is left unchanged, as in the
       paper's Table 1 (balanced training sets, the same test set for both);
    4. per estimator: stratified ``cv``-fold cross-validation (shuffled) on the
       training part, the out-of-fold predictions pooled into one prediction vector
       and evaluated once (validation ``"cv"``, as WEKA/KNIME cross-validation
       does), and a fit on the whole training part evaluated on the test part
       (validation ``"test"``). Every model of a setting sees the same folds.

    .. important:: **Which classes are "the extremes".** ``two_class="extremes"``
       takes the first and the last class in the *label order* (the last is the
       positive class). That order is the categories' order when ``y`` is an
       **ordered** pandas Categorical (``pd.Categorical(y, categories=["lo", "mid",
       "hi"], ordered=True)`` gives "lo" and "hi"), and otherwise **sorted order**:
       numeric for numbers, but *alphabetical* for strings, so plain labels "lo",
       "mid", "hi" give "hi" (negative) and "mid" (positive) (a warning says so for
       labels that are not numbers). For string labels pass an ordered Categorical
       or name the pair: ``two_class=("lo", "hi")``.

    Binary settings are evaluated with :func:`binmetrics.evaluate` on the positive
    class's probability (cut at ``threshold``, 0.5: the class with the highest
    probability, as in section 3.3); an estimator without ``predict_proba`` is
    evaluated on its ``decision_function`` (cut at 0; the probabilistic measures are
    then NaN with a reason). Multiclass settings are evaluated on the probability
    matrix (:mod:`binmetrics.multiclass`, weighted one-vs-rest averages, section 3.3).

    Parameters
    ----------
    estimators : mapping name -> scikit-learn classifier
        Cloned for every fit; never fitted themselves.
    datasets : mapping name -> (X, y)
        Any labels (at least two classes); X array-like, DataFrame or sparse. An
        ordered pandas Categorical ``y`` (or Series of that dtype) gives the class
        order (see "the extremes" above).
    cv : int, default 5
        Folds of the stratified cross-validation (the paper: five-fold). None: test
        validation only.
    test_size : float, int or None, default 0.2
        The external test part (fraction or count, stratified). None: cross-validation
        only.
    balance : "imbalanced", "balanced" or both (default)
    classes : "multiclass", "2-class" or both (default)
    two_class : "extremes", a pair (negative, positive) or a mapping name -> pair
        The classes of the 2-class setting; "extremes": the first and last in the
        label order (ordered Categorical order, else sorted: alphabetical for strings).
    measures : "all", a family ("confusion", "probabilistic", "ranking") or ids
        Which measures of the registry to compute.
    measure_params : mapping id -> {parameter: value}, optional
        Parameters other than the registry defaults, e.g.
        ``{"dor": {"correction": 0.5}}``: the Haldane–Anscombe correction keeps the
        likelihood ratios and DOR finite when a model leaves a confusion cell empty,
        which would otherwise drop them from the SRD analyses. The same parameters
        go to the binary measure in 2-class settings and, in multiclass settings, to
        the native multiclass measure (:data:`binmetrics.multiclass.NATIVE_MEASURES`)
        or the one-vs-rest binary one. Where a name means different things (the
        information score's ``prior`` is a probability for two classes but "test",
        "train" or "laplace" for more), give one mapping per class setting:
        ``{"information_score": {"2-class": {"prior": 0.3}, "multiclass": {"prior":
        "laplace"}}}`` (a setting left out keeps the defaults). Every parametrised
        measure is tried in each class setting of the study before any fit, so a
        parameter of the wrong kind is a TypeError/ValueError naming the measure
        and the setting; one that still fails on the real data is NaN for that
        measure only, its reason in :attr:`Study.undefined`.
    threshold : float, default 0.5
        Cut of the positive class's probability in binary settings.
    random_state : int or None, default 0
        Seeds the test split, the undersampling, the folds and (``seed_estimators``)
        the estimators; every draw is derived from it with
        :class:`numpy.random.SeedSequence` in the main process, so the same value
        gives the same :attr:`Study.table` whatever ``n_jobs`` is.
    seed_estimators : bool, default True
        Set every ``random_state`` parameter the estimators leave at None (nested
        ones too) to a seed derived from ``random_state``. False leaves them alone
        (then the results are reproducible only if the estimators are).
    n_jobs : int, optional
        Parallel (data set, setting, model) tasks with joblib (None: 1 unless inside
        a ``joblib.parallel_config``; -1: all processors).
    progress : bool or callable(done, total), optional
        True draws a progress bar on stderr (tqdm if installed, else rich).

    Returns
    -------
    Study
        :attr:`Study.table` (tidy results), :attr:`Study.failures`,
        :attr:`Study.undefined`, :attr:`Study.design`, and the analyses.

    Raises
    ------
    ValueError, TypeError
        Bad arguments or a data set that cannot be split (named in the message);
        checked before any model is fitted. A model that fails while the study runs
        does not stop it: its failure is recorded in :attr:`Study.failures` and
        summarised in one warning, and the other models' results are kept.

    Examples
    --------
    >>> import warnings
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> import binmetrics as bm
    >>> from binmetrics.comparison.study import benchmark
    >>> X, y = make_classification(120, n_features=5, n_informative=3, n_classes=3,
    ...                            weights=[.5, .3, .2], random_state=0)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     study = benchmark({"NaiB": GaussianNB(), "stump": DecisionTreeClassifier(max_depth=1)},
    ...                       {"toy": (X, y)}, classes="2-class", cv=3,
    ...                       measures=["accuracy", "auc", "brier"])
    >>> study.table.columns.tolist()
    ['dataset', 'balance', 'classes', 'model', 'validation', 'measure', 'value']
    >>> len(study.table)  # 1 data set x 2 compositions x 2 models x 2 validations x 3
    24
    >>> study.design[["balance", "labels", "train_counts", "test_counts"]]
          balance  labels  train_counts  test_counts
    0  imbalanced  [0, 2]  0: 47, 2: 19  0: 12, 2: 5
    1    balanced  [0, 2]  0: 19, 2: 19  0: 12, 2: 5
    """
    try:
        import sklearn  # noqa: F401
    except ImportError:  # pragma: no cover - scikit-learn is there in the test environment
        raise ImportError("benchmark needs scikit-learn: pip install 'binmetrics[compare]'"
                          ) from None
    if not isinstance(estimators, Mapping) or not estimators:
        raise TypeError("estimators must be a non-empty mapping name -> scikit-learn "
                        f"classifier; got {type(estimators).__name__}")
    for name, est in estimators.items():
        if not isinstance(name, str):
            raise TypeError(f"estimator names must be strings; got {name!r}")
        if not hasattr(est, "fit") or not hasattr(est, "get_params"):
            raise TypeError(f"estimators[{name!r}] must be a scikit-learn classifier (fit, "
                            f"get_params); got {type(est).__name__}")
        if name.endswith(TEST_SUFFIX):
            raise ValueError(f"estimator name {name!r} ends with {TEST_SUFFIX!r}, the suffix "
                             "that marks test validation in the models SRD")
    if not isinstance(datasets, Mapping) or not datasets:
        raise TypeError("datasets must be a non-empty mapping name -> (X, y); got "
                        f"{type(datasets).__name__}")
    if cv is None and test_size is None:
        raise ValueError("cv and test_size are both None: there is no validation to run")
    if cv is not None and (isinstance(cv, bool) or not isinstance(cv, (int, np.integer))
                           or cv < 2):
        raise ValueError(f"cv must be an integer >= 2 (folds) or None; got {cv!r}")
    balances = _check_choices(balance, _BALANCES, "balance")
    settings_cls = _check_choices(classes, _CLASS_SETTINGS, "classes")
    if isinstance(measures, str) and measures == "all":
        chosen = select_measures()
    elif isinstance(measures, str) and measures in FAMILIES:
        chosen = select_measures(measures)
    elif isinstance(measures, str):
        chosen = select_measures(None, [measures])
    else:
        chosen = select_measures(None, measures)
    if not chosen:
        raise ValueError(f"measures={measures!r} selects no measure")
    ids = [m.id for m in chosen]
    params = _split_params(measure_params, ids)
    if isinstance(random_state, bool) or not (
            random_state is None or (isinstance(random_state, (int, np.integer))
                                     and random_state >= 0)):
        raise ValueError(f"random_state must be None or a non-negative int; got "
                         f"{random_state!r}")
    root = np.random.SeedSequence(None if random_state is None else int(random_state))
    callback = as_callback(progress, "benchmark")
    names = list(estimators)
    settings, skipped = _plan(datasets, balance=balances, classes=settings_cls,
                              two_class=two_class, test_size=test_size, n_models=len(names),
                              root=root)
    _check_params(params, settings, {get_measure(n).id: n for n in (measure_params or {})})
    validations = [v for v, on in (("cv", cv is not None), ("test", test_size is not None))
                   if on]
    tasks = [(estimators[n], s, j, validations, cv, float(threshold), ids, seed_estimators,
              params[s.classes]) for s in settings for j, n in enumerate(names)]
    results = _run(tasks, n_jobs, callback)
    study = Study._collect(settings, names, results, skipped, ids, config={
        "cv": cv, "test_size": test_size, "balance": balances, "classes": settings_cls,
        "two_class": two_class, "threshold": threshold, "random_state": random_state,
        "seed_estimators": seed_estimators, "measures": ids, "measure_params": params})
    study._report()
    return study


# --- the results ------------------------------------------------------------------------------
def example_study() -> Study:
    """A tiny study for examples and quick trials: naive Bayes, k-NN and a depth-2 tree
    on a 150-case, 3-class ``make_classification`` set, 3-fold CV plus a test split,
    eight measures, every balance and class setting, summary warnings silenced.

    Examples
    --------
    >>> example_study().table["model"].unique().tolist()
    ['NaiB', 'knn', 'tree']
    """
    from sklearn.datasets import make_classification
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.tree import DecisionTreeClassifier

    X, y = make_classification(150, n_features=5, n_informative=3, n_classes=3,
                               random_state=0)
    models = {"NaiB": GaussianNB(), "knn": KNeighborsClassifier(),
              "tree": DecisionTreeClassifier(max_depth=2)}
    with warnings.catch_warnings():  # the study's summary warnings
        warnings.simplefilter("ignore")
        return benchmark(models, {"toy": (X, y)}, cv=3, measures=[
            "accuracy", "auc", "brier", "mcc", "f1", "kappa", "log_loss",
            "balanced_accuracy"])


class Study:
    """The results of :func:`benchmark` and the paper's analyses of them.

    Attributes
    ----------
    table : pandas.DataFrame
        Tidy results, one row per value: ``dataset``, ``balance`` ("imbalanced" /
        "balanced"), ``classes`` ("multiclass" / "2-class"), ``model``,
        ``validation`` ("cv" / "test"), ``measure`` (registry id), ``value`` (NaN
        where undefined, see :attr:`undefined`). A model that failed in a
        validation has no rows for it (see :attr:`failures`).
    failures : pandas.DataFrame
        dataset, balance, classes, model, stage ("setup", "cv", "test", "evaluate
        cv", "evaluate test"; "worker": the task was lost because its run broke off,
        e.g. a parallel worker process died), error.
    undefined : pandas.DataFrame
        The NaN values and why: dataset, balance, classes, model, validation,
        measure, reason.
    warnings : pandas.DataFrame
        Other warnings raised while fitting (e.g. convergence), once per task:
        dataset, balance, classes, model, category, message.
    design : pandas.DataFrame
        The settings run: dataset, balance, classes, labels, positive (the positive
        class of a 2-class setting), n_train, n_test, train_counts and test_counts
        (the paper's Table 1), train_index and test_index (the rows of the data set
        used), cv_seed (the ``random_state`` of the setting's
        :class:`~sklearn.model_selection.StratifiedKFold`, shuffled).
    skipped : pandas.DataFrame
        Settings not run and why (the multiclass setting of a 2-class data set).
    models, datasets, measures : list of str
    config : dict
        The arguments of :func:`benchmark`.
    """

    def __init__(self, table: pd.DataFrame, *, failures: pd.DataFrame,
                 undefined: pd.DataFrame, warnings: pd.DataFrame, design: pd.DataFrame,
                 skipped: pd.DataFrame, models: list[str], measures: list[str],
                 config: dict[str, Any]) -> None:
        self.table = table
        self.failures = failures
        self.undefined = undefined
        self.warnings = warnings
        self.design = design
        self.skipped = skipped
        self.models = models
        self.datasets = list(dict.fromkeys(design["dataset"])) if len(design) else []
        self.measures = measures
        self.config = config

    @classmethod
    def _collect(cls, settings: list[_Setting], names: list[str], results: list[_Result],
                 skipped: list[dict[str, Any]], ids: list[str],
                 config: dict[str, Any]) -> Study:
        rows: list[tuple[Any, ...]] = []
        fails: list[tuple[Any, ...]] = []
        undef: list[tuple[Any, ...]] = []
        warns: list[tuple[Any, ...]] = []
        it = iter(results)
        for s in settings:
            key = (s.dataset, s.balance, s.classes)
            for name in names:
                r = next(it)
                rows.extend((*key, name, v, m, x) for v, m, x in r.rows)
                fails.extend((*key, name, st, e) for st, e in r.failures)
                undef.extend((*key, name, v, m, why) for v, m, why in r.undefined)
                warns.extend((*key, name, c, msg) for c, msg in r.warnings)
        table = pd.DataFrame(rows, columns=list(TABLE_COLUMNS))
        table["value"] = table["value"].astype(float)
        design = pd.DataFrame([{
            "dataset": s.dataset, "balance": s.balance, "classes": s.classes,
            "labels": list(s.labels), "positive": s.labels[-1] if len(s.labels) == 2 else None,
            "n_train": int(s.y_train.size),
            "n_test": 0 if s.y_test is None else int(s.y_test.size),
            "train_counts": _class_counts(s.y_train, sorted(s.labels)),
            "test_counts": _class_counts(s.y_test, sorted(s.labels)),
            "train_index": s.train_index, "test_index": s.test_index,
            "cv_seed": s.cv_seed} for s in settings])
        return cls(
            table,
            failures=pd.DataFrame(fails, columns=["dataset", "balance", "classes", "model",
                                                  "stage", "error"]),
            undefined=pd.DataFrame(undef, columns=[*_IDS, "measure", "reason"]),
            warnings=pd.DataFrame(warns, columns=["dataset", "balance", "classes", "model",
                                                  "category", "message"]),
            design=design,
            skipped=pd.DataFrame(skipped, columns=["dataset", "classes", "reason"]),
            models=names, measures=ids, config=config)

    def _report(self) -> None:
        """One warning for the failures and one for the undefined values (not one each)."""
        if len(self.failures):
            lost = self.failures[self.failures["stage"] == "worker"]
            head = ""
            if len(lost):
                head = (f"{len(lost)} of {len(self.design) * len(self.models)} task(s) "
                        f"were lost: their run broke off ({lost['error'].iloc[0]}, e.g. a "
                        "parallel worker died); they are in study.failures with stage "
                        "'worker', and the results of the tasks that finished are kept. ")
            others = self.failures[self.failures["stage"] != "worker"]
            tail = ""
            if len(others):
                per = others.groupby("model", sort=False).size()
                first = others.iloc[0]
                tail = (f"{len(others)} model run(s) failed and were left out "
                        f"({', '.join(f'{m}: {k}' for m, k in per.items())}); first: "
                        f"{first['model']} on {first['dataset']} ({first['balance']}, "
                        f"{first['classes']}, {first['stage']}): {first['error']}. The other "
                        "results are kept; see study.failures")
            warnings.warn(f"benchmark: {head}{tail}".rstrip(), UserWarning, stacklevel=3)
        if len(self.undefined):
            reasons = self.undefined.groupby("reason", sort=False)
            ids = tuple(dict.fromkeys(self.undefined["measure"]))
            n_eval = len(self.undefined.drop_duplicates(list(_IDS)))
            text = "; ".join(f"{why} ({', '.join(dict.fromkeys(g['measure']))})"
                             for why, g in reasons)
            warnings.warn(UndefinedMeasureWarning(
                f"benchmark: {len(self.undefined)} values in {n_eval} evaluation(s) are NaN: "
                f"{text}; see study.undefined", ids, "see study.undefined"),
                stacklevel=3)

    def __repr__(self) -> str:
        return (f"Study(datasets={len(self.datasets)}, settings={len(self.design)}, "
                f"models={len(self.models)}, measures={len(self.measures)}, "
                f"rows={len(self.table)}, failures={len(self.failures)}, "
                f"undefined={len(self.undefined)})")

    # --- views ------------------------------------------------------------------------
    def wide(self, index: Sequence[str] = _IDS, columns: str | Sequence[str] = "measure",
             ) -> pd.DataFrame:
        """:attr:`table` pivoted: by default one row per evaluation, one column per measure.

        Examples
        --------
        >>> import warnings
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from binmetrics.comparison.study import benchmark
        >>> X, y = load_iris(return_X_y=True)
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     study = benchmark({"NaiB": GaussianNB()}, {"iris": (X, y)}, classes="2-class",
        ...                       balance="imbalanced", measures=["accuracy", "tpr"])
        >>> wide = study.wide()
        >>> wide.index.names
        FrozenList(['dataset', 'balance', 'classes', 'model', 'validation'])
        >>> wide.columns.tolist(), wide["accuracy"].tolist()  # setosa vs virginica
        (['accuracy', 'tpr'], [1.0, 1.0])
        """
        idx = [index] if isinstance(index, str) else list(index)
        cols = [columns] if isinstance(columns, str) else list(columns)
        bad = [c for c in (*idx, *cols) if c not in TABLE_COLUMNS[:-1]]
        if bad:
            raise ValueError(f"wide: unknown columns {bad}; use {list(TABLE_COLUMNS[:-1])}")
        order = {c: list(dict.fromkeys(self.table[c])) for c in (*idx, *cols)}
        out = self.table.pivot_table(index=idx, columns=cols, values="value",
                                     aggfunc="first", dropna=False, sort=False)
        out = out.dropna(how="all")
        return _reorder(out, order, idx, cols)

    def _groups(self, by: Sequence[str], **where: Any) -> Iterator[tuple[tuple[Any, ...],
                                                                        pd.DataFrame]]:
        t = self.table
        for col, val in where.items():
            if val is not None:
                vals = [val] if isinstance(val, str) else list(val)
                t = t[t[col].isin(vals)]
        if not by:
            yield (), t
            return
        for key, g in t.groupby(list(by), sort=False):
            yield (key if isinstance(key, tuple) else (key,)), g

    # --- the measures comparison (section 2.1) ----------------------------------------
    def measures_matrix(self, *, by: Sequence[str] = ("balance", "classes"),
                        orient: bool = True, clean: bool = True, common: bool = True,
                        **where: Any) -> dict[tuple[Any, ...], pd.DataFrame]:
        """The SRD input matrices of the measures comparison, per ``by`` group.

        Rows: model × validation × data set (the id columns not in ``by``, labels
        joined with " | "); columns: measures. With ``orient``, lower-is-better
        measures are negated. With ``clean``, direction-0 measures (prevalence),
        measures with a NaN or infinite value and constant measures are dropped
        (``matrix.attrs["dropped"]`` lists them with the reason); a row undefined for
        most measures (e.g. a test part holding one class) is dropped instead. With
        ``common`` (default) a measure dropped from one group is dropped from all,
        so that every group compares the same measures (and the ANOVA has every
        cell). ``where`` filters the table first, e.g. ``validation="cv"``.

        Examples
        --------
        >>> from binmetrics.comparison.study import example_study
        >>> study = example_study()  # three models on a 3-class toy data set
        >>> mats = study.measures_matrix()  # one per balance x class setting
        >>> list(mats)  # doctest: +NORMALIZE_WHITESPACE
        [('imbalanced', 'multiclass'), ('balanced', 'multiclass'),
         ('imbalanced', '2-class'), ('balanced', '2-class')]
        >>> m = mats["balanced", "2-class"]
        >>> m.shape, m.index[:2].tolist()  # model x validation x data set rows
        ((6, 8), ['toy | NaiB | cv', 'toy | NaiB | test'])
        >>> m.attrs["negated"]  # lower-is-better measures, negated by orient=True
        ['brier', 'log_loss']
        """
        by = _check_by(by, "measure")
        out = {}
        for key, g in self._groups(by, **where):
            rows = [c for c in _IDS if c not in by]
            m = g.pivot_table(index=rows, columns="measure", values="value",
                              aggfunc="first", dropna=False, sort=False)
            m = m.dropna(how="all").reindex(columns=[i for i in self.measures if i in m.columns])
            m.index = _labels(m.index)
            m.columns.name = "measure"
            out[key] = _prepare_measures(m, orient=orient, clean=clean)
        if common and clean and len(out) > 1:
            shared = [c for c in self.measures if all(c in m.columns for m in out.values())]
            for key, m in out.items():
                extra = [c for c in m.columns if c not in shared]
                if extra:
                    attrs = dict(m.attrs)
                    for c in extra:
                        attrs["dropped"][c] = "dropped from another group (common=True)"
                    attrs["negated"] = [c for c in attrs["negated"] if c in shared]
                    out[key] = m[[c for c in m.columns if c in shared]].copy()
                    out[key].attrs = attrs
        return out

    def srd_measures(self, *, by: Sequence[str] = ("balance", "classes"),
                     pretreat: str = "unit_length", orient: bool = True,
                     reference: str = "mean", cv: str | None = "kfold", k: int = 5,
                     repeats: int = 10, random_state: int | None = 0, common: bool = True,
                     **where: Any) -> StudySRD:
        """The paper's comparison of the measures (section 2.1, Figures 3 and 5).

        Per ``by`` group (default: each balance × class setting, the data sets
        merged): an SRD of the matrix with one row per model × validation × data set
        and one column per measure, ``pretreat`` per column (unit length in the
        paper), the row ``reference`` ("mean") as the consensus, cross-validated
        with ``cv``/``k``/``repeats`` (the paper: Monte Carlo five-fold in ten
        iterations).

        ``orient=True`` (default) negates the lower-is-better measures (direction
        -1 in the registry: error rate, Brier score, log loss...) before the mean
        reference is fused, so that every column grows with model quality. Without
        it a loss would be ranked reversed against the consensus and look like the
        worst measure for that reason alone. The paper does not say how it handled
        them; this is our reading. Measures without a direction (prevalence),
        measures that are NaN or infinite in some row (e.g. DOR with a zero cell)
        and constant measures (all models tie) are dropped, named in one warning
        and in :attr:`StudySRD.dropped`; with ``common`` (default) a measure dropped
        from one group is dropped from every group (see :meth:`measures_matrix`).
        ``cv=None`` skips the cross-validation. Groups too small for an SRD or its
        cross-validation are left out with one warning naming them, as in
        :meth:`srd_models`.

        Returns
        -------
        StudySRD
            per group the matrix, the :class:`~binmetrics.srd.SRDResult` and its
            cross-validation; ``.long()`` is the tidy table (by columns, measure,
            fold, srd_pct) that :meth:`anova` analyses.

        Examples
        --------
        >>> from binmetrics.comparison.study import example_study
        >>> study = example_study()  # three models on a 3-class toy data set
        >>> res = study.srd_measures(repeats=2)
        >>> res
        StudySRD(kind='measures', by=('balance', 'classes'), groups=4)
        >>> top = res.summary().query("balance == 'balanced' and classes == '2-class'")
        >>> print(top[["measure", "srd_pct"]].head(3).round(1).to_string(index=False))
         measure  srd_pct
             auc     11.1
             mcc     22.2
        log_loss     22.2
        >>> res.long().columns.tolist()  # the cross-validated SRD%, for anova()
        ['balance', 'classes', 'fold', 'measure', 'srd_pct']
        """
        mats = self.measures_matrix(by=by, orient=orient, common=common, **where)
        return StudySRD._fit("measures", tuple(by), mats, reference=reference,
                             pretreat=pretreat, axis="columns", directions=None, cv=cv, k=k,
                             repeats=repeats, random_state=random_state)

    # --- the models comparison (section 2.2) ------------------------------------------
    def models_matrix(self, *, by: Sequence[str] = ("dataset", "balance", "classes"),
                      clean: bool = True, **where: Any) -> dict[tuple[Any, ...], pd.DataFrame]:
        """The SRD input matrices of the models comparison, per ``by`` group.

        Rows: measures (× any id column not in ``by`` and not model/validation);
        columns: models, test-validated ones with the suffix " T" (the paper's
        Figure 7). With ``clean``, direction-0 measures, measures with a NaN or
        infinite value and constant rows are dropped (``attrs["dropped"]``).
        """
        by = _check_by(by, "model")
        out = {}
        for key, g in self._groups(by, **where):
            rows = ["measure", *[c for c in ("dataset", "balance", "classes") if c not in by]]
            g = g.assign(column=np.where(g["validation"] == "test", g["model"] + TEST_SUFFIX,
                                         g["model"]))
            m = g.pivot_table(index=rows, columns="column", values="value", aggfunc="first",
                              dropna=False, sort=False)
            m = m.dropna(how="all")
            cols = [n + suf for n in self.models for suf in ("", TEST_SUFFIX)
                    if n + suf in m.columns]
            m = m.reindex(columns=cols)
            if len(rows) == 1:
                m = m.reindex([i for i in self.measures if i in m.index])
            m.attrs["measure_ids"] = [ix if isinstance(ix, str) else ix[0] for ix in m.index]
            m.index = _labels(m.index)
            m.index.name = "measure"
            m.columns.name = "model"
            out[key] = _prepare_models(m, clean=clean)
        return out

    def srd_models(self, *, by: Sequence[str] = ("dataset", "balance", "classes"),
                   pretreat: str = "range", axis: str = "rows", cv: str | None = "kfold",
                   k: int = 7,
                   repeats: int = 1, random_state: int | None = 0, **where: Any) -> StudySRD:
        """The paper's comparison of the models (section 2.2, Figures 7 and 8).

        Per ``by`` group (default: each data set × balance × class setting): an SRD
        of the matrix with one row per measure and one column per model and
        validation ("NaiB" cross-validated, "NaiB T" test), each row scaled to its
        range across the models (``pretreat="range"``, ``axis="rows"``: the measures
        have different scales), and the hypothetical best classifier as the
        reference: the row maximum for higher-is-better measures, the row minimum for
        lower-is-better ones, the directions read from the measure registry.
        Cross-validated with ``cv``/``k`` (the paper: seven-fold; a group with fewer
        than ``k`` measures left is cross-validated leave-one-out, with a warning).
        Direction-0, non-finite and constant rows are dropped with one warning. A
        group too small for the cross-validation (fewer than 4 measures left: too
        few for leave-one-out, METHODS §1.7) keeps its SRD but is left out of
        ``.long()`` and so of the ANOVA, and a group with fewer than 3 measures left
        is left out altogether; one warning names those groups
        (:attr:`StudySRD.not_cross_validated`, :attr:`StudySRD.skipped`), and the
        other groups are kept.

        Returns
        -------
        StudySRD
            ``.long()`` has columns by..., model (without the suffix), validation,
            column, fold, srd_pct.

        Examples
        --------
        >>> from binmetrics.comparison.study import example_study
        >>> study = example_study()  # three models on a 3-class toy data set
        >>> res = study.srd_models()
        >>> res.matrices["toy", "balanced", "2-class"].columns.tolist()  # "T": test
        ['NaiB', 'NaiB T', 'knn', 'knn T', 'tree', 'tree T']
        >>> best = res.summary().query("balance == 'balanced' and classes == '2-class'")
        >>> print(best[["column", "srd_pct"]].head(3).round(1).to_string(index=False))
        column  srd_pct
         knn T     18.8
        NaiB T     31.2
        tree T     62.5
        """
        mats = self.models_matrix(by=by, **where)
        return StudySRD._fit("models", tuple(by), mats, reference="best", pretreat=pretreat,
                             axis=axis, directions="registry", cv=cv, k=k, repeats=repeats,
                             random_state=random_state)

    # --- ANOVA (eq. 1) and COVAT ------------------------------------------------------
    def anova(self, on: str = "measures", *, srd: StudySRD | None = None,
              factors: Sequence[str] | None = None, typ: int = 2, interactions: str = "full",
              **srd_options: Any) -> Any:
        """Factorial ANOVA of the cross-validated SRD% values (the paper's eq. 1).

        Factors: balance, class setting and the measure (``on="measures"``,
        section 2.1) or the classifier (``on="models"``, section 2.2; its
        cross-validated and test columns are both levels of that classifier).
        ``srd`` reuses a computed :class:`StudySRD`; otherwise
        :meth:`srd_measures` / :meth:`srd_models` run with ``srd_options``. A factor
        with a single level in the study (e.g. only balanced data) is left out with
        a warning, and so is a level of the measure or classifier factor that is missing
        from some groups (a model that failed in a setting), so that every cell of
        the design has data. Groups that could not be cross-validated (too few rows
        left, see :meth:`srd_models`) have no SRD% values and are not in the input.

        Returns
        -------
        binmetrics.anova.AnovaResult

        Examples
        --------
        >>> from binmetrics.comparison.study import example_study
        >>> study = example_study()  # three models on a 3-class toy data set
        >>> a = study.anova(repeats=2)  # srd_measures(repeats=2), then eq. 1
        >>> a.factors, a.n
        (['balance', 'classes', 'measure'], 320)
        >>> a.table["term"].tolist()[:4]
        ['balance', 'classes', 'measure', 'balance × classes']
        >>> study.anova("models").factors  # the classifier as factor 3
        ['balance', 'classes', 'model']
        """
        from binmetrics.comparison.anova import anova

        if on not in ("measures", "models"):
            raise ValueError(f"on must be 'measures' or 'models'; got {on!r}")
        if srd is None:
            srd = self.srd_measures(**srd_options) if on == "measures" else \
                self.srd_models(**srd_options)
        elif srd_options:
            raise TypeError(f"srd options {sorted(srd_options)} have no effect with srd=")
        elif srd.kind != on:
            raise ValueError(f"srd is a comparison of the {srd.kind}, not of the {on}")
        data = srd.long()
        third = "measure" if on == "measures" else "model"
        if factors is None:
            factors = [f for f in ("balance", "classes") if f in data.columns] + [third]
        factors = list(factors)
        missing = [f for f in factors if f not in data.columns]
        if missing:
            raise ValueError(f"factors {missing} are not columns of the SRD table "
                             f"{list(data.columns)}")
        single = [f for f in factors if data[f].nunique() < 2]
        if single:
            warnings.warn(f"anova: factor(s) {single} have a single level in this study "
                          "and are left out", UserWarning, stacklevel=2)
            factors = [f for f in factors if f not in single]
        if not factors:
            raise ValueError("anova: no factor has two levels")
        if third in factors and len(factors) > 1:
            others = [f for f in factors if f != third]
            cells = data[others].drop_duplicates()
            n_cells = data[[third, *others]].drop_duplicates().groupby(third, sort=False).size()
            incomplete = [lvl for lvl, n in n_cells.items() if n < len(cells)]
            if incomplete:
                warnings.warn(f"anova: {third} level(s) {incomplete} are missing from some "
                              f"{' × '.join(others)} groups (a failed model, a measure "
                              "dropped from a group) and are left out", UserWarning,
                              stacklevel=2)
                data = data[~data[third].isin(incomplete)]
        return anova(data, factors=factors, response="srd_pct", typ=typ,
                     interactions=interactions)  # type: ignore[arg-type]

    def covat(self, *, balance: str | None = None, classes: str | None = None,
              pretreat: str = "unit_length", orient: bool = True, order: str = "mean",
              **where: Any) -> Any:
        """SRD-COVAT of the measures of one balance × class setting (the paper's Figure 6):
        each measure in turn is the reference (:func:`binmetrics.srd.covat`) on the
        matrix of :meth:`measures_matrix`.

        ``balance`` and ``classes`` pick the setting; they may be left out when the
        study has a single value of them.

        Examples
        --------
        >>> from binmetrics.comparison.study import example_study
        >>> study = example_study()  # three models on a 3-class toy data set
        >>> cov = study.covat(balance="balanced", classes="2-class")
        >>> cov.matrix.shape  # SRD% of every measure with every other as the reference
        (8, 8)
        >>> cov.order[:3]  # the mean order: neighbours rank the models alike
        ['accuracy', 'kappa', 'balanced_accuracy']
        """
        from binmetrics.comparison.srd import covat

        mats = self.measures_matrix(by=("balance", "classes"), orient=orient, **where)
        want = {"balance": balance, "classes": classes}
        keys = [k for k in mats if all(v is None or k[i] == v
                                       for i, v in enumerate(want.values()))]
        if len(keys) != 1:
            raise ValueError(f"covat: pick one setting with balance= and classes=; the study "
                             f"has {[tuple(k) for k in mats]}")
        m = mats[keys[0]]
        _warn_dropped({keys[0]: m}, "covat", ("balance", "classes"))
        return covat(m, pretreat=pretreat, order=order)  # type: ignore[arg-type]


# --- matrix preparation -------------------------------------------------------------------
def _check_by(by: Sequence[str], kind: str) -> list[str]:
    out = [by] if isinstance(by, str) else list(by)
    allowed = ("dataset", "balance", "classes") + (("model", "validation")
                                                    if kind == "measure" else ())
    bad = [b for b in out if b not in allowed]
    if bad:
        raise ValueError(f"by must name columns among {allowed}; got {bad}")
    return out


def _labels(index: pd.Index) -> pd.Index:
    if isinstance(index, pd.MultiIndex):
        return pd.Index([" | ".join(map(str, ix)) for ix in index], name=" | ".join(
            str(n) for n in index.names))
    return pd.Index([str(ix) for ix in index], name=index.name)


def _reorder(out: pd.DataFrame, order: dict[str, list[Any]], idx: list[str],
             cols: list[str]) -> pd.DataFrame:
    def key(names: list[str]) -> Callable[[pd.Index], pd.Index]:
        def k(level: pd.Index) -> pd.Index:
            pos: list[int] = [order[str(level.name)].index(v) for v in level]
            return pd.Index(pos)
        return k

    out = out.sort_index(axis=0, key=key(idx), sort_remaining=False)
    return out.sort_index(axis=1, key=key(cols), sort_remaining=False)


def _correction_measures() -> tuple[str, ...]:
    """The measures of the registry with a ``correction`` parameter (the Haldane–Anscombe
    correction of LR+, LR- and DOR, METHODS.md): those an empty confusion cell makes
    infinite unless it is set."""
    return tuple(m.id for m in iter_measures() if "correction" in m.params)


def _finite_and_varying(values: pd.DataFrame, axis: int) -> tuple[list[Any], dict[Any, str]]:
    """The labels along ``axis`` (0: columns kept, i.e. test each column; 1: rows) to keep,
    and the reasons of the others."""
    dropped: dict[Any, str] = {}
    arr = values.to_numpy(dtype=float)
    lines = arr if axis == 1 else arr.T
    labels = values.index if axis == 1 else values.columns
    keep = []
    for lab, v in zip(labels, lines, strict=True):
        bad = ~np.isfinite(v)
        if bad.any():
            what = "NaN" if np.isnan(v).all() else (
                f"{int(np.isnan(v).sum())} NaN and {int(np.isinf(v).sum())} infinite values")
            hint = ""
            name = lab[0] if isinstance(lab, tuple) else lab
            if np.isinf(v).any() and name in _correction_measures():
                hint = (f"; benchmark(measure_params={{{name!r}: {{'correction': 0.5}}}}) keeps "
                        "it finite")
            dropped[lab] = f"undefined or infinite ({what}){hint}"
        elif v.size and np.all(v == v[0]):
            dropped[lab] = f"constant ({v[0]:g}): it does not rank anything"
        else:
            keep.append(lab)
    return keep, dropped


def _prepare_measures(m: pd.DataFrame, *, orient: bool, clean: bool) -> pd.DataFrame:
    dropped: dict[str, str] = {}
    negated: list[str] = []
    dirs = {c: get_measure(c).direction for c in m.columns}
    if clean:
        for c, d in dirs.items():
            if d == 0:
                dropped[c] = "no direction (neither higher nor lower is better)"
        m = m[[c for c in m.columns if c not in dropped]]
        if len(m):
            # a row undefined for most measures (e.g. a one-class test part) would take
            # every measure with it: drop the row instead
            share = (~np.isfinite(m.to_numpy(dtype=float))).mean(axis=1)
            bad_rows = m.index[share > 0.5]
            for r in bad_rows:
                dropped[f"row {r}"] = "undefined for most measures"
            m = m.drop(index=bad_rows)
        keep, more = _finite_and_varying(m, axis=0)
        dropped.update(more)
        m = m[keep]
    if orient:
        negated = [c for c in m.columns if dirs[c] < 0]
        m = m.copy()
        m[negated] = -m[negated]
    m.attrs["dropped"] = dropped
    m.attrs["negated"] = negated
    return m


def _prepare_models(m: pd.DataFrame, *, clean: bool) -> pd.DataFrame:
    ids = m.attrs.get("measure_ids", list(m.index))
    dirs = [get_measure(i).direction for i in ids]
    dropped: dict[str, str] = {}
    if clean:
        zero = [lab for lab, d in zip(m.index, dirs, strict=True) if d == 0]
        for lab in zero:
            dropped[lab] = "no direction (neither higher nor lower is better)"
        keep, more = _finite_and_varying(m.drop(index=zero), axis=1)
        dropped.update(more)
        sel = [lab in keep for lab in m.index]
        m = m[sel]
        dirs = [d for d, s in zip(dirs, sel, strict=True) if s]
    m.attrs["dropped"] = dropped
    m.attrs["directions"] = dirs
    return m


def _warn_dropped(mats: Mapping[tuple[Any, ...], pd.DataFrame], what: str,
                  by: Sequence[str]) -> pd.DataFrame:
    rows = [(*key, item, why) for key, m in mats.items()
            for item, why in m.attrs.get("dropped", {}).items()]
    frame = pd.DataFrame(rows, columns=[*by, "item", "reason"])
    if len(frame):
        items = list(dict.fromkeys(frame["item"]))
        shown = ", ".join(items[:12]) + (", ..." if len(items) > 12 else "")
        warnings.warn(f"{what}: left out {len(frame)} time(s) in {len(mats)} group(s): {shown} "
                      "(no direction, NaN/infinite or constant; see .dropped)", UserWarning,
                      stacklevel=3)
    return frame


# --- SRD results of a study ---------------------------------------------------------------
class StudySRD:
    """SRD analyses of a :class:`Study`, one per group (from :meth:`Study.srd_measures` or
    :meth:`Study.srd_models`).

    Index it with a group key (a tuple of the ``by`` values, or the value itself for one
    ``by`` column) to get the :class:`~binmetrics.srd.SRDResult`.

    Attributes
    ----------
    kind : "measures" or "models"
    by : tuple of str
        The grouping columns.
    keys : list of tuple
    matrices : dict key -> DataFrame
        The SRD inputs (after orientation and dropping).
    results : dict key -> SRDResult
    cross_validations : dict key -> SRDCrossValidation
    dropped : DataFrame
        by..., item, reason: what was left out of each matrix.
    not_cross_validated : dict key -> str
        The groups too small for the cross-validation asked for (e.g. fewer than 4
        rows left: neither k-fold nor leave-one-out applies) and why; they have an
        SRD in ``results`` but no values in :meth:`long`, so the ANOVA leaves them out.
    skipped : dict key -> str
        The groups left with fewer than 3 rows or 2 columns (no SRD at all) and why.
    negated : list of str
        Measures negated by ``orient`` (measures comparison).
    """

    def __init__(self, kind: str, by: tuple[str, ...], matrices: dict[tuple[Any, ...],
                 pd.DataFrame], results: dict[tuple[Any, ...], Any],
                 cross_validations: dict[tuple[Any, ...], Any], dropped: pd.DataFrame,
                 not_cross_validated: dict[tuple[Any, ...], str] | None = None,
                 skipped: dict[tuple[Any, ...], str] | None = None) -> None:
        self.kind = kind
        self.not_cross_validated = dict(not_cross_validated or {})
        self.skipped = dict(skipped or {})
        self.by = by
        self.matrices = matrices
        self.results = results
        self.cross_validations = cross_validations
        self.dropped = dropped
        self.keys = list(results)
        self.negated = sorted({c for m in matrices.values() for c in m.attrs.get("negated", [])})

    @classmethod
    def _fit(cls, kind: str, by: tuple[str, ...], mats: dict[tuple[Any, ...], pd.DataFrame],
             *, reference: str, pretreat: str, axis: str, directions: Any, cv: str | None,
             k: int, repeats: int, random_state: int | None) -> StudySRD:
        from binmetrics.comparison.srd import srd

        dropped = _warn_dropped(mats, f"srd_{kind}", by)
        if not mats:
            raise ValueError(f"srd_{kind}: the study has no results to compare")
        if cv is not None:
            if cv not in _SRD_CVS:
                raise ValueError(f"cv must be one of {_SRD_CVS} or None; got {cv!r}")
            if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 2:
                raise ValueError(f"k must be an integer >= 2 (folds); got {k!r}")
            if (isinstance(repeats, bool) or not isinstance(repeats, (int, np.integer))
                    or repeats < 1):
                raise ValueError(f"repeats must be a positive integer; got {repeats!r}")

        def named(key: tuple[Any, ...]) -> str:
            return ", ".join(f"{b}={v}" for b, v in zip(by, key, strict=True)) or "all"

        seeds = np.random.SeedSequence(random_state).spawn(len(mats))
        results, cvs = {}, {}
        too_small: dict[tuple[Any, ...], str] = {}
        no_cv: dict[tuple[Any, ...], str] = {}
        for (key, m), ss in zip(mats.items(), seeds, strict=True):
            where = named(key)
            if m.shape[0] < 3 or m.shape[1] < 2:
                too_small[key] = (f"{m.shape[0]} rows x {m.shape[1]} columns left; SRD needs "
                                  "at least 3 rows and 2 columns")
                continue
            kw: dict[str, Any] = {"pretreat": pretreat, "axis": axis}
            if directions == "registry":
                kw["directions"] = np.asarray(m.attrs["directions"])
            try:
                res = srd(m, reference, **kw)
            except ValueError as exc:
                raise ValueError(f"srd_{kind} ({where}): {exc}") from exc
            results[key] = res
            if cv is None:
                continue
            how, folds = cv, k
            if cv == "kfold" and m.shape[0] < k:
                if m.shape[0] < _MIN_LOO_ROWS:
                    no_cv[key] = (f"{m.shape[0]} rows, fewer than k = {k} folds, and "
                                  f"leave-one-out needs at least {_MIN_LOO_ROWS}")
                    continue
                warnings.warn(f"srd_{kind} ({where}): {m.shape[0]} rows, fewer than k = {k}"
                              " folds; cross-validated leave-one-out instead", UserWarning,
                              stacklevel=3)
                how, folds = "loo", m.shape[0]
            try:
                cvs[key] = res.cross_validate(how, folds,  # type: ignore[arg-type]
                                              repeats=repeats if how == "kfold" else 1,
                                              random_state=_seed_int(ss))
            except ValueError as exc:  # too few rows for these folds (arguments checked above)
                no_cv[key] = str(exc)
        if too_small:
            text = "; ".join(f"{named(key)}: {why}" for key, why in too_small.items())
            if not results:
                raise ValueError(f"srd_{kind}: no group is large enough for an SRD ({text})")
            warnings.warn(f"srd_{kind}: {len(too_small)} group(s) left out ({text}); the other "
                          "groups are kept (see .skipped)", UserWarning, stacklevel=3)
        if no_cv:
            text = "; ".join(f"{named(key)}: {why}" for key, why in no_cv.items())
            warnings.warn(f"srd_{kind}: {len(no_cv)} group(s) could not be cross-validated "
                          f"and are left out of .long() and the ANOVA ({text}); their SRD is "
                          "kept (see .not_cross_validated)", UserWarning, stacklevel=3)
        return cls(kind, by, mats, results, cvs, dropped, no_cv, too_small)

    def _key(self, key: Any) -> tuple[Any, ...]:
        k = key if isinstance(key, tuple) else (key,)
        if k not in self.results:
            raise KeyError(f"no group {key!r}; groups ({', '.join(self.by)}): {self.keys}")
        return k

    def __getitem__(self, key: Any) -> Any:
        return self.results[self._key(key)]

    def __len__(self) -> int:
        return len(self.results)

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self.keys)

    def __repr__(self) -> str:
        return f"StudySRD(kind={self.kind!r}, by={self.by}, groups={len(self)})"

    def _split_column(self, frame: pd.DataFrame) -> pd.DataFrame:
        if self.kind == "measures":
            return frame.rename(columns={"column": "measure"})
        test = frame["column"].str.endswith(TEST_SUFFIX)
        at = list(frame.columns).index("column")
        frame.insert(at, "model",
                     np.where(test, frame["column"].str[:-len(TEST_SUFFIX)], frame["column"]))
        frame.insert(at + 1, "validation", np.where(test, "test", "cv"))
        return frame

    def summary(self) -> pd.DataFrame:
        """SRD and SRD% of every column of every group: by..., column (measure, or model
        and validation), srd, srd_pct, sorted within each group as
        :meth:`SRDResult.to_frame` is."""
        parts = []
        for key, res in self.results.items():
            f = res.to_frame().reset_index()
            f = f.rename(columns={f.columns[0]: "column"})
            for b, v in reversed(list(zip(self.by, key, strict=True))):
                f.insert(0, b, v)
            parts.append(f)
        return self._split_column(pd.concat(parts, ignore_index=True))

    def long(self) -> pd.DataFrame:
        """The cross-validated SRD% values, tidy, for :func:`binmetrics.anova.anova`.

        Columns: the ``by`` columns, then ``measure`` (measures comparison) or
        ``model``, ``validation`` and ``column`` (models comparison), the fold
        columns of :meth:`SRDCrossValidation.long` (``fold``, and ``repeat`` if
        repeated), and ``srd_pct``.
        """
        if not self.cross_validations:
            if self.not_cross_validated:
                raise ValueError(f"no group could be cross-validated: "
                                 f"{self.not_cross_validated}")
            raise ValueError("no cross-validation was run (cv=None)")
        parts = []
        for key, cvr in self.cross_validations.items():
            f = cvr.long().copy()
            for b, v in reversed(list(zip(self.by, key, strict=True))):
                f.insert(0, b, v)
            parts.append(f)
        return self._split_column(pd.concat(parts, ignore_index=True))

    def plot(self, key: Any = None, ax: Any = None) -> Any:
        """The SRD plot of one group (:meth:`SRDResult.plot`); ``key`` may be left out when
        there is one group."""
        if key is None:
            if len(self) != 1:
                raise ValueError(f"plot: pick a group; there are {len(self)}: {self.keys}")
            key = self.keys[0]
        return self[key].plot(ax=ax)
