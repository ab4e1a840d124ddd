"""Sum of Ranking Differences (SRD): which methods rank the objects like a reference.

SRD (Héberger 2010; Kollár-Hunek & Héberger 2013) compares the columns of a table
(methods, models, performance measures) through the rankings they give its rows
(objects): each column and a reference column are ranked, and a column's SRD is the
sum of the absolute differences between its ranks and the reference's. Small is
close to the reference. The multi-level comparison paper (Rácz, Bajusz & Héberger
2019; docs/references.md) uses it twice: performance measures compared with the mean of all
measures, and classifiers compared with a hypothetical best classifier.

Every convention here is pinned in ``docs/methods.md`` section 1: average ranks for
ties (§1.4), SRDmax = floor(n^2/2) (§1.5), the exact null distribution of Spearman's
footrule by dynamic programming (§1.6a), the tie-preserving permutation null (§1.6c),
the cross-validation variants and the Wilcoxon / sign tests (§1.7), and COVAT (§1.8).
Options that reproduce rSRD are named as such (``null="rsrd"``, ``cv="rsrd_wilcoxon"``,
``keep_reference=False``, ``decimals=``).

Examples
--------
The rSRD example of docs/methods.md §1.9, compared with the row means:

>>> import pandas as pd
>>> from binmetrics.comparison.srd_ranking import srd
>>> X = pd.DataFrame({"A": [32, 52, 44, 44, 47], "B": [73, 75, 65, 76, 70],
...                   "C": [60, 59, 57, 55, 60], "D": [35, 24, 44, 83, 47],
...                   "E": [41, 52, 46, 50, 65]})
>>> res = srd(X)
>>> res.values.tolist()
[5.0, 6.0, 8.0, 4.0, 4.0]
>>> res.normalized.round(2).tolist()
[41.67, 50.0, 66.67, 33.33, 33.33]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pandas as pd

from binmetrics.backends import axes
from binmetrics.comparison._srd_core import (
    Axis,
    Pretreat,
    _as_frame,
    _check_decimals,
    _compute,
    _per_row,
    _pretreat_name,
    _Spec,
    _srd_values,
    pretreat_table,
    srd_max,
)
from binmetrics.comparison.srd_covat import COVATResult, covat
from binmetrics.comparison.srd_crossvalidation import (
    SRDCrossValidation,
    resample_rows,
    sign_test,
    wilcoxon_matched_pairs,
)
from binmetrics.comparison.srd_randomization import SRDRandomization, footrule_null
from binmetrics.progress import as_callback
from binmetrics.validation import check_random_state, check_resamples

if TYPE_CHECKING:
    from matplotlib.axes import Axes

NullKind = Literal["auto", "exact", "permutation", "normal", "rsrd"]
CVKind = Literal["kfold", "loo", "bootstrap", "rsrd_wilcoxon"]


def srd(
    table: Any,
    reference: Any = "mean",
    *,
    directions: Any = None,
    pretreat: Pretreat | str = "none",
    axis: Axis = "columns",
    decimals: int | None = None,
    keep_reference: bool = True,
    nan_policy: Literal["raise", "omit"] = "raise",
) -> SRDResult:
    """Sum of Ranking Differences of every column against a reference (docs/methods.md §1).

    Each column and the reference are ranked in increasing order with average ranks
    for ties; a column's SRD is ``Σ_i |rank_ij − rank_ref,i|``, and SRD% is
    ``100·SRD / SRDmax`` with ``SRDmax = floor(n²/2)`` (no-tie maximum, as rSRD).

    Parameters
    ----------
    table : DataFrame or 2-D array
        Objects in rows (n ≥ 3), methods in columns (m ≥ 2). Row labels are the index.
    reference : str, column name or position, or array of shape (n,), default "mean"
        ``"mean"``, ``"median"``, ``"min"``, ``"max"``: the row-wise statistic over all
        columns after pretreatment (data fusion). ``"best"``: the row maximum where the
        row's direction is +1 and the row minimum where it is −1, the "hypothetical
        best" of the multi-level comparison paper (§2.2). ``"mixed"``: rSRD's per-row
        statistic given in ``directions``. A column name (or an int position): that
        column is the reference. A vector: an external gold standard.
    directions : scalar, array of shape (n,), dict or Series, optional
        For ``reference="best"``: +1 (or "max") where larger is better, −1 (or "min")
        where smaller is better. By default each row label is looked up in the measure
        registry, so a table with measures in rows needs no typing (``bm.measure_catalogue()``
        lists them). For ``reference="mixed"``: "max", "min", "mean" or "median" per
        row.
    pretreat : {"none", "range", "standardize", "unit_length", "scale_to_max", "rank"}
        Data pretreatment (§1.2), per column or per row (``axis``). rSRD names
        ``"range_scale"`` and ``"scale_to_unit"`` are accepted.
    axis : {"columns", "rows"}, default "columns"
        Direction of the pretreatment.
    decimals : int, optional
        Round down to this many decimals before ranking (rSRD's ``precision``), so
        that values equal up to noise tie. Default: no rounding.
    keep_reference : bool, default True
        With a column as reference: keep it in the result with SRD 0 (srdpy) or drop
        it (``False``, as rSRD does).
    nan_policy : {"raise", "omit"}, default "raise"
        Missing cells are an error naming them, or their rows are dropped.

    Returns
    -------
    SRDResult

    References
    ----------
    Héberger K. (2010) Sum of ranking differences compares methods or models fairly.
    TrAC 29:101–109. Rácz A., Bajusz D., Héberger K. (2019) Multi-level comparison of
    machine learning classifiers and their performance metrics. Molecules 24:2811.

    Examples
    --------
    Classifiers in columns, measures in rows: the reference is the best value of
    each row, with the direction of each measure read from the registry.

    >>> import pandas as pd
    >>> from binmetrics.comparison.srd_ranking import srd
    >>> scores = pd.DataFrame({"rf": [0.91, 0.85, 0.12, 0.80],
    ...                        "nb": [0.84, 0.80, 0.20, 0.71],
    ...                        "knn": [0.88, 0.70, 0.15, 0.75]},
    ...                       index=["auc", "accuracy", "brier", "f1"])
    >>> res = srd(scores, "best", pretreat="range", axis="rows")
    >>> res.values.to_dict()
    {'rf': 0.0, 'nb': 6.0, 'knn': 4.0}
    """
    n_before = len(table) if hasattr(table, "__len__") else 0
    frame, kept = _as_frame(table, nan_policy, rescale=decimals is None)
    if directions is not None and not (isinstance(reference, str)
                                       and reference in ("best", "mixed")):
        raise ValueError("directions= applies to reference='best' or 'mixed' only; got "
                         f"reference={reference!r}")
    spec = _Spec(_per_row(reference, kept, n_before), _per_row(directions, kept, n_before),
                 _pretreat_name(pretreat), axis, _check_decimals(decimals),
                 bool(keep_reference))
    return SRDResult(frame, spec)


class SRDResult:
    """SRD and SRD% of each column, with the randomization test and cross-validation.

    Create it with :func:`srd`.

    Attributes
    ----------
    values : pandas.Series
        SRD of each column (can be non-integer with ties).
    normalized : pandas.Series
        SRD% = 100·SRD/SRDmax.
    ranks : pandas.DataFrame
        Average ranks of every compared column.
    reference, reference_ranks : pandas.Series
        The reference values (after pretreatment) and their ranks.
    reference_column : str or None
        The column used as reference, if any.
    n, srd_max : int
        Number of objects and the no-tie maximum floor(n²/2).
    """

    def __init__(self, frame: pd.DataFrame, spec: _Spec) -> None:
        self._frame, self._spec = frame, spec
        data, ref, self.reference_column = _compute(frame, spec)
        values, ranks, ref_ranks = _srd_values(data, ref, spec.decimals)
        self.n = len(frame)
        self.srd_max = srd_max(self.n)
        self.values = pd.Series(values, index=data.columns, name="srd")
        self.normalized = pd.Series(100.0 * values / self.srd_max, index=data.columns,
                                    name="srd_pct")
        self.ranks = pd.DataFrame(ranks, index=frame.index, columns=data.columns)
        self.reference = ref
        self.reference_ranks = pd.Series(ref_ranks, index=frame.index, name="reference_rank")
        self._randomization: SRDRandomization | None = None

    def to_frame(self) -> pd.DataFrame:
        """SRD and SRD% per column, smallest (closest to the reference) first."""
        out = pd.DataFrame({"srd": self.values, "srd_pct": self.normalized})
        out.index.name = "column"
        if self.reference_column is not None and self.reference_column in out.index:
            out["reference"] = out.index == self.reference_column  # kept, SRD 0 by design
        return out.sort_values("srd", kind="stable")

    @property
    def compared(self) -> list[Any]:
        """The columns compared with the reference (a kept reference column is not)."""
        return [c for c in self.values.index if c != self.reference_column]

    def _repr_html_(self) -> str:
        return str(self.to_frame().to_html(float_format=lambda v: f"{v:.4g}"))

    def __repr__(self) -> str:
        return (f"SRDResult(n={self.n}, columns={len(self.values)}, reference="
                f"{self.reference.name!r})\n{self.to_frame().to_string()}")

    def randomization(
        self,
        *,
        null: NullKind = "auto",
        n_resamples: int | None = None,
        random_state: Any = None,
        alpha: float = 0.05,
        tie_mode: str = "f",
        tie_prob: float | None = None,
        progress: Any = None,
    ) -> SRDRandomization:
        """Test each column against random ranking (CRRN, docs/methods.md §1.6).

        Parameters
        ----------
        null : {"auto", "exact", "permutation", "normal", "rsrd"}, default "auto"
            ``"exact"``: the footrule law of a random permutation, exact by dynamic
            programming up to n = 300 and its exact-moment normal law above
            (``"normal"`` forces that law). ``"permutation"``: each column's own
            average ranks permuted against the fixed reference ranks, which keeps
            its ties (enumerated for n ≤ 8, Monte Carlo with ``n_resamples`` draws
            otherwise). ``"auto"``: exact where neither the column nor the reference
            has ties, permutation otherwise. ``"rsrd"``: rSRD's simulation
            (``calculateSRDDistribution``) with its ``tie_mode`` ('n', 'r', 'f',
            't', 'p', 'd') and ``tie_prob``, ``n_resamples`` draws.
        n_resamples : int, optional
            Monte Carlo draws of the permutation null (n > 8; default 100000) or of
            rSRD's simulation (default 1000000, as rSRD).
        random_state : int or Generator, optional
            Seed for the Monte Carlo nulls.
        alpha : float, default 0.05
            Level of the ``better_than_random`` decision (pvalue_lower ≤ alpha).
        progress : bool, "auto" or callable, optional
            Report the columns tested (and rSRD's simulation) on stderr
            (:mod:`binmetrics.progress`): True always, "auto" for work longer than a
            couple of seconds, or a ``callable(done, total)``.

        Returns
        -------
        SRDRandomization

        Examples
        --------
        >>> import pandas as pd
        >>> from binmetrics.comparison.srd_ranking import srd
        >>> X = pd.DataFrame({"A": [32, 52, 44, 44, 47], "B": [73, 75, 65, 76, 70],
        ...                   "C": [60, 59, 57, 55, 60], "D": [35, 24, 44, 83, 47],
        ...                   "E": [41, 52, 46, 50, 65]})
        >>> rt = srd(X, "E").randomization()
        >>> round(float(rt.pvalue_lower["A"]), 4)   # A has a tie: the tie-preserving null, 8/120
        0.0667
        >>> round(rt.quantiles["XX1"], 2)   # SRD% of the 5% quantile of random rankings
        33.33
        """
        if not 0 < alpha < 1:
            raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
        if null not in ("auto", "exact", "permutation", "normal", "rsrd"):
            raise ValueError("null must be 'auto', 'exact', 'permutation', 'normal' or "
                             f"'rsrd', got {null!r}")
        if n_resamples is None:
            n_resamples = 1_000_000 if null == "rsrd" else 100_000
        # kept per draw: the shared null and one per tied column
        n_resamples = check_resamples(n_resamples, per_resample=1 + len(self.compared),
                                      what="a null per compared column")
        if null != "rsrd" and (tie_prob is not None or tie_mode != "f"):
            raise ValueError("tie_mode and tie_prob apply to null='rsrd' only")
        rng = np.random.default_rng(check_random_state(random_state))
        return SRDRandomization(self, null, int(n_resamples), rng, alpha, tie_mode, tie_prob,
                                progress=progress)

    def cross_validate(
        self,
        cv: CVKind = "kfold",
        k: int = 7,
        *,
        repeats: int = 1,
        shuffle: bool = True,
        n_resamples: int = 200,
        random_state: Any = None,
        progress: Any = None,
    ) -> SRDCrossValidation:
        """Validate the SRD ordering on resampled rows (docs/methods.md §1.7).

        Each resample drops rows, re-fuses the reference on the rows kept and
        normalises by SRDmax of that many rows. Neighbouring columns (ordered by
        their median SRD%, ties broken by Q1, Q3, min, max as rSRD does) are then
        compared with the Wilcoxon matched-pairs signed-rank test and the sign test.

        Parameters
        ----------
        cv : {"kfold", "loo", "bootstrap", "rsrd_wilcoxon"}, default "kfold"
            ``"kfold"``: k folds, each left out once (7 is Héberger's default;
            ``shuffle=False`` gives contiguous folds, as srdpy's KFold). ``"loo"``:
            leave one row out (advised for n < 14). ``"bootstrap"``: ``n_resamples`` draws
            of n rows with replacement. ``"rsrd_wilcoxon"``: rSRD's default,
            min(n, 8) random subsets each leaving out ceil(n/k) rows.
        k : int, default 7
            Number of folds.
        repeats : int, default 1
            Repetitions of shuffled k-fold ("Monte Carlo k-fold in ten iterations"
            of the multi-level comparison paper is ``k=5, repeats=10``).
        random_state : int or Generator, optional
            Seed for shuffling and drawing.
        progress : bool, "auto" or callable, optional
            Report the resamples done on stderr (:mod:`binmetrics.progress`), as
            :meth:`randomization` does.

        Returns
        -------
        SRDCrossValidation

        Examples
        --------
        >>> import pandas as pd
        >>> from binmetrics.comparison.srd_ranking import srd
        >>> X = pd.DataFrame({"A": [32, 52, 44, 44, 47, 51], "B": [73, 75, 65, 76, 70, 60],
        ...                   "C": [60, 59, 57, 55, 60, 58]})
        >>> cv = srd(X).cross_validate("loo")
        >>> cv.folds.shape
        (6, 3)
        """
        rows = resample_rows(self.n, cv, k, repeats, shuffle, n_resamples,
                             np.random.default_rng(check_random_state(random_state)))
        return SRDCrossValidation(self, rows, cv,
                                  progress=as_callback(progress, "srd cross-validation"))

    def plot(self, *, ax: Any = None, null: SRDRandomization | None = None,
             annotate: bool = True) -> Axes:
        """The SRD plot: each column drawn at its SRD% on both axes, and the
        cumulative distribution of random rankings on the right axis (with its
        XX1, median and XX19 marked), as Figures 3 and 7 of the multi-level paper.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Where to draw; default a new figure.
        null : SRDRandomization, optional
            The randomization test to overlay; default ``self.randomization()``.
        annotate : bool, default True
            Write each column's name on its line.

        Returns
        -------
        matplotlib.axes.Axes
        """
        ax = axes(ax, "SRDResult.plot")
        rt = null if null is not None else self.randomization(random_state=0)
        pct = self.normalized.sort_values(kind="stable")
        for label, v in pct.items():
            ax.plot([v, v], [0.0, v], color="C0", linewidth=1.5)
            if annotate:
                ax.text(v, v, f" {label}", rotation=90, va="bottom", ha="center",
                        fontsize="small")
        support, cdf = rt.distribution
        top = max(100.0, float(pct.max()) * 1.15)
        ax.set_xlim(0.0, top)
        ax.set_ylim(0.0, top)
        ax.set_xlabel("SRD [%]")
        ax.set_ylabel("SRD [%]")
        twin = ax.twinx()
        twin.step(support, 100.0 * cdf, where="post", color="k", linewidth=1.0,
                  label="random ranking")
        for name in ("XX1", "Med", "XX19"):
            twin.axvline(rt.quantiles[name], color="red", linestyle=":", linewidth=0.8)
        twin.set_ylim(0.0, 100.0)
        twin.set_ylabel("cumulative relative frequency [%]")
        ax.set_title(f"SRD, reference {self.reference.name}, n = {self.n}")
        return ax


# the randomization test, the cross-validation and COVAT are published here too (their
# modules are srd_randomization, srd_crossvalidation and covat)
__all__ = [
    "COVATResult",
    "SRDCrossValidation",
    "SRDRandomization",
    "SRDResult",
    "covat",
    "footrule_null",
    "pretreat_table",
    "sign_test",
    "srd",
    "srd_max",
    "wilcoxon_matched_pairs",
]
