"""evaluate_file (DuckDB): the same results as evaluate / evaluate_by on the same rows
(ties, weights, groups, where, binning), and clear errors for bad files and columns."""

from __future__ import annotations

import json
import math
import os
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

import binmetrics as bm
from binmetrics.cli import main
from binmetrics.engines import binned_table, evaluate_file, value_bounds
from binmetrics.engines.files import FileJob

pytest.importorskip("duckdb")


def values(ev: bm.Evaluation) -> dict[str, float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ev.to_dict()


def assert_same(a: bm.Evaluation, b: bm.Evaluation, rel: float = 1e-12) -> None:
    va, vb = values(a), values(b)
    for k in vb:
        if math.isnan(vb[k]):
            assert math.isnan(va[k]), k
        else:
            assert va[k] == pytest.approx(vb[k], rel=rel, abs=1e-12), k


def frame(seed: int, n: int = 2000, ties: bool = True) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0.001, 0.999)
    return pd.DataFrame({
        "y": y.astype(np.int64),
        "p": np.round(s, 2) if ties else s,
        "w": rng.exponential(1.0, n),
        "site": rng.choice(["north", "south", "east"], n),
        "split": rng.choice(["train", "test"], n),
    })


def write(df: pd.DataFrame, d: Path, fmt: str, parts: int = 3) -> str:
    for i, idx in enumerate(np.array_split(np.arange(len(df)), parts)):
        chunk = df.iloc[idx]
        if fmt == "parquet":
            chunk.to_parquet(d / f"part{i}.parquet")
        else:
            chunk.to_csv(d / f"part{i}.csv", index=False)
    return str(d / f"part*.{fmt}")


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
@pytest.mark.parametrize("ties", [True, False])  # hash group-by / sort paths
@pytest.mark.parametrize("weighted", [False, True])
def test_agrees_with_evaluate(tmp_path: Path, fmt: str, ties: bool, weighted: bool) -> None:
    df = frame(1, ties=ties)
    path = write(df, tmp_path, fmt)
    w = "w" if weighted else None
    ev = evaluate_file(path, label="y", score="p", weight=w, threshold=0.45)
    exact = bm.evaluate(df.y, df.p, sample_weight=df.w if weighted else None, threshold=0.45)
    if weighted:
        assert ev.table.equals(exact.table, rtol=1e-13)
    else:
        assert ev.table.equals(exact.table)
    assert_same(ev, exact)
    assert (ev.n_rows, ev.n_positive_rows, ev.pos_label) == (2000, int(df.y.sum()), 1)
    assert ev["auc"] == pytest.approx(roc_auc_score(df.y, df.p, sample_weight=df[w] if w else None),
                                      rel=1e-12)


def test_heavy_ties_widen_counts(tmp_path: Path) -> None:
    # one score held by 300 rows: its counts fit a byte each, their sum does not
    y = np.r_[np.ones(200, int), np.zeros(100, int), [1, 0, 1]]
    s = np.r_[np.full(300, 0.5), [0.1, 0.2, 0.3]]
    pd.DataFrame({"y": y, "p": s}).to_parquet(tmp_path / "ties.parquet")
    ev = evaluate_file(tmp_path / "ties.parquet", label="y", score="p")
    exact = bm.evaluate(y, s)
    assert ev.table.pos.dtype == exact.table.pos.dtype == np.uint16
    assert_same(ev, exact)


def test_by_groups_and_where(tmp_path: Path) -> None:
    df = frame(2)
    df.loc[df.index[:5], "site"] = None  # a missing key is a group of its own
    path = write(df, tmp_path, "parquet")
    res = evaluate_file(path, label="y", score="p", weight="w", by="site", where="split = 'test'",
                        measures=["auc", "brier", "mcc", "log_loss"], pi0=0.5)
    test = df[df.split == "test"]
    ref = bm.evaluate_by(test, label="y", score="p", weight="w", by="site",
                         measures=["auc", "brier", "mcc", "log_loss"], pi0=0.5)
    assert res.keys == ["east", "north", "south", None]  # sorted, missing last
    got = res.to_frame().fillna({"site": "(missing)"}).set_index("site")
    want = ref.to_frame().fillna({"site": "(missing)"}).set_index("site")
    assert set(got.index) == set(want.index)
    for key in want.index:
        for col in ["n", "positives", "prevalence", "auc", "brier", "mcc", "log_loss", "auc_cal",
                    "mcc_cal"]:
            assert got.loc[key, col] == pytest.approx(want.loc[key, col], rel=1e-12), (key, col)
    assert res.pi0 == 0.5 and isinstance(res.evaluations["east"], bm.Evaluation)


