"""Multiclass bootstrap intervals (issue 31): every replicate equals the measure of the
resampled rows recomputed with scikit-learn, on the same draws, to 1e-12; all measures
share one set of replicates; undefined replicates are counted with one warning."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.preprocessing import label_binarize

import binmetrics as bm
from binmetrics.evaluation.multiclass import evaluate_multiclass
from binmetrics.inference.resampling import quantiles

B = 40


def case(seed: int, n: int = 120, k: int = 4, weighted: bool = False) -> dict[str, Any]:
    """Probabilities in multiples of 1/20 (ties in every column and in the argmax)."""
    rng = np.random.default_rng(seed)
    proba = rng.multinomial(20, rng.dirichlet(np.ones(k), size=n)) / 20.0
    y = np.array([rng.choice(k, p=0.5 * row + 0.5 / k) for row in proba])
    y[:k] = np.arange(k)
    w = rng.uniform(0.2, 3.0, n) if weighted else None
    return {"y": y, "proba": proba, "w": w, "classes": list(range(k)),
            "mev": evaluate_multiclass(y, proba, sample_weight=w)}


def _sk(func: Callable[..., float], **kw: Any) -> Callable[..., float]:
    def f(y: Any, proba: Any, w: Any, classes: Any) -> float:
        pred = np.asarray(classes)[np.argmax(proba, axis=1)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return float(func(y, pred, sample_weight=w, **kw))
    return f


def _ovr(average: str) -> Callable[..., float]:
    def f(y: Any, proba: Any, w: Any, classes: Any) -> float:
        if average == "micro":
            return float(skm.roc_auc_score(label_binarize(y, classes=classes), proba,
                                           average="micro", sample_weight=w))
        return float(skm.roc_auc_score(y, proba, multi_class="ovr", average=average,
                                       sample_weight=w, labels=classes))
    return f


def _ovo(average: str) -> Callable[..., float]:
    def f(y: Any, proba: Any, w: Any, classes: Any) -> float:
        return float(skm.roc_auc_score(y, proba, multi_class="ovo", average=average,
                                       labels=classes))
    return f


def _ap(average: str) -> Callable[..., float]:
    def f(y: Any, proba: Any, w: Any, classes: Any) -> float:
        return float(skm.average_precision_score(label_binarize(y, classes=classes), proba,
                                                 average=average, sample_weight=w))
    return f


def _brier(y: Any, proba: Any, w: Any, classes: Any) -> float:
    return float(skm.brier_score_loss(y, proba, labels=classes, sample_weight=w))


#: (measure, average) -> scikit-learn on the resampled rows; "weights" says whether the
#: scikit-learn function takes sample weights (roc_auc_score's ovo does not)
SKLEARN: dict[tuple[str, str], tuple[Callable[..., float], bool]] = {
    ("f1", "macro"): (_sk(skm.f1_score, average="macro", zero_division=np.nan), True),
    ("f1", "weighted"): (_sk(skm.f1_score, average="weighted", zero_division=np.nan), True),
    ("f1", "micro"): (_sk(skm.f1_score, average="micro"), True),
    ("precision", "macro"): (_sk(skm.precision_score, average="macro",
                                 zero_division=np.nan), True),
    ("recall", "weighted"): (_sk(skm.recall_score, average="weighted"), True),
    ("accuracy", "native"): (_sk(skm.accuracy_score), True),
    ("balanced_accuracy", "native"): (_sk(skm.balanced_accuracy_score), True),
    ("mcc", "native"): (_sk(skm.matthews_corrcoef), True),
    ("kappa", "native"): (_sk(skm.cohen_kappa_score), True),
    ("brier", "native"): (_brier, True),
    ("auc", "macro"): (_ovr("macro"), True),
    ("auc", "weighted"): (_ovr("weighted"), True),
    ("auc", "micro"): (_ovr("micro"), True),
    ("auc", "hand_till"): (_ovo("macro"), False),
    ("auc", "ovo_weighted"): (_ovo("weighted"), False),
    ("average_precision", "macro"): (_ap("macro"), True),
    ("average_precision", "micro"): (_ap("micro"), True),
}


def brute_force(c: dict[str, Any], func: Callable[..., float], stratified: bool = True,
                seed: int = 0, n_resamples: int = B) -> np.ndarray:
    """The measure recomputed on the rows each replicate draws."""
    out = []
    for rows in c["mev"].bootstrap_indices(n_resamples, stratified=stratified,
                                           random_state=seed):
        w = None if c["w"] is None else c["w"][rows]
        out.append(func(c["y"][rows], c["proba"][rows], w, c["classes"]))
    return np.array(out)


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_replicates_equal_sklearn_on_the_same_draws(weighted: bool) -> None:
    c = case(3, weighted=weighted)
    keys = [k for k, (_, takes_w) in SKLEARN.items() if takes_w or not weighted]
    res = c["mev"].bootstrap(keys, n_resamples=B, random_state=0)
    for mid, avg in keys:
        want = brute_force(c, SKLEARN[mid, avg][0])
        key = f"{bm.get_measure(mid).id} ({avg})"
        got = res.replicates[key]
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, err_msg=f"{mid} {avg}")
        assert np.unique(got).size > 5, (mid, avg)  # the replicates vary: a real test
        # and the estimate is the measure on the data
        assert res.estimate[key] == pytest.approx(
            SKLEARN[mid, avg][0](c["y"], c["proba"], c["w"], c["classes"]), rel=1e-12)


def test_per_class_replicates_equal_sklearn() -> None:
    c = case(4)
    res = c["mev"].bootstrap(["recall", "auc"], per_class=True, n_resamples=B, random_state=1)
    recall = brute_force(c, lambda y, p, w, cl: 0.0, seed=1)  # same draws, checked below
    assert recall.shape == (B,)
    for i, rows in enumerate(c["mev"].bootstrap_indices(B, random_state=1)):
        y, p = c["y"][rows], c["proba"][rows]
        want_r = skm.recall_score(y, np.argmax(p, axis=1), average=None, labels=c["classes"])
        want_a = [skm.roc_auc_score(y == k, p[:, k]) for k in c["classes"]]
        np.testing.assert_allclose(res.replicates["tpr (per_class)"][i], want_r, rtol=1e-12)
        np.testing.assert_allclose(res.replicates["auc (per_class)"][i], want_a, rtol=1e-12)
    # averaged and per-class share the replicates: the macro replicate is their mean
    np.testing.assert_allclose(res.replicates["tpr (weighted)"],
                               brute_force(c, SKLEARN["recall", "weighted"][0], seed=1),
                               rtol=1e-12)
    np.testing.assert_allclose(
        np.nanmean(res.replicates["auc (per_class)"], axis=1),
        c["mev"].bootstrap([("auc", "macro")], n_resamples=B,
                           random_state=1).replicates["auc (macro)"], rtol=1e-12)


def test_intervals_are_the_quantiles_of_the_brute_force_replicates() -> None:
    c = case(5)
    mev = c["mev"]
    want = brute_force(c, SKLEARN["f1", "macro"][0], n_resamples=300)
    ci = mev.ci("f1", average="macro", n_resamples=300, random_state=0, level=0.9)
    assert (ci.low, ci.high) == tuple(quantiles(want, [0.05, 0.95]))
    assert ci.method == "bootstrap-percentile" and ci.level == 0.9 and ci.n_used == 300
    assert ci.estimate == pytest.approx(mev.value("f1", average="macro"), rel=1e-15)
    hand_till = mev.ci("auc", average="hand_till", n_resamples=60, random_state=0)
    want = brute_force(c, SKLEARN["auc", "hand_till"][0], n_resamples=60)
    assert (hand_till.low, hand_till.high) == pytest.approx(quantiles(want, [0.025, 0.975]),
                                                            rel=1e-12)


def test_ci_table_shares_one_set_of_replicates() -> None:
    c = case(6)
    mev = c["mev"]
    table = mev.ci_table(["f1", "auc", "mcc"], average="macro", per_class=True,
                         n_resamples=200, random_state=2)
    alone = mev.ci("auc", average="macro", n_resamples=200, random_state=2)
    row = table[(table.measure == "auc") & table["class"].isna()].iloc[0]
    assert (row.low, row.high) == (alone.low, alone.high)
    per = mev.ci("auc", per_class=True, n_resamples=200, random_state=2)
    got = table[(table.measure == "auc") & table["class"].notna()]
    np.testing.assert_array_equal(got.low.to_numpy(), per.low.to_numpy())
    assert table.columns.tolist() == ["measure", "average", "class", "estimate", "low", "high",
                                      "level", "ci_method", "n_undefined"]
    assert set(table.average) == {"macro", "native", "per_class"}


def test_default_ci_table_is_the_summary_preset() -> None:
    mev = case(7)["mev"]
    t = mev.ci_table(n_resamples=50, random_state=0)
    assert t.measure.tolist() == list(bm.measures.presets.SUMMARY.ids)
    assert (t.low <= t.estimate).all() and (t.estimate <= t.high).all()


def test_bca_matches_an_explicit_jackknife() -> None:
    c = case(8, n=60, k=3)
    mev = c["mev"]
    ci = mev.ci("f1", average="macro", n_resamples=400, random_state=0, kind="bca")
    reps = brute_force(c, SKLEARN["f1", "macro"][0], n_resamples=400)
    f = SKLEARN["f1", "macro"][0]
    num = den = 0.0
    for k in range(3):  # stratified: the classes are separate samples
        rows = np.flatnonzero(c["y"] == k)
        vals = np.array([f(np.delete(c["y"], i), np.delete(c["proba"], i, axis=0), None,
                           c["classes"]) for i in rows])
        u = (rows.size - 1) * (vals.mean() - vals)
        num += (u**3).sum() / rows.size**3
        den += (u**2).sum() / rows.size**2
    a = num / (6 * den**1.5)
    from scipy.stats import norm
    est = ci.estimate
    z0 = norm.ppf((np.sum(reps < est) + np.sum(reps <= est)) / (2 * reps.size))
    za = norm.ppf(0.025)
    q = [norm.cdf(z0 + (z0 + s * za) / (1 - a * (z0 + s * za))) for s in (1, -1)]
    assert (ci.low, ci.high) == pytest.approx(quantiles(reps, q), rel=1e-12)
    assert ci.method == "bootstrap-bca"


def test_weighted_bootstrap_redraws_rows_carrying_their_weights() -> None:
    c = case(9, weighted=True)
    res = c["mev"].bootstrap(["log_loss", "information_score"], n_resamples=B, random_state=0)
    for mid in ("log_loss", "information_score"):  # a fresh evaluation of the drawn rows
        want = brute_force(c, lambda y, p, w, cl, mid=mid: evaluate_multiclass(
            y, p, sample_weight=w, labels=cl, undefined="ignore").value(mid))
        np.testing.assert_allclose(res.replicates[f"{mid} (native)"], want, rtol=1e-12)


def test_unstratified_replicate_without_a_class_is_counted_with_one_warning() -> None:
    y = np.array([0] * 30 + [1] * 30 + [2])  # class 2 has one row: often absent
    rng = np.random.default_rng(0)
    proba = rng.dirichlet(np.ones(3), size=y.size)
    mev = evaluate_multiclass(y, proba)
    with pytest.warns(bm.UndefinedMeasureWarning) as rec:
        per = mev.ci("recall", per_class=True, stratified=False, n_resamples=200,
                     random_state=0)
    msgs = [str(w.message) for w in rec if issubclass(w.category, bm.UndefinedMeasureWarning)]
    assert len(msgs) == 1
    absent = sum(2 not in y[rows] for rows in mev.bootstrap_indices(200, stratified=False,
                                                                    random_state=0))
    assert absent > 30
    assert per.n_undefined.tolist() == [0, 0, absent]
    assert f"class 2 in {absent}" in msgs[0] and "of 200" in msgs[0]
    assert np.isfinite(per.low).all()  # from the defined replicates
    # the macro average leaves the absent class out, as the estimate does: defined
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        macro = mev.ci("recall", average="macro", stratified=False, n_resamples=200,
                       random_state=0)
    assert macro.n_undefined == 0


def test_stratified_replicates_keep_every_class() -> None:
    mev = case(10)["mev"]
    sizes = np.bincount(mev._codes)
    for rows in mev.bootstrap_indices(20, random_state=3):
        np.testing.assert_array_equal(np.bincount(mev._codes[rows], minlength=4), sizes)


def test_bad_input_is_one_line() -> None:
    mev = case(11)["mev"]
    with pytest.raises(ValueError, match=r"average must be one of 'weighted', 'macro', "
                                         r"'micro', 'native', 'hand_till', 'ovo_weighted'"):
        mev.ci("f1", average="sample", n_resamples=10)
    with pytest.raises(ValueError, match="one-vs-one AUC"):
        mev.ci("f1", average="hand_till", n_resamples=10)
    with pytest.raises(ValueError, match="kind must be one of"):
        mev.ci("f1", kind="studentized", n_resamples=10)
    with pytest.raises(ValueError, match="no native multiclass form"):
        mev.ci("auc", average="native", n_resamples=10)
    with pytest.raises(ValueError, match="per_class=True"):
        mev.ci("f1", average="macro", per_class=True, n_resamples=10)
    for msg in ("average must", "one-vs-one"):
        assert "\n" not in msg


def test_same_seed_same_interval_and_repr() -> None:
    mev = case(12)["mev"]
    a = mev.ci("auc", n_resamples=100, random_state=5)
    b = mev.ci("auc", n_resamples=100, random_state=5)
    assert (a.low, a.high) == (b.low, b.high)
    res = mev.bootstrap(["f1"], n_resamples=20, random_state=0)
    assert repr(res).startswith("MulticlassBootstrap(n_resamples=20")
    assert res.to_frame().shape[0] == 1


@pytest.mark.parametrize("measure", ["log_loss", "rps", "brier"])
def test_mean_over_rows_replicates_equal_the_form_on_the_redrawn_rows(measure: str) -> None:
    # these read each replicate as sum_i m_i t_i / sum_i m_i with the row terms found
    # once (Measure.multiclass_rows); brute force: the native form on the redrawn rows
    c = case(13, weighted=True)
    res = c["mev"].bootstrap([measure], n_resamples=B, random_state=4)

    def form(y: Any, proba: Any, w: Any, classes: Any) -> float:
        return float(evaluate_multiclass(y, proba, labels=classes,
                                         sample_weight=w).value(measure))

    got = res.replicates[f"{measure} (native)"]
    np.testing.assert_allclose(got, brute_force(c, form, seed=4), rtol=1e-12, atol=1e-15)
    assert np.unique(got).size > 5


def test_same_seed_same_intervals_whatever_the_threads(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    # from 20,000 rows the streams of replicates run in threads; each stream has its
    # own generator, so the replicates do not depend on how many threads ran them
    rng = np.random.default_rng(8)
    n, k = 20_000, 3
    proba = rng.dirichlet(np.ones(k), size=n)
    y = np.array([rng.choice(k, p=row) for row in proba[:300]] * (n // 300 + 1))[:n]
    mev = evaluate_multiclass(y, proba)
    got = {}
    for threads in ("1", "2"):
        monkeypatch.setenv("OMP_NUM_THREADS", threads)
        got[threads] = mev.bootstrap([("auc", "macro"), "brier", ("f1", "macro")],
                                     n_resamples=120, random_state=3)
    for key in got["1"].measures:
        np.testing.assert_array_equal(got["1"].replicates[key], got["2"].replicates[key])
    rows = list(mev.bootstrap_indices(120, random_state=3))
    np.testing.assert_allclose(
        got["2"].replicates["brier (native)"],
        [skm.brier_score_loss(y[r], proba[r], labels=list(range(k))) for r in rows],
        rtol=1e-12)
    assert len({float(v) for v in got["2"].replicates["auc (macro)"]}) > 100
