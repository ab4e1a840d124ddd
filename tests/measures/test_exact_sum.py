"""exact_sum: math.fsum's once-rounded sum, bit for bit, by error-free extraction."""

from __future__ import annotations

import math

import numpy as np
import pytest

from binmetrics.measures._util import exact_sum


def _cases(seed: int) -> list[np.ndarray]:
    r = np.random.default_rng(seed)
    n = int(r.integers(1, 3000))
    x = r.normal(size=n)
    return [
        x * 10.0 ** r.integers(-300, 300, n),               # every magnitude
        np.concatenate([x, -x * (1 + 1e-16)]),                # near-total cancellation
        r.uniform(-1, 1, n) * 2.0 ** r.integers(-1074, 1000, n),  # subnormals to huge
        np.concatenate([[1e308, -1e308, 1.0], x]),            # sigma would overflow
        r.integers(-5, 5, n) * 1e-320,                        # subnormal only
        np.round(x * 1e6) * 2.0**-20,                         # few bits: one level
        np.zeros(n),
    ]


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("block", [7, 64, 1 << 16])
def test_exact_sum_is_fsum_bit_for_bit(seed: int, block: int) -> None:
    for x in _cases(seed):
        h = x.size // 3
        assert exact_sum([x[:h], x[h:]], block=block) == math.fsum(x.tolist())


def test_exact_sum_of_non_finite_values_is_what_fsum_gives() -> None:
    assert math.isnan(exact_sum([np.array([1.0, np.nan, 2.0])]))
    assert exact_sum([np.array([1.0, np.inf, 2.0])]) == math.inf
    with pytest.raises(ValueError, match="inf"):  # as math.fsum([-inf, inf])
        exact_sum([np.array([-np.inf, np.inf])])
    assert exact_sum([np.zeros(0)]) == 0.0


def test_harmonic_gap_equals_the_sum_of_reciprocals_on_every_range_of_its_series() -> None:
    """early_recognition._harmonic_gap (average lift with weights): digammas below
    1000, the asymptotic series above, its last term dropped from 1e4 on; at integer
    ends it must equal sum 1/j over (c0, c1], summed with fsum, to a few ulps."""
    from binmetrics.measures.early_recognition import _harmonic_gap

    rng = np.random.default_rng(0)
    c0 = np.sort(np.concatenate([rng.integers(1000, 10**4, 200), rng.integers(10**4, 10**8, 200),
                                 [999, 1000, 9999, 10**4, 10**4 + 1]])).astype(np.float64)
    c1 = c0 + rng.integers(1, 40, c0.size)
    got = _harmonic_gap(c0, c1)
    want = np.array([math.fsum(1.0 / j for j in range(int(a) + 1, int(b) + 1))
                     for a, b in zip(c0, c1, strict=True)])
    np.testing.assert_allclose(got, want, rtol=1e-15, atol=0)  # 1/j rounds: a few ulps
