"""Payments of entry fees: recording a payment or a refund, each entry's paid / unpaid state, the bank
statement import that books transfers by their reference, and the federation's monthly settlement with
the clubs (MAUSZ: 800 Ft of a qualifier's fee and 400 Ft of a rating tournament's are the federation's;
the room rent stays with the host club).

Who may record a payment: the event's organiser (its club's admin, the federation's staff) and its
director (``tournaments.record_payment``). Who may import a statement: the club's admin for the club's
account, the federation's staff for either (``tournaments.import_bank_statement``). The money a club
collected is the organiser's; a transfer imported into the federation's account is the federation's, and
the settlement sets it against the federation's share.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Prefetch, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.models import Club, Federation

from ..engine import bank_statement, fees
from ..engine.payments import PaymentState, payment_state, reference_for, refund_refusal
from ..models import Entry, EntryMember, Event, Payment
from ..refusals import Refused
from . import ledger

reference = reference_for


@dataclass
class EntryPayments:
    entry: Entry
    fee: fees.Fee
    state: PaymentState
    payments: list[Payment] = field(default_factory=list)

    @property
    def reference(self) -> str:
        return reference_for(self.entry.pk)

    @property
    def no_show_fee(self) -> bool:
        """The fee is owed because the entry did not show up and did not withdraw (VSz 7)."""
        return self.fee.reason == "no_show"


def _payments_by_entry(entry_ids) -> dict[int, list[Payment]]:
    rows: dict[int, list[Payment]] = defaultdict(list)
    for payment in Payment.objects.filter(entry_id__in=list(entry_ids)).select_related("recorded_by"):
        rows[payment.entry_id].append(payment)
    return rows


def entry_payments(entry) -> EntryPayments:
    """One entry's fee, payments and state (the entry's members and event are read)."""
    fee = fees.entry_fee(ledger.fee_terms(entry.event), ledger.entry_facts(entry))
    payments = list(entry.payments.select_related("recorded_by"))
    return EntryPayments(entry, fee, payment_state(fee.total, (p.amount for p in payments)), payments)


@dataclass
class PaidLedger:
    ledger: ledger.Ledger
    rows: list[EntryPayments]
    received: int = 0
    refunded: int = 0
    due: int = 0
    refund_due: int = 0

    @property
    def net(self) -> int:
        return self.received - self.refunded

    def by_entry(self) -> dict[int, EntryPayments]:
        return {row.entry.pk: row for row in self.rows}


def ledger_with_payments(event) -> PaidLedger:
    book = ledger.event_ledger(event)
    by_entry = _payments_by_entry(row.entry.pk for row in book.rows)
    out = PaidLedger(book, [])
    for row in book.rows:
        payments = by_entry[row.entry.pk]
        state = payment_state(row.fee.total, (p.amount for p in payments))
        out.rows.append(EntryPayments(row.entry, row.fee, state, payments))
        out.received += state.received
        out.refunded += state.refunded
        out.due += state.due
        out.refund_due += state.refund_due
    return out


def person_payments(person, entries) -> list[EntryPayments]:
    """The state of each of the person's entries (for his own page), in the order given."""
    entries = list(entries)
    by_entry = _payments_by_entry(e.pk for e in entries)
    out = []
    for entry in entries:
        fee = fees.entry_fee(ledger.fee_terms(entry.event), ledger.entry_facts(entry))
        payments = by_entry[entry.pk]
        out.append(
            EntryPayments(entry, fee, payment_state(fee.total, (p.amount for p in payments)), payments)
        )
    return out


def person_fee_rows(person, today=None) -> list[EntryPayments]:
    """The person's entries his own page shows with their fees: the open ones of events not yet over,
    and any other with money still due (a no-show's fee too, VSz 7) or to be paid back; latest first."""
    today = today or timezone.localdate()
    members = EntryMember.objects.filter(person=person).values("entry_id")
    entries = (
        Entry.objects.filter(pk__in=members)
        .select_related("event__federation")
        .prefetch_related(Prefetch("members", queryset=EntryMember.objects.select_related("person")))
        .order_by("-event__start_date", "-pk")
    )
    rows = []
    for row in person_payments(person, entries):
        event = row.entry.event
        current = row.entry.is_open and event.last_day >= today and event.status != Event.Status.CANCELLED
        if current or row.state.due or row.state.refund_due:
            rows.append(row)
    return rows


def confirmation_text(entry) -> str:
    """The lines an entry's confirmation carries about its fee: what is owed and the transfer
    reference (empty when the event charges nothing)."""
    terms = ledger.fee_terms(entry.event)
    if fees.player_fee(terms, junior=False).total == 0 and not terms.junior_entry_fee:
        return ""
    fee = fees.entry_fee(terms, ledger.entry_facts(entry))
    lines = []
    if fee.total:
        lines.append(_("Fee: %(amount)s Ft.") % {"amount": f"{fee.total:,}".replace(",", "\u00a0")})
    lines.append(
        _("Paying by bank transfer, write %(reference)s in the Közlemény field of the transfer.")
        % {"reference": reference_for(entry.pk)}
    )
    return "\n".join(lines)


