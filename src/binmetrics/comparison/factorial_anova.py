"""``anova()``: factorial ANOVA of cross-validated SRD% values (or any tidy response).

The multi-level comparison paper (sections 2.1-2.2, eq. 1) decomposes the
cross-validated, normalised SRD values with a factorial ANOVA::

    SRD = b0 + b1 F1 + b2 F2 + b3 F3 + b12 F1F2 + b13 F1F3 + b23 F2F3 + b123 F1F2F3

with F1 = balanced/imbalanced, F2 = 2-class/multiclass and F3 = the performance
measure (section 2.1) or the classifier (section 2.2), and shows the group means
with 95% confidence intervals (Figures 4, 5 and 8). :func:`anova` fits that model
with statsmodels (``pip install "binmetrics[compare]"``) and
:meth:`AnovaResult.means` / :meth:`AnovaResult.plot` give the means plots.
"""

from __future__ import annotations

import copy
import itertools
import math
import re
import warnings
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy import stats

from binmetrics.exceptions import BinmetricsWarning, report_undefined
from binmetrics.formatting import Tabular
from binmetrics.validation import (
    NanPolicy,
    check_in_range,
    check_level,
    check_nan_policy,
    plural,
    row_list,
    weight_exponent,
)

__all__ = ["AnovaResult", "anova"]

Interactions = Literal["full", "pairwise", "main"]
_INTERACTIONS = ("full", "pairwise", "main")
_TYP = {1: 1, 2: 2, 3: 3, "I": 1, "II": 2, "III": 3}
_TABLE_COLUMNS = ["term", "df", "sum_sq", "mean_sq", "F", "pvalue", "partial_eta_sq",
                  "significant"]
_RESPONSE = "y"  # the response's name inside the formula
_TERM_FACTOR = re.compile(r"C\(f(\d+)")


