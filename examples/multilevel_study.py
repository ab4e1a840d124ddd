"""Reproduce the design of the multi-level comparison paper (SRD + ANOVA) on data that ships
with scikit-learn.

The paper (Figure 1) trains eleven WEKA classifiers on three toxicity data sets, in a
2-class (the two extreme classes) and a multiclass version, each imbalanced and
balanced (training part undersampled to the smallest class, test part unchanged),
validates each model by stratified five-fold cross-validation and on an external
test set, computes ~28 performance measures, then

* compares the measures: per balance x class setting an SRD of (model x validation x
  data set) rows by measure columns, unit-length pretreatment, mean reference,
  Monte Carlo five-fold cross-validation in ten iterations (Figures 3, 5), COVAT
  heatmaps (Figure 6), and a factorial ANOVA of the cross-validated SRD% (eq. 1,
  Figure 4);
* compares the classifiers: per data set x balance x class setting an SRD of measure
  rows by model columns (cross-validated and "T" test columns), range scaling per
  row, the hypothetical best classifier as reference, seven-fold cross-validation
  (Figure 7), and the same ANOVA with the classifier as factor 3 (Figure 8).

No data is downloaded: breast cancer, wine, a class-imbalanced subset of digits and
two make_classification sets with controlled imbalance (one with the class
proportions of the paper's Table 1, data set 3).

Run ``python examples/multilevel_study.py [--out DIR] [--quick] [--n-jobs 2]``. The
output folder receives:

* ``results.csv`` (tidy: dataset, balance, classes, model, validation, measure, value),
  ``design.csv`` (the settings with their class counts, as the paper's Table 1),
  ``failures.csv``, ``undefined.csv`` (NaN values and why);
* ``srd_measures.csv`` / ``srd_measures_cv.csv`` (SRD% and its cross-validation),
  ``srd_measures_<balance>_<classes>.png`` (Figure 3), ``covat_<balance>_<classes>.png``
  (Figure 6), ``anova_measures.csv`` / ``.txt``, ``anova_measures_settings.png``
  (Figure 4A), ``anova_measures_by_measure.png`` (Figure 5);
* ``srd_models.csv`` / ``srd_models_cv.csv``, ``srd_models_<dataset>_<balance>_<classes>.png``
  (Figure 7), ``anova_models.csv`` / ``.txt``, ``anova_models_by_model.png`` (Figure 8A)
  and ``anova_models_by_balance.png`` (Figure 8B);
* beside SRD and ANOVA, Demšar's (2006) protocol on the same models: ``ranks_auc.txt``
  (average ranks over the data set x balance x class settings, Friedman and
  Iman-Davenport tests, Nemenyi and Holm post-hoc tests), ``ranks_auc_nemenyi.csv`` and
  the critical-difference diagram ``cd_auc.png`` (and the same for the Brier score,
  which ranks ascending: its direction comes from the measure registry);
  ``corrected_t_auc.txt``, Nadeau and Bengio's corrected resampled t-test (and its
  Bayesian form) of the two best models on the cross-validation folds of one setting;
* ``study_report.html``: one self-contained page with all of it side by side (the
  rank comparisons with their critical-difference diagrams, the SRD plots and the
  ANOVA tables; ``study.report``).

Measured times: ``--quick`` (smaller data, fewer trees, fewer SRD resamples) took
3 min 43 s on 2 cores, and 8 min 21 s (0.55 GB) on 2 cores shared with other jobs
(load average 7 to 10); most of it is the benchmark (144 fits and scorings). The full run
takes longer.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import (
    load_breast_cancer,
    load_digits,
    load_wine,
    make_classification,
)
from sklearn.ensemble import (
    AdaBoostClassifier,
    BaggingClassifier,
    RandomForestClassifier,
)
from sklearn.feature_selection import SelectKBest, VarianceThreshold, f_classif
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler, StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from binmetrics import iter_measures
from binmetrics.study import Study, StudySRD, benchmark

#: The class proportions of the paper's Table 1, data set 3 (imbalanced training part).
TABLE1_DATASET3 = np.array([199, 557, 1053, 2325, 1178, 619], dtype=float)


def estimators(quick: bool = False) -> dict[str, Any]:
    """scikit-learn counterparts of the paper's Table 2 (WEKA abbreviations as names).

    No scikit-learn counterpart: HyperPipes (Hip), Decorate (Dec) and Ensemble
    Selection (EnS) are left out. Where the match is loose it says so.
    """
    trees = 30 if quick else 100
    return {
        # NaiveBayes: Gaussian class-conditional densities (WEKA's default for numbers)
        "NaiB": GaussianNB(),
        # FilteredClassifier: attribute selection, then J48. CfsSubsetEval + BestFirst has
        # no scikit-learn counterpart; univariate selection (ANOVA F) stands in for it
        "Fil": make_pipeline(VarianceThreshold(), SelectKBest(f_classif, k=10),
                             DecisionTreeClassifier(min_samples_leaf=2)),
        # IBk with k = 1, Euclidean distance on attributes normalised to [0, 1] (IBk's default)
        "lBk": make_pipeline(MinMaxScaler(), KNeighborsClassifier(n_neighbors=1)),
        # MultiBoostAB with decision stumps, 10 iterations: AdaBoost (SAMME) with stumps;
        # MultiBoost's wagging subcommittees have no counterpart
        "Mboo": AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=10),
        # LibSVM, RBF kernel, probabilities by Platt scaling; standardised inputs (the
        # paper blames its SVM's poor showing on untuned parameters)
        "SVM": make_pipeline(StandardScaler(), SVC(kernel="rbf", probability=True)),
        # OneR (one attribute, bucket size 6): a decision stump with at least 6 cases a leaf
        "OneR": DecisionTreeClassifier(max_depth=1, min_samples_leaf=6),
        # Bagging, 10 iterations (WEKA's default base learner is REPTree; a full tree here)
        "Bag": BaggingClassifier(DecisionTreeClassifier(), n_estimators=10),
        # RandomForest (WEKA's default: 100 trees)
        "RF": RandomForestClassifier(n_estimators=trees),
    }


def _imbalanced_subset(X: np.ndarray, y: np.ndarray, counts: dict[int, int],
                       seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Keep ``counts[c]`` random rows of each class c (the others are dropped)."""
    rng = np.random.default_rng(seed)
    rows = np.sort(np.concatenate([rng.choice(np.flatnonzero(y == c), size=n, replace=False)
                                   for c, n in counts.items()]))
    return X[rows], y[rows]


