r"""Power and sample size of ROC studies (Obuchowski), as pROC's ``power.roc.test``.

**One ROC curve against AUC 0.5.** With :math:`\kappa` = controls / cases,
:math:`A = 1.414\,\Phi^{-1}(\theta)` and Obuchowski's variance of the AUC under the
binormal model with equal variances (Obuchowski 1997, eq. 4 with pROC's constants),

.. math::

    V(\theta) = 0.0099\, e^{-A^2/2}\left[(5A^2 + 8) + (A^2 + 8)/\kappa\right],
    \qquad V_0 = 0.0792\,(1 + 1/\kappa),

the number of cases needed, and the relations solved for the power or the level, are

.. math::

    n = \frac{\left(z_\alpha \sqrt{V_0} + z_\beta \sqrt{V(\theta)}\right)^2}{(\theta - 0.5)^2},
    \quad z_\beta = \frac{\sqrt{n}\,(\theta - 0.5) - z_\alpha\sqrt{V_0}}{\sqrt{V(\theta)}},
    \quad z_\alpha = \frac{\sqrt{n}\,(\theta - 0.5) - z_\beta\sqrt{V(\theta)}}{\sqrt{V_0}},

with :math:`z_\alpha = \Phi^{-1}(1 - \alpha)` and :math:`z_\beta = \Phi^{-1}(\text{power})`;
a two-sided test uses :math:`\alpha/2`. Given ``n_cases`` and ``power`` the AUC is the
root of the first relation on (0.5, 1). Sample sizes are not rounded (pROC's choice:
round up to plan a study).

**Two paired ROC curves** (Obuchowski & McClish 1997; pROC's ``power.roc.test(roc1,
roc2)``): from pilot scores of two models on the same cases, with DeLong's variances
and covariance of the two AUCs scaled by the number of cases
(:math:`v_i = n \operatorname{Var}\hat\theta_i`, :math:`c = n \operatorname{Cov}`),
:math:`V_0 = 2 v_1 - 2c` and :math:`V_A = v_1 + v_2 - 2c` replace :math:`V_0` and
:math:`V(\theta)`, and :math:`\delta = \hat\theta_1 - \hat\theta_2` replaces
:math:`\theta - 0.5`.

References
----------
Obuchowski, N. A. (1997). Nonparametric analysis of clustered ROC curve data.
*Biometrics* 53, 567-578.

Obuchowski, N. A. and McClish, D. K. (1997). Sample size determination for diagnostic
accuracy studies involving binormal ROC curve indices. *Statistics in Medicine* 16,
1529-1542.

Obuchowski, N. A., Lieber, M. L. and Wians, F. H. (2004). ROC curves in Clinical
Chemistry: uses, misuses, and possible solutions. *Clinical Chemistry* 50, 1118-1125.

DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988). Comparing the areas under
two or more correlated receiver operating characteristic curves. *Biometrics* 44,
837-845.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from scipy import optimize, special

from binmetrics.formatting import Tabular
from binmetrics.inference.delong import delong_pairs
from binmetrics.measures.ranking import auc as table_auc
from binmetrics.validation import NanPolicy, check_paired_inputs

__all__ = ["PowerResult", "obuchowski_variance", "power_roc_test"]

_UNKNOWNS = ("n_cases", "power", "alpha", "auc")


def obuchowski_variance(auc: float, kappa: float) -> float:
    """Obuchowski's variance function V(theta) with pROC's constants (1.414, 0.0099)."""
    a = float(special.ndtri(auc)) * 1.414
    return 0.0099 * math.exp(-a * a / 2.0) * ((5.0 * a * a + 8.0) + (a * a + 8.0) / kappa)


@dataclass(frozen=True)
class PowerResult(Tabular):
    """The design of a ROC study: every quantity, the one solved for included.

    Attributes
    ----------
    n_cases, n_controls : float
        Cases (positives) and controls (negatives); not rounded.
    auc : float or tuple of two floats
        The AUC under the alternative (one curve), or the two pilot AUCs.
    alpha : float
        The significance level (for the two-sided test, the total of both tails).
    power : float
    alternative : "two-sided" or "greater"
    solved_for : str
        Which of ``n_cases``, ``power``, ``alpha``, ``auc`` was computed.
    method : str
    """

    n_cases: float
    n_controls: float
    auc: Any
    alpha: float
    power: float
    alternative: str
    solved_for: str
    method: str = field(default="One ROC curve power calculation")

    def to_frame(self) -> pd.DataFrame:
        """One row with every quantity."""
        return pd.DataFrame([{"n_cases": self.n_cases, "n_controls": self.n_controls,
                              "auc": self.auc, "alpha": self.alpha,
                              "power": self.power, "alternative": self.alternative,
                              "solved_for": self.solved_for}])

    def __repr__(self) -> str:
        auc = (f"({self.auc[0]:.6g}, {self.auc[1]:.6g})" if isinstance(self.auc, tuple)
               else f"{self.auc:.6g}")
        return (f"PowerResult({self.method}; solved for {self.solved_for}: "
                f"n_cases={self.n_cases:.6g}, n_controls={self.n_controls:.6g}, auc={auc}, "
                f"alpha={self.alpha:.6g}, power={self.power:.6g}, "
                f"alternative={self.alternative!r})")


def _check_prob(v: Any, name: str) -> float | None:
    if v is None:
        return None
    f = float(v)
    if not 0.0 < f < 1.0:
        raise ValueError(f"{name} must lie strictly between 0 and 1; got {v!r}")
    return f


def _check_alt(alternative: str) -> str:
    a = str(alternative)
    if a not in ("two-sided", "greater"):
        raise ValueError("alternative must be 'two-sided' or 'greater' (the AUC exceeds 0.5; "
                         f"pROC's one.sided); got {alternative!r}")
    return a


def _missing_error(missing: list[str]) -> ValueError:
    if not missing:
        return ValueError("every quantity is given: leave out exactly one of n_cases, power, "
                          "auc, or pass alpha=None, to have it computed")
    return ValueError(f"{' and '.join(missing)} are missing: give all but one of "
                      "n_cases (or n_controls with kappa), power, alpha, auc")


def _level(given: float | None, z_alpha: float, half: float) -> float:
    """The level as given, or the one solved for (both tails for a two-sided test)."""
    return given if given is not None else half * (1.0 - float(special.ndtr(z_alpha)))


def _solve(z_alpha: float | None, z_beta: float | None, n: float | None, v0: float,
           va: float, delta: float) -> tuple[float | None, float | None, float | None]:
    if n is None:
        assert z_alpha is not None and z_beta is not None
        n = (z_alpha * math.sqrt(v0) + z_beta * math.sqrt(va)) ** 2 / delta**2
    elif z_beta is None:
        assert z_alpha is not None
        z_beta = (math.sqrt(n * delta**2) - z_alpha * math.sqrt(v0)) / math.sqrt(va)
    else:
        z_alpha = (math.sqrt(n * delta**2) - z_beta * math.sqrt(va)) / math.sqrt(v0)
    return z_alpha, z_beta, n


def _one_curve(auc: float | None, n_cases: float | None, n_controls: float | None,
               kappa: float, power: float | None, alpha: float | None,
               alternative: str) -> PowerResult:
    if n_cases is None and n_controls is not None:
        n_cases = n_controls / kappa
    elif n_controls is None and n_cases is not None:
        n_controls = kappa * n_cases
    missing = [name for name, v in zip(_UNKNOWNS, (n_cases, power, alpha, auc),
                                       strict=True) if v is None]
    if len(missing) != 1:
        raise _missing_error(missing)
    half = 2.0 if alternative == "two-sided" else 1.0
    if n_cases is not None and n_controls is not None:
        if not (n_cases > 0 and n_controls > 0):
            raise ValueError(f"n_cases and n_controls must be positive; got {n_cases!r}, "
                             f"{n_controls!r}")
        kappa = n_controls / n_cases
    z_alpha = None if alpha is None else float(special.ndtri(1.0 - alpha / half))
    z_beta = None if power is None else float(special.ndtri(power))
    v0 = 0.0792 * (1.0 + 1.0 / kappa)
    if auc is None:
        assert n_cases is not None and alpha is not None and power is not None
        assert z_alpha is not None and z_beta is not None
        nc, za, zb = n_cases, z_alpha, z_beta

        def gap(x: float) -> float:
            return ((za * math.sqrt(v0) + zb * math.sqrt(obuchowski_variance(x, kappa))) ** 2
                    / (x - 0.5) ** 2 - nc)

        hi, lo = 1.0 - 1e-16, 0.5 + 1e-12
        if gap(lo) <= 0:  # the root is closer to 0.5 than a double can tell
            raise ValueError(f"with {n_cases:g} cases every AUC above 0.5 + 1e-12 reaches "
                             f"power {power:g} at level {alpha:g}: the smallest detectable "
                             "AUC cannot be told from 0.5; give fewer cases (n_cases)")
        if gap(hi) > 0:
            raise ValueError(f"no AUC below 1 reaches power {power:g} at level {alpha:g} "
                             f"with {n_cases:g} cases: increase n_cases or lower power")
        auc = float(optimize.brentq(gap, lo, hi, xtol=1e-14, rtol=1e-15,
                                    maxiter=500))
        return PowerResult(n_cases, kappa * n_cases, auc, alpha, power, alternative, "auc")
    if not 0.5 < auc < 1.0:
        raise ValueError(f"auc must lie in (0.5, 1) (the AUC under the alternative, tested "
                         f"against 0.5); got {auc!r}")
    va = obuchowski_variance(auc, kappa)
    z_alpha, z_beta, n = _solve(z_alpha, z_beta, n_cases, v0, va, auc - 0.5)
    assert z_alpha is not None and z_beta is not None and n is not None
    return PowerResult(n, kappa * n, auc, _level(alpha, z_alpha, half),
                       float(special.ndtr(z_beta)) if power is None else power, alternative,
                       missing[0])


def _two_curves(y: Any, score_a: Any, score_b: Any, kappa: float | None,
                power: float | None, alpha: float | None, alternative: str,
                sample_weight: Any, pos_label: Any, nan_policy: NanPolicy) -> PowerResult:
    if power is None and alpha is None:
        raise _missing_error(["power", "alpha"])
    inp = check_paired_inputs(y, [score_a, score_b], ["score_a", "score_b"], sample_weight,
                              pos_label=pos_label, nan_policy=nan_policy)
    t = delong_pairs(inp.y, inp.scores, inp.weight)[(0, 1)]
    yb = np.asarray(t.covariance)  # DeLong's covariance of the two AUCs
    w = np.ones(inp.y.size) if inp.weight is None else inp.weight
    n_cases, n_controls = float(w[inp.y].sum()), float(w[~inp.y].sum())
    kappa = n_controls / n_cases if kappa is None else float(kappa)
    v1, v2, c12 = (n_cases * yb[0, 0], n_cases * yb[1, 1], n_cases * yb[0, 1])
    v0, va, delta = 2.0 * v1 - 2.0 * c12, v1 + v2 - 2.0 * c12, t.value_a - t.value_b
    _check_pilot_pair(t.value_a, t.value_b, v0, va, power is not None and alpha is not None)
    half = 2.0 if alternative == "two-sided" else 1.0
    z_alpha = None if alpha is None else float(special.ndtri(1.0 - alpha / half))
    z_beta = None if power is None else float(special.ndtri(power))
    n = n_cases if (power is None or alpha is None) else None
    solved = "n_cases" if n is None else ("power" if power is None else "alpha")
    z_alpha, z_beta, n = _solve(z_alpha, z_beta, n, v0, va, delta)
    assert z_alpha is not None and z_beta is not None and n is not None
    return PowerResult(n, kappa * n if solved == "n_cases" else n_controls,
                       (t.value_a, t.value_b), _level(alpha, z_alpha, half),
                       float(special.ndtr(z_beta)) if power is None else power, alternative,
                       solved,
                       "Two ROC curves power calculation")


def _check_pilot_pair(auc_a: float, auc_b: float, v0: float, va: float,
                      solve_n: bool) -> None:
    """Refuse a pilot pair the formulas cannot use (they divide by the AUC difference
    and by the square roots of the variances)."""
    if not (v0 > 0 and va > 0):
        raise ValueError(f"the pilot AUCs ({auc_a:g} and {auc_b:g}) have no variance of their "
                         "difference (the models rank the cases alike, or both AUCs are 1): "
                         "there is nothing to plan from; use a pilot where they differ")
    if solve_n and auc_a == auc_b:
        raise ValueError(f"the two pilot AUCs are equal ({auc_a:g}): no number of cases "
                         "detects a difference of 0; use a pilot where the AUCs differ, or "
                         "give power_roc_test(auc=..., power=...) the difference you expect")


def _check_pilot_table(table: Any) -> None:
    """A one-curve pilot needs cases and controls (an AUC and their ratio)."""
    n_pos, n_neg = float(table.P), float(table.N)
    if not (n_pos > 0 and n_neg > 0):
        raise ValueError(f"the pilot evaluation has {n_pos:g} cases and {n_neg:g} controls: "
                         "a ROC curve (its AUC, the ratio of controls to cases) needs both; "
                         "use a pilot with both classes, or give auc=, n_cases= and kappa=")


def power_roc_test(
    *pilot: Any,
    auc: float | None = None,
    n_cases: float | None = None,
    n_controls: float | None = None,
    kappa: float | None = None,
    power: float | None = None,
    alpha: float | None = 0.05,
    alternative: str = "two-sided",
    sample_weight: Any = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "raise",
) -> PowerResult:
    r"""Power, sample size, detectable AUC or level of a ROC study (pROC
    ``power.roc.test``; Obuchowski's method, see the module docstring for the formulas).

    Three forms:

    * ``power_roc_test(auc=, n_cases=, power=, alpha=)`` with exactly one of
      ``n_cases`` (or ``n_controls``; the other from ``kappa`` = controls / cases,
      default 1), ``power``, ``auc`` left out, or ``alpha=None``: that one is
      computed (one ROC curve tested against AUC 0.5; pROC's
      ``power.roc.test(auc=, ncases=, ...)``).
    * ``power_roc_test(ev, power=0.9)``: one pilot curve (an evaluation, or anything
      with a count table): its AUC, and its numbers of cases and controls unless
      ``power`` and ``alpha`` are both given, when the cases needed are computed
      with its ratio of controls to cases (pROC ``power.roc.test(roc1, ...)``).
    * ``power_roc_test(y, score_a, score_b, power=0.9)``: two models scored on the same
      pilot cases (rows are needed to pair them): the cases needed to detect their AUC
      difference, or the power or level with the pilot's cases (pROC
      ``power.roc.test(roc1, roc2)``, DeLong's covariance).

    Parameters
    ----------
    auc : float in (0.5, 1), optional
        The AUC under the alternative hypothesis.
    n_cases, n_controls : float, optional
        Cases (positives) and controls (negatives).
    kappa : float, optional
        Controls per case (default 1; the pilot's ratio for the pilot forms).
    power : float in (0, 1), optional
    alpha : float in (0, 1) or None, default 0.05
        Pass None to compute it.
    alternative : {"two-sided", "greater"}
        Two-sided halves ``alpha`` (pROC's convention).
    sample_weight, pos_label, nan_policy : optional
        Of the two-model pilot, as :func:`~binmetrics.inference.delong.delong_test`
        (weights are multiplicities; a row of weight 0 is dropped).

    Returns
    -------
    PowerResult
        Every quantity, ``solved_for`` naming the computed one; sample sizes unrounded.

    Raises
    ------
    ValueError
        When none or more than one quantity is missing, or a value is out of range.

    Examples
    --------
    >>> import binmetrics as bm
    >>> r = bm.power_roc_test(auc=0.8, power=0.9)  # cases needed, one control per case
    >>> round(r.n_cases, 6)
    16.619199
    >>> round(bm.power_roc_test(auc=0.8, n_cases=20).power, 6)
    0.947899
    """
    alt = _check_alt(alternative)
    power = _check_prob(power, "power")
    alpha = _check_prob(alpha, "alpha")
    auc = None if auc is None else float(auc)
    for name, v in (("n_cases", n_cases), ("n_controls", n_controls), ("kappa", kappa)):
        if v is not None and not 0 < float(v) < math.inf:
            raise ValueError(f"{name} must be a positive finite number; got {v!r}")
    if len(pilot) == 3:
        if auc is not None or n_cases is not None or n_controls is not None:
            raise ValueError("with pilot scores of two models, give power or alpha "
                             "(and kappa), not auc, n_cases or n_controls")
        return _two_curves(*pilot, kappa, power, alpha, alt, sample_weight, pos_label,
                           nan_policy)
    if len(pilot) == 1:
        if auc is not None or n_cases is not None or n_controls is not None:
            raise ValueError("with a pilot evaluation, give power or alpha (and kappa), "
                             "not auc, n_cases or n_controls: they come from the pilot")
        table = getattr(pilot[0], "table", pilot[0])
        _check_pilot_table(table)
        auc = float(table_auc(table))
        if power is not None and alpha is not None:
            k = float(table.N / table.P) if kappa is None else float(kappa)
            return _one_curve(auc, None, None, k, power, alpha, alt)
        return _one_curve(auc, float(table.P), float(table.N), 1.0, power, alpha, alt)
    if pilot:
        raise TypeError("pass no pilot (auc=, n_cases=...), one evaluation, or y_true, "
                        f"score_a, score_b; got {len(pilot)} positional arguments")
    return _one_curve(auc, None if n_cases is None else float(n_cases),
                      None if n_controls is None else float(n_controls),
                      1.0 if kappa is None else float(kappa), power, alpha, alt)
