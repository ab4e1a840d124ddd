"""``rank_comparison()``: many models over many data sets by their ranks (Demšar 2006).

The protocol most machine-learning papers follow to compare k models on N data sets
(Demšar 2006, section 3.2): rank the models on each data set (1 = best, ties share the
average of the ranks they span), average the ranks over the data sets, test with the
Friedman test (or the Iman-Davenport F) whether the average ranks differ more than
chance allows, then find which pairs differ with a post-hoc test:

* ``"nemenyi"``: every pair, the studentized range (Nemenyi 1963); its critical
  difference CD = q_alpha sqrt(k(k+1)/(6N)) with q_alpha = q_{1-alpha; k, inf} / sqrt(2);
* ``"bonferroni_dunn"``: each model against a control, z = (R_c - R_i) / SE with
  SE = sqrt(k(k+1)/(6N)), p-values times k - 1 (Dunn 1961), CD with
  q_alpha = z_{1 - alpha / (2(k-1))};
* ``"holm"``: the same z tests, against a control or between every pair, with Holm's
  (1979) step-down adjustment;
* ``"wilcoxon_holm"``: the Wilcoxon signed-rank test of each pair on the scores
  themselves (zero differences split between the signs), Holm-adjusted
  (Benavoli, Corani and Mangili 2016 recommend it over the rank-based tests, whose
  outcome for a pair depends on the other models).

:meth:`RankComparison.plot` draws the critical-difference diagram (Demšar's Figure 1).
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy import stats

from binmetrics.comparison.comparison_plots import critical_difference as draw_critical_difference
from binmetrics.exceptions import BinmetricsWarning, report_undefined
from binmetrics.formatting import HypothesisTest, Tabular
from binmetrics.inference.signed_rank import signed_rank_test
from binmetrics.validation import NanPolicy, check_nan_policy, plural

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = [
    "POSTHOC_METHODS",
    "FriedmanTest",
    "ImanDavenportTest",
    "PosthocResult",
    "RankComparison",
    "holm_adjust",
    "nemenyi_q",
    "rank_comparison",
]

PosthocMethod = Literal["nemenyi", "bonferroni_dunn", "holm", "wilcoxon_holm"]
#: the post-hoc tests :meth:`RankComparison.posthoc` runs
POSTHOC_METHODS: tuple[str, ...] = ("nemenyi", "bonferroni_dunn", "holm", "wilcoxon_holm")
_CD_TESTS = ("nemenyi", "bonferroni_dunn")


def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    """The Nemenyi critical value q_alpha for k models: the 1 - alpha quantile of the
    studentized range of k means with infinite degrees of freedom, over sqrt(2).

    Demšar (2006) Table 5(a) prints it to three decimals (2.569 for k = 4 at 0.05);
    this is scipy's ``studentized_range.ppf(1 - alpha, k, inf) / sqrt(2)``.

    >>> round(nemenyi_q(4, 0.05), 3), round(nemenyi_q(4, 0.10), 3)
    (2.569, 2.291)
    """
    _check_alpha(alpha)
    if k < 2:
        raise ValueError(f"the Nemenyi critical value needs k >= 2 models; got {k}")
    return float(stats.studentized_range.ppf(1.0 - alpha, k, np.inf)) / math.sqrt(2.0)


def holm_adjust(p_values: Any) -> npt.NDArray[np.float64]:
    """Holm's (1979) step-down adjusted p-values: the i-th smallest of m p-values is
    multiplied by m - i + 1, then made non-decreasing and capped at 1 (the values of
    statsmodels' ``multipletests(p, method="holm")``).

    >>> holm_adjust([0.01, 0.04, 0.03]).round(3).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=float)
    m = p.size
    if m == 0:
        return p.copy()
    order = np.argsort(p, kind="stable")
    stepped = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out = np.empty(m)
    out[order] = np.minimum(stepped, 1.0)
    return out


def _check_alpha(alpha: Any) -> float:
    a = float(alpha)
    if not 0.0 < a < 1.0:
        raise ValueError(f"alpha must be between 0 and 1 (exclusive); got {alpha!r}")
    return a


