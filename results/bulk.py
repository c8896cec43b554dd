"""Writing thousands of plain rows at once: versions' results and the recomputes' materialised rows.

Django's bulk_create builds a model instance per row and prepares every field of every row in Python,
which took most of an upload's and a recompute's time for a 200-pair session; here rows are tuples,
streamed with COPY on PostgreSQL (psycopg 3 `cursor.copy`) and inserted with one multi-row INSERT per
batch elsewhere. Only for models without signals or save() logic of their own.
"""

import gc
from collections.abc import Iterable, Sequence
from contextlib import contextmanager

from django.core.exceptions import EmptyResultSet
from django.db import connection

_BATCH = 500  # rows per INSERT off PostgreSQL (SQLite allows 32,766 parameters in one statement)
# A table of up to this many values is written by a multi-row INSERT sent with `write_all`'s statements (one
# round trip for them all); more go by COPY (two round trips, but far less work per value than binding
# values on the client: a 200-row standings table binds in ~10 ms, streams in ~2 ms).
INLINE_VALUES = 200


@contextmanager
def gc_paused():
    """The cyclic garbage collector held off while a recompute builds and drops its rows (tens of thousands
    of tuples and engine entries for 1,000 pairs): the full collections they triggered walked every object
    of the worker, Django's included, and were up to half of a recompute's CPU time (and its slowest runs).
    Those rows hold no reference cycles, so reference counting frees them; the collector is on again after."""
    if not gc.isenabled():  # nested, or off already
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def insert_rows(model, fields: Sequence[str], rows: Iterable[tuple]) -> None:
    meta = model._meta
    columns = [meta.get_field(name).column for name in fields]
    quote = connection.ops.quote_name
    table = quote(meta.db_table)
    names = ", ".join(quote(column) for column in columns)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        rows = list(rows)
        marks = "(" + ", ".join(["%s"] * len(columns)) + ")"
        batch = max(1, min(_BATCH, 30000 // max(1, len(columns))))
        for start in range(0, len(rows), batch):
            chunk = rows[start : start + batch]
            cursor.execute(
                f"INSERT INTO {table} ({names}) VALUES {', '.join([marks] * len(chunk))}",
                [value for row in chunk for value in row],
            )


def execute_all(statements: Sequence[tuple[str, Sequence]]) -> None:
    """Several statements (with their parameters) in one round trip on PostgreSQL (Django's psycopg cursor
    binds parameters on the client, so one execute may hold several statements); one by one elsewhere."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "; ".join(sql for sql, _p in statements), [p for _sql, ps in statements for p in ps]
            )
        else:
            for sql, params in statements:
                cursor.execute(sql, params)


def write_all(statements: Sequence[tuple[str, Sequence]], tables: Sequence[tuple]) -> None:
    """`statements` (DELETEs: (sql, params)) then the rows of `tables` ((model, fields, rows)): the
    statements and the rows of small tables (a one-board rescore's digest rows) in one round trip, the
    larger tables streamed with COPY; a table without rows costs nothing."""
    statements = list(statements)
    copied = []
    quote = connection.ops.quote_name
    for model, fields, rows in tables:
        rows = list(rows)
        if not rows:
            continue
        if len(fields) * len(rows) > INLINE_VALUES:
            copied.append((model, fields, rows))
            continue
        meta = model._meta
        names = ", ".join(quote(meta.get_field(name).column) for name in fields)
        marks = "(" + ", ".join(["%s"] * len(fields)) + ")"
        statements.append(
            (
                f"INSERT INTO {quote(meta.db_table)} ({names}) VALUES {', '.join([marks] * len(rows))}",
                [value for row in rows for value in row],
            )
        )
    if statements:
        execute_all(statements)
    for model, fields, rows in copied:
        insert_rows(model, fields, rows)


def read_all(querysets) -> list[list[tuple]]:
    """The rows of several values_list querysets (tuples, through the fields' converters as the ORM reads
    them); on PostgreSQL in one round trip (their SQL joined, each result set read in turn), elsewhere one
    query each. A queryset that can match nothing (`board__in=[]`) is not sent."""
    if connection.vendor != "postgresql":
        return [list(queryset) for queryset in querysets]
    compilers, statements = _compiled(querysets)
    return _fetch_all(compilers, statements)


def _compiled(querysets) -> tuple[list, list]:
    compilers, statements = [], []
    for queryset in querysets:
        compiler = queryset.query.get_compiler(using=queryset.db)
        try:
            statements.append(compiler.as_sql())
        except EmptyResultSet:
            statements.append(None)
        compilers.append(compiler)
    return compilers, statements


def _fetch_all(compilers, statements) -> list[list[tuple]]:
    sent = [statement for statement in statements if statement is not None]
    out = []
    with connection.cursor() as cursor:
        if sent:
            cursor.execute("; ".join(sql for sql, _p in sent), [p for _sql, ps in sent for p in ps])
        raw, first = cursor.cursor, True
        for compiler, statement in zip(compilers, statements, strict=True):
            if statement is None:
                out.append([])
                continue
            if not first:
                raw.nextset()
            first = False
            rows = raw.fetchall()
            out.append([tuple(row) for row in compiler.results_iter(results=[rows], tuple_expected=True)])
    return out


def _is_int(param) -> bool:
    return isinstance(param, int) and not isinstance(param, bool)


_SHAPES: dict = {}  # key -> (compilers, statements, where each stand-in's value goes): `_read_shaped`
_STAND_IN = -987_654_000  # stand-in values from here down: no row has such an id or board number


def read_shaped(key, build, *values) -> list[list[tuple]]:
    """`read_all(build(*values))` for a caller that sends the same querysets again and again with other
    values (one board's rescore: building and compiling them was a sixth of its time): compiled once per
    `key`, which names their shape (the same SQL for every call with that key). `build` is called once with
    stand-in values (an int, or a list of ints, for each value) whose places in the compiled parameters
    the real values take. PostgreSQL only (elsewhere `_read_all` every time)."""
    if connection.vendor != "postgresql":
        return read_all(build(*values))
    shape = _SHAPES.get(key)
    if shape is None:
        stand_ins, places, next_one = [], {}, _STAND_IN
        for index, value in enumerate(values):
            if isinstance(value, list | tuple):
                stand_ins.append(list(range(next_one, next_one - len(value), -1)))
                places.update({n: (index, at) for at, n in enumerate(stand_ins[-1])})
                next_one -= len(value)
            else:
                stand_ins.append(next_one)
                places[next_one] = (index, None)
                next_one -= 1
        compilers, statements = _compiled(build(*stand_ins))
        # psycopg's Int2/Int4 wrappers (a SmallIntegerField's value) are ints too: their type is kept below
        seen = {int(p) for statement in statements if statement for p in statement[1] if _is_int(p)}
        if not places.keys() <= seen:  # a value compiled into the SQL itself: not cacheable
            return _fetch_all(compilers, _compiled(build(*values))[1])
        shape = _SHAPES[key] = (compilers, statements, places)
    compilers, statements, places = shape

    def real(param):
        if _is_int(param) and param in places:
            index, at = places[param]
            value = values[index] if at is None else values[index][at]
            return value if type(param) is int else type(param)(value)
        return param

    given = [None if st is None else (st[0], [real(p) for p in st[1]]) for st in statements]
    return _fetch_all(compilers, given)
