"""The counting of bootstrap draws (binmetrics.inference._counting): the compiled loops
give the same integers as NumPy's bincount and cumsum, so intervals do not depend on
whether numba is installed (those of the replicate sums to rounding: the compiled pass
over the terms sums in another order than NumPy's einsum)."""

from __future__ import annotations

import numpy as np
import pytest

from binmetrics.inference import _counting
from binmetrics.inference._counting import count_rows, cumulative_counts, use_compiled
from binmetrics.measures.kernels import COMPILED_TO_ROUNDING

numba = pytest.importorskip("numba")


def _random_case(rng: np.random.Generator) -> tuple[np.ndarray, int, np.ndarray, int]:
    n_units = int(rng.integers(1, 300))
    keys = rng.integers(0, n_units, size=(int(rng.integers(1, 5)), int(rng.integers(1, 900))))
    width = int(rng.integers(1, 40))
    run = np.sort(rng.integers(0, width, size=n_units))  # runs never decrease
    return keys, n_units, run, width


@pytest.mark.parametrize("seed", range(20))
def test_compiled_counts_equal_bincount(seed: int) -> None:
    keys, n_units, run, width = _random_case(np.random.default_rng(seed))
    want = np.stack([np.bincount(k, minlength=n_units) for k in keys])
    want_run = np.stack([np.bincount(run[k], minlength=width) for k in keys])
    with use_compiled(True):
        assert _counting.compiled_kernels(0) is not None
        got, got_run = count_rows(keys, n_units), count_rows(keys, width, run)
        ends = np.searchsorted(run, np.arange(width), side="right")  # run k: units < ends[k]
        cum = cumulative_counts(keys, n_units, ends, out=np.empty((len(keys), width)))
        cum_units = cumulative_counts(keys, n_units)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got_run, want_run)
    np.testing.assert_array_equal(cum, np.cumsum(want_run, axis=1))
    np.testing.assert_array_equal(cum_units, np.cumsum(want, axis=1))
    with use_compiled(False):
        assert _counting.compiled_kernels(10**9) is None
        np.testing.assert_array_equal(count_rows(keys, width, run), want_run)
        np.testing.assert_array_equal(cumulative_counts(keys, n_units, ends), cum)


@pytest.mark.parametrize("drawn", [254, 255, 256, 70_000])
def test_a_unit_drawn_more_often_than_8_bits_hold(drawn: int) -> None:
    """The 8-bit counts of the kernels overflow at 255 draws of one unit: that row is
    counted again in 64 bits, the others are not disturbed."""
    keys = np.zeros((3, drawn + 10), dtype=np.intp)
    keys[1] = np.arange(drawn + 10) % 7
    keys[2, :drawn] = 1
    run = np.array([0, 1, 1, 2, 2, 2, 3])
    ends = np.searchsorted(run, np.arange(4), side="right")
    with use_compiled(True):
        got = cumulative_counts(keys, 7, ends)
        counted = count_rows(keys, 7)
        looked_up = count_rows(keys, 4, run)
    want = np.cumsum(np.stack([np.bincount(run[k], minlength=4) for k in keys]), axis=1)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(counted, np.stack([np.bincount(k, minlength=7) for k in keys]))
    np.testing.assert_array_equal(looked_up,
                                  np.stack([np.bincount(run[k], minlength=4) for k in keys]))
    assert got[0].tolist() == [drawn + 10] * 4


def test_strided_output_and_empty_rows() -> None:
    keys = np.array([[2, 0, 2, 1]])
    out = np.zeros((1, 5))
    with use_compiled(True):
        cumulative_counts(keys, 3, out=out[:, 2:])
    assert out.tolist() == [[0.0, 0.0, 1.0, 2.0, 4.0]]
    with use_compiled(True):
        assert count_rows(np.zeros((2, 0), dtype=np.intp), 3).tolist() == [[0, 0, 0]] * 2


