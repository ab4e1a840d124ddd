"""``binmetrics ranks``: Demšar's (2006) comparison of models over data sets from the
command line: average ranks, the Friedman and Iman-Davenport tests, a post-hoc test and
the critical-difference diagram.

The table has data sets (or folds) in rows and models in columns; the first column holds
the row labels when it is not numeric.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from binmetrics.backends import pyplot
from binmetrics.cli.commands import command_help
from binmetrics.cli.common import (
    PROG,
    CLIError,
    add_format_and_output,
    align,
    csv_value,
    help_formatter,
    json_value,
    require_extra,
)
from binmetrics.cli.srd import check_figure_path, read_table, save_figure
from binmetrics.comparison.ranks import (
    POSTHOC_METHODS,
    PosthocResult,
    RankComparison,
    rank_comparison,
)
from binmetrics.formatting import format_number

__all__ = ["add_ranks_parser", "check_ranks", "run_ranks"]

RANKS_EPILOG = f"""\
examples:
  {PROG} ranks auc_by_dataset.csv
  {PROG} ranks errors.csv --lower-is-better --posthoc holm --control baseline
  {PROG} ranks table.csv --alpha 0.10 --plot cd.png --format json -o ranks.json

Rows are data sets (or folds), columns are models, one score each. Every model is
ranked on each data set (1 = best, ties share the average rank); the Friedman test
(Demšar's statistic; --tie-correction for scipy's) and the Iman-Davenport F test whether
the average ranks differ; the post-hoc test says which pairs do: nemenyi (all pairs,
with the critical difference), bonferroni_dunn (against --control), holm (against
--control or all pairs), wilcoxon_holm (pairwise Wilcoxon signed-rank tests,
Holm-adjusted). --plot draws the critical-difference diagram.
"""


def add_ranks_parser(sub: Any) -> None:
    """Register the ``ranks`` sub-command on the ``binmetrics`` parser."""
    rp = sub.add_parser(
        "ranks",
        help=command_help("ranks"),
        description="Average ranks, the Friedman and Iman-Davenport tests, a post-hoc test "
                    "and the critical-difference diagram (Demšar 2006).",
        epilog=RANKS_EPILOG,
        formatter_class=help_formatter,
    )
    rp.add_argument("file", metavar="TABLE", help="CSV/TSV/TXT or Parquet table")
    rp.add_argument("--index-col", metavar="COL",
                    help="column of data set labels (default: the first, if not numeric)")
    rp.add_argument("--lower-is-better", action="store_true",
                    help="smaller scores are better (errors, losses)")
    rp.add_argument("--posthoc", choices=POSTHOC_METHODS, default="nemenyi",
                    help="post-hoc test (default: nemenyi)")
    rp.add_argument("--control", metavar="MODEL",
                    help="compare every model with this one (bonferroni_dunn, holm, "
                         "wilcoxon_holm)")
    rp.add_argument("--alpha", type=float, default=0.05,
                    help="family-wise significance level (default: 0.05)")
    rp.add_argument("--tie-correction", action="store_true",
                    help="divide the Friedman statistic by the tie correction "
                         "(scipy's friedmanchisquare)")
    rp.add_argument("--nan-policy", choices=("raise", "omit"), default="raise",
                    help="a data set with a missing or infinite score: an error, or omit "
                         "it with a warning (default: %(default)s)")
    rp.add_argument("--plot", type=Path, metavar="PATH",
                    help="save the critical-difference diagram (.png, .svg or .pdf)")
    add_format_and_output(rp)
    rp.set_defaults(handler=run_ranks, subparser=rp, check=check_ranks)


def check_ranks(args: argparse.Namespace) -> None:
    """The values of ranks' options, before any data is read."""
    if args.plot is not None:
        check_figure_path(args.plot)
        require_extra("matplotlib", "--plot")
    if not (math.isfinite(args.alpha) and 0 < args.alpha < 1):
        raise CLIError(f"--alpha must be strictly between 0 and 1 (e.g. 0.05); "
                       f"got {args.alpha}")


