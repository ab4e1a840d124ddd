"""``binmetrics evaluate --by ... --gaps ID,...`` and ``--clusters COL``: the between-group
gaps of the per-group evaluation, and intervals that resample clusters."""

from __future__ import annotations

import argparse
import json
from typing import Any

import numpy as np
import pandas as pd

from binmetrics.cli.common import CLIError
from binmetrics.evaluation.by import ByResult
from binmetrics.exceptions import one_line
from binmetrics.measures import Measure, get_measure

__all__ = ["add_group_options", "check_group_options", "cluster_intervals", "gaps_output"]


def add_group_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--gaps", metavar="ID,ID,...",
                   help="with --by: the largest between-group difference and the smallest "
                        "ratio of these measures (with --ci: their bootstrap intervals and "
                        "the p-value of no gap)")
    p.add_argument("--clusters", metavar="COL",
                   help="column of the cluster (patient) of each row: --ci resamples "
                        "whole clusters, and the AUC gets Obuchowski's clustered interval")


def _gap_ids(spec: str) -> list[str]:
    names = [s.strip() for s in spec.split(",") if s.strip()]
    if not names:
        raise CLIError("--gaps is empty; give comma-separated measure ids, e.g. tpr,ppv")
    try:
        return list(dict.fromkeys(get_measure(n).id for n in names))
    except KeyError as exc:
        raise CLIError(f"--gaps: {one_line(exc)}") from None


def check_group_options(args: argparse.Namespace, by: list[str]) -> None:
    """Option combinations, before any data is read."""
    if args.gaps is not None:
        if not by:
            raise CLIError("--gaps compares the groups of --by; give --by COL[,COL...]")
        if args.format == "csv":
            raise CLIError("--gaps prints with --format table or json")
        _gap_ids(args.gaps)
    if args.clusters is not None:
        if by:
            raise CLIError("--clusters works without --by (the clustered intervals of one "
                           "evaluation)")
        if not args.ci:
            raise CLIError("--clusters sets how --ci resamples; give --ci too")
        if args.summary or args.lower_is_positive:
            raise CLIError("--clusters works without --summary and --lower-is-positive")


def gaps_output(args: argparse.Namespace, res: ByResult, text: str) -> str:
    """The per-group output with the gaps appended (a section, or a "gaps" key)."""
    if args.gaps is None:
        return text
    rows = []
    for mid in _gap_ids(args.gaps):
        for kind in ("difference", "ratio"):
            try:
                r = getattr(res, kind)(mid, ci=args.ci, level=args.ci_level,
                                       n_resamples=args.resamples, random_state=args.seed)
            except ValueError as exc:
                raise CLIError(f"--gaps {mid}: {one_line(exc)}") from None
            if args.ci:
                rows.append({"measure": mid, "kind": kind, "estimate": r.estimate,
                             "low": r.ci.low, "high": r.ci.high, "pvalue": r.pvalue})
            else:
                rows.append({"measure": mid, "kind": kind, "estimate": float(r)})
    if args.format == "json":
        doc = json.loads(text)
        doc["gaps"] = [{k: (None if isinstance(v, float) and np.isnan(v) else v)
                        for k, v in row.items()} for row in rows]
        return json.dumps(doc, indent=2) + "\n"
    frame = pd.DataFrame(rows)
    head = "\nbetween-group gaps (difference: max - min; ratio: min / max"
    head += f"; {args.ci_level:.0%} bootstrap interval, p-value of no gap)" if args.ci else ")"
    return text.rstrip("\n") + "\n" + head + "\n" + frame.to_string(
        index=False, float_format=lambda v: f"{v:.6g}") + "\n"


def cluster_intervals(args: argparse.Namespace, rows: tuple[Any, Any, Any, Any, Any],
                      chosen: list[Measure]) -> dict[str, tuple[float, float, str]]:
    """Each measure's interval resampling clusters (the AUC: Obuchowski's interval)."""
    from binmetrics.inference.clustered import cluster_bootstrap, clustered_auc_ci

    y, s, w, clusters, pos_label = rows
    out: dict[str, tuple[float, float, str]] = {}
    try:
        boot = cluster_bootstrap(y, s, chosen, clusters=clusters, n_resamples=args.resamples,
                                 threshold=args.threshold, random_state=args.seed,
                                 sample_weight=w, pos_label=pos_label,
                                 nan_policy=args.nan_policy)
        for m in chosen:
            iv = boot.ci(m.id, level=args.ci_level)
            out[m.id] = (iv.low, iv.high, "cluster-bootstrap")
        if "auc" in out and w is None:
            auc = clustered_auc_ci(y, s, clusters=clusters, level=args.ci_level,
                                   pos_label=pos_label, nan_policy=args.nan_policy)
            out["auc"] = (auc.low, auc.high, "obuchowski")
    except ValueError as exc:
        raise CLIError(f"--clusters: {one_line(exc)}") from None
    return out


# --- binmetrics report --by ... [--gaps ...]: the report's Groups section ---------------------
def add_report_group_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--by", metavar="COL[,COL...]",
                   help="add a Groups section: each group's values, the between-group gaps "
                        "and the calibration (ECE) by group (with --ci: their intervals)")
    p.add_argument("--gaps", metavar="ID,ID,...",
                   help="with --by: the measures of the Groups section (default: "
                        "auc,tpr,fpr,ppv)")


def report_by_columns(args: argparse.Namespace, n_scores: int) -> list[str]:
    """The --by columns of ``binmetrics report``, checked before any data is read."""
    if args.by is None:
        if args.gaps is not None:
            raise CLIError("--gaps names the measures of the Groups section; give --by "
                           "COL[,COL...] too")
        return []
    by = [c.strip() for c in args.by.split(",") if c.strip()]
    if not by:
        raise CLIError("--by is empty; give comma-separated column names")
    if n_scores > 1 or args.model_col is not None:
        raise CLIError("--by splits one model's rows into groups: give one --score column "
                       "and no --model-col")
    if args.gaps is not None:
        _gap_ids(args.gaps)
    return by


def report_grouped(args: argparse.Namespace, df: pd.DataFrame, label: str, score: str,
                   pos_label: Any) -> tuple[ByResult | None, list[str] | None]:
    """The grouped evaluation of ``binmetrics report --by`` and its --gaps measures."""
    by = report_by_columns(args, 1)
    if not by:
        return None, None
    from binmetrics.evaluation.by import evaluate_by

    try:
        res = evaluate_by(df, label=label, score=score, by=by, weight=args.weight,
                          threshold=args.threshold, pos_label=pos_label,
                          nan_policy=args.nan_policy,
                          higher_is_positive=not args.lower_is_positive)
    except (ValueError, TypeError, KeyError) as exc:
        raise CLIError(f"--by: {one_line(exc)}") from None
    return res, None if args.gaps is None else _gap_ids(args.gaps)
