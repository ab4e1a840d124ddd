"""wilcoxon_test against scipy and Demšar (2006); cv_5x2_test against mlxtend."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import binmetrics as bm
from binmetrics.data import demsar_table
from binmetrics.exceptions import UndefinedMeasureWarning


def test_wilcoxon_demsar():
    t = demsar_table()
    res = bm.wilcoxon_test(t["C4.5+m"], t["C4.5"])
    # R+ = 93, R- = 12 with the two zero differences split (Demšar section 3.1.3); 12 is
    # below the exact critical value 21 for N = 14, so he rejects
    assert res.statistic == 12.0 and res.n_zero == 2 and res.n == 14
    assert res.zero_method == "zsplit" and res.method == "exact-ties"
    # the exact sign-flip p, 128 of the 2^14 sign patterns as extreme (enumerated in
    # tests/inference/test_signed_rank.py); scipy's default, the normal approximation, says 0.011
    assert res.pvalue == pytest.approx(1 / 128)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("zero_method", ["zsplit", "wilcox", "pratt"])
def test_wilcoxon_against_scipy(seed, zero_method):
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.6, 0.9, 20).round(2)
    b = (a + rng.normal(0.01, 0.02, 20)).round(2)
    res = bm.wilcoxon_test(a, b, zero_method=zero_method)
    assert res.method == "exact-ties"  # rounded scores: ties or zeros
    # scipy's statistic; scipy's own p-value here is its normal approximation (ties, N >
    # 13), so the exact p is checked by enumeration in tests/inference/test_signed_rank.py and the
    # normal one against scipy where they share a variance (no zero under zsplit)
    assert res.statistic == pytest.approx(
        stats.wilcoxon(a, b, zero_method=zero_method).statistic)
    if zero_method != "zsplit" or res.n_zero == 0:
        normal = bm.wilcoxon_test(a, b, zero_method=zero_method, method="normal")
        ref = stats.wilcoxon(a, b, zero_method=zero_method, method="asymptotic")
        assert normal.method == "normal"
        assert normal.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


def test_wilcoxon_exact_and_alternatives():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=12), rng.normal(size=12)
    res = bm.wilcoxon_test(a, b)
    assert res.method == "exact"
    assert res.pvalue == pytest.approx(stats.wilcoxon(a, b, method="exact").pvalue,
                                       rel=1e-12)
    greater = bm.wilcoxon_test(a + 1, b, alternative="greater")
    assert greater.pvalue == pytest.approx(
        stats.wilcoxon(a + 1, b, alternative="greater", method="exact").pvalue, rel=1e-12)
    assert bm.wilcoxon_test(a, b, method="normal").method == "normal"
    assert repr(res).startswith("WilcoxonTest") and "pvalue" in repr(res)
    assert res.to_frame().shape == (1, 8)


def test_wilcoxon_bad_input():
    with pytest.raises(ValueError, match="one score per data set"):
        bm.wilcoxon_test([0.1, 0.2], [0.1])
    with pytest.raises(ValueError, match="missing or infinite"):
        bm.wilcoxon_test([0.1, np.nan], [0.1, 0.2])
    with pytest.raises(ValueError, match="at least 2 data sets"):
        bm.wilcoxon_test([0.1], [0.2])
    with pytest.raises(ValueError, match="zero_method must be"):
        bm.wilcoxon_test([0.1, 0.2], [0.2, 0.3], zero_method="drop")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="method must be 'auto', 'exact' or 'normal'"):
        bm.wilcoxon_test([0.1, 0.2], [0.2, 0.3], method="approx")  # type: ignore[arg-type]
    # ties no longer refuse the exact method: it is the exact distribution given them
    assert bm.wilcoxon_test([0.1, 0.2, 0.3], [0.1, 0.3, 0.2],
                            method="exact").method == "exact-ties"
    with pytest.warns(UndefinedMeasureWarning, match="every difference a - b is zero"):
        res = bm.wilcoxon_test([0.1, 0.2], [0.1, 0.2])
    assert math.isnan(res.pvalue)


# --- 5x2cv ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def data():
    pytest.importorskip("sklearn")
    from sklearn.datasets import make_classification

    return make_classification(300, n_features=8, n_informative=3, flip_y=0.1,
                               random_state=1)


def _models():
    from sklearn.linear_model import LogisticRegression
    from sklearn.tree import DecisionTreeClassifier

    return LogisticRegression(), DecisionTreeClassifier(max_depth=3, random_state=0)


def _mlxtend_splits(n: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The halves mlxtend draws: train_test_split(test_size=0.5) seeded from its RNG."""
    from sklearn.model_selection import train_test_split

    rng = np.random.RandomState(seed)
    out = []
    for _ in range(5):
        first, second = train_test_split(np.arange(n), test_size=0.5,
                                         random_state=rng.randint(low=0, high=32767))
        out.append((first, second))
    return out


