"""Publishing less than 30 minutes before the next session warns: the VSz 12 / 26 window then ends 15 minutes
before that session (sessions at 10:00 and 15:00)."""

import datetime
import random

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone, translation
from freezegun import freeze_time

from bridge.services import corrections, setup, upload_readers, uploads
from demo import bridge_sample as sample
from federation.models import Role
from results.models import VersionedUpload

pytestmark = pytest.mark.django_db
START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))
NEXT = START + datetime.timedelta(hours=5)


@pytest.fixture(autouse=True)
def _urls_loaded_before_freezing():
    reverse("results")


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=10, title="Kétfordulós páros", start=START, sessions=2)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


def _session(event, director, number):
    announced = event.sessions.order_by("starts_at")[number - 1]
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=announced
    )
    rows = sample.play(session, random.Random(number))
    uploads.upload(
        session,
        upload_readers.parse_csv(sample.csv_text(session, rows)),
        source=VersionedUpload.Source.CSV,
        user=director,
    )
    return session


def test_the_warning_by_the_minutes_left(event, director):
    first = _session(event, director, 1)
    # 60 and 30 minutes before: the usual 30-minute window fits, no warning.
    assert corrections.publish_warning(first, NEXT - datetime.timedelta(minutes=60)) == ""
    assert corrections.publish_warning(first, NEXT - datetime.timedelta(minutes=30)) == ""
    warning = corrections.publish_warning(first, NEXT - datetime.timedelta(minutes=29))
    assert "15:00" in warning and "ends 15 minutes before it, at 14:45" in warning
    closed = corrections.publish_warning(first, NEXT - datetime.timedelta(minutes=10))
    assert "closed at 14:45" in closed
    # The last session has no next one: the window is the 30 minutes after publication.
    second = _session(event, director, 2)
    assert corrections.publish_warning(second, NEXT + datetime.timedelta(hours=4)) == ""


@pytest.mark.usefixtures("english_pages")
def test_the_director_is_warned_before_and_when_publishing(client, event, director):
    first = _session(event, director, 1)
    client.force_login(director)
    with freeze_time(NEXT - datetime.timedelta(minutes=20)):
        page = client.get(reverse("bridge_session", args=[first.pk])).content.decode()
        assert 'id="publish-warning"' in page and "14:45" in page
        response = client.post(reverse("bridge_publish", args=[first.pk]))
    shown = [str(m) for m in get_messages(response.wsgi_request)]
    assert any("ends 15 minutes before it, at 14:45" in m for m in shown)
    first.refresh_from_db()
    assert first.published_at is not None
    # Published, the deadline the page gives is the one the warning named.
    assert timezone.localtime(corrections.correction_deadline(first)).strftime("%H:%M") == "14:45"


def test_no_warning_when_there_is_time(client, event, director):
    first = _session(event, director, 1)
    client.force_login(director)
    with freeze_time(NEXT - datetime.timedelta(hours=1)):
        assert (
            'id="publish-warning"'
            not in client.get(reverse("bridge_session", args=[first.pk])).content.decode()
        )
        response = client.post(reverse("bridge_publish", args=[first.pk]))
    assert [m.level_tag for m in get_messages(response.wsgi_request)] == ["success"]
