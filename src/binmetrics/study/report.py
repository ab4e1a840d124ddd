"""The self-contained HTML report of a benchmark study: :func:`study_report` and
``Study.report``.

One HTML file that answers the study's question with every method side by side: the
design and the study's table, Demšar's (2006) rank comparison of the models for each
chosen measure (average ranks, the Friedman and Iman-Davenport tests, the post-hoc
comparisons and the critical-difference diagram), the SRD comparisons of the measures
and of the models (multi-level comparison paper, sections 2.1-2.2) and the factorial
ANOVA of their cross-validated SRD% (eq. 1). The figures are drawn by matplotlib and
embedded as SVG data URIs; the page has no script and needs no network. Every number
comes from the study's own analyses (``Study.rank_comparison``, ``Study.srd_measures``,
``Study.srd_models``, ``Study.anova``): this module computes nothing itself. An
analysis the study cannot run (too few blocks, no cross-validation) is left out with
its reason in the report's Notes, never silently.

The study package sits above the display layer, so ``Study.report`` imports this
module directly and the report reuses display's HTML helpers below it.
"""

from __future__ import annotations

import base64
import html
import io
import os
import warnings
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from binmetrics.display.report_html import fmt, num_attr, page_head
from binmetrics.io import check_writable, write_text
from binmetrics.measures import get_measure
from binmetrics.measures.registry import FAMILIES

if TYPE_CHECKING:
    from binmetrics.study.srd_analyses import StudySRD

# The study is typed Any here: its class (study/results.py) calls this module, and
# importing the class back would be a cycle; a Study is recognised by its methods.
Study = Any

__all__ = ["MAX_SRD_FIGURES", "study_report"]

#: at most this many SRD plots of each comparison (measures, models) are embedded
MAX_SRD_FIGURES = 12
_POSTHOC = ("nemenyi", "bonferroni_dunn", "holm", "wilcoxon_holm")
_DESIGN = ("dataset", "balance", "classes", "labels", "positive", "n_train", "n_test",
           "train_counts", "test_counts")


# --- pieces --------------------------------------------------------------------------------
def _e(s: Any) -> str:
    return html.escape(str(s), quote=True)


def _cell(v: Any) -> str:
    """A table cell: numbers with their exact value in ``data-value``, the rest escaped."""
    if isinstance(v, (bool, np.bool_)):
        return f"<td>{_e('yes' if v else 'no')}</td>"
    if isinstance(v, (int, np.integer)):
        return f"<td class='v' data-value='{int(v)}'>{int(v)}</td>"
    if isinstance(v, (float, np.floating)):
        return f"<td class='v' data-value='{num_attr(float(v))}'>{_e(fmt(float(v)))}</td>"
    if isinstance(v, (list, tuple)):
        v = ", ".join(map(str, v))
    return f"<td>{_e('' if v is None else v)}</td>"


def _table(frame: pd.DataFrame, table_id: str, *, index: bool = False) -> str:
    """A DataFrame as an HTML table (the index as the first columns when ``index``)."""
    f = frame.reset_index() if index else frame
    text = f.select_dtypes(include="object").columns
    if len(text):  # a missing label (None, NaN in an object column) is an empty cell
        f = f.copy()
        f[text] = f[text].astype(object).where(f[text].notna(), None)
    head = "".join(f"<th scope='col'>{_e(c)}</th>" for c in f.columns)
    rows = "".join("<tr>" + "".join(_cell(v) for v in row) + "</tr>"
                   for row in f.itertuples(index=False, name=None))
    return (f"<div class='scroll'><table class='study' id='{_e(table_id)}'><thead><tr>{head}"
            f"</tr></thead><tbody>{rows}</tbody></table></div>")


