"""One threshold per group under a fairness constraint, on the groups' exact curves.

fairlearn's ``ThresholdOptimizer`` (Hardt et al., 2016) chooses group-specific thresholds
that optimise an objective subject to a parity constraint, on a grid of thresholds and
with randomised decisions. Here the candidates are every cut of every group's count table
(no grid, no randomisation) and the constraint is a band: every group's rate lies in
[tau, tau + tolerance], so the largest gap is at most ``tolerance``; every feasible choice
lies in the band whose tau is its smallest rate. For each level tau (every rate some
group reaches), each group starts at its cut closest to tau inside the band, then the
groups are revisited in turn, each taking the cut inside its band that maximises the
measure on the summed confusion matrix of all groups, until no group changes (coordinate
ascent: a local optimum for that tau, the best tau kept; on the tests' data it equals the
exhaustive search). The result also gives the best single threshold for all groups, so
the price of the constraint can be read off.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from binmetrics.exceptions import undefined_policy
from binmetrics.formatting import Tabular
from binmetrics.measures import Measure, get_measure
from binmetrics.table.counts import Confusion, FloatArray

if TYPE_CHECKING:
    from binmetrics.evaluation.binary import Evaluation

__all__ = ["CONSTRAINTS", "GroupThresholds", "best_group_thresholds"]

#: constraint -> the rate it equalises (a function of a cut's confusion counts)
CONSTRAINTS = {
    "equal_opportunity": "tpr",
    "demographic_parity": "selection_rate",
    "predictive_equality": "fpr",
}


@dataclass(frozen=True, eq=False, repr=False)
class GroupThresholds(Tabular):
    """Group thresholds meeting a constraint (:meth:`ByResult.best_thresholds`).

    Attributes
    ----------
    measure, constraint : str
    tolerance : float
        The largest gap in the constrained rate allowed between groups.
    value : float
        The measure on all the rows with each group cut at its threshold.
    single_threshold, single_value : float
        The best one threshold for every group and the measure there (the cost of the
        constraint is ``single_value - value``, when that single cut breaks it).
    frame : pandas.DataFrame
        One row per group: its key(s), ``threshold`` (``score >= threshold`` positive;
        inf: nothing), the constrained ``rate``, and the group's own ``value``.
    """

    measure: str
    constraint: str
    tolerance: float
    value: float
    single_threshold: float
    single_value: float
    frame: pd.DataFrame

    def to_frame(self) -> pd.DataFrame:
        """The groups' thresholds (a copy of :attr:`frame`)."""
        return self.frame.copy()

    def _title(self) -> str:
        return (f"GroupThresholds({self.measure} = {self.value:.4g} under "
                f"{self.constraint} (tolerance {self.tolerance:g}); one threshold "
                f"{self.single_threshold:.4g}: {self.single_value:.4g})")


def _rate(rate: str, c: Confusion) -> FloatArray:
    with np.errstate(divide="ignore", invalid="ignore"):
        if rate == "tpr":
            return np.asarray(c.tp / (c.tp + c.fn), dtype=float)
        if rate == "fpr":
            return np.asarray(c.fp / (c.fp + c.tn), dtype=float)
        return np.asarray((c.tp + c.fp) / (c.tp + c.fp + c.fn + c.tn), dtype=float)


def best_group_thresholds(evaluations: dict[Any, Evaluation | None], by: list[str], measure: Any,
                          constraint: str, tolerance: float) -> GroupThresholds:
    """The search of the module docstring over the evaluated groups' cuts."""
    m: Measure = get_measure(measure)
    if m.family != "confusion":
        raise ValueError(f"best_thresholds optimises a confusion measure; {m.id} is a "
                         f"{m.family} measure")
    if constraint not in CONSTRAINTS:
        raise ValueError(f"constraint must be one of {', '.join(CONSTRAINTS)}; "
                         f"got {constraint!r}")
    tol = float(tolerance)
    if not (tol >= 0 and math.isfinite(tol)):
        raise ValueError(f"tolerance must be a finite number >= 0; got {tolerance!r}")
    evs = {k: ev for k, ev in evaluations.items() if ev is not None}
    keys = list(evs)
    if len(keys) < 2:
        raise ValueError("best_thresholds needs at least two evaluated groups")
    rate = CONSTRAINTS[constraint]
    cuts = [evs[k].table.cuts() for k in keys]
    counts = [np.vstack([c.tp, c.fp, c.fn, c.tn]).astype(float) for c in cuts]
    rates = [_rate(rate, c) for c in cuts]
    params = m.resolve_params()

    def overall(total: FloatArray) -> FloatArray:
        with undefined_policy("ignore"):
            v = m.func(Confusion(tp=total[0], fp=total[1], fn=total[2], tn=total[3]),
                       **params)
        return np.nan_to_num(np.asarray(v, dtype=float), nan=-np.inf)

    sign = -1.0 if m.direction < 0 else 1.0
    best: tuple[float, list[int]] | None = None
    levels = np.unique(np.concatenate([r[np.isfinite(r)] for r in rates]))
    for tau in levels:
        band = [np.flatnonzero((r >= tau - 1e-12) & (r <= tau + tol + 1e-12)) for r in rates]
        if any(b.size == 0 for b in band):
            continue
        choice = [int(b[np.argmin(np.abs(r[b] - tau))]) for b, r in zip(band, rates,
                                                                         strict=True)]
        for _ in range(20):
            changed = False
            for g, b in enumerate(band):
                rest = sum(counts[h][:, choice[h]] for h in range(len(keys)) if h != g)
                scores = sign * overall(counts[g][:, b] + np.asarray(rest)[:, None])
                pick = int(b[int(np.argmax(scores))])
                if pick != choice[g]:
                    choice[g], changed = pick, True
            if not changed:
                break
        total = sum(counts[g][:, choice[g]] for g in range(len(keys)))
        v = float(sign * overall(np.asarray(total)[:, None])[0])
        if best is None or v > best[0]:
            best = (v, choice)
    if best is None:
        raise ValueError(f"no thresholds keep every group's {rate} within {tol:g} of each "
                         "other; raise tolerance")
    value, choice = sign * best[0], best[1]
    rows = []
    for k, g, c in zip(keys, range(len(keys)), choice, strict=True):
        ev = evs[k]
        th = float(ev.table.thresholds()[c])
        parts = k if isinstance(k, tuple) else (k,)
        own = counts[g][:, c]
        rows.append({**dict(zip(by, parts, strict=True)),
                     "threshold": float(ev.oriented(th)) if math.isfinite(th) else th,
                     "rate": float(rates[g][c]),
                     "value": float(overall(own[:, None])[0] * 1.0)})
    frame = pd.DataFrame(rows)
    frame["value"] = frame["value"].replace(-np.inf, np.nan)
    # the best single threshold: every distinct score of any group
    all_scores = np.unique(np.concatenate([evs[k].table.scores for k in keys]))
    single = np.zeros((4, all_scores.size))
    for k in keys:
        t = evs[k].table
        at = np.searchsorted(-t.scores, -all_scores, side="right")  # cuts at >= score
        single += np.vstack([t.tp[at], t.fp[at], t.P - t.tp[at], t.N - t.fp[at]])
    sv = sign * overall(single)
    i = int(np.argmax(sv))
    ev0 = evs[keys[0]]
    return GroupThresholds(measure=m.id, constraint=constraint, tolerance=tol,
                           value=float(value), single_threshold=float(
                               ev0.oriented(all_scores[i])), single_value=float(sign * sv[i]),
                           frame=frame)
