"""Frequentist tests of two models: the Wilcoxon signed-rank test over data sets (Demšar
2006, section 3.1.3) and the 5x2cv tests on one data set (Dietterich's 1998 paired t,
Alpaydin's 1999 combined F).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy import stats

from binmetrics.evaluation.api import evaluate
from binmetrics.exceptions import report_undefined
from binmetrics.formatting import HypothesisTest
from binmetrics.inference.signed_rank import (
    SignedRankMethod,
    WilcoxonTest,
    ZeroMethod,
    signed_rank_test,
)
from binmetrics.measures import get_measure
from binmetrics.validation import check_labels, check_paired_values, n_rows, take_rows

__all__ = ["CV5x2Test", "WilcoxonTest", "cv_5x2_test", "wilcoxon_test"]

def wilcoxon_test(a: Any, b: Any, *, zero_method: ZeroMethod = "zsplit",
                  alternative: str = "two-sided",
                  method: SignedRankMethod = "auto") -> WilcoxonTest:
    """The Wilcoxon signed-rank test of two models over N data sets.

    The differences d_i = a_i - b_i are ranked by |d_i| (ties sharing ranks); R+ and R-
    are the rank sums of the positive and negative ones. Zero differences are, by
    default, split evenly between R+ and R- (Demšar 2006 recommends it; scipy's
    ``zero_method="zsplit"``); "wilcox" drops them, "pratt" ranks them and drops their
    ranks. The test is :func:`binmetrics.inference.signed_rank.signed_rank_test` on
    a - b, the one the ``"wilcoxon_holm"`` post-hoc test and SRD's cross-validation
    use, whose docstring gives the p-value's methods.

    Parameters
    ----------
    a, b : array-like
        The scores of the two models on the same data sets.
    zero_method : {"zsplit", "wilcox", "pratt"}, default "zsplit"
    alternative : {"two-sided", "greater", "less"}
        "greater": a tends to be larger than b.
    method : {"auto", "exact", "normal"}
        "auto": the exact sign-flip distribution up to 50 non-zero differences (with
        ties and zeros too: the result's ``method`` is then "exact-ties"), the normal
        approximation beyond. The method used is stated on the result.

    Examples
    --------
    >>> import binmetrics as bm
    >>> from binmetrics.data import demsar_table
    >>> t = demsar_table()
    >>> res = bm.wilcoxon_test(t["C4.5+m"], t["C4.5"])  # Demšar section 3.1.3
    >>> res.statistic, res.n_zero, res.method  # his T = min(R+, R-) = min(93, 12)
    (12.0, 2, 'exact-ties')
    >>> round(res.pvalue, 4)
    0.0078
    """
    d = check_paired_values(a, b, what="data set")
    if d.size < 2:
        raise ValueError(f"the Wilcoxon test needs at least 2 data sets; got {d.size}")
    return signed_rank_test(d, zero_method=zero_method, alternative=alternative,
                            method=method)


@dataclass(frozen=True, repr=False)
class CV5x2Test(HypothesisTest):
    """A 5x2cv test (:func:`cv_5x2_test`).

    ``differences`` is the (5, 2) array of a - b, replication by half (the first column
    trained on the first half and tested on the second); ``statistic`` is Dietterich's t
    (``kind="t"``, df = 5) or Alpaydin's F (``kind="f"``, df = (10, 5)).
    """

    statistic: float
    df: tuple[int, ...]
    pvalue: float
    kind: str
    measure: str
    differences: npt.NDArray[np.float64]
    scores_a: npt.NDArray[np.float64]
    scores_b: npt.NDArray[np.float64]

    #: both statistics test "no difference" against any difference
    alternative: ClassVar[str] = "two-sided"

    @property
    def method(self) -> str:
        """"5x2cv-t" (Dietterich) or "5x2cv-f" (Alpaydin)."""
        return f"5x2cv-{self.kind}"

    def _title(self) -> str:
        return (f"CV5x2Test(kind={self.kind!r}, measure={self.measure!r}, "
                f"statistic={self.statistic:.4g}, df={self.df}, pvalue={self.pvalue:.4g}, "
                f"mean_difference={float(self.differences.mean()):.4g})")

    def to_frame(self) -> pd.DataFrame:
        """One row per fit (replication, half): the measure of A and of B and A - B."""
        rep, half = np.divmod(np.arange(10), 2)
        return pd.DataFrame({"replication": rep + 1, "half": half + 1,
                             "a": self.scores_a.ravel(), "b": self.scores_b.ravel(),
                             "difference": self.differences.ravel()})


def _scores(fitted: Any, X: Any, pos: Any) -> npt.NDArray[np.float64]:
    """The positive-class scores of a fitted classifier (probability, else decision)."""
    classes = list(fitted.classes_)
    if hasattr(fitted, "predict_proba"):
        return np.asarray(fitted.predict_proba(X), dtype=float)[:, classes.index(pos)]
    if hasattr(fitted, "decision_function"):
        d = np.asarray(fitted.decision_function(X), dtype=float).reshape(-1)
        return d if classes[-1] == pos else -d
    return (np.asarray(fitted.predict(X)) == pos).astype(float)


def cv_5x2_test(estimator_a: Any, estimator_b: Any, X: Any, y: Any, *,
                measure: str = "auc", kind: Literal["t", "f"] = "t",
                random_state: Any = None, splits: Sequence[tuple[Any, Any]] | None = None,
                pos_label: Any = None) -> CV5x2Test:
    """The 5x2cv test of two classifiers on one data set.

    Five replications of 2-fold cross-validation; in replication i the difference of the
    measure, p_i^(j) = A - B, is taken on each half j (trained on the other), with mean
    m_i and variance s_i^2 = sum_j (p_i^(j) - m_i)^2. Dietterich's (1998) paired t is
    t = p_1^(1) / sqrt(sum_i s_i^2 / 5) on 5 df; Alpaydin's (1999) combined F is
    F = sum_{i,j} (p_i^(j))^2 / (2 sum_i s_i^2) on (10, 5) df, which is more robust to the
    choice of p_1^(1).

    Parameters
    ----------
    estimator_a, estimator_b : scikit-learn classifiers
        Cloned and refitted on each half (needs scikit-learn).
    X, y : array-like
    measure : str, default "auc"
        A registry measure, computed on the positive class scores (``predict_proba``,
        else ``decision_function``, else ``predict``).
    kind : {"t", "f"}
    random_state : int, optional
        Seeds the five stratified, shuffled halvings.
    splits : sequence of five (half_1, half_2) index arrays, optional
        The halvings to use instead (e.g. to reproduce another tool's).
    pos_label : optional
        The positive class (binmetrics' usual default otherwise).

    Examples
    --------
    >>> import binmetrics as bm
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> lr = make_pipeline(StandardScaler(), LogisticRegression())
    >>> res = bm.cv_5x2_test(lr, GaussianNB(), X, y, measure="auc", random_state=0)
    >>> res.differences.shape, res.kind, res.df
    ((5, 2), 't', (5,))
    """
    try:
        from sklearn.base import clone
        from sklearn.model_selection import StratifiedKFold
    except ImportError:
        raise ImportError("cv_5x2_test needs scikit-learn; install it with "
                          "pip install 'binmetrics[sklearn]'") from None
    m = get_measure(measure)
    if kind not in ("t", "f"):
        raise ValueError(f"kind must be 't' (Dietterich's paired t) or 'f' (Alpaydin's "
                         f"combined F); got {kind!r}")
    y_raw = np.asarray(y)
    n = n_rows(X, "X")
    if y_raw.ndim != 1 or y_raw.size != n:
        raise ValueError(f"y must hold one label per row of X ({n}); got shape {y_raw.shape}")
    y_bool, pos = check_labels(y_raw, pos_label)
    if splits is None:
        seeds = np.random.SeedSequence(random_state).generate_state(5)
        splits = [next(iter(StratifiedKFold(2, shuffle=True, random_state=int(s)).split(
            np.zeros(n), y_bool))) for s in seeds]
    if len(splits) != 5:
        raise ValueError(f"splits must be five (half_1, half_2) pairs; got {len(splits)}")
    scores = np.empty((2, 5, 2))
    for i, (h1, h2) in enumerate(splits):
        h1, h2 = np.asarray(h1, dtype=np.intp), np.asarray(h2, dtype=np.intp)
        for j, (train, test) in enumerate(((h1, h2), (h2, h1))):
            for e, est in enumerate((estimator_a, estimator_b)):
                fitted = clone(est).fit(take_rows(X, train), y_raw[train])
                s = _scores(fitted, take_rows(X, test), pos)
                scores[e, i, j] = evaluate(y_bool[test], s, pos_label=True).value(m)
    diff = scores[0] - scores[1]
    var = ((diff - diff.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    total = float(var.sum())
    if total == 0.0:
        report_undefined("5x2cv test", "the two differences of every replication are equal, "
                         "so the variance estimate is 0")
        stat = p = math.nan
    elif kind == "t":
        stat = float(diff[0, 0] / math.sqrt(total / 5.0))
        p = float(2.0 * stats.t.sf(abs(stat), 5))
    else:
        stat = float((diff**2).sum() / (2.0 * total))
        p = float(stats.f.sf(stat, 10, 5))
    return CV5x2Test(stat, (5,) if kind == "t" else (10, 5), p, kind, m.id, diff,
                     scores[0], scores[1])
