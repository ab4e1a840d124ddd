"""The probabilistic measures of many bootstrap replicates from their raw sums.

A probabilistic measure is a function of a few weighted sums over the cases (its
registry entry lists them: :attr:`~binmetrics.measures.Measure.sums`, the
:class:`~binmetrics.measures.sums.SumGroup` s the binned engines collect). A bootstrap
replicate draws each (score, label) cell of the table some number of times, so its
sums are ``counts @ term(scores)``: the terms are taken once per call, over the cells
(never per replicate), and every measure asked for reads the same sums of the same
replicates. The measure's own function then runs on a :class:`_SumsTable`, a stand-in
replicate that holds its totals and those sums and nothing else: the formula after the
sums is the measure's, unchanged. A measure that asks the stand-in for anything else
(its parameters are not the ones the sums were taken at, or it reads the scores) raises
:class:`_NeedsTable` and is evaluated on replicate tables instead, for the whole call.

A term that several groups declare is summed once, and a block's sums are one pass over
each class's counts of each stratum for all the terms at once
(:func:`~binmetrics.inference._counting.term_sums`, compiled for large replicates): at
1e6 rows a replicate's counts and the terms' values are read from memory once, instead of
once per term and group. The sums are taken in another order than a table's blocked
pass (and compiled in another order than with NumPy alone), so a replicate's value agrees
with the measure on the replicate's table to rounding (1e-12 relative in the tests), not
bit for bit; a term's sum does not depend on which other terms are summed with it, so
the replicates do not depend on the measures asked.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.inference._counting import term_sums
from binmetrics.measures.sums import PRIOR, RawSum, SumGroup
from binmetrics.table.counts import CountTable, FloatArray

__all__: list[str] = []


class _NeedsTable(Exception):
    """A measure asked a :class:`_SumsTable` for more than its sums."""


class _SumsTable(CountTable):
    """A replicate known by its totals and its raw sums only (see the module docstring).

    ``memo`` answers the sum groups' keys and raises :class:`_NeedsTable` for any
    other; the scores and counts raise it too.
    """

    def __init__(self, P: float, N: float, weighted: bool, probabilities_ok: bool,
                 memo: dict[Hashable, Any]) -> None:
        self.weighted = weighted
        self._memo = memo
        self.calibration = None
        self.uncalibrated = None
        self.binning = None
        self.weight_exponent = 0
        self.__dict__["P"], self.__dict__["N"] = float(P), float(N)
        self._probabilities_ok = probabilities_ok

    @property
    def probabilities_ok(self) -> bool:
        return self._probabilities_ok

    @property  # a stand-in has no arrays
    def _scores(self) -> FloatArray:  # type: ignore[override]
        raise _NeedsTable

    _pos = _neg = _scores

    def memo(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        if key not in self._memo:
            raise _NeedsTable
        return self._memo[key]


def class_ranges(stratum: Any, n_pos: int) -> Iterator[tuple[int, int, bool]]:
    """(lo, hi, positive) of the stratum's cells of each class, as global cell ranges
    (cells: positive cells first, then negative cells); empty ranges left out."""
    for lo, hi, positive in ((stratum.lo, min(stratum.hi, n_pos), True),
                             (max(stratum.lo, n_pos), stratum.hi, False)):
        if hi > lo:
            yield lo, hi, positive


def _groups(targets: Iterable[Any]) -> list[SumGroup]:
    """The sum groups (with terms) the targets declare, each once."""
    out: dict[str, SumGroup] = {}
    for t in targets:
        for g in getattr(t, "sums", ()):
            if g.terms:
                out.setdefault(g.key, g)
    return list(out.values())


def _needs_prior(g: SumGroup) -> bool:
    return any(d is PRIOR for d in g.params.values()) or any(t.rows == "all" for t in g.terms)


class _Part:
    """One class's cells of one stratum: columns [lo, hi) of the stratum's counts, the
    indices of the plan's distinct terms summed over them (``terms``) and those terms'
    values at the cells, term-major (``values``, (len(terms), hi - lo), C-contiguous:
    the layout the compiled pass reads a term's tile from)."""

    __slots__ = ("hi", "lo", "positive", "terms", "values")

    def __init__(self, lo: int, hi: int, positive: bool, terms: npt.NDArray[np.intp],
                 values: FloatArray) -> None:
        self.lo, self.hi, self.positive = lo, hi, positive
        self.terms, self.values = terms, values


class _SumsPlan:
    """The terms of the asked groups over the cells of each stratum of a sampler.

    A term (a :class:`~binmetrics.measures.sums.RawSum`) that several groups declare
    (the information score's ``info``: in ``log_pass`` and in ``information``) is one
    term here, summed once and read by each of them: ``terms`` holds the distinct terms,
    ``slots[g]`` where group g's terms are among them. Its values are taken once per
    sampler, never per replicate: ``parts[i]`` holds stratum i's :class:`_Part` s, one
    per class, and a block's sums are one pass over each part's counts
    (:func:`~binmetrics.inference._counting.term_sums`: compiled for large replicates,
    NumPy otherwise). An einsum per term and group read a float copy of the counts and
    one term's values 22 times per replicate with every measure asked: 14-20 ms at 1e6
    rows on this machine against 7.5-9.5 ms (memory-bound: the 10 terms' values of each
    cell, 80 MB, are the most of what is read).
    """

    def __init__(self, sampler: Any, groups: list[SumGroup]) -> None:
        table: CountTable = sampler.table
        cells = sampler.cells
        self.table = table
        self.n_pos = cells.n_pos
        self.draws = sampler.n_draws
        self.probabilities_ok = table.probabilities_ok
        self.fixed_totals = bool(sampler.stratified)
        self.groups = [g for g in groups if self.fixed_totals or not _needs_prior(g)]
        # a term is known by the term itself (RawSum: its name, rows, formula and
        # functions); its values depend only on it and the plan's prior
        index: dict[RawSum, int] = {}
        self.slots = [[index.setdefault(term, len(index)) for term in g.terms]
                      for g in self.groups]
        self.terms = list(index)
        self.pi = table.prevalence
        if self.fixed_totals:  # every replicate has the table's totals, in its units
            u = sampler.units
            P = sum(s.draws for s in sampler.strata if s.lo < cells.n_pos) * u[0]
            N = sum(s.draws for s in sampler.strata if s.lo >= cells.n_pos) * u[-1]
            if table.weighted:
                self.pi = P / (P + N) if P + N > 0 else float("nan")
        scores = table.scores[cells.group]
        self.parts: list[list[_Part]] = []
        with np.errstate(all="ignore"):
            for st in sampler.strata:
                parts = []
                for lo, hi, positive in class_ranges(st, cells.n_pos):
                    s = scores[lo:hi]
                    rows = ("all", "pos" if positive else "neg")
                    which = [j for j, term in enumerate(self.terms) if term.rows in rows]
                    values = np.empty((len(which), hi - lo))
                    for r, j in enumerate(which):
                        values[r] = self.terms[j].numpy(s, positive, self.pi)
                    parts.append(_Part(lo - st.lo, hi - st.lo, positive,
                                       np.array(which, dtype=np.intp), values))
                self.parts.append(parts)

    def tables(self, counts: list[npt.NDArray[Any]], units: tuple[float, ...],
               weighted: bool) -> list[_SumsTable]:
        """The stand-in replicates of one block from its per-stratum cell counts (whole
        numbers; a weighted table's cases weigh the stratum's unit weight)."""
        b = counts[0].shape[0] if counts else 0
        raw = np.zeros((b, len(self.terms)))
        P, N = np.zeros(b), np.zeros(b)
        for c, parts, unit in zip(counts, self.parts, units, strict=True):
            w = unit if weighted else 1.0
            for part in parts:
                dots, totals = term_sums(c, part.values, part.lo, part.hi, draws=self.draws)
                into = P if part.positive else N
                into += totals * w
                raw[:, part.terms] += dots * w
        out = []
        for i in range(b):
            memo: dict[Hashable, Any] = {}
            row = raw[i].tolist()
            pi = P[i] / (P[i] + N[i]) if P[i] + N[i] > 0 else float("nan")
            for g, slots in zip(self.groups, self.slots, strict=True):
                sums = tuple(row[j] for j in slots)
                key = (g.key, *(pi if d is PRIOR else d for d in g.params.values()))
                memo[key] = sums if g.from_raw is None else g.from_raw(sums)
            out.append(_SumsTable(P[i], N[i], weighted, self.probabilities_ok, memo))
        return out
