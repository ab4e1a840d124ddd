"""The measure registry and the measure functions.

Importing this package registers every measure; see :func:`measure_catalogue` for the
table. Its modules are imported here, not on first use as in the other packages
(:mod:`binmetrics.package`), because importing them is what registers the measures.
"""

# isort: off
# Importing the modules registers their measures; the registry lists them in this order.
from binmetrics.measures import confusion  # noqa: F401
from binmetrics.measures import imbalance, agreement, information  # noqa: F401
from binmetrics.measures import probabilistic, topk  # noqa: F401
from binmetrics.measures import ranking, early_recognition, prg  # noqa: F401
from binmetrics.measures import calibration, lowess  # noqa: F401  (reliability, decision)
from binmetrics.measures import partial_auc, roc_points, at_fixed  # noqa: F401
from binmetrics.measures import multiclass  # noqa: F401  (the native multiclass forms)
from binmetrics.measures import presets  # noqa: F401  (named sets: measures="multilevel28")

# isort: on
from binmetrics.measures._util import EPS
from binmetrics.measures.probabilistic import triplet_loss
from binmetrics.measures.registry import (
    FAMILIES,
    PRESETS,
    REGISTRY,
    Measure,
    get_measure,
    iter_measures,
    measure_catalogue,
)

__all__ = [
    "EPS",
    "FAMILIES",
    "PRESETS",
    "REGISTRY",
    "Measure",
    "get_measure",
    "iter_measures",
    "measure_catalogue",
    "triplet_loss",
]
