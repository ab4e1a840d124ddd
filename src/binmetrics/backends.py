"""Optional backends, reached lazily: matplotlib (:func:`pyplot`, :func:`axes`), joblib,
threads, and numba's compiled loops (:func:`compiled`, :func:`jit`).

The computing layers never import :mod:`binmetrics.display` (it sits above them), and
they do not need to: every chart they draw is computed below it and drawn by
:func:`binmetrics.chart.render` or by their own matplotlib code through :func:`pyplot`.
Nothing reaches a higher layer by name.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from binmetrics.exceptions import Deferred

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = [
    "COMPILED_ENV",
    "COMPILED_TABLE_ROWS",
    "EXTRAS",
    "THREAD_ROWS",
    "axes",
    "compiled",
    "compiled_table",
    "inline",
    "jit",
    "missing_extra",
    "parallel",
    "pyplot",
    "require",
    "thread_imap",
    "thread_map",
    "threads",
    "use_compiled",
]

_T = TypeVar("_T")
_R = TypeVar("_R")

#: the optional packages (top-level module name -> the extra of pyproject.toml that
#: installs it); tests/project/test_extras.py checks it against pyproject.toml
EXTRAS: dict[str, tuple[str, str]] = {  # module: (package, extra)
    "matplotlib": ("matplotlib", "plot"),
    "sklearn": ("scikit-learn", "sklearn"),
    "statsmodels": ("statsmodels", "compare"),
    "duckdb": ("duckdb", "duckdb"),
    "pyspark": ("pyspark", "spark"),
    "dask": ("dask", "dask"),
    "polars": ("polars", "polars"),
    "mlflow": ("mlflow-skinny", "mlflow"),
    "numba": ("numba", "fast"),
}


def missing_extra(module: str, feature: str) -> ImportError:
    """The one-line error for ``feature`` used without the optional package ``module``:
    it names the extra that installs it.

    >>> print(missing_extra("matplotlib.pyplot", "--plot"))
    --plot needs matplotlib, which is not installed; install it with pip install 'binmetrics[plot]'
    """
    top = module.split(".")[0]
    package, extra = EXTRAS.get(top, (top, ""))
    how = f"pip install 'binmetrics[{extra}]'" if extra else f"pip install {package}"
    exc = ImportError(f"{feature} needs {package}, which is not installed; install it "
                      f"with {how}")
    exc.name = top
    return exc


def require(module: str, feature: str) -> None:
    """Check, before any work, that the optional package ``module`` can be imported;
    else raise :func:`missing_extra`'s error."""
    import importlib.util

    try:
        found = importlib.util.find_spec(module.split(".")[0]) is not None
    except (ImportError, ValueError):  # a module half-set up in sys.modules
        found = False
    if not found:
        raise missing_extra(module, feature)


def pyplot(feature: str) -> ModuleType:
    """``matplotlib.pyplot``, or an ImportError that names the feature and the extra."""
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError(f"{feature} needs matplotlib; install it with "
                          "pip install 'binmetrics[plot]'") from None
    return plt


def axes(ax: Any, feature: str) -> Axes:
    """The given Axes, or a new one on a new figure."""
    plt = pyplot(feature)
    if ax is None:
        _, ax = plt.subplots()
    return ax


def parallel(n_jobs: int | None, **kwargs: Any) -> Any:
    """``joblib.Parallel(n_jobs=n_jobs, **kwargs)`` whose worker processes use one
    BLAS/OpenMP thread each (issue 18): workers that each start a pool of BLAS threads
    oversubscribe the cores. Only when the active backend (default or chosen with
    ``joblib.parallel_config``) supports the limit and sets none itself; a limit the
    user set is kept."""
    from joblib import Parallel, parallel_config
    from joblib.parallel import get_active_backend

    backend, _ = get_active_backend()
    if (getattr(backend, "supports_inner_max_num_threads", False)
            and getattr(backend, "inner_max_num_threads", None) is None):
        with parallel_config(backend=type(backend)(inner_max_num_threads=1)):
            return Parallel(n_jobs=n_jobs, **kwargs)
    return Parallel(n_jobs=n_jobs, **kwargs)


