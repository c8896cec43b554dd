"""A 60-pair session uploaded through the API becomes visible standings through a real Celery worker.

Runs with E2E=1, a PostgreSQL DATABASE_URL and a Redis CELERY_BROKER_URL (see test_celery_worker.py).
"""

import datetime
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from bridge.models import SessionStanding
from bridge.services import SCOPE, setup
from demo import bridge_sample as sample
from federation.models import Federation, Role
from results.services import state_of

pytestmark = [pytest.mark.e2e]


def test_an_uploaded_60_pair_session_becomes_standings_through_the_worker(
    worker, wait_for, client, make_user
):
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
    assert done, worker.log_path.read_text()[-3000:]
    assert worker.poll() is None, "the worker died"
    assert SessionStanding.objects.filter(session=session).count() == 60
    page = client.get(reverse("bridge_session", args=[session.pk])).content.decode()
    assert 'id="processing"' not in page and page.count("bridge/sessions/") >= 60
