"""A team event's results as a file to download: USEBIO 1.2 XML (the pairs' is `bridge_export_usebio`),
behind the pages' own `team_event_or_deny`."""

from django.http import HttpResponse
from django.utils.text import slugify

from ..services import exports
from .common import team_event_or_deny


def export_usebio(request, pk):
    event = team_event_or_deny(request, pk)
    response = HttpResponse(exports.usebio_text(event), content_type="application/xml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slugify(event.title) or "teams"}.xml"'
    return response
