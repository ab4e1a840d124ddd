"""Streaming evaluation: :class:`Accumulator` adds batches to one count table.

The table of a union of batches is the sum of their tables (DESIGN.md, "The one
idea"), so batches can arrive one at a time, or be accumulated on separate
workers whose accumulators are merged. The probabilistic losses are sums over
the table's distinct scores, so they too come out as on all the data at once.

Weighted counts are summed in double-double arithmetic (an error-free sum plus
its rounding error): merging accumulators in any order or grouping gives the same
table, the correctly rounded sum of the batches' counts (unless that sum lies
within about k 1e-32, relative, of a rounding boundary, k being the number of
tables merged). Unweighted counts are exact integers.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..counts import CountTable, FloatArray, count_dtype
from ..evaluation import Evaluation
from ..exceptions import UndefinedPolicy
from ..validation import (
    NanPolicy,
    _label_key,
    as_1d,
    as_float,
    check_binary_inputs,
    check_labels,
)

__all__ = ["Accumulator"]

# (scores descending, pos_hi, pos_lo, neg_hi, neg_lo)
_State = tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]


def _empty() -> _State:
    e = np.zeros(0)
    return (e, e, e, e, e)


def _dd_add(ah: FloatArray, al: FloatArray, bh: FloatArray,
            bl: FloatArray) -> tuple[FloatArray, FloatArray]:
    """(ah + al) + (bh + bl) in double-double: Knuth's TwoSum of the high parts, then
    the low parts, renormalised so that hi is the rounded sum."""
    s = ah + bh
    bb = s - ah
    err = (ah - (s - bb)) + (bh - bb)
    lo = al + bl + err
    hi = s + lo
    return hi, lo - (hi - s)


def _merge(a: _State, b: _State) -> _State:
    """The state of the union of two states (each with distinct descending scores)."""
    if a[0].size == 0:
        return b
    if b[0].size == 0:
        return a
    cols = [np.concatenate((x, y)) for x, y in zip(a, b, strict=True)]
    order = np.argsort(-cols[0], kind="stable")  # two sorted runs: a linear merge
    s, ph, pl, nh, nl = (c[order] for c in cols)
    i = np.flatnonzero(s[1:] == s[:-1])  # each score at most twice: pairs (i, i + 1)
    if i.size:
        j = i + 1
        ph[i], pl[i] = _dd_add(ph[i], pl[i], ph[j], pl[j])
        nh[i], nl[i] = _dd_add(nh[i], nl[i], nh[j], nl[j])
        keep = np.ones(s.size, dtype=bool)
        keep[j] = False
        s, ph, pl, nh, nl = s[keep], ph[keep], pl[keep], nh[keep], nl[keep]
    return (s, ph, pl, nh, nl)


def _merge_all(states: list[_State]) -> _State:
    """Balanced pairwise merging (cost n log k rather than n k)."""
    while len(states) > 1:
        states = [_merge(states[i], states[i + 1]) if i + 1 < len(states) else states[i]
                  for i in range(0, len(states), 2)]
    return states[0] if states else _empty()


class Accumulator:
    """A count table built batch by batch; accumulators of workers merge.

    ``update`` validates each batch as :func:`binmetrics.evaluate` validates its
    input (a bad batch is an error naming the batch, and changes nothing) and adds
    its table. ``merge`` (or ``+``) combines accumulators, in any order, into the
    table of all their batches. ``evaluate`` gives the same
    :class:`~binmetrics.Evaluation` as one :func:`~binmetrics.evaluate` call on all
    the rows, probabilistic measures included (to ~1e-15 relative for weighted
    counts, whose per-batch sums are rounded; exactly for unweighted ones).

    Parameters
    ----------
    pos_label : optional
        The positive class, needed unless the labels are {0, 1}, {-1, 1} or
        booleans. A batch may hold one class only.
    nan_policy : {"raise", "omit"}, default "raise"
        NaN/inf scores: an error, or the rows are dropped and counted in
        :attr:`n_omitted` (a batch of such rows only adds nothing).

    Attributes
    ----------
    n_rows, n_positive_rows, n_omitted, n_batches : int
        Rows added (after ``nan_policy``), positive rows among them, rows dropped,
        batches added (empty ones included).

    Examples
    --------
    >>> import binmetrics as bm
    >>> from binmetrics.engines import Accumulator
    >>> y = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
    >>> s = [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]
    >>> a, b = Accumulator(), Accumulator()  # e.g. two workers
    >>> _ = a.update(y[:4], s[:4]).update(y[4:7], s[4:7])
    >>> _ = b.update(y[7:], s[7:])
    >>> ev = (a + b).evaluate(threshold=0.55)
    >>> ev["auc"], ev.confusion, (a + b).n_rows
    (0.8, Confusion(tp=3, fp=1, fn=2, tn=4), 10)
    >>> (a + b).table.equals(bm.CountTable.from_arrays(y, s))
    True
    """

    def __init__(self, *, pos_label: Any = None, nan_policy: NanPolicy = "raise") -> None:
        if nan_policy not in ("raise", "omit"):
            raise ValueError(f"nan_policy must be 'raise' or 'omit', got {nan_policy!r}")
        self.pos_label = pos_label
        self.nan_policy: NanPolicy = nan_policy
        self.n_rows = 0
        self.n_positive_rows = 0
        self.n_omitted = 0
        self.n_batches = 0
        self._weighted = False
        self._labels: set[Any] = set()  # distinct labels seen (at most two)
        self._found_pos: Any = None  # the positive label found without pos_label
        self._state: _State = _empty()
        self._pending: list[_State] = []
        self._pending_size = 0
        self._table: CountTable | None = None

    # --- adding data ----------------------------------------------------------------
    def update(self, y_true: Any, y_score: Any, sample_weight: Any = None) -> Accumulator:
        """Add one batch (validated as :func:`binmetrics.evaluate` does); returns self."""
        k = self.n_batches
        try:
            y = as_1d(y_true, "y_true")
            s_raw = as_1d(y_score, "y_score")
            if y.size == 0 and s_raw.size == 0:
                self.n_batches += 1
                return self
            if y.size != s_raw.size:
                raise ValueError(f"y_true and y_score have different lengths: {y.size} and "
                                 f"{s_raw.size}")
            finite = np.isfinite(as_float(s_raw, "y_score"))
            if self.nan_policy == "omit" and not finite.any():
                if sample_weight is not None:  # still checked: a bad batch is an error
                    check_binary_inputs(np.ones(y.size, bool), np.zeros(y.size), sample_weight)
                self.n_omitted += int(y.size)
                self.n_batches += 1
                return self
            y_bool, labels, found = self._labels_of(y)
            inp = check_binary_inputs(y_bool, s_raw, sample_weight, nan_policy=self.nan_policy)
        except (ValueError, TypeError) as exc:
            raise type(exc)(f"batch {k}: {exc}") from None
        table = CountTable._build(inp.y, inp.score, inp.weight)
        p, n = table.pos.astype(np.float64), table.neg.astype(np.float64)
        zeros = np.zeros_like(p)
        self._pending.append((table.scores, p, zeros, n, zeros))
        self._pending_size += table.n_distinct
        self._labels = labels
        if found is not None:
            self._found_pos = found
        self._weighted |= inp.weight is not None
        self.n_rows += int(inp.y.size)
        self.n_positive_rows += int(np.count_nonzero(inp.y))
        self.n_omitted += inp.n_omitted
        self.n_batches += 1
        self._table = None
        if self._pending_size > max(self._state[0].size, 1 << 16):
            self._collapse()
        return self

    def _labels_of(self, y: np.ndarray) -> tuple[npt.NDArray[np.bool_], set[Any], Any]:
        """The batch's labels as booleans, the labels seen with it, the positive found."""
        missing = pd.isna(y) if y.dtype.kind in "fOUS" else np.zeros(y.size, dtype=bool)
        if missing.any():
            raise ValueError(f"y_true has {int(missing.sum())} missing labels (NaN/None) at "
                             f"rows {np.flatnonzero(missing)[:5].tolist()}")
        values = [v.item() if isinstance(v, np.generic) else v for v in pd.unique(y)]
        seen = self._labels | set(values)
        if len(seen) > 2:
            shown = sorted(seen, key=_label_key)
            raise ValueError(f"y_true must hold exactly two classes; the batches so far hold "
                             f"{len(shown)} distinct values: {shown[:10]}")
        if self.pos_label is None:
            y_bool, pos = check_labels(y)  # a standard encoding, or an error
            return y_bool, seen, pos.item() if isinstance(pos, np.generic) else pos
        if self.pos_label in values and len(values) == 2:
            return check_labels(y, self.pos_label)[0], seen, None
        return np.asarray(y == self.pos_label, dtype=bool), seen, None

    def _collapse(self) -> None:
        if self._pending:
            self._state = _merge_all([self._state, *self._pending])
            self._pending = []
            self._pending_size = 0

    def merge(self, *others: Accumulator) -> Accumulator:
        """A new accumulator holding the batches of ``self`` and ``others`` (any order
        gives the same table)."""
        everyone = (self, *others)
        for o in others:
            if not isinstance(o, Accumulator):
                raise TypeError(f"can only merge Accumulators, got {type(o).__name__}")
            if o.pos_label != self.pos_label or o.nan_policy != self.nan_policy:
                raise ValueError("accumulators merge only with the same pos_label and "
                                 f"nan_policy; got {self.pos_label!r}/{self.nan_policy!r} and "
                                 f"{o.pos_label!r}/{o.nan_policy!r}")
        labels: set[Any] = set().union(*(a._labels for a in everyone))
        if len(labels) > 2:
            shown = sorted(labels, key=_label_key)
            raise ValueError(f"y_true must hold exactly two classes; the accumulators hold "
                             f"{len(shown)} distinct values: {shown[:10]}")
        out = Accumulator(pos_label=self.pos_label, nan_policy=self.nan_policy)
        for a in everyone:
            a._collapse()
        out._state = _merge_all([a._state for a in everyone])
        out._labels = labels
        out._found_pos = next((a._found_pos for a in everyone if a._found_pos is not None),
                              None)
        out._weighted = any(a._weighted for a in everyone)
        for attr in ("n_rows", "n_positive_rows", "n_omitted", "n_batches"):
            setattr(out, attr, sum(getattr(a, attr) for a in everyone))
        return out

    def __add__(self, other: object) -> Accumulator:
        if not isinstance(other, Accumulator):
            return NotImplemented
        return self.merge(other)

    # --- results ----------------------------------------------------------------------
    @property
    def table(self) -> CountTable:
        """The count table of every batch so far."""
        if self._table is None:
            self._collapse()
            s, ph, _, nh, _ = self._state
            if s.size == 0:
                raise ValueError("the accumulator is empty: update() it with data first")
            if self._weighted:
                self._table = CountTable(s, ph, nh, weighted=True, _trusted=True)
            else:
                dt = count_dtype(float((ph + nh).max()))
                self._table = CountTable(s, ph.astype(dt), nh.astype(dt), weighted=False,
                                         _trusted=True)
        return self._table

    @property
    def found_pos_label(self) -> Any:
        """The positive label: ``pos_label``, or the one of the standard encoding found."""
        if self.pos_label is None:
            return 1 if self._found_pos is None else self._found_pos
        return self.pos_label

    def evaluate(self, threshold: float = 0.5, *, undefined: UndefinedPolicy = "warn",
                 pi0: float | None = None) -> Evaluation:
        """The :class:`~binmetrics.Evaluation` of every batch so far (see
        :func:`binmetrics.evaluate` for the parameters)."""
        if self.pos_label is not None and self._labels:
            values = sorted(self._labels, key=_label_key)
            check_labels(np.array(values), self.pos_label)  # pos_label must occur (or fit)
        ev = Evaluation(self.table, threshold=threshold, pos_label=self.found_pos_label,
                        n_omitted=self.n_omitted, undefined=undefined, n_rows=self.n_rows,
                        n_positive_rows=self.n_positive_rows)
        return ev if pi0 is None else ev.calibrated(pi0)

    def __repr__(self) -> str:
        return (f"Accumulator(batches={self.n_batches}, rows={self.n_rows}, "
                f"distinct_scores={self._state[0].size + self._pending_size}"
                f"{' or fewer' if self._pending else ''}, weighted={self._weighted})")
