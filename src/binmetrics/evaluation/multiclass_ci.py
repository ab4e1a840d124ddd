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
  found once). Measures with a resampling kernel (AUC, Gini, KS, ...) run on the block's
  count matrices; the others on the replicate tables;
* Hand & Till's M takes :math:`\hat A(a \mid b)` from class a's table with class b's
  rows as negatives;
* the natively multiclass measures (accuracy, MCC, kappa, Brier, log loss, ...) run on
  the rows with the multiplicities as frequency weights.

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
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from binmetrics.exceptions import (
    UndefinedMeasureError,
    UndefinedMeasureWarning,
    UndefinedPolicy,
    undefined_policy,
    warn_at_user,
)
from binmetrics.formatting import Tabular
from binmetrics.inference.replicate_intervals import (
    check_kind,
    interval_from_replicates,
    jackknife_acceleration,
    replicate_table,
)
from binmetrics.inference.resampling import BootstrapInterval
from binmetrics.measures import Measure, get_measure
from binmetrics.measures.kernels import auc_kernel
from binmetrics.measures.multiclass import MulticlassData
from binmetrics.measures.ovo import OVO_AVERAGES
from binmetrics.measures.registry import select_measures
from binmetrics.progress import as_callback
from binmetrics.table.counts import Confusion, CountTable
from binmetrics.validation import check_random_state, check_resamples

if TYPE_CHECKING:
    from collections.abc import Mapping

    import pandas as pd

__all__ = ["MulticlassBootstrap", "MulticlassInferenceMethods"]

FloatArray = npt.NDArray[np.float64]

#: the ``average=`` values an interval can be asked for ("native": the native form;
#: "per_class" is asked for with ``per_class=True``)
CI_AVERAGES = ("weighted", "macro", "micro", "native", *OVO_AVERAGES)
#: elements of a block's (replicates x rows) matrix
_BLOCK_ELEMENTS = 1 << 20
#: rows of an exact BCa jackknife; beyond, a sample of this many rows
_JACKKNIFE_ROWS = 2000
#: the measures of ``ci_table()`` by default (the registry's preset)
_DEFAULT_PRESET = "summary"


def _noop(*args: Any, **kwargs: Any) -> None:
    return None


