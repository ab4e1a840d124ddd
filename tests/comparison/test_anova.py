"""``anova()``: factorial ANOVA of SRD% (multi-level comparison paper, sections 2.1-2.2, eq. 1).

Expected values are computed independently in this file: the classical balanced-design
formulas (marginal means), nested least-squares fits with ``np.linalg.lstsq`` for the
type I/II/III sums of squares of unbalanced designs, ``scipy.stats.f_oneway`` for one
factor and ``scipy.stats.t`` for the confidence intervals of the means.
"""

from __future__ import annotations

import itertools
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
import pytest
from scipy import stats

from binmetrics.comparison.factorial_anova import AnovaResult, anova
from binmetrics.exceptions import UndefinedMeasureWarning

matplotlib.use("Agg")
import matplotlib.pyplot as plt

# awkward names on purpose: a dot, a space, a "%" (safe quoting in the formula)
A, B, C, Y = "bal.ance", "class type", "measure", "SRD %"
LEVELS = {A: ["balanced", "imbalanced"], B: ["2-class", "multiclass"],
          C: ["ACC", "MCC", "DOR"]}


def design(reps: int | dict[tuple[str, ...], int], rng: np.random.Generator,
           effects: dict[str, dict[str, float]] | None = None, sd: float = 1.0) -> pd.DataFrame:
    """A 2×2×3 design with ``reps`` rows per cell (a dict gives per-cell counts), response
    = 20 + planted main effects + N(0, sd²)."""
    rows = []
    for cell in itertools.product(*LEVELS.values()):
        k = reps if isinstance(reps, int) else reps.get(cell, 3)
        rows += [(*cell, fold) for fold in range(k)]
    df = pd.DataFrame(rows, columns=[A, B, C, "fold"])
    y = 20 + rng.normal(0, sd, len(df))
    for factor, shift in (effects or {}).items():
        y += df[factor].map(shift).fillna(0.0).to_numpy()
    df[Y] = y
    return df


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    yield
    plt.close("all")


# --- independent computations ------------------------------------------------------
def codes(df: pd.DataFrame, factors: list[str]) -> list[np.ndarray]:
    return [pd.factorize(df[f], sort=True)[0] for f in factors]


def classical(df: pd.DataFrame, factors: list[str], y: str) -> dict[tuple[int, ...], Any]:
    """Balanced-design ANOVA from marginal means: effect_T(i) = Σ_{S⊆T} (-1)^{|T|-|S|}
    ȳ_S(i), SS_T = Σ_i effect_T(i)², df_T = Π (k_f - 1), error = within-cell."""
    v = df[y].to_numpy(dtype=float)
    cs = codes(df, factors)
    k = [int(c.max()) + 1 for c in cs]

    def marginal(sub: tuple[int, ...]) -> np.ndarray:
        if not sub:
            return np.full(v.shape, v.mean())
        key = np.ravel_multi_index([cs[i] for i in sub], [k[i] for i in sub])
        sums = np.bincount(key, weights=v)
        counts = np.bincount(key)
        return (sums / counts)[key]

    out: dict[tuple[int, ...], Any] = {}
    terms = [t for r in range(1, len(factors) + 1)
             for t in itertools.combinations(range(len(factors)), r)]
    for term in terms:
        eff = sum((-1) ** (len(term) - r) * marginal(s)
                  for r in range(len(term) + 1) for s in itertools.combinations(term, r))
        out[term] = (float(np.sum(eff ** 2)), int(np.prod([k[i] - 1 for i in term])))
    full = marginal(tuple(range(len(factors))))
    out[()] = (float(np.sum((v - full) ** 2)), len(v) - int(np.prod(k)))
    return out


def indicators(cs: list[np.ndarray], term: tuple[int, ...]) -> np.ndarray:
    """One-hot columns of the level combinations of ``term`` (spans the term and its
    marginal terms)."""
    _, inv = np.unique(np.stack([cs[i] for i in term], axis=1), axis=0, return_inverse=True)
    inv = inv.ravel()
    return np.eye(int(inv.max()) + 1)[inv]


