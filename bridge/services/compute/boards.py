"""One board at a time: a session's changed boards rescored by the incremental engine
(bridge.engine.scoring.incremental) and the standings rewritten, falling back to the whole event."""

from collections import defaultdict

from django.db.models import Exists, OuterRef, Subquery

from bridge.engine.scoring.adjusted import Penalty
from bridge.engine.scoring.exclusion import out_by_session
from bridge.engine.scoring.incremental import LiveSession
from bridge.engine.scoring.session import Method
from bridge.engine.scoring.tiebreak import TieBreak, played_results, relabel
from results.models import VersionedUpload
from results.services import recompute

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
    Withdrawal,
)
from .. import SCOPE, bulk, versions
from ..roster import exclusion_queryset, exclusions_from
from .common import (
    _LIVE,
    _LIVE_SESSIONS,
    ABSENT,
    ScoringError,
    _EventReads,
    _Live,
    _read_all,
    _read_shaped,
    _Seat,
    _Session,
    _table,
    _Version,
)
from .event import _engine_input, _excluded_seats, _recompute, _tell_rankings
from .standings import (
    BOARD_SCORE_FIELDS,
    EVENT_STANDING_FIELDS,
    SCORED_BOARD_FIELDS,
    SESSION_STANDING_FIELDS,
    _board_digests,
    _board_scores,
    _event_standings,
    _people,
    _people_queries,
    _scoring_options,
    _session_standings,
    _Standing,
)


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
        _tell_rankings(event_id, summary.pop("reason"), summary.pop("final"))
    return summary


def _options(settings: PairEvent) -> tuple:
    return (settings.method, settings.scale, settings.rounding, settings.tie_break)


def _event_reads(event_id, session_id, settings, computed_version) -> _EventReads | None:
    """The rest of the event, read (two round trips, three with an exclusion); None when the whole event
    must be recomputed (a withdrawal; an announced tie-break or a substitute in another session with results;
    a substitute beside an exclusion: his rights count the results the exclusion took out)."""
    sessions = {s.pk: s for s in PairSession.objects.filter(event_id=event_id).select_related("announced")}
    withdrawn, exclusion_rows, others, pair_rows, substitution_rows, seat_rows = _read_all(
        [
            Withdrawal.objects.filter(pair__event_id=event_id).values_list("pk")[:1],
            exclusion_queryset(event_id),
            SessionStanding.objects.filter(session__event_id=event_id)
            .exclude(session_id=session_id)
            .values_list(*SESSION_STANDING_FIELDS),
            *_people_queries(event_id),
            SessionPair.objects.filter(section__session__event_id=event_id).values_list(
                "pk", "section_id", "pair_id", "number", "section__session_id"
            ),
        ]
    )
    if withdrawn or session_id not in sessions:
        return None
    people = _people(event_id, [pair_rows, substitution_rows])
    if others and (
        settings.tie_break != TieBreak.SHARED or any(sub[0] != session_id for sub in people.substitutions)
    ):
        return None
    seats = {pk: _Seat(*rest) for pk, *rest in seat_rows}
    reads = _EventReads(computed_version, sessions, others, seats, people)
    session = sessions[session_id]
    excluded = out_by_session(exclusions_from(exclusion_rows), [session.number]).get(session.number)
    if excluded:
        if people.substitutions:
            return None
        item = _Session(session, None, [], [], {})
        for section in Section.objects.filter(session_id=session_id):
            item.plans[section.pk] = section.plan()
        item.scheduled = {pid: 0 for pid, seat in seats.items() if seat.section_id in item.plans}
        reads.out = _excluded_seats(item, seats, excluded)
        reads.item = item
    return reads


_SETTINGS = ("method", "scale", "rounding", "tie_break")


def _changed_reads(event_id, session_id, boards) -> list:
    """What a one-board rescore reads (`_rescore_boards`)."""
    versions_of = ResultVersion.objects.filter(session_id=session_id).order_by("-number")
    newest = Subquery(versions_of.values("pk")[:1])
    has_results = Exists(ResultVersion.objects.filter(session=OuterRef("pk")))
    return [
        PairEvent.objects.filter(event_id=event_id).values_list(*_SETTINGS)[:1],
        versions_of.values_list(
            "pk",
            "session_id",
            "number",
            "source",
            "uploaded_at",
            "base_id",
            "event_version",
            "base__number",
            "sources",
            "base__sources",
        )[:1],
        ResultPenalty.objects.filter(version_id=newest).order_by("pk").values_list(*versions.PENALTY_FIELDS),
        BoardResult.objects.filter(version_id=newest, board__in=boards)
        .order_by("board", "table", "pk")
        .values_list(*versions.ROW_FIELDS),
        PairSession.objects.filter(event_id=event_id, published_at__isnull=True)
        .filter(has_results)
        .values_list("pk")[:1],
    ]


