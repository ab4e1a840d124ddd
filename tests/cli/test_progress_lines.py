"""Progress off a terminal from the command line: lines with the share done, and SRD's."""

from __future__ import annotations

import numpy as np
import pandas as pd


def test_progress_lines_off_a_terminal(cli, preds):
    argv = ("evaluate", str(preds), "--label", "y", "--score", "p", "--measures", "mcc",
            "--ci", "--resamples", "500", "--seed", "0")
    p = cli(*argv, "--progress", "always")
    assert p.returncode == 0
    assert "bootstrap: 500/500 (100%) done in" in p.stderr, p.stderr
    quiet = cli(*argv, "--progress", "never")
    assert quiet.stderr == "" and quiet.stdout == p.stdout


def test_srd_reports_progress(cli, tmp_path):
    path = tmp_path / "t.csv"
    rng = np.random.default_rng(0)
    pd.DataFrame(rng.normal(size=(12, 4)).round(3), columns=list("abcd")).to_csv(path,
                                                                               index=False)
    argv = ("srd", str(path), "--cv", "4", "--seed", "0")
    p = cli(*argv, "--progress", "always")
    assert p.returncode == 0, p.stderr
    assert "srd randomization: 4/4 (100%) done in" in p.stderr, p.stderr
    assert "srd cross-validation: 4/4 (100%) done in" in p.stderr, p.stderr
    quiet = cli(*argv, "--progress", "never")
    assert quiet.stderr == "" and quiet.stdout == p.stdout

