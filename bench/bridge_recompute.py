"""Benchmark: scoring a pairs session, and an upload becoming standings through Celery.

1. Engine: `score_session` on a 200-pair, 27-board session (Mitchell, 8 sections of 12-13 tables, nine rounds
   of three boards, across-field matchpoints with Neuberg where a board was played fewer times) and on a
   1,000-pair field of the same shape, against a vectorised numpy lower bound doing the same arithmetic
   (matchpoints, Neuberg, pair totals, percentages, ranking per line) on arrays built before its clock
   starts. Both sides: best and median of REPEAT runs; the ratio of each. Also the engine with every result
   row read once (the rows are built from the engine's arrays when a board is first read). Also the
   service layer's share: the in-process recompute (read the version rows, build the engine input, score,
   write the standings).
2. Latency: a PostgreSQL scratch database, a real Celery worker on Redis; each of N uploads of the 200-pair
   session's whole PBN file, one result changed from the upload before (parsed, checked, written as a
   version) until its standings are stored; p50 / p95.

Run:  DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres CELERY_BROKER_URL=redis://127.0.0.1:6379/13 \
      python bench/bridge_recompute.py [uploads] [--engine-only] [--queries]
(--queries: print every query of one upload of each kind.)
The DATABASE_URL names the server (and a database to connect to while the scratch one is made and dropped).
"""

from __future__ import annotations

import datetime
import os
import random
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse

import dbbench
from bridge_fields import REPEAT, engine_times, field, numpy_lower_bound

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SERVER = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
BROKER = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/13")
SCRATCH = dbbench.scratch_name("bridge")
ENGINE_ONLY = "--engine-only" in sys.argv
ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
UPLOADS = int(ARGS[0]) if ARGS else 10


def _scratch_url() -> str:
    parts = urlparse(SERVER)
    return parts._replace(path=f"/{SCRATCH}").geturl()


def _admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(SERVER, autocommit=True) as conn:
        conn.execute(sql)


# --- with Django -----------------------------------------------------------------------------------------


def setup_django():
    os.environ["DATABASE_URL"] = _scratch_url()
    os.environ["CELERY_BROKER_URL"] = BROKER
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def portal_session(pairs: int, title: str):
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from bridge.services import setup
    from demo import bridge_sample as sample
    from federation.models import Federation

    mbsz, _ = Federation.objects.get_or_create(
        code="mbsz", defaults=dict(name="MBSz", short_name="MBSz", game="bridge")
    )
    user, _ = get_user_model().objects.get_or_create(username="bench", defaults={"email": "bench@example.hu"})
    start = timezone.now() - datetime.timedelta(hours=3)
    event = sample.event_with_pairs(mbsz, pairs=pairs, title=title, start=start)
    session = setup.create_session(
        event,
        movement="mitchell",
        pairs=setup.pairs_from_entries(event),
        announced=event.sessions.first(),
        sections=max(1, round(pairs / 25)),
        boards_per_round=3,
        rounds=9,
    )
    text = sample.pbn_text(session, sample.play(session, random.Random(pairs)))
    return event, session, text, user


@contextmanager
def copies_counted():
    """Counts the COPY streams while it lasts: results.bulk.insert_rows, however the code reaches it
    (bridge.services.bulk re-exports it; results.bulk.write_all calls it)."""
    from bridge.services import bulk
    from results import bulk as shared

    original = shared.insert_rows
    count = {"n": 0}

    def counted(*args, **kwargs):
        count["n"] += 1
        return original(*args, **kwargs)

    bulk.insert_rows = shared.insert_rows = counted
    try:
        yield count
    finally:
        bulk.insert_rows = shared.insert_rows = original


RECOMPUTES = 9  # in-process recomputes per field size, each beside a run of the database lower bound


def lower_bound(event, session) -> dbbench.LowerBound:
    """What any recompute must at least do at the database (dbbench.LowerBound): read the input rows the
    recompute reads (the latest version's results and penalties, the seats, the event's pairs and their
    players' names) and write the same output rows (board scores, session and event standings)."""
    from bridge.models import BoardScore, EventStanding, SessionStanding
    from bridge.services import SCOPE, versions

    version = versions.latest_version(session)
    version_id = version.pk
    # the version's rows where they are stored (its own, and its base's of the boards it kept: copy on write)
    rows = versions.results_of(version).values_list(*versions.ROW_FIELDS[:-1])  # all but the deal group
    reads = [
        rows.query.sql_with_params(),
        (
            "SELECT pair_id, board, percent, reason FROM bridge_resultpenalty WHERE version_id = %s",
            (version_id,),
        ),
        (
            "SELECT sp.id, sp.section_id, sp.pair_id, sp.number FROM bridge_sessionpair sp "
            "JOIN bridge_section s ON s.id = sp.section_id WHERE s.session_id = %s",
            (session.pk,),
        ),
        (
            "SELECT p.id, a.last_name, a.first_name, b.last_name, b.first_name FROM bridge_pair p "
            "LEFT JOIN federation_person a ON a.id = p.player1_id "
            "LEFT JOIN federation_person b ON b.id = p.player2_id WHERE p.event_id = %s",
            (event.pk,),
        ),
    ]
    outputs = [
        (BoardScore, f"session_id = {session.pk}"),
        (SessionStanding, f"session_id = {session.pk}"),
        (EventStanding, f"event_id = {event.pk}"),
    ]
    return dbbench.LowerBound(_scratch_url(), event.pk, SCOPE, reads, outputs)


