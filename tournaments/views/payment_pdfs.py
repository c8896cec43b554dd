"""Payment documents as PDF (federation/pdf.py): a receipt for each payment or refund of an entry, for the
people who may see the entry's payments page, and the monthly settlement statement next to its page and CSV
(same permission)."""

import datetime

from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from federation import pdf
from federation.access import object_or_deny

from ..engine.payments import receipt_number
from ..models import Entry, EntryMember, Payment
from ..services import payments as service
from ..templatetags.forint import ft
from .payments import _entry_visible, _month, _settlement_scope


def _person(user) -> str:
    return user.get_full_name() or user.email


def receiver(payment, event) -> str:
    """Who received the money: the organising club (the federation when it organised the event itself),
    or the federation for a transfer into its account."""
    if payment.payee == Payment.Payee.FEDERATION or event.club is None:
        return event.federation.name
    return event.club.name


def receipt_blocks(payment, entry) -> tuple[str, str, list]:
    event = entry.event
    refund = payment.is_refund
    number = receipt_number(
        event.federation.code, timezone.localtime(payment.recorded_at).year, payment.pk, refund
    )
    title = _("Refund receipt") if refund else _("Payment receipt")
    rows = [
        (_("Receipt number"), number),
        (_("Date"), payment.paid_on),
        (_("Paid back to") if refund else _("Payer"), entry.display_name),
        (_("Entry"), pdf.line(event.title, event.start_date)),
        (_("Amount paid back") if refund else _("Amount"), ft(abs(payment.amount))),
        (_("Method"), payment.get_method_display()),
        (_("Paid back by") if refund else _("Received by"), receiver(payment, event)),
        (_("Recorded by"), pdf.line(_person(payment.recorded_by), payment.recorded_at)),
        (_("Bank transfer reference"), service.reference(entry.pk)),
    ]
    if payment.note:
        rows.append((_("Reason") if refund else _("Note"), payment.note))
    blocks = [
        pdf.Table([_("Item"), _("Details")], rows, widths=(1, 2), font_size=10),
        pdf.Paragraph(
            _("This receipt confirms that the amount was paid back for the entry; it is not an invoice.")
            if refund
            else _("This receipt confirms the payment of the entry fee; it is not an invoice."),
            size=9,
        ),
    ]
    return title, pdf.line(event.federation.name, number), blocks


@login_required
def payment_receipt(request, pk, payment_pk):
    entries = Entry.objects.select_related("event__federation", "event__club").prefetch_related(
        Prefetch("members", queryset=EntryMember.objects.select_related("person"))
    )
    entry = object_or_deny(request, entries, "tournaments.view_entry_payments", visible=_entry_visible, pk=pk)
    # Only a payment of this entry: another entry's payment number is a 404, whatever the caller may see.
    payment = get_object_or_404(Payment.objects.select_related("recorded_by"), pk=payment_pk, entry=entry)
    title, subtitle, blocks = receipt_blocks(payment, entry)
    return pdf.pdf_response(f"receipt-{payment.pk}", title, subtitle, blocks)


def _month_name(year, month) -> str:
    return date_format(datetime.date(year, month, 1), "YEAR_MONTH_FORMAT")


def _room_rent_rule(line) -> str:
    """The room-rent rule of the event's line, "" where it has none."""
    if line.room_rent_rule == "semifinal":
        return _("room rent: %(players)s × 2 × 400 Ft (both semifinals)") % {
            "players": line.room_rent_players
        }
    if line.room_rent_rule == "qualifier":
        return _("room rent: %(players)s × 400 Ft") % {"players": line.room_rent_players}
    return ""


def settlement_blocks(clubs) -> list:
    headers = [
        _("Date"),
        _("Event"),
        _("Paying players"),
        _("Fees owed"),
        _("Federation's share"),
        _("Kept by the club"),
        _("Of which room rent"),
        _("Collected by the club"),
        _("Received by the federation"),
        _("Balance due to the federation"),
    ]
    widths, align = (2.1, 3.6, 1.3, 1.9, 1.9, 1.9, 1.8, 1.9, 1.9, 2.1), "LLRRRRRRRR"
    blocks = []
    for row in clubs:
        lines = [
            (
                line.event.start_date,
                pdf.line(line.event.title, line.event.get_event_class_display(), _room_rent_rule(line)),
                line.players,
                ft(line.fees),
                ft(line.to_federation),
                ft(line.to_organiser),
                ft(line.room_rent),
                ft(line.collected_by_club),
                ft(line.received_by_federation),
                ft(line.balance),
            )
            for line in row.events
        ]
        lines.append(
            (
                "",
                _("Total"),
                row.players,
                ft(row.fees),
                ft(row.to_federation),
                ft(row.to_organiser),
                ft(row.room_rent),
                ft(row.collected_by_club),
                ft(row.received_by_federation),
                ft(row.balance),
            )
        )
        blocks.append(
            pdf.Table(headers, lines, widths=widths, align=align, title=row.club.name, font_size=7.5)
        )
    if len(clubs) > 1:
        total = service.all_clubs(clubs)
        blocks.append(
            pdf.Paragraph(
                _(
                    "All clubs: fees owed %(fees)s, the federation's share %(share)s, kept by the clubs "
                    "%(kept)s, of which room rent %(rent)s, received by the federation %(received)s, "
                    "balance due %(balance)s."
                )
                % {
                    "fees": ft(total.fees),
                    "share": ft(total.to_federation),
                    "kept": ft(total.to_organiser),
                    "rent": ft(total.room_rent),
                    "received": ft(total.received_by_federation),
                    "balance": ft(total.balance),
                },
                bold=True,
            )
        )
    if not clubs:
        blocks.append(pdf.Paragraph(_("No approved event with a federation share this month.")))
    return blocks


@login_required
def settlement_pdf(request, code=None, pk=None, year=None, month=None):
    federation, club = _settlement_scope(request, pk, code)
    year, month = _month(year, month)
    clubs = service.settlement(federation, year, month, club=club)
    title = _("Settlement statement, %(month)s") % {"month": _month_name(year, month)}
    subtitle = pdf.line(federation.name, club.name if club else _("all clubs"))
    label = f"club{club.pk}" if club else federation.code
    return pdf.pdf_response(
        f"settlement-{label}-{year}-{month:02d}", title, subtitle, settlement_blocks(clubs)
    )
