"""How measures move together across groups, periods or models (Siblini et al.,
Fig. 7): rank correlations between the measures' values, raw and calibrated."""

from __future__ import annotations

import itertools
import re
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from binmetrics.backends import axes
from binmetrics.evaluation.binary import Evaluation
from binmetrics.evaluation.by import ByResult
from binmetrics.exceptions import MeasureCaveatWarning, UndefinedMeasureWarning
from binmetrics.formatting import Tabular
from binmetrics.measures.registry import select_measures
from binmetrics.validation import check_in_range

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["FIG7_CALIBRATED", "FIG7_MEASURES", "MeanMeasureCorrelation", "MeasureCorrelation",
           "mean_measure_correlation", "measure_correlation"]

_METHODS = ("spearman", "kendall", "pearson")


class MeasureCorrelation(Tabular):
    """The result of :func:`measure_correlation`.

    Attributes
    ----------
    values : DataFrame, one row per evaluation (group, period, model), one column per
        measure.
    matrix : DataFrame, measures x measures: the correlation of their values across the
        rows (``method``).
    calibrated : MeasureCorrelation or None: the same of the evaluations calibrated to
        ``pi0`` (Siblini et al.), when it was given.
    """

    def __init__(self, values: pd.DataFrame, method: str,
                 calibrated: MeasureCorrelation | None = None, pi0: float | None = None) -> None:
        self.values, self.method = values, method
        self.matrix = values.corr(method=method)  # type: ignore[arg-type]
        self.calibrated, self.pi0 = calibrated, pi0

    def _title(self) -> str:
        cal = "" if self.pi0 is None else f", calibrated pi0={self.pi0:g}"
        return (f"MeasureCorrelation({self.method}, {len(self.values)} evaluations, "
                f"{self.values.shape[1]} measures{cal})\n{self.matrix.round(3).to_string()}")

    def to_frame(self) -> pd.DataFrame:
        """The correlations in long form: measure_a, measure_b, correlation (and
        calibrated_correlation when calibrated)."""
        import pandas as pd

        rows = []
        ids = list(self.matrix.columns)
        m = self.matrix.to_numpy(dtype=float)
        cal = None if self.calibrated is None else self.calibrated.matrix.to_numpy(dtype=float)
        for (i, a), (j, b) in itertools.combinations(enumerate(ids), 2):
            row: dict[str, Any] = {"measure_a": a, "measure_b": b,
                                   "correlation": float(m[i, j])}
            if cal is not None:
                row["calibrated_correlation"] = float(cal[i, j])
            rows.append(row)
        return pd.DataFrame(rows)

    def plot(self, *, ax: Any = None, calibrated: bool = False, cmap: str = "RdBu_r",
             annotate: bool | None = None, colorbar: bool = True) -> Axes:
        """Heatmap of the correlation matrix (``calibrated=True``: of the calibrated
        evaluations). Returns the Axes."""
        src = self.calibrated if calibrated else self
        if src is None:
            raise ValueError("no calibrated correlations: pass pi0= to measure_correlation")
        ax = axes(ax, "MeasureCorrelation.plot")
        m = src.matrix.to_numpy(dtype=float)
        ids = list(src.matrix.columns)
        im = ax.imshow(m, cmap=cmap, vmin=-1.0, vmax=1.0)
        ax.set_xticks(range(len(ids)))
        ax.set_yticks(range(len(ids)))
        ax.set_xticklabels(ids, rotation=90)
        ax.set_yticklabels(ids)
        if annotate if annotate is not None else len(ids) <= 15:
            for i, j in itertools.product(range(len(ids)), range(len(ids))):
                ax.text(j, i, f"{m[i, j]:.2f}", ha="center", va="center", fontsize="x-small",
                        color="w" if abs(m[i, j]) > 0.6 else "k")
        if colorbar:
            ax.figure.colorbar(im, ax=ax, label=f"{src.method} correlation")
        title = f"{src.method.capitalize()} correlation of the measures"
        ax.set_title(title + (f" (calibrated, pi0={self.pi0:.3g})" if calibrated else ""))
        return ax


