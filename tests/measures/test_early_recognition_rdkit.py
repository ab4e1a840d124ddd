"""binmetrics' early-recognition measures against RDKit's rdkit.ML.Scoring.Scoring.

RDKit's functions take a list of rows already sorted by score, best first, and the
index of the column holding the active flag; ranks are list positions, so ties would
be broken by row order. The data here is tie-free, where binmetrics' tie averaging
and RDKit's list order give the same ranks.

Enrichment factor: RDKit's ``CalcEnrichment`` looks at the first k = ceil(N f) rows
and returns (a_k / k) / (n / N), while binmetrics (docs/methods.md §2,
``ef_mode="interpolate"``) looks at x = N f cases, taking a fraction of the case that
straddles x. The two agree exactly when N f is a whole number k (then x = k = ceil(N f)
and no case is split); for fractional N f they differ by design. The fractions below
are therefore chosen so that N f is an integer in floating point too (a product such
as 300 * 0.07 = 21.000000000000004 would make RDKit's ceil jump to 22), and each maps
to a distinct k, because RDKit evaluates repeated cut-offs at k and k + 1.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("rdkit")
from rdkit.ML.Scoring import Scoring

import binmetrics as bm

TOL = 1e-10
#: Approximate fractions screened; each becomes f = k / N with k = round(N q).
TARGETS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5)


def whole_fractions(n: int) -> list[float]:
    """Fractions f = k / N, one per distinct k >= 1, with N * f == k exactly in floats."""
    ks = sorted({max(1, round(n * q)) for q in TARGETS})
    return [k / n for k in ks if n * (k / n) == k]

CASES = [
    pytest.param((seed, n, prevalence), id=f"seed{seed}-N{n}-p{prevalence}")
    for seed, (n, prevalence) in enumerate(
        [(50, 0.1), (50, 0.3), (100, 0.05), (100, 0.5), (200, 0.02), (200, 0.2),
         (250, 0.1), (400, 0.04), (500, 0.01), (500, 0.15), (137, 0.2), (313, 0.08)]
    )
]


def make_data(seed: int, n: int, prevalence: float) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prevalence).astype(int)
    if y.sum() == 0:  # at least one active and one inactive
        y[rng.integers(n)] = 1
    if y.sum() == n:
        y[rng.integers(n)] = 0
    # actives tend to score higher; continuous scores, so no ties
    s = rng.normal(size=n) + 1.5 * y * rng.random(n)
    assert np.unique(s).size == n
    return y, s


def rdkit_rows(y: np.ndarray, s: np.ndarray) -> list[list[float]]:
    """Rows [score, active], sorted by score descending (RDKit's input; col = 1)."""
    order = np.argsort(-s, kind="stable")
    return [[float(s[i]), bool(y[i])] for i in order]


@pytest.fixture(scope="module", params=CASES)
def data(request: pytest.FixtureRequest) -> tuple[bm.Evaluation, list[list[float]], int]:
    y, s = make_data(*request.param)
    assert 0 < y.sum() < y.size
    return bm.evaluate(y, s), rdkit_rows(y, s), y.size


@pytest.mark.filterwarnings("ignore::binmetrics.MeasureCaveatWarning")
@pytest.mark.parametrize("alpha", [20.0, 80.5])
def test_bedroc(data: tuple[bm.Evaluation, list, int], alpha: float) -> None:
    ev, rows, _ = data
    want = Scoring.CalcBEDROC(rows, 1, alpha)
    got = ev.value("bedroc", alpha=alpha)
    assert abs(got - want) <= TOL, f"BEDROC({alpha}): binmetrics {got!r}, RDKit {want!r}"


@pytest.mark.parametrize("alpha", [20.0, 80.5])
def test_rie(data: tuple[bm.Evaluation, list, int], alpha: float) -> None:
    ev, rows, _ = data
    want = Scoring.CalcRIE(rows, 1, alpha)
    got = ev.value("rie", alpha=alpha)
    assert abs(got - want) <= TOL * max(1.0, abs(want)), (
        f"RIE({alpha}): binmetrics {got!r}, RDKit {want!r}"
    )


def test_enrichment_factor(data: tuple[bm.Evaluation, list, int]) -> None:
    ev, rows, n = data
    fractions = whole_fractions(n)
    assert len(fractions) >= 4
    ks = [math.ceil(n * f) for f in fractions]
    assert ks == [round(n * f) for f in fractions]  # RDKit's ceil is the exact count
    assert len(set(ks)) == len(ks), "fractions must map to distinct k"
    want = Scoring.CalcEnrichment(rows, 1, fractions)
    assert len(want) == len(fractions)
    for f, w in zip(fractions, want, strict=True):
        got = ev.value("enrichment_factor", fraction=f)
        assert abs(got - w) <= TOL * max(1.0, abs(w)), (
            f"EF({f}) at N={n}: binmetrics {got!r}, RDKit {w!r}"
        )


def test_auc(data: tuple[bm.Evaluation, list, int]) -> None:
    ev, rows, _ = data
    want = Scoring.CalcAUC(rows, 1)
    assert abs(ev["auc"] - want) <= TOL


def test_spec_example_matches_rdkit() -> None:
    # docs/methods.md §2: N = 100, actives at ranks 1, 5, 12, 30, 70, "RDKit identical"
    y = np.zeros(100, dtype=int)
    y[[0, 4, 11, 29, 69]] = 1
    s = np.arange(100, 0, -1, dtype=np.float64)
    with pytest.warns(bm.BinmetricsWarning, match=r"threshold 0\.5 \(the default\)"):
        ev = bm.evaluate(y, s)  # ranks as scores: all above the default threshold
    rows = rdkit_rows(y, s)
    assert abs(ev.value("rie", alpha=20.0) - Scoring.CalcRIE(rows, 1, 20.0)) <= TOL
    assert abs(ev.value("bedroc", alpha=20.0) - Scoring.CalcBEDROC(rows, 1, 20.0)) <= TOL
    fractions = [0.01, 0.05, 0.1, 0.2]
    for f, w in zip(fractions, Scoring.CalcEnrichment(rows, 1, fractions), strict=True):
        assert abs(ev.value("enrichment_factor", fraction=f) - w) <= TOL
