"""The uncertainty methods of :class:`~binmetrics.Evaluation` (a mixin, so that
``evaluation/binary.py`` stays small): intervals (binomial, DeLong, the count-table
bootstrap), their table, and the label-permutation test, all from the evaluation's
count table through :mod:`binmetrics.inference`."""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from binmetrics.exceptions import (
    BinmetricsWarning,
    UndefinedPolicy,
    caveats_once,
    report_caveat,
    undefined_policy,
)
from binmetrics.measures import Measure, get_measure
from binmetrics.measures.registry import select_measures
from binmetrics.progress import as_callback
from binmetrics.table.counts import Confusion, CountTable
from binmetrics.validation import check_alternative

if TYPE_CHECKING:
    import pandas as pd

    from binmetrics.inference.intervals import Interval
    from binmetrics.inference.resampling import PermutationResult

__all__ = ["InferenceMethods"]


class InferenceMethods:
    """``ci``, ``ci_table`` and ``permutation_test`` of an evaluation."""

    table: CountTable
    threshold: float
    undefined: UndefinedPolicy

    if TYPE_CHECKING:  # provided by Evaluation
        @property
        def pi0(self) -> float | None: ...

        @property
        def confusion(self) -> Confusion: ...

        @property
        def cut(self) -> float: ...

        def value(self, measure: str | Measure, **params: Any) -> float: ...

        def _values(self, measures: list[Measure], asked: Iterable[str]) -> dict[str, float]: ...

    def ci(
        self,
        measure: str | Measure,
        *,
        method: str = "auto",
        level: float = 0.95,
        n_resamples: int = 2000,
        kind: str = "percentile",
        stratified: bool = True,
        random_state: Any = None,
        progress: Any = "interactive",
        clusters: Any = None,
        **params: Any,
    ) -> Interval:
        """Confidence interval of one measure.

        Parameters
        ----------
        measure : any id or alias of the registry.
        method : str, default "auto"
            One of :func:`binmetrics.inference.intervals.ci_methods` of the measure: for a
            proportion "clopper-pearson" (exact, Berrar Def. 37), "wald" (Def. 36),
            "wilson", "agresti-coull", "jeffreys"; for the AUC "delong" (as pROC);
            "bootstrap" for any measure. "auto" takes the first: the exact interval
            for proportions, DeLong for the AUC, the bootstrap otherwise. Asking
            for a method that does not apply is an error that lists those that do.
        level : confidence level in (0, 1), default 0.95.
        n_resamples, kind, stratified, random_state :
            For the bootstrap: replicates (without re-sorting, see
            :func:`binmetrics.inference.resampling.bootstrap`), "percentile", "basic" or "bca",
            per-class resampling, and the seed (same seed, same interval).
        progress : default "interactive"
            A bar on a terminal or in a notebook while the replicates are drawn (when
            that lasts more than a couple of seconds), nothing elsewhere; True, False
            or a ``callable(done, total)`` (see :mod:`binmetrics.progress`).
        clusters : None, True or False, default None
            Resample clusters (patients), not cases: the evaluation must have been built
            with them, ``bm.evaluate(y, p, clusters=df["patient"])`` (it keeps the
            clusters' counts, not the rows, so an array here is an error). None uses
            them when the evaluation has them, False ignores them. With clusters every
            measure gets the cluster bootstrap (unstratified; "percentile" or "basic")
            and the AUC Obuchowski's interval ("obuchowski", asked as "auto" or
            "delong"); see :mod:`binmetrics.evaluation.clustered_ci`.
        **params : the measure's own parameters (``beta=2``...).

        Returns
        -------
        Interval
            ``estimate``, ``low``, ``high``, ``level``, ``method``; unpacks as
            ``low, high``.

        Examples
        --------
        >>> import binmetrics as bm
        >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
        ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1], threshold=0.55)
        >>> low, high = ev.ci("sensitivity")  # Clopper-Pearson, Berrar's [0.1466, 0.9473]
        >>> round(low, 4), round(high, 4)
        (0.1466, 0.9473)
        >>> ci = ev.ci("informedness", n_resamples=500, random_state=0)
        >>> ci.method, bool(ci.low < ev["informedness"] < ci.high)
        ('bootstrap-percentile', True)

        Two cases per patient, resampled together:

        >>> cev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
        ...                   [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1],
        ...                   clusters=[1, 1, 2, 2, 3, 3, 4, 4, 5, 5])
        >>> cev.ci("auc").method, cev.ci("tpr", n_resamples=200, random_state=0).method
        ('obuchowski', 'bootstrap-percentile')
        """
        from binmetrics.evaluation.clustered_ci import (
            clustered_methods,
            obuchowski_interval,
            resolve_clusters,
        )
        from binmetrics.inference.intervals import ci_methods, measure_ci, method_name

        m = get_measure(measure)
        ct = resolve_clusters(self, clusters)
        methods = self._ci_methods(m, ci_methods) if ct is None else clustered_methods(m, ct)
        chosen = methods[0] if method == "auto" else method_name(method)
        if ct is not None and chosen == "delong" and "obuchowski" in methods:
            chosen = "obuchowski"  # DeLong's variance of clustered cases
        if chosen not in methods:
            raise ValueError(f"method {method!r} does not apply to {m.id}"
                             f"{' (calibrated)' if self.pi0 is not None else ''}; methods "
                             f"that apply to it: {', '.join(methods)}")
        m.resolve_params(**params)  # an unknown parameter is an error
        if chosen != "bootstrap":  # the closed forms are of measures without parameters
            if (kind, n_resamples, stratified, random_state) != ("percentile", 2000, True, None):
                warnings.warn(f"kind, n_resamples, stratified and random_state apply to the "
                              f"bootstrap; {m.id} gets a {chosen} interval",
                              BinmetricsWarning, stacklevel=2)
            if chosen == "obuchowski":
                assert ct is not None
                with undefined_policy(self.undefined):
                    return obuchowski_interval(ct, level)
            return measure_ci(self, m, method=chosen, level=level)
        return self._bootstrap([m], {m.id: params}, n_resamples, stratified,
                               random_state, progress, ct).ci(m.id, kind=kind, level=level)

    def _check_resampled(self, measures: Iterable[Measure]) -> None:
        """Resampled tables of binned scores would give probabilistic measures of the bin
        representatives: refuse rather than approximate."""
        if self.table.binning is not None:
            bad = [m.id for m in measures if m.family == "probabilistic"]
            if bad:
                raise ValueError(f"{', '.join(bad)}: resampling binned scores "
                                 f"({self.table.binning.describe()}) would use the bin "
                                 "representatives; leave the probabilistic measures out "
                                 "or evaluate the exact scores")

    def _left_unresampled(self, boot: list[Measure]) -> set[str]:
        """In a table of many measures, those a bootstrap of binned scores cannot give
        (the probabilistic ones: :meth:`_check_resampled`): left without an interval,
        named once in one caveat with the reason, instead of failing the whole table."""
        if self.table.binning is None:
            return set()
        left = [m.id for m in boot if m.family == "probabilistic"]
        reason = (f"no interval: resampling binned scores ({self.table.binning.describe()}) "
                  "would use the bin representatives, not the raw scores; their values are "
                  "exact (the engine summed the raw scores), evaluate the exact scores for "
                  "their intervals")
        with caveats_once():  # one warning naming them all
            for mid in left:
                report_caveat(mid, reason, cause="binned-interval")
        return set(left)

    def _ci_methods(self, m: Measure, ci_methods: Any) -> tuple[str, ...]:
        # a calibrated table's weights are not case counts, so its closed forms do not
        # apply; its measures are resampled on the real cases (see _on_calibrated)
        return ("bootstrap",) if self.pi0 is not None else ci_methods(m)

    def _on_calibrated(self, m: Measure, params: dict[str, Any]) -> Any:
        """The measure of a table's calibrated version: resampling a calibrated evaluation
        draws the real cases (the uncalibrated table) and calibrates each replicate."""
        pi0, th, p = self.pi0, self.cut, m.resolve_params(**params)

        def statistic(table: CountTable) -> float:
            if table.P == 0 or table.N == 0:
                return float("nan")
            cal = table.calibrated(pi0)  # type: ignore[arg-type]
            return float(m.func(cal.confusion(th) if m.family == "confusion" else cal, **p))

        statistic.__name__ = m.id
        return statistic

    def _bootstrap(self, measures: list[Measure], params: dict[str, dict[str, Any]],
                   n_resamples: int, stratified: bool, random_state: Any,
                   progress: Any = None, clustered: Any = None) -> Any:
        from binmetrics.inference.resampling import bootstrap

        self._check_resampled(measures)
        table: CountTable | None = self.table
        targets: list[Any] = list(measures)
        if self.pi0 is not None:
            table = self.table.uncalibrated
            targets = [self._on_calibrated(m, params.get(m.id, {})) for m in measures]
            params = {}
        assert table is not None
        if clustered is not None:  # its table is the cases' (uncalibrated) one
            with undefined_policy(self.undefined):
                return clustered.bootstrap(targets, threshold=self.cut, params=params,
                                           n_resamples=n_resamples,
                                           random_state=random_state)
        with undefined_policy(self.undefined):
            return bootstrap(table, targets, n_resamples=n_resamples,
                             threshold=self.cut, stratified=stratified,
                             random_state=random_state, params=params,
                             progress=as_callback(progress, "bootstrap"))

    def ci_table(
        self,
        measures: Iterable[str | Measure] | None = None,
        *,
        method: str | Mapping[str, str] = "auto",
        level: float = 0.95,
        n_resamples: int = 2000,
        kind: str = "percentile",
        stratified: bool = True,
        random_state: Any = None,
        progress: Any = "interactive",
        clusters: Any = None,
    ) -> pd.DataFrame:
        """Intervals of many measures as a DataFrame (id, value, low, high, method, level).

        ``method="auto"`` picks per measure the exact interval for proportions,
        DeLong for the AUC and the bootstrap for the rest; a mapping gives a method
        per measure id ("auto" for those it leaves out). All bootstrapped measures
        share one set of replicates, drawn once: the same seed gives each measure the
        same interval as :meth:`ci` gives it, whatever other measures are asked.
        Default: every registered measure (those that are NaN are listed with NaN
        bounds). ``progress`` is as in :meth:`ci` (default: a bar on a terminal or in a
        notebook, nothing elsewhere); ``clusters`` as in :meth:`ci` (with clusters every
        bootstrapped measure shares one set of cluster replicates).

        Examples
        --------
        >>> import binmetrics as bm
        >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
        ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1], threshold=0.55)
        >>> ev.ci_table(["sensitivity", "auc", "informedness"], n_resamples=200,
        ...             random_state=0).method.tolist()
        ['clopper-pearson', 'delong', 'bootstrap-percentile']
        """
        import pandas as pd

        from binmetrics.evaluation.clustered_ci import (
            clustered_methods,
            obuchowski_interval,
            resolve_clusters,
        )
        from binmetrics.inference.intervals import ci_methods, measure_ci, method_name

        ct = resolve_clusters(self, clusters)
        chosen = select_measures(None, measures)
        values = self._values(chosen, () if measures is None else [m.id for m in chosen])
        if isinstance(method, Mapping):  # keys are ids or aliases of the chosen measures
            asked = {get_measure(k).id: v for k, v in method.items()}
            stray = set(asked) - {m.id for m in chosen}
            if stray:
                raise ValueError(f"method names measures not in the table: {sorted(stray)}")
        else:
            asked = {m.id: method for m in chosen}
        plan = {m.id: method_name(asked.get(m.id, "auto")) for m in chosen}
        if ct is None:
            plan = {k: (self._ci_methods(get_measure(k), ci_methods)[0] if v == "auto"
                        else v) for k, v in plan.items()}
        else:  # clustered: Obuchowski's for the AUC's DeLong, the cluster bootstrap else
            for k, v in plan.items():
                ok = clustered_methods(get_measure(k), ct)
                v = "obuchowski" if v == "delong" and "obuchowski" in ok else v
                if v not in ("auto", *ok):
                    raise ValueError(f"method {v!r} does not apply to {k} on clustered "
                                     f"cases; methods that apply: {', '.join(ok)}")
                plan[k] = ok[0] if v == "auto" else v
        if self.pi0 is not None and set(plan.values()) != {"bootstrap"}:
            raise ValueError("calibrated measures have bootstrap intervals only")
        boot = [m for m in chosen if plan[m.id] == "bootstrap" and not np.isnan(values[m.id])]
        left = self._left_unresampled(boot)
        boot = [m for m in boot if m.id not in left]
        result = (self._bootstrap(boot, {}, n_resamples, stratified, random_state, progress,
                                  ct) if boot else None)
        rows = []
        for m in chosen:
            low = high = float("nan")
            if m.id in left:
                rows.append({"id": m.id, "value": values[m.id], "low": low, "high": high,
                             "method": "none", "level": level})
                continue
            if not np.isnan(values[m.id]):
                if plan[m.id] == "bootstrap":
                    assert result is not None  # every defined bootstrapped measure is in it
                    low, high = result.ci(m.id, kind=kind, level=level)
                elif plan[m.id] == "obuchowski":
                    assert ct is not None
                    with undefined_policy(self.undefined):
                        low, high = obuchowski_interval(ct, level)
                else:
                    low, high = measure_ci(self, m, method=plan[m.id], level=level)
            name = f"bootstrap-{kind}" if plan[m.id] == "bootstrap" else plan[m.id]
            rows.append({"id": m.id, "value": values[m.id], "low": low, "high": high,
                         "method": name, "level": level})
        return pd.DataFrame(rows)

    def permutation_test(
        self,
        measure: str | Measure,
        *,
        n_resamples: int = 10_000,
        alternative: str = "two-sided",
        random_state: Any = None,
        plus_one: bool = True,
        progress: Any = None,
        **params: Any,
    ) -> PermutationResult:
        """Label-permutation test of a measure on this evaluation set (no re-sort).

        ``alternative`` is two-sided by default; "greater" tests "better than chance"
        for a measure where higher is better, "less" for a loss. See
        :func:`binmetrics.inference.resampling.permutation_test`; Berrar's section 5.1 test
        that retrains on permuted training labels is
        :func:`binmetrics.refit_permutation_test`.

        Examples
        --------
        >>> import binmetrics as bm
        >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
        ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
        >>> res = ev.permutation_test("auc", n_resamples=2000, alternative="greater",
        ...                           random_state=0)
        >>> bool(0.0 < res.pvalue < 0.1)
        True
        """
        from binmetrics.inference.resampling import permutation_test

        m = get_measure(measure)
        self._check_resampled([m])
        alt = check_alternative(alternative)
        table, target, p = self.table, m, m.resolve_params(**params)
        if self.table.uncalibrated is not None:  # permute the real cases, calibrate each
            table, target, p = self.table.uncalibrated, self._on_calibrated(m, params), {}
        with undefined_policy(self.undefined):
            return permutation_test(table, target, n_resamples=n_resamples,
                                    threshold=self.cut, alternative=alt,
                                    random_state=random_state, plus_one=plus_one,
                                    params=p or None,
                                    progress=as_callback(progress, "permutations"))

