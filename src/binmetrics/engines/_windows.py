"""Count tables over time: batch tables, a window slid by subtracting the batch that
leaves and adding the one that enters, and the score-distribution statistics of a
window against a reference (KS, PSI).

A table here is a triple ``(keys, pos, neg)``: the negated distinct scores in
ascending order (so scores descend, as in :class:`~binmetrics.table.CountTable`) and
int64 counts. Counts are exact integers, so a window built by subtractions and
additions equals the table of its rows built afresh.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
import pandas as pd

from binmetrics.table.counts import CountTable, count_dtype

__all__ = ["Batch", "RecentRows", "ks_statistic", "psi", "slide", "to_count_table"]

_DAY = pd.Timedelta("1D")

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


# --- durations and the batches of windows ------------------------------------------
def span(t: pd.Timedelta) -> str:
    return str(t.days) + "D" if t == pd.Timedelta(days=t.days) else str(t)


def duration(value: Any, name: str) -> pd.Timedelta:
    """A fixed duration from "7D", "12h", "30min", a timedelta or a pandas Timedelta."""
    try:
        t = pd.Timedelta(value)
    except (ValueError, TypeError):
        raise ValueError(f"{name}={value!r} is not a duration; pass e.g. '7D', '12h' or "
                         "'30min' (months and years have no fixed length: use days)") from None
    if pd.isna(t) or t <= pd.Timedelta(0):
        raise ValueError(f"{name}={value!r} must be a positive duration, e.g. '7D'")
    return t


def plan(times: pd.Series, window: pd.Timedelta, step: pd.Timedelta
          ) -> tuple[pd.Timestamp, np.ndarray, int, int]:
    """(origin, batch index of every row, batches per window, number of windows)."""
    width = whole_steps(window, step)
    origin = floor_origin(times.min(), step)
    codes = ((times - origin) // step).to_numpy(np.int64)
    n_batches = int(codes.max()) + 1
    return origin, codes, width, max(n_batches - width + 1, 1)


def floor_origin(first: pd.Timestamp, step: pd.Timedelta) -> pd.Timestamp:
    """The start of the first batch: ``first`` floored to midnight (or to a multiple of
    a step that divides a day)."""
    return first.floor(step if _DAY % step == pd.Timedelta(0) else _DAY)


def whole_steps(window: pd.Timedelta, step: pd.Timedelta) -> int:
    """The batches per window (``window / step``, a whole number or a ValueError)."""
    ratio = window / step
    if abs(ratio - round(ratio)) > 1e-9:
        raise ValueError(f"window={span(window)} is not a whole number of steps of "
                         f"{span(step)}; choose a step that divides the window")
    return round(ratio)


def reference_bounds(reference: Any, tz: Any) -> tuple[pd.Timestamp, pd.Timestamp]:
    """The reference period (start, end) as [low, high): start <= time <= end, an end
    given as a date alone covering that whole day; dates without a time zone are in
    ``tz`` (the time column's)."""
    if not (isinstance(reference, (tuple, list)) and len(reference) == 2):
        raise TypeError("reference must be a (start, end) pair of dates, e.g. "
                        f"('2026-01-01', '2026-03-31'); got {reference!r}")
    bounds = []
    for which, v in zip(("start", "end"), reference, strict=True):
        try:
            ts = pd.Timestamp(v)
        except (ValueError, TypeError):
            raise ValueError(f"reference {which} {v!r} is not a date or time") from None
        if pd.isna(ts):
            raise ValueError(f"reference {which} {v!r} is not a date or time")
        if tz is not None and ts.tzinfo is None:
            ts = ts.tz_localize(tz)
        bounds.append(ts)
    low, high = bounds
    date_only = (isinstance(reference[1], str) and len(reference[1].strip()) <= 10) or (
        not isinstance(reference[1], (str, pd.Timestamp)) and type(reference[1]).__name__ == "date")
    high = high + _DAY if date_only and high == high.normalize() else high + pd.Timedelta(1, "ns")
    if not low < high:
        raise ValueError(f"reference period ends ({reference[1]}) before it starts "
                         f"({reference[0]})")
    return low, high


def no_reference_rows(reference: Any, first: Any, last: Any) -> ValueError:
    return ValueError(f"the reference period {reference[0]} to {reference[1]} holds no rows; "
                      f"the data runs from {first} to {last}")


#: positives are held in the high 32 bits of one int64, negatives in the low 32: adding
#: and subtracting tables then moves one array, not two (no field borrows or carries:
#: counts stay in [0, 2**31))
_SHIFT = 32
_LOW = (1 << _SHIFT) - 1


class Batch(NamedTuple):
    """One batch's (or window's) table: ascending negated scores and the packed counts
    ``pos * 2**32 + neg`` of its rows.

    With weights, ``weights`` holds the positives' and the negatives' weight per score
    (shape (2, k)) and ``counts`` packs, instead of rows, the number of batches in which
    the score has positives (negatives): integers slid exactly, so that a score (a
    class of it) leaves the window exactly when its last batch does, and its weight is
    then exactly 0, not a rounding residue. Rows of weight 0 are left out, as in a
    fresh weighted table.
    """

    keys: Floats
    counts: Ints
    weights: Floats | None = None

    @property
    def pos(self) -> Ints:
        return self.counts >> _SHIFT

    @property
    def neg(self) -> Ints:
        return self.counts & _LOW

    @property
    def n(self) -> int:
        return self.n_pos + int(self.neg.sum())

    @property
    def n_pos(self) -> int:
        return int(self.pos.sum())

    @property
    def mass(self) -> Floats | Ints:
        """Each score's cases (its total weight with weights): the score distribution
        of the drift statistics."""
        if self.weights is None:
            return self.pos + self.neg
        return np.asarray(self.weights[0] + self.weights[1], dtype=np.float64)


EMPTY = Batch(np.zeros(0), np.zeros(0, np.int64))


class Prepared(NamedTuple):
    """What the windows are computed from, whichever engine built it: the batches'
    tables, the reference's table and scores (oriented), the first batch's start, the
    batches per window, the windows, the reference as [low, high) and the positive
    label."""

    batches: list[Batch]
    reference: Batch
    reference_scores: Floats
    origin: pd.Timestamp
    width: int
    n_windows: int
    low: pd.Timestamp
    high: pd.Timestamp
    pos_label: Any


def batch_of(y: npt.NDArray[np.bool_], s: Floats, w: Floats | None = None) -> Batch:
    """The table of validated rows (boolean labels, finite scores, positive weights or
    None): one sort."""
    if s.size == 0:
        return EMPTY
    if w is None and s.size >= 1 << 31:
        raise ValueError(f"a batch holds {s.size} rows; at most 2**31 - 1 fit a window's "
                         "counts: choose a shorter step")
    if w is not None:
        return _weighted(CountTable.from_validated(y, s, w))
    t = CountTable.from_validated(y, s, None)
    counts = t.pos.astype(np.int64) << _SHIFT
    counts |= t.neg
    return Batch(np.negative(t.scores), counts)


def _weighted(t: CountTable) -> Batch:
    """A weighted table as a Batch (its weights back in the user's unit when the engine
    scaled them by a power of two)."""
    pos, neg = np.asarray(t.pos, np.float64), np.asarray(t.neg, np.float64)
    e = int(getattr(t, "weight_exponent", 0) or 0)
    if e:
        pos, neg = np.ldexp(pos, -e), np.ldexp(neg, -e)
    keep = (pos + neg) > 0
    if not keep.all():
        pos, neg = pos[keep], neg[keep]
    counts = (pos > 0).astype(np.int64) << _SHIFT
    counts |= neg > 0
    return Batch(np.negative(np.asarray(t.scores, np.float64)[keep]), counts,
                 np.vstack([pos, neg]))


def from_table(t: CountTable | None) -> Batch:
    """A count table as a Batch, as :func:`batch_of` builds it from the table's rows
    (weighted or not)."""
    if t is None or t.scores.size == 0:
        return EMPTY
    if t.weighted:
        return _weighted(t)
    pos, neg = np.asarray(t.pos, np.int64), np.asarray(t.neg, np.int64)
    n = int(pos.sum() + neg.sum())
    if n >= 1 << 31:
        raise ValueError(f"a batch holds {n} rows; at most 2**31 - 1 fit a window's "
                         "counts: choose a shorter step")
    counts = (pos << _SHIFT) | neg
    return Batch(np.negative(np.asarray(t.scores, np.float64)), counts)


def scores_of(b: Batch) -> Floats:
    """The (oriented) scores of ``b``'s rows, ascending."""
    return np.repeat(np.negative(b.keys[::-1]), (b.pos + b.neg)[::-1])


def reference_edges(reference: Batch, reference_scores: Floats) -> Floats:
    """The PSI's bin edges of the reference (:func:`decile_edges`): of its rows'
    scores, or with weights of its distinct scores and their weights."""
    if reference.weights is None:
        return decile_edges(reference_scores)
    return decile_edges(np.negative(reference.keys[::-1]),
                        np.asarray(reference.mass[::-1], np.float64))


def add(a: Batch, b: Batch) -> Batch:
    """The table of the union of ``a`` and ``b``: a linear merge placed by binary search
    (``b``'s scores found in ``a``'s; new ones inserted, shared ones added)."""
    if b.keys.size == 0:
        return a
    if a.keys.size == 0:
        return b
    at = np.searchsorted(a.keys, b.keys)
    hit = at < a.keys.size
    hit[hit] = a.keys[at[hit]] == b.keys[hit]
    counts = a.counts.copy()
    counts[at[hit]] += b.counts[hit]
    weights = None
    if a.weights is not None and b.weights is not None:
        weights = a.weights.copy()
        weights[:, at[hit]] += b.weights[:, hit]
    new = ~hit
    if not new.any():
        return Batch(a.keys, counts, weights)
    where = at[new]
    if weights is not None and b.weights is not None:
        weights = np.insert(weights, where, b.weights[:, new], axis=1)
    return Batch(np.insert(a.keys, where, b.keys[new]), np.insert(counts, where, b.counts[new]),
                 weights)


def subtract(a: Batch, b: Batch) -> Batch:
    """The table of ``a``'s rows less ``b``'s (``b`` a part of ``a``): its counts taken
    away, the scores left with no case dropped."""
    if b.keys.size == 0:
        return a
    at = np.searchsorted(a.keys, b.keys)
    counts = a.counts.copy()
    counts[at] -= b.counts
    weights = None
    if a.weights is not None and b.weights is not None:
        # the weights are slid in floating point; a class left with no row of a score
        # gets exactly 0 (no rounding residue)
        weights = a.weights.copy()
        weights[:, at] -= b.weights
        left = counts[at]
        weights[0, at[(left >> _SHIFT) == 0]] = 0.0
        weights[1, at[(left & _LOW) == 0]] = 0.0
        np.maximum(weights, 0.0, out=weights)
    gone = at[counts[at] == 0]
    if not gone.size:
        return Batch(a.keys, counts, weights)
    return Batch(np.delete(a.keys, gone), np.delete(counts, gone),
                 None if weights is None else np.delete(weights, gone, axis=1))


def slide(batches: list[Batch], width: int, n_windows: int) -> Iterator[Batch]:
    """The tables of windows ``k = 0 .. n_windows - 1``, window k being batches
    ``k .. k + width - 1`` (those that exist): the first by additions, each next one by
    one subtraction and one addition."""
    current = EMPTY
    for b in batches[:width]:
        current = add(current, b)
    for k in range(n_windows):
        if k:
            current = subtract(current, batches[k - 1])
            if k + width - 1 < len(batches):
                current = add(current, batches[k + width - 1])
        yield current


def to_count_table(b: Batch) -> CountTable:
    """``b`` as the :class:`CountTable` that :meth:`CountTable.from_arrays` builds from
    its rows (the same scores, counts and count type; weighted: the same scores, its
    weights summed in another order)."""
    if b.weights is not None:
        return CountTable(np.negative(b.keys), b.weights[0].copy(), b.weights[1].copy(),
                          weighted=True, _trusted=True)
    pos, neg = b.pos, b.neg
    dt = count_dtype(float((pos + neg).max()))
    n_pos = int(pos.sum())
    return CountTable(np.negative(b.keys), pos.astype(dt), neg.astype(dt), weighted=False,
                      _trusted=True, _totals=(n_pos, int(neg.sum())))


# --- the score distribution against the reference -----------------------------------
def ks_statistic(window: Batch, reference: Batch) -> float:
    """The two-sample Kolmogorov-Smirnov statistic sup_x |F_w(x) - F_r(x)| of the
    windows' and the reference's scores (every case counted, both classes), from the two
    tables: between two of the window's scores F_w is constant and F_r rises, so the
    supremum is reached at a window score or just below one (scipy's ``ks_2samp``
    statistic on the rows)."""
    # scores ascending with their cumulative fractions (F at each distinct score);
    # with weights, the weighted distributions
    ws = np.negative(window.keys[::-1])
    wm, rm = window.mass[::-1], reference.mass[::-1]
    wc = np.cumsum(wm) / wm.sum()
    rs = np.negative(reference.keys[::-1])
    rc = np.concatenate([[0.0], np.cumsum(rm) / rm.sum()])
    at = rc[np.searchsorted(rs, ws, side="right")]  # F_r(x)
    below = rc[np.searchsorted(rs, ws, side="left")]  # F_r(x-)
    before = np.concatenate([[0.0], wc[:-1]])  # F_w just below each window score
    return float(max(np.abs(wc - at).max(), np.abs(before - below).max()))


def decile_edges(reference_scores: Floats, weights: Floats | None = None) -> Floats:
    """The bin edges of the PSI: the reference scores' deciles (``np.quantile``, its
    default linear interpolation), repeated edges kept once. With ``weights`` (aligned
    with the ascending scores): the weighted deciles by the inverted CDF, the smallest
    score whose cumulative weight reaches q times the total (``np.quantile(...,
    weights=, method="inverted_cdf")`` of numpy 2; linear interpolation has no
    weighted form there)."""
    q = np.linspace(0.1, 0.9, 9)
    if weights is None:
        return np.unique(np.quantile(reference_scores, q))
    cw = np.cumsum(weights)
    at = np.minimum(np.searchsorted(cw, q * cw[-1], side="left"), cw.size - 1)
    return np.unique(reference_scores[at])


#: a bin's share is floored at this before the logarithm (an empty bin would make the
#: PSI infinite), as evidently does
PSI_FLOOR = 1e-4


def bin_shares(b: Batch, edges: Floats) -> Floats:
    """The share of ``b``'s cases in each bin (-inf, e1], (e1, e2], ..., (e_k, inf)."""
    s = np.negative(b.keys[::-1])  # ascending
    c = np.concatenate([[0], np.cumsum(b.mass[::-1])])
    cuts = c[np.searchsorted(s, edges, side="right")]
    counts = np.diff(np.concatenate([[0], cuts, [c[-1]]]))
    return np.asarray(counts / c[-1], dtype=np.float64)


def psi(window_shares: Floats, reference_shares: Floats) -> float:
    """Population stability index sum_i (w_i - r_i) ln(w_i / r_i), shares floored at
    :data:`PSI_FLOOR`."""
    w = np.maximum(window_shares, PSI_FLOOR)
    r = np.maximum(reference_shares, PSI_FLOOR)
    return float(np.sum((w - r) * np.log(w / r)))


# --- a window over a stream: the last N rows, or the rows of the last span of time ----
class RecentRows:
    """The rows of a stream still in its window, and their table.

    ``size``: the last ``size`` rows added (in the order added); ``span`` (nanoseconds):
    the rows whose time lies within ``span`` of the newest time seen, i.e.
    ``time > newest - span``. The table is kept by adding each batch's table and
    subtracting the table of the rows that leave; the rows themselves are kept (the
    window's own memory), so that the leaving rows' table can be built.
    """

    def __init__(self, size: int | None = None, span: int | None = None) -> None:
        self.size, self.span = size, span
        # per part: labels, scores, times (int64 ns or None), its table
        self.parts: deque[tuple[npt.NDArray[np.bool_], Floats, Ints | None, Batch]] = deque()
        self.table = EMPTY
        self.n_rows = 0
        self.newest: int | None = None

    def add(self, y: npt.NDArray[np.bool_], s: Floats, t: Ints | None) -> None:
        if t is not None and t.size:
            top = int(t.max())
            self.newest = top if self.newest is None else max(self.newest, top)
        b = batch_of(y, s)
        self.parts.append((y, s, t, b))
        self.table = add(self.table, b)
        self.n_rows += int(y.size)
        self._expire()

    def _drop(self, i: int, leave: npt.NDArray[np.bool_]) -> None:
        """Take the rows ``leave`` of part ``i`` out of the window."""
        y, s, t, b = self.parts[i]
        gone = batch_of(y[leave], s[leave])
        self.table = subtract(self.table, gone)
        self.n_rows -= int(np.count_nonzero(leave))
        keep = ~leave
        self.parts[i] = (y[keep], s[keep], None if t is None else t[keep], subtract(b, gone))

    def _expire(self) -> None:
        if self.size is not None:
            while self.n_rows > self.size:
                excess = self.n_rows - self.size
                y, _s, t, b = self.parts[0]
                if y.size <= excess:  # the whole oldest part leaves
                    self.parts.popleft()
                    self.table = subtract(self.table, b)
                    self.n_rows -= int(y.size)
                else:
                    leave = np.zeros(y.size, dtype=bool)
                    leave[:excess] = True
                    self._drop(0, leave)
        if self.span is not None and self.newest is not None:
            cutoff = self.newest - self.span
            for i in range(len(self.parts)):
                t = self.parts[i][2]
                if t is not None and t.size and int(t.min()) <= cutoff:
                    self._drop(i, t <= cutoff)
            while self.parts and self.parts[0][0].size == 0:
                self.parts.popleft()
