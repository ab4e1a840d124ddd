"""The parts of choosing a cut: constraints, the best cut of many tables at once, and
the result, :class:`BestThreshold` (used by :mod:`binmetrics.evaluation.thresholds`
and the bootstrap of :mod:`binmetrics.evaluation.threshold_ci`)."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from binmetrics.exceptions import undefined_policy
from binmetrics.formatting import Tabular
from binmetrics.measures import Measure, get_measure
from binmetrics.measures.cut_scan import (
    SCAN,
    cut_blocks,
    first_change,
    ignores_fp,
    monotone_along_cuts,
)
from binmetrics.table.counts import Confusion, CountTable, FloatArray, block_size

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
    meeting every constraint, the strictest of equal ones), bit for bit: the same
    registry formula on the same TP and FP floats, read at fewer cuts.

    A constraint on a measure monotone along the cuts
    (:func:`~binmetrics.measures.cut_scan.monotone_along_cuts`: TPR, TNR, FPR, FNR) holds
    on a run of consecutive cuts, found by binary search
    (:func:`~binmetrics.measures.cut_scan.first_change`); together they hold on the run
    ``lo..hi``, and only that run is read.

    When the measure never gets worse with fewer false positives (``monotone_in_fp``:
    F1, MCC, precision, expected cost...) and every other constraint keeps holding with
    fewer false positives (:func:`keeps_on_fewer_fp`: ``ppv >= x``, ``fpr <= x``, any
    bound on the TPR), only a few cuts of the run are candidates (:func:`_best_run_cut`):
    ``lo``, the cuts with no true positive, and the cuts ending at a score holding
    positives. Otherwise (e.g. ``ppv <= x``, or a measure such as the optimized
    precision) the run is read block by block
    (:func:`~binmetrics.measures.cut_scan.cut_blocks`): a monotone measure from its
    better end, stopping at the first block that cannot reach the best value so far.

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 1, 0, 1, 0, 0], [.9, .8, .7, .6, .5, .4])
    >>> best_cut(t, get_measure("tpr"), {}, parse_constraints("ppv>=0.7"))
    (4, 1.0)
    >>> t = CountTable.from_arrays([1, 1, 0, 0, 0, 1, 0, 0], [.9, .8, .7, .6, .5, .4, .3, .2])
    >>> best_cut(t, get_measure("mcc"), {}, ())
    (2, 0.7453559924999299)
    >>> best_cut(t, get_measure("mcc"), {}, parse_constraints("fpr>=0.2"))  # the run's first
    (3, 0.4666666666666667)
    """
    if table.weighted or table.case_costs is not None:
        raise ValueError("best_cut reads unweighted tables without per-case costs")
    P, N = float(table.P), float(table.N)

    def cuts(tp: FloatArray, fp: FloatArray) -> Confusion:  # as all_cuts builds them
        return Confusion(tp=tp, fp=fp, fn=P - tp, tn=N - fp)

    run_only = m.monotone_in_fp and table.P > 0 and all(
        keeps_on_fewer_fp(c) or monotone_along_cuts(get_measure(c.measure)) != 0
        for c in constraints)
    first, stop = 0, table.n_distinct + 1
    rest = []
    with undefined_policy("ignore"), np.errstate(divide="ignore", invalid="ignore"):
        for c in constraints:
            cm = get_measure(c.measure)
            if monotone_along_cuts(cm) == 0 or (run_only and keeps_on_fewer_fp(c)):
                rest.append((c, cm))  # read at the cuts scored
                continue
            pred = functools.partial(_holds_at, c, cm, cuts)
            change = first_change(table, pred)
            if bool(pred(np.zeros(1), np.zeros(1))[0]):
                stop = min(stop, change)  # holds on the cuts before the change
            else:
                first = max(first, change)  # holds from the change on
        if run_only:
            return _best_run_cut(table, m, params, rest, cuts, first, stop - 1)
        toward = monotone_along_cuts(m) * m.direction  # +1: better on more lenient cuts
        best_k, best_v, best_s = -1, float("nan"), -np.inf
        for k0, tp, fp in cut_blocks(table, first, stop, reverse=toward > 0):
            i, v = _block_best(cuts(tp, fp), m, params, rest)
            if i >= 0:
                s = v * m.direction
                if best_k < 0 or s > best_s or (s == best_s and k0 + i < best_k):
                    best_k, best_v, best_s = k0 + i, v, s
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


