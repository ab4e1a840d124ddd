"""What users look at: matplotlib plots (:mod:`~binmetrics.display.plot`) and the
self-contained HTML report (:mod:`~binmetrics.display.report`).

This layer reads results and is imported by nothing below it: importing it registers
its functions with :mod:`binmetrics.backends`, through which ``Evaluation.plot`` and
``Evaluation.to_html`` reach it.
"""

from binmetrics.backends import register_display
from binmetrics.display import plot
from binmetrics.display.report import report as _report

__all__ = ["plot"]


register_display("plot", plot.draw)
register_display("report", _report)