# Recording


def _locked_entry(entry_id) -> Entry:
    entry = Entry.objects.select_related("event__federation").get(pk=entry_id)
    # One writer at a time per entry, so two refunds cannot both pass the "not more than paid" check.
    Entry.objects.select_for_update().filter(pk=entry.pk).first()
    return entry


@transaction.atomic
def record_payment(
    entry_id,
    user,
    *,
    amount: int,
    method: str,
    paid_on: datetime.date,
    note: str = "",
    refund: bool = False,
    payee: str = Payment.Payee.ORGANISER,
) -> Payment:
    """Book a payment (``amount`` > 0) or, with ``refund``, a refund of ``amount`` (stored negative; its
    reason in ``note`` is required). Raises PermissionDenied or Refused, writing nothing."""
    entry = _locked_entry(entry_id)
    if not user.has_perm("tournaments.record_payment", entry.event):
        raise PermissionDenied
    if payee == Payment.Payee.FEDERATION and not user.has_perm(
        "tournaments.import_bank_statement", entry.event.federation
    ):
        raise Refused([_("Only the federation's staff can book money the federation received.")])
    note = (note or "").strip()
    errors = []
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        errors.append(_("The amount must be a positive whole number of forints."))
    if method not in Payment.Method.values:
        errors.append(_("Choose how it was paid."))
    if payee not in Payment.Payee.values:
        errors.append(_("Choose who received the money."))
    if paid_on > timezone.localdate():
        errors.append(_("The date is in the future."))
    if refund and not note:
        errors.append(_("A refund needs its reason."))
    if refund and not errors:
        state = entry_payments(entry).state
        why = refund_refusal(state, amount)
        if why == "more_than_paid":
            errors.append(
                _("At most %(net)s Ft can be refunded: that much was paid.") % {"net": max(state.net, 0)}
            )
    if errors:
        raise Refused(errors)
    return Payment.objects.create(
        entry=entry,
        amount=-amount if refund else amount,
        method=method,
        paid_on=paid_on,
        payee=payee,
        note=note,
        recorded_by=user,
    )


# The bank statement import


def _scope_entries(scope):
    if isinstance(scope, Club):
        return Entry.objects.filter(event__club=scope)
    if isinstance(scope, Federation):
        return Entry.objects.filter(event__federation=scope)
    raise TypeError(scope)


def _payee(scope) -> str:
    return Payment.Payee.FEDERATION if isinstance(scope, Federation) else Payment.Payee.ORGANISER


@dataclass
class StatementPreview:
    matches: list[bank_statement.Match]
    entries: dict[int, Entry]

    @property
    def matched(self):
        return [m for m in self.matches if m.matched]

    @property
    def matched_rows(self):
        return [(m, self.entries[m.entry_id]) for m in self.matched]

    @property
    def unmatched(self):
        return [m for m in self.matches if not m.matched]

    @property
    def total(self) -> int:
        return sum(m.line.amount for m in self.matched)


def _parse(text: str) -> list[bank_statement.StatementLine]:
    try:
        return bank_statement.parse(text)
    except bank_statement.StatementError as error:
        raise Refused([_(message) % params for message, params in error.problems]) from None


def preview_statement(scope, text: str, user) -> StatementPreview:
    """What importing the statement would book, line by line. Raises Refused (naming the lines) for a
    bad file; writes nothing."""
    if not user.has_perm("tournaments.import_bank_statement", scope):
        raise PermissionDenied
    lines = _parse(text)
    referenced = {ref for line in lines for ref in line.references}
    entries = {
        e.pk: e
        for e in _scope_entries(scope)
        .filter(pk__in=referenced)
        .select_related("event")
        .prefetch_related(Prefetch("members", queryset=EntryMember.objects.select_related("person")))
    }
    booked = set(
        Payment.objects.filter(bank_fingerprint__in=[line.fingerprint for line in lines]).values_list(
            "bank_fingerprint", flat=True
        )
    )
    return StatementPreview(bank_statement.match(lines, set(entries), booked), entries)


def book_statement(scope, text: str, user) -> list[Payment]:
    """Book every matched line of the statement, each once: a line booked before (by any earlier import
    of it) is skipped. All or nothing."""
    with transaction.atomic():
        preview = preview_statement(scope, text, user)
        payee = _payee(scope)
        booked = []
        for m in preview.matched:
            line = m.line
            note = _("Bank statement line %(n)s: %(payer)s, “%(text)s”") % {
                "n": line.line,
                "payer": line.payer or "—",
                "text": line.text,
            }
            try:
                with transaction.atomic():
                    booked.append(
                        Payment.objects.create(
                            entry_id=m.entry_id,
                            amount=line.amount,
                            method=Payment.Method.TRANSFER,
                            paid_on=line.date,
                            payee=payee,
                            note=note,
                            recorded_by=user,
                            bank_fingerprint=line.fingerprint,
                        )
                    )
            except IntegrityError:
                continue  # booked by a concurrent import of the same statement in the meantime
        return booked


