"""Fixtures of the tournaments tests: events, the people who run them and players with accounts."""

import datetime
import itertools

import pytest
from django.utils import timezone

from federation.models import Licence, Role
from tournaments.models import Event

_emails = itertools.count(1)


@pytest.fixture
def today():
    return timezone.localdate()


@pytest.fixture
def staff_mbsz(make_user, mbsz):
    return make_user("staff@mbsz.hu", kind=Role.FEDERATION_STAFF, federation=mbsz)


@pytest.fixture
def staff_mausz(make_user, mausz):
    return make_user("staff@mausz.hu", kind=Role.FEDERATION_STAFF, federation=mausz)


@pytest.fixture
def club_admin(make_user, bridge_club):
    return make_user("admin@bbe.hu", kind=Role.CLUB_ADMIN, club=bridge_club)


@pytest.fixture
def other_club_admin(make_user, other_bridge_club):
    return make_user("admin@dbc.hu", kind=Role.CLUB_ADMIN, club=other_bridge_club)


@pytest.fixture
def make_event(mbsz, bridge_club, today):
    def make(**fields):
        values = dict(
            federation=mbsz,
            club=bridge_club,
            title="Klubverseny",
            format=Event.Format.PAIRS,
            event_class=Event.EventClass.CLUB,
            start_date=today + datetime.timedelta(days=30),
            status=Event.Status.APPROVED,
            entry_fee=2000,
        )
        values.update(fields)
        return Event.objects.create(**values)

    return make


@pytest.fixture
def pairs_event(make_event):
    return make_event(title="Klub páros")


@pytest.fixture
def make_player(make_person, make_user, mbsz, bridge_club):
    """A person with a member record and a linked login (the e-mail of both is the same)."""

    def make(federation=None, club=None, licence_year=None, **fields):
        federation = federation or mbsz
        club = club if club is not None else (bridge_club if federation == mbsz else None)
        user = make_user(f"player{next(_emails)}@example.hu")
        person = make_person(federation=federation, club=club, user=user, **fields)
        if licence_year:
            Licence.objects.create(person=person, federation=federation, year=licence_year)
        user.refresh_from_db()
        return person

    return make
