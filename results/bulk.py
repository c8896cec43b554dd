"""Writing thousands of plain rows at once: versions' results and the recomputes' materialised rows.

Django's bulk_create builds a model instance per row and prepares every field of every row in Python,
which took most of an upload's and a recompute's time for a 200-pair session; here rows are tuples,
streamed with COPY on PostgreSQL (psycopg 3 `cursor.copy`) and inserted with one multi-row INSERT per
batch elsewhere. Only for models without signals or save() logic of their own.
"""

from collections.abc import Iterable, Sequence

from django.db import connection

_BATCH = 500  # rows per INSERT off PostgreSQL (SQLite allows 32,766 parameters in one statement)


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
