"""The report's "Chosen thresholds" section: the cuts chosen by
:meth:`Evaluation.best_threshold` (``bm.report(..., best_thresholds=...)``), with their
constraints, bootstrap intervals and optimism, as the results hold them (the report
computes nothing: each number is the result's own)."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from binmetrics.evaluation.cut_choice import BestThreshold
from binmetrics.formatting import HTML, format_number

__all__ = ["check_best_thresholds", "thresholds_section"]


def check_best_thresholds(best_thresholds: Any,
                          names: Sequence[str]) -> list[tuple[str, BestThreshold]]:
    """(model name, result) pairs from ``best_thresholds``: a mapping of a model name to
    one :class:`~binmetrics.BestThreshold` or a list of them; with one model, the result
    or the list alone. A one-line error otherwise."""
    if best_thresholds is None:
        return []
    if not isinstance(best_thresholds, Mapping):
        if len(names) != 1:
            raise TypeError("with several models, best_thresholds maps a model name to its "
                            "best_threshold(...) results, e.g. {'model a': [best]}")
        best_thresholds = {names[0]: best_thresholds}
    out: list[tuple[str, BestThreshold]] = []
    for name, given in best_thresholds.items():
        if name not in names:
            raise ValueError(f"best_thresholds names model {name!r}, which the report does "
                             f"not have; its models: {', '.join(map(repr, names))}")
        items = [given] if isinstance(given, BestThreshold) else given
        if not isinstance(items, Sequence) or not all(
                isinstance(b, BestThreshold) for b in items):
            raise TypeError(f"best_thresholds[{name!r}] must be the result of "
                            "ev.best_threshold(...) or a list of them; got "
                            f"{type(given).__name__}")
        out += [(str(name), b) for b in items]
    return out


def _num(v: float) -> str:
    return format_number(v, HTML, digits=6)


def _interval(iv: Any) -> str:
    if iv is None:
        return ""
    return f"[{_num(iv.low)}, {_num(iv.high)}] ({iv.level:.0%})"


def thresholds_section(rows: list[tuple[str, BestThreshold]]) -> str:
    """The section's HTML ("" without rows): one row per chosen cut."""
    if not rows:
        return ""
    e = html.escape
    head = ("<tr><th>model</th><th>measure</th><th>subject to</th><th>threshold</th>"
            "<th>threshold interval</th><th>value</th><th>value interval</th>"
            "<th>optimism</th><th>corrected value</th><th>note</th></tr>")
    body = []
    for name, b in rows:
        boot = b.threshold_ci is not None
        op = "&#8805;" if b.higher_is_positive else "&#8804;"
        note = b.reason if not b.feasible else (
            f"score {op} threshold is positive; {b.n_resamples} bootstrap replicates"
            + (f", {b.n_undefined} without a feasible cut" if b.n_undefined else "")
            if boot else f"score {op} threshold is positive")
        body.append(
            f"<tr><td>{e(name)}</td><td>{e(b.measure)}</td>"
            f"<td>{e(', '.join(b.subject_to))}</td>"
            f"<td data-value='{b.threshold!r}'>{_num(b.threshold)}</td>"
            f"<td>{_interval(b.threshold_ci)}</td><td>{_num(b.value)}</td>"
            f"<td>{_interval(b.value_ci)}</td>"
            f"<td>{_num(b.optimism) if boot else ''}</td>"
            f"<td>{_num(b.corrected_value) if boot else ''}</td><td>{e(note)}</td></tr>")
    return ("<section id='bm-thresholds'><h2>Chosen thresholds</h2>"
            "<p>Cuts chosen with <code>best_threshold</code>: intervals are bootstrap "
            "percentiles of the cut chosen on each replicate and of its value there; the "
            "optimism is how much choosing on the same data flatters the value (Efron), "
            "and the corrected value is the value less it.</p>"
            f"<table class='measures'><thead>{head}</thead><tbody>{''.join(body)}"
            "</tbody></table></section>")
