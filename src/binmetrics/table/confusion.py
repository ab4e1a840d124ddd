"""The confusion matrix: the four counts of one threshold, or of many as arrays."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from binmetrics.formatting import Tabular

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["ArrayOrFloat", "Confusion"]

ArrayOrFloat = Any  # a float for one threshold, an array for a curve


@dataclass(frozen=True)
class Confusion(Tabular):
    """Confusion matrix counts. Fields are floats for one threshold, arrays for many.

    Counts are weighted sums when sample weights were given; ``P = tp + fn`` and
    ``N = fp + tn`` are the (weighted) numbers of positives and negatives.
    """

    tp: ArrayOrFloat
    fp: ArrayOrFloat
    fn: ArrayOrFloat
    tn: ArrayOrFloat

    @property
    def p(self) -> ArrayOrFloat:
        """Condition positives, TP + FN."""
        return self.tp + self.fn

    @property
    def n(self) -> ArrayOrFloat:
        """Condition negatives, FP + TN."""
        return self.fp + self.tn

    @property
    def pp(self) -> ArrayOrFloat:
        """Predicted positives, TP + FP."""
        return self.tp + self.fp

    @property
    def pn(self) -> ArrayOrFloat:
        """Predicted negatives, FN + TN."""
        return self.fn + self.tn

    @property
    def total(self) -> ArrayOrFloat:
        return self.tp + self.fp + self.fn + self.tn

    def as_dict(self) -> dict[str, Any]:
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn, "tn": self.tn}

    def to_frame(self) -> pd.DataFrame:
        """The counts as a DataFrame: columns tp, fp, fn, tn; one row, or one per
        threshold when the fields are arrays."""
        import pandas as pd

        return pd.DataFrame({k: np.atleast_1d(v) for k, v in self.as_dict().items()})

    def __repr__(self) -> str:
        return f"Confusion(tp={self.tp!r}, fp={self.fp!r}, fn={self.fn!r}, tn={self.tn!r})"
