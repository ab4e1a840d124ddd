r"""pROC's ``roc.test``: two ROC curves compared by DeLong's test or by the bootstrap.

``method="delong"``
    DeLong, DeLong & Clarke-Pearson (1988): paired, the z-test of the AUC difference
    with DeLong's covariance (:func:`~binmetrics.inference.delong.delong_test`);
    unpaired, pROC 1.18's t-test with Welch-type degrees of freedom
    (:func:`~binmetrics.inference.delong.delong_test_unpaired`). Full AUCs only (pROC
    refuses DeLong for partial AUCs too).
``method="bootstrap"``
    The AUC (or, with ``fpr=(a, b)`` / ``tpr=(a, b)``, the partial AUC) difference over
    the standard deviation of its bootstrap replicates, :math:`D = (\hat\theta_1 -
    \hat\theta_2) / \operatorname{sd}(\theta_1^* - \theta_2^*)`, referred to the normal
    distribution (pROC's ``bootstrap.test``). Paired: each replicate draws the same cases
    for both models (stratified by class); unpaired: each sample is resampled on its own.
``method="venkatraman"``
    Venkatraman's (2000) permutation test of the whole curves, paired or unpaired:
    :mod:`binmetrics.inference.venkatraman`.
``method="specificity"`` / ``"sensitivity"``
    The same bootstrap statistic for the sensitivities at a fixed FPR (``fpr=x``, pROC's
    ``specificity = 1 - x``) or the specificities at a fixed TPR (``tpr=x``), read off
    the curves with pROC's ``coords`` rules (the ``tpr_at_fpr`` and ``tnr_at_tpr``
    measures).

Every replicate is a new count vector of the tables built once (no re-sort); the same
``random_state`` gives the same replicates. The resampling tests agree with pROC's only
within Monte Carlo error (their random draws differ): see the docs page "From pROC".

References
----------
DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988). Comparing the areas under
two or more correlated receiver operating characteristic curves: a nonparametric
approach. *Biometrics* 44, 837-845.

Robin, X. et al. (2011). pROC: an open-source package for R and S+ to analyze and
compare ROC curves. *BMC Bioinformatics* 12, 77.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from binmetrics.exceptions import BinmetricsWarning
from binmetrics.formatting import HypothesisTest
from binmetrics.inference.delong import delong_pairs, delong_unpaired_tables
from binmetrics.inference.intervals import normal_pvalue
from binmetrics.inference.paired import paired_bootstrap_differences
from binmetrics.inference.resampling import bootstrap
from binmetrics.inference.venkatraman import venkatraman_paired, venkatraman_unpaired
from binmetrics.measures.partial_auc import partial_auc_range
from binmetrics.measures.ranking import auc
from binmetrics.measures.roc_points import check_rates
from binmetrics.table.counts import CountTable
from binmetrics.validation import (
    BinaryInputs,
    NanPolicy,
    as_1d,
    check_alternative,
    check_binary_inputs,
    check_paired_inputs,
    check_resamples,
)

__all__ = ["ROC_TEST_METHODS", "ROCTest", "roc_test"]

#: the methods of :func:`roc_test`
ROC_TEST_METHODS = ("delong", "bootstrap", "specificity", "sensitivity", "venkatraman")


@dataclass(frozen=True)
class ROCTest(HypothesisTest):
    """The result of :func:`roc_test`.

    Attributes
    ----------
    method : str
    paired : bool
    measure : str
        What was compared: ``"auc"``, ``"partial_auc"``, ``"tpr_at_fpr"`` or
        ``"tnr_at_tpr"``; ``params`` its parameters.
    value_a, value_b : float
        Each curve's value of ``measure``.
    estimate : float
        ``value_a - value_b``.
    statistic : float
        DeLong's Z (paired), its t (unpaired), or the bootstrap's D.
    pvalue : float
    alternative : str
    df : float or None
        The unpaired DeLong test's degrees of freedom.
    n_resamples : int or None
    n_undefined : int
        Bootstrap replicates where the difference was undefined (left out, with a warning).
    """

    method: str
    paired: bool
    measure: str
    params: dict[str, Any]
    value_a: float
    value_b: float
    estimate: float
    statistic: float
    pvalue: float
    alternative: str
    df: float | None = None
    n_resamples: int | None = None
    n_undefined: int = 0
    detail: Any = field(default=None, repr=False)

    def to_frame(self) -> pd.DataFrame:
        """One row with the test's numbers."""
        return pd.DataFrame([{"method": self.method, "paired": self.paired,
                              "measure": self.measure, "value_a": self.value_a,
                              "value_b": self.value_b, "estimate": self.estimate,
                              "statistic": self.statistic, "pvalue": self.pvalue,
                              "alternative": self.alternative, "df": self.df,
                              "n_resamples": self.n_resamples}])

    def __repr__(self) -> str:
        kind = "paired" if self.paired else "unpaired"
        extra = f", df={self.df:.6g}" if self.df is not None else ""
        reps = f", n_resamples={self.n_resamples}" if self.n_resamples else ""
        return (f"ROCTest({self.method}, {kind}, {self.measure}: {self.value_a:.6g} vs "
                f"{self.value_b:.6g}, statistic={self.statistic:.6g}, "
                f"pvalue={self.pvalue:.6g}{extra}, alternative={self.alternative!r}{reps})")


