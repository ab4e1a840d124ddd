"""``evaluate_by``: per-group evaluation, calibration to a common pi0, the CLI's --by/--pi0.

Expected values come from ``bm.evaluate`` on each group's rows, never hard-coded.
"""

from __future__ import annotations

import csv
import io
import json
import math
import warnings
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.cli import main

matplotlib.use("Agg")

IDS = ["auc", "precision", "f1", "average_precision", "mcc"]
MEASURES = [bm.get_measure(i).id for i in IDS]  # ids as the result names them


@pytest.fixture
def df() -> pd.DataFrame:
    """Groups 'mar', 'jan', 'feb' (not sorted), 'dec' with no positives, 'nov' tiny."""
    rng = np.random.default_rng(7)
    parts = []
    for month, n, prev in (("mar", 80, 0.3), ("jan", 60, 0.1), ("feb", 70, 0.5)):
        y = (rng.random(n) < prev).astype(int)
        y[:2] = [1, 0]  # both classes
        p = np.clip(0.3 * y + rng.random(n) * 0.7, 0, 1)
        parts.append(pd.DataFrame({"month": month, "site": rng.choice(["a", "b"], n),
                                   "y": y, "p": p}))
    parts.append(pd.DataFrame({"month": "dec", "site": "a", "y": [0, 0, 0],
                               "p": [0.2, 0.6, 0.4]}))
    parts.append(pd.DataFrame({"month": "nov", "site": "b", "y": [1], "p": [0.9]}))
    whole = pd.concat(parts, ignore_index=True)
    order = rng.permutation(len(whole) - 4)  # shuffle the three big groups only
    return pd.concat([whole.iloc[order], whole.iloc[len(whole) - 4:]], ignore_index=True)


def quiet(f: Any, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args, **kwargs)


def key_order(values: pd.Series) -> list[Any]:
    return sorted(set(values.tolist()))


def test_groups_in_order_of_their_keys(df: pd.DataFrame) -> None:
    res = quiet(bm.evaluate_by, df, label="y", score="p", by="month", measures=IDS)
    frame = res.to_frame()
    assert frame["month"].tolist() == key_order(df["month"])
    assert frame["month"].tolist() != list(dict.fromkeys(df["month"]))  # not appearance
    assert list(res.evaluations) == frame["month"].tolist()
    assert list(frame.columns[:4]) == ["month", "n", "positives", "prevalence"]
    assert frame.columns[-1] == "reason"


def test_values_equal_evaluate_per_group(df: pd.DataFrame) -> None:
    res = quiet(bm.evaluate_by, df, label="y", score="p", by="month", measures=IDS,
                pi0=0.2, threshold=0.45)
    frame = res.to_frame().set_index("month")
    assert res.pi0 == 0.2 and frame.attrs["pi0"] == 0.2
    for month in ("mar", "jan", "feb"):
        rows = df[df["month"] == month]
        ev = quiet(bm.evaluate, rows["y"], rows["p"], threshold=0.45)
        cal = ev.calibrated(0.2)
        assert frame.loc[month, "n"] == len(rows)
        assert frame.loc[month, "positives"] == rows["y"].sum()
        assert frame.loc[month, "prevalence"] == pytest.approx(rows["y"].mean(), abs=1e-12)
        assert frame.loc[month, "reason"] == ""
        for m in MEASURES:
            assert frame.loc[month, m] == pytest.approx(quiet(ev.value, m), abs=1e-12)
            assert frame.loc[month, f"{m}_cal"] == pytest.approx(quiet(cal.value, m),
                                                                 abs=1e-12)
        assert res.evaluations[month] is not None
        assert res.calibrated_evaluations[month].pi0 == 0.2  # type: ignore[union-attr]


def test_every_registered_measure_by_default(df: pd.DataFrame) -> None:
    res = quiet(bm.evaluate_by, df, label="y", score="p", by="month")
    # every registered measure; prevalence is the fixed column, not a second one
    ids = [m.id for m in bm.iter_measures() if m.id != "prevalence"]
    assert res.measures == ids
    assert list(res.to_frame().columns) == ["month", "n", "positives", "prevalence", *ids,
                                            "reason"]


