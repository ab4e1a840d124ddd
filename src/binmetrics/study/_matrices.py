"""The SRD input matrices of a benchmark study made ready for the SRD.

Helpers of :meth:`Study.measures_matrix
<binmetrics.study.results.Study.measures_matrix>` and :meth:`Study.models_matrix
<binmetrics.study.results.Study.models_matrix>`: the ``by`` columns checked,
row labels joined, lower-is-better measures negated (``orient``), and measures or rows
without a direction, with NaN or infinite values, or constant dropped with their
reasons in ``attrs["dropped"]`` (``clean``); ``_warn_dropped`` says what was dropped in
one warning.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from binmetrics.exceptions import BinmetricsWarning
from binmetrics.measures import get_measure
from binmetrics.measures.registry import iter_measures


def _check_by(by: Sequence[str], kind: str) -> list[str]:
    out = [by] if isinstance(by, str) else list(by)
    allowed = ("dataset", "balance", "classes") + (("model", "validation")
                                                    if kind == "measure" else ())
    bad = [b for b in out if b not in allowed]
    if bad:
        raise ValueError(f"by must name columns among {allowed}; got {bad}")
    return out


def _labels(index: pd.Index) -> pd.Index:
    if isinstance(index, pd.MultiIndex):
        return pd.Index([" | ".join(map(str, ix)) for ix in index], name=" | ".join(
            str(n) for n in index.names))
    return pd.Index([str(ix) for ix in index], name=index.name)


def _reorder(out: pd.DataFrame, order: dict[str, list[Any]], idx: list[str],
             cols: list[str]) -> pd.DataFrame:
    def key(names: list[str]) -> Callable[[pd.Index], pd.Index]:
        def k(level: pd.Index) -> pd.Index:
            pos: list[int] = [order[str(level.name)].index(v) for v in level]
            return pd.Index(pos)
        return k

    out = out.sort_index(axis=0, key=key(idx), sort_remaining=False)
    return out.sort_index(axis=1, key=key(cols), sort_remaining=False)


def _correction_measures() -> tuple[str, ...]:
    """The measures of the registry with a ``correction`` parameter (the Haldane–Anscombe
    correction of LR+, LR- and DOR, docs/conventions.md): those an empty confusion cell makes
    infinite unless it is set."""
    return tuple(m.id for m in iter_measures() if "correction" in m.params)


def _finite_and_varying(values: pd.DataFrame, axis: int) -> tuple[list[Any], dict[Any, str]]:
    """The labels along ``axis`` (0: columns kept, i.e. test each column; 1: rows) to keep,
    and the reasons of the others."""
    dropped: dict[Any, str] = {}
    arr = values.to_numpy(dtype=float)
    lines = arr if axis == 1 else arr.T
    labels = values.index if axis == 1 else values.columns
    keep = []
    for lab, v in zip(labels, lines, strict=True):
        bad = ~np.isfinite(v)
        if bad.any():
            what = "NaN" if np.isnan(v).all() else (
                f"{int(np.isnan(v).sum())} NaN and {int(np.isinf(v).sum())} infinite values")
            hint = ""
            name = lab[0] if isinstance(lab, tuple) else lab
            if np.isinf(v).any() and name in _correction_measures():
                hint = (f"; benchmark(measure_params={{{name!r}: {{'correction': 0.5}}}}) keeps "
                        "it finite")
            dropped[lab] = f"undefined or infinite ({what}){hint}"
        elif v.size and np.all(v == v[0]):
            dropped[lab] = f"constant ({v[0]:g}): it does not rank anything"
        else:
            keep.append(lab)
    return keep, dropped


def _prepare_measures(m: pd.DataFrame, *, orient: bool, clean: bool) -> pd.DataFrame:
    dropped: dict[str, str] = {}
    negated: list[str] = []
    dirs = {c: get_measure(c).direction for c in m.columns}
    if clean:
        for c, d in dirs.items():
            if d == 0:
                dropped[c] = "no direction (neither higher nor lower is better)"
        m = m[[c for c in m.columns if c not in dropped]]
        if len(m):
            # a row undefined for most measures (e.g. a one-class test part) would take
            # every measure with it: drop the row instead
            share = (~np.isfinite(m.to_numpy(dtype=float))).mean(axis=1)
            bad_rows = m.index[share > 0.5]
            for r in bad_rows:
                dropped[f"row {r}"] = "undefined for most measures"
            m = m.drop(index=bad_rows)
        keep, more = _finite_and_varying(m, axis=0)
        dropped.update(more)
        m = m[keep]
    if orient:
        negated = [c for c in m.columns if dirs[c] < 0]
        m = m.copy()
        m[negated] = -m[negated]
    m.attrs["dropped"] = dropped
    m.attrs["negated"] = negated
    return m


def _prepare_models(m: pd.DataFrame, *, clean: bool) -> pd.DataFrame:
    ids = m.attrs.get("measure_ids", list(m.index))
    dirs = [get_measure(i).direction for i in ids]
    dropped: dict[str, str] = {}
    if clean:
        zero = [lab for lab, d in zip(m.index, dirs, strict=True) if d == 0]
        for lab in zero:
            dropped[lab] = "no direction (neither higher nor lower is better)"
        keep, more = _finite_and_varying(m.drop(index=zero), axis=1)
        dropped.update(more)
        sel = [lab in keep for lab in m.index]
        m = m[sel]
        dirs = [d for d, s in zip(dirs, sel, strict=True) if s]
    m.attrs["dropped"] = dropped
    m.attrs["directions"] = dirs
    return m


def _warn_dropped(mats: Mapping[tuple[Any, ...], pd.DataFrame], what: str,
                  by: Sequence[str]) -> pd.DataFrame:
    rows = [(*key, item, why) for key, m in mats.items()
            for item, why in m.attrs.get("dropped", {}).items()]
    frame = pd.DataFrame(rows, columns=[*by, "item", "reason"])
    if len(frame):
        items = list(dict.fromkeys(frame["item"]))
        shown = ", ".join(items[:12]) + (", ..." if len(items) > 12 else "")
        warnings.warn(f"{what}: left out {len(frame)} time(s) in {len(mats)} group(s): {shown} "
                      "(no direction, NaN/infinite or constant; see .dropped)", BinmetricsWarning,
                      stacklevel=3)
    return frame
