r"""Probability calibration and clinical usefulness: ECE/MCE, the logistic calibration
slope and intercept, calibration-in-the-large, Spiegelhalter's z, the Brier skill score,
net benefit, expected cost and Hand's H-measure.

"Calibration" here is the agreement of predicted probabilities with observed rates
(reliability). It is not the *prior* calibration of Siblini et al.
(``ev.calibrated(pi0)``), which re-weights the classes to a reference prevalence; see
the docs page "Two meanings of calibration".

Every measure reads the count table (each distinct score once, with its weighted
positives and negatives), so ties and weights cost nothing and integer weights act as
repeated rows. Conventions, which decide agreement with the peers:

* **Bins** (ECE, MCE, :func:`calibration_bins`). ``"uniform"``: ``n_bins`` equal widths
  of [0, 1]. ``"quantile"``: edges ``np.percentile(p, np.linspace(0, 100, n_bins + 1))``
  of the (weighted) cases, as scikit-learn's ``calibration_curve`` computes them. A bin
  is closed on the right, the first also holds its left edge (``np.searchsorted(
  edges[1:-1], p)``, as ``calibration_curve`` assigns them). Empty bins drop out.
* **Slope and intercept**: the maximum-likelihood logistic regression
  ``logit P(y = 1) = a + b logit(p)`` (rms::val.prob's ``Intercept`` and ``Slope``);
  calibration-in-the-large is the intercept of ``logit P(y = 1) = a + logit(p)`` (slope
  fixed at 1, logit(p) an offset). Cases with p exactly 0 or 1 are left out of these
  fits with a :class:`~binmetrics.exceptions.MeasureCaveatWarning`, as val.prob does.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.exceptions import SumsUnavailable, report_caveat, report_undefined
from binmetrics.measures._special import beta_integrals
from binmetrics.measures._util import dot, ratio
from binmetrics.measures.block_pass import Block, FamilyPart, compiled_sums, family_pass
from binmetrics.measures.logistic_fit import (
    FITS,
    Fit,
    cases_inside,
    cases_outside,
    fit_table,
    inside,
)
from binmetrics.measures.multiclass import MulticlassData
from binmetrics.measures.probabilistic import brier, require_probabilities
from binmetrics.measures.ranking import roc_hull
from binmetrics.measures.registry import declare_fast_path, register
from binmetrics.measures.sums import POLY, BlockPass, RawSum, SumGroup, table_sums
from binmetrics.table.counts import Confusion, CountTable, FloatArray, block_size
from binmetrics.validation import MIN_BIN_LIMIT, check_bin_count, check_in_range

__all__ = [
    "SPIEGELHALTER",
    "BinSums",
    "CalibrationBins",
    "brier_skill",
    "calibration_bins",
    "calibration_in_the_large",
    "calibration_intercept",
    "calibration_slope",
    "ece",
    "expected_cost",
    "h_measure",
    "logistic_calibration",
    "mce",
    "net_benefit",
    "spiegelhalter_z",
    "weighted_percentile",
]

_STRATEGIES = ("uniform", "quantile")
_NORMS = ("l1", "l2", "max")


# --- bins ---------------------------------------------------------------------------------
#: the reason shared by the measures that need each case's p (one warning names them all)
BINNED_RAW_P = ("binned scores: needs each case's raw probability (it fits or smooths "
                "them), which a table of bin representatives does not hold; evaluate the "
                "raw scores (no decimals=/bins=)")


def _exact_scores(t: CountTable, measure: str) -> None:
    """Raise :class:`SumsUnavailable` for binned scores: the measure needs each case's p."""
    if t.binning is not None:
        raise SumsUnavailable(BINNED_RAW_P)


def weighted_percentile(t: CountTable, q: FloatArray) -> FloatArray:
    """``np.percentile(p, q)`` (method "linear") of the cases of the table, weights as
    repeated rows, in the same floating-point steps as NumPy.

    Non-integer weights use the same formula with the cumulative weights as row
    positions.

    Examples
    --------
    >>> import binmetrics as bm
    >>> t = bm.CountTable.from_arrays([1, 0, 1, 0], [0.1, 0.4, 0.4, 0.9])
    >>> weighted_percentile(t, np.array([0.0, 50.0, 100.0])).tolist()
    [0.1, 0.4, 0.9]
    """
    s = t.scores[::-1]  # ascending
    cw = np.cumsum((t.pos + t.neg)[::-1].astype(np.float64))
    n = cw[-1]
    quantiles = np.true_divide(np.asarray(q, dtype=np.float64), 100)
    virtual = (n - 1) * quantiles
    prev = np.floor(virtual)
    nxt = np.minimum(prev + 1, n - 1)
    gamma = virtual - prev
    a = s[np.minimum(np.searchsorted(cw, prev, side="right"), s.size - 1)]
    b = s[np.minimum(np.searchsorted(cw, nxt, side="right"), s.size - 1)]
    diff = b - a
    out = a + diff * gamma
    high = gamma >= 0.5
    out[high] = (b - diff * (1 - gamma))[high]
    return np.asarray(out, dtype=np.float64)


