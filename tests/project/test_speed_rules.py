"""Issue 18's behavioural rules (no timings here): joblib workers that binmetrics
starts get one BLAS thread each, and ``import binmetrics`` loads no heavy library."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest

from binmetrics.backends import parallel


def test_joblib_workers_get_one_blas_thread() -> None:
    joblib = pytest.importorskip("joblib")
    assert parallel(2)._backend.inner_max_num_threads == 1
    # a limit the user chose is kept
    with joblib.parallel_config(backend="loky", inner_max_num_threads=3):
        assert parallel(2)._backend.inner_max_num_threads == 3
    # a backend without the limit (threads share the process) is left alone
    with joblib.parallel_config(backend="threading"):
        assert type(parallel(2)._backend).__name__ == "ThreadingBackend"


@pytest.mark.parametrize("seed", range(6))
def test_weighted_table_is_the_grouped_sums(seed: int) -> None:
    """The weighted build (one complex sort carrying the weights) against np.unique and
    np.bincount: ties, zero weights, -0.0 beside 0.0, a lone class."""
    import numpy as np

    import binmetrics as bm

    rng = np.random.default_rng(seed)
    n = 2000
    s = np.round(rng.normal(size=n), seed % 3 + 1) if seed < 5 else rng.normal(size=n)
    s[:3] = [0.0, -0.0, 0.0]
    y = rng.random(n) < (0.3 if seed != 4 else 0.0)
    w = rng.uniform(0, 5, n)
    w[rng.random(n) < 0.05] = 0.0
    t = bm.CountTable.from_arrays(y, s, sample_weight=w)
    uniq, inv = np.unique(s, return_inverse=True)
    pos = np.bincount(inv, np.where(y, w, 0.0), uniq.size)[::-1]
    neg = np.bincount(inv, np.where(y, 0.0, w), uniq.size)[::-1]
    keep = pos + neg > 0
    assert np.array_equal(t.scores, uniq[::-1][keep])
    np.testing.assert_allclose(t.pos, pos[keep], rtol=1e-13, atol=0)
    np.testing.assert_allclose(t.neg, neg[keep], rtol=1e-13, atol=0)


def _modules_after(code: str) -> set[str]:
    script = f"{code}\nimport sys\nprint(' '.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True)
    return set(out.stdout.split())


HEAVY = ("pandas", "scipy", "matplotlib", "pyarrow", "rich", "sklearn")


def test_import_binmetrics_loads_no_heavy_library() -> None:
    loaded = _modules_after("import binmetrics")
    assert not [m for m in HEAVY if m in loaded]


def test_top_level_help_loads_no_heavy_library() -> None:
    loaded = _modules_after("import sys\nsys.argv = ['binmetrics', '--help']\n"
                            "from binmetrics.cli.app import main\n"
                            "try:\n    main()\nexcept SystemExit:\n    pass")
    assert "binmetrics.cli.app" in loaded
    assert not [m for m in HEAVY if m in loaded]


def test_a_binary_evaluation_loads_neither_pandas_nor_scipy_stats() -> None:
    """bm.evaluate(...).to_dict() in a fresh process imports what the measures need
    (NumPy, scipy.special), not pandas, scipy.stats or the curves and inference layers
    (about 1.7 s of imports on a first call before; issue 18's start-up)."""
    loaded = _modules_after("import warnings\nwarnings.simplefilter('ignore')\n"
                            "import binmetrics as bm\n"
                            "ev = bm.evaluate([0, 1, 1, 0, 1], [.2, .8, .6, .3, .1])\n"
                            "ev.to_dict(); ev['auc']; ev.confusion; ev.value('ece', n_bins=3)")
    assert "binmetrics.evaluation.binary" in loaded
    heavy = ("pandas", "scipy.stats", "matplotlib", "pyarrow", "rich", "sklearn",
             "binmetrics.curves", "binmetrics.inference")
    assert not [m for m in heavy if m in loaded]
    # and what a method needs still loads on use
    loaded = _modules_after("import binmetrics as bm\n"
                            "bm.evaluate([0, 1, 1, 0], [.2, .8, .6, .3]).roc().area()")
    assert "binmetrics.curves.core" in loaded


def test_lazy_names_resolve() -> None:
    import binmetrics as bm

    for name in bm.__all__:
        assert getattr(bm, name) is not None, name
    import binmetrics.evaluation as evaluation

    for name in evaluation.__all__:
        assert getattr(evaluation, name) is not None, name
    assert set(evaluation.__all__) <= set(dir(evaluation))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        evaluation.nope  # noqa: B018
    assert set(bm.__all__) <= set(dir(bm))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        bm.nope  # noqa: B018


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_threaded_compare_and_by_equal_the_serial_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """Per-model / per-group tables and DeLong's per-model placements in threads: the
    same results, bit for bit."""
    import numpy as np
    import pandas as pd

    import binmetrics as bm
    from binmetrics import backends
    from binmetrics.evaluation import by
    from binmetrics.inference import delong

    rng = np.random.default_rng(3)
    n = 3000
    y = rng.random(n) < 0.3
    scores = {f"m{i}": y + rng.normal(0, 1 + i / 3, n) for i in range(4)}
    frame = pd.DataFrame({"y": y, "s": scores["m1"], "g": rng.integers(0, 5, n)})
    monkeypatch.setattr(by, "THREAD_ROWS", 1)  # threads even for these small groups
    monkeypatch.setattr(delong, "THREAD_ROWS", 1)  # and for DeLong's placements

    def run() -> tuple[pd.DataFrame, pd.DataFrame]:
        cmp = bm.compare(y, scores, measures=["auc", "accuracy", "mcc"], n_resamples=30,
                         random_state=1)
        return cmp.to_frame(), bm.evaluate_by(frame, label="y", score="s", by="g").to_frame()

    monkeypatch.setattr(backends, "threads", lambda: 4)
    threaded = run()
    monkeypatch.setattr(backends, "threads", lambda: 1)
    serial = run()
    for a, b in zip(threaded, serial, strict=True):
        pd.testing.assert_frame_equal(a, b, check_exact=True)


def test_threaded_by_warns_as_the_serial_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """evaluate_by's groups measured in threads give the same warnings, in the same
    order and at the user's line, as one after another: undefined measures grouped
    by reason per group, caveats counted once for the call."""
    import warnings

    import numpy as np
    import pandas as pd

    import binmetrics as bm
    from binmetrics import backends
    from binmetrics.evaluation import by

    rng = np.random.default_rng(5)
    n = 4000
    y = rng.random(n) < 0.05
    g = rng.integers(0, 6, n)
    s = np.where(g == 2, 7.0, y + rng.normal(0, 1, n))  # group 2: one score, ties only
    frame = pd.DataFrame({"y": y, "s": s, "g": g})
    monkeypatch.setattr(by, "THREAD_ROWS", 1)

    def run() -> tuple[pd.DataFrame, list[tuple[type, str, str]]]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = bm.evaluate_by(frame, label="y", score="s", by="g",
                                 measures=["auc", "brier", "bedroc", "ppv", "mcc"])
        return res.to_frame(), [(w.category, str(w.message), w.filename) for w in caught]

    monkeypatch.setattr(backends, "threads", lambda: 4)
    threaded, t_warn = run()
    monkeypatch.setattr(backends, "threads", lambda: 1)
    serial, s_warn = run()
    pd.testing.assert_frame_equal(threaded, serial, check_exact=True)
    assert t_warn == s_warn
    assert any("brier" in m for _, m, _ in s_warn)  # scores outside [0, 1]
    assert any("bedroc: " in m and "more time" in m for _, m, _ in s_warn)  # counted once
    assert {f for _, _, f in s_warn} == {__file__}


def test_thread_map_replays_warnings_in_item_order() -> None:
    import warnings

    from binmetrics.backends import thread_map
    from binmetrics.exceptions import (
        MeasureCaveatWarning,
        caveats_once,
        report_caveat,
        report_undefined,
    )

    def work(i: int) -> int:
        report_undefined(f"m{i}", "a reason")
        report_caveat("bedroc", "alpha * Ra > 1")
        return i * i

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with caveats_once():
            out = thread_map(work, range(8))
    assert out == [i * i for i in range(8)]
    messages = [str(w.message) for w in caught]
    assert messages[:8] == [f"m{i} is undefined: a reason; returning NaN" for i in range(8)]
    assert messages[8:] == ["bedroc: alpha * Ra > 1 (and 7 more times in this call)"]
    assert caught[8].category is MeasureCaveatWarning
    assert {w.filename for w in caught} == {__file__}


def test_thread_imap_consumes_lazily_in_order_and_replays_warnings() -> None:
    import warnings

    from binmetrics.backends import thread_imap, threads
    from binmetrics.exceptions import report_undefined

    produced: list[int] = []

    def source() -> Iterator[int]:
        for i in range(40):
            produced.append(i)
            yield i

    def work(i: int) -> int:
        report_undefined(f"m{i}", "a reason")
        return i * i

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = thread_imap(work, source(), ahead=2)
        first = next(results)
        in_flight = len(produced)
        rest = list(results)
    assert [first, *rest] == [i * i for i in range(40)]
    assert in_flight <= 2 * threads() + 1  # not the whole iterator at once
    assert [str(w.message) for w in caught] == [
        f"m{i} is undefined: a reason; returning NaN" for i in range(40)]


def test_compare_delong_equals_delong_test() -> None:
    import numpy as np

    import binmetrics as bm

    rng = np.random.default_rng(5)
    y = rng.random(500) < 0.4
    s = [np.round(y + rng.normal(0, 1 + i, 500), 1) for i in range(3)]
    cmp = bm.compare(y, {"a": s[0], "b": s[1], "c": s[2]}, measures=["auc"])
    for (i, a), (j, b) in [((0, "a"), (1, "b")), ((0, "a"), (2, "c")), ((1, "b"), (2, "c"))]:
        want = bm.delong_test(y, s[i], s[j])
        got = cmp.result(a, b, "auc")
        assert got.pvalue == pytest.approx(want.pvalue, rel=1e-12)
        assert got.ci.low == pytest.approx(want.ci.low, rel=1e-12)


@pytest.mark.parametrize("chunk", [3, 1 << 16])
@pytest.mark.parametrize("seed", range(4))
def test_rates_read_from_blocks_equal_the_whole_curve(monkeypatch: pytest.MonkeyPatch,
                                                      chunk: int, seed: int) -> None:
    """tpr_at_fpr and tnr_at_tpr read only the cuts they need (no t.tp /
    t.fp): the same values, bit for bit, as on the whole cumulative arrays."""
    import numpy as np

    import binmetrics as bm
    from binmetrics.measures import roc_points as rp
    from binmetrics.table import counts

    monkeypatch.setattr(counts, "CHUNK", chunk)
    rng = np.random.default_rng(seed)
    n = 400
    y = rng.random(n) < 0.3
    s = np.round(y * 0.3 + rng.random(n), 1 if seed % 2 else 3)  # long tied runs / few
    s[np.flatnonzero(~y)[:5]] = 2.0 + np.arange(5)  # the first cuts hold no positive
    w = rng.uniform(0.2, 2, n) if seed > 1 else None
    t = bm.CountTable.from_arrays(y, s, sample_weight=w)
    fpr, tpr = t.fp / t.N, t.tp / t.P
    for x in [0.0, 1.0, *fpr[::7].tolist(), *tpr[::5].tolist(), *rng.random(5).tolist()]:
        xa = np.array([x])
        assert rp.tpr_at_fpr(t, fpr=x) == float(rp.read_curve(fpr, tpr, xa, last=True)[0][0])
        assert rp.tnr_at_tpr(t, tpr=x) == 1.0 - float(
            rp.read_curve(tpr, fpr, xa, last=False)[0][0])


@pytest.mark.parametrize("seed", range(4))
def test_mean_precision_from_the_positives_equals_the_mean_over_the_cuts(seed: int) -> None:
    """With one case per score, mean precision is a sum over the positives of harmonic
    gaps; it must equal Berrar's plain mean of TP_k / (TP_k + FP_k) over every cut."""
    import numpy as np

    from binmetrics.measures.ranking import mean_precision
    from binmetrics.table.counts import CountTable

    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 5000)) if seed else 3
    y = rng.random(n) < rng.uniform(0.05, 0.6)
    y[:2] = [True, False]
    t = CountTable.from_arrays(y, rng.permutation(n) / n)  # every score distinct
    assert t.total == t.n_distinct and not t.weighted
    want = float(np.mean(t.tp[1:] / (t.tp[1:] + t.fp[1:])))
    assert mean_precision(t) == pytest.approx(want, rel=1e-13)
    tied = CountTable.from_arrays(y, np.round(rng.random(n), 1))  # the block-by-block path
    want = float(np.mean(tied.tp[1:] / (tied.tp[1:] + tied.fp[1:])))
    assert mean_precision(tied) == pytest.approx(want, rel=1e-13)


