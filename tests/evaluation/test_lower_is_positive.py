"""``higher_is_positive=False``: scores where lower means more likely positive (docking
scores). Every measure equals the evaluation of the negated scores, and every threshold
reported is in the scores' own units with the rule ``score <= threshold``."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score, roc_curve

import binmetrics as bm
from binmetrics.cli import main

#: the warning of the default threshold 0.5 outside the scores (issue 33)
DEFAULT_CUT = r"threshold 0.5 \(the default\) is outside"


def _data(seed: int, n: int = 300) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    # docking-like: actives lower, rounded so that many scores tie
    s = np.round(-7.0 - 1.5 * y + rng.normal(0, 1.2, n), 1)
    w = rng.uniform(0.2, 3.0, n)
    return y, s, w


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b or math.isclose(a, b, rel_tol=1e-12,
                                                                        abs_tol=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
def test_every_measure_is_that_of_the_negated_scores(weighted: bool) -> None:
    y, s, w = _data(1)
    sw = w if weighted else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        low = bm.evaluate(y, s, threshold=-8.0, sample_weight=sw, higher_is_positive=False,
                          undefined="ignore")
        neg = bm.evaluate(y, -s, threshold=8.0, sample_weight=sw, undefined="ignore")
        a, b = low.to_dict(), neg.to_dict()
    assert set(a) == {m.id for m in bm.iter_measures()}
    diff = {k: (a[k], b[k]) for k in a if not _same(a[k], b[k])}
    assert not diff
    assert low.confusion == neg.confusion


def test_confusion_is_score_at_most_threshold() -> None:
    y, s, w = _data(2)
    for t in (-9.3, -8.0, float(np.median(s)), -5.0):
        ev = bm.evaluate(y, s, threshold=t, sample_weight=w, higher_is_positive=False)
        pred = s <= t
        c = ev.confusion
        assert math.isclose(c.tp, w[pred & (y == 1)].sum())
        assert math.isclose(c.fp, w[pred & (y == 0)].sum())
        assert math.isclose(c.fn, w[~pred & (y == 1)].sum())
        assert math.isclose(c.tn, w[~pred & (y == 0)].sum())
        assert ev.threshold == t and ev.cut == -t


def test_against_sklearn_on_negated_scores() -> None:
    y, s, w = _data(3)
    with pytest.warns(UserWarning, match=DEFAULT_CUT):  # ranking only: the cut is moot
        ev = bm.evaluate(y, s, sample_weight=w, higher_is_positive=False)
    assert ev["auc"] == pytest.approx(roc_auc_score(y, -s, sample_weight=w), abs=1e-12)
    assert ev["average_precision"] == pytest.approx(
        average_precision_score(y, -s, sample_weight=w), abs=1e-12)
    # the ROC thresholds in the scores' units: scikit-learn's of -s, negated back
    fpr, tpr, th = roc_curve(y, -s, sample_weight=w, drop_intermediate=False)
    roc = ev.roc()
    np.testing.assert_allclose(roc.fpr, fpr, atol=1e-12)
    np.testing.assert_allclose(roc.tpr, tpr, atol=1e-12)
    np.testing.assert_array_equal(roc.thresholds[1:], -th[1:])
    assert roc.thresholds[0] == -np.inf  # nothing predicted positive
    assert np.all(np.diff(roc.thresholds) > 0)  # ascending: more positives each step


def test_reported_thresholds_are_in_the_users_units() -> None:
    y, s, _ = _data(4)
    with pytest.warns(UserWarning, match=DEFAULT_CUT):
        ev = bm.evaluate(y, s, higher_is_positive=False)
    with pytest.warns(UserWarning, match=DEFAULT_CUT):
        neg = bm.evaluate(y, -s)
    for measure in ("informedness", "f1", "mcc", "closest_topleft"):
        b_low, b_neg = ev.best_threshold(measure), neg.best_threshold(measure)
        assert b_low.threshold == -b_neg.threshold
        assert b_low.value == b_neg.value and b_low.confusion == b_neg.confusion
        # the threshold reported, used as given, reproduces the best cut
        assert ev.at_threshold(b_low.threshold).confusion == b_low.confusion
        assert b_low.threshold in set(s.tolist())
    vertex = float(neg.roc().fpr[20])  # at a vertex .at reports its threshold
    at = ev.roc().at(fpr=vertex)
    assert math.isfinite(at.threshold) and at.threshold == -neg.roc().at(fpr=vertex).threshold
    c = ev.at_threshold(float(at.threshold)).confusion
    assert c.tp / (c.tp + c.fn) == at.tpr and c.fp / (c.fp + c.tn) == at.fpr
    t_ks, ks = ev.threshold_curves().ks()
    assert (t_ks, ks) == (-neg.threshold_curves().ks()[0], neg.threshold_curves().ks()[1])
    np.testing.assert_array_equal(ev.pr().thresholds, -neg.pr().thresholds)
    np.testing.assert_array_equal(ev.det().thresholds, -neg.det().thresholds)
    assert "score <= threshold" in str(ev.at_threshold(-8.0).summary(ci=False))
    assert "higher_is_positive=False" in repr(ev)


def test_intervals_and_calibration_keep_the_orientation() -> None:
    y, s, _ = _data(5)
    ev = bm.evaluate(y, s, threshold=-8.0, higher_is_positive=False)
    neg = bm.evaluate(y, -s, threshold=8.0)
    assert ev.ci("auc") == neg.ci("auc")
    assert ev.ci("f1", method="bootstrap", random_state=1) == neg.ci(
        "f1", method="bootstrap", random_state=1)
    cal = ev.calibrated(0.3)
    assert not cal.higher_is_positive and cal.threshold == -8.0
    assert cal["ppv"] == neg.calibrated(0.3)["ppv"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # docking scores are not probabilities
        assert ev.negated().to_dict() == pytest.approx(neg.to_dict(), nan_ok=True)
    assert ev.negated().threshold == 8.0
    assert bm.score("auc", y, s, higher_is_positive=False) == neg["auc"]  # no cut: no warning


def test_evaluate_by_and_the_table_front_door() -> None:
    y, s, _ = _data(6)
    df = pd.DataFrame({"y": y, "s": s, "g": np.repeat(["a", "b", "c"], 100)})
    res = bm.evaluate_by(df, label="y", score="s", by="g", threshold=-8.0,
                         higher_is_positive=False, measures=["auc", "f1"])
    for g, part in df.groupby("g"):
        ev = bm.evaluate(part["y"], -part["s"], threshold=8.0)
        row = res.to_frame().set_index("g").loc[g]
        assert row["auc"] == ev["auc"] and row["f1"] == ev["f1"]
        assert res.evaluations[g].threshold == -8.0
    with pytest.warns(UserWarning, match=DEFAULT_CUT):
        ev = bm.evaluate(df, label="y", score="s", higher_is_positive=False)
    assert ev["auc"] == pytest.approx(roc_auc_score(y, -s), abs=1e-12)


def test_bad_input() -> None:
    y, s, _ = _data(7, 20)
    with pytest.raises(TypeError, match="higher_is_positive must be True or False"):
        bm.evaluate(y, s, higher_is_positive="no")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="higher_is_positive"):
        bm.evaluate([0, 1, 2], [[.5, .3, .2], [.2, .5, .3], [.1, .2, .7]],
                    higher_is_positive=False)


def test_cli(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    y, s, _ = _data(8, 60)
    path = tmp_path / "dock.csv"
    pd.DataFrame({"y": y, "s": s}).to_csv(path, index=False)
    code = main(["evaluate", str(path), "--label", "y", "--score", "s", "--threshold", "-8",
                 "--lower-is-positive", "--measures", "auc,tpr", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    ev = bm.evaluate(y, -s, threshold=8.0)
    assert code == 0 and out["threshold"] == -8.0 and out["higher_is_positive"] is False
    assert out["measures"] == {"auc": ev["auc"], "tpr": ev["tpr"]}
    main(["evaluate", str(path), "--label", "y", "--score", "s", "--threshold", "-8",
          "--lower-is-positive", "--measures", "auc"])
    assert "score <= threshold is predicted positive" in capsys.readouterr().out
    code = main(["evaluate", str(path), "--label", "y", "--score", "s", "--engine", "duckdb",
                 "--lower-is-positive", "--threshold", "-8", "--measures", "auc"])
    assert code == 0  # the file engines take the direction (issue 33)
    assert "score <= threshold is predicted positive" in capsys.readouterr().out
    code = main(["evaluate", str(path), "--label", "y", "--score", "s", "--engine", "duckdb",
                 "--lower-is-positive", "--decimals", "1"])
    assert code == 2 and "negate the score column" in capsys.readouterr().err


def test_plots_and_report_read_the_users_units(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    y, s, _ = _data(9, 80)
    ev = bm.evaluate(y, s, threshold=-8.0, higher_is_positive=False)
    ax = ev.plot("threshold")
    assert ax.get_xlabel() == "threshold (score <= threshold is positive)"
    xs = np.concatenate([line.get_xdata() for line in ax.get_lines()[:1]])
    assert xs.min() < s.min() and xs.max() == s.max()  # the scores' own axis
    ax = bm.plot.confusion_matrix(ev)
    assert "score <= -8 positive" in ax.get_title()
    with pytest.warns(bm.UndefinedMeasureWarning, match="not probabilities"):
        html = bm.report(ev, str(tmp_path / "r.html"))  # docking scores: no Brier etc.
    assert "the charts and the threshold slider show the negated scores" in html


def test_file_engine_reads_lower_is_positive(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 33, point 4: the file engine takes the direction (exact scores), as evaluate;
    binned scores are refused rather than misread (the bins are cut on the raw scores)."""
    pytest.importorskip("duckdb")
    from binmetrics.engines.registry import get_engine
    from binmetrics.evaluation.options import EvalOptions

    y, s, w = _data(10, 50)
    path = tmp_path / "d.csv"
    pd.DataFrame({"y": y, "s": s, "w": w, "g": np.arange(50) % 2}).to_csv(path, index=False)
    for weight in (None, "w"):
        with get_engine("duckdb").open(str(path), label="y", score="s", weight=weight) as job:
            got = job.evaluate(EvalOptions(threshold=-8.0, higher_is_positive=False))
        want = bm.evaluate(y, s, threshold=-8.0, higher_is_positive=False,
                           sample_weight=None if weight is None else w)
        assert got.confusion == want.confusion and not got.higher_is_positive
        for m in ("auc", "mcc", "average_precision", "tpr"):
            assert got[m] == pytest.approx(want[m], rel=1e-12), m
        assert got.best_threshold("mcc").threshold == want.best_threshold("mcc").threshold
    with get_engine("duckdb").open(str(path), label="y", score="s", by="g") as job:
        by = job.evaluate(EvalOptions(threshold=-8.0, higher_is_positive=False),
                          measures=["auc"])
    for g in (0, 1):
        part = bm.evaluate(y[g::2], s[g::2], threshold=-8.0, higher_is_positive=False)
        assert by.evaluations[g]["auc"] == pytest.approx(part["auc"], rel=1e-12)
    with get_engine("duckdb").open(str(path), label="y", score="s") as job:
        with pytest.raises(ValueError, match="negate the score column"):
            job.evaluate(EvalOptions(higher_is_positive=False, decimals=1))


