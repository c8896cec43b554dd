"""Faults with the real services: a worker killed mid-recompute, the broker stopped during an upload,
PostgreSQL restarted in the middle of a request.

Runs with E2E=1, a PostgreSQL DATABASE_URL and a Redis CELERY_BROKER_URL (like the other e2e tests). The
broker outage uses a private redis-server on a free port (the shared Redis is never touched); the
PostgreSQL restart uses a private cluster (initdb as the postgres user) with a gunicorn process in front.
"""

import datetime
import os
import random
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import psutil
import pytest
import requests
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.urls import get_resolver, reverse
from django.utils import timezone

from bridge.models import BoardResult, EventStanding, ResultVersion, SessionStanding
from bridge.services import SCOPE, compute, setup
from demo import bridge_sample as sample
from federation.models import Federation, Role
from results.models import RecomputeState
from results.services import state_of
from results.tasks import sweep_recomputes
from tests.conftest import celery_broker

pytestmark = [pytest.mark.e2e]

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def bridge_event(pairs=60, sessions=1, title="Hibatűrés"):
    mbsz = Federation.objects.get_or_create(
        code="mbsz", defaults={"name": "Magyar Bridzs Szövetség", "short_name": "MBSz", "game": "bridge"}
    )[0]
    start = timezone.now() - datetime.timedelta(hours=4)
    return sample.event_with_pairs(mbsz, pairs=pairs, title=title, start=start, sessions=sessions)


def new_session(event, number=1):
    return setup.create_session(
        event,
        movement="mitchell",
        pairs=setup.pairs_from_entries(event),
        announced=event.sessions.order_by("starts_at")[number - 1],
        sections=2,
    )


def upload(client, session, seed, timed=None):
    """POST a played session's PBN through the API; `timed(seconds)` gets the request's own duration."""
    rows = sample.play(session, random.Random(seed))
    data = {
        "file": SimpleUploadedFile("session.pbn", sample.pbn_text(session, rows).encode()),
        "note": "fault",
    }
    began = time.monotonic()
    response = client.post(f"/api/v1/bridge/sessions/{session.pk}/upload/", data)
    if timed:
        timed(time.monotonic() - began)
    return response


def snapshot(event_id):
    """Every stored standing of the event, in a comparable form."""
    events = sorted(
        EventStanding.objects.filter(event_id=event_id).values_list("pair_id", "total", "place", "order")
    )
    sessions = sorted(
        SessionStanding.objects.filter(session__event_id=event_id).values_list(
            "session_id", "pair__pair_id", "field", "total", "percentage", "place"
        )
    )
    return events, sessions


def dsn() -> str:
    db = settings.DATABASES["default"]
    return f"host={db['HOST']} port={db['PORT']} dbname={db['NAME']} user={db['USER'] or 'postgres'}"


@contextmanager
def standings_held(event_id):
    """Row locks on the event's stored standings from a connection of our own, so a recompute that
    starts now stops in the middle: event locked, old rows half deleted, waiting to delete these."""
    import psycopg

    with psycopg.connect(dsn()) as held:
        held.execute(
            f"SELECT id FROM {EventStanding._meta.db_table} WHERE event_id = %s FOR UPDATE", [event_id]
        ).fetchall()
        yield
        held.rollback()


