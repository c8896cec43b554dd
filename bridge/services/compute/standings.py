"""The rows a recompute writes: BoardScore, SessionStanding and EventStanding (with the masterpoint rights of
each pair's players), as tuples for bulk.insert_rows."""

import hashlib
import json
from collections import defaultdict
from collections.abc import Sequence
from decimal import Decimal
from typing import NamedTuple

from bridge.engine.scoring.matchpoints import percentage
from bridge.engine.scoring.session import Method, PairTotal, SessionScore, _rank
from bridge.engine.scoring.tiebreak import Played, played_results, tie_break

from ...models import (
    Pair,
    Substitution,
)
from ..roster import player_rights
from .common import _places, _Session

BOARD_SCORE_FIELDS = (
    "session", "version", "board", "table", "ns", "ew", "contract", "declarer", "lead", "tricks", "score",
    "artificial", "deal_group", "mp_ns", "mp_ew", "pct_ns", "pct_ew", "imp_ns", "imp_ew", "penalty_ns", "penalty_ew",
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


def _scoring_options(settings) -> tuple:
    """The event's settings that change what a board's results earn (the tie-break changes only places)."""
    return (settings.method, settings.scale, settings.rounding)


def _board_digests(options: tuple, penalties: Sequence, sources: dict[int, list[tuple]]) -> dict[int, str]:
    """Board -> a digest of all the engine is given for it: its rows (each becomes a BoardScore row with what
    it earned, across the field), the session's penalties and the scoring options. Boards are scored apart
    from each other, so an equal digest means equal BoardScore rows (bar the stamp)."""
    common = repr((options, tuple(penalties))).encode()
    out = {}
    for board, rows in sources.items():
        digest = hashlib.blake2b(common, digest_size=16)
        digest.update(repr(rows).encode())
        out[board] = digest.hexdigest()
    return out


SCORED_BOARD_FIELDS = ("session", "board", "digest")


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
    # JSON texts of the standings' `sessions` and `rights` by all they are made of (names included): the
    # worker's `_TEXTS`, kept between recomputes, where most pairs' rights and session lines stay the same
    texts: dict


def _people_queries(event_id: int) -> list:
    """The two queries `_people` reads (for a caller that sends them with others in one round trip)."""
    # The names come in the same rows (joins), not by a second query over a list of thousands of ids.
    return [
        Pair.objects.filter(event_id=event_id).values_list(
            "pk",
            "player1_id",
            "player1__last_name",
            "player1__first_name",
            "player2_id",
            "player2__last_name",
            "player2__first_name",
        ),
        Substitution.objects.filter(pair__event_id=event_id).values_list(
            "session_id",
            "pair_id",
            "original_id",
            "substitute_id",
            "boards",
            "substitute__last_name",
            "substitute__first_name",
        ),  # fmt: skip
    ]


def _people(event_id: int, rows: list | None = None) -> _People:
    """Who plays in the event's pairs; `rows`: the results of `_people_queries`, already read."""
    pair_rows, substitution_rows = rows if rows is not None else _people_queries(event_id)
    pairs, names = {}, {}
    for pk, *players in pair_rows:
        ids = []
        for person, last, first in (players[:3], players[3:]):
            if person:
                ids.append(person)
                names[person] = f"{last} {first}"  # Person.__str__: family name first (Hungarian order)
        pairs[pk] = tuple(ids)
    substitutions = []
    for *substitution, last, first in substitution_rows:
        substitutions.append(tuple(substitution))
        names[substitution[3]] = f"{last} {first}"
    return _People(pairs, substitutions, names, _TEXTS)


_TEXTS: dict = {}  # the worker's JSON texts of standings (_People.texts), bounded in _event_standings


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
    zero = Decimal(0)
    for pair_id, items in session_totals.items():
        if len(items) == 1:  # one session (every pair of a one-session event): the sums below, unrolled
            s = items[0][1]
            total = zero + s.total
            top = None if s.top is None else zero + s.top
            pct = percentage(total, top) if top is not None else None
            key = str(pair_id)
            totals[key] = PairTotal(key, s.direction or None, total, top, pct, s.boards, 0 + s.penalty)
            continue
        directions = {standing.direction or None for _item, standing in items}
        direction = directions.pop() if len(directions) == 1 else None
        total = sum((s.total for _i, s in items), zero)
        tops = [s.top for _i, s in items]
        top = None if any(t is None for t in tops) else sum(tops, zero)
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
    texts = people.texts
    out, order = [], defaultdict(int)
    for placed in ranking:
        total = totals[placed.pair]
        pair_id = int(placed.pair)
        line = placed.direction or ""
        order[line] += 1
        first, last = _places(placed.place)
        items = session_totals[pair_id]
        lines = tuple(
            (
                item.session.number,
                seats[s.pair_id].number,
                str(s.total),
                None if s.percentage is None else str(s.percentage),
                s.place,
            )
            for item, s in (items if len(items) == 1 else sorted(items, key=_session_number))
        )
        sessions = texts.get(lines)
        if sessions is None:
            sessions = texts[lines] = json.dumps(
                [
                    {"session": number, "pair": seat, "total": total_text, "percentage": pct, "place": place}
                    for number, seat, total_text, pct, place in lines
                ]
            )
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
                sessions,
                rights.get(pair_id, "[]"),
                placed.place,
                first,
                last,
                order[line],
            )
        )
    if len(texts) > 50_000:  # kept between rescores: bounded
        texts.clear()
    return out


def _session_number(item_and_standing) -> int:
    return item_and_standing[0].session.number


EVENT_STANDING_FIELDS = (
    "event", "pair", "event_version", "field", "total", "top", "percentage", "boards", "sessions", "rights",
    "place", "place_from", "place_to", "order",
)  # fmt: skip


def _rights(pairs, people: _People, session_totals, loaded: list[_Session], seats) -> dict[int, str]:
    """Per pair: each player, the boards he played and his right to masterpoints and prizes (VSz 25), as
    the JSON text the standings store."""
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
    names, texts = people.names, people.texts
    out = {}
    for pair_id, players in pairs.items():
        items = session_totals[pair_id]
        boards = items[0][1].boards if len(items) == 1 else sum(s.boards for _i, s in items)
        changes = tuple(subs.get(pair_id, ()))
        named = (*players, *(person for change in changes for person in change[:2]))
        key = ("rights", players, boards, changes, tuple(names.get(person, "") for person in named))
        text = texts.get(key)
        if text is None:
            text = texts[key] = json.dumps(
                [
                    {
                        "person_id": right.person_id,
                        "name": names.get(right.person_id, ""),
                        "boards": right.boards,
                        "has_rights": right.has_rights,
                        "substitute_for": right.substitute_for,
                    }
                    for right in player_rights(boards, players, subs.get(pair_id, ()))
                ]
            )
        out[pair_id] = text
    return out
