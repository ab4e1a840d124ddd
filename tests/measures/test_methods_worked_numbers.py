"""The worked numbers of docs/methods.md sections 2, 4 and 5.2, through the public API.

Rank-based examples are built with descending scores: in a list of N cases, rank r
has score N - r + 1, so the ranking is tie-free and exactly the one described.

Left out (later issues, or not a binmetrics option yet):

* section 2: the RDKit-mode enrichment factor (``ef_mode="rdkit"``, k = ceil(N f);
  the N = 10 example's 2.2222 at 25 %) and RDKit's quirks; ``ties="order"``;
  EF/EF_max; the RDKit edge cases n = 0 (RIE = BEDROC = 0) and n = N (BEDROC = 1),
  where binmetrics returns NaN with an UndefinedMeasureWarning for a single class.
  RDKit agreement itself is checked in tests/measures/test_early_recognition_rdkit.py.
* section 4: the calibrated metrics (pi0: prgc AUPRG, calibrated AP, calibrated F1,
  best calibrated F1, the invariance check with replicated negatives).
* section 5.1: the multiclass Kononenko-Bratko information score example (priors
  .5/.3/.2, Weka and Laplace variants).
* sections 1 (SRD) and 3 (DeLong) are outside this file.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np
import pytest

import binmetrics as bm

# ranks as scores lie above the default threshold 0.5: bm.evaluate says so (asserted)
DEFAULT_OUTSIDE = r"threshold 0\.5 \(the default\) is outside the scores' range"


def ranked(n_total: int, active_ranks: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Labels and scores of N cases whose actives sit at the given 1-based ranks."""
    y = np.zeros(n_total, dtype=int)
    y[np.asarray(active_ranks) - 1] = 1
    scores = np.arange(n_total, 0, -1, dtype=np.float64)  # rank r has score N - r + 1
    return y, scores


def value_checking_caveat(ev: bm.Evaluation, measure: str, alpha: float) -> float:
    """ev.value(measure, alpha=alpha), asserting docs/methods.md §2's rule for BEDROC: warn iff
    alpha Ra > 1 (BEDROC is then not comparable across prevalences); RIE never warns."""
    ra = ev.table.P / ev.table.total
    if measure == "bedroc" and alpha * ra > 1:
        with pytest.warns(bm.MeasureCaveatWarning):
            return ev.value(measure, alpha=alpha)
    with warnings.catch_warnings():
        warnings.simplefilter("error", bm.MeasureCaveatWarning)
        return ev.value(measure, alpha=alpha)


# --- section 2: N = 100, actives at ranks 1, 5, 12, 30, 70 -----------------------------
@pytest.fixture(scope="module")
def ev100() -> bm.Evaluation:
    with pytest.warns(bm.BinmetricsWarning, match=DEFAULT_OUTSIDE):
        return bm.evaluate(*ranked(100, [1, 5, 12, 30, 70]))


@pytest.mark.parametrize(
    ("measure", "alpha", "expected"),
    [
        ("rie", 20.0, 5.6670592439),
        ("bedroc", 20.0, 0.4482577820),
        ("rie", 80.5, 11.5016517937),
        ("bedroc", 80.5, 0.5855423816),
    ],
)
def test_rie_bedroc_n100(ev100: bm.Evaluation, measure: str, alpha: float,
                         expected: float) -> None:
    got = value_checking_caveat(ev100, measure, alpha)
    assert got == pytest.approx(expected, abs=1e-9)


def test_bedroc_default_alpha_is_20(ev100: bm.Evaluation) -> None:
    assert ev100["bedroc"] == pytest.approx(0.4482577820, abs=1e-9)
    assert ev100["rie"] == pytest.approx(5.6670592439, abs=1e-9)


@pytest.mark.parametrize(("fraction", "expected"),
                         [(0.01, 20.0), (0.05, 8.0), (0.10, 4.0), (0.20, 3.0)])
def test_enrichment_factor_n100(ev100: bm.Evaluation, fraction: float, expected: float) -> None:
    assert ev100.value("enrichment_factor", fraction=fraction) == pytest.approx(expected,
                                                                                 abs=1e-12)


@pytest.mark.parametrize(("fpr", "expected"),
                         [(0.01, 20.0), (0.02, 10.0), (0.05, 8.0), (0.10, 6.0)])
def test_roc_enrichment_n100(ev100: bm.Evaluation, fpr: float, expected: float) -> None:
    assert ev100.value("roc_enrichment", fpr=fpr) == pytest.approx(expected, abs=1e-12)