# --- drawing rows --------------------------------------------------------------------------
class _RowSampler:
    """Blocks of bootstrap replicates of the rows, stratified by class or not."""

    def __init__(self, codes: npt.NDArray[np.intp], k: int, stratified: bool) -> None:
        self.n = int(codes.size)
        if stratified:
            strata = [np.flatnonzero(codes == c) for c in range(k)]
            self.strata = [s for s in strata if s.size]
        else:
            self.strata = [np.arange(self.n)]
        self.block = max(1, _BLOCK_ELEMENTS // max(self.n, 1))

    def indices(self, rng: np.random.Generator, n_resamples: int) -> Iterator[npt.NDArray[np.intp]]:
        """(replicates, n) matrices of the rows each replicate draws (class by class)."""
        done = 0
        while done < n_resamples:
            b = min(self.block, n_resamples - done)
            parts = [s[rng.integers(0, s.size, size=(b, s.size), dtype=np.intp)]
                     for s in self.strata]
            yield np.concatenate(parts, axis=1)
            done += b

    def multiplicities(self, rng: np.random.Generator,
                       n_resamples: int) -> Iterator[FloatArray]:
        """(replicates, n) matrices: how often each replicate draws each row."""
        for idx in self.indices(rng, n_resamples):
            out = np.empty(idx.shape, dtype=np.float64)
            for i in range(idx.shape[0]):
                out[i] = np.bincount(idx[i], minlength=self.n)
            yield out


# --- what is resampled ---------------------------------------------------------------------
@dataclass(frozen=True)
class _Request:
    """One measure with one average ("per_class": the k one-vs-rest values)."""

    measure: Measure
    average: str
    params: Mapping[str, Any]

    @property
    def key(self) -> str:
        return f"{self.measure.id} ({self.average})"


class _Evaluator:
    """Computes the requests on blocks of row weights, from the evaluation's tables."""

    def __init__(self, mev: Any, requests: list[_Request]) -> None:
        self.requests = requests
        self.codes: npt.NDArray[np.intp] = mev._codes
        self.proba: FloatArray = mev._proba
        self.classes = mev.classes
        self.k = k = mev.n_classes
        self.flat = self.codes * k + mev._pred
        self.weighted = mev.weighted
        self._mev = mev
        self._groups: dict[int, tuple[npt.NDArray[np.intp], int]] = {}
        self._slots: dict[int, tuple[npt.NDArray[np.intp], int]] = {}
        self._micro: tuple[CountTable, npt.NDArray[np.intp], int] | None = None

    def _class_groups(self, c: int) -> tuple[npt.NDArray[np.intp], int]:
        """Each row's score group in class c's table (0 = the highest score), and the
        number of groups: the table's own grouping, found once (no sort per replicate)."""
        if c not in self._groups:
            t = self._mev._table(c)
            _, inverse = np.unique(self.proba[:, c], return_inverse=True)
            g = (t.n_distinct - 1 - inverse).astype(np.intp)
            self._groups[c] = (g, t.n_distinct)
        return self._groups[c]

    def _class_slots(self, c: int) -> tuple[npt.NDArray[np.intp], int]:
        """Each row's key at the condensed-slot level of class c's table (slot 2q + 1:
        the q-th group holding positives; slot 2q: the negative-only groups just above
        it), negatives offset by the number of slots. The ranking kernels are invariant
        to this merge, and a table with few positives has few slots."""
        if c not in self._slots:
            g, G = self._class_groups(c)
            t = self._mev._table(c)
            holds = t.pos > 0
            idx = np.flatnonzero(holds)
            slot = 2 * np.searchsorted(idx, np.arange(G)) + holds
            S = 2 * int(idx.size) + 1
            self._slots[c] = ((slot[g] + S * (self.codes != c)).astype(np.intp), S)
        return self._slots[c]

    def _micro_groups(self) -> tuple[CountTable, npt.NDArray[np.intp], int]:
        if self._micro is None:
            any_ranking = next(r.measure for r in self.requests if r.measure.family != "confusion")
            t = self._mev._micro(any_ranking)
            g = np.searchsorted(-t.scores, -self.proba.ravel()).astype(np.intp)
            self._micro = (t, g, t.n_distinct)
        return self._micro

    # --- views of a block --------------------------------------------------------------
    def _cm(self, W: FloatArray) -> FloatArray:
        k = self.k
        out = np.empty((W.shape[0], k, k))
        for i in range(W.shape[0]):
            out[i] = np.bincount(self.flat, weights=W[i], minlength=k * k).reshape(k, k)
        return out

    @staticmethod
    def _confusions(cm: FloatArray) -> Confusion:
        """(b, k) one-vs-rest confusions of every class of every replicate."""
        tp = np.diagonal(cm, axis1=1, axis2=2).copy()
        row, col = cm.sum(axis=2), cm.sum(axis=1)
        total = cm.sum(axis=(1, 2))[:, None]
        fn, fp = row - tp, col - tp
        return Confusion(tp=tp, fp=fp, fn=fn, tn=total - tp - fp - fn)

    def _class_counts(self, W: FloatArray, c: int,
                      level: str = "group") -> tuple[FloatArray, FloatArray]:
        """(b, width) positive and negative counts of class c's table in each replicate,
        at the group level (the replicate tables) or the slot level (the kernels)."""
        if level == "slot":
            keys, G = self._class_slots(c)
        else:
            g, G = self._class_groups(c)
            keys = g + G * (self.codes != c)
        both = np.empty((W.shape[0], 2 * G))
        for i in range(W.shape[0]):
            both[i] = np.bincount(keys, weights=W[i], minlength=2 * G)
        return both[:, :G], both[:, G:]

    def _tables_of(self, table: CountTable, pos: FloatArray, neg: FloatArray) -> list[CountTable]:
        return [replicate_table(table, p, n) for p, n in zip(pos, neg, strict=True)]

    def _ranking_per_class(self, W: FloatArray, reqs: list[_Request],
                           out: dict[str, FloatArray]) -> None:
        b = W.shape[0]
        values = {r.key: np.full((b, self.k), np.nan) for r in reqs}
        for c in range(self.k):
            tables: list[CountTable] | None = None
            slots: tuple[FloatArray, FloatArray] | None = None
            for r in reqs:
                kern = r.measure.resampling_kernel
                if kern is not None:
                    slots = self._class_counts(W, c, "slot") if slots is None else slots
                    values[r.key][:, c] = kern(*slots)
                    continue
                if tables is None:
                    pos, neg = self._class_counts(W, c)
                    tables = self._tables_of(self._mev._table(c), pos, neg)
                values[r.key][:, c] = [self._on_table(r, t) for t in tables]
        out.update(values)

    @staticmethod
    def _on_table(r: _Request, t: CountTable) -> float:
        if t.P <= 0 and t.N <= 0:
            return float("nan")
        return float(r.measure.func(t, **r.params))

    def _micro_values(self, W: FloatArray, r: _Request) -> FloatArray:
        t, g, G = self._micro_groups()
        onehot = np.zeros(self.proba.shape, dtype=bool)
        onehot[np.arange(self.codes.size), self.codes] = True
        keys = g + G * (~onehot.ravel())
        pos = np.empty((W.shape[0], G))
        neg = np.empty((W.shape[0], G))
        for i in range(W.shape[0]):
            both = np.bincount(keys, weights=np.repeat(W[i], self.k), minlength=2 * G)
            pos[i], neg[i] = both[:G], both[G:]
        kern = r.measure.resampling_kernel
        if kern is not None:
            return np.asarray(kern(pos, neg), dtype=np.float64)
        return np.array([self._on_table(r, x) for x in self._tables_of(t, pos, neg)])

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

    def _native(self, W: FloatArray, cm: FloatArray, r: _Request) -> FloatArray:
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
            need_per_class = [r for r in self.requests if r.measure.family != "confusion"
                              and r.average in ("per_class", "macro", "weighted")]
            per: dict[str, FloatArray] = {}
            rank_reqs = {self._per_key(r): _Request(r.measure, "per_class", r.params)
                         for r in need_per_class}
            self._ranking_per_class(W, list(rank_reqs.values()), per)
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
                        out[r.key] = _average(v, r.average, support)
                elif r.average == "micro":
                    out[r.key] = self._micro_values(W, r)
                else:
                    v = per[rank_reqs[self._per_key(r)].key]
                    out[r.key] = _average(v, r.average, support)
        return out

    @staticmethod
    def _per_key(r: _Request) -> str:
        return f"{r.measure.id} {sorted(r.params.items())!r}"


def _broadcast(v: Any, shape: Any) -> FloatArray:
    return np.array(np.broadcast_to(np.asarray(v, dtype=np.float64), shape))


def _average(values: FloatArray, average: str, support: FloatArray) -> FloatArray:
    """Per-replicate averages of (b, k) per-class values, NaN classes left out (and, for
    "weighted", classes without cases), as ``MulticlassEvaluation.value``."""
    if average == "per_class":
        return values
    keep = ~np.isnan(values)
    v = np.where(keep, values, 0.0)
    if average == "macro":
        n = keep.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(n > 0, v.sum(axis=1) / np.maximum(n, 1), np.nan)
    keep &= support > 0
    w = np.where(keep, support, 0.0)
    tot = w.sum(axis=1)
    num = (np.where(keep, v, 0.0) * w).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(keep.any(axis=1), num / np.where(tot > 0, tot, 1.0), np.nan)


# --- the result ----------------------------------------------------------------------------
@dataclass(frozen=True, eq=False, repr=False)
class MulticlassBootstrap(Tabular):
    """Bootstrap replicates of multiclass measures, all on the same resampled rows.

    Attributes
    ----------
    measures : the keys, ``"<id> (<average>)"`` (e.g. ``"f1 (macro)"``,
        ``"auc (hand_till)"``, ``"recall (per_class)"``).
    estimate : each key's value on the data (a per-class key: one per class).
    replicates : each key's replicates, (n_resamples,) or (n_resamples, k) for a
        per-class key; NaN where undefined.
    n_undefined : NaN replicates of each key (per class for a per-class key).
    classes, n_resamples, stratified : how the replicates were drawn.
    """

    measures: tuple[str, ...]
    estimate: Mapping[str, Any]
    replicates: Mapping[str, FloatArray]
    n_undefined: Mapping[str, Any]
    classes: tuple[Any, ...]
    n_resamples: int
    stratified: bool
    undefined: UndefinedPolicy
    _acceleration: Any = field(repr=False)
    _memo: dict[tuple[str, int], float] = field(default_factory=dict, repr=False)

    def _key(self, key: str) -> str:
        if key not in self.replicates:
            raise KeyError(f"{key!r} was not bootstrapped; this result holds "
                           f"{', '.join(self.measures)}")
        return key

    def _accel(self, key: str, column: int) -> float:
        if (key, column) not in self._memo:
            self._memo[key, column] = self._acceleration(key, column)
        return self._memo[key, column]

    def ci(self, key: str, *, kind: str = "percentile",
           level: float = 0.95) -> BootstrapInterval | list[BootstrapInterval]:
        """The interval of one key (a list, one per class, for a per-class key); the
        undefined replicates are reported by :meth:`report_undefined`."""
        key = self._key(key)
        rep = self.replicates[key]
        est = self.estimate[key]
        measure = key.split(" ")[0]
        try:
            bounds = get_measure(measure).range
        except KeyError:  # pragma: no cover - keys are registered measures
            bounds = (-np.inf, np.inf)
        if rep.ndim == 1:
            return interval_from_replicates(
                rep, float(est), measure=key, kind=kind, level=level, bounds=bounds,
                acceleration=lambda: self._accel(key, -1), report=False)
        out = []
        for c, cls in enumerate(self.classes):
            accel = functools.partial(self._accel, key, c)
            out.append(interval_from_replicates(
                rep[:, c], float(est[c]), measure=f"{key} class {cls!r}", kind=kind,
                level=level, bounds=bounds, acceleration=accel, report=False))
        return out

    def report_undefined(self, keys: Iterable[str]) -> None:
        """One warning (or error, under ``undefined="raise"``) naming the NaN replicates
        of the keys that have some."""
        parts = []
        for key in keys:
            k = np.asarray(self.n_undefined[key])
            if k.ndim == 0:
                if k:
                    parts.append(f"{key} in {int(k)}")
            else:
                parts += [f"{key} class {cls!r} in {int(x)}"
                          for cls, x in zip(self.classes, k, strict=True) if x]
        if not parts or self.undefined == "ignore":
            return
        msg = (f"undefined (NaN) bootstrap replicates, of {self.n_resamples}: "
               f"{'; '.join(parts)}; the intervals use the defined ones")
        if self.undefined == "raise":
            raise UndefinedMeasureError(msg)
        warn_at_user(UndefinedMeasureWarning(msg, tuple(p.split(" ")[0] for p in parts),
                                             "undefined in some bootstrap replicates"),
                     UndefinedMeasureWarning)

    def to_frame(self, kind: str = "percentile", level: float = 0.95) -> pd.DataFrame:
        """One row per key (and class): measure, average, class, estimate, low, high,
        level, ci_method, n_undefined."""
        import pandas as pd

        rows = []
        for key in self.measures:
            mid, avg = key.split(" ", 1)
            got = self.ci(key, kind=kind, level=level)
            ivs = got if isinstance(got, list) else [got]
            for c, iv in enumerate(ivs):
                rows.append({"measure": mid, "average": avg.strip("()"),
                             "class": self.classes[c] if isinstance(got, list) else None,
                             "estimate": iv.estimate, "low": iv.low, "high": iv.high,
                             "level": iv.level, "ci_method": iv.method,
                             "n_undefined": iv.n_undefined})
        return pd.DataFrame(rows)

    def _title(self) -> str:
        return (f"MulticlassBootstrap(n_resamples={self.n_resamples}, "
                f"stratified={self.stratified})")


# --- the mixin -----------------------------------------------------------------------------
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
                 params: Mapping[str, Any]) -> _Request:
        m = get_measure(measure)
        if average is not None and average not in CI_AVERAGES:
            raise ValueError(f"average must be one of {', '.join(map(repr, CI_AVERAGES))} "
                             f"or None; got {average!r}")
        if per_class:
            if average is not None:
                raise ValueError("per_class=True gives one interval per class: leave "
                                 "average unset")
            return _Request(m, "per_class", MappingProxyType(m.resolve_params(**params)))
        if average in OVO_AVERAGES:
            if m.id != "auc" or params:
                raise ValueError(f"average={average!r} is a one-vs-one AUC: pass it with "
                                 f"measure 'auc' and no parameters (got {m.id!r})")
            return _Request(m, average, MappingProxyType({}))
        if average == "native" or (average is None and m.multiclass is not None):
            self.value(m, average="native", **params)  # checks the form and its parameters
            return _Request(m, "native", MappingProxyType({**m.multiclass_params, **params}))
        avg = self.average if average is None else average
        return _Request(m, avg, MappingProxyType(m.resolve_params(**params)))

    def _estimate(self, r: _Request) -> Any:
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
        sampler = _RowSampler(self._codes, self.n_classes, bool(stratified))
        rng = np.random.default_rng(check_random_state(random_state))
        for idx in sampler.indices(rng, B):
            yield from idx

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
        reqs: list[_Request] = []
        for item in measures:
            mm, avg = item if isinstance(item, tuple) else (item, average)
            reqs.append(self._request(mm, avg, False, p.get(get_measure(mm).id, {})))
            if per_class:
                reqs.append(self._request(mm, None, True, p.get(get_measure(mm).id, {})))
        return self._run_bootstrap(reqs, n_resamples, stratified, random_state, progress)

    def _run_bootstrap(self, reqs: list[_Request], n_resamples: int, stratified: bool,
                       random_state: Any, progress: Any) -> MulticlassBootstrap:
        reqs = list({r.key: r for r in reqs}.values())
        if not reqs:
            raise ValueError("no measures given")
        B = check_resamples(n_resamples, per_resample=len(reqs) * self.n_classes,
                            what="one per measure and class")
        estimate = {r.key: self._estimate(r) for r in reqs}
        ev = _Evaluator(self, reqs)
        sampler = _RowSampler(self._codes, self.n_classes, bool(stratified))
        seed = check_random_state(random_state)
        rng = np.random.default_rng(seed)
        base = np.ones(self._codes.size) if self._weight is None else self._weight
        call = as_callback(progress, "bootstrap")
        chunks: list[dict[str, FloatArray]] = []
        done = 0
        for M in sampler.multiplicities(rng, B):
            chunks.append(ev.evaluate(M if self._weight is None else M * base))
            done += M.shape[0]
            if call is not None:
                call(done, B)
        reps: dict[str, FloatArray] = {}
        for r in reqs:
            reps[r.key] = np.concatenate([c[r.key] for c in chunks])
            reps[r.key].flags.writeable = False
        jack = _Jackknife(ev, sampler, base, seed)
        return MulticlassBootstrap(
            measures=tuple(r.key for r in reqs),
            estimate=MappingProxyType(estimate),
            replicates=MappingProxyType(reps),
            n_undefined=MappingProxyType({k: np.isnan(v).sum(axis=0) for k, v in reps.items()}),
            classes=tuple(self.classes),
            n_resamples=B,
            stratified=bool(stratified),
            undefined=self.undefined,
            _acceleration=jack.acceleration,
        )

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
            As :meth:`value` (None: native for the natively multiclass measures, else
            the evaluation's :attr:`average`).
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
            Same seed, same replicates (:meth:`bootstrap_indices`).
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


class _Jackknife:
    """Leave-one-row-out values of the requests, for the BCa acceleration."""

    def __init__(self, ev: _Evaluator, sampler: _RowSampler, base: FloatArray,
                 seed: Any) -> None:
        self.ev, self.sampler, self.base, self.seed = ev, sampler, base, seed
        self._values: dict[str, FloatArray] | None = None
        self._rows: list[tuple[npt.NDArray[np.intp], float]] = []

    def _run(self) -> dict[str, FloatArray]:
        if self._values is None:
            n = self.sampler.n
            rng = np.random.default_rng(self.seed)
            rows = []
            for s in self.sampler.strata:
                if n <= _JACKKNIFE_ROWS:
                    pick = s
                else:
                    size = max(1, min(s.size, round(_JACKKNIFE_ROWS * s.size / n)))
                    pick = np.sort(rng.choice(s, size=size, replace=False))
                self._rows.append((pick, s.size / pick.size))
                rows.append(pick)
            every = np.concatenate(rows)
            b = self.sampler.block
            parts = []
            for start in range(0, every.size, b):
                chunk = every[start:start + b]
                W = np.tile(self.base, (chunk.size, 1))
                W[np.arange(chunk.size), chunk] = 0.0
                parts.append(self.ev.evaluate(W))
            self._values = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
        return self._values

    def acceleration(self, key: str, column: int) -> float:
        values = self._run()[key]
        if column >= 0:
            values = values[:, column]
        samples = []
        start = 0
        for pick, mult in self._rows:
            samples.append((values[start:start + pick.size], np.full(pick.size, mult)))
            start += pick.size
        return jackknife_acceleration(samples)
