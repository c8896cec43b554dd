"""Every pairing format through the manager service, preview/publish, hand edits, minimums, knockout."""

from collections import Counter

import pytest
from django.core.exceptions import ValidationError

from teams.engine.pairing.first_round import draw_first_round
from teams.models import FinalPlace, Match, Round, TeamEvent
from teams.services import Refused, pairing
from teams.services.recompute import recompute_event

pytestmark = pytest.mark.django_db
SEED = "ab" * 20


def stronger_wins(level):
    """The team with the lower start number wins every match by 2 IMPs a board."""

    def score(match):
        sign = 1 if match.home.start_number < match.away.start_number else -1
        return level(match.round.boards, 50 * sign)

    return score


def meetings(event):
    return Counter(
        frozenset(pair)
        for pair in Match.objects.filter(round__event=event, away__isnull=False).values_list(
            "home_id", "away_id"
        )
    )


def test_swiss_draw_is_replayable_and_never_repeats(make_team_event, director, play, level):
    event = make_team_event(teams=6, pairing_format="swiss", rounds=4)
    user = director(event)
    first = play(event, user, stronger_wins(level), seed=SEED)
    assert first.draw_seed == SEED and first.method == "draw"
    ids = list(event.teams.order_by("start_number").values_list("pk", flat=True))
    expected = [(p.home, p.away) for p in draw_first_round(ids, {"seed": SEED}).pairings]
    assert list(first.matches.order_by("table").values_list("home_id", "away_id")) == expected
    for _ in range(3):
        play(event, user, stronger_wins(level))
    assert max(meetings(event).values()) == 1  # no rematch in 4 Swiss rounds of 6 teams
    assert set(event.team_rounds.values_list("method", flat=True)) == {"draw", "swiss"}


def test_round_one_by_seeding(make_team_event, director):
    event = make_team_event(teams=6, first_round="seeding")
    round_ = pairing.generate_round(event, director(event))
    pairs = list(round_.matches.order_by("table").values_list("home__start_number", "away__start_number"))
    assert pairs == [(1, 6), (2, 5), (3, 4)]
    assert all("seeded" in m.flags for m in round_.matches.all())


def test_danish_pairs_by_ranking_even_as_a_rematch(make_team_event, director, play, level):
    event = make_team_event(teams=4, pairing_format="danish", first_round="seeding", rounds=3)
    user = director(event)
    play(event, user, stronger_wins(level))  # 1 v 4, 2 v 3: 1 and 2 win
    second = pairing.generate_round(event, user)
    pairs = list(second.matches.order_by("table").values_list("home__start_number", "away__start_number"))
    assert pairs == [(1, 2), (3, 4)]
    assert second.method == "danish"


def test_danish_swiss_switches_after_n_rounds(make_team_event, director, play, level):
    event = make_team_event(
        teams=6, pairing_format="danish_swiss", swiss_rounds=2, rounds=3, first_round="seeding"
    )
    user = director(event)
    methods = [play(event, user, stronger_wins(level)).method for _ in range(3)]
    assert methods == ["seeding", "danish_swiss:swiss", "danish_swiss:danish"]


def test_round_robin_everybody_meets_once(make_team_event, director, play, level):
    event = make_team_event(teams=4, pairing_format="round_robin", rounds=3)
    user = director(event)
    for _ in range(3):
        play(event, user, stronger_wins(level))
    assert sorted(meetings(event).values()) == [1] * 6
    with pytest.raises(Refused, match="Every round"):
        pairing.generate_round(event, user)


def test_round_robin_refuses_more_rounds_than_the_table(make_team_event, director):
    event = make_team_event(teams=4, pairing_format="round_robin", rounds=5)
    with pytest.raises(Refused, match="has 3 rounds"):
        pairing.generate_round(event, director(event))


def test_preview_then_publish(make_team_event, director, client):
    event = make_team_event(teams=4)
    user = director(event)
    draft = pairing.generate_round(event, user, seed=SEED)
    assert draft.status == Round.Status.DRAFT
    assert client.get(f"/teams/events/{event.pk}/rounds/1/").status_code == 404  # the public sees nothing yet
    again = pairing.generate_round(event, user, seed="cd" * 20)  # a new preview replaces the old one
    assert event.team_rounds.count() == 1 and again.draw_seed == "cd" * 20
    pairing.publish_round(again, user)
    assert client.get(f"/teams/events/{event.pk}/rounds/1/").status_code == 200


def test_next_round_waits_for_every_result(make_team_event, director):
    event = make_team_event(teams=4)
    user = director(event)
    pairing.publish_round(pairing.generate_round(event, user), user)
    with pytest.raises(Refused, match="being processed"):
        pairing.generate_round(event, user)
    recompute_event(event.pk)
    with pytest.raises(Refused, match="needs a result"):
        pairing.generate_round(event, user)


