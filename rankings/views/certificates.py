"""A masterpoint certificate: one player's current award for one event, from the ledger, as an A4 PDF.

Public like the event's award page (`event_awards`): the ledger's current rows are the published record."""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from django.utils.translation import gettext as _

from config.query import id_or_none
from federation import pdf
from federation.models import Membership, Person

from ..models import Award


def certificate_pdf(request, event_id, person_id):
    if id_or_none(event_id) is None or id_or_none(person_id) is None:
        raise Http404("no award")
    person = get_object_or_404(Person, pk=person_id)
    awards = list(
        Award.objects.filter(event_id=event_id, person=person, is_current=True)
        .select_related("event__club", "federation", "version")
        .order_by("pk")
    )
    if not awards:
        raise Http404("no award")
    award = awards[0]
    event, federation = award.event, award.federation
    total = sum((a.amount for a in awards), start=award.amount * 0)
    member = (
        Membership.objects.filter(person=person, federation=federation)
        .values_list("member_number", flat=True)
        .first()
    )
    blocks = [
        pdf.Paragraph(federation.name, size=11, align="C"),
        pdf.Paragraph(_("This certifies that"), align="C"),
        pdf.Paragraph(person.full_name, size=18, bold=True, align="C"),
        pdf.Paragraph(_("member number %(number)s") % {"number": member} if member else "", align="C"),
        pdf.Paragraph(_("earned at the event"), align="C"),
        pdf.Paragraph(event.title, size=14, bold=True, align="C"),
        pdf.Paragraph(pdf.line(event.club, award.date), align="C"),
        pdf.Paragraph(_("place %(place)s and") % {"place": award.place}, align="C"),
        pdf.Paragraph(
            _("%(amount)s masterpoints") % {"amount": pdf.cell_text(total)}, size=16, bold=True, align="C"
        ),
        pdf.Table(
            headers=[_("Version"), _("Reason"), _("Masterpoints"), _("Recorded")],
            rows=[
                (f"v{a.version.version}", a.get_reason_display(), a.amount, a.version.created_at)
                for a in awards
            ],
            widths=(1, 3, 2, 3),
            align="LLRL",
        ),
        pdf.Paragraph(_("From the federation's masterpoint ledger (the current award version)."), size=8),
    ]
    return pdf.pdf_response(
        f"{slugify(event.title)}-{slugify(person.full_name)}-pont",
        _("Masterpoint certificate"),
        pdf.line(federation.short_name, event.start_date),
        [b for b in blocks if not isinstance(b, pdf.Paragraph) or b.text],
    )
