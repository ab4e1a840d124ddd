"""The report's "Groups" section (:func:`binmetrics.display.report.report` with
``grouped=``, an :func:`~binmetrics.evaluate_by` result): is the model as good for every
group?

Three tables, from the per-group count tables the grouped result already holds:

* each group's cases, positives, prevalence and value of each measure of ``gaps``, with
  (when the report computes intervals) the percentile interval of the stratified
  bootstrap that gives the gaps (:meth:`~binmetrics.ByResult.difference` with
  ``ci=True``: resampling within each group and class, the same replicates for every
  group, so the groups' intervals and the gap's agree);
* each measure's largest between-group difference and smallest ratio (fairlearn's
  ``MetricFrame.difference`` / ``ratio``, method "between_groups"), with their intervals
  and the p-value of "no gap" (Hall and Wilson's centred bootstrap);
* calibration by group: the expected calibration error (ECE, 10 equal-width bins) of
  each group, and its gap, for scores that are probabilities.

Groups not evaluated (fewer than ``min_cases`` rows, one class) are listed with the
reason and left out of the gaps, with one warning (shown in the report's Notes).
"""

from __future__ import annotations

import html
import math
import warnings
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from binmetrics.evaluation.group_gaps import group_label
from binmetrics.evaluation.notebook import measure_title
from binmetrics.exceptions import UndefinedMeasureWarning, one_line
from binmetrics.formatting import HTML, format_number
from binmetrics.measures import get_measure

if TYPE_CHECKING:
    from binmetrics.evaluation.binary import Evaluation
    from binmetrics.evaluation.by import ByResult

__all__ = ["DEFAULT_GAPS", "check_grouped", "groups_section"]

#: the measures of the Groups section when ``gaps`` is not given
DEFAULT_GAPS: tuple[str, ...] = ("auc", "tpr", "fpr", "ppv")

_GAP_OPTIONS = ("level", "n_resamples", "random_state")


def _e(s: Any) -> str:
    return html.escape(str(s), quote=True)


def _fmt(v: float) -> str:
    return format_number(v, HTML, digits=6)


def _num(v: float) -> str:
    return "NaN" if math.isnan(v) else repr(float(v))


def check_grouped(models: Any, grouped: Any, gaps: Sequence[str] | None
                  ) -> tuple[Any, ByResult | None, list[str]]:
    """The report's models, its grouped result and the ids of ``gaps`` (checked): a
    grouped result given as ``models`` becomes the model "overall" (every group's rows)
    and the report's ``grouped``."""
    from binmetrics.evaluation.by import ByResult

    if isinstance(models, ByResult):
        if grouped is not None:
            raise TypeError("models is already a grouped result (evaluate_by); give it once, "
                            "as models or as grouped=")
        models, grouped = {"overall": models.overall}, models
    if grouped is not None and not isinstance(grouped, ByResult):
        raise TypeError("grouped must be the result of binmetrics.evaluate_by(...); got "
                        f"{type(grouped).__name__}")
    if gaps is not None and grouped is None:
        raise ValueError("gaps names the measures of the Groups section; give grouped="
                         "bm.evaluate_by(...) too")
    if isinstance(gaps, str):
        gaps = [gaps]
    ids = list(dict.fromkeys(get_measure(m).id for m in (gaps or DEFAULT_GAPS)))
    if gaps is not None and not ids:
        raise ValueError("gaps is empty: give measure ids, e.g. ['tpr', 'ppv']")
    return models, grouped, ids


def _gap_options(ci: bool | Mapping[str, Any]) -> dict[str, Any] | None:
    if ci is False:
        return None
    given = dict(ci) if isinstance(ci, Mapping) else {}
    return {k: given[k] for k in _GAP_OPTIONS if k in given}


def _cell(v: float, iv: tuple[float, float] | None = None, ident: str = "") -> str:
    ci = ""
    if iv is not None and not (math.isnan(iv[0]) and math.isnan(iv[1])):
        ci = f"<span class='ci'>[{_e(_fmt(iv[0]))}, {_e(_fmt(iv[1]))}]</span>"
    idattr = f" id='{_e(ident)}'" if ident else ""
    return f"<td class='v'><span{idattr} data-value='{_num(v)}'>{_e(_fmt(v))}</span>{ci}</td>"


def _value(ev: Evaluation | None, m: str) -> float:
    if ev is None:
        return math.nan
    with warnings.catch_warnings():  # the gaps' warning names the groups left out
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        return float(ev.value(m))


def _gaps(g: ByResult, m: str, opts: dict[str, Any] | None
          ) -> tuple[Any, Any, dict[str, tuple[float, float]], str]:
    """(difference, ratio, each group's interval by label, why not) of one measure: floats
    without intervals, GapResults with them (the same seed: the same replicates)."""
    try:
        if opts is None:
            return g.difference(m), g.ratio(m), {}, ""
        d = g.difference(m, ci=True, **opts)
        r = g.ratio(m, ci=True, **opts)
    except ValueError as exc:  # fewer than two groups where the measure is defined
        return math.nan, math.nan, {}, one_line(exc)
    f = d.by_group  # itertuples keeps each key column's own type (iterrows would not)
    keys = [k if len(g.by) > 1 else k[0] for k in f[g.by].itertuples(index=False, name=None)]
    by = {group_label(k): (float(lo), float(hi))
          for k, lo, hi in zip(keys, f["low"], f["high"], strict=True)}
    return d, r, by, ""


