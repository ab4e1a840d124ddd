"""The special functions the default measures need, in NumPy: importing
``scipy.special`` costs about 0.7 s (it pulls in NumPy's f2py and testing packages
through SciPy's array-API layer), more than everything else a first
``evaluate(...).to_dict()`` does, so the measures take these from here and import SciPy
only for arguments outside what is written here.

* :func:`expit`: ``1 / (1 + exp(-x))``, scipy.special.expit's own formula.
* :func:`digamma`: psi(x) for x >= 1 by the recurrence psi(x) = psi(x + 1) - 1/x up to
  x >= 10 and the asymptotic series there (terms to x^-12: error under 1e-15).
* :func:`beta_integrals`: the two integrals of the H-measure's Beta(a, b) prior, closed
  forms for a = 1 and 2 (the H-measure's a = 2).

Examples
--------
>>> import numpy as np
>>> float(expit(0.0)), round(digamma(1.0), 12)  # psi(1) = -Euler's gamma
(0.5, -0.577215664902)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["beta_integrals", "digamma", "expit"]

FloatArray = npt.NDArray[np.float64]

#: the asymptotic series of psi from here up (the recurrence below it)
_ASYMPTOTIC = 10.0
#: B_2k / (2k) of the series psi(x) = ln x - 1/(2x) - sum_k B_2k / (2k x^2k), k = 1..6
_SERIES = (1.0 / 12.0, -1.0 / 120.0, 1.0 / 252.0, -1.0 / 240.0, 1.0 / 132.0,
           -691.0 / 32760.0)


def expit(x: Any) -> Any:
    """The logistic function ``1 / (1 + exp(-x))``, elementwise."""
    out = np.array(x, dtype=np.float64)
    np.negative(out, out=out)
    np.exp(out, out=out)
    out += 1.0
    np.reciprocal(out, out=out)
    return out[()] if out.ndim == 0 else out


def digamma(x: Any) -> Any:
    """The digamma function psi of x >= 1 (an array or a float); other arguments go to
    scipy.special.digamma."""
    xa = np.asarray(x, dtype=np.float64)
    if xa.size and not (xa.min() >= 1.0):  # also NaN: SciPy's conventions
        from scipy.special import digamma as scipy_digamma

        return scipy_digamma(x)
    y = np.array(xa, dtype=np.float64, ndmin=1)
    out = np.zeros_like(y)
    low = np.flatnonzero(y < _ASYMPTOTIC)
    if low.size:
        z = y[low]
        acc = np.zeros_like(z)
        while True:  # at most 9 steps from x >= 1
            under = z < _ASYMPTOTIC
            if not under.any():
                break
            acc[under] += 1.0 / z[under]
            z[under] += 1.0
        y[low] = z
        out[low] = -acc
    inv2 = 1.0 / (y * y)
    series = np.full_like(y, _SERIES[-1])
    for c in _SERIES[-2::-1]:
        series *= inv2
        series += c
    series *= inv2
    out += np.log(y) - 0.5 / y - series
    return out.reshape(xa.shape) if xa.ndim else float(out[0])


def beta_integrals(a: float, b: float) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    """c -> int_0^c x u(x) dx and c -> int_0^c (1 - x) u(x) dx, u the Beta(a, b)
    density.

    They are B(a+1, b)/B(a, b) I_c(a+1, b) = a/(a+b) I_c(a+1, b) and
    b/(a+b) I_c(a, b+1), I the regularised incomplete beta function (the ratio a/(a+b)
    is exact, where SciPy's ratio of two beta functions is 1e-12 off at b = 1000). For
    a = 1 or 2, I_c(m, b) = 1 - (1-c)^b sum_{j<m} (b)_j / j! c^j (a finite sum: the
    binomial expansion of its complement; within 2e-15 of SciPy's betainc for b up to
    1e3); for other a (its sum loses digits when a and b are large) scipy's betainc.
    """
    if a not in (1.0, 2.0):
        from scipy.special import betainc

        k1, k2 = a / (a + b), b / (a + b)
        return (lambda c: k1 * betainc(a + 1, b, c)), (lambda c: k2 * betainc(a, b + 1, c))

    def regularised(m: int, bb: float) -> Callable[[Any], Any]:
        coef = [1.0]
        for j in range(1, m):
            coef.append(coef[-1] * (bb + j - 1) / j)

        def f(c: Any) -> Any:
            c = np.asarray(c, dtype=np.float64)
            poly = np.full_like(c, coef[-1])
            for k in coef[-2::-1]:
                poly *= c
                poly += k
            with np.errstate(divide="ignore", invalid="ignore"):
                tail = np.exp(bb * np.log1p(-c)) * poly
            return 1.0 - tail

        return f

    m = int(a)
    i1, i2 = regularised(m + 1, b), regularised(m, b + 1.0)
    k1, k2 = a / (a + b), b / (a + b)
    return (lambda c: k1 * i1(c)), (lambda c: k2 * i2(c))
