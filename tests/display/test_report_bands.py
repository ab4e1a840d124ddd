"""The HTML report's precision-recall band (issue 31): with ``ci`` each model's pointwise
PR band is drawn beneath its line on the precision-recall chart, and a note says it is
pointwise; without ``ci`` there is none."""

from __future__ import annotations

import json
import re
import warnings
from typing import Any

import numpy as np

import binmetrics as bm
from binmetrics.display.report import report

Y = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
S = [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]


def embedded(page: str) -> dict[str, Any]:
    m = re.search(r'<script type="application/json" id="bm-data">(.*?)</script>', page, re.S)
    assert m is not None
    return json.loads(m.group(1))


def test_ci_draws_the_pointwise_pr_band() -> None:
    ev = bm.evaluate(Y, S)
    with warnings.catch_warnings():  # the intervals' own caveats, not this test's subject
        warnings.simplefilter("ignore")
        page = report(ev, ci={"n_resamples": 200, "random_state": 0})
    data = embedded(page)
    pr = next(c for c in data["charts"] if c["id"] == "pr")
    bands = [s for s in data["models"][0]["charts"]["pr"] if s[2] == "band"]
    assert len(bands) == 1 and data["models"][0]["charts"]["pr"][0][2] == "band"
    xs, ys, _, label, _ = bands[0]
    band = ev.pr().ci_band(recall=np.linspace(0, 1, 101), n_resamples=200, random_state=0)
    lo_x, hi_x = pr["x"]
    lo_y, hi_y = pr["y"]
    np.testing.assert_allclose(np.asarray(xs) * (hi_x - lo_x) + lo_x,
                               np.r_[band.recall, band.recall[::-1]], atol=1e-5)
    np.testing.assert_allclose(np.asarray(ys) * (hi_y - lo_y) + lo_y,
                               np.r_[band.high, band.low[::-1]], atol=1e-5)
    assert label.startswith("95% pointwise band of the precision")
    assert "pointwise bootstrap intervals of the precision" in page
    plain = embedded(report(ev))
    assert all(s[2] != "band" for s in plain["models"][0]["charts"].get("pr", []))
