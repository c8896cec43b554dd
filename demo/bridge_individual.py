"""Demo data of a bridge individual event: a finished club individual with results, so the results index
shows the format.

Idempotent (the event is looked up by its title) and deterministic for a given day: 12 MBSz members at
three tables, the full individual movement (11 rounds of 2 boards: everybody partners everybody once),
results uploaded as a PBN version with the deals (hand diagrams on the travellers) by the demo director
through the one upload seam, one adjusted score by the director on top (a decision layer), standings
computed and published.
"""

import datetime
import hashlib
import random

from django.db import transaction
from django.utils import timezone

from bridge.engine.dealing import deal_board
from bridge.engine.individual_movements import individual as individual_movement
from bridge.services import individual, uploads
from demo import individual_sample as sample
from demo.bridge import mbsz_and_director
from federation.models import Club, Membership, Role
from tournaments.models import Entry, EntryMember, Event, Session

TITLE = "Őszi egyéni verseny (bemutató)"
TABLES = 3


def seed(out=None):
    found = mbsz_and_director(TITLE, out, "individual")
    if found is None:
        return
    mbsz, director = found
    with transaction.atomic():
        event = _event(mbsz, director)
        movement = individual_movement(TABLES, boards_per_round=2)
        setup = individual.setup_for(event)
        setup.tables, setup.boards_per_round = TABLES, 2
        setup.save(update_fields=["tables", "boards_per_round"])
        rows = sample.play(movement, random.Random(20261129))
        deals = {
            board: deal_board(hashlib.sha256(TITLE.encode()).digest(), "demo", board)
            for board in movement.boards
        }
        uploads.submit(
            setup,
            "pbn",
            user=director,
            text=sample.pbn_text(rows, deals),
            file_name="oszi-egyeni.pbn",
            note="Eredmények a pontozóprogramból",
        )
        last = rows[-1]
        individual.apply_decision(
            setup,
            last["board"],
            last["table"],
            source="adjustment",
            reason="VSz 29: a leosztást nem lehetett lejátszani",
            user=director,
            score="A+/A-",
        )
        individual.recompute_event(event.pk)
        individual.publish(setup, director)
    if out:
        out.write(f"bridge: {TITLE} with {4 * TABLES} players, {len(movement.boards)} boards, published")


def _event(mbsz, director):
    day = timezone.localdate() - datetime.timedelta(days=11)
    start = timezone.make_aware(datetime.datetime.combine(day, datetime.time(18, 0)))
    club = Club.objects.filter(short_name="BBE").first()
    event = Event.objects.create(
        federation=mbsz,
        club=club,
        title=TITLE,
        format=Event.Format.INDIVIDUAL,
        event_class=Event.EventClass.CLUB,
        start_date=day,
        status=Event.Status.APPROVED,
        published_at=start - datetime.timedelta(days=30),
        movement="Egyéni, 3 asztal, 11 forduló",
        boards=22,
        venue=club.name if club else "",
        director_name="Hajdu Gábor",
        masterpoint_multiplier="1.00",
    )
    Session.objects.create(event=event, name="", starts_at=start)
    Role.objects.get_or_create(user=director, kind=Role.DIRECTOR, event=event)
    members = (
        Membership.objects.filter(federation=mbsz, is_active=True, person__suspensions__isnull=True)
        .select_related("person")
        .order_by("-member_number")
    )
    for person in [m.person for m in members][: 4 * TABLES]:
        entry = Entry.objects.create(
            event=event, status=Entry.Status.ACTIVE, entered_at=start - datetime.timedelta(days=4)
        )
        EntryMember.objects.create(entry=entry, person=person, position=1, confirmed_at=entry.entered_at)
    return event
