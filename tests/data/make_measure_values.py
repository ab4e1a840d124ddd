"""Writes tests/data/measure_values.json: every measure of ``evaluate(...).to_dict()`` on
small tied, weighted and extreme data sets, with the data, as the code computed them
before the speed work of issue 32. tests/evaluation/test_measure_values_kept.py holds
the code to them (equal to 1e-12 relative).

Produced on the main branch at commit 01b402b with

    PYTHONPATH=/work/main/src python tests/data/make_measure_values.py

(run from the repository root). Re-run it only on purpose: the file is the "before".
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np


def data_sets() -> dict[str, dict[str, list[float]]]:
    rng = np.random.default_rng(32)
    n = 240
    y = (rng.random(n) < 0.3).astype(int)
    z = rng.normal(np.where(y == 1, 1.0, 0.0), 1.0)
    p = 1.0 / (1.0 + np.exp(-z))
    w = rng.integers(1, 6, n).astype(float)
    extreme = p.copy()
    extreme[:12], extreme[12:24], extreme[24:36], extreme[36:48] = 0.0, 1.0, 1e-300, 1 - 1e-16
    return {
        "continuous": {"y": y.tolist(), "s": p.tolist()},
        "tied": {"y": y.tolist(), "s": np.round(p, 1).tolist()},
        "weighted": {"y": y.tolist(), "s": np.round(p, 2).tolist(), "w": w.tolist()},
        "weighted_real": {"y": y.tolist(), "s": p.tolist(), "w": (w * 0.37).tolist()},
        "extreme": {"y": y.tolist(), "s": extreme.tolist()},
    }


def main() -> None:
    import binmetrics as bm

    out = {}
    for name, d in data_sets().items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ev = bm.evaluate(d["y"], d["s"], sample_weight=d.get("w"), undefined="ignore")
            values = {k: float(v) for k, v in ev.to_dict().items()}
        out[name] = {"data": d, "values": values}
    path = Path(__file__).with_name("measure_values.json")
    path.write_text(json.dumps(out, indent=None, sort_keys=True) + "\n")
    print(f"wrote {path}: {sum(len(v['values']) for v in out.values())} values")


if __name__ == "__main__":
    main()
