"""The recompute behind the Celery task: each session's latest version through `score_session`, and the
materialised standings replaced in the one transaction that holds the event's recompute lock.

Withdrawn pairs (VSz 25) are applied here, in the computation, never by deleting stored results: results
that do not stand are left out, and every opponent the pair no longer met gets average-plus against an
"absent" side that is scored by the engine and then dropped (it is nobody, it is never ranked).
"""

import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple

from django.db import transaction

from bridge.scoring.adjusted import ArtificialScore, Award, Penalty
from bridge.scoring.matchpoints import percentage
from bridge.scoring.session import Entry, Method, PairTotal, SessionScore, _rank, score_session
from bridge.scoring.tiebreak import Played, TieBreak, played_results, relabel, tie_break
from config.celery import enqueue_on_commit
from federation.models import Person
from results.models import VersionedUpload
from results.services import recompute

from ..models import (
    BoardScore,
    EventStanding,
    HandRecord,
    PairEvent,
    PairSession,
    SessionPair,
    SessionStanding,
    Substitution,
    Withdrawal,
)
from . import SCOPE, bulk, dealing, versions
from .roster import SessionPlay, player_rights, sessions_that_stand

ABSENT = "absent-"
ABSENT_AWARD = ArtificialScore(Award.AVERAGE_PLUS, Award.AVERAGE_MINUS)


class ScoringError(Exception):
    """The engine refused a session's results (a bug or a data problem a director must see)."""


@dataclass
class _Session:
    session: PairSession
    version: object
    rows: list[dict]
    penalties: list[dict]
    plans: dict[int, object]  # section id -> engine Movement (None: movement from the upload)
    scheduled: dict[int, int] = field(default_factory=dict)  # session pair id -> boards its movement gives it
    played: dict[int, set[int]] = field(default_factory=dict)  # session pair id -> boards it has results on


def recompute_event(event_id: int, *, force: bool = False) -> dict:
    """Recompute an event's standings; safe to run twice (a current stamp is left alone unless `force`)."""
    with recompute(event_id, SCOPE) as state:
        if not force and state.computed_at is not None and state.computed_version >= state.latest_version:
            return {"event": event_id, "version": state.computed_version, "skipped": True}
        summary = _recompute(event_id, state.latest_version)
        _tell_rankings(event_id, summary.pop("reason"))
    return summary


def _recompute(event_id: int, event_version: int) -> dict:
    settings = PairEvent.objects.filter(event_id=event_id).first() or PairEvent(event_id=event_id)
    sessions = list(
        PairSession.objects.filter(event_id=event_id).select_related("announced").order_by("number")
    )
    seats = {
        p.pk: p
        for p in SessionPair.objects.filter(section__session__event_id=event_id).select_related("section")
    }
    loaded = [_load(session, seats) for session in sessions]
    loaded = [item for item in loaded if item is not None]
    deleted = _deleted_results(event_id, sessions, loaded, seats)

    board_rows, standing_rows, session_totals = [], [], defaultdict(list)
    hand_sessions = []
    announced = settings.tie_break != TieBreak.SHARED
    event_results: list[Played] = []  # played results under event pair ids, for an announced tie-break
    event_pair_of = {str(pid): str(seat.pair_id) for pid, seat in seats.items()}
    for item in loaded:
        score, sources, absent = _score(item, settings, seats, deleted)
        board_rows.extend(_board_scores(item, score, sources))
        if announced:
            event_results.extend(relabel(played_results(score.boards.values()), event_pair_of))
        for standing in _session_standings(item, score, settings, absent):
            standing_rows.append(standing)
            session_totals[seats[standing.pair_id].pair_id].append((item, standing))
        if _needs_hand_records(item):
            hand_sessions.append(item.session.pk)

    event_rows = _event_standings(
        event_id, event_version, settings, session_totals, loaded, seats, event_results
    )
    session_ids = [s.pk for s in sessions]
    BoardScore.objects.filter(session_id__in=session_ids).delete()
    SessionStanding.objects.filter(session_id__in=session_ids).delete()
    EventStanding.objects.filter(event_id=event_id).delete()
    bulk.insert_rows(BoardScore, BOARD_SCORE_FIELDS, board_rows)
    bulk.insert_rows(SessionStanding, SESSION_STANDING_FIELDS, standing_rows)
    bulk.insert_rows(EventStanding, EVENT_STANDING_FIELDS, event_rows)

    from .. import tasks

    for session_id in hand_sessions:
        enqueue_on_commit(tasks.compute_hand_records, session_id)
    latest = max(loaded, key=lambda item: item.version.uploaded_at, default=None)
    reason = "appeal" if latest and latest.version.source == VersionedUpload.Source.APPEAL else "correction"
    return {
        "event": event_id,
        "version": event_version,
        "sessions": {item.session.number: item.version.number for item in loaded},
        "results": len(board_rows),
        "pairs": len(event_rows),
        "reason": reason,
    }


