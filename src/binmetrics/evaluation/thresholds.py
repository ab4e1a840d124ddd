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

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from binmetrics.exceptions import UndefinedPolicy, report_undefined, undefined_policy
from binmetrics.formatting import Tabular
from binmetrics.measures import get_measure
from binmetrics.table.counts import Confusion, CountTable, FloatArray

if TYPE_CHECKING:
    import pandas as pd

    from binmetrics.curves import ROCCurve, ThresholdCurves
    from binmetrics.evaluation.guarantee import GuaranteedThreshold
    from binmetrics.inference.intervals import Interval

__all__ = ["BestThreshold", "Constraint", "ThresholdMethods", "choose_cuts",
           "parse_constraints"]

#: the comparison operators of a constraint
_OPERATORS = {">=": np.greater_equal, "<=": np.less_equal,
              ">": np.greater, "<": np.less}
_TEXT = re.compile(r"^\s*([A-Za-z_][\w ]*?)\s*(>=|<=|>|<)\s*([-+0-9.eE]+)\s*$")


@dataclass(frozen=True)
class Constraint:
    """One constraint of ``best_threshold(subject_to=...)``: ``measure op bound``."""

    measure: str
    op: str
    bound: float

    def holds(self, values: FloatArray) -> npt.NDArray[np.bool_]:
        """Where the constraint holds (never where the measure is NaN)."""
        with np.errstate(invalid="ignore"):
            return np.asarray(_OPERATORS[self.op](values, self.bound))

    def __str__(self) -> str:
        return f"{self.measure} {self.op} {self.bound:g}"


def parse_constraints(subject_to: Any) -> tuple[Constraint, ...]:
    """``subject_to`` as constraints: a mapping ``{"ppv": (">=", 0.9), ...}``, or text
    ``"ppv>=0.9"`` (one, or several in a list or joined by commas).

    Each measure must be a confusion measure (one that depends on the cut), each
    operator one of ``>=``, ``<=``, ``>``, ``<``, each bound inside the measure's range.

    Examples
    --------
    >>> parse_constraints({"precision": (">=", 0.9)})
    (Constraint(measure='ppv', op='>=', bound=0.9),)
    >>> [str(c) for c in parse_constraints("ppv>=0.9, tnr >= 0.5")]
    ['ppv >= 0.9', 'tnr >= 0.5']
    """
    if subject_to is None:
        return ()
    items: list[tuple[Any, Any]] = []
    if isinstance(subject_to, str):
        subject_to = [part for part in subject_to.split(",") if part.strip()]
    if isinstance(subject_to, Mapping):
        items = list(subject_to.items())
    elif isinstance(subject_to, (list, tuple)):
        for text in subject_to:
            found = _TEXT.match(str(text))
            if found is None:
                raise ValueError(f"cannot read the constraint {text!r}: write it as "
                                 "'measure>=bound', e.g. 'ppv>=0.9'")
            items.append((found.group(1), (found.group(2), found.group(3))))
    else:
        raise TypeError("subject_to must map a measure to (operator, bound), e.g. "
                        f"{{'ppv': ('>=', 0.9)}}; got {subject_to!r}")
    out = []
    for name, rule in items:
        m = get_measure(str(name).strip())
        if m.family != "confusion":
            raise ValueError(f"a constraint needs a confusion measure (one that depends on "
                             f"the cut); {m.id} is a {m.family} measure")
        if not (isinstance(rule, (tuple, list)) and len(rule) == 2):
            raise ValueError(f"the constraint on {m.id} must be (operator, bound), e.g. "
                             f"('>=', 0.9); got {rule!r}")
        op, bound = rule
        if op not in _OPERATORS:
            raise ValueError(f"unknown operator {op!r} in the constraint on {m.id}; "
                             f"use one of {', '.join(_OPERATORS)}")
        try:
            b = float(bound)
        except (TypeError, ValueError):
            raise TypeError(f"the bound of the constraint on {m.id} must be a number, "
                            f"got {bound!r}") from None
        low, high = m.range
        if not low <= b <= high:
            raise ValueError(f"the bound {b:g} on {m.id} is outside its range "
                             f"[{low:g}, {high:g}]; pass a bound inside it")
        out.append(Constraint(m.id, str(op), b))
    return tuple(out)


