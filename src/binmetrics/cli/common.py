"""What the subcommands of the ``binmetrics`` command share.

The error every subcommand raises (:class:`CLIError`), the help layout, the
``--format``/``--output`` options, reading a CSV/TSV/TXT or Parquet file,
``--pos-label`` conversion, the library's messages in the CLI's terms, and the
output helpers: aligned tables, JSON and CSV values. Numbers are formatted by
:func:`binmetrics.formatting.format_number` and output is written by
:mod:`binmetrics.io`.
"""

from __future__ import annotations

import argparse
import codecs
import csv
import difflib
import io
import math
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from binmetrics.exceptions import one_line
from binmetrics.io import PARQUET_SUFFIXES, read_csv, read_parquet
from binmetrics.io import check_has_rows as io_check_has_rows

if TYPE_CHECKING:  # pandas loads with the commands that read files (start-up: issue 18)
    import pandas as pd

__all__ = [
    "DIRECTION",
    "FORMATS",
    "PARQUET_SUFFIXES",
    "PROG",
    "TEXT_SUFFIXES",
    "CLIError",
    "Columns",
    "add_case_options",
    "add_format_and_output",
    "align",
    "check_columns",
    "check_has_rows",
    "check_input_file",
    "check_options",
    "check_outputs",
    "check_text",
    "check_text_inputs",
    "cli_message",
    "convert_pos_label",
    "csv_value",
    "help_formatter",
    "input_files",
    "json_value",
    "one_line",
    "ragged_line",
    "read_columns",
    "sniff_delimiter",
    "text_problem",
    "unknown_type",
]

#: The name of the command, in usage lines, messages and examples.
PROG = "binmetrics"
#: The choices of ``--format``.
FORMATS = ("table", "json", "csv")
#: Delimited-text extensions and the delimiter used when sniffing cannot tell.
TEXT_SUFFIXES = {".csv": ",", ".tsv": "\t", ".txt": ","}
#: A measure's direction (+1, -1, 0) in words.
DIRECTION = {1: "higher", -1: "lower", 0: "none"}
_SNIFF_BYTES = 1 << 16


class CLIError(Exception):
    """A user error reported as ``binmetrics: error: <message>`` with exit status 2."""


@dataclass(frozen=True)
class Columns:
    """The columns of a scored file, named in messages instead of the library's
    argument names (see :func:`cli_message`)."""

    label: str
    score: str
    weight: str | None


# --- argument parsing ----------------------------------------------------------------
def help_formatter(prog: str) -> argparse.RawDescriptionHelpFormatter:
    """The help layout of every (sub)parser: epilogs as written, options at column 32."""
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=32)


def add_format_and_output(p: argparse.ArgumentParser) -> None:
    """Add ``--format table|json|csv`` and ``-o/--output PATH`` to a subcommand."""
    p.add_argument("--format", choices=FORMATS, default="table",
                   help="output format (default: %(default)s)")
    p.add_argument("-o", "--output", metavar="PATH", type=Path,
                   help="write to PATH (atomically) instead of stdout")


def resample_count(text: str) -> int:
    """``--resamples``: a whole number; its range (at least 1, within the bound every
    resampling function keeps) is :func:`check_options`' to say, in one line, before
    any data is read."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number such as 2000, got "
                                         f"{text!r}") from None


MEASURE_SYNTAX = ("comma-separated measure ids, aliases or named sets; a parameter as "
                  "id(param=value,...), e.g. 'bedroc(alpha=80.5)'; 'help' lists them")


class MeasuresOption(argparse.Action):
    """``--measures``: the text as given; ``--measures help`` prints every measure's
    parameters with their defaults and the syntax, then exits (as ``--help``)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        if isinstance(values, str) and values.strip().lower() == "help":
            sys.stdout.write(measure_parameters_text(option_string or "--measures"))
            parser.exit(0)
        setattr(namespace, self.dest, values)


