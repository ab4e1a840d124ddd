"""The compiled loop of the logistic fits' Newton steps (numba, the ``fast`` extra):
:func:`bin_newton_sums`, the sums of ``logistic_fit._bin_sums`` from bins of logit(p).

Built with :func:`binmetrics.backends.jit` (module-level functions, cached on disk, plain
Python without numba) and reached only through
:func:`binmetrics.measures.logistic_fit.compiled_bin_sums`: by a large table's fits and
by the bootstrap replicates' fits (:mod:`binmetrics.inference._replicate_fits`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from binmetrics.backends import inline, jit

__all__ = ["NEWTON_TILE", "bin_newton_sums"]


#: bins per tile of :func:`bin_newton_sums`: the tile's nine terms per bin (9 kB) stay in
#: the first-level cache until they are summed, each as one block of NumPy's pairwise sum
NEWTON_TILE = 128


@inline
def _add(s: float, c: float, x: float) -> tuple[float, float]:  # pragma: no cover
    # s + x, and the compensation c plus what that addition rounds off (Knuth's TwoSum,
    # exact, without a branch)
    t = s + x
    z = t - s
    return t, c + ((s - (t - z)) + (x - z))


@inline
def _tile_sum(x: Any, m: int) -> float:  # pragma: no cover - compiled
    # x[0] + ... + x[m - 1] as NumPy sums a block of up to 128 (its pairwise sum's
    # leaves): eight partial sums, each every eighth term, added pairwise, then the
    # terms left over one by one. Eight chains, not one: no wait on each addition
    if m < 8:
        r = 0.0
        for i in range(m):
            r += x[i]
        return r
    r0, r1, r2, r3, r4, r5, r6, r7 = x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]
    top = m - m % 8
    for i in range(8, top, 8):
        r0 += x[i]
        r1 += x[i + 1]
        r2 += x[i + 2]
        r3 += x[i + 3]
        r4 += x[i + 4]
        r5 += x[i + 5]
        r6 += x[i + 6]
        r7 += x[i + 7]
    r = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    for i in range(top, m):
        r += x[i]
    return r


# the division 1 / (1 + e) checked for zero (numba's default, Python's error) would keep
# the loop from being vectorized; 1 + e is never 0 here (e >= 0, or NaN)
@jit(error_model="numpy")
def bin_newton_sums(c: Any, S: Any, pos: Any, pos1: Any, w: float, b: float, e_minus: Any,
                    e_plus: Any, slope: bool, R: Any, out: Any) -> None:  # pragma: no cover
    # The five sums of logistic_fit._bin_sums (r, r x, v, v x, v x^2 of a Newton step)
    # from moments S_0..S_6 (S: (7, bins); a lower order's rows above it zero, which
    # adds exact zeros to each term), from the bins'
    # edges c, positives pos and positives' first moment pos1, width w, slope b and
    # e_minus = exp(-eta), e_plus = exp(eta), eta = a + b c (NumPy's exponentials: libm's
    # here cost 13 ns each). Each bin's terms are taken as _bin_sums takes them,
    # operation for operation (no contraction, no reassociation: the same floats):
    # s = expit(eta) and u = expit(-eta) as _special.expit, 1 / (1 + exp(-.));
    # D_m = s u R_m(s) by Horner on R (row m - 1: R_m's coefficients, lowest power
    # first); higher(shift, moment) summed from m = 1 up; the residual as
    # tot (1 - mu) - neg where s > 1/2 at the bin's edge. Only the sums over the bins
    # are taken in another order (below). The loop over a tile's bins is straight-line
    # code, which LLVM vectorizes: 5626 bins (a replicate at 1e6 rows) in about
    # 0.1 ms, where NumPy's 60-odd calls per step took 0.6
    h = b * w
    c1 = h / 1.0  # h^m / m!, as Python's h**m / math.factorial(m)
    c2 = h ** 2.0 / 2.0
    c3 = h ** 3.0 / 6.0
    c4 = h ** 4.0 / 24.0
    c5 = h ** 5.0 / 120.0
    c6 = h ** 6.0 / 720.0
    q20, q21 = R[1, 0], R[1, 1]
    q30, q31, q32 = R[2, 0], R[2, 1], R[2, 2]
    q40, q41, q42, q43 = R[3, 0], R[3, 1], R[3, 2], R[3, 3]
    q50, q51, q52, q53, q54 = R[4, 0], R[4, 1], R[4, 2], R[4, 3], R[4, 4]
    q60, q61, q62, q63, q64, q65 = R[5, 0], R[5, 1], R[5, 2], R[5, 3], R[5, 4], R[5, 5]
    q70, q71, q72, q73, q74, q75, q76 = (R[6, 0], R[6, 1], R[6, 2], R[6, 3], R[6, 4],
                                         R[6, 5], R[6, 6])
    n = c.shape[0]
    T = NEWTON_TILE
    terms = np.empty((9, T))  # per bin of a tile: r, r c, r_1, v, v c, v c^2, v_1, v_1 c, v_2
    # the nine sums over the bins, each a tile at a time (_tile_sum) and the tiles'
    # sums added exactly (_add): the sums' error is then at most that of NumPy's
    # pairwise sums, whose leaves are such blocks. A plain chain over the bins lost too
    # much on scores near 1 (a gradient that is a small difference of large terms, a
    # small Hessian): slopes near 0 came out 4e-12 relative off the reference
    acc = np.zeros(9)
    err = np.zeros(9)
    for t0 in range(0, n, T):
        # the tile's views, indexed from 0 by the loop: LLVM then knows every index is
        # not negative (numba's negative indexing otherwise made each load a gather)
        end = min(t0 + T, n)
        m_t = end - t0
        S0, S1, S2, S3 = S[0, t0:end], S[1, t0:end], S[2, t0:end], S[3, t0:end]
        S4, S5, S6 = S[4, t0:end], S[5, t0:end], S[6, t0:end]
        em, ep, p0, p1, cc = (e_minus[t0:end], e_plus[t0:end], pos[t0:end], pos1[t0:end],
                              c[t0:end])
        for i in range(m_t):
            s = 1.0 / (1.0 + em[i])
            u = 1.0 / (1.0 + ep[i])
            su = s * u
            d2 = (q21 * s + q20) * su
            d3 = ((q32 * s + q31) * s + q30) * su
            d4 = (((q43 * s + q42) * s + q41) * s + q40) * su
            d5 = ((((q54 * s + q53) * s + q52) * s + q51) * s + q50) * su
            d6 = (((((q65 * s + q64) * s + q63) * s + q62) * s + q61) * s + q60) * su
            d7 = ((((((q76 * s + q75) * s + q74) * s + q73) * s + q72) * s + q71) * s
                  + q70) * su
            # higher(shift, moment) = sum_m D_{m + shift} (h^m / m!) S_{m + moment}
            t1, t2, t3 = c1 * S1[i], c2 * S2[i], c3 * S3[i]
            t4, t5, t6 = c4 * S4[i], c5 * S5[i], c6 * S6[i]
            h00 = su * t1 + d2 * t2 + d3 * t3 + d4 * t4 + d5 * t5 + d6 * t6
            h10 = d2 * t1 + d3 * t2 + d4 * t3 + d5 * t4 + d6 * t5 + d7 * t6
            t1, t2, t3 = c1 * S2[i], c2 * S3[i], c3 * S4[i]
            t4, t5 = c4 * S5[i], c5 * S6[i]
            h01 = su * t1 + d2 * t2 + d3 * t3 + d4 * t4 + d5 * t5
            h11 = d2 * t1 + d3 * t2 + d4 * t3 + d5 * t4 + d6 * t5
            h12 = (d2 * (c1 * S3[i]) + d3 * (c2 * S4[i]) + d4 * (c3 * S5[i])
                   + d5 * (c4 * S6[i]))
            m0, m1 = S0[i], S1[i]
            upper = s > 0.5
            ra = ((u * m0 - h00) - (m0 - p0[i])) if upper else (p0[i] - (s * m0 + h00))
            va = su * m0 + h10
            vc = va * cc[i]
            vb = su * m1 + h11
            terms[0, i] = ra
            terms[1, i] = ra * cc[i]
            terms[2, i] = ((u * m1 - h01) - (m1 - p1[i])) if upper else (p1[i] - (s * m1 + h01))
            terms[3, i] = va
            terms[4, i] = vc
            terms[5, i] = vc * cc[i]
            terms[6, i] = vb
            terms[7, i] = vb * cc[i]
            terms[8, i] = su * S2[i] + h12
        for k in range(9):
            if slope or k == 0 or k == 3:  # without slope: r and v only
                acc[k], err[k] = _add(acc[k], err[k], _tile_sum(terms[k], m_t))
    sr, src, sr1, sv, svc, svcc, svd, svdc, sv2 = acc + err
    out[0] = sr
    out[2] = sv
    if slope:
        out[1] = src + w * sr1
        out[3] = svc + w * svd
        out[4] = svcc + 2.0 * w * svdc + w * w * sv2
    else:
        out[1] = out[3] = out[4] = 0.0