class CalibrationBins:
    """The bins of the predicted probabilities, per bin: the weight of its cases, of its
    positives, and the weighted sum of its p (what ECE, the reliability diagram and
    Murphy's decomposition read).

    Attributes
    ----------
    edges : the ``n_bins + 1`` bin edges.
    weight, positives, sum_p, sum_p2, sum_py : per bin (length ``n_bins``, zeros for empty
        bins): total weight, weight of the positives, sums of w p, w p^2 and of p over the
        positives.
    """

    def __init__(self, edges: FloatArray, weight: FloatArray, positives: FloatArray,
                 sum_p: FloatArray, sum_p2: FloatArray, sum_py: FloatArray) -> None:
        self.edges = edges
        self.weight = weight
        self.positives = positives
        self.sum_p = sum_p
        self.sum_p2 = sum_p2
        self.sum_py = sum_py

    @property
    def nonempty(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.weight > 0)

    @property
    def mean_predicted(self) -> FloatArray:
        w = self.weight
        return np.divide(self.sum_p, w, out=np.full(w.shape, np.nan), where=w > 0)

    @property
    def fraction_positive(self) -> FloatArray:
        w = self.weight
        return np.divide(self.positives, w, out=np.full(w.shape, np.nan), where=w > 0)

    def __repr__(self) -> str:
        return (f"CalibrationBins(n_bins={self.weight.size}, "
                f"nonempty={int(self.nonempty.sum())}, total={self.weight.sum():g})")


def _check_bins(n_bins: Any, strategy: str, n_distinct: int) -> int:
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise ValueError(f"n_bins must be an integer >= 1, got {n_bins!r}")
    if strategy not in _STRATEGIES:
        raise ValueError(f"strategy must be one of {_STRATEGIES}, got {strategy!r}")
    # every bin costs memory and time, and at most one per distinct score holds cases
    return check_bin_count(n_bins, "n_bins", n_distinct=n_distinct)


def _bin_runs(s: FloatArray, cuts: FloatArray) -> Iterator[tuple[int, int, int]]:
    """(bin j, first row, end row) of each bin holding some of the descending scores
    ``s``: bin j holds cuts[j-1] < p <= cuts[j] (``np.searchsorted(cuts, p)``), the
    first bin all below cuts[0] and the last all above the last cut. The bins of the
    first and last rows bound the bins searched (a block within one bin: none)."""
    if not s.size:
        return
    first, last = (int(np.searchsorted(cuts, v)) for v in (s[0], s[-1]))
    hi = s.size
    for j in range(last, first + 1):  # upwards, from the last rows
        lo = 0 if j == first else bisect.bisect_left(s, -cuts[j], key=lambda v: -v)
        if hi > lo:
            yield j, lo, hi
        hi = lo


def _bin_sums(t: CountTable, edges: FloatArray) -> list[FloatArray]:
    """Per bin: sums of w, of the positives, of w p, w p^2 and of p over the positives.

    The table is sorted, so each bin is a run of rows (``np.searchsorted(edges[1:-1],
    p)`` assigns the same bins): each run is summed in cache-sized pieces with dot
    products, no table-sized temporary; with one case per row (w = 1) the weights
    are the runs' lengths and the products by w drop out. A large table takes each run
    in one compiled loop (:func:`~binmetrics.measures.block_pass.compiled_sums`)."""
    n_bins, s = edges.size - 1, t.scores
    unit = not t.weighted and t.total == t.n_distinct
    size = block_size()  # read now: tests shrink it
    out = np.zeros((5, n_bins))
    compiled = compiled_sums(t)
    for k, lo, hi in _bin_runs(s, edges[1:-1]):
        if compiled is not None:  # a large table: the run in one compiled read
            out[:, k] = compiled.run_moments(s, t.pos, t.neg, lo, hi, size)
            continue
        for a in range(lo, hi, size):
            sl = slice(a, min(a + size, hi))
            x = s[sl]
            pos = t.pos[sl].astype(np.float64)
            if unit:
                w, wx = float(x.size), x
            else:
                tot = pos + t.neg[sl]
                w, wx = float(tot.sum()), tot * x
            out[:, k] += (w, pos.sum(), wx.sum(), dot(wx, x), dot(pos, x))
    return list(out)


