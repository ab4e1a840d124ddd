"""SRD-COVAT: every column of a table as the SRD reference in turn (docs/methods.md §1.8).

:func:`covat` gives the matrix of SRD% of each column with each other column as the
reference, a footrule distance between their rankings, reordered (ascending mean,
Bezdek–Hathaway VAT or complete-linkage leaves) so that columns that rank the objects
alike sit together along the diagonal: the paper's Figure 6 of the measures.
:class:`COVATResult` holds and draws it.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy.cluster import hierarchy
from scipy.spatial.distance import pdist, squareform

from binmetrics.backends import axes
from binmetrics.comparison._srd_core import (
    Axis,
    FloatArray,
    Pretreat,
    _as_frame,
    _check_decimals,
    _pretreat_name,
    _rank,
    pretreat_table,
    srd_max,
)
from binmetrics.formatting import Tabular

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["COVATResult", "covat"]


def covat(
    table: Any,
    *,
    pretreat: Pretreat | str = "none",
    axis: Axis = "columns",
    order: Literal["mean", "vat", "hclust"] = "mean",
    decimals: int | None = None,
    nan_policy: Literal["raise", "omit"] = "raise",
) -> COVATResult:
    """SRD-COVAT: every column as the reference in turn (docs/methods.md §1.8).

    ``C[i, j]`` is the SRD% of column j with column i as the reference: a symmetric
    footrule distance matrix with a zero diagonal. Reordered so that similar
    columns cluster along the diagonal, it shows which methods (measures) agree.

    Parameters
    ----------
    table, pretreat, axis, decimals, nan_policy
        As for :func:`~binmetrics.comparison.srd_ranking.srd`.
    order : {"mean", "vat", "hclust"}, default "mean"
        Ascending mean SRD (srdpy's intent, the paper's Figure 6); Bezdek–Hathaway
        VAT; or the leaf order of complete-linkage clustering (scipy's
        ``leaves_list``; rSRD's ``heatmap.2`` further reorders the dendrogram by row
        means, which this does not).

    Returns
    -------
    COVATResult

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"A": [32, 52, 44, 44, 47], "B": [73, 75, 65, 76, 70],
    ...                   "C": [60, 59, 57, 55, 60], "D": [35, 24, 44, 83, 47],
    ...                   "E": [41, 52, 46, 50, 65]})
    >>> cv = covat(X)
    >>> cv.order
    ['E', 'A', 'D', 'B', 'C']
    >>> float(cv.raw.loc["A", "E"])
    3.0
    """
    frame, _ = _as_frame(table, nan_policy, rescale=decimals is None)
    data = pretreat_table(frame, _pretreat_name(pretreat), axis)
    ranks = _rank(data.to_numpy(), _check_decimals(decimals))
    raw = squareform(pdist(ranks.T, "cityblock"))
    labels = list(data.columns)
    if order == "mean":
        perm = np.argsort(raw.mean(axis=0), kind="stable")
    elif order == "vat":
        perm = _vat_order(raw)
    elif order == "hclust":
        perm = hierarchy.leaves_list(hierarchy.linkage(squareform(raw, checks=False),
                                                       "complete"))
    else:
        raise ValueError(f"order must be 'mean', 'vat' or 'hclust', got {order!r}")
    ordered = [labels[i] for i in perm]
    raw_frame = pd.DataFrame(raw, index=labels, columns=labels).loc[ordered, ordered]
    return COVATResult(raw_frame, len(frame), order)


def _vat_order(d: FloatArray) -> npt.NDArray[np.intp]:
    """Bezdek–Hathaway VAT: start at the row of the largest entry, then add the
    unselected item nearest to any selected one (lowest index on ties)."""
    m = d.shape[0]
    first = int(np.unravel_index(np.argmax(d), d.shape)[0])
    chosen = [first]
    nearest = d[first].copy()
    free = np.ones(m, bool)
    free[first] = False
    while free.any():
        cand = np.where(free, nearest, np.inf)
        nxt = int(np.argmin(cand))
        chosen.append(nxt)
        free[nxt] = False
        nearest = np.minimum(nearest, d[nxt])
    return np.asarray(chosen, dtype=np.intp)


class COVATResult(Tabular):
    """The SRD-COVAT matrix, reordered.

    Attributes
    ----------
    raw : pandas.DataFrame
        SRD of each column (columns) with each column as reference (rows).
    matrix : pandas.DataFrame
        The same in SRD%.
    order : list
        Column labels in display order.
    """

    def __init__(self, raw: pd.DataFrame, n: int, how: str) -> None:
        self.raw = raw
        self.n, self.how = n, how
        self.matrix = raw * (100.0 / srd_max(n))
        self.order = list(raw.index)

    def to_frame(self) -> pd.DataFrame:
        """The SRD% matrix with the reference column's label as the first column."""
        return self.matrix.rename_axis("reference").reset_index()

    def _title(self) -> str:
        return f"COVATResult(order={self.how!r}, SRD%: column vs reference)"

    def plot(self, *, ax: Any = None, cmap: str = "viridis", annotate: bool | None = None,
             colorbar: bool = True) -> Axes:
        """Heatmap of the SRD% matrix (the paper's Figure 6). Returns the Axes.

        Cells are annotated with their values when there are at most 15 columns
        (``annotate`` overrides).
        """
        ax = axes(ax, "COVATResult.plot")
        m = self.matrix.to_numpy()
        im = ax.imshow(m, cmap=cmap, vmin=0.0, vmax=max(100.0, float(m.max())))
        k = len(self.order)
        ax.set_xticks(range(k))
        ax.set_yticks(range(k))
        ax.set_xticklabels([str(c) for c in self.order], rotation=90)
        ax.set_yticklabels([str(c) for c in self.order])
        if annotate if annotate is not None else k <= 15:
            for i, j in itertools.product(range(k), range(k)):
                ax.text(j, i, f"{m[i, j]:.0f}", ha="center", va="center", fontsize="x-small",
                        color="w" if m[i, j] < 50 else "k")
        if colorbar:
            ax.figure.colorbar(im, ax=ax, label="SRD [%]")
        ax.set_title("SRD-COVAT")
        return ax
