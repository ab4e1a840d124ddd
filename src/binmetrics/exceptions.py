"""Warnings and errors, and the one place that decides what an undefined value does.

docs/conventions.md: an undefined value (0/0, a ranking measure on a single class) is NaN
with an :class:`UndefinedMeasureWarning` naming the measure and the reason,
never a silent 0; ``undefined="raise"`` turns it into an
:class:`UndefinedMeasureError`. The policy travels in a context variable so
that measure functions stay pure functions of their inputs.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import os
import sys
import warnings
from collections.abc import Iterable, Iterator
from typing import Any, Literal

UndefinedPolicy = Literal["warn", "raise", "ignore"]

_POLICY: contextvars.ContextVar[UndefinedPolicy] = contextvars.ContextVar(
    "binmetrics_undefined", default="warn"
)
#: the caveats of the call under way (by measure, or by cause when shared), or None
_CAVEATS: contextvars.ContextVar[dict[str, Caveat] | None] = contextvars.ContextVar(
    "binmetrics_caveats", default=None
)
#: the measures the user named in the call under way; None: every measure counts as named
_ASKED: contextvars.ContextVar[frozenset[str] | None] = contextvars.ContextVar(
    "binmetrics_asked", default=None
)
#: where the caveats held back for want of being asked go (:class:`UnaskedCaveats`)
_UNASKED: contextvars.ContextVar[list[tuple[str, str]] | None] = contextvars.ContextVar(
    "binmetrics_unasked", default=None
)
#: the warnings of the work under way that wait for its caller (see :class:`Deferred`)
_DEFERRED: contextvars.ContextVar[Deferred | None] = contextvars.ContextVar(
    "binmetrics_deferred", default=None
)
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


class BinmetricsWarning(UserWarning):
    """The base of every warning binmetrics issues (a :class:`UserWarning`): an undefined
    measure, a caveat, rows left out, a threshold outside the scores' range. One filter
    silences them all, or makes them errors, as the test suite does
    (``filterwarnings = ["error::binmetrics.exceptions.BinmetricsWarning"]``).
    """


class UndefinedMeasureWarning(BinmetricsWarning):
    """A measure is undefined for this input and was returned as NaN.

    ``measures`` names the measures concerned and ``reason`` says why.
    """

    def __init__(self, message: str, measures: tuple[str, ...] = (), reason: str = "") -> None:
        super().__init__(message)
        self.measures = tuple(measures)
        self.reason = reason


def undefined_message(measures: tuple[str, ...], reason: str) -> str:
    verb = "is" if len(measures) == 1 else "are"
    return f"{', '.join(measures)} {verb} undefined: {reason}; returning NaN"


class MeasureCaveatWarning(BinmetricsWarning):
    """A measure is defined but should be read with care (e.g. BEDROC with alpha*Ra > 1)."""


class EngineError(RuntimeError):
    """An engine could not run (Spark could not start, a file it cannot read): the message
    says what, in one line."""


def one_line(exc: BaseException) -> str:
    """An exception's message on one line (a KeyError's without its quotes).

    >>> one_line(KeyError("no such\\n  column")), one_line(ValueError())
    ('no such column', 'ValueError')
    """
    text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    text = " ".join(text.split())
    return text or type(exc).__name__


class SumsUnavailable(ValueError):
    """A probabilistic sum that a table of binned scores cannot give: its engine summed
    the raw scores at the default parameters only (:mod:`binmetrics.measures.sums`).
    An evaluation reports the measure as undefined (NaN with a warning)."""


class UndefinedMeasureError(ValueError):
    """Raised instead of :class:`UndefinedMeasureWarning` under ``undefined="raise"``."""


def current_policy() -> UndefinedPolicy:
    """The undefined-value policy in force here ("warn", "raise" or "ignore")."""
    return _POLICY.get()


@contextlib.contextmanager
def undefined_policy(policy: UndefinedPolicy) -> Iterator[None]:
    """Set what undefined values do inside the block: "warn", "raise" or "ignore"."""
    if policy not in ("warn", "raise", "ignore"):
        raise ValueError(f"undefined must be 'warn', 'raise' or 'ignore', got {policy!r}")
    token = _POLICY.set(policy)
    try:
        yield
    finally:
        _POLICY.reset(token)


def report_undefined(measure: str, reason: str) -> None:
    """Report that ``measure`` is undefined because of ``reason`` (the caller returns NaN)."""
    policy = _POLICY.get()
    if policy == "ignore":
        return
    if policy == "raise":
        raise UndefinedMeasureError(f"{measure} is undefined: {reason}")
    warn_at_user(UndefinedMeasureWarning(undefined_message((measure,), reason), (measure,),
                                         reason))


def warn_at_user(message: Warning | str,
                 category: type[Warning] = BinmetricsWarning) -> None:
    """``warnings.warn`` with the stack level of the first frame outside binmetrics: the
    warning names the user's line, however deep in the package it was raised."""
    deferred = _DEFERRED.get()
    if deferred is not None:  # the caller replays it, from its own line
        deferred.warnings.append((message, category))
        return
    frame = sys._getframe(0)
    level = 1
    while frame is not None and (frame.f_code.co_filename.startswith(_PACKAGE_DIR)
                                 or frame.f_code.co_filename == contextlib.__file__):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    warnings.warn(message, category, stacklevel=level)