def test_binned_agrees_with_numpy_binning(tmp_path: Path) -> None:
    df = frame(3, ties=False)
    path = write(df, tmp_path, "parquet")
    exact = bm.evaluate(df.y, df.p, sample_weight=df.w)
    for kw in ({"decimals": 2}, {"bins": 9}, {"bins": [0, 0.25, 0.5, 0.6, 1.0]}):
        ev = evaluate_file(path, label="y", score="p", weight="w", **kw)
        # the evaluation's threshold (0.5) is an extra edge (inside one of the 9 bins)
        ref = bm.Evaluation(binned_table(df.y, df.p, sample_weight=df.w, threshold=0.5, **kw))
        assert ev.table.equals(ref.table, rtol=1e-12), kw
        assert_same(ev, ref)
        for m in (m for m in bm.iter_measures("probabilistic") if m.sums):  # from the raw sums
            assert ev[m.id] == pytest.approx(exact[m.id], rel=1e-12), (kw, m.id)
        lo, hi = value_bounds(ev, "auc")
        assert lo <= exact["auc"] <= hi


def test_string_labels_and_pos_label(tmp_path: Path) -> None:
    df = frame(4)
    df["status"] = np.where(df.y == 1, "sick", "well")
    path = write(df, tmp_path, "csv")
    ev = evaluate_file(path, label="status", score="p", pos_label="sick")
    assert ev.pos_label == "sick"
    assert_same(ev, bm.evaluate(df.status, df.p, pos_label="sick"))
    with pytest.raises(ValueError, match=r"label column 'status' has labels \['sick', 'well'\].*"
                                         r"pass pos_label="):
        evaluate_file(path, label="status", score="p")


def test_nan_scores(tmp_path: Path) -> None:
    df = frame(5, n=300)
    df.loc[[10, 20, 30], "p"] = np.nan
    df.loc[40, "p"] = np.inf
    df.to_parquet(tmp_path / "scores.parquet")
    path = str(tmp_path / "scores.parquet")
    with pytest.raises(ValueError, match=r"score column 'p' has 4 non-finite values \(3 NaN or "
                                         r"NULL, 1 infinite\) in '.*scores.parquet' \(first at "
                                         r"scores.parquet data row 11, .*data row 41; the first "
                                         r"data row is 1\); pass nan_policy="):
        evaluate_file(path, label="y", score="p")
    with pytest.warns(UserWarning, match="dropped 4 rows"):
        ev = evaluate_file(path, label="y", score="p", nan_policy="omit")
    keep = np.isfinite(df.p)
    assert ev.n_omitted == 4 and ev.n_rows == 296
    assert_same(ev, bm.evaluate(df.y[keep], df.p[keep]))


@pytest.mark.parametrize("case", ["corrupt", "missing column", "text score", "three labels",
                                  "missing label", "negative weight", "empty glob", "bad where",
                                  "no rows", "directory", "unknown extension"])
def test_errors(tmp_path: Path, case: str) -> None:
    df = frame(6, n=50)
    good = tmp_path / "good.parquet"
    df.to_parquet(good)
    kw: dict[str, Any] = {"label": "y", "score": "p"}
    path: Any = str(good)
    exc: type[Exception] = ValueError
    if case == "corrupt":
        path = str(tmp_path / "bad.parquet")
        Path(path).write_bytes(b"not parquet at all \x00\x01" * 20)
        msg = r"cannot read '.*bad.parquet'"
    elif case == "missing column":
        kw["score"] = "pp"
        msg = (r"score column 'pp' not found in '.*good.parquet' \(did you mean 'p'\?\); "
               "available columns: y, p, w, site, split")
    elif case == "text score":
        kw["score"] = "site"
        exc, msg = TypeError, r"score column 'site' of '.*' must be numeric; its type is VARCHAR"
    elif case == "three labels":
        df.loc[0, "y"] = 2
        df.to_parquet(good)
        msg = (r"label column 'y' must hold exactly two classes; found 3 distinct values: "
               r"\[0, 1, 2\]")
    elif case == "missing label":
        df["y"] = df["y"].astype("float")
        df.loc[[3, 4], "y"] = np.nan
        df.to_parquet(good)
        msg = (r"label column 'y' has 2 missing values \(NULL or NaN\) in .* "
               r"\(first at good.parquet data row 4")
    elif case == "negative weight":
        df.loc[7, "w"] = -0.5
        df.to_parquet(good)
        kw["weight"] = "w"
        msg = (r"weight column 'w' has 1 negative value in .*data row 8; the first data "
               r"row is 1\) \(smallest -0.5\)")
    elif case == "empty glob":
        path = str(tmp_path / "nothing*.parquet")
        exc, msg = FileNotFoundError, "no file matches"
    elif case == "bad where":
        kw["where"] = "nonexistent_col > 1"
        msg = r"where='nonexistent_col > 1' is not a valid condition"
    elif case == "no rows":
        kw["where"] = "p > 5"
        msg = r"has no rows matching where='p > 5'"
    elif case == "directory":
        path = str(tmp_path)
        msg = "is a directory"
    else:
        path = str(tmp_path / "scores.dat")
        Path(path).write_text("y,p\n1,0.5\n")
        msg = "cannot tell the format"
    with pytest.raises(exc, match=msg):
        evaluate_file(path, **kw)