def choose_cuts(values: FloatArray, ok: npt.NDArray[np.bool_],
                direction: int) -> npt.NDArray[np.intp]:
    """The best cut along the last axis: the highest value (lowest when ``direction``
    is -1) among the cuts where ``ok`` holds and the value is defined, the first
    (strictest) among equal ones; -1 where no cut qualifies.

    Examples
    --------
    >>> v = np.array([[0.2, 0.5, 0.5, 0.9], [0.1, 0.3, np.nan, 0.2]])
    >>> ok = np.array([[True, True, True, False], [False, False, True, False]])
    >>> choose_cuts(v, ok, 1).tolist()
    [1, -1]
    """
    valid = ok & ~np.isnan(values)
    score = np.where(valid, values if direction > 0 else -values, -np.inf)
    k = np.argmax(score, axis=-1)
    best = np.take_along_axis(score, k[..., None], axis=-1)[..., 0]
    # a valid -inf optimum: argmax took the first -inf, valid or not
    low = best == -np.inf
    if np.any(low):
        k = np.where(low, np.argmax(valid, axis=-1), k)
    return np.where(valid.any(axis=-1), k, -1).astype(np.intp)


@dataclass(frozen=True, repr=False)
class BestThreshold(Tabular):
    """The cut that optimises a confusion measure: ``score >= threshold`` is positive
    (``<=`` when lower scores mean positive).

    Attributes
    ----------
    measure : the measure optimised (its id, or pROC's criterion).
    threshold, value, confusion : the cut, the measure's value there, and its counts;
        NaN thresholds and values when no cut meets the constraints.
    subject_to : the constraints, as text (``"ppv >= 0.9"``).
    feasible : False when no cut meets the constraints; ``reason`` says why and
        names the best value of each constraint's measure that any cut reaches.
    threshold_ci, value_ci : with ``ci=True``, bootstrap percentile intervals of the
        cut chosen on each replicate and of its value there.
    optimism : with ``ci=True``, Efron's bootstrap optimism: the mean, over replicates,
        of the value of the replicate's own best cut on the replicate minus its value
        on the data; ``corrected_value`` is ``value - optimism`` (Harrell, *Regression
        Modeling Strategies*, 2nd ed., §5.3.5; Efron & Tibshirani 1993, §17.6).
    n_resamples, n_undefined : replicates drawn, and those with no feasible cut.
    """

    measure: str
    threshold: float
    value: float
    confusion: Confusion
    subject_to: tuple[str, ...] = ()
    feasible: bool = True
    reason: str = ""
    threshold_ci: Interval | None = None
    value_ci: Interval | None = None
    optimism: float = float("nan")
    corrected_value: float = float("nan")
    n_resamples: int = 0
    n_undefined: int = 0
    pos_label: Any = field(default=1, repr=False)
    higher_is_positive: bool = field(default=True, repr=False)
    threshold_replicates: FloatArray | None = field(default=None, repr=False)

    def to_frame(self) -> pd.DataFrame:
        """One row: measure, threshold, value, the counts, the constraints and (with
        ``ci=True``) the intervals and optimism."""
        from binmetrics.formatting import record_frame

        frame = record_frame(self)
        if self.threshold_ci is None:
            drop = [c for c in frame.columns if c in (
                "threshold_ci", "value_ci", "optimism", "corrected_value", "n_resamples",
                "n_undefined")]
            frame = frame.drop(columns=drop)
        if not self.subject_to:
            frame = frame.drop(columns=[c for c in ("subject_to", "feasible", "reason")
                                        if c in frame.columns])
        return frame

    def to_sklearn(self, estimator: Any, *, response_method: str = "auto") -> Any:
        """A scikit-learn ``FixedThresholdClassifier`` that predicts with this cut.

        Parameters
        ----------
        estimator : a fitted scikit-learn classifier (wrapped in a ``FrozenEstimator``
            so that fitting the classifier does not refit it).
        response_method : {"auto", "predict_proba", "decision_function"}
            The scores the threshold was chosen on: ``predict_proba``'s column of the
            positive class, or ``decision_function``; "auto" is scikit-learn's (the
            probabilities if the estimator has them).

        The classifier predicts ``pos_label`` where ``score >= threshold``, as
        ``best_threshold`` counted the cut. Needs scikit-learn >= 1.6.

        Examples
        --------
        >>> import numpy as np, binmetrics as bm
        >>> from sklearn.linear_model import LogisticRegression
        >>> X = np.array([[0.], [1.], [2.], [3.], [4.], [5.]]); y = np.array([0, 0, 1, 0, 1, 1])
        >>> model = LogisticRegression().fit(X, y)
        >>> best = bm.evaluate(y, model.predict_proba(X)[:, 1]).best_threshold("f1")
        >>> clf = best.to_sklearn(model)
        >>> clf.predict(X).tolist()
        [0, 0, 1, 1, 1, 1]
        """
        if not self.higher_is_positive:
            raise ValueError("scikit-learn's FixedThresholdClassifier predicts positive "
                             "where score >= threshold; this cut was chosen with lower "
                             "scores meaning positive: evaluate -score instead")
        if not math.isfinite(self.threshold):
            raise ValueError(f"there is no finite cut to deploy (threshold "
                             f"{self.threshold}): {self.reason or 'no cut was chosen'}")
        try:
            from sklearn.frozen import FrozenEstimator
            from sklearn.model_selection import FixedThresholdClassifier
        except ImportError:
            raise ImportError("to_sklearn needs scikit-learn >= 1.6: pip install "
                              "'scikit-learn>=1.6'") from None
        if response_method not in ("auto", "predict_proba", "decision_function"):
            raise ValueError("response_method must be 'auto', 'predict_proba' or "
                             f"'decision_function'; got {response_method!r}")
        frozen = estimator if isinstance(estimator, FrozenEstimator) else \
            FrozenEstimator(estimator)
        clf = FixedThresholdClassifier(frozen, threshold=float(self.threshold),
                                       pos_label=self.pos_label,
                                       response_method=response_method)
        classes = getattr(estimator, "classes_", None)
        if classes is not None:  # fit only records the classes: nothing is refitted
            clf.fit(np.zeros((len(classes), 1)), np.asarray(classes))
        return clf

    def _title(self) -> str:
        head = f"BestThreshold ({self.measure}"
        if self.subject_to:
            head += " subject to " + ", ".join(self.subject_to)
        return head + ")" + ("" if self.feasible else ": infeasible")