def _uniform_part(t: CountTable) -> Callable[[Block], Any] | None:
    """The sums of :data:`UNIFORM_BINS` over one block (the rows of each bin the block
    holds, in one compiled loop per bin while the family pass has the block in cache),
    or None for a table without the compiled family pass."""
    if family_pass(t) is None:
        return None
    k, n_bins, size = compiled_sums(t), UNIFORM_N_BINS, block_size()
    cuts = np.linspace(0.0, 1.0, n_bins + 1)[1:-1]

    def part(b: Block) -> FloatArray:
        out = np.zeros((5, n_bins))
        for j, lo, hi in _bin_runs(b.s, cuts):  # most blocks lie in one bin
            out[:, j] = k.run_moments(b.s, b.pos_counts, b.neg_counts, lo, hi, size)
        return out

    return part


def _uniform_combine(t: CountTable, parts: list[FloatArray]) -> CalibrationBins:
    total = np.zeros((5, UNIFORM_N_BINS))
    for x in parts:  # in the blocks' order
        total += x
    return CalibrationBins(np.linspace(0.0, 1.0, UNIFORM_N_BINS + 1), *total)


#: The default bin count of ECE, MCE and :func:`calibration_bins` (every signature
#: reads it, and so does :data:`UNIFORM_BINS`)
UNIFORM_N_BINS = 10
#: The default bins of :func:`calibration_bins` (ECE's and MCE's) for a table with the
#: compiled family pass (:func:`~binmetrics.measures.block_pass.family_pass`): the same
#: sums as :func:`_bin_sums`, block by block, so that ECE and MCE, which declare it,
#: read each block while the shared pass has it in cache instead of the table again.
UNIFORM_BINS = BlockPass("calibration_bins_uniform", _uniform_part, _uniform_combine)


def calibration_bins(t: CountTable, n_bins: int = UNIFORM_N_BINS,
                     strategy: str = "uniform") -> CalibrationBins:
    """Bin the table's cases by predicted probability (conventions in the module doc).

    Examples
    --------
    >>> import binmetrics as bm
    >>> t = bm.CountTable.from_arrays([0, 0, 1, 1], [0.1, 0.2, 0.2, 0.9])
    >>> b = calibration_bins(t, n_bins=2)
    >>> b.weight.tolist(), b.fraction_positive.tolist()
    ([3.0, 1.0], [0.3333333333333333, 1.0])
    """
    n = _check_bins(n_bins, strategy, t.n_distinct)

    def compute() -> CalibrationBins:
        if strategy == "uniform" and n == UNIFORM_N_BINS:  # blockwise where compiled
            bins = t.memo((UNIFORM_BINS.key,), lambda: UNIFORM_BINS.run(t))
            if bins is not None:
                return bins
        if strategy == "quantile":
            edges = weighted_percentile(t, np.linspace(0, 1, n + 1) * 100)
        else:
            edges = np.linspace(0.0, 1.0, n + 1)
        return CalibrationBins(edges, *_bin_sums(t, edges))

    return t.memo(("calibration_bins", n, strategy), compute)


# --- ECE, MCE -----------------------------------------------------------------------------
@dataclass(frozen=True)
class BinSums:
    """A measure's declaration that it is a function of per-bin sums over score bins
    that its parameters fix (``register(..., bin_sums=...)``).

    ``edges(**params)`` gives the ``n_bins + 1`` edges (bins assigned as
    :func:`calibration_bins` assigns them), or None where the bins depend on the data
    (quantile bins) or the parameters are not ones the shortcut takes (then the
    measure is evaluated on tables); ``value(bins, **params)`` is the measure's own
    formula from a :class:`CalibrationBins`, the one its function applies. A bootstrap
    replicate's bins are its cells' counts summed over the runs of cells each bin
    holds (:mod:`binmetrics.inference._replicate_bins`).
    """

    edges: Callable[..., FloatArray | None]
    value: Callable[..., float]


def _uniform_edges(*, n_bins: Any = UNIFORM_N_BINS, strategy: str = "uniform",
                   **_: Any) -> FloatArray | None:
    """The edges of ``n_bins`` uniform bins, or None: quantile bins, or a bin count that a
    replicate with fewer distinct scores could refuse (as its table would)."""
    if strategy != "uniform" or isinstance(n_bins, bool) \
            or not isinstance(n_bins, (int, np.integer)) or not 1 <= n_bins <= MIN_BIN_LIMIT:
        return None
    return np.linspace(0.0, 1.0, int(n_bins) + 1)


def _ece_of_bins(b: CalibrationBins, *, norm: str = "l1", **_: Any) -> float:
    """ECE (``norm`` "l1", "l2" or "max") from the bins' sums: the measure's formula."""
    keep = b.nonempty
    w = b.weight[keep]
    gap = np.abs(b.positives[keep] - b.sum_p[keep]) / w
    if norm == "max":
        return float(gap.max())
    share = w / w.sum()
    if norm == "l2":
        return float(np.sqrt(dot(share, gap * gap)))
    return dot(share, gap)


