"""Association and information measures of the confusion matrix (PyCM's overall
statistics): chi-square, Cramér's V, mutual information (raw and normalized), the joint
and the conditional entropy, all information in bits.

The confusion matrix is read as a contingency table of actual (rows) against predicted
(columns) classes, its cells as fractions f_ij of the n cases (the total weight). On a
binary evaluation the functions read the 2 x 2 matrix (fields may be arrays); on a
multiclass one their native forms read the k x k matrix. 0 log 0 = 0.

These measure association, not agreement: a classifier that swaps the classes
scores as high as one that never errs (use them beside, not instead of, the MCC).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from binmetrics.measures._util import FloatOrArray, as_result, flag_nan, ratio
from binmetrics.measures.registry import register
from binmetrics.table.counts import Confusion

if TYPE_CHECKING:
    from binmetrics.measures.multiclass import MulticlassData

_EMPTY_MARGIN = "a row or column of the confusion matrix is empty (an expected count is 0)"


def _cells(c: Confusion) -> np.ndarray:
    """The 2 x 2 matrices as fractions, shape (2, 2, ...): [[tp, fn], [fp, tn]]."""
    total = np.asarray(c.total, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        f = [np.asarray(x, dtype=np.float64) / total for x in (c.tp, c.fn, c.fp, c.tn)]
    shape = np.broadcast(*f).shape
    return np.stack([np.broadcast_to(x, shape) for x in f]).reshape((2, 2, *shape))


def _matrix(data: MulticlassData) -> np.ndarray:
    return np.asarray(data.cm / data.cm.sum(), dtype=np.float64)


def _plogp(p: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(p > 0, p * np.log2(np.where(p > 0, p, 1.0)), 0.0)


def _entropies(f: np.ndarray) -> tuple[Any, Any, Any]:
    """H(actual), H(predicted), H(actual, predicted) of (k, k, ...) fractions."""
    rows, cols = f.sum(axis=1), f.sum(axis=0)
    h_rows = -_plogp(rows).sum(axis=0)
    h_cols = -_plogp(cols).sum(axis=0)
    h_joint = -_plogp(f).sum(axis=(0, 1))
    return h_rows, h_cols, h_joint


def _chi_square_of(f: np.ndarray, n: Any) -> Any:
    rows, cols = f.sum(axis=1), f.sum(axis=0)
    expected = rows[:, None] * cols[None, :]
    empty = np.any(rows == 0, axis=0) | np.any(cols == 0, axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(expected > 0, (f - expected) ** 2 / np.where(expected > 0, expected, 1), 0)
    value = np.where(empty, np.nan, np.asarray(n, dtype=np.float64) * terms.sum(axis=(0, 1)))
    return value


def _chi_square_multiclass(data: MulticlassData) -> float:
    """Pearson's chi-square of the k x k matrix (PyCM's Chi-Squared)."""
    return float(flag_nan(_chi_square_of(_matrix(data), data.cm.sum()), "chi_square",
                          _EMPTY_MARGIN))


@register("chi_square", name="Chi-square statistic", family="confusion", direction=0,
          prevalence_dependent=True,
          weight_unit=True,
          range=(0.0, float("inf")), plot="measure", aliases=("chi_squared", "chi2"),
          source="Pearson 1900; PyCM Chi-Squared", multiclass=_chi_square_multiclass,
          formula="sum_ij (O_ij - E_ij)^2 / E_ij, E_ij = row_i col_j / n")
def chi_square(c: Confusion) -> FloatOrArray:
    """Pearson's chi-square statistic of independence of prediction and truth.

    It grows with n (n MCC^2 on a 2 x 2 table), so it compares tables of one size
    only; Cramér's V is its size-free form. Undefined when a class is absent from the
    truth or the predictions.

    Examples
    --------
    >>> round(chi_square(Confusion(tp=3, fp=1, fn=2, tn=4)), 6)  # 10 x MCC^2
    1.666667
    """
    v = _chi_square_of(_cells(c), c.total)
    return flag_nan(v, "chi_square", _EMPTY_MARGIN)


def _cramer_v_multiclass(data: MulticlassData) -> float:
    """Cramér's V of the k x k matrix: sqrt(chi^2 / (n (k - 1)))."""
    chi2 = _chi_square_of(_matrix(data), 1.0)
    return float(flag_nan(np.sqrt(chi2 / (data.n_classes - 1)), "cramer_v", _EMPTY_MARGIN))


@register("cramer_v", name="Cramér's V", family="confusion", direction=1, range=(0.0, 1.0),
          prevalence_dependent=True,
          plot="measure", aliases=("cramers_v", "cramer_s_v"),
          source="Cramér 1946; PyCM Cramer V", multiclass=_cramer_v_multiclass,
          formula="sqrt(chi^2 / (n (k - 1))); binary: |MCC|")
