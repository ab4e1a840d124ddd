"""What a :class:`~binmetrics.evaluation.multiclass.MulticlassEvaluation` shows: its
table ``repr``, :meth:`~MulticlassViews.summary` (scikit-learn's
``classification_report``), :meth:`~MulticlassViews.plot` (the multiclass plot kinds)
and :meth:`~MulticlassViews.to_html` (the page :func:`binmetrics.report` writes).

A mixin, so that the multiclass module keeps its computing and these views stay apart.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from binmetrics.evaluation.chart_inputs import MulticlassSource
from binmetrics.formatting import Tabular, format_number, frame_html, frame_text

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["MulticlassSummary", "MulticlassViews"]

#: the measures a multiclass evaluation's repr shows (natively multiclass ones first)
SHOWN = ("accuracy", "balanced_accuracy", "mcc", "kappa", "brier", "log_loss", "auc")


@dataclass(frozen=True, repr=False)
class MulticlassSummary(Tabular):
    """scikit-learn's ``classification_report`` of a multiclass evaluation: per class
    precision, recall, F1 and support; accuracy; the macro and the support-weighted
    averages.

    Attributes
    ----------
    per_class : pandas.DataFrame
        Rows: each class, then "accuracy", "macro avg", "weighted avg" (as
        ``classification_report(output_dict=True)``); columns precision, recall,
        f1-score, support. The accuracy row holds the accuracy in f1-score (NaN in
        precision and recall) and the total support.

    Notes
    -----
    With c the class, C the confusion matrix (rows actual, columns predicted by the
    argmax): precision_c = C_cc / sum_r C_rc, recall_c = C_cc / sum_k C_ck,
    F1_c = 2 P R / (P + R), support_c = sum_k C_ck. A class never predicted (or absent)
    has an undefined precision (recall): NaN with one warning, where scikit-learn
    puts 0 (``zero_division="warn"``); the averages leave NaN out.
    """

    per_class: pd.DataFrame

    def to_frame(self) -> pd.DataFrame:
        """The report, one row per class and per summary line."""
        return self.per_class.copy()

    def _title(self) -> str:
        return "Classification report (argmax predictions)"

    def __repr__(self) -> str:
        return frame_text(self._title(), self.per_class, max_rows=40)

    def _repr_html_(self) -> str:
        return frame_html(self._title(), self.per_class, max_rows=60)


class MulticlassViews(MulticlassSource):
    """The views of a multiclass evaluation (mixed into
    :class:`~binmetrics.evaluation.multiclass.MulticlassEvaluation`)."""

    # provided by MulticlassEvaluation
    _cm: Any
    _classes: list[Any]
    weighted: bool
    average: str

    def summary(self) -> MulticlassSummary:
        """Per-class precision, recall, F1 and support, accuracy, macro and weighted
        averages: the numbers of scikit-learn's ``classification_report`` (argmax
        predictions, weights as ``sample_weight``).

        Examples
        --------
        >>> import binmetrics as bm
        >>> mev = bm.evaluate(["a", "b", "c", "a", "b", "c"],
        ...                   [[.7, .2, .1], [.2, .5, .3], [.1, .3, .6],
        ...                    [.3, .4, .3], [.2, .6, .2], [.5, .1, .4]])
        >>> mev.summary()
        Classification report (argmax predictions)
                     precision   recall f1-score  support
        a                  0.5      0.5      0.5        2
        b             0.666667        1      0.8        2
        c                    1      0.5 0.666667        2
        accuracy           NaN      NaN 0.666667        6
        macro avg     0.722222 0.666667 0.655556        6
        weighted avg  0.722222 0.666667 0.655556        6
        """
        import pandas as pd

        from binmetrics.exceptions import report_undefined

        cm = np.asarray(self._cm, dtype=np.float64)
        tp = np.diag(cm)
        support = cm.sum(axis=1)
        predicted = cm.sum(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            precision = np.where(predicted > 0, tp / predicted, np.nan)
            recall = np.where(support > 0, tp / support, np.nan)
            both = precision + recall
            f1 = np.where(both > 0, 2 * precision * recall / both, 0.0)
        f1 = np.where(np.isnan(precision) | np.isnan(recall), np.nan, f1)
        names = [str(c) for c in self._classes]
        for what, vals in (("precision", precision), ("recall", recall)):
            bad = [n for n, v in zip(names, vals, strict=True) if math.isnan(v)]
            if bad:
                why = "never predicted" if what == "precision" else "absent"
                report_undefined(f"{what} of class {', '.join(bad)}",
                                 f"the class is {why} (0/0); left out of the averages")
        total = float(support.sum())
        rows = {n: [precision[i], recall[i], f1[i], support[i]] for i, n in enumerate(names)}
        rows["accuracy"] = [np.nan, np.nan, float(tp.sum() / total) if total else np.nan,
                            total]
        rows["macro avg"] = [float(np.nanmean(v)) if not np.all(np.isnan(v)) else np.nan
                             for v in (precision, recall, f1)] + [total]
        keep = [~np.isnan(v) for v in (precision, recall, f1)]
        rows["weighted avg"] = [
            float(np.average(v[k], weights=support[k])) if support[k].sum() > 0 else np.nan
            for v, k in zip((precision, recall, f1), keep, strict=True)] + [total]
        frame = pd.DataFrame.from_dict(rows, orient="index",
                                       columns=["precision", "recall", "f1-score", "support"])
        if not self.weighted:
            frame["support"] = frame["support"].astype(np.int64)
        return MulticlassSummary(frame)

    def plot(self, kind: str = "confusion_matrix", *, ax: Any = None, **kwargs: Any) -> Axes:
        """Draw a plot kind that applies to multiclass models (``binmetrics.plot.kinds(
        mev)``; default the k x k confusion matrix). Needs matplotlib (``pip install
        'binmetrics[plot]'``).

        Examples
        --------
        >>> import binmetrics as bm
        >>> mev = bm.evaluate([0, 1, 2, 2], [[.8, .1, .1], [.3, .6, .1], [.2, .2, .6],
        ...                                  [.5, .1, .4]])
        >>> ax = mev.plot()  # doctest: +SKIP
        """
        from binmetrics.evaluation import chart_data  # noqa: F401 - declares the kinds
        from binmetrics.evaluation.plot_kinds import PLOT_KINDS, draw

        spec = PLOT_KINDS.get(kind)
        if spec is not None and not spec.applies_to(self):
            shown = ", ".join(k for k, s in PLOT_KINDS.items() if s.applies_to(self))
            raise ValueError(f"plot kind {kind!r} does not apply to a multiclass "
                             f"evaluation; the kinds that do: {shown}")
        return draw(kind, self, ax=ax, **kwargs)

    def _measures_frame(self) -> pd.DataFrame:
        import pandas as pd

        from binmetrics.evaluation.notebook import quiet_values

        values = quiet_values(self)
        return pd.DataFrame({"id": list(SHOWN), "value": [values[m] for m in SHOWN]})

    def _title(self) -> str:
        total = float(np.asarray(self._cm).sum())
        n = f"{total:g}" if self.weighted else f"{int(total)}"
        return (f"MulticlassEvaluation(n={n}, classes={list(self.classes)!r}, "
                f"average={self.average!r})")

    def __repr__(self) -> str:
        return frame_text(self._title(), self._measures_frame())

    def to_html(self, title: str | None = None, *,
                ci: bool | Mapping[str, Any] = False) -> str:
        """A self-contained HTML page: the classification report, the confusion matrix
        and every measure (native or averaged), as :func:`binmetrics.report` writes
        for a multiclass evaluation.

        Parameters
        ----------
        title : str, optional
            Default "Multiclass evaluation".
        ci : bool or mapping, default False
            Add an "Intervals" section:
            :meth:`~binmetrics.evaluation.multiclass_ci.MulticlassInferenceMethods.ci_table`
            (the bootstrap of the rows, stratified by class, every measure on the same
            replicates) with one row per measure (estimate, low, high, level,
            ci_method, n_undefined) and, below, one row per class of each averaged
            measure (``per_class=True``). A mapping is passed to ``ci_table`` as
            keywords, e.g.
            ``{"n_resamples": 500, "random_state": 0}`` (``per_class`` defaults to
            True here). False resamples nothing.

        Examples
        --------
        >>> import binmetrics as bm
        >>> mev = bm.evaluate([0, 1, 2, 2], [[.8, .1, .1], [.3, .6, .1], [.2, .2, .6],
        ...                                  [.5, .1, .4]])
        >>> page = mev.to_html("Three classes")
        >>> page.startswith("<!DOCTYPE html>"), "Classification report" in page
        (True, True)
        >>> page = mev.to_html(ci={"measures": ["accuracy", "auc"], "n_resamples": 50,
        ...                        "random_state": 0})
        >>> "<h2>Intervals</h2>" in page
        True
        """
        if not (ci is True or ci is False or isinstance(ci, Mapping)):
            raise TypeError(f"ci must be True, False or a mapping of ci_table options; "
                            f"got {ci!r}")
        intervals = "" if ci is False else self._intervals_html(
            {} if ci is True else dict(ci))
        import warnings

        import pandas as pd

        from binmetrics.evaluation.notebook import measures_table, quiet_values
        from binmetrics.exceptions import MeasureCaveatWarning, UndefinedMeasureWarning

        head = html.escape(title or "Multiclass evaluation")
        with warnings.catch_warnings():  # shown as NaN in the page
            warnings.simplefilter("ignore", UndefinedMeasureWarning)
            warnings.simplefilter("ignore", MeasureCaveatWarning)
            summary = self.summary()
        cm = getattr(self, "confusion_matrix")  # noqa: B009 - the host's property
        cm_html = pd.DataFrame(cm).to_html(border=0, float_format=format_number)
        parts = [
            "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{head}</title>",
            "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
            "td,th{padding:2px 8px;text-align:right}</style></head><body>",
            f"<h1>{head}</h1>", f"<p>{html.escape(self._title())}</p>",
            summary._repr_html_(), "<h2>Confusion matrix</h2>", cm_html,
            "<h2>Measures</h2>",
            measures_table(quiet_values(self), f"native or {self.average}-averaged"),
            intervals, "</body></html>",
        ]
        return "\n".join(parts) + "\n"

    def _intervals_html(self, options: dict[str, Any]) -> str:
        """The "Intervals" section: ``ci_table(**options)`` (per class by default), the
        averaged rows, then the per-class rows; each number also exact in its cell's
        ``data-value``."""
        options.setdefault("per_class", True)
        table = self.ci_table(**options)  # type: ignore[attr-defined]
        level = float(table["level"].iloc[0])
        method = str(table["ci_method"].iloc[0])
        n = options.get("n_resamples", 2000)
        seed = options.get("random_state")
        how = ("stratified by class" if options.get("stratified", True)
               else "not stratified")
        note = (f"{level:.0%} {method} intervals from {n} bootstrap replicates of the rows "
                f"({how}; random_state={seed!r}), every measure on the same replicates "
                "(MulticlassEvaluation.ci_table).")
        averaged = table[table["class"].isna()]
        per_class = table[table["class"].notna()]
        parts = ["<h2>Intervals</h2>", f"<p>{html.escape(note)}</p>",
                 _interval_rows(averaged, ["measure", "average"], "bm-intervals", [])]
        if len(per_class):
            parts += ["<h3>Per class (one-vs-rest)</h3>",
                      _interval_rows(per_class, ["measure", "class"], "bm-intervals-per-class",
                                     list(self.classes))]
        return "\n".join(parts)


#: the numeric columns of the report's interval tables (then level and ci_method)
_INTERVAL_COLUMNS = ("estimate", "low", "high", "n_undefined")


def _interval_rows(frame: pd.DataFrame, keys: list[str], css: str,
                   classes: list[Any]) -> str:
    """An HTML table of ``ci_table`` rows: the key columns, then estimate, low, high and
    the NaN replicates, each number shown to 6 digits with its exact value in
    ``data-value``; a class as its label (the frame's column may hold 0.0 for 0)."""
    label = {c: c for c in classes}
    head = "".join(f"<th>{html.escape(c)}</th>"
                   for c in (*keys, *_INTERVAL_COLUMNS, "level", "ci_method"))
    body = []
    for d in frame.to_dict("records"):
        cells = "".join(
            f'<td style="text-align:left">{html.escape(str(label.get(d[c], d[c])))}</td>'
            for c in keys)
        for c in _INTERVAL_COLUMNS:
            v = float(d[c])
            exact, shown = ((repr(v), format_number(v, digits=6)) if c != "n_undefined"
                            else (f"{int(v)}", f"{int(v)}"))
            cells += f"<td data-value='{exact}'>{html.escape(shown)}</td>"
        cells += f"<td>{float(d['level']):g}</td><td>{html.escape(str(d['ci_method']))}</td>"
        body.append(f"<tr>{cells}</tr>")
    return (f'<table class="{css}"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table>")
