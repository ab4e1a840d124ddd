"""Generate the measure catalogue from the registry at build time.

mkdocs-gen-files runs this script (``plugins: gen-files: scripts:`` in mkdocs.yml):
it writes ``catalogue/index.md`` (a table of every measure) and one page
``catalogue/<id>.md`` per registered measure. Nothing here lists measures by hand:
the pages, and the catalogue section of the navigation (``docs/hooks.py`` calls
:func:`nav`), come from :func:`binmetrics.iter_measures`.

Each page shows the registry's metadata (name, id, aliases, family, direction, range,
parameters with defaults, formula, source), the intervals and paired tests that apply,
what binning the scores does to it,
the function's docstring, and the value on Berrar's ten cases evaluated at threshold
0.55: Berrar's paper predicts positive when ``p > t`` and its Figure 3 confusion
matrix (TP = 3, FP = 1) is the cut between the scores 0.6 and 0.5; with binmetrics'
``score >= threshold`` that cut is any threshold in (0.5, 0.6], e.g. 0.55.

``python docs/gen_catalogue.py OUTDIR`` writes the same pages into OUTDIR (to read
them without building the site).
"""

from __future__ import annotations

import inspect
import math
import sys
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

import binmetrics as bm
from binmetrics.data import EXAMPLES, example_path
from binmetrics.exceptions import MeasureCaveatWarning, UndefinedMeasureWarning
from binmetrics.inference.intervals import ci_methods
from binmetrics.inference.paired import compare_methods
from binmetrics.measures.registry import PRESETS, Family

#: Berrar's Figure 3 cut (see the module docstring and the Conventions page).
THRESHOLD = 0.55
CATALOGUE = "catalogue"

FAMILY_TITLES: dict[Family, str] = {
    "confusion": "Confusion-matrix measures",
    "probabilistic": "Probabilistic measures",
    "ranking": "Ranking measures",
}
FAMILY_TEXT: dict[str, str] = {
    "confusion": "a function of the confusion matrix at the threshold "
                 "(``score >= threshold`` is predicted positive)",
    "probabilistic": "a loss on the scores read as probabilities (or, for the hinge "
                     "loss, as margins); it does not depend on the threshold",
    "ranking": "a function of the ordering of the scores; it does not depend on the "
               "threshold",
}
DIRECTIONS = {1: "higher is better", -1: "lower is better", 0: "neither (descriptive)"}


@dataclass(frozen=True)
class Example:
    """A measure's value on Berrar's data, with the reason when it is undefined."""

    value: float
    undefined_reason: str | None
    caveats: tuple[str, ...]

    @property
    def shown(self) -> str:
        return "undefined" if math.isnan(self.value) else f"{self.value:.6g}"


def berrar_data() -> tuple[list[int], list[float]]:
    """Berrar's ten cases, read from the bundled example (``binmetrics.data``)."""
    spec = EXAMPLES["berrar"]
    frame = pd.read_csv(example_path("berrar"))
    return frame[spec.label].tolist(), frame[spec.score].tolist()


def berrar_evaluation() -> bm.Evaluation:
    y, s = berrar_data()
    return bm.evaluate(y, s, threshold=THRESHOLD)


def example_value(measure: bm.Measure) -> Example:
    """``ev[measure.id]`` on Berrar's data with the warnings it raised (undefined
    reason, caveats); a new Evaluation each time, so no cached value hides them."""
    ev = berrar_evaluation()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = ev[measure.id]
    reason = None
    caveats = []
    for w in caught:
        if isinstance(w.message, UndefinedMeasureWarning):
            reason = w.message.reason or str(w.message)
        elif isinstance(w.message, MeasureCaveatWarning):
            caveats.append(str(w.message))
    if math.isnan(value) and reason is None:
        reason = "no reason was reported"
    return Example(value, reason, tuple(caveats))


def page_path(measure: bm.Measure) -> str:
    """Where a measure's page lives, relative to the docs directory."""
    return f"{CATALOGUE}/{measure.id}.md"


def nav() -> list[object]:
    """The catalogue section of the navigation: the index, then each family's pages."""
    section: list[object] = [f"{CATALOGUE}/index.md"]
    for family, title in FAMILY_TITLES.items():
        pages = [{m.name: page_path(m)} for m in bm.iter_measures(family)]
        if pages:
            section.append({title: pages})
    return section


