"""The report's "Chosen thresholds" section: each best_threshold result's cut, value,
constraints, intervals and optimism, as the result holds them; bad input is a one-line
error."""

from __future__ import annotations

import html
import re
import warnings

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.display.report_html import fmt


def _ev(seed: int = 0) -> bm.Evaluation:
    rng = np.random.default_rng(seed)
    y = (rng.random(300) < 0.3).astype(int)
    return bm.evaluate(y, np.round(1 / (1 + np.exp(-rng.normal(y * 1.5, 1.0))), 2))


def test_the_section_shows_each_result():
    ev = _ev()
    plain = ev.best_threshold("f1")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        boot = ev.best_threshold("tpr", subject_to={"ppv": (">=", 0.5)}, ci=True,
                                 n_resamples=50, random_state=0)
    page = bm.report(ev, best_thresholds=[plain, boot])
    section = re.search(r"<section id='bm-thresholds'>.*?</section>", page, re.S)
    assert section is not None
    rows = section.group(0).split("<tr>")[2:]
    assert len(rows) == 2
    assert f"data-value='{plain.threshold!r}'" in rows[0] and ">f1<" in rows[0]
    assert fmt(plain.value) in rows[0]
    assert "ppv &gt;= 0.5" in rows[1]
    for v in (boot.threshold_ci.low, boot.threshold_ci.high, boot.value_ci.low,
              boot.value_ci.high, boot.optimism, boot.corrected_value):
        assert fmt(v) in rows[1]
    assert "50 bootstrap replicates" in rows[1]
    assert "bm-thresholds" not in bm.report(ev)


def test_several_models_and_an_infeasible_cut():
    a, b = _ev(1), _ev(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        none = b.best_threshold("f1", subject_to={"ppv": (">=", 0.99), "tpr": (">=", 0.9)})
    assert not none.feasible
    page = bm.report({"a": a, "b": b}, best_thresholds={"a": a.best_threshold("mcc"),
                                                         "b": [none]})
    section = re.search(r"<section id='bm-thresholds'>.*?</section>", page, re.S).group(0)
    assert ">a<" in section and ">b<" in section and none.reason
    assert html.escape(none.reason) in section


@pytest.mark.parametrize(("given", "error", "match"), [
    ({"c": None}, ValueError, "best_thresholds names model 'c'"),
    ({"a": 0.5}, TypeError, r"best_thresholds\['a'\] must be the result"),
    ([], TypeError, "with several models, best_thresholds maps a model name"),
])
def test_bad_best_thresholds(given, error, match):
    ev = _ev()
    with pytest.raises(error, match=match):
        bm.report({"a": ev, "b": ev}, best_thresholds=given)
