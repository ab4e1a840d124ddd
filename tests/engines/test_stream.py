"""Accumulator: batches and merged workers give the table and the measures of one call
on all the rows; merging in any order gives identical tables; bad batches change
nothing."""

from __future__ import annotations

import functools
import math
import pickle
import warnings

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, log_loss, roc_auc_score

import binmetrics as bm
from binmetrics.engines import Accumulator, binned_table


def values(ev: bm.Evaluation) -> dict[str, float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ev.to_dict()


def assert_same_measures(a: bm.Evaluation, b: bm.Evaluation, rel: float = 1e-12) -> None:
    va, vb = values(a), values(b)
    assert va.keys() == vb.keys()
    for k in va:
        if math.isnan(vb[k]):
            assert math.isnan(va[k]), k
        else:
            assert va[k] == pytest.approx(vb[k], rel=rel, abs=1e-12), k


def data(seed: int, n: int = 3000, weighted: bool = False
         ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = np.round(np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0.01, 0.99), 2)  # many ties
    w = rng.exponential(1.0, n) if weighted else None
    return y, s, w


def batches(n: int, k: int, seed: int) -> list[np.ndarray]:
    cuts = np.sort(np.random.default_rng(seed).choice(np.arange(1, n), k - 1, replace=False))
    return np.split(np.random.default_rng(seed + 1).permutation(n), cuts)


@pytest.mark.parametrize("weighted", [False, True])
def test_batches_equal_one_call(weighted: bool) -> None:
    y, s, w = data(0, weighted=weighted)
    acc = Accumulator()
    for idx in batches(y.size, 9, seed=1):
        acc.update(y[idx], s[idx], None if w is None else w[idx])
    exact = bm.evaluate(y, s, sample_weight=w, threshold=0.45)
    ev = acc.evaluate(threshold=0.45)
    if weighted:
        assert acc.table.equals(exact.table, rtol=1e-13)
    else:
        assert acc.table.equals(exact.table)  # integer counts: identical
        assert acc.table.pos.dtype == exact.table.pos.dtype
    assert_same_measures(ev, exact)
    assert (ev.n_rows, ev.n_positive_rows, ev.confusion) == \
        (exact.n_rows, exact.n_positive_rows, exact.confusion)
    # independent numbers, probabilistic sums included
    assert ev["auc"] == pytest.approx(roc_auc_score(y, s, sample_weight=w), rel=1e-12)
    assert ev["average_precision"] == pytest.approx(
        average_precision_score(y, s, sample_weight=w), rel=1e-12)
    assert ev.value("log_loss", base=math.e) == pytest.approx(
        log_loss(y, s, sample_weight=w), rel=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
def test_merge_order_gives_identical_tables(weighted: bool) -> None:
    y, s, w = data(2, n=4000, weighted=weighted)
    s = s + np.random.default_rng(3).integers(0, 3, s.size) * 1e-3  # ties across workers
    workers = []
    for idx in batches(y.size, 8, seed=4):
        a = Accumulator()
        for part in np.array_split(idx, 3):
            a.update(y[part], s[part], None if w is None else w[part])
        workers.append(a)
    rng = np.random.default_rng(5)
    reference = functools.reduce(lambda a, b: a + b, workers).table
    for _ in range(6):
        order = rng.permutation(len(workers))
        chained = functools.reduce(lambda a, b: a + b, [workers[i] for i in order])
        assert chained.table.equals(reference)  # bit for bit, no tolerance
        # a tree: pairs first, then their merges
        pairs = [workers[order[i]].merge(workers[order[i + 1]]) for i in range(0, 8, 2)]
        tree = (pairs[0] + pairs[1]) + (pairs[2] + pairs[3])
        assert tree.table.equals(reference)
        assert workers[order[0]].merge(*[workers[i] for i in order[1:]]).table.equals(reference)
    assert reference.equals(bm.CountTable.from_arrays(y, s, sample_weight=w), rtol=1e-13)
    total = functools.reduce(lambda a, b: a + b, workers)
    assert (total.n_rows, total.n_batches) == (y.size, 24)


def test_workers_pickle() -> None:
    y, s, w = data(6, n=500, weighted=True)
    a = Accumulator().update(y[:300], s[:300], w[:300])
    b = pickle.loads(pickle.dumps(Accumulator().update(y[300:], s[300:], w[300:])))
    assert (a + b).table.equals(bm.CountTable.from_arrays(y, s, sample_weight=w), rtol=1e-13)


def test_string_labels_and_single_class_batches() -> None:
    y, s, _ = data(7, n=600)
    labels = np.where(y, "sick", "well")
    acc = Accumulator(pos_label="sick")
    order = np.argsort(y, kind="stable")  # every "well" first, then every "sick"
    for idx in np.array_split(order, 6):  # most batches hold one class only
        acc.update(labels[idx], s[idx])
    ev = acc.evaluate()
    assert ev.pos_label == "sick"
    assert_same_measures(ev, bm.evaluate(labels, s, pos_label="sick"))
    # standard encodings need no pos_label, even batch by batch
    acc = Accumulator().update(np.zeros(5, int), s[:5]).update(np.ones(5, int), s[5:10])
    assert acc.evaluate().pos_label == 1 and acc.n_positive_rows == 5


def test_bad_batches_change_nothing() -> None:
    y, s, w = data(8, n=200, weighted=True)
    acc = Accumulator().update(y[:100], s[:100], w[:100])
    before = acc.table
    bad_s = s[100:].copy()
    bad_s[[3, 7]] = np.nan
    neg_w = w[100:].copy()
    neg_w[5] = -1.0
    cases = [
        ((y[100:], bad_s, w[100:]), ValueError, r"batch 1: y_score has 2 non-finite values "
                                                r"\(2 NaN, 0 infinite\) at rows \[3, 7\]"),
        ((y[100:], s[100:], neg_w), ValueError, r"batch 1: sample_weight has 1 negative value "
                                                r"at rows \[5\]"),
        ((y[100:], s[101:], w[100:]), ValueError, "batch 1: y_true and y_score have different"),
        ((np.where(y[100:], 3, 2), s[100:], w[100:]), ValueError,
         r"batch 1: y_true must hold exactly two classes; the batches so far hold 4"),
        ((y[100:], np.array(["a"] * 100), w[100:]), TypeError, "batch 1: y_score must be numeric"),
    ]
    for args, exc, msg in cases:
        with pytest.raises(exc, match=msg):
            acc.update(*args)
        assert acc.table is before and acc.n_rows == 100 and acc.n_batches == 1
    with pytest.raises(ValueError, match="pos_label='x' does not occur"):
        Accumulator(pos_label="x").update(["a", "b"], [0.1, 0.2]).evaluate()
    with pytest.raises(ValueError, match="accumulator is empty"):
        Accumulator().evaluate()
    with pytest.raises(ValueError, match="same pos_label"):
        Accumulator(pos_label=1) + Accumulator()
    with pytest.raises(ValueError, match="exactly two classes"):
        Accumulator().update([0, 1], [0.1, 0.2]) + Accumulator().update([-1, 1], [0.1, 0.2])


def test_nan_policy_omit_and_empty_batches() -> None:
    y, s, _ = data(9, n=300)
    s_nan = s.copy()
    s_nan[::10] = np.nan
    acc = Accumulator(nan_policy="omit")
    with pytest.warns(UserWarning, match="dropped"):
        acc.update(y[:150], s_nan[:150])
    acc.update(y[150:150], s[150:150])  # empty: nothing happens
    acc.update(y[150:160], np.full(10, np.inf))  # nothing finite: all omitted
    with pytest.warns(UserWarning, match="dropped"):
        acc.update(y[160:], s_nan[160:])
    keep = np.isfinite(s_nan) & ((np.arange(300) < 150) | (np.arange(300) >= 160))
    ev = acc.evaluate()
    assert ev.n_omitted == 300 - int(keep.sum()) and acc.n_batches == 4
    assert_same_measures(ev, bm.evaluate(y[keep], s[keep]))


def test_binned_tables_are_not_accumulated() -> None:
    t = binned_table([0, 1, 1], [0.1, 0.5, 0.9], decimals=1)
    with pytest.raises(ValueError, match="do not merge"):
        t + t


# --- review 7: labels over all batches, zero-weight batches -------------------------------
def _outcome(f: object) -> str:
    try:
        ev = f()  # type: ignore[operator]
    except ValueError:
        return "error"
    return f"ok pos={ev.pos_label!r} P={ev.table.P}"


@pytest.mark.parametrize(("parts", "pos_label"), [
    (([0, 0], [-1, -1]), None),  # {0} and {-1}: each a standard encoding, not together
    (([-1, -1], [1, 1]), None),
    (([False, False], [1, 1]), None),
    (([0, 1], [1, 0]), None),
    ((["a", "a"], ["c"]), "b"),  # pos_label absent from the two classes
    ((["a", "a"], ["b"]), "b"),
    (([2, 2], [2, 5]), None),
    (([2, 2], [2, 5]), 5),
])
def test_labels_checked_as_evaluate_checks_them(parts: tuple[list[object], ...],
                                               pos_label: object) -> None:
    scores = [np.linspace(0.1, 0.9, len(p)) for p in parts]

    def streamed() -> bm.Evaluation:
        acc = Accumulator(pos_label=pos_label)
        for p, s in zip(parts, scores, strict=True):
            acc.update(p, s)
        return acc.evaluate()

    def merged() -> bm.Evaluation:
        accs = [Accumulator(pos_label=pos_label).update(p, s)
                for p, s in zip(parts, scores, strict=True)]
        return functools.reduce(lambda a, b: a + b, accs).evaluate()

    def at_once() -> bm.Evaluation:
        return bm.evaluate(np.concatenate([np.asarray(p) for p in parts]),
                           np.concatenate(scores), pos_label=pos_label)

    want = _outcome(at_once)
    assert _outcome(streamed) == want
    assert _outcome(merged) == want


def test_label_union_error_names_the_batch() -> None:
    acc = Accumulator().update([0, 0], [0.1, 0.2])
    with pytest.raises(ValueError, match=r"batch 1: y_true has labels \[-1, 0\].*batches so far"):
        acc.update([-1, -1], [0.3, 0.4])
    assert acc.n_batches == 1 and acc.table.n_distinct == 2  # the bad batch changed nothing
    with pytest.raises(ValueError, match=r"y_true has labels \[-1, 0\].*the accumulators"):
        Accumulator().update([0], [0.1]) + Accumulator().update([-1], [0.2])


def test_zero_weight_batches() -> None:
    y, s, w = data(12, n=400, weighted=True)
    w[100:150] = 0.0  # one batch carries no weight
    acc = Accumulator()
    for idx in np.array_split(np.arange(400), 8):
        acc.update(y[idx], s[idx], w[idx])
    assert acc.n_batches == 8 and acc.n_rows == 400
    ev = acc.evaluate()
    assert_same_measures(ev, bm.evaluate(y, s, sample_weight=w))
    assert ev.table.equals(bm.CountTable.from_arrays(y, s, sample_weight=w), rtol=1e-13)
    # every batch weightless: the total is checked where evaluate() checks it
    zero = Accumulator().update([0, 1], [0.1, 0.2], [0.0, 0.0]).update([1], [0.3], [0.0])
    with pytest.raises(ValueError, match="sample_weight sums to 0"):
        zero.evaluate()
    with pytest.raises(ValueError, match="sample_weight sums to 0"):
        bm.evaluate([0, 1, 1], [0.1, 0.2, 0.3], sample_weight=[0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="batch 0: sample_weight has 1 negative"):
        Accumulator().update([0, 1], [0.1, 0.2], [0.0, -1.0])


def test_evaluate_threshold_is_keyword_only() -> None:
    acc = Accumulator().update([0, 1, 1], [0.1, 0.6, 0.4])
    assert acc.evaluate(threshold=0.5).confusion.tp == 1
    with pytest.raises(TypeError):
        acc.evaluate(0.5)  # type: ignore[misc]


# --- lean state: integer counts unweighted, merge by binary search -----------------------
def test_merge_of_runs_against_a_reference() -> None:
    from binmetrics.engines.stream import _merge, _State

    rng = np.random.default_rng(13)
    for trial in range(30):
        runs = []
        for _ in range(2):  # few distinct values: many scores in both runs, ends included
            s = np.unique(rng.integers(0, 12 if trial % 2 else 400, rng.integers(0, 40)))
            s = s[::-1].astype(np.float64) / 7
            runs.append((s, rng.integers(0, 200, s.size), rng.integers(1, 200, s.size)))
        (sa, pa, na), (sb, pb, nb) = runs
        allp, alln = np.concatenate([pa, pb]), np.concatenate([na, nb])
        want_s, inv = np.unique(np.concatenate([sa, sb]), return_inverse=True)
        want_p = np.bincount(inv, weights=allp, minlength=want_s.size)[::-1]
        want_n = np.bincount(inv, weights=alln, minlength=want_s.size)[::-1]

        def state(s: np.ndarray, p: np.ndarray, n: np.ndarray) -> _State:
            return _State(s, p.astype(np.uint8), n.astype(np.uint8),
                          bound=int((p + n).max()) if s.size else 0)

        for a, b in [(runs[0], runs[1]), (runs[1], runs[0])]:
            got = _merge(state(*a), state(*b))
            assert np.array_equal(got.scores, want_s[::-1])
            assert np.array_equal(got.pos, want_p) and np.array_equal(got.neg, want_n)
            assert got.pos_lo is None and np.iinfo(got.pos.dtype).max >= want_p.max(initial=0)


def test_unweighted_state_keeps_small_integers() -> None:
    rng = np.random.default_rng(14)
    y = rng.random(20_000) < 0.05
    s = rng.random(y.size)  # continuous: every count 0 or 1
    acc = Accumulator()
    for idx in np.array_split(np.arange(y.size), 300):  # more batches than uint8 holds
        acc.update(y[idx], s[idx])
    acc._collapse()
    st = acc._state
    assert st.pos.dtype == np.uint8 and st.neg.dtype == np.uint8 and st.pos_lo is None
    assert acc.table.equals(bm.CountTable.from_arrays(y, s))
    # heavy ties: counts beyond 255 and 65535 widen the type, exactly as one call gives
    for n_rows in (3_000, 140_000):
        y = rng.random(n_rows) < 0.5
        s = rng.integers(0, 2, n_rows) / 2
        acc = Accumulator()
        for idx in np.array_split(np.arange(n_rows), 40):
            acc.update(y[idx], s[idx])
        exact = bm.CountTable.from_arrays(y, s)
        assert acc.table.equals(exact) and acc.table.pos.dtype == exact.pos.dtype
        assert acc.table.pos.dtype == (np.uint16 if n_rows < 65_536 else np.uint32)


def test_mixed_weighted_and_unweighted_merge_in_any_order() -> None:
    y, s, w = data(15, n=4000, weighted=True)
    s = s + np.random.default_rng(16).integers(0, 3, s.size) * 1e-3
    parts = batches(y.size, 8, seed=17)
    workers = []
    for i, idx in enumerate(parts):  # workers 0, 3, 6 weighted; the rest are not
        a = Accumulator()
        for j, part in enumerate(np.array_split(idx, 3)):
            # worker 4: an unweighted accumulator switching to weighted midway
            weighted = i % 3 == 0 or (i == 4 and j == 2)
            a.update(y[part], s[part], w[part] if weighted else None)
        workers.append(a)
    assert workers[4]._weighted and workers[4].table.weighted
    w_all = np.ones(y.size)
    for i in (0, 3, 6):
        w_all[parts[i]] = w[parts[i]]
    last = np.array_split(parts[4], 3)[2]
    w_all[last] = w[last]
    reference = functools.reduce(lambda a, b: a + b, workers).table
    assert reference.weighted
    assert reference.equals(bm.CountTable.from_arrays(y, s, sample_weight=w_all), rtol=1e-13)
    rng = np.random.default_rng(18)
    for _ in range(6):
        order = rng.permutation(len(workers))
        chained = functools.reduce(lambda a, b: a + b, [workers[i] for i in order])
        assert chained.table.equals(reference)  # bit for bit
        pairs = [workers[order[i]].merge(workers[order[i + 1]]) for i in range(0, 8, 2)]
        assert ((pairs[0] + pairs[1]) + (pairs[2] + pairs[3])).table.equals(reference)
    # unweighted workers alone: integer counts, as one call gives them
    plain = [workers[i] for i in (1, 2, 5, 7)]
    rows = np.concatenate([parts[i] for i in (1, 2, 5, 7)])
    total = functools.reduce(lambda a, b: a + b, plain)
    assert not total.table.weighted
    assert total.table.equals(bm.CountTable.from_arrays(y[rows], s[rows]))


def test_sort_merge_equals_pairwise_merging(monkeypatch: pytest.MonkeyPatch) -> None:
    # many unweighted states merge by one sort above SORT_MERGE_SIZE; the result is
    # the pairwise merges' bit for bit (ties across states, counts past a byte)
    from binmetrics.engines import stream

    rng = np.random.default_rng(21)
    for trial in range(20):
        states = []
        for _ in range(int(rng.integers(3, 7))):
            s = np.unique(rng.integers(0, 15 if trial % 2 else 5000, rng.integers(1, 300)))
            s = s[::-1].astype(np.float64) / 13
            p = rng.integers(0, 3 if trial % 3 else 200, s.size)
            n = rng.integers(0, 3 if trial % 3 else 200, s.size)
            n[p + n == 0] = 1
            dt = stream._uint_for(int((p + n).max()))
            states.append(stream._State(s, p.astype(dt), n.astype(dt),
                                        bound=int((p + n).max())))
        monkeypatch.setattr(stream, "SORT_MERGE_SIZE", 1 << 62)
        want = stream._merge_all(states)
        monkeypatch.setattr(stream, "SORT_MERGE_SIZE", 0)
        got = stream._merge_all(states)
        assert np.array_equal(got.scores, want.scores)
        assert np.array_equal(got.pos, want.pos) and np.array_equal(got.neg, want.neg)
        assert np.iinfo(got.pos.dtype).max >= got.bound >= int((got.pos + got.neg).max())


def test_accumulator_with_sort_merges(monkeypatch: pytest.MonkeyPatch) -> None:
    from binmetrics.engines import stream

    monkeypatch.setattr(stream, "SORT_MERGE_SIZE", 0)
    test_batches_equal_one_call(False)
    test_merge_order_gives_identical_tables(False)
    test_unweighted_state_keeps_small_integers()


def test_sort_merge_leaves_counts_past_32_bits_to_pairwise_merging() -> None:
    from binmetrics.engines import stream

    big = np.array([2**31, 2**31 - 1], dtype=np.uint32)
    states = [stream._State(np.array([0.9 - i / 10, 0.5]), big, big[::-1].copy(),
                            bound=2**32 - 1) for i in range(3)]
    assert stream._sort_merge(states) is None  # 3 * 2**32 cases
    merged = stream._merge_all(states)
    assert merged.scores.tolist() == [0.9, 0.8, 0.7, 0.5]
    assert merged.pos.dtype == np.uint64 and int(merged.pos[-1]) == 3 * (2**31 - 1)
