"""Example data bundled with binmetrics.

* ``berrar``: the ten cases of Berrar's worked example (columns case, label, score).
* ``screening``: a deterministic synthetic screening data set of 5,000 rows
  (columns id, y, p, w; made by ``examples/make_screening_data.py``).

>>> from binmetrics.data import example_path
>>> import pandas as pd
>>> pd.read_csv(example_path("berrar")).shape
(10, 3)
"""

from __future__ import annotations

import atexit
import contextlib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

__all__ = ["EXAMPLES", "Example", "example_path"]


@dataclass(frozen=True)
class Example:
    """A bundled data set: its file name, label and score columns, and weight column if any."""

    name: str
    filename: str
    label: str
    score: str
    weight: str | None
    description: str


EXAMPLES: dict[str, Example] = {
    "berrar": Example(
        "berrar", "berrar_example.csv", "label", "score", None,
        "Berrar's worked example: ten cases, five positives",
    ),
    "screening": Example(
        "screening", "screening.csv", "y", "p", "w",
        "synthetic screening data: 5,000 rows, prevalence about 0.1, rounded probabilities",
    ),
}

_files = contextlib.ExitStack()
atexit.register(_files.close)


def example_path(name: str) -> Path:
    """The path of a bundled example data set: ``"berrar"`` or ``"screening"``.

    The file name (``"screening.csv"``) is accepted too.
    """
    key = name.strip().lower()
    by_file = {e.filename: e for e in EXAMPLES.values()}
    example = EXAMPLES.get(key) or by_file.get(key)
    if example is None:
        raise KeyError(
            f"unknown example {name!r}; the bundled examples are: {', '.join(EXAMPLES)}"
        )
    resource = resources.files(__name__).joinpath(example.filename)
    if isinstance(resource, Path):
        return resource
    # installed in a zip archive: extract to a temporary file kept until exit
    return _files.enter_context(resources.as_file(resource))
