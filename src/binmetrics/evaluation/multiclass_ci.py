r"""Bootstrap intervals of multiclass measures (a mixin of
:class:`~binmetrics.evaluation.multiclass.MulticlassEvaluation`): ``mev.ci``,
``mev.ci_table`` and ``mev.bootstrap``.

The bootstrap redraws rows: stratified by class (the default), each replicate draws
:math:`n_c` rows with replacement from the :math:`n_c` rows of each class c, so every
class keeps its size; unstratified, it draws n rows from all rows, and a class may be
absent. A replicate is a vector of row multiplicities :math:`m_i` (times the row's
sample weight when there is one), and every measure is computed from it without
re-sorting anything:

* the replicate's confusion matrix is the weighted bincount of (actual, argmax) cells,
  from which the one-vs-rest confusions of all classes (and their micro sum) follow,
  all replicates of a block at once;
* class c's one-vs-rest :class:`~binmetrics.table.CountTable` (score = probability of
  c) keeps its sorted distinct scores; the replicate's positive and negative counts at
  each score are the multiplicities of the rows there, summed (each row's score group is
  found once). The AUC and the measures that are a function of it (Gini) are the rank
  sum: each negative row reads the multiplicities of the positives above it (and half
  of those tied) from the cumulative counts of the positive groups, one pass over the
  rows; the other measures with a resampling kernel (KS, ...) run on the block's count
  matrices; the rest on the replicate tables;
* Hand & Till's M takes :math:`\hat A(a \mid b)` from class a's table with class b's
  rows as negatives;
* the natively multiclass measures (accuracy, MCC, kappa, ...) run on the rows with the
  multiplicities as frequency weights; those that are a mean of per-row terms (Brier,
  log loss, RPS: ``Measure.multiclass_rows``) read each replicate as
  :math:`\sum_i m_i t_i / \sum_i m_i` with the terms :math:`t_i` found once, so a
  replicate costs no work over the (n, k) probabilities.

Replicates are drawn in streams of at least 16, each from its own generator spawned
from ``random_state`` (:meth:`RowSampler.streams
<binmetrics.evaluation.row_bootstrap.RowSampler.streams>`); from 20,000 rows the streams
run in threads (as many as the cores this process may use, capped by
``OMP_NUM_THREADS``), and the same seed gives the same replicates, hence the same
intervals, whatever the number of threads.

So all measures, averaged and per class, are computed on the same replicates, which equal
the measures of the resampled rows (``bootstrap_indices`` gives the rows of each
replicate; the tests recompute them with scikit-learn).

Undefined values
    A measure that is undefined for one class on a replicate (say precision when no row
    of the replicate is predicted to be that class) is left out of that replicate's
    macro and weighted averages, as for the estimate. A replicate whose value is
    undefined (NaN: a per-class value of an absent class, or every class undefined) is
    counted in ``n_undefined``; the interval uses the rest, with one
    :class:`~binmetrics.exceptions.UndefinedMeasureWarning` naming the counts.

BCa
    The acceleration is Efron's jackknife estimate, leaving out one row at a time (per
    class when stratified, the multi-sample formula of ``scipy.stats.bootstrap``). Up to
    2000 rows it is exact; beyond, it is estimated from a random sample of 2000 rows
    (each standing for :math:`n_c / s_c` rows of its class), drawn from ``random_state``.
    Each left-out row costs one evaluation of the measures: about 2000 replicates' worth.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from binmetrics.evaluation.row_bootstrap import (
    ColumnEvaluator,
    MulticlassBootstrap,
    Request,
    RowSampler,
    average_classes,
    run_bootstrap,
)
from binmetrics.exceptions import UndefinedPolicy, undefined_policy
from binmetrics.inference.replicate_intervals import check_kind
from binmetrics.inference.resampling import BootstrapInterval
from binmetrics.measures import Measure, get_measure
from binmetrics.measures.kernels import auc_kernel
from binmetrics.measures.multiclass import MulticlassData
from binmetrics.measures.ovo import OVO_AVERAGES
from binmetrics.measures.registry import select_measures
from binmetrics.table.counts import Confusion
from binmetrics.validation import check_random_state, check_resamples

if TYPE_CHECKING:
    from collections.abc import Mapping

    import pandas as pd

__all__ = ["MulticlassInferenceMethods", "multiclass_evaluator"]

FloatArray = npt.NDArray[np.float64]

#: the ``average=`` values an interval can be asked for ("native": the native form;
#: "per_class" is asked for with ``per_class=True``)
CI_AVERAGES = ("weighted", "macro", "micro", "native", *OVO_AVERAGES)
#: the measures of ``ci_table()`` by default (the registry's preset)
_DEFAULT_PRESET = "summary"


def _broadcast(v: Any, shape: Any) -> FloatArray:
    return np.array(np.broadcast_to(np.asarray(v, dtype=np.float64), shape))


def _noop(*args: Any, **kwargs: Any) -> None:
    return None


class _Evaluator(ColumnEvaluator):
    """Computes the multiclass requests on blocks of row weights."""

    def __init__(self, mev: Any, requests: list[Request]) -> None:
        k = mev.n_classes
        codes = mev._codes
        positive = np.zeros(mev._proba.shape, dtype=bool)
        positive[np.arange(codes.size), codes] = True
        super().__init__(requests, mev._proba, positive, mev._table, mev._micro)
        self.codes: npt.NDArray[np.intp] = codes
        self.classes = mev.classes
        self.flat = codes * k + mev._pred
        self._terms: dict[str, FloatArray] = {}

    def _ovo(self, W: FloatArray, weighted: bool) -> FloatArray:
        """Hand & Till's M (or its pair-weighted form) of each replicate
        (:func:`binmetrics.measures.ovo.one_vs_one_auc` on the replicate's rows)."""
        k, b = self.k, W.shape[0]
        share = np.stack([np.bincount(self.codes, weights=W[i], minlength=k) for i in range(b)])
        cond = np.full((b, k, k), np.nan)  # cond[:, a, j]: A(a | j) from class a's table
        for a in range(k):
            g, G = self._class_groups(a)
            keys = self.codes * G + g
            for i in range(b):
                counts = np.bincount(keys, weights=W[i], minlength=k * G).reshape(k, G)
                others = [j for j in range(k) if j != a]
                cond[i, a, others] = auc_kernel(np.broadcast_to(counts[a], (k - 1, G)),
                                                counts[others])
        out = np.full(b, np.nan)
        for i in range(b):
            present = np.flatnonzero(share[i] > 0).tolist()
            if len(present) < 2:
                continue
            vals, wts = [], []
            for x, a in enumerate(present):
                for j in present[x + 1:]:
                    vals.append((cond[i, a, j] + cond[i, j, a]) / 2.0)
                    wts.append((share[i, a] + share[i, j]) / share[i].sum())
            out[i] = np.average(vals, weights=wts if weighted else None)
        return out

    def in_order(self, order: npt.NDArray[np.intp] | None) -> None:
        super().in_order(order)
        if order is not None:
            assert not self._terms
            self.codes = self.codes[order]
            self.flat = self.flat[order]

    def prepare(self) -> None:
        super().prepare()
        for r in self.requests:
            if r.average in OVO_AVERAGES:
                for c in range(self.k):
                    self._class_groups(c)
            elif r.average == "native" and r.measure.multiclass_rows is not None:
                self._row_terms(r)

    def _row_terms(self, r: Request) -> FloatArray:
        """Each row's term of a native form that is a mean over rows (found once)."""
        if r.key not in self._terms:
            k = self.k
            cm = np.bincount(self.flat, minlength=k * k).reshape(k, k).astype(np.float64)
            data = MulticlassData(self.classes, self.codes, self.proba, None, cm,
                                  report=_noop)
            rows = r.measure.multiclass_rows
            assert rows is not None
            self._terms[r.key] = np.asarray(rows(data, **r.params), dtype=np.float64)
        return self._terms[r.key]

    def _native(self, W: FloatArray, cm: FloatArray, r: Request) -> FloatArray:
        if r.measure.multiclass_rows is not None:
            # a mean over rows: sum_i m_i t_i / sum_i m_i, the terms t_i found once
            # einsum, not BLAS: its threads would compete with the bootstrap's own
            return np.einsum("ij,j->i", W, self._row_terms(r)) / W.sum(axis=1)
        func = r.measure.multiclass
        assert func is not None
        out = np.empty(W.shape[0])
        for i in range(W.shape[0]):
            data = MulticlassData(self.classes, self.codes, self.proba, W[i], cm[i],
                                  report=_noop)
            out[i] = float(func(data, **r.params))
        return out

    # --- one block ---------------------------------------------------------------------
    def evaluate(self, W: FloatArray) -> dict[str, FloatArray]:
        """Every request on every row of ``W``: (b,) arrays, (b, k) for "per_class"."""
        out: dict[str, FloatArray] = {}
        with undefined_policy("ignore"), np.errstate(all="ignore"):
            cm = self._cm(W)
            conf = self._confusions(cm)
            support = cm.sum(axis=2)
            per = self._ranking(W)
            for r in self.requests:
                m = r.measure
                if r.average == "native":
                    out[r.key] = self._native(W, cm, r)
                elif r.average in OVO_AVERAGES:
                    out[r.key] = self._ovo(W, weighted=r.average == "ovo_weighted")
                elif m.family == "confusion":
                    if r.average == "micro":
                        c = Confusion(tp=conf.tp.sum(axis=1), fp=conf.fp.sum(axis=1),
                                      fn=conf.fn.sum(axis=1), tn=conf.tn.sum(axis=1))
                        out[r.key] = _broadcast(m.func(c, **r.params), W.shape[0])
                    else:
                        v = _broadcast(m.func(conf, **r.params), conf.tp.shape)
                        out[r.key] = average_classes(v, r.average, support)
                elif r.average == "micro":
                    out[r.key] = self._micro_values(W, r)
                else:
                    out[r.key] = average_classes(per[self._per_key(r)], r.average, support)
        return out


# --- the mixin -----------------------------------------------------------------------------
def multiclass_evaluator(mev: Any, items: Iterable[tuple[str | Measure, str | None]]
                         ) -> ColumnEvaluator:
    """The evaluator of ``(measure, average)`` items on ``mev``'s rows under row weights
    (``.evaluate(W)`` gives each item's values per row of W; ``.requests[i].key`` names
    item i): what the paired comparison of multiclass models runs on each model."""
    return _Evaluator(mev, [mev._request(m, avg, False, {}) for m, avg in items])


class MulticlassInferenceMethods:
    """``ci``, ``ci_table``, ``bootstrap`` and ``bootstrap_indices`` of a multiclass
    evaluation."""

    if TYPE_CHECKING:  # provided by MulticlassEvaluation
        _codes: npt.NDArray[np.intp]
        _weight: FloatArray | None
        undefined: UndefinedPolicy
        average: str

        @property
        def n_classes(self) -> int: ...

        @property
        def classes(self) -> list[Any]: ...

        def value(self, measure: str | Measure, average: Any = None, **params: Any) -> float: ...

        def per_class(self, measure: str | Measure, **params: Any) -> pd.Series: ...

    def _request(self, measure: str | Measure, average: str | None, per_class: bool,
                 params: Mapping[str, Any]) -> Request:
        m = get_measure(measure)
        if average is not None and average not in CI_AVERAGES:
            raise ValueError(f"average must be one of {', '.join(map(repr, CI_AVERAGES))} "
                             f"or None; got {average!r}")
        if per_class:
            if average is not None:
                raise ValueError("per_class=True gives one interval per class: leave "
                                 "average unset")
            return Request(m, "per_class", MappingProxyType(m.resolve_params(**params)))
        if average in OVO_AVERAGES:
            if m.id != "auc" or params:
                raise ValueError(f"average={average!r} is a one-vs-one AUC: pass it with "
                                 f"measure 'auc' and no parameters (got {m.id!r})")
            return Request(m, average, MappingProxyType({}))
        if average == "native" or (average is None and m.multiclass is not None):
            self.value(m, average="native", **params)  # checks the form and its parameters
            return Request(m, "native", MappingProxyType({**m.multiclass_params, **params}))
        avg = self.average if average is None else average
        return Request(m, avg, MappingProxyType(m.resolve_params(**params)))

    def _estimate(self, r: Request) -> Any:
        if r.average == "per_class":
            return np.asarray(self.per_class(r.measure, **r.params), dtype=np.float64)
        return self.value(r.measure, average=r.average, **r.params)

    def bootstrap_indices(self, n_resamples: int = 2000, *, stratified: bool = True,
                          random_state: Any = None) -> Iterator[npt.NDArray[np.intp]]:
        """The rows each bootstrap replicate draws, one (n,) array per replicate: the
        draws of :meth:`bootstrap`, :meth:`ci` and :meth:`ci_table` with the same
        ``n_resamples``, ``stratified`` and ``random_state`` (class by class when
        stratified), for recomputing a statistic of your own on the same replicates.

        Examples
        --------
        >>> import binmetrics as bm
        >>> mev = bm.evaluate([0, 1, 2, 2], [[.8, .1, .1], [.3, .6, .1],
        ...                                  [.2, .2, .6], [.5, .1, .4]])
        >>> rows = next(mev.bootstrap_indices(10, random_state=0))
        >>> sorted(mev.classes[c] for c in mev._codes[rows])  # each class keeps its size
        [0, 1, 2, 2]
        """
        B = check_resamples(n_resamples)
        sampler = RowSampler(self._codes, self.n_classes, bool(stratified))
        yield from sampler.replicate_rows(check_random_state(random_state), B)

    def bootstrap(
        self,
        measures: Sequence[str | Measure | tuple[str | Measure, str]] | str,
        *,
        average: str | None = None,
        per_class: bool = False,
        n_resamples: int = 2000,
        stratified: bool = True,
        random_state: Any = None,
        params: Mapping[str, Mapping[str, Any]] | None = None,
        progress: Any = None,
    ) -> MulticlassBootstrap:
        """Bootstrap replicates of measures, every one on the same resampled rows.

        ``measures`` lists ids (each with ``average``, or its own as a pair
        ``("f1", "macro")``); ``per_class=True`` adds the one-vs-rest values of each
        measure. See the module docstring for the resampling; :meth:`ci` and
        :meth:`ci_table` use it.

        Examples
        --------
        >>> import binmetrics as bm
        >>> mev = bm.evaluate([0, 1, 2, 2, 1, 0], [[.8, .1, .1], [.3, .6, .1], [.2, .2, .6],
        ...                   [.5, .1, .4], [.1, .7, .2], [.4, .4, .2]])
        >>> res = mev.bootstrap([("f1", "macro"), ("auc", "hand_till")], n_resamples=50,
        ...                     random_state=0)
        >>> res.measures, res.replicates["f1 (macro)"].shape
        (('f1 (macro)', 'auc (hand_till)'), (50,))
        """
        if isinstance(measures, (str, Measure)):
            measures = [measures]
        p = {get_measure(k).id: dict(v) for k, v in (params or {}).items()}
        reqs: list[Request] = []
        for item in measures:
            mm, avg = item if isinstance(item, tuple) else (item, average)
            reqs.append(self._request(mm, avg, False, p.get(get_measure(mm).id, {})))
            if per_class:
                reqs.append(self._request(mm, None, True, p.get(get_measure(mm).id, {})))
        return self._run_bootstrap(reqs, n_resamples, stratified, random_state, progress)

    def _run_bootstrap(self, reqs: list[Request], n_resamples: int, stratified: bool,
                       random_state: Any, progress: Any) -> MulticlassBootstrap:
        reqs = list({r.key: r for r in reqs}.values())
        if not reqs:
            raise ValueError("no measures given")
        estimate = {r.key: self._estimate(r) for r in reqs}
        sampler = RowSampler(self._codes, self.n_classes, bool(stratified))
        return run_bootstrap(_Evaluator(self, reqs), sampler, self._weight, estimate,
                             self.classes, n_resamples, random_state, progress,
                             self.undefined)

    def ci(
        self,
        measure: str | Measure,
        *,
        average: str | None = None,
        per_class: bool = False,
        level: float = 0.95,
        n_resamples: int = 2000,
        kind: str = "percentile",
        stratified: bool = True,
        random_state: Any = None,
        progress: Any = None,
        **params: Any,
    ) -> BootstrapInterval | pd.DataFrame:
        """Bootstrap confidence interval of a multiclass measure.

        Parameters
        ----------
        measure : any id or alias of the registry.
        average : {None, "weighted", "macro", "micro", "native", "hand_till", "ovo_weighted"}
            As :meth:`MulticlassEvaluation.value` (None: native for the natively
            multiclass measures, else the evaluation's ``average``).
        per_class : bool, default False
            True: one interval per class (the one-vs-rest values), as a DataFrame.
        level : confidence level in (0, 1), default 0.95.
        n_resamples : bootstrap replicates, default 2000.
        kind : {"percentile", "basic", "bca"}, default "percentile"
            As :meth:`binmetrics.Evaluation.ci`.
        stratified : bool, default True
            Redraw each class's rows separately (every replicate keeps the class sizes);
            False redraws n rows from all rows.
        random_state : seed, Generator or None
            Same seed, same replicates (:meth:`bootstrap_indices`), whatever the
            number of threads that draw them (see the module docstring).
        **params : the measure's parameters.

        Returns
        -------
        BootstrapInterval, or a DataFrame (``per_class=True``) with one row per class:
        class, estimate, low, high, level, ci_method, n_undefined.

        Examples
        --------
        >>> import binmetrics as bm
        >>> y = [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]
        >>> proba = [[.7, .2, .1], [.2, .5, .3], [.1, .3, .6], [.3, .4, .3], [.2, .6, .2],
        ...          [.5, .1, .4], [.6, .3, .1], [.3, .3, .4], [.2, .2, .6], [.4, .5, .1]]
        >>> mev = bm.evaluate(y, proba)
        >>> ci = mev.ci("auc", average="macro", n_resamples=200, random_state=0)
        >>> ci.method, bool(ci.low <= mev.value("auc", average="macro") <= ci.high)
        ('bootstrap-percentile', True)
        >>> mev.ci("recall", per_class=True, n_resamples=200, random_state=0)["class"].tolist()
        [0, 1, 2]
        """
        check_kind(kind)
        r = self._request(measure, average, per_class, params)
        res = self._run_bootstrap([r], n_resamples, stratified, random_state, progress)
        res.report_undefined(res.measures)
        if per_class:
            return res.to_frame(kind=kind, level=level).drop(columns=["measure", "average"])
        got = res.ci(r.key, kind=kind, level=level)
        assert isinstance(got, BootstrapInterval)
        return got

    def ci_table(
        self,
        measures: Iterable[str | Measure] | str | None = None,
        *,
        average: str | None = None,
        per_class: bool = False,
        level: float = 0.95,
        n_resamples: int = 2000,
        kind: str = "percentile",
        stratified: bool = True,
        random_state: Any = None,
        progress: Any = None,
    ) -> pd.DataFrame:
        """Bootstrap intervals of many measures, all on one set of replicates.

        Default measures: the "summary" preset (TPR, TNR, PPV, NPV, F1 averaged by
        ``average``; accuracy, balanced accuracy, MCC and Brier native; the AUC
        averaged). ``per_class=True`` adds one row per class of each measure, on the
        same replicates. Columns: measure, average, class, estimate, low, high, level,
        ci_method, n_undefined. One warning names the undefined replicates.

        Examples
        --------
        >>> import binmetrics as bm
        >>> y = [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]
        >>> proba = [[.7, .2, .1], [.2, .5, .3], [.1, .3, .6], [.3, .4, .3], [.2, .6, .2],
        ...          [.5, .1, .4], [.6, .3, .1], [.3, .3, .4], [.2, .2, .6], [.4, .5, .1]]
        >>> t = bm.evaluate(y, proba).ci_table(["accuracy", "f1", "auc"], average="macro",
        ...                                    n_resamples=100, random_state=0)
        >>> t[["measure", "average"]].values.tolist()
        [['accuracy', 'native'], ['f1', 'macro'], ['auc', 'macro']]
        """
        check_kind(kind)
        chosen = select_measures(None, _DEFAULT_PRESET if measures is None else measures)
        items: list[Any] = [(m, "native" if m.multiclass is not None else average)
                            for m in chosen]
        res = self.bootstrap(items, per_class=per_class, n_resamples=n_resamples,
                             stratified=stratified, random_state=random_state,
                             progress=progress)
        res.report_undefined(res.measures)
        return res.to_frame(kind=kind, level=level)

