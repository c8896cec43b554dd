"""Fixtures of the ulti table entry tests (issue #18): a published round of six players at two tables (MAUSZ
rules, 12 deals a round, 20 Ft a unit), its director, the table codes, and helpers that fill a sheet."""

import datetime
import uuid

import pytest
from django.test import Client
from django.utils import translation

from federation.models import Role
from tournaments.models import Entry, EntryMember, Event
from ulti.services import draw, setup, table_entry


@pytest.fixture(autouse=True)
def english():
    """Services speak the active language; these tests read their English wording."""
    with translation.override("en"):
        yield


def make_event(mausz, ulti_club, make_person, title="Telefonos ulti", rule_set="mausz"):
    event = Event.objects.create(
        federation=mausz,
        club=ulti_club,
        title=title,
        format="ulti_individual",
        event_class="nub_qualifier",
        start_date=datetime.date(2026, 5, 2),
        status="approved",
        rule_set=rule_set,
    )
    for _ in range(6):
        entry = Entry.objects.create(event=event)
        EntryMember.objects.create(entry=entry, person=make_person(mausz, ulti_club))
    return event


@pytest.fixture
def event(mausz, ulti_club, make_person):
    return make_event(mausz, ulti_club, make_person)


@pytest.fixture
def director(make_user, event):
    return make_user("td-ulti-asztal@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def rnd(event, director):
    setup.ensure_settings(event, unit_forints=20)
    group = setup.start_event(event, director).groups.get()
    return draw.publish_round(draw.generate_round(group, director), director)


@pytest.fixture
def codes(rnd, director):
    return {code.table.number: code for code in table_entry.create_codes(rnd, director)}


def key() -> str:
    return uuid.uuid4().hex


def keys_of(code):
    return [s.key for s in table_entry.seats_of(code.table)]


def passz(code, declarer_index=0, won=True):
    return {
        "declarer": keys_of(code)[declarer_index],
        "bid": "passz",
        "results": {"parti": "won" if won else "lost"},
    }


def fill(code, deals=12, start=1):
    """Enter deals start..deals on the code's table, each built on the one before; returns the last entry."""
    state = table_entry.state_of(code)
    head = state.head.pk if state.head else None
    entry = None
    for n in range(start, deals + 1):
        entry = table_entry.send(
            code, key=key(), kind="deal", number=n, based_on=head, record=passz(code, n % 3, won=n % 2 == 0)
        ).entry
        head = entry.pk
    return entry


def confirm_all(code):
    state = table_entry.state_of(code)
    last = None
    for seat in state.seats:
        last = table_entry.send(code, key=key(), kind="confirm", seat=seat.pk, based_on=state.head.pk).entry
    return last


@pytest.fixture
def clients(make_user, director, mausz, ulti_club, make_person):
    """A logged-in client per role: this event's director, another event's, a player, MAUSZ staff, and an
    anonymous visitor."""
    other = make_event(mausz, ulti_club, make_person, title="Másik ulti")
    users = {
        "director": director,
        "other_director": make_user("masik-ulti-td@example.hu", kind=Role.DIRECTOR, event=other),
        "player": make_user("ulti-jatekos@example.hu"),
        "staff": make_user("ulti-staff@example.hu", kind=Role.FEDERATION_STAFF, federation=mausz),
    }
    made = {"anonymous": Client()}
    for name, user in users.items():
        made[name] = Client()
        made[name].force_login(user)
    return made


@pytest.fixture
def play(django_capture_on_commit_callbacks):
    """A table plays its twelve deals and its three players confirm: the version, the recompute (eager)."""

    def played(code):
        with django_capture_on_commit_callbacks(execute=True):
            fill(code)
            return confirm_all(code)

    return played
