"""The recompute behind the Celery task: each session's latest version through `score_session`, and the
materialised standings replaced in the one transaction that holds the event's recompute lock.

Withdrawn pairs (VSz 25) are applied here, in the computation, never by deleting stored results: results
that do not stand are left out, and every opponent the pair no longer met gets average-plus against an
"absent" side that is scored by the engine and then dropped (it is nobody, it is never ranked).
"""

import json
from collections import OrderedDict, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple

from django.db import connection, transaction
from django.db.models import OuterRef, Subquery

from bridge.engine.scoring.adjusted import ArtificialScore, Award, Penalty
from bridge.engine.scoring.incremental import LiveSession
from bridge.engine.scoring.matchpoints import percentage
from bridge.engine.scoring.session import Entry, Method, PairTotal, SessionScore, _rank, score_session
from bridge.engine.scoring.tiebreak import Played, TieBreak, played_results, relabel, tie_break
from federation.models import Person
from results.models import VersionedUpload
from results.services import recompute
from results.tasks import request_recompute

from ..models import (
    BoardResult,
    BoardScore,
    DealSet,
    EventStanding,
    HandRecord,
    Pair,
    PairEvent,
    PairSession,
    ResultPenalty,
    ResultVersion,
    Section,
    SessionPair,
    SessionStanding,
    SessionStart,
    Substitution,
    Withdrawal,
)
from . import HAND_RECORDS, SCOPE, bulk, dealing, versions
from .roster import SessionPlay, player_rights, sessions_that_stand

ABSENT = "absent-"
ABSENT_AWARD = ArtificialScore(Award.AVERAGE_PLUS, Award.AVERAGE_MINUS)

# A result row is a tuple in versions.ROW_FIELDS order (read with values_list): these are its positions.
BOARD, TABLE, NS, EW, SCORE, ARTIFICIAL = 0, 1, 2, 3, 8, 9


class ScoringError(Exception):
    """The engine refused a session's results (a bug or a data problem a director must see)."""


class _Seat(NamedTuple):
    """A session pair as the recompute needs it (read with values_list, no model instance per pair)."""

    section_id: int
    pair_id: int
    number: int
    session_id: int


class _Version(NamedTuple):
    """The fields of a session's latest ResultVersion the recompute reads (never its uploaded text)."""

    pk: int
    session_id: int
    number: int
    source: str
    uploaded_at: object
    deals: dict


@dataclass
class _Session:
    session: PairSession
    version: _Version
    rows: list[tuple]  # versions.ROW_FIELDS order
    penalties: list[tuple]  # versions.PENALTY_FIELDS order
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


@dataclass
class _Event:
    """Everything the recompute reads, in a fixed number of queries whatever the number of pairs."""

    settings: PairEvent
    sessions: list[PairSession]
    seats: dict[int, _Seat]
    loaded: list[_Session]
    withdrawals: list[tuple[int, int]]  # (event pair id, number of the session it withdrew in)


