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

The sums are taken in another order than a table's blocked pass, so a replicate's
value agrees with the measure on the replicate's table to rounding (1e-12 relative in
the tests), not bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.measures.sums import PRIOR, SumGroup
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


class _SumsPlan:
    """The terms of the asked groups over the cells of each stratum of a sampler.

    ``parts[i]`` lists, for stratum i, ``(column slice, term index, values)``: the term's
    values at the cells of that slice of the stratum (one class's cells).
    """

    def __init__(self, sampler: Any, groups: list[SumGroup]) -> None:
        table: CountTable = sampler.table
        cells = sampler.cells
        self.table = table
        self.n_pos = cells.n_pos
        self.probabilities_ok = table.probabilities_ok
        self.fixed_totals = bool(sampler.stratified)
        self.groups = [g for g in groups if self.fixed_totals or not _needs_prior(g)]
        self.terms = [term for g in self.groups for term in g.terms]
        self.pi = table.prevalence
        if self.fixed_totals:  # every replicate has the table's totals, in its units
            u = sampler.units
            P = sum(s.draws for s in sampler.strata if s.lo < cells.n_pos) * u[0]
            N = sum(s.draws for s in sampler.strata if s.lo >= cells.n_pos) * u[-1]
            if table.weighted:
                self.pi = P / (P + N) if P + N > 0 else float("nan")
        scores = table.scores[cells.group]
        self.strata = sampler.strata
        self.parts: list[list[tuple[slice, int, FloatArray]]] = []
        with np.errstate(all="ignore"):
            for st in sampler.strata:
                parts = []
                for lo, hi, positive in class_ranges(st, cells.n_pos):
                    s = scores[lo:hi]
                    for j, term in enumerate(self.terms):
                        if term.rows in ("all", "pos" if positive else "neg"):
                            values = np.asarray(term.numpy(s, positive, self.pi), dtype=np.float64)
                            parts.append((slice(lo - st.lo, hi - st.lo), j, values))
                self.parts.append(parts)

    def tables(self, counts: list[npt.NDArray[Any]], units: tuple[float, ...],
               weighted: bool) -> list[_SumsTable]:
        """The stand-in replicates of one block from its per-stratum cell counts."""
        b = counts[0].shape[0] if counts else 0
        raw = np.zeros((b, len(self.terms)))
        P, N = np.zeros(b), np.zeros(b)
        for st, c, parts, unit in zip(self.strata, counts, self.parts, units, strict=True):
            cf = c.astype(np.float64, copy=False)
            w = unit if weighted else 1.0
            for lo, hi, positive in class_ranges(st, self.n_pos):
                into = P if positive else N
                into += cf[:, lo - st.lo:hi - st.lo].sum(axis=1) * w
            for sl, j, values in parts:
                raw[:, j] += np.einsum("ij,j->i", cf[:, sl], values) * w
        out = []
        for i in range(b):
            memo: dict[Hashable, Any] = {}
            k = 0
            row = raw[i].tolist()
            pi = P[i] / (P[i] + N[i]) if P[i] + N[i] > 0 else float("nan")
            for g in self.groups:
                sums = tuple(row[k:k + len(g.terms)])
                k += len(g.terms)
                key = (g.key, *(pi if d is PRIOR else d for d in g.params.values()))
                memo[key] = sums if g.from_raw is None else g.from_raw(sums)
            out.append(_SumsTable(P[i], N[i], weighted, self.probabilities_ok, memo))
        return out
