r"""Result objects of probability calibration and clinical usefulness, read from the count
table: the reliability diagram's bins (:class:`Reliability`), the Hosmer-Lemeshow and
Spiegelhalter tests (:class:`CalibrationTest`), Murphy's decomposition of the Brier score
(:class:`BrierDecomposition`), the decision curve (:class:`DecisionCurve`) and the
Drummond-Holte cost curve (:class:`CostCurve`). Each has ``to_frame()``, ``plot()`` and
a repr. The scalar measures behind them are in :mod:`binmetrics.measures.calibration`;
``Evaluation.reliability()`` and its neighbours build these objects.
"""

from __future__ import annotations

import bisect
import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from scipy import stats
from scipy.special import ndtri

from binmetrics.backends import axes
from binmetrics.chart import ChartData, Drawable, Note, histogram_outline, series
from binmetrics.exceptions import report_undefined
from binmetrics.formatting import HypothesisTest, Tabular
from binmetrics.measures.calibration import (
    calibration_bins,
    spiegelhalter_z,
    weighted_percentile,
)
from binmetrics.measures.decision_curve import DecisionCurve
from binmetrics.measures.probabilistic import require_probabilities
from binmetrics.measures.ranking import roc_hull
from binmetrics.table.counts import CountTable, FloatArray
from binmetrics.table.positive_groups import count_sum
from binmetrics.validation import check_bin_count, check_in_range

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["HISTOGRAM_LABEL", "BrierDecomposition", "CalibrationTest", "CostCurve",
           "DecisionCurve", "Reliability", "calibration_test"]

#: The label of the reliability diagram's histogram (the bins' shares of the cases).
HISTOGRAM_LABEL = "share of cases per bin"


def _exact(t: CountTable, what: str) -> None:
    if t.binning is not None:
        raise ValueError(f"{what} needs each case's predicted probability; a table of binned "
                         "scores holds bin representatives: evaluate the raw scores")


def _wilson(k: FloatArray, n: FloatArray, level: float) -> tuple[FloatArray, FloatArray]:
    """Wilson score interval of k successes in n trials (weights as counts)."""
    z = float(ndtri(0.5 + level / 2))
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return np.maximum(mid - half, 0.0), np.minimum(mid + half, 1.0)


def _histogram(t: CountTable, n: int) -> FloatArray:
    """The weight of the cases in each of ``n`` equal bins of p, bin ``min(floor(n p),
    n - 1)``. That bin number only falls along the table's descending scores, so each
    bin is a run of rows found by binary search: no table-sized temporary."""
    s = t.scores
    # rows [0, ends[k]) hold bins >= k (the same float expression as floor(n * p))
    ends = [s.size] + [bisect.bisect_left(s, 1 - k, key=lambda v: -min(int(v * n), n - 1))
                       for k in range(1, n)] + [0]
    return np.array([count_sum(t.pos[b:a]) + count_sum(t.neg[b:a])
                     for a, b in itertools.pairwise(ends)])


