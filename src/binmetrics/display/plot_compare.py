"""The plots of the comparison tools, on matplotlib Axes: the SRD plot, the SRD-COVAT
heatmap and the ANOVA means plot (multi-level comparison paper), each drawn by its
result's own ``plot`` method.

Part of :mod:`binmetrics.plot` (``bm.plot.srd`` ...); these are not plot kinds of an
evaluation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["anova_means", "covat", "srd"]


def srd(res: Any, *, ax: Any = None, **kwargs: Any) -> Axes:
    """The SRD plot of an :class:`~binmetrics.SRDResult` (multi-level comparison paper,
    Figures 3 and 7), or the box plot of an :class:`~binmetrics.SRDCrossValidation`:
    ``res.plot(ax=ax, **kwargs)``.

    Examples
    --------
    >>> import binmetrics as bm
    >>> import pandas as pd
    >>> res = bm.srd(pd.DataFrame({"a": [1, 2, 3, 4], "b": [2, 1, 4, 3]}), "a")
    >>> ax = bm.plot.srd(res)  # doctest: +SKIP
    """
    from binmetrics.comparison.srd_ranking import SRDCrossValidation, SRDResult

    if not isinstance(res, (SRDResult, SRDCrossValidation)):
        raise TypeError(f"plot.srd takes an SRDResult (bm.srd(...)) or its "
                        f"cross_validate() result; got {type(res).__name__}")
    return res.plot(ax=ax, **kwargs)


def covat(res: Any, *, ax: Any = None, **kwargs: Any) -> Axes:
    """The SRD-COVAT heatmap of a :class:`~binmetrics.COVATResult` (multi-level
    comparison paper, Figure 6): ``res.plot(ax=ax, **kwargs)``."""
    from binmetrics.comparison.srd_ranking import COVATResult

    if not isinstance(res, COVATResult):
        raise TypeError(f"plot.covat takes a COVATResult (bm.covat(...)); "
                        f"got {type(res).__name__}")
    return res.plot(ax=ax, **kwargs)


def anova_means(res: Any, x: str, hue: str | None = None, *, ax: Any = None,
                **kwargs: Any) -> Axes:
    """The means plot of an :class:`~binmetrics.AnovaResult` (multi-level comparison
    paper, Figures 4, 5 and 8): ``res.plot(x, hue, ax=ax, **kwargs)``."""
    from binmetrics.comparison.factorial_anova import AnovaResult

    if not isinstance(res, AnovaResult):
        raise TypeError(f"plot.anova_means takes an AnovaResult (bm.anova(...)); "
                        f"got {type(res).__name__}")
    return res.plot(x, hue, ax=ax, **kwargs)