def waiting_backends() -> set[int]:
    """Backends (the worker's recompute) waiting for a row lock inside their transaction."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND wait_event_type = 'Lock' AND xact_start IS NOT NULL"
        )
        return {pid for (pid,) in cursor.fetchall()}


def backend_gone(pids):
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", [list(pids)])
        return cursor.fetchone()[0] == 0


def converged(event_id):
    state = state_of(event_id, SCOPE)
    return state is not None and state.computed_at is not None and not state.processing


def assert_same_as_a_serial_run(event_id):
    """The standings the workers left are exactly what one uninterrupted in-process recompute writes."""
    after_faults = snapshot(event_id)
    assert after_faults[0] and after_faults[1]
    compute.recompute_event(event_id, force=True)
    assert snapshot(event_id) == after_faults
    state = state_of(event_id, SCOPE)
    assert state.computed_version == state.latest_version and not state.error


@pytest.fixture
def figure(request):
    """Print a measured figure (seen with -rP); docs/reliability.md quotes them."""

    def show(name, value):
        print(f"FIGURE {request.node.name}: {name} = {value}")

    return show


@pytest.fixture
def director_client(client, make_user):
    # Import every view now: a timed request then measures the request, not the first import.
    assert get_resolver().url_patterns

    def login(event):
        client.force_login(make_user(f"td{event.pk}@example.hu", kind=Role.DIRECTOR, event=event))
        return client

    return login


@pytest.fixture
def shared_broker_clean(e2e_services):
    import redis

    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
    yield
    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()


def test_a_pool_process_killed_mid_recompute_is_redelivered_and_the_standings_converge(
    start_worker, shared_broker_clean, director_client, wait_for, figure
):
    """prefork: SIGKILL of the child running the recompute; the parent rejects the message
    (acks_late + reject_on_worker_lost), Redis redelivers it to the new child."""
    worker = start_worker(pool="prefork")
    event = bridge_event(pairs=30, sessions=2)
    client = director_client(event)
    first, second = new_session(event, 1), new_session(event, 2)
    assert upload(client, first, 1).status_code == 201
    assert wait_for(lambda: converged(event.pk)), worker.log_path.read_text()[-3000:]

    with standings_held(event.pk):
        assert upload(client, second, 2).status_code == 201
        assert wait_for(waiting_backends, timeout=30), worker.log_path.read_text()[-3000:]
        recompute_backends = waiting_backends()
        children = psutil.Process(worker.pid).children()
        assert len(children) == 1
        os.kill(children[0].pid, signal.SIGKILL)
        killed_at = time.monotonic()
    # Once the lock is free the orphaned backend finds its client gone and rolls back.
    assert wait_for(lambda: backend_gone(recompute_backends), timeout=10)

    assert wait_for(lambda: converged(event.pk), timeout=60), worker.log_path.read_text()[-3000:]
    figure("redelivered_and_recomputed_s", round(time.monotonic() - killed_at, 1))
    log = worker.log_path.read_text()
    assert "signal 9" in log and "WorkerLostError" in log, log[-3000:]
    assert worker.poll() is None
    assert_same_as_a_serial_run(event.pk)


def test_a_worker_killed_mid_recompute_is_replaced_and_the_sweeper_finishes_the_job(
    start_worker, shared_broker_clean, director_client, wait_for, figure
):
    """solo: SIGKILL of the whole worker; its transaction rolls back (no partial standings), the message
    stays unacknowledged in Redis until the visibility timeout (600 s), and the sweeper re-publishes the
    recompute for the new worker."""
    worker = start_worker()
    event = bridge_event(pairs=30, sessions=2)
    client = director_client(event)
    first, second = new_session(event, 1), new_session(event, 2)
    assert upload(client, first, 3).status_code == 201
    assert wait_for(lambda: converged(event.pk)), worker.log_path.read_text()[-3000:]
    before = snapshot(event.pk)

    with standings_held(event.pk):
        assert upload(client, second, 4).status_code == 201
        assert wait_for(waiting_backends, timeout=30), worker.log_path.read_text()[-3000:]
        recompute_backends = waiting_backends()
        # The supervisor's replacement boots meanwhile (it finds nothing to do: the message is reserved).
        replacement = start_worker()
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait(timeout=10)
        killed_at = time.monotonic()
    # Once the lock is free the orphaned backend finds its client gone and rolls back.
    assert wait_for(lambda: backend_gone(recompute_backends), timeout=10)

    # The killed transaction had deleted the old rows; it rolled back: they are all there, unchanged.
    assert snapshot(event.pk) == before
    assert state_of(event.pk, SCOPE).processing
    assert not SessionStanding.objects.filter(session=second).exists()

    # What beat does every minute, with no grace period: the sweep runs on the new worker.
    sweep_recomputes.delay(0)
    assert wait_for(lambda: converged(event.pk), timeout=60), replacement.log_path.read_text()[-3000:]
    figure("swept_and_recomputed_s", round(time.monotonic() - killed_at, 1))
    assert replacement.poll() is None
    assert RecomputeState.objects.get(event=event, scope=SCOPE).swept_at is not None
    assert_same_as_a_serial_run(event.pk)


class PrivateRedis:
    """A redis-server of our own on a free port (no persistence), started and stopped at will."""

    def __init__(self, workdir):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.workdir = workdir
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        import redis

        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "the private redis-server did not start"
                time.sleep(0.05)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


@pytest.fixture
def private_redis(tmp_path):
    if not shutil.which("redis-server"):
        pytest.fail("redis-server is needed for the broker outage test")
    server = PrivateRedis(tmp_path)
    server.start()
    yield server
    server.stop()


def test_an_upload_while_redis_is_down_is_saved_and_computed_when_it_is_back(
    start_worker, private_redis, director_client, wait_for, figure
):
    worker = start_worker(broker_url=private_redis.url)
    event = bridge_event(pairs=20, sessions=1)
    client = director_client(event)
    session = new_session(event, 1)
    with celery_broker(private_redis.url):
        private_redis.stop()
        response = upload(
            client, session, 4, lambda took: figure("upload_with_broker_down_s", round(took, 2))
        )
        assert response.status_code == 201, response.content
        assert ResultVersion.objects.filter(session=session).count() == 1
        assert BoardResult.objects.filter(version__session=session).exists()
        assert state_of(event.pk, SCOPE).processing
        page = client.get(reverse("bridge_session", args=[session.pk])).content.decode()
        assert 'id="processing"' in page

        private_redis.start()
        back_at = time.monotonic()
        # The worker reconnects by itself; beat's next sweep (here without the grace period) re-publishes.
        sweep_recomputes.delay(0)
        assert wait_for(lambda: converged(event.pk), timeout=60), worker.log_path.read_text()[-3000:]
        figure("broker_back_to_standings_s", round(time.monotonic() - back_at, 1))
    assert worker.poll() is None, "the worker died during the outage"
    assert SessionStanding.objects.filter(session=session).count() == 20
    page = client.get(reverse("bridge_session", args=[session.pk])).content.decode()
    assert 'id="processing"' not in page


def test_an_upload_while_redis_is_frozen_answers_within_seconds_and_is_computed_later(
    start_worker, private_redis, director_client, wait_for, figure
):
    """SIGSTOP: the broker accepts connections but never answers (a hung server, a half-open link). The
    socket timeouts in CELERY_BROKER_TRANSPORT_OPTIONS bound the publish; without them it hangs for ever."""
    worker = start_worker(broker_url=private_redis.url)
    event = bridge_event(pairs=20, sessions=1, title="Fagyott broker")
    client = director_client(event)
    session = new_session(event, 1)
    with celery_broker(private_redis.url):
        private_redis.proc.send_signal(signal.SIGSTOP)
        took = []
        try:
            response = upload(client, session, 6, took.append)
        finally:
            private_redis.proc.send_signal(signal.SIGCONT)
        figure("upload_with_broker_frozen_s", round(took[0], 1))
        assert response.status_code == 201, response.content
        assert took[0] < 15
        assert state_of(event.pk, SCOPE).processing
        sweep_recomputes.delay(0)
        assert wait_for(lambda: converged(event.pk), timeout=60), worker.log_path.read_text()[-3000:]
    assert worker.poll() is None
    assert SessionStanding.objects.filter(session=session).count() == 20


def as_postgres(command: list[str]) -> None:
    """Run a PostgreSQL server command as the postgres user (initdb and pg_ctl refuse to run as root)."""
    if os.geteuid() == 0:
        command = ["su", "postgres", "-s", "/bin/sh", "-c", shlex.join(command)]
    subprocess.run(command, check=True, capture_output=True, timeout=60)


class PrivatePostgres:
    """A PostgreSQL cluster of our own (initdb, own port and socket directory), restarted at will."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="vp-faults-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")

    def initdb(self):
        binaries = sorted(Path("/usr/lib/postgresql").glob("*/bin"))
        self.bin = binaries[-1] if binaries else Path(shutil.which("pg_ctl")).parent
        as_postgres(
            [str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync"]
        )

    def pg_ctl(self, *args):
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        as_postgres([str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.dir / "log"), "-o", options,
                     "-w", "-t", "30", *args])  # fmt: skip

    def url(self, name):
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def remove(self):
        try:
            self.pg_ctl("-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def private_postgres():
    if not (shutil.which("pg_dump") and shutil.which("pg_restore")):
        pytest.fail("pg_dump and pg_restore are needed for the PostgreSQL restart test")
    cluster = PrivatePostgres()
    cluster.initdb()
    cluster.pg_ctl("start")
    yield cluster
    cluster.remove()


def copy_test_database(cluster, name):
    """The test database (schema and the rows the test made) into the private cluster."""
    db = settings.DATABASES["default"]
    dump = cluster.dir / "test.dump"
    source = ["-h", db["HOST"], "-p", str(db["PORT"]), "-U", db["USER"] or "postgres"]
    subprocess.run(["pg_dump", *source, "-Fc", "-f", str(dump), db["NAME"]], check=True, timeout=120)
    target = ["-h", "127.0.0.1", "-p", str(cluster.port), "-U", "postgres"]
    subprocess.run(["createdb", *target, name], check=True, timeout=30)
    subprocess.run(["pg_restore", *target, "--no-owner", "--exit-on-error", "-d", name, str(dump)], check=True,
                   timeout=120)  # fmt: skip


@pytest.fixture
def web_server(tmp_path):
    """gunicorn serving the portal (DEBUG off, as in production) on a database URL of the test's choice."""
    started = []

    def start(database_url):
        port = free_port()
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "DJANGO_SETTINGS_MODULE": "config.settings_test",
            "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1",
        }
        log = open(tmp_path / "gunicorn.log", "w")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}", "-w", "1",
             "--timeout", "60"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        started.append((proc, log))
        proc.base = f"http://127.0.0.1:{port}"
        proc.log_path = tmp_path / "gunicorn.log"
        deadline = time.monotonic() + 30
        while True:
            try:
                requests.get(proc.base + "/", timeout=30)
                return proc
            except requests.ConnectionError:
                assert proc.poll() is None and time.monotonic() < deadline, proc.log_path.read_text()[-3000:]
                time.sleep(0.2)

    yield start
    for proc, log in started:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()


