"""``evaluate_dask``: a Dask DataFrame, one count table per partition, merged in a tree.

Dask (``pip install 'binmetrics[dask]'``) runs the two queries of every engine
(:mod:`binmetrics.engines._common`) where the partitions are, on the scheduler in use
(a ``distributed`` cluster, or Dask's local threads): each partition gives its
statistics per (group, label) and its count table per (group, score or bin), in
NumPy and pandas; the tables are merged pairwise-and-up, ``split_every`` at a time,
on the workers (a tree reduction, as ``dask.dataframe``'s own aggregations), and only
the merged table reaches the client (docs/architecture.md, "Where users outgrow one
machine"). A table of a union of partitions is the sum of their tables, so the result
does not depend on how the rows are partitioned: empty partitions add nothing.

When most unweighted scores are distinct a merged table would be as large as the data,
so the partitions' tables are sent to the client as they are computed and the
:class:`~binmetrics.engines._common.Collector` sorts them (the DuckDB and Spark
engines' path). Counts are exact integers; weighted counts are float sums (to about
1e-15 relative of the in-memory result). Bins are
:class:`~binmetrics.table.binning.BinSpec`'s own arithmetic, so the error bounds are
the DuckDB engine's.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd

from binmetrics.engines._common import (
    STAT_COLUMNS,
    AggregateJob,
    Group,
    check_names,
    missing_engine,
)
from binmetrics.engines._frames import frame_evaluator, null_last_key
from binmetrics.engines.registry import EngineOption, FileEngine, register_engine
from binmetrics.evaluation.binary import Evaluation
from binmetrics.evaluation.by import ByResult
from binmetrics.evaluation.frames import FrameEngine, register_frame_engine
from binmetrics.evaluation.options import DEFAULTS, EvalOptions
from binmetrics.exceptions import EngineError, UndefinedPolicy, one_line
from binmetrics.measures.sums import engine_sums, raw_sum_names
from binmetrics.table.binning import BinSpec
from binmetrics.validation import NanPolicy

__all__ = ["DaskJob", "evaluate_dask"]

#: partitions merged at a time in the tree reduction (dask.dataframe's default)
SPLIT_EVERY = 8
#: rows per chunk of the merged table handed to the assembler
CHUNK_ROWS = 1 << 20


def _dask() -> Any:
    try:
        import dask
        import dask.dataframe
    except ImportError:
        raise missing_engine("dask", "dask", "evaluate_dask") from None
    return dask


def dask_errors() -> tuple[type[BaseException], ...]:
    """What a lost worker or a failed task raises: the scheduler's errors, and OSError
    (a connection closed)."""
    errors: list[type[BaseException]] = [OSError]
    try:
        from distributed import KilledWorker
        from distributed.comm.core import CommClosedError

        errors += [KilledWorker, CommClosedError]
    except ImportError:  # pragma: no cover - dask without distributed
        pass
    try:
        from distributed.client import FutureCancelledError

        errors.append(FutureCancelledError)
    except ImportError:  # pragma: no cover
        pass
    return tuple(errors)


# --- what runs on the workers (module functions: they are pickled by reference) ----------
def _as_float(col: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """A numeric column as float64, and where it is NULL (pandas NA, None)."""
    null = col.isna().to_numpy() if col.dtype.kind not in "fc" else np.zeros(len(col), bool)
    x = col.to_numpy(dtype=np.float64, na_value=np.nan)
    return x, null


def partition_stats(pdf: pd.DataFrame, cfg: dict[str, Any]) -> pd.DataFrame:
    """One partition's statistics per (k0..., y): the columns of STAT_COLUMNS."""
    keys = [f"k{i}" for i in range(len(cfg["by"]))]
    x, null = _as_float(pdf[cfg["score"]])
    nan = np.isnan(x) & ~null
    inf = np.isinf(x)
    finite = np.isfinite(x)
    out = pd.DataFrame({k: pdf[b].to_numpy() for k, b in zip(keys, cfg["by"], strict=True)})
    out["y"] = pdf[cfg["label"]].to_numpy()
    out["n"] = np.ones(len(pdf), np.int64)
    out["n_null"], out["n_nan"], out["n_inf"] = null, nan, inf
    out["s_min"] = np.where(finite, x, np.inf)
    out["s_max"] = np.where(finite, x, -np.inf)
    if cfg["weight"] is not None:
        w, _ = _as_float(pdf[cfg["weight"]])
        w = w * 2.0 ** cfg["half"] * 2.0 ** (cfg["exponent"] - cfg["half"])
        bad = ~np.isfinite(w)
        out["w_all"], out["w_fin"] = w, np.where(finite, w, 0.0)
        out["n_wbad"], out["n_wneg"] = bad, w < 0
        out["w_min"], out["w_max"] = w, w
    else:
        zeros = np.zeros(len(pdf))
        for c in ("w_all", "w_fin", "w_min", "w_max"):
            out[c] = zeros
        out["n_wbad"], out["n_wneg"] = zeros.astype(bool), zeros.astype(bool)
    return _regroup_stats([out], len(keys))


