"""What a plain ``pip install -e .`` resolves (pandas 3.x today) works without warnings
(issue 26, requirement 8): the CLI's CSV reader reads every score exactly and warns on
no pandas version, and a warning the caller's filters make an error stays one in the
CLI, which otherwise prints the warnings it records (how .ci/run's second job sees a
deprecated call)."""

from __future__ import annotations

import io
import warnings

import numpy as np
import pandas as pd
import pytest

from binmetrics.cli import main
from binmetrics.io import read_csv


def test_read_csv_reads_every_float_as_written_without_a_warning():
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.random(20000) ** 3, rng.normal(size=5000) * 1e-300,
                        [0.1, 0.30000000000000004, 5e-324, 1 - 2**-53]])
    text = "p\n" + "\n".join(repr(float(v)) for v in x) + "\n"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = read_csv(io.StringIO(text))["p"].to_numpy()
    expected = np.array([float(line) for line in text.split()[1:]])  # Python's own parser
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(got, x)


def test_cli_runs_the_example_without_a_deprecation(capsys):
    with warnings.catch_warnings():
        for category in (DeprecationWarning, PendingDeprecationWarning, FutureWarning):
            warnings.filterwarnings("error", category=category)
        assert main(["evaluate", "--example", "screening"]) == 0
    err = capsys.readouterr().err
    assert "deprecat" not in err.lower(), err


def test_cli_keeps_the_callers_error_filters(capsys, tmp_path):
    path = tmp_path / "s.csv"
    pd.DataFrame({"y": [0, 1, 0, 1], "p": [0.0, 0.9, 0.2, 0.7]}).to_csv(path, index=False)
    argv = ["evaluate", str(path), "--label", "y", "--score", "p",
            "--measures", "calibration_slope"]
    assert main(argv) == 0  # the caveat (p = 0 left out) is printed as a warning
    assert "warning: calibration_slope: 1 cases with p exactly 0" in capsys.readouterr().err
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="calibration_slope: ")
        assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("binmetrics: error: calibration_slope: 1 cases"), err
    assert "(MeasureCaveatWarning, an error under the warning filters)" in err


@pytest.mark.parametrize(("version", "inexact"), [("2.0.3", True), ("2.3.3", True),
                                                  ("3.0.0", True), ("3.1.0", False),
                                                  ("3.1.1", False), ("4.0.0.dev0", False)])
def test_round_trip_asked_of_the_pandas_versions_that_need_it(version, inexact):
    from binmetrics.io import _inexact_floats

    assert _inexact_floats(version) is inexact
