"""Issue 33, point 4: ``higher_is_positive`` in ``bm.compare`` (the CLI's in
tests/cli/test_compare_lower_is_positive.py), and a default threshold outside the scores'
range warns as an explicit one does."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import binmetrics as bm


def _docking(seed: int, n: int = 400) -> tuple[np.ndarray, dict[str, np.ndarray], np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.2).astype(int)
    a = np.round(-7.0 - 1.5 * y + rng.normal(0, 1.2, n), 1)  # ties
    b = np.round(-7.0 - 0.7 * y + rng.normal(0, 1.2, n), 1)
    return y, {"A": a, "B": b}, rng.uniform(0.2, 3.0, n)


@pytest.mark.parametrize("weighted", [False, True])
def test_compare_lower_is_positive_is_compare_of_negated(weighted: bool) -> None:
    y, scores, w = _docking(4)
    sw = w if weighted else None
    kw = dict(measures=["auc", "accuracy", "mcc", "average_precision"], n_resamples=300,
              random_state=1, sample_weight=sw,
              mcnemar="chi2" if weighted else "exact")
    low = bm.compare(y, scores, threshold=-8.0, higher_is_positive=False, **kw)
    neg = bm.compare(y, {k: -v for k, v in scores.items()}, threshold=8.0, **kw)
    pd.testing.assert_frame_equal(low.to_frame(), neg.to_frame())
    assert low.threshold == -8.0 and not low.higher_is_positive
    # and each value is that of evaluate(higher_is_positive=False)
    ev = bm.evaluate(y, scores["A"], threshold=-8.0, sample_weight=sw,
                     higher_is_positive=False)
    for m in ("auc", "accuracy", "mcc", "average_precision"):
        assert low.values["A"][m] == pytest.approx(ev[m], rel=1e-12)
    with pytest.raises(ValueError, match="higher_is_positive=False"):
        low.decision_curve()


def test_default_threshold_outside_the_range_warns() -> None:
    y, scores, _ = _docking(5)
    with pytest.warns(UserWarning, match=r"threshold 0.5 \(the default\) is outside the "
                                         r"scores' range .*every case is predicted positive"):
        ev = bm.evaluate(y, scores["A"], higher_is_positive=False)
    assert ev.confusion.fn == 0 and ev.confusion.tn == 0  # the tp=213, fp=19787
    with pytest.warns(UserWarning) as caught:
        bm.compare(y, scores, higher_is_positive=False)
    texts = [str(w.message) for w in caught]
    assert any(t.startswith("A: threshold 0.5 (the default)") for t in texts)
    assert any(t.startswith("B: threshold 0.5 (the default)") for t in texts)
    with pytest.warns(UserWarning) as caught:  # an explicit threshold: as evaluate
        bm.compare(y, {"A": -scores["A"], "B": -scores["B"] / 5}, threshold=1.5)
    assert [str(w.message).split(" is ")[0] for w in caught] == ["A: threshold 1.5"]
    with warnings.catch_warnings():  # inside the range: no word
        warnings.simplefilter("error")
        bm.evaluate(y, scores["A"], threshold=-8.0, higher_is_positive=False)
        bm.compare(y, scores, threshold=-8.0, higher_is_positive=False)
        bm.evaluate([1, 0, 1], [0.9, 0.2, 0.6])  # probabilities, default threshold
        bm.evaluate(y, scores["A"], undefined="ignore")