def _target(method: str, fpr: Any, tpr: Any) -> tuple[str, dict[str, Any]]:
    if method == "specificity":
        if fpr is None or tpr is not None or np.ndim(fpr) != 0:
            raise ValueError("method='specificity' compares the sensitivities at one FPR: pass "
                             "fpr=x (pROC's specificity = 1 - x), e.g. fpr=0.1")
        return "tpr_at_fpr", {"fpr": float(check_rates(fpr, "fpr"))}
    if method == "sensitivity":
        if tpr is None or fpr is not None or np.ndim(tpr) != 0:
            raise ValueError("method='sensitivity' compares the specificities at one TPR: pass "
                             "tpr=x, e.g. tpr=0.9")
        return "tnr_at_tpr", {"tpr": float(check_rates(tpr, "tpr"))}
    if fpr is None and tpr is None:
        return "auc", {}
    if method == "delong":
        raise ValueError("DeLong's test compares full AUCs; for partial AUCs (fpr=(a, b) or "
                         "tpr=(a, b)) pass method='bootstrap'")
    focus, low, high = partial_auc_range(fpr, tpr)
    return "partial_auc", {focus: (low, high)}


def _looks_paired(y: Any, y_b: Any, s_a: Any, s_b: Any) -> bool:
    a, b = as_1d(y, "y_true"), as_1d(y_b, "y_b")
    return (a.size == b.size and as_1d(s_a, "score_a").size == as_1d(s_b, "score_b").size
            and bool(np.array_equal(a, b)))


def _unpaired_bootstrap(ta: CountTable, tb: CountTable, measure: str,
                        params: dict[str, Any], B: int,
                        random_state: Any) -> tuple[float, float, np.ndarray]:
    rng = np.random.default_rng(random_state)
    p = {measure: params} if params else None
    ra = bootstrap(ta, measure, n_resamples=B, random_state=rng, params=p)
    rb = bootstrap(tb, measure, n_resamples=B, random_state=rng, params=p)
    key = ra.measures[0]
    return (ra.estimate[key], rb.estimate[key],
            np.asarray(ra.replicates[key]) - np.asarray(rb.replicates[key]))


def _check_venkatraman(alt: str, fpr: Any, tpr: Any, weights: tuple[Any, Any]) -> None:
    if alt != "two-sided":
        raise ValueError("Venkatraman's test is two-sided only (as pROC's)")
    if fpr is not None or tpr is not None:
        raise ValueError("Venkatraman's test compares whole curves; fpr= and tpr= do not "
                         "apply (pass method='bootstrap' for partial AUCs)")
    if any(w is not None for w in weights):
        raise ValueError("Venkatraman's test takes no sample weights; repeat the rows")


