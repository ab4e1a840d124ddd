"""Every public result prints its numbers (issue 20, point 4): ``repr`` is a compact table
with the values in it, ``_repr_html_`` a table, ``to_frame()`` a DataFrame.

The walk covers every class that binmetrics and its subpackages export: a new result
class fails here until it gets an example below (or, if it is no result, a reason in
NOT_RESULTS).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.evaluation.options import EvalOptions
from binmetrics.formatting import Tabular, format_number

SUBPACKAGES = ["comparison", "curves", "engines", "evaluation", "inference", "measures",
               "table", "display", "study"]
#: exported classes that are not results (definitions, options of a computation, protocols)
NOT_RESULTS = {
    "HypothesisTest": "the base class of every test result (each is walked here)",
    "Measure": "a measure's definition (the registry's entry)",
    "Scorer": "a scikit-learn scorer (a callable)",
    "FileEngine": "an engine's declaration in the engine registry",
    "BinSpec": "how scores are binned (an option)",
    "ClusteredTable": "a count table with each cluster's counts (the cluster bootstrap's input)",
    "Binning": "a binning rule (an option)",
    "HasTable": "a protocol",
    "PositiveGroups": "internal arrays of a count table for the ranking kernels",
}

Y = np.array([1, 1, 0, 1, 1, 0, 0, 1, 0, 0] * 4)
S = np.array([.95, .8, .75, .6, .5, .45, .3, .25, .2, .1] * 4)
S2 = np.array([.9, .3, .8, .7, .4, .5, .6, .2, .1, .35] * 4)
TABLE = pd.DataFrame({"a": [.81, .72, .93, .64, .55], "b": [.7, .75, .9, .6, .5],
                      "c": [.6, .8, .7, .66, .52], "d": [.5, .4, .8, .7, .45]})


def _ev() -> Any:
    return bm.evaluate(Y, S, threshold=0.55)


def _xy() -> tuple[Any, Any]:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    return X, (X[:, 0] + rng.normal(size=60) > 0).astype(int)


def _study() -> Any:
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    X, y = _xy()
    return bm.benchmark({"nb": GaussianNB(), "tree": DecisionTreeClassifier(max_depth=2)},
                        {"d1": (X, y), "d2": (X[::-1], y[::-1])}, cv=3, test_size=0.3,
                        balance="imbalanced", classes="2-class", measures=["auc", "mcc", "f1"],
                        random_state=0)


def _refit(kind: str) -> Any:
    from sklearn.linear_model import LogisticRegression

    X, y = _xy()
    if kind == "oob":
        return bm.oob_bootstrap(LogisticRegression(), X, y, n_resamples=8, random_state=0)
    if kind == "cv5x2":
        from sklearn.naive_bayes import GaussianNB

        return bm.cv_5x2_test(LogisticRegression(), GaussianNB(), X, y, measure="auc",
                              random_state=0)
    return bm.refit_permutation_test(LogisticRegression(), X[:40], y[:40], X[40:], y[40:],
                                     n_resamples=8, random_state=0)


EXAMPLES: dict[str, Callable[[], Any]] = {
    "AccumulationCurve": lambda: _ev().accumulation(),
    "Accumulator": lambda: bm.Accumulator().update(Y, S),
    "AnovaResult": lambda: bm.srd(TABLE).cross_validate("loo").long().pipe(
        lambda d: bm.anova(d.assign(m=d["column"]), ["m"], response="srd_pct")),
    "BayesianSignedRank": lambda: bm.bayesian_signed_rank(TABLE["a"], TABLE["b"], rope=0.01,
                                                          random_state=0),
    "BestThreshold": lambda: _ev().best_threshold("mcc"),
    "GuaranteedThreshold": lambda: _ev().threshold_with_guarantee("tpr", at_least=0.2),
    "BootstrapInterval": lambda: _ev().ci("mcc", method="bootstrap", n_resamples=50,
                                          random_state=0),
    "BootstrapResult": lambda: bm.bootstrap(_ev().table, ["auc", "mcc"], n_resamples=50,
                                            random_state=0),
    "BrierDecomposition": lambda: _ev().brier_decomposition(n_bins=4),
    "ByResult": lambda: bm.evaluate_by(pd.DataFrame({"y": Y, "p": S, "g": np.arange(40) % 2}),
                                       label="y", score="p", by="g"),
    "COVATResult": lambda: bm.covat(TABLE),
    "ClusterBootstrapResult": lambda: bm.inference.cluster_bootstrap(
        Y, S, ["auc"], clusters=np.arange(40) // 2, n_resamples=50, random_state=0),
    "CV5x2Test": lambda: _refit("cv5x2"),
    "CalibrationTest": lambda: _ev().calibration_test("hosmer_lemeshow", n_groups=4),
    "Comparison": lambda: bm.compare(Y, {"a": S, "b": S2}),
    "Confusion": lambda: _ev().confusion,
    "CorrelatedTTest": lambda: bm.correlated_t_test(TABLE["a"], TABLE["b"], test_fraction=0.2,
                                                    rope=0.01),
    "CostCurve": lambda: _ev().cost_curve(),
    "CountTable": lambda: _ev().table,
    "DETCurve": lambda: _ev().det(),
    "DeLongContrast": lambda: importlib.import_module("binmetrics.inference").delong_contrast(
        Y, [S, S2]),
    "DeLongTest": lambda: bm.delong_test(Y, S, S2),
    "DecisionCurve": lambda: _ev().decision_curve([0.2, 0.5]),
    "Evaluation": _ev,
    "FairnessResult": lambda: bm.fairness(Y, S, sensitive=np.arange(40) % 2, n_resamples=50,
                                          random_state=0),
    "FriedmanTest": lambda: bm.rank_comparison(TABLE).friedman,
    "GroupThresholds": lambda: bm.evaluate_by(
        pd.DataFrame({"y": Y, "p": S, "g": np.arange(40) % 2}), label="y", score="p",
        by="g").best_thresholds("f1"),
    "GapResult": lambda: bm.evaluate_by(
        pd.DataFrame({"y": Y, "p": S, "g": np.arange(40) % 2}), label="y", score="p",
        by="g").difference("tpr", ci=True, n_resamples=50, random_state=0),
    "GainCurve": lambda: _ev().gain(),
    "ImanDavenportTest": lambda: bm.rank_comparison(TABLE).iman_davenport,
    "Interval": lambda: _ev().ci("auc"),
    "LiftCurve": lambda: _ev().lift(),
    "McNemarTest": lambda: bm.mcnemar_test(Y, S, S2),
    "MeanMeasureCorrelation": lambda: bm.mean_measure_correlation(
        [{f"m{k}": bm.evaluate(Y[k:], S[k:]) for k in range(4)},
         {f"m{k}": bm.evaluate(Y[k:], S2[k:]) for k in range(4)}]),
    "MeasureCorrelation": lambda: bm.measure_correlation(
        [bm.evaluate(Y[i:], S[i:]) for i in range(6)], ["auc", "mcc", "f1"]),
    "MonitorResult": lambda: bm.monitor(
        pd.DataFrame({"y": Y, "p": S, "ts": pd.date_range("2026-01-01", periods=40)}),
        label="y", score="p", time="ts", reference=("2026-01-01", "2026-01-14"),
        window="14D", step="7D", measures=["auc", "tpr"]),
    "PerformanceEstimate": lambda: bm.estimate_performance(
        S2, reference=(Y, S), calibrate=False, n_resamples=20, random_state=0),
    "MulticlassEvaluation": lambda: bm.evaluate(
        [0, 1, 2, 1], [[.6, .3, .1], [.2, .7, .1], [.2, .5, .3], [.3, .4, .3]]),
    "MulticlassBootstrap": lambda: bm.evaluate(
        [0, 1, 2, 1, 0, 2], [[.6, .3, .1], [.2, .7, .1], [.2, .5, .3], [.3, .4, .3],
                             [.5, .4, .1], [.1, .2, .7]]).bootstrap(["f1"], n_resamples=20,
                                                                     random_state=0),
    "MulticlassSummary": lambda: bm.evaluate(
        [0, 1, 2, 1], [[.6, .3, .1], [.2, .7, .1], [.2, .5, .3], [.3, .4, .3]]).summary(),
    "MultilabelEvaluation": lambda: bm.evaluate_multilabel(
        np.stack([Y, 1 - Y]).T, np.stack([S, S2]).T),
    "OOBBootstrapResult": lambda: _refit("oob"),
    "PRBand": lambda: _ev().pr().ci_band(recall=[0.2, 0.5], n_resamples=50, random_state=0),
    "PRCurve": lambda: _ev().pr(),
    "PRGCurve": lambda: _ev().prg(),
    "PairedResult": lambda: bm.compare(Y, {"a": S, "b": S2}).results[0],
    "PermutationResult": lambda: _ev().permutation_test("auc", n_resamples=20,
                                                        random_state=0),
    "Placements": lambda: importlib.import_module(
        "binmetrics.inference.intervals").table_placements(_ev().table),
    "PosthocResult": lambda: bm.rank_comparison(TABLE).posthoc("nemenyi"),
    "PowerResult": lambda: bm.power_roc_test(auc=0.7, n_cases=20, n_controls=40),
    "PredictiveValues": lambda: bm.predictive_values(sensitivity=0.9, specificity=0.8,
                                                     prevalence=0.1),
    "ProportionTest": lambda: bm.proportion_test(13, 40, p0=0.25),
    "ROCBand": lambda: _ev().roc().ci_band(fpr=[0.2, 0.5], n_resamples=50, random_state=0),
    "ROCCoords": lambda: _ev().roc().at(fpr=[0.2, 0.5]),
    "ROCCurve": lambda: _ev().roc(),
    "ROCHull": lambda: _ev().roc().hull(),
    "ROCTest": lambda: bm.roc_test(Y, S, S2),
    "RankComparison": lambda: bm.rank_comparison(TABLE),
    "RefitPermutationResult": lambda: _refit("permutation"),
    "Reliability": lambda: _ev().reliability(n_bins=4),
    "SRDCrossValidation": lambda: bm.srd(TABLE).cross_validate("loo"),
    "SRDRandomization": lambda: bm.srd(TABLE).randomization(n_resamples=500, random_state=0),
    "SRDResult": lambda: bm.srd(TABLE),
    "SmoothROC": lambda: _ev().roc().smooth(n=20),
    "Study": _study,
    "Summary": lambda: _ev().summary(),
    "StudySRD": lambda: _study().srd_models(by=("dataset",), cv=None),
    "ThresholdCurves": lambda: _ev().threshold_curves(),
    "UndersampledEvaluation": lambda: _ev().calibrated(0.2, method="undersample",
                                                       n_resamples=3, random_state=0),
    "WilcoxonTest": lambda: bm.wilcoxon_test(TABLE["a"], TABLE["b"]),
}


def _public_classes() -> dict[str, type]:
    found: dict[str, type] = {}
    for module in ["binmetrics", *(f"binmetrics.{m}" for m in SUBPACKAGES)]:
        mod = importlib.import_module(module)
        for name in getattr(mod, "__all__", []):
            obj = getattr(mod, name, None)
            if inspect.isclass(obj) and not issubclass(obj, BaseException):
                found[name] = obj
    return found


def test_every_public_class_is_walked():
    public = _public_classes()
    missing = sorted(set(public) - set(EXAMPLES) - set(NOT_RESULTS))
    assert not missing, f"public classes without an example here: {missing}"
    assert not set(NOT_RESULTS) & set(EXAMPLES)


@pytest.mark.parametrize(("name", "make"), sorted(EXAMPLES.items()), ids=sorted(EXAMPLES))
def test_result_prints_its_numbers(name, make):
    cls = _public_classes().get(name)
    assert cls is not None, f"{name} is no longer exported: drop its example"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        obj = make()
    assert isinstance(obj, cls)
    with warnings.catch_warnings():  # the values' own warnings: not this test's subject
        warnings.simplefilter("ignore")
        frame = obj.to_frame()
    assert isinstance(frame, pd.DataFrame) and len(frame) > 0
    text = repr(obj)
    code = type(obj).__repr__.__code__  # type: ignore[attr-defined]
    assert code.co_filename != dataclasses.__file__, f"{name}: the dataclass's generated repr"
    assert text.count("\n") < 45, f"{name}'s repr is not compact:\n{text}"
    shown = obj._shown() if isinstance(obj, Tabular) else frame  # what the repr shows
    numbers = [v for v in shown.select_dtypes("number").to_numpy().ravel()
               if np.isfinite(v) and not float(v).is_integer()]
    if numbers:  # a value of the table is in the repr, as the CLI writes it
        assert any(format_number(v) in text for v in numbers), f"{name}: {text}"
    else:
        assert re.search(r"\d", text), f"{name}: {text}"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # rendering never warns
        markup = obj._repr_html_()
    assert "<table" in markup and "</table>" in markup


def test_records_read_down_and_keep_their_interval():
    r = bm.compare(Y, {"a": S, "b": S2}).result("a", "b", "auc")
    f = r.to_frame()
    assert f.loc[0, "pvalue"] == r.pvalue and f.loc[0, "low"] == r.ci.low
    assert "detail" not in f.columns  # the nested full test stays out of the row
    text = repr(r)
    assert text.splitlines()[0].startswith("PairedResult: a - b (delong")
    assert format_number(r.pvalue) in text and format_number(r.ci.high) in text
    opts = repr(EvalOptions(threshold=0.4)).splitlines()  # internal: the options passed on
    assert opts[1].split()[0] == "threshold" and opts[2].split()[0] == "0.4"
    best = _ev().best_threshold("mcc").to_frame()
    assert {"tp", "fp", "fn", "tn"} <= set(best.columns)  # the Confusion flattened


def test_tabular_is_the_shared_mechanism():
    """The results added for issue 20 inherit one mixin instead of copies."""
    public = _public_classes()
    for name in ("Interval", "PairedResult", "McNemarTest", "ProportionTest", "BestThreshold",
                 "OOBBootstrapResult", "RefitPermutationResult", "Study", "StudySRD",
                 "COVATResult", "Confusion", "Accumulator"):
        assert issubclass(public[name], Tabular), name
    assert issubclass(EvalOptions, Tabular)
