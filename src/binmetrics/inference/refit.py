"""Procedures that retrain the model: Berrar's refit permutation test (section 5.1) and
the out-of-bag bootstrap interval (section 5.4, Definition 38).

Both accept any scikit-learn-compatible classifier: an object with ``fit(X, y)``
that :func:`sklearn.base.clone` can copy (scikit-learn is needed for these two
functions only). Scores of the positive class come from, in this order of
preference (``response_method="auto"``):

1. ``predict_proba(X)[:, j]`` with j the positive label's column in ``classes_``
   (column 1 for labels {0, 1});
2. ``decision_function(X)``, negated when the positive label is ``classes_[0]``
   (scikit-learn's binary decision function is positive for ``classes_[1]``);
3. ``predict(X) == pos_label`` as 0/1.

The ``threshold`` applies to those scores: 0.5 suits probabilities and 0/1
predictions; with a decision function pass ``threshold=0``.

Work runs in parallel with joblib (``n_jobs``) and is reproducible: each refit gets
its own random generator from ``numpy.random.SeedSequence(random_state).spawn``, so
the same ``random_state`` gives the same result whatever ``n_jobs`` is, provided the
estimator itself is deterministic (fix its own ``random_state`` if it has one).
``progress=True`` draws a progress bar on stderr (tqdm when it is installed, rich
otherwise).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from binmetrics.backends import parallel
from binmetrics.exceptions import BinmetricsWarning, undefined_policy
from binmetrics.formatting import Tabular
from binmetrics.inference._replicates import _report_undefined_replicates
from binmetrics.inference.intervals import Interval
from binmetrics.inference.resampling import PermutationResult, permutation_pvalue, quantiles
from binmetrics.measures import Measure, get_measure
from binmetrics.progress import progress_bar as _progress_bar
from binmetrics.table.counts import CountTable, FloatArray
from binmetrics.validation import (
    as_1d,
    check_alternative,
    check_in_range,
    check_labels,
    check_resamples,
    check_threshold,
    n_rows,
    take_rows,
)

__all__ = [
    "OOBBootstrapResult",
    "RefitPermutationResult",
    "oob_bootstrap",
    "refit_permutation_test",
]

ResponseMethod = Literal["auto", "predict_proba", "decision_function", "predict"]
_RESPONSE_METHODS = ("predict_proba", "decision_function", "predict")


# --- helpers ------------------------------------------------------------------------------
def _seed_sequence(random_state: Any) -> np.random.SeedSequence:
    """A SeedSequence from anything ``numpy.random.default_rng`` accepts."""
    if isinstance(random_state, np.random.SeedSequence):
        return random_state
    if isinstance(random_state, np.random.Generator):
        return np.random.SeedSequence(random_state.integers(0, 2**63, size=4).tolist())
    if isinstance(random_state, np.random.RandomState):
        return np.random.SeedSequence(random_state.randint(0, 2**31, size=4).tolist())
    if random_state is None or isinstance(random_state, (int, np.integer)):
        if isinstance(random_state, (int, np.integer)) and random_state < 0:
            raise ValueError(f"random_state must be non-negative, got {random_state}")
        return np.random.SeedSequence(None if random_state is None else int(random_state))
    raise TypeError("random_state must be None, a non-negative int, a numpy Generator, "
                    f"RandomState or SeedSequence; got {random_state!r}")


def _unseeded(estimator: Any) -> dict[str, Any]:
    """The ``random_state`` parameters (nested ones too) the estimator leaves at None."""
    if not hasattr(estimator, "get_params"):
        return {}
    params = estimator.get_params(deep=True)
    return {k: v for k, v in params.items()
            if (k == "random_state" or k.endswith("__random_state")) and v is None}


def _check_seeding(estimator: Any, random_state: Any, procedure: str) -> None:
    """With ``random_state=None`` an estimator with an unseeded ``random_state`` makes the
    result differ between runs: say so (with a seed, each refit seeds it)."""
    unseeded = _unseeded(estimator)
    if random_state is None and unseeded:
        warnings.warn(f"{procedure}: the estimator's {', '.join(sorted(unseeded))} is None "
                      "and random_state=None, so the refits (and the result) differ between "
                      "runs; pass random_state= (each refit then seeds the estimator) to "
                      "make it reproducible", BinmetricsWarning, stacklevel=3)


def _clone(estimator: Any, seed: np.random.SeedSequence | None = None) -> Any:
    """A clone of the estimator; with ``seed``, every ``random_state`` it leaves at None
    is set from that seed (as :func:`binmetrics.benchmark` does)."""
    est = _plain_clone(estimator)
    if seed is not None:
        fix = _unseeded(est)
        if fix:
            value = int(seed.generate_state(1)[0])
            est.set_params(**dict.fromkeys(fix, value))
    return est


def _plain_clone(estimator: Any) -> Any:
    try:
        from sklearn.base import clone
    except ImportError:  # pragma: no cover - scikit-learn is there in the test environment
        raise ImportError("refit procedures need scikit-learn to clone the estimator: "
                          "pip install 'binmetrics[sklearn]'") from None
    if not hasattr(estimator, "fit"):
        raise TypeError(f"estimator must have a fit method (a scikit-learn-compatible "
                        f"classifier); got {type(estimator).__name__}")
    return clone(estimator)


def _check_response(method: Any) -> str:
    if method != "auto" and method not in _RESPONSE_METHODS:
        raise ValueError(f"response_method must be 'auto' or one of "
                         f"{', '.join(map(repr, _RESPONSE_METHODS))}; got {method!r}")
    return str(method)


def _resolve_response(estimator: Any, method: str) -> str:
    if method != "auto":
        if not hasattr(estimator, method):
            raise AttributeError(f"the estimator ({type(estimator).__name__}) has no {method}")
        return method
    for name in _RESPONSE_METHODS:
        if hasattr(estimator, name):
            return name
    raise TypeError(f"the estimator ({type(estimator).__name__}) has none of predict_proba, "
                    "decision_function, predict")


def _scores(fitted: Any, X: Any, pos: Any, method: str) -> FloatArray:
    """The positive class's scores of a fitted estimator (see the module docstring)."""
    classes = getattr(fitted, "classes_", None)
    if classes is not None:
        classes = np.asarray(classes)
        if classes.size != 2:
            raise ValueError(f"the fitted estimator has {classes.size} classes "
                             f"({classes.tolist()}); a binary classifier needs 2")
        where = np.flatnonzero(classes == pos)
        if where.size != 1:
            raise ValueError(f"the positive label {pos!r} is not among the estimator's "
                             f"classes_ {classes.tolist()}")
        col = int(where[0])
    else:
        col = 1
    if method == "predict_proba":
        proba = np.asarray(fitted.predict_proba(X), dtype=np.float64)
        if proba.ndim != 2 or proba.shape[1] != 2:
            raise ValueError(f"predict_proba returned shape {proba.shape}; expected (n, 2)")
        return np.ascontiguousarray(proba[:, col])
    if method == "decision_function":
        d = np.asarray(fitted.decision_function(X), dtype=np.float64).reshape(-1)
        return -d if col == 0 else d
    pred = np.asarray(fitted.predict(X)).reshape(-1)
    return (pred == pos).astype(np.float64)