@pytest.mark.parametrize("threshold, warns, side", [
    (0.1, True, "negative"), (0.95, True, "positive"), (0.5, False, None)])
def test_threshold_range_warning_reads_the_users_units(threshold: float, warns: bool,
                                                       side: str | None) -> None:
    """score <= t is positive: t below every score predicts no positive, t above every
    score predicts all; the range is printed in the scores' own units."""
    y, s = [1, 0, 1], [0.9, 0.2, 0.6]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ev = bm.evaluate(y, s, threshold=threshold, higher_is_positive=False)
        ev.at_threshold(threshold)
    msgs = [str(w.message) for w in caught if "outside the scores' range" in str(w.message)]
    assert len(msgs) == (2 if warns else 0)
    if warns:
        assert msgs[0] == (f"threshold {threshold:g} is outside the scores' range [0.2, 0.9]: "
                           f"every case is predicted {side}")
        predicted_positive = ev.confusion.tp + ev.confusion.fp
        assert predicted_positive == (3 if side == "positive" else 0)


def test_ranking_table_scores_in_the_users_units() -> None:
    # docking scores, lower = active: the table's rows run from the lowest score up,
    # and the score column is the scores as given (not their negation)
    ev = bm.evaluate([1, 1, 0, 1, 0], [-9.5, -8.7, -8.1, -7.9, -6.0], threshold=-8,
                     higher_is_positive=False)
    table = ev.ranking_table()
    assert table["score"].tolist() == [-9.5, -8.7, -8.1, -7.9, -6.0]
    assert table["cumulative_positives"].tolist() == [1.0, 2.0, 2.0, 3.0, 3.0]


