"""Siblini et al. sections 3.2-3.3 numerically, and the undersampling heuristic (issue 4)."""

from __future__ import annotations

import importlib.util
import sys
import warnings
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.evaluation.undersampling import UndersampledEvaluation, undersample
from binmetrics.exceptions import UndefinedMeasureWarning

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "siblini_invariance.py"


def _load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("siblini_invariance", EXAMPLE)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("siblini_invariance", mod)
    spec.loader.exec_module(mod)
    return mod


si = _load_example()
N_SMALL = 200_000


# --- Figures 4-5: the mean of repeated runs and its confidence band -------------------------
def test_repeated_runs_average_the_runs_with_a_t_band() -> None:
    from scipy import stats

    pis = [0.3, 0.05]
    rows = si.repeated_runs(si.prior_experiment, 4, 3000, pis, seed=1)
    runs = [si.prior_experiment(3000, pis, seed=(1, r)) for r in range(4)]
    assert len({run[1]["average_precision"] for run in runs}) == 4  # fresh data per run
    for i, row in enumerate(rows):
        assert row["pi_param"] == pis[i] and row["runs"] == 4
        for key in ("average_precision", "best_f1_cal", "pi"):
            v = np.array([run[i][key] for run in runs])
            low, high = stats.t.interval(0.95, 3, loc=v.mean(), scale=stats.sem(v))
            assert row[key] == pytest.approx(v.mean(), rel=1e-12)
            assert (row[key + "_low"], row[key + "_high"]) == (
                pytest.approx(low, rel=1e-12), pytest.approx(high, rel=1e-12))
    # Fig. 5: each run draws its own random priors
    five = si.repeated_runs(si.distance_experiment, 3, 2000, [0.5, 0.1], seed=2)
    assert five[0]["pi_param_high"] > five[0]["pi_param_low"]
    with pytest.raises(ValueError, match="at least 2"):
        si.repeated_runs(si.prior_experiment, 1, 1000, pis)


