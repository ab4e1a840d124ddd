"""The HTML report: its embedded numbers are binmetrics' own, it is self-contained, its
curves stay within the documented thinning error, it is written atomically, and the
``binmetrics report`` command reads wide and long files."""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.cli import app as cli
from binmetrics.cli.report import add_report_parser
from binmetrics.display import plot
from binmetrics.display.report import report, thin_curve
from binmetrics.display.report_html import fmt as _fmt
from binmetrics.display.thinning import _arc_keep
from binmetrics.evaluation import chart_data
from binmetrics.io import read_csv
from binmetrics.measures import FAMILIES

Y_BERRAR = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
S_BERRAR = [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]
CONFUSION = [m.id for m in bm.iter_measures("confusion")]


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():  # BEDROC caveats, undefined values at extreme cuts
        warnings.simplefilter("ignore", UserWarning)
        yield


def embedded(page: str) -> dict[str, Any]:
    m = re.search(r'<script type="application/json" id="bm-data">(.*?)</script>', page, re.S)
    assert m is not None
    return json.loads(m.group(1))


def num(v: Any) -> float:
    return math.nan if v is None else float(v)  # "Infinity" -> inf


def cell(page: str, model: int, mid: str) -> tuple[float, str]:
    m = re.search(rf"id='bm-v-{model}-{mid}' data-value='([^']*)'[^>]*>([^<]*)<", page)
    assert m is not None, mid
    return float(m.group(1)), m.group(2)


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


def embedded_as(a: float, b: float, shown: int = 6) -> bool:
    """An embedded slider value ``a`` is binmetrics' ``b`` to 10 significant digits (or
    exactly), and shows as ``b`` does."""
    if math.isnan(b) or math.isinf(b):
        return same(a, b)
    return (a == b or a == float(f"{b:.10g}")) and _fmt(a, shown) == _fmt(b, shown)


def random_case(seed: int, n: int = 3000, *, ties: bool = False,
                weighted: bool = False, threshold: float = 0.5) -> bm.Evaluation:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.2
    s = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.2 * y - 1)))
    if ties:
        s = np.round(s, 2)
    w = rng.integers(1, 4, n) * 0.5 if weighted else None
    return bm.evaluate(y, s, sample_weight=w, threshold=threshold)


# --- the embedded numbers are binmetrics' --------------------------------------------------
@pytest.mark.parametrize("case", ["berrar", "continuous", "ties", "weighted"])
def test_slider_values_are_the_evaluations(case: str) -> None:
    if case == "berrar":
        ev = bm.evaluate(Y_BERRAR, S_BERRAR, threshold=0.55)
    else:
        ev = random_case(1, ties=case == "ties", weighted=case == "weighted", threshold=0.3)
    page = report(ev, thresholds=200)
    data = embedded(page)
    grid = [num(t) for t in data["grid"]["threshold"]]
    assert grid == sorted(grid) and len(grid) <= 200
    assert math.inf in grid and ev.threshold in grid and float(ev.table.scores[-1]) in grid
    assert set(data["confusion"]) == set(CONFUSION)  # every confusion measure of the registry
    model = data["models"][0]
    assert grid[model["own"]] == ev.threshold and data["grid"]["start"] == model["own"]
    rng = np.random.default_rng(0)
    positions = {0, len(grid) - 1, model["own"], *rng.integers(0, len(grid), 12).tolist()}
    for j in sorted(positions):
        at = ev.at_threshold(grid[j])
        for k, v in at.confusion.as_dict().items():
            assert model["counts"][k][j] == v, (j, k)
        for mid in CONFUSION:
            assert embedded_as(num(model["values"][mid][j]), at[mid]), (j, mid)


def test_table_values_and_metadata() -> None:
    ev = random_case(2)
    page = report(ev)
    for m in bm.iter_measures():
        value, text = cell(page, 0, m.id)
        assert same(value, ev[m.id]), m.id
        assert text == _fmt(ev[m.id])
        row = re.search(rf"<th scope='row' title='([^']*)'>[^<]*<code>{m.id}</code>", page)
        assert row is not None, m.id
        import html as h

        hover = h.unescape(row.group(1))
        assert m.source in hover and m.formula in hover  # source and formula on hover
    assert "Cohen" in page and "\u2193 lower" in page  # names and directions


def test_all_cut_points_when_few_and_budget_respected() -> None:
    ev = bm.evaluate(Y_BERRAR, S_BERRAR, threshold=0.55)
    grid = [num(t) for t in embedded(report(ev))["grid"]["threshold"]]
    assert grid == sorted([*S_BERRAR, 0.55, math.inf])
    big = random_case(3, n=20_000)
    for budget in (3, 10, 257):
        g = embedded(report(big, thresholds=budget))["grid"]["threshold"]
        assert len(g) <= budget
    with pytest.raises(ValueError, match="thresholds"):
        report(big, thresholds=2)


def test_several_models_with_own_thresholds_and_paired_table() -> None:
    rng = np.random.default_rng(4)
    n = 1500
    y = rng.random(n) < 0.3
    a = y + rng.normal(0, 0.8, n)
    b = y + rng.normal(0, 1.2, n)
    eva, evb = bm.evaluate(y, a, threshold=0.6), bm.evaluate(y, b, threshold=0.2)
    cmp = bm.compare(y, {"A": a, "B": b}, threshold=0.5, measures=["auc", "accuracy", "f1"],
                     n_resamples=200, random_state=0)
    page = report({"A": eva, "B": evb}, paired=cmp, thresholds=300)
    data = embedded(page)
    grid = [num(t) for t in data["grid"]["threshold"]]
    assert len(data["models"]) == 2 and 0.6 in grid and 0.2 in grid
    for i, ev in enumerate((eva, evb)):
        md = data["models"][i]
        assert grid[md["own"]] == ev.threshold
        for j in range(0, len(grid), 37):
            at = ev.at_threshold(grid[j])
            assert [md["counts"][k][j] for k in ("tp", "fp", "fn", "tn")] == \
                [at.confusion.tp, at.confusion.fp, at.confusion.fn, at.confusion.tn]
            assert embedded_as(num(md["values"]["mcc"][j]), at["mcc"])
        assert same(cell(page, i, "auc")[0], ev["auc"])
        assert list(md["charts"]) == [k for k in plot.kinds(ev) if plot.PLOT_KINDS[k].in_report]
        assert list(md["charts"])[:7] == ["roc", "threshold", "pr", "prg", "gain", "lift", "loss"]
        assert set(md["markers"]) == {"roc", "pr", "gain", "lift"}
    table = page[page.index("id='bm-paired'"):]
    for r in cmp.to_frame().itertuples():
        assert (f"<td>{r.model_a}</td><td>{r.model_b}</td><td>{r.measure}</td>"
                f"<td>{_fmt(r.value_a)}</td><td>{_fmt(r.value_b)}</td>"
                f"<td>{_fmt(r.estimate)}</td><td>[{_fmt(r.low)}, {_fmt(r.high)}]</td>"
                f"<td>{_fmt(r.pvalue, 4)}</td><td>{r.method}</td>") in table
    with pytest.raises(ValueError, match="no model 'B'"):
        report({"A": eva, "C": evb}, paired=cmp)
    with pytest.raises(TypeError, match=r"binmetrics\.compare"):
        report({"A": eva}, paired=cmp.to_frame())


