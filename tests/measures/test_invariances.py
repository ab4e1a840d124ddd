"""Property-based tests: invariances every measure of the registry must satisfy.

Measures are never listed here by name: every property iterates the registry
(``bm.iter_measures``), so a newly registered measure is tested automatically.
"""

from __future__ import annotations

import contextlib
import functools
import operator
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scipy.stats import mannwhitneyu

import binmetrics as bm

SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

MAX_ROWS = 40

# --- strategies --------------------------------------------------------------------------
#: Probabilities on a coarse grid (0, 0.1, ..., 1): many ties.
GRID_SCORES = st.integers(0, 10).map(lambda k: k / 10)
#: Mostly grid scores, sometimes any probability.
PROB_SCORES = st.one_of(GRID_SCORES, GRID_SCORES, st.floats(0.0, 1.0))
#: Thresholds on a finer grid (including outside [0, 1]) or anywhere.
THRESHOLDS = st.one_of(
    st.integers(-1, 21).map(lambda k: k / 20), st.floats(-0.5, 1.5)
)

WEIGHT_KINDS = (None, "float", "int")


@dataclass(frozen=True)
class Data:
    y: np.ndarray
    s: np.ndarray
    w: np.ndarray | None

    @property
    def n(self) -> int:
        return int(self.y.size)

    def take(self, idx: Any) -> Data:
        return Data(self.y[idx], self.s[idx], None if self.w is None else self.w[idx])


@st.composite
def datasets(
    draw: st.DrawFn,
    scores: st.SearchStrategy[float] = PROB_SCORES,
    weights: tuple[str | None, ...] = WEIGHT_KINDS,
    min_size: int = 2,
    max_size: int = MAX_ROWS,
) -> Data:
    """Labels with both classes, tie-heavy probability scores, optional positive weights."""
    n = draw(st.integers(min_size, max_size))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    if len(set(y)) < 2:  # make sure both classes occur
        y[draw(st.integers(0, n - 1))] = 1 - y[0]
    s = draw(st.lists(scores, min_size=n, max_size=n))
    kind = draw(st.sampled_from(weights))
    w: list[float] | None
    if kind == "float":
        w = draw(st.lists(st.floats(1e-3, 1e3), min_size=n, max_size=n))
    elif kind == "int":
        w = [float(v) for v in draw(st.lists(st.integers(1, 5), min_size=n, max_size=n))]
    else:
        w = None
    return Data(
        np.asarray(y, dtype=np.int64),
        np.asarray(s, dtype=np.float64),
        None if w is None else np.asarray(w, dtype=np.float64),
    )


