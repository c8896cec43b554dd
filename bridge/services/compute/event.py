"""The recompute behind the Celery task: each session's latest version through `score_session`, and the
materialised standings replaced in the one transaction that holds the event's recompute lock.

Withdrawn pairs (VSz 25) are applied here, in the computation, never by deleting stored results: results
that do not stand are left out, and every opponent the pair no longer met gets average-plus against an
"absent" side that is scored by the engine and then dropped (it is nobody, it is never ranked).
"""

from collections import defaultdict
from dataclasses import dataclass

from django.db import transaction
from django.db.models import OuterRef, Q, Subquery

from bridge.engine.scoring.adjusted import ArtificialScore, Award, Penalty
from bridge.engine.scoring.exclusion import out_by_session
from bridge.engine.scoring.session import Entry, Method, SessionScore, score_session
from bridge.engine.scoring.tiebreak import Played, TieBreak, played_results, relabel
from rankings.services import results_changed
from results.models import RecomputeState, VersionedUpload
from results.services import recompute
from results.tasks import request_recompute

from ...models import (
    BoardResult,
    BoardScore,
    EventStanding,
    PairEvent,
    PairSession,
    ResultPenalty,
    ResultVersion,
    ScoredBoard,
    Section,
    SessionPair,
    SessionStanding,
    SessionStart,
    Withdrawal,
)
from .. import HAND_RECORDS, SCOPE, bulk, versions
from ..roster import SessionPlay, exclusion_queryset, exclusions_from, sessions_that_stand
from .common import (
    _LIVE,
    _LIVE_SESSIONS,
    ABSENT,
    ABSENT_AWARD,
    ARTIFICIAL,
    BOARD,
    EW,
    GROUP,
    NS,
    SCORE,
    ScoringError,
    _EventReads,
    _Live,
    _read_all,
    _Seat,
    _Session,
    _table,
    _Version,
)
from .hand_records import _needs_hand_records
from .standings import (
    BOARD_SCORE_FIELDS,
    EVENT_STANDING_FIELDS,
    SCORED_BOARD_FIELDS,
    SESSION_STANDING_FIELDS,
    _board_digests,
    _board_scores,
    _event_standings,
    _People,
    _people,
    _people_queries,
    _scoring_options,
    _session_standings,
)


def recompute_event(event_id: int, *, force: bool = False) -> dict:
    """Recompute an event's standings; safe to run twice (a current stamp is left alone unless `force`)."""
    with recompute(event_id, SCOPE) as state:
        if not force and state.computed_at is not None and state.computed_version >= state.latest_version:
            return {"event": event_id, "version": state.computed_version, "skipped": True}
        summary = _recompute(event_id, state.latest_version, force=force)
        _tell_rankings(event_id, summary.pop("reason"), summary.pop("final"))
    return summary


@dataclass
class _Event:
    """Everything the recompute reads, in a fixed number of queries whatever the number of pairs."""

    settings: PairEvent
    sessions: list[PairSession]
    seats: dict[int, _Seat]
    loaded: list[_Session]
    withdrawals: list[tuple[int, int]]  # (event pair id, number of the session it withdrew in)
    people: _People
    # VSz 23: session number -> {event pair id: boards whose results leave the standings, None: all}
    excluded: dict[int, dict[int, frozenset[int] | None]]
    started: set[int]  # sessions whose start is recorded (their deals are open)
    digests: dict[int, dict[int, str]]  # session id -> board -> the stored ScoredBoard digest


