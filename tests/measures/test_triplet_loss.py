"""``bm.triplet_loss`` (Berrar Def. 34, eq. 42) against a direct loop over the triplets,
the documented face example, and its input checks."""

from __future__ import annotations

import numpy as np
import pytest

import binmetrics as bm


def _direct(a: np.ndarray, p: np.ndarray, n: np.ndarray, margin: float) -> float:
    total = 0.0
    for i in range(a.shape[0]):
        dp = sum((a[i, j] - p[i, j]) ** 2 for j in range(a.shape[1]))
        dn = sum((a[i, j] - n[i, j]) ** 2 for j in range(a.shape[1]))
        total += max(0.0, dp - dn + margin)
    return total


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.linalg.norm(x, axis=1, keepdims=True)  # ||f(x)||_2 = 1 (Def. 34)


@pytest.mark.parametrize("margin", [0.0, 0.2, 1.0])
def test_equals_direct_loop_on_unit_embeddings(margin: float) -> None:
    rng = np.random.default_rng(int(margin * 10))
    a, p, n = (_unit(rng.standard_normal((50, 8))) for _ in range(3))
    want = _direct(a, p, n, margin)
    assert 0 < want
    assert bm.triplet_loss(a, p, n, margin=margin) == pytest.approx(want, rel=1e-12)
    assert bm.triplet_loss(a, p, n, margin=margin, reduction="mean") == pytest.approx(
        want / 50, rel=1e-12)


def test_the_documented_face_example() -> None:
    anchor = [[1.0, 0.0], [1.0, 0.0]]
    positive = [[0.8, 0.6], [0.0, 1.0]]
    negative = [[0.0, 1.0], [0.6, 0.8]]
    assert bm.triplet_loss(anchor, positive, negative, margin=0.2) == pytest.approx(1.4)
    # the easy triplet alone costs nothing: its negative is 1.6 farther than its positive
    assert bm.triplet_loss(anchor[:1], positive[:1], negative[:1], margin=0.2) == 0.0


def test_input_checks() -> None:
    with pytest.raises(ValueError, match="same shape"):
        bm.triplet_loss([[1.0, 0.0]], [[1.0, 0.0, 0.0]], [[0.0, 1.0]])
    with pytest.raises(ValueError, match="non-finite"):
        bm.triplet_loss([[np.nan, 0.0]], [[1.0, 0.0]], [[0.0, 1.0]])
    with pytest.raises(ValueError, match="reduction"):
        bm.triplet_loss([[1.0, 0.0]], [[1.0, 0.0]], [[0.0, 1.0]], reduction="max")
    with pytest.raises(ValueError, match="margin"):
        bm.triplet_loss([[1.0, 0.0]], [[1.0, 0.0]], [[0.0, 1.0]], margin=-1.0)