def test_intervals() -> None:
    ev = random_case(5, n=800)
    opts: dict[str, Any] = {"n_resamples": 200, "random_state": 0}
    page = report(ev, ci=opts)
    table = ev.ci_table(**opts)
    for r in table.itertuples():
        if math.isnan(r.low):
            continue
        span = re.search(rf"id='bm-v-0-{r.id}'[^>]*>[^<]*</span><span class='ci' "
                         rf"title='([^']*) interval'[^>]*>\[([^,]*), ([^\]]*)\]", page)
        assert span is not None, r.id
        assert span.groups() == (r.method, _fmt(r.low), _fmt(r.high)), r.id
    with pytest.raises(TypeError, match="ci must be"):
        report(ev, ci="yes")  # type: ignore[arg-type]


def test_single_class_reports_undefined() -> None:
    one_class = bm.evaluate([0, 0, 0, 0], [0.1, 0.4, 0.35, 0.8])
    with pytest.warns(bm.UndefinedMeasureWarning):
        page = report(one_class)
    data = embedded(page)
    drawn = [k for k in plot.kinds(one_class) if plot.PLOT_KINDS[k].in_report]
    assert list(data["models"][0]["charts"]) == drawn
    assert drawn[:3] == ["gain", "loss", "reliability"]
    import html as h

    assert "roc chart: model 'model' is left out: it has no positives" in h.unescape(page)
    assert cell(page, 0, "auc")[1] == "undefined"
    assert "id='bm-notes'" in page and "no positives" in page


def test_report_writes_the_page_it_returns(tmp_path: Path) -> None:
    ev = bm.evaluate(Y_BERRAR, S_BERRAR)
    out = tmp_path / "r.html"
    page = bm.report(ev, out, title="T")
    assert out.read_text(encoding="utf-8") == page
    assert "<title>T</title>" in page


# --- the charts are plot's kinds ------------------------------------------------------------
def test_charts_follow_plot_kinds() -> None:
    """One list: the report draws the registered plot kinds it shows (in_report), in
    order, from plot.chart_data with each kind's report options (so a kind registered
    shows up here)."""
    ev = bm.evaluate(Y_BERRAR, S_BERRAR, threshold=0.55)
    data = embedded(report(ev))
    wanted = [k for k, pk in plot.PLOT_KINDS.items() if pk.in_report]
    assert [c["id"] for c in data["charts"]] == wanted
    assert "reliability" in wanted and "loss" in wanted
    # shown otherwise; case_losses: the loss chart shows the same hinge losses;
    # best_threshold: in the "Chosen thresholds" section, for each cut given
    assert set(plot.KINDS) - set(wanted) == {"measure", "confusion_matrix", "case_losses",
                                             "best_threshold"}
    for c in data["charts"]:
        options = plot.PLOT_KINDS[c["id"]].options_for_report([("model", ev)], 1000)
        cd = plot.chart_data(c["id"], {"model": ev}, **options)
        assert c["title"] == cd.title and c["xlabel"] == cd.xlabel
        assert [s[3] for s in c["shared"]] == [s.label for s in cd.series if s.shared]
        assert [s[3] for s in data["models"][0]["charts"][c["id"]]] == \
            [s.label for s in cd.series if not s.shared]



def measure_rows(page: str) -> dict[str, tuple[str | None, str]]:
    """Each measure row of the measures table: its data-chart (None without) and hover."""
    import html as h

    rows = re.findall(r"<tr data-family='[a-z]+'(?: data-chart='([a-z_]+)')?><th scope='row' "
                      r"title='([^']*)'>[^<]*<code>([^<]*)</code>", page)
    return {h.unescape(mid): (chart or None, h.unescape(hover)) for chart, hover, mid in rows}


def test_measures_table_names_each_measures_chart() -> None:
    """A measure whose registry entry names a plot kind (Measure.plot) names the chart of
    the page that shows it: data-chart on its row, "shown in" in its hover title."""
    from binmetrics.evaluation.notebook import measure_title

    ev = bm.evaluate(Y_BERRAR, S_BERRAR, threshold=0.55)
    page = report(ev)
    rows = measure_rows(page)
    assert list(rows) == [m.id for f in FAMILIES for m in bm.iter_measures(f)]
    in_page = {c["id"] for c in embedded(page)["charts"]} | {"measure"}
    for m in bm.iter_measures():
        chart, hover = rows[m.id]
        assert hover.startswith(measure_title(m)), m.id
        if m.plot is None:
            assert chart is None and "shown in" not in hover, m.id
        else:
            assert chart == m.plot and m.plot in in_page, m.id
            assert hover.endswith(f"\nshown in: {plot.PLOT_KINDS[m.plot].title}"), m.id
    assert rows["auc"][0] == "roc" and rows["auc"][1].endswith("\nshown in: ROC curve")
    assert rows["f1"][0] == "measure" and rows["ks"][0] == "threshold"
    assert rows["information_score"][0] is None


def test_measures_table_names_only_charts_in_the_page() -> None:
    """Scores that are not probabilities have no reliability diagram: the Brier score's
    row names no chart, the AUC's still the ROC curve."""
    rng = np.random.default_rng(4)
    y = (rng.random(200) < 0.4).astype(int)
    page = report(bm.evaluate(y, rng.normal(y - 0.5, 1.0), threshold=0.0))
    assert "reliability" not in {c["id"] for c in embedded(page)["charts"]}
    rows = measure_rows(page)
    assert rows["brier"][0] is None and "shown in" not in rows["brier"][1]
    assert rows["auc"][0] == "roc" and rows["hinge_loss"][0] == "loss"


