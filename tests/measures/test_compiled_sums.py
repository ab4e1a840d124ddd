"""The compiled loops of the probabilistic measures' blocked pass (measures/_sums_numba.py,
issue 32): large tables take them when numba is installed, and every measure they serve
agrees with NumPy's blocks to rounding (1e-12) on continuous, tied, weighted, extreme and
many-block data; the family pass's logarithms are within 2 ulp of NumPy's, and its
compression gives NumPy's bins; small tables never import numba."""

from __future__ import annotations

import math
import subprocess
import sys
import warnings
from typing import Any

import numpy as np
import pytest

import binmetrics as bm
from binmetrics import backends
from binmetrics.backends import use_compiled
from binmetrics.exceptions import undefined_policy
from binmetrics.measures import block_pass, sums
from binmetrics.measures import logistic_fit as lf
from binmetrics.measures._util import EPS
from binmetrics.table import counts

pytest.importorskip("numba")
#: one table for both ways (the packed sort adds tied weights in row order)
pytestmark = pytest.mark.usefixtures("argsort_build")

FAMILY = [m.id for m in bm.iter_measures("probabilistic")]


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counts, "CHUNK", 997)
    monkeypatch.setattr(lf, "SMALL_TABLE", 1000)


def _family(y: Any, p: Any, w: Any, compiled: bool) -> dict[str, float]:
    with undefined_policy("ignore"), warnings.catch_warnings(), use_compiled(compiled):
        warnings.simplefilter("ignore")
        return bm.evaluate(y, p, sample_weight=w, undefined="ignore").to_dict(measures=FAMILY)


@pytest.mark.parametrize("kind", ["continuous", "tied", "weighted", "weighted_tied",
                                  "extreme", "near_half", "many_per_score", "at_prior"])