@dataclasses.dataclass
class Caveat:
    """One caveat of a call: its first message, and how many times each measure it
    concerns reported it (measures that share a cause share one warning)."""

    message: str
    times: dict[str, int]

    def add(self, other: Caveat) -> None:
        for measure, times in other.times.items():
            self.times[measure] = self.times.get(measure, 0) + times

    def text(self) -> str:
        """``"m1, m2: message"``, with how many more times it applied (e.g. in other
        groups of the call)."""
        extra = max(self.times.values()) - 1
        more = f" (and {extra} more time{'s' if extra > 1 else ''} in this call)" if extra else ""
        return f"{', '.join(self.times)}: {self.message}{more}"


@contextlib.contextmanager
def caveats_once() -> Iterator[None]:
    """Within it, each caveat warns once, when the outermost such block ends (a call
    over many groups says "bedroc: ..." once, with how many times it applied; measures
    whose caveat has one cause share one warning that names them all).

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     with caveats_once():
    ...         for _ in range(3):
    ...             report_caveat("bedroc", "alpha * Ra > 1")
    ...         for m in ("slope", "intercept"):
    ...             report_caveat(m, "2 cases left out", cause="left out")
    >>> [str(w.message) for w in caught]
    ['bedroc: alpha * Ra > 1 (and 2 more times in this call)', 'slope, intercept: 2 cases left out']
    """
    if _CAVEATS.get() is not None:  # an outer block reports them
        yield
        return
    seen: dict[str, Caveat] = {}
    token = _CAVEATS.set(seen)
    try:
        yield
    finally:
        _CAVEATS.reset(token)
    for caveat in seen.values():
        warn_at_user(caveat.text(), MeasureCaveatWarning)


@contextlib.contextmanager
def asked_for(measures: Iterable[str]) -> Iterator[None]:
    """Within it, a caveat that needs a judgement (``report_caveat(..., asked_only=True)``,
    e.g. BEDROC's comparability) warns only for the measures named here, those the user
    asked for: ``ev.to_dict()`` names none, ``ev.to_dict(measures=["bedroc"])`` and
    ``ev.value("bedroc")`` name BEDROC. Nested blocks keep the measures both name.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     with asked_for(["auc"]):
    ...         report_caveat("bedroc", "alpha * Ra > 1", asked_only=True)
    ...     report_caveat("bedroc", "alpha * Ra > 1", asked_only=True)
    >>> [str(w.message) for w in caught]
    ['bedroc: alpha * Ra > 1']
    """
    outer = _ASKED.get()
    named = frozenset(measures)
    token = _ASKED.set(named if outer is None else outer & named)
    try:
        yield
    finally:
        _ASKED.reset(token)


def is_asked(measure: str) -> bool:
    """Whether the user asked for ``measure`` in the call under way (:func:`asked_for`)."""
    asked = _ASKED.get()
    return asked is None or measure in asked


