"""`seed_demo` once per test process: the rows it writes, kept in memory and written back for the next module.

Seeding the demo takes tens of seconds (double-dummy analysis, recomputes, ratings); several modules need it
and pytest-xdist's `--dist loadfile` gives one worker whole files, so a worker used to seed it several times.
`load_demo()` runs the command once, the first time in the process, and records each table's rows before
and after it; every later call starts from the same rows (checked: anything else, e.g. after a transactional
test flushed the tables, seeds afresh) and writes the recorded rows back in their stored order, so the
database holds exactly what the command wrote. On PostgreSQL the sequences are moved past the ids written.

The rows are read raw (SQLite: `+column`, an expression without a declared type, so no converter runs;
PostgreSQL: COPY's text format), so every value goes back byte for byte. Nothing outside the database is
kept: the demo writes no files, and the cache and the mail outbox are emptied before every test anyway.
"""

import io

from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection
from django.test import TestCase

_recorded = {}  # "before" / "after": {table: rows}, for this process


def _tables():
    names = sorted(connection.introspection.table_names(include_views=False))
    if connection.vendor == "sqlite":
        names.append("sqlite_sequence")  # AUTOINCREMENT's counters: a table like any other here
    return names


def _read(tables):
    quote = connection.ops.quote_name
    rows = {}
    with connection.cursor() as cursor:
        for table in tables:
            if connection.vendor == "postgresql":
                with cursor.cursor.copy(f"COPY {quote(table)} TO STDOUT") as copy:
                    rows[table] = b"".join(bytes(chunk) for chunk in copy).splitlines()
            else:
                columns = [c.name for c in connection.introspection.get_table_description(cursor, table)]
                cursor.execute(f"SELECT {', '.join('+' + quote(c) for c in columns)} FROM {quote(table)}")
                rows[table] = cursor.fetchall()
    return rows


def _write(table, rows):
    quote = connection.ops.quote_name
    if not rows:
        return
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {quote(table)} FROM STDIN") as copy:
                copy.write(b"".join(row + b"\n" for row in rows))
        else:
            marks = ", ".join(["%s"] * len(rows[0]))
            cursor.executemany(f"INSERT INTO {quote(table)} VALUES ({marks})", rows)


def _restore(before, after):
    """Turn the tables from `before` into `after`: rows added are appended; a table whose earlier rows
    changed is emptied and written whole (foreign keys are checked at commit, which never comes)."""
    quote = connection.ops.quote_name
    grown = []
    for table in sorted(after, key=lambda name: name == "sqlite_sequence"):  # the counters last
        old, new = before[table], after[table]
        if old == new:
            continue
        if new[: len(old)] == old and table != "sqlite_sequence":
            _write(table, new[len(old) :])
        else:
            with connection.cursor() as cursor:
                cursor.execute(f"DELETE FROM {quote(table)}")
            _write(table, new)
        grown.append(table)
    if connection.vendor == "postgresql":
        models = [m for m in apps.get_models(include_auto_created=True) if m._meta.db_table in grown]
        with connection.cursor() as cursor:
            for statement in connection.ops.sequence_reset_sql(no_style(), models):
                cursor.execute(statement)


def rows():
    """Every table's rows as they are stored, in their stored order."""
    return _read(_tables())


def seed():
    """Run `seed_demo` itself (its on-commit callbacks too, as after a real commit) and record its rows for
    the next `load_demo()` of this process; returns them."""
    assert connection.in_atomic_block, "the demo is seeded inside a transaction that is rolled back"
    before = rows()
    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command("seed_demo", stdout=io.StringIO())
    _recorded.update(before=before, after=rows())
    return _recorded["after"]


def load_demo():
    """Fill the open transaction with what `seed()` writes: the recorded rows when this process seeded the
    demo before from the same starting rows, else by seeding it."""
    assert connection.in_atomic_block, "the demo is seeded inside a transaction that is rolled back"
    before = rows()
    if _recorded.get("before") == before:
        _restore(before, _recorded["after"])
    else:
        seed()
