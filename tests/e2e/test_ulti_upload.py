"""An ulti round upload is recomputed by a real Celery worker on Redis: "processing" until the worker ran.

Runs in CI (`E2E=1`, PostgreSQL DATABASE_URL, Redis CELERY_BROKER_URL); skipped elsewhere.
"""

import datetime
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection

from federation.models import Federation, Person
from results.services import state_of
from tournaments.models import Entry, EntryMember, Event
from ulti.models import Standing
from ulti.services import draw, setup, uploads

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
    log = open(ROOT / "var" / "e2e-ulti-worker.log", "w")  # noqa: SIM115
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
        ],  # fmt: skip
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    yield proc
    proc.terminate()
    proc.wait(timeout=20)
    log.close()


def wait_for(predicate, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.25)
    return False


def test_upload_is_recomputed_by_the_worker(worker):
    mausz = Federation.objects.create(
        code="mausz", name="Magyar Ultiszövetség", short_name="MAUSZ", game="ulti"
    )
    event = Event.objects.create(
        federation=mausz,
        title="E2E ulti",
        format="ulti_individual",
        event_class="nub_qualifier",
        start_date=datetime.date(2026, 3, 7),
        status="approved",
        rule_set="mausz",
    )
    for i in range(6):
        person = Person.objects.create(
            first_name=f"J{i}", last_name="E2E", birth_date=datetime.date(1970, 1, 1), gender="M"
        )
        EntryMember.objects.create(entry=Entry.objects.create(event=event), person=person)
    user = get_user_model().objects.create_user("e2e.ulti@example.hu", "e2e.ulti@example.hu", "jelszo-12345")
    group = setup.start_event(event, user).groups.get()
    rnd = draw.publish_round(draw.generate_round(group, user), user)
    results = {}
    for table in rnd.tables.all():
        ids = list(table.seats.order_by("position").values_list("participant_id", flat=True))
        results[table.number] = dict(zip(ids, (300, -100, -200), strict=True))
    uploads.upload_round(rnd, results, user=user)
    done = wait_for(lambda: not state_of(event.pk, "ulti").processing)
    assert done, (ROOT / "var" / "e2e-ulti-worker.log").read_text()[-3000:]
    assert Standing.objects.filter(stage=group.stage, after_round=1).count() == 6
    assert worker.poll() is None, "the worker died"