def _read(event_id: int) -> _Event:
    """Two round trips on PostgreSQL: the sessions (with their latest versions), then everything else."""
    latest = ResultVersion.objects.filter(session=OuterRef("pk")).order_by("-number")
    sessions = list(
        PairSession.objects.filter(event_id=event_id)
        .select_related("announced")
        .annotate(
            latest_version_id=Subquery(latest.values("pk")[:1]),
            latest_sources=Subquery(latest.values("sources")[:1]),
        )
        .order_by("number")
    )
    version_ids = [s.latest_version_id for s in sessions if s.latest_version_id is not None]
    # Copy on write: a version's rows are its own and, for the boards it kept, its holders' (one read);
    # a holder's row of a kept board goes to the version that kept it.
    holding, kept = Q(pk__in=[]), {}
    for s in sessions:
        if s.latest_version_id is not None:
            holding |= versions.holding(s.latest_version_id, s.latest_sources)
            for board, holder in versions.sources_of(s.latest_sources).items():
                kept[holder, board] = s.latest_version_id
    (
        found_settings,
        seat_rows,
        version_rows,
        result_rows,
        penalty_rows,
        withdrawals,
        pair_rows,
        substitution_rows,
        exclusion_rows,
        started,
        digest_rows,
    ) = _read_all(
        [
            PairEvent.objects.filter(event_id=event_id).values_list(
                "method", "scale", "rounding", "tie_break"
            )[:1],
            SessionPair.objects.filter(section__session__event_id=event_id).values_list(
                "pk", "section_id", "pair_id", "number", "section__session_id"
            ),
            ResultVersion.objects.filter(pk__in=version_ids).values_list(
                "pk", "session_id", "number", "source", "uploaded_at", "deals"
            ),
            # the largest read of a recompute (a row per table per board): tuples, no model instance
            BoardResult.objects.filter(holding)
            .order_by("board", "table", "pk")
            .values_list("version_id", *versions.ROW_FIELDS),
            ResultPenalty.objects.filter(version_id__in=version_ids)
            .order_by("pk")
            .values_list("version_id", *versions.PENALTY_FIELDS),
            Withdrawal.objects.filter(pair__event_id=event_id).values_list("pair_id", "session__number"),
            *_people_queries(event_id),
            exclusion_queryset(event_id),
            SessionStart.objects.filter(session__event_id=event_id).values_list("session_id"),
            ScoredBoard.objects.filter(session__event_id=event_id).values_list(
                "session_id", "board", "digest"
            ),
        ]
    )
    if found_settings:
        method, scale, rounding, tie_break = found_settings[0]
        settings = PairEvent(
            event_id=event_id, method=method, scale=scale, rounding=rounding, tie_break=tie_break
        )
    else:
        settings = PairEvent(event_id=event_id)
    seats = {pk: _Seat(*rest) for pk, *rest in seat_rows}
    found = {v[0]: _Version(*v) for v in version_rows}
    rows: dict[int, list[tuple]] = defaultdict(list)
    for row in result_rows:
        rows[kept.get((row[0], row[1]), row[0])].append(row[1:])
    penalties: dict[int, list[tuple]] = defaultdict(list)
    for version_id, *penalty in penalty_rows:
        penalties[version_id].append(tuple(penalty))
    loaded = []
    for session in sessions:
        version = found.get(session.latest_version_id)
        if version is None:
            continue
        loaded.append(_Session(session, version, rows[version.pk], penalties[version.pk], {}))
    people = _people(event_id, [pair_rows, substitution_rows])
    excluded = out_by_session(exclusions_from(exclusion_rows), [s.number for s in sessions])
    # Who played which boards of his movement matters only to a withdrawal (VSz 25: which results stand,
    # average-plus for the meetings it left), an exclusion (VSz 23: the same for the meetings taken out) and
    # to a substitute's rights: without them it is not worked out.
    if withdrawals or people.substitutions or excluded:
        plans: dict[int, dict[int, object]] = defaultdict(dict)
        for section in Section.objects.filter(session__event_id=event_id):
            plans[section.session_id][section.pk] = section.plan()
        for item in loaded:
            item.plans = plans[item.session.pk]
            _schedule(item, seats)
    digests: dict[int, dict[int, str]] = defaultdict(dict)
    for session_id, board, digest in digest_rows:
        digests[session_id][board] = digest
    started_ids = {session_id for (session_id,) in started}
    return _Event(settings, sessions, seats, loaded, withdrawals, people, excluded, started_ids, digests)