def test_environment_switch_and_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """By default the kernels count large draws only (small ones gain nothing and would
    import numba); the environment variable turns them off whatever the size."""
    big, small = _counting.COMPILED_ROWS, _counting.COMPILED_ROWS - 1
    with use_compiled(None):
        assert _counting.compiled_kernels(big) is not None
        assert _counting.compiled_kernels(small) is None
        monkeypatch.setenv(_counting.ENV, "0")
        assert _counting.compiled_kernels(big) is None
        with use_compiled(True):
            assert _counting.compiled_kernels(small) is None  # the environment wins
        monkeypatch.setenv(_counting.ENV, "1")
        assert _counting.compiled_kernels(big) is not None


@pytest.mark.parametrize("scores", ["distinct", "tied", "weighted", "one class"])
@pytest.mark.parametrize("stratified", [True, False])
def test_intervals_do_not_depend_on_the_compiled_kernels(scores: str,
                                                         stratified: bool) -> None:
    """Every path that counts draws (cells, cumulative cuts, replicate tables) gives the
    same intervals compiled and with NumPy, bit for bit; the measures that read replicate
    sums (brier) or per-bin sums (ece) to rounding: the compiled passes sum their terms in
    another order; and the kernels compiled to rounding (BEDROC's takes libm's exp)."""
    import warnings

    import binmetrics as bm

    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 3000)
    if scores == "one class":
        y[:] = 1
    p = rng.random(3000) if scores in ("distinct", "one class") else np.round(rng.random(3000), 2)
    w = rng.integers(1, 4, 3000) if scores == "weighted" else None
    ev = bm.evaluate(y, p, sample_weight=w)
    # mean_precision reads replicate tables (built from the cells' counts in one pass)
    # or, compiled, a walk of the cells; h_measure the replicates' groups with positives
    measures = ["tpr", "brier", "ece", "h_measure", "mean_precision"] if scores == "one class" \
        else ["auc", "mcc", "brier", "ece", "bedroc", "h_measure", "mean_precision"]
    got, close = {}, {}
    for on in (True, False):
        with use_compiled(on), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            table = ev.ci_table(measures, method="bootstrap", n_resamples=40,
                                random_state=3, stratified=stratified)
            sums = np.array([any(g.terms for g in bm.get_measure(m).sums)
                             or bm.get_measure(m).bin_sums is not None
                             or bm.get_measure(m).resampling_kernel in COMPILED_TO_ROUNDING
                             for m in table["id"]])
            got[on] = [table.to_numpy()[~sums, 1:4].astype(float)]
            close[on] = table.to_numpy()[sums, 1:4].astype(float)
            if scores not in ("weighted", "one class") and stratified:
                best = ev.best_threshold("f1", ci=True, n_resamples=40, random_state=3)
                got[on] += [np.array([best.threshold_ci.low, best.threshold_ci.high,
                                      best.value_ci.low])]
    for a, b in zip(got[True], got[False], strict=True):
        np.testing.assert_array_equal(a, b)  # bit for bit, NaN where NaN
    assert close[True].size > 0
    np.testing.assert_allclose(close[True], close[False], rtol=1e-12, atol=0.0)


def test_integers_are_numpys_values_and_state() -> None:
    """The compiled draws are Generator.integers' values, and leave the generator where
    NumPy leaves it (the buffered half-word included), for every bound and size: with
    bounds near 2**31 a third of the words are rejected."""
    from binmetrics.inference._counting import integers

    pick = np.random.default_rng(11)
    for trial in range(200):
        seed = int(pick.integers(2**31))
        n = int(pick.choice([2, 3, 7, 1000, 999_983, 2**31 - 1, 3 * 2**29 + 1,
                             int(pick.integers(2, 2**31))]))
        shape = (int(pick.integers(0, 4)), int(pick.integers(0, 40)))
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        if trial % 2:  # an odd number of 32-bit words drawn before: a half is buffered
            a.integers(0, 10, 3)
            b.integers(0, 10, 3)
        want = a.integers(0, n, size=shape, dtype=np.intp)
        with use_compiled(True):
            got = integers(b, n, shape)
        np.testing.assert_array_equal(got, want)
        assert got.dtype == want.dtype
        assert b.bit_generator.state == a.bit_generator.state
        assert b.integers(0, 2**20, 3).tolist() == a.integers(0, 2**20, 3).tolist()
    # other generators, bounds and sizes: NumPy's own call
    with use_compiled(True):
        mt = np.random.Generator(np.random.MT19937(3))
        assert integers(mt, 5, (4,)).tolist() == \
            np.random.Generator(np.random.MT19937(3)).integers(0, 5, 4).tolist()
        assert integers(np.random.default_rng(1), 1, (3,)).tolist() == [0, 0, 0]