def _value(y: npt.NDArray[np.bool_], s: FloatArray, m: Measure, params: Mapping[str, Any],
           threshold: float) -> float:
    table = CountTable.from_arrays(y, s)
    if m.family == "confusion":
        return float(m.func(table.confusion(threshold), **params))
    return float(m.func(table, **params))


def _run(func: Callable[..., Any], tasks: Sequence[tuple[Any, ...]], n_jobs: int | None,
         progress: bool, desc: str) -> list[Any]:
    """``func(*task)`` for every task, in order, with joblib when n_jobs asks for it."""
    from joblib import delayed, effective_n_jobs

    bar = _progress_bar(len(tasks), desc, progress)
    out: list[Any] = []
    try:
        if effective_n_jobs(n_jobs) == 1:
            for task in tasks:
                out.append(func(*task))
                bar.update(1)
        else:
            gen = parallel(n_jobs, return_as="generator")(
                delayed(func)(*task) for task in tasks)
            for r in gen:
                out.append(r)
                bar.update(1)
    finally:
        bar.close()
    return out


# --- the refit permutation test -----------------------------------------------------------
@dataclass(frozen=True, eq=False, repr=False)
class RefitPermutationResult(PermutationResult):
    """Berrar's permutation test (section 5.1): a :class:`PermutationResult` whose null
    distribution comes from models retrained on permuted training labels.

    ``response_method`` says which scores were used (predict_proba,
    decision_function or predict).
    """

    response_method: str


