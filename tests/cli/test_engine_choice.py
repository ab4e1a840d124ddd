"""The command line's engine path around Spark, without starting Spark: a session the
command started is stopped when the job cannot be built (review 7), and the message
names the file rather than "the Spark DataFrame"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from binmetrics.cli import main

pytest.importorskip("pyspark")


class _Field:
    def __init__(self, name: str, data_type: Any) -> None:
        self.name, self.dataType = name, data_type


class _Frame:
    """Enough of a pyspark DataFrame for SparkJob's column checks."""

    def __init__(self, session: Any) -> None:
        from pyspark.sql import types as T

        self.sparkSession = session
        self.schema = type("Schema", (), {"fields": [
            _Field("y", T.LongType()), _Field("p", T.DoubleType())]})()

    def groupBy(self, *cols: Any) -> Any:
        raise AssertionError("no query should run")


class _Session:
    def __init__(self) -> None:
        self.stopped = 0
        self.read = self

    def parquet(self, path: str) -> _Frame:
        return _Frame(self)

    def stop(self) -> None:
        self.stopped += 1


class _Builder:
    def __init__(self, session: _Session) -> None:
        self.session = session

    def master(self, *a: Any) -> _Builder:
        return self

    def appName(self, *a: Any) -> _Builder:
        return self

    def config(self, *a: Any) -> _Builder:
        return self

    def getOrCreate(self) -> _Session:
        return self.session


@pytest.mark.parametrize("running", [False, True])
def test_spark_session_stopped_when_the_job_fails(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path, running: bool) -> None:
    from pyspark.sql import SparkSession

    session = _Session()
    monkeypatch.setattr(SparkSession, "builder", _Builder(session))
    monkeypatch.setattr(SparkSession, "getActiveSession",
                        classmethod(lambda cls: session if running else None))
    path = tmp_path / "scores.parquet"
    path.write_bytes(b"")  # read by the fake session only
    code = main(["evaluate", str(path), "--label", "y", "--score", "nope", "--engine", "spark"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"score column 'nope' not found in '{path}'" in err and "Spark DataFrame" not in err
    assert session.stopped == (0 if running else 1)  # a session running before is the user's
