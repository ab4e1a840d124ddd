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
from binmetrics import cli
from binmetrics.cli_report import add_report_parser
from binmetrics.report import _arc_keep, _fmt, report, thin_curve

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
            assert same(num(model["values"][mid][j]), at[mid]), (j, mid)


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
            assert same(num(md["values"]["mcc"][j]), at["mcc"])
        assert same(cell(page, i, "auc")[0], ev["auc"])
        assert set(md["curves"]) >= {"roc", "hull", "pr", "prg", "gain", "lift", "tpr", "fpr"}
    table = page[page.index("id='bm-paired'"):]
    for r in cmp.to_frame().itertuples():
        assert (f"<td>{r.model_a}</td><td>{r.model_b}</td><td>{r.measure}</td>"
                f"<td>{_fmt(r.value_a)}</td><td>{_fmt(r.value_b)}</td>"
                f"<td>{_fmt(r.difference)}</td><td>[{_fmt(r.low)}, {_fmt(r.high)}]</td>"
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
    with pytest.warns(bm.UndefinedMeasureWarning):
        page = report(bm.evaluate([0, 0, 0, 0], [0.1, 0.4, 0.35, 0.8]))
    data = embedded(page)
    assert "roc" not in data["models"][0]["curves"]
    assert cell(page, 0, "auc")[1] == "undefined"
    assert "id='bm-notes'" in page and "no positives" in page


def test_to_html_writes_the_same_page(tmp_path: Path) -> None:
    ev = bm.evaluate(Y_BERRAR, S_BERRAR)
    out = tmp_path / "r.html"
    page = ev.to_html(out, title="T")
    assert out.read_text(encoding="utf-8") == page
    assert "<title>T</title>" in page


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


def test_report_curves_within_the_footer_bound() -> None:
    ev = random_case(7, n=6000)
    page = report(ev, max_points=60)
    md = embedded(page)["models"][0]
    found = re.search(r"id='bm-eps'>\u03b5 = ([0-9.e+-]+)<", page)
    assert found is not None
    eps = float(found.group(1))
    assert 0 < eps < 0.05
    roc = ev.roc()
    qx, qy = map(np.asarray, md["curves"]["roc"])
    assert qx.size <= 60
    assert brute_distance(roc.fpr, roc.tpr, qx, qy).max() <= eps * 1.01  # printed to 3 digits
    pr = ev.pr()
    qx, qy = map(np.asarray, md["curves"]["pr"])
    assert brute_distance(pr.recall, pr.precision, qx, qy).max() <= eps * 1.01


# --- writing and errors -------------------------------------------------------------------------
def test_bad_paths_fail_before_any_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ev = bm.evaluate(Y_BERRAR, S_BERRAR)
    rep = importlib.import_module("binmetrics.report")  # the module, even once bm.report is
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
    """binmetrics.cli.main with the report command (registered here if cli.py lacks it)."""
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
    return path, df


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
