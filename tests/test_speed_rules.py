"""Issue 18's behavioural rules (no timings here): joblib workers that binmetrics
starts get one BLAS thread each, and ``import binmetrics`` loads no heavy library."""

from __future__ import annotations

import subprocess
import sys

import pytest

from binmetrics.backends import parallel


def test_joblib_workers_get_one_blas_thread() -> None:
    joblib = pytest.importorskip("joblib")
    assert parallel(2)._backend.inner_max_num_threads == 1
    # a limit the user chose is kept
    with joblib.parallel_config(backend="loky", inner_max_num_threads=3):
        assert parallel(2)._backend.inner_max_num_threads == 3
    # a backend without the limit (threads share the process) is left alone
    with joblib.parallel_config(backend="threading"):
        assert type(parallel(2)._backend).__name__ == "ThreadingBackend"