def test_pi0_mean_and_min(df: pd.DataFrame) -> None:
    for rule, agg in (("mean", np.mean), ("min", np.min)):
        res = quiet(bm.evaluate_by, df, label="y", score="p", by="month", pi0=rule,
                    measures=IDS)
        frame = res.to_frame()
        ok = frame[frame["reason"] == ""]
        assert res.pi0 == pytest.approx(float(agg(ok["prevalence"])), abs=1e-15)
        for month in ok["month"]:
            ev = res.evaluations[month]
            assert ev is not None
            row = frame[frame["month"] == month].iloc[0]
            assert row["ppv_cal"] == pytest.approx(quiet(ev.calibrated(res.pi0).value, "ppv"),
                                                   abs=1e-12)


def test_nan_rows_with_reasons(df: pd.DataFrame) -> None:
    res = quiet(bm.evaluate_by, df, label="y", score="p", by="month", pi0="mean",
                measures=IDS)
    frame = res.to_frame().set_index("month")
    assert frame.loc["dec", "reason"] == "no positives"
    assert frame.loc["dec", "n"] == 3 and frame.loc["dec", "prevalence"] == 0.0
    assert "fewer than min_cases=2" in frame.loc["nov", "reason"]
    for month in ("dec", "nov"):
        assert res.evaluations[month] is None
        assert frame.loc[month, MEASURES + [f"{m}_cal" for m in MEASURES]].isna().all()
    big = quiet(bm.evaluate_by, df, label="y", score="p", by="month", measures=["auc"],
                min_cases=61).to_frame().set_index("month")
    assert big.loc["jan", "reason"] == "60 rows, fewer than min_cases=61"
    neg = df.assign(y=1 - df["y"])
    frame2 = quiet(bm.evaluate_by, neg, label="y", score="p", by="month",
                   measures=["auc"]).to_frame().set_index("month")
    assert frame2.loc["dec", "reason"] == "no negatives"


def test_nan_scores_omitted_per_group(df: pd.DataFrame) -> None:
    d = df.copy()
    d.loc[d["month"] == "dec", "p"] = np.nan
    d.loc[d.index[0], "p"] = np.nan
    with pytest.raises(ValueError, match="nan_policy='omit'"):
        bm.evaluate_by(d, label="y", score="p", by="month", measures=["auc"])
    res = quiet(bm.evaluate_by, d, label="y", score="p", by="month", measures=["auc"],
                nan_policy="omit")
    frame = res.to_frame().set_index("month")
    assert frame.loc["dec", "reason"] == "no rows with a finite score"
    first = d.loc[d.index[0], "month"]
    ev = res.evaluations[first]
    assert ev is not None and ev.n_omitted == 1
    assert frame.loc[first, "n"] == (df["month"] == first).sum() - 1


def test_several_group_columns_give_tuple_keys(df: pd.DataFrame) -> None:
    res = quiet(bm.evaluate_by, df, label="y", score="p", by=["month", "site"],
                measures=["auc"])
    expected = sorted(set(zip(df["month"], df["site"], strict=True)))
    assert list(res.evaluations) == expected
    frame = res.to_frame()
    assert list(zip(frame["month"], frame["site"], strict=True)) == expected
    i = int(np.flatnonzero(frame["reason"] == "")[0])  # the first evaluated group
    key = expected[i]
    rows = df[(df["month"] == key[0]) & (df["site"] == key[1])]
    assert frame.loc[i, "auc"] == pytest.approx(bm.score("auc", rows["y"], rows["p"]),
                                                abs=1e-12)


def test_polars_gives_the_same_frame(df: pd.DataFrame) -> None:
    pl = pytest.importorskip("polars")
    kwargs: dict[str, Any] = dict(label="y", score="p", by=["month", "site"], pi0="mean",
                                  measures=IDS)
    a = quiet(bm.evaluate_by, df, **kwargs).to_frame()
    b = quiet(bm.evaluate_by, pl.from_pandas(df), **kwargs).to_frame()
    pd.testing.assert_frame_equal(a, b, check_exact=True)


def test_weights(df: pd.DataFrame) -> None:
    d = df.assign(w=np.arange(len(df)) % 3 + 1.0)
    res = quiet(bm.evaluate_by, d, label="y", score="p", by="month", weight="w",
                measures=["auc", "precision"])
    frame = res.to_frame().set_index("month")
    rows = d[d["month"] == "jan"]
    ev = quiet(bm.evaluate, rows["y"], rows["p"], sample_weight=rows["w"])
    assert frame.loc["jan", "auc"] == pytest.approx(ev["auc"], abs=1e-12)
    assert frame.loc["jan", "prevalence"] == pytest.approx(ev.table.prevalence, abs=1e-12)


