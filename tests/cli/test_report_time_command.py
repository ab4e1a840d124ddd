"""``binmetrics report --time``: the report's "Over time" section from the command line."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm

REF = ("2026-01-01", "2026-01-14")


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = np.random.default_rng(0)
    n = 2000
    ts = pd.Timestamp("2026-01-01") + pd.to_timedelta(rng.uniform(0, 30, n), "D")
    y = (rng.random(n) < 0.3).astype(int)
    sig = np.where(ts < pd.Timestamp("2026-01-20"), 2.0, 0.3)
    p = 1 / (1 + np.exp(-(sig * y + rng.normal(0, 1, n) - 1)))
    path = tmp_path_factory.mktemp("rt") / "scored.csv"
    pd.DataFrame({"ts": ts, "y": y, "p": p}).to_csv(path, index=False)
    return path


def test_report_with_time_has_the_monitors_section(cli, scored: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    r = cli("report", scored, "--label", "y", "--score", "p", "--time", "ts", "--reference",
            ":".join(REF), "--time-measures", "auc,recall", "--thresholds", "20", "-o", out)
    assert r.returncode == 0, r.stderr
    page = out.read_text("utf-8")
    mon = bm.monitor(pd.read_csv(scored), label="y", score="p", time="ts", reference=REF,
                     measures=["auc", "recall"]).to_frame()
    for mid in ("auc", "tpr"):  # recall is the TPR
        k = int(mon[f"{mid}_flagged"].sum())
        assert f"<h3 data-measure='{mid}' data-flagged='{k}'>" in page
    assert int(mon["auc_flagged"].sum()) > 0
    table = page[page.index("data-measure='auc'><thead>"):]
    first = re.findall(r"data-value='([^']*)'", table.split("<tr")[3])[0]
    assert float(first) == pytest.approx(mon["auc"].iloc[0], rel=1e-15)


@pytest.mark.parametrize(("argv", "message"), [
    (["--time", "ts"], "--time needs --reference START:END"),
    (["--reference", "2026-01-01:2026-01-14"], "--reference needs --time COL"),
    (["--time", "ts", "--reference", "2026-01-01"], "--reference '2026-01-01'"),
    (["--time", "tss", "--reference", "2026-01-01:2026-01-14"], "tss"),
])
def test_time_option_errors_exit_2(cli, scored: Path, tmp_path: Path, argv: list[str],
                                   message: str) -> None:
    r = cli("report", scored, "--label", "y", "--score", "p", *argv, "-o", tmp_path / "r.html")
    assert r.returncode == 2, r.stderr
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