@pytest.mark.parametrize("n", [2, 5, 1000, 3 * 2**20 + 1])
def test_draw_cumulative_counts_numpys_draws(n: int) -> None:
    """Counted as they are drawn, the draws give the counts of rng.integers' values and
    leave the generator as that call does; with n = 2 or 5 and 600 draws per row a value
    passes 255 and the row is drawn again, kept, from the saved state."""
    from binmetrics.inference._counting import draw_cumulative

    pick = np.random.default_rng(n)
    for trial in range(30):
        seed = int(pick.integers(2**31))
        shape = (int(pick.integers(1, 4)), int(pick.integers(1, 600)))
        ends = np.sort(pick.integers(0, min(n, 50) + 1, size=int(pick.integers(1, 8))))
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        if trial % 2:
            a.integers(0, 10, 1)
            b.integers(0, 10, 1)
        draws = a.integers(0, n, size=shape, dtype=np.intp)
        want = np.stack([(row[:, None] < ends[None, :]).sum(axis=0) for row in draws])
        got = np.full((shape[0], ends.size), -1.0)
        with use_compiled(True):
            draw_cumulative(b, n, shape, ends, got)
        np.testing.assert_array_equal(got, want)
        assert b.bit_generator.state == a.bit_generator.state


@pytest.mark.parametrize("n", [2, 5, 1000, 3 * 2**20 + 1])
def test_draw_counts_counts_numpys_draws(n: int) -> None:
    """Counted as they are drawn (per unit, or per cell through a lookup), the draws
    give the counts of rng.integers' values and leave the generator as that call does:
    rows of every length around the compiled kernel's batches (2 * PCG_BATCH values),
    a spare half word first or not; with n = 2 or 5 and up to 700 draws a row a count
    passes 255 and the rows are drawn again, kept, from the saved state."""
    from binmetrics.inference._counting import draw_counts
    from binmetrics.inference._counting_numba import PCG_BATCH

    pick = np.random.default_rng(n + 1)
    lengths = [1, 2, 2 * PCG_BATCH - 1, 2 * PCG_BATCH, 2 * PCG_BATCH + 1, 3 * PCG_BATCH + 7]
    for trial in range(24):
        seed = int(pick.integers(2**31))
        d = lengths[trial % len(lengths)] if trial < 12 else int(pick.integers(1, 700))
        shape = (int(pick.integers(1, 4)), d)
        lookup = np.sort(pick.integers(0, 40, n)) if trial % 3 == 0 else None
        width = 40 if lookup is not None else n
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        if trial % 2:
            a.integers(0, 10, 1)
            b.integers(0, 10, 1)
        draws = a.integers(0, n, size=shape, dtype=np.intp)
        keys = draws if lookup is None else lookup[draws]
        want = np.stack([np.bincount(row, minlength=width) for row in keys])
        with use_compiled(True):
            got = draw_counts(b, n, shape, lookup, width)
        np.testing.assert_array_equal(got, want)
        assert b.bit_generator.state == a.bit_generator.state
        assert b.integers(0, 2**20, 3).tolist() == a.integers(0, 2**20, 3).tolist()