def test_ci_columns_equal_ci_table(df: pd.DataFrame) -> None:
    ids = ["sensitivity", "auc", "f1"]
    res = quiet(bm.evaluate_by, df, label="y", score="p", by="month", measures=ids, ci=True,
                n_resamples=200, random_state=3)
    frame = res.to_frame().set_index("month")
    ev = res.evaluations["mar"]
    assert ev is not None
    table = quiet(ev.ci_table, ids, n_resamples=200, random_state=3)
    for r in table.itertuples():
        assert frame.loc["mar", f"{r.id}_low"] == pytest.approx(r.low, abs=1e-12)
        assert frame.loc["mar", f"{r.id}_high"] == pytest.approx(r.high, abs=1e-12)
    assert frame.loc["dec", ["tpr_low", "tpr_high"]].isna().all()


def test_plot_draws_raw_and_calibrated_lines(df: pd.DataFrame) -> None:
    import matplotlib.pyplot as plt

    res = quiet(bm.evaluate_by, df, label="y", score="p", by="month", pi0="mean",
                measures=IDS)
    ax = res.plot(["average_precision", "f1"])
    lines = ax.get_lines()
    assert len(lines) == 4
    assert [ln.get_linestyle() for ln in lines] == ["-", "--", "-", "--"]
    assert lines[0].get_color() == lines[1].get_color()
    frame = res.to_frame()
    np.testing.assert_array_equal(lines[1].get_ydata(), frame["average_precision_cal"])
    assert [t.get_text() for t in ax.get_xticklabels()] == frame["month"].tolist()
    ax2 = res.plot("auc", calibrated=False)
    assert len(ax2.get_lines()) == 1
    with pytest.raises(ValueError, match="not in the result"):
        res.plot(["brier"])
    plain = quiet(bm.evaluate_by, df, label="y", score="p", by="month", measures=["auc"])
    with pytest.raises(ValueError, match="pi0"):
        plain.plot("auc")
    plt.close("all")


def test_plot_draws_the_prevalence_beside_the_measure(df: pd.DataFrame) -> None:
    import matplotlib.pyplot as plt

    res = quiet(bm.evaluate_by, df, label="y", score="p", by="month", pi0="mean",
                measures=IDS)
    ax = res.plot("auc", prevalence=True)
    right = ax.right_ax
    (line,) = right.get_lines()
    frame = res.to_frame()
    np.testing.assert_array_equal(line.get_ydata(), frame["prevalence"].to_numpy(float))
    np.testing.assert_array_equal(line.get_xdata(), ax.get_lines()[0].get_xdata())
    assert right.get_ylim()[0] == 0.0 and right.get_ylabel() == "prevalence"
    assert len(ax.get_lines()) == 2  # the measure and its calibrated form stay on the left
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[-1] == "prevalence (right axis)" and len(legend) == 3
    plt.close("all")


@pytest.mark.parametrize("pi0", [0, 1.5, 1, -0.1, "median", True, float("nan")])
def test_bad_pi0(df: pd.DataFrame, pi0: Any) -> None:
    with pytest.raises((ValueError, TypeError), match="pi0"):
        bm.evaluate_by(df, label="y", score="p", by="month", pi0=pi0)


def test_missing_column_lists_available(df: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"group column 'mnth' not found.*did you mean "
                                         r"'month'.*available columns: month, site, y, p"):
        bm.evaluate_by(df, label="y", score="p", by="mnth")
    with pytest.raises(ValueError, match="score column 'q' not found"):
        bm.evaluate_by(df, label="y", score="q", by="month")
    with pytest.raises(TypeError, match="pandas or polars DataFrame"):
        bm.evaluate_by(df.to_dict(), label="y", score="p", by="month")
    with pytest.raises(TypeError, match="by must be"):
        bm.evaluate_by(df, label="y", score="p", by=[])
    with pytest.raises(ValueError, match="min_cases"):
        bm.evaluate_by(df, label="y", score="p", by="month", min_cases=0)


