"""Group gaps from the per-group tables an engine builds (DuckDB): the same numbers and
the same replicates as evaluate_by in memory."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.engines import evaluate_file

pytest.importorskip("duckdb")


def test_duckdb_gaps_equal_the_in_memory_ones(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    n = 3000
    df = pd.DataFrame({"y": rng.integers(0, 2, n), "p": np.round(rng.random(n), 2),
                       "w": rng.integers(1, 4, n).astype(float),
                       "site": rng.choice(["east", "north", "south"], n),
                       "sex": rng.choice(["f", "m"], n)})
    path = tmp_path / "d.parquet"
    df.to_parquet(path)
    by = ["site", "sex"]
    got = evaluate_file(path, label="y", score="p", weight="w", by=by, measures=["tpr", "ppv"])
    want = bm.evaluate_by(df, label="y", score="p", weight="w", by=by, measures=["tpr", "ppv"])
    assert got.keys == want.keys
    for m in ("tpr", "ppv"):
        for method in ("between_groups", "to_overall"):
            assert got.difference(m, method=method) == pytest.approx(
                want.difference(m, method=method), abs=1e-12)
            assert got.ratio(m, method=method) == pytest.approx(
                want.ratio(m, method=method), abs=1e-12)
        a = got.difference(m, ci=True, n_resamples=200, random_state=3)
        b = want.difference(m, ci=True, n_resamples=200, random_state=3)
        np.testing.assert_allclose(a.replicates, b.replicates, atol=1e-12)
        assert a.pvalue == b.pvalue
    assert got.overall["tpr"] == pytest.approx(want.overall["tpr"], abs=1e-12)
