"""Sizes a caller may ask for are bounded (docs/conventions.md, "Limits"): a count of
resamples, bins or groups past what memory (or the data) allows is refused with a
one-line error naming the bound, before anything is drawn or allocated. Each case was
a traceback ("Unable to allocate 7.28 TiB") or ran for tens of seconds and gigabytes;
each test holds the refusal under a second and a few megabytes."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm
from binmetrics.cli import main
from binmetrics.validation import (
    MAX_REPLICATE_BYTES,
    MAX_RESAMPLES,
    MIN_BIN_LIMIT,
    check_bin_count,
    check_resamples,
)

HUGE = 10**12
Y = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
P = [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]
Q = [.9, .7, .8, .5, .6, .3, .4, .2, .1, .35]


@pytest.fixture(scope="module")
def ev() -> bm.Evaluation:
    e = bm.evaluate(Y, P)
    e.ci("mcc", n_resamples=20, random_state=0)  # imports done before anything is timed
    return e


def _refused_fast(call: Callable[[], Any], match: str) -> str:
    """``call()`` raises a one-line ValueError matching ``match`` within a second, having
    allocated under 20 MB (the sizes asked for would take gigabytes)."""
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with pytest.raises(ValueError, match=match) as info:
            call()
    finally:
        elapsed = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert elapsed < 1.0, f"refused after {elapsed:.2f} s"
    assert peak < 20 * 2**20, f"allocated {peak / 2**20:.0f} MB before refusing"
    message = str(info.value)
    assert "\n" not in message
    return message


# --- n_resamples ----------------------------------------------------------------------------
ENTRY_POINTS: dict[str, Callable[[bm.Evaluation, int], Any]] = {
    "ci (bootstrap)": lambda e, n: e.ci("mcc", n_resamples=n),
    "summary": lambda e, n: e.summary(n_resamples=n),
    "permutation_test": lambda e, n: e.permutation_test("auc", n_resamples=n),
    "bootstrap": lambda e, n: bm.bootstrap(e.table, ["auc", "mcc"], n_resamples=n),
    "compare (paired bootstrap)": lambda e, n: bm.compare(
        Y, {"a": P, "b": Q}, measures=["mcc"], n_resamples=n),
    "roc_test bootstrap": lambda e, n: bm.roc_test(Y, P, Q, method="bootstrap",
                                                   n_resamples=n),
    "roc_test venkatraman": lambda e, n: bm.roc_test(Y, P, Q, method="venkatraman",
                                                     n_resamples=n),
    "roc band": lambda e, n: e.roc().ci_band(fpr=[0.1, 0.5], n_resamples=n),
    "undersampling": lambda e, n: e.calibrated(0.3, "undersample", n_resamples=n),
    "bayesian posterior": lambda e, n: bm.bayesian_signed_rank(P, Q, n_resamples=n),
    "srd randomization": lambda e, n: bm.srd(pd.DataFrame({"a": P, "b": Q, "r": Y}),
                                             "r").randomization(n_resamples=n),
}


@pytest.mark.parametrize("name", list(ENTRY_POINTS))
def test_too_many_resamples_are_refused_before_drawing(ev: bm.Evaluation, name: str) -> None:
    msg = _refused_fast(lambda: ENTRY_POINTS[name](ev, HUGE), "at most 10,000,000")
    assert "1,000,000,000,000" in msg and "memory" in msg


def test_the_issues_python_case_is_refused(ev: bm.Evaluation) -> None:
    # ev.ci('mcc', n_resamples=2*10**8) on 10 rows took 22 s and 4.7 GB
    _refused_fast(lambda: ev.ci("mcc", n_resamples=2 * 10**8), "n_resamples must be at most")


def test_refit_tests_are_bounded() -> None:
    sklearn = pytest.importorskip("sklearn.linear_model")
    X = np.arange(20, dtype=float).reshape(10, 2)
    _refused_fast(lambda: bm.oob_bootstrap(sklearn.LogisticRegression(), X, Y,
                                           measure="auc", n_resamples=HUGE), "at most")
    _refused_fast(lambda: bm.refit_permutation_test(
        sklearn.LogisticRegression(), X, Y, X, Y, measure="auc", n_resamples=HUGE), "at most")


def test_replicates_are_bounded_by_the_memory_they_fill(ev: bm.Evaluation) -> None:
    # under the count cap, but 101 band points per replicate: 3.8 GiB
    msg = _refused_fast(lambda: ev.roc().ci_band(fpr=np.linspace(0, 1, 101),
                                               n_resamples=5_000_000), "GiB")
    most = MAX_REPLICATE_BYTES // (8 * 101)
    assert f"at most {most:,} fit" in msg and "101 values per replicate" in msg
    # and compare counts every model and bootstrapped measure: 2 x 7 x 10**7 x 8 bytes
    measures = ["mcc", "f1", "accuracy", "tpr", "tnr", "ppv", "npv"]
    _refused_fast(lambda: bm.compare(Y, {"a": P, "b": Q}, measures=measures,
                                     method="bootstrap", n_resamples=MAX_RESAMPLES),
                  "2 models times 7 bootstrapped measures")


def test_the_bounds_themselves() -> None:
    assert check_resamples(MAX_RESAMPLES) == MAX_RESAMPLES
    assert check_resamples(1000, per_resample=1000) == 1000
    with pytest.raises(ValueError, match="at most 10,000,000"):
        check_resamples(MAX_RESAMPLES + 1)
    most = MAX_REPLICATE_BYTES // 8000
    assert check_resamples(most, per_resample=1000) == most
    with pytest.raises(ValueError, match=f"at most {most:,} fit"):
        check_resamples(most + 1, per_resample=1000)
    assert check_bin_count(MIN_BIN_LIMIT, "n_bins", n_distinct=3) == MIN_BIN_LIMIT
    assert check_bin_count(5000, "n_bins", n_distinct=5000) == 5000
    with pytest.raises(ValueError, match="at most 5,000"):
        check_bin_count(5001, "n_bins", n_distinct=5000)
    with pytest.raises(ValueError, match="at least 3"):
        check_bin_count(2, "n_groups", n_distinct=50, least=3)


def test_ordinary_sizes_still_work(ev: bm.Evaluation) -> None:
    low, high = ev.ci("mcc", n_resamples=200, random_state=0)
    assert -1 <= low <= high <= 1
    assert np.isfinite(ev.value("ece", n_bins=MIN_BIN_LIMIT))
    assert ev.reliability(n_bins=50).n_bins == 50
    assert ev.calibration_test(n_groups=20).n_groups is not None


# --- bins and groups ---------------------------------------------------------------------------
BIN_CASES: dict[str, Callable[[bm.Evaluation], Any]] = {
    # value('ece', n_bins=2*10**8) took 4.9 GB; reliability(n_bins=10**8) 46 s and 5.7 GB;
    # calibration_test(n_groups=10**8) 18 s and 5.5 GB
    "ece": lambda e: e.value("ece", n_bins=2 * 10**8),
    "mce": lambda e: e.value("mce", n_bins=2 * 10**8),
    "reliability": lambda e: e.reliability(n_bins=10**8),
    "brier_decomposition": lambda e: e.brier_decomposition(n_bins=10**8),
    "calibration_test": lambda e: e.calibration_test(n_groups=10**8),
}


@pytest.mark.parametrize("name", list(BIN_CASES))
def test_more_bins_than_the_data_can_fill_are_refused(ev: bm.Evaluation, name: str) -> None:
    msg = _refused_fast(lambda: BIN_CASES[name](ev), "at most 1,000 for these data")
    assert "10 distinct scores" in msg


def test_many_bins_are_allowed_where_the_data_has_many_scores() -> None:
    rng = np.random.default_rng(0)
    y = rng.random(3000) < 0.3
    p = rng.random(3000)
    e = bm.evaluate(y, p)
    assert e.reliability(n_bins=2500).n_bins == 2500
    with pytest.raises(ValueError, match="at most 3,000"):
        e.reliability(n_bins=3001)


def test_hosmer_lemeshow_groups_past_the_cases_split_nothing_more() -> None:
    # the bound loses nothing: once every distinct score is its own group, more
    # groups give the same test
    e = bm.evaluate(Y, P)
    tests = [e.calibration_test(n_groups=g) for g in (10, 50, 1000)]
    assert len({(t.statistic, t.df) for t in tests}) == 1


# --- the exact Wilcoxon test --------------------------------------------------------------------
def test_exact_wilcoxon_past_its_cost_is_refused_at_once() -> None:
    # method="exact" at n = 5,000 ran past 90 s: the exact law is refused by its cost
    rng = np.random.default_rng(0)
    a, b = rng.random(5000), rng.random(5000)
    bm.wilcoxon_test(a[:10], b[:10], method="exact")  # imports done
    msg = _refused_fast(lambda: bm.wilcoxon_test(a, b, method="exact"), "too costly")
    assert "method='normal'" in msg
    assert bm.wilcoxon_test(a, b).pvalue > 0  # "auto" takes the normal approximation


# --- the command line -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def preds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("sizes") / "t.csv"
    pd.DataFrame({"y": Y, "p": P, "q": Q}).to_csv(path, index=False)
    yield path


COMMANDS = {
    "evaluate --ci": ["evaluate", "{f}", "--label", "y", "--score", "p", "--ci"],
    "compare": ["compare", "{f}", "--label", "y", "--score", "p,q", "--method", "bootstrap"],
    "compare venkatraman": ["compare", "{f}", "--label", "y", "--score", "p,q", "--test",
                            "venkatraman"],
    "report --ci": ["report", "{f}", "--label", "y", "--score", "p", "--ci", "-o", "{out}"],
    "report --roc-band": ["report", "{f}", "--label", "y", "--score", "p", "--roc-band",
                          "-o", "{out}"],
    "threshold --ci": ["threshold", "{f}", "--label", "y", "--score", "p", "--maximize", "f1",
                       "--ci"],
}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_cli_refuses_huge_resamples_as_it_reads_options(
        preds: Path, tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [a.format(f=preds, out=tmp_path / "r.html") for a in COMMANDS[name]]
    start = time.perf_counter()
    try:
        code = main([*argv, "--resamples", str(HUGE)])
    except SystemExit as e:  # argparse's exit
        code = e.code
    assert time.perf_counter() - start < 1.0
    err = capsys.readouterr().err
    assert code == 2
    assert "Traceback" not in err and "Unable to allocate" not in err
    assert "--resamples must be at most 10,000,000" in err
    assert not (tmp_path / "r.html").exists()


def test_cli_refuses_replicates_past_the_memory_bound(
        preds: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 9 million replicates of every measure: within the count, past 1 GiB
    code = main(["evaluate", str(preds), "--label", "y", "--score", "p", "--ci",
                 "--resamples", "9000000"])
    err = capsys.readouterr().err
    assert code == 2
    assert "GiB" in err and "fit in the 1 GiB allowed" in err and "Traceback" not in err
