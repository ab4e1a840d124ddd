"""The calibration and decision-analytic methods of :class:`~binmetrics.Evaluation`
(a mixin, so that ``evaluation/binary.py`` stays small): each builds a result object of
:mod:`binmetrics.curves.calibration` from the evaluation's count table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from binmetrics.exceptions import UndefinedPolicy, undefined_policy

if TYPE_CHECKING:
    from binmetrics.curves.calibration import (
        BrierDecomposition,
        CalibrationTest,
        CostCurve,
        DecisionCurve,
        Reliability,
    )
    from binmetrics.table.counts import CountTable

__all__ = ["CalibrationMethods"]


class CalibrationMethods:
    """Reliability, calibration tests, Brier decomposition, decision and cost curves.

    Not Siblini's prior calibration (``calibrated(pi0)``): see the docs page "Two
    meanings of calibration".

    Each method imports :mod:`binmetrics.curves.calibration` when called: the curves
    need pandas and scipy.stats, which an evaluation that only computes its measures
    never imports.
    """

    table: CountTable
    undefined: UndefinedPolicy

    def reliability(self, n_bins: int = 10, strategy: str = "uniform", *,
                    level: float = 0.95) -> Reliability:
        """The reliability diagram's bins: count, mean predicted, observed rate with a
        Wilson interval (``.to_frame()``; ``.plot()`` draws the diagram of
        ``bm.plot.reliability``, ``intervals=True`` adds the Wilson intervals); bins as
        the ``ece`` measure and scikit-learn's ``calibration_curve``."""
        from binmetrics.curves.calibration import Reliability

        return Reliability.from_table(self.table, n_bins=n_bins, strategy=strategy,
                                      level=level)

    def calibration_test(self, method: str = "hosmer_lemeshow", *,
                         n_groups: int = 10) -> CalibrationTest:
        """The Hosmer-Lemeshow (``n_groups`` quantile groups, as
        ResourceSelection::hoslem.test) or Spiegelhalter test: statistic, df, p-value."""
        from binmetrics.curves.calibration import calibration_test

        with undefined_policy(self.undefined):
            return calibration_test(self.table, method, n_groups=n_groups)

    def brier_decomposition(self, n_bins: int = 10,
                            strategy: str = "uniform") -> BrierDecomposition:
        """Murphy's reliability, resolution and uncertainty, plus the within-bin terms,
        summing to the Brier score."""
        from binmetrics.curves.calibration import BrierDecomposition

        return BrierDecomposition.from_table(self.table, n_bins=n_bins, strategy=strategy)

    def decision_curve(self, thresholds: Any = None, *,
                       others: Mapping[str, Any] | None = None,
                       name: str | None = None) -> DecisionCurve:
        """Net benefit against the threshold probability, with treat all and treat none
        (default thresholds 0.01, 0.02, ..., 0.99). ``others``: more evaluations of the
        same cases (name -> Evaluation) drawn on the same curve. ``name``: this model's
        name; default the name the user gave its scores (``bm.evaluate(df, score="p")``:
        "p"; a pandas Series: its name), else "model".

        Examples
        --------
        >>> import pandas as pd
        >>> import binmetrics as bm
        >>> df = pd.DataFrame({"y": [1, 0, 1, 0], "p_lr": [.8, .3, .6, .4]})
        >>> dc = bm.evaluate(df, label="y", score="p_lr").decision_curve([0.5])
        >>> dc.to_frame()["model"].tolist()[0]
        'p_lr'
        """
        from binmetrics.curves.calibration import DecisionCurve

        if name is None:
            name = getattr(self, "_model_name", None) or "model"
        tables = {name: self.table}
        for k, ev in (others or {}).items():
            tables[k] = ev.table
        return DecisionCurve.from_tables(tables, thresholds)

    def cost_curve(self) -> CostCurve:
        """Drummond & Holte's cost curve: lower envelope and its area."""
        from binmetrics.curves.calibration import CostCurve

        return CostCurve.from_table(self.table)
