"""Caveats (``MeasureCaveatWarning``) come only for the measures asked for, once per call,
at the user's line; a judgement caveat never in a table of every measure."""

from __future__ import annotations

import warnings

import binmetrics as bm


def _caught(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn()
    return out, [w for w in caught if issubclass(w.category, bm.MeasureCaveatWarning)]


def test_caveat_only_for_measures_asked_for(scored_frame):
    ev = bm.evaluate(scored_frame["y"], scored_frame["p"])
    _, caught = _caught(lambda: ev.to_dict(measures=["auc", "mcc"]))
    assert caught == []
    _, caught = _caught(lambda: bm.evaluate_by(scored_frame, label="y", score="p", by="g",
                                               measures=["auc"]))
    assert caught == []


def test_caveat_once_per_call_at_the_users_line(scored_frame):
    _, caught = _caught(lambda: bm.evaluate_by(scored_frame, label="y", score="p", by="g",
                                               measures=["auc", "bedroc"]))
    assert len(caught) == 1
    assert caught[0].filename == __file__
    assert "more times in this call" in str(caught[0].message)
    ev = bm.evaluate(scored_frame["y"], scored_frame["p"])
    _, caught = _caught(lambda: ev.to_dict(measures=["bedroc"]))
    assert len(caught) == 1 and caught[0].filename == __file__
    assert str(caught[0].message).startswith("bedroc:")


def test_judgement_caveat_not_in_a_table_of_every_measure(scored_frame):
    _, caught = _caught(lambda: bm.evaluate_by(scored_frame, label="y", score="p", by="g"))
    assert caught == []
    ev = bm.evaluate(scored_frame["y"], scored_frame["p"])
    _, caught = _caught(lambda: ev.to_dict())
    assert caught == []

