"""The measure registry and the measure functions.

Importing this package registers every measure; see :func:`measures` for the table.
"""

from binmetrics.measures import (  # noqa: F401  (registers the measures and their fast paths)
    confusion,
    multiclass,
    probabilistic,
    ranking,
)
from binmetrics.measures.probabilistic import triplet_loss
from binmetrics.measures.registry import (
    FAMILIES,
    REGISTRY,
    Measure,
    get_measure,
    iter_measures,
    measures,
)

__all__ = [
    "FAMILIES",
    "REGISTRY",
    "Measure",
    "get_measure",
    "iter_measures",
    "measures",
    "triplet_loss",
]
