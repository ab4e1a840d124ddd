"""Evaluation.ci, ci_table and permutation_test: the wiring to binmetrics.intervals and
binmetrics.resampling, and `binmetrics evaluate --ci`."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from statsmodels.stats.proportion import proportion_confint

import binmetrics as bm
from binmetrics.cli import main
from binmetrics.inference import intervals, resampling

Y = np.array([1, 1, 0, 1, 1, 0, 0, 1, 0, 0])
S = np.array([.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])


pytestmark = pytest.mark.filterwarnings("ignore::binmetrics.UndefinedMeasureWarning")


@pytest.fixture
def ev() -> bm.Evaluation:
    return bm.evaluate(Y, S, threshold=0.55)


@pytest.mark.parametrize(("method", "sm"), [("clopper-pearson", "beta"), ("wilson", "wilson"),
                                            ("agresti-coull", "agresti_coull"),
                                            ("jeffreys", "jeffreys")])
def test_proportion_intervals_of_every_proportion_measure(ev, method, sm):
    for m in bm.iter_measures("confusion"):
        if m.proportion is None:
            continue
        k, n = m.proportion(ev.confusion)
        low, high = ev.ci(m.id, method=method, level=0.9)
        exp = proportion_confint(k, n, alpha=0.1, method=sm)
        np.testing.assert_allclose([low, high], exp, rtol=1e-12, atol=1e-15, err_msg=m.id)


def test_auto_picks_exact_delong_and_bootstrap(ev):
    assert ev.ci("precision").method == "clopper-pearson"
    assert ev.ci("auc").method == "delong"
    assert ev.ci("auc") == intervals.auc_ci(Y, S)
    ci = ev.ci("mcc", n_resamples=300, random_state=1)
    assert ci.method == "bootstrap-percentile"
    assert ci == ev.ci("mcc", n_resamples=300, random_state=1)  # same seed, same interval


def test_bootstrap_through_ci_equals_the_resampling_module(ev):
    direct = resampling.bootstrap(ev.table, ["fbeta"], n_resamples=400, threshold=0.55,
                                  random_state=3, params={"fbeta": {"beta": 2}})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = ev.ci("fbeta", method="bootstrap", kind="bca", n_resamples=400,
                    random_state=3, beta=2)
        exp = direct.ci("fbeta", kind="bca")
    assert (got.low, got.high) == (exp.low, exp.high)


def test_a_method_that_does_not_apply_lists_those_that_do(ev):
    with pytest.raises(ValueError, match=r"does not apply to mcc.*bootstrap"):
        ev.ci("mcc", method="clopper-pearson")
    with pytest.raises(ValueError, match="does not apply to tpr"):
        ev.ci("tpr", method="delong")
    with pytest.raises(TypeError, match="tpr takes no parameter beta"):
        ev.ci("tpr", beta=2)


def test_ci_table_shares_one_bootstrap(ev):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = ev.ci_table(["tpr", "auc", "mcc", "f1"], n_resamples=300, random_state=0)
        boot = resampling.bootstrap(ev.table, ["mcc", "f1"], n_resamples=300,
                                    threshold=0.55, random_state=0)
    assert table.method.tolist() == ["clopper-pearson", "delong", "bootstrap-percentile",
                                     "bootstrap-percentile"]
    for mid in ("mcc", "f1"):
        row = table.set_index("id").loc[mid]
        assert (row.low, row.high) == tuple(boot.ci(mid))
    assert table.value.tolist() == [ev[m] for m in ("tpr", "auc", "mcc", "f1")]


def test_permutation_test_is_two_sided_unless_asked(ev):
    res = ev.permutation_test("auc", n_resamples=999, random_state=0)
    greater = ev.permutation_test("auc", n_resamples=999, random_state=0,
                                  alternative="greater")
    less = ev.permutation_test("auc", n_resamples=999, random_state=0, alternative="less")
    assert (res.alternative, greater.alternative) == ("two-sided", "greater")
    # the same permutations: two-sided is twice the smaller tail (capped at 1)
    assert res.pvalue == min(1.0, 2 * min(greater.pvalue, less.pvalue))
    exp = resampling.permutation_test(ev.table, "auc", n_resamples=999, random_state=0)
    assert res.pvalue == exp.pvalue
    # a measure without a direction has a two-sided test too
    assert ev.permutation_test("prevalence", n_resamples=10).alternative == "two-sided"
    with pytest.raises(ValueError, match="'auto' is gone"):
        ev.permutation_test("auc", n_resamples=10, alternative="auto")


def test_progress_callback_sees_every_replicate(ev):
    seen = []
    ev.ci("mcc", n_resamples=250, random_state=0, progress=lambda d, n: seen.append((d, n)))
    assert seen[-1] == (250, 250) and all(n == 250 for _, n in seen)


def test_cli_ci(tmp_path, capsys):
    code = main(["evaluate", "--example", "berrar", "--threshold", "0.55", "--measures",
                 "tpr,auc,mcc", "--ci", "--seed", "0", "--resamples", "300",
                 "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    ev = bm.evaluate(Y, S, threshold=0.55)
    iv = out["intervals"]
    assert (iv["tpr"]["low"], iv["tpr"]["high"]) == tuple(ev.ci("tpr"))
    assert iv["auc"]["method"] == "delong" and iv["auc"]["high"] == 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mcc = ev.ci("mcc", n_resamples=300, random_state=0)
    assert (iv["mcc"]["low"], iv["mcc"]["high"]) == (mcc.low, mcc.high)
    code = main(["evaluate", "--example", "berrar", "--measures", "mcc", "--ci",
                 "--ci-method", "wilson"])
    err = capsys.readouterr().err
    assert code == 2 and "--ci-method wilson applies to none" in err


def test_progress_true_draws_a_bar_on_stderr(ev, capsys):
    ev.ci("mcc", n_resamples=100, random_state=0, progress=True)
    err = capsys.readouterr().err
    assert "bootstrap" in err and "100/100" in err
    with pytest.raises(TypeError, match="progress must be"):
        ev.ci("mcc", n_resamples=10, progress="yes")


# --- review: one convention for weights, infinite replicates, ranges, method spellings -----
def test_constant_weights_are_frequencies_for_every_interval():
    # weights of 3 = every row three times, for the closed forms and the bootstrap alike
    w = np.full(Y.size, 3)
    ev_w = bm.evaluate(Y, S, sample_weight=w, threshold=0.55)
    ev_r = bm.evaluate(np.repeat(Y, 3), np.repeat(S, 3), threshold=0.55)
    for measure, method in (("tpr", "clopper-pearson"), ("auc", "delong")):
        got, exp = ev_w.ci(measure, method=method), ev_r.ci(measure, method=method)
        np.testing.assert_allclose([got.low, got.high], [exp.low, exp.high], rtol=1e-12,
                                   err_msg=measure)
    # the bootstrap draws 30 cases too (same distribution, other random draws): drawing
    # the 10 rows instead would widen the interval by about sqrt(3)
    got = ev_w.ci("mcc", n_resamples=4000, random_state=0)
    exp = ev_r.ci("mcc", n_resamples=4000, random_state=1)
    assert 0.85 < (got.high - got.low) / (exp.high - exp.low) < 1.15


def test_infinite_replicates_give_infinite_not_nan_bounds():
    ev = bm.evaluate(Y, S, threshold=0.55)
    low, high = ev.ci("lr_plus", method="bootstrap", n_resamples=2000, random_state=0)
    assert np.isfinite(low) and high == np.inf
    assert resampling.quantiles([1.0, 2.0, np.inf, np.inf], [0.5, 0.9]) == [np.inf, np.inf]
    assert resampling.quantiles([1.0, 2.0, 3.0], [0.25]) == list(np.quantile([1, 2, 3], [0.25]))


def test_basic_interval_stays_in_the_measures_range():
    ev = bm.evaluate(Y, S, threshold=0.55)
    low, high = ev.ci("auc", method="bootstrap", kind="basic", n_resamples=2000, random_state=0)
    assert 0.0 <= low <= high <= 1.0


def test_method_spellings_and_mapping_keys():
    ev = bm.evaluate(Y, S, threshold=0.55)
    assert ev.ci("auc", method="DeLong").method == "delong"
    assert ev.ci("tpr", method="Clopper_Pearson").method == "clopper-pearson"
    table = ev.ci_table(["recall", "auc"], method={"recall": "wilson"})
    assert table.method.tolist() == ["wilson", "delong"]
    with pytest.raises(ValueError, match="not in the table"):
        ev.ci_table(["tpr"], method={"auc": "delong"})
    with pytest.warns(UserWarning, match="apply to the bootstrap"):
        ev.ci("tpr", kind="bca")


def test_module_permutation_test_is_two_sided_for_measures_and_callables():
    t = bm.CountTable.from_arrays(Y, S)
    assert resampling.permutation_test(t, "brier", n_resamples=99,
                                       random_state=0).alternative == "two-sided"
    assert resampling.permutation_test(t, lambda tab: 0.0, n_resamples=9).pvalue == 1.0
