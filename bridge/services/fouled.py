"""Fouled boards (VSz 27): the director says which results of a board were played on which version of the
deal, and who fouled it.

The marking is a decision version (source "adjustment") like an adjusted score: the board's rows carry their
deal group, and the automatic fouling penalties are `ResultPenalty` rows with their catalogue offence. Its
delta (the groups, the penalties) is re-applied on every later upload (`decisions.settle`): carried while the
board has the same tables, put to the director when they changed. The engine scores each group
(`bridge.engine.scoring.fouled`): 60 / 65-55 / 70-60-50 for groups of one to three results, matchpoints
scaled by Neuberg's formula for groups of four or more.
"""

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from bridge.engine.scoring.adjusted import (
    FOULING_DUPLICATION,
    FOULING_UNNOTICED,
    UNNOTICED_FOULING_PERCENT,
    fouling_penalty_percent,
)
from bridge.engine.scoring.fouled import SMALLEST_MATCHPOINTED_GROUP
from results.models import VersionedUpload

from ..models import BoardScore, PairSession, ResultPenalty, ResultVersion, SessionPair
from . import versions
from .exports import pair_labels

MAX_GROUPS = 9


class FouledBoardError(ValueError):
    def __init__(self, messages):
        self.messages = [str(m) for m in messages]
        super().__init__("; ".join(self.messages))


def board_rows(session: PairSession, board: int) -> list[dict]:
    """The board's rows in the latest version (dicts of versions.ROW_FIELDS), in table order."""
    return versions.rows_of(versions.latest_version(session), boards=[board])


def earlier_duplications(session: PairSession, pair_id: int) -> int:
    """How many wrong duplications (VSz 27) the pair has been penalised for in this event so far: the
    penalties in force in the latest version of each of the event's sessions."""
    latest = [
        v.pk
        for v in (versions.latest_version(s) for s in PairSession.objects.filter(event_id=session.event_id))
        if v is not None
    ]
    return ResultPenalty.objects.filter(
        version_id__in=latest, pair__pair_id=pair_id, code=FOULING_DUPLICATION
    ).count()


