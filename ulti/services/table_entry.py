"""Ulti table entry (issue #18): a table's three players keep the round's score sheet on a phone.

The director makes a code for every table of a published round (`create_codes`). Whoever holds a table's
code may write only that table's round, and only while it is its group's current round (the latest
published one) and the table's result is not confirmed yet; every id the phone sends (the entry it built
on, the seat that confirms) is checked against the table here (`send`).

Entries are append-only rows (`TableEntry`): a deal of the sheet (a new one, or a correction of deal n),
settled on the server by the sheet engine as it arrives; then each of the three players confirms the
round's forint result from his own seat, or disputes it, which calls the director (the control room). A
resend with the same idempotency key answers what the first one got. Every entry names the deal entry the
phone saw last (`based_on`, the sheet's head; "k:<key>" for one the phone itself queued while offline): an
entry built on another head is a `Conflict`, never a silent overwrite.

The third confirmation writes the round's next version through the one upload seam
(`sheets.save` -> `uploads.receive`, source "table entry"), which asks for the recompute. When that needs the
director's word (a decision in force on the table) or is refused, the confirmation is kept with the reason
and the control room shows it.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from results.upload_decisions import DecisionsPending
from tournaments.engine import table_codes
from tournaments.services import director_alerts
from ulti.engine import sheet
from ulti.engine import table_entry as deals

from ..models import Round, SheetDraft, TableCode, TableEntry
from . import UltiError, loading, sheets, uploads

Kind = TableEntry.Kind
_KEY = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


class EntryRefused(UltiError):
    """The entry is refused (nothing was written); ``messages`` say why."""


class Conflict(Exception):
    """The phone built on another deal than the table's latest (``current``)."""

    def __init__(self, current: TableEntry | None):
        self.current = current
        super().__init__(_("Another phone of this table entered a deal first."))


# --- the codes ------------------------------------------------------------------------------------------


