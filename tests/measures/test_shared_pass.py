"""One blocked pass for the probabilistic family (issue 32): the sum groups and block
passes the asked measures declare in the registry (``sums=``, ``passes=``) are computed
together by ``sums.shared_sums``, once per table, and every measure reads the same floats
it computes when asked alone: bit for bit, on continuous, tied, weighted and extreme
scores, with several blocks per table (the blocks shrunk here) and the fits' fast path,
by NumPy and by the compiled loops of large tables."""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

import binmetrics as bm
from binmetrics.backends import use_compiled
from binmetrics.engines import binned_table
from binmetrics.exceptions import undefined_policy
from binmetrics.measures import block_pass, sums
from binmetrics.measures import logistic_fit as lf
from binmetrics.table import counts

FAMILY = [m.id for m in bm.iter_measures("probabilistic")]
#: the measures that read a declared group or pass (what the shared pass serves)
SHARED = [m.id for m in bm.iter_measures() if any(g.block for g in m.sums) or m.passes]


@pytest.fixture(params=[False, True], ids=["numpy", "compiled"])
def small_blocks(request: pytest.FixtureRequest,
                 monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # several table blocks at test sizes, and the logistic fits' bins; NumPy's blocks,
    # then the compiled loops of large tables (block_pass.compiled_sums; NumPy again without
    # numba)
    monkeypatch.setattr(counts, "CHUNK", 997)
    monkeypatch.setattr(lf, "SMALL_TABLE", 1000)
    with use_compiled(request.param):
        yield


KINDS = ["continuous", "tied", "weighted", "weighted_tied", "extreme", "margins", "one_class"]


def _alone(y: Any, p: Any, w: Any, measure: str) -> float:
    ev = bm.evaluate(y, p, sample_weight=w, undefined="ignore")
    try:
        return ev.value(measure)
    except ValueError:  # scores outside [0, 1]: to_dict gives NaN
        return math.nan


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


@pytest.mark.parametrize("kind", KINDS)
def test_every_measure_reads_the_floats_it_computes_alone(kind: str, small_blocks: None,
                                                          probability_case: Any) -> None:
    y, p, w = probability_case(kind)
    with undefined_policy("ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        together = bm.evaluate(y, p, sample_weight=w, undefined="ignore").to_dict()
        alone = {m: _alone(y, p, w, m) for m in FAMILY}
    wrong = [f"{m}: {alone[m]!r} alone, {together[m]!r} together" for m in FAMILY
             if not _same(alone[m], together[m])]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("specs", [
    ["log_loss(eps=0.001)", "focal_loss(gamma=3)", "brier", "log_loss"],
    ["information_score(prior=0.2)", "balanced_log_loss(alpha=0.3)", "spiegelhalter_z"],
    ["log_loss(eps=-1)", "mae"],  # refused parameters: the measure reports them itself
])
def test_measures_with_parameters(specs: list[str], small_blocks: None,
                                  probability_case: Any) -> None:
    y, p, w = probability_case("weighted")
    together = bm.evaluate(y, p, sample_weight=w, undefined="ignore")
    alone = bm.evaluate(y, p, sample_weight=w, undefined="ignore")
    if any("eps=-1" in s for s in specs):
        with pytest.raises(ValueError, match="eps"):
            together.to_dict(measures=specs)
        return
    values = together.to_dict(measures=specs)
    for spec in specs:
        m = bm.get_measure(spec)
        assert values[m.id] == alone.value(m), spec


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    passes: list[int] = []
    real = block_pass.table_blocks

    def counted(t: Any) -> Iterator[block_pass.Block]:
        passes.append(t.n_distinct)
        yield from real(t)

    monkeypatch.setattr(block_pass, "table_blocks", counted)
    return passes


def test_one_pass_serves_the_whole_family(small_blocks: None,
                                          monkeypatch: pytest.MonkeyPatch,
                                          probability_case: Any) -> None:
    y, p, w = probability_case("continuous")
    passes = _counting(monkeypatch)
    ev = bm.evaluate(y, p, sample_weight=w, undefined="ignore")
    with undefined_policy("ignore"):
        ev.to_dict(measures=SHARED)
    assert len(passes) == 1  # the groups and the fits' compressed table, together
    assert any(m.passes for m in map(bm.get_measure, SHARED))
    passes.clear()
    alone = bm.evaluate(y, p, sample_weight=w, undefined="ignore")
    for m in SHARED:
        alone.value(m)
    if block_pass.family_pass(alone.table) is None:  # POLY, LOG_PASS, SPIEGELHALTER, the fits
        assert len(passes) >= 4
    else:  # the compiled pass's groups together at the first (then the fits, ECE's bins)
        assert len(passes) == 3


def test_the_family_pass_serves_its_groups_at_once(monkeypatch: pytest.MonkeyPatch,
                                                   probability_case: Any) -> None:
    """With the compiled family pass, one group asked alone memoises the others' sums
    from the same pass: the family's other measures, asked one by one or together
    after it, cost no pass and read the floats each computes alone."""
    pytest.importorskip("numba")
    monkeypatch.setattr(counts, "CHUNK", 997)
    y, p, w = probability_case("weighted")
    later = ["log_loss", "focal_loss", "spiegelhalter_z", "mae", "information_score"]
    with use_compiled(True), undefined_policy("ignore"):
        alone = {m: _alone(y, p, w, m) for m in later}
        for one_by_one in (True, False):
            ev = bm.evaluate(y, p, sample_weight=w, undefined="ignore")
            assert block_pass.family_pass(ev.table) is not None
            passes = _counting(monkeypatch)
            ev.value("brier")
            assert len(passes) == 1
            # one by one (table_sums) or together (shared_sums, which finds the
            # groups' totals memoised): no pass, the same floats as alone
            got = ({m: ev.value(m) for m in later} if one_by_one
                   else ev.to_dict(measures=later))
            assert len(passes) == 1
            assert got == alone
            monkeypatch.undo()
            monkeypatch.setattr(counts, "CHUNK", 997)


def test_nothing_for_binned_scores_or_what_is_memoised(small_blocks: None,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       probability_case: Any) -> None:
    y, p, w = probability_case("weighted")
    ev = bm.evaluate(y, p, sample_weight=w)
    measures = [bm.get_measure(m) for m in SHARED]
    sums.shared_sums(ev.table, measures)
    passes = _counting(monkeypatch)
    sums.shared_sums(ev.table, measures)  # memoised: no second pass
    assert passes == []
    table = binned_table(y, p, sample_weight=w, decimals=2)
    sums.shared_sums(table, measures)  # the engine's raw sums serve binned scores
    assert passes == []
    assert not table.memoised(("poly",))


def test_margins_get_the_hinge_group_only(small_blocks: None, probability_case: Any) -> None:
    y, z, _ = probability_case("margins")
    t = bm.evaluate(y, z).table
    sums.shared_sums(t, [bm.get_measure(m) for m in FAMILY])
    assert t.memoised(("hinge",))
    assert not t.memoised(("poly",)) and not t.memoised(("log_pass", sums.EPS))