def datasets(quick: bool = False, seed: int = 0) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The data sets: all ship inside scikit-learn or are generated."""
    scale = 0.5 if quick else 1.0
    out: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    X, y = load_breast_cancer(return_X_y=True)
    if quick:
        X, y = _imbalanced_subset(X, y, {0: 110, 1: 180}, seed)
    out["breast_cancer"] = (X, y)
    out["wine"] = load_wine(return_X_y=True)
    X, y = load_digits(return_X_y=True)
    # six digit classes with decreasing counts, like the toxicity categories
    counts = [170, 120, 85, 60, 42, 30]
    out["digits"] = _imbalanced_subset(X, y, {c: max(12, int(n * scale))
                                              for c, n in enumerate(counts)}, seed)
    out["synthetic_4"] = make_classification(
        n_samples=int(600 * scale), n_features=20, n_informative=8, n_redundant=4,
        n_classes=4, n_clusters_per_class=1, weights=[0.45, 0.3, 0.17, 0.08], flip_y=0.03,
        class_sep=1.0, random_state=seed)
    weights = TABLE1_DATASET3 / TABLE1_DATASET3.sum()
    out["synthetic_6"] = make_classification(
        n_samples=int(900 * scale), n_features=20, n_informative=10, n_redundant=4,
        n_classes=6, n_clusters_per_class=1, weights=list(weights), flip_y=0.03,
        class_sep=1.2, random_state=seed + 1)
    return out


def corrected_measures(correction: float = 0.5) -> dict[str, dict[str, float]]:
    """``measure_params`` with the Haldane-Anscombe correction for every measure of the
    registry that takes one (LR+, LR- and DOR): a model with an empty confusion cell
    would make them infinite and drop them from every SRD (DOR is the paper's most
    consistent measure). Read from the registry, the one list of measure names."""
    return {m.id: {"correction": correction} for m in iter_measures()
            if "correction" in m.params}


def _slug(*parts: Any) -> str:
    return "_".join(str(p).replace("-", "").replace(" ", "") for p in parts)


def _save(fig: Any, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _srd_plots(res: StudySRD, out: Path, prefix: str) -> None:
    for key in res:
        fig, ax = plt.subplots(figsize=(max(7.0, 0.22 * len(res[key].values)), 5))
        r = res[key]
        # the exact footrule law of random rankings (fast; the tie-preserving
        # permutation null is r.randomization())
        r.plot(ax=ax, null=r.randomization(null="exact"))
        ax.set_title(f"SRD of the {res.kind}: " + ", ".join(map(str, key)))
        _save(fig, out / f"{prefix}_{_slug(*key)}.png")


def analyse(study: Study, out: Path, *, repeats: int) -> dict[str, Any]:
    """The paper's analyses of a finished study; files go to ``out``."""
    with warnings.catch_warnings():
        # the measures left out of an SRD (prevalence, infinite DOR...) are listed in
        # the *_dropped.csv tables
        warnings.filterwarnings("ignore", message=r"(srd_measures|srd_models|covat): left out")
        return _analyse(study, out, repeats=repeats)