def test_undersampling_cuts_where_the_evaluation_does() -> None:
    from binmetrics.evaluation.undersampling import undersample

    y, s, _ = _data(11, 200)
    ev = bm.evaluate(y, s, threshold=-8.0, higher_is_positive=False)
    neg = bm.evaluate(y, -s, threshold=8.0)
    want = undersample(neg, 0.3, random_state=0)["tpr"]
    assert 0 < want < 1
    assert undersample(ev, 0.3, random_state=0)["tpr"] == want  # was read at cut -8 on -s
    us = ev.calibrated(0.3, method="undersample", random_state=0)
    assert us["tpr"] == want and us.threshold == -8.0  # reported in the user's units


def test_loss_plot_zero_one_loss_at_the_evaluations_cut() -> None:
    from binmetrics.evaluation.chart_data import loss_data, mean_losses

    y, s, _ = _data(12, 200)
    ev = bm.evaluate(y, s, threshold=-8.0, higher_is_positive=False)
    neg = bm.evaluate(y, -s, threshold=8.0)
    # the margins are those of the table's (negated) scores: same as the negated evaluation
    assert mean_losses(ev, ev.cut) == mean_losses(neg, neg.cut)
    assert mean_losses(ev, ev.cut)[1] == pytest.approx(ev["error_rate"], abs=1e-12)
    label = loss_data([("m", ev)], center="threshold").series[-1].label
    assert label == f"cases, mean 0-1 = {ev['error_rate']:.3f}"


def test_probability_measures_say_the_orientation_is_why() -> None:
    """Probabilities read with higher_is_positive=False are NaN because the table holds
    -p, and the warning says so instead of calling probabilities not probabilities."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        d = bm.evaluate([1, 0, 1, 0], [0.1, 0.8, 0.3, 0.6], higher_is_positive=False).to_dict()
    assert math.isnan(d["brier"])
    msgs = [str(w.message) for w in caught if isinstance(w.message, bm.UndefinedMeasureWarning)]
    assert any("brier" in m and "higher_is_positive=False reads the scores negated" in m
               for m in msgs), msgs
    assert not any("not probabilities in [0, 1]" in m for m in msgs)