# --- helpers -----------------------------------------------------------------------------
@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """Ignore the library's warnings (undefined values, caveats, omitted rows).

    RuntimeWarning stays an error (as in pyproject's pytest configuration): a
    numpy division or overflow warning escaping a measure is a bug.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warnings.simplefilter("error", RuntimeWarning)
        yield


def evaluate(d: Data, threshold: float = 0.5) -> bm.Evaluation:
    return bm.evaluate(d.y, d.s, sample_weight=d.w, threshold=threshold)


def all_measures(d: Data, threshold: float = 0.5, family: Any = None) -> dict[str, float]:
    with quiet():
        return evaluate(d, threshold).to_dict(family)


def assert_same_measures(
    got: dict[str, float], expected: dict[str, float], *, rtol: float = 1e-12,
    atol: float = 0.0,
) -> None:
    assert list(got) == list(expected)
    for name, value in expected.items():
        np.testing.assert_allclose(
            got[name], value, rtol=rtol, atol=atol, equal_nan=True, err_msg=name
        )


def tolerances(d: Data) -> dict[str, float]:
    """Tolerances for comparing two evaluations of the same data.

    Unweighted counts are integers, so only the measure arithmetic rounds. Float
    weights are summed in another order when rows are permuted or tables merged:
    the counts differ in the last bits, a difference such as TP*TN - FP*FN near 0
    needs an absolute tolerance, and BEDROC's rescaling amplifies rounding by
    1 / (alpha (1 - Ra)) when the positives carry nearly all the weight.
    """
    if d.w is None:
        return {"rtol": 1e-12, "atol": 0.0}
    return {"rtol": 1e-10, "atol": 1e-12}


def test_registry_has_every_family() -> None:
    # the properties below iterate the registry; make sure they do not iterate nothing
    for family in ("confusion", "probabilistic", "ranking"):
        assert any(True for _ in bm.iter_measures(family)), family


# --- order of rows ---------------------------------------------------------------------
@SETTINGS
@given(data=st.data())
def test_permuting_rows_changes_no_measure(data: st.DataObject) -> None:
    d = data.draw(datasets())
    perm = np.asarray(data.draw(st.permutations(range(d.n))))
    t = data.draw(THRESHOLDS)
    assert_same_measures(all_measures(d.take(perm), t), all_measures(d, t), **tolerances(d))


@SETTINGS
@given(data=st.data())
def test_permuting_rows_unweighted_is_exact(data: st.DataObject) -> None:
    d = data.draw(datasets(weights=(None,)))
    perm = np.asarray(data.draw(st.permutations(range(d.n))))
    a = bm.CountTable.from_arrays(d.y, d.s)
    b = bm.CountTable.from_arrays(d.y[perm], d.s[perm])
    assert a.equals(b)
    assert_same_measures(all_measures(d.take(perm)), all_measures(d), rtol=0.0)


# --- monotone transforms ---------------------------------------------------------------------
TRANSFORMS = {
    "cube_plus_2": lambda s: s**3 + 2.0,
    "exp": np.exp,
    "affine": lambda s: 7.0 * s - 3.0,
}


@pytest.mark.parametrize("transform", list(TRANSFORMS), ids=list(TRANSFORMS))
@SETTINGS
@given(data=st.data())
def test_increasing_transform_changes_no_ranking_measure(
    transform: str, data: st.DataObject
) -> None:
    f = TRANSFORMS[transform]
    d = data.draw(datasets(scores=GRID_SCORES))
    fd = Data(d.y, f(d.s), d.w)
    assume(np.unique(fd.s).size == np.unique(d.s).size)  # grid values stay distinct
    assert_same_measures(all_measures(fd, family="ranking"), all_measures(d, family="ranking"))


@pytest.mark.parametrize("transform", list(TRANSFORMS), ids=list(TRANSFORMS))
@SETTINGS
@given(data=st.data())
def test_increasing_transform_of_scores_and_threshold_changes_no_confusion_measure(
    transform: str, data: st.DataObject
) -> None:
    f = TRANSFORMS[transform]
    d = data.draw(datasets(scores=GRID_SCORES))
    t = data.draw(st.integers(-1, 21).map(lambda k: k / 20))
    fd = Data(d.y, f(d.s), d.w)
    got = all_measures(fd, threshold=float(f(np.float64(t))), family="confusion")
    assert_same_measures(got, all_measures(d, threshold=t, family="confusion"))


# --- AUC ---------------------------------------------------------------------------------
@SETTINGS
@given(d=datasets(weights=(None,)))
def test_auc_is_the_mann_whitney_statistic(d: Data) -> None:
    pos, neg = d.s[d.y == 1], d.s[d.y == 0]
    u1 = mannwhitneyu(pos, neg, method="asymptotic").statistic
    expected = u1 / (pos.size * neg.size)
    with quiet():
        ev = evaluate(d)
        np.testing.assert_allclose(ev["auc"], expected, rtol=1e-12)
        np.testing.assert_allclose(ev.roc().area(), expected, rtol=1e-12)


@SETTINGS
@given(d=datasets())
def test_flipping_labels_gives_one_minus_auc(d: Data) -> None:
    flipped = Data(1 - d.y, d.s, d.w)
    with quiet():
        auc, auc_flipped = evaluate(d)["auc"], evaluate(flipped)["auc"]
    np.testing.assert_allclose(auc_flipped, 1.0 - auc, rtol=1e-9, atol=1e-12)


# --- weights -------------------------------------------------------------------------------
@SETTINGS
@given(data=st.data())
def test_integer_weights_equal_repeated_rows(data: st.DataObject) -> None:
    d = data.draw(datasets(weights=(None,)))
    w = np.asarray(data.draw(st.lists(st.integers(0, 4), min_size=d.n, max_size=d.n)))
    repeated = Data(np.repeat(d.y, w), np.repeat(d.s, w), None)
    assume(repeated.n > 0)
    t = data.draw(THRESHOLDS)
    weighted = Data(d.y, d.s, w.astype(np.float64))
    wt = bm.CountTable.from_arrays(weighted.y, weighted.s, sample_weight=weighted.w)
    rt = bm.CountTable.from_arrays(repeated.y, repeated.s)
    assert wt.equals(rt)
    assert_same_measures(all_measures(weighted, t), all_measures(repeated, t), rtol=1e-9)


# --- merging ---------------------------------------------------------------------------------
@SETTINGS
@given(data=st.data())
def test_merged_tables_of_parts_equal_the_table_of_the_whole(data: st.DataObject) -> None:
    d = data.draw(datasets())
    k = data.draw(st.integers(2, 4))
    part = np.asarray(data.draw(st.lists(st.integers(0, k - 1), min_size=d.n, max_size=d.n)))
    labels = [i for i in range(k) if np.any(part == i)]
    order = data.draw(st.permutations(labels))
    tables = [
        bm.CountTable.from_arrays(
            d.y[part == i], d.s[part == i],
            sample_weight=None if d.w is None else d.w[part == i],
        )
        for i in order
    ]
    whole = bm.CountTable.from_arrays(d.y, d.s, sample_weight=d.w)
    merged_add = functools.reduce(operator.add, tables)
    merged = tables[0].merge(*tables[1:])
    tol = tolerances(d)
    for m in (merged_add, merged):
        np.testing.assert_array_equal(m.scores, whole.scores)
        np.testing.assert_allclose(m.pos, whole.pos, **tol)
        np.testing.assert_allclose(m.neg, whole.neg, **tol)
        assert m.equals(whole, **tol)
    if d.w is None:
        assert merged.equals(whole)  # integer counts: exact

    t = data.draw(THRESHOLDS)
    with quiet():
        got = bm.Evaluation(merged, threshold=t).to_dict()
    assert_same_measures(got, all_measures(d, t), **tol)


@SETTINGS
@given(d=datasets(), data=st.data())
def test_merge_of_two_halves_in_either_order(d: Data, data: st.DataObject) -> None:
    cut = data.draw(st.integers(1, d.n - 1))
    perm = np.asarray(data.draw(st.permutations(range(d.n))))
    shuffled = d.take(perm)
    a = shuffled.take(slice(None, cut))
    b = shuffled.take(slice(cut, None))
    ta = bm.CountTable.from_arrays(a.y, a.s, sample_weight=a.w)
    tb = bm.CountTable.from_arrays(b.y, b.s, sample_weight=b.w)
    whole = bm.CountTable.from_arrays(d.y, d.s, sample_weight=d.w)
    tol = tolerances(d)
    assert (ta + tb).equals(whole, **tol)
    assert (tb + ta).equals(whole, **tol)
    assert (ta + tb).equals(tb + ta, **tol)


# --- declared ranges -------------------------------------------------------------------------
def _assert_in_range(m: bm.Measure, value: Any) -> None:
    lo, hi = m.range
    v = np.asarray(value, dtype=np.float64)
    finite = v[np.isfinite(v)]
    # rounding only; BEDROC's rescaling amplifies it by 1 / (alpha (1 - Ra)) when Ra -> 1
    tol = 1e-9
    assert np.all(finite >= lo - tol * max(1.0, abs(lo))), (m.id, m.range, finite.min())
    assert np.all(finite <= hi + tol * max(1.0, abs(hi))), (m.id, m.range, finite.max())
    # an infinite value must be allowed by the range as well
    assert not np.any(v == np.inf) or hi == np.inf, (m.id, m.range, "+inf")
    assert not np.any(v == -np.inf) or lo == -np.inf, (m.id, m.range, "-inf")


@SETTINGS
@given(d=datasets(), t=THRESHOLDS)
def test_every_measure_lies_in_its_declared_range(d: Data, t: float) -> None:
    values = all_measures(d, t)
    for m in bm.iter_measures():
        _assert_in_range(m, values[m.id])


@SETTINGS
@given(d=datasets())
def test_confusion_curves_lie_in_the_declared_range(d: Data) -> None:
    with quiet():
        curves = evaluate(d).threshold_curves()
        for m in bm.iter_measures("confusion"):
            _assert_in_range(m, curves.measure(m.id))


# --- threshold curves ------------------------------------------------------------------------
@SETTINGS
@given(d=datasets(), t=THRESHOLDS)
def test_threshold_curve_at_the_cut_equals_the_measure(d: Data, t: float) -> None:
    with quiet():
        ev = evaluate(d, threshold=t)
        curves = ev.threshold_curves()
        k = int(np.count_nonzero(curves.thresholds[1:] >= t))  # the cut of `t`
        for m in bm.iter_measures("confusion"):
            np.testing.assert_allclose(
                curves.measure(m.id)[k], ev[m.id], rtol=1e-12, equal_nan=True, err_msg=m.id
            )


@SETTINGS
@given(d=datasets())
def test_best_threshold_is_the_optimum_of_the_curve(d: Data) -> None:
    with quiet():
        ev = evaluate(d)
        curves = ev.threshold_curves()
        best = ev.best_threshold("f1")
        assert best.value == np.nanmax(curves.measure("f1"))
        for m in bm.iter_measures("confusion"):
            if m.direction == 0:
                continue
            values = curves.measure(m.id)
            best = ev.best_threshold(m.id)
            if np.all(np.isnan(values)):  # e.g. dor when every score is tied
                assert np.isnan(best.value), m.id
                continue
            optimum = np.nanmax(values) if m.direction > 0 else np.nanmin(values)
            np.testing.assert_allclose(best.value, optimum, rtol=1e-12, err_msg=m.id)
            # the threshold it reports gives that value (the single cut and the curve sum
            # weighted counts in different orders, so allow rounding near 0)
            np.testing.assert_allclose(
                ev.at_threshold(best.threshold)[m.id], best.value, rtol=1e-12, atol=1e-12,
                err_msg=m.id,
            )


@SETTINGS
@given(d=datasets(), t0=THRESHOLDS, t=THRESHOLDS)
def test_at_threshold_equals_a_fresh_evaluation(d: Data, t0: float, t: float) -> None:
    with quiet():
        moved = evaluate(d, threshold=t0).at_threshold(t)
        assert moved.threshold == t
        got = moved.to_dict("confusion")
    assert_same_measures(got, all_measures(d, t, family="confusion"), rtol=0.0)


# --- regressions: minimal cases the properties above found -----------------------------------
def test_rie_and_bedroc_with_a_small_total_weight() -> None:
    # the total weight N enters as exp(alpha / N): it overflowed for N < alpha / 709
    d = Data(np.array([1, 0]), np.array([0.0, 0.0]), np.array([0.015625, 0.0078125]))
    with quiet():
        ev = evaluate(d)
        assert np.isfinite(ev["rie"])
        assert 0.0 <= ev["bedroc"] <= 1.0


def test_auprg_of_a_reversed_ranking_warns_nothing() -> None:
    # recall gain is -inf at TP = 0; -inf - -inf used to raise a RuntimeWarning
    with quiet():
        assert np.isfinite(evaluate(Data(np.array([1, 0]), np.array([0.0, 0.1]), None))["auprg"])


def test_lift_curve_is_lift_not_precision() -> None:
    # cut 0 (nothing predicted positive) is undefined; the other cuts used to be precision
    d = Data(np.array([1, 0, 1, 0]), np.array([0.9, 0.7, 0.6, 0.2]), None)
    with quiet():
        lift = evaluate(d).threshold_curves().measure("lift")
    np.testing.assert_allclose(lift, [np.nan, 2.0, 1.0, 4 / 3, 1.0], equal_nan=True)


def test_weighted_negatives_do_not_lose_digits_to_positives() -> None:
    # a tied group with positive weight 16 and negative weight 0.001
    table = bm.CountTable.from_arrays([1, 0], [0.5, 0.5], sample_weight=[16.0, 0.001])
    assert table.neg.tolist() == [0.001]
    assert table.pos.tolist() == [16.0]
