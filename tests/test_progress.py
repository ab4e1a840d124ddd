"""Progress reports (``binmetrics.progress``): lines with the share done and the time left
off a terminal, silence for short work, and the SRD analyses' callbacks."""

from __future__ import annotations

import numpy as np
import pandas as pd

import binmetrics as bm


def test_progress_off_a_terminal_is_lines_with_share_and_time_left(scored_frame, capsys):
    ev = bm.evaluate(scored_frame["y"], scored_frame["p"])
    ev.ci_table(["mcc"], n_resamples=400, random_state=0, progress=True)
    err = capsys.readouterr().err
    assert "bootstrap:" in err and "%" in err and "done in" in err
    ev2 = bm.evaluate(scored_frame["y"], scored_frame["q"])
    ev2.ci_table(["mcc"], n_resamples=50, random_state=0, progress="auto")  # short: silent
    assert capsys.readouterr().err == ""


def test_srd_randomization_and_cross_validation_report_progress():
    rng = np.random.default_rng(1)
    table = pd.DataFrame(rng.normal(size=(12, 3)), columns=list("abc"))
    res = bm.srd(table)
    seen: list[tuple[int, int]] = []
    rt = res.randomization(random_state=0, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (3, 3) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    seen.clear()
    res.randomization(null="rsrd", n_resamples=5000, random_state=0,
                      progress=lambda d, t: seen.append((d, t)))
    assert (5000, 5000) in seen and seen[-1] == (3, 3)  # the simulation, then the columns
    seen.clear()
    cv = res.cross_validate("kfold", k=4, random_state=0,
                            progress=lambda d, t: seen.append((d, t)))
    assert seen == [(i, 4) for i in range(1, 5)] and len(cv.folds) == 4
    quiet = res.randomization(random_state=0, progress=False)
    pd.testing.assert_frame_equal(quiet.to_frame(), rt.to_frame())  # progress changes nothing



def test_interactive_default_is_silent_off_a_terminal_and_a_bar_on_one(scored_frame, capsys,
                                                                         monkeypatch):
    """ci_table, ci and summary default to progress="interactive": nothing in a log, a
    bar when someone watches (stderr a terminal, or a notebook)."""
    from binmetrics import progress

    ev = bm.evaluate(scored_frame["y"], scored_frame["p"])
    monkeypatch.setattr(progress, "QUIET_FOR", 0.0)
    ev.ci_table(["mcc"], n_resamples=400, random_state=0)
    ev.summary(n_resamples=100, random_state=0)
    assert capsys.readouterr().err == ""
    opened: list[tuple[int, str, object]] = []

    def bar(total: int, desc: str, enabled: object) -> object:
        opened.append((total, desc, enabled))
        return progress._NoBar()

    monkeypatch.setattr(progress, "interactive", lambda: True)
    monkeypatch.setattr(progress, "progress_bar", bar)
    ev.ci("mcc", n_resamples=100, random_state=0)
    assert opened == [(100, "bootstrap", "interactive")]
    assert progress._mode("interactive") == "auto"
    monkeypatch.setattr(progress, "interactive", lambda: False)
    assert progress._mode("interactive") == "never"
