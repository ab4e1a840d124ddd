"""The SRD analyses of a benchmark study: :class:`StudySRD`, one SRD per group.

:meth:`Study.srd_measures <binmetrics.study.results.Study.srd_measures>` and
:meth:`Study.srd_models <binmetrics.study.results.Study.srd_models>` build one
matrix per group (e.g. per balance × class setting) and fit them here: an
:class:`~binmetrics.comparison.srd_ranking.SRDResult` and its cross-validation per group, the
groups too small for either left out with one warning, and the cross-validated SRD%
values gathered in one tidy table (:meth:`StudySRD.long`) for the ANOVA.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from binmetrics.exceptions import BinmetricsWarning
from binmetrics.formatting import Tabular
from binmetrics.study._matrices import _warn_dropped
from binmetrics.study._plan import _seed_int

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from binmetrics.comparison.srd_ranking import SRDResult

__all__ = ["TEST_SUFFIX", "StudySRD"]

#: The suffix of a test-validated model's column in the models SRD (the paper's Figure 7).
TEST_SUFFIX = " T"
#: The cross-validations of
#: :meth:`binmetrics.comparison.srd_ranking.SRDResult.cross_validate`.
_SRD_CVS = ("kfold", "loo", "bootstrap", "rsrd_wilcoxon")
#: Leave-one-out needs this many rows (three left in every resample; docs/methods.md §1.7).
_MIN_LOO_ROWS = 4


class StudySRD(Tabular):
    """SRD analyses of a :class:`~binmetrics.study.results.Study`, one per group
    (from :meth:`Study.srd_measures` or :meth:`Study.srd_models`).

    Index it with a group key (a tuple of the ``by`` values, or the value itself for one
    ``by`` column) to get the :class:`~binmetrics.comparison.srd_ranking.SRDResult`.

    Attributes
    ----------
    kind : "measures" or "models"
    by : tuple of str
        The grouping columns.
    keys : list of tuple
    matrices : dict key -> DataFrame
        The SRD inputs (after orientation and dropping).
    results : dict key -> SRDResult
    cross_validations : dict key -> SRDCrossValidation
    dropped : DataFrame
        by..., item, reason: what was left out of each matrix.
    not_cross_validated : dict key -> str
        The groups too small for the cross-validation asked for (e.g. fewer than 4
        rows left: neither k-fold nor leave-one-out applies) and why; they have an
        SRD in ``results`` but no values in :meth:`long`, so the ANOVA leaves them out.
    skipped : dict key -> str
        The groups left with fewer than 3 rows or 2 columns (no SRD at all) and why.
    negated : list of str
        Measures negated by ``orient`` (measures comparison).
    """

    def __init__(self, kind: str, by: tuple[str, ...], matrices: dict[tuple[Any, ...],
                 pd.DataFrame], results: dict[tuple[Any, ...], Any],
                 cross_validations: dict[tuple[Any, ...], Any], dropped: pd.DataFrame,
                 not_cross_validated: dict[tuple[Any, ...], str] | None = None,
                 skipped: dict[tuple[Any, ...], str] | None = None) -> None:
        self.kind = kind
        self.not_cross_validated = dict(not_cross_validated or {})
        self.skipped = dict(skipped or {})
        self.by = by
        self.matrices = matrices
        self.results = results
        self.cross_validations = cross_validations
        self.dropped = dropped
        self.keys = list(results)
        self.negated = sorted({c for m in matrices.values() for c in m.attrs.get("negated", [])})

    @classmethod
    def _fit(cls, kind: str, by: tuple[str, ...], mats: dict[tuple[Any, ...], pd.DataFrame],
             *, reference: str, pretreat: str, axis: str, directions: Any, cv: str | None,
             k: int, repeats: int, random_state: int | None) -> StudySRD:
        from binmetrics.comparison.srd_ranking import srd

        dropped = _warn_dropped(mats, f"srd_{kind}", by)
        if not mats:
            raise ValueError(f"srd_{kind}: the study has no results to compare")
        if cv is not None:
            if cv not in _SRD_CVS:
                raise ValueError(f"cv must be one of {_SRD_CVS} or None; got {cv!r}")
            if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 2:
                raise ValueError(f"k must be an integer >= 2 (folds); got {k!r}")
            if (isinstance(repeats, bool) or not isinstance(repeats, (int, np.integer))
                    or repeats < 1):
                raise ValueError(f"repeats must be a positive integer; got {repeats!r}")

        def named(key: tuple[Any, ...]) -> str:
            return ", ".join(f"{b}={v}" for b, v in zip(by, key, strict=True)) or "all"

        seeds = np.random.SeedSequence(random_state).spawn(len(mats))
        results, cvs = {}, {}
        too_small: dict[tuple[Any, ...], str] = {}
        no_cv: dict[tuple[Any, ...], str] = {}
        for (key, m), ss in zip(mats.items(), seeds, strict=True):
            where = named(key)
            if m.shape[0] < 3 or m.shape[1] < 2:
                too_small[key] = (f"{m.shape[0]} rows x {m.shape[1]} columns left; SRD needs "
                                  "at least 3 rows and 2 columns")
                continue
            kw: dict[str, Any] = {"pretreat": pretreat, "axis": axis}
            if directions == "registry":
                kw["directions"] = np.asarray(m.attrs["directions"])
            try:
                res = srd(m, reference, **kw)
            except ValueError as exc:
                raise ValueError(f"srd_{kind} ({where}): {exc}") from exc
            results[key] = res
            if cv is None:
                continue
            how, folds = cv, k
            if cv == "kfold" and m.shape[0] < k:
                if m.shape[0] < _MIN_LOO_ROWS:
                    no_cv[key] = (f"{m.shape[0]} rows, fewer than k = {k} folds, and "
                                  f"leave-one-out needs at least {_MIN_LOO_ROWS}")
                    continue
                warnings.warn(f"srd_{kind} ({where}): {m.shape[0]} rows, fewer than k = {k}"
                              " folds; cross-validated leave-one-out instead", BinmetricsWarning,
                              stacklevel=3)
                how, folds = "loo", m.shape[0]
            try:
                cvs[key] = res.cross_validate(how, folds,  # type: ignore[arg-type]
                                              repeats=repeats if how == "kfold" else 1,
                                              random_state=_seed_int(ss))
            except ValueError as exc:  # too few rows for these folds (arguments checked above)
                no_cv[key] = str(exc)
        if too_small:
            text = "; ".join(f"{named(key)}: {why}" for key, why in too_small.items())
            if not results:
                raise ValueError(f"srd_{kind}: no group is large enough for an SRD ({text})")
            warnings.warn(f"srd_{kind}: {len(too_small)} group(s) left out ({text}); the other "
                          "groups are kept (see .skipped)", BinmetricsWarning, stacklevel=3)
        if no_cv:
            text = "; ".join(f"{named(key)}: {why}" for key, why in no_cv.items())
            warnings.warn(f"srd_{kind}: {len(no_cv)} group(s) could not be cross-validated "
                          f"and are left out of .long() and the ANOVA ({text}); their SRD is "
                          "kept (see .not_cross_validated)", BinmetricsWarning, stacklevel=3)
        return cls(kind, by, mats, results, cvs, dropped, no_cv, too_small)

    def _key(self, key: Any) -> tuple[Any, ...]:
        k = key if isinstance(key, tuple) else (key,)
        if k not in self.results:
            raise KeyError(f"no group {key!r}; groups ({', '.join(self.by)}): {self.keys}")
        return k

    def __getitem__(self, key: Any) -> SRDResult:
        return self.results[self._key(key)]

    def __len__(self) -> int:
        return len(self.results)

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self.keys)

    def to_frame(self) -> pd.DataFrame:
        """:meth:`summary`: the SRD and SRD% of every column of every group."""
        return self.summary()

    def _title(self) -> str:
        return f"StudySRD(kind={self.kind!r}, by={self.by}, groups={len(self)})"

    def _split_column(self, frame: pd.DataFrame) -> pd.DataFrame:
        if self.kind == "measures":
            return frame.rename(columns={"column": "measure"})
        test = frame["column"].str.endswith(TEST_SUFFIX)
        at = list(frame.columns).index("column")
        frame.insert(at, "model",
                     np.where(test, frame["column"].str[:-len(TEST_SUFFIX)], frame["column"]))
        frame.insert(at + 1, "validation", np.where(test, "test", "cv"))
        return frame

    def summary(self) -> pd.DataFrame:
        """SRD and SRD% of every column of every group: by..., column (measure, or model
        and validation), srd, srd_pct, sorted within each group as
        :meth:`~binmetrics.comparison.srd_ranking.SRDResult.to_frame` is."""
        parts = []
        for key, res in self.results.items():
            f = res.to_frame().reset_index()
            f = f.rename(columns={f.columns[0]: "column"})
            for b, v in reversed(list(zip(self.by, key, strict=True))):
                f.insert(0, b, v)
            parts.append(f)
        return self._split_column(pd.concat(parts, ignore_index=True))

    def long(self) -> pd.DataFrame:
        """The cross-validated SRD% values, tidy, for :func:`binmetrics.anova`.

        Columns: the ``by`` columns, then ``measure`` (measures comparison) or
        ``model``, ``validation`` and ``column`` (models comparison), the fold columns
        of :meth:`~binmetrics.comparison.srd_crossvalidation.SRDCrossValidation.long`
        (``fold``, and ``repeat`` if repeated), and ``srd_pct``.
        """
        if not self.cross_validations:
            if self.not_cross_validated:
                raise ValueError(f"no group could be cross-validated: "
                                 f"{self.not_cross_validated}")
            raise ValueError("no cross-validation was run (cv=None)")
        parts = []
        for key, cvr in self.cross_validations.items():
            f = cvr.long().copy()
            for b, v in reversed(list(zip(self.by, key, strict=True))):
                f.insert(0, b, v)
            parts.append(f)
        return self._split_column(pd.concat(parts, ignore_index=True))

    def plot(self, key: Any = None, ax: Any = None) -> Axes:
        """The SRD plot of one group (:meth:`~binmetrics.comparison.srd_ranking.SRDResult.plot`);
        ``key`` may be left out when there is one group."""
        if key is None:
            if len(self) != 1:
                raise ValueError(f"plot: pick a group; there are {len(self)}: {self.keys}")
            key = self.keys[0]
        return self[key].plot(ax=ax)