def groups_section(g: ByResult | None, gaps: list[str],
                   ci: bool | Mapping[str, Any]) -> str:
    """The HTML of the Groups section ("" without a grouped result): ``gaps`` are
    measure ids, ``ci`` as :func:`~binmetrics.display.report.report` takes it.

    Examples
    --------
    >>> import pandas as pd
    >>> import binmetrics as bm
    >>> df = pd.DataFrame({"g": list("aaaabbbb"), "y": [1, 1, 0, 0, 1, 1, 0, 0],
    ...                    "p": [.9, .4, .6, .1, .8, .7, .2, .3]})
    >>> g = bm.evaluate_by(df, label="y", score="p", by="g", measures=["tpr"])
    >>> html = groups_section(g, ["tpr"], False)
    >>> "id='bm-gap-tpr-difference' data-value='0.5'" in html   # g.difference("tpr")
    True
    """
    if g is None:
        return ""
    opts = _gap_options(ci)
    frame = g.to_frame()
    probabilities = g.overall.table.probabilities_ok
    measures = [*gaps, *(["ece"] if probabilities and "ece" not in gaps else [])]
    results = {m: _gaps(g, m, opts) for m in measures}
    keys = list(g.keys)
    labels = [group_label(k) for k in keys]
    head = "".join(f"<th scope='col' title='{_e(measure_title(get_measure(m)))}'>"
                   f"{_e(get_measure(m).name)} <code>{_e(m)}</code></th>" for m in measures)
    rows = []
    for i, (key, label) in enumerate(zip(keys, labels, strict=True)):
        ev = g.evaluations.get(key)
        reason = str(frame["reason"].iloc[i])
        cells = "".join(_cell(_value(ev, m), results[m][2].get(label),
                              f"bm-group-{i}-{m}") for m in measures)
        why = f" title='{_e(reason)}'" if reason else ""
        rows.append(f"<tr data-group='{_e(label)}'><th scope='row'{why}>{_e(label)}</th>"
                    f"<td>{int(frame['n'].iloc[i])}</td>"
                    f"<td>{_e(_fmt(float(frame['positives'].iloc[i])))}</td>"
                    f"<td>{_e(_fmt(float(frame['prevalence'].iloc[i])))}</td>{cells}"
                    f"<td>{_e(reason)}</td></tr>")
    overall = "".join(_cell(_value(g.overall, m)) for m in measures)
    values = ("<table id='bm-groups-values' class='measures'><caption>Each group "
              f"({_e(', '.join(g.by))})</caption><thead><tr><th scope='col'>group</th>"
              "<th scope='col'>cases</th><th scope='col'>positives</th>"
              f"<th scope='col'>prevalence</th>{head}<th scope='col'>not evaluated</th>"
              f"</tr></thead><tbody>{''.join(rows)}<tr class='overall'><th scope='row'>"
              f"all rows</th><td>{int(frame['n'].sum())}</td>"
              f"<td>{_e(_fmt(float(g.overall.table.P)))}</td>"
              f"<td>{_e(_fmt(float(g.overall.table.prevalence)))}</td>{overall}"
              "<td></td></tr></tbody></table>")
    gap_rows = []
    for m in measures:
        d, r, _, why = results[m]
        what = "calibration (ECE)" if m == "ece" and m not in gaps else m
        if why:
            gap_rows.append(f"<tr data-measure='{_e(m)}'><th scope='row'>{_e(what)}</th>"
                            f"<td colspan='3'>{_e(why)}</td></tr>")
            continue
        if opts is None:
            cells = _cell(d, None, f"bm-gap-{m}-difference") + "<td></td>" + _cell(
                r, None, f"bm-gap-{m}-ratio")
        else:
            cells = (_cell(d.estimate, (d.ci.low, d.ci.high), f"bm-gap-{m}-difference")
                     + f"<td data-value='{_num(d.pvalue)}'>{_e(_fmt(d.pvalue))}</td>"
                     + _cell(r.estimate, (r.ci.low, r.ci.high), f"bm-gap-{m}-ratio"))
        gap_rows.append(f"<tr data-measure='{_e(m)}'><th scope='row'>{_e(what)}</th>"
                        f"{cells}</tr>")
    level = (opts or {}).get("level", 0.95)
    how = (f"{_e(_fmt(level * 100))}% percentile intervals of the bootstrap resampling "
           "within each group and class (the same replicates give each group's interval "
           "above); the p-value tests “no gap”." if opts is not None else
           "Intervals: <code>report(..., ci=True)</code> or <code>binmetrics report --ci"
           "</code>.")
    gaps_table = ("<table id='bm-groups-gaps' class='measures'><caption>Gaps between the "
                  "groups: largest difference and smallest ratio</caption><thead><tr>"
                  "<th scope='col'>measure</th><th scope='col'>difference (max \u2212 min)"
                  "</th><th scope='col'>p-value</th><th scope='col'>ratio (min / max)</th>"
                  f"</tr></thead><tbody>{''.join(gap_rows)}</tbody></table>")
    calib = ("" if probabilities else "<p class='note'>Calibration by group is left out: "
             "the scores are not probabilities in [0, 1].</p>")
    return ("<section id='bm-groups'><h2>Groups</h2><p>Is the model as good for every "
            f"group? The cases split by {_e(', '.join(g.by))}; {how} Compare precision or "
            "F1 across groups of different prevalences with care (Siblini et al.): "
            "<code>difference(m, pi0=\"mean\")</code> compares them at one prevalence.</p>"
            f"{calib}{values}{gaps_table}</section>")