class UnaskedCaveats:
    """The caveats held back, per cached value, because its measure was not asked for
    (:func:`asked_for`) when it was computed: given when it is asked for later
    (``ev.to_dict(); ev["bedroc"]``), once."""

    def __init__(self) -> None:
        self._held: dict[Any, list[tuple[str, str]]] = {}

    @contextlib.contextmanager
    def collect(self, key: Any) -> Iterator[None]:
        """Hold the unasked caveats of the value ``key`` computed inside the block."""
        held: list[tuple[str, str]] = []
        token = _UNASKED.set(held)
        try:
            yield
        finally:
            _UNASKED.reset(token)
        if held:
            self._held[key] = held

    def replay(self, key: Any, measure: str) -> None:
        """Give the held caveats of the value ``key`` if ``measure`` is asked for now."""
        if key in self._held and is_asked(measure):
            for held_measure, message in self._held.pop(key):
                report_caveat(held_measure, message, asked_only=True)


def report_caveat(measure: str, message: str, *, cause: str | None = None,
                  asked_only: bool = False) -> None:
    """Warn about a defined value that needs care (silenced with the "ignore" policy):
    at the user's line, and once within :func:`caveats_once`.

    ``cause``: the caveats of several measures with this same cause (the cases the
    logistic calibration fits leave out) make one warning naming those measures.
    ``asked_only``: a caveat that asks for a judgement, issued only when the user asked
    for the measure (:func:`asked_for`), not in a table of every measure.
    """
    if _POLICY.get() == "ignore":
        return
    if asked_only and not is_asked(measure):
        unasked = _UNASKED.get()
        if unasked is not None:
            unasked.append((measure, message))
        return
    seen = _CAVEATS.get()
    if seen is None:
        warn_at_user(f"{measure}: {message}", MeasureCaveatWarning)
        return
    key = f"cause:{cause}" if cause is not None else measure
    caveat = seen.setdefault(key, Caveat(message, {}))
    caveat.times[measure] = caveat.times.get(measure, 0) + 1


class Deferred:
    """The warnings (:func:`warn_at_user`) and caveats (:func:`report_caveat`) of some
    work, held back instead of issued, to be replayed by the caller in its own thread.

    ``warnings.catch_warnings`` swaps the warnings module's global state, so two
    threads that record at once lose or mix each other's warnings; this lives in a
    context variable, so the warnings binmetrics reports from work in worker threads
    (:func:`binmetrics.backends.thread_map`) are those of the same work done in a loop,
    in the loop's order. (Warnings that other libraries issue with ``warnings.warn``
    pass through as they come.)

    Examples
    --------
    >>> import warnings
    >>> with Deferred() as held:
    ...     report_undefined("auc", "only one class")
    >>> [str(m) for m, _ in held.warnings]
    ['auc is undefined: only one class; returning NaN']
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     held.replay()
    >>> [str(w.message) for w in caught]
    ['auc is undefined: only one class; returning NaN']
    """

    def __init__(self) -> None:
        self.warnings: list[tuple[Warning | str, type[Warning]]] = []
        # caveats are counted here when the caller counts them (inside caveats_once)
        self.caveats: dict[str, Caveat] | None = None if _CAVEATS.get() is None else {}
        self._tokens: list[contextvars.Token[Any]] = []

    def __enter__(self) -> Deferred:
        self._tokens = [_DEFERRED.set(self)]
        if self.caveats is not None:
            self._tokens.append(_CAVEATS.set(self.caveats))
        return self

    def __exit__(self, *exc: object) -> None:
        if len(self._tokens) > 1:
            _CAVEATS.reset(self._tokens[1])
        _DEFERRED.reset(self._tokens[0])

    def replay(self) -> None:
        """Issue the held warnings where this is called (at the user's line) and add
        the held caveats to the caller's count."""
        for message, category in self.warnings:
            warn_at_user(message, category)
        seen = _CAVEATS.get()
        for key, caveat in (self.caveats or {}).items():
            if seen is None:
                warn_at_user(caveat.text(), MeasureCaveatWarning)
            elif key in seen:
                seen[key].add(caveat)
            else:
                seen[key] = Caveat(caveat.message, dict(caveat.times))
