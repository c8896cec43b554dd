"""The recompute sweeper and uploads during a broker outage (SQLite; Celery eager unless a test says so).

The broker outage is real, not a mock (`broker_down` in tests/conftest.py).
"""

import datetime
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from bridge.models import ResultVersion, SessionStanding
from bridge.services import SCOPE, setup
from bridge.services.compute import record_failure
from config.celery import publish
from demo import bridge_sample as sample
from federation.models import Role
from results.models import RecomputeState
from results.services import mark_uploaded, state_of
from results.tasks import RECOMPUTE_TASKS, stale_states, sweep_recomputes
from tests.conftest import celery_broker

START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=12, title="Tavaszi páros", start=START)


@pytest.fixture
def session(event):
    return setup.create_session(
        event,
        movement="mitchell",
        pairs=setup.pairs_from_entries(event),
        announced=event.sessions.first(),
        boards_per_round=3,
    )


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


def upload(client, session, rows):
    return client.post(
        f"/api/v1/bridge/sessions/{session.pk}/upload/",
        {"file": SimpleUploadedFile("session.pbn", sample.pbn_text(session, rows).encode()), "note": "x"},
    )


def standings(session):
    return sorted(
        SessionStanding.objects.filter(session=session).values_list(
            "pair__number", "field", "total", "percentage", "place"
        )
    )


def age(event_id, scope, seconds):
    """Pretend the last upload happened `seconds` ago."""
    past = timezone.now() - datetime.timedelta(seconds=seconds)
    RecomputeState.objects.filter(event_id=event_id, scope=scope).update(marked_at=past)


def test_every_result_pipeline_registers_its_recompute():
    names = {scope: task.name for scope, task in RECOMPUTE_TASKS.items()}
    assert names == {
        "bridge-pairs": "bridge.tasks.recompute_pair_results",
        "bridge-individual": "bridge.tasks.recompute_individual_results",
        "bridge-teams": "teams.tasks.recompute_event",
        "ulti": "ulti.tasks.recompute_ulti_event",
    }


def test_the_sweeper_runs_on_the_beat_schedule(settings):
    schedule = {entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert schedule["results.tasks.sweep_recomputes"] <= 120


def test_a_frozen_broker_cannot_hang_a_publish_for_ever(settings):
    # Without socket timeouts a SIGSTOPped Redis hangs every upload request (tests/e2e/test_faults.py).
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    assert 0 < options["socket_timeout"] <= 10 and 0 < options["socket_connect_timeout"] <= 10


def test_publishing_with_the_broker_down_reports_failure_instead_of_raising(broker_down):
    assert publish(RECOMPUTE_TASKS[SCOPE], 1) is False


def test_an_upload_with_the_broker_down_is_saved_and_the_sweeper_computes_it(
    broker_down, client, director, session, django_capture_on_commit_callbacks
):
    rows = sample.play(session, random.Random(7))
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True) as published:
        response = upload(client, session, rows)
    assert len(published) == 1  # the recompute was due to be published after the commit, and was tried
    assert response.status_code == 201, response.content
    assert ResultVersion.objects.filter(session=session).count() == 1
    state = state_of(session.event_id, SCOPE)
    assert state.processing and state.marked_at is not None
    assert not SessionStanding.objects.filter(session=session).exists()
    page = client.get(reverse("bridge_session", args=[session.pk])).content.decode()
    assert 'id="processing"' in page

    # Still within the grace period: the sweeper leaves it (its own task may just be on its way).
    assert sweep_recomputes() == 0
    # The broker is still down when the sweep runs: nothing lost, the row stays due.
    age(session.event_id, SCOPE, 600)
    assert sweep_recomputes() == 0
    assert RecomputeState.objects.get(pk=state.pk).swept_at is None

    with celery_broker(None):  # the broker is back (eager: the published task runs here and now)
        assert sweep_recomputes() == 1
    state = state_of(session.event_id, SCOPE)
    assert not state.processing and state.swept_at is not None
    assert len(standings(session)) == 12


