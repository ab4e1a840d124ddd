"""The bootstrap of a chosen cut (``best_threshold(..., ci=True)``): the spread of the cut
and of its value, and the optimism of choosing it on the same data.

Each replicate is a block row of count matrices over the evaluation's own sorted table
(:func:`binmetrics.inference.resampling.bootstrap_count_blocks`): its cumulative sums are
the confusion matrices of every cut at once, so the best cut of B replicates costs B
cumulative sums and no sort. A replicate's cut k is the original table's cut k (the top
k distinct scores); since the strictest of equal optima wins, a replicate never chooses
a score it did not draw.

Optimism (Efron 1983; Efron & Tibshirani 1993, §17.6; Harrell, *Regression Modeling
Strategies*, §5.3.5): with ``k_b`` the cut chosen on replicate b,
``optimism = mean_b [value_b(k_b) - value(k_b)]``, the value of the replicate's choice on
the replicate minus its value on the data; ``corrected_value = value - optimism``.

When the measure and every constraint are declared ``monotone_in_fp`` (the constraints
bounding them from the side that fewer false positives keep), the table unweighted and
without per-case costs, the replicates are summed only at the cuts ending at a score
holding positives and those above the first such score
(:mod:`binmetrics.inference.cut_blocks`): the same choices from the same draws, at a
fraction of the cost (benchmarks/bench_thresholds.py).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from binmetrics.backends import THREAD_ROWS, thread_imap
from binmetrics.evaluation.cut_choice import choose_cuts, keeps_on_fewer_fp
from binmetrics.exceptions import (
    UndefinedMeasureError,
    UndefinedMeasureWarning,
    UndefinedPolicy,
    undefined_policy,
    warn_at_user,
)
from binmetrics.inference.cut_blocks import positive_cut_streams, positive_cuts
from binmetrics.inference.intervals import Interval
from binmetrics.inference.resampling import bootstrap_count_streams, quantiles
from binmetrics.measures import Measure, get_measure
from binmetrics.table.counts import Confusion, CountTable, FloatArray
from binmetrics.validation import check_level

if TYPE_CHECKING:
    from binmetrics.evaluation.cut_choice import BestThreshold, Constraint

__all__ = ["bootstrap_choice"]


def _cumulative(counts: Any) -> FloatArray:
    b, g = counts.shape
    out = np.zeros((b, g + 1))
    np.cumsum(counts, axis=1, out=out[:, 1:])
    return out


def _block_cuts(table: CountTable, pos: Any, neg: Any) -> Confusion:
    """The confusion matrices of every cut of each replicate row: (b, G + 1) arrays; with
    per-case costs each drawn case costs its group's mean
    (:mod:`binmetrics.evaluation.case_costs`)."""
    tp, fp = _cumulative(pos), _cumulative(neg)
    costs: dict[str, Any] = {}
    if table.case_costs is not None:
        cfp, cfn = table.case_costs
        with np.errstate(divide="ignore", invalid="ignore"):
            mfp = np.where(table.neg > 0, cfp / table.neg, 0.0)
            mfn = np.where(table.pos > 0, cfn / table.pos, 0.0)
        a, b = _cumulative(neg * mfp), _cumulative(pos * mfn)
        costs = {"fp_cost": a, "fn_cost": b[:, -1:] - b}
    return Confusion(tp=tp, fp=fp, fn=tp[:, -1:] - tp, tn=fp[:, -1:] - fp, **costs)


def _replicate_streams(table: CountTable, m: Measure, constraints: tuple[Constraint, ...],
                       n_resamples: int, random_state: Any
                       ) -> tuple[list[tuple[int, Callable[[], Iterator[Confusion]]]],
                                  npt.NDArray[np.intp] | None]:
    """The replicates' confusion blocks as streams (each ``(replicates, blocks)``, drawn
    by its own generator: the same blocks in any thread) and the cut of each column
    (None: every cut)."""
    if m.monotone_in_fp and all(keeps_on_fewer_fp(c) for c in constraints) and \
            not table.weighted and table.case_costs is None and table.P > 0 and table.N > 0:
        return (positive_cut_streams(table, n_resamples, random_state=random_state),
                positive_cuts(table))

    def cuts_of(counts: Callable[[], Iterator[Any]]) -> Iterator[Confusion]:
        return (_block_cuts(table, pos, neg) for pos, neg in counts())

    streams = bootstrap_count_streams(table, n_resamples, random_state=random_state)
    return [(b, functools.partial(cuts_of, counts)) for b, counts in streams], None


def bootstrap_choice(table: CountTable, best: BestThreshold, m: Measure,
                     params: dict[str, Any], constraints: tuple[Constraint, ...], k: int,
                     values: FloatArray, *, level: float, n_resamples: int,
                     random_state: Any, undefined: UndefinedPolicy,
                     oriented: Callable[[Any], Any]) -> BestThreshold:
    """``best`` with the bootstrap of its choice (see the module docstring)."""
    lv = check_level(level)
    thresholds = table.thresholds()
    streams, cuts = _replicate_streams(table, m, constraints, n_resamples, random_state)

    def choose(item: tuple[int, Callable[[], Iterator[Confusion]]]
               ) -> list[tuple[FloatArray, FloatArray]]:
        """Each block's chosen cut per replicate (-1: none feasible) and its value."""
        out = []
        with undefined_policy("ignore"), np.errstate(divide="ignore", invalid="ignore"):
            for c in item[1]():
                v = np.asarray(m.func(c, **params), dtype=np.float64)
                ok = np.ones(v.shape, dtype=bool)
                for con in constraints:
                    ok &= con.holds(np.asarray(get_measure(con.measure).func(c),
                                               dtype=np.float64))
                ks = choose_cuts(v, ok, m.direction)
                got = v[np.arange(v.shape[0]), np.maximum(ks, 0)]
                if cuts is not None:  # the column's cut
                    ks = np.where(ks >= 0, cuts[np.maximum(ks, 0)], -1)
                out.append((np.where(ks >= 0, ks, -1).astype(np.float64),
                            np.where(ks >= 0, got, np.nan)))
        return out

    # streams in parallel threads on large tables: NumPy's draws, counts and cumulative
    # sums release the GIL, and each stream's draws are its own whatever the thread
    parallel = len(streams) > 1 and table.total >= THREAD_ROWS
    done = [pair for got in thread_imap(choose, streams, parallel=parallel) for pair in got]
    chosen = [c for c, _ in done]
    on_rep = [v for _, v in done]
    ks_all = np.concatenate(chosen).astype(np.intp)
    rep_values = np.concatenate(on_rep)
    defined = ks_all >= 0
    n_undefined = int(np.count_nonzero(~defined))
    if n_undefined and undefined != "ignore":
        reason = f"no cut met the constraints in {n_undefined} of {ks_all.size} replicates"
        msg = (f"best {m.id} is undefined in {n_undefined} of {ks_all.size} bootstrap "
               "replicates (no cut met the constraints); the intervals and the optimism "
               "use the others")
        if undefined == "raise":
            raise UndefinedMeasureError(msg)
        warn_at_user(UndefinedMeasureWarning(msg, (m.id,), reason))
    ths = np.where(defined, oriented(thresholds[np.maximum(ks_all, 0)]), np.nan)
    nan = float("nan")
    tail = (1.0 - lv) / 2.0
    used = ths[defined]
    if used.size:
        t_lo, t_hi = quantiles(used, [tail, 1.0 - tail])
        if t_lo > t_hi:  # lower scores mean positive: the thresholds are negated
            t_lo, t_hi = t_hi, t_lo
        v_lo, v_hi = quantiles(rep_values[defined], [tail, 1.0 - tail])
        optimism = float(np.mean(rep_values[defined] - values[ks_all[defined]]))
    else:
        t_lo = t_hi = v_lo = v_hi = optimism = nan
    method = "bootstrap-percentile"
    return dataclasses.replace(
        best,
        threshold_ci=Interval(best.threshold, t_lo, t_hi, lv, method),
        value_ci=Interval(best.value, v_lo, v_hi, lv, method),
        optimism=optimism, corrected_value=best.value - optimism,
        n_resamples=int(ks_all.size), n_undefined=n_undefined,
        threshold_replicates=ths)