def test_postgresql_restarted_mid_upload_gives_a_clean_error_and_nothing_half_written(
    e2e_services, shared_broker_clean, private_postgres, web_server, make_user, wait_for, figure
):
    """A real restart (pg_ctl restart -m fast) of a private cluster while an upload request is inside its
    transaction: a 503 with Retry-After and no traceback, nothing of the upload stored, the next request works."""
    import psycopg
    from rest_framework.authtoken.models import Token

    event = bridge_event(pairs=20, sessions=1)
    session = new_session(event, 1)
    director = make_user("td-pg@example.hu", kind=Role.DIRECTOR, event=event)
    token = Token.objects.create(user=director)
    pbn = sample.pbn_text(session, sample.play(session, random.Random(5))).encode()
    began = time.monotonic()
    copy_test_database(private_postgres, "vp")
    server = web_server(private_postgres.url("vp"))
    figure("private_cluster_ready_s", round(time.monotonic() - began, 1))

    def post():
        return requests.post(
            f"{server.base}/api/v1/bridge/sessions/{session.pk}/upload/",
            headers={"Authorization": f"Token {token.key}"},
            files={"file": ("session.pbn", pbn)},
            data={"note": "restart"},
            timeout=60,
        )

    private = f"host=127.0.0.1 port={private_postgres.port} dbname=vp user=postgres"
    result = {}
    blocker = psycopg.connect(private, autocommit=False)
    try:
        # An uncommitted version 1 of the session from another connection: the upload's INSERT of its
        # version 1 waits on it, after the upload has already bumped the event's version in its transaction.
        blocker.execute(
            "INSERT INTO bridge_resultversion (number, source, uploaded_at, note, file_name, sha256, "
            "event_version, deals, sources, raw, session_id, uploaded_by_id) "
            "VALUES (1, 'pbn', now(), '', '', '', 1, '{}', '{}', '', %s, %s)",
            [session.pk, director.pk],
        )
        request = threading.Thread(target=lambda: result.update(response=post()))
        request.start()

        def waiting_queries():
            with psycopg.connect(private, autocommit=True) as watcher:
                return [
                    query
                    for (query,) in watcher.execute(
                        "SELECT query FROM pg_stat_activity WHERE datname = 'vp' AND wait_event_type = 'Lock'"
                    )
                ]

        assert wait_for(waiting_queries, timeout=30), server.log_path.read_text()[-3000:]
        # The request is inside its transaction, past its first write (the event's version).
        assert waiting_queries()[0].startswith('INSERT INTO "bridge_resultversion"')
        restart_began = time.monotonic()
        private_postgres.pg_ctl("-m", "fast", "restart")
        figure("pg_restart_s", round(time.monotonic() - restart_began, 1))
    finally:
        blocker.close()
    request.join(timeout=60)

    failed = result["response"]
    assert failed.status_code == 503, failed.text[:500]
    assert failed.headers["Retry-After"] and "detail" in failed.json()
    assert (
        "Traceback" not in failed.text and "psycopg" not in failed.text and "terminating" not in failed.text
    )
    figure("interrupted_request", f"{failed.status_code} {failed.text.strip()[:60]!r}")
    with psycopg.connect(private) as check:
        stored = check.execute(
            "SELECT (SELECT count(*) FROM bridge_resultversion), (SELECT count(*) FROM bridge_boardresult), "
            "(SELECT coalesce(max(latest_version), 0) FROM results_recomputestate)"
        ).fetchone()
    assert stored == (0, 0, 0), "the interrupted upload left rows behind"

    again = post()
    assert again.status_code == 201, again.text[:500]
    figure("first_request_after_restart", again.status_code)
    with psycopg.connect(private) as check:
        versions, results, latest = check.execute(
            "SELECT (SELECT count(*) FROM bridge_resultversion), (SELECT count(*) FROM bridge_boardresult), "
            "(SELECT max(latest_version) FROM results_recomputestate)"
        ).fetchone()
    assert (versions, latest) == (1, 1) and results > 0
    page = requests.get(server.base + reverse("bridge_session", args=[session.pk]), timeout=30)
    assert page.status_code == 200
