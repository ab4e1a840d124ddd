"""Cross-validation of SRD: is the ordering of the columns stable on resampled rows?

docs/methods.md §1.7: each resample (:func:`resample_rows`: k-fold, leave-one-out,
bootstrap or rSRD's random subsets) drops rows, the reference is fused again on the
rows kept and SRD% is normalised by SRDmax of that many rows. Neighbouring columns,
ordered by their median SRD% as rSRD orders them, are then compared with the Wilcoxon
matched-pairs signed-rank test (:func:`wilcoxon_matched_pairs`, exact up to 50 pairs)
and the sign test (:func:`sign_test`). :class:`SRDCrossValidation` holds the result;
create it with :meth:`SRDResult.cross_validate
<binmetrics.comparison.srd_ranking.SRDResult.cross_validate>`.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy import stats

from binmetrics.backends import axes
from binmetrics.comparison._srd_core import (
    _TOL,
    FloatArray,
    _compute,
    _Null,
    _Spec,
    _srd_values,
    _SRDFit,
    srd_max,
)
from binmetrics.exceptions import BinmetricsWarning
from binmetrics.formatting import Tabular
from binmetrics.inference.signed_rank import signed_rank_test
from binmetrics.validation import check_resamples

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["SRDCrossValidation", "resample_rows", "sign_test", "wilcoxon_matched_pairs"]


def resample_rows(n: int, cv: str = "kfold", k: int = 7, repeats: int = 1,
                  shuffle: bool = True, n_resamples: int = 200,
                  rng: Any = None) -> list[npt.NDArray[np.intp]]:
    """The rows of an ``n``-row table kept in each resample of an SRD cross-validation.

    The plans of :meth:`SRDResult.cross_validate
    <binmetrics.comparison.srd_ranking.SRDResult.cross_validate>` (docs/methods.md §1.7), which
    documents ``cv``, ``k``, ``repeats``, ``shuffle`` and ``n_resamples``: ``"kfold"`` (each
    of k folds left out once, per repeat), ``"loo"``, ``"bootstrap"`` and
    ``"rsrd_wilcoxon"``. ``rng`` is a seed or a :class:`numpy.random.Generator`.

    Returns
    -------
    list of int arrays
        Row positions kept, one array per resample (sorted; with repeats for the
        bootstrap).

    Examples
    --------
    >>> [r.tolist() for r in resample_rows(6, "kfold", 3, shuffle=False)]
    [[2, 3, 4, 5], [0, 1, 4, 5], [0, 1, 2, 3]]
    >>> len(resample_rows(6, "loo"))
    6
    """
    rng = np.random.default_rng(rng)
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 2:
        raise ValueError(f"k must be an integer >= 2, got {k!r}")
    if not isinstance(repeats, (int, np.integer)) or repeats < 1:
        raise ValueError(f"repeats must be a positive integer, got {repeats!r}")
    idx = np.arange(n)
    if cv == "kfold":
        if k > n:
            raise ValueError(f"k = {k} folds need at least k rows; the table has {n}")
        if n - math.ceil(n / k) < 3:
            raise ValueError(f"with {n} rows and k = {k}, a fold keeps fewer than 3 rows")
        if repeats > 1 and not shuffle:
            raise ValueError("repeats > 1 needs shuffle=True (unshuffled folds repeat)")
        out = []
        for _ in range(repeats):
            order = rng.permutation(n) if shuffle else idx
            for fold in np.array_split(order, k):
                out.append(np.setdiff1d(idx, fold))
        return out
    if cv == "loo":
        if n < 4:
            raise ValueError(f"leave-one-out needs at least 4 rows; the table has {n}")
        return [np.delete(idx, i) for i in range(n)]
    if cv == "bootstrap":
        check_resamples(n_resamples, per_resample=n, what="the row indices of one resample")
        return [np.sort(rng.integers(0, n, n)) for _ in range(n_resamples)]
    if cv == "rsrd_wilcoxon":
        kk = min(n, 8)
        drop = math.ceil(n / kk)
        if n - drop < 3:
            raise ValueError(f"rSRD's cross-validation leaves fewer than 3 of {n} rows")
        seen: set[bytes] = set()
        out = []
        n_distinct = math.comb(n, drop)
        while len(out) < min(kk, n_distinct):
            gone = np.sort(rng.choice(n, drop, replace=False))
            if gone.tobytes() in seen:
                continue
            seen.add(gone.tobytes())
            out.append(np.setdiff1d(idx, gone))
        return out
    raise ValueError("cv must be 'kfold', 'loo', 'bootstrap' or 'rsrd_wilcoxon', got "
                     f"{cv!r}")


def _differences(a: Any, b: Any) -> FloatArray:
    """Non-zero paired differences, rounded so that differences equal in exact
    arithmetic (SRD% values are k·100/SRDmax) tie instead of ranking apart by float
    noise. NaN pairs (a column left out of a resample) are dropped."""
    d = np.round(np.asarray(a, float) - np.asarray(b, float), 9)
    return d[np.isfinite(d) & (np.abs(d) > _TOL)]


def wilcoxon_matched_pairs(a: Any, b: Any) -> tuple[float, float, int]:
    """Wilcoxon matched-pairs signed-rank test as docs/methods.md §1.7 fixes it.

    Zero differences are dropped and |d| get average ranks; the statistic is rSRD's
    |W+ − W−|. The two-sided p-value is that of
    :func:`binmetrics.inference.signed_rank.signed_rank_test` (``zero_method="wilcox"``),
    the test :func:`binmetrics.wilcoxon_test` runs: exact (all sign patterns, given the
    tied |d|) up to 50 non-zero pairs, the tie-corrected normal approximation above.

    Returns
    -------
    (statistic, pvalue, n_nonzero)

    Examples
    --------
    >>> wilcoxon_matched_pairs([1, 2, 3, 4, 5, 6], [2, 3, 4, 5, 6, 7.5])
    (21.0, 0.03125, 6)
    """
    d = _differences(a, b)
    if d.size == 0:
        return 0.0, 1.0, 0
    res = signed_rank_test(d, zero_method="wilcox")
    m = int(d.size)
    # |W+ - W-| = (W+ + W-) - 2 min(W+, W-), and the midranks of m values sum to m(m+1)/2
    return m * (m + 1) / 2.0 - 2.0 * res.statistic, res.pvalue, m


def sign_test(a: Any, b: Any) -> tuple[int, float]:
    """Sign test (Dixon & Mood): #(a > b) among non-zero differences, Binomial(n, 1/2),
    two-sided p-value.

    Examples
    --------
    >>> sign_test([1, 2, 3, 4], [2, 3, 4, 5])
    (0, 0.125)
    """
    d = _differences(a, b)
    if d.size == 0:
        return 0, 1.0
    k = int(np.count_nonzero(d > 0))
    return k, float(stats.binomtest(k, int(d.size), 0.5).pvalue)


def _quantile(col: pd.Series, p: float) -> float:
    """rSRD's sample quantile: the smallest value v with F(v) >= p."""
    x = np.sort(col.to_numpy(dtype=float))
    return _Null(x, np.full(x.size, 1.0 / x.size)).quantile(p)