def test_naming_the_charts_changes_nothing_else(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the data-chart attributes and the "shown in" lines, the page is the one
    written when no measure declares a plot kind."""
    import dataclasses

    from binmetrics.measures import registry

    def page() -> str:  # new evaluations: the same warnings, so the same notes
        return report({"A": bm.evaluate(Y_BERRAR, S_BERRAR, threshold=0.55),
                       "B": bm.evaluate(Y_BERRAR, [.9, .3, .6, .8, .4, .2, .7, .55, .1, .35])},
                      title="T")

    def without_calibration_rows(p: str) -> str:  # they are the measures the probability
        # charts show (their plot), so they go with the declarations, by design
        return re.sub(r"(<table id='bm-calibration-measures'.*?<tbody>).*?(</tbody>)", r"\1\2",
                      p, flags=re.S)

    named = page()
    stripped = re.sub(r"\nshown in: [^']*'", "'", re.sub(r" data-chart='[a-z_]+'", "", named))
    assert stripped != named
    for m in list(registry.REGISTRY.values()):
        monkeypatch.setitem(registry._REGISTRY, m.id, dataclasses.replace(m, plot=None))
    unnamed = page()
    assert "<table id='bm-calibration-measures'" in unnamed
    assert without_calibration_rows(unnamed) == without_calibration_rows(stripped)


def test_reliability_chart_and_its_note() -> None:
    from sklearn.calibration import calibration_curve

    rng = np.random.default_rng(9)
    y = (rng.random(400) < 0.3).astype(int)
    p = np.clip(rng.normal(0.3 + 0.3 * y, 0.2), 0, 1)
    margins = rng.normal(y - 0.5, 1.0)  # not probabilities
    page = report({"prob": bm.evaluate(y, p), "margin": bm.evaluate(y, margins, threshold=0)})
    data = embedded(page)
    assert "reliability" in data["models"][0]["charts"]
    assert "reliability" not in data["models"][1]["charts"]
    import html as h

    assert ("reliability chart: model 'margin' is left out: its scores range over"
            in h.unescape(page))
    observed, predicted = calibration_curve(y, p, n_bins=10)
    qx, qy = line(data["models"][0], "reliability", f"{predicted.size} bins")
    np.testing.assert_allclose(qx, predicted, atol=6e-7)  # axis [0, 1]: units are the data
    np.testing.assert_allclose(qy, observed, atol=6e-7)
    # the histogram: each non-empty bin's share of the cases, bins assigned as
    # calibration_curve does (closed on the right, the first with its left edge)
    edges = np.linspace(0, 1, 11)
    share = np.bincount(np.searchsorted(edges[1:-1], p, side="left"), minlength=10) / p.size
    hx, hy = line(data["models"][0], "reliability", "share of cases")
    full = np.flatnonzero(share)
    np.testing.assert_allclose(hx, np.repeat(np.column_stack([edges[full], edges[full + 1]]),
                                             2, axis=1).ravel(), atol=6e-7)
    np.testing.assert_allclose(hy.reshape(-1, 4)[:, 1], share[full], atol=6e-7)
    assert np.all(hy.reshape(-1, 4)[:, [0, 3]] == 0)
    only = embedded(report(bm.evaluate(y, margins)))  # no model fits: no chart
    assert "reliability" not in [c["id"] for c in only["charts"]]


def test_loss_chart() -> None:
    """Berrar Fig. 7: every case at its margin y (s - t) on the hinge and 0-1 losses; the
    means in the labels are the registry's (error_rate at the model's threshold)."""
    ev = bm.evaluate(Y_BERRAR, S_BERRAR, threshold=0.55)
    data = embedded(report(ev))
    c = spec(data, "loss")
    (lo, hi), (ylo, yhi) = c["x"], c["y"]
    md = data["models"][0]
    hinge = next(s for s in md["charts"]["loss"] if "hinge" in s[3])
    zero_one = next(s for s in md["charts"]["loss"] if "0-1" in s[3])
    assert hinge[3] == f"cases, mean hinge = {np.mean(np.maximum(0, 1 - margins())):.3f}"
    assert zero_one[3] == f"cases, mean 0-1 = {ev['error_rate']:.3f}" == "cases, mean 0-1 = 0.300"
    x = np.array(hinge[0]) * (hi - lo) + lo
    np.testing.assert_allclose(np.sort(x), np.sort(margins()), atol=1e-5)
    np.testing.assert_allclose(np.array(hinge[1]) * (yhi - ylo) + ylo,
                               np.maximum(0, 1 - x), atol=1e-5)
    np.testing.assert_array_equal(np.array(zero_one[1]) * (yhi - ylo) + ylo, (x < 0) * 1.0)


def margins() -> np.ndarray:
    return np.where(np.array(Y_BERRAR) == 1, 1, -1) * (np.array(S_BERRAR) - 0.55)


def test_confusion_matrix_rows_are_actual() -> None:
    """As plot.confusion_matrix and scikit-learn: rows actual, columns predicted."""
    from sklearn.metrics import confusion_matrix

    ev = bm.evaluate(Y_BERRAR, S_BERRAR, threshold=0.55)
    page = report(ev)
    table = page[page.index("<table class='cm' id='bm-cm-0'>"):]
    table = table[:table.index("</table>")]
    rows = re.findall(r"<tr><th scope='row'>([^<]*)</th>(.*?)</tr>", table)
    assert [r[0] for r in rows] == ["actual positive", "actual negative"]
    shown = [[float(v) for v in re.findall(r"data-value='([^']*)'", r[1])] for r in rows]
    sk = confusion_matrix(Y_BERRAR, np.array(S_BERRAR) >= 0.55, labels=[1, 0])
    assert shown == sk.tolist() == [[3, 2], [1, 4]]  # Berrar Fig. 3b
    assert table.index("predicted positive") < table.index("predicted negative")


def test_paired_threshold_differs_from_a_models() -> None:
    rng = np.random.default_rng(2)
    y = rng.random(300) < 0.4
    a, b = y + rng.normal(0, 1, 300), y + rng.normal(0, 1.5, 300)
    cmp = bm.compare(y, {"A": a, "B": b}, threshold=0.5, n_resamples=100, random_state=0)
    with pytest.warns(UserWarning, match=r"paired tests cut at threshold 0\.5.*'B' \(0\.2\)"):
        page = report({"A": bm.evaluate(y, a, threshold=0.5),
                       "B": bm.evaluate(y, b, threshold=0.2)}, paired=cmp)
    assert "id='bm-paired-note'" in page
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        page = report({"A": bm.evaluate(y, a), "B": bm.evaluate(y, b)}, paired=cmp)
    assert "bm-paired-note" not in page
    assert not any("paired tests cut" in str(w.message) for w in rec)


# --- size ----------------------------------------------------------------------------------
def many_models(k: int, n: int) -> dict[str, bm.Evaluation]:
    rng = np.random.default_rng(0)
    out = {}
    for i in range(k):
        y = rng.integers(0, 2, n)
        out[f"m{i}"] = bm.evaluate(y, rng.uniform(size=n) + 0.3 * y * i / k)
    return out


def test_size_bounded_with_many_models() -> None:
    """12 models x 20k distinct scores: under 5 MB (issue 6), the slider capped at
    MAX_SLIDER_VALUES / 12 positions, the embedded values binmetrics' to the digits shown."""
    from binmetrics.display.report import MAX_SLIDER_VALUES

    models = many_models(12, 20_000)
    page = report(models)
    assert len(page.encode("utf-8")) < 5_000_000
    data = embedded(page)
    grid = [num(t) for t in data["grid"]["threshold"]]
    assert len(grid) <= MAX_SLIDER_VALUES // 12 == 400
    assert "at most 4800 positions times models" in page
    rng = np.random.default_rng(1)
    for i, ev in enumerate(models.values()):
        md = data["models"][i]
        for j in rng.integers(0, len(grid), 4):
            at = ev.at_threshold(grid[j])
            for mid in CONFUSION:
                assert embedded_as(num(md["values"][mid][j]), at[mid]), (i, j, mid)
            for k, v in at.confusion.as_dict().items():
                assert _fmt(num(md["counts"][k][j]), 10) == _fmt(v, 10)