def _rescore_boards(
    event_id: int, session_id: int, boards: set[int], event_version: int, computed_version: int
) -> dict | None:
    """None when the whole event must be recomputed instead.

    What changes between two results is read in one round trip (the settings, the new version, its
    penalties and the changed boards' rows, whether a session with results is unpublished) and written in
    another; the rest of the event is kept with the session's engine state while the event's stamp is the
    one this state wrote."""
    changed_boards = sorted(boards)
    found, latest, penalty_rows, rows, unpublished = _read_shaped(
        ("boards", len(changed_boards)), _changed_reads, event_id, session_id, changed_boards
    )
    if found:
        method, scale, rounding, tie_break = found[0]
        settings = PairEvent(
            event_id=event_id, method=method, scale=scale, rounding=rounding, tie_break=tie_break
        )
    else:
        settings = PairEvent(event_id=event_id)
    # The stored rows are those of the version before when the stamp is one behind (recompute_boards) and
    # the new version is the event's newest, built on the session's version before it.
    if not latest:
        return None
    pk, _session, number, source, uploaded_at, base_id, newest_event_version, base_number, kept, base_kept = (
        latest[0]
    )
    if newest_event_version != event_version or base_id is None or base_number != number - 1:
        return None
    if any(board in versions.sources_of(kept) for board in boards):
        return None  # a board the version kept from its base is not among its own rows read above
    version = _Version(pk, session_id, number, source, uploaded_at, {})
    options = _options(settings)
    live = _LIVE.pop(session_id, None)
    if live is not None and (live.version_id != base_id or live.options != options):
        live = None
    reads = live.event if live is not None else None
    if reads is None or reads.computed_version != computed_version:
        reads = _event_reads(event_id, session_id, settings, computed_version)
        if reads is None:
            return None
    sessions, others, seats = reads.sessions, reads.others, reads.seats
    if session_id not in sessions:
        return None
    out = reads.out or {}
    if live is not None and (live.out or {}) != out:
        live = None
    item = reads.item or _Session(sessions[session_id], None, [], [], {})
    if live is None:  # this worker has not scored the session yet: the version before, once
        base_rows, base_penalties = _read_all(
            [
                BoardResult.objects.filter(versions.holding(base_id, base_kept))
                .order_by("board", "table", "pk")
                .values_list(*versions.ROW_FIELDS),
                ResultPenalty.objects.filter(version_id=base_id)
                .order_by("pk")
                .values_list(*versions.PENALTY_FIELDS),
            ]
        )
        entries, sources, _absent = _engine_input(item, base_rows, seats, out)
        pending = (entries, _penalties(base_penalties, entries, settings))
        live = _Live(base_id, options, None, dict(sources), out=out, pending=pending)
    if live.engine is None:  # read above, or given by the full recompute (event._seed_live)
        entries, given = live.pending
        try:
            live.engine = LiveSession(
                entries,
                method=settings.method,
                scale=settings.scale,
                rounding=settings.rounding,
                penalties=given,
                tie_break=settings.tie_break,
            )
        except ValueError:
            return None  # the stored rows cannot be those of that version: the whole event, then
        live.pending = None
    changed, changed_sources, _absent = _engine_input(item, rows, seats, out, only=boards)
    proposed = {**live.engine.entries, **{b: tuple(changed.get(b, ())) for b in boards}}
    given = _penalties(penalty_rows, proposed, settings)
    try:
        rescored = live.engine.change({b: changed.get(b, ()) for b in boards}, penalties=given)
    except ValueError as error:
        raise ScoringError(f"{sessions[session_id]}: {error}")
    for board in boards:
        before = live.sources.pop(board, None)
        if changed_sources.get(board):
            live.sources[board] = changed_sources[board]
        if before != live.sources.get(board):  # a contract, a lead: the engine's input alike, its rows not
            rescored.add(board)
    live.version_id = version.pk
    _LIVE[session_id] = live
    while len(_LIVE) > _LIVE_SESSIONS:
        _LIVE.popitem(last=False)

    score = live.engine.score()
    # the opponents' absent sides of an exclusion's meetings are scored, never ranked (event._score)
    absent = set()
    if out:
        for entries in live.engine.entries.values():
            absent.update(key for e in entries for key in (e.ns, e.ew) if key.startswith(ABSENT))
    item = _Session(sessions[session_id], version, [], [], {})
    session_rows = _session_standings(item, score, settings, absent)
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
    if reads.people.substitutions:  # who played which boards matters only to a substitute's rights
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

    # Only the rescored boards' rows are written, stamped with this version; the other boards' rows keep the
    # stamp of the version they were written from, whose results and scores for them are these ones. So
    # with the standings: only the rows that differ from those stored are written (SessionStanding.version,
    # EventStanding.event_version: the version a row was computed from, whose row it still is).
    session_now = {row.pair_id: row[:1] + row[2:] for row in session_rows}
    event_now = {row[1]: row[:2] + row[3:] for row in event_rows}
    session_changed = _differing(reads.session_rows, session_now)
    event_changed = _differing(reads.event_rows, event_now)
    reads.session_rows, reads.event_rows = session_now, event_now
    board_rows = _board_scores(item, score, live.sources, rescored)
    # a session with an exclusion keeps no digests (event._score: it is always rewritten whole)
    digests = (
        {}
        if out
        else _board_digests(
            _scoring_options(settings),
            given,
            {board: live.sources.get(board, []) for board in sorted(rescored)},
        )
    )
    marks = ", ".join(["%s"] * len(rescored)) or "NULL"
    bulk.write_all(
        [
            *(
                (
                    f"DELETE FROM {_table(model)} WHERE session_id = %s AND board IN ({marks})",
                    [session_id, *rescored],
                )
                for model in (BoardScore, ScoredBoard)
            ),
            *_delete(SessionStanding, "session_id", session_id, session_changed),
            *_delete(EventStanding, "event_id", event_id, event_changed),
        ],
        [
            (BoardScore, BOARD_SCORE_FIELDS, board_rows),
            (
                ScoredBoard,
                SCORED_BOARD_FIELDS,
                [(session_id, board, digest) for board, digest in digests.items()],
            ),
            (
                SessionStanding,
                SESSION_STANDING_FIELDS,
                [r for r in session_rows if session_changed is None or r.pair_id in session_changed],
            ),
            (
                EventStanding,
                EVENT_STANDING_FIELDS,
                [r for r in event_rows if event_changed is None or r[1] in event_changed],
            ),
        ],
    )
    reason = "appeal" if version.source == VersionedUpload.Source.APPEAL else "correction"
    return {
        "event": event_id,
        "version": event_version,
        "sessions": {item.session.number: version.number},
        "results": len(board_rows),
        "pairs": len(event_rows),
        "reason": reason,
        "final": not unpublished,
        "incremental": True,
        "boards": sorted(rescored),
    }


