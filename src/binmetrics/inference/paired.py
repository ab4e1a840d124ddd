"""Comparing models scored on the same cases: every pair, every measure.

Paired comparison (:func:`compare`)
    Several models score the same cases. For every pair (A, B) and every requested
    measure it reports A's value, B's value, the difference A - B, an interval of
    the difference and a p-value, by the method that fits the measure:

    ``"delong"`` (AUC)
        DeLong's paired test, :func:`binmetrics.inference.delong.delong_test` (= pROC
        ``roc.test(paired=TRUE)``): z-test of the difference with DeLong's
        covariance, and its normal interval.
    ``"mcnemar"`` (accuracy)
        McNemar's test on the discordant cases at the threshold
        (:func:`~binmetrics.inference.proportions.mcnemar_test`): exact binomial by
        default, or the chi-square with continuity correction. The interval of the
        difference of the two accuracies is the Wald interval for paired proportions.
    ``"bootstrap"`` (any registered measure)
        The paired bootstrap: every replicate resamples the *same* cases (row
        indices, stratified by class by default) for all models, and the
        difference of the two models' values on it is one draw of the difference's
        bootstrap distribution. Each model's count table is built once, with every
        row mapped to its group (distinct score) in that table; a replicate is then
        one ``bincount`` of the drawn rows per model: no sort. The interval is the
        percentile interval of the differences, the p-value pROC's
        ``roc.test(method="bootstrap")`` one: z = d / sd(d*), normal tails.
        Replicates in which the difference is undefined (NaN for either model) are
        counted in ``n_undefined`` and reported in a warning, never dropped silently.

The tests of accuracies as proportions (McNemar's test on its own, the one- and
two-proportion z-tests) are in :mod:`binmetrics.inference.proportions`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from scipy import special

from binmetrics.backends import thread_map
from binmetrics.exceptions import warn_at_user
from binmetrics.formatting import HypothesisTest, frame_html, frame_text
from binmetrics.inference._replicates import (
    _evaluate_blocks,
    _replicate_table,
    _report_undefined_replicates,
    _slot_of_group,
    _Target,
    _targets,
)
from binmetrics.inference.delong import DeLongTest, delong_pairs
from binmetrics.inference.intervals import Interval, normal_pvalue
from binmetrics.inference.proportions import (
    McNemarMethod,
    McNemarTest,
    check_mcnemar_method,
    mcnemar_from_rows,
)
from binmetrics.inference.resampling import quantiles
from binmetrics.measures import Measure, get_measure
from binmetrics.measures.decision_curve import DecisionCurve
from binmetrics.measures.kernels import Kernel
from binmetrics.measures.registry import get_preset
from binmetrics.progress import as_callback
from binmetrics.table.counts import Confusion, CountTable, FloatArray
from binmetrics.table.threshold_range import DEFAULT_THRESHOLD as _DEFAULT_THRESHOLD
from binmetrics.table.threshold_range import threshold_range_message
from binmetrics.validation import (
    Alternative,
    NanPolicy,
    check_alternative,
    check_labels,
    check_level,
    check_models,
    check_paired_inputs,
    check_random_state,
    check_resamples,
    check_threshold,
    plural,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "Comparison",
    "PairedResult",
    "compare",
    "compare_methods",
    "paired_bootstrap_indices",
]

#: Target number of drawn row indices held at once by the paired bootstrap.
_BLOCK_ELEMENTS = 1 << 20

# --- small helpers ----------------------------------------------------------------------
def _ratio(d: float, se: float) -> float:
    """d / se, with 0/0 = 0 (no difference, no spread) and d/0 = +-inf."""
    if math.isnan(d) or math.isnan(se):
        return math.nan
    if se > 0:
        return d / se
    return 0.0 if d == 0 else math.copysign(math.inf, d)

# --- the paired bootstrap -----------------------------------------------------------------
def _draw_rows(rng: np.random.Generator,
               strata: list[npt.NDArray[np.intp]]) -> npt.NDArray[np.intp]:
    """One replicate's row indices: len(rows) draws with replacement within each stratum."""
    return np.concatenate([rows[rng.integers(0, rows.size, size=rows.size)] for rows in strata])


def _strata(y: npt.NDArray[np.bool_], stratified: bool) -> list[npt.NDArray[np.intp]]:
    if not stratified:
        return [np.arange(y.size, dtype=np.intp)]
    return [r for r in (np.flatnonzero(y), np.flatnonzero(~y)) if r.size]


