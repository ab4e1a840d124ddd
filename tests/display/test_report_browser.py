"""The report in a real browser: headless Chromium opens it from disk, without network,
the slider moves, and the confusion matrix and F1 shown are binmetrics' values at the
threshold shown (issue 6, "Proof")."""

from __future__ import annotations

import math
import os
import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.display.report import report
from binmetrics.display.report_html import fmt as _fmt

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
CONFUSION = [m.id for m in bm.iter_measures("confusion")]

if not Path(CHROMIUM).exists():
    if os.environ.get("BINMETRICS_REQUIRE_BROWSER"):  # set by .ci/run, which installs it
        raise RuntimeError(f"{CHROMIUM} is missing: the browser test cannot run")
    pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="playwright is missing (pip install playwright)")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_api.sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=ARGS, headless=True, offline=True,
            viewport={"width": 1280, "height": 900})
        yield ctx
        ctx.close()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    pg = browser.new_page()
    pg.errors = []
    pg.requests = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" else None)
    pg.on("request", lambda r: pg.requests.append(r.url))
    yield pg
    pg.close()


def make_models() -> dict[str, bm.Evaluation]:
    rng = np.random.default_rng(11)
    n = 3000
    y = rng.random(n) < 0.15
    a = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.5 * y - 1.5)))
    b = np.round(1 / (1 + np.exp(-(rng.normal(size=n) + 0.8 * y - 1.5))), 2)  # ties
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return {"A": bm.evaluate(y, a, threshold=0.3), "B": bm.evaluate(y, b, threshold=0.2)}


def open_report(page: Any, path: Path) -> None:
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready='1']", timeout=20_000)


def move_slider(page: Any, j: int) -> None:
    page.eval_on_selector(
        "#bm-slider",
        "(el, j) => { el.value = String(j); el.dispatchEvent(new Event('input', {bubbles: true}));"
        " el.dispatchEvent(new Event('change', {bubbles: true})); }", j)


def shown(page: Any, selector: str) -> tuple[float, str]:
    el = page.locator(selector)
    return float(el.get_attribute("data-value")), el.inner_text().strip()


def as_embedded(a: float, b: float) -> bool:
    """``a`` (from the page) is binmetrics' ``b``, exactly or to the 10 significant digits
    the page embeds."""
    return (math.isnan(a) and math.isnan(b)) or a == b or a == float(f"{b:.10g}")


def check_position(page: Any, models: dict[str, bm.Evaluation]) -> float:
    """The matrices and confusion measures on screen are binmetrics' at the threshold shown."""
    t, text = shown(page, "#bm-threshold")
    assert text == _fmt(t, 10)
    for i, ev in enumerate(models.values()):
        at = ev.at_threshold(t)
        for k, v in at.confusion.as_dict().items():
            value, text = shown(page, f"#bm-cm-{i}-{k}")
            assert as_embedded(value, v) and text == _fmt(v, 10), (t, k)
        f1, text = shown(page, f"#bm-v-{i}-f1")
        assert as_embedded(f1, at["f1"]), t
        assert text == _fmt(at["f1"])
        for mid in CONFUSION:  # every threshold measure, as Python formats it
            assert page.locator(f"#bm-v-{i}-{mid}").inner_text() == _fmt(at[mid]), (t, mid)
    return t