def _permuted_value(estimator: Any, X_train: Any, y_train: npt.NDArray[Any], X_test: Any,
                    y_test: npt.NDArray[np.bool_], pos: Any, method: str, measure: str,
                    params: Mapping[str, Any], threshold: float,
                    seed: np.random.SeedSequence) -> float:
    rng = np.random.default_rng(seed)
    perm = rng.permutation(y_train.size)
    fitted = _clone(estimator, seed).fit(X_train, y_train[perm])
    s = _scores(fitted, X_test, pos, method)
    with undefined_policy("ignore"):
        return _value(y_test, s, get_measure(measure), params, threshold)


def refit_permutation_test(
    estimator: Any,
    X_train: Any,
    y_train: Any,
    X_test: Any,
    y_test: Any,
    *,
    measure: str | Measure = "accuracy",
    n_resamples: int = 1000,
    threshold: float = 0.5,
    alternative: str = "two-sided",
    random_state: Any = None,
    n_jobs: int | None = None,
    progress: bool = False,
    pos_label: Any = None,
    response_method: ResponseMethod = "auto",
    plus_one: bool = True,
    params: Mapping[str, Any] | None = None,
) -> RefitPermutationResult:
    """Berrar's random permutation test (section 5.1): retrain on permuted training labels.

    1. Fit a clone of ``estimator`` on (X_train, y_train), score X_test and compute
       the measure: the observed value v.
    2. For each of ``n_resamples`` permutations, fit a fresh clone on X_train with
       the training labels permuted (destroying any association between the
       attributes and the labels), score the same test set: a null value w_i.
    3. p-value: ``(1 + #{w_i at least as extreme as v}) / (1 + n_resamples)`` with
       ``plus_one`` (the default; the observed labelling counts as one
       permutation, so p >= 1/(n_resamples + 1)), or Berrar's plain ratio
       ``#{...} / n_resamples`` with ``plus_one=False``; see
       :func:`binmetrics.inference.resampling.permutation_pvalue`.

    Unlike :meth:`Evaluation.permutation_test` (labels permuted on the evaluation
    set, fixed scores), this tests the *learning procedure*: whether the model can
    learn anything from these attributes.

    Parameters
    ----------
    estimator : scikit-learn-compatible classifier
        Cloned for every fit (:func:`sklearn.base.clone`); it is never fitted itself.
    X_train, y_train : array-like
        Training data and labels (any two labels; DataFrames and sparse matrices work).
    X_test, y_test : array-like
        Test data and labels.
    measure : str or Measure, default "accuracy"
        Any registered measure.
    n_resamples : int, default 1000
    threshold : float, default 0.5
        Cut of a confusion measure, applied to the scores (see the module docstring).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater" asks whether the model is better than chance on a measure where
        higher is better, "less" on a loss.
    random_state : None, int, Generator or SeedSequence
        Seeds the permutations; the same value gives the same null distribution for
        any ``n_jobs``. Each refit also seeds every ``random_state`` the estimator
        leaves at None; with None and such an estimator, a warning says the result is
        not reproducible.
    n_jobs : int, optional
        Parallel fits with joblib (None: 1 unless inside a ``joblib.parallel_config``;
        -1: all processors).
    progress : bool, default False
        Show a progress bar on stderr.
    pos_label : optional
        The positive label (default: 1 / True as :func:`binmetrics.evaluate` decides).
    response_method : {"auto", "predict_proba", "decision_function", "predict"}
    plus_one : bool, default True
    params : mapping, optional
        The measure's parameters, e.g. ``{"beta": 2}``.

    Returns
    -------
    RefitPermutationResult
        ``estimate``, ``null_distribution`` (NaN where the measure is undefined,
        counted in ``n_undefined`` with a warning), ``pvalue``, ``alternative``...

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> import binmetrics as bm
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(80, 2))
    >>> y = (X[:, 0] + 0.3 * rng.normal(size=80) > 0).astype(int)
    >>> res = bm.refit_permutation_test(LogisticRegression(), X[:40], y[:40], X[40:], y[40:],
    ...                                 measure="accuracy", n_resamples=49,
    ...                                 alternative="greater", random_state=0)
    >>> res.pvalue   # no permuted-label model came close: the minimum 1 / (49 + 1)
    0.02
    """
    m = get_measure(measure)
    p = m.resolve_params(**dict(params or {}))
    alt = check_alternative(alternative)
    B = check_resamples(n_resamples)
    th = check_threshold(threshold)
    method = _check_response(response_method)
    ss = _seed_sequence(random_state)
    ytr = as_1d(y_train, "y_train")
    yte, pos = check_labels(y_test, pos_label)
    if n_rows(X_train, "X_train") != ytr.size:
        raise ValueError(f"X_train has {n_rows(X_train, 'X_train')} rows but y_train has "
                         f"{ytr.size} labels")
    if n_rows(X_test, "X_test") != yte.size:
        raise ValueError(f"X_test has {n_rows(X_test, 'X_test')} rows but y_test has "
                         f"{yte.size} labels")
    ytr_bool, _ = check_labels(ytr, pos)
    if ytr_bool.all() or not ytr_bool.any():
        raise ValueError("y_train holds a single class: a classifier cannot be trained on it")
    _check_seeding(estimator, random_state, "refit_permutation_test")
    fitted = _clone(estimator, ss).fit(X_train, ytr)
    used = _resolve_response(fitted, method)
    observed = _value(yte, _scores(fitted, X_test, pos, used), m, p, th)
    tasks = [(estimator, X_train, ytr, X_test, yte, pos, used, m.id, p, th, seed)
             for seed in ss.spawn(B)]
    null = np.asarray(_run(_permuted_value, tasks, n_jobs, progress, "permutations"),
                      dtype=np.float64)
    null.flags.writeable = False
    k = int(np.isnan(null).sum())
    if k:
        _report_undefined_replicates(m.id, k, B, "refits on permuted labels")
    pval = permutation_pvalue(null, observed, alternative=alt,
                              plus_one=plus_one)
    return RefitPermutationResult(measure=m.id, estimate=observed, null_distribution=null,
                                  pvalue=pval, alternative=alt, plus_one=bool(plus_one),
                                  n_resamples=B, n_undefined=k, threshold=th,
                                  response_method=used)