def test_example_draws_figures_4_to_6(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert si.main(["--n", "3000", "--runs", "3", "--n-priors", "4", "--n-distances",
                        "4", "--n-resamples", "5", "--out", str(tmp_path)]) == 0
    for name in ("fig4_prior.png", "fig5_distance.png", "fig6_undersampling.png"):
        assert (tmp_path / name).stat().st_size > 10_000


# --- (i) the paper's claims -----------------------------------------------------------------
@pytest.fixture(scope="module")
def prior_rows() -> list[dict[str, float]]:
    return si.prior_experiment(N_SMALL, np.geomspace(0.5, 0.001, 12), seed=0)


def test_raw_ap_moves_with_the_prior_calibrated_ap_does_not(prior_rows):
    raw = np.array([r["average_precision"] for r in prior_rows])
    cal = np.array([r["average_precision_cal"] for r in prior_rows])
    assert np.ptp(raw) > 0.3
    assert np.ptp(cal) < 0.1 * np.ptp(raw)
    # raw AP falls with the prior; at pi = pi0 = 0.5 the two nearly coincide
    assert raw[0] > raw[-1] and np.all(np.diff(raw[:-2]) < 0)
    assert abs(raw[0] - cal[0]) < 0.01


def test_calibrated_best_f1_is_prior_invariant(prior_rows):
    raw = np.array([r["best_f1"] for r in prior_rows])
    cal = np.array([r["best_f1_cal"] for r in prior_rows])
    assert np.ptp(raw) > 0.3
    assert np.ptp(cal) < 0.1 * np.ptp(raw)


def test_calibrated_values_fall_as_classes_move_together():
    kls = np.linspace(0.5, 0.0, 6)
    rows = si.distance_experiment(N_SMALL, kls, seed=0)
    pis = [r["pi"] for r in rows]
    assert max(pis) - min(pis) > 0.1  # the priors really are random
    for key in ("average_precision_cal", "auprg_cal", "best_f1_cal"):
        v = np.array([r[key] for r in rows])
        assert np.all(np.diff(v) < 0), (key, v)


def test_make_data_is_the_papers_model():
    y, s = si.make_data(50_000, 0.2, mu1=2.0, mu0=1.8, seed=3)
    assert abs(y.mean() - 0.2) < 0.01
    assert abs(s[y].mean() - 2.0) < 0.03 and abs(s[~y].mean() - 1.8) < 0.02
    y2, s2 = si.make_data(50_000, 0.2, seed=3)
    assert np.array_equal(y, y2) and np.array_equal(s, s2)


# --- (ii) the undersampling heuristic --------------------------------------------------------
@pytest.fixture(scope="module")
def imbalanced() -> bm.Evaluation:
    y, s = si.make_data(N_SMALL, 0.01, mu1=2.0, mu0=0.0, seed=11)
    return bm.evaluate(y, s)


@pytest.mark.parametrize("pi0", [0.05, 0.2, 0.5])
def test_undersampling_agrees_with_closed_form(imbalanced, pi0):
    us = imbalanced.calibrated(pi0, method="undersample", n_resamples=200, random_state=7)
    assert isinstance(us, UndersampledEvaluation)
    closed = imbalanced.calibrated(pi0)["average_precision"]
    se = us.sem("average_precision")
    assert 0 < se < 0.01
    assert abs(us["average_precision"] - closed) < 4 * se
    # recall at a fixed cut is not calibrated: the heuristic's mean is the raw value
    assert abs(us["recall"] - imbalanced["recall"]) < 4 * us.sem("recall") + 1e-12


def test_undersample_sizes_and_direction(imbalanced):
    P, N = int(imbalanced.table.P), int(imbalanced.table.N)
    us = imbalanced.calibrated(0.2, method="undersample", n_resamples=3, random_state=0)
    assert (us.thinned, us.n_positive, us.n_negative) == ("negative", P, round(P * 0.8 / 0.2))
    assert us.n_resamples == 3 and us.pi0 == 0.2 and us.pi == P / (P + N)
    low = imbalanced.calibrated(0.001, method="undersample", n_resamples=3, random_state=0)
    assert (low.thinned, low.n_negative) == ("positive", N)
    assert low.n_positive == round(N * 0.001 / 0.999)


def test_pi0_equal_to_prior_gives_raw_values_exactly(imbalanced):
    ev = imbalanced
    pi = ev.table.P / ev.table.total
    us = ev.calibrated(pi, method="undersample", n_resamples=5, random_state=0)
    ids = ["average_precision", "auc", "auprg", "f1", "precision", "mcc"]
    for m in ids:
        assert us[m] == ev[m], m
        assert us.std(m) == 0.0
    assert us.to_dict(measures=ids) == ev.to_dict(measures=ids)


def test_reproducible_and_order_independent():
    y, s = si.make_data(5_000, 0.1, mu1=1.0, mu0=0.0, seed=2)
    ev = bm.evaluate(y, s)
    a = ev.calibrated(0.3, method="undersample", n_resamples=20, random_state=42)
    b = ev.calibrated(0.3, method="undersample", n_resamples=20, random_state=42)
    c = ev.calibrated(0.3, method="undersample", n_resamples=20, random_state=43)
    va = a.values("average_precision")
    _ = b["auc"]  # another measure first: the same subsamples are redrawn
    assert np.array_equal(va, b.values("average_precision"))
    assert not np.array_equal(va, c.values("average_precision"))
    assert np.isclose(a.value("fbeta", beta=2), b.value("fbeta", beta=2))
    assert a.std("average_precision") > 0
    # the functional form and a CountTable give the same subsamples
    assert np.array_equal(undersample(ev, 0.3, n_resamples=20, random_state=42)
                          .values("average_precision"), va)
    t = undersample(ev.table, 0.3, n_resamples=20, random_state=42)
    assert np.array_equal(t.values("average_precision"), va)


def test_subsamples_have_the_right_counts_with_ties():
    rng = np.random.default_rng(0)
    s = rng.integers(0, 5, 3000).astype(float)  # heavy ties: hypergeometric split
    y = rng.random(3000) < 0.2 + 0.1 * s
    ev = bm.evaluate(y, s)
    us = ev.calibrated(0.7, method="undersample", n_resamples=50, random_state=1)
    assert us.thinned == "negative"
    # positives are kept whole: recall at the cut is the same in every subsample
    assert np.all(us.values("recall") == ev["recall"])
    assert np.all(us.values("prevalence") == pytest.approx(us.n_positive
                                                          / (us.n_positive + us.n_negative)))
    close = ev.calibrated(0.7)["average_precision"]
    assert abs(us["average_precision"] - close) < 4 * us.sem("average_precision")


def test_to_dict_and_frame():
    y, s = si.make_data(2_000, 0.3, mu1=1.0, mu0=0.0, seed=4)
    p = 1 / (1 + np.exp(-s))
    ev = bm.evaluate(y, p, undefined="ignore")
    us = ev.calibrated(0.5, method="undersample", n_resamples=5, random_state=0)
    d = us.to_dict()
    assert set(d) == set(ev.to_dict())
    assert d["auc"] == pytest.approx(ev["auc"], abs=0.03)
    f = us.to_frame(measures=["auc", "average_precision"])
    assert f["id"].tolist() == ["auc", "average_precision"]
    assert (f["n_resamples"] == 5).all() and (f["pi0"] == 0.5).all()
    assert "pi0=0.5" in repr(us)


def test_undefined_repeats_are_counted():
    # only the top (negative) case is predicted positive; subsamples that drop it
    # predict nothing positive, so their precision is undefined
    y = np.array([0] + [1, 1] + [0] * 8)
    s = np.array([0.9, 0.4, 0.3, *np.linspace(0.29, 0.01, 8)])
    ev = bm.evaluate(y, s, threshold=0.5)
    us = ev.calibrated(0.5, method="undersample", n_resamples=200, random_state=0)
    k = us.n_undefined("precision")
    assert 100 < k < 200  # the top negative survives with probability 2/9
    with pytest.warns(UndefinedMeasureWarning, match=f"{k} of 200"):
        v = us["precision"]
    assert v == 0.0  # where defined, the one predicted positive is a negative
    quiet = bm.evaluate(y, s, threshold=0.5, undefined="ignore").calibrated(
        0.5, method="undersample", n_resamples=200, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert quiet["precision"] == 0.0
    with pytest.raises(bm.UndefinedMeasureError):
        bm.evaluate(y, s, threshold=0.5, undefined="raise").calibrated(
            0.5, method="undersample", n_resamples=200, random_state=0)["precision"]


# --- (iii) bad input --------------------------------------------------------------------------
@pytest.mark.parametrize("pi0", [0.0, 1.0, -0.1, 1.5, float("nan")])
@pytest.mark.parametrize("method", ["reweight", "undersample"])
def test_pi0_outside_unit_interval(pi0, method):
    ev = bm.evaluate([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])
    with pytest.raises(ValueError, match="pi0 must lie in"):
        ev.calibrated(pi0, method=method)


def test_weighted_table_cannot_be_undersampled():
    ev = bm.evaluate([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1], sample_weight=[1, 2, 1, 1])
    with pytest.raises(ValueError, match="weighted table"):
        ev.calibrated(0.5, method="undersample")
    cal = bm.evaluate([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1]).calibrated(0.3)
    with pytest.raises(ValueError, match="calibrated table"):
        cal.calibrated(0.5, method="undersample")


def test_unknown_method_and_bad_repeats():
    ev = bm.evaluate([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])
    with pytest.raises(ValueError, match="method must be 'reweight' or 'undersample'"):
        ev.calibrated(0.5, method="oversample")
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="n_resamples"):
            ev.calibrated(0.5, method="undersample", n_resamples=bad)  # type: ignore[arg-type]
    with pytest.warns(UserWarning, match="apply to method='undersample'"):
        ev.calibrated(0.5, n_resamples=10)
    with pytest.raises(TypeError, match="Evaluation or a CountTable"):
        undersample([1, 0], 0.5)  # type: ignore[arg-type]


def test_single_class_and_empty_subsample():
    ev = bm.evaluate([1, 1, 1], [0.9, 0.8, 0.3], undefined="ignore")
    with pytest.raises(ValueError, match="both classes"):
        ev.calibrated(0.5, method="undersample")
    ev = bm.evaluate([1, 0, 0, 0], [0.9, 0.8, 0.3, 0.1])
    with pytest.raises(ValueError, match="leaves no positive case"):
        ev.calibrated(0.01, method="undersample")


def test_reweight_default_unchanged():
    y = [1, 1, 0, 1, 0, 0, 1, 0, 0, 0]
    s = [.9, .8, .8, .7, .7, .5, .4, .3, .3, .1]
    ev = bm.evaluate(y, s)
    assert ev.calibrated(0.5)["average_precision"] == pytest.approx(0.7772435897, abs=1e-10)
    assert ev.calibrated(0.5, method="reweight")["average_precision"] == \
        ev.calibrated(0.5)["average_precision"]
