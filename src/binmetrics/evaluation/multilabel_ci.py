"""Bootstrap intervals of multilabel measures (a mixin of
:class:`~binmetrics.evaluation.multilabel.MultilabelEvaluation`): ``lev.ci``,
``lev.ci_table`` and ``lev.bootstrap``, by the row bootstrap of
:mod:`binmetrics.evaluation.multiclass_ci`.

A replicate redraws n rows (cases) with replacement, each with all its labels, so the
labels stay paired; there is no class to stratify by. Every label's binary problem is
then computed from the row multiplicities without re-sorting: its confusion at the
threshold (``W @ indicators`` for a whole block of replicates), its count table's
counts at each distinct score (the ranking kernels, or the replicate tables), the micro
average from the pooled table, and the "samples" average as the weighted mean of the
fixed per-case values. The replicates equal the measures of the resampled rows (the
tests recompute them with scikit-learn).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from binmetrics.evaluation.row_bootstrap import (
    ColumnEvaluator,
    MulticlassBootstrap,
    Request,
    RowSampler,
    average_classes,
    run_bootstrap,
)
from binmetrics.exceptions import UndefinedPolicy, undefined_policy
from binmetrics.inference.replicate_intervals import check_kind
from binmetrics.inference.resampling import BootstrapInterval
from binmetrics.measures import Measure, get_measure
from binmetrics.measures.registry import select_measures
from binmetrics.table.counts import Confusion, CountTable
from binmetrics.validation import check_random_state, check_resamples

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["MultilabelInferenceMethods"]

FloatArray = npt.NDArray[np.float64]
_ML_AVERAGES = ("macro", "weighted", "micro", "samples")


class _LabelEvaluator(ColumnEvaluator):
    def __init__(self, lev: Any, requests: list[Request]) -> None:
        y: npt.NDArray[np.bool_] = lev._y
        s: FloatArray = lev._s
        super().__init__(requests, s, y, lambda j: lev.evaluations[j].table, self._pooled)
        self._lev = lev
        pred = s >= lev.threshold
        self.cells = [(y & pred), (~y & pred), (y & ~pred), (~y & ~pred)]  # tp fp fn tn
        self._samples: dict[str, FloatArray] = {}

    def _pooled(self, m: Measure) -> CountTable:
        k = self.k
        w = None if self._lev.weight is None else np.repeat(self._lev.weight, k)
        return CountTable.from_validated(self.positive.ravel(), self.proba.ravel(), w)

    def _case_values(self, r: Request) -> FloatArray:
        """The measure of each case over its labels (the "samples" average's values)."""
        if r.key not in self._samples:
            y, s, th = self.positive, self.proba, self._lev.threshold
            with undefined_policy("ignore"), np.errstate(all="ignore"):
                if r.measure.family == "confusion":
                    c = Confusion(*(x.sum(axis=1).astype(np.float64) for x in self.cells))
                    v = np.asarray(r.measure.func(c, **r.params), dtype=np.float64)
                else:
                    from binmetrics.evaluation.binary import Evaluation

                    v = np.array([Evaluation(CountTable.from_validated(y[i], s[i], None),
                                             threshold=th, undefined="ignore").value(
                                                 r.measure, **r.params)
                                  for i in range(y.shape[0])])
            self._samples[r.key] = np.broadcast_to(v, (y.shape[0],))
        return self._samples[r.key]

    def prepare(self) -> None:
        super().prepare()
        for r in self.requests:
            if r.average == "samples":
                self._case_values(r)

    def evaluate(self, W: FloatArray) -> dict[str, FloatArray]:
        out: dict[str, FloatArray] = {}
        with undefined_policy("ignore"), np.errstate(all="ignore"):
            tp, fp, fn, tn = (W @ x.astype(np.float64) for x in self.cells)
            conf = Confusion(tp=tp, fp=fp, fn=fn, tn=tn)
            support = tp + fn
            per = self._ranking(W)
            for r in self.requests:
                m = r.measure
                if r.average == "samples":
                    v = self._case_values(r)
                    keep = ~np.isnan(v)
                    den = W[:, keep].sum(axis=1)
                    out[r.key] = np.where(den > 0, W[:, keep] @ v[keep] / den, np.nan)
                elif m.family == "confusion" and r.average == "micro":
                    c = Confusion(tp=tp.sum(axis=1), fp=fp.sum(axis=1), fn=fn.sum(axis=1),
                                  tn=tn.sum(axis=1))
                    out[r.key] = np.array(np.broadcast_to(
                        np.asarray(m.func(c, **r.params), dtype=np.float64), (W.shape[0],)))
                elif m.family == "confusion":
                    v = np.array(np.broadcast_to(np.asarray(m.func(conf, **r.params),
                                                            dtype=np.float64), tp.shape))
                    out[r.key] = average_classes(v, r.average, support)
                elif r.average == "micro":
                    out[r.key] = self._micro_values(W, r)
                else:
                    out[r.key] = average_classes(per[self._per_key(r)], r.average, support)
        return out


class MultilabelInferenceMethods:
    """``ci``, ``ci_table``, ``bootstrap`` and ``bootstrap_indices`` of a multilabel
    evaluation."""

    if TYPE_CHECKING:  # provided by MultilabelEvaluation
        _y: npt.NDArray[np.bool_]
        weight: FloatArray | None
        labels: list[Any]
        average: str
        undefined: UndefinedPolicy

        def value(self, measure: str | Measure, average: Any = None, **params: Any) -> float: ...

    def _ml_request(self, measure: str | Measure, average: str | None,
                    params: dict[str, Any]) -> Request:
        m = get_measure(measure)
        avg = self.average if average is None else average
        if avg not in _ML_AVERAGES:
            raise ValueError(f"average must be one of {', '.join(map(repr, _ML_AVERAGES))} "
                             f"or None; got {average!r}")
        return Request(m, avg, MappingProxyType(m.resolve_params(**params)))

    def bootstrap_indices(self, n_resamples: int = 2000, *,
                          random_state: Any = None) -> Iterator[npt.NDArray[np.intp]]:
        """The rows each bootstrap replicate draws (the draws of :meth:`bootstrap`,
        :meth:`ci` and :meth:`ci_table` with the same ``n_resamples`` and
        ``random_state``).

        Examples
        --------
        >>> import binmetrics as bm
        >>> lev = bm.evaluate_multilabel([[1, 0], [0, 1], [1, 1]], [[.9, .2], [.3, .7], [.8, .6]])
        >>> next(lev.bootstrap_indices(5, random_state=0)).shape
        (3,)
        """
        B = check_resamples(n_resamples)
        sampler = RowSampler(np.zeros(self._y.shape[0], dtype=np.intp), 1, False)
        yield from sampler.replicate_rows(check_random_state(random_state), B)

    def bootstrap(self, measures: Sequence[str | Measure | tuple[str | Measure, str]] | str,
                  *, average: str | None = None, n_resamples: int = 2000,
                  random_state: Any = None, progress: Any = None) -> MulticlassBootstrap:
        """Bootstrap replicates of measures (each with ``average``, or its own as a pair
        ``("f1", "micro")``), all on the same resampled rows; ``classes`` holds the
        labels.

        Examples
        --------
        >>> import binmetrics as bm
        >>> Y = [[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 1]]
        >>> S = [[.9, .2, .6], [.3, .7, .4], [.8, .6, .1], [.2, .4, .9], [.6, .3, .2],
        ...      [.4, .8, .7]]
        >>> res = bm.evaluate_multilabel(Y, S).bootstrap(["f1", ("auc", "micro")],
        ...                                                n_resamples=30, random_state=0)
        >>> res.measures
        ('f1 (macro)', 'auc (micro)')
        """
        if isinstance(measures, (str, Measure)):
            measures = [measures]
        reqs = []
        for item in measures:
            mm, avg = item if isinstance(item, tuple) else (item, average)
            reqs.append(self._ml_request(mm, avg, {}))
        reqs = list({r.key: r for r in reqs}.values())
        if not reqs:
            raise ValueError("no measures given")
        return self._ml_run(reqs, n_resamples, random_state, progress)

    def _ml_run(self, reqs: list[Request], n_resamples: int, random_state: Any,
                progress: Any) -> MulticlassBootstrap:
        estimate = {r.key: self.value(r.measure, average=r.average, **r.params) for r in reqs}
        sampler = RowSampler(np.zeros(self._y.shape[0], dtype=np.intp), 1, False)
        return run_bootstrap(_LabelEvaluator(self, reqs), sampler, self.weight, estimate,
                             self.labels, n_resamples, random_state, progress, self.undefined)

    def ci(self, measure: str | Measure, *, average: str | None = None, level: float = 0.95,
           n_resamples: int = 2000, kind: str = "percentile", random_state: Any = None,
           progress: Any = None, **params: Any) -> BootstrapInterval:
        """Bootstrap confidence interval of a multilabel measure: the rows (cases) are
        redrawn with all their labels; ``average`` as :meth:`MultilabelEvaluation.value` ("macro",
        "weighted", "micro", "samples"); ``kind`` "percentile", "basic" or "bca".

        Examples
        --------
        >>> import binmetrics as bm
        >>> Y = [[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 1]]
        >>> S = [[.9, .2, .6], [.3, .7, .4], [.8, .6, .1], [.2, .4, .9], [.6, .3, .2],
        ...      [.4, .8, .7]]
        >>> ci = bm.evaluate_multilabel(Y, S).ci("f1", average="micro", n_resamples=200,
        ...                                      random_state=0)
        >>> ci.method, bool(ci.low <= ci.estimate <= ci.high)
        ('bootstrap-percentile', True)
        """
        check_kind(kind)
        r = self._ml_request(measure, average, params)
        res = self._ml_run([r], n_resamples, random_state, progress)
        res.report_undefined(res.measures)
        got = res.ci(r.key, kind=kind, level=level)
        assert isinstance(got, BootstrapInterval)
        return got

    def ci_table(self, measures: Any = None, *, average: str | None = None,
                 level: float = 0.95, n_resamples: int = 2000, kind: str = "percentile",
                 random_state: Any = None, progress: Any = None) -> pd.DataFrame:
        """Intervals of many measures (default: the "summary" preset) on one set of
        replicates; columns as :meth:`MulticlassEvaluation.ci_table`."""
        check_kind(kind)
        chosen = select_measures(None, "summary" if measures is None else measures)
        res = self.bootstrap([(m, average or self.average) for m in chosen],
                             n_resamples=n_resamples, random_state=random_state,
                             progress=progress)
        res.report_undefined(res.measures)
        return res.to_frame(kind=kind, level=level)