def _recompute(event_id: int, event_version: int, force: bool = False) -> dict:
    """Every session scored again; a board's BoardScore rows are rewritten only when what the engine was given
    for it changed (ScoredBoard's digest), or all of them with `force` (the reference: after a change of the
    scoring code, say)."""
    read = _read(event_id)
    settings, sessions, seats, loaded = read.settings, read.sessions, read.seats, read.loaded
    session_ids = [s.pk for s in sessions]
    deleted = _deleted_results(sessions, loaded, seats, read.withdrawals)

    board_rows, standing_rows, session_totals = [], [], defaultdict(list)
    announced = settings.tie_break != TieBreak.SHARED
    event_results: list[Played] = []  # played results under event pair ids, for an announced tie-break
    event_pair_of = {str(pid): str(seat.pair_id) for pid, seat in seats.items()}
    stored = read.digests if not force else {}
    rewrite: dict[int, set[int]] = {}  # session id -> boards whose BoardScore rows are rewritten
    digest_rows = []
    for item in loaded:
        score, sources, absent, digests = _score(
            item, settings, seats, deleted, read.withdrawals, read.excluded.get(item.session.number, {})
        )
        item.sources = sources
        session_id = item.session.pk
        old = stored.get(session_id)
        if old and digests:
            changed = {board for board in score.boards if old.get(board) != digests[board]}
            rewrite[session_id] = changed | (old.keys() - score.boards.keys())
        else:  # never digested (or a withdrawal's session): every row of the session goes
            changed = set(score.boards)
        board_rows.extend(_board_scores(item, score, sources, changed))
        digest_rows.extend((session_id, board, digests[board]) for board in changed if board in digests)
        if announced:
            event_results.extend(relabel(played_results(score.boards.values()), event_pair_of))
        for standing in _session_standings(item, score, settings, absent):
            standing_rows.append(standing)
            session_totals[seats[standing.pair_id].pair_id].append((item, standing))
    hand_sessions = _needs_hand_records(loaded, read.started)

    event_rows = _event_standings(
        event_id, event_version, settings, session_totals, loaded, seats, event_results, read.people
    )
    _seed_live(read, event_version, standing_rows, event_rows)
    marks = ", ".join(["%s"] * len(session_ids)) or "NULL"
    # A session whose digests matched loses only the boards rewritten; every other one (no version any
    # more, never digested, a withdrawal's, or `force`) all its rows.
    whole = [pk for pk in session_ids if pk not in rewrite]
    statements = [
        (f"DELETE FROM {_table(SessionStanding)} WHERE session_id IN ({marks})", session_ids),
        (f"DELETE FROM {_table(EventStanding)} WHERE event_id = %s", [event_id]),
    ]
    if whole:
        whole_marks = ", ".join(["%s"] * len(whole))
        for model in (BoardScore, ScoredBoard):
            statements.append((f"DELETE FROM {_table(model)} WHERE session_id IN ({whole_marks})", whole))
    for session_id, boards in rewrite.items():
        if boards:
            board_marks = ", ".join(["%s"] * len(boards))
            for model in (BoardScore, ScoredBoard):
                statements.append(
                    (
                        f"DELETE FROM {_table(model)} WHERE session_id = %s AND board IN ({board_marks})",
                        [session_id, *sorted(boards)],
                    )
                )
    bulk.write_all(
        statements,
        [
            (BoardScore, BOARD_SCORE_FIELDS, board_rows),
            (ScoredBoard, SCORED_BOARD_FIELDS, digest_rows),
            (SessionStanding, SESSION_STANDING_FIELDS, standing_rows),
            (EventStanding, EVENT_STANDING_FIELDS, event_rows),
        ],
    )

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
        # the masterpoint source gives nothing while a session with results is not published
        "final": bool(loaded) and all(item.session.published_at is not None for item in loaded),
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
    if not withdrawn_seats:
        return out
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


