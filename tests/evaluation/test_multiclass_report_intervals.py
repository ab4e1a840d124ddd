"""The intervals of a multiclass evaluation in its HTML page (issue 31): ``to_html(ci=...)``
and ``bm.report(mev, ci=...)`` show the numbers of ``mev.ci_table()`` on the same seed,
averaged and per class; without ``ci`` nothing is resampled."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.evaluation.multiclass import evaluate_multiclass
from binmetrics.evaluation.row_bootstrap import RowSampler


def _mev() -> Any:
    rng = np.random.default_rng(2)
    proba = rng.dirichlet(np.ones(3), size=90)
    y = np.array([rng.choice(3, p=0.5 * row + 0.5 / 3) for row in proba])
    return evaluate_multiclass(y, proba)


def _cells(page: str, css: str) -> list[list[str]]:
    """The rows of one interval table: the texts of the key cells and the data-values."""
    table = re.search(rf'<table class="{css}">.*?<tbody>(.*?)</tbody></table>', page, re.S)
    assert table is not None, css
    rows = re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S)
    out = []
    for r in rows:
        cells = []
        for attrs, text in re.findall(r"<td([^>]*)>([^<]*)</td>", r):
            value = re.search(r"data-value='([^']*)'", attrs)
            cells.append((value.group(1) if value else "", text))
        out.append(cells)
    return out


@pytest.mark.parametrize("how", ["to_html", "report"])
def test_page_shows_the_numbers_of_ci_table_on_the_same_seed(how: str) -> None:
    mev = _mev()
    opts = {"n_resamples": 300, "random_state": 4}
    page = (mev.to_html(ci=opts) if how == "to_html"
            else bm.report(mev, ci=opts))
    want = mev.ci_table(per_class=True, **opts)
    assert "<h2>Intervals</h2>" in page and "random_state=4" in page
    averaged = want[want["class"].isna()]
    per = want[want["class"].notna()]
    for css, rows, key in (("bm-intervals", averaged, "average"),
                           ("bm-intervals-per-class", per, "class")):
        got = _cells(page, css)
        assert len(got) == len(rows) > 0
        for cells, (_, row) in zip(got, rows.iterrows(), strict=True):
            shown = str(int(row[key])) if key == "class" else row[key]  # 0.0 is class 0
            assert [c[1] for c in cells[:2]] == [row.measure, shown]
            values = [float(c[0]) for c in cells[2:6]]
            assert values == [row.estimate, row.low, row.high, row.n_undefined]
            assert cells[6][1] == f"{row.level:g}" and cells[7][1] == row.ci_method
    # per class: the one-vs-rest value of each measure in each class
    for _, group in per.groupby("measure"):
        assert group["class"].tolist() == mev.classes
    assert set(per.measure) == set(averaged.measure)


def test_ci_true_uses_ci_table_defaults_and_options_pass_through() -> None:
    mev = _mev()
    page = mev.to_html(ci={"measures": ["accuracy", "auc"], "n_resamples": 200,
                           "random_state": 1, "level": 0.9, "per_class": False})
    got = _cells(page, "bm-intervals")
    want = mev.ci_table(["accuracy", "auc"], n_resamples=200, random_state=1, level=0.9)
    assert [float(r[3][0]) for r in got] == want.low.tolist()
    assert "bm-intervals-per-class" not in page and "90% bootstrap-percentile" in page


def test_without_ci_nothing_is_resampled(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("resampled without ci")

    mev = _mev()
    monkeypatch.setattr(RowSampler, "streams", refuse)
    for page in (mev.to_html(), bm.report(mev), mev.to_html(ci=False)):
        assert "Intervals" not in page and "Classification report" in page
    with pytest.raises(AssertionError, match="resampled"):  # the patch is what resamples
        mev.to_html(ci={"n_resamples": 10})


def test_bad_ci_is_one_line() -> None:
    with pytest.raises(TypeError, match=r"^ci must be True, False or a mapping[^\n]*$"):
        _mev().to_html(ci="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="average must be one of"):
        _mev().to_html(ci={"average": "nope", "n_resamples": 10})
