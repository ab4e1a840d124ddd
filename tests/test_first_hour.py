"""Issue 20, "the first hour": no noise (2), results that print themselves (4), one
front door (5) and honest messages (6), in Python. The CLI cases are subprocess
tests in tests/test_cli_first_hour.py and tests/test_cli_paired.py."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    n = 2000
    y = rng.random(n) < 0.3
    s = 1 / (1 + np.exp(-(y + rng.normal(0, 1, n))))
    return pd.DataFrame({"y": y.astype(int), "p": s, "q": rng.random(n),
                         "g": rng.integers(0, 8, n)})


def _caught(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn()
    return out, [w for w in caught if issubclass(w.category, bm.MeasureCaveatWarning)]


# --- 2. noise ------------------------------------------------------------------------
def test_caveat_only_for_measures_asked_for(frame):
    ev = bm.evaluate(frame["y"], frame["p"])
    _, caught = _caught(lambda: ev.to_dict(measures=["auc", "mcc"]))
    assert caught == []
    _, caught = _caught(lambda: bm.evaluate_by(frame, label="y", score="p", by="g",
                                               measures=["auc"]))
    assert caught == []


def test_caveat_once_per_call_at_the_users_line(frame):
    _, caught = _caught(lambda: bm.evaluate_by(frame, label="y", score="p", by="g"))
    assert len(caught) == 1
    assert caught[0].filename == __file__
    assert "more times in this call" in str(caught[0].message)
    ev = bm.evaluate(frame["y"], frame["p"])
    _, caught = _caught(lambda: ev.to_dict())
    assert len(caught) == 1 and caught[0].filename == __file__
    assert str(caught[0].message).startswith("bedroc:")
