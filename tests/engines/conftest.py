"""What the engine tests share: the local Spark session of their Spark modules, and the
comparison of two monitors' frames to rounding."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest


@pytest.fixture(scope="module")
def spark(request: pytest.FixtureRequest) -> Iterator[Any]:
    """A local[2] Spark session for one test module (quiet, one shuffle partition, Arrow,
    no adaptive plans), with the module's ``SPARK_CONF`` mapping on top; stopped when
    the module is done."""
    from pyspark.sql import SparkSession

    builder = (SparkSession.builder.master("local[2]").appName("binmetrics-tests")
               .config("spark.sql.shuffle.partitions", "1")
               .config("spark.default.parallelism", "2")
               .config("spark.sql.execution.arrow.pyspark.enabled", "true")
               .config("spark.sql.adaptive.enabled", "false")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false"))
    for key, value in getattr(request.module, "SPARK_CONF", {}).items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def frames_close():
    """``frames_close(got, want)``: two monitors' frames with the same columns, the float
    columns equal to 1e-12 (relative, and absolute on the column's scale: weights summed
    in another order change values near 0 by rounding), the others exactly."""

    def check(got: Any, want: Any) -> None:
        assert list(got.columns) == list(want.columns)
        for c in want.columns:
            if want[c].dtype.kind == "f":
                scale = max(1.0, float(np.abs(want[c].fillna(0.0)).max()))
                np.testing.assert_allclose(got[c], want[c], rtol=1e-12, atol=1e-12 * scale,
                                           err_msg=c)
            else:
                assert list(got[c]) == list(want[c]), c

    return check
