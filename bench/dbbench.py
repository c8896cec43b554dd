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
    """Django on a new scratch database of the server in DATABASE_URL, dropped afterwards; it is named after
    DATABASE_URL's database (wt_x_bench -> wt_x_bench_teams_<pid>), bench_<name>_<pid> beside `postgres`."""
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
    if os.environ.get("BENCH_QUERIES"):  # list them
        for query in queries.captured_queries:
            print("   ", query["sql"][:160])
    return len(queries), copies["n"]


@contextmanager
def engine_clock(engines):
    """Time the engine calls of a recompute: `engines` are (namespace, name) of the functions the service
    calls (module attributes, patched for the duration); yields a dict whose "s" sums their wall time."""
    spent = {"s": 0.0}
    originals = [(where, name, getattr(where, name)) for where, name in engines]

    def timed(function):
        def call(*args, **kwargs):
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent["s"] += time.perf_counter() - start

        return call

    for where, name, function in originals:
        setattr(where, name, timed(function))
    try:
        yield spent
    finally:
        for where, name, function in originals:
            setattr(where, name, function)


def compare(label: str, run, lower: LowerBound, repeat: int = 9, engines=()) -> tuple[int, int]:
    """Time `run` beside the lower bound, interleaved; print best / median of the recompute, the engine inside
    it (`engines`, see engine_clock), the lower bound, the ratio recompute / (lower bound + engine) and the
    queries of one recompute; returns (queries, COPY streams)."""
    run()  # warm
    queries, copies = queries_of(run)
    wall, cpu, engine, bound, ratio = [], [], [], [], []
    with engine_clock(engines) as spent:
        for _ in range(repeat):
            b = lower.run()
            spent["s"] = 0.0
            start, start_cpu = time.perf_counter(), time.process_time()
            run()
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            engine.append(spent["s"])
            bound.append(b)
            ratio.append(wall[-1] / (b + spent["s"]))
    w, c, e, lb, r = map(best_and_median, (wall, cpu, engine, bound, ratio))
    print(
        f"{label}: recompute best / median of {repeat} {w[0] * 1000:.1f} / {w[1] * 1000:.1f} ms "
        f"(its process's CPU {c[0] * 1000:.1f} / {c[1] * 1000:.1f} ms); engine inside it "
        f"{e[0] * 1000:.1f} / {e[1] * 1000:.1f} ms; database lower bound (raw psycopg, {lower.rows} rows, run "
        f"before each) {lb[0] * 1000:.1f} / {lb[1] * 1000:.1f} ms; recompute / (lower bound + engine) "
        f"{r[0]:.1f}x / {r[1]:.1f}x; {queries} queries + {copies} COPY per recompute  [load {load()}]"
    )
    return queries, copies


def baseline(module: str, rev: str):
    """`module` (e.g. "teams.services.recompute") as it was at git revision `rev`, imported beside the current
    one (its relative imports resolve in today's package), to time before / after back-to-back on one build."""
    import importlib.util
    import subprocess
    import types

    path = module.replace(".", "/") + ".py"
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{rev}:{path}"], check=True, capture_output=True, text=True
    ).stdout
    name = f"{module}_at_{rev.replace('~', '_').replace('^', '_')}"
    spec = importlib.util.spec_from_loader(name, loader=None, origin=f"{rev}:{path}")
    old = importlib.util.module_from_spec(spec)
    assert isinstance(old, types.ModuleType)
    old.__package__ = module.rpartition(".")[0]
    sys.modules[name] = old
    exec(compile(source, f"{rev}:{path}", "exec"), old.__dict__)
    return old


def compare_sizes(
    url: str, events: dict, recompute, baseline_rev: str | None, lower_bound, label, engines
) -> None:
    """`compare` for each size's event, today's `recompute` module (and, with `baseline_rev`, the module as it
    was then, back-to-back), then whether the queries per recompute stay the same across the sizes.
    `events`: size -> event id; `lower_bound(url, event_id)` -> LowerBound; `label(size, event_id)` -> text;
    `engines(module)` -> the engine functions timed inside the recompute (see engine_clock)."""
    from collections import defaultdict

    modules = [("now", recompute)]
    if baseline_rev:
        modules.insert(0, (baseline_rev, baseline(recompute.__name__, baseline_rev)))
    counts = defaultdict(dict)
    for size, e in events.items():
        recompute.recompute_event(e, force=True)
        lower = lower_bound(url, e)
        text = label(size, e)
        for name, module in modules:
            counts[name][size] = compare(
                f"[{name}] {text}",
                lambda e=e, module=module: module.recompute_event(e, force=True),
                lower,
                engines=engines(module),
            )
        lower.close()
    for name, by_size in counts.items():
        same = len({queries for queries, _copies in by_size.values()}) == 1
        print(
            f"[{name}] (queries, COPY streams) per recompute by size: {by_size}: queries "
            f"{'independent of' if same else 'GROWING with'} the size (a COPY per table large enough)"
        )
