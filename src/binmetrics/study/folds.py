"""The per-fold side of a benchmark study: each cross-validation fold's values and the
corrected resampled t-test on them (:class:`StudyFolds`, a part of
:class:`~binmetrics.study.results.Study`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from binmetrics.comparison.bayesian import CorrelatedTTest

__all__ = ["FOLD_COLUMNS", "StudyFolds"]

#: The columns of :attr:`Study.folds`.
FOLD_COLUMNS = ("dataset", "balance", "classes", "model", "fold", "n_train", "n_test",
                "measure", "value", "reason")


class StudyFolds:
    """The fold methods of :class:`~binmetrics.study.results.Study`, which
    provides the attributes below."""

    folds: pd.DataFrame
    models: list[str]
    measures: list[str]

    def _direction(self, measure: str, higher_is_better: bool | None) -> bool:
        raise NotImplementedError  # Study's: the registry's direction of the measure

    def fold_table(self, measure: str, *, dataset: str | None = None,
                   balance: str | None = None, classes: str | None = None) -> pd.DataFrame:
        """One measure on each cross-validation fold of one setting: a row per fold with
        its ``n_train`` and ``n_test``, then a column per model (:attr:`folds`). The
        setting (data set, balance, class setting) may be left unnamed where the study
        has a single value. The input of :meth:`correlated_t_test`.

        Examples
        --------
        >>> from binmetrics.study import example_study
        >>> t = example_study().fold_table("auc", balance="balanced", classes="2-class")
        >>> t.columns.tolist(), len(t)  # three folds
        (['n_train', 'n_test', 'NaiB', 'knn', 'tree'], 3)
        """
        from binmetrics.measures import get_measure

        m = get_measure(measure)
        if not len(self.folds):
            raise ValueError("the study has no per-fold values: it ran without "
                             "cross-validation (cv=None); run benchmark with cv=K folds")
        if m.id not in self.measures:
            raise ValueError(f"the study did not compute {m.id}; it has: "
                             f"{', '.join(self.measures)}")
        f = self.folds[self.folds["measure"] == m.id]
        for col, val in (("dataset", dataset), ("balance", balance), ("classes", classes)):
            if val is not None:
                f = f[f[col] == val]
        keys = f[["dataset", "balance", "classes"]].drop_duplicates()
        if len(keys) != 1:
            have = self.folds[["dataset", "balance", "classes"]].drop_duplicates()
            raise ValueError(
                f"pick one setting with dataset=, balance= and classes= ({len(keys)} match); "
                f"the folds are of {[tuple(r) for r in have.itertuples(index=False)]}")
        wide = f.pivot_table(index="fold", columns="model", values="value",
                             aggfunc="first", dropna=False, sort=True)
        wide = wide.reindex(columns=[c for c in self.models if c in wide.columns])
        sizes = f.groupby("fold", sort=True)[["n_train", "n_test"]].first()
        wide = pd.concat([sizes, wide], axis=1)
        wide.columns.name = None
        wide.attrs["reasons"] = {(int(fo), str(mo)): str(why) for fo, mo, why in zip(
            f["fold"], f["model"], f["reason"], strict=True) if why}
        return wide

    def correlated_t_test(self, measure: str, model_a: str, model_b: str, *,
                          rope: float = 0.0, dataset: str | None = None,
                          balance: str | None = None, classes: str | None = None
                          ) -> CorrelatedTTest:
        """Nadeau and Bengio's corrected resampled t-test of two models on the folds of
        one setting, and its Bayesian form (Corani and Benavoli 2015):
        :func:`~binmetrics.comparison.bayesian.correlated_t_test` on the fold differences
        of :meth:`fold_table`, with ``test_fraction`` the mean over the folds of
        n_test / (n_train + n_test) (1/K for K folds of equal size).

        "A better" means better by the measure's direction in the registry (for a loss
        the differences are b - a). A study run without cross-validation has no folds
        and is refused, as is a fold where either model has no value (the reason is in
        :attr:`folds`).

        Examples
        --------
        >>> from binmetrics.study import example_study
        >>> res = example_study().correlated_t_test("brier", "NaiB", "knn", rope=0.01,
        ...     balance="imbalanced", classes="2-class")
        >>> res.names, len(res.differences), round(res.test_fraction, 3)
        (('NaiB', 'knn'), 3, 0.333)
        """
        from binmetrics.comparison.bayesian import correlated_t_test

        higher = self._direction(measure, None)
        t = self.fold_table(measure, dataset=dataset, balance=balance, classes=classes)
        missing = [m for m in (model_a, model_b) if m not in t.columns[2:]]
        if missing:
            raise ValueError(f"no fold values of {', '.join(missing)}; the models: "
                             f"{', '.join(map(str, t.columns[2:]))}")
        pair = t[[model_a, model_b]]
        if pair.isna().to_numpy().any():
            gaps = pair.isna().to_numpy()
            bad = [(int(pair.index[i]), (model_a, model_b)[j]) for i, j in np.argwhere(gaps)]
            why = t.attrs["reasons"].get(bad[0], "see study.failures")
            raise ValueError(f"{bad[0][1]} has no {measure} value on fold {bad[0][0]} "
                             f"({why}); the corrected t-test needs every fold")
        d = (pair[model_a] - pair[model_b]).to_numpy(dtype=float)
        rho = float(np.mean(t["n_test"] / (t["n_train"] + t["n_test"])))
        return correlated_t_test(d if higher else -d, test_fraction=rho, rope=rope,
                                 names=(model_a, model_b))

