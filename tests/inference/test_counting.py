"""The counting of bootstrap draws (binmetrics.inference._counting): the compiled loops
give the same integers as NumPy's bincount and cumsum, so intervals do not depend on
whether numba is installed."""

from __future__ import annotations

import numpy as np
import pytest

from binmetrics.inference import _counting
from binmetrics.inference._counting import count_rows, cumulative_counts, use_compiled

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
        cum = cumulative_counts(keys, n_units, run, width, out=np.empty((len(keys), width)))
        cum_units = cumulative_counts(keys, n_units)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got_run, want_run)
    np.testing.assert_array_equal(cum, np.cumsum(want_run, axis=1))
    np.testing.assert_array_equal(cum_units, np.cumsum(want, axis=1))
    with use_compiled(False):
        assert _counting.compiled_kernels(10**9) is None
        np.testing.assert_array_equal(count_rows(keys, width, run), want_run)
        np.testing.assert_array_equal(cumulative_counts(keys, n_units, run, width), cum)


def test_a_unit_drawn_more_often_than_16_bits_hold() -> None:
    """The 16-bit counts of the cumulative kernel overflow at 65,535 draws of one unit:
    that row is counted again in 64 bits, the others are not disturbed."""
    keys = np.zeros((3, 70_000), dtype=np.intp)
    keys[1] = np.arange(70_000) % 7
    keys[2, :65_535] = 1
    run = np.array([0, 1, 1, 2, 2, 2, 3])
    with use_compiled(True):
        got = cumulative_counts(keys, 7, run, 4)
    want = np.cumsum(np.stack([np.bincount(run[k], minlength=4) for k in keys]), axis=1)
    np.testing.assert_array_equal(got, want)
    assert got[0].tolist() == [70_000] * 4


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
    same intervals compiled and with NumPy, bit for bit."""
    import warnings

    import binmetrics as bm

    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 3000)
    if scores == "one class":
        y[:] = 1
    p = rng.random(3000) if scores in ("distinct", "one class") else np.round(rng.random(3000), 2)
    w = rng.integers(1, 4, 3000) if scores == "weighted" else None
    ev = bm.evaluate(y, p, sample_weight=w)
    measures = ["tpr", "brier", "ece", "h_measure"] if scores == "one class" else \
        ["auc", "mcc", "brier", "ece", "bedroc", "h_measure"]
    got = {}
    for on in (True, False):
        with use_compiled(on), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            table = ev.ci_table(measures, method="bootstrap", n_resamples=40,
                                random_state=3, stratified=stratified)
            got[on] = [table.to_numpy()[:, 1:4].astype(float)]
            if scores not in ("weighted", "one class") and stratified:
                best = ev.best_threshold("f1", ci=True, n_resamples=40, random_state=3)
                got[on] += [np.array([best.threshold_ci.low, best.threshold_ci.high,
                                      best.value_ci.low])]
    for a, b in zip(got[True], got[False], strict=True):
        np.testing.assert_array_equal(a, b)  # bit for bit, NaN where NaN


def test_count_rows_past_16_bits() -> None:
    keys = np.zeros((2, 70_000), dtype=np.intp)
    keys[1] = np.arange(70_000) % 3
    with use_compiled(True):
        got = count_rows(keys, 3)
    assert got.tolist() == [[70_000, 0, 0], [23_334, 23_333, 23_333]]
