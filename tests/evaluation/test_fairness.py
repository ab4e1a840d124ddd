"""bm.fairness against fairlearn.metrics' functions, its intervals and its display."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from fairlearn import metrics as flm

import binmetrics as bm


def _data(seed: int, n: int = 3000) -> tuple[np.ndarray, np.ndarray, pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    sf = pd.DataFrame({"sex": rng.choice(["f", "m"], n, p=[0.6, 0.4]),
                       "race": rng.choice(["a", "b", "c"], n, p=[0.5, 0.3, 0.2])})
    y = (rng.random(n) < np.where(sf["sex"] == "f", 0.35, 0.5)).astype(int)
    p = np.round(np.clip(0.3 * y + 0.7 * rng.random(n) + 0.05 * (sf["race"] == "b"), 0, 1), 2)
    w = rng.integers(1, 4, n) * rng.choice([0.5, 1.0, 1.5], n)
    return y, p, sf, w


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("columns", [["sex"], ["sex", "race"]])
@pytest.mark.parametrize("method", ["between_groups", "to_overall"])
def test_equals_fairlearn_metrics(weighted: bool, columns: list[str], method: str) -> None:
    y, p, sf, w = _data(0)
    sw = w if weighted else None
    pred = (p >= 0.5).astype(int)
    kw = {"sensitive_features": sf[columns], "method": method, "sample_weight": sw}
    for agg in ("worst_case", "mean"):
        f = bm.fairness(y, p, sensitive=sf[columns], sample_weight=sw, method=method,
                        agg=agg, ci=False)
        expected = {
            ("demographic_parity", "difference"): flm.demographic_parity_difference(
                y, pred, **kw),
            ("demographic_parity", "ratio"): flm.demographic_parity_ratio(y, pred, **kw),
            ("equalized_odds", "difference"): flm.equalized_odds_difference(
                y, pred, agg=agg, **kw),
            ("equalized_odds", "ratio"): flm.equalized_odds_ratio(y, pred, agg=agg, **kw),
            ("equal_opportunity", "difference"): flm.equal_opportunity_difference(
                y, pred, **kw),
            ("equal_opportunity", "ratio"): flm.equal_opportunity_ratio(y, pred, **kw),
        }
        for (criterion, kind), value in expected.items():
            assert f.value(criterion, kind) == pytest.approx(value, abs=1e-12), (criterion,
                                                                                  kind, agg)


def test_predictive_parity_calibration_and_auc_are_group_gaps() -> None:
    y, p, sf, _ = _data(1)
    f = bm.fairness(y, p, sensitive=sf, ci=False)
    g = f.grouped
    assert f.value("predictive_parity") == g.difference("ppv")
    assert f.value("calibration", "ratio") == g.ratio("ece")
    assert f.value("auc") == g.difference("auc")
    # scores that are not probabilities: no calibration row
    f2 = bm.fairness(y, p * 3, sensitive=sf, threshold=1.5, ci=False)
    assert "calibration" not in set(f2.frame["criterion"])


def test_intervals_combine_the_same_replicates() -> None:
    y, p, sf, _ = _data(2, n=1500)
    f = bm.fairness(y, p, sensitive=sf["sex"], n_resamples=300, random_state=5)
    frame = f.to_frame()
    assert list(frame.columns) == ["criterion", "kind", "estimate", "low", "high", "pvalue"]
    assert (frame["low"] <= frame["estimate"] + 1e-12).all()
    assert (frame["estimate"] <= frame["high"] + 1e-12).all()
    # the equalized-odds replicate b is the larger of the TPR and FPR gaps of replicate b
    seed = int(np.random.default_rng(5).integers(2**63))
    tpr = f.grouped.difference("tpr", ci=True, n_resamples=300, random_state=seed)
    fpr = f.grouped.difference("fpr", ci=True, n_resamples=300, random_state=seed)
    worst = np.maximum(tpr.replicates, fpr.replicates)
    row = frame[(frame["criterion"] == "equalized_odds") & (frame["kind"] == "difference")]
    assert row["low"].iloc[0] == pytest.approx(np.quantile(worst, 0.025), abs=1e-15)
    assert row["high"].iloc[0] == pytest.approx(np.quantile(worst, 0.975), abs=1e-15)
    # the same seed, the same result
    again = bm.fairness(y, p, sensitive=sf["sex"], n_resamples=300, random_state=5)
    pd.testing.assert_frame_equal(again.to_frame(), frame)


def test_display_and_bad_input() -> None:
    y, p, sf, _ = _data(3, n=400)
    f = bm.fairness(y, p, sensitive=sf["race"].to_numpy(), n_resamples=50, random_state=0)
    assert "FairnessResult(by=['sensitive'], groups=3" in repr(f)
    cd = f.chart("ratio")
    assert [s.label for s in cd.series] == ["95% interval", "ratio", "no gap (1)"]
    assert np.array_equal(cd.series[1].x, f.frame.loc[f.frame["kind"] == "ratio",
                                                      "estimate"].to_numpy())
    with pytest.raises(KeyError, match="no difference of 'parity'"):
        f.value("parity")
    with pytest.raises(ValueError, match="sensitive has 399 rows and y_true has 400"):
        bm.fairness(y, p, sensitive=sf["sex"][:399])
    with pytest.raises(ValueError, match=r"has one group \(f\)"):
        bm.fairness(y, p, sensitive=np.full(400, "f"))
    with pytest.raises(ValueError, match="agg must be"):
        bm.fairness(y, p, sensitive=sf["sex"], agg="max")  # type: ignore[arg-type]


def test_plot_draws_the_intervals() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    y, p, sf, _ = _data(4, n=400)
    f = bm.fairness(y, p, sensitive=sf["sex"], n_resamples=50, random_state=0)
    ax = f.plot()
    assert next(t.get_text() for t in ax.get_yticklabels()) == "demographic_parity"


def test_to_overall_intervals_where_they_exist() -> None:
    y, p, sf, _ = _data(5, n=600)
    with pytest.warns(UserWarning, match="calibration and auc: no interval with method="):
        f = bm.fairness(y, p, sensitive=sf["sex"], method="to_overall", n_resamples=50,
                        random_state=0)
    frame = f.to_frame().set_index(["criterion", "kind"])
    assert np.isnan(frame.loc[("auc", "difference"), "low"])
    assert frame.loc[("auc", "difference"), "estimate"] == pytest.approx(
        f.grouped.difference("auc", method="to_overall"))
    assert not np.isnan(frame.loc[("equal_opportunity", "ratio"), "low"])
