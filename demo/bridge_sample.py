"""Sample pair events with plausible results: for the demo data, the benchmark and end-to-end tests.

Deterministic for a given random generator. Results follow the sections' generated movements; each board
has a "normal" contract most tables reach, with the tricks spread around it, so frequency sheets look real.
"""

import datetime
import random
import uuid

from django.utils import timezone

from bridge.engine.dealing import parse_pbn_deal
from bridge.engine.pbn.records import BoardRecord, ResultRecord, SessionRecord
from bridge.engine.pbn.writer import write_session
from bridge.engine.scoring.contract import board_dealer, board_vulnerability, contract_score, vulnerable_sides
from bridge.models import PairSession, SessionPair, TableEntry
from bridge.services import table_entry
from bridge.services.exports import pair_labels
from federation.models import Person
from tournaments.models import Entry, EntryMember, Event, Session

_STRAINS = ("C", "D", "H", "S", "NT")
FIRST_NAMES = ("Anna", "Béla", "Csaba", "Dóra", "Erzsébet", "Ferenc", "Gábor", "Hajnalka", "István", "Judit")
LAST_NAMES = ("Kovács", "Szabó", "Tóth", "Horváth", "Varga", "Kiss", "Molnár", "Németh", "Farkas", "Balogh")


def _normal_contract(rng: random.Random) -> tuple[int, str, str]:
    declarer = rng.choice("NESW")
    strain = rng.choice(_STRAINS)
    level = (
        rng.choice((1, 2, 2, 3, 3, 4, 4, 4, 5, 6)) if strain in "HSNT" else rng.choice((1, 2, 3, 3, 5, 5, 6))
    )
    if strain == "NT":
        level = min(level, 3) if level < 6 else level
    return level, strain, declarer


_GAME_LEVEL = {"NT": 3, "S": 4, "H": 4, "D": 5, "C": 5}


def _normal_from_analysis(tricks: dict, rng: random.Random) -> tuple[int, str, str]:
    """The contract most tables reach: the stronger side's best strain, bid to game or slam when it makes."""
    seat, strain, taken = max(
        ((seat, strain, n) for seat, row in tricks.items() for strain, n in row.items()),
        key=lambda t: (t[2] + (1 if t[1] in ("NT", "S", "H") else 0), rng.random()),
    )
    if taken >= 13:
        level = 7
    elif taken >= 12:
        level = 6
    elif taken >= 6 + _GAME_LEVEL[strain]:
        level = _GAME_LEVEL[strain]
    else:
        level = max(1, min(taken - 6, _GAME_LEVEL[strain] - 1))
    return level, strain, seat


def _lead(deal: str | None, declarer: str, rng: random.Random) -> str:
    if not deal:
        return ""
    leader = "NESW"[("NESW".index(declarer) + 1) % 4]
    suits = parse_pbn_deal(deal)[leader]
    suit, holding = rng.choice([(s, h) for s, h in zip("SHDC", suits, strict=True) if h])
    return suit + rng.choice(holding)


def _result(board: int, normal, rng: random.Random, facts: dict | None = None) -> dict:
    level, strain, declarer = normal
    if rng.random() < 0.25:
        level = max(1, min(7, level + rng.choice((-1, 1))))
        if rng.random() < 0.3:
            declarer = {"N": "S", "S": "N", "E": "W", "W": "E"}[declarer]
    if rng.random() < 0.04:
        return {"contract": "Pass", "declarer": "", "tricks": None, "score": 0}
    doubled = 1 if rng.random() < 0.06 else 0
    expected = facts["tricks"][declarer][strain] if facts else level + 6
    tricks = max(0, min(13, expected + round(rng.gauss(0, 0.7 if facts else 0.9))))
    vul_ns, vul_ew = vulnerable_sides(board_vulnerability(board))
    contract = f"{level}{strain}{'X' * doubled}"
    return {
        "contract": contract,
        "declarer": declarer,
        "tricks": tricks,
        "score": contract_score(contract, declarer, tricks, vul_ns, vul_ew),
        "lead": _lead(facts.get("deal") if facts else None, declarer, rng),
    }


