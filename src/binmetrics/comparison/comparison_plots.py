"""The plots of the many-data-set comparisons: the critical-difference diagram of a
post-hoc test (Demšar 2006, Figure 1) and the posterior of a Bayesian test (the
probability simplex of the signed-rank test, the Student density of the correlated
t-test; Benavoli et al. 2017, Figures 5-8).

``RankComparison.plot()``, ``PosthocResult.plot()`` and the Bayesian results' ``plot()``
call these (matplotlib is imported when drawing, by :func:`binmetrics.backends.pyplot`);
they are also ``bm.plot.critical_difference`` and ``bm.plot.bayesian_posterior``. The
results' modules import this one, so it reads them by what they hold (a ``posthoc``
method, ``average_ranks`` and ``groups``, posterior ``samples`` or a
``posterior_variance``) instead of importing their classes.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from binmetrics.backends import pyplot
from binmetrics.formatting import PLOT, format_number

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["MAX_MODELS", "bayesian_posterior", "critical_difference"]

#: above this many models the diagram is refused unless ``max_models`` is raised
MAX_MODELS = 60
_ROW = 0.28  # inches per label row: fits 9-point text with room between the rows


def critical_difference(res: Any, *, ax: Any = None, test: str = "nemenyi",
                        alpha: float = 0.05, control: str | None = None,
                        max_models: int = MAX_MODELS, fontsize: float = 9.0) -> Axes:
    """The critical-difference diagram (Demšar 2006, Figure 1).

    The models on the axis of average ranks, the best (rank 1) on the right; the better
    half is labelled on the right, the other half on the left, one label row per model
    (the figure grows with the number of models, so that up to ``max_models`` the labels
    never overlap). Thick bars join the models that the post-hoc test found not
    significantly different (:meth:`PosthocResult.groups`); above the axis, a bar of
    the critical difference when the test has one (Nemenyi, Bonferroni-Dunn). For a test
    against a control, the bar of the control's group; with Bonferroni-Dunn, the interval
    of one CD on either side of the control (Demšar's Figure 1b).

    Parameters
    ----------
    res : RankComparison or PosthocResult
        A :class:`~binmetrics.RankComparison` is tested first with ``test``,
        ``alpha`` and ``control``.
    ax : matplotlib Axes, optional
        Where to draw; default a new figure sized for the models.
    max_models : int, default 60
        More models than this raise a ValueError (the diagram would not be legible).
    fontsize : float, default 9

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import binmetrics as bm
    >>> from binmetrics.data import demsar_table
    >>> res = bm.rank_comparison(demsar_table())
    >>> ax = bm.plot.critical_difference(res, alpha=0.10)  # doctest: +SKIP
    """
    if callable(getattr(res, "posthoc", None)):  # a RankComparison
        res = res.posthoc(test, control=control, alpha=alpha)
    if not (hasattr(res, "average_ranks") and callable(getattr(res, "groups", None))):
        raise TypeError(f"critical_difference takes a RankComparison "
                        f"(bm.rank_comparison(...)) or its posthoc() result; got "
                        f"{type(res).__name__}")
    if isinstance(max_models, bool) or not isinstance(max_models, (int, np.integer)) \
            or max_models < 2:
        raise ValueError(f"max_models must be an integer >= 2; got {max_models!r}")
    ranks = res.average_ranks
    k = len(ranks)
    if k > max_models:
        raise ValueError(f"a critical-difference diagram of {k} models would not be "
                         f"legible; plot a subset of the models, or pass "
                         f"max_models={k} to draw it anyway")
    groups = res.groups()
    n_right = math.ceil(k / 2)  # the better half, labelled on the right
    n_rows = max(n_right, k - n_right)
    labels = [f"{m} ({format_number(float(r), PLOT)})" for m, r in ranks.items()]
    # the layout in inches: an axis wide enough for its tick labels, and on either side
    # room for the longest label (about 0.6 em a character) after a short leader
    char_in = 0.6 * fontsize / 72.0
    label_in = 0.25 + char_in * max(len(t) for t in labels)
    tick_every = 1 if k <= 20 else 5
    axis_in = max(3.0, 0.3 * k / tick_every * (2 if k >= 100 else 1))
    y_label0 = 1.0 + 0.5 * len(groups)  # rows: axis at 0, group bars, then the labels
    height_rows = y_label0 + n_rows + 0.5
    plt = pyplot("the critical-difference diagram")
    if ax is None:
        fig, ax = plt.subplots(figsize=(axis_in + 2 * label_in + 0.2,
                                        _ROW * (height_rows + 3.2)))
        fig.subplots_adjust(left=0.01, right=0.99, bottom=0.01,
                            top=1 - 0.45 / (_ROW * (height_rows + 3.2)))
    else:  # the Axes given: the rank axis takes what the labels leave
        width = ax.get_position().width * ax.figure.get_figwidth()
        axis_in = max(width - 2 * label_in, 0.2 * width)
    lo, hi = 1.0, float(k)
    per_in = (hi - lo if k > 1 else 1.0) / axis_in  # rank units per inch
    lead = 0.2 * per_in
    left, right = hi + lead, lo - lead  # where the leaders end: x is reversed
    ax.set_xlim(hi + (label_in + 0.05) * per_in, lo - (label_in + 0.05) * per_in)
    ax.set_ylim(height_rows, -3.0)
    ax.axis("off")
    # the rank axis, a tick at each rank, labelled at each (or every fifth for many)
    ax.plot([lo, hi], [0, 0], color="black", lw=1)
    for r in range(1, k + 1):
        major = r == 1 or r % tick_every == 0
        ax.plot([r, r], [0, -0.3 if major else -0.15], color="black", lw=1)
        if major:
            ax.text(r, -0.4, str(r), ha="center", va="bottom", fontsize=fontsize)
    cd = res.critical_difference
    if cd is not None and res.control is None:
        ax.plot([lo, lo + cd], [-2.0, -2.0], color="black", lw=1.5)
        for x in (lo, lo + cd):
            ax.plot([x, x], [-2.15, -1.85], color="black", lw=1)
        ax.text(lo + cd / 2, -2.2, f"CD = {format_number(cd, PLOT)}", ha="center",
                va="bottom", fontsize=fontsize)
    elif cd is not None and res.control is not None:
        rc = float(ranks[str(res.control)])
        ax.plot([max(lo, rc - cd), min(hi, rc + cd)], [-2.0, -2.0], color="tab:red", lw=3,
                solid_capstyle="butt")
        ax.text(rc, -2.2, f"control ± CD ({format_number(cd, PLOT)})", ha="center",
                va="bottom", fontsize=fontsize)
    # one label row per model: a line from its rank down to its row, then out to the side
    for i, r in enumerate(ranks.to_numpy(dtype=float)):
        on_right = i < n_right
        row = i if on_right else k - 1 - i
        y = y_label0 + row
        x_end = right if on_right else left
        ax.plot([r, r, x_end], [0, y, y], color="0.35", lw=0.8)
        ax.plot([r], [0], marker="o", ms=3, color="black")
        ax.text(x_end - (1 if on_right else -1) * 0.05 * per_in, y, labels[i],
                ha="left" if on_right else "right", va="center", fontsize=fontsize)
    # the bars of the groups not significantly different, one row each
    for j, group in enumerate(groups):
        xs = [float(ranks[m]) for m in group]
        y = 0.55 + 0.5 * j
        ax.plot([min(xs) - 0.03, max(xs) + 0.03], [y, y], color="black", lw=3,
                solid_capstyle="round")
    what = ("all pairs" if res.control is None else f"vs. {res.control}")
    ax.set_title(f"{res.method.replace('_', '-')} ({what}), alpha = {res.alpha:g}, "
                 f"N = {res.n_datasets}", fontsize=fontsize + 1)
    return ax


def bayesian_posterior(res: Any, *, ax: Any = None, names: tuple[str, str] | None = None,
                       max_points: int = 5000) -> Axes:
    """The posterior of a Bayesian comparison of two models.

    * a :class:`~binmetrics.comparison.bayesian.BayesianSignedRank`: its posterior samples
      of (P(A better), P(equivalent), P(B better)) in the probability simplex (barycentric
      coordinates, Benavoli et al. 2017, Figure 8), coloured by the region holding the most
      mass, with the share of samples in each corner region;
    * a :class:`~binmetrics.comparison.bayesian.CorrelatedTTest`: the Student density of
      the mean difference A - B with the ROPE marked (their Figure 5).

    ``max_points`` samples at most are drawn in the simplex (evenly spaced).

    Examples
    --------
    >>> import binmetrics as bm
    >>> res = bm.bayesian_signed_rank([.8, .7, .9, .6], [.7, .7, .8, .5], rope=0.01,
    ...                               random_state=0)
    >>> ax = res.plot()  # doctest: +SKIP
    """
    plt = pyplot("the posterior plot")
    a, b = names if names is not None else getattr(res, "names", ("A", "B"))
    if hasattr(res, "samples"):  # a BayesianSignedRank
        if ax is None:
            _, ax = plt.subplots(figsize=(5.5, 5.0))
        samples = res.samples
        if len(samples) > max_points:
            samples = samples[np.linspace(0, len(samples) - 1, max_points).astype(int)]
        # corners: A better at the bottom left, B better bottom right, equivalent at the top
        corners = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, math.sqrt(3) / 2]])
        xy = samples[:, [0, 2, 1]] @ corners
        colors = np.array(["tab:blue", "tab:gray", "tab:orange"])[samples.argmax(axis=1)]
        ax.plot(*np.vstack([corners, corners[:1]]).T, color="black", lw=1)
        # the borders of the three regions: from the centre to the middle of each side
        centre = corners.mean(axis=0)
        for i, j in ((0, 1), (1, 2), (0, 2)):
            mid = (corners[i] + corners[j]) / 2
            ax.plot([centre[0], mid[0]], [centre[1], mid[1]], color="0.6", lw=0.8, ls="--")
        ax.scatter(xy[:, 0], xy[:, 1], s=3, c=colors, alpha=0.3, linewidths=0)
        p = res.probabilities
        ax.text(0, -0.04, f"{a} better\n{p[0]:.3f}", ha="center", va="top")
        ax.text(1, -0.04, f"{b} better\n{p[2]:.3f}", ha="center", va="top")
        ax.text(0.5, math.sqrt(3) / 2 + 0.03, f"equivalent (ROPE {res.rope:g})\n{p[1]:.3f}",
                ha="center", va="bottom")
        ax.set_xlim(-0.15, 1.15)
        ax.set_ylim(-0.2, 1.05)
        ax.set_aspect("equal")
        ax.axis("off")
        ax.set_title("Bayesian signed-rank test: posterior samples")
        return ax
    if hasattr(res, "posterior_variance"):  # a CorrelatedTTest
        from scipy import stats

        if ax is None:
            _, ax = plt.subplots()
        dist = stats.t(res.df, loc=res.estimate, scale=math.sqrt(res.posterior_variance))
        if res.posterior_variance == 0:
            raise ValueError("the posterior is a point mass (every difference is the same); "
                             "nothing to draw")
        x = np.linspace(min(dist.ppf(0.001), -1.2 * res.rope), max(dist.ppf(0.999),
                        1.2 * res.rope), 400)
        ax.plot(x, dist.pdf(x), color="tab:blue")
        ax.fill_between(x, dist.pdf(x), where=np.abs(x) <= res.rope, color="tab:gray",
                        alpha=0.4, label=f"ROPE ±{res.rope:g}")
        for edge in (-res.rope, res.rope):
            ax.axvline(edge, color="0.4", lw=0.8, ls="--")
        p = res.probabilities
        ax.set_xlabel(f"mean difference {a} - {b}")
        ax.set_ylabel("posterior density")
        ax.set_title(f"P({a} better) = {p[0]:.3f}, P(equivalent) = {p[1]:.3f}, "
                     f"P({b} better) = {p[2]:.3f}", fontsize=9)
        ax.legend(loc="upper right")
        return ax
    raise TypeError(f"bayesian_posterior takes a bayesian_signed_rank or correlated_t_test "
                    f"result; got {type(res).__name__}")
