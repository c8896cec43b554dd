"""The recompute's queries do not grow with the event: no query per team, match, board or line-up (the reads
in one round trip on PostgreSQL, the writes in one more plus COPY streams, which are not queries)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from teams.models import BoardScore, MatchResult, PairButler, PlayerBoards, Standing
from teams.services import results
from teams.services.recompute import recompute_event

pytestmark = pytest.mark.django_db


def lineup(match, user):
    """Fixed partnerships: the first two players of each team in the open room, the other two closed."""
    seats = []
    for team in (match.home, match.away):
        people = [m.person_id for m in team.entry.members.order_by("position")]
        for segment in range(1, len(results.plan_of(match).segments) + 1):
            seats += [(segment, team.pk, "open", p) for p in people[:2]]
            seats += [(segment, team.pk, "closed", p) for p in people[2:4]]
    results.set_lineup(match, user, seats)


def test_recompute_queries_do_not_grow_with_the_teams_or_rounds(make_team_event, director, play, level):
    counts = []
    for teams, rounds in ((4, 1), (10, 1), (10, 2)):
        event = make_team_event(teams=teams, pairing_format="swiss", rounds=3)
        user = director(event)
        for _ in range(rounds):
            round_ = play(event, user, score=lambda match: level(match.round.boards, 10))
            for match in round_.matches.filter(away__isnull=False):
                lineup(match, user)
            recompute_event(event.pk)  # the line-ups are versions too: the next round waits for them
        with CaptureQueriesContext(connection) as queries:
            recompute_event(event.pk, force=True)
        counts.append(len(queries))
        matches = teams // 2 * rounds
        assert MatchResult.objects.filter(match__round__event=event).count() == matches
        assert (
            BoardScore.objects.filter(match__round__event=event).count()
            == matches * event.team_setup.boards_per_match
        )
        assert Standing.objects.filter(event=event, after_round=rounds).count() == teams
        assert PlayerBoards.objects.filter(event=event).count() == 4 * teams
        assert PairButler.objects.filter(event=event).count() == 2 * teams
    assert counts[0] == counts[1] == counts[2], counts