def paired_bootstrap_indices(
    y_true: Any,
    n_resamples: int,
    *,
    stratified: bool = True,
    random_state: Any = None,
    pos_label: Any = None,
) -> Iterator[npt.NDArray[np.intp]]:
    """The row indices of each replicate of :func:`compare`'s paired bootstrap.

    With ``stratified=True`` a replicate draws, with replacement, as many positive
    rows as there are positives and as many negative rows as negatives (positives
    first); otherwise n rows from all rows. The draws are made replicate by
    replicate from ``numpy.random.default_rng(random_state)``, so
    :func:`compare` with the same arguments (after its ``nan_policy="omit"`` and
    zero-weight rows are removed) uses exactly these rows: e.g. to recompute a
    replicate by expanding rows, ``bm.evaluate(y[rows], score[rows])``.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([1, 1, 0, 0, 0])
    >>> reps = list(paired_bootstrap_indices(y, 3, random_state=0))
    >>> len(reps), [int(y[r].sum()) for r in reps]    # every replicate keeps 2 positives
    (3, [2, 2, 2])
    """
    B = check_resamples(n_resamples)
    y, _ = check_labels(y_true, pos_label)
    strata = _strata(y, bool(stratified))
    rng = np.random.default_rng(check_random_state(random_state))
    for _ in range(B):
        yield _draw_rows(rng, strata)


@dataclass(frozen=True)
class _ModelKeys:
    """Where each row of one model falls, at three levels of its count table.

    ``group``: the row's distinct score (positives in [0, G), negatives in [G, 2G));
    ``slot``: the same at the condensed level the ranking kernels use (runs of
    negative-only groups merged, width S); ``cell``: its confusion cell at the
    threshold (0 TP, 1 FN, 2 FP, 3 TN).
    """

    table: CountTable
    group: npt.NDArray[np.intp]
    G: int
    slot: npt.NDArray[np.intp]
    S: int
    cell: npt.NDArray[np.intp]

    @classmethod
    def of(cls, table: CountTable, y: npt.NDArray[np.bool_], s: FloatArray,
           threshold: float) -> _ModelKeys:
        G = table.n_distinct
        g = np.searchsorted(-table.scores, -s)  # the row's score's place in the table
        slot_of_group, S = _slot_of_group(table)
        neg = (~y).astype(np.intp)
        cell = 2 * neg + (s < threshold)
        return cls(table, (g + G * neg).astype(np.intp), G,
                   (slot_of_group[g] + S * neg).astype(np.intp), S, cell.astype(np.intp))


class _ModelBlock:
    """A block of paired-bootstrap replicates (drawn rows) seen by one model."""

    def __init__(self, keys: _ModelKeys, rows: npt.NDArray[np.intp],
                 w: FloatArray | None) -> None:
        self.keys, self.rows, self.w = keys, rows, w
        self.size = len(rows)  # a list of row arrays for the cluster bootstrap
        self._cache: dict[str, npt.NDArray[Any]] = {}

    def _counts(self, level: str) -> npt.NDArray[Any]:
        """(size, width) counts (weights) of the drawn rows per key of a level."""
        if level in self._cache:  # the measures of one level share the counts
            return self._cache[level]
        k = self.keys
        key, width = {"cell": (k.cell, 4), "slot": (k.slot, 2 * k.S),
                      "group": (k.group, 2 * k.G)}[level]
        out = np.empty((self.size, width), dtype=np.int64 if self.w is None else np.float64)
        for i, r in enumerate(self.rows):  # row by row: each row's counts stay in cache
            out[i] = np.bincount(key[r], minlength=width,
                                 weights=None if self.w is None else self.w[r])
        self._cache[level] = out
        return out

    def confusion(self, cut: int) -> Confusion:
        c = self._counts("cell").astype(np.float64)
        return Confusion(tp=c[:, 0], fn=c[:, 1], fp=c[:, 2], tn=c[:, 3])

    def kernel(self, kernel: Kernel) -> FloatArray:
        S = self.keys.S
        c = self._counts("slot")
        return kernel(c[:, :S], c[:, S:])

    def tables(self) -> list[CountTable]:
        G = self.keys.G
        c = self._counts("group")
        return [_replicate_table(self.keys.table, p, n)
                for p, n in zip(c[:, :G], c[:, G:], strict=True)]