def cramer_v(c: Confusion) -> FloatOrArray:
    """Cramér's V: chi-square scaled to [0, 1]; for two classes the absolute MCC.

    Examples
    --------
    >>> round(cramer_v(Confusion(tp=3, fp=1, fn=2, tn=4)), 6)
    0.408248
    """
    v = np.sqrt(_chi_square_of(_cells(c), 1.0))
    return flag_nan(v, "cramer_v", _EMPTY_MARGIN)


def _mutual_information_of(f: np.ndarray) -> Any:
    h_rows, h_cols, h_joint = _entropies(f)
    return np.maximum(h_rows + h_cols - h_joint, 0.0)


def _mi_multiclass(data: MulticlassData) -> float:
    """Mutual information of truth and prediction over the k x k matrix, in bits."""
    return float(_mutual_information_of(_matrix(data)))


@register("mutual_information", name="Mutual information (bits)", family="confusion",
          prevalence_dependent=True,
          direction=1, range=(0.0, float("inf")), plot="measure",
          aliases=("mi", "mutual_info"),
          source="Shannon 1948; PyCM Mutual Information", multiclass=_mi_multiclass,
          formula="H(actual) + H(predicted) - H(actual, predicted), log base 2")
def mutual_information(c: Confusion) -> FloatOrArray:
    """Mutual information of the predicted and the actual class, in bits (at most
    log2 k, so 1 for two classes).

    Examples
    --------
    >>> round(mutual_information(Confusion(tp=3, fp=1, fn=2, tn=4)), 6)
    0.124511
    """
    return as_result(_mutual_information_of(_cells(c)))


def _nmi_of(f: np.ndarray, measure: str) -> Any:
    h_rows, h_cols, h_joint = _entropies(f)
    mi = np.maximum(h_rows + h_cols - h_joint, 0.0)
    return ratio(mi, (h_rows + h_cols) / 2.0, measure,
                 "truth and prediction are each one class (both entropies are 0; "
                 "scikit-learn returns 1)")


def _nmi_multiclass(data: MulticlassData) -> float:
    """Normalized mutual information over the k x k matrix (arithmetic mean)."""
    return float(_nmi_of(_matrix(data), "normalized_mutual_information"))


@register("normalized_mutual_information", name="Normalized mutual information",
          prevalence_dependent=True,
          family="confusion", direction=1, range=(0.0, 1.0), plot="measure",
          aliases=("nmi", "normalized_mutual_info_score"),
          source="Strehl & Ghosh 2002; scikit-learn normalized_mutual_info_score",
          multiclass=_nmi_multiclass,
          formula="MI / ((H(actual) + H(predicted)) / 2)")
def normalized_mutual_information(c: Confusion) -> FloatOrArray:
    """Mutual information over the arithmetic mean of the two entropies
    (scikit-learn's default ``average_method="arithmetic"``).

    Examples
    --------
    >>> round(normalized_mutual_information(Confusion(tp=3, fp=1, fn=2, tn=4)), 6)
    0.126346
    """
    return _nmi_of(_cells(c), "normalized_mutual_information")


def _joint_multiclass(data: MulticlassData) -> float:
    """Joint entropy of truth and prediction over the k x k matrix, in bits."""
    return float(_entropies(_matrix(data))[2])


@register("joint_entropy", name="Joint entropy (bits)", family="confusion", direction=0,
          prevalence_dependent=True,
          range=(0.0, float("inf")), plot="measure",
          source="Shannon 1948; PyCM Joint Entropy", multiclass=_joint_multiclass,
          formula="-sum_ij f_ij log2 f_ij")
def joint_entropy(c: Confusion) -> FloatOrArray:
    """Entropy of the (actual, predicted) pair, in bits.

    Examples
    --------
    >>> round(joint_entropy(Confusion(tp=3, fp=1, fn=2, tn=4)), 6)
    1.846439
    """
    return as_result(_entropies(_cells(c))[2])


def _conditional_multiclass(data: MulticlassData) -> float:
    """H(predicted | actual) over the k x k matrix, in bits."""
    h_rows, _, h_joint = _entropies(_matrix(data))
    return float(np.maximum(h_joint - h_rows, 0.0))


@register("conditional_entropy", name="Conditional entropy of the prediction (bits)",
          prevalence_dependent=True,
          family="confusion", direction=-1, range=(0.0, float("inf")), plot="measure",
          source="Shannon 1948; PyCM Conditional Entropy", multiclass=_conditional_multiclass,
          formula="H(predicted | actual) = H(actual, predicted) - H(actual)")
def conditional_entropy(c: Confusion) -> FloatOrArray:
    """What is left uncertain about the prediction once the true class is known, in
    bits (PyCM's Conditional Entropy): 0 when the prediction is a function of the truth.

    Examples
    --------
    >>> round(conditional_entropy(Confusion(tp=3, fp=1, fn=2, tn=4)), 6)
    0.846439
    """
    h_rows, _, h_joint = _entropies(_cells(c))
    return as_result(np.maximum(h_joint - h_rows, 0.0))