@dataclass(frozen=True, repr=False)
class FriedmanTest(HypothesisTest):
    """The Friedman test of equal average ranks.

    chi2_F = 12N / (k(k+1)) [sum_j R_j^2 - k(k+1)^2 / 4], chi-square with k - 1 df
    (Demšar 2006, section 3.2.2). With ``tie_correction`` it is divided by
    1 - sum(t^3 - t) / (N k (k^2 - 1)), t running over the groups of tied values
    within each data set (scipy's ``friedmanchisquare``).
    """

    statistic: float
    df: int
    pvalue: float
    tie_correction: bool

    alternative: ClassVar[str] = "two-sided"
    method: ClassVar[str] = "friedman"


@dataclass(frozen=True, repr=False)
class ImanDavenportTest(HypothesisTest):
    """Iman and Davenport's (1980) F form of the Friedman statistic:
    F_F = (N - 1) chi2_F / (N(k - 1) - chi2_F), F with ``df`` = (k - 1, (k - 1)(N - 1))
    degrees of freedom."""

    statistic: float
    df: tuple[int, int]
    pvalue: float

    alternative: ClassVar[str] = "two-sided"
    method: ClassVar[str] = "iman-davenport"


class PosthocResult(Tabular):
    """A post-hoc test after the Friedman test (:meth:`RankComparison.posthoc`).

    Attributes
    ----------
    method : str
        "nemenyi", "bonferroni_dunn", "holm" or "wilcoxon_holm".
    control : str or None
        The control model of a one-against-all test; None for all pairs.
    alpha : float
        The family-wise level of ``significant``.
    table : pandas.DataFrame
        One row per comparison: ``model_a``, ``model_b`` (the control when there is
        one), ``rank_a``, ``rank_b`` (average ranks, 1 = best), ``rank_difference``
        (rank_a - rank_b), ``statistic`` (z for the rank tests, the studentized range q
        for Nemenyi, Wilcoxon's T for wilcoxon_holm), ``pvalue`` (unadjusted; for
        Nemenyi it is already the family-wise value), ``pvalue_adjusted`` and
        ``significant`` (pvalue_adjusted < alpha).
    critical_difference : float or None
        The CD of Nemenyi or Bonferroni-Dunn at ``alpha``; None for the others.
    average_ranks : pandas.Series
        The average ranks the test read, best first.
    """

    def __init__(self, *, method: str, control: str | None, alpha: float,
                 table: pd.DataFrame, critical_difference: float | None,
                 average_ranks: pd.Series, n_datasets: int) -> None:
        self.method = method
        self.control = control
        self.alpha = alpha
        self.table = table
        self.critical_difference = critical_difference
        self.average_ranks = average_ranks
        self.n_datasets = n_datasets

    def _title(self) -> str:
        cd = ("" if self.critical_difference is None
              else f", critical_difference={self.critical_difference:.4g}")
        ctrl = "" if self.control is None else f", control={self.control!r}"
        return (f"PosthocResult(method={self.method!r}{ctrl}, alpha={self.alpha:g}, "
                f"comparisons={len(self.table)}, significant={int(self.table['significant'].sum())}"
                f"{cd})")

    def __str__(self) -> str:
        return self.summary()

    def summary(self) -> str:
        """The comparisons as text, most significant first."""
        what = "all pairs" if self.control is None else f"control {self.control!r}"
        head = f"{self.method} post-hoc test ({what}), alpha = {self.alpha:g}"
        if self.critical_difference is not None:
            head += f", critical difference = {self.critical_difference:.4g}"
        body = self.table.sort_values("pvalue_adjusted", kind="stable").to_string(
            index=False, float_format=lambda v: f"{v:.4g}")
        return f"{head}\n{body}"

    def to_frame(self) -> pd.DataFrame:
        """The comparisons (:attr:`table`, a copy)."""
        return self.table.copy()

    def matrix(self, adjusted: bool = True) -> pd.DataFrame:
        """The p-values as a symmetric model x model matrix (1 on the diagonal and where a
        one-against-control test made no comparison: NaN), the layout of
        scikit-posthocs."""
        models = list(self.average_ranks.index)
        out = pd.DataFrame(np.nan, index=models, columns=models)
        col = "pvalue_adjusted" if adjusted else "pvalue"
        for a, b, p in zip(self.table["model_a"], self.table["model_b"], self.table[col],
                           strict=True):
            out.loc[a, b] = out.loc[b, a] = p
        for m in models:
            out.loc[m, m] = 1.0
        return out

    def groups(self) -> list[list[str]]:
        """Maximal runs of models, in the order of their average ranks, with no pair inside
        found significantly different: the bars of the critical-difference diagram.

        For a test against a control, the one run of the control with the models not
        significantly different from it. Runs of one model are left out.
        """
        order = list(self.average_ranks.index)
        sig = {frozenset((a, b)) for a, b, s in zip(
            self.table["model_a"], self.table["model_b"], self.table["significant"],
            strict=True) if s}
        if self.control is not None:
            same = [m for m in order if m == self.control
                    or frozenset((m, self.control)) not in sig]
            return [same] if len(same) > 1 else []
        runs: list[tuple[int, int]] = []
        for i in range(len(order)):
            j = i
            while j + 1 < len(order) and all(
                    frozenset((order[t], order[j + 1])) not in sig for t in range(i, j + 1)):
                j += 1
            if j > i and not any(s <= i and j <= e for s, e in runs):
                runs.append((i, j))
        return [order[s:e + 1] for s, e in runs]

    def plot(self, *, ax: Any = None, **kwargs: Any) -> Axes:
        """The critical-difference diagram (Demšar 2006, Figure 1); see
        :func:`binmetrics.plot.critical_difference`. Needs matplotlib."""
        return draw_critical_difference(self, ax=ax, **kwargs)