_AGG = {"n": "sum", "n_null": "sum", "n_nan": "sum", "n_inf": "sum", "s_min": "min",
        "s_max": "max", "w_all": "sum", "w_fin": "sum", "n_wbad": "sum", "n_wneg": "sum",
        "w_min": "min", "w_max": "max"}


def _regroup_stats(parts: list[pd.DataFrame], n_keys: int) -> pd.DataFrame:
    frame = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
    keys = [f"k{i}" for i in range(n_keys)] + ["y"]
    return frame.groupby(keys, dropna=False, sort=False).agg(_AGG).reset_index()


def merge_stats(parts: list[pd.DataFrame], n_keys: int) -> pd.DataFrame:
    """The statistics of several partitions (a node of the tree)."""
    return _regroup_stats([p for p in parts if len(p)] or parts[:1], n_keys)


def partition_counts(pdf: pd.DataFrame, cfg: dict[str, Any]) -> pd.DataFrame:
    """One partition's count table per (gid, s): pos, neg (and the raw sums when binned)."""
    x, _ = _as_float(pdf[cfg["score"]])
    keep = np.isfinite(x)
    y = pdf[cfg["label"]].to_numpy()[keep]
    x = x[keep]
    is_pos = pd.Series(y).isin(cfg["pos_values"]).to_numpy()
    groups: dict[Any, int] = cfg["gids"]
    if cfg["by"]:
        keys = pd.MultiIndex.from_arrays([pdf[b].to_numpy()[keep] for b in cfg["by"]])
        index = pd.MultiIndex.from_tuples(list(groups)) if groups else keys[:0]
        gid = pd.Series(np.arange(len(groups)), index=index).reindex(keys).to_numpy()
        if np.isnan(gid).any():  # cannot happen: the statistics saw every key
            raise RuntimeError("a group key changed between the two passes")
        gid = gid.astype(np.int32)
    else:
        gid = np.zeros(x.size, np.int32)
    if cfg["weight"] is not None:
        w, _ = _as_float(pdf[cfg["weight"]])
        w = w[keep] * 2.0 ** cfg["half"] * 2.0 ** (cfg["exponent"] - cfg["half"])
    else:
        w = np.ones(x.size, np.int64)
    spec: BinSpec | None = cfg["spec"]
    out = pd.DataFrame({"gid": gid, "s": x if spec is None else spec.assign(x),
                        "pos": np.where(is_pos, w, 0), "neg": np.where(is_pos, 0, w)})
    if spec is not None:
        prior = np.asarray(cfg["priors"])[gid]
        for term in engine_sums():
            col = np.zeros(x.size)
            for g in np.unique(gid):  # the information score reads the group's prior
                rows = gid == g
                for positive in (True, False):
                    if term.rows == ("neg" if positive else "pos"):
                        continue
                    sel = rows & (is_pos == positive)
                    if sel.any():
                        col[sel] = w[sel] * term.numpy(x[sel], positive, float(prior[sel][0]))
            out[term.name] = col
    return merge_counts([out])


