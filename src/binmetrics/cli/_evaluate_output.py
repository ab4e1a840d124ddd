"""The output formats of ``binmetrics evaluate``: table, JSON and CSV of one evaluation
(:func:`evaluate_table`, :func:`evaluate_json`, :func:`evaluate_csv`) and of ``--by``
groups (:func:`by_table`, :func:`by_json`, :func:`by_csv`).

Each takes the ``info`` dict that :mod:`binmetrics.cli.evaluate` gathers (file, columns,
threshold, counts, and the optional intervals, calibrated values and binning) and
returns the text to print or write.
"""

from __future__ import annotations

import csv
import io
import json
import math
from typing import Any

from binmetrics.cli.common import DIRECTION, align, csv_value, json_value
from binmetrics.evaluation.binary import prediction_rule
from binmetrics.evaluation.by import ByResult
from binmetrics.formatting import format_number
from binmetrics.measures.registry import Measure

__all__ = ["by_csv", "by_json", "by_table", "evaluate_csv", "evaluate_json", "evaluate_table"]


# --- one evaluation ------------------------------------------------------------------
def _num(v: float | int | str) -> str:
    """A count or total in full (an int as is, a weighted sum to 10 digits, a string, the
    weighted count past the floats' range, as is)."""
    return str(v) if isinstance(v, (int, str)) else f"{v:.10g}"


def evaluate_table(info: dict[str, Any], rows: list[tuple[Measure, float]]) -> str:
    """One evaluation as text: a header of counts, then one line per measure."""
    c = info["confusion"]
    n, pos = info["n"], info["positives"]
    omitted = f" ({info['n_omitted']} omitted: non-finite score)" if info["n_omitted"] else ""
    head = [f"file:       {info['file']}"]
    if info.get("engine"):
        head.append(f"engine:     {info['engine']}")
    head += [
        f"rows:       {n}{omitted}; label {info['label']!r}, score {info['score']!r}",
        f"positives:  {pos} (label {info['pos_label']!r}), negatives: {n - pos}",
    ]
    if info["weight"] is not None:
        head.append(f"weights:    column {info['weight']!r}; total {_num(info['weight_total'])}, "
                    f"positives {_num(info['weight_positives'])}")
    head += [
        _threshold_line(info),
        "confusion:  " + "  ".join(f"{k}={_num(v)}" for k, v in c.items()),
    ]
    iv = info.get("intervals")
    body = [[m.id, format_number(v), m.family, DIRECTION.get(m.direction, str(m.direction)),
             m.source] for m, v in rows]
    header = ["id", "value", "family", "direction", "source"]
    right = [1]
    if iv is not None:
        body = [[*r[:2], format_number(iv[r[0]][0]), format_number(iv[r[0]][1]), iv[r[0]][2],
                 *r[2:]] for r in body]
        header = ["id", "value", "low", "high", "interval", *header[2:]]
        right = [1, 2, 3]
    cal = info.get("calibrated")
    if cal is not None:
        head.append(f"pi0:        {format_number(info['pi0'])} (value_cal: calibrated to it)")
        body = [[*r[:2], format_number(cal[r[0]]), *r[2:]] for r in body]
        header = [*header[:2], "value_cal", *header[2:]]
        right = [1, 2, 3, 4] if iv is not None else [1, 2]
    b = info.get("binning")
    if b is not None:
        head.append(f"binning:    {b['describe']} (max_error: the largest error binning can "
                    "cause; blank where no bound is known)")
        body = [[*r[:2], _fmt_error(b["max_error"][r[0]]), *r[2:]] for r in body]
        header = [*header[:2], "max_error", *header[2:]]
        right = [i if i < 2 else i + 1 for i in right] + [2]
    table = align(header, body, right=right)
    return "\n".join(head) + "\n\n" + table


def _fmt_error(v: float | None) -> str:
    return "" if v is None else format_number(v)


def evaluate_json(info: dict[str, Any], rows: list[tuple[Measure, float]]) -> str:
    """One evaluation as a JSON object (NaN as null)."""
    obj: dict[str, Any] = {
        "file": info["file"],
        "engine": info.get("engine"),
        "label": info["label"],
        "score": info["score"],
        "weight": info["weight"],
        "pos_label": info["pos_label"],
        "n": info["n"],
        "n_omitted": info["n_omitted"],
        "positives": info["positives"],
    }
    if info["weight"] is not None:
        obj["weight_total"] = info["weight_total"]
        obj["weight_positives"] = info["weight_positives"]
    obj["threshold"] = json_value(info["threshold"])
    if not info.get("higher_is_positive", True):
        obj["higher_is_positive"] = False
    obj["confusion"] = info["confusion"]
    obj["measures"] = {m.id: json_value(v) for m, v in rows}
    if "calibrated" in info:
        obj["pi0"] = json_value(info["pi0"])
        obj["calibrated"] = {m.id: json_value(info["calibrated"][m.id]) for m, _ in rows}
    if "intervals" in info:
        obj["intervals"] = {k: {"low": json_value(lo), "high": json_value(hi), "method": how}
                            for k, (lo, hi, how) in info["intervals"].items()}
    if "binning" in info:
        obj["binning"] = {"describe": info["binning"]["describe"],
                          "max_error": {k: json_value(v) for k, v
                                        in info["binning"]["max_error"].items()}}
    return json.dumps(obj, indent=2, allow_nan=False) + "\n"


