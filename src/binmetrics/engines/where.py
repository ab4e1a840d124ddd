"""The ``where`` filter: one boolean expression over the input's own columns, checked.

``where`` may come from someone else (a service passing its users' filters to
:func:`~binmetrics.engines.evaluate_file`), so it is parsed by the engine's own
parser and its syntax tree is walked before any data are read. It is accepted only
when it is **a single expression** (no statement separator, nothing after it, no
``FROM``, alias or clause around it) built from

* the input's columns (unqualified names; a misspelt one gets a "did you mean"),
* constants, comparisons (``= <> < <= > >= BETWEEN IN IS [NOT] NULL LIKE ILIKE``),
  ``AND``/``OR``/``NOT``, arithmetic, ``CAST``, ``CASE``,
* the scalar functions of :data:`WHERE_FUNCTIONS` (maths, text, dates, missing
  values): none of them reads a file, the network, the environment or a setting.

Everything else is refused with a one-line ``ValueError``: subqueries (``(SELECT
...)``, ``EXISTS``, ``IN (SELECT ...)``), table functions (``read_text``,
``read_csv``, ``glob``), window functions, lambdas, parameters, any function not in
the list (``getenv``, Spark's ``reflect``...). DuckDB, in addition, runs with
external access disabled once the input is opened (only the input's files may be
read) and its configuration locked (see :class:`~binmetrics.engines.files.FileJob`).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["WHERE_FUNCTIONS", "WHERE_RULES", "check_where_duckdb", "check_where_spark",
           "where_error"]

#: the scalar functions a where filter may call (lower case; both engines' spellings)
WHERE_FUNCTIONS = frozenset({
    # arithmetic and comparison operators, as the parsers name them
    "+", "-", "*", "/", "//", "%", "^", "**", "||", "~~", "!~~", "~~*", "!~~*", "~~~",
    "!~~~", "like", "ilike", "not_like", "not_ilike", "rlike", "regexp", "regexp_like",
    "regexp_matches", "regexp_full_match", "between", "not", "negative",
    # maths
    "abs", "sign", "round", "floor", "ceil", "ceiling", "trunc", "sqrt", "cbrt", "exp",
    "ln", "log", "log10", "log2", "pow", "power", "mod", "pmod", "greatest", "least",
    "isnan", "isinf", "isfinite", "nanvl", "even", "positive",
    # missing values
    "coalesce", "ifnull", "nullif", "nvl", "nvl2", "isnull", "isnotnull", "if", "iff",
    # text
    "lower", "upper", "lcase", "ucase", "length", "char_length", "character_length",
    "len", "strlen", "trim", "ltrim", "rtrim", "btrim", "substr", "substring", "left",
    "right", "starts_with", "startswith", "ends_with", "endswith", "contains", "instr",
    # (no lpad/rpad: a padding length is an allocation the filter could make arbitrary)
    "strpos", "position", "locate", "concat", "concat_ws", "replace",
    "reverse", "split_part", "prefix", "suffix",
    # dates and times (of the columns: no clock)
    "year", "month", "day", "dayofmonth", "dayofweek", "dayofyear", "hour", "minute",
    "second", "quarter", "week", "weekofyear", "date_part", "datepart", "date_trunc",
    "datetrunc", "extract", "to_date", "date", "strftime", "date_format",
})

#: the rules, as the CLI help and the docs state them
WHERE_RULES = ("one condition on the input's own columns: comparisons, AND/OR/NOT, "
               "IN, BETWEEN, LIKE, IS NULL, arithmetic, CAST, CASE and plain maths, text "
               "and date functions; no subqueries, table functions, file or network "
               "access, or ';'")

_DUCKDB_CLASSES = frozenset({"COLUMN_REF", "CONSTANT", "COMPARISON", "CONJUNCTION",
                             "OPERATOR", "FUNCTION", "CAST", "BETWEEN", "CASE", "TYPE"})
_SPARK_CLASSES = frozenset({
    "And", "Or", "Not", "EqualTo", "EqualNullSafe", "GreaterThan", "GreaterThanOrEqual",
    "LessThan", "LessThanOrEqual", "In", "IsNull", "IsNotNull", "Like", "ILike", "RLike",
    "LikeAll", "LikeAny", "NotLikeAll", "NotLikeAny", "Literal", "UnresolvedAttribute",
    "UnresolvedFunction", "Cast", "CaseWhen", "If", "Add", "Subtract", "Multiply",
    "Divide", "IntegralDivide", "Remainder", "Pmod", "UnaryMinus", "UnaryPositive", "Abs",
    "Concat", "Coalesce", "Between", "StringStartsWith", "StringEndsWith",
    "StringContains", "Lower", "Upper", "Length", "Pow", "BitwiseAnd", "BitwiseOr",
    "BitwiseXor", "BitwiseNot",
})


def where_error(where: str, reason: str) -> ValueError:
    """The one-line error of a refused ``where``: what is wrong, and the rules."""
    return ValueError(f"where={where!r} is not allowed: {reason}; where must be "
                      f"{WHERE_RULES}")


def _column(where: str, name: str, columns: Sequence[str]) -> None:
    """An unknown column is an error that suggests the closest one."""
    low = {c.lower() for c in columns}
    if name.lower() in low:
        return
    close = difflib.get_close_matches(name, list(columns), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    shown = ", ".join(list(columns)[:30])
    raise ValueError(f"where={where!r} is not a valid condition: column {name!r} not "
                     f"found{hint}; "
                     f"available columns: {shown or '(none)'}")


def _function(where: str, name: str) -> None:
    if name.lower() not in WHERE_FUNCTIONS:
        raise where_error(where, f"function {name!r} is not one a filter may call")


def check_where_duckdb(con: Any, where: str, columns: Sequence[str]) -> None:
    """Check ``where`` with DuckDB's parser (``json_serialize_sql``): a single boolean
    expression over ``columns`` made of the parts the module allows.

    Raises
    ------
    ValueError
        It does not parse, is more than one expression, or uses anything else; the
        message says what.

    Examples
    --------
    >>> import duckdb
    >>> con = duckdb.connect()
    >>> check_where_duckdb(con, "p > 0.5 AND lower(split) = 'test'", ["y", "p", "split"])
    >>> check_where_duckdb(con, "p > 0.5) OR (1=1", ["y", "p"])
    Traceback (most recent call last):
    ...
    ValueError: where='p > 0.5) OR (1=1' is not allowed: ...
    """
    if not where.strip():
        raise where_error(where, "it is empty")
    # it must parse where it will run, as the condition of a WHERE clause: clauses that
    # the select list's parse would leave unchecked (WINDOW, a leading ALL) do not
    ((text,),) = con.execute("SELECT json_serialize_sql($1)",
                             [f"SELECT 1 WHERE (\n{where}\n)"]).fetchall()
    if json.loads(text).get("error"):
        raise where_error(where, "it does not parse as one condition of a WHERE clause")
    ((text,),) = con.execute("SELECT json_serialize_sql($1)", [f"SELECT {where}"]).fetchall()
    tree = json.loads(text)
    if tree.get("error"):
        msg = " ".join(str(tree.get("error_message", "")).split())
        raise where_error(where, f"it does not parse as one expression ({msg})")
    stmts = tree.get("statements", [])
    if len(stmts) != 1:
        raise where_error(where, "it holds more than one statement")
    node = stmts[0].get("node", {})
    extras = (node.get("type") != "SELECT_NODE" or node.get("modifiers")
              or node.get("cte_map", {}).get("map") or len(node.get("select_list", [])) != 1
              or node.get("from_table", {}).get("type") != "EMPTY"
              or node.get("where_clause") or node.get("group_expressions")
              or node.get("group_sets") or node.get("having") or node.get("sample")
              or node.get("qualify") or stmts[0].get("named_param_map"))
    if extras:
        raise where_error(where, "it is more than one expression (a FROM, a clause or a "
                                 "second column around it)")
    expr = node["select_list"][0]
    if expr.get("alias"):
        raise where_error(where, "it gives the expression an alias")
    _walk_duckdb(where, expr, columns)


def _walk_duckdb(where: str, node: Any, columns: Sequence[str]) -> None:
    if isinstance(node, list):
        for item in node:
            _walk_duckdb(where, item, columns)
        return
    if not isinstance(node, dict):
        return
    cls = node.get("class")
    if cls is not None:
        if cls not in _DUCKDB_CLASSES:
            what = {"SUBQUERY": "a subquery", "WINDOW": "a window function",
                    "LAMBDA": "a lambda", "PARAMETER": "a parameter",
                    "STAR": "a star expression"}.get(cls, f"a {cls.lower()} expression")
            raise where_error(where, f"it holds {what}")
        if cls == "COLUMN_REF":
            names = node.get("column_names", [])
            if len(names) != 1:
                raise where_error(where, f"column {'.'.join(names)!r} is qualified")
            _column(where, names[0], columns)
        elif cls == "FUNCTION":
            if node.get("schema") or node.get("catalog") or node.get("filter") \
                    or node.get("distinct") or node.get("order_bys", {}).get("orders"):
                raise where_error(where, f"function {node.get('function_name')!r} is "
                                         "qualified or an aggregate")
            _function(where, str(node.get("function_name", "")))
    for value in node.values():
        if isinstance(value, (dict, list)):
            _walk_duckdb(where, value, columns)


def check_where_spark(spark: Any, where: str, columns: Sequence[str]) -> None:
    """Check ``where`` with Spark's own parser (``parseExpression``): a single
    expression (anything after it fails to parse) over ``columns`` made of the parts
    the module allows. Needs a classic (JVM) session; on Spark Connect the filter is
    refused (filter the DataFrame first).

    Raises
    ------
    ValueError
        It does not parse or uses anything else; the message says what.
    """
    if not where.strip():
        raise where_error(where, "it is empty")
    jsession = getattr(spark, "_jsparkSession", None)
    if jsession is None:
        raise where_error(where, "it cannot be checked on this Spark session (Spark "
                                 "Connect); filter the DataFrame before evaluating it")
    try:
        expr = jsession.sessionState().sqlParser().parseExpression(where)
    except Exception as exc:
        first = " ".join(str(exc).split("\n")[0].split())[:300]
        raise where_error(where, f"it does not parse as one expression ({first})") from None
    _walk_spark(where, expr, columns)


def _scala_seq(seq: Any) -> Iterable[Any]:
    it = seq.iterator()
    while it.hasNext():
        yield it.next()


def _walk_spark(where: str, expr: Any, columns: Sequence[str]) -> None:
    cls = str(expr.getClass().getSimpleName())
    if cls not in _SPARK_CLASSES:
        what = {"ScalarSubquery": "a subquery", "Exists": "a subquery",
                "ListQuery": "a subquery", "InSubquery": "a subquery",
                "LambdaFunction": "a lambda", "UnresolvedStar": "a star expression",
                "UnresolvedWindowExpression": "a window function",
                "WindowExpression": "a window function"}.get(cls, f"a {cls} expression")
        raise where_error(where, f"it holds {what}")
    if cls == "UnresolvedAttribute":
        parts = [str(p) for p in _scala_seq(expr.nameParts())]
        if len(parts) != 1:
            raise where_error(where, f"column {'.'.join(parts)!r} is qualified")
        _column(where, parts[0], columns)
    elif cls == "UnresolvedFunction":
        parts = [str(p) for p in _scala_seq(expr.nameParts())]
        if len(parts) != 1 or bool(expr.isDistinct()) or not expr.filter().isEmpty():
            raise where_error(where, f"function {'.'.join(parts)!r} is qualified or an "
                                     "aggregate")
        _function(where, parts[0])
    for child in _scala_seq(expr.children()):
        _walk_spark(where, child, columns)


def check_where_type(where: str, sql_type: str) -> None:
    """A filter must be a condition: its value true or false (DuckDB would cast ``p`` or
    ``'yes'`` to a boolean and keep the rows silently)."""
    if sql_type.upper() != "BOOLEAN":
        raise where_error(where, f"it is not a condition: its value is of type {sql_type}, "
                                 "not true/false; compare it (e.g. p > 0.5, split = 'test')")


#: DuckDB errors raised by evaluating an expression on a row (a reader's own errors
#: say "CSV Error")
_RUNTIME_ERRORS = frozenset({"ConversionException", "OutOfRangeException"})


def where_failure(where: str | None, source: str, exc: BaseException) -> ValueError | None:
    """The error of a filter that failed on the data (a CAST of a value that does not
    convert, an overflow), naming the filter rather than the file; None for another
    error."""
    text = " ".join(str(exc).split())
    if not where or type(exc).__name__ not in _RUNTIME_ERRORS or "CSV Error" in text:
        return None
    text = text.split(" LINE 1:", 1)[0]  # the SQL it quotes is ours, not the user's
    return ValueError(f"where={where!r} failed on the rows of {source}: {text}; fix the "
                      "condition (TRY_CAST gives NULL where a value does not convert)")
