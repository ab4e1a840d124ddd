"""The NumPy special functions of binmetrics.measures._special against SciPy's, and the
first evaluation's imports without scipy.special (0.7 s of a first call)."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal, localcontext

import numpy as np
import pytest
from scipy import special

from binmetrics.measures._special import beta_integrals, digamma, expit


def test_digamma_agrees_with_scipy() -> None:
    rng = np.random.default_rng(0)
    x = np.r_[1.0, 1.5, 2.0, 3.0, 9.999, 10.0, 10.5, 100.0, 1e3, 1e6, 1e7 + 0.5,
              rng.uniform(1.0, 60.0, 5000), np.arange(1.0, 200.0)]
    np.testing.assert_allclose(digamma(x), special.digamma(x), rtol=0, atol=4e-15)
    assert isinstance(digamma(5.0), float)
    assert digamma(0.5) == special.digamma(0.5)  # below 1: SciPy's own


def test_expit_agrees_with_scipy() -> None:
    z = np.linspace(-700.0, 700.0, 200_001)
    np.testing.assert_allclose(expit(z), special.expit(z), rtol=1e-15, atol=0)


def _exact(m: int, bb: float, c: float) -> float:
    """I_c(m, bb) for a whole m, in 60-digit decimals (the finite sum)."""
    with localcontext() as ctx:
        ctx.prec = 60
        C, B = Decimal(float(c)), Decimal(float(bb))
        coef, total = Decimal(1), Decimal(0)
        for j in range(m):
            if j:
                coef = coef * (B + j - 1) / j
            total += coef * (C**j if j else Decimal(1))
        q = 1 - C
        power = Decimal(0) if q == 0 else (q.ln() * B).exp()
        return float(1 - power * total)


@pytest.mark.parametrize("b", [1.0, 1.11, 3.7, 10.0, 1e3])
@pytest.mark.parametrize("a", [1.0, 2.0])
def test_beta_integrals_closed_forms_are_exact(a: float, b: float) -> None:
    """B(a+1, b)/B(a, b) = a/(a+b) exactly; the finite sums against 60-digit decimals
    (SciPy's betainc is 2e-14 off at b = 1000, its ratio of beta functions 1e-12)."""
    m1, m2 = beta_integrals(a, b)
    for c in [0.0, 1e-9, 0.0025, 0.01, 0.1, 0.3, 0.5, 0.77, 0.99, 1.0 - 1e-9, 1.0]:
        assert m1(c) == pytest.approx(a / (a + b) * _exact(int(a) + 1, b, c), rel=0, abs=2e-15)
        assert m2(c) == pytest.approx(b / (a + b) * _exact(int(a), b + 1, c), rel=0, abs=2e-15)


@pytest.mark.parametrize("a", [2.5, 5.0])
def test_beta_integrals_otherwise_are_scipys(a: float) -> None:
    c = np.linspace(0.0, 1.0, 101)
    m1, m2 = beta_integrals(a, 3.0)
    np.testing.assert_array_equal(m1(c), a / (a + 3.0) * special.betainc(a + 1, 3.0, c))
    np.testing.assert_array_equal(m2(c), 3.0 / (a + 3.0) * special.betainc(a, 4.0, c))


def test_a_first_evaluation_does_not_import_scipy_special() -> None:
    code = ("import sys, numpy as np, binmetrics as bm; r = np.random.default_rng(0); "
            "bm.evaluate(r.random(1000) < 0.3, r.random(1000)).to_dict(); "
            "print(sorted(m for m in sys.modules if m.startswith('scipy.special')))")
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code], check=True,
                         capture_output=True, text=True).stdout.strip()
    assert out == "[]"
