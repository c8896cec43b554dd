"""tournaments' sections of the personal-data export (federation.personal_data): entries and region notices."""

from federation import personal_data

from ..models import EntryMember, RegionNotice


def _entries(person, user):
    if person is None:
        return []
    return [
        {
            "event": m.entry.event.title,
            "event_date": m.entry.event.start_date,
            "entry": m.entry.pk,
            "team_name": m.entry.team_name,
            "status": m.entry.status,
            "entered_at": m.entry.entered_at,
            "withdrawn_at": m.entry.withdrawn_at,
        }
        for m in EntryMember.objects.filter(person=person).select_related("entry__event")
    ]


def register():
    personal_data.register_section("entries", _entries)
    personal_data.register_section(
        "region_notices",
        lambda p, u: RegionNotice.objects.filter(person=p).select_related("region") if p else [],
    )
