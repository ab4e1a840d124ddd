"""Binomial intervals (binmetrics.intervals.proportion_ci) and measure_ci.

References: Berrar Defs 36-37 and their worked example (the sensitivity 3/5:
raw Wald [0.1706, 1.0294], exact [0.1466, 0.9473]); statsmodels'
``proportion_confint`` on a grid of (k, n, level) including k = 0 and k = n.
"""

from __future__ import annotations

import itertools
import json
import math
import warnings
from pathlib import Path

import pytest
from scipy import stats

import binmetrics as bm
from binmetrics.exceptions import MeasureCaveatWarning, UndefinedMeasureWarning
from binmetrics.inference.intervals import (
    PROPORTION_METHODS,
    Interval,
    ci_methods,
    measure_ci,
    proportion_ci,
)

sm_proportion = pytest.importorskip("statsmodels.stats.proportion")

#: binmetrics method -> statsmodels method
SM_METHOD = {
    "wald": "normal",
    "clopper-pearson": "beta",
    "wilson": "wilson",
    "agresti-coull": "agresti_coull",
    "jeffreys": "jeffreys",
}
LEVELS = (0.5, 0.8, 0.9, 0.95, 0.99, 0.999)


def _grid() -> list[tuple[int, int]]:
    pairs = [(k, n) for n in (1, 2, 3, 4, 5, 6, 7, 10, 11, 17, 30) for k in range(n + 1)]
    for n in (50, 100, 1000, 12345):
        pairs += [(k, n) for k in sorted({0, 1, 2, 5, n // 3, n // 2, n - 5, n - 1, n})]
    return pairs


GRID = _grid()


def quiet_ci(k: float, n: float, method: str, level: float = 0.95) -> Interval:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MeasureCaveatWarning)
        return proportion_ci(k, n, method=method, level=level)


# --- statsmodels -------------------------------------------------------------------------
@pytest.mark.parametrize("method", PROPORTION_METHODS)
def test_matches_statsmodels_on_a_grid(method: str) -> None:
    worst = 0.0
    for level in LEVELS:
        for k, n in GRID:
            ci = quiet_ci(k, n, method, level)
            lo, hi = sm_proportion.proportion_confint(k, n, alpha=1 - level,
                                                      method=SM_METHOD[method])
            got = (ci.low, ci.high)
            if method == "wald":  # statsmodels clips its normal interval; binmetrics does not
                got = (min(max(ci.low, 0.0), 1.0), min(max(ci.high, 0.0), 1.0))
            worst = max(worst, abs(got[0] - lo), abs(got[1] - hi))
            assert ci.estimate == k / n
    assert worst <= 1e-12, f"{method}: largest difference {worst:.3g}"


@pytest.mark.parametrize("method", PROPORTION_METHODS)
@pytest.mark.parametrize(("k", "n"), [(0.5, 3.25), (2.7, 9.1), (7.25, 7.25), (0.0, 0.4),
                                      (12.3, 40.0)])
def test_weighted_counts_match_statsmodels(method: str, k: float, n: float) -> None:
    # non-integer counts are used as if they were counts
    ci = quiet_ci(k, n, method)
    lo, hi = sm_proportion.proportion_confint(k, n, alpha=0.05, method=SM_METHOD[method])
    if method == "wald":
        ci = Interval(ci.estimate, max(ci.low, 0.0), min(ci.high, 1.0), ci.level, ci.method)
    assert (ci.low, ci.high) == pytest.approx((lo, hi), abs=1e-12)


def test_wald_is_not_clipped() -> None:
    ci = quiet_ci(1, 3, "wald")
    z = stats.norm.ppf(0.975)
    half = z * math.sqrt((1 / 3) * (2 / 3) / 3)
    assert ci.low == pytest.approx(1 / 3 - half, abs=1e-15) and ci.low < 0
    assert ci.high == pytest.approx(1 / 3 + half, abs=1e-15)


# --- edge conventions ----------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 7, 100])
def test_clopper_pearson_edges(n: int) -> None:
    assert proportion_ci(0, n).low == 0.0
    assert proportion_ci(n, n).high == 1.0
    alpha = 0.05  # at k = 0 the upper bound solves (1 - p)^n = alpha/2
    assert proportion_ci(0, n).high == pytest.approx(1 - (alpha / 2) ** (1 / n), abs=1e-12)
    assert proportion_ci(n, n).low == pytest.approx((alpha / 2) ** (1 / n), abs=1e-12)


def test_jeffreys_edges_are_the_plain_beta_quantiles() -> None:
    # as statsmodels: no special case at k = 0 or k = n
    ci = proportion_ci(0, 10, method="jeffreys")
    assert ci.low == pytest.approx(stats.beta.ppf(0.025, 0.5, 10.5), abs=1e-15)
    assert 0 < ci.low < 1e-4
    ci = proportion_ci(10, 10, method="jeffreys")
    assert ci.high == pytest.approx(stats.beta.isf(0.025, 10.5, 0.5), abs=1e-15)
    assert ci.high < 1


@pytest.mark.parametrize("method", ["wilson", "agresti-coull", "clopper-pearson", "jeffreys"])
@pytest.mark.parametrize("level", LEVELS)
def test_bounded_intervals_stay_in_unit_interval(method: str, level: float) -> None:
    for k, n in GRID:
        ci = proportion_ci(k, n, method=method, level=level)
        assert 0.0 <= ci.low <= ci.high <= 1.0, (k, n, ci)


@pytest.mark.parametrize("method", PROPORTION_METHODS)
def test_wider_at_higher_level(method: str) -> None:
    for k, n in [(3, 5), (0, 10), (17, 40), (100, 100)]:
        widths = [quiet_ci(k, n, method, lv).width for lv in LEVELS]
        assert all(a <= b + 1e-15 for a, b in itertools.pairwise(widths))


@pytest.mark.parametrize("method", PROPORTION_METHODS)
def test_symmetric_under_swapping_successes_and_failures(method: str) -> None:
    for k, n in [(3, 5), (0, 10), (17, 40), (1, 1)]:
        a, b = quiet_ci(k, n, method), quiet_ci(n - k, n, method)
        assert a.low == pytest.approx(1 - b.high, abs=1e-12)
        assert a.high == pytest.approx(1 - b.low, abs=1e-12)


# --- Berrar's worked example -------------------------------------------------------------
REF_PATH = Path(__file__).resolve().parents[1] / "data" / "berrar_worked_example.json"
BERRAR_Y = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
BERRAR_S = [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]


def test_berrar_def36_wald_interval_of_the_sensitivity() -> None:
    with pytest.warns(MeasureCaveatWarning, match=r"n\*p = 3 and n\*\(1-p\) = 2"):
        ci = proportion_ci(3, 5, method="wald")
    assert (round(ci.low, 4), round(ci.high, 4)) == (0.1706, 1.0294)
    z = stats.norm.ppf(0.975)
    assert ci.high - ci.estimate == pytest.approx(z * math.sqrt(0.6 * 0.4 / 5), abs=1e-15)


def test_berrar_def37_clopper_pearson_interval_of_the_sensitivity() -> None:
    ci = proportion_ci(3, 5, method="clopper-pearson")
    assert (round(ci.low, 4), round(ci.high, 4)) == (0.1466, 0.9473)


def test_berrar_reference_json_through_an_evaluation() -> None:
    expected = json.loads(REF_PATH.read_text())["expected"]
    ev = bm.evaluate(BERRAR_Y, BERRAR_S, threshold=0.55)  # the paper's cut t5
    with pytest.warns(MeasureCaveatWarning):
        wald = measure_ci(ev, "sensitivity", method="wald")
    exact = measure_ci(ev, "sensitivity", method="clopper-pearson")
    for ci, key in ((wald, "wald_ci_sensitivity_95"),
                    (exact, "clopper_pearson_ci_sensitivity_95")):
        spec = expected[key]
        assert list(ci) == pytest.approx(spec["value"], abs=spec["tol"])
    assert wald.high > 1  # raw, as the paper shows


@pytest.mark.parametrize(("k", "n"), [(3, 5), (1, 9), (8, 9), (12, 40), (33, 34)])
@pytest.mark.parametrize("level", [0.9, 0.95, 0.99])
def test_clopper_pearson_equals_berrar_eq47_f_form(k: int, n: int, level: float) -> None:
    a = 1 - level
    f_lo = stats.f.ppf(1 - a / 2, 2 * (n - k + 1), 2 * k)
    f_hi = stats.f.ppf(1 - a / 2, 2 * (k + 1), 2 * (n - k))
    low = k / (k + (n - k + 1) * f_lo)
    high = (k + 1) * f_hi / ((n - k) + (k + 1) * f_hi)
    ci = proportion_ci(k, n, level=level)
    assert (ci.low, ci.high) == pytest.approx((low, high), abs=1e-12)


# --- the Wald caveat -----------------------------------------------------------------------
@pytest.mark.parametrize(("k", "n"), [(5, 100), (95, 100), (0, 50), (3, 5), (6, 11)])
def test_wald_warns_when_np_or_nq_at_most_5(k: int, n: int) -> None:
    with pytest.warns(MeasureCaveatWarning, match="Berrar Def. 36"):
        proportion_ci(k, n, method="wald")


@pytest.mark.parametrize(("k", "n"), [(6, 12), (50, 100), (94, 100)])
def test_wald_quiet_when_np_and_nq_above_5(k: int, n: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        proportion_ci(k, n, method="wald")


def test_wald_caveat_silenced_by_the_ignore_policy() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with bm.undefined_policy("ignore"):
            proportion_ci(3, 5, method="wald")


@pytest.mark.parametrize("method", [m for m in PROPORTION_METHODS if m != "wald"])
def test_other_methods_never_warn(method: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for k, n in [(0, 3), (3, 5), (5, 5)]:
            proportion_ci(k, n, method=method)


# --- bad input ---------------------------------------------------------------------------
def test_zero_trials_is_nan_with_a_warning() -> None:
    with pytest.warns(UndefinedMeasureWarning, match="no trials"):
        ci = proportion_ci(0, 0)
    assert math.isnan(ci.estimate) and math.isnan(ci.low) and math.isnan(ci.high)
    with bm.undefined_policy("raise"), pytest.raises(bm.UndefinedMeasureError):
        proportion_ci(0, 0, method="wilson")


@pytest.mark.parametrize("level", [0, 1, -0.1, 1.5, float("nan")])
def test_level_outside_unit_interval(level: float) -> None:
    with pytest.raises(ValueError, match="level"):
        proportion_ci(3, 5, level=level)


@pytest.mark.parametrize(("k", "n", "match"), [
    (-1, 5, "successes"), (6, 5, "successes"), (1, -2, "trials"),
    (float("nan"), 5, "successes"), (1, float("inf"), "trials"),
])
def test_bad_counts(k: float, n: float, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        proportion_ci(k, n)


def test_non_numeric_counts() -> None:
    with pytest.raises(TypeError, match="successes"):
        proportion_ci("three", 5)  # type: ignore[arg-type]


def test_unknown_method_lists_the_methods() -> None:
    with pytest.raises(ValueError, match="clopper-pearson, wald, wilson, agresti-coull, "
                                         "jeffreys"):
        proportion_ci(3, 5, method="logit")


@pytest.mark.parametrize(("alias", "method"), [
    ("exact", "clopper-pearson"), ("beta", "clopper-pearson"),
    ("Clopper_Pearson", "clopper-pearson"),
    ("normal", "wald"), ("agresti_coull", "agresti-coull"), ("Wilson", "wilson"),
])
def test_method_aliases(alias: str, method: str) -> None:
    assert quiet_ci(3, 5, alias).method == method
    assert list(quiet_ci(3, 5, alias)) == list(quiet_ci(3, 5, method))


# --- Interval -------------------------------------------------------------------------------
def test_interval_unpacks_as_its_bounds() -> None:
    ci = proportion_ci(3, 5)
    low, high = ci
    assert (low, high) == (ci.low, ci.high) == tuple(ci)
    assert ci.level == 0.95 and ci.method == "clopper-pearson" and ci.estimate == 0.6
    assert ci.contains(0.6) and not ci.contains(0.95)
    with pytest.raises(AttributeError):
        ci.low = 0.0  # type: ignore[misc]


# --- measure_ci over the registry ----------------------------------------------------------
PROPORTION_MEASURES = [m.id for m in bm.iter_measures() if m.proportion is not None]
OTHER_MEASURES = [m.id for m in bm.iter_measures()
                  if m.proportion is None and not m.interval_methods]


def test_the_registry_declares_proportions() -> None:
    assert {"tpr", "tnr", "ppv", "npv", "accuracy"} <= set(PROPORTION_MEASURES)
    assert "mcc" not in PROPORTION_MEASURES and "f1" not in PROPORTION_MEASURES


@pytest.mark.parametrize("measure", PROPORTION_MEASURES)
@pytest.mark.parametrize("method", PROPORTION_METHODS)
def test_measure_ci_of_every_proportion(measure: str, method: str) -> None:
    ev = bm.evaluate(BERRAR_Y, BERRAR_S, threshold=0.55)
    ci = measure_ci(ev, measure, method=method, level=0.9) if method != "wald" else None
    if ci is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MeasureCaveatWarning)
            ci = measure_ci(ev, measure, method=method, level=0.9)
    assert ci.estimate == pytest.approx(ev[measure], abs=1e-15)
    k, n = bm.get_measure(measure).proportion(ev.confusion)  # type: ignore[misc]
    assert list(ci) == list(quiet_ci(k, n, method, 0.9))
    assert ci.level == 0.9 and ci.method == method
    # a Confusion works as well as the Evaluation
    assert list(quiet_ci_measure(ev.confusion, measure, method)) == \
        list(quiet_ci_measure(ev, measure, method))


def quiet_ci_measure(obj: object, measure: str, method: str) -> Interval:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MeasureCaveatWarning)
        return measure_ci(obj, measure, method=method)  # type: ignore[arg-type]


def test_measure_ci_auto_and_aliases() -> None:
    ev = bm.evaluate(BERRAR_Y, BERRAR_S, threshold=0.55)
    assert measure_ci(ev, "recall").method == "clopper-pearson"
    assert list(measure_ci(ev, "recall")) == list(proportion_ci(3, 5))
    assert measure_ci(ev, "auc").method == "delong"


def test_measure_ci_weighted_counts() -> None:
    w = [0.5, 2.0, 1.0, 1.5, 1.0, 1.0, 3.0, 0.25, 1.0, 1.0]
    ev = bm.evaluate(BERRAR_Y, BERRAR_S, threshold=0.55, sample_weight=w)
    c = ev.confusion
    ci = measure_ci(ev, "sensitivity", method="wilson")
    assert list(ci) == list(proportion_ci(c.tp, c.tp + c.fn, method="wilson"))
    assert ci.estimate == pytest.approx(ev["sensitivity"], abs=1e-15)


@pytest.mark.parametrize("measure", OTHER_MEASURES)
def test_methods_that_do_not_apply_are_listed(measure: str) -> None:
    ev = bm.evaluate(BERRAR_Y, BERRAR_S, threshold=0.55)
    with pytest.raises(ValueError, match=r"methods that apply to it: bootstrap$"):
        measure_ci(ev, measure, method="clopper-pearson")
    with pytest.raises(ValueError, match=r"no closed-form interval.*bootstrap"):
        measure_ci(ev, measure)
    assert ci_methods(measure) == ("bootstrap",)


def test_auc_methods() -> None:
    ev = bm.evaluate(BERRAR_Y, BERRAR_S, threshold=0.55)
    assert ci_methods("roc_auc") == ("delong", "bootstrap")
    with pytest.raises(ValueError, match="methods that apply to it: delong, bootstrap"):
        measure_ci(ev, "auc", method="wilson")
    with pytest.raises(ValueError, match=r"delong.*does not apply to tpr.*clopper-pearson, "
                                         "wald, wilson, agresti-coull, jeffreys, bootstrap"):
        measure_ci(ev, "tpr", method="delong")
    with pytest.raises(ValueError, match="count table"):
        measure_ci(ev.confusion, "auc", method="delong")


def test_bootstrap_is_left_to_resampling() -> None:
    ev = bm.evaluate(BERRAR_Y, BERRAR_S, threshold=0.55)
    with pytest.raises(ValueError, match="resampling"):
        measure_ci(ev, "mcc", method="bootstrap")


def test_measure_ci_bad_arguments() -> None:
    ev = bm.evaluate(BERRAR_Y, BERRAR_S, threshold=0.55)
    with pytest.raises(ValueError, match="level"):
        measure_ci(ev, "tpr", level=1.0)
    with pytest.raises(KeyError, match="unknown measure"):
        measure_ci(ev, "sensitivty")
    with pytest.raises(TypeError, match="Evaluation or a Confusion"):
        measure_ci([3, 5], "tpr")  # type: ignore[arg-type]


def test_measure_ci_follows_the_evaluations_policy() -> None:
    # nothing predicted positive: the precision is 0/0
    with pytest.warns(bm.BinmetricsWarning, match="threshold 2 is outside the scores' range"):
        ev = bm.evaluate(BERRAR_Y, BERRAR_S, threshold=2.0, undefined="raise")
    with pytest.raises(bm.UndefinedMeasureError):
        measure_ci(ev, "precision")
    ev = bm.evaluate(BERRAR_Y, BERRAR_S, threshold=2.0, undefined="ignore")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isnan(measure_ci(ev, "precision").low)
    with pytest.warns(bm.BinmetricsWarning, match="threshold 2 is outside the scores' range"):
        ev = bm.evaluate(BERRAR_Y, BERRAR_S, threshold=2.0)
    with pytest.warns(UndefinedMeasureWarning):
        measure_ci(ev, "precision")