def _load(session: PairSession, seats: dict[int, SessionPair]) -> _Session | None:
    version = versions.latest_version(session)
    if version is None:
        return None
    plans = {section.pk: section.plan() for section in session.sections.all()}
    item = _Session(session, version, versions.rows_of(version), versions.penalties_of(version), plans)
    for row in item.rows:
        for pair_id in (row["ns_id"], row["ew_id"]):
            item.played.setdefault(pair_id, set()).add(row["board"])
    most_played: dict[int, int] = defaultdict(int)
    for pair_id, boards in item.played.items():
        section_id = seats[pair_id].section_id
        most_played[section_id] = max(most_played[section_id], len(boards))
    for pair_id, seat in seats.items():
        if seat.section_id not in plans:
            continue
        plan = plans[seat.section_id]
        if plan is None:
            item.scheduled[pair_id] = most_played[seat.section_id]
        else:
            item.scheduled[pair_id] = sum(
                len(a.boards) for a in plan.assignments if seat.number in (a.ns, a.ew)
            )
    return item


def _deleted_results(event_id, sessions, loaded: list[_Session], seats) -> dict[int, set[int]]:
    """Session id -> session pair ids whose results are left out because their pair withdrew (VSz 25)."""
    withdrawals = list(Withdrawal.objects.filter(pair__event_id=event_id).select_related("session"))
    if not withdrawals:
        return {}
    announced = sessions[0].event.sessions.count() if sessions else 0
    multi = max(len(sessions), announced) > 1
    deleted: dict[int, set[int]] = defaultdict(set)
    for withdrawal in withdrawals:
        seated = []  # (item, session pair id) up to the session it left in
        for item in loaded:
            if item.session.number > withdrawal.session.number:
                continue
            for pair_id in item.scheduled:
                if seats[pair_id].pair_id == withdrawal.pair_id:
                    seated.append((item, pair_id))
        plays = [
            SessionPlay(item.session.number, item.scheduled[pid], len(item.played.get(pid, ())))
            for item, pid in seated
        ]
        stand = sessions_that_stand(plays, multi)
        for item, pair_id in seated:
            if item.session.number not in stand:
                deleted[item.session.pk].add(pair_id)
    return deleted


def _absent_opponents(item: _Session, seats, withdrawn_seats: set[int]) -> list[tuple[int, int, str, int]]:
    """(board, table, opponent's side, opponent) for every meeting a withdrawn pair no longer played."""
    out = []
    played_tables = {(row["board"], pid) for row in item.rows for pid in (row["ns_id"], row["ew_id"])}
    by_number = {(seat.section_id, seat.number): pid for pid, seat in seats.items() if pid in item.scheduled}
    for pair_id in withdrawn_seats:
        seat = seats[pair_id]
        plan = item.plans.get(seat.section_id)
        if plan is None:
            continue
        for a in plan.assignments:
            if seat.number not in (a.ns, a.ew):
                continue
            opponent_number, side = (a.ew, "EW") if seat.number == a.ns else (a.ns, "NS")
            opponent = by_number.get((seat.section_id, opponent_number))
            if opponent is None:
                continue
            for board in a.boards:
                if (board, pair_id) not in played_tables and (board, opponent) not in played_tables:
                    out.append((board, a.table, side, opponent))
    return out


