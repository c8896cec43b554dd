"""Demo data of a live tournament day (issue #18): a pair session being played today, its results entered at
the tables on phones, so the table pages, the director's control room and the live public pages have
something to show.

Idempotent (the event is looked up by its title): 10 MBSz members' pairs in a Mitchell of 5 tables, 3 boards a
round (5 rounds, 15 boards), a table code for each table (drawn afresh, as always; `seed_demo` prints them).
Round 1 is over: every table entered its boards (North) and confirmed them (East), each confirmation a
version through the one upload seam. Round 2's clock was started 25 minutes ago (VSz 31: 22 minutes for 3
boards, so it is over): table 1 has finished it, table 2 has a result waiting for East, table 3 disputed a
board (the director is called), tables 2 to 5 are late. The session is not published: its pages say "live,
provisional".
"""

import datetime
import random

from django.db import transaction
from django.utils import timezone

from bridge.models import RoundClock, TableEntry
from bridge.services import compute, table_entry
from demo.bridge import club_mitchell, mbsz_and_director
from demo.bridge_sample import phone_send
from demo.federation import members

TITLE = "Esti élő páros (bemutató)"
PAIRS = 10
# Plausible lines a phone sends ("4S N =": contract, declarer, result), drawn per board.
LINES = [
    "4S N =",
    "4S S +1",
    "3NT N =",
    "3NT S -1",
    "4H E =",
    "4H W -1",
    "2S N +1",
    "3D E =",
    "1NT W +1",
    "5C N -2",
    "Pass",
]
ROUND_MINUTES_AGO = {1: 55, 2: 25}  # when each round's clock started, seen from the seeding


def seed(out=None):
    found = mbsz_and_director(TITLE, out, "live pair")
    if found is None:
        return
    mbsz, director = found
    with transaction.atomic():
        session = _event(mbsz, director)
        codes = table_entry.create_codes(session, director)
        _play(session, director, codes)
    # The standings here too, not only from the confirmations' queued recomputes: with a broker the demo is
    # complete before a worker runs (as the finished pair event's).
    compute.recompute_event(session.event_id)
    if out:
        texts = ", ".join(f"{code.table}: {code.code}" for code in codes)
        out.write(
            f"bridge: {TITLE} being played, round 2 of {table_entry.rounds_of(session)}; table codes {texts} "
            f"(/bridge/table/); the director's control room: /bridge/sessions/{session.pk}/control-room/"
        )


def _event(mbsz, director):
    start = timezone.now() - datetime.timedelta(minutes=ROUND_MINUTES_AGO[1] + 5)
    people = members(mbsz, newest_first=True)[: 2 * PAIRS]  # the other end of the finished event's list
    return club_mitchell(
        mbsz, director, title=TITLE, start=start, people=people, boards=15, announced_days=14, entered_days=3
    )


def _enter(code, board_number, rng, *, answer=TableEntry.Kind.CONFIRM, note=""):
    """North enters the board's result; East confirms it, disputes it, or (answer None) has not yet."""
    now = table_entry.current_round(code)
    result = phone_send(code, now, board_number, TableEntry.Kind.RESULT, contract=rng.choice(LINES))
    if answer is not None:
        phone_send(code, now, board_number, answer, based_on=result.pk, note=note)


def _play(session, director, codes):
    rng = random.Random(TITLE)
    table_entry.start_clock(session, director, round=1)
    for code in codes:
        for board in table_entry.current_round(code).boards:
            _enter(code, board.board, rng)
    # Every table has finished round 1, so the phones are on round 2 already: the director starts its clock.
    table_entry.start_clock(session, director, round=2)
    # Round 2, as the director sees it 25 minutes later: the boards each table has entered so far.
    progress = {1: 3, 2: 3, 3: 2, 4: 1, 5: 0}
    for code in codes:
        boards = [b.board for b in table_entry.current_round(code).boards][: progress.get(code.table, 0)]
        for index, number in enumerate(boards):
            answer, note = TableEntry.Kind.CONFIRM, ""
            if code.table == 2 and index == len(boards) - 1:
                answer = None  # East has not confirmed it yet
            elif code.table == 3 and index == len(boards) - 1:
                answer, note = TableEntry.Kind.DISPUTE, "Nem ennyi ütés volt: hívjuk a versenyvezetőt."
            _enter(code, number, rng, answer=answer, note=note)
    # The clocks as started that many minutes ago (the seeding takes seconds; the demo shows a late round).
    now = timezone.now()
    for round, minutes in ROUND_MINUTES_AGO.items():
        RoundClock.objects.filter(session=session, round=round).update(
            started_at=now - datetime.timedelta(minutes=minutes)
        )
