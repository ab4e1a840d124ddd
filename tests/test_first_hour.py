"""Issue 20, "the first hour": no noise (2), results that print themselves (4), one
front door (5) and honest messages (6), in Python. The CLI cases are subprocess
tests in tests/test_cli_first_hour.py and tests/cli/test_compare_command.py."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.formatting import format_number


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    n = 2000
    y = rng.random(n) < 0.3
    s = 1 / (1 + np.exp(-(y + rng.normal(0, 1, n))))
    return pd.DataFrame({"y": y.astype(int), "p": s, "q": rng.random(n),
                         "g": rng.integers(0, 8, n)})


def _caught(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn()
    return out, [w for w in caught if issubclass(w.category, bm.MeasureCaveatWarning)]


# --- 2. noise ------------------------------------------------------------------------
def test_caveat_only_for_measures_asked_for(frame):
    ev = bm.evaluate(frame["y"], frame["p"])
    _, caught = _caught(lambda: ev.to_dict(measures=["auc", "mcc"]))
    assert caught == []
    _, caught = _caught(lambda: bm.evaluate_by(frame, label="y", score="p", by="g",
                                               measures=["auc"]))
    assert caught == []


def test_caveat_once_per_call_at_the_users_line(frame):
    _, caught = _caught(lambda: bm.evaluate_by(frame, label="y", score="p", by="g",
                                               measures=["auc", "bedroc"]))
    assert len(caught) == 1
    assert caught[0].filename == __file__
    assert "more times in this call" in str(caught[0].message)
    ev = bm.evaluate(frame["y"], frame["p"])
    _, caught = _caught(lambda: ev.to_dict(measures=["bedroc"]))
    assert len(caught) == 1 and caught[0].filename == __file__
    assert str(caught[0].message).startswith("bedroc:")


def test_judgement_caveat_not_in_a_table_of_every_measure(frame):
    _, caught = _caught(lambda: bm.evaluate_by(frame, label="y", score="p", by="g"))
    assert caught == []
    ev = bm.evaluate(frame["y"], frame["p"])
    _, caught = _caught(lambda: ev.to_dict())
    assert caught == []


# --- 5. one front door ---------------------------------------------------------------
def test_evaluate_takes_a_table_and_its_columns(frame):
    ref = bm.evaluate(frame["y"], frame["p"], threshold=0.4)
    for ev in (bm.evaluate(frame, label="y", score="p", threshold=0.4),
               bm.evaluate(data=frame, label="y", score="p", threshold=0.4)):
        assert ev.confusion == ref.confusion and ev["auc"] == ref["auc"]
    pa = pytest.importorskip("pyarrow")
    ev = bm.evaluate(data=pa.Table.from_pandas(frame), label="y", score="p", threshold=0.4)
    assert ev.confusion == ref.confusion
    pl = pytest.importorskip("polars")
    ev = bm.evaluate(data=pl.from_pandas(frame), label="y", score="p", threshold=0.4)
    assert ev.confusion == ref.confusion
    with pytest.raises(KeyError, match=r"score column 'px'.*columns: y, p"):
        bm.evaluate(frame, label="y", score="px")


def test_evaluate_takes_labels_for_multiclass():
    proba = [[.6, .3, .1], [.2, .7, .1], [.2, .5, .3], [.3, .4, .3]]
    mev = bm.evaluate(["a", "b", "c", "b"], proba, labels=["a", "b", "c"])
    ref = bm.evaluate_multiclass(["a", "b", "c", "b"], proba, labels=["a", "b", "c"])
    assert mev["accuracy"] == ref["accuracy"] == 0.75


def test_binary_call_with_three_classes_hints_at_the_matrix():
    with pytest.raises(ValueError, match="probability matrix, one column per class"):
        bm.evaluate([0, 1, 2, 1], [0.1, 0.5, 0.3, 0.2])


# --- 4. results print themselves ---------------------------------------------------------
def test_comparison_repr_shows_pvalues(frame):
    cmp = bm.compare(frame["y"], {"p": frame["p"], "q": frame["q"]})
    text = repr(cmp)
    assert "pvalue" in text and "delong" in text and "mcnemar" in text
    r = cmp.result("p", "q", "auc")
    assert f"{r.pvalue:.6g}" in text
    assert "<table" in cmp._repr_html_()


@pytest.mark.parametrize("curve", ["roc", "pr", "prg", "threshold_curves", "gain", "lift",
                                   "accumulation"])
def test_every_curve_has_to_frame_repr_and_html(frame, curve):
    c = getattr(bm.evaluate(frame["y"], frame["p"]), curve)()
    f = c.to_frame()
    assert isinstance(f, pd.DataFrame) and len(f) > 2
    first = type(c).__dataclass_fields__
    assert list(f.columns) == [n for n in first if n != "table"]
    assert repr(c).startswith(type(c).__name__ + ":") and len(repr(c).splitlines()) < 15
    assert "<table" in c._repr_html_()


def test_summary_is_a_classification_report(frame):
    ev = bm.evaluate(frame["y"], frame["p"])
    sm = ev.summary(n_resamples=200, random_state=0)
    text = str(sm)
    for word in ("threshold 0.5", "precision", "recall", "support", "95% intervals", "mcc"):
        assert word in text
    f = sm.to_frame()
    assert list(f.columns) == ["id", "name", "value", "low", "high", "method"]
    assert f.set_index("id").loc["auc", "value"] == ev["auc"]
    assert (f["low"] <= f["value"]).all() and (f["value"] <= f["high"]).all()
    assert sm.per_class["support"].tolist() == [ev.table.P, ev.table.N]
    assert "<table" in sm._repr_html_()
    quick = ev.summary(ci=False)
    assert quick.level is None and "low" not in str(quick)


# --- 3. progress ---------------------------------------------------------------------
def test_progress_off_a_terminal_is_lines_with_share_and_time_left(frame, capsys):
    ev = bm.evaluate(frame["y"], frame["p"])
    ev.ci_table(["mcc"], n_resamples=400, random_state=0, progress=True)
    err = capsys.readouterr().err
    assert "bootstrap:" in err and "%" in err and "done in" in err
    ev2 = bm.evaluate(frame["y"], frame["q"])
    ev2.ci_table(["mcc"], n_resamples=50, random_state=0, progress="auto")  # short: silent
    assert capsys.readouterr().err == ""


# --- 6. honest messages --------------------------------------------------------------
def _range_warnings(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn()
    return out, [w for w in caught if "outside the scores' range" in str(w.message)]


def test_threshold_outside_the_scores_range_warns_once_at_the_users_line(frame):
    lo, hi = frame["p"].min(), frame["p"].max()
    ev, caught = _range_warnings(lambda: bm.evaluate(frame["y"], frame["p"], threshold=1.5))
    assert len(caught) == 1 and caught[0].filename == __file__
    msg = str(caught[0].message)
    assert msg.startswith("threshold 1.5 is outside the scores' range")
    assert f"[{format_number(lo)}, {format_number(hi)}]" in msg
    assert msg.endswith("every case is predicted negative")
    assert ev.confusion.tp == ev.confusion.fp == 0  # what the warning says
    _, caught = _range_warnings(lambda: ev.at_threshold(-1.0))
    assert len(caught) == 1 and "predicted positive" in str(caught[0].message)
    assert caught[0].filename == __file__
    _, caught = _range_warnings(lambda: bm.evaluate(frame, label="y", score="p",
                                                    threshold=float(hi)))
    assert caught == []  # the ends of the range are inside it
    acc = bm.Accumulator().update(frame["y"], frame["p"])
    _, caught = _range_warnings(lambda: acc.evaluate(threshold=2.0))
    assert len(caught) == 1 and caught[0].filename == __file__
    _, caught = _range_warnings(lambda: bm.evaluate_by(frame, label="y", score="p", by="g",
                                                       threshold=1.5, measures=["tpr"]))
    assert caught == []  # a group's scores may well lie on one side: no warning per group
    high = frame.assign(p=frame["p"] + 1.0)  # scores in (1, 2): the default 0.5 is outside
    _, caught = _range_warnings(lambda: bm.evaluate(high["y"], high["p"]))
    assert caught == []  # only a threshold the user gave warns
    _, caught = _range_warnings(lambda: bm.evaluate(high["y"], high["p"], threshold=0.5))
    assert len(caught) == 1  # ... even if it equals the default
    _, caught = _range_warnings(lambda: bm.evaluate(frame["y"], frame["p"], threshold=1.5,
                                                    undefined="ignore"))
    assert caught == []  # "ignore" silences the caveats of degenerate input


def test_evaluate_file_on_an_empty_file_says_so(tmp_path):
    pytest.importorskip("duckdb")
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    header = tmp_path / "header.csv"
    header.write_text("y,p\n")
    with pytest.raises(ValueError, match=r"empty\.csv is empty: the file has no header and no "
                                         r"rows"):
        bm.evaluate_file(empty, label="y", score="p")
    with pytest.raises(ValueError, match=r"header.csv has no rows: the file holds only its "
                                         r"header \(y, p\)"):
        bm.evaluate_file(header, label="y", score="p")
    part = tmp_path / "part.csv"  # of several files, only when none has a row
    part.write_text("y,p\n1,0.8\n0,0.3\n")
    assert bm.evaluate_file([header, part], label="y", score="p").table.total == 2


def test_srd_randomization_and_cross_validation_report_progress():
    rng = np.random.default_rng(1)
    table = pd.DataFrame(rng.normal(size=(12, 3)), columns=list("abc"))
    res = bm.srd(table)
    seen: list[tuple[int, int]] = []
    rt = res.randomization(random_state=0, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (3, 3) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    seen.clear()
    res.randomization(null="rsrd", n_resamples=5000, random_state=0,
                      progress=lambda d, t: seen.append((d, t)))
    assert (5000, 5000) in seen and seen[-1] == (3, 3)  # the simulation, then the columns
    seen.clear()
    cv = res.cross_validate("kfold", k=4, random_state=0,
                            progress=lambda d, t: seen.append((d, t)))
    assert seen == [(i, 4) for i in range(1, 5)] and len(cv.folds) == 4
    quiet = res.randomization(random_state=0, progress=False)
    pd.testing.assert_frame_equal(quiet.to_frame(), rt.to_frame())  # progress changes nothing