def _score(item: _Session, settings: PairEvent, seats, deleted) -> tuple[SessionScore, dict, set[str]]:
    """The engine's score of one session: (score, the source row of every engine entry, absent keys)."""
    left_out = deleted.get(item.session.pk, set())
    withdrawn_pairs = set(
        Withdrawal.objects.filter(pair__event_id=item.session.event_id).values_list(
            "pair_id", "session__number"
        )
    )
    withdrawn_seats = {
        pid
        for pid in item.scheduled
        for pair_id, number in withdrawn_pairs
        if seats[pid].pair_id == pair_id and item.session.number >= number
    }
    boards: dict[int, list[Entry]] = defaultdict(list)
    sources: dict[int, list[dict]] = defaultdict(list)
    for row in item.rows:
        if row["ns_id"] in left_out or row["ew_id"] in left_out:
            continue
        award = ArtificialScore.parse(row["artificial"]) if row["artificial"] else None
        boards[row["board"]].append(Entry(str(row["ns_id"]), str(row["ew_id"]), row["score"], award))
        sources[row["board"]].append(row)
    absent = set()
    for board, table, side, opponent in _absent_opponents(item, seats, withdrawn_seats):
        ghost = f"{ABSENT}{board}-{table}"
        absent.add(ghost)
        ns, ew = (str(opponent), ghost) if side == "NS" else (ghost, str(opponent))
        award = ABSENT_AWARD if side == "NS" else ArtificialScore(Award.AVERAGE_MINUS, Award.AVERAGE_PLUS)
        boards[board].append(Entry(ns, ew, None, award))
        sources[board].append(
            {
                "board": board,
                "table": table,
                "ns_id": opponent if side == "NS" else None,
                "ew_id": opponent if side == "EW" else None,
                "contract": "",
                "declarer": "",
                "lead": "",
                "tricks": None,
                "score": None,
                "artificial": str(award),
            }
        )
    # A penalty of a pair whose results were left out has nothing left to be taken from.
    seated = {(board, key) for board, entries in boards.items() for e in entries for key in (e.ns, e.ew)}
    playing = {key for _board, key in seated}
    penalties = [
        Penalty(str(p["pair_id"]), p["percent"], p["board"], p["reason"])
        for p in item.penalties
        if (str(p["pair_id"]) in playing if p["board"] is None else (p["board"], str(p["pair_id"])) in seated)
    ]
    ordered = {board: boards[board] for board in sorted(boards)}
    try:
        score = score_session(
            ordered,
            method=settings.method,
            scale=settings.scale,
            rounding=settings.rounding,
            penalties=penalties if settings.method == Method.MATCHPOINTS else (),
            tie_break=settings.tie_break,
        )
    except ValueError as error:
        raise ScoringError(f"{item.session}: {error}")
    return score, {board: sources[board] for board in ordered}, absent


BOARD_SCORE_FIELDS = (
    "session", "version", "board", "table", "ns", "ew", "contract", "declarer", "lead", "tricks", "score",
    "artificial", "mp_ns", "mp_ew", "pct_ns", "pct_ew", "imp_ns", "imp_ew", "penalty_ns", "penalty_ew",
)  # fmt: skip


def _board_scores(item: _Session, score: SessionScore, sources: dict) -> list[tuple]:
    """BoardScore rows as tuples in BOARD_SCORE_FIELDS order (written with bulk.insert_rows)."""
    out = []
    session_id, version_id = item.session.pk, item.version.pk
    for board, scored in score.boards.items():
        for row, result in zip(sources[board], scored, strict=True):
            out.append(
                (
                    session_id,
                    version_id,
                    board,
                    row["table"],
                    row["ns_id"],
                    row["ew_id"],
                    row["contract"],
                    row["declarer"],
                    row["lead"],
                    row["tricks"],
                    row["score"],
                    row["artificial"],
                    result.mp_ns,
                    result.mp_ew,
                    result.pct_ns,
                    result.pct_ew,
                    result.imp_ns,
                    result.imp_ew,
                    result.penalty_ns,
                    result.penalty_ew,
                )  # fmt: skip
            )
    return out


def _places(place: str) -> tuple[int, int]:
    first, _sep, last = place.partition("-")
    return int(first), int(last or first)


class _Standing(NamedTuple):
    """A SessionStanding row in SESSION_STANDING_FIELDS order."""

    session_id: int
    version_id: int
    pair_id: int
    field: str
    direction: str
    total: Decimal
    top: Decimal | None
    percentage: Decimal | None
    boards: int
    penalty: Decimal
    place: str
    place_from: int
    place_to: int
    order: int


SESSION_STANDING_FIELDS = _Standing._fields


def _session_standings(item: _Session, score: SessionScore, settings, absent: set[str]) -> list[_Standing]:
    pairs = {key: total for key, total in score.pairs.items() if key not in absent}
    if absent:  # ranked again without the absent sides, with the same announced tie-break
        announced = tie_break(settings.tie_break, played_results(score.boards.values()))
        ranking = _rank(pairs, Method(settings.method), settings.rounding, announced)
    else:
        ranking = score.ranking
    out = []
    order: dict[str, int] = defaultdict(int)
    for placed in ranking:
        total = pairs[placed.pair]
        line = placed.direction or ""
        order[line] += 1
        first, last = _places(placed.place)
        out.append(
            _Standing(
                item.session.pk,
                item.version.pk,
                int(placed.pair),
                line,
                total.direction or "",
                total.total,
                total.top,
                total.percentage,
                total.boards,
                total.penalty,
                placed.place,
                first,
                last,
                order[line],
            )  # fmt: skip
        )
    return out


