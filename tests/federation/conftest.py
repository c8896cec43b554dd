"""Fixtures of the personal-data, licence and membership tests: the roles around one MBSz member."""

import datetime

import pytest
from django.utils import timezone

from federation.models import Role
from tournaments.models import Entry, EntryMember, Event


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
def member(make_person, make_user, mbsz, bridge_club):
    """An MBSz member of the BBE club with a linked account (password jelszo-12345)."""
    user = make_user("tag@example.hu")
    user.first_name, user.last_name = "Péter", "Kovács"
    user.save()
    return make_person(
        federation=mbsz,
        club=bridge_club,
        user=user,
        first_name="Péter",
        last_name="Kovács",
        phone="+36 1 234",
    )


@pytest.fixture
def other_member(make_person, make_user, mbsz, bridge_club):
    user = make_user("masik@example.hu")
    return make_person(federation=mbsz, club=bridge_club, user=user, first_name="Anna", last_name="Szabó")


@pytest.fixture
def make_entry(mbsz, bridge_club):
    def make(people, event=None, **event_fields):
        if event is None:
            values = dict(
                federation=mbsz,
                club=bridge_club,
                title="Klub páros",
                format=Event.Format.PAIRS,
                event_class=Event.EventClass.CLUB,
                start_date=timezone.localdate() - datetime.timedelta(days=3),
                status=Event.Status.APPROVED,
                entry_fee=2000,
            )
            values.update(event_fields)
            event = Event.objects.create(**values)
        entry = Entry.objects.create(event=event)
        for person in people:
            EntryMember.objects.create(entry=entry, person=person)
        return entry

    return make


@pytest.fixture
def ulti_player(make_person, make_user, mausz, ulti_club):
    """A MAUSZ member of the Szolnok club (Duna-Tisza köz) with an account."""
    counter = {"n": 0}

    def make(licence_year=None, **fields):
        from federation.models import Licence

        counter["n"] += 1
        user = make_user(f"ulti{counter['n']}@example.hu")
        person = make_person(federation=mausz, club=ulti_club, user=user, **fields)
        if licence_year:
            Licence.objects.create(person=person, federation=mausz, year=licence_year)
        return person

    return make


@pytest.fixture
def ulti_admin(make_user, ulti_club):
    return make_user("admin@szue.hu", kind=Role.CLUB_ADMIN, club=ulti_club)
