"""Paired comparison of multiclass classifiers: ``bm.compare(y, {"A": PA, "B": PB})``
with (n, k) probability matrices.

Every pair of models and every measure gets a :class:`~binmetrics.inference.paired.PairedResult`
in a :class:`~binmetrics.inference.paired.Comparison` (the result type of the binary
:func:`~binmetrics.inference.paired.compare`), by the paired bootstrap: each replicate
redraws the *same* rows for all models (stratified by class by default, as
``MulticlassEvaluation.ci``), and each model's measures are computed on it from its own
confusion matrix and one-vs-rest count tables (no sort; see
:mod:`binmetrics.evaluation.multiclass_ci`). The difference A - B of each replicate is a
draw of the difference's bootstrap distribution; its percentile interval is the
interval and, as pROC's ``roc.test(method="bootstrap")``, z = d / sd(d*) with normal
tails gives the p-value. Replicates where the difference is undefined are counted and
reported in one warning.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.evaluation.multiclass import MulticlassEvaluation, evaluate_multiclass
from binmetrics.evaluation.multiclass_ci import multiclass_evaluator
from binmetrics.evaluation.row_bootstrap import RowSampler
from binmetrics.exceptions import UndefinedMeasureWarning, warn_at_user
from binmetrics.inference.intervals import Interval, normal_pvalue
from binmetrics.inference.paired import Comparison, PairedResult
from binmetrics.inference.paired import compare as binary_compare
from binmetrics.inference.resampling import quantiles
from binmetrics.measures import Measure, get_measure
from binmetrics.measures.registry import get_preset
from binmetrics.progress import as_callback
from binmetrics.validation import (
    Alternative,
    NanPolicy,
    check_alternative,
    check_level,
    check_random_state,
    check_resamples,
)

__all__ = ["compare", "compare_multiclass"]

FloatArray = npt.NDArray[np.float64]


def _is_multiclass(scores: Any) -> bool:
    """True when the models' scores are probability matrices (one per model)."""
    values: Iterable[Any]
    if isinstance(scores, Mapping):
        values = scores.values()
    elif isinstance(scores, Sequence) and not isinstance(scores, (str, bytes)):
        values = scores
    else:
        return False
    for v in values:
        return bool(np.ndim(v) == 2)
    return False


