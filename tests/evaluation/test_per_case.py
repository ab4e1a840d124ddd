"""Per-case scores (Berrar Defs. 22, 23, 35, Fig. 8b): ``bm.per_case_scores`` and
``ev.per_case()`` against the paper's numbers, a direct implementation written here, the
registry's means and scikit-learn."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.engines import binned_table

Y = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
P = [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]
MEANS = {"information_score": "information_score", "focal_loss": "focal_loss",
         "hinge_loss": "hinge_loss", "log_loss": "log_loss", "squared_error": "brier"}


def _direct(y: int, p: float, *, prior: float, gamma: float, alpha: float | None,
            base: float, eps: float = 1e-15) -> dict[str, float]:
    """Berrar's per-case formulas, one case at a time."""
    lg = lambda x: math.log(x) / math.log(base)  # noqa: E731
    pt = p if y == 1 else 1 - p
    prior_t = prior if y == 1 else 1 - prior
    info = (lg(pt) - lg(prior_t)) if pt >= prior_t else (lg(1 - prior_t) - lg(1 - pt))
    a_t = 1.0 if alpha is None else (alpha if y == 1 else 1 - alpha)
    return {"information_score": info,
            "focal_loss": -a_t * (1 - pt) ** gamma * lg(max(pt, eps)),
            "hinge_loss": max(0.0, 1 - (1 if y == 1 else -1) * p),
            "log_loss": -lg(max(pt, eps)),
            "squared_error": (y - p) ** 2}


def _random(seed: int, n: int = 400) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.35).astype(int)
    p = np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1).round(2)  # ties, and 0 and 1
    p[:2] = [0.0, 1.0]
    w = rng.uniform(0.2, 3.0, n)
    return y, p, w


def test_berrar_information_scores_per_case() -> None:
    # Berrar under Def. 23: I(x_1) ... I(x_10) (his I(x_7) reads log2 0.30 for the
    # p = 0.7 of the true class of case 4; the value 0.485 is that of 0.7)
    expected = [0.926, 0.678, -0.585, 0.263, 0.0, 0.138, 0.485, -0.585, 0.678, 0.848]
    cases = bm.per_case_scores(Y, P)
    assert cases["information_score"].round(3).tolist() == expected
    assert cases["information_score"].mean() / 1.0 == pytest.approx(0.2846, abs=5e-5)  # I_r
    assert cases["squared_error"].mean() == pytest.approx(0.192, abs=1e-12)  # eq. 18
    assert cases["log_loss"].mean() == pytest.approx(0.798, abs=5e-4)  # eq. 20


@pytest.mark.parametrize("params", [{}, {"gamma": 0.5, "alpha": 0.3, "base": math.e,
                                          "prior": 0.3}])
def test_direct_implementation_and_registry_means(params: dict) -> None:
    y, p, w = _random(1)
    cases = bm.per_case_scores(y, p, sample_weight=w, **params)
    prior = params.get("prior", float(np.sum(w * y) / np.sum(w)))
    for i in range(0, len(y), 7):
        want = _direct(int(y[i]), float(p[i]), prior=prior, gamma=params.get("gamma", 2.0),
                       alpha=params.get("alpha"), base=params.get("base", 2.0))
        for col, v in want.items():
            assert cases[col].iloc[i] == pytest.approx(v, rel=1e-12, abs=1e-12), (col, i)
    ev = bm.evaluate(y, p, sample_weight=w)
    for col, mid in MEANS.items():
        mparams = {k: v for k, v in params.items() if k in bm.get_measure(mid).params}
        mean = np.average(cases[col], weights=w)
        assert mean == pytest.approx(ev.value(mid, **mparams), rel=1e-10), col


def test_evaluation_per_case_groups_have_the_same_means() -> None:
    y, p, w = _random(2)
    ev = bm.evaluate(y, p, sample_weight=w)
    groups = ev.per_case(gamma=1.0)
    assert groups["weight"].sum() == pytest.approx(w.sum())
    rows = bm.per_case_scores(y, p, sample_weight=w, gamma=1.0)
    for col, mid in MEANS.items():
        params = {"gamma": 1.0} if mid == "focal_loss" else {}
        g = np.average(groups[col], weights=groups["weight"])
        assert g == pytest.approx(ev.value(mid, **params), rel=1e-10), col
        assert g == pytest.approx(np.average(rows[col], weights=w), rel=1e-10), col
    # each group is the cases of one class with one score
    first = groups.iloc[0]
    assert first["score"] == p.max()
    same = (p == p.max()) & (y == bool(first["positive"]))
    assert first["weight"] == pytest.approx(w[same].sum())