class RankComparison(Tabular):
    """Average ranks, the Friedman test and its post-hoc tests (:func:`rank_comparison`).

    Attributes
    ----------
    scores : pandas.DataFrame
        The table analysed: rows = data sets, columns = models.
    ranks : pandas.DataFrame
        The rank of each model on each data set, 1 = best, ties sharing the average.
    higher_is_better : bool
    tie_correction : bool
        Whether :attr:`friedman` divides by the tie correction (scipy's statistic).
    dropped : list
        The data sets left out because of a missing value (``nan_policy="omit"``).
    """

    def __init__(self, scores: pd.DataFrame, *, higher_is_better: bool, tie_correction: bool,
                 dropped: list[Any]) -> None:
        self.scores = scores
        self.higher_is_better = higher_is_better
        self.tie_correction = tie_correction
        self.dropped = dropped
        values = scores.to_numpy(dtype=float)
        ranked = stats.rankdata(-values if higher_is_better else values, axis=1)
        self.ranks = pd.DataFrame(ranked, index=scores.index, columns=scores.columns)

    @property
    def n_datasets(self) -> int:
        """N, the number of data sets (rows)."""
        return int(self.scores.shape[0])

    @property
    def n_models(self) -> int:
        """k, the number of models (columns)."""
        return int(self.scores.shape[1])

    @property
    def average_ranks(self) -> pd.Series:
        """The average rank of each model (1 = best), best first (ties: table order)."""
        return self.ranks.mean(axis=0).sort_values(kind="stable").rename("average_rank")

    @property
    def standard_error(self) -> float:
        """SE = sqrt(k(k+1) / (6N)), the standard error of a difference of average ranks."""
        k, n = self.n_models, self.n_datasets
        return math.sqrt(k * (k + 1) / (6.0 * n))

    @property
    def friedman(self) -> FriedmanTest:
        """The Friedman test (Demšar's statistic; see :class:`FriedmanTest`)."""
        k, n = self.n_models, self.n_datasets
        r = self.ranks.mean(axis=0).to_numpy()
        chi2 = 12.0 * n / (k * (k + 1)) * (float(np.sum(r**2)) - k * (k + 1) ** 2 / 4.0)
        if self.tie_correction:
            ties = sum(float(np.sum(c**3 - c)) for c in (
                np.unique(row, return_counts=True)[1].astype(float)
                for row in self.ranks.to_numpy()))
            c = 1.0 - ties / (n * k * (k * k - 1))
            if c <= 0.0:
                report_undefined("Friedman test", "every data set ties all models, so the "
                                 "tie-corrected statistic is 0/0")
                return FriedmanTest(math.nan, k - 1, math.nan, True)
            chi2 /= c
        chi2 = max(chi2, 0.0)  # -1e-15 from rounding when all ranks are equal
        return FriedmanTest(chi2, k - 1, float(stats.chi2.sf(chi2, k - 1)), self.tie_correction)

    @property
    def iman_davenport(self) -> ImanDavenportTest:
        """Iman and Davenport's F (see :class:`ImanDavenportTest`); F = inf, p = 0 when every
        data set ranks the models in the same order without ties."""
        k, n = self.n_models, self.n_datasets
        chi2 = self.friedman.statistic
        df1, df2 = k - 1, (k - 1) * (n - 1)
        denom = n * (k - 1) - chi2
        if math.isnan(chi2):
            return ImanDavenportTest(math.nan, (df1, df2), math.nan)
        if denom <= 1e-12 * n * (k - 1):
            return ImanDavenportTest(math.inf, (df1, df2), 0.0)
        f = (n - 1) * chi2 / denom
        return ImanDavenportTest(f, (df1, df2), float(stats.f.sf(f, df1, df2)))

    def critical_difference(self, alpha: float = 0.05, test: str = "nemenyi") -> float:
        """The critical difference of average ranks (Demšar 2006, section 3.2.2):
        CD = q_alpha sqrt(k(k+1)/(6N)), q_alpha of Nemenyi (:func:`nemenyi_q`) or of
        Bonferroni-Dunn (z_{1 - alpha/(2(k-1))}).

        Examples
        --------
        >>> import binmetrics as bm
        >>> from binmetrics.data import demsar_table
        >>> res = bm.rank_comparison(demsar_table())
        >>> round(res.critical_difference(), 2), round(res.critical_difference(0.10), 2)
        (1.25, 1.12)
        >>> round(res.critical_difference(test="bonferroni_dunn"), 3)  # Demšar prints 1.16
        1.168
        """
        alpha = _check_alpha(alpha)
        k = self.n_models
        if test == "nemenyi":
            q = nemenyi_q(k, alpha)
        elif test == "bonferroni_dunn":
            q = float(stats.norm.isf(alpha / (2.0 * (k - 1))))
        else:
            raise ValueError(f"a critical difference is defined for the tests "
                             f"{', '.join(_CD_TESTS)}; got {test!r}")
        return q * self.standard_error

    def posthoc(self, method: str = "nemenyi", *, control: str | None = None,
                alpha: float = 0.05, zero_method: str = "zsplit") -> PosthocResult:
        """A post-hoc test: which models differ (module docstring for the methods).

        Parameters
        ----------
        method : {"nemenyi", "bonferroni_dunn", "holm", "wilcoxon_holm"}
        control : str, optional
            Compare every model with this one (k - 1 comparisons) instead of all pairs.
            Needed by "bonferroni_dunn"; not taken by "nemenyi".
        alpha : float, default 0.05
            The family-wise level of ``significant`` and of the critical difference.
        zero_method : {"zsplit", "wilcox", "pratt"}, default "zsplit"
            Zero differences in "wilcoxon_holm" (as :func:`binmetrics.wilcoxon_test`,
            whose p-value each pair's unadjusted ``pvalue`` is).

        Examples
        --------
        >>> import binmetrics as bm
        >>> from binmetrics.data import demsar_table
        >>> res = bm.rank_comparison(demsar_table())
        >>> holm = res.posthoc("holm", control="C4.5")  # Demšar's section 3.2.4
        >>> holm.table[["model_b", "statistic", "pvalue"]].round(3).values.tolist()
        [['C4.5+m+cf', 2.415, 0.016], ['C4.5+m', 2.342, 0.019], ['C4.5+cf', 0.512, 0.608]]
        >>> holm.table["significant"].tolist()  # Holm rejects the first two
        [True, True, False]
        """
        alpha = _check_alpha(alpha)
        if method not in POSTHOC_METHODS:
            raise ValueError(f"unknown post-hoc method {method!r}; choose one of "
                             f"{', '.join(POSTHOC_METHODS)}")
        models = list(self.scores.columns)
        if control is not None and control not in models:
            raise ValueError(f"control {control!r} is not a model; the models: "
                             f"{', '.join(map(str, models))}")
        if method == "nemenyi" and control is not None:
            raise ValueError("the Nemenyi test compares all pairs; for a control use "
                             "'bonferroni_dunn' or 'holm'")
        if method == "bonferroni_dunn" and control is None:
            raise ValueError("the Bonferroni-Dunn test compares models with a control; name "
                             "one (control=<model>; --control on the command line), or use "
                             "'nemenyi' for all pairs")
        ranks = self.ranks.mean(axis=0)
        order = list(self.average_ranks.index)
        if control is None:
            pairs = list(itertools.combinations(order, 2))
        else:
            pairs = [(control, m) for m in order if m != control]
        ra = np.array([ranks[a] for a, _ in pairs])
        rb = np.array([ranks[b] for _, b in pairs])
        z = (ra - rb) / self.standard_error
        cd: float | None = None
        if method == "wilcoxon_holm":
            stat = np.empty(len(pairs))
            p = np.empty(len(pairs))
            for i, (a, b) in enumerate(pairs):
                res = wilcoxon_pair(self.scores[a].to_numpy(dtype=float),
                                    self.scores[b].to_numpy(dtype=float), zero_method)
                stat[i], p[i] = res
            adjusted = holm_adjust(p)
        elif method == "nemenyi":
            stat = np.abs(z) * math.sqrt(2.0)
            p = stats.studentized_range.sf(stat, self.n_models, np.inf)
            p = np.clip(p, 0.0, 1.0)
            adjusted = p.copy()
            cd = self.critical_difference(alpha, "nemenyi")
        else:
            stat = z
            p = 2.0 * stats.norm.sf(np.abs(z))
            if method == "bonferroni_dunn":
                adjusted = np.minimum(p * len(pairs), 1.0)
                cd = self.critical_difference(alpha, "bonferroni_dunn")
            else:
                adjusted = holm_adjust(p)
        table = pd.DataFrame({
            "model_a": [a for a, _ in pairs], "model_b": [b for _, b in pairs],
            "rank_a": ra, "rank_b": rb, "rank_difference": ra - rb, "statistic": stat,
            "pvalue": p, "pvalue_adjusted": adjusted, "significant": adjusted < alpha})
        return PosthocResult(method=method, control=control, alpha=alpha, table=table,
                             critical_difference=cd, average_ranks=self.average_ranks,
                             n_datasets=self.n_datasets)

    def to_frame(self) -> pd.DataFrame:
        """One row per model, best first: ``average_rank``, ``mean_score`` and
        ``median_score`` over the data sets, ``wins`` (data sets where it ranks 1, ties
        counted for each)."""
        avg = self.average_ranks
        return pd.DataFrame({
            "average_rank": avg,
            "mean_score": self.scores.mean(axis=0).reindex(avg.index),
            "median_score": self.scores.median(axis=0).reindex(avg.index),
            "wins": (self.ranks == self.ranks.min(axis=1).to_numpy()[:, None]).sum(
                axis=0).reindex(avg.index).astype(int)}).rename_axis("model")

    def plot(self, test: str = "nemenyi", *, control: str | None = None, alpha: float = 0.05,
             ax: Any = None, **kwargs: Any) -> Axes:
        """The critical-difference diagram of ``posthoc(test, control=..., alpha=...)``
        (Demšar 2006, Figure 1): models on the average-rank axis, best on the right, bars
        joining models not significantly different. Needs matplotlib."""
        return self.posthoc(test, control=control, alpha=alpha).plot(ax=ax, **kwargs)

    def _title(self) -> str:
        f = self.friedman
        return (f"RankComparison(models={self.n_models}, datasets={self.n_datasets}, "
                f"friedman={f.statistic:.4g} (p={f.pvalue:.4g}), "
                f"best={self.average_ranks.index[0]!r})")

    def __str__(self) -> str:
        return self.summary()

    def summary(self) -> str:
        """Average ranks, the Friedman and Iman-Davenport tests, and the Nemenyi CD."""
        f, i = self.friedman, self.iman_davenport
        lines = [f"Rank comparison of {plural(self.n_models, 'model')} on "
                 f"{plural(self.n_datasets, 'data set')} ("
                 f"{'higher' if self.higher_is_better else 'lower'} is better"
                 + (f"; {plural(len(self.dropped), 'data set')} with missing values dropped"
                    if self.dropped else "") + ")",
                 self.to_frame().to_string(float_format=lambda v: f"{v:.4g}"),
                 f"Friedman chi2 = {f.statistic:.4g}, df = {f.df}, p = {f.pvalue:.4g}"
                 + (" (tie-corrected)" if f.tie_correction else ""),
                 f"Iman-Davenport F = {i.statistic:.4g}, df = {i.df}, "
                 f"p = {i.pvalue:.4g}",
                 f"Nemenyi critical difference (alpha = 0.05) = "
                 f"{self.critical_difference():.4g}"]
        return "\n".join(lines)


