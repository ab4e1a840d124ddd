"""The one place that imports matplotlib, lazily: it is an optional dependency."""

from __future__ import annotations

from typing import Any


def pyplot(feature: str) -> Any:
    """``matplotlib.pyplot``, or an ImportError that names the feature and the extra."""
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError(f"{feature} needs matplotlib; install it with "
                          "pip install 'binmetrics[plot]'") from None
    return plt


def axes(ax: Any, feature: str) -> Any:
    """The given Axes, or a new one on a new figure."""
    plt = pyplot(feature)
    if ax is None:
        _, ax = plt.subplots()
    return ax
