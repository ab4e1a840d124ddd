"""The maximum-likelihood logistic calibration fits of a count table, fast and in
little memory.

The fits ``logit P(y=1) = a + b logit(p)`` (slope and intercept) and ``a + logit(p)``
(calibration-in-the-large) are Newton iterations over every distinct score. On a large
table each full pass computes a logarithm and an exponential per row, and the plain
iteration (:func:`newton_fit`) needs five to eight of them per fit, each with several
table-sized temporaries. :func:`fit_table` instead

1. compresses the rows strictly inside (0, 1), in one pass, into narrow bins of
   x = logit(p) (:data:`TABLE_BINS`: 2^-13 wide), none across the table's own blocks:
   each bin's positives and the moments S_k = sum tot d^k (k = 0..3) of the rows'
   places d in [0, 1) within it (x = c + w d, c the bin's lower edge, w its width).
   In NumPy, only multiply-adds: the logarithms are those of p and 1 - p the log
   losses take. A table with the compiled family pass
   (:func:`~binmetrics.measures.block_pass.family_pass`) takes that pass's bins instead:
   :data:`REPLICATE_BINS`, 2^-9 wide with moments to order 6 (the pass pays little
   per moment, and the Newton steps pay per bin), the logarithms formed in its loop.
   This pass is :data:`FITS`, declared by the fit measures in the registry, so it runs
   in the blocked pass the probabilistic measures share when they are asked together
   (:func:`~binmetrics.measures.sums.shared_sums`);
2. fits both models on the bins' means (started from a fit on about 4096 merged bins);
3. runs Newton's method to convergence on sums taken from the moments: expit expanded
   around each bin's edge, sum tot expit(a + b x) = sum_m expit^(m)(a + b c)
   (b w)^m S_m / m! (:func:`_bin_sums`), exact to about 1e-14 relative while
   |b| w stays small (:func:`max_spread`). This replaced an exact Newton pass over
   every row (a logarithm, an exponential and a dozen products per row): at n = 1e7
   the fits cost 0.15 s instead of 0.28 s in NumPy, within 1e-14 of the reference
   iteration (compiled, the bins come from the family pass and the Newton steps on
   them take a few ms).

A slope too steep for the bins finishes with exact Newton steps over the rows
(:func:`refine`, in cache-sized chunks, both fits in the same passes); anything unusual
(a compressed fit that diverges, a large step, no convergence) falls back to
:func:`newton_fit` on the full arrays, the reference algorithm, so separated data and
other edge cases behave exactly as before.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics import backends
from binmetrics.backends import compiled
from binmetrics.measures._special import expit
from binmetrics.measures._util import EPS, dot
from binmetrics.measures.block_pass import Block, family_pass
from binmetrics.measures.sums import BlockPass
from binmetrics.table.counts import CountTable, FloatArray, block_size
from binmetrics.table.positive_groups import count_sum

__all__ = ["COMPILED_ORDER", "FINAL_STEP", "FITS", "N_BLOCKS", "SMALL_TABLE", "Fit",
           "cases_inside", "cases_outside", "compiled_bin_sums", "fit_table", "inside",
           "logit_bins", "logit_rows", "newton_fit", "refine"]

#: Blocks a bootstrap replicate's cells are compressed into when its slope is too steep
#: for the bins (:mod:`binmetrics.inference._replicate_fits`): enough that the
#: compressed fit is within about 1e-6 of the full one, so one full pass finishes it.
N_BLOCKS = 1 << 16
#: Tables with at most this many distinct scores strictly inside (0, 1) use
#: :func:`newton_fit` directly (it is then as fast, and the reference).
SMALL_TABLE = 1 << 16
#: A full-data Newton step this small (relative to 1 + |coefficient|) ends the fit:
#: the remaining error is of the order of its square.
FINAL_STEP = 1e-6
#: The last step of a table's fit too steep for the bins (:func:`_finish`): its error,
#: of the order of C step^2 with C up to about 10 for steep slopes, is then below 1e-15.
#: (Rounding in the passes' sums remains: on steep or nearly separated data an
#: independent review found such fits up to 5e-12 from :func:`newton_fit` on every row,
#: with or without a smaller last step.)
STEEP_FINAL_STEP = 1e-8
#: Full passes over the table before falling back to :func:`newton_fit`.
MAX_PASSES = 6

Fit = tuple[float, float] | None


def inside(t: CountTable) -> tuple[int, int]:
    """The table rows [i0, i1) whose score lies strictly inside (0, 1) (the table is
    sorted descending, so p = 1 rows come first and p = 0 rows last)."""
    s = t.scores
    i0 = bisect.bisect_right(s, -1.0, key=lambda v: -v)  # rows with p >= 1
    i1 = bisect.bisect_left(s, 0.0, key=lambda v: -v)   # rows with p > 0
    return i0, max(i0, i1)


def _float(a: np.ndarray) -> FloatArray:
    return a.astype(np.float64, copy=False)


def logit_rows(t: CountTable) -> tuple[FloatArray, FloatArray, FloatArray, float]:
    """logit(p), positives and cases of the rows with 0 < p < 1, and the weight of the
    cases left out (p exactly 0 or 1)."""
    i0, i1 = inside(t)
    pos, neg = t.pos, t.neg
    dropped = float(_float(pos[:i0]).sum() + _float(neg[:i0]).sum()
                    + _float(pos[i1:]).sum() + _float(neg[i1:]).sum())
    s = t.scores[i0:i1]
    p = _float(pos[i0:i1])
    return np.log(s) - np.log1p(-s), p, p + neg[i0:i1], dropped


def newton_fit(x: FloatArray, pos: FloatArray, tot: FloatArray, slope: bool,
               start: tuple[float, float] = (0.0, 1.0)) -> Fit:
    """Maximum-likelihood (a, b) of logit P(y=1) = a + b x (b fixed at 1 unless
    ``slope``) by Newton's method with step halving; None when it does not converge
    to finite values (perfect separation), or when ``slope`` and every case has one x
    (the slope is not identifiable: Newton's matrix is singular but for rounding, and
    its steps would wander along the line of equal likelihood)."""
    if slope:
        live = x[tot > 0]
        if live.size and live.min() == live.max():
            return None
    with np.errstate(all="ignore"):  # a diverging fit overflows: None below
        return _newton_steps(x, pos, tot, slope, start)


def _newton_steps(x: FloatArray, pos: FloatArray, tot: FloatArray, slope: bool,
                  start: tuple[float, float]) -> Fit:
    a, b = start

    def loglik(a: float, b: float) -> float:
        eta = a + b * x
        # sum pos*eta - tot*log(1 + e^eta), stably; no BLAS (docs/architecture.md, "Start-up
        # and speed")
        return float(np.sum(pos * eta) - np.sum(tot * np.logaddexp(0.0, eta)))

    ll = float("nan")  # computed only when a large step needs checking
    for _ in range(100):
        mu = expit(a + b * x)
        r = pos - tot * mu
        v = tot * mu * (1.0 - mu)
        if slope:
            vx = v * x
            g = np.array([r.sum(), np.sum(r * x)])
            h = np.array([[v.sum(), vx.sum()], [vx.sum(), np.sum(vx * x)]])
            try:
                step = np.linalg.solve(h, g)
            except np.linalg.LinAlgError:
                break
        else:
            hv = float(v.sum())
            if hv <= 0:
                break
            step = np.array([float(r.sum()) / hv, 0.0])
        if not np.all(np.isfinite(step)):
            break
        k = 1.0
        na, nb = a + step[0], b + step[1]
        if max(abs(step[0]), abs(step[1])) > 1.0:  # far from the optimum: step halving
            if math.isnan(ll):                    # keeps the likelihood increasing
                ll = loglik(a, b)
            while True:
                na, nb = a + k * step[0], b + k * step[1]
                nll = loglik(na, nb)
                if nll >= ll - 1e-12 * abs(ll) or k < 1e-10:
                    break
                k /= 2
            ll = nll
        else:
            ll = float("nan")
        # Newton converges quadratically: a step of 1e-11 leaves an error far below it
        done = abs(na - a) <= 1e-11 * (1 + abs(a)) and abs(nb - b) <= 1e-11 * (1 + abs(b))
        a, b = na, nb
        if done or (abs(step[0]) < 1e-15 and abs(step[1]) < 1e-15):
            if abs(a) > 1e6 or abs(b) > 1e6:
                break
            return float(a), float(b)
    return None


def cases_outside(t: CountTable) -> bool:
    """Whether some cases have p exactly 0 or 1 (left out of the fits; memoised, so
    that a bootstrap replicate known by its counts can answer it)."""
    def compute() -> bool:
        i0, i1 = inside(t)
        return i0 > 0 or i1 < t.n_distinct

    return t.memo(("cases_at_p_0_or_1",), compute)


def cases_inside(t: CountTable) -> tuple[float, float]:
    """(cases, positives) of the rows with 0 < p < 1 (memoised: asked by each of the
    three fit measures, and at 1e7 rows each sum is a full pass)."""
    def compute() -> tuple[float, float]:
        i0, i1 = inside(t)
        if not t.weighted and i1 - i0 == t.n_distinct:  # whole numbers: the same sums
            return t.total, t.P
        pos, neg = count_sum(t.pos[i0:i1]), count_sum(t.neg[i0:i1])
        return pos + neg, pos

    return t.memo(("cases_strictly_inside_0_1",), compute)


def _compressed_part(t: CountTable) -> Callable[[Block], Any] | None:
    """The compression of one block (see :data:`FITS`), or None when the fits of
    table ``t`` do not read it: scores outside [0, 1], binned, at most
    :data:`SMALL_TABLE` rows inside (0, 1), or one class among them (undefined)."""
    if t.binning is not None or not t.probabilities_ok:
        return None
    i0, i1 = inside(t)
    total, npos = cases_inside(t)
    if i1 - i0 <= SMALL_TABLE or not 0 < npos < total:
        return None
    if family_pass(t) is not None:  # the compiled pass's bins (REPLICATE_BINS')
        return lambda b: b.family().bins
    unit = not t.weighted and t.total == t.n_distinct  # one case per row: tot = 1
    width, order = TABLE_BINS

    def part(b: Block) -> _Bins | None:
        lo, hi = max(i0 - b.start, 0), min(i1 - b.start, b.s.size)
        if hi <= lo:
            return None
        p = b.p[lo:hi]
        d, starts, edges = logit_bins(_block_logit(b, lo, hi), width)
        if unit:
            s0 = np.diff(starts, append=hi - lo).astype(np.float64)
            w = d
        else:
            w = p + b.n[lo:hi]
            s0 = np.add.reduceat(w, starts)
            w *= d
        moments = [s0, np.add.reduceat(w, starts)]
        w = w * d  # a new array: w may be d
        for k in range(2, order + 1):
            if k > 2:
                w *= d
            moments.append(np.add.reduceat(w, starts))
        pd = np.multiply(p, d, dtype=np.float64)  # the positives' first moment
        return (edges, np.stack(moments), np.add.reduceat(p, starts, dtype=np.float64),
                np.add.reduceat(pd, starts), width)

    return part


#: Bins of logit(p) a large table is compressed into: their width (a power of two, so
#: that a row's place in its bin is exact) and the highest moment kept per bin
#: (S_k = sum tot d^k, k = 0..order). NumPy's pass over a table's rows pays per moment,
#: and its bins are many (about 6e4 at n = 1e7); a bootstrap replicate's Newton steps
#: pay per bin, so its bins are wider, with more moments, and so are those of the
#: compiled family pass over a table (``block_pass.family_pass``: a moment costs it one
#: multiply-add a row). Both give the fits' sums to about 1e-14 (:func:`_bin_sums`).
TABLE_BINS = (2.0**-13, 3)
REPLICATE_BINS = (2.0**-9, 6)


def max_spread(order: int) -> float:
    """The largest h = |slope| x bin width at which bins with moments up to ``order``
    are used: the first term the expansion leaves out, at most about
    h^(order + 1) / (order + 1)! of the sum (expit's derivatives being at most about
    expit itself in size, relative to it in the tails), is then below 1e-14. A fit with
    a steeper slope takes full passes over the rows (:func:`refine`)."""
    return float((1e-14 * math.factorial(order + 1)) ** (1.0 / (order + 1)))


def logit_bins(x: FloatArray, width: float) -> tuple[FloatArray, npt.NDArray[np.intp],
                                                     FloatArray]:
    """Each row's place d in [0, 1) in its bin of x = logit(p), floor(x / width), the
    bins' first rows and their lower edges: x = edge + width d, exactly (the width is a
    power of two, and t - floor(t) is exact). ``x`` runs in order (the table's rows or a
    class's cells), so a bin is a run of rows.

    >>> d, starts, edges = logit_bins(np.array([0.75, 0.625, 0.25, -0.5]), 0.5)
    >>> d.tolist(), starts.tolist(), edges.tolist()
    ([0.5, 0.25, 0.5, 0.0], [0, 2, 3], [0.5, 0.0, -0.5])
    """
    d = x * (1.0 / width)
    q = np.floor(d)
    d -= q
    starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]]).astype(np.intp)
    return d, starts, q[starts] * width


#: Compressed rows: each bin's lower edge c, the moments S_k = sum tot d^k (rows
#: k = 0..order; x = c + w d, w the bins' width), its positives, its positives' first
#: moment (sum pos d), and w.
_Bins = tuple[FloatArray, FloatArray, FloatArray, FloatArray, float]


def _derivative_polynomials(k: int) -> list[list[float]]:
    """Coefficients (lowest power first) of R_1..R_k, the m-th derivative of expit
    being s u R_m(s) with s = expit(eta), u = 1 - s: R_1 = 1 and
    R_{m+1} = d/ds [s (1 - s) R_m(s)] (since ds/deta = s u).

    >>> _derivative_polynomials(3)
    [[1.0], [1.0, -2.0], [1.0, -6.0, 6.0]]
    """
    out = [[1.0]]
    for _ in range(k - 1):
        prod = [0.0] * (len(out[-1]) + 2)  # (s - s^2) R_m
        for i, c in enumerate(out[-1]):
            prod[i + 1] += c
            prod[i + 2] -= c
        out.append([i * c for i, c in enumerate(prod) if i > 0])
    return out


_R = _derivative_polynomials(max(TABLE_BINS[1], REPLICATE_BINS[1]) + 1)

#: :data:`_R` as an array, for a compiled :func:`_bin_sums` (numba reads no list of
#: lists): row m - 1 holds R_m's m coefficients, lowest power first, zeros after.
_R_ARRAY = np.zeros((len(_R), len(_R)))
for _m, _coef in enumerate(_R):
    _R_ARRAY[_m, :len(_coef)] = _coef
_R_ARRAY.flags.writeable = False


def _expit_derivatives(eta: FloatArray, k: int) -> list[FloatArray]:
    """expit and its first k derivatives at eta, s u R_m(s) (see
    :func:`_derivative_polynomials`) with s = expit(eta) and u = 1 - s = expit(-eta)
    both taken directly, so that neither loses precision in the tails."""
    s, u = expit(eta), expit(-eta)
    su = s * u
    out = [s, su]
    for coef in _R[1:k]:
        r = np.full_like(s, coef[-1])
        for c in coef[-2::-1]:  # Horner
            r *= s
            r += c
        r *= su
        out.append(r)
    return out


def _bin_sums(bins: _Bins, a: float, b: float, slope: bool) -> FloatArray:
    """The sums of :func:`_pass` (r, r x, v, v x, v x^2) at (a, b) from the bins'
    moments (``bins``: the blocks' :data:`_Bins` joined), by Taylor expansion around
    each bin's lower edge c. With D_m the m-th derivative of expit at a + b c and
    h = b w (w the bin width), a row at x = c + w d has

        mu = expit(a + b x) = sum_m D_m h^m d^m / m!,

    so over a bin sum tot mu = sum_m D_m h^m S_m / m! (m = 0..order) and
    sum tot mu x = c sum tot mu + w sum tot mu d, likewise; v = mu (1 - mu) is expit'
    and expands with D_{m+1}. The gradient (r, r x) keeps every order the moments allow;
    the Hessian's (v x, v x^2) drop the last (a Hessian off by 1e-15 slows Newton's
    convergence, not its limit).

    The residuals r = pos - tot mu are summed per bin, where mu > 1/2 at the bin's edge
    as tot (1 - mu) - neg (1 - mu expanded as 1 - D_0 and -D_m): on a table whose mu
    are all near 1, sum(pos) - sum(tot mu) would lose the sum to cancellation (1e-9
    relative off in the fits with scores above 0.999)."""
    c, S, pos, pos1, w = bins
    h = b * w
    k = S.shape[0] - 1
    eta = a + b * c
    D = _expit_derivatives(eta, k + 1)
    coef = [h**m / math.factorial(m) for m in range(k + 1)]

    def higher(shift: int, moment: int) -> FloatArray:
        # sum_m D_{m + shift} h^m S_{m + moment} / m!, m >= 1, over the moments there are
        out = np.zeros_like(c)
        for m in range(1, k + 1 - moment):
            out += D[m + shift] * (coef[m] * S[m + moment])
        return out

    upper = D[0] > 0.5
    u = expit(-eta)

    def residuals(moment: int, pos_m: FloatArray) -> FloatArray:
        # per bin sum (pos - tot mu) d^moment, as sum tot (1 - mu) d^m - neg d^m where
        # mu > 1/2
        hi = higher(0, moment)
        low = pos_m - (D[0] * S[moment] + hi)
        high = (u * S[moment] - hi) - (S[moment] - pos_m)
        return np.where(upper, high, low)

    v = D[1] * S[0] + higher(1, 0)
    r = residuals(0, pos)
    sr = float(r.sum())
    if not slope:
        return np.array([sr, 0.0, float(v.sum()), 0.0, 0.0])
    vd = D[1] * S[1] + higher(1, 1)
    srx = dot(r, c) + w * float(residuals(1, pos1).sum())
    vc = v * c
    return np.array([sr, srx, float(v.sum()), float(vc.sum()) + w * float(vd.sum()),
                     dot(vc, c) + 2.0 * w * dot(vd, c)
                     + w * w * float((D[1] * S[2] + higher(1, 2)).sum())])


#: The sums of :func:`_bin_sums` at (a, b), with or without slope, from the bins.
BinSums = Callable[[_Bins, float, float, bool], FloatArray]


#: the highest moment order :func:`compiled_bin_sums` takes (its loop's, seven rows)
COMPILED_ORDER = 6


def compiled_bin_sums(size: int, at_least: int) -> BinSums | None:
    """:func:`_bin_sums` compiled (:func:`binmetrics.measures._fits_numba.bin_newton_sums`),
    for fits of ``size`` rows or draws when numba is installed and ``size`` reaches the
    caller's ``at_least`` (:func:`binmetrics.backends.compiled`); else None (NumPy).

    NumPy's ``_bin_sums`` makes about 60 calls a step on thousands of bins and pays their
    overhead (0.6 ms a step on a bootstrap replicate's 5600 bins, 20 ms a table fit on
    NumPy's 6e4 bins at 1e7 rows); compiled, one loop over the bins takes each bin's
    terms as ``_bin_sums`` does, operation for operation, and NumPy takes the two
    exponentials. Bins of a lower order than :data:`COMPILED_ORDER` have their higher
    moments read as zeros, which adds exact zeros to each term. The sums over the bins
    are taken in blocks of 128 as NumPy's pairwise sums take their leaves, the blocks
    added exactly: another order than NumPy's, at most as much rounding. So the two
    agree to rounding (1e-13 of the sums' scale, tested), not bit for bit.

    Examples
    --------
    >>> from binmetrics.backends import use_compiled
    >>> with use_compiled(False):
    ...     compiled_bin_sums(10**7, 1) is None
    True
    """
    k = compiled("binmetrics.measures._fits_numba", size, at_least)
    if k is None:
        return None
    rows = COMPILED_ORDER + 1
    # the last bins' moments and their padded copy, one tuple (read whole: a closure
    # shared by threads never pairs one's moments with another's copy)
    padded: list[tuple[Any, Any]] = [(None, None)]

    def sums(bins: _Bins, a: float, b: float, slope: bool) -> FloatArray:
        c, S, pos, pos1, w = bins
        if S.shape[0] > rows:
            return _bin_sums(bins, a, b, slope)
        if S.shape[0] < rows:  # the same bins at every step of a fit: padded once
            last, full = padded[0]
            if last is not S:
                full = np.zeros((rows, S.shape[1]))
                full[:S.shape[0]] = S
                padded[0] = (S, full)
            S = full
        # exp(-eta) and exp(eta), eta = a + b c, as expit(eta) and expit(-eta) take them
        e_plus = c * b
        e_plus += a
        e_minus = np.negative(e_plus)
        np.exp(e_minus, out=e_minus)
        np.exp(e_plus, out=e_plus)
        out = np.empty(5)
        k.bin_newton_sums(c, S, pos, pos1, float(w), float(b), e_minus, e_plus, bool(slope),
                          _R_ARRAY, out)
        return out

    return sums


def _bin_fits(bins: _Bins, starts: list[Fit], slopes: list[bool], *,
              sums: BinSums | None = None) -> list[Fit | bool]:
    """Newton's method on the bins' sums (:func:`_bin_sums`, or ``sums``: the same sums
    computed otherwise, as the bootstrap's compiled loop) from the starting fits, to the
    reference iteration's convergence rule (a step below 1e-11 relative). Per fit:
    (a, b), or False where full passes must decide (no start, a slope too steep for the
    bins, a step that is not finite or larger than 1, no convergence in 50 steps)."""
    bin_sums = _bin_sums if sums is None else sums
    out: list[Fit | bool] = []
    spread = max_spread(bins[1].shape[0] - 1) / bins[4]
    for start, slope in zip(starts, slopes, strict=True):
        fit: Fit | bool = False
        if start is not None:
            a, b = start
            for _ in range(50):
                if abs(b) > spread:
                    break
                st = _step(bin_sums(bins, a, b, slope), slope)
                if st is None or not all(map(math.isfinite, st)) or max(map(abs, st)) > 1.0:
                    break
                na, nb = a + st[0], b + st[1]
                done = abs(na - a) <= 1e-11 * (1 + abs(a)) and abs(nb - b) <= 1e-11 * (1 + abs(b))
                a, b = na, nb
                if done:
                    fit = (float(a), float(b))
                    break
        out.append(fit)
    return out


def _block_logs(b: Block, lo: int, hi: int) -> tuple[FloatArray, FloatArray]:
    """ln p and ln(1 - p) of the block's rows lo..hi (all strictly inside (0, 1)): the
    logarithms the block shares with the log losses (clipped at eps there, which leaves
    every p in [eps, 1 - eps] as it is), or taken here for rows beyond them."""
    if b.s[hi - 1] >= EPS and b.miss[lo] >= EPS:
        return b.log_s(EPS)[lo:hi], b.log_miss(EPS)[lo:hi]
    return np.log(b.s[lo:hi]), np.log(b.miss[lo:hi])


def _block_logit(b: Block, lo: int, hi: int) -> FloatArray:
    """ln p - ln(1 - p) of the block's rows lo..hi (:func:`_block_logs`), a new array."""
    ln_p, ln_q = _block_logs(b, lo, hi)
    return ln_p - ln_q


def _combine(parts: list[_Bins]) -> _Bins:
    return (np.concatenate([q[0] for q in parts]), np.concatenate([q[1] for q in parts], axis=1),
            np.concatenate([q[2] for q in parts]), np.concatenate([q[3] for q in parts]),
            parts[0][4])


def _blocks(sx: FloatArray, p: FloatArray, tot: FloatArray,
            group: int) -> tuple[FloatArray, FloatArray, FloatArray]:
    """(mean logit, positives, cases) of the block sums merged ``group`` at a time."""
    if group > 1:
        starts = np.arange(0, tot.size, group)
        sx, p, tot = (np.add.reduceat(v, starts) for v in (sx, p, tot))
    keep = tot > 0
    return sx[keep] / tot[keep], p[keep], tot[keep]


def _start(slope: bool, sums: tuple[FloatArray, FloatArray, FloatArray], *,
           fine: bool = True) -> Fit:
    """The fit on the blocks, itself started from a fit on about 4096 of them merged
    (each Newton iteration on the blocks then has little left to do); with ``fine``
    False, the fit on about 1024 merged blocks alone (where the steps on the bins'
    moments are compiled, and cheaper than NumPy's steps on every block: 0.9 ms
    instead of 1.5 ms to the same fits, to 2e-16, on 5,200 bins)."""
    if not fine:
        return newton_fit(*_blocks(*sums, group=max(1, sums[2].size // 1024)), slope)
    coarse = newton_fit(*_blocks(*sums, group=max(1, sums[2].size // 4096)), slope)
    return None if coarse is None else newton_fit(*_blocks(*sums, group=1), slope, coarse)


def _logit(s: FloatArray) -> FloatArray:
    """log(p / (1 - p)) of a chunk, strictly inside (0, 1): one logarithm instead of
    ``log(p) - log1p(-p)`` (seven times as fast here; the two differ by under 2e-15
    absolutely, 1 - p being exact from p = 1/2 up and within an ulp below)."""
    d = 1.0 - s
    np.divide(s, d, out=d)
    return np.log(d, out=d)


def _pass(t: CountTable, i0: int, i1: int, points: list[tuple[float, float]],
          slopes: list[bool]) -> list[FloatArray]:
    """Per point (a, b): sums of r, r x, v, v x, v x^2 over rows i0..i1, where
    r = pos - tot mu, v = tot mu (1 - mu), mu = expit(a + b x), x = logit(p); for a
    point without slope (calibration-in-the-large, b = 1) only r and v, all its step
    reads.

    The pass dominates the fits' cost at large n, so it does as few operations per row
    as it can (each is a full pass over a chunk):

    - without slope, ``expit(a + logit(p)) = c p / (1 + (c - 1) p)`` with c = e^a: no
      logarithm or exponential at all;
    - sums of products are dot products (``r x``, ``v x^2``: one operation, not two);
    - with one case per row (unweighted continuous scores, tot = 1) the products by tot
      drop out, ``r`` is never formed (sum r = positives - sum mu, sum r x =
      sum_pos x - sum mu x) and ``v = mu - mu^2``.
    """
    unit = not t.weighted and t.total == t.n_distinct
    acc = [np.zeros(5) for _ in points]
    need_x = any(slopes)
    chunk = block_size()  # read now: tests shrink it
    for a0 in range(i0, i1, chunk):
        sl = slice(a0, min(a0 + chunk, i1))
        s = t.scores[sl]
        x = _logit(s) if need_x else None
        p = _float(t.pos[sl])
        tot = None if unit else p + t.neg[sl]
        npos = float(p.sum())
        px = dot(p, x) if unit and x is not None else 0.0
        for out, (a, b), slope in zip(acc, points, slopes, strict=True):
            if slope:
                assert x is not None  # computed whenever a fit has a slope
                mu = x * -b  # expit(a + b x) = 1 / (1 + exp(-a - b x)), in place
                mu -= a
                np.exp(mu, out=mu)
                mu += 1.0
                np.reciprocal(mu, out=mu)
            else:  # c p / (1 + (c - 1) p)
                c = math.exp(a)
                mu = s * (c - 1.0)
                mu += 1.0
                np.divide(s, mu, out=mu)
                mu *= c
            if tot is None:
                smu = float(mu.sum())
                sr = npos - smu
                srx = px - dot(mu, x) if slope else 0.0
                v = mu * mu
                np.subtract(mu, v, out=v)
            else:
                tmu = tot * mu
                r = p - tmu
                sr = float(r.sum())
                srx = dot(r, x) if slope else 0.0
                v = tmu * (1.0 - mu)
            if not slope:
                out += (sr, 0.0, float(v.sum()), 0.0, 0.0)
                continue
            assert x is not None
            vx = v * x
            out += (sr, srx, float(v.sum()), float(vx.sum()), dot(vx, x))
    return acc


def _step(sums: FloatArray, slope: bool) -> tuple[float, float] | None:
    sr, srx, sv, svx, svxx = sums.tolist()
    if slope:
        det = sv * svxx - svx * svx
        if not det > 0:
            return None
        return (svxx * sr - svx * srx) / det, (sv * srx - svx * sr) / det
    return (sr / sv, 0.0) if sv > 0 else None


#: A full pass: per point (a, b) and whether it has a slope, the sums of :func:`_pass`.
FullPass = Callable[[list[tuple[float, float]], list[bool]], list[FloatArray]]


def refine(full_pass: FullPass, starts: list[Fit], slopes: list[bool],
           final_step: float = FINAL_STEP) -> list[Fit | bool]:
    """Newton steps on the full data from the compressed fits, all fits per pass
    (``full_pass``: the sums of :func:`_pass` over every row, or over the cells of a
    bootstrap replicate). Per fit: the converged (a, b), or False when the reference
    algorithm must decide (a step that is not finite or larger than 1, or no step below
    ``final_step`` (:data:`FINAL_STEP`) within :data:`MAX_PASSES` passes)."""
    cur: list[Fit | bool] = [s if s is not None else False for s in starts]
    active = [i for i, s in enumerate(cur) if s is not False]
    for _ in range(MAX_PASSES):
        if not active:
            break
        sums = full_pass([cur[i] for i in active],  # type: ignore[misc]
                         [slopes[i] for i in active])
        still = []
        for i, acc in zip(active, sums, strict=True):
            a, b = cur[i]  # type: ignore[misc]
            st = _step(acc, slopes[i])
            if st is None or not all(map(math.isfinite, st)) or max(map(abs, st)) > 1.0:
                cur[i] = False  # far away or degenerate: the reference algorithm decides
                continue
            cur[i] = (a + st[0], b + st[1])
            if abs(st[0]) > final_step * (1 + abs(a)) or abs(st[1]) > final_step * (1 + abs(b)):
                still.append(i)
        active = still
    for i in active:
        cur[i] = False
    return cur


def fit_table(t: CountTable) -> tuple[Fit, Fit, float]:
    """(a, b) of the slope-and-intercept fit, (a, 1) of calibration-in-the-large (None
    for a fit that does not converge), and the weight of the cases with p exactly 0 or
    1, which are left out. Both classes must be present among the rows inside (0, 1)."""
    i0, i1 = inside(t)
    if i1 - i0 > SMALL_TABLE:
        fits = FITS.run(t)  # the compressed table, in a pass of its own
        if fits is not None:
            return fits
    x, pos, tot, dropped = logit_rows(t)
    return (newton_fit(x, pos, tot, True), newton_fit(x, pos, tot, False), dropped)


def _finish(t: CountTable, parts: list[_Bins]) -> tuple[Fit, Fit, float]:
    """The fits from the compressed table's parts: started on the bins' means, run to
    convergence on their moments (:func:`_bin_fits`), else finished by Newton steps on
    the full table, else by the reference iteration."""
    i0, i1 = inside(t)
    slopes = [True, False]
    dropped = float(sum(_float(c[:i0]).sum() + _float(c[i1:]).sum() for c in (t.pos, t.neg)))
    bins = _combine(parts)
    c, S, pos, _, w = bins
    compiled_sums = compiled_bin_sums(t.n_distinct, backends.COMPILED_TABLE_ROWS)
    means = (c * S[0] + w * S[1], pos, S[0])
    with np.errstate(all="ignore"):
        starts = [_start(s, means, fine=compiled_sums is None) for s in slopes]
        fits = _bin_fits(bins, starts, slopes, sums=compiled_sums)
        if any(f is False for f in fits):
            todo = [i for i, f in enumerate(fits) if f is False]
            if compiled_sums is not None:  # full passes start from the fine fit: the
                for i in todo:  # coarse one can be far off (steep, on sparse bins)
                    starts[i] = _start(slopes[i], means)
            # from the bins' means (about 1e-6 off for a steep slope), a last step of
            # 1e-6 can leave 1e-12 relative: the table's fits take one more pass
            redo = refine(lambda points, sl: _pass(t, i0, i1, points, sl),
                          [starts[i] for i in todo], [slopes[i] for i in todo],
                          STEEP_FINAL_STEP)
            for i, f in zip(todo, redo, strict=True):
                fits[i] = f
    if any(f is False for f in fits):
        x, pos, tot, _ = logit_rows(t)
        fits = [newton_fit(x, pos, tot, s) if f is False else f
                for f, s in zip(fits, slopes, strict=True)]
    return fits[0], fits[1], dropped  # type: ignore[return-value]


#: The logistic calibration fits of a table of more than :data:`SMALL_TABLE` rows inside
#: (0, 1), as a pass over the table's blocks that compresses them (each bin of logit(p)'s
#: moments and positives, bins never across the table's own blocks)
#: and then finishes the fits; its value, memoised under ``("logistic_fits",)``, is
#: :func:`fit_table`'s. Declared by the fit measures (``register(..., passes=(FITS,))``),
#: so the compression shares the blocked pass of the probabilistic measures.
FITS = BlockPass("logistic_fits", _compressed_part, _finish)
