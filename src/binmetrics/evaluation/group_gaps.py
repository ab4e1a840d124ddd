"""Between-group comparisons of an :func:`~binmetrics.evaluate_by` result: gaps, ratios,
their bootstrap intervals and a test of "no gap".

:class:`GroupComparisons` is mixed into :class:`~binmetrics.evaluation.by.ByResult`. Its
definitions are fairlearn's ``MetricFrame`` ones (Weerts et al., 2023), with the group
values v_g of the evaluated groups g = 1..G and the overall value v (the measure on the
union of every group's rows):

* ``difference(method="between_groups")`` = max_g v_g - min_g v_g;
* ``difference(method="to_overall")`` = max_g |v_g - v|;
* ``ratio(method="between_groups")`` = min_g v_g / max_g v_g;
* ``ratio(method="to_overall")`` = min_g min(v_g / v, v / v_g).

Intervals (``ci=True``) come from a bootstrap stratified by group and class: every
replicate resamples the positives and the negatives of every group separately, each group
from its own count table (no new sort), with one random stream per group spawned from
``random_state``, so replicate b of the gap is the gap of the groups' replicates b (the
same replicates give the per-group intervals in ``GapResult.by_group``). Confusion
measures are resampled on each group's 2x2 table, whose stratified bootstrap has the same
distribution as that of the group's rows and costs one multinomial draw per class and
replicate. The test of "no gap" is the bootstrap test of Hall & Wilson (1991): the
replicates are centred on the estimates (v*_g - v_g), which imposes the null of equal
values while keeping each group's sampling variability, and the p-value is
(1 + #{gap of the centred replicates >= observed gap}) / (1 + B).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import numpy as np
import numpy.typing as npt
import pandas as pd

from binmetrics.chart import ChartData, Series, render
from binmetrics.evaluation.binary import Evaluation
from binmetrics.evaluation.options import EvalOptions, check_pi0
from binmetrics.exceptions import (
    UndefinedMeasureError,
    UndefinedMeasureWarning,
    current_policy,
    undefined_policy,
    warn_at_user,
)
from binmetrics.formatting import HypothesisTest
from binmetrics.inference.intervals import Interval
from binmetrics.inference.resampling import bootstrap, bootstrap_count_blocks, quantiles
from binmetrics.measures import Measure, get_measure
from binmetrics.table.counts import Confusion, CountTable, FloatArray
from binmetrics.validation import check_level, check_random_state, check_resamples

__all__ = ["GapResult", "GroupComparisons", "gap_statistic", "group_label", "null_pvalue"]

GapMethod = Literal["between_groups", "to_overall"]
_METHODS = ("between_groups", "to_overall")


def gap_statistic(kind: str, method: str, values: npt.ArrayLike,
                  overall: npt.ArrayLike | None = None) -> FloatArray:
    """The difference or ratio of group values, along the last axis (vectorised over
    replicates): fairlearn's ``MetricFrame.difference``/``ratio`` formulas (module
    docstring). NaN where a group value is NaN or the denominator is 0.

    Examples
    --------
    >>> float(gap_statistic("difference", "between_groups", [0.5, 0.8, 0.6]))
    0.30000000000000004
    >>> float(gap_statistic("ratio", "to_overall", [0.5, 0.8], 0.64))
    0.78125
    """
    v = np.asarray(values, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        if method == "between_groups":
            hi, lo = v.max(axis=-1), v.min(axis=-1)
            if kind == "difference":
                return np.asarray(hi - lo)
            return np.asarray(np.where(hi != 0, lo / hi, np.nan))
        o = np.asarray(overall, dtype=np.float64)[..., None]
        if kind == "difference":
            return np.asarray(np.abs(v - o).max(axis=-1))
        r = v / o
        r = np.where(r > 1, 1.0 / r, r)
        return np.asarray(np.where(o[..., 0] != 0, r.min(axis=-1), np.nan))


def null_pvalue(null: FloatArray, observed: float) -> float:
    """(1 + #{null >= observed}) / (1 + #defined null values): the bootstrap p-value of
    a gap (ties within 1e-12 relative count as reached)."""
    d = null[~np.isnan(null)]
    if math.isnan(observed) or d.size == 0:
        return math.nan
    return float((1 + np.count_nonzero(d >= observed * (1 - 1e-12))) / (1 + d.size))


@dataclass(frozen=True, eq=False, repr=False)
class GapResult(HypothesisTest):
    """A between-group gap with its bootstrap interval and a test of "no gap".

    Attributes
    ----------
    measure : str
        The measure's id.
    kind : {"difference", "ratio"}
    method : str
        ``"between_groups"`` or ``"to_overall"`` with the procedure:
        "between_groups-bootstrap", "to_overall-bootstrap".
    estimate : float
        The gap on the data (``ByResult.difference`` or ``ratio`` without ``ci``).
    ci : Interval
        Percentile interval of the gap over the defined replicates.
    pvalue : float
        The bootstrap test of "all groups have the same value" (module docstring); a
        ratio gets the p-value of the difference, the same null hypothesis.
    alternative : "two-sided"
        The gap grows with a difference in any direction.
    pi0 : float or None
        The common prevalence the groups were compared at (Siblini et al.), or None.
    overall : float
        The measure on all the rows (at ``pi0`` when given).
    by_group : pandas.DataFrame
        One row per compared group: its key(s), ``value`` and the ``low``/``high`` of its
        percentile interval from the same replicates.
    replicates : numpy.ndarray
        The gap on each replicate (NaN where undefined).
    null_distribution : numpy.ndarray
        The difference of the centred replicates (the null of equal values) that the
        p-value counts; NaN where undefined.
    n_resamples, n_undefined : int
        Replicates drawn; replicates where the gap was undefined (left out).
    """

    measure: str
    kind: str
    method: str
    estimate: float
    ci: Interval
    pvalue: float
    alternative: str
    pi0: float | None
    overall: float
    by_group: pd.DataFrame
    replicates: FloatArray
    null_distribution: FloatArray
    n_resamples: int
    n_undefined: int

    protocol_fields: ClassVar[tuple[str, ...]] = ("statistic", "pvalue", "alternative",
                                                  "method")

    @property
    def statistic(self) -> float:
        """The observed gap (``estimate``), the test's statistic."""
        return self.estimate

    def to_frame(self) -> pd.DataFrame:
        """One row: measure, kind, method, estimate, low, high, level, pvalue, pi0,
        overall, n_resamples, n_undefined (``by_group`` has the groups)."""
        return pd.DataFrame([{
            "measure": self.measure, "kind": self.kind, "method": self.method,
            "estimate": self.estimate, "low": self.ci.low, "high": self.ci.high,
            "level": self.ci.level, "pvalue": self.pvalue, "pi0": self.pi0,
            "overall": self.overall, "n_resamples": self.n_resamples,
            "n_undefined": self.n_undefined}])

    def _title(self) -> str:
        at = "" if self.pi0 is None else f" at pi0={self.pi0:.4g}"
        return (f"GapResult({self.kind} of {self.measure}{at}, {self.method}, "
                f"{len(self.by_group)} groups)")


class GroupComparisons:
    """Between-group comparisons of per-group evaluations (mixed into ByResult).

    Every method takes a measure id or alias (a registered measure) and compares the
    groups that were evaluated and where the measure is defined; the others are left
    out with one warning naming them and why (fewer than ``min_cases`` rows, one
    class, an undefined value).
    """

    keys: list[Any]
    by: list[str]
    evaluations: dict[Any, Evaluation | None]
    tables: dict[Any, CountTable | None]
    options: EvalOptions
    pos_label: Any
    _frame: pd.DataFrame

    # --- values ------------------------------------------------------------------------
    @property
    def overall(self) -> Evaluation:
        """The evaluation of all the rows (every group's table merged, also those of
        the groups not evaluated): fairlearn's ``MetricFrame.overall``."""
        cached = self.__dict__.get("_overall")
        if cached is None:
            present = [t for t in self.tables.values() if t is not None]
            if not present:
                raise ValueError("no group has a row with a finite score: there is no "
                                 "overall evaluation")
            merged = present[0].merge(*present[1:])
            merged.weight_exponent = present[0].weight_exponent
            cached = self.options.evaluation(
                merged, pos_label=self.pos_label, calibrate=False, check_range=False,
                n_rows=int(self._frame["n"].sum()),
                n_positive_rows=int(self._frame["positives"].sum()))
            self.__dict__["_overall"] = cached
        return cached

    def _reference(self, pi0: Any) -> float | None:
        rule = check_pi0(pi0)
        if rule is None or isinstance(rule, float):
            return rule
        evaluated = self._frame.loc[self._frame["reason"] == "", "prevalence"]
        if evaluated.empty:
            raise ValueError(f"pi0={rule!r} averages the evaluated groups' prevalences, "
                             "and no group was evaluated")
        return float(evaluated.mean() if rule == "mean" else evaluated.min())

    def _compared(self, measure: Any, pi0: float | None,
                  least: int) -> tuple[Measure, dict[Any, float]]:
        """The measure's value in each comparable group; one warning for the others."""
        if len(self.keys) == 1:
            raise ValueError(f"{', '.join(self.by)} has one group ({group_label(self.keys[0])}); "
                             "comparing groups needs at least two")
        m = get_measure(measure)
        values: dict[Any, float] = {}
        left: list[str] = []
        reasons = dict(zip(self.keys, self._frame["reason"], strict=True))
        for key, ev in self.evaluations.items():
            if ev is None:
                left.append(f"{group_label(key)} ({reasons[key]})")
                continue
            e = ev if pi0 is None else ev.calibrated(pi0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UndefinedMeasureWarning)
                v = e.value(m)
            if math.isnan(v):
                left.append(f"{group_label(key)} ({m.id} is undefined)")
            else:
                values[key] = v
        if left and self.options.undefined != "ignore":
            warn_at_user(f"{len(left)} group{'s' if len(left) > 1 else ''} left out of the "
                         f"comparison of {m.id}: {'; '.join(left)}", UndefinedMeasureWarning)
        if len(values) < least:
            raise ValueError(f"comparing {m.id} needs at least {least} group"
                             f"{'s' if least > 1 else ''} where it is defined; "
                             f"{len(values)} remain")
        return m, values

    def _overall_value(self, m: Measure, pi0: float | None) -> float:
        ev = self.overall if pi0 is None else self.overall.calibrated(pi0)
        return ev.value(m)

    def by_group(self, measure: str | Measure, *, pi0: float | str | None = None) -> pd.Series:
        """The measure in every compared group (fairlearn's ``MetricFrame.by_group``),
        indexed by the group keys; at the common prevalence ``pi0`` when given (see
        :meth:`difference`).

        Examples
        --------
        >>> import pandas as pd
        >>> import binmetrics as bm
        >>> df = pd.DataFrame({"g": list("aaaabbbb"), "y": [1, 1, 0, 0, 1, 1, 0, 0],
        ...                    "p": [.9, .4, .6, .1, .8, .7, .2, .3]})
        >>> bm.evaluate_by(df, label="y", score="p", by="g", measures=["tpr"]).by_group("tpr")
        g
        a    0.5
        b    1.0
        Name: tpr, dtype: float64
        """
        m, values = self._compared(measure, self._reference(pi0), 1)
        index: Any = list(values)
        if len(self.by) > 1:
            index = pd.MultiIndex.from_tuples(index, names=self.by)
        else:  # one column given as a list: its values, as fairlearn's index
            index = pd.Index([k[0] if isinstance(k, tuple) else k for k in index],
                             name=self.by[0], tupleize_cols=False)
        return pd.Series(list(values.values()), index=index, name=m.id, dtype=float)

    def group_min(self, measure: str | Measure, *, pi0: float | str | None = None) -> float:
        """The smallest group value (fairlearn's ``MetricFrame.group_min``)."""
        return float(min(self._compared(measure, self._reference(pi0), 1)[1].values()))

    def group_max(self, measure: str | Measure, *, pi0: float | str | None = None) -> float:
        """The largest group value (fairlearn's ``MetricFrame.group_max``)."""
        return float(max(self._compared(measure, self._reference(pi0), 1)[1].values()))

    # --- gaps --------------------------------------------------------------------------
    def difference(self, measure: str | Measure, *, method: GapMethod = "between_groups",
                   pi0: float | str | None = None, ci: bool = False, level: float = 0.95,
                   n_resamples: int = 2000, random_state: Any = None) -> Any:
        """The largest gap in a measure between the groups.

        ``method="between_groups"``: max_g v_g - min_g v_g; ``"to_overall"``:
        max_g |v_g - v| with v the value on all the rows (fairlearn's
        ``MetricFrame.difference``; the same numbers to rounding).

        Parameters
        ----------
        measure : str or Measure
            A registered measure id or alias.
        method : {"between_groups", "to_overall"}, default "between_groups"
        pi0 : float in (0, 1), "mean", "min" or None
            Compare the groups at one common prevalence (Siblini et al., sec. 5): every
            group's measure is its calibrated version, the negatives reweighted by
            c_g = pi_g (1 - pi0) / (pi0 (1 - pi_g)) (precision becomes
            TP / (TP + c_g FP)), so a difference in prevalence is not read as a
            difference of the model. "mean" is the mean prevalence of the evaluated
            groups, "min" the smallest. Measures that do not depend on the prevalence
            (TPR, FPR, AUC...) are unchanged. Default None: raw values.
        ci : bool, default False
            Also compute a percentile bootstrap interval of the gap and the p-value of
            "no gap" (module docstring); then a :class:`GapResult` is returned.
        level, n_resamples, random_state :
            The interval's confidence level, the bootstrap replicates and the seed (the
            same seed gives the same replicates).

        Returns
        -------
        float or GapResult
            The gap; with ``ci=True`` a :class:`GapResult`.

        Warns
        -----
        UndefinedMeasureWarning
            Once, naming the groups left out (not evaluated, or the measure undefined).

        Examples
        --------
        >>> import pandas as pd
        >>> import binmetrics as bm
        >>> df = pd.DataFrame({"g": list("aaaabbbb"), "y": [1, 1, 0, 0, 1, 1, 0, 0],
        ...                    "p": [.9, .4, .6, .1, .8, .7, .2, .3]})
        >>> g = bm.evaluate_by(df, label="y", score="p", by="g", measures=["tpr"])
        >>> g.difference("tpr"), g.difference("tpr", method="to_overall")
        (0.5, 0.25)
        >>> r = g.difference("tpr", ci=True, n_resamples=200, random_state=0)
        >>> r.estimate, bool(r.ci.low <= 0.5 <= r.ci.high), 0 < r.pvalue <= 1
        (0.5, True, True)
        """
        return self._gap("difference", measure, method, pi0, ci, level, n_resamples,
                         random_state)

    def ratio(self, measure: str | Measure, *, method: GapMethod = "between_groups",
              pi0: float | str | None = None, ci: bool = False, level: float = 0.95,
              n_resamples: int = 2000, random_state: Any = None) -> Any:
        """The smallest ratio of a measure between the groups, at most 1.

        ``method="between_groups"``: min_g v_g / max_g v_g; ``"to_overall"``:
        min_g min(v_g / v, v / v_g) (fairlearn's ``MetricFrame.ratio``). A zero
        denominator (the largest group value, or the overall value, is 0) gives NaN
        with a warning saying so, where fairlearn gives NaN or 0. The other arguments
        are those of :meth:`difference`; with ``ci=True`` the p-value is that of the
        difference (the same null: all groups equal).

        Examples
        --------
        >>> import pandas as pd
        >>> import binmetrics as bm
        >>> df = pd.DataFrame({"g": list("aaaabbbb"), "y": [1, 1, 0, 0, 1, 1, 0, 0],
        ...                    "p": [.9, .4, .6, .1, .8, .7, .2, .3]})
        >>> bm.evaluate_by(df, label="y", score="p", by="g", measures=["tpr"]).ratio("tpr")
        0.5
        """
        return self._gap("ratio", measure, method, pi0, ci, level, n_resamples,
                         random_state)

    def _gap(self, kind: str, measure: Any, method: Any, pi0: Any, ci: bool, level: float,
             n_resamples: int, random_state: Any) -> Any:
        if method not in _METHODS:
            raise ValueError(f"method must be 'between_groups' or 'to_overall'; got {method!r}")
        p0 = self._reference(pi0)
        m, values = self._compared(measure, p0, 2)
        keys = list(values)
        v = np.array(list(values.values()))
        overall = self._overall_value(m, p0) if method == "to_overall" else math.nan
        est = float(gap_statistic(kind, method, v, overall))
        if math.isnan(est):
            _warn_zero(kind, method, m.id)
        if not ci:
            return est
        lv = check_level(level)
        B = check_resamples(n_resamples)
        reps, o_reps = self._replicates(m, keys, p0, B, random_state,
                                        need_overall=method == "to_overall")
        gaps = gap_statistic(kind, method, reps.T, o_reps)
        defined = gaps[~np.isnan(gaps)]
        k = int(gaps.size - defined.size)
        if k:
            _undefined_replicates(f"the {kind} of {m.id}", k, B)
        alpha = (1.0 - lv) / 2.0
        lo, hi = (quantiles(defined, [alpha, 1 - alpha]) if defined.size and not
                  math.isnan(est) else (math.nan, math.nan))
        # the null of equal values: each group's replicates centred on its estimate
        centred = reps - v[:, None]
        o_centred = None if o_reps is None else o_reps - overall
        null = gap_statistic("difference", method, centred.T, o_centred)
        d_est = est if kind == "difference" else float(
            gap_statistic("difference", method, v, overall))
        pvalue = null_pvalue(null, d_est)
        frame = self._group_frame(keys, v, reps, alpha)
        iv = Interval(estimate=est, low=float(lo), high=float(hi), level=lv,
                      method="bootstrap-percentile")
        return GapResult(measure=m.id, kind=kind, method=f"{method}-bootstrap", estimate=est,
                         ci=iv, pvalue=pvalue, alternative="two-sided", pi0=p0,
                         overall=self._overall_value(m, p0), by_group=frame,
                         replicates=gaps, null_distribution=null, n_resamples=B,
                         n_undefined=k)

    def _group_frame(self, keys: list[Any], v: FloatArray, reps: FloatArray,
                     alpha: float) -> pd.DataFrame:
        rows = []
        for key, value, r in zip(keys, v, reps, strict=True):
            d = r[~np.isnan(r)]
            lo, hi = quantiles(d, [alpha, 1 - alpha]) if d.size else (math.nan, math.nan)
            parts = key if isinstance(key, tuple) else (key,)
            rows.append({**dict(zip(self.by, parts, strict=True)), "value": float(value),
                         "low": float(lo), "high": float(hi)})
        return pd.DataFrame(rows, columns=[*self.by, "value", "low", "high"])

    def best_thresholds(self, measure: str | Measure, *,
                        constraint: str = "equal_opportunity",
                        tolerance: float = 0.02) -> Any:
        """One threshold per group maximising ``measure`` on all the rows, subject to
        ``constraint``: "equal_opportunity" (TPR), "demographic_parity" (selection
        rate) or "predictive_equality" (FPR) within ``tolerance`` across the groups.

        fairlearn's ``ThresholdOptimizer`` idea on the groups' exact curves: see
        :mod:`binmetrics.evaluation.group_thresholds` for the search. Returns a
        :class:`~binmetrics.evaluation.group_thresholds.GroupThresholds` with each
        group's threshold and rate, the value reached, and the best single threshold
        for comparison.

        Examples
        --------
        >>> import pandas as pd
        >>> import binmetrics as bm
        >>> df = pd.DataFrame({"g": list("aaaabbbb"), "y": [1, 1, 0, 0, 1, 1, 0, 0],
        ...                    "p": [.9, .4, .6, .1, .8, .7, .2, .3]})
        >>> g = bm.evaluate_by(df, label="y", score="p", by="g", measures=["tpr"])
        >>> t = g.best_thresholds("f1", tolerance=0.0)
        >>> t.to_frame()[["g", "threshold", "rate"]]
           g  threshold  rate
        0  a        0.4   1.0
        1  b        0.7   1.0
        """
        from binmetrics.evaluation.group_thresholds import best_group_thresholds

        return best_group_thresholds(self.evaluations, self.by, measure, constraint,
                                     tolerance)

    # --- drawing ----------------------------------------------------------------------
    def chart(self, measure: str | Measure, *, pi0: float | str | None = None,
              level: float = 0.95, n_resamples: int = 2000,
              random_state: Any = None) -> ChartData:
        """The numbers of :meth:`plot_groups`: each compared group's value (markers) with
        its percentile interval (a vertical segment) from the gap's bootstrap, and the
        overall value (a dashed line); the title gives the between-group difference with
        its interval."""
        r = self.difference(measure, pi0=pi0, ci=True, level=level, n_resamples=n_resamples,
                            random_state=random_state)
        f = r.by_group
        x = np.arange(len(f), dtype=float)
        nan = np.full(len(f), np.nan)
        seg_x = np.column_stack([x, x, nan]).ravel()
        seg_y = np.column_stack([f["low"], f["high"], nan]).ravel()
        labels = [group_label(tuple(row) if len(self.by) > 1 else row[0])
                  for row in f[self.by].itertuples(index=False)]
        at = "" if r.pi0 is None else f" at pi0={r.pi0:.3g}"
        series = (
            Series(seg_x, seg_y, f"{r.ci.level:.0%} interval", style="solid", width=2.0),
            Series(x, f["value"].to_numpy(dtype=float), r.measure, style="markers",
                   marker="o"),
            Series(np.array([-0.5, len(f) - 0.5]), np.array([r.overall, r.overall]),
                   f"overall {r.overall:.3g}", style="dashed", shared=True),
        )
        title = (f"{r.measure}{at} by {', '.join(self.by)}: difference {r.estimate:.3g} "
                 f"[{r.ci.low:.3g}, {r.ci.high:.3g}], p = {r.pvalue:.3g}")
        return ChartData("groups", title, ", ".join(self.by), r.measure, series,
                         xticks=(list(x), labels), legend="best", pad=0.05)

    def plot_groups(self, measure: str | Measure, *, ax: Any = None,
                    pi0: float | str | None = None, level: float = 0.95,
                    n_resamples: int = 2000, random_state: Any = None) -> Any:
        """Draw each group's value with its interval and the overall line (:meth:`chart`;
        needs matplotlib, ``pip install 'binmetrics[plot]'``).

        Examples
        --------
        >>> import pandas as pd
        >>> import binmetrics as bm
        >>> df = pd.DataFrame({"g": list("aaaabbbb"), "y": [1, 1, 0, 0, 1, 1, 0, 0],
        ...                    "p": [.9, .4, .6, .1, .8, .7, .2, .3]})
        >>> g = bm.evaluate_by(df, label="y", score="p", by="g", measures=["tpr"])
        >>> ax = g.plot_groups("tpr", n_resamples=200, random_state=0)  # doctest: +SKIP
        """
        return render(self.chart(measure, pi0=pi0, level=level, n_resamples=n_resamples,
                                 random_state=random_state), ax,
                      feature="ByResult.plot_groups")

    # --- replicates --------------------------------------------------------------------
    def _streams(self, random_state: Any) -> dict[Any, np.random.Generator]:
        """One random stream per group of the result (in key order), so a group's
        replicates do not depend on which groups are compared or on the measure."""
        parent = np.random.default_rng(check_random_state(random_state))
        return dict(zip(self.keys, parent.spawn(len(self.keys)), strict=True))

    def _cases(self, key: Any) -> tuple[int, int] | None:
        """A weighted group's rows per class, the cases its bootstrap draws."""
        table = self.tables[key]
        if table is None or not table.weighted:
            return None
        i = self.keys.index(key)
        n, pos = int(self._frame["n"].iloc[i]), int(self._frame["positives"].iloc[i])
        return pos, n - pos

    def _replicates(self, m: Measure, keys: list[Any], pi0: float | None, B: int,
                    random_state: Any, *, need_overall: bool
                    ) -> tuple[FloatArray, FloatArray | None]:
        """(groups x B) replicate values of the compared groups and, for "to_overall",
        the B overall values (the sum of every group's replicate)."""
        streams = self._streams(random_state)
        if m.family != "confusion":
            if need_overall:
                raise ValueError(f"intervals of method='to_overall' resample the overall "
                                 f"value from the groups' 2x2 tables, which only confusion "
                                 f"measures are functions of; {m.id} is a {m.family} "
                                 "measure: use method='between_groups'")
            out = np.empty((len(keys), B))
            for i, key in enumerate(keys):
                table = self.tables[key]
                assert table is not None
                stat: Any = m.id
                if pi0 is not None:
                    stat = _calibrated_statistic(m, pi0)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", UndefinedMeasureWarning)
                    res = bootstrap(table, stat, n_resamples=B, random_state=streams[key],
                                    n_cases=self._cases(key))
                out[i] = res.replicates[m.id]
            return out, None
        cut = self.overall.cut
        params = m.resolve_params()
        counts = {key: _confusion_replicates(t.confusion(cut), t.weighted, B, streams[key],
                                             self._cases(key))
                  for key, t in self.tables.items()
                  if t is not None and (key in keys or need_overall)}

        def value(c: tuple[FloatArray, ...], table: CountTable) -> FloatArray:
            tp, fn, fp, tn = c
            w = 1.0 if pi0 is None else _weight_of_negatives(table, pi0)
            with undefined_policy("ignore"):
                r = m.func(Confusion(tp=tp, fp=w * fp, fn=fn, tn=w * tn), **params)
            return np.broadcast_to(np.asarray(r, dtype=np.float64), (B,))

        out = np.vstack([value(counts[key], self.tables[key]) for key in keys])  # type: ignore[arg-type]
        if not need_overall:
            return out, None
        total = tuple(np.sum([c[j] for c in counts.values()], axis=0) for j in range(4))
        return out, value(total, self.overall.table)


def _confusion_replicates(c: Confusion, weighted: bool, B: int, rng: np.random.Generator,
                          n_cases: tuple[int, int] | None) -> tuple[FloatArray, ...]:
    """(tp, fn, fp, tn), each of length B: the stratified bootstrap of a group's cases
    at the cut, drawn on its 2x2 table (one multinomial draw per class and replicate,
    :func:`~binmetrics.inference.resampling.bootstrap_count_blocks`), the same
    distribution as a stratified bootstrap of its rows."""
    table = CountTable(np.array([1.0, 0.0]), np.array([c.tp, c.fn], dtype=np.float64),
                       np.array([c.fp, c.tn], dtype=np.float64), weighted=weighted)
    top = table.scores == 1.0
    parts: list[list[FloatArray]] = [[], [], [], []]
    for pos, neg in bootstrap_count_blocks(table, B, random_state=rng, n_cases=n_cases):
        parts[0].append(pos[:, top].sum(axis=1))
        parts[1].append(pos[:, ~top].sum(axis=1))
        parts[2].append(neg[:, top].sum(axis=1))
        parts[3].append(neg[:, ~top].sum(axis=1))
    return tuple(np.concatenate(p).astype(np.float64) for p in parts)


def _weight_of_negatives(table: CountTable, pi0: float) -> float:
    """Siblini et al.'s c = pi (1 - pi0) / (pi0 (1 - pi)) of a table."""
    cal = table.calibrated(pi0).calibration
    assert cal is not None
    return float(cal[0])


def _calibrated_statistic(m: Measure, pi0: float) -> Any:
    params = m.resolve_params()

    def statistic(table: CountTable) -> float:
        return float(m.func(table.calibrated(pi0), **params))

    statistic.__name__ = m.id
    return statistic


def _warn_zero(kind: str, method: str, measure: str) -> None:
    if kind == "ratio":
        where = "largest group value" if method == "between_groups" else "overall value"
        warn_at_user(f"the ratio of {measure} is undefined (NaN): the {where} is 0",
                     UndefinedMeasureWarning)


def _undefined_replicates(what: str, k: int, total: int) -> None:
    policy = current_policy()
    if policy == "ignore":
        return
    msg = (f"{what} is undefined (NaN) in {k} of {total} bootstrap replicates; the "
           f"interval uses the {total - k} defined ones")
    if policy == "raise":
        raise UndefinedMeasureError(msg)
    warn_at_user(msg, UndefinedMeasureWarning)


def group_label(key: Any) -> str:
    return ", ".join(str(k) for k in key) if isinstance(key, tuple) else str(key)
