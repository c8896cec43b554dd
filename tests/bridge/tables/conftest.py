"""Fixtures of the table entry tests (issue #18): a 3-table Mitchell session of a public pairs event, its
director and the table codes."""

import datetime
import uuid

import pytest
from django.test import Client
from django.utils import timezone

from bridge.services import setup, table_entry
from demo import bridge_sample as sample
from federation.models import Role

START = timezone.make_aware(datetime.datetime(2026, 5, 9, 10, 0))


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=6, title="Asztali bevitel", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td-asztal@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def session(event):
    return setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )


@pytest.fixture
def codes(session, director):
    return {code.table: code for code in table_entry.create_codes(session, director)}


def key() -> str:
    return uuid.uuid4().hex


@pytest.fixture
def clients(make_user, director, mbsz, event):
    """A logged-in client per role the pages are tried with: this event's director, another event's, a
    player, the federation's staff, and an anonymous visitor."""
    from demo import bridge_sample as sample

    other_event = sample.event_with_pairs(
        mbsz, pairs=4, title="Másik verseny", start=event.sessions.first().starts_at
    )
    users = {
        "director": director,
        "other_director": make_user("masik-td@example.hu", kind=Role.DIRECTOR, event=other_event),
        "player": make_user("jatekos-asztal@example.hu"),
        "staff": make_user("staff-asztal@example.hu", kind=Role.FEDERATION_STAFF, federation=mbsz),
    }
    made = {"anonymous": Client()}
    for name, user in users.items():
        made[name] = Client()
        made[name].force_login(user)
    return made


@pytest.fixture
def play(django_capture_on_commit_callbacks):
    """Confirm a board at a table, its recompute run as after the commit."""
    from .helpers import answer, enter  # helpers imports this module's `key`

    def played(code, board=None, **values):
        with django_capture_on_commit_callbacks(execute=True):
            return answer(code, enter(code, board, **values).entry)

    return played