# The monthly settlement with the clubs


@dataclass
class SettlementEvent:
    event: Event
    players: int = 0
    fees: int = 0
    to_federation: int = 0
    to_organiser: int = 0
    room_rent: int = 0  # of to_organiser: the qualifier's 400 Ft, the first semifinal's 2 x 400 Ft a player
    collected_by_club: int = 0
    received_by_federation: int = 0

    @property
    def room_rent_rule(self) -> str:
        """Which rent the room-rent line is: "qualifier", "semifinal" (both rounds' rent) or ""."""
        if not self.room_rent:
            return ""
        return "semifinal" if self.event.event_class == Event.EventClass.NUB_SEMIFINAL else "qualifier"

    @property
    def room_rent_players(self) -> int:
        """The players the room rent is counted for (each paid the rule's rent)."""
        per_player = (
            fees.SEMIFINAL_ROOM_RENT if self.room_rent_rule == "semifinal" else fees.QUALIFIER_ROOM_RENT
        )
        return self.room_rent // per_player if self.room_rent else 0

    @property
    def balance(self) -> int:
        """What the club owes the federation for the event (negative: the federation owes the club)."""
        return self.to_federation - self.received_by_federation


@dataclass
class ClubSettlement:
    club: Club
    events: list[SettlementEvent] = field(default_factory=list)

    def _sum(self, name) -> int:
        return sum(getattr(e, name) for e in self.events)

    @property
    def players(self):
        return self._sum("players")

    @property
    def fees(self):
        return self._sum("fees")

    @property
    def to_federation(self):
        return self._sum("to_federation")

    @property
    def to_organiser(self):
        return self._sum("to_organiser")

    @property
    def room_rent(self):
        return self._sum("room_rent")

    @property
    def collected_by_club(self):
        return self._sum("collected_by_club")

    @property
    def received_by_federation(self):
        return self._sum("received_by_federation")

    @property
    def balance(self):
        return self._sum("balance")


def all_clubs(clubs: list[ClubSettlement]) -> ClubSettlement:
    """The statement's all-clubs totals (page, CSV, PDF): every club's events summed, the room rent the
    host clubs keep among them; `club` is None."""
    return ClubSettlement(None, [line for row in clubs for line in row.events])


def settlement(federation, year: int, month: int, club=None) -> list[ClubSettlement]:
    """Per club, the month's approved events (by start date) with a federation share: the fees owed,
    the federation's share and what stays with the club (the rest of a rating tournament's fee; the room
    rent of a NUB qualifier, 400 Ft a player, and of the first semifinal, 2 x 400 Ft a player, also on its
    own line), what the club and the federation received, and the balance between them."""
    events = (
        Event.objects.filter(
            federation=federation,
            club__isnull=False,
            start_date__year=year,
            start_date__month=month,
            status=Event.Status.APPROVED,
        )
        .select_related("club", "federation")
        .prefetch_related(Prefetch("entries__members", queryset=EntryMember.objects.select_related("person")))
        .order_by("club__name", "start_date", "pk")
    )
    if club is not None:
        events = events.filter(club=club)
    received = defaultdict(int)
    for row in (
        Payment.objects.filter(entry__event__in=events)
        .values("entry__event_id", "payee")
        .annotate(total=Sum("amount"))
    ):
        received[(row["entry__event_id"], row["payee"])] += row["total"]
    clubs: dict[int, ClubSettlement] = {}
    for event in events:
        terms = ledger.fee_terms(event)
        line = SettlementEvent(
            event,
            collected_by_club=received[(event.pk, Payment.Payee.ORGANISER)],
            received_by_federation=received[(event.pk, Payment.Payee.FEDERATION)],
        )
        for entry in event.entries.all():
            entry.event = event
            facts = ledger.entry_facts(entry)
            fee = fees.entry_fee(terms, facts)
            if fee.total:
                line.players += facts.players
            line.fees += fee.total
            line.to_federation += fee.to_federation
            line.to_organiser += fee.to_organiser
            line.room_rent += fee.room_rent
        if line.to_federation or line.received_by_federation:
            clubs.setdefault(event.club_id, ClubSettlement(event.club)).events.append(line)
    return list(clubs.values())


def received_per_club(federation, year: int) -> dict[int | None, int]:
    """Net money recorded for the approved events of the year, per organising club (the fee summary)."""
    rows = (
        Payment.objects.filter(
            entry__event__federation=federation,
            entry__event__start_date__year=year,
            entry__event__status=Event.Status.APPROVED,
        )
        .values("entry__event__club_id")
        .annotate(total=Sum("amount"))
    )
    return {row["entry__event__club_id"]: row["total"] for row in rows}