#: Rows per item below which :func:`thread_map` callers stay serial: smaller sorts are
#: dominated by the Python around them, and a pool costs more than it gains.
THREAD_ROWS = 20_000


def threads() -> int:
    """Threads for :func:`thread_map`: the cores this process may use, capped by
    ``OMP_NUM_THREADS`` when set (joblib workers get 1 there, see :func:`parallel`: no
    threads inside a worker)."""
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        n = os.cpu_count() or 1
    cap = os.environ.get("OMP_NUM_THREADS", "")
    return max(1, min(n, int(cap))) if cap.isdigit() and int(cap) > 0 else n


def thread_map(func: Callable[[_T], _R], items: Iterable[_T], *,
               parallel: bool = True) -> list[_R]:
    """``[func(x) for x in items]`` in a pool of :func:`threads` threads, in order.

    For independent NumPy work that releases the GIL (sorts, large element-wise
    operations): the per-model tables of ``bm.compare``, the per-group tables and
    measures of ``evaluate_by``. Each result is what the loop gives, bit for bit,
    and so are the warnings: each item runs in a copy of the caller's context (its
    undefined-value policy, its :func:`~binmetrics.exceptions.caveats_once`), and
    what it reports through :func:`~binmetrics.exceptions.warn_at_user` or
    :func:`~binmetrics.exceptions.report_caveat` is replayed here, in item order.
    ``parallel=False``: the plain loop (for items too small to gain from threads).
    """
    work = list(items)
    n = min(len(work), threads()) if parallel else 1
    if n < 2:
        return [func(x) for x in work]

    def run(x: _T) -> tuple[_R, Deferred]:
        with Deferred() as held:
            return func(x), held

    caller = contextvars.copy_context()
    out = []
    with ThreadPoolExecutor(max_workers=n) as pool:
        # a copy per item: one context cannot be entered by two threads at once
        for result, held in pool.map(lambda x: caller.copy().run(run, x), work):
            held.replay()  # as the loop would have warned, before a later item's error
            out.append(result)
    return out


def thread_imap(func: Callable[[_T], _R], items: Iterable[_T], *,
                parallel: bool = True, ahead: int = 4) -> Iterator[_R]:
    """:func:`thread_map` over an iterator consumed as it goes: ``func(x)`` of each item,
    in order, while the next items are still being produced, with at most ``ahead``
    items per thread in flight (memory: the items held). The producer (e.g. a sliding
    window) runs in the caller's thread at the same time as the workers; results,
    contexts and warnings as :func:`thread_map` gives them."""
    n = threads() if parallel else 1
    if n < 2:
        for x in items:
            yield func(x)
        return

    def run(x: _T) -> tuple[_R, Deferred]:
        with Deferred() as held:
            return func(x), held

    caller = contextvars.copy_context()
    pending: deque[Future[tuple[_R, Deferred]]] = deque()
    with ThreadPoolExecutor(max_workers=n) as pool:
        for x in items:
            pending.append(pool.submit(caller.copy().run, run, x))
            while len(pending) >= ahead * n:
                result, held = pending.popleft().result()
                held.replay()
                yield result
        while pending:
            result, held = pending.popleft().result()
            held.replay()
            yield result


# --- numba's compiled loops (the ``fast`` extra) ------------------------------------------
#: the environment variable that, set to "0", keeps NumPy wherever a loop could be compiled
COMPILED_ENV = "BINMETRICS_COMPILED"

# enabled: None: by size (each caller's threshold), True: always (tests), False: never
_compiled: dict[str, Any] = {"enabled": None}
# module name -> its loops (None: numba or the module could not be imported)
_compiled_modules: dict[str, ModuleType | None] = {}


def _import_compiled(module: str) -> ModuleType | None:
    try:  # any failure to import (not installed, built for another NumPy...): NumPy
        import numba  # noqa: F401

        return importlib.import_module(module)
    except Exception:
        return None


