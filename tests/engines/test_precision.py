"""Sums that must not lose the small weights next to huge ones (review 7): the average
gain, and the Spark engine's error-free sums (checked here in numpy, with the same
arithmetic; tests/engines/test_spark.py runs them on Spark). The references are exact
rational computations (fractions.Fraction)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.engines._common import STAT_COLUMNS
from binmetrics.engines.spark import _PART_BITS, _add_parts, _combine_exponents, _sigmas
from binmetrics.measures.early_recognition import average_gain


def exact_average_gain(y: np.ndarray, s: np.ndarray, w: np.ndarray) -> Fraction:
    """Berrar eq. 29 in rationals: sum_j [g(j) - j P/n] / n, positions in units of
    weight, each tied group's g(j) its expectation over the group's orders."""
    groups: dict[float, list[Fraction]] = {}
    for yi, si, wi in zip(y, s, w, strict=True):
        groups.setdefault(float(si), [Fraction(0), Fraction(0)])[0 if yi else 1] += \
            Fraction(float(wi))
    big_p = sum(g[0] for g in groups.values())
    n = sum(g[0] + g[1] for g in groups.values())
    model, tp0 = Fraction(0), Fraction(0)
    for score in sorted(groups, reverse=True):
        pos, neg = groups[score]
        m = pos + neg
        model += m * tp0 + pos * (m + 1) / 2
        tp0 += pos
    return (model - big_p * (n + 1) / 2) / n


@pytest.mark.parametrize("seed", range(40))
def test_average_gain_with_huge_weights(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 300))
    y = rng.random(n) < 0.5
    y[:2] = [True, False]
    s = np.round(rng.random(n), int(rng.integers(1, 3)))
    w = np.ones(n) if seed % 4 else rng.exponential(1.0, n)
    big = rng.choice(n, int(rng.integers(1, 4)), replace=False)
    w[big] = 10.0 ** rng.integers(8, 17, big.size)
    t = bm.CountTable.from_arrays(y, s, sample_weight=w)
    want = exact_average_gain(y, s, w)
    # the table's counts are rounded sums of the weights: the reference takes them as given
    t_exact = exact_average_gain(np.r_[np.ones(t.n_distinct, bool), np.zeros(t.n_distinct,
                                                                             bool)],
                                 np.r_[t.scores, t.scores], np.r_[t.pos, t.neg])
    assert average_gain(t) == pytest.approx(float(t_exact), rel=1e-13, abs=0)
    if seed % 4:  # unit and power-of-ten weights: the table's sums are exact here
        assert average_gain(t) == pytest.approx(float(want), rel=1e-13, abs=0)


def test_average_gain_unweighted_is_exact() -> None:
    rng = np.random.default_rng(1)
    y = rng.random(5000) < 0.3
    s = np.round(rng.random(5000), 2)
    want = exact_average_gain(y, s, np.ones(5000))
    assert bm.evaluate(y, s)["average_gain"] == float(want)
    # the worked example: the gain chart's mean distance to the random line
    ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0], [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    assert ev["average_gain"] == pytest.approx(5 * 5 * (ev["auc"] - 0.5) / 10, rel=1e-15)


def _extract_sums(v: np.ndarray, n: int, bound: float, order: np.ndarray) -> float:
    """The Spark engine's three sums, in numpy, added in the given (any) order."""
    s1, s2 = _sigmas(bound, n)
    q1 = (s1 + v) - s1
    r = v - q1
    q2 = (s2 + r) - s2
    parts = [q1, q2, r - q2]
    sums = []
    for p in parts:
        acc = 0.0
        for x in p[order]:
            acc += float(x)
        sums.append(acc)
    return float(_add_parts(np.array([sums[0]]), np.array([sums[1]]), np.array([sums[2]]))[0])


@pytest.mark.parametrize("seed", range(10))
def test_extraction_sums_lose_nothing(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 3000
    v = rng.exponential(1.0, n)
    v[rng.choice(n, 3, replace=False)] = [1e16, 3e15, 7.5e13]
    if seed % 2:
        v *= 1e-7  # any scale
    want = float(sum(Fraction(float(x)) for x in v))  # correctly rounded
    plain = 0.0
    for x in v:
        plain += float(x)
    got = _extract_sums(v, n, float(v.max()), rng.permutation(n))
    assert got == pytest.approx(want, rel=2.3e-16, abs=0)
    assert abs(plain - want) > 1e3 * abs(got - want)  # what plain summation loses


def test_exponent_parts_add_exactly() -> None:
    """The statistics' weight totals: integer mantissa parts per binary exponent."""
    rng = np.random.default_rng(3)
    w = np.r_[rng.exponential(1.0, 500), 1e16, 1e16, 5e-300, 2.0**-1074]
    rows = []  # (label, exponent, stats..., parts) as Spark returns them
    for e in sorted({math.frexp(x)[1] - 1 for x in w}):
        e = max(e, -1022)
        sel = w[[max(math.frexp(x)[1] - 1, -1022) == e for x in w]]
        m = [Fraction(float(x)) * Fraction(2) ** (52 - e) for x in sel]
        assert all(k.denominator == 1 and k < 2**53 for k in m)  # integer mantissas
        m = [int(k) for k in m]
        unit = 1 << _PART_BITS
        a = sum(k // (unit * unit) for k in m)
        b = sum((k // unit) % unit for k in m)
        c = sum(k % unit for k in m)
        stats = [len(sel), 0, 0, 0, 0.1, 0.9, None, None, 0, 0, float(sel.min()),
                 float(sel.max())]
        rows.append((1, float(e), *stats, a, b, c, a, b, c))
    assert len(stats) == len(STAT_COLUMNS)
    (out,) = _combine_exponents(rows, 0)
    want = float(sum(Fraction(float(x)) for x in w))
    col = 1 + STAT_COLUMNS.index("w_all")
    assert out[col] == want and out[col + 1] == want
    assert out[1] == w.size and out[1 + STAT_COLUMNS.index("w_max")] == 1e16
