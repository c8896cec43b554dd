"""The round clock (VSz 31, issue #18): the event's director starts a round's clock in the control room;
the control room shows the time left and marks the tables late once the time is over with a board missing;
the table's phone shows the time left."""

import pytest
from django.urls import reverse
from freezegun import freeze_time

from bridge.models import RoundClock, TableEntry
from bridge.services import table_entry

from .conftest import key

pytestmark = pytest.mark.django_db


def start(client, session, **data):
    return client.post(reverse("bridge_round_clock", args=[session.pk]), data)


def room(client, session):
    return client.get(reverse("bridge_control_room", args=[session.pk])).content.decode()


def finish(code):
    """North enters and East confirms every board of the table's current round."""
    now = table_entry.current_round(code)
    for b in now.boards:
        fields = {"round": now.round, "board": b.board, "ns": now.ns.pk, "ew": now.ew.pk}
        entered = table_entry.send(
            code, key=key(), kind=TableEntry.Kind.RESULT, contract="3NT", declarer="N", result="=", **fields
        )
        table_entry.send(code, key=key(), kind=TableEntry.Kind.CONFIRM, based_on=entered.entry.pk, **fields)


@pytest.mark.parametrize(
    "role,allowed",
    [("director", True), ("staff", True), ("other_director", False), ("player", False), ("anonymous", False)],
)
def test_only_the_events_director_starts_the_clock(clients, session, codes, role, allowed):
    response = start(clients[role], session, round=1)
    assert RoundClock.objects.filter(session=session).exists() is allowed
    if allowed:
        assert response.status_code == 302 and response["Location"].endswith(
            reverse("bridge_control_room", args=[session.pk])
        )
    elif role == "anonymous":
        assert response.status_code == 302 and "login" in response["Location"]
    else:
        assert response.status_code == 403


def test_the_clock_is_a_post(clients, session, codes):
    response = clients["director"].get(reverse("bridge_round_clock", args=[session.pk]))
    assert response.status_code == 405
    assert not RoundClock.objects.exists()


def test_the_rules_time_limit_or_the_directors_own(clients, session, codes):
    boards = table_entry.boards_per_round(session)
    assert boards == 2
    start(clients["director"], session)  # no round given: the round being played
    start(clients["director"], session, round=1, screens="1")
    start(clients["director"], session, round=2, minutes="20", screens="1")
    start(clients["director"], session, round=2, change_minute="1")
    got = list(RoundClock.objects.order_by("pk").values_list("round", "minutes"))
    assert got == [(1, 15), (1, 17), (2, 20), (2, 16)]


def test_a_round_the_session_has_not_is_refused(clients, session, codes):
    director = clients["director"]
    response = start(director, session, round=99)
    assert response.status_code == 302
    assert not RoundClock.objects.exists()
    response = start(director, session, round=1, minutes="0")
    assert not RoundClock.objects.exists()
    assert "240" in director.get(response["Location"]).content.decode()


def test_the_control_room_marks_the_late_tables_once_the_time_is_over(clients, session, codes):
    director = clients["director"]
    with freeze_time("2026-05-09 08:00:00"):  # UTC: 10:00 in Budapest
        start(director, session, round=1)
    finish(codes[1])  # table 1 has finished round 1 in time
    with freeze_time("2026-05-09 08:14:30"):
        text = room(director, session)
        assert 'data-seconds-left="30"' in text and "0:30" in text
        assert "table-late" not in text
    with freeze_time("2026-05-09 08:16:00"):
        text = room(director, session)
        assert 'data-seconds-left="-60"' in text and "−1:00" in text
        assert text.count("table-late") == 2
        rows = [row for row in text.split("<tr") if "table-late" in row]
        assert [">A2 " in row or ">A3 " in row for row in rows] == [True, True]
        assert "round-clock.js" in text


def test_the_phone_shows_the_time_left_of_its_round(clients, session, codes):
    with freeze_time("2026-05-09 08:00:00"):
        start(clients["director"], session, round=1)
    with freeze_time("2026-05-09 08:05:00"):
        text = clients["anonymous"].get(reverse("bridge_table", args=[codes[2].code])).content.decode()
        assert 'data-seconds-left="600"' in text and "10:00" in text
    finish(codes[2])  # table 2 is in round 2 now: round 1's clock is not its own
    with freeze_time("2026-05-09 08:06:00"):
        text = clients["anonymous"].get(reverse("bridge_table", args=[codes[2].code])).content.decode()
        assert "data-seconds-left" not in text
