"""What the bridge pages share: loading an object with its permission checked on the server."""

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from tournaments.models import Event

from ..models import PairSession
from ..services import pages

VIEW, MANAGE = "bridge.view_results", "bridge.manage_results"


class LoginNeeded(Exception):
    pass


def _check(request, perm, obj, public_event):
    if request.user.has_perm(perm, obj):
        return
    if not public_event and not request.user.has_perm(MANAGE, obj):
        raise Http404
    if not request.user.is_authenticated:
        raise LoginNeeded
    raise PermissionDenied


def session_or_deny(request, pk, perm=VIEW) -> PairSession:
    session = get_object_or_404(
        PairSession.objects.select_related("event__federation", "event__club", "announced"), pk=pk
    )
    _check(request, perm, session, session.event.is_public)
    return session


def event_or_deny(request, pk, perm=VIEW) -> Event:
    event = get_object_or_404(
        Event.objects.select_related("federation", "club"), pk=pk, format=Event.Format.PAIRS
    )
    _check(request, perm, event, event.is_public)
    return event


def login_or_raise(view):
    """Anonymous visitors of a page they may not see go to the login page instead of a 403."""

    def wrapped(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except LoginNeeded:
            return redirect_to_login(request.get_full_path())

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


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
