"""Shared pieces of the benchmark scripts: the synthetic data and the timer."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def make_data(n: int, seed: int = 0,
              decimals: int = 3) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Labels with prevalence 0.1 and probability scores from two overlapping normals:
    "continuous" (all distinct) and rounded to ``decimals`` (heavy ties)."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.1
    z = rng.normal(loc=np.where(y, 1.0, 0.0), scale=1.0)
    p = 1.0 / (1.0 + np.exp(-(z - 1.5)))
    return y, {"continuous": p, f"{decimals}dp": np.round(p, decimals)}


def best_time(fn: Callable[[], Any], repeats: int) -> float:
    """The fastest of ``repeats`` timed calls (after a garbage collection each)."""
    best = float("inf")
    for _ in range(repeats):
        gc.collect()
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best