def _cell(text: str) -> str:
    """Text for a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


BINNED_TEXT = {
    "refinements": "bounded: between its values with each bin's positives above, and "
                   "below, its negatives",
    "above_binned": "bounded: the binned value is the low end, the higher of its values "
                    "with each bin's positives above, or below, its negatives the high end",
    "average_precision": "bounded (its own lower bound, distinct scores with each bin's "
                         "negatives first)",
}


def _binned(m: bm.Measure) -> str:
    """What binning does to the measure (the registry's ``binning_bound``)."""
    if m.family == "probabilistic":
        return "exact: the engines sum the loss over the raw scores"
    if m.family == "confusion":
        return "exact at a threshold on the bin grid"
    return BINNED_TEXT[m.binning_bound] if m.binning_bound else "no bound derived"


def _range(measure: bm.Measure) -> str:
    def end(x: float) -> str:
        return {math.inf: "∞", -math.inf: "−∞"}.get(x, f"{x:g}")

    return f"[{end(measure.range[0])}, {end(measure.range[1])}]"


def _python_repr(value: float) -> str:
    return repr(float(value))


def measure_page(measure: bm.Measure, ex: Example, ev: bm.Evaluation, y: list[int],
                 s: list[float]) -> str:
    """The Markdown page of one measure (``ex``: its value on Berrar's data)."""
    m = measure
    doc = inspect.getdoc(m.func) or "(no docstring)"
    params = ", ".join(f"`{k}={v!r}`" for k, v in m.params.items()) or "none"
    aliases = ", ".join(f"`{a}`" for a in m.aliases) or "none"
    scores = ("probabilities in [0, 1]" if m.needs_probabilities
              else "any real numbers (higher = more likely positive)")
    intervals = ", ".join(f'`"{x}"`' for x in ci_methods(m))
    paired = ", ".join(f'`"{x}"`' for x in compare_methods(m))
    c = ev.confusion
    lines = [
        f"# {m.name} (`{m.id}`)",
        "",
        m.summary or "",
        "",
        "| attribute | value |",
        "|---|---|",
        f"| **id** | `{m.id}` |",
        f"| **aliases** | {aliases} |",
        f"| **family** | {m.family}: {_cell(FAMILY_TEXT[m.family])} |",
        f"| **direction** | {DIRECTIONS[m.direction]} ({m.direction:+d}) |",
        f"| **range** | {_range(m)} |",
        f"| **prevalence** | {PREVALENCE_TEXT[m.prevalence_dependent]} |",
        f"| **parameters** (defaults) | {params} |",
        f"| **scores** | {scores} |",
        f"| **source** | {_cell(m.source)} |",
        f"| **intervals** (`ev.ci(..., method=)`) | {intervals} |",
        f"| **paired tests** (`bm.compare`) | {paired} |",
        f"| **binned scores** (`decimals=`, `bins=`) | {_binned(m)} |",
        f"| **function** | `{m.func.__module__}.{m.func.__name__}` |",
        "",
        "## Formula",
        "",
        "```text",
        m.formula,
        "```",
        "",
        "## Example on Berrar's data",
        "",
    ]
    if m.family == "confusion":
        lines.append(
            f"Berrar's ten cases cut at threshold {THRESHOLD:g}, the cut of the paper's "
            f"Figure 3 (TP = {c.tp}, FP = {c.fp}, FN = {c.fn}, TN = {c.tn}; see "
            "[Conventions](../conventions.md#threshold)):")
    else:
        lines.append(f"Berrar's ten cases (the value does not depend on the threshold, "
                     f"{THRESHOLD:g} here as on every catalogue page):")
    call_params = ", ".join(f"{k}={v!r}" for k, v in m.params.items())
    lines += [
        "",
        "```python",
        "import binmetrics as bm",
        "",
        f"y = {y}",
        f"s = {s}",
        f"ev = bm.evaluate(y, s, threshold={THRESHOLD:g})",
        "```",
        "",
        "```pycon",
        f'>>> ev["{m.id}"]',
        _python_repr(ex.value),
        "```",
        "",
    ]
    if ex.undefined_reason is not None:
        lines += [
            '!!! note "Undefined here"',
            "",
            f"    The value is undefined (NaN, with an `UndefinedMeasureWarning`): "
            f"{_cell(ex.undefined_reason)}.",
            "",
        ]
    for caveat in ex.caveats:
        lines += ['!!! warning "Caveat (MeasureCaveatWarning)"', "", f"    {caveat}", ""]
    if m.params:
        lines += [
            "Parameters are keywords of `ev.value`: the value above is "
            f"`ev.value(\"{m.id}\", {call_params})`; change them there, or in the "
            f"functional form `bm.score(\"{m.id}\", y, s, threshold={THRESHOLD:g}, "
            f"{call_params})`.",
            "",
        ]
    else:
        lines += [
            f"In functional form: `bm.score(\"{m.id}\", y, s, threshold={THRESHOLD:g})`; "
            f"any alias works in place of the id (`ev[\"{(m.aliases or (m.id,))[0]}\"]`).",
            "",
        ]
    lines += [
        "## Docstring",
        "",
        "```text",
        doc,
        "```",
        "",
    ]
    return "\n".join(lines)


#: what a measure's ``prevalence_dependent`` says, on its page
PREVALENCE_TEXT = {
    True: "dependent: reweighting the classes changes it (`ev.calibrated(pi0)` gives its "
          "value at a reference prevalence)",
    False: "independent: a function of the class-conditional score distributions "
           "(reweighting the classes leaves it unchanged)",
    None: "not declared",
}
#: the index's column of it
PREVALENCE_MARK = {True: "dependent", False: "independent", None: ""}


def index_page(examples: dict[str, Example], ev: bm.Evaluation) -> str:
    """The catalogue's index: every registered measure in one table."""
    ms = list(bm.iter_measures())
    counts = ", ".join(f"{sum(m.family == f for m in ms)} {f}" for f in FAMILY_TITLES)
    c = ev.confusion
    lines = [
        "# Measure catalogue",
        "",
        f"Every measure registered in binmetrics ({len(ms)}: {counts}), generated from "
        "the registry when the site is built (`bm.measure_catalogue()` gives the same table in "
        "Python, `binmetrics measures` on the command line). Each measure's page has "
        "its aliases, direction, range, parameters, formula, source, docstring and the "
        "intervals and paired tests that apply to it. Any alias works in place of the id, "
        "whatever its case, spaces, hyphens or apostrophes (PyCM's `\"Scott PI\"`, "
        "`\"GM\"`, scikit-learn's `\"matthews_corrcoef\"`): see [PyCM and "
        "scikit-learn names](../pycm.md).",
        "",
        f"*Berrar* is the value on Berrar's ten cases at threshold {THRESHOLD:g} "
        f"(TP = {c.tp}, FP = {c.fp}, FN = {c.fn}, TN = {c.tn}), with default parameters; "
        "↑ means higher is better, ↓ lower is better, – neither. *Prevalence*: whether the "
        "value changes with the class prior when the score distributions of each class "
        "stay the same (the distinction of the Wikipedia table between its rows and "
        "columns; `Measure.prevalence_dependent`).",
        "",
        "| Measure | id | family | | Berrar | prevalence | source | aliases |",
        "|---|---|---|:-:|--:|---|---|---|",
    ]
    arrows = {1: "↑", -1: "↓", 0: "–"}
    for m in ms:
        ex = examples[m.id]
        lines.append(
            f"| [{_cell(m.name)}]({m.id}.md) | `{m.id}` | {m.family} | {arrows[m.direction]} "
            f"| {ex.shown} | {PREVALENCE_MARK[m.prevalence_dependent]} | {_cell(m.source)} "
            f"| {_cell(', '.join(m.aliases))} |")
    lines += ["", "## Named sets", "",
              "Every `measures=` argument (and the CLI's `--measures`) also takes the name of "
              "a set of measures declared from a seed paper (`binmetrics.measures.PRESETS`):", ""]
    for preset in PRESETS.values():
        members = ", ".join(f"[`{i}`]({i}.md)" for i in preset.ids)
        lines.append(f"- **`{preset.name}`**: {_cell(preset.description)} ({preset.source}): "
                     f"{members}.")
    lines += ["", "## Measures of embeddings", "",
              "- **Triplet loss** (`bm.triplet_loss(anchor, positive, negative, margin=0.2)`; "
              "Berrar Def. 34, eq. 42): a loss of three embeddings per case rather than of "
              "labels and scores, so it is a function of its own, not a registry measure. "
              "See [Methods, triplet loss](../methods.md#triplet-loss) for the paper's "
              "example."]
    lines.append("")
    return "\n".join(lines)


def pages() -> Iterator[tuple[str, str]]:
    """(path relative to the docs directory, Markdown) of every catalogue page."""
    y, s = berrar_data()
    ev = berrar_evaluation()
    examples = {m.id: example_value(m) for m in bm.iter_measures()}
    yield f"{CATALOGUE}/index.md", index_page(examples, ev)
    for m in bm.iter_measures():
        yield page_path(m), measure_page(m, examples[m.id], ev, y, s)


def write_all(write: Callable[[str, str], None]) -> None:
    for path, text in pages():
        write(path, text)


def _write_gen_files(path: str, text: str) -> None:
    import mkdocs_gen_files

    with mkdocs_gen_files.open(path, "w") as f:
        f.write(text)
    mkdocs_gen_files.set_edit_path(path, "gen_catalogue.py")


if __name__ == "<run_path>":  # run by mkdocs-gen-files
    write_all(_write_gen_files)
elif __name__ == "__main__":  # python docs/gen_catalogue.py OUTDIR
    if len(sys.argv) != 2:
        sys.exit("usage: python docs/gen_catalogue.py OUTDIR")
    out = Path(sys.argv[1])

    def _write_file(path: str, text: str) -> None:
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")

    write_all(_write_file)