def wilcoxon_pair(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64],
                  zero_method: str = "zsplit") -> tuple[float, float]:
    """Wilcoxon's T and two-sided p of a - b for the post-hoc table: the test of
    :func:`binmetrics.wilcoxon_test` (one implementation,
    :func:`binmetrics.inference.signed_rank.signed_rank_test`), except that T = 0 and
    p = 1 when every difference is zero (the pair shows no difference at all, and Holm's
    adjustment needs a number; :func:`wilcoxon_test` reports that case as undefined)."""
    d = a - b
    if np.all(d == 0):
        return 0.0, 1.0
    res = signed_rank_test(d, zero_method=zero_method)  # type: ignore[arg-type]
    return float(res.statistic), float(res.pvalue)


def _as_table(scores: Any) -> pd.DataFrame:
    if isinstance(scores, pd.DataFrame):
        table = scores.copy()
    elif isinstance(scores, Mapping):
        table = pd.DataFrame(dict(scores))
    else:
        arr = np.asarray(scores)
        if arr.ndim != 2:
            raise ValueError(f"scores must be a table (rows = data sets, columns = models); "
                             f"got an array of shape {arr.shape}")
        table = pd.DataFrame(arr, columns=[f"model_{j}" for j in range(arr.shape[1])])
    if table.columns.duplicated().any():
        dup = table.columns[table.columns.duplicated()].tolist()
        raise ValueError(f"scores has duplicated model columns {dup}; name each model once")
    try:
        return table.astype(float)
    except (TypeError, ValueError):
        bad = [c for c in table.columns
               if not pd.api.types.is_numeric_dtype(table[c])]
        raise ValueError(f"scores must be numbers; the columns {bad} are not (pass only the "
                         "model columns, with the data sets as the index)") from None


