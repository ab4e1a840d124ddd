"""Input checks shared by every entry point (functions, Evaluation, CLI, engines).

Each check raises an exception whose message names what was wrong, where, and
with which count or values, so that a user can fix the data without a debugger.
"""

from __future__ import annotations

import datetime as _dt
import math
import sys
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.exceptions import BinmetricsWarning

# the checks of options live in .arguments; every check is reached from here
from binmetrics.validation.arguments import (
    MAX_REPLICATE_BYTES as MAX_REPLICATE_BYTES,
)
from binmetrics.validation.arguments import (
    MAX_RESAMPLES as MAX_RESAMPLES,
)
from binmetrics.validation.arguments import (
    MIN_BIN_LIMIT as MIN_BIN_LIMIT,
)
from binmetrics.validation.arguments import (
    Alternative as Alternative,
)
from binmetrics.validation.arguments import (
    NanPolicy as NanPolicy,
)
from binmetrics.validation.arguments import (
    check_alternative as check_alternative,
)
from binmetrics.validation.arguments import (
    check_bin_count as check_bin_count,
)
from binmetrics.validation.arguments import (
    check_count as check_count,
)
from binmetrics.validation.arguments import (
    check_in_range as check_in_range,
)
from binmetrics.validation.arguments import (
    check_level as check_level,
)
from binmetrics.validation.arguments import (
    check_nan_policy as check_nan_policy,
)
from binmetrics.validation.arguments import (
    check_paired_values as check_paired_values,
)
from binmetrics.validation.arguments import (
    check_random_state as check_random_state,
)
from binmetrics.validation.arguments import (
    check_resamples as check_resamples,
)
from binmetrics.validation.arguments import (
    check_threshold as check_threshold,
)

#: Label sets whose positive class is known without ``pos_label``.
_STANDARD_ENCODINGS: tuple[tuple[frozenset[Any], Any], ...] = (
    (frozenset({0, 1}), 1),
    (frozenset({-1, 1}), 1),
)


@dataclass(frozen=True)
class BinaryInputs:
    """Validated binary-classification input: labels as booleans, scores as float64."""

    y: npt.NDArray[np.bool_]
    score: npt.NDArray[np.float64]
    weight: npt.NDArray[np.float64] | None
    pos_label: Any
    n_omitted: int
    #: the weights were multiplied by 2**weight_exponent (:func:`weight_exponent`)
    weight_exponent: int = 0


def plural(count: Any, noun: str) -> str:
    """'1 row', '3 rows'."""
    k = int(count)
    return f"{k} {noun}{'' if k == 1 else 's'}"


def row_list(mask: npt.NDArray[np.bool_], limit: int = 5, note: bool = True) -> str:
    """The first row positions where ``mask`` holds, for messages, saying that they
    count from 0 (the command line turns them into data rows counted from 1); with
    ``note=False`` the caller says it.

    >>> row_list(np.array([True, False, False, False, True]))
    '[0, 4] (0-based)'
    """
    idx = np.flatnonzero(mask)
    shown = ", ".join(str(i) for i in idx[:limit].tolist())
    return f"[{shown}{', ...' if idx.size > limit else ''}]" + (" (0-based)" if note else "")


