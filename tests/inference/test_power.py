"""power_roc_test against pROC 1.18's power.roc.test (R 4.2.2; values recorded with
``sprintf("%.17g", c(p$ncases, p$ncontrols, p$auc, p$sig.level, p$power))``)."""

from __future__ import annotations

import pytest

import binmetrics as bm
from binmetrics.inference.power import obuchowski_variance

# the data of tests/curves/test_roc_tools.py (y <- c(...); s <- c(...) in R)
Y = [1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1,
     0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1]
S = [1.4, 0.6, -0.7, -0.8, 0.2, 0.7, 1.4, -0.6, 0.1, -0, 0.4, -2.3, 1.5, 0.1, -0.1, 0.4, 1.1,
     -1.3, 1.5, 1.6, 0.5, 0.1, -1.6, -0.8, -0.2, 1, 0.1, 2.6, 1.1, 1, 1.7, -0.3, 1, 0.5, -1.3,
     0.7, 1.1, 1.8, 1.9, -0.6]

# (binmetrics arguments, the pROC call, (ncases, ncontrols, auc, sig.level, power))
ONE_CURVE = [
    (dict(auc=0.8, power=0.9), "power.roc.test(auc = 0.8, power = 0.9)",
     (16.619199202101981, 16.619199202101981, 0.8, 0.05, 0.9), "n_cases"),
    (dict(auc=0.8, n_cases=20), "power.roc.test(auc = 0.8, ncases = 20)",
     (20, 20, 0.8, 0.05, 0.94789863656853135), "power"),
    (dict(auc=0.8, n_cases=20, power=0.9, alpha=None),
     "power.roc.test(auc = 0.8, ncases = 20, power = 0.9, sig.level = NULL)",
     (20, 20, 0.8, 0.023941839347157767, 0.9), "alpha"),
    (dict(auc=0.72, n_controls=60, kappa=3, alpha=0.01),
     "power.roc.test(auc = 0.72, ncontrols = 60, kappa = 3, sig.level = 0.01)",
     (20, 60, 0.72, 0.01, 0.67818076724336596), "power"),
    (dict(auc=0.7, kappa=2.5, power=0.8, alternative="greater"),
     'power.roc.test(auc = 0.7, kappa = 2.5, power = 0.8, alternative = "one.sided")',
     (16.910409933150227, 42.276024832875564, 0.7, 0.05, 0.8), "n_cases"),
]


@pytest.mark.parametrize("kwargs, r_call, expected, solved", ONE_CURVE)
def test_one_curve_matches_proc(kwargs, r_call, expected, solved):
    r = bm.power_roc_test(**kwargs)
    got = (r.n_cases, r.n_controls, r.auc, r.alpha, r.power)
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-12), r_call
    assert r.solved_for == solved


@pytest.mark.parametrize("kwargs, r_call, proc_root, exact_root", [
    # power.roc.test(ncases = 20, power = 0.9)$auc -> 0.7766823346926528 (uniroot's
    # default tol = .Machine$double.eps^0.25); the exact root, from the same function with
    # uniroot(pROC:::power.roc.test.optimize.auc.function, c(0.5, 1 - 1e-16), ncontrols = 20,
    #         ncases = 20, zalpha = qnorm(1 - 0.025), zbeta = qnorm(0.9), tol = 1e-15)
    (dict(n_cases=20, power=0.9), "ncases = 20, power = 0.9", 0.7766823346926528,
     0.77668056662412588),
    # power.roc.test(ncases = 35, ncontrols = 70, power = 0.8, sig.level = 0.01,
    #   alternative = "one.sided")$auc; exact: the same uniroot with zalpha = qnorm(0.99),
    #   zbeta = qnorm(0.8), ncases = 35, ncontrols = 70, tol = 1e-15
    (dict(n_cases=35, n_controls=70, power=0.8, alpha=0.01, alternative="greater"),
     "ncases = 35, ncontrols = 70, ...", 0.68363643134966878, 0.68363782209609991),
])
def test_solving_for_the_auc(kwargs, r_call, proc_root, exact_root):
    r = bm.power_roc_test(**kwargs)
    assert r.solved_for == "auc"
    assert r.auc == pytest.approx(exact_root, abs=1e-12), r_call
    assert r.auc == pytest.approx(proc_root, abs=2e-6)  # pROC's root is off by uniroot's tol
    back = bm.power_roc_test(auc=r.auc, n_cases=r.n_cases, n_controls=r.n_controls,
                             alpha=r.alpha, alternative=r.alternative)
    assert back.power == pytest.approx(r.power, abs=1e-9)


def test_pilot_curve_matches_proc():
    # r <- roc(y, s, levels = c(0, 1), direction = "<"): power.roc.test(r) and
    # power.roc.test(r, power = 0.95)
    ev = bm.evaluate(Y, S)
    r = bm.power_roc_test(ev)
    assert (r.n_cases, r.n_controls, r.auc, r.power) == pytest.approx(
        (21, 19, 0.63032581453634084, 0.30651022392332272), rel=1e-12)
    r = bm.power_roc_test(ev, power=0.95)
    assert (r.n_cases, r.n_controls) == pytest.approx(
        (125.64088016427337, 113.6750820533902), rel=1e-12)


# set.seed(1); s2 <- round(s + rnorm(length(s)), 1)
S2 = [0.8, 0.8, -1.5, 0.8, 0.5, -0.1, 1.9, 0.1, 0.7, -0.3, 1.9, -1.9, 0.9, -2.1, 1, 0.4, 1.1,
      -0.4, 2.3, 2.2, 1.4, 0.9, -1.5, -2.8, 0.4, 0.9, -0.1, 1.1, 0.6, 1.4, 3.1, -0.4, 1.4, 0.4,
      -2.7, 0.3, 0.7, 1.7, 3, 0.2]


