"""``evaluate()`` and the :class:`Evaluation` it returns: every measure from one table."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal, TypeVar, overload

from binmetrics.evaluation.calibration import CalibrationMethods
from binmetrics.evaluation.chart_inputs import PlotSource
from binmetrics.evaluation.clustered_ci import ClusteredMethods
from binmetrics.evaluation.cut_choice import BestThreshold
from binmetrics.evaluation.inference_methods import InferenceMethods
from binmetrics.evaluation.per_case import PerCaseMethods
from binmetrics.evaluation.thresholds import ThresholdMethods
from binmetrics.evaluation.tracking import TrackingMethods
from binmetrics.exceptions import (
    BinmetricsWarning,
    Deferred,
    SumsUnavailable,
    UnaskedCaveats,
    UndefinedMeasureWarning,
    UndefinedPolicy,
    asked_for,
    caveats_once,
    report_undefined,
    undefined_message,
    undefined_policy,
    warn_at_user,
)
from binmetrics.formatting import frame_text
from binmetrics.measures import Measure, get_measure
from binmetrics.measures.registry import Family, select_measures
from binmetrics.measures.sums import shared_sums
from binmetrics.table.counts import Confusion, CountTable
from binmetrics.table.threshold_range import warn_threshold_range as _warn_range
from binmetrics.validation import check_threshold

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

    from binmetrics.curves import (
        AccumulationCurve,
        DETCurve,
        GainCurve,
        LiftCurve,
        PRCurve,
        PRGCurve,
        ROCCurve,
        ThresholdCurves,
    )
    from binmetrics.evaluation.summary import Summary
    from binmetrics.evaluation.undersampling import UndersampledEvaluation
    from binmetrics.table.binning import Binning

__all__ = ["BestThreshold", "Evaluation", "prediction_rule", "warn_threshold_range"]

#: a curve with thresholds (ROC, DET, PR, threshold curves)
# the curves load on first use (curves imports pandas and the inference layer's scipy.stats)
_C = TypeVar("_C", "ROCCurve", "DETCurve", "PRCurve", "ThresholdCurves")


def prediction_rule(higher_is_positive: bool = True) -> str:
    """The prediction rule in words: ``score >= threshold`` is positive, or ``<=`` when
    lower scores mean positive.

    Examples
    --------
    >>> prediction_rule(False)
    'score <= threshold'
    """
    return "score >= threshold" if higher_is_positive else "score <= threshold"


def warn_threshold_range(table: CountTable, threshold: float, *,
                         higher_is_positive: bool = True) -> None:
    """Warn, at the user's line, when ``threshold`` lies outside the scores' range:
    every case is then predicted the same class (the confusion measures describe a
    constant classifier). The command line says ``--threshold``.

    Examples
    --------
    >>> import warnings
    >>> import binmetrics as bm
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     ev = bm.evaluate([1, 0, 1], [0.9, 0.2, 0.6], threshold=1.5)
    >>> print(caught[0].message)
    threshold 1.5 is outside the scores' range [0.2, 0.9]: every case is predicted negative
    """
    _warn_range(table, threshold, higher_is_positive=higher_is_positive)


class Evaluation(InferenceMethods, CalibrationMethods, ThresholdMethods, PerCaseMethods,
                 PlotSource, TrackingMethods, ClusteredMethods):
    """All measures of one classifier on one data set, computed from its count table.

    Create it with :func:`evaluate`. Index it with any measure id or alias
    (``ev["mcc"]``, ``ev["sensitivity"]``), or call :meth:`value` to pass
    parameters. The table is built once; :meth:`at_threshold` and
    :meth:`best_threshold` reuse it without sorting again. An Evaluation can also
    be made from a table directly, e.g. one merged from batches.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.4, 0.3, 0.1])
    >>> ev.confusion
    Confusion(tp=2, fp=1, fn=1, tn=2)
    >>> ev["sensitivity"], ev["precision"]
    (0.6666666666666666, 0.6666666666666666)
    >>> ev.at_threshold(0.35)["tpr"]
    1.0
    >>> a = bm.CountTable.from_arrays([1, 0, 1], [0.9, 0.8, 0.7])
    >>> b = bm.CountTable.from_arrays([1, 0, 0], [0.4, 0.3, 0.1])
    >>> bm.Evaluation(a + b)["auc"] == ev["auc"]
    True
    """

    def __init__(
        self,
        table: CountTable,
        *,
        threshold: float = 0.5,
        pos_label: Any = 1,
        n_omitted: int = 0,
        undefined: UndefinedPolicy = "warn",
        n_rows: int | None = None,
        n_positive_rows: int | None = None,
        higher_is_positive: bool = True,
    ) -> None:
        with undefined_policy(undefined):
            pass  # validates the policy name
        self.table = table
        #: the cut in the user's units: ``score >= threshold`` is positive, or
        #: ``score <= threshold`` when ``higher_is_positive`` is False
        self.threshold = check_threshold(threshold)
        #: False: lower scores mean more likely positive; the table then holds the
        #: negated scores, so every measure is that of ``-score`` (see :attr:`cut`)
        self.higher_is_positive = bool(higher_is_positive)
        self.pos_label = pos_label
        self.n_omitted = int(n_omitted)
        if n_rows is None and not table.weighted:  # unweighted counts are rows
            n_rows, n_positive_rows = int(table.total), int(table.P)
        #: rows evaluated (after nan_policy="omit") and how many are positive;
        #: None for a weighted table built without the rows
        self.n_rows, self.n_positive_rows = n_rows, n_positive_rows
        self.undefined: UndefinedPolicy = undefined
        self._confusion = table.confusion(self.cut)
        self._cache: dict[tuple[str, tuple[tuple[str, Any], ...]], Any] = {}
        self._unasked = UnaskedCaveats()  # BEDROC's caveat after ev.to_dict(): ev["bedroc"]
        if table.binning is not None:  # binned scores: warn if the threshold cuts a bin
            table.binning.warn_inexact(self.cut, table, stacklevel=2)

    @property
    def cut(self) -> float:
        """The threshold on the table's scores (``table score >= cut`` is positive):
        :attr:`threshold`, negated when lower scores mean positive."""
        return float(self.oriented(self.threshold))

    def oriented(self, values: Any) -> Any:
        """Scores or thresholds moved between the user's units and the table's: negated
        when lower scores mean positive, else unchanged (the same map both ways, as
        :meth:`EvalOptions.oriented <binmetrics.evaluation.options.EvalOptions.oriented>`).

        Examples
        --------
        >>> import binmetrics as bm
        >>> bm.evaluate([1, 0], [1.0, 2.0], threshold=1.5, higher_is_positive=False).oriented(1.5)
        -1.5
        """
        return values if self.higher_is_positive else -values

    @property
    def rule(self) -> str:
        """The prediction rule in words, for displays."""
        return prediction_rule(self.higher_is_positive)

    # --- values ----------------------------------------------------------------------
    @property
    def confusion(self) -> Confusion:
        """TP, FP, FN, TN at ``score >= threshold`` (``<=`` when lower scores mean
        positive; integers unless weighted)."""
        return self._shown(self._confusion)

    def _shown(self, c: Confusion) -> Confusion:
        if self.table.weighted:
            return c
        return Confusion(tp=int(c.tp), fp=int(c.fp), fn=int(c.fn), tn=int(c.tn))

    def value(self, measure: str | Measure, **params: Any) -> float:
        """The value of one measure, with optional parameters.

        Examples
        --------
        >>> import binmetrics as bm
        >>> ev = bm.evaluate([1, 0, 1, 1, 0], [0.9, 0.8, 0.7, 0.3, 0.2])
        >>> round(ev.value("fbeta", beta=2), 4)  # TP 2, FP 1, FN 1: 5*2 / (5*2 + 4*1 + 1)
        0.6667
        """
        m = get_measure(measure)
        p = m.resolve_params(**params)
        key = (m.id, tuple(sorted((k, repr(v)) for k, v in p.items())))
        with asked_for((m.id,)), undefined_policy(self.undefined), caveats_once():
            if key not in self._cache:
                arg = self._confusion if m.family == "confusion" else self.table
                with self._unasked.collect(key):
                    try:
                        self._cache[key] = float(m.func(arg, **p))
                    except SumsUnavailable as exc:  # binned scores: the engine lacks this sum
                        report_undefined(m.id, str(exc))
                        self._cache[key] = float("nan")
            else:  # computed for a table of every measure, now asked for by name
                self._unasked.replay(key, m.id)
        return self._cache[key]

    def __getitem__(self, measure: str) -> float:
        return self.value(measure)

    def interpret(self, measure: str | Measure, *, scale: str | None = None,
                  **params: Any) -> str:
        """The value's reading on a benchmark scale, as PyCM prints it
        (:func:`binmetrics.measures.interpretation.interpret`): ``ev.interpret("kappa")``
        gives e.g. ``"moderate (Landis & Koch)"``; ``scale="fleiss"`` another scale."""
        from binmetrics.measures.interpretation import interpret

        return interpret(get_measure(measure).id, self.value(measure, **params), scale)

    def __contains__(self, measure: object) -> bool:
        try:
            get_measure(measure)  # type: ignore[arg-type]
        except (KeyError, TypeError):
            return False
        return True

    def _value_or_nan(self, m: Measure) -> float:
        try:
            return self.value(m)
        except ValueError as exc:  # the input cannot give it (scores are not probabilities)
            if m.needs_probabilities and not self.table.probabilities_ok:
                if self.undefined == "raise":
                    raise
                if self.undefined == "warn":
                    reason = "the scores are not probabilities in [0, 1]"
                    why = str(exc)
                    if not self.higher_is_positive:  # the table holds -score
                        reason = ("higher_is_positive=False reads the scores negated, so "
                                  "they are not probabilities")
                        why = (f"{m.id} needs probabilities of the positive class; "
                               f"{reason} (pass 1 - p with the default orientation)")
                    warn_at_user(UndefinedMeasureWarning(
                        f"{m.id} is undefined: {why}; returning NaN", (m.id,), reason))
                return float("nan")
            raise

    def _values(self, measures: list[Measure], asked: Iterable[str]) -> dict[str, float]:
        """Values of many measures: one warning per reason for those undefined (not one
        per measure: one class leaves ~20 undefined); judgement caveats for ``asked``."""
        # held in a context variable, not warnings.catch_warnings (global state): the
        # groups of evaluate_by call this in threads
        with asked_for(asked), caveats_once():
            with Deferred() as held:
                shared_sums(self.table, measures)  # one pass for every declared sum group
                values = {m.id: self._value_or_nan(m) for m in measures}
            undefined: list[UndefinedMeasureWarning] = []
            others = []
            for message, category in held.warnings:
                if isinstance(message, UndefinedMeasureWarning) and message.measures:
                    undefined.append(message)
                else:
                    others.append((message, category))
            held.warnings = others
            held.replay()  # the other warnings and the caveats counted
        reasons: dict[str, list[str]] = {}
        for message in undefined:
            ids = reasons.setdefault(message.reason, [])
            ids.extend(i for i in message.measures if i not in ids)
        for reason, ids in reasons.items():
            warn_at_user(UndefinedMeasureWarning(undefined_message(tuple(ids), reason),
                                                 tuple(ids), reason))
        return values

    def to_dict(self, family: Family | None = None, *,
                measures: Iterable[str | Measure] | None = None) -> dict[str, float]:
        """Every registered measure (default parameters) as ``{id: value}``.

        ``family`` keeps one family; ``measures`` names the measures to give (ids or
        aliases, reported under their ids). Measures the input cannot give, such as
        the Brier score of scores outside [0, 1], are NaN with an
        :class:`UndefinedMeasureWarning`.
        """
        chosen = select_measures(family, measures)
        return self._values(chosen, () if measures is None else [m.id for m in chosen])

    def to_frame(self, family: Family | None = None, *,
                 measures: Iterable[str | Measure] | None = None) -> pd.DataFrame:
        """Every measure as a DataFrame: id, name, family, value, direction, range, source."""
        import pandas as pd

        chosen = select_measures(family, measures)
        values = self._values(chosen, () if measures is None else [m.id for m in chosen])
        rows = [
            {"id": m.id, "name": m.name, "family": m.family, "value": values[m.id],
             "direction": m.direction, "range": f"[{m.range[0]:g}, {m.range[1]:g}]",
             "source": m.source}
            for m in chosen
        ]
        return pd.DataFrame(rows)

    # --- calibration (Siblini et al.) ---------------------------------------------------
    @overload
    def calibrated(self, pi0: float, method: Literal["reweight"] = ..., *,
                   n_resamples: int = ..., random_state: Any = ...) -> Evaluation: ...

    @overload
    def calibrated(self, pi0: float, method: Literal["undersample"], *,
                   n_resamples: int = ..., random_state: Any = ...) -> UndersampledEvaluation: ...

    @overload
    def calibrated(self, pi0: float, method: str, *, n_resamples: int = ...,
                   random_state: Any = ...) -> Evaluation | UndersampledEvaluation: ...

    def calibrated(self, pi0: float, method: str = "reweight", *, n_resamples: int = 100,
                   random_state: Any = None) -> Evaluation | UndersampledEvaluation:
        """This evaluation calibrated to the reference prevalence ``pi0`` (Siblini et al.).

        Parameters
        ----------
        pi0 : float in (0, 1)
            The reference prevalence.
        method : {"reweight", "undersample"}, default "reweight"
            ``"reweight"``, the paper's closed form: the negatives are reweighted by
            c = pi (1 - pi0) / (pi0 (1 - pi)), so every measure becomes its calibrated
            version: precision is the paper's eq. (5) TP / (TP + c FP), and F1, AP
            (AUC-PcR), PR-gain (``auprg``, with the exact axis crossings by default,
            ``compat="prgc"`` for the reference code's), MCC... follow; recall, FPR
            and AUC do not change, and with pi0 equal to the data's prevalence nothing
            does.
            ``"undersample"``, the heuristic the paper compares against (sec. 3.3,
            Figure 6): ``n_resamples`` random subsamples with prevalence pi0 (one class
            kept whole, the other drawn without replacement; no re-sort), each measure
            averaged over them. Needs an unweighted table. See
            :mod:`binmetrics.evaluation.undersampling`.
        n_resamples : int, default 100
            Subsamples drawn by ``"undersample"``.
        random_state : seed or numpy Generator, optional
            Seed of ``"undersample"``: the same seed gives the same values.

        Returns
        -------
        Evaluation or UndersampledEvaluation
            An Evaluation of the reweighted table for ``"reweight"``; for
            ``"undersample"`` an :class:`~binmetrics.UndersampledEvaluation`
            (``result[id]``, ``.value``, ``.std``, ``.to_dict``, ``.n_undefined``).

        Examples
        --------
        >>> import binmetrics as bm
        >>> y = [1, 1, 0, 1, 0, 0, 1, 0, 0, 0]
        >>> s = [.9, .8, .8, .7, .7, .5, .4, .3, .3, .1]
        >>> cal = bm.evaluate(y, s, threshold=0.7).calibrated(0.5)
        >>> round(cal["precision"], 4), cal["recall"], round(cal["f1"], 10)  # pi = 0.4, c = 2/3
        (0.6923, 0.75, 0.72)
        >>> round(cal["average_precision"], 10)  # docs/methods.md §4
        0.7772435897
        >>> us = bm.evaluate(y, s).calibrated(0.5, method="undersample", n_resamples=1000,
        ...                                   random_state=0)
        >>> round(us["average_precision"], 2), us.n_resamples, us.pi0
        (0.79, 1000, 0.5)

        (On ten cases the heuristic's expectation, 0.7897 over all 15 subsamples, is
        near but not equal to the closed form 0.7772; on large data they agree.)
        """
        if method == "undersample":
            from binmetrics.evaluation.undersampling import UndersampledEvaluation

            if self.table.binning is not None:
                raise ValueError("method='undersample' resamples the cases, which binned "
                                 "scores no longer are; use method='reweight'")
            return UndersampledEvaluation(self.table, pi0, n_resamples=n_resamples,
                                          random_state=random_state,
                                          threshold=self.threshold, undefined=self.undefined,
                                          higher_is_positive=self.higher_is_positive)
        if method != "reweight":
            raise ValueError(f"method must be 'reweight' or 'undersample'; got {method!r}")
        if (n_resamples, random_state) != (100, None):
            warnings.warn("n_resamples and random_state apply to method='undersample'; "
                          "the reweighted calibration is exact", BinmetricsWarning, stacklevel=2)
        cal = Evaluation(self.table.calibrated(pi0), threshold=self.threshold,
                         pos_label=self.pos_label, n_omitted=self.n_omitted,
                         undefined=self.undefined, n_rows=self.n_rows,
                         n_positive_rows=self.n_positive_rows,
                         higher_is_positive=self.higher_is_positive)
        cal._clustered = self._clustered
        return cal

    @property
    def pi0(self) -> float | None:
        """The reference prevalence of a calibrated evaluation, else None."""
        return None if self.table.calibration is None else self.table.calibration[2]

    # --- binned scores (engines: decimals= / bins=) -----------------------------------
    @property
    def binning(self) -> Binning | None:
        """How an engine binned the scores (a :class:`~binmetrics.table.binning.Binning`),
        None for exact scores. Probabilistic measures of binned scores are exact (the
        engine summed them over the raw scores); ranking measures carry the bounds of
        :meth:`error_bounds`."""
        return self.table.binning

    def binning_error(self, measure: str | Measure, **params: Any) -> float | None:
        """The largest error that binning the scores can have caused in a measure.

        0.0 when the value is exact (exact scores, probabilistic measures, confusion
        measures at a threshold on the bin grid), None where no exact bound is derived
        (see :func:`binmetrics.evaluation.bounds.value_bounds`, which gives the interval).

        Examples
        --------
        >>> import binmetrics as bm
        >>> from binmetrics.engines import binned_table
        >>> t = binned_table([1, 0, 1, 0], [0.91, 0.93, 0.5, 0.1], decimals=1)
        >>> ev = bm.Evaluation(t)
        >>> ev["auc"], ev.binning_error("auc")  # one tied pair of 4: +-(1*1)/(2*2*2)
        (0.625, 0.125)
        """
        from binmetrics.evaluation.bounds import value_bounds

        bounds = value_bounds(self, measure, **params)
        if bounds is None:
            return None
        value = self.value(measure, **params)
        if bounds[0] == bounds[1] == value:  # also infinite (the DOR of an empty cell)
            return 0.0
        return float(max(value - bounds[0], bounds[1] - value))

    def error_bounds(self, measures: Iterable[str | Measure] | None = None, *,
                     family: Family | None = None) -> pd.DataFrame:
        """Every measure with the interval that surely holds its value on the raw scores.

        A DataFrame with id, value, low, high, max_error and bound ("exact", "bounded"
        or "none"): see :func:`binmetrics.evaluation.bounds.error_bounds`.

        Examples
        --------
        >>> import binmetrics as bm
        >>> from binmetrics.engines import binned_table
        >>> ev = bm.Evaluation(binned_table([1, 0, 1, 0], [.93, .91, .5, .1], decimals=1))
        >>> ev.error_bounds(["auc", "brier", "taks"])[["id", "low", "high", "bound"]]
              id      low     high    bound
        0    auc  0.50000  0.75000  bounded
        1  brier  0.27325  0.27325    exact
        2   taks      NaN      NaN     none
        """
        from binmetrics.evaluation.bounds import error_bounds

        return error_bounds(self, select_measures(family, measures))

    # --- other thresholds --------------------------------------------------------------
    def at_threshold(self, threshold: float) -> Evaluation:
        """The same data cut at another threshold (no new sort).

        For binned scores (engines' ``decimals=`` / ``bins=``) the confusion matrix
        is exact on the bin grid and at the threshold the engine binned with; a
        threshold inside an occupied bin warns that it is not the raw scores' (and
        :meth:`error_bounds` gives those measures no bound). A threshold outside the
        scores' range warns (every case is then predicted the same class) unless
        ``undefined="ignore"``."""
        ev = Evaluation(self.table, threshold=threshold, pos_label=self.pos_label,
                        n_omitted=self.n_omitted, undefined=self.undefined,
                        n_rows=self.n_rows, n_positive_rows=self.n_positive_rows,
                        higher_is_positive=self.higher_is_positive)
        ev._clustered = self._clustered
        if self.undefined != "ignore":
            warn_threshold_range(self.table, ev.threshold,
                                 higher_is_positive=self.higher_is_positive)
        return ev

    def ranking_table(self) -> pd.DataFrame:
        """Berrar's Figure 2: one row per distinct score with the cut's cumulative
        positives, TPR, FPR, precision and lift
        (:func:`binmetrics.evaluation.ranking_table.ranking_table`). The ``score``
        column is in the scores' own units (lowest first when lower scores mean
        positive)."""
        from binmetrics.evaluation.ranking_table import ranking_table

        frame = ranking_table(self.table)
        frame["score"] = self.oriented(frame["score"].to_numpy())
        return frame

    # --- curves ----------------------------------------------------------------------
    def roc(self) -> ROCCurve:
        """The ROC curve (``.area()`` is the AUC, ``.hull()`` the convex hull)."""
        from binmetrics.curves import ROCCurve

        with undefined_policy(self.undefined):
            return self.in_user_units(ROCCurve.from_table(self.table))

    def det(self) -> DETCurve:
        """The DET curve (FPR and FNR by threshold, as scikit-learn's ``det_curve``);
        ``.plot()`` draws it on normal-deviate axes."""
        from binmetrics.curves import DETCurve

        with undefined_policy(self.undefined):
            return self.in_user_units(DETCurve.from_table(self.table))

    def pr(self) -> PRCurve:
        """The precision-recall curve (``.area(method)``: step, min, max, minmax, linear,
        davis_goadrich)."""
        from binmetrics.curves import PRCurve

        with undefined_policy(self.undefined):
            return self.in_user_units(PRCurve.from_table(self.table))

    def prg(self) -> PRGCurve:
        """The precision-recall-gain curve (``.area()`` is AUPRG)."""
        from binmetrics.curves import PRGCurve

        with undefined_policy(self.undefined):
            return PRGCurve.from_table(self.table)

    def threshold_curves(self) -> ThresholdCurves:
        """TPR and FPR against the threshold; ``.measure(name)`` for any confusion measure."""
        from binmetrics.curves import ThresholdCurves

        with undefined_policy(self.undefined):
            return self.in_user_units(ThresholdCurves.from_table(self.table))

    def in_user_units(self, curve: _C) -> _C:
        """A curve of this evaluation's table with its thresholds in the scores' own
        units (negated back when lower scores mean positive); the curve methods
        (:meth:`roc`, :meth:`threshold_curves`...) return them so already."""
        if self.higher_is_positive:
            return curve
        return dataclasses.replace(curve, thresholds=-curve.thresholds)

    def negated(self) -> Evaluation:
        """This evaluation read on the negated scores, higher meaning positive: the same
        values, with thresholds in the units of ``-score``. Itself when higher scores
        already mean positive. The HTML report draws a lower-is-positive evaluation so.

        Examples
        --------
        >>> import binmetrics as bm
        >>> ev = bm.evaluate([1, 0, 1], [2.0, 3.0, 1.0], threshold=2.5, higher_is_positive=False)
        >>> neg = ev.negated()
        >>> neg.threshold, neg.higher_is_positive, neg["auc"] == ev["auc"]
        (-2.5, True, True)
        """
        if self.higher_is_positive:
            return self
        return Evaluation(self.table, threshold=self.cut, pos_label=self.pos_label,
                          n_omitted=self.n_omitted, undefined=self.undefined,
                          n_rows=self.n_rows, n_positive_rows=self.n_positive_rows)

    def gain(self) -> GainCurve:
        """The gain chart."""
        from binmetrics.curves import GainCurve

        return GainCurve.from_table(self.table)

    def lift(self) -> LiftCurve:
        """The lift chart."""
        from binmetrics.curves import LiftCurve

        with undefined_policy(self.undefined):
            return LiftCurve.from_table(self.table)

    def accumulation(self) -> AccumulationCurve:
        """The accumulation curve (fraction of positives found against fraction screened)."""
        from binmetrics.curves import AccumulationCurve

        with undefined_policy(self.undefined):
            return AccumulationCurve.from_table(self.table)

    # --- display -----------------------------------------------------------------------
    def summary(self, *, ci: bool = True, level: float = 0.95, n_resamples: int = 2000,
                random_state: Any = None, progress: Any = "interactive") -> Summary:
        """A classification-report style view: counts, threshold, confusion matrix, each
        class's precision, recall, F1 and support, and the main measures with intervals
        (``ci=False``: without them). ``.to_frame()`` gives the measures.

        Examples
        --------
        >>> import binmetrics as bm
        >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
        ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1], threshold=0.55)
        >>> print(ev.summary(ci=False))  # doctest: +NORMALIZE_WHITESPACE +ELLIPSIS
        10 cases: 5 positive (label 1), 5 negative; threshold 0.55 (score >= threshold is
        positive)
        confusion: tp=3 fp=1 fn=2 tn=4
        <BLANKLINE>
        per class:
        class        precision recall       f1 support
        positive (1)      0.75    0.6 0.666667       5
        negative      0.666667    0.8 0.727273       5
        <BLANKLINE>
        measures:
        id                name                                value
        tpr               True positive rate                    0.6
        ...
        brier             Brier score (mean squared error)    0.192
        >>> import warnings
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     summary = ev.summary(n_resamples=200, random_state=0)
        >>> summary.to_frame().method.tolist()[:2]
        ['clopper-pearson', 'clopper-pearson']

        Ten cases are few: some bootstrap replicates predict a single class, where MCC is
        undefined; one warning says how many.

        >>> [str(w.message) for w in caught]  # doctest: +ELLIPSIS
        ['mcc is undefined (NaN) in ... of 200 bootstrap replicates; the result uses the ... defined ones']
        """  # noqa: E501
        from binmetrics.evaluation.summary import summarize

        return summarize(self, ci=ci, level=level, n_resamples=n_resamples,
                         random_state=random_state, progress=progress)

    def _repr_html_(self) -> str:
        """Jupyter: the counts and the main measures, every measure in a folded table
        below (hover a row for its formula and source)."""
        from binmetrics.evaluation.notebook import measures_table, quiet_values
        from binmetrics.evaluation.summary import main_measures

        every = quiet_values(self)
        main = {i: every[i] for i in main_measures(self.table)}
        return (measures_table(main, self._title())
                + f"<details><summary>all {len(every)} measures</summary>"
                + measures_table(every, "") + "</details>")

    def plot(self, kind: str = "roc", *, ax: Any = None, **kwargs: Any) -> Axes:
        """Draw one of the plots of :mod:`binmetrics.plot` for this evaluation.

        ``ev.plot(kind, ...)`` is ``binmetrics.plot.<kind>(ev, ...)``; the kinds are
        listed by ``binmetrics.plot.kinds()`` (and ``binmetrics.plot.kinds(ev)`` those
        that apply to this evaluation; Berrar Figs. 4, 5, 6, 7). Needs matplotlib
        (``pip install 'binmetrics[plot]'``).

        Parameters
        ----------
        kind : str, default "roc"
            The plot kind.
        ax : matplotlib Axes, optional
            Where to draw; default a new figure.
        **kwargs
            The plot function's options (``operating_point=0.5``,
            ``measure="mcc"``, ``n_bins=5``...).

        Returns
        -------
        matplotlib.axes.Axes

        Examples
        --------
        >>> import binmetrics as bm
        >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
        ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
        >>> ax = ev.plot("roc", operating_point=0.55)  # doctest: +SKIP
        >>> ax = ev.plot("measure", measure="mcc")  # doctest: +SKIP
        >>> ev.plot("histogram")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: unknown plot kind 'histogram'; the kinds: roc, threshold, pr, ...
        """
        from binmetrics.evaluation import chart_data  # noqa: F401 - declares the built-in kinds
        from binmetrics.evaluation.plot_kinds import draw

        return draw(kind, self, ax=ax, **kwargs)

    def _title(self) -> str:
        t = self.table
        c = self.confusion

        def user(x: float) -> str:  # counts in the weights' own unit (see in_user_units)
            v = t.in_user_units(x)
            return v if isinstance(v, str) else f"{v:g}"

        tp, fp, fn, tn = (c.tp, c.fp, c.fn, c.tn) if not t.weight_exponent else (
            user(c.tp), user(c.fp), user(c.fn), user(c.tn))
        return (
            f"Evaluation(n={user(t.total)}, positives={user(t.P)}, "
            f"threshold={self.threshold:g}"
            f"{'' if self.higher_is_positive else ', higher_is_positive=False'}, "
            f"tp={tp}, fp={fp}, fn={fn}, tn={tn})"
        )

    def __repr__(self) -> str:
        """The counts over a table of the main measures (those of :meth:`summary`;
        ``to_frame()`` has them all).

        Examples
        --------
        >>> import binmetrics as bm
        >>> bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
        ...             [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1], threshold=0.55)
        Evaluation(n=10, positives=5, threshold=0.55, tp=3, fp=1, fn=2, tn=4)
        id                name                                value
        tpr               True positive rate                    0.6
        tnr               True negative rate                    0.8
        ppv               Positive predictive value            0.75
        npv               Negative predictive value        0.666667
        f1                F1 score                         0.666667
        accuracy          Accuracy                              0.7
        balanced_accuracy Balanced accuracy                     0.7
        mcc               Matthews correlation coefficient 0.408248
        auc               Area under the ROC curve              0.8
        brier             Brier score (mean squared error)    0.192
        """
        import pandas as pd

        from binmetrics.evaluation.summary import main_measures

        ids = main_measures(self.table)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            values = self.to_dict(measures=ids)
        frame = pd.DataFrame({"id": ids, "name": [get_measure(i).name for i in ids],
                              "value": [values[i] for i in ids]})
        return frame_text(self._title(), frame)
