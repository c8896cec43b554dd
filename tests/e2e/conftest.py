"""A real Celery worker process for the end-to-end tests, on the Redis broker and the PostgreSQL test DB.

The tests run with E2E=1, a PostgreSQL DATABASE_URL and a Redis CELERY_BROKER_URL (CI sets them); asked
for but impossible, they fail loudly instead of skipping.
"""

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

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


@pytest.fixture
def public_pages(transactional_db):
    """One URL of every public page type on the demo data, and the ones only the event's staff open."""
    from bridge.models import IndividualEvent, PairSession, SessionStanding
    from federation.models import Club, Person
    from teams.models import Match
    from teams.models import Round as TeamRound
    from tournaments.models import Event
    from ulti.models import Round as UltiRound
    from ulti.models import UltiEvent

    call_command("seed_demo", stdout=io.StringIO())
    session = PairSession.objects.exclude(published_at=None).order_by("pk").first()
    standing = SessionStanding.objects.filter(session=session).order_by("pk").first()
    team_round = TeamRound.objects.order_by("pk").first()
    team_event = team_round.event_id
    match = Match.objects.filter(round__event_id=team_event).exclude(away=None).order_by("pk").first()
    ulti_event = UltiEvent.objects.order_by("event_id").first().event_id
    ulti_round = UltiRound.objects.order_by("pk").first()
    person = Person.objects.filter(pk=standing.pair.pair.player1_id).first() or Person.objects.first()
    individual = IndividualEvent.objects.exclude(published_at=None).order_by("pk").first().event_id
    live = (
        PairSession.objects.filter(published_at=None, table_codes__isnull=False).distinct().get()
    )  # demo.bridge_live
    table_code = live.table_codes.order_by("table").first().code
    ulti_live = (
        UltiRound.objects.filter(results_published_at=None, tables__code__isnull=False).distinct().get()
    )
    ulti_code = ulti_live.tables.order_by("number").last().code.code  # demo.ulti_live: a table still playing

    def ulti_of(event_format):
        """An ulti event of the format (ulti teams, sport ulti) and its first published round."""
        rounds = UltiRound.objects.filter(group__stage__event__format=event_format).exclude(published_at=None)
        first = rounds.order_by("pk").first()
        return first.group.stage.event_id, first.pk

    ulti_teams, ulti_teams_round = ulti_of(Event.Format.ULTI_TEAM)
    sport, sport_round = ulti_of(Event.Format.SPORT_ULTI)
    public = {
        "calendar": reverse("calendar"),
        "event": reverse("event_detail", args=[session.event_id]),
        "bridge event": reverse("bridge_event", args=[session.event_id]),
        "bridge session standings": reverse("bridge_session", args=[session.pk]),
        "frequency sheet": reverse("bridge_frequencies", args=[session.pk]),
        "score card": reverse("bridge_score_card", args=[session.pk, standing.pair_id]),
        "hand records": reverse("bridge_hand_records", args=[session.pk]),
        "team standings": reverse("teams_standings", args=[team_event]),
        "team round": reverse("teams_round", args=[team_event, team_round.number]),
        "team match": reverse("teams_match", args=[match.pk]),
        "team bracket": reverse("teams_bracket", args=[team_event]),
        "ulti standings": reverse("ulti_standings", args=[ulti_event]),
        "ulti round": reverse("ulti_round", args=[ulti_round.pk]),
        "ulti teams standings": reverse("ulti_standings", args=[ulti_teams]),
        "ulti teams round": reverse("ulti_round", args=[ulti_teams_round]),
        "sport ulti standings": reverse("ulti_standings", args=[sport]),
        "sport ulti round": reverse("ulti_round", args=[sport_round]),
        "home": reverse("home"),
        "results index": reverse("results"),
        "scoring scheme": reverse("rankings_scheme", args=["mbsz"]),
        "rankings list": reverse("rankings"),
        "person": reverse("person_detail", args=[person.pk]),
        "club": reverse("club_detail", args=[Club.objects.order_by("pk").first().pk]),
        "individual standings": reverse("bridge_individual", args=[individual]),
        "individual travellers": reverse("bridge_individual_boards", args=[individual]),
        "individual player": reverse("bridge_individual_player", args=[individual, 1]),
        "bridge live session": reverse("bridge_session", args=[live.pk]),
        "bridge live frequencies": reverse("bridge_frequencies", args=[live.pk]),
        "bridge table (phone)": reverse("bridge_table", args=[table_code]),
        "ulti live round": reverse("ulti_round", args=[ulti_live.pk]),
        "ulti table (phone)": reverse("ulti_table", args=[ulti_code]),
    }
    staff = {
        "traveller": reverse("bridge_traveller", args=[session.pk, 1]),
        "bridge versions": reverse("bridge_versions", args=[session.pk]),
        "ulti versions": reverse("ulti_versions", args=[ulti_event]),
        "individual upload": reverse("bridge_individual_upload", args=[individual]),
        "individual decisions": reverse("bridge_individual_decide", args=[individual]),
        "control room": reverse("bridge_control_room", args=[live.pk]),
        "table codes": reverse("bridge_table_codes", args=[live.pk]),
        "ulti control room": reverse("ulti_control_room", args=[ulti_live.pk]),
    }
    return public, staff