def test_auac_n100(ev100: bm.Evaluation) -> None:
    assert ev100["auac"] == pytest.approx(0.769, abs=1e-12)
    assert ev100.value("auac", kind="step") == pytest.approx(0.764, abs=1e-12)
    acc = ev100.accumulation()
    assert acc.area() == pytest.approx(0.769, abs=1e-12)
    assert acc.area("step") == pytest.approx(0.764, abs=1e-12)


def test_mean_rank_n100(ev100: bm.Evaluation) -> None:
    assert ev100["mean_rank_positives"] == pytest.approx(23.6, abs=1e-12)
    assert ev100.value("mean_rank", normalized=True) == pytest.approx(0.236, abs=1e-12)


def test_auc_n100(ev100: bm.Evaluation) -> None:
    assert ev100["auc"] == pytest.approx(0.783158, abs=1e-6)
    # docs/methods.md §2's exact relation: AUC = (0.769 - 0.025) / 0.95
    assert ev100["auc"] == pytest.approx((0.769 - 0.025) / 0.95, abs=1e-12)


# --- section 2: N = 10, actives at ranks 1, 3, 7 ----------------------------------------
@pytest.fixture(scope="module")
def ev10() -> bm.Evaluation:
    with pytest.warns(bm.BinmetricsWarning, match=DEFAULT_OUTSIDE):
        return bm.evaluate(*ranked(10, [1, 3, 7]))


def test_rie_bedroc_n10(ev10: bm.Evaluation) -> None:
    assert value_checking_caveat(ev10, "rie", 20.0) == pytest.approx(2.9350230599, abs=1e-9)
    assert value_checking_caveat(ev10, "bedroc", 20.0) == pytest.approx(0.882694800516,
                                                                        abs=1e-11)


def test_enrichment_factor_interpolated_n10(ev10: bm.Evaluation) -> None:
    # x = 10 * 0.25 = 2.5 cases: ranks 1, 2 and half of rank 3, so a = 1 + 1/2 active
    # and EF = (1.5 / 2.5) / 0.3 = 2.0
    assert ev10.value("enrichment_factor", fraction=0.25) == pytest.approx(2.0, abs=1e-12)


def test_enrichment_factor_ties_example() -> None:
    # Scores (10, 9, 9, 9, 6, ...), labels (1, 0, 1, 0, ...); EF at 20 % with x = 2 and
    # the (1 + 1/3)/2 / 0.3 of docs/methods.md §2 imply N = 10 with 3 actives. The rest of
    # the list (ranks 5..10) holds one more active below the cutoff.
    scores = [10, 9, 9, 9, 6, 5, 4, 3, 2, 1]
    labels = [1, 0, 1, 0, 0, 1, 0, 0, 0, 0]
    with pytest.warns(bm.BinmetricsWarning, match=DEFAULT_OUTSIDE):
        ev = bm.evaluate(labels, scores)
    assert ev.table.total == 10 and ev.table.P == 3
    expected = (1 + 1 / 3) / 2 / 0.3
    assert expected == pytest.approx(2.2222, abs=1e-4)
    assert ev.value("enrichment_factor", fraction=0.20) == pytest.approx(expected, abs=1e-12)


def test_bedroc_alpha_1000_stable() -> None:
    # RDKit overflows in math.exp(1000); the stable form gives 1.0 for actives on top
    with pytest.warns(bm.BinmetricsWarning, match=DEFAULT_OUTSIDE):
        ev = bm.evaluate(*ranked(100, [1, 2, 3, 4, 5]))
    with np.errstate(over="raise", invalid="raise", divide="raise"):  # underflow is fine
        got = value_checking_caveat(ev, "bedroc", 1000.0)
    assert math.isfinite(got)
    assert got == pytest.approx(1.0, abs=1e-12)


def test_alpha_must_be_positive(ev10: bm.Evaluation) -> None:
    for measure in ("rie", "bedroc"):
        with pytest.raises(ValueError):
            ev10.value(measure, alpha=0.0)
        with pytest.raises(ValueError):
            ev10.value(measure, alpha=-1.0)


# --- section 4: precision-recall-gain --------------------------------------------------
def test_auprg_prg_docstring_data() -> None:
    labels = [int(c) for c in "1110111111011101001000101"]
    scores = np.arange(25, 0, -1, dtype=np.float64)
    # a ranking measure reads no threshold: bm.score says nothing of the default's range
    assert bm.score("auprg", labels, scores) == pytest.approx(0.43246210357423226, abs=1e-12)
    with pytest.warns(bm.BinmetricsWarning, match=DEFAULT_OUTSIDE):
        ev = bm.evaluate(labels, scores)
    assert ev.prg().area() == pytest.approx(0.43246210357423226, abs=1e-12)


