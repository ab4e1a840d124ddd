"""Extreme weights (1e308, 5e-324) are rescaled by a power of two inside, so that no
sum overflows or underflows; what is printed (the Evaluation's and a Confusion's repr,
the CLI's weights and confusion lines, text and JSON) is in the weights' own unit. The
CLI said ``weights: total 2.225073859`` and ``tp=0.556`` for weights of 1e308, and
``"weight_total": 2`` for 5e-324 (docs/conventions.md, "Weights")."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.cli import main
from binmetrics.validation import in_user_units

Y = [1, 0, 1, 0, 1, 0, 0, 0]
P = [.9, .2, .6, .7, .3, .1, .8, .4]  # at 0.5: tp 2, fp 2, fn 1, tn 3


def _exact(x: float | str) -> Fraction:
    return Fraction(x) if isinstance(x, str) else Fraction(float(x))


@pytest.mark.parametrize("w", [1e308, 5e-324, 3e-310, 2.0**200])
def test_counts_come_back_in_the_weights_unit(w: float) -> None:
    ev = bm.evaluate(Y, P, sample_weight=[w] * len(Y))
    t = ev.table
    assert t.weight_exponent != 0
    c = ev.confusion
    for got, cases in [(t.in_user_units(c.tp), 2), (t.in_user_units(c.fp), 2),
                       (t.in_user_units(c.fn), 1), (t.in_user_units(c.tn), 3),
                       (t.in_user_units(t.total), 8), (t.in_user_units(t.P), 3)]:
        want = Fraction(w) * cases  # exact; a string holds 10 digits
        assert abs(_exact(got) - want) <= want * Fraction(1, 10**9), (got, cases)
    # the measures do not change
    assert ev["tpr"] == pytest.approx(2 / 3) and ev["fpr"] == pytest.approx(2 / 5)


def test_ordinary_weights_are_not_touched() -> None:
    ev = bm.evaluate(Y, P, sample_weight=[2.5] * len(Y))
    assert ev.table.weight_exponent == 0
    assert ev.table.in_user_units(ev.table.total) == 20.0
    assert repr(ev).splitlines()[0] == (
        "Evaluation(n=20, positives=7.5, threshold=0.5, tp=5.0, fp=5.0, fn=2.5, tn=7.5)")


def test_in_user_units_is_exact_or_a_string() -> None:
    assert in_user_units(1.0, 1074) == 5e-324
    assert in_user_units(0.5, 1074) == "2.470328229e-324"  # below the smallest float
    assert in_user_units(0.75, -1024) == math.ldexp(0.75, 1024)
    assert in_user_units(1.5, -1024) == "2.696539702e+308"  # past the largest float
    assert in_user_units(0.0, -1024) == 0.0
    assert in_user_units(3.0, 0) == 3.0


def test_the_evaluation_repr_is_in_the_users_unit() -> None:
    head = repr(bm.evaluate(Y, P, sample_weight=[1e308] * len(Y))).splitlines()[0]
    assert head == ("Evaluation(n=8e+308, positives=3e+308, threshold=0.5, tp=2e+308, "
                    "fp=2e+308, fn=1e+308, tn=3e+308)")
    head = repr(bm.evaluate(Y, P, sample_weight=[5e-324] * len(Y))).splitlines()[0]
    assert "n=3.95253e-323" in head and "fn=4.94066e-324" in head


def test_the_confusion_repr_says_the_unit() -> None:
    c = bm.evaluate(Y, P, sample_weight=[1e308] * len(Y)).confusion
    assert c.weight_exponent == -1024
    r = repr(c)
    assert "tp=2e+308" in r and "fn=1e+308" in r and "times 2**-1024" in r
    assert repr(bm.evaluate(Y, P).confusion) == "Confusion(tp=2, fp=2, fn=1, tn=3)"


def test_the_engines_and_streams_keep_the_unit(tmp_path: Path) -> None:
    path = tmp_path / "w.csv"
    pd.DataFrame({"y": Y, "p": P, "w": [1e308] * len(Y)}).to_csv(path, index=False)
    ev = bm.evaluate_file(path, label="y", score="p", weight="w")
    assert ev.table.in_user_units(ev.table.total) == "8e+308"
    acc = bm.Accumulator()
    acc.update(np.array(Y), np.array(P), sample_weight=np.full(len(Y), 1e308))
    assert acc.table.in_user_units(acc.table.total) == "8e+308"


@pytest.fixture
def weighted_csv(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for name, w in [("big", 1e308), ("tiny", 5e-324)]:
        out[name] = tmp_path / f"{name}.csv"
        pd.DataFrame({"y": Y, "p": P, "w": [w] * len(Y)}).to_csv(out[name], index=False)
    return out


def _run(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    code = main(["evaluate", str(path), "--label", "y", "--score", "p", "--weight", "w",
                 "--measures", "tpr", *extra])
    out = capsys.readouterr().out
    assert code == 0
    return out


def test_cli_text_shows_the_users_totals(weighted_csv: dict[str, Path],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(weighted_csv["big"], capsys)
    assert "weights:    column 'w'; total 8e+308, positives 3e+308" in out
    assert "confusion:  tp=2e+308  fp=2e+308  fn=1e+308  tn=3e+308" in out


def test_cli_json_shows_the_users_totals(weighted_csv: dict[str, Path],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    obj = json.loads(_run(weighted_csv["tiny"], capsys, "--format", "json"))
    assert obj["weight_total"] == 8 * 5e-324 and obj["weight_positives"] == 3 * 5e-324
    assert obj["confusion"] == {"tp": 2 * 5e-324, "fp": 2 * 5e-324, "fn": 5e-324,
                                "tn": 3 * 5e-324}
    obj = json.loads(_run(weighted_csv["big"], capsys, "--format", "json"))
    # past the largest float: a 10-digit string rather than a wrong or infinite number
    assert obj["weight_total"] == "8e+308" and obj["confusion"]["fn"] == 1e308
