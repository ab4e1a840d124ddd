"""``fairness()``: the group-fairness criteria of a classifier, each with its interval.

The criteria are gaps between the groups of one or more sensitive columns
(:mod:`binmetrics.evaluation.group_gaps`), named and defined as in fairlearn.metrics
(Weerts et al., 2023; Hardt et al., 2016, for equalized odds and equal opportunity):

=================================  ===========================================================
demographic parity                 selection rate (TP + FP) / n
equalized odds                     TPR and FPR; "worst_case": the larger difference (smaller
                                   ratio) of the two, "mean": their mean
equal opportunity                  TPR
predictive parity                  PPV (Chouldechova, 2017)
calibration by group               ECE (probabilities only)
AUC gap                            AUC
=================================  ===========================================================

Every interval comes from one bootstrap stratified by group and class: the TPR and FPR
of a replicate are read from the same draws, so the equalized-odds gap of replicate b is
the worst (or mean) of its two gaps.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pandas as pd

from binmetrics.chart import ChartData, Drawable, Series
from binmetrics.evaluation.by import ByResult, evaluate_by
from binmetrics.evaluation.group_gaps import GapResult, group_label, null_pvalue
from binmetrics.exceptions import BinmetricsWarning, warn_at_user
from binmetrics.formatting import Tabular
from binmetrics.inference.resampling import quantiles
from binmetrics.validation import check_level, check_random_state, check_resamples

if TYPE_CHECKING:
    from binmetrics.validation import NanPolicy

__all__ = ["FairnessResult", "fairness"]

Agg = Literal["worst_case", "mean"]

#: (criterion, the measures it compares, how it combines them)
_CRITERIA: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("demographic_parity", ("selection_rate",), "one"),
    ("equalized_odds", ("tpr", "fpr"), "agg"),
    ("equal_opportunity", ("tpr",), "one"),
    ("predictive_parity", ("ppv",), "one"),
    ("calibration", ("ece",), "one"),
    ("auc", ("auc",), "one"),
)

_Y, _S, _W = "__y_true__", "__y_score__", "__sample_weight__"


@dataclass(frozen=True, eq=False, repr=False)
class FairnessResult(Drawable, Tabular):
    """The group-fairness criteria of :func:`fairness`.

    Attributes
    ----------
    frame : pandas.DataFrame
        One row per criterion and kind: ``criterion``, ``kind`` ("difference" or
        "ratio"), ``estimate``, ``low``, ``high`` (the percentile interval at
        ``level``; NaN without ``ci``), ``pvalue`` (the bootstrap test of "no gap").
    grouped : ByResult
        The per-group evaluation behind it (``grouped.by_group("tpr")``...).
    method : {"between_groups", "to_overall"}
    agg : {"worst_case", "mean"}
    level : float
    n_resamples : int
    threshold : float
    """

    frame: pd.DataFrame
    grouped: ByResult
    method: str
    agg: str
    level: float
    n_resamples: int
    threshold: float

    def to_frame(self) -> pd.DataFrame:
        """The criteria as a DataFrame (a copy of :attr:`frame`)."""
        return self.frame.copy()

    def value(self, criterion: str, kind: str = "difference") -> float:
        """One criterion's estimate, e.g. ``value("equalized_odds", "ratio")``."""
        rows = self.frame[(self.frame["criterion"] == criterion) & (self.frame["kind"] == kind)]
        if rows.empty:
            raise KeyError(f"no {kind} of {criterion!r}; the result has "
                           f"{', '.join(dict.fromkeys(self.frame['criterion']))}")
        return float(rows["estimate"].iloc[0])

    def _title(self) -> str:
        return (f"FairnessResult(by={self.grouped.by}, groups={len(self.grouped.keys)}, "
                f"method={self.method}, agg={self.agg}, threshold={self.threshold:g})")

    def chart(self, kind: str = "difference") -> ChartData:
        """The criteria of one kind with their intervals, one row each (the numbers of
        :meth:`plot`)."""
        f = self.frame[self.frame["kind"] == kind].reset_index(drop=True)
        y = np.arange(len(f), dtype=float)[::-1]
        est = f["estimate"].to_numpy(dtype=float)
        lo, hi = f["low"].to_numpy(dtype=float), f["high"].to_numpy(dtype=float)
        seg_x = np.column_stack([lo, hi, np.full(len(f), np.nan)]).ravel()
        seg_y = np.column_stack([y, y, np.full(len(f), np.nan)]).ravel()
        ref = 0.0 if kind == "difference" else 1.0
        series = (
            Series(seg_x, seg_y, f"{self.level:.0%} interval", style="solid", width=2.0),
            Series(est, y, kind, style="markers", marker="o"),
            Series(np.array([ref]), np.array([0.0]), f"no gap ({ref:g})", style="vline",
                   shared=True),
        )
        return ChartData("fairness", f"Fairness criteria ({kind}, {self.method})", kind,
                         "", series, yticks=(list(y), list(f["criterion"])),
                         legend="best", pad=0.05)


