r"""Smoothed ROC curves, as pROC's ``smooth(roc, method = "binormal" | "density")``.

**Binormal.** The binormal model says that some monotone transform of the scores is
normal in both classes; then the ROC curve is a straight line on normal-deviate axes.
pROC fits it by ordinary least squares of :math:`\Phi^{-1}(\mathrm{TNR})` on
:math:`\Phi^{-1}(\mathrm{TPR})` over the empirical points strictly inside
:math:`(0, 1)^2`,

.. math::  \Phi^{-1}(\mathrm{TNR}) = c_0 + c_1\, \Phi^{-1}(\mathrm{TPR}),

draws the curve at ``n`` sensitivities equally spaced on [0, 1], and gives it the area

.. math::  \mathrm{AUC} = \Phi\!\left(c_0 / \sqrt{1 + c_1^2}\right).

**Density.** Each class's scores get a Gaussian kernel density estimate, exactly as R's
``density(x, bw, n = 512, from, to)`` computes it (linear binning on 512 points of
:math:`[\mathrm{from} - 4h, \mathrm{to} + 4h]`, FFT convolution, linear interpolation
back to the ``n`` output points), both on the common grid :math:`\mathrm{from} = \min s -
3h`, :math:`\mathrm{to} = \max s + 3h` of the pooled scores :math:`s`; the bandwidth
:math:`h` is R's ``bw.nrd0`` of the pooled scores (Silverman's rule,
:math:`0.9\,\min(\hat\sigma, \mathrm{IQR}/1.34)\, m^{-1/5}`) times ``adjust``. At the
:math:`k`-th grid point the curve has

.. math::  \mathrm{TPR}_k = \sum_{i \ge k} f_1(x_i) \Big/ \sum_i f_1(x_i), \qquad
           \mathrm{TNR}_k = \sum_{i < k} f_0(x_i) \Big/ \sum_i f_0(x_i),

and, as in pROC, the points (TNR, TPR) = (0, 1) and (1, 0) close it; its area is the
trapezoid rule over them. Case weights count as numbers of cases (whole-number weights
give the curve of the repeated rows; pROC has no weights).

References
----------
Dorfman, D. D. and Alf, E. (1969). Maximum-likelihood estimation of parameters of signal
detection theory and determination of confidence intervals: rating-method data. *Journal
of Mathematical Psychology* 6, 487-496.

Robin, X. et al. (2011). pROC. *BMC Bioinformatics* 12, 77.

Silverman, B. W. (1986). *Density Estimation*. London: Chapman and Hall (eq. 3.31).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from scipy import special

from binmetrics.chart import ChartData, Drawable, series
from binmetrics.formatting import Tabular
from binmetrics.measures._util import trapezoid
from binmetrics.measures.calibration import weighted_percentile
from binmetrics.table.counts import CountTable, FloatArray

if TYPE_CHECKING:
    from binmetrics.inference.resampling import BootstrapInterval

__all__ = ["SMOOTH_METHODS", "SmoothROC", "binormal_smooth", "density_smooth"]

#: the methods of ``ROCCurve.smooth``
SMOOTH_METHODS = ("binormal", "density")


@dataclass(frozen=True, repr=False)
class SmoothROC(Drawable, Tabular):
    """A smoothed ROC curve: points ``fpr``, ``tpr`` (from (0, 0) to (1, 1)) and the
    fitted model: ``intercept`` c0 and ``slope`` c1 of the binormal line, or the kernel
    ``bandwidth`` of the density smoothing (the others NaN)."""

    fpr: FloatArray
    tpr: FloatArray
    method: str
    intercept: float = np.nan
    slope: float = np.nan
    bandwidth: float = np.nan
    #: (count table, n, bandwidth argument, adjust) it was smoothed from, for :meth:`ci`
    _source: Any = field(default=None, repr=False, compare=False)

    def ci(self, *, level: float = 0.95, n_resamples: int = 2000, stratified: bool = True,
           random_state: Any = None, progress: Any = None) -> BootstrapInterval:
        r"""Bootstrap interval of the smoothed curve's area, as pROC's
        ``ci(smooth(roc, ...))`` (``ci.auc`` of a smoothed ROC: stratified bootstrap of
        the cases, each replicate's ROC curve smoothed with the same options, percentile
        interval; Robin et al. 2011).

        Each replicate reweights the count table (no new sort) and is smoothed as the
        original was (the binormal fit on its own ROC points; the density smoothing with
        the bandwidth rule re-applied, or the same fixed bandwidth). A replicate that
        cannot be smoothed (fewer than two points inside the unit square) is undefined,
        counted and reported.

        Examples
        --------
        >>> import numpy as np
        >>> import binmetrics as bm
        >>> rng = np.random.default_rng(0)
        >>> y = rng.random(200) < 0.4
        >>> sm = bm.evaluate(y, y + rng.normal(0, 1, 200)).roc().smooth("binormal")
        >>> ci = sm.ci(n_resamples=200, random_state=0)
        >>> bool(ci.low < sm.area() < ci.high), ci.method
        (True, 'bootstrap-percentile')
        """
        from binmetrics.inference.resampling import bootstrap
        from binmetrics.progress import as_callback

        if self._source is None:
            raise ValueError("this SmoothROC keeps no count table (it was not made by "
                             "ROCCurve.smooth); smooth the ROC curve of an evaluation")
        table, n, bandwidth, adjust = self._source
        method = self.method

        def smoothed_auc(t: CountTable) -> float:
            keep = (np.asarray(t.pos) + np.asarray(t.neg)) > 0
            if not keep.all():  # a replicate's table: the scores drawn, as pROC's sample
                t = CountTable(t.scores[keep], t.pos[keep], t.neg[keep], weighted=True)
            if t.P <= 0 or t.N <= 0:
                return float("nan")
            try:
                return _smooth_table(t, method, n, bandwidth, adjust).area()
            except ValueError:  # too few points to fit: undefined, counted
                return float("nan")

        smoothed_auc.__name__ = f"smoothed auc ({method})"
        res = bootstrap(table, [smoothed_auc], n_resamples=n_resamples,
                        stratified=stratified, random_state=random_state,
                        progress=as_callback(progress, "bootstrap"))
        return res.ci(smoothed_auc.__name__, kind="percentile", level=level)

    def area(self) -> float:
        """The area under the smoothed curve (pROC ``auc(smooth(...))``): binormal,
        Phi(c0 / sqrt(1 + c1^2)); density, the trapezoid rule over the points."""
        if self.method == "binormal":
            return float(special.ndtr(self.intercept / np.sqrt(1.0 + self.slope**2)))
        return trapezoid(self.fpr, self.tpr)

    def to_frame(self) -> pd.DataFrame:
        """The points (columns fpr, tpr)."""
        return pd.DataFrame({"fpr": self.fpr, "tpr": self.tpr})

    def _title(self) -> str:
        model = (f"intercept={self.intercept:.6g}, slope={self.slope:.6g}"
                 if self.method == "binormal" else f"bandwidth={self.bandwidth:.6g}")
        return f"SmoothROC({self.method}, {self.fpr.size} points, {model}, area={self.area():.6g})"

    def chart(self) -> ChartData:
        """The smoothed curve and the diagonal; ``.plot()`` draws them.

        Examples
        --------
        >>> import binmetrics as bm
        >>> roc = bm.evaluate([0, 0, 1, 0, 1, 1], [.1, .3, .35, .4, .7, .8]).roc()
        >>> [s.label for s in roc.smooth("density").chart().series]
        ['density smoothing', '']
        """
        curve = series(self.fpr, self.tpr, f"{self.method} smoothing",
                       source=(self, "fpr", "tpr"))
        diagonal = series([0.0, 1.0], [0.0, 1.0], "", style="dotted", shared=True,
                          color="grey", width=1.0)
        return ChartData("smooth_roc", "Smoothed ROC curve", "False positive rate",
                         "True positive rate", (curve, diagonal), (0.0, 1.0), (0.0, 1.0),
                         legend=None)


def _smooth_table(table: CountTable, method: str, n: int, bandwidth: float | str,
                  adjust: float) -> SmoothROC:
    """The smoothed ROC curve of a count table (see ``ROCCurve.smooth``)."""
    if method == "density":
        return density_smooth(table, n, bandwidth, adjust)
    tp, fp = np.asarray(table.tp), np.asarray(table.fp)
    return binormal_smooth(fp / table.N, tp / table.P, n)


def binormal_smooth(fpr: FloatArray, tpr: FloatArray, n: int = 512) -> SmoothROC:
    """pROC's binormal smoothing of the empirical points (fpr, tpr)."""
    if int(n) < 2:
        raise ValueError(f"n must be at least 2 points; got {n!r}")
    with np.errstate(divide="ignore"):
        x = special.ndtri(tpr)
        y = special.ndtri(1.0 - fpr)
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    if x.size <= 1 or np.all(x == x[0]):
        raise ValueError(f"the ROC curve cannot be smoothed: {x.size} point(s) strictly inside "
                         "(0, 1) with distinct sensitivities, and the fit needs two")
    slope, intercept = np.polyfit(x, y, 1)
    # R's seq(0, 1, 1/(n - 1)): from + (0:n) * by, capped at 1
    se = special.ndtri(np.minimum(np.arange(int(n)) * (1.0 / (int(n) - 1)), 1.0))
    sp = special.ndtr(intercept + slope * se)
    order = np.argsort(1.0 - sp, kind="stable")
    return SmoothROC(fpr=(1.0 - sp)[order], tpr=special.ndtr(se)[order], method="binormal",
                     intercept=float(intercept), slope=float(slope))