def test_a_page_upload_with_the_broker_down_shows_success(
    broker_down, client, director, session, django_capture_on_commit_callbacks
):
    rows = sample.play(session, random.Random(8))
    client.force_login(director)
    client.cookies["django_language"] = "en"
    with django_capture_on_commit_callbacks(execute=True) as published:
        response = client.post(
            reverse("bridge_upload", args=[session.pk]),
            {"file": SimpleUploadedFile("s.pbn", sample.pbn_text(session, rows).encode()), "format": "pbn"},
            follow=True,
        )
    assert len(published) == 1
    assert response.status_code == 200
    page = response.content.decode()
    assert "Version 1 saved; the standings are being computed." in page and 'id="processing"' in page
    assert ResultVersion.objects.filter(session=session).count() == 1
    assert state_of(session.event_id, SCOPE).processing


def test_the_sweeper_leaves_current_recent_and_just_swept_rows_alone(event, other_event):
    RecomputeState.objects.create(event=event, scope=SCOPE, latest_version=2, computed_version=2)  # current
    mark_uploaded_outside(other_event.pk, SCOPE)
    assert sweep_recomputes() == 0  # recent
    age(other_event.pk, SCOPE, 600)
    RecomputeState.objects.filter(event=other_event).update(swept_at=timezone.now())
    assert sweep_recomputes() == 0  # swept a moment ago
    RecomputeState.objects.filter(event=other_event).update(
        swept_at=timezone.now() - datetime.timedelta(hours=1)
    )
    assert sweep_recomputes() == 1
    assert not state_of(other_event.pk, SCOPE).processing
    assert state_of(event.pk, SCOPE).computed_at is None  # the current row was never recomputed


def test_a_refused_recompute_is_swept_once_per_upload(event):
    mark_uploaded_outside(event.pk, SCOPE)
    record_failure(event.pk, "the engine refused board 3")
    age(event.pk, SCOPE, 600)

    def due():
        return list(stale_states(timezone.now(), 0).filter(event=event))

    assert due()  # never swept since the upload: one more try
    RecomputeState.objects.filter(event=event).update(swept_at=timezone.now())
    assert not due()  # tried after the upload and still refused: not every minute
    mark_uploaded_outside(event.pk, SCOPE)  # a new version: worth a try
    assert due()


@pytest.fixture
def other_event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=8, title="Őszi páros", start=START)


def mark_uploaded_outside(event_id, scope):
    from django.db import transaction

    with transaction.atomic():
        mark_uploaded(event_id, scope)


@pytest.mark.parametrize("scope", ["bridge-pairs", "bridge-teams", "ulti"])
def test_the_sweeper_recomputes_each_scope_with_its_own_task(event, scope):
    if scope == "bridge-teams":
        from teams.models import TeamEvent
        from tournaments.models import Event

        Event.objects.filter(pk=event.pk).update(format=Event.Format.TEAMS)
        TeamEvent.objects.create(event=event)
    mark_uploaded_outside(event.pk, scope)
    age(event.pk, scope, 600)
    assert sweep_recomputes() == 1
    state = state_of(event.pk, scope)
    assert state.computed_version == state.latest_version == 1 and state.computed_at is not None
    RECOMPUTE_TASKS[scope](event.pk)  # a duplicate (the original message arriving late) changes nothing
    again = state_of(event.pk, scope)
    assert (again.computed_version, again.latest_version, again.error) == (1, 1, "")
    assert sweep_recomputes() == 0


def test_recomputing_twice_gives_the_same_standings(
    client, director, session, django_capture_on_commit_callbacks
):
    from bridge.tasks import recompute_pair_results

    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        assert upload(client, session, sample.play(session, random.Random(9))).status_code == 201
    first = standings(session)
    assert len(first) == 12
    again = recompute_pair_results(session.event_id)
    assert again.get("skipped") and standings(session) == first
    age(session.event_id, SCOPE, 600)
    assert sweep_recomputes() == 0  # current: nothing to sweep