def _sensitive_frame(sensitive: Any, n: int) -> pd.DataFrame:
    if isinstance(sensitive, pd.DataFrame):
        frame = sensitive.reset_index(drop=True).copy()
        frame.columns = [str(c) for c in frame.columns]
    elif isinstance(sensitive, pd.Series):
        frame = pd.DataFrame({str(sensitive.name or "sensitive"): sensitive.to_numpy()})
    else:
        arr = np.asarray(sensitive, dtype=object)
        if arr.ndim == 1:
            frame = pd.DataFrame({"sensitive": arr})
        elif arr.ndim == 2:
            frame = pd.DataFrame({f"sensitive_{j}": arr[:, j] for j in range(arr.shape[1])})
        else:
            raise ValueError(f"sensitive must be 1-D or 2-D; got {arr.ndim} dimensions")
    if len(frame) != n:
        raise ValueError(f"sensitive has {len(frame)} rows and y_true has {n}; give one "
                         "group per case")
    if frame.shape[1] == 0:
        raise ValueError("sensitive has no columns")
    return frame


def fairness(
    y_true: Any,
    y_score: Any,
    *,
    sensitive: Any,
    threshold: float = 0.5,
    sample_weight: Any = None,
    pos_label: Any = None,
    method: Literal["between_groups", "to_overall"] = "between_groups",
    agg: Agg = "worst_case",
    ci: bool = True,
    level: float = 0.95,
    n_resamples: int = 2000,
    random_state: Any = None,
    min_cases: int = 2,
    nan_policy: NanPolicy = "raise",
) -> FairnessResult:
    """Group-fairness criteria with bootstrap intervals (fairlearn.metrics' definitions).

    Parameters
    ----------
    y_true, y_score : array-like
        Labels and scores (``y_score >= threshold`` is predicted positive); 0/1
        predictions are scores too.
    sensitive : array-like, pandas Series or DataFrame
        The sensitive feature(s), one row per case; several columns compare their
        intersections (the combinations present in the data).
    threshold : float, default 0.5
    sample_weight, pos_label, nan_policy :
        As in :func:`binmetrics.evaluate`.
    method : {"between_groups", "to_overall"}, default "between_groups"
        fairlearn's ``method``: between the groups' extremes, or each group against the
        overall value (:meth:`ByResult.difference`).
    agg : {"worst_case", "mean"}, default "worst_case"
        How equalized odds combines the TPR and FPR gaps: the larger difference and the
        smaller ratio, or their means (fairlearn's ``agg``).
    ci : bool, default True
        Intervals and p-values from a bootstrap stratified by group and class.
    level, n_resamples, random_state :
        The interval's level, the replicates, the seed.
    min_cases : int, default 2
        Groups with fewer rows are left out (with a warning naming them).

    Returns
    -------
    FairnessResult
        ``to_frame()``: criterion, kind, estimate, low, high, pvalue; ``plot()`` draws
        the criteria with their intervals. Calibration (ECE by group) is included
        when the scores are probabilities in [0, 1]; the AUC gap needs scores, not
        0/1 predictions, to mean anything.

    Notes
    -----
    Each criterion equals fairlearn.metrics' function on ``y_pred = y_score >=
    threshold``: ``demographic_parity_difference``/``ratio``,
    ``equalized_odds_difference``/``ratio`` (``agg``), ``equal_opportunity_difference``/
    ``ratio``. Groups where a rate is undefined (no positives for the TPR) are left
    out with a warning, where scikit-learn's scorers would count them as 0.

    Examples
    --------
    >>> import numpy as np
    >>> import binmetrics as bm
    >>> y = np.array([1, 1, 0, 0, 1, 1, 0, 0, 1, 0])
    >>> p = np.array([.9, .4, .6, .1, .8, .7, .2, .3, .6, .7])
    >>> sex = np.array(list("ffffmmmmmf"))
    >>> f = bm.fairness(y, p, sensitive=sex, ci=False)
    >>> f.value("demographic_parity"), f.value("equal_opportunity")
    (0.0, 0.5)
    >>> f.to_frame().shape
    (12, 6)
    """
    y = np.asarray(y_true)
    if y.ndim != 1:
        raise ValueError(f"y_true must be 1-D; got shape {y.shape}")
    df = _sensitive_frame(sensitive, y.shape[0])
    by = list(df.columns)
    clash = [c for c in by if c in (_Y, _S, _W)]
    if clash:
        raise ValueError(f"sensitive column {clash[0]!r} is a reserved name; rename it")
    df[_Y] = y
    df[_S] = np.asarray(y_score)
    if sample_weight is not None:
        df[_W] = np.asarray(sample_weight, dtype=float)
    if agg not in ("worst_case", "mean"):
        raise ValueError(f"agg must be 'worst_case' or 'mean'; got {agg!r}")
    lv = check_level(level)
    B = check_resamples(n_resamples)
    measures = sorted({m for _, ms, _ in _CRITERIA for m in ms})
    g = evaluate_by(df, label=_Y, score=_S, by=by, weight=None if sample_weight is None else _W,
                    measures=measures, threshold=threshold, pos_label=pos_label,
                    nan_policy=nan_policy, min_cases=min_cases, undefined="ignore")
    if len(g.keys) < 2:
        raise ValueError(f"sensitive ({', '.join(by)}) has one group "
                         f"({group_label(g.keys[0]) if g.keys else 'none'}); fairness compares "
                         "groups")
    # one seed for every measure, so each group's replicates are the same draws
    seed = int(np.random.default_rng(check_random_state(random_state)).integers(2**63))
    probabilities = g.overall.table.probabilities_ok
    rows: list[dict[str, Any]] = []
    no_interval: list[str] = []
    for criterion, ms, how in _CRITERIA:
        if criterion == "calibration" and not probabilities:
            continue
        # the overall replicate of a ranking or probabilistic measure would need the
        # merged table of every replicate: no interval for those with "to_overall"
        ci_here = ci and not (method == "to_overall" and criterion in ("auc", "calibration"))
        if ci and not ci_here:
            no_interval.append(criterion)
        gaps = {m: _gaps(g, m, method, ci_here, lv, B, seed) for m in ms}
        combine = agg if how == "agg" else "one"
        diff = _combine([gaps[m]["difference"] for m in ms], "difference", combine, lv)
        ratio = _combine([gaps[m]["ratio"] for m in ms], "ratio", combine, lv)
        ratio["pvalue"] = diff["pvalue"]  # the same null hypothesis: no gap
        rows += [{"criterion": criterion, "kind": "difference", **diff},
                 {"criterion": criterion, "kind": "ratio", **ratio}]
    frame = pd.DataFrame(rows, columns=["criterion", "kind", "estimate", "low", "high",
                                        "pvalue"])
    if no_interval:
        warn_at_user(f"{' and '.join(no_interval)}: no interval with method='to_overall' "
                     "(their overall value is not resampled from the groups' 2x2 tables); "
                     "use method='between_groups' for intervals", BinmetricsWarning)
    return FairnessResult(frame=frame, grouped=g, method=method, agg=agg, level=lv,
                          n_resamples=B, threshold=float(threshold))


