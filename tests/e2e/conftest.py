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


def spawn_worker(log_path, broker_url=None, pool="solo"):
    """Start `celery worker` as a subprocess on the test database; its log goes to `log_path`."""
    db = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER'] or 'postgres'}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
        "CELERY_BROKER_URL": broker_url or settings.CELERY_BROKER_URL,
    }
    log_path.parent.mkdir(exist_ok=True)
    with open(log_path, "a") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", f"--pool={pool}", "--concurrency=1",
             "--loglevel=INFO", "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    proc.log_path = log_path
    return proc


def stop_worker(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


@pytest.fixture
def e2e_services(transactional_db):
    """For a test that starts its own processes: the same services, asked for the same way."""
    require_services()


@pytest.fixture
def worker(transactional_db, request):
    require_services()
    import redis

    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
    log_path = ROOT / "var" / f"e2e-{request.node.name[:60]}.log"
    log_path.unlink(missing_ok=True)
    proc = spawn_worker(log_path)
    yield proc
    stop_worker(proc)


@pytest.fixture
def start_worker(transactional_db, request):
    """Start as many workers as a test needs (another broker, the prefork pool); all stopped at the end."""
    require_services()
    started = []
    log_path = ROOT / "var" / f"e2e-{request.node.name[:60]}.log"
    log_path.unlink(missing_ok=True)

    def start(broker_url=None, pool="solo"):
        proc = spawn_worker(log_path, broker_url, pool)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        stop_worker(proc)


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


@pytest.fixture
def browser():
    """Headless Chromium through selenium (BROWSER=1; CI installs chromium and chromium-driver), in
    Hungarian, with the browser console's log kept for the tests that read it."""
    if os.environ.get("BROWSER") != "1":
        pytest.skip("browser tests run with BROWSER=1")
    webdriver = pytest.importorskip("selenium.webdriver")
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1600", "--lang=hu"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    driver.implicitly_wait(5)
    yield driver
    driver.quit()
