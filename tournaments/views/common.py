"""Small helpers the views share."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.utils.http import url_has_allowed_host_and_scheme

from ..models import Event


def event_or_404(request, pk, perm="tournaments.view_event"):
    """The event, if the user may see it (a draft is a 404 to everybody but those who run it)."""
    event = get_object_or_404(Event.objects.select_related("federation", "club", "region"), pk=pk)
    if not request.user.has_perm(perm, event):
        if request.user.has_perm("tournaments.view_event", event):
            from django.core.exceptions import PermissionDenied

            raise PermissionDenied
        raise Http404
    return event


def show_refusal(request, refused):
    for message in refused.messages:
        messages.error(request, message)


def back(request, default, *args):
    """Redirect to the page the form came from (a local `next`), else to `default`."""
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return redirect(target)
    return redirect(default, *args)
