"""SIGTERM during a DuckDB query: the command stops with status 143, says so in one line,
and leaves no temporary folder behind (the process was killed with its spill folder in
place)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

SRC = str(Path(__file__).resolve().parents[2] / "src")


def test_sigterm_during_a_duckdb_query_removes_its_temporary_folder(tmp_path: Path) -> None:
    pytest.importorskip("duckdb")
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    rng = np.random.default_rng(0)
    n = 8_000_000
    data = tmp_path / "big.parquet"
    pq.write_table(pa.table({"y": rng.integers(0, 2, n), "p": rng.random(n)}), data)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(tmp),
           "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "binmetrics", "evaluate", str(data), "--label", "y",
         "--score", "p", "--engine", "duckdb", "--measures", "auc"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 60
    while not any(tmp.glob("binmetrics-duckdb-*")) and proc.poll() is None \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # into the query
    if proc.poll() is not None:
        pytest.skip("the command finished before the signal could be sent")
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert err.strip() == "binmetrics: terminated" and out == ""
    assert list(tmp.iterdir()) == []


FINALISER = """
import os, signal, sys, time
import binmetrics.cli.app as app

class Finalised:
    def __del__(self):
        os.kill(os.getpid(), getattr(signal, sys.argv[1]))  # raised in here
        for _ in range(1000):
            pass

def run(argv):
    Finalised()
    time.sleep(float(sys.argv[2]))  # 0: the command ends before the signal comes again
    print("finished")
    return 0

app._main = run
code = app.main([])
time.sleep(0.2)  # a signal sent again after the command's end would land here
sys.exit(code)
"""


@pytest.mark.parametrize(("sig", "status", "said"), [("SIGTERM", 143, "terminated"),
                                                    ("SIGINT", 130, "interrupted")])
def test_a_signal_inside_a_finaliser_still_stops_the_command(sig: str, status: int,
                                                             said: str) -> None:
    """Python ignores an exception raised inside ``__del__`` (numba's finalisers run
    while it loads its loops): SIGTERM or Ctrl-C arriving there used to print "Exception
    ignored" and let the command run on; the signal is sent again and stops it. A
    command that ends before the signal comes again reports it itself, and the signal
    is not raised in its process afterwards (the first fix sent it again as a signal,
    which killed the process: -15 or -2)."""
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", FINALISER, sig, "1.0"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == status, done.stderr
    assert done.stderr.strip() == f"binmetrics: {said}" and done.stdout == ""
    quick = subprocess.run([sys.executable, "-c", FINALISER, sig, "0"],
                           capture_output=True, text=True, env=env, timeout=60)
    assert quick.returncode == status, quick.stderr  # not -15 or -2: not killed after
    assert quick.stderr.strip() == f"binmetrics: {said}"
