"""Raw sums: what an engine collects beside the count table for the probabilistic
measures, declared by the measures that read them.

A probabilistic measure is a weighted sum over the cases. On exact scores it is read
from the count table (each distinct score once). On binned scores (the engines'
``decimals=`` / ``bins=``) the table holds bin representatives, so the engine sums the
measure's terms over the raw scores as it builds the table: each
:class:`RawSum` is one ``sum of w * term(x)`` over the positives, the negatives, or
all rows. A :class:`SumGroup` is the set of raw sums one in-memory computation reads,
with the parameter values the engines sum at. A measure lists its groups in the
registry (``register(..., sums=(POLY,))``); the engines ask :func:`engine_sums` which
raw sums the registered measures need, so a measure declared anywhere is summed by
every engine, with no list of measure ids here.

In memory, a group may also declare its computation over a block of the table
(``block=``), written with the per-row terms the groups share (:class:`Block`: the
scores' complements, squares and logarithms, each taken once per block). When several
measures are asked together, :func:`shared_sums` runs every group they declare in one
blocked pass over the distinct scores; a measure asked alone runs its groups the same
way (:func:`table_sums`), so both give the same floats.

Examples
--------
>>> [s.name for s in POLY.terms]
['pos_miss', 'neg_p', 'pos_miss2', 'neg_p2']
>>> raw_sum_sql()["pos_miss"]
('pos', '(1.0 - x)')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from binmetrics.exceptions import SumsUnavailable
from binmetrics.measures import block_pass
from binmetrics.measures._util import EPS, dot
from binmetrics.measures.block_pass import (
    FAMILY_TOTALS,
    Block,
    FamilyPart,
    FamilySums,
    compiled_sums,
    family_pass,
    family_totals,
    information_prior,
)
from binmetrics.measures.registry import iter_measures
from binmetrics.table.counts import CountTable, chunks
from binmetrics.validation import check_in_range

__all__ = [
    "HINGE",
    "INFORMATION",
    "LOG_PASS",
    "POLY",
    "PRIOR",
    "BlockPass",
    "RawSum",
    "SumGroup",
    "blocks",
    "engine_sums",
    "raw_sum_names",
    "raw_sum_sql",
    "raw_sums_from_columns",
    "raw_sums_of_rows",
    "shared_sums",
    "sql_double",
    "table_sums",
    "term_bound",
]

FloatArray = npt.NDArray[np.float64]
Rows = Literal["pos", "neg", "all"]
#: the scores a group's in-memory computation applies to (see :attr:`SumGroup.scores`)
Scores = Literal["probabilities", "margins", "any"]

#: The information score's logarithms are clipped here only to keep them finite: the
#: terms it takes never reach the clip (see ``probabilistic._information_sum``).
TINY = 1e-300


class _Prior:
    """The parameter default "the data's prevalence when the engine summed"."""

    def __repr__(self) -> str:
        return "the data's prevalence"


#: a :attr:`SumGroup.params` default meaning the data's own prevalence
PRIOR: Any = _Prior()


def sql_double(v: float) -> str:
    """A DOUBLE literal that DuckDB and Spark SQL both read as exactly ``v`` (a plain
    ``0.1`` is a DECIMAL in both, which need not convert to the nearest double)."""
    return f"CAST('{float(v)!r}' AS DOUBLE)"


@dataclass(frozen=True)
class RawSum:
    """One weighted sum over the raw scores: ``sum w * term(x)`` over ``rows``.

    Attributes
    ----------
    name : the column an engine writes it to (unique among the registered sums).
    rows : "pos" (the positives), "neg" (the negatives) or "all" (both, with a term
        that reads the label and the data's prior, as the information score does).
    sql : the term in SQL that DuckDB and Spark both read: an expression of the score
        ``x``; for rows "all" also of ``pos`` (the label), the prior ``pi``, ``lpi`` =
        ln pi and ``l1pi`` = ln(1 - pi).
    numpy : ``numpy(x, positive, pi)``, the same term of the scores ``x`` of the
        positives (``positive=True``) or the negatives, at prior ``pi``.
    bound : ``bound(low, high)``, an upper bound on |term| for scores in [low, high]
        (inf when it overflows): the engines size their summation by it.
    """

    name: str
    rows: Rows
    sql: str
    numpy: Callable[[FloatArray, bool, float], FloatArray]
    bound: Callable[[float, float], float]


@dataclass(frozen=True)
class SumGroup:
    """The raw sums one in-memory computation of the probabilistic measures reads.

    Attributes
    ----------
    key : its name, also the memo key of the in-memory sums.
    what : what it sums, for messages ("the log losses").
    terms : the :class:`RawSum` s, in the order of the computation's output.
    params : the parameter values the engines sum at (:data:`PRIOR`: the data's
        prevalence); other values need the raw scores again.
    from_raw : the computation's output from the terms' sums (negatives already scaled
        for a calibrated table); default: the sums themselves.
    block : the in-memory computation over a table of exact scores:
        ``block(t, **params)`` (the params named in ``params``; it checks them) returns
        a function of one :class:`Block` giving the group's output on that block; the
        output is the sum over the blocks. None: the measure's own code computes the
        group (:func:`shared_sums` leaves it out).
    scores : the tables whose measures read the group: ``"probabilities"`` (every
        score in [0, 1]), ``"margins"`` (some score outside it) or ``"any"``;
        :func:`shared_sums` computes it for those only.
    """

    key: str
    what: str
    terms: tuple[RawSum, ...]
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    from_raw: Callable[[tuple[float, ...]], tuple[float, ...]] | None = None
    block: Callable[..., Callable[[Block], Any]] | None = None
    scores: Scores = "any"

    def binned(self, t: CountTable, **params: Any) -> tuple[float, ...]:
        """The output for a table of binned scores, from the sums its engine took over
        the raw scores; :class:`SumsUnavailable` where they cannot give it."""
        b = t.binning
        assert b is not None
        raw = b.raw
        if raw is None:
            raise SumsUnavailable("binned scores: the engine did not sum the probabilistic "
                                  "losses over the raw scores")
        at_prior = any(d is PRIOR for d in self.params.values())
        if at_prior and t.calibration is not None:
            raise SumsUnavailable(f"binned scores calibrated by reweighting: {self.what} at "
                                  "the prior pi0 needs the raw scores")
        for name, value in params.items():
            default = self.params.get(name)
            same = (math.isclose(value, b.prior, rel_tol=1e-12, abs_tol=0.0)
                    if default is PRIOR else value == default)
            if not same:
                given = ", ".join(f"{k}={v!r}" for k, v in params.items())
                at = ", ".join(f"{k}={_shown(v, b.prior)}" for k, v in self.params.items())
                raise SumsUnavailable(f"binned scores: {self.what} was summed over the raw "
                                      f"scores at {at} only, not {given}")
        c = 1.0 if t.calibration is None else t.calibration[0]
        same_prior = t.calibration is None and math.isclose(
            t.prevalence, b.prior, rel_tol=1e-12, abs_tol=0.0)
        values = []
        for term in self.terms:
            if term.name not in raw:
                raise SumsUnavailable(f"binned scores: the engine did not sum {term.name} "
                                      f"({self.what}) over the raw scores")
            v = float(raw[term.name])
            if term.rows == "neg":
                v *= c
            elif term.rows == "all" and not same_prior and not at_prior:
                v = math.nan  # summed at the data's prevalence, asked at another
            values.append(v)
        out = tuple(values)
        return out if self.from_raw is None else self.from_raw(out)


@dataclass(frozen=True)
class BlockPass:
    """A computation over the blocks of a table, other than a sum group, that a measure
    reads and that can share the blocked pass of :func:`shared_sums` (the compressed
    table that starts the logistic calibration fits). A measure lists it in the
    registry (``register(..., passes=(...))``).

    Attributes
    ----------
    key : its memo key is ``(key,)``.
    prepare : ``prepare(t)``: a function of one :class:`Block` giving that block's part
        (or None), or None when table ``t`` does not need it (the measure then never
        reads it, or computes it alone).
    combine : ``combine(t, parts)``, the parts of the blocks in order (None left out)
        -> the value, memoised under ``(key,)`` by :func:`shared_sums`, where the
        measure reads it.
    """

    key: str
    prepare: Callable[[CountTable], Callable[[Block], Any] | None]
    combine: Callable[[CountTable, list[Any]], Any]

    def run(self, t: CountTable) -> Any:
        """The value for table ``t`` from a pass of its own (not memoised), or None when
        ``t`` does not need it."""
        part = self.prepare(t)
        if part is None:
            return None
        return self.combine(t, [x for x in map(part, block_pass.table_blocks(t))
                                if x is not None])


def _shown(default: Any, prior: float) -> str:
    return f"the data's prevalence {prior:.6g}" if default is PRIOR else format(default, "g")


def _n_above(s: FloatArray, x: float, *, strict: bool = False) -> int:
    """How many of the descending scores s are >= x (> x if strict); most blocks lie
    wholly on one side, which the end points tell."""
    if (s[-1] > x) if strict else (s[-1] >= x):
        return int(s.size)
    if not ((s[0] > x) if strict else (s[0] >= x)):
        return 0
    return int(np.count_nonzero((s > x) if strict else (s >= x)))


def _poly_block(t: CountTable) -> Callable[[Block], Any]:
    """sum pos (1-p), sum neg p, sum pos (1-p)^2, sum neg p^2."""
    if family_pass(t) is not None:
        return FamilyPart("poly")

    def block(b: Block) -> list[Any]:
        p, n = b.p, b.n
        return [dot(p, b.miss), dot(n, b.s), dot(p, b.miss2), dot(n, b.s2)]

    return block


def _log_pass_block(t: CountTable, *, eps: float) -> Callable[[Block], Any]:
    """The sums behind every log-based loss, each logarithm taken once per row.

    Logarithms dominate the cost of these losses, so one pass serves the log loss
    and its balanced form (eps), the focal loss at its default gamma = 2, and the
    information score at its default prior (the data's prevalence):
    (-sum pos ln p, -sum neg ln(1-p), the same weighted by (1-p_t)^2, information in nats;
    the information is 0 unless eps <= pi <= 1 - eps). Clipping at eps never touches the
    information score's terms when eps <= min(pi, 1 - pi) (see
    ``probabilistic._information_sum``).
    """
    eps = check_in_range(eps, "eps", 0.0, 0.5, low_open=True)
    pi, with_info, lpi, l1pi = information_prior(t, eps)
    if eps == EPS and family_pass(t) is not None:
        return FamilyPart("log_pass")
    k = compiled_sums(t)
    if k is not None:
        return lambda b: k.log_sums(b.s, b.pos_counts, b.neg_counts, b.log_s(eps),
                                    b.log_miss(eps), pi, lpi, l1pi, with_info)

    def block(b: Block) -> list[Any]:
        s, p, n = b.s, b.p, b.n
        # the scores fall along the block, so s >= pi and s > pi hold on prefixes [:u], [:v]
        size = s.size
        u = _n_above(s, pi) if with_info else size
        v = _n_above(s, pi, strict=True) if with_info else 0
        # ln p is read for the positives and the negatives above the prior (information),
        # ln(1 - p) for the negatives and the positives below it; both are taken on every
        # row all the same: a masked logarithm (``where=``) runs 4-10x slower than the
        # vectorised one, and clipped at eps each is finite, so 0 x it adds nothing
        ls, l1 = b.log_s(eps), b.log_miss(eps)
        pos_log, neg_log = dot(p, ls), dot(n, l1)
        info: Any = 0.0
        if with_info:  # a block wholly on one side of pi reads the two sums above again
            info = ((pos_log if u == size else dot(p[:u], ls[:u])) - lpi * p[:u].sum()
                    + l1pi * p[u:].sum() - dot(p[u:], l1[u:])
                    + lpi * n[:v].sum() - dot(n[:v], ls[:v])
                    + (neg_log if v == 0 else dot(n[v:], l1[v:])) - l1pi * n[v:].sum())
        return [-pos_log, -neg_log, -dot(p, b.miss2 * ls), -dot(n, b.s2 * l1), info]

    return block


def _hinge_block(t: CountTable) -> Callable[[Block], list[Any]]:
    def block(b: Block) -> list[Any]:
        return [dot(b.p, np.maximum(0.0, b.miss)) + dot(b.n, np.maximum(0.0, 1.0 + b.s))]

    return block


# --- the groups of the built-in probabilistic measures -----------------------------------
def _miss(x: FloatArray) -> FloatArray:
    return 1.0 - x


def _log_clip(x: FloatArray) -> FloatArray:
    return np.log(np.maximum(x, EPS))


def _poly_bound(low: float, high: float) -> float:
    a = max(abs(low), abs(high))
    return (1.0 + a) * (1.0 + a)


def _log_bound(low: float, high: float) -> float:
    a = max(abs(low), abs(high))
    log_max = -math.log(EPS) + 1.0  # |ln max(p, eps)| for p <= 1; ln a <= a beyond
    return (1.0 + a) * (1.0 + a) * (log_max + a)


def _info_bound(low: float, high: float) -> float:
    a = max(abs(low), abs(high))
    log_max = -math.log(EPS) + 1.0
    return -math.log(TINY) + 2.0 * (log_max + 1.0) + a


def _info_term(x: FloatArray, positive: bool, pi: float) -> FloatArray:
    """The information score (nats) of cases of one class with scores x at prior pi."""
    if not EPS <= pi <= 1.0 - EPS:
        return np.full(x.shape, math.nan)
    lpi, l1pi = math.log(pi), math.log1p(-pi)
    if positive:
        return np.where(x >= pi, np.log(np.maximum(x, TINY)) - lpi,
                        l1pi - np.log(np.maximum(1.0 - x, TINY)))
    return np.where(x > pi, lpi - np.log(np.maximum(x, TINY)),
                    np.log(np.maximum(1.0 - x, TINY)) - l1pi)


def _sql_info() -> str:
    lxt = f"ln(greatest(x, {sql_double(TINY)}))"
    l1xt = f"ln(greatest(1.0 - x, {sql_double(TINY)}))"
    return (f"(CASE WHEN pos THEN (CASE WHEN x >= pi THEN {lxt} - lpi ELSE l1pi - {l1xt} END) "
            f"ELSE (CASE WHEN x > pi THEN lpi - {lxt} ELSE {l1xt} - l1pi END) END)")


_EPS_SQL = sql_double(EPS)
_LX = f"ln(greatest(x, {_EPS_SQL}))"
_L1X = f"ln(greatest(1.0 - x, {_EPS_SQL}))"
_INFO = RawSum("info", "all", _sql_info(), _info_term, _info_bound)

#: sum pos (1-p), sum neg p, sum pos (1-p)^2, sum neg p^2: MAE, Brier, RMSE, hinge on [0, 1]
POLY = SumGroup("poly", "the absolute and squared errors", (
    RawSum("pos_miss", "pos", "(1.0 - x)", lambda x, _p, _pi: _miss(x), _poly_bound),
    RawSum("neg_p", "neg", "x", lambda x, _p, _pi: x, _poly_bound),
    RawSum("pos_miss2", "pos", "((1.0 - x) * (1.0 - x))",
           lambda x, _p, _pi: _miss(x) * _miss(x), _poly_bound),
    RawSum("neg_p2", "neg", "(x * x)", lambda x, _p, _pi: x * x, _poly_bound),
), block=_poly_block, scores="probabilities")

#: the log losses (-sum pos ln p, -sum neg ln(1-p)), the focal loss at gamma = 2 and
#: the information score at the data's prevalence, from one pass
LOG_PASS = SumGroup("log_pass", "the log losses", (
    RawSum("pos_log", "pos", _LX, lambda x, _p, _pi: _log_clip(x), _log_bound),
    RawSum("neg_log", "neg", _L1X, lambda x, _p, _pi: _log_clip(1.0 - x), _log_bound),
    RawSum("pos_focal", "pos", f"((1.0 - x) * (1.0 - x) * {_LX})",
           lambda x, _p, _pi: _miss(x) * _miss(x) * _log_clip(x), _log_bound),
    RawSum("neg_focal", "neg", f"(x * x * {_L1X})",
           lambda x, _p, _pi: x * x * _log_clip(1.0 - x), _log_bound),
    _INFO,
), MappingProxyType({"eps": EPS}),
    from_raw=lambda v: (-v[0], -v[1], -v[2], -v[3], v[4]),
    block=_log_pass_block, scores="probabilities")

#: the focal loss at other gamma: the engines sum it at gamma = 2 only (in LOG_PASS)
FOCAL = SumGroup("focal", "the focal loss", (),
                 MappingProxyType({"gamma": 2.0, "eps": EPS}))

#: sum pos max(0, 1-s) + sum neg max(0, 1+s): the hinge loss of any scores
HINGE = SumGroup("hinge", "the hinge loss", (
    RawSum("pos_hinge", "pos", "greatest(0.0, (1.0 - x))",
           lambda x, _p, _pi: np.maximum(0.0, 1.0 - x), _poly_bound),
    RawSum("neg_hinge", "neg", "greatest(0.0, 1.0 + x)",
           lambda x, _p, _pi: np.maximum(0.0, 1.0 + x), _poly_bound),
), from_raw=lambda v: (v[0] + v[1],), block=_hinge_block, scores="margins")

#: the information score at a prior: summed at the data's prevalence only
INFORMATION = SumGroup("information", "the information score", (_INFO,),
                       MappingProxyType({"prior": PRIOR}))


# --- the sums of a table ----------------------------------------------------------------------
def blocks(t: CountTable) -> Iterator[tuple[FloatArray, FloatArray, FloatArray]]:
    """(scores, positives, negatives) of consecutive blocks of the table, as float64.

    A loss is a sum over the table; taking it block by block keeps the temporaries
    in cache and the memory use independent of the table's size.
    """
    for sl in chunks(t.n_distinct):
        yield (t.scores[sl], t.pos[sl].astype(np.float64, copy=False),
               t.neg[sl].astype(np.float64, copy=False))


def table_sums(t: CountTable, group: SumGroup, block_sums: Callable[..., Any] | None = None,
               **params: Any) -> tuple[float, ...]:
    """The group's output for table ``t``, memoised under the group and its parameters.

    On exact scores: the sum over the table's blocks
    (:func:`~binmetrics.measures.block_pass.table_blocks`) of ``block_sums(s, pos, neg)``
    when given (a measure's own computation at parameters the group does not declare),
    else of the group's declared :attr:`SumGroup.block` (the compiled family pass's
    memoised totals for a :class:`~binmetrics.measures.block_pass.FamilyPart`), else of
    each term of the group (``pos @ term(s)`` and/or ``neg @ term(s)``). On
    binned scores: from the sums the engine took over the raw scores
    (:meth:`SumGroup.binned`; :class:`SumsUnavailable` for parameters it did not sum at).
    :func:`shared_sums` may have computed it already, with the same blocks and the
    same floats.

    Examples
    --------
    >>> import binmetrics as bm
    >>> t = bm.CountTable.from_arrays([1, 0, 1], [0.9, 0.2, 0.6])
    >>> [round(v, 10) for v in table_sums(t, POLY)]  # pos (1-p), neg p, pos (1-p)^2, neg p^2
    [0.5, 0.2, 0.17, 0.04]
    """
    key = (group.key, *params.values())
    if t.binning is not None:
        return t.memo(key, lambda: group.binned(t, **params))

    def compute() -> tuple[float, ...]:
        if block_sums is None and group.block is not None:
            block = group.block(t, **params)
            if isinstance(block, FamilyPart):
                return getattr(family_totals(t), block.field)
        else:
            own = block_sums if block_sums is not None else _term_block(group, t.prevalence)

            def block(b: Block) -> Any:
                return own(b.s, b.p, b.n)
        return _sum_blocks(t, [block], len(group.terms))[0]

    return t.memo(key, compute)


def _sum_blocks(t: CountTable, fns: list[Callable[[Block], Any]], width: int = 0,
                also: Callable[[Block], None] | None = None) -> list[tuple[float, ...]]:
    """Per function, the sum over the table's blocks of its output on each block (one
    pass: every function reads the block's shared terms while they are in cache);
    ``also(block)`` runs on each block after them."""
    totals: list[Any] = [None] * len(fns)
    for b in block_pass.table_blocks(t):
        for i, fn in enumerate(fns):
            part = np.asarray(fn(b), dtype=np.float64)
            totals[i] = part if totals[i] is None else totals[i] + part
        if also is not None:
            also(b)
    return [tuple(float(x) for x in (np.zeros(width) if total is None else total))
            for total in totals]


def shared_sums(t: CountTable, measures: Iterable[Any]) -> None:
    """Compute, in one blocked pass over the table, every sum group that the measures
    declare (:attr:`Measure.sums <binmetrics.measures.Measure.sums>`) with an in-memory
    :attr:`SumGroup.block`, at the measures' parameters, and every
    :class:`BlockPass` they declare (:attr:`Measure.passes
    <binmetrics.measures.Measure.passes>`), and memoise each under the key
    :func:`table_sums` (and the measure declaring the pass) reads: the measures then read them
    without a pass of their own, bit for bit the values they would compute alone.

    Nothing is computed for binned scores (the engine's sums serve them), for groups
    memoised already or not meant for these scores (:attr:`SumGroup.scores`), nor at
    parameters the group's check refuses (the measure reports them itself).

    Examples
    --------
    >>> import binmetrics as bm
    >>> t = bm.CountTable.from_arrays([1, 0, 1], [0.9, 0.2, 0.6])
    >>> shared_sums(t, [bm.get_measure(m) for m in ("brier", "log_loss", "mae")])
    >>> t.memoised(("poly",)), t.memoised(("log_pass", EPS))
    (True, True)
    """
    if t.binning is not None:
        return
    ok = t.probabilities_ok
    measures = list(measures)
    wanted: dict[Hashable, Callable[[Block], Any]] = {}
    family: dict[Hashable, FamilyPart] = {}  # the groups the compiled family pass serves
    for m in measures:
        for group in getattr(m, "sums", ()):
            if group.block is None or group.scores == ("margins" if ok else "probabilities"):
                continue
            params = {k: m.params.get(k, d) for k, d in group.params.items()}
            if any(v is PRIOR for v in params.values()):
                params = {k: t.prevalence if v is PRIOR else v for k, v in params.items()}
            key = (group.key, *params.values())
            if key in wanted or key in family or t.memoised(key):
                continue
            try:
                block = group.block(t, **params)
            except (TypeError, ValueError):  # parameters the measure will refuse itself
                continue
            (family if isinstance(block, FamilyPart) else wanted)[key] = block
    if family and t.memoised(FAMILY_TOTALS):  # summed already: each group reads them
        for done, fp in family.items():
            t.memo(done, lambda fp=fp: getattr(family_totals(t), fp.field))  # type: ignore[misc]
        family = {}
    passes: dict[str, tuple[BlockPass, Callable[[Block], Any]]] = {}
    for m in measures:
        for bp in getattr(m, "passes", ()):
            if bp.key not in passes and not t.memoised((bp.key,)):
                part = bp.prepare(t)
                if part is not None:
                    passes[bp.key] = (bp, part)
    if not wanted and not passes and not family:
        return
    parts: dict[str, list[Any]] = {name: [] for name in passes}
    acc = FamilySums() if family else None

    def also(b: Block) -> None:
        if acc is not None:
            acc.add(b)
        for name, (_, part) in passes.items():
            x = part(b)
            if x is not None:
                parts[name].append(x)

    sums = _sum_blocks(t, list(wanted.values()), also=also if passes or family else None)
    for done, total in zip(wanted, sums, strict=True):
        t.memo(done, lambda total=total: total)  # type: ignore[misc]
    if acc is not None:
        totals = t.memo(FAMILY_TOTALS, acc.result)
        for done, fp in family.items():
            t.memo(done, lambda fp=fp: getattr(totals, fp.field))  # type: ignore[misc]
    for name, (bp, _) in passes.items():
        t.memo((name,), lambda bp=bp, name=name: bp.combine(t, parts.pop(name)))  # type: ignore[misc]


def _term_block(group: SumGroup, pi: float) -> Callable[..., list[Any]]:
    def block(s: FloatArray, p: FloatArray, n: FloatArray) -> list[Any]:
        out: list[Any] = []
        for term in group.terms:
            v = 0.0
            if term.rows in ("pos", "all"):
                v += dot(p, term.numpy(s, True, pi))
            if term.rows in ("neg", "all"):
                v += dot(n, term.numpy(s, False, pi))
            out.append(v)
        return out

    return block


# --- what the engines collect ---------------------------------------------------------------
def engine_sums() -> tuple[RawSum, ...]:
    """The raw sums the registered measures read, each once, in declaration order.

    Read when an engine builds a table, so a measure registered at any time is summed.
    """
    seen: dict[str, RawSum] = {}
    for m in iter_measures("probabilistic"):
        for group in m.sums:
            for term in group.terms:
                other = seen.setdefault(term.name, term)
                if other is not term and other != term:
                    raise RuntimeError(f"two raw sums are named {term.name!r}")
    return tuple(seen.values())


def raw_sum_names() -> tuple[str, ...]:
    """The columns of :func:`engine_sums`."""
    return tuple(s.name for s in engine_sums())


def raw_sum_sql() -> dict[str, tuple[str | None, str]]:
    """Each raw sum as (rows summed, term): rows ``"pos"``, ``"NOT pos"`` or None (all),
    the term SQL that DuckDB and Spark both read. Each engine sums ``w * (term)``."""
    where = {"pos": "pos", "neg": "NOT pos", "all": None}
    return {s.name: (where[s.rows], s.sql) for s in engine_sums()}


def term_bound(low: float, high: float) -> float:
    """An upper bound on |term| of every raw sum for scores in [low, high] (any prior in
    [eps, 1 - eps]); inf when it overflows."""
    return max((s.bound(low, high) for s in engine_sums()), default=0.0)


def raw_sums_from_columns(columns: Mapping[str, Any]) -> dict[str, float]:
    """Totals of per-bin columns (NaN-free arrays, one entry per bin)."""
    return {name: float(np.sum(np.asarray(columns[name], dtype=np.float64)))
            for name in raw_sum_names()}


def raw_sums_of_rows(y: npt.NDArray[np.bool_], s: FloatArray, w: FloatArray | None,
                     prior: float) -> dict[str, float]:
    """The raw sums of in-memory rows (the numpy engine; the others do it in SQL)."""
    sp, sn = s[y], s[~y]
    wp = np.ones(sp.size) if w is None else w[y]
    wn = np.ones(sn.size) if w is None else w[~y]
    out: dict[str, float] = {}
    for term in engine_sums():
        total = 0.0
        if term.rows in ("pos", "all"):
            total += dot(wp, term.numpy(sp, True, prior))
        if term.rows in ("neg", "all"):
            total += dot(wn, term.numpy(sn, False, prior))
        out[term.name] = total
    return out