def rank_comparison(scores: Any, measure: str | None = None, *,
                    higher_is_better: bool | None = None, tie_correction: bool = False,
                    nan_policy: NanPolicy = "raise",
                    **study_options: Any) -> RankComparison:
    """Compare k models over N data sets by their ranks: average ranks, the Friedman and
    Iman-Davenport tests, post-hoc tests and critical differences (Demšar 2006).

    Parameters
    ----------
    scores : pandas.DataFrame, mapping, 2-D array or Study
        Rows = data sets (or folds), columns = models, one score each. A
        :class:`~binmetrics.Study` with a ``measure`` id: see :meth:`Study.rank_comparison`.
    measure : str, optional
        The measure of a Study (its direction comes from the registry).
    higher_is_better : bool, optional
        Whether larger scores are better (default True for a table; a Study's
        measure decides for itself).
    tie_correction : bool, default False
        False: Demšar's Friedman statistic, as published comparisons compute it; True:
        divided by the tie correction (equal to ``scipy.stats.friedmanchisquare``).
    nan_policy : {"raise", "omit"}, default "raise"
        A missing (NaN) or infinite score: an error, or leave out the data sets that
        have one (with a warning naming them).
    **study_options
        Passed to :meth:`Study.rank_comparison` (``validation``, ``where``...).

    Returns
    -------
    RankComparison

    References
    ----------
    Demšar J. (2006) Statistical comparisons of classifiers over multiple data sets.
    JMLR 7:1-30. Iman R.L., Davenport J.M. (1980) Approximations of the critical region
    of the Friedman statistic. Comm. Stat. A 9:571-595. Nemenyi P. (1963)
    Distribution-free multiple comparisons. PhD thesis, Princeton.

    Examples
    --------
    Demšar's Table 6 (four C4.5 variants, AUC on fourteen data sets):

    >>> import binmetrics as bm
    >>> from binmetrics.data import demsar_table
    >>> res = bm.rank_comparison(demsar_table())
    >>> res.average_ranks.round(3).to_dict()
    {'C4.5+m+cf': 1.964, 'C4.5+m': 2.0, 'C4.5+cf': 2.893, 'C4.5': 3.143}
    >>> f, i = res.friedman, res.iman_davenport
    >>> round(f.statistic, 2), f.df, round(i.statistic, 2), i.df
    (9.28, 3, 3.69, (3, 39))
    """
    if not isinstance(scores, (pd.DataFrame, Mapping, np.ndarray, list, tuple)):
        # a Study (its module imports this one, so it is recognised by its method)
        if callable(getattr(scores, "rank_comparison", None)):
            if measure is None:
                raise ValueError("rank_comparison(study, measure): name the measure to rank "
                                 "by, e.g. rank_comparison(study, 'auc')")
            return scores.rank_comparison(measure, higher_is_better=higher_is_better,
                                          tie_correction=tie_correction, nan_policy=nan_policy,
                                          **study_options)
    if measure is not None or study_options:
        raise TypeError("measure and study options are for a Study; a table is ranked as "
                        "it is")
    check_nan_policy(nan_policy)
    for name, flag in (("higher_is_better", higher_is_better),
                       ("tie_correction", tie_correction)):
        if not (isinstance(flag, (bool, np.bool_)) or (flag is None and name[0] == "h")):
            raise TypeError(f"{name} must be True or False; got {flag!r}")
    higher_is_better = None if higher_is_better is None else bool(higher_is_better)
    tie_correction = bool(tie_correction)
    table = _as_table(scores)
    if table.shape[1] < 2:
        raise ValueError(f"rank_comparison needs at least 2 models (columns); got "
                         f"{table.shape[1]}")
    # an infinite score (a log loss of a model sure of the wrong class) is refused like a
    # missing one: the Wilcoxon post-hoc test would take inf - inf as a difference
    values = table.to_numpy()
    infinite = np.isinf(values).any(axis=1)
    nan_rows = ~np.isfinite(values).all(axis=1)
    dropped: list[Any] = []
    if nan_rows.any():
        where = ", ".join(map(str, table.index[nan_rows][:5].tolist()))
        more = ", ..." if nan_rows.sum() > 5 else ""
        what = "miss a score" + (" or hold an infinite one" if infinite.any() else "")
        if nan_policy == "raise":
            raise ValueError(f"{plural(nan_rows.sum(), 'data set')} ({where}{more}) {what}; "
                             "the Friedman test needs one finite value per model per data "
                             "set: fill them in, or pass nan_policy='omit' (--nan-policy omit on "
                             "the command line) to leave those data sets out")
        dropped = table.index[nan_rows].tolist()
        kind = "missing" + (" or infinite" if infinite.any() else "")
        warnings.warn(f"rank_comparison: dropped {plural(len(dropped), 'data set')} with a "
                      f"{kind} score ({where}{more})", BinmetricsWarning, stacklevel=2)
        table = table[~nan_rows]
    if table.shape[0] < 2:
        raise ValueError(f"rank_comparison needs at least 2 data sets (rows) with every "
                         f"score; got {table.shape[0]}")
    return RankComparison(table, higher_is_better=True if higher_is_better is None
                          else higher_is_better,
                          tie_correction=tie_correction, dropped=dropped)

