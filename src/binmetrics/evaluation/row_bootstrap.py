"""The row bootstrap behind the multiclass and multilabel intervals
(:mod:`binmetrics.evaluation.multiclass_ci`, :mod:`binmetrics.evaluation.multilabel_ci`):
the draws of rows (:class:`RowSampler`), the one-vs-rest or per-label count tables under
row weights (:class:`ColumnEvaluator`), the result (:class:`MulticlassBootstrap`) and
the jackknife of its BCa intervals.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from binmetrics.backends import THREAD_ROWS, thread_imap, thread_map
from binmetrics.exceptions import (
    UndefinedMeasureError,
    UndefinedMeasureWarning,
    UndefinedPolicy,
    warn_at_user,
)
from binmetrics.formatting import Tabular
from binmetrics.inference.replicate_intervals import (
    interval_from_replicates,
    jackknife_acceleration,
    replicate_table,
)
from binmetrics.inference.resampling import BootstrapInterval, replicate_streams
from binmetrics.measures import Measure, get_measure
from binmetrics.measures.kernels import auc_transform
from binmetrics.progress import as_callback
from binmetrics.table.counts import Confusion, CountTable
from binmetrics.validation import check_random_state, check_resamples

if TYPE_CHECKING:
    from collections.abc import Mapping

    import pandas as pd

__all__ = ["ColumnEvaluator", "MulticlassBootstrap", "Request", "RowSampler",
           "average_classes", "run_bootstrap"]

FloatArray = npt.NDArray[np.float64]

#: elements of a block's (replicates x rows) matrix
_BLOCK_ELEMENTS = 1 << 20
#: the fewest replicates of a stream (one generator, one thread's unit of work)
_STREAM = 16
#: rows of an exact BCa jackknife; beyond, a sample of this many rows
_JACKKNIFE_ROWS = 2000


# --- drawing rows --------------------------------------------------------------------------
class RowSampler:
    """Blocks of bootstrap replicates of the rows, stratified by class or not.

    The replicates come in streams (:meth:`streams`) of ``stream`` replicates (at least
    16; more for small n, up to a block's worth), each drawn by its own generator
    spawned from the seed, so that streams can run in parallel threads and the same
    seed gives the same replicates whatever the number of threads.

    :meth:`multiplicities` gives the rows in the sampler's order, ``order`` (class by
    class when stratified, so each class's counts are one contiguous slice), or the
    rows' own order when ``order`` is None; an evaluator reads them after
    :meth:`ColumnEvaluator.in_order`."""

    def __init__(self, codes: npt.NDArray[np.intp], k: int, stratified: bool) -> None:
        self.n = int(codes.size)
        self.stratified = stratified
        if stratified:
            strata = [np.flatnonzero(codes == c) for c in range(k)]
            self.strata = [s for s in strata if s.size]
        else:
            self.strata = [np.arange(self.n)]
        self.order: npt.NDArray[np.intp] | None = (
            np.concatenate(self.strata) if len(self.strata) > 1 else None)
        self._inverse: npt.NDArray[np.intp] | None = None
        self.block = max(1, _BLOCK_ELEMENTS // max(self.n, 1))
        self.stream = max(_STREAM, self.block)

    def positions(self, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
        """Where ``rows`` (of the data) are in the sampler's order."""
        if self.order is None:
            return rows
        if self._inverse is None:
            inverse = np.empty(self.n, dtype=np.intp)
            inverse[self.order] = np.arange(self.n)
            self._inverse = inverse
        return self._inverse[rows]

    def streams(self, random_state: Any,
                n_resamples: int) -> list[tuple[np.random.Generator, int]]:
        """(generator, replicates) of each stream: the replicates in order, stream j
        drawn by the j-th child of a seed sequence whose entropy is drawn from
        ``random_state`` (an integer, a Generator, ...: one draw from it), as the binary
        bootstrap's streams (:func:`binmetrics.inference._replicates.replicate_streams`)."""
        return replicate_streams(np.random.default_rng(random_state), n_resamples,
                                 self.stream)

    def indices(self, rng: np.random.Generator, n_resamples: int) -> Iterator[npt.NDArray[np.intp]]:
        """(replicates, n) matrices of the rows each replicate draws (class by class)."""
        done = 0
        while done < n_resamples:
            b = min(self.block, n_resamples - done)
            parts = [s[rng.integers(0, s.size, size=(b, s.size), dtype=np.intp)]
                     for s in self.strata]
            yield np.concatenate(parts, axis=1)
            done += b

    def replicate_rows(self, random_state: Any,
                       n_resamples: int) -> Iterator[npt.NDArray[np.intp]]:
        """The rows of each replicate, one (n,) array each: the draws of
        :func:`run_bootstrap` with the same seed (``bootstrap_indices``)."""
        for rng, b in self.streams(random_state, n_resamples):
            for idx in self.indices(rng, b):
                yield from idx

    def multiplicities(self, rng: np.random.Generator,
                       n_resamples: int) -> Iterator[FloatArray]:
        """(replicates, n) matrices: how often each replicate draws each row, the rows
        in the sampler's ``order`` (the draws of :meth:`indices`, counted class by
        class into contiguous slices: small bincounts, no gather, no scatter)."""
        done = 0
        while done < n_resamples:
            b = min(self.block, n_resamples - done)
            out = np.empty((b, self.n), dtype=np.float64)
            start = 0
            for s in self.strata:
                local = rng.integers(0, s.size, size=(b, s.size), dtype=np.intp)
                for i in range(b):
                    out[i, start:start + s.size] = np.bincount(local[i], minlength=s.size)
                start += s.size
            yield out
            done += b


# --- what is resampled ---------------------------------------------------------------------
@dataclass(frozen=True)
class Request:
    """One measure with one average ("per_class": the k one-vs-rest values)."""

    measure: Measure
    average: str
    params: Mapping[str, Any]

    @property
    def key(self) -> str:
        return f"{self.measure.id} ({self.average})"


class ColumnEvaluator:
    """The one-vs-rest (or per-label) count tables of an evaluation under row weights:
    column c's table has the scores ``proba[:, c]`` and the positives
    ``positive[:, c]``; subclasses add their own measures."""

    flat: npt.NDArray[np.intp]  # multiclass: each row's (actual, argmax) cell

    def __init__(self, requests: list[Request], proba: FloatArray,
                 positive: npt.NDArray[np.bool_], tables: Callable[[int], CountTable],
                 micro: Callable[[Measure], Any]) -> None:
        self.requests = requests
        self.proba = proba
        self.positive = positive
        self.k = proba.shape[1]
        self._table_of = tables  # c -> CountTable
        self._micro_of = micro  # measure -> the pooled table
        self._groups: dict[int, tuple[npt.NDArray[np.intp], int]] = {}
        self._slots: dict[int, tuple[npt.NDArray[np.intp], int]] = {}
        self._auc_keys: dict[int, tuple[npt.NDArray[np.intp], npt.NDArray[np.intp],
                                        npt.NDArray[np.intp], int]] = {}
        self._micro: tuple[CountTable, npt.NDArray[np.intp], int] | None = None

    def _class_groups(self, c: int) -> tuple[npt.NDArray[np.intp], int]:
        """Each row's score group in class c's table (0 = the highest score), and the
        number of groups: the table's own grouping, found once (no sort per replicate)."""
        if c not in self._groups:
            t = self._table_of(c)
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
            t = self._table_of(c)
            holds = t.pos > 0
            idx = np.flatnonzero(holds)
            slot = 2 * np.searchsorted(idx, np.arange(G)) + holds
            S = 2 * int(idx.size) + 1
            self._slots[c] = ((slot[g] + S * ~self.positive[:, c]).astype(np.intp), S)
        return self._slots[c]

    def _class_auc_keys(self, c: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp],
                                               npt.NDArray[np.intp], int]:
        """What the rank-sum AUC of class c reads (:meth:`_class_auc`): its positive
        rows, the rank q of each one's group among the groups holding positives, and
        each row's slot (2q: negative-only groups above the q-th positive group, 2q + 1:
        tied with it), the positive rows at slot 2Q + 1; Q the positive groups."""
        if c not in self._auc_keys:
            g, G = self._class_groups(c)
            holds = self._table_of(c).pos > 0
            idx = np.flatnonzero(holds)
            q = np.searchsorted(idx, np.arange(G))
            pos_rows = np.flatnonzero(self.positive[:, c])
            slot = (2 * q + holds)[g].astype(np.intp)
            slot[pos_rows] = 2 * idx.size + 1
            self._auc_keys[c] = (pos_rows, q[g[pos_rows]].astype(np.intp), slot, idx.size)
        return self._auc_keys[c]

    def _class_auc(self, W: FloatArray, c: int, total: FloatArray) -> FloatArray:
        r"""The one-vs-rest AUC of class c in each replicate of ``W``, by the rank sum
        (Mann-Whitney): :math:`U = \sum_{j \in neg} m_j (A_j + T_j / 2)` with
        :math:`A_j` the multiplicities of the positives above row j's score and
        :math:`T_j` of those tied with it, AUC = U / (P N). The positives' counts per
        group and their cumulative sums are short (one per positive group); each row
        then reads its :math:`A_j + T_j / 2` from that table, so a replicate is one
        pass over the rows (the count-matrix kernel bins every row first). Equals
        :func:`~binmetrics.measures.kernels.auc_kernel` on the replicate's table
        (``total``: each replicate's sum of weights, P + N)."""
        pos_rows, pos_q, slot, Q = self._class_auc_keys(c)
        b = W.shape[0]
        out = np.full(b, np.nan)
        if Q == 0:  # no positives: undefined
            return out
        for i in range(b):
            pc = np.bincount(pos_q, weights=W[i, pos_rows], minlength=Q)
            table = np.zeros(2 * Q + 2)
            np.cumsum(pc, out=table[2:2 * Q + 1:2])  # slot 2q: the positives above
            table[1:2 * Q:2] = table[0:2 * Q - 1:2] + 0.5 * pc  # 2q + 1: and half the tied
            P = table[2 * Q]
            N = total[i] - P
            U = float(np.einsum("i,i->", W[i], np.take(table, slot)))  # no BLAS threads
            out[i] = U / (P * N) if P > 0 and N > 0 else np.nan
        return out

    def in_order(self, order: npt.NDArray[np.intp] | None) -> None:
        """Read the row weights of :meth:`evaluate` in ``order`` (a sampler's; None: the
        rows' own): the per-row arrays are permuted once, before anything is found."""
        if order is None:
            return
        assert not (self._groups or self._slots or self._auc_keys or self._micro)
        self.proba = self.proba[order]
        self.positive = self.positive[order]

    def prepare(self) -> None:
        """Find what the requests read (each class's groups or slots, the pooled table)
        before the threads of :func:`run_bootstrap` share this evaluator; the classes'
        (a sort each) in threads too."""
        finds: list[Callable[[int], Any]] = []
        for r in self.requests:
            if r.measure.family == "confusion":
                continue
            if r.average == "micro":
                self._micro_groups()
            elif r.average in ("per_class", "macro", "weighted"):
                kern = r.measure.resampling_kernel
                if kern is not None and auc_transform(kern) is not None:
                    finds.append(self._class_auc_keys)
                elif kern is not None:
                    finds.append(self._class_slots)
                else:
                    finds.append(self._class_groups)
        for find in dict.fromkeys(finds):
            thread_map(find, range(self.k), parallel=self.proba.shape[0] >= THREAD_ROWS)

    def _micro_groups(self) -> tuple[CountTable, npt.NDArray[np.intp], int]:
        if self._micro is None:
            any_ranking = next(r.measure for r in self.requests if r.measure.family != "confusion")
            t = self._micro_of(any_ranking)
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
            keys = g + G * ~self.positive[:, c]
        both = np.empty((W.shape[0], 2 * G))
        for i in range(W.shape[0]):
            both[i] = np.bincount(keys, weights=W[i], minlength=2 * G)
        return both[:, :G], both[:, G:]

    def _tables_of(self, table: CountTable, pos: FloatArray, neg: FloatArray) -> list[CountTable]:
        return [replicate_table(table, p, n) for p, n in zip(pos, neg, strict=True)]

    def _ranking_per_class(self, W: FloatArray, reqs: list[Request],
                           out: dict[str, FloatArray]) -> None:
        b = W.shape[0]
        values = {r.key: np.full((b, self.k), np.nan) for r in reqs}
        total: FloatArray | None = None
        for c in range(self.k):
            tables: list[CountTable] | None = None
            slots: tuple[FloatArray, FloatArray] | None = None
            auc: FloatArray | None = None
            for r in reqs:
                kern = r.measure.resampling_kernel
                from_auc = None if kern is None else auc_transform(kern)
                if from_auc is not None:  # a function of the AUC: by the rank sum
                    total = W.sum(axis=1) if total is None else total
                    auc = self._class_auc(W, c, total) if auc is None else auc
                    values[r.key][:, c] = from_auc(auc)
                    continue
                if kern is not None:
                    slots = self._class_counts(W, c, "slot") if slots is None else slots
                    values[r.key][:, c] = kern(*slots, **r.params)
                    continue
                if tables is None:
                    pos, neg = self._class_counts(W, c)
                    tables = self._tables_of(self._table_of(c), pos, neg)
                values[r.key][:, c] = [self._on_table(r, t) for t in tables]
        out.update(values)

    @staticmethod
    def _on_table(r: Request, t: CountTable) -> float:
        if t.P <= 0 and t.N <= 0:
            return float("nan")
        return float(r.measure.func(t, **r.params))

    def _micro_values(self, W: FloatArray, r: Request) -> FloatArray:
        t, g, G = self._micro_groups()
        keys = g + G * ~self.positive.ravel()
        pos = np.empty((W.shape[0], G))
        neg = np.empty((W.shape[0], G))
        for i in range(W.shape[0]):
            both = np.bincount(keys, weights=np.repeat(W[i], self.k), minlength=2 * G)
            pos[i], neg[i] = both[:G], both[G:]
        kern = r.measure.resampling_kernel
        if kern is not None:
            return np.asarray(kern(pos, neg, **r.params), dtype=np.float64)
        return np.array([self._on_table(r, x) for x in self._tables_of(t, pos, neg)])

    def _ranking(self, W: FloatArray) -> dict[str, FloatArray]:
        """The per-class values of the ranking and probabilistic requests."""
        per: dict[str, FloatArray] = {}
        reqs = {self._per_key(r): Request(r.measure, "per_class", r.params)
                for r in self.requests if r.measure.family != "confusion"
                and r.average in ("per_class", "macro", "weighted")}
        self._ranking_per_class(W, list(reqs.values()), per)
        return {k: per[r.key] for k, r in reqs.items()}

    def evaluate(self, W: FloatArray) -> dict[str, FloatArray]:
        """Every request on every row of ``W`` (a subclass's measures)."""
        raise NotImplementedError

    @staticmethod
    def _per_key(r: Request) -> str:
        return f"{r.measure.id} {sorted(r.params.items())!r}"


