"""Engines: the count table from in-memory batches, files (DuckDB) or Spark.

The count table is the contract (docs/architecture.md, "Where users outgrow one machine"):
every engine groups by (group keys..., score) into positive and negative weights
and hands the table to the same :class:`~binmetrics.Evaluation`, so results agree
with :func:`binmetrics.evaluate` on the same data.

* :class:`Accumulator`: streaming batches, mergeable across workers.
* :func:`evaluate_file`: CSV/Parquet files and globs, out of core, with DuckDB.
* :func:`evaluate_spark`: a pyspark DataFrame, grouped on the cluster.
* :func:`evaluate_polars`: a Polars LazyFrame, grouped by Polars' streaming engine.
* :func:`evaluate_dask`: a Dask DataFrame, per-partition tables merged in a tree.
* :func:`monitor`: measures over sliding time windows, tested against a reference period.
* :func:`estimate_performance`: performance estimated from calibrated probabilities (CBPE).
* ``decimals=`` / ``bins=``: binned scores with exact error bounds
  (:mod:`binmetrics.table.binning`, :func:`binned_table`, :mod:`binmetrics.evaluation.bounds`).
"""

# Imported here, not on first use as in the other packages (binmetrics.package):
# importing files and spark registers their engines with the registry.
from binmetrics.engines.binning import binned_table
from binmetrics.engines.dask_engine import evaluate_dask
from binmetrics.engines.files import evaluate_file
from binmetrics.engines.monitoring import MonitorResult, monitor
from binmetrics.engines.performance import PerformanceEstimate, estimate_performance
from binmetrics.engines.polars_engine import evaluate_polars
from binmetrics.engines.registry import FileEngine, file_engines, get_engine, register_engine
from binmetrics.engines.spark import evaluate_spark
from binmetrics.engines.stream import Accumulator
from binmetrics.evaluation.bounds import error_bounds, value_bounds
from binmetrics.table.binning import Binning, BinSpec

__all__ = [
    "Accumulator",
    "BinSpec",
    "Binning",
    "FileEngine",
    "MonitorResult",
    "PerformanceEstimate",
    "binned_table",
    "error_bounds",
    "estimate_performance",
    "evaluate_dask",
    "evaluate_file",
    "evaluate_polars",
    "evaluate_spark",
    "file_engines",
    "get_engine",
    "monitor",
    "register_engine",
    "value_bounds",
]