def _evaluations(data: Any) -> dict[Any, Evaluation]:
    if isinstance(data, ByResult):
        evs = {k: v for k, v in data.evaluations.items() if v is not None}
    elif isinstance(data, Mapping):
        evs = dict(data)
    elif isinstance(data, Sequence):
        evs = dict(enumerate(data))
    else:
        raise TypeError("measure_correlation takes a ByResult (evaluate_by), a mapping "
                        f"name -> Evaluation or a list of Evaluations; got {type(data).__name__}")
    bad = [k for k, v in evs.items() if not isinstance(v, Evaluation)]
    if bad:
        raise TypeError(f"not Evaluations: {bad}")
    if len(evs) < 3:
        raise ValueError(f"a correlation across evaluations needs at least 3; got {len(evs)}")
    return evs


def _values(evs: Mapping[Any, Evaluation], ids: list[str]) -> pd.DataFrame:
    import pandas as pd

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        warnings.simplefilter("ignore", MeasureCaveatWarning)
        rows = {k: ev.to_dict(measures=ids) for k, ev in evs.items()}
    return pd.DataFrame.from_dict(rows, orient="index")[ids]


def measure_correlation(data: Any, measures: Iterable[str] | None = None, *,
                        method: str = "spearman", pi0: float | None = None
                        ) -> MeasureCorrelation:
    """Rank correlations between measures across evaluations (Siblini et al., Fig. 7).

    Parameters
    ----------
    data : ByResult, mapping of name -> Evaluation, or list of Evaluations
        One evaluation per group, time period or model (at least 3).
    measures : ids or aliases, optional
        Default: every registered measure that is finite and not constant across the
        evaluations.
    method : {"spearman", "kendall", "pearson"}, default "spearman"
    pi0 : float in (0, 1), optional
        Also correlate the evaluations calibrated to this prevalence (the paper's
        calibrated measures): the result's ``calibrated``. A :class:`ByResult` made
        with ``pi0=`` uses its own calibrated evaluations when ``pi0`` is None.

    Examples
    --------
    >>> import numpy as np
    >>> import binmetrics as bm
    >>> rng = np.random.default_rng(0)
    >>> evs = {}
    >>> for i, prevalence in enumerate([0.05, 0.1, 0.2, 0.3, 0.4]):
    ...     y = rng.random(500) < prevalence
    ...     evs[i] = bm.evaluate(y, np.clip(0.3 * y + 0.7 * rng.random(500), 0, 1))
    >>> corr = bm.measure_correlation(evs, ["prevalence", "ppv", "tpr", "auc"], pi0=0.5)
    >>> round(float(corr.matrix.loc["prevalence", "ppv"]), 2)
    1.0
    """
    if method not in _METHODS:
        raise ValueError(f"method must be one of {_METHODS}, got {method!r}")
    evs = _evaluations(data)
    if measures is None:
        ids = [m.id for m in select_measures()]
        values = _values(evs, ids)
        finite = values.apply(lambda c: bool(np.isfinite(c.to_numpy(dtype=float)).all()))
        varying = values.nunique() > 1
        values = values.loc[:, finite & varying]
        ids = list(values.columns)
    else:
        ids = [m.id for m in select_measures(None, measures)]  # ids, aliases or a preset
        values = _values(evs, ids)
    calibrated = None
    cal_evs: dict[Any, Evaluation] | None = None
    if pi0 is not None:
        cal_evs = {k: ev.calibrated(pi0) for k, ev in evs.items()}
    elif isinstance(data, ByResult) and data.pi0 is not None:
        pi0 = data.pi0
        cal_evs = {k: v for k, v in data.calibrated_evaluations.items() if v is not None}
    if cal_evs is not None:
        calibrated = MeasureCorrelation(_values(cal_evs, ids), method, pi0=pi0)
    return MeasureCorrelation(values, method, calibrated, pi0)