def _differing(stored: dict | None, now: dict) -> set | None:
    """The pair ids whose row differs from the one stored (or is new, or gone); None: every row."""
    if stored is None:
        return None
    return {pair for pair in stored.keys() | now.keys() if stored.get(pair) != now.get(pair)}


def _delete(model, column: str, owner: int, pairs: set | None) -> list[tuple[str, list]]:
    """The DELETE of the owner's standings rows of `pairs` (None: all of them; empty: none)."""
    if pairs is None:
        return [(f"DELETE FROM {_table(model)} WHERE {column} = %s", [owner])]
    if not pairs:
        return []
    marks = ", ".join(["%s"] * len(pairs))
    return [
        (f"DELETE FROM {_table(model)} WHERE {column} = %s AND pair_id IN ({marks})", [owner, *sorted(pairs)])
    ]


def _penalties(rows: list[tuple], boards, settings: PairEvent) -> list[Penalty]:
    """The version's penalties the engine takes: those of pairs with a result (on the board), as `_score`."""
    if settings.method != Method.MATCHPOINTS or not rows:
        return []
    seated = {(board, key) for board, entries in boards.items() for e in entries for key in (e.ns, e.ew)}
    playing = {key for _board, key in seated}
    return [
        Penalty(str(pair_id), percent, board, reason)
        for pair_id, board, percent, reason in rows
        if (str(pair_id) in playing if board is None else (board, str(pair_id)) in seated)
    ]