def evaluate_csv(info: dict[str, Any], rows: list[tuple[Measure, float]]) -> str:
    """One evaluation as CSV, one row per measure."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    iv = info.get("intervals")
    cal = info.get("calibrated")
    extra = ["low", "high", "interval"] if iv is not None else []
    cal_col = ["value_cal"] if cal is not None else []
    binned = info.get("binning")
    err_col = ["max_error"] if binned is not None else []
    w.writerow(["id", "value", *cal_col, *err_col, *extra, "family", "direction", "source"])
    for m, v in rows:
        bounds = ([csv_value(iv[m.id][0]), csv_value(iv[m.id][1]), iv[m.id][2]]
                  if iv is not None else [])
        cv = [csv_value(cal[m.id])] if cal is not None else []
        err = ([] if binned is None else
               ["" if binned["max_error"][m.id] is None else csv_value(binned["max_error"][m.id])])
        w.writerow([m.id, csv_value(v), *cv, *err, *bounds, m.family, m.direction, m.source])
    return buf.getvalue()


# --- by groups ----------------------------------------------------------------------
def _key_cell(v: Any) -> str:
    return "NaN" if isinstance(v, float) and math.isnan(v) else str(v)


def by_table(info: dict[str, Any], res: ByResult, chosen: list[Measure]) -> str:
    """--by groups as text: the groups, then the values in long format."""
    frame = res.to_frame()
    by = info["by"]
    head = [f"file:       {info['file']}"]
    if info.get("engine"):
        head.append(f"engine:     {info['engine']}")
    head += [
        f"label:      {info['label']!r} (positive {info['pos_label']!r}), "
        f"score {info['score']!r}" + (f", weight {info['weight']!r}" if info["weight"] else ""),
        f"groups:     {len(frame)} by {', '.join(repr(b) for b in by)}",
        _threshold_line(info),
    ]
    if info["pi0"] is not None:
        head.append(f"pi0:        {format_number(info['pi0'])} "
                    "(the *_cal values are calibrated to it)")
    summary = [[*(_key_cell(r[b]) for b in by), str(r["n"]), str(r["positives"]),
                format_number(r["prevalence"]), r["reason"]]
               for r in frame.to_dict(orient="records")]
    k = len(by)
    groups = align([*by, "n", "positives", "prevalence", "reason"], summary,
                    right=[k, k + 1, k + 2])
    header = [*by, "id", "value"]
    right = [k + 1]
    if info["ci"]:
        header += ["low", "high"]
        right += [k + 2, k + 3]
    if info["pi0"] is not None:
        header.append("value_cal")
        right.append(len(header) - 1)
    body = []
    for r in frame.to_dict(orient="records"):
        for m in chosen:
            line = [*(_key_cell(r[b]) for b in by), m.id, format_number(r[m.id])]
            if info["ci"]:
                # n, positives and prevalence describe the group: no interval columns
                line += [format_number(r.get(f"{m.id}_low", math.nan)),
                         format_number(r.get(f"{m.id}_high", math.nan))]
            if info["pi0"] is not None:
                line.append(format_number(r.get(f"{m.id}_cal", math.nan)))
            body.append(line)
    return "\n".join(head) + "\n\n" + groups + "\n" + align(header, body, right=right)


def _json_key(v: Any) -> Any:
    if isinstance(v, float):
        return json_value(v)
    if isinstance(v, (str, int, bool)) or v is None:
        return v
    return str(v)


def by_json(info: dict[str, Any], res: ByResult, chosen: list[Measure]) -> str:
    """--by groups as a JSON object with one record per group."""
    frame = res.to_frame()
    groups = []
    for r in frame.to_dict(orient="records"):
        g: dict[str, Any] = {
            "group": {b: _json_key(r[b]) for b in info["by"]},
            "n": int(r["n"]), "positives": int(r["positives"]),
            "prevalence": json_value(float(r["prevalence"])), "reason": r["reason"],
            "measures": {m.id: json_value(float(r[m.id])) for m in chosen},
        }
        if info["pi0"] is not None:
            g["calibrated"] = {m.id: json_value(float(r[f"{m.id}_cal"])) for m in chosen}
        if info["ci"]:
            g["intervals"] = {m.id: {"low": json_value(float(r.get(f"{m.id}_low", math.nan))),
                                     "high": json_value(float(r.get(f"{m.id}_high", math.nan)))}
                              for m in chosen}
        groups.append(g)
    obj: dict[str, Any] = {
        "file": info["file"], "label": info["label"], "score": info["score"],
        "weight": info["weight"], "by": info["by"], "pos_label": info["pos_label"],
        "threshold": json_value(info["threshold"]),
        **({} if info.get("higher_is_positive", True) else {"higher_is_positive": False}),
        "pi0": None if info["pi0"] is None else json_value(info["pi0"]),
        "groups": groups,
    }
    return json.dumps(obj, indent=2, allow_nan=False) + "\n"


def by_csv(info: dict[str, Any], res: ByResult, chosen: list[Measure]) -> str:
    """--by groups as CSV, one row per group."""
    frame = res.to_frame()
    if info["pi0"] is not None:
        frame.insert(len(frame.columns) - 1, "pi0", info["pi0"])
    return str(frame.to_csv(index=False, na_rep="NaN", lineterminator="\n"))


def _threshold_line(info: dict[str, Any]) -> str:
    rule = prediction_rule(info.get("higher_is_positive", True))
    return f"threshold:  {info['threshold']!r} ({rule} is predicted positive)"
