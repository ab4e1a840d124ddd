"""Edge cases of the compiled counting of bootstrap draws (binmetrics.inference._counting):
every replicate equals the NumPy path's bit for bit (those read from replicate sums to
rounding: the compiled pass sums the terms in another order) on tables that take each sampling
route (several cases per cell, multinomial counts for heavy ties, weighted with
non-integer weights and n_cases, a cell drawn more than 16 bits hold, one class,
stratified or not, per-case costs, lower scores meaning positive); numba is not imported
by a small bootstrap; the kernels survive an install where no cache can be written, and
being built and compiled from several threads at once."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.inference import _counting
from binmetrics.inference._counting import count_rows, use_compiled
from binmetrics.inference.resampling import bootstrap
from binmetrics.measures.kernels import COMPILED_TO_ROUNDING

numba = pytest.importorskip("numba")

SRC = Path(bm.__file__).resolve().parents[1]


def _table_digest(t: bm.CountTable) -> float:
    """A number that changes with any score, count or weight of a replicate table (read
    through the tables() route of the replicates)."""
    s = np.asarray(t.scores, dtype=np.float64)
    pos, neg = np.asarray(t.pos, np.float64), np.asarray(t.neg, np.float64)
    k = np.arange(1, s.size + 1)
    return float(np.sum((pos * 1.618 + neg * 2.718) * k) + np.sum(s * (pos + 3 * neg)))


def _replicates(table, measures, **kw):
    out = {}
    for on in (True, False):
        with use_compiled(on), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = bootstrap(table, [*measures, _table_digest], n_resamples=24,
                            random_state=5, **kw)
        out[on] = res.replicates
    return out


#: the measures read from replicate sums or per-bin sums: their dot products are summed in
#: another order compiled than by NumPy's einsum (inference._counting.term_sums and
#: run_dots), so they agree to rounding, as do the kernels compiled to rounding; every
#: other replicate bit for bit
SUMS = {m.id for m in bm.iter_measures()
        if any(g.terms for g in m.sums) or m.bin_sums is not None
        or m.resampling_kernel in COMPILED_TO_ROUNDING}


def _assert_same(out) -> None:
    assert out[True].keys() == out[False].keys()
    for key in out[True]:
        if key in SUMS:
            np.testing.assert_allclose(out[True][key], out[False][key], rtol=1e-12, atol=0.0,
                                       err_msg=key)
        else:
            np.testing.assert_array_equal(out[True][key], out[False][key], err_msg=key)


def _rows(kind: str, n: int = 2500, seed: int = 11):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    p = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1)
    if kind == "cases per cell":  # index draws of cases, several per cell (unit_cell)
        p = np.round(p, 3)
    elif kind == "heavy ties":  # multinomial counts
        p = np.round(p, 1)
    return y, p


MEASURES = ["auc", "mcc", "brier", "ece", "h_measure", "bedroc", "mean_precision"]


@pytest.mark.parametrize("stratified", [True, False])
@pytest.mark.parametrize("kind", ["distinct", "cases per cell", "heavy ties"])
def test_unweighted_routes(kind: str, stratified: bool) -> None:
    y, p = _rows(kind)
    table = bm.evaluate(y, p).table
    _assert_same(_replicates(table, MEASURES, stratified=stratified))


@pytest.mark.parametrize("stratified", [True, False])
@pytest.mark.parametrize("n_cases", [None, "given"])
def test_non_integer_weights(stratified: bool, n_cases) -> None:
    y, p = _rows("cases per cell")
    w = np.random.default_rng(3).uniform(0.2, 3.0, y.size)
    table = bm.evaluate(y, p, sample_weight=w).table
    if n_cases == "given":
        n_cases = (int((y == 1).sum()), int((y == 0).sum())) if stratified else y.size
    _assert_same(_replicates(table, MEASURES, stratified=stratified, n_cases=n_cases))


def test_a_cell_drawn_past_16_bits_in_a_bootstrap() -> None:
    """A weighted table whose one heavy cell takes most of 80,000 index draws (more than
    65,535): the 16-bit counts spill to 64 bits."""
    rng = np.random.default_rng(2)
    n = 25_000
    y = (rng.random(n) < 0.4).astype(int)
    p = rng.random(n)
    w = np.full(n, 1e-3)
    w[0] = 1e3
    table = bm.evaluate(y, p, sample_weight=w).table
    for on in (True, False):
        with use_compiled(on):
            res = bootstrap(table, ["auc", _table_digest], n_resamples=2, random_state=1,
                            stratified=False, n_cases=80_000)
            if on:
                got = res.replicates
    for key in got:
        np.testing.assert_array_equal(got[key], res.replicates[key])


@pytest.mark.parametrize("stratified", [True, False])
@pytest.mark.parametrize("cls", [0, 1])
def test_one_class(cls: int, stratified: bool) -> None:
    y, p = _rows("cases per cell")
    y[:] = cls
    table = bm.evaluate(y, p).table
    _assert_same(_replicates(table, ["brier", "ece"], stratified=stratified))


def test_per_case_costs_and_lower_is_positive() -> None:
    y, p = _rows("cases per cell")
    amount = np.random.default_rng(4).gamma(2.0, 10.0, y.size)
    ev = bm.evaluate(y, -p, higher_is_positive=False, threshold=-0.5, case_cost_fp=amount,
                     case_cost_fn=2 * amount)
    _assert_same(_replicates(ev.table, ["expected_cost", "mcc", "ece"]))


@pytest.mark.parametrize("kind", ["distinct", "cases per cell", "heavy ties"])
def test_best_threshold_ci_routes(kind: str) -> None:
    """The chosen cuts' intervals: direct cumulative counting (index draws, with and
    without several cases per cell) and the cell-count route (multinomial counts)."""
    y, p = _rows(kind)
    ev = bm.evaluate(y, -p, higher_is_positive=False, threshold=-0.5)
    got = {}
    for on in (True, False):
        with use_compiled(on), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            b = ev.best_threshold("mcc", subject_to="fpr>=0.1", ci=True, n_resamples=40,
                                  random_state=2)
        got[on] = (b.threshold_ci.low, b.threshold_ci.high, b.value_ci.low,
                   b.value_ci.high, b.optimism)
    np.testing.assert_array_equal(np.array(got[True], float), np.array(got[False], float))


def _run(code: str, env: dict[str, str] | None = None, cwd: str | None = None
         ) -> subprocess.CompletedProcess:
    full = dict(os.environ, **(env or {}))
    full.setdefault("PYTHONPATH", str(SRC))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=full, cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_a_small_bootstrap_does_not_import_numba() -> None:
    """_counting's promise: below COMPILED_ROWS draws per replicate numba is not imported
    (0.4 s). A 1,000-row bootstrap draws 1,000 cases per replicate."""
    r = _run("""
        import sys, warnings
        import numpy as np
        import binmetrics as bm
        warnings.simplefilter("ignore")
        rng = np.random.default_rng(0)
        y, p = rng.integers(0, 2, 1000), rng.random(1000)
        ev = bm.evaluate(y, p)
        ev.to_dict()
        assert "numba" not in sys.modules
        ev.ci("brier", method="bootstrap", n_resamples=2000, random_state=0)
        print("ci", "numba" in sys.modules)
        ev.ci_table(["mcc", "ece", "h_measure"], method="bootstrap", n_resamples=500,
                    random_state=0)
        print("ci_table", "numba" in sys.modules)
        ev.best_threshold("f1", ci=True, n_resamples=2000, random_state=0)
        print("best_threshold", "numba" in sys.modules)
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["ci", "False", "ci_table", "False", "best_threshold",
                                "False"], r.stdout