# --- the out-of-bag bootstrap -----------------------------------------------------------------
@dataclass(frozen=True, eq=False, repr=False)
class OOBBootstrapResult(Tabular):
    """Out-of-bag bootstrap distribution of a measure (Berrar section 5.4, Def. 38).

    Attributes
    ----------
    measure : str
    replicates : ndarray of shape (n_resamples,)
        The measure on each out-of-bag set, NaN where undefined.
    oob_sizes : ndarray of int
        The number of out-of-bag cases of each replicate.
    ci : Interval
        The percentile interval at ``level`` of the defined replicates (method
        "oob-bootstrap-percentile").
    estimate : float
        The out-of-bag estimate: the mean of the defined replicates (``ci.estimate``).
    resubstitution : float
        The measure of a model trained on all the data and evaluated on the same data
        (the optimistic "apparent" value), for reference.
    level, n_resamples, threshold, response_method :
        How it was computed.
    n_undefined : int
        Replicates whose value is NaN (a class missing from the training or the
        out-of-bag set, or the measure undefined for another reason).
    n_oob_one_class : int
        Replicates whose out-of-bag set holds a single class (or no case).
    n_train_one_class : int
        Replicates whose bootstrap training set held a single class: no model is
        fitted and the value is NaN.
    """

    measure: str
    replicates: FloatArray
    oob_sizes: npt.NDArray[np.int64]
    ci: Interval
    estimate: float
    resubstitution: float
    level: float
    n_resamples: int
    threshold: float
    response_method: str
    n_undefined: int
    n_oob_one_class: int
    n_train_one_class: int

    @property
    def low(self) -> float:
        return self.ci.low

    @property
    def high(self) -> float:
        return self.ci.high

    def interval(self, level: float = 0.95) -> Interval:
        """The percentile interval at another level, from the same replicates."""
        return _percentile_interval(self.replicates, check_in_range(
            level, "level", 0.0, 1.0, low_open=True, high_open=True))


