"""The study's HTML report (study/report.py, ``Study.report``): its numbers are
the study's own analyses (rank comparison, SRD, ANOVA), its figures are embedded, it is
self-contained, it says what it left out, and it is written atomically after the path
is checked."""

from __future__ import annotations

import base64
import importlib
import os
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from binmetrics.study import Study, benchmark, example_study
from binmetrics.study.report import study_report

pytest.importorskip("matplotlib")
SRD = {"measures": {"repeats": 2}}


@pytest.fixture(scope="module")
def study() -> Study:
    return example_study()


@pytest.fixture(scope="module")
def page(study: Study) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return study_report(study, measures=["auc", "brier"], srd=SRD)


def values(page: str, table_id: str) -> list[list[str]]:
    """The cells of a table of the page: data-value where there is one, else the text."""
    m = re.search(rf"<table class='study' id='{table_id}'>(.*?)</table>", page, re.S)
    assert m is not None, table_id
    rows = re.findall(r"<tr>(.*?)</tr>", m.group(1), re.S)[1:]  # past the header
    return [[v if v else t for v, t in re.findall(
        r"<td(?: class='v' data-value='([^']*)')?>([^<]*)</td>", r)] for r in rows]


def number(page: str, label: str) -> float:
    m = re.search(rf"{re.escape(label)}<span class='v' data-value='([^']*)'>", page)
    assert m is not None, label
    return float(m.group(1))


@pytest.mark.parametrize("measure", ["auc", "brier"])
def test_rank_comparison_is_the_studys(study: Study, page: str, measure: str) -> None:
    res = study.rank_comparison(measure)
    post = res.posthoc("nemenyi")
    sec = page[page.index(f"id='bm-ranks-{measure}'"):]
    sec = sec[:sec.index("</section>")]
    assert number(sec, "Friedman χ² = ") == res.friedman.statistic
    assert number(sec, "Iman-Davenport F = ") == res.iman_davenport.statistic
    assert number(sec, "critical difference ") == post.critical_difference
    ranks = values(sec, f"bm-ranks-{measure}-average-ranks")
    assert [r[0] for r in ranks] == res.average_ranks.index.tolist()  # best first
    assert [float(r[1]) for r in ranks] == res.average_ranks.tolist()
    table = values(sec, f"bm-ranks-{measure}-posthoc")
    assert [float(r[5]) for r in table] == post.table["pvalue_adjusted"].tolist()
    assert [r[6] for r in table] == ["yes" if s else "no" for s in post.table["significant"]]
    # the critical-difference diagram: an SVG naming every model and the CD
    img = re.search(rf"id='bm-ranks-{measure}-cd'><img alt='[^']*' "
                    r"src='data:image/svg\+xml;base64,([^']*)'>", sec)
    assert img is not None
    svg = base64.b64decode(img.group(1)).decode("utf-8")
    assert "<svg" in svg and all(m in svg for m in study.models)
    assert f"CD = {post.critical_difference:.3f}" in svg


def test_srd_and_anova_are_the_studys(study: Study, page: str) -> None:
    srd_m = study.srd_measures(**SRD["measures"])
    srd_mod = study.srd_models()
    got = values(page, "bm-srd-measures-table")
    assert [float(r[-1]) for r in got] == srd_m.summary()["srd_pct"].tolist()
    got = values(page, "bm-srd-models-table")
    assert [float(r[-1]) for r in got] == srd_mod.summary()["srd_pct"].tolist()
    for kind, srd in (("measures", srd_m), ("models", srd_mod)):
        a = study.anova(kind, srd=srd)
        got = values(page, f"bm-anova-{kind}-table")
        assert [r[0] for r in got] == a.table["term"].tolist()
        f_col = list(a.table.columns).index("F")
        assert np.allclose([float(r[f_col]) for r in got[:-1]], a.table["F"].iloc[:-1],
                           rtol=0, atol=0)
        assert f"id='bm-anova-{kind}-means'" in page
        assert len(re.findall(rf"id='bm-srd-{kind}-fig-\d+'", page)) == len(srd)
    # the SRD, ANOVA and CD figures sit in one page with the study's table
    results = values(page, "bm-results-table")
    assert len(results) == len(study.wide())
    assert float(results[0][5]) == study.wide().iloc[0, 0]