@dataclass(frozen=True, repr=False)
class Reliability(Drawable, Tabular):
    """The reliability diagram's numbers: per non-empty bin, its edges, its weight, the
    mean predicted probability and the observed rate with a Wilson interval.

    Bins as :func:`binmetrics.measures.calibration.calibration_bins` (scikit-learn's
    ``calibration_curve``); ``histogram`` is the weight of the cases in 20 equal-width
    bins of [0, 1] (the histogram of p). :meth:`chart` is the diagram every plot of it
    draws (``.plot()``, ``bm.plot.reliability``, the HTML report).

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([0, 0, 0, 0, 1, 1, 1, 1, 1],
    ...                  [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1.0])
    >>> r = ev.reliability(n_bins=3)  # scikit-learn's example
    >>> r.fraction_positive.tolist(), r.mean_predicted.round(3).tolist()
    ([0.0, 0.5, 1.0], [0.2, 0.525, 0.85])
    >>> r
    Reliability(n_bins=3, strategy='uniform', nonempty=3, ece=0.1389)
         low     high mean_predicted fraction_positive weight      ci_low  ci_high
           0 0.333333            0.2                 0      3 5.55112e-17 0.561497
    0.333333 0.666667          0.525               0.5      2   0.0945312 0.905469
    0.666667        1           0.85                 1      4    0.510109        1
    """

    n_bins: int
    strategy: str
    low: FloatArray
    high: FloatArray
    weight: FloatArray
    mean_predicted: FloatArray
    fraction_positive: FloatArray
    ci_low: FloatArray
    ci_high: FloatArray
    histogram: FloatArray
    level: float

    @classmethod
    def from_table(cls, t: CountTable, *, n_bins: int = 10, strategy: str = "uniform",
                   level: float = 0.95) -> Reliability:
        if not t.probabilities_ok:
            if t.binning is not None:
                require_probabilities(t, "the reliability diagram")
            raise ValueError(f"the reliability diagram needs probabilities in [0, 1]; the "
                             f"scores range over [{t.scores[-1]:g}, {t.scores[0]:g}]")
        _exact(t, "the reliability diagram")
        level = check_in_range(level, "level", 0.0, 1.0, low_open=True, high_open=True)
        b = calibration_bins(t, n_bins, strategy)
        keep = b.nonempty
        rows = np.flatnonzero(keep)
        w = b.weight[keep]
        lo, hi = _wilson(b.positives[keep], w, level)
        hist = _histogram(t, 20)
        return cls(int(n_bins), strategy, b.edges[rows], b.edges[rows + 1], w,
                   b.sum_p[keep] / w, b.positives[keep] / w, lo, hi, hist, level)

    @property
    def ece(self) -> float:
        """The expected calibration error of these bins (the ``ece`` measure)."""
        return float(self.weight @ np.abs(self.fraction_positive - self.mean_predicted)
                     / self.weight.sum())

    def to_frame(self) -> pd.DataFrame:
        """One row per non-empty bin: low, high (edges), mean_predicted, fraction_positive, weight,
        ci_low, ci_high."""
        import pandas as pd

        return pd.DataFrame({"low": self.low, "high": self.high,
                             "mean_predicted": self.mean_predicted,
                             "fraction_positive": self.fraction_positive, "weight": self.weight,
                             "ci_low": self.ci_low, "ci_high": self.ci_high})

    def chart(self, *, histogram: bool = True, counts: bool = True,
              intervals: bool = False) -> ChartData:
        """The reliability diagram: the observed rate against the mean predicted
        probability in each bin, the diagonal of perfect calibration, and

        - ``histogram``: bars of each bin's share of the (weighted) cases;
        - ``counts``: each bin's number of cases (weight) next to its point;
        - ``intervals``: the Wilson intervals of the observed rates.

        Examples
        --------
        >>> import binmetrics as bm
        >>> ev = bm.evaluate([0, 0, 0, 0, 1, 1, 1, 1, 1],
        ...                  [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1.0])
        >>> cd = ev.reliability(n_bins=3).chart()
        >>> [s.label for s in cd.series], [t.text for t in cd.texts]
        (['share of cases per bin', '3 bins (uniform)', 'perfectly calibrated'], ['3', '2', '4'])
        """
        out = []
        if histogram:
            hx, hy = histogram_outline(self.low, self.high, self.weight / self.weight.sum())
            out.append(series(hx, hy, HISTOGRAM_LABEL, style="bars", legend=False,
                              extra={"alpha": 0.15, "zorder": 0}))
        out.append(series(self.mean_predicted, self.fraction_positive,
                          f"{self.fraction_positive.size} bins ({self.strategy})", marker="o",
                          extra={"markersize": 5},
                          source=(self, "mean_predicted", "fraction_positive")))
        if intervals:  # one vertical whisker per bin, NaN between them
            x = np.repeat(self.mean_predicted, 3)
            x[2::3] = np.nan
            y = np.column_stack([self.ci_low, self.ci_high,
                                 np.full(self.ci_low.size, np.nan)]).ravel()
            out.append(series(x, y, f"{100 * self.level:g}% Wilson intervals", width=1.0))
        out.append(series([0.0, 1.0], [0.0, 1.0], "perfectly calibrated", style="dashed",
                          shared=True, color="grey", width=1.0))
        texts: tuple[Note, ...] = ()
        if counts:
            whole = bool(np.all(self.weight == np.round(self.weight)))
            texts = tuple(Note(float(x), float(y), f"{n:.0f}" if whole else f"{n:g}",
                               offset=(4, 4), extra={"fontsize": "x-small"})
                          for x, y, n in zip(self.mean_predicted, self.fraction_positive,
                                             self.weight, strict=True))
        return ChartData("reliability",
                         "Reliability diagram" + (" (numbers: cases per bin)" if counts else ""),
                         "mean predicted probability",
                         "fraction of positives" + ("; bars: share of cases" if histogram
                                                    else ""),
                         tuple(out), (0.0, 1.0), (0.0, 1.0), texts=texts, legend="upper left",
                         pad=0.02, aspect="equal")

    def _title(self) -> str:
        return (f"Reliability(n_bins={self.n_bins}, strategy={self.strategy!r}, "
                f"nonempty={self.fraction_positive.size}, ece={self.ece:.4g})")