def nrd0_bandwidth(table: CountTable) -> float:
    """R's ``bw.nrd0`` of the table's scores, each repeated by its cases' weight
    (Silverman's rule; the IQR by the type-7 quantiles of :func:`weighted_percentile`)."""
    x = np.asarray(table.scores, dtype=np.float64)[::-1]  # ascending
    w = np.asarray(table.pos + table.neg, dtype=np.float64)[::-1]
    m = float(w.sum())
    if m < 2:
        raise ValueError(f"density smoothing chooses its bandwidth from at least 2 cases, "
                         f"counting case weights as cases (they sum to {m:g}): give "
                         "bandwidth= a number, or weights that count cases")
    mean = float(np.sum(w * x) / m)
    hi = float(np.sqrt(np.sum(w * (x - mean) ** 2) / (m - 1.0)))
    q1, q3 = weighted_percentile(table, np.array([25.0, 75.0]))
    lo = min(hi, float(q3 - q1) / 1.34)
    if not lo:  # R: (lo <- hi) || (lo <- abs(x[1])) || (lo <- 1); all x equal when hi = 0
        lo = hi or abs(float(x[0])) or 1.0
    return 0.9 * lo * m ** -0.2


def r_density(x: FloatArray, w: FloatArray, bw: float, n: int, start: float,
              stop: float) -> FloatArray:
    """R's ``density(x, weights = w / sum(w), bw, n, from = start, to = stop)$y`` with
    the Gaussian kernel: linear binning, FFT convolution, linear interpolation."""
    m = max(n, 512)
    if m > 512:
        m = int(2 ** np.ceil(np.log2(m)))
    lo, up = start - 4.0 * bw, stop + 4.0 * bw
    # R's C BinDist: each point shares its weight between the two grid points around it
    pos = (x - lo) / ((up - lo) / (m - 1))
    ix = np.floor(pos).astype(np.intp)
    fx = pos - ix
    wi = w / w.sum()
    y = np.zeros(2 * m)
    inside = (ix >= 0) & (ix <= m - 2)
    np.add.at(y, ix[inside], wi[inside] * (1.0 - fx[inside]))
    np.add.at(y, ix[inside] + 1, wi[inside] * fx[inside])
    left, right = ix == -1, ix == m - 1
    np.add.at(y, np.zeros(int(left.sum()), dtype=np.intp), wi[left] * fx[left])
    np.add.at(y, ix[right], wi[right] * (1.0 - fx[right]))
    kords = np.linspace(0.0, 2.0 * (up - lo), 2 * m)
    kords[m + 1:] = -kords[m - 1:0:-1]
    kern = np.exp(-0.5 * (kords / bw) ** 2) / (bw * np.sqrt(2.0 * np.pi))
    dens = np.fft.ifft(np.fft.fft(y) * np.conj(np.fft.fft(kern))).real[:m]
    dens = np.maximum(dens, 0.0)
    return np.interp(np.linspace(start, stop, n), np.linspace(lo, up, m), dens)


