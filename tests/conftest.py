"""Fixtures shared across the test packages."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest


@pytest.fixture(scope="module")
def scored_frame() -> pd.DataFrame:
    """2000 cases, 30 % positive: ``p`` an informative score, ``q`` noise, ``g`` one of
    8 groups."""
    rng = np.random.default_rng(0)
    n = 2000
    y = rng.random(n) < 0.3
    s = 1 / (1 + np.exp(-(y + rng.normal(0, 1, n))))
    return pd.DataFrame({"y": y.astype(int), "p": s, "q": rng.random(n),
                         "g": rng.integers(0, 8, n)})