def test_compiled_loops_agree_with_numpy(kind: str, small_blocks: None,
                                        probability_case: Any,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """To 1e-12 relative; a value near 0 that is a difference of sums over the n
    cases (Spiegelhalter's z, the information score, Brier skill with every score at
    the prevalence) to 1e-14 sqrt(n) absolute: the two sum in other orders, and a sum
    of n terms rounds to about eps n of their size, which z divides by sqrt(n)."""
    from binmetrics.measures import _sums_numba

    loops = ("family_block", "log_sums", "run_moments")
    ran: set[str] = set()
    for name in loops:  # each loop counted as it runs (the blocks call them by name)
        real = getattr(_sums_numba, name)
        monkeypatch.setattr(_sums_numba, name,
                            lambda *a, _f=real, _n=name: (ran.add(_n), _f(*a))[1])
    y, p, w = probability_case(kind, 20_000)
    near_zero = 1e-14 * math.sqrt(y.size)
    numpy_values = _family(y, p, w, False)
    assert not ran  # NumPy's blocks, with the loops switched off
    compiled_values = _family(y, p, w, True)
    # the family's pass and the calibration bins' loop ran for the compiled values (the
    # log losses at another clip than the default take log_sums: none here)
    assert ran == {"family_block", "run_moments"}
    wrong = []
    for m in FAMILY:
        a, b = numpy_values[m], compiled_values[m]
        if math.isnan(a) and math.isnan(b):
            continue
        if not math.isclose(a, b, rel_tol=1e-12, abs_tol=near_zero):
            wrong.append(f"{m}: {a!r} NumPy, {b!r} compiled")
    assert not wrong, "\n".join(wrong)


def _family_block(s: Any, pos: Any, neg: Any, pi: float = 0.3,
                  size: int | None = None,
                  eps: float = EPS) -> tuple[int, Any, Any, Any, Any, Any]:
    """family_block on descending scores s: (bins, sums, lower edges, moments,
    positives, sum pos d), work arrays of ``size`` (default: one bin per row), the
    losses clipped at ``eps``."""
    from binmetrics.measures import _sums_numba as k

    n = s.size if size is None else size
    work = (np.empty(n), np.empty((k.MOMENT_ORDER + 1, n)), np.empty(n), np.empty(n))
    out = np.empty(k.FAMILY_SUMS)
    m = k.family_block(s, pos, neg, pi, math.log(pi), math.log1p(-pi), True, eps,
                       1.0 / block_pass.FAMILY_BIN_WIDTH, *work, out)
    return (m, out, work[0][:max(m, 0)] * block_pass.FAMILY_BIN_WIDTH,
            work[1][:, :max(m, 0)], work[2][:max(m, 0)], work[3][:max(m, 0)])


def _descending(*parts: Any) -> Any:
    s = np.unique(np.concatenate(parts))[::-1]
    return np.ascontiguousarray(s[(s > 0) & (s < 1)])


def _scores(rng: np.random.Generator, n: int) -> Any:
    """Distinct scores in (0, 1) over every magnitude: near 0 (subnormal ones among
    them), near 1 (a few ulp of 1 apart), uniform, and crowded at 1/2."""
    return _descending(10.0 ** rng.uniform(-300, 0, n), 1 - 10.0 ** rng.uniform(-16, 0, n),
                       10.0 ** rng.uniform(-323.5, -305, n // 10),
                       1 - rng.integers(1, 2000, n) * 2.0**-53, rng.random(n),
                       0.5 + rng.normal(0, 1e-9, n))


def test_family_logarithms_are_numpys_to_2_ulp() -> None:
    """ln p and ln(1 - p) formed in registers from each bin's first row (a series in
    p / p0 - 1) agree with NumPy's logarithms to 2 ulp on every magnitude, subnormal
    scores included: read back as the log losses' sums (clipped at the smallest
    subnormal: not at all) of a block with one positive (or one negative) row."""
    rng = np.random.default_rng(11)
    s = _descending(_scores(rng, 2000), 0.3 + rng.random(3000) * 1e-2,
                    1 - rng.random(3000) * 1e-9)  # and bins of many rows
    rows = np.r_[rng.choice(s.size, 400, replace=False), np.argmin(s), s.size // 2]
    starts = lf.logit_bins(np.log(s) - np.log(1 - s), block_pass.FAMILY_BIN_WIDTH)[1]
    assert np.isin(rows, starts).mean() < 0.5  # most rows read a series, not libm
    assert s[rows].min() < np.finfo(float).tiny
    zero = np.zeros(s.size, dtype=np.uint8)
    tiny = float(np.nextafter(0.0, 1.0))
    ulps = []
    for j in rows:
        one = zero.copy()
        one[j] = 1
        _, out_pos, *_ = _family_block(s, one, zero, eps=tiny)
        _, out_neg, *_ = _family_block(s, zero, one, eps=tiny)
        for got, want in ((-out_pos[4], np.log(s[j])), (-out_neg[5], np.log(1.0 - s[j]))):
            ulps.append(abs(got - want) / np.spacing(abs(want)))
    assert np.all(np.array(ulps) <= 2.0), np.nanmax(ulps)  # a NaN fails too


@pytest.mark.parametrize("counts_kind", ["unit", "small", "weights"])
def test_family_bins_are_numpys_bins(counts_kind: str) -> None:
    """The bins of logit(p) are NumPy's (``logistic_fit.logit_bins`` on ln p - ln(1-p))
    on scores of every magnitude, near 1 among them (where a rounded edge expit(k w)
    would merge bins: the edge is read from 1 - p there); among subnormal scores
    (p < 2^-1022, where an edge has few bits) a row may join the bin above its own, a
    rounding of that edge below it. Every bin's moments, subnormal ones included, are
    NumPy's logarithms' to their rounding over the width (per row)."""
    rng = np.random.default_rng(7)
    s = _scores(rng, 20_000)
    n = s.size
    if counts_kind == "unit":
        pos = (rng.random(n) < 0.3).astype(np.uint8)
        neg = (1 - pos).astype(np.uint8)
    elif counts_kind == "small":
        pos = rng.integers(0, 300, n).astype(np.uint16)
        neg = rng.integers(0, 300, n).astype(np.uint16)
    else:
        pos = rng.uniform(0, 2, n) * (rng.random(n) < 0.5)
        neg = rng.uniform(0, 2, n)
    from binmetrics.measures import _sums_numba as k

    width = block_pass.FAMILY_BIN_WIDTH
    one = np.ones(n, dtype=np.uint8)
    _, _, edges, rows, *_ = _family_block(s, one, one * 0)  # each bin's rows
    starts = np.r_[0, np.cumsum(rows[0])[:-1]].astype(np.intp)
    x = np.log(s) - np.log(1.0 - s)
    # from x = -700 (p about 1e-304: normal numbers, and an edge of the bins) up, the
    # bins are NumPy's
    high = edges >= -700
    np.testing.assert_array_equal(edges[high], lf.logit_bins(x[x >= -700], width)[2])
    assert edges.size > n / 20 and (~high).sum() > 100
    _, _, edges2, moments, positives, first = _family_block(s, pos, neg)
    np.testing.assert_array_equal(edges2, edges)
    # d from NumPy's logarithms in the same bins; x = ln p - ln(1-p) is each
    # logarithm's last bits apart (2 ulp each), so d is 4 of those over w apart per
    # row, and sum tot d^j moves by j times that per unit of tot
    d = x / width - np.repeat(edges / width, rows[0].astype(np.intp))
    assert d.min() > -1 and d.max() < 2
    tot = pos.astype(float) + neg
    ulp = np.spacing(np.abs(np.log(s))) + np.spacing(np.abs(np.log(1.0 - s)))
    slack = np.add.reduceat(tot * (4 * ulp / width), starts)
    for j in range(k.MOMENT_ORDER + 1):
        want = np.add.reduceat(tot * d**j, starts)
        assert np.all(np.abs(moments[j] - want) <= 1e-13 * np.abs(want) + (j + 1) * slack), j
    np.testing.assert_allclose(positives, np.add.reduceat(pos.astype(float), starts),
                               rtol=1e-14)
    want = np.add.reduceat(pos * d, starts)
    assert np.all(np.abs(first - want) <= 1e-13 * np.abs(want) + 2 * slack)
    assert (block_pass.FAMILY_BIN_WIDTH, k.MOMENT_ORDER) == lf.REPLICATE_BINS


def test_the_family_sums_are_laid_out_as_the_groups_declare() -> None:
    """family_block's sums, group by group, are as many as each group declares terms,
    and FamilyTerms reads them in the order of its fields."""
    from binmetrics.measures import _sums_numba as k
    from binmetrics.measures.calibration import SPIEGELHALTER

    groups = (sums.POLY, sums.LOG_PASS, SPIEGELHALTER)
    assert k.FAMILY_WIDTHS == tuple(len(g.terms) for g in groups)
    assert block_pass.FamilyTerms._fields[:3] == ("poly", "log_pass", "spiegelhalter")
    assert [g.key for g in groups] == ["poly", "log_pass", "spiegelhalter"]


def test_family_bins_descend_at_their_edges() -> None:
    """Scores a few ulp around bin edges expit(k w) (near x = -300, -40, -5, 3, 20):
    a bin's first row whose own logit rounds to its neighbours' index takes the next
    index down (indices strictly descend, each row's d a rounding beyond [0, 1)); and a
    block whose last rows share one bin ends it there (the search's last probe)."""
    w = block_pass.FAMILY_BIN_WIDTH
    for x in (-300.0, -40.0, -5.0, 3.0, 20.0):
        for k in range(math.floor(x / w) - 2, math.floor(x / w) + 2):
            e = math.exp(-abs(k) * w)
            edge = e / (1 + e) if k < 0 else 1 / (1 + e)
            s = np.array([edge])
            for _ in range(40):
                s = np.r_[np.nextafter(s[0], 2.0), s, np.nextafter(s[-1], -1.0)]
            one = np.ones(s.size, dtype=np.uint8)
            m, _, edges, moments, *_ = _family_block(s, one, one * 0)
            assert m >= 2 and np.all(np.diff(edges) < 0), (x, k, edges)
            d = moments[1] / moments[0]
            assert np.all((d > -1e-6) & (d < 1 + 1e-6)), (x, k, d)
    for rows in (1, 2, 5, 40):  # one bin, to the block's last row
        s = 0.5 + np.arange(rows, 0, -1) * 1e-12
        one = np.ones(rows, dtype=np.uint8)
        m, _, _, moments, *_ = _family_block(s, one, one * 0)
        assert m == 1 and moments[0][0] == rows


def test_family_block_reports_full_work_arrays(monkeypatch: pytest.MonkeyPatch) -> None:
    """Work arrays too small for the bins: the loop says so (-1), and the pass runs it
    again with one bin per row, to the same values."""
    rng = np.random.default_rng(3)
    s = _scores(rng, 3000)
    pos = (rng.random(s.size) < 0.4).astype(np.uint8)
    neg = (1 - pos).astype(np.uint8)
    assert _family_block(s, pos, neg, size=3)[0] == -1
    p = np.concatenate([s[pos == 1], s[pos == 0], s])
    y = np.concatenate([np.ones(int(pos.sum()), bool), np.zeros(int(neg.sum()), bool),
                        rng.random(s.size) < 0.5])
    t = bm.CountTable.from_arrays(y, p)
    with use_compiled(True):
        want = [b.family() for b in block_pass.table_blocks(t)]
        monkeypatch.setattr(block_pass, "_BIN_MARGIN", -1e9)  # an estimate of one bin
        got = [b.family() for b in block_pass.table_blocks(t)]
    for a, b in zip(want, got, strict=True):
        assert a.poly + a.log_pass + a.spiegelhalter == b.poly + b.log_pass + b.spiegelhalter
        assert a.bins is not None and b.bins is not None
        for u, v in zip(a.bins, b.bins, strict=True):
            np.testing.assert_array_equal(u, v)


def test_small_tables_take_numpy_without_importing_numba() -> None:
    code = """
import sys, numpy as np, binmetrics as bm
rng = np.random.default_rng(0)
y = rng.random(5000) < 0.3
ev = bm.evaluate(y, rng.random(5000))
ev.to_dict()
from binmetrics.measures import block_pass
print(block_pass.compiled_sums(ev.table) is None, "numba" in sys.modules)
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-600:]
    assert r.stdout.split() == ["True", "False"]


def test_the_size_and_the_environment_choose(monkeypatch: pytest.MonkeyPatch) -> None:
    t = bm.evaluate([0, 1, 1, 0], [0.1, 0.8, 0.3, 0.6]).table
    monkeypatch.setattr(backends, "COMPILED_TABLE_ROWS", 4)
    with use_compiled(None):
        assert block_pass.compiled_sums(t) is not None  # 4 distinct scores reach 4
        monkeypatch.setattr(backends, "COMPILED_TABLE_ROWS", 5)
        assert block_pass.compiled_sums(t) is None
        monkeypatch.setenv("BINMETRICS_COMPILED", "0")
        with use_compiled(True):
            assert block_pass.compiled_sums(t) is None  # the environment wins


def _weighted_case(kind: str, n: int) -> tuple[Any, Any, Any]:
    """Weighted cases: uniform, tied, wide (weights over 400 orders of magnitude),
    subnormal, cancelling (every score shared by both classes alike), small (below
    1e-3), large (1e3 to 1e5) or whole (whole-number weights, tied scores)."""
    rng = np.random.default_rng(sum(map(ord, kind)))
    y = rng.random(n) < 0.25
    s = rng.random(n)
    w = rng.uniform(0.1, 4.0, n)
    if kind == "tied":
        s, w = np.round(s, 2), rng.integers(1, 5, n) * 0.37
    elif kind == "wide":
        w = rng.uniform(0.5, 1.0, n) * 10.0 ** rng.integers(-200, 200, n).astype(float)
    elif kind == "subnormal":
        w = rng.uniform(0.5, 1.0, n) * 10.0 ** rng.integers(-315, -300, n).astype(float)
    elif kind == "cancelling":
        s = np.repeat(rng.random(n // 2), 2)
        y = np.tile([True, False], n // 2)
        w = np.repeat(rng.uniform(0.5, 1.5, n // 2), 2)
    elif kind == "small":
        w = rng.uniform(0.0, 1e-3, n)
    elif kind == "large":
        w = rng.uniform(1e3, 1e5, n)
    elif kind == "whole":
        s, w = np.round(s, 3), rng.integers(1, 3, n).astype(float)
    return y, s, w


@pytest.mark.parametrize("kind", ["uniform", "tied", "wide", "subnormal", "cancelling"])
def test_weighted_average_gain_compiled_is_the_same_float(kind: str) -> None:
    """Average gain's weighted sum is rounded once from the exact sum of the same terms,
    NumPy's way (exact_sum) and compiled (measures/_early_numba.py, a superaccumulator):
    the same float, bit for bit, also for weights over 400 orders of magnitude,
    subnormal ones, and a sum that cancels to nearly nothing (AUC about 1/2)."""
    from binmetrics.measures import early_recognition as er

    y, s, w = _weighted_case(kind, 30_000)
    got = []
    for compiled in (False, True):
        with use_compiled(compiled):
            t = bm.evaluate(y, s, sample_weight=w).table
            got.append(er._gain_sum(t))
    assert got[0] == got[1] or (math.isnan(got[0]) and math.isnan(got[1])), got
    assert math.isfinite(got[0])


@pytest.mark.parametrize("kind", ["uniform", "tied", "small", "large", "whole"])
def test_weighted_average_lift_compiled_agrees(kind: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Average lift's sum over a weighted table, compiled (measures/_early_numba.py
    lift_sum) and NumPy's pieces, to 1e-13 relative: the same harmonic gaps, digamma and
    series per group, libm's logarithms and another order of summation; groups with
    under ten cases before them (the recurrence), 10 to 1000 (six terms of the series)
    and above (two), weights far below and above one."""
    from binmetrics.measures import _early_numba as k
    from binmetrics.measures import _special
    from binmetrics.measures import early_recognition as er

    assert (k._S1, k._S2, k._S3, k._S4, k._S5, k._S6) == _special._SERIES
    y, s, w = _weighted_case(kind, 20_000)
    ran: list[bool] = []
    real = k.lift_sum

    def spy(*args: Any) -> float:
        ran.append(True)
        return float(real(*args))

    monkeypatch.setattr(k, "lift_sum", spy)
    got = []
    for compiled in (False, True):
        with use_compiled(compiled):
            got.append(er._lift_sum(bm.evaluate(y, s, sample_weight=w).table))
    assert got[1] == pytest.approx(got[0], rel=1e-13)
    assert ran == [True]  # the compiled loop ran once, for the compiled table only


@pytest.mark.parametrize("kind", ["continuous", "tied", "extreme", "at_prior", "block_ends"])
def test_uniform_bins_blockwise_are_numpys(kind: str, small_blocks: None,
                                           probability_case: Any) -> None:
    """ECE's default bins summed block by block in the family pass (UNIFORM_BINS: blocks
    that straddle an edge, edges at a row's score, at a block's last row and at the
    next one's first) hold NumPy's cases exactly and its sums to rounding, alone and
    after the shared pass."""
    from binmetrics.measures import calibration as cal

    if kind == "block_ends":  # blocks of 997 rows: 0.5 ends the first, 0.4 starts the next
        p = np.concatenate([0.5 + np.arange(996, 0, -1) * 1e-6, [0.5, 0.4],
                            np.linspace(0.399, 0.0, 3000)])
        y = np.random.default_rng(5).random(p.size) < p
    else:
        y, p, _ = probability_case(kind, 20_000)
        p = np.concatenate([p, np.linspace(0.0, 1.0, 11)])  # scores on every edge
        y = np.concatenate([y, np.ones(11, bool)])
    got = []
    for compiled in (False, True, True):
        with use_compiled(compiled):
            t = bm.CountTable.from_arrays(y, p)
            if len(got) == 2:  # the third: ECE's bins computed in the shared pass
                sums.shared_sums(t, [bm.get_measure("ece")])
                assert t.memoised((cal.UNIFORM_BINS.key,))
            got.append(cal.calibration_bins(t))
    for name in ("weight", "positives", "sum_p", "sum_p2", "sum_py"):
        a, b, c = (getattr(x, name) for x in got)  # NumPy, alone, shared
        np.testing.assert_array_equal(b, c)  # alone and shared: the same floats
        if name in ("weight", "positives"):
            np.testing.assert_array_equal(a, b)
        else:
            np.testing.assert_allclose(a, b, rtol=1e-13)
    assert got[0].weight.sum() == y.size


def test_a_steep_fit_on_sparse_bins_refines_from_the_fine_start(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiled bin sums start the fits from about 1024 merged bins; a fit that then
    needs passes over the rows (slope 20 on logits spread over [-700, 36], the bins
    sparse, the coarse slope near 8) takes them from the fine start, not the reference
    iteration over every row (an independent review's case: 395 ms, 23 ms now)."""
    rng = np.random.default_rng(3)
    x = rng.uniform(-700, 36, 70_000)
    y = rng.random(x.size) < np.exp(-np.logaddexp(0, -20 * x))  # expit, stably
    t = bm.CountTable.from_arrays(y, np.exp(-np.logaddexp(0, -x)))
    real = lf.logit_rows
    every_row: list[bool] = []
    monkeypatch.setattr(lf, "logit_rows", lambda t: (every_row.append(True), real(t))[1])
    with use_compiled(True):
        slope_fit, large_fit, _ = lf.fit_table(t)
    assert not every_row
    xs, pos, tot, _ = real(t)
    for got, want in ((slope_fit, lf.newton_fit(xs, pos, tot, True)),
                      (large_fit, lf.newton_fit(xs, pos, tot, False))):
        assert got is not None and want is not None
        np.testing.assert_allclose(got, want, rtol=1e-12)
    assert slope_fit[1] == pytest.approx(18.93, abs=0.01)


@pytest.mark.parametrize("kind", ["zero_alone", "one_and_zero", "one_first"])
def test_a_block_with_no_score_inside_0_1(kind: str, small_blocks: None) -> None:
    """A block may hold no score strictly inside (0, 1): a table's last block its p = 0
    row alone (a table of 1 + a multiple of the block size, lowest score 0: a review
    found math.log(0) raised there), or a table of the rows p = 1 and p = 0. The family
    pass agrees with NumPy's blocks there, and with a p = 1 row opening a block."""
    rng = np.random.default_rng(9)
    inside = np.sort(rng.random(997 * 3))[::-1] * 0.98 + 0.01
    p = {"zero_alone": np.r_[inside, 0.0], "one_and_zero": np.array([1.0, 0.0]),
         "one_first": np.r_[1.0, inside]}[kind]
    y = np.arange(p.size) % 2 == 0
    with use_compiled(True):
        assert block_pass.family_pass(bm.CountTable.from_arrays(y, p)) is not None
    compiled, numpy_values = _family(y, p, None, True), _family(y, p, None, False)
    for m in FAMILY:
        a, b = numpy_values[m], compiled[m]
        assert (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-12,
                                                                   abs_tol=1e-12), m


def test_the_log_losses_clip_1_minus_p_below_2_to_the_minus_53() -> None:
    """eps below 2^-53 (1 - eps rounds to 1): a score of 1 still has ln(1 - p) clipped
    at ln eps, not -inf (NumPy's blocks and the compiled loop at that eps)."""
    y, p = [0, 1, 0, 1], [1.0, 0.7, 0.2, 0.9]
    nats = -(math.log(1e-17) + math.log(0.7) + math.log(0.8) + math.log(0.9)) / 4
    want = nats / math.log(2)  # in bits, the default base
    for compiled in (False, True):
        with use_compiled(compiled):
            got = bm.evaluate(y, p).value("log_loss", eps=1e-17)
        assert got == pytest.approx(want, rel=1e-14)


def test_the_read_ahead_changes_no_float(monkeypatch: pytest.MonkeyPatch,
                                         small_blocks: None, probability_case: Any) -> None:
    """A table of READ_AHEAD_BYTES or more has each block's lines read ahead (touch)
    before the family pass; a smaller one not; the sums are the same floats."""
    from binmetrics.measures import _sums_numba

    y, p, w = probability_case("weighted", 20_000)
    touched: list[int] = []
    real = _sums_numba.touch
    monkeypatch.setattr(_sums_numba, "touch",
                        lambda *a: (touched.append(a[0].size), real(*a))[1])
    got = []
    for limit in (1 << 40, 0):
        monkeypatch.setattr(block_pass, "READ_AHEAD_BYTES", limit)
        with use_compiled(True):
            t = bm.CountTable.from_arrays(y, p, sample_weight=w)
            got.append(block_pass.family_totals(t))
        assert bool(touched) == (limit == 0)
    assert got[0] == got[1]
    assert sum(touched) == t.n_distinct  # every block, once
