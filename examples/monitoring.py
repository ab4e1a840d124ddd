"""A year of a fraud model in production, with a drift in the middle, flagged.

Simulation (deterministic, ``numpy.random.default_rng(29)``): 2,000 transactions a day
for 2026, fraud prevalence about 2% (higher at weekends). The model scores each
transaction with a calibrated probability from two signals. On 2026-07-01 the fraudsters
change tactics: one signal stops separating fraud from normal transactions (concept
drift; the model is not retrained), so the AUC and the recall fall, and the scores of
the fraud cases move down.

What it shows:

1. ``bm.monitor``: 7-day windows sliding by one day, each compared with the reference
   quarter (January to March): the first flagged window, and how much the AUC dropped;
2. ``mon.drift()``: the score distribution (KS, PSI) hardly moves (98% of the
   transactions are normal and unchanged): score drift alone would miss the failure;
3. ``bm.estimate_performance`` (CBPE) on a production month before its labels arrive:
   before the drift it tracks the realized recall; after it, it cannot see the concept
   drift (its stated assumption), which is why the labelled windows are monitored too;
4. ``mon.plot("auc")`` saved to ``monitoring_auc.png`` when matplotlib is installed.

Usage::

    python examples/monitoring.py
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import binmetrics as bm

SEED = 29
PER_DAY = 2000
DRIFT = pd.Timestamp("2026-07-01")
REFERENCE = ("2026-01-01", "2026-03-31")


def simulate() -> pd.DataFrame:
    """One row per transaction: its time, whether it was fraud, the model's score."""
    rng = np.random.default_rng(SEED)
    days = pd.date_range("2026-01-01", "2026-12-31", freq="D")
    n = PER_DAY * days.size
    ts = days.repeat(PER_DAY) + pd.to_timedelta(rng.uniform(0, 86_400, n), "s")
    weekend = np.asarray(ts.dayofweek >= 5)
    fraud = rng.random(n) < np.where(weekend, 0.03, 0.018)
    after = np.asarray(ts >= DRIFT)
    # two signals; after the drift the second one no longer tells fraud apart
    x1 = rng.normal(np.where(fraud, 1.6, 0.0), 1.0)
    x2 = rng.normal(np.where(fraud & ~after, 1.6, 0.0), 1.0)
    logit = -5.6 + 1.6 * x1 + 1.6 * x2  # the model, fitted before the drift
    p = 1.0 / (1.0 + np.exp(-logit))
    return pd.DataFrame({"ts": ts, "fraud": fraud.astype(int), "p": p.round(4)})


def main() -> None:
    df = simulate()
    print(f"{len(df):,} transactions, fraud rate {df['fraud'].mean():.2%}")

    mon = bm.monitor(df, label="fraud", score="p", time="ts", window="7D", step="1D",
                     reference=REFERENCE, measures=["auc", "recall", "precision"],
                     threshold=0.1)
    frame = mon.to_frame()
    print(mon)
    ref_auc = mon.reference_evaluation["auc"]
    for measure in ("auc", "tpr"):
        flagged = frame[frame[f"{measure}_flagged"]]
        first = flagged["start"].min()
        print(f"{measure}: {len(flagged)} of {int((~frame['in_reference']).sum())} tested "
              f"windows flagged (Holm, alpha=0.05); the first starts {first.date()}")
    before = frame[(frame["end"] <= DRIFT) & ~frame["in_reference"]]
    after = frame[frame["start"] >= DRIFT]
    print(f"AUC: reference {ref_auc:.3f}, windows before the drift "
          f"{before['auc'].mean():.3f} ({int(before['auc_flagged'].sum())} flagged), "
          f"after {after['auc'].mean():.3f} ({int(after['auc_flagged'].sum())} flagged)")

    drift = mon.drift()
    # 98% of the scores are of normal transactions, which did not change: the score
    # distribution barely moves, and score drift alone would miss this failure
    print(f"PSI of the scores: at most {drift.loc[before.index, 'psi'].max():.3f} before the "
          f"drift, at most {drift.loc[after.index, 'psi'].max():.3f} after (below 0.1: "
          "'stable'); the labelled windows are what catch it")

    # CBPE: a month's performance before its labels arrive
    ref = df[(df["ts"] >= REFERENCE[0]) & (df["ts"] < "2026-04-01")]
    for month in ("2026-05", "2026-09"):
        rows = df[df["ts"].dt.strftime("%Y-%m") == month]
        est = bm.estimate_performance(rows["p"], reference=(ref["fraud"], ref["p"]),
                                      threshold=0.1, measures=["recall", "auc"],
                                      random_state=0)
        e = est.to_frame().iloc[0]
        real = bm.evaluate(rows["fraud"], rows["p"], threshold=0.1)
        note = " (concept drift: CBPE cannot see it)" if month > "2026-06" else ""
        print(f"{month}: CBPE recall {e['tpr']:.3f} [{e['tpr_low']:.3f}, {e['tpr_high']:.3f}]"
              f", realized {real['tpr']:.3f}; CBPE AUC {e['auc']:.3f}, realized "
              f"{real['auc']:.3f}{note}")

    try:
        import matplotlib

        matplotlib.use("Agg")
        ax = mon.plot("auc")
        ax.figure.savefig("monitoring_auc.png", dpi=120, bbox_inches="tight")
        print("wrote monitoring_auc.png")
    except ImportError:
        print("matplotlib is not installed: no figure")


if __name__ == "__main__":
    main()