def test_hand_edit_warns_of_a_rematch(make_team_event, director, play, level):
    event = make_team_event(teams=4, pairing_format="swiss", first_round="seeding", rounds=3)
    user = director(event)
    play(event, user, stronger_wins(level))  # 1 v 4, 2 v 3
    second = pairing.generate_round(event, user)  # Swiss: 1 v 2, 3 v 4 (or similar, no rematch)
    teams = {t.start_number: t.pk for t in event.teams.all()}
    partner_of_1 = second.matches.get(home_id=teams[1]).away_id
    warnings = pairing.swap_teams(second, partner_of_1, teams[4], user)
    # With four teams the swap makes both matches rematches of round 1, and the director is told of each.
    assert len(warnings) == 2 and all("already met in round 1" in w for w in warnings)
    edited = second.matches.get(home_id=teams[1])
    assert edited.away_id == teams[4] and "rematch" in edited.flags and "hand_edit" in edited.flags
    pairing.swap_teams(second, teams[1], teams[4], user)  # the same two teams: home and away change sides
    assert second.matches.get(home_id=teams[4]).away_id == teams[1]


def test_no_edit_once_results_exist(make_team_event, director, play, level):
    event = make_team_event(teams=4)
    user = director(event)
    round_ = play(event, user, stronger_wins(level))
    a, b = round_.matches.values_list("home_id", flat=True)[:2]
    with pytest.raises(Refused, match="already has results"):
        pairing.swap_teams(round_, a, b, user)


def test_match_minimum_six_boards_except_patton(make_team_event, director):
    event = make_team_event(teams=4, boards_per_match=4)
    user = director(event)
    with pytest.raises(Refused, match="at least 6 boards"):
        pairing.generate_round(event, user)
    setup = event.team_setup
    with pytest.raises(ValidationError) as error:
        setup.full_clean()
    assert "boards_per_match" in error.value.message_dict
    setup.match_form = TeamEvent.MatchForm.PATTON
    setup.save()
    assert pairing.generate_round(event, user).boards == 4


def test_knockout_main_draw_minimum_sixteen_boards(make_team_event, director):
    event = make_team_event(teams=4, pairing_format="knockout", knockout_boards=12)
    with pytest.raises(Refused, match="knockout main-draw match is at least 16 boards"):
        pairing.generate_round(event, director(event))


def test_knockout_progression_and_places(make_team_event, director, play, level):
    event = make_team_event(teams=4, pairing_format="knockout", knockout_boards=16)
    user = director(event)
    semis = play(event, user, stronger_wins(level))
    pairs = list(semis.matches.order_by("line").values_list("home__start_number", "away__start_number"))
    assert pairs == [(1, 4), (2, 3)]  # 1 v last; the top two seeds can only meet in the final
    final = play(event, user, stronger_wins(level))
    assert list(final.matches.values_list("home__start_number", "away__start_number")) == [(1, 2)]
    places = {p.team.start_number: p.label for p in FinalPlace.objects.filter(event=event)}
    assert places == {1: "1", 2: "2", 3: "3–4", 4: "3–4"}
    assert event.team_progress.is_final
    with pytest.raises(Refused, match="every bracket has its winner"):
        pairing.generate_round(event, user)


def test_knockout_with_consolation_after_a_swiss_stage(make_team_event, director, play, level):
    event = make_team_event(
        teams=10, pairing_format="swiss", rounds=2, first_round="seeding", knockout_teams=8, consolation=True
    )
    user = director(event)
    play(event, user, stronger_wins(level))
    play(event, user, stronger_wins(level))
    quarters = play(event, user, stronger_wins(level))
    assert quarters.kind == "knockout" and quarters.matches.count() == 4
    second = play(event, user, stronger_wins(level))
    assert Counter(second.matches.values_list("bracket", flat=True)) == {"main": 2, "consolation": 2}
    third = play(event, user, stronger_wins(level))
    assert Counter(third.matches.values_list("bracket", flat=True)) == {"main": 1, "consolation": 1}
    places = [(p.place_from, p.place_to) for p in FinalPlace.objects.filter(event=event)]
    assert places == [(1, 1), (2, 2), (3, 4), (3, 4), (5, 5), (6, 6), (7, 8), (7, 8), (9, 9), (10, 10)]
    assert event.team_progress.is_final


def test_knockout_of_six_gives_the_top_seeds_byes(make_team_event, director, play, level):
    event = make_team_event(teams=6, pairing_format="knockout", knockout_boards=16)
    user = director(event)
    first = play(event, user, stronger_wins(level))
    byes = sorted(first.matches.filter(away__isnull=True).values_list("home__start_number", flat=True))
    assert byes == [1, 2] and first.matches.filter(away__isnull=False).count() == 2
    play(event, user, stronger_wins(level))
    play(event, user, stronger_wins(level))
    places = sorted(
        (p.place_from, p.place_to, p.team.start_number) for p in FinalPlace.objects.filter(event=event)
    )
    assert places == [(1, 1, 1), (2, 2, 2), (3, 4, 3), (3, 4, 4), (5, 6, 5), (5, 6, 6)]