# --- Siblini et al., Fig. 7: rank correlations within data sets, averaged over them -------
#: Siblini et al.'s ten measures of Fig. 7 (with ``pi0=(0.5, "1.01*pi")``): AUC-ROC, and
#: AUC-PR, AUC-PR gain and the best F1, raw and calibrated to each reference prevalence
FIG7_MEASURES = ("auc", "average_precision", "auprg", "best_f1")
FIG7_CALIBRATED = ("average_precision", "auprg", "best_f1")

_RELATIVE = re.compile(r"\s*([0-9]*\.?[0-9]+)\s*\*\s*pi\s*\Z")


class MeanMeasureCorrelation(MeasureCorrelation):
    """The result of :func:`mean_measure_correlation`: the correlation matrix of each
    data set (across its models) and their mean (Siblini et al., Fig. 7).

    Attributes
    ----------
    matrix : DataFrame, measures x measures: the mean over the data sets of each pair's
        correlation (data sets where it is undefined, e.g. a constant measure, left out).
    datasets : dict, data set -> :class:`MeasureCorrelation` of its models.
    values : DataFrame, the values, indexed by (data set, model).
    n_datasets : int, the data sets averaged.
    pi0 : tuple, the reference prevalences of the calibrated columns.
    """

    def __init__(self, datasets: dict[Any, MeasureCorrelation], method: str,
                 pi0: tuple[Any, ...]) -> None:
        import pandas as pd

        self.datasets, self.method = datasets, method
        self.pi0: Any = pi0  # the reference prevalences of the calibrated columns
        self.calibrated = None
        first = next(iter(datasets.values())).matrix
        stack = np.stack([c.matrix.reindex(index=first.index, columns=first.columns)
                          .to_numpy(dtype=float) for c in datasets.values()])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a pair undefined everywhere
            mean = np.nanmean(stack, axis=0)
        self.matrix = pd.DataFrame(mean, index=first.index, columns=first.columns)
        self.values = pd.concat({k: c.values for k, c in datasets.items()},
                                names=["dataset", "model"])
        self.n_datasets = len(datasets)

    def _title(self) -> str:
        return (f"MeanMeasureCorrelation({self.method}, mean over {self.n_datasets} data "
                f"sets, {self.matrix.shape[0]} measures)\n"
                f"{self.matrix.round(3).to_string()}")


def _pi0_column(value: Any) -> tuple[str, Any]:
    """(label, pi -> pi0) of one reference prevalence: a number, or ``"k*pi"``."""
    if isinstance(value, str):
        m = _RELATIVE.match(value)
        if m is None:
            raise ValueError(f"pi0 must be a number in (0, 1) or 'k*pi' (a multiple of each "
                             f"data set's prevalence, e.g. '1.01*pi'); got {value!r}")
        k = float(m.group(1))
        return f"{m.group(1)}pi", lambda pi: k * pi
    v = check_in_range(value, "pi0", 0.0, 1.0, low_open=True, high_open=True)
    return f"{v:g}", lambda pi: v


