"""Permissions of ulti events (see federation/predicates.py for the mechanism).

The director of the event and the staff of its federation (and superusers) draw,
publish, edit and upload; everybody reads the published rounds and the standings of a public event.
"""

import rules

from federation.predicates import is_event_director, is_federation_staff, is_superuser
from tournaments.models import Event

from .models import Round, ScoreSheet, Table

runs_event = is_superuser | is_event_director | is_federation_staff


@rules.predicate
def is_published(user, obj):
    """A public event, or a published round (table, sheet) of one."""
    if obj is None:
        return False
    if isinstance(obj, Event):
        return obj.is_public
    if isinstance(obj, ScoreSheet):
        obj = obj.table
    if isinstance(obj, Table):
        obj = obj.round
    if isinstance(obj, Round):
        return obj.is_published and obj.event.is_public
    event = getattr(obj, "event", None)
    return event is not None and event.is_public


rules.add_perm("ulti.manage_event", runs_event)
rules.add_perm("ulti.view_results", is_published | runs_event)
