"""How measures move together across groups, periods or models (Siblini et al.,
Fig. 7): rank correlations between the measures' values, raw and calibrated."""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from binmetrics.backends import axes
from binmetrics.evaluation.binary import Evaluation
from binmetrics.evaluation.by import ByResult
from binmetrics.exceptions import MeasureCaveatWarning, UndefinedMeasureWarning
from binmetrics.formatting import Tabular
from binmetrics.measures.registry import select_measures

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["MeasureCorrelation", "measure_correlation"]

_METHODS = ("spearman", "kendall", "pearson")


class MeasureCorrelation(Tabular):
    """The result of :func:`measure_correlation`.

    Attributes
    ----------
    values : DataFrame, one row per evaluation (group, period, model), one column per
        measure.
    matrix : DataFrame, measures x measures: the correlation of their values across the
        rows (``method``).
    calibrated : MeasureCorrelation or None: the same of the evaluations calibrated to
        ``pi0`` (Siblini et al.), when it was given.
    """

    def __init__(self, values: pd.DataFrame, method: str,
                 calibrated: MeasureCorrelation | None = None, pi0: float | None = None) -> None:
        self.values, self.method = values, method
        self.matrix = values.corr(method=method)  # type: ignore[arg-type]
        self.calibrated, self.pi0 = calibrated, pi0

    def _title(self) -> str:
        cal = "" if self.pi0 is None else f", calibrated pi0={self.pi0:g}"
        return (f"MeasureCorrelation({self.method}, {len(self.values)} evaluations, "
                f"{self.values.shape[1]} measures{cal})\n{self.matrix.round(3).to_string()}")

    def to_frame(self) -> pd.DataFrame:
        """The correlations in long form: measure_a, measure_b, correlation (and
        calibrated_correlation when calibrated)."""
        import pandas as pd

        rows = []
        ids = list(self.matrix.columns)
        m = self.matrix.to_numpy(dtype=float)
        cal = None if self.calibrated is None else self.calibrated.matrix.to_numpy(dtype=float)
        for (i, a), (j, b) in itertools.combinations(enumerate(ids), 2):
            row: dict[str, Any] = {"measure_a": a, "measure_b": b,
                                   "correlation": float(m[i, j])}
            if cal is not None:
                row["calibrated_correlation"] = float(cal[i, j])
            rows.append(row)
        return pd.DataFrame(rows)

    def plot(self, *, ax: Any = None, calibrated: bool = False, cmap: str = "RdBu_r",
             annotate: bool | None = None, colorbar: bool = True) -> Axes:
        """Heatmap of the correlation matrix (``calibrated=True``: of the calibrated
        evaluations). Returns the Axes."""
        src = self.calibrated if calibrated else self
        if src is None:
            raise ValueError("no calibrated correlations: pass pi0= to measure_correlation")
        ax = axes(ax, "MeasureCorrelation.plot")
        m = src.matrix.to_numpy(dtype=float)
        ids = list(src.matrix.columns)
        im = ax.imshow(m, cmap=cmap, vmin=-1.0, vmax=1.0)
        ax.set_xticks(range(len(ids)))
        ax.set_yticks(range(len(ids)))
        ax.set_xticklabels(ids, rotation=90)
        ax.set_yticklabels(ids)
        if annotate if annotate is not None else len(ids) <= 15:
            for i, j in itertools.product(range(len(ids)), range(len(ids))):
                ax.text(j, i, f"{m[i, j]:.2f}", ha="center", va="center", fontsize="x-small",
                        color="w" if abs(m[i, j]) > 0.6 else "k")
        if colorbar:
            ax.figure.colorbar(im, ax=ax, label=f"{src.method} correlation")
        title = f"{src.method.capitalize()} correlation of the measures"
        ax.set_title(title + (f" (calibrated, pi0={self.pi0:.3g})" if calibrated else ""))
        return ax


def _evaluations(data: Any) -> dict[Any, Evaluation]:
    if isinstance(data, ByResult):
        evs = {k: v for k, v in data.evaluations.items() if v is not None}
    elif isinstance(data, Mapping):
        evs = dict(data)
    elif isinstance(data, Sequence):
        evs = dict(enumerate(data))
    else:
        raise TypeError("measure_correlation takes a ByResult (evaluate_by), a mapping "
                        f"name -> Evaluation or a list of Evaluations; got {type(data).__name__}")
    bad = [k for k, v in evs.items() if not isinstance(v, Evaluation)]
    if bad:
        raise TypeError(f"not Evaluations: {bad}")
    if len(evs) < 3:
        raise ValueError(f"a correlation across evaluations needs at least 3; got {len(evs)}")
    return evs


def _values(evs: Mapping[Any, Evaluation], ids: list[str]) -> pd.DataFrame:
    import pandas as pd

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        warnings.simplefilter("ignore", MeasureCaveatWarning)
        rows = {k: ev.to_dict(measures=ids) for k, ev in evs.items()}
    return pd.DataFrame.from_dict(rows, orient="index")[ids]


def measure_correlation(data: Any, measures: Iterable[str] | None = None, *,
                        method: str = "spearman", pi0: float | None = None
                        ) -> MeasureCorrelation:
    """Rank correlations between measures across evaluations (Siblini et al., Fig. 7).

    Parameters
    ----------
    data : ByResult, mapping of name -> Evaluation, or list of Evaluations
        One evaluation per group, time period or model (at least 3).
    measures : ids or aliases, optional
        Default: every registered measure that is finite and not constant across the
        evaluations.
    method : {"spearman", "kendall", "pearson"}, default "spearman"
    pi0 : float in (0, 1), optional
        Also correlate the evaluations calibrated to this prevalence (the paper's
        calibrated measures): the result's ``calibrated``. A :class:`ByResult` made
        with ``pi0=`` uses its own calibrated evaluations when ``pi0`` is None.

    Examples
    --------
    >>> import numpy as np
    >>> import binmetrics as bm
    >>> rng = np.random.default_rng(0)
    >>> evs = {}
    >>> for i, prevalence in enumerate([0.05, 0.1, 0.2, 0.3, 0.4]):
    ...     y = rng.random(500) < prevalence
    ...     evs[i] = bm.evaluate(y, np.clip(0.3 * y + 0.7 * rng.random(500), 0, 1))
    >>> corr = bm.measure_correlation(evs, ["prevalence", "ppv", "tpr", "auc"], pi0=0.5)
    >>> round(float(corr.matrix.loc["prevalence", "ppv"]), 2)
    1.0
    """
    if method not in _METHODS:
        raise ValueError(f"method must be one of {_METHODS}, got {method!r}")
    evs = _evaluations(data)
    if measures is None:
        ids = [m.id for m in select_measures()]
        values = _values(evs, ids)
        finite = values.apply(lambda c: bool(np.isfinite(c.to_numpy(dtype=float)).all()))
        varying = values.nunique() > 1
        values = values.loc[:, finite & varying]
        ids = list(values.columns)
    else:
        ids = [m.id for m in select_measures(None, measures)]  # ids, aliases or a preset
        values = _values(evs, ids)
    calibrated = None
    cal_evs: dict[Any, Evaluation] | None = None
    if pi0 is not None:
        cal_evs = {k: ev.calibrated(pi0) for k, ev in evs.items()}
    elif isinstance(data, ByResult) and data.pi0 is not None:
        pi0 = data.pi0
        cal_evs = {k: v for k, v in data.calibrated_evaluations.items() if v is not None}
    if cal_evs is not None:
        calibrated = MeasureCorrelation(_values(cal_evs, ids), method, pi0=pi0)
    return MeasureCorrelation(values, method, calibrated, pi0)
