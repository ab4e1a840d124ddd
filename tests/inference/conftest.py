"""Fixtures shared by the resampling tests."""

from __future__ import annotations

import pytest

import binmetrics as bm
from binmetrics.inference import _replicates as rs


@pytest.fixture
def tables_built(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The replicates (one entry per bootstrap block, its size) for which the block's
    replicate tables were built: the measures with a faster path build none."""
    built: list[int] = []
    orig = rs._BootstrapBlock.tables

    def spy(self: rs._BootstrapBlock) -> list[bm.CountTable]:
        if "tables" not in self._cache:
            built.append(self.size)
        return orig(self)

    monkeypatch.setattr(rs._BootstrapBlock, "tables", spy)
    return built
