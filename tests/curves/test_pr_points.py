"""Points of the precision-recall curve and their intervals (issue 31): ``pr.at``
follows the step convention of average precision, ``ci_at`` and ``ci_band`` equal a
brute-force bootstrap (rows rebuilt from each replicate, scikit-learn's
precision_recall_curve) on the same draws; ties are never split."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import precision_recall_curve

import binmetrics as bm
from binmetrics.inference.resampling import bootstrap_tables, quantiles


def data(seed: int = 0, n: int = 120) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = np.round(0.4 * y + rng.random(n), 1)  # heavy ties
    return y, s


def sk_precision_at(y: np.ndarray, s: np.ndarray, r: float) -> float:
    """The precision of the highest threshold whose recall is at least r."""
    prec, rec, thr = precision_recall_curve(y, s)
    prec, rec = prec[:-1], rec[:-1]  # drop scikit-learn's appended (recall 0, precision 1)
    ok = rec >= r
    return float(prec[ok][np.argmax(thr[ok])])


def sk_recall_at(y: np.ndarray, s: np.ndarray, p: float) -> float:
    prec, rec, _ = precision_recall_curve(y, s)
    ok = prec[:-1] >= p
    return float(rec[:-1][ok].max()) if ok.any() else float("nan")


def rows_of(t: bm.CountTable) -> tuple[np.ndarray, np.ndarray]:
    pos, neg = np.asarray(t.pos, dtype=int), np.asarray(t.neg, dtype=int)
    y = np.concatenate((np.ones(pos.sum(), bool), np.zeros(neg.sum(), bool)))
    s = np.concatenate((np.repeat(t.scores, pos), np.repeat(t.scores, neg)))
    return y, s


def test_at_follows_the_step_convention_of_average_precision() -> None:
    y, s = data()
    pr = bm.evaluate(y, s).pr()
    grid = np.linspace(0, 1, 21)
    np.testing.assert_array_equal(pr.at(recall=grid), [sk_precision_at(y, s, r) for r in grid])
    for p in (0.4, 0.5, 0.6, 0.8):
        assert pr.at(precision=p) == sk_recall_at(y, s, p)
    # the step line AP integrates: the area under it is the average precision
    steps = pr.at(recall=pr.recall)
    r = np.concatenate(([0.0], pr.recall))
    assert np.sum(np.diff(r) * steps) == pytest.approx(pr.area("step"), rel=1e-12)
    assert isinstance(pr.at(recall=0.5), float)


def test_ties_are_never_split() -> None:
    # four cases tied at one score: recall jumps from 0 to 1 there, no point between
    pr = bm.evaluate([1, 0, 1, 0, 0], [0.5, 0.5, 0.5, 0.5, 0.1]).pr()
    assert pr.at(recall=0.3) == pr.at(recall=1.0) == 0.5


def test_ci_at_equals_brute_force_on_the_same_draws() -> None:
    y, s = data(1)
    ev = bm.evaluate(y, s)
    B = 300
    tables = list(bootstrap_tables(ev.table, B, random_state=7))
    want = [sk_precision_at(*rows_of(t), 0.8) for t in tables]
    ci = ev.pr().ci_at(recall=0.8, n_resamples=B, random_state=7, level=0.9)
    assert (ci.low, ci.high) == pytest.approx(quantiles(want, [0.05, 0.95]), rel=1e-12)
    assert ci.estimate == sk_precision_at(y, s, 0.8)
    assert np.unique(want).size > 5
    want_r = [sk_recall_at(*rows_of(t), 0.6) for t in tables]
    ci_r = ev.pr().ci_at(precision=0.6, n_resamples=B, random_state=7)
    defined = [v for v in want_r if not np.isnan(v)]
    assert (ci_r.low, ci_r.high) == pytest.approx(quantiles(defined, [0.025, 0.975]),
                                                  rel=1e-12)
    assert ci_r.n_undefined == len(want_r) - len(defined)


def test_band_equals_brute_force_pointwise() -> None:
    y, s = data(2)
    ev = bm.evaluate(y, s)
    grid = np.linspace(0, 1, 11)
    band = ev.pr().ci_band(recall=grid, n_resamples=200, random_state=3)
    reps = np.array([[sk_precision_at(*rows_of(t), r) for r in grid]
                     for t in bootstrap_tables(ev.table, 200, random_state=3)])
    np.testing.assert_allclose(band.low, np.quantile(reps, 0.025, axis=0), rtol=1e-12)
    np.testing.assert_allclose(band.high, np.quantile(reps, 0.975, axis=0), rtol=1e-12)
    assert band.kind == "pointwise" and repr(band).startswith("PRBand(pointwise")
    frame = band.to_frame()
    assert frame.shape == (11, 5)
    chart = band.chart()
    assert chart.kind == "pr_band" and len(chart.series) == 2


def test_bad_input_is_one_line() -> None:
    pr = bm.evaluate(*data()).pr()
    with pytest.raises(ValueError, match=r"recall= must hold rates in \[0, 1\]; got 1.2"):
        pr.at(recall=1.2)
    with pytest.raises(ValueError, match=r"recall= must hold rates in \[0, 1\]"):
        pr.ci_at(recall=-0.1, n_resamples=10)
    with pytest.raises(ValueError, match="recall= is empty"):
        pr.ci_band(recall=[], n_resamples=10)
    with pytest.raises(ValueError, match=r"exactly one of recall= .* or precision="):
        pr.at()
    with pytest.raises(ValueError, match="kind must be 'percentile' or 'basic'"):
        pr.ci_at(recall=0.5, kind="bca", n_resamples=10)
    with pytest.warns(bm.UndefinedMeasureWarning, match="no threshold reaches precision 1"):
        assert np.isnan(bm.evaluate([1, 0, 1], [0.2, 0.9, 0.1]).pr().at(precision=1.0))


def test_band_plots_through_the_chart_path() -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    band = bm.evaluate(*data()).pr().ci_band(recall=np.linspace(0, 1, 6), n_resamples=30,
                                             random_state=0)
    ax = band.plot()
    assert ax.get_xlabel() == "Recall" and ax.get_ylabel() == "Precision"
