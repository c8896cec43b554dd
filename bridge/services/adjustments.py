"""Adjusted scores and procedural penalties: the director's rulings and the appeals committee's decisions.

Both arrive through `apply_ruling`, which writes a new version of the session (the other results copied)
and so triggers the same recompute as an upload.
"""

from collections.abc import Iterable
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from bridge.engine.scoring.adjusted import (
    FOULING_DUPLICATION,
    FOULING_UNNOTICED,
    PENALTY_CATALOGUE,
    ArtificialScore,
    Penalty,
    PenaltyOutOfRange,
    check_penalty,
)
from bridge.engine.scoring.contract import board_vulnerability, is_possible_score, vulnerable_sides
from results.models import VersionedUpload

from ..models import PairSession, ResultVersion, SessionPair
from . import versions


class RulingError(ValueError):
    pass


# What each offence of the catalogue is called on the pages (bridge.engine.scoring.adjusted.PENALTY_CATALOGUE).
OFFENCES = {
    "leaving_table": _lazy("leaving the table without reason before the change"),
    "wrong_or_missing_score": _lazy("a wrong score entered, or none"),
    "wrong_board": _lazy("playing the wrong board"),
    "board_without_13_cards": _lazy("passing on a board without 13 cards in a pocket"),
    "taking_other_cards": _lazy("taking another player's cards from the board"),
    "early_card_exchange": _lazy("exchanging cards too early"),
    "incomplete_convention_card": _lazy("incomplete convention card"),
    "missing_convention_card": _lazy("no convention card"),
    FOULING_DUPLICATION: _lazy("wrong duplication of a board"),
    FOULING_UNNOTICED: _lazy("a fouled board not noticed"),
    "other": _lazy("other breach of the laws, the VSz or the director's instructions"),
}
# Given on the fouled-board page, from the pair's record: never chosen by hand.
AUTOMATIC = (FOULING_DUPLICATION, FOULING_UNNOTICED)


def offence_text(code: str) -> str:
    """'VSz 32 c: playing the wrong board (up to 25%)' for a choice list."""
    offence = PENALTY_CATALOGUE[code]
    if offence.fixed:
        size = _("%(high)s%%") % {"high": offence.high}
    elif offence.low:
        size = _("%(low)s-%(high)s%%") % {"low": offence.low, "high": offence.high}
    else:
        size = _("up to %(high)s%%") % {"high": offence.high}
    return f"{offence.clause}: {OFFENCES[code]} ({size})"


def _check_offence(code: str, percent: Decimal) -> None:
    if code not in PENALTY_CATALOGUE:
        raise RulingError(_("%(code)s is not an offence of the catalogue (VSz 27, 32)") % {"code": code})
    try:
        check_penalty(code, percent)
    except PenaltyOutOfRange as error:
        offence = error.offence
        raise RulingError(
            _("%(clause)s: the penalty for %(offence)s is %(low)s-%(high)s%% of the top, not %(percent)s%%")
            % {
                "clause": offence.clause,
                "offence": OFFENCES[code],
                "low": offence.low,
                "high": offence.high,
                "percent": percent,
            }
        )


def _pair(session: PairSession, pair) -> SessionPair:
    """A SessionPair of this session, given as one or by its label ("7", or "B7" with several sections)."""
    if isinstance(pair, SessionPair):
        if pair.section.session_id != session.pk:
            raise RulingError(_("pair %(pair)s does not play in this session") % {"pair": pair.number})
        return pair
    label = str(pair).strip().upper()
    seats = SessionPair.objects.filter(section__session=session).select_related("section")
    letter, number = label.rstrip("0123456789"), label[len(label.rstrip("0123456789")) :]
    found = [s for s in seats if str(s.number) == number and (not letter or s.section.letter == letter)]
    if len(found) != 1:
        raise RulingError(_("pair %(pair)s does not play in this session") % {"pair": label})
    return found[0]


def _penalty(session: PairSession, item) -> dict:
    """A penalty as `Penalty`, or a tuple (pair, percent[, board[, offence code]]); with a code, the
    percentage must be within the catalogue's range for it (VSz 27, 32), without one it is free (0-100)."""
    if isinstance(item, Penalty):
        pair, percent, board, reason, code = item.pair, item.percent, item.board, item.reason, ""
    else:
        pair, percent, board, code = (tuple(item) + (None, None))[:4]
        reason, code = "", code or ""
    try:
        percent = Decimal(str(percent))
    except InvalidOperation:
        raise RulingError(_("%(value)s is not a percentage") % {"value": percent})
    if not Decimal(0) < percent <= Decimal(100):
        raise RulingError(_("a penalty is more than 0 and at most 100 percent of the top"))
    if code:
        _check_offence(code, percent)
        reason = reason or f"{PENALTY_CATALOGUE[code].clause}: {OFFENCES[code]}"
    return {
        "pair_id": _pair(session, pair).pk,
        "board": board,
        "percent": percent,
        "reason": reason,
        "code": code,
    }


