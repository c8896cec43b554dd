"""Boards played per player from the line-ups (masterpoint rights: under 50%, none), the Butler of the
pairs, and the final result handed to the rankings."""

from fractions import Fraction

import pytest

from teams.engine.butler import Play, butler_pairs
from teams.engine.parsed import ParsedBoard, ParsedResult, UploadError
from teams.models import PairButler, PlayerBoards
from teams.services import pairing, results
from teams.services.recompute import recompute_event
from teams.services.source import team_event_result

pytestmark = pytest.mark.django_db


def players(team):
    return [m.person_id for m in team.entry.members.order_by("position")]


def seat(match, segment_pairs):
    """segment_pairs: {team: (open pair, closed pair)} for the one segment of a short match."""
    return [
        (1, team.pk, room, person)
        for team, (open_pair, closed_pair) in segment_pairs.items()
        for room, pair in (("open", open_pair), ("closed", closed_pair))
        for person in pair
    ]


def test_boards_played_and_the_fifty_percent_rule(make_team_event, director, level):
    event = make_team_event(teams=2, sizes=[6, 4], pairing_format="round_robin", rounds=1)
    setup = event.team_setup
    setup.rounds = 1
    setup.save()
    user = director(event)
    round_ = pairing.publish_round(pairing.generate_round(event, user), user)
    match = round_.matches.get()
    six = match.home if match.home.entry.members.count() == 6 else match.away
    four = match.away if six == match.home else match.home
    p = players(six)
    results.set_lineup(
        match, user, seat(match, {six: (p[0:2], p[2:4]), four: (players(four)[0:2], players(four)[2:4])})
    )
    results.upload_result(match, user, level(8))
    recompute_event(event.pk)
    rows = {r.person_id: r for r in PlayerBoards.objects.filter(event=event)}
    assert [rows[x].boards for x in p] == [8, 8, 8, 8, 0, 0]
    assert [rows[x].has_rights for x in p] == [True, True, True, True, False, False]
    assert all(rows[x].has_rights and rows[x].boards == 8 for x in players(four))

    # Placings for the rankings: the whole share of each player, the 50% line drawn there too.
    result = team_event_result(event)
    shares = {s.person_id: s.boards_played_fraction for placing in result.placings for s in placing.players}
    assert shares[p[0]] == Fraction(1) and shares[p[5]] == Fraction(0)
    assert sorted((pl.place_from, pl.name) for pl in result.placings)[0][0] == 1


def test_exactly_half_keeps_the_right_and_a_missing_lineup_is_reported(
    make_team_event, director, play, level
):
    event = make_team_event(teams=2, sizes=[6, 6], pairing_format="danish", first_round="seeding", rounds=2)
    user = director(event)
    first = play(event, user, lambda m: level(8))
    match = first.matches.get()
    p, q = players(match.home), players(match.away)
    results.set_lineup(match, user, seat(match, {match.home: (p[0:2], p[2:4]), match.away: (q[0:2], q[2:4])}))
    recompute_event(event.pk)
    second = play(event, user, lambda m: level(8))  # no line-up for round 2
    assert event.team_progress.missing_lineups == 2
    match2 = second.matches.get()
    home = match2.home
    hp = players(home)
    other = match2.away
    op = players(other)
    results.set_lineup(match2, user, seat(match2, {home: (hp[0:2], hp[4:6]), other: (op[0:2], op[2:4])}))
    recompute_event(event.pk)
    rows = {r.person_id: r for r in PlayerBoards.objects.filter(event=event, team=home)}
    assert {x: (rows[x].boards, rows[x].has_rights) for x in hp} == {
        hp[0]: (16, True),
        hp[1]: (16, True),
        hp[2]: (8, True),
        hp[3]: (8, True),
        hp[4]: (8, True),
        hp[5]: (8, True),
    }  # 8 of 16 boards is 50%: not "under 50%", so the right stands
    assert event.team_progress.is_final


def test_lineup_must_seat_two_players_of_the_team_in_each_room(make_team_event, director):
    event = make_team_event(teams=2)
    user = director(event)
    match = pairing.publish_round(pairing.generate_round(event, user), user).matches.get()
    p, q = players(match.home), players(match.away)
    with pytest.raises(UploadError, match="two players in each room"):
        results.set_lineup(
            match, user, seat(match, {match.home: (p[0:2], p[2:3]), match.away: (q[0:2], q[2:4])})
        )
    with pytest.raises(UploadError, match="not on the team's roster"):
        results.set_lineup(
            match, user, seat(match, {match.home: (p[0:2], [p[2], q[0]]), match.away: (q[0:2], q[2:4])})
        )


def test_butler_against_the_datum(make_team_event, director):
    event = make_team_event(teams=4, first_round="seeding", boards_per_match=6)
    user = director(event)
    round_ = pairing.publish_round(pairing.generate_round(event, user), user)
    first, second = round_.matches.order_by("table")
    for match in (first, second):
        p, q = players(match.home), players(match.away)
        results.set_lineup(
            match, user, seat(match, {match.home: (p[0:2], p[2:4]), match.away: (q[0:2], q[2:4])})
        )
    flat = tuple(ParsedBoard(b, 420, 420) for b in range(2, 7))
    results.upload_result(first, user, ParsedResult((ParsedBoard(1, 420, 420),) + flat))
    # Board 1 at the second table: the closed room (second's away pair NS) goes one down.
    results.upload_result(second, user, ParsedResult((ParsedBoard(1, 420, -50),) + flat))
    recompute_event(event.pk)
    # Board 1's results 420, 420, 420, -50: the trimmed mean drops one highest and one lowest: datum 420.
    rows = {(r.player_a_id, r.player_b_id): r for r in PairButler.objects.filter(event=event)}
    away_closed = tuple(sorted(players(second.away)[2:4]))
    home_closed = tuple(sorted(players(second.home)[2:4]))
    assert rows[away_closed].imps == -10 and rows[home_closed].imps == 10
    assert rows[home_closed].rank == 1 and rows[away_closed].rank == 8
    assert all(r.boards == 6 for r in rows.values()) and len(rows) == 8


def test_butler_engine_ranks_by_average_and_sets_aside_few_boards():
    plays = [Play(("r", b), "A", "B", 420) for b in range(4)] + [
        Play(("r", b), "C", "D", 620) for b in range(4)
    ]
    plays.append(Play(("r", 9), "E", "F", 100))
    table = {s.pair: s for s in butler_pairs(plays)}
    assert table["C"].rank == 1 and table["C"].imps == 4 * 3  # 620 v datum 520: 100 points, 3 IMPs
    assert table["E"].rank is None and table["E"].boards == 1