def _infeasible_reason(constraints: tuple[Constraint, ...],
                       values: list[FloatArray], joint: bool) -> str:
    """Why no cut meets the constraints, naming the best value each measure reaches."""
    parts = []
    for c, v in zip(constraints, values, strict=True):
        if np.all(np.isnan(v)):
            parts.append(f"{c.measure} is undefined at every cut")
            continue
        best = float(np.nanmax(v)) if c.op in (">=", ">") else float(np.nanmin(v))
        word = "highest" if c.op in (">=", ">") else "lowest"
        met = bool(c.holds(v).any())
        parts.append(f"{c} {'is met by some cuts' if met else 'is met by no cut'}: the "
                     f"{word} {c.measure} of any cut is {best:.6g}")
    lead = "no cut meets the constraints together" if joint else "no cut meets"
    return lead + " (" + "; ".join(parts) + ")"


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

        Every cut of the table is scored at once (the measure is vectorised over
        the cumulative counts): exact over every distinct score, and a cut never
        splits tied scores. Higher is better unless the measure's direction says
        otherwise; among equal values the strictest cut wins (the highest
        threshold; the lowest when lower scores mean positive, whose thresholds are
        reported in the scores' own units).

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
        cuts = self.table.cuts()
        with undefined_policy("ignore"):
            values = np.asarray(m.func(cuts, **p), dtype=np.float64)
            limits = [np.asarray(get_measure(c.measure).func(cuts), dtype=np.float64)
                      for c in constraints]
        ok = np.ones(values.shape, dtype=bool)
        for c, v in zip(constraints, limits, strict=True):
            ok &= c.holds(v)
        k = int(choose_cuts(values, ok, m.direction))
        shown = tuple(str(c) for c in constraints)
        common = {"subject_to": shown, "pos_label": self.pos_label,
                  "higher_is_positive": self.higher_is_positive}
        if k < 0:
            if constraints and not ok.any():
                reason = _infeasible_reason(constraints, limits,
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
        th = float(self.table.thresholds()[k])
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
        th = float(self.table.thresholds()[k])
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

