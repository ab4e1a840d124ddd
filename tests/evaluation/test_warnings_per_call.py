"""One warning per cause per call (issue 26, requirement 9): the three logistic
calibration fits share one warning naming the measures computed in the call, and a
caveat that needs a judgement (BEDROC's comparability) is given only to those who
asked for the measure by name, in Python and through the command line."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.cli import main
from binmetrics.data import example_path
from binmetrics.exceptions import Deferred, caveats_once, report_caveat

FITS = ("calibration_slope", "calibration_intercept", "calibration_in_the_large")
FIT_CAUSE = "left out of the logistic calibration fit"


@pytest.fixture(scope="module")
def screening() -> pd.DataFrame:
    return pd.read_csv(example_path("screening"))


def _warnings(fn: Callable[[], Any]) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [str(w.message) for w in caught]


def _named(message: str) -> list[str]:
    return message.split(":", 1)[0].split(", ")


def test_every_measure_of_the_example_warns_once_for_the_fits(screening):
    edge = int(((screening["p"] == 0) | (screening["p"] == 1)).sum())
    assert edge == 6  # the example's cases at p exactly 0 or 1, counted here
    ev = bm.evaluate(screening, label="y", score="p")
    got = _warnings(ev.to_dict)
    assert len(got) == 1, got  # nothing else: no BEDROC caveat in the table of everything
    assert FIT_CAUSE in got[0] and got[0].split(": ", 1)[1].startswith(f"{edge} cases")
    assert _named(got[0]) == list(FITS)
    assert _warnings(lambda: bm.evaluate(screening, label="y", score="p").to_frame()) == got


@pytest.mark.parametrize("measure", FITS)
def test_one_fit_asked_for_names_that_one(screening, measure):
    ev = bm.evaluate(screening, label="y", score="p")
    got = _warnings(lambda: ev.value(measure))
    assert len(got) == 1 and FIT_CAUSE in got[0] and _named(got[0]) == [measure], got
    other = next(m for m in FITS if m != measure)  # the shared fit is cached: still named
    got = _warnings(lambda: ev[other])
    assert len(got) == 1 and _named(got[0]) == [other], got


def test_two_fits_in_one_call_share_one_warning(screening):
    ev = bm.evaluate(screening, label="y", score="p")
    got = _warnings(lambda: ev.to_dict(measures=["citl", "auc", "calibration_slope"]))
    assert len(got) == 1 and _named(got[0]) == ["calibration_in_the_large",
                                                "calibration_slope"], got


def test_bedroc_caveat_only_when_asked_for(screening):
    ev = bm.evaluate(screening, label="y", score="p")
    got = _warnings(lambda: ev.value("bedroc"))
    assert len(got) == 1 and got[0].startswith("bedroc: alpha * Ra = 2.04 > 1"), got
    assert _warnings(lambda: ev.value("bedroc")) == []  # cached: told once
    got = _warnings(lambda: bm.evaluate(screening, label="y", score="p").to_dict(
        measures=["bedroc", "auc"]))
    assert len(got) == 1 and got[0].startswith("bedroc:"), got
    assert _warnings(lambda: bm.evaluate(screening, label="y", score="p").to_dict("ranking")) == []


def test_bedroc_computed_for_a_table_warns_when_asked_for_later(screening):
    ev = bm.evaluate(screening, label="y", score="p")
    assert not any(m.startswith("bedroc") for m in _warnings(ev.to_dict))
    got = _warnings(lambda: ev["bedroc"])
    assert len(got) == 1 and got[0].startswith("bedroc:"), got
    assert _warnings(lambda: ev["bedroc"]) == []


def test_groups_say_it_once_with_how_often(screening):
    frame = screening.assign(g=screening.index % 3)
    got = _warnings(lambda: bm.evaluate_by(frame, label="y", score="p", by="g"))
    fits = [m for m in got if FIT_CAUSE in m]
    assert len(fits) == 1 and _named(fits[0]) == list(FITS), got
    groups_with_edges = sum(((g["p"] == 0) | (g["p"] == 1)).any() for _, g in frame.groupby("g"))
    if groups_with_edges > 1:
        assert f"(and {groups_with_edges - 1} more time" in fits[0]
    assert not any(m.startswith("bedroc") for m in got)
    got = _warnings(lambda: bm.evaluate_by(frame, label="y", score="p", by="g",
                                           measures=["bedroc"]))
    assert len(got) == 1 and got[0].startswith("bedroc:"), got


def test_a_shared_cause_merges_across_held_work():
    """Work done in threads is held (Deferred) and replayed: the shared cause still
    gives one warning naming every measure, each counted once per piece of work."""
    def piece(measure: str) -> Deferred:
        with Deferred() as held:
            report_caveat(measure, "2 cases left out", cause="edge")
        return held

    def run() -> None:
        with caveats_once():
            held = [piece("slope"), piece("intercept"), piece("slope")]
            for h in held:
                h.replay()

    assert _warnings(run) == ["slope, intercept: 2 cases left out (and 1 more time in this "
                              "call)"]


# --- the command line ------------------------------------------------------------------
def _cli_warnings(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    assert main(["evaluate", "--example", "screening", *argv]) == 0
    err = capsys.readouterr().err
    return [line.removeprefix("warning: ") for line in err.splitlines()
            if line.startswith("warning: ")]


def test_cli_default_table_warns_once(capsys):
    got = _cli_warnings(capsys)
    assert len(got) == 1 and FIT_CAUSE in got[0] and _named(got[0]) == list(FITS), got


def test_cli_names_the_measures_asked_for(capsys):
    got = _cli_warnings(capsys, "--measures", "bedroc")
    assert len(got) == 1 and got[0].startswith("bedroc: alpha * Ra"), got
    got = _cli_warnings(capsys, "--measures", "auc,calibration_intercept,bedroc")
    assert sorted(_named(m)[0] for m in got) == ["bedroc", "calibration_intercept"], got
    assert all(len(_named(m)) == 1 for m in got), got
    got = _cli_warnings(capsys, "--measures", "calibration_slope", "--format", "json")
    assert len(got) == 1 and _named(got[0]) == ["calibration_slope"], got