def test_ranks_are_average_ranks_by_decreasing_score() -> None:
    ev = bm.evaluate([1, 1, 0, 1, 0], [.9, .6, .6, .3, .1])
    assert ev.per_case()["rank"].tolist() == [1.0, 2.5, 2.5, 4.0, 5.0]
    low = bm.evaluate([1, 1, 0, 1, 0], [.1, .4, .4, .7, .9], higher_is_positive=False)
    with pytest.warns(bm.UndefinedMeasureWarning, match="only the hinge loss"):
        assert low.per_case()["score"].tolist() == [.1, .4, .4, .7, .9]


def test_aligned_with_the_input_index_and_nan_rows_kept() -> None:
    s = pd.Series([0.9, np.nan, 0.2, 0.6], index=["a", "b", "c", "d"])
    y = pd.Series([1, 0, 0, 1], index=s.index)
    with pytest.warns(UserWarning, match="dropped 1 row"):
        cases = bm.per_case_scores(y, s, nan_policy="omit")
    assert list(cases.index) == ["a", "b", "c", "d"]
    assert np.isnan(cases.loc["b", "log_loss"])
    assert cases.loc["d", "squared_error"] == pytest.approx(0.16)
    with pytest.raises(ValueError, match="non-finite"):
        bm.per_case_scores(y, s)


def test_signed_distances_give_the_hinge_loss_alone() -> None:
    # Berrar Fig. 8b: two cases on the wrong side at distance 1 both have hinge loss 2
    y = [1, 1, 0, 1, 0, 0]
    s = [2.0, 0.5, 1.0, -1.0, -0.5, -2.0]
    with pytest.warns(bm.UndefinedMeasureWarning, match="only the hinge loss"):
        cases = bm.per_case_scores(y, s)
    assert cases["hinge_loss"].tolist() == [0.0, 0.5, 2.0, 2.0, 0.5, 0.0]
    assert cases["log_loss"].isna().all()
    with pytest.warns(bm.UndefinedMeasureWarning):
        groups = bm.evaluate(y, s, threshold=0.0).per_case()
    assert np.average(groups["hinge_loss"], weights=groups["weight"]) == pytest.approx(5 / 6)


def test_sklearn_hinge_and_log_loss() -> None:
    skm = pytest.importorskip("sklearn.metrics")
    y, p, w = _random(3)
    cases = bm.per_case_scores(y, p, sample_weight=w, base=math.e)
    assert np.average(cases["hinge_loss"], weights=w) == pytest.approx(
        skm.hinge_loss(2 * y - 1, p, sample_weight=w), rel=1e-12)
    inner = (p > 0) & (p < 1)  # scikit-learn clips at its own eps
    c2 = bm.per_case_scores(y[inner], p[inner], base=math.e)
    assert c2["log_loss"].mean() == pytest.approx(skm.log_loss(y[inner], p[inner]), rel=1e-10)


def test_binned_evaluation_refuses() -> None:
    y, p, _ = _random(4)
    ev = bm.Evaluation(binned_table(y, p, decimals=1))
    with pytest.raises(ValueError, match="per_case_scores"):
        ev.per_case()


def test_figure_8b_chart_draws_the_per_case_hinge_losses() -> None:
    y = [1, 1, 0, 1, 0, 0]
    s = [2.0, 0.5, 1.0, -1.0, -0.5, -2.0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", bm.UndefinedMeasureWarning)
        ev = bm.evaluate(y, s, threshold=0.0)
        cd = bm.plot.chart_data("case_losses", ev)
    pos, neg, mean = cd.series
    assert pos.x.tolist() == [1.0, 3.0, 5.0] and pos.y.tolist() == [0.0, 0.5, 2.0]
    assert neg.x.tolist() == [2.0, 4.0, 6.0] and neg.y.tolist() == [2.0, 0.5, 0.0]
    assert mean.y.tolist() == pytest.approx([5 / 6, 5 / 6])
    assert len(cd.texts) == 6  # few points: each labelled with its loss
    assert "case_losses" in bm.plot.kinds(ev)
    with pytest.raises(ValueError, match="measure must be one of"):
        bm.plot.chart_data("case_losses", ev, measure="auc")


def test_figure_8b_renders() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    ev = bm.evaluate(Y, P, threshold=0.5)
    ax = ev.plot("case_losses", measure="information_score")
    assert len(ax.collections) == 2
    import matplotlib.pyplot as plt

    plt.close("all")
