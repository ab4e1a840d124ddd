"""Data shared by the tests of the probabilistic family's blocked pass
(test_shared_pass.py: alone and together; test_compiled_sums.py: NumPy and compiled):
scores of two overlapping classes in the shapes that stress it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

Case = tuple[Any, Any, Any]


def _case(kind: str, n: int = 6000) -> Case:
    """(labels, scores, weights or None) of ``n`` cases of one kind: continuous, tied,
    weighted, weighted_tied, extreme (0, 1, 1e-300, 1 - 1e-16, under 1e-15), margins
    (scores outside [0, 1]), one_class, near_half, many_per_score (above 255 cases per
    score) or at_prior (every score within 1e-6 of the prevalence)."""
    rng = np.random.default_rng(sum(map(ord, kind)))
    y = rng.random(n) < 0.25
    z = rng.normal(np.where(y, 1.0, 0.0), 1.2)
    p = 1.0 / (1.0 + np.exp(-z))
    w = None
    if kind == "tied":
        p = np.round(p, 2)
    elif kind == "weighted":
        w = rng.uniform(0.1, 4.0, n)
    elif kind == "weighted_tied":
        p, w = np.round(p, 3), rng.integers(1, 9, n).astype(float)
    elif kind == "extreme":
        k = n // 25
        p[:k], p[k:2 * k], p[2 * k:3 * k], p[3 * k:4 * k] = 0.0, 1.0, 1e-300, 1 - 1e-16
        p[4 * k:5 * k] = rng.uniform(0, 1e-15, k)
    elif kind == "margins":
        p = z
    elif kind == "one_class":
        y = np.ones(n, dtype=bool)
    elif kind == "near_half":  # Spiegelhalter's and the information sums near 0
        p = 0.5 + rng.normal(0, 1e-3, n)
        y = rng.random(n) < p
    elif kind == "many_per_score":
        p = np.round(p, 1)
    elif kind == "at_prior":
        p = float(y.mean()) + rng.normal(0, 1e-6, n)
    elif kind != "continuous":
        raise ValueError(f"no case {kind!r}")
    return y, p, w


@pytest.fixture
def probability_case() -> Callable[..., Case]:
    """:func:`_case`: ``probability_case(kind, n=6000)``."""
    return _case
