"""The compiled loops of the probabilistic measures' blocked pass (measures/_sums_numba.py,
issue 32): large tables take them when numba is installed, and every measure they serve
agrees with NumPy's blocks to rounding (1e-12) on continuous, tied, weighted, extreme and
many-block data; the fits' compression gives NumPy's bins; small tables never import
numba."""

from __future__ import annotations

import math
import subprocess
import sys
import warnings
from typing import Any

import numpy as np
import pytest

import binmetrics as bm
from binmetrics import backends
from binmetrics.backends import use_compiled
from binmetrics.exceptions import undefined_policy
from binmetrics.measures import logistic_fit as lf
from binmetrics.measures import sums
from binmetrics.table import counts

pytest.importorskip("numba")
#: one table for both ways (the packed sort adds tied weights in row order)
pytestmark = pytest.mark.usefixtures("argsort_build")

FAMILY = [m.id for m in bm.iter_measures("probabilistic")]


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counts, "CHUNK", 997)
    monkeypatch.setattr(lf, "SMALL_TABLE", 1000)


def _family(y: Any, p: Any, w: Any, compiled: bool) -> dict[str, float]:
    with undefined_policy("ignore"), warnings.catch_warnings(), use_compiled(compiled):
        warnings.simplefilter("ignore")
        return bm.evaluate(y, p, sample_weight=w, undefined="ignore").to_dict(measures=FAMILY)


@pytest.mark.parametrize("kind", ["continuous", "tied", "weighted", "weighted_tied",
                                  "extreme", "near_half", "many_per_score", "at_prior"])
