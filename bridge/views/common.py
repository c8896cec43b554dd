"""What the bridge pages share: loading an object with its permission checked on the server.

Bridge's visibility rule (`visible`): an event that is not public (a draft) does not exist for anybody
who may not manage it (404); the rest is `federation.access`'s one rule (login for an anonymous visitor,
403 for a logged-in one).
"""

from federation.access import object_or_deny
from results.page_cache import by_event
from tournaments.models import Event

from ..models import PairSession
from ..services import pages

VIEW, MANAGE = "bridge.view_results", "bridge.manage_results"


def visible(user, obj) -> bool:
    """Anybody may know a session or event of a public event exists; a draft only who may manage it."""
    event = obj if isinstance(obj, Event) else obj.event
    return event.is_public or user.has_perm(MANAGE, obj)


def by_session(request, pk, **kwargs):
    """The page cache's scopes of a session's public page: its event's."""
    event_id = PairSession.objects.filter(pk=pk).values_list("event_id", flat=True).first()
    return None if event_id is None else by_event(request, event_id)


def session_or_deny(request, pk, perm=VIEW) -> PairSession:
    sessions = PairSession.objects.select_related("event__federation", "event__club", "announced")
    return object_or_deny(request, sessions, perm, visible=visible, pk=pk)


def event_or_deny(request, pk, perm=VIEW) -> Event:
    events = Event.objects.select_related("federation", "club").filter(format=Event.Format.PAIRS)
    return object_or_deny(request, events, perm, visible=visible, pk=pk)


def session_context(request, session, **extra) -> dict:
    """Header facts every session page shows."""
    event = session.event
    return {
        "event": event,
        "session": session,
        "processing": pages.processing(event.pk),
        "recompute_error": pages.recompute_error(event.pk) if request.user.has_perm(MANAGE, session) else "",
        "can_manage": request.user.has_perm(MANAGE, session),
        "sessions": list(
            PairSession.objects.filter(event=event).select_related("announced").order_by("number")
        ),
        **extra,
    }