def mean_measure_correlation(
    datasets: Any,
    measures: Iterable[str] = FIG7_MEASURES,
    *,
    calibrated: Iterable[str] = FIG7_CALIBRATED,
    pi0: Iterable[float | str] = (0.5,),
    method: str = "spearman",
) -> MeanMeasureCorrelation:
    """Rank correlations between measures over the models of each data set, averaged
    over the data sets: Siblini et al.'s Figure 7.

    For each data set, every model is evaluated with each measure, raw and (for the ids
    in ``calibrated``) calibrated to each reference prevalence in ``pi0`` (the negatives
    reweighted, :meth:`Evaluation.calibrated <binmetrics.Evaluation.calibrated>`); the
    correlation of two measures is that of their values across the data set's models
    (Spearman's, as the paper), and each cell of the result is its mean over the data
    sets. With the defaults and ``pi0=(0.5, "1.01*pi")`` the matrix is the paper's
    10 x 10 one: AUC-ROC, and AUC-PR, AUC-PR gain and the best F1 over thresholds, each
    raw, calibrated to 0.5 and to 1.01 times the data set's prevalence (the paper's
    "pi0 ~ pi"; it used 10 pi for its four imbalanced data sets).

    Parameters
    ----------
    datasets : mapping or sequence of mappings model -> Evaluation
        One entry per data set (a mapping name -> models, or a list); each data set's
        models (at least 3) evaluated on its cases. Models may differ between data
        sets.
    measures : ids or aliases, default ``("auc", "average_precision", "auprg",
        "best_f1")``
    calibrated : ids or aliases, default ``("average_precision", "auprg", "best_f1")``
        The measures also computed calibrated, once per reference prevalence; their
        columns are named ``"<id>_c(pi0=0.5)"`` and ``"<id>_c(pi0=1.01pi)"``.
        Prevalence-independent measures (``Measure.prevalence_dependent``) gain
        nothing from calibration.
    pi0 : numbers in (0, 1) or strings ``"k*pi"``, default ``(0.5,)``
        The reference prevalences: fixed, or a multiple of each data set's prevalence.
    method : {"spearman", "kendall", "pearson"}, default "spearman"

    Returns
    -------
    MeanMeasureCorrelation
        ``matrix`` (the mean correlations; ``plot()`` draws it as a heatmap),
        ``datasets`` (each data set's :class:`MeasureCorrelation`), ``values``,
        ``to_frame()`` (the pairs in long form).

    Examples
    --------
    >>> import numpy as np
    >>> import binmetrics as bm
    >>> rng = np.random.default_rng(0)
    >>> datasets = []
    >>> for prevalence in (0.05, 0.2, 0.4):
    ...     y = rng.random(400) < prevalence
    ...     datasets.append({f"m{k}": bm.evaluate(y, k * y + rng.random(400))
    ...                      for k in (0.2, 0.4, 0.6, 0.8, 1.0)})
    >>> corr = bm.mean_measure_correlation(datasets, pi0=(0.5, "1.01*pi"))
    >>> corr.matrix.shape, corr.n_datasets
    ((10, 10), 3)
    >>> list(corr.matrix.columns[:5])
    ['auc', 'average_precision', 'auprg', 'best_f1', 'average_precision_c(pi0=0.5)']
    >>> float(corr.matrix.loc["auc", "average_precision"])  # better models, better AP
    1.0
    """
    if method not in _METHODS:
        raise ValueError(f"method must be one of {_METHODS}, got {method!r}")
    if isinstance(datasets, Mapping):
        named = dict(datasets)
    elif isinstance(datasets, Sequence) and not isinstance(datasets, str):
        named = dict(enumerate(datasets))
    else:
        raise TypeError("mean_measure_correlation takes a mapping or list of data sets, each "
                        f"a mapping model -> Evaluation; got {type(datasets).__name__}")
    if not named:
        raise ValueError("mean_measure_correlation: no data sets given")
    raw = [m.id for m in select_measures(None, list(measures))]
    cal = [m.id for m in select_measures(None, list(calibrated))]
    refs = [_pi0_column(v) for v in pi0]
    per: dict[Any, MeasureCorrelation] = {}
    for key, models in named.items():
        if not isinstance(models, Mapping):
            raise TypeError(f"data set {key!r}: expected a mapping model -> Evaluation, got "
                            f"{type(models).__name__}")
        evs = _evaluations(models)
        values = _values(evs, raw)
        for label, ref in refs:
            for k, ev in evs.items():
                target = ref(ev.table.prevalence)
                if not 0.0 < target < 1.0:
                    raise ValueError(f"data set {key!r}, model {k!r}: pi0 = {label} is "
                                     f"{target:g}, outside (0, 1)")
            cal_values = _values({k: ev.calibrated(ref(ev.table.prevalence))
                                  for k, ev in evs.items()}, cal)
            for mid in cal:
                values[f"{mid}_c(pi0={label})"] = cal_values[mid]
        per[key] = MeasureCorrelation(values, method)
    return MeanMeasureCorrelation(per, method, tuple(label for label, _ in refs))