def create_codes(rnd: Round, user) -> list[TableCode]:
    """A code for every table of the published round that has none yet; returns all its codes."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if not rnd.is_published:
            raise EntryRefused(_("Publish the round's tables first: the codes name its tables."))
        for table in rnd.tables.filter(code__isnull=True):
            for _attempt in range(20):  # 25^6 codes: a clash is rare, twenty in a row impossible
                try:
                    with transaction.atomic():
                        TableCode.objects.create(table=table, code=table_codes.new_code(), created_by=user)
                    break
                except IntegrityError:
                    continue
    return codes_of(rnd)


def codes_of(rnd: Round) -> list[TableCode]:
    return list(TableCode.objects.filter(table__round=rnd).select_related("table").order_by("table__number"))


def find_code(text: str) -> TableCode | None:
    code = table_codes.normalise(text)
    if not table_codes.well_formed(code):
        return None
    return (
        TableCode.objects.select_related("table__round__group__stage__event", "created_by")
        .filter(code=code)
        .first()
    )


# --- the table's sheet ----------------------------------------------------------------------------------


@dataclass
class SeatInfo:
    key: str  # the participant's id as text: the sheet engine's key
    pk: int
    position: int
    name: str
    number: int  # start number


@dataclass
class TableState:
    code: TableCode
    seats: list[SeatInfo]
    required: int  # deals a round (the rule set)
    unit: int
    deals: dict[int, TableEntry] = field(default_factory=dict)  # deal number -> its latest entry
    head: TableEntry | None = None  # the latest deal entry
    answers: dict[int, TableEntry] = field(default_factory=dict)  # participant id -> answer to the head
    problem: str = ""
    filed: bool = False  # the round's latest version has this table's result (the phones', or the director's)

    @property
    def table(self):
        return self.code.table

    @property
    def ordered(self) -> list[TableEntry]:
        return [self.deals[n] for n in sorted(self.deals)]

    @property
    def totals(self) -> dict[str, int]:
        out = {s.key: 0 for s in self.seats}
        for entry in self.deals.values():
            for key, forint in entry.forints.items():
                out[key] = out.get(key, 0) + int(forint)
        return out

    @property
    def upload(self):
        return next((a.upload for a in self.answers.values() if a.upload_id), None)

    @property
    def confirmed(self) -> set[int]:
        return {pk for pk, a in self.answers.items() if a.kind == Kind.CONFIRM}

    @property
    def disputes(self) -> list[TableEntry]:
        return [a for a in self.answers.values() if a.kind == Kind.DISPUTE]

    @property
    def complete(self) -> bool:
        return len(self.deals) >= self.required

    @property
    def status(self) -> str:
        """open, playing, confirming, disputed, pending (confirmed by all three, waiting for the director),
        confirmed (the round's version written), filed (the director entered the table's result himself)."""
        if self.upload is not None:
            return "confirmed"
        if self.filed:
            return "filed"
        if self.disputes:
            return "disputed"
        if len(self.confirmed) == len(self.seats) and self.seats:
            return "pending"
        if self.complete:
            return "confirming"
        return "playing" if self.deals else "open"

    @property
    def done(self) -> bool:
        return self.status in ("confirmed", "pending", "filed")


def seats_of(table) -> list[SeatInfo]:
    return [
        SeatInfo(
            str(s.participant_id),
            s.participant_id,
            s.position,
            str(s.participant.person),
            s.participant.number,
        )
        for s in table.seats.select_related("participant__person").order_by("position")
    ]


def state_of(code: TableCode) -> TableState:
    """The table's sheet as its entries say: each deal's latest entry, the head, the answers to the head."""
    _rules, required, unit = sheets.context_of(code.table)
    state = TableState(code, seats_of(code.table), required, unit)
    answers: list[TableEntry] = []
    for entry in TableEntry.objects.filter(code=code).select_related("upload").order_by("pk"):
        if entry.kind == Kind.DEAL:
            state.deals[entry.number] = entry
            state.head = entry
        else:
            answers.append(entry)
    latest = loading.latest_uploads([code.table.round]).get(code.table.round_id)
    state.filed = latest is not None and latest.lines.filter(table_id=code.table_id).exists()
    head = state.head.pk if state.head else None
    for answer in answers:
        if answer.based_on_id == head and answer.seat_id is not None:
            state.answers[answer.seat_id] = answer
            if answer.problem:
                state.problem = answer.problem
    return state


def is_current(rnd: Round) -> bool:
    """The round is published and no later round of its group is."""
    return (
        rnd.is_published
        and not Round.objects.filter(
            group_id=rnd.group_id, number__gt=rnd.number, status=Round.Status.PUBLISHED
        ).exists()
    )


# --- entries --------------------------------------------------------------------------------------------


@dataclass
class Answer:
    entry: TableEntry
    repeated: bool = False  # the same key was sent before (or the same deal by another phone): nothing new


def _int(value, what) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise EntryRefused(_("%(what)s is not a number.") % {"what": what})


def _based_on(code: TableCode, value) -> TableEntry | None:
    """The entry the phone built on: an id of this table's entry, or "k:<key>" of one it queued itself."""
    if value in (None, "", "null", "none"):
        return None
    value = str(value)
    rows = TableEntry.objects.filter(code=code)
    found = (
        rows.filter(key=value[2:]).first()
        if value.startswith("k:")
        else rows.filter(pk=_int(value, _("Based on"))).first()
    )
    if found is None:
        raise EntryRefused(_("The entry this one builds on is not one of this table's."))
    return found


def deal_message(error: deals.DealError) -> str:
    texts = {
        "declarer": _("choose the declarer"),
        "bid": _("unknown bid %(detail)s") if error.detail else _("choose the bid"),
        "two_bids": _("choose one bid: a quick bid or one from the list, not both (%(detail)s)"),
        "outcome": _("unknown outcome %(detail)s"),
        "kontra": _("a kontra only by a defender, on a part of the bid (%(detail)s)"),
        "impossible_doubled": _(
            "“doubled in the first round” goes only with a part marked impossible: mark that part "
            "impossible or untick the box"
        ),
        "silent": _("unknown silent achievement %(detail)s"),
        "revoke": _("unknown irregularity %(detail)s"),
    }
    return texts.get(error.code, _("the deal could not be read")) % {"detail": error.detail}