def apply_ruling(
    session: PairSession,
    board_number: int | None,
    ns_pair=None,
    ew_pair=None,
    *,
    artificial: str | ArtificialScore | None = None,
    score: int | None = None,
    penalties: Iterable = (),
    reason: str,
    user,
    source: str = "appeal",
) -> ResultVersion:
    """Apply a ruling to one table's result on a board and/or give penalties; returns the new version.

    - `session`: the bridge PairSession; `board_number`: the board (None for penalties alone).
    - `ns_pair`, `ew_pair`: the pairs at the table, as SessionPair objects or their labels ("7", "B7").
    - `artificial`: an artificial adjusted score (VSz 29) "A+", "A", "A-" or split per line "A+/A-" (NS/EW);
      or `score`: an assigned NS score (it must be a score some contract can produce on that board).
      Either replaces the table's result, or adds it when the table has none (e.g. the board was not
      played). Give neither to leave the result as it is.
    - `penalties`: procedural penalties (VSz 32) in percent of the top, each a
      `bridge.engine.scoring.adjusted.Penalty(pair, percent, board, reason)` or a tuple `(pair, percent[, board])`;
      board None takes it from the session total. Pairs as above.
    - `reason`: why (kept on the version); `user`: who decided; `source`: "appeal" (appeals committee)
      or "adjustment" (the director).

    Everything is checked before anything is written (RulingError); the new version is recomputed by the
    Celery task after the commit, exactly like an upload.
    """
    if source not in (VersionedUpload.Source.APPEAL, VersionedUpload.Source.ADJUSTMENT):
        raise RulingError(_("a ruling's source is 'appeal' or 'adjustment'"))
    if artificial is not None and score is not None:
        raise RulingError(_("give an artificial score or an assigned score, not both"))
    changes_result = artificial is not None or score is not None
    if changes_result and (board_number is None or ns_pair is None or ew_pair is None):
        raise RulingError(_("an adjusted score needs the board and both pairs"))
    award = ""
    if artificial is not None:
        try:
            award = str(ArtificialScore.parse(str(artificial)))
        except ValueError as error:
            raise RulingError(str(error))
    if score is not None:
        score = int(score)
        if not is_possible_score(score, *vulnerable_sides(board_vulnerability(board_number))):
            raise RulingError(
                _("no contract scores %(score)s on board %(board)s") % {"score": score, "board": board_number}
            )
    with transaction.atomic():
        versions.lock_event(session.event_id)
        if source == VersionedUpload.Source.ADJUSTMENT:
            # The director's own ruling gets the appeals' dry run too (board played, pairs at that table);
            # an appeal decision was checked when proposed and again by its publication.
            check_ruling(
                session,
                board_number,
                ns_pair,
                ew_pair,
                artificial=artificial,
                score=score,
                penalties=penalties,
            )
        ns = _pair(session, ns_pair) if ns_pair is not None else None
        ew = _pair(session, ew_pair) if ew_pair is not None else None
        if ns is not None and ns == ew:
            raise RulingError(_("a pair cannot play against itself"))
        new_penalties = [_penalty(session, item) for item in penalties]
        if not changes_result and not new_penalties:
            raise RulingError(_("the ruling changes nothing"))
        base = versions.latest_version(session)
        rows = versions.rows_of(base)
        if changes_result:
            row = next(
                (
                    r
                    for r in rows
                    if r["board"] == board_number and r["ns_id"] == ns.pk and r["ew_id"] == ew.pk
                ),
                None,
            )
            clash = [
                r
                for r in rows
                if r is not row and r["board"] == board_number and {r["ns_id"], r["ew_id"]} & {ns.pk, ew.pk}
            ]
            if clash:
                raise RulingError(
                    _("on board %(board)s one of these pairs already has a result against another pair")
                    % {"board": board_number}
                )
            if row is None:
                row = {"board": board_number, "table": None, "ns_id": ns.pk, "ew_id": ew.pk}
                rows.append(row)
            row.update(contract="", declarer="", lead="", tricks=None, score=score, artificial=award)
            if score is not None:
                row["artificial"] = ""
        return versions.write_version(
            session,
            rows,
            versions.penalties_of(base) + new_penalties,
            source=source,
            user=user,
            note=reason,
            deals=base.deals if base else {},
            base=base,
        )


class RulingCheckError(RulingError):
    """What `check_ruling` found: the messages by the argument they concern ("board", "ns_pair", "ew_pair",
    "artificial", "score", "penalties.<i>.pair" / ".percent" / ".board", "session")."""

    def __init__(self, errors: dict[str, list[str]]):
        self.errors = errors
        super().__init__("; ".join(message for messages in errors.values() for message in messages))


