"""One measure, one declaration: a measure registered here, with its fast paths, goes
through the bootstrap (its vectorised kernel), multiclass evaluation (its native form),
a binned DuckDB evaluation (the raw sums it declares) and the HTML report, with no
other change to the library. docs/architecture.md walks through this file.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.measures.multiclass import MulticlassData
from binmetrics.measures.registry import register, unregister
from binmetrics.measures.sums import RawSum, SumGroup, table_sums
from binmetrics.table import CountTable

KERNEL_CALLS: list[int] = []


# --- a ranking measure with a resampling kernel ------------------------------------------
def auc_squared(t: CountTable) -> float:
    """The AUC squared (a throwaway measure)."""
    return bm.get_measure("auc").func(t) ** 2


def auc_squared_kernel(pos: Any, neg: Any) -> Any:
    """AUC^2 of every row of (replicates x groups) count matrices."""
    KERNEL_CALLS.append(pos.shape[0])
    pos = pos.astype(np.float64)
    neg = neg.astype(np.float64)
    below = neg.sum(axis=1)[:, None] - np.cumsum(neg, axis=1)  # negatives under each group
    with np.errstate(divide="ignore", invalid="ignore"):
        auc = (pos * (below + neg / 2)).sum(axis=1) / (pos.sum(axis=1) * neg.sum(axis=1))
    return auc**2


# --- a probabilistic measure with engine sums and a multiclass form ------------------------
def _cube_bound(low: float, high: float) -> float:
    return (1.0 + max(abs(low), abs(high))) ** 3


CUBIC = SumGroup("throwaway_cubic", "the cubic error", (
    RawSum("throwaway_pos_miss3", "pos", "((1.0 - x) * (1.0 - x) * (1.0 - x))",
           lambda x, _pos, _pi: (1.0 - x) ** 3, _cube_bound),
    RawSum("throwaway_neg_p3", "neg", "(x * x * x)", lambda x, _pos, _pi: x**3, _cube_bound),
))


def cubic_error(t: CountTable) -> float:
    """Mean cubed distance between label and probability (a throwaway measure)."""
    pos_part, neg_part = table_sums(t, CUBIC)
    return (pos_part + neg_part) / t.total


def cubic_error_multiclass(data: MulticlassData) -> float:
    """(1/n) sum_i sum_j |o_ij - f_ij|^3 over the k classes."""
    d = data.proba.copy()
    d[np.arange(d.shape[0]), data.codes] -= 1.0
    return float(np.average((np.abs(d) ** 3).sum(axis=1), weights=data.weight))


@pytest.fixture(scope="module", autouse=True)
def throwaway() -> Iterator[None]:
    register("throwaway_auc2", name="AUC squared (test)", family="ranking", direction=1,
             range=(0.0, 1.0), source="tests/measures/test_register_measure.py", formula="AUC^2",
             binning_bound="refinements", resampling_kernel=auc_squared_kernel,
             plot="roc")(auc_squared)
    # the same measure without its kernel, to compare the two resampling paths
    register("throwaway_auc2_nokernel", name="AUC squared, no kernel (test)", family="ranking",
             direction=1, range=(0.0, 1.0), source="tests/measures/test_register_measure.py",
             formula="AUC^2")(auc_squared)
    register("throwaway_cubic", name="Cubic error (test)", family="probabilistic",
             direction=-1, range=(0.0, 1.0), source="tests/measures/test_register_measure.py",
             formula="(1/n) sum |y - p|^3", needs_probabilities=True, sums=(CUBIC,),
             multiclass=cubic_error_multiclass, plot="reliability")(cubic_error)
    yield
    for mid in ("throwaway_auc2", "throwaway_auc2_nokernel", "throwaway_cubic"):
        unregister(mid)


def _data(n: int = 400, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    p = np.clip(np.round(rng.beta(2, 3, n) + 0.25 * y, 3), 0.0, 1.0)  # ties
    w = rng.integers(1, 4, n).astype(float)
    return y.astype(int), p, w


def test_values_on_the_count_table() -> None:
    y, p, w = _data()
    ev = bm.evaluate(y, p, sample_weight=w)
    assert ev["throwaway_auc2"] == pytest.approx(ev["auc"] ** 2, rel=1e-15)
    want = np.average(np.abs(y - p) ** 3, weights=w)
    assert ev["throwaway_cubic"] == pytest.approx(want, rel=1e-12)
    # p clipped to exactly 0 or 1 for some cases: the calibration fits say they leave
    # them out, once
    with pytest.warns(bm.MeasureCaveatWarning, match="left out of the logistic calibration"):
        assert "throwaway_cubic" in ev.to_dict()
    assert "throwaway_auc2" in bm.measure_catalogue().id.tolist()


def test_bootstrap_uses_the_declared_kernel() -> None:
    y, p, w = _data(seed=1)
    ev = bm.evaluate(y, p, sample_weight=w)
    KERNEL_CALLS.clear()
    fast = ev.ci("throwaway_auc2", n_resamples=300, random_state=3)
    assert sum(KERNEL_CALLS) >= 300  # every replicate went through the kernel
    slow = ev.ci("throwaway_auc2_nokernel", n_resamples=300, random_state=3)
    assert fast.estimate == slow.estimate
    assert (fast.low, fast.high) == pytest.approx((slow.low, slow.high), rel=1e-12)
    assert fast.low < ev["throwaway_auc2"] < fast.high


def test_multiclass_uses_the_native_form() -> None:
    rng = np.random.default_rng(2)
    n, k = 300, 3
    proba = rng.dirichlet(np.ones(k), n)
    y = rng.integers(0, k, n)
    mev = bm.evaluate(y, proba)
    d = proba.copy()
    d[np.arange(n), y] -= 1.0
    assert mev["throwaway_cubic"] == pytest.approx((np.abs(d) ** 3).sum(axis=1).mean(),
                                                   rel=1e-12)
    assert "throwaway_cubic" in bm.evaluation.multiclass.NATIVE_MEASURES
    # one-vs-rest on request: the binary measure on each class's column, averaged
    per_class = [bm.evaluate((y == c).astype(int), proba[:, c])["throwaway_cubic"]
                 for c in range(k)]
    assert mev.value("throwaway_cubic", average="macro") == pytest.approx(
        np.mean(per_class), rel=1e-12)


def test_binned_duckdb_is_exact_for_the_declared_sums(tmp_path: Path) -> None:
    pytest.importorskip("duckdb")
    y, p, w = _data(n=2000, seed=4)
    path = tmp_path / "preds.parquet"
    pd.DataFrame({"y": y, "p": p, "w": w}).to_parquet(path)
    exact = bm.evaluate(y, p, sample_weight=w)
    binned = bm.evaluate_file(str(path), label="y", score="p", weight="w", decimals=1)
    assert binned.table.n_distinct < exact.table.n_distinct  # really binned
    assert binned["throwaway_cubic"] == pytest.approx(exact["throwaway_cubic"], rel=1e-12)
    assert binned.binning_error("throwaway_cubic") == 0.0
    # the ranking measure is bounded by its declared binning bound
    low, high = bm.engines.value_bounds(binned, "throwaway_auc2")
    assert low <= exact["throwaway_auc2"] <= high and low < high


def test_in_the_report_with_its_chart() -> None:
    y, p, w = _data(seed=5)
    ev = bm.evaluate(y, p, sample_weight=w)
    with pytest.warns(bm.MeasureCaveatWarning, match="left out of the logistic calibration"):
        page = bm.report(ev)  # p exactly 0 or 1 for some cases (clipped)
    assert "throwaway_cubic" in page and "Cubic error (test)" in page
    assert "throwaway_auc2" in page
    assert "data-chart='roc'" in page


def test_declared_plot_kind_draws() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    y, p, _ = _data(seed=6)
    ax = bm.evaluate(y, p).plot("throwaway_auc2")  # the measure's declared kind: roc
    assert "ROC" in ax.get_title() or ax.get_xlabel().lower().startswith("false")
