"""The randomization test of SRD (CRRN): how likely random rankings are that close.

A column whose SRD is no larger than that of most random rankings of the objects ranks
them like the reference for a reason. docs/methods.md §1.6 fixes the null laws:
:func:`footrule_null`, the exact law of Spearman's footrule of a random permutation by
dynamic programming (§1.6a; its exact-moment normal law for large n); the
tie-preserving permutation null, each column's own average ranks in random order
against the fixed reference (§1.6c, enumerated for n ≤ 8); and rSRD's simulation
(``calculateSRDDistribution``) with its tie modes. :class:`SRDRandomization` tests
every column of an :class:`~binmetrics.comparison.srd_ranking.SRDResult` against them; create
it with :meth:`SRDResult.randomization <binmetrics.comparison.srd_ranking.SRDResult.randomization>`.
"""

from __future__ import annotations

import functools
import itertools
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from binmetrics.comparison._srd_core import FloatArray, _Null, _SRDFit, srd_max
from binmetrics.exceptions import BinmetricsWarning
from binmetrics.formatting import Tabular
from binmetrics.progress import as_callback

__all__ = ["ENUMERATE_MAX_N", "EXACT_MAX_N", "QUANTILES", "SRDRandomization", "footrule_null"]

#: probabilities of the reported quantiles XX1, Q1, Med, Q3, XX19 (§1.6b)
QUANTILES = {"XX1": 0.05, "Q1": 0.25, "Med": 0.5, "Q3": 0.75, "XX19": 0.95}
#: beyond this n the exact footrule null gives way to its exact-moment normal law
EXACT_MAX_N = 300
#: tie-preserving nulls are enumerated exactly up to n! = 40320 permutations
ENUMERATE_MAX_N = 8


@functools.lru_cache(maxsize=16)
def _footrule_pmf(n: int) -> FloatArray:
    """P(D = 2j), j = 0..floor(n²/4), of Spearman's footrule of a random permutation.

    The dynamic programme of docs/methods.md §1.6a: walking the cut t|t+1 from left to right,
    the state m counts positions ≤ t mapped beyond t (equal to values ≤ t whose
    preimage lies beyond t); each such pair adds 2 to D per cut it straddles.
    Probabilities are kept normalised by dividing by t at each step.
    """
    width = n * n // 4 + 1
    p = np.ones((1, 1))  # rows: m; columns: D/2, only as many as can be reached yet
    for t in range(1, n + 1):
        rows, used = p.shape
        m = np.arange(rows, dtype=float)[:, None]
        top = min(t, n - t)  # states that can still close
        cols = min(width, used + top)  # D/2 grows by m <= top in this step
        new = np.zeros((rows + 1, cols))
        new[:rows, :used] += p * (2.0 * m + 1.0)     # stays at m
        new[:rows - 1, :used] += p[1:] * m[1:] ** 2  # closes one open pair
        new[1:, :used] += p                          # opens one more
        new = new[:top + 1]
        for mm in range(1, new.shape[0]):  # each open pair straddles the cut t|t+1
            k = min(used, cols - mm)
            new[mm, mm:mm + k] = new[mm, :k].copy()
            new[mm, :mm] = 0.0
        p = new / t
    out = np.zeros(width)
    out[:p.shape[1]] = p[0]
    return out


def footrule_null(n: int, *, exact_max_n: int = EXACT_MAX_N) -> _Null:
    """The null law of SRD for tie-free rankings of ``n`` objects (docs/methods.md §1.6a).

    Exact up to ``exact_max_n``; above it the normal law with the exact moments
    E = (n²−1)/3, Var = (n+1)(2n²+7)/45 (Diaconis & Graham 1977).

    Examples
    --------
    >>> law = footrule_null(5)
    >>> (law.pmf * 120).round().astype(int).tolist()   # OEIS A062869
    [1, 4, 12, 24, 35, 24, 20]
    """
    if n < 1:
        raise ValueError(f"n must be positive, got {n}")
    if n > exact_max_n:
        mean, var = (n * n - 1) / 3.0, (n + 1) * (2.0 * n * n + 7) / 45.0
        grid = np.arange(0.0, srd_max(n) + 1.0, 2.0)
        return _Null(grid, np.zeros_like(grid), normal=(mean, math.sqrt(var)), exact=False)
    pmf = _footrule_pmf(n)
    return _Null(2.0 * np.arange(pmf.size), pmf)


def _has_ties(x: FloatArray) -> bool:
    return bool(np.unique(x).size < x.size)


