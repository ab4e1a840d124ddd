"""``estimate_performance()``: a classifier's performance estimated from its calibrated
probabilities alone, before the labels arrive (confidence-based performance estimation,
CBPE, as NannyML defines it).

If the probabilities are calibrated, a case scored p is positive with probability p. The
expected confusion matrix at a threshold is then the sums of p (positives) and 1 - p
(negatives) over the cases predicted positive and predicted negative, and every measure
"as NannyML defines it" is the measure of the **expected count table**: each distinct
score carrying the sum of p as its positives and the sum of 1 - p as its negatives. The
AUC so estimated is the area under the ROC curve of expected TPR and FPR at every
threshold (NannyML, "Estimation of Performance of the Monitored Model", section
"Confidence-based Performance Estimation",
https://nannyml.readthedocs.io/en/stable/how_it_works/performance_estimation.html).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy.optimize import isotonic_regression

from binmetrics.engines import _windows as win
from binmetrics.evaluation.binary import Evaluation
from binmetrics.formatting import Tabular
from binmetrics.measures import Measure
from binmetrics.measures.registry import select_measures
from binmetrics.table.confusion import Confusion
from binmetrics.table.counts import CountTable
from binmetrics.validation import (
    as_1d,
    as_float,
    check_binary_inputs,
    check_level,
    check_random_state,
    check_resamples,
    check_threshold,
)

__all__ = ["PerformanceEstimate", "estimate_performance"]

Floats = npt.NDArray[np.float64]

#: NannyML's default set of estimated measures, by the registry's ids
_DEFAULT = ("accuracy", "ppv", "tpr", "f1", "auc")
#: the draws of labels simulated per block (memory: block x distinct scores)
_BLOCK = 64


class PerformanceEstimate(Tabular):
    """The result of :func:`estimate_performance`.

    Attributes
    ----------
    measures : list of str
        The ids of the measures estimated.
    calibrated : bool
        Whether the probabilities were recalibrated on the reference (isotonic
        regression), because that lowered the reference's cross-validated ECE.
    calibration : dict
        The reference's cross-validated ``ece`` of the raw and of the recalibrated
        probabilities (means over the splits), and the decision.
    evaluations : list of Evaluation
        Per window, the :class:`~binmetrics.Evaluation` of the expected count table:
        ``evaluations[k].value(id)`` is the estimate of any registered measure.
    """

    def __init__(self, frame: pd.DataFrame, *, measures: list[str], calibrated: bool,
                 calibration: dict[str, Any], evaluations: list[Evaluation | None]) -> None:
        self._frame = frame
        self.measures = measures
        self.calibrated = calibrated
        self.calibration = calibration
        self.evaluations = evaluations

    def to_frame(self) -> pd.DataFrame:
        """One row per window (one row without ``time``): ``start``, ``end`` (with
        ``time``), ``n``, the expected ``tp``, ``fp``, ``fn``, ``tn`` at the threshold,
        and per measure its estimate ``<id>`` with the sampling interval ``<id>_low``,
        ``<id>_high``."""
        return self._frame.copy()

    def _title(self) -> str:
        how = ("recalibrated on the reference (isotonic)" if self.calibrated
               else "probabilities used as given")
        return (f"PerformanceEstimate(windows={len(self._frame)}, "
                f"measures={len(self.measures)}, {how})")


# --- calibration on the reference ------------------------------------------------------
def _isotonic(y: npt.NDArray[np.bool_], p: Floats) -> tuple[Floats, Floats]:
    """The isotonic regression of y on p (scipy's pool-adjacent-violators, cases with
    equal p pooled first): its knots (distinct p ascending) and fitted values."""
    knots, inverse, counts = np.unique(p, return_inverse=True, return_counts=True)
    means = np.bincount(inverse, weights=y.astype(np.float64)) / counts
    fitted = isotonic_regression(means, weights=counts.astype(np.float64)).x
    return knots, np.asarray(fitted, dtype=np.float64)


def _apply(knots: Floats, fitted: Floats, p: Floats) -> Floats:
    """The fitted calibration map at ``p``: linear between the knots, constant beyond
    them (scikit-learn's ``IsotonicRegression(out_of_bounds="clip")``)."""
    return np.asarray(np.interp(p, knots, fitted), dtype=np.float64)


def _ece(y: npt.NDArray[np.bool_], p: Floats) -> float:
    return float(Evaluation(CountTable.from_validated(y, p, None)).value("ece"))


def _check_calibration(y: npt.NDArray[np.bool_], p: Floats, rng: np.random.Generator,
                       splits: int = 3, held_out: float = 0.3) -> dict[str, Any]:
    """NannyML's check: three stratified splits of the reference; on each, isotonic
    regression is fitted on the rest and the held-out part's ECE compared raw and
    recalibrated. Recalibrate when the mean recalibrated ECE is lower."""
    raw, cal = [], []
    classes = [np.flatnonzero(y), np.flatnonzero(~y)]
    for _ in range(splits):
        test = np.zeros(y.size, dtype=bool)
        for idx in classes:
            k = max(1, round(held_out * idx.size))
            test[rng.choice(idx, size=k, replace=False)] = True
        knots, fitted = _isotonic(y[~test], p[~test])
        raw.append(_ece(y[test], p[test]))
        cal.append(_ece(y[test], _apply(knots, fitted, p[test])))
    ece_raw, ece_cal = float(np.mean(raw)), float(np.mean(cal))
    return {"ece_raw": ece_raw, "ece_recalibrated": ece_cal, "recalibrate": ece_cal < ece_raw}


# --- the estimate of one set of cases -------------------------------------------------
def _expected_table(s: Floats, q: Floats) -> tuple[CountTable, Floats, Floats]:
    """The expected count table of scores ``s`` with probabilities ``q`` (each distinct
    score: the sum of q as positives, of 1 - q as negatives), and per distinct score
    (descending) its number of cases and its probability (q is a function of s)."""
    order = np.argsort(-s, kind="stable")
    s_sorted, q_sorted = s[order], q[order]
    starts = np.flatnonzero(np.concatenate([[True], s_sorted[1:] != s_sorted[:-1]]))
    counts = np.diff(np.append(starts, s.size)).astype(np.float64)
    pos = np.add.reduceat(q_sorted, starts)
    neg = counts - pos
    table = CountTable(s_sorted[starts], pos, np.maximum(neg, 0.0), weighted=True,
                       _trusted=True)
    return table, counts, q_sorted[starts]


def _draw_values(chosen: list[Measure], counts: Floats, prob: Floats, cut: int,
                 n_resamples: int, rng: np.random.Generator) -> dict[str, Floats]:
    """Each measure in ``n_resamples`` draws of the labels from the probabilities (per
    distinct score, a binomial count of positives among its cases), from the same
    sorted table: no sort per draw."""
    out: dict[str, list[Floats]] = {m.id: [] for m in chosen}
    n_int = counts.astype(np.int64)
    for a in range(0, n_resamples, _BLOCK):
        b = min(a + _BLOCK, n_resamples) - a
        pos = rng.binomial(n_int, prob, size=(b, prob.size)).astype(np.float64)
        neg = counts - pos
        tp = pos[:, :cut].sum(axis=1)
        fp = neg[:, :cut].sum(axis=1)
        big_p, big_n = pos.sum(axis=1), neg.sum(axis=1)
        conf = Confusion(tp, fp, big_p - tp, big_n - fp)
        with np.errstate(divide="ignore", invalid="ignore"):
            for m in chosen:
                if m.family == "confusion":
                    v = np.asarray(m.func(conf), dtype=np.float64)
                elif m.resampling_kernel is not None:
                    v = np.asarray(m.resampling_kernel(pos, neg), dtype=np.float64)
                else:  # no vectorised form over draws: no interval
                    v = np.full(b, np.nan)
                out[m.id].append(np.broadcast_to(v, (b,)))
    return {k: np.concatenate(v) for k, v in out.items()}


def _estimate(s: Floats, q: Floats, chosen: list[Measure], threshold: float, level: float,
              n_resamples: int, rng: np.random.Generator
              ) -> tuple[dict[str, Any], Evaluation | None]:
    """One window's expected counts, estimates and sampling intervals."""
    nan = math.nan
    row: dict[str, Any] = {"n": int(s.size)}
    if s.size == 0:
        row.update(dict.fromkeys(("tp", "fp", "fn", "tn"), nan))
        for m in chosen:
            row.update({m.id: nan, f"{m.id}_low": nan, f"{m.id}_high": nan})
        return row, None
    table, counts, prob = _expected_table(s, q)
    ev = Evaluation(table, threshold=threshold, undefined="ignore")
    c = ev.confusion
    row.update(tp=float(c.tp), fp=float(c.fp), fn=float(c.fn), tn=float(c.tn))
    draws = _draw_values(chosen, counts, prob, table.cut_index(threshold), n_resamples, rng)
    tail = (1.0 - level) / 2.0
    for m in chosen:
        row[m.id] = float(ev.value(m.id))
        d = draws[m.id]
        d = d[np.isfinite(d)]
        low, high = (np.quantile(d, [tail, 1.0 - tail]) if d.size else (nan, nan))
        row[f"{m.id}_low"], row[f"{m.id}_high"] = float(low), float(high)
    return row, ev


def estimate_performance(
    y_score: Any,
    *,
    reference: tuple[Any, Any],
    threshold: float = 0.5,
    time: Any = None,
    window: Any = "7D",
    step: Any = None,
    measures: Iterable[str | Measure] | None = None,
    calibrate: bool | str = "auto",
    level: float = 0.95,
    n_resamples: int = 1000,
    random_state: Any = None,
) -> PerformanceEstimate:
    """Estimate a classifier's performance from its probabilities alone (CBPE).

    With calibrated probabilities p, a case is positive with probability p, so the
    expected confusion matrix at the threshold is

        TP = sum of p over the cases predicted positive (p_score >= threshold),
        FP = sum of 1 - p over them,  FN = sum of p, TN = sum of 1 - p over the others,

    and each measure is estimated as NannyML's confidence-based performance
    estimation defines it: the measure of the expected counts (accuracy = (TP + TN)/n,
    precision = TP/(TP + FP), recall = TP/(TP + FN), F1 = 2TP/(2TP + FP + FN)), and the
    ROC AUC as the area under the curve of the expected TPR and FPR at every threshold
    (NannyML docs, "How it works: performance estimation"). Here: every measure of the
    **expected count table**, in which each distinct score carries the sum of its cases'
    p as positives and of 1 - p as negatives (``evaluations[k].value(id)`` gives any
    registered measure so).

    Accuracy and precision are exact expectations (their denominators do not depend on
    the labels); recall, F1 and the AUC are ratios of expectations, which differ from
    the expected value of the ratio by O(1/n).

    **Calibration.** The estimate is only as good as the probabilities. The reference
    (labelled data from the same model, not its training data) is checked as NannyML
    does: three stratified splits hold out 30% of it; isotonic regression fitted on the
    rest recalibrates the held-out part; if the mean expected calibration error (the
    registry's ``ece``) of the recalibrated probabilities is lower than that of the raw
    ones, the probabilities are recalibrated by isotonic regression fitted on the whole
    reference (``calibrated`` says so, ``calibration`` gives both ECEs). The predicted
    class stays the raw score's (``>= threshold``); recalibration changes the expected
    counts only. **Assumption**: no concept shift, P(y | score) the same in production
    as in the reference (covariate shift is fine); CBPE cannot see a change of that
    relation without labels.

    **Sampling intervals.** The realized measure varies around its expectation even
    when the probabilities are right: ``<id>_low``, ``<id>_high`` are the central
    ``level`` range of the measure over ``n_resamples`` draws of the labels from the
    (calibrated) probabilities, on the same sorted table (no sort per draw).

    Parameters
    ----------
    y_score : array-like
        The production probabilities (of the positive class), in [0, 1].
    reference : (y_true, y_score)
        Labels (0/1 or booleans) and probabilities of a labelled reference set.
    threshold : float, default 0.5
        ``y_score >= threshold`` is predicted positive.
    time : array-like, optional
        The time of each production case: estimates per window (``window``, ``step``
        as in :func:`binmetrics.monitor`; ``step`` defaults to ``window``: consecutive
        windows). Default: one estimate of all the cases.
    measures : list of ids or aliases, optional
        Default: accuracy, precision, recall, F1 and AUC (NannyML's). Confusion measures
        and ranking measures with a resampling kernel get intervals.
    calibrate : "auto", True or False, default "auto"
        "auto": recalibrate when the check above says so; True: always; False: never.
    level : float, default 0.95
    n_resamples : int, default 1000
    random_state : None, int or Generator

    Returns
    -------
    PerformanceEstimate

    Raises
    ------
    ValueError
        Probabilities outside [0, 1] or not finite (production or reference), a
        reference without both classes, a bad window.

    Examples
    --------
    >>> import numpy as np
    >>> import binmetrics as bm
    >>> rng = np.random.default_rng(0)
    >>> p_ref = rng.beta(1, 3, 4000)
    >>> y_ref = rng.random(4000) < p_ref        # calibrated by construction
    >>> p_new = rng.beta(1, 2, 3000)            # covariate shift: more high scores
    >>> est = bm.estimate_performance(p_new, reference=(y_ref, p_ref), random_state=0,
    ...                               calibrate=False, measures=["accuracy", "auc"])
    >>> est.to_frame()[["n", "tp", "accuracy", "accuracy_low", "auc"]].round(3)
          n       tp  accuracy  accuracy_low    auc
    0  3000  469.151     0.747         0.733  0.794
    """
    t = check_threshold(threshold)
    c = check_level(level)
    b = check_resamples(n_resamples)
    rng = np.random.default_rng(check_random_state(random_state))
    if calibrate not in ("auto", True, False):
        raise ValueError(f"calibrate must be 'auto', True or False; got {calibrate!r}")
    chosen = select_measures(None, list(_DEFAULT) if measures is None else measures)
    if not chosen:
        raise ValueError("measures is empty; give measure ids, or None for the defaults")
    p = _probabilities(y_score, "y_score")
    if not (isinstance(reference, (tuple, list)) and len(reference) == 2):
        raise TypeError("reference must be a pair (y_true, y_score) of labelled reference "
                        f"data; got {type(reference).__name__}")
    inp = check_binary_inputs(reference[0], reference[1], None)
    p_ref = _probabilities(inp.score, "the reference's y_score")
    y_ref = inp.y
    if y_ref.all() or not y_ref.any():
        raise ValueError("the reference must hold both classes to check the calibration")
    check = _check_calibration(y_ref, p_ref, rng)
    recalibrate = check["recalibrate"] if calibrate == "auto" else bool(calibrate)
    check["recalibrate"] = recalibrate
    if recalibrate:
        knots, fitted = _isotonic(y_ref, p_ref)
        q = _apply(knots, fitted, p)
    else:
        q = p
    rows, evaluations = [], []
    if time is None:
        row, ev = _estimate(p, q, chosen, t, c, b, rng)
        rows.append(row)
        evaluations.append(ev)
    else:
        times = pd.Series(pd.to_datetime(as_1d(time, "time")))
        if times.size != p.size:
            raise ValueError(f"time has {times.size} values for {p.size} scores")
        if times.isna().any():
            raise ValueError(f"time has {int(times.isna().sum())} missing values")
        win_len = win.duration(window, "window")
        step_len = win_len if step is None else win.duration(step, "step")
        origin, codes, width, n_windows = win.plan(times, win_len, step_len)
        order = np.argsort(codes, kind="stable")
        sorted_codes = codes[order]
        for k in range(n_windows):
            lo, hi = np.searchsorted(sorted_codes, [k, k + width])
            idx = order[lo:hi]
            row, ev = _estimate(p[idx], q[idx], chosen, t, c, b, rng)
            start = origin + k * step_len
            rows.append({"start": start, "end": start + win_len, **row})
            evaluations.append(ev)
    frame = pd.DataFrame.from_records(rows)
    return PerformanceEstimate(frame, measures=[m.id for m in chosen], calibrated=recalibrate,
                               calibration=check, evaluations=evaluations)


def _probabilities(x: Any, name: str) -> Floats:
    p = as_float(as_1d(x, name), name)
    bad = ~(np.isfinite(p) & (p >= 0.0) & (p <= 1.0))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name} must hold probabilities in [0, 1] (CBPE reads them as "
                         f"P(y = 1)); {int(bad.sum())} values are not, the first {float(p[i])!r} "
                         f"at row {i}")
    return p
