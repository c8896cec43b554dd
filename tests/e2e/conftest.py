"""A real Celery worker process for the end-to-end tests, on the Redis broker and the PostgreSQL test DB.

The tests run with E2E=1, a PostgreSQL DATABASE_URL and a Redis CELERY_BROKER_URL (CI sets them); asked
for but impossible, they fail loudly instead of skipping.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def require_services():
    if not os.environ.get("E2E"):
        pytest.skip("end-to-end tests run in CI with E2E=1")
    assert connection.vendor == "postgresql", "E2E needs DATABASE_URL pointing at PostgreSQL"
    assert settings.CELERY_BROKER_URL.startswith("redis://"), "E2E needs CELERY_BROKER_URL on Redis"
    assert not settings.CELERY_TASK_ALWAYS_EAGER


@pytest.fixture
def worker(transactional_db, request):
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
    log_path = ROOT / "var" / f"e2e-{request.node.name[:60]}.log"
    log_path.parent.mkdir(exist_ok=True)
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "--loglevel=INFO",
             "--without-gossip", "--without-mingle"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        proc.log_path = log_path
        yield proc
        proc.terminate()
        proc.wait(timeout=20)


@pytest.fixture
def wait_for():
    def wait(predicate, timeout=90):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate():
                return True
            time.sleep(0.2)
        return False

    return wait
