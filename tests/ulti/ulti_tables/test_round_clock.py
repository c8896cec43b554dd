"""The ulti round clock (issue #18): the rule set's minimum round time (MAUSZ 30, Szolnok 40 minutes), a longer
time allowed and a shorter one refused with the rule's reason, on the server; time left on the phone and in
the control room; late tables marked; only the event's director and staff start it."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from federation.models import Role
from ulti.engine import round_clock
from ulti.engine.rulesets import MAUSZ, SZOLNOK, RuleSet
from ulti.models import RoundClock
from ulti.services import UltiError, draw, setup, uploads
from ulti.services import round_clock as clocks

from .conftest import confirm_all, fill, make_event

pytestmark = pytest.mark.django_db


def test_the_rule_sets_carry_their_minimum_round_time():
    assert MAUSZ.min_round_minutes == 30
    assert SZOLNOK.min_round_minutes == 40
    assert RuleSet.from_dict(MAUSZ.to_dict()).min_round_minutes == 30


@pytest.mark.parametrize("rules", [MAUSZ, SZOLNOK])
def test_engine_no_time_given_is_the_minimum(rules):
    assert round_clock.time_limit(rules) == rules.min_round_minutes
    assert round_clock.time_limit(rules, "") == rules.min_round_minutes


@given(st.integers(min_value=-10, max_value=400), st.sampled_from([MAUSZ, SZOLNOK]))
def test_engine_never_shorter_than_the_minimum(minutes, rules):
    try:
        limit = round_clock.time_limit(rules, minutes)
    except round_clock.ClockError as error:
        assert minutes < rules.min_round_minutes or minutes > round_clock.MAX_MINUTES
        if minutes < rules.min_round_minutes:
            assert error.code == "below_minimum" and error.minimum == rules.min_round_minutes
            assert error.rule == rules.name
    else:
        assert limit == minutes and rules.min_round_minutes <= limit <= round_clock.MAX_MINUTES


def test_engine_refuses_text():
    with pytest.raises(round_clock.ClockError) as error:
        round_clock.time_limit(MAUSZ, "fél óra")
    assert error.value.code == "not_a_number"


def _szolnok_round(mausz, ulti_club, make_person, make_user):
    event = make_event(mausz, ulti_club, make_person, title="Szolnoki kupa", rule_set="szolnok")
    director = make_user("szolnok-td@example.hu", kind=Role.DIRECTOR, event=event)
    setup.ensure_settings(event, unit_forints=10)
    group = setup.start_event(event, director).groups.get()
    return draw.publish_round(draw.generate_round(group, director), director), director


def test_service_mausz_30_minutes_both_ways(rnd, director):
    with pytest.raises(UltiError) as refused:
        clocks.start(rnd, director, "29")
    assert "30 minutes" in refused.value.messages[0] and "MAUSZ" in refused.value.messages[0]
    assert not RoundClock.objects.exists()
    assert clocks.start(rnd, director, None).minutes == 30
    assert clocks.start(rnd, director, "45").minutes == 45
    assert clocks.clock_of(rnd).minutes == 45


def test_service_szolnok_40_minutes_both_ways(mausz, ulti_club, make_person, make_user):
    rnd, director = _szolnok_round(mausz, ulti_club, make_person, make_user)
    with pytest.raises(UltiError, match="40 minutes"):
        clocks.start(rnd, director, "35")
    assert clocks.start(rnd, director, "40").minutes == 40
    assert clocks.start(rnd, director).minutes == 40


def test_the_page_refuses_a_shorter_time_with_the_rule(clients, rnd):
    url = reverse("ulti_round_clock", args=[rnd.pk])
    response = clients["director"].post(url, {"minutes": "20"}, follow=True)
    assert not RoundClock.objects.exists()
    text = response.content.decode()  # the page speaks Hungarian: the rule and its minimum
    assert "legalább 30 perc" in text and "MAUSZ Versenyszabályzat" in text
    clients["director"].post(url, {"minutes": "35"})
    assert RoundClock.objects.get().minutes == 35


def test_starting_the_clock_per_role(clients, rnd):
    url = reverse("ulti_round_clock", args=[rnd.pk])
    for role in ("other_director", "player", "anonymous"):
        response = clients[role].post(url, {"minutes": "30"})
        assert response.status_code in (403, 404) or "/login" in response.get("Location", ""), role
    assert not RoundClock.objects.exists()
    clients["staff"].post(url, {})
    assert RoundClock.objects.get().minutes == 30


def test_time_left_on_the_phone_and_late_tables_marked(
    clients, rnd, codes, director, django_capture_on_commit_callbacks
):
    clock = clocks.start(rnd, director)
    phone = Client().get(reverse("ulti_table", args=[codes[1].code])).content.decode()
    assert 'class="round-clock' in phone and "data-seconds-left=" in phone
    left = int(phone.split('data-seconds-left="')[1].split('"')[0])
    assert 29 * 60 < left <= 30 * 60
    room = clients["director"].get(reverse("ulti_control_room", args=[rnd.pk])).content.decode()
    assert "table-late" not in room
    # 31 minutes later: table 1 has confirmed its round, table 2 has not: only table 2 is late.
    RoundClock.objects.filter(pk=clock.pk).update(started_at=timezone.now() - datetime.timedelta(minutes=31))
    with django_capture_on_commit_callbacks(execute=True):
        fill(codes[1])
        confirm_all(codes[1])
    fill(codes[2], deals=5)
    room = clients["director"].get(reverse("ulti_control_room", args=[rnd.pk])).content.decode()
    assert 'id="table-2" data-status="playing" class="table-danger table-late"' in room
    assert 'id="table-1" data-status="confirmed">' in room
    assert 'id="late-count">1 ' in room
    # The director files table 2's result himself (a score sheet): no table is late any more.
    seats = [s.participant_id for s in codes[2].table.seats.order_by("position")]
    with django_capture_on_commit_callbacks(execute=True):
        uploads.upload_table(codes[2].table, {seats[0]: 40, seats[1]: -20, seats[2]: -20}, user=director)
    room = clients["director"].get(reverse("ulti_control_room", args=[rnd.pk])).content.decode()
    assert "table-late" not in room
