"""``binmetrics threshold``: the same cuts as the API, as a table, JSON and CSV, and its
input errors on one line (exit 2)."""

from __future__ import annotations

import io
import json

import pandas as pd
import pytest

import binmetrics as bm


def _ev(preds):
    df = pd.read_csv(preds)
    return bm.evaluate(df.y.to_numpy(), df.p.to_numpy())


def test_constrained_cut_and_guarantee_as_json_equal_the_api(cli, preds):
    r = cli("threshold", str(preds), "--label", "y", "--score", "p", "--maximize", "tpr",
            "--subject-to", "ppv>=0.6", "--subject-to", "tnr>=0.5", "--guarantee", "ppv>=0.6",
            "--ci-level", "0.9", "--format", "json")
    assert r.returncode == 0, r.stderr
    best, g = json.loads(r.stdout)
    ev = _ev(preds)
    api = ev.best_threshold("tpr", subject_to={"ppv": (">=", 0.6), "tnr": (">=", 0.5)})
    # the CLI reads the scores as written (its float parser may differ in the last bit)
    assert best["threshold"] == pytest.approx(api.threshold, rel=1e-15)
    assert (best["value"], best["tp"]) == (api.value, api.confusion.tp)
    assert best["subject_to"] == "ppv >= 0.6, tnr >= 0.5"
    ga = ev.threshold_with_guarantee("ppv", at_least=0.6, level=0.9)
    assert g["result"] == "guarantee" and g["bound"] == ga.bound
    assert g["threshold"] == pytest.approx(ga.threshold, rel=1e-15)


def test_costs_with_a_bootstrap_as_csv(cli, preds):
    r = cli("threshold", str(preds), "--label", "y", "--score", "p", "--cost-fp", "1",
            "--cost-fn", "5", "--ci", "--resamples", "50", "--seed", "0", "--format", "csv")
    assert r.returncode == 0, r.stderr
    row = pd.read_csv(io.StringIO(r.stdout)).iloc[0]
    api = _ev(preds).best_threshold("expected_cost", cost_fp=1, cost_fn=5, ci=True,
                                    n_resamples=50, random_state=0)
    assert row.measure == "expected_cost"
    assert row.threshold == pytest.approx(api.threshold, rel=1e-15)
    assert row.threshold_ci_low == pytest.approx(api.threshold_ci.low)
    assert row.optimism == pytest.approx(api.optimism)


def test_per_case_costs_from_columns(cli, preds, tmp_path):
    df = pd.read_csv(preds)
    df["amount"] = (df.q * 100).round(2)
    path = tmp_path / "costs.csv"
    df.to_csv(path, index=False)
    r = cli("threshold", str(path), "--label", "y", "--score", "p", "--case-cost-fn",
            "amount", "--format", "json")
    assert r.returncode == 0, r.stderr
    (row,) = json.loads(r.stdout)
    d = pd.read_csv(path)
    api = bm.evaluate(d.y.to_numpy(), d.p.to_numpy(), case_cost_fn=d.amount.to_numpy()) \
        .best_threshold("expected_cost")
    assert row["measure"] == "expected_cost" and row["value"] == pytest.approx(api.value)
    bad = cli("threshold", str(path), "--label", "y", "--score", "p", "--case-cost-fn", "g2")
    assert bad.returncode == 2 and "g2" in bad.stderr


def test_table_output_and_an_infeasible_constraint(cli, preds):
    r = cli("threshold", str(preds), "--label", "y", "--score", "p", "--maximize", "tpr",
            "--subject-to", "ppv>=1", "--subject-to", "tnr<0.5")
    assert r.returncode == 0, r.stderr
    assert "best cut" in r.stdout and "False" in r.stdout and "no cut meets" in r.stdout
    assert "warning: tpr is undefined: no cut meets" in r.stderr


@pytest.mark.parametrize(("argv", "message"), [
    (["--maximize", "expected_cost"], "use --minimize expected_cost"),
    (["--maximize", "tpr", "--subject-to", "ppv>=1.5"], "outside its range"),
    (["--maximize", "tpr", "--subject-to", "ppv=0.9"], "write it as 'measure>=bound'"),
    (["--maximize", "tpr", "--subject-to", "nosuch>=0.5"], "unknown measure 'nosuch'"),
    (["--maximize", "tpr", "--cost-fn", "5"], "use --minimize expected_cost"),
    (["--cost-fn", "-1"], "--cost-fn must be a finite cost >= 0"),
    (["--guarantee", "auc>=0.8"], "auc has no exact guarantee"),
    (["--guarantee", "ppv=0.8"], "cannot read --guarantee"),
    ([], "say what to choose"),
])
def test_bad_options_are_one_line_errors(cli, preds, argv, message):
    r = cli("threshold", str(preds), "--label", "y", "--score", "p", *argv)
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], r.stderr
