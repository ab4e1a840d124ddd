"""The tasks of a benchmark study: one model fitted and evaluated in one setting.

``_run_task`` clones and seeds the estimator, validates it by stratified
cross-validation (the out-of-fold predictions pooled) and on the external test part,
and computes every chosen measure (binary or multiclass), on the pooled predictions and
on each fold's own; it never raises: failures,
undefined values and other warnings go into its ``_Result``. ``_run`` runs every task,
sequentially or in parallel with joblib, and keeps the results of the tasks that
finished when a task or the parallel run breaks off.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.backends import parallel
from binmetrics.exceptions import UndefinedMeasureWarning
from binmetrics.study._plan import _Setting


@dataclass
class _Result:
    """What one (setting, model) task returns; never raises."""

    rows: list[tuple[str, str, float]] = field(default_factory=list)  # validation, measure, value
    failures: list[tuple[str, str]] = field(default_factory=list)     # stage, message
    undefined: list[tuple[str, str, str]] = field(default_factory=list)  # validation, measure, why
    warnings: list[tuple[str, str]] = field(default_factory=list)     # category, message
    # the cross-validation's folds, each evaluated on its own out-of-fold predictions:
    # fold, n_train, n_test, measure, value, why ("" where defined)
    folds: list[tuple[int, int, int, str, float, str]] = field(default_factory=list)


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
    from binmetrics.evaluation import evaluate

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


def _fold_rows(y: npt.NDArray[Any], out: npt.NDArray[Any], splits: list[tuple[Any, Any]],
               labels: list[Any], method: str, threshold: float, ids: list[str],
               params: Mapping[str, Mapping[str, Any]]
               ) -> list[tuple[int, int, int, str, float, str]]:
    """Every measure on each fold's own test cases. ``cross_val_predict`` fitted one
    model per fold and predicted that fold's cases with it, so the pooled predictions
    restricted to a fold are that fold's model's: no refit is needed. A value the fold
    cannot give (a fold holding one class) is NaN with its reason, never an error."""
    rows: list[tuple[int, int, int, str, float, str]] = []
    for f, (tr, te) in enumerate(splits):
        why: dict[str, str] = {}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                values, why = _scores_values(y[te], out[te], labels, method, threshold, ids,
                                             params)
            except Exception as exc:
                values = dict.fromkeys(ids, float("nan"))
                why = dict.fromkeys(ids, f"{type(exc).__name__}: {exc}")
        for w in caught:
            if isinstance(w.message, UndefinedMeasureWarning):
                for m in w.message.measures:
                    why.setdefault(m, w.message.reason)
        rows.extend((f, len(tr), len(te), i, float(values[i]),
                     why.get(i, "") if np.isnan(values[i]) else "") for i in ids)
    return rows


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
                    splits = list(folds.split(s.X_train, s.y_train))
                    out = cross_val_predict(est, s.X_train, s.y_train, cv=splits, method=method)
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
            if validation == "cv":
                r.folds = _fold_rows(y_eval, np.asarray(out), splits, s.labels, method,
                                     threshold, ids, params)
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
    from joblib import delayed, effective_n_jobs

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
            run = parallel(n_jobs, return_as="generator_unordered")
        except ValueError:  # joblib < 1.4: in order, so a break also loses later results
            run = parallel(n_jobs, return_as="generator")
        try:
            for i, res in run(delayed(_indexed_task)(i, *t) for i, t in enumerate(tasks)):
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