def _figure(draw: Callable[[], Any], alt: str, fig_id: str, caption: str = "") -> str:
    """The matplotlib figure that ``draw`` makes (it returns an Axes), as an SVG image
    embedded in the page (a data URI: no script, no clash of the SVGs' inner ids)."""
    from binmetrics.backends import pyplot

    plt = pyplot("the study report's figures")
    import matplotlib

    with matplotlib.rc_context({"svg.hashsalt": "binmetrics", "svg.fonttype": "none"}):
        ax = draw()
        fig = ax.figure
        try:
            buf = io.BytesIO()
            fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
        finally:
            plt.close(fig)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    cap = f"<figcaption>{_e(caption)}</figcaption>" if caption else ""
    return (f"<figure class='study-fig' id='{_e(fig_id)}'><img alt='{_e(alt)}' "
            f"src='data:image/svg+xml;base64,{data}'>{cap}</figure>")


def _default_measures(study: Study) -> list[str]:
    """Every measure of the study that has a direction when there are at most eight,
    else the first such measure of each family (in the study's order)."""
    ranked = [m for m in study.measures if get_measure(m).direction != 0]
    if len(ranked) <= 8:
        return ranked
    out = []
    for family in FAMILIES:
        first = next((m for m in ranked if get_measure(m).family == family), None)
        if first is not None:
            out.append(first)
    return out


def _check_options(study: Study, measures: Any, validation: Any, test: Any,
                   alpha: Any, srd: Any) -> tuple[list[str], str]:
    if not all(callable(getattr(study, m, None)) for m in ("rank_comparison", "srd_models")):
        raise TypeError(f"study_report takes a Study (binmetrics.benchmark(...)); got "
                        f"{type(study).__name__}")
    if measures is None:
        ids = _default_measures(study)
    else:
        ids = [measures] if isinstance(measures, str) else list(measures)
        ids = [get_measure(m).id for m in ids]
        missing = [m for m in ids if m not in study.measures]
        if missing:
            raise ValueError(f"the study did not compute {', '.join(missing)}; it has: "
                             f"{', '.join(study.measures)}")
    if validation is None:
        validation = "test" if study.config.get("test_size") is not None else "cv"
    if validation not in ("test", "cv"):
        raise ValueError(f"validation must be 'test' or 'cv'; got {validation!r}")
    if test not in _POSTHOC:
        raise ValueError(f"test must be one of {', '.join(_POSTHOC)}; got {test!r}")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise ValueError(f"alpha must be a number between 0 and 1; got {alpha!r}")
    if not isinstance(srd, (bool, Mapping)) or (
            isinstance(srd, Mapping) and not set(srd) <= {"measures", "models"}):
        raise TypeError("srd must be True, False or a mapping {'measures': {...}, 'models': "
                        f"{{...}}}} of srd_measures/srd_models options; got {srd!r}")
    from binmetrics.study.srd_analyses import StudySRD

    for kind, v in (srd.items() if isinstance(srd, Mapping) else ()):
        if isinstance(v, StudySRD) and v.kind != kind:
            raise ValueError(f"srd[{kind!r}] is an SRD of the {v.kind}, not of the {kind}")
        if not isinstance(v, (StudySRD, Mapping)):
            raise TypeError(f"srd[{kind!r}] must be a mapping of options or the StudySRD of "
                            f"study.srd_{kind}(); got {type(v).__name__}")
    return ids, str(validation)


