"""The constraint region of a chosen cut (plot kind "best_threshold", and the report's
"Chosen thresholds" charts): the thresholds shaded are exactly those whose cut meets every
constraint, computed here by brute force over the distinct scores, with ties, weights and
lower scores meaning positive; an infeasible constraint shades nothing and the report
says so."""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.evaluation.chart_thresholds import REGION_LABEL, cut_spans
from binmetrics.evaluation.cut_choice import feasible_cuts, parse_constraints
from binmetrics.exceptions import UndefinedMeasureWarning


def _holds(v: float, op: str, b: float) -> bool:
    if math.isnan(v):
        return False
    return {">=": v >= b, "<=": v <= b, ">": v > b, "<": v < b}[op]


def _brute_feasible(y, s, w, constraints, higher=True) -> list[tuple[float, bool]]:
    """(threshold, every constraint holds) for each candidate threshold, strictest first,
    from the rows."""
    w = np.ones(y.size) if w is None else w
    distinct = sorted(set(s.tolist()), reverse=higher)
    out = []
    for th in [np.inf if higher else -np.inf, *distinct]:
        pred = s >= th if higher else s <= th
        c = bm.Confusion(tp=w[pred & (y == 1)].sum(), fp=w[pred & (y == 0)].sum(),
                         fn=w[~pred & (y == 1)].sum(), tn=w[~pred & (y == 0)].sum())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ok = all(_holds(float(bm.get_measure(k).func(c)), op, b)
                     for k, (op, b) in constraints.items())
        out.append((th, ok))
    return out


def _drawn(cd) -> list[bool]:
    """For each cut of the chart's threshold axis, whether a band covers its stretch:
    cut k is drawn from x[k] to x[k + 1], the last beyond the lowest score."""
    x = next(s for s in cd.series if s.style == "solid").points[0]
    bands = [(float(s.x.min()), float(s.x.max())) for s in cd.series if s.style == "band"]
    probe = np.append((x[:-1] + x[1:]) / 2, x[-1] + 0.01 * (x[-1] - x[0]))
    # every band starts and ends at a cut's edge
    edges = np.append(x, x[-1] + 0.02 * (x[-1] - x[0]))
    for lo, hi in bands:
        assert np.isclose(edges, lo, rtol=0, atol=1e-9).any()
        assert np.isclose(edges, hi, rtol=0, atol=1e-9).any()
    return [any(lo < p < hi for lo, hi in bands) for p in probe]


CASES = [
    ("tpr", {"ppv": (">=", 0.6)}),
    ("tpr", {"ppv": (">=", 0.55), "tnr": (">=", 0.5)}),
    ("f1", {"fpr": ("<=", 0.3), "npv": (">", 0.7)}),
    ("tnr", {"tpr": (">", 0.8)}),
]


