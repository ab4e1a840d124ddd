"""The confusion matrix: the four counts of one threshold, or of many as arrays."""

from __future__ import annotations

from dataclasses import dataclass, field
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
    #: the weights were multiplied by 2**weight_exponent (extreme weights, see
    #: :attr:`binmetrics.CountTable.weight_exponent`): the fields are in that unit, the
    #: repr shows the counts in the weights' own
    weight_exponent: int = field(default=0, repr=False)
    #: with per-case costs (``evaluate(..., case_cost_fp=, case_cost_fn=)``): the summed
    #: costs of the false positives and of the false negatives; None without them
    fp_cost: ArrayOrFloat = field(default=None, repr=False)
    fn_cost: ArrayOrFloat = field(default=None, repr=False)

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
        """The counts; of rescaled weights, in the weights' own unit and saying so.

        Examples
        --------
        >>> Confusion(tp=0.5, fp=0.0, fn=1.0, tn=2.5, weight_exponent=-1024)
        Confusion(tp=8.98846567431158e+307, fp=0.0, fn=1.797693135e+308, tn=4.494232837e+308 in the weights' unit; the fields hold them times 2**-1024)
        """  # noqa: E501
        k = self.weight_exponent
        if not k or np.ndim(self.tp):
            return (f"Confusion(tp={self.tp!r}, fp={self.fp!r}, fn={self.fn!r}, "
                    f"tn={self.tn!r})")
        from binmetrics.validation import in_user_units

        shown = ", ".join(f"{name}={in_user_units(v, k)}" for name, v in self.as_dict().items())
        return f"Confusion({shown} in the weights' unit; the fields hold them times 2**{k})"