def _mce_of_bins(b: CalibrationBins, **_: Any) -> float:
    """MCE from the bins' sums: the largest gap, ECE's ``norm="max"``."""
    return _ece_of_bins(b, norm="max")


@register("ece", name="Expected calibration error", family="probabilistic", direction=-1,
          prevalence_dependent=True,
          range=(0.0, 1.0), plot="reliability", needs_probabilities=True,
          aliases=("expected_calibration_error",),
          source="Naeini, Cooper & Hauskrecht 2015; Guo et al. 2017",
          formula="sum_b (n_b/n) |mean y_b - mean p_b| (l1); sqrt(sum_b (n_b/n) gap_b^2) "
                  "(l2); max_b gap_b (max)",
          bin_sums=BinSums(_uniform_edges, _ece_of_bins), passes=(UNIFORM_BINS,))
def ece(t: CountTable, *, n_bins: int = UNIFORM_N_BINS, strategy: str = "uniform",
        norm: str = "l1") -> float:
    r"""Expected calibration error: the gap between observed rate and mean predicted
    probability in each bin, averaged with the bins' shares of the cases.

    .. math:: \mathrm{ECE} = \sum_b \frac{n_b}{n}\,|\bar y_b - \bar p_b|

    Parameters
    ----------
    n_bins : int, default 10
    strategy : "uniform" (equal widths of [0, 1]) or "quantile" (equal counts, edges as
        scikit-learn's ``calibration_curve``).
    norm : "l1" (default), "l2" (square root of the weighted mean squared gap) or "max"
        (the largest gap of a non-empty bin: the MCE, Naeini et al. 2015).

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([0, 0, 1, 1], [0.1, 0.2, 0.2, 0.9])
    >>> round(ev.value("ece", n_bins=2), 6)  # bin 1: |1/3 - 0.5/3| * 3/4; bin 2: 0.1 * 1/4
    0.15
    """
    require_probabilities(t, "ece")
    if norm not in _NORMS:
        raise ValueError(f"norm must be one of {_NORMS}, got {norm!r}")
    _exact_scores(t, "ece")
    return _ece_of_bins(calibration_bins(t, n_bins, strategy), norm=norm)


@register("mce", name="Maximum calibration error", family="probabilistic", direction=-1,
          prevalence_dependent=True,
          range=(0.0, 1.0), plot="reliability", needs_probabilities=True,
          aliases=("maximum_calibration_error",), source="Naeini, Cooper & Hauskrecht 2015",
          formula="max_b |mean y_b - mean p_b| over non-empty bins",
          bin_sums=BinSums(_uniform_edges, _mce_of_bins), passes=(UNIFORM_BINS,))
def mce(t: CountTable, *, n_bins: int = UNIFORM_N_BINS, strategy: str = "uniform") -> float:
    """Maximum calibration error: the largest bin gap, ``ece`` with ``norm="max"``.

    Examples
    --------
    >>> import binmetrics as bm
    >>> round(bm.evaluate([0, 0, 1, 1], [0.1, 0.2, 0.2, 0.9]).value("mce", n_bins=2), 6)
    0.166667
    """
    require_probabilities(t, "mce")
    _exact_scores(t, "mce")
    return ece(t, n_bins=n_bins, strategy=strategy, norm="max")


# --- logistic recalibration ---------------------------------------------------------------
def _logistic_fits(t: CountTable, measure: str) -> tuple[Fit, Fit] | None:
    """Both logistic calibration fits (slope and intercept; in-the-large), computed once
    per table in the same passes (:func:`~binmetrics.measures.logistic_fit.fit_table`);
    None (with a warning) when they are undefined (one class among 0 < p < 1)."""
    require_probabilities(t, measure)
    _exact_scores(t, measure)
    total, npos = cases_inside(t)
    dropped = t.total - total
    if cases_outside(t):
        # one warning for the three fits (slope, intercept, in-the-large) of a call
        report_caveat(measure, f"{dropped:g} cases with p exactly 0 or 1 are left out of "
                      "the logistic calibration fit (as rms::val.prob does)",
                      cause="logistic calibration fit: p exactly 0 or 1")
    if total == 0 or npos == 0 or npos == total:
        report_undefined(measure, "the logistic calibration fit needs both classes among "
                         "the cases with 0 < p < 1")
        return None
    slope_fit, citl_fit, _ = t.memo(("logistic_fits",), lambda: fit_table(t))
    return slope_fit, citl_fit


