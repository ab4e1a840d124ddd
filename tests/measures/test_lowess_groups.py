"""Issue 33, point 5: the lowess family computed over distinct scores with their counts
(``clowess_counts``) equals R's row-by-row ``clowess`` (iter = 0), ties and integer
weights included; kept here as the reference is the row-wise implementation the
measures used before (a transcription of R's C code, one row at a time)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.measures.lowess import _LocalFit, clowess_counts, lowess_gaps


@pytest.fixture(autouse=True, params=["direct", "blocks"])
def block_sums(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test twice: as the measures run on these sizes (every weighted sum term by
    term), and with the sums over blocks of 4 distinct scores taken from their
    precomputed power sums (what large inputs use) wherever a whole block fits."""
    if request.param == "blocks":
        monkeypatch.setattr(_LocalFit, "TAYLOR", 4)
        monkeypatch.setattr(_LocalFit, "TAYLOR_MIN", 4)


# --- the reference: R's clowess over rows (binmetrics' implementation until issue 33) ----
def clowess_rows(x: np.ndarray, y: np.ndarray, f: float = 2 / 3,
                 delta: float | None = None, exact: bool = False) -> np.ndarray:
    """R's ``lowess(x, y, f, iter = 0, delta)$y`` for x sorted ascending; ``exact``:
    each local fit in exact rational arithmetic (its comparisons in floats, as R)."""
    n = x.size
    if n < 2:
        return y.astype(np.float64).copy()
    if delta is None:
        delta = 0.01 * (x[-1] - x[0])
    ns = max(2, min(n, int(f * n + 1e-7)))
    ys = np.empty(n)
    rng = x[-1] - x[0]
    nleft, nright, last, i = 0, ns - 1, -1, 0
    while True:
        if nright < n - 1:
            lo, hi = 0, n - 1 - nright
            while lo < hi:
                k = (lo + hi) // 2
                if x[i] - x[nleft + k] > x[nright + 1 + k] - x[i]:
                    lo = k + 1
                else:
                    hi = k
            nleft += lo
            nright += lo
        ys[i] = (_lowest_exact if exact else _lowest_rows)(x, y, x[i], nleft, nright, rng,
                                                          y[i])
        if last < i - 1:
            denom = x[i] - x[last]
            alpha = (x[last + 1:i] - x[last]) / denom
            ys[last + 1:i] = alpha * ys[i] + (1.0 - alpha) * ys[last]
        last = i
        cut = x[last] + delta
        brk = int(np.searchsorted(x, cut, side="right"))
        tie_end = int(np.searchsorted(x, x[last], side="right")) - 1
        if tie_end > last:
            ys[last + 1:tie_end + 1] = ys[last]
            last = tie_end
        i = max(last + 1, brk - 1)
        if last >= n - 1:
            break
    return ys


def _lowest_rows(x: np.ndarray, y: np.ndarray, xs: float, nleft: int, nright: int,
                 rng: float, fallback: float) -> float:
    h = max(xs - x[nleft], x[nright] - xs)
    h9, h1 = 0.999 * h, 0.001 * h
    end = int(np.searchsorted(x, xs + h, side="right")) + 1
    xw = x[nleft:end]
    r = np.abs(xw - xs)
    beyond = np.flatnonzero((r > h9) & (xw > xs))
    nrt = nleft + (int(beyond[0]) if beyond.size else xw.size)
    xw, r = x[nleft:nrt], r[: nrt - nleft]
    u = r / h if h > 0 else np.zeros_like(r)
    w = (1.0 - u ** 3) ** 3
    w[r <= h1] = 1.0
    w[r > h9] = 0.0
    a = float(w.sum())
    if a <= 0.0:
        return float(fallback)
    w = w / a
    if h > 0.0:
        a = float(np.sum(w * xw))
        b = xs - a
        d = xw - a
        c = float(np.sum(w * d * d))
        if math.sqrt(c) > 0.001 * rng:
            w = w * (b / c * d + 1.0)
    return float(np.sum(w * y[nleft:nrt]))


def _lowest_exact(x: np.ndarray, y: np.ndarray, xs: float, nleft: int, nright: int,
                  rng: float, fallback: float) -> float:
    """R's ``lowest`` with its sums in rationals: the fit of R's algorithm without
    rounding (R's own float sums lose about eps * |x| / spread of x, all the digits on
    scores a few ulps apart)."""
    h = max(xs - x[nleft], x[nright] - xs)
    h9, h1 = 0.999 * h, 0.001 * h
    ws, js = [], []
    for j in range(nleft, x.size):
        r = abs(x[j] - xs)
        if r <= h9:
            u = Fraction(float(r)) / Fraction(float(h)) if r > h1 else Fraction(0)
            ws.append((1 - u ** 3) ** 3)
            js.append(j)
        elif x[j] > xs:
            break
    a = sum(ws, Fraction(0))
    if a <= 0:
        return float(fallback)
    w = [wj / a for wj in ws]
    xf = [Fraction(float(x[j])) for j in js]
    if h > 0.0:
        mean = sum((wj * xj for wj, xj in zip(w, xf, strict=True)), Fraction(0))
        b = Fraction(float(xs)) - mean
        c = sum((wj * (xj - mean) ** 2 for wj, xj in zip(w, xf, strict=True)), Fraction(0))
        if math.sqrt(c) > 0.001 * rng:
            w = [wj * (b / c * (xj - mean) + 1) for wj, xj in zip(w, xf, strict=True)]
    return float(sum((wj * Fraction(float(y[j])) for wj, j in zip(w, js, strict=True)),
                     Fraction(0)))


