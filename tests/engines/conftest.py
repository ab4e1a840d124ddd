"""What the engine tests share: the local Spark session of their Spark modules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

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
