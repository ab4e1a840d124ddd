"""Writing the user's files safely: checked before any work, never over an input; and
the one check that an input file has rows (:func:`check_has_rows`, every engine).

The CLI and the HTML report write through :func:`write_text` (figures through
:func:`write_with`):

* an output that is one of the inputs (the same file under any spelling, a hard
  link or a symlink to it: compared by device and inode) is refused;
* a symlink is written through: its target gets the new content, the link stays;
  a symlink loop is refused (writing would replace one of its links);
* a FIFO, a device or another special file is opened and written directly (never
  replaced by a regular file); ``-`` is standard output;
* a regular file is replaced atomically (a temporary file in the same folder, then
  :func:`os.replace`), keeping its permissions; a failure leaves the old file as it
  was and no temporary file behind.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "PARQUET_SUFFIXES",
    "OutputError",
    "check_has_rows",
    "check_output",
    "check_writable",
    "is_stdout",
    "read_csv",
    "read_parquet",
    "rows_state",
    "same_output",
    "write_text",
    "write_with",
]

#: Parquet extensions (any other file is read as delimited text).
PARQUET_SUFFIXES = (".parquet", ".pq")

PathLike = str | os.PathLike[str]


class OutputError(OSError, ValueError):
    """An output file that cannot be written (an OSError, and a ValueError for a bad path
    argument); the message says why, in one line."""


def is_stdout(path: PathLike) -> bool:
    """Whether ``path`` is ``-``, standard output."""
    return os.fspath(path) == "-"


def _target(path: Path) -> Path:
    """Where writing ``path`` lands: a symlink's final target (which may not exist)."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _special(path: Path) -> bool:
    """An existing file that is not a regular file (FIFO, device, socket)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _check_not_a_loop(path: Path) -> None:
    """Refuse a path that is, or passes through, a symlink loop: writing "through" it
    would replace one of the links with a regular file."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OutputError(f"cannot write {path}: it is a symlink loop (its links lead "
                              "back to each other); remove the links or choose another "
                              "output file") from None


def same_output(a: PathLike, b: PathLike) -> bool:
    """Whether writing ``a`` and writing ``b`` land in the same file: the same existing
    file by device and inode (any spelling, a hard link, a symlink), or the same new
    file once symlinks and ``..`` are resolved. ``-`` is no file.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> d = Path(tempfile.mkdtemp())
    >>> same_output(d / "fig.png", d / "sub" / ".." / "fig.png")
    True
    >>> same_output(d / "fig.png", d / "other.png"), same_output("-", "-")
    (False, False)
    """
    if is_stdout(a) or is_stdout(b):
        return False
    with contextlib.suppress(OSError):
        if os.path.samefile(a, b):
            return True
    return os.path.realpath(a) == os.path.realpath(b)


def check_output(path: Path, inputs: Iterable[PathLike] = ()) -> None:
    """Fail early (before any work) when ``path`` cannot be an output file: its folder
    is missing, it is a directory, a symlink loop, or it is one of ``inputs`` (by device
    and inode, so another spelling, a hard link or a symlink is the same file).

    Examples
    --------
    >>> import os, tempfile
    >>> from pathlib import Path
    >>> d = Path(tempfile.mkdtemp())
    >>> (d / "data.csv").write_text("y,p\\n")
    4
    >>> check_output(d / "out.json", inputs=[d / "data.csv"])
    >>> check_output(d / "." / "data.csv", inputs=[d / "data.csv"])
    Traceback (most recent call last):
    ...
    binmetrics.io.OutputError: cannot write .../data.csv: it is the input .../data.csv (...
    """
    if is_stdout(path):
        return
    _check_not_a_loop(path)
    target = _target(path)
    if not target.parent.is_dir():
        raise OutputError(f"cannot write {path}: directory {str(target.parent)!r} does "
                          "not exist")
    if target.is_dir():
        raise OutputError(f"cannot write {path}: it is a directory")
    for item in inputs:
        try:
            same = os.path.samefile(target, item)
        except OSError:  # either does not exist: not the same file
            same = False
        if same:
            raise OutputError(f"cannot write {path}: it is the input {os.fspath(item)} "
                                  "(writing would replace the data); choose another "
                                  "output file")


def check_writable(path: PathLike, inputs: Iterable[PathLike] = ()) -> Path:
    """:func:`check_output`, then a probe: the folder takes a new file (a special file:
    it is open for writing to this user)."""
    p = Path(path)
    check_output(p, inputs)
    if is_stdout(p):
        return p
    target = _target(p)
    if _special(target):
        if not os.access(target, os.W_OK):
            raise OutputError(f"cannot write {p}: permission denied")
        return p
    try:
        fd, probe = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                     suffix=".tmp")
    except OSError as exc:
        raise OutputError(f"cannot write {p}: {exc.strerror or exc}") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
    return p


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_with(path: Path, write: Callable[[str], None], *, suffix: str = ".tmp",
               inputs: Iterable[PathLike] = ()) -> None:
    """Write ``path`` with ``write(filename)`` (e.g. ``fig.savefig``) safely.

    A regular file (or a new one) is written to a temporary file in the target's
    folder and renamed over it, keeping its permissions; a symlink's target is
    written, not the link; a FIFO or device is written directly. ``inputs`` are
    refused as in :func:`check_output`.
    """
    check_output(path, inputs)
    target = _target(path)
    if _special(target):
        try:
            write(os.fspath(target))
        except OSError as exc:
            raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
        return
    directory = target.parent
    mode = (target.stat().st_mode & 0o7777) if target.exists() else \
        (0o666 & ~_current_umask())
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=suffix)
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and not isinstance(exc, OutputError):
            raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise


def write_text(path: Path, text: str, inputs: Iterable[PathLike] = ()) -> None:
    """Write ``text`` to ``path`` as :func:`write_with` does; ``-`` is standard output.

    Examples
    --------
    >>> import os, tempfile
    >>> from pathlib import Path
    >>> d = Path(tempfile.mkdtemp())
    >>> (d / "target.txt").write_text("old")
    3
    >>> os.symlink(d / "target.txt", d / "link.txt")
    >>> write_text(d / "link.txt", "new")
    >>> (d / "target.txt").read_text(), (d / "link.txt").is_symlink()
    ('new', True)
    """
    if is_stdout(path):
        sys.stdout.write(text)
        sys.stdout.flush()
        return

    def write(name: str) -> None:
        with open(name, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            if not _special(Path(name)):
                os.fsync(f.fileno())

    write_with(path, write, inputs=inputs)


# --- inputs without rows --------------------------------------------------------------------
def rows_state(path: PathLike, delimiter: str = ",") -> tuple[list[str] | None, bool]:
    r"""(header, whether a data row follows) of a local table file, reading only its
    start (of Parquet, its footer); header None when a text file is empty or blank.
    ``delimiter`` ``r"\s+"`` splits the header on white space."""
    import csv

    p = Path(path)
    if p.suffix.lower() in PARQUET_SUFFIXES:
        import pyarrow.parquet as pq

        meta = pq.read_metadata(p)
        names = [n for n in meta.schema.names if not n.startswith("__index_level_")]
        return names, meta.num_rows > 0
    with open(p, encoding="utf-8", newline="", errors="replace") as f:
        lines = [line for line in (f.readline() for _ in range(64)) if line.strip()][:2]
    if not lines:
        return None, False
    if delimiter == r"\s+":
        header = lines[0].split()
    else:
        header = [h.strip() for h in next(csv.reader([lines[0]], delimiter=delimiter), [])]
    return header, len(lines) > 1


def check_has_rows(paths: Iterable[PathLike], delimiter: str = ",") -> None:
    """Raise ValueError when a local input has no rows, with the same words on every
    engine and front door: an empty text file "has no header and no rows"; a file with
    only its header (Parquet: its schema) "has no rows". Of several files (a glob) it
    fails only when none has a row. Files it cannot read pass (their reader says why).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> (d / "h.csv").write_text("y,p\\n")
    4
    >>> check_has_rows([d / "h.csv"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: .../h.csv has no rows: the file holds only its header (y, p)
    """
    states = []
    for path in paths:
        try:
            states.append((Path(path), *rows_state(path, delimiter)))
        except Exception:  # unreadable: the engine's reader reports it in its own words
            return
    if not states or any(has_rows for _, _, has_rows in states):
        return
    path, header, _ = states[0]
    if header is None:
        raise ValueError(f"{path} is empty: the file has no header and no rows")
    what = "schema" if path.suffix.lower() in PARQUET_SUFFIXES else "header"
    raise ValueError(f"{path} has no rows: the file holds only its {what} "
                     f"({', '.join(header[:10])})")


def read_parquet(path: PathLike, columns: list[str] | None = None) -> pd.DataFrame:
    """A Parquet file as a DataFrame, read by pyarrow from its path.

    Not ``pandas.read_parquet``: for a local file it hands pyarrow an open Python file
    object, and pyarrow's thread pool then sometimes aborts the process as it exits
    ("terminate called without an active exception", apache/arrow#34314 and #50482).
    The CLI hit it once in 40 runs; read from the path, not once in 150."""
    import pyarrow.parquet as pq

    return pq.read_table(os.fspath(path), columns=columns).to_pandas()


def read_csv(source: PathLike | IO[str], **options: Any) -> pd.DataFrame:
    """:func:`pandas.read_csv` with every number exactly as written.

    pandas before 3.1 parses floats with a converter that can be 1 ulp off unless given
    ``float_precision="round_trip"``; pandas 3.1 parses them exactly with every
    converter and deprecates the argument (a warning on each call), so it is passed
    only to the versions that need it.

    Examples
    --------
    >>> import io
    >>> read_csv(io.StringIO("p\\n0.1\\n0.30000000000000004\\n"))["p"].tolist()
    [0.1, 0.30000000000000004]
    """
    import pandas as pd

    if _inexact_floats(pd.__version__):
        options.setdefault("float_precision", "round_trip")
    return pd.read_csv(source, **options)


def _inexact_floats(version: str) -> bool:
    """Whether this pandas version's default float parser can be off by an ulp.

    >>> _inexact_floats("2.3.3"), _inexact_floats("3.0.1"), _inexact_floats("3.1.0rc0")
    (True, True, False)
    """
    found = re.match(r"(\d+)\.(\d+)", version)
    return found is None or (int(found[1]), int(found[2])) < (3, 1)
