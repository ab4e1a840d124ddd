"""``binmetrics srd``: Sum of Ranking Differences of a table from the command line.

The table has objects in rows (models, data sets, or measures) and the methods to
compare in columns; the first column holds the row labels when it is not numeric.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pandas as pd

from binmetrics.backends import pyplot
from binmetrics.cli.commands import command_help
from binmetrics.cli.common import (
    PARQUET_SUFFIXES,
    PROG,
    TEXT_SUFFIXES,
    CLIError,
    add_format_and_output,
    align,
    check_has_rows,
    check_input_file,
    help_formatter,
    json_value,
    one_line,
    require_extra,
    sniff_delimiter,
    unknown_type,
)
from binmetrics.cli.progress import add_progress_option, progress_for
from binmetrics.comparison.srd_covat import covat
from binmetrics.comparison.srd_crossvalidation import SRDCrossValidation
from binmetrics.comparison.srd_randomization import SRDRandomization
from binmetrics.comparison.srd_ranking import SRDResult, srd
from binmetrics.formatting import format_number
from binmetrics.io import check_output, read_csv, read_parquet, write_with

SRD_EPILOG = f"""\
examples:
  {PROG} srd table.csv
  {PROG} srd models_by_measure.csv --reference best --pretreat range --axis rows
  {PROG} srd table.csv --reference best --cv 7 --plot srd.png --covat covat.png
  {PROG} srd table.parquet --reference gold --cv-method loo --format json -o srd.json