def density_smooth(table: CountTable, n: int = 512, bandwidth: float | str = "nrd0",
                   adjust: float = 1.0) -> SmoothROC:
    """pROC's ``smooth(roc, method = "density", n, bw, adjust)`` (direction "<")."""
    n = int(n)
    if n < 2:
        raise ValueError(f"n must be at least 2 points; got {n!r}")
    x = np.asarray(table.scores, dtype=np.float64)[::-1]  # ascending
    pos = np.asarray(table.pos, dtype=np.float64)[::-1]
    neg = np.asarray(table.neg, dtype=np.float64)[::-1]
    if isinstance(bandwidth, str):
        if bandwidth != "nrd0":
            raise ValueError(f"bandwidth must be a positive number or 'nrd0' (R's bw.nrd0); "
                             f"got {bandwidth!r}")
        bw = nrd0_bandwidth(table)
    else:
        bw = float(bandwidth)
    bw *= float(adjust)
    if not (np.isfinite(bw) and bw > 0):
        raise ValueError(f"the kernel bandwidth must be positive and finite; got {bw!r} "
                         "(bandwidth times adjust)")
    start, stop = x[0] - 3.0 * bw, x[-1] + 3.0 * bw
    keep_p, keep_n = pos > 0, neg > 0
    f1 = r_density(x[keep_p], pos[keep_p], bw, n, start, stop)
    f0 = r_density(x[keep_n], neg[keep_n], bw, n, start, stop)
    se = np.cumsum(f1[::-1])[::-1] / f1.sum()  # at grid point k: sum over i >= k
    sp = np.concatenate(([0.0], np.cumsum(f0)[:-1])) / f0.sum()  # sum over i < k
    sp = np.concatenate(([0.0], sp, [1.0]))
    se = np.concatenate(([1.0], se, [0.0]))
    return SmoothROC(fpr=(1.0 - sp)[::-1], tpr=se[::-1], method="density", bandwidth=bw)