@dataclass(frozen=True)
class CalibrationTest(HypothesisTest):
    """A goodness-of-fit test of predicted probabilities: statistic, df, p-value.

    ``method`` "hosmer_lemeshow": chi-square with ``df`` = groups formed - 2;
    "spiegelhalter": Spiegelhalter's z, two-sided normal p-value (``df`` None).
    ``groups`` (Hosmer-Lemeshow) holds, per group, the observed and expected counts.
    """

    method: str
    statistic: float
    df: float | None
    pvalue: float
    n_groups: int | None = None
    groups: Any = None

    #: both tests reject miscalibration in either direction
    alternative: ClassVar[str] = "two-sided"

    def to_frame(self) -> pd.DataFrame:
        """One row: method, statistic, df, pvalue, alternative, n_groups."""
        import pandas as pd

        return pd.DataFrame([{"method": self.method, "statistic": self.statistic,
                              "df": self.df, "pvalue": self.pvalue,
                              "alternative": self.alternative, "n_groups": self.n_groups}])

    def plot(self, *, ax: Any = None) -> Axes:
        """Hosmer-Lemeshow: observed against expected positives per group; Spiegelhalter:
        the statistic on the standard normal density."""
        ax = axes(ax, "CalibrationTest.plot")
        if self.groups is not None:
            g = self.groups
            ax.plot(g["expected_1"], g["observed_1"], marker="o")
            top = float(max(g["expected_1"].max(), g["observed_1"].max()))
            ax.plot([0, top], [0, top], color="grey", linestyle="--", linewidth=1)
            ax.set_xlabel("expected positives")
            ax.set_ylabel("observed positives")
        else:
            x = np.linspace(-4, 4, 200)
            ax.plot(x, stats.norm.pdf(x), color="grey")
            ax.axvline(self.statistic, color="C0")
            ax.set_xlabel("z")
        ax.set_title(f"{self.method}: p = {self.pvalue:.3g}")
        return ax

    def __repr__(self) -> str:
        df = "" if self.df is None else f", df={self.df:g}"
        return (f"CalibrationTest(method={self.method!r}, statistic={self.statistic:.6g}"
                f"{df}, pvalue={self.pvalue:.4g})")


def _hosmer_lemeshow(t: CountTable, n_groups: int) -> CalibrationTest:
    # each group costs a quantile break; at most one per distinct score holds cases
    g = check_bin_count(n_groups, "n_groups", n_distinct=t.n_distinct, least=3)
    breaks = np.unique(weighted_percentile(t, np.linspace(0, 1, g + 1) * 100))
    ids = np.searchsorted(breaks[1:-1], t.scores)
    m = max(breaks.size - 1, 1)
    pos = t.pos.astype(np.float64)
    tot = pos + t.neg.astype(np.float64)
    obs1 = np.bincount(ids, pos, m)
    n = np.bincount(ids, tot, m)
    exp1 = np.bincount(ids, tot * t.scores, m)
    keep = n > 0
    obs1, n, exp1 = obs1[keep], n[keep], exp1[keep]
    formed = int(keep.sum())
    obs0, exp0 = n - obs1, n - exp1
    import pandas as pd

    groups = pd.DataFrame({"n": n, "observed_1": obs1, "expected_1": exp1,
                           "observed_0": obs0, "expected_0": exp0})
    if formed < 3:
        report_undefined("hosmer_lemeshow", f"only {formed} groups formed (ties merge the "
                         f"quantile groups); the test needs at least 3")
        return CalibrationTest("hosmer_lemeshow", float("nan"), float(formed - 2),
                               float("nan"), formed, groups)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = (obs1 - exp1) ** 2 / exp1 + (obs0 - exp0) ** 2 / exp0
    chi2 = float(np.sum(terms))
    df = formed - 2
    return CalibrationTest("hosmer_lemeshow", chi2, float(df),
                           float(stats.chi2.sf(chi2, df)), formed, groups)


