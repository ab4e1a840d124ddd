"""Jupyter rendering: every measure with its value, and its formula and source on hover."""

from __future__ import annotations

import html
import re
import warnings

import pandas as pd

import binmetrics as bm
from binmetrics.evaluation.summary import main_measures

Y = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
S = [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]


def rows(markup: str) -> dict[str, tuple[str, str]]:
    """measure id -> (tooltip, shown value)."""
    found = re.findall(r'<tr title="([^"]*)"><td[^>]*>([a-z0-9_]+)</td><td>(.*?)</td>', markup)
    return {mid: (html.unescape(tip), value) for tip, mid, value in found}


def test_evaluation_html_lists_every_measure_with_source():
    ev = bm.evaluate(Y, S, threshold=0.55)
    main, folded = ev._repr_html_().split("<details>")
    assert list(rows(main)) == main_measures(ev.table)  # short first, as the repr
    shown = rows(folded)
    values = ev.to_dict()
    assert list(shown) == list(values)
    for mid, v in values.items():
        m = bm.get_measure(mid)
        tip, text = shown[mid]
        assert m.source in tip and m.formula in tip
        assert text == f"{v:.6g}"


def test_undefined_values_render_quietly_as_nan():
    ev = bm.evaluate([1, 1, 1], [0.2, 0.4, 0.9])  # one class: the ranking measures are undefined
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        shown = rows(ev._repr_html_())
    assert "NaN" in shown["auc"][1]


def test_multiclass_and_srd_render():
    mev = bm.evaluate([0, 1, 2, 1], [[.6, .3, .1], [.2, .7, .1], [.2, .5, .3], [.3, .4, .3]])
    assert rows(mev._repr_html_())["accuracy"][1] == "0.75"
    res = bm.srd(pd.DataFrame({"a": [1, 2, 3, 4], "b": [2, 1, 4, 3], "c": [4, 3, 2, 1]}))
    assert "<table" in res._repr_html_() and "srd_pct" in res._repr_html_()
