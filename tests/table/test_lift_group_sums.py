"""The weighted positive-group walk, and average_lift's group sums against exact ones.

* ``positive_groups`` of a weighted table and the block carries it records equal the
  whole cumulative arrays bit for bit, also when ``block_carries`` was partly memoised
  before, with blocks of 1 and 2 groups, and with weights spanning 16 decades.
* ``average_lift`` against exact rational sums of g(j)/j (Fractions): positives tied
  below many cases used to lose digits in ``(tp0 - c0 q) (H(c1) - H(c0)) + pos`` (5e-10
  of the value below 915 cases, 1e-8 below 1e8, 1e-4 below 1e12); a positive group whose
  weight is under half an ulp of the cases above it gave 0 * inf (a RuntimeWarning and
  NaN).
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.measures.early_recognition import _mean_rise
from binmetrics.table import counts


@pytest.mark.parametrize("chunk", [1, 2, 5])
@pytest.mark.parametrize("seed", range(4))
def test_weighted_groups_and_carries_after_partial_carries(
        seed: int, chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counts, "CHUNK", chunk)
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    y = rng.random(n) < rng.uniform(0.05, 0.9)
    y[0] = True
    s = np.round(rng.random(n), int(rng.integers(0, 3)))
    w = 10.0 ** rng.uniform(-8, 8, n)
    w[rng.random(n) < 0.1] = 0.0
    w[0] = 1.0
    t = bm.CountTable.from_arrays(y, s, sample_weight=w)
    first = int(rng.integers(0, t.n_distinct // chunk + 2))
    part = t.block_carries(blocks=first)  # some blocks' carries memoised first
    g = t.positive_groups()
    carries = t.block_carries()
    tp, fp = t.tp, t.fp
    at = np.append(np.arange(0, t.n_distinct, chunk), t.n_distinct)
    np.testing.assert_array_equal(g.idx, np.flatnonzero(t.pos))
    np.testing.assert_array_equal(g.tp0, tp[g.idx])
    np.testing.assert_array_equal(g.fp0, fp[g.idx])
    np.testing.assert_array_equal(carries[0], tp[at])
    np.testing.assert_array_equal(carries[1], fp[at])
    np.testing.assert_array_equal(part[0], tp[at[:part[0].size]])
    assert (t.P, t.N) == (tp[-1], fp[-1])


def _exact_lift(neg_above: int, k: int) -> float:
    """average_lift of ``neg_above`` negatives above ``k`` tied positives: g(j) = j - c0."""
    return float(sum(Fraction(j - neg_above, j)
                     for j in range(neg_above + 1, neg_above + k + 1)) / k)


@pytest.mark.parametrize("neg_above", [1_000, 10**5, 10**8, 10**12])
@pytest.mark.parametrize("k", [2, 7])
def test_average_lift_of_positives_tied_at_the_bottom(neg_above: int, k: int) -> None:
    t = bm.CountTable.from_arrays([0] + [1] * k, [0.9] + [0.1] * k,
                                  sample_weight=[float(neg_above)] + [1.0] * k)
    assert bm.measures.get_measure("average_lift").func(t) == pytest.approx(
        _exact_lift(neg_above, k), rel=1e-13, abs=0)


@pytest.mark.parametrize("neg_above", [1, 4, 9, 60, 312, 915])
@pytest.mark.parametrize("k", [1, 2, 5])
def test_average_lift_of_positives_tied_below_a_few_cases(neg_above: int, k: int) -> None:
    """Below 1000 cases the digamma difference and its cancellation lost up to 5e-10."""
    t = bm.CountTable.from_arrays([0] + [1] * k, [0.9] + [0.1] * k,
                                  sample_weight=[float(neg_above)] + [1.0] * k)
    assert bm.measures.get_measure("average_lift").func(t) == pytest.approx(
        _exact_lift(neg_above, k), rel=1e-13, abs=0)


@pytest.mark.parametrize(("w", "vanishing"), [([1e300, 1e-300, 1.0, 2.0], [1]),
                                              ([5.0, 1e-20, 1.0, 1e-20], [1, 3]),
                                              ([1.0, 1.0, 1e-300, 1.0], [2])])
def test_average_lift_with_a_positive_weight_under_an_ulp(w: list[float],
                                                          vanishing: list[int]) -> None:
    """The vanishing positive group adds under 1e-16 of the value: the lift is that of
    the table without it (where the group used to give 0 * inf: NaN and a warning)."""
    y, s = np.array([0, 1, 1, 0]), np.array([0.9, 0.8, 0.7, 0.6])
    lift = bm.measures.get_measure("average_lift").func
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = lift(bm.CountTable.from_arrays(y, s, sample_weight=w))
    keep = np.ones(4, dtype=bool)
    keep[vanishing] = False
    want = lift(bm.CountTable.from_arrays(y[keep], s[keep], sample_weight=np.asarray(w)[keep]))
    assert got == pytest.approx(want, rel=1e-12, abs=0)


def test_mean_rise_equals_exact_harmonic_sums() -> None:
    """R = (1/m) sum_{j=c0+1}^{c1} (j - c0)/j against Fractions, on each side of the
    shift (a < 10) and where the plain difference 1 - c0 (H(c1) - H(c0)) / m cancels."""
    c0 = np.array([0.0, 1.0, 2.0, 5.0, 9.0, 10.0, 50.0, 312.0, 915.0, 999.0, 1000.0, 4321.0,
                   10**4, 10**6, 10**6, 10**9, 3.0])
    m = np.array([1.0, 2.0, 1.0, 3.0, 4.0, 2.0, 100.0, 5.0, 2.0, 1.0, 250.0, 3.0, 10**4,
                  2.0, 70.0, 5.0, 1000.0])
    got = _mean_rise(c0, c0 + m)
    for r, a, k in zip(got, map(int, c0), map(int, m), strict=True):
        exact = sum(Fraction(j - a, j) for j in range(a + 1, a + k + 1)) / k
        assert r == pytest.approx(float(exact), rel=1e-13, abs=0)
