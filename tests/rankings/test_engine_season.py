"""NUB season rules: best three of five, eligibility, cut, reserve list, replacement; team final."""

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankings.engine import season
from rankings.engine.season import EventScore, Invitation, PlayerResults
from rankings.engine.team_final import TeamResult, team_final


def player(pid, *results, name=None):
    return PlayerResults(pid, tuple(EventScore(k, p, f) for k, p, f in results), (name or f"P{pid:03d}",))


def test_best_three_of_five_points_then_forint():
    p = player(1, ("q1", 30, 100), ("q2", 28, 900), ("q3", 30, -50), ("q4", 28, 800), ("q5", 10, 5000))
    [line] = season.qualifier_table([p])
    # 30 (+100), 30 (-50), then of the two 28s the better forint (q2: 900).
    assert line.counted == ("q1", "q3", "q2")
    assert (line.points, line.forint, line.attended) == (88, 950, 5)


def test_players_who_attended_only_two_are_not_eligible():
    lines = season.qualifier_table(
        [player(1, ("a", 40, 0), ("b", 40, 0)), player(2, ("a", 1, 0), ("b", 1, 0), ("c", 1, 0))], places=60
    )
    by = {x.person_id: x for x in lines}
    assert by[1].status == "ineligible" and not by[1].eligible and by[1].position is None
    assert by[1].points == 80  # shown, but not ranked
    assert by[2].status == "qualified" and by[2].place_from == 1


def test_a_shared_place_on_the_cut_is_a_tie_to_resolve_never_admitted_whole():
    players = [
        player(1, ("a", 30, 10), ("b", 30, 0), ("c", 30, 0), name="Cz"),
        player(2, ("a", 30, 10), ("b", 30, 0), ("c", 30, 0), name="Ab"),
        player(3, ("a", 20, 0), ("b", 20, 0), ("c", 20, 0)),
        player(4, ("a", 40, 0), ("b", 40, 0), ("c", 40, 0)),
    ]
    lines = season.qualifier_table(players, places=2)
    assert [(x.person_id, x.place_from, x.place_to, x.status, x.reserve_position) for x in lines] == [
        (4, 1, 1, "qualified", None),
        (2, 2, 3, "tied", None),  # 90 points and +10 Ft each: shared 2-3 straddles the cut at 2
        (1, 2, 3, "tied", None),
        (3, 4, 4, "reserve", 1),
    ]
    assert season.tie_at_cut(lines, 2) == season.TieAtCut(2, (2, 1), 1)
    # The staff choose Cz (not the first by name): he goes on, Ab heads the reserve list.
    lines = season.qualifier_table(players, places=2, resolved=[1])
    assert [(x.person_id, x.status, x.reserve_position) for x in lines] == [
        (4, "qualified", None),
        (2, "reserve", 1),
        (1, "qualified", None),
        (3, "reserve", 2),
    ]
    # A choice that does not fit the tie (both of them for one seat, or a player outside it) is ignored.
    for wrong in ([1, 2], [3], [4]):
        lines = season.qualifier_table(players, places=2, resolved=wrong)
        assert [x.status for x in lines] == ["qualified", "tied", "tied", "reserve"], wrong


def test_top_60_with_three_tied_for_places_59_to_61():
    """II. 10. (5): 58 clear places, then three players on 84 points and +1 250 Ft share 59-61: two seats."""
    players = [player(i, ("a", 100 - i, 0), ("b", 50, 0), ("c", 50, 0)) for i in range(1, 59)]
    players += [player(i, ("a", 30, 1250), ("b", 27, 0), ("c", 27, 0)) for i in (59, 60, 61)]
    players += [player(62, ("a", 30, 1240), ("b", 27, 0), ("c", 27, 0))]
    lines = season.qualifier_table(players)  # places=60
    status = {x.person_id: x.status for x in lines}
    assert sum(s == "qualified" for s in status.values()) == 58
    assert [status[i] for i in (59, 60, 61, 62)] == ["tied", "tied", "tied", "reserve"]
    tie = season.tie_at_cut(lines, 60)
    assert (tie.tied, tie.seats) == ((59, 60, 61), 2)
    lines = season.qualifier_table(players, resolved=[59, 61])
    status = {x.person_id: (x.status, x.reserve_position) for x in lines}
    assert sum(s == "qualified" for s, _r in status.values()) == 60
    assert status[60] == ("reserve", 1) and status[62] == ("reserve", 2)


def test_the_final_cut_at_21_applies_to_the_semifinal_table_too():
    players = [player(i, ("s1", 50 - i, 0)) for i in range(1, 21)]
    players += [player(21, ("s1", 10, -40)), player(22, ("s1", 10, -40))]
    lines = season.stage_table(players)  # places=21
    assert [x.status for x in lines[-2:]] == ["tied", "tied"]
    assert sum(x.status == "qualified" for x in lines) == 20
    assert season.tie_at_cut(lines, 21).seats == 1
    assert sum(x.status == "qualified" for x in season.stage_table(players, resolved=[22])) == 21


