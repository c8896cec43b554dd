"""The director's hand in table entry (VSz 12, 31; issue #18): "next round" with its announcement, and his
own correction of any table's result.

Next round: the phones follow the movement by themselves (a table that finished its round sees its next
round's boards and opponents at once, `table_entry.current_round`); calling the next round moves every
table there, a late table included: the boards it left open stay in the control room for the director
(`table_entry.control_room`), and the new round's clock starts with the VSz 31 time limit.

The director's correction: a new result of one board at one table, written as a correction version (the
row replaced, or added when the table had none: a dispute he settled) and countersigned by him as VSz 12
asks of every correction: the version names him, the `CorrectionRequest` record is approved by him at once
and the table's `TableEntry` of kind "director" makes the phone show the corrected result.
"""

import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from results.models import VersionedUpload

from ..models import CorrectionRequest, PairSession, RoundCall, TableCode, TableEntry
from . import table_entry, versions
from .table_entry import EntryRefused

Kind = TableEntry.Kind


# --- next round -----------------------------------------------------------------------------------------


def next_round_number(session: PairSession, tables=None) -> int:
    """The round "next round" calls: the one after the round the slowest coded table is playing."""
    return table_entry.playing_round(session, tables) + 1


def call_next_round(
    session: PairSession, user, *, announcement: str = "", screens_or_beginners=False, minutes=None
) -> RoundCall:
    """Call the next round (every phone moves to it) and start its clock; EntryRefused when there is none."""
    with transaction.atomic():
        session = PairSession.objects.select_for_update().get(pk=session.pk)
        rounds = table_entry.rounds_of(session)
        if not rounds:
            raise EntryRefused(_("No section of this session has a generated movement to time."))
        number = max(next_round_number(session), table_entry.called_round(session) + 1)
        if number > rounds:
            raise EntryRefused(_("The last round (%(rounds)s) is being played.") % {"rounds": rounds})
        text = str(announcement or "").strip()[:300] or default_announcement(number)
        call = RoundCall.objects.create(session=session, round=number, announcement=text, called_by=user)
        table_entry.start_clock(
            session, user, round=number, screens_or_beginners=screens_or_beginners, minutes=minutes
        )
    return call


def default_announcement(number: int) -> str:
    return _("Round %(round)s: please move to your next table; the boards go on.") % {"round": number}


def latest_call(session: PairSession) -> RoundCall | None:
    return RoundCall.objects.filter(session=session).order_by("-round", "-pk").first()


# --- the director's correction --------------------------------------------------------------------------


def _table_round(code: TableCode, round, board):
    rounds = {r.round: r for r in table_entry.table_rounds(code)}
    found = rounds.get(table_entry._int(round, _("Round")))
    state = found.board(table_entry._int(board, _("Board"))) if found else None
    if state is None:
        raise EntryRefused(
            _("Board %(board)s is not played at table %(table)s in round %(round)s.")
            % {"board": board, "table": code.table, "round": round}
        )
    return found, state


def correct(
    code: TableCode,
    user,
    *,
    round,
    board,
    contract: str,
    declarer: str = "",
    lead: str = "",
    result: str = "",
    reason: str,
) -> TableEntry:
    """The director's own correction of one board at the code's table (any round): a correction version
    with his countersignature (VSz 12). EntryRefused: no such board, an impossible result, no reason."""
    reason = str(reason or "").strip()
    if not reason:
        raise EntryRefused(_("Say why the result is corrected."))
    with transaction.atomic():
        session = code.session
        event_version = versions.lock_event_for_version(session.event_id)
        now, state = _table_round(code, round, board)
        values = table_entry._checked(code, now, state.board, contract, declarer, lead, result)
        base = versions.latest_version(session)
        rows = versions.rows_of(base)
        row = next(
            (
                r
                for r in rows
                if r["board"] == state.board and r["ns_id"] == now.ns.pk and r["ew_id"] == now.ew.pk
            ),
            None,
        )
        recorded = {k: row[k] for k in ("contract", "declarer", "lead", "tricks", "score")} if row else {}
        if row is None:
            row = {"board": state.board, "table": code.table, "ns_id": now.ns.pk, "ew_id": now.ew.pk}
            rows.append(row)
        row.update(values, artificial="")
        name = user.get_full_name() or user.get_username()
        note = _(
            "director's correction, table %(table)s, board %(board)s, countersigned by %(name)s (VSz 12): "
            "%(reason)s"
        ) % {"table": code.table, "board": state.board, "name": name, "reason": reason}
        version = versions.write_version(
            session,
            rows,
            versions.penalties_of(base),
            source=VersionedUpload.Source.CORRECTION,
            user=user,
            note=note,
            deals=base.deals if base else None,
            base=base,
            event_version=event_version,
            changed_boards={state.board} if base is not None else None,
        )
        now_time = timezone.now()
        CorrectionRequest.objects.create(
            session=session,
            board=state.board,
            ns=now.ns,
            ew=now.ew,
            requester_pair=now.ns,
            recorded=recorded,
            contract=values["contract"],
            declarer=values["declarer"],
            lead=values["lead"],
            tricks=values["tricks"],
            score=values["score"],
            reason=reason,
            opponents_agree=True,
            requested_by=user,
            requested_at=now_time,
            status=CorrectionRequest.Status.APPROVED,
            decided_by=user,
            decided_at=now_time,
            decision_note=_("the director's own correction (VSz 12)"),
            version=version,
        )
        return TableEntry.objects.create(
            code=code,
            kind=Kind.CORRECTION,
            key=f"director-{secrets.token_hex(12)}",
            round=now.round,
            board=state.board,
            ns=now.ns,
            ew=now.ew,
            based_on=state.latest,
            note=reason[:300],
            version=version,
            **values,
        )
