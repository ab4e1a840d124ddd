"""The parts of choosing a cut: constraints, the best cut of many tables at once, and
the result, :class:`BestThreshold` (used by :mod:`binmetrics.evaluation.thresholds`
and the bootstrap of :mod:`binmetrics.evaluation.threshold_ci`)."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from binmetrics.exceptions import undefined_policy
from binmetrics.formatting import Tabular
from binmetrics.measures import Measure, get_measure
from binmetrics.measures.cut_scan import (
    cut_blocks,
    first_change,
    ignores_fp,
    monotone_along_cuts,
)
from binmetrics.table.counts import Confusion, CountTable, FloatArray

if TYPE_CHECKING:
    import pandas as pd

    from binmetrics.inference.intervals import Interval

__all__ = ["BestThreshold", "Constraint", "all_cuts", "best_cut", "choose_cuts", "cut_threshold",
           "feasible_cuts", "infeasible_reason", "keeps_on_fewer_fp", "parse_constraints"]

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

    def __str__(self) -> str:  # the bound as short as it reads back exactly
        short = f"{self.bound:g}"
        bound = short if float(short) == self.bound else repr(self.bound)
        return f"{self.measure} {self.op} {bound}"


def parse_constraints(subject_to: Any) -> tuple[Constraint, ...]:
    """``subject_to`` as constraints: a mapping ``{"ppv": (">=", 0.9), ...}``, or text
    ``"ppv>=0.9"`` (one, or several in a list or joined by commas), or
    :class:`Constraint` objects (a list of them and of texts).

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
            if isinstance(text, Constraint):
                items.append((text.measure, (text.op, text.bound)))
                continue
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


def all_cuts(table: CountTable) -> Confusion:
    """The confusion matrices of every cut (:meth:`CountTable.cuts`); for whole-number
    counts FN and TN as ``P - TP`` and ``N - FP``, exact and cheaper than the weighted
    tables' sums from the bottom."""
    if table.weighted or table.case_costs is not None:
        return table.cuts()
    tp, fp = table.tp, table.fp
    return Confusion(tp=tp, fp=fp, fn=float(table.P) - tp, tn=float(table.N) - fp)


def feasible_cuts(table: CountTable, constraints: tuple[Constraint, ...]
                  ) -> npt.NDArray[np.bool_]:
    """Where every constraint holds, over the cuts (length ``n_distinct + 1``; cut k's
    threshold is ``table.thresholds()[k]``): the cuts ``best_threshold(subject_to=...)``
    chooses among. A cut where a constrained measure is undefined does not meet it;
    without constraints every cut is feasible.

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 1, 0, 1, 0, 0], [.9, .8, .7, .6, .5, .4])
    >>> feasible_cuts(t, parse_constraints("ppv>=0.7, tpr>=0.5")).tolist()
    [False, False, True, False, True, False, False]
    """
    ok = np.ones(table.n_distinct + 1, dtype=bool)
    if not constraints:
        return ok
    cuts = all_cuts(table)
    with undefined_policy("ignore"):
        for c in constraints:
            ok &= c.holds(np.asarray(get_measure(c.measure).func(cuts), dtype=np.float64))
    return ok


def best_cut(table: CountTable, m: Measure, params: Mapping[str, Any],
             constraints: tuple[Constraint, ...]) -> tuple[int, float]:
    """``(k, value)``: the cut ``best_threshold`` chooses on an unweighted table without
    per-case costs, and the measure there; ``(-1, nan)`` when none qualifies. The same
    choice as :func:`choose_cuts` over every cut (the best defined value among the cuts
    meeting every constraint, the strictest of equal ones), read block by block
    (:func:`~binmetrics.measures.cut_scan.cut_blocks`): a constraint on a measure
    monotone along the cuts (:func:`~binmetrics.measures.cut_scan.monotone_along_cuts`:
    TPR, TNR, FPR, FNR) holds on a run of cuts found by binary search
    (:func:`~binmetrics.measures.cut_scan.first_change`) and only that run is read; a
    monotone measure is read from its better end and the scan stops at the first block
    that cannot reach the best value so far. When the measure and every constraint
    never get worse with fewer false positives (``monotone_in_fp``: F1, MCC, the TPR,
    precision at a floor...), only the cuts ending at a score holding positives are
    scored.

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 1, 0, 1, 0, 0], [.9, .8, .7, .6, .5, .4])
    >>> best_cut(t, get_measure("tpr"), {}, parse_constraints("ppv>=0.7"))
    (4, 1.0)
    """
    if table.weighted or table.case_costs is not None:
        raise ValueError("best_cut reads unweighted tables without per-case costs")
    P, N = float(table.P), float(table.N)

    def cuts(tp: FloatArray, fp: FloatArray) -> Confusion:  # as all_cuts builds them
        return Confusion(tp=tp, fp=fp, fn=P - tp, tn=N - fp)

    if m.monotone_in_fp and all(keeps_on_fewer_fp(c) for c in constraints) and \
            table.P > 0:
        return _best_positive_cut(table, m, params, constraints, cuts)
    first, stop = 0, table.n_distinct + 1
    rest = []
    with undefined_policy("ignore"), np.errstate(divide="ignore", invalid="ignore"):
        for c in constraints:
            cm = get_measure(c.measure)
            if monotone_along_cuts(cm) == 0:
                rest.append((c, cm))
                continue
            pred = functools.partial(_holds_at, c, cm, cuts)
            change = first_change(table, pred)
            if bool(pred(np.zeros(1), np.zeros(1))[0]):
                stop = min(stop, change)  # holds on the cuts before the change
            else:
                first = max(first, change)  # holds from the change on
        toward = monotone_along_cuts(m) * m.direction  # +1: better on more lenient cuts
        best_k, best_v, best_s = -1, float("nan"), -np.inf
        for k0, tp, fp in cut_blocks(table, first, stop, reverse=toward > 0):
            block = cuts(tp, fp)
            ok: npt.NDArray[np.bool_] | None = None
            for con, cm in rest:
                met = con.holds(np.asarray(cm.func(block), dtype=np.float64))
                ok = met if ok is None else np.logical_and(ok, met, out=ok)
            if ok is None or ok.any():  # else no cut of the block qualifies
                v = np.asarray(m.func(block, **params), dtype=np.float64)
                i = int(choose_cuts(v, np.ones(v.shape, dtype=bool) if ok is None else ok,
                                    m.direction))
                if i >= 0:
                    s = float(v[i]) * m.direction
                    if best_k < 0 or s > best_s or (s == best_s and k0 + i < best_k):
                        best_k, best_v, best_s = k0 + i, float(v[i]), s
            if toward and best_k >= 0:  # the blocks left are no better than this edge
                end = slice(0, 1) if toward > 0 else slice(-1, None)
                edge = float(np.asarray(m.func(cuts(tp[end], fp[end]), **params))[0])
                if edge * m.direction < best_s or (toward < 0 and edge * m.direction <= best_s):
                    break
    return best_k, best_v


