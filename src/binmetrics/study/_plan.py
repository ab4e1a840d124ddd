"""The settings of a benchmark study, planned before any model is fitted.

For every data set of :func:`~binmetrics.study.runner.benchmark`: the stratified
external test split, the class settings (every class, or the two extreme ones), the
balanced variant (each class of the training part undersampled to the smallest), and
every seed derived from the study's ``random_state`` in the main process, so that the
results do not depend on ``n_jobs`` (``_plan``, one ``_Setting`` each). Also the
``measure_params`` of the study split per class setting and tried on a toy prediction
in each setting the study runs (``_split_params``, ``_check_params``), so that a
parameter of the wrong kind is an error before any fit.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from binmetrics.exceptions import BinmetricsWarning
from binmetrics.measures import get_measure
from binmetrics.validation import n_rows, take_rows

_BALANCES = ("imbalanced", "balanced")
_CLASS_SETTINGS = ("multiclass", "2-class")
_VALIDATIONS = ("cv", "test")


# --- planning: splits, class settings, balanced variants -----------------------------------
@dataclass
class _Setting:
    """One (data set, balance, class setting): the training and test parts."""

    dataset: str
    balance: str
    classes: str
    labels: list[Any]  # the classes of this setting in their order, or [negative, positive]
    X_train: Any
    y_train: npt.NDArray[Any]
    X_test: Any
    y_test: npt.NDArray[Any] | None
    train_index: npt.NDArray[np.intp]   # rows of the data set
    test_index: npt.NDArray[np.intp] | None
    cv_seed: int
    model_seeds: list[int]


def _seed_int(ss: np.random.SeedSequence) -> int:
    return int(ss.generate_state(1, dtype=np.uint32)[0])


def _check_choices(values: Any, allowed: tuple[str, ...], name: str) -> list[str]:
    chosen = [values] if isinstance(values, str) else list(values)
    bad = [v for v in chosen if v not in allowed]
    if bad or not chosen:
        raise ValueError(f"{name} must be one or more of {allowed}; got {values!r}")
    if len(set(chosen)) != len(chosen):
        raise ValueError(f"{name} lists a value twice: {values!r}")
    return chosen


def _label_order(name: str, y_in: Any, y: npt.NDArray[Any]) -> tuple[list[Any], bool]:
    """The classes of data set ``name`` in their order, and whether that order is the
    user's: the categories' order for an ordered pandas Categorical ``y`` (the classes
    present only), otherwise sorted order."""
    present = np.unique(y).tolist()
    dtype = getattr(y_in, "dtype", None)
    if isinstance(dtype, pd.CategoricalDtype) and dtype.ordered:
        seen = set(present)
        return [c for c in dtype.categories.tolist() if c in seen], True
    try:
        return sorted(present), False
    except TypeError:
        raise TypeError(f"datasets[{name!r}]: the labels cannot be sorted ({present}); use "
                        "labels of one type") from None


def _two_classes(name: str, labels: list[Any], two_class: Any, *,
                 ordered: bool = False) -> list[Any]:
    """[negative, positive] of the 2-class setting of data set ``name``; ``labels`` in
    their order (see :func:`_label_order`)."""
    spec = two_class
    if isinstance(two_class, Mapping):
        if name not in two_class:
            raise ValueError(f"two_class is a mapping without data set {name!r}; it has "
                             f"{list(two_class)}")
        spec = two_class[name]
    if isinstance(spec, str) and spec == "extremes":
        if not ordered and not all(isinstance(c, (int, float, np.number)) for c in labels):
            warnings.warn(f"datasets[{name!r}]: two_class='extremes' takes the first and last "
                          f"label in sorted order, {labels[0]!r} and {labels[-1]!r} (positive) "
                          f"of {labels}; for labels with another order pass y as an ordered "
                          "pandas Categorical or two_class=(negative, positive)", BinmetricsWarning,
                          stacklevel=4)
        return [labels[0], labels[-1]]
    if isinstance(spec, (str, bytes)) or not isinstance(spec, Sequence) or len(spec) != 2:
        raise ValueError(f"two_class must be 'extremes', a pair of labels (negative, "
                         f"positive) or a mapping data set -> pair; got {spec!r} for {name!r}")
    pair = list(spec)
    missing = [p for p in pair if p not in labels]
    if missing or pair[0] == pair[1]:
        raise ValueError(f"two_class {spec!r} for data set {name!r} must name two different "
                         f"labels among its classes {labels}")
    return pair


def _class_counts(y: npt.NDArray[Any] | None, labels: list[Any]) -> str:
    if y is None:
        return ""
    return ", ".join(f"{lab}: {int(np.sum(y == lab))}" for lab in labels)


def _plan(datasets: Mapping[str, Any], *, balance: list[str], classes: list[str],
          two_class: Any, test_size: Any, n_models: int,
          root: np.random.SeedSequence) -> tuple[list[_Setting], list[dict[str, Any]]]:
    """Every setting's training and test parts (all randomness is drawn here, in the main
    process, so that the results do not depend on ``n_jobs``)."""
    from sklearn.model_selection import train_test_split

    settings: list[_Setting] = []
    skipped: list[dict[str, Any]] = []
    for (name, data), ss in zip(datasets.items(), root.spawn(len(datasets)), strict=True):
        if not isinstance(name, str):
            raise TypeError(f"dataset names must be strings; got {name!r}")
        if not isinstance(data, Sequence) or len(data) != 2:
            raise TypeError(f"datasets[{name!r}] must be a pair (X, y); got "
                            f"{type(data).__name__}")
        X, y_in = data
        y = np.asarray(y_in.to_numpy() if isinstance(y_in, pd.Series) else y_in)
        if y.ndim != 1:
            raise ValueError(f"datasets[{name!r}]: y must be 1-D; got shape {y.shape}")
        rows_x = n_rows(X, f"datasets[{name!r}] X")
        if rows_x != y.size:
            raise ValueError(f"datasets[{name!r}]: X has {rows_x} rows but y has "
                             f"{y.size} labels")
        if pd.isna(y).any():
            raise ValueError(f"datasets[{name!r}]: y has {int(pd.isna(y).sum())} missing labels")
        labels, ordered = _label_order(name, y_in, y)
        if len(labels) < 2:
            raise ValueError(f"datasets[{name!r}]: y holds a single class ({labels}); a "
                             "classifier needs at least two")
        split_ss, *class_ss = ss.spawn(1 + len(classes))
        idx = np.arange(y.size)
        if test_size is None:
            tr, te = idx, None
        else:
            try:
                tr, te = train_test_split(idx, test_size=test_size, stratify=y,
                                          random_state=_seed_int(split_ss))
            except ValueError as exc:
                raise ValueError(f"datasets[{name!r}]: the stratified test split failed: "
                                 f"{exc} (class counts {_class_counts(y, labels)})") from None
            tr, te = np.sort(tr), np.sort(te)
        for setting, css in zip(classes, class_ss, strict=True):
            if setting == "multiclass" and len(labels) == 2:
                skipped.append({"dataset": name, "classes": setting,
                                "reason": "the data set has 2 classes: its multiclass "
                                          "setting would repeat the 2-class one"})
                continue
            keep = labels if setting == "multiclass" else _two_classes(name, labels, two_class,
                                                                       ordered=ordered)
            sort_keep = sorted(keep)
            tr_s = tr[np.isin(y[tr], sort_keep)]
            te_s = None if te is None else te[np.isin(y[te], sort_keep)]
            bal_ss = css.spawn(len(balance))
            for b, bss in zip(balance, bal_ss, strict=True):
                under_ss, cv_ss, *model_ss = bss.spawn(2 + n_models)
                rows = tr_s
                if b == "balanced":  # every class undersampled to the smallest (section 3.1)
                    rng = np.random.default_rng(under_ss)
                    per = [tr_s[y[tr_s] == lab] for lab in sort_keep]
                    n_min = min(p.size for p in per)
                    rows = np.sort(np.concatenate(
                        [rng.choice(p, size=n_min, replace=False) for p in per]))
                settings.append(_Setting(
                    dataset=name, balance=b, classes=setting, labels=keep,
                    X_train=take_rows(X, rows), y_train=y[rows],
                    X_test=None if te_s is None else take_rows(X, te_s),
                    y_test=None if te_s is None else y[te_s], train_index=rows, test_index=te_s,
                    cv_seed=_seed_int(cv_ss), model_seeds=[_seed_int(m) for m in model_ss]))
    return settings, skipped


# --- measure_params: per class setting, checked before any fit ------------------------------
def _split_params(measure_params: Mapping[str, Any] | None, ids: list[str]
                  ) -> dict[str, dict[str, dict[str, Any]]]:
    """``measure_params`` as class setting -> measure id -> parameters."""
    out: dict[str, dict[str, dict[str, Any]]] = {k: {} for k in _CLASS_SETTINGS}
    if measure_params is None:
        return out
    if not isinstance(measure_params, Mapping):
        raise TypeError("measure_params must be a mapping measure -> {parameter: value}; got "
                        f"{type(measure_params).__name__}")
    seen: dict[str, str] = {}
    for name, p in measure_params.items():
        m = get_measure(name)
        if m.id not in ids:
            raise ValueError(f"measure_params names {name!r}, which is not among the "
                             "measures of the study")
        if m.id in seen:
            raise ValueError(f"measure_params names {m.id} twice ({seen[m.id]!r} and {name!r})")
        seen[m.id] = name
        if not isinstance(p, Mapping):
            raise TypeError(f"measure_params[{name!r}] must be a mapping parameter -> value "
                            f"(or class setting -> such a mapping); got {type(p).__name__}")
        per_setting = [k for k in p if k in _CLASS_SETTINGS]
        if not per_setting:
            for kind in _CLASS_SETTINGS:
                out[kind][m.id] = dict(p)
            continue
        if len(per_setting) != len(p):
            raise ValueError(f"measure_params[{name!r}] mixes class settings {per_setting} "
                             f"and parameters {[k for k in p if k not in _CLASS_SETTINGS]}; "
                             "give either {parameter: value} or {setting: {parameter: value}}")
        for kind, q in p.items():
            if not isinstance(q, Mapping):
                raise TypeError(f"measure_params[{name!r}][{kind!r}] must be a mapping "
                                f"parameter -> value; got {type(q).__name__}")
            out[kind][m.id] = dict(q)
    return out


def _trial_value(mid: str, p: Mapping[str, Any], k: int) -> None:
    """Compute measure ``mid`` with parameters ``p`` on a small k-class toy prediction:
    raises what the real evaluation would raise for parameters of the wrong kind."""
    y = np.repeat(np.arange(k), 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if k == 2:
            from binmetrics.evaluation import evaluate

            evaluate(y, np.array([.1, .3, .6, .4, .7, .9])).value(mid, **p)
            return
        from binmetrics.evaluation.multiclass import evaluate_multiclass

        proba = np.full((y.size, k), 0.4 / (k - 1))
        right = np.arange(y.size) % 3 != 2  # two of three cases predicted right
        proba[np.arange(y.size), np.where(right, y, (y + 1) % k)] = 0.6
        evaluate_multiclass(y, proba).value(mid, **p)


def _check_params(params: Mapping[str, Mapping[str, Mapping[str, Any]]],
                  settings: list[_Setting], names: Mapping[str, str]) -> None:
    """Every parametrised measure tried in each class setting the study runs (the binary
    form in 2-class settings; the native multiclass form, or the binary one averaged one-vs-
    rest, in multiclass ones, with their numbers of classes), before any model is fitted."""
    from binmetrics.evaluation.multiclass import NATIVE_MEASURES

    n_classes: dict[str, set[int]] = {}
    for st in settings:
        n_classes.setdefault(st.classes, set()).add(len(st.labels))
    for kind in sorted(n_classes):  # "2-class" first
        ks = n_classes[kind]
        for mid, p in params[kind].items():
            if kind == "2-class":
                form = "the binary measure"
            elif mid in NATIVE_MEASURES:
                form = "the native multiclass measure (binmetrics.evaluation.multiclass)"
            else:
                form = "the binary measure averaged one-vs-rest"
            for k in sorted(ks):
                try:
                    _trial_value(mid, p, k)
                except Exception as exc:
                    cls = TypeError if isinstance(exc, TypeError) else ValueError
                    raise cls(
                        f"measure_params[{names[mid]!r}] = {p!r} does not suit {mid} in the "
                        f"{kind} setting ({form}, {k} classes): {type(exc).__name__}: {exc}. "
                        "Parameters that differ between the settings go in one mapping per "
                        f"setting: measure_params={{{mid!r}: {{'2-class': {{...}}, "
                        "'multiclass': {...}}}") from None
