"""Issue #20: an ulti event with nobody (or too few) entered cannot start its first round: refused with the
reason, nothing seated; with a full table it starts."""

import datetime

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from federation.models import Role
from tournaments.models import Entry, EntryMember, Event
from ulti.models import Stage
from ulti.services import UltiError, setup

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client):
    """The services and the pages in English (the messages are read in English here)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def make_event(mausz, ulti_club, make_person):
    def make(players):
        event = Event.objects.create(
            federation=mausz,
            club=ulti_club,
            title=f"Ulti {players}",
            format="ulti_individual",
            event_class="nub_qualifier",
            start_date=datetime.date(2026, 3, 7),
            status="approved",
            rule_set="mausz",
        )
        for _ in range(players):
            entry = Entry.objects.create(event=event)
            EntryMember.objects.create(entry=entry, person=make_person(mausz, ulti_club))
        return event

    return make


def test_no_players_is_refused(make_event):
    event = make_event(0)
    with pytest.raises(UltiError, match="cannot start without players"):
        setup.start_event(event)
    assert not Stage.objects.filter(event=event).exists()


def test_two_players_are_refused(make_event):
    event = make_event(2)
    with pytest.raises(UltiError, match="At least three players"):
        setup.start_event(event)
    assert not Stage.objects.filter(event=event).exists()


def test_three_players_start(make_event, monkeypatch):
    monkeypatch.setattr(setup, "live_ratings", lambda ids, fed: {})
    event = make_event(3)
    stage = setup.start_event(event)
    assert stage.participants.count() == 3


def test_the_page_says_why(client, make_event, make_user):
    event = make_event(0)
    client.force_login(make_user("vezeto@example.hu", kind=Role.DIRECTOR, event=event))
    response = client.post(reverse("ulti_start", args=[event.pk]), follow=True)
    assert "cannot start without players" in response.content.decode()
    assert not Stage.objects.filter(event=event).exists()
