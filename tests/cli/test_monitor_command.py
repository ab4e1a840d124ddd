"""``binmetrics monitor``: the windows of a scored file, as text, CSV or an HTML page."""

from __future__ import annotations

from io import StringIO
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
    path = tmp_path_factory.mktemp("mon") / "scored.csv"
    pd.DataFrame({"ts": ts, "y": y, "p": p}).to_csv(path, index=False)
    return path


def test_csv_output_is_the_api_result(cli, scored: Path) -> None:
    r = cli("monitor", scored, "--label", "y", "--score", "p", "--time", "ts",
            "--reference", ":".join(REF), "--measures", "auc,recall", "--format", "csv")
    assert r.returncode == 0, r.stderr
    got = pd.read_csv(StringIO(r.stdout))
    df = pd.read_csv(scored)
    want = bm.monitor(df, label="y", score="p", time="ts", reference=REF,
                      measures=["auc", "recall"]).to_frame()
    np.testing.assert_allclose(got["auc"], want["auc"], rtol=1e-15)
    np.testing.assert_allclose(got["auc_pvalue_adjusted"], want["auc_pvalue_adjusted"],
                               rtol=1e-12)
    assert list(got["auc_flagged"]) == list(want["auc_flagged"])
    assert {"ks", "psi"} <= set(got.columns)


def test_text_names_the_changed_windows_and_html_is_a_page(cli, scored: Path,
                                                           tmp_path: Path) -> None:
    r = cli("monitor", scored, "--label", "y", "--score", "p", "--time", "ts",
            "--reference", ":".join(REF), "--measures", "auc")
    assert r.returncode == 0
    assert "auc: " in r.stdout and "window(s) changed from the reference (Holm" in r.stdout
    out = tmp_path / "report.html"
    r = cli("monitor", scored, "--label", "y", "--score", "p", "--time", "ts",
            "--reference", ":".join(REF), "--measures", "auc", "-o", out)
    assert r.returncode == 0, r.stderr
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and "<table" in page and "auc_flagged" in page


@pytest.mark.parametrize("argv, message", [
    (["--reference", "2026-01-01"], "write START:END"),
    (["--reference", ":".join(REF), "--window", "1M"], "window='1M' is not a duration"),
    (["--reference", "2027-01-01:2027-02-01"], "holds no rows"),
    (["--reference", ":".join(REF), "--time", "when"], "time column 'when' not found"),
])
def test_errors_exit_2_on_one_line(cli, scored: Path, argv: list[str], message: str) -> None:
    r = cli("monitor", scored, "--label", "y", "--score", "p", "--time", "ts", *argv)
    assert r.returncode == 2
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_the_report_never_replaces_its_input(cli, scored: Path) -> None:
    before = scored.read_bytes()
    r = cli("monitor", scored, "--label", "y", "--score", "p", "--time", "ts",
            "--reference", ":".join(REF), "-o", scored)
    assert r.returncode == 2 and "it is the input" in r.stderr
    assert scored.read_bytes() == before


def test_engine_duckdb_gives_the_in_memory_windows(cli, scored: Path, tmp_path: Path) -> None:
    pytest.importorskip("duckdb")
    df = pd.read_csv(scored).assign(split=lambda d: np.arange(len(d)) % 4,
                                    y=lambda d: np.where(d["y"] == 1, "yes", "no"))
    df.to_parquet(tmp_path / "scored.parquet")
    argv = ["--label", "y", "--score", "p", "--time", "ts", "--reference", ":".join(REF),
            "--measures", "auc,recall", "--format", "csv", "--pos-label", "yes"]
    r = cli("monitor", tmp_path / "scored.parquet", *argv, "--engine", "duckdb",
            "--where", "split <> 0")
    assert r.returncode == 0, r.stderr
    m = cli("monitor", tmp_path / "scored.parquet", *argv, "--engine", "numpy")
    assert m.returncode == 0, m.stderr
    got, whole = pd.read_csv(StringIO(r.stdout)), pd.read_csv(StringIO(m.stdout))
    kept = df[df["split"] != 0].assign(ts=lambda d: pd.to_datetime(d["ts"]))
    want = bm.monitor(kept, label="y", score="p", time="ts", reference=REF, pos_label="yes",
                      measures=["auc", "recall"]).to_frame()
    np.testing.assert_array_equal(got["n"], want["n"])
    np.testing.assert_allclose(got["auc"], want["auc"], rtol=1e-15)
    assert (got["n"] < whole["n"]).all()  # the filter ran
    bad = cli("monitor", scored, *argv[:-2], "--engine", "numpy", "--where", "split <> 0")
    assert bad.returncode == 2 and "--where needs --engine duckdb" in bad.stderr
    bad = cli("monitor", tmp_path / "scored.parquet", *argv, "--where", "p > (SELECT 1)")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr


def test_weight_column_is_the_api_weighted_result(cli, tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    n = 1500
    ts = pd.Timestamp("2026-01-01") + pd.to_timedelta(rng.uniform(0, 30, n), "D")
    y = (rng.random(n) < 0.3).astype(int)
    p = np.clip(0.3 + 0.3 * y + rng.normal(0, 0.2, n), 0, 1).round(2)
    df = pd.DataFrame({"ts": ts, "y": y, "p": p, "w": rng.exponential(1.0, n)})
    path = tmp_path / "weighted.csv"
    df.to_csv(path, index=False)
    r = cli("monitor", path, "--label", "y", "--score", "p", "--time", "ts", "--weight", "w",
            "--reference", ":".join(REF), "--measures", "auc,recall", "--format", "csv")
    assert r.returncode == 0, r.stderr
    got = pd.read_csv(StringIO(r.stdout))
    want = bm.monitor(pd.read_csv(path), label="y", score="p", time="ts", weight="w",
                      reference=REF, measures=["auc", "recall"]).to_frame()
    for c in ("n", "prevalence", "auc", "tpr", "auc_pvalue_adjusted"):
        np.testing.assert_allclose(got[c], want[c], rtol=1e-12, err_msg=c)
    plain = bm.monitor(pd.read_csv(path), label="y", score="p", time="ts", reference=REF,
                       measures=["auc"]).to_frame()
    assert not np.allclose(got["auc"], plain["auc"])