def test_no_writable_cache_falls_back(tmp_path: Path) -> None:
    """An install whose package directory cannot hold numba's cache (read-only
    site-packages, here a file where __pycache__ would go) and whose user cache directory
    cannot be made (HOME / XDG_CACHE_HOME not writable, here a file): numba refuses
    ``cache=True`` with RuntimeError at decoration. The bootstrap must still count."""
    import shutil

    pkg = tmp_path / "pkg"
    shutil.copytree(SRC / "binmetrics", pkg / "binmetrics",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (pkg / "binmetrics" / "inference" / "__pycache__").write_text("")
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    env = {"PYTHONPATH": str(pkg), "PYTHONDONTWRITEBYTECODE": "1",
           "XDG_CACHE_HOME": str(blocker), "HOME": str(blocker)}
    env_clean = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    r = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import numpy as np
        from binmetrics.inference._counting import count_rows, use_compiled
        with use_compiled(True):
            print(count_rows(np.array([[0, 2, 2]]), 3).tolist())
    """)], env=dict(env_clean, **env), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-600:]
    assert r.stdout.strip() == "[[1, 0, 2]]"


def test_built_and_compiled_from_several_threads() -> None:
    """A fresh process whose first compiled counts run in four threads at once (each
    thread may build the kernels and compile a signature): every count is right."""
    r = _run("""
        from concurrent.futures import ThreadPoolExecutor
        import numpy as np
        from binmetrics import backends
        from binmetrics.inference._counting import (count_rows, cumulative_counts,
                                                    nonempty_groups)
        backends._compiled["enabled"] = True
        def work(i):
            rng = np.random.default_rng(i)
            keys = rng.integers(0, 50, size=(3, 400))
            want = np.stack([np.bincount(k, minlength=50) for k in keys])
            ok = (count_rows(keys, 50) == want).all()
            run = np.sort(rng.integers(0, 9, size=50))
            cum = cumulative_counts(keys, 50, np.searchsorted(run, np.arange(9), side="right"),
                                    out=np.empty((3, 12))[:, 2:11])
            want_run = np.stack([np.bincount(run[k], minlength=9) for k in keys])
            ok &= (cum == np.cumsum(want_run, axis=1)).all()
            keep, p, n = nonempty_groups(np.array([2, 0]), np.array([1, 0]),
                                         np.array([0, -1, 1]), np.array([-1, 0, 1]))
            ok &= keep.tolist() == [0, 1] and p.tolist() == [2, 0] and n.tolist() == [0, 1]
            return bool(ok)
        with ThreadPoolExecutor(4) as ex:
            print(all(ex.map(work, range(16))))
    """)
    assert r.returncode == 0, r.stderr[-600:]
    assert r.stdout.strip() == "True"


def test_two_processes_fill_one_cache_at_once(tmp_path: Path) -> None:
    """Two processes compiling into the same empty on-disk cache at the same time."""
    code = textwrap.dedent("""
        import numpy as np
        from binmetrics.inference._counting import count_rows, cumulative_counts, use_compiled
        keys = np.random.default_rng(0).integers(0, 30, size=(2, 500))
        with use_compiled(True):
            a = count_rows(keys, 30)
            b = cumulative_counts(keys, 30)
        print(bool((a == np.stack([np.bincount(k, minlength=30) for k in keys])).all()
                   and (b == np.cumsum(a, axis=1)).all()))
    """)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    env.setdefault("PYTHONPATH", str(SRC))
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(2)]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err[-600:]
        assert out.strip() == "True"
    assert any((tmp_path / "cache").rglob("*.nbi"))


def test_count_rows_lookup_and_empty() -> None:
    keys = np.array([[3, 3, 0, 1]])
    lookup = np.array([0, 0, 1, 1], dtype=np.int32)
    with use_compiled(True):
        assert count_rows(keys, 2, lookup).tolist() == [[2, 2]]
        assert _counting.compiled_kernels(0) is not None


def test_numba_is_built_before_the_threads_start() -> None:
    """Every route that counts draws in parallel threads builds the kernels (imports numba)
    in the calling thread first, as _evaluate_streams and positive_cut_streams do; the
    bootstrap of a cut chosen by a measure not declared monotone_in_fp counts through
    bootstrap_count_streams."""
    r = _run("""
        import threading, warnings
        import numpy as np
        import binmetrics as bm
        from binmetrics import backends
        where = []
        build = backends._import_compiled
        def spy(module):
            where.append(threading.current_thread() is threading.main_thread())
            return build(module)
        backends._import_compiled = spy
        warnings.simplefilter("ignore")
        rng = np.random.default_rng(0)
        n = 30_000
        y = (rng.random(n) < 0.3).astype(int)
        p = rng.random(n)
        bm.evaluate(y, p).best_threshold("optimized_precision", ci=True, n_resamples=64,
                                         random_state=0)
        print(where)
    """)
    assert r.returncode == 0, r.stderr[-600:]
    assert r.stdout.strip() == "[True]", r.stdout
