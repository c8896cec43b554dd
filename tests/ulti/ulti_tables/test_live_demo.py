"""The demo's live ulti round (demo/ulti_live.py): a round being played today, its deals entered on the
tables' phones. Read through the pages as the director, a table and a visitor see them."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from demo.ulti_live import TITLE
from tests.conftest import seeded_demo
from ulti.models import Round, RoundUpload
from ulti.services import round_clock, table_entry

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def live(django_db_setup, django_db_blocker):
    with seeded_demo(django_db_blocker, lambda: Round.objects.get(group__stage__event__title=TITLE).pk) as pk:
        yield pk


def test_one_table_has_confirmed_its_sheet_and_the_other_is_late(live):
    rnd = Round.objects.get(pk=live)
    assert rnd.results_published_at is None
    tables = table_entry.control_room(rnd)
    round_clock.mark_late(tables, round_clock.clock_of(rnd))
    states = {t.table.number: t.state for t in tables}
    assert {n: (len(s.deals), s.status) for n, s in states.items()} == {
        1: (12, "confirmed"),
        2: (5, "playing"),
    }
    assert [t.table.number for t in tables if t.late] == [2]
    # The three confirmations wrote the round's version through the one upload seam; zero-sum at the table.
    (upload,) = RoundUpload.objects.filter(round=rnd)
    assert sum(states[1].totals.values()) == 0


def test_the_phone_the_control_room_and_the_live_round_page(live):
    rnd = Round.objects.get(pk=live)
    code = rnd.tables.get(number=2).code
    phone = Client().get(reverse("ulti_table", args=[code.code])).content.decode()
    assert 'id="deal-picker"' in phone and "5/12" in phone  # the sixth deal is next
    director = Client()
    director.force_login(get_user_model().objects.get(username="vezeto@demo.hu"))
    room = director.get(reverse("ulti_control_room", args=[rnd.pk]))
    assert room.status_code == 200 and "1 asztal késésben van" in room.content.decode()
    page = Client().get(reverse("ulti_round", args=[rnd.pk])).content.decode()
    assert "élő, nem végleges" in page


def test_the_live_standings_mark_the_players_still_playing(live):
    """Table 2's players have no result yet: the provisional standings say so instead of showing them as if
    they had scored nothing; table 1's players are not marked."""
    rnd = Round.objects.get(pk=live)
    page = Client().get(reverse("ulti_standings", args=[rnd.group.stage.event_id])).content.decode()
    marked = re.findall(r'href="/ulti/events/\d+/players/(\d+)/">[^<]+</a>[^\n]*?still-playing', page)
    waiting = {str(seat.participant.person_id) for seat in rnd.tables.get(number=2).seats.all()}
    assert set(marked) == waiting and len(marked) == 3
    assert "még játszik" in page