@pytest.fixture(scope="module")
def ev_prg8() -> bm.Evaluation:
    with pytest.warns(bm.BinmetricsWarning, match=DEFAULT_OUTSIDE):
        return bm.evaluate([1, 0, 1, 1, 0, 0, 1, 0], np.arange(8, 0, -1, dtype=np.float64))


def test_auprg_eight_cases(ev_prg8: bm.Evaluation) -> None:
    # 0.6667 (.5 + .6667)/2 + 0.3333 (0 + .25)/2 with the exact thirds
    exact = (2 / 3) * (0.5 + 2 / 3) / 2 + (1 / 3) * (0 + 0.25) / 2
    assert exact == pytest.approx(0.4305555556, abs=1e-10)
    assert ev_prg8["auprg"] == pytest.approx(exact, abs=1e-12)
    assert ev_prg8.prg().area() == pytest.approx(0.4305555556, abs=1e-10)


def test_prg_points_eight_cases(ev_prg8: bm.Evaluation) -> None:
    tp = [0, 1, 1, 2, 3, 3, 3, 4, 4]
    fp = [0, 0, 1, 1, 1, 2, 3, 3, 4]
    rg = [-np.inf, -2, -2, 0, 2 / 3, 2 / 3, 2 / 3, 1, 1]
    pg = [np.nan, 1, 0, 0.5, 2 / 3, 1 / 3, 0, 0.25, 0]
    curve = ev_prg8.prg()
    # RG reaches 0 exactly at a data point and PG changes sign only through 0, so no
    # crossing point is inserted: the nine points are the nine cuts, in cut order
    assert not np.any(curve.is_crossing)
    np.testing.assert_allclose(curve.recall_gain, rg, rtol=0, atol=1e-12)
    np.testing.assert_allclose(curve.precision_gain, pg, rtol=0, atol=1e-12)  # NaN == NaN
    gain = ev_prg8.gain()
    np.testing.assert_allclose(gain.positives, tp, rtol=0, atol=0)
    np.testing.assert_allclose(gain.n_selected - gain.positives, fp, rtol=0, atol=0)


@pytest.fixture(scope="module")
def ev_ties() -> bm.Evaluation:
    y = [1, 1, 0, 1, 0, 0, 1, 0, 0, 0]
    s = [0.9, 0.8, 0.8, 0.7, 0.7, 0.5, 0.4, 0.3, 0.3, 0.1]
    return bm.evaluate(y, s, threshold=0.7)


def test_prg_ties_example(ev_ties: bm.Evaluation) -> None:
    assert ev_ties.table.prevalence == pytest.approx(0.4, abs=1e-15)
    assert ev_ties["auprg"] == pytest.approx(0.6003086420, abs=1e-10)
    assert ev_ties["average_precision"] == pytest.approx(0.7095238095, abs=1e-10)


def test_f1_ties_example(ev_ties: bm.Evaluation) -> None:
    # threshold >= .7 gives TP = 3, FP = 2
    c = ev_ties.confusion
    assert (c.tp, c.fp) == (3, 2)
    assert ev_ties["f1"] == pytest.approx(0.6667, abs=1e-4)
    assert ev_ties["f1"] == pytest.approx(2 / 3, abs=1e-12)


# --- section 5.2: taKS and KS ---------------------------------------------------------
BERRAR_LABELS = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
BERRAR_SCORES = [0.95, 0.8, 0.75, 0.6, 0.5, 0.45, 0.3, 0.25, 0.2, 0.1]


def test_taks_ks_seed_example() -> None:
    ev = bm.evaluate(BERRAR_LABELS, BERRAR_SCORES)
    assert ev["taks"] == pytest.approx(3 / 9, abs=1e-12)
    assert ev["taks"] == pytest.approx(0.3333, abs=1e-4)
    assert ev["ks"] == pytest.approx(0.6, abs=1e-12)


def test_taks_with_ties_uses_distinct_scores() -> None:
    # Section 5.2's rule for ties, worked by hand: scores (.9, .5, .5, .1), labels
    # (1, 0, 1, 0) have 3 distinct scores, so k = 4 thresholds; the (TPR, FPR) points
    # are (0, 0), (.5, 0), (1, .5), (1, 1) and the two interior gaps are .5 and .5.
    ev = bm.evaluate([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])
    assert ev["taks"] == pytest.approx(0.5, abs=1e-12)
    assert ev["ks"] == pytest.approx(0.5, abs=1e-12)