@pytest.mark.parametrize("prevalence", [0.05, 0.5, 0.9])
def test_positive_rows_found_by_the_build_equal_a_scan(prevalence: float) -> None:
    """The build hands positive_groups the rows holding positives (when they are the
    minority class it placed them); the groups must equal those of a scan of the
    counts, with ties, on both sides of a balanced prevalence."""
    import numpy as np

    from binmetrics.table.counts import CountTable

    rng = np.random.default_rng(int(prevalence * 100))
    n = 20_000
    y = rng.random(n) < prevalence
    s = np.round(rng.random(n), 3)  # ties: groups with both classes
    t = CountTable.from_arrays(y, s)
    got = t.positive_groups()
    scan = CountTable(t.scores, t.pos, t.neg).positive_groups()  # no build: a scan
    for field in ("idx", "pos", "neg", "tp0", "fp0"):
        np.testing.assert_array_equal(getattr(got, field), getattr(scan, field))
    np.testing.assert_array_equal(got.idx, np.flatnonzero(t.pos))


@pytest.mark.parametrize("chunk", [5, 64, 1 << 16])
def test_weighted_prefix_sums_at_cuts_equal_the_cumulative_arrays(
        chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Weighted (TP, FP) at chosen cuts come from the blocks holding them, bit for bit
    the cumulative arrays' values, without building those arrays."""
    import numpy as np

    from binmetrics.table import counts
    from binmetrics.table.counts import CountTable

    monkeypatch.setattr(counts, "CHUNK", chunk)
    rng = np.random.default_rng(chunk)
    n = 3000
    y = rng.random(n) < 0.3
    t = CountTable.from_arrays(y, np.round(rng.random(n), 2 if chunk == 5 else 4),
                               sample_weight=rng.uniform(0.1, 3, n))
    cuts = rng.integers(0, t.n_distinct + 1, 40)
    cuts[:3] = [0, t.n_distinct, 1]
    got = t.prefix_sums_at(cuts)
    assert "tp" not in t.__dict__  # the table-sized arrays were not built
    np.testing.assert_array_equal(got[0], t.tp[cuts])
    np.testing.assert_array_equal(got[1], t.fp[cuts])
    np.testing.assert_array_equal(t.prefix_sums_at(cuts.reshape(4, 10))[0],
                                  t.tp[cuts].reshape(4, 10))
