"""One drawing path: every registered plot kind draws its chart data, the chart data is the
curve objects' own numbers (their ``to_frame()``), every curve class draws itself with
the same renderer, and a kind registered from outside is drawn by ``ev.plot``,
``bm.plot.draw`` and the HTML report alike.

Independent references: the curves' ``to_frame()`` tables, matplotlib's own step
expansion (``STEP_LOOKUP_MAP``), direct numpy sums for the custom kind.
"""

from __future__ import annotations

import json
import re
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import matplotlib
import numpy as np
import pytest

import binmetrics as bm
from binmetrics import curves, plot
from binmetrics.chart import ChartData, Drawable, Series, combine, render, series
from binmetrics.display.report import report

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.cbook import STEP_LOOKUP_MAP

pytestmark = pytest.mark.filterwarnings("error")

rng = np.random.default_rng(26)
Y = rng.integers(0, 2, 60)
P = np.round(np.clip(rng.normal(0.35 + 0.3 * Y, 0.2), 0.01, 0.99), 2)


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    yield
    plt.close("all")


@pytest.fixture
def ev() -> bm.Evaluation:
    return bm.evaluate(Y, P, threshold=0.5)


def drawn_vertices(line: Any) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(line.get_xdata(), float)
    y = np.asarray(line.get_ydata(), float)
    style = line.get_drawstyle()
    return (x, y) if style == "default" else tuple(STEP_LOOKUP_MAP[style](x, y))


def agrees_with_frame(s: Series) -> int:
    """Check a series against its curve's to_frame(): the rows both hold (aligned at the
    end: a PR line starts at recall 0, a PRG line from recall gain 0), where the frame is
    finite; returns how many values were compared."""
    assert s.source is not None
    curve, xc, yc = s.source
    frame = curve.to_frame()
    fx, fy = frame[xc].to_numpy(float), frame[yc].to_numpy(float)
    px, py = s.points
    k = min(px.size, fx.size)
    assert k >= 2, s.label
    fx, fy, px, py = fx[-k:], fy[-k:], px[-k:], py[-k:]
    ok = np.isfinite(fx) & np.isfinite(fy)
    np.testing.assert_array_equal(px[ok], fx[ok], err_msg=s.label)
    np.testing.assert_array_equal(py[ok], fy[ok], err_msg=s.label)
    return int(ok.sum())


# --- every registered kind --------------------------------------------------------------------
@pytest.mark.parametrize("kind", plot.kinds())
def test_every_registered_kind_draws_its_chart_data(kind: str, ev: bm.Evaluation) -> None:
    """ev.plot(kind) draws exactly chart_data(kind): each model line is on the Axes with
    its vertices, each scatter with its points; the series taken from a curve hold that
    curve's to_frame() numbers."""
    cd = plot.chart_data(kind, ev)
    ax = ev.plot(kind)
    ax.figure.canvas.draw()
    assert isinstance(cd, ChartData) and cd.kind == kind and ax.get_title() == cd.title
    lines = {ln.get_label(): ln for ln in ax.lines}
    scatters = {c.get_label(): c for c in ax.collections}
    for s in cd.series:
        if not s.label or not s.legend:
            continue
        if s.style == "points":
            np.testing.assert_array_equal(scatters[s.label].get_offsets(),
                                          np.column_stack(s.points))
        elif s.style not in ("bars", "band", "vline"):
            dx, dy = drawn_vertices(lines[s.label])
            np.testing.assert_array_equal(dx, s.x, err_msg=s.label)
            np.testing.assert_array_equal(dy, s.y, err_msg=s.label)
    compared = sum(agrees_with_frame(s) for s in cd.series if s.source is not None)
    if kind in {"roc", "threshold", "pr", "prg", "gain", "lift", "reliability",
                "decision_curve"}:  # the kinds drawn from a curve object
        assert compared > 0, kind
    if cd.heatmap is not None:  # the confusion matrix: its cells are the evaluation's
        c = ev.confusion
        assert [t.get_text().split("\n")[0] for t in ax.texts] == [
            str(v) for v in (c.tp, c.fn, c.fp, c.tn)]


