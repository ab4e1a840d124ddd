"""The warning for a threshold outside the scores' range (every case is then predicted
the same class), shared by every entry point that cuts scores at a threshold:
:func:`binmetrics.evaluate` and its engines, :func:`binmetrics.compare`, the CLI."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

from binmetrics.exceptions import warn_at_user
from binmetrics.formatting import format_number

if TYPE_CHECKING:
    from binmetrics.table.counts import CountTable

__all__ = ["DEFAULT_THRESHOLD", "threshold_range_message", "threshold_unread",
           "warn_threshold_range"]

#: the default threshold of every entry point; compared by identity (``threshold is
#: DEFAULT_THRESHOLD``) to tell the default from a 0.5 the user gave
DEFAULT_THRESHOLD = 0.5

_UNREAD: ContextVar[bool] = ContextVar("binmetrics_threshold_unread", default=False)


@contextmanager
def threshold_unread() -> Iterator[None]:
    """Within it, nothing will read the threshold (``bm.score`` of a measure outside the
    confusion family), so its range is not checked: a warning about a cut that no
    result uses would be noise."""
    token = _UNREAD.set(True)
    try:
        yield
    finally:
        _UNREAD.reset(token)


def threshold_range_message(table: CountTable, threshold: float, *,
                            higher_is_positive: bool = True,
                            default: bool = False) -> str | None:
    """The warning's text when ``threshold`` lies outside the scores' range of
    ``table``, else None. ``default``: the threshold is the default one (0.5), not one
    the user chose; the message says so and what to do.

    Examples
    --------
    >>> from binmetrics.table import CountTable
    >>> t = CountTable.from_arrays([1, 0, 1], [-3.0, -9.0, -1.0])
    >>> print(threshold_range_message(t, 0.5, default=True))
    threshold 0.5 (the default) is outside the scores' range [-9, -1]: every case is predicted negative; pass a threshold on the scores' scale (threshold=, --threshold)

    With ``higher_is_positive=False`` the table holds the negated scores (as an
    :class:`~binmetrics.Evaluation`'s); the range is reported in the user's units.
    """  # noqa: E501
    if table.n_distinct == 0:
        return None
    # compared in the table's units (which hold -score when lower means positive),
    # reported in the user's
    cut = threshold if higher_is_positive else -threshold
    low, high = float(table.scores.min()), float(table.scores.max())
    if low <= cut <= high:
        return None
    side = "positive" if cut <= low else "negative"
    if not higher_is_positive:
        low, high = -high, -low
    what = f"threshold {threshold:g}" + (" (the default)" if default else "")
    hint = ("; pass a threshold on the scores' scale (threshold=, --threshold)" if default
            else "")
    return (f"{what} is outside the scores' range [{format_number(low)}, "
            f"{format_number(high)}]: every case is predicted {side}{hint}")


def warn_threshold_range(table: CountTable, threshold: float, *,
                         higher_is_positive: bool = True, default: bool = False) -> None:
    """Warn at the user's line with :func:`threshold_range_message`'s text, if any."""
    if _UNREAD.get():
        return
    message = threshold_range_message(table, threshold,
                                      higher_is_positive=higher_is_positive, default=default)
    if message is not None:
        warn_at_user(message)
