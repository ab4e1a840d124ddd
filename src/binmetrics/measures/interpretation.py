"""Verbal benchmark scales of measure values, as PyCM prints them ("SOA": strength of
agreement): Landis & Koch, Fleiss, Altman and Cicchetti for kappa, Cramér for V,
Matthews for the MCC, and PyCM's scales of Yule's Q, the likelihood ratios, the AUC and
Krippendorff's alpha.

A scale is a list of cut points and labels: a value below the first cut point gets the
first label, one at or above the last the last label (PyCM's ``>=`` boundaries). The
scales are conventions, not laws: they are offered to read a value, not to judge it.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass

from binmetrics.measures.registry import get_measure

__all__ = ["SCALES", "Scale", "interpret"]


@dataclass(frozen=True)
class Scale:
    """One benchmark scale: ``labels[i]`` for ``cuts[i-1] <= value < cuts[i]``."""

    id: str
    name: str
    cuts: tuple[float, ...]
    labels: tuple[str, ...]

    def label(self, value: float) -> str:
        """The label of ``value`` on this scale ("undefined" for NaN)."""
        if math.isnan(value):
            return "undefined"
        return self.labels[bisect.bisect_right(self.cuts, value)]


_KOCH = Scale("landis_koch", "Landis & Koch", (0.0, 0.2, 0.4, 0.6, 0.8),
              ("poor", "slight", "fair", "moderate", "substantial", "almost perfect"))
_FLEISS = Scale("fleiss", "Fleiss", (0.4, 0.75), ("poor", "intermediate to good", "excellent"))
_ALTMAN = Scale("altman", "Altman", (0.2, 0.4, 0.6, 0.8),
                ("poor", "fair", "moderate", "good", "very good"))
_CICCHETTI = Scale("cicchetti", "Cicchetti", (0.4, 0.59, 0.74),
                   ("poor", "fair", "good", "excellent"))

#: measure id -> its scales, the default first (PyCM's SOA1-SOA9 and class benchmarks)
SCALES: dict[str, tuple[Scale, ...]] = {
    "kappa": (_KOCH, _FLEISS, _ALTMAN, _CICCHETTI),
    "cramer_v": (Scale("cramer", "Cramér", (0.1, 0.2, 0.4, 0.6, 0.8),
                       ("negligible", "weak", "moderate", "relatively strong", "strong",
                        "very strong")),),
    "mcc": (Scale("matthews", "Matthews", (0.3, 0.5, 0.7, 0.9),
                  ("negligible", "weak", "moderate", "strong", "very strong")),),
    "yule_q": (Scale("yule_q", "PyCM, Yule's Q", (0.25, 0.5, 0.75),
                     ("negligible", "weak", "moderate", "strong")),),
    "lr_plus": (Scale("lr_plus", "PyCM, LR+", (1.0, 5.0, 10.0),
                      ("negligible", "poor", "fair", "good")),),
    "lr_minus": (Scale("lr_minus", "PyCM, LR-", (0.1, 0.2, 0.5),
                       ("good", "fair", "poor", "negligible")),),
    "auc": (Scale("auc", "PyCM, AUC", (0.6, 0.7, 0.8, 0.9),
                  ("poor", "fair", "good", "very good", "excellent")),),
    "krippendorff_alpha": (Scale("krippendorff", "Krippendorff", (0.667, 0.8),
                                 ("low", "tentative", "high")),),
}


def interpret(measure: str, value: float, scale: str | None = None) -> str:
    """The verbal reading of a measure's value on a benchmark scale.

    Parameters
    ----------
    measure : a measure id or alias that has a scale (the keys of :data:`SCALES`).
    value : the value.
    scale : the scale's id (``"landis_koch"``, ``"fleiss"``, ``"altman"``,
        ``"cicchetti"`` for kappa); default the measure's first scale.

    Returns
    -------
    str
        ``"label (scale name)"``, e.g. ``"moderate (Landis & Koch)"``.

    Examples
    --------
    >>> interpret("kappa", 0.45)
    'moderate (Landis & Koch)'
    >>> interpret("cohen_kappa", 0.45, scale="fleiss")
    'intermediate to good (Fleiss)'
    """
    m = get_measure(measure)
    scales = SCALES.get(m.id)
    if scales is None:
        raise ValueError(f"{m.id} has no benchmark scale; the measures with one: "
                         f"{', '.join(SCALES)}")
    if scale is None:
        chosen = scales[0]
    else:
        found = [s for s in scales if s.id == scale]
        if not found:
            raise ValueError(f"{m.id} has no scale {scale!r}; its scales: "
                             f"{', '.join(s.id for s in scales)}")
        chosen = found[0]
    return f"{chosen.label(float(value))} ({chosen.name})"
