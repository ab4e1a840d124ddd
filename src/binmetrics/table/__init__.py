"""The count table: the one state every measure is computed from (docs/architecture.md).

:class:`CountTable` holds, for each distinct score in descending order, the (weighted)
positives and negatives with that score; :class:`Confusion` is one cut of it.
:mod:`binmetrics.table.binning` describes tables of binned scores.
"""

from binmetrics.table.counts import Confusion, CountTable, HasTable, PositiveGroups

__all__ = ["Confusion", "CountTable", "HasTable", "PositiveGroups"]
