"""Ulti rating through the services: updates, ties, the 20-player rule, replays after a correction."""

import datetime

import pytest

from rankings.engine import rating as engine
from rankings.models import ListEntry, ListKind, PlayerRating, RatedEvent, RatingHistory
from rankings.services.lists import recompute_all_lists
from rankings.services.rating import live_ratings, update_ratings

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(mausz, ulti_club, make_person, licence):
    people = [make_person(mausz, ulti_club) for _ in range(21)]
    for p in people:
        licence(p, mausz)
    return people


def rounds_for(people, rounds=2, tie=False):
    """Tables of three in order; with ``tie`` the first two of every table share the first place."""
    out = []
    for r in range(rounds):
        order = people[r:] + people[:r]
        out.append(
            [
                {p: (1 if tie and i < 2 else i + 1) for i, p in enumerate(order[t : t + 3])}
                for t in range(0, len(order) - 2, 3)
            ]
        )
    return out


def make_rating_event(make_event, mausz, date, **extra):
    return make_event(mausz, event_class="rating", date=date, earns_rating=True, **extra)


def test_ratings_update_after_a_rating_tournament(mausz, players, make_event, build_result, build_tables):
    event = make_rating_event(make_event, mausz, datetime.date(2026, 3, 1))
    res = build_result(
        event, [(i + 1, i + 1, [p]) for i, p in enumerate(players)], tables=build_tables(rounds_for(players))
    )
    assert update_ratings(event, res) is True
    assert update_ratings(event, res) is False  # idempotent
    assert PlayerRating.objects.filter(federation=mausz).count() == 21
    first, last = PlayerRating.objects.get(person=players[0]), PlayerRating.objects.get(person=players[2])
    assert first.display > last.display and first.tables == 2 and first.provisional
    assert RatingHistory.objects.filter(event=event).count() == 21
    live = live_ratings([players[0].pk, players[2].pk, 999999])
    assert live == {
        players[0].pk: first.display,
        players[2].pk: last.display,
        999999: engine.Rating().display,
    }


def test_tied_players_get_the_same_rating(mausz, players, make_event, build_result, build_tables):
    event = make_rating_event(make_event, mausz, datetime.date(2026, 3, 1))
    res = build_result(
        event, [(1, 1, [p]) for p in players], tables=build_tables(rounds_for(players, rounds=1, tie=True))
    )
    update_ratings(event, res)
    a, b, c = (PlayerRating.objects.get(person=p) for p in players[:3])
    assert a.mu == b.mu and a.display == b.display and a.display > c.display


def test_the_20_player_rule(mausz, ulti_club, players, make_event, build_result, build_tables):
    small = make_rating_event(
        make_event, mausz, datetime.date(2026, 3, 1), club=ulti_club, in_federation_calendar=False
    )
    nineteen = players[:18]  # 18 players at tables
    res = build_result(
        small,
        [(i + 1, i + 1, [p]) for i, p in enumerate(nineteen)],
        tables=build_tables(rounds_for(nineteen)),
    )
    assert update_ratings(small, res) is False
    assert RatedEvent.objects.get(event=small).counted is False
    assert not PlayerRating.objects.exists()
    # The same club event with 21 players counts; so does a small one in the federation calendar.
    big = make_rating_event(
        make_event, mausz, datetime.date(2026, 3, 2), club=ulti_club, in_federation_calendar=False
    )
    res = build_result(
        big, [(i + 1, i + 1, [p]) for i, p in enumerate(players)], tables=build_tables(rounds_for(players))
    )
    assert update_ratings(big, res) is True
    listed = make_rating_event(
        make_event, mausz, datetime.date(2026, 3, 3), club=ulti_club, in_federation_calendar=True
    )
    res = build_result(
        listed,
        [(i + 1, i + 1, [p]) for i, p in enumerate(nineteen)],
        tables=build_tables(rounds_for(nineteen)),
    )
    assert update_ratings(listed, res) is True


def test_a_correction_of_an_earlier_event_replays_the_later_ones(
    mausz, players, make_event, build_result, build_tables
):
    early = make_rating_event(make_event, mausz, datetime.date(2026, 3, 1))
    late = make_rating_event(make_event, mausz, datetime.date(2026, 4, 1))
    placings = [(i + 1, i + 1, [p]) for i, p in enumerate(players)]
    update_ratings(late, build_result(late, placings, tables=build_tables(rounds_for(players))))
    update_ratings(early, build_result(early, placings, tables=build_tables(rounds_for(players))))
    before = {r.person_id: r.display for r in PlayerRating.objects.all()}
    # The same two events applied in date order from scratch give the same ratings.
    state = engine.rate_event(
        {}, [[{p.pk: pl for p, pl in t.items()} for t in rnd] for rnd in rounds_for(players)]
    )
    state = engine.rate_event(
        state, [[{p.pk: pl for p, pl in t.items()} for t in rnd] for rnd in rounds_for(players)]
    )
    assert before == {pid: r.display for pid, r in state.items()}
    # Correct the early event (the last player of every table won instead): the late one is replayed.
    reversed_rounds = [[{p: 4 - pl for p, pl in t.items()} for t in rnd] for rnd in rounds_for(players)]
    update_ratings(early, build_result(early, placings, version="2", tables=build_tables(reversed_rounds)))
    after = {r.person_id: r.display for r in PlayerRating.objects.all()}
    assert after != before
    assert RatingHistory.objects.filter(event=late).count() == 21
    assert PlayerRating.objects.get(person=players[0]).events == 2


def test_the_rating_list_leaves_off_unlicensed_players(
    mausz, ulti_club, players, make_person, make_event, build_result, build_tables
):
    unlicensed = [make_person(mausz, ulti_club) for _ in range(3)]
    field = players[:18] + unlicensed
    event = make_rating_event(make_event, mausz, datetime.date(2026, 3, 1))
    update_ratings(
        event, build_result(event, [(1, 1, [p]) for p in field], tables=build_tables(rounds_for(field)))
    )
    recompute_all_lists(mausz)
    listed = set(
        ListEntry.objects.filter(federation=mausz, kind=ListKind.RATING).values_list("person_id", flat=True)
    )
    assert listed == {p.pk for p in players[:18]}
    assert all(e.provisional for e in ListEntry.objects.filter(kind=ListKind.RATING))
