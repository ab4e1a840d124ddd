"""What the Polars and Dask engines share: the front door of a frame engine (the
function behind ``bm.evaluate(frame, ...)``) and the sort order of the statistics."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from binmetrics.evaluation.binary import Evaluation
from binmetrics.evaluation.by import ByResult
from binmetrics.evaluation.options import DEFAULTS, EvalOptions


def frame_evaluator(job: Callable[..., Any]) -> Callable[..., Evaluation | ByResult]:
    """``evaluate(data, *, label, score, weight, by, <evaluate's options>, decimals, bins,
    **by_options)`` running ``job(data, label=, score=, weight=, by=, **engine_options)``
    (the job's own options: the Polars ``streaming`` engine, the Dask ``split_every``)."""

    def evaluate(data: Any, *, label: str | None = None, score: Any = None,
                 weight: str | None = None, by: Any = None,
                 threshold: float = DEFAULTS.threshold, pos_label: Any = None,
                 nan_policy: Any = "raise", undefined: Any = "warn", pi0: Any = None,
                 higher_is_positive: bool = True, decimals: int | None = None,
                 bins: Any = None, **options: Any) -> Evaluation | ByResult:
        if not isinstance(label, str) or not isinstance(score, str):
            raise TypeError("a frame is evaluated by its columns: give label='y' and "
                            "score='p' (one score column)")
        by_keys = ("measures", "ci", "ci_method", "level", "n_resamples", "random_state",
                   "min_cases")
        by_options = {k: options.pop(k) for k in by_keys if k in options}
        opts = EvalOptions(threshold=threshold, pos_label=pos_label, nan_policy=nan_policy,
                           undefined=undefined, pi0=pi0, decimals=decimals, bins=bins,
                           higher_is_positive=higher_is_positive)
        with job(data, label=label, score=score, weight=weight, by=by, **options) as j:
            return j.evaluate(opts, **by_options)

    return evaluate


def null_last_key(row: tuple[Any, ...], n: int) -> tuple[Any, ...]:
    """A sort key of a statistics row's first ``n`` values (the group keys and the
    label): each value's order, missing ones (None, NaN) last."""
    out: list[Any] = []
    for v in row[:n]:
        missing = v is None or (isinstance(v, float) and math.isnan(v))
        out.append((1, 0) if missing else (0, v))
    return tuple(out)
