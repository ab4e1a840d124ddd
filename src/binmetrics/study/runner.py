"""``benchmark()``: the multi-level comparison study of classifiers and measures.

The multi-level comparison paper (Figure 1; sections 2-3) trains classifiers on
several data sets, in a 2-class and a multiclass version, each with its imbalanced
and balanced composition, validates every model by stratified k-fold
cross-validation and on an external test set, computes every performance measure,
then compares

* the **measures** (section 2.1): per (balance, class setting) an SRD of the matrix
  with one row per model × validation × data set (the data sets merged) and one
  column per measure, unit-length pretreatment, the row mean as the reference, and
  Monte Carlo five-fold cross-validation in ten iterations; COVAT heatmaps of the
  same matrices (Figure 6);
* the **models** (section 2.2): per (data set, balance, class setting) an SRD of the
  transposed matrix (rows = measures, columns = model, and model "T" for the test
  validation), the hypothetical best classifier as the reference (row max for
  higher-is-better measures, row min for lower-is-better ones) and seven-fold
  cross-validation;
* and decomposes the cross-validated SRD% values with the factorial ANOVA of eq. 1
  (balance × class setting × measure, or × classifier).

:func:`benchmark` runs the models and returns a
:class:`~binmetrics.study.results.Study`; :meth:`Study.srd_measures`,
:meth:`Study.srd_models`, :meth:`Study.anova` and :meth:`Study.covat` are the analyses.
Needs scikit-learn (``pip install "binmetrics[compare]"``); the SRD is
:mod:`binmetrics.comparison.srd_ranking`, the ANOVA :mod:`binmetrics.comparison.factorial_anova`,
multiclass evaluation :mod:`binmetrics.evaluation.multiclass`.

This module is the entry point; the study's parts live beside it:
:mod:`binmetrics.study.results` (:class:`Study`, the results and their
analyses), :mod:`binmetrics.study.srd_analyses` (:class:`StudySRD`, the SRD analyses
of a study), :mod:`binmetrics.study.folds` (the per-fold scores), ``_plan`` (the
settings: splits, class settings, balanced variants, and the checks of
``measure_params``), ``_tasks`` (fitting and evaluating one model in one setting, and
running every task) and ``_matrices`` (the SRD input matrices made ready: oriented,
cleaned).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from binmetrics.measures import get_measure
from binmetrics.measures.registry import FAMILIES, select_measures
from binmetrics.progress import as_callback
from binmetrics.study._plan import (
    _BALANCES,
    _CLASS_SETTINGS,
    _check_choices,
    _check_params,
    _plan,
    _split_params,
)
from binmetrics.study._tasks import _run
from binmetrics.study.results import Study
from binmetrics.study.srd_analyses import TEST_SUFFIX

__all__ = ["benchmark", "example_study"]


# --- the public entry point -----------------------------------------------------------------
def benchmark(
    estimators: Mapping[str, Any],
    datasets: Mapping[str, tuple[Any, Any]],
    *,
    cv: int | None = 5,
    test_size: float | int | None = 0.2,
    balance: str | Sequence[str] = _BALANCES,
    classes: str | Sequence[str] = _CLASS_SETTINGS,
    two_class: Any = "extremes",
    measures: str | Iterable[str] = "all",
    measure_params: Mapping[str, Mapping[str, Any]] | None = None,
    threshold: float = 0.5,
    random_state: int | None = 0,
    seed_estimators: bool = True,
    n_jobs: int | None = None,
    progress: Any = None,
) -> Study:
    """Run the multi-level comparison design: every estimator on every data set, class
    setting and composition, validated by cross-validation and on a test set.

    For each data set (multi-level comparison paper, Figure 1 and section 3):

    1. a stratified external test split (``test_size``; the paper used the splits of
       its sources);
    2. per class setting: ``"multiclass"`` keeps every class; ``"2-class"`` keeps
       two, by default the two extreme classes (the paper's non-toxic and most toxic),
       the last being the positive class. A data set with only two classes has no
       separate multiclass setting (it is listed in :attr:`Study.skipped`);
    3. per composition: ``"imbalanced"`` is the training part as it is;
       ``"balanced"`` undersamples every class of the training part at random to the
       size of the smallest (section 3.1). The test part is left unchanged, as in the
       paper's Table 1 (balanced training sets, the same test set for both);
    4. per estimator: stratified ``cv``-fold cross-validation (shuffled) on the
       training part, the out-of-fold predictions pooled into one prediction vector
       and evaluated once (validation ``"cv"``, as WEKA/KNIME cross-validation
       does), and a fit on the whole training part evaluated on the test part
       (validation ``"test"``). Every model of a setting sees the same folds.

    .. important:: **Which classes are "the extremes".** ``two_class="extremes"``
       takes the first and the last class in the *label order* (the last is the
       positive class). That order is the categories' order when ``y`` is an
       **ordered** pandas Categorical (``pd.Categorical(y, categories=["lo", "mid",
       "hi"], ordered=True)`` gives "lo" and "hi"), and otherwise **sorted order**:
       numeric for numbers, but *alphabetical* for strings, so plain labels "lo",
       "mid", "hi" give "hi" (negative) and "mid" (positive) (a warning says so for
       labels that are not numbers). For string labels pass an ordered Categorical
       or name the pair: ``two_class=("lo", "hi")``.

    Binary settings are evaluated with :func:`binmetrics.evaluate` on the positive
    class's probability (cut at ``threshold``, 0.5: the class with the highest
    probability, as in section 3.3); an estimator without ``predict_proba`` is
    evaluated on its ``decision_function`` (cut at 0; the probabilistic measures are
    then NaN with a reason). Multiclass settings are evaluated on the probability
    matrix (:mod:`binmetrics.evaluation.multiclass`, weighted one-vs-rest averages, section 3.3).

    Parameters
    ----------
    estimators : mapping name -> scikit-learn classifier
        Cloned for every fit; never fitted themselves.
    datasets : mapping name -> (X, y)
        Any labels (at least two classes); X array-like, DataFrame or sparse. An
        ordered pandas Categorical ``y`` (or Series of that dtype) gives the class
        order (see "the extremes" above).
    cv : int, default 5
        Folds of the stratified cross-validation (the paper: five-fold). None: test
        validation only.
    test_size : float, int or None, default 0.2
        The external test part (fraction or count, stratified). None: cross-validation
        only.
    balance : "imbalanced", "balanced" or both (default)
    classes : "multiclass", "2-class" or both (default)
    two_class : "extremes", a pair (negative, positive) or a mapping name -> pair
        The classes of the 2-class setting; "extremes": the first and last in the
        label order (ordered Categorical order, else sorted: alphabetical for strings).
    measures : "all", a family ("confusion", "probabilistic", "ranking") or ids
        Which measures of the registry to compute.
    measure_params : mapping id -> {parameter: value}, optional
        Parameters other than the registry defaults, e.g.
        ``{"dor": {"correction": 0.5}}``: the Haldane–Anscombe correction keeps the
        likelihood ratios and DOR finite when a model leaves a confusion cell empty,
        which would otherwise drop them from the SRD analyses. The same parameters
        go to the binary measure in 2-class settings and, in multiclass settings, to
        the native multiclass measure (:data:`binmetrics.evaluation.multiclass.NATIVE_MEASURES`)
        or the one-vs-rest binary one. Where a name means different things (the
        information score's ``prior`` is a probability for two classes but "test",
        "train" or "laplace" for more), give one mapping per class setting:
        ``{"information_score": {"2-class": {"prior": 0.3}, "multiclass": {"prior":
        "laplace"}}}`` (a setting left out keeps the defaults). Every parametrised
        measure is tried in each class setting of the study before any fit, so a
        parameter of the wrong kind is a TypeError/ValueError naming the measure
        and the setting; one that still fails on the real data is NaN for that
        measure only, its reason in :attr:`Study.undefined`.
    threshold : float, default 0.5
        Cut of the positive class's probability in binary settings.
    random_state : int or None, default 0
        Seeds the test split, the undersampling, the folds and (``seed_estimators``)
        the estimators; every draw is derived from it with
        :class:`numpy.random.SeedSequence` in the main process, so the same value
        gives the same :attr:`Study.table` whatever ``n_jobs`` is.
    seed_estimators : bool, default True
        Set every ``random_state`` parameter the estimators leave at None (nested
        ones too) to a seed derived from ``random_state``. False leaves them alone
        (then the results are reproducible only if the estimators are).
    n_jobs : int, optional
        Parallel (data set, setting, model) tasks with joblib (None: 1 unless inside
        a ``joblib.parallel_config``; -1: all processors).
    progress : bool or callable(done, total), optional
        True draws a progress bar on stderr (tqdm if installed, else rich).

    Returns
    -------
    Study
        :attr:`Study.table` (tidy results), :attr:`Study.failures`,
        :attr:`Study.undefined`, :attr:`Study.design`, and the analyses.

    Raises
    ------
    ValueError, TypeError
        Bad arguments or a data set that cannot be split (named in the message);
        checked before any model is fitted. A model that fails while the study runs
        does not stop it: its failure is recorded in :attr:`Study.failures` and
        summarised in one warning, and the other models' results are kept.

    Examples
    --------
    >>> import warnings
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> import binmetrics as bm
    >>> from binmetrics.study import benchmark
    >>> X, y = make_classification(120, n_features=5, n_informative=3, n_classes=3,
    ...                            weights=[.5, .3, .2], random_state=0)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     study = benchmark({"NaiB": GaussianNB(), "stump": DecisionTreeClassifier(max_depth=1)},
    ...                       {"toy": (X, y)}, classes="2-class", cv=3,
    ...                       measures=["accuracy", "auc", "brier"])
    >>> study.table.columns.tolist()
    ['dataset', 'balance', 'classes', 'model', 'validation', 'measure', 'value']
    >>> len(study.table)  # 1 data set x 2 compositions x 2 models x 2 validations x 3
    24
    >>> study.design[["balance", "labels", "train_counts", "test_counts"]]
          balance  labels  train_counts  test_counts
    0  imbalanced  [0, 2]  0: 47, 2: 19  0: 12, 2: 5
    1    balanced  [0, 2]  0: 19, 2: 19  0: 12, 2: 5
    """
    try:
        import sklearn  # noqa: F401
    except ImportError:  # pragma: no cover - scikit-learn is there in the test environment
        raise ImportError("benchmark needs scikit-learn: pip install 'binmetrics[compare]'"
                          ) from None
    if not isinstance(estimators, Mapping) or not estimators:
        raise TypeError("estimators must be a non-empty mapping name -> scikit-learn "
                        f"classifier; got {type(estimators).__name__}")
    for name, est in estimators.items():
        if not isinstance(name, str):
            raise TypeError(f"estimator names must be strings; got {name!r}")
        if not hasattr(est, "fit") or not hasattr(est, "get_params"):
            raise TypeError(f"estimators[{name!r}] must be a scikit-learn classifier (fit, "
                            f"get_params); got {type(est).__name__}")
        if name.endswith(TEST_SUFFIX):
            raise ValueError(f"estimator name {name!r} ends with {TEST_SUFFIX!r}, the suffix "
                             "that marks test validation in the models SRD")
    if not isinstance(datasets, Mapping) or not datasets:
        raise TypeError("datasets must be a non-empty mapping name -> (X, y); got "
                        f"{type(datasets).__name__}")
    if cv is None and test_size is None:
        raise ValueError("cv and test_size are both None: there is no validation to run")
    if cv is not None and (isinstance(cv, bool) or not isinstance(cv, (int, np.integer))
                           or cv < 2):
        raise ValueError(f"cv must be an integer >= 2 (folds) or None; got {cv!r}")
    balances = _check_choices(balance, _BALANCES, "balance")
    settings_cls = _check_choices(classes, _CLASS_SETTINGS, "classes")
    if isinstance(measures, str) and measures == "all":
        chosen = select_measures()
    elif isinstance(measures, str) and measures in FAMILIES:
        chosen = select_measures(measures)
    elif isinstance(measures, str):
        chosen = select_measures(None, measures)  # one id, or a preset: "multilevel28"
    else:
        chosen = select_measures(None, measures)
    if not chosen:
        raise ValueError(f"measures={measures!r} selects no measure")
    ids = [m.id for m in chosen]
    params = _split_params(measure_params, ids)
    if isinstance(random_state, bool) or not (
            random_state is None or isinstance(random_state, (int, np.integer))):
        raise TypeError(f"random_state must be None or a non-negative int; got "
                        f"{random_state!r}")
    if random_state is not None and random_state < 0:
        raise ValueError(f"random_state must be None or a non-negative int; got "
                         f"{random_state!r}")
    root = np.random.SeedSequence(None if random_state is None else int(random_state))
    callback = as_callback(progress, "benchmark")
    names = list(estimators)
    settings, skipped = _plan(datasets, balance=balances, classes=settings_cls,
                              two_class=two_class, test_size=test_size, n_models=len(names),
                              root=root)
    _check_params(params, settings, {get_measure(n).id: n for n in (measure_params or {})})
    validations = [v for v, on in (("cv", cv is not None), ("test", test_size is not None))
                   if on]
    tasks = [(estimators[n], s, j, validations, cv, float(threshold), ids, seed_estimators,
              params[s.classes]) for s in settings for j, n in enumerate(names)]
    results = _run(tasks, n_jobs, callback)
    study = Study._collect(settings, names, results, skipped, ids, config={
        "cv": cv, "test_size": test_size, "balance": balances, "classes": settings_cls,
        "two_class": two_class, "threshold": threshold, "random_state": random_state,
        "seed_estimators": seed_estimators, "measures": ids, "measure_params": params})
    study._report()
    return study


def example_study() -> Study:
    """A tiny study for examples and quick trials: naive Bayes, k-NN and a depth-2 tree
    on a 150-case, 3-class ``make_classification`` set, 3-fold CV plus a test split,
    eight measures, every balance and class setting, summary warnings silenced.

    Examples
    --------
    >>> example_study().table["model"].unique().tolist()
    ['NaiB', 'knn', 'tree']
    """
    from sklearn.datasets import make_classification
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.tree import DecisionTreeClassifier

    X, y = make_classification(150, n_features=5, n_informative=3, n_classes=3,
                               random_state=0)
    models = {"NaiB": GaussianNB(), "knn": KNeighborsClassifier(),
              "tree": DecisionTreeClassifier(max_depth=2)}
    with warnings.catch_warnings():  # the study's summary warnings
        warnings.simplefilter("ignore")
        return benchmark(models, {"toy": (X, y)}, cv=3, measures=[
            "accuracy", "auc", "brier", "mcc", "f1", "kappa", "log_loss",
            "balanced_accuracy"])
