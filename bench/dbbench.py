"""What the recompute benchmarks share: a scratch PostgreSQL database, Django on it, a database lower bound
in raw psycopg, and timing a recompute beside it (interleaved, in one process: ratios survive a busy
machine better than absolute times; the load average is printed with each figure).

The lower bound of a recompute is one transaction doing only what any recompute must at the database:
lock the event's state row, read the input rows (the queries given), delete the old output rows and COPY
the same output rows (read once from what the recompute wrote, before any clock starts), stamp the state
and commit, with the recompute's commit setting (synchronous_commit off, results.services.recompute).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SERVER = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
BROKER = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/13")


def scratch_name(name: str) -> str:
    """The scratch database's name: under the server URL's own database name (a shared server's naming
    rule, e.g. wt_x_bench -> wt_x_bench_bridge_123), or bench_<name>_<pid> when it names postgres."""
    base = urlparse(SERVER).path.lstrip("/")
    prefix = base if base and base != "postgres" else "bench"
    return f"{prefix}_{name}_{os.getpid()}"


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def best_and_median(times):
    return min(times), statistics.median(times)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


@contextmanager
def scratch_django(name: str):
    """Django on a new scratch database of the server in DATABASE_URL, dropped afterwards."""
    import psycopg

    scratch = scratch_name(name)
    url = urlparse(SERVER)._replace(path=f"/{scratch}").geturl()
    with psycopg.connect(SERVER, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{scratch}"')
    try:
        os.environ["DATABASE_URL"] = url
        os.environ["CELERY_BROKER_URL"] = BROKER
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")
        os.environ.setdefault("LOG_LEVEL", "WARNING")
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        yield url
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(SERVER, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')


class LowerBound:
    """`reads`: (sql, params) of the input rows; `outputs`: (model, where) of the output rows."""

    def __init__(self, url: str, event_id: int, scope: str, reads, outputs):
        import psycopg
        from django.db import models

        self.conn = psycopg.connect(url)
        self.event_id, self.scope, self.reads = event_id, scope, reads
        self.outputs = []
        for model, where in outputs:
            json = {f.column for f in model._meta.concrete_fields if isinstance(f, models.JSONField)}
            columns = [f.column for f in model._meta.concrete_fields if f.column != "id"]
            shown = ", ".join(f'"{c}"::text' if c in json else f'"{c}"' for c in columns)
            table = model._meta.db_table
            rows = self.conn.execute(f'SELECT {shown} FROM "{table}" WHERE {where}').fetchall()
            names = ", ".join(f'"{c}"' for c in columns)
            self.outputs.append((table, where, f'COPY "{table}" ({names}) FROM STDIN', rows))
        self.conn.commit()

    @property
    def rows(self) -> int:
        return sum(len(rows) for *_x, rows in self.outputs)

    def run(self, clock=time.perf_counter) -> float:
        conn = self.conn
        start = clock()
        with conn.transaction():
            conn.execute("SET LOCAL synchronous_commit TO OFF")
            conn.execute(
                "SELECT id, latest_version FROM results_recomputestate WHERE event_id = %s AND scope = %s "
                "FOR UPDATE",
                (self.event_id, self.scope),
            ).fetchall()
            for sql, params in self.reads:
                conn.execute(sql, params).fetchall()
            for table, where, copy_sql, rows in self.outputs:
                conn.execute(f'DELETE FROM "{table}" WHERE {where}')
                with conn.cursor().copy(copy_sql) as copy:
                    for row in rows:
                        copy.write_row(row)
            conn.execute(
                "UPDATE results_recomputestate SET computed_at = now() WHERE event_id = %s AND scope = %s",
                (self.event_id, self.scope),
            )
        return clock() - start

    def close(self):
        self.conn.close()


def queries_of(run) -> tuple[int, int]:
    """(queries, COPY streams) of one call of `run` (Django's CaptureQueriesContext does not see COPY)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    try:
        from results import bulk
    except ImportError:  # before results.bulk: Django's bulk_create, no COPY
        bulk = None
    copies = {"n": 0}
    if bulk is None:
        with CaptureQueriesContext(connection) as queries:
            run()
        return len(queries), 0
    original = bulk.insert_rows

    def counted(*args, **kwargs):
        copies["n"] += 1
        return original(*args, **kwargs)

    bulk.insert_rows = counted
    try:
        with CaptureQueriesContext(connection) as queries:
            run()
    finally:
        bulk.insert_rows = original
    return len(queries), copies["n"]


def compare(label: str, run, lower: LowerBound, repeat: int = 9) -> None:
    """Time `run` beside the lower bound, interleaved; print best / median, the ratio, the queries."""
    run()  # warm
    queries, copies = queries_of(run)
    wall, cpu, bound, ratio = [], [], [], []
    for _ in range(repeat):
        b = lower.run()
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        bound.append(b)
        ratio.append(wall[-1] / b)
    w, c, lb, r = map(best_and_median, (wall, cpu, bound, ratio))
    print(
        f"{label}: recompute best / median of {repeat} {w[0] * 1000:.1f} / {w[1] * 1000:.1f} ms "
        f"(its process's CPU {c[0] * 1000:.1f} / {c[1] * 1000:.1f} ms); database lower bound (raw psycopg, "
        f"{lower.rows} rows, run before each) {lb[0] * 1000:.1f} / {lb[1] * 1000:.1f} ms; ratio "
        f"{r[0]:.1f}x / {r[1]:.1f}x; {queries} queries + {copies} COPY per recompute  [load {load()}]"
    )