def quiet_report(models: Any) -> dict[str, Any]:
    """The data the report embeds (its measures table's caveats silenced)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", bm.MeasureCaveatWarning)
        page = report(models)
    found = re.search(r'<script type="application/json" id="bm-data">(.*?)</script>', page,
                      re.S)
    assert found is not None
    return dict(json.loads(found.group(1)))


def test_chart_data_is_what_the_report_embeds(ev: bm.Evaluation) -> None:
    data = quiet_report({"m": ev})
    charts = {c["id"]: c for c in data["charts"]}
    assert list(charts) == [k for k in plot.kinds(ev) if plot.PLOT_KINDS[k].in_report]
    for kind, spec in charts.items():
        cd = plot.chart_data(kind, {"m": ev},
                             **plot.PLOT_KINDS[kind].options_for_report([("m", ev)], 1000))
        own = [s for s in cd.series if not s.shared]
        embedded = data["models"][0]["charts"][kind]
        assert [e[3] for e in embedded] == [s.label for s in own]
        (x0, x1), (y0, y1) = spec["x"], spec["y"]
        for e, s in zip(embedded, own, strict=True):
            if s.x.size <= 1000 and s.style != "bars":  # not thinned: the same points
                xs, ys = (np.array([np.nan if v is None else v for v in e[i]], float)
                          for i in (0, 1))
                ok = np.isfinite(s.x) & np.isfinite(s.y)
                np.testing.assert_allclose(xs[ok] * (x1 - x0) + x0, s.x[ok],
                                           atol=2e-6 * (x1 - x0))
                np.testing.assert_allclose(ys[ok] * (y1 - y0) + y0, s.y[ok],
                                           atol=2e-6 * (y1 - y0))


# --- every curve --------------------------------------------------------------------------------
#: result classes of binmetrics.curves that are not curves (no chart of their own)
NOT_CURVES = {"BrierDecomposition", "CalibrationTest", "ROCCoords"}


def every_curve(ev: bm.Evaluation) -> dict[type, Any]:
    roc = ev.roc()
    objs = [roc, roc.hull(), ev.pr(), ev.prg(), ev.threshold_curves(), ev.gain(), ev.lift(),
            ev.accumulation(), ev.det(), ev.reliability(), ev.decision_curve(),
            ev.cost_curve(), roc.smooth(), roc.smooth("density"),
            roc.ci_band(fpr=np.linspace(0, 1, 11), n_resamples=30, random_state=0),
            ev.pr().ci_band(recall=np.linspace(0, 1, 11), n_resamples=30, random_state=0)]
    return {type(o): o for o in objs}


def test_every_curve_class_has_frame_plot_and_html(ev: bm.Evaluation) -> None:
    made = every_curve(ev)
    exported = {getattr(curves, n) for n in curves.__all__ if n not in NOT_CURVES}
    assert exported == set(made)  # a new curve class is listed here, or fails
    for cls, obj in made.items():
        assert isinstance(obj, Drawable), cls.__name__
        frame = obj.to_frame()
        assert len(frame) > 0 and "<table" in obj._repr_html_(), cls.__name__
        cd = obj.chart()
        assert cd.series and cd.xlabel and cd.ylabel, cls.__name__
        ax = obj.plot()
        assert ax.get_xlabel() == cd.xlabel and ax.get_title() == cd.title, cls.__name__
        if cls not in (curves.DETCurve, curves.ROCBand, curves.PRBand):  # probits; regions
            assert any(s.source is not None for s in cd.series), cls.__name__
        for s in cd.series:
            if s.source is not None:
                assert s.source[0].to_frame().shape[0] > 0
                agrees_with_frame(s)
        _, given = plt.subplots()
        assert obj.plot(ax=given) is given
        plt.close("all")


def test_curve_plot_options_and_line_properties(ev: bm.Evaluation) -> None:
    roc = ev.roc()
    ax = roc.plot(hull=False, color="k", linewidth=3)
    (curve,) = [ln for ln in ax.lines if ln.get_label().startswith("ROC")]
    assert curve.get_color() == "k" and curve.get_linewidth() == 3
    assert not [ln for ln in ax.lines if "hull" in ln.get_label()]
    (diag,) = [ln for ln in ax.lines if ln.get_label() == "random"]
    assert diag.get_color() == "red"  # a baseline keeps its colour
    rel = ev.reliability(n_bins=4)
    ax = rel.plot(intervals=True, counts=False)
    assert not ax.texts and any("Wilson" in ln.get_label() for ln in ax.lines)
    # the reliability diagram of the curve and of the plot kind: one chart
    kind = plot.chart_data("reliability", ev, n_bins=4)
    assert [s.label for s in kind.series] == [s.label for s in rel.chart().series]


def test_curve_plot_without_matplotlib(monkeypatch: pytest.MonkeyPatch,
                                       ev: bm.Evaluation) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r"^ROCCurve\.plot needs matplotlib; install it "
                       r"with pip install 'binmetrics\[plot\]'$"):
        ev.roc().plot()
    with pytest.raises(ImportError, match=r"^DecisionCurve\.plot needs matplotlib"):
        ev.decision_curve().plot()


def test_combine_shares_equal_baselines_only() -> None:
    a = bm.evaluate([1, 0, 1, 0], [.9, .8, .3, .1]).pr().chart(interpolation="step")
    b = bm.evaluate([1, 0, 0, 0], [.9, .2, .7, .1]).pr().chart(interpolation="step")
    same = combine([("A", a), ("B", a)])
    assert [(s.model, s.shared) for s in same.series] == [("A", False), ("B", False),
                                                          (None, True)]
    apart = combine([("A", a), ("B", b)])  # prevalence 1/2 and 1/4: a baseline each
    assert [(s.model, s.label) for s in apart.series if "random" in s.label] == [
        ("A", "random (prevalence 0.5)"), ("B", "random (prevalence 0.25)")]


def test_comparison_decision_curve_is_the_evaluations(ev: bm.Evaluation) -> None:
    cmp = bm.compare(Y, {"a": P, "b": P[::-1]}, measures=["auc"], n_resamples=10,
                     random_state=0)
    dc = cmp.decision_curve([0.2, 0.4])
    assert isinstance(dc, curves.DecisionCurve)
    direct = ev.decision_curve([0.2, 0.4], others={"b": bm.evaluate(Y, P[::-1])}, name="a")
    for name in ("a", "b"):
        np.testing.assert_array_equal(dc.net_benefit[name], direct.net_benefit[name])
    n = Y.size  # net benefit at 0.2: TP/n - FP/n * 0.2/0.8
    tp, fp = np.sum((P >= 0.2) & (Y == 1)), np.sum((P >= 0.2) & (Y == 0))
    assert dc.net_benefit["a"][0] == pytest.approx(tp / n - fp / n * 0.25)
    import binmetrics.inference.paired as paired

    assert "display_hook" not in vars(paired)  # no string hook to a higher layer


# --- a kind registered from outside -------------------------------------------------------------
@pytest.fixture
def score_kind() -> Iterator[str]:
    @plot.register_plot_kind("score_means", title="mean score by class",
                             description="the weighted mean score of each class",
                             needs_both_classes=True)
    def score_means(models: Any, *, shift: float = 0.0) -> ChartData:
        out = []
        for name, e in models:
            t = e.table
            means = [float(t.scores @ t.pos / t.P), float(t.scores @ t.neg / t.N)]
            out.append(series([1.0, 0.0], np.array(means) + shift, "class means", name,
                              style="markers", marker="s"))
        out.append(series([0.0, 1.0], [0.5, 0.5], "one half", style="dashed", shared=True))
        return ChartData("score_means", "Mean score by class", "class", "mean score",
                         tuple(out), (-0.5, 1.5), (0.0, 1.0),
                         operating=lambda e, c, v: (np.ones_like(v["tpr"]), v["tpr"]))

    try:
        yield "score_means"
    finally:
        plot.unregister_plot_kind("score_means")


def test_a_registered_kind_is_drawn_everywhere(score_kind: str, ev: bm.Evaluation) -> None:
    assert plot.kinds()[-1] == score_kind and score_kind in plot.kinds(ev)
    assert score_kind not in plot.kinds(bm.evaluate([1, 1], [0.2, 0.6]))  # one class
    pos, neg = P[Y == 1].mean(), P[Y == 0].mean()  # numpy, not the table
    cd = plot.chart_data(score_kind, ev, shift=0.1)
    (means, half) = cd.series
    np.testing.assert_allclose(means.y, [pos + 0.1, neg + 0.1])
    assert half.shared and not means.shared
    ax = ev.plot(score_kind, operating_point=0.5)
    (line,) = [ln for ln in ax.lines if ln.get_label() == "class means"]
    np.testing.assert_allclose(line.get_ydata(), [pos, neg])
    (point,) = [ln for ln in ax.lines if ln.get_label() == "threshold 0.5"]
    assert point.get_ydata()[0] == pytest.approx(ev["tpr"])
    assert ax.get_title() == "Mean score by class" and ax.get_xlim() == (-0.5, 1.5)
    ax = plot.draw(score_kind, {"A": ev, "B": bm.evaluate(Y, 1 - P)})
    assert {ln.get_label() for ln in ax.lines} >= {"A: class means", "B: class means",
                                                    "one half"}
    data = quiet_report({"m": ev})
    (spec,) = [c for c in data["charts"] if c["id"] == score_kind]
    assert spec["title"] == "Mean score by class" and spec["marker"] is True
    (embedded,) = data["models"][0]["charts"][score_kind]
    assert embedded[3] == "class means" and embedded[2] == "points"
    np.testing.assert_allclose(np.array(embedded[1]), [pos, neg], atol=1e-6)  # y in [0, 1]
    assert score_kind in data["models"][0]["markers"]


def test_registering_refuses_bad_declarations(score_kind: str) -> None:
    with pytest.raises(RuntimeError, match="declared twice"):
        plot.register_plot_kind(score_kind, title="x", description="x")
    with pytest.raises(ValueError, match="lower case letters"):
        plot.register_plot_kind("Bad Name", title="x", description="x")
    with pytest.raises(TypeError, match="must be callable"):
        plot.register_plot_kind("not_callable", title="x", description="x")(42)  # type: ignore[arg-type]
    with pytest.raises(KeyError, match="no plot kind 'nothing'"):
        plot.unregister_plot_kind("nothing")
    with pytest.raises(TypeError, match="marks no operating point"):
        bm.evaluate(Y, P).plot("prg", operating_point=0.5)


def test_render_draws_any_chart_data() -> None:
    cd = ChartData("demo", "Demo", "x", "y", (
        series([0, 1, 2], [1, 3, 2], "steps", steps="post"),
        series([0, 2], [0, 0], "floor", style="dotted", shared=True, color="grey")))
    ax = render(cd)
    (steps, floor) = ax.lines
    assert steps.get_drawstyle() == "steps-post" and steps.get_xdata().tolist() == [0, 1, 2]
    assert floor.get_linestyle() == ":" and floor.get_color() == "grey"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["steps", "floor"]


# --- drawn from below: no lookup of the display layer ------------------------------------------
def test_results_draw_without_the_display_layer() -> None:
    """ev.plot, RankComparison.plot and the Bayesian results' plot call the layer they
    live in or a lower one: in a fresh process none of them loads binmetrics.display."""
    import subprocess

    script = (
        "import sys, matplotlib\n"
        "matplotlib.use('Agg')\n"
        "import binmetrics as bm\n"
        "from binmetrics.data import demsar_table\n"
        "ev = bm.evaluate([1, 1, 0, 1, 0, 0], [.9, .8, .7, .4, .3, .1])\n"
        "axes = [ev.plot('roc'), ev.plot('auc'), ev.plot('loss'),\n"
        "        bm.rank_comparison(demsar_table()).plot(),\n"
        "        bm.bayesian_signed_rank([.8, .7, .9, .6], [.7, .7, .8, .5], rope=0.01,\n"
        "                                random_state=0).plot()]\n"
        "print(len(axes), sorted(m for m in sys.modules if m.startswith('binmetrics.display')))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=300, check=True)
    assert out.stdout.split() == ["5", "[]"], out.stdout + out.stderr


def test_the_report_is_bm_report() -> None:
    ev = bm.evaluate([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.2])
    assert not hasattr(ev, "to_html")  # one way to the HTML report
    with warnings.catch_warnings():  # the caveats of a four-case example are not the point
        warnings.simplefilter("ignore")
        page = bm.report(ev, title="T")
    assert "<title>T</title>" in page
