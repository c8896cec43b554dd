"""A real Celery worker process on a Redis broker runs a task whose effect appears in the database.

Runs in CI (`E2E=1`, PostgreSQL DATABASE_URL, Redis CELERY_BROKER_URL); skipped elsewhere.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from federation.models import Notification
from federation.tasks import send_notification

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.e2e]


def require_services():
    if not os.environ.get("E2E"):
        pytest.skip("end-to-end tests run in CI with E2E=1")
    # Asked for but impossible: fail loudly rather than skip silently.
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
    log = open(ROOT / "var" / "e2e-worker.log", "w")  # noqa: SIM115
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


def wait_for(predicate, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.25)
    return False


def test_worker_sends_a_notification(worker):
    notification = Notification.objects.create(
        recipient="e2e@example.hu", subject="E2E", body="Redis + worker"
    )
    send_notification.delay(notification.pk)
    sent = wait_for(lambda: Notification.objects.filter(pk=notification.pk, sent_at__isnull=False).exists())
    assert sent, (ROOT / "var" / "e2e-worker.log").read_text()[-3000:]
    assert worker.poll() is None, "the worker died"
