"""Issue 33, point 5: the lowess measures (ICI, E50, E90, Emax) keep their 100,000-row
default (their cost would dominate ``to_dict()`` beyond it: issue 32), are reachable at any
size from Python and from the command line, and the limit's warning names the CLI syntax."""

from __future__ import annotations

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.measures.lowess import LOWESS_MAX_ROWS


def test_default_limit_is_the_documented_one() -> None:
    assert LOWESS_MAX_ROWS == 100_000
    for mid in ("ici", "e50", "e90", "emax"):
        assert bm.get_measure(mid).params["max_rows"] == LOWESS_MAX_ROWS


@pytest.mark.slow
def test_past_the_limit_when_asked() -> None:
    rng = np.random.default_rng(0)
    n = 150_000
    p = rng.random(n)
    ev = bm.evaluate(rng.random(n) < p, p)
    for mid in ("ici", "e50", "e90", "emax"):
        value = ev.value(f"{mid}(max_rows=none)")  # the --measures syntax
        assert np.isfinite(value) and value == ev.value(mid, max_rows=None)


def test_limit_message_names_the_command_line() -> None:
    rng = np.random.default_rng(1)
    p = rng.random(300)
    ev = bm.evaluate(rng.random(300) < p, p)
    with pytest.warns(bm.UndefinedMeasureWarning,
                      match=r"--measures 'e90\(max_rows=none\)'"):
        assert np.isnan(ev.value("e90", max_rows=100))
    assert ev.value("e90(max_rows=none)") == ev.value("e90", max_rows=None)
