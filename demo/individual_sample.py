"""Sample bridge individual events with plausible results: for the demo data and the tests.

Deterministic for a given random generator: results follow the generated individual movement, each board
with a "normal" contract most tables reach (as in `bridge_sample`).
"""

import datetime
import random

from django.utils import timezone

from bridge.engine.individual_movements import IndividualMovement
from federation.models import Person
from tournaments.models import Entry, EntryMember, Event, Session

from .bridge_sample import FIRST_NAMES, LAST_NAMES, _normal_contract, _result

HEADER = ("board", "table", "N", "S", "E", "W", "contract", "declarer", "lead", "result", "NS score")


def event_with_players(federation, *, players: int, title: str, start: datetime.datetime, club=None):
    """An approved individual event with one announced session and `players` one-player entries."""
    event = Event.objects.create(
        federation=federation,
        club=club,
        title=title,
        format=Event.Format.INDIVIDUAL,
        start_date=timezone.localdate(start),
        status=Event.Status.APPROVED,
    )
    Session.objects.create(event=event, name="1. forduló", starts_at=start)
    rng = random.Random(title)
    for index in range(players):
        entry = Entry.objects.create(event=event, status=Entry.Status.ACTIVE)
        person = Person.objects.create(
            first_name=rng.choice(FIRST_NAMES),
            last_name=rng.choice(LAST_NAMES),
            birth_date=datetime.date(1955 + index % 40, 1 + index % 12, 1 + index % 28),
            gender=Person.MALE,
        )
        EntryMember.objects.create(entry=entry, person=person, position=1, confirmed_at=start, home_club=club)
    return event


def play(movement: IndividualMovement, rng: random.Random) -> list[dict]:
    """A result for every table of every round of the movement (dicts of the CSV's fields)."""
    normals: dict[int, tuple] = {}
    rows = []
    for a in movement.assignments:
        for board in a.boards:
            if board not in normals:
                normals[board] = _normal_contract(rng)
            result = _result(board, normals[board], rng)
            rows.append(
                {
                    "board": board,
                    "table": a.table,
                    "north": a.north,
                    "south": a.south,
                    "east": a.east,
                    "west": a.west,
                    "lead": "",
                    "artificial": "",
                    **result,
                }
            )
    rows.sort(key=lambda r: (r["board"], r["table"]))
    return rows


def csv_text(rows: list[dict], delimiter: str = ";") -> str:
    """The rows as the individual CSV (bridge.engine.individual_readers)."""
    lines = [delimiter.join(HEADER)]
    for r in rows:
        lines.append(
            delimiter.join(
                (
                    str(r["board"]),
                    str(r["table"] or ""),
                    str(r["north"]),
                    str(r["south"]),
                    str(r["east"]),
                    str(r["west"]),
                    r["contract"],
                    r["declarer"],
                    r.get("lead", ""),
                    "" if r["tricks"] is None else str(r["tricks"]),
                    r.get("artificial") or ("" if r["score"] is None else str(r["score"])),
                )
            )
        )
    return "\n".join(lines) + "\n"


def pbn_text(rows: list[dict], deals: dict[int, str] | None = None) -> str:
    """The rows as a PBN file with the PBN 2.1 individual columns; `deals`: board -> PBN Deal tag value."""
    out = ["% PBN 2.1", '[Event "Individual"]']
    by_board: dict[int, list[dict]] = {}
    for r in rows:
        by_board.setdefault(r["board"], []).append(r)
    for board, board_rows in sorted(by_board.items()):
        out.append(f'[Board "{board}"]')
        if deals and board in deals:
            out.append(f'[Deal "{deals[board]}"]')
        out.append(
            '[ScoreTable "Table\\2R;PlayerId_North\\2R;PlayerId_South\\2R;PlayerId_East\\2R;PlayerId_West\\2R;'
            'Contract\\5L;Declarer\\1R;Result\\2R;Score_NS\\5R"]'
        )
        for r in board_rows:
            out.append(
                " ".join(
                    (
                        str(r["table"]),
                        str(r["north"]),
                        str(r["south"]),
                        str(r["east"]),
                        str(r["west"]),
                        r["contract"] or "-",
                        r["declarer"] or "-",
                        "-" if r["tricks"] is None else str(r["tricks"]),
                        str(r["score"]),
                    )
                )
            )
        out.append("")
    return "\n".join(out) + "\n"