def session_boards(session: PairSession, rows=None) -> set[int]:
    """The boards played in the session: those of its latest results and of its sections' movements."""
    rows = versions.rows_of(versions.latest_version(session)) if rows is None else rows
    boards = {r["board"] for r in rows}
    for section in session.sections.all():
        try:
            plan = section.plan()
        except ValueError:  # a section not fully set up has no movement to tell
            plan = None
        if plan is not None:
            boards.update(b for a in plan.assignments for b in a.boards)
    return boards


def check_ruling(
    session: PairSession,
    board_number: int | None,
    ns_pair=None,
    ew_pair=None,
    *,
    artificial: str | ArtificialScore | None = None,
    score: int | None = None,
    penalties: Iterable = (),
) -> None:
    """A dry run of `apply_ruling` against the session's latest results: nothing is written, no lock taken.

    On top of `apply_ruling`'s own checks: the board was played in the session, the two pairs sit in the same
    section and, on that board, neither has a result against another pair, nor did they sit the other way
    round; a penalty's board was played. Raises `RulingCheckError` with every problem found, by argument;
    the messages name pairs by their number (label) and boards by their number, never a database id.
    """
    errors: dict[str, list[str]] = {}

    def refuse(key, message):
        errors.setdefault(key, []).append(str(message))

    base = versions.latest_version(session)
    rows = versions.rows_of(base)
    if base is None:
        refuse("session", _("the session has no results yet: there is nothing for a ruling to change"))
        raise RulingCheckError(errors)
    boards = session_boards(session, rows)
    changes_result = artificial is not None or score is not None
    if artificial is not None and score is not None:
        refuse("score", _("give an artificial score or an assigned score, not both"))
    if changes_result and (board_number is None or ns_pair is None or ew_pair is None):
        refuse("board", _("an adjusted score needs the board and both pairs"))
    board_ok = board_number is not None and board_number in boards
    if board_number is not None and not board_ok:
        refuse("board", _("board %(board)s was not played in this session") % {"board": board_number})
    if artificial is not None:
        try:
            ArtificialScore.parse(str(artificial))
        except ValueError as error:
            refuse("artificial", str(error))
    if score is not None and board_ok:
        if not is_possible_score(int(score), *vulnerable_sides(board_vulnerability(board_number))):
            refuse(
                "score",
                _("no contract scores %(score)s on board %(board)s")
                % {"score": score, "board": board_number},
            )

    def seat(key, pair):
        try:
            return _pair(session, pair)
        except RulingError as error:
            refuse(key, str(error))
            return None

    ns = seat("ns_pair", ns_pair) if ns_pair is not None else None
    ew = seat("ew_pair", ew_pair) if ew_pair is not None else None
    if ns is not None and ew is not None:
        if ns == ew:
            refuse("ew_pair", _("a pair cannot play against itself"))
        elif ns.section_id != ew.section_id:
            refuse(
                "ew_pair",
                _("pairs %(ns)s and %(ew)s play in different sections") % {"ns": ns_pair, "ew": ew_pair},
            )
        elif changes_result and board_ok:
            _check_table(rows, board_number, ns, ew, str(ns_pair).strip(), str(ew_pair).strip(), refuse)
    for i, item in enumerate(penalties):
        if isinstance(item, Penalty):
            pair, percent, board = item.pair, item.percent, item.board
        else:
            pair, percent, board = (tuple(item) + (None,))[:3]
        seat(f"penalties.{i}.pair", pair)
        try:
            value = Decimal(str(percent))
        except InvalidOperation:
            refuse(f"penalties.{i}.percent", _("%(value)s is not a percentage") % {"value": percent})
        else:
            if not Decimal(0) < value <= Decimal(100):
                refuse(
                    f"penalties.{i}.percent", _("a penalty is more than 0 and at most 100 percent of the top")
                )
        if board is not None and board not in boards:
            refuse(
                f"penalties.{i}.board", _("board %(board)s was not played in this session") % {"board": board}
            )
    if not changes_result and not list(penalties) and not errors:
        refuse("session", _("the ruling changes nothing"))
    if errors:
        raise RulingCheckError(errors)


def _check_table(rows, board, ns, ew, ns_label, ew_label, refuse):
    """The two pairs on `board`: their own result, or none at all (the board was not played at their table)."""
    on_board = [r for r in rows if r["board"] == board]
    if any(r["ns_id"] == ns.pk and r["ew_id"] == ew.pk for r in on_board):
        return
    if any(r["ns_id"] == ew.pk and r["ew_id"] == ns.pk for r in on_board):
        refuse(
            "ns_pair",
            _("on board %(board)s pair %(ew)s sat NS and pair %(ns)s EW")
            % {"board": board, "ns": ns_label, "ew": ew_label},
        )
        return
    for pk, label, key in ((ns.pk, ns_label, "ns_pair"), (ew.pk, ew_label, "ew_pair")):
        if any(pk in (r["ns_id"], r["ew_id"]) for r in on_board):
            refuse(
                key,
                _("on board %(board)s pair %(pair)s played against another pair, not against pair %(other)s")
                % {"board": board, "pair": label, "other": ew_label if key == "ns_pair" else ns_label},
            )
