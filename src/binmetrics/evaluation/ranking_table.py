"""Berrar's Figure 2 in one call: the ranking table of an evaluation."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

    from binmetrics.table.counts import CountTable

__all__ = ["ranking_table"]


def ranking_table(table: CountTable) -> pd.DataFrame:
    """One row per distinct score, highest first: the cut ``score >= score`` and what it
    selects (Berrar's Figure 2, with tied cases as one row).

    Columns: ``score``, ``positives`` and ``negatives`` (the cases with that score,
    weighted), ``n_selected`` and ``cumulative_positives`` (at or above it), ``tpr``,
    ``fpr``, ``precision`` and ``lift`` (precision / prevalence) of the cut.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> ev.ranking_table().head(3)[["score", "cumulative_positives", "tpr", "fpr", "precision"]]
       score  cumulative_positives  tpr  fpr  precision
    0   0.95                   1.0  0.2  0.0   1.000000
    1   0.80                   2.0  0.4  0.0   1.000000
    2   0.75                   2.0  0.4  0.2   0.666667
    """
    import pandas as pd

    tp = np.asarray(table.tp[1:], dtype=np.float64)
    fp = np.asarray(table.fp[1:], dtype=np.float64)
    selected = tp + fp
    with np.errstate(divide="ignore", invalid="ignore"):
        tpr = tp / table.P if table.P > 0 else np.full(tp.size, np.nan)
        fpr = fp / table.N if table.N > 0 else np.full(fp.size, np.nan)
        precision = tp / selected
        lift = precision / table.prevalence if table.P > 0 else np.full(tp.size, np.nan)
    return pd.DataFrame({
        "score": table.scores, "positives": np.asarray(table.pos, dtype=np.float64),
        "negatives": np.asarray(table.neg, dtype=np.float64), "n_selected": selected,
        "cumulative_positives": tp, "tpr": tpr, "fpr": fpr, "precision": precision,
        "lift": lift})
