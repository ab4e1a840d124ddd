"""``monotone_in_fp`` is declared per measure, but for some measures it holds only for
some values of their parameters: IBA ``(1 + alpha (TPR - TNR)) TPR TNR`` has
d/dTNR = TPR (1 + alpha TPR - 2 alpha TNR), negative for alpha > 0.5 at a high TNR (PyCM's
alpha = 1, which the IBA docstring points to); the likelihood ratios with a Haldane
correction jump where a cell empties. best_threshold then skips the best cut (it scores
only the cuts ending at positive scores). Reference: choose_cuts over every cut."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import binmetrics as bm
from binmetrics.evaluation.cut_choice import all_cuts, choose_cuts, parse_constraints
from binmetrics.table.counts import Confusion


def _scan(ev, measure, params, constraints=()):
    m = bm.get_measure(measure)
    cuts = all_cuts(ev.table)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        v = np.asarray(m.func(cuts, **m.resolve_params(**params)), dtype=np.float64)
        ok = np.ones(v.shape, dtype=bool)
        for c in parse_constraints(list(constraints)):
            ok &= c.holds(np.asarray(bm.get_measure(c.measure).func(cuts), dtype=np.float64))
    k = int(choose_cuts(v, ok, m.direction))
    if k < 0:
        return (-1.0, -1.0), math.nan
    return (float(cuts.tp[k]), float(cuts.fp[k])), float(v[k])


@pytest.mark.parametrize("constraints", [(), ("fpr>=0.05",)])
def test_iba_alpha_one_worthless_ranking(constraints):
    # one positive on top, 20 negatives, then the other positives: with alpha = 1 the
    # best IBA is inside the run of negatives, (TPR + x) TPR (1 - x) at x = (1 - TPR) / 2
    y = np.array([1] + [0] * 20 + [1] * 5)
    ev = bm.evaluate(y, -np.arange(y.size, dtype=float), threshold=-3)
    k, v = _scan(ev, "iba", {"alpha": 1.0}, constraints)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        best = ev.best_threshold("iba", alpha=1.0, subject_to=list(constraints) or None)
    assert ((best.confusion.tp, best.confusion.fp), best.value) == (k, v)


@pytest.mark.parametrize(("measure", "params"), [("iba", {"alpha": 1.0}),
                                                 ("lr_minus", {"correction": 0.5}),
                                                 ("lr_plus", {"correction": 0.5})])
def test_parameterised_measures_random_tables(measure, params):
    misses = []
    for seed in range(300):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(6, 40))
        y = (rng.random(n) < 0.5).astype(int)
        if y.sum() in (0, n):
            continue
        s = np.round(rng.normal(y * 0.5, 1.0), 1)
        ev = bm.evaluate(y, s, threshold=float(np.median(s)))
        k, v = _scan(ev, measure, params)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            best = ev.best_threshold(measure, **params)
        got = ((best.confusion.tp, best.confusion.fp), best.value)
        if not (got == (k, v) or (math.isnan(v) and math.isnan(best.value))):
            misses.append((seed, got, (k, v)))
    assert not misses, misses[:3]


def test_the_declaration_holds_for_every_parameter_value():
    """tests/measures/test_monotone_in_fp.py varies beta and the costs only."""
    wrong = []
    for m in bm.measures.registry.iter_measures("confusion"):
        if not m.monotone_in_fp:
            continue
        for P, N in [(7, 30), (25, 25)]:
            tp, fp = np.meshgrid(np.arange(P + 1.0), np.arange(N + 1.0), indexing="ij")
            c = Confusion(tp=tp, fp=fp, fn=P - tp, tn=N - fp)
            for name, values in {"alpha": [1.0], "correction": [0.5], "prior": [0.2]}.items():
                if name not in m.params:
                    continue
                for val in values:
                    with warnings.catch_warnings(), np.errstate(all="ignore"):
                        warnings.simplefilter("ignore")
                        v = np.asarray(m.func(c, **{name: val}), dtype=np.float64)
                    worse = np.diff(v, axis=1) * m.direction
                    both = np.isfinite(v[:, 1:]) & np.isfinite(v[:, :-1])
                    if np.any(worse[both] > 1e-12 * np.abs(v[:, 1:][both]).clip(1)):
                        wrong.append((m.id, name, val))
    assert not wrong, sorted(set(wrong))