def keeps_on_fewer_fp(con: Constraint) -> bool:
    """Whether a cut meeting ``con`` still meets it with fewer false positives: its
    measure does not depend on them (:func:`~binmetrics.measures.cut_scan.ignores_fp`),
    or is declared ``monotone_in_fp`` and bounded from the side it improves on."""
    cm = get_measure(con.measure)
    if ignores_fp(cm):  # the same at every cut with the same TP (TPR, FNR): any bound
        return True
    if not cm.monotone_in_fp:
        return False
    return (con.op in (">=", ">")) if cm.direction > 0 else (con.op in ("<=", "<"))


def _best_positive_cut(table: CountTable, m: Measure, params: Mapping[str, Any],
                       constraints: tuple[Constraint, ...],
                       cuts: Callable[[FloatArray, FloatArray], Confusion]
                       ) -> tuple[int, float]:
    """:func:`best_cut` when the measure and every constraint never get worse with fewer
    false positives: the strictest best cut is one above the first score holding
    positives, or one ending at such a score (the stricter cut with the same TP and
    fewer FP is as good, meets the constraints, and with TP > 0 is defined wherever the
    cut is), as :mod:`binmetrics.inference.cut_blocks` argues for the bootstrap. Only
    those cuts are scored: a tenth of them at a prevalence of 0.1."""
    g = table.positive_groups()  # kept on the table for the ranking measures
    g0 = int(g.idx[0])
    head = np.zeros(g0 + 1)  # cuts 0 .. g0: no positive yet
    np.cumsum(table.neg[:g0], out=head[1:])
    ks = np.concatenate((np.arange(g0 + 1), g.idx + 1))
    tp = np.concatenate((np.zeros(g0 + 1), g.tp1))
    fp = np.concatenate((head, g.fp1))
    block = cuts(tp, fp)
    with undefined_policy("ignore"), np.errstate(divide="ignore", invalid="ignore"):
        v = np.asarray(m.func(block, **params), dtype=np.float64)
        ok = np.ones(v.shape, dtype=bool)
        for c in constraints:
            ok &= c.holds(np.asarray(get_measure(c.measure).func(block), dtype=np.float64))
    i = int(choose_cuts(v, ok, m.direction))
    return (int(ks[i]), float(v[i])) if i >= 0 else (-1, float("nan"))


def _holds_at(c: Constraint, cm: Measure, cuts: Callable[[FloatArray, FloatArray], Confusion],
              tp: FloatArray, fp: FloatArray) -> npt.NDArray[np.bool_]:
    return c.holds(np.asarray(cm.func(cuts(tp, fp)), dtype=np.float64))


def cut_threshold(table: CountTable, k: int) -> float:
    """The threshold of cut k (``table.thresholds()[k]``, without building that array)."""
    return float("inf") if k == 0 else float(table.scores[k - 1])


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
    params : the measure's parameters (``{"beta": 2.0}``; None for pROC's criteria).
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
    #: the measure's parameters (``beta=2``...); None for pROC's criteria
    params: Mapping[str, Any] | None = field(default=None, repr=False)

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
        if not self.subject_to and self.feasible:
            return "BestThreshold"
        head = f"BestThreshold ({self.measure}"
        if self.subject_to:
            head += " subject to " + ", ".join(self.subject_to)
        return head + ")" + ("" if self.feasible else ": infeasible")


def infeasible_reason(constraints: tuple[Constraint, ...],
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