def service_overhead(pairs: int):
    """In-process recomputes of a stored version (no Celery), each beside a run of the lower bound.

    Returns per run (forced recompute, engine share inside it, lower bound, the unforced recompute after
    a new version with one changed result), the queries of one forced recompute
    (Django's CaptureQueriesContext; COPY streams are counted apart) and the session.
    """
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from bridge.services import compute, upload_readers, uploads
    from results.models import VersionedUpload

    event, session, text, user = portal_session(pairs, f"Bench {pairs} in-process")
    uploads.upload(session, upload_readers.parse_pbn(text), source=VersionedUpload.Source.PBN, user=user)
    compute.recompute_event(event.pk, force=True)  # warm: the first run pays for imports and plans
    spent = {"engine": 0.0}
    original = compute.event.score_session

    def timed(*args, **kwargs):
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            spent["engine"] += time.perf_counter() - start

    lower = lower_bound(event, session)
    runs = []
    compute.event.score_session = timed
    try:
        with copies_counted() as copies, CaptureQueriesContext(connection) as queries:
            compute.recompute_event(event.pk, force=True)
        counts = (len(queries), copies["n"])
        rng = random.Random(pairs)
        for _ in range(RECOMPUTES):
            bound = lower.run()
            spent["engine"] = 0.0
            start, cpu = time.perf_counter(), time.process_time()
            compute.recompute_event(event.pk, force=True)
            forced, forced_cpu = time.perf_counter() - start, time.process_time() - cpu
            engine = spent["engine"]
            new_version(session, user, rng)  # one table's result changed, written before the clock starts
            start = time.perf_counter()
            compute.recompute_event(event.pk)
            runs.append((forced, engine, bound, time.perf_counter() - start, forced_cpu))
    finally:
        compute.event.score_session = original
        lower.close()
    return runs, counts, (event, session, user)


CHANGES = 30  # single-result changes timed for the incremental recompute


def new_version(session, user, rng: random.Random) -> int:
    """A new version with one table's result changed by a trick (a score some contract gives, as the
    upload checks demand), written as a correction writes it; returns its board."""
    from django.db import transaction

    from bridge.engine.scoring.contract import board_vulnerability, contract_score, vulnerable_sides
    from bridge.services import versions
    from results.models import VersionedUpload

    with transaction.atomic():
        versions.lock_event(session.event_id)
        base = versions.latest_version(session)
        rows = versions.rows_of(base)
        row = rng.choice([r for r in rows if r["tricks"] is not None and r["declarer"]])
        row["tricks"] = max(0, min(13, row["tricks"] + rng.choice((-1, 1))))
        vul = vulnerable_sides(board_vulnerability(row["board"]))
        row["score"] = contract_score(row["contract"], row["declarer"], row["tricks"], *vul)
        versions.write_version(
            session,
            rows,
            versions.penalties_of(base),
            source=VersionedUpload.Source.FORM,
            user=user,
            deals=base.deals,
            base=base,
        )
    return row["board"]