def _percentile_interval(values: FloatArray, level: float) -> Interval:
    d = values[~np.isnan(values)]
    if d.size == 0:
        nan = math.nan
        return Interval(nan, nan, nan, level, "oob-bootstrap-percentile")
    alpha = (1.0 - level) / 2.0
    low, high = quantiles(d, [alpha, 1.0 - alpha])
    return Interval(float(d.mean()), low, high, level, "oob-bootstrap-percentile")


def _oob_value(estimator: Any, X: Any, y_raw: npt.NDArray[Any], y: npt.NDArray[np.bool_],
               pos: Any, method: str, measure: str, params: Mapping[str, Any],
               threshold: float, seed: np.random.SeedSequence) -> tuple[float, int, str]:
    """(value, out-of-bag size, status) of one replicate; status "ok", "train" or "oob"."""
    rng = np.random.default_rng(seed)
    n = y.size
    idx = rng.integers(0, n, size=n)
    in_bag = np.zeros(n, dtype=bool)
    in_bag[idx] = True
    oob = np.flatnonzero(~in_bag)
    yb = y[idx]
    if yb.all() or not yb.any():
        return math.nan, int(oob.size), "train"
    if oob.size == 0:
        return math.nan, 0, "oob"
    yo = y[oob]
    fitted = _clone(estimator, seed).fit(take_rows(X, idx), y_raw[idx])
    s = _scores(fitted, take_rows(X, oob), pos, method)
    with undefined_policy("ignore"):
        v = _value(yo, s, get_measure(measure), params, threshold)
    return v, int(oob.size), "oob" if (yo.all() or not yo.any()) else "ok"