def send(
    code: TableCode, *, key, kind, number=None, based_on=None, record=None, seat=None, note=""
) -> Answer:
    """Store one thing a table's phone sent, after checking it against the table.

    Refusals: EntryRefused (not this table's player or entry, not its current round, an impossible deal,
    the sheet not complete for a confirmation, the result already confirmed), Conflict (built on another
    deal than the table's latest). A key sent before answers what it got then, whatever else it says."""
    key = str(key or "")
    if not _KEY.match(key):
        raise EntryRefused(_("The entry has no valid idempotency key."))
    if kind not in Kind.values:
        raise EntryRefused(_("Unknown kind of entry."))
    with transaction.atomic():
        code = (
            TableCode.objects.select_for_update()
            .select_related("table__round__group__stage__event")
            .get(pk=code.pk)
        )
        repeated = TableEntry.objects.filter(code=code, key=key).first()
        if repeated is not None:
            return Answer(repeated, repeated=True)
        rnd = code.table.round
        if not is_current(rnd):
            raise EntryRefused(
                _("Round %(n)s is not the current round: ask the director.") % {"n": rnd.number}
            )
        state = state_of(code)
        if state.status == "filed":
            raise EntryRefused(_("The director has entered this table's result: ask him."))
        if state.done:
            raise EntryRefused(_("The table's result is already confirmed: ask the director."))
        built_on = _based_on(code, based_on)
        head = state.head
        if kind == Kind.DEAL:
            return _deal(code, state, key, number, built_on, record)
        by = _int(seat, _("Seat"))
        seated = {s.pk: s for s in state.seats}
        if by not in seated:
            raise EntryRefused(_("Only the table's own players confirm its result."))
        if built_on is None or head is None or built_on.pk != head.pk:
            raise Conflict(head)
        if not state.complete:
            raise EntryRefused(
                _("The sheet has %(found)s deals; the round has %(required)s.")
                % {"found": len(state.deals), "required": state.required}
            )
        earlier = state.answers.get(by)
        if earlier is not None and earlier.kind == kind == Kind.CONFIRM:
            return Answer(earlier, repeated=True)
        upload, problem = None, ""
        if kind == Kind.CONFIRM and state.confirmed | {by} == set(seated):
            upload, problem = _write_version(code, state)
        if kind == Kind.DISPUTE:
            _hand_to_the_director(code, state)
            _alert(code, head, note)
        entry = TableEntry.objects.create(
            code=code,
            kind=kind,
            key=key,
            seat_id=by,
            based_on=head,
            note=str(note or "")[:300],
            upload=upload,
            problem=problem[:500],
        )
        return Answer(entry)


def _deal(code, state: TableState, key, number, built_on, record) -> Answer:
    number = _int(number, _("Deal"))
    if not 1 <= number <= min(len(state.deals) + 1, state.required):
        raise EntryRefused(
            _("Deal %(n)s cannot be entered now: the sheet has %(found)s of %(required)s deals.")
            % {"n": number, "found": len(state.deals), "required": state.required}
        )
    keys = [s.key for s in state.seats]
    rules, _required, unit = sheets.context_of(code.table)
    settings = loading.settings_of(code.table.round.event)
    try:
        clean = deals.clean(record, keys, number, settings.ruleset.silent_games)
    except deals.DealError as error:
        raise EntryRefused(_("Deal %(n)s: %(text)s") % {"n": number, "text": deal_message(error)})
    line = sheet.settle_sheet([(number, clean)], keys, rules, unit).lines[0]
    if line.error is not None:
        raise EntryRefused(sheets.message(line.error, {s.key: s.name for s in state.seats}))
    head = state.head
    if (built_on.pk if built_on else None) != (head.pk if head else None):
        same = state.deals.get(number)
        if same is not None and same.record == clean:
            return Answer(same, repeated=True)  # both phones entered the same deal: no conflict
        raise Conflict(head)
    entry = TableEntry.objects.create(
        code=code, kind=Kind.DEAL, key=key, number=number, record=clean, forints=line.forints, based_on=head
    )
    return Answer(entry)


def _hand_to_the_director(code: TableCode, state: TableState) -> None:
    """A dispute: the phones' deals become the table's part-way sheet, so the director's sheet page opens
    with them to correct and save (his version then closes the table)."""
    SheetDraft.objects.update_or_create(
        table=code.table,
        defaults={
            "deals": [[n, state.deals[n].record] for n in sorted(state.deals)],
            "saved_by": code.created_by,
        },
    )


