"""Issue 33, point 2: intervals of binned scores give what they can. The bootstrap of a
table of bin representatives cannot give the probabilistic measures (their exact values
come from the raw sums), so ``ci_table`` leaves those without an interval, names them
once with the reason, and gives every other measure its interval."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.engines import binned_table


@pytest.fixture(scope="module")
def data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(8)
    y = (rng.random(3000) < 0.3).astype(int)
    return y, np.clip(rng.random(3000) * 0.6 + 0.3 * y, 0, 1)


def test_binned_ci_table_gives_what_it_can(data: tuple[np.ndarray, np.ndarray]) -> None:
    y, p = data
    binned = bm.Evaluation(binned_table(y, p, decimals=2))
    chosen = ["auc", "mcc", "brier", "log_loss", "tpr"]
    with pytest.warns(bm.MeasureCaveatWarning) as caught:
        table = binned.ci_table(chosen, n_resamples=200, random_state=0)
    texts = [str(w.message) for w in caught if issubclass(w.category, bm.MeasureCaveatWarning)]
    assert texts == ["brier, log_loss: no interval: resampling binned scores (decimals=2) "
                     "would use the bin representatives, not the raw scores; their values are "
                     "exact (the engine summed the raw scores), evaluate the exact scores for "
                     "their intervals"]
    rows = table.set_index("id")
    for m in ("brier", "log_loss"):  # the value is there, exact; no interval
        assert rows.loc[m, "method"] == "none"
        assert np.isnan(rows.loc[m, "low"]) and np.isnan(rows.loc[m, "high"])
        assert rows.loc[m, "value"] == pytest.approx(bm.evaluate(y, p)[m], rel=1e-12)
    # the others: the same intervals as without the probabilistic measures
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        alone = binned.ci_table(["auc", "mcc", "tpr"], n_resamples=200,
                                random_state=0).set_index("id")
    for m in ("auc", "mcc", "tpr"):
        assert rows.loc[m, "method"] == alone.loc[m, "method"] != "none"
        assert (rows.loc[m, "low"], rows.loc[m, "high"]) == (alone.loc[m, "low"],
                                                              alone.loc[m, "high"])
    with pytest.raises(ValueError, match="brier: resampling binned scores"):
        binned.ci("brier")  # asked for alone: still a clear error


def test_exact_scores_unchanged(data: tuple[np.ndarray, np.ndarray]) -> None:
    y, p = data
    table = bm.evaluate(y, p).ci_table(["brier", "auc"], n_resamples=100, random_state=0)
    assert (table["method"] != "none").all() and table["low"].notna().all()