def compiled(module: str, size: int, at_least: int) -> ModuleType | None:
    """The module ``module`` of numba loops (imported on first use), for work of ``size``
    (rows, draws) when numba is importable, not switched off (:data:`COMPILED_ENV`,
    :func:`use_compiled`), and ``size`` reaches the caller's ``at_least``; else None,
    and the caller runs NumPy.

    Each caller chooses ``at_least`` so that work below it never imports numba: loading
    it and its cached loops costs about 0.5-0.8 s once per process, which small work
    would not win back. Call it in the thread that starts the work.

    Examples
    --------
    >>> with use_compiled(False):
    ...     compiled("binmetrics.measures._sums_numba", 10**9, 1) is None
    True
    """
    enabled = _compiled["enabled"]
    if enabled is False or os.environ.get(COMPILED_ENV, "1") == "0":
        return None
    if enabled is None and size < at_least:
        return None
    if module not in _compiled_modules:
        _compiled_modules[module] = _import_compiled(module)
    return _compiled_modules[module]


#: Count tables with at least this many distinct scores take the compiled loops of
#: their passes (:func:`compiled_table`: the probabilistic measures' blocked pass, the
#: fits, a weighted table's running sums, the build's merge), and weighted builds of at
#: least this many rows their packed sort (``table/sorting.py``), when numba is installed
#: (the ``fast`` extra, which a user installs for speed at scale). The loops save about
#: 30 ns a row every call (``to_dict()`` at 1e6 rows: 75 -> 47 ms; at 1e7: 0.2 s);
#: loading numba and them costs about 0.4 s once per process (a fresh process's first
#: ``to_dict()`` at 1e6 rows: 0.16-0.17 s without them, 0.54-0.57 s with), paid back
#: after about fifteen evaluations of a million rows or two of ten million. Below this
#: size a call would save under 15 ms, too little to be worth numba's first load.
COMPILED_TABLE_ROWS = 500_000


def compiled_table(module: str, n_distinct: int) -> ModuleType | None:
    """:func:`compiled` for a pass over a count table of ``n_distinct`` rows: the
    module's loops from :data:`COMPILED_TABLE_ROWS` rows (read at each call)."""
    return compiled(module, n_distinct, COMPILED_TABLE_ROWS)


@contextlib.contextmanager
def use_compiled(enabled: bool | None) -> Iterator[None]:
    """Switch the compiled loops on (whatever the size) or off inside the block, or back
    to choosing by size with None (for tests and benchmarks). The environment's
    ``BINMETRICS_COMPILED=0`` wins over it."""
    before = _compiled["enabled"]
    _compiled["enabled"] = enabled
    try:
        yield
    finally:
        _compiled["enabled"] = before


def jit(f: Any = None, *, fastmath: bool | set[str] = False,
        error_model: Literal["python", "numpy"] = "python") -> Any:
    """``numba.njit(nogil=True, cache=True)`` for a module of loops that
    :func:`compiled` gives, or without the on-disk cache when numba finds nowhere to
    write it (a read-only install and home directory: each process then compiles the
    loops once); ``f`` itself when numba is not installed (the module still imports,
    its loops plain Python, unused). ``@jit(fastmath=..., error_model=...)`` passes
    numba's flags on. Loops live at module level, so that the cache finds them again in
    a new process."""
    if f is None:
        return lambda g: jit(g, fastmath=fastmath, error_model=error_model)
    try:
        import numba
    except ImportError:
        return f
    try:
        return numba.njit(nogil=True, cache=True, fastmath=fastmath, error_model=error_model)(f)
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return numba.njit(nogil=True, fastmath=fastmath, error_model=error_model)(f)


def inline(f: Any) -> Any:
    """A helper compiled into the :func:`jit` loops that call it (numba's inlining);
    ``f`` itself without numba."""
    try:
        import numba
    except ImportError:
        return f
    return numba.njit(inline="always")(f)