def _event_standings(
    event_id, event_version, settings, session_totals, loaded, seats, results: Sequence[Played] = ()
) -> list[tuple]:
    from ..models import Pair

    pairs = {p.pk: p for p in Pair.objects.filter(pk__in=session_totals.keys())}
    totals: dict[str, PairTotal] = {}
    for pair_id, items in session_totals.items():
        directions = {standing.direction or None for _item, standing in items}
        direction = directions.pop() if len(directions) == 1 else None
        total = sum((s.total for _i, s in items), Decimal(0))
        tops = [s.top for _i, s in items]
        top = None if any(t is None for t in tops) else sum(tops, Decimal(0))
        pct = percentage(total, top) if top is not None else None
        totals[str(pair_id)] = PairTotal(
            str(pair_id),
            direction,
            total,
            top,
            pct,
            sum(s.boards for _i, s in items),
            sum(s.penalty for _i, s in items),
        )
    # An announced tie-break looks at every session's boards (head-to-head: every meeting of the event).
    ranking = _rank(
        totals, Method(settings.method), settings.rounding, tie_break(settings.tie_break, results)
    )
    rights = _rights(pairs, session_totals, loaded, seats)
    out, order = [], defaultdict(int)
    for placed in ranking:
        total = totals[placed.pair]
        pair_id = int(placed.pair)
        line = placed.direction or ""
        order[line] += 1
        first, last = _places(placed.place)
        out.append(
            (
                event_id,
                pair_id,
                event_version,
                line,
                total.total,
                total.top,
                total.percentage,
                total.boards,
                json.dumps(
                    [
                        {
                            "session": item.session.number,
                            "pair": seats[s.pair_id].number,
                            "total": str(s.total),
                            "percentage": None if s.percentage is None else str(s.percentage),
                            "place": s.place,
                        }
                        for item, s in sorted(session_totals[pair_id], key=lambda x: x[0].session.number)
                    ]
                ),
                json.dumps(rights.get(pair_id, [])),
                placed.place,
                first,
                last,
                order[line],
            )
        )
    return out


EVENT_STANDING_FIELDS = (
    "event", "pair", "event_version", "field", "total", "top", "percentage", "boards", "sessions", "rights",
    "place", "place_from", "place_to", "order",
)  # fmt: skip


def _rights(pairs, session_totals, loaded: list[_Session], seats) -> dict[int, list[dict]]:
    """Per pair: each player, the boards he played and his right to masterpoints and prizes (VSz 25)."""
    by_session = {item.session.pk: item for item in loaded}
    subs = defaultdict(list)
    for sub in Substitution.objects.filter(pair_id__in=pairs.keys()):
        item = by_session.get(sub.session_id)
        if item is None:
            continue
        played = set()
        for pid, seat in seats.items():
            if seat.pair_id == sub.pair_id and seat.section.session_id == sub.session_id:
                played |= item.played.get(pid, set())
        subs[sub.pair_id].append((sub.original_id, sub.substitute_id, len(played & set(sub.boards))))
    people = set()
    for pair in pairs.values():
        people.update(pair.player_ids)
    for items in subs.values():
        people.update(s for _o, s, _b in items)
    names = {p.pk: str(p) for p in Person.objects.filter(pk__in=people)}
    out = {}
    for pair_id, pair in pairs.items():
        boards = sum(s.boards for _i, s in session_totals[pair_id])
        out[pair_id] = [
            {
                "person_id": right.person_id,
                "name": names.get(right.person_id, ""),
                "boards": right.boards,
                "has_rights": right.has_rights,
                "substitute_for": right.substitute_for,
            }
            for right in player_rights(boards, pair.player_ids, subs.get(pair_id, ()))
        ]
    return out


def _needs_hand_records(item: _Session) -> bool:
    deals = dealing.deals_of_session(item.session, item.version)
    if not deals:
        return False
    stored = dict(HandRecord.objects.filter(session=item.session).values_list("board", "deal"))
    return any(stored.get(board) != deal for board, deal in deals.items())


def _tell_rankings(event_id: int, reason: str) -> None:
    # The rankings app reads the final placings through bridge.services.ranking_source.
    from rankings.services import results_changed

    results_changed(event_id, reason)


def record_failure(event_id: int, message: str) -> None:
    """Keep the engine's refusal where the director sees it (the failed recompute rolled back)."""
    from results.models import RecomputeState

    with transaction.atomic():
        RecomputeState.objects.filter(event_id=event_id, scope=SCOPE).update(error=message[:2000])