def calibration_test(t: CountTable, method: str = "hosmer_lemeshow", *,
                     n_groups: int = 10) -> CalibrationTest:
    """The Hosmer-Lemeshow or Spiegelhalter test of the table's probabilities.

    Hosmer-Lemeshow, as R's ``ResourceSelection::hoslem.test`` (0.3-6): groups cut at
    ``quantile(p, seq(0, 1, 1/g))`` (type 7, ``np.percentile``), duplicate breaks
    merged, intervals closed on the right with the lowest included; the statistic sums
    (observed - expected)^2 / expected over both outcome columns; df = groups formed - 2.
    Integer weights count as repeated rows.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([0, 1, 1, 0, 1, 0, 1, 1], [.1, .8, .3, .6, .9, .2, .7, .5])
    >>> ev.calibration_test("spiegelhalter")
    CalibrationTest(method='spiegelhalter', statistic=-0.216506, pvalue=0.8286)
    """
    require_probabilities(t, "calibration_test")
    if method == "hosmer_lemeshow":
        _exact(t, "the Hosmer-Lemeshow test")
        return _hosmer_lemeshow(t, n_groups)
    if method == "spiegelhalter":  # its z reads sums the engines take over the raw scores
        z = spiegelhalter_z(t)
        return CalibrationTest("spiegelhalter", z, None, float(2 * stats.norm.sf(abs(z))))
    raise ValueError(f"method must be 'hosmer_lemeshow' or 'spiegelhalter', got {method!r}")


@dataclass(frozen=True)
class BrierDecomposition(Tabular):
    r"""Murphy's (1973) decomposition of the Brier score over probability bins, with the
    within-bin terms of Stephenson et al. (2008) so the parts sum to the Brier score:

    .. math:: \mathrm{Brier} = \mathrm{REL} - \mathrm{RES} + \mathrm{UNC} + \mathrm{WBV}
              - \mathrm{WBC}

    REL = sum_k (n_k/n)(pbar_k - obar_k)^2, RES = sum_k (n_k/n)(obar_k - obar)^2,
    UNC = obar(1 - obar), WBV = (1/n) sum_k sum_i (p_i - pbar_k)^2 (within-bin variance)
    and WBC = (2/n) sum_k sum_i (p_i - pbar_k)(y_i - obar_k) (within-bin covariance).

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([0, 1, 1, 0, 1, 0, 1, 1], [.1, .8, .3, .6, .9, .2, .7, .5])
    >>> d = ev.brier_decomposition(n_bins=4)
    >>> round(d.total, 12) == round(ev["brier"], 12)
    True
    """

    reliability: float
    resolution: float
    uncertainty: float
    within_bin_variance: float
    within_bin_covariance: float
    n_bins: int
    strategy: str

    @classmethod
    def from_table(cls, t: CountTable, *, n_bins: int = 10,
                   strategy: str = "uniform") -> BrierDecomposition:
        require_probabilities(t, "brier_decomposition")
        _exact(t, "brier_decomposition")
        b = calibration_bins(t, n_bins, strategy)
        keep = b.nonempty
        w, k, sp, sp2, spy = (b.weight[keep], b.positives[keep], b.sum_p[keep],
                              b.sum_p2[keep], b.sum_py[keep])
        n = t.total
        pbar, obar = sp / w, k / w
        o = t.P / n
        rel = float(w @ (pbar - obar) ** 2) / n
        res = float(w @ (obar - o) ** 2) / n
        wbv = float(np.sum(sp2 - w * pbar * pbar)) / n
        wbc = 2 * float(np.sum(spy - w * pbar * obar)) / n
        return cls(rel, res, o * (1 - o), wbv, wbc, int(n_bins), strategy)

    @property
    def total(self) -> float:
        """REL - RES + UNC + WBV - WBC: the Brier score."""
        return (self.reliability - self.resolution + self.uncertainty
                + self.within_bin_variance - self.within_bin_covariance)

    def to_frame(self) -> pd.DataFrame:
        """One row per term, and the total (the Brier score)."""
        import pandas as pd

        names = ["reliability", "resolution", "uncertainty", "within_bin_variance",
                 "within_bin_covariance"]
        signs = [1, -1, 1, 1, -1]
        return pd.DataFrame({"term": [*names, "brier"],
                             "value": [getattr(self, x) for x in names] + [self.total],
                             "sign": [*signs, 0]})

    def plot(self, *, ax: Any = None) -> Axes:
        """The terms as bars (signed as they enter the Brier score)."""
        ax = axes(ax, "BrierDecomposition.plot")
        f = self.to_frame()
        ax.bar(f.term, f.value * np.where(f.sign == 0, 1, f.sign))
        ax.set_ylabel("contribution to the Brier score")
        ax.tick_params(axis="x", labelrotation=30)
        ax.set_title("Brier score decomposition (Murphy 1973)")
        return ax

    def __repr__(self) -> str:
        return (f"BrierDecomposition(reliability={self.reliability:.6g}, "
                f"resolution={self.resolution:.6g}, uncertainty={self.uncertainty:.6g}, "
                f"within_bin_variance={self.within_bin_variance:.3g}, "
                f"within_bin_covariance={self.within_bin_covariance:.3g}, "
                f"brier={self.total:.6g})")