# --- CLI ---------------------------------------------------------------------------------
@pytest.fixture
def data_file(df: pd.DataFrame, tmp_path: Path) -> Path:
    path = tmp_path / "preds.csv"
    df.to_csv(path, index=False)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_by_json(capsys: pytest.CaptureFixture[str], data_file: Path,
                     df: pd.DataFrame) -> None:
    code, out, _ = run(capsys, "evaluate", str(data_file), "--label", "y", "--score", "p",
                       "--by", "month", "--pi0", "mean", "--measures", ",".join(IDS),
                       "--format", "json")
    assert code == 0
    obj = json.loads(out)
    res = quiet(bm.evaluate_by, df, label="y", score="p", by="month", pi0="mean",
                measures=IDS)
    assert obj["pi0"] == res.pi0 and obj["by"] == ["month"]
    assert [g["group"]["month"] for g in obj["groups"]] == key_order(df["month"])
    frame = res.to_frame()
    for g, (_, row) in zip(obj["groups"], frame.iterrows(), strict=True):
        assert g["reason"] == row["reason"] and g["n"] == row["n"]
        for m in MEASURES:
            for got, want in ((g["measures"][m], row[m]), (g["calibrated"][m], row[f"{m}_cal"])):
                assert (got is None and math.isnan(want)) or got == pytest.approx(want,
                                                                                  abs=1e-12)


def test_cli_by_csv_is_the_frame(capsys: pytest.CaptureFixture[str], data_file: Path,
                                 df: pd.DataFrame) -> None:
    code, out, _ = run(capsys, "evaluate", str(data_file), "--label", "y", "--score", "p",
                       "--by", "month,site", "--measures", "auc,f1", "--ci", "--seed", "0",
                       "--resamples", "100", "--format", "csv")
    assert code == 0
    got = pd.read_csv(io.StringIO(out), keep_default_na=False, na_values=["NaN"])
    want = quiet(bm.evaluate_by, df, label="y", score="p", by=["month", "site"],
                 measures=["auc", "f1"], ci=True, n_resamples=100,
                 random_state=0).to_frame()
    assert list(got.columns) == list(want.columns)
    assert got["reason"].tolist() == want["reason"].tolist()
    for c in ["auc", "f1", "auc_low", "f1_high"]:
        np.testing.assert_allclose(got[c], want[c], rtol=0, atol=1e-12)
    assert len(list(csv.reader(io.StringIO(out)))) == len(want) + 1


def test_cli_by_table_is_long(capsys: pytest.CaptureFixture[str], data_file: Path) -> None:
    code, out, _ = run(capsys, "evaluate", str(data_file), "--label", "y", "--score", "p",
                       "--by", "month", "--pi0", "0.25", "--measures", "auc,mcc")
    assert code == 0
    assert "pi0:        0.25" in out
    assert "no positives" in out and "fewer than min_cases=2" in out
    long = [ln.split() for ln in out.splitlines() if ln.split()[1:2] in (["auc"], ["mcc"])]
    assert len(long) == 2 * 5  # one line per group and measure
    assert out.splitlines()[-12].split() == ["month", "id", "value", "value_cal"]


def test_cli_pi0_without_by(capsys: pytest.CaptureFixture[str], data_file: Path,
                            df: pd.DataFrame) -> None:
    code, out, _ = run(capsys, "evaluate", str(data_file), "--label", "y", "--score", "p",
                       "--pi0", "0.1", "--measures", "precision,auc", "--format", "json")
    assert code == 0
    obj = json.loads(out)
    cal = quiet(bm.evaluate, df["y"], df["p"], pi0=0.1)
    assert obj["pi0"] == 0.1
    assert obj["calibrated"]["ppv"] == pytest.approx(cal["ppv"], abs=1e-12)
    assert obj["calibrated"]["auc"] == pytest.approx(cal["auc"], abs=1e-12)
    code, out, _ = run(capsys, "evaluate", str(data_file), "--label", "y", "--score", "p",
                       "--pi0", "0.1", "--measures", "precision", "--format", "csv")
    assert code == 0 and out.splitlines()[0].startswith("id,value,value_cal,")
    code, out, _ = run(capsys, "evaluate", str(data_file), "--label", "y", "--score", "p",
                       "--pi0", "0.1", "--measures", "precision")
    assert code == 0 and "value_cal" in out


