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

