"""A ten-pair Mitchell session with a CSV uploaded and scored, its director, and a logged-in client."""

import random

import pytest
from django.utils import translation

from bridge.services import setup, uploads
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from federation.models import Role
from tests.bridge.decisions.helpers import START, Source, parse


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=10, title="Rétegek", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def session(event):
    return setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )


@pytest.fixture
def rows(session):
    return sample.play(session, random.Random(11))


@pytest.fixture
def uploaded(event, session, rows, director):
    uploads.upload(session, parse(sample.csv_text(session, rows), "csv"), source=Source.CSV, user=director)
    recompute_event(event.pk)
    return session


@pytest.fixture
def client_of(client):
    def login(user):
        client.force_login(user)
        return client

    return login