def _report_divergence(t: CountTable, measure: str) -> None:
    i0, i1 = inside(t)
    live = t.scores[i0:i1][(t.pos[i0:i1].astype(np.float64) + t.neg[i0:i1]) > 0]
    x = np.log(live) - np.log1p(-live)  # as logistic_fit.logit_rows takes logit(p)
    if x.size and x.min() == x.max():  # as newton_fit decides: logit(p) is a constant
        report_undefined(measure, "the logistic calibration fit's slope is not identifiable: "
                         "every case with 0 < p < 1 has the same p (or p's whose logit(p) "
                         "rounds to one value), so logit(p) does not vary (R's glm gives NA)")
        return
    report_undefined(measure, "the logistic calibration fit does not converge (the outcome "
                     "is perfectly separated by logit(p): the estimate is infinite)")


def logistic_calibration(t: CountTable, measure: str = "calibration_slope") -> tuple[float, float]:
    """(intercept, slope) of the logistic calibration fit y ~ a + b logit(p)
    (rms::val.prob's ``Intercept`` and ``Slope``); (NaN, NaN) with a warning if undefined.

    Examples
    --------
    >>> import binmetrics as bm
    >>> t = bm.CountTable.from_arrays([0, 1, 0, 1, 1, 0, 1], [.2, .3, .4, .6, .7, .8, .5])
    >>> [round(v, 6) for v in logistic_calibration(t)]  # R: glm(y ~ qlogis(p), binomial)
    [0.292758, 0.298525]
    """
    fits = _logistic_fits(t, measure)
    if fits is None:
        return float("nan"), float("nan")
    if fits[0] is None:
        _report_divergence(t, measure)
        return float("nan"), float("nan")
    return fits[0]


@register("calibration_slope", name="Calibration slope", family="probabilistic",
          prevalence_dependent=True,
          passes=(FITS,),
          direction=0, range=(-np.inf, np.inf), plot="reliability",
          needs_probabilities=True, aliases=("logistic_calibration_slope",),
          source="Cox 1958; Steyerberg 2019; rms::val.prob (Slope)",
          formula="b in logit P(y=1) = a + b logit(p), maximum likelihood")
def calibration_slope(t: CountTable) -> float:
    r"""Slope b of the logistic recalibration :math:`\mathrm{logit}\,P(y=1) = a + b\,
    \mathrm{logit}(p)`: 1 when well calibrated, below 1 when the predictions are too
    extreme (overfitting), above 1 when too moderate. As rms::val.prob's ``Slope``.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([0, 1, 0, 1, 1, 0, 1], [.2, .3, .4, .6, .7, .8, .5])
    >>> round(ev["calibration_slope"], 6)
    0.298525
    """
    return logistic_calibration(t, "calibration_slope")[1]


@register("calibration_intercept", name="Calibration intercept (joint fit)",
          prevalence_dependent=True,
          passes=(FITS,),
          family="probabilistic", direction=0, range=(-np.inf, np.inf), plot="reliability",
          needs_probabilities=True, source="Cox 1958; rms::val.prob (Intercept)",
          formula="a in logit P(y=1) = a + b logit(p), fitted jointly with b")
def calibration_intercept(t: CountTable) -> float:
    r"""Intercept a of the joint fit :math:`\mathrm{logit}\,P(y=1) = a + b\,\mathrm{logit}
    (p)`, as rms::val.prob's ``Intercept`` (0 when well calibrated). Not the
    calibration-in-the-large, which fixes b = 1 (see ``calibration_in_the_large``).

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([0, 1, 0, 1, 1, 0, 1], [.2, .3, .4, .6, .7, .8, .5])
    >>> round(ev["calibration_intercept"], 6)
    0.292758
    """
    return logistic_calibration(t, "calibration_intercept")[0]


@register("calibration_in_the_large", name="Calibration-in-the-large",
          prevalence_dependent=True,
          passes=(FITS,),
          family="probabilistic", direction=0, range=(-np.inf, np.inf), plot="reliability",
          needs_probabilities=True, aliases=("citl",),
          source="Steyerberg 2019; Van Calster et al. 2016",
          formula="a in logit P(y=1) = a + logit(p) (logit(p) an offset)")
def calibration_in_the_large(t: CountTable) -> float:
    r"""Intercept a of :math:`\mathrm{logit}\,P(y=1) = a + \mathrm{logit}(p)` with the
    slope fixed at 1: positive when the model under-predicts on average, negative when
    it over-predicts; as R's ``glm(y ~ offset(qlogis(p)), family = binomial)``.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([0, 1, 0, 1, 1, 0, 1], [.2, .3, .4, .6, .7, .8, .5])
    >>> round(ev["calibration_in_the_large"], 6)  # R: glm(y ~ offset(qlogis(p)), binomial)
    0.34209
    """
    fits = _logistic_fits(t, "calibration_in_the_large")
    if fits is None:
        return float("nan")
    if fits[1] is None:
        _report_divergence(t, "calibration_in_the_large")
        return float("nan")
    return fits[1][0]