def _alert(code: TableCode, head: TableEntry, note) -> None:
    """The event's directors hear of the dispute beyond the control room: mailed once per table and sheet
    (a second player disputing the same sheet adds no alert)."""
    rnd = code.table.round
    director_alerts.raise_alert(
        rnd.event,
        key=f"ulti-dispute:{code.pk}:{head.pk}",
        game="ulti",
        table=code.table.number,
        round=rnd.number,
        note=note,
        url_name="ulti_control_room",
        url_args=[rnd.pk],
    )


def _write_version(code: TableCode, state: TableState):
    """The confirmed sheet as the round's next version (the one seam); (upload, "") or (None, why not)."""
    rows = [(n, state.deals[n].record) for n in sorted(state.deals)]
    note = _("table entry: table %(t)s") % {"t": code.table.number}
    try:
        with transaction.atomic():
            saved = sheets.save(
                code.table, rows, user=code.created_by, note=note, source=uploads.Source.TABLE
            )
    except DecisionsPending:
        return None, _("A decision in force on this table needs the director's word.")
    except UltiError as error:
        return None, "; ".join(error.messages)
    return saved.upload, ""


# --- the director's control room ------------------------------------------------------------------------


@dataclass
class TableProgress:
    table: object
    state: TableState | None  # None: the table has no code
    filed: bool = False  # the round's latest version has this table's result (its phones', a file, a sheet)
    late: bool = False
    seats: list[SeatInfo] = field(default_factory=list)
    forints: dict[int, int] = field(default_factory=dict)  # participant id -> the latest version's result

    @property
    def correction_rows(self) -> list[tuple[SeatInfo, int | None]]:
        """Each seat with its result in the round's latest version (the director's correction form)."""
        return [(seat, self.forints.get(seat.pk)) for seat in self.seats]

    @property
    def finished(self) -> bool:
        return self.filed or (self.state is not None and self.state.done)


def control_room(rnd: Round) -> list[TableProgress]:
    codes = {c.table_id: c for c in codes_of(rnd)}
    latest = loading.latest_uploads([rnd]).get(rnd.pk)
    results = loading.results_of([latest]) if latest else {}
    out = []
    for table in rnd.tables.order_by("number"):
        code = codes.get(table.pk)
        if code is not None:
            code.table = table
        state = state_of(code) if code else None
        out.append(
            TableProgress(
                table,
                state,
                filed=table.pk in results,
                seats=state.seats if state else seats_of(table),
                forints=results.get(table.pk, {}),
            )
        )
    return out


# --- the director's correction --------------------------------------------------------------------------


def correct(table, user, *, forints: dict, reason: str):
    """The director's own correction of a table's round result from the control room: the round's next
    version through the one upload seam (`uploads.receive`, source "correction"), its note naming the
    table, the director and his reason; when the table has a code, a `TableEntry` of kind "director"
    records it beside the phones' entries (who, when, why, the version), and the phones then see the
    table's result as the director's. UltiError: no reason, a player missing or not a number, a result the
    round refuses (nothing written); DecisionsPending: a decision in force on the table (use the sheet)."""
    reason = str(reason or "").strip()
    if not reason:
        raise EntryRefused(_("Say why the result is corrected."))
    seats = seats_of(table)
    values = {}
    for seat in seats:
        value = forints.get(seat.pk, forints.get(str(seat.pk)))
        if value in (None, ""):
            raise EntryRefused(_("Give %(name)s's forint result.") % {"name": seat.name})
        values[seat.pk] = _int(value, seat.name)
    name = user.get_full_name() or user.get_username()
    note = _("director's correction, table %(table)s, by %(name)s: %(reason)s") % {
        "table": table.number,
        "name": name,
        "reason": reason,
    }
    with transaction.atomic():
        upload = uploads.receive(
            table.round,
            uploads.Format.TABLE,
            {"table": table, "forints": values},
            user=user,
            note=note[:500],
            source=uploads.Source.CORRECTION,
        )
        code = TableCode.objects.filter(table=table).first()
        if code is not None:
            TableEntry.objects.create(
                code=code,
                kind=Kind.DIRECTOR,
                key=f"director-{secrets.token_hex(12)}",
                forints={str(k): v for k, v in values.items()},
                based_on=state_of(code).head,
                note=reason[:300],
                upload=upload,
            )
    return upload
