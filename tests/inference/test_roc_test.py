"""bm.roc_test against pROC 1.18's roc.test.

The data: ``numpy.random.default_rng(2015)``, n = 300 (see ``_data``), written to rt.csv
and read in R 4.2.2 / pROC 1.18.0:

    d <- read.csv("rt.csv")
    r1 <- roc(d$y, d$a, levels = c(0, 1), direction = "<")
    r2 <- roc(d$y, d$b, levels = c(0, 1), direction = "<")
    h <- function(t) sprintf("%.10g", c(t$statistic, t$p.value, t$estimate))

DeLong is deterministic (compared to 1e-9). The bootstrap tests draw different random
cases in R and here, so their statistics agree only within Monte Carlo error: with
B = 2000 replicates the standard deviation in the denominator of D is estimated to about
1/sqrt(2B) = 1.6 % (relative), so D agrees within a few percent; the tests allow 6 %
(checked over seeds 0-2: the largest gap was 2.2 %).
"""

from __future__ import annotations

import numpy as np
import pytest

import binmetrics as bm


def _data():
    r = np.random.default_rng(2015)
    n = 300
    y = r.integers(0, 2, n)
    a = np.round(r.normal(size=n) + 1.0 * y, 1)
    b = np.round(0.6 * a + r.normal(size=n) * 0.8 + 0.3 * y, 1)
    return y, a, b


Y, A, B = _data()


def test_delong_paired_and_unpaired_match_proc():
    # h(roc.test(r1, r2, method = "delong")) -> 1.397955017 0.1621265757 0.7532894737 0.7153493954
    t = bm.roc_test(Y, A, B)
    assert (t.statistic, t.pvalue, t.value_a, t.value_b) == pytest.approx(
        (1.397955017, 0.1621265757, 0.7532894737, 0.7153493954), rel=1e-9)
    assert t.paired and t.method == "delong"
    # u2 <- roc(d$y[1:150], d$b[1:150], ...); h(roc.test(r1, u2, method = "delong",
    #   paired = FALSE)) -> 0.35317021 0.7242156514 0.7532894737 0.7360789895
    u = bm.roc_test(Y, A, B[:150], y_b=Y[:150])
    assert (u.statistic, u.pvalue, u.value_b) == pytest.approx(
        (0.35317021, 0.7242156514, 0.7360789895), rel=1e-8)
    assert not u.paired and u.df is not None


# (our arguments, the pROC call, pROC's statistic D)
BOOTSTRAP = [
    (dict(method="bootstrap"), "set.seed(1); roc.test(r1, r2, method = 'bootstrap', "
     "boot.n = 2000)", 1.368173766),
    (dict(method="bootstrap", fpr=(0, .2)), "r1p/r2p <- roc(..., partial.auc = c(1, .8)); "
     "set.seed(1); roc.test(r1p, r2p, method = 'bootstrap', boot.n = 2000)", 1.234016239),
    (dict(method="specificity", fpr=0.1), "set.seed(1); roc.test(r1, r2, method = "
     "'specificity', specificity = 0.9, boot.n = 2000)", 1.593880278),
    (dict(method="sensitivity", tpr=0.8), "set.seed(1); roc.test(r1, r2, method = "
     "'sensitivity', sensitivity = 0.8, boot.n = 2000)", 0.9708112171),
]


@pytest.mark.parametrize("kwargs, r_call, proc_d", BOOTSTRAP)
def test_bootstrap_methods_within_monte_carlo_error_of_proc(kwargs, r_call, proc_d):
    t = bm.roc_test(Y, A, B, n_resamples=2000, random_state=0, **kwargs)
    assert t.statistic == pytest.approx(proc_d, rel=0.06), r_call
    again = bm.roc_test(Y, A, B, n_resamples=2000, random_state=0, **kwargs)
    assert again.statistic == t.statistic  # reproducible


def test_unpaired_bootstrap_within_monte_carlo_error_of_proc():
    # set.seed(1); roc.test(r1, u2, method = "bootstrap", boot.n = 2000, paired = FALSE)
    #   -> D = 0.3483405123
    t = bm.roc_test(Y, A, B[:150], y_b=Y[:150], method="bootstrap", random_state=0)
    assert t.statistic == pytest.approx(0.3483405123, rel=0.08)
    assert not t.paired


def test_bootstrap_statistic_is_difference_over_sd_of_the_paired_replicates():
    t = bm.roc_test(Y, A, B, method="bootstrap", n_resamples=300, random_state=5)
    cmp = bm.compare(Y, {"a": A, "b": B}, measures=["auc"], method="bootstrap",
                     n_resamples=300, random_state=5)
    d = cmp.differences("a", "b", "auc")
    assert t.statistic == pytest.approx(t.estimate / np.std(d, ddof=1), rel=1e-12)


def test_alternatives_and_repr():
    two = bm.roc_test(Y, A, B)
    greater = bm.roc_test(Y, A, B, alternative="greater")
    less = bm.roc_test(Y, A, B, alternative="less")
    assert greater.pvalue == pytest.approx(two.pvalue / 2)
    assert less.pvalue == pytest.approx(1 - two.pvalue / 2)
    assert "delong" in repr(two)
    assert two.to_frame().loc[0, "pvalue"] == two.pvalue


