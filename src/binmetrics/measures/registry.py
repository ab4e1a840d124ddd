"""The measure registry: every measure declared once, with its metadata.

Reports, the CLI listing, SRD's "best" direction, docs and tests read this
registry; nothing else keeps a list of measure names.
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

Family = Literal["confusion", "probabilistic", "ranking"]
BinningBound = Literal["refinements", "above_binned", "average_precision"]
FAMILIES: tuple[Family, ...] = ("confusion", "probabilistic", "ranking")


@dataclass(frozen=True)
class Measure:
    """One performance measure and everything the library knows about it.

    Attributes
    ----------
    id : canonical identifier (``"tpr"``).
    name : human-readable name.
    family : ``"confusion"`` (a function of one confusion matrix, vectorised over
        arrays of them), ``"probabilistic"`` (a loss on scores read as
        probabilities or margins) or ``"ranking"`` (a function of the whole order).
    func : the function; confusion measures take a :class:`~binmetrics.counts.Confusion`,
        the others a :class:`~binmetrics.counts.CountTable`; parameters are keywords.
    aliases : other names that resolve to this measure.
    direction : +1 higher is better, -1 lower is better, 0 neither (e.g. prevalence).
    range : the values the measure can take (may include +-inf).
    params : parameter names and their defaults.
    source : where the definition comes from ("Berrar Def. 15").
    formula : the defining formula in plain text.
    needs_probabilities : scores must lie in [0, 1].
    proportion : for a measure that is a proportion of cases, a function of a
        Confusion giving (successes, trials), e.g. (TP, TP + FN) for the TPR; the
        exact and approximate binomial intervals apply to those measures only.
    interval_methods : closed-form interval methods beyond the binomial ones
        (``("delong",)`` for the AUC); the bootstrap applies to every measure.
    paired_tests : tests of two models on the same cases beyond the paired bootstrap
        (``("delong",)`` for the AUC, ``("mcnemar",)`` for the accuracy).
    binning_bound : how a ranking measure on binned scores bounds its value on the raw
        scores (:func:`binmetrics.engines.value_bounds`): ``"refinements"`` (between
        its values with every bin's positives above, and below, its negatives),
        ``"above_binned"`` (the binned value is the low end, the refinements' the
        high end: the binned cuts are raw cuts), ``"average_precision"`` (its own
        lower bound); None: no bound is derived.
    """

    id: str
    name: str
    family: Family
    func: Callable[..., Any]
    aliases: tuple[str, ...]
    direction: int
    range: tuple[float, float]
    source: str
    formula: str
    params: Mapping[str, Any] = field(default_factory=dict)
    needs_probabilities: bool = False
    proportion: Callable[[Any], tuple[Any, Any]] | None = None
    interval_methods: tuple[str, ...] = ()
    paired_tests: tuple[str, ...] = ()
    binning_bound: BinningBound | None = None

    @property
    def summary(self) -> str:
        doc = inspect.getdoc(self.func) or ""
        return doc.split("\n\n", 1)[0].replace("\n", " ")

    def resolve_params(self, **params: Any) -> dict[str, Any]:
        """Defaults overridden by ``params``; an unknown parameter is an error."""
        unknown = set(params) - set(self.params)
        if unknown:
            accepted = ", ".join(self.params) or "none"
            raise TypeError(
                f"{self.id} takes no parameter {', '.join(sorted(unknown))}; "
                f"its parameters: {accepted}"
            )
        return {**self.params, **params}


_REGISTRY: dict[str, Measure] = {}
_NAMES: dict[str, str] = {}  # every id and alias -> canonical id

REGISTRY: Mapping[str, Measure] = MappingProxyType(_REGISTRY)


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def register(
    id: str,
    *,
    name: str,
    family: Family,
    direction: int,
    range: tuple[float, float],
    source: str,
    formula: str,
    aliases: tuple[str, ...] = (),
    needs_probabilities: bool = False,
    proportion: Callable[[Any], tuple[Any, Any]] | None = None,
    interval_methods: tuple[str, ...] = (),
    paired_tests: tuple[str, ...] = (),
    binning_bound: BinningBound | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare a measure. Its parameters and defaults are read from the function signature."""

    def deco(func: Callable[..., Any]) -> Callable[..., Any]:
        sig = inspect.signature(func)
        params = {
            p.name: p.default
            for p in list(sig.parameters.values())[1:]
            if p.kind is inspect.Parameter.KEYWORD_ONLY
        }
        m = Measure(
            id=id, name=name, family=family, func=func, aliases=tuple(aliases),
            direction=direction, range=range, source=source, formula=formula,
            params=MappingProxyType(params), needs_probabilities=needs_probabilities,
            proportion=proportion, interval_methods=tuple(interval_methods),
            paired_tests=tuple(paired_tests), binning_bound=binning_bound,
        )
        for n in (id, *aliases):
            k = _key(n)
            if k in _NAMES:
                raise RuntimeError(f"measure name {n!r} is declared twice")
            _NAMES[k] = id
        _REGISTRY[id] = m
        return func

    return deco


def get_measure(name: str | Measure) -> Measure:
    """The measure with this id or alias; an unknown name suggests the closest ids.

    Examples
    --------
    >>> import binmetrics as bm
    >>> m = bm.get_measure("sensitivity")
    >>> m.id, m.source, m.direction
    ('tpr', 'Berrar Def. 3; multi-level paper Table 4', 1)
    >>> bm.get_measure("sensitivty")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    KeyError: "unknown measure 'sensitivty'; did you mean 'sensitivity', ...?...
    """
    if isinstance(name, Measure):
        return name
    if not isinstance(name, str):
        raise TypeError(f"a measure name must be a string, got {name!r}")
    k = _key(name)
    if k in _NAMES:
        return _REGISTRY[_NAMES[k]]
    close = difflib.get_close_matches(k, list(_NAMES), n=4, cutoff=0.6)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise KeyError(f"unknown measure {name!r}{hint} (bm.measures() lists them all)")


def iter_measures(family: Family | None = None) -> Iterator[Measure]:
    """Registered measures in declaration order, optionally of one family.

    Examples
    --------
    >>> import binmetrics as bm
    >>> [m.id for m in bm.iter_measures("ranking")][:3]
    ['auc', 'gini', 'auch']
    """
    if family is not None and family not in FAMILIES:
        raise ValueError(f"family must be one of {FAMILIES}, got {family!r}")
    for m in _REGISTRY.values():
        if family is None or m.family == family:
            yield m


def select_measures(family: Family | None = None,
                    measures: Iterable[str | Measure] | None = None) -> list[Measure]:
    """The registered measures of ``family`` (all if None), or those named in
    ``measures`` (ids or aliases, each once, in the order given) within it."""
    if measures is None:
        return list(iter_measures(family))
    chosen = {m.id: m for m in (get_measure(x) for x in measures)}
    return [m for m in chosen.values() if family is None or m.family == family]


def measures(family: Family | None = None) -> Any:
    """The registry as a pandas DataFrame: one row per measure.

    Columns: id, name, aliases, family, direction, range, parameters, source,
    formula, needs_probabilities, summary.

    Examples
    --------
    >>> import binmetrics as bm
    >>> table = bm.measures()
    >>> table.loc[table.id == "mcc", "source"].item()
    'Berrar Def. 15; Wikipedia table'
    """
    import pandas as pd

    rows = [
        {
            "id": m.id,
            "name": m.name,
            "aliases": ", ".join(m.aliases),
            "family": m.family,
            "direction": m.direction,
            "range": f"[{m.range[0]:g}, {m.range[1]:g}]",
            "parameters": ", ".join(f"{k}={v!r}" for k, v in m.params.items()),
            "source": m.source,
            "formula": m.formula,
            "needs_probabilities": m.needs_probabilities,
            "summary": m.summary,
        }
        for m in iter_measures(family)
    ]
    return pd.DataFrame(rows)
