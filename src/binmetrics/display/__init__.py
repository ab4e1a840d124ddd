"""What users look at: matplotlib plots (:mod:`~binmetrics.display.plot`) and the
self-contained HTML report (:mod:`~binmetrics.display.report`).

- :mod:`~binmetrics.display.plot`: ``bm.plot``, the plot functions' namespace;
- :mod:`~binmetrics.display.plot_kinds`: the registry of plot kinds
  (:func:`~binmetrics.display.plot_kinds.register_plot_kind`) and the one path from a
  kind's data producer to its chart data and its drawing
  (:func:`binmetrics.chart.render`);
- :mod:`~binmetrics.display.chart_data`: the built-in kinds' producers;
- :mod:`~binmetrics.display.plot_curves` (ROC, threshold, PR, PRG, gain, lift),
  :mod:`~binmetrics.display.plot_cases` (loss, reliability, any confusion measure,
  confusion matrix): the kinds as named functions;
  :mod:`~binmetrics.display.plot_compare` (SRD, COVAT, ANOVA),
  :mod:`~binmetrics.display.plot_ranks` (critical-difference diagram, Bayesian posteriors);
- :mod:`~binmetrics.display.report_study` (``Study.report()``): the study's report, the
  rank comparison with its critical-difference diagram beside SRD and ANOVA;
- :mod:`~binmetrics.display.report` (``report()``), built from
  :mod:`~binmetrics.display.report_data` (the embedded numbers),
  :mod:`~binmetrics.display.report_html` (the HTML) and
  :mod:`~binmetrics.display.thinning` (curves thinned with a bounded error);
- ``_plotting``: helpers private to the plot modules.

This layer reads results and is imported by nothing below it: importing it registers
its functions with :mod:`binmetrics.backends`, through which ``Evaluation.plot`` and
``Evaluation.to_html`` reach it.
"""

from binmetrics.backends import register_display
from binmetrics.display import plot, plot_ranks
from binmetrics.display.report import report as _report
from binmetrics.display.report_study import study_report as _study_report

__all__ = ["plot"]


register_display("plot", plot.draw)
register_display("report", _report)
register_display("study_report", _study_report)
register_display("critical_difference", plot_ranks.critical_difference)
register_display("bayesian_posterior", plot_ranks.bayesian_posterior)
