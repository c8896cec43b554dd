"""Hand records are computed by a beat task once the session's start has passed, whether or not a recompute
runs (here none does: the on-commit tasks of a test transaction never fire)."""

import datetime

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from freezegun import freeze_time

from bridge import tasks
from bridge.models import HandRecord, SessionStart
from bridge.services import dealing, handrecords, setup
from demo import bridge_sample as sample
from federation.models import Role

pytestmark = pytest.mark.django_db
START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))


@pytest.fixture(autouse=True)
def _urls_loaded_before_freezing():
    reverse("results")


@pytest.fixture
def session(mbsz, make_user):
    event = sample.event_with_pairs(mbsz, pairs=8, title="Lepecsételt", start=START)
    director = make_user("td@example.hu", kind=Role.DIRECTOR, event=event)
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    with freeze_time(START - datetime.timedelta(days=1)):
        dealing.create_deal_set(session, 4, director)
    return session


def test_nothing_before_the_start_then_every_deal_once(session):
    with freeze_time(START - datetime.timedelta(minutes=1)):
        assert handrecords.compute_due() == {}
    assert not HandRecord.objects.exists() and not SessionStart.objects.exists()
    with freeze_time(START + datetime.timedelta(seconds=30)):
        assert handrecords.compute_due() == {session.pk: 4}
        assert handrecords.compute_due() == {}  # idempotent: nothing left to analyse
    assert SessionStart.objects.get(session=session).source == SessionStart.Source.CLOCK
    assert sorted(HandRecord.objects.filter(session=session).values_list("board", flat=True)) == [1, 2, 3, 4]


def test_a_started_session_missing_its_hand_records_gets_them(session):
    # The start was recorded (by the director, say) but the task its commit published was lost.
    with freeze_time(START - datetime.timedelta(minutes=5)):
        dealing.record_start(session, SessionStart.Source.DIRECTOR)
    assert not HandRecord.objects.exists()
    with freeze_time(START + datetime.timedelta(hours=1)):
        assert tasks.compute_due_hand_records.apply().get() == {session.pk: 4}
    assert HandRecord.objects.filter(session=session).count() == 4


def test_the_beat_runs_it():
    entry = settings.CELERY_BEAT_SCHEDULE["bridge-compute-due-hand-records"]
    assert entry["task"] == tasks.compute_due_hand_records.name