def test_rounding_keeps_the_display() -> None:
    """Values within 1e-10 of a 6-digit rounding boundary stay exact, so the 6 digits
    shown are those of the exact value."""
    from binmetrics.display.report_data import jsonable as _jsonable

    vals = [0.12345649999999, 0.1234565000001, 2 / 3, 1e-12 / 3, 123456789.123456, 7.0]
    got = _jsonable(vals, shown=6)
    for v, g in zip(vals, got, strict=True):
        assert _fmt(g) == _fmt(v) and (g == v or g == float(f"{v:.10g}"))
    # 0.1234565000001 rounds to 0.1234565, which shows as 0.123456: kept exact (0.123457)
    assert got[1] == vals[1] and _fmt(vals[1]) == "0.123457" and _fmt(0.1234565) == "0.123456"
    assert got[0] == 0.1234565 and got[2] == 0.6666666667 and got[5] == 7
    counts = _jsonable(np.array([0.0, 3.0, 10017.0]))
    assert counts == [0, 3, 10017] and all(isinstance(c, int) for c in counts)  # short JSON
    rng = np.random.default_rng(0)  # random values: the display never changes
    vals = (rng.random(20_000) * 10.0 ** rng.integers(-8, 8, 20_000)).tolist()
    assert [_fmt(g) for g in _jsonable(vals, shown=6)] == [_fmt(v) for v in vals]
    assert _jsonable([math.nan, math.inf, -math.inf]) == [None, "Infinity", "-Infinity"]


# --- self-contained ---------------------------------------------------------------------------
def test_self_contained() -> None:
    rng = np.random.default_rng(6)
    y = rng.random(500) < 0.4
    page = report({"m1": bm.evaluate(y, rng.random(500)), "<b>m2</b>": bm.evaluate(y, y * 0.3 +
                                                                                      rng.random(500))})
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page, re.I)
    assert "http://" not in page and "https://" not in page
    assert "<link" not in page and "@import" not in page and "url(http" not in page
    assert page.count("<script") == 2  # the data and the inline script, no src=
    assert "<b>m2</b>" not in page  # model names are escaped ...
    data = embedded(page)  # ... and the JSON survives the escaping
    assert data["models"][1]["name"] == "<b>m2</b>"


# --- thinning ---------------------------------------------------------------------------------
def brute_distance(px: np.ndarray, py: np.ndarray, qx: np.ndarray, qy: np.ndarray) -> np.ndarray:
    """Distance from each point p to the polyline q: minimum over all its segments."""
    ax, ay, bx, by = qx[:-1], qy[:-1], qx[1:], qy[1:]
    vx, vy = bx - ax, by - ay
    den = vx * vx + vy * vy
    out = np.full(px.size, np.inf)
    for s in range(0, px.size, 2000):
        wx, wy = px[s:s + 2000, None] - ax, py[s:s + 2000, None] - ay
        t = np.clip(np.divide(wx * vx + wy * vy, den, out=np.zeros_like(wx), where=den > 0), 0, 1)
        d = np.hypot(wx - t * vx, wy - t * vy).min(axis=1)
        out[s:s + 2000] = d
    return out


def curves(seed: int, n: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    steps = rng.random(n) < 0.3  # an ROC-like staircase
    roc = (np.cumsum(~steps) / (~steps).sum(), np.cumsum(steps) / steps.sum())
    k = np.arange(1, n + 1)
    pr = (np.cumsum(steps) / steps.sum(), np.cumsum(steps) / k)  # noisy at the start
    walk = (rng.normal(size=n).cumsum() / n ** 0.5, rng.normal(size=n).cumsum() / n ** 0.5)
    return {"roc": roc, "pr": pr, "walk": walk}


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("n,max_points", [(60, 100), (900, 120), (20_000, 100)])
def test_thinning_bound_holds(seed: int, n: int, max_points: int) -> None:
    for name, (x, y) in curves(seed, n).items():
        th = thin_curve(x, y, max_points=max_points)
        assert th.x.size <= max_points and th.index[0] == 0 and th.index[-1] == n - 1
        assert np.all(np.diff(th.index) > 0)
        assert np.allclose(th.x, x[th.index], atol=5e-7, rtol=0)
        # the exact curve: its points and points along its segments
        t = np.linspace(0, 1, 4)[1:-1, None]
        px = np.concatenate([x, (x[:-1] + t * np.diff(x)).ravel()])
        py = np.concatenate([y, (y[:-1] + t * np.diff(y)).ravel()])
        worst = brute_distance(px, py, th.x, th.y).max()
        assert worst <= th.error + 1e-12, name
        assert th.error <= th.bound, name
        length = np.hypot(np.diff(x), np.diff(y)).sum()
        if n > max_points:
            assert th.bound == pytest.approx(length / (max_points - 2) + 0.5 * 2 ** 0.5 * 1e-6)


@pytest.mark.parametrize("seed", [0, 1])
def test_arc_length_rule_guarantee(seed: int) -> None:
    for x, y in curves(seed, 5000).values():
        for budget in (10, 50, 400):
            idx, half_h = _arc_keep(x, y, budget)
            assert idx.size <= budget and idx[0] == 0 and idx[-1] == x.size - 1
            length = np.hypot(np.diff(x), np.diff(y)).sum()
            assert half_h == pytest.approx(length / (budget - 2))
            assert brute_distance(x, y, x[idx], y[idx]).max() <= half_h


def test_thin_curve_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="finite"):
        thin_curve([0, np.nan], [0, 1])
    with pytest.raises(ValueError, match="max_points"):
        thin_curve([0, 1], [0, 1], max_points=5)
    with pytest.raises(ValueError, match="equal length"):
        thin_curve([0, 1], [0, 1, 2])


