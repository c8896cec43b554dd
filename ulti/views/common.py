"""What the ulti pages share: loading an object with its permission checked, through federation.access.

Ulti's visibility rule (who may know an object exists; others get a 404): an event that is not public only
for those who manage it; a draft round, and its tables, only for those who manage the event.
"""

from django.contrib import messages

from federation.access import object_or_deny
from tournaments.models import Event

from ..models import Group, Round, Stage, Table

VIEW, MANAGE = "ulti.view_results", "ulti.manage_event"


def event_visible(user, event) -> bool:
    return event.is_public or user.has_perm(MANAGE, event)


def _round_visible(user, rnd) -> bool:
    return (rnd.is_published and rnd.event.is_public) or user.has_perm(MANAGE, rnd.event)


def _of_event(user, obj) -> bool:
    return event_visible(user, obj.event)


def _of_round(user, table) -> bool:
    return _round_visible(user, table.round)


def event_or_deny(request, pk, perm=VIEW) -> Event:
    events = Event.objects.select_related("federation", "club").filter(format__in=Event.ULTI_FORMATS)
    return object_or_deny(request, events, perm, visible=event_visible, pk=pk)


def round_or_deny(request, pk, perm=VIEW) -> Round:
    rounds = Round.objects.select_related("group__stage__event__federation", "group__stage__event__club")
    return object_or_deny(request, rounds, perm, visible=_round_visible, pk=pk)


def table_or_deny(request, pk, perm=VIEW) -> Table:
    tables = Table.objects.select_related("round__group__stage__event__federation")
    return object_or_deny(request, tables, perm, visible=_of_round, pk=pk)


def group_or_deny(request, pk, perm=MANAGE) -> Group:
    groups = Group.objects.select_related("stage__event__federation")
    return object_or_deny(request, groups, perm, visible=_of_event, pk=pk)


def stage_or_deny(request, pk, perm=MANAGE) -> Stage:
    stages = Stage.objects.select_related("event__federation")
    return object_or_deny(request, stages, perm, visible=_of_event, pk=pk)


def show_errors(request, error):
    for message in error.messages:
        messages.error(request, message)