def measure_parameters_text(option: str) -> str:
    """The text of ``--measures help``: the measures that take parameters, their
    parameters and defaults (from the registry), and how to pass them."""
    from binmetrics.measures.registry import PRESETS, iter_measures

    body = [[m.id, ", ".join(f"{k}={v!r}" for k, v in m.params.items())]
            for m in iter_measures() if m.params]
    return (f"{option} takes comma-separated measure ids or aliases ('{PROG} measures' "
            f"lists them all) or named sets ({', '.join(PRESETS)}).\n"
            f"Give a measure other parameters as id(param=value, ...), e.g.\n"
            f"  {option} 'auc,bedroc(alpha=80.5),enrichment_factor(fraction=0.05)'\n"
            f"  {option} 'partial_auc(fpr=(0, 0.1)),ici(max_rows=none)'\n"
            "Values: numbers, none, true, false, words or quoted strings, tuples (a, b).\n"
            "The measures with parameters (defaults shown):\n\n"
            + align(["id", "parameters"], body, right=[]))


def measure_list(spec: str, option: str = "--measures") -> list[str]:
    """The measure names of a ``--measures`` value (commas inside ``id(...)`` kept);
    an empty list is an error."""
    from binmetrics.measures.registry import split_measure_list

    names = split_measure_list(spec)
    if not names:
        raise CLIError(f"{option} is empty; give comma-separated ids, e.g. auc,mcc")
    return names


def add_interval_options(p: argparse.ArgumentParser, *,
                         ci_help: str = "add confidence intervals",
                         level_help: str = "confidence level",
                         resamples_help: str = "bootstrap replicates",
                         seed_help: str = "random seed of the bootstrap") -> None:
    """Add ``--ci``, ``--ci-level``, ``--resamples`` and ``--seed``, the interval options
    every command with bootstrap intervals shares (defaults 0.95, 2000, no seed); each
    command words what they apply to."""
    p.add_argument("--ci", action="store_true", help=ci_help)
    p.add_argument("--ci-level", type=float, default=0.95, metavar="L",
                   help=f"{level_help} (default: %(default)s)")
    p.add_argument("--resamples", type=resample_count, default=2000, metavar="N",
                   help=f"{resamples_help} (default: %(default)s)")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help=f"{seed_help} (default: none)")


def add_case_options(p: argparse.ArgumentParser, *, weight: bool = True,
                     nan_help: str = "NaN/inf scores: an error, or drop those rows",
                     orientation: bool = True) -> None:
    """Add the options every command that scores cases shares, in this order:
    ``--threshold``, ``--lower-is-positive`` (unless ``orientation=False``),
    ``--weight`` (unless ``weight=False``), ``--pos-label``, ``--nan-policy``."""
    # here, not at the top: the top-level --help must not load the evaluation layer
    from binmetrics.evaluation.options import DEFAULTS

    p.add_argument("--threshold", type=float, default=DEFAULTS.threshold, metavar="T",
                   help="score >= T is predicted positive (default: %(default)s)")
    if orientation:
        p.add_argument("--lower-is-positive", action="store_true",
                       help="lower scores mean more likely positive (docking scores, "
                            "distances): score <= T is predicted positive")
    if weight:
        p.add_argument("--weight", metavar="COL", help="column of non-negative case weights")
    p.add_argument("--pos-label", metavar="VALUE",
                   help="label of the positive class (needed unless labels are 0/1, "
                        "-1/1 or true/false)")
    p.add_argument("--nan-policy", choices=("raise", "omit"), default="raise",
                   help=f"{nan_help} (default: %(default)s)")


