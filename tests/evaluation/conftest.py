"""What the evaluation tests share: the tied scores of the threshold tests."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.fixture(scope="session")
def tied_scores():
    """``tied_scores(seed, n=300, weighted=False) -> (y, s, w)``: labels at a prevalence
    of 0.35, scores rounded to one decimal (heavy ties) shifted 0.8 up for positives, and
    weights uniform on [0.2, 3] (None unless ``weighted``)."""

    def make(seed: int, n: int = 300, weighted: bool = False):
        rng = np.random.default_rng(seed)
        y = (rng.random(n) < 0.35).astype(int)
        s = np.round(rng.normal(y * 0.8, 1.0), 1)
        w = rng.uniform(0.2, 3.0, n) if weighted else None
        return y, s, w

    return make
