"""The entry list on paper and in a spreadsheet (PDF, Hungarian CSV, XLSX): for the event's organisers
and director only, the same `tournaments.manage_entries` check as the entry management page."""

from django.contrib.auth.decorators import login_required
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from federation import pdf, spreadsheet

from ..models import Entry
from .common import event_or_deny
from .entries import MEMBERS

MANAGE = "tournaments.manage_entries"


def _entries(event):
    entries = (
        event.entries.select_related("division").prefetch_related(MEMBERS).order_by("status", "entered_at")
    )
    return [
        (status, label, [e for e in entries if e.status == status]) for status, label in Entry.Status.choices
    ]


def _players(entry) -> list[str]:
    out = []
    for m in entry.members.all():
        club = m.home_club.short_name if m.home_club and m.home_club.short_name else ""
        out.append(" ".join(part for part in (m.person.full_name, f"({club})" if club else "") if part))
    return out


@login_required
def entry_list_pdf(request, pk):
    event = event_or_deny(request, pk, MANAGE)
    divisions = event.divisions.exists()
    blocks = []
    for _status, label, entries in _entries(event):
        if not entries:
            continue
        headers = [_("No."), _("Players")] + ([_("Division")] if divisions else []) + [_("Entered")]
        rows = []
        for n, e in enumerate(entries, start=1):
            players = "\n".join(([e.team_name] if e.team_name else []) + _players(e))
            rows.append(
                (
                    n,
                    players,
                    *([str(e.division or "—")] if divisions else []),
                    timezone.localtime(e.entered_at),
                )
            )
        blocks.append(
            pdf.Table(
                title=f"{str(label)[:1].upper()}{str(label)[1:]} ({len(entries)})",
                headers=headers,
                rows=rows,
                widths=(0.8, 7, *((2.5,) if divisions else ()), 3),
                align="RLLL" if divisions else "RLL",
            )
        )
    if not blocks:
        blocks.append(pdf.Paragraph(_("No entries yet.")))
    subtitle = pdf.line(event.federation, event.club, event.start_date, _("Entry list"))
    return pdf.pdf_response(f"{slugify(event.title)}-nevezesek", event.title, subtitle, blocks)


@login_required
def entry_list_export(request, pk, fmt):
    event = event_or_deny(request, pk, MANAGE)
    header = [_("Status"), _("No."), _("Team"), _("Players"), _("Division"), _("Entered")]
    rows = [
        (
            label,
            n,
            e.team_name,
            ", ".join(_players(e)),
            str(e.division or ""),
            timezone.localtime(e.entered_at).replace(tzinfo=None),
        )
        for _status, label, entries in _entries(event)
        for n, e in enumerate(entries, start=1)
    ]
    name = f"{slugify(event.title)}-nevezesek"
    if fmt == "xlsx":
        return spreadsheet.xlsx_response(name, header, rows, sheet=_("Entry list"))
    return spreadsheet.csv_response(name, header, rows)
