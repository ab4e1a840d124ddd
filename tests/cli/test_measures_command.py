"""``binmetrics measures``: the registry's listing, with each measure's prevalence
dependence."""

from __future__ import annotations

import json
from typing import Any

import binmetrics as bm


def test_measures_lists_prevalence_dependence(cli: Any) -> None:
    out = cli("measures")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "prevalence" in lines[0]
    row = {ln.split()[0]: ln for ln in lines[1:] if ln.strip()}
    assert " dependent" in row["ppv"] and "independent" in row["tpr"]
    assert "independent" in row["auc"] and " dependent" in row["best_f1"]


def test_measures_json_has_the_field(cli: Any) -> None:
    out = cli("measures", "--format", "json")
    assert out.returncode == 0, out.stderr
    records = {r["id"]: r for r in json.loads(out.stdout)}
    for m in bm.iter_measures():
        assert records[m.id]["prevalence_dependent"] is m.prevalence_dependent