# --- the sections --------------------------------------------------------------------------
def _ranks_section(study: Study, measure: str, validation: str, test: str, alpha: float,
                   control: str | None, notes: list[str]) -> str:
    m = get_measure(measure)
    sid = f"bm-ranks-{m.id}"
    head = (f"<h3>{_e(m.name)} ({_e(m.id)}; {'higher' if m.direction > 0 else 'lower'} is "
            f"better; {_e(validation)} validation)</h3>")
    try:
        res = study.rank_comparison(m.id, validation=validation, nan_policy="omit")
        post = res.posthoc(test, control=control, alpha=alpha)
    except ValueError as exc:
        notes.append(f"Rank comparison of {m.id} left out: {exc}")
        return (f"<section class='ranks' id='{_e(sid)}'>{head}<p class='warn'>{_e(exc)}</p>"
                "</section>")
    f, i = res.friedman, res.iman_davenport
    dropped = (f"; {len(res.dropped)} block(s) with a missing value dropped: "
               f"{', '.join(map(str, res.dropped))}" if len(res.dropped) else "")
    cdv = post.critical_difference
    cd = (f", critical difference <span class='v' data-value='{num_attr(cdv)}'>"
          f"{_e(fmt(cdv))}</span>" if cdv is not None else "")
    stats = (f"<ul class='tests'><li>{res.n_models} models on {res.n_datasets} blocks "
             f"(data set × balance × class setting){_e(dropped)}</li>"
             f"<li>Friedman χ² = <span class='v' data-value='{num_attr(f.statistic)}'>"
             f"{_e(fmt(f.statistic))}</span>, df = {f.df}, p = <span class='v' "
             f"data-value='{num_attr(f.pvalue)}'>{_e(fmt(f.pvalue))}</span></li>"
             f"<li>Iman-Davenport F = <span class='v' data-value='{num_attr(i.statistic)}'>"
             f"{_e(fmt(i.statistic))}</span>, df = {i.df}, p = <span class='v' "
             f"data-value='{num_attr(i.pvalue)}'>{_e(fmt(i.pvalue))}</span></li>"
             f"<li>{_e(test.replace('_', '-'))} post-hoc test"
             f"{'' if control is None else ' against ' + _e(control)}, alpha = "
             f"{_e(fmt(alpha))}{cd}</li></ul>")
    ranks = _table(res.to_frame(), f"{sid}-average-ranks", index=True)
    cols = ["model_a", "model_b", "rank_difference", "statistic", "pvalue", "pvalue_adjusted",
            "significant"]
    table = _table(post.table[cols], f"{sid}-posthoc")
    try:
        fig = _figure(lambda: post.plot(), f"critical-difference diagram of {m.id}",
                      f"{sid}-cd")
    except (ImportError, ValueError) as exc:
        notes.append(f"Critical-difference diagram of {m.id} left out: {exc}")
        fig = f"<p class='warn'>{_e(exc)}</p>"
    return (f"<section class='ranks' id='{_e(sid)}'>{head}{stats}<div class='side'>"
            f"<div>{ranks}{table}</div>{fig}</div></section>")


def _srd_section(study: Study, kind: str, options: Mapping[str, Any] | StudySRD,
                 notes: list[str]) -> tuple[str, StudySRD | None]:
    sid = f"bm-srd-{kind}"
    what = ("the measures (per balance × class setting; rows model × validation × data "
            "set, the row mean as reference; the paper's section 2.1)" if kind == "measures"
            else "the models (per data set × balance × class setting; rows measures, the "
            "best classifier as reference, T: test validation; section 2.2)")
    head = f"<h3>SRD of {_e(what)}</h3>"
    from binmetrics.study.srd_analyses import StudySRD

    try:
        if isinstance(options, StudySRD):  # computed already (its kind is checked)
            srd = options
        else:
            srd = (study.srd_measures(**options) if kind == "measures"
                   else study.srd_models(**options))
        summary = srd.summary()
    except ValueError as exc:
        notes.append(f"SRD of the {kind} left out: {exc}")
        return f"<section id='{sid}'>{head}<p class='warn'>{_e(exc)}</p></section>", None
    figs = []
    for j, key in enumerate(srd.keys[:MAX_SRD_FIGURES]):
        label = " × ".join(map(str, key))
        try:
            figs.append(_figure(partial(srd.plot, key), f"SRD plot of the {kind}: {label}",
                                f"{sid}-fig-{j}", caption=label))
        except (ImportError, ValueError) as exc:
            notes.append(f"SRD plot of the {kind} ({label}) left out: {exc}")
    if len(srd.keys) > MAX_SRD_FIGURES:
        notes.append(f"SRD of the {kind}: the plots of the first {MAX_SRD_FIGURES} of "
                     f"{len(srd.keys)} groups are shown; the table has them all")
    keep = [c for c in summary.columns if c != "column"]
    return (f"<section id='{sid}'>{head}{_table(summary[keep], f'{sid}-table')}"
            f"<div class='figs'>{''.join(figs)}</div></section>"), srd


