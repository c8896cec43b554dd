"""appeals' section of the personal-data export (federation.personal_data): the appeals the person filed."""

from federation import personal_data

from ..models import Appeal


def _filed(person, user):
    if user is None:
        return []
    return [
        {
            "appeal": a.pk,
            "event": a.event.title,
            "filed_at": a.filed_at,
            "status": a.status,
            "request": a.request,
            "statement": a.statement,
        }
        for a in Appeal.objects.filter(filed_by=user).select_related("event")
    ]


def register():
    personal_data.register_section("appeals_filed", _filed)
