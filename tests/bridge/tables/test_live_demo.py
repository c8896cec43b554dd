"""The demo's live tournament day (demo/bridge_live.py): a session being played, entered on the tables'
phones, so `make run` shows the table pages, the control room and the live public pages with something on
them. Read through the pages as the director, a table and a visitor see them."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from bridge.models import PairSession, SessionStanding, TableEntry
from bridge.services import table_entry
from demo.bridge_live import TITLE
from tests.conftest import seeded_demo

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def live(django_db_setup, django_db_blocker):
    with seeded_demo(django_db_blocker, lambda: PairSession.objects.get(event__title=TITLE).pk) as pk:
        yield pk


def _session(pk):
    return PairSession.objects.select_related("event").get(pk=pk)


def test_the_session_is_in_round_two_with_a_late_clock_and_a_dispute(live):
    session = _session(live)
    assert session.published_at is None
    tables, waiting = table_entry.control_room(session)
    clock = table_entry.clock_of(session)
    table_entry.mark_late(tables, clock)
    assert (clock.round, clock.row.minutes) == (2, 22)  # VSz 31: 3 boards a round
    by_table = {t.code.table: t for t in tables}
    assert sorted(by_table) == [1, 2, 3, 4, 5]
    assert {n: t.current.round for n, t in by_table.items()} == {1: 3, 2: 2, 3: 2, 4: 2, 5: 2}
    assert {n for n, t in by_table.items() if t.late} == {2, 3, 4, 5}
    assert [(r.code.table, r.round, b.status) for r, b in waiting] == [(3, 2, "disputed")]
    # Round 1: every table's three boards confirmed on the phones, each through the one upload seam.
    confirmed = TableEntry.objects.filter(code__session=session, kind=TableEntry.Kind.CONFIRM)
    assert confirmed.filter(round=1).count() == 15 and not confirmed.filter(version=None).exists()
    assert by_table[2].current.boards[2].status == "entered"  # waiting for East
    # The standings were computed from the confirmed results: every pair has a place, provisionally.
    assert SessionStanding.objects.filter(session=session).count() == 10


def test_the_director_sees_the_control_room_and_a_visitor_the_live_standings(live):
    session = _session(live)
    director = Client()
    director.force_login(get_user_model().objects.get(username="vezeto@demo.hu"))
    room = director.get(reverse("bridge_control_room", args=[session.pk])).content.decode()
    assert room.count("table-late") == 4
    assert "Nem ennyi ütés volt" in room  # the dispute's note, waiting for the director
    page = Client().get(reverse("bridge_session", args=[session.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "élő, nem végleges" in html and "data-live-url" in html
    assert len(re.findall(r'<td class="text-end result-figure">\d+,\d\d', html)) == 10


def test_a_table_code_opens_its_phone_page(live):
    session = _session(live)
    code = session.table_codes.get(table=2)
    page = Client().get(reverse("bridge_table", args=[code.code]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "2. kör" in html and 'value="confirm"' in html  # East's confirmation is asked for