@pytest.mark.parametrize("extra, message", [
    (["--by", "mnth"], "column 'mnth' not found"),
    (["--by", "month", "--pi0", "0"], "--pi0 must be a number"),
    (["--pi0", "1.5"], "--pi0 must be a number"),
    (["--by", "month", "--pi0", "median"], "--pi0 must be a number"),
])
def test_cli_errors_write_nothing(capsys: pytest.CaptureFixture[str], data_file: Path,
                                  tmp_path: Path, extra: list[str], message: str) -> None:
    target = tmp_path / "out.json"
    code, out, err = run(capsys, "evaluate", str(data_file), "--label", "y", "--score", "p",
                         *extra, "--output", str(target))
    assert code == 2 and out == "" and not target.exists()
    assert message in err


def test_datetime_keys_stay_timestamps() -> None:
    pl = pytest.importorskip("polars")
    d = pd.DataFrame({"day": pd.to_datetime(["2024-02-01"] * 4 + ["2024-01-01"] * 4),
                      "y": [1, 0, 1, 0] * 2, "p": [0.9, 0.1, 0.6, 0.7] * 2})
    a = quiet(bm.evaluate_by, d, label="y", score="p", by="day", measures=["auc"]).to_frame()
    # time order, not the order of appearance
    assert a["day"].tolist() == [pd.Timestamp("2024-01-01"), pd.Timestamp("2024-02-01")]
    b = quiet(bm.evaluate_by, pl.from_pandas(d), label="y", score="p", by="day",
              measures=["auc"]).to_frame()
    pd.testing.assert_frame_equal(a, b)


def test_default_measures_give_one_prevalence_column() -> None:
    import pandas as pd

    df = pd.DataFrame({"g": ["a"] * 6 + ["b"] * 4,
                       "y": [1, 0, 1, 0, 0, 1, 0, 0, 0, 0],
                       "p": [.9, .2, .7, .4, .3, .6, .5, .1, .2, .8]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = bm.evaluate_by(df, label="y", score="p", by="g").to_frame()
    assert list(frame.columns).count("prevalence") == 1
    assert frame.set_index("g").loc["b", "prevalence"] == 0.0  # no positives: 0, not NaN


def test_calibrated_intervals_with_ci_and_pi0(df: pd.DataFrame) -> None:
    res = quiet(bm.evaluate_by, df, label="y", score="p", by="month", pi0=0.3,
                measures=["precision"], ci=True, n_resamples=100, random_state=0)
    frame = res.to_frame()
    for key, cal in res.calibrated_evaluations.items():
        row = frame[frame["month"] == key].iloc[0]
        if cal is None:
            assert np.isnan(row["ppv_cal_low"])
            continue
        exp = quiet(cal.ci, "precision", n_resamples=100, random_state=0)
        assert (row["ppv_cal_low"], row["ppv_cal_high"]) == (exp.low, exp.high)
        assert row["ppv_cal_low"] <= row["ppv_cal"] <= row["ppv_cal_high"]


def test_key_order_dates_categories_missing_and_mixed() -> None:
    rng = np.random.default_rng(3)
    n = 400
    days = pd.to_datetime(["2024-03-01", "2023-12-31", "2024-01-15", "2024-02-29"])
    d = pd.DataFrame({"y": rng.integers(0, 2, n), "p": rng.random(n),
                      "day": rng.choice(days, n),
                      "size": pd.Categorical(rng.choice(["S", "M", "L"], n),
                                             categories=["S", "M", "L"], ordered=True),
                      "site": rng.choice(np.array(["b", "a", None], dtype=object), n),
                      "num": rng.choice([10, 9, 100], n)})
    keys = {b: quiet(bm.evaluate_by, d, label="y", score="p", by=b, measures=["auc"]).keys
            for b in ("day", "size", "site", "num")}
    assert keys["day"] == sorted(days)                    # time order
    assert keys["size"] == ["S", "M", "L"]                # the categories' order
    assert keys["site"][:2] == ["a", "b"] and keys["site"][2] is None  # missing last
    assert keys["num"] == [9, 10, 100]                    # numeric, not "10" < "9"
    two = quiet(bm.evaluate_by, d, label="y", score="p", by=["size", "day"], measures=["auc"])
    assert two.keys == [(s, t) for s in ["S", "M", "L"] for t in sorted(days)]
