"""Named sets of measures from the seed papers, accepted wherever ``measures=`` is.

Each set is data of its paper, declared here once with
:func:`~binmetrics.measures.registry.register_preset`; :data:`PRESETS` lists them.
"""

from __future__ import annotations

from binmetrics.measures.registry import PRESETS, Preset, register_preset

__all__ = ["MULTILEVEL28", "PRESETS", "SUMMARY"]

#: The multi-level comparison paper's 28 performance metrics (section 3.3, Tables 4-6):
#: the one-sided local metrics and their complements, the two-sided local metrics,
#: and the global metrics. The paper names ROC_EF at 5% FPR (its recommended
#: ROC_EF5) and writes r normalized by the number of cases; it does not give x for
#: EF nor alpha for RIE and BEDROC, which keep the registry's defaults (1%, 20).
MULTILEVEL28: Preset = register_preset(
    "multilevel28",
    (
        # Table 4, one-sided: TPR/FNR, TNR/FPR, PPV/FDR, NPV/FOR
        "tpr", "fnr", "tnr", "fpr", "ppv", "fdr", "npv", "for",
        # Table 5, two-sided
        "accuracy", "balanced_accuracy", "f1", "mcc", "informedness", "markedness",
        "lr_plus", "lr_minus", "dor", "enrichment_factor", "roc_ef5", "kappa",
        "jaccard", "brier", "rie",
        # Table 6, global
        "auc", "auac", "average_precision", "bedroc", "mean_rank_normalized",
    ),
    source="multi-level paper section 3.3, Tables 4-6",
    description="the 28 performance metrics of the multi-level comparison "
                "(TPR ... r, with ROC_EF5 and the normalized mean rank)")

#: The main measures of a binary evaluation, in the order ``ev.summary()``, the repr of
#: an Evaluation and the short tables of evaluate_by and multilabel results show them
#: (those that need probabilities only where the scores are probabilities).
SUMMARY: Preset = register_preset(
    "summary",
    ("tpr", "tnr", "ppv", "npv", "f1", "accuracy", "balanced_accuracy", "mcc", "auc",
     "brier"),
    source="binmetrics (a classification-report style view)",
    description="the main measures that ev.summary() and an Evaluation's repr show")