def _best_run_cut(table: CountTable, m: Measure, params: Mapping[str, Any],
                  rest: list[tuple[Constraint, Measure]],
                  cuts: Callable[[FloatArray, FloatArray], Confusion],
                  lo: int, hi: int) -> tuple[int, float]:
    """:func:`best_cut` for a ``monotone_in_fp`` measure (and a table with positives)
    when the constraints hold on the run of cuts ``lo..hi`` (those monotone along the
    cuts, found by binary search) and where the others (``rest``, each
    :func:`keeps_on_fewer_fp`) hold: the strictest best cut is one of

    - ``lo``, the run's first cut;
    - a cut of the run with no true positive (at or above the first score holding
      positives);
    - a cut of the run ending at a score holding positives.

    Why: take a feasible cut ``k > lo`` of the run with TP > 0 whose last score holds
    negatives only. The stricter cut ``k - 1`` is in the run, so the monotone
    constraints hold there; it has the same TP and fewer FP, so the constraints of
    ``rest`` still hold and the measure is as good or better, and with TP > 0 every
    denominator of ``k - 1`` is positive wherever ``k``'s is, so nothing defined at
    ``k`` is undefined at ``k - 1`` (tests/measures/test_monotone_in_fp.py holds each
    declaration to this). Among equal values the strictest cut wins, so ``k`` never
    does. ``lo`` has no stricter cut in the run, hence kept; with no true positive the
    stricter cut may predict no positive at all (cut 0, where precision and MCC are
    undefined), hence those are all kept (as :mod:`binmetrics.inference.cut_blocks`
    argues for the bootstrap). The argument is exact in floats too: the candidates'
    values are the registry's formula on the same whole-number TP and FP, and each
    declared measure's floats never get worse with fewer FP
    (tests/evaluation/test_threshold_run_cuts.py checks them with no tolerance). For
    MCC, ``(TP N - FP P) / sqrt(P N k (n - k))`` with ``k = TP + FP`` (Berrar Def. 15),
    the derivative in FP is ``-n (P k + TP (n - 2k)) / (2 sqrt(P N) (k (n - k))^(3/2))``,
    negative wherever MCC is defined, also where it is negative or ``k > n / 2``:
    ``P k + TP (n - 2k)`` is at least ``P k > 0`` when ``2k <= n``, and at least
    ``min(P, k) (n - k) > 0`` otherwise (as ``TP <= min(P, k)``). Each further FP moves
    MCC by a relative ``1 / (2 N)`` or more, and its numerator (computed on fractions of
    n) by ``P / n^2``, far above the few roundings of 1e-16 (relative, and
    ``1e-16 P N / n^2`` in the numerator) while N stays below about 1e13.

    The candidates are scored in blocks of
    :data:`~binmetrics.measures.cut_scan.SCAN`, which stay in the core's cache.

    At a prevalence of 0.1 and distinct scores, a tenth of the run is scored. TP and FP
    at the candidates come from :meth:`CountTable.positive_groups` (kept on the table
    for the ranking measures) and one block at ``lo``: whole numbers, so exactly
    :attr:`CountTable.tp` and :attr:`CountTable.fp` there, with no table-sized array.
    """
    nan = float("nan")
    if lo > hi:  # the monotone constraints hold nowhere together
        return -1, nan
    g = table.positive_groups()
    idx = g.idx
    g0 = int(idx[0])  # cuts 0 .. g0 have no true positive
    size = min(block_size(), SCAN)  # blocks that stay in the core's cache
    j0 = int(np.searchsorted(idx, lo - 1, side="left"))  # the groups whose cut idx + 1
    j1 = int(np.searchsorted(idx, hi - 1, side="right"))  # is in lo .. hi

    def candidates() -> Iterator[tuple[npt.NDArray[np.intp], FloatArray, FloatArray]]:
        """``(ks, tp, fp)`` blocks of the candidate cuts, ascending."""
        top = min(hi, g0)
        if lo <= top:  # the cuts with no true positive, in the run
            head = np.zeros(top + 1)
            np.cumsum(table.neg[:top], out=head[1:])
            for a in range(lo, top + 1, size):
                z = min(a + size, top + 1)
                yield np.arange(a, z), np.zeros(z - a), head[a:z]
        if lo > g0 and not (j0 < idx.size and int(idx[j0]) == lo - 1):  # negatives only
            _, tp_lo, fp_lo = next(cut_blocks(table, lo, lo + 1, few=True))
            yield np.array([lo]), tp_lo, fp_lo
        for a in range(j0, j1, size):  # the cuts ending at a score holding positives
            z = min(a + size, j1)
            yield idx[a:z] + 1, g.tp0[a:z] + g.pos[a:z], g.fp0[a:z] + g.neg[a:z]

    best_k, best_v, best_s = -1, nan, -np.inf
    for ks, tp, fp in candidates():
        i, v = _block_best(cuts(tp, fp), m, params, rest)
        if i >= 0 and (best_k < 0 or v * m.direction > best_s):  # ascending: the first
            best_k, best_v, best_s = int(ks[i]), v, v * m.direction  # of equal ones wins
    return best_k, best_v


def _block_best(block: Confusion, m: Measure, params: Mapping[str, Any],
                rest: list[tuple[Constraint, Measure]]) -> tuple[int, float]:
    """``(i, value)``: :func:`choose_cuts` over the cuts of ``block`` where every
    constraint of ``rest`` holds; ``(-1, nan)`` when none qualifies."""
    ok: npt.NDArray[np.bool_] | None = None
    for con, cm in rest:
        met = con.holds(np.asarray(cm.func(block), dtype=np.float64))
        ok = met if ok is None else np.logical_and(ok, met, out=ok)
    if ok is not None and not ok.any():  # no cut of the block qualifies
        return -1, float("nan")
    v = np.asarray(m.func(block, **params), dtype=np.float64)
    i = int(choose_cuts(v, np.ones(v.shape, dtype=bool) if ok is None else ok, m.direction))
    return (i, float(v[i])) if i >= 0 else (-1, float("nan"))


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