def line(md: dict[str, Any], chart: str, label: str) -> tuple[np.ndarray, np.ndarray]:
    """The drawn line of a model whose label starts with ``label`` (None -> NaN)."""
    (found,) = [s for s in md["charts"][chart] if s[3].startswith(label) and s[2] != "points"]
    return (np.array([np.nan if v is None else v for v in found[0]]),
            np.array([np.nan if v is None else v for v in found[1]]))


def spec(data: dict[str, Any], chart: str) -> dict[str, Any]:
    (found,) = [c for c in data["charts"] if c["id"] == chart]
    return found


def test_report_curves_within_the_footer_bound() -> None:
    ev = random_case(7, n=6000)
    page = report(ev, max_points=60)
    data = embedded(page)
    md = data["models"][0]
    found = re.search(r"id='bm-eps'>\u03b5 = ([0-9.e+-]+)<", page)
    assert found is not None
    eps = float(found.group(1))
    assert 0 < eps < 0.05
    roc = ev.roc()
    qx, qy = line(md, "roc", "ROC")
    assert qx.size <= 60
    assert brute_distance(roc.fpr, roc.tpr, qx, qy).max() <= eps * 1.01  # printed to 3 digits
    # the exact step functions, vertical jumps included, are within eps of the drawn lines
    pr = ev.pr()
    px, py = plot.step_vertices(np.r_[0, pr.recall], np.r_[pr.precision[0], pr.precision],
                                "pre")
    qx, qy = line(md, "pr", "AP")
    assert brute_distance(px, py, qx, qy).max() <= eps * 1.01
    tc = ev.threshold_curves()
    lo, hi = spec(data, "threshold")["x"]
    x = (chart_data.threshold_axis(tc.thresholds) - lo) / (hi - lo)
    for name, rate in (("TPR", tc.tpr), ("FPR", tc.fpr)):
        sx, sy = plot.step_vertices(x, rate, "post")
        t = np.linspace(0, 1, 3)[:, None]  # along each segment of the steps
        px = (sx[:-1] + t * np.diff(sx)).ravel()
        py = (sy[:-1] + t * np.diff(sy)).ravel()
        qx, qy = line(md, "threshold", name)
        assert brute_distance(px, py, qx, qy).max() <= eps * 1.01, name


def drawn_at(xs: np.ndarray, ys: np.ndarray, x: float) -> set[float]:
    """The heights of the drawn polyline above x (several on a vertical segment)."""
    out = set()
    for x0, y0, x1, y1 in zip(xs[:-1], ys[:-1], xs[1:], ys[1:], strict=True):
        if min(x0, x1) <= x <= max(x0, x1):
            out.add(round(float(y0 if x0 == x1 else y0 + (y1 - y0) * (x - x0) / (x1 - x0)), 9))
    return out


def test_threshold_chart_is_a_step_function() -> None:
    """Berrar Fig. 5b: at t = 0.55 the TPR is 0.6 (three of five positives score >= 0.55)
    and the FPR 0.2; the drawn lines are the steps, not diagonals between the scores."""
    ev = bm.evaluate(Y_BERRAR, S_BERRAR, threshold=0.55)
    data = embedded(report(ev))
    lo, hi = spec(data, "threshold")["x"]
    md = data["models"][0]
    for t in (0.55, 0.7, 0.35, 0.15, 0.9):
        u = (t - lo) / (hi - lo)
        at = ev.at_threshold(t)
        assert drawn_at(*line(md, "threshold", "TPR"), u) == {round(at["tpr"], 9)}, t
        assert drawn_at(*line(md, "threshold", "FPR"), u) == {round(at["fpr"], 9)}, t
    # a random case with ties, thinned: the exact step value at random thresholds
    ev = random_case(3, n=4000, ties=True)
    page = report(ev, max_points=50)
    data = embedded(page)
    eps = float(re.search(r"id='bm-eps'>\u03b5 = ([0-9.e+-]+)<", page).group(1))
    lo, hi = spec(data, "threshold")["x"]
    qx, qy = line(data["models"][0], "threshold", "TPR")
    ts = np.random.default_rng(0).uniform(lo, float(ev.table.scores[0]), 200)
    tpr = np.array([ev.at_threshold(t)["tpr"] for t in ts])
    assert brute_distance((ts - lo) / (hi - lo), tpr, qx, qy).max() <= eps * 1.01


def test_pr_chart_is_the_ap_step_line() -> None:
    """The PR chart draws the AP step (Berrar Def. 32; Davis & Goadrich): the area under
    the drawn line is the average precision (scikit-learn), not the linear interpolation."""
    from sklearn.metrics import average_precision_score

    for y, s in ((Y_BERRAR, S_BERRAR), random_arrays(4, 500)):
        ev = bm.evaluate(y, s)
        md = embedded(report(ev))["models"][0]
        qx, qy = line(md, "pr", "AP (step)")
        assert np.trapezoid(qy, qx) == pytest.approx(average_precision_score(y, s), abs=2e-6)
        x, yy = plot.step_vertices(*chart_data.pr_line(ev, "step"), "pre")
        np.testing.assert_allclose(qx, x, atol=6e-7)
        np.testing.assert_allclose(qy, yy, atol=6e-7)


def random_arrays(seed: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    return y, np.round(rng.normal(y * 0.8, 1.0), 1)  # ties


# --- writing and errors -------------------------------------------------------------------------
def test_bad_paths_fail_before_any_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ev = bm.evaluate(Y_BERRAR, S_BERRAR)
    rep = importlib.import_module("binmetrics.display.report")  # the module, even once bm.report is
    # the function

    def boom(*a: Any, **k: Any) -> None:
        raise AssertionError("work started before the path was checked")

    monkeypatch.setattr(rep, "_grid", boom)
    with pytest.raises(ValueError, match="does not exist"):
        report(ev, tmp_path / "missing" / "r.html")
    with pytest.raises(ValueError, match="is a directory"):
        report(ev, tmp_path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root writes into read-only folders")
def test_read_only_folder(tmp_path: Path) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        with pytest.raises(ValueError, match="cannot write"):
            report(bm.evaluate(Y_BERRAR, S_BERRAR), ro / "r.html")
    finally:
        ro.chmod(0o700)


def test_atomic_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ev = bm.evaluate(Y_BERRAR, S_BERRAR)
    out = tmp_path / "r.html"
    out.write_text("old report", encoding="utf-8")
    real_replace = os.replace

    def failing(src: Any, dst: Any) -> None:
        assert Path(src).parent == tmp_path  # the temporary file is in the same folder
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises(OSError, match="No space left"):
        report(ev, out)
    assert out.read_text(encoding="utf-8") == "old report"  # untouched
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]  # no temporary file left
    monkeypatch.setattr(os, "replace", real_replace)
    page = report(ev, out)
    assert out.read_text(encoding="utf-8") == page
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]