def rss_rank(x: np.ndarray, y: np.ndarray) -> tuple[float, int]:
    beta, *_ = np.linalg.lstsq(x, y, rcond=None)
    r = y - x @ beta
    return float(r @ r), int(np.linalg.matrix_rank(x))


def span(cs: list[np.ndarray], terms: list[tuple[int, ...]]) -> np.ndarray:
    n = cs[0].size
    return np.hstack([np.ones((n, 1)), *[indicators(cs, t) for t in terms]])


def nested(df: pd.DataFrame, factors: list[str], y: str, terms: list[tuple[int, ...]],
           typ: int) -> dict[tuple[int, ...], tuple[float, int]]:
    """Type I (sequential) or II (each term after every term not containing it) sums
    of squares by differences of residual sums of squares of nested lstsq fits."""
    cs = codes(df, factors)
    v = df[y].to_numpy(dtype=float)
    out = {}
    for j, term in enumerate(terms):
        if typ == 1:
            before = terms[:j]
        else:
            before = [t for t in terms if not set(term) <= set(t)]
        r0, k0 = rss_rank(span(cs, before), v)
        r1, k1 = rss_rank(span(cs, [*before, term]), v)
        out[term] = (r0 - r1, k1 - k0)
    r, k = rss_rank(span(cs, terms), v)
    out[()] = (r, len(v) - k)
    return out


def type3(df: pd.DataFrame, factors: list[str], y: str,
          terms: list[tuple[int, ...]]) -> dict[tuple[int, ...], tuple[float, int]]:
    """Type III: drop a term's sum-to-zero-coded columns from the full model."""
    cs = codes(df, factors)
    v = df[y].to_numpy(dtype=float)

    def contrast(c: np.ndarray) -> np.ndarray:
        k = int(c.max()) + 1
        m = np.vstack([np.eye(k - 1), -np.ones(k - 1)])  # sum-to-zero coding
        return m[c]

    cols = {}
    for term in terms:
        block = np.ones((v.size, 1))
        for i in term:
            con = contrast(cs[i])
            block = (block[:, :, None] * con[:, None, :]).reshape(v.size, -1)
        cols[term] = block
    full = np.hstack([np.ones((v.size, 1)), *cols.values()])
    r_full, k_full = rss_rank(full, v)
    out = {}
    for term in terms:
        reduced = np.hstack([np.ones((v.size, 1)), *[c for t, c in cols.items() if t != term]])
        r, _ = rss_rank(reduced, v)
        out[term] = (r - r_full, cols[term].shape[1])
    out[()] = (r_full, v.size - k_full)
    return out


def all_terms(k: int, top: int | None = None) -> list[tuple[int, ...]]:
    return [t for r in range(1, (top or k) + 1) for t in itertools.combinations(range(k), r)]


def check_table(res: AnovaResult, expected: dict[tuple[int, ...], tuple[float, int]],
                factors: list[str]) -> None:
    """Every row of the table against (SS, df) computed independently, with F and p
    derived from them."""
    ss_e, df_e = expected[()]
    table = res.table.set_index("term")
    terms = [t for t in expected if t]
    assert list(table.index) == [" × ".join(factors[i] for i in t) for t in terms] + [
        "Residual"]
    for term in terms:
        row = table.loc[" × ".join(factors[i] for i in term)]
        ss, df_ = expected[term]
        f = (ss / df_) / (ss_e / df_e)
        assert row["df"] == df_
        assert row["sum_sq"] == pytest.approx(ss, rel=1e-9, abs=1e-9)
        assert row["mean_sq"] == pytest.approx(ss / df_, rel=1e-9, abs=1e-9)
        assert row["F"] == pytest.approx(f, rel=1e-8, abs=1e-10)
        assert row["pvalue"] == pytest.approx(stats.f.sf(f, df_, df_e), rel=1e-7, abs=1e-12)
        assert row["partial_eta_sq"] == pytest.approx(ss / (ss + ss_e), rel=1e-9, abs=1e-12)
        assert bool(row["significant"]) == (row["pvalue"] < res.alpha)
    resid = table.loc["Residual"]
    assert resid["df"] == df_e
    assert resid["sum_sq"] == pytest.approx(ss_e, rel=1e-10)
    assert np.isnan(resid["F"]) and pd.isna(resid["significant"])


