"""The shaded areas of a ROC chart (Berrar Fig. 6a-c): the area under the curve (AUC),
the area between the curve and the diagonal (A, with Gini = A / 0.5 = 2 AUC - 1), and
the area under the convex hull (AUCH). :meth:`ROCCurve.chart
<binmetrics.curves.ROCCurve.chart>` draws them with ``shade=``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from binmetrics.chart import Series, fmt, series

__all__ = ["SHADES", "roc_area_series"]

#: the areas ``shade=`` names, each with the panel of Berrar's Figure 6 it draws
SHADES = {"auc": "Fig. 6a", "gini": "Fig. 6b", "auch": "Fig. 6c"}


def _shades(shade: str | Sequence[str] | None) -> list[str]:
    if shade is None:
        return []
    names = [shade] if isinstance(shade, str) else list(shade)
    for s in names:
        if s not in SHADES:
            raise ValueError(f"shade must be one of {', '.join(SHADES)} (or a list of them); "
                             f"got {s!r}")
    return names


def roc_area_series(roc: Any, shade: str | Sequence[str] | None) -> list[Series]:
    """The filled polygons (of a :class:`~binmetrics.curves.ROCCurve` ``roc``, which
    imports this module) (style ``"band"``) of the areas named in ``shade``:

    - ``"auc"``: under the ROC curve, down to FPR axis (Berrar Fig. 6a);
    - ``"gini"``: between the curve and the diagonal of random guessing, the area A of
      Fig. 6b, whose label gives Gini = A / 0.5 = 2 AUC - 1;
    - ``"auch"``: under the ROC convex hull (Fig. 6c).

    Examples
    --------
    >>> import binmetrics as bm
    >>> roc = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                   [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]).roc()
    >>> [s.label for s in roc_area_series(roc, ["auc", "gini", "auch"])]
    ['area AUC = 0.800', 'area A = AUC - 0.5: Gini = A / 0.5 = 0.600', 'area AUCH = 0.880']
    """
    out = []
    for name in _shades(shade):
        if name == "auc":
            x = np.concatenate((roc.fpr, [1.0, 0.0]))
            y = np.concatenate((roc.tpr, [0.0, 0.0]))
            text = f"area AUC = {fmt(roc.area())}"
        elif name == "gini":  # the polygon closes along the diagonal from (1, 1) to (0, 0)
            x, y = roc.fpr, roc.tpr
            text = f"area A = AUC - 0.5: Gini = A / 0.5 = {fmt(2.0 * roc.area() - 1.0)}"
        else:
            hull = roc.hull()
            x = np.concatenate((hull.fpr, [1.0, 0.0]))
            y = np.concatenate((hull.tpr, [0.0, 0.0]))
            text = f"area AUCH = {fmt(hull.area())}"
        out.append(series(x, y, text, style="band", extra={"alpha": 0.25}))
    return out