def oob_bootstrap(
    estimator: Any,
    X: Any,
    y: Any,
    *,
    measure: str | Measure = "auc",
    n_resamples: int = 200,
    level: float = 0.95,
    threshold: float = 0.5,
    random_state: Any = None,
    n_jobs: int | None = None,
    progress: bool = False,
    pos_label: Any = None,
    response_method: ResponseMethod = "auto",
    params: Mapping[str, Any] | None = None,
) -> OOBBootstrapResult:
    """Bootstrap percentile interval from out-of-bag evaluation (Berrar 5.4, Def. 38).

    For each of ``n_resamples`` replicates: draw n cases uniformly with replacement
    from the n cases of (X, y) (the bootstrap training set B_i), fit a clone of the
    estimator on them, score the cases not drawn (the out-of-bag set T_i, about
    36.8% of the cases) and compute the measure θ_i. The interval is
    [θ_(α/2), θ_(1-α/2)], the percentiles of the θ_i (linear interpolation, numpy's
    default).

    A replicate whose training set holds one class is not fitted, and one whose
    out-of-bag set misses a class is still evaluated: measures that need both
    classes (AUC, MCC, ...) are NaN there, measures that do not (accuracy) keep
    their value. NaN replicates are counted (``n_undefined``; the one-class sets in
    ``n_oob_one_class`` and ``n_train_one_class``), reported in an
    :class:`~binmetrics.exceptions.UndefinedMeasureWarning`, and the interval uses
    the defined ones.

    Parameters
    ----------
    estimator : scikit-learn-compatible classifier
    X, y : array-like
        The learning set L.
    measure : str or Measure, default "auc"
    n_resamples : int, default 200
    level : float in (0, 1), default 0.95
    threshold : float, default 0.5
        Cut of a confusion measure, applied to the scores (see the module docstring).
    random_state : None, int, Generator or SeedSequence
        Same value, same replicates for any ``n_jobs``. Each refit also seeds every
        ``random_state`` the estimator leaves at None; with None and such an
        estimator, a warning says the result is not reproducible.
    n_jobs : int, optional
        Parallel fits with joblib.
    progress : bool, default False
        Show a progress bar on stderr.
    pos_label, response_method, params
        As :func:`refit_permutation_test`.

    Returns
    -------
    OOBBootstrapResult
        ``ci`` (unpacks as ``low, high``), ``replicates``, ``estimate``, ``resubstitution``, counts.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> import binmetrics as bm
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(60, 2))
    >>> y = (X[:, 0] + 0.5 * rng.normal(size=60) > 0).astype(int)
    >>> res = bm.oob_bootstrap(LogisticRegression(), X, y, measure="auc", n_resamples=50,
    ...                        random_state=0)
    >>> low, high = res.ci
    >>> bool(0.7 < low < high <= 1.0), res.n_undefined
    (True, 0)
    """
    m = get_measure(measure)
    p = m.resolve_params(**dict(params or {}))
    B = check_resamples(n_resamples)
    lv = check_in_range(level, "level", 0.0, 1.0, low_open=True, high_open=True)
    th = check_threshold(threshold)
    method = _check_response(response_method)
    ss = _seed_sequence(random_state)
    y_raw = as_1d(y, "y")
    yb, pos = check_labels(y_raw, pos_label)
    if n_rows(X, "X") != yb.size:
        raise ValueError(f"X has {n_rows(X, 'X')} rows but y has {yb.size} labels")
    if yb.all() or not yb.any():
        raise ValueError("y holds a single class: a classifier cannot be trained on it")
    if yb.size < 3:
        raise ValueError(f"the out-of-bag bootstrap needs at least 3 cases; got {yb.size}")
    _check_seeding(estimator, random_state, "oob_bootstrap")
    fitted = _clone(estimator, ss).fit(X, y_raw)
    used = _resolve_response(fitted, method)
    apparent = _value(yb, _scores(fitted, X, pos, used), m, p, th)
    tasks = [(estimator, X, y_raw, yb, pos, used, m.id, p, th, seed) for seed in ss.spawn(B)]
    out = _run(_oob_value, tasks, n_jobs, progress, "out-of-bag bootstrap")
    reps = np.array([o[0] for o in out], dtype=np.float64)
    sizes = np.array([o[1] for o in out], dtype=np.int64)
    status = [o[2] for o in out]
    reps.flags.writeable = False
    sizes.flags.writeable = False
    k = int(np.isnan(reps).sum())
    if k:
        _report_undefined_replicates(m.id, k, B, "out-of-bag replicates")
    ci = _percentile_interval(reps, lv)
    return OOBBootstrapResult(
        measure=m.id, replicates=reps, oob_sizes=sizes, ci=ci, estimate=ci.estimate,
        resubstitution=apparent, level=lv, n_resamples=B, threshold=th, response_method=used,
        n_undefined=k, n_oob_one_class=status.count("oob"),
        n_train_one_class=status.count("train"))