def _excluded_seats(item: _Session, seats, excluded) -> dict[int, frozenset[int] | None]:
    """Session pair id -> boards whose results leave the standings (None: all), from the event pairs'."""
    return {pid: excluded[seats[pid].pair_id] for pid in item.scheduled if seats[pid].pair_id in excluded}


def _is_excluded(row, out: dict[int, frozenset[int] | None]) -> bool:
    for pid in (row[NS], row[EW]):
        if pid in out and (out[pid] is None or row[BOARD] in out[pid]):
            return True
    return False


def _excluded_meetings(item: _Session, seats, out, kept) -> list[tuple[int, int, str, int]]:
    """(board, table, opponent's side, opponent) of every meeting an excluded pair's results left (VSz 23),
    played or not; an opponent with a result kept on the board (it met somebody else there) gets none."""
    found = []
    by_number = {(seat.section_id, seat.number): pid for pid, seat in seats.items() if pid in item.scheduled}
    for pair_id, boards in out.items():
        seat = seats[pair_id]
        plan = item.plans.get(seat.section_id)
        if plan is None:
            continue
        for a in plan.assignments:
            if seat.number not in (a.ns, a.ew):
                continue
            opponent_number, side = (a.ew, "EW") if seat.number == a.ns else (a.ns, "NS")
            opponent = by_number.get((seat.section_id, opponent_number))
            if opponent is None or opponent in out:
                continue
            for board in a.boards:
                if (boards is None or board in boards) and (board, opponent) not in kept:
                    found.append((board, a.table, side, opponent))
    return found


def _engine_input(
    item: _Session, rows, seats, out, left_out=frozenset(), withdrawn_seats=frozenset(), only=None, keys=None
) -> tuple[dict, dict, set[str]]:
    """The engine's entries and their source rows per board from the version's `rows` (of the boards `only`,
    all when None): the results of withdrawn (`left_out`) and excluded (`out`, VSz 23) pairs taken out, an
    absent side with average-plus for each opponent of a meeting they left; and the absent sides' keys.
    `keys`: session pair id -> its engine key (its str), kept by a caller that calls again."""
    boards: dict[int, list[Entry]] = defaultdict(list)
    sources: dict[int, list[tuple]] = defaultdict(list)
    awards: dict[str, ArtificialScore] = {}
    keys = {} if keys is None else keys
    for row in rows:
        ns, ew = row[NS], row[EW]
        if left_out and (ns in left_out or ew in left_out):
            continue
        if out and _is_excluded(row, out):
            continue
        artificial = row[ARTIFICIAL]
        award = None
        if artificial:
            award = awards.get(artificial)
            if award is None:
                award = awards[artificial] = ArtificialScore.parse(artificial)
        board = row[BOARD]
        ns_key = keys.get(ns)
        if ns_key is None:
            ns_key = keys[ns] = str(ns)
        ew_key = keys.get(ew)
        if ew_key is None:
            ew_key = keys[ew] = str(ew)
        boards[board].append(Entry(ns_key, ew_key, row[SCORE], award, row[GROUP]))
        sources[board].append(row)
    absent = set()
    meetings = _absent_opponents(item, seats, withdrawn_seats)
    if out:
        kept = {
            (b, int(k)) for b, entries in boards.items() for e in entries for k in (e.ns, e.ew) if k.isdigit()
        }
        meetings += _excluded_meetings(item, seats, out, kept)
    for board, table, side, opponent in meetings:
        if only is not None and board not in only:
            continue
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
                None,
            )
        )
    return boards, sources, absent


