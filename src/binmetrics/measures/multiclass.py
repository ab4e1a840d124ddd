"""The natively multiclass forms of registered measures (multi-level paper Table 5;
docs/methods.md §5.1), declared on their registry entries.

A multiclass evaluation computes a measure that declares a multiclass form with that
form, from a :class:`MulticlassData` (the classes, the probability matrix, the k x k
confusion matrix); every other measure is averaged one-vs-rest over the classes. A
form is declared next to its function with :func:`multiclass_form`, which sets
``Measure.multiclass`` in the registry: the registry stays the only list.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.exceptions import report_undefined
from binmetrics.measures import confusion, probabilistic  # noqa: F401  (declare the measures extended here)
from binmetrics.measures._util import EPS, log_base
from binmetrics.measures.registry import declare_fast_path
from binmetrics.validation import as_1d, as_float, check_in_range

__all__ = ["ROW_SUM_TOL", "MulticlassData", "multiclass_form"]

#: how far from 1 a row of probabilities may sum
ROW_SUM_TOL = 1e-6

FloatArray = npt.NDArray[np.float64]


def _warn(measure: str, reason: str, cls: Any = None) -> None:
    where = "" if cls is None else f" (class {cls!r})"
    report_undefined(measure, reason + where)


@dataclass(frozen=True, eq=False)
class MulticlassData:
    """What the multiclass forms read: the input to a multiclass measure, as a
    :class:`~binmetrics.table.CountTable` is to a binary one.

    Attributes
    ----------
    classes : the classes, in the order of the probability columns.
    codes : each case's class, as an index into ``classes``.
    proba : (n, k) predicted probabilities.
    weight : case weights, or None.
    cm : the k x k (weighted) confusion matrix, rows actual, columns predicted (argmax).
    report : ``report(measure, reason, cls=None)``: how a form reports an undefined
        value (a multiclass evaluation gathers them, naming the class).
    """

    classes: Sequence[Any]
    codes: npt.NDArray[np.intp]
    proba: FloatArray
    weight: FloatArray | None
    cm: FloatArray
    report: Callable[..., None] = _warn

    @property
    def n_classes(self) -> int:
        return len(self.classes)

    @property
    def support(self) -> FloatArray:
        """The (weighted) number of cases of each class."""
        return self.cm.sum(axis=1)


def multiclass_form(measure: str, *, rows: Callable[..., FloatArray] | None = None,
                    ) -> Callable[[Callable[..., float]], Callable[..., float]]:
    """Declare ``func(data: MulticlassData, **params)`` the natively multiclass form of
    the registered ``measure``; ``rows(data, **params)``, when the form is the weighted
    mean of per-row terms, gives those terms (``Measure.multiclass_rows``: a row
    bootstrap then reads each replicate as a dot product, with no (n, k) work)."""

    def deco(func: Callable[..., float]) -> Callable[..., float]:
        if rows is None:
            declare_fast_path(measure, multiclass=func)
        else:
            declare_fast_path(measure, multiclass=func, multiclass_rows=rows)
        return func

    return deco


@multiclass_form("accuracy")
def accuracy(data: MulticlassData) -> float:
    """Fraction of cases whose argmax class is the true one (paper Table 5, "readily
    generalized"), weighted by the sample weights."""
    cm = data.cm
    return float(np.trace(cm) / cm.sum())


@multiclass_form("error_rate")
def error_rate(data: MulticlassData) -> float:
    """Fraction of misclassified cases, 1 - accuracy (the zero-one loss)."""
    cm = data.cm
    return float((cm.sum() - np.trace(cm)) / cm.sum())


@multiclass_form("balanced_accuracy")
def balanced_accuracy(data: MulticlassData) -> float:
    """Mean over the classes of their recall (paper Table 5: sum_j n_j,corr / n_j,actual / k;
    scikit-learn's balanced_accuracy_score). A class without cases is left out, with a
    warning."""
    cm = data.cm
    actual = cm.sum(axis=1)
    present = actual > 0
    for c in np.flatnonzero(~present):
        data.report("balanced_accuracy", "y_true has no cases of the class, so its recall "
                    "is 0/0", data.classes[int(c)])
    return float(np.mean(np.diag(cm)[present] / actual[present]))


def _single_class(v: npt.NDArray[np.float64]) -> bool:
    return int(np.count_nonzero(v > 0)) <= 1


@multiclass_form("mcc")
def mcc(data: MulticlassData) -> float:
    """Gorodkin's R_K (paper Table 5; scikit-learn's matthews_corrcoef):
    (c n - sum_j p_j t_j) / sqrt((n^2 - sum p_j^2)(n^2 - sum t_j^2)).

    Undefined (NaN, not scikit-learn's 0) when every case is in one actual class or
    every prediction is one class.
    """
    f = data.cm / data.cm.sum()  # fractions: no overflow whatever the weights
    t, p = f.sum(axis=1), f.sum(axis=0)
    if _single_class(t) or _single_class(p):
        report_undefined("mcc", "every case is in one actual class, or every case is "
                         "predicted as one class")
        return float("nan")
    cov = np.trace(f) - t @ p
    return float(cov / np.sqrt((1.0 - p @ p) * (1.0 - t @ t)))


@multiclass_form("kappa")
def kappa(data: MulticlassData, *, weights: str | None = None) -> float:
    """Cohen's kappa (paper Table 5): (ACC - baseline) / (1 - baseline), baseline =
    sum_j n_j,pred n_j,actual / n^2 (scikit-learn's cohen_kappa_score).

    Parameters
    ----------
    weights : {None, "linear", "quadratic"}, default None
        For ordered classes (numbers, in the order of the classes): Cohen's weighted
        kappa 1 - sum w_ij O_ij / sum w_ij E_ij with w_ij = |i - j| or (i - j)^2 and
        E the outer product of the margins over n, as scikit-learn's
        ``cohen_kappa_score(weights=...)``. Classes that are not numbers have no order:
        an error.
    """
    if weights is not None:
        return _weighted_kappa(data, weights)
    f = data.cm / data.cm.sum()
    t, p = f.sum(axis=1), f.sum(axis=0)
    pe = float(t @ p)
    if _single_class(t) and _single_class(p) and int(np.argmax(t)) == int(np.argmax(p)):
        report_undefined("kappa", "chance agreement is 1 (one class, and only that class "
                         "predicted)")
        return float("nan")
    return float((np.trace(f) - pe) / (1.0 - pe))


def _weighted_kappa(data: MulticlassData, weights: str) -> float:
    if weights not in ("linear", "quadratic"):
        raise ValueError(f"weights must be None, 'linear' or 'quadratic'; got {weights!r}")
    numeric = all(isinstance(c, (int, float, np.integer, np.floating))
                  and not isinstance(c, (bool, np.bool_)) for c in data.classes)
    if not numeric:
        raise ValueError(f"weights={weights!r} needs ordered classes; the classes "
                         f"{list(data.classes)} are not numbers: encode them as integers "
                         "in their order")
    k = data.n_classes
    d = np.abs(np.subtract.outer(np.arange(k), np.arange(k))).astype(np.float64)
    w = d if weights == "linear" else d**2
    f = data.cm / data.cm.sum()
    expected = np.outer(f.sum(axis=1), f.sum(axis=0))
    den = float(np.sum(w * expected))
    if den == 0:
        report_undefined("kappa", "the weighted chance disagreement is 0 (one class, and "
                         "only that class predicted)")
        return float("nan")
    return float(1.0 - np.sum(w * f) / den)


def _true_proba(data: MulticlassData) -> npt.NDArray[np.float64]:
    """Predicted probability of each case's true class."""
    return data.proba[np.arange(data.codes.size), data.codes]


def _brier_rows(data: MulticlassData) -> FloatArray:
    """Each case's sum_j (f_ij - o_ij)^2."""
    d = data.proba.copy()
    d[np.arange(data.codes.size), data.codes] -= 1.0
    return np.einsum("ij,ij->i", d, d)


@multiclass_form("brier", rows=_brier_rows)
def brier(data: MulticlassData) -> float:
    """Multiclass Brier score (paper Table 5): (1/n) sum_i sum_j (f_ij - o_ij)^2.

    Summed over the k classes, so for two classes it is twice the binary Brier score
    of either column (and equals scikit-learn's multiclass brier_score_loss).
    """
    return float(np.average(_brier_rows(data), weights=data.weight))


def _rps_rows(data: MulticlassData) -> FloatArray:
    """Each case's 1/(K-1) sum_{k<K} (P_ik - O_ik)^2 (NaN for one class)."""
    k = data.n_classes
    if k < 2:
        return np.full(data.codes.size, np.nan)
    d = data.proba.copy()
    d[np.arange(data.codes.size), data.codes] -= 1.0
    cum = np.cumsum(d, axis=1)[:, :-1]  # the last cumulative sum is 1 - 1 = 0
    return np.einsum("ij,ij->i", cum, cum) / (k - 1)


@multiclass_form("rps", rows=_rps_rows)
def rps(data: MulticlassData) -> float:
    """Ranked probability score of ordered classes (Epstein 1969; Murphy 1971):
    (1/n) sum_i 1/(K-1) sum_{k=1}^{K-1} (P_ik - O_ik)^2, with P_ik = sum_{j<=k} p_ij and
    O_ik = sum_{j<=k} o_ij the cumulative predicted and observed distributions of case i.

    The order of the classes is the order of the probability columns: ``labels=`` (in
    column order) or, without it, the sorted class labels. Berrar names it for ordered
    outcomes (after Def. 18: "win", "draw", "lose" in his ref. 44, where a forecast of
    "draw" for a "win" costs less than one of "lose"); unlike the Brier score it
    changes when the columns are permuted. For two classes it is the binary Brier score.

    Examples
    --------
    >>> import binmetrics as bm
    >>> mev = bm.evaluate_multiclass(["win", "win"], [[.9, .1, 0], [.8, .1, .1]],
    ...                              labels=["win", "draw", "lose"])
    >>> round(mev["rps"], 4)  # (0.1^2 / 2 + (0.2^2 + 0.1^2) / 2) / 2 = (0.005 + 0.025) / 2
    0.015
    """
    k = data.n_classes
    if k < 2:
        data.report("rps", "there is one class, so no cumulative distribution to compare")
        return float("nan")
    return float(np.average(_rps_rows(data), weights=data.weight))


def _log_loss_rows(data: MulticlassData, *, base: float = 2.0,
                   eps: float = EPS) -> FloatArray:
    """Each case's -log_b max(p_i,y_i, eps)."""
    e = check_in_range(eps, "eps", 0.0, 0.5, low_open=True)
    return -np.log(np.maximum(_true_proba(data), e)) / log_base(base)


@multiclass_form("log_loss", rows=_log_loss_rows)
def log_loss(data: MulticlassData, *, base: float = 2.0,
                     eps: float = EPS) -> float:
    """Multiclass cross-entropy -(1/n) sum_i log_b p_i,y_i (Berrar Def. 20 over k classes).

    As the binary :func:`~binmetrics.measures.probabilistic.log_loss`: base 2 by default
    (``np.e`` for scikit-learn's nats) and p clipped at ``eps`` inside the logarithm.
    """
    return float(np.average(_log_loss_rows(data, base=base, eps=eps), weights=data.weight))


def _priors(data: MulticlassData, prior: str, priors: Any,
            prior_counts: Any) -> npt.NDArray[np.float64]:
    k = data.n_classes
    if prior not in ("test", "train", "laplace"):
        raise ValueError(f"prior must be 'test', 'train' or 'laplace'; got {prior!r}")

    def vector(x: Any, name: str) -> npt.NDArray[np.float64]:
        v = as_float(as_1d(x, name), name)
        if v.size != k:
            raise ValueError(f"{name} has {v.size} values but there are {k} classes "
                             f"{data.classes}")
        if not np.isfinite(v).all() or (v < 0).any():
            raise ValueError(f"{name} must be finite and non-negative; got {v.tolist()}")
        if not v.sum() > 0:
            raise ValueError(f"{name} sums to 0")
        return v

    if prior == "test":
        if priors is not None or prior_counts is not None:
            raise ValueError("priors= and prior_counts= give training priors; pass "
                             "prior='train' (or 'laplace' with prior_counts=)")
        return data.support / data.support.sum()
    if prior == "train":
        if (priors is None) == (prior_counts is None):
            raise ValueError("prior='train' needs exactly one of priors= (probabilities) "
                             "and prior_counts= (the training set's class counts)")
        if priors is not None:
            v = vector(priors, "priors")
            if abs(v.sum() - 1.0) > ROW_SUM_TOL:
                raise ValueError(f"priors must sum to 1; they sum to {v.sum():.10g}")
            return v
        v = vector(prior_counts, "prior_counts")
        return v / v.sum()
    if priors is not None:
        raise ValueError("prior='laplace' is computed from counts; pass prior_counts=")
    counts = data.support if prior_counts is None else vector(prior_counts, "prior_counts")
    return (counts + 1.0) / (counts.sum() + k)


def _information(data: MulticlassData, measure: str, prior: str, priors: Any,
                 prior_counts: Any) -> tuple[float, float] | None:
    """(mean information in nats, entropy of the priors in nats), or None if undefined."""
    pc = _priors(data, prior, priors, prior_counts)
    big_p = pc[data.codes]
    p = _true_proba(data)
    w = np.ones(p.size) if data.weight is None else data.weight
    live = w > 0
    if np.any(((big_p <= 0.0) | (big_p >= 1.0)) & live):
        report_undefined(measure, "the prior of a true class is 0 or 1; pass other priors")
        return None
    gain = p >= big_p
    info = np.zeros(p.size)
    with np.errstate(divide="ignore"):  # log 0 cannot reach the kept branch; see below
        # p >= P > 0: log p - log P; p < P < 1: log(1 - P) - log(1 - p), 1 - p > 0
        info[gain] = np.log(p[gain]) - np.log(big_p[gain])
        info[~gain] = np.log1p(-big_p[~gain]) - np.log1p(-p[~gain])
    info[~live] = 0.0
    mean = float(np.average(info, weights=w))
    nz = pc[pc > 0]
    entropy = float(-(nz @ np.log(nz)))
    return mean, entropy


@multiclass_form("information_score")
def information_score(data: MulticlassData, *, prior: str = "test",
                              priors: Any = None, prior_counts: Any = None,
                              base: float = 2.0) -> float:
    """Mean Kononenko-Bratko information score Ia in bits per case (docs/methods.md §5.1).

    For a case with prior P of its true class and predicted probability p of it:
    I = log p - log P if p >= P, else log(1 - P) - log(1 - p).

    Parameters
    ----------
    prior : {"test", "train", "laplace"}, default "test"
        "test": the (weighted) class frequencies of the evaluated data (Orange's
        default); "train": ``priors=`` (probabilities per class, in class order) or
        ``prior_counts=`` (the training set's class counts); "laplace": Weka's
        (count + 1) / (N + k) from ``prior_counts=`` (default: the evaluated data's
        counts). A true class with prior 0 or 1 gives NaN with a warning.
    base : logarithm base, default 2 (bits).
    """
    lb = log_base(base)
    got = _information(data, "information_score", prior, priors, prior_counts)
    return float("nan") if got is None else got[0] / lb


@multiclass_form("relative_information_score")
def relative_information_score(data: MulticlassData, *, prior: str = "test",
                                       priors: Any = None, prior_counts: Any = None) -> float:
    """Relative information score Ir = Ia / E, E = -sum_c P(c) log P(c) (docs/methods.md §5.1;
    a fraction as Berrar eq. 25, Orange reports 100 times it). Priors as for the
    information score."""
    got = _information(data, "relative_information_score", prior, priors, prior_counts)
    return float("nan") if got is None else got[0] / got[1]
