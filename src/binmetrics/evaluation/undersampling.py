"""Prior calibration by repeated random undersampling (the heuristic Siblini et al. compare to).

Siblini et al. (sec. 3.3, Figure 6) compare their closed-form calibration
(:meth:`binmetrics.Evaluation.calibrated`, negatives reweighted) with the heuristic
of their reference [10]: undersample the test set at random until its positive
proportion is the reference prior pi0, compute the ordinary measures on the
subsample, and average over many repeats. The two agree up to Monte-Carlo noise.

Each repeat keeps every case of one class and draws, without replacement, the
number of cases of the other class that gives prevalence pi0: if pi0 > pi
(the data's prevalence P / (P + N)) the negatives are thinned to
round(P (1 - pi0) / pi0), otherwise the positives to round(N pi0 / (1 - pi0)).
Drawing k of the thinned class's cases without replacement is a multivariate
hypergeometric split of its per-score counts, so a subsample is the same sorted
count table with new counts and nothing is re-sorted (as in
:mod:`binmetrics.inference.resampling`).

The subsamples are not stored: the result keeps a seed and redraws them whenever a
measure not yet computed is asked for, so the same ``random_state`` gives the same
values whichever measures are asked and in whatever order.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from binmetrics.exceptions import UndefinedMeasureWarning, UndefinedPolicy, undefined_policy
from binmetrics.formatting import frame_html
from binmetrics.measures import Measure, get_measure
from binmetrics.measures.registry import Family, select_measures
from binmetrics.table.counts import CountTable, HasTable, count_dtype
from binmetrics.validation import check_in_range, check_random_state, check_resamples

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["UndersampledEvaluation", "undersample"]

#: Choosing k of n cases costs ~15 ns per chosen case; the marginal hypergeometric split
#: ~110 ns per group (see :mod:`binmetrics.inference.resampling`).
_HYPERGEOMETRIC_RATIO = 8

_Key = tuple[str, tuple[tuple[str, str], ...]]


class _Subsampler:
    """Draws the count tables of random subsamples with prevalence pi0 (no re-sort)."""

    def __init__(self, table: CountTable, pi0: float) -> None:
        if table.weighted:
            what = "a calibrated table" if table.calibration is not None else "a weighted table"
            raise ValueError(
                f"undersampling draws cases, and {what} has weights, not cases; use "
                "method='reweight' (the closed form), or build the table without sample_weight")
        self.table = table
        P, N = int(table.P), int(table.N)
        if P == 0 or N == 0:
            raise ValueError(f"undersampling needs both classes; the data have {P} positives "
                             f"and {N} negatives")
        self.P, self.N = P, N
        self.pi = P / (P + N)
        pos = np.asarray(table.pos, dtype=np.int64)
        neg = np.asarray(table.neg, dtype=np.int64)
        #: which class is thinned: "negative" when pi0 > pi, else "positive"
        self.thinned = "negative" if pi0 > self.pi else "positive"
        if self.thinned == "negative":
            self.kept_counts, m, total = pos, neg, N
            k = round(P * (1.0 - pi0) / pi0)
        else:
            self.kept_counts, m, total = neg, pos, P
            k = round(N * pi0 / (1.0 - pi0))
        if k < 1:
            raise ValueError(
                f"pi0 = {pi0:g} leaves no {self.thinned} case in a subsample "
                f"(the data have {P} positives and {N} negatives)")
        k = min(k, total)  # pi0 within rounding of pi: nothing to drop
        self.k, self.total = k, total
        #: the groups holding cases of the thinned class and their sizes
        self.groups = np.flatnonzero(m)
        self.m = m[self.groups]
        G = int(self.groups.size)
        self.identity = bool(total == G)  # one case per group
        self.method = "all" if k == total else (
            "hypergeometric" if G * _HYPERGEOMETRIC_RATIO < k else "choice")
        self._case_group: npt.NDArray[np.intp] | None = None
        self.dtype = count_dtype(float((pos + neg).max()))

    @property
    def n_positive(self) -> int:
        return self.P if self.thinned == "negative" else self.k

    @property
    def n_negative(self) -> int:
        return self.k if self.thinned == "negative" else self.N

    def _draw(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """Per-group counts (over ``self.groups``) of the k drawn cases."""
        if self.method == "all":
            return self.m
        if self.method == "hypergeometric":
            return np.asarray(rng.multivariate_hypergeometric(self.m, self.k,
                                                              method="marginals"))
        drop = self.k > self.total // 2  # choose the smaller set: the kept or the dropped
        idx = rng.choice(self.total, self.total - self.k if drop else self.k,
                         replace=False, shuffle=False)
        if self.identity:
            c = np.zeros(self.m.size, dtype=np.int64)
            c[idx] = 1
        else:
            if self._case_group is None:
                self._case_group = np.repeat(np.arange(self.m.size, dtype=np.intp), self.m)
            c = np.bincount(self._case_group[idx], minlength=self.m.size).astype(np.int64)
        return self.m - c if drop else c

    def tables(self, rng: np.random.Generator, n: int) -> Iterator[CountTable]:
        t = self.table
        for _ in range(n):
            drawn = np.zeros(t.n_distinct, dtype=np.int64)
            drawn[self.groups] = self._draw(rng)
            pos, neg = ((self.kept_counts, drawn) if self.thinned == "negative"
                        else (drawn, self.kept_counts))
            keep = (pos + neg) > 0
            yield CountTable(t.scores[keep], pos[keep].astype(self.dtype),
                             neg[keep].astype(self.dtype), weighted=False, _trusted=True,
                             _totals=(self.n_positive, self.n_negative))


class UndersampledEvaluation:
    """Measures averaged over random subsamples of the data with prevalence ``pi0``.

    Made by ``Evaluation.calibrated(pi0, method="undersample")`` or :func:`undersample`.
    ``result["average_precision"]`` and :meth:`value` give a measure's mean over the
    subsamples in which it is defined, :meth:`std` its standard deviation across
    them, :meth:`values` the value of every subsample and :meth:`n_undefined` how many
    subsamples leave it undefined.

    Attributes
    ----------
    pi0 : float
        The reference prevalence of every subsample (up to rounding of the counts).
    n_resamples : int
        The number of subsamples.
    pi : float
        The prevalence of the full data.
    thinned : {"negative", "positive"}
        The class that is undersampled (the other is kept whole).
    n_positive, n_negative : int
        The class sizes of each subsample.
    threshold : float
        The cut of the confusion measures, in the scores' own units (``score <=
        threshold`` is positive when ``higher_is_positive`` is False; the table then
        holds the negated scores).

    Examples
    --------
    >>> import binmetrics as bm
    >>> y = [1, 1, 0, 1, 0, 0, 1, 0, 0, 0]
    >>> s = [.9, .8, .8, .7, .7, .5, .4, .3, .3, .1]
    >>> ev = bm.evaluate(y, s)
    >>> us = ev.calibrated(0.5, method="undersample", n_resamples=2000, random_state=0)
    >>> us.n_positive, us.n_negative, us.thinned  # 4 positives kept, 4 of 6 negatives drawn
    (4, 4, 'negative')
    >>> round(us["average_precision"], 2), round(us.std("average_precision"), 2)
    (0.79, 0.07)
    >>> round(ev.calibrated(0.5)["average_precision"], 4)  # the closed form, for comparison
    0.7772

    The mean over all 15 possible subsamples is 0.7897: on ten cases the heuristic is
    only near the closed form; on large data the two agree (the paper's Figure 6).
    """

    def __init__(self, table: CountTable, pi0: float, *, n_resamples: int = 100,
                 random_state: Any = None, threshold: float = 0.5,
                 undefined: UndefinedPolicy = "warn", higher_is_positive: bool = True) -> None:
        p0 = check_in_range(pi0, "pi0", 0.0, 1.0, low_open=True, high_open=True)
        if isinstance(n_resamples, bool) or not isinstance(n_resamples, int | np.integer) \
                or n_resamples < 1:
            raise ValueError(f"n_resamples must be a positive integer; got {n_resamples!r}")
        check_resamples(n_resamples)
        with undefined_policy(undefined):
            pass  # validates the policy name
        self._sampler = _Subsampler(table, p0)
        self.table = table
        self.pi0 = p0
        self.n_resamples = int(n_resamples)
        self.threshold = float(threshold)
        self.higher_is_positive = bool(higher_is_positive)
        #: the cut on the table's scores
        self.cut = self.threshold if self.higher_is_positive else -self.threshold
        self.undefined: UndefinedPolicy = undefined
        self.pi = self._sampler.pi
        self.thinned = self._sampler.thinned
        self.n_positive = self._sampler.n_positive
        self.n_negative = self._sampler.n_negative
        # one seed for the whole sequence of subsamples, redrawn identically on each pass
        self._seed = int(np.random.default_rng(check_random_state(random_state)).integers(2**63))
        self._cache: dict[_Key, npt.NDArray[np.float64]] = {}

    # --- per-subsample values ------------------------------------------------------------
    @staticmethod
    def _key(m: Measure, params: dict[str, Any]) -> _Key:
        return m.id, tuple(sorted((k, repr(v)) for k, v in params.items()))

    def _compute(self, wanted: list[tuple[Measure, dict[str, Any]]]) -> None:
        """Fill the cache for the wanted (measure, params) with one pass over the subsamples."""
        todo = [(m, p) for m, p in wanted if self._key(m, p) not in self._cache]
        if not todo:
            return
        # every measure asked keeps its values over all subsamples
        check_resamples(self.n_resamples, per_resample=len(self._cache) + len(todo),
                        what="one per measure asked")
        out = {self._key(m, p): np.empty(self.n_resamples) for m, p in todo}
        rng = np.random.default_rng(self._seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMeasureWarning)
            for i, tab in enumerate(self._sampler.tables(rng, self.n_resamples)):
                for m, p in todo:
                    try:
                        with undefined_policy("ignore"):
                            out[self._key(m, p)][i] = m.compute(tab, self.cut,
                                                                **m.resolve_params(**p))
                    except ValueError:  # e.g. a probabilistic measure of scores outside [0, 1]
                        if not m.needs_probabilities:
                            raise
                        out[self._key(m, p)][i] = np.nan
        self._cache.update(out)

    def values(self, measure: str | Measure, **params: Any) -> npt.NDArray[np.float64]:
        """The measure on each subsample (NaN where it is undefined), in draw order."""
        m = get_measure(measure)
        p = m.resolve_params(**params)
        self._compute([(m, p)])
        v = self._cache[self._key(m, p)].copy()
        v.flags.writeable = False
        return v

    def n_undefined(self, measure: str | Measure, **params: Any) -> int:
        """How many subsamples leave the measure undefined."""
        return int(np.count_nonzero(np.isnan(self.values(measure, **params))))

    # --- summaries -----------------------------------------------------------------------
    def _report(self, m: Measure, v: npt.NDArray[np.float64]) -> None:
        bad = int(np.count_nonzero(np.isnan(v)))
        if bad == 0 or self.undefined == "ignore":
            return
        if bad == v.size:
            reason = f"it is undefined in all {bad} subsamples"
        else:
            reason = (f"it is undefined in {bad} of {v.size} subsamples; the summary uses "
                      f"the other {v.size - bad}")
        from binmetrics.exceptions import report_undefined

        with undefined_policy(self.undefined):
            report_undefined(m.id, reason)

    def value(self, measure: str | Measure, **params: Any) -> float:
        """The mean of the measure over the subsamples in which it is defined.

        NaN when it is undefined in all of them. When the subsamples are all the same
        (pi0 equal to the data's prevalence) this is exactly the raw value.
        """
        m = get_measure(measure)
        v = self.values(m, **params)
        self._report(m, v)
        ok = v[~np.isnan(v)]
        if ok.size == 0:
            return float("nan")
        # centred on the first value: identical values average to exactly that value
        return float(ok[0] + np.mean(ok - ok[0]))

    def __getitem__(self, measure: str) -> float:
        return self.value(measure)

    def std(self, measure: str | Measure, *, ddof: int = 1, **params: Any) -> float:
        """Standard deviation of the measure across the subsamples where it is defined
        (``ddof=1`` by default; NaN with fewer than ``ddof + 1`` defined values).
        The standard error of :meth:`value` is ``std / sqrt(number defined)``."""
        m = get_measure(measure)
        v = self.values(m, **params)
        ok = v[~np.isnan(v)]
        if ok.size <= ddof:
            return float("nan")
        return float(np.std(ok - ok[0], ddof=ddof))  # centred: equal values give 0

    def sem(self, measure: str | Measure, **params: Any) -> float:
        """Standard error of :meth:`value`: std / sqrt(subsamples where it is defined)."""
        v = self.values(measure, **params)
        n = int(np.count_nonzero(~np.isnan(v)))
        return self.std(measure, **params) / np.sqrt(n) if n > 1 else float("nan")

    def to_dict(self, family: Family | None = None, *,
                measures: Iterable[str | Measure] | None = None) -> dict[str, float]:
        """Every registered measure (default parameters) as ``{id: mean}``.

        ``family`` keeps one family; ``measures`` names the measures to give. All are
        computed in one pass over the subsamples. Undefined measures are reported
        with one :class:`~binmetrics.exceptions.UndefinedMeasureWarning` each.
        """
        chosen = select_measures(family, measures)
        self._compute([(m, m.resolve_params()) for m in chosen])
        return {m.id: self.value(m) for m in chosen}

    def to_frame(self, family: Family | None = None, *,
                 measures: Iterable[str | Measure] | None = None) -> pd.DataFrame:
        """A DataFrame: id, value (mean), std, n_undefined, n_resamples, pi0."""
        import pandas as pd

        chosen = select_measures(family, measures)
        values = self.to_dict(measures=chosen)
        return pd.DataFrame([{"id": m.id, "value": values[m.id], "std": self.std(m),
                              "n_undefined": self.n_undefined(m), "n_resamples": self.n_resamples,
                              "pi0": self.pi0} for m in chosen])

    def _repr_html_(self) -> str:
        """Jupyter: the repr's line over the table of :meth:`to_frame`."""
        return frame_html(repr(self), self.to_frame())

    def __repr__(self) -> str:
        return (f"UndersampledEvaluation(pi0={self.pi0:g}, n_resamples={self.n_resamples}, "
                f"pi={self.pi:g}, positives={self.n_positive}, negatives={self.n_negative})")


def undersample(evaluation: HasTable | CountTable, pi0: float, *, n_resamples: int = 100,
                random_state: Any = None) -> UndersampledEvaluation:
    """Repeated random undersampling of an evaluation set to prevalence ``pi0``.

    Same as ``evaluation.calibrated(pi0, method="undersample", ...)``; also accepts a
    (unweighted) :class:`~binmetrics.CountTable`.

    Parameters
    ----------
    evaluation : Evaluation or CountTable
        The full evaluation set; its table must be unweighted (cases, not weights).
    pi0 : float in (0, 1)
        The prevalence of every subsample.
    n_resamples : int, default 100
        The number of subsamples.
    random_state : seed or numpy Generator, optional
        The same seed gives the same subsamples.

    Returns
    -------
    UndersampledEvaluation

    Examples
    --------
    >>> import binmetrics as bm
    >>> from binmetrics.evaluation.undersampling import undersample
    >>> t = bm.CountTable.from_arrays([1, 0, 0, 1, 0, 0, 0, 0], [8, 7, 6, 5, 4, 3, 2, 1])
    >>> us = undersample(t, 0.5, n_resamples=10, random_state=1)
    >>> us.n_positive, us.n_negative, us.n_resamples
    (2, 2, 10)
    >>> us.values("auc").shape
    (10,)
    """
    if isinstance(evaluation, HasTable):
        return UndersampledEvaluation(evaluation.table, pi0, n_resamples=n_resamples,
                                      random_state=random_state,
                                      threshold=evaluation.threshold,
                                      undefined=getattr(evaluation, "undefined", "warn"),
                                      higher_is_positive=getattr(
                                          evaluation, "higher_is_positive", True))
    if isinstance(evaluation, CountTable):
        return UndersampledEvaluation(evaluation, pi0, n_resamples=n_resamples,
                                      random_state=random_state)
    raise TypeError(f"undersample needs an Evaluation or a CountTable; got "
                    f"{type(evaluation).__name__}")