# --- Spiegelhalter, Brier skill -------------------------------------------------------------
def _one_minus_2x(x: FloatArray) -> FloatArray:
    return 1.0 - 2.0 * x


def _unit_bound(low: float, high: float) -> float:
    a = max(abs(low), abs(high))
    return (1.0 + a) ** 4


def _spiegelhalter_block(t: CountTable) -> Callable[[Block], Any]:
    if family_pass(t) is not None:
        return FamilyPart("spiegelhalter")

    def block(b: Block) -> list[Any]:
        # five passes over the chunk before the four sums, not nine: each is a full
        # pass over the table at large n
        s, p, n = b.s, b.p, b.n
        q = s * -2.0
        q += 1.0            # 1 - 2p
        sq = s * q          # p (1 - 2p)
        rq = q - sq         # (1 - p)(1 - 2p)
        v = sq * rq         # (1 - 2p)^2 p (1 - p)
        return [dot(p, rq), dot(n, sq), dot(p, v), dot(n, v)]

    return block


#: Spiegelhalter's z: sum pos (1-p)(1-2p), sum neg p(1-2p), and the variance terms
#: sum (1-2p)^2 p(1-p) over the positives and the negatives
SPIEGELHALTER = SumGroup("spiegelhalter", "Spiegelhalter's z", (
    RawSum("spiegel_pos", "pos", "((1.0 - x) * (1.0 - 2.0 * x))",
           lambda x, _p, _pi: (1.0 - x) * _one_minus_2x(x), _unit_bound),
    RawSum("spiegel_neg", "neg", "(x * (1.0 - 2.0 * x))",
           lambda x, _p, _pi: x * _one_minus_2x(x), _unit_bound),
    RawSum("spiegel_var_pos", "pos", "((1.0 - 2.0 * x) * (1.0 - 2.0 * x) * x * (1.0 - x))",
           lambda x, _p, _pi: _one_minus_2x(x) ** 2 * x * (1.0 - x), _unit_bound),
    RawSum("spiegel_var_neg", "neg", "((1.0 - 2.0 * x) * (1.0 - 2.0 * x) * x * (1.0 - x))",
           lambda x, _p, _pi: _one_minus_2x(x) ** 2 * x * (1.0 - x), _unit_bound),
), block=_spiegelhalter_block, scores="probabilities")


@register("spiegelhalter_z", name="Spiegelhalter's z", family="probabilistic", direction=0,
          prevalence_dependent=True,
          weight_unit=True,
          range=(-np.inf, np.inf), plot="reliability", needs_probabilities=True,
          sums=(SPIEGELHALTER,), aliases=("spiegelhalter",),
          source="Spiegelhalter 1986; rms::val.prob (S:z)",
          formula="sum (y - p)(1 - 2p) / sqrt(sum (1 - 2p)^2 p (1 - p))")
def spiegelhalter_z(t: CountTable) -> float:
    r"""Spiegelhalter's (1986) z statistic of calibration, as rms::val.prob's ``S:z``:

    .. math:: z = \frac{\sum (y_i - p_i)(1 - 2p_i)}{\sqrt{\sum (1 - 2p_i)^2 p_i (1 - p_i)}}

    approximately standard normal when the p are the true probabilities
    (``ev.calibration_test("spiegelhalter")`` gives its p-value). NaN with a warning
    when every p is 0, 1/2 or 1 (zero variance).

    Examples
    --------
    >>> import binmetrics as bm
    >>> round(bm.evaluate([0, 1, 1, 0], [0.1, 0.8, 0.3, 0.6])["spiegelhalter_z"], 6)
    0.502519
    """
    require_probabilities(t, "spiegelhalter_z")
    sp, sn, vp, vn = table_sums(t, SPIEGELHALTER)
    var = vp + vn
    if not var > 0:
        report_undefined("spiegelhalter_z", "its variance sum (1-2p)^2 p(1-p) is 0 (every p "
                         "is 0, 1/2 or 1)")
        return float("nan")
    return (sp - sn) / float(np.sqrt(var))


@register("brier_skill", name="Brier skill score", family="probabilistic", direction=1,
          prevalence_dependent=True,
          range=(-np.inf, 1.0), plot="reliability", needs_probabilities=True, sums=(POLY,),
          aliases=("bss", "brier_skill_score", "scaled_brier"),
          source="Murphy 1973; Steyerberg et al. 2010 (scaled Brier)",
          formula="1 - Brier / (pi (1 - pi)), pi the prevalence")
