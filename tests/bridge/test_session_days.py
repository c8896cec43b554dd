"""VSz 24 c: at most two sessions a day, at least an hour's break between them ("Egy nap maximum két fordulót
lehet játszani (legalább 1 óra szünettel)"); a session's length from its rounds and the VSz 31 time limits."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from bridge.engine.session_days import PlannedSession, check, expected_minutes
from bridge.services import setup
from demo import bridge_sample as sample
from federation.models import Role
from tournaments.models import Session

DAY = datetime.datetime(2026, 3, 14)


def at(hour, minute=0, day=0):
    return DAY + datetime.timedelta(days=day, hours=hour, minutes=minute)


def test_the_length_of_a_session_follows_vsz_31():
    assert expected_minutes(7, 2) == 105  # 7 rounds of 2 boards, 15 minutes each
    assert expected_minutes(9, 3) == 198  # 9 x 22
    assert expected_minutes(6, 4) == 168  # 6 x 28


def test_an_hour_after_the_expected_end_is_enough_and_less_is_not():
    first = PlannedSession("1. forduló", at(10), 105)  # ends 11:45
    assert check([first, PlannedSession("2. forduló", at(12, 45))]) == []
    (finding,) = check([first, PlannedSession("2. forduló", at(12, 30))])
    assert finding.code == "short_break"
    assert finding.params == {
        "first": "1. forduló",
        "second": "2. forduló",
        "minutes": 45,
        "known_length": True,
    }


def test_without_a_movement_only_the_starts_are_compared():
    (finding,) = check([PlannedSession("A", at(10)), PlannedSession("B", at(10, 30))])
    assert finding.params["minutes"] == 30 and not finding.params["known_length"]
    assert check([PlannedSession("A", at(10)), PlannedSession("B", at(11))]) == []


def test_three_sessions_a_day_are_too_many_two_and_the_next_day_are_not():
    sessions = [PlannedSession(name, at(hour)) for name, hour in (("1", 9), ("2", 13), ("3", 17))]
    (finding,) = check(sessions)
    assert finding.code == "too_many_sessions"
    assert finding.params == {"day": DAY.date(), "count": 3, "sessions": ["1", "2", "3"]}
    assert check(sessions[:2] + [PlannedSession("3", at(9, day=1))]) == []


@pytest.mark.django_db
def test_the_movement_page_warns_the_director(client, mbsz, make_user):
    start = timezone.make_aware(at(10))
    event = sample.event_with_pairs(mbsz, pairs=14, title="Két forduló", start=start, sessions=2)
    first, second = event.sessions.order_by("starts_at")
    pair_session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=first
    )
    plan = pair_session.sections.get().plan()
    minutes = expected_minutes(plan.rounds, plan.boards_per_round)
    Session.objects.filter(pk=second.pk).update(starts_at=start + datetime.timedelta(minutes=minutes + 45))
    client.force_login(make_user("td24@example.hu", kind=Role.DIRECTOR, event=event))
    url = reverse("bridge_guide_cards", args=[pair_session.pk])
    page = client.get(url).content.decode()
    assert page.count('data-finding="short_break"') == 1 and " 45 " in page
    # An hour and a quarter: no warning.
    Session.objects.filter(pk=second.pk).update(starts_at=start + datetime.timedelta(minutes=minutes + 75))
    assert 'data-finding="short_break"' not in client.get(url).content.decode()
    # A third session the same day.
    Session.objects.create(event=event, name="3. forduló", starts_at=start + datetime.timedelta(hours=9))
    page = client.get(url).content.decode()
    assert 'data-finding="too_many_sessions"' in page and "3. forduló" in page