def compare_multiclass(
    y_true: Any,
    scores: Mapping[str, Any] | Sequence[Any],
    *,
    measures: Iterable[str | Measure] | str = ("auc", "accuracy"),
    average: str | None = None,
    labels: Any = None,
    alternative: Alternative = "two-sided",
    sample_weight: Any = None,
    n_resamples: int = 2000,
    level: float = 0.95,
    stratified: bool = True,
    nan_policy: NanPolicy = "raise",
    random_state: Any = None,
    progress: Any = None,
) -> Comparison:
    """Compare multiclass classifiers scored on the same rows: every pair, every measure,
    by the paired bootstrap (the module docstring).

    Parameters
    ----------
    y_true : array-like of shape (n,)
    scores : mapping of name to (n, k) probability matrix, or a sequence of them
    measures : measure name(s), default ("auc", "accuracy")
        The natively multiclass ones (accuracy, MCC, kappa, Brier...) are compared
        natively, the others averaged by ``average``.
    average : {None, "weighted", "macro", "micro", "hand_till", "ovo_weighted"}
        As ``MulticlassEvaluation.value`` (None: "weighted").
    labels : the class of each column, as :func:`binmetrics.evaluate`.
    alternative, sample_weight, n_resamples, level, stratified, nan_policy,
    random_state, progress : as :func:`binmetrics.compare`.

    Examples
    --------
    >>> import numpy as np
    >>> import binmetrics as bm
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 3, 300)
    >>> def model(noise):
    ...     z = np.eye(3)[y] + rng.normal(0, noise, (300, 3))
    ...     p = np.exp(3 * z)
    ...     return p / p.sum(axis=1, keepdims=True)
    >>> cmp = bm.compare(y, {"good": model(0.5), "poor": model(1.5)}, n_resamples=300,
    ...                  random_state=0)
    >>> r = cmp.result("good", "poor", "auc")
    >>> r.method, bool(r.estimate > 0 and r.ci.low > 0 and r.pvalue < 0.01)
    ('paired-bootstrap', True)
    """
    alt = check_alternative(alternative)
    lv = check_level(level)
    B = check_resamples(n_resamples)
    check_random_state(random_state)
    if isinstance(scores, Mapping):
        names = tuple(str(k) for k in scores)
        mats = list(scores.values())
    else:
        mats = list(scores)
        names = tuple(f"model_{i}" for i in range(len(mats)))
    if len(mats) < 2:
        raise ValueError(f"compare needs at least 2 models; got {len(mats)}")
    if len(set(names)) != len(names):
        raise ValueError(f"model names must be distinct; got {list(names)}")
    if isinstance(measures, str) and get_preset(measures) is not None:
        measures = get_preset(measures).ids  # type: ignore[union-attr]
    elif isinstance(measures, (str, Measure)):
        measures = [measures]
    ms = list({get_measure(x).id: get_measure(x) for x in measures}.values())
    if not ms:
        raise ValueError("no measures given")
    evs: list[MulticlassEvaluation] = []
    for name, mat in zip(names, mats, strict=True):
        if np.ndim(mat) != 2:
            raise ValueError(f"scores[{name!r}] must be an (n, k) probability matrix like the "
                             f"other models'; got shape {np.shape(mat)}")
        evs.append(evaluate_multiclass(y_true, mat, labels=labels, sample_weight=sample_weight,
                                       nan_policy=nan_policy))
    first = evs[0]
    for name, ev in zip(names[1:], evs[1:], strict=True):
        if ev.n_rows != first.n_rows or ev.classes != first.classes or \
                not np.array_equal(ev._codes, first._codes):
            raise ValueError(f"scores[{name!r}] does not cover the same rows and classes as "
                             f"scores[{names[0]!r}] (after nan_policy); compare models on "
                             "the same rows")
    check_resamples(B, per_resample=len(names) * len(ms), what="one per model and measure")
    items = [(m, "native" if m.multiclass is not None and average in (None, "weighted",
                                                                      "macro", "micro")
              else average) for m in ms]
    evaluators = [multiclass_evaluator(ev, items) for ev in evs]
    keys = [r.key for r in evaluators[0].requests]
    values = [{m.id: ev.value(m, average=avg)  # type: ignore[arg-type]
               for m, avg in items} for ev in evs]
    sampler = RowSampler(first._codes, first.n_classes, bool(stratified))
    base = first._weight
    for evaluator in evaluators:  # the multiplicities come in the sampler's order
        evaluator.in_order(sampler.order)
    if base is not None and sampler.order is not None:
        base = base[sampler.order]
    reps: list[dict[str, list[FloatArray]]] = [{k: [] for k in keys} for _ in evs]
    call = as_callback(progress, "paired bootstrap")
    done = 0
    draws = (M for rng, b in sampler.streams(check_random_state(random_state), B)
             for M in sampler.multiplicities(rng, b))
    for M in draws:
        W = M if base is None else M * base
        for i, evaluator in enumerate(evaluators):
            got = evaluator.evaluate(W)
            for k in keys:
                reps[i][k].append(got[k])
        done += M.shape[0]
        if call is not None:
            call(done, B)
    rep = [{m.id: np.concatenate(r[k]) for m, k in zip(ms, keys, strict=True)} for r in reps]
    results: list[PairedResult] = []
    undefined: list[str] = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            for m in ms:
                res = _paired(names[i], names[j], m.id, values[i][m.id], values[j][m.id],
                              rep[i][m.id], rep[j][m.id], lv, alt)
                if res.n_undefined:
                    undefined.append(f"{m.id} ({names[i]} - {names[j]}) in {res.n_undefined}")
                results.append(res)
    if undefined and first.undefined != "ignore":
        warn_at_user(UndefinedMeasureWarning(
            f"undefined differences in the paired bootstrap replicates, of {B}: "
            f"{'; '.join(undefined)}; the results use the defined ones",
            tuple(u.split(" ")[0] for u in undefined), "undefined in some replicates"),
            UndefinedMeasureWarning)
    for r in rep:
        for v in r.values():
            v.flags.writeable = False
    return Comparison(
        names=names, measures=tuple(m.id for m in ms), results=tuple(results),
        values=MappingProxyType({n: MappingProxyType(v) for n, v in zip(names, values,
                                                                        strict=True)}),
        replicates=MappingProxyType({n: MappingProxyType(r) for n, r in zip(names, rep,
                                                                           strict=True)}),
        methods=MappingProxyType({m.id: "bootstrap" for m in ms}),
        threshold=math.nan, level=lv, n_resamples=B, stratified=bool(stratified),
        alternative=alt)


def _paired(a: str, b: str, mid: str, va: float, vb: float, ra: FloatArray, rb: FloatArray,
            level: float, alternative: str) -> PairedResult:
    """The paired-bootstrap result of one pair, as the binary compare's."""
    d = va - vb
    diffs = ra - rb
    defined = diffs[~np.isnan(diffs)]
    k = int(diffs.size - defined.size)
    nan = math.nan
    if defined.size >= 2 and not math.isnan(d):
        alpha = (1.0 - level) / 2.0
        low, high = quantiles(defined, [alpha, 1.0 - alpha])
        sd = float(np.std(defined, ddof=1))
        z = d / sd if sd > 0 else (0.0 if d == 0 else math.copysign(math.inf, d))
    else:
        low = high = z = nan
    ci = Interval(d, low, high, level, "bootstrap-percentile")
    return PairedResult(a, b, mid, va, vb, d, ci, normal_pvalue(z, alternative), z,
                        "paired-bootstrap", alternative, k, None)


def compare(y_true: Any, scores: Any, **options: Any) -> Comparison:
    """Compare models scored on the same cases: every pair, every measure.

    Binary scores (one array per model) go to
    :func:`binmetrics.inference.paired.compare` (DeLong, McNemar, the paired bootstrap);
    multiclass probability matrices (one (n, k) matrix per model) to
    :func:`compare_multiclass` (the paired row bootstrap). Both return a
    :class:`~binmetrics.inference.paired.Comparison`.
    """
    if _is_multiclass(scores):
        binary_only = {"threshold", "method", "mcnemar", "pos_label", "params", "clusters",
                       "higher_is_positive"} & set(options)
        if binary_only:
            raise TypeError(f"{', '.join(sorted(binary_only))}: binary options; multiclass "
                            "models are compared by the paired bootstrap (see "
                            "compare_multiclass)")
        return compare_multiclass(y_true, scores, **options)
    return binary_compare(y_true, scores, **options)


def _signature() -> Any:
    import inspect

    sig = inspect.signature(binary_compare)
    extra = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None)
             for name in ("average", "labels")]
    return sig.replace(parameters=[*sig.parameters.values(), *extra])


compare.__signature__ = _signature()  # type: ignore[attr-defined]
