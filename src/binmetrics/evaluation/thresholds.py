"""Choosing a threshold to deploy: the best cut of a confusion measure, under
constraints on others, with the bootstrap spread of the choice and its optimism.

:class:`ThresholdMethods` is the mixin of :class:`~binmetrics.Evaluation` that holds
``best_threshold`` (and ``threshold_with_guarantee``, :mod:`.guarantee`). Every cut of
the count table is scored at once: exact over every distinct score, and a cut never
splits a group of tied scores (the cuts are between distinct scores). Among equal
optima the strictest cut wins: the highest threshold (the lowest when lower scores
mean positive).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from binmetrics.evaluation.cut_choice import (
    BestThreshold,
    all_cuts,
    best_cut,
    choose_cuts,
    cut_threshold,
    infeasible_reason,
    parse_constraints,
)
from binmetrics.exceptions import UndefinedPolicy, report_undefined, undefined_policy
from binmetrics.measures import get_measure
from binmetrics.table.counts import Confusion, CountTable

if TYPE_CHECKING:
    from binmetrics.curves import ROCCurve, ThresholdCurves
    from binmetrics.evaluation.guarantee import GuaranteedThreshold

__all__ = ["BestThreshold", "ThresholdMethods"]


class ThresholdMethods:
    """``best_threshold`` and ``threshold_with_guarantee`` of an evaluation."""

    table: CountTable
    undefined: UndefinedPolicy
    higher_is_positive: bool
    pos_label: Any

    if TYPE_CHECKING:  # provided by Evaluation
        @property
        def confusion(self) -> Confusion: ...

        def oriented(self, values: Any) -> Any: ...

        def _shown(self, c: Confusion) -> Confusion: ...

        def roc(self) -> ROCCurve: ...

        def threshold_curves(self) -> ThresholdCurves: ...

    def best_threshold(self, measure: str = "informedness", *,
                       subject_to: Any = None,
                       weights: tuple[float, float] | None = None,
                       ci: bool = False, level: float = 0.95, n_resamples: int = 2000,
                       random_state: Any = None,
                       **params: Any) -> BestThreshold:
        """The threshold whose cut optimises a confusion measure, with its value.

        Every cut of the table is scored (the measure is vectorised over the
        cumulative counts, read block by block on an unweighted table:
        :func:`~binmetrics.evaluation.cut_choice.best_cut`): exact over every distinct
        score, and a cut never splits tied scores. Higher is better unless the
        measure's direction says otherwise; among equal values the strictest cut wins
        (the highest threshold; the lowest when lower scores mean positive, whose
        thresholds are reported in the scores' own units).

        Parameters
        ----------
        measure : a confusion measure with a direction (id or alias).
        subject_to : mapping or str, optional
            Constraints on other confusion measures that the cut must meet, e.g.
            ``{"ppv": (">=", 0.9), "tnr": (">=", 0.5)}`` or ``"ppv>=0.9"``
            (:func:`parse_constraints`). A cut where a constrained measure is
            undefined does not meet it. When no cut meets them all, the result has
            NaN threshold and value, ``feasible=False`` and a ``reason`` naming the
            best value each constrained measure reaches (and one
            :class:`~binmetrics.exceptions.UndefinedMeasureWarning`).
        weights : (cost, prevalence), optional
            pROC's ``best.weights`` for ``"youden"`` and ``"closest_topleft"``.
        ci : bool, default False
            Also bootstrap the choice: ``threshold_ci``, ``value_ci`` (percentile
            intervals at ``level``), ``optimism`` and ``corrected_value`` (see
            :class:`BestThreshold`). The replicates reweight the count table
            (:func:`binmetrics.inference.resampling.bootstrap_count_blocks`,
            stratified), so no replicate sorts again; same ``random_state``, same
            intervals.
        level, n_resamples, random_state : the bootstrap's.
        **params : the measure's parameters (``beta=2``, ``cost_fn=5``...).

        pROC's ``coords(roc, "best")``: ``"closest_topleft"``, or ``"youden"`` with
        ``weights=(cost, prevalence)`` (``best.weights``), maximise pROC's criterion
        (:func:`binmetrics.curves.roc_tools.roc_criterion`); the value reported is pROC's
        (TPR + r TNR, or the weighted squared distance to the top left corner). The cut
        is pROC's ROC point; its threshold is the score (``score >= threshold``) where
        pROC gives the midpoint to the next score.

        Examples
        --------
        >>> import binmetrics as bm
        >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
        ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
        >>> best = ev.best_threshold("informedness")
        >>> best.threshold, round(best.value, 12)
        (0.5, 0.6)
        >>> best = ev.best_threshold("tpr", subject_to={"ppv": (">=", 0.8)})
        >>> best.threshold, best.value, best.confusion.fp
        (0.5, 0.8, 1)
        """
        if subject_to is None and not ci:
            special = self._criterion_best(measure, weights)
            if special is not None:
                return special
        if weights is not None:
            raise ValueError("weights=(cost, prevalence) apply to 'youden' (informedness) "
                             "and 'closest_topleft' (pROC's best.weights), without "
                             "subject_to or ci")
        m = get_measure(measure)
        if m.family != "confusion":
            raise ValueError(f"{m.id} is a {m.family} measure; best_threshold needs a "
                             "confusion measure (one that depends on the threshold)")
        if m.direction == 0:
            raise ValueError(f"{m.id} has no direction (neither higher nor lower is better)")
        p = m.resolve_params(**params)
        constraints = parse_constraints(subject_to)
        shown = tuple(str(c) for c in constraints)
        common = {"subject_to": shown, "pos_label": self.pos_label,
                  "higher_is_positive": self.higher_is_positive, "params": p}
        if not ci and not self.table.weighted and self.table.case_costs is None:
            k, value = best_cut(self.table, m, p, constraints)  # blockwise, no full arrays
            if k >= 0:
                th = cut_threshold(self.table, k)
                return BestThreshold(m.id, float(self.oriented(th)), value,
                                     self._shown(self.table.confusion(th)), **common)
        cuts = all_cuts(self.table)
        with undefined_policy("ignore"):
            values = np.asarray(m.func(cuts, **p), dtype=np.float64)
            limits = [np.asarray(get_measure(c.measure).func(cuts), dtype=np.float64)
                      for c in constraints]
        ok = np.ones(values.shape, dtype=bool)
        for c, v in zip(constraints, limits, strict=True):
            ok &= c.holds(v)
        k = int(choose_cuts(values, ok, m.direction))
        if k < 0:
            if constraints and not ok.any():
                reason = infeasible_reason(constraints, limits,
                                            joint=all(c.holds(v).any() for c, v in
                                                      zip(constraints, limits, strict=True)))
            else:
                reason = "it is undefined at every threshold" + (
                    " that meets the constraints" if constraints else "")
            with undefined_policy(self.undefined):
                report_undefined(m.id, reason)
            nan = float("nan")
            return BestThreshold(m.id, nan, nan, Confusion(nan, nan, nan, nan),
                                 feasible=False, reason=reason, **common)
        th = cut_threshold(self.table, k)
        best = BestThreshold(m.id, float(self.oriented(th)), float(values[k]),
                             self._shown(self.table.confusion(th)), **common)
        if not ci:
            return best
        from binmetrics.evaluation.threshold_ci import bootstrap_choice

        return bootstrap_choice(self.table, best, m, p, constraints, k, values,
                                level=level, n_resamples=n_resamples,
                                random_state=random_state, undefined=self.undefined,
                                oriented=self.oriented)

    def _criterion_best(self, measure: str,
                        weights: tuple[float, float] | None) -> BestThreshold | None:
        """pROC's criteria read off the ROC curve, or None for a registry measure."""
        criterion = measure if measure == "closest_topleft" else (
            "youden" if weights is not None and get_measure(measure).id == "informedness"
            else None)
        if criterion is None:
            return None
        from binmetrics.curves.roc_tools import roc_criterion

        roc = self.roc()
        crit = roc_criterion(roc.tpr, roc.fpr, criterion, weights)
        k = int(np.nanargmax(crit)) if not np.all(np.isnan(crit)) else 0
        th = cut_threshold(self.table, k)
        value = -float(crit[k]) if criterion == "closest_topleft" else float(crit[k])
        return BestThreshold(criterion, self.oriented(th), value,
                             self._shown(self.table.confusion(th)),
                             pos_label=self.pos_label,
                             higher_is_positive=self.higher_is_positive)

    def threshold_with_guarantee(self, measure: str, *, at_least: float | None = None,
                                 at_most: float | None = None,
                                 level: float = 0.95) -> GuaranteedThreshold:
        """The most lenient cut whose measure is guaranteed, with confidence ``level``,
        to be at least ``at_least`` (or at most ``at_most``): see
        :func:`binmetrics.evaluation.guarantee.threshold_with_guarantee`.

        Examples
        --------
        >>> import binmetrics as bm
        >>> y = [1] * 40 + [0] * 2 + [1] * 10 + [0] * 48
        >>> s = [1 - i / 100 for i in range(100)]
        >>> g = bm.evaluate(y, s).threshold_with_guarantee("ppv", at_least=0.8)
        >>> round(g.threshold, 2), g.confusion.tp, g.confusion.fp
        (0.46, 50, 5)
        """
        from binmetrics.evaluation.guarantee import threshold_with_guarantee

        return threshold_with_guarantee(self, measure, at_least=at_least,
                                        at_most=at_most, level=level)