def test_self_contained_and_escaped() -> None:
    X, y = make_classification(120, n_features=4, n_informative=3, n_redundant=0,
                               random_state=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        st = benchmark({"<b>nb</b>": GaussianNB(), "tree": DecisionTreeClassifier(max_depth=2)},
                       {"a": (X, y), "b": (X[:, ::-1], y)}, cv=3, measures=["auc", "brier"])
        page = study_report(st, srd=False)
    assert "<script" not in page and "<link" not in page and "@import" not in page
    assert "http://" not in page and "https://" not in page
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page, re.I)
    assert "<b>nb</b>" not in page and "&lt;b&gt;nb&lt;/b&gt;" in page
    assert "id='bm-srd'" not in page and "id='bm-anova'" not in page  # srd=False
    assert "id='bm-ranks-auc-cd'" in page and "id='bm-ranks-brier-cd'" in page
    assert page.count("<img ") == 2


def test_what_cannot_be_run_is_left_out_with_its_reason() -> None:
    X, y = make_classification(90, n_features=4, n_informative=3, n_redundant=0,
                               random_state=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one = benchmark({"nb": GaussianNB(), "tree": DecisionTreeClassifier(max_depth=2)},
                        {"a": (X, y)}, cv=None, balance="balanced", measures=["auc"])
        page = one.report()
    # a single block: no Friedman test; test validation only: no SRD cross-validation
    notes = page[page.index("id='bm-notes'"):]
    assert "Rank comparison of auc left out:" in notes and "2 data sets" in notes
    assert "class='warn'" in page[page.index("id='bm-ranks-auc'"):]
    assert "id='bm-ranks-auc-cd'" not in page


def test_study_report_is_reached_from_the_study(study: Study, page: str,
                                                tmp_path: Path) -> None:
    out = tmp_path / "study.html"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        again = study.report(out, measures=["auc", "brier"], srd=SRD)
    assert again == page  # deterministic: the same study gives the same file
    assert out.read_text(encoding="utf-8") == page
    assert [p.name for p in tmp_path.iterdir()] == ["study.html"]


def test_default_measures_and_validation(study: Study) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        page = study_report(study, srd=False)
        cv = study_report(study, srd=False, validation="cv", test="holm", control="knn")
    ranked = re.findall(r"id='bm-ranks-([a-z_0-9]+)'>", page)
    # eight measures with a direction in the study: every one is ranked, in its order
    assert ranked == study.measures
    assert "test validation)" in page and "cv validation)" in cv
    assert "holm post-hoc test against knn" in cv


def test_bad_paths_fail_before_any_work(study: Study, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    mod = importlib.import_module("binmetrics.study.report")

    def boom(*a: Any, **k: Any) -> None:
        raise AssertionError("work started before the path was checked")

    monkeypatch.setattr(mod, "_ranks_section", boom)
    with pytest.raises(ValueError, match="does not exist"):
        study.report(tmp_path / "missing" / "r.html")
    with pytest.raises(ValueError, match="is a directory"):
        study.report(tmp_path)
    data = tmp_path / "data.csv"
    data.write_text("x\n", encoding="utf-8")
    with pytest.raises(ValueError, match="it is the input"):
        study.report(tmp_path / "." / "data.csv", inputs=[data])
    assert data.read_text(encoding="utf-8") == "x\n"


def test_atomic_write(study: Study, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "r.html"
    out.write_text("old report", encoding="utf-8")

    def failing(src: Any, dst: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises(OSError, match="No space left"):
        study.report(out, measures="auc", srd=False)
    assert out.read_text(encoding="utf-8") == "old report"
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]


def test_bad_arguments(study: Study) -> None:
    with pytest.raises(TypeError, match="takes a Study"):
        study_report("study.csv")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="did not compute"):
        study.report(measures="tpr")
    with pytest.raises(ValueError, match="validation must be"):
        study.report(validation="train")
    with pytest.raises(ValueError, match="test must be one of"):
        study.report(test="tukey")
    with pytest.raises(ValueError, match="alpha must be"):
        study.report(alpha=1.5)
    with pytest.raises(ValueError, match="control 'svm' is not a model"):
        study.report(control="svm")
    with pytest.raises(TypeError, match="srd must be"):
        study.report(srd={"models": {}, "both": {}})
    with pytest.raises(ValueError, match=r"srd\['measures'\] is an SRD of the models"):
        study.report(srd={"measures": study.srd_models()})
    with pytest.raises(TypeError, match=r"srd\['models'\] must be a mapping"):
        study.report(srd={"models": 7})


def test_computed_srd_is_reused(study: Study, page: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        again = study_report(study, measures=["auc", "brier"], srd={
            "measures": study.srd_measures(**SRD["measures"]), "models": study.srd_models()})
    assert again == page