def test_bad_arguments() -> None:
    ev = bm.evaluate(Y_BERRAR, S_BERRAR)
    with pytest.raises(TypeError, match="mapping name -> Evaluation"):
        report([ev])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="empty"):
        report({})
    with pytest.raises(TypeError, match=r"models\['A'\] must be an Evaluation"):
        report({"A": ev.to_dict()})
    with pytest.raises(TypeError, match="non-empty strings"):
        report({1: ev})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="max_points"):
        report(ev, max_points=3)


# --- the command line ------------------------------------------------------------------------
@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Any:
    """binmetrics.cli.app.main with the report command (registered here if cli.py lacks it)."""
    original = cli.build_parser

    def build() -> argparse.ArgumentParser:
        parser = original()
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        if "report" not in sub.choices:
            add_report_parser(sub)
        return parser

    monkeypatch.setattr(cli, "build_parser", build)

    def call(*argv: str) -> tuple[int, str, str]:
        code = cli.main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    return call


@pytest.fixture
def wide(tmp_path: Path) -> tuple[Path, pd.DataFrame]:
    rng = np.random.default_rng(8)
    n = 1200
    y = (rng.random(n) < 0.25).astype(int)
    df = pd.DataFrame({"y": y, "p1": 1 / (1 + np.exp(-(rng.normal(size=n) + 1.5 * y - 1))),
                       "p2": 1 / (1 + np.exp(-(rng.normal(size=n) + 0.7 * y - 1)))})
    path = tmp_path / "wide.csv"
    df.to_csv(path, index=False)
    return path, read_csv(path)  # as the CLI reads it


def test_cli_wide_with_paired_tests(run: Any, wide: tuple[Path, pd.DataFrame],
                                    tmp_path: Path) -> None:
    path, df = wide
    out = tmp_path / "out.html"
    code, stdout, err = run("report", path, "--label", "y", "--score", "p1,p2",
                            "--threshold", "0.4", "-o", out)
    assert code == 0, err
    assert f"wrote {out}" in stdout
    page = out.read_text(encoding="utf-8")
    data = embedded(page)
    assert [m["name"] for m in data["models"]] == ["p1", "p2"]
    for i, col in enumerate(("p1", "p2")):
        ev = bm.evaluate(df.y, df[col], threshold=0.4)
        for mid in ("auc", "brier", "mcc", "f1"):
            assert same(cell(page, i, mid)[0], ev[mid]), mid
    cmp = bm.compare(df.y, {"p1": df.p1, "p2": df.p2}, threshold=0.4)
    r = cmp.result("p1", "p2", "auc")
    assert f"<td>{_fmt(r.pvalue, 4)}</td><td>delong</td>" in page
    r = cmp.result("p1", "p2", "accuracy")
    assert f"<td>{_fmt(r.pvalue, 4)}</td><td>mcnemar-exact</td>" in page


def test_cli_long_format(run: Any, wide: tuple[Path, pd.DataFrame], tmp_path: Path) -> None:
    _, df = wide
    long = pd.concat([df.assign(model="lr", p=df.p1)[["y", "p", "model"]].iloc[:700],
                      df.assign(model="rf", p=df.p2)[["y", "p", "model"]].iloc[300:]])
    path = tmp_path / "long.parquet"
    long.to_parquet(path)
    out = tmp_path / "long.html"
    code, _, err = run("report", path, "--label", "y", "--score", "p", "--model-col", "model",
                       "-o", out, "--title", "by model")
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    assert "<title>by model</title>" in page and "id='bm-paired'" not in page
    for i, name in enumerate(("lr", "rf")):
        part = long[long.model == name]
        ev = bm.evaluate(part.y, part.p)
        assert embedded(page)["models"][i]["name"] == name
        assert same(cell(page, i, "auc")[0], ev["auc"])
        assert same(cell(page, i, "accuracy")[0], ev["accuracy"])


def test_cli_errors_write_nothing(run: Any, wide: tuple[Path, pd.DataFrame],
                                  tmp_path: Path) -> None:
    path, df = wide
    out = tmp_path / "x.html"
    one = tmp_path / "one.csv"
    df.assign(model="lr").to_csv(one, index=False)
    cases = [
        (("report", one, "--label", "y", "--score", "p1", "--model-col", "model", "-o", out),
         r"holds a single model \('lr'\)"),
        (("report", path, "--label", "y", "--score", "p3", "-o", out),
         "column .p3. not found in .*available columns: y, p1, p2"),
        (("report", path, "--label", "y", "--score", "p1,p2", "--model-col", "y2", "-o", out),
         "--model-col takes one --score"),
        (("report", path, "--label", "y", "--score", "p1,p1", "-o", out), "twice"),
        (("report", tmp_path / "no_such.csv", "--label", "y", "--score", "p", "-o",
          tmp_path / "nodir" / "x.html"), "cannot write .*nodir.* does not exist"),
        (("report", path, "--label", "y", "--score", "p1", "-o", tmp_path),
         "is a directory"),
        (("report", "--label", "y", "--score", "p1", "-o", out), "give a FILE or --example"),
        (("report", path, "--label", "y", "--score", "p1", "--pos-label", "x", "-o", out),
         "--pos-label"),
    ]
    for argv, message in cases:
        code, stdout, err = run(*argv)
        assert code == 2, argv
        assert re.search(message, err), (message, err)
        assert err.startswith("binmetrics: error:") or "\nbinmetrics: error:" in err
        assert not out.exists() and stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.csv", "wide.csv"]