@dataclass(frozen=True, repr=False)
class CostCurve(Drawable, Tabular):
    r"""Drummond & Holte's (2006) cost curve: normalized expected cost against the
    probability cost PC(+), each ROC point a line :math:`(1 - TPR)\,PC + FPR\,(1 - PC)`;
    the lower envelope (from the ROC convex hull's vertices) and the area under it.

    ``pc``, ``cost``: the envelope's corners; ``area``: the area under it.

    Examples
    --------
    >>> import binmetrics as bm
    >>> cc = bm.evaluate([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9]).cost_curve()
    >>> cc.area
    0.0
    >>> round(bm.evaluate([0, 1, 0, 1], [0.5] * 4).cost_curve().area, 6)
    0.25
    """

    pc: FloatArray
    cost: FloatArray
    fpr: FloatArray
    tpr: FloatArray
    area: float

    @classmethod
    def from_table(cls, t: CountTable) -> CostCurve:
        if t.P == 0 or t.N == 0:
            raise ValueError("the cost curve needs both classes")
        f, r = roc_hull(t)
        df, dt = np.diff(f), np.diff(r)
        with np.errstate(divide="ignore", invalid="ignore"):
            cuts = np.where(df + dt > 0, df / (df + dt), 0.0)
        lo = np.concatenate([[0.0], cuts])
        hi = np.concatenate([cuts, [1.0]])
        half = (hi * hi - lo * lo) / 2
        area = float(np.sum((1 - r) * half + f * ((hi - lo) - half)))
        pc = np.concatenate([[0.0], cuts, [1.0]])
        # the envelope at each corner: vertex k holds on [lo_k, hi_k]
        cost = np.concatenate([[f[0]], (1 - r) * hi + f * (1 - hi)])
        return cls(pc, cost, f, r, area)

    def to_frame(self) -> pd.DataFrame:
        """The lower envelope's corners: pc, normalized_expected_cost."""
        import pandas as pd

        return pd.DataFrame({"pc": self.pc, "normalized_expected_cost": self.cost})

    def chart(self) -> ChartData:
        """The cost line of each vertex of the ROC convex hull (thin, grey) and their
        lower envelope, its area in the label.

        Examples
        --------
        >>> import binmetrics as bm
        >>> cd = bm.evaluate([0, 1, 0, 1], [0.5] * 4).cost_curve().chart()
        >>> lines, envelope = cd.series
        >>> envelope.label, envelope.x.tolist(), envelope.y.tolist()  # chance: area 1/4
        ('lower envelope (area 0.2500)', [0.0, 0.5, 1.0], [0.0, 0.5, 0.0])
        """
        nan = np.full(self.fpr.size, np.nan)
        xs = np.column_stack([np.zeros(self.fpr.size), np.ones(self.fpr.size), nan]).ravel()
        ys = np.column_stack([self.fpr, 1.0 - self.tpr, nan]).ravel()
        lines = series(xs, ys, "cost lines of the hull's vertices", color="grey", width=0.5,
                       legend=False, extra={"alpha": 0.5})
        envelope = series(self.pc, self.cost, f"lower envelope (area {self.area:.4f})",
                          width=2.0, source=(self, "pc", "normalized_expected_cost"))
        return ChartData("cost_curve", "Cost curve (Drummond & Holte 2006)",
                         "probability cost PC(+)", "normalized expected cost",
                         (lines, envelope), (0.0, 1.0), (0.0, 1.0))

    def _title(self) -> str:
        return f"CostCurve(vertices={self.fpr.size}, area={self.area:.6g})"
