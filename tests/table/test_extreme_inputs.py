"""Extreme weights and tables, and inputs that are not what they seem (issue 19).

* every measure (from the registry) is unchanged when the weights are multiplied by
  any power of two in [2**-1000, 2**1000], in memory and on DuckDB (the measures in
  units of weight, which the docs say change with the weights' scale, excepted and
  listed);
* SRD, COVAT and ANOVA are unchanged when the table is multiplied likewise;
* scores must be real numbers; random_state of a wrong type is a TypeError naming it;
  the refits seed an unseeded estimator or warn.
"""

from __future__ import annotations

import datetime as dt
import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import binmetrics as bm

#: measures in units of weight (positions counted in weight; documented: "rescaling
#: every weight changes the value")
# the measures that read weights as numbers of cases, as the registry declares them
WEIGHT_UNITS = {m.id for m in bm.iter_measures() if m.weight_unit}


def values(y: Any, s: Any, w: Any) -> dict[str, float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return bm.evaluate(y, s, sample_weight=w).to_dict()


def same(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == pytest.approx(b, rel=1e-9, abs=1e-12)


@st.composite
def weighted_data(draw: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = draw(st.integers(4, 25))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y[0], y[1] = 0, 1  # both classes
    s = np.array(draw(st.lists(st.integers(0, 10), min_size=n, max_size=n))) / 10.0
    w = np.array(draw(st.lists(st.floats(0.05, 20.0), min_size=n, max_size=n)))
    return y, s, w


def test_the_issue_cases() -> None:
    y, s = [0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4]  # below the default threshold 0.5
    assert bm.score("enrichment_factor", y, s, sample_weight=[5e-324] * 4) == \
        bm.score("enrichment_factor", y, s)  # a ranking measure: no threshold warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no overflow inside NumPy
        with pytest.warns(bm.BinmetricsWarning, match=r"threshold 0\.5 \(the default\) is outside"):
            ev = bm.evaluate(y, s, sample_weight=[1e308] * 4)
        assert ev["brier"] == pytest.approx(0.275)
    expected = values(y, s, None)
    got = values(y, s, [1e308] * 4)
    assert [m for m in expected if m not in WEIGHT_UNITS and not same(got[m], expected[m])] \
        == []


def test_weight_units_are_exactly_the_documented_ones() -> None:
    rng = np.random.default_rng(3)
    y, s, w = rng.integers(0, 2, 40), rng.random(40).round(2), rng.random(40) + 0.1
    a, b = values(y, s, w), values(y, s, 2 * w)
    changed = {m for m in a if not same(a[m], b[m])}
    # every measure that changes declares weight_unit; those declared may not change here
    # (the lowess family is NaN under these fractional weights, both times)
    assert changed and changed <= WEIGHT_UNITS
    assert set(a) == {m.id for m in bm.iter_measures()}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=weighted_data(), k=st.integers(-1000, 1000))
def test_every_measure_ignores_a_power_of_two_on_the_weights(
        data: tuple[np.ndarray, np.ndarray, np.ndarray], k: int) -> None:
    y, s, w = data
    base = values(y, s, w)
    scaled = values(y, s, np.ldexp(w, k))
    wrong = [m for m in base if m not in WEIGHT_UNITS and not same(scaled[m], base[m])]
    assert wrong == [], (k, {m: (scaled[m], base[m]) for m in wrong})


def test_zero_weights_are_a_clear_error() -> None:
    with pytest.raises(ValueError, match="sample_weight sums to 0"):
        bm.evaluate([0, 1], [0.2, 0.8], sample_weight=[0.0, 0.0])


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("weights")


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=weighted_data(), k=st.sampled_from([-1000, -1074 + 60, -300, -101, 0, 101, 300,
                                                900, 1000]))
def test_duckdb_ignores_a_power_of_two_on_the_weights(
        folder: Path, data: tuple[np.ndarray, np.ndarray, np.ndarray], k: int) -> None:
    pytest.importorskip("duckdb")
    from binmetrics.engines import evaluate_file

    y, s, w = data
    path = folder / f"w{k}.parquet"
    pd.DataFrame({"y": y, "p": s, "w": np.ldexp(w, k)}).to_parquet(path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = evaluate_file(path, label="y", score="p", weight="w").to_dict()
    base = values(y, s, w)
    wrong = [m for m in base if m not in WEIGHT_UNITS and not same(got[m], base[m])]
    assert wrong == [], (k, {m: (got[m], base[m]) for m in wrong})


# --- SRD, COVAT, ANOVA ------------------------------------------------------------------

@st.composite
def tables(draw: Any) -> np.ndarray:
    n = draw(st.integers(3, 8))
    m = draw(st.integers(2, 5))
    cells = draw(st.lists(st.integers(0, 50), min_size=n * m, max_size=n * m))
    return np.array(cells, dtype=float).reshape(n, m) / 7.0


@settings(max_examples=60, deadline=None)
@given(t=tables(), k=st.integers(-1000, 1000),
       pretreat=st.sampled_from(["none", "range", "standardize", "unit_length",
                                 "scale_to_max", "rank"]),
       reference=st.sampled_from(["mean", "max", "min", "median"]))
def test_srd_ignores_a_power_of_two_on_the_table(t: np.ndarray, k: int, pretreat: str,
                                                 reference: str) -> None:
    try:
        base = bm.srd(t, reference, pretreat=pretreat)
    except ValueError as exc:  # a constant column under pretreatment: the same error
        with pytest.raises(ValueError, match="divides by"):
            bm.srd(np.ldexp(t, k), reference, pretreat=pretreat)
        assert "divides by" in str(exc)
        return
    scaled = bm.srd(np.ldexp(t, k), reference, pretreat=pretreat)
    assert scaled.values.tolist() == base.values.tolist()


def test_srd_with_1e308_and_object_numbers() -> None:
    rng = np.random.default_rng(0)
    t = rng.random((7, 4))
    assert bm.srd(t * 1e308).values.tolist() == bm.srd(t).values.tolist()
    obj = pd.DataFrame(t).astype(object)
    assert bm.srd(obj).values.tolist() == bm.srd(t).values.tolist()
    cv = bm.covat(t)
    assert bm.covat(np.ldexp(t, -1000)).order == cv.order


@pytest.mark.parametrize("k", [-1000, -500, 0, 500, 1000])
def test_anova_ignores_a_power_of_two_on_the_response(k: int) -> None:
    pytest.importorskip("statsmodels")
    from binmetrics.comparison.factorial_anova import anova

    rng = np.random.default_rng(1)
    df = pd.DataFrame([(a, b, f) for a in "xy" for b in "pqr" for f in range(4)],
                      columns=["a", "b", "fold"])
    df["v"] = 20 + 3 * (df.a == "x") + rng.normal(0, 2, len(df))
    base = anova(df, ["a", "b"], response="v").table
    scaled_df = df.assign(v=np.ldexp(df["v"].to_numpy(), k))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        got = anova(scaled_df, ["a", "b"], response="v").table
    cols = ["F", "pvalue", "partial_eta_sq"]
    np.testing.assert_allclose(got[cols].to_numpy(float), base[cols].to_numpy(float),
                               rtol=1e-9, equal_nan=True)
    assert got["significant"].tolist()[:-1] == base["significant"].tolist()[:-1]


# --- scores that are not real numbers -----------------------------------------------------

NOT_REAL = {
    "datetime64": pd.to_datetime(["2020-01-01", "2020-01-02", "2020-01-03", "2020-01-04"]),
    "timedelta64": pd.to_timedelta([1, 2, 3, 4], unit="s"),
    "complex128": np.array([0.1 + 1j, 0.2, 0.3, 0.4]),
    "<U3": np.array(["0.1", "0.2", "0.3", "0.4"]),
    "object holding datetime": np.array([dt.datetime(2020, 1, d) for d in (1, 2, 3, 4)],
                                        dtype=object),
    "object holding complex": np.array([0.1 + 1j, 0.2, 0.3, 0.4], dtype=object),
    "object holding str": pd.Series(["0.1", "0.2", "0.3", "0.4"], dtype="string"),
    "object holding timedelta": np.array([dt.timedelta(seconds=d) for d in (1, 2, 3, 4)],
                                         dtype=object),
}


@pytest.mark.parametrize("name", list(NOT_REAL))
def test_scores_must_be_real_numbers(name: str) -> None:
    dtype = name.split(" ")[0].replace("64", "64") if " " not in name else "object"
    with pytest.raises(TypeError, match=rf"y_score must be numeric.*dtype {dtype}"):
        bm.evaluate([0, 1, 0, 1], NOT_REAL[name])


def test_object_scores_of_numbers_still_work() -> None:
    with pytest.warns(bm.BinmetricsWarning, match=r"threshold 0\.5 \(the default\) is outside"):
        ev = bm.evaluate([0, 1, 0, 1], np.array([0.1, 0.2, 0.3, 0.4], dtype=object))
    assert ev["auc"] == 0.75


# --- random_state -------------------------------------------------------------------------

def _calls() -> list[Any]:
    y = [0, 1, 0, 1, 1, 0, 1, 0]
    s = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    ev = bm.evaluate(y, s)
    t = np.random.default_rng(0).random((5, 4))
    return [
        lambda rs: ev.ci("auc", method="bootstrap", random_state=rs),
        lambda rs: bm.compare(y, {"a": s, "b": s[::-1]}, random_state=rs),
        lambda rs: bm.srd(t).randomization(random_state=rs),
        lambda rs: bm.srd(t).cross_validate(random_state=rs),
    ]


@pytest.mark.parametrize("i", range(4))
@pytest.mark.parametrize("bad", ["abc", 1.5, [1, 2]])
def test_random_state_of_a_wrong_type(i: int, bad: Any) -> None:
    with pytest.raises(TypeError, match=r"random_state must be None, an integer"):
        _calls()[i](bad)


def test_refit_seeds_an_unseeded_estimator_or_warns() -> None:
    pytest.importorskip("sklearn")
    from sklearn.ensemble import RandomForestClassifier

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] + rng.normal(size=60) > 0).astype(int)
    est = RandomForestClassifier(n_estimators=5)  # random_state=None
    runs = [bm.oob_bootstrap(est, X, y, measure="auc", n_resamples=5, random_state=1)
            for _ in range(2)]
    assert runs[0].replicates.tolist() == runs[1].replicates.tolist()
    with pytest.warns(UserWarning, match="not reproducible|differ between runs"):
        bm.oob_bootstrap(est, X, y, measure="auc", n_resamples=3, random_state=None)
    with pytest.raises(TypeError, match="random_state"):
        bm.oob_bootstrap(est, X, y, measure="auc", n_resamples=3, random_state="abc")


