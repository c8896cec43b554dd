"""Events of the federations' calendars: the announcement (VSz 4), its history, entries and the waiting list.

One module per kind of record; everything is re-exported here so `from tournaments.models import X` keeps working.
"""

from .alerts import DirectorAlert
from .entries import Entry, EntryChange, EntryMember, Payment
from .events import Division, Event, EventChange, RegionNotice, Session, public_events_q

__all__ = [
    "Event",
    "Session",
    "Division",
    "EventChange",
    "RegionNotice",
    "public_events_q",
    "Entry",
    "EntryMember",
    "Payment",
    "EntryChange",
    "DirectorAlert",
]
