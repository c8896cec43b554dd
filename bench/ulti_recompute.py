"""Benchmark: the ulti recompute after a Swiss round of 1,000 players (333 tables of three and a bye).

Builds the event on a PostgreSQL scratch database through the services (start, draw, publish, upload each
round), then times `ulti.services.recompute.recompute_event` in-process beside the database lower bound
(bench/dbbench.py: raw psycopg reading the latest round uploads' forint results and the tables' seats and
COPY-writing the same table scores and standings).

Run:  DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python bench/ulti_recompute.py [players] [rounds]
"""

from __future__ import annotations

import datetime
import random
import sys

import dbbench

PLAYERS = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 1


def build():
    from django.contrib.auth import get_user_model

    from federation.models import Club, Federation, Person, Region
    from tournaments.models import Entry, EntryMember, Event
    from ulti.services import draw, setup, uploads

    mausz, _ = Federation.objects.get_or_create(
        code="mausz", defaults=dict(name="MAUSZ", short_name="MAUSZ", game=Federation.ULTI)
    )
    region = Region.objects.create(federation=mausz, code="bench", name="Bench")
    club = Club.objects.create(
        federation=mausz, name="Bench Ulti", short_name="BU", city="Szolnok", region=region
    )
    user, _ = get_user_model().objects.get_or_create(username="bench", defaults={"email": "bench@example.hu"})
    event = Event.objects.create(
        federation=mausz,
        club=club,
        title=f"Ulti {PLAYERS}",
        format="ulti_individual",
        event_class="nub_qualifier",
        start_date=datetime.date(2026, 3, 7),
        status="approved",
        rule_set="mausz",
    )
    for n in range(PLAYERS):
        person = Person.objects.create(
            first_name=f"J{n}", last_name="Bench", birth_date=datetime.date(1970, 5, 17), gender=Person.MALE,
            email=f"u{n}@example.hu",
        )  # fmt: skip
        EntryMember.objects.create(entry=Entry.objects.create(event=event), person=person)
    group = setup.start_event(event, user).groups.get()
    rng = random.Random(1000)
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


def main():
    with dbbench.scratch_django("ulti") as url:
        from ulti.models import SCOPE, Standing, TableScore
        from ulti.services.recompute import recompute_event

        print(f"Ulti recompute benchmark  [load {dbbench.load()}]")
        event = build()
        recompute_event(event.pk, force=True)
        e = event.pk
        stages = f"SELECT id FROM ulti_stage WHERE event_id = {e}"
        tables = (
            "SELECT t.id FROM ulti_table t JOIN ulti_round r ON r.id = t.round_id "
            f"JOIN ulti_group g ON g.id = r.group_id WHERE g.stage_id IN ({stages})"
        )
        lower = dbbench.LowerBound(
            url,
            e,
            SCOPE,
            reads=[
                ("SELECT * FROM ulti_forintresult WHERE upload_id IN (SELECT id FROM ulti_roundupload)", ()),
                (f"SELECT * FROM ulti_seat WHERE table_id IN ({tables})", ()),
                (f"SELECT * FROM ulti_participant WHERE stage_id IN ({stages})", ()),
            ],
            outputs=[
                (TableScore, f"table_id IN ({tables})"),
                (Standing, f"stage_id IN ({stages})"),
            ],
        )
        scores = TableScore.objects.filter(table__round__group__stage__event_id=e).count()
        dbbench.compare(
            f"{PLAYERS} players, {ROUNDS} round(s), {scores} table scores",
            lambda: recompute_event(e, force=True),
            lower,
        )
        lower.close()


if __name__ == "__main__":
    main()