@pytest.mark.parametrize("seed", range(6))
def test_bin_moments_compiled_and_numpy(seed: int) -> None:
    """The moments of runs of cells (the replicate fits' bins): compiled and NumPy agree
    to rounding with exact sums (math.fsum), runs crossing the NumPy pieces included."""
    import itertools
    import math

    from binmetrics.inference._counting import bin_moments

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 5000))
    counts = rng.integers(0, 4, n)
    d = rng.random(n)
    starts = np.unique(np.r_[0, rng.integers(0, n, int(rng.integers(1, n + 1)))]).astype(np.intp)
    cuts = np.unique(np.searchsorted(starts, np.arange(0, n, 700)))
    ends = [*cuts[1:].tolist(), starts.size]
    chunks = tuple((int(starts[b0]), int(starts[b1]) if b1 < starts.size else n, int(b0), b1)
                   for b0, b1 in zip(cuts.tolist(), ends, strict=True))
    unit = float(rng.uniform(0.5, 3.0))
    bounds = [*starts.tolist(), n]
    want = np.array([[math.fsum(counts[i] * unit * d[i] ** k for i in range(a, b))
                      for a, b in itertools.pairwise(bounds)]
                     for k in range(7)])
    for on in (True, False):
        with use_compiled(on):
            got = bin_moments(counts, unit, d, starts, chunks, 6)
            if on and seed == 0:  # the compiled loop is the replicate fits' order
                from binmetrics.inference._counting import MOMENT_ORDER
                from binmetrics.measures.logistic_fit import REPLICATE_BINS

                assert REPLICATE_BINS[1] == MOMENT_ORDER == 6
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-12, err_msg=str(on))


@pytest.mark.parametrize("seed", range(4))
def test_run_dots_compiled_and_numpy(seed: int) -> None:
    """The per-run dot products of the calibration bins' replicates: compiled and NumPy
    both within rounding of the exact sums (math.fsum), 8-bit and 64-bit counts."""
    import math

    from binmetrics.inference._counting import run_dots

    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 3000))
    counts = rng.integers(0, 5, (3, m))
    values = rng.random((2, m))
    cuts = np.sort(rng.choice(np.arange(1, m), size=min(m - 1, 9), replace=False)) \
        if m > 1 else np.array([], dtype=np.intp)
    starts = np.r_[0, cuts].astype(np.intp)
    stops = np.r_[cuts, m].astype(np.intp)
    lo = int(rng.integers(0, 4))  # the runs' cells start at column lo of the counts
    counts = np.hstack((rng.integers(0, 5, (3, lo)), counts))
    want = np.array([[[math.fsum(counts[i, lo + a:lo + b] * values[k, a:b])
                       for a, b in zip(starts, stops, strict=True)]
                      for i in range(3)] for k in range(2)])
    for on, c in ((True, counts), (True, counts.astype(np.uint8)), (False, counts)):
        with use_compiled(on):
            got = run_dots(c, lo, values, starts, stops)
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=0)


def test_grouped_blocks_give_the_same_replicates(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where one replicate fills a block, compiled, several make a block, each drawn as a
    block of its own: every measure's replicates are those of one replicate a block, bit
    for bit (tied, distinct and weighted scores; stratified or not)."""
    import warnings

    import binmetrics as bm
    from binmetrics.inference import _replicates as rs

    monkeypatch.setattr(rs, "_BLOCK_ELEMENTS", 1)  # one replicate fills a block
    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 600)
    for p, w, stratified in ((rng.random(600), None, True),
                             (np.round(rng.random(600), 2), None, False),
                             (rng.random(600), rng.integers(1, 4, 600), True)):
        ev = bm.evaluate(y, p, sample_weight=w)
        got = []
        for group in (1, 3):
            monkeypatch.setattr(rs, "_GROUP", group)
            with use_compiled(True), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got.append(ev.ci_table(method="bootstrap", n_resamples=20, random_state=4,
                                       stratified=stratified, progress=False)
                           .to_numpy()[:, 1:4].astype(float))
        np.testing.assert_array_equal(got[0], got[1])
