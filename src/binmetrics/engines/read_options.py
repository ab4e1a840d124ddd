"""``read_options``: the options of DuckDB's file readers a caller may set, checked.

They were pasted into the SQL that opens the files, so a key could close the call
and read another file (issue 34). Now a key must be one of the reader's own options
named in :data:`READ_OPTIONS` (and is quoted as an identifier); a value is a plain
scalar passed to DuckDB as a query parameter.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["READ_OPTIONS", "check_read_options"]

#: the options of DuckDB's readers that ``read_options`` may set, by format: how the
#: text is parsed and the files combined. Not the options binmetrics sets itself
#: (``filename``, ``file_row_number``, ``types``), nor those that write tables
#: (``store_rejects``, ``rejects_table``), size buffers (``buffer_size``) or take
#: structured values (``columns``, ``schema``, ``encryption_config``...)
READ_OPTIONS = {
    "csv": frozenset({
        "sep", "delim", "separator", "delimiter", "quote", "escape", "new_line", "header",
        "skip", "comment", "decimal_separator", "thousands", "dateformat", "date_format",
        "timestampformat", "timestamp_format", "nullstr", "null_padding",
        "allow_quoted_nulls", "ignore_errors", "all_varchar", "auto_detect", "sample_size",
        "normalize_names", "compression", "encoding", "strict_mode", "max_line_size",
        "maximum_line_size", "parallel", "union_by_name", "hive_partitioning",
        "hive_types_autocast", "files_to_sniff"}),
    "parquet": frozenset({
        "binary_as_string", "union_by_name", "hive_partitioning", "hive_types_autocast",
        "can_have_nan", "utf8_validation", "int96_as"}),
}
_OPTION_NAME = re.compile(r"[a-z_][a-z0-9_]*\Z")


def check_read_options(options: Mapping[str, Any] | None, fmt: str) -> dict[str, Any]:
    """``read_options``, checked: each key one of :data:`READ_OPTIONS` of the format,
    each value a plain str, int, finite float or bool (passed to DuckDB as a query
    parameter, never pasted into the SQL).

    Examples
    --------
    >>> check_read_options({"delim": ";", "header": True}, "csv")
    {'delim': ';', 'header': True}
    >>> check_read_options({"binary_as_string = true) t(a), read_csv('x'": 1}, "parquet")
    Traceback (most recent call last):
    ...
    ValueError: read_options key "binary_as_string = true) t(a), read_csv('x'" is not ...
    """
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise TypeError(f"read_options must be a mapping of option names to values; got "
                        f"{type(options).__name__}")
    allowed = READ_OPTIONS[fmt]
    reader = "read_parquet" if fmt == "parquet" else "read_csv"
    out: dict[str, Any] = {}
    for key, value in options.items():
        name = str.lower(key) if isinstance(key, str) else key
        if not isinstance(key, str) or not _OPTION_NAME.match(name) or name not in allowed:
            shown = key if isinstance(key, str) else repr(key)
            raise ValueError(f"read_options key {shown!r} is not an option of DuckDB's "
                             f"{reader} that binmetrics passes on; use one of "
                             f"{', '.join(sorted(allowed))}")
        if isinstance(value, bool):
            value = bool(value)
        elif isinstance(value, int):
            value = int.__index__(value)
        elif isinstance(value, float) and math.isfinite(value):
            value = float.__float__(value)
        elif isinstance(value, str):
            value = str.__str__(value)
        else:
            raise TypeError(f"read_options[{name!r}] must be a str, int, finite float or "
                            f"bool; got {value!r}")
        out[name] = value
    return out
