"""Thinning a curve for display, with a bounded and measured error: :func:`thin_curve`.

The HTML report (:mod:`binmetrics.display.report`) draws every curve of more than
``max_points`` points through a subset of its points chosen here; the error of each
drawn curve is shown in the report's footer.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.table.counts import chunks

__all__ = ["DECIMALS", "DEFAULT_MAX_POINTS", "Thinned", "thin_curve"]

FloatArray = npt.NDArray[np.float64]

#: Points per curve above which a curve is thinned for display.
DEFAULT_MAX_POINTS = 1000
#: Decimals of the drawn coordinates, in units of the axis range.
DECIMALS = 6
#: The first pass of :func:`thin_curve` keeps at most this many times ``max_points``.
_FIRST_PASS = 8


@dataclass(frozen=True)
class Thinned:
    """A curve thinned for display.

    Attributes
    ----------
    x, y : ndarray
        The drawn points (rounded to ``decimals``).
    index : ndarray of int
        Which input points they are (the first and the last always are).
    error : float
        How far a point of the exact polyline can be from the drawn one (Euclidean,
        in the units of the input coordinates): measured exactly when there is no
        first pass (at most ``8 max_points`` points), else the first pass's bound
        h / 2 plus the measured distance of its points to the drawn line.
    bound : float
        The guarantee known before thinning: ``L / (max_points - 2)`` plus the
        rounding (``sqrt(2) / 2 * 10**-decimals``), L being the length of the curve;
        ``error <= bound`` always. 0-length curves and curves that need no thinning
        have only the rounding term.
    """

    x: FloatArray
    y: FloatArray
    index: npt.NDArray[np.intp]
    error: float
    bound: float


def _segment_distance(px: Any, py: Any, ax: Any, ay: Any, bx: Any, by: Any) -> Any:
    """Euclidean distance from points (px, py) to the segments [(ax, ay), (bx, by)]."""
    dx, dy = bx - ax, by - ay
    den = dx * dx + dy * dy
    rx, ry = px - ax, py - ay
    with np.errstate(invalid="ignore", divide="ignore"):
        t = (rx * dx + ry * dy) / den  # NaN where a segment has length 0: then t = 0
    t = np.nan_to_num(np.clip(t, 0.0, 1.0), nan=0.0)
    rx -= t * dx
    ry -= t * dy
    return np.hypot(rx, ry)


def _arc_keep(x: FloatArray, y: FloatArray, budget: int) -> tuple[npt.NDArray[np.intp], float]:
    """At most ``budget`` points such that consecutive kept points are neighbours or
    less than ``h = 2 L / (budget - 2)`` apart along the curve (L its length); returns
    them and h / 2, the bound on the distance of a skipped point to its chord.

    Arc length s is cut into buckets of width h; a point is kept when its bucket
    differs from a neighbour's, so each bucket keeps at most its first and last point
    and skipped points lie in one bucket with the kept points around them.
    """
    s = np.empty(x.size)
    s[0] = 0.0
    np.cumsum(np.hypot(np.diff(x), np.diff(y)), out=s[1:])
    length = float(s[-1])
    if length == 0.0:
        return np.array([0, x.size - 1], dtype=np.intp), 0.0
    h = 2.0 * length / (budget - 2) * (1.0 + 1e-12)
    b = np.floor(s / h)
    keep = np.ones(x.size, dtype=bool)
    keep[1:-1] = (b[1:-1] != b[:-2]) | (b[1:-1] != b[2:])
    return np.flatnonzero(keep), h / 2.0


def _dp_keep(x: FloatArray, y: FloatArray, budget: int, tol: float) -> npt.NDArray[np.intp]:
    """Douglas-Peucker, greedy: split the chord with the farthest point first, until
    ``budget`` points are kept or every point is within ``tol`` of its chord."""
    n = x.size
    keep = [0, n - 1]
    heap: list[tuple[float, int, int, int]] = []
    xl, yl = x.tolist(), y.tolist()  # Python floats: cheap scalar access
    tol2 = tol * tol

    def push(i: int, j: int) -> None:
        if j - i < 2:
            return
        ax, ay = xl[i], yl[i]
        dx, dy = xl[j] - ax, yl[j] - ay
        den = dx * dx + dy * dy
        rx, ry = x[i + 1:j] - ax, y[i + 1:j] - ay
        if den > 0.0:  # squared distance to the segment (t clipped to [0, 1])
            t = (rx * dx + ry * dy) / den
            np.maximum(t, 0.0, out=t)
            np.minimum(t, 1.0, out=t)
            rx -= t * dx
            ry -= t * dy
        d2 = rx * rx + ry * ry
        k = int(d2.argmax())
        if d2[k] > tol2:
            heapq.heappush(heap, (-float(d2[k]), i, j, i + 1 + k))

    push(0, n - 1)
    while heap and len(keep) < budget:
        _, i, j, k = heapq.heappop(heap)
        keep.append(k)
        push(i, k)
        push(k, j)
    return np.array(sorted(keep), dtype=np.intp)


def _deviation(x: FloatArray, y: FloatArray, idx: npt.NDArray[np.intp], xr: FloatArray,
               yr: FloatArray) -> float:
    """Largest distance from the polyline (x, y) to the drawn polyline (xr, yr) through
    the points ``idx``: each input point against the drawn chord spanning it (the
    distance to a segment is convex, so the points between vertices are no farther)."""
    if idx.size == 1:
        return float(np.max(np.hypot(x - xr[0], y - yr[0])))
    seg = np.repeat(np.arange(idx.size - 1), np.diff(idx))  # chord of each point
    seg = np.append(seg, idx.size - 2)  # the last point ends the last chord
    worst = 0.0
    for sl in chunks(x.size):  # blocks that stay in cache
        a = seg[sl]
        d = _segment_distance(x[sl], y[sl], xr[a], yr[a], xr[a + 1], yr[a + 1])
        worst = max(worst, float(d.max()))
    return worst


def thin_curve(x: Any, y: Any, *, max_points: int = DEFAULT_MAX_POINTS,
               decimals: int = DECIMALS) -> Thinned:
    """Thin a polyline to at most ``max_points`` points with a bounded, measured error.

    Coordinates are in units of the axis range (the report thins each curve in the
    box its chart draws, [0, 1] on both axes), so the error is a fraction of the
    axis in both coordinates.

    Rule: a curve of at most ``max_points`` points is only rounded. A longer one is
    first cut by arc length (keep a point where the arc length crosses a multiple
    of h, see below) to at most ``8 max_points`` points, then reduced to
    ``max_points`` by a greedy Douglas-Peucker (split the chord that is farthest from
    a point first). If the result strays farther than the guarantee, the plain arc
    length rule at ``max_points`` is used instead.

    Guarantee: with the arc-length rule at budget m, two consecutive drawn points
    are either neighbours on the exact curve or less than h = 2 L / (m - 2) apart
    along it (L the curve's length), so every exact point between them is within
    h / 2 = L / (m - 2) of the chord joining them (its distances to the two ends
    add up to less than h). Rounding to ``decimals`` adds at most
    sqrt(2) / 2 * 10**-decimals. The error actually reached is returned too (measured
    from the points, see :class:`Thinned`); it is what the report shows.

    Parameters
    ----------
    x, y : array-like of float
        The points, in drawing order, all finite.
    max_points : int, default 1000
        At least 10.
    decimals : int, default 6
        Rounding of the drawn coordinates.

    Returns
    -------
    Thinned

    Examples
    --------
    >>> import numpy as np
    >>> t = np.linspace(0, np.pi / 2, 100_001)
    >>> th = thin_curve(1 - np.cos(t), np.sin(t), max_points=200)
    >>> th.x.size <= 200, th.index[0], th.index[-1]
    (True, np.int64(0), np.int64(100000))
    >>> bool(th.error <= th.bound), th.bound < 1e-2
    (True, True)
    """
    xs = np.asarray(x, dtype=np.float64)
    ys = np.asarray(y, dtype=np.float64)
    if xs.ndim != 1 or xs.shape != ys.shape:
        raise ValueError(f"x and y must be 1-D of equal length; got {xs.shape} and {ys.shape}")
    if xs.size == 0:
        raise ValueError("a curve needs at least one point")
    if not (np.isfinite(xs).all() and np.isfinite(ys).all()):
        raise ValueError("curve coordinates must be finite")
    if isinstance(max_points, bool) or not isinstance(max_points, (int, np.integer)) \
            or max_points < 10:
        raise ValueError(f"max_points must be an integer >= 10, got {max_points!r}")
    rounding = math.sqrt(2.0) / 2.0 * 10.0 ** -decimals

    def rounded(idx: npt.NDArray[np.intp]) -> tuple[FloatArray, FloatArray]:
        return np.round(xs[idx], decimals), np.round(ys[idx], decimals)

    n = xs.size
    if n <= max_points:
        idx = np.arange(n, dtype=np.intp)
        xr, yr = rounded(idx)
        return Thinned(xr, yr, idx, _deviation(xs, ys, idx, xr, yr), rounding)
    length = float(np.sum(np.hypot(np.diff(xs), np.diff(ys))))
    bound = length / (max_points - 2) + rounding
    first, half_h = np.arange(n, dtype=np.intp), 0.0
    if n > _FIRST_PASS * max_points:
        first, half_h = _arc_keep(xs, ys, _FIRST_PASS * max_points)
    # refining below the first pass's error, or below the rounding, would not show
    sub = _dp_keep(xs[first], ys[first], max_points, max(half_h, 0.5 * 10.0 ** -decimals))
    idx = first[sub]
    xr, yr = rounded(idx)
    # exact points -> first pass: within half_h; first pass -> drawn: measured
    err = half_h + _deviation(xs[first], ys[first], sub, xr, yr)
    if err > bound:  # the greedy split did worse than the plain rule guarantees
        idx, _ = _arc_keep(xs, ys, max_points)
        xr, yr = rounded(idx)
        err = _deviation(xs, ys, idx, xr, yr)
    return Thinned(xr, yr, idx, err, bound)