def _score(
    item: _Session, settings: PairEvent, seats, deleted, withdrawals, excluded=None
) -> tuple[SessionScore, dict, set[str]]:
    """The engine's score of one session: (score, the source row of every engine entry, absent keys)."""
    left_out = deleted.get(item.session.pk, set())
    number = item.session.number
    withdrawn = {pair_id for pair_id, since in withdrawals if number >= since}
    withdrawn_seats = {pid for pid in item.scheduled if seats[pid].pair_id in withdrawn}
    out = _excluded_seats(item, seats, excluded) if excluded else {}
    boards, sources, absent = _engine_input(item, item.rows, seats, out, left_out, withdrawn_seats)
    # A penalty of a pair whose results were left out has nothing left to be taken from.
    penalties = []
    if item.penalties:
        seated = {(board, key) for board, entries in boards.items() for e in entries for key in (e.ns, e.ew)}
        playing = {key for _board, key in seated}
        penalties = [
            Penalty(str(pair_id), percent, board, reason)
            for pair_id, board, percent, reason in item.penalties
            if (str(pair_id) in playing if board is None else (board, str(pair_id)) in seated)
        ]
    ordered = {board: boards[board] for board in sorted(boards)}
    given = penalties if settings.method == Method.MATCHPOINTS else ()
    try:
        score = score_session(
            ordered,
            method=settings.method,
            scale=settings.scale,
            rounding=settings.rounding,
            penalties=given,
            tie_break=settings.tie_break,
        )
    except ValueError as error:
        raise ScoringError(f"{item.session}: {error}")
    sources = {board: sources[board] for board in ordered}
    item.scored = (ordered, given, out)
    # Results left out for a withdrawal or an exclusion are not in the sources: such a session is always
    # rewritten whole.
    digests = {} if left_out or out else _board_digests(_scoring_options(settings), given, sources)
    return score, sources, absent, digests


def _seed_live(read: _Event, event_version: int, standing_rows, event_rows) -> None:
    """Leave this worker's next one-board rescore of each session (compute.boards) what it would read: the
    engine's input as scored here (its state is built from it when first needed), the rest of the event
    and the standings rows as written, valid while the stamp is the one this recompute writes. Not where
    that rescore would recompute the whole event (a withdrawal; an announced tie-break or a substitute in
    another session with results; a substitute beside an exclusion: `boards._event_reads`)."""
    if read.withdrawals:
        return
    settings = read.settings
    options = (settings.method, settings.scale, settings.rounding, settings.tie_break)
    sessions = {s.pk: s for s in read.sessions}
    by_session: dict[int, list] = defaultdict(list)
    for row in standing_rows:
        by_session[row.session_id].append(row)
    event_now = {row[1]: row[:2] + row[3:] for row in event_rows}
    substitutions = read.people.substitutions
    for item in read.loaded:
        session_id = item.session.pk
        if item.scored is None:
            continue
        entries, given, out = item.scored
        others = [tuple(row) for row in standing_rows if row.session_id != session_id]
        if others and (
            settings.tie_break != TieBreak.SHARED or any(sub[0] != session_id for sub in substitutions)
        ):
            continue
        if out and substitutions:
            continue
        reads = _EventReads(event_version, sessions, others, read.seats, read.people)
        reads.session_rows = {row.pair_id: row[:1] + row[2:] for row in by_session[session_id]}
        reads.event_rows = event_now
        if out:
            reads.out = out
            reads.item = _Session(item.session, None, [], [], item.plans, scheduled=item.scheduled)
        _LIVE.pop(session_id, None)
        _LIVE[session_id] = _Live(
            item.version.pk, options, None, item.sources, event=reads, out=out, pending=(entries, given)
        )
        while len(_LIVE) > _LIVE_SESSIONS:
            _LIVE.popitem(last=False)


def _tell_rankings(event_id: int, reason: str, final: bool = True) -> None:
    """The rankings app reads the final placings through bridge.services.ranking_source, which has
    nothing to give while a session with results is unpublished (`final` False: live scoring); publishing
    the last one tells the rankings itself (setup.publish)."""
    if final:
        results_changed(event_id, reason)


def record_failure(event_id: int, message: str) -> None:
    """Keep the engine's refusal where the director sees it (the failed recompute rolled back)."""
    with transaction.atomic():
        RecomputeState.objects.filter(event_id=event_id, scope=SCOPE).update(error=message[:2000])