@pytest.mark.parametrize("kwargs, err, match", [
    (dict(method="delong", fpr=(0, .2)), ValueError, "method='bootstrap'"),
    (dict(method="specificity"), ValueError, "fpr=x"),
    (dict(method="specificity", fpr=(0, .2)), ValueError, "fpr=x"),
    (dict(method="sensitivity", fpr=.1), ValueError, "tpr=x"),
    (dict(method="bootstrap", fpr=(0, .2), tpr=(.8, 1)), ValueError, "not both"),
    (dict(method="wilcoxon"), ValueError, "method must be"),
    (dict(method="venkatraman", alternative="greater"), ValueError, "two-sided only"),
    (dict(method="venkatraman", fpr=(0, .2)), ValueError, "whole curves"),
    (dict(method="venkatraman", y_b=Y.copy()), ValueError, "look paired"),
    (dict(method="venkatraman", sample_weight=np.ones(300)), ValueError, "no sample weights"),
])
def test_bad_arguments(kwargs, err, match):
    with pytest.raises(err, match=match):
        bm.roc_test(Y, A, B, **kwargs)


def test_paired_looking_unpaired_input_needs_paired_false():
    with pytest.raises(ValueError, match="look paired"):
        bm.roc_test(Y, A, B, y_b=Y.copy())
    t = bm.roc_test(Y, A, B, y_b=Y.copy(), paired=False)
    assert not t.paired
    with pytest.raises(ValueError, match="same cases"):
        bm.roc_test(Y, A, B[:150], y_b=Y[:150], paired=True)


def test_venkatraman_matches_proc():
    """E is deterministic: = pROC's with ties.method = "average" (our rule: tied scores get
    their average rank, so no result depends on row order; pROC's default "first" ranks
    ties by position and gives E = 1798 here). The p-value is a permutation p-value:

        set.seed(k); roc.test(r1, r2, method = "venkatraman", boot.n = 2000,
                              ties.method = "average")
        -> E = 1837, p = 0.2455 (k = 1), 0.2515, 0.2585, 0.254 (k = 2, 3, 4)

    binmetrics with random_state 0-5 gave p = 0.2655, 0.272, 0.249, 0.2775, 0.2645, 0.2595
    (a p-value near 0.25 from 2000 permutations has Monte Carlo sd 0.0097)."""
    t = bm.roc_test(Y, A, B, method="venkatraman", n_resamples=2000, random_state=0)
    assert t.statistic == 1837
    assert t.pvalue == pytest.approx(0.2525, abs=0.04)
    assert t.method == "venkatraman" and t.paired


def test_unpaired_venkatraman_matches_proc():
    """Unpaired: E is deterministic. On rt.csv (ties; ranks by "average", our rule):

        u2 <- roc(d$y[1:150], d$b[1:150], levels = c(0, 1), direction = "<")
        set.seed(k); roc.test(r1, r2, method = "venkatraman", paired = FALSE,
                              boot.n = 2000, ties.method = "average")
        -> E = 0.0195064957265, p = 0.509 (k = 1), 0.5235 (k = 2)

    Equal sample sizes, where pROC's share of cases, (m1 + m2) / (n1 + n1), is the
    pooled one. With different sizes (r1 against u2) pROC's slip gives E =
    0.0172268945076 (set.seed(1): p = 0.788); with the pooled share, its own statistic
    function gives

        R <- rank(d$a, ties.method = "average"); S <- rank(d$b[1:150], ties.method = "average")
        pROC:::venkatraman.unpaired.stat(R, S, d$y, d$y[1:150], c(0, 1), c(0, 1),
                                         (sum(d$y) + sum(d$y[1:150])) / 450)
        -> 0.01828663227951

    binmetrics with random_state 0-3 gave p = 0.5165, 0.51, 0.5065, 0.489 (Monte Carlo sd
    of a p-value near 0.5 from 2000 permutations: 0.011)."""
    t = bm.roc_test(Y, A, B, method="venkatraman", paired=False, n_resamples=2000,
                    random_state=0)
    assert t.statistic == pytest.approx(0.0195064957265, rel=1e-11)
    assert t.pvalue == pytest.approx(0.516, abs=0.05)
    assert t.method == "venkatraman" and not t.paired and t.detail.size == 2000
    u = bm.roc_test(Y, A, B[:150], y_b=Y[:150], method="venkatraman", n_resamples=200,
                    random_state=0)
    assert u.statistic == pytest.approx(0.01828663227951, rel=1e-11)
    assert (u.value_a, u.value_b) == pytest.approx((0.7532894737, 0.7360789895),
                                                          rel=1e-9)
    again = bm.roc_test(Y, A, B[:150], y_b=Y[:150], method="venkatraman", n_resamples=200,
                        random_state=0)
    assert again.pvalue == u.pvalue
    perm = np.random.default_rng(1).permutation(150)
    w = bm.roc_test(Y, A, B[:150][perm], y_b=Y[:150][perm], method="venkatraman",
                    n_resamples=10, random_state=0)
    assert w.statistic == pytest.approx(u.statistic, rel=1e-12)  # no row-order dependence
    with pytest.raises(ValueError, match="cases and controls"):
        bm.roc_test(Y, A, B[:10], y_b=np.zeros(10), method="venkatraman")


def test_venkatraman_does_not_depend_on_row_order():
    """pROC's default ranks ties by position; ours does not look at the row order.
    (Checked by hand on continuous scores, where the rule does not matter: with
    set.seed(7); a <- d$a + rnorm(300) * 1e-6; b <- d$b + rnorm(300) * 1e-6, pROC's
    default roc.test(r1, r2, method = "venkatraman") gives E = 1810, as binmetrics does on
    the same numbers.)"""
    r = np.random.default_rng(0)
    t = bm.roc_test(Y, A, B, method="venkatraman", n_resamples=10, random_state=0)
    perm = r.permutation(Y.size)
    u = bm.roc_test(Y[perm], A[perm], B[perm], method="venkatraman", n_resamples=10,
                    random_state=0)
    assert t.statistic == u.statistic == 1837