def _permutation_null(col_ranks: FloatArray, ref_ranks: FloatArray, n_resamples: int,
                      rng: np.random.Generator) -> _Null:
    """SRD of the column's own ranks in random order against the fixed reference (§1.6c)."""
    n = col_ranks.size
    if n <= ENUMERATE_MAX_N:
        perms = np.array(list(itertools.permutations(range(n))), dtype=np.intp)
        draws = np.abs(col_ranks[perms] - ref_ranks).sum(axis=1)
        exact = True
    else:
        draws = np.empty(n_resamples)
        step = max(1, 4_000_000 // n)
        for start in range(0, n_resamples, step):
            b = min(step, n_resamples - start)
            idx = np.argsort(rng.random((b, n)), axis=1)
            draws[start:start + b] = np.abs(col_ranks[idx] - ref_ranks).sum(axis=1)
        exact = False
    return _empirical(draws, exact)


def _empirical(draws: FloatArray, exact: bool) -> _Null:
    support, counts = np.unique(np.round(draws, 9), return_counts=True)
    return _Null(support, counts / counts.sum(), exact=exact)


def _tie_frequency(x: FloatArray) -> float:
    """rSRD: equal adjacent pairs of the sorted vector over n − 1."""
    s = np.sort(x)
    return float(np.count_nonzero(s[1:] == s[:-1]) / (s.size - 1))


def _random_tied_ranks(b: int, n: int, p: FloatArray, rng: np.random.Generator) -> FloatArray:
    """rSRD's random rankings: join each adjacent pair of sorted positions with
    probability p, give each joined block its average rank, then shuffle."""
    pos = np.arange(n)
    join = rng.random((b, n - 1)) < p[:, None]
    starts_block = np.concatenate([np.ones((b, 1), bool), ~join], axis=1)
    ends_block = np.concatenate([~join, np.ones((b, 1), bool)], axis=1)
    start = np.maximum.accumulate(np.where(starts_block, pos, 0), axis=1)
    end = np.minimum.accumulate(np.where(ends_block, pos, n)[:, ::-1], axis=1)[:, ::-1]
    ranks = (start + end) / 2.0 + 1.0
    order = np.argsort(rng.random((b, n)), axis=1)
    return np.take_along_axis(ranks, order, axis=1)


def _rsrd_null(res: _SRDFit, tie_mode: str, tie_prob: float | None, n_resamples: int,
               rng: np.random.Generator,
               progress: Callable[[int, int], None] | None = None) -> _Null:
    """rSRD ``calculateSRDDistribution`` (docs/methods.md §1.6c), SRD rounded to 4 decimals."""
    n, q = res.n, res.reference_ranks.to_numpy()
    if tie_mode not in ("n", "r", "f", "t", "p", "d"):
        raise ValueError(f"tie_mode must be one of 'n', 'r', 'f', 't', 'p', 'd'; got {tie_mode!r}")
    if tie_mode in ("t", "p"):
        if tie_prob is None or not 0 <= tie_prob <= 1:
            raise ValueError(f"tie_mode {tie_mode!r} needs tie_prob in [0, 1], got {tie_prob!r}")
    col_freqs = np.array([_tie_frequency(res.ranks[c].to_numpy()) for c in res.compared])
    draws = np.empty(n_resamples)
    step = max(1, 2_000_000 // n)
    for start in range(0, n_resamples, step):
        b = min(step, n_resamples - start)
        if tie_mode == "d":
            p = col_freqs[(start + np.arange(b)) % col_freqs.size]
        else:
            p = np.full(b, {"n": 0.0, "r": 0.0, "f": _tie_frequency(q)}.get(
                tie_mode, float(tie_prob or 0.0)))
        sol = _random_tied_ranks(b, n, p, rng)
        if tie_mode in ("r", "t"):  # both sides random
            ref = _random_tied_ranks(b, n, p if tie_mode == "t" else np.zeros(b), rng)
        else:
            ref = np.broadcast_to(q, (b, n))
        draws[start:start + b] = np.round(np.abs(sol - ref).sum(axis=1), 4)
        if progress is not None:
            progress(start + b, n_resamples)
    return _empirical(draws, exact=False)


class SRDRandomization(Tabular):
    """The randomization test (CRRN) of each column of an SRD result.

    Create it with :meth:`SRDResult.randomization
    <binmetrics.comparison.srd_ranking.SRDResult.randomization>`.

    Attributes
    ----------
    pvalue_lower : pandas.Series
        P(SRD_null ≤ SRD_obs) per column: small means closer to the reference than
        random ranking. The decision is ``pvalue_lower ≤ alpha`` (docs/methods.md §1.6b warns
        against "SRD ≤ XX1", which does not hold the level).
    pvalue_upper : pandas.Series
        P(SRD_null ≥ SRD_obs): small means a reversed ranking.
    better_than_random : pandas.Series of bool
    null_kind : pandas.Series
        Which null each column was tested against.
    quantiles : dict
        XX1 (5%), Q1, Med, Q3, XX19 (95%) of the random-ranking law in SRD%.
    distribution : (support, cdf)
        That law in SRD% with its cumulative distribution, for plotting.
    """

    def __init__(self, res: _SRDFit, null: str, n_resamples: int, rng: np.random.Generator,
                 alpha: float, tie_mode: str, tie_prob: float | None,
                 progress: Any = None) -> None:
        self.alpha = alpha
        n = res.n
        q = res.reference_ranks.to_numpy()
        if null == "rsrd":
            shared = _rsrd_null(res, tie_mode, tie_prob, n_resamples, rng,
                                as_callback(progress, "srd simulation"))
        elif null == "normal":
            shared = footrule_null(n, exact_max_n=0)
        else:
            shared = footrule_null(n)
        lower, upper, kinds = {}, {}, {}
        cache: dict[bytes, _Null] = {}
        ref_tied = _has_ties(q)
        observed = res.values.to_dict()
        if null == "exact":
            tied = [c for c in res.compared if ref_tied or _has_ties(res.ranks[c].to_numpy())]
            if tied:
                warnings.warn(f"null='exact' is the law of tie-free rankings, but "
                              f"{'the reference has' if ref_tied else f'columns {tied[:10]} have'}"
                              " ties; null='auto' tests those with the tie-preserving "
                              "permutation null", BinmetricsWarning, stacklevel=3)
        report = as_callback(progress, "srd randomization")
        for done, label in enumerate(res.compared, 1):
            if report is not None:
                report(done - 1, len(res.compared))  # a column's null is the long part
            r = res.ranks[label].to_numpy()
            obs = float(observed[label])
            use_perm = null == "permutation" or (null == "auto" and (ref_tied or _has_ties(r)))
            if use_perm:
                key = np.sort(r).tobytes()
                if key not in cache:
                    cache[key] = _permutation_null(np.sort(r), q, n_resamples, rng)
                law, kind = cache[key], ("permutation" if n <= ENUMERATE_MAX_N
                                         else "permutation (Monte Carlo)")
            else:
                law = shared
                kind = {"rsrd": f"rsrd ({tie_mode})"}.get(
                    null, "normal" if shared.normal is not None else "exact")
            lo, up = law.pvalue_lower(obs), law.pvalue_upper(obs)
            if not law.exact and law.normal is None and null != "rsrd":  # Monte Carlo
                # count the observed ranking among the draws (Phipson & Smyth 2010)
                b = n_resamples
                lo, up = (lo * b + 1) / (b + 1), (up * b + 1) / (b + 1)
            lower[label], upper[label], kinds[label] = lo, up, kind
        if report is not None and res.compared:
            report(len(res.compared), len(res.compared))
        if res.reference_column in res.values.index:  # the kept reference is not tested
            lower[res.reference_column] = upper[res.reference_column] = float("nan")
            kinds[res.reference_column] = "reference"
        self.pvalue_lower = pd.Series(lower, name="pvalue_lower", dtype=float)
        self.pvalue_upper = pd.Series(upper, name="pvalue_upper", dtype=float)
        self.null_kind = pd.Series(kinds, name="null")
        self.better_than_random = (self.pvalue_lower <= alpha).rename("better_than_random")
        scale = 100.0 / res.srd_max
        self.quantiles = {k: shared.quantile(p) * scale for k, p in QUANTILES.items()}
        if shared.normal is not None:
            grid = np.linspace(0.0, float(res.srd_max), 401)
            self.distribution = (grid * scale, stats.norm.cdf(grid, *shared.normal))
        else:
            self.distribution = (shared.support * scale, np.cumsum(shared.pmf))
        self._res = res
        best = shared.pvalue_lower(0.0)
        if best > alpha:
            warnings.warn(f"with n = {n} rows, even a ranking identical to the reference has "
                          f"p = {best:.3g} > alpha = {alpha}: no column can be shown better "
                          "than random; use more rows", BinmetricsWarning, stacklevel=3)

    def to_frame(self) -> pd.DataFrame:
        """SRD, SRD%, p-values and decision per column, closest to the reference first."""
        out = self._res.to_frame()
        return out.join([self.pvalue_lower, self.pvalue_upper, self.better_than_random,
                         self.null_kind])

    def _title(self) -> str:
        q = ", ".join(f"{k}={v:.2f}" for k, v in self.quantiles.items())
        return f"SRDRandomization({q})"

    def _shown(self) -> pd.DataFrame:
        return self.to_frame().reset_index()