def merge_counts(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """The count table of several partitions: their rows summed per (gid, s)."""
    parts = [p for p in parts if len(p)] or parts[:1]
    frame = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
    return frame.groupby(["gid", "s"], sort=False).sum().reset_index()


class DaskJob(AggregateJob):
    """The Dask engine behind :func:`evaluate_dask`; ``source`` names the data in
    messages (default "the Dask DataFrame"; the command line gives the files)."""

    source = "the Dask DataFrame"
    #: no distinct-count estimate: unweighted exact tables go to the Collector
    collect_unsorted = True

    def __init__(self, data: Any, *, label: str, score: str, weight: str | None = None,
                 by: str | Sequence[str] | None = None, where: str | None = None,
                 source: str | None = None, split_every: int = SPLIT_EVERY,
                 client: Any = None) -> None:
        super().__init__(label=label, score=score, weight=weight, by=by, where=where)
        _dask()
        if not (hasattr(data, "to_delayed") and hasattr(data, "npartitions")
                and hasattr(data, "dtypes")):
            raise TypeError(f"data must be a dask DataFrame, got {type(data).__name__}")
        if source is not None:
            self.source = source
        if where is not None:
            raise ValueError("where= (--where) is not supported by the Dask engine: "
                             "filter the DataFrame first (ddf[ddf.split == 'test']), or "
                             "use the DuckDB or Spark engine")
        if not (isinstance(split_every, int) and split_every >= 2):
            raise ValueError(f"split_every must be an integer >= 2, got {split_every!r}")
        self.split_every = split_every
        self._client = client
        dtypes = {str(c): t for c, t in data.dtypes.items()}
        wanted = [("label", label), ("score", score)]
        if weight is not None:
            wanted.append(("weight", weight))
        wanted += [("group", b) for b in self.by]
        check_names(list(dtypes), wanted, self.source)
        for role, col in (("score", score), ("weight", weight)):
            if col is not None and not (pd.api.types.is_numeric_dtype(dtypes[col])
                                        or pd.api.types.is_bool_dtype(dtypes[col])):
                raise TypeError(f"{role} column {col!r} of {self.source} must be numeric; its "
                                f"type is {dtypes[col]}")
        self._key_kinds = [np.dtype(dtypes[b]).kind if isinstance(dtypes[b], np.dtype)
                           else "O" for b in self.by]
        cols = list(dict.fromkeys([label, score, *([weight] if weight else []), *self.by]))
        self._parts = data[cols].to_delayed()

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            client.close()

    @staticmethod
    def _value(v: Any, none_if_missing: bool) -> Any:
        """A value of the statistics as Python's; a missing key of a column that is not
        float (pandas NA, NaN of a string column) as None, as pandas reads it."""
        if none_if_missing and (v is None or v is pd.NA or (isinstance(v, float)
                                                            and math.isnan(v))):
            return None
        return v.item() if isinstance(v, np.generic) else v

    def _cfg(self, **extra: Any) -> dict[str, Any]:
        half = self.w_exponent // 2
        return {"label": self.label, "score": self.score, "weight": self.weight,
                "by": self.by, "exponent": self.w_exponent, "half": half, **extra}

    def _rescale_weights(self, exponent: int) -> bool:
        self.w_exponent = exponent
        return True

    def _compute(self, *objs: Any) -> Any:
        dask = _dask()
        try:
            return dask.compute(*objs)
        except dask_errors() as exc:
            raise EngineError(f"Dask failed on {self.source}: {type(exc).__name__}: "
                              f"{one_line(exc)[:1000]}") from None

    def _as_completed(self, parts: list[Any]) -> Iterator[Any]:
        """The results of ``parts`` (delayed) in the order they finish: all submitted at
        once to a distributed client, else computed ``split_every`` at a time."""
        try:
            from distributed import as_completed, default_client

            client = default_client()
        except (ImportError, ValueError):  # no distributed, or no client: local threads
            for i in range(0, len(parts), self.split_every):
                yield from self._compute(*parts[i:i + self.split_every])
            return
        futures = client.compute(parts)
        try:
            for future in as_completed(futures):
                yield future.result()
                future.release()
        except dask_errors() as exc:
            raise EngineError(f"Dask failed on {self.source}: {type(exc).__name__}: "
                              f"{one_line(exc)[:1000]}") from None
        finally:
            for future in futures:
                future.release()

    def _tree(self, parts: list[Any], merge: Any, *args: Any) -> Any:
        """The merge of ``parts`` (delayed), ``split_every`` at a time, up to one."""
        from dask import delayed

        while len(parts) > 1:
            parts = [delayed(merge)(parts[i:i + self.split_every], *args)
                     for i in range(0, len(parts), self.split_every)]
        return parts[0]

    def _stats(self) -> list[tuple[Any, ...]]:
        from dask import delayed

        cfg = self._cfg()
        n = len(self.by)
        parts = [delayed(partition_stats)(p, cfg) for p in self._parts]
        (table,) = self._compute(self._tree(parts, merge_stats, n))
        rows = []
        for r in table.itertuples(index=False):
            r = tuple(self._value(v, i < n and self._key_kinds[i] != "f")
                      for i, v in enumerate(r))
            body = dict(zip(STAT_COLUMNS, r[n + 1:], strict=True))
            fin = body["n"] - body["n_null"] - body["n_nan"] - body["n_inf"]
            if not fin:
                body["s_min"] = body["s_max"] = None
            if self.weight is None:
                body.update(w_all=None, w_fin=None, w_min=None, w_max=None)
            rows.append((*r[:n + 1], *(body[c] for c in STAT_COLUMNS)))
        return sorted(rows, key=lambda r: null_last_key(r, n + 1))

    def _counts(self, pos_values: list[Any], spec: BinSpec | None, groups: list[Group],
                sort: bool, ordered: bool = True) -> Iterator[dict[str, np.ndarray]]:
        from dask import delayed

        cfg = self._cfg(pos_values=pos_values, spec=spec,
                        gids={g.key: i for i, g in enumerate(groups)},
                        priors=[g.prior if math.isfinite(g.prior) else 0.5 for g in groups])
        parts = [delayed(partition_counts)(p, cfg) for p in self._parts]
        if not ordered:  # each partition's table to the Collector, as they come
            for t in self._as_completed(parts):
                yield {"gid": t["gid"].to_numpy(np.int64), "s": t["s"].to_numpy(),
                       "pos": t["pos"].to_numpy(), "neg": t["neg"].to_numpy()}
            return
        (table,) = self._compute(self._tree(parts, merge_counts))
        table = table.sort_values(["gid", "s"], ascending=[True, False], kind="stable")
        names = list(raw_sum_names()) if spec is not None else []
        for a in range(0, len(table), CHUNK_ROWS):
            part = table.iloc[a:a + CHUNK_ROWS]
            chunk = {"gid": part["gid"].to_numpy(np.int64), "s": part["s"].to_numpy(),
                     "pos": part["pos"].to_numpy(), "neg": part["neg"].to_numpy()}
            chunk.update({c: part[c].to_numpy() for c in names})
            yield chunk


def evaluate_dask(
    data: Any,
    *,
    label: str,
    score: str,
    weight: str | None = None,
    by: str | Sequence[str] | None = None,
    pos_label: Any = None,
    threshold: float = DEFAULTS.threshold,
    nan_policy: NanPolicy = "raise",
    decimals: int | None = None,
    bins: Any = None,
    undefined: UndefinedPolicy = "warn",
    pi0: Any = None,
    split_every: int = SPLIT_EVERY,
    **by_options: Any,
) -> Evaluation | ByResult:
    """Evaluate the scores of a Dask DataFrame: one count table per partition, merged in
    a tree on the workers; only the merged table comes back.

    ``bm.evaluate(ddf, label=..., score=...)`` and ``bm.evaluate_by(ddf, ...)`` call
    this. The parameters and the result are those of
    :func:`binmetrics.engines.evaluate_file` (no ``where``: filter the DataFrame), and
    so are the checks, raised before the counting pass. ``split_every``: tables merged
    at a time. A worker lost during the computation is an
    :class:`~binmetrics.exceptions.EngineError` naming Dask's error.

    Examples
    --------
    >>> import dask
    >>> import dask.dataframe as dd
    >>> import pandas as pd
    >>> from binmetrics.engines import evaluate_dask
    >>> df = pd.DataFrame({"y": [1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                    "p": [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]})
    >>> with dask.config.set(scheduler="synchronous"):
    ...     ev = evaluate_dask(dd.from_pandas(df, npartitions=3), label="y", score="p",
    ...                        threshold=0.55)
    >>> ev["auc"], ev.confusion
    (0.8, Confusion(tp=3, fp=1, fn=2, tn=4))
    """
    options = EvalOptions(threshold=threshold, pos_label=pos_label, nan_policy=nan_policy,
                          undefined=undefined, pi0=pi0, decimals=decimals, bins=bins)
    with DaskJob(data, label=label, score=score, weight=weight, by=by,
                 split_every=split_every) as job:
        return job.evaluate(options, **by_options)


def open_dask_file(path: str, *, label: str, score: str, weight: str | None = None,
                   by: str | Sequence[str] | None = None, where: str | None = None,
                   scheduler: str | None = None) -> DaskJob:
    """A Dask job on a CSV or Parquet file (or glob): on the cluster at ``scheduler``
    (a ``tcp://`` address; the client is closed with the job), else Dask's threads."""
    import glob
    import os

    from binmetrics.engines.files import format_of

    try:
        import dask.dataframe as dd
    except ImportError:
        raise DASK.missing("--engine dask") from None
    if "://" not in path and not (glob.glob(path) if glob.has_magic(path)
                                  else os.path.exists(path)):
        raise FileNotFoundError(f"no file matches {path!r}")
    fmt = format_of([path], None)
    client = None
    if scheduler is not None:
        try:
            from distributed import Client

            client = Client(scheduler, timeout=10)
        except ImportError:
            raise DASK.missing("--scheduler") from None
        except (OSError, TimeoutError) as exc:
            raise EngineError(f"cannot reach the Dask scheduler at {scheduler}: "
                              f"{one_line(exc)}") from None
    try:
        cols = list(dict.fromkeys([label, score, *([weight] if weight else []),
                                   *([by] if isinstance(by, str) else (by or []))]))
        ddf = dd.read_parquet(path) if fmt == "parquet" else dd.read_csv(path)
        if all(c in ddf.columns for c in cols):
            ddf = ddf[cols]
        return DaskJob(ddf, label=label, score=score, weight=weight, by=by, where=where,
                       source=repr(path), client=client)
    except BaseException:
        if client is not None:
            client.close()
        raise


def _takes(data: Any, engine_options: dict[str, Any]) -> bool:
    return hasattr(data, "to_delayed") and hasattr(data, "npartitions") and hasattr(
        data, "dtypes")


DASK = register_engine(FileEngine(
    "dask", "Dask", "dask", "dask",
    "CSV/Parquet files and globs, per-partition tables merged on a Dask cluster",
    open=open_dask_file,
    options=(EngineOption("--scheduler", "scheduler",
                          "Dask scheduler address for --engine dask (default: Dask's "
                          "local threads)", "URL"),)))
register_frame_engine(FrameEngine("dask", _takes, frame_evaluator(DaskJob)))