def _gaps(g: ByResult, m: str, method: str, ci: bool, level: float, B: int,
          seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind in ("difference", "ratio"):
        gap = getattr(g, kind)
        out[kind] = gap(m, method=method, ci=ci, level=level, n_resamples=B,
                        random_state=seed)
    return out


def _combine(parts: Sequence[Any], kind: str, how: str, level: float) -> dict[str, float]:
    """One criterion's estimate, interval and p-value from its measures' gaps (the
    replicates of the same draws combined replicate by replicate)."""
    if not isinstance(parts[0], GapResult):  # no ci: plain numbers
        values = np.array(parts, dtype=float)
        est = float(_agg(values, kind, how))
        return {"estimate": est, "low": math.nan, "high": math.nan, "pvalue": math.nan}
    est = float(_agg(np.array([p.estimate for p in parts]), kind, how))
    reps = _agg(np.vstack([p.replicates for p in parts]), kind, how)
    pvalue = math.nan
    if kind == "difference":  # the null: every measure's centred replicates combined
        pvalue = null_pvalue(_agg(np.vstack([p.null_distribution for p in parts]), kind,
                                  how), est)
    d = reps[~np.isnan(reps)]
    alpha = (1 - level) / 2
    lo, hi = quantiles(d, [alpha, 1 - alpha]) if d.size and not math.isnan(est) else (
        math.nan, math.nan)
    return {"estimate": est, "low": float(lo), "high": float(hi), "pvalue": pvalue}


def _agg(values: Any, kind: str, how: str) -> Any:
    """Combine along the first axis: one measure as is; "worst_case" the larger
    difference or the smaller ratio; "mean" the mean."""
    v = np.asarray(values, dtype=float)
    if how == "one":
        return v[0]
    if how == "mean":
        return v.mean(axis=0)
    return v.max(axis=0) if kind == "difference" else v.min(axis=0)