def _rsrd_order(folds: pd.DataFrame) -> list[Any]:
    """Columns sorted by median fold SRD, ties broken by Q1, Q3, min, max (rSRD)."""
    keys = {c: (_quantile(folds[c], 0.5), _quantile(folds[c], 0.25),
                _quantile(folds[c], 0.75), folds[c].min(), folds[c].max())
            for c in folds.columns}
    return sorted(folds.columns, key=lambda c: keys[c])


class SRDCrossValidation(Tabular):
    """SRD% of every column on each resample, and tests between neighbouring columns.

    Attributes
    ----------
    folds : pandas.DataFrame
        One row per resample (index ``fold``), one column per method, SRD%.
    tests : pandas.DataFrame
        Neighbouring pairs in rSRD order (median, then Q1, Q3, min, max): the
        Wilcoxon matched-pairs statistic |W+ − W−| and p-value, and the sign test.
    order : list
        Columns from closest to farthest from the reference.
    """

    def __init__(self, res: _SRDFit, rows: list[npt.NDArray[np.intp]], cv: str,
                 progress: Callable[[int, int], None] | None = None) -> None:
        self.cv = cv
        records = []
        spec, n = res._spec, res.n
        flat: dict[Any, list[int]] = {}
        for fold, kept in enumerate(rows):
            sub = res._frame.iloc[kept]
            ref = spec.reference
            if isinstance(ref, pd.Series):
                ref = ref.reindex(res._frame.index).iloc[kept].to_numpy()
            elif isinstance(ref, (list, tuple, np.ndarray)):
                ref = np.asarray(ref, dtype=float)[kept]
            directions = spec.directions
            if directions is not None and not isinstance(directions, (Mapping, pd.Series)):
                d = np.asarray(directions, dtype=object)
                if d.ndim == 1 and d.size == n:
                    directions = d[kept]
            sub_spec = _Spec(ref, directions, spec.pretreat, spec.axis, spec.decimals,
                             spec.keep_reference)
            degenerate: list[Any] = []
            data, reference, _ = _compute(sub, sub_spec, tie_degenerate=True,
                                          degenerate=degenerate)
            for c in degenerate:
                flat.setdefault(c, []).append(fold)
            values, _, _ = _srd_values(data, reference, spec.decimals)
            records.append(pd.Series(100.0 * values / srd_max(len(kept)), index=data.columns))
            if progress is not None:
                progress(fold + 1, len(rows))
        if flat:
            shown = "; ".join(f"{c!r} in resamples {f[:5]}{' ...' if len(f) > 5 else ''}"
                              for c, f in list(flat.items())[:5])
            warnings.warn(f"pretreat={spec.pretreat!r}: some resamples leave a "
                          f"{'column' if spec.axis == 'columns' else 'row'} constant, so "
                          f"its scale is 0; it counts as all tied there: {shown}",
                          BinmetricsWarning, stacklevel=3)
        self.folds = pd.DataFrame(records)[res.compared].reset_index(drop=True)
        self.folds.index.name = "fold"
        self.order = _rsrd_order(self.folds)
        tests = []
        for a, b in itertools.pairwise(self.order):
            stat, p_w, nz = wilcoxon_matched_pairs(self.folds[a], self.folds[b])
            k_pos, p_s = sign_test(self.folds[a], self.folds[b])
            tests.append({"column": a, "next": b, "median": _quantile(self.folds[a], 0.5),
                          "median_next": _quantile(self.folds[b], 0.5), "n_nonzero": nz,
                          "wilcoxon_statistic": stat, "wilcoxon_pvalue": p_w,
                          "sign_positive": k_pos, "sign_pvalue": p_s})
        self.tests = pd.DataFrame(tests)

    def long(self) -> pd.DataFrame:
        """Tidy table: fold, column, srd_pct (input of
        :func:`binmetrics.comparison.factorial_anova.anova`)."""
        out = self.folds.reset_index().melt(id_vars="fold", var_name="column",
                                            value_name="srd_pct")
        return out

    def summary(self) -> pd.DataFrame:
        """Per column, in order: mean, sd, min, Q1, median, Q3, max of the fold SRD%
        (quantiles by rSRD's rule, the smallest value v with F(v) >= p, as the order)."""
        d = self.folds[self.order]
        quart = {name: [_quantile(d[c], p) for c in d.columns]
                 for name, p in (("q1", 0.25), ("median", 0.5), ("q3", 0.75))}
        return pd.DataFrame({"mean": d.mean(), "sd": d.std(ddof=1), "min": d.min(),
                             **{k: pd.Series(v, index=d.columns) for k, v in quart.items()},
                             "max": d.max()})

    def plot(self, *, ax: Any = None) -> Axes:
        """Box plot of each column's fold SRD%, in order. Returns the Axes."""
        ax = axes(ax, "SRDCrossValidation.plot")
        d = self.folds[self.order]
        ax.boxplot([d[c].to_numpy() for c in d.columns])
        ax.set_xticks(range(1, d.shape[1] + 1), [str(c) for c in d.columns])
        ax.set_ylabel("SRD [%]")
        ax.set_title(f"SRD cross-validation ({self.cv}, {len(d)} resamples)")
        ax.tick_params(axis="x", rotation=90)
        return ax

    def to_frame(self) -> pd.DataFrame:
        """:meth:`summary` with the column as the first column (in order)."""
        return self.summary().rename_axis("column").reset_index()

    def _title(self) -> str:
        return (f"SRDCrossValidation(cv={self.cv!r}, resamples={len(self.folds)}): fold SRD% "
                "per column (the tests of neighbours in .tests)")