The table has objects in rows and the methods to compare in columns. Its first
column is taken as the row labels when it is not numeric (or name it with
--index-col). --reference is mean, median, min, max, best (each row's best value;
when rows are measure ids, e.g. auc or brier, whether larger or smaller is better
is read from the measure registry; otherwise give --directions), or the name of
a column. Each column gets its SRD, SRD% and the exact probability that a random
ranking comes as close to the reference (pvalue_lower). --cv K validates the order by
K-fold cross-validation and tests neighbouring columns (Wilcoxon, sign test).
"""


def add_srd_parser(sub: Any) -> None:
    """Register the ``srd`` sub-command on the ``binmetrics`` parser."""
    cp = sub.add_parser(
        "srd",
        help=command_help("srd"),
        description="Sum of Ranking Differences: how close each column's ranking of the "
                    "rows comes to a reference, with a randomization test and optional "
                    "cross-validation (docs/methods.md §1).",
        epilog=SRD_EPILOG,
        formatter_class=help_formatter,
    )
    cp.add_argument("file", metavar="FILE", help="CSV/TSV/TXT or Parquet table")
    cp.add_argument("--index-col", metavar="COL",
                    help="column of row labels (default: the first, if not numeric)")
    cp.add_argument("--reference", default="mean", metavar="REF",
                    help="mean, median, min, max, best, or a column name (default: mean)")
    cp.add_argument("--directions", metavar="+1,-1,...",
                    help="with --reference best: +1 (larger is better) or -1 per row, "
                         "or one value for all rows (default: from the measure registry)")
    cp.add_argument("--pretreat", default="none",
                    choices=("none", "range", "standardize", "unit_length", "scale_to_max",
                             "rank"),
                    help="data pretreatment (default: none)")
    cp.add_argument("--axis", default="columns", choices=("columns", "rows"),
                    help="pretreat each column or each row (default: columns)")
    cp.add_argument("--decimals", type=int, metavar="D",
                    help="round down to D decimals before ranking (rSRD's precision)")
    cp.add_argument("--null", default="auto",
                    choices=("auto", "exact", "permutation", "normal", "rsrd"),
                    help="null distribution of the randomization test (default: auto)")
    cp.add_argument("--cv", type=int, metavar="K",
                    help="cross-validate with K folds and test neighbouring columns")
    cp.add_argument("--cv-method", default="kfold",
                    choices=("kfold", "loo", "bootstrap", "rsrd_wilcoxon"),
                    help="resampling of the cross-validation (default: kfold)")
    cp.add_argument("--repeats", type=int, default=1, metavar="R",
                    help="repetitions of shuffled K-fold (default: 1)")
    cp.add_argument("--seed", type=int, default=0, metavar="S",
                    help="random seed of the folds and Monte Carlo nulls (default: 0)")
    cp.add_argument("--nan-policy", choices=("raise", "omit"), default="raise",
                    help="missing cells: an error, or their rows are dropped "
                         "(default: raise)")
    cp.add_argument("--plot", type=Path, metavar="PATH",
                    help="save the SRD plot (.png, .svg or .pdf)")
    cp.add_argument("--covat", type=Path, metavar="PATH",
                    help="save the SRD-COVAT heatmap (.png, .svg or .pdf)")
    add_format_and_output(cp)
    add_progress_option(cp)
    cp.set_defaults(handler=run_srd, subparser=cp, check=check_srd)


def read_table(path: Path, index_col: str | None) -> pd.DataFrame:
    """A whole CSV/TSV/TXT or Parquet table, row labels in the index."""
    suffix = check_input_file(path)
    try:
        if suffix in PARQUET_SUFFIXES:
            check_has_rows([path])
            frame = read_parquet(path)
        elif suffix in TEXT_SUFFIXES:
            check_has_rows([path])
            frame = read_csv(path, sep=sniff_delimiter(path, TEXT_SUFFIXES[suffix]))
        else:
            raise unknown_type(path)
    except CLIError:
        raise
    except Exception as exc:  # any reader failure means the file is unreadable
        raise CLIError(f"cannot read {path}: {one_line(exc)}") from None
    frame.columns = [str(c) for c in frame.columns]
    if index_col is not None:
        if index_col not in frame.columns:
            raise CLIError(f"--index-col {index_col!r} is not a column of {path}; columns: "
                           f"{', '.join(frame.columns[:30])}")
        return frame.set_index(index_col)
    if len(frame.columns) and not pd.api.types.is_numeric_dtype(frame.iloc[:, 0]):
        return frame.set_index(frame.columns[0])
    return frame


def _directions(spec: str | None) -> Any:
    if spec is None:
        return None
    try:
        values = [float(v) for v in spec.split(",")]
    except ValueError:
        raise CLIError(f"--directions must be numbers separated by commas, got {spec!r}") \
            from None
    return values[0] if len(values) == 1 else values


def check_figure_path(path: Path) -> str:
    """Fail before any work when ``path`` cannot take a figure; returns its suffix."""
    check_output(path)
    suffix = path.suffix.lower()
    if suffix not in (".png", ".svg", ".pdf"):
        raise CLIError(f"cannot save a plot as {path}: use .png, .svg or .pdf")
    return suffix


def save_figure(fig: Any, path: Path) -> None:
    """Save a matplotlib figure as :func:`binmetrics.io.write_with` writes (atomically,
    through symlinks, directly into a FIFO or device)."""
    suffix = check_figure_path(path)
    fmt = suffix.lstrip(".")
    write_with(path, lambda name: fig.savefig(name, bbox_inches="tight", format=fmt),
               suffix=suffix)


def check_srd(args: argparse.Namespace) -> None:
    """The values of srd's options, before any data is read."""
    for p, option in ((args.plot, "--plot"), (args.covat, "--covat")):
        if p is not None:
            check_figure_path(p)
            require_extra("matplotlib", option)
    if args.cv is not None and args.cv_method in ("loo", "bootstrap"):
        raise CLIError(f"--cv K sets the number of folds, which --cv-method {args.cv_method} "
                       "does not have; leave out --cv")
    if args.cv is not None and args.cv < 2:
        raise CLIError(f"--cv K needs at least 2 folds; got {args.cv}")
    if args.repeats < 1:
        raise CLIError(f"--repeats must be at least 1; got {args.repeats}")
    _directions(args.directions)


