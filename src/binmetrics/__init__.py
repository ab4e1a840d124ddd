"""binmetrics: every performance measure for binary classifiers, exactly as the
source papers define them, from one mergeable count table.

>>> import binmetrics as bm
>>> ev = bm.evaluate([1, 0, 1, 0], [0.9, 0.4, 0.6, 0.5])
>>> ev["auc"], ev["sensitivity"]
(1.0, 1.0)
"""

# The public names are listed once, in __init__.pyi, which type checkers read; this
# module reads the same list and loads each name on first use (module-level
# __getattr__, the scientific Python lazy-loading convention, SPEC 1): ``import
# binmetrics`` then costs about as much as ``import numpy`` (issue 18), and pandas,
# scipy.stats, pyarrow, rich and matplotlib load only with the features that use them.
# Why a stub read at import and not a dict: binmetrics.package.

from binmetrics.package import attach_stub as _attach_stub

__getattr__, __dir__, __all__ = _attach_stub(__name__, __file__)


def _load_engines() -> None:
    """Declare the engines of frames that are not in memory (a Polars LazyFrame, a Dask
    DataFrame): ``bm.evaluate`` calls this the first time it is given one, so that data
    in memory never imports the engines (binmetrics.evaluation.frames)."""
    import binmetrics.engines  # noqa: F401  (importing it declares them)


def _attach_engine_loader() -> None:
    from binmetrics.evaluation.frames import set_engine_loader

    set_engine_loader(_load_engines)


_attach_engine_loader()