# the wording of the input checks' messages, as binmetrics.validation words them (its
# helpers are private to it)
class AnovaResult(Tabular):
    """The result of :func:`anova`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per effect, then a "Residual" row: ``term`` (factor names joined
        by " × ", e.g. "balance × measure"), ``df``, ``sum_sq``, ``mean_sq``,
        ``F``, ``pvalue``, ``partial_eta_sq`` (SS_effect / (SS_effect +
        SS_residual)) and ``significant`` (pvalue < :attr:`alpha`; missing for
        the residual row). The intercept is not an effect and is left out.
    model : statsmodels RegressionResultsWrapper
        The fitted OLS model. Inside it the factors are named ``f0, f1, ...`` in
        the order of :attr:`factors` and the response ``y`` (so that any column
        name is safe); :attr:`formula` is the formula it was fitted with.
    factors : list of str
        The factor columns, in the order given.
    response : str
        The response column.
    alpha : float
        The significance level of the ``significant`` column.
    typ : int
        The type of sums of squares (1, 2 or 3).
    interactions : str
        "full", "pairwise" or "main".
    formula : str
        The statsmodels formula, with the internal names.
    data : pandas.DataFrame
        The rows that were analysed (factor columns as categoricals whose
        categories are the levels in order, and the response as float).
    levels : dict
        factor -> list of its levels, in order.
    n_omitted : int
        Rows dropped by ``nan_policy="omit"``.
    """

    def __init__(self, *, table: pd.DataFrame, model: Any, factors: list[str], response: str,
                 alpha: float, typ: int, interactions: str, formula: str, data: pd.DataFrame,
                 n_omitted: int) -> None:
        self.table = table
        self.model = model
        self.factors = factors
        self.response = response
        self.alpha = alpha
        self.typ = typ
        self.interactions = interactions
        self.formula = formula
        self.data = data
        self.levels = {f: list(data[f].cat.categories) for f in factors}
        self.n_omitted = n_omitted

    @property
    def n(self) -> int:
        """The number of observations analysed."""
        return len(self.data)

    @property
    def balanced(self) -> bool:
        """Whether every cell (combination of factor levels) has the same number of rows."""
        counts = self.data.groupby(self.factors, observed=False).size().to_numpy()
        return bool(counts.size and (counts == counts[0]).all())

    def to_frame(self) -> pd.DataFrame:
        """The ANOVA table (:attr:`table`, a copy)."""
        return self.table.copy()

    def _title(self) -> str:
        return (f"AnovaResult(response={self.response!r}, factors={self.factors}, "
                f"n={self.n}, typ={self.typ}, interactions={self.interactions!r})")

    def __str__(self) -> str:
        return self.summary()

    def summary(self) -> str:
        """The ANOVA table as text, with the design and the residual standard deviation."""
        design = " × ".join(f"{f} ({len(v)})" for f, v in self.levels.items())
        head = [f"Factorial ANOVA of {self.response!r}: {design} levels; n = {self.n}"
                f" ({'balanced' if self.balanced else 'unbalanced'})"
                + (f", {self.n_omitted} rows omitted" if self.n_omitted else ""),
                f"type {self.typ} sums of squares, {self.interactions} interactions, "
                f"alpha = {self.alpha:g}"]
        shown = self.table.copy()
        shown["significant"] = shown["significant"].astype(object).where(
            shown["significant"].notna(), "")
        body = shown.to_string(index=False, float_format=lambda v: f"{v:.4g}", na_rep="")
        resid = self.table.iloc[-1]
        tail = f"residual sd = {math.sqrt(resid['mean_sq']):.4g}, R² = {self.model.rsquared:.4g}"
        return "\n".join([*head, body, tail])

    # --- means and their confidence intervals (Figures 4, 5, 8) ----------------------
    def means(self, *factors: str, level: float = 0.95, pooled: bool = False) -> pd.DataFrame:
        """Group means with t-based confidence intervals, as in the paper's Figures 4, 5, 8.

        Parameters
        ----------
        *factors : str
            Factors to group by (a subset of :attr:`factors`); default all of them
            (the cell means).
        level : float, default 0.95
            Confidence level of the intervals.
        pooled : bool, default False
            False: each group's own interval, mean ± t_{(1+level)/2, n-1} sd / √n.
            True: the residual mean square of the model for the variance and its
            degrees of freedom for t (mean ± t_{(1+level)/2, df_resid}
            √(MS_residual / n)), the intervals of packages such as Statistica.

        Returns
        -------
        pandas.DataFrame
            The factor columns (levels in order), ``mean``, ``sd`` (ddof = 1),
            ``n``, ``se``, ``ci_low``, ``ci_high``. Only combinations with data
            appear. Groups of one row have NaN ``sd`` and interval (with an
            :class:`~binmetrics.UndefinedMeasureWarning`) unless ``pooled``.
        """
        level = check_level(level)
        by = self._check_factors(factors) if factors else list(self.factors)
        grouped = self.data.groupby(by, observed=True, sort=True)[self.response]
        out = grouped.agg(["mean", "count"]).rename(columns={"count": "n"})
        out["n"] = out["n"].astype(int)
        single = out["n"].to_numpy() < 2
        sd = grouped.var(ddof=1).to_numpy(dtype=float, copy=True)
        sd[single] = np.nan
        out.insert(1, "sd", np.sqrt(sd))
        n = out["n"].to_numpy(dtype=float)
        if pooled:
            mse = float(self.table["mean_sq"].iloc[-1])
            se = np.sqrt(mse / n)
            t = np.full(n.shape, float(stats.t.ppf((1 + level) / 2, self.model.df_resid)))
        else:
            if single.any():
                report_undefined("confidence interval of the mean",
                                 f"{plural(single.sum(), 'group')} of {len(out)} with one "
                                 "observation (use pooled=True for the model's variance)")
            se = out["sd"].to_numpy() / np.sqrt(n)
            t = np.full(n.shape, np.nan)
            t[~single] = stats.t.ppf((1 + level) / 2, n[~single] - 1)
        out["se"] = se
        out["ci_low"] = out["mean"] - t * se
        out["ci_high"] = out["mean"] + t * se
        return out.reset_index()

    def plot(self, x: str, hue: str | None = None, *, by: str | None = None, ax: Any = None,
             level: float = 0.95, sort: bool = False, pooled: bool = False) -> Any:
        """Means plot: markers at the group means, vertical bars for their confidence
        intervals (the paper's Figures 4, 5 and 8; :meth:`means` gives the numbers).

        Needs matplotlib (``pip install "binmetrics[compare]"``).

        Parameters
        ----------
        x : str
            Factor along the horizontal axis.
        hue : str, optional
            Second factor: one series per level, offset sideways and connected by
            lines, with a legend (Figure 4B, Figure 8B).
        by : str, optional
            Third factor: one panel per level, side by side on a shared y axis, each
            with the means of its rows (Figure 4B: x the performance metric, ``hue``
            the dataset composition, ``by`` 2-class vs multiclass).
        ax : matplotlib Axes, optional
            Where to draw; default a new figure. With ``by``: one Axes per level of
            ``by`` (a sequence), default a new figure of that many panels.
        level : float, default 0.95
            Confidence level of the bars.
        sort : bool, default False
            Order the ``x`` levels by their mean over all rows, smallest first
            (the ranking of measures or classifiers in Figures 5 and 8A; for SRD
            smaller is better).
        pooled : bool, default False
            Intervals from the residual mean square (see :meth:`means`).

        Returns
        -------
        matplotlib.axes.Axes, or a list of them with ``by``
            One errorbar container per series (one without ``hue``). The title
            gives the F test of the plotted effect (with ``by``: each panel its level).

        Examples
        --------
        The multi-level paper's Figure 4B: normalized SRD values by metric, dataset
        composition and classification type.

        >>> import numpy as np
        >>> import pandas as pd
        >>> import binmetrics as bm
        >>> rng = np.random.default_rng(1)
        >>> rows = [(m, c, t, 20 + 5 * (c == "imbalanced") * (t == "2-class") + rng.normal())
        ...         for m in ("AUC", "MCC", "DOR") for c in ("balanced", "imbalanced")
        ...         for t in ("2-class", "multiclass") for _ in range(10)]
        >>> frame = pd.DataFrame(rows, columns=["metric", "composition", "type", "srd"])
        >>> res = bm.anova(frame, factors=["composition", "type", "metric"], response="srd")
        >>> axes = res.plot("metric", "composition", by="type")  # doctest: +SKIP
        """
        if by is not None:
            return self._panels(x, hue, by, ax=ax, level=level, sort=sort, pooled=pooled)
        try:
            import matplotlib.pyplot as plt
        except ImportError:
            raise ImportError('AnovaResult.plot needs matplotlib; install it with '
                              'pip install "binmetrics[compare]"') from None
        if hue is not None and hue == x:
            raise ValueError(f"hue and x are the same factor {x!r}; pick two different ones")
        drawn = self._check_factors([x] if hue is None else [x, hue])
        table = self.means(*drawn, level=level, pooled=pooled)
        order = list(self.levels[x])
        if sort:
            marginal = self.data.groupby(x, observed=True)[self.response].mean()
            order = sorted(order, key=lambda lev: float(marginal[lev]))
        position = {lev: i for i, lev in enumerate(order)}
        if ax is None:
            _, ax = plt.subplots()
        series = [(None, table)] if hue is None else [
            (lev, table[table[hue] == lev]) for lev in self.levels[hue]]
        width = 0.4 if hue is not None and len(series) > 1 else 0.0
        for j, (lev, part) in enumerate(series):
            part = part.assign(_pos=part[x].map(position).astype(float)).sort_values("_pos")
            offset = 0.0 if len(series) == 1 else width * (j / (len(series) - 1) - 0.5)
            mean = part["mean"].to_numpy(dtype=float)
            err = np.vstack([mean - part["ci_low"].to_numpy(dtype=float),
                             part["ci_high"].to_numpy(dtype=float) - mean])
            err = np.where(np.isnan(err), 0.0, err)  # a group of one: no bar
            ax.errorbar(part["_pos"].to_numpy() + offset, mean, yerr=err,
                        fmt="o" if hue is None else "o-", capsize=3,
                        label=None if lev is None else str(lev))
        ax.set_xticks(np.arange(len(order)))
        ax.set_xticklabels([str(v) for v in order], rotation=90 if len(order) > 6 else 0)
        ax.set_xlim(-0.5, len(order) - 0.5)
        ax.set_xlabel(x)
        ax.set_ylabel(f"{self.response} (mean, {level * 100:g}% CI)")
        if hue is not None:
            ax.legend(title=hue)
        term = " × ".join(f for f in self.factors if f in drawn)
        effect = self.table[self.table["term"] == term]
        if not effect.empty:
            row = effect.iloc[0]
            ax.set_title(f"{row['term']}: F({row['df']:g}, {self.model.df_resid:g}) = "
                         f"{row['F']:.4g}, p = {row['pvalue']:.3g}")
        return ax

    def _panels(self, x: str, hue: str | None, by: str, *, ax: Any, level: float,
                sort: bool, pooled: bool) -> list[Any]:
        """:meth:`plot` of each level of ``by`` (its rows only) on its own panel."""
        names = self._check_factors([x, by] if hue is None else [x, hue, by])
        levels = list(self.levels[by])
        if ax is None:
            try:
                import matplotlib.pyplot as plt
            except ImportError:
                raise ImportError('AnovaResult.plot needs matplotlib; install it with '
                                  'pip install "binmetrics[compare]"') from None
            _, grid = plt.subplots(1, len(levels), sharey=True,
                                   figsize=(5 * len(levels), 4.5), squeeze=False)
            panels = list(grid[0])
        else:
            panels = list(ax) if isinstance(ax, Sequence | np.ndarray) else [ax]
            if len(panels) != len(levels):
                raise ValueError(f"by={by!r} has {len(levels)} levels, so ax needs as many "
                                 f"Axes; got {len(panels)}")
        kept = [f for f in self.factors if f in names and f != by]
        for lev, panel in zip(levels, panels, strict=True):
            part = copy.copy(self)  # the same model, the rows of one level of ``by``
            part.data = self.data[self.data[by] == lev]
            part.factors = kept
            part.levels = {f: self.levels[f] for f in kept}
            part.plot(x, hue, ax=panel, level=level, sort=sort, pooled=pooled)
            panel.set_title(f"{by} = {lev}")
        return panels

    def _check_factors(self, names: Sequence[str]) -> list[str]:
        out = []
        for name in names:
            if not isinstance(name, str) or name not in self.factors:
                raise ValueError(f"{name!r} is not a factor of this ANOVA; its factors are "
                                 f"{self.factors}")
            if name in out:
                raise ValueError(f"factor {name!r} is named twice")
            out.append(name)
        return out