def mark(
    session: PairSession,
    board: int,
    groups: dict[tuple[int, int], int | None],
    *,
    duplicated_by=(),
    unnoticed_by=(),
    reason: str,
    user,
) -> ResultVersion:
    """Give every result of `board` its deal group ((NS seat id, EW seat id) -> group 1-9, or None for all
    of them to say the board was not fouled after all) and the automatic penalties: 50% to each pair of
    `duplicated_by` (seat ids) for its first wrong duplication in the event, 25% for each further one; 25% to
    each pair of `unnoticed_by` who did not notice. Everything is checked before anything is written."""
    errors = []
    if not reason.strip():
        errors.append(_("Give the reason (what happened to the board)."))
    with transaction.atomic():
        versions.lock_event(session.event_id)
        base = versions.latest_version(session)
        rows = versions.rows_of(base)
        on_board = [r for r in rows if r["board"] == board]
        if not on_board:
            raise FouledBoardError([_("Board %(board)s has no results in this session.") % {"board": board}])
        keys = {(r["ns_id"], r["ew_id"]) for r in on_board}
        labels = pair_labels(session)
        for key in sorted(set(groups) - keys):
            errors.append(
                _("Board %(board)s: pairs %(ns)s and %(ew)s have no result on it.")
                % {"board": board, "ns": labels.get(key[0], "?"), "ew": labels.get(key[1], "?")}
            )
        values = {key: groups.get(key) for key in keys}
        for r in on_board:
            group = values[(r["ns_id"], r["ew_id"])]
            if group is not None and not 1 <= group <= MAX_GROUPS:
                errors.append(
                    _("Table %(table)s: the deal group is a number from 1 to %(max)s.")
                    % {"table": r["table"] or "—", "max": MAX_GROUPS}
                )
        given = {v for v in values.values() if v is not None}
        if given and len(given) < 2:
            errors.append(_("A fouled board has results on at least two versions of the deal."))
        if given and None in values.values():
            missing = sorted(
                str(r["table"] or "—") for r in on_board if values[(r["ns_id"], r["ew_id"])] is None
            )
            errors.append(
                _("Board %(board)s: give the deal group of every table (missing: %(tables)s).")
                % {"board": board, "tables": ", ".join(missing)}
            )
        if not given and all(r["deal_group"] is None for r in on_board):
            errors.append(
                _("Board %(board)s is not marked fouled: there is nothing to clear.") % {"board": board}
            )
        played = {pair for key in keys for pair in key}
        seats = {s.pk: s for s in SessionPair.objects.filter(section__session=session)}
        new_penalties = []
        for seat_id, code in [(s, FOULING_DUPLICATION) for s in duplicated_by] + [
            (s, FOULING_UNNOTICED) for s in unnoticed_by
        ]:
            seat_id = int(seat_id)
            if seat_id not in played:
                errors.append(
                    _("Pair %(pair)s has no result on board %(board)s.")
                    % {"pair": labels.get(seat_id, seat_id), "board": board}
                )
                continue
            if code == FOULING_DUPLICATION:
                earlier = earlier_duplications(session, seats[seat_id].pair_id) + sum(
                    1
                    for p in new_penalties
                    if p["code"] == code and seats[p["pair_id"]].pair_id == seats[seat_id].pair_id
                )
                percent = fouling_penalty_percent(earlier)
                why = _("VSz 27: wrong duplication of board %(board)s") % {"board": board}
            else:
                percent = UNNOTICED_FOULING_PERCENT
                why = _("VSz 27: fouled board %(board)s not noticed") % {"board": board}
            new_penalties.append(
                {"pair_id": seat_id, "board": board, "percent": percent, "reason": why, "code": code}
            )
        both = set(map(int, duplicated_by)) & set(map(int, unnoticed_by))
        if both:
            errors.append(_("A pair that fouled the board is not also penalised for not noticing it."))
        if errors:
            raise FouledBoardError(errors)
        for r in rows:
            if r["board"] == board:
                r["deal_group"] = values[(r["ns_id"], r["ew_id"])]
        return versions.write_version(
            session,
            rows,
            versions.penalties_of(base) + new_penalties,
            source=VersionedUpload.Source.ADJUSTMENT,
            user=user,
            note=reason,
            deals=base.deals,
            base=base,
        )


@dataclass
class Group:
    number: int | None
    rows: list  # BoardScore rows
    rule: str


def scored_groups(session: PairSession, board: int) -> list[Group]:
    """What the engine gave the board, from the stored scores, by deal group, with the rule applied."""
    scores = list(
        BoardScore.objects.filter(session=session, board=board)
        .select_related("ns__section", "ew__section")
        .order_by("deal_group", "-score", "pk")
    )
    out: dict[int | None, list] = {}
    for s in scores:
        out.setdefault(s.deal_group, []).append(s)
    fouled = len(out) > 1
    groups = []
    for number, rows in out.items():
        played = [r for r in rows if not r.artificial]
        if not fouled:
            rule = _("not fouled: matchpoints over the whole board")
        elif len(played) >= SMALLEST_MATCHPOINTED_GROUP:
            rule = _("%(n)s results: matchpoints within the group, scaled by Neuberg (VSz 28)") % {
                "n": len(played)
            }
        else:
            rule = {
                1: _("1 result: 60 per cent of the top on each line (VSz 27 a)"),
                2: _("2 results: 65% and 55%, equal results 60% each (VSz 27 b)"),
                3: _("3 results: 70%, 60% and 50%, equal results share (VSz 27 c)"),
            }.get(len(played), "")
        groups.append(Group(number, rows, rule))
    return groups


def fouled_boards(session: PairSession) -> list[int]:
    """The boards of the latest version marked fouled."""
    return sorted({r["board"] for r in versions.rows_of(versions.latest_version(session)) if r["deal_group"]})
