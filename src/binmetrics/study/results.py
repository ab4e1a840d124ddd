"""The results of a benchmark study and the paper's analyses of them: :class:`Study`.

:class:`Study` holds the tidy table of every (data set, balance, class setting, model,
validation, measure) value that :func:`~binmetrics.study.runner.benchmark` computed,
with the failures, undefined values, warnings and design of the run, and runs the
multi-level comparison paper's analyses on it: the measures comparison (section 2.1,
:meth:`Study.srd_measures`), the models comparison (section 2.2,
:meth:`Study.srd_models`), the factorial ANOVA of eq. 1 (:meth:`Study.anova`) and
SRD-COVAT (:meth:`Study.covat`); and, beside them, Demšar's (2006) rank comparison of
the models (:meth:`Study.rank_comparison`: Friedman, post-hoc tests, the
critical-difference diagram) and the Bayesian signed-rank test of two models
(:meth:`Study.bayesian_signed_rank`).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from binmetrics.exceptions import BinmetricsWarning, UndefinedMeasureWarning
from binmetrics.formatting import Tabular
from binmetrics.measures.registry import select_measures
from binmetrics.study._matrices import (
    _check_by,
    _labels,
    _prepare_measures,
    _prepare_models,
    _reorder,
    _warn_dropped,
)
from binmetrics.study._plan import _class_counts, _Setting
from binmetrics.study._tasks import _Result
from binmetrics.study.folds import FOLD_COLUMNS, StudyFolds
from binmetrics.study.srd_analyses import TEST_SUFFIX, StudySRD
from binmetrics.validation import NanPolicy

if TYPE_CHECKING:
    from binmetrics.comparison.bayesian import BayesianSignedRank
    from binmetrics.comparison.factorial_anova import AnovaResult
    from binmetrics.comparison.ranks import RankComparison
    from binmetrics.comparison.srd_covat import COVATResult

__all__ = ["Study"]

#: The tidy table's columns; the first five identify one evaluation.
TABLE_COLUMNS = ("dataset", "balance", "classes", "model", "validation", "measure", "value")
_IDS = ("dataset", "balance", "classes", "model", "validation")


class Study(StudyFolds, Tabular):
    """The results of :func:`~binmetrics.study.runner.benchmark` and the paper's
    analyses of them.

    Attributes
    ----------
    table : pandas.DataFrame
        Tidy results, one row per value: ``dataset``, ``balance`` ("imbalanced" /
        "balanced"), ``classes`` ("multiclass" / "2-class"), ``model``,
        ``validation`` ("cv" / "test"), ``measure`` (registry id), ``value`` (NaN
        where undefined, see :attr:`undefined`). A model that failed in a
        validation has no rows for it (see :attr:`failures`).
    failures : pandas.DataFrame
        dataset, balance, classes, model, stage ("setup", "cv", "test", "evaluate
        cv", "evaluate test"; "worker": the task was lost because its run broke off,
        e.g. a parallel worker process died), error.
    undefined : pandas.DataFrame
        The NaN values and why: dataset, balance, classes, model, validation,
        measure, reason.
    warnings : pandas.DataFrame
        Other warnings raised while fitting (e.g. convergence), once per task:
        dataset, balance, classes, model, category, message.
    design : pandas.DataFrame
        The settings run: dataset, balance, classes, labels, positive (the positive
        class of a 2-class setting), n_train, n_test, train_counts and test_counts
        (the paper's Table 1), train_index and test_index (the rows of the data set
        used), cv_seed (the ``random_state`` of the setting's
        :class:`~sklearn.model_selection.StratifiedKFold`, shuffled).
    skipped : pandas.DataFrame
        Settings not run and why (the multiclass setting of a 2-class data set).
    folds : pandas.DataFrame
        The cross-validation's folds, each evaluated on its own out-of-fold predictions
        (the model of that fold on that fold's cases): dataset, balance, classes,
        model, fold (0 to cv - 1, the same folds for every model of a setting),
        n_train, n_test (the fold's training and test sizes), measure, value, reason
        (why a value is NaN, e.g. a fold holding one class; "" where defined). Empty
        when the study ran without cross-validation. What :meth:`correlated_t_test`
        reads.
    models, datasets, measures : list of str
    config : dict
        The arguments of :func:`~binmetrics.study.runner.benchmark`.
    """

    def __init__(self, table: pd.DataFrame, *, failures: pd.DataFrame,
                 undefined: pd.DataFrame, warnings: pd.DataFrame, design: pd.DataFrame,
                 skipped: pd.DataFrame, models: list[str], measures: list[str],
                 config: dict[str, Any], folds: pd.DataFrame | None = None) -> None:
        self.table = table
        self.folds = pd.DataFrame(columns=list(FOLD_COLUMNS)) if folds is None else folds
        self.failures = failures
        self.undefined = undefined
        self.warnings = warnings
        self.design = design
        self.skipped = skipped
        self.models = models
        self.datasets = list(dict.fromkeys(design["dataset"])) if len(design) else []
        self.measures = measures
        self.config = config

    @classmethod
    def _collect(cls, settings: list[_Setting], names: list[str], results: list[_Result],
                 skipped: list[dict[str, Any]], ids: list[str],
                 config: dict[str, Any]) -> Study:
        rows: list[tuple[Any, ...]] = []
        fails: list[tuple[Any, ...]] = []
        undef: list[tuple[Any, ...]] = []
        warns: list[tuple[Any, ...]] = []
        folds: list[tuple[Any, ...]] = []
        it = iter(results)
        for s in settings:
            key = (s.dataset, s.balance, s.classes)
            for name in names:
                r = next(it)
                rows.extend((*key, name, v, m, x) for v, m, x in r.rows)
                fails.extend((*key, name, st, e) for st, e in r.failures)
                undef.extend((*key, name, v, m, why) for v, m, why in r.undefined)
                warns.extend((*key, name, c, msg) for c, msg in r.warnings)
                folds.extend((*key, name, *f) for f in r.folds)
        table = pd.DataFrame(rows, columns=list(TABLE_COLUMNS))
        table["value"] = table["value"].astype(float)
        design = pd.DataFrame([{
            "dataset": s.dataset, "balance": s.balance, "classes": s.classes,
            "labels": list(s.labels), "positive": s.labels[-1] if len(s.labels) == 2 else None,
            "n_train": int(s.y_train.size),
            "n_test": 0 if s.y_test is None else int(s.y_test.size),
            "train_counts": _class_counts(s.y_train, sorted(s.labels)),
            "test_counts": _class_counts(s.y_test, sorted(s.labels)),
            "train_index": s.train_index, "test_index": s.test_index,
            "cv_seed": s.cv_seed} for s in settings])
        return cls(
            table,
            failures=pd.DataFrame(fails, columns=["dataset", "balance", "classes", "model",
                                                  "stage", "error"]),
            undefined=pd.DataFrame(undef, columns=[*_IDS, "measure", "reason"]),
            warnings=pd.DataFrame(warns, columns=["dataset", "balance", "classes", "model",
                                                  "category", "message"]),
            design=design,
            skipped=pd.DataFrame(skipped, columns=["dataset", "classes", "reason"]),
            models=names, measures=ids, config=config,
            folds=pd.DataFrame(folds, columns=list(FOLD_COLUMNS)).astype(
                {"fold": int, "n_train": int, "n_test": int, "value": float}))

    def _report(self) -> None:
        """One warning for the failures and one for the undefined values (not one each)."""
        if len(self.failures):
            lost = self.failures[self.failures["stage"] == "worker"]
            head = ""
            if len(lost):
                head = (f"{len(lost)} of {len(self.design) * len(self.models)} task(s) "
                        f"were lost: their run broke off ({lost['error'].iloc[0]}, e.g. a "
                        "parallel worker died); they are in study.failures with stage "
                        "'worker', and the results of the tasks that finished are kept. ")
            others = self.failures[self.failures["stage"] != "worker"]
            tail = ""
            if len(others):
                per = others.groupby("model", sort=False).size()
                first = others.iloc[0]
                tail = (f"{len(others)} model run(s) failed and were left out "
                        f"({', '.join(f'{m}: {k}' for m, k in per.items())}); first: "
                        f"{first['model']} on {first['dataset']} ({first['balance']}, "
                        f"{first['classes']}, {first['stage']}): {first['error']}. The other "
                        "results are kept; see study.failures")
            warnings.warn(f"benchmark: {head}{tail}".rstrip(), BinmetricsWarning, stacklevel=3)
        if len(self.undefined):
            reasons = self.undefined.groupby("reason", sort=False)
            ids = tuple(dict.fromkeys(self.undefined["measure"]))
            n_eval = len(self.undefined.drop_duplicates(list(_IDS)))
            text = "; ".join(f"{why} ({', '.join(dict.fromkeys(g['measure']))})"
                             for why, g in reasons)
            warnings.warn(UndefinedMeasureWarning(
                f"benchmark: {len(self.undefined)} values in {n_eval} evaluation(s) are NaN: "
                f"{text}; see study.undefined", ids, "see study.undefined"),
                stacklevel=3)

    def to_frame(self) -> pd.DataFrame:
        """A copy of :attr:`table`, the tidy long table (one row per value)."""
        return self.table.copy()

    def _title(self) -> str:
        return (f"Study(datasets={len(self.datasets)}, settings={len(self.design)}, "
                f"models={len(self.models)}, measures={len(self.measures)}, "
                f"rows={len(self.table)}, failures={len(self.failures)}, "
                f"undefined={len(self.undefined)}): mean value per model")

    def _shown(self) -> pd.DataFrame:
        """Each model's mean value of the main measures (those of a binary summary that
        the study holds; else its first eight) over every evaluation."""
        from binmetrics.evaluation.summary import SUMMARY_MEASURES

        main = [m for m in SUMMARY_MEASURES if m in self.measures] or list(self.measures)[:8]
        rows = self.table[self.table["measure"].isin(main)]
        wide = rows.pivot_table(index="model", columns="measure", values="value",
                                aggfunc="mean", sort=False)
        return wide[[m for m in main if m in wide.columns]].reset_index().rename_axis(
            columns=None)

    # --- views ------------------------------------------------------------------------
    def wide(self, index: Sequence[str] = _IDS, columns: str | Sequence[str] = "measure",
             ) -> pd.DataFrame:
        """:attr:`table` pivoted: by default one row per evaluation, one column per measure.

        Examples
        --------
        >>> import warnings
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from binmetrics.study import benchmark
        >>> X, y = load_iris(return_X_y=True)
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     study = benchmark({"NaiB": GaussianNB()}, {"iris": (X, y)}, classes="2-class",
        ...                       balance="imbalanced", measures=["accuracy", "tpr"])
        >>> wide = study.wide()
        >>> wide.index.names
        FrozenList(['dataset', 'balance', 'classes', 'model', 'validation'])
        >>> wide.columns.tolist(), wide["accuracy"].tolist()  # setosa vs virginica
        (['accuracy', 'tpr'], [1.0, 1.0])
        """
        idx = [index] if isinstance(index, str) else list(index)
        cols = [columns] if isinstance(columns, str) else list(columns)
        bad = [c for c in (*idx, *cols) if c not in TABLE_COLUMNS[:-1]]
        if bad:
            raise ValueError(f"wide: unknown columns {bad}; use {list(TABLE_COLUMNS[:-1])}")
        order = {c: list(dict.fromkeys(self.table[c])) for c in (*idx, *cols)}
        out = self.table.pivot_table(index=idx, columns=cols, values="value",
                                     aggfunc="first", dropna=False, sort=False)
        out = out.dropna(how="all")
        return _reorder(out, order, idx, cols)

    def _groups(self, by: Sequence[str], **where: Any) -> Iterator[tuple[tuple[Any, ...],
                                                                        pd.DataFrame]]:
        t = self.table
        for col, val in where.items():
            if val is not None:
                vals = [val] if isinstance(val, str) else list(val)
                t = t[t[col].isin(vals)]
        if not by:
            yield (), t
            return
        for key, g in t.groupby(list(by), sort=False):
            yield (key if isinstance(key, tuple) else (key,)), g

    # --- the measures comparison (section 2.1) ----------------------------------------
    def _chosen(self, measures: str | Sequence[str] | None) -> list[str]:
        """The study's measure ids that ``measures`` names (all when None)."""
        if measures is None:
            return list(self.measures)
        ids = [m.id for m in select_measures(None, measures)]
        missing = [i for i in ids if i not in self.measures]
        if missing:
            raise ValueError(f"the study did not compute {', '.join(missing)}; run "
                             f"benchmark(..., measures={measures!r})")
        return ids

    def measures_matrix(self, *, by: Sequence[str] = ("balance", "classes"),
                        orient: bool = True, clean: bool = True, common: bool = True,
                        measures: str | Sequence[str] | None = None,
                        **where: Any) -> dict[tuple[Any, ...], pd.DataFrame]:
        """The SRD input matrices of the measures comparison, per ``by`` group.

        Rows: model × validation × data set (the id columns not in ``by``, labels
        joined with " | "); columns: measures. With ``orient``, lower-is-better
        measures are negated. With ``clean``, direction-0 measures (prevalence),
        measures with a NaN or infinite value and constant measures are dropped
        (``matrix.attrs["dropped"]`` lists them with the reason); a row undefined for
        most measures (e.g. a test part holding one class) is dropped instead. With
        ``common`` (default) a measure dropped from one group is dropped from all,
        so that every group compares the same measures (and the ANOVA has every
        cell). ``measures`` keeps some of the study's measures (ids, aliases or a
        preset such as "multilevel28"). ``where`` filters the table first, e.g.
        ``validation="cv"``.

        Examples
        --------
        >>> from binmetrics.study import example_study
        >>> study = example_study()  # three models on a 3-class toy data set
        >>> mats = study.measures_matrix()  # one per balance x class setting
        >>> list(mats)  # doctest: +NORMALIZE_WHITESPACE
        [('imbalanced', 'multiclass'), ('balanced', 'multiclass'),
         ('imbalanced', '2-class'), ('balanced', '2-class')]
        >>> m = mats["balanced", "2-class"]
        >>> m.shape, m.index[:2].tolist()  # model x validation x data set rows
        ((6, 8), ['toy | NaiB | cv', 'toy | NaiB | test'])
        >>> m.attrs["negated"]  # lower-is-better measures, negated by orient=True
        ['brier', 'log_loss']
        """
        by = _check_by(by, "measure")
        wanted = self._chosen(measures)
        out = {}
        for key, g in self._groups(by, **where):
            rows = [c for c in _IDS if c not in by]
            m = g.pivot_table(index=rows, columns="measure", values="value",
                              aggfunc="first", dropna=False, sort=False)
            m = m.dropna(how="all").reindex(columns=[i for i in wanted if i in m.columns])
            m.index = _labels(m.index)
            m.columns.name = "measure"
            out[key] = _prepare_measures(m, orient=orient, clean=clean)
        if common and clean and len(out) > 1:
            shared = [c for c in wanted if all(c in m.columns for m in out.values())]
            for key, m in out.items():
                extra = [c for c in m.columns if c not in shared]
                if extra:
                    attrs = dict(m.attrs)
                    for c in extra:
                        attrs["dropped"][c] = "dropped from another group (common=True)"
                    attrs["negated"] = [c for c in attrs["negated"] if c in shared]
                    out[key] = m[[c for c in m.columns if c in shared]].copy()
                    out[key].attrs = attrs
        return out

    def srd_measures(self, *, by: Sequence[str] = ("balance", "classes"),
                     pretreat: str = "unit_length", orient: bool = True,
                     reference: str = "mean", cv: str | None = "kfold", k: int = 5,
                     repeats: int = 10, random_state: int | None = 0, common: bool = True,
                     measures: str | Sequence[str] | None = None,
                     **where: Any) -> StudySRD:
        """The paper's comparison of the measures (section 2.1, Figures 3 and 5).

        Per ``by`` group (default: each balance × class setting, the data sets
        merged): an SRD of the matrix with one row per model × validation × data set
        and one column per measure, ``pretreat`` per column (unit length in the
        paper), the row ``reference`` ("mean") as the consensus, cross-validated
        with ``cv``/``k``/``repeats`` (the paper: Monte Carlo five-fold in ten
        iterations).

        ``orient=True`` (default) negates the lower-is-better measures (direction
        -1 in the registry: error rate, Brier score, log loss...) before the mean
        reference is fused, so that every column grows with model quality. Without
        it a loss would be ranked reversed against the consensus and look like the
        worst measure for that reason alone. The paper does not say how it handled
        them; this is our reading. Measures without a direction (prevalence),
        measures that are NaN or infinite in some row (e.g. DOR with a zero cell)
        and constant measures (all models tie) are dropped, named in one warning
        and in :attr:`StudySRD.dropped`; with ``common`` (default) a measure dropped
        from one group is dropped from every group (see :meth:`measures_matrix`).
        ``cv=None`` skips the cross-validation. Groups too small for an SRD or its
        cross-validation are left out with one warning naming them, as in
        :meth:`srd_models`. ``measures`` compares some of the study's measures
        (e.g. the paper's own set, ``measures="multilevel28"``).

        Returns
        -------
        StudySRD
            per group the matrix, the :class:`~binmetrics.comparison.srd_ranking.SRDResult` and its
            cross-validation; ``.long()`` is the tidy table (by columns, measure,
            fold, srd_pct) that :meth:`anova` analyses.

        Examples
        --------
        >>> from binmetrics.study import example_study
        >>> study = example_study()  # three models on a 3-class toy data set
        >>> res = study.srd_measures(repeats=2)
        >>> res  # doctest: +ELLIPSIS
        StudySRD(kind='measures', by=('balance', 'classes'), groups=4)
        balance    classes    measure           srd srd_pct
        ...
        >>> top = res.summary().query("balance == 'balanced' and classes == '2-class'")
        >>> print(top[["measure", "srd_pct"]].head(3).round(1).to_string(index=False))
         measure  srd_pct
             auc     11.1
             mcc     22.2
        log_loss     22.2
        >>> res.long().columns.tolist()  # the cross-validated SRD%, for anova()
        ['balance', 'classes', 'fold', 'measure', 'srd_pct']
        """
        mats = self.measures_matrix(by=by, orient=orient, common=common, measures=measures,
                                    **where)
        return StudySRD._fit("measures", tuple(by), mats, reference=reference,
                             pretreat=pretreat, axis="columns", directions=None, cv=cv, k=k,
                             repeats=repeats, random_state=random_state)

    # --- the models comparison (section 2.2) ------------------------------------------
    def models_matrix(self, *, by: Sequence[str] = ("dataset", "balance", "classes"),
                      clean: bool = True, **where: Any) -> dict[tuple[Any, ...], pd.DataFrame]:
        """The SRD input matrices of the models comparison, per ``by`` group.

        Rows: measures (× any id column not in ``by`` and not model/validation);
        columns: models, test-validated ones with the suffix " T" (the paper's
        Figure 7). With ``clean``, direction-0 measures, measures with a NaN or
        infinite value and constant rows are dropped (``attrs["dropped"]``).
        """
        by = _check_by(by, "model")
        out = {}
        for key, g in self._groups(by, **where):
            rows = ["measure", *[c for c in ("dataset", "balance", "classes") if c not in by]]
            g = g.assign(column=np.where(g["validation"] == "test", g["model"] + TEST_SUFFIX,
                                         g["model"]))
            m = g.pivot_table(index=rows, columns="column", values="value", aggfunc="first",
                              dropna=False, sort=False)
            m = m.dropna(how="all")
            cols = [n + suf for n in self.models for suf in ("", TEST_SUFFIX)
                    if n + suf in m.columns]
            m = m.reindex(columns=cols)
            if len(rows) == 1:
                m = m.reindex([i for i in self.measures if i in m.index])
            m.attrs["measure_ids"] = [ix if isinstance(ix, str) else ix[0] for ix in m.index]
            m.index = _labels(m.index)
            m.index.name = "measure"
            m.columns.name = "model"
            out[key] = _prepare_models(m, clean=clean)
        return out

    def srd_models(self, *, by: Sequence[str] = ("dataset", "balance", "classes"),
                   pretreat: str = "range", axis: str = "rows", cv: str | None = "kfold",
                   k: int = 7,
                   repeats: int = 1, random_state: int | None = 0, **where: Any) -> StudySRD:
        """The paper's comparison of the models (section 2.2, Figures 7 and 8).

        Per ``by`` group (default: each data set × balance × class setting): an SRD
        of the matrix with one row per measure and one column per model and
        validation ("NaiB" cross-validated, "NaiB T" test), each row scaled to its
        range across the models (``pretreat="range"``, ``axis="rows"``: the measures
        have different scales), and the hypothetical best classifier as the
        reference: the row maximum for higher-is-better measures, the row minimum for
        lower-is-better ones, the directions read from the measure registry.
        Cross-validated with ``cv``/``k`` (the paper: seven-fold; a group with fewer
        than ``k`` measures left is cross-validated leave-one-out, with a warning).
        Direction-0, non-finite and constant rows are dropped with one warning. A
        group too small for the cross-validation (fewer than 4 measures left: too
        few for leave-one-out, docs/methods.md §1.7) keeps its SRD but is left out of
        ``.long()`` and so of the ANOVA, and a group with fewer than 3 measures left
        is left out altogether; one warning names those groups
        (:attr:`StudySRD.not_cross_validated`, :attr:`StudySRD.skipped`), and the
        other groups are kept.

        Returns
        -------
        StudySRD
            ``.long()`` has columns by..., model (without the suffix), validation,
            column, fold, srd_pct.

        Examples
        --------
        >>> from binmetrics.study import example_study
        >>> study = example_study()  # three models on a 3-class toy data set
        >>> res = study.srd_models()
        >>> res.matrices["toy", "balanced", "2-class"].columns.tolist()  # "T": test
        ['NaiB', 'NaiB T', 'knn', 'knn T', 'tree', 'tree T']
        >>> best = res.summary().query("balance == 'balanced' and classes == '2-class'")
        >>> print(best[["column", "srd_pct"]].head(3).round(1).to_string(index=False))
        column  srd_pct
         knn T     18.8
        NaiB T     31.2
        tree T     62.5
        """
        mats = self.models_matrix(by=by, **where)
        return StudySRD._fit("models", tuple(by), mats, reference="best", pretreat=pretreat,
                             axis=axis, directions="registry", cv=cv, k=k, repeats=repeats,
                             random_state=random_state)

    # --- ANOVA (eq. 1) and COVAT ------------------------------------------------------
    def anova(self, on: str = "measures", *, srd: StudySRD | None = None,
              factors: Sequence[str] | None = None, typ: int = 2, interactions: str = "full",
              **srd_options: Any) -> AnovaResult:
        """Factorial ANOVA of the cross-validated SRD% values (the paper's eq. 1).

        Factors: balance, class setting and the measure (``on="measures"``,
        section 2.1) or the classifier (``on="models"``, section 2.2; its
        cross-validated and test columns are both levels of that classifier).
        ``srd`` reuses a computed :class:`~binmetrics.study.srd_analyses.StudySRD`; otherwise
        :meth:`srd_measures` / :meth:`srd_models` run with ``srd_options``. A factor
        with a single level in the study (e.g. only balanced data) is left out with
        a warning, and so is a level of the measure or classifier factor that is missing
        from some groups (a model that failed in a setting), so that every cell of
        the design has data. Groups that could not be cross-validated (too few rows
        left, see :meth:`srd_models`) have no SRD% values and are not in the input.

        Returns
        -------
        binmetrics.comparison.factorial_anova.AnovaResult

        Examples
        --------
        >>> from binmetrics.study import example_study
        >>> study = example_study()  # three models on a 3-class toy data set
        >>> a = study.anova(repeats=2)  # srd_measures(repeats=2), then eq. 1
        >>> a.factors, a.n
        (['balance', 'classes', 'measure'], 320)
        >>> a.table["term"].tolist()[:4]
        ['balance', 'classes', 'measure', 'balance × classes']
        >>> study.anova("models").factors  # the classifier as factor 3
        ['balance', 'classes', 'model']
        """
        from binmetrics.comparison.factorial_anova import anova

        if on not in ("measures", "models"):
            raise ValueError(f"on must be 'measures' or 'models'; got {on!r}")
        if srd is None:
            srd = self.srd_measures(**srd_options) if on == "measures" else \
                self.srd_models(**srd_options)
        elif srd_options:
            raise TypeError(f"srd options {sorted(srd_options)} have no effect with srd=")
        elif srd.kind != on:
            raise ValueError(f"srd is a comparison of the {srd.kind}, not of the {on}")
        data = srd.long()
        third = "measure" if on == "measures" else "model"
        if factors is None:
            factors = [f for f in ("balance", "classes") if f in data.columns] + [third]
        factors = list(factors)
        missing = [f for f in factors if f not in data.columns]
        if missing:
            raise ValueError(f"factors {missing} are not columns of the SRD table "
                             f"{list(data.columns)}")
        single = [f for f in factors if data[f].nunique() < 2]
        if single:
            warnings.warn(f"anova: factor(s) {single} have a single level in this study "
                          "and are left out", BinmetricsWarning, stacklevel=2)
            factors = [f for f in factors if f not in single]
        if not factors:
            raise ValueError("anova: no factor has two levels")
        if third in factors and len(factors) > 1:
            others = [f for f in factors if f != third]
            cells = data[others].drop_duplicates()
            n_cells = data[[third, *others]].drop_duplicates().groupby(third, sort=False).size()
            incomplete = [lvl for lvl, n in n_cells.items() if n < len(cells)]
            if incomplete:
                warnings.warn(f"anova: {third} level(s) {incomplete} are missing from some "
                              f"{' × '.join(others)} groups (a failed model, a measure "
                              "dropped from a group) and are left out", BinmetricsWarning,
                              stacklevel=2)
                data = data[~data[third].isin(incomplete)]
        return anova(data, factors=factors, response="srd_pct", typ=typ,
                     interactions=interactions)  # type: ignore[arg-type]

    def scores_table(self, measure: str, *, validation: str = "test",
                     blocks: Sequence[str] = ("dataset", "balance", "classes"),
                     **where: Any) -> pd.DataFrame:
        """One measure as a blocks x models table: each ``blocks`` combination (default:
        every data set x balance x class setting) a row, each model a column, the
        ``validation`` ("test" or "cv") values; a model that failed or a value that is
        undefined leaves a NaN. ``where`` filters first (``balance="balanced"``). The
        input of :meth:`rank_comparison` and :meth:`bayesian_signed_rank`.

        Examples
        --------
        >>> from binmetrics.study import example_study
        >>> example_study().scores_table("auc").shape
        (4, 3)
        """
        from binmetrics.measures import get_measure

        m = get_measure(measure)
        if m.id not in self.measures:
            raise ValueError(f"the study did not compute {m.id}; it has: "
                             f"{', '.join(self.measures)}")
        rows = list(blocks)
        bad = [c for c in rows if c not in ("dataset", "balance", "classes")]
        if bad or not rows:
            raise ValueError(f"blocks must be among dataset, balance, classes; got {rows}")
        t = self.table[(self.table["measure"] == m.id)
                       & (self.table["validation"] == validation)]
        if not len(t):
            raise ValueError(f"no {validation!r} values of {m.id}; validation is 'test' or "
                             "'cv'")
        for col, val in where.items():
            if col not in ("dataset", "balance", "classes", "model"):
                raise ValueError(f"unknown filter {col!r}; filter by dataset, balance, "
                                 "classes or model")
            t = t[t[col].isin([val] if isinstance(val, str) else list(val))]
        wide = t.pivot_table(index=rows, columns="model", values="value", aggfunc="first",
                             dropna=False, sort=False)
        wide = wide.reindex(columns=[c for c in self.models if c in wide.columns])
        if len(rows) > 1:
            # dropna=False crosses every level of every block column: keep the blocks
            # the study ran (a 2-class data set has no multiclass setting)
            ran = pd.MultiIndex.from_frame(t[rows].drop_duplicates())
            wide = wide[wide.index.isin(ran)]
            wide.index = _labels(wide.index)
        wide.columns.name = "model"
        return wide

    def _direction(self, measure: str, higher_is_better: bool | None) -> bool:
        from binmetrics.measures import get_measure

        m = get_measure(measure)
        if m.direction == 0:
            raise ValueError(f"{m.id} has no direction (neither higher nor lower is better), "
                             "so the models cannot be ranked by it")
        if higher_is_better is not None and bool(higher_is_better) != (m.direction > 0):
            raise ValueError(f"{m.id} is {'higher' if m.direction > 0 else 'lower'}-is-better "
                             "in the measure registry; leave higher_is_better unset")
        return m.direction > 0

    def rank_comparison(self, measure: str, *, validation: str = "test",
                        blocks: Sequence[str] = ("dataset", "balance", "classes"),
                        higher_is_better: bool | None = None, tie_correction: bool = False,
                        nan_policy: NanPolicy = "raise", **where: Any) -> RankComparison:
        """Demšar's (2006) comparison of the models on one measure: average ranks, the
        Friedman test, post-hoc tests and the critical-difference diagram
        (:func:`~binmetrics.comparison.ranks.rank_comparison`).

        Each ``blocks`` combination is one "data set" of the Friedman test
        (:meth:`scores_table`). Whether higher is better comes from the measure registry
        (loss measures rank ascending); a measure without a direction (prevalence) is
        refused. A block where a model failed or the measure is undefined has a missing
        cell: an error, or ``nan_policy="omit"`` leaves the block out with a warning.

        Examples
        --------
        >>> from binmetrics.study import example_study
        >>> res = example_study().rank_comparison("brier")  # lower is better
        >>> res.higher_is_better, res.n_datasets, res.n_models
        (False, 4, 3)
        """
        from binmetrics.comparison.ranks import rank_comparison

        higher = self._direction(measure, higher_is_better)
        wide = self.scores_table(measure, validation=validation, blocks=blocks, **where)
        return rank_comparison(wide, higher_is_better=higher, tie_correction=tie_correction,
                               nan_policy=nan_policy)

    def bayesian_signed_rank(self, measure: str, model_a: str, model_b: str, *,
                             rope: float = 0.0, validation: str = "test",
                             blocks: Sequence[str] = ("dataset", "balance", "classes"),
                             random_state: Any = None, **options: Any) -> BayesianSignedRank:
        """The Bayesian signed-rank test of two models over the study's blocks
        (:func:`~binmetrics.comparison.bayesian.bayesian_signed_rank`).

        "A better" means better by the measure's direction in the registry: for a loss
        measure the differences are b - a, so that a smaller loss of A counts for A.
        Blocks where either model has no value are an error (the study's failures and
        undefined values say why). ``options`` go to the test (``prior``, ``n_resamples``).

        Examples
        --------
        >>> from binmetrics.study import example_study
        >>> res = example_study().bayesian_signed_rank("brier", "NaiB", "knn", rope=0.01,
        ...                                            random_state=0)
        >>> res.names, len(res.differences)
        (('NaiB', 'knn'), 4)
        """
        from binmetrics.comparison.bayesian import bayesian_signed_rank

        higher = self._direction(measure, None)
        wide = self.scores_table(measure, validation=validation, blocks=blocks)
        missing = [m for m in (model_a, model_b) if m not in wide.columns]
        if missing:
            raise ValueError(f"no {validation!r} values of {', '.join(missing)}; the models: "
                             f"{', '.join(map(str, wide.columns))}")
        pair = wide[[model_a, model_b]]
        if pair.isna().to_numpy().any():
            gaps = pair.index[pair.isna().any(axis=1)].tolist()
            raise ValueError(f"{model_a} or {model_b} has no value on {gaps[:5]} (see "
                             "study.failures and study.undefined); filter those blocks out")
        d = (pair[model_a] - pair[model_b]).to_numpy(dtype=float)
        return bayesian_signed_rank(d if higher else -d, rope=rope, random_state=random_state,
                                    names=(model_a, model_b), **options)

    def report(self, path: str | os.PathLike[str] | None = None, **options: Any) -> str:
        """The study's self-contained HTML report: design, the rank comparison with its
        critical-difference diagram, SRD and ANOVA side by side, and the results table
        (:func:`binmetrics.study.report.study_report`; ``options`` go there:
        ``measures``, ``validation``, ``test``, ``alpha``, ``control``, ``srd``,
        ``anova``, ``title``). ``path``: also write it there, atomically. Needs
        matplotlib for the figures.

        Examples
        --------
        >>> from binmetrics.study import example_study
        >>> page = example_study().report(measures="brier", srd=False)
        >>> "id='bm-ranks-brier-cd'" in page
        True
        """
        from binmetrics.study.report import study_report

        return study_report(self, path, **options)

    def covat(self, *, balance: str | None = None, classes: str | None = None,
              pretreat: str = "unit_length", orient: bool = True, order: str = "mean",
              **where: Any) -> COVATResult:
        """SRD-COVAT of the measures of one balance × class setting (the paper's Figure 6):
        each measure in turn is the reference (:func:`binmetrics.comparison.srd_covat.covat`) on the
        matrix of :meth:`measures_matrix`.

        ``balance`` and ``classes`` pick the setting; they may be left out when the
        study has a single value of them.

        Examples
        --------
        >>> from binmetrics.study import example_study
        >>> study = example_study()  # three models on a 3-class toy data set
        >>> cov = study.covat(balance="balanced", classes="2-class")
        >>> cov.matrix.shape  # SRD% of every measure with every other as the reference
        (8, 8)
        >>> cov.order[:3]  # the mean order: neighbours rank the models alike
        ['accuracy', 'kappa', 'balanced_accuracy']
        """
        from binmetrics.comparison.srd_covat import covat

        mats = self.measures_matrix(by=("balance", "classes"), orient=orient, **where)
        want = {"balance": balance, "classes": classes}
        keys = [k for k in mats if all(v is None or k[i] == v
                                       for i, v in enumerate(want.values()))]
        if len(keys) != 1:
            raise ValueError(f"covat: pick one setting with balance= and classes=; the study "
                             f"has {[tuple(k) for k in mats]}")
        m = mats[keys[0]]
        _warn_dropped({keys[0]: m}, "covat", ("balance", "classes"))
        return covat(m, pretreat=pretreat, order=order)  # type: ignore[arg-type]
