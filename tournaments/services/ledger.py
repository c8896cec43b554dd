"""Fee ledgers: per event (organiser and staff) and per organising club for a federation's year (staff)."""

from dataclasses import dataclass, field

from federation.engine.age import is_junior

from ..engine import fees
from ..models import Entry, Event


def fee_terms(event) -> fees.FeeTerms:
    return fees.FeeTerms(
        event_class=event.event_class,
        entry_fee=event.entry_fee,
        junior_entry_fee=event.junior_entry_fee,
        meal_fee=event.meal_fee,
        meal_compulsory=event.meal_compulsory,
        round_number=event.qualifier_number,
        cancelled=event.status == Event.Status.CANCELLED,
    )


def entry_facts(entry) -> fees.EntryFacts:
    members = list(entry.members.all())
    return fees.EntryFacts(
        players=len(members),
        juniors=sum(1 for m in members if is_junior(m.person.birth_date, entry.event.start_date)),
        status=entry.status,
        confirmed=all(m.confirmed_at for m in members),
        no_show=entry.no_show,
        fee_waived=entry.fee_waived,
    )


@dataclass
class LedgerRow:
    entry: Entry
    fee: fees.Fee


@dataclass
class Ledger:
    event: Event
    rows: list[LedgerRow] = field(default_factory=list)
    total: fees.Fee = field(default_factory=fees.Fee)


def event_ledger(event) -> Ledger:
    terms = fee_terms(event)
    ledger = Ledger(event)
    entries = event.entries.select_related("division").prefetch_related(
        "members__person", "members__home_club"
    )
    for entry in entries:
        entry.event = event
        fee = fees.entry_fee(terms, entry_facts(entry))
        ledger.rows.append(LedgerRow(entry, fee))
        ledger.total = ledger.total + fee
    return ledger


@dataclass
class ClubSummaryRow:
    organiser: str
    club_id: int | None
    events: int = 0
    entries: int = 0
    total: int = 0
    to_federation: int = 0
    to_organiser: int = 0


def club_summary(federation, year) -> list[ClubSummaryRow]:
    """What each organising club collected in a year and how much of it is due to the federation."""
    events = (
        Event.objects.filter(federation=federation, start_date__year=year, status=Event.Status.APPROVED)
        .select_related("club")
        .prefetch_related("entries__members__person")
    )
    rows: dict[int | None, ClubSummaryRow] = {}
    for event in events:
        key = event.club_id
        row = rows.setdefault(key, ClubSummaryRow(str(event.club or federation), key))
        row.events += 1
        terms = fee_terms(event)
        for entry in event.entries.all():
            entry.event = event
            fee = fees.entry_fee(terms, entry_facts(entry))
            if fee.total or fee.reason in ("owed", "no_show"):
                row.entries += 1
            row.total += fee.total
            row.to_federation += fee.to_federation
            row.to_organiser += fee.to_organiser
    return sorted(rows.values(), key=lambda r: (r.club_id is None, r.organiser))
