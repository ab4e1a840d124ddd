"""What users look at: matplotlib plots (:mod:`~binmetrics.display.plot`) and the
self-contained HTML report (:mod:`~binmetrics.display.report`).

- :mod:`~binmetrics.display.plot`: ``bm.plot``, the plot functions' namespace; it
  re-exports the registry of plot kinds
  (:func:`~binmetrics.evaluation.plot_kinds.register_plot_kind`, in
  :mod:`~binmetrics.evaluation.plot_kinds`) and the built-in kinds' producers
  (:mod:`~binmetrics.evaluation.chart_data`), which sit in the evaluation layer so that
  ``Evaluation.plot`` imports them, and the comparison plots
  (:mod:`~binmetrics.comparison.comparison_plots`: critical-difference diagram,
  Bayesian posteriors), which ``RankComparison.plot`` and the Bayesian results'
  ``plot`` import likewise;
- :mod:`~binmetrics.display.plot_curves` (ROC, threshold, PR, PRG, gain, lift),
  :mod:`~binmetrics.display.plot_cases` (loss, reliability, any confusion measure,
  confusion matrix): the kinds as named functions;
  :mod:`~binmetrics.display.plot_compare` (SRD, COVAT, ANOVA);
- :mod:`~binmetrics.display.report` (``bm.report()``), built from
  :mod:`~binmetrics.display.report_data` (the embedded numbers),
  :mod:`~binmetrics.display.report_html` (the HTML) and
  :mod:`~binmetrics.display.thinning` (curves thinned with a bounded error).

This layer reads results and is imported by nothing below it; the benchmark study's
report is the study package's own (:mod:`binmetrics.study.report`), a layer above.
"""

from binmetrics.display import plot

__all__ = ["plot"]
