"""Demo data of bridge pair events: a finished club Mitchell with results, a correction and an adjusted score.

Idempotent (the event is looked up by its title) and deterministic for a given day: 20 MBSz members in
member-number order (the demo player among them), ten tables, 27 computer-dealt boards, results uploaded
as a CSV version by the demo director, standings and hand records computed, then one countersigned
correction and one average-plus/average-minus ruling, each a new version.
"""

import datetime
import hashlib
import random

from django.db import transaction
from django.utils import timezone

from bridge.models import SessionPair, SessionStart
from bridge.services import (
    adjustments,
    compute,
    corrections,
    dealing,
    handrecords,
    setup,
    upload_readers,
    uploads,
    versions,
)
from demo import bridge_sample as sample
from demo.federation import demo_director, members
from federation.models import Club, Federation, Person, Role
from results.models import VersionedUpload
from tournaments.models import Entry, EntryMember, Event, Session

TITLE = "Őszi Mitchell páros (bemutató)"
PAIRS = 20


def mbsz_and_director(title, out, what):
    """(MBSz, the demo director) for a bridge demo event titled `title`; None when it is there already (said
    on `out`) or the federation or a director is missing. Shared by the pair and individual demo events."""
    mbsz = Federation.objects.filter(code="mbsz").first()
    if mbsz is None or Event.objects.filter(federation=mbsz, title=title).exists():
        if out:
            out.write(f"bridge: demo {what} event already there")
        return None
    director = demo_director()
    return None if director is None else (mbsz, director)


def club_mitchell(mbsz, director, *, title, start, people, boards, announced_days=30, entered_days=5):
    """An approved club Mitchell of the demo bridge club, directed by `director`: `people` entered in pairs
    in their order, its one session set up with 3 boards a round. Shared by the finished and the live pair
    events."""
    club = Club.objects.filter(short_name="BBE").first()
    event = Event.objects.create(
        federation=mbsz,
        club=club,
        title=title,
        format=Event.Format.PAIRS,
        event_class=Event.EventClass.CLUB,
        start_date=timezone.localdate(start),
        status=Event.Status.APPROVED,
        published_at=start - datetime.timedelta(days=announced_days),
        movement=f"Mitchell, {len(people) // 4} asztal",
        boards=boards,
        venue=club.name if club else "",
        director_name="Hajdu Gábor",
        masterpoint_multiplier="1.00",
    )
    announced = Session.objects.create(event=event, name="", starts_at=start)
    Role.objects.get_or_create(user=director, kind=Role.DIRECTOR, event=event)
    entered = start - datetime.timedelta(days=entered_days)
    for index in range(len(people) // 2):
        entry = Entry.objects.create(event=event, status=Entry.Status.ACTIVE, entered_at=entered)
        for position, person in enumerate(people[2 * index : 2 * index + 2], start=1):
            EntryMember.objects.create(entry=entry, person=person, position=position, confirmed_at=entered)
    return setup.create_session(
        event,
        movement="mitchell",
        pairs=setup.pairs_from_entries(event),
        announced=announced,
        boards_per_round=3,
    )


def seed(out=None):
    found = mbsz_and_director(TITLE, out, "pair")
    if found is None:
        return
    mbsz, director = found
    with transaction.atomic():
        session = _event(mbsz, director)
        _results(session, director)
    if out:
        out.write(
            f"bridge: {TITLE} with {PAIRS} pairs, {session.boards} boards, results, a correction and a ruling"
        )


def _event(mbsz, director):
    today = timezone.localdate()
    day = today - datetime.timedelta(days=10)
    start = timezone.make_aware(datetime.datetime.combine(day, datetime.time(18, 0)))
    session = club_mitchell(mbsz, director, title=TITLE, start=start, people=_players(mbsz), boards=27)
    # A fixed seed keeps the demo reproducible; real sets always come from a fresh CSPRNG seed.
    seed = hashlib.sha256(f"versenyportal demo {TITLE}".encode()).digest()[:20]
    dealing.create_deal_set(
        session,
        session.boards,
        director,
        seed=seed,
        set_id="mbsz-demo-oszi-mitchell",
        now=start - datetime.timedelta(days=1),
    )
    return session


def _players(mbsz) -> list[Person]:
    """Members in member-number order; the demo player first, so he has a pair."""
    people = members(mbsz)
    player = Person.objects.filter(user__username="jatekos@demo.hu").first()
    if player in people:
        people.remove(player)
        people.insert(0, player)
    return people[: 2 * PAIRS]


def _results(session, director):
    rng = random.Random(20261130)
    # The director starts the session, which opens its deals: analyse them first so the tables play
    # around the double-dummy result and the frequency sheets look like real ones.
    dealing.record_start(session, SessionStart.Source.DIRECTOR, user=director)
    handrecords.compute(session.pk)
    analysis = {h.board: {"deal": h.deal, "tricks": h.tricks} for h in session.hand_records.all()}
    rows = sample.play(session, rng, analysis)
    text = sample.csv_text(session, rows)
    uploads.upload(
        session,
        upload_readers.parse_csv(text),
        source=VersionedUpload.Source.CSV,
        user=director,
        note="Eredmények a pontozóprogramból",
        file_name="oszi-mitchell.csv",
        raw=text,
    )
    compute.recompute_event(session.event_id)
    session = setup.publish(session, director)

    # A pair's correction of a clerical error, countersigned by the director.
    first = SessionPair.objects.get(section__session=session, number=1)
    row = (
        versions.results_of(versions.latest_version(session))
        .filter(ns=first)
        .exclude(contract="Pass")
        .first()
    )
    player = first.pair.player1
    if row is not None and player is not None and player.user is not None:
        tricks = row.tricks + 1 if row.tricks < 13 else row.tricks - 1
        request = corrections.request_correction(
            session,
            board=row.board,
            ns=row.ns,
            ew=row.ew,
            requester=first,
            contract=row.contract,
            declarer=row.declarer,
            result=str(tricks),
            reason="Eggyel több ütést írtunk be rosszul.",
            opponents_agree=True,
            user=player.user,
            now=session.published_at,
        )
        corrections.decide(request, approve=True, user=director, note="Az ellenfél is megerősítette.")
    # A slow-play ruling: average-plus to N-S, average-minus to E-W on one table.
    other = versions.results_of(versions.latest_version(session), boards=[5]).order_by("pk").first()
    if other is not None:
        adjustments.apply_ruling(
            session,
            5,
            other.ns,
            other.ew,
            artificial="A+/A-",
            reason="Lassú játék: a leosztás nem készült el (VSz 29).",
            user=director,
            source=VersionedUpload.Source.ADJUSTMENT,
        )
    compute.recompute_event(session.event_id)