def test_cli_non_integer_weights_use_mcnemar_chi2(run: Any, wide: tuple[Path, pd.DataFrame],
                                                   tmp_path: Path) -> None:
    """Non-integer weights: McNemar's exact test does not apply; the report takes the
    chi-square test by itself and says so (the CLI has no mcnemar= or method=)."""
    _, df = wide
    w = np.random.default_rng(3).uniform(0.5, 3.0, len(df)).round(2)
    weighted = tmp_path / "weighted.csv"
    df.assign(wf=w, wi=np.ceil(w)).to_csv(weighted, index=False)
    out = tmp_path / "w.html"
    code, _, err = run("report", weighted, "--label", "y", "--score", "p1,p2", "--weight", "wf",
                       "-o", out)
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    cmp = bm.compare(df.y, {"p1": df.p1, "p2": df.p2}, sample_weight=w, mcnemar="chi2")
    r = cmp.result("p1", "p2", "accuracy")
    assert r.method == "mcnemar-chi2"
    assert f"<td>{_fmt(r.pvalue, 4)}</td><td>mcnemar-chi2</td>" in page
    assert "are not whole numbers, so McNemar&#x27;s exact test does not apply" in page
    # whole-number weights keep the exact test, without the note
    code, _, err = run("report", weighted, "--label", "y", "--score", "p1,p2", "--weight", "wi",
                       "-o", out)
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    assert "<td>mcnemar-exact</td>" in page and "not whole numbers" not in page
    # asking for the exact test: an error in the CLI's terms
    code, _, err = run("report", weighted, "--label", "y", "--score", "p1,p2", "--weight", "wf",
                       "--mcnemar", "exact", "-o", tmp_path / "x.html")
    assert code == 2 and "--mcnemar chi2" in err and "mcnemar=" not in err
    assert "method=" not in err and not (tmp_path / "x.html").exists()


def test_kind_lists_are_not_hand_written() -> None:
    from binmetrics.cli import report as cli_report
    from binmetrics.evaluation import binary as evaluation

    for text in (cli_report.REPORT_EPILOG, evaluation.Evaluation.plot.__doc__ or "",
                 importlib.import_module("binmetrics.display.report").__doc__ or ""):
        assert "plot.kinds()" in text
        assert "gain, lift" not in text and "prg, gain" not in text  # no hand-written list


def test_cli_example_ci_and_help(run: Any, tmp_path: Path) -> None:
    out = tmp_path / "b.html"
    code, _, err = run("report", "--example", "berrar", "--threshold", "0.55", "--ci",
                       "--resamples", "200", "--seed", "1", "-o", out)
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    ev = bm.evaluate(Y_BERRAR, S_BERRAR, threshold=0.55)
    lo, hi = bm.proportion_ci(3, 5)  # TPR 3/5, Clopper-Pearson
    assert f"title='clopper-pearson interval'>[{_fmt(lo)}, {_fmt(hi)}]" in page
    assert same(cell(page, 0, "mcc")[0], ev["mcc"])
    code, stdout, _ = run("report", "--help")
    assert code == 0 and "examples:" in stdout and "--model-col" in stdout


# --- the calibration section ----------------------------------------------------------------
def calibration_rows(page: str) -> dict[str, list[tuple[float, str | None]]]:
    """Each row of the calibration table: (value, interval text or None) per model."""
    body = re.search(r"<table id='bm-calibration-measures'.*?<tbody>(.*?)</tbody>", page, re.S)
    assert body is not None
    out = {}
    for mid, cells in re.findall(r"<tr data-measure='([a-z_0-9]+)'[^>]*>(.*?)</tr>",
                                 body.group(1), re.S):
        out[mid] = [(float(v), ci or None) for v, ci in re.findall(
            r"<td class='v'><span data-value='([^']*)'[^>]*>[^<]*</span>"
            r"(?:<span class='ci'[^>]*>([^<]*)</span>)?</td>", cells)]
    return out


def test_calibration_section() -> None:
    """For the models with probabilities: the charts of the kinds that need them (drawn in
    the section), the measures those charts show with their values and intervals; the
    others named in a note. The decision curve's net benefit is TP/n - FP/n t/(1 - t),
    counted here from the rows."""
    rng = np.random.default_rng(21)
    n = 500
    y = (rng.random(n) < 0.3).astype(int)
    p = np.round(np.clip(rng.normal(0.3 + 0.3 * y, 0.2), 0, 1), 2)
    q = np.round(np.clip(p + rng.normal(0, 0.1, n), 0, 1), 2)
    margins = rng.normal(y - 0.5, 1.0)
    evs = {"p": bm.evaluate(y, p), "margin": bm.evaluate(y, margins, threshold=0),
           "q": bm.evaluate(y, q)}
    opts: dict[str, Any] = {"n_resamples": 100, "random_state": 3}
    page = report(evs, ci=opts)
    import html as h

    assert "id='bm-calibration'" in page
    assert "Left out (scores are not probabilities in [0, 1], so they cannot be read as " \
           "risks): 'margin'." in h.unescape(page)
    data = embedded(page)
    prob_kinds = {k for k, pk in plot.PLOT_KINDS.items() if pk.needs_probabilities}
    assert {"reliability", "decision_curve"} <= prob_kinds
    for c in data["charts"]:
        assert c["section"] == ("calibration" if c["id"] in prob_kinds else "charts"), c["id"]
    # the table: the measures whose chart needs probabilities, a column per such model
    rows = calibration_rows(page)
    wanted = [m.id for m in bm.iter_measures() if m.plot in prob_kinds]
    assert list(rows) == wanted and "ece" in wanted and "net_benefit" in wanted
    for col, name in enumerate(("p", "q")):
        table = evs[name].ci_table(**opts).set_index("id")
        for mid in wanted:
            value, ci = rows[mid][col]
            assert same(value, evs[name][mid]), (name, mid)
            lo, hi = table.loc[mid, ["low", "high"]]
            if math.isnan(lo) and math.isnan(hi):
                assert ci is None, mid
            else:
                assert ci == f"[{_fmt(lo)}, {_fmt(hi)}]", (name, mid)
    assert all(len(cells) == 2 for cells in rows.values())
    # the decision curve of each model, in axis units of the chart
    c = spec(data, "decision_curve")
    (x0, x1), (y0, y1) = c["x"], c["y"]
    th = np.arange(1, 100) / 100  # the default thresholds, exactly k / 100
    for i, score in ((0, p), (2, q)):
        xs, ys = line(data["models"][i], "decision_curve", "net benefit")
        tp = np.array([np.sum((score >= t) & (y == 1)) for t in th])
        fp = np.array([np.sum((score >= t) & (y == 0)) for t in th])
        nb = tp / n - fp / n * th / (1 - th)
        np.testing.assert_allclose(xs * (x1 - x0) + x0, th, atol=1e-6)
        np.testing.assert_allclose(ys * (y1 - y0) + y0, nb, atol=1e-6 * (y1 - y0))
    assert "decision_curve" not in data["models"][1]["charts"]
    treat_all = [s for s in c["shared"] if s[3].startswith("treat all")]
    assert len(treat_all) == 1  # same cases: one treat-all line
    np.testing.assert_allclose(np.array(treat_all[0][1]) * (y1 - y0) + y0,
                               y.mean() - (1 - y.mean()) * th / (1 - th), atol=1e-6 * (y1 - y0))