def play(session: PairSession, rng: random.Random, analysis: dict[int, dict] | None = None) -> list[dict]:
    """A result for every table of every round of the session's generated movements (version rows).

    With `analysis` (board -> {"deal", "tricks"} as hand records hold them) the tables play around the
    double-dummy result and lead a card of the right hand; otherwise contracts are simply random.
    """
    analysis = analysis or {}
    normals: dict[int, tuple] = {}
    rows = []
    for section in session.sections.all():
        plan = section.plan()
        if plan is None:
            continue
        seats = {p.number: p.pk for p in SessionPair.objects.filter(section=section)}
        for a in plan.assignments:
            if a.ns not in seats or a.ew not in seats:
                continue  # a pair facing an empty place sits out
            for board in a.boards:
                facts = analysis.get(board)
                if board not in normals:
                    normals[board] = (
                        _normal_from_analysis(facts["tricks"], rng) if facts else _normal_contract(rng)
                    )
                rows.append(
                    {
                        "board": board,
                        "table": a.table,
                        "ns_id": seats[a.ns],
                        "ew_id": seats[a.ew],
                        "lead": "",
                        "artificial": "",
                        **_result(board, normals[board], rng, facts),
                    }
                )
    rows.sort(key=lambda r: (r["board"], r["ns_id"]))
    return rows


def pbn_text(session: PairSession, rows: list[dict], deals: dict[int, str] | None = None) -> str:
    """The rows as a PBN file of contracts and scores (no matchpoints): what a scoring program uploads."""
    labels = pair_labels(session)
    boards: dict[int, list[ResultRecord]] = {}
    for r in rows:
        boards.setdefault(r["board"], []).append(
            ResultRecord(
                labels[r["ns_id"]],
                labels[r["ew_id"]],
                r["score"],
                r["artificial"] or None,
                r["contract"] or None,
                r["declarer"] or None,
                r["tricks"],
            )
        )
    deals = deals or {}
    record = SessionRecord(
        session.event.title,
        None,
        session.event.start_date.strftime("%Y.%m.%d"),
        "MP2",
        [
            BoardRecord(b, board_dealer(b), board_vulnerability(b), deals.get(b), rs)
            for b, rs in sorted(boards.items())
        ],
    )
    return write_session(record)


def csv_text(session: PairSession, rows: list[dict], delimiter: str = ";") -> str:
    labels = pair_labels(session)
    lines = [delimiter.join(("board", "NS", "EW", "contract", "declarer", "lead", "result", "NS score"))]
    for r in rows:
        artificial = r["artificial"]
        lines.append(
            delimiter.join(
                (
                    str(r["board"]),
                    labels[r["ns_id"]],
                    labels[r["ew_id"]],
                    r["contract"],
                    r["declarer"],
                    r["lead"],
                    "" if r["tricks"] is None else str(r["tricks"]),
                    artificial or ("" if r["score"] is None else str(r["score"])),
                )
            )
        )
    return "\n".join(lines) + "\n"


def event_with_pairs(
    federation, *, pairs: int, title: str, start: datetime.datetime, sessions: int = 1, club=None
):
    """An approved pairs event with `sessions` announced sessions and `pairs` active entries of new people."""
    event = Event.objects.create(
        federation=federation,
        club=club,
        title=title,
        format=Event.Format.PAIRS,
        start_date=timezone.localdate(start),
        status=Event.Status.APPROVED,
    )
    for number in range(sessions):
        Session.objects.create(
            event=event, name=f"{number + 1}. forduló", starts_at=start + datetime.timedelta(hours=5 * number)
        )
    rng = random.Random(title)
    for index in range(pairs):
        entry = Entry.objects.create(event=event, status=Entry.Status.ACTIVE)
        for position in (1, 2):
            person = Person.objects.create(
                first_name=rng.choice(FIRST_NAMES),
                last_name=rng.choice(LAST_NAMES),
                birth_date=datetime.date(1960 + (index % 30), 1 + position, 1 + index % 28),
                gender=Person.MALE,
            )
            EntryMember.objects.create(entry=entry, person=person, position=position, confirmed_at=start)
    return event


def confirm_current_round(codes, contract: str = "4S N =") -> None:
    """Every table of `codes` enters its current round's boards and confirms them, as the phones do (North's
    result, then East's confirmation through the table entry service), each with its own idempotency key."""
    for code in codes:
        now = table_entry.current_round(code)
        for board in now.boards:
            result = phone_send(code, now, board.board, TableEntry.Kind.RESULT, contract=contract)
            phone_send(code, now, board.board, TableEntry.Kind.CONFIRM, based_on=result.pk)


def phone_send(code, now, board: int, kind, **values) -> TableEntry:
    """What a table's phone sends for `board` of its current round `now` (`table_entry.current_round`), with
    an idempotency key of its own; the stored entry."""
    fields = {"round": now.round, "board": board, "ns": now.ns.pk, "ew": now.ew.pk}
    return table_entry.send(code, key=uuid.uuid4().hex, kind=kind, **fields, **values).entry