# --- input ---------------------------------------------------------------------------
def _as_pandas(data: Any) -> pd.DataFrame:
    if isinstance(data, pd.DataFrame):
        return data
    if type(data).__module__.split(".")[0] == "polars":
        import polars as pl

        if isinstance(data, pl.DataFrame):
            return data.to_pandas()
        if isinstance(data, pl.LazyFrame):
            raise TypeError("data is a polars LazyFrame; collect() it into a DataFrame first")
    raise TypeError(f"data must be a pandas or polars DataFrame, got {type(data).__name__}")


def _factor_list(factors: Any, response: Any) -> list[str]:
    if isinstance(factors, str):
        factors = [factors]
    if not isinstance(factors, (list, tuple)) or not factors:
        raise TypeError(f"factors must be a column name or a non-empty list of column names; "
                        f"got {factors!r}")
    names = list(factors)
    for f in names:
        if not isinstance(f, str):
            raise TypeError(f"factor names must be strings; got {f!r}")
    twice = sorted({f for f in names if names.count(f) > 1})
    if twice:
        raise ValueError(f"factors names a column twice: {twice}")
    if not isinstance(response, str):
        raise TypeError(f"response must be a column name; got {response!r}")
    if response in names:
        raise ValueError(f"{response!r} is both the response and a factor")
    return names