@given(
    scores=st.lists(st.tuples(st.integers(0, 5), st.integers(-2, 2)), min_size=1, max_size=30),
    places=st.integers(1, 30),
)
def test_never_more_qualified_than_places_and_a_valid_choice_fills_them(scores, places):
    players = [player(i, ("a", p, f)) for i, (p, f) in enumerate(scores, start=1)]
    lines = season.stage_table(players, places=places)
    assert sum(x.status == "qualified" for x in lines) <= places
    tie = season.tie_at_cut(lines, places)
    if tie is None:
        assert sum(x.status == "qualified" for x in lines) == min(places, len(players))
        return
    chosen = tie.tied[-tie.seats :]
    resolved = season.stage_table(players, places=places, resolved=chosen)
    assert sum(x.status == "qualified" for x in resolved) == places
    assert {x.person_id for x in resolved if x.status == "qualified"} >= set(chosen)
    assert not any(x.status == "tied" for x in resolved)


def test_regions_are_combined_and_the_reserve_list_follows_the_order():
    # Results of both regions' qualifiers are one table: keys from two regions count alike.
    players = [
        player(i, (f"dt{i % 5}", 10 + i, 0), (f"ft{i % 3}", 10, i), ("dt9", 5, 0)) for i in range(1, 9)
    ]
    lines = season.qualifier_table(players, places=5)
    assert [x.person_id for x in lines if x.status == "qualified"] == [8, 7, 6, 5, 4]
    assert [(x.person_id, x.reserve_position) for x in lines if x.status == "reserve"] == [
        (3, 1),
        (2, 2),
        (1, 3),
    ]


def test_stage_table_counts_everything_from_zero():
    lines = season.stage_table([player(1, ("s1", 10, 0), ("s2", 12, 0)), player(2, ("s1", 30, 0))], places=1)
    assert [(x.person_id, x.points, x.status) for x in lines] == [(2, 30, "qualified"), (1, 22, "reserve")]


def test_replacement_from_the_reserve_list_in_order():
    now = datetime.datetime(2026, 9, 1, 12, tzinfo=datetime.UTC)
    before, after = now - datetime.timedelta(hours=1), now + datetime.timedelta(hours=1)
    invitations = [
        Invitation(1, "confirmed", before),
        Invitation(2, "invited", before),  # missed the deadline
        Invitation(3, "invited", after),  # still has time
        Invitation(4, "declined", after),
        Invitation(5, "expired", before, replaced=True),  # replaced earlier by 10
        Invitation(10, "confirmed", after),
    ]
    plan = season.replacements(invitations, [10, 11, 12, 13], now)
    assert [(r.vacated_by, r.expired, r.replacement) for r in plan] == [(2, True, 11), (4, False, 12)]
    # The reserve list runs out.
    plan = season.replacements(invitations, [10, 11], now)
    assert [(r.vacated_by, r.replacement) for r in plan] == [(2, 11), (4, None)]


def test_sport_ulti_invitations():
    invited = season.sport_ulti_invitations([5, 6, 7, 8], [7, 9], from_list=3)
    assert invited == [(5, "list"), (6, "list"), (7, "list"), (9, "final")]


def teams(region, n, base=100):
    return [TeamResult(f"{region}{i:02d}", region, base - i, 0) for i in range(1, n + 1)]


def test_team_final_seven_per_region_and_the_fifteenth_from_the_bigger_region():
    result = team_final(teams("dt", 15) + teams("ft", 11), places=15, per_region=7)
    finalists = result.finalists
    assert len(finalists) == 15 and result.extra_regions == ("dt",)
    assert sum(1 for t in finalists if t.region == "dt") == 8
    assert [t.key for t in result.reserves("ft")][:2] == ["ft08", "ft09"]
    assert [t.reserve_position for t in result.reserves("dt")][:2] == [1, 2]


def test_team_final_equal_regions_the_better_eighth_team():
    result = team_final(teams("dt", 10, base=100) + teams("ft", 10, base=200))
    assert result.extra_regions == ("ft",)


def test_team_final_a_small_region_leaves_its_places_to_the_other():
    result = team_final(teams("dt", 20) + teams("ft", 4))
    assert sum(1 for t in result.finalists if t.region == "ft") == 4
    assert sum(1 for t in result.finalists if t.region == "dt") == 11


def test_a_team_twice_is_refused():
    with pytest.raises(ValueError):
        team_final([TeamResult("x", "dt", 1, 0), TeamResult("x", "dt", 2, 0)])