def as_1d(x: Any, name: str) -> np.ndarray:
    """``x`` as a 1-D array; a 2-D column vector is accepted, anything else is an error."""
    pd = sys.modules.get("pandas")  # a pandas object means pandas is loaded: no import
    if pd is not None and isinstance(x, (pd.Series, pd.Index)):
        arr = x.to_numpy()
    else:
        arr = np.asarray(x)
    if arr.ndim == 2 and arr.shape[-1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(
            f"{name} must be 1-D (one value per row); got an array of shape {arr.shape}."
            + (
                " For a probability matrix (multiclass), use binmetrics.evaluate or "
                "binmetrics.evaluate_multiclass."
                if name == "y_score" and arr.ndim == 2
                else ""
            )
        )
    return arr


#: values that convert to a float but are not real numbers (dates, durations, complex
#: numbers, text)
_NOT_REAL = (str, bytes, complex, np.complexfloating, np.datetime64, np.timedelta64,
             _dt.date, _dt.time, _dt.timedelta)


def as_float(x: np.ndarray, name: str) -> npt.NDArray[np.float64]:
    """Convert to float64 or say which column does not hold real numbers.

    Datetimes, timedeltas, complex numbers and text (also inside an object array) are
    a TypeError naming the dtype: NumPy would turn them into numbers silently
    (nanoseconds, the real part, a parsed string).

    Examples
    --------
    >>> as_float(np.array([1, 0]), "y_score")
    array([1., 0.])
    >>> as_float(np.array(["2024-01-01"], dtype="datetime64[D]"), "y_score")
    Traceback (most recent call last):
    ...
    TypeError: y_score must be numeric (real numbers); got values of dtype datetime64[D] ...
    """
    kind = x.dtype.kind
    if kind in "biuf":
        return x.astype(np.float64, copy=False)
    if kind in "mMcUSV":
        raise TypeError(f"{name} must be numeric (real numbers); got values of dtype "
                        f"{x.dtype} such as {[str(v) for v in x[:3]]}; convert them to "
                        "numbers first")
    if kind == "O":
        bad = next((v for v in x.tolist() if isinstance(v, _NOT_REAL)), None)
        if bad is not None:
            raise TypeError(f"{name} must be numeric (real numbers); got values of dtype "
                            f"object holding {type(bad).__name__} values such as {bad!r}; "
                            "convert them to numbers first")
    try:
        return x.astype(np.float64)
    except (TypeError, ValueError):
        sample = [v for v in x[:3].tolist()]
        raise TypeError(
            f"{name} must be numeric; got values of dtype {x.dtype} such as {sample}"
        ) from None


#: weights whose largest value lies outside [2**-WEIGHT_EXPONENT, 2**WEIGHT_EXPONENT]
#: are rescaled by a power of two (exactly) so that no sum or product overflows or
#: underflows
WEIGHT_EXPONENT = 100


def weight_exponent(w_max: float) -> int:
    """The power of two ``k`` such that ``w * 2**k`` brings the largest weight ``w_max``
    into [0.5, 1) when it lies outside [2**-WEIGHT_EXPONENT, 2**WEIGHT_EXPONENT] (else
    0): the rescaling (``numpy.ldexp(w, k)``) is exact, and every measure (a function
    of ratios of weighted counts) is unchanged, while 1e308 or 5e-324 weights neither
    overflow nor underflow.

    Examples
    --------
    >>> weight_exponent(3.0), weight_exponent(1e308), weight_exponent(5e-324)
    (0, -1024, 1073)
    """
    if not (w_max > 0 and np.isfinite(w_max)):
        return 0
    if 2.0**-WEIGHT_EXPONENT <= w_max <= 2.0**WEIGHT_EXPONENT:
        return 0
    return -int(np.frexp(w_max)[1])


def in_user_units(x: float, exponent: int) -> float | str:
    """A weighted count ``x`` of weights rescaled by ``2**exponent`` (:func:`weight_exponent`)
    back in the weights' own unit: a float when that is exact, else (beyond the floats'
    range, or below their precision) its value to 10 significant digits as a string.

    Examples
    --------
    >>> in_user_units(0.5, -1024), in_user_units(0.5, 1073), in_user_units(2.5, 0)
    (8.98846567431158e+307, 5e-324, 2.5)
    >>> in_user_units(1.5, -1024)  # 1.5 * 2**1024 is past the largest float
    '2.696539702e+308'
    """
    if not exponent or not (np.isfinite(x) and x != 0):
        return x
    try:
        y = math.ldexp(float(x), -exponent)
    except OverflowError:
        y = math.inf
    if math.isfinite(y) and y != 0 and math.ldexp(y, exponent) == x:
        return y
    import decimal

    with decimal.localcontext() as ctx:
        ctx.prec = 20
        d = decimal.Decimal(float(x)) * decimal.Decimal(2) ** -exponent
    mantissa, _, power = f"{d:.9e}".partition("e")  # 10 digits
    return f"{mantissa.rstrip('0').rstrip('.')}e{power}"


def _distinct_labels(y: np.ndarray) -> list[Any]:
    """The distinct values of ``y``; stops early (no sort) when there are more than two."""
    first = y[0]
    differs = y != first
    if not differs.any():
        return [first]
    second = y[int(np.argmax(differs))]
    rest = differs & (y != second)
    if not rest.any():
        return sorted([first, second], key=label_key)
    import pandas as pd  # more than two labels: unique without a sort of mixed types

    found = pd.unique(pd.Series(y))
    return sorted(found.tolist(), key=label_key)


def label_key(v: Any) -> tuple[str, Any]:
    """A key that compares labels as the checks do: numbers by value (1 == 1.0 ==
    True), other values by type and value."""
    return (type(v).__name__, v) if not isinstance(v, (int, float, np.number)) else ("", float(v))


def python_scalar(v: Any) -> Any:
    """A NumPy scalar as the Python value, for messages and results."""
    return v.item() if isinstance(v, np.generic) else v


def _positive_label(values: list[Any], pos_label: Any, dtype: np.dtype) -> Any:
    shown = [python_scalar(v) for v in values]
    if len(values) > 2:
        listed = shown[:10] + (["..."] if len(shown) > 10 else [])
        raise ValueError(
            f"y_true must hold exactly two classes; found {len(values)} distinct values: "
            f"{listed}; give two classes (for more, a probability matrix to "
            "binmetrics.evaluate_multiclass)"
        )
    if dtype == np.bool_:
        if pos_label is None or pos_label in (True, 1):
            return True
        if pos_label in (False, 0):
            return False
        raise ValueError(f"pos_label={pos_label!r} does not occur in y_true (values: {shown})")
    value_set = set(shown)
    if pos_label is not None:
        if pos_label in value_set:
            return pos_label
        for encoding, _ in _STANDARD_ENCODINGS:
            if _subset(value_set | {pos_label}, encoding):
                return pos_label  # e.g. an all-negative {0} sample with pos_label=1
        raise ValueError(
            f"pos_label={pos_label!r} does not occur in y_true (values found: {shown})"
        )
    for encoding, positive in _STANDARD_ENCODINGS:
        if _subset(value_set, encoding):
            return positive
    raise ValueError(
        f"y_true has labels {shown}, which are not {{0, 1}}, {{-1, 1}} or {{False, True}}; "
        "pass pos_label= to say which value is the positive class"
    )


def _subset(values: set[Any], encoding: frozenset[Any]) -> bool:
    try:
        return all(
            isinstance(v, (int, float, np.number)) and not isinstance(v, bool) and v in encoding
            for v in values
        )
    except TypeError:
        return False


def _missing(y: np.ndarray) -> npt.NDArray[np.bool_]:
    """Where labels are missing: NaN in floats; None, NaN, NaT or pd.NA in objects (as
    pandas.isna, imported only for object arrays); nothing in other kinds."""
    if y.dtype.kind == "f":
        return np.isnan(y)
    if y.dtype.kind == "O":
        import pandas as pd

        return np.asarray(pd.isna(y), dtype=bool)
    return np.zeros(y.size, dtype=bool)


def check_labels(y_true: Any, pos_label: Any = None) -> tuple[npt.NDArray[np.bool_], Any]:
    """Binary labels as a boolean array (True = positive) and the positive label used."""
    y = as_1d(y_true, "y_true")
    if y.size == 0:
        raise ValueError("y_true is empty: there is nothing to evaluate")
    missing = _missing(y)
    if missing.any():
        raise ValueError(
            f"y_true has {plural(missing.sum(), 'missing label')} (NaN/None) at rows "
            f"{row_list(missing)}; drop those rows or give them a label"
        )
    values = _distinct_labels(y)
    pos = _positive_label(values, pos_label, y.dtype)
    if y.dtype == np.bool_:
        return (y if pos else ~y), pos
    return np.asarray(y == pos, dtype=bool), pos


def check_weights(sample_weight: Any, n: int,
                  rescale: bool = True) -> npt.NDArray[np.float64] | None:
    """Non-negative finite weights of length ``n`` with a positive sum, or None.

    Weights whose largest value is outside [2**-100, 2**100] are rescaled by a power of
    two (:func:`weight_exponent`): the measures do not change, the weighted counts are in
    the rescaled unit. Their sum must then be a positive normal float. ``rescale=False``
    (a batch of a stream, whose unit must stay that of the others) keeps them as given.
    """
    return _weights_and_exponent(sample_weight, n, rescale)[0]


def _weights_and_exponent(sample_weight: Any, n: int, rescale: bool
                          ) -> tuple[npt.NDArray[np.float64] | None, int]:
    """:func:`check_weights`, with the power of two the weights were multiplied by."""
    if sample_weight is None:
        return None, 0
    w = as_float(as_1d(sample_weight, "sample_weight"), "sample_weight")
    if w.size != n:
        raise ValueError(f"sample_weight has {w.size} values but y_true has {n} rows; give "
                         "one weight per row")
    bad = ~np.isfinite(w)
    if bad.any():
        raise ValueError(
            f"sample_weight has {plural(bad.sum(), 'non-finite value')} (NaN or inf) "
            f"at rows {row_list(bad)}; give every row a finite weight (0 leaves it out)"
        )
    neg = w < 0
    if neg.any():
        raise ValueError(
            f"sample_weight has {plural(neg.sum(), 'negative value')} at rows {row_list(neg)} "
            f"(smallest {float(w.min())}); weights must be >= 0 (0 leaves a row out)"
        )
    if not w.max() > 0:
        raise ValueError("sample_weight sums to 0: no row carries any weight")
    exponent = weight_exponent(float(w.max())) if rescale else 0
    if exponent:
        w = np.ldexp(w, exponent)
    # a stream's batch (rescale=False) may overflow here: its sum is the stream's business
    total = float(w.sum()) if rescale else 1.0
    if not (np.isfinite(total) and total >= np.finfo(np.float64).tiny):
        raise ValueError(f"sample_weight sums to {total!r}, which is not a positive normal "
                         "number; rescale the weights")
    return w, exponent




def check_aligned(arrays: Sequence[tuple[str, Any]]) -> None:
    """Fail when two pandas objects among ``arrays`` ((name, array) pairs) have different
    indexes: the rows would be paired by position, not by index label, with no word
    (arrays without an index, such as NumPy arrays and lists, pair by position).

    Examples
    --------
    >>> import pandas as pd
    >>> check_aligned([("y_true", pd.Series([1, 0])), ("y_score", pd.Series([.9, .2]))])
    >>> check_aligned([("y_true", pd.Series([1, 0], index=[5, 6])),
    ...                ("y_score", pd.Series([.9, .2]))])
    Traceback (most recent call last):
    ...
    ValueError: y_true and y_score are pandas objects with different indexes ([5, 6] and ...
    """
    pd = sys.modules.get("pandas")  # a Series means pandas is loaded: no import
    if pd is None:
        return
    indexed = [(k, v.index) for k, v in arrays
               if isinstance(v, (pd.Series, pd.DataFrame))]
    for name, index in indexed[1:]:
        first, first_index = indexed[0]
        if not index.equals(first_index):
            def show(ix: Any) -> str:
                return "[" + ", ".join(map(repr, ix[:3].tolist())) + \
                    (", ...]" if len(ix) > 3 else "]")

            raise ValueError(
                f"{first} and {name} are pandas objects with different indexes "
                f"({show(first_index)} and {show(index)}), so their rows would be paired by "
                "position, not by index; align them (a.align(b, join='inner')) or call "
                ".reset_index(drop=True) on both if position is what pairs them")


def check_binary_inputs(
    y_true: Any,
    y_score: Any,
    sample_weight: Any = None,
    *,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
    rescale_weights: bool = True,
) -> BinaryInputs:
    """Validate labels, scores and weights for binary evaluation.

    Raises
    ------
    ValueError
        Lengths differ, input is empty, labels are not two classes, ``pos_label``
        does not occur, scores are NaN/inf (unless ``nan_policy="omit"``),
        weights are negative or non-finite.
    TypeError
        Scores or weights are not numeric.
    """
    check_nan_policy(nan_policy)
    check_aligned([("y_true", y_true), ("y_score", y_score), ("sample_weight", sample_weight)])
    y_raw = as_1d(y_true, "y_true")
    s_raw = as_1d(y_score, "y_score")
    if y_raw.size != s_raw.size:
        raise ValueError(
            f"y_true and y_score have different lengths: {y_raw.size} and {s_raw.size}"
        )
    if y_raw.size == 0:
        raise ValueError("y_true and y_score are empty: there is nothing to evaluate")
    s = as_float(s_raw, "y_score")
    w, exponent = _weights_and_exponent(sample_weight, s.size, rescale_weights)
    bad = ~np.isfinite(s)
    n_omitted = 0
    if bad.any():
        n_bad = int(bad.sum())
        n_nan = int(np.isnan(s).sum())
        if nan_policy == "raise":
            raise ValueError(
                f"y_score has {plural(n_bad, 'non-finite value')} "
                f"({n_nan} NaN, {n_bad - n_nan} infinite) "
                f"at rows {row_list(bad)}; pass nan_policy='omit' to drop those rows"
            )
        keep = ~bad
        if not keep.any():
            raise ValueError(f"all {n_bad} scores are NaN or infinite: nothing left to evaluate")
        y_raw, s = y_raw[keep], s[keep]
        w = None if w is None else w[keep]
        n_omitted = n_bad
        warnings.warn(
            f"nan_policy='omit': dropped {plural(n_bad, 'row')} with non-finite scores",
            BinmetricsWarning,
            stacklevel=3,
        )
    y, pos = check_labels(y_raw, pos_label)
    return BinaryInputs(y=y, score=s, weight=w, pos_label=python_scalar(pos), n_omitted=n_omitted,
                        weight_exponent=exponent)


# --- several models scored on the same rows -----------------------------------------------
@dataclass(frozen=True)
class PairedInputs:
    """Validated input of models scored on the same rows (:func:`check_paired_inputs`):
    labels as booleans, each model's scores as finite float64, weights (all positive)
    or None, over the rows kept."""

    y: npt.NDArray[np.bool_]
    scores: tuple[npt.NDArray[np.float64], ...]
    weight: npt.NDArray[np.float64] | None
    pos_label: Any
    #: rows dropped by ``nan_policy="omit"`` (a non-finite score in some model)
    n_omitted: int
    #: rows dropped because their weight is 0
    n_zero_weight: int


def check_models(scores: Any, what: str) -> tuple[tuple[str, ...], list[Any], list[str]]:
    """The models of a many-model function: (names, score arrays, how messages call each).

    ``scores`` maps names to score arrays (a dict, a DataFrame's columns) or is a
    sequence of arrays, or a 2-D array of one model per column (rows are cases, as in
    a DataFrame); those are named "model_0", "model_1", ...; at least two models
    with distinct, non-empty names. Messages call a model's scores ``scores['A']``
    (mapping), ``scores[0]`` (sequence) or ``scores[:, 0]`` (2-D array).

    Examples
    --------
    >>> check_models({"A": [0.1, 0.9], "B": [0.4, 0.6]}, "compare")[::2]
    (('A', 'B'), ["scores['A']", "scores['B']"])
    >>> check_models(np.column_stack([[0.1, 0.9, 0.4], [0.4, 0.6, 0.5]]), "compare")[::2]
    (('model_0', 'model_1'), ['scores[:, 0]', 'scores[:, 1]'])
    >>> check_models([[0.1, 0.9]], "compare")
    Traceback (most recent call last):
    ...
    ValueError: compare needs at least 2 models; got 1
    """
    pd = sys.modules.get("pandas")  # a DataFrame means pandas is loaded: no import
    if pd is not None and isinstance(scores, pd.DataFrame):
        columns = [str(c) for c in scores.columns]
        _check_distinct(columns)  # before a dict would keep one of each name
        scores = {c: scores.iloc[:, i] for i, c in enumerate(scores.columns)}
    if isinstance(scores, Mapping):
        arrays = list(scores.values())
        names, labels = [], []
        for k in scores:
            if not isinstance(k, (str, int, np.integer)) or isinstance(k, bool):
                raise TypeError(f"model names must be strings; got {k!r}")
            names.append(str(k))
            labels.append(f"scores[{k!r}]")
    else:
        if isinstance(scores, np.ndarray) and scores.ndim == 2:  # a model per column
            arrays = list(scores.T)
            names = [f"model_{i}" for i in range(len(arrays))]
            labels = [f"scores[:, {i}]" for i in range(len(arrays))]
        elif isinstance(scores, (str, bytes)) or not isinstance(scores, Iterable):
            raise TypeError("scores must map model names to score arrays, e.g. "
                            f"{{'A': s_a, 'B': s_b}}, or be a sequence of arrays; got "
                            f"{type(scores).__name__}")
        else:
            arrays = list(scores)
            if arrays and np.ndim(arrays[0]) == 0:
                raise TypeError("scores must hold one array per model (e.g. {'A': s_a, "
                                "'B': s_b}); got a sequence of numbers, i.e. a single "
                                "model's scores")
        if not (isinstance(scores, np.ndarray) and scores.ndim == 2):
            names = [f"model_{i}" for i in range(len(arrays))]
            labels = [f"scores[{i}]" for i in range(len(arrays))]
    if len(arrays) < 2:
        raise ValueError(f"{what} needs at least 2 models; got {len(arrays)}")
    if any(not n.strip() for n in names):
        raise ValueError("model names must be non-empty strings")
    _check_distinct(names)
    return tuple(names), arrays, labels


def _check_distinct(names: Sequence[str]) -> None:
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ValueError(f"model names must be distinct; repeated: {', '.join(map(repr, dup))}"
                         "; rename the models (the columns) so that each has its own name")


def check_paired_inputs(
    y_true: Any,
    scores: Sequence[Any],
    names: Sequence[str],
    sample_weight: Any = None,
    *,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
) -> PairedInputs:
    """Validate models scored on the same rows: the one door of every paired function
    (:func:`~binmetrics.inference.delong.delong_test`,
    :func:`~binmetrics.inference.delong.delong_contrast`,
    :func:`~binmetrics.inference.paired.compare`,
    :func:`~binmetrics.inference.proportions.mcnemar_test`,
    :func:`~binmetrics.inference.roc_tests.roc_test`,
    :func:`~binmetrics.inference.power.power_roc_test`).

    The rules are those of one model (:func:`check_binary_inputs`), for every model:

    * every score array has as many values as ``y_true`` (``names`` say which one
      does not, e.g. "score_b");
    * a NaN or infinite score is an error naming the model and the rows, or with
      ``nan_policy="omit"`` its row is dropped **for every model** (with one warning);
      labels are then checked on the rows left, as for one model;
    * labels are two classes (``pos_label`` as :func:`check_labels`), none missing;
      weights (:func:`check_weights`) finite, non-negative, with a positive sum;
    * **a row of weight 0 is dropped**, as if it were not there: every weighted sum
      is the same without it, and so the result equals that of the data without the
      row; the paired bootstrap then never draws it.

    Raises
    ------
    ValueError, TypeError
        One line saying what is wrong, where, and what to do.

    Examples
    --------
    >>> inp = check_paired_inputs([1, 0, 1, 0], [[.9, .2, .6, .4], [.8, .3, .7, .1]],
    ...                           ["score_a", "score_b"], [1, 1, 0, 2])
    >>> inp.y.tolist(), inp.weight.tolist(), inp.n_zero_weight
    ([True, False, False], [1.0, 1.0, 2.0], 1)
    >>> check_paired_inputs([1, 0], [[.9, .2], [.8]], ["score_a", "score_b"])
    Traceback (most recent call last):
    ...
    ValueError: y_true and score_b have different lengths: 2 and 1; every model must ...
    """
    check_nan_policy(nan_policy)
    check_aligned([("y_true", y_true), *zip(names, scores, strict=False),
                   ("sample_weight", sample_weight)])
    y_raw = as_1d(y_true, "y_true")
    n = y_raw.size
    if n == 0:
        raise ValueError("y_true is empty: there is nothing to compare")
    arrays = []
    for a, name in zip(scores, names, strict=True):
        s = as_float(as_1d(a, name), name)
        if s.size != n:
            raise ValueError(f"y_true and {name} have different lengths: {n} and {s.size}; "
                             "every model must score the same rows")
        arrays.append(s)
    w = check_weights(sample_weight, n)
    keep: npt.NDArray[np.bool_] | None = None
    for s, name in zip(arrays, names, strict=True):
        bad = ~np.isfinite(s)
        if not bad.any():
            continue
        if nan_policy == "raise":
            n_bad, n_nan = int(bad.sum()), int(np.isnan(s).sum())
            raise ValueError(
                f"{name} has {plural(n_bad, 'non-finite value')} ({n_nan} NaN, "
                f"{n_bad - n_nan} infinite) at rows {row_list(bad)}; pass "
                "nan_policy='omit' to drop those rows from every model")
        keep = ~bad if keep is None else keep & ~bad
    n_omitted = 0
    if keep is not None:
        n_omitted = int(n - np.count_nonzero(keep))
        if n_omitted == n:
            raise ValueError("every row has a NaN or infinite score in some model: nothing "
                             "left to compare")
        if w is not None and not w[keep].sum() > 0:
            raise ValueError("the rows left after nan_policy='omit' carry no weight")
        warnings.warn(f"nan_policy='omit': dropped {plural(n_omitted, 'row')} with a "
                      "non-finite score in some model (from every model)", BinmetricsWarning,
                      stacklevel=3)
        y_raw, arrays = y_raw[keep], [s[keep] for s in arrays]
        w = None if w is None else w[keep]
    y, pos = check_labels(y_raw, pos_label)
    n_zero = 0
    if w is not None:
        has_weight = w > 0
        n_zero = int(w.size - np.count_nonzero(has_weight))
        if n_zero:
            y, arrays, w = y[has_weight], [s[has_weight] for s in arrays], w[has_weight]
    return PairedInputs(y=y, scores=tuple(arrays), weight=w, pos_label=python_scalar(pos),
                        n_omitted=n_omitted, n_zero_weight=n_zero)


def n_rows(X: Any, name: str) -> int:
    """The number of rows (cases) of a feature matrix: array, DataFrame, sparse, list."""
    shape = getattr(X, "shape", None)
    if shape is not None and len(shape) >= 1:
        return int(shape[0])
    try:
        return len(X)
    except TypeError:
        raise TypeError(f"{name} must be array-like with one row per case; got "
                        f"{type(X).__name__}") from None


def take_rows(X: Any, idx: npt.NDArray[np.intp]) -> Any:
    """The rows ``idx`` of a feature matrix of any kind scikit-learn accepts."""
    from sklearn.utils import _safe_indexing

    return _safe_indexing(X, idx)


def is_score_matrix(y_score: Any) -> bool:
    """True when ``y_score`` is 2-D with at least two columns (a probability matrix).

    A 1-D input, or an (n, 1) column, is a binary score and gives False. A list is
    converted only when its first element is itself a sequence.
    """
    shape = getattr(y_score, "shape", None)  # numpy, pandas, polars...
    if isinstance(shape, tuple):
        return len(shape) == 2 and int(shape[1]) >= 2
    if shape is None:
        if not isinstance(y_score, (list, tuple)) or len(y_score) == 0:
            return False
        if np.ndim(y_score[0]) != 1:
            return False
        try:
            dims: tuple[int, ...] = np.shape(y_score)
        except ValueError:  # ragged rows: let the caller's own checks report it
            return False
        return len(dims) == 2 and dims[1] >= 2
    return False
