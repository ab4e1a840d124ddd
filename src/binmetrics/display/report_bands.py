"""The precision-recall band of the HTML report (``report(..., ci=...)``, the CLI's
``--ci``): each model's pointwise bootstrap band of the precision at 101 recalls
(:meth:`binmetrics.curves.PRCurve.ci_band`), drawn beneath its line on the
precision-recall chart, as the ROC chart draws ``roc_band``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from binmetrics.display.report_data import BAND_POINTS, Chart, ModelData, coords, to_axis_units

__all__ = ["pr_band_extras"]

#: the ``ci`` options (``ci_table``'s) that the band takes too
_BAND_OPTIONS = ("level", "n_resamples", "random_state", "stratified")


def pr_band_extras(data: list[ModelData], charts: list[Chart], ci: bool | Mapping[str, Any],
                   notes: list[str]) -> None:
    """Add each model's pointwise PR band to the report's precision-recall chart when
    intervals were asked for (``ci`` True or ``ci_table``'s keywords)."""
    pr = next((c for c in charts if c.spec["id"] == "pr"), None)
    if pr is None or ci is False:
        return
    opts = {k: v for k, v in (ci.items() if isinstance(ci, Mapping) else ())
            if k in _BAND_OPTIONS}
    xr, yr = pr.spec["x"], pr.spec["y"]
    drawn = False
    for md in data:
        if not (md.ev.table.P > 0 and md.ev.table.N > 0):
            continue  # the chart has said so already
        band = md.ev.pr().ci_band(recall=np.linspace(0.0, 1.0, BAND_POINTS), **opts)
        region = band.chart().series[0]
        extra = [coords(to_axis_units(region.x, *xr)), coords(to_axis_units(region.y, *yr)),
                 "band", region.label, "band"]
        md.payload["charts"]["pr"] = [extra, *md.payload["charts"].get("pr", [])]
        drawn = True
    if drawn:
        notes.append("The precision-recall chart's bands are pointwise bootstrap intervals "
                     f"of the precision at {BAND_POINTS} recalls, not a simultaneous band.")