def average_classes(values: FloatArray, average: str, support: FloatArray) -> FloatArray:
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


def run_bootstrap(ev: ColumnEvaluator, sampler: RowSampler, weight: FloatArray | None,
                  estimate: dict[str, Any], classes: Sequence[Any], n_resamples: int,
                  random_state: Any, progress: Any,
                  undefined: UndefinedPolicy) -> MulticlassBootstrap:
    """Draw the replicates of ``sampler`` and evaluate every request of ``ev`` on them."""
    reqs = ev.requests
    B = check_resamples(n_resamples, per_resample=len(reqs) * len(classes),
                        what="one per measure and class")
    seed = check_random_state(random_state)
    base = np.ones(sampler.n) if weight is None else weight
    if sampler.order is not None:  # the multiplicities' order
        ev.in_order(sampler.order)
        base = base[sampler.order]
    call = as_callback(progress, "bootstrap")
    ev.prepare()
    streams = sampler.streams(seed, B)

    def stream(item: tuple[np.random.Generator, int]) -> list[dict[str, FloatArray]]:
        rng, b = item
        return [ev.evaluate(M if weight is None else M * base)
                for M in sampler.multiplicities(rng, b)]

    chunks: list[dict[str, FloatArray]] = []
    done = 0
    parallel = len(streams) > 1 and sampler.n >= THREAD_ROWS
    for (_, b), got in zip(streams, thread_imap(stream, streams, parallel=parallel),
                           strict=True):
        chunks += got
        done += b
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
        classes=tuple(classes),
        n_resamples=B,
        stratified=sampler.stratified,
        undefined=undefined,
        _acceleration=jack.acceleration,
    )


class _Jackknife:
    """Leave-one-row-out values of the requests, for the BCa acceleration."""

    def __init__(self, ev: ColumnEvaluator, sampler: RowSampler, base: FloatArray,
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
                W[np.arange(chunk.size), self.sampler.positions(chunk)] = 0.0
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