def test_temporary_directory_removed_and_memory_settings(tmp_path: Path) -> None:
    df = frame(7, n=100)
    df.to_parquet(tmp_path / "a.parquet")
    spill = tmp_path / "spill"
    spill.mkdir()
    with FileJob(tmp_path / "a.parquet", label="y", score="p", memory_limit="256MB",
                 temp_directory=spill, threads=1) as job:
        limit = job.con.sql("SELECT current_setting('memory_limit')").fetchall()[0][0]
        assert limit.replace(" ", "").startswith(("256", "244"))  # MB or MiB
        tmp = job._tmp
        assert job.labels().tolist() == [0, 1]
        ev = job.evaluate()
    assert tmp is None and ev.n_rows == 100
    with FileJob(tmp_path / "a.parquet", label="y", score="p") as job:
        own = job._tmp
        assert own is not None and os.path.isdir(own)
    assert not os.path.exists(own)


def test_missing_duckdb_is_a_clear_error(monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "duckdb", None)
    with pytest.raises(ImportError, match=r"pip install 'binmetrics\[duckdb\]'"):
        evaluate_file(str(tmp_path / "x.parquet"), label="y", score="p")


# --- the command line ---------------------------------------------------------------------
def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_engines_agree(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    df = frame(8)
    path = write(df, tmp_path, "parquet")
    code, out, err = run(capsys, "evaluate", path, "--label", "y", "--score", "p",
                         "--weight", "w", "--format", "json")
    assert code == 0, err
    glob_obj = json.loads(out)  # a glob: DuckDB (auto)
    single = str(tmp_path / "all.parquet")
    df.to_parquet(single)
    code, out, _ = run(capsys, "evaluate", single, "--label", "y", "--score", "p", "--weight", "w",
                       "--format", "json", "--engine", "numpy")
    numpy_obj = json.loads(out)
    assert glob_obj["n"] == numpy_obj["n"] == 2000
    for k, v in numpy_obj["measures"].items():
        if v is None:
            assert glob_obj["measures"][k] is None
        else:
            assert glob_obj["measures"][k] == pytest.approx(v, rel=1e-12), k


def test_cli_where_decimals_and_by(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    df = frame(9)
    path = write(df, tmp_path, "csv")
    code, out, err = run(capsys, "evaluate", path, "--label", "y", "--score", "p",
                         "--engine", "duckdb", "--where", "split = 'test'", "--decimals", "1",
                         "--format", "json", "--measures", "auc,brier")
    assert code == 0, err
    obj = json.loads(out)
    test = df[df.split == "test"]
    assert obj["n"] == len(test)
    assert obj["measures"]["brier"] == pytest.approx(bm.evaluate(test.y, test.p)["brier"],
                                                     rel=1e-12)
    binned = bm.Evaluation(binned_table(test.y, test.p, decimals=1))
    assert obj["measures"]["auc"] == pytest.approx(binned["auc"], rel=1e-12)
    assert obj["binning"]["describe"] == "decimals=1"
    assert obj["binning"]["max_error"]["auc"] == pytest.approx(binned.binning_error("auc"))
    code, out, err = run(capsys, "evaluate", path, "--label", "y", "--score", "p", "--by", "site",
                         "--engine", "duckdb", "--format", "csv", "--measures", "auc")
    assert code == 0, err
    rows = pd.read_csv(pd.io.common.StringIO(out))
    assert rows.site.tolist() == ["east", "north", "south"]
    for site, auc in zip(rows.site, rows.auc, strict=True):
        part = df[df.site == site]
        assert auc == pytest.approx(roc_auc_score(part.y, part.p), rel=1e-12)


def test_cli_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "x.parquet").write_bytes(b"garbage" * 10)
    out_path = tmp_path / "out.json"
    code, out, err = run(capsys, "evaluate", str(tmp_path / "*.parquet"), "--label", "y",
                         "--score", "p", "-o", str(out_path))
    assert (code, out) == (2, "")
    assert "binmetrics: error: cannot read" in err and "x.parquet" in err
    assert not out_path.exists()
    code, _, err = run(capsys, "evaluate", str(tmp_path / "none*.parquet"), "--label", "y",
                       "--score", "p")
    assert code == 2 and "no file matches" in err
    code, _, err = run(capsys, "evaluate", "--example", "berrar", "--decimals", "1",
                       "--bins", "4")
    assert code == 2 and "not both" in err


# --- review 7 -------------------------------------------------------------------------------
@pytest.mark.parametrize("kw", [{"decimals": 1}, {"bins": 7}, {"bins": [0, 0.3, 0.6, 1.0]}])
def test_binned_confusion_exact_at_an_off_grid_threshold(tmp_path: Path,
                                                         kw: dict[str, Any]) -> None:
    df = frame(21, ties=False)
    path = write(df, tmp_path, "parquet")
    for weighted in (False, True):
        w = df.w if weighted else None
        for t in (0.55, 0.4321, 0.05):
            ev = evaluate_file(path, label="y", score="p", weight="w" if weighted else None,
                               threshold=t, undefined="ignore", **kw)
            exact = bm.evaluate(df.y, df.p, sample_weight=w, threshold=t, undefined="ignore")
            got, want = ev.confusion.as_dict(), exact.confusion.as_dict()
            for k in got:  # the raw counts at t, not those at the bin edge above it
                assert got[k] == pytest.approx(want[k], rel=1e-12), (kw, t, k)
            assert ev.binning_error("mcc") == 0.0
            ref = binned_table(df.y, df.p, sample_weight=w, threshold=t, **kw)
            assert ev.table.equals(ref, rtol=1e-12), (kw, t)
    # another threshold inside an occupied bin: a warning, no bound
    ev = evaluate_file(path, label="y", score="p", threshold=0.55, **kw)
    inside = float(ev.table.scores[2] + (ev.table.scores[1] - ev.table.scores[2]) / 2)
    with pytest.warns(UserWarning, match="cuts the bin"):
        off = ev.at_threshold(inside)
    assert off.binning_error("tpr") is None


def test_cli_binned_threshold_off_the_grid(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    df = frame(22)
    path = str(tmp_path / "one.csv")
    df.to_csv(path, index=False)
    code, out, err = run(capsys, "evaluate", path, "--label", "y", "--score", "p",
                         "--decimals", "1", "--threshold", "0.55", "--format", "json")
    assert code == 0, err
    obj = json.loads(out)
    exact = bm.evaluate(df.y, df.p, threshold=0.55).confusion
    assert obj["confusion"] == {"tp": exact.tp, "fp": exact.fp, "fn": exact.fn, "tn": exact.tn}
    assert obj["binning"]["max_error"]["tpr"] == 0.0
    assert "threshold 0.55 as an edge" in obj["binning"]["describe"]


@pytest.mark.parametrize(("labels", "pos_label"), [
    (("yes", "no"), "yes"), (("T", "F"), "T"), (("True", "False"), None),
    (("true", "false"), True), (("1", "0"), None), (("1.0", "0"), None), (("-1", "1"), None),
    (("y", "n"), None),
])
def test_csv_labels_read_as_pandas_reads_them(tmp_path: Path, labels: tuple[str, str],
                                             pos_label: Any) -> None:
    df = frame(23, n=400)
    path = tmp_path / "labels.csv"
    text = pd.DataFrame({"y": np.where(df.y == 1, labels[0], labels[1]), "p": df.p})
    text.to_csv(path, index=False)
    read = pd.read_csv(path)  # what the numpy engine (and the command line) evaluates
    try:
        want: Any = bm.evaluate(read.y, read.p, pos_label=pos_label)
    except ValueError as exc:
        want = str(exc)
    try:
        got: Any = evaluate_file(str(path), label="y", score="p", pos_label=pos_label)
    except ValueError as exc:
        got = str(exc)
    if isinstance(want, str):
        assert isinstance(got, str) and "pass pos_label" in got and "pass pos_label" in want
        return
    assert not isinstance(got, str), got
    assert got.pos_label == want.pos_label
    assert got.table.equals(want.table)
    assert_same(got, want)


def test_csv_missing_label_spellings(tmp_path: Path) -> None:
    path = tmp_path / "na.csv"
    path.write_text("y,p\nyes,0.1\nNA,0.2\nno,0.3\n")
    with pytest.raises(ValueError, match=r"label column 'y' has 1 missing value .*na.csv"):
        evaluate_file(str(path), label="y", score="p", pos_label="yes")
    with pytest.raises(ValueError, match="missing label"):
        bm.evaluate(pd.read_csv(path).y, pd.read_csv(path).p, pos_label="yes")


def test_user_connection_keeps_its_tables(tmp_path: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    df = frame(24, n=300)
    path = write(df, tmp_path, "parquet")
    con = duckdb.connect()
    con.execute("CREATE TABLE bm_stats AS SELECT 42 AS answer")  # the user's own table
    before = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    views = {r[0] for r in con.execute("SELECT view_name FROM duckdb_views()").fetchall()}
    for kw in ({}, {"by": "site"}, {"bins": [0, 0.5, 1.0]}, {"decimals": 2, "by": "site"}):
        res = evaluate_file(path, label="y", score="p", weight="w", connection=con,
                            undefined="ignore", **kw)
        assert res is not None
    assert con.execute("SELECT answer FROM bm_stats").fetchall() == [(42,)]
    after = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    assert after == before
    assert {r[0] for r in con.execute("SELECT view_name FROM duckdb_views()").fetchall()} \
        == views
    con.execute("SELECT 1").fetchall()  # still open: the user's to close
    con.close()


def test_distinct_scores_unweighted_by_groups(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # mostly distinct scores, unweighted: DuckDB streams the cases unsorted and
    # numpy sorts them (the Collector); a few repeated scores within and across the
    # files, a group where positives are the majority, a group of one class
    rng = np.random.default_rng(11)
    n = 3000
    s = rng.random(n)
    s[rng.choice(n, 200)] = s[rng.choice(n, 200)]
    site = rng.choice(["a", "b", "c"], n)
    y = np.where(site == "b", rng.random(n) < 0.8, rng.random(n) < 0.1).astype(np.int64)
    y[site == "c"] = 0
    y[np.flatnonzero(site == "c")[0]] = 1
    df = pd.DataFrame({"y": y, "p": s, "site": site})
    path = write(df, tmp_path, "parquet", parts=4)
    from binmetrics.engines import _common

    chunks = []

    class Counting(_common.Collector):
        def add(self, chunk: dict[str, np.ndarray]) -> None:
            chunks.append(sorted(chunk))
            super().add(chunk)

    monkeypatch.setattr(_common, "Collector", Counting)
    res = evaluate_file(path, label="y", score="p", by="site", threshold=0.4, threads=2)
    assert chunks and all(c == ["gid", "is_pos", "s"] for c in chunks)  # cases, unsorted
    for key in ("a", "b", "c"):
        part = df[df.site == key]
        want = bm.evaluate(part.y, part.p, threshold=0.4)
        got = res.evaluations[key]
        assert got.table.equals(want.table) and got.table.pos.dtype == want.table.pos.dtype
        assert_same(got, want)
        assert (got.n_rows, got.n_positive_rows) == (len(part), int(part.y.sum()))


def test_distinct_share_estimated_on_a_sample(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from binmetrics.engines import files
    from binmetrics.engines._common import SORT_FRACTION

    monkeypatch.setattr(files, "SAMPLE_ROWS", 2000)
    rng = np.random.default_rng(12)
    n = 40_000
    s = rng.random(n)
    y = (rng.random(n) < 0.2).astype(np.int64)
    split = np.where(np.arange(n) < 100, "rare", "common")
    pd.DataFrame({"y": y, "p": s, "r": np.round(s, 2), "split": split}).to_parquet(
        tmp_path / "d.parquet", row_group_size=4096)
    path = tmp_path / "d.parquet"
    with FileJob(path, label="y", score="p") as job:
        st = job.stats()
        assert job._distinct_fraction(st, n) > 0.8  # continuous: sort (Collector)
    with FileJob(path, label="y", score="r") as job:
        # 101 values: group-by. The sample is whole vectors, so its size (and this estimate,
        # 0.05 to 0.1 seen under load) varies with the scan; the decision is at SORT_FRACTION
        assert job._distinct_fraction(job.stats(), n) < SORT_FRACTION / 2
    # where= keeps 100 rows: a sample holds too few of them, all rows are counted
    with FileJob(path, label="y", score="p", where="split = 'rare'") as job:
        assert job._distinct_fraction(job.stats(), 100) == pytest.approx(1.0, abs=0.05)
    for score, where in (("p", None), ("r", None), ("p", "split = 'rare'")):
        keep = split == "rare" if where else np.ones(n, bool)
        ev = evaluate_file(path, label="y", score=score, where=where)
        col = s if score == "p" else np.round(s, 2)
        assert ev.table.equals(bm.evaluate(y[keep], col[keep]).table)