def _anova_section(study: Study, kind: str, srd: StudySRD, notes: list[str]) -> str:
    sid = f"bm-anova-{kind}"
    third = "measure" if kind == "measures" else "model"
    head = f"<h3>Factorial ANOVA of the SRD% of the {_e(kind)} (eq. 1)</h3>"
    try:
        res = study.anova(kind, srd=srd)
    except ValueError as exc:
        notes.append(f"ANOVA of the {kind} left out: {exc}")
        return f"<section id='{sid}'>{head}<p class='warn'>{_e(exc)}</p></section>"
    line = (f"<p>{_e(' × '.join(res.factors))}; n = {res.n}"
            f"{' (balanced)' if res.balanced else ''}, type {res.typ} sums of squares</p>")
    fig = ""
    if third in res.factors:
        try:
            fig = _figure(lambda: res.plot(third, sort=True), f"ANOVA means of the {third}s",
                          f"{sid}-means")
        except (ImportError, ValueError) as exc:
            notes.append(f"ANOVA means plot of the {kind} left out: {exc}")
    return (f"<section id='{sid}'>{head}{line}{_table(res.table, f'{sid}-table')}"
            f"{fig}</section>")


# --- the report ------------------------------------------------------------------------------
def study_report(
    study: Study,
    path: str | os.PathLike[str] | None = None,
    *,
    measures: str | Sequence[str] | None = None,
    validation: str | None = None,
    test: str = "nemenyi",
    alpha: float = 0.05,
    control: str | None = None,
    srd: bool | Mapping[str, Mapping[str, Any] | StudySRD] = True,
    anova: bool = True,
    title: str | None = None,
    inputs: Sequence[str | os.PathLike[str]] = (),
) -> str:
    """A self-contained HTML report of a benchmark study: every method side by side.

    The page holds the study's design (the paper's Table 1) and its table (one row per
    data set, balance, class setting, model and validation; one column per measure);
    for each of ``measures``, Demšar's (2006) rank comparison of the models
    (:meth:`Study.rank_comparison`, each data set × balance × class setting a block; a
    block with a missing value is dropped and said so): the average ranks, the
    Friedman and Iman-Davenport tests, the ``test`` post-hoc comparisons and the
    critical-difference diagram; then the SRD of the measures and of the models
    (:meth:`Study.srd_measures`, :meth:`Study.srd_models`, with their plots) and the
    factorial ANOVA of their cross-validated SRD% (:meth:`Study.anova`, with its means
    plot), so that the report shows where the methods agree. An analysis the study
    cannot run is left out with its reason in the Notes; warnings raised while
    building are listed there too.

    Parameters
    ----------
    study : Study
        :func:`binmetrics.benchmark`'s result.
    path : path, optional
        Also write the HTML there, atomically (:func:`binmetrics.io.write_text`). The
        path is checked before any work: a missing folder, a directory or a file it
        cannot write is an error.
    measures : str or sequence of str, optional
        The measures of the rank comparisons. Default: every measure of the study that
        has a direction when there are at most eight, else the first one of each
        family in the study's order.
    validation : "test" or "cv", optional
        The values ranked; default "test" when the study has a test split, else "cv".
    test : str, default "nemenyi"
        The post-hoc test: "nemenyi", "bonferroni_dunn", "holm" or "wilcoxon_holm".
    alpha : float, default 0.05
    control : str, optional
        The control model of a one-against-all test.
    srd : bool or mapping, default True
        Include the SRD comparisons; a mapping ``{"measures": {...}, "models": {...}}``
        passes options to :meth:`Study.srd_measures` / :meth:`Study.srd_models`
        (e.g. ``{"measures": {"repeats": 2}}``), or their results computed already
        (``{"measures": study.srd_measures(), "models": study.srd_models()}``).
    anova : bool, default True
        Include the ANOVA of each SRD comparison (needs ``srd``).
    title : str, optional
    inputs : sequence of paths, optional
        Files the study's data came from: ``path`` must not be one of them (another
        spelling or a link to the same file included), as for every binmetrics output.

    Returns
    -------
    str
        The HTML document.

    Examples
    --------
    >>> from binmetrics.study import example_study
    >>> from binmetrics.study.report import study_report
    >>> page = study_report(example_study(), measures="auc",
    ...                     srd={"measures": {"repeats": 2}})
    >>> page.startswith("<!DOCTYPE html>"), "<script" in page
    (True, False)
    >>> "id='bm-ranks-auc-cd'" in page, "id='bm-anova-models-table'" in page
    (True, True)
    """
    ids, validation = _check_options(study, measures, validation, test, alpha, srd)
    if control is not None and control not in study.models:
        raise ValueError(f"control {control!r} is not a model of the study; its models: "
                         f"{', '.join(study.models)}")
    out_path = check_writable(path, inputs) if path is not None else None
    srd_opts: Mapping[str, Any] = srd if isinstance(srd, Mapping) else {}
    notes: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ranks = "".join(_ranks_section(study, m, validation, test, float(alpha), control,
                                       notes) for m in ids)
        srd_html, anova_html = [], []
        if srd is not False:
            for kind in ("measures", "models"):
                part, res = _srd_section(study, kind, srd_opts.get(kind, {}), notes)
                srd_html.append(part)
                if anova and res is not None:
                    anova_html.append(_anova_section(study, kind, res, notes))
    from binmetrics.package import __version__

    design = study.design[[c for c in _DESIGN if c in study.design.columns]].copy()
    if "positive" in design and "labels" in design:  # the label itself, not pandas' float
        design["positive"] = [str(lab[-1]) if len(lab) == 2 else ""
                              for lab in design["labels"]]
    results = study.wide()
    n_cells = results.size
    seen = list(dict.fromkeys([*notes, *(" ".join(str(w.message).split()) for w in caught)]))
    notes_html = ("<section id='bm-notes'><h2>Notes</h2><ul>"
                  + "".join(f"<li>{_e(s)}</li>" for s in seen) + "</ul></section>"
                  if seen else "")
    title = title or "binmetrics study report: " + ", ".join(study.models)
    summary = (f"<ul class='summary'><li>{len(study.datasets)} data set(s), "
               f"{len(study.design)} setting(s), {len(study.models)} models, "
               f"{len(study.measures)} measures, {len(study.table)} values</li>"
               f"<li>{len(study.failures)} failed model run(s), {len(study.undefined)} "
               "undefined value(s) (NaN; their reasons are in study.undefined)</li></ul>")
    srd_part = (f"<section id='bm-srd'><h2>SRD (sum of ranking differences)</h2>"
                f"{''.join(srd_html)}</section>" if srd_html else "")
    anova_part = (f"<section id='bm-anova'><h2>ANOVA</h2>{''.join(anova_html)}</section>"
                  if anova_html else "")
    page = f"""{page_head(title, __version__)}<header><h1>{_e(title)}</h1>{summary}</header>
<main>
<section id="bm-design"><h2>Design</h2>{_table(design, "bm-design-table")}</section>
<section id="bm-ranks"><h2>Rank comparison (Demšar 2006)</h2>
<p>Each data set × balance × class setting is one block; the models are ranked within
each block (1 = best, ties share ranks) by the measure's direction in the registry.</p>
{ranks}</section>
{srd_part}
{anova_part}
<section id="bm-results"><h2>Results</h2>{_table(results, "bm-results-table", index=True)}
</section>
{notes_html}
</main>
<footer><p>{n_cells} cells in the results table. Every
number is computed by binmetrics {_e(__version__)} in Python; the figures are SVG drawn by
matplotlib and embedded in this file, which needs no network to open.</p></footer>
</body>
</html>
"""
    if out_path is not None:
        write_text(out_path, page)
    return page
