"""Issue 33, point 7: a result's repr keeps its row labels (the models of a rank
comparison, the regions of a Bayesian test), as print and to_frame() do."""

from __future__ import annotations

import numpy as np
import pandas as pd

import binmetrics as bm
from binmetrics.formatting import frame_html, frame_text


def _scores() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame(rng.random((10, 3)), columns=["lr", "gb", "rf"])


def test_rank_comparison_repr_names_the_models() -> None:
    res = bm.rank_comparison(_scores())
    lines = repr(res).splitlines()
    assert lines[1].split()[0] == "model"
    frame = res.to_frame()
    assert [line.split()[0] for line in lines[2:]] == [str(m) for m in frame.index]
    assert "<td>gb</td>" in res._repr_html_() or ">gb<" in res._repr_html_()


def test_bayesian_repr_names_the_regions() -> None:
    df = _scores()
    res = bm.bayesian_signed_rank(df["lr"], df["gb"], rope=0.01, random_state=0)
    text = repr(res)
    for region in ("A better", "equivalent", "B better"):
        assert region in text
    assert "region" in text.splitlines()[1]


def test_frame_text_keeps_labels_but_not_positions() -> None:
    plain = pd.DataFrame({"v": [1.5, 2.5]})
    assert frame_text("t", plain).splitlines()[1].split() == ["v"]
    named = plain.set_axis(pd.Index(["a", "b"], name="model"))
    assert frame_text("t", named).splitlines()[1:] == ["model   v", "a     1.5", "b     2.5"]
    assert "model" in frame_html("t", named)
    unnamed = plain.set_axis(["a", "b"])
    assert [line.split()[0] for line in frame_text("t", unnamed).splitlines()[2:]] == ["a",
                                                                                       "b"]
