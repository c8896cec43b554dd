"""Benchmark: the ulti recompute after a Swiss round of 1,000 players (333 tables of three and a bye).

Builds the event on a PostgreSQL scratch database through the services (start, draw, publish, upload each
round), then times `ulti.services.recompute.recompute_event` in-process beside the database lower bound
(bench/dbbench.py: raw psycopg reading the latest round uploads' forint results and the tables' seats and
COPY-writing the same table scores and standings).

The engine's share (table scores, standings) is timed inside each recompute; the ratio is recompute / (lower
bound + engine). Each size is its own event in one scratch database, so the query counts of the sizes can be
compared: they must not grow with the number of players.

Run:  DATABASE_URL=postgres://postgres@127.0.0.1:5432/wt_x_bench python bench/ulti_recompute.py [players ...]
      [--rounds N] [--baseline REV]  (REV: also time the recompute module as it was at that git revision,
      back-to-back on the same build)  (default: 500 and 1,000 players, 1 round; the scratch database is named after the URL's)
"""

from __future__ import annotations

import datetime
import random
import sys

import dbbench

_ARGS = sys.argv[1:]
ROUNDS = int(_ARGS.pop(_ARGS.index("--rounds") + 1)) if "--rounds" in _ARGS else 1
BASELINE = _ARGS.pop(_ARGS.index("--baseline") + 1) if "--baseline" in _ARGS else None
SIZES = [int(a) for a in _ARGS if a.isdigit()] or [500, 1000]


def build(players: int):
    from django.contrib.auth import get_user_model

    from federation.models import Club, Federation, Person, Region
    from tournaments.models import Entry, EntryMember, Event
    from ulti.services import draw, setup, uploads

    mausz, _ = Federation.objects.get_or_create(
        code="mausz", defaults=dict(name="MAUSZ", short_name="MAUSZ", game=Federation.ULTI)
    )
    region, _ = Region.objects.get_or_create(federation=mausz, code="bench", defaults=dict(name="Bench"))
    club, _ = Club.objects.get_or_create(
        federation=mausz, name="Bench Ulti", defaults=dict(short_name="BU", city="Szolnok", region=region)
    )
    user, _ = get_user_model().objects.get_or_create(username="bench", defaults={"email": "bench@example.hu"})
    event = Event.objects.create(
        federation=mausz,
        club=club,
        title=f"Ulti {players}",
        format="ulti_individual",
        event_class="nub_qualifier",
        start_date=datetime.date(2026, 3, 7),
        status="approved",
        rule_set="mausz",
    )
    for n in range(players):
        person = Person.objects.create(
            first_name=f"J{n}", last_name="Bench", birth_date=datetime.date(1970, 5, 17), gender=Person.MALE,
            email=f"u{players}-{n}@example.hu",
        )  # fmt: skip
        EntryMember.objects.create(entry=Entry.objects.create(event=event), person=person)
    group = setup.start_event(event, user).groups.get()
    rng = random.Random(players)
    for _ in range(ROUNDS):
        rnd = draw.generate_round(group, user)
        draw.publish_round(rnd, user)
        results = {}
        for table in rnd.tables.all():
            seats = [s.participant_id for s in table.seats.order_by("position")]
            a, b = rng.randint(-30, 30) * 100, rng.randint(-30, 30) * 100
            results[table.number] = dict(zip(seats, (a, b, -a - b), strict=True))
        uploads.upload_round(rnd, results, user=user)
    return event


def lower_bound(url, e):
    from ulti.models import SCOPE, Standing, TableScore

    stages = f"SELECT id FROM ulti_stage WHERE event_id = {e}"
    rounds = (
        f"SELECT r.id FROM ulti_round r JOIN ulti_group g ON g.id = r.group_id WHERE g.stage_id IN ({stages})"
    )
    tables = f"SELECT t.id FROM ulti_table t WHERE t.round_id IN ({rounds})"
    return dbbench.LowerBound(
        url,
        e,
        SCOPE,
        reads=[
            (
                "SELECT table_id, participant_id, forint FROM ulti_forintresult WHERE upload_id IN "
                f"(SELECT id FROM ulti_roundupload WHERE round_id IN ({rounds}))",
                (),
            ),
            (f"SELECT table_id, participant_id, position FROM ulti_seat WHERE table_id IN ({tables})", ()),
            (f"SELECT id, group_id, number FROM ulti_participant WHERE stage_id IN ({stages})", ()),
        ],
        outputs=[
            (TableScore, f"table_id IN ({tables})"),
            (Standing, f"stage_id IN ({stages})"),
        ],
    )


def main():
    with dbbench.scratch_django("ulti") as url:
        from ulti.models import TableScore
        from ulti.services import recompute

        print(f"Ulti recompute benchmark  [load {dbbench.load()}]")
        events = {size: build(size).pk for size in SIZES}

        def label(size, e):
            scores = TableScore.objects.filter(table__round__group__stage__event_id=e).count()
            return f"{size} players, {ROUNDS} round(s), {scores} table scores"

        def engines(module):
            return [(module, "score_table"), (module, "compute_standings")]

        dbbench.compare_sizes(url, events, recompute, BASELINE, lower_bound, label, engines)


if __name__ == "__main__":
    main()