def test_compiled_loops_agree_with_numpy(kind: str, small_blocks: None,
                                        probability_case: Any,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """To 1e-12 relative; a value near 0 that is a difference of sums over the n
    cases (Spiegelhalter's z, the information score, Brier skill with every score at
    the prevalence) to 1e-14 sqrt(n) absolute: the two sum in other orders, and a sum
    of n terms rounds to about eps n of their size, which z divides by sqrt(n)."""
    from binmetrics.measures import _sums_numba

    loops = ("poly_sums", "log_sums", "spiegelhalter_sums", "logit_moments", "run_moments")
    ran: set[str] = set()
    for name in loops:  # each loop counted as it runs (the blocks call them by name)
        real = getattr(_sums_numba, name)
        monkeypatch.setattr(_sums_numba, name,
                            lambda *a, _f=real, _n=name: (ran.add(_n), _f(*a))[1])
    y, p, w = probability_case(kind, 20_000)
    near_zero = 1e-14 * math.sqrt(y.size)
    numpy_values = _family(y, p, w, False)
    assert not ran  # NumPy's blocks, with the loops switched off
    compiled_values = _family(y, p, w, True)
    # every loop of the pass ran for the compiled values; the fits compress a table of
    # more than SMALL_TABLE rows only (the tied kinds have a few hundred)
    rows = bm.CountTable.from_arrays(y, p, sample_weight=w).n_distinct
    assert ran == set(loops) - (set() if rows > lf.SMALL_TABLE else {"logit_moments"})
    wrong = []
    for m in FAMILY:
        a, b = numpy_values[m], compiled_values[m]
        if math.isnan(a) and math.isnan(b):
            continue
        if not math.isclose(a, b, rel_tol=1e-12, abs_tol=near_zero):
            wrong.append(f"{m}: {a!r} NumPy, {b!r} compiled")
    assert not wrong, "\n".join(wrong)


def _numpy_bins(x: Any, pos: Any, neg: Any, width: float) -> tuple[Any, ...]:
    d, starts, edges = lf.logit_bins(x, width)
    tot = pos.astype(float) + neg
    moments = np.stack([np.add.reduceat(tot * d**m, starts) for m in range(4)])
    return (edges, moments, np.add.reduceat(pos.astype(float), starts),
            np.add.reduceat(pos * d, starts))


@pytest.mark.parametrize("counts_kind", ["unit", "small", "weights"])
def test_logit_moments_are_numpys_bins(counts_kind: str) -> None:
    from binmetrics.measures import _sums_numba as k

    rng = np.random.default_rng(7)
    n = 50_000
    s = np.sort(rng.beta(0.5, 0.5, n))[::-1]
    s = s[(s > 0) & (s < 1)]
    s[1000:1400] = s[1000]  # a tied run
    ln_p, ln_q = np.log(s), np.log1p(-s)
    x = ln_p - ln_q
    n = x.size
    if counts_kind == "unit":
        pos = (rng.random(n) < 0.3).astype(np.uint8)
        neg = (1 - pos).astype(np.uint8)
    elif counts_kind == "small":
        pos = rng.integers(0, 300, n).astype(np.uint16)
        neg = rng.integers(0, 300, n).astype(np.uint16)
    else:
        pos = rng.uniform(0, 2, n) * (rng.random(n) < 0.5)
        neg = rng.uniform(0, 2, n)
    width = lf.TABLE_BINS[0]
    out = np.empty(n), np.empty((4, n)), np.empty(n), np.empty(n)
    m = k.logit_moments(ln_p, ln_q, pos, neg, 1.0 / width, *out)
    want = _numpy_bins(x, pos, neg, width)
    assert m == want[0].size
    np.testing.assert_array_equal(out[0][:m] * width, want[0])
    np.testing.assert_allclose(out[1][:, :m], want[1], rtol=1e-13, atol=1e-300)
    np.testing.assert_allclose(out[2][:m], want[2], rtol=1e-14)
    np.testing.assert_allclose(out[3][:m], want[3], rtol=1e-13, atol=1e-300)
    assert lf.TABLE_BINS[1] == k.MOMENT_ORDER  # else the tables' fits take NumPy


def test_a_row_rounded_across_an_edge_stays_with_its_neighbours() -> None:
    """x is monotone only to rounding: a row a rounding above its bin's upper edge
    between rows of that bin is kept in it (d a rounding above 1), and x = edge + w d
    still holds exactly for every row."""
    from binmetrics.measures import _sums_numba as k

    w = 2.0**-13
    edge = 40 * w
    x = np.array([edge + 0.9 * w, edge + 0.5 * w, np.nextafter(edge + w, np.inf),
                  edge + 0.25 * w, edge - 0.5 * w])
    pos = np.array([1, 0, 1, 0, 1], dtype=np.uint8)
    neg = 1 - pos
    out = np.zeros(5), np.zeros((4, 5)), np.zeros(5), np.zeros(5)
    m = k.logit_moments(x, np.zeros(5), pos, neg, 1.0 / w, *out)
    # the first row's bin runs to the last row at or above its lower edge
    assert m == 2 and out[0][0] == 40 and out[0][1] == 39
    d = x[:4] / w - 40
    assert out[1][1, 0] == pytest.approx(d.sum(), rel=1e-15)
    assert d.max() > 1.0  # the rounded row, kept


def test_small_tables_take_numpy_without_importing_numba() -> None:
    code = """
import sys, numpy as np, binmetrics as bm
rng = np.random.default_rng(0)
y = rng.random(5000) < 0.3
ev = bm.evaluate(y, rng.random(5000))
ev.to_dict()
from binmetrics.measures import sums
print(sums.compiled_sums(ev.table) is None, "numba" in sys.modules)
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-600:]
    assert r.stdout.split() == ["True", "False"]


def test_the_size_and_the_environment_choose(monkeypatch: pytest.MonkeyPatch) -> None:
    t = bm.evaluate([0, 1, 1, 0], [0.1, 0.8, 0.3, 0.6]).table
    monkeypatch.setattr(backends, "COMPILED_TABLE_ROWS", 4)
    with use_compiled(None):
        assert sums.compiled_sums(t) is not None  # 4 distinct scores reach 4
        monkeypatch.setattr(backends, "COMPILED_TABLE_ROWS", 5)
        assert sums.compiled_sums(t) is None
        monkeypatch.setenv("BINMETRICS_COMPILED", "0")
        with use_compiled(True):
            assert sums.compiled_sums(t) is None  # the environment wins


def _weighted_case(kind: str, n: int) -> tuple[Any, Any, Any]:
    """Weighted cases: uniform, tied, wide (weights over 400 orders of magnitude),
    subnormal, cancelling (every score shared by both classes alike), small (below
    1e-3), large (1e3 to 1e5) or whole (whole-number weights, tied scores)."""
    rng = np.random.default_rng(sum(map(ord, kind)))
    y = rng.random(n) < 0.25
    s = rng.random(n)
    w = rng.uniform(0.1, 4.0, n)
    if kind == "tied":
        s, w = np.round(s, 2), rng.integers(1, 5, n) * 0.37
    elif kind == "wide":
        w = rng.uniform(0.5, 1.0, n) * 10.0 ** rng.integers(-200, 200, n).astype(float)
    elif kind == "subnormal":
        w = rng.uniform(0.5, 1.0, n) * 10.0 ** rng.integers(-315, -300, n).astype(float)
    elif kind == "cancelling":
        s = np.repeat(rng.random(n // 2), 2)
        y = np.tile([True, False], n // 2)
        w = np.repeat(rng.uniform(0.5, 1.5, n // 2), 2)
    elif kind == "small":
        w = rng.uniform(0.0, 1e-3, n)
    elif kind == "large":
        w = rng.uniform(1e3, 1e5, n)
    elif kind == "whole":
        s, w = np.round(s, 3), rng.integers(1, 3, n).astype(float)
    return y, s, w


@pytest.mark.parametrize("kind", ["uniform", "tied", "wide", "subnormal", "cancelling"])
def test_weighted_average_gain_compiled_is_the_same_float(kind: str) -> None:
    """Average gain's weighted sum is rounded once from the exact sum of the same terms,
    NumPy's way (exact_sum) and compiled (measures/_early_numba.py, a superaccumulator):
    the same float, bit for bit, also for weights over 400 orders of magnitude,
    subnormal ones, and a sum that cancels to nearly nothing (AUC about 1/2)."""
    from binmetrics.measures import early_recognition as er

    y, s, w = _weighted_case(kind, 30_000)
    got = []
    for compiled in (False, True):
        with use_compiled(compiled):
            t = bm.evaluate(y, s, sample_weight=w).table
            got.append(er._gain_sum(t))
    assert got[0] == got[1] or (math.isnan(got[0]) and math.isnan(got[1])), got
    assert math.isfinite(got[0])


@pytest.mark.parametrize("kind", ["uniform", "tied", "small", "large", "whole"])
def test_weighted_average_lift_compiled_agrees(kind: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Average lift's sum over a weighted table, compiled (measures/_early_numba.py
    lift_sum) and NumPy's pieces, to 1e-13 relative: the same harmonic gaps, digamma and
    series per group, libm's logarithms and another order of summation; groups with
    under ten cases before them (the recurrence), 10 to 1000 (six terms of the series)
    and above (two), weights far below and above one."""
    from binmetrics.measures import _early_numba as k
    from binmetrics.measures import _special
    from binmetrics.measures import early_recognition as er

    assert (k._S1, k._S2, k._S3, k._S4, k._S5, k._S6) == _special._SERIES
    y, s, w = _weighted_case(kind, 20_000)
    ran: list[bool] = []
    real = k.lift_sum

    def spy(*args: Any) -> float:
        ran.append(True)
        return float(real(*args))

    monkeypatch.setattr(k, "lift_sum", spy)
    got = []
    for compiled in (False, True):
        with use_compiled(compiled):
            got.append(er._lift_sum(bm.evaluate(y, s, sample_weight=w).table))
    assert got[1] == pytest.approx(got[0], rel=1e-13)
    assert ran == [True]  # the compiled loop ran once, for the compiled table only
