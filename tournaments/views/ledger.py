"""Fee ledgers: per event for its organiser and staff, per club for the federation's staff."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils import timezone

from config.query import DATE_PART_RANGES
from federation.access import object_or_deny
from federation.models import Federation

from ..services import ledger, payments
from .common import event_or_deny


@login_required
def fee_ledger(request, pk):
    event = event_or_deny(request, pk, "tournaments.view_fee_ledger")
    book = payments.ledger_with_payments(event)
    return render(
        request,
        "tournaments/fee_ledger.html",
        {
            "event": event,
            "ledger": book.ledger,
            "book": book,
            "may_import": event.club_id is not None
            and request.user.has_perm("tournaments.import_bank_statement", event.club),
        },
    )


@login_required
def club_fee_summary(request, code, year=None):
    federation = object_or_deny(request, Federation, "tournaments.view_club_fee_summary", code=code)
    year = year or timezone.localdate().year
    if (
        not DATE_PART_RANGES["year"][0] <= year <= DATE_PART_RANGES["year"][1]
    ):  # a year no date has (config.query): not an overflow
        raise Http404
    rows = ledger.club_summary(federation, year)
    received = payments.received_per_club(federation, year)
    for row in rows:
        row.received = received.get(row.club_id, 0)
    totals = {
        "events": sum(r.events for r in rows),
        "entries": sum(r.entries for r in rows),
        "total": sum(r.total for r in rows),
        "to_federation": sum(r.to_federation for r in rows),
        "to_organiser": sum(r.to_organiser for r in rows),
        "received": sum(r.received for r in rows),
    }
    return render(
        request,
        "tournaments/club_fee_summary.html",
        {"federation": federation, "year": year, "rows": rows, "totals": totals},
    )