def test_calibration_section_without_probabilities_or_intervals() -> None:
    rng = np.random.default_rng(4)
    y = (rng.random(200) < 0.4).astype(int)
    page = report(bm.evaluate(y, rng.normal(y - 0.5, 1.0), threshold=0.0))
    import html as h

    assert "Left out (scores are not probabilities in [0, 1], so they cannot be read as " \
           "risks): 'model'." in h.unescape(page)
    assert "id='bm-calibration-measures'" not in page and "id='bm-calibration-charts'" not in page
    assert not {"reliability", "decision_curve"} & {c["id"] for c in embedded(page)["charts"]}
    page = report(bm.evaluate(Y_BERRAR, S_BERRAR))  # no ci: values, and how to get intervals
    rows = calibration_rows(page)
    assert rows and all(ci is None for cells in rows.values() for _, ci in cells)
    assert "binmetrics report --ci</code> (bootstrap)" in page


# --- the ROC band and the partial-AUC region (pROC's ci.se and partial.auc) --------------
DRAWN = 5.1e-7  # drawn coordinates have 6 decimals


def roc_series(data: dict[str, Any], model: int, style: str) -> list[Any]:
    found = [s for s in data["models"][model]["charts"]["roc"] if s[2] == style]
    assert len(found) == 1, style
    return found[0]


def test_roc_band_and_partial_auc_region() -> None:
    ev = bm.evaluate(Y_BERRAR, S_BERRAR)
    other = bm.evaluate(Y_BERRAR, S_BERRAR[::-1])
    page = report({"a": ev, "b": other}, roc_band={"n_resamples": 200, "random_state": 0},
                  partial_auc={"fpr": (0, .3)})
    data = embedded(page)
    roc = next(c for c in data["charts"] if c["id"] == "roc")
    assert roc["x"] == [0, 1] and roc["y"] == [0, 1]  # axis units are rates
    for i, e in enumerate((ev, other)):
        band = e.roc().ci_band(fpr=np.linspace(0, 1, 101), n_resamples=200, random_state=0)
        xs, ys, _, label, _ = roc_series(data, i, "band")
        np.testing.assert_allclose(xs, np.r_[band.at, band.at[::-1]], atol=DRAWN)
        np.testing.assert_allclose(ys, np.r_[band.high, band.low[::-1]], atol=DRAWN)
        assert label.startswith("95% band of the TPR") and "200 resamples" in label
        series = data["models"][i]["charts"]["roc"]
        assert [s[2] for s in series][:2] == ["band", "area"]  # beneath the curves
    # Berrar's curve between FPR 0 and 0.3: vertices (0, 0) .. (0.2, 0.8), then (0.3, 0.8)
    xs, ys, _, label, _ = roc_series(data, 0, "area")
    assert list(zip(xs, ys, strict=True)) == [
        (0, 0), (0, 0), (0, .2), (0, .4), (.2, .4), (.2, .6), (.2, .8), (.3, .8), (.3, 0)]
    area = ev.roc().partial_area(fpr=(0, .3))
    assert area == pytest.approx(0.16) and label == "partial AUC, FPR 0 to 0.3 = 0.16"
    assert "pointwise bootstrap intervals of the TPR" in page
    # the sensitivity focus: the region right of the curve for TPR in [0.5, 0.9]
    data = embedded(report(ev, partial_auc={"tpr": (.5, .9)}))
    xs, ys, _, label, _ = roc_series(data, 0, "area")
    assert (xs[0], ys[0], xs[-1], ys[-1]) == (1, .5, 1, .9)
    assert list(zip(xs[1:-1], ys[1:-1], strict=True)) == [
        (.2, .5), (.2, .6), (.2, .8), (.4, .8), (.6, .8), (.6, .9)]
    assert label == (f"partial AUC, TPR 0.5 to 0.9 = "
                     f"{ev.roc().partial_area(tpr=(.5, .9)):.4g}")
    assert [s[2] for s in data["models"][0]["charts"]["roc"]].count("band") == 0


def test_roc_extras_bad_arguments() -> None:
    ev = bm.evaluate(Y_BERRAR, S_BERRAR)
    with pytest.raises(TypeError, match="one key, fpr or tpr"):
        report(ev, partial_auc=(0, .2))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="one key, fpr or tpr"):
        report(ev, partial_auc={"fpr": (0, .2), "tpr": (.8, 1)})
    with pytest.raises(ValueError, match="low < high"):
        report(ev, partial_auc={"fpr": (.3, .2)})
    with pytest.raises(TypeError, match="roc_band must be"):
        report(ev, roc_band="yes")  # type: ignore[arg-type]


def test_cli_roc_band_and_partial(run: Any, wide: tuple[Path, pd.DataFrame],
                                  tmp_path: Path) -> None:
    path, df = wide
    out = tmp_path / "band.html"
    code, _, err = run("report", path, "--label", "y", "--score", "p1", "--roc-band",
                       "--resamples", "50", "--seed", "3", "--ci-level", "0.9",
                       "--partial-tpr", "0.9,1", "-o", out)
    assert code == 0, err
    data = embedded(out.read_text(encoding="utf-8"))
    band = bm.evaluate(df.y, df.p1).roc().ci_band(fpr=np.linspace(0, 1, 101), n_resamples=50,
                                                  random_state=3, level=0.9)
    _, ys, _, label, _ = roc_series(data, 0, "band")
    np.testing.assert_allclose(ys, np.r_[band.high, band.low[::-1]], atol=DRAWN)
    assert label.startswith("90% band")
    assert roc_series(data, 0, "area")[3].startswith("partial AUC, TPR 0.9 to 1 = ")
    for argv, message in ((("--partial-fpr", "0,.2", "--partial-tpr", ".8,1"), "not both"),
                          (("--partial-fpr", ".5,.2"), "0 <= A < B <= 1"),
                          (("--partial-tpr", "x"), "takes a range A,B")):
        code, _, err = run("report", path, "--label", "y", "--score", "p1", "-o",
                           tmp_path / "no.html", *argv)
        assert code == 2 and message in err, err
        assert not (tmp_path / "no.html").exists()
