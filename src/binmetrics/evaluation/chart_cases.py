"""The plot kind of the per-case scores (Berrar Fig. 8b): each case's loss against its
rank by decreasing score, from :meth:`Evaluation.per_case
<binmetrics.evaluation.per_case.PerCaseMethods.per_case>`. Declared after the
built-in kinds of :mod:`~binmetrics.evaluation.chart_data`, which imports this module.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from binmetrics.chart import ChartData, Note, Series, fmt, series
from binmetrics.evaluation.chart_inputs import Models
from binmetrics.evaluation.plot_kinds import register_plot_kind
from binmetrics.exceptions import UndefinedMeasureWarning, warn_at_user
from binmetrics.measures.per_case import CASE_SCORES
from binmetrics.validation import check_count

__all__ = ["case_losses_data"]

#: points labelled with their value when a chart has at most this many
_ANNOTATE = 30


@register_plot_kind("case_losses", title="per-case losses",
                    description="each case's hinge loss (or another per-case score) "
                                "against its rank by decreasing score (Fig. 8b)",
                    in_report=False)
def case_losses_data(models: Models, *, measure: str = "hinge_loss",
                     annotate: bool | None = None, max_points: int | None = 2000
                     ) -> ChartData:
    """Each case's ``measure`` (a column of ``ev.per_case()``: ``hinge_loss`` by default,
    as Berrar's Fig. 8b, or ``information_score``, ``focal_loss``, ``log_loss``,
    ``squared_error``) against its rank by decreasing score, positives as circles and
    negatives as squares, the mean (the registry's measure) as a dashed line.

    Cases of one class with one score share a point (their average rank). With
    ``annotate`` (default: when at most 30 points) each point is labelled with its
    value; at most ``max_points`` points per class are drawn, evenly spaced in rank.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 0, 0], [2.0, 0.5, 0.2, -1.0, -0.5, -2.0])
    >>> cd = bm.plot.chart_data("case_losses", ev)
    >>> [(s.label, s.y.tolist()) for s in cd.series][:2]
    [('positives (y = +1)', [0.0, 0.5, 2.0]), ('negatives (y = -1)', [1.2, 0.5, 0.0])]
    """
    if measure not in CASE_SCORES:
        raise ValueError(f"plot.case_losses: measure must be one of "
                         f"{', '.join(CASE_SCORES)}; got {measure!r}")
    if max_points is not None:
        max_points = check_count(max_points, "max_points")
    out: list[Series] = []
    texts: list[Note] = []
    n_points = 0
    for name, ev in models:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            cases = ev.per_case()
        for w in caught:  # only what concerns the column drawn (signed distances: the
            # probability columns are undefined, the hinge loss is not)
            if not issubclass(w.category, UndefinedMeasureWarning) or measure in str(w.message):
                warn_at_user(w.message, w.category)
        w = cases["weight"].to_numpy(dtype=float)
        v = cases[measure].to_numpy(dtype=float)
        mean = float(np.sum(w * v) / np.sum(w)) if np.sum(w) > 0 else float("nan")
        for positive, text, marker in ((True, "positives (y = +1)", "o"),
                                       (False, "negatives (y = -1)", "s")):
            part = cases[cases["positive"] == positive]
            keep = _thin(len(part), max_points)
            x = part["rank"].to_numpy(dtype=float)[keep]
            y = part[measure].to_numpy(dtype=float)[keep]
            n_points += x.size
            out.append(series(x, y, text, name, "points", marker=marker,
                              extra={"s": 30, "zorder": 3, "edgecolors": "k",
                                     "linewidths": 0.5}))
            texts.extend(Note(float(a), float(b), fmt(b).rstrip("0").rstrip("."), name,
                              (4, 4)) for a, b in zip(x, y, strict=True))
        total = float(cases["weight"].sum())
        out.append(series([0.5, total + 0.5], [mean, mean],
                          f"mean {measure} = {fmt(mean)}", name, "dashed"))
    if not (annotate if annotate is not None else n_points <= _ANNOTATE):
        texts = []
    return ChartData("case_losses", f"Per-case {measure.replace('_', ' ')}",
                     "rank of the case (by decreasing score)", measure.replace("_", " "),
                     tuple(out), texts=tuple(texts), legend="best")


def _thin(n: int, max_points: int | None) -> Any:
    if max_points is None or n <= max_points:
        return np.arange(n)
    return np.unique(np.linspace(0, n - 1, max_points).round().astype(np.intp))
