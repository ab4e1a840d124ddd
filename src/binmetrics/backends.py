"""Optional backends, reached lazily: matplotlib (:func:`pyplot`, :func:`axes`), joblib
and threads.

The computing layers never import :mod:`binmetrics.display` (it sits above them), and
they do not need to: every chart they draw is computed below it and drawn by
:func:`binmetrics.chart.render` or by their own matplotlib code through :func:`pyplot`.
Nothing reaches a higher layer by name.
"""

from __future__ import annotations

import contextvars
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

from binmetrics.exceptions import Deferred

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = [
    "EXTRAS",
    "THREAD_ROWS",
    "axes",
    "missing_extra",
    "parallel",
    "pyplot",
    "require",
    "thread_imap",
    "thread_map",
    "threads",
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
