"""Shared pieces of the benchmark scripts: the synthetic data and the timer."""

from __future__ import annotations

import gc
import os
import platform
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


def machine() -> str:
    """The CPU and the SIMD level NumPy dispatches to, printed with every run: the
    ratios to np.sort depend on them (NumPy sorts float64 with AVX-512 where the CPU
    has it: np.sort of 1e7 scores took 0.16 s on a 2-core AVX-512 Xeon against 0.66 s
    on the 2-core AVX2 EPYC of the earlier figures, while ``evaluate(...).to_dict()``
    took 2.6 s and 1.8 s: 16x np.sort on one, 2.7x on the other)."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            model = next((ln.split(":", 1)[1].strip() for ln in f
                          if ln.startswith("model name")), model)
    except OSError:
        pass
    from numpy._core._multiarray_umath import __cpu_features__ as feats

    simd = ("AVX-512" if feats.get("AVX512_SKX") else "AVX2" if feats.get("AVX2")
            else "below AVX2")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{model}, {simd}, {os.cpu_count()} cores, load {load:.2f}"