def rows_of(x: np.ndarray, neg: np.ndarray, pos: np.ndarray) -> tuple[np.ndarray, ...]:
    """The rows the counts stand for, negatives first within a tie."""
    counts = np.column_stack([neg, pos]).astype(np.int64).ravel()
    return (np.repeat(np.repeat(x, 2), counts),
            np.repeat(np.tile([0.0, 1.0], x.size), counts))


def reference_stats(x: np.ndarray, neg: np.ndarray, pos: np.ndarray) -> tuple[float, ...]:
    """(ici, e50, e90, emax) as val.prob: approx(lowess(p, y), xout = p, ties = mean)."""
    xr, yr = rows_of(x, neg, pos)
    ys = clowess_rows(xr, yr)
    starts = np.flatnonzero(np.r_[True, xr[1:] != xr[:-1]])
    sizes = np.diff(np.r_[starts, xr.size])
    gaps = np.abs(xr - np.repeat(np.add.reduceat(ys, starts) / sizes, sizes))
    return (float(gaps.mean()), float(np.quantile(gaps, 0.5)), float(np.quantile(gaps, 0.9)),
            float(gaps.max()))


def counts_of(y: np.ndarray, p: np.ndarray, w: np.ndarray | None = None):
    w = np.ones(p.size, dtype=np.int64) if w is None else w
    x, inv = np.unique(p, return_inverse=True)
    pos = np.bincount(inv, weights=w * (y == 1), minlength=x.size).astype(np.int64)
    neg = np.bincount(inv, weights=w * (y == 0), minlength=x.size).astype(np.int64)
    keep = pos + neg > 0
    return x[keep], neg[keep], pos[keep]


def assert_same_smooth(x: np.ndarray, neg: np.ndarray, pos: np.ndarray,
                       exact: bool = False) -> None:
    """clowess_counts of the groups == the row-wise clowess of every row of each group
    (``exact``: R's algorithm without rounding)."""
    with np.errstate(all="ignore"):
        got = clowess_counts(x, neg, pos)
        xr, yr = rows_of(x, neg, pos)
        want = clowess_rows(xr, yr, exact=exact)
    assert got.shape == x.shape
    np.testing.assert_allclose(np.repeat(got, neg + pos), want, rtol=0, atol=1e-12)


def _data(rng: np.random.Generator, n: int, kind: str):
    if kind == "continuous":
        p = rng.beta(2, 5, n)
    elif kind == "2dp":
        p = np.round(rng.beta(2, 5, n), 2)
    elif kind == "1dp":
        p = np.round(rng.beta(2, 3, n), 1)
    elif kind == "few":  # three distinct scores: every window edge inside a tie
        p = rng.choice([0.2, 0.5, 0.9], n)
    elif kind == "extreme":  # the ends of [0, 1] and scores within 1e-12 of them
        p = rng.choice([0.0, 1e-300, 1e-12, 1e-6, 0.5, 1 - 1e-9, 1 - 2 ** -53, 1.0], n)
        p = np.where(rng.random(n) < 0.2, rng.random(n), p)
    elif kind == "clustered":  # a dense cluster and a few far scores
        p = np.where(rng.random(n) < 0.9, 0.3 + 1e-6 * rng.random(n), rng.random(n))
    else:  # "ulps": scores a few ulps apart
        p = 0.5 + np.spacing(0.5) * rng.integers(0, 6, n)
    y = (rng.random(n) < np.clip(p, 0.05, 0.95) ** 0.8).astype(int)
    return y, p


KINDS = ["continuous", "2dp", "1dp", "few", "extreme", "clustered", "ulps"]
#: scores whose spread is a tiny part of their size: R's float sums (x - mean) lose
#: eps * |x| / spread, so there the reference is R's algorithm in exact arithmetic
NEAR = ("clustered", "ulps")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", [2, 3, 5, 10, 31, 200, 1000])
def test_smooth_equals_rows(kind: str, n: int) -> None:
    if kind in NEAR and n > 200:
        pytest.skip("the exact reference is slow")
    rng = np.random.default_rng(n * 7 + KINDS.index(kind))
    for _ in range(5):
        y, p = _data(rng, n, kind)
        assert_same_smooth(*counts_of(y, p), exact=kind in NEAR)