@pytest.mark.parametrize("higher", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize(("measure", "constraints"), CASES)
def test_the_region_drawn_is_the_feasible_cuts(measure, constraints, seed, weighted, higher,
                                               tied_scores):
    y, s, w = tied_scores(seed, weighted=weighted)
    s = s if higher else -s  # the same ranking, lower scores meaning positive
    ev = bm.evaluate(y, s, sample_weight=w, higher_is_positive=higher)
    brute = _brute_feasible(y, s, w, constraints, higher)
    cd = bm.plot.chart_data("best_threshold", ev, measure=measure, subject_to=constraints)
    assert _drawn(cd) == [ok for _, ok in brute]
    assert any(ok for _, ok in brute)  # the case has a region
    # the mask the chart reads, and the chosen cut inside the region at best_threshold's
    mask = feasible_cuts(ev.table, parse_constraints(constraints))
    assert mask.tolist() == [ok for _, ok in brute]
    best = ev.best_threshold(measure, subject_to=constraints)
    (line,) = [x for x in cd.series if x.style == "segment"]
    k = [th for th, _ in brute].index(best.threshold)
    x = next(x for x in cd.series if x.style == "solid").points[0]
    assert line.x.tolist() == [x[k], x[k]] and brute[k][1]
    labels = [x.label for x in cd.series if x.style == "band"]
    assert labels[0] == REGION_LABEL and not any(labels[1:])


def test_an_infeasible_constraint_has_no_region(tied_scores):
    y, s, _ = tied_scores(3)
    ev = bm.evaluate(y, s)
    with pytest.warns(UndefinedMeasureWarning, match="no cut meets"):
        cd = bm.plot.chart_data("best_threshold", ev, measure="tpr",
                                subject_to={"ppv": (">=", 0.99), "tpr": (">=", 0.9)})
    assert not [x for x in cd.series if x.style in ("band", "segment")]
    assert "no cut meets the constraints" in cd.series[0].label
    with pytest.warns(UndefinedMeasureWarning):
        none = ev.best_threshold("tpr", subject_to={"ppv": (">=", 0.99), "tpr": (">=", 0.9)})
    with pytest.warns(UndefinedMeasureWarning, match="not probabilities"):
        page = bm.report(ev, best_thresholds=[none])
    section = re.search(r"<section id='bm-thresholds'>.*?</section>", page, re.S).group(0)
    assert "No cut meets the constraints (ppv &gt;= 0.99, tpr &gt;= 0.9): there is no " \
        "region to shade." in section
    assert "<svg" in section and "bm-band" not in section


def test_the_report_draws_the_same_region(tied_scores):
    y, s, _ = tied_scores(4)
    ev = bm.evaluate(y, s)
    best = ev.best_threshold("tpr", subject_to="ppv>=0.55")
    cd = bm.plot.chart_data("best_threshold", ev, measure="tpr", subject_to="ppv>=0.55")
    with pytest.warns(UndefinedMeasureWarning, match="not probabilities"):
        page = bm.report(ev, best_thresholds=[best, ev.best_threshold("fbeta", beta=2.0)])
    section = re.search(r"<section id='bm-thresholds'>.*?</section>", page, re.S).group(0)
    drawn = [(float(a), float(b)) for a, b in
             re.findall(r"class='bm-band'[^>]*data-x0='([^']+)' data-x1='([^']+)'", section)]
    bands = [(float(x.x.min()), float(x.x.max())) for x in cd.series if x.style == "band"]
    assert drawn == bands and bands
    mask = feasible_cuts(ev.table, parse_constraints("ppv>=0.55"))
    runs = int(np.count_nonzero(np.diff(np.r_[0, mask.astype(int)]) == 1))
    assert f"hold at {int(mask.sum())} of {mask.size} cuts, in {runs} run" in section
    assert section.count("class='bm-threshold-region'") == 2  # fbeta too: no constraints
    assert "No constraints: every cut is allowed" in section
    # the chosen cut's line: at the result's threshold
    assert "chosen: tpr = " in section and f" at {best.threshold:g}" in section


def test_spans_and_bad_measure(tied_scores):
    x = np.array([1.05, 1.0, 0.5, 0.0])
    assert cut_spans(x, np.array([True, True, False, False])) == [(1.05, 0.5)]
    assert cut_spans(x, np.zeros(4, bool)) == []
    ev = bm.evaluate([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])
    with pytest.raises(ValueError, match="not a confusion measure with a direction"):
        bm.plot.chart_data("best_threshold", ev, measure="auc")
    with pytest.raises(ValueError, match="unknown operator"):
        bm.plot.chart_data("best_threshold", ev, measure="tpr", subject_to={"ppv": ("=", 1)})


def test_matplotlib_draws_the_region(tied_scores):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    y, s, _ = tied_scores(5)
    ev = bm.evaluate(y, s)
    ax = ev.plot("best_threshold", measure="tpr", subject_to="ppv>=0.55")
    cd = bm.plot.chart_data("best_threshold", ev, measure="tpr", subject_to="ppv>=0.55")
    n_bands = sum(x.style == "band" for x in cd.series)
    assert n_bands and len(ax.patches) == n_bands  # one filled polygon per band
    plt.close("all")
