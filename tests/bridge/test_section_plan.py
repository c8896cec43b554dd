"""A section's generated movement (`Section.plan`) is built once per process for the same settings: the table
phones, the live pages and the recompute ask for it on every request (bench/live). Other settings give their
own movement."""

import datetime

import pytest
from django.utils import timezone

from bridge.models import Section
from bridge.services import setup
from demo import bridge_sample as sample

pytestmark = pytest.mark.django_db


@pytest.fixture
def section(mbsz):
    start = timezone.make_aware(datetime.datetime(2026, 5, 9, 10, 0))
    event = sample.event_with_pairs(mbsz, pairs=10, title="Mozgás", start=start)
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    return session.sections.get()


def test_the_same_settings_give_the_movement_built_before(section):
    first = section.plan()
    again = Section.objects.get(pk=section.pk).plan()
    assert again is first
    assert (first.kind, first.tables, first.rounds) == ("mitchell", 5, 5)


def test_other_settings_give_their_own_movement(section):
    first = section.plan()
    section.rounds = 3
    section.arrow_switch_rounds = [2]  # a list, as the JSON field holds it
    fewer = section.plan()
    assert fewer is not first
    assert fewer.rounds == 3
    assert [a.round for a in fewer.assignments if a.arrow_switched] == [2] * 5
    section.movement = Section.Movement.HOWELL
    section.howell_pairs = 10
    assert section.plan().kind == "howell"
    assert section.plan() is section.plan()