def test_slider_updates_matrix_and_f1(page: Any, tmp_path: Path) -> None:
    models = make_models()
    path = tmp_path / "report.html"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        report(models, path, thresholds=400)
    open_report(page, path)
    charts = [k for k, pk in bm.plot.PLOT_KINDS.items() if pk.in_report]
    assert page.locator("svg[id^='bm-chart-']").count() == len(charts) + 1 == 10  # + measure
    for kind in charts:
        assert page.locator(f"#bm-chart-{kind}").count() == 1, kind
        # the kinds that need probabilities are drawn in the calibration section
        where = ("#bm-calibration-charts" if bm.plot.PLOT_KINDS[kind].needs_probabilities
                 else "#bm-chart-grid")
        assert page.locator(f"{where} #bm-chart-{kind}").count() == 1, kind
    start = check_position(page, models)
    assert start == 0.3  # model A's own threshold
    assert as_embedded(shown(page, "#bm-v-0-f1")[0], models["A"]["f1"])
    marker = page.locator("#bm-mk-roc-0")
    before = (marker.get_attribute("cx"), marker.get_attribute("cy"))
    n = int(page.locator("#bm-slider").get_attribute("max")) + 1
    seen = {start}
    f1_values = set()
    for j in (5, n // 3, 2 * n // 3, n - 2):
        move_slider(page, j)
        assert page.locator("#bm-position").inner_text() == f"position {j + 1} of {n}"
        seen.add(check_position(page, models))
        f1_values.add(shown(page, "#bm-v-0-f1")[0])
    assert len(seen) == 5 and len(f1_values) == 4  # the threshold and F1 did change
    assert (marker.get_attribute("cx"), marker.get_attribute("cy")) != before  # ROC point moved
    # keyboard: one step to the left
    page.locator("#bm-slider").focus()
    page.keyboard.press("ArrowLeft")
    assert page.locator("#bm-position").inner_text() == f"position {n - 2} of {n}"
    check_position(page, models)
    # back to the evaluation's own threshold
    page.locator("#bm-reset").click()
    assert check_position(page, models) == 0.3
    page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
    assert (tmp_path / "report.png").stat().st_size > 10_000
    assert page.errors == []
    assert all(u.startswith("file://") for u in page.requests), page.requests


def test_nothing_positive_and_measure_chart(page: Any, tmp_path: Path) -> None:
    ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0], [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1],
                     threshold=0.55)
    path = tmp_path / "berrar.html"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        bm.report(ev, path)
    open_report(page, path)
    n = int(page.locator("#bm-slider").get_attribute("max")) + 1
    assert n == 12  # ten cut points, 0.55 and +inf
    move_slider(page, n - 1)  # +inf: nothing predicted positive
    assert shown(page, "#bm-threshold") == (math.inf, "\u221e")
    assert shown(page, "#bm-cm-0-tp")[0] == 0 and shown(page, "#bm-cm-0-tn")[0] == 5
    assert page.locator("#bm-v-0-ppv").inner_text() == "undefined"
    assert page.locator("#bm-mk-pr-0").evaluate("el => el.style.visibility") == "hidden"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_position(page, {"m": ev})
    page.select_option("#bm-measure-select", "mcc")
    assert "Matthews" in page.locator("#bm-chart-measure .title").text_content()
    page.screenshot(path=str(tmp_path / "berrar.png"), full_page=True)
    assert page.errors == []


def test_undefined_reason_survives_the_slider(page: Any, tmp_path: Path) -> None:
    """At the model's own threshold an undefined value keeps binmetrics' reason as its
    tooltip, also after the slider went elsewhere and came back."""
    with pytest.warns(bm.BinmetricsWarning, match="threshold 0.99 is outside the scores' range"):
        ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
                         [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1],
                         threshold=0.99)  # nothing predicted positive: PPV undefined
    path = tmp_path / "undefined.html"
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        bm.report(ev, path)
    reason = next(w.message.reason for w in rec if isinstance(w.message, bm.UndefinedMeasureWarning)
                  and "ppv" in w.message.measures)
    open_report(page, path)
    ppv = page.locator("#bm-v-0-ppv")
    assert ppv.inner_text() == "undefined" and ppv.get_attribute("title") == reason
    own = int(page.locator("#bm-slider").get_attribute("value"))
    move_slider(page, 2)
    assert ppv.inner_text() != "undefined" and not ppv.get_attribute("title")
    move_slider(page, own)
    assert ppv.inner_text() == "undefined" and ppv.get_attribute("title") == reason
    assert page.errors == []


def test_long_model_names_keep_the_layout(page: Any, tmp_path: Path) -> None:
    """A 300-character model name wraps or is shortened (full name on hover): the page
    stays about as wide as the window."""
    rng = np.random.default_rng(5)
    y = rng.random(400) < 0.3
    long = "M" * 300 + "<img src=x onerror=alert(1)>"
    models = {"short": bm.evaluate(y, rng.random(400)),
              long: bm.evaluate(y, np.clip(y * 0.3 + rng.random(400) * 0.7, 0, 1))}
    path = tmp_path / "long.html"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        report(models, path)
    open_report(page, path)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width < 1600, width
    assert page.locator("#bm-legend .key.m1").get_attribute("title") == long
    page.screenshot(path=str(tmp_path / "long.png"), full_page=True)
    assert page.errors == []