@pytest.mark.slow
def test_spark_ignores_a_power_of_two_on_the_weights() -> None:
    pytest.importorskip("pyspark")
    import shutil

    if shutil.which("java") is None:
        pytest.skip("Spark needs Java")
    from pyspark.sql import SparkSession

    from binmetrics.engines import evaluate_spark

    spark = (SparkSession.builder.master("local[1]").appName("binmetrics-weights")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    rng = np.random.default_rng(5)
    y, s, w = rng.integers(0, 2, 30), rng.random(30).round(1), rng.random(30) + 0.05
    y[:2] = [0, 1]
    base = values(y, s, w)
    for k in (-1000, 1000):
        df = spark.createDataFrame(pd.DataFrame({"y": y, "p": s, "w": np.ldexp(w, k)}))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = evaluate_spark(df, label="y", score="p", weight="w").to_dict()
        wrong = [m for m in base if m not in WEIGHT_UNITS and not same(got[m], base[m])]
        assert wrong == [], (k, wrong)


@settings(max_examples=30, deadline=None)
@given(data=weighted_data(), k=st.integers(-1000, 1000))
def test_accumulator_ignores_a_power_of_two_on_the_weights(
        data: tuple[np.ndarray, np.ndarray, np.ndarray], k: int) -> None:
    from binmetrics.engines import Accumulator

    y, s, w = data
    acc = Accumulator()
    half = y.size // 2
    acc.update(y[:half], s[:half], sample_weight=np.ldexp(w[:half], k))
    acc.update(y[half:], s[half:], sample_weight=np.ldexp(w[half:], k))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = acc.evaluate().to_dict()
    base = values(y, s, w)
    wrong = [m for m in base if m not in WEIGHT_UNITS and not same(got[m], base[m])]
    assert wrong == [], (k, wrong)
