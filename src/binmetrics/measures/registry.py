"""The measure registry: every measure declared once, with its metadata.

Reports, the CLI listing, SRD's "best" direction, docs and tests read this
registry; nothing else keeps a list of measure names.
"""

from __future__ import annotations

import ast
import difflib
import functools
import inspect
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import pandas as pd

    from binmetrics.table.counts import CountTable

Family = Literal["confusion", "probabilistic", "ranking"]
BinningBound = Literal["refinements", "above_binned", "average_precision"]
FAMILIES: tuple[Family, ...] = ("confusion", "probabilistic", "ranking")


@dataclass(frozen=True)
class Measure:
    r"""One performance measure and everything the library knows about it.

    Attributes
    ----------
    id : canonical identifier (``"tpr"``).
    name : human-readable name.
    family : ``"confusion"`` (a function of one confusion matrix, vectorised over
        arrays of them), ``"probabilistic"`` (a loss on scores read as
        probabilities or margins) or ``"ranking"`` (a function of the whole order).
    func : the function; confusion measures take a :class:`~binmetrics.table.confusion.Confusion`,
        the others a :class:`~binmetrics.table.CountTable`; parameters are keywords.
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

    prevalence_dependent : whether the value changes with the class prior when the
        class-conditional score distributions stay the same: multiplying every negative's
        weight by one constant changes it (precision, F1, accuracy, the losses, AP) or not
        (TPR, FPR, informedness, AUC); the Wikipedia table's distinction between the
        statistics of its columns (prevalence-dependent) and of its rows (independent).
        Independent measures need no prior calibration (Siblini et al.); None: not
        declared (a measure registered by a user). tests/measures/test_prevalence_dependence.py
        holds every built-in measure to its declaration.
    monotone_in_fp : a confusion measure that never gets worse (in its ``direction``)
        when the false positives fall while TP, P and N stay (F1, MCC, precision,
        expected cost...): then the strictest best cut always ends at a score holding
        positives, so ``best_threshold`` (within the run of cuts where its constraints
        hold, plus the run's first cut) and the bootstrap of a chosen cut
        (``best_threshold(..., ci=True)``) score only those cuts.
        tests/measures/test_monotone_in_fp.py holds every
        declaration to a scan.
    weight_unit : the measure reads weights as numbers of cases (a count, a rank, a test
        statistic that grows with n, an integer-weight-only estimator), so multiplying every
        weight by one constant changes it; every other measure is unchanged by that
        (tests/table/test_extreme_inputs.py holds each measure to this declaration).

    The fast paths (each optional: a measure without them still works everywhere, only
    slower or, for ``sums``, not on binned engines):

    resampling_kernel : for a ranking measure, ``kernel(pos, neg) -> values``: the
        measure of each row of (replicates x groups) count matrices at once, so the
        bootstrap and permutation replicates need no loop over tables
        (:mod:`binmetrics.inference.resampling`). A measure with parameters has a kernel
        that takes them as keywords (``kernel(pos, neg, alpha=20.0)``); the resampling
        code passes the measure's parameters.
    multiclass : the natively multiclass form, ``func(data, **params)`` of a
        :class:`~binmetrics.measures.multiclass.MulticlassData`; without it a
        multiclass evaluation averages the binary measure one-vs-rest.
    multiclass_rows : for a native multiclass form that is a (weighted) mean over the
        rows, ``rows(data, **params) -> (n,) terms``: each row's term, the form being
        ``np.average(rows(data), weights=data.weight)``. A row bootstrap reads a
        replicate as the dot product of its row multiplicities with the terms,
        computed once (:mod:`binmetrics.evaluation.multiclass_ci`).
    sums : for a probabilistic measure, the :class:`~binmetrics.measures.sums.SumGroup`\ s
        it reads: weighted sums over the raw scores that a binned or SQL engine collects
        alongside the count table, so the measure stays exact on binned scores; a
        group's in-memory computation (``SumGroup.block``) runs in the one blocked pass
        shared by every measure asked together
        (:func:`~binmetrics.measures.sums.shared_sums`).
    passes : other computations over the table's blocks the measure reads
        (:class:`~binmetrics.measures.sums.BlockPass`: the compressed table that starts
        the logistic calibration fits), run in that same shared pass.
    bin_sums : for a measure of per-bin sums over fixed score bins (ECE, MCE), a
        :class:`~binmetrics.measures.calibration.BinSums`: the bins' edges for given
        parameters and the measure's formula from the bins' sums, so a bootstrap
        replicate's value is read from its cells' counts summed over the bins
        (:mod:`binmetrics.inference._replicate_bins`), with no table per replicate.
    plot : the plot kind that draws the measure (``"roc"`` for the AUC): ``ev.plot(id)``
        draws it and the HTML report names the chart.
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
    weight_unit: bool = False
    resampling_kernel: Callable[[Any, Any], Any] | None = None
    multiclass: Callable[..., float] | None = None
    sums: tuple[Any, ...] = ()
    passes: tuple[Any, ...] = ()
    plot: str | None = None
    bin_sums: Any = None
    multiclass_rows: Callable[..., Any] | None = None
    prevalence_dependent: bool | None = None
    monotone_in_fp: bool = False

    @property
    def multiclass_params(self) -> Mapping[str, Any]:
        """The keyword parameters of the native multiclass form, with their defaults."""
        if self.multiclass is None:
            return MappingProxyType({})
        return MappingProxyType(_keyword_defaults(self.multiclass))

    @property
    def summary(self) -> str:
        doc = inspect.getdoc(self.func) or ""
        return doc.split("\n\n", 1)[0].replace("\n", " ")

    def compute(self, table: CountTable, threshold: float, /, **params: Any) -> float:
        """The measure on a count table (a confusion measure at ``score >= threshold``),
        with ``params`` already resolved (:meth:`resolve_params`)."""
        arg = table.confusion(threshold) if self.family == "confusion" else table
        return float(self.func(arg, **params))

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
    """Names match whatever their case, apostrophes, spaces and hyphens ("Scott's pi",
    PyCM's "Scott PI", "scott_pi")."""
    k = name.strip().lower().replace("'", "").replace("\u2019", "")
    return k.replace("-", "_").replace(" ", "_")


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
    weight_unit: bool = False,
    resampling_kernel: Callable[[Any, Any], Any] | None = None,
    multiclass: Callable[..., float] | None = None,
    sums: tuple[Any, ...] = (),
    passes: tuple[Any, ...] = (),
    plot: str | None = None,
    bin_sums: Any = None,
    prevalence_dependent: bool | None = None,
    monotone_in_fp: bool = False,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare a measure: its metadata and its fast paths (see :class:`Measure`).

    Its parameters and defaults are read from the function signature. A measure
    declared here gets intervals, comparisons, SRD, the docs catalogue, the report and
    the engines with no other change; see docs/architecture.md, "Adding a measure".
    """

    def deco(func: Callable[..., Any]) -> Callable[..., Any]:
        params = _keyword_defaults(func)
        m = Measure(
            id=id, name=name, family=family, func=func, aliases=tuple(aliases),
            direction=direction, range=range, source=source, formula=formula,
            params=MappingProxyType(params), needs_probabilities=needs_probabilities,
            proportion=proportion, interval_methods=tuple(interval_methods),
            paired_tests=tuple(paired_tests), binning_bound=binning_bound,
            weight_unit=weight_unit, resampling_kernel=resampling_kernel,
            multiclass=multiclass, sums=tuple(sums), passes=tuple(passes),
            plot=plot, bin_sums=bin_sums, prevalence_dependent=prevalence_dependent,
            monotone_in_fp=monotone_in_fp,
        )
        for n in (id, *aliases):
            k = _key(n)
            if k in _NAMES:
                raise RuntimeError(f"measure name {n!r} is declared twice")
            _NAMES[k] = id
        _REGISTRY[id] = m
        return func

    return deco


def declare_fast_path(id: str, **fast_paths: Any) -> None:
    """Attach fast paths (``multiclass=``, ``multiclass_rows=``, ``resampling_kernel=``,
    ``sums=``, ``bin_sums=``, ``plot=``)
    to a declared measure, from the module that implements them.

    This is how a decorator next to a kernel declares it (e.g.
    :func:`binmetrics.measures.multiclass.multiclass_form`); the measure's entry is
    still the one place that holds it.
    """
    allowed = {"multiclass", "multiclass_rows", "resampling_kernel", "sums", "bin_sums", "plot"}
    unknown = set(fast_paths) - allowed
    if unknown:
        raise TypeError(f"unknown fast path(s) {', '.join(sorted(unknown))}; the fast paths: "
                        f"{', '.join(sorted(allowed))}")
    m = get_measure(id)
    taken = [k for k, v in fast_paths.items() if getattr(m, k) not in (None, ())]
    if taken:
        raise RuntimeError(f"{m.id} already declares {', '.join(taken)}")
    if "sums" in fast_paths:
        fast_paths["sums"] = tuple(fast_paths["sums"])
    _REGISTRY[m.id] = replace(m, **fast_paths)


def unregister(id: str) -> None:
    """Remove a measure and its names (for tests that declare a throwaway measure)."""
    m = _REGISTRY.pop(id)
    for n in (m.id, *m.aliases):
        _NAMES.pop(_key(n), None)


def _keyword_defaults(func: Callable[..., Any]) -> dict[str, Any]:
    """The keyword-only parameters of ``func`` (after its data argument) and defaults."""
    sig = inspect.signature(func)
    return {p.name: p.default for p in list(sig.parameters.values())[1:]
            if p.kind is inspect.Parameter.KEYWORD_ONLY}


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
    if "(" in name:  # "bedroc(alpha=80.5)": the measure with other default parameters
        base, params = parse_measure_spec(name)
        return with_params(get_measure(base), **params)
    k = _key(name)
    if k in _NAMES:
        return _REGISTRY[_NAMES[k]]
    if k in _PRESETS:
        raise KeyError(f"{name!r} is a set of measures ({len(_PRESETS[k].ids)}), not one: "
                       f"pass it as measures={name!r}")
    close = difflib.get_close_matches(k, [*_NAMES, *_PRESETS], n=4, cutoff=0.6)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise KeyError(f"unknown measure {name!r}{hint} (bm.measure_catalogue() lists them all)")


#: the longest ``id(param=value, ...)`` text read (a name with a few parameters)
SPEC_MAX_LENGTH = 500
#: bare words read as values (any other bare word is a string: ``at=top``)
_WORDS = {"none": None, "true": True, "false": False, "nan": math.nan, "inf": math.inf}


def _spec_value(node: ast.expr, text: str) -> Any:
    """A parameter's value: a Python literal (number, string, tuple/list of them) or a
    bare word (none, true, false, nan, inf, or else a string). Never evaluated."""
    if isinstance(node, ast.Name):
        return _WORDS.get(node.id.lower(), node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Name) \
            and node.operand.id.lower() == "inf":
        return -math.inf if isinstance(node.op, ast.USub) else math.inf
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(_spec_value(e, text) for e in node.elts)
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError):
        raise ValueError(f"{text!r}: {ast.unparse(node)!r} is not a value; give a number, "
                         "a word (none, true, false) or a quoted string") from None


def parse_measure_spec(text: str) -> tuple[str, dict[str, Any]]:
    """``"bedroc(alpha=80.5)"`` -> ``("bedroc", {"alpha": 80.5})``: a measure name and
    its parameters as keywords, read without evaluating anything (:mod:`ast` literals).

    Values are numbers, quoted strings, tuples ``(0, 0.1)`` and the bare words
    ``none``, ``true``, ``false``, ``nan``, ``inf`` (any other bare word is a string).

    Examples
    --------
    >>> parse_measure_spec("partial_auc(fpr=(0, 0.1), correct=true)")
    ('partial_auc', {'fpr': (0, 0.1), 'correct': True})
    >>> parse_measure_spec("ici(max_rows=none)")
    ('ici', {'max_rows': None})
    """
    stripped = text.strip()
    head, sep, rest = stripped.partition("(")
    if len(stripped) > SPEC_MAX_LENGTH:
        raise ValueError(f"measure {stripped[:40]!r}... is longer than {SPEC_MAX_LENGTH} "
                         "characters")
    if not sep or not rest.endswith(")") or not head.strip():
        raise ValueError(f"measure {text!r} is not of the form id(param=value, ...), "
                         "e.g. bedroc(alpha=80.5)")
    try:
        call = ast.parse(f"_({rest}", mode="eval").body
    except SyntaxError:
        call = None
    if not isinstance(call, ast.Call) or call.args or any(k.arg is None
                                                          for k in call.keywords):
        raise ValueError(f"measure {text!r}: give the parameters by name, "
                         "id(param=value, ...), e.g. bedroc(alpha=80.5)")
    names = [str(k.arg) for k in call.keywords]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"measure {text!r} gives {', '.join(twice)} twice")
    return head.strip(), {str(k.arg): _spec_value(k.value, text) for k in call.keywords}


def with_params(m: Measure, **params: Any) -> Measure:
    """The measure ``m`` with other default parameters, under the id
    ``"id(param=value, ...)"`` (the parameters that differ from the defaults, in the
    declared order); ``m`` itself when none differs.

    Examples
    --------
    >>> with_params(get_measure("bedroc"), alpha=80.5).id
    'bedroc(alpha=80.5)'
    """
    p = m.resolve_params(**params)
    changed = {k: v for k, v in p.items() if not _same(v, m.params[k])}
    if not changed:
        return m
    base = get_measure(m.id.partition("(")[0])
    changed = {k: v for k, v in p.items() if not _same(v, base.params[k])}
    if not changed:
        return base
    shown = ", ".join(f"{k}={v!r}" for k, v in changed.items())
    mc = rows = None
    if base.multiclass is not None and set(changed) <= set(base.multiclass_params):
        mc = functools.partial(base.multiclass, **changed)
        if base.multiclass_rows is not None:
            rows = functools.partial(base.multiclass_rows, **changed)
    # a kernel takes the measure's parameters as keywords: bound here too
    kern = None if base.resampling_kernel is None else _BoundKernel(base.resampling_kernel, p)
    return replace(base, id=f"{base.id}({shown})", name=f"{base.name} ({shown})",
                   aliases=(), params=MappingProxyType(p), resampling_kernel=kern,
                   multiclass=mc, multiclass_rows=rows)


class _BoundKernel:
    """A resampling kernel with a bound measure's parameters as its defaults; equal to
    another with the same kernel and parameters (so a bound measure read back from its
    id equals itself)."""

    def __init__(self, kernel: Callable[..., Any], params: Mapping[str, Any]) -> None:
        self.kernel = kernel
        self.params = dict(params)

    def __call__(self, pos: Any, neg: Any, **params: Any) -> Any:
        return self.kernel(pos, neg, **{**self.params, **params})

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, _BoundKernel) and other.kernel is self.kernel
                and repr(other.params) == repr(self.params))

    def __hash__(self) -> int:
        return hash((self.kernel, repr(self.params)))

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{getattr(self.kernel, '__name__', 'kernel')}({shown})"


def _same(a: Any, b: Any) -> bool:
    try:
        return (type(a) is type(b) and bool(a == b)) or (
            isinstance(a, (int, float)) and isinstance(b, (int, float))
            and not isinstance(a, bool) and not isinstance(b, bool) and a == b)
    except Exception:  # an array or another value without a plain ==
        return False


def split_measure_list(text: str) -> list[str]:
    """Comma-separated measure names, the commas inside ``id(...)`` kept:
    ``"auc,bedroc(alpha=80.5),partial_auc(fpr=(0, 0.1))"`` -> three names.

    >>> split_measure_list("auc, bedroc(alpha=80.5),partial_auc(fpr=(0, 0.1))")
    ['auc', 'bedroc(alpha=80.5)', 'partial_auc(fpr=(0, 0.1))']
    """
    names: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            names.append(text[start:i])
            start = i + 1
    names.append(text[start:])
    return [n.strip() for n in names if n.strip()]


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


# --- presets: named sets of measures from the seeds --------------------------------------
@dataclass(frozen=True)
class Preset:
    """A named set of measures (``measures="multilevel28"``), declared once with
    :func:`register_preset`.

    Attributes
    ----------
    name : the name that ``measures=`` accepts.
    ids : the canonical ids, in the order given.
    source : where the set comes from.
    description : one line on what it is.
    """

    name: str
    ids: tuple[str, ...]
    source: str
    description: str


_PRESETS: dict[str, Preset] = {}
#: name -> :class:`Preset`; every ``measures=`` argument accepts these names
PRESETS: Mapping[str, Preset] = MappingProxyType(_PRESETS)


def register_preset(name: str, ids: Iterable[str], *, source: str,
                    description: str) -> Preset:
    """Declare a named set of measures; each name must resolve to a registered measure
    and may not also be a measure's name."""
    key = _key(name)
    if key in _PRESETS or key in _NAMES:
        raise RuntimeError(f"preset name {name!r} is already taken")
    resolved = tuple(get_measure(i).id for i in ids)
    if len(set(resolved)) != len(resolved):
        raise RuntimeError(f"preset {name!r} names a measure twice")
    _PRESETS[key] = Preset(key, resolved, source, description)
    return _PRESETS[key]


def get_preset(name: str) -> Preset | None:
    """The preset of this name, or None when ``name`` is not one."""
    return _PRESETS.get(_key(name)) if isinstance(name, str) else None


def select_measures(family: Family | None = None,
                    measures: str | Iterable[str | Measure] | None = None) -> list[Measure]:
    """The registered measures of ``family`` (all if None), or those named in
    ``measures`` (ids or aliases, each once, in the order given) within it.
    ``measures`` may be one name: a preset (:data:`PRESETS`, e.g. "multilevel28") or a
    measure.

    Examples
    --------
    >>> [m.id for m in select_measures(measures="multilevel28")][:4]
    ['tpr', 'fnr', 'tnr', 'fpr']
    """
    if measures is None:
        return list(iter_measures(family))
    if isinstance(measures, (str, Measure)):
        preset = get_preset(measures) if isinstance(measures, str) else None
        measures = list(preset.ids) if preset is not None else [measures]
    chosen = {m.id: m for m in (get_measure(x) for x in measures)}
    return [m for m in chosen.values() if family is None or m.family == family]


def measure_catalogue(family: Family | None = None) -> pd.DataFrame:
    """The registry as a pandas DataFrame: one row per measure.

    Columns: id, name, aliases, family, direction, range, parameters, source,
    formula, needs_probabilities, prevalence_dependent (True, False, or None when not
    declared), summary.

    Examples
    --------
    >>> import binmetrics as bm
    >>> table = bm.measure_catalogue()
    >>> table.loc[table.id == "mcc", "source"].item()
    'Berrar Def. 15; Wikipedia table; multi-level paper Table 5'
    >>> table.set_index("id").loc[["ppv", "tpr", "auc"], "prevalence_dependent"].tolist()
    [True, False, False]
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
            "prevalence_dependent": m.prevalence_dependent,
            "summary": m.summary,
        }
        for m in iter_measures(family)
    ]
    return pd.DataFrame(rows)