def _check_columns(frame: pd.DataFrame, factors: list[str], response: str) -> None:
    available = [str(c) for c in frame.columns]
    missing = [(role, c) for role, c in [*[("factor", f) for f in factors],
                                          ("response", response)] if c not in frame.columns]
    if missing:
        shown = ", ".join(repr(c) for c in available[:30]) + (
            f", ... ({len(available)} in all)" if len(available) > 30 else "")
        what = "; ".join(f"{role} column {c!r}" for role, c in missing)
        raise ValueError(f"{what} not found in data; available columns: {shown or '(none)'}")


def _response_values(column: pd.Series, response: str) -> np.ndarray:
    if not (pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column)):
        sample = column.head(3).tolist()
        raise TypeError(f"response column {response!r} must be numeric; got dtype "
                        f"{column.dtype} with values such as {sample}")
    return column.to_numpy(dtype=float, na_value=np.nan)


def _levels(column: pd.Series) -> list[Any]:
    """The levels of a factor column: a categorical's categories in its order (unused ones
    dropped), otherwise the sorted distinct values (first appearance if not sortable)."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        used = set(column.dropna().unique().tolist())
        return [c for c in column.cat.categories.tolist() if c in used]
    found = pd.unique(column.dropna()).tolist()
    try:
        return sorted(found)
    except TypeError:
        return found


def _clean(frame: pd.DataFrame, factors: list[str], response: str,
           nan_policy: NanPolicy) -> tuple[pd.DataFrame, int]:
    """Factors as categoricals, the response as float; rows with a missing value raise
    or are dropped."""
    y = _response_values(frame[response], response)
    bad_y = ~np.isfinite(y)
    bad_f = {f: frame[f].isna().to_numpy() for f in factors}
    bad = bad_y | np.logical_or.reduce(list(bad_f.values()))
    n_bad = int(bad.sum())
    if n_bad and nan_policy == "raise":
        parts = []
        if bad_y.any():
            n_nan = int(np.isnan(y).sum())
            parts.append(f"response {response!r} has {plural(bad_y.sum(), 'non-finite value')} "
                         f"({n_nan} NaN, {int(bad_y.sum()) - n_nan} infinite) at rows "
                         f"{row_list(bad_y)}")
        parts += [f"factor {f!r} has {plural(m.sum(), 'missing value')} at rows {row_list(m)}"
                  for f, m in bad_f.items() if m.any()]
        raise ValueError("; ".join(parts) + f" ({plural(n_bad, 'row')} in all); pass "
                         "nan_policy='omit' to drop those rows")
    keep = ~bad
    if n_bad:
        if not keep.any():
            raise ValueError(f"all {n_bad} rows have a missing factor or a non-finite "
                             "response: nothing left to analyse")
        warnings.warn(f"nan_policy='omit': dropped {plural(n_bad, 'row')} with a missing factor "
                      f"or a non-finite response ({int(keep.sum())} left)", BinmetricsWarning,
                      stacklevel=3)
    out = pd.DataFrame(index=pd.RangeIndex(int(keep.sum())))
    for f in factors:
        col = frame[f][keep].reset_index(drop=True)
        levels = _levels(col)
        if len(levels) < 2:
            found = f"only the level {levels[0]!r}" if levels else "no level"
            raise ValueError(f"factor {f!r} has {found}: no effect can be estimated for it; "
                             "drop it from factors")
        out[f] = pd.Categorical(col.to_numpy(dtype=object), categories=levels)
    out[response] = y[keep]
    return out, n_bad


def _terms(k: int, interactions: str) -> list[tuple[int, ...]]:
    top = {"main": 1, "pairwise": 2, "full": k}[interactions]
    return [c for r in range(1, min(top, k) + 1) for c in itertools.combinations(range(k), r)]


def _missing_cells(data: pd.DataFrame, factors: list[str],
                   terms: list[tuple[int, ...]]) -> str | None:
    """A description of the first interaction term with unobserved level combinations."""
    for term in sorted(terms, key=len, reverse=True):
        if len(term) < 2:
            continue
        names = [factors[i] for i in term]
        counts = data.groupby(names, observed=False).size()
        empty = counts[counts == 0]
        if len(empty):
            shown = ", ".join(str(k) for k in empty.index[:3].tolist())
            more = ", ..." if len(empty) > 3 else ""
            return (f"{plural(len(empty), 'combination')} of {' × '.join(names)} "
                    f"({len(counts)} in all) {'has' if len(empty) == 1 else 'have'} no "
                    f"rows ({shown}{more})")
    return None


def _term_name(label: str, factors: list[str]) -> str:
    idx = [int(i) for i in _TERM_FACTOR.findall(label)]
    return " × ".join(factors[i] for i in sorted(idx))


def anova(
    data: Any,
    factors: str | Sequence[str],
    *,
    response: str = "srd_pct",
    typ: int | str = 2,
    interactions: Interactions = "full",
    alpha: float = 0.05,
    nan_policy: NanPolicy = "raise",
) -> AnovaResult:
    """Factorial ANOVA of a response (by default SRD%) on categorical factors.

    The model of the multi-level comparison paper, eq. 1 (sections 2.1-2.2): with
    factors F1, F2, F3 and ``interactions="full"``,
    SRD = b0 + b1F1 + b2F2 + b3F3 + b12F1F2 + b13F1F3 + b23F2F3 + b123F1F2F3,
    fitted by ordinary least squares (statsmodels ``ols`` with ``C(factor)``
    terms) and decomposed with ``statsmodels.stats.anova.anova_lm``.

    Parameters
    ----------
    data : pandas.DataFrame or polars.DataFrame
        Tidy data, one row per observation: for example one cross-validation
        fold's SRD% of one measure in one setting, with columns such as
        ``balance``, ``classes``, ``measure`` (or ``model``), ``fold``, ``srd_pct``.
        A polars DataFrame is converted with ``.to_pandas()``.
    factors : str or list of str
        The factor columns (any values; each needs at least two levels). A
        pandas categorical keeps its category order, other columns are sorted.
    response : str, default "srd_pct"
        The numeric response column.
    typ : 1, 2 or 3 (or "I", "II", "III"), default 2
        Type of sums of squares. For a balanced design all three agree. Type II
        (default) is the usual choice for unbalanced data when the
        higher-order interactions are small. Type III tests each term after all
        the others and is only meaningful with sum-to-zero contrasts, so with
        ``typ=3`` the factors are coded ``C(f, Sum)`` (the default treatment
        coding would test main effects at the reference level of the other
        factors). Type I is sequential, in the order of ``factors``.
    interactions : {"full", "pairwise", "main"}, default "full"
        "full": every interaction (eq. 1); "pairwise": main effects and two-way
        interactions; "main": main effects only (additive model).
    alpha : float, default 0.05
        Level of the ``significant`` column (the paper's α = 0.05).
    nan_policy : {"raise", "omit"}, default "raise"
        What to do with rows whose response is NaN/inf or whose factor value is
        missing: an error naming how many, or drop them with a warning giving
        the count.

    Returns
    -------
    AnovaResult
        ``.table`` (the effects and the residual), ``.model``, ``.means()``,
        ``.plot()``, ``.summary()``.

    Raises
    ------
    ValueError
        ``data`` is empty; a column is missing (the message lists the available
        ones); the response has NaN/inf values or a factor missing values (under
        ``nan_policy="raise"``); a factor has a single level; an interaction
        term of the model has level combinations without rows, or the terms are
        otherwise confounded; there are no residual degrees of freedom (one row
        per cell with full interactions: use ``interactions="main"`` or
        ``"pairwise"``, or replicate); the residual sum of squares is zero.
    TypeError
        ``data`` is not a DataFrame, or the response is not numeric.
    ImportError
        statsmodels is not installed (``pip install "binmetrics[compare]"``).

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from binmetrics.comparison.factorial_anova import anova
    >>> rng = np.random.default_rng(1)
    >>> df = pd.DataFrame([(b, c, m, fold) for b in ("balanced", "imbalanced")
    ...                    for c in ("2-class", "multiclass") for m in ("ACC", "MCC", "DOR")
    ...                    for fold in range(5)],
    ...                   columns=["balance", "classes", "measure", "fold"])
    >>> df["srd_pct"] = (20 + 8 * (df["classes"] == "2-class") + 5 * (df["measure"] == "ACC")
    ...                  + rng.normal(0, 2, len(df)))
    >>> res = anova(df, ["balance", "classes", "measure"])
    >>> res.table[["term", "df", "significant"]]  # doctest: +NORMALIZE_WHITESPACE
                              term    df  significant
    0                      balance   1.0        False
    1                      classes   1.0         True
    2                      measure   2.0         True
    3            balance × classes   1.0        False
    4            balance × measure   2.0        False
    5            classes × measure   2.0        False
    6  balance × classes × measure   2.0        False
    7                     Residual  48.0         <NA>
    >>> res.means("classes").round(2)  # doctest: +NORMALIZE_WHITESPACE
          classes   mean    sd   n    se  ci_low  ci_high
    0     2-class  29.70  3.43  30  0.63   28.42    30.98
    1  multiclass  21.44  3.14  30  0.57   20.26    22.61
    """
    try:
        import statsmodels.formula.api as smf
        from statsmodels.stats.anova import anova_lm
    except ImportError:
        raise ImportError('anova needs statsmodels; install it with '
                          'pip install "binmetrics[compare]"') from None
    names = _factor_list(factors, response)
    if isinstance(typ, bool) or not isinstance(typ, (int, str)) or typ not in _TYP:
        raise ValueError(f"typ must be 1, 2 or 3 (or 'I', 'II', 'III'); got {typ!r}")
    kind = _TYP[typ]
    if interactions not in _INTERACTIONS:
        raise ValueError(f"interactions must be 'full', 'pairwise' or 'main'; "
                         f"got {interactions!r}")
    check_nan_policy(nan_policy)
    alpha = check_in_range(alpha, "alpha", 0.0, 1.0, low_open=True, high_open=True)
    frame = _as_pandas(data)
    _check_columns(frame, names, response)
    if len(frame) == 0:
        raise ValueError("data has no rows: there is nothing to analyse")
    clean, n_omitted = _clean(frame, names, response, nan_policy)

    terms = _terms(len(names), interactions)
    gap = _missing_cells(clean, names, terms)
    if gap is not None:
        raise ValueError(f"{gap}: the {interactions} interaction model cannot be estimated; "
                         "use fewer interactions (interactions='pairwise' or 'main') or "
                         "collect the missing cells")
    coding = ", Sum" if kind == 3 else ""
    formula = f"{_RESPONSE} ~ " + " + ".join(
        ":".join(f"C(f{i}{coding})" for i in term) for term in terms)
    internal = pd.DataFrame({f"f{i}": clean[f] for i, f in enumerate(names)})
    # an extreme response (1e308, 1e-300) is fitted multiplied by a power of two, so no
    # sum of squares overflows or underflows; F, p and eta^2 do not change, and the sums
    # of squares are reported in the response's own unit
    y = clean[response].to_numpy(dtype=float)
    finite = np.abs(y[np.isfinite(y)])
    exponent = weight_exponent(float(finite.max()) if finite.size else 0.0)
    internal[_RESPONSE] = np.ldexp(y, exponent) if exponent else y
    model = smf.ols(formula, data=internal, eval_env={})  # {}: no caller names in the formula
    rank = int(np.linalg.matrix_rank(model.exog))
    if rank < model.exog.shape[1]:
        raise ValueError(f"the terms of the {interactions} interaction model are confounded in "
                         f"this design ({model.exog.shape[1]} parameters, rank {rank}): "
                         "use fewer interactions or a fuller design")
    n = len(clean)
    if n - rank <= 0:
        cells = clean.groupby(names, observed=True).size()
        raise ValueError(
            f"no residual degrees of freedom: {n} rows for {rank} parameters"
            + (" (one row per cell)" if (cells == 1).all() else "")
            + f" with {interactions} interactions, so no effect can be tested; use "
            "interactions='main' or 'pairwise' (the highest interaction then serves as "
            "the error term), or add replicates (e.g. cross-validation folds)")
    fit = model.fit()
    centered = float(np.sum((internal[_RESPONSE] - internal[_RESPONSE].mean()) ** 2))
    if centered == 0.0:
        raise ValueError(f"response {response!r} is constant ({clean[response].iloc[0]:g}):"
                         " there is no variance to analyse")
    if fit.ssr <= 1e-24 * centered:
        raise ValueError(f"the residual sum of squares is zero: {response!r} is constant within "
                         "every cell, so the F tests are undefined")
    raw = anova_lm(fit, typ=kind)
    # the intercept ("Intercept" with patsy, "1" with formulaic) is not an effect
    raw = raw.drop(index=[i for i in raw.index
                          if i != "Residual" and not _TERM_FACTOR.search(str(i))])
    rows = []
    ss_resid = float(raw.loc["Residual", "sum_sq"])
    for label, r in raw.iterrows():
        is_resid = label == "Residual"
        ss, df_ = float(r["sum_sq"]), float(r["df"])
        p = float(r["PR(>F)"])
        with np.errstate(over="ignore"):
            own = float(np.ldexp(ss, -2 * exponent)) if exponent else ss
        rows.append({
            "term": "Residual" if is_resid else _term_name(str(label), names),
            "df": df_, "sum_sq": own, "mean_sq": own / df_,
            "F": float(r["F"]), "pvalue": p,
            "partial_eta_sq": math.nan if is_resid else ss / (ss + ss_resid),
            "significant": pd.NA if is_resid else bool(p < alpha),
        })
    table = pd.DataFrame(rows, columns=_TABLE_COLUMNS)
    table["significant"] = table["significant"].astype("boolean")
    return AnovaResult(table=table, model=fit, factors=names, response=response, alpha=alpha,
                       typ=kind, interactions=interactions, formula=formula, data=clean,
                       n_omitted=n_omitted)
