"""Issue 33, point 3: a measure with other parameters, ``id(param=value, ...)``, in
every place that takes measure ids (``get_measure``, ``ev.value``, ``to_dict``/
``to_frame(measures=)``, the resampling functions, ``compare``); parsed without
evaluating anything."""

from __future__ import annotations

import math

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.inference.resampling import bootstrap
from binmetrics.measures.registry import (
    get_measure,
    parse_measure_spec,
    split_measure_list,
    with_params,
)


@pytest.fixture(scope="module")
def data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    y = (rng.random(2000) < 0.05).astype(int)
    p = np.round(np.clip(rng.random(2000) * 0.7 + 0.3 * y, 0, 1), 2)  # ties
    return y, p


@pytest.mark.parametrize(("text", "name", "params"), [
    ("bedroc(alpha=80.5)", "bedroc", {"alpha": 80.5}),
    (" enrichment_factor( fraction = 0.05 ) ", "enrichment_factor", {"fraction": 0.05}),
    ("partial_auc(fpr=(0, 0.1), correct=true)", "partial_auc",
     {"fpr": (0, 0.1), "correct": True}),
    ("partial_auc(tpr=[0.9, 1])", "partial_auc", {"tpr": (0.9, 1)}),
    ("ici(max_rows=none)", "ici", {"max_rows": None}),
    ("ici(max_rows=1e7)", "ici", {"max_rows": 1e7}),
    ("roc_enrichment(at=top)", "roc_enrichment", {"at": "top"}),
    ("roc_enrichment(at='top')", "roc_enrichment", {"at": "top"}),
    ("expected_cost(cost_fp=-inf)", "expected_cost", {"cost_fp": -math.inf}),
    ("lr+(correction=0.5)", "lr+", {"correction": 0.5}),
])
def test_parse(text: str, name: str, params: dict[str, object]) -> None:
    assert parse_measure_spec(text) == (name, params)


@pytest.mark.parametrize("text", [
    "bedroc(alpha=__import__('os').system('touch /tmp/pwned_first33'))",
    "bedroc(alpha=(lambda: 1)())",
    "bedroc(alpha=1+1)",
    "bedroc(alpha=x.y)",
    "bedroc(80.5)",
    "bedroc(**kw)",
    "bedroc(alpha=1, alpha=2)",
    "bedroc(alpha=1",
    "bedroc(alpha=1))",
    "(alpha=1)",
    "bedroc(alpha=" + "1" * 600 + ")",
])
def test_refused_without_evaluation(text: str) -> None:
    with pytest.raises(ValueError, match=r"measure|not a value"):
        parse_measure_spec(text)


def test_bound_measure_equals_params(data: tuple[np.ndarray, np.ndarray]) -> None:
    y, p = data
    ev = bm.evaluate(y, p, undefined="ignore")
    for text, base, params in [("bedroc(alpha=80.5)", "bedroc", {"alpha": 80.5}),
                               ("enrichment_factor(fraction=0.05)", "enrichment_factor",
                                {"fraction": 0.05}),
                               ("partial_auc(fpr=(0, 0.1))", "partial_auc",
                                {"fpr": (0, 0.1)}),
                               ("fbeta(beta=2)", "fbeta", {"beta": 2})]:
        with bm.undefined_policy("ignore"):
            assert ev.value(text) == ev.value(base, **params), text
            assert ev.value(text) != ev.value(base), text  # the parameter changed it
    frame = ev.to_frame(measures=["bedroc", "bedroc(alpha=80.5)", "sensitivity"])
    assert list(frame["id"]) == ["bedroc", "bedroc(alpha=80.5)", "tpr"]
    assert frame["value"].iloc[1] == ev.value("bedroc", alpha=80.5)
    assert frame["name"].iloc[1].endswith("ROC (alpha=80.5)")
    assert ev.to_dict(measures=["bedroc(alpha=80.5)"]) == {
        "bedroc(alpha=80.5)": ev.value("bedroc", alpha=80.5)}


def test_bound_measure_identity() -> None:
    m = get_measure("Enrichment-Factor(fraction=0.05)")
    assert m.id == "enrichment_factor(fraction=0.05)"
    assert get_measure(m.id) == m  # its id reads back
    assert get_measure("bedroc(alpha=20)") is get_measure("bedroc")  # the default
    assert with_params(m, fraction=0.01) is get_measure("enrichment_factor")
    assert m.params["fraction"] == 0.05 and m.aliases == ()
    with pytest.raises(TypeError, match="bedroc takes no parameter beta; its parameters: "
                                        "alpha"):
        get_measure("bedroc(beta=2)")
    with pytest.raises(KeyError, match="unknown measure 'bedrok'"):
        get_measure("bedrok(alpha=2)")


def test_resampling_takes_bound_measures(data: tuple[np.ndarray, np.ndarray]) -> None:
    y, p = data
    table = bm.evaluate(y, p).table
    with pytest.warns(bm.MeasureCaveatWarning, match="alpha \\* Ra"):
        a = bootstrap(table, ["bedroc(alpha=80.5)"], n_resamples=200, random_state=0)
        b = bootstrap(table, ["bedroc"], n_resamples=200, random_state=0,
                      params={"bedroc": {"alpha": 80.5}})
    np.testing.assert_array_equal(a.replicates["bedroc(alpha=80.5)"], b.replicates["bedroc"])
    with bm.undefined_policy("ignore"):
        c = bootstrap(table, ["bedroc"], n_resamples=200, random_state=0)
    assert not np.array_equal(a.replicates["bedroc(alpha=80.5)"], c.replicates["bedroc"])


def test_split_measure_list() -> None:
    assert split_measure_list("auc, bedroc(alpha=80.5),partial_auc(fpr=(0, 0.1)),") == [
        "auc", "bedroc(alpha=80.5)", "partial_auc(fpr=(0, 0.1))"]
    assert split_measure_list(" , ") == []
