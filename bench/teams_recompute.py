"""Benchmark: the bridge teams recompute of a round of 60 matches (120 teams of four, line-ups, Butler).

Builds the event on a PostgreSQL scratch database through the services (generate, publish, upload each
match's result and line-up), then times `teams.services.recompute.recompute_event` in-process beside the
database lower bound (bench/dbbench.py: raw psycopg reading the latest uploads' boards and the line-ups and
COPY-writing the same match results, board results, standings, boards played and Butler rows).

The engine's share (match scoring, VP, standings, rights, Butler, places) is timed inside each recompute; the
ratio is recompute / (lower bound + engine). Each size is its own event in one scratch database, so the query
counts of the sizes can be compared: they must not grow with the number of matches.

Run:  DATABASE_URL=postgres://postgres@127.0.0.1:5432/wt_x_bench python bench/teams_recompute.py [matches ...]
      [--rounds N] [--baseline REV]  (REV: also time the recompute module as it was at that git revision,
      back-to-back on the same build)  (default: 60 and 120 matches a round, 1 round; the scratch database is named after the URL's)
"""

from __future__ import annotations

import datetime
import random
import sys
from decimal import Decimal

import dbbench

_ARGS = sys.argv[1:]
ROUNDS = int(_ARGS.pop(_ARGS.index("--rounds") + 1)) if "--rounds" in _ARGS else 1
BASELINE = _ARGS.pop(_ARGS.index("--baseline") + 1) if "--baseline" in _ARGS else None
SIZES = [int(a) for a in _ARGS if a.isdigit()] or [60, 120]


def build(matches: int):
    from django.contrib.auth import get_user_model

    from demo.teams import _lineup
    from federation.models import Federation, Person
    from teams.engine.parsed import ParsedBoard, ParsedResult
    from teams.models import TeamEvent
    from teams.services import pairing, results
    from tournaments.models import Entry, EntryMember, Event

    mbsz, _ = Federation.objects.get_or_create(
        code="mbsz", defaults=dict(name="MBSz", short_name="MBSz", game="bridge")
    )
    user, _ = get_user_model().objects.get_or_create(username="bench", defaults={"email": "bench@example.hu"})
    event = Event.objects.create(
        federation=mbsz,
        title=f"Bench csapat {matches}",
        format=Event.Format.TEAMS,
        event_class=Event.EventClass.CLUB,
        start_date=datetime.date(2026, 3, 7),
        status=Event.Status.APPROVED,
        masterpoint_multiplier=Decimal("1.00"),
    )
    for n in range(2 * matches):
        entry = Entry.objects.create(event=event, team_name=f"Csapat {n + 1}")
        for position in range(1, 5):
            person = Person.objects.create(
                first_name=f"J{n}-{position}",
                last_name="Bench",
                birth_date=datetime.date(1970, 5, 17),
                gender=Person.MALE,
                email=f"p{matches}-{n}-{position}@example.hu",
            )
            EntryMember.objects.create(
                entry=entry, person=person, position=position, is_captain=position == 1
            )
    TeamEvent.objects.create(event=event)
    rng = random.Random(matches)
    from teams.services.recompute import recompute_event

    for _round in range(ROUNDS):
        round_ = pairing.publish_round(
            pairing.generate_round(event, user, seed="d3a7" * 10 if _round == 0 else None), user
        )
        for match in round_.matches.filter(away__isnull=False).select_related("home", "away", "round"):
            parsed = ParsedResult(
                tuple(
                    ParsedBoard(b, rng.choice((420, 450, -50, 140)), rng.choice((420, -100, 170, 140)))
                    for b in range(1, round_.boards + 1)
                )
            )
            results.upload_result(match, user, parsed)
            _lineup(match, user)
        recompute_event(event.pk)
    return event


ENGINES = (
    ("match_engine", "score_match"),
    ("recompute", "match_vp"),
    ("recompute", "standings_by_round"),
    ("rights_engine", "boards_played"),
    ("butler_engine", "butler_pairs"),
    ("places_engine", "knockout_places"),
    ("places_engine", "event_places"),
)


def engines(recompute):
    """The engine functions `recompute` (today's module or a baseline) calls, to time them inside it."""
    return [
        (getattr(recompute, where) if where != "recompute" else recompute, name) for where, name in ENGINES
    ]


def lower_bound(url, e):
    from teams.models import SCOPE, BoardScore, MatchResult, PairButler, PlayerBoards, Standing

    in_event = f"match_id IN (SELECT m.id FROM teams_match m JOIN teams_round r ON r.id = m.round_id WHERE r.event_id = {e})"
    return dbbench.LowerBound(
        url,
        e,
        SCOPE,
        reads=[
            (
                "SELECT u.match_id, u.number, u.imps_only, u.home_imps, u.away_imps, u.boards_played, "
                "b.board, b.open_ns, b.closed_ns, b.open_contract, b.closed_contract, b.adjusted_imps "
                "FROM teams_matchupload u LEFT JOIN teams_uploadedboard b ON b.upload_id = u.id "
                f"WHERE u.{in_event}",
                (),
            ),
            (
                "SELECT l.match_id, l.number, s.segment, s.team_id, s.room, s.person_id FROM teams_lineup l "
                f"JOIN teams_lineupseat s ON s.lineup_id = l.id WHERE l.{in_event}",
                (),
            ),
        ],
        outputs=[
            (MatchResult, in_event),
            (BoardScore, in_event),
            (Standing, f"event_id = {e}"),
            (PlayerBoards, f"event_id = {e}"),
            (PairButler, f"event_id = {e}"),
        ],
    )


def main():
    with dbbench.scratch_django("teams") as url:
        from teams.models import MatchResult
        from teams.services import recompute

        print(f"Bridge teams recompute benchmark  [load {dbbench.load()}]")
        events = {size: build(size).pk for size in SIZES}

        def label(size, e):
            matches = MatchResult.objects.filter(match__round__event_id=e).count()
            return f"{matches} matches, {ROUNDS} round(s), {2 * size} teams"

        dbbench.compare_sizes(url, events, recompute, BASELINE, lower_bound, label, engines)


if __name__ == "__main__":
    main()