@pytest.mark.parametrize("kind", KINDS)
def test_smooth_equals_rows_with_integer_weights(kind: str) -> None:
    rng = np.random.default_rng(5 + KINDS.index(kind))
    for n in (2, 7, 60, 400 if kind not in NEAR else 100):
        y, p = _data(rng, n, kind)
        w = rng.integers(1, 6, n)
        assert_same_smooth(*counts_of(y, p, w), exact=kind in NEAR)
        w[rng.random(n) < 0.3] = 0  # zero weights: those rows are left out
        if w.sum() > 0:
            assert_same_smooth(*counts_of(y, p, w), exact=kind in NEAR)


def test_scores_a_few_ulps_apart_follow_exact_arithmetic() -> None:
    # R's float sums (x - mean, the mean rounded to the scores' size) lose every digit
    # on scores a few ulps apart; the fit over groups takes its sums about the fit point
    # (differences of nearby floats are exact) and stays within 1e-12 of exact arithmetic
    rng = np.random.default_rng(9)
    worst_rows = 0.0
    for _ in range(4):
        x, neg, pos = counts_of(*_data(rng, 20, "ulps"))
        xr, yr = rows_of(x, neg, pos)
        exact = clowess_rows(xr, yr, exact=True)
        with np.errstate(all="ignore"):
            worst_rows = max(worst_rows, float(np.abs(clowess_rows(xr, yr) - exact).max()))
        got = np.repeat(clowess_counts(x, neg, pos), neg + pos)
        assert np.abs(got - exact).max() <= 1e-12
    assert worst_rows > 0.1  # (R's own algorithm in floats: off by tenths)


def test_left_edge_inside_a_tie() -> None:
    # 3 x with many rows each: R's window of 2/3 of the rows starts inside the middle tie
    # (its last rows, positives first), and that x has weight in the fits right of it
    rng = np.random.default_rng(3)
    for _ in range(50):
        x = np.sort(rng.choice(np.linspace(0, 1, 11), 4, replace=False))
        neg, pos = rng.integers(0, 9, 4), rng.integers(0, 9, 4)
        neg[neg + pos == 0] = 1
        assert_same_smooth(x, neg, pos)


def test_single_score_and_single_row() -> None:
    assert_same_smooth(np.array([0.3]), np.array([4]), np.array([2]))
    assert_same_smooth(np.array([0.3]), np.array([0]), np.array([1]))
    assert_same_smooth(np.array([0.3, 0.7]), np.array([1, 0]), np.array([0, 1]))
    assert_same_smooth(np.array([0.0, 1.0]), np.array([3, 0]), np.array([0, 3]))


@pytest.mark.parametrize("kind", ["continuous", "2dp", "few"])
@pytest.mark.parametrize("weighted", [False, True])
def test_measures_equal_the_row_reference(kind: str, weighted: bool) -> None:
    rng = np.random.default_rng(11)
    for n in (2, 50, 3000):
        y, p = _data(rng, n, kind)
        w = rng.integers(1, 4, n) if weighted else None
        ev = bm.evaluate(y, p, sample_weight=w, threshold=float(p.min()))
        want = reference_stats(*counts_of(y, p, w))
        got = tuple(ev.value(m, max_rows=None) for m in ("ici", "e50", "e90", "emax"))
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_gaps_are_per_distinct_score() -> None:
    rng = np.random.default_rng(2)
    y, p = _data(rng, 500, "2dp")
    ev = bm.evaluate(y, p)
    gaps, rows = lowess_gaps(ev.table, "ici", None)
    x, neg, pos = counts_of(y, p)
    assert gaps.shape == x.shape and np.array_equal(rows, neg + pos)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["continuous", "2dp"])
def test_measures_equal_the_row_reference_at_1e5(kind: str) -> None:
    rng = np.random.default_rng(4)
    y, p = _data(rng, 100_000, kind)
    ev = bm.evaluate(y, p)
    want = reference_stats(*counts_of(y, p))
    got = tuple(ev.value(m, max_rows=None) for m in ("ici", "e50", "e90", "emax"))
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_huge_integer_weights_are_rows_without_expanding_them() -> None:
    # weights of millions are millions of rows, never expanded (the smooth over counts
    # equals the row algorithm: tests above); ICI is the row-weighted mean of the gaps;
    # beyond 2^53 rows the counts are no longer exact: NaN with a warning
    rng = np.random.default_rng(8)
    y, p = _data(rng, 40, "2dp")
    w = rng.integers(1, 4, 40)
    big = bm.evaluate(y, p, sample_weight=w * 1_000_000, threshold=float(p.min()))
    x, neg, pos = counts_of(y, p, w * 1_000_000)
    assert big.value("ici", max_rows=None) == pytest.approx(
        float(np.sum(np.abs(x - clowess_counts(x, neg, pos)) * (neg + pos)) / w.sum() / 1e6),
        abs=1e-12)
    with pytest.warns(bm.UndefinedMeasureWarning, match="2\\^53"):
        huge = bm.evaluate(y, p, sample_weight=w * 2.0 ** 52, threshold=float(p.min()))
        assert np.isnan(huge.value("ici", max_rows=None))
