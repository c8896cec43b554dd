"""Fixtures shared by the whole suite: the two federations, clubs, people and a user for each role."""

import datetime
import os
import socket
from contextlib import contextmanager

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from federation.models import Club, County, Federation, Membership, Person, Region, Role

# CI explores the same examples on every run, so a red build is reproducible and not a roll of the dice;
# local runs keep exploring new ones. No per-example deadline in CI: a test asserts behaviour, not speed (a
# busy 2-core machine made an example "too slow" once, and generating examples "too slow" another time), and
# speed is measured in bench/.
hypothesis_settings.register_profile(
    "ci", derandomize=True, print_blob=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _no_axes_lockout_bleed(settings):
    # Each test starts with clean throttling state (django-axes keeps failures in the database).
    settings.AXES_ENABLED = True


@pytest.fixture(autouse=True)
def _fresh_throttles():
    # The account and API throttles count in the cache (locmem here): each test starts with none counted.
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def mbsz(db):
    return Federation.objects.create(
        code="mbsz", name="Magyar Bridzs Szövetség", short_name="MBSz", game=Federation.BRIDGE
    )


@pytest.fixture
def mausz(db):
    return Federation.objects.create(
        code="mausz", name="Magyar Ultiszövetség", short_name="MAUSZ", game=Federation.ULTI
    )


@pytest.fixture
def regions(mausz):
    dt = Region.objects.create(federation=mausz, code="duna-tisza", name="Duna-Tisza köz")
    ft = Region.objects.create(federation=mausz, code="felso-tisza", name="Felső-Tisza")
    County.objects.create(name="Budapest", region=dt)
    County.objects.create(name="Hajdú-Bihar", region=ft)
    return dt, ft


@pytest.fixture
def bridge_club(mbsz):
    return Club.objects.create(
        federation=mbsz, name="Budapesti Bridzs Egyesület", short_name="BBE", city="Budapest"
    )


@pytest.fixture
def other_bridge_club(mbsz):
    return Club.objects.create(
        federation=mbsz, name="Debreceni Bridzs Club", short_name="DBC", city="Debrecen"
    )


@pytest.fixture
def ulti_club(mausz, regions):
    return Club.objects.create(
        federation=mausz, name="Szolnoki Ulti Egyesület", short_name="SZUE", city="Szolnok", region=regions[0]
    )


@pytest.fixture
def make_person(db):
    counter = {"n": 0}

    def make(
        federation=None,
        club=None,
        birth_date=datetime.date(1970, 5, 17),
        gender=Person.MALE,
        user=None,
        **extra,
    ):
        counter["n"] += 1
        n = counter["n"]
        person = Person.objects.create(
            first_name=extra.pop("first_name", f"Játékos{n}"),
            last_name=extra.pop("last_name", "Teszt"),
            birth_date=birth_date,
            gender=gender,
            user=user,
            email=f"p{n}@example.hu",
            **extra,
        )
        if federation is not None:
            prefix = "B" if federation.game == Federation.BRIDGE else "U"
            Membership.objects.create(
                person=person, federation=federation, member_number=f"{prefix}{1000 + n}", club=club
            )
        return person

    return make


@pytest.fixture
def make_user(db):
    def make(email, *, kind=None, password="jelszo-12345", **scope):
        user = get_user_model().objects.create_user(username=email, email=email, password=password)
        if kind:
            Role.objects.create(user=user, kind=kind, **scope)
        return user

    return make


# --- A broker outage, for the tests of what survives one ------------------------------------------------


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # free once the socket closes: connecting is refused


@contextmanager
def celery_broker(url: str | None):
    """Point the Celery app at `url` (None: eager, as the test settings are) and back afterwards."""
    from config.celery import app

    conf = app.conf
    saved = (conf.task_always_eager, conf.broker_url, os.environ.get("CELERY_BROKER_URL"))

    def switch(eager, url, env):
        conf.task_always_eager = eager
        conf.broker_url = url
        if env is None:
            os.environ.pop("CELERY_BROKER_URL", None)
        else:
            os.environ["CELERY_BROKER_URL"] = env
        app._pool = None
        app.amqp._producer_pool = None

    switch(url is None, url or saved[1], url or saved[2])
    try:
        yield
    finally:
        switch(*saved)


@pytest.fixture
def broker_down():
    """A real broker outage: the Celery app points at a port where nothing listens, so publishing raises
    kombu's OperationalError exactly as it does when Redis is down."""
    with celery_broker(f"redis://127.0.0.1:{closed_port()}/0"):
        yield


# --- The seeded demo, shared by a module's tests ---------------------------------------------------------


@contextmanager
def seeded_demo(django_db_blocker, then=None):
    """Load the seeded demo (and then run `then()`) inside a transaction rolled back when the block ends;
    yields what `then()` returned. For module-scoped fixtures: seed_demo runs once per test process, later
    modules get its rows written back (tests/demo_snapshot.py)."""
    from django.db import transaction

    from tests.demo_snapshot import load_demo

    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            load_demo()
            built = then() if then is not None else None
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    try:
        yield built
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture
def english_pages(client, settings):
    """A test that reads the English source texts: its pages in English (the language switch's cookie) and
    its service messages too. The Hungarian pages are the default everywhere else."""
    from django.utils import translation

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    settings.LANGUAGE_CODE = "en"  # every other client of the test, too
    with translation.override("en"):
        yield


@pytest.fixture
def portal():
    """The portal called as gunicorn calls it, with and without the live polls' fast path in front of Django
    (tests/results/live_wsgi.py), on an empty cache (the page cache's copies and polled entries)."""
    from django.core.cache import cache

    from tests.results.live_wsgi import Portal

    cache.clear()
    yield Portal()
    cache.clear()
