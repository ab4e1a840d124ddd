"""The report's Groups section (binmetrics.display.report_groups): each group's values
with the intervals of the gaps' bootstrap, the gaps with their intervals, and the
calibration (ECE) by group; the numbers are those of ByResult's own methods."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.display.report import report
from binmetrics.display.report_html import fmt
from binmetrics.exceptions import MeasureCaveatWarning, UndefinedMeasureWarning


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    rng = np.random.default_rng(4)
    n = 600
    g = rng.choice(["f", "m", "x"], n, p=[0.45, 0.45, 0.1])
    y = (rng.random(n) < np.where(g == "f", 0.3, 0.5)).astype(int)
    p = np.round(np.clip(0.35 * y + 0.6 * rng.random(n) + 0.05 * (g == "m"), 0, 1), 2)
    return pd.DataFrame({"g": g, "k": rng.integers(0, 2, n), "y": y, "p": p})


def _page(*args, **kw) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MeasureCaveatWarning)
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        return report(*args, **kw)


def _value(page: str, ident: str) -> float:
    m = re.search(rf"id='{re.escape(ident)}' data-value='([^']*)'>[^<]*</span>"
                  r"(?:<span class='ci'>\[([^,\]]*), ([^\]]*)\]</span>)?", page)
    assert m, ident
    return float(m.group(1))


def _interval(page: str, ident: str) -> tuple[str, str] | None:
    m = re.search(rf"id='{re.escape(ident)}' data-value='[^']*'>[^<]*</span>"
                  r"(?:<span class='ci'>\[([^,\]]*), ([^\]]*)\]</span>)?", page)
    assert m, ident
    return None if m.group(2) is None else (m.group(1), m.group(2))


def test_values_gaps_and_calibration_with_intervals(frame: pd.DataFrame) -> None:
    g = bm.evaluate_by(frame, label="y", score="p", by="g", measures=["tpr"])
    opts = {"n_resamples": 200, "random_state": 0, "level": 0.9}
    page = _page(g.overall, grouped=g, gaps=["tpr", "ppv"], ci=opts)
    section = page[page.index("<section id='bm-groups'>"):]
    section = section[:section.index("</section>")]
    assert "<h2>Groups</h2>" in section and "90% percentile intervals" in section
    for m in ("tpr", "ppv", "ece"):  # ECE: the calibration by group, probabilities here
        d = g.difference(m, ci=True, **opts)
        r = g.ratio(m, ci=True, **opts)
        assert _value(section, f"bm-gap-{m}-difference") == d.estimate
        assert _interval(section, f"bm-gap-{m}-difference") == (fmt(d.ci.low), fmt(d.ci.high))
        assert _value(section, f"bm-gap-{m}-ratio") == r.estimate
        assert _interval(section, f"bm-gap-{m}-ratio") == (fmt(r.ci.low), fmt(r.ci.high))
        assert f"data-value='{d.pvalue!r}'" in section
        rows = d.by_group.set_index("g")
        for i, key in enumerate(g.keys):
            assert _value(section, f"bm-group-{i}-{m}") == g.evaluations[key].value(m)
            assert _interval(section, f"bm-group-{i}-{m}") == (
                fmt(rows.loc[key, "low"]), fmt(rows.loc[key, "high"]))
    assert g.difference("tpr") == _value(section, "bm-gap-tpr-difference")
    assert "bm-gap-auc" not in section  # only the measures asked, and ECE


def test_a_grouped_result_as_the_models_without_intervals(frame: pd.DataFrame) -> None:
    g = bm.evaluate_by(frame, label="y", score="p", by=["g", "k"], min_cases=40,
                       measures=["auc"])
    page = _page(g)
    assert "class='model m0' title='overall'" in page  # the model: all the rows
    assert _value(page, "bm-v-0-auc") == g.overall["auc"]
    section = page[page.index("<section id='bm-groups'>"):]
    assert "report(..., ci=True)" in section and "<span class='ci'>" not in section
    for m in ("auc", "tpr", "fpr", "ppv", "ece"):
        with pytest.warns(UndefinedMeasureWarning, match="x, 1 .36 rows"):
            assert _value(section, f"bm-gap-{m}-difference") == g.difference(m)
    # the small intersections are listed with the reason and left out of the gaps
    left = g.to_frame().query("reason != ''")
    assert len(left) > 0
    for _, row in left.iterrows():
        assert f"data-group='{row['g']}, {row['k']}'" in section
        assert str(row["reason"]) in section


def test_scores_that_are_not_probabilities_have_no_calibration(frame: pd.DataFrame) -> None:
    f = frame.assign(p=frame["p"] * 10 - 3)
    g = bm.evaluate_by(f, label="y", score="p", by="g", measures=["auc"])
    page = _page(g, gaps="auc")
    section = page[page.index("<section id='bm-groups'>"):]
    assert "Calibration by group is left out" in section and "bm-gap-ece" not in section
    assert _value(section, "bm-gap-auc-difference") == g.difference("auc")


def test_without_groups_there_is_no_section_and_bad_input(frame: pd.DataFrame) -> None:
    ev = bm.evaluate(frame["y"], frame["p"])
    assert "bm-groups" not in _page(ev)
    g = bm.evaluate_by(frame, label="y", score="p", by="g", measures=["auc"])
    with pytest.raises(TypeError, match="grouped must be the result of"):
        report(ev, grouped=ev)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="give grouped="):
        report(ev, gaps=["tpr"])
    with pytest.raises(TypeError, match="give it once"):
        report(g, grouped=g)
    with pytest.raises(KeyError):
        report(ev, grouped=g, gaps=["no_such_measure"])
