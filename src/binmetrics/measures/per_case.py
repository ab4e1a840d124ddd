"""Per-case scores: the terms whose (weighted) means are the probabilistic measures of
the registry (Berrar Defs. 18, 20, 22, 23 and 35).

Each of these measures is a mean over the cases of a loss of one case; Berrar defines
the case's term for the focal loss (eq. 22), the information score (eq. 24) and the
hinge loss (eq. 43) and shows them per case (the information scores of the ten cases
under Def. 23, the hinge losses in Fig. 8b). :func:`case_scores` computes those terms
for arrays of labels and scores, with the same parameters, clipping and logarithm base
as the registry's measures, so that their weighted means equal ``ev["log_loss"]``,
``ev["focal_loss"]``, ``ev["information_score"]``, ``ev["hinge_loss"]`` and
``ev["brier"]``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.exceptions import report_undefined
from binmetrics.measures._util import EPS, log_base
from binmetrics.validation import check_in_range

__all__ = ["CASE_SCORES", "case_scores"]

FloatArray = npt.NDArray[np.float64]

#: the per-case columns, each with the registry measure its weighted mean equals
CASE_SCORES: dict[str, str] = {
    "information_score": "information_score",
    "focal_loss": "focal_loss",
    "hinge_loss": "hinge_loss",
    "log_loss": "log_loss",
    "squared_error": "brier",
}


def case_scores(
    y: Any,
    s: Any,
    *,
    prior: float | None,
    gamma: float = 2.0,
    alpha: float | None = None,
    base: float = 2.0,
    eps: float = EPS,
) -> dict[str, FloatArray]:
    r"""The per-case terms of the probabilistic measures: column name -> array.

    Parameters
    ----------
    y : array of bool
        True for a positive case.
    s : array of float
        The scores: probabilities in [0, 1] for every column but the hinge loss, which
        reads them as signed distances from the decision boundary.
    prior : float in (0, 1), or None
        The prior probability of the positive class for the information score (None:
        undefined, its column is NaN; the caller has warned).
    gamma, alpha : the focal loss's focusing parameter and optional class weight
        (``alpha`` for positives, ``1 - alpha`` for negatives), as ``focal_loss``.
    base, eps : the logarithm base (2: bits, as Berrar) and the clipping of p and 1 - p
        inside the logarithms, as ``log_loss``.

    Returns
    -------
    dict of str to ndarray
        With :math:`p_t = p` for a positive and :math:`1 - p` for a negative, and
        :math:`y^\pm = \pm 1`:

        - ``information_score``: :math:`\log p_t - \log P_t` if :math:`p_t \ge P_t`,
          else :math:`\log(1 - P_t) - \log(1 - p_t)`, with :math:`P_t` the prior of the
          case's class (Berrar eq. 24);
        - ``focal_loss``: :math:`-a_t (1 - p_t)^\gamma \log \max(p_t, \epsilon)`
          (eq. 22; :math:`a_t = 1` without ``alpha``);
        - ``hinge_loss``: :math:`\max(0, 1 - y^\pm s)` (eq. 43);
        - ``log_loss``: :math:`-\log \max(p_t, \epsilon)` (the term of eq. 20);
        - ``squared_error``: :math:`(y - p)^2` (the term of eq. 18).

        The probability columns are NaN when some score lies outside [0, 1] (the caller
        says so); the hinge loss is always defined.

    Examples
    --------
    >>> import numpy as np
    >>> out = case_scores(np.array([True, False]), np.array([0.95, 0.75]), prior=0.5)
    >>> [round(float(v), 3) for v in out["information_score"]]  # Berrar: 0.926, -0.585
    [0.926, -0.585]
    """
    y = np.asarray(y, dtype=bool)
    s = np.asarray(s, dtype=np.float64)
    g = check_in_range(gamma, "gamma", 0.0, np.inf, high_open=True)
    e = check_in_range(eps, "eps", 0.0, 0.5, low_open=True)
    lb = log_base(base)
    out: dict[str, FloatArray] = {}
    nan = np.full(s.shape, np.nan)
    hinge = np.maximum(0.0, 1.0 - np.where(y, s, -s))
    if s.size and (s.min() < 0.0 or s.max() > 1.0):
        for col in CASE_SCORES:
            out[col] = hinge if col == "hinge_loss" else nan
        return out
    p_t = np.where(y, s, 1.0 - s)
    log_pt = np.log(np.maximum(p_t, e))
    if prior is None:
        info = nan
    else:
        pi = check_in_range(prior, "prior", 0.0, 1.0, low_open=True, high_open=True)
        prior_t = np.where(y, pi, 1.0 - pi)
        with np.errstate(divide="ignore"):  # log 0 only on the side np.where discards
            up = np.log(p_t) - np.log(prior_t)
            down = np.log1p(-prior_t) - np.log1p(-p_t)
        info = np.where(p_t >= prior_t, up, down) / lb
    a_t: Any = 1.0
    if alpha is not None:
        a = check_in_range(alpha, "alpha", 0.0, 1.0)
        a_t = np.where(y, a, 1.0 - a)
    out["information_score"] = info
    out["focal_loss"] = -a_t * np.power(1.0 - p_t, g) * log_pt / lb
    out["hinge_loss"] = hinge
    out["log_loss"] = -log_pt / lb
    out["squared_error"] = (1.0 - p_t) ** 2
    return out


def undefined_prior(prior: float | None, prevalence: float, measure: str) -> float | None:
    """The information score's prior: ``prior``, or the data's prevalence (None, with
    one warning, when that is 0 or 1: the score is then undefined)."""
    if prior is not None:
        return check_in_range(prior, "prior", 0.0, 1.0, low_open=True, high_open=True)
    if prevalence in (0.0, 1.0):
        report_undefined(measure, "the class prior is 0 or 1 (y_true has one class); "
                         "pass prior=")
        return None
    return prevalence