# --- the sums of squares -----------------------------------------------------------
@pytest.mark.parametrize("typ", [1, 2, 3, "III"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_balanced_matches_classical_formulas(typ: int | str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    df = design(4, rng, {C: {"ACC": 1.0, "DOR": -0.5}, B: {"2-class": 0.7}}).sample(
        frac=1.0, random_state=seed)  # row order must not matter
    factors = [A, B, C]
    res = anova(df, factors, response=Y, typ=typ)
    check_table(res, classical(df, factors, Y), factors)
    assert res.balanced and res.n == 48
    assert (res.typ == 3) == ("Sum" in res.formula)


@pytest.mark.parametrize("seed", [3, 4])
def test_one_factor_matches_f_oneway(seed: int) -> None:
    rng = np.random.default_rng(seed)
    sizes = {"a": 5, "b": 9, "c": 7, "d": 4}  # unbalanced
    df = pd.DataFrame({"g": np.repeat(list(sizes), list(sizes.values()))})
    df["v"] = rng.normal(0, 1, len(df)) + df["g"].map({"a": 0, "b": 0.8, "c": 0, "d": -0.4})
    expected = stats.f_oneway(*[df.loc[df["g"] == g, "v"] for g in sizes])
    for typ in (1, 2, 3):
        row = anova(df, "g", response="v", typ=typ).table.iloc[0]
        assert row["term"] == "g" and row["df"] == 3
        assert row["F"] == pytest.approx(expected.statistic, rel=1e-9)
        assert row["pvalue"] == pytest.approx(expected.pvalue, rel=1e-8)


def test_planted_effect_found_null_factor_not() -> None:
    rng = np.random.default_rng(11)
    df = design(6, rng, {C: {"ACC": 2.0, "MCC": 0.0, "DOR": -1.0}}, sd=1.0)
    table = anova(df, [A, B, C], response=Y).table.set_index("term")
    assert table.loc[C, "pvalue"] < 1e-6 and table.loc[C, "significant"]
    assert table.loc[A, "pvalue"] > 0.05 and not table.loc[A, "significant"]
    assert table.loc[B, "pvalue"] > 0.05


@pytest.mark.parametrize("seed", [5, 6])
def test_unbalanced_types_match_nested_least_squares(seed: int) -> None:
    rng = np.random.default_rng(seed)
    counts = {cell: int(rng.integers(2, 7)) for cell in itertools.product(*LEVELS.values())}
    df = design(counts, rng, {A: {"imbalanced": 1.0}, C: {"ACC": 0.8}})
    factors = [A, B, C]
    terms = all_terms(3)
    res2 = anova(df, factors, response=Y)  # typ=2 default
    assert not res2.balanced
    check_table(res2, nested(df, factors, Y, terms, 2), factors)
    check_table(anova(df, factors, response=Y, typ=1), nested(df, factors, Y, terms, 1),
                factors)
    res3 = anova(df, factors, response=Y, typ=3)
    check_table(res3, type3(df, factors, Y, terms), factors)
    # the types really differ on unbalanced data, so the checks above can tell them apart
    assert abs(res2.table["sum_sq"].iloc[0] - res3.table["sum_sq"].iloc[0]) > 1e-6


def test_unbalanced_typ2_matches_statsmodels_directly() -> None:
    import statsmodels.formula.api as smf
    from statsmodels.stats.anova import anova_lm

    rng = np.random.default_rng(8)
    counts = {cell: int(rng.integers(2, 6)) for cell in itertools.product(*LEVELS.values())}
    df = design(counts, rng, {B: {"multiclass": -1.0}})
    plain = df.rename(columns={A: "a", B: "b", C: "c", Y: "y"})
    ref = anova_lm(smf.ols("y ~ C(a) * C(b) * C(c)", data=plain, eval_env={}).fit(), typ=2)
    res = anova(df, [A, B, C], response=Y)
    np.testing.assert_allclose(res.table["sum_sq"], ref["sum_sq"], rtol=1e-10)
    np.testing.assert_allclose(res.table["F"].iloc[:-1], ref["F"].iloc[:-1], rtol=1e-10)
    np.testing.assert_allclose(res.table["pvalue"].iloc[:-1], ref["PR(>F)"].iloc[:-1],
                               rtol=1e-10)
    assert res.model.df_resid == ref.loc["Residual", "df"]


@pytest.mark.parametrize(("interactions", "top", "n_terms"), [("main", 1, 3), ("pairwise", 2, 6)])
def test_reduced_models(interactions: str, top: int, n_terms: int) -> None:
    rng = np.random.default_rng(9)
    counts = {cell: int(rng.integers(1, 4)) for cell in itertools.product(*LEVELS.values())}
    df = design(counts, rng, {C: {"DOR": 1.0}})
    factors = [A, B, C]
    res = anova(df, factors, response=Y, interactions=interactions)  # type: ignore[arg-type]
    assert len(res.table) == n_terms + 1
    check_table(res, nested(df, factors, Y, all_terms(3, top), 2), factors)


def test_one_row_per_cell_needs_fewer_interactions() -> None:
    rng = np.random.default_rng(10)
    df = design(1, rng)
    with pytest.raises(ValueError, match=r"no residual degrees of freedom.*one row per cell"
                       r".*interactions='main' or 'pairwise'"):
        anova(df, [A, B, C], response=Y)
    res = anova(df, [A, B, C], response=Y, interactions="pairwise")
    check_table(res, nested(df, [A, B, C], Y, all_terms(3, 2), 2), [A, B, C])
    assert res.model.df_resid == 2  # the 3-way interaction is the error term


def test_polars_input_gives_the_same_table() -> None:
    pl = pytest.importorskip("polars")
    df = design(3, np.random.default_rng(12))
    res_pd = anova(df, [A, B, C], response=Y)
    res_pl = anova(pl.from_pandas(df), [A, B, C], response=Y)
    pd.testing.assert_frame_equal(res_pd.table, res_pl.table)
    with pytest.raises(TypeError, match="LazyFrame"):
        anova(pl.from_pandas(df).lazy(), [A, B, C], response=Y)


def test_alpha_and_result_accessors() -> None:
    df = design(3, np.random.default_rng(13), {C: {"ACC": 0.6}})
    res = anova(df, [A, B, C], response=Y, alpha=0.5)
    effects = res.table.iloc[:-1]
    assert (effects["significant"].to_numpy(dtype=bool)
            == (effects["pvalue"] < 0.5).to_numpy()).all()
    frame = res.to_frame()
    pd.testing.assert_frame_equal(frame, res.table)
    frame.loc[0, "F"] = -1.0
    assert res.table.loc[0, "F"] != -1.0  # a copy
    assert res.factors == [A, B, C] and res.response == Y and res.alpha == 0.5
    assert res.levels[C] == ["ACC", "DOR", "MCC"]  # sorted values
    text = res.summary()
    assert f"{A} × {B} × {C}" in text and "Residual" in text and "balanced" in text
    assert str(res) == text and "AnovaResult(" in repr(res) and "typ=2" in repr(res)


# --- means and their confidence intervals -----------------------------------------
def test_means_match_hand_computation() -> None:
    rng = np.random.default_rng(14)
    counts = {cell: int(rng.integers(2, 6)) for cell in itertools.product(*LEVELS.values())}
    df = design(counts, rng, {C: {"ACC": 1.5}})
    # a categorical keeps its own level order
    df[C] = pd.Categorical(df[C], categories=["MCC", "DOR", "ACC", "unused"])
    res = anova(df, [A, B, C], response=Y)
    assert res.levels[C] == ["MCC", "DOR", "ACC"]
    for level in (0.95, 0.8):
        got = res.means(C, B, level=level)
        assert list(got.columns) == [C, B, "mean", "sd", "n", "se", "ci_low", "ci_high"]
        assert list(got[C].unique()) == ["MCC", "DOR", "ACC"]
        assert len(got) == 6
        for _, row in got.iterrows():
            v = df.loc[(df[C] == row[C]) & (df[B] == row[B]), Y].to_numpy()
            half = stats.t.ppf((1 + level) / 2, v.size - 1) * v.std(ddof=1) / np.sqrt(v.size)
            assert row["n"] == v.size
            assert row["mean"] == pytest.approx(v.mean(), rel=1e-12)
            assert row["sd"] == pytest.approx(v.std(ddof=1), rel=1e-10)
            assert row["ci_low"] == pytest.approx(v.mean() - half, rel=1e-10)
            assert row["ci_high"] == pytest.approx(v.mean() + half, rel=1e-10)
    pooled = res.means(A, pooled=True)
    mse = res.model.ssr / res.model.df_resid
    for _, row in pooled.iterrows():
        v = df.loc[df[A] == row[A], Y].to_numpy()
        half = stats.t.ppf(0.975, res.model.df_resid) * np.sqrt(mse / v.size)
        assert row["ci_high"] - row["mean"] == pytest.approx(half, rel=1e-10)
    assert len(res.means()) == 12  # default: the cell means


def test_means_of_single_rows_are_undefined() -> None:
    df = design(1, np.random.default_rng(15))
    res = anova(df, [A, B, C], response=Y, interactions="main")
    with pytest.warns(UndefinedMeasureWarning, match="12 groups of 12 with one observation"):
        cells = res.means()
    assert cells["sd"].isna().all() and cells["ci_low"].isna().all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert res.means(pooled=True)["ci_low"].notna().all()
        assert res.means(A)["ci_low"].notna().all()
    with pytest.raises(ValueError, match=r"'fold' is not a factor.*\['bal.ance'"):
        res.means("fold")


# --- plot ----------------------------------------------------------------------------
def _points(ax: Any) -> list[np.ndarray]:
    from matplotlib.container import ErrorbarContainer

    return [c.lines[0].get_xydata() for c in ax.containers if isinstance(c, ErrorbarContainer)]


def test_plot_means_with_intervals() -> None:
    df = design(3, np.random.default_rng(16), {C: {"ACC": 3.0, "DOR": -3.0}})
    res = anova(df, [A, B, C], response=Y)
    ax = res.plot(C)
    (pts,) = _points(ax)
    means = res.means(C)
    np.testing.assert_allclose(pts[:, 0], [0, 1, 2])
    np.testing.assert_allclose(pts[:, 1], means["mean"])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["ACC", "DOR", "MCC"]
    bars = ax.containers[0].lines[2][0].get_segments()  # the vertical CI segments
    np.testing.assert_allclose([s[:, 1] for s in bars],
                               means[["ci_low", "ci_high"]].to_numpy(), rtol=1e-10)
    assert C in ax.get_title() and "F(2, 24)" in ax.get_title()

    ax = res.plot(C, sort=True)
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels == ["DOR", "MCC", "ACC"]  # by mean, smallest (best SRD) first
    assert np.all(np.diff(_points(ax)[0][:, 1]) > 0)


def test_plot_with_hue() -> None:
    df = design(3, np.random.default_rng(17))
    res = anova(df, [A, B, C], response=Y)
    _, given = plt.subplots()
    ax = res.plot(C, hue=A, ax=given)
    assert ax is given
    series = _points(ax)
    assert len(series) == 2 and all(len(s) == 3 for s in series)
    assert np.all(series[0][:, 0] < series[1][:, 0])  # offset sideways
    assert [t.get_text() for t in ax.get_legend().get_texts()] == LEVELS[A]
    assert f"{A} × {C}" in ax.get_title()
    assert all(len(c.lines[0].get_xydata()) == 3 and c.lines[0].get_linestyle() == "-"
               for c in ax.containers)
    with pytest.raises(ValueError, match="same factor"):
        res.plot(C, hue=C)
    with pytest.raises(ValueError, match="is not a factor"):
        res.plot("fold")


def test_plot_figure_4b_panels_by_a_third_factor() -> None:
    """The multi-level paper's Fig. 4B: x the metric, hue the composition, one panel per
    classification type; each panel's points are the cell means of its rows."""
    df = design(3, np.random.default_rng(19), {C: {"ACC": 3.0, "DOR": -3.0}})
    res = anova(df, [A, B, C], response=Y)
    panels = res.plot(C, hue=A, by=B)
    assert len(panels) == 2
    cells = df.groupby([B, A, C], observed=True)[Y].mean()
    for panel, kind in zip(panels, LEVELS[B], strict=True):
        assert panel.get_title() == f"{B} = {kind}"
        series = _points(panel)
        assert len(series) == 2  # balanced, imbalanced
        for pts, comp in zip(series, LEVELS[A], strict=True):
            want = [cells[(kind, comp, m)] for m in ["ACC", "DOR", "MCC"]]
            np.testing.assert_allclose(pts[:, 1], want, rtol=1e-12)
        assert [t.get_text() for t in panel.get_legend().get_texts()] == LEVELS[A]
    _, given = plt.subplots(1, 2)
    assert list(res.plot(C, hue=A, by=B, ax=given)) == list(given)
    with pytest.raises(ValueError, match="needs as many"):
        res.plot(C, hue=A, by=B, ax=given[:1])
    with pytest.raises(ValueError, match="named twice"):
        res.plot(C, hue=A, by=A)


def test_missing_optional_dependencies(monkeypatch: pytest.MonkeyPatch) -> None:
    df = design(2, np.random.default_rng(18))
    res = anova(df, [A, B, C], response=Y)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r'pip install "binmetrics\[compare\]"'):
        res.plot(C)
    monkeypatch.setitem(sys.modules, "statsmodels.formula.api", None)
    with pytest.raises(ImportError, match=r'anova needs statsmodels.*binmetrics\[compare\]'):
        anova(df, [A, B, C], response=Y)


# --- bad input -----------------------------------------------------------------------
@pytest.fixture
def df() -> pd.DataFrame:
    return design(3, np.random.default_rng(19))


def test_empty_data(df: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match="no rows"):
        anova(df.iloc[:0], [A, B, C], response=Y)


def test_missing_columns(df: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"factor column 'model' not found.*available "
                       r"columns: 'bal.ance', 'class type', 'measure', 'fold', 'SRD %'"):
        anova(df, [A, "model"], response=Y)
    with pytest.raises(ValueError, match="response column 'srd_pct' not found"):
        anova(df, [A, B])


def test_non_numeric_response(df: pd.DataFrame) -> None:
    df[Y] = df[Y].astype(str)
    with pytest.raises(TypeError, match=r"response column 'SRD %' must be numeric"):
        anova(df, [A, B, C], response=Y)


def test_nan_response_raises_or_is_omitted(df: pd.DataFrame) -> None:
    df.loc[[4, 9], Y] = np.nan
    df.loc[20, Y] = np.inf
    with pytest.raises(ValueError, match=r"3 non-finite values \(2 NaN, 1 infinite\) at rows "
                       r"\[4, 9, 20\].*nan_policy='omit'"):
        anova(df, [A, B, C], response=Y)
    with pytest.warns(UserWarning, match="dropped 3 rows"):
        res = anova(df, [A, B, C], response=Y, nan_policy="omit")
    assert res.n == len(df) - 3 and res.n_omitted == 3 and not res.balanced
    kept = df.drop(index=[4, 9, 20])
    check_table(res, nested(kept, [A, B, C], Y, all_terms(3), 2), [A, B, C])


def test_missing_factor_value(df: pd.DataFrame) -> None:
    df[C] = df[C].astype(object)
    df.loc[5, C] = None
    with pytest.raises(ValueError, match=r"factor 'measure' has 1 missing value at rows \[5\]"):
        anova(df, [A, B, C], response=Y)


def test_single_level_factor(df: pd.DataFrame) -> None:
    df["dataset"] = "fathead minnow"
    with pytest.raises(ValueError, match=r"factor 'dataset' has only the level 'fathead "
                       r"minnow': no effect can be estimated"):
        anova(df, [A, "dataset"], response=Y)


def test_missing_cell(df: pd.DataFrame) -> None:
    gap = df[~((df[A] == "imbalanced") & (df[B] == "multiclass") & (df[C] == "MCC"))]
    with pytest.raises(ValueError, match=r"1 combination of bal.ance × class type × measure "
                       r"\(12 in all\) has no rows.*interactions='pairwise' or 'main'"):
        anova(gap, [A, B, C], response=Y)
    res = anova(gap, [A, B, C], response=Y, interactions="pairwise")
    check_table(res, nested(gap, [A, B, C], Y, all_terms(3, 2), 2), [A, B, C])


def test_confounded_terms() -> None:
    # a half fraction of a 2×2×2 design (c = a xor b): every pair of factors sees all
    # four combinations, yet the pairwise model's 7 parameters span only 4 cells
    cells = [(a, b, a ^ b) for a in (0, 1) for b in (0, 1)]
    df = pd.DataFrame([c for c in cells for _ in range(3)], columns=["a", "b", "c"])
    df["y"] = np.random.default_rng(20).normal(size=len(df))
    with pytest.raises(ValueError, match=r"confounded in this design \(7 parameters, rank 4\)"):
        anova(df, ["a", "b", "c"], response="y", interactions="pairwise")
    with pytest.raises(ValueError, match=r"4 combinations of a × b × c \(8 in all\) have no"):
        anova(df, ["a", "b", "c"], response="y")
    res = anova(df, ["a", "b", "c"], response="y", interactions="main")
    check_table(res, nested(df, ["a", "b", "c"], "y", all_terms(3, 1), 2), ["a", "b", "c"])


def test_constant_response(df: pd.DataFrame) -> None:
    df[Y] = 5.0
    with pytest.raises(ValueError, match="is constant"):
        anova(df, [A, B, C], response=Y)
    df[Y] = df[C].map({"ACC": 1.0, "MCC": 2.0, "DOR": 4.0})
    with pytest.raises(ValueError, match="residual sum of squares is zero"):
        anova(df, [A, B, C], response=Y)


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"typ": 4}, ValueError, "typ must be 1, 2 or 3"),
    ({"typ": True}, ValueError, "typ must be"),
    ({"interactions": "all"}, ValueError, "interactions must be 'full'"),
    ({"nan_policy": "drop"}, ValueError, "nan_policy must be"),
    ({"alpha": 1.5}, ValueError, r"alpha must lie in \(0.0, 1.0\)"),
    ({"factors": []}, TypeError, "non-empty list"),
    ({"factors": [A, A]}, ValueError, "names a column twice"),
    ({"factors": [A, Y]}, ValueError, "both the response and a factor"),
    ({"factors": [A, 3]}, TypeError, "factor names must be strings"),
])
def test_bad_arguments(df: pd.DataFrame, kwargs: dict[str, Any], error: type,
                       match: str) -> None:
    args = {"factors": [A, B, C], "response": Y, **kwargs}
    with pytest.raises(error, match=match):
        anova(df, **args)


def test_not_a_dataframe() -> None:
    with pytest.raises(TypeError, match="pandas or polars DataFrame, got dict"):
        anova({"a": [1, 2]}, ["a"])