def _paired_bootstrap(y: npt.NDArray[np.bool_], arrays: list[FloatArray], w: FloatArray | None,
                      tables: list[CountTable], targets: list[_Target], threshold: float,
                      B: int, stratified: bool, rng: np.random.Generator,
                      progress: Any = None,
                      members: list[npt.NDArray[np.intp]] | None = None
                      ) -> list[dict[str, FloatArray]]:
    """Each model's replicate values of each target, on the same drawn rows (with
    ``members``, each cluster's rows: a replicate stacks the rows of K clusters drawn
    with replacement)."""
    strata = _strata(y, stratified)
    keys = [_ModelKeys.of(t, y, s, threshold) for t, s in zip(tables, arrays, strict=True)]
    cuts = [t.cut_index(threshold) for t in tables]
    out = [{tg.key: np.empty(B) for tg in targets} for _ in tables]
    block = max(1, _BLOCK_ELEMENTS // max(y.size, 1))
    start = 0
    while start < B:
        b = min(block, B - start)
        rows: Any = (np.stack([_draw_rows(rng, strata) for _ in range(b)]) if members is None
                     else [np.concatenate([members[c] for c in
                                           rng.integers(0, len(members), len(members))])
                           for _ in range(b)])
        for k in range(len(tables)):
            vals = _evaluate_blocks([_ModelBlock(keys[k], rows, w)], targets, threshold,
                                    cuts[k], b)
            for key, v in vals.items():
                out[k][key][start:start + b] = v
        start += b
        if progress is not None:
            progress(start, B)
    for d in out:
        for v in d.values():
            v.flags.writeable = False
    return out


def _cluster_members(clusters: Any, n: int, inp: Any, plan: dict[str, str],
                     method: Any) -> list[npt.NDArray[np.intp]]:
    """Each cluster's rows; McNemar's measures move to the cluster bootstrap (in
    ``plan``) unless asked for by name."""
    import pandas as pd

    c = np.asarray(clusters)
    if c.ndim != 1 or c.shape[0] != n:
        raise ValueError(f"clusters must give one cluster per case: "
                         f"{c.shape[0] if c.ndim else 0} values for {n} cases")
    if inp.n_omitted or inp.n_zero_weight or inp.weight is not None:
        raise ValueError("clusters need every row kept and unweighted: drop the rows with "
                         "missing scores or zero weight first, and leave sample_weight out")
    codes, _ = pd.factorize(c, use_na_sentinel=True)
    if (codes < 0).any():
        raise ValueError("clusters has missing values; give every case a cluster")
    order = np.argsort(codes, kind="stable")
    members = np.split(order, np.flatnonzero(np.diff(codes[order])) + 1)
    for mid, how in plan.items():
        if how == "mcnemar":
            if isinstance(method, Mapping) and mid in {get_measure(k).id for k in method}:
                raise ValueError(f"McNemar's test of {mid} assumes independent cases; with "
                                 "clusters use method='bootstrap'")
            plan[mid] = "bootstrap"
    return [m.astype(np.intp) for m in members]


def paired_bootstrap_differences(
    y: npt.NDArray[np.bool_], score_a: FloatArray, score_b: FloatArray, w: FloatArray | None,
    measure: str | Measure, params: Mapping[str, Any] | None, n_resamples: int,
    random_state: Any, threshold: float = 0.5,
) -> tuple[float, float, FloatArray]:
    """(value_a, value_b, replicate differences a - b) of one measure by the paired
    bootstrap (stratified, as :func:`compare`), from arrays the paired input door
    (:func:`~binmetrics.validation.check_paired_inputs`) has already checked: the
    internal path of ``roc_test(method="bootstrap")``, which would otherwise send its
    checked arrays through :func:`compare`'s door again.
    """
    arrays = [np.asarray(score_a, dtype=float), np.asarray(score_b, dtype=float)]
    tables = [CountTable.from_validated(y, s, w) for s in arrays]
    (target,) = _targets([get_measure(measure)], {get_measure(measure).id: dict(params)}
                         if params else None)
    rng = np.random.default_rng(check_random_state(random_state))
    reps = _paired_bootstrap(y, arrays, w, tables, [target], threshold, n_resamples, True, rng)
    va, vb = (target.value(t, threshold) for t in tables)
    return va, vb, reps[0][target.key] - reps[1][target.key]


# --- compare ------------------------------------------------------------------------------
def compare_methods(measure: str | Measure) -> tuple[str, ...]:
    """The paired-comparison methods :func:`compare` can use for a measure, preferred first.

    Examples
    --------
    >>> compare_methods("auc"), compare_methods("accuracy"), compare_methods("mcc")
    (('delong', 'bootstrap'), ('mcnemar', 'bootstrap'), ('bootstrap',))
    """
    return (*get_measure(measure).paired_tests, "bootstrap")  # declared in the registry


@dataclass(frozen=True, repr=False)
class PairedResult(HypothesisTest):
    """One measure compared between two models on the same cases.

    Attributes
    ----------
    model_a, model_b : str
        The models; the difference is A - B.
    measure : str
        The measure id.
    value_a, value_b : float
        Each model's value of the measure.
    estimate : float
        ``value_a - value_b``.
    ci : Interval
        Interval of the difference (two-sided, at the comparison's level).
    pvalue : float
        For H0: no difference, against ``alternative``.
    statistic : float
        DeLong's Z, McNemar's statistic (see
        :class:`~binmetrics.inference.proportions.McNemarTest`), or the
        bootstrap's d / sd(d*).
    method : str
        "delong", "mcnemar-exact", "mcnemar-chi2", "mcnemar-chi2-uncorrected" or
        "paired-bootstrap".
    alternative : str
    n_undefined : int
        Bootstrap replicates in which the difference was undefined (0 otherwise).
    detail : DeLongTest or McNemarTest or None
        The full test result of the closed-form methods.
    """

    model_a: str
    model_b: str
    measure: str
    value_a: float
    value_b: float
    estimate: float
    ci: Interval
    pvalue: float
    statistic: float
    method: str
    alternative: str
    n_undefined: int = 0
    detail: DeLongTest | McNemarTest | None = field(default=None, repr=False)

    def _title(self) -> str:
        return (f"PairedResult: {self.model_a} - {self.model_b} ({self.method}, "
                f"{100 * self.ci.level:g}% interval, p-value {self.alternative})")

    def _shown(self) -> pd.DataFrame:
        return self.to_frame()[["measure", "value_a", "value_b", "estimate", "low", "high",
                                "pvalue"]]


@dataclass(frozen=True, eq=False)
class Comparison:
    """The result of :func:`compare`: every pair of models, every measure.

    Attributes
    ----------
    names : tuple of str
        The models, in the order given; pairs are (names[i], names[j]) with i < j.
    measures : tuple of str
        The measure ids.
    results : tuple of PairedResult
        One per pair and measure (pairs outer, measures inner).
    values : mapping
        ``values[model][measure]``: each model's value on all the cases.
    replicates : mapping
        ``replicates[model][measure]``: each model's paired-bootstrap values (length
        ``n_resamples``, NaN where undefined), for the bootstrapped measures; the
        difference distribution of a pair is ``replicates[a][m] - replicates[b][m]``.
    methods : mapping
        The method used for each measure.
    threshold, level, n_resamples, stratified, alternative :
        How the comparison was made.
    higher_is_positive : bool
        False: lower scores meant positive (the tables hold the negated scores).
    tables : mapping
        ``tables[model]``: each model's count table on the compared cases (rows left
        out by ``nan_policy="omit"`` or of weight 0 excluded), which
        :meth:`decision_curve` reads.
    """

    names: tuple[str, ...]
    measures: tuple[str, ...]
    results: tuple[PairedResult, ...]
    values: Mapping[str, Mapping[str, float]]
    replicates: Mapping[str, Mapping[str, FloatArray]]
    methods: Mapping[str, str]
    threshold: float
    level: float
    n_resamples: int
    stratified: bool
    alternative: str
    tables: Mapping[str, CountTable] = field(default_factory=lambda: MappingProxyType({}),
                                             repr=False)
    higher_is_positive: bool = True

    def __iter__(self) -> Iterator[PairedResult]:
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    def result(self, model_a: str, model_b: str, measure: str | Measure) -> PairedResult:
        """The comparison of ``model_a`` with ``model_b`` (in the order compared) on a measure."""
        mid = get_measure(measure).id
        for r in self.results:
            if (r.model_a, r.model_b, r.measure) == (model_a, model_b, mid):
                return r
        pairs = ", ".join(f"({r.model_a!r}, {r.model_b!r})"
                          for r in self.results if r.measure == self.measures[0])
        raise KeyError(f"no comparison of {model_a!r} with {model_b!r} on {mid!r}; pairs: "
                       f"{pairs}; measures: {', '.join(self.measures)}")

    def differences(self, model_a: str, model_b: str, measure: str | Measure) -> FloatArray:
        """The paired-bootstrap distribution of value(A) - value(B) (NaN where undefined)."""
        mid = get_measure(measure).id
        if mid not in self.replicates.get(model_a, {}):
            raise KeyError(f"{mid} was not bootstrapped (its method: "
                           f"{self.methods.get(mid, 'not compared')})")
        return np.asarray(self.replicates[model_a][mid] - self.replicates[model_b][mid])

    def decision_curve(self, thresholds: Any = None) -> DecisionCurve:
        """Every model's net benefit on one decision curve, with treat all and treat
        none (:class:`~binmetrics.curves.DecisionCurve`; default thresholds
        0.01, 0.02, ..., 0.99), as ``dcurves.dca`` with all the models.

        Examples
        --------
        >>> import binmetrics as bm
        >>> cmp = bm.compare([1, 0, 1, 0, 0], {"A": [.9, .6, .4, .3, .1],
        ...                                   "B": [.8, .2, .7, .4, .3]})
        >>> dc = cmp.decision_curve([0.25, 0.5])
        >>> dc.to_frame()[["model", "threshold", "net_benefit"]].round(4).values.tolist()
        [['A', 0.25, 0.2667], ['A', 0.5, 0.0], ['B', 0.25, 0.2667], ['B', 0.5, 0.4]]
        """
        if not self.higher_is_positive:
            raise ValueError("the decision curve reads the scores as probabilities of the "
                             "positive class; these models were compared with "
                             "higher_is_positive=False: compare 1 - p instead")
        if not self.tables:
            raise ValueError("this Comparison keeps no count tables (it was not made by "
                             "bm.compare): build the curve with "
                             "Evaluation.decision_curve(others=...)")
        return DecisionCurve.from_tables(dict(self.tables), thresholds)

    def to_frame(self) -> pd.DataFrame:
        """A tidy DataFrame: one row per pair and measure.

        Columns: model_a, model_b, measure, value_a, value_b, estimate, low, high,
        level, pvalue, statistic, method, ci_method, alternative, n_undefined.
        """
        import pandas as pd

        rows = [{
            "model_a": r.model_a, "model_b": r.model_b, "measure": r.measure,
            "value_a": r.value_a, "value_b": r.value_b, "estimate": r.estimate,
            "low": r.ci.low, "high": r.ci.high, "level": r.ci.level, "pvalue": r.pvalue,
            "statistic": r.statistic, "method": r.method, "ci_method": r.ci.method,
            "alternative": r.alternative, "n_undefined": r.n_undefined,
        } for r in self.results]
        return pd.DataFrame(rows, columns=[
            "model_a", "model_b", "measure", "value_a", "value_b", "estimate", "low",
            "high", "level", "pvalue", "statistic", "method", "ci_method", "alternative",
            "n_undefined"])

    def _title(self) -> str:
        pairs = len(self.results) // max(len(self.measures), 1)
        return (f"Comparison of {len(self.names)} models ({pairs} "
                f"pair{'s' if pairs != 1 else ''}): estimate = A - B, "
                f"{100 * self.level:g}% interval, p-value ({self.alternative})")

    def _shown(self) -> pd.DataFrame:
        return self.to_frame()[["model_a", "model_b", "measure", "value_a", "value_b",
                                "estimate", "low", "high", "pvalue", "method"]]

    def __repr__(self) -> str:
        """The table of every pair and measure, with the differences' intervals and
        p-values.

        Examples
        --------
        >>> import binmetrics as bm
        >>> cmp = bm.compare([1, 0, 1, 0, 1, 0], {"A": [.9, .2, .8, .3, .7, .4],
        ...                                      "B": [.6, .5, .4, .3, .7, .8]})
        >>> print(cmp)  # doctest: +NORMALIZE_WHITESPACE
        Comparison of 2 models (1 pair): estimate = A - B, 95% interval, p-value (two-sided)
        model_a model_b measure value_a value_b estimate low high pvalue method
        A B auc 1 0.555556 0.444444 -0.171513 1.0604 0.157299 delong
        A B accuracy 1 0.5 0.5 0.099924 0.900076 0.25 mcnemar-exact
        """
        return frame_text(self._title(), self._shown(), max_rows=20)

    def _repr_html_(self) -> str:
        return frame_html(self._title(), self._shown())


def _plan(measures: list[Measure], method: str | Mapping[str, str]) -> dict[str, str]:
    if isinstance(method, str):
        wanted: dict[str, str] = {}
        default = method
    elif isinstance(method, Mapping):
        wanted = {get_measure(k).id: v for k, v in method.items()}
        unknown = sorted(set(wanted) - {m.id for m in measures})
        if unknown:
            raise ValueError(f"method given for measure(s) not compared: {', '.join(unknown)}")
        default = "auto"
    else:
        raise TypeError(f"method must be a string or a mapping measure -> method; got {method!r}")
    plan = {}
    for m in measures:
        applicable = compare_methods(m)
        chosen = wanted.get(m.id, default)
        if chosen == "auto":
            chosen = applicable[0]
        if chosen not in applicable:
            raise ValueError(f"method {chosen!r} does not apply to {m.id}; methods that apply "
                             f"to it: {', '.join(applicable)}")
        plan[m.id] = chosen
    return plan


def compare(
    y_true: Any,
    scores: Mapping[str, Any] | Sequence[Any],
    *,
    threshold: float = _DEFAULT_THRESHOLD,
    measures: Iterable[str | Measure] | str = ("auc", "accuracy"),
    method: str | Mapping[str, str] = "auto",
    mcnemar: McNemarMethod = "exact",
    alternative: Alternative = "two-sided",
    sample_weight: Any = None,
    pos_label: Any = None,
    n_resamples: int = 2000,
    level: float = 0.95,
    stratified: bool = True,
    params: Mapping[str, Mapping[str, Any]] | None = None,
    nan_policy: NanPolicy = "raise",
    random_state: Any = None,
    progress: Any = None,
    clusters: Any = None,
    higher_is_positive: bool = True,
) -> Comparison:
    """Compare models scored on the same cases: every pair, every measure.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        The cases' labels, shared by all models.
    scores : mapping of name to array, DataFrame, or sequence of arrays
        Each model's scores for the same n cases (higher = more positive). A sequence
        names its models "model_0", "model_1", ...; at least two models.
    threshold : float, default 0.5
        Cut of the confusion measures (``score >= threshold`` is positive).
    measures : measure name(s), default ("auc", "accuracy")
        Any registered measures (ids or aliases).
    method : "auto", "bootstrap", or a mapping measure -> method
        "auto" takes :func:`compare_methods`' first: "delong" for the AUC, "mcnemar"
        for accuracy, "bootstrap" otherwise. "bootstrap" bootstraps every measure.
        A mapping chooses per measure (the others "auto"), e.g. ``{"auc":
        "bootstrap"}``. A method that does not apply is an error listing those that do.
    mcnemar : {"exact", "chi2", "chi2-uncorrected"}, default "exact"
        McNemar's variant (see :func:`~binmetrics.inference.proportions.mcnemar_test`).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater": the alternative that model A is better than B in the sense of a
        larger value (for a loss, larger is worse).
    sample_weight : array-like of shape (n,), optional
        Case weights. DeLong and McNemar use them as multiplicities (McNemar's exact
        test needs whole numbers); the bootstrap resamples rows, each carrying its
        weight. Rows of weight 0 are left out.
    pos_label : optional
        As :func:`binmetrics.evaluate`.
    n_resamples : int, default 2000
        Paired-bootstrap replicates (drawn only if some measure is bootstrapped).
    level : float in (0, 1), default 0.95
        Level of every interval of a difference.
    stratified : bool, default True
        Resample positives and negatives separately (each replicate keeps the class
        sizes); False resamples n rows from all (a replicate may lack a class).
    params : mapping, optional
        Parameters of bootstrapped measures, e.g. ``{"fbeta": {"beta": 2}}``.
    nan_policy : {"raise", "omit"}, default "raise"
        Non-finite scores: an error naming the model and rows, or "omit" to drop the
        row for every model (with a warning).
    random_state : seed, Generator or None
        Same seed, same bootstrap (see :func:`paired_bootstrap_indices`).
    progress : bool, "auto" or callable, optional
        Report the paired bootstrap's progress on stderr (see
        :mod:`binmetrics.progress`), or call ``progress(done, total)``.
    clusters : array-like, optional
        The cluster (patient) of each case, when a cluster contributes several cases:
        the paired bootstrap then draws whole clusters with replacement (the same
        clusters for every model; ``stratified`` does not apply), the AUC's DeLong test
        uses Obuchowski's (1997) clustered covariance
        (:func:`~binmetrics.inference.clustered.clustered_delong_pairs`, method
        "obuchowski"), and McNemar's test, which assumes independent cases, gives way
        to the cluster bootstrap. Unweighted rows, none dropped.
    higher_is_positive : bool, default True
        False: lower scores mean positive (docking scores, distances), for every model,
        as in :func:`binmetrics.evaluate`: ``score <= threshold`` is predicted
        positive and the ranking measures read the order reversed; the measures that
        need probabilities are NaN with a warning. A threshold outside a model's
        scores' range warns (every case would be predicted one class), the default
        0.5 included.

    Returns
    -------
    Comparison
        ``to_frame()`` gives the tidy table; ``result(a, b, measure)`` one row's
        :class:`PairedResult`.

    Notes
    -----
    The paired bootstrap's p-value follows pROC's ``roc.test(method="bootstrap")``:
    z = d / sd(d*) with sd the standard deviation (ddof = 1) of the defined
    replicate differences, and normal tails. Its interval is the percentile
    interval of the replicate differences (Berrar Def. 38). Replicates whose
    difference is undefined are counted (``n_undefined``) with an
    :class:`~binmetrics.exceptions.UndefinedMeasureWarning` (an error under
    ``undefined_policy("raise")``). A measure undefined on all cases is NaN with the
    usual warning.

    Examples
    --------
    >>> import numpy as np
    >>> import binmetrics as bm
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(200) < 0.4
    >>> good = y + rng.normal(0, 0.6, 200)
    >>> poor = y + rng.normal(0, 1.5, 200)
    >>> cmp = bm.compare(y, {"good": good, "poor": poor}, measures=["auc", "accuracy", "mcc"],
    ...                  n_resamples=200, random_state=0)
    >>> cmp.to_frame()[["measure", "method"]].values.tolist()
    [['auc', 'delong'], ['accuracy', 'mcnemar-exact'], ['mcc', 'paired-bootstrap']]
    >>> r = cmp.result("good", "poor", "auc")
    >>> bool(r.estimate > 0 and r.ci.low > 0 and r.pvalue < 0.01)
    True
    """
    names, raw, labels = check_models(scores, "compare")
    th = check_threshold(threshold)
    lv = check_level(level)
    alt = check_alternative(alternative)
    mc = check_mcnemar_method(mcnemar, "mcnemar")
    B = check_resamples(n_resamples)
    check_random_state(random_state)
    if isinstance(measures, str) and get_preset(measures) is not None:
        measures = get_preset(measures).ids  # type: ignore[union-attr]
    elif isinstance(measures, (str, Measure)):
        measures = [measures]
    ms: list[Measure] = []
    for x in measures:
        m = get_measure(x)
        if m.id in {q.id for q in ms}:
            raise ValueError(f"measure given twice: {m.id}")
        ms.append(m)
    if not ms:
        raise ValueError("no measures given")
    plan = _plan(ms, method)
    n_bootstrapped = sum(plan[m.id] == "bootstrap" for m in ms)
    if n_bootstrapped:  # the replicates kept: one per model and bootstrapped measure
        check_resamples(B, per_resample=len(names) * n_bootstrapped,
                        what=f"{plural(len(names), 'model')} times "
                             f"{plural(n_bootstrapped, 'bootstrapped measure')}")
    if not isinstance(higher_is_positive, (bool, np.bool_)):
        raise TypeError(f"higher_is_positive must be True or False; got "
                        f"{higher_is_positive!r}")
    inp = check_paired_inputs(y_true, raw, labels, sample_weight, pos_label=pos_label,
                              nan_policy=nan_policy)
    y, arrays, w = inp.y, list(inp.scores), inp.weight
    members = None
    if clusters is not None:
        members = _cluster_members(clusters, len(np.asarray(y_true)), inp, plan, method)
    user_th = th
    if not higher_is_positive:  # as evaluate: the tables hold -score, cut at -threshold
        arrays = [-np.asarray(a, dtype=np.float64) for a in arrays]
        th = -th
    # one table per model, built in threads (the sorts release the GIL; same tables)
    tables = thread_map(lambda s: CountTable.from_validated(y, s, w), arrays)
    for name, t in zip(names, tables, strict=True):
        message = threshold_range_message(t, user_th,
                                          higher_is_positive=bool(higher_is_positive),
                                          default=threshold is _DEFAULT_THRESHOLD)
        if message is not None:
            warn_at_user(f"{name}: {message}")
    boot_ids = [m.id for m in ms if plan[m.id] == "bootstrap"]
    params = dict(params or {})
    bad_params = sorted({get_measure(k).id for k in params} - set(boot_ids))
    if bad_params:
        raise ValueError(f"params apply to bootstrapped measures; given for "
                         f"{', '.join(bad_params)}")
    targets = {tg.key: tg for tg in _targets(ms, params)}
    values = {name: {m.id: targets[m.id].value(t, th) for m in ms}
              for name, t in zip(names, tables, strict=True)}
    reps: list[dict[str, FloatArray]] = []
    if boot_ids:
        rng = np.random.default_rng(check_random_state(random_state))
        reps = _paired_bootstrap(y, arrays, w, tables, [targets[k] for k in boot_ids], th, B,
                                 bool(stratified), rng,
                                 as_callback(progress, "paired bootstrap"), members)
    results: list[PairedResult] = []
    q = float(special.ndtri(1.0 - (1.0 - lv) / 2.0))
    # DeLong: each model's placements once, not once per pair
    dl = (delong_pairs(y, arrays, w, alternative=alt, level=lv)
          if "delong" in plan.values() and members is None else {})
    if "delong" in plan.values() and members is not None:
        from binmetrics.inference.clustered import clustered_delong_pairs

        dl = clustered_delong_pairs(y, arrays, np.asarray(clusters), alternative=alt, level=lv)
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            a, b = names[i], names[j]
            for m in ms:
                how = plan[m.id]
                if how == "delong":
                    dt = dl[(i, j)]
                    results.append(PairedResult(a, b, m.id, dt.value_a, dt.value_b, dt.estimate,
                                                dt.ci, dt.pvalue, dt.statistic,
                                                "delong" if members is None else "obuchowski",
                                                alt, 0, dt))
                elif how == "mcnemar":
                    mt = mcnemar_from_rows(y, arrays[i], arrays[j], w, th, mc, alt, lv)
                    results.append(PairedResult(a, b, m.id, mt.value_a, mt.value_b,
                                                mt.estimate, mt.ci, mt.pvalue, mt.statistic,
                                                f"mcnemar-{mc}", alt, 0, mt))
                else:
                    results.append(_bootstrap_result(a, b, m.id, values[a][m.id],
                                                     values[b][m.id], reps[i][m.id],
                                                     reps[j][m.id], lv, q, alt))
    replicates = {name: MappingProxyType(dict(reps[k])) if reps else MappingProxyType({})
                  for k, name in enumerate(names)}
    return Comparison(
        names=names, measures=tuple(m.id for m in ms), results=tuple(results),
        values=MappingProxyType({k: MappingProxyType(v) for k, v in values.items()}),
        replicates=MappingProxyType(replicates), methods=MappingProxyType(plan),
        threshold=user_th, level=lv, n_resamples=B, stratified=bool(stratified),
        alternative=alt, tables=MappingProxyType(dict(zip(names, tables, strict=True))),
        higher_is_positive=bool(higher_is_positive))


def _bootstrap_result(a: str, b: str, mid: str, va: float, vb: float, ra: FloatArray,
                      rb: FloatArray, level: float, q: float, alternative: str) -> PairedResult:
    d = va - vb
    diffs = ra - rb
    defined = diffs[~np.isnan(diffs)]
    k = int(diffs.size - defined.size)
    if k:
        _report_undefined_replicates(f"{mid} difference ({a} - {b})", k, int(diffs.size),
                                     "paired bootstrap replicates")
    nan = math.nan
    if defined.size >= 2 and not math.isnan(d):
        alpha = (1.0 - level) / 2.0
        low, high = quantiles(defined, [alpha, 1.0 - alpha])
        z = _ratio(d, float(np.std(defined, ddof=1)))
    else:
        low = high = z = nan
    ci = Interval(d, low, high, level, "bootstrap-percentile")
    return PairedResult(a, b, mid, va, vb, d, ci, normal_pvalue(z, alternative), z,
                        "paired-bootstrap", alternative, k, None)