def brier_skill(t: CountTable) -> float:
    r"""Brier skill score: :math:`1 - \mathrm{Brier} / \mathrm{Brier}_{ref}` with the
    reference forecast "the prevalence pi for everyone", :math:`\mathrm{Brier}_{ref} =
    \pi(1 - \pi)`. 1 is perfect, 0 no better than the prevalence. NaN with a warning on
    a single class.

    Examples
    --------
    >>> import binmetrics as bm
    >>> round(bm.evaluate([0, 1, 1, 0], [0.1, 0.8, 0.3, 0.6])["brier_skill"], 6)
    0.1
    """
    require_probabilities(t, "brier_skill")
    pi = t.prevalence
    ref = pi * (1.0 - pi)
    if not ref > 0:
        report_undefined("brier_skill", "y_true has one class, so the reference Brier score "
                         "pi (1 - pi) is 0")
        return float("nan")
    return 1.0 - brier(t) / ref


# --- decision-analytic --------------------------------------------------------------------
def _nb_threshold(t: CountTable, threshold: Any, measure: str) -> float | None:
    thr = check_in_range(threshold, "threshold", 0.0, 1.0)
    if thr in (0.0, 1.0):
        report_undefined(measure, f"the threshold probability {thr:g} gives odds t/(1-t) of "
                         f"{'0' if thr == 0 else 'infinity'}; use 0 < threshold < 1")
        return None
    if t.binning is not None:
        t.binning.warn_inexact(thr, t, stacklevel=4)
    return thr


@register("net_benefit", name="Net benefit", family="probabilistic", direction=1,
          prevalence_dependent=True,
          range=(-np.inf, 1.0), needs_probabilities=True, plot="decision_curve",
          source="Vickers & Elkin 2006",
          formula="TP/n - FP/n * t/(1 - t), treating everyone with p >= t")
def net_benefit(t: CountTable, *, threshold: float = 0.5) -> float:
    r"""Net benefit of treating everyone whose predicted risk is at least the threshold
    probability t (Vickers & Elkin 2006), as the dcurves packages:

    .. math:: \mathrm{NB}(t) = \frac{TP}{n} - \frac{FP}{n}\,\frac{t}{1 - t}

    t/(1-t) is the harm of a needless treatment relative to the benefit of a needed
    one. ``ev.decision_curve()`` draws it over t, with "treat all" and "treat none".

    Parameters
    ----------
    threshold : float in (0, 1), default 0.5 (independent of the evaluation's threshold).

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 0, 1, 0, 0], [0.9, 0.6, 0.4, 0.3, 0.1])
    >>> round(ev.value("net_benefit", threshold=0.25), 6)  # TP 2, FP 2: 2/5 - 2/5 * 1/3
    0.266667
    """
    require_probabilities(t, "net_benefit")
    thr = _nb_threshold(t, threshold, "net_benefit")
    if thr is None:
        return float("nan")
    c = t.confusion(thr)
    return float(c.tp / t.total - c.fp / t.total * (thr / (1.0 - thr)))


@register("expected_cost", name="Expected misclassification cost", family="confusion",
          monotone_in_fp=True,
          prevalence_dependent=True,
          direction=-1, range=(0.0, np.inf), plot="measure",
          aliases=("misclassification_cost",), source="Drummond & Holte 2006; Elkan 2001",
          formula="(cost_fp FP + cost_fn FN) / n")
def expected_cost(c: Confusion, *, cost_fp: float = 1.0, cost_fn: float = 1.0) -> Any:
    r"""Mean cost per case at the threshold, :math:`(c_{FP}\,FP + c_{FN}\,FN) / n`;
    ``ev.best_threshold("expected_cost", cost_fp=1, cost_fn=5)`` finds the cheapest cut.
    With both costs 1 it is the error rate. With per-case costs
    (``bm.evaluate(y, p, case_cost_fp=..., case_cost_fn=...)``) the counts become the
    errors' summed costs, :math:`(c_{FP} \sum_{FP} a_i + c_{FN} \sum_{FN} b_i) / n`, each
    case weighted by its ``sample_weight``.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 0, 1, 0, 0], [0.9, 0.6, 0.4, 0.3, 0.1])
    >>> ev.value("expected_cost", cost_fp=1, cost_fn=5)  # FP 1, FN 1 at 0.5
    1.2
    """
    cfp = check_in_range(cost_fp, "cost_fp", 0.0, np.inf, high_open=True)
    cfn = check_in_range(cost_fn, "cost_fn", 0.0, np.inf, high_open=True)
    if c.fp_cost is not None:  # per-case costs: the errors' own costs, times the factors
        return ratio(cfp * c.fp_cost + cfn * c.fn_cost, c.total, "expected_cost",
                     "there are no cases")
    return ratio(cfp * c.fp + cfn * c.fn, c.total, "expected_cost", "there are no cases")