def _analyse(study: Study, out: Path, *, repeats: int) -> dict[str, Any]:
    srd_m = study.srd_measures(repeats=repeats)
    srd_x = study.srd_models()
    srd_m.summary().to_csv(out / "srd_measures.csv", index=False)
    srd_m.long().to_csv(out / "srd_measures_cv.csv", index=False)
    srd_m.dropped.to_csv(out / "srd_measures_dropped.csv", index=False)
    srd_x.summary().to_csv(out / "srd_models.csv", index=False)
    srd_x.long().to_csv(out / "srd_models_cv.csv", index=False)
    srd_x.dropped.to_csv(out / "srd_models_dropped.csv", index=False)
    _srd_plots(srd_m, out, "srd_measures")
    _srd_plots(srd_x, out, "srd_models")

    for key in srd_m:  # Figure 6
        cov = study.covat(balance=key[0], classes=key[1])
        k = len(cov.order)
        fig, ax = plt.subplots(figsize=(0.25 * k + 3, 0.25 * k + 2))
        cov.plot(ax=ax, annotate=False)
        ax.set_title(f"SRD-COVAT (SRD%): {key[0]}, {key[1]}")
        _save(fig, out / f"covat_{_slug(*key)}.png")

    a_m = study.anova(srd=srd_m)
    a_m.table.to_csv(out / "anova_measures.csv", index=False)
    (out / "anova_measures.txt").write_text(a_m.summary() + "\n")
    fig, ax = plt.subplots(figsize=(6, 4.5))  # Figure 4A
    a_m.plot("classes", hue="balance", ax=ax)
    _save(fig, out / "anova_measures_settings.png")
    fig, ax = plt.subplots(figsize=(14, 5))  # Figure 5
    a_m.plot("measure", ax=ax, sort=True)
    ax.tick_params(axis="x", rotation=90)
    _save(fig, out / "anova_measures_by_measure.png")

    a_x = study.anova("models", srd=srd_x)
    a_x.table.to_csv(out / "anova_models.csv", index=False)
    (out / "anova_models.txt").write_text(a_x.summary() + "\n")
    fig, ax = plt.subplots(figsize=(7, 4.5))  # Figure 8A
    a_x.plot("model", ax=ax, sort=True)
    _save(fig, out / "anova_models_by_model.png")
    fig, ax = plt.subplots(figsize=(7, 4.5))  # Figure 8B
    a_x.plot("model", hue="balance", ax=ax)
    _save(fig, out / "anova_models_by_balance.png")
    ranks = {}
    for measure in ("auc", "brier"):  # Demšar (2006): Friedman, Nemenyi, CD diagram
        r = study.rank_comparison(measure, nan_policy="omit")
        nemenyi = r.posthoc("nemenyi")
        holm = r.posthoc("wilcoxon_holm")
        (out / f"ranks_{measure}.txt").write_text(
            f"{r.summary()}\n\n{nemenyi.summary()}\n\n{holm.summary()}\n")
        nemenyi.to_frame().to_csv(out / f"ranks_{measure}_nemenyi.csv", index=False)
        ax = nemenyi.plot()
        _save(ax.figure, out / f"cd_{measure}.png")
        ranks[measure] = r
    # Nadeau-Bengio's corrected resampled t-test of the two best models by AUC, on the
    # folds of one setting (the study keeps each fold's value and its train/test sizes)
    first, second = ranks["auc"].average_ranks.index[:2]
    setting = study.design.iloc[0]
    where = {k: setting[k] for k in ("dataset", "balance", "classes")}
    ttest = study.correlated_t_test("auc", first, second, rope=0.01, **where)
    folds = study.fold_table("auc", **where)
    (out / "corrected_t_auc.txt").write_text(
        f"{', '.join(map(str, where.values()))}: fold AUCs\n{folds.to_string()}\n\n"
        f"{ttest!r}\n")
    # one HTML page with the CD diagrams next to SRD and ANOVA (the SRD computed above)
    study.report(out / "study_report.html", measures=["auc", "brier"],
                 srd={"measures": srd_m, "models": srd_x})
    return {"srd_measures": srd_m, "srd_models": srd_x, "anova_measures": a_m,
            "anova_models": a_x, "ranks": ranks, "corrected_t": ttest}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("multilevel_study_out"),
                    help="output folder (default ./multilevel_study_out)")
    ap.add_argument("--quick", action="store_true",
                    help="smaller data, fewer trees and SRD resamples: a smoke run")
    ap.add_argument("--n-jobs", type=int, default=2, help="parallel jobs (default 2)")
    ap.add_argument("--seed", type=int, default=0, help="random_state of the study")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    start = time.perf_counter()
    models = estimators(args.quick)
    data = datasets(args.quick, args.seed)
    with warnings.catch_warnings():
        # failures and NaN values are written to failures.csv / undefined.csv below
        warnings.simplefilter("ignore")
        study = benchmark(models, data, cv=5, test_size=0.2, measures="all",
                          measure_params=corrected_measures(),
                          random_state=args.seed, n_jobs=args.n_jobs,
                          progress=not args.no_progress)
    t_run = time.perf_counter() - start
    print(study)
    study.table.to_csv(args.out / "results.csv", index=False)
    study.design.drop(columns=["train_index", "test_index"]).to_csv(
        args.out / "design.csv", index=False)
    study.failures.to_csv(args.out / "failures.csv", index=False)
    study.undefined.to_csv(args.out / "undefined.csv", index=False)
    if len(study.failures):
        print(f"{len(study.failures)} model runs failed (see failures.csv)")

    res = analyse(study, args.out, repeats=3 if args.quick else 10)
    t_all = time.perf_counter() - start
    print(f"\nmodels fitted in {t_run:.1f} s; analyses done in {t_all - t_run:.1f} s; "
          f"output in {args.out}/")
    print("\nANOVA of the measures' SRD% (paper eq. 1):")
    print(res["anova_measures"].summary())
    best = res["anova_measures"].means("measure").sort_values("mean").head(8)
    print("\nmost consistent measures (smallest mean SRD%):")
    print(best.to_string())
    print("\nANOVA of the classifiers' SRD% (paper section 2.2):")
    print(res["anova_models"].summary())
    print(res["anova_models"].means("model").sort_values("mean").to_string())
    auc = res["ranks"]["auc"]
    print("\nDemšar's protocol on the test AUC (cd_auc.png: the critical-difference diagram):")
    print(auc.summary())
    print(auc.posthoc("nemenyi").summary())
    print("\nCorrected resampled t-test of the two best by AUC on one setting's folds "
          "(corrected_t_auc.txt):")
    print(res["corrected_t"])
    print(f"\nthe study report (CD diagrams, SRD and ANOVA side by side): "
          f"{args.out / 'study_report.html'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