@pytest.mark.parametrize("seed", [0, 1])
def test_cv_5x2_against_mlxtend(data, seed):
    evaluate = pytest.importorskip("mlxtend.evaluate")
    X, y = data
    a, b = _models()
    splits = _mlxtend_splits(len(y), seed)
    t = bm.cv_5x2_test(a, b, X, y, measure="auc", splits=splits)
    f = bm.cv_5x2_test(a, b, X, y, measure="auc", kind="f", splits=splits)
    ref_t = evaluate.paired_ttest_5x2cv(a, b, X, y, scoring="roc_auc", random_seed=seed)
    ref_f = evaluate.combined_ftest_5x2cv(a, b, X, y, scoring="roc_auc", random_seed=seed)
    assert (t.statistic, t.pvalue) == pytest.approx(ref_t, rel=1e-9)
    assert (f.statistic, f.pvalue) == pytest.approx(ref_f, rel=1e-9)
    # accuracy at the 0.5 threshold; not with the tree, whose leaves of probability 0.5
    # predict() gives to the first class while binmetrics counts scores >= 0.5 positive
    from sklearn.naive_bayes import GaussianNB

    acc = bm.cv_5x2_test(a, GaussianNB(), X, y, measure="accuracy", splits=splits)
    ref_acc = evaluate.paired_ttest_5x2cv(a, GaussianNB(), X, y, scoring="accuracy",
                                          random_seed=seed)
    assert (acc.statistic, acc.pvalue) == pytest.approx(ref_acc, rel=1e-9)


def test_cv_5x2_differences_and_formulas(data):
    X, y = data
    a, b = _models()
    res = bm.cv_5x2_test(a, b, X, y, random_state=0)
    d = res.differences
    assert d.shape == (5, 2)
    np.testing.assert_allclose(d, res.scores_a - res.scores_b)
    s2 = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    assert res.statistic == pytest.approx(d[0, 0] / math.sqrt(s2.sum() / 5))
    assert res.pvalue == pytest.approx(2 * stats.t.sf(abs(res.statistic), 5))
    frame = res.to_frame()
    assert frame.shape == (10, 9) and frame["difference"].tolist() == d.ravel().tolist()
    assert (frame["pvalue"] == res.pvalue).all() and (frame["method"] == "5x2cv-t").all()
    again = bm.cv_5x2_test(a, b, X, y, random_state=0)
    np.testing.assert_array_equal(again.differences, d)
    assert "kind='t'" in repr(res) and res.measure == "auc"


def test_cv_5x2_bad_input(data):
    X, y = data
    a, b = _models()
    with pytest.raises(ValueError, match="kind must be"):
        bm.cv_5x2_test(a, b, X, y, kind="z")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one label per row"):
        bm.cv_5x2_test(a, b, X, y[:-1])
    with pytest.raises(ValueError, match="five"):
        bm.cv_5x2_test(a, b, X, y, splits=_mlxtend_splits(len(y), 0)[:3])
    with pytest.raises(KeyError):
        bm.cv_5x2_test(a, b, X, y, measure="no such measure")
    with pytest.warns(UndefinedMeasureWarning, match="variance estimate is 0"):
        res = bm.cv_5x2_test(a, a, X, y, random_state=0)
    assert math.isnan(res.statistic)