# --- reading data --------------------------------------------------------------------
def _unique(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _binary(path: Path, offset: int) -> str:
    return (f"{path} is not a text table: it holds binary data (a NUL byte at offset "
            f"{offset}); give a CSV/TSV/TXT file in UTF-8 or a Parquet file")


def _not_utf8(path: Path, exc: UnicodeDecodeError, lines_before: int) -> str:
    data = exc.object  # the block decoded (a partial character held back is no newline)
    line = lines_before + bytes(data).count(b"\n", 0, exc.start) + 1
    return (f"{path} is not UTF-8 text: byte 0x{data[exc.start]:02x} on line {line} cannot "
            "be decoded; save the file as UTF-8 (e.g. iconv -f LATIN1 -t UTF-8)")


def check_text(path: Path, whole: bool = False) -> None:
    """Fail unless the delimited-text file ``path`` is UTF-8 text, judged from its first
    64 KiB (``whole``: from all of it, read in blocks): a Parquet file under a text
    extension, a binary file and a file in another encoding are each named as such, in
    one line, whatever the engine (their own errors differ, or crash the sniffing)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    lines = offset = 0
    with open(path, "rb") as f:
        data = f.read(_SNIFF_BYTES)
        if data.startswith(b"PAR1"):
            raise CLIError(f"{path} is a Parquet file, not delimited text: name it "
                           f"{path.with_suffix('.parquet').name!r}")
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            raise CLIError(f"{path} is UTF-16 text; save it as UTF-8 (e.g. iconv -f UTF-16 "
                           "-t UTF-8)")
        while data:
            last = len(data) < _SNIFF_BYTES or not whole
            if b"\x00" in data:
                raise CLIError(_binary(path, offset + data.index(b"\x00")))
            try:
                decoder.decode(data, final=last and len(data) < _SNIFF_BYTES)
            except UnicodeDecodeError as exc:
                raise CLIError(_not_utf8(path, exc, lines)) from None
            if last:
                return
            offset += len(data)
            lines += data.count(b"\n")
            data = f.read(_SNIFF_BYTES)


def sniff_delimiter(path: Path, default: str) -> str:
    """The delimiter of a text table, from its first 64 KiB.

    ``default`` when the file is empty or sniffing cannot tell; ``r"\\s+"`` for
    whitespace-aligned columns. A file that is not UTF-8 text is a :class:`CLIError`
    saying what it is (:func:`check_text`).
    """
    check_text(path)
    with open(path, encoding="utf-8", newline="", errors="replace") as f:
        sample = f.read(_SNIFF_BYTES)
    if len(sample) == _SNIFF_BYTES and "\n" in sample:
        sample = sample[: sample.rindex("\n")]  # no partial last line
    if not sample.strip():
        return default
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
    except csv.Error:
        pass
    first = sample.lstrip().splitlines()[0]
    if len(first.split()) > 1 and default not in first:
        return r"\s+"  # whitespace-aligned columns
    return default


def check_columns(path: Path, available: Sequence[str], wanted: Sequence[str],
                  roles: dict[str, str] | None = None) -> None:
    """Fail, naming the first missing column (its role, a close match), unless every
    ``wanted`` column is ``available`` in the file at ``path``: the message of the
    file engines (:func:`binmetrics.engines._common.check_names`), word for word."""
    missing = [c for c in wanted if c not in available]
    if not missing:
        return
    col = missing[0]
    role = f"{roles[col]} " if roles and col in roles else ""
    close = difflib.get_close_matches(col, list(available), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    shown = ", ".join(available[:30]) + (f", ... ({len(available)} in all)"
                                          if len(available) > 30 else "")
    raise CLIError(f"{role}column {col!r} not found in {str(path)!r}{hint}; available "
                   f"columns: {shown or '(none)'}")


def check_input_file(path: Path) -> str:
    """Fail unless ``path`` is an existing file; returns its suffix in lower case."""
    if not path.exists():
        raise CLIError(f"{path}: no such file")
    if path.is_dir():
        raise CLIError(f"{path} is a directory, not a data file")
    return path.suffix.lower()


def unknown_type(path: Path) -> CLIError:
    """The error for a file whose extension says nothing readable."""
    return CLIError(f"cannot read {path}: unknown file type "
                    f"{path.suffix or '(no extension)'!r}; use "
                    f"{', '.join([*TEXT_SUFFIXES, *PARQUET_SUFFIXES])}")


def read_columns(path: Path, columns: Sequence[str],
                 roles: dict[str, str] | None = None) -> pd.DataFrame:
    """Read ``columns`` of a CSV/TSV/TXT or Parquet file (by extension); ``roles``
    (column -> "label", "score"...) name them in the message of a missing one."""
    import pandas as pd

    columns = _unique(columns)
    suffix = check_input_file(path)
    try:
        if suffix in PARQUET_SUFFIXES:
            import pyarrow.parquet as pq

            names = pq.read_schema(path).names
            available = [n for n in names if not n.startswith("__index_level_")]
            check_columns(path, available, columns, roles)
            check_has_rows([path])
            return read_parquet(path, columns=columns)
        if suffix in TEXT_SUFFIXES:
            check_has_rows([path])
            sep = sniff_delimiter(path, TEXT_SUFFIXES[suffix])
            available = [str(c) for c in pd.read_csv(path, sep=sep, nrows=0).columns]
            check_columns(path, available, columns, roles)
            if _has_long_line(path, sep):  # pandas would drop the extra fields
                raise CLIError(ragged_line(path) or f"{path} has a line with more fields "
                               "than its header; fix that line")
            return read_csv(path, sep=sep, usecols=columns)  # the scores as written
    except CLIError:
        raise
    except Exception as exc:  # any reader failure means the file is unreadable
        raise CLIError(f"cannot read {path}: {one_line(exc)}") from None
    raise unknown_type(path)


def _text_tables(args: argparse.Namespace, limit: int = 20,
                 suffixes: Sequence[str] = tuple(TEXT_SUFFIXES)) -> list[Path]:
    """The local delimited-text inputs of a command (the first ``limit`` of a glob)."""
    out = []
    for name in input_files(args)[:limit]:
        p = Path(name)
        if p.suffix.lower() in suffixes and p.is_file():
            out.append(p)
    return out


def _header_and_first_row(path: Path) -> tuple[str, list[str], bool]:
    """(delimiter, header fields, whether a data row follows), from the file's start."""
    sep = sniff_delimiter(path, TEXT_SUFFIXES[path.suffix.lower()])
    with open(path, encoding="utf-8", newline="", errors="replace") as f:
        lines = [line for line in (f.readline() for _ in range(64)) if line.strip()][:2]
    if not lines:
        return sep, [], False
    if sep == r"\s+":
        return sep, lines[0].split(), len(lines) > 1
    limit = csv.field_size_limit(1 << 30)  # a header is one line, whatever its length
    try:
        header = next(csv.reader([lines[0]], delimiter=sep), [])
    finally:
        csv.field_size_limit(limit)
    return sep, header, len(lines) > 1


def check_has_rows(paths: Sequence[Path]) -> None:
    """:func:`binmetrics.io.check_has_rows` (the one check, every engine) as a CLI error,
    the header split as the CLI reads it."""
    paths = list(paths)
    text = [p for p in paths if p.suffix.lower() in TEXT_SUFFIXES]
    sep = sniff_delimiter(text[0], TEXT_SUFFIXES[text[0].suffix.lower()]) if text else ","
    try:
        io_check_has_rows(paths, sep)
    except ValueError as exc:
        raise CLIError(str(exc)) from None


def _wanted_columns(args: argparse.Namespace) -> dict[str, str]:
    """The columns a command line names (column -> its option)."""
    out: dict[str, str] = {}
    for opt in ("label", "score", "weight", "by"):
        value = getattr(args, opt, None)
        if isinstance(value, str):
            out.update({c: f"--{opt}" for c in value.split(",") if c})
    return out


def _check_spaced_names(path: Path, header: Sequence[str], args: argparse.Namespace) -> None:
    """A column the command names whose header name has spaces around it is an error on
    every engine (DuckDB trims header names where pandas keeps them, so one engine
    would find the column and another not, or find it under another name)."""
    wanted = _wanted_columns(args)
    for name in header:
        bare = name.strip()
        if name != bare and (bare in wanted or name in wanted):
            option = wanted.get(bare, wanted.get(name))
            raise CLIError(f"the header of {path} names the column {name!r}, with spaces "
                           f"around {bare!r} ({option} {bare}): remove the spaces from the "
                           "header")


def check_text_inputs(args: argparse.Namespace) -> None:
    """Before any engine reads them, the same checks of every local input on every
    engine (only the header and the first row are read; of Parquet, the footer): a
    column name given twice in a CSV/TSV/TXT header is an error, and so is an input
    without rows (:func:`check_has_rows`)."""
    for path in _text_tables(args):
        _, raw, _ = _header_and_first_row(path)
        _check_spaced_names(path, raw, args)
        header = [h.strip() for h in raw]
        seen: dict[str, int] = {}
        for i, name in enumerate(header, 1):
            if name in seen:
                raise CLIError(f"column {name!r} appears twice in the header of {path} (fields "
                               f"{seen[name]} and {i}); rename one of them")
            seen[name] = i
    check_has_rows(_text_tables(args, suffixes=(*TEXT_SUFFIXES, *PARQUET_SUFFIXES)))


def ragged_line(path: Path) -> str | None:
    """Which line of the CSV/TSV/TXT file ``path`` has more or fewer fields than its
    header, as a message; None when none has (the whole file is scanned)."""
    sep, header, _ = _header_and_first_row(path)
    if not header:
        return None
    limit = csv.field_size_limit(1 << 30)  # a long field is not the problem looked for
    try:
        with open(path, encoding="utf-8", newline="", errors="replace") as f:
            rows = (line.split() for line in f) if sep == r"\s+" else \
                csv.reader(f, delimiter=sep)
            for number, row in enumerate(rows, 1):
                if number > 1 and row and len(row) != len(header):
                    what = "a value or a delimiter is missing" if len(row) < len(header) \
                        else "a value has no column, or holds an unquoted delimiter"
                    return (f"line {number} of {path} (data row {number - 1}; the first "
                            f"data row is 1) has {plural_fields(len(row))} where the header "
                            f"has {len(header)}: the file is ragged ({what}); fix that line")
    finally:
        csv.field_size_limit(limit)
    return None


def _every_line_full(path: Path, sep: bytes, most: int) -> bool:
    """Whether the delimiters of ``path`` number exactly ``most`` per line, in total (the
    quick test: bytes.count; a short line offsetting a long one errs later, on its
    missing value, and the error names the ragged line)."""
    n_sep = n_lines = 0
    last = b"\n"
    with open(path, "rb") as f:
        while block := f.read(1 << 24):  # quoted delimiters or newlines: a mismatch
            n_sep += block.count(sep)
            n_lines += block.count(b"\n")
            last = block[-1:]
    return n_sep == most * (n_lines + (last != b"\n"))


def _has_long_line(path: Path, sep: str) -> bool:
    """Whether a line of ``path`` has more fields than its header. Without quotes in the
    file, by counting delimiters per line in blocks (NumPy: a 100 MB file in a fraction of
    a second); else by :func:`ragged_line`'s scan."""
    import numpy as np

    if len(sep) != 1 or ord(sep) > 127:
        return ragged_line(path) is not None
    _, header, _ = _header_and_first_row(path)
    most = len(header) - 1  # delimiters on a line of the header's width
    if _every_line_full(path, sep.encode(), most):
        return False
    carry = b""
    with open(path, "rb") as f:
        while True:
            block = f.read(1 << 24)
            data = carry + block
            if b'"' in data:  # a quoted field may hold delimiters and newlines
                return ragged_line(path) is not None
            cut = len(data) if not block else data.rfind(b"\n") + 1
            arr = np.frombuffer(data[:cut] + (b"" if block else b"\n"), np.uint8)
            ends = np.flatnonzero(arr == 10)
            per_line = np.diff(np.searchsorted(np.flatnonzero(arr == ord(sep)), ends),
                               prepend=0)
            if per_line.size and int(per_line.max()) > most:
                return True
            if not block:
                return False
            carry = data[cut:]


def text_problem(args: argparse.Namespace) -> str | None:
    """After an error: what is wrong with a CSV/TSV/TXT input (bytes that are not UTF-8
    text anywhere in it, a ragged line), as a message, so that every engine names the
    cause rather than what it made of it; None when nothing is (or cannot be read)."""
    for path in _text_tables(args, limit=5):
        try:
            check_text(path, whole=True)
            found = ragged_line(path)
        except CLIError as exc:
            return str(exc)
        except (OSError, csv.Error):
            continue
        if found is not None:
            return found
    return None


def plural_fields(k: int) -> str:
    return f"{k} field{'' if k == 1 else 's'}"


def convert_pos_label(value: str, column: pd.Series) -> Any:
    """``--pos-label`` as a value of the label column's type ("1" -> 1 for integers)."""
    import numpy as np
    import pandas as pd

    dtype = column.dtype
    name = column.name
    if pd.api.types.is_bool_dtype(dtype):
        v = value.strip().lower()
        if v in ("true", "1", "yes", "t", "y"):
            return True
        if v in ("false", "0", "no", "f", "n"):
            return False
        raise CLIError(f"--pos-label {value!r} is not a boolean, but column {name!r} "
                       "holds true/false labels")
    if pd.api.types.is_integer_dtype(dtype):
        try:
            return int(value)
        except ValueError:
            pass
        try:
            f = float(value)
        except ValueError:
            f = math.nan
        if f.is_integer():
            return int(f)
        raise CLIError(f"--pos-label {value!r} is not an integer, but column {name!r} "
                       f"holds integer labels")
    if pd.api.types.is_float_dtype(dtype):
        try:
            return float(value)
        except ValueError:
            raise CLIError(f"--pos-label {value!r} is not a number, but column {name!r} "
                           "holds numeric labels") from None
    # strings, objects, categories: the distinct value that prints as VALUE
    for v in pd.unique(column.dropna()):
        if str(v) == value:
            return v.item() if isinstance(v, np.generic) else v
    return value


# --- messages ------------------------------------------------------------------------
def _data_rows(m: re.Match[str]) -> str:
    """0-based row positions as data rows counted from 1 ("data row 1" is the first row
    under a CSV header, so CSV line 2)."""
    shown = ", ".join(p if p == "..." else str(int(p) + 1)
                      for p in (x.strip() for x in m.group(1).split(",")))
    return f"data rows [{shown}] (the first data row is 1)"


def cli_message(text: str, cols: Columns | None = None) -> str:
    """A library message in the CLI's terms: option names, column names.

    >>> cli_message("y_score has NaN; use nan_policy='omit'", Columns("y", "p", None))
    "score column 'p' has NaN; use --nan-policy omit"
    >>> cli_message("NaN at rows [0, 4, ...] (0-based)")
    'NaN at data rows [1, 5, ...] (the first data row is 1)'
    >>> cli_message("threshold 1.5 is outside the scores' range [0, 1]: ...")
    "--threshold 1.5 is outside the scores' range [0, 1]: ..."
    >>> cli_message("scores['p_a'] has 1 non-finite value")  # a model of compare
    "score column 'p_a' has 1 non-finite value"

    """
    text = re.sub(r"; for a multiclass classifier pass its probability matrix.*$",
                  "; the command line evaluates binary classifiers (a label column with "
                  "two values)", text)
    text = re.sub(r"\brows \[([0-9, .]+)\] \(0-based\)", _data_rows, text)
    text = text.replace("nan_policy='omit'", "--nan-policy omit")
    text = re.sub(r"\bscores\[('[^']*')\]", r"score column \1", text)  # the models' columns
    text = re.sub(r"^threshold (\S+) is outside", r"--threshold \1 is outside", text)
    text = text.replace("bm.measure_catalogue() lists", f"'{PROG} measures' lists")
    text = text.replace("pos_label= ", "--pos-label ").replace("pos_label=", "--pos-label ")
    text = text.replace("directions=", "--directions")
    if cols is not None:
        names = {"y_true": f"label column {cols.label!r}",
                 "y_score": f"score column {cols.score!r}"}
        if cols.weight is not None:
            names["sample_weight"] = f"weight column {cols.weight!r}"
        pattern = r"\b(" + "|".join(names) + r")\b"
        text = re.sub(pattern, lambda m: names[m.group(1)], text)  # one pass
    return text


# --- output --------------------------------------------------------------------------
#: the options of any subcommand that name a file it writes, and their flags
OUTPUT_OPTIONS = {"output": "-o", "html": "-o", "plot": "--plot", "covat": "--covat"}


def input_files(args: argparse.Namespace) -> list[str]:
    """The files a command reads (``FILE``; a glob: the files it matches; ``--example``:
    the bundled file, an input like any other)."""
    import glob

    example = getattr(args, "example", None)
    if isinstance(example, str):
        from binmetrics.data import example_path

        return [os.fspath(example_path(example))]
    file = getattr(args, "file", None)
    if not isinstance(file, (str, os.PathLike)):
        return []
    name = os.fspath(file)
    if "://" in name:
        return []
    return sorted(glob.glob(name, recursive=True)) if glob.has_magic(name) else [name]


def check_outputs(args: argparse.Namespace) -> list[str]:
    """Before any work: every output option of the command can be written (its folder
    takes a new file), none is an input and no two are the same file (by inode, whatever
    their spelling or links); returns the inputs, for the writes to check again."""
    from binmetrics.io import check_writable, same_output

    inputs = input_files(args)
    seen: list[tuple[str, Path]] = []
    for name, flag in OUTPUT_OPTIONS.items():
        out = getattr(args, name, None)
        if not isinstance(out, (str, os.PathLike)):
            continue
        path = Path(out)
        check_writable(path, inputs)
        for other_flag, other in seen:
            if same_output(path, other):
                raise CLIError(f"{other_flag} {other} and {flag} {path} are the same file "
                               "(one would replace the other); give each output its own "
                               "file")
        seen.append((flag, path))
    return inputs


def check_options(args: argparse.Namespace) -> None:
    """Before any data is read: the options shared by several commands hold values that
    can work (a confidence level in (0, 1), a positive resample count), then the
    command's own ``check(args)`` if it has one."""
    level = getattr(args, "ci_level", None)
    if level is not None and not (math.isfinite(level) and 0 < level < 1):
        raise CLIError(f"--ci-level must be strictly between 0 and 1 (e.g. 0.95); "
                       f"got {level}")
    resamples = getattr(args, "resamples", None)
    if resamples is not None and resamples < 1:
        raise CLIError(f"--resamples must be a positive whole number (e.g. 2000); "
                       f"got {resamples}")
    if resamples is not None:
        from binmetrics.validation import check_resamples  # not at the top: --help is light

        try:
            check_resamples(resamples, "--resamples")
        except ValueError as e:
            raise CLIError(str(e)) from None
    check: Callable[[argparse.Namespace], None] | None = getattr(args, "check", None)
    if check is not None:
        check(args)


def missing_package(exc: ImportError, command: str) -> str:
    """The one-line message for an optional package that ``command`` needs and cannot
    import: the library's own (it names the extra) or one naming the extra that
    installs the module (:data:`binmetrics.backends.EXTRAS`)."""
    from binmetrics.backends import missing_extra

    text = one_line(exc)
    if "pip install" in text or not exc.name:
        return text
    return str(missing_extra(exc.name, f"{PROG} {command}"))


def require_extra(module: str, option: str) -> None:
    """Before any data is read: ``option`` (e.g. ``--plot``) needs the optional
    ``module``; a one-line CLI error naming its extra if it is not installed."""
    from binmetrics.backends import require

    try:
        require(module, option)
    except ImportError as exc:
        raise CLIError(str(exc)) from None


def csv_value(v: float) -> str:
    """A number in CSV output: in full (``repr``), NaN as ``NaN``.

    >>> csv_value(2 / 3), csv_value(float("nan"))
    ('0.6666666666666666', 'NaN')
    """
    return "NaN" if math.isnan(v) else repr(float(v))


def json_value(v: Any) -> Any:
    """A value for strict JSON: NaN as null, infinities as the strings
    ``"Infinity"``/``"-Infinity"``; anything else as is.

    >>> json_value(float("nan")), json_value(-float("inf")), json_value(0.5)
    (None, '-Infinity', 0.5)
    """
    if isinstance(v, float):
        if math.isnan(v):
            return None
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
    return v


def align(header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[int]) -> str:
    """A table laid out by rich: a bold header over a rule, the columns numbered in
    ``right`` right-aligned. Cells are plain text (no markup), and lines never wrap, so
    the output stays greppable."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                  header_style="bold", expand=False)
    for i, name in enumerate(header):
        table.add_column(Text(name), justify="right" if i in right else "left",
                         no_wrap=True)
    for r in rows:
        table.add_row(*(Text(cell) for cell in r))
    buf = io.StringIO()
    Console(file=buf, width=100_000, color_system=None, force_terminal=False,
            legacy_windows=False).print(table)
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines()) + "\n"
