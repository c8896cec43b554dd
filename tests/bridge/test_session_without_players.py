"""Issue #20: a session cannot be set up by seating an empty entry list, nor started with nobody seated;
both refusals say why and write nothing, and with players both go through."""

import datetime

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation

from bridge.models import PairSession, SessionStart
from bridge.services import setup
from demo import bridge_sample as sample
from federation.models import Role

START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client):
    """The services and the pages in English (the messages are read in English here)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    with translation.override("en"):
        yield


def _event(mbsz, pairs):
    return sample.event_with_pairs(mbsz, pairs=pairs, title=f"Üres {pairs}", start=START)


def test_seating_nobody_is_refused_and_writes_nothing(mbsz):
    event = _event(mbsz, 0)
    with pytest.raises(setup.SetupError, match="No pairs to seat"):
        setup.create_session(event, movement="mitchell", pairs=setup.pairs_from_entries(event))
    assert not PairSession.objects.filter(event=event).exists()


def test_seating_the_entries_works_when_there_are_some(mbsz):
    event = _event(mbsz, 6)
    session = setup.create_session(event, movement="mitchell", pairs=setup.pairs_from_entries(event))
    assert sum(s.pairs.count() for s in session.sections.all()) == 6


def test_the_setup_page_says_why(client, mbsz, make_user):
    event = _event(mbsz, 0)
    client.force_login(make_user("td@example.hu", kind=Role.DIRECTOR, event=event))
    data = {
        "session-movement": "mitchell",
        "session-sections": 1,
        "session-boards_per_round": 2,
        "session-even_method": "skip",
        "session-seat_entries": "on",
    }
    response = client.post(reverse("bridge_setup", args=[event.pk]), data)
    assert response.status_code == 200
    assert "No pairs to seat" in response.content.decode()
    assert not PairSession.objects.filter(event=event).exists()


def test_starting_a_session_nobody_sits_in_is_refused(client, mbsz, make_user):
    event = _event(mbsz, 0)
    session = setup.create_session(event, movement="mitchell")  # numbers to come from the upload
    client.force_login(make_user("td@example.hu", kind=Role.DIRECTOR, event=event))
    url = reverse("bridge_start_session", args=[session.pk])
    page = client.get(url).content.decode()
    assert 'id="start-refused"' in page and "Yes, start the session" not in page
    response = client.post(url, follow=True)
    assert "No pairs are seated in this session" in response.content.decode()
    assert not SessionStart.objects.filter(session=session).exists()


def test_starting_a_seated_session_records_the_start(client, mbsz, make_user):
    event = _event(mbsz, 6)
    session = setup.create_session(event, movement="mitchell", pairs=setup.pairs_from_entries(event))
    client.force_login(make_user("td@example.hu", kind=Role.DIRECTOR, event=event))
    url = reverse("bridge_start_session", args=[session.pk])
    page = client.get(url).content.decode()
    assert 'id="start-refused"' not in page and "Yes, start the session" in page
    client.post(url)
    assert SessionStart.objects.get(session=session).source == SessionStart.Source.DIRECTOR