def run_srd(args: argparse.Namespace, cols: Any = None) -> str:
    """Run ``binmetrics srd``; returns the text to print or write."""
    check_srd(args)
    frame = read_table(Path(args.file), args.index_col)
    text_cols = [str(c) for c in frame.columns
                 if not pd.api.types.is_numeric_dtype(frame[c])
                 or pd.api.types.is_bool_dtype(frame[c])]
    if text_cols:
        raise CLIError(f"column(s) {', '.join(map(repr, text_cols[:5]))} of {args.file} are "
                       "not numeric: SRD ranks numeric columns; name the column of row "
                       "labels with --index-col COL and leave out the others")
    res = srd(frame, args.reference, directions=_directions(args.directions),
              pretreat=args.pretreat, axis=args.axis, decimals=args.decimals,
              nan_policy=args.nan_policy)
    rt = res.randomization(null=args.null, random_state=args.seed,
                           progress=progress_for(args))
    cv = None
    if args.cv is not None or args.cv_method != "kfold":
        cv = res.cross_validate(args.cv_method, k=args.cv or 7, repeats=args.repeats,
                                random_state=args.seed, progress=progress_for(args))
    figures: list[tuple[Any, Path]] = []  # (matplotlib figure, where to save it)
    if args.plot is not None:
        figures.append((res.plot(null=rt).figure, args.plot))
    if args.covat is not None:
        hm = covat(frame, pretreat=args.pretreat, axis=args.axis, decimals=args.decimals,
                   nan_policy=args.nan_policy)
        figures.append((hm.plot().figure, args.covat))
    text = _render(args.format, res, rt, cv)
    if figures:  # matplotlib is there: it drew them (a plain install has none)
        plt = pyplot("--plot")
        for fig, path in figures:
            save_figure(fig, path)
            plt.close(fig)
    return text


def _render(fmt: str, res: SRDResult, rt: SRDRandomization,
            cv: SRDCrossValidation | None) -> str:
    table = rt.to_frame()
    if fmt == "json":
        doc: dict[str, Any] = {
            "n": res.n, "srd_max": res.srd_max, "reference": str(res.reference.name),
            "quantiles_pct": rt.quantiles,
            "columns": [{"column": str(c), **{k: json_value(v.item() if hasattr(v, "item")
                                                            else v)
                                              for k, v in row.items()}}
                        for c, row in table.iterrows()],
        }
        if cv is not None:
            doc["cross_validation"] = {
                "method": cv.cv, "order": [str(c) for c in cv.order],
                "folds": cv.folds.to_dict(orient="records"),
                "tests": cv.tests.to_dict(orient="records"),
            }
        return json.dumps(doc, indent=2, default=str) + "\n"
    if fmt == "csv":
        out = table.copy()
        if cv is not None:
            s = cv.summary()
            out = out.join(s.add_prefix("cv_"))
        return str(out.reset_index().to_csv(index=False, lineterminator="\n"))
    q = rt.quantiles
    head = [f"SRD of {len(table)} columns over {res.n} rows; reference: "
            f"{res.reference.name}; SRDmax = {res.srd_max}",
            "random ranking (SRD%): " + ", ".join(f"{k} {v:.2f}" for k, v in q.items())]
    header = ["column", "SRD", "SRD%", "pvalue_lower", "pvalue_upper", "better than random", "null"]
    body = [[str(c), f"{r.srd:g}", f"{r.srd_pct:.2f}", format_number(r.pvalue_lower),
             format_number(r.pvalue_upper), "yes" if r.better_than_random else "no", str(r.null)]
            for c, r in table.iterrows()]
    text = "\n".join(head) + "\n\n" + align(header, body, right=[1, 2, 3, 4])
    if cv is not None:
        s = cv.summary()
        cv_body = [[str(c), f"{r['median']:.2f}", f"{r['q1']:.2f}", f"{r['q3']:.2f}"]
                   for c, r in s.iterrows()]
        text += (f"\ncross-validation ({cv.cv}, {len(cv.folds)} resamples), SRD%:\n"
                 + align(["column", "median", "Q1", "Q3"], cv_body, right=[1, 2, 3]))
        t_body = [[f"{r['column']} vs {r['next']}", f"{r['wilcoxon_statistic']:g}",
                   format_number(r["wilcoxon_pvalue"]), format_number(r["sign_pvalue"])]
                  for _, r in cv.tests.iterrows()]
        text += ("\nneighbouring columns:\n"
                 + align(["pair", "|W+ - W-|", "Wilcoxon p", "sign test p"], t_body,
                         right=[1, 2, 3]))
    return text
