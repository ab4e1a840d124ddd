"""Bootstrap intervals and permutation tests over the count table (binmetrics.resampling).

Replicates are checked one by one against scikit-learn on the expanded rows of the
same draws; the intervals against scipy.stats.bootstrap fed the same bootstrap
distribution (its BCa computes its own row-wise jackknife, so agreement checks the
count-table jackknife too).
"""

from __future__ import annotations

import contextlib
import warnings
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score

import binmetrics as bm
from binmetrics import CountTable, backends
from binmetrics.inference import _jackknife as jk
from binmetrics.inference import _replicates as rs
from binmetrics.inference.resampling import (
    bootstrap,
    bootstrap_tables,
    permutation_pvalue,
    permutation_tables,
    permutation_test,
)

KERNEL_MEASURES = ["auc", "gini", "average_precision", "ks", "youden_j_max"]
CONFUSION_MEASURES = ["tpr", "ppv", "mcc", "f1", "kappa", "lr_plus"]
TABLE_MEASURES = ["taks", "brier", "auch", "enrichment_factor"]  # evaluated table by table


def make_data(n: int, seed: int, prevalence: float = 0.3,
              decimals: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prevalence
    z = rng.normal(np.where(y, 1.0, 0.0), 1.0)
    s = 1.0 / (1.0 + np.exp(-z))
    return y, (np.round(s, decimals) if decimals is not None else s)


def expand(t: CountTable) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows (labels, scores, weights) of a table: one row per cell, weighted by its count."""
    y = np.r_[np.ones(t.n_distinct, bool), np.zeros(t.n_distinct, bool)]
    s = np.r_[t.scores, t.scores]
    w = np.r_[t.pos, t.neg].astype(np.float64)
    keep = w > 0
    return y[keep], s[keep], w[keep]


def same(a: float, b: float, tol: float = 1e-12) -> bool:
    return bool((np.isnan(a) and np.isnan(b)) or abs(a - b) <= tol)


@pytest.fixture(scope="module")
def tied() -> CountTable:
    y, s = make_data(400, 1, decimals=1)  # ~ 20 distinct scores: heavy ties
    return CountTable.from_arrays(y, s)


@pytest.fixture(scope="module")
def continuous() -> CountTable:
    y, s = make_data(300, 2)
    return CountTable.from_arrays(y, s)


# --- reproducibility and the shape of the replicates ---------------------------------------
def test_same_seed_same_result(continuous: CountTable) -> None:
    a = bootstrap(continuous, ["auc", "mcc", "taks"], n_resamples=50, random_state=7)
    b = bootstrap(continuous, ["auc", "mcc", "taks"], n_resamples=50, random_state=7)
    c = bootstrap(continuous, ["auc", "mcc", "taks"], n_resamples=50, random_state=8)
    for m in a.measures:
        assert np.array_equal(a.replicates[m], b.replicates[m])
    assert not np.array_equal(a.replicates["auc"], c.replicates["auc"])
    assert a.ci("auc", "bca") == b.ci("auc", "bca")
    # a Generator in the same state gives the same draws
    g1, g2 = np.random.default_rng(3), np.random.default_rng(3)
    assert np.array_equal(bootstrap(continuous, "auc", n_resamples=20, random_state=g1)
                          .replicates["auc"],
                          bootstrap(continuous, "auc", n_resamples=20, random_state=g2)
                          .replicates["auc"])
    p1 = permutation_test(continuous, "auc", n_resamples=200, random_state=4)
    p2 = permutation_test(continuous, "auc", n_resamples=200, random_state=4)
    assert np.array_equal(p1.null_distribution, p2.null_distribution)
    assert p1.pvalue == p2.pvalue


def test_replicates_do_not_depend_on_the_measures_requested(continuous: CountTable) -> None:
    one = bootstrap(continuous, "auc", n_resamples=40, random_state=1)
    many = bootstrap(continuous, ["mcc", "auc", "brier"], n_resamples=40, random_state=1)
    assert np.array_equal(one.replicates["auc"], many.replicates["auc"])

@pytest.mark.parametrize("weighted", [False, True])
def test_replicates_do_not_depend_on_the_threads(monkeypatch: pytest.MonkeyPatch,
                                                 weighted: bool) -> None:
    """Streams of replicates run in threads give the sequential loop's values, and
    bootstrap_tables the same draws."""
    y, s = make_data(3000, 9)
    w = np.random.default_rng(9).uniform(0.5, 2.0, y.size) if weighted else None
    t = CountTable.from_arrays(y, s, sample_weight=w)
    ms = ["auc", "mcc", "brier", "average_precision"]
    monkeypatch.setattr(rs, "_BLOCK_ELEMENTS", 4 * y.size)  # 4 replicates a block
    monkeypatch.setattr(rs, "THREAD_ROWS", 1)
    # non-integer weights: each draw says it reads them as frequencies (asserted)
    def warns() -> Any:
        return (pytest.warns(rs.ResamplingWarning, match="non-integer weights") if weighted
                else contextlib.nullcontext())

    monkeypatch.setattr(backends, "threads", lambda: 2)
    with warns():
        threaded = bootstrap(t, ms, n_resamples=70, random_state=5)
    monkeypatch.setattr(backends, "threads", lambda: 1)
    with warns():
        alone = bootstrap(t, ms, n_resamples=70, random_state=5)
    with warns():
        tables = list(bootstrap_tables(t, 70, random_state=5))
    for m in ms:
        assert np.array_equal(threaded.replicates[m], alone.replicates[m]), m
    auc = bm.get_measure("auc")
    assert np.allclose([auc.compute(r, 0.5) for r in tables], alone.replicates["auc"],
                       rtol=1e-12)



@pytest.mark.parametrize("fixture", ["continuous", "tied"])
def test_stratified_replicates_keep_P_and_N(fixture: str, request: Any) -> None:
    t: CountTable = request.getfixturevalue(fixture)
    tables = list(bootstrap_tables(t, 60, random_state=0))
    assert len(tables) == 60
    for r in tables:
        assert (r.P, r.N) == (t.P, t.N)
        assert not r.weighted
        assert set(r.scores.tolist()) <= set(t.scores.tolist())
        assert np.all(np.diff(r.scores) < 0)  # the original order, no sort
        assert np.all(r.pos[t.pos[np.searchsorted(-t.scores, -r.scores)] == 0] == 0)
    totals = {(r.P, r.N) for r in bootstrap_tables(t, 60, stratified=False, random_state=0)}
    assert all(p + n == t.total for p, n in totals) and len(totals) > 1


def test_draw_methods_are_the_multinomial() -> None:
    """Index draws (many groups) and multinomial draws (few groups, many cases) give the
    same distribution: mean and variance of a class's count in one group."""
    y, s = make_data(4000, 3, decimals=1)
    t = CountTable.from_arrays(y, s)
    sampler = rs._BootstrapSampler(t, True)
    assert [st.method for st in sampler.strata] == ["counts", "counts"]
    g = int(np.argmax(t.pos))
    counts = np.array([r.pos[r.scores == t.scores[g]].sum()
                       for r in bootstrap_tables(t, 400, random_state=1)])
    p = t.pos[g] / t.P
    # multinomial: mean P p, variance P p (1 - p)
    assert abs(counts.mean() - t.P * p) < 4 * np.sqrt(t.P * p * (1 - p) / 400)
    assert 0.75 < counts.var() / (t.P * p * (1 - p)) < 1.3


# --- replicates agree with scikit-learn and with the registry, one by one --------------------
@pytest.mark.parametrize("fixture", ["continuous", "tied"])
@pytest.mark.parametrize("stratified", [True, False])
def test_bootstrap_auc_matches_sklearn_replicate_by_replicate(
        fixture: str, stratified: bool, request: Any) -> None:
    t: CountTable = request.getfixturevalue(fixture)
    res = bootstrap(t, "auc", n_resamples=80, stratified=stratified, random_state=11)
    tables = list(bootstrap_tables(t, 80, stratified=stratified, random_state=11))
    for value, r in zip(res.replicates["auc"], tables, strict=True):
        y, s, w = expand(r)
        assert abs(roc_auc_score(y, s, sample_weight=w) - value) <= 1e-12


@pytest.mark.parametrize("stratified", [True, False])
def test_multinomial_path_matches_sklearn_and_the_registry(stratified: bool) -> None:
    y, s = make_data(3000, 4, decimals=1)  # ~10 groups per class, 900 / 2100 cases
    t = CountTable.from_arrays(y, s)
    assert {st.method for st in rs._BootstrapSampler(t, stratified).strata} == {"counts"}
    measures = [*KERNEL_MEASURES, "mcc", "taks"]
    res = bootstrap(t, measures, n_resamples=40, random_state=2, stratified=stratified)
    tables = list(bootstrap_tables(t, 40, random_state=2, stratified=stratified))
    for i, r in enumerate(tables):
        yy, ss, w = expand(r)
        assert abs(roc_auc_score(yy, ss, sample_weight=w) - res.replicates["auc"][i]) <= 1e-12
        for m in measures:
            meas = bm.get_measure(m)
            arg = r.confusion(0.5) if meas.family == "confusion" else r
            assert same(float(meas.func(arg)), res.replicates[m][i]), m


@pytest.mark.parametrize("fixture", ["continuous", "tied"])
@pytest.mark.parametrize("stratified", [True, False])
def test_vectorised_measures_equal_the_registry_on_each_replicate(
        fixture: str, stratified: bool, request: Any) -> None:
    t: CountTable = request.getfixturevalue(fixture)
    measures = KERNEL_MEASURES + CONFUSION_MEASURES + TABLE_MEASURES
    res = bootstrap(t, measures, n_resamples=30, stratified=stratified, random_state=5,
                    threshold=0.6)
    tables = list(bootstrap_tables(t, 30, stratified=stratified, random_state=5))
    with bm.undefined_policy("ignore"):
        for m in measures:
            meas = bm.get_measure(m)
            for value, r in zip(res.replicates[m], tables, strict=True):
                arg = r.confusion(0.6) if meas.family == "confusion" else r
                assert same(float(meas.func(arg)), value), (m, value)


@pytest.mark.parametrize("scale", [1, 30])  # index draws; multinomial draws
def test_weighted_bootstrap_matches_sklearn_with_weights(scale: int) -> None:
    y, s = make_data(200, 6, decimals=3)
    w = np.random.default_rng(0).integers(1, 4, y.size).astype(float) * scale
    t = CountTable.from_arrays(y, s, sample_weight=w)
    for stratified in (True, False):
        methods = {st.method for st in rs._BootstrapSampler(t, stratified).strata}
        assert methods == ({"index"} if scale == 1 else {"counts"})
        res = bootstrap(t, ["auc", "mcc", "average_precision", "ks"], n_resamples=30,
                        stratified=stratified, random_state=3)
        tables = list(bootstrap_tables(t, 30, stratified=stratified, random_state=3))
        for i, r in enumerate(tables):
            assert r.weighted
            yy, ss, ww = expand(r)
            assert abs(roc_auc_score(yy, ss, sample_weight=ww) - res.replicates["auc"][i]) < 1e-12
            assert same(bm.get_measure("mcc").func(r.confusion(0.5)), res.replicates["mcc"][i])
            for m in ("average_precision", "ks"):
                assert same(bm.get_measure(m).func(r), res.replicates[m][i])
            if stratified:  # frequency weights: P and N cases drawn, class totals kept
                assert r.P == pytest.approx(t.P, rel=1e-12)
                assert r.N == pytest.approx(t.N, rel=1e-12)
                assert np.all(np.mod(r.pos, 1.0) == 0)
        assert np.isfinite(tuple(res.ci("auc", kind="bca"))).all()


def test_weighted_table_conventions() -> None:
    y, s = make_data(100, 7)
    w = np.full(y.size, 0.37)
    t = CountTable.from_arrays(y, s, sample_weight=w)
    with pytest.warns(rs.ResamplingWarning, match="non-integer weights"):
        bootstrap(t, "auc", n_resamples=5, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = bootstrap(t, "auc", n_resamples=5, random_state=0,
                        n_cases=(int(y.sum()), int((~y).sum())))
    assert res.n_undefined["auc"] == 0
    assert np.isfinite(tuple(res.ci("auc", kind="bca"))).all()
    for r in bootstrap_tables(t, 5, random_state=0, n_cases=(int(y.sum()), int((~y).sum()))):
        assert r.P == pytest.approx(t.P) and r.N == pytest.approx(t.N)
    tiny = CountTable.from_arrays(y, s, sample_weight=np.full(y.size, 1e-3))
    with pytest.raises(ValueError, match="pass n_cases"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bootstrap(tiny, "auc", n_resamples=5)
    with pytest.raises(ValueError, match="as a pair"):
        bootstrap(t, "auc", n_resamples=5, n_cases=100)
    with pytest.raises(ValueError, match="weighted tables only"):
        bootstrap(CountTable.from_arrays(y, s), "auc", n_resamples=5, n_cases=(10, 10))


def test_callable_statistic(continuous: CountTable) -> None:
    def top_score(t: CountTable) -> float:
        return float(t.scores[0])

    res = bootstrap(continuous, [top_score, "auc"], n_resamples=30, random_state=0)
    assert res.measures == ("top_score", "auc")
    tables = list(bootstrap_tables(continuous, 30, random_state=0))
    assert np.array_equal(res.replicates["top_score"], [r.scores[0] for r in tables])
    assert res.ci(top_score).high <= continuous.scores[0]


# --- permutations ---------------------------------------------------------------------
@pytest.mark.parametrize("data", ["continuous", "tied", "few_groups", "many_positives"])
def test_permutation_null_of_auc_matches_sklearn(data: str) -> None:
    n, dec, prev = {"continuous": (300, None, 0.3), "tied": (300, 2, 0.3),
                    "few_groups": (3000, 1, 0.3), "many_positives": (300, 2, 0.8)}[data]
    y, s = make_data(n, 8, prevalence=prev, decimals=dec)
    t = CountTable.from_arrays(y, s)
    res = permutation_test(t, "auc", n_resamples=100, random_state=9)
    sampler = rs._PermutationSampler(t)
    assert sampler.method == ("hypergeometric" if data == "few_groups" else "choice")
    tables = list(permutation_tables(t, 100, random_state=9))
    for value, r in zip(res.null_distribution, tables, strict=True):
        assert np.array_equal(r.scores, t.scores)
        assert np.array_equal(r.pos.astype(int) + r.neg.astype(int),
                              t.pos.astype(int) + t.neg.astype(int))
        assert (r.P, r.N) == (t.P, t.N)
        yy, ss, w = expand(r)
        assert abs(roc_auc_score(yy, ss, sample_weight=w) - value) <= 1e-12
    assert res.estimate == bm.get_measure("auc").func(t)


def test_permutation_null_of_other_measures(tied: CountTable) -> None:
    tables = list(permutation_tables(tied, 40, random_state=1))
    for m in ["mcc", "average_precision", "ks", "taks", "brier"]:
        res = permutation_test(tied, m, n_resamples=40, random_state=1, threshold=0.6)
        meas = bm.get_measure(m)
        for value, r in zip(res.null_distribution, tables, strict=True):
            arg = r.confusion(0.6) if meas.family == "confusion" else r
            assert same(float(meas.func(arg)), value), m


def test_permutation_null_is_the_hypergeometric(continuous: CountTable) -> None:
    """Under permutation the positives among the top k cases are hypergeometric."""
    res = permutation_test(continuous, "tpr", n_resamples=2000, random_state=3,
                           threshold=0.5)
    k = continuous.tp[continuous.cut_index(0.5)] + continuous.fp[continuous.cut_index(0.5)]
    P, n = continuous.P, continuous.total
    tp = res.null_distribution * P
    mean = k * P / n
    var = k * (P / n) * (1 - P / n) * (n - k) / (n - 1)
    assert abs(tp.mean() - mean) < 4 * np.sqrt(var / 2000)
    assert 0.85 < tp.var() / var < 1.15


def test_weighted_permutations() -> None:
    y, s = make_data(150, 10, decimals=2)
    w = np.random.default_rng(1).integers(1, 3, y.size).astype(float)
    t = CountTable.from_arrays(y, s, sample_weight=w)
    res = permutation_test(t, "auc", n_resamples=30, random_state=0)
    for value, r in zip(res.null_distribution, permutation_tables(t, 30, random_state=0),
                        strict=True):
        yy, ss, ww = expand(r)
        assert abs(roc_auc_score(yy, ss, sample_weight=ww) - value) <= 1e-12
    frac = CountTable.from_arrays(y, s, sample_weight=w * 0.5 + 0.25)
    with pytest.raises(ValueError, match="non-integer weights"):
        permutation_test(frac, "auc", n_resamples=10)


def test_pvalue_conventions() -> None:
    # Berrar section 5.1: 300 of 10,000 permutations at least as extreme -> 0.03
    null = np.r_[np.full(300, 0.85), np.full(9700, 0.5)]
    assert permutation_pvalue(null, 0.8, alternative="greater", plus_one=False) == 0.03
    assert permutation_pvalue(null, 0.8, alternative="greater") == 301 / 10001
    assert permutation_pvalue(null, 0.8) == 2 * 301 / 10001  # two-sided by default
    assert permutation_pvalue(null, 0.8, alternative="less") == (9700 + 1) / 10001
    assert permutation_pvalue(null, 0.8, alternative="two-sided") == 2 * 301 / 10001
    assert permutation_pvalue(null, 0.5, alternative="two-sided") == 1.0
    greater = {"alternative": "greater"}
    assert permutation_pvalue(null, 0.85, **greater) == 301 / 10001  # ties count as extreme
    assert permutation_pvalue(null, 0.85 - 1e-15, **greater) == 301 / 10001  # not rounding
    assert permutation_pvalue(np.r_[null, np.nan], 0.8, alternative="greater",
                              plus_one=False) == 0.03
    assert np.isnan(permutation_pvalue(null, float("nan")))
    assert permutation_pvalue(null, 2.0, alternative="greater") == 1 / 10001  # never 0 with the +1
    assert permutation_pvalue(null, 2.0, alternative="greater", plus_one=False) == 0.0


def test_permutation_test_alternatives(continuous: CountTable) -> None:
    kw: dict[str, Any] = {"n_resamples": 500, "random_state": 2}
    g = permutation_test(continuous, "auc", alternative="greater", **kw)
    less = permutation_test(continuous, "auc", alternative="less", **kw)
    two = permutation_test(continuous, "auc", alternative="two-sided", **kw)
    assert np.array_equal(g.null_distribution, less.null_distribution)
    assert g.pvalue == 1 / 501 and less.pvalue == 1.0 and two.pvalue == 2 / 501
    plain = permutation_test(continuous, "auc", plus_one=False, **kw)
    assert plain.pvalue == 0.0
    # a loss: lower is better, "less" is the informative side
    brier = permutation_test(continuous, "brier", alternative="less", **kw)
    assert brier.pvalue == 1 / 501
    fb = permutation_test(continuous, "fbeta", params={"beta": 2.0}, **kw)
    assert fb.estimate == bm.evaluate(*_rows(continuous)).value("fbeta", beta=2.0)


def _rows(t: CountTable) -> tuple[np.ndarray, np.ndarray]:
    y, s, w = expand(t)
    idx = np.repeat(np.arange(y.size), w.astype(int))
    return y[idx], s[idx]


# --- intervals against scipy.stats.bootstrap on the same replicates ------------------------------
def _scipy_ci(data: tuple[Any, ...], statistic: Any, replicates: np.ndarray, kind: str,
              paired: bool) -> tuple[float, float]:
    r = stats.bootstrap(data, statistic, n_resamples=0, method=kind, vectorized=False,
                        paired=paired, confidence_level=0.9,
                        bootstrap_result=SimpleNamespace(bootstrap_distribution=replicates))
    return float(r.confidence_interval.low), float(r.confidence_interval.high)


@pytest.mark.parametrize("measure", ["auc", "mcc", "average_precision"])
@pytest.mark.parametrize("stratified", [True, False])
@pytest.mark.parametrize("ties", [False, True])
def test_intervals_match_scipy(measure: str, stratified: bool, ties: bool) -> None:
    y, s = make_data(36, 12, prevalence=0.4, decimals=1 if ties else None)
    t = CountTable.from_arrays(y, s)
    res = bootstrap(t, measure, n_resamples=499, stratified=stratified, random_state=4,
                    threshold=0.55)

    def stat(*args: Any) -> float:
        if stratified:  # two samples: the positives' and the negatives' scores
            xp, xn = args
            yy = np.r_[np.ones(len(xp), int), np.zeros(len(xn), int)]
            return bm.score(measure, yy, np.r_[xp, xn], threshold=0.55, undefined="ignore")
        yy, ss = args
        return bm.score(measure, yy, ss, threshold=0.55, undefined="ignore")

    data = (s[y], s[~y]) if stratified else (y.astype(int), s)
    for kind in ("percentile", "basic", "bca"):
        lo, hi = res.ci(measure, kind=kind, level=0.9)  # type: ignore[arg-type]
        ref = _scipy_ci(data, stat, np.asarray(res.replicates[measure]), kind,
                        paired=not stratified)
        assert lo == pytest.approx(ref[0], abs=1e-12), kind
        assert hi == pytest.approx(ref[1], abs=1e-12), kind


def test_acceleration_against_a_rowwise_jackknife() -> None:
    """The grouped jackknife of the table equals leaving out each row (auc in closed form,
    taks by one evaluation per cell), for one sample and for the two classes."""
    y, s = make_data(60, 13, decimals=1)
    t = CountTable.from_arrays(y, s)
    for m in ("auc", "taks"):
        f = bm.get_measure(m).func
        loo = np.array([f(CountTable.from_arrays(np.delete(y, i), np.delete(s, i)))
                        for i in range(y.size)])

        def accel(values: np.ndarray) -> float:
            u = (values.size - 1) * (values.mean() - values)
            return float((u**3).sum() / (6 * (u**2).sum() ** 1.5))

        res = bootstrap(t, m, n_resamples=2, stratified=False, random_state=0)
        assert res.acceleration(m) == pytest.approx(accel(loo), rel=1e-9)
        # stratified: each class a sample, sums pooled as scipy does
        parts = [loo[y], loo[~y]]
        num = sum(((v.size - 1) * (v.mean() - v)) .__pow__(3).sum() / v.size**3 for v in parts)
        den = sum(((v.size - 1) * (v.mean() - v)) .__pow__(2).sum() / v.size**2 for v in parts)
        res = bootstrap(t, m, n_resamples=2, random_state=0)
        assert res.acceleration(m) == pytest.approx(num / (6 * den**1.5), rel=1e-9)


def test_weighted_frequency_table_has_the_jackknife_of_its_rows() -> None:
    y, s = make_data(80, 14, decimals=1)
    w = np.random.default_rng(2).integers(1, 4, y.size)
    t_w = CountTable.from_arrays(y, s, sample_weight=w.astype(float))
    t_rows = CountTable.from_arrays(np.repeat(y, w), np.repeat(s, w))
    for m in ("auc", "mcc", "ks"):
        a = bootstrap(t_w, m, n_resamples=2, random_state=0).acceleration(m)
        b = bootstrap(t_rows, m, n_resamples=2, random_state=0).acceleration(m)
        assert a == pytest.approx(b, rel=1e-9, abs=1e-15), m


def test_blocked_jackknife_approximates_the_exact_one(monkeypatch: pytest.MonkeyPatch) -> None:
    y, s = make_data(1500, 15)
    t = CountTable.from_arrays(y, s)
    exact = bootstrap(t, "ks", n_resamples=2, random_state=0).acceleration("ks")
    monkeypatch.setattr(jk, "_JACKKNIFE_CELLS", 300)
    blocked = bootstrap(t, "ks", n_resamples=2, random_state=0).acceleration("ks")
    assert blocked == pytest.approx(exact, rel=0.1)


def test_interval_properties(continuous: CountTable) -> None:
    res = bootstrap(continuous, "auc", n_resamples=300, random_state=0)
    iv = res.ci("roc_auc", kind="percentile", level=0.9)  # an alias resolves
    assert iv.measure == "auc" and iv.kind == "percentile" and iv.method == "bootstrap-percentile"
    assert iv.estimate == bm.get_measure("auc").func(continuous)
    assert iv.low < iv.estimate < iv.high <= 1.0
    assert iv.n_used == 300 and iv.n_undefined == 0
    wide = res.ci("auc", level=0.99)
    assert wide.low <= iv.low and wide.high >= iv.high
    lo, hi = np.quantile(res.replicates["auc"], [0.05, 0.95])
    assert (iv.low, iv.high) == (lo, hi)
    basic = res.ci("auc", kind="basic", level=0.9)
    assert basic.low == pytest.approx(2 * iv.estimate - hi) and basic.high == pytest.approx(
        2 * iv.estimate - lo)
    assert res.standard_error("auc") == pytest.approx(np.std(res.replicates["auc"], ddof=1))
    assert res.bias("auc") == pytest.approx(res.replicates["auc"].mean() - iv.estimate)
    frame = res.to_frame()
    assert list(frame.columns) == ["measure", "estimate", "low", "high", "standard_error",
                                   "n_undefined"]
    with pytest.raises(KeyError, match="was not bootstrapped"):
        res.ci("mcc")
    with pytest.raises(ValueError):
        res.replicates["auc"][0] = 0.0  # read-only


# --- undefined replicates ----------------------------------------------------------------------
def test_undefined_replicates_are_counted_and_reported(continuous: CountTable) -> None:
    # a threshold that only the top few cases reach: some replicates predict no positive
    th = float(continuous.scores[2])
    res = bootstrap(continuous, ["ppv", "auc"], n_resamples=400, threshold=th, random_state=0,
                    stratified=False)
    k = res.n_undefined["ppv"]
    assert 0 < k < 400
    assert k == int(np.isnan(res.replicates["ppv"]).sum())
    assert res.n_undefined["auc"] == 0
    with pytest.warns(bm.UndefinedMeasureWarning,
                      match=rf"^ppv is undefined \(NaN\) in {k} of 400 bootstrap replicates"):
        iv = res.ci("ppv")
    assert iv.n_used == 400 - k and iv.n_undefined == k
    defined = res.replicates["ppv"][~np.isnan(res.replicates["ppv"])]
    assert (iv.low, iv.high) == tuple(np.quantile(defined, [0.025, 0.975]))
    with bm.undefined_policy("raise"), pytest.raises(bm.UndefinedMeasureError, match=str(k)):
        res.ci("ppv")
    with bm.undefined_policy("ignore"), warnings.catch_warnings():
        warnings.simplefilter("error")
        res.ci("ppv", kind="bca")


def test_auc_undefined_when_a_replicate_lacks_a_class() -> None:
    t = CountTable.from_arrays([1, 0, 0, 0, 0, 0, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2])
    res = bootstrap(t, "auc", n_resamples=300, stratified=False, random_state=1)
    k = res.n_undefined["auc"]
    assert k == int(np.isnan(res.replicates["auc"]).sum()) > 0  # about 300 (7/8)^8 = 103
    with pytest.warns(bm.UndefinedMeasureWarning, match=f"in {k} of 300"):
        res.ci("auc")


def test_everything_undefined_gives_nan(continuous: CountTable) -> None:
    with pytest.warns(bm.UndefinedMeasureWarning):
        res = bootstrap(continuous, "ppv", n_resamples=20, threshold=2.0, random_state=0)
    assert res.n_undefined["ppv"] == 20
    with pytest.warns(bm.UndefinedMeasureWarning, match="in 20 of 20"):
        iv = res.ci("ppv")
    assert np.isnan(iv.low) and np.isnan(iv.high)
    with pytest.warns(bm.UndefinedMeasureWarning), pytest.warns(
            bm.UndefinedMeasureWarning, match="in 30 of 30 permutations"):
        p = permutation_test(continuous, "ppv", n_resamples=30, threshold=2.0)
    assert np.isnan(p.pvalue)


def test_degenerate_bca(continuous: CountTable) -> None:
    t = CountTable.from_arrays([1, 1, 0, 0], [0.9, 0.8, 0.2, 0.1])  # AUC 1 in every replicate
    res = bootstrap(t, "auc", n_resamples=50, random_state=0)
    assert tuple(res.ci("auc")) == (1.0, 1.0)
    assert res.acceleration("auc") == 0.0  # the jackknife does not move
    assert tuple(res.ci("auc", kind="bca")) == (1.0, 1.0)

    def n_distinct(t: CountTable) -> float:  # every replicate is below the estimate
        return float(t.n_distinct)

    res = bootstrap(continuous, n_distinct, n_resamples=50, random_state=0)
    with pytest.warns(rs.ResamplingWarning, match="BCa interval of n_distinct cannot be"):
        iv = res.ci(n_distinct, kind="bca")
    assert np.isnan(iv.low) and np.isnan(iv.high)


# --- errors ------------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [0, -5])
def test_n_resamples_below_one(continuous: CountTable, bad: int) -> None:
    with pytest.raises(ValueError, match="n_resamples must be at least 1"):
        bootstrap(continuous, "auc", n_resamples=bad)
    with pytest.raises(ValueError, match="n_resamples must be at least 1"):
        permutation_test(continuous, "auc", n_resamples=bad)


@pytest.mark.parametrize("bad", [2.5, True, "10"])
def test_n_resamples_not_an_integer(continuous: CountTable, bad: Any) -> None:
    with pytest.raises(TypeError, match="n_resamples must be an integer"):
        bootstrap(continuous, "auc", n_resamples=bad)


@pytest.mark.parametrize("level", [0, 1, 1.5, -0.1, float("nan")])
def test_level_outside_the_unit_interval(continuous: CountTable, level: float) -> None:
    res = bootstrap(continuous, "auc", n_resamples=10, random_state=0)
    with pytest.raises(ValueError, match="level must lie in"):
        res.ci("auc", level=level)


def test_other_bad_arguments(continuous: CountTable) -> None:
    res = bootstrap(continuous, "auc", n_resamples=10, random_state=0)
    with pytest.raises(ValueError, match="kind must be one of 'percentile', 'basic', 'bca'"):
        res.ci("auc", kind="studentized")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"alternative must be .*'two-sided', 'greater' or 'less'"):
        permutation_test(continuous, "auc", alternative="bigger")  # type: ignore[arg-type]
    with pytest.raises(KeyError, match="unknown measure"):
        bootstrap(continuous, "acuracy", n_resamples=10)
    with pytest.raises(ValueError, match="not requested: fbeta"):
        bootstrap(continuous, "auc", n_resamples=10, params={"fbeta": {"beta": 2}})
    with pytest.raises(TypeError, match="takes no parameter"):
        bootstrap(continuous, "auc", n_resamples=10, params={"auc": {"beta": 2}})
    with pytest.raises(ValueError, match="given twice"):
        bootstrap(continuous, ["auc", "roc_auc"], n_resamples=10)
    with pytest.raises(ValueError, match="no measures"):
        bootstrap(continuous, [], n_resamples=10)
    with pytest.raises(TypeError, match="must be a CountTable"):
        bootstrap([1, 0], "auc")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threshold"):
        bootstrap(continuous, "mcc", threshold=float("nan"))
    fb = bootstrap(continuous, "fbeta", n_resamples=10, params={"fbeta": {"beta": 2}},
                   random_state=0)
    assert fb.estimate["fbeta"] == bm.evaluate(*_rows(continuous)).value("fbeta", beta=2)


# --- coverage (slow: run with -m slow) ----------------------------------------------------
@pytest.mark.slow
def test_bootstrap_intervals_cover_the_binormal_auc() -> None:
    """95% percentile and BCa intervals of the AUC cover the population AUC of a binormal
    model (unit variances, means 0 and 1: AUC = Phi(1 / sqrt 2)) near the nominal rate."""
    rng = np.random.default_rng(2024)
    true_auc = float(stats.norm.cdf(1.0 / np.sqrt(2.0)))
    sims, hits = 400, {"percentile": 0, "bca": 0}
    y = np.r_[np.ones(60, bool), np.zeros(140, bool)]
    for i in range(sims):
        t = CountTable.from_arrays(y, rng.normal(y * 1.0, 1.0))
        res = bootstrap(t, "auc", n_resamples=1000, random_state=i)
        for kind in hits:
            hits[kind] += res.ci("auc", kind=kind).contains(true_auc)  # type: ignore[arg-type]
    for kind, h in hits.items():
        assert 0.92 <= h / sims <= 0.98, (kind, h / sims)
