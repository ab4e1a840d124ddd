"""The report's "Over time" section (report(..., over_time=bm.monitor(...))): the measure
over the windows with its band, the reference and its band, the flagged windows, and
every window's numbers, exactly the monitor's."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.display.report import report

REF = ("2026-01-01", "2026-01-10")


@pytest.fixture(scope="module")
def scored() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    n = 3000
    ts = pd.Timestamp("2026-01-01") + pd.to_timedelta(rng.uniform(0, 30, n), "D")
    y = rng.random(n) < 0.3
    signal = np.where(ts < pd.Timestamp("2026-01-20"), 0.3, 0.05)
    p = np.clip(0.35 + signal * (2 * y - 1) + rng.normal(0, 0.2, n), 0, 1).round(3)
    return pd.DataFrame({"ts": ts, "y": y.astype(int), "p": p})


@pytest.fixture(scope="module")
def mon(scored: pd.DataFrame) -> bm.MonitorResult:
    return bm.monitor(scored, label="y", score="p", time="ts", reference=REF,
                      measures=["auc", "tpr"], ci=True, random_state=0)


@pytest.fixture(scope="module")
def page(scored: pd.DataFrame, mon: bm.MonitorResult) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return report(bm.evaluate(scored["y"], scored["p"]), over_time=mon, thresholds=20)


def _section(page: str) -> str:
    start = page.index("<section id='bm-over-time'>")
    return page[start:page.index("</section>", start)]


def _values(chunk: str) -> list[float]:
    return [float(v) for v in re.findall(r"data-value='([^']*)'", chunk)]


def test_the_section_is_there_only_when_asked(scored: pd.DataFrame, page: str) -> None:
    assert "<h2>Over time</h2>" in page
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = report(bm.evaluate(scored["y"], scored["p"]), thresholds=20)
    assert "bm-over-time" not in plain and "Over time" not in plain
    with pytest.raises(TypeError, match=r"over_time must be the result of binmetrics\.monitor"):
        report(bm.evaluate(scored["y"], scored["p"]), over_time=scored)  # type: ignore[arg-type]


@pytest.mark.parametrize("mid", ["auc", "tpr"])
def test_every_number_is_the_monitors(page: str, mon: bm.MonitorResult, mid: str) -> None:
    sec = _section(page)
    f = mon.to_frame()
    flagged = f[f"{mid}_flagged"].to_numpy(bool)
    assert flagged.any() and not flagged.all()  # the drift on the 20th is found
    assert f"<h3 data-measure='{mid}' data-flagged='{flagged.sum()}'>" in sec
    # the table: the reference (value, interval), then each window's value, interval,
    # change and Holm-adjusted p-value, exactly
    table = sec[sec.index(f"data-measure='{mid}'><thead>"):]
    table = table[:table.index("</table>")]
    rows = table.split("<tr")[2:]
    ref_ev = mon.reference_evaluation
    want_ref = ref_ev.ci_table([mid], level=0.95, random_state=0)
    assert _values(rows[0]) == [ref_ev.value(mid), *mon.reference_ci[mid]]
    assert list(mon.reference_ci[mid]) == [want_ref["low"].iloc[0], want_ref["high"].iloc[0]]
    assert len(rows) == len(f) + 1
    for row, (_, r) in zip(rows[1:], f.iterrows(), strict=True):
        want = [r[mid], r[f"{mid}_low"], r[f"{mid}_high"], r[f"{mid}_change"],
                r[f"{mid}_pvalue_adjusted"]]
        np.testing.assert_array_equal(_values(row), want)
        assert ("changed" in row) == bool(r[f"{mid}_flagged"])
    # the chart: the window band, the reference band, the line, the flagged markers
    chart = sec[sec.index(f"aria-label='{mid} over time'"):]
    chart = chart[:chart.index("</svg>")]
    assert f"class='bm-band' data-series='{mid} 95% interval'" in chart
    assert "class='bm-band' data-series='reference 95% interval'" in chart
    assert f"class='bm-line' data-series='{mid}'" in chart
    assert "stroke-dasharray" in chart  # the reference value
    ys = [float(v) for v in re.findall(r"class='bm-flagged'[^>]*data-y='([^']*)'", chart)]
    np.testing.assert_array_equal(ys, f.loc[flagged, mid].to_numpy(float))


def test_monitor_chart_has_the_reference_band_only_with_intervals(
        scored: pd.DataFrame, mon: bm.MonitorResult) -> None:
    labels = [s.label for s in mon.chart("auc").series]
    assert "reference 95% interval" in labels
    plain = bm.monitor(scored, label="y", score="p", time="ts", reference=REF,
                       measures=["auc"])
    assert plain.reference_ci is None
    assert not any("interval" in s.label for s in plain.chart("auc").series)