def run_ranks(args: argparse.Namespace, cols: Any = None) -> str:
    """Run ``binmetrics ranks``; returns the text to print or write."""
    check_ranks(args)
    frame = read_table(Path(args.file), args.index_col)
    res = rank_comparison(frame, higher_is_better=not args.lower_is_better,
                          tie_correction=args.tie_correction,
                          nan_policy=args.nan_policy)
    post = res.posthoc(args.posthoc, control=args.control, alpha=args.alpha)
    text = _render(args.format, res, post)
    if args.plot is not None:
        plt = pyplot("--plot")  # only reached when a figure is drawn
        fig: Any = post.plot().figure
        save_figure(fig, args.plot)
        plt.close(fig)
    return text


def _render(fmt: str, res: RankComparison, post: PosthocResult) -> str:
    f, i = res.friedman, res.iman_davenport
    ranks = res.to_frame()
    if fmt == "json":
        doc: dict[str, Any] = {
            "n_datasets": res.n_datasets, "n_models": res.n_models,
            "higher_is_better": res.higher_is_better,
            "dropped": [str(d) for d in res.dropped],
            "average_ranks": {str(m): float(r) for m, r in ranks["average_rank"].items()},
            "friedman": {"statistic": json_value(f.statistic), "df": f.df,
                         "pvalue": json_value(f.pvalue),
                         "tie_correction": f.tie_correction},
            "iman_davenport": {"statistic": json_value(i.statistic), "df": list(i.df),
                               "pvalue": json_value(i.pvalue)},
            "posthoc": {
                "method": post.method, "control": post.control, "alpha": post.alpha,
                "critical_difference": json_value(post.critical_difference),
                "groups": post.groups(),
                "comparisons": [{k: json_value(v.item() if hasattr(v, "item") else v)
                                 for k, v in row.items()}
                                for row in post.table.to_dict(orient="records")]},
        }
        return json.dumps(doc, indent=2, default=str) + "\n"
    if fmt == "csv":  # the comparisons, one row each
        t = post.table
        lines = [",".join(t.columns)]
        for row in t.itertuples(index=False):
            lines.append(",".join(
                csv_value(v) if isinstance(v, float) else
                str(v).lower() if isinstance(v, bool) else _csv_text(str(v)) for v in row))
        return "\n".join(lines) + "\n"
    cd = post.critical_difference
    head = [f"{res.n_models} models on {res.n_datasets} data sets ("
            f"{'higher' if res.higher_is_better else 'lower'} is better"
            + (f"; {len(res.dropped)} data sets with a missing score dropped"
               if res.dropped else "") + ")",
            f"Friedman chi2 = {format_number(f.statistic)}, df = {f.df}, "
            f"p = {format_number(f.pvalue)}" + (" (tie-corrected)" if f.tie_correction
                                                 else ""),
            f"Iman-Davenport F = {format_number(i.statistic)}, df = {i.df}, "
            f"p = {format_number(i.pvalue)}"]
    body = [[str(m), format_number(float(r)), format_number(float(mean)), str(int(w))]
            for m, r, mean, w in zip(ranks.index, ranks["average_rank"].to_numpy(),
                                     ranks["mean_score"].to_numpy(), ranks["wins"].to_numpy(),
                                     strict=True)]
    text = "\n".join(head) + "\n\n" + align(["model", "average rank", "mean", "wins"], body,
                                             right=[1, 2, 3])
    what = "all pairs" if post.control is None else f"against {post.control}"
    text += (f"\n{post.method} post-hoc test ({what}), alpha = {post.alpha:g}"
             + ("" if cd is None else f", critical difference = {format_number(cd)}") + "\n")
    t = post.table
    p_body = [[str(a), str(b), format_number(float(d)), format_number(float(p)),
               format_number(float(q)), "yes" if s else "no"]
              for a, b, d, p, q, s in zip(t["model_a"], t["model_b"],
                                          t["rank_difference"].to_numpy(),
                                          t["pvalue"].to_numpy(), t["pvalue_adjusted"].to_numpy(),
                                          t["significant"].to_numpy(), strict=True)]
    text += align(["model A", "model B", "rank A - B", "p", "p adjusted", "significant"],
                  p_body, right=[2, 3, 4])
    groups = post.groups()
    if groups:
        text += "not significantly different: " + "; ".join(
            ", ".join(map(str, g)) for g in groups) + "\n"
    return text


def _csv_text(value: str) -> str:
    return f'"{value}"' if any(c in value for c in ',"\n') else value
