"""Fixtures of the table entry tests (issue #18): a 3-table Mitchell session of a public pairs event, its
director and the table codes."""

import datetime
import uuid

import pytest
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
