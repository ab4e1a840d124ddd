"""What ``bm.evaluate`` takes and what it says: a table and its columns (pandas, pyarrow,
Polars), labels for a multiclass matrix, a hint for three classes without one, and one
warning at the user's line for a threshold outside the scores' range."""

from __future__ import annotations

import warnings

import pytest

import binmetrics as bm
from binmetrics.formatting import format_number


def _range_warnings(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn()
    return out, [w for w in caught if "outside the scores' range" in str(w.message)]


def test_evaluate_takes_a_table_and_its_columns(scored_frame):
    ref = bm.evaluate(scored_frame["y"], scored_frame["p"], threshold=0.4)
    for ev in (bm.evaluate(scored_frame, label="y", score="p", threshold=0.4),
               bm.evaluate(data=scored_frame, label="y", score="p", threshold=0.4)):
        assert ev.confusion == ref.confusion and ev["auc"] == ref["auc"]
    pa = pytest.importorskip("pyarrow")
    ev = bm.evaluate(data=pa.Table.from_pandas(scored_frame), label="y", score="p", threshold=0.4)
    assert ev.confusion == ref.confusion
    pl = pytest.importorskip("polars")
    ev = bm.evaluate(data=pl.from_pandas(scored_frame), label="y", score="p", threshold=0.4)
    assert ev.confusion == ref.confusion
    with pytest.raises(KeyError, match=r"score column 'px'.*columns: y, p"):
        bm.evaluate(scored_frame, label="y", score="px")


def test_evaluate_takes_labels_for_multiclass():
    proba = [[.6, .3, .1], [.2, .7, .1], [.2, .5, .3], [.3, .4, .3]]
    mev = bm.evaluate(["a", "b", "c", "b"], proba, labels=["a", "b", "c"])
    ref = bm.evaluate_multiclass(["a", "b", "c", "b"], proba, labels=["a", "b", "c"])
    assert mev["accuracy"] == ref["accuracy"] == 0.75


def test_binary_call_with_three_classes_hints_at_the_matrix():
    with pytest.raises(ValueError, match="probability matrix, one column per class"):
        bm.evaluate([0, 1, 2, 1], [0.1, 0.5, 0.3, 0.2])


def test_threshold_outside_the_scores_range_warns_once_at_the_users_line(scored_frame):
    lo, hi = scored_frame["p"].min(), scored_frame["p"].max()
    y, p = scored_frame["y"], scored_frame["p"]
    ev, caught = _range_warnings(lambda: bm.evaluate(y, p, threshold=1.5))
    assert len(caught) == 1 and caught[0].filename == __file__
    msg = str(caught[0].message)
    assert msg.startswith("threshold 1.5 is outside the scores' range")
    assert f"[{format_number(lo)}, {format_number(hi)}]" in msg
    assert msg.endswith("every case is predicted negative")
    assert ev.confusion.tp == ev.confusion.fp == 0  # what the warning says
    _, caught = _range_warnings(lambda: ev.at_threshold(-1.0))
    assert len(caught) == 1 and "predicted positive" in str(caught[0].message)
    assert caught[0].filename == __file__
    _, caught = _range_warnings(lambda: bm.evaluate(scored_frame, label="y", score="p",
                                                    threshold=float(hi)))
    assert caught == []  # the ends of the range are inside it
    acc = bm.Accumulator().update(scored_frame["y"], scored_frame["p"])
    _, caught = _range_warnings(lambda: acc.evaluate(threshold=2.0))
    assert len(caught) == 1 and caught[0].filename == __file__
    _, caught = _range_warnings(lambda: bm.evaluate_by(scored_frame, label="y", score="p", by="g",
                                                       threshold=1.5, measures=["tpr"]))
    assert caught == []  # a group's scores may well lie on one side: no warning per group
    high = scored_frame.assign(p=p + 1.0)  # scores in (1, 2): the default 0.5 is outside
    _, caught = _range_warnings(lambda: bm.evaluate(high["y"], high["p"]))
    assert len(caught) == 1  # the default warns too (issue 33), saying it is the default
    assert "threshold 0.5 (the default) is outside" in str(caught[0].message)
    _, caught = _range_warnings(lambda: bm.evaluate(high["y"], high["p"], threshold=0.5))
    assert len(caught) == 1 and "(the default)" not in str(caught[0].message)
    _, caught = _range_warnings(lambda: bm.evaluate(y, p, threshold=1.5, undefined="ignore"))
    assert caught == []  # "ignore" silences the caveats of degenerate input



def test_score_warns_of_the_threshold_only_for_measures_that_read_it(scored_frame):
    high = scored_frame.assign(p=scored_frame["p"] + 1.0)  # the default 0.5 is outside
    y, p = high["y"], high["p"]
    for measure in ("auc", "average_precision", "ks"):  # ranking: no cut is read
        value, caught = _range_warnings(lambda m=measure: bm.score(m, y, p))
        assert caught == [] and value == bm.evaluate(y, p, threshold=1.5)[measure]
    _, caught = _range_warnings(lambda: bm.score("tpr", y, p))  # a confusion measure
    assert len(caught) == 1 and caught[0].filename == __file__
    _, caught = _range_warnings(lambda: bm.evaluate(y, p))  # and evaluate still says so
    assert len(caught) == 1