def incremental(event, session, user, rng: random.Random):
    """One table's result changed (a new version, written before the clock starts), then
    `compute.recompute_boards` of its board: wall times, and the queries of one (COPY streams apart)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from bridge.services import compute

    def change():
        return new_version(session, user, rng)

    compute.boards._LIVE.clear()
    first = time.perf_counter()
    compute.recompute_boards(event.pk, session.pk, [change()])  # this worker's first: reads the session
    first = time.perf_counter() - first
    board = change()
    with copies_counted() as copies, CaptureQueriesContext(connection) as queries:
        summary = compute.recompute_boards(event.pk, session.pk, [board])
    assert summary["incremental"], summary
    times, cpu = [], []
    for _ in range(CHANGES):
        board = change()
        start, cpu_start = time.perf_counter(), time.process_time()
        summary = compute.recompute_boards(event.pk, session.pk, [board])
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - cpu_start)
        assert summary["incremental"], summary
    return times, first, (len(queries), copies["n"]), cpu


UPLOAD_RUNS = 7  # timed uploads of each kind for the upload service's profile


def upload_profile(event, session, user, show=False):
    """The PBN file read alone (CPU time), and the upload service alone (`uploads.submit`, no recompute: its
    messages wait for a commit the bench never runs the callbacks of): a one-board traveller and the whole session's PBN, median wall time and
    the queries of one (Django's CaptureQueriesContext; COPY streams apart); `show` prints each query."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from bridge.services import upload_readers, uploads, versions
    from demo import bridge_sample as sample

    text = sample.pbn_text(session, sample.play(session, random.Random(7)))
    labels = sample.pair_labels(session)

    def traveller():
        rows = [r for r in versions.rows_of(versions.latest_version(session)) if r["board"] == 1]
        lines = [{"ns": labels[r["ns_id"]], "ew": labels[r["ew_id"]], "score": str(r["score"])} for r in rows]
        return dict(kind=upload_readers.FORM, board=1, lines=lines)

    out = {}
    parse = []
    for _ in range(UPLOAD_RUNS):  # the file read alone (PBN reader, the rows as upload rows), in CPU time
        start = time.process_time()
        upload_readers.parse_pbn(text)
        parse.append(time.process_time() - start)
    out["PBN parse alone, CPU"] = (statistics.median(parse), 0, 0)
    for name, make in (("traveller", traveller), ("PBN", lambda: dict(kind=upload_readers.PBN, text=text))):
        times, cpu = [], []
        for _ in range(UPLOAD_RUNS):
            kwargs = make()
            start, start_cpu = time.perf_counter(), time.process_time()
            uploads.submit(session, user=user, **kwargs)
            cpu.append(time.process_time() - start_cpu)
            times.append(time.perf_counter() - start)
        # this process's CPU time too: the wall time of a busy shared machine is mostly waiting
        out[f"{name}, CPU"] = (statistics.median(cpu), None, None)
        kwargs = make()
        with copies_counted() as copies, CaptureQueriesContext(connection) as queries:
            uploads.submit(session, user=user, **kwargs)
        if show:
            print(f"  queries of one {name} upload:")
            for q in queries.captured_queries:
                print(f"    {q['time']}s {q['sql'][:160]}")
        out[name] = (statistics.median(times), len(queries), copies["n"])
    return out


def celery_latency(uploads_count: int):
    from bridge.services import SCOPE, upload_readers, uploads
    from demo import bridge_sample as sample
    from results.models import VersionedUpload
    from results.services import state_of

    event, session, text, user = portal_session(200, "Bench 200 through Celery")
    # What a scoring program sends during play: the whole session's file again after each table's result,
    # here with one result changed each time (another table's result on the same board: a legal score);
    # written before the clock starts.
    rows = sample.play(session, random.Random(200))
    rng, texts = random.Random(17), []
    for _ in range(uploads_count + 1):
        texts.append(sample.pbn_text(session, rows))
        row = rng.choice(rows)
        other = rng.choice([r for r in rows if r["board"] == row["board"]])
        for name in ("contract", "declarer", "tricks", "score", "artificial"):
            row[name] = other[name]
    env = {**os.environ, "DATABASE_URL": _scratch_url(), "CELERY_BROKER_URL": BROKER}
    import redis

    redis.Redis.from_url(BROKER).flushdb()
    log = open(ROOT / "var" / "bench-bridge-worker.log", "w")  # noqa: SIM115
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--loglevel=WARNING",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    latencies, writes = [], []
    try:
        for attempt in range(uploads_count + 1):
            start = time.perf_counter()
            uploads.upload(
                session,
                upload_readers.parse_pbn(texts[attempt]),
                source=VersionedUpload.Source.PBN,
                user=user,
            )
            written = time.perf_counter()
            deadline = start + 120
            while state_of(event.pk, SCOPE).processing:
                if time.perf_counter() > deadline:
                    raise RuntimeError("no standings after 120 s; see var/bench-bridge-worker.log")
                time.sleep(0.005)
            if attempt:  # the first one warms the worker up (imports, connections)
                latencies.append(time.perf_counter() - start)
                writes.append(written - start)
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        log.close()
    return latencies, writes


def main():
    rng = random.Random(2026)
    print("Bridge pairs recompute benchmark")
    if not ENGINE_ONLY:
        _admin(f'CREATE DATABASE "{SCRATCH}"')
    try:
        if ENGINE_ONLY:
            os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")
            import django

            django.setup()
        else:
            setup_django()
        print(
            f"engine and numpy lower bound: best / median of {REPEAT} runs each, in wall time and in the "
            "process's CPU time (the same code; CPU time leaves out the waits of a busy shared machine)"
        )
        for pairs in (200, 1000):
            boards, lines = field(pairs, rng)
            results = sum(len(v) for v in boards.values())
            print(f"{pairs:5d} pairs, {len(boards)} boards, {results} results:")
            for name, clock in (("wall", time.perf_counter), ("CPU", time.process_time)):
                engine = dbbench.best_and_median(engine_times(boards, clock=clock))
                lower = dbbench.best_and_median(
                    [numpy_lower_bound(boards, lines, clock) for _ in range(REPEAT)]
                )
                rows = dbbench.best_and_median(engine_times(boards, read_rows=True, clock=clock))
                print(
                    f"  {name:4s} engine {engine[0] * 1000:6.1f} / {engine[1] * 1000:6.1f} ms, "
                    f"numpy lower bound {lower[0] * 1000:5.1f} / {lower[1] * 1000:5.1f} ms, "
                    f"ratio {engine[0] / lower[0]:4.1f}x / {engine[1] / lower[1]:4.1f}x; "
                    f"with every row read once {rows[0] * 1000:6.1f} / {rows[1] * 1000:6.1f} ms "
                    f"({rows[0] / lower[0]:4.1f}x / {rows[1] / lower[1]:4.1f}x)"
                )
        if ENGINE_ONLY:
            return
        made = {}
        for pairs in (200, 1000):
            runs, (queries, copies), made[pairs] = service_overhead(pairs)
            total = dbbench.best_and_median([r[0] for r in runs])
            engine = dbbench.best_and_median([r[1] for r in runs])
            bound = dbbench.best_and_median([r[2] for r in runs])
            ratio = dbbench.best_and_median([r[0] / (r[2] + r[1]) for r in runs])
            cpu = dbbench.best_and_median([r[4] for r in runs])
            task = dbbench.best_and_median([r[3] for r in runs])
            print(
                f"{pairs:5d} pairs in-process recompute after a new version with one changed result (the "
                f"task's path: the changed board's rows rewritten, the others' digests equal), best / median "
                f"of {len(runs)}: {task[0] * 1000:6.1f} / {task[1] * 1000:6.1f} ms  [load {dbbench.load()}]"
            )
            print(
                f"{pairs:5d} pairs in-process recompute rewriting every row (force), best / median of "
                f"{len(runs)}: {total[0] * 1000:6.1f} / {total[1] * 1000:6.1f} ms (CPU {cpu[0] * 1000:.1f} / "
                f"{cpu[1] * 1000:.1f} ms); engine inside it "
                f"{engine[0] * 1000:5.1f} / {engine[1] * 1000:5.1f} ms; database lower bound (raw psycopg, "
                f"same rows, run before each) {bound[0] * 1000:5.1f} / {bound[1] * 1000:5.1f} ms; "
                f"recompute / (lower bound + engine) {ratio[0]:.1f}x / {ratio[1]:.1f}x; "
                f"{queries} queries + {copies} COPY per recompute  [load {dbbench.load()}]"
            )
        for pairs in (200, 1000):
            times, first, (queries, copies), cpu = incremental(*made[pairs], rng)
            print(
                f"{pairs:5d} pairs, one changed result, incremental recompute (its board and the standings) "
                f"in-process, {len(times)} changes: best {min(times) * 1000:.1f} ms, "
                f"p50 {dbbench.percentile(times, 50) * 1000:.1f} ms, p95 {dbbench.percentile(times, 95) * 1000:.1f} ms "
                f"(CPU p50 {dbbench.percentile(cpu, 50) * 1000:.1f}, p95 {dbbench.percentile(cpu, 95) * 1000:.1f} ms) "
                f"(a worker's first, which reads the session: {first * 1000:.0f} ms); "
                f"{queries} queries + {copies} COPY  [load {dbbench.load()}]"
            )
        for name, (median, queries, copies) in upload_profile(
            *made[200], show="--queries" in sys.argv
        ).items():
            what = name if name.startswith("PBN parse") else f"upload service alone (uploads.submit, {name})"
            counted = "" if queries is None else f"; {queries} queries + {copies} COPY"
            print(
                f"  200 pairs {what}, median of {UPLOAD_RUNS}: {median * 1000:.0f} ms{counted}  [load {dbbench.load()}]"
            )
        latencies, writes = celery_latency(UPLOADS)
        print(
            f"upload -> standings through Celery (200 pairs, {len(latencies)} uploads): "
            f"p50 {dbbench.percentile(latencies, 50) * 1000:.0f} ms, p95 {dbbench.percentile(latencies, 95) * 1000:.0f} ms "
            f"(upload service p50 {dbbench.percentile(writes, 50) * 1000:.0f} ms)  [load {dbbench.load()}]"
        )
    finally:
        if not ENGINE_ONLY:
            from django.db import connections

            connections.close_all()
            _admin(f'DROP DATABASE IF EXISTS "{SCRATCH}" WITH (FORCE)')


if __name__ == "__main__":
    main()
