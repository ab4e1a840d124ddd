"""Every measure as it was before the speed work of issue 32 (tests/data/measure_values.json,
written by tests/data/make_measure_values.py from the main branch's code): on continuous,
tied, integer-weighted, real-weighted and extreme (0, 1, 1e-300, 1 - 1e-16) scores each
value is the same, to 1e-12 relative (bit for bit where the arithmetic is exact): by
NumPy, and by the compiled loops that large tables take (forced here at this size, with
blocks of 97 rows and the logistic fits' compressed path from 100 rows, so that every
compiled loop runs)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import binmetrics as bm
from binmetrics.backends import use_compiled
from binmetrics.exceptions import undefined_policy
from binmetrics.measures import logistic_fit as lf
from binmetrics.table import counts

BEFORE = json.loads((Path(__file__).parents[1] / "data" / "measure_values.json").read_text())


@pytest.mark.parametrize("compiled", [False, True], ids=["numpy", "compiled"])
@pytest.mark.parametrize("name", sorted(BEFORE))
def test_every_measure_keeps_its_value(name: str, compiled: bool,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    if compiled:
        monkeypatch.setattr(counts, "CHUNK", 97)
        monkeypatch.setattr(lf, "SMALL_TABLE", 100)
    d = BEFORE[name]["data"]
    with undefined_policy("ignore"), use_compiled(compiled):
        ev = bm.evaluate(d["y"], d["s"], sample_weight=d.get("w"), undefined="ignore")
        now = ev.to_dict()
    before = BEFORE[name]["values"]
    missing = sorted(set(before) - set(now))
    assert not missing, f"measures gone from to_dict(): {missing}"
    wrong = []
    for k, v in before.items():
        x = float(now[k])
        if math.isnan(v) and math.isnan(x):
            continue
        if not (x == v or math.isclose(x, v, rel_tol=1e-12, abs_tol=1e-300)):
            wrong.append(f"{k}: {v!r} before, {x!r} now")
    assert not wrong, "\n".join(wrong)
