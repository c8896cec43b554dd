"""A 60-pair session uploaded through the API becomes visible standings through a real Celery worker.

Runs with E2E=1, a PostgreSQL DATABASE_URL and a Redis CELERY_BROKER_URL (see test_celery_worker.py).
"""

import datetime
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from bridge.models import SessionStanding
from bridge.services import SCOPE, sample, setup
from federation.models import Federation, Role
from results.services import state_of

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.e2e]


def require_services():
    if not os.environ.get("E2E"):
        pytest.skip("end-to-end tests run in CI with E2E=1")
    assert connection.vendor == "postgresql", "E2E needs DATABASE_URL pointing at PostgreSQL"
    assert settings.CELERY_BROKER_URL.startswith("redis://"), "E2E needs CELERY_BROKER_URL on Redis"
    assert not settings.CELERY_TASK_ALWAYS_EAGER


@pytest.fixture
def worker(transactional_db):
    require_services()
    import redis

    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
    db = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER'] or 'postgres'}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
    }
    log = open(ROOT / "var" / "e2e-bridge-worker.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    yield proc
    proc.terminate()
    proc.wait(timeout=20)
    log.close()


def wait_for(predicate, timeout=90):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def test_an_uploaded_60_pair_session_becomes_standings_through_the_worker(worker, client, make_user):
    mbsz = Federation.objects.create(
        code="mbsz", name="Magyar Bridzs Szövetség", short_name="MBSz", game="bridge"
    )
    start = timezone.now() - datetime.timedelta(hours=4)
    event = sample.event_with_pairs(mbsz, pairs=60, title="E2E páros", start=start)
    director = make_user("td@example.hu", kind=Role.DIRECTOR, event=event)
    session = setup.create_session(
        event,
        movement="mitchell",
        pairs=setup.pairs_from_entries(event),
        announced=event.sessions.first(),
        sections=2,
    )
    rows = sample.play(session, random.Random(60))
    client.force_login(director)
    response = client.post(
        f"/api/v1/bridge/sessions/{session.pk}/upload/",
        {"file": SimpleUploadedFile("session.pbn", sample.pbn_text(session, rows).encode()), "note": "e2e"},
    )
    assert response.status_code == 201, response.content
    done = wait_for(lambda: not state_of(event.pk, SCOPE).processing)
    assert done, (ROOT / "var" / "e2e-bridge-worker.log").read_text()[-3000:]
    assert worker.poll() is None, "the worker died"
    assert SessionStanding.objects.filter(session=session).count() == 60
    page = client.get(reverse("bridge_session", args=[session.pk])).content.decode()
    assert 'id="processing"' not in page and page.count("bridge/sessions/") >= 60