@pytest.mark.parametrize("kwargs, r_call, expected", [
    (dict(power=0.9), "power.roc.test(r, r2, power = 0.9)",
     (259.41893743204832, 234.71237196232943, 0.05, 0.9)),
    (dict(), "power.roc.test(r, r2)", (21, 19, 0.05, 0.18113275869896492)),
    # pROC's level comes out above 1 here (z_alpha < 0); we keep its formula
    (dict(power=0.9, alpha=None), "power.roc.test(r, r2, power = 0.9, sig.level = NULL)",
     (21, 19, 1.3475127971500509, 0.9)),
    (dict(power=0.8, kappa=2, alternative="greater"),
     'power.roc.test(r, r2, power = 0.8, kappa = 2, alternative = "one.sided")',
     (150.98774903977773, 301.97549807955545, 0.05, 0.8)),
])
def test_two_paired_curves_match_proc(kwargs, r_call, expected):
    # r2 <- roc(y, s2, levels = c(0, 1), direction = "<")
    r = bm.power_roc_test(Y, S, S2, **kwargs)
    got = (r.n_cases, r.n_controls, r.alpha, r.power)
    assert got == pytest.approx(expected, rel=1e-10), r_call
    assert r.auc == pytest.approx((0.63032581453634084, 0.57393483709273185), rel=1e-12)
    assert "Two ROC curves" in repr(r)
    assert list(r.to_frame().columns)[:5] == ["n_cases", "n_controls", "auc", "alpha",
                                              "power"]


def test_obuchowski_constants():
    # pROC:::var.theta.obuchowski(0.8, 1)
    a = 1.414 * 0.8416212335729143
    assert obuchowski_variance(0.8, 1) == pytest.approx(
        0.0099 * 2.718281828459045 ** (-a * a / 2) * (6 * a * a + 16), rel=1e-14)


@pytest.mark.parametrize("kwargs, match", [
    (dict(auc=0.8, n_cases=20, power=0.9), "every quantity is given"),
    (dict(auc=0.8), "n_cases and power are missing"),
    (dict(power=0.9), "n_cases and auc"),
    (dict(auc=0.4, power=0.9), r"auc must lie in \(0.5, 1\)"),
    (dict(auc=0.8, power=1.2), "power must lie"),
    (dict(auc=0.8, power=0.9, alternative="less"), "alternative"),
    (dict(auc=0.8, n_cases=-3), "positive"),
])
def test_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        bm.power_roc_test(**kwargs)


def test_pilot_forms_refuse_design_quantities():
    with pytest.raises(ValueError, match="from the pilot"):
        bm.power_roc_test(bm.evaluate(Y, S), auc=0.8)
    with pytest.raises(ValueError, match="two models"):
        bm.power_roc_test(Y, S, S2, n_cases=30)
    with pytest.raises(TypeError, match="positional"):
        bm.power_roc_test(Y, S)


def test_cli_power(capsys):
    from binmetrics.cli.app import main

    assert main(["power", "--auc", "0.8", "--power", "0.9", "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert '"solved_for": "n_cases"' in out and "16.6191992021" in out
    assert main(["power", "--auc", "0.8", "--n-cases", "20", "--power", "0.9",
                 "--alpha", "none"]) == 0
    assert "0.0239418" in capsys.readouterr().out
    assert main(["power", "--auc", "0.8"]) == 2
    err = capsys.readouterr().err
    assert "--n-cases and --power are missing" in err and err.count("\n") == 1


def test_too_many_cases_for_a_detectable_auc_is_a_clear_error() -> None:
    """n_cases=1e300 answered with scipy's "f(a) and f(b) must have different signs"."""
    with pytest.raises(ValueError, match=r"^with 1e\+300 cases every AUC above 0.5 \+ 1e-12 "
                                         r"reaches power 0.8 .*give fewer cases"):
        bm.power_roc_test(n_cases=1e300, power=0.8)
    with pytest.raises(ValueError, match="n_cases must be a positive finite number"):
        bm.power_roc_test(n_cases=float("inf"), power=0.8)
    assert 0.5 < bm.power_roc_test(n_cases=1e12, power=0.8).auc < 0.5 + 1e-5


def test_a_pilot_of_one_class_is_a_clear_error() -> None:
    """A pilot evaluation without controls raised ZeroDivisionError."""
    ev = bm.evaluate([1, 1, 1], [0.2, 0.5, 0.8])  # lazy: nothing is computed (or warned)
    with pytest.raises(ValueError, match=r"^the pilot evaluation has 3 cases and 0 controls"):
        bm.power_roc_test(ev, power=0.9)


def test_pilot_pairs_the_formulas_cannot_use_are_clear_errors() -> None:
    """Two equal pilot AUCs, or a difference without variance, raised ZeroDivisionError."""
    y = [1, 0, 1, 0, 1, 0, 1, 0]
    a = [.9, .1, .8, .3, .7, .4, .2, .6]
    b = [.2, .1, .8, .3, .7, .4, .9, .6]  # the same AUC, ranked otherwise
    with pytest.raises(ValueError, match=r"^the two pilot AUCs are equal \(0.8125\): no "
                                         "number of cases detects a difference of 0"):
        bm.power_roc_test(y, a, b, power=0.9)
    assert bm.power_roc_test(y, a, b, power=0.9, alpha=None).solved_for == "alpha"
    with pytest.warns(bm.MeasureCaveatWarning), \
            pytest.raises(ValueError, match=r"^the pilot AUCs \(1 and 1\) have no variance"):
        bm.power_roc_test(y, [.9, .1, .8, .3, .7, .4, .6, .2],
                          [.8, .2, .9, .4, .6, .3, .7, .1], power=0.9)
