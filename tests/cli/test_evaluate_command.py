"""``binmetrics evaluate`` as a newcomer runs it (a subprocess, ``python -m binmetrics``):
caveats only for the measures shown, ``--summary``, a threshold outside the scores'
range, and a header that names the engine and why."""

from __future__ import annotations

import json


def test_caveat_only_when_shown_and_once(cli, preds):
    p = cli("evaluate", str(preds), "--label", "y", "--score", "p", "--measures", "auc,mcc")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    p = cli("evaluate", str(preds), "--label", "y", "--score", "p", "--by", "g", "--pi0", "0.5")
    assert p.returncode == 0, p.stderr
    assert "bedroc" not in p.stderr, p.stderr  # a judgement: for those who ask for it
    p = cli("evaluate", str(preds), "--label", "y", "--score", "p", "--by", "g", "--pi0", "0.5",
            "--measures", "auc,bedroc")
    assert p.returncode == 0, p.stderr
    assert p.stderr.count("bedroc") == 1, p.stderr


def test_summary(cli, preds):
    p = cli("evaluate", str(preds), "--label", "y", "--score", "p", "--summary")
    assert p.returncode == 0, p.stderr
    for word in ("engine:", "per class:", "precision", "recall", "support", "threshold 0.5"):
        assert word in p.stdout
    p = cli("evaluate", str(preds), "--label", "y", "--score", "p", "--summary", "--ci",
            "--seed", "0", "--resamples", "200", "--format", "json")
    doc = json.loads(p.stdout)
    assert {m["id"] for m in doc["measures"]} >= {"tpr", "ppv", "mcc", "auc"}
    assert all(m["low"] <= m["value"] <= m["high"] for m in doc["measures"])


def test_threshold_outside_the_scores_range_warns(cli, preds):
    p = cli("evaluate", str(preds), "--label", "y", "--score", "p", "--threshold", "1.5",
            "--measures", "tpr")
    assert p.returncode == 0
    assert "--threshold 1.5 is outside the scores' range" in p.stderr
    assert "predicted negative" in p.stderr


def test_header_names_the_engine_and_why(cli, preds):
    p = cli("evaluate", str(preds), "--label", "y", "--score", "p", "--measures", "auc")
    assert "engine:     numpy (in memory with pandas: the file is" in p.stdout
    p = cli("evaluate", str(preds), "--label", "y", "--score", "p", "--measures", "auc",
            "--engine", "numpy", "--format", "json")
    assert json.loads(p.stdout)["engine"] == "numpy (--engine numpy)"



def test_an_empty_measures_list_is_refused(cli, preds):
    """--measures '' evaluated every measure (evaluate) or the defaults (compare)."""
    for cmd, score in (("evaluate", "p"), ("compare", "p,q")):
        for spec in ("", ","):
            p = cli(cmd, str(preds), "--label", "y", "--score", score, "--measures", spec)
            assert p.returncode == 2 and p.stdout == "", (cmd, spec, p.stdout[:200])
            assert p.stderr.strip() == ("binmetrics: error: --measures is empty; give "
                                        "comma-separated ids, e.g. auc,mcc"), p.stderr


def test_by_groups_with_intervals_and_every_measure(cli, preds):
    # every measure includes prevalence, which describes the group and has no interval
    # columns in evaluate_by's frame: the command printed "error: prevalence_low"
    p = cli("evaluate", str(preds), "--label", "y", "--score", "p", "--by", "g", "--ci",
            "--seed", "0", "--resamples", "50", "--format", "json")
    assert p.returncode == 0, p.stderr
    group = json.loads(p.stdout)["groups"][0]
    assert group["intervals"]["prevalence"] == {"low": None, "high": None}
    low, high = group["intervals"]["auc"]["low"], group["intervals"]["auc"]["high"]
    assert low < group["measures"]["auc"] < high
