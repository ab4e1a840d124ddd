"""bm.measure_correlation (Siblini et al., Fig. 7) against scipy, and its example."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import binmetrics as bm

REPO = Path(__file__).resolve().parents[2]


def evaluations(k: int = 8, seed: int = 0) -> dict[str, bm.Evaluation]:
    rng = np.random.default_rng(seed)
    out = {}
    for i in range(k):
        pi = rng.uniform(0.05, 0.5)
        y = rng.random(400) < pi
        y[:2] = [True, False]
        s = np.round(np.clip(0.35 * y + 0.65 * rng.random(400), 0, 1), 2)  # ties
        out[f"g{i}"] = bm.evaluate(y, s, sample_weight=rng.uniform(0.5, 2, 400))
    return out


@pytest.mark.parametrize("method", ["spearman", "kendall"])
def test_equals_scipy(method: str) -> None:
    evs = evaluations()
    ids = ["prevalence", "ppv", "f1", "auc", "brier"]
    corr = bm.measure_correlation(evs, ids, method=method)
    vals = pd.DataFrame({k: ev.to_dict(measures=ids) for k, ev in evs.items()}).T
    fn = stats.spearmanr if method == "spearman" else stats.kendalltau
    for a in ids:
        for b in ids:
            want = fn(vals[a], vals[b])[0]
            assert corr.matrix.loc[a, b] == pytest.approx(want, rel=1e-12), (a, b)


def test_calibrated_and_by_result() -> None:
    rng = np.random.default_rng(3)
    frames = []
    for day in range(6):
        y = rng.random(300) < rng.uniform(0.05, 0.4)
        y[:2] = [True, False]
        frames.append(pd.DataFrame({"day": day, "y": y.astype(int),
                                    "s": np.clip(0.3 * y + 0.7 * rng.random(300), 0, 1)}))
    df = pd.concat(frames)
    # the calibrated tables reweight the cases: the lowess family (integer weights only)
    # is NaN there, said once
    with pytest.warns(bm.UndefinedMeasureWarning, match="integer weights only"):
        by = bm.evaluate_by(df, label="y", score="s", by="day", pi0=0.5)
    corr = bm.measure_correlation(by, ["prevalence", "ppv", "auc"])
    assert corr.calibrated is not None and corr.pi0 == 0.5
    cal = {k: by.calibrated_evaluations[k] for k in by.keys}
    want = bm.measure_correlation(cal, ["prevalence", "ppv", "auc"]).matrix
    pd.testing.assert_frame_equal(corr.calibrated.matrix, want)
    assert "MeasureCorrelation(spearman, 6 evaluations" in repr(corr)
    long = corr.to_frame()
    assert list(long.columns) == ["measure_a", "measure_b", "correlation",
                                  "calibrated_correlation"] and len(long) == 3


def test_default_measures_drop_constant_and_undefined() -> None:
    corr = bm.measure_correlation(list(evaluations().values()))
    assert "auc" in corr.matrix.columns
    assert np.isfinite(corr.values.to_numpy()).all()
    assert (corr.values.nunique() > 1).all()


def test_errors_and_plot() -> None:
    evs = evaluations(3)
    with pytest.raises(ValueError, match="at least 3"):
        bm.measure_correlation(list(evs.values())[:2])
    with pytest.raises(ValueError, match="method"):
        bm.measure_correlation(evs, method="cosine")
    with pytest.raises(TypeError):
        bm.measure_correlation(42)
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    corr = bm.measure_correlation(evs, ["ppv", "auc", "f1"])
    ax = corr.plot()
    assert ax.get_title().startswith("Spearman correlation")
    with pytest.raises(ValueError, match="pi0"):
        corr.plot(calibrated=True)


def test_example_regenerates_figure_7(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    spec = importlib.util.spec_from_file_location(
        "siblini_correlation", REPO / "examples" / "siblini_correlation.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--days", "8", "--n", "3000", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "fig7_correlation.png").stat().st_size > 10_000


# --- Siblini et al. Fig. 7: correlations within data sets, averaged --------------------------
def _fig7_datasets(n_datasets: int = 6, n_models: int = 8, seed: int = 0) -> list[dict]:
    """Data sets of varied prevalence; models of varied separation and noise."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_datasets):
        pi = rng.uniform(0.02, 0.5)
        y = rng.random(600) < pi
        y[:2] = [True, False]
        models = {}
        for k in range(n_models):
            gap, noise = rng.uniform(0.2, 2.0), rng.uniform(0.5, 1.5)
            models[f"m{k}"] = bm.evaluate(y, gap * y + noise * rng.standard_normal(600))
        out.append(models)
    return out


def test_mean_correlation_equals_scipy_spearman_averaged() -> None:
    from scipy.stats import spearmanr

    datasets = _fig7_datasets()
    corr = bm.mean_measure_correlation(datasets, pi0=(0.5, "1.01*pi"))
    assert corr.matrix.shape == (10, 10) and corr.n_datasets == 6
    cols = list(corr.matrix.columns)
    assert cols[4:] == [f"{m}_c(pi0={p})" for p in ("0.5", "1.01pi")
                        for m in ("average_precision", "auprg", "best_f1")]
    rhos = []
    for models in datasets:
        a = [ev["auc"] for ev in models.values()]
        f = [ev["best_f1"] for ev in models.values()]
        fc = [ev.calibrated(0.5)["best_f1"] for ev in models.values()]
        rhos.append((spearmanr(a, f).statistic, spearmanr(f, fc).statistic))
    want = np.mean(rhos, axis=0)
    assert corr.matrix.loc["auc", "best_f1"] == pytest.approx(want[0], rel=1e-12)
    assert corr.matrix.loc["best_f1", "best_f1_c(pi0=0.5)"] == pytest.approx(want[1], rel=1e-12)
    # pi0 ~ pi: the calibrated measure ranks the models as the raw one (Siblini et al.)
    assert corr.matrix.loc["average_precision", "average_precision_c(pi0=1.01pi)"] > 0.99
    assert set(corr.to_frame().columns) >= {"measure_a", "measure_b", "correlation"}
    assert "mean over 6 data sets" in repr(corr)


def test_mean_correlation_checks_its_input() -> None:
    datasets = _fig7_datasets(2, 4)
    with pytest.raises(ValueError, match="'k\\*pi'"):
        bm.mean_measure_correlation(datasets, pi0=("pi",))
    with pytest.raises(ValueError, match="outside \\(0, 1\\)"):
        bm.mean_measure_correlation(datasets, pi0=("40*pi",))
    with pytest.raises(TypeError, match="mapping model -> Evaluation"):
        bm.mean_measure_correlation([[1, 2, 3]])
    with pytest.raises(ValueError, match="at least 3"):
        bm.mean_measure_correlation([dict(list(datasets[0].items())[:2])])


def test_fig7_example_draws_both_matrices(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    spec = importlib.util.spec_from_file_location(
        "siblini_fig7", REPO / "examples" / "siblini_fig7.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    args = ["--datasets", "4", "--models", "5", "--n", "400", "--out", str(tmp_path)]
    assert module.main(args) == 0
    assert (tmp_path / "fig7_mean_correlation.png").stat().st_size > 10_000