def _read(event_id: int) -> _Event:
    settings = PairEvent.objects.filter(event_id=event_id).first() or PairEvent(event_id=event_id)
    latest = ResultVersion.objects.filter(session=OuterRef("pk")).order_by("-number").values("pk")[:1]
    sessions = list(
        PairSession.objects.filter(event_id=event_id)
        .select_related("announced")
        .annotate(latest_version_id=Subquery(latest))
        .order_by("number")
    )
    seats = {
        pk: _Seat(*rest)
        for pk, *rest in SessionPair.objects.filter(section__session__event_id=event_id).values_list(
            "pk", "section_id", "pair_id", "number", "section__session_id"
        )
    }
    version_ids = [s.latest_version_id for s in sessions if s.latest_version_id is not None]
    found = {
        v[0]: _Version(*v)
        for v in ResultVersion.objects.filter(pk__in=version_ids).values_list(
            "pk", "session_id", "number", "source", "uploaded_at", "deals"
        )
    }
    rows: dict[int, list[tuple]] = defaultdict(list)
    for version_id, *row in (
        BoardResult.objects.filter(version_id__in=version_ids)
        .order_by("version_id", "board", "table", "pk")
        .values_list("version_id", *versions.ROW_FIELDS)
    ):
        rows[version_id].append(tuple(row))
    penalties: dict[int, list[tuple]] = defaultdict(list)
    for version_id, *penalty in (
        ResultPenalty.objects.filter(version_id__in=version_ids)
        .order_by("pk")
        .values_list("version_id", *versions.PENALTY_FIELDS)
    ):
        penalties[version_id].append(tuple(penalty))
    plans: dict[int, dict[int, object]] = defaultdict(dict)
    for section in Section.objects.filter(session__event_id=event_id):
        plans[section.session_id][section.pk] = section.plan()
    loaded = []
    for session in sessions:
        version = found.get(session.latest_version_id)
        if version is None:
            continue
        item = _Session(session, version, rows[version.pk], penalties[version.pk], plans[session.pk])
        _schedule(item, seats)
        loaded.append(item)
    withdrawals = list(
        Withdrawal.objects.filter(pair__event_id=event_id).values_list("pair_id", "session__number")
    )
    return _Event(settings, sessions, seats, loaded, withdrawals)


def _recompute(event_id: int, event_version: int) -> dict:
    read = _read(event_id)
    settings, sessions, seats, loaded = read.settings, read.sessions, read.seats, read.loaded
    deleted = _deleted_results(sessions, loaded, seats, read.withdrawals)

    board_rows, standing_rows, session_totals = [], [], defaultdict(list)
    announced = settings.tie_break != TieBreak.SHARED
    event_results: list[Played] = []  # played results under event pair ids, for an announced tie-break
    event_pair_of = {str(pid): str(seat.pair_id) for pid, seat in seats.items()}
    for item in loaded:
        score, sources, absent = _score(item, settings, seats, deleted, read.withdrawals)
        board_rows.extend(_board_scores(item, score, sources))
        if announced:
            event_results.extend(relabel(played_results(score.boards.values()), event_pair_of))
        for standing in _session_standings(item, score, settings, absent):
            standing_rows.append(standing)
            session_totals[seats[standing.pair_id].pair_id].append((item, standing))
    hand_sessions = _needs_hand_records(loaded)

    event_rows = _event_standings(
        event_id, event_version, settings, session_totals, loaded, seats, event_results
    )
    session_ids = [s.pk for s in sessions]
    marks = ", ".join(["%s"] * len(session_ids)) or "NULL"
    bulk.execute_all(
        [
            (f"DELETE FROM {_table(BoardScore)} WHERE session_id IN ({marks})", session_ids),
            (f"DELETE FROM {_table(SessionStanding)} WHERE session_id IN ({marks})", session_ids),
            (f"DELETE FROM {_table(EventStanding)} WHERE event_id = %s", [event_id]),
        ]
    )
    bulk.insert_rows(BoardScore, BOARD_SCORE_FIELDS, board_rows)
    bulk.insert_rows(SessionStanding, SESSION_STANDING_FIELDS, standing_rows)
    bulk.insert_rows(EventStanding, EVENT_STANDING_FIELDS, event_rows)

    for session_id in hand_sessions:
        request_recompute(SCOPE, event_id, session_id, partial=HAND_RECORDS)
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


def _schedule(item: _Session, seats: dict[int, _Seat]) -> None:
    """Fill the boards each pair has results on, and the boards its movement gives it."""
    played = item.played
    for row in item.rows:
        board = row[BOARD]
        for pair_id in (row[NS], row[EW]):
            boards = played.get(pair_id)
            if boards is None:
                played[pair_id] = {board}
            else:
                boards.add(board)
    most_played: dict[int, int] = defaultdict(int)
    for pair_id, boards in played.items():
        section_id = seats[pair_id].section_id
        most_played[section_id] = max(most_played[section_id], len(boards))
    given: dict[int, dict[int, int]] = {}  # section id -> pair number -> boards of its movement
    for section_id, plan in item.plans.items():
        if plan is None:
            continue
        counts: dict[int, int] = defaultdict(int)
        for a in plan.assignments:
            counts[a.ns] += len(a.boards)
            if a.ew != a.ns:
                counts[a.ew] += len(a.boards)
        given[section_id] = counts
    for pair_id, seat in seats.items():
        if seat.section_id not in item.plans:
            continue
        counts = given.get(seat.section_id)
        item.scheduled[pair_id] = (
            most_played[seat.section_id] if counts is None else counts.get(seat.number, 0)
        )


