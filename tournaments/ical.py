"""iCalendar (RFC 5545) feeds of the approved calendar, built with the `icalendar` library."""

import datetime

import icalendar
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import EventChange

PRODID = "-//Versenyportal//MBSz MAUSZ naptar//HU"
UID_DOMAIN = "versenyportal.hu"


def _description(event, url):
    lines = [f"{event.federation.short_name} · {event.get_format_display()}"]
    if event.club_id:
        lines.append(str(event.club))
    session_label, deadline_label = _("Session"), _("Entry deadline")
    for session in event.sessions.all():
        start = timezone.localtime(session.starts_at)
        lines.append(f"{session.name or session_label}: {start:%Y-%m-%d %H:%M}")
    if event.entry_deadline:
        lines.append(f"{deadline_label}: {timezone.localtime(event.entry_deadline):%Y-%m-%d %H:%M}")
    lines.append(url)
    return "\n".join(lines)


def build(events, *, name, url_of) -> bytes:
    """One VEVENT per event, all-day over its dates; `url_of(event)` gives the event page's address."""
    cal = icalendar.Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", name)
    cal.add("x-wr-timezone", "Europe/Budapest")
    for event in events:
        url = url_of(event)
        item = icalendar.Event()
        item.add("uid", f"event-{event.pk}@{UID_DOMAIN}")
        item.add("dtstamp", event.updated_at.astimezone(datetime.UTC))
        item.add("dtstart", event.start_date)
        item.add("dtend", event.last_day + datetime.timedelta(days=1))
        item.add("summary", event.title)
        location = ", ".join(part for part in (event.venue, event.venue_address) if part)
        if location:
            item.add("location", location)
        item.add("description", _description(event, url))
        item.add("url", url)
        item.add("status", "CONFIRMED")
        item.add("categories", [event.federation.short_name, event.get_format_display()])
        # Each date move is a new revision of the same VEVENT for subscribed calendars.
        moves = sum(1 for change in event.changes.all() if change.action == EventChange.Action.MOVED)
        item.add("sequence", moves)
        cal.add_component(item)
    return cal.to_ical()
