"""Writing the user's files safely: checked before any work, written atomically.

The CLI and the HTML report write through :func:`write_text`; a failure leaves the old
file as it was and no temporary file behind.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

__all__ = ["OutputError", "check_output", "check_writable", "write_text"]


class OutputError(OSError, ValueError):
    """An output file that cannot be written (an OSError, and a ValueError for a bad path
    argument); the message says why, in one line."""


def check_output(path: Path) -> None:
    """Fail early (before any work) when ``path`` cannot be an output file."""
    if not path.parent.is_dir():
        raise OutputError(f"cannot write {path}: directory {str(path.parent)!r} does not exist")
    if path.is_dir():
        raise OutputError(f"cannot write {path}: it is a directory")


def check_writable(path: str | os.PathLike[str]) -> Path:
    """:func:`check_output`, then a probe file in the folder: it takes a new file."""
    p = Path(path)
    check_output(p)
    try:
        fd, probe = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.", suffix=".tmp")
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


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file in the same folder and os.replace,
    keeping an existing file's permissions."""
    check_output(path)
    directory = path.parent
    mode = (path.stat().st_mode & 0o7777) if path.exists() else (0o666 & ~_current_umask())
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and not isinstance(exc, OutputError):
            raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise
