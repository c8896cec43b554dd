"""Small helpers the views share."""

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme

from federation.access import object_or_deny

from ..models import Event


def event_or_deny(request, pk, perm="tournaments.view_event"):
    """The event, if the user has `perm` on it; a draft is a 404 to everybody but those who run it
    (federation.access's rule, with tournaments.view_event saying who may know the event exists)."""
    events = Event.objects.select_related("federation", "club", "region")
    return object_or_deny(request, events, perm, visible="tournaments.view_event", pk=pk)


def show_refusal(request, refused):
    for message in refused.messages:
        messages.error(request, message)


def back(request, default, *args):
    """Redirect to the page the form came from (a local `next`), else to `default`."""
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return redirect(target)
    return redirect(default, *args)
