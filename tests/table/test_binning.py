"""Binned scores (decimals= / bins=): the bins, the exact probabilistic sums, and the
error bounds of the ranking measures, checked against the exact evaluation of the raw
scores (and scikit-learn) on random data."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from sklearn.metrics import brier_score_loss, log_loss, roc_auc_score

import binmetrics as bm
from binmetrics.engines import BinSpec, binned_table, value_bounds
from binmetrics.exceptions import UndefinedMeasureError, UndefinedMeasureWarning
from binmetrics.table.binning import check_bin_args

RANKING = [m.id for m in bm.iter_measures("ranking")]
# the probabilistic measures that declare raw sums (ECE, the logistic calibration fits
# need each case's p and are undefined on binned scores:
# tests/measures/test_calibration_measures.py)
PROBABILISTIC = [m.id for m in bm.iter_measures("probabilistic") if m.sums]
# the ranking measures without a declared binning bound (taKS, the trapezoids, AUPRG and
# mean_precision depend on how many distinct scores a bin holds)
NO_BOUND = {m.id for m in bm.iter_measures("ranking") if m.binning_bound is None}


def quiet(ev: bm.Evaluation, ids: list[str] | None = None) -> dict[str, float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ev.to_dict(measures=ids)


def data(seed: int, n: int = 400, weighted: bool = False, decimals: int | None = None
         ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < rng.uniform(0.1, 0.6)
    s = np.clip(rng.normal(0.4 + 0.25 * y, 0.2), 0, 1)
    if decimals is not None:
        s = np.round(s, decimals)
    w = rng.exponential(1.0, n) if weighted else None
    return y, s, w


# --- the bins ----------------------------------------------------------------------------
def test_decimals_floor_and_grid_thresholds() -> None:
    rng = np.random.default_rng(0)
    s = np.concatenate((rng.random(5000), np.arange(0, 101) / 100,
                        np.nextafter(np.arange(1, 101) / 100, -1.0)))
    rep = BinSpec(decimals=2).assign(s)
    k = np.round(rep * 100)
    assert np.array_equal(rep, k / 100)  # representatives are the grid values k / 100
    assert (rep <= s).all() and (s < (k + 1) / 100).all()  # floor: rep <= s < next
    # the doubles just below a grid value fall in the bin below it
    assert np.array_equal(BinSpec(decimals=2).assign(np.nextafter(np.arange(1, 101) / 100, -1)),
                          np.arange(0, 100) / 100)
    # so a threshold on the grid cuts the binned table exactly where it cuts the raw scores
    y = rng.random(s.size) < 0.4
    exact = bm.CountTable.from_arrays(y, s)
    binned = binned_table(y, s, decimals=2)
    for t in (0.0, 0.07, 0.3, 0.5, 0.99, 1.0):
        assert binned.confusion(t) == exact.confusion(t)


def test_edges_and_equal_width_bins() -> None:
    rng = np.random.default_rng(1)
    s = rng.normal(size=3000)
    spec = BinSpec.resolve(None, 7, float(s.min()), float(s.max()))
    assert spec is not None and spec.edges is not None and spec.edges.size == 8
    rep = spec.assign(s)
    idx = np.searchsorted(spec.edges, s, side="right") - 1
    idx[s == spec.edges[-1]] = 6  # the last bin is closed
    assert np.array_equal(rep, spec.edges[idx])
    np.testing.assert_array_equal(np.histogram(s, bins=spec.edges)[0],
                                  [np.sum(rep == e) for e in spec.edges[:-1]])
    edges = BinSpec.resolve(None, [-10, -1, 0, 0.5, 10], float(s.min()), float(s.max()))
    assert edges is not None
    assert set(np.unique(edges.assign(s))) <= {-10.0, -1.0, 0.0, 0.5}
    with pytest.raises(ValueError, match="outside the bin edges"):
        BinSpec.resolve(None, [0, 1], -1.0, 0.5)


@pytest.mark.parametrize(("decimals", "bins", "exc", "msg"), [
    (2, 3, ValueError, "not both"),
    (-1, None, ValueError, "decimals must lie in"),
    (1.5, None, TypeError, "decimals must be an integer"),
    (None, 0, ValueError, "at least 1"),
    (None, [1, 0.5], ValueError, "strictly increasing"),
    (None, [0.5], ValueError, "at least 2"),
    (None, [0, np.nan, 1], ValueError, "finite"),
])
def test_bad_bin_arguments(decimals: object, bins: object, exc: type, msg: str) -> None:
    with pytest.raises(exc, match=msg):
        check_bin_args(decimals, bins)


# --- probabilistic measures: exact from the raw sums -------------------------------------
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("kw", [{"decimals": 1}, {"bins": 5}, {"bins": [0, 0.2, 0.7, 1]}])
def test_probabilistic_measures_are_exact(weighted: bool, kw: dict[str, object]) -> None:
    y, s, w = data(3, weighted=weighted)
    binned = bm.Evaluation(binned_table(y, s, sample_weight=w, threshold=0.5, **kw))
    exact = bm.evaluate(y, s, sample_weight=w)
    assert binned.table.n_distinct < exact.table.n_distinct
    got, want = quiet(binned, PROBABILISTIC), quiet(exact, PROBABILISTIC)
    for k in PROBABILISTIC:
        assert got[k] == pytest.approx(want[k], rel=1e-12, abs=1e-14), k
    # independent numbers
    assert got["brier"] == pytest.approx(brier_score_loss(y, s, sample_weight=w), rel=1e-12)
    assert binned.value("log_loss", base=math.e) == pytest.approx(
        log_loss(y, s, sample_weight=w), rel=1e-12)
    # calibrated by reweighting: the negatives' sums scale, the information score cannot
    cal_b, cal_e = binned.calibrated(0.5), exact.calibrated(0.5)
    for k in ("brier", "mae", "log_loss", "balanced_log_loss", "focal_loss", "hinge_loss"):
        assert cal_b[k] == pytest.approx(cal_e[k], rel=1e-12), k
    with pytest.warns(UndefinedMeasureWarning, match="information score at the prior pi0"):
        assert math.isnan(cal_b["information_score"])


def test_other_parameters_are_undefined_not_approximated() -> None:
    y, s, _ = data(4)
    ev = bm.Evaluation(binned_table(y, s, decimals=2))
    for measure, params, text in [("focal_loss", {"gamma": 1.0}, "gamma=2"),
                                  ("log_loss", {"eps": 1e-5}, "eps=1e-15"),
                                  ("information_score", {"prior": 0.3}, "prevalence")]:
        with pytest.warns(UndefinedMeasureWarning, match=text):
            assert math.isnan(ev.value(measure, **params))
    strict = bm.Evaluation(ev.table, undefined="raise")
    with pytest.raises(UndefinedMeasureError, match="gamma=2"):
        strict.value("focal_loss", gamma=3.0)
    # the defaults are there
    assert ev.value("focal_loss", gamma=2.0) == pytest.approx(
        bm.evaluate(y, s)["focal_loss"], rel=1e-12)


def test_probability_check_reads_the_raw_scores() -> None:
    y = np.array([1, 0, 1, 0])
    s = np.array([1.04, 0.3, 0.8, 0.2])  # 1.04 bins to 1.0 with decimals=1
    ev = bm.Evaluation(binned_table(y, s, decimals=1))
    assert ev.table.scores.max() == 1.0
    with pytest.warns(UndefinedMeasureWarning, match="not probabilities"):
        assert math.isnan(ev.to_dict(measures=["brier"])["brier"])
    with pytest.raises(ValueError, match=r"raw scores range from 0\.2 to 1\.04"):
        ev.value("brier")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert math.isnan(bm.evaluate(y, s).to_dict(measures=["brier"])["brier"])  # the same
    assert ev["hinge_loss"] == pytest.approx(bm.evaluate(y, s)["hinge_loss"], rel=1e-12)


# --- ranking measures: bounds --------------------------------------------------------------
@pytest.mark.parametrize("seed", range(12))
def test_bounds_contain_the_exact_value(seed: int) -> None:
    weighted = seed % 2 == 1
    y, s, w = data(seed, n=300 + 50 * seed, weighted=weighted, decimals=3 if seed % 3 else None)
    kw = {"decimals": 1} if seed % 4 < 2 else {"bins": 4 + seed}
    binned = bm.Evaluation(binned_table(y, s, sample_weight=w, threshold=0.5, **kw))
    exact = bm.evaluate(y, s, sample_weight=w)
    truth = quiet(exact, RANKING)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = binned.error_bounds(family="ranking").set_index("id")
        for m in RANKING:
            row = frame.loc[m]
            if m in NO_BOUND:
                assert row.bound == "none" and binned.binning_error(m) is None
                continue
            assert row.bound in ("bounded", "exact"), m
            tol = 1e-12 * max(1.0, abs(truth[m]))
            assert row.low - tol <= truth[m] <= row.high + tol, (m, row.low, truth[m], row.high)
            assert row.low - tol <= row.value <= row.high + tol
        # parameters go through
        lo, hi = value_bounds(binned, "enrichment_factor", fraction=0.2)
        assert lo <= exact.value("enrichment_factor", fraction=0.2) + 1e-12 <= hi + 2e-12


def test_auc_bound_is_the_within_bin_pairs() -> None:
    y, s, _ = data(5, n=500)
    t = binned_table(y, s, decimals=1)
    ev = bm.Evaluation(t)
    pairs = float(np.sum(t.pos.astype(float) * t.neg.astype(float)))
    half = pairs / (2 * t.P * t.N)
    assert ev.binning_error("auc") == pytest.approx(half, rel=1e-12)
    assert ev.binning_error("gini") == pytest.approx(2 * half, rel=1e-12)
    lo, hi = value_bounds(ev, "auc")
    assert ev["auc"] - lo == pytest.approx(half) and hi - ev["auc"] == pytest.approx(half)
    assert lo <= roc_auc_score(y, s) <= hi


def test_bounds_are_reached() -> None:
    """Raw data whose bins hold their positives above (below) their negatives reach the
    upper (lower) bound exactly: the bounds are as tight as the binned table allows."""
    rng = np.random.default_rng(6)
    n = 600
    bin_of = rng.integers(0, 10, n)  # ten bins [k/10, (k+1)/10)
    y = rng.random(n) < 0.35
    offset = rng.random(n) * 0.04  # distinct positions inside a bin
    best = bin_of / 10 + np.where(y, 0.05, 0.0) + offset  # positives above negatives
    worst = bin_of / 10 + np.where(y, 0.0, 0.05) + offset
    ev = bm.Evaluation(binned_table(y, best, decimals=1))
    assert bm.Evaluation(binned_table(y, worst, decimals=1)).table.equals(ev.table)
    top, bottom = quiet(bm.evaluate(y, best), RANKING), quiet(bm.evaluate(y, worst), RANKING)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for m in ("auc", "gini", "auac", "average_gain", "enrichment_factor", "rie", "bedroc",
                  "average_lift", "ks", "youden_j_max", "auch"):
            lo, hi = value_bounds(ev, m)  # type: ignore[misc]
            assert hi == pytest.approx(top[m], rel=1e-12), m
            if m not in ("ks", "youden_j_max", "auch"):
                assert lo == pytest.approx(bottom[m], rel=1e-12), m
        # mean rank: lower is better, so "best" gives the low end
        lo, hi = value_bounds(ev, "mean_rank_positives")  # type: ignore[misc]
        assert (lo, hi) == (pytest.approx(top["mean_rank_positives"]),
                            pytest.approx(bottom["mean_rank_positives"]))
        # AP: the lower bound is reached with distinct scores, negatives first
        lo, hi = value_bounds(ev, "average_precision")  # type: ignore[misc]
        assert lo == pytest.approx(bottom["average_precision"], rel=1e-12)
        tied_top = bin_of / 10 + np.where(y, 0.09, 0.0)  # the bin's positives tied, on top
        assert hi == pytest.approx(bm.evaluate(y, tied_top)["average_precision"], rel=1e-12)


def test_confusion_measures_exact_only_on_the_grid() -> None:
    y, s, _ = data(7)
    t = binned_table(y, s, decimals=1)
    ev = bm.Evaluation(t, threshold=0.5)
    exact = bm.evaluate(y, s, threshold=0.5)
    assert ev.binning_error("f1") == 0.0 and ev["f1"] == exact["f1"]
    with pytest.warns(UserWarning, match="threshold 0.55 cuts the bin .* represented by 0.5"):
        off = ev.at_threshold(0.55)
    assert off.binning_error("f1") is None
    assert off.error_bounds(measures=["f1"]).bound.tolist() == ["none"]
    with pytest.warns(bm.BinmetricsWarning, match="threshold 5 is outside the scores' range"):
        above = ev.at_threshold(5.0)
    assert above.binning_error("tpr") == 0.0  # above every score


def test_exact_tables_have_no_error() -> None:
    ev = bm.evaluate(*data(8)[:2])
    assert ev.binning is None
    assert ev.binning_error("auc") == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = ev.error_bounds()
    assert set(frame.bound) == {"exact"} and (frame.max_error.fillna(0) == 0).all()


def test_binned_tables_refuse_what_would_approximate() -> None:
    y, s, _ = data(9)
    ev = bm.Evaluation(binned_table(y, s, decimals=1))
    with pytest.raises(ValueError, match="do not merge"):
        ev.table.merge(ev.table)
    with pytest.raises(ValueError, match="bin representatives"):
        ev.ci("brier", n_resamples=20, random_state=0)
    with pytest.raises(ValueError, match="reweight"):
        ev.calibrated(0.5, method="undersample")
    low, high = ev.ci("auc", method="bootstrap", n_resamples=50, random_state=0)
    assert low < ev["auc"] < high  # the ranking measures of the binned table resample


# --- the evaluation's threshold as an extra edge (review 7, defect 1) ----------------------
CONFUSION = [m.id for m in bm.iter_measures("confusion")]


@pytest.mark.parametrize("seed", range(8))
def test_threshold_is_an_extra_edge(seed: int) -> None:
    weighted = seed % 2 == 1
    y, s, w = data(30 + seed, n=500, weighted=weighted)
    rng = np.random.default_rng(seed)
    kw = [{"decimals": 1}, {"bins": 7}, {"bins": [0, 0.25, 0.5, 0.8, 1]}][seed % 3]
    for t in (0.55, 0.123, float(rng.uniform(0.2, 0.8)), float(s.min()), 0.5):
        table = binned_table(y, s, sample_weight=w, threshold=t, **kw)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # the threshold is exact: no warning
            ev = bm.Evaluation(table, threshold=t, undefined="ignore")
        exact = bm.evaluate(y, s, sample_weight=w, threshold=t, undefined="ignore")
        got, want = ev.confusion.as_dict(), exact.confusion.as_dict()
        for k in got:  # the raw scores' counts, not those at the next edge
            assert got[k] == pytest.approx(want[k], rel=1e-12), (kw, t, k)
        frame = ev.error_bounds(CONFUSION)
        assert set(frame.bound) <= {"exact"}, (kw, t)
        # the bin that t cuts is split there: every score keeps a representative <= it
        rep = table.binning.spec.assign(s)
        assert (rep <= s).all() and ((rep >= t) == (s >= t)).all()
        # a finer threshold inside an occupied bin of this table: a warning, no bound
        occupied = [(lo, hi) for lo, hi in zip(table.scores[1:], table.scores[:-1], strict=True)
                    if hi - lo > 1e-9]
        lo, hi = occupied[len(occupied) // 2]
        inside = lo + (hi - lo) / 3
        if not (((s >= lo) & (s < inside)).any()):
            continue
        with pytest.warns(UserWarning, match="cuts the bin of the binned scores"):
            off = ev.at_threshold(inside)
        assert off.binning_error("tpr") is None
        assert set(off.error_bounds(["tpr", "f1"]).bound) == {"none"}


def test_threshold_edge_in_the_spec_and_its_sql() -> None:
    spec = BinSpec.resolve(1, None, 0.0, 1.0, threshold=0.55)
    assert spec is not None and spec.threshold == 0.55
    assert "threshold 0.55 as an edge" in spec.describe()
    s = np.array([0.5, 0.549999, 0.55, 0.56, 0.6, 0.95])
    assert spec.assign(s).tolist() == [0.5, 0.5, 0.55, 0.55, 0.6, 0.9]
    # on the grid, above every score, or at/below the lowest bin: no extra edge needed
    for t, low, high in ((0.5, 0.0, 1.0), (1.5, 0.0, 1.0), (0.05, 0.1, 1.0)):
        got = BinSpec.resolve(1, None, low, high, threshold=t)
        assert got is not None and got.threshold is None, t
    # the SQL both engines run gives assign's values (DuckDB here)
    duckdb = pytest.importorskip("duckdb")
    for sp in (spec, BinSpec.resolve(None, 7, 0.0, 1.0, threshold=0.3)):
        assert sp is not None
        params: dict[str, float] = {}

        def lit(name: str, value: float, params: dict[str, float] = params) -> str:
            params[name] = value
            return f"${name}"

        grid = sp.grid_sql(lit)
        assert grid is not None
        sql = sp.threshold_sql(grid, lit)
        xs = np.random.default_rng(0).random(200)
        got = [duckdb.execute(f"SELECT {sql} FROM (SELECT CAST($x AS DOUBLE) AS x)",
                              {**params, "x": float(x)}).fetchone()[0] for x in xs]
        assert got == sp.assign(xs).tolist()


# --- a NaN is "exact" only where the raw value is provably NaN (review 7, defect 2) --------
def test_nan_values_are_exact_only_when_provable() -> None:
    y, s = [1, 0, 1, 0], [0.91, 0.95, 0.3, 0.2]
    table = binned_table(y, s, decimals=1)  # no threshold: 0.93 cuts the occupied bin 0.9
    with pytest.warns(UserWarning, match="cuts the bin"):
        ev = bm.Evaluation(table, threshold=0.93, undefined="ignore")
    raw = bm.evaluate(y, s, threshold=0.93)
    assert math.isnan(ev["ppv"]) and raw["ppv"] == 0.0  # no binned positive, one raw
    frame = ev.error_bounds(["ppv", "tpr", "auc", "brier"]).set_index("id")
    assert frame.loc["ppv", "bound"] == "none" and frame.loc["tpr", "bound"] == "none"
    assert frame.loc["brier", "bound"] == "exact"
    # at a threshold on the grid, a NaN confusion measure is the raw one's NaN
    ev = bm.Evaluation(table, threshold=0.99, undefined="ignore")
    assert math.isnan(bm.evaluate(y, s, threshold=0.99, undefined="ignore")["ppv"])
    assert ev.error_bounds(["ppv"]).bound.tolist() == ["exact"]
    # a probabilistic measure whose sum the engine did not take: NaN, no bound
    cal = bm.Evaluation(table, undefined="ignore").calibrated(0.3)
    assert math.isnan(cal["information_score"])
    assert cal.error_bounds(["information_score", "brier"]).bound.tolist() == ["none", "exact"]
    assert value_bounds(bm.Evaluation(table, undefined="ignore"), "log_loss", eps=1e-5) is None
    # scores outside [0, 1]: the Brier score is NaN on the raw scores too
    out = bm.Evaluation(binned_table(y, [1.5, 0.2, 0.4, -0.3], decimals=1), undefined="ignore")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert out.error_bounds(["brier", "hinge_loss"]).bound.tolist() == ["exact", "exact"]
    # one class: the ranking measures are NaN, which binning cannot vouch for
    one = bm.Evaluation(binned_table([1, 1, 1], [0.1, 0.5, 0.9], decimals=1), undefined="ignore")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert one.error_bounds(["auc"]).bound.tolist() == ["none"]