def _h_integrals(a: float, b: float) -> tuple[Any, Any]:
    """c -> int_0^c x u(x) dx and c -> int_0^c (1-x) u(x) dx, u the Beta(a, b) density
    (closed forms for the H-measure's a = 2: see
    :func:`binmetrics.measures._special.beta_integrals`)."""
    return beta_integrals(a, b)


@register("h_measure", name="H-measure", family="ranking", direction=1, range=(0.0, 1.0),
          prevalence_dependent=True,
          plot="roc", aliases=("hmeasure",), binning_bound="refinements",
          source="Hand 2009; Hand & Anagnostopoulos 2014; R/Python hmeasure",
          formula="1 - L / L_max, L the minimum expected loss under a Beta(2, 1 + 1/SR) "
                  "prior on the cost c")
def h_measure(t: CountTable, *, severity_ratio: float | None = None) -> float:
    r"""Hand's (2009) H-measure: one minus the expected minimum misclassification loss,
    relative to that of the best trivial classifier, under a Beta(a, b) distribution of
    the relative cost c, with a = 2 and b = 1 + 1/SR (Hand & Anagnostopoulos 2014).

    The minimum loss at cost c is that of the ROC convex hull's best vertex,
    :math:`\min_k\; c\,\pi_0\,FPR_k + (1 - c)\,\pi_1\,(1 - TPR_k)`, and
    :math:`L_{max} = \int \min(c\,\pi_0, (1 - c)\,\pi_1)\,u(c)\,dc`.

    Parameters
    ----------
    severity_ratio : float > 0, optional. The relative severity of the two errors;
        default pi1/pi0 (positives over negatives), as the hmeasure package.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 0, 0], [0.9, 0.8, 0.7, 0.4, 0.3, 0.1])
    >>> round(ev["h_measure"], 6)
    0.666667
    """
    if t.P == 0 or t.N == 0:
        which = "positives" if t.P == 0 else "negatives"
        report_undefined("h_measure", f"y_true has no {which}; the H-measure needs both classes")
        return float("nan")
    pi1 = t.prevalence
    pi0 = 1.0 - pi1
    sr = pi1 / pi0 if severity_ratio is None else check_in_range(
        severity_ratio, "severity_ratio", 0.0, np.inf, low_open=True, high_open=True)
    a, b = 2.0, 1.0 + 1.0 / sr
    m1, m2 = _h_integrals(a, b)
    fpr, tpr = roc_hull(t)
    df, dt = np.diff(fpr), np.diff(tpr)
    with np.errstate(invalid="ignore", divide="ignore"):
        cuts = pi1 * dt / (pi1 * dt + pi0 * df)
    hi = np.concatenate([[1.0], cuts])
    lo = np.concatenate([cuts, [0.0]])
    loss = pi0 * dot(fpr, m1(hi) - m1(lo)) + pi1 * dot(1.0 - tpr, m2(hi) - m2(lo))
    lmax = float(pi0 * m1(pi1) + pi1 * (m2(1.0) - m2(pi1)))
    return 1.0 - loss / lmax


# --- multiclass ---------------------------------------------------------------------------
def _ece_multiclass(data: MulticlassData, *, n_bins: int = UNIFORM_N_BINS,
                    strategy: str = "uniform", norm: str = "l1",
                    kind: str = "top_label") -> float:
    """Multiclass ECE. ``kind="top_label"`` (default; Guo et al. 2017): the binary ECE of
    "the argmax class is right" against the top probability. ``kind="classwise"`` (Kull
    et al. 2019): the mean over the classes of the one-vs-rest ECE of each column."""
    proba = data.proba
    if proba.size and (proba.min() < 0 or proba.max() > 1):
        raise ValueError("ece needs probabilities in [0, 1]")
    if kind == "top_label":
        top = proba.argmax(axis=1)
        # the multiclass door checked labels, probabilities and weights: no second check
        t = CountTable.from_validated(top == data.codes, proba[np.arange(top.size), top],
                                      data.weight)
        return ece(t, n_bins=n_bins, strategy=strategy, norm=norm)
    if kind == "classwise":
        values = [ece(CountTable.from_validated(data.codes == k, proba[:, k], data.weight),
                      n_bins=n_bins, strategy=strategy, norm=norm)
                  for k in range(data.n_classes)]
        return float(np.mean(values))
    raise ValueError(f"kind must be 'top_label' or 'classwise', got {kind!r}")


def _mce_multiclass(data: MulticlassData, *, n_bins: int = UNIFORM_N_BINS,
                    strategy: str = "uniform", kind: str = "top_label") -> float:
    """Multiclass MCE: ``ece`` with ``norm="max"`` (top-label or classwise)."""
    return _ece_multiclass(data, n_bins=n_bins, strategy=strategy, norm="max", kind=kind)


declare_fast_path("ece", multiclass=_ece_multiclass)
declare_fast_path("mce", multiclass=_mce_multiclass)
