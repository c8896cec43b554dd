"""Demo data of a live ulti round (issue #18): a club event being played today, its deals entered on the
tables' phones, so the ulti table page, the control room and the live standings have something to show.

Idempotent (the event is looked up by its title): six MAUSZ members, MAUSZ rules, 12 deals a round at two
tables of three. Round 1 is published with a table code per table and its clock started 35 minutes ago (the
MAUSZ minimum is 30, so it is over). Table 1 has entered its twelve deals and its three players have
confirmed the forints (the round's live, provisional standings come from it); table 2 has entered five deals
and is late. `seed_demo` prints the codes; the director is `vezeto@demo.hu`.
"""

import datetime
import uuid

from django.db import transaction
from django.utils import timezone

from demo.federation import demo_director, members
from demo.ulti import _sheet_deals
from federation.models import Club, Federation, Role
from tournaments.models import Entry, EntryMember, Event
from ulti import tasks
from ulti.models import RoundClock
from ulti.services import draw, round_clock, setup, table_entry

TITLE = "Esti élő ulti (bemutató)"
PLAYERS = 6
CLOCK_MINUTES_AGO = 35
ENTERED = {1: 12, 2: 5}  # deals entered at each table so far


def seed(out=None):
    mausz = Federation.objects.filter(code="mausz").first()
    director = demo_director()
    if mausz is None or director is None:
        return
    if Event.objects.filter(federation=mausz, title=TITLE).exists():
        if out:
            out.write("ulti: demo live round already there")
        return
    with transaction.atomic():
        rnd = _round(mausz, director)
        codes = table_entry.create_codes(rnd, director)
        _play(rnd, director, codes)
    # The standings here too, not only from the confirmations' queued recompute: with a broker the demo is
    # complete before a worker runs (as demo.ulti's events).
    tasks.recompute_ulti_event.apply(args=[rnd.event.pk])
    if out:
        texts = ", ".join(f"{code.table.number}: {code.code}" for code in codes)
        out.write(
            f"ulti: {TITLE} being played, round 1; table codes {texts} (/ulti/table/); "
            f"the control room: /ulti/rounds/{rnd.pk}/control-room/"
        )


def _round(mausz, director):
    start = timezone.now() - datetime.timedelta(minutes=CLOCK_MINUTES_AGO + 10)
    club = Club.objects.filter(federation=mausz).order_by("pk").first()
    event = Event.objects.create(
        federation=mausz,
        club=club,
        title=TITLE,
        format=Event.Format.ULTI_INDIVIDUAL,
        event_class=Event.EventClass.CLUB,
        start_date=timezone.localdate(start),
        status=Event.Status.APPROVED,
        published_at=start - datetime.timedelta(days=10),
        venue=club.name if club else "",
        rule_set="mausz",
    )
    Role.objects.get_or_create(user=director, kind=Role.DIRECTOR, event=event)
    for person in members(mausz, newest_first=True)[:PLAYERS]:
        entry = Entry.objects.create(
            event=event, status=Entry.Status.ACTIVE, entered_at=start - datetime.timedelta(days=2)
        )
        EntryMember.objects.create(entry=entry, person=person, confirmed_at=entry.entered_at)
    setup.ensure_settings(event, unit_forints=10)
    group = setup.start_event(event, director).groups.get()
    return draw.publish_round(draw.generate_round(group, director), director)


def _play(rnd, director, codes):
    round_clock.start(rnd, director)
    for code in codes:
        keys = [seat.key for seat in table_entry.seats_of(code.table)]
        head = None
        for number, record in _sheet_deals(keys)[: ENTERED.get(code.table.number, 0)]:
            head = table_entry.send(
                code, key=uuid.uuid4().hex, kind="deal", number=number, based_on=head, record=record
            ).entry.pk
        state = table_entry.state_of(code)
        if state.complete:  # the three players confirm the round's forints: its version
            for seat in state.seats:
                table_entry.send(code, key=uuid.uuid4().hex, kind="confirm", seat=seat.pk, based_on=head)
    RoundClock.objects.filter(round=rnd).update(
        started_at=timezone.now() - datetime.timedelta(minutes=CLOCK_MINUTES_AGO)
    )