def _deleted_results(sessions, loaded: list[_Session], seats, withdrawals) -> dict[int, set[int]]:
    """Session id -> session pair ids whose results are left out because their pair withdrew (VSz 25)."""
    if not withdrawals:
        return {}
    announced = sessions[0].event.sessions.count() if sessions else 0
    multi = max(len(sessions), announced) > 1
    deleted: dict[int, set[int]] = defaultdict(set)
    for withdrawn_pair, withdrawn_in in withdrawals:
        seated = []  # (item, session pair id) up to the session it left in
        for item in loaded:
            if item.session.number > withdrawn_in:
                continue
            for pair_id in item.scheduled:
                if seats[pair_id].pair_id == withdrawn_pair:
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
    played_tables = {(row[BOARD], pid) for row in item.rows for pid in (row[NS], row[EW])}
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


def _score(
    item: _Session, settings: PairEvent, seats, deleted, withdrawals
) -> tuple[SessionScore, dict, set[str]]:
    """The engine's score of one session: (score, the source row of every engine entry, absent keys)."""
    left_out = deleted.get(item.session.pk, set())
    number = item.session.number
    withdrawn = {pair_id for pair_id, since in withdrawals if number >= since}
    withdrawn_seats = {pid for pid in item.scheduled if seats[pid].pair_id in withdrawn}
    boards: dict[int, list[Entry]] = defaultdict(list)
    sources: dict[int, list[tuple]] = defaultdict(list)
    awards: dict[str, ArtificialScore] = {}
    for row in item.rows:
        ns, ew = row[NS], row[EW]
        if left_out and (ns in left_out or ew in left_out):
            continue
        artificial = row[ARTIFICIAL]
        award = None
        if artificial:
            award = awards.get(artificial)
            if award is None:
                award = awards[artificial] = ArtificialScore.parse(artificial)
        board = row[BOARD]
        boards[board].append(Entry(str(ns), str(ew), row[SCORE], award))
        sources[board].append(row)
    absent = set()
    for board, table, side, opponent in _absent_opponents(item, seats, withdrawn_seats):
        ghost = f"{ABSENT}{board}-{table}"
        absent.add(ghost)
        ns, ew = (str(opponent), ghost) if side == "NS" else (ghost, str(opponent))
        award = ABSENT_AWARD if side == "NS" else ArtificialScore(Award.AVERAGE_MINUS, Award.AVERAGE_PLUS)
        boards[board].append(Entry(ns, ew, None, award))
        sources[board].append(
            (
                board,
                table,
                opponent if side == "NS" else None,
                opponent if side == "EW" else None,
                "",
                "",
                "",
                None,
                None,
                str(award),
            )
        )
    # A penalty of a pair whose results were left out has nothing left to be taken from.
    seated = {(board, key) for board, entries in boards.items() for e in entries for key in (e.ns, e.ew)}
    playing = {key for _board, key in seated}
    penalties = [
        Penalty(str(pair_id), percent, board, reason)
        for pair_id, board, percent, reason in item.penalties
        if (str(pair_id) in playing if board is None else (board, str(pair_id)) in seated)
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


def _board_scores(item: _Session, score: SessionScore, sources: dict, only=None) -> list[tuple]:
    """BoardScore rows as tuples in BOARD_SCORE_FIELDS order (written with bulk.insert_rows): the session
    and version, the source row's ROW_FIELDS, then what the engine gave it (of the boards `only`)."""
    head = (item.session.pk, item.version.pk)
    out = []
    append = out.append
    for board, scored in score.boards.items():
        if only is not None and board not in only:
            continue
        for row, r in zip(sources[board], scored, strict=True):
            append(
                head
                + row
                + (r.mp_ns, r.mp_ew, r.pct_ns, r.pct_ew, r.imp_ns, r.imp_ew, r.penalty_ns, r.penalty_ew)
            )
    return out


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


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


class _People(NamedTuple):
    """Who plays in the event's pairs: read once per recompute (and kept between one-board rescores)."""

    pairs: dict[int, tuple[int, ...]]  # event pair id -> its players' ids (Pair.player_ids)
    substitutions: list[tuple]  # (session id, pair id, original, substitute, boards)
    names: dict[int, str]  # person id -> name


def _people(event_id: int) -> _People:
    pairs = {
        pk: tuple(pid for pid in players if pid)
        for pk, *players in Pair.objects.filter(event_id=event_id).values_list(
            "pk", "player1_id", "player2_id"
        )
    }
    substitutions = list(
        Substitution.objects.filter(pair__event_id=event_id).values_list(
            "session_id", "pair_id", "original_id", "substitute_id", "boards"
        )
    )
    people = {person for players in pairs.values() for person in players}
    people.update(substitute for _s, _p, _o, substitute, _b in substitutions)
    # Person.__str__: family name first (Hungarian order)
    names = {
        pk: f"{last} {first}"
        for pk, last, first in Person.objects.filter(pk__in=people).values_list(
            "pk", "last_name", "first_name"
        )
    }
    return _People(pairs, substitutions, names)


def _event_standings(
    event_id,
    event_version,
    settings,
    session_totals,
    loaded,
    seats,
    results: Sequence[Played] = (),
    people: _People | None = None,
) -> list[tuple]:
    people = people or _people(event_id)
    pairs = {pk: people.pairs[pk] for pk in session_totals}
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
    rights = _rights(pairs, people, session_totals, loaded, seats)
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


def _rights(pairs, people: _People, session_totals, loaded: list[_Session], seats) -> dict[int, list[dict]]:
    """Per pair: each player, the boards he played and his right to masterpoints and prizes (VSz 25)."""
    by_session = {item.session.pk: item for item in loaded}
    subs = defaultdict(list)
    for session_id, pair_id, original, substitute, boards in people.substitutions:
        item = by_session.get(session_id)
        if item is None or pair_id not in pairs:
            continue
        played = set()
        for pid, seat in seats.items():
            if seat.pair_id == pair_id and seat.session_id == session_id:
                played |= item.played.get(pid, set())
        subs[pair_id].append((original, substitute, len(played & set(boards))))
    names = people.names
    out = {}
    for pair_id, players in pairs.items():
        boards = sum(s.boards for _i, s in session_totals[pair_id])
        out[pair_id] = [
            {
                "person_id": right.person_id,
                "name": names.get(right.person_id, ""),
                "boards": right.boards,
                "has_rights": right.has_rights,
                "substitute_for": right.substitute_for,
            }
            for right in player_rights(boards, players, subs.get(pair_id, ()))
        ]
    return out


def _needs_hand_records(loaded: list[_Session]) -> list[int]:
    """Sessions whose deals are open and differ from their stored hand records: two queries at most."""
    if not loaded:
        return []
    # Deals open only on a recorded start (bridge.SessionStart), read for every session in one query.
    started = set(
        SessionStart.objects.filter(session__in=[item.session.pk for item in loaded]).values_list(
            "session_id", flat=True
        )
    )
    deals_of: dict[int, dict[int, str]] = {}
    dealt = []  # sessions without deals in their results: their computer-dealt set's, once started
    for item in loaded:
        if item.session.pk not in started:
            continue
        if item.version.deals:
            deals_of[item.session.pk] = dealing.deals_of_session(item.session, item.version, started=True)
        else:
            dealt.append(item.session)
    if dealt:
        current = {}
        for deal_set in DealSet.objects.filter(session__in=dealt).order_by(
            "session_id", "-created_at", "-pk"
        ):
            current.setdefault(deal_set.session_id, deal_set)
        for session in dealt:
            deal_set = current.get(session.pk)
            if deal_set is not None:
                deal_set.session = session  # dealing.current_set's row, without reading the session again
                deals_of[session.pk] = dict(enumerate(dealing.open_set(deal_set, started=True), start=1))
    deals_of = {session_id: deals for session_id, deals in deals_of.items() if deals}
    if not deals_of:
        return []
    stored: dict[int, dict[int, str]] = defaultdict(dict)
    for session_id, board, deal in HandRecord.objects.filter(session_id__in=deals_of).values_list(
        "session_id", "board", "deal"
    ):
        stored[session_id][board] = deal
    return [
        item.session.pk
        for item in loaded
        if item.session.pk in deals_of
        and any(
            stored[item.session.pk].get(board) != deal for board, deal in deals_of[item.session.pk].items()
        )
    ]


def _tell_rankings(event_id: int, reason: str) -> None:
    # The rankings app reads the final placings through bridge.services.ranking_source.
    from rankings.services import results_changed

    results_changed(event_id, reason)


def record_failure(event_id: int, message: str) -> None:
    """Keep the engine's refusal where the director sees it (the failed recompute rolled back)."""
    from results.models import RecomputeState

    with transaction.atomic():
        RecomputeState.objects.filter(event_id=event_id, scope=SCOPE).update(error=message[:2000])


# --- one board at a time ---------------------------------------------------------------------------------

_LIVE: "OrderedDict[int, _Live]" = OrderedDict()  # session id -> its engine state, most recent last
_LIVE_SESSIONS = 64  # sessions a worker keeps scored in memory


@dataclass
class _Live:
    """A session's incremental engine state for one (immutable) version, and the source row of each entry."""

    version_id: int
    options: tuple
    engine: LiveSession
    sources: dict[int, list[tuple]]
    event: "_EventReads | None" = None


@dataclass
class _EventReads:
    """What a one-board rescore reads of the rest of the event, kept with the session's engine state while
    nothing else happens to the event: valid while the event's stamp is the one this state wrote (any
    other upload, substitute, withdrawal or recompute moves the stamp first)."""

    computed_version: int
    sessions: dict[int, PairSession]
    others: list[tuple]  # the other sessions' SessionStanding rows
    seats: dict[int, _Seat]
    people: _People


def recompute_boards(event_id: int, session_id: int, boards) -> dict:
    """Rescore the boards of one session whose results the latest version changed (a traveller, one
    table's result) and the standings; the same rows as `recompute_event`, which it falls back to whenever
    the stored rows are not exactly those of the version before (or a withdrawal, an announced tie-break
    over several sessions, a substitute in another session would need the whole event).

    The engine state (bridge.engine.scoring.incremental) is kept per session in this process, keyed by the
    version it reflects: versions never change, so a state found is always right for that version."""
    with recompute(event_id, SCOPE) as state:
        if state.computed_at is not None and state.computed_version >= state.latest_version:
            return {"event": event_id, "version": state.computed_version, "skipped": True}
        summary = None
        if state.computed_at is not None and state.computed_version == state.latest_version - 1:
            summary = _rescore_boards(
                event_id, session_id, {int(b) for b in boards}, state.latest_version, state.computed_version
            )
        if summary is None:
            summary = {**_recompute(event_id, state.latest_version), "incremental": False}
        _tell_rankings(event_id, summary.pop("reason"))
    return summary


def _options(settings: PairEvent) -> tuple:
    return (settings.method, settings.scale, settings.rounding, settings.tie_break)


def _entries(rows: list[tuple], awards: dict) -> dict[int, list[Entry]]:
    out: dict[int, list[Entry]] = defaultdict(list)
    for row in rows:
        artificial = row[ARTIFICIAL]
        award = None
        if artificial:
            award = awards.get(artificial)
            if award is None:
                award = awards[artificial] = ArtificialScore.parse(artificial)
        out[row[BOARD]].append(Entry(str(row[NS]), str(row[EW]), row[SCORE], award))
    return out


def _event_reads(event_id, session_id, base_id, settings, computed_version) -> _EventReads | None:
    """The rest of the event, read; None when the stored rows are not those of the version before, or the
    whole event must be recomputed (a withdrawal; an announced tie-break or a substitute in another session
    with results)."""
    stored = SessionStanding.objects.filter(session_id=session_id).values_list("version_id", flat=True)[:1]
    if list(stored) != [base_id] or Withdrawal.objects.filter(pair__event_id=event_id).exists():
        return None
    sessions = {s.pk: s for s in PairSession.objects.filter(event_id=event_id).select_related("announced")}
    others = list(
        SessionStanding.objects.filter(session__event_id=event_id)
        .exclude(session_id=session_id)
        .values_list(*SESSION_STANDING_FIELDS)
    )
    people = _people(event_id)
    if others and (
        settings.tie_break != TieBreak.SHARED or any(sub[0] != session_id for sub in people.substitutions)
    ):
        return None
    seats = {
        pk: _Seat(*rest)
        for pk, *rest in SessionPair.objects.filter(section__session__event_id=event_id).values_list(
            "pk", "section_id", "pair_id", "number", "section__session_id"
        )
    }
    return _EventReads(computed_version, sessions, others, seats, people)


def _rescore_boards(
    event_id: int, session_id: int, boards: set[int], event_version: int, computed_version: int
) -> dict | None:
    """None when the whole event must be recomputed instead."""
    settings = PairEvent.objects.filter(event_id=event_id).first() or PairEvent(event_id=event_id)
    latest = (
        ResultVersion.objects.filter(session_id=session_id)
        .order_by("-number")
        .values_list(
            "pk", "session_id", "number", "source", "uploaded_at", "deals", "base_id", "event_version"
        )
        .first()
    )
    if latest is None or latest[-1] != event_version or latest[-2] is None:
        return None
    version, base_id = _Version(*latest[:6]), latest[-2]
    options = _options(settings)
    live = _LIVE.pop(session_id, None)
    if live is not None and (live.version_id != base_id or live.options != options):
        live = None
    reads = live.event if live is not None else None
    if reads is None or reads.computed_version != computed_version:
        reads = _event_reads(event_id, session_id, base_id, settings, computed_version)
        if reads is None:
            return None
    sessions, others, seats = reads.sessions, reads.others, reads.seats
    penalty_rows = list(
        ResultPenalty.objects.filter(version_id=version.pk)
        .order_by("pk")
        .values_list(*versions.PENALTY_FIELDS)
    )
    awards: dict = {}
    if live is None:  # this worker has not scored the session yet: the version before, once
        rows = list(
            BoardResult.objects.filter(version_id=base_id)
            .order_by("board", "table", "pk")
            .values_list(*versions.ROW_FIELDS)
        )
        sources: dict[int, list[tuple]] = defaultdict(list)
        for row in rows:
            sources[row[BOARD]].append(row)
        entries = _entries(rows, awards)
        base_penalties = ResultPenalty.objects.filter(version_id=base_id).order_by("pk")
        try:
            engine = LiveSession(
                entries,
                method=settings.method,
                scale=settings.scale,
                rounding=settings.rounding,
                penalties=_penalties(base_penalties.values_list(*versions.PENALTY_FIELDS), entries, settings),
                tie_break=settings.tie_break,
            )
        except ValueError:
            return None  # the stored rows cannot be those of that version: the whole event, then
        live = _Live(base_id, options, engine, dict(sources))
    rows = list(
        BoardResult.objects.filter(version_id=version.pk, board__in=boards)
        .order_by("board", "table", "pk")
        .values_list(*versions.ROW_FIELDS)
    )
    changed = _entries(rows, awards)
    proposed = {**live.engine.entries, **{b: tuple(changed.get(b, ())) for b in boards}}
    try:
        rescored = live.engine.change(
            {b: changed.get(b, ()) for b in boards},
            penalties=_penalties(penalty_rows, proposed, settings),
        )
    except ValueError as error:
        raise ScoringError(f"{sessions[session_id]}: {error}")
    for board in boards:
        live.sources.pop(board, None)
    for row in rows:
        live.sources.setdefault(row[BOARD], []).append(row)
    live.version_id = version.pk
    _LIVE[session_id] = live
    while len(_LIVE) > _LIVE_SESSIONS:
        _LIVE.popitem(last=False)

    score = live.engine.score()
    item = _Session(sessions[session_id], version, [], [], {})
    session_rows = _session_standings(item, score, settings, set())
    session_totals: dict[int, list] = defaultdict(list)
    for standing in session_rows:
        session_totals[seats[standing.pair_id].pair_id].append((item, standing))
    loaded = [item]
    by_session = {session_id: item}
    for values in others:
        standing = _Standing(*values)
        other = by_session.get(standing.session_id)
        if other is None:
            other = by_session[standing.session_id] = _Session(
                sessions[standing.session_id], None, [], [], {}
            )
            loaded.append(other)
        session_totals[seats[standing.pair_id].pair_id].append((other, standing))
    played = defaultdict(set)
    for board, entries in live.engine.entries.items():
        for entry in entries:
            played[int(entry.ns)].add(board)
            played[int(entry.ew)].add(board)
    item.played = played
    event_results = []
    if settings.tie_break != TieBreak.SHARED:
        event_pair_of = {str(pid): str(seat.pair_id) for pid, seat in seats.items()}
        event_results = relabel(played_results(score.boards.values()), event_pair_of)
    event_rows = _event_standings(
        event_id, event_version, settings, session_totals, loaded, seats, event_results, reads.people
    )
    reads.computed_version = event_version  # what the stamp says once this commits
    live.event = reads

    board_rows = _board_scores(item, score, live.sources, rescored)
    scores = _table(BoardScore)
    marks = ", ".join(["%s"] * len(rescored)) or "NULL"
    bulk.execute_all(
        [
            (f"DELETE FROM {scores} WHERE session_id = %s AND board IN ({marks})", [session_id, *rescored]),
            (f"UPDATE {scores} SET version_id = %s WHERE session_id = %s", [version.pk, session_id]),
            (f"DELETE FROM {_table(SessionStanding)} WHERE session_id = %s", [session_id]),
            (f"DELETE FROM {_table(EventStanding)} WHERE event_id = %s", [event_id]),
        ]
    )
    bulk.insert_rows(BoardScore, BOARD_SCORE_FIELDS, board_rows)
    bulk.insert_rows(SessionStanding, SESSION_STANDING_FIELDS, session_rows)
    bulk.insert_rows(EventStanding, EVENT_STANDING_FIELDS, event_rows)
    reason = "appeal" if version.source == VersionedUpload.Source.APPEAL else "correction"
    return {
        "event": event_id,
        "version": event_version,
        "sessions": {item.session.number: version.number},
        "results": len(board_rows),
        "pairs": len(event_rows),
        "reason": reason,
        "incremental": True,
        "boards": sorted(rescored),
    }


def _penalties(rows: list[tuple], boards, settings: PairEvent) -> list[Penalty]:
    """The version's penalties the engine takes: those of pairs with a result (on the board), as `_score`."""
    if settings.method != Method.MATCHPOINTS:
        return []
    seated = {(board, key) for board, entries in boards.items() for e in entries for key in (e.ns, e.ew)}
    playing = {key for _board, key in seated}
    return [
        Penalty(str(pair_id), percent, board, reason)
        for pair_id, board, percent, reason in rows
        if (str(pair_id) in playing if board is None else (board, str(pair_id)) in seated)
    ]
