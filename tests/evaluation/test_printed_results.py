"""An evaluation's results print themselves: a comparison's repr with its p-values, every
curve's ``to_frame``, ``repr`` and ``_repr_html_``, and the summary as a classification
report."""

from __future__ import annotations

import pandas as pd
import pytest

import binmetrics as bm


def test_comparison_repr_shows_pvalues(scored_frame):
    cmp = bm.compare(scored_frame["y"], {"p": scored_frame["p"], "q": scored_frame["q"]})
    text = repr(cmp)
    assert "pvalue" in text and "delong" in text and "mcnemar" in text
    r = cmp.result("p", "q", "auc")
    assert f"{r.pvalue:.6g}" in text
    assert "<table" in cmp._repr_html_()


@pytest.mark.parametrize("curve", ["roc", "pr", "prg", "threshold_curves", "gain", "lift",
                                   "accumulation"])
def test_every_curve_has_to_frame_repr_and_html(scored_frame, curve):
    c = getattr(bm.evaluate(scored_frame["y"], scored_frame["p"]), curve)()
    f = c.to_frame()
    assert isinstance(f, pd.DataFrame) and len(f) > 2
    first = type(c).__dataclass_fields__
    assert list(f.columns) == [n for n in first if n != "table"]
    assert repr(c).startswith(type(c).__name__ + ":") and len(repr(c).splitlines()) < 15
    assert "<table" in c._repr_html_()


def test_summary_is_a_classification_report(scored_frame):
    ev = bm.evaluate(scored_frame["y"], scored_frame["p"])
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

