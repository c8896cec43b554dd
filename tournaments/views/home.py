"""The portal's home page: the federations and the next approved events.

It lists events, so it lives here and not in `federation` (the bottom layer, which knows no event)."""

from django.shortcuts import render

from federation.models import Federation

from ..models import Event


def home(request):
    upcoming = (
        Event.objects.filter(status=Event.Status.APPROVED)
        .select_related("federation", "club")
        .order_by("start_date")[:8]
    )
    return render(request, "home.html", {"federations": Federation.objects.all(), "upcoming": upcoming})
