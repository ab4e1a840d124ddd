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
  values): none of them reads a file, the network, the environment or a setting,
  and none multiplies the size of a value (no ``replace``, ``repeat``, ``lpad``,
  ``concat_ws``, lists or aggregates), so a filter's cost per row grows with its
  length and the row's size only.

Its cost is bounded too (docs/conventions.md, "Limits"): at most
:data:`WHERE_MAX_LENGTH` characters, expressions nested at most
:data:`WHERE_MAX_DEPTH` deep (deeper ones would exhaust the parsers' and this
checker's stacks), and, on DuckDB, the filter must run on the input's first rows
within :data:`WHERE_MAX_SECONDS` (:class:`~binmetrics.engines.files.FileJob`).

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

__all__ = ["WHERE_FUNCTIONS", "WHERE_MAX_DEPTH", "WHERE_MAX_LENGTH", "WHERE_MAX_SECONDS",
           "WHERE_RULES", "check_where_duckdb", "check_where_spark", "where_error"]

#: the longest filter, in characters (a condition, not a program: the longest real
#: filters, lists of a few hundred ids, are far shorter)
WHERE_MAX_LENGTH = 4000
#: the deepest nesting of expressions (``NOT NOT ... p``, ``p + p + ... + p`` nest one
#: level per operator); deeper filters exhaust the parsers' stacks
WHERE_MAX_DEPTH = 100
#: seconds the filter may take on the input's first rows (one vector, 2048 rows),
#: checked before the input is read: an ordinary filter takes milliseconds
WHERE_MAX_SECONDS = 10.0

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
    # (no replace, repeat or concat_ws: nested, each multiplies a string's length, and
    # ten levels of replace made a 300-character filter allocate 4 GB)
    "strpos", "position", "locate", "concat", "reverse", "split_part", "prefix", "suffix",
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


#: nested types a CAST may not make (a fixed-size array of 1e5 values per row)
_NESTED_TYPES = frozenset({"array", "list", "struct", "map", "union"})


def where_error(where: str, reason: str) -> ValueError:
    """The one-line error of a refused ``where``: what is wrong, and the rules."""
    return ValueError(f"where={where!r} is not allowed: {reason}; where must be "
                      f"{WHERE_RULES}")


def where_limit_error(where: str, reason: str) -> ValueError:
    """The one-line error of a filter over one of its limits: the limit hit (the filter
    shown shortened, since it may be long)."""
    shown = where if len(where) <= 80 else where[:60] + f"... ({len(where)} characters)"
    return ValueError(f"where={shown!r} is over a filter's limits: {reason}; see "
                      "docs/conventions.md, Limits")


def _check_length(where: str) -> None:
    if not where.strip():
        raise where_error(where, "it is empty")
    if len(where) > WHERE_MAX_LENGTH:
        raise where_limit_error(where, f"it is {len(where)} characters long, over the "
                                       f"limit of {WHERE_MAX_LENGTH}")
    # parentheses nested past the limit, counted on the text before any parser sees it
    # (Spark's ran out of heap on 500 levels)
    depth = deepest = 0
    quote = ""
    for char in where:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")":
            depth -= 1
    if deepest > WHERE_MAX_DEPTH:
        raise _too_deep(where)


def _too_deep(where: str) -> ValueError:
    return where_limit_error(where, f"its expressions nest more than {WHERE_MAX_DEPTH} "
                                    "deep (the limit of nesting)")


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


#: functions refused because, nested, each multiplies the size of a value
_GROWING = frozenset({"replace", "repeat", "lpad", "rpad", "concat_ws", "regexp_replace",
                      "string_agg", "list_value", "array_value", "range", "generate_series",
                      "unnest", "list_concat", "array_concat", "translate", "printf",
                      "format"})


def _function(where: str, name: str) -> None:
    if name.lower() not in WHERE_FUNCTIONS:
        why = " (it can grow a value without bound: a limit of a filter's cost)" \
            if name.lower() in _GROWING else ""
        raise where_error(where, f"function {name!r} is not one a filter may call{why}")


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
    _check_length(where)
    # it must parse where it will run, as the condition of a WHERE clause: clauses that
    # the select list's parse would leave unchecked (WINDOW, a leading ALL) do not
    ((text,),) = con.execute("SELECT json_serialize_sql($1)",
                             [f"SELECT 1 WHERE (\n{where}\n)"]).fetchall()
    tree = _json(where, text)
    if tree.get("error"):
        if "depth" in str(tree.get("error_message", "")).lower():
            raise _too_deep(where)
        raise where_error(where, "it does not parse as one condition of a WHERE clause")
    ((text,),) = con.execute("SELECT json_serialize_sql($1)", [f"SELECT {where}"]).fetchall()
    tree = _json(where, text)
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


def _json(where: str, text: str) -> Any:
    """The parser's syntax tree; one nested past Python's stack is over the depth limit."""
    try:
        return json.loads(text)
    except RecursionError:
        raise _too_deep(where) from None


def _walk_duckdb(where: str, root: Any, columns: Sequence[str]) -> None:
    """Check every node of the tree, depth first, without recursion (a deep tree must
    give the depth error, not exhaust Python's stack)."""
    stack: list[tuple[Any, int]] = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, list):
            stack.extend((item, depth) for item in node)
        elif isinstance(node, dict):
            if node.get("class") is not None:
                depth += 1
                if depth > WHERE_MAX_DEPTH:
                    raise _too_deep(where)
                _check_duckdb_node(where, node, columns)
            stack.extend((v, depth) for v in node.values() if isinstance(v, (dict, list)))


def _check_duckdb_node(where: str, node: dict[str, Any], columns: Sequence[str]) -> None:
    cls = str(node.get("class"))
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
    elif cls == "TYPE" and str(node.get("type_name", "")).lower() in _NESTED_TYPES:
        raise where_error(where, f"it casts to the nested type {node.get('type_name')!r} "
                                 "(a filter's CAST makes a plain value)")


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
    _check_length(where)
    jsession = getattr(spark, "_jsparkSession", None)
    if jsession is None:
        raise where_error(where, "it cannot be checked on this Spark session (Spark "
                                 "Connect); filter the DataFrame before evaluating it")
    try:
        expr = jsession.sessionState().sqlParser().parseExpression(where)
    except Exception as exc:
        first = " ".join(str(exc).split("\n")[0].split())[:300]
        if "StackOverflow" in first:
            raise _too_deep(where) from None
        raise where_error(where, f"it does not parse as one expression ({first})") from None
    _walk_spark(where, expr, columns)


def _scala_seq(seq: Any) -> Iterable[Any]:
    it = seq.iterator()
    while it.hasNext():
        yield it.next()


def _walk_spark(where: str, root: Any, columns: Sequence[str]) -> None:
    """Check every node of the tree, without recursion (see :func:`_walk_duckdb`)."""
    stack: list[tuple[Any, int]] = [(root, 1)]
    while stack:
        expr, depth = stack.pop()
        if depth > WHERE_MAX_DEPTH:
            raise _too_deep(where)
        _check_spark_node(where, expr, columns)
        stack.extend((child, depth + 1) for child in _scala_seq(expr.children()))


def _check_spark_node(where: str, expr: Any, columns: Sequence[str]) -> None:
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