def _venkatraman(a: BinaryInputs, b: BinaryInputs, paired: bool, alt: str, B: int,
                 random_state: Any) -> ROCTest:
    """Venkatraman's test of checked input (unweighted: the weights were refused)."""
    if paired:
        e, p, null = venkatraman_paired(a.y, a.score, b.score, B, random_state)
    else:
        e, p, null = venkatraman_unpaired(a.y, a.score, b.y, b.score, B, random_state)
    auc_a = float(auc(CountTable.from_validated(a.y, a.score, None)))
    auc_b = float(auc(CountTable.from_validated(b.y, b.score, None)))
    return ROCTest("venkatraman", paired, "roc curve", {}, auc_a, auc_b, auc_a - auc_b, e, p,
                   alt, n_resamples=B, detail=null)


def roc_test(
    y_true: Any,
    score_a: Any,
    score_b: Any,
    *,
    y_b: Any = None,
    method: str = "delong",
    paired: bool | None = None,
    alternative: str = "two-sided",
    fpr: Any = None,
    tpr: Any = None,
    n_resamples: int = 2000,
    random_state: Any = None,
    sample_weight: Any = None,
    sample_weight_b: Any = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
) -> ROCTest:
    """Compare two ROC curves, as pROC's ``roc.test``.

    Parameters
    ----------
    y_true : array-like
        Labels of the cases of ``score_a`` (and of ``score_b`` when paired).
    score_a, score_b : array-like
        The two models' scores (higher = more positive).
    y_b : array-like, optional
        Labels of ``score_b``'s cases when the two curves come from different cases
        (unpaired). Labels identical to ``y_true`` look paired: then say ``paired=``.
    method : {"delong", "bootstrap", "specificity", "sensitivity", "venkatraman"}
        See the module docstring; "venkatraman" is the permutation test of
        :mod:`binmetrics.inference.venkatraman` (two-sided, full curves, unweighted;
        paired or unpaired).
    paired : bool, optional
        Default: True when ``y_b`` is not given, False when it is. ``paired=False``
        with one ``y_true`` tests the two score vectors as independent samples.
    alternative : {"two-sided", "greater", "less"}
        "greater": curve A's value above B's.
    fpr, tpr :
        For "bootstrap": a range ``(a, b)`` to compare partial AUCs (pROC
        ``partial.auc``); for "specificity" the FPR (one number) and for "sensitivity"
        the TPR at which the curves are compared.
    n_resamples : int, default 2000
        Bootstrap replicates (pROC's ``boot.n``).
    random_state : seed or Generator
        Same seed, same replicates.
    sample_weight, sample_weight_b : optional
        Case weights (multiplicities): of the paired cases, or of the two unpaired
        samples. A row of weight 0 is dropped.
    pos_label : optional
        As :func:`binmetrics.evaluate` (for both samples when unpaired).
    nan_policy : {"raise", "omit"}, default "raise"
        A NaN or infinite score: an error naming the model and rows, or "omit" to drop
        the row (paired: for both models, as every paired function; unpaired: from its
        sample).

    Returns
    -------
    ROCTest

    Examples
    --------
    >>> import binmetrics as bm
    >>> y = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    >>> s1 = [.9, .8, .7, .55, .4, .7, .5, .3, .2, .1, .4]
    >>> s2 = [.6, .9, .4, .5, .5, .5, .8, .2, .3, .1, .35]
    >>> t = bm.roc_test(y, s1, s2)  # pROC roc.test(r1, r2): Z = 0.51257, p = 0.6083
    >>> round(t.statistic, 6), round(t.pvalue, 6)
    (0.512568, 0.608254)
    >>> t = bm.roc_test(y, s1, s2, method="bootstrap", n_resamples=500, random_state=0)
    >>> t.method, t.n_resamples
    ('bootstrap', 500)
    """
    method = str(method).lower()
    if method not in ROC_TEST_METHODS:
        raise ValueError(f"method must be one of {', '.join(ROC_TEST_METHODS)}; got {method!r}")
    alt = check_alternative(alternative)
    if y_b is not None:
        if paired:
            raise ValueError("paired=True needs the same cases: pass one y_true, not y_b")
        if paired is None and _looks_paired(y_true, y_b, score_a, score_b):
            raise ValueError("y_b equals y_true and the scores have the same length: the "
                             "curves look paired; pass paired=True (and no y_b) to pair "
                             "them, or paired=False to test them as independent samples")
        is_paired = False
    else:
        is_paired = True if paired is None else bool(paired)
        if is_paired and sample_weight_b is not None:
            raise ValueError("sample_weight_b is the weights of y_b's sample (unpaired); "
                             "paired curves share sample_weight: pass that alone")
        y_b = y_true
        if sample_weight_b is None:
            sample_weight_b = sample_weight
    B = 0  # kept per replicate: Venkatraman's statistic, or both values and their difference
    if method != "delong":
        B = check_resamples(n_resamples, per_resample=1 if method == "venkatraman" else 3)
    if method == "venkatraman":
        _check_venkatraman(alt, fpr, tpr, (sample_weight, sample_weight_b))
        measure, params = "roc curve", dict[str, Any]()
    else:
        measure, params = _target(method, fpr, tpr)
    if is_paired:
        inp = check_paired_inputs(y_true, [score_a, score_b], ["score_a", "score_b"],
                                  sample_weight, pos_label=pos_label, nan_policy=nan_policy)
        a = BinaryInputs(inp.y, inp.scores[0], inp.weight, inp.pos_label, inp.n_omitted)
        b = BinaryInputs(inp.y, inp.scores[1], inp.weight, inp.pos_label, inp.n_omitted)
    else:
        a = check_binary_inputs(y_true, score_a, sample_weight, pos_label=pos_label,
                                nan_policy=nan_policy)
        b = check_binary_inputs(y_b, score_b, sample_weight_b, pos_label=pos_label,
                                nan_policy=nan_policy)
    if method == "venkatraman":
        return _venkatraman(a, b, is_paired, alt, B, random_state)
    if method == "delong":
        if is_paired:
            dl = delong_pairs(a.y, [a.score, b.score], a.weight, alternative=alt)[(0, 1)]
            return ROCTest("delong", True, "auc", {}, dl.value_a, dl.value_b, dl.estimate,
                           dl.statistic, dl.pvalue, alt, detail=dl)
        u = delong_unpaired_tables(CountTable.from_validated(a.y, a.score, a.weight),
                                   CountTable.from_validated(b.y, b.score, b.weight), alt,
                                   0.95)
        return ROCTest("delong", False, "auc", {}, u.value_a, u.value_b, u.estimate,
                       u.statistic, u.pvalue, alt, df=u.df, detail=u)
    if is_paired:
        est_a, est_b, diffs = paired_bootstrap_differences(
            a.y, a.score, b.score, a.weight, measure, params, B, random_state)
    else:
        est_a, est_b, diffs = _unpaired_bootstrap(
            CountTable.from_validated(a.y, a.score, a.weight),
            CountTable.from_validated(b.y, b.score, b.weight), measure, params, B,
            random_state)
    ok = diffs[~np.isnan(diffs)]
    n_bad = int(diffs.size - ok.size)
    if n_bad:
        warnings.warn(f"{n_bad} of {B} bootstrap replicates gave an undefined difference and "
                      "were left out (as pROC)", BinmetricsWarning, stacklevel=2)
    d = est_a - est_b
    sd = float(np.std(ok, ddof=1)) if ok.size > 1 else math.nan
    stat = 0.0 if (d == 0 and sd == 0) else (d / sd if sd > 0 else math.copysign(math.inf, d))
    return ROCTest(method, is_paired, measure, params, est_a, est_b, d, stat,
                   normal_pvalue(stat, alt), alt, n_resamples=B, n_undefined=n_bad)
