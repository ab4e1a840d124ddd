"""The options every front door shares, declared and checked once.

:func:`~binmetrics.evaluate`, :func:`~binmetrics.evaluate_by`,
:func:`~binmetrics.evaluate_file`, :func:`~binmetrics.evaluate_spark` and
:class:`~binmetrics.Accumulator` take the same evaluation options by the same
names. Each packs the ones it was given into one :class:`EvalOptions`, which checks
them before any data is read and is what the engines and the CLI pass along, so a
new engine or a new option touches this module instead of five signatures.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np

from binmetrics.evaluation.binary import Evaluation
from binmetrics.exceptions import UndefinedPolicy, undefined_policy
from binmetrics.formatting import Tabular
from binmetrics.table.binning import check_bin_args
from binmetrics.table.counts import CountTable
from binmetrics.table.threshold_range import DEFAULT_THRESHOLD, warn_threshold_range
from binmetrics.validation import NanPolicy, check_in_range, check_nan_policy, check_threshold

__all__ = ["PI0_RULES", "EvalOptions", "check_pi0"]

#: the rules that choose pi0 from the groups' prevalences (evaluate_by and the engines' by=)
PI0_RULES = ("mean", "min")


def check_pi0(pi0: Any) -> float | str | None:
    """None, a number in (0, 1) or one of "mean", "min"; anything else is an error.

    Examples
    --------
    >>> check_pi0(" Mean "), check_pi0("0.05"), check_pi0(None)
    ('mean', 0.05, None)
    """
    if pi0 is None:
        return None
    if isinstance(pi0, str):
        rule = pi0.strip().lower()
        if rule in PI0_RULES:
            return rule
        try:
            pi0 = float(rule)
        except ValueError:
            raise ValueError(f"pi0 must be a number in (0, 1), 'mean' or 'min'; "
                             f"got {pi0!r}") from None
    if isinstance(pi0, bool):
        raise TypeError(f"pi0 must be a number in (0, 1), 'mean' or 'min'; got {pi0!r}")
    return check_in_range(pi0, "pi0", 0.0, 1.0, low_open=True, high_open=True)


#: the default threshold, one object: a front door whose threshold *is* it was not given
#: one (the out-of-range warning is for thresholds the user chose)
_DEFAULT_THRESHOLD = DEFAULT_THRESHOLD  # the same object: told apart by identity


@dataclass(frozen=True, repr=False)
class EvalOptions(Tabular):
    """The evaluation options shared by every front door, checked when made.

    Attributes
    ----------
    threshold : float, default 0.5
        Cut of the confusion measures: ``score >= threshold`` is predicted positive
        (``score <= threshold`` when ``higher_is_positive`` is False).
    pos_label : optional
        The positive class when the labels are not a standard encoding.
    nan_policy : {"raise", "omit"}, default "raise"
        NaN/inf (or NULL) scores: an error, or the rows are dropped and counted.
    undefined : {"warn", "raise", "ignore"}, default "warn"
        What an undefined value does: NaN with a warning, an error, or NaN silently.
    pi0 : float in (0, 1), "mean", "min" or None
        Calibrate to this reference prevalence (Siblini et al.); the rules pick it
        from the groups' prevalences where there are groups.
    decimals, bins : optional
        Bin the scores (the file and Spark engines, the Accumulator's tables).
    higher_is_positive : bool, default True
        False for scores where lower means more likely positive (docking scores,
        distances, p-values): every measure is that of the negated scores, and every
        threshold reported (the confusion's, ``best_threshold``, the curves') is in the
        scores' own units with the rule ``score <= threshold``.

    Examples
    --------
    >>> import binmetrics as bm
    >>> from binmetrics.evaluation.options import EvalOptions
    >>> opts = EvalOptions(threshold=0.55)
    >>> t = bm.CountTable.from_arrays([1, 1, 0, 1, 0], [.9, .8, .7, .6, .2])
    >>> opts.evaluation(t).confusion
    Confusion(tp=3, fp=1, fn=0, tn=1)
    >>> EvalOptions(threshold=float("nan"))
    Traceback (most recent call last):
    ...
    ValueError: threshold is NaN
    """

    threshold: float = _DEFAULT_THRESHOLD
    pos_label: Any = None
    nan_policy: NanPolicy = "raise"
    undefined: UndefinedPolicy = "warn"
    pi0: float | str | None = None
    decimals: int | None = None
    bins: Any = None
    higher_is_positive: bool = True

    def __post_init__(self) -> None:
        given = self.threshold is not _DEFAULT_THRESHOLD
        object.__setattr__(self, "threshold", check_threshold(self.threshold))
        if not given:  # keep the default's identity (float() of a float is itself)
            object.__setattr__(self, "threshold", _DEFAULT_THRESHOLD)
        object.__setattr__(self, "_threshold_given", given)
        check_nan_policy(self.nan_policy)
        with undefined_policy(self.undefined):
            pass  # validates the policy name
        object.__setattr__(self, "pi0", check_pi0(self.pi0))
        check_bin_args(self.decimals, self.bins)
        if not isinstance(self.higher_is_positive, (bool, np.bool_)):
            raise TypeError("higher_is_positive must be True or False; got "
                            f"{self.higher_is_positive!r}")
        object.__setattr__(self, "higher_is_positive", bool(self.higher_is_positive))

    def oriented(self, scores: Any) -> Any:
        """Scores with higher meaning positive: ``scores``, or their negation."""
        return scores if self.higher_is_positive else -np.asarray(scores, dtype=float)

    @property
    def binned(self) -> bool:
        return self.decimals is not None or self.bins is not None

    def replace(self, **changes: Any) -> EvalOptions:
        """These options with some changed (checked again)."""
        return dataclasses.replace(self, **changes)

    def evaluation(self, table: CountTable, *, pos_label: Any = None, n_omitted: int = 0,
                   n_rows: int | None = None, n_positive_rows: int | None = None,
                   calibrate: bool = True, check_range: bool = True) -> Evaluation:
        """The :class:`~binmetrics.Evaluation` of ``table`` under these options,
        calibrated to the options' ``pi0`` (a number) unless ``calibrate=False``; a
        threshold the user gave that lies outside the scores' range warns unless
        ``check_range=False`` (the groups of ``evaluate_by``, where one group's scores
        may all lie on one side). The default threshold warns too, saying it is the default
        (scores on another scale, e.g. docking scores, would otherwise be cut at 0.5
        without a word); ``undefined="ignore"`` silences it (with the caveats of
        degenerate input)."""
        if check_range and self.undefined != "ignore":
            warn_threshold_range(table, self.threshold,
                                 higher_is_positive=self.higher_is_positive,
                                 default=not getattr(self, "_threshold_given", True))
        ev = Evaluation(table, threshold=self.threshold,
                        pos_label=self.pos_label if pos_label is None else pos_label,
                        n_omitted=n_omitted, undefined=self.undefined, n_rows=n_rows,
                        n_positive_rows=n_positive_rows,
                        higher_is_positive=self.higher_is_positive)
        target = self.pi0
        if target is None or not calibrate:
            return ev
        if isinstance(target, str):
            raise ValueError(f"pi0={target!r} chooses the reference prevalence from the "
                             "groups' prevalences: it needs by=")
        return ev.calibrated(target)


#: the defaults, read by the front doors' signatures so they are written once
DEFAULTS = EvalOptions()
